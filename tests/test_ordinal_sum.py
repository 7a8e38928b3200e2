"""Ordinal sums G:H (cgtalg.normal.ordinal_sum), checked against CGSuite's test values
(CompoundGameTestCase.scala, EvalTest.scala), Hackenbush stalks and flowers played out by brute
force from the rules (Winning Ways ch. 2 and 7), Berlekamp's sign expansion of numbers, and the
definition on literal trees (tests/norton_brute.py)."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction as F
from functools import lru_cache

import pytest
from norton_brute import eq, form, random_tree, tree

import cgtalg as cg
from cgtalg.normal.ordinal_sum import ordinal_sum
from cgtalg.normal.partizan import canonical_form, equal, number_value

P = cg.parse_partizan


# -- CGSuite's values ---------------------------------------------------------------------------------
@pytest.mark.parametrize("g,h,want", [
    ("1/2", "1/4", "9/16"), ("*5", "*6", "*11"), ("+-1", "^^", "{1,+-1|-1,{1,+-1,+-{1,+-1}|-1,+-1}}"),
    ("{1|0}", "0", "{1|0}"), ("{*|*}", "3", "^[3]"), ("{-1|1}", "1", "1/2")])
def test_cgsuite_values(g, h, want):
    """CompoundGameTestCase.scala (``'{*|*}' : 3`` is the literal form {*|*}, whose value is 0)
    and EvalTest.scala (``('{-1|1}':1).CanonicalForm = 1/2``)."""
    assert ordinal_sum(P(g), P(h)) is canonical_form(P(want))


def test_value_depends_on_the_form_of_the_base():
    """{-1|1} = 0 and {*|*} = 0 as values, but as bases they differ from 0 (ONAG ch. 15)."""
    assert equal(P("{-1|1}"), 0) and equal(P("{*|*}"), 0)
    assert ordinal_sum(0, 1) is cg.integer(1)
    assert ordinal_sum(P("{-1|1}"), 1) is cg.dyadic(1, 2)
    assert ordinal_sum(0, 3) is cg.integer(3) and str(ordinal_sum(P("{*|*}"), 3)) == "^[3]"


def test_value_depends_only_on_the_value_of_the_subordinate():
    """For a canonical base G, G:H = G:H' whenever H = H' (random forms H, their canonical
    forms H')."""
    rng = random.Random(6)
    for _ in range(80):
        g = canonical_form(form(random_tree(rng, 2)))
        h = form(random_tree(rng, 3))
        assert ordinal_sum(g, h) is ordinal_sum(g, canonical_form(h)), (str(g), str(h))


# -- the definition by brute force -------------------------------------------------------------------
def brute_ordinal_sum(g, h):
    """G:H = {G^L, G:H^L | G^R, G:H^R} on literal trees."""
    return (frozenset(g[0]) | {brute_ordinal_sum(g, o) for o in h[0]},
            frozenset(g[1]) | {brute_ordinal_sum(g, o) for o in h[1]})


def test_definition_by_brute_force():
    rng = random.Random(12)
    for _ in range(60):
        g, h = random_tree(rng, 2), random_tree(rng, 2)
        assert eq(tree(ordinal_sum(form(g), form(h))), brute_ordinal_sum(g, h))


# -- Hackenbush ------------------------------------------------------------------------------------------


@lru_cache(maxsize=None)
def hackenbush(t):
    """A rooted Hackenbush tree played out from the rules (Winning Ways ch. 2, 7): ``t`` is a
    tuple of (colour, subtree) edges from one node; cutting an edge removes everything above
    it; Left (blue ``L``) cuts blue or green edges, Right (red ``R``) red or green ones."""
    left, right = set(), set()
    for i, (colour, sub) in enumerate(t):
        rest = t[:i] + t[i + 1:]
        if colour in "LG":
            left.add(hackenbush(rest))
        if colour in "RG":
            right.add(hackenbush(rest))
        for opt in hackenbush(sub)[0]:
            left.add(hackenbush(tuple(sorted(rest + ((colour, _subtree_of(opt)),)))))
        for opt in hackenbush(sub)[1]:
            right.add(hackenbush(tuple(sorted(rest + ((colour, _subtree_of(opt)),)))))
    g = (frozenset(left), frozenset(right))
    _TREES[g] = t
    return g


_TREES: dict = {}


def _subtree_of(g):
    return _TREES[g]


def stalk(s):
    """The string s (from the ground up) as a tree."""
    t = ()
    for colour in reversed(s):
        t = ((colour, t),)
    return t


UNIT = {"L": cg.integer(1), "R": cg.integer(-1), "G": cg.nim(1)}


def stalk_by_ordinal_sums(s):
    """A stalk is its lowest edge with the rest of the stalk as subordinate: s[0] : (s[1:])."""
    value = cg.pgame()
    for colour in reversed(s):
        value = ordinal_sum(canonical_form(UNIT[colour]), value)
    return value


def sign_expansion(s):
    """Berlekamp's rule for a blue-red stalk: the first run of one colour counts ±1 an edge;
    after the first change of colour the k-th further edge counts ±1/2^k."""
    if not s:
        return F(0)
    x, i = F(0), 0
    while i < len(s) and s[i] == s[0]:
        x += 1 if s[0] == "L" else -1
        i += 1
    w = F(1)
    for c in s[i:]:
        w /= 2
        x += w if c == "L" else -w
    return x


@pytest.mark.parametrize("n", range(1, 7))
def test_blue_red_stalks_and_sign_expansion(n):
    """Every blue-red stalk of n edges: the ordinal sums, the Hackenbush ruleset, play from the
    rules and Berlekamp's sign expansion agree (1:-1 = 1/2, 1:-1:-1 = 1/4, 1:-1:1 = 3/4)."""
    for s in map("".join, itertools.product("LR", repeat=n)):
        v = stalk_by_ordinal_sums(s)
        assert number_value(v) == sign_expansion(s), s
        assert v is canonical_form(cg.canonical_form(cg.position("hackenbush", s))), s
        if n <= 4:
            assert eq(tree(v), hackenbush(stalk(s))), s


def test_stalks_with_green_edges():
    """Stalks over blue, red and green (green = *): the ordinal sums match the ruleset and play
    (Winning Ways ch. 2: a green stem under a blue edge, *:1 = ↑*)."""
    assert str(stalk_by_ordinal_sums("GL")) == "^*"
    for n in range(1, 5):
        for s in map("".join, itertools.product("LRG", repeat=n)):
            v = stalk_by_ordinal_sums(s)
            assert v is canonical_form(cg.canonical_form(cg.position("hackenbush", s))), s
            if n <= 3:
                assert eq(tree(v), hackenbush(stalk(s))), s


@pytest.mark.parametrize("stem,petals", [(1, 1), (1, 2), (2, 1), (1, 3), (2, 2), (3, 1)])
def test_flowers(stem, petals):
    """A flower: a green stem of ``stem`` edges with ``petals`` blue petals at its top is the
    ordinal sum *stem : petals (Winning Ways ch. 7), played out from the rules."""
    top = tuple(("L", ()) for _ in range(petals))
    t = top
    for _ in range(stem):
        t = (("G", t),)
    v = ordinal_sum(cg.nim(stem), petals)
    assert eq(tree(v), hackenbush(t))
    # a flower is infinitesimal: between -1/64 and 1/64
    assert cg.dyadic(-1, 64) < v < cg.dyadic(1, 64)
    assert cg.atomic_weight(v) is cg.integer(1)  # a blue flower weighs one up (WW ch. 8)
