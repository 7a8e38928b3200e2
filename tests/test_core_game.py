"""Core forms: hash-consing, sums, birthdays, nim-heaps, Grundy values from the definitions."""

from __future__ import annotations

import itertools
import random

import pytest

import cgtalg as cg
from cgtalg.core.fold import Evaluator, fold


def brute_grundy(g: cg.Game) -> int:
    """Sprague-Grundy value straight from the definition (recursive mex), no memo."""
    vals = {brute_grundy(o) for o in g.options}
    m = 0
    while m in vals:
        m += 1
    return m


def brute_misere_outcome(g: cg.Game) -> str:
    """Misère outcome from the definition: no move -> the mover wins (N)."""
    if not g.options:
        return "N"
    return "N" if any(brute_misere_outcome(o) == "P" for o in g.options) else "P"


def random_form(rng: random.Random, depth: int) -> cg.Game:
    if depth == 0:
        return cg.zero
    k = rng.randint(0, 3)
    return cg.game(random_form(rng, rng.randint(0, depth - 1)) for _ in range(k))


def test_hash_consing_identifies_structurally_equal_forms():
    a = cg.game([cg.nim(2), cg.zero])
    b = cg.game([cg.zero, cg.nim(2), cg.nim(2)])  # duplicates merge, order irrelevant
    assert a is b and a.id == b.id and a == b and hash(a) == hash(b)
    assert cg.zero.id == 0 and cg.zero.is_zero and cg.zero.birthday == 0


def test_nim_heaps_are_their_definition():
    for n in range(8):
        assert cg.nim(n).options == tuple(sorted((cg.nim(k) for k in range(n)), key=lambda g: g.id))
        assert cg.nim(n).birthday == n
        assert cg.nim(n).nim_heap_size() == n
    assert cg.game([cg.nim(2)]).nim_heap_size() is None
    with pytest.raises(ValueError, match="nim-heap size must be >= 0, got -1"):
        cg.nim(-1)
    with pytest.raises(TypeError):
        cg.nim(1.5)


def test_sum_is_the_definition_and_memoised():
    # G + H has options G' + H and G + H' (ONAG ch. 11 / CGT II.1).
    g, h = cg.parse("{0, {*2}}"), cg.nim(3)
    s = g + h
    expected = cg.game([o + h for o in g.options] + [g + o for o in h.options])
    assert s is expected
    assert s is h + g  # commutative (hash-consed)
    assert (g + h) + cg.nim(1) is g + (h + cg.nim(1))  # associative
    assert g + cg.zero is g and sum([g, h]) is s


def test_sum_birthday_adds():
    for a, b in itertools.product(range(5), repeat=2):
        assert (cg.nim(a) + cg.nim(b)).birthday == a + b


def test_grundy_matches_brute_force_and_xor_rule():
    rng = random.Random(7)
    forms = [random_form(rng, 4) for _ in range(60)]
    for g in forms:
        assert cg.grundy(g) == brute_grundy(g)
        assert cg.outcome(g, misere=True) == brute_misere_outcome(g)
    for g, h in zip(forms[:20], forms[20:40]):
        # Sprague-Grundy: value of a sum is the XOR (nim-sum) of the values
        assert cg.grundy(g + h) == cg.grundy(g) ^ cg.grundy(h) == brute_grundy(g + h)


def test_misere_grundy_small_values():
    # Conway ONAG ch. 12 / notes/misere.md: the empty form is N in misère play.
    assert cg.misere_grundy(cg.zero) == 1
    assert cg.misere_grundy(cg.nim(1)) == 0
    assert cg.outcome(cg.nim(1) + cg.nim(1), misere=True) == "N"
    # Misère Nim (Bouton): a position with a heap >= 2 is P iff the nim-sum is 0;
    # with all heaps <= 1 it is P iff the number of 1-heaps is odd.
    for heaps in itertools.product(range(4), repeat=3):
        g = sum((cg.nim(h) for h in heaps), cg.zero)
        if max(heaps) >= 2:
            expected = "P" if heaps[0] ^ heaps[1] ^ heaps[2] == 0 else "N"
        else:
            expected = "P" if sum(heaps) % 2 == 1 else "N"
        assert cg.outcome(g, misere=True) == expected, heaps


def test_winning_moves_lead_to_p_positions():
    g = cg.nim(3) + cg.nim(5)
    moves = cg.winning_moves(g)
    assert moves == [cg.nim(3) + cg.nim(3)]
    assert all(cg.outcome(m) == "P" for m in moves)
    assert cg.winning_moves(cg.nim(2) + cg.nim(2)) == []
    assert all(cg.outcome(m, misere=True) == "P" for m in cg.winning_moves(g, misere=True))


def test_fold_is_iterative_and_memoised():
    deep = cg.zero
    for _ in range(5000):  # far beyond Python's recursion limit
        deep = cg.game([deep])
    assert deep.birthday == 5000
    calls = []
    ev = Evaluator("depth-test", lambda g, vals: calls.append(g.id) or (1 + max(vals, default=-1)))
    assert fold(deep, ev) == 5000
    n_calls = len(calls)
    assert fold(deep, ev) == 5000 and len(calls) == n_calls  # memoised
    assert cg.grundy(deep) == 0 and cg.misere_grundy(deep) == 1


def test_subpositions_children_first():
    g = cg.nim(2) + cg.nim(2)
    subs = g.subpositions()
    assert subs[-1] is g and len(subs) == len({s.id for s in subs})
    pos = {s.id: i for i, s in enumerate(subs)}
    assert all(pos[o.id] < pos[s.id] for s in subs for o in s.options)
