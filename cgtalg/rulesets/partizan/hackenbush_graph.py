"""Red-blue-green Hackenbush on graphs (Winning Ways ch. 1, 2 and 7; Conway, ONAG ch. 7; Siegel,
*Combinatorial Game Theory*, I.2 and IV.3).

A position is a finite multigraph whose edges are coloured ``L`` (blue, Left's), ``R`` (red,
Right's) or ``G`` (green, both players'), some vertices of which are on the *ground*. A move
deletes one edge of one's own colour (or a green one); every edge no longer joined to the
ground by a path falls off. Loops and parallel edges are allowed.

Positions are kept as a sorted tuple of edges ``(u, v, colour)`` with ``u <= v`` over vertices
``0, 1, ...``, vertex ``0`` standing for the whole ground (all ground vertices are one vertex:
nothing in the rules tells them apart). :meth:`HackenbushGraph.normalize` renumbers the vertices
by colour refinement and a breadth-first walk from the ground, so many isomorphic pictures share
one key.

Components: the pieces of the picture that meet only at the ground (the connected pieces of the
graph with the ground vertex removed, each with its edges to the ground) are independent, and
the position is their sum.

Green pieces: a piece with only green edges is a nimber, found without search (Winning Ways
ch. 7): by the *fusion principle* the vertices of any cycle may be fused into one vertex, the
cycle's edges becoming loops, so every 2-edge-connected block of the graph fuses into one vertex
carrying one loop per edge of the block; what is left is a tree of bridges with loops, and by the
*colon principle* a vertex is worth the nim-sum of ``1`` for each loop and of ``v(c) + 1`` for
each child ``c`` reached by a bridge (a tree rooted at ``c`` of value ``*n`` on an edge is a stalk
of ``n + 1`` edges). :func:`green_nimber` computes it; :class:`HackenbushGraph` (unless made with
``fast_green=False``) replaces each all-green component by the green stalk of the same value
before searching, and ``tests/test_rulesets_hackenbush_graph.py`` checks the two against each
other and against play.

>>> from cgtalg.rulesets.partizan.games import partizan_form
>>> h = HackenbushGraph()
>>> str(partizan_form(h, h.parse_position("0-1:L 1-2:R")))          # a blue-red stalk
'1/2'
>>> green_nimber(h.parse_position("0-1:G 1-2:G 2-0:G"))           # a triangle on the ground
1
>>> str(partizan_form(h, h.parse_position("g-a:G a-b:G b-g:G a-c:L")))
'{0||0,*,*2|0,*}'
"""

from __future__ import annotations

import re
from typing import Any, Iterable

from cgtalg.errors import ComputationLimitError, RulesetError, shorten
from cgtalg.rulesets.partizan._graphs import bfs_order, pieces, refine
from cgtalg.rulesets.protocol import PartizanRuleset

__all__ = ["HackenbushGraph", "ChildishHackenbush", "green_nimber", "stalk", "MAX_EDGES"]

#: the most edges a position may have when read from text or checked
MAX_EDGES = 10_000

Edge = tuple[int, int, str]
Edges = tuple[Edge, ...]

_COLOURS = {"L": "L", "B": "L", "R": "R", "G": "G"}
_EDGE = re.compile(r"^([A-Za-z0-9_]+)-([A-Za-z0-9_]+):([A-Za-z])$")


def stalk(colours: str) -> Edges:
    """The stalk (a path from the ground) whose edges, from the ground up, have ``colours``.

    >>> stalk("LRG")
    ((0, 1, 'L'), (1, 2, 'R'), (2, 3, 'G'))
    """
    return tuple((i, i + 1, c) for i, c in enumerate(colours))


def _adjacency(edges: Iterable[Edge]) -> dict[int, list[tuple[int, int]]]:
    """vertex -> [(neighbour, edge index)] (a loop appears once at its vertex)."""
    adj: dict[int, list[tuple[int, int]]] = {0: []}
    for i, (u, v, _) in enumerate(edges):
        adj.setdefault(u, []).append((v, i))
        if u != v:
            adj.setdefault(v, []).append((u, i))
    return adj


