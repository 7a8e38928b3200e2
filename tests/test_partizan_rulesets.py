"""Partizan rulesets (cgtalg.rulesets.partizan.games): values named with their source, and the
memoised, component-adding evaluation checked against the literal game tree compared from the
definition (G >= H iff Right, moving first in G - H, loses; Siegel CGT II.1)."""

from __future__ import annotations

import functools
import itertools
from fractions import Fraction

import pytest

from cgtalg.core.partizan import PartizanGame, dyadic, down, integer, nimber, pgame, up
from cgtalg.rulesets.partizan.games import Clobber, Domineering, Hackenbush, ToadsAndFrogs, partizan_form
from cgtalg.rulesets.protocol import player_moves


# -- a comparison from the definition, on literal trees built from positions ------------------------
def _tree(ruleset, pos, memo):
    """The literal form of ``pos`` (no canonical forms, no components)."""
    if pos in memo:
        return memo[pos]
    g = pgame([_tree(ruleset, q, memo) for q in player_moves(ruleset, pos, "L")],
              [_tree(ruleset, q, memo) for q in player_moves(ruleset, pos, "R")])
    memo[pos] = g
    return g


@functools.lru_cache(maxsize=None)
def _ge(g: PartizanGame, h: PartizanGame) -> bool:
    """G >= H iff no G^R <= H and no H^L >= G (Conway's definition, recursion on options)."""
    return not any(_ge(h, gr) for gr in g.right) and not any(_ge(hl, g) for hl in h.left)


def _same_value(g: PartizanGame, h: PartizanGame) -> bool:
    return _ge(g, h) and _ge(h, g)


# -- published values ------------------------------------------------------------------------------
def test_hackenbush_strings_cgsuite_values():
    # CGSuite GameGraphTest (game.graph.Hackenbush, l = blue = Left, r = red, e = green):
    # "lrlrrllr" = 77/128, "eeeeeee" = *7, "lrlerrr" = 3/4v[3]*, where ^[n] is CGSuite's
    # {0|*||*|...|*} with n bars deep (its CanonicalShortGameTestCase: "{0|*||*|||*||||*}" is
    # "^[4]") and v[n] = -^[n]
    h = Hackenbush()
    assert partizan_form(h, h.parse_position("LRLRRLLR")) is dyadic(77, 128)
    assert partizan_form(h, h.parse_position("GGGGGGG")) is nimber(7)
    star = nimber(1)
    up3 = pgame([pgame([pgame([0], [star])], [star])], [star])
    expected = dyadic(3, 4) - up3 + star
    assert _same_value(partizan_form(h, h.parse_position("LRLGRRR")), expected)
    assert not _same_value(expected, dyadic(3, 4) + down + down + down + star)


def _sign_expansion(s: str) -> Fraction:
    """Berlekamp's rule for a blue-red string read from the ground (Winning Ways ch. 1): the
    first run of one colour counts +-1 per edge; after the first change of colour each edge
    counts half the previous one, with its colour's sign."""
    v = Fraction(0)
    i = 0
    while i < len(s) and s[i] == s[0]:
        v += 1 if s[0] == "L" else -1
        i += 1
    step = Fraction(1, 2)
    for ch in s[i:]:
        v += step if ch == "L" else -step
        step /= 2
    return v


def test_blue_red_strings_follow_the_sign_expansion():
    h = Hackenbush()
    for n in range(1, 8):
        for s in itertools.product("LR", repeat=n):
            s = "".join(s)
            assert partizan_form(h, (s,)) is dyadic(_sign_expansion(s)), s


def test_clobber_cgsuite_value():
    # CGSuite GameGridTest: Clobber("xox|ox.").CanonicalForm = {^^*|*,v}
    c = Clobber()
    expected = pgame([up + up + nimber(1)], [nimber(1), down])
    assert _same_value(partizan_form(c, c.parse_position("xox|ox.")), expected)


def test_domineering_small_boards():
    d = Domineering()
    # Winning Ways ch. 5 / Siegel CGT I.1: a vertical domino's room is 1 for Left, a horizontal
    # one -1 for Right; the 2 x 2 square is the switch +-1; a 1 x n strip is -floor(n/2)
    assert partizan_form(d, d.rectangle(2, 1)) is integer(1)
    assert partizan_form(d, d.rectangle(1, 2)) is integer(-1)
    assert _same_value(partizan_form(d, d.rectangle(2, 2)), pgame([1], [-1]))
    for n in range(1, 9):
        assert partizan_form(d, d.rectangle(1, n)) is integer(-(n // 2))


@pytest.mark.parametrize("tiny_reading", ["sum"])
def test_domineering_4x4_cgsuite_value(tiny_reading):
    # CGSuite GameGridTest: Domineering(Grid.Empty(4,4)).CanonicalForm =
    #   +-{0,{{2|0},2Tiny(2)|{2|0},Miny(2)}}, i.e. {0, Y | 0, -Y} with
    #   Y = {{2|0}, 2 + Tiny(2) | {2|0}, Miny(2)}, Tiny(2) = {0 || 0 | -2}, Miny(2) = -Tiny(2)
    d = Domineering()
    tiny2 = pgame([0], [pgame([0], [-2])])
    two_zero = pgame([2], [0])
    y = pgame([two_zero, integer(2) + tiny2], [two_zero, -tiny2])
    expected = pgame([0, y], [0, -y])
    assert _same_value(partizan_form(d, d.rectangle(4, 4)), expected)


# -- against the literal tree ----------------------------------------------------------------------
def _boards():
    # every board inside a 2 x 3 and a 3 x 3 with at most 7 free cells (up to the memo)
    out = []
    for rows, cols in ((2, 3), (3, 3)):
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        for k in range(2, 8):
            for sub in itertools.combinations(cells, k):
                out.append(Domineering.from_cells(sub))
    return out[::7]


def test_domineering_components_and_memo_match_the_literal_tree():
    d = Domineering()
    memo: dict = {}
    for b in _boards():
        assert _same_value(partizan_form(d, b), _tree(d, b, memo)), d.format_position(b)


@pytest.mark.parametrize("strip", ["T.F", "TT.F", "T.FF", "TT..F", "T..FF", "TF.TF.", "T.T.F.F", ".TF.TF"])
def test_toads_and_frogs_match_the_literal_tree(strip):
    t = ToadsAndFrogs()
    assert _same_value(partizan_form(t, strip), _tree(t, strip, {}))


@pytest.mark.parametrize("grid", ["xo", "xox", "xoxo", "xxo", "xo|ox", "xox|ox.", "xo.ox", "xoo|.xo"])
def test_clobber_matches_the_literal_tree(grid):
    c = Clobber()
    pos = c.parse_position(grid)
    assert _same_value(partizan_form(c, pos), _tree(c, pos, {}))


def test_toads_and_frogs_worked_by_hand():
    # T.F: Left to .TF = { | FT.} = { | 1} = 0, Right to TF. = {.FT | } = {-1 | } = 0: T.F = *
    t = ToadsAndFrogs()
    assert partizan_form(t, "T.F") is nimber(1)
    assert partizan_form(t, "FT.") is integer(1)
