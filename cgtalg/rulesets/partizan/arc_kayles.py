"""Arc Kayles and Partizan Arc Kayles on graphs, with CGSuite's rules and graph notation.

**Arc Kayles** (Schaefer, "On the complexity of some two-person perfect-information games",
1978; Winning Ways ch. 4 plays Kayles on graphs; CGSuite ``game.graph.ArcKayles``) is impartial:
a move picks an edge of the graph and removes both its endpoints together with every edge
touching them. As in CGSuite, a graph may have loops: picking the loop at ``v`` removes ``v``
alone. The player who cannot move loses.

**Partizan Arc Kayles** (CGSuite ``game.graph.PartizanArcKayles``) colours each edge: Left may
pick only blue edges (``l``), Right only red ones (``r``), either player green ones (``e``);
the move removes the two endpoints and their edges as before.

Facts (checked in ``tests/test_rulesets_arc_kayles.py`` against a brute force, and CGSuite's
``lib/core/src/test/scala/org/cgsuite/lang/GameGraphTest.scala``): Arc Kayles on the path of
``n`` vertices is Dawson's Kayles (octal 0.07) on a heap of ``n`` (removing an edge of a path
takes two adjacent vertices: two beans of a row, leaving at most two rows); on the path of
``n`` vertices with a loop at every vertex it is Kayles (0.77) on a heap of ``n`` (a loop takes
one bean, an edge two adjacent beans).

Positions. Vertices no edge touches have no move and are dropped, so a position is a sorted
tuple of *components* (connected graphs with at least one edge), each a sorted tuple of edges
``(u, v, c)`` with ``u <= v`` (``u == v``: a loop) over vertices ``0..n-1`` and ``c`` the colour
(``"-"`` in Arc Kayles; ``"l"``, ``"r"``, ``"e"`` in the partizan game). Parallel edges of one
colour are one move and are kept once. Each component is renumbered (colour refinement, then
breadth first: :mod:`cgtalg.rulesets.partizan._graphs`) so isomorphic pieces often share a key.

Text (``parse_position``) is CGSuite's graph notation (``Graph.Parse``; CGSuite's tutorial
"Games on Graphs"): an edge symbol joins the vertex before it to a new vertex (``-`` in Arc
Kayles, ``l``/``r``/``e`` in Partizan Arc Kayles); ``.`` marks a vertex and is optional;
``(A;B;...)`` after a vertex starts branches from it; ``:N`` or ``:{Name}`` after a vertex names
it, and vertices of one name are one vertex (so ``:A----:A`` is the 4-cycle, ``:A-:A`` a loop);
``;`` at the top level separates pieces. ``"----"`` is the path of 5 vertices and ``"llr"`` the
path of 4 vertices whose edges are blue, blue, red. Arc Kayles also reads ``path:N``,
``cycle:N``, ``complete:N``, ``star:N`` (a centre and N leaves), ``grid:RxC`` and
``graph:N:0-1,1-2,2-2`` (any graph on vertices ``0..N-1``; ``2-2`` a loop). ``format_position``
writes CGSuite's notation back (vertices named ``:{k}`` where a cycle or loop needs it).

>>> from cgtalg.rulesets.solver import solve
>>> ak = ArcKayles()
>>> [solve(ak, ak.parse_position("-" * (n - 1))).value for n in range(1, 9)]   # Dawson's Kayles
[0, 1, 1, 2, 0, 3, 1, 1]
>>> from cgtalg.rulesets.partizan.games import partizan_form
>>> pak = PartizanArcKayles()
>>> str(partizan_form(pak, pak.parse_position("llr")))
'1/2'
"""

from __future__ import annotations

import re
from typing import Any, Iterable

from cgtalg.errors import ComputationLimitError, RulesetError, shorten
from cgtalg.rulesets.partizan._graphs import bfs_order, pieces, refine
from cgtalg.rulesets.protocol import ImpartialRuleset, PartizanRuleset

__all__ = ["ArcKayles", "PartizanArcKayles", "MAX_VERTICES", "MAX_NESTING", "parse_cgsuite_graph"]

#: the most vertices a position may have when read or checked
MAX_VERTICES = 10_000
#: the deepest nesting of parentheses a position text may have
MAX_NESTING = 500

Edge = tuple[int, int, str]
Component = tuple[Edge, ...]
Position = tuple[Component, ...]


