"""Ordinal products, powers G^x and G^→x, and subordinates (cgtalg.normal.ordinal_ops), checked
against CGSuite's test values (typed in as facts, aaron-siegel/cgsuite commit e909ab8):

- lib/core/src/test/scala/org/cgsuite/lang/CompoundGameTestCase.scala: the 6 ``OrdinalProduct``
  values;
- lib/core/src/test/scala/org/cgsuite/lang/GameTest.scala: the ``Pow``, ``PowTo`` and
  ``Subordinate`` values on short games with number exponents (its loopy exponents ``on``,
  ``{pass|1}``, ... are stoppers, outside cgtalg's short games);

and against brute force from the definitions on literal trees (tests/norton_brute.py): the
ordinal sum ``G:H = {G^L, G:H^L | G^R, G:H^R}`` and the ordinal product built from it without
any simplification, nim heaps (``*a ⊛ *b = *(a·b)``), and the uptimals ``^<n>``/``^[n]``.
"""

from __future__ import annotations

import random
from fractions import Fraction as F
from functools import lru_cache

import pytest
from norton_brute import eq, form, neg, random_tree, tree

import cgtalg as cg
from cgtalg.core.partizan import ZERO, make_form, negative, nimber
from cgtalg.errors import ArgumentError, CgtalgError, GameKindError
from cgtalg.normal.ordinal_ops import ordinal_product, power, power_to, subordinate
from cgtalg.normal.ordinal_sum import ordinal_sum
from cgtalg.normal.partizan import canonical_form, canonical_sum, equal, up_bracket, up_nth
from cgtalg.ops import partizan_more as pm

P = cg.parse_partizan


def C(text):
    return canonical_form(P(text))


def literal(text):
    """CGSuite's explicit forms ('{*|*}', *[[[2]],[2],0]) as written."""
    return pm._game("test", text, literal=True)


# -- the definitions, on literal trees (Left options, Right options) ------------------------------
@lru_cache(maxsize=None)
def b_osum(b, h):
    """G:H = {G^L, G:H^L | G^R, G:H^R}."""
    return (b[0] | frozenset(b_osum(b, x) for x in h[0]), b[1] | frozenset(b_osum(b, x) for x in h[1]))


@lru_cache(maxsize=None)
def b_oprod(g, h):
    """G ⊛ H = {G⊛H^L : G^L, G⊛H^R : -G^R | G⊛H^L : G^R, G⊛H^R : -G^L}, nothing simplified."""
    left = [b_osum(b_oprod(g, k), x) for k in h[0] for x in g[0]]
    left += [b_osum(b_oprod(g, k), neg(x)) for k in h[1] for x in g[1]]
    right = [b_osum(b_oprod(g, k), x) for k in h[0] for x in g[1]]
    right += [b_osum(b_oprod(g, k), neg(x)) for k in h[1] for x in g[0]]
    return (frozenset(left), frozenset(right))


# -- CGSuite's values -------------------------------------------------------------------------------
@pytest.mark.parametrize("g,h,want", [
    ("1/2", "1/4", "11/32"), ("*5", "*6", "*30"), ("+-1", "^^", "+-1"), ("{1|0}", "0", "0"),
    ("{*|*}", "3", "0"), ("*[[[2]],[2],0]", "*5", "*10")])
def test_cgsuite_ordinal_products(g, h, want):
    """CGSuite lib/core/src/test/scala/org/cgsuite/lang/CompoundGameTestCase.scala
    (``'{*|*}'`` and ``*[[[2]],[2],0]`` are literal forms; the others are values)."""
    got = ordinal_product(literal(g), literal(h))
    assert got is C(want)
    assert got is canonical_form(form(b_oprod(tree(literal(g)), tree(literal(h)))))


