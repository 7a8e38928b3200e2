"""Game forms as networkx DAGs.

:func:`to_networkx` gives one node per distinct subposition (shared, not a tree) and one
edge per option; :func:`from_networkx` reads any acyclic digraph back as a form, raising
:class:`~cgtalg.errors.LoopyGameError` (naming a cycle) when the graph is loopy.
"""

from __future__ import annotations

from typing import Hashable

import networkx as nx

from cgtalg.core.game import Game, game, nim
from cgtalg.errors import LoopyGameError, NodeNotFoundError, shorten

__all__ = ["to_networkx", "from_networkx", "check_acyclic"]


def to_networkx(g: Game, labels: bool = True, expand_atoms: int | None = None) -> nx.DiGraph:
    """The DAG of ``g``: nodes are form ids, edges go from a form to each of its options.

    Node attributes: ``game`` (the :class:`Game`), ``birthday``, ``atom`` (the heap size ``n``
    for a nim-heap ``*n``, else None), ``expanded`` (False for an atom drawn as one node with
    its options implied), and with ``labels`` the literal text ``label`` (cut to 40
    characters). The graph attribute ``root`` is ``g.id``.

    Parameters
    ----------
    g : Game
    labels : bool, default True
    expand_atoms : int, optional
        Nim-heaps ``*n`` with ``n`` up to this size are drawn with their options ``*0..*(n-1)``;
        larger ones are single nodes labelled ``*n`` with ``expanded=False`` (so a form holding
        ``*10**18`` draws in a few nodes). Default: expand while the drawing stays within
        ``64`` heaps (:data:`ATOM_EXPANSION`).

    Examples
    --------
    >>> import cgtalg as cg
    >>> G = (cg.nim(2) + cg.nim(1)).to_networkx()
    >>> G.number_of_nodes(), G.graph["root"] == (cg.nim(2) + cg.nim(1)).id
    (5, True)
    >>> H = cg.nim(10**18).to_networkx()
    >>> H.number_of_nodes(), H.nodes[H.graph["root"]]["label"], H.nodes[H.graph["root"]]["expanded"]
    (1, '*1000000000000000000', False)
    """
    from cgtalg.core.notation import format_game

    if not isinstance(g, Game):  # a partizan form draws its own DAG, edges marked with sides
        to_graph = getattr(g, "to_networkx", None)
        if to_graph is None:
            from cgtalg.errors import GameKindError

            raise GameKindError(f"to_networkx needs a form, got {type(g).__name__}")
        return to_graph()
    limit = ATOM_EXPANSION if expand_atoms is None else expand_atoms
    graph = nx.DiGraph(root=g.id)
    subs = g.subpositions(expand_atoms=False)
    heaps = [x.nim_heap_size() for x in subs if x.nim_heap_size() is not None]
    small = max((n for n in heaps if n <= limit), default=-1)
    nodes = [nim(k) for k in range(small + 1)] + [
        x for x in subs if x.nim_heap_size() is None or x.nim_heap_size() > small
    ]
    texts = _short_labels(g, 40) if labels else {}
    for x in nodes:
        n = x.nim_heap_size()
        expanded = n is None or n <= small
        attrs = {"game": x, "birthday": x.birthday, "atom": n, "expanded": expanded}
        if labels:
            attrs["label"] = texts[x.id] if n is None else format_game(x)
        graph.add_node(x.id, **attrs)
        if expanded:
            for o in x.options:
                graph.add_edge(x.id, o.id)
    return graph


#: nim-heaps up to this size are drawn with their options by :func:`to_networkx`
ATOM_EXPANSION = 64


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
    cycle when the reachable part is not acyclic, and :class:`~cgtalg.errors.NodeNotFoundError` (a
    ``KeyError``) if ``root`` is missing.
    """
    if root not in graph:
        raise NodeNotFoundError(f"root {shorten(root)} is not a node of the graph")
    reachable = nx.descendants(graph, root) | {root}
    sub = graph.subgraph(reachable)
    check_acyclic(sub, root)
    forms: dict[Hashable, Game] = {}
    for node in reversed(list(nx.topological_sort(sub))):
        forms[node] = game(forms[child] for child in sub.successors(node))
    return forms[root]


def _short_labels(g: Game, max_chars: int = 40) -> dict[int, str]:
    """``format_game(x, max_chars)`` for every non-atom subposition ``x`` of ``g`` (by id),
    from one ``text_lengths`` pass: linear in the DAG where calling ``format_game`` per
    subposition would be quadratic (a 4,000-deep chain took over a minute)."""
    from cgtalg.core.notation import _FORMAT_CACHE, _prefix, text_lengths

    lengths = text_lengths(g)
    out: dict[int, str] = {}
    for x in g.subpositions(expand_atoms=False):
        if x.nim_heap_size() is not None:
            continue
        cached = _FORMAT_CACHE.get(x.id)
        if cached is not None:
            text = cached
        elif lengths[x.id] > max_chars:
            out[x.id] = _prefix(x, lengths, max(0, max_chars - 3)) + "..."
            continue
        else:
            text = _prefix(x, lengths, lengths[x.id])
        out[x.id] = text if len(text) <= max_chars else text[: max(0, max_chars - 3)] + "..."
    return out
