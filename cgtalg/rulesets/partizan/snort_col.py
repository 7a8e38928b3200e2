"""Snort and Col on graphs (Winning Ways ch. 2 and 6; Conway, ONAG ch. 15; Siegel,
*Combinatorial Game Theory*, I.1 and II.3).

Players in turn colour an uncoloured vertex of a graph with their own colour: Left blue, Right
red. In **Col** two adjacent vertices may not get the *same* colour; in **Snort** they may not
get *different* colours. The player who cannot colour a vertex loses.

A coloured vertex matters only through the vertices next to it, so it is taken off the graph
and its neighbours are *tinted*: each uncoloured vertex carries who may still colour it, ``W``
(both, white), ``L`` (only Left) or ``R`` (only Right). Colouring a vertex blue tints each
neighbour against red in Snort (``W`` -> ``L``, ``R`` -> nobody) and against blue in Col
(``W`` -> ``R``, ``L`` -> nobody); a vertex nobody may colour is taken off too. A position is
then a pair ``(tints, edges)``: a string of ``W``/``L``/``R`` (vertex ``i`` is ``tints[i]``)
and a sorted tuple of edges ``(u, v)``, ``u < v``. The connected pieces of the graph are the
components of the sum; each is renumbered (colour refinement, then breadth first) so that many
isomorphic pieces share one key.

Board texts (``parse_position``): ``path:N``, ``cycle:N``, ``grid:RxC``, ``complete:N``,
``star:N`` (a centre and N leaves), ``tree:P1,P2,...`` (vertex ``i`` >= 1 hangs from vertex
``P_i``), ``graph:N:0-1,1-2`` (any graph on vertices ``0..N-1``) and the written form
``TINTS:EDGES`` (``"WLW:0-1,1-2"``), each optionally followed by ``;blue=V,V`` and
``;red=V,V`` (vertices coloured before play: the colouring is applied, in the order given) and
``;left=V,..`` / ``;right=V,..`` (vertices tinted for one player only).

Positions are searched in the compiled partizan kernel when it is in use
(:meth:`GraphColouring.kernel_form`, :func:`cgtalg.normal.partizan_kernel.graph_form`: bitmask
moves on graphs of at most 64 vertices, components memoised on a relabelling); the search over
these positions in Python stays the reference (``partizan_form(..., engine="python")``,
``CGTALG_PURE_PYTHON=1``), checked against the kernel in ``tests/test_snort_col_kernel.py``.

Facts checked in ``tests/test_rulesets_snort_col.py``: every Col position is a number or a
number plus ``*`` (Conway, ONAG ch. 15), Snort on the path of 2 vertices is ``±1`` and on 3 is
``±2``, and values agree with cgt-py's Snort and Col and with an independent brute force.

>>> from cgtalg.rulesets.partizan.games import partizan_form
>>> snort, col = Snort(), Col()
>>> [str(partizan_form(snort, snort.parse_position(f"path:{n}"))) for n in (1, 2, 3)]
['*', '±1', '±2']
>>> str(partizan_form(col, col.parse_position("path:2;blue=0")))
'-1'
"""

from __future__ import annotations

import re
from typing import Any, Iterable

from cgtalg.errors import ComputationLimitError, RulesetError, shorten
from cgtalg.rulesets.partizan._graphs import bfs_order, pieces, refine
from cgtalg.rulesets.protocol import PartizanRuleset

__all__ = ["Snort", "Col", "GraphColouring", "MAX_VERTICES"]

#: the most vertices a position may have when read or checked
MAX_VERTICES = 10_000

Position = tuple[str, tuple[tuple[int, int], ...]]


def _relabel(tints: dict[int, str], edges: Iterable[tuple[int, int]]) -> Position:
    """The piece renumbered 0..n-1 (refinement from the tints, then breadth first)."""
    verts = sorted(tints)
    nbrs: dict[int, list[tuple[int, str]]] = {v: [] for v in verts}
    edges = list(edges)
    for u, v in edges:
        nbrs[u].append((v, ""))
        nbrs[v].append((u, ""))
    cls = refine(verts, {v: tints[v] for v in verts}, nbrs)
    order = bfs_order(verts, cls, nbrs)
    new = {v: i for i, v in enumerate(order)}
    return ("".join(tints[v] for v in order),
            tuple(sorted((min(new[u], new[v]), max(new[u], new[v])) for u, v in edges)))


