"""Game forms as networkx DAGs.

:func:`to_networkx` gives one node per distinct subposition (shared, not a tree) and one
edge per option; :func:`from_networkx` reads any acyclic digraph back as a form, raising
:class:`~cgtalg.errors.LoopyGameError` (naming a cycle) when the graph is loopy.
"""

from __future__ import annotations

from typing import Hashable

import networkx as nx

from cgtalg.core.game import Game, game
from cgtalg.errors import LoopyGameError

__all__ = ["to_networkx", "from_networkx", "check_acyclic"]


def to_networkx(g: Game, labels: bool = True) -> nx.DiGraph:
    """The DAG of ``g``: nodes are form ids, edges go from a form to each of its options.

    Node attributes: ``game`` (the :class:`Game`), ``birthday``, and with ``labels`` the
    literal text ``label`` (cut to 40 characters). The graph attribute ``root`` is ``g.id``.

    Examples
    --------
    >>> import cgtalg as cg
    >>> G = (cg.nim(2) + cg.nim(1)).to_networkx()
    >>> G.number_of_nodes(), G.graph["root"] == (cg.nim(2) + cg.nim(1)).id
    (5, True)
    """
    from cgtalg.core.notation import format_game

    graph = nx.DiGraph(root=g.id)
    for x in g.subpositions():
        attrs = {"game": x, "birthday": x.birthday}
        if labels:
            attrs["label"] = format_game(x, max_chars=40)
        graph.add_node(x.id, **attrs)
        for o in x.options:
            graph.add_edge(x.id, o.id)
    return graph


def check_acyclic(graph: nx.DiGraph, root: Hashable | None = None) -> None:
    """Raise :class:`LoopyGameError` naming a cycle if ``graph`` (from ``root``) has one."""
    try:
        cycle = nx.find_cycle(graph, source=root) if root is not None else nx.find_cycle(graph)
    except nx.NetworkXNoCycle:
        return
    nodes = [u for u, _v, *_ in cycle]
    raise LoopyGameError(nodes)


def from_networkx(graph: nx.DiGraph, root: Hashable) -> Game:
    """The form rooted at ``root`` of a digraph whose edges point from a position to its options.

    Only nodes reachable from ``root`` matter. Raises :class:`LoopyGameError` naming a
    cycle when the reachable part is not acyclic, and ``KeyError`` if ``root`` is missing.
    """
    if root not in graph:
        raise KeyError(f"root {root!r} is not a node of the graph")
    reachable = nx.descendants(graph, root) | {root}
    sub = graph.subgraph(reachable)
    check_acyclic(sub, root)
    forms: dict[Hashable, Game] = {}
    for node in reversed(list(nx.topological_sort(sub))):
        forms[node] = game(forms[child] for child in sub.successors(node))
    return forms[root]
