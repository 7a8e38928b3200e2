"""Fox and Geese (Winning Ways ch. 20) and CGSuite's GenFoxAndGeese / CeyloneseFoxAndGeese.

The rules, written out here and checked by play:

* a square is ``(row, col)``, ``row >= 1`` from the bottom, ``1 <= col <= width``, ``row + col``
  even (the dark squares); the board has no top;
* Left (the geese, ``x``) moves one goose one square diagonally down onto an empty square;
* Right (the fox, ``o``) moves the fox diagonally in any direction onto an empty square, up to
  ``fox_range`` squares along one diagonal without passing a goose (range 1: Fox and Geese;
  range 2: Ceylonese Fox and Geese);
* no captures; the player who cannot move loses.

Independent checks: the loopy outcomes of small positions are found by a retrograde analysis
written here from the rules alone (the board cut off two rows above the geese, which changes
no outcome: a fox above every goose can always move, and the geese have finitely many moves),
and the layered evaluation of the module is compared with the canonical stopper of the whole
game graph. CGSuite's values are from
``lib/core/src/test/scala/org/cgsuite/lang/GameGridTest.scala`` (commit e909ab8).
"""

from __future__ import annotations

import itertools
import random

import pytest

import cgtalg as cg
from cgtalg.core.loopy import loopy_game, named_loopy
from cgtalg.errors import ComputationLimitError, RulesetError
from cgtalg.normal.loopy import le_matrix, loopy_outcome
from cgtalg.normal.loopy_simplify import canonical_stopper
from cgtalg.rulesets.partizan.fox_and_geese import (
    CeyloneseFoxAndGeese, FoxAndGeese, GenFoxAndGeese, parse_gen_fox_and_geese, stopper_le)
from cgtalg.rulesets.registry import get_ruleset

L = cg.parse_loopy


# -- the rules, by play --------------------------------------------------------------------------
def test_moves_enumerated_by_hand():
    f = FoxAndGeese()
    # geese on (3,1), (3,3); fox on (1,1), board 8 wide
    p = ((((3, 1), (3, 3))), (1, 1))
    assert sorted(f.left_moves(p)) == sorted([
        (((2, 2), (3, 3)), (1, 1)),            # (3,1) -> (2,2) ((3,1) -> (2,0) is off the board)
        (((2, 2), (3, 1)), (1, 1)),            # (3,3) -> (2,2)
        (((2, 4), (3, 1)), (1, 1)),            # (3,3) -> (2,4)
    ])
    assert list(f.right_moves(p)) == [(p[0], (2, 2))]   # (0,0), (0,2), (2,0) are off the board
    # the fox on (2,2) under (3,1) and (3,3): it may go back down only
    q = (p[0], (2, 2))
    assert sorted(f.right_moves(q)) == [(p[0], (1, 1)), (p[0], (1, 3))]
    # geese may not step onto the fox or onto each other
    r = (((2, 2), (3, 3)), (1, 1))
    assert sorted(f.left_moves(r)) == [(((1, 3), (3, 3)), (1, 1)), (((2, 2), (2, 4)), (1, 1))]
    # a goose on row 1 cannot move; the fox boxed into a corner cannot move
    s = (((1, 3), (2, 2)), (1, 1))
    assert list(f.right_moves(s)) == []
    assert sorted(f.left_moves(s)) == []       # (2,2) -> (1,1) is the fox, (1,3) is a goose


def test_fox_range_two():
    c = CeyloneseFoxAndGeese()
    p = ((((3, 3),)), (1, 1))
    # up-right: (2,2) then (3,3) is a goose: stop; the other directions leave the board
    assert list(c.right_moves(p)) == [(p[0], (2, 2))]
    q = ((((4, 4),)), (2, 2))
    assert sorted(c.right_moves(q)) == sorted([(q[0], sq) for sq in [(3, 1), (1, 1), (1, 3), (3, 3)]])
    r = ((((5, 5),)), (2, 2))
    assert sorted(c.right_moves(r)) == sorted([(r[0], sq) for sq in [(3, 1), (1, 1), (1, 3), (3, 3), (4, 4)]])
    # geese move as in Fox and Geese
    assert list(c.left_moves(r)) == list(FoxAndGeese().left_moves(r))


