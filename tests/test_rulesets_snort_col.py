"""Snort and Col on graphs (cgtalg.rulesets.partizan.snort_col): values checked by exhaustive play of
G - value with moves written here from the rules (colour vertices; Snort forbids different
colours on adjacent vertices, Col the same colour), against Conway's theorem that every Col
position is a number or a number plus * (ONAG ch. 15; Winning Ways ch. 2), against Winning
Ways ch. 6's Snort values on small paths and stars, and against cgt-py's Snort and Col."""

from __future__ import annotations

import itertools
import random

import pytest
from rulesets_brute import cgt_py_form, equals_by_play

import cgtalg as cg
from cgtalg.core.partizan import nimber
from cgtalg.errors import RulesetError
from cgtalg.normal.partizan import canonical_form, number_value
from cgtalg.rulesets.partizan.games import partizan_form, partizan_value
from cgtalg.rulesets.registry import get_ruleset
from cgtalg.rulesets.partizan.snort_col import Col, Snort


def brute_moves(n: int, edges: list, snort: bool, pre: dict):
    """Moves from the rules on the original graph: a state is a tuple of '.', 'L', 'R' per
    vertex; a vertex may be coloured c unless a neighbour forbids it (Snort: a neighbour of the
    other colour; Col: a neighbour of colour c). ``pre``: vertex -> the only player allowed
    (a tinted vertex, as a phantom neighbour)."""
    nb = {v: set() for v in range(n)}
    for u, v in edges:
        nb[u].add(v)
        nb[v].add(u)

    def moves(state, me):
        other = "R" if me == "L" else "L"
        for v in range(n):
            if state[v] != "." or pre.get(v, me) != me:
                continue
            bad = other if snort else me
            if any(state[w] == bad for w in nb[v]):
                continue
            yield state[:v] + (me,) + state[v + 1:]

    return (lambda s: moves(s, "L")), (lambda s: moves(s, "R"))


def graphs_up_to(n: int):
    """Every graph on vertices 0..n-1 (labelled; small n)."""
    pairs = list(itertools.combinations(range(n), 2))
    for mask in range(1 << len(pairs)):
        yield [p for i, p in enumerate(pairs) if mask >> i & 1]


@pytest.mark.parametrize("rule", [Snort, Col])
def test_all_small_graphs_agree_with_play(rule):
    """Every labelled graph of up to 4 vertices, and random ones of 5-6 with random tints."""
    r = rule()
    cases = [(n, es, {}) for n in range(1, 5) for es in graphs_up_to(n)]
    rng = random.Random(7)
    for _ in range(40):
        n = rng.randint(5, 6)
        es = [p for p in itertools.combinations(range(n), 2) if rng.random() < 0.4]
        pre = {v: rng.choice("LR") for v in range(n) if rng.random() < 0.25}
        cases.append((n, es, pre))
    for n, es, pre in cases:
        tints = "".join(pre.get(v, "W") for v in range(n))
        pos = r.normalize((tints, tuple(es)))
        v = partizan_form(r, pos)
        left, right = brute_moves(n, es, r.snort, pre)
        assert equals_by_play(left, right, tuple("." * n), v), (n, es, pre, str(v))


def test_col_values_are_numbers_or_numbers_plus_star():
    """Conway (ONAG ch. 15): every Col position is x or x + * for a number x."""
    col = Col()
    star = nimber(1)
    seen = set()
    for n in range(1, 6):                      # every labelled graph of up to 5 vertices
        for es in graphs_up_to(n):
            g = partizan_form(col, col.normalize(("W" * n, tuple(es))))
            assert number_value(g) is not None or number_value(canonical_form(g + star)) is not None, str(g)
            seen.add(str(g))
    assert {"0", "*"} <= seen


@pytest.mark.slow
def test_col_values_on_every_graph_of_six_vertices():
    """Conway's theorem on all 32,768 labelled graphs of 6 vertices."""
    col = Col()
    star = nimber(1)
    for es in graphs_up_to(6):
        g = partizan_form(col, col.normalize(("W" * 6, tuple(es))))
        assert number_value(g) is not None or number_value(canonical_form(g + star)) is not None, str(g)


