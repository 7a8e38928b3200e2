"""Norton multiplication G.U (cgtalg.normal.norton), checked against CGSuite's test values, the
textbook identities (Winning Ways ch. 8; ONAG ch. 15; Siegel CGT II.7) and a brute force of the
definition on literal game trees (tests/norton_brute.py), with values compared by play."""

from __future__ import annotations

import random
from fractions import Fraction as F

import pytest
from norton_brute import (DAY1, UP, ZERO_T, add, eq, form, le, multiple, neg, number, number_value,
                          random_tree, sub, tree)

import cgtalg as cg
from cgtalg.errors import ArgumentError
from cgtalg.normal.norton import incentives, left_incentives, norton_product, right_incentives
from cgtalg.normal.partizan import canonical_form, equal, le as lib_le

P = cg.parse_partizan


def shrink(t):
    """An equal, smaller tree: the canonical form of the literal sum (the literal sums of sums
    the definition builds grow too fast to play out; canonical forms are checked against play
    in tests/test_doors.py)."""
    return tree(canonical_form(form(t)))


def brute_norton(g, u):
    """G.U from the definition on literal trees: n copies of U when G equals the integer n,
    else {G^L.U + U + I | G^R.U - (U + I)} over the incentives I of the (literal) form U."""
    x = number_value(g)
    if x is not None and x.denominator == 1:
        return shrink(multiple(int(x), u))
    steps = [shrink(add(u, sub(ul, u))) for ul in u[0]] + [shrink(add(u, sub(u, ur))) for ur in u[1]]
    return shrink((frozenset(add(brute_norton(o, u), s) for o in g[0] for s in steps),
                   frozenset(sub(brute_norton(o, u), s) for o in g[1] for s in steps)))


# -- CGSuite's values (GameTest.scala: "NortonProduct") -----------------------------------------
@pytest.mark.parametrize("g,want", [("0", "0"), ("6", "^6"), ("-4", "v4"), ("1/2", "{^^*|v*}"),
                                    ("^", "{^^*||0|v4}"), ("Tiny(2)", "{^^*||0|v6}")])
def test_cgsuite_values(g, want):
    got = norton_product(P(g), cg.up)
    assert str(got) == want
    assert got is canonical_form(P(want))


def test_incentives_of_up_and_cgsuite_incentives():
    # ↑ = {0|*}: Left incentive 0 - ↑ = ↓, Right incentive ↑ - * = ↑*
    assert [str(x) for x in left_incentives(cg.up)] == ["v"]
    assert [str(x) for x in right_incentives(cg.up)] == ["^*"]
    # CGSuite CanonicalShortGameTestCase: {3||2*|1*}.Incentives = {{2*|1*||0}}
    assert [str(x) for x in incentives(P("{3||2*|1*}"))] == ["{2*|1*||0}"]


# -- textbook identities ----------------------------------------------------------------------------
def test_integers_are_copies():
    """n.U = U + ... + U (n copies) for integers n (ONAG ch. 15)."""
    for u in ("^", "1", "{2|1}", "^*", "{1|0}+1"):
        uc = canonical_form(P(u))
        if not (uc > 0):
            continue
        for n in range(-4, 6):
            want = canonical_form(sum([uc] * abs(n), cg.pgame()) if n >= 0 else sum([-uc] * -n, cg.pgame()))
            assert norton_product(n, uc) is want, (n, u)


def test_unit_one_is_the_identity():
    """G.1 = G: 1 has the single incentive -1, so G.1 = {G^L.1 | G^R.1} (WW ch. 8)."""
    rng = random.Random(5)
    for _ in range(60):
        x = form(random_tree(rng, 3))
        assert norton_product(x, 1) is canonical_form(x)


