"""Arc Kayles and Partizan Arc Kayles (cgtalg.rulesets.partizan.arc_kayles).

The rules, written here from CGSuite's definitions (game.graph.ArcKayles,
game.graph.PartizanArcKayles): a move picks an edge and deletes both its endpoints with every
edge touching them; a loop at v deletes v alone. In the partizan game Left may pick blue (l)
and green (e) edges, Right red (r) and green ones. Values are checked against a brute force on
whole graphs (no components, no renumbering), against the octal games, and against the facts
of CGSuite's lib/core/src/test/scala/org/cgsuite/lang/GameGraphTest.scala."""

from __future__ import annotations

import random
import sys
from functools import lru_cache

import pytest
from click.testing import CliRunner
from rulesets_brute import equals_by_play

from cgtalg.errors import ComputationLimitError, RulesetError
from cgtalg.normal.notation import parse_partizan
from cgtalg.rulesets.heaps.octal import TakeAndBreak
from cgtalg.rulesets.partizan.arc_kayles import ArcKayles, PartizanArcKayles
from cgtalg.rulesets.partizan.games import partizan_form, partizan_value
from cgtalg.rulesets.registry import get_ruleset
from cgtalg.rulesets.solver import solve

# -- the brute force: a graph is a frozenset of edges (frozenset of endpoints, colour) ---------------


def brute_options(graph: frozenset, colours: str):
    for ends, colour in graph:
        if colour in colours:
            yield frozenset(e for e in graph if not (e[0] & ends))


@lru_cache(maxsize=None)
def brute_grundy(graph: frozenset) -> int:
    seen = {brute_grundy(g) for g in brute_options(graph, "-")}
    m = 0
    while m in seen:
        m += 1
    return m


def graph_of(edges, colour="-") -> frozenset:
    """Edges (u, v) or (u, v, colour); u == v is a loop."""
    out = set()
    for e in edges:
        c = e[2] if len(e) == 3 else colour
        out.add((frozenset((e[0], e[1])), c))
    return frozenset(out)


def text_of(n: int, edges) -> str:
    return f"graph:{n}:" + ",".join(f"{u}-{v}" for u, v in edges)


def path_edges(n):
    return [(i, i + 1) for i in range(n - 1)]


#: CGSuite GameGraphTest.scala, "Arc Kayles paths are Dawson's Kayles heaps":
#: [game.graph.ArcKayles(Graph.Path(n)).NimValue for n from 1 to 50]
CGSUITE_PATHS = [0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4, 5, 2, 7,
                 4, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5]
#: same file, "Arc Kayles looped paths are Kayles heaps" (a loop at every vertex of Path(n))
CGSUITE_LOOPED = [1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4, 1, 2, 8, 5, 4, 7, 2, 1, 8,
                  6, 7, 4, 1, 2, 3, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2]


def grundy(ak, text):
    return solve(ak, ak.parse_position(text)).value


def test_path_of_n_vertices_is_dawsons_kayles_heap_n():
    """Acceptance: Arc Kayles on the path of n vertices (n - 1 edges) has the Grundy value of
    the heap of n beans of 0.07 (Dawson's Kayles: take two adjacent beans of a row), n <= 40:
    an edge of P_n is two adjacent beans, what is left two shorter rows. P_1 = heap 1 = 0."""
    ak = ArcKayles()
    dawson = [int(x) for x in TakeAndBreak("0.07").grundy_sequence(41)]
    assert dawson[:7] == [0, 0, 1, 1, 2, 0, 3]               # heap 0..6 of 0.07
    got = [grundy(ak, f"path:{n}") for n in range(1, 41)]
    assert got == dawson[1:41]
    assert got == CGSUITE_PATHS[:40]
    # the path in CGSuite's notation: n - 1 edges
    assert [grundy(ak, "-" * (n - 1)) for n in range(1, 51)] == CGSUITE_PATHS
    for n in range(1, 12):                                     # the brute force from the rules
        assert brute_grundy(graph_of(path_edges(n))) == dawson[n], n


def test_looped_path_is_kayles():
    """A loop at every vertex of P_n: a loop takes one bean, an edge two adjacent: Kayles 0.77."""
    ak = ArcKayles()
    kayles = [int(x) for x in TakeAndBreak("0.77").grundy_sequence(51)]
    got = []
    for n in range(1, 51):
        edges = path_edges(n) + [(i, i) for i in range(n)]
        got.append(grundy(ak, text_of(n, edges)))
    assert got == CGSUITE_LOOPED == kayles[1:51]
    for n in range(1, 9):
        assert brute_grundy(graph_of(path_edges(n) + [(i, i) for i in range(n)])) == kayles[n]
    # CGSuite's own notation for a looped P3: every vertex named and given a loop
    assert grundy(ak, ":A-:B-:C;:A-:A;:B-:B;:C-:C") == kayles[3]