@pytest.mark.parametrize("g,x,op,want", [
    ("^", "3", power, "^<3>"), ("^", "3", power_to, "^[3]"),
    ("^", "7/4", power, "{0||0,v*|0,{0,v*|0,*}}"), ("^", "7/4", power_to, "{^|*,^[2]||*,^[2]}"),
    ("{0||0|-2}", "3", power, "{0||0|-2,{0|-2,{0|-2}}}"),
    ("{0||0|-2}", "3", power_to, "{Tiny(2)||0|-2|||0|-2}"),
    ("{0||0|-2}", "7/4", power, "{0||0,{0|-2,{0|-2}}|-2,{0,{0|-2,{0|-2}}|-2,{0|-2}}}"),
    ("{0||0|-2}", "7/4", power_to, "{Tiny(2)|{0|-2},{Tiny(2)||0|-2}||{0|-2},{Tiny(2)||0|-2}}"),
    ("+-1", "3", power_to, "{1,{1,+-1|-1}|-1}")])
def test_cgsuite_powers(g, x, op, want):
    """CGSuite lib/core/src/test/scala/org/cgsuite/lang/GameTest.scala (``^.Pow(3)``,
    ``{0||0|-2}.PowTo(7/4)``, ``(+-1).PowTo(3)``, ...)."""
    assert op(C(g), F(x)) is C(want)
    assert op(C(g), C(x)) is C(want)  # the exponent as a game


def test_cgsuite_powers_print_as_cgsuite():
    assert [str(power(cg.up, 3)), str(power_to(cg.up, 3))] == ["^<3>", "^[3]"]
    assert str(power_to(C("{0||0|-2}"), 3)) == "{Tiny(2)||0|-2|||0|-2}"


@pytest.mark.parametrize("g,b,want", [
    ("1/8", "1", "-3"), ("+-1", "+-1", "0"), ("+-1", "0", "+-1"), ("-13/16", "-1", "3/8")])
def test_cgsuite_subordinates(g, b, want):
    """CGSuite GameTest.scala: ``(1/8).Subordinate(1) = -3``, ``(+-1).Subordinate(+-1) = 0``,
    ``(+-1).Subordinate(0) = +-1``, ``(-13/16).Subordinate(-1) = 3/8``."""
    assert subordinate(C(g), C(b)) is C(want)


def test_cgsuite_subordinates_of_powers_and_to_a_literal_base():
    """GameTest.scala: ``(^.PowTo(5)+*).Subordinate(*) = 5`` and
    ``^.PowTo(5).Subordinate('{*|*}') = 5`` (a non-canonical base)."""
    assert subordinate(canonical_sum(power_to(cg.up, 5), C("*")), C("*")) is C("5")
    assert subordinate(power_to(cg.up, 5), literal("{*|*}")) is C("5")


def test_cgsuite_refusals():
    """GameTest.scala: ``(+-1).Pow(3)`` is refused (base not {0|H}) and ``*.Subordinate(1)``
    (no H has 1:H = *)."""
    with pytest.raises(GameKindError, match=r"\{0\|H\}"):
        power(C("+-1"), 3)
    with pytest.raises(ArgumentError, match="cannot be subordinated"):
        subordinate(C("*"), 1)


# -- ordinal product ----------------------------------------------------------------------------
def test_ordinal_product_against_the_definition_on_random_forms():
    """The literal recursion (no simplification anywhere) agrees on random forms of birthday
    <= 2 (G) and <= 3 (H)."""
    rng = random.Random(36)
    for _ in range(60):
        g, h = random_tree(rng, rng.randint(0, 2)), random_tree(rng, rng.randint(0, 3))
        assert ordinal_product(form(g), form(h)) is canonical_form(form(b_oprod(g, h))), (form(g), form(h))


