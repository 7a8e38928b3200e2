"""Red-blue-green Hackenbush on graphs (cgtalg.rulesets.partizan.hackenbush_graph).

Checks: values by exhaustive play of G - value with cuts written here from the rules (remove an
edge, drop what is no longer joined to the ground); green pictures by the fusion and colon
principles (Winning Ways ch. 7) against Grundy values by brute force and against the general
search; blue-red stalks against Berlekamp's sign expansion (Winning Ways ch. 2; Siegel CGT
II.3) and the Hackenbush strings ruleset; trees against play."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from rulesets_brute import equals_by_play

from cgtalg.core.partizan import nimber
from cgtalg.errors import RulesetError
from cgtalg.normal.partizan import number_value
from cgtalg.rulesets.partizan.hackenbush_graph import HackenbushGraph, green_nimber, stalk
from cgtalg.rulesets.partizan.games import Hackenbush, partizan_form, partizan_value
from cgtalg.rulesets.registry import get_ruleset


def cut(edges: tuple, i: int, ground: frozenset) -> tuple:
    """Remove edge i, keep the edges joined to a ground vertex (original labels)."""
    rest = edges[:i] + edges[i + 1:]
    reach = set(ground)
    changed = True
    while changed:
        changed = False
        for u, v, _ in rest:
            if (u in reach) != (v in reach):
                reach |= {u, v}
                changed = True
    return tuple(e for e in rest if e[0] in reach)


def brute_moves(ground: frozenset):
    def moves(edges, mine):
        return [cut(edges, i, ground) for i, e in enumerate(edges) if e[2] in mine]
    return (lambda e: moves(e, "LG")), (lambda e: moves(e, "RG"))


def brute_grundy(edges: tuple, ground: frozenset, memo: dict) -> int:
    if edges not in memo:
        vals = {brute_grundy(cut(edges, i, ground), ground, memo) for i in range(len(edges))}
        m = 0
        while m in vals:
            m += 1
        memo[edges] = m
    return memo[edges]


def random_picture(rng: random.Random, n_edges: int, colours: str, n_ground: int = 1) -> tuple:
    """A random connected-to-ground multigraph with loops; ground vertices 0..n_ground-1."""
    edges = []
    verts = list(range(n_ground))
    for _ in range(n_edges):
        u = rng.choice(verts)
        r = rng.random()
        if r < 0.45:
            v = len(verts) + 10
            verts.append(v)
        elif r < 0.55:
            v = u                                  # a loop
        else:
            v = rng.choice(verts)
        edges.append((min(u, v), max(u, v), rng.choice(colours)))
    return tuple(edges)


def to_position(edges: tuple, ground: frozenset) -> tuple:
    h = HackenbushGraph()
    rename = {v: (0 if v in ground else v + 1) for e in edges for v in e[:2]}
    return h.normalize(tuple((min(rename[u], rename[v]), max(rename[u], rename[v]), c) for u, v, c in edges))


def test_green_pictures_fusion_and_colon_against_grundy_values():
    rng = random.Random(11)
    for k in range(150):
        ground = frozenset(range(1 + k % 2))
        edges = random_picture(rng, rng.randint(1, 8), "G", len(ground))
        expected = brute_grundy(edges, ground, {})
        pos = to_position(edges, ground)
        assert green_nimber(pos) == expected, (edges, ground)
        assert partizan_form(HackenbushGraph(), pos) == nimber(expected)


def test_green_fast_path_against_the_general_search():
    rng = random.Random(5)
    fast, search = HackenbushGraph(), get_ruleset("hackenbush-graph-search")
    for _ in range(40):
        pos = to_position(random_picture(rng, rng.randint(1, 7), "G"), frozenset({0}))
        assert partizan_form(fast, pos) == partizan_form(search, pos)


def test_winning_ways_green_examples():
    """Winning Ways ch. 7: a triangle on the ground fuses to one loop, *1; a square (even
    cycle) to two loops, 0; a stalk of n is *n; the colon principle: a vertex with branches
    *a and *b is a stalk of a xor b."""
    h = HackenbushGraph()
    assert green_nimber(h.parse_position("0-1:G 1-2:G 2-0:G")) == 1
    assert green_nimber(h.parse_position("0-1:G 1-2:G 2-3:G 3-0:G")) == 0
    # a triangle on a stalk of one: the triangle fuses to one loop (*1) on an edge -> *2
    assert green_nimber(h.parse_position("g-a:G a-b:G b-c:G c-a:G")) == 2
    assert [green_nimber(stalk("G" * n)) for n in range(6)] == list(range(6))
    # a "tree" on an edge: branches of 2 and 3 edges on one vertex = *1 above one edge -> *2
    assert green_nimber(h.parse_position("g-a:G a-b:G b-c:G a-d:G d-e:G e-f:G")) == ((2 ^ 3) + 1)
    with pytest.raises(RulesetError, match="not green"):
        green_nimber(h.parse_position("g-a:L"))


def sign_expansion(s: str) -> Fraction:
    """Berlekamp's rule for a blue-red stalk: the first run counts ±1 an edge, every later
    edge ±1/2, ±1/4, ... (blue +, red -)."""
    k = 0
    while k < len(s) and s[k] == s[0]:
        k += 1
    x = Fraction(k if s and s[0] == "L" else -k)
    for j, c in enumerate(s[k:], 1):
        x += Fraction(1 if c == "L" else -1, 2 ** j)
    return x


def test_blue_red_stalks_sign_expansion_and_strings_ruleset():
    h, strings = HackenbushGraph(), Hackenbush()
    rng = random.Random(2)
    for _ in range(60):
        s = "".join(rng.choice("LR") for _ in range(rng.randint(1, 9)))
        v = partizan_form(h, h.parse_position(f"stalk:{s}"))
        assert number_value(v) == sign_expansion(s), s
        assert v == partizan_form(strings, (s,))
    for s in ("LGR", "GGL", "RGLG"):
        assert partizan_form(h, h.parse_position(f"stalk:{s}")) == partizan_form(strings, (s,))


def test_red_blue_green_pictures_agree_with_play():
    rng = random.Random(9)
    h = HackenbushGraph()
    for k in range(60):
        ground = frozenset(range(1 + k % 2))
        edges = random_picture(rng, rng.randint(1, 6), "LRG" if k % 3 else "LR", len(ground))
        v = partizan_form(h, to_position(edges, ground))
        left, right = brute_moves(ground)
        assert equals_by_play(left, right, edges, v), (edges, str(v))


def test_components_meet_at_the_ground():
    h = HackenbushGraph(fast_green=False)
    pos = h.parse_position("g-a:L a-b:R g-c:G c-g:G g-d:R g-g:L")
    parts = h.components(pos)
    assert sorted(len(p) for p in parts) == [1, 1, 2, 2]
    # two ground vertices are one: a bridge between them is a loop at the ground
    assert h.parse_position("g-h:L ground=h") == ((0, 0, "L"),)
    # edges cut off from the ground fall
    assert h.normalize(((1, 2, "L"), (0, 1, "R"))) != h.normalize(((1, 2, "L"),))
    assert h.normalize(((1, 2, "L"),)) == ()


def test_text_registry_and_store(tmp_path):
    h = get_ruleset("hackenbush-graph")
    pos = h.parse_position("g-a:B a-b:R a-c:R")
    assert h.format_position(pos) == "0-1:L 1-2:R 1-3:R"
    assert h.parse_position(h.format_position(pos)) == pos
    assert str(partizan_form(h, pos)) == "1/4"
    with pytest.raises(RulesetError, match=r"word 2 'a-b:Q'"):
        h.parse_position("g-a:L a-b:Q")
    with pytest.raises(RulesetError, match="stalk: followed by"):
        h.parse_position("stalk:LX")
    from cgtalg.store import open_store

    st = open_store(f"sqlite:///{tmp_path / 's.db'}")
    g = partizan_value(h, pos, store=st)
    assert st.get_position("partizan:hackenbush-graph", h.format_position(pos), "canonical_form") == "1/4"
    assert partizan_value(h, pos, store=st) == g