def _grounded(edges: Edges) -> Edges:
    """The edges still joined to the ground (vertex 0)."""
    adj = _adjacency(edges)
    reach = {0}
    todo = [0]
    while todo:
        v = todo.pop()
        for w, _ in adj.get(v, ()):
            if w not in reach:
                reach.add(w)
                todo.append(w)
    return tuple(e for e in edges if e[0] in reach)


def _relabel(edges: Iterable[Edge]) -> Edges:
    """The edges renumbered: colour refinement from (is ground, colours at the vertex), then a
    breadth-first numbering from the ground (vertex 0)."""
    edges = list(edges)
    verts = sorted({0} | {u for u, _, _ in edges} | {v for _, v, _ in edges})
    nbrs: dict[int, list[tuple[int, str]]] = {v: [] for v in verts}
    loops: dict[int, list[str]] = {v: [] for v in verts}
    for u, v, c in edges:
        if u == v:
            loops[u].append(c)
        else:
            nbrs[u].append((v, c))
            nbrs[v].append((u, c))
    label = {v: (v != 0, tuple(sorted(loops[v])), tuple(sorted(c for _, c in nbrs[v]))) for v in verts}
    cls = refine(verts, label, nbrs)
    order = bfs_order(verts, cls, nbrs, roots=(0,))
    new = {v: i for i, v in enumerate(order)}
    out = []
    for u, v, c in edges:
        a, b = new[u], new[v]
        out.append((a, b, c) if a <= b else (b, a, c))
    return tuple(sorted(out))


def _split(edges: Edges) -> list[Edges]:
    """The pieces meeting only at the ground (each as its list of edges, not renumbered)."""
    adj: dict[int, list[int]] = {}
    ground_loops = []
    for i, (u, v, _) in enumerate(edges):
        if u == v == 0:
            ground_loops.append((edges[i],))
            continue
        adj.setdefault(u, []).append(v)
        adj.setdefault(v, []).append(u)
    nonground = {w: [x for x in ws if x != 0] for w, ws in adj.items() if w != 0}
    out = list(ground_loops)
    for piece in pieces(sorted(nonground), nonground):
        ps = set(piece)
        out.append(tuple(e for e in edges if e[0] in ps or e[1] in ps))
    return out


def green_nimber(position: Edges) -> int:
    """The nim value of an all-green Hackenbush picture, by the fusion and colon principles
    (module docstring; Winning Ways ch. 7).

    Parameters
    ----------
    position : tuple of edges ``(u, v, "G")``
        Vertex 0 is the ground; edges not joined to the ground are ignored.

    Returns
    -------
    int
        ``n`` such that the picture equals ``*n``.

    Raises
    ------
    RulesetError
        If an edge is not green.

    Examples
    --------
    >>> green_nimber(stalk("GGG")), green_nimber(((0, 1, "G"), (1, 1, "G"), (1, 2, "G")))
    (3, 1)
    """
    edges = _grounded(tuple(position))
    if any(c != "G" for _, _, c in edges):
        raise RulesetError("green_nimber: the picture has an edge that is not green "
                           f"({shorten([e for e in edges if e[2] != 'G'][:3], 60)})")
    bridges = _bridges(edges)
    # 2-edge-connected blocks: the pieces of the graph without its bridges
    adj: dict[int, list[int]] = {}
    for i, (u, v, _) in enumerate(edges):
        adj.setdefault(u, [])
        adj.setdefault(v, [])
        if i not in bridges and u != v:
            adj[u].append(v)
            adj[v].append(u)
    block = {}
    for b, piece in enumerate(pieces(sorted(adj), adj)):
        for v in piece:
            block[v] = b
    loops: dict[int, int] = {}
    tree: dict[int, list[int]] = {}
    for i, (u, v, _) in enumerate(edges):
        if i in bridges:
            tree.setdefault(block[u], []).append(block[v])
            tree.setdefault(block[v], []).append(block[u])
        else:  # an edge inside a block (or a loop) fuses into a loop at the block
            loops[block[u]] = loops.get(block[u], 0) + 1
    if not edges:
        return 0
    root = block[0]
    # the colon principle on the bridge tree, leaves first (iteratively)
    parent = {root: None}
    order = [root]
    for b in order:
        for c in tree.get(b, ()):
            if c not in parent:
                parent[c] = b
                order.append(c)
    value: dict[int, int] = {}
    for b in reversed(order):
        x = loops.get(b, 0) & 1
        for c in tree.get(b, ()):
            if c != parent[b]:
                x ^= value[c] + 1
        value[b] = x
    return value[root]


