"""Misère quotients (cgtalg.misere.quotient) against brute-force play and published values.

Sources: Plambeck, "Taming the wild in impartial combinatorial games" (Integers 5, 2005) and
Plambeck & Siegel, "Misère quotients for impartial games" (JCTA 115, 2008): misère Nim's
quotients (heaps <= 1: Z2; heaps <= 3: T2 = <a,b | a^2=1, b^3=b>, order 6) and Siegel's table
|Q_30(0.07)| = 360. The .123 quotient (order 20, five P-elements) is checked by play here.
"""

from __future__ import annotations

import pytest

from cgtalg.errors import ComputationLimitError
from cgtalg.misere.quotient import misere_quotient
from cgtalg.rulesets.octal import TakeAndBreak
from misere_brute import MisereBrute


def _brute_p(ruleset, n: int, max_heaps: int) -> dict[tuple[int, ...], bool]:
    """Misère P-positions among the multisets of at most ``max_heaps`` heaps of size 1..n, by
    play from the definition (tests/misere_brute.py)."""
    return MisereBrute(ruleset).p_table(n, max_heaps)


@pytest.mark.parametrize("code,n,k", [("0.123", 12, 4), ("0.07", 12, 4), ("0.77", 10, 4),
                                      ("0.[3]", 7, 4), ("0.137", 12, 4), ("4.7", 8, 3)])
def test_quotient_predicts_every_small_position(code, n, k):
    r = TakeAndBreak(code)
    q = misere_quotient(r, max_heap=n, progress=False)
    for pos, p in _brute_p(r, n, k).items():
        assert q.is_p(pos) == p, (code, pos)
    assert q.order % 2 == 0   # every misère quotient contains the image of *1, of order 2


def test_misere_nim_quotients():
    nim = TakeAndBreak("0.[3]")
    assert misere_quotient(nim, max_heap=1, progress=False).order == 2
    q = misere_quotient(nim, max_heap=3, progress=False)
    assert q.order == 6
    assert q.presentation().text == "⟨a,b | a²=1, b³=b⟩"
    assert sorted(q.word(x) for x in q.p_portion) == ["a", "b²"]
    assert q.is_tame()


def test_0123_final_quotient():
    # the certified .123 quotient (order 20, five P-elements), checked by play below
    q = misere_quotient(TakeAndBreak("0.123"), progress=False)
    assert q.order == 20 and len(q.p_portion) == 5
    r = TakeAndBreak("0.123")
    brute = _brute_p(r, 14, 3)
    for pos, p in brute.items():
        assert q.is_p(pos) == p, pos
    # beyond the heaps used in the construction, through the certified period
    assert q.is_p([24, 1]) == q.is_p([24 - 5 * 3, 1])


def test_budgets():
    with pytest.raises(ComputationLimitError):
        misere_quotient(TakeAndBreak("0.77"), max_heap=40, max_order=8, progress=False)


@pytest.mark.slow
def test_0_07_q30_has_order_360():
    # Siegel's MisereSolver tables: |Q_30(0.07)| = 360 (about 30 s here)
    assert misere_quotient(TakeAndBreak("0.07"), max_heap=30, progress=False).order == 360
