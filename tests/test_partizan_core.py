"""Partizan forms (cgtalg.core.partizan): hash-consing in core's table, constructors against
their definitions (ONAG ch. 0-1; Siegel CGT ch. II), sums and negatives by structure."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

import cgtalg as cg
from cgtalg.core.game import game_by_id
from cgtalg.core.partizan import (ZERO, PartizanGame, down, dyadic, from_impartial, integer, negative,
                                  nimber, partizan_sum, pgame, switch, up)
from cgtalg.errors import ComputationLimitError


def test_hash_consing_shares_the_id_space_with_impartial_forms():
    a = pgame([ZERO], [ZERO])
    assert a is pgame([ZERO, ZERO], [ZERO]) is nimber(1)
    assert game_by_id(a.id) is a
    assert game_by_id(cg.nim(3).id) is cg.nim(3)
    assert a.id != cg.nim(1).id                      # different kinds, different forms
    assert pgame() is ZERO and ZERO.is_zero and ZERO.birthday == 0


def test_constructors_follow_the_definitions():
    assert integer(2).left == (integer(1),) and integer(2).right == ()
    assert integer(-1).left == () and integer(-1).right == (ZERO,)
    assert dyadic(Fraction(1, 2)) is pgame([0], [1])
    assert dyadic(Fraction(3, 4)) is pgame([dyadic(1, 2)], [1])
    assert dyadic(-3, 8) is pgame([dyadic(-1, 2)], [dyadic(-1, 4)])
    assert up is pgame([0], [nimber(1)]) and down is pgame([nimber(1)], [0])
    assert switch(1) is pgame([1], [-1])
    assert nimber(3).left == nimber(3).right and len(nimber(3).left) == 3
    with pytest.raises(ValueError, match="dyadic"):
        dyadic(Fraction(1, 3))
    with pytest.raises(TypeError):
        pgame(["x"])
    big = integer(10**9)  # kept compact (cgtalg.core.partizan_atoms): made, never walked
    assert big._num == 10**9 and big.birthday == 10**9 and big.left == (integer(10**9 - 1),)
    with pytest.raises(ComputationLimitError):
        big.subpositions()


def _forms(day):
    """Every form born by ``day`` (literal, not reduced): days 0-2 are small enough."""
    forms = [ZERO]
    for _ in range(day):
        subsets = [s for k in range(len(forms) + 1) for s in itertools.combinations(forms, k)]
        forms = list({pgame(l, r).id: pgame(l, r) for l in subsets for r in subsets}.values())
    return forms


def test_sums_and_negatives_by_structure():
    forms = _forms(2)
    assert len(forms) == 256                             # 2^4 * 2^4 literal forms born by day 2
    for g in forms:
        assert negative(negative(g)) is g
        assert -g is negative(g)
        assert g + ZERO is g and ZERO + g is g
        # -G = {-G^R | -G^L}
        assert set(o.id for o in (-g).left) == set((-o).id for o in g.right)
    for g, h in itertools.product(forms[:40], repeat=2):
        s = g + h
        assert s is h + g
        # the definition: {G^L + H, G + H^L | G^R + H, G + H^R}
        assert set(o.id for o in s.left) == {(x + h).id for x in g.left} | {(g + y).id for y in h.left}
        assert set(o.id for o in s.right) == {(x + h).id for x in g.right} | {(g + y).id for y in h.right}
        assert s.birthday == g.birthday + h.birthday


def test_impartial_forms_embed():
    assert from_impartial(cg.nim(2)) is nimber(2)
    g = cg.parse("{*2, {*1}}")
    p = from_impartial(g)
    assert p.is_impartial and not up.is_impartial
    assert from_impartial(cg.nim(1)) + up is nimber(1) + up
    assert up + cg.nim(1) is nimber(1) + up             # coercion in arithmetic
    assert 1 + up is integer(1) + up and up - 1 is up + integer(-1)


def test_networkx_drawing_marks_sides():
    g = (up + nimber(1)).to_networkx()
    root = g.graph["root"]
    assert g.nodes[root]["game"] is up + nimber(1)
    sides = {d["sides"] for _, _, d in g.edges(data=True)}
    assert sides <= {"L", "R", "LR"} and "LR" in sides   # * has 0 as a Left and Right option
    assert all(g.nodes[v]["birthday"] < g.nodes[u]["birthday"] for u, v in g.edges())
