"""Weights fitted to the outcomes (cgtalg.quotients.largest_heap.fit_rows / fit_weights) and the
door's use of them (cgtalg.ops.largest_heap.largest_heap_verdict): the vectorised conflict test
against a plain dictionary over every vector, the fits against the weights of the published rules
(docs/data/largest_heap_rules/, proved by the referee and checked against brute-force play in
tests/test_referee_heap_rule_sets.py), and the door handing the coarsest fit to the referee."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from brute_octal import MisereBrute, partitions
from cgtalg.errors import ComputationLimitError
from cgtalg.ops import largest_heap as door
from cgtalg.quotients.largest_heap import Positions, RulePlay, fit_rows, fit_weights
from cgtalg.rulesets.heaps.octal import TakeAndBreak

RULES = Path(__file__).resolve().parent.parent / "docs" / "data" / "largest_heap_rules"


def _naive(rows, gv, p, E, lo, hi, window):
    """Every conflict-free vector with its key count, by a dictionary per vector (the definition)."""
    zl, zh = window
    got = {}
    for ex in itertools.product(*[range(0, h + 1) for h in range(1, E)]):
        for res in itertools.product(range(lo, hi + 1), repeat=p):
            def c(h):
                return ex[h - 1] if h < E else res[h % p]
            seen, ok = {}, True
            for hs, isp in rows:
                m = hs[0]
                G = 0
                z = m
                for h in hs[1:]:
                    G ^= gv(h)
                    z -= h - c(h)
                key = (m if m < E + 2 * p else ("r", m % p), G, min(max(z, zl), zh))
                if seen.setdefault(key, isp) != isp:
                    ok = False
                    break
            if ok:
                got[(ex, res)] = len(seen)
    return got


@pytest.mark.parametrize("code, tokens, E, hi, window", [("0.337", 12, 3, 5, (-6, 12)), ("0.337", 14, 4, 5, (-3, 6)),
                                                         ("4.7", 16, 4, 4, (-3, 6)), ("0.534", 13, 2, 6, (-3, 6))])
def test_fit_rows_is_the_dictionary_test_of_every_vector(code, tokens, E, hi, window):
    pos = Positions(TakeAndBreak(code), tokens, None)
    want = _naive(pos.data, pos.gv, pos.p, E, 0, hi, window)
    fits = fit_rows(pos.data, pos.gv, pos.p, E, (0, hi), window=window, limit=10 ** 6, sample=(40,))
    assert {(tuple(f.exact), tuple(f.residue)): f.keys for f in fits} == want
    assert [f.keys for f in fits] == sorted(f.keys for f in fits)
    assert want or (code, window) == ("0.337", (-3, 6))        # every vector conflicts there: z clamped too soon


@pytest.mark.parametrize("code", ["0.337", "4.52", "4.7"])
def test_the_published_weights_are_the_coarsest_fit_over_small_positions(code):
    """The weights of the rules proved in the sixteenth session (read there off verified Q_56,
    tools/quotient_weights.py) come first among the fits over the positions of 22 tokens."""
    doc = json.loads((RULES / f"{code}.json").read_text())
    fits = fit_weights(Positions(TakeAndBreak(code), 22, None))
    c = doc["weights"]["exact"] + doc["weights"]["residue"] * 3
    best = fits[0]
    assert best.exact + best.residue * 3 == c[: len(best.exact) + 3 * len(best.residue)]
    assert all(f.keys > best.keys for f in fits[1:])


def test_fit_weights_keeps_within_its_vector_limit():
    pos = Positions(TakeAndBreak("0.337"), 10, None)
    with pytest.raises(ComputationLimitError):
        fit_rows(pos.data, pos.gv, pos.p, 4, (0, 7), max_vectors=1000)
    assert fit_weights(pos, exact_below=9) == []          # 9! exact vectors: not even 0 .. 2 fits


def test_the_door_hands_the_coarsest_fit_read_off_34_tokens_to_the_referee(monkeypatch):
    """0.337: no weights in 0 .. 2 fit; the fitted candidate goes to the referee, read off the
    positions of 34 tokens (read off 26 it lacks a P-key and is refused); the rule read is the
    published one (read off 30)."""
    seen = []

    def check(doc, max_seconds=None, **kw):
        seen.append(doc)

        class V:
            ok = False
            reasons = ["FAIL: refused here"]
        return [V()]

    monkeypatch.setattr("cgtalg.referee.heap_rule.check", check)
    assert door.largest_heap_verdict("0.337", max_seconds=None) is None
    assert seen and len(seen) <= door.MAX_FITS
    first = seen[0]
    assert first["weights"] == {"exact": [1, 0, 1], "residue": [4, 5, 4, 5]}
    assert first["read_off"]["max_tokens"] == door.FIT_TOKENS and first["grundy"]["preperiod"] == 4
    published = json.loads((RULES / "0.337.json").read_text())
    assert first["rule"] == published["rule"]


def test_a_check_cut_off_by_the_budget_leaves_a_note(monkeypatch):
    def check(doc, max_seconds=None, **kw):
        class V:
            ok = False
            reasons = ["FAIL: the views were not all checked within 1.0 s of CPU time"]
        return [V()]

    monkeypatch.setattr("cgtalg.referee.heap_rule.check", check)
    notes = []
    assert door.largest_heap_verdict("0.337", max_seconds=None, notes=notes) is None
    assert len(notes) == 1
    assert "c(1 .. 3) = 1, 0, 1, then 4, 5, 4, 5 by residue mod 4" in notes[0]
    assert "at most 34 tokens" in notes[0] and "larger --time" in notes[0]


def test_the_quotient_command_gives_the_rule_a_quarter_of_a_long_budget():
    from cgtalg.cli.quotient import _rule_reserve, _rule_time

    assert _rule_reserve("heaps", TakeAndBreak("0.337"), None, 480.0) == 120.0
    assert _rule_time(60.0) == "8m" and _rule_time(600.0) == "41m"
    assert _rule_reserve("heaps", TakeAndBreak("0.337"), None, 8 * 60.0) >= 120.0


@pytest.mark.slow
def test_the_door_proves_0337_by_itself_and_the_rule_agrees_with_play():
    v = door.largest_heap_verdict("0.337", max_seconds=900)
    assert v is not None and v["verdict"]["ok"]
    rule = RulePlay(TakeAndBreak("0.337"), v["certificate"])
    brute = MisereBrute("0.337", 20)
    for t in range(1, 21):
        for pos in partitions(t, t):
            assert rule.is_p(pos) == brute.is_p(pos), pos