def test_small_graphs_agree_with_brute_force():
    ak = ArcKayles()
    rng = random.Random(36)
    for _ in range(250):
        n = rng.randint(1, 8)
        pairs = [(u, v) for u in range(n) for v in range(u, n)]
        edges = [p for p in pairs if rng.random() < (0.12 if p[0] == p[1] else 0.35)]
        assert grundy(ak, text_of(n, edges)) == brute_grundy(graph_of(edges)), edges
    for text, n, edges in [("cycle:7", 7, path_edges(7) + [(0, 6)]),
                           ("complete:5", 5, [(u, v) for u in range(5) for v in range(u + 1, 5)]),
                           ("star:4", 5, [(0, i) for i in range(1, 5)]),
                           ("grid:3x3", 9, [(3 * r + c, 3 * r + c + 1) for r in range(3) for c in range(2)]
                            + [(3 * r + c, 3 * r + c + 3) for r in range(2) for c in range(3)])]:
        assert grundy(ak, text) == brute_grundy(graph_of(edges)), text


def test_hand_values():
    ak = ArcKayles()
    # a single edge: *1; a triangle: any edge leaves one vertex: *1; K4: any edge leaves one edge: 0;
    # the star with 3 leaves: any edge leaves two isolated leaves: *1
    assert [grundy(ak, t) for t in ("-", ":A--:A", "complete:4", "star:3")] == [1, 1, 0, 1]
    # two disjoint edges: *1 + *1 = 0 (components added by XOR)
    assert grundy(ak, "-;-") == 0
    assert solve(ak, ak.parse_position("----")).outcome == "P"


# -- Partizan Arc Kayles -----------------------------------------------------------------------


def p_left(g):
    return brute_options(g, "le")


def p_right(g):
    return brute_options(g, "re")


def test_partizan_cgsuite_values():
    """CGSuite GameGraphTest.scala, "define Partizan Arc Kayles properly"."""
    p = PartizanArcKayles()
    facts = {"llr": "1/2", "lrlr(ll;ree(rl;l))": "{3*|2*||3/2,3/2*|1/2*}"}
    for text, value in facts.items():
        assert partizan_form(p, p.parse_position(text)) == parse_partizan(value), text
    # the same two graphs written out edge by edge for the brute force
    llr = graph_of([(0, 1, "l"), (1, 2, "l"), (2, 3, "r")])
    assert equals_by_play(p_left, p_right, llr, parse_partizan("1/2"))
    tree = graph_of([(0, 1, "l"), (1, 2, "r"), (2, 3, "l"), (3, 4, "r"), (4, 5, "l"), (5, 6, "l"), (4, 7, "r"),
                     (7, 8, "e"), (8, 9, "e"), (9, 10, "r"), (10, 11, "l"), (9, 12, "l")])
    assert equals_by_play(p_left, p_right, tree, parse_partizan("{3*|2*||3/2,3/2*|1/2*}"))


def test_partizan_random_graphs_agree_with_play():
    p = PartizanArcKayles()
    rng = random.Random(7)
    for _ in range(120):
        n = rng.randint(2, 7)
        edges = []
        for u in range(n):
            for v in range(u, n):
                for c in "lre":
                    if rng.random() < (0.04 if u == v else 0.16):
                        edges.append((u, v, c))
        if not edges:
            continue
        # CGSuite's notation with every vertex named: one piece per edge
        text = ";".join(f":{{{u}}}{c}:{{{v}}}" for u, v, c in edges)
        v = partizan_form(p, p.parse_position(text))
        assert equals_by_play(p_left, p_right, graph_of(edges), v), (text, str(v))


def test_partizan_simple_values():
    p = PartizanArcKayles()
    vals = [str(partizan_form(p, p.parse_position(t))) for t in ("l", "r", "e", "ll", "lll", "l;l", "e;e")]
    # ll: Left's one move takes both edges (the middle vertex goes): 1; lll: Left takes an end edge
    # (leaving l: 2 in all) or the middle one (leaving nothing): 2
    assert vals == ["1", "-1", "*", "1", "2", "2", "0"]
    # a blue and a red edge between the same two vertices: either player takes both: *
    assert str(partizan_form(p, p.parse_position(":A l :B; :A r :B"))) == "*"


