"""Fox and Geese through the doors and the shell (issue 36, item 3): a position of a loopy
ruleset is the loopy game it is, valued by the ruleset as a canonical stopper."""

from __future__ import annotations

import json

from click.testing import CliRunner

import cgtalg as cg
from cgtalg.cli.main import cli
from cgtalg.rulesets.registry import get_ruleset

SMALL = "{(3,1),(3,3)}, (1,1)"


def test_doors_take_positions_of_a_loopy_ruleset():
    p = cg.position("fox-and-geese", SMALL)
    rules = get_ruleset("fox-and-geese")
    v = rules.game_value(rules.parse_position(SMALL))
    assert cg.kind_of(p) == "loopy"
    assert cg.canonical_form(p) is v and str(v) == "{2|off}"
    # Left (the geese) moving first reaches 2; Right (the fox) moving first escapes: off
    assert cg.outcome(p) == "N" and str(cg.left_stop(p)) == "2" and str(cg.right_stop(p)) == "off"
    assert cg.compare(p, "on").le


def test_cgtalg_value_answers_for_it(tmp_path):
    out = CliRunner().invoke(cli, ["--store", str(tmp_path / "s.sqlite"), "value", "fox-and-geese", SMALL,
                                   "--json"])
    assert out.exit_code == 0, out.output
    doc = json.loads(out.output)
    assert doc["value"] == "{2|off}" and doc["outcome"] == "N" and doc["loopy"] is True


def test_cgtalg_value_of_a_coin_turning_row_uses_its_grundy_value(tmp_path):
    """Turning Turtles (Winning Ways ch. 14): the row's value is the XOR over its heads of the
    heap values, here checked against a brute-force mex over the moves (turn one head to tails and
    optionally one coin to its left)."""
    row = "THTHHTTHHHH"

    def grundy(r, memo={}):
        if r not in memo:
            opts = set()
            for i, c in enumerate(r):
                if c == "H":
                    base = r[:i] + "T" + r[i + 1:]
                    opts.add(grundy(base))
                    for j in range(i):
                        flip = "T" if base[j] == "H" else "H"
                        opts.add(grundy(base[:j] + flip + base[j + 1:]))
            g = 0
            while g in opts:
                g += 1
            memo[r] = g
        return memo[r]

    out = CliRunner().invoke(cli, ["--store", str(tmp_path / "s.sqlite"), "value", "turning-turtles", row, "--json"])
    assert out.exit_code == 0, out.output
    doc = json.loads(out.output)
    want = grundy(row)
    assert doc["canonical_form"] == ("0" if want == 0 else "*" if want == 1 else f"*{want}")