def test_up_multiples_of_numbers():
    """x.↑ for dyadic x: additive, and (1/2).↑ + (1/2).↑ = ↑ (Norton)."""
    half = norton_product(F(1, 2), cg.up)
    assert equal(half + half, cg.up)
    quarter = norton_product(F(1, 4), cg.up)
    assert equal(quarter + quarter, half)
    xs = [F(k, 8) for k in range(-12, 13)]
    for a in xs[::3]:
        for b in xs[::4]:
            assert equal(norton_product(a + b, cg.up), norton_product(a, cg.up) + norton_product(b, cg.up)), (a, b)


def test_additive_and_order_preserving_on_random_games():
    """(G + H).U = G.U + H.U and G >= H iff G.U >= H.U for U > 0 (Norton; Siegel CGT II.7),
    on random small forms of every kind (hot, cold, infinitesimal)."""
    rng = random.Random(11)
    units = [cg.up, canonical_form(P("^*+^")), canonical_form(P("1")), canonical_form(P("{2|1}"))]
    for _ in range(40):
        g, h = form(random_tree(rng, 2)), form(random_tree(rng, 2))
        for u in units:
            gu, hu = norton_product(g, u), norton_product(h, u)
            assert equal(norton_product(g + h, u), gu + hu), (str(g), str(h), str(u))
            assert lib_le(g, h) == lib_le(gu, hu), (str(g), str(h), str(u))


def test_definition_by_brute_force():
    """The library's G.U equals the definition applied to the literal form of G (any form of
    the value: the product depends on G's value only), by play."""
    rng = random.Random(3)
    units = [UP, tree(canonical_form(P("^^"))), number(1), (frozenset({number(2)}), frozenset({number(1)}))]

    seen = 0
    for _ in range(40):
        t = random_tree(rng, 2)
        for u in units:
            got = tree(norton_product(form(t), form(u)))
            assert eq(got, brute_norton(t, u)), (str(form(t)), str(form(u)))
            seen += 1
    assert seen == 160


def test_order_preservation_by_brute_force():
    """G >= H implies G.↑ >= H.↑, checked by play on literal trees for all pairs of forms born
    by day 1 and random pairs born by day 2."""
    rng = random.Random(8)
    games = DAY1 + [random_tree(rng, 2) for _ in range(14)]
    products = [brute_norton(t, UP) for t in games]
    for i, g in enumerate(games):
        for j, h in enumerate(games):
            if le(h, g):
                assert le(products[j], products[i])


def test_atomic_weight_of_up_multiples():
    """aw(G.↑) = G (Winning Ways ch. 8; Siegel CGT II.7)."""
    rng = random.Random(2)
    for _ in range(30):
        g = canonical_form(form(random_tree(rng, 2)))
        assert cg.atomic_weight(norton_product(g, cg.up)) is g, str(g)


def test_non_positive_units_are_refused():
    for u in ("0", "*", "v", "{1|-1}", "-1"):
        with pytest.raises(ArgumentError, match="positive unit"):
            norton_product(1, P(u))


def test_zero_times_anything():
    assert norton_product(0, P("{2|1}")) is cg.pgame()
    assert eq(brute_norton(ZERO_T, UP), ZERO_T) and eq(neg(brute_norton(number(1), UP)), brute_norton(number(-1), UP))


def test_winning_ways_form_of_multiples_of_up():
    """Winning Ways ch. 8: for G not an integer, G.↑ = {G^L.↑ + ⇑* | G^R.↑ + ⇓*} (the
    incentives of ↑ are ↓ and ↑*, and U + ↓ = 0 is dominated by U + ↑* = ⇑*); so *.↑ = ±(⇑*)."""
    ups = canonical_form(P("^^*"))
    assert str(norton_product(cg.nim(1), cg.up)) == "±(^^*)"
    rng = random.Random(17)
    for _ in range(40):
        g = canonical_form(form(random_tree(rng, 3)))
        if cg.number_value(g) is not None and cg.number_value(g).denominator == 1:
            continue
        want = cg.pgame([norton_product(o, cg.up) + ups for o in g.left],
                        [norton_product(o, cg.up) - ups for o in g.right])
        assert norton_product(g, cg.up) is canonical_form(want), str(g)