def test_ordinal_product_keeps_the_forms_of_the_bases():
    """``G⊛H^L`` is the base of an ordinal sum, so its form counts: canonicalising it on the way
    up gives another value (here {1|0,{0|-1}} instead of {Tiny(1)|0,{0|-1}})."""
    g, h = literal("{0|-1,0}"), literal("{|1,{|1,*}}")
    want = canonical_form(form(b_oprod(tree(g), tree(h))))
    assert ordinal_product(g, h) is want and str(want) == "{Tiny(1)|0,{0|-1}}"
    memo = {}

    def shortcut(k):  # G⊛K replaced by its canonical form before it is used as a base
        if k.id not in memo:
            left = [ordinal_sum(shortcut(a), x) for a in k.left for x in g.left]
            left += [ordinal_sum(shortcut(a), negative(x)) for a in k.right for x in g.right]
            right = [ordinal_sum(shortcut(a), x) for a in k.left for x in g.right]
            right += [ordinal_sum(shortcut(a), negative(x)) for a in k.right for x in g.left]
            memo[k.id] = canonical_form(make_form(left, right))
        return memo[k.id]

    assert shortcut(h) is not want


@pytest.mark.parametrize("a", range(7))
def test_ordinal_product_of_nim_heaps_multiplies_the_sizes(a):
    """*a ⊛ *b = *(a·b), ordinary multiplication (the options are *(a·b' + a'))."""
    for b in range(7):
        assert ordinal_product(nimber(a), nimber(b)) is nimber(a * b)


def test_ordinal_product_identities():
    """G⊛0 = 0, G⊛1 = G, G⊛2 = {G:G^L | G:G^R} and -(G⊛H) = G⊛(-H)."""
    rng = random.Random(7)
    for _ in range(40):
        g = form(random_tree(rng, rng.randint(0, 2)))
        h = form(random_tree(rng, rng.randint(0, 2)))
        assert ordinal_product(g, 0) is ZERO
        assert ordinal_product(g, 1) is canonical_form(g)
        t = tree(g)
        two = (frozenset(b_osum(t, x) for x in t[0]), frozenset(b_osum(t, x) for x in t[1]))
        assert ordinal_product(g, cg.integer(2)) is canonical_form(form(two))
        assert ordinal_product(g, negative(h)) is canonical_form(negative(ordinal_product(g, h)))


def _stalk(signs):
    """The literal Hackenbush stalk with edges ``signs`` (+1 blue, -1 red) from the ground up:
    ``e1 : e2 : ... : ek`` (Winning Ways ch. 2)."""
    t = tree(cg.integer(signs[0]))
    for s in signs[1:]:
        t = b_osum(t, tree(cg.integer(s)))
    return t


def test_ordinal_product_of_hackenbush_stalks():
    """G⊛H for stalks: every blue edge of H replaced by the stalk G, every red one by -G (the
    documented Hackenbush reading); e.g. 1/2 ⊛ 1/2 is the stalk + - - + = 3/8."""
    assert ordinal_product(form(_stalk([1, -1])), form(_stalk([1, -1]))) is C("3/8")
    rng = random.Random(2)
    for _ in range(40):
        gs = [rng.choice((1, -1)) for _ in range(rng.randint(1, 3))]
        hs = [rng.choice((1, -1)) for _ in range(rng.randint(1, 3))]
        sub = [e * s for s in hs for e in gs]
        got = ordinal_product(form(_stalk(gs)), form(_stalk(hs)))
        assert got is canonical_form(form(_stalk(sub))), (gs, hs)
        assert eq(tree(got), _stalk(sub))


# -- powers -------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", range(1, 7))
def test_powers_of_up_are_the_uptimals(n):
    """↑^n is ^<n> and ↑^→n is ^[n] = ↑ + ↑^2 + ... + ↑^n (Siegel CGT ch. II)."""
    assert power(cg.up, n) is up_nth(n)
    assert power_to(cg.up, n) is up_bracket(n)
    total = ZERO
    for k in range(1, n + 1):
        total = canonical_sum(total, up_nth(k))
    assert power_to(cg.up, n) is total