def _bridges(edges: Edges) -> set[int]:
    """Indices of the bridges of a multigraph (Tarjan's low-link, iterative; a loop or one of
    parallel edges is never a bridge)."""
    adj = _adjacency(edges)
    disc: dict[int, int] = {}
    low: dict[int, int] = {}
    out: set[int] = set()
    t = 0
    for s in adj:
        if s in disc:
            continue
        disc[s] = low[s] = t
        t += 1
        stack = [(s, -1, iter(adj[s]))]
        while stack:
            v, via, it = stack[-1]
            advanced = False
            for w, i in it:
                if i == via or w == v:
                    continue
                if w in disc:
                    low[v] = min(low[v], disc[w])
                else:
                    disc[w] = low[w] = t
                    t += 1
                    stack.append((w, i, iter(adj[w])))
                    advanced = True
                    break
            if not advanced:
                stack.pop()
                if stack:
                    p = stack[-1][0]
                    low[p] = min(low[p], low[v])
                    if low[v] > disc[p]:
                        out.add(via)
    return out


class HackenbushGraph(PartizanRuleset):
    """Red-blue-green Hackenbush on graphs (module docstring).

    Parameters
    ----------
    fast_green : bool, default True
        Replace each all-green component by the green stalk of its value (fusion and colon
        principles) instead of searching it; ``False`` searches every component (slow; the
        tests compare the two).

    Examples
    --------
    >>> h = HackenbushGraph()
    >>> h.format_position(h.parse_position("g-a:B a-b:R a-c:R"))
    '0-1:L 1-2:R 1-3:R'
    """

    name = "hackenbush-graph"

    def __init__(self, fast_green: bool = True) -> None:
        self.fast_green = bool(fast_green)
        if not self.fast_green:
            self.name = "hackenbush-graph-search"

    @staticmethod
    def normalize(position: Edges) -> Edges:
        """The edges joined to the ground, renumbered (module docstring)."""
        return _relabel(_grounded(tuple(position)))

    def _cuts(self, position: Edges, mine: str) -> Iterable[Edges]:
        for i, (_, _, c) in enumerate(position):
            if c in mine:
                yield self.normalize(position[:i] + position[i + 1:])

    def left_moves(self, position: Edges) -> Iterable[Edges]:
        return self._cuts(position, "LG")

    def right_moves(self, position: Edges) -> Iterable[Edges]:
        return self._cuts(position, "RG")

    def components(self, position: Edges) -> list[Edges]:
        """The pieces meeting only at the ground, each renumbered; with ``fast_green`` an
        all-green piece is replaced by the green stalk of its nim value (dropped when 0)."""
        out = []
        for piece in _split(_grounded(tuple(position))):
            if self.fast_green and all(c == "G" for _, _, c in piece):
                n = green_nimber(piece)
                if n:
                    out.append(stalk("G" * n))
            else:
                out.append(_relabel(piece))
        return out

    @staticmethod
    def check_position(position: Any) -> None:
        """Refuse what is not a position: a tuple of edges ``(u, v, colour)``, ``u <= v``
        non-negative ints, colour ``L``, ``R`` or ``G``, at most :data:`MAX_EDGES` edges."""
        ok = isinstance(position, tuple) and all(
            isinstance(e, tuple) and len(e) == 3 and all(isinstance(x, int) and not isinstance(x, bool)
                                                         for x in e[:2])
            and 0 <= e[0] <= e[1] and e[2] in ("L", "R", "G") for e in position)
        if not ok:
            raise RulesetError(f"hackenbush-graph: a position is a tuple of edges (u, v, colour) with "
                               f"0 <= u <= v ints and colour L, R or G, got {shorten(position, 60)}; "
                               "parse_position reads text")
        if len(position) > MAX_EDGES:
            raise ComputationLimitError(
                f"hackenbush-graph: the position has {len(position):,} edges, more than the limit of "
                f"{MAX_EDGES:,} (cgtalg.rulesets.partizan.hackenbush_graph.MAX_EDGES)")

    def format_position(self, position: Edges) -> str:
        return " ".join(f"{u}-{v}:{c}" for u, v, c in position) or "0"

    def parse_position(self, text: str) -> Edges:
        """Read a picture: ``stalk:LRG`` (a stalk, colours from the ground up) or edges
        ``U-V:C`` separated by spaces or commas, ``U`` and ``V`` vertex names (letters, digits,
        ``_``) and ``C`` one of ``L``/``B`` (blue), ``R`` (red), ``G`` (green). The vertices
        ``0`` and ``g`` are the ground; a word ``ground=a,b`` puts more vertices on it. Several
        stalks: ``stalk:LR stalk:GG``. ``0`` alone is the empty picture. ``cgsuite:TEXT`` reads
        CGSuite's graph notation (``cgsuite:l(l;rl)``, ``cgsuite::{ground}llrr:{ground}``: edges
        ``l`` blue, ``r`` red, ``e`` green, ``(A;B)`` branches, ``:N`` names a vertex, the first
        vertex is the ground), as CGSuite's ``game.graph.Hackenbush`` takes it.

        Raises
        ------
        RulesetError
            For a malformed word (named, with its place in the text).
        """
        if not isinstance(text, str):
            raise RulesetError(f"{self.name}: a position text is a str, not {type(text).__name__}")
        if len(text) > 20 * MAX_EDGES:
            raise ComputationLimitError(f"{self.name}: the position text is {len(text):,} characters "
                                        f"long, beyond the limit of {MAX_EDGES:,} edges")
        if text.strip().lower().startswith("cgsuite:"):
            # CGSuite's graph notation (as game.graph.Hackenbush reads it): edges l (blue), r (red)
            # and e (green), the first vertex the ground
            from cgtalg.rulesets.partizan.arc_kayles import parse_cgsuite_graph

            _, found = parse_cgsuite_graph(self.name, text.strip()[len("cgsuite:"):], "lre", text)
            pos = tuple(sorted((u, v, {"l": "L", "r": "R", "e": "G"}[c]) for u, v, c in found))
            self.check_position(pos)
            return self.normalize(pos)
        ground = {"0", "g"}
        for m in re.finditer(r"(?i)\bground=([A-Za-z0-9_]+(?:,[A-Za-z0-9_]+)*)", text):
            ground.update(m.group(1).split(","))
        text = re.sub(r"(?i)\bground=[A-Za-z0-9_,]*", " ", text)
        words = text.replace(",", " ").split()
        names: dict[str, int] = {}

        def vertex(name: str) -> int:
            if name in ground:
                return 0
            return names.setdefault(name, len(names) + 1)

        edges: list[Edge] = []
        extra = 0
        for k, w in enumerate(words):
            if w == "0" and len(words) == 1:
                continue
            if w.lower().startswith("stalk:"):
                cols = w.split(":", 1)[1].upper()
                if not cols or set(cols) - set(_COLOURS):
                    raise RulesetError(f"{self.name}: word {k + 1} {w!r} of {shorten(text, 60)}: a "
                                       "stalk is stalk: followed by L (or B), R, G")
                prev = 0
                for c in cols:
                    extra += 1
                    v = vertex(f" stalk{extra}")
                    edges.append((min(prev, v), max(prev, v), _COLOURS[c]))
                    prev = v
                continue
            m = _EDGE.match(w)
            if not m or m.group(3).upper() not in _COLOURS:
                raise RulesetError(f"{self.name}: word {k + 1} {w!r} of {shorten(text, 60)} is not "
                                   "an edge U-V:C (C one of L, B, R, G) nor stalk:COLOURS")
            a, b = vertex(m.group(1)), vertex(m.group(2))
            edges.append((min(a, b), max(a, b), _COLOURS[m.group(3).upper()]))
        pos = tuple(sorted(edges))
        self.check_position(pos)
        return self.normalize(pos)


