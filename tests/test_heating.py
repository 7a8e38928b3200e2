"""Heating ∫^t G and overheating ∫_s^t G (cgtalg.normal.heating), checked against CGSuite's test
values (GameTest.scala, EvalTest.scala), a brute force of the definitions on literal trees of
the canonical forms (tests/norton_brute.py), and the relation with cooling (Winning Ways ch. 6;
Siegel CGT II.5)."""

from __future__ import annotations

import random
from fractions import Fraction as F

import pytest
from norton_brute import add, eq, form, multiple, neg, number_value, random_tree, tree

import cgtalg as cg
from cgtalg.normal.heating import heat, overheat
from cgtalg.normal.partizan import canonical_form, equal, is_number
from cgtalg.normal.thermography import cool, temperature

P = cg.parse_partizan


# -- CGSuite's values ---------------------------------------------------------------------------
@pytest.mark.parametrize("t,want", [
    ("0", "{3||2*|1*}"), ("1/2", "{7/2|||5/2|3/2||+-1/2}"), ("1", "{4|||3|1||0|-2}"),
    ("-3/4", "9/4*"), ("-1", "9/4"), ("-2", "3/2"), ("-3", "1"), ("-4", "0"), ("*", "{3*||2|1}")])
def test_cgsuite_heat_values(t, want):
    """GameTest.scala: {3||2+*|1+*}.Heat(t)."""
    assert heat(P("{3||2+*|1+*}"), P(t)) is canonical_form(P(want))


@pytest.mark.parametrize("g,t,want", [("*", "2", "+-2"), ("*2", "2", "+-{2,{4|0}}"), ("^", "2", "{2||0|-4}"),
                                      ("^*", "2", "{2,{4|0}|-2}"), ("^^", "2", "{2||0,+-2|-4}"),
                                      ("^^", "*", "0")])
def test_cgsuite_heat_infix_values(g, t, want):
    """EvalTest.scala: "* Heat 2", "^^ Heat *", ..."""
    assert heat(P(g), P(t)) is canonical_form(P(want))


def test_cgsuite_overheat_values():
    """GameTest.scala: {3||2+*|1+*}.Overheat(*, 1+*) and (7/16).Overheat(0, 0)."""
    assert overheat(P("{3||2+*|1+*}"), P("*"), P("1+*")) is canonical_form(P("{1||+-(1*)|-1,{-1|-3}}"))
    assert str(overheat(F(7, 16), 0, 0)) == "^[3]"


# -- brute force of the definitions ----------------------------------------------------------------
def brute_heat(g, t):
    """∫^t G on a literal tree: G if G is a number, else {∫^t G^L + t | ∫^t G^R - t}."""
    if number_value(g) is not None:
        return g
    return (frozenset(add(brute_heat(o, t), t) for o in g[0]), frozenset(add(brute_heat(o, t), neg(t)) for o in g[1]))


def brute_overheat(g, s, t):
    """∫_s^t G: n copies of s for an integer n, else {∫ G^L + t | ∫ G^R - t}."""
    x = number_value(g)
    if x is not None and x.denominator == 1:
        return multiple(int(x), s)
    return (frozenset(add(brute_overheat(o, s, t), t) for o in g[0]),
            frozenset(add(brute_overheat(o, s, t), neg(t)) for o in g[1]))


def test_definitions_by_brute_force():
    rng = random.Random(4)
    heats = [P("1"), P("1/2"), P("*"), P("2")]
    for _ in range(40):
        c = canonical_form(form(random_tree(rng, 2)))
        ct = tree(c)
        for t in heats:
            assert eq(tree(heat(c, t)), brute_heat(ct, tree(t))), (str(c), str(t))
        for s, t in ((P("1"), P("1")), (P("*"), P("1")), (P("^"), P("0")), (P("1/2"), P("*"))):
            assert eq(tree(overheat(c, s, t)), brute_overheat(ct, tree(s), tree(t))), (str(c), str(s), str(t))


# -- heating and cooling ----------------------------------------------------------------------------
def _hot_followers(c, t):
    """Every follower of c that is not a number has temperature > t (so cooling by t loses
    nothing there)."""
    return all(is_number(x) or temperature(x) > t for x in c.subpositions())


def test_heating_undoes_cooling():
    """∫^t (G_t) = G when every non-numeric follower of G is hotter than t (Winning Ways ch. 6:
    cooling is then the literal {G^L_t - t | G^R_t + t} and heating adds the t back), on
    switches and random games."""
    cases = [("{3|-1}", 1), ("+-1", 1), ("{2||1|0}", F(1, 2)), ("{5|{2|-2}}", 1), ("{4|||3|1||0|-2}", 1)]
    for g, t in cases:
        c = canonical_form(P(g))
        assert heat(cool(c, t), t) is c, g
    rng = random.Random(9)
    checked = 0
    for _ in range(300):
        c = canonical_form(form(random_tree(rng, 3)))
        for t in (F(1, 2), F(1)):
            if not is_number(c) and _hot_followers(c, t):
                assert equal(heat(cool(c, t), t), c), (str(c), t)
                checked += 1
    assert checked >= 10


def test_cooling_undoes_heating():
    """(∫^t G)_t = G for infinitesimals and switches heated by t (e.g. ∫^1 * = ±1, ∫^1 ↑ =
    {1||0|-2}, both cool back by 1)."""
    for g in ("*", "^", "^*", "*2", "{1|-1}", "{0|^}"):
        for t in (1, 2, F(1, 2)):
            c = canonical_form(P(g))
            assert cool(heat(c, t), t) is c, (g, t)