def _relabel(edges: Iterable[Edge]) -> Component:
    """One connected piece renumbered 0..n-1 (refinement from the loops' colours, then breadth
    first), its edges sorted and without repeats."""
    edges = set(edges)
    verts = sorted({u for u, _, _ in edges} | {v for _, v, _ in edges})
    loops: dict[int, list[str]] = {v: [] for v in verts}
    nbrs: dict[int, list[tuple[int, str]]] = {v: [] for v in verts}
    for u, v, c in edges:
        if u == v:
            loops[u].append(c)
        else:
            nbrs[u].append((v, c))
            nbrs[v].append((u, c))
    label = {v: tuple(sorted(loops[v])) for v in verts}
    cls = refine(verts, label, nbrs)
    order = bfs_order(verts, cls, nbrs)
    new = {v: i for i, v in enumerate(order)}
    return tuple(sorted({(min(new[u], new[v]), max(new[u], new[v]), c) for u, v, c in edges}))


def _split(edges: Iterable[Edge]) -> list[Component]:
    """The connected pieces of a graph given by its edges (vertices without edges dropped),
    each renumbered."""
    edges = list(edges)
    adj: dict[int, list[int]] = {}
    for u, v, _ in edges:
        adj.setdefault(u, []).append(v)
        adj.setdefault(v, []).append(u)
    out = []
    for piece in pieces(sorted(adj), adj):
        ps = set(piece)
        out.append(_relabel(e for e in edges if e[0] in ps))
    return out


class _ArcKaylesRules:
    """What the two rulesets share: moves, components, text. Subclasses set ``name``,
    ``edge_symbols`` (the edge letters of the notation) and the colours each player may pick."""

    name = "arc-kayles"
    #: the edge letters of the notation
    edge_symbols = "-"

    # -- moves -----------------------------------------------------------------------------------
    def _options(self, position: Position, colours: str) -> Iterable[Position]:
        """The positions after picking an edge of one of ``colours``."""
        seen: set = set()
        for i, comp in enumerate(position):
            if comp in seen:          # equal components have equal options
                continue
            seen.add(comp)
            rest = position[:i] + position[i + 1:]
            for parts in self._component_options(comp, colours):
                yield tuple(sorted(rest + parts))

    def _component_options(self, comp: Component, colours: str) -> tuple[tuple[Component, ...], ...]:
        """What one component leaves after each move by a player who may pick ``colours``
        (memoised on the ruleset object: many positions share components)."""
        memo = self.__dict__.setdefault("_options_memo", {})
        key = (comp, colours)
        got = memo.get(key)
        if got is None:
            out = []
            for u, v in sorted({(u, v) for u, v, c in comp if c in colours}):
                left = [e for e in comp if e[0] not in (u, v) and e[1] not in (u, v)]
                out.append(tuple(_split(left)))
            got = tuple(out)
            if len(memo) > 200_000:
                memo.clear()
            memo[key] = got
        return got

    def components(self, position: Position) -> list[Position]:
        """Each connected piece alone (they are independent: a move removes vertices of one
        piece only)."""
        return [(c,) for c in position]

    @staticmethod
    def normalize(position: Position) -> Position:
        """The components sorted (each is renumbered when it is made)."""
        return tuple(sorted(position))

    # -- checking --------------------------------------------------------------------------------
    def check_position(self, position: Any) -> None:
        """Refuse what is not a position (module docstring): :class:`~cgtalg.errors.RulesetError`;
        more than :data:`MAX_VERTICES` vertices: :class:`~cgtalg.errors.ComputationLimitError`."""
        ok = isinstance(position, tuple) and all(isinstance(c, tuple) and c for c in position)
        count = 0
        if ok:
            for comp in position:
                for e in comp:
                    if not (type(e) is tuple and len(e) == 3 and type(e[0]) is int and type(e[1]) is int
                            and 0 <= e[0] <= e[1] and isinstance(e[2], str) and len(e[2]) == 1
                            and e[2] in self.edge_symbols):
                        ok = False
                        break
                if not ok:
                    break
                count += max(e[1] for e in comp) + 1
        if not ok:
            raise RulesetError(f"{self.name}: a position is a tuple of components, each a non-empty tuple of "
                               f"edges (u, v, colour) with 0 <= u <= v and colour one of "
                               f"{', '.join(self.edge_symbols)}; got {shorten(position, 60)}; "
                               "parse_position reads text")
        if count > MAX_VERTICES:
            raise ComputationLimitError(f"{self.name}: {count:,} vertices, more than the limit of "
                                        f"{MAX_VERTICES:,} (cgtalg.rulesets.partizan.arc_kayles.MAX_VERTICES)")

    # -- text ------------------------------------------------------------------------------------
    def format_position(self, position: Position) -> str:
        """CGSuite's graph notation (module docstring): a spanning tree of each component written
        with branches in parentheses, each other edge (a loop, a cycle's closing edge, a second
        colour between two vertices) a piece ``:{u}c:{v}`` after a ``;``."""
        if not position:
            return "0"
        texts = []
        offset = 0
        for comp in position:
            n = max(e[1] for e in comp) + 1
            texts.append(_component_text(comp, offset))
            offset += n
        return ";".join(texts)

    def parse_position(self, text: str) -> Position:
        """Read CGSuite's graph notation (``"----"``, ``"llr"``, ``"l(l;r)"``, ``":A---:A"``) or,
        in Arc Kayles, a shape (``path:5``, ``cycle:6``, ``graph:3:0-1,1-2``).

        Raises
        ------
        RulesetError
            For a malformed text: the message names the character or part.
        ComputationLimitError
            Past :data:`MAX_VERTICES` vertices.
        """
        if not isinstance(text, str):
            raise RulesetError(f"{self.name}: a position text is a str, not {type(text).__name__}")
        if len(text) > 40 * MAX_VERTICES:
            raise ComputationLimitError(f"{self.name}: the position text is {len(text):,} characters long")
        t = text.strip()
        if t in ("", "0", "empty"):
            return ()
        m = re.fullmatch(r"([a-z]+):(.*)", t, flags=re.S)
        if m and m.group(1) in ("path", "cycle", "complete", "star", "grid", "graph"):
            if self.edge_symbols != "-":
                raise RulesetError(f"{self.name}: the shape {shorten(t, 40)} has no edge colours; write the "
                                   "graph in CGSuite's notation with l (blue), r (red) and e (green) edges, "
                                   "e.g. 'llr' or 'l(r;e)'")
            n, edges = _shape(self.name, m.group(1), m.group(2).strip(), text)
        else:
            n, edges = parse_cgsuite_graph(self.name, t, self.edge_symbols, text)
        if n > MAX_VERTICES:
            raise ComputationLimitError(f"{self.name}: {shorten(text, 40)} has {n:,} vertices, more than the "
                                        f"limit of {MAX_VERTICES:,} (cgtalg.rulesets.partizan.arc_kayles.MAX_VERTICES)")
        pos = tuple(sorted(_split(edges)))
        self.check_position(pos)
        return pos


