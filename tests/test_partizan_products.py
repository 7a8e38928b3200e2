"""Conjunctive and selective sums and the Conway product (cgtalg.normal.products and their doors
in cgtalg.ops.partizan_more), checked against brute-force trees built here from the definitions
(Winning Ways ch. 9; ONAG ch. 1 and 14) and compared by cgtalg's comparison, and against
CGSuite's test values:

- CGSuite lib/core/src/test/scala/org/cgsuite/lang/CompoundGameTestCase.scala: 6 cases, each
  with a conjunctive sum, a Conway product and a selective sum (18 values);
- CGSuite lib/core/src/test/scala/org/cgsuite/lang/GameTest.scala ("implement >=2-ary methods
  correctly"): 4 of its 5 ConwayProduct values (``*19.ConwayProduct(*23) = *86`` is left out:
  it takes minutes through the definition); EvalTest.scala: 1 (``*6 ConwayProduct '{0,*|0,*}'``).
"""

from __future__ import annotations

import random
from fractions import Fraction as F
from functools import lru_cache

import pytest
from norton_brute import add, form, neg, random_tree, tree

import cgtalg as cg
from cgtalg.errors import GameKindError
from cgtalg.normal.partizan import canonical_form, equal
from cgtalg.normal.products import conjunctive_sum, conway_product, selective_sum
from cgtalg.nimbers.finite import nim_mul
from cgtalg.ops import partizan_more as pm

P = cg.parse_partizan


# -- the definitions, on literal trees (Left options, Right options) ------------------------------
@lru_cache(maxsize=None)
def b_conj(g, h):
    """G ∧ H = {G^L ∧ H^L | G^R ∧ H^R}."""
    return (frozenset(b_conj(a, b) for a in g[0] for b in h[0]),
            frozenset(b_conj(a, b) for a in g[1] for b in h[1]))


@lru_cache(maxsize=None)
def b_sel(g, h):
    """G ∨ H: move in one or both components."""
    def side(i):
        return frozenset([b_sel(a, h) for a in g[i]] + [b_sel(g, b) for b in h[i]]
                         + [b_sel(a, b) for a in g[i] for b in h[i]])
    return (side(0), side(1))


@lru_cache(maxsize=None)
def b_sel_cgsuite(g, h):
    """What CGSuite's CompoundGame computes for SelectiveSum: the disjunctive options G^L + H,
    G + H^L and the conjunctive ones G^L ∧ H^L."""
    def side(i):
        return frozenset([add(a, h) for a in g[i]] + [add(g, b) for b in h[i]]
                         + [b_conj(a, b) for a in g[i] for b in h[i]])
    return (side(0), side(1))


@lru_cache(maxsize=None)
def b_prod(g, h):
    """ONAG's product: {G^L H + G H^L - G^L H^L, G^R H + G H^R - G^R H^R | G^L H + G H^R -
    G^L H^R, G^R H + G H^L - G^R H^L}."""
    def term(a, b):
        return add(add(b_prod(a, h), b_prod(g, b)), neg(b_prod(a, b)))
    left = [term(a, b) for a in g[0] for b in h[0]] + [term(a, b) for a in g[1] for b in h[1]]
    right = [term(a, b) for a in g[0] for b in h[1]] + [term(a, b) for a in g[1] for b in h[0]]
    return (frozenset(left), frozenset(right))


def _same(ours, brute_tree):
    """cgtalg's comparison of our canonical result with the brute-force tree."""
    return equal(ours, form(brute_tree)) and ours is canonical_form(form(brute_tree))


# -- brute force ------------------------------------------------------------------------------------
@pytest.mark.parametrize("op,brute,depth,n", [(conjunctive_sum, b_conj, 3, 40), (selective_sum, b_sel, 2, 40),
                                               (conway_product, b_prod, 1, 25)])
def test_literal_forms_by_brute_force(op, brute, depth, n):
    """Random literal forms (birthday <= depth), as given (not canonical): the operation on the
    forms equals the definition's tree."""
    rng = random.Random(36)
    for _ in range(n):
        a, b = random_tree(rng, depth), random_tree(rng, rng.randint(1, depth))
        got = op(form(a), form(b))
        assert _same(got, brute(a, b)), (str(form(a)), str(form(b)), str(got))


@pytest.mark.parametrize("op,brute", [(conjunctive_sum, b_conj), (selective_sum, b_sel), (conway_product, b_prod)])
def test_canonical_forms_by_brute_force(op, brute):
    """Random canonical forms of birthday <= 3 (the brute force walks their literal trees)."""
    rng = random.Random(7)
    done = 0
    while done < 12:
        a = canonical_form(form(random_tree(rng, 3)))
        b = canonical_form(form(random_tree(rng, 2)))
        if op is conway_product and a.birthday + b.birthday > 3:
            continue
        assert _same(op(a, b), brute(tree(a), tree(b))), (str(a), str(b))
        done += 1


def test_products_of_numbers_are_products():
    """On numbers the Conway product is the product (ONAG ch. 1): dyadics of small birthday."""
    xs = [F(0), F(1), F(-1), F(2), F(-3), F(1, 2), F(-1, 2), F(3, 4), F(-5, 4), F(3, 2), F(7, 8)]
    for x in xs:
        for y in xs:
            assert conway_product(cg.dyadic(x), cg.dyadic(y)) is canonical_form(cg.dyadic(x * y)), (x, y)


