"""Misère quotients (cgtalg.quotients.construct) against brute-force play and published values.

Sources: Plambeck, "Taming the wild in impartial combinatorial games" (Integers 5, 2005) and
Plambeck & Siegel, "Misère quotients for impartial games" (JCTA 115, 2008): misère Nim's
quotients (heaps <= 1: Z2; heaps <= 3: T2 = <a,b | a^2=1, b^3=b>, order 6), the final quotients
of .123 (order 20), Kayles .77 (40), .15 (42), .72 (24), and Siegel's table |Q_30(0.07)| = 360,
|Q_33(0.07)| = 638 with |P| = 109. The .123 quotient (order 20, five P-elements) is checked by
play here, and random sums of the others against brute-force play.
"""

from __future__ import annotations

import pytest

from cgtalg.errors import ComputationLimitError
from cgtalg.quotients import kernel as quotient_kernel
from cgtalg.quotients.construct import misere_quotient
from cgtalg.rulesets.heaps.octal import TakeAndBreak
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


def _slow_without_kernel(test):
    """Slow-marked when the compiled kernel is not built (the Python searches take ~1 min)."""
    return test if quotient_kernel.available() else pytest.mark.slow(test)


@_slow_without_kernel
def test_0_07_q30_has_order_360():
    # Siegel's MisereSolver tables (Plambeck & Siegel, JCTA 2008, §7): |Q_30(0.07)| = 360
    # (about 1.5 s with the compiled kernel)
    assert misere_quotient(TakeAndBreak("0.07"), max_heap=30, progress=False).order == 360


@pytest.mark.slow
def test_0_07_q33_has_order_638_with_109_p_positions():
    # Plambeck & Siegel, JCTA 2008 (Siegel's computations): |Q_33(0.07)| = 638, |P| = 109
    q = misere_quotient(TakeAndBreak("0.07"), max_heap=33, progress=False)
    assert q.order == 638 and len(q.p_portion) == 109


@pytest.mark.parametrize("code,order", [("0.123", 20), ("0.77", 40), ("0.15", 42), ("0.72", 24)])
def test_published_final_quotient_orders(code, order):
    # Plambeck & Siegel, JCTA 2008, and Siegel's notes: the final misère quotients of .123
    # (order 20), Kayles .77 (order 40), .15 (order 42) and .72 (order 24)
    q = misere_quotient(TakeAndBreak(code), progress=False)
    assert q.final and q.order == order


@pytest.mark.parametrize("code,n", [("0.77", 30), ("0.15", 30), ("0.72", 30), ("0.07", 24),
                                    ("0.137", 22), ("0.6", 15)])
def test_random_positions_agree_with_brute_force_play(code, n):
    # sums of up to four heaps of size <= n (at most 26 tokens), drawn at random, by play
    # from the definition
    import random

    rng = random.Random(f"{code}:{n}")
    r = TakeAndBreak(code)
    q = misere_quotient(r, max_heap=n, progress=False)
    brute = MisereBrute(r)
    seen = 0
    while seen < 60:
        pos = tuple(sorted(rng.randint(1, n) for _ in range(rng.randint(1, 4))))
        if sum(pos) > 26:          # the brute force visits every partition below the position
            continue
        seen += 1
        assert q.is_p(pos) == brute.is_p(pos), (code, pos)


def _positions_of(q, n: int) -> dict[int, tuple[int, ...]]:
    """A position (multiset of heaps 1..n) with image x, for every element x: breadth-first
    over positions from the empty one, so each is a shortest word."""
    found = {0: ()}
    frontier = [()]
    while frontier and len(found) < q.order:
        nxt = []
        for pos in frontier:
            for h in range(1, n + 1):
                p = tuple(sorted(pos + (h,)))
                x = q.image(p)
                if x not in found:
                    found[x] = p
                    nxt.append(p)
        frontier = nxt
    return found


@pytest.mark.parametrize("code,n", [("0.123", 12), ("0.07", 10), ("0.77", 8), ("0.[3]", 7), ("0.137", 10)])
def test_quotient_is_reduced_every_pair_separated_by_play(code, n):
    # Plambeck & Siegel (JCTA 2008): Q_n is the quotient by indistinguishability, so two distinct
    # elements are told apart by some position. Every element is the image of a position
    # (found here by search), and for every pair x != y a z with xz in P != yz in P is realised
    # as positions X, Y, Z whose sums X+Z and Y+Z have different outcomes by play.
    r = TakeAndBreak(code)
    q = misere_quotient(r, max_heap=n, progress=False)
    pos = _positions_of(q, n)
    assert len(pos) == q.order                      # the heaps generate the monoid
    brute = MisereBrute(r)
    for x in range(q.order):
        for y in range(x + 1, q.order):
            z = next(z for z in range(q.order) if q.P[q.mul(x, z)] != q.P[q.mul(y, z)])
            X, Y, Z = pos[x], pos[y], pos[z]
            assert brute.is_p(X + Z) != brute.is_p(Y + Z), (code, X, Y, Z)


def test_tame_quotients_name_their_t_n():
    # misère Nim on heaps < 2^n has the quotient T_n (Plambeck & Siegel 2008, §4): orders 2, 6, 10
    nim = TakeAndBreak("0.[3]")
    assert [misere_quotient(nim, max_heap=2 ** n - 1, progress=False).tame_index() for n in (1, 2, 3)] == [1, 2, 3]
    assert misere_quotient(TakeAndBreak("0.123"), progress=False).tame_index() is None   # |Q| = 20


def test_0123_single_heap_classes_are_plambecks_table_s1():
    # seed 000 (Plambeck, ".123"), Table S1: heaps 1..10 are :1 :0 :2 :2 :1 C :0 A B :1 and the
    # last five repeat; equal entries must be the same quotient element, different ones not
    s1 = [":1", ":0", ":2", ":2", ":1", "C", ":0", "A", "B", ":1"]
    q = misere_quotient(TakeAndBreak("0.123"), progress=False)
    label = {h: s1[(h - 1) if h <= 10 else 5 + (h - 6) % 5] for h in range(1, 41)}
    for h1 in range(1, 41):
        for h2 in range(1, 41):
            assert (q.phi_of(h1) == q.phi_of(h2)) == (label[h1] == label[h2]), (h1, h2)
    assert q.phi_of(2) == 0                          # :0 is the identity