def _component_text(comp: Component, offset: int) -> str:
    """CGSuite's notation of one component, its vertex ``k`` named ``{k + offset}`` if named."""
    n = max(e[1] for e in comp) + 1
    adj: dict[int, list[tuple[int, str, int]]] = {v: [] for v in range(n)}
    for i, (u, v, c) in enumerate(comp):
        if u != v:
            adj[u].append((v, c, i))
            adj[v].append((u, c, i))
    # a spanning tree, breadth first from vertex 0 (the pieces are connected)
    children: dict[int, list[tuple[int, str]]] = {v: [] for v in range(n)}
    seen = {0}
    used: set[int] = set()
    queue = [0]
    for v in queue:
        for w, c, i in adj[v]:
            if w not in seen:
                seen.add(w)
                used.add(i)
                children[v].append((w, c))
                queue.append(w)
    extra = [e for i, e in enumerate(comp) if i not in used]
    named = {u for u, _, _ in extra} | {v for _, v, _ in extra}

    def vertex(v: int) -> str:
        return f":{{{v + offset}}}" if v in named else ""

    out: list[str] = []
    stack: list[Any] = [0]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        out.append(vertex(item))
        kids = children[item]
        if len(kids) == 1:
            stack += [kids[0][0], kids[0][1]]
        elif kids:
            work: list[Any] = [")"]
            for j, (w, c) in enumerate(reversed(kids)):
                work += [w, c]
                work.append("(" if j == len(kids) - 1 else ";")
            stack += work
    text = "".join(out)        # (CGSuite's '.' for a vertex is optional: not written)
    for u, v, c in extra:
        text += f";:{{{u + offset}}}{c}:{{{v + offset}}}"
    return text


def _tokens(name: str, t: str, shown: str) -> list[str]:
    """CGSuite's tokens: one character each, ``{...}`` one token, spaces skipped."""
    out = []
    i = 0
    while i < len(t):
        ch = t[i]
        if ch.isspace():
            i += 1
        elif ch == "{":
            j = t.find("}", i + 1)
            if j < 0:
                raise RulesetError(f"{name}: unmatched '{{' at character {i + 1} of {shorten(shown, 60)}")
            out.append("{" + t[i + 1:j] + "}")
            i = j + 1
        else:
            out.append(ch)
            i += 1
    return out