def test_snort_published_values():
    """Winning Ways ch. 6: a single vertex is *, two joined vertices ±1, the path of three ±2;
    a star of n leaves is ±n (the centre's colour claims every leaf); a vertex tinted for one
    player keeps it for that player."""
    s = Snort()
    assert [str(partizan_form(s, s.parse_position(f"path:{n}"))) for n in (1, 2, 3)] == ["*", "±1", "±2"]
    assert [str(partizan_form(s, s.parse_position(f"star:{n}"))) for n in (2, 3, 4, 5)] == ["±2", "±3", "±4", "±5"]
    assert str(partizan_form(s, s.parse_position("path:3;blue=0"))) == "{1|0}"   # L-W: see cgt-py below
    assert str(partizan_form(s, s.parse_position("path:3;red=1"))) == "-2"
    c = Col()
    assert str(partizan_form(c, c.parse_position("path:2;blue=0"))) == "-1"
    assert str(partizan_form(c, c.parse_position("path:1"))) == "*"


@pytest.mark.parametrize("text", ["path:4", "path:7", "cycle:5", "cycle:6", "grid:2x3", "grid:3x3",
                                  "star:4", "complete:4", "tree:0,0,1,1,2", "path:5;left=0;right=4",
                                  "grid:2x4;blue=0", "graph:5:0-1,1-2,2-0,2-3,3-4"])
@pytest.mark.parametrize("rule", [Snort, Col])
def test_agree_with_cgt_py(rule, text):
    """cgt-py (Rust) Snort and Col: its blue/red vertices are the ones only Left / Right may
    colour (our tints L / R)."""
    cp = pytest.importorskip("cgt_py")
    r = rule()
    pos = r.parse_position(text)
    tints, edges = pos
    ref = (cp.Snort if r.snort else cp.Col)(len(tints), list(edges),
                                            blue=[i for i, t in enumerate(tints) if t == "L"],
                                            red=[i for i, t in enumerate(tints) if t == "R"])
    assert partizan_form(r, pos) == cgt_py_form(ref)


def test_board_texts_round_trip_and_errors():
    s = Snort()
    for t in ("path:5", "grid:2x3;blue=0;red=5", "WLR:0-1,1-2", "cycle:4;left=1", "0"):
        pos = s.parse_position(t)
        assert s.parse_position(s.format_position(pos)) == pos
    assert s.parse_position("path:3;blue=1") == ("LL", ())
    with pytest.raises(RulesetError, match="unknown board shape 'hex'"):
        s.parse_position("hex:3")
    with pytest.raises(RulesetError, match="'7' in 'blue=7' is not a vertex 0..4"):
        s.parse_position("path:5;blue=7")
    with pytest.raises(RulesetError, match="may not be coloured red"):
        s.parse_position("path:2;blue=0;red=1")
    with pytest.raises(RulesetError, match="a cycle has at least 3 vertices"):
        s.parse_position("cycle:2")
    with pytest.raises(RulesetError, match="'0-5' in .* is not an edge"):
        Col().parse_position("WW:0-5")


def test_components_split_and_registry_and_store(tmp_path):
    s = get_ruleset("snort")
    pos = s.parse_position("graph:6:0-1,2-3,3-4")
    parts = s.components(pos)
    assert sorted(len(p[0]) for p in parts) == [1, 2, 3]
    g = partizan_form(s, pos)
    assert g == canonical_form(sum((partizan_form(s, p) for p in parts), cg.pgame()))
    assert get_ruleset("col").name == "col"
    from cgtalg.store import open_store

    st = open_store(f"sqlite:///{tmp_path / 's.db'}")
    a = partizan_value(s, s.parse_position("grid:2x3"), store=st)
    key = s.format_position(s.normalize(s.parse_position("grid:2x3")))
    assert st.get_position("partizan:snort", key, "canonical_form") == "+-{4||1|0}"
    assert partizan_value(s, s.parse_position("grid:2x3"), store=st) == a