def test_products_of_nimbers_are_nim_products():
    """On nimbers the Conway product is the nim-product (ONAG ch. 6)."""
    for a in range(8):
        for b in range(8):
            assert conway_product(cg.nim(a), cg.nim(b)) is canonical_form(cg.nim(nim_mul(a, b))), (a, b)


def test_conjunctive_sum_of_integers_is_the_minimum():
    """Left moves n∧m to (n-1)∧(m-1) while both are positive: n ∧ m = min(n, m) for n, m >= 0."""
    for n in range(5):
        for m in range(5):
            assert conjunctive_sum(cg.dyadic(n), cg.dyadic(m)) is canonical_form(cg.dyadic(min(n, m)))


def test_selective_sum_of_nim_heaps_adds():
    """*a ∨ *b = *(a + b) (ordinary addition): by induction the options reach every a + b - k."""
    for a in range(5):
        for b in range(5):
            assert selective_sum(cg.nim(a), cg.nim(b)) is canonical_form(cg.nim(a + b))


# -- not functions of values ------------------------------------------------------------------------
@pytest.mark.parametrize("op,g,c,h,got,want", [
    (conjunctive_sum, "{-1|1}", "0", "*", "*", "0"),
    (selective_sum, "{|*}", "0", "*", "v*", "*"),
    (conway_product, "{|-1,0}", "-2", "*", "*2", "0"),
])
def test_equal_forms_can_give_unequal_results(op, g, c, h, got, want):
    """The compounds act on forms: equal forms, different results (the docstrings say so)."""
    fg, fc, fh = (pm._game("test", t, literal=True) for t in (g, c, h))
    assert equal(fg, fc)
    assert str(op(fg, fh)) == got and str(op(fc, fh)) == want
    assert str(getattr(pm, op.__name__)(g, h)) == got  # the door reads text literally


# -- CGSuite's values -------------------------------------------------------------------------------
# CompoundGameTestCase.scala: (g, h, conjunctiveSum, conwayProduct, selectiveSum); '{*|*}' and
# *[[[2]],[2],0] are CGSuite's explicit (literal) forms.
COMPOUND = [
    ("1/2", "1/4", "1/2", "1/8", "3/4"),
    ("*5", "*6", "*5", "*8", "*8"),
    ("+-1", "^^", "{0|-1}", "+-^^", "{1^^|-1}"),
    ("{1|0}", "0", "0", "0", "{1|0}"),
    ("{*|*}", "3", "2", "0", "3"),
    ("*[[[2]],[2],0]", "*5", "*5", "*10", "*7"),
]


@pytest.mark.parametrize("g,h,conj,prod,sel", COMPOUND)
def test_cgsuite_compound_values(g, h, conj, prod, sel):
    """CompoundGameTestCase.scala: conjunctive sums and Conway products as CGSuite computes them
    (through the doors, text read literally); its selective sums are those of its
    implementation (disjunctive options after a one-component move), reproduced here by the
    brute force of that rule, while ours follow the definition (checked against b_sel)."""
    assert pm.conjunctive_sum(g, h) is canonical_form(P(conj))
    assert pm.conway_product(g, h) is canonical_form(P(prod))
    fg, fh = (pm._game("x", t, literal=True) for t in (g, h))
    assert canonical_form(form(b_sel_cgsuite(tree(fg), tree(fh)))) is canonical_form(P(sel))
    assert _same(pm.selective_sum(g, h), b_sel(tree(fg), tree(fh)))


@pytest.mark.parametrize("g,h,want", [
    ("*4", "*4", "*6"), ("15", "^^*2", "^30*2"), ("{3|1}", "^^", "{^6|^^}"),
    ("^^", "^^", "{0||0,*|0,{0,*|0,*2}}"), ("*6", "{0,*|0,*}", "*11")])
def test_cgsuite_conway_products(g, h, want):
    """GameTest.scala (``*4.ConwayProduct(*4)``, ...) and EvalTest.scala (``*6 ConwayProduct
    '{0,*|0,*}'``, an explicit *2)."""
    assert pm.conway_product(g, h) is canonical_form(P(want))


# -- doors ----------------------------------------------------------------------------------------------
def test_doors_refuse_misere_classes_and_transfinite_nimbers():
    mc = cg.canonical_form("{*2}", misere=True)
    w = cg.Nimber(cg.ordinal("w"))
    for name in ("conjunctive_sum", "selective_sum", "conway_product"):
        with pytest.raises(GameKindError):
            getattr(pm, name)(w, "*")
        with pytest.raises(GameKindError, match="misère"):
            getattr(pm, name)("*", mc)


def test_doors_take_impartial_forms_and_positions_kinds():
    assert pm.conway_product(cg.nim(2), 3) is canonical_form(P("*2"))  # *2.3 = *2+*2+*2 = *2
    assert pm.selective_sum(cg.nim(1), cg.nim(1)) is canonical_form(P("*2"))
