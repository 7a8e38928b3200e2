"""Clobber variants (cgtalg.rulesets.partizan.clobber_variants): values checked by exhaustive play
of G - value with moves written here from CGSuite's documented rules (whole board, no components,
no symmetries), against CGSuite's GameGridTest.scala, and Anti-Clobber against Clobber played
backwards."""

from __future__ import annotations

import random

import pytest
from rulesets_brute import equals_by_play

from cgtalg.errors import RulesetError
from cgtalg.normal.notation import parse_partizan
from cgtalg.rulesets.partizan.clobber_variants import (
    GenClobber, anti_clobber, hot_clobber, kings, knights, parse_gen_clobber, queens, rooks)
from cgtalg.rulesets.partizan.games import Clobber, partizan_form
from cgtalg.rulesets.registry import get_ruleset

ORTH = [(-1, 0), (1, 0), (0, -1), (0, 1)]
DIAG = [(-1, -1), (-1, 1), (1, -1), (1, 1)]
KNIGHT = [(a, b) for a in (-2, -1, 1, 2) for b in (-2, -1, 1, 2) if abs(a) != abs(b)]


def rules_moves(dirs, lands, leaves, reach):
    """Left and Right move functions from the rules: a stone steps ``(dr, dc)`` repeatedly over
    empty squares, at most ``reach`` steps in all (None: no limit), stopping at the first
    square that is not empty; it may move there when that square is on the board and holds one
    of ``lands[player]``; its old square becomes ``leaves[player]``."""
    def moves(board, me):
        h = len(board)
        w = len(board[0]) if h else 0
        for r in range(h):
            for c in range(w):
                if board[r][c] != me:
                    continue
                for dr, dc in dirs:
                    steps, rr, cc = 1, r + dr, c + dc
                    while (reach is None or steps < reach) and 0 <= rr < h and 0 <= cc < w and board[rr][cc] == ".":
                        steps, rr, cc = steps + 1, rr + dr, cc + dc
                    if not (0 <= rr < h and 0 <= cc < w) or board[rr][cc] not in lands[me]:
                        continue
                    g = [list(row) for row in board]
                    g[r][c] = leaves[me]
                    g[rr][cc] = me
                    yield tuple("".join(row) for row in g)

    return (lambda b: moves(b, "x")), (lambda b: moves(b, "o"))


CLOBBER = rules_moves(ORTH, {"x": "o", "o": "x"}, {"x": ".", "o": "."}, 1)
RULES = {
    "clobber": (GenClobber, CLOBBER),
    "anti-clobber": (anti_clobber, rules_moves(ORTH, {"x": ".", "o": "."}, {"x": "o", "o": "x"}, 1)),
    "hot-clobber": (hot_clobber, rules_moves(ORTH, {"x": "xo", "o": "xo"}, {"x": ".", "o": "."}, 1)),
    "kings": (kings, rules_moves(ORTH + DIAG, {"x": "o", "o": "x"}, {"x": ".", "o": "."}, 1)),
    "knights": (knights, rules_moves(KNIGHT, {"x": "o", "o": "x"}, {"x": ".", "o": "."}, 1)),
    "rooks": (rooks, rules_moves(ORTH, {"x": "o", "o": "x"}, {"x": ".", "o": "."}, None)),
    "queens": (queens, rules_moves(ORTH + DIAG, {"x": "o", "o": "x"}, {"x": ".", "o": "."}, None)),
    "diagonal": (lambda: GenClobber(directions="diagonal"),
                 rules_moves(DIAG, {"x": "o", "o": "x"}, {"x": ".", "o": "."}, 1)),
    "anti-clobber-reach-2": (lambda: parse_gen_clobber("left=.,right=.,behind=ox,max=2"),
                             rules_moves(ORTH, {"x": ".", "o": "."}, {"x": "o", "o": "x"}, 2)),
    "hot-kings-reach-3": (lambda: parse_gen_clobber("dirs=compass,left=xo,right=xo,max=3"),
                          rules_moves(ORTH + DIAG, {"x": "xo", "o": "xo"}, {"x": ".", "o": "."}, 3)),
}


def random_board(rng, h, w, empty=0.3):
    return tuple("".join(rng.choice("xo") if rng.random() > empty else "." for _ in range(w)) for _ in range(h))


@pytest.mark.parametrize("rules", sorted(RULES))
def test_random_boards_agree_with_play(rules):
    factory, (left, right) = RULES[rules]
    game = factory()
    rng = random.Random(hash(rules) % 1000)
    shapes = [(1, 5), (2, 3), (1, 6), (3, 3), (2, 4)]
    for i in range(16):
        h, w = shapes[i % len(shapes)]
        pos = random_board(rng, h, w)
        assert sorted(set(game.left_moves(pos))) == sorted(set(left(pos))), (rules, pos)
        assert sorted(set(game.right_moves(pos))) == sorted(set(right(pos))), (rules, pos)
        v = partizan_form(game, pos)
        assert equals_by_play(left, right, pos, v), (rules, pos, str(v))