def parse_cgsuite_graph(name: str, t: str, symbols: str, shown: str) -> tuple[int, list[Edge]]:
    """(vertex count, edges ``(u, v, symbol)`` with ``u <= v``) of a graph in CGSuite's notation
    (module docstring), the first vertex numbered 0; ``symbols`` are the edge characters (also
    read by Hackenbush on graphs, :mod:`cgtalg.rulesets.partizan.hackenbush_graph`)."""
    toks = _tokens(name, t, shown)
    names: dict[str, int] = {}
    edges: list[Edge] = []
    count = 0
    pos = 0

    def bad(what: str) -> RulesetError:
        where = f"token {pos + 1} ({toks[pos]!r})" if pos < len(toks) else "the end"
        return RulesetError(f"{name}: {what} at {where} of {shorten(shown, 60)}; a graph is written in "
                            f"CGSuite's notation: edges {', '.join(repr(s) for s in symbols)}, optional '.' "
                            "for vertices, (A;B) for branches, :N or :{Name} to name a vertex, ';' "
                            "between pieces")

    def new_vertex() -> int:
        """A vertex: optional '.', optional name; a named vertex seen before is that vertex."""
        nonlocal pos, count
        if pos < len(toks) and toks[pos] == ".":
            pos += 1
        if pos < len(toks) and toks[pos] == ":":
            if pos + 1 >= len(toks) or toks[pos + 1] in ("(", ")", ";", ":"):
                pos += 1
                raise bad("a vertex name is missing after ':'")
            key = toks[pos + 1]
            key = key[1:-1] if key.startswith("{") else key      # :A and :{A} name one vertex
            pos += 2
            if key in names:
                return names[key]
            names[key] = count
        count += 1
        if count > MAX_VERTICES:
            raise ComputationLimitError(f"{name}: {shorten(shown, 40)} has more than {MAX_VERTICES:,} vertices "
                                        "(cgtalg.rulesets.partizan.arc_kayles.MAX_VERTICES)")
        return count - 1

    def chain(prec: int | None, depth: int) -> None:
        """A vertex (unless ``prec`` is given) followed by edges and branches, up to ';' or ')'."""
        nonlocal pos
        if depth > MAX_NESTING:
            raise ComputationLimitError(f"{name}: {shorten(shown, 40)} nests parentheses more than "
                                        f"{MAX_NESTING} deep (cgtalg.rulesets.partizan.arc_kayles.MAX_NESTING)")
        if prec is None:
            if pos >= len(toks):
                return
            prec = new_vertex()
        while pos < len(toks):
            tok = toks[pos]
            if tok in (";", ")"):
                return
            if tok == "(":
                pos += 1
                chain(prec, depth + 1)
                while pos < len(toks) and toks[pos] == ";":
                    pos += 1
                    chain(prec, depth + 1)
                if pos >= len(toks) or toks[pos] != ")":
                    raise bad("unmatched '('")
                pos += 1
                return
            if tok not in symbols or len(tok) != 1:
                raise bad(f"{tok!r} is not an edge of this ruleset")
            pos += 1
            v = new_vertex()
            edges.append((min(prec, v), max(prec, v), tok))
            prec = v

    chain(None, 0)
    while pos < len(toks):
        if toks[pos] != ";":
            raise bad("unexpected text")
        pos += 1
        chain(None, 0)
    return count, edges


