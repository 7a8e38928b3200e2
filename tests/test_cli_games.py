"""The `cgtalg game`, `cgtalg equiv` and `cgtalg demo` commands (the README's examples)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cgtalg.cli.main import cli, main


@pytest.fixture
def run(tmp_path):
    url = str(tmp_path / "cli.sqlite")

    def invoke(*args):
        result = CliRunner().invoke(cli, ["--store", url, *args], catch_exceptions=False)
        return result

    return invoke


def test_game_misere(run):
    res = run("game", "{*2}", "--misere")
    assert res.exit_code == 0
    assert "misère: P-position, misère Grundy value 0, canonical form *[2#]" in res.output
    data = json.loads(run("game", "{*2}", "--misere", "--json").output)
    assert data["misere_canonical"] == "*[2#]" and data["grundy"] == 0
    assert "misere_canonical" in data["from_store"]  # second query: from the store


def test_equiv_misere_proof(run):
    res = run("equiv", "{*2}", "*2+*2", "--misere")
    assert res.exit_code == 0
    assert "{*2} ≢ *2+*2 in misère play" in res.output
    assert "Distinguisher T" in res.output and "proof re-checked by direct play: OK" in res.output
    data = json.loads(run("equiv", "*2+*", "*3", "--misere", "--json").output)
    assert data["holds"] is True and data["proof_checked"] is True and data["relation"] == "="


def test_equiv_compares_every_kind(run):
    """One command for every comparison (issue 19): partizan games in normal play, and in
    misère play modulo a universe, each certificate re-checked (outcomes by Siegel CGT II.1:
    {0|} = 1 < 2; seed 002: *+* = 0 among dicots, not in general)."""
    data = json.loads(run("equiv", "{0|}", "{0|}+{0|}", "--json").output)
    assert data["relation"] == "<" and data["misere"] is False
    data = json.loads(run("equiv", "*+*", "0", "--misere", "--universe", "dicot", "--json").output)
    assert data["relation"] == "=" and data["proof_checked"] is True
    data = json.loads(run("equiv", "*+*", "0", "--misere", "--universe", "all", "--json").output)
    assert data["relation"] != "=" and data["proof_checked"] is True

def test_equiv_refuses_a_partizan_game_in_the_impartial_universe(tmp_path, capsys):
    code = main(["--store", str(tmp_path / "x.sqlite"), "equiv", "{0|}", "0", "--misere",
                 "--universe", "impartial"])
    err = capsys.readouterr().err
    assert code == 2 and "impartial universe holds impartial games only" in err
    assert "unexpected" not in err


def test_demo_runs_twice_and_second_run_uses_the_store(run):
    first = run("demo")
    assert first.exit_code == 0, first.output
    assert "Guy's parity subtraction game from 25 beans" in first.output
    second = json.loads(run("demo", "--json").output)
    equivalences = [s for s in second["steps"] if "equivalence" in s]
    assert equivalences and all(s["from_store"] for s in equivalences)


def test_bad_game_text_is_a_clear_error(tmp_path, capsys):
    code = main(["--store", str(tmp_path / "x.sqlite"), "game", "{*2,"])
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("cgtalg: error: bad game notation '{*2,' at position 4")