def rules_moves(width, fox_range, ceiling=None):
    """Left's and Right's moves written from the rules (module docstring)."""
    def on(r, c):
        return r >= 1 and 1 <= c <= width and (ceiling is None or r <= ceiling)

    def left(p):
        geese, fox = p
        out = set()
        for g in geese:
            for dc in (-1, 1):
                to = (g[0] - 1, g[1] + dc)
                if on(*to) and to != fox and to not in geese:
                    out.add((tuple(sorted(set(geese) - {g} | {to})), fox))
        return out

    def right(p):
        geese, fox = p
        out = set()
        for dr, dc in itertools.product((-1, 1), repeat=2):
            for k in range(1, fox_range + 1):
                to = (fox[0] + k * dr, fox[1] + k * dc)
                if not on(*to) or to in geese:
                    break
                out.add((geese, to))
        return out
    return left, right


def random_position(rng, width, n_geese, rows):
    dark = [(r, c) for r in range(1, rows + 1) for c in range(1, width + 1) if (r + c) % 2 == 0]
    cells = rng.sample(dark, n_geese + 1)
    return tuple(sorted(cells[1:])), cells[0]


@pytest.mark.parametrize("width, fox_range", [(4, 1), (5, 1), (6, 2), (8, 1), (8, 3)])
def test_moves_match_the_rules(width, fox_range):
    g = GenFoxAndGeese(width, fox_range)
    left, right = rules_moves(width, fox_range)
    rng = random.Random(width * 10 + fox_range)
    for _ in range(200):
        p = random_position(rng, width, rng.randrange(0, 5), 5)
        g.check_position(p)
        lm, rm = list(g.left_moves(p)), list(g.right_moves(p))
        assert len(lm) == len(set(lm)) and set(lm) == left(p), p
        assert len(rm) == len(set(rm)) and set(rm) == right(p), p


# -- outcomes by an independent retrograde analysis -------------------------------------------------
def brute_outcome(width, fox_range, start):
    """(Left first, Right first) winners 'L', 'R' or 'D' of ``start``, by retrograde analysis of
    the game graph from the rules, on the board cut off two rows above the highest piece."""
    ceiling = max([start[1][0]] + [g[0] for g in start[0]]) + 2
    left, right = rules_moves(width, fox_range, ceiling)
    opts = {}
    todo = [start]
    while todo:
        p = todo.pop()
        if p in opts:
            continue
        opts[p] = (left(p), right(p))
        todo.extend(q for side in opts[p] for q in side if q not in opts)
    # res[(p, m)]: +1 the player m to move wins, -1 loses (m = 0 Left, 1 Right)
    res = {}
    changed = True
    while changed:
        changed = False
        for p, sides in opts.items():
            for m in (0, 1):
                if (p, m) in res:
                    continue
                after = [res.get((q, 1 - m)) for q in sides[m]]
                if any(a == -1 for a in after):
                    res[(p, m)] = 1
                    changed = True
                elif all(a == 1 for a in after):     # also: no move at all
                    res[(p, m)] = -1
                    changed = True
    who = []
    for m, me, you in ((0, "L", "R"), (1, "R", "L")):
        r = res.get((start, m))
        who.append("D" if r is None else me if r == 1 else you)
    return tuple(who)


def small_positions(seed, count, width, rows, max_geese):
    rng = random.Random(seed)
    return [random_position(rng, width, rng.randrange(1, max_geese + 1), rows) for _ in range(count)]


