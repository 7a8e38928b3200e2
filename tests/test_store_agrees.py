"""Every command that stores answers gives the same answer through the store and without it
(issue 32): each question is asked with ``--no-store``, then twice on one store (the first run
computes and writes, the second reads back), and the three ``--json`` outputs must agree on
every field but the ones that say where an answer came from or how long it took.

The expected answers are the command's own, compared across the three paths: what this test
guards is that a stored row can never change an answer. (The values themselves are checked
against sources elsewhere: Kayles 0.77 and Dawson's Kayles 0.07 against Winning Ways ch. 4 in
tests/test_octal.py, the misère quotient of 0.123 against Plambeck's seed in
tests/test_quotient.py, Guy's parity game against seed 003 in tests/test_parity.py.)
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cgtalg.cli.main import cli

#: fields about provenance and timing, not the answer
PROVENANCE = {"from_store", "store", "seconds", "run_seconds", "method", "note", "values_checked", "progress",
              "resumed_from", "hint", "computed", "skipped", "batches", "elapsed", "source"}

QUESTIONS = [
    ["game", "{*2}", "--misere"],
    ["game", "*2+*3"],
    ["game", "1 + -1", "--misere"],
    ["game", "{1|0} + 1/2", "--misere"],
    ["equiv", "{*2}", "*2+*2", "--misere"],
    ["equiv", "*2+*", "*3", "--misere"],
    ["equiv", "{1|0}", "{1|*}"],
    ["equiv", "{1|0}", "{1|*}", "--misere", "--universe", "all"],
    ["grundy", "0.77", "-n", "60"],
    ["period", "0.07"],
    ["outcome", "0.77", "5", "9", "12", "--misere"],
    ["outcome", "0.77", "5", "9", "12"],
    ["outcome", "0.07", "4", "7", "20", "--misere"],
    ["quotient", "0.123"],
    ["misere", "0.77", "-n", "20"],
    ["solve", "parity", "25"],
    ["value", "domineering", "3x3"],
    ["loopy", "dud", "on + off"],
    ["census", "octal", "--digits", "1", "--values", "2^10", "--scheduler", "serial"],
]


def _run(args: list[str]) -> dict:
    r = CliRunner().invoke(cli, args + ["--json"], obj={})
    assert r.exit_code == 0, (args, r.output[-2000:])
    return json.loads(r.output)


def _answer(doc):
    """The document without its provenance and timing fields, at every depth."""
    if isinstance(doc, dict):
        return {k: _answer(v) for k, v in doc.items() if k not in PROVENANCE}
    if isinstance(doc, list):
        return [_answer(v) for v in doc]
    return doc


@pytest.mark.parametrize("question", QUESTIONS, ids=[" ".join(q) for q in QUESTIONS])
def test_the_store_never_changes_an_answer(tmp_path, question):
    store = str(tmp_path / "store.sqlite")
    fresh = _answer(_run(question + ["--no-store"]))
    first = _answer(_run(["--store", store] + question))
    again = _answer(_run(["--store", store] + question))
    assert first == fresh
    assert again == fresh
