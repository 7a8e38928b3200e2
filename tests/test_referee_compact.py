"""The referee's compact numbers (cgtalg.referee.compact): certificates of normal-play orders of
forms holding numbers too large for a tree are re-decided from the definition of the order, and
the answers are those of play on literal trees (checked in a second process where the referee
keeps every number beyond 2 whole)."""

from __future__ import annotations

import json
import subprocess
import sys

import cgtalg as cg
from cgtalg.referee import check_document


def _verdicts(doc):
    return check_document(doc)


def test_compact_orders_are_checked_and_a_false_claim_fails():
    for a, b, rel in (("1000000+^", 10**6, ">"), ("{1000000|-1000000}", 0, "||"),
                      (-1823437481924, -1823437481925, ">"), ("1000000*", 1000000, "||")):
        c = cg.compare(a, b)
        assert c.relation == rel
        doc = c.to_json()
        assert any(isinstance(r, dict) and "number" in r for r in doc["certificates"][0]["forms"])
        assert all(v.ok for v in _verdicts(doc)), a
        bad = json.loads(json.dumps(doc))
        bad["relation"] = bad["certificates"][0]["relation"] = "<" if rel != "<" else ">"
        assert not all(v.ok for v in _verdicts(bad)), a


_SCRIPT = r"""
import json, random, sys
from fractions import Fraction
from cgtalg.referee import games as gm
from cgtalg.referee.partizan import _order
gm.MAX_INTEGER = int(sys.argv[1])
rng = random.Random(7)
def num():
    return gm.number(Fraction(rng.randint(-12, 12), rng.choice([1, 1, 2, 4])))
def form(depth):
    if depth == 0 or rng.random() < 0.3:
        return num()
    return gm.form([form(depth - 1) for _ in range(rng.randint(1, 2))],
                   [form(depth - 1) for _ in range(rng.randint(1, 2))])
games = [form(3) for _ in range(30)]
print(json.dumps([[list(_order(g, h)) for h in games] for g in games]))
"""


def test_the_definition_agrees_with_play_on_literal_trees():
    def run(limit):
        done = subprocess.run([sys.executable, "-c", _SCRIPT, str(limit)], capture_output=True, text=True,
                              timeout=900)
        assert done.returncode == 0, done.stderr[-2000:]
        return json.loads(done.stdout)

    assert run(2) == run(10_000)


def test_check_reads_the_input_text_by_value(tmp_path):
    """`cgtalg equiv G H --json` keeps the texts given; in normal play the referee reads a sum
    with a number kept whole by its value (number translation) and must find the same game, by
    the order; a false relation still fails."""
    from click.testing import CliRunner

    from cgtalg.cli.main import cli

    for g, h in (("1000000 + ^", "1000000"), ("{1000000|0} + 5", "{1000005|5}"), ("1000000 + {1|0}", "{1000001|1000000}")):
        out = CliRunner().invoke(cli, ["--store", str(tmp_path / "s.sqlite"), "equiv", g, h, "--json"])
        assert out.exit_code == 0, out.output
        doc = json.loads(out.output)
        assert all(v.ok for v in _verdicts(doc)), (g, h, [v.reasons for v in _verdicts(doc)])
        bad = json.loads(out.output)
        bad["relation"] = bad["certificates"][0]["relation"] = "<" if doc["relation"] != "<" else ">"
        assert not all(v.ok for v in _verdicts(bad))
