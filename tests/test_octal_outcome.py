"""Multi-heap normal play: outcomes and winning moves, brute force on small positions and
the certified period for heaps up to 10**12.

Brute force: the forms of the positions (sums of heap forms built from the moves) and the
foundation's fold-based Grundy values and outcomes (Sprague-Grundy theorem, Winning Ways
ch. 2), independent of the kernels.
"""

from __future__ import annotations

import random

import pytest

import cgtalg as cg
import cgtalg.rulesets.heaps.play as heap_play_mod
from cgtalg.errors import ComputationLimitError, RulesetError
from cgtalg.rulesets.heaps.games import GrundysGame, subtraction
from cgtalg.rulesets.heaps.position import HeapMove
from cgtalg.rulesets.heaps.octal import TakeAndBreak


@pytest.mark.parametrize("text", ["0.77", "0.137", "0.6", "4.07", "0x0.B"])
def test_outcome_and_winning_moves_by_brute_force(text):
    code = TakeAndBreak(text)
    rng = random.Random(3)
    for _ in range(25):
        heaps = [rng.randint(0, 9) for _ in range(rng.randint(1, 3))]
        form = code.game_of(heaps)
        assert code.outcome(heaps) == cg.outcome(form)
        moves = code.winning_moves(heaps)
        got = {m.result(heaps) for m in moves}
        # every option of the position that is a P-position (normal play)
        expected = {q for q in code.moves(heaps) if cg.outcome(code.game_of(q)) == "P"}
        assert got == expected, (text, heaps)
        for m in moves:
            assert m.heap == heaps[m.heap_index] and m.removed + sum(m.parts) == m.heap


def test_p_position_has_no_winning_move():
    k = TakeAndBreak("0.77")
    assert k.outcome([1, 1]) == "P" and k.winning_moves([1, 1]) == []
    assert k.outcome([]) == "P"


def test_huge_heaps_from_the_certified_period():
    k = TakeAndBreak("0.77")
    per = k.periodicity()
    G = k.grundy_sequence(200)
    for n in [10**6, 10**12, 10**12 + 7]:
        assert k.grundy_value(n) == G[71 + (n - 71) % 12]
    assert k.outcome([5, 9, 10**12]) == ("P" if 4 ^ 4 ^ k.grundy_value(10**12) == 0 else "N")
    assert k._period is per or k._period.period == 12


def test_families_agree_with_direct_enumeration(monkeypatch):
    """Force the periodic (family) path on heaps small enough to enumerate directly."""
    for text in ["0.77", "0.137"]:
        code = TakeAndBreak(text)
        per = code.periodicity()
        n = per.preperiod * 2 + 5 * per.period + 11
        for heaps in ([n], [n, 3], [n, n + 1, 7]):
            direct = code.winning_moves(heaps)
            monkeypatch.setattr(heap_play_mod, "ENUMERATE_LIMIT", 10)
            fam = code.winning_moves(heaps)
            monkeypatch.undo()
            expand = lambda ms: sorted((m.heap_index, parts) for m in ms for parts in m.members())
            assert expand(fam) == expand(direct), (text, heaps)
            assert any(m.count > 1 for m in fam) or not direct


def test_winning_moves_of_a_trillion_heap():
    k = TakeAndBreak("0.77")
    moves = k.winning_moves([5, 9, 10**12])
    total = sum(m.count for m in moves)
    assert total > 10**10
    G = lambda n: k.grundy_value(n)
    for m in moves[:50]:
        for j, parts in enumerate(m.members()):
            if j > 3:
                break
            x = 0
            for h in [5, 9] + list(parts):
                x ^= G(h)
            assert x == 0
    fam = [m for m in moves if m.count > 1][0]
    assert "every 12th such split" in str(fam) and fam.to_json()["stride"] == 12


def test_no_period_means_a_clear_limit_error():
    officers = TakeAndBreak("0.6")
    with pytest.raises(ComputationLimitError, match="heap 1000000000000 is beyond the direct limit"):
        officers.grundy_value(10**12, limit=10**5)
    with pytest.raises(RulesetError, match="heap sizes must be non-negative integers, got -1"):
        officers.outcome([3, -1])


def test_subtraction_and_grundys_game_outcomes():
    s = subtraction([1, 3, 4])
    assert s.outcome([7]) == "P" and s.outcome([7, 1]) == "N"
    assert sorted(m.result([7, 1]) for m in s.winning_moves([7, 1])) == [(1, 3), (7,)]
    g = GrundysGame()
    for heaps in ([3], [5, 4], [7, 7, 2]):
        assert g.outcome(heaps) == cg.outcome(g.game_of(heaps))


def test_heap_move_text():
    m = HeapMove(2, 10, 2, (3, 5))
    assert str(m) == "heap #2 (10): take 2, leaving 3 + 5"
    assert m.result([4, 4, 10]) == (3, 4, 4, 5)