class GraphColouring(PartizanRuleset):
    """Base of :class:`Snort` and :class:`Col` (module docstring); the class attribute
    ``snort`` tells them apart (true for Snort: a neighbour may then take only the same colour;
    false for Col: only the other).

    Examples
    --------
    >>> s = Snort()
    >>> s.colour(s.parse_position("path:3"), 1, "L")       # both ends now Left's only
    ('LL', ())
    >>> Col().colour(Col().parse_position("path:3"), 1, "L")
    ('RR', ())
    """

    name = "graph-colouring"
    #: True for Snort (a coloured vertex tints its neighbours for the same player)
    snort = True

    # -- positions ---------------------------------------------------------------------------
    def _tint(self, t: str, mover: str) -> str:
        """A neighbour's tint after ``mover`` colours a vertex next to it ("" = nobody)."""
        keep = mover if self.snort else ("R" if mover == "L" else "L")
        if t == "W":
            return keep
        return t if t == keep else ""

    def colour(self, position: Position, vertex: int, mover: str) -> Position:
        """``position`` after ``mover`` (``"L"``/``"R"``) colours ``vertex`` (not normalised,
        vertices renumbered 0..n-1 keeping their order)."""
        tints, edges = position
        new = {v: t for v, t in enumerate(tints) if v != vertex}
        for u, v in edges:
            if u == vertex and v in new:
                new[v] = self._tint(new[v], mover)
            elif v == vertex and u in new:
                new[u] = self._tint(new[u], mover)
        alive = [v for v in sorted(new) if new[v]]
        index = {v: i for i, v in enumerate(alive)}
        return ("".join(new[v] for v in alive),
                tuple((index[u], index[v]) for u, v in edges if u in index and v in index))

    def normalize(self, position: Position) -> Position:
        """The position with its pieces renumbered one after the other (largest first)."""
        parts = self._pieces(position)
        parts.sort(key=lambda p: (-len(p[0]), p))
        tints = ""
        edges: list[tuple[int, int]] = []
        for t, es in parts:
            off = len(tints)
            tints += t
            edges.extend((u + off, v + off) for u, v in es)
        return (tints, tuple(edges))

    def _pieces(self, position: Position) -> list[Position]:
        tints, edges = position
        adj: dict[int, list[int]] = {v: [] for v in range(len(tints))}
        for u, v in edges:
            adj[u].append(v)
            adj[v].append(u)
        out = []
        for piece in pieces(range(len(tints)), adj):
            ps = set(piece)
            out.append(_relabel({v: tints[v] for v in piece}, [e for e in edges if e[0] in ps]))
        return out

    def _moves(self, position: Position, mover: str) -> Iterable[Position]:
        tints = position[0]
        for v, t in enumerate(tints):
            if t == "W" or t == mover:
                yield self.normalize(self.colour(position, v, mover))

    def left_moves(self, position: Position) -> Iterable[Position]:
        return self._moves(position, "L")

    def right_moves(self, position: Position) -> Iterable[Position]:
        return self._moves(position, "R")

    def components(self, position: Position) -> list[Position]:
        """The connected pieces, each renumbered."""
        return sorted(self._pieces(position))

    def kernel_form(self, position: Position, tick: Any = None) -> Any:
        """The canonical form searched wholly in the compiled partizan kernel (moves on
        bitmasks, components split and memoised in C:
        :func:`cgtalg.normal.partizan_kernel.graph_form`), or None when a connected piece has
        more than 64 vertices (the search of :func:`~cgtalg.rulesets.partizan.games.partizan_form`
        runs then). :func:`~cgtalg.rulesets.partizan.games.partizan_form` calls it when the
        kernel is in use, with ``tick(solved)`` checking its limits every 256 components.

        Examples
        --------
        >>> from cgtalg.rulesets.partizan.games import partizan_form
        >>> s = Snort()
        >>> str(partizan_form(s, s.parse_position("star:3")))
        '±3'
        """
        from cgtalg.normal import partizan_kernel

        tints, edges = position
        return partizan_kernel.graph_form(self.name, tints, edges, tick)

    def format_position(self, position: Position) -> str:
        tints, edges = position
        if not tints:
            return "0"
        return tints + ":" + ",".join(f"{u}-{v}" for u, v in edges)

    def check_position(self, position: Any) -> None:
        """Refuse what is not a position (``(tints, edges)`` as in the module docstring, at
        most :data:`MAX_VERTICES` vertices): :class:`~cgtalg.errors.RulesetError`."""
        ok = (isinstance(position, tuple) and len(position) == 2 and isinstance(position[0], str)
              and not set(position[0]) - set("WLR") and isinstance(position[1], tuple))
        if ok:
            n = len(position[0])
            ok = all(type(e) is tuple and len(e) == 2 and type(e[0]) is int and type(e[1]) is int
                     and 0 <= e[0] < e[1] < n for e in position[1])
        if not ok:
            raise RulesetError(f"{self.name}: a position is (tints, edges): a str over W, L, R and a tuple "
                               f"of (u, v) with 0 <= u < v < len(tints), got {shorten(position, 60)}; "
                               "parse_position reads text")
        if len(position[0]) > MAX_VERTICES:
            raise ComputationLimitError(f"{self.name}: {len(position[0]):,} vertices, more than the limit "
                                        f"of {MAX_VERTICES:,} (cgtalg.rulesets.partizan.snort_col.MAX_VERTICES)")

    # -- reading board texts -------------------------------------------------------------------
    def parse_position(self, text: str) -> Position:
        """Read a board text (module docstring): ``path:5``, ``grid:3x4;blue=0``,
        ``WLW:0-1,1-2`` ...

        Raises
        ------
        RulesetError
            For an unknown shape or a malformed part; the message names the part.
        """
        if not isinstance(text, str):
            raise RulesetError(f"{self.name}: a position text is a str, not {type(text).__name__}")
        if len(text) > 40 * MAX_VERTICES:
            raise ComputationLimitError(f"{self.name}: the position text is {len(text):,} characters long")
        head, *extras = [p.strip() for p in text.strip().split(";")]
        n, edges, given = self._shape(head, text)
        if n > MAX_VERTICES:
            raise ComputationLimitError(f"{self.name}: {text[:40]!r} has {n:,} vertices, more than the "
                                        f"limit of {MAX_VERTICES:,} (cgtalg.rulesets.partizan.snort_col.MAX_VERTICES)")
        tint = dict(enumerate(given or "W" * n))
        coloured: list[tuple[int, str]] = []
        for part in extras:
            if not part:
                continue
            key, _, vals = part.partition("=")
            key = key.strip().lower()
            if key not in ("blue", "red", "left", "right") or not vals.strip():
                raise RulesetError(f"{self.name}: {part!r} in {shorten(text, 60)} is not blue=V,.., red=V,.., "
                                   "left=V,.. or right=V,..")
            for x in vals.split(","):
                x = x.strip()
                if not (x.isascii() and x.isdigit()) or int(x) >= n:
                    raise RulesetError(f"{self.name}: {x!r} in {part!r} is not a vertex 0..{n - 1}")
                v = int(x)
                if key in ("left", "right"):
                    tint[v] = "L" if key == "left" else "R"
                else:
                    coloured.append((v, "L" if key == "blue" else "R"))
        pos: Position = ("".join(tint[v] for v in range(n)), tuple(sorted(edges)))
        self.check_position(pos)
        # apply the colourings, following each vertex through the renumberings
        alive = list(range(n))
        for v, who in coloured:
            if v not in alive:
                raise RulesetError(f"{self.name}: vertex {v} of {shorten(text, 60)} cannot be coloured "
                                   "(it is coloured already, or no one may colour it)")
            i = alive.index(v)
            if pos[0][i] not in ("W", who):
                raise RulesetError(f"{self.name}: vertex {v} of {shorten(text, 60)} may not be coloured "
                                   f"{'blue' if who == 'L' else 'red'} there")
            before = self._tint_after(pos, i, who)
            pos = self.colour(pos, i, who)
            alive = [w for j, w in enumerate(alive) if j != i and before[j]]
        return self.normalize(pos)

    def _tint_after(self, pos: Position, i: int, who: str) -> list[str]:
        """The tints after colouring vertex ``i`` (``""`` for removed vertices), not renumbered."""
        tints, edges = pos
        out = list(tints)
        out[i] = ""
        for u, v in edges:
            if i in (u, v):
                w = v if u == i else u
                out[w] = self._tint(out[w], who)
        return out

    def _shape(self, head: str, text: str) -> tuple[int, list[tuple[int, int]], str | None]:
        """(vertex count, edges, the tints when the text gives them) of a board text's head."""
        if head in ("0", "empty"):
            return 0, [], None
        m = re.fullmatch(r"([A-Za-z]+):(.*)", head)
        if not m:
            raise RulesetError(f"{self.name}: {shorten(text, 60)} is not a board text (path:N, cycle:N, "
                               "grid:RxC, complete:N, star:N, tree:P1,P2,.., graph:N:EDGES or TINTS:EDGES)")
        kind, arg = m.group(1), m.group(2).strip()

        def number(s: str) -> int:
            if not (s.isascii() and s.isdigit()):
                raise RulesetError(f"{self.name}: {s!r} in {shorten(text, 60)} is not a vertex count")
            if len(s) > 9 or int(s) > MAX_VERTICES:
                raise ComputationLimitError(f"{self.name}: {shorten(s, 20)} in {shorten(text, 60)} is more than "
                                            f"the limit of {MAX_VERTICES:,} vertices "
                                            "(cgtalg.rulesets.partizan.snort_col.MAX_VERTICES)")
            return int(s)

        def edge_list(s: str, n: int) -> list[tuple[int, int]]:
            out = []
            for e in [x.strip() for x in s.split(",") if x.strip()]:
                a, _, b = e.partition("-")
                if not (a.isascii() and a.isdigit() and b.isascii() and b.isdigit()) or a == b \
                        or max(int(a), int(b)) >= n:
                    raise RulesetError(f"{self.name}: {e!r} in {shorten(text, 60)} is not an edge U-V "
                                       f"between two vertices 0..{n - 1}")
                u, v = sorted((int(a), int(b)))
                out.append((u, v))
            return sorted(set(out))

        k = kind.lower()
        if k == "path":
            n = number(arg)
            return n, [(i, i + 1) for i in range(n - 1)], None
        if k == "cycle":
            n = number(arg)
            if n < 3:
                raise RulesetError(f"{self.name}: a cycle has at least 3 vertices, got {arg!r}")
            return n, [(i, i + 1) for i in range(n - 1)] + [(0, n - 1)], None
        if k == "complete":
            n = number(arg)
            if n * (n - 1) // 2 > 4 * MAX_VERTICES:
                raise ComputationLimitError(f"{self.name}: complete:{n} has {n * (n - 1) // 2:,} edges, more "
                                            f"than the limit of {4 * MAX_VERTICES:,}")
            return n, [(i, j) for i in range(n) for j in range(i + 1, n)], None
        if k == "star":
            n = number(arg)
            return n + 1, [(0, i) for i in range(1, n + 1)], None
        if k == "grid":
            r, _, c = arg.lower().replace("×", "x").partition("x")
            rows, cols = number(r.strip()), number(c.strip())
            if rows * cols > MAX_VERTICES:
                raise ComputationLimitError(f"{self.name}: grid:{rows}x{cols} has {rows * cols:,} vertices, "
                                            f"more than the limit of {MAX_VERTICES:,} "
                                            "(cgtalg.rulesets.partizan.snort_col.MAX_VERTICES)")
            es = [(i * cols + j, i * cols + j + 1) for i in range(rows) for j in range(cols - 1)]
            es += [(i * cols + j, (i + 1) * cols + j) for i in range(rows - 1) for j in range(cols)]
            return rows * cols, es, None
        if k == "tree":
            parents = [number(p.strip()) for p in arg.split(",") if p.strip()]
            for i, p in enumerate(parents):
                if p > i:
                    raise RulesetError(f"{self.name}: in tree:{arg}, vertex {i + 1} hangs from {p}, "
                                       "not an earlier vertex")
            return len(parents) + 1, [(p, i + 1) for i, p in enumerate(parents)], None
        if k == "graph":
            cnt, _, es = arg.partition(":")
            n = number(cnt.strip())
            return n, edge_list(es, n), None
        if not set(kind) - set("WLR"):
            return len(kind), edge_list(arg, len(kind)), kind
        raise RulesetError(f"{self.name}: unknown board shape {kind!r} in {shorten(text, 60)} (path, cycle, "
                           "grid, complete, star, tree, graph, or a tint string over W, L, R)")


class Snort(GraphColouring):
    """Snort (Winning Ways ch. 6): adjacent vertices may not get different colours."""

    name = "snort"
    snort = True


class Col(GraphColouring):
    """Col (Winning Ways ch. 2; ONAG ch. 15): adjacent vertices may not get the same colour."""

    name = "col"
    snort = False


def _register() -> None:
    from cgtalg.rulesets.registry import register_ruleset

    register_ruleset("snort", Snort, "Snort on graphs (path:5, grid:2x3, WLW:0-1,1-2; ;blue=V;red=V)")
    register_ruleset("col", Col, "Col on graphs (path:5, grid:2x3, WLW:0-1,1-2; ;blue=V;red=V)")


_register()
