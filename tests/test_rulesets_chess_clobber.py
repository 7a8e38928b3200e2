"""Kings, Rooks and Queens (cgtalg.rulesets.partizan.chess_clobber): CGSuite's chess-move variants of
Clobber (game.grid.Kings, Rooks, Queens; CGSuite's grid/constants.cgs defines them through its
GenClobber schema). The rules, written here: Left's stones x and Right's stones o; a move takes
one of one's stones onto a square holding an opponent's stone, which is removed; a king steps
one square in any of 8 directions, a rook slides along a row or column over empty squares to the
first stone it meets, a queen likewise along diagonals too. Values are checked by exhaustive
play on whole boards (no components, no symmetries, no squeezing) and against CGSuite's
lib/core/src/test/scala/org/cgsuite/lang/GameGridTest.scala."""

from __future__ import annotations

import itertools
import random

import pytest
from rulesets_brute import equals_by_play

from cgtalg.errors import ComputationLimitError, RulesetError
from cgtalg.normal.notation import parse_partizan
from cgtalg.rulesets.partizan.games import Clobber, partizan_form, partizan_value
from cgtalg.rulesets.partizan.chess_clobber import Kings, Queens, Rooks
from cgtalg.rulesets.registry import get_ruleset

ORTH = [(-1, 0), (1, 0), (0, -1), (0, 1)]
ALL8 = ORTH + [(-1, -1), (-1, 1), (1, -1), (1, 1)]
RULES = {"kings": (ALL8, False), "rooks": (ORTH, True), "queens": (ALL8, True)}


def brute(board: tuple, me: str, dirs, slide: bool):
    """Moves from the rules on the whole board."""
    them = "o" if me == "x" else "x"
    h, w = len(board), len(board[0])
    for r in range(h):
        for c in range(w):
            if board[r][c] != me:
                continue
            for dr, dc in dirs:
                rr, cc = r + dr, c + dc
                while slide and 0 <= rr < h and 0 <= cc < w and board[rr][cc] == ".":
                    rr, cc = rr + dr, cc + dc
                if 0 <= rr < h and 0 <= cc < w and board[rr][cc] == them:
                    g = [list(row) for row in board]
                    g[r][c] = "."
                    g[rr][cc] = me
                    yield tuple("".join(row) for row in g)


def movers(name):
    dirs, slide = RULES[name]
    return (lambda b: brute(b, "x", dirs, slide)), (lambda b: brute(b, "o", dirs, slide))


def rulesets():
    return [Kings(), Rooks(), Queens()]


def test_cgsuite_values():
    """CGSuite GameGridTest.scala: game.grid.Kings("xox|ox.").CanonicalForm = {^^*|*,v[2]},
    Rooks(...) = {^^*|0,*}, Queens(...) = ^; and by play from the rules."""
    facts = {"kings": "{^^*|*,v[2]}", "rooks": "{^^*|0,*}", "queens": "^"}
    for r in rulesets():
        v = partizan_form(r, r.parse_position("xox|ox."))
        assert v == parse_partizan(facts[r.name]), r.name
        assert equals_by_play(*movers(r.name), ("xox", "ox."), v), r.name


def test_all_small_boards_agree_with_play():
    """Every 2x3 and 1x5 board, and every 2x2 board, in each ruleset."""
    for r in rulesets():
        left, right = movers(r.name)
        for h, w in ((2, 2), (2, 3), (1, 5)):
            for cells in itertools.product("xo.", repeat=h * w):
                board = tuple("".join(cells[i * w:(i + 1) * w]) for i in range(h))
                v = partizan_form(r, board)
                assert equals_by_play(left, right, board, v), (r.name, board, str(v))


def test_random_larger_boards_agree_with_play():
    """Sparse boards up to 4x4 and 1x8, where sliding pieces cross empty squares and the
    groups linked by rows, columns and diagonals are split."""
    rng = random.Random(2024)
    for r in rulesets():
        left, right = movers(r.name)
        for _ in range(25):
            h, w = rng.choice([(3, 3), (3, 4), (4, 4), (1, 8)])
            board = tuple("".join(rng.choice("xo....") for _ in range(w)) for _ in range(h))
            if sum(row.count("x") + row.count("o") for row in board) > 7:
                continue
            v = partizan_form(r, board)
            assert equals_by_play(left, right, board, v), (r.name, board, str(v))


