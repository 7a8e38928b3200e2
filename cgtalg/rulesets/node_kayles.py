"""Node Kayles (Schaefer 1978; Winning Ways ch. 4 "Kayles on graphs"): players in turn choose a
vertex of a graph and remove it together with its neighbours; in normal play the player who
cannot move loses, in misère play wins.

The graph falls apart into connected components, so Node Kayles is a component game
(:mod:`cgtalg.rulesets.component_games`). A component is kept as a canonical text: ``P<n>``
for the path of ``n`` vertices, ``C<n>`` for the cycle, and for another tree ``T`` followed by
its canonical parenthesis code (Aspvall–Hopcroft–Ullman: rooted at a centre, each vertex the
sorted codes of its children in brackets; the least over the centres). The families are

* ``node-kayles:paths``: paths; a move on a path leaves at most two paths. This is Dawson's
  Chess, the octal game 0.137 (Winning Ways ch. 4): the end vertex takes two, an inner vertex
  three of the path's vertices;
* ``node-kayles:cycles``: cycles and the paths they leave;
* ``node-kayles:trees``: trees (a move on a tree leaves a forest).

>>> from cgtalg.rulesets.component_games import component_grundy
>>> nk = NodeKayles("paths")
>>> [component_grundy(nk, f"P{n}") for n in range(1, 10)]     # Dawson's Chess 0.137
[1, 1, 2, 0, 3, 1, 1, 0, 3]
>>> len(NodeKayles("trees").component_types(6))                # the 6 trees of 6 vertices
6
"""

from __future__ import annotations

import re
from typing import Any, Iterable

from cgtalg.errors import RulesetError, shorten
from cgtalg.rulesets.component_games import ComponentRuleset

__all__ = ["NodeKayles", "graph_key", "graph_of_key", "node_kayles_components", "FAMILIES"]

#: the families of components
FAMILIES = ("paths", "cycles", "trees")

_KEY = re.compile(r"^(?:P[1-9][0-9]*|C[1-9][0-9]*|T[()]+)$")


def _tree_code(adj: dict, root: Any) -> str:
    """AHU code of the tree ``adj`` rooted at ``root`` (iterative)."""
    parent = {root: None}
    order = [root]
    for v in order:
        for w in adj[v]:
            if w != parent[v]:
                parent[w] = v
                order.append(w)
    code: dict = {}
    for v in reversed(order):
        code[v] = "(" + "".join(sorted(code[w] for w in adj[v] if w != parent[v])) + ")"
    return code[root]


def _centres(adj: dict) -> list:
    degree = {v: len(adj[v]) for v in adj}
    left = set(adj)
    leaves = [v for v in adj if degree[v] <= 1]
    while len(left) > 2:
        nxt = []
        for v in leaves:
            left.discard(v)
            for w in adj[v]:
                if w in left:
                    degree[w] -= 1
                    if degree[w] == 1:
                        nxt.append(w)
        leaves = nxt
    return sorted(left, key=repr)


def graph_key(adj: dict) -> str:
    """The canonical key of a connected graph given as ``{vertex: set of neighbours}``: a path,
    a cycle or a tree (other graphs raise :class:`~cgtalg.errors.RulesetError`).

    >>> graph_key({0: {1}, 1: {0, 2}, 2: {1}}), graph_key({0: {1, 2}, 1: {0, 2}, 2: {0, 1}})
    ('P3', 'C3')
    >>> graph_key({0: {1, 2, 3}, 1: {0}, 2: {0}, 3: {0}})
    'T(()()())'
    """
    n = len(adj)
    edges = sum(len(s) for s in adj.values()) // 2
    maxdeg = max((len(s) for s in adj.values()), default=0)
    if edges == n - 1:
        if maxdeg <= 2:
            return f"P{n}"
        return "T" + min(_tree_code(adj, c) for c in _centres(adj))
    if edges == n and maxdeg == 2 and all(len(s) == 2 for s in adj.values()):
        return f"C{n}"
    raise RulesetError("Node Kayles here plays on paths, cycles and trees; a component with "
                       f"{n} vertices and {edges} edges is neither")


def graph_of_key(key: str) -> dict[int, set[int]]:
    """The graph of a key, as ``{vertex: set of neighbours}`` on vertices ``0..n-1``."""
    if key[0] in "PC":
        n = int(key[1:])
        adj = {v: set() for v in range(n)}
        for v in range(n - 1):
            adj[v].add(v + 1)
            adj[v + 1].add(v)
        if key[0] == "C" and n >= 3:
            adj[0].add(n - 1)
            adj[n - 1].add(0)
        return adj
    adj = {}
    stack: list[int] = []
    for ch in key[1:]:
        if ch == "(":
            v = len(adj)
            adj[v] = set()
            if stack:
                adj[v].add(stack[-1])
                adj[stack[-1]].add(v)
            stack.append(v)
        else:
            stack.pop()
    return adj


