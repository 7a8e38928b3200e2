"""Loopy games in normal play: outcomes with draws, stoppers, and comparison.

A loopy game (:class:`cgtalg.LoopyGame`) is played on a finite graph; play may go on forever,
which is a draw (Winning Ways ch. 11; Siegel, *Combinatorial Game Theory* (2013), VI.1).

- :func:`loopy_outcome`: who wins with Left or with Right moving first (Left wins, Right wins,
  or draw), by retrograde analysis of the graph of (position, player to move): a player
  without a move loses; a position is won by the mover if some move leads to a position lost
  by the opponent, lost if every move leads to one won by the opponent, drawn otherwise. The
  outcome classes are CGSuite's: ``L``, ``R``, ``N``, ``P``, ``D`` (draw both ways), ``PHat``
  (Left first: draw, Right first: Left wins), ``PCheck`` (Right wins / draw), ``NHat`` (Left
  wins / draw), ``NCheck`` (draw / Right wins).
- :func:`is_stopper`: no infinite alternating play from any position (Siegel VI.2).
- :func:`loopy_le`: ``G ≤ H``. For stoppers (Siegel VI.2): Left, moving second in ``H − G``,
  survives (never runs out of moves; infinite play is fine for her). In general (Siegel VI.3,
  Conway's onsides and offsides; CGSuite's algorithm of sides): ``G ≤ H`` iff ``G⁺ ≤ H⁺`` and
  ``G⁻ ≤ H⁻``, where the onside comparison is the game ``H − G`` in which Left, moving
  second, must either win or make the play infinite *in H* (infinitely many moves in the
  ``H`` component: ``H⁺`` gives Left the infinite plays of ``H``, ``−G⁺ = (−G)⁻`` gives Right
  those of ``−G``), and the offside comparison the same with *in −G*. These are Büchi
  games on the product graph, solved as the nested fixed point ``νZ.μY``.

Canonical stoppers and sides are in :mod:`cgtalg.normal.loopy_simplify`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from cgtalg.core.loopy import LoopyGame, Sides, _alternating_cycle, as_loopy, options_graph
from cgtalg.errors import ArgumentError

__all__ = [
    "LoopyOutcome", "loopy_outcome", "is_stopper", "loopy_le", "loopy_relation", "le_matrix",
    "OUTCOME_CLASSES", "SIDES", "checked_sides",
]

#: the comparison modes: a stopper's, and the two sides'
SIDES = ("stopper", "onside", "offside")

#: CGSuite's loopy outcome classes by (Left first, Right first) winners ('L', 'R' or 'D')
OUTCOME_CLASSES = {
    ("L", "L"): "L", ("R", "R"): "R", ("L", "R"): "N", ("R", "L"): "P", ("D", "D"): "D",
    ("L", "D"): "NHat", ("R", "D"): "PCheck", ("D", "L"): "PHat", ("D", "R"): "NCheck",
}


@dataclass(frozen=True)
class LoopyOutcome:
    """Who wins a loopy game in normal play with each player moving first.

    Attributes
    ----------
    left_first, right_first : str
        ``'L'`` (Left wins), ``'R'`` (Right wins) or ``'D'`` (draw: play goes on forever
        with both playing well).
    name : str
        CGSuite's outcome class (:data:`OUTCOME_CLASSES`).
    """

    left_first: str
    right_first: str

    @property
    def name(self) -> str:
        return OUTCOME_CLASSES[(self.left_first, self.right_first)]

    def __str__(self) -> str:
        return self.name

    def to_json(self) -> dict:
        return {"outcome": self.name, "left_first": self.left_first,
                "right_first": self.right_first}

    def _repr_html_(self) -> str:
        """Notebook view: the outcome class and who wins with each player moving first."""
        from cgtalg.core.display import card

        who = {"L": "Left wins", "R": "Right wins", "D": "a draw (play goes on forever)"}
        return card(f"loopy outcome {self.name}", [("Left moves first", who[self.left_first]),
                                                   ("Right moves first", who[self.right_first])],
                    kind="outcome")


def _graph(g: Any) -> tuple:
    return as_loopy(g).graph


def checked_sides(x: Sides) -> Sides:
    """A :class:`Sides` record whose onside is ≥ its offside (both stoppers, as the reader
    checks), unchanged.

    Raises
    ------
    ArgumentError
        When the onside is not ≥ the offside (``s & t`` needs ``s ≥ t``), naming both.
    """
    if not le_matrix(x.offside.graph, x.onside.graph, "stopper")[0][0]:
        raise ArgumentError(f"'{x.onside} & {x.offside}' is not a value: the onside "
                            f"{x.onside} is not ≥ the offside {x.offside} (s & t needs s ≥ t)")
    return x


def _loopy_or_sides(x: Any) -> LoopyGame | Sides:
    """A loopy game, or a value by its sides made canonical (:func:`cgtalg.loopy_sides`)."""
    if isinstance(x, str):
        from cgtalg.core.loopy_notation import parse_loopy

        x = parse_loopy(x)
    if isinstance(x, Sides):
        from cgtalg.normal.loopy_simplify import loopy_sides

        return loopy_sides(x)
    return as_loopy(x)


def _on_side(x: LoopyGame | Sides, side: str) -> tuple:
    """The graph that stands for ``x`` on ``side``: a game's own graph (compared on that
    side), or the stopper a :class:`Sides` record gives for it."""
    if isinstance(x, Sides):
        return (x.onside if side == "onside" else x.offside).graph
    return x.graph


def loopy_outcome(g: Any) -> LoopyOutcome:
    """The outcome of a loopy game with draws, by retrograde analysis of its graph.

    Parameters
    ----------
    g
        A :class:`cgtalg.LoopyGame`, loopy game text (``s & t`` too), a short form, or a
        :class:`cgtalg.core.loopy.Sides` record.

    Returns
    -------
    LoopyOutcome

    Examples
    --------
    >>> import cgtalg as cg
    >>> [loopy_outcome(t).name for t in ("on", "off", "dud", "over", "upon", "tis")]
    ['L', 'R', 'D', 'L', 'L', 'PHat']
    >>> loopy_outcome("1 & 0").name, loopy_outcome("on & off").name   # tis, dud
    ('PHat', 'D')

    References
    ----------
    Winning Ways ch. 11 ("Games infinite and indefinite"); Siegel, CGT VI.1.
    """
    x = _loopy_or_sides(g)
    if isinstance(x, Sides):
        return _sides_outcome(x)
    win = _retrograde(x.graph)
    lf = {1: "L", -1: "R", 0: "D"}[win[0][0]]
    rf = {1: "R", -1: "L", 0: "D"}[win[0][1]]
    return LoopyOutcome(lf, rf)


def _sides_outcome(x: Sides) -> LoopyOutcome:
    """The outcome of ``s & t``: Left moving first wins when she wins ``t`` moving first (a
    win in the offside, where infinite play is Right's, is a win), loses when she loses ``s``
    moving first (a loss even in the onside); dually for Right; otherwise the play is drawn
    (Siegel VI.3: ``G ⊳ 0`` iff ``G⁻ ⊳ 0``, ``G ≤ 0`` iff ``G⁺ ≤ 0``)."""
    on, off = _retrograde(x.onside.graph), _retrograde(x.offside.graph)
    lf = "L" if off[0][0] == 1 else "R" if on[0][0] == -1 else "D"
    rf = "R" if on[0][1] == 1 else "L" if off[0][1] == -1 else "D"
    return LoopyOutcome(lf, rf)


def _retrograde(graph: Sequence[tuple[Sequence[int], Sequence[int]]]) -> list[list[int]]:
    """``win[v][m]``: +1 if the player ``m`` (0 Left, 1 Right) to move at ``v`` wins, -1 if
    they lose, 0 for a draw."""
    n = len(graph)
    win = [[0, 0] for _ in range(n)]
    count = [[len(graph[v][0]), len(graph[v][1])] for v in range(n)]
    pred: list[list[list[int]]] = [[[], []] for _ in range(n)]  # pred[w][m]: v with w in opts_m(v)
    for v in range(n):
        for m in (0, 1):
            for w in graph[v][m]:
                pred[w][m].append(v)
    todo = []
    for v in range(n):
        for m in (0, 1):
            if count[v][m] == 0:
                win[v][m] = -1
                todo.append((v, m))
    while todo:
        w, mw = todo.pop()
        m = 1 - mw  # the player who moved to (w, mw)
        for v in pred[w][m]:
            if win[v][m]:
                continue
            if win[w][mw] == -1:
                win[v][m] = 1
                todo.append((v, m))
            else:
                count[v][m] -= 1
                if count[v][m] == 0:
                    win[v][m] = -1
                    todo.append((v, m))
    return win


def is_stopper(g: Any) -> bool:
    """Whether no infinite alternating play starts at any position of the game (Siegel VI.2).

    Examples
    --------
    >>> import cgtalg as cg
    >>> [is_stopper(t) for t in ("on", "over", "upon", "dud", "tis", "on + off")]
    [True, True, True, False, False, False]
    """
    from cgtalg.core.partizan import PartizanGame

    if isinstance(g, PartizanGame):  # a short game: no cycle, so no infinite play at all
        return True
    return _alternating_cycle(_graph(g)) is None


def le_matrix(a: Sequence, b: Sequence, side: str = "stopper") -> list[list[bool]]:
    """``le[x][y]``: whether position ``x`` of graph ``a`` is ≤ position ``y`` of graph ``b``,
    compared as stoppers (``side='stopper'``: Left survives ``y − x`` moving second) or as
    onsides / offsides (the Büchi games of the module docstring).

    Parameters
    ----------
    a, b
        Graphs: ``graph[v] = (left options, right options)`` (:attr:`cgtalg.LoopyGame.graph`).
    side
        ``'stopper'``, ``'onside'`` or ``'offside'``.
    """
    if side not in SIDES:
        raise ArgumentError(f"le_matrix: side must be one of {', '.join(SIDES)}, not {side!r}")
    na, nb = len(a), len(b)
    nstates = 2 * na * nb

    def sid(x: int, y: int, m: int) -> int:
        return (x * nb + y) * 2 + m

    # moves of y − x: Left (m=0) moves y→y^L (a b-move) or x→x^R (an a-move); Right (m=1)
    # moves y→y^R or x→x^L. Free moves need only land in Z; the others must make progress.
    free_b = side in ("stopper", "onside")
    free_a = side in ("stopper", "offside")
    free: list[list[int]] = [[] for _ in range(nstates)]
    slow: list[list[int]] = [[] for _ in range(nstates)]
    slow_pred: list[list[int]] = [[] for _ in range(nstates)]
    for x in range(na):
        for y in range(nb):
            for m in (0, 1):
                s = sid(x, y, m)
                ymoves = [sid(x, w, 1 - m) for w in b[y][m]]
                xmoves = [sid(w, y, 1 - m) for w in a[x][1 - m]]
                (free if free_b else slow)[s].extend(ymoves)
                (free if free_a else slow)[s].extend(xmoves)
    for s in range(nstates):
        for t in slow[s]:
            slow_pred[t].append(s)
    in_z = [True] * nstates
    while True:
        in_y = [False] * nstates
        count = [0] * nstates
        todo = []
        for s in range(nstates):
            if s % 2 == 0:  # Left to move
                if any(in_z[t] for t in free[s]):
                    in_y[s] = True
                    todo.append(s)
            elif all(in_z[t] for t in free[s]):
                count[s] = len(slow[s])
                if count[s] == 0:
                    in_y[s] = True
                    todo.append(s)
            else:
                count[s] = -1
        while todo:
            t = todo.pop()
            for s in slow_pred[t]:
                if in_y[s]:
                    continue
                if s % 2 == 0:
                    in_y[s] = True
                    todo.append(s)
                elif count[s] > 0:
                    count[s] -= 1
                    if count[s] == 0:
                        in_y[s] = True
                        todo.append(s)
        if in_y == in_z:
            break
        in_z = in_y
    return [[in_z[sid(x, y, 1)] for y in range(nb)] for x in range(na)]


def loopy_le(g: Any, h: Any) -> bool:
    """``G ≤ H`` for loopy games (module docstring): stoppers by survival, other games by
    their onsides and offsides; either may be a :class:`cgtalg.core.loopy.Sides` record
    (``s & t``), whose sides stand for it on each side.

    Examples
    --------
    >>> import cgtalg as cg
    >>> loopy_le("over", "on"), loopy_le("on", "over"), loopy_le("0", "over")
    (True, False, True)
    >>> loopy_le("dud", "on"), loopy_le("off", "dud"), loopy_le("on", "dud")
    (True, True, False)
    >>> loopy_le("tis + tisn", "1 & -1"), loopy_le("1 & -1", "tis + tisn")
    (True, True)
    """
    a, b = _loopy_or_sides(g), _loopy_or_sides(h)
    if isinstance(a, LoopyGame) and isinstance(b, LoopyGame) and is_stopper(a) and is_stopper(b):
        return le_matrix(a.graph, b.graph, "stopper")[0][0]
    return all(le_matrix(_on_side(a, side), _on_side(b, side), side)[0][0]
               for side in ("onside", "offside"))


def side_le(g: Any, h: Any, side: str) -> bool:
    """``G⁺ ≤ H⁺`` (``side='onside'``) or ``G⁻ ≤ H⁻`` (``'offside'``)."""
    a, b = _loopy_or_sides(g), _loopy_or_sides(h)
    return le_matrix(_on_side(a, side), _on_side(b, side), side)[0][0]


def loopy_relation(g: Any, h: Any) -> str:
    """``'='``, ``'<'``, ``'>'`` or ``'||'`` between two loopy games.

    Examples
    --------
    >>> loopy_relation("on + off", "dud"), loopy_relation("over", "0"), loopy_relation("upon", "*")
    ('=', '>', '||')
    """
    le, ge = loopy_le(g, h), loopy_le(h, g)
    return "=" if le and ge else "<" if le else ">" if ge else "||"


def union_le(games: Sequence[LoopyGame], side: str) -> tuple[list[list[bool]], list[int]]:
    """The comparison matrix of every position of the games' disjoint union, and each game's
    start in it."""
    graph, starts = options_graph(games)
    return le_matrix(graph, graph, side), starts
