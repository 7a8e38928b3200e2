"""Amazons on small boards (cgtalg.rulesets.partizan.amazons): values checked by exhaustive play of
G - value with queen moves and shots written here from the rules, against cgt-py's Amazons
(skipped without it), and through the registry and the store."""

from __future__ import annotations

import random

import pytest
from rulesets_brute import cgt_py_form, equals_by_play, outcome_by_play

from cgtalg.errors import RulesetError
from cgtalg.normal.partizan import canonical_form, outcome
from cgtalg.rulesets.partizan.amazons import Amazons
from cgtalg.rulesets.partizan.games import partizan_form, partizan_value
from cgtalg.rulesets.registry import get_ruleset

DIRS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]


def brute(board: tuple, me: str):
    """Moves from the rules, on the whole board (no regions, no symmetries)."""
    h, w = len(board), len(board[0])
    cells = {(r, c): board[r][c] for r in range(h) for c in range(w)}

    def slide(cs, r, c):
        for dr, dc in DIRS:
            rr, cc = r + dr, c + dc
            while (rr, cc) in cs and cs[(rr, cc)] == ".":
                yield rr, cc
                rr, cc = rr + dr, cc + dc

    for (r, c), ch in list(cells.items()):
        if ch != me:
            continue
        for to in list(slide(cells, r, c)):
            after = dict(cells)
            after[(r, c)] = "."
            after[to] = me
            for shot in slide(after, *to):
                burnt = dict(after)
                burnt[shot] = "#"
                yield tuple("".join(burnt[(i, j)] for j in range(w)) for i in range(h))


def left(b):
    return brute(b, "x")


def right(b):
    return brute(b, "o")


BOARDS = ["x..|..o", "x.#|..o", "xo..", "x..o", "x.|.o", "x..|.#.|..o", "xo.|...", "x...|#.o.",
          "x.o|...", "xx.|..o", ".x.|o..|...", "x..#|..#o"]


@pytest.mark.parametrize("text", BOARDS)
def test_values_agree_with_play(text):
    a = Amazons()
    pos = a.parse_position(text)
    v = partizan_form(a, pos)
    assert equals_by_play(left, right, pos, v), (text, str(v))


def test_random_small_boards_agree_with_play():
    rng = random.Random(3)
    a = Amazons()
    for _ in range(25):
        h, w = rng.choice([(2, 3), (3, 3), (2, 4), (1, 5)])
        cells = [rng.choice("..##") for _ in range(h * w)]
        for ch in "xo":
            cells[rng.randrange(h * w)] = ch
        pos = tuple("".join(cells[i * w:(i + 1) * w]) for i in range(h))
        v = partizan_form(a, pos)
        assert equals_by_play(left, right, pos, v), (pos, str(v))
        assert outcome(v) == outcome_by_play(left, right, pos)


@pytest.mark.parametrize("text", BOARDS + ["x...|...o", "x..|...|..o", "xo..|...."])
def test_agree_with_cgt_py(text):
    cp = pytest.importorskip("cgt_py")
    a = Amazons()
    assert partizan_form(a, a.parse_position(text)) == cgt_py_form(cp.Amazons(text))


#: a value "confirmed with CGSuite" in cgt-tools' tests (t4ccer/cgt-tools, amazons.rs)
CGSUITE_3x4 = ("x..#|....|.#.o", "{{6|{3|1, {3|0, {1/2|0}}}}, {6|{4*|-3, {3, {3|0, {1/2|0}}|-4}}}|-3, "
               "{0, {0|-2}, {1|-3}|-5}, {0, {0, *|0, {0, {1/2, {1|0}|v}|v}}|-5}, {{2, {2|0}|0, {0, {2|0, "
               "{2|0}}|0}}, {2, {3|0}|0, {0, {0, ^*|0}|-1}}, {{2|0}, {2|{1|1/4}, {2|0}}|v*, {1/2|{{0|-1}, "
               "{*|-1}|-1}}, {{0, ^*|0}|-1}}, {{3|0}, {3|1, {2|0}}, {3, {3|1}|1, {1|0, *}}|-1/16, {0|-1}, "
               "{*|-1}}|-5, {v, v*, {0, {0, ^*|0}|-1}|-5}, {{1/2|{-1/4, {0|-1}, {*|-1}|-1}}, {{1|1/4}|"
               "{-1/4|-1}}, {{1|{1|0}, {1|*}}|-1/2}|-5}}}")


def test_cgsuite_value_of_a_3x4_board():
    from cgtalg.normal.notation import parse_partizan

    a = Amazons()
    board, value = CGSUITE_3x4
    assert partizan_form(a, a.parse_position(board)) == parse_partizan(value)


def test_regions_are_components():
    """Burnt squares (8-connected: a diagonal gap joins) cut the board into independent regions;
    regions with no amazon or no empty square are dropped."""
    a = Amazons()
    pos = a.parse_position("x.#..|..#.o|..#..")
    parts = a.components(pos)
    assert len(parts) == 2
    whole = partizan_form(a, pos)
    total = canonical_form(partizan_form(a, parts[0]) + partizan_form(a, parts[1]))
    assert whole == total
    assert a.components(a.parse_position("x#..|##..")) == []          # x is shut in
    # a diagonal step joins squares: the amazon slips between two burnt squares
    assert a.components(a.parse_position("x#|#.")) == [("#.", "x#")]     # normalised
    assert str(partizan_form(a, a.parse_position("x#|#."))) == "1"
    assert len(a.components(a.parse_position("x.#.|.#o.|#..."))) == 1
    # images under the board's symmetries share one key
    assert a.normalize(("x.", ".o")) == a.normalize((".x", "o.")) == a.normalize(("o.", ".x"))


def test_text_errors_registry_and_store(tmp_path):
    a = get_ruleset("amazons")
    with pytest.raises(RulesetError, match=r"unexpected 'q' at row 2, column 1"):
        a.parse_position("x.|q.")
    with pytest.raises(RulesetError, match="different lengths"):
        a.parse_position("x..|.o")
    assert a.parse_position("L.|.R") == ("x.", ".o")
    from cgtalg.store import open_store

    st = open_store(f"sqlite:///{tmp_path / 's.db'}")
    pos = a.parse_position("x..|..o")
    g = partizan_value(a, pos, store=st)
    assert st.get_position("partizan:amazons", a.format_position(a.normalize(pos)), "canonical_form")
    assert partizan_value(a, pos, store=st) == g