def test_rules_differ_as_they_should():
    k, rk, q = rulesets()
    # a diagonal neighbour: kings and queens capture, rooks (and Clobber) do not
    diag = k.parse_position("x.|.o")
    # whoever moves first captures and ends the game: *; rooks cannot move at all: 0
    assert [str(partizan_form(g, diag)) for g in (k, rk, q)] == ["*", "0", "*"]
    assert len(list(k.left_moves(diag))) == 1 and not list(rk.left_moves(diag))
    # a gap: only the sliding pieces reach
    gap = k.parse_position("x..o")
    assert not list(k.left_moves(gap)) and len(list(rk.left_moves(gap))) == 1
    # a rook may not jump: in x.xo the first x meets its own stone first and cannot move
    assert sorted(rk.left_moves(("x.xo",))) == [("x..x",)]
    assert sorted(rk.right_moves(("x.xo",))) == [("x.o.",)]
    # Kings on an orthogonal board is no different from Clobber where there are no diagonals
    assert partizan_form(k, ("xoxo",)) == partizan_form(Clobber(), ("xoxo",))
    # a lone x beside a lone o, capture either way: each player's move ends the game: *
    assert str(partizan_form(q, ("x...o",))) == "*"


def test_components():
    k, rk, q = rulesets()
    board = rk.parse_position("x.o..|.....|...x.|....o")
    # Rooks: x(0,0)-o(0,2) share row 0; x(2,3)-o(3,4) share nothing: a one-colour group each
    assert rk.components(board) == [rk.normalize(("xo",))] == [("o", "x")]   # least image: a column
    # Queens: x(2,3) and o(3,4) are on one diagonal
    assert len(q.components(board)) == 2
    # Kings: 8-connected groups; only x(2,3)-o(3,4) has both colours
    assert k.components(board) == [k.normalize(("x.", ".o"))]
    # Rooks squeeze empty rows and columns: the order along lines is all that matters
    assert rk.normalize(("x...o",)) == rk.normalize(("xo",))
    assert q.normalize(("x...o",)) != q.normalize(("xo",))


@pytest.mark.parametrize("text, match", [
    ("xoz", r"unexpected 'z' at row 1, column 3"),
    ("xo|x", r"different lengths"),
    ("xo||ox", r"different lengths"),
])
def test_bad_texts(text, match):
    for r in rulesets():
        with pytest.raises(RulesetError, match=match):
            r.parse_position(text)


def test_checks_registry_store_and_cli(tmp_path):
    from click.testing import CliRunner

    from cgtalg.cli.main import cli
    from cgtalg.store import open_store

    for name, cls in (("kings", Kings), ("rooks", Rooks), ("Queens", Queens)):
        assert isinstance(get_ruleset(name), cls)
    k = Kings()
    with pytest.raises(RulesetError, match="a position is a tuple of equal-length rows"):
        k.check_position(("xo", "o"))
    with pytest.raises(RulesetError, match="a position text is a str"):
        k.parse_position(3)
    with pytest.raises(ComputationLimitError, match="MAX_SQUARES"):
        k.check_position(("x" * 200,) * 200)
    assert k.parse_position("xo/o.") == k.parse_position("xo|o.") == ("xo", "o.")
    assert k.parse_position("empty") == () and str(partizan_form(k, ())) == "0"
    st = open_store(f"sqlite:///{tmp_path / 's.db'}")
    pos = k.parse_position("xox|ox.")
    g = partizan_value(k, pos, store=st)
    assert st.get_position("partizan:kings", k.format_position(k.normalize(pos)), "canonical_form")
    assert partizan_value(k, pos, store=st) == g
    res = CliRunner().invoke(cli, ["value", "--no-store", "queens", "xox|ox."])
    assert res.exit_code == 0, res.output
    assert "canonical form  ^" in res.output


def test_kings_rooks_queens_agree_with_the_general_clobber_schema():
    """Two code paths for the same rules are held equal: these rulesets (components split by
    lines of sight) and the general schema of ``clobber_variants`` (``GenClobber`` with king
    steps and sliding), on random boards."""
    import random

    from cgtalg.rulesets.partizan.clobber_variants import kings as gen_kings
    from cgtalg.rulesets.partizan.clobber_variants import queens as gen_queens
    from cgtalg.rulesets.partizan.clobber_variants import rooks as gen_rooks
    from cgtalg.rulesets.partizan.games import partizan_form

    rng = random.Random(36)
    for mine, general in ((Kings(), gen_kings()), (Rooks(), gen_rooks()), (Queens(), gen_queens())):
        for _ in range(25):
            rows, cols = rng.randint(1, 3), rng.randint(2, 4)
            text = "|".join("".join(rng.choice("xo..") for _ in range(cols)) for _ in range(rows))
            a = partizan_form(mine, mine.parse_position(text))
            b = partizan_form(general, general.parse_position(text))
            assert a == b, (mine.name, text, str(a), str(b))
