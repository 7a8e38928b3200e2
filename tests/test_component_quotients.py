"""Misère quotients of component games (issue 21, part 4b): Node Kayles on paths, cycles and
trees, Cram on 1×n, 2×n and 3×n strips. Every answer of a quotient is checked by brute-force
misère play on the boards and graphs themselves (exhaustive play on the set of empty cells or
remaining vertices; no component keys, no quotient machinery), and against published facts:
Node Kayles on paths is Dawson's Chess 0.137 and Cram on 1×n strips is Dawson's Kayles 0.07
(Winning Ways ch. 4), so their Q_N are those of the octal games (Plambeck & Siegel, JCTA 2008:
|Q_14(0.07)| = 24)."""

from __future__ import annotations

import random
from functools import lru_cache

import networkx as nx
import pytest

import cgtalg as cg
from cgtalg.errors import ComputationLimitError, RulesetError
from cgtalg.quotients.state import forget_known
from cgtalg.rulesets.component_games import component_grundy
from cgtalg.rulesets.cram import Cram, cram_key
from cgtalg.rulesets.node_kayles import NodeKayles
from cgtalg.rulesets.heaps.octal import TakeAndBreak
from cgtalg.rulesets.registry import get_ruleset


# -- brute force on the boards themselves ----------------------------------------------------------
@lru_cache(maxsize=None)
def cram_outcome(cells: frozenset, misere: bool = True) -> str:
    """Misère (or normal) outcome of a Cram board given by its empty cells."""
    moved = False
    for r, c in cells:
        for o in ((r, c + 1), (r + 1, c)):
            if o in cells:
                moved = True
                if cram_outcome(cells - {(r, c), o}, misere) == "P":
                    return "N"
    if not moved:
        return "N" if misere else "P"
    return "P"


@lru_cache(maxsize=None)
def cram_grundy(cells: frozenset) -> int:
    vals = set()
    for r, c in cells:
        for o in ((r, c + 1), (r + 1, c)):
            if o in cells:
                vals.add(cram_grundy(cells - {(r, c), o}))
    return min(set(range(len(vals) + 1)) - vals)


def kayles_outcome(graph: nx.Graph) -> str:
    """Misère outcome of Node Kayles on ``graph`` by exhaustive play."""
    adj = {v: frozenset(graph[v]) for v in graph}

    @lru_cache(maxsize=None)
    def out(left: frozenset) -> str:
        if not left:
            return "N"
        for v in left:
            if out(left - adj[v] - {v}) == "P":
                return "N"
        return "P"

    return out(frozenset(adj))


def disjoint(*graphs: nx.Graph) -> nx.Graph:
    return nx.disjoint_union_all(list(graphs)) if graphs else nx.Graph()


# -- published facts --------------------------------------------------------------------------------
def test_node_kayles_on_paths_is_dawsons_chess_0137():
    chess = TakeAndBreak("0.137")
    nk = NodeKayles("paths")
    assert [component_grundy(nk, f"P{n}") for n in range(1, 40)] == \
        [chess.grundy_value(n) for n in range(1, 40)]
    for n in (6, 10, 14, 18):
        q, qc = cg.misere_quotient("node-kayles:paths", max_heap=n), cg.misere_quotient(chess, max_heap=n)
        assert q.order == qc.order and q.quotient.isomorphic(qc)
        assert q.quotient.phi == qc.phi or all(
            q.outcome([f"P{a}", f"P{b}"]) == ("P" if qc.is_p([a, b]) else "N")
            for a in range(1, n + 1) for b in range(a, n + 1))


def test_cram_on_1xn_strips_is_dawsons_kayles_007():
    dk = TakeAndBreak("0.07")
    c = Cram(1)
    assert [component_grundy(c, "x" * n) for n in range(1, 40)] == [dk.grundy_value(n) for n in range(1, 40)]
    for n in (8, 10, 14):
        q, qd = cg.misere_quotient("cram:1xn", max_heap=n), cg.misere_quotient(dk, max_heap=n)
        assert q.order == qd.order and q.quotient.isomorphic(qd)
    assert cg.misere_quotient("cram:1xn", max_heap=14).order == 24      # Plambeck–Siegel


def test_normal_play_grundy_values_of_cram_boards_agree_with_brute_force():
    for h in (2, 3):
        c = Cram(h)
        for size in range(1, 7):
            for key in c.component_types(size):
                cells = frozenset((r, col) for r, row in enumerate(key.split("/"))
                                  for col, ch in enumerate(row) if ch == "x")
                assert component_grundy(c, key) == cram_grundy(cells), key
    # 2×n rectangles: the second player wins for even n by symmetry (Winning Ways ch. 22)
    assert [component_grundy(Cram(2), Cram(2).rectangle(2, n)) % 2 == 0 for n in range(2, 9, 2)] == [True] * 4