@pytest.mark.parametrize("width, fox_range, seed", [(4, 1, 1), (5, 1, 2), (6, 1, 3), (4, 2, 4), (6, 2, 5)])
def test_outcomes_against_retrograde_analysis(width, fox_range, seed):
    g = GenFoxAndGeese(width, fox_range)
    seen = set()
    for p in small_positions(seed, 25, width, 4, 3):
        value = g.game_value(p)
        out = loopy_outcome(value)
        assert (out.left_first, out.right_first) == brute_outcome(width, fox_range, p), g.format_position(p)
        seen.add(out.name)
    assert len(seen) >= 2      # the sample is not all of one outcome


def whole_graph_value(g, position):
    """The canonical stopper of the whole game graph, built from the ruleset's moves, an
    escaped fox being off (the lemma in the module docstring)."""
    off = "off"
    nodes = {off: ([], [off])}
    todo = [position]
    while todo:
        p = todo.pop()
        if p in nodes:
            continue
        if g.escaped(p):
            nodes[p] = ([], [off])
            continue
        lo, ro = list(g.left_moves(p)), list(g.right_moves(p))
        nodes[p] = (lo, ro)
        todo.extend(q for q in lo + ro if q not in nodes)
    return canonical_stopper(loopy_game(nodes, position))


@pytest.mark.parametrize("width, fox_range, seed", [(4, 1, 11), (6, 1, 12), (5, 2, 13)])
def test_layers_against_the_whole_graph(width, fox_range, seed):
    g = GenFoxAndGeese(width, fox_range)
    for p in small_positions(seed, 12, width, 4, 3):
        assert g.game_value(p) is whole_graph_value(g, p), g.format_position(p)


def test_stopper_le_against_le_matrix():
    rng = random.Random(7)
    for n in range(1, 9):
        for _ in range(30):
            # a stopper: Left's moves go down the numbering, so no play alternates for ever
            graph = [(sorted(rng.sample(range(v), rng.randint(0, min(2, v)))),
                      sorted(rng.sample(range(n), rng.randint(0, min(2, n))))) for v in range(n)]
            assert stopper_le(graph) == le_matrix(graph, graph, "stopper"), graph


def test_escaped_fox_is_off():
    f = FoxAndGeese()
    off = named_loopy()["off"]
    assert f.game_value(f.parse_position("{(3,1),(3,3)}, (3,5)")) is off       # level with the geese
    assert f.game_value(f.parse_position("{(3,1),(3,3)}, (2,6)")) is off       # (3,5), (3,7) free
    assert f.game_value(f.parse_position("{}, (1,1)")) is off                   # no geese
    assert f.game_value(f.parse_position("{(3,1),(3,3),(3,5),(3,7)}, (2,2)")) is not off


# -- CGSuite's values ----------------------------------------------------------------------------
# CGSuite lib/core/src/test/scala/org/cgsuite/lang/GameGridTest.scala (commit e909ab8),
# "define FoxAndGeese properly": GameValue of each position
CGSUITE = [
    (FoxAndGeese, "{(4,2),(4,4),(4,6),(4,8)}, (1,1)", "{4*|7/2}"),
    (CeyloneseFoxAndGeese, "{(4,2),(4,4),(4,6),(4,8)}, (1,1)", "{9||4v[on]*|5/2*|||3|5/2*,5/2v||5/2}"),
    (lambda: GenFoxAndGeese(board_width=10), "{(3,1),(3,3),(3,5),(3,7),(3,9)}, (1,9)", "{6over|5*}"),
]

# the same file, FoxAndGeese.ValuesTable({(3,1),(3,3),(3,5),(3,7)}): the value with the fox on
# each dark square below the geese
VALUES_TABLE = {
    (2, 2): "2over", (2, 4): "2", (2, 6): "3*", (2, 8): "4over",
    (1, 1): "{6|2over}", (1, 3): "{2over|2}", (1, 5): "{4|3||2}", (1, 7): "{4over|3*}",
}


@pytest.mark.parametrize("fox, value", sorted(VALUES_TABLE.items()))
def test_cgsuite_values_table(fox, value):
    f = FoxAndGeese()
    v = f.game_value((((3, 1), (3, 3), (3, 5), (3, 7)), fox))
    assert v is L(value)
    assert str(v) == value


