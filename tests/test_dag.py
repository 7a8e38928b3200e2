"""Forms as networkx DAGs: shared subpositions, round trips, loopy graphs."""

from __future__ import annotations

import networkx as nx
import pytest

import cgtalg as cg
from cgtalg.core import from_networkx
from cgtalg.errors import LoopyGameError


def test_to_networkx_shares_subpositions():
    g = cg.nim(2) + cg.nim(2)
    graph = g.to_networkx()
    # one node per distinct subposition: *2+*2, *2+*1, *2, *1+*1, *1, 0
    assert graph.number_of_nodes() == len(g.subpositions()) == 6
    assert graph.number_of_edges() == sum(len(x.options) for x in g.subpositions())
    assert nx.is_directed_acyclic_graph(graph)
    assert graph.graph["root"] == g.id


def test_from_networkx_round_trip_and_arbitrary_labels():
    g = cg.parse("{0, {*2}, *3+*}")
    assert from_networkx(g.to_networkx(), g.id) is g
    # any hashable node labels; edges point to options
    graph = nx.DiGraph([("a", "b"), ("b", "c"), ("a", "c")])
    assert from_networkx(graph, "a") is cg.nim(2)
    assert from_networkx(graph, "c") is cg.zero


def test_loopy_graph_names_a_cycle():
    graph = nx.DiGraph([("start", "x"), ("x", "y"), ("y", "z"), ("z", "x")])
    with pytest.raises(LoopyGameError) as info:
        from_networkx(graph, "start")
    assert set(info.value.cycle) == {"x", "y", "z"}
    assert "loopy" in str(info.value) and "'x'" in str(info.value)
    # the unreachable part of a graph may be loopy: only the game from root matters
    graph.add_edge("free", "free")
    assert from_networkx(nx.DiGraph([("r", "s")]), "r") is cg.nim(1)


def test_missing_root():
    with pytest.raises(KeyError, match="root 'q' is not a node"):
        from_networkx(nx.DiGraph([("a", "b")]), "q")