class ChildishHackenbush(HackenbushGraph):
    """Childish Hackenbush (Winning Ways ch. 2, "Childish Hackenbush"): Hackenbush on the same
    pictures, except that a player may delete a blue or red edge only when nothing falls, i.e.
    when every other edge stays joined to the ground. Green edges are cut as in Hackenbush
    (what they held falls): this is CGSuite's rule (``game.graph.ChildishHackenbush``, the
    no-fall rule on blue and red edges only), and Winning Ways' game is blue-red. ``strict=True``
    applies the no-fall rule to green edges too (registered as ``childish-hackenbush-strict``).
    Pieces meeting only at the ground are still independent; an all-green piece is plain green
    Hackenbush (a nimber, by the fusion and colon principles) unless ``strict``, and every other
    piece is searched.

    Examples
    --------
    >>> from cgtalg.rulesets.partizan.games import partizan_form
    >>> c = ChildishHackenbush()
    >>> [str(partizan_form(c, c.parse_position(t))) for t in ("stalk:LL", "stalk:LR", "g-a:L a-b:L a-c:R")]
    ['2', '0', '1']
    >>> str(partizan_form(c, c.parse_position("cgsuite:(e:B;e:Bllllllrrr:B)")))   # CGSuite's lollipop
    '{0|^[4]*||vv}'
    """

    name = "childish-hackenbush"

    def __init__(self, strict: bool = False) -> None:
        super().__init__(fast_green=not strict)
        self.strict = bool(strict)
        self.name = "childish-hackenbush-strict" if strict else "childish-hackenbush"
        # the store's key: values stored by cgtalg 0.2 under "childish-hackenbush" are the strict
        # rule's, so the strict ruleset keeps that key and CGSuite's rule takes a new one (an old
        # store never serves a value of the other rule)
        self.store_name = "childish-hackenbush" if strict else "childish-hackenbush/cgsuite"

    def _cuts(self, position: Edges, mine: str) -> Iterable[Edges]:
        grounded = _grounded(tuple(position))
        for i, (_, _, c) in enumerate(grounded):
            if c in mine:
                rest = grounded[:i] + grounded[i + 1:]
                # a blue or red edge (any edge, strict) only when nothing falls
                if (c == "G" and not self.strict) or len(_grounded(rest)) == len(rest):
                    yield self.normalize(rest)


def _register() -> None:
    from cgtalg.rulesets.registry import register_ruleset

    register_ruleset("hackenbush-graph", HackenbushGraph,
                     "red-blue-green Hackenbush on graphs: edges U-V:C, ground 0 or g")
    register_ruleset("hackenbush-graph-search", lambda: HackenbushGraph(fast_green=False),
                     "hackenbush-graph searching green pieces too (no fusion/colon shortcut)")
    register_ruleset("childish-hackenbush", ChildishHackenbush,
                     "Childish Hackenbush (CGSuite's rule): a blue or red edge may be deleted only when "
                     "nothing falls, green edges freely (pictures as hackenbush-graph)")
    register_ruleset("childish-hackenbush-strict", lambda: ChildishHackenbush(strict=True),
                     "Childish Hackenbush with the no-fall rule on green edges too")


_register()