def test_anti_clobber_boards_split_by_walls_only():
    # a stone may move into an empty square, so x.o is one game: {oxo | xox} = {0 | 0} = *
    a = anti_clobber()
    assert str(partizan_form(a, a.parse_position("x.o"))) == "*"
    left, right = RULES["anti-clobber"][1]
    # (the brute force never lands on # nor slides over it: a wall is a square off the board)
    for text in ("x.o", "x#o", "x.#.o", "xo.|.#x", "x..|#o.", "x.o|#.#|o.x"):
        pos = a.parse_position(text)
        assert equals_by_play(left, right, pos, partizan_form(a, pos)), text
    # split at the wall only, each piece cropped and turned to its least image
    assert a.components(a.parse_position("x.#.o")) == [(".", "o"), (".", "x")]
    assert len(a.components(a.parse_position("x.o"))) == 1
    assert str(partizan_form(a, a.parse_position("x#o"))) == "0"


def test_moving_onto_empty_squares_without_filling_them_is_loopy():
    from cgtalg.errors import LoopyGameError

    g = GenClobber(left_clobbers="o.", right_clobbers="x.")
    with pytest.raises(LoopyGameError):
        partizan_form(g, g.parse_position("x..o"))


def test_anti_clobber_is_clobber_backwards():
    """CGSuite game.grid.constants: 'if Clobber has a Left option from G to H, then Anti-Clobber has
    a Left option from H to G, and vice versa' (and the same for Right)."""
    c, a = Clobber(), anti_clobber()
    rng = random.Random(5)
    for _ in range(40):
        g = random_board(rng, 2, 4)
        for mine, anti in ((c.left_moves, a.left_moves), (c.right_moves, a.right_moves)):
            for h in mine(g):
                assert g in set(anti(h)), (g, h)
            for h in anti(g):
                assert g in set(mine(h)), (g, h)


def test_default_rules_are_clobber():
    g, c = GenClobber(), Clobber()
    assert g.name == "gen-clobber" and g.rules_text() == ""
    rng = random.Random(11)
    for _ in range(15):
        pos = random_board(rng, 3, 3)
        assert partizan_form(g, pos) is partizan_form(c, pos), pos
        assert partizan_form(g, pos, engine="python") is partizan_form(c, pos), pos


# CGSuite lib/core/src/test/scala/org/cgsuite/lang/GameGridTest.scala, "define Clobber properly"
CGSUITE = [
    (GenClobber, "xox|ox.", "{^^*|*,v}"),                                            # Clobber
    (lambda: GenClobber(directions="diagonal"), "xoxo|oox.|xxx.", "{0,v*|vv}"),     # Clobber (Diagonal)
    (kings, "xox|ox.", "{^^*|*,v[2]}"),
    (rooks, "xox|ox.", "{^^*|0,*}"),
    (queens, "xox|ox.", "^"),
    (anti_clobber, "xoxo|oo..", "{*|-1}"),
]


@pytest.mark.parametrize("factory, text, value", CGSUITE)
def test_cgsuite_values(factory, text, value):
    game = factory()
    pos = game.parse_position(text)
    v = partizan_form(game, pos)
    assert v is parse_partizan(value)
    assert partizan_form(game, pos, engine="python") is v
    left, right = next(m for f, m in RULES.values() if f().name == game.name)
    assert equals_by_play(left, right, pos, v)


def test_registry_and_family_names():
    for name in ("anti-clobber", "hot-clobber", "knights", "gen-clobber"):
        assert get_ruleset(name).name == name
    # Kings, Rooks, Queens are named in cgtalg.rulesets.partizan.chess_clobber; here the family gives them
    for arg, same in (("dirs=compass", kings), ("max=inf", rooks), ("dirs=compass,max=inf", queens)):
        r = get_ruleset("gen-clobber:" + arg)
        assert r.rules_text() == same().rules_text() == arg
    r = get_ruleset("gen-clobber:dirs=compass,max=inf")
    assert r.name == "gen-clobber:dirs=compass,max=inf"
    assert partizan_form(r, r.parse_position("xox|ox.")) is parse_partizan("^")        # = Queens
    back = get_ruleset(r.name)
    assert back.name == r.name


@pytest.mark.parametrize("arg", ["dirs=hex", "left=xz", "behind=x", "max=0", "max=two", "size=3", "dirs",
                                 "max=1,max=2", "behind=q."])
def test_bad_family_arguments_refused(arg):
    with pytest.raises(RulesetError):
        parse_gen_clobber(arg)


@pytest.mark.parametrize("factory, text, what", [
    (GenClobber, "xoz|ox.", "unexpected 'z'"),
    (GenClobber, "x#o", "unexpected '#'"),          # no walls where stones never land on empty squares
    (anti_clobber, "xo|o", "different lengths"),
    (kings, "xo.|ox", "different lengths"),
    (anti_clobber, "x?o", "unexpected"),
])
def test_bad_position_texts_refused(factory, text, what):
    with pytest.raises(RulesetError, match=what):
        factory().parse_position(text)


def test_bad_positions_refused():
    for bad in (("xo", "o"), "xo", ("x#",), (1, 2)):
        with pytest.raises(RulesetError):
            GenClobber().check_position(bad)
    with pytest.raises(RulesetError):
        partizan_form(kings(), ("xq",))