# -- text, errors, registry, store and the CLI -------------------------------------------------


def test_text_round_trip():
    ak, p = ArcKayles(), PartizanArcKayles()
    for text in ("----", "--(-;--;---)", ":A----:A", ":A-:A", "complete:5", "grid:2x4", "star:3", "-;--",
                 "graph:4:0-0,0-1,1-2,2-0,2-3,3-3"):
        pos = ak.parse_position(text)
        assert ak.parse_position(ak.format_position(pos)) == pos, text
    for text in ("llr", "lrlr(ll;ree(rl;l))", ":A lre :A", ":A l :B; :A r :B", "e(l;r);ll"):
        pos = p.parse_position(text)
        assert p.parse_position(p.format_position(pos)) == pos, text
    assert ak.format_position(ak.parse_position("path:5")) == "----"
    assert ak.format_position(()) == "0" and ak.parse_position("0") == ak.parse_position("") == ()
    # isolated vertices have no move and are dropped; a lone named vertex too
    assert ak.parse_position("-;.;.") == ak.parse_position("-")
    # a tree written two ways is one position
    assert ak.parse_position("-(-;-)") == ak.parse_position("star:3")


@pytest.mark.parametrize("text, match", [
    ("-x-", r"'x' is not an edge"),
    ("--(-;-", r"unmatched '\('"),
    ("--)", r"unexpected text"),
    ("-:", r"vertex name is missing"),
    ("-:{A", r"unmatched '\{'"),
    ("l", r"'l' is not an edge"),
    ("path:x", r"not a vertex count"),
    ("graph:3:0-5", r"not an edge U-V"),
    ("graph:3", r"graph:N:U-V"),
    ("grid:3", r"grid:RxC"),
    ("cycle:2", r"at least 3 vertices"),
])
def test_arc_kayles_bad_texts(text, match):
    with pytest.raises(RulesetError, match=match):
        ArcKayles().parse_position(text)


@pytest.mark.parametrize("text, match", [
    ("l-r", r"'-' is not an edge"),
    ("lxr", r"'x' is not an edge"),
    ("path:4", r"no edge colours"),
    ("l(r;e", r"unmatched"),
])
def test_partizan_bad_texts(text, match):
    with pytest.raises(RulesetError, match=match):
        PartizanArcKayles().parse_position(text)


def test_bad_positions_and_limits():
    ak = ArcKayles()
    with pytest.raises(RulesetError, match="a position is a tuple of components"):
        ak.check_position((((0, 1, "l"),),))
    with pytest.raises(RulesetError, match="a position is a tuple of components"):
        ak.check_position("----")
    with pytest.raises(RulesetError, match="a position text is a str"):
        ak.parse_position(5)
    with pytest.raises(ComputationLimitError, match="MAX_VERTICES"):
        ak.parse_position("path:20000")
    with pytest.raises(ComputationLimitError, match="MAX_NESTING"):
        ak.parse_position("-(" * 600 + ")" * 600)


def test_registry_store_and_cli(tmp_path):
    from cgtalg.cli.main import cli
    from cgtalg.store import open_store

    ak = get_ruleset("arc-kayles")
    assert isinstance(ak, ArcKayles) and not ak.partizan
    p = get_ruleset("Partizan-Arc-Kayles")
    assert isinstance(p, PartizanArcKayles) and p.partizan
    st = open_store(f"sqlite:///{tmp_path / 's.db'}")
    pos = p.parse_position("lrlr(ll;ree(rl;l))")
    g = partizan_value(p, pos, store=st)
    assert st.get_position("partizan:partizan-arc-kayles", p.format_position(pos), "canonical_form")
    assert partizan_value(p, pos, store=st) == g
    # the impartial game's value is a nimber: P6 is *3
    assert str(partizan_form(ak, ak.parse_position("path:6"))) == "*3"
    old = sys.getrecursionlimit()
    res = CliRunner().invoke(cli, ["value", "--no-store", "arc-kayles", "-----"])
    assert res.exit_code == 0, res.output
    assert "*3" in res.output
    res = CliRunner().invoke(cli, ["value", "--no-store", "partizan-arc-kayles", "llr"])
    assert res.exit_code == 0 and "1/2" in res.output, res.output
    assert sys.getrecursionlimit() == old