@pytest.mark.slow  # the default run checks the same three values through tests/test_cgsuite_corpus.py
@pytest.mark.parametrize("factory, text, value", CGSUITE)
def test_cgsuite_values(factory, text, value):
    g = factory()
    v = g.game_value(g.parse_position(text))
    assert v is L(value)       # the same canonical stopper (cgtalg prints the Ceylonese value
    # with braces: {{9|{4v[on]*|5/2*}}|{3|5/2*,5/2v||5/2}})


def test_cgsuite_validation():
    # GameGridTest.scala: FoxAndGeese({(3,1),(3,3),(3,5),(3,7)}, (1,6)) and a goose on (2,5) are
    # refused (row + col odd); GenFoxAndGeese(foxRange => 0) is refused
    f = FoxAndGeese()
    with pytest.raises(RulesetError, match="dark square"):
        f.parse_position("{(3,1),(3,3),(3,5),(3,7)}, (1,6)")
    with pytest.raises(RulesetError, match="dark square"):
        f.parse_position("{(3,1),(3,3),(2,5),(3,7)}, (1,1)")
    with pytest.raises(RulesetError, match="fox_range must be >= 1"):
        GenFoxAndGeese(fox_range=0)
    with pytest.raises(RulesetError, match="dark square"):
        f.check_position(((), (1, 2)))


# -- text ----------------------------------------------------------------------------------------
def test_text_forms():
    f = FoxAndGeese()
    p = f.parse_position("FoxAndGeese({(4,2),(4,4),(4,6),(4,8)}, (1,1))")
    assert p == (((4, 2), (4, 4), (4, 6), (4, 8)), (1, 1))
    board = f.format_position(p)
    assert board == ".x.x.x.x|........|........|o......."
    assert f.parse_position(board) == p
    assert f.parse_position(board.replace("|", "\n")) == p
    w = GenFoxAndGeese(board_width=10)
    q = w.parse_position("{(3,1),(3,3),(3,5),(3,7),(3,9)}, (1,9)")
    assert w.format_position(q) == "x.x.x.x.x.|..........|........o."


@pytest.mark.parametrize("text, message", [
    (".x.x.x.x|........|o.......", "light square"),
    (".x.x.x.x|o.o.....", "2 foxes"),
    (".x.x.x.x|........", "0 foxes"),
    ("x.x.x.x|.......o", "7 squares"),
    (".x.x.x.x|......?.", "unexpected '?'"),
    ("{(3,1), (3,3)}", "cannot read"),
    ("{(3,1)}, (3,1)", "both on"),
])
def test_bad_text(text, message):
    with pytest.raises(RulesetError, match=message.replace("?", r"\?")):
        FoxAndGeese().parse_position(text)


def test_bad_positions_and_rulesets():
    f = FoxAndGeese()
    for bad in ("x", ((1, 1),), (((3, 3), (3, 1)), (1, 1)), (((3, 1),), (1, 1, 1))):
        with pytest.raises(RulesetError):
            f.check_position(bad)
    with pytest.raises(ComputationLimitError):
        f.check_position(((), (99, 1)))
    with pytest.raises(RulesetError):
        GenFoxAndGeese(board_width=1)
    with pytest.raises(RulesetError):
        GenFoxAndGeese(board_width="8")
    with pytest.raises(RulesetError):
        parse_gen_fox_and_geese("height=3")
    with pytest.raises(RulesetError):
        parse_gen_fox_and_geese("width=3,width=4")
    with pytest.raises(RulesetError):
        parse_gen_fox_and_geese("range=-1")


def test_registry_names():
    assert get_ruleset("fox-and-geese").name == "fox-and-geese"
    assert get_ruleset("ceylonese-fox-and-geese").fox_range == 2
    r = get_ruleset("gen-fox-and-geese:width=10,range=2")
    assert (r.board_width, r.fox_range, r.name) == (10, 2, "gen-fox-and-geese:width=10,range=2")
    assert get_ruleset("gen-fox-and-geese").name == "gen-fox-and-geese"