def _shape(name: str, kind: str, arg: str, shown: str) -> tuple[int, list[Edge]]:
    """(vertex count, edges) of a shape text of Arc Kayles (module docstring)."""

    def number(s: str) -> int:
        s = s.strip()
        if not (s.isascii() and s.isdigit()):
            raise RulesetError(f"{name}: {s!r} in {shorten(shown, 60)} is not a vertex count")
        if len(s) > 9 or int(s) > MAX_VERTICES:
            raise ComputationLimitError(f"{name}: {shorten(s, 20)} in {shorten(shown, 60)} is more than the "
                                        f"limit of {MAX_VERTICES:,} vertices "
                                        "(cgtalg.rulesets.partizan.arc_kayles.MAX_VERTICES)")
        return int(s)

    def e(u: int, v: int) -> Edge:
        return (min(u, v), max(u, v), "-")

    if kind == "path":
        n = number(arg)
        return n, [e(i, i + 1) for i in range(n - 1)]
    if kind == "cycle":
        n = number(arg)
        if n < 3:
            raise RulesetError(f"{name}: a cycle has at least 3 vertices, got {shorten(arg, 20)}")
        return n, [e(i, i + 1) for i in range(n - 1)] + [e(0, n - 1)]
    if kind == "complete":
        n = number(arg)
        if n * (n - 1) // 2 > 4 * MAX_VERTICES:
            raise ComputationLimitError(f"{name}: complete:{n} has {n * (n - 1) // 2:,} edges, more than the "
                                        f"limit of {4 * MAX_VERTICES:,}")
        return n, [e(i, j) for i in range(n) for j in range(i + 1, n)]
    if kind == "star":
        n = number(arg)
        return n + 1, [e(0, i) for i in range(1, n + 1)]
    if kind == "grid":
        r, sep, c = arg.lower().replace("×", "x").partition("x")
        if not sep:
            raise RulesetError(f"{name}: a grid is written grid:RxC, got {shorten(shown, 40)}")
        rows, cols = number(r), number(c)
        if rows * cols > MAX_VERTICES:
            raise ComputationLimitError(f"{name}: grid:{rows}x{cols} has {rows * cols:,} vertices, more than "
                                        f"the limit of {MAX_VERTICES:,} "
                                        "(cgtalg.rulesets.partizan.arc_kayles.MAX_VERTICES)")
        es = [e(i * cols + j, i * cols + j + 1) for i in range(rows) for j in range(cols - 1)]
        es += [e(i * cols + j, (i + 1) * cols + j) for i in range(rows - 1) for j in range(cols)]
        return rows * cols, es
    # graph:N:U-V,...
    cnt, sep, rest = arg.partition(":")
    if not sep:
        raise RulesetError(f"{name}: a graph is written graph:N:U-V,U-V,... , got {shorten(shown, 40)}")
    n = number(cnt)
    out = []
    for part in [x.strip() for x in rest.split(",") if x.strip()]:
        a, dash, b = part.partition("-")
        a, b = a.strip(), b.strip()
        if not dash or not (a.isascii() and a.isdigit() and b.isascii() and b.isdigit()) \
                or max(int(a), int(b)) >= n:
            raise RulesetError(f"{name}: {part!r} in {shorten(shown, 60)} is not an edge U-V between two "
                               f"vertices 0..{n - 1} (U-U is a loop)")
        out.append(e(int(a), int(b)))
    return n, out


class ArcKayles(_ArcKaylesRules, ImpartialRuleset):
    """Arc Kayles (module docstring): pick an edge, remove both its endpoints and every edge at
    them; a loop removes its one vertex. Impartial: Grundy values come from
    :func:`cgtalg.rulesets.solver.solve` (components added by XOR).

    Examples
    --------
    >>> ak = ArcKayles()
    >>> ak.parse_position("---")                    # the path of 4 vertices
    (((0, 1, '-'), (1, 2, '-'), (2, 3, '-')),)
    >>> sorted(set(ak.moves(ak.parse_position("---"))))  # an end edge leaves P2, the middle one nothing
    [(), (((0, 1, '-'),),)]
    """

    name = "arc-kayles"
    example = "-----"
    edge_symbols = "-"

    def moves(self, position: Position) -> Iterable[Position]:
        return self._options(position, "-")


class PartizanArcKayles(_ArcKaylesRules, PartizanRuleset):
    """Partizan Arc Kayles (module docstring; CGSuite ``game.graph.PartizanArcKayles``): Left
    picks blue (``l``) or green (``e``) edges, Right red (``r``) or green ones.

    Examples
    --------
    >>> from cgtalg.rulesets.partizan.games import partizan_form
    >>> p = PartizanArcKayles()
    >>> [str(partizan_form(p, p.parse_position(t))) for t in ("l", "r", "e", "lr", "l;r")]
    ['1', '-1', '*', '*', '0']
    """

    name = "partizan-arc-kayles"
    example = "llr"
    edge_symbols = "lre"

    def left_moves(self, position: Position) -> Iterable[Position]:
        return self._options(position, "le")

    def right_moves(self, position: Position) -> Iterable[Position]:
        return self._options(position, "re")


def _register() -> None:
    from cgtalg.rulesets.registry import register_ruleset

    register_ruleset("arc-kayles", ArcKayles,
                     "Arc Kayles on graphs: pick an edge, remove both ends ('----', ':A---:A', path:5, graph:N:0-1)")
    register_ruleset("partizan-arc-kayles", PartizanArcKayles,
                     "Partizan Arc Kayles: Left takes blue (l), Right red (r), both green (e) edges ('llr', 'l(r;e)')")


_register()