# -- quotients against brute force --------------------------------------------------------------------
def _random_board(rng, h, n, holes):
    cells = {(r, c) for r in range(h) for c in range(n)}
    for _ in range(holes):
        cells.discard((rng.randrange(h), rng.randrange(n)))
    return frozenset(cells)


@pytest.mark.parametrize("reduce", [True, False])
@pytest.mark.parametrize("h,N", [(1, 12), (2, 8), (3, 6)])
def test_cram_quotients_answer_sums_of_boards(h, N, reduce):
    c = Cram(h)
    q = cg.misere_quotient(f"cram:{h}xn", max_heap=N, reduce=reduce)
    assert q.max_size == N
    rng = random.Random(h * 100 + N)
    checked = 0
    for _ in range(400):
        board = set()
        for k in range(rng.randint(1, 3)):        # a sum of strips side by side, gaps between
            piece = _random_board(rng, h, rng.randint(1, N // h + 1), rng.randint(0, 3))
            board |= {(r, col + 10 * k) for r, col in piece}
        pos = c.board(board)
        if not pos or max(c.component_size(k) for k in pos) > N or len(board) > 16:
            continue
        assert q.outcome(pos) == cram_outcome(frozenset(board)), pos
        checked += 1
    assert checked > 100
    # every component type alone and in pairs
    types = q.types[1:]
    for i, a in enumerate(types[:25]):
        for b in types[i:25]:
            cells = {(r, col) for r, row in enumerate(a.split("/")) for col, ch in enumerate(row) if ch == "x"}
            cells |= {(r, col + 20) for r, row in enumerate(b.split("/")) for col, ch in enumerate(row) if ch == "x"}
            assert q.outcome([a, b]) == cram_outcome(frozenset(cells))


@pytest.mark.parametrize("reduce", [True, False])
def test_node_kayles_cycles_and_paths(reduce):
    q = cg.misere_quotient("node-kayles:cycles", max_heap=10, reduce=reduce)
    rng = random.Random(7)
    for _ in range(200):
        parts = []
        graphs = []
        for _ in range(rng.randint(1, 3)):
            n = rng.randint(1, 10)
            if n >= 3 and rng.random() < 0.5:
                parts.append(f"C{n}")
                graphs.append(nx.cycle_graph(n))
            else:
                parts.append(f"P{n}")
                graphs.append(nx.path_graph(n))
        if sum(g.number_of_nodes() for g in graphs) > 20:
            continue
        assert q.outcome(parts) == kayles_outcome(disjoint(*graphs)), parts


def test_node_kayles_on_trees():
    nk = NodeKayles("trees")
    q = cg.misere_quotient(nk, max_heap=8)
    assert len(q.types) - 1 == sum(len(nk.component_types(s)) for s in range(1, 9)) == 48   # OEIS A000055
    rng = random.Random(8)
    for _ in range(200):
        trees = [nx.random_labeled_tree(rng.randint(1, 8), seed=rng.randrange(10**6))
                 if hasattr(nx, "random_labeled_tree") else nx.random_tree(rng.randint(1, 8), seed=rng.randrange(10**6))
                 for _ in range(rng.randint(1, 3))]
        g = disjoint(*trees)
        assert q.outcome(nk.graph(g)) == kayles_outcome(g)


def test_keys_are_canonical():
    nk = NodeKayles("trees")
    for n in range(1, 8):
        for t in nx.nonisomorphic_trees(n) if n > 2 else [nx.path_graph(n)]:
            relabelled = nx.relabel_nodes(t, {v: (v * 7) % 101 for v in t})
            assert nk.graph(t) == nk.graph(relabelled)
    assert cram_key([(0, 0), (0, 1), (1, 1)]) == cram_key([(4, 9), (5, 9), (5, 8)])
    assert len(set(nk.component_types(7))) == 11                      # the 11 trees of 7 vertices


def test_registry_names_and_errors():
    assert get_ruleset("cram:2xn").name == "cram:2xn" and get_ruleset("CRAM:3XN").height == 3
    assert get_ruleset("node-kayles:cycles").family == "cycles"
    with pytest.raises(RulesetError, match="cram:1xn, cram:2xn"):
        get_ruleset("cram:0xn")
    with pytest.raises(RulesetError, match="node-kayles:paths"):
        get_ruleset("node-kayles:stars")
    with pytest.raises(RulesetError, match="not of this family"):
        NodeKayles("paths").position("C5")
    with pytest.raises(RulesetError, match="connected"):
        Cram(2).position("x.x")
    q = cg.misere_quotient("cram:2xn", max_heap=4)
    with pytest.raises(ComputationLimitError, match="compute a larger Q_N"):
        q.outcome("xxxxx")
    with pytest.raises(ComputationLimitError, match="max_heap=N"):
        cg.misere_quotient("cram:2xn")


def test_stored_per_family_and_resumed(tmp_path):
    from cgtalg.store import open_store

    store = open_store(f"sqlite:///{tmp_path / 's.db'}")
    # every component type a heap: one record per family, and a larger N resumes from it
    q6 = cg.misere_quotient("cram:2xn", max_heap=6, store=store, reduce=False)
    assert store.sequence_meta("quotient:cram:2xn")["misere_quotient"]["top"] == len(q6.types) - 1
    forget_known()
    cg.clear_caches()
    seen = []
    q7 = cg.misere_quotient("cram:2xn", max_heap=7, store=store, reduce=False,
                            callback=lambda i: seen.append(i["heap"]))
    assert seen and seen[0] == len(q6.types)          # resumed after the stored heaps
    q5 = cg.misere_quotient("cram:2xn", max_heap=5, store=store, reduce=False)   # a restriction
    assert q5.max_size == 5 and q7.max_size == 7
    # reduced heaps (the default): one record per family and N, named by its heaps
    r = cg.misere_quotient("cram:2xn", max_heap=7, store=store)
    assert r.heaps.name.startswith("cram:2xn@7:")
    assert store.sequence_meta(f"quotient:{r.heaps.name}")["misere_quotient"]["order"] == r.order == q7.order
    forget_known()
    seen.clear()
    cg.misere_quotient("cram:2xn", max_heap=7, store=store, callback=lambda i: seen.append(i))
    assert seen == []                                  # answered from the store


def test_reduced_and_unreduced_quotients_agree():
    """Components replaced by their misère canonical forms (far fewer heaps) give the same monoid."""
    for fam, n in (("cram:2xn", 8), ("cram:3xn", 6), ("node-kayles:cycles", 12), ("node-kayles:trees", 8)):
        a = cg.misere_quotient(fam, max_heap=n)
        b = cg.misere_quotient(fam, max_heap=n, reduce=False)
        assert a.reduced and not b.reduced and a.types == b.types
        assert a.quotient.isomorphic(b.quotient)
        assert len(a.quotient.phi) < len(b.quotient.phi)
        for t in a.types[1:]:
            assert a.outcome(t) == b.outcome(t)
    a = cg.misere_quotient("cram:2xn", max_heap=11)
    assert (len(a.types) - 1, len(a.quotient.phi) - 1, a.order) == (466, 5, 48)


@pytest.mark.slow
@pytest.mark.parametrize("fam,N", [("cram:2xn", 11), ("cram:3xn", 10), ("node-kayles:cycles", 24)])
def test_larger_quotients_against_brute_force(fam, N):
    q = cg.misere_quotient(fam, max_heap=N)
    r = get_ruleset(fam)
    rng = random.Random(N)
    types = q.types[1:]
    for _ in range(150):
        parts = [rng.choice(types) for _ in range(rng.randint(1, 3))]
        if sum(r.component_size(k) for k in parts) > 22:
            continue
        if fam.startswith("cram"):
            cells = set()
            for i, key in enumerate(parts):
                cells |= {(row, col + 20 * i) for row, line in enumerate(key.split("/"))
                          for col, ch in enumerate(line) if ch == "x"}
            assert q.outcome(parts) == cram_outcome(frozenset(cells))
        else:
            gs = [nx.cycle_graph(int(k[1:])) if k[0] == "C" else nx.path_graph(int(k[1:])) for k in parts]
            assert q.outcome(parts) == kayles_outcome(disjoint(*gs))


@pytest.mark.slow
def test_cycles_first_add_to_the_paths_quotient_at_26():
    """Node Kayles on cycles and paths has the quotient of the paths (Dawson's Chess) up to
    N = 25 and a larger one at N = 26 (256 against 176), by both constructions."""
    for n, same in ((25, True), (26, False)):
        c = cg.misere_quotient("node-kayles:cycles", max_heap=n)
        p = cg.misere_quotient(TakeAndBreak("0.137"), max_heap=n)
        assert c.quotient.isomorphic(p) == same
    assert (c.order, p.order) == (256, 176)
    u = cg.misere_quotient("node-kayles:cycles", max_heap=26, reduce=False)
    assert u.quotient.isomorphic(c.quotient)
