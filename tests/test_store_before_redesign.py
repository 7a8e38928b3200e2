"""A store written before the redesign (issue 19) stays readable: its rows are served as they
were written, nothing is recomputed, and ``verify_store`` finds it consistent.

``tests/data/store_written_before_issue19.sqlite`` was written by cgtalg at commit bb1b14e (main
before issue 19) with the commands ``game "{*2}" --misere``, ``value domineering 2x3``,
``outcome 0.77 5 9 --misere``, ``quotient 0.123``, ``grundy 0.77 -n 100``, ``solve parity 25``
and ``equiv "{*2}" "*2+*2"`` (misère, its default then). The redesign changed no store key, so no
migration is needed; this test is the guard that none is.
"""

from __future__ import annotations

import pathlib
import shutil

import pytest

import cgtalg as cg
from cgtalg.report import PROPERTIES, prove_equivalence
from cgtalg.store import open_store, verify_store

DATA = pathlib.Path(__file__).parent / "data" / "store_written_before_issue19.sqlite"


@pytest.fixture
def old_store(tmp_path):
    path = tmp_path / "old.sqlite"
    shutil.copy(DATA, path)
    st = open_store(str(path))
    yield st
    st.close()


def test_the_old_rows_are_served_without_recomputation(old_store, monkeypatch):
    import cgtalg.report as report

    def explode(*args, **kwargs):
        raise AssertionError("recomputed a property the old store holds")

    monkeypatch.setattr(report, "property_computers", lambda: {n: explode for n in PROPERTIES})
    r = cg.describe("{*2}", store=old_store)
    assert r.from_store == set(PROPERTIES)
    # {*2} is a misère P-position of normal value 0 whose canonical form CGSuite writes *[2#]
    assert r.values["grundy"] == 0 and r.values["misere_outcome"] == "P"
    assert r.values["misere_canonical"] == "*[2#]"


def test_an_old_verdict_and_an_old_partizan_value_are_read_back(old_store):
    v = prove_equivalence("{*2}", "*2+*2", misere=True, store=old_store)
    assert v.from_store and not v.holds  # seed 002: {*2} and *2+*2 are not misère-equivalent
    from cgtalg.rulesets.partizan.games import partizan_value

    g = partizan_value(cg.get_ruleset("domineering"), cg.position("domineering", "2x3").value,
                       store=old_store)
    assert cg.compare(g, cg.position("domineering", "2x3")).equal


def test_the_old_store_verifies(old_store):
    report = verify_store(old_store)
    assert report["ok"], report["problems"]