def _zero_h_bases(count, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        h = canonical_form(form(random_tree(rng, rng.randint(0, 3))))
        g = canonical_form(make_form([ZERO], [h]))
        if g.left == (ZERO,) and len(g.right) == 1:
            out.append(g)
    return out


def test_powers_from_the_definitions():
    """G^1 = G, G^→0 = 0, G^→1 = G, G^(n+1) = {0 | H - G^→n}, and for x >= 1
    G^→x = G:(x-1), the ordinal sum over the form {0|H} (cgtalg.normal.ordinal_sum)."""
    for g in _zero_h_bases(40, 3):
        h = g.right[0]
        assert power(g, 1) is g and power_to(g, 0) is ZERO and power_to(g, 1) is g
        for n in (1, 2, 3):
            want = canonical_form(make_form([ZERO], [canonical_sum(h, negative(power_to(g, n)))]))
            assert power(g, n + 1) is want
        for x in ("1", "2", "3", "3/2", "7/4", "5/4", "11/8", "5/2"):
            assert power_to(g, F(x)) is ordinal_sum(g, C(str(F(x) - 1))), (g, x)


def test_cumulative_power_is_not_always_the_sum_of_the_powers():
    """G^→n = {0, G^→(n-1) | H} (the recursion CGSuite's values follow) is ↑ + ... + ↑^n for
    G = ↑ (test above) and for {0||0|-2}, but not for every {0|H}: for G = {0|↓↓*},
    G^→2 = {0,G|↓↓*} while G + G^2 = {0,*|↓↓*}."""
    t = C("{0||0|-2}")
    total = ZERO
    for n in range(1, 5):
        total = canonical_sum(total, power(t, n))
        assert power_to(t, n) is total
    g = C("{0|vv*}")
    assert str(power_to(g, 2)) == "{0,{0|vv*}|vv*}"
    assert str(canonical_sum(g, power(g, 2))) == "{0,*|vv*}"


def test_power_to_dyadic_exponents_below_one():
    """G^→1/2 = {G^L, 0 | G^R, G}: for ↑, {0|*,↑}; it sits between 0 and ↑."""
    half = power_to(cg.up, F(1, 2))
    assert str(half) == "{0|*,^}"
    assert cg.compare(half, 0).relation == ">" and cg.compare(half, cg.up).relation == "<"


def test_power_refusals():
    with pytest.raises(ArgumentError, match=">= 1"):
        power(cg.up, 0)
    with pytest.raises(ArgumentError, match=">= 0"):
        power_to(cg.up, -1)
    with pytest.raises(ArgumentError, match="not a number"):
        power_to(cg.up, C("*"))
    with pytest.raises(ArgumentError, match="dyadic"):
        power(cg.up, F(1, 3))
    with pytest.raises(GameKindError):
        power(C("1"), 2)  # {0|}: no Right option
    with pytest.raises(GameKindError):
        power(C("{0,*|0}"), 2)  # ↑*: two Left options


# -- subordinates -------------------------------------------------------------------------------
def test_subordinate_inverts_the_ordinal_sum_on_random_forms():
    """For random literal bases B (birthday <= 3) and random H: subordinate(B:H, B) = H."""
    rng = random.Random(11)
    for _ in range(120):
        b = form(random_tree(rng, rng.randint(0, 3)))
        h = canonical_form(form(random_tree(rng, rng.randint(0, 3))))
        assert subordinate(ordinal_sum(b, h), b) is h, (b, h)


def test_subordinate_refuses_what_is_no_ordinal_sum():
    """1:H >= ... every 1:H is a number (its options are numbers in order), so * and ↑ are not
    1:H; a base B is B:0."""
    for g in ("*", "^", "+-1"):
        with pytest.raises(CgtalgError):
            subordinate(C(g), 1)
    assert subordinate(C("{3|1}"), C("{3|1}")) is ZERO
    assert equal(ordinal_sum(literal("{-1|1}"), subordinate(C("1/2"), literal("{-1|1}"))), C("1/2"))
