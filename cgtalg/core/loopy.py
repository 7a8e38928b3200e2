"""Loopy partizan games: finite directed graphs of positions with Left and Right edges.

A loopy game (Winning Ways ch. 11; Siegel, *Combinatorial Game Theory* (2013), ch. VI) is a
position of a finite graph whose positions have Left options and Right options, where play may
return to a position already met. :class:`LoopyGame` holds the part of the graph reachable from
the start, in a canonical form:

- positions with the same game tree (the same unfolding: a bisimulation of the Left and Right
  edges) are merged, so ``a:{0|a}``, ``{0|pass}`` and ``b:{0|{0|b}}`` are one graph;
- the merged positions are numbered canonically (colour refinement with colours named by their
  sorted signatures, then breadth-first order from the start), so two games are the same graph
  exactly when their :attr:`LoopyGame.encoding` is the same, and each graph is made once
  (hash-consed: equal encodings give the same object).

Sums (:func:`loopy_sum`: the product graph, Siegel VI.1) and negatives (Left and Right edges
swapped) are graph operations; a loopy game whose graph has no cycle converts to the short
:class:`~cgtalg.core.partizan.PartizanGame` it is (:meth:`LoopyGame.to_partizan`), and every
short form converts back (:func:`from_partizan`).

The theory (outcomes with draws, stoppers, comparison, canonical stoppers, onsides and
offsides) lives in :mod:`cgtalg.normal.loopy`; the notation in
:mod:`cgtalg.core.loopy_notation`.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from collections import deque
from typing import Any, Iterable, Sequence

from cgtalg.errors import ArgumentTypeError, LoopyGameError, shorten

__all__ = [
    "LoopyGame", "loopy_game", "loopy_from_key", "from_partizan", "loopy_sum", "loopy_negative", "as_loopy",
    "NAMED_LOOPY", "Sides",
]

Graph = tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]

_TABLE: "weakref.WeakValueDictionary[Graph, LoopyGame]" = weakref.WeakValueDictionary()


class LoopyGame:
    """A loopy partizan game: a start position of a finite graph with Left and Right edges.

    Do not call the constructor; use :func:`loopy_game`, :func:`from_partizan`,
    :func:`cgtalg.parse_loopy` or the sums and negatives of games.

    Attributes
    ----------
    graph : tuple
        ``graph[v] = (left, right)``: the Left and Right options of position ``v`` as sorted
        tuples of position numbers; position 0 is the start. Canonical: the same game tree
        always gives the same graph.
    encoding : tuple
        The graph (the canonical encoding; equal encodings are the same object).
    size : int
        The number of distinct positions (followers, the game included).

    ``G + H``, ``G - H`` and ``-G`` are the sum and negative as graphs; comparisons and
    outcomes are questions of the theory (:func:`cgtalg.outcome`, :func:`cgtalg.compare`).

    Examples
    --------
    >>> import cgtalg as cg
    >>> over = cg.parse_loopy("a:{0|a}")
    >>> over is cg.parse_loopy("{0|pass}") is cg.parse_loopy("over")
    True
    >>> over.size, over.is_short
    (2, False)
    """

    __slots__ = ("_graph", "_short", "__weakref__")

    _graph: Graph
    _short: bool | None

    def __new__(cls, *args: Any, **kwargs: Any):  # pragma: no cover - guarded constructor
        raise ArgumentTypeError("use cgtalg.loopy_game(nodes), cgtalg.parse_loopy(text) or "
                                "cgtalg.from_partizan(form)")

    @classmethod
    def _make(cls, graph: Graph) -> "LoopyGame":
        found = _TABLE.get(graph)
        if found is not None:
            return found
        self = object.__new__(cls)
        self._graph = graph
        self._short = None
        _TABLE[graph] = self
        return self

    # -- structure ------------------------------------------------------------------------
    @property
    def graph(self) -> Graph:
        return self._graph

    @property
    def encoding(self) -> Graph:
        return self._graph

    @property
    def size(self) -> int:
        return len(self._graph)

    def follower(self, v: int) -> "LoopyGame":
        """The game that starts at position ``v`` of this graph."""
        if not isinstance(v, int) or not 0 <= v < len(self._graph):
            raise ArgumentTypeError(f"follower: {shorten(v)} is not a position number of this "
                                    f"game (0 to {len(self._graph) - 1})")
        return v == 0 and self or _canonical(self._graph, v)

    @property
    def left(self) -> tuple["LoopyGame", ...]:
        """The Left options, as games."""
        return tuple(self.follower(v) for v in self._graph[0][0])

    @property
    def right(self) -> tuple["LoopyGame", ...]:
        """The Right options, as games."""
        return tuple(self.follower(v) for v in self._graph[0][1])

    @property
    def key(self) -> str:
        """The graph as text (how the store keys a loopy game): positions separated by ``;``,
        each ``left|right`` with comma-separated position numbers; position 0 is the start.
        ``over`` is ``1|0;|``. :func:`loopy_from_key` reads it back."""
        return ";".join(",".join(map(str, lo)) + "|" + ",".join(map(str, ro)) for lo, ro in self._graph)

    def followers(self) -> list["LoopyGame"]:
        """Every position of the graph as a game (the game first)."""
        return [self.follower(v) for v in range(len(self._graph))]

    @property
    def is_short(self) -> bool:
        """Whether the graph has no cycle (then :meth:`to_partizan` gives the short form)."""
        if self._short is None:
            self._short = _find_cycle(self._graph) is None
        return self._short

    def to_partizan(self) -> Any:
        """The short partizan form of a game whose graph has no cycle.

        Raises
        ------
        LoopyGameError
            When the graph has a cycle (naming one).
        """
        cycle = _find_cycle(self._graph)
        if cycle is not None:
            raise LoopyGameError(cycle, "to_partizan: the game graph has the cycle "
                                 + " -> ".join(map(str, cycle + [cycle[0]]))
                                 + " (positions numbered from the start, 0); a loopy game has "
                                 "no short form")
        from cgtalg.core.partizan import make_form

        memo: dict[int, Any] = {}
        for v in _postorder(self._graph):
            lo, ro = self._graph[v]
            memo[v] = make_form([memo[w] for w in lo], [memo[w] for w in ro])
        return memo[0]

    # -- arithmetic -----------------------------------------------------------------------
    def __add__(self, other: Any) -> "LoopyGame":
        o = _coerce(other)
        return NotImplemented if o is None else loopy_sum(self, o)

    def __radd__(self, other: Any) -> "LoopyGame":
        o = _coerce(other)
        return NotImplemented if o is None else loopy_sum(o, self)

    def __neg__(self) -> "LoopyGame":
        return loopy_negative(self)

    def __sub__(self, other: Any) -> "LoopyGame":
        o = _coerce(other)
        return NotImplemented if o is None else loopy_sum(self, loopy_negative(o))

    def __rsub__(self, other: Any) -> "LoopyGame":
        o = _coerce(other)
        return NotImplemented if o is None else loopy_sum(o, loopy_negative(self))

    def __reduce__(self):
        return (loopy_game, (self._graph,))

    def __str__(self) -> str:
        from cgtalg.core.loopy_notation import format_loopy

        return format_loopy(self)

    def __repr__(self) -> str:
        from cgtalg.core.display import REPR_LIMIT, short
        from cgtalg.core.loopy_notation import format_loopy

        return f"LoopyGame({short(format_loopy(self, max_chars=REPR_LIMIT), REPR_LIMIT - 11)})"

    def _repr_html_(self) -> str:  # notebooks: the card a higher layer provides (cgtalg.hooks)
        from cgtalg.hooks import form_html

        return form_html(self)

    def _repr_latex_(self) -> str | None:
        """The loopy game in LaTeX (``\\mathrm{on}``, ``a:\\{0\\mid a\\}``); None for a long text."""
        from cgtalg.core.latex import LATEX_LIMIT, form_latex, math
        from cgtalg.core.loopy_notation import format_loopy

        return math(form_latex(format_loopy(self, max_chars=LATEX_LIMIT)))


@dataclass(frozen=True)
class Sides:
    """A loopy value given by its sides, ``onside & offside`` (CGSuite's ``s & t``): the
    onside ``G⁺`` and offside ``G⁻`` of a game ``G``, both stoppers, ``onside ≥ offside``.

    The reader also makes this record for a game some of whose options are values
    (``{2&-2|1&-2}``): then ``onside`` is the game with each such option's onside in its place
    and ``offside`` the game with its offside, graphs that need not be stoppers, whose onside
    and offside (:func:`cgtalg.loopy_sides`) are the value's.

    :func:`cgtalg.loopy_sides` gives a game's sides as canonical stoppers (then
    :attr:`stopper` is the game's canonical stopper when the two are the same), and
    :func:`cgtalg.parse_loopy` reads ``A & B`` into this record; the theory's functions
    (:func:`cgtalg.loopy_outcome`, :func:`cgtalg.normal.loopy.loopy_relation`,
    :func:`cgtalg.loopy_sides`) take it. It is a value, not a game graph: it has no options.

    Attributes
    ----------
    onside, offside : LoopyGame
        Stoppers (as :func:`cgtalg.loopy_sides` gives them), or graphs whose onside and
        offside they stand for (as the reader gives them).

    Examples
    --------
    >>> import cgtalg as cg
    >>> s = cg.parse_loopy("1 & -1")
    >>> str(s), str(s.onside), str(s.offside), s.stopper
    ('1 & -1', '1', '-1', None)
    """

    onside: LoopyGame
    offside: LoopyGame

    @property
    def stopper(self) -> LoopyGame | None:
        """The stopper both sides are (when they are the same graph), else None."""
        return self.onside if self.onside is self.offside else None

    def __neg__(self) -> "Sides":
        """``-(s & t) = -t & -s`` (the onside of ``-G`` is ``-(G⁻)``)."""
        return Sides(-self.offside, -self.onside)

    @property
    def is_short(self) -> bool:
        """Always False: a value given by its sides is not a short game."""
        return False

    def __str__(self) -> str:
        if self.onside is self.offside:
            return str(self.onside)
        named = named_loopy()
        if self.onside is named["on"] and self.offside is named["off"]:
            return "dud"  # CGSuite's shorthand: dud = on & off
        return f"{self.onside} & {self.offside}"

    def __repr__(self) -> str:
        from cgtalg.core.display import short

        return f"Sides({short(self, 180)})"

    def to_json(self) -> dict:
        return {"onside": str(self.onside), "offside": str(self.offside), "text": str(self)}

    def _repr_html_(self) -> str:
        """Notebook view: onside and offside (or the stopper the game equals)."""
        from cgtalg.core.display import card, short

        if self.stopper is not None:
            return card("sides: a stopper", [("G", short(self.stopper, 300))], kind="sides")
        return card("sides: G = onside & offside", [("onside", short(self.onside, 300)),
                                                     ("offside", short(self.offside, 300))], kind="sides")

    def _repr_latex_(self) -> str | None:
        from cgtalg.core.latex import form_latex, math

        if self.stopper is not None:
            return self.stopper._repr_latex_()
        if str(self) == "dud":
            return math("\\mathrm{dud}")
        a, b = form_latex(str(self.onside)), form_latex(str(self.offside))
        return None if a is None or b is None else math(f"{a}\\mathbin{{\\&}}{b}")


def _coerce(x: Any) -> LoopyGame | None:
    if isinstance(x, LoopyGame):
        return x
    try:
        return as_loopy(x)
    except (ArgumentTypeError, TypeError):
        return None


def as_loopy(x: Any) -> LoopyGame:
    """``x`` as a loopy game: a :class:`LoopyGame` itself, a short partizan or impartial form
    (its graph), an integer or dyadic fraction (the number), or loopy game text."""
    if isinstance(x, LoopyGame):
        return x
    if isinstance(x, str):
        from cgtalg.core.loopy_notation import parse_loopy

        got = parse_loopy(x)
        if isinstance(got, Sides):
            raise ArgumentTypeError(f"{shorten(x)} is a value given by its sides (s & t), not a "
                                    "game graph: cgtalg.normal.loopy_sidling.sides_game makes a "
                                    "game with these sides")
        return got
    if isinstance(x, Sides):
        raise ArgumentTypeError(f"{x} is a value given by its sides (s & t), not a game graph: "
                                "cgtalg.normal.loopy_sidling.sides_game makes a game with these sides")
    from cgtalg.core.game import Game
    from cgtalg.core.partizan import PartizanGame, as_partizan, from_impartial

    if isinstance(x, Game):
        return from_partizan(from_impartial(x))
    if isinstance(x, PartizanGame):
        return from_partizan(x)
    return from_partizan(as_partizan(x))


# -- construction -----------------------------------------------------------------------------
def loopy_game(nodes: Any, start: int = 0) -> LoopyGame:
    """The loopy game at position ``start`` of a graph given by its options.

    Parameters
    ----------
    nodes
        A sequence (or a dict keyed by any hashable names) whose entry for each position is a
        pair ``(left, right)`` of iterables of positions (indices, or keys of the dict).
    start
        The starting position (an index or key).

    Returns
    -------
    LoopyGame
        The canonical graph of the positions reachable from ``start``.

    Raises
    ------
    ArgumentTypeError
        An entry that is not a pair of iterables, or an edge to a position not given.

    Examples
    --------
    >>> import cgtalg as cg
    >>> cg.loopy_game([((0,), ())]) is cg.parse_loopy("on")      # on = {on|}
    True
    >>> str(cg.loopy_game({"a": (["z"], ["a"]), "z": ([], [])}, "a"))
    'over'
    """
    if isinstance(nodes, dict):
        names = list(nodes)
        index = {k: i for i, k in enumerate(names)}
        entries = [nodes[k] for k in names]
    elif isinstance(nodes, (list, tuple)):
        index = None
        entries = list(nodes)
    else:
        raise ArgumentTypeError(f"loopy_game: nodes must be a list of (left, right) pairs or a "
                                f"dict of them, not {type(nodes).__name__}")

    def at(k: Any, where: str) -> int:
        if index is not None:
            if k not in index:
                raise ArgumentTypeError(f"loopy_game: {where} names {shorten(k)}, which is not "
                                        "a position of the graph")
            return index[k]
        if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k < len(entries):
            raise ArgumentTypeError(f"loopy_game: {where} names {shorten(k)}, not a position "
                                    f"number 0 to {len(entries) - 1}")
        return k

    graph: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    for i, e in enumerate(entries):
        name = names[i] if index is not None else i
        if not (isinstance(e, (tuple, list)) and len(e) == 2):
            raise ArgumentTypeError(f"loopy_game: position {shorten(name)} must be a pair "
                                    f"(left options, right options), not {shorten(e)}")
        lo = tuple(sorted({at(k, f'a Left option of {name!r}') for k in e[0]}))
        ro = tuple(sorted({at(k, f'a Right option of {name!r}') for k in e[1]}))
        graph.append((lo, ro))
    return _canonical(tuple(graph), at(start, "the start"))


def loopy_from_key(text: str) -> LoopyGame:
    """The game of a graph key (:attr:`LoopyGame.key`).

    Raises
    ------
    ArgumentTypeError
        If ``text`` is not a graph key (naming the position whose entry is malformed).

    Examples
    --------
    >>> loopy_from_key("1|0;|").key
    '1|0;|'
    """
    if not isinstance(text, str) or not text:
        raise ArgumentTypeError(f"a loopy graph key is non-empty text, not {shorten(text)}")
    nodes = []
    for i, part in enumerate(text.split(";")):
        sides = part.split("|")
        if len(sides) != 2:
            raise ArgumentTypeError(f"loopy graph key {shorten(text)}: position {i} ({shorten(part)}) "
                                    "is not 'left|right'")
        try:
            nodes.append(tuple([int(x) for x in s.split(",")] if s else [] for s in sides))
        except ValueError:
            raise ArgumentTypeError(f"loopy graph key {shorten(text)}: position {i} "
                                    f"({shorten(part)}) has an option that is not a number") from None
    return loopy_game(nodes)


def from_partizan(g: Any) -> LoopyGame:
    """The graph of a short partizan form (its literal followers; no simplification).

    Examples
    --------
    >>> import cgtalg as cg
    >>> from_partizan(cg.parse("{1|-1}")).to_partizan() is cg.parse("{1|-1}")
    True
    """
    from cgtalg.core.partizan import PartizanGame

    if not isinstance(g, PartizanGame):
        raise ArgumentTypeError(f"from_partizan takes a PartizanGame, not {type(g).__name__}")
    order: dict[int, int] = {}
    forms: list[Any] = []
    todo = [g]
    while todo:
        x = todo.pop()
        if x.id in order:
            continue
        if x._lazy:  # a compact number (cgtalg.core.partizan_atoms): its tree cannot be a graph here
            from cgtalg.core.partizan_atoms import compact_refusal

            raise compact_refusal("a loopy game graph of the form", x)
        order[x.id] = len(forms)
        forms.append(x)
        todo.extend(x.left)
        todo.extend(x.right)
    graph = tuple((tuple(order[o.id] for o in x.left), tuple(order[o.id] for o in x.right))
                  for x in forms)
    return _canonical(graph, 0)


def loopy_negative(g: LoopyGame) -> LoopyGame:
    """``-G``: Left and Right edges swapped."""
    return _canonical(tuple((ro, lo) for lo, ro in g._graph), 0)


def loopy_sum(*games: LoopyGame) -> LoopyGame:
    """The disjunctive sum: the product graph, a move in one component at a time (Siegel VI.1)."""
    if not games:
        return from_partizan(_zero())
    acc = games[0]
    for h in games[1:]:
        acc = _sum2(acc, h)
    return acc


def _zero() -> Any:
    from cgtalg.core.partizan import ZERO

    return ZERO


def _sum2(a: LoopyGame, b: LoopyGame) -> LoopyGame:
    ga, gb = a._graph, b._graph
    m = len(gb)
    index: dict[int, int] = {0: 0}
    order = [0]
    graph: list[Any] = []
    i = 0
    while i < len(order):
        s = order[i]
        i += 1
        x, y = divmod(s, m)
        sides = []
        for side in (0, 1):
            targets = [xo * m + y for xo in ga[x][side]] + [x * m + yo for yo in gb[y][side]]
            out = []
            for t in targets:
                if t not in index:
                    index[t] = len(order)
                    order.append(t)
                out.append(index[t])
            sides.append(tuple(out))
        graph.append((sides[0], sides[1]))
    return _canonical(tuple(graph), 0)


# -- canonical encoding -----------------------------------------------------------------------
def _reachable(graph: Sequence[tuple[Sequence[int], Sequence[int]]], start: int) -> list[int]:
    seen = {start}
    order = [start]
    i = 0
    while i < len(order):
        v = order[i]
        i += 1
        for w in (*graph[v][0], *graph[v][1]):
            if w not in seen:
                seen.add(w)
                order.append(w)
    return order


def _canonical(graph: Sequence[tuple[Sequence[int], Sequence[int]]], start: int) -> LoopyGame:
    """The canonical graph of the game at ``start``: reachable positions, merged by
    bisimulation (colour refinement on the sets of Left and Right option colours, which
    converges to the coarsest bisimulation), numbered canonically."""
    nodes = _reachable(graph, start)
    colour = {v: 0 for v in nodes}
    count = 1
    while True:
        sig = {v: (colour[v], tuple(sorted({colour[w] for w in graph[v][0]})),
                   tuple(sorted({colour[w] for w in graph[v][1]}))) for v in nodes}
        distinct = sorted(set(sig.values()))
        name = {s: i for i, s in enumerate(distinct)}
        colour = {v: name[sig[v]] for v in nodes}
        if len(distinct) == count:
            break
        count = len(distinct)
    # one representative per colour; options as colours
    rep: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}
    for v in nodes:
        c = colour[v]
        if c not in rep:
            rep[c] = (tuple(sorted({colour[w] for w in graph[v][0]})),
                      tuple(sorted({colour[w] for w in graph[v][1]})))
    # breadth-first numbering from the start, options in colour order: canonical
    first = colour[start]
    number = {first: 0}
    queue = deque([first])
    while queue:
        c = queue.popleft()
        for w in (*rep[c][0], *rep[c][1]):
            if w not in number:
                number[w] = len(number)
                queue.append(w)
    out: list[Any] = [None] * len(number)
    for c, k in number.items():
        out[k] = (tuple(sorted(number[w] for w in rep[c][0])),
                  tuple(sorted(number[w] for w in rep[c][1])))
    return LoopyGame._make(tuple(out))


def _find_cycle(graph: Graph) -> list[int] | None:
    """One directed cycle of the graph (edges of either player), or None."""
    state = [0] * len(graph)  # 0 new, 1 on the stack, 2 done
    for root in range(len(graph)):
        if state[root]:
            continue
        stack = [(root, iter((*graph[root][0], *graph[root][1])))]
        path = [root]
        state[root] = 1
        while stack:
            v, it = stack[-1]
            w = next(it, None)
            if w is None:
                state[v] = 2
                stack.pop()
                path.pop()
                continue
            if state[w] == 1:
                return path[path.index(w):]
            if state[w] == 0:
                state[w] = 1
                path.append(w)
                stack.append((w, iter((*graph[w][0], *graph[w][1]))))
    return None


def _alternating_cycle(graph: Sequence[tuple[Sequence[int], Sequence[int]]]) -> list | None:
    """A cycle of alternating play ``[(position, player to move), ...]``, or None."""
    n = len(graph)
    state = [[0, 0] for _ in range(n)]
    for root in range(n):
        for rm in (0, 1):
            if state[root][rm]:
                continue
            path = [(root, rm)]
            state[root][rm] = 1
            stack = [iter(graph[root][rm])]
            while stack:
                v, m = path[-1]
                w = next(stack[-1], None)
                if w is None:
                    state[v][m] = 2
                    stack.pop()
                    path.pop()
                    continue
                if state[w][1 - m] == 1:
                    return path[path.index((w, 1 - m)):]
                if state[w][1 - m] == 0:
                    state[w][1 - m] = 1
                    path.append((w, 1 - m))
                    stack.append(iter(graph[w][1 - m]))
    return None


def _postorder(graph: Graph) -> list[int]:
    """Positions of an acyclic graph, every option before the positions that reach it."""
    out: list[int] = []
    done = [False] * len(graph)
    for root in range(len(graph)):
        if done[root]:
            continue
        stack = [(root, iter((*graph[root][0], *graph[root][1])))]
        done[root] = True
        while stack:
            v, it = stack[-1]
            w = next(it, None)
            if w is None:
                out.append(v)
                stack.pop()
            elif not done[w]:
                done[w] = True
                stack.append((w, iter((*graph[w][0], *graph[w][1]))))
    return out


def _named() -> dict[str, LoopyGame]:
    """The games with names in Winning Ways ch. 11 and CGSuite."""
    z = ((), ())
    return {
        "on": loopy_game([((0,), ())]),                       # on = {pass|}
        "off": loopy_game([((), (0,))]),                      # off = {|pass}
        "dud": loopy_game([((0,), (0,))]),                    # dud = {pass|pass}
        "over": loopy_game([((1,), (0,)), z]),                # over = {0|pass}
        "under": loopy_game([((0,), (1,)), z]),               # under = {pass|0}
        "upon": loopy_game([((0,), (1,)), ((2,), (2,)), z]),  # upon = {pass|*}
        "tis": loopy_game([((1,), ()), ((), (0,))]),          # tis = {tisn|}
        "tisn": loopy_game([((), (1,)), ((0,), ())]),         # tisn = {|tis}
    }


_NAMED: dict[str, LoopyGame] = {}


def named_loopy() -> dict[str, LoopyGame]:
    """The named loopy games (``on``, ``off``, ``dud``, ``over``, ``under``, ``upon``, ``tis``,
    ``tisn``), built once and kept."""
    if not _NAMED:
        _NAMED.update(_named())
    return _NAMED


NAMED_LOOPY = ("on", "off", "dud", "over", "under", "upon", "tis", "tisn")


def options_graph(games: Iterable[LoopyGame]) -> tuple[Graph, list[int]]:
    """The disjoint union of the games' graphs and each game's start in it."""
    out: list[Any] = []
    starts = []
    for g in games:
        base = len(out)
        starts.append(base)
        out.extend((tuple(base + w for w in lo), tuple(base + w for w in ro)) for lo, ro in g._graph)
    return tuple(out), starts