def node_kayles_components(adj: dict, vertices: Iterable[Any] | None = None) -> list[str]:
    """The sorted keys of the components of the graph ``adj`` restricted to ``vertices``."""
    left = set(adj if vertices is None else vertices)
    out = []
    while left:
        start = left.pop()
        piece = {start}
        stack = [start]
        while stack:
            v = stack.pop()
            for w in adj[v]:
                if w in left:
                    left.remove(w)
                    piece.add(w)
                    stack.append(w)
        out.append(graph_key({v: adj[v] & piece for v in piece}))
    return sorted(out)


def _trees(n: int) -> Iterable[dict]:
    if n <= 2:
        yield graph_of_key(f"P{n}")
        return
    import networkx as nx

    for t in nx.nonisomorphic_trees(n):
        yield {v: set(t[v]) for v in t}


class NodeKayles(ComponentRuleset):
    """Node Kayles on the components of one family (module docstring): ``name`` is
    ``node-kayles:<family>``. Positions are sorted tuples of component keys
    (:meth:`path`, :meth:`cycle`, :meth:`graph` make them)."""

    def __init__(self, family: str = "trees") -> None:
        super().__init__()
        if family not in FAMILIES:
            raise RulesetError(f"Node Kayles families are {', '.join(FAMILIES)}, not {shorten(family)}")
        self.family = family
        self.name = f"node-kayles:{family}"
        self._types: dict[int, list[str]] = {}

    def check_component(self, key: Any) -> str:
        if not isinstance(key, str) or not _KEY.match(key):
            raise RulesetError(f"{self.name}: a component is P<n> (a path), C<n> (a cycle) or T(...) "
                               f"(a tree's code), not {shorten(key)}")
        if key[0] == "C" and int(key[1:]) < 3:
            raise RulesetError(f"{self.name}: a cycle has at least 3 vertices ({key})")
        if key[0] == "T":
            adj = graph_of_key(key)
            if key.count("(") != key.count(")") or node_kayles_components(adj) != [graph_key(adj)]:
                raise RulesetError(f"{self.name}: {shorten(key)} is not a tree's code")
            key = graph_key(adj)
        allowed = {"paths": "P", "cycles": "PC", "trees": "PT"}[self.family]
        if key[0] not in allowed:
            raise RulesetError(f"{self.name}: the component {shorten(key)} is not of this family")
        return key

    def component_size(self, key: str) -> int:
        return int(key[1:]) if key[0] in "PC" else key.count("(")

    def options_of_component(self, key: str) -> Iterable[tuple[str, ...]]:
        adj = graph_of_key(key)
        for v in adj:
            gone = adj[v] | {v}
            yield tuple(node_kayles_components(adj, set(adj) - gone))

    def component_types(self, size: int) -> list[str]:
        """The family's components of ``size`` vertices, sorted by key."""
        if size < 1:
            return []
        got = self._types.get(size)
        if got is None:
            if self.family == "paths":
                got = [f"P{size}"]
            elif self.family == "cycles":
                got = [f"P{size}"] + ([f"C{size}"] if size >= 3 else [])
            else:
                got = sorted({graph_key(t) for t in _trees(size)})
            self._types[size] = got
        return got

    def graph(self, graph: Any) -> tuple[str, ...]:
        """The position of a graph: a networkx graph or ``{vertex: neighbours}``."""
        adj = {v: set(graph[v]) for v in graph}
        return self.position(node_kayles_components(adj))

    def path(self, n: int) -> tuple[str, ...]:
        """The path of ``n`` vertices."""
        return (f"P{n}",) if n > 0 else ()

    def cycle(self, n: int) -> tuple[str, ...]:
        """The cycle of ``n >= 3`` vertices."""
        return self.position(f"C{n}")


def _node_kayles(arg: str) -> NodeKayles:
    a = arg.strip().lower()
    if a in FAMILIES:
        return NodeKayles(a)
    raise RulesetError(f"bad Node Kayles family 'node-kayles:{arg}': expected node-kayles:paths, "
                       "node-kayles:cycles or node-kayles:trees")


def _register() -> None:
    from cgtalg.rulesets.registry import register_family, register_ruleset

    register_ruleset("node-kayles", lambda: NodeKayles("trees"),
                     "Node Kayles on trees; node-kayles:paths, :cycles, :trees")
    register_family("node-kayles", _node_kayles,
                    "node-kayles:F  Node Kayles on the component family F (paths, cycles, trees)")


_register()
