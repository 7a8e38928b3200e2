"""``cgtalg value`` and ``cgtalg game`` on partizan input (issue 11): values named with their
source (CGSuite's GameGridTest / GameGraphTest, Winning Ways), misère outcomes by play, the
store answering the second time."""

from __future__ import annotations

import json

from click.testing import CliRunner

from cgtalg.cli.main import cli


def run(*args):
    r = CliRunner().invoke(cli, list(args), obj={})
    assert r.exit_code == 0, r.output
    return r.output


def test_game_reports_partizan_text():
    d = json.loads(run("game", "{1|0}", "--json"))
    # {1|0}: mean 1/2, temperature 1/2 (Winning Ways ch. 6); in misère play whoever moves
    # first hands the opponent a position where the opponent cannot move, and so wins: P
    assert (d["canonical_form"], d["outcome"], d["mean"], d["temperature"]) == ("{1|0}", "N", "1/2", "1/2")
    assert d["misere_outcome"] == "P"
    assert d["atomic_weight"] is None
    d = json.loads(run("game", "^*", "--json"))
    assert d["outcome"] == "N" and d["atomic_weight"] == "1"     # aw(^*) = aw(^) = 1


def test_value_of_ruleset_positions(tmp_path):
    url = f"sqlite:///{tmp_path / 's.db'}"
    d = json.loads(run("--store", url, "value", "domineering", "4x4", "--json"))
    assert d["canonical_form"] == "±{0,{{2|0},2Tiny(2)|{2|0},Miny(2)}}"   # CGSuite GameGridTest
    d = json.loads(run("--store", url, "value", "hackenbush", "LRLRRLLR", "--json"))
    assert d["canonical_form"] == "77/128" and d["number"] == "77/128"  # CGSuite GameGraphTest
    # Domineering 2x2 in misère play: after either player's domino the opponent cannot move
    # and so wins: a P-position (by play through the generic solver)
    d = json.loads(run("value", "domineering", "2x2", "--no-store", "--json"))
    assert (d["canonical_form"], d["outcome"], d["misere_outcome"]) == ("±1", "N", "P")


def test_value_is_answered_from_the_store(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 's.db'}"
    first = json.loads(run("--store", url, "value", "clobber", "xox|ox.", "--json"))
    assert first["canonical_form"] == "{^^*|*,v}"                         # CGSuite GameGridTest
    from cgtalg.rulesets.partizan import games as partizan_games

    def boom(*a, **k):
        raise AssertionError("recomputed instead of read from the store")

    monkeypatch.setattr(partizan_games, "partizan_form", boom)
    again = json.loads(run("--store", url, "value", "clobber", "xox|ox.", "--json"))
    assert again["canonical_form"] == first["canonical_form"]


def test_value_of_impartial_rulesets_and_bad_positions():
    from cgtalg.errors import RulesetError

    # an impartial ruleset's value is its nim-heap: Kayles G(3) = 3, G(4) = 1, so heaps 3 + 4
    # are *2 (Winning Ways ch. 4); Cram on a 2 x n strip alternates *1, 0 (n odd: *1; brute
    # force in tests/test_rulesets_cram.py)
    for args, want in ((["0.77", "3"], "*3"), (["0.77", "3 4"], "*2"), (["cram", "2x5"], "*")):
        d = json.loads(run("value", *args, "--no-store", "--json"))
        assert d["canonical_form"] == want, (args, d)
    r = CliRunner().invoke(cli, ["value", "clobber", "xq"], obj={})
    assert isinstance(r.exception, RulesetError) and "clobber" in str(r.exception)


def test_value_time_budget_ends_in_a_clear_error():
    from cgtalg.errors import ComputationLimitError

    r = CliRunner().invoke(cli, ["value", "domineering", "6x6", "--time", "0.5", "--no-store"], obj={})
    assert isinstance(r.exception, ComputationLimitError) and "max_seconds" in str(r.exception)


def test_value_takes_game_text_alone():
    """Issue 36: ``cgtalg value "{2|-1}"`` failed with "Missing argument 'POSITION'"; game text
    given alone is answered as ``cgtalg game`` answers it, negative text included (no ``--``),
    and a ruleset named without a position says what to add."""
    d = json.loads(run("value", "{2|-1}", "--json", "--no-store"))
    # {2|-1}: a hot game, mean 1/2 and temperature 3/2 (Siegel CGT II.5: the stops are 2 and -1)
    assert (d["canonical_form"], d["outcome"], d["mean"], d["temperature"]) == ("{2|-1}", "N", "1/2", "3/2")
    assert json.loads(run("value", "-3/2", "--json", "--no-store"))["outcome"] == "R"
    assert json.loads(run("value", "^*", "--json", "--no-store")) == json.loads(run("game", "^*", "--json", "--no-store"))
    r = CliRunner().invoke(cli, ["value", "domineering"], obj={})
    assert r.exit_code != 0 and "give a POSITION" in r.output
    r = CliRunner().invoke(cli, ["value", "no-such-ruleset", "3"], obj={})
    assert r.exit_code != 0 and "unknown ruleset" in str(r.exception)
