"""Sidling: the onside and offside of a loopy game as the limit of stoppers.

Winning Ways ch. 11 ("sidling into sums") and Siegel, *Combinatorial Game Theory* (2013),
ch. VI: the onside ``G⁺`` of a game is found by guessing ``on`` for every position of its
graph and sidling down,

    ``S₀(v) = on``,   ``Sₖ₊₁(v) = { Sₖ(vᴸ) | Sₖ(vᴿ) }``  (each a canonical stopper),

and the offside ``G⁻`` the same way up from ``off``. Each ``Sₖ(v)`` is a stopper (its options
are stoppers and it is a fresh position, on no cycle), the onside sequence decreases and stays
``≥ G⁺`` (``on ≥ G⁺``, and ``{·|·}`` is monotone while ``G⁺ = {(Gᴸ)⁺ | (Gᴿ)⁺}``), the offside
sequence increases and stays ``≤ G⁻``. When it settles (``Sₖ₊₁ = Sₖ`` as canonical stoppers),
the limit is a fixed point of the equations the sides satisfy; :func:`sidle` then *checks* that
it equals the side asked (the onside comparisons of :func:`cgtalg.normal.loopy.le_matrix`,
the Büchi game of the product graph), so what it returns is certified, never assumed.

The sequence need not settle in finitely many steps (``over − over``: the onside approximations
``{on|over} > {{on|over}|over} > ...`` fall towards ``over`` without reaching it; a position
``{0|x}`` falls through ``1, 1/2, 1/4, ...`` towards ``over``). After each step the limit the
step points at is tried (:func:`_limit`): each position keeps the options whose
approximations survived simplification, as a graph on the game's own positions, so that
``Sₖ₊₁ = {0|Sₖ}`` closes into ``a:{0|a} = over``; it too is checked before it is returned.
The graph simplification of :mod:`cgtalg.normal.loopy_simplify` is tried first (it is cheaper),
sidling when its result is not the side (:func:`cgtalg.normal.loopy_simplify.onside`).
Games whose sides are not stoppers (Bach's Carousel, Winning Ways ch. 11) have no stopper to
find, and a few others do not settle within :data:`SIDLING_STEPS` steps; both are refused.
"""

from __future__ import annotations

from typing import Any

from cgtalg.core.loopy import LoopyGame, Sides, _canonical, as_loopy, named_loopy, options_graph
from cgtalg.errors import ArgumentError
from cgtalg.normal.loopy import le_matrix

__all__ = ["sidle", "sided_sum", "sides_game", "SIDLING_STEPS", "SIDLING_SIZE"]

#: the most sidling steps tried (each recomputes every position of the graph)
SIDLING_STEPS = 16
#: the largest approximation (in positions) kept before sidling gives up
SIDLING_SIZE = 60


def _option_game(left: list[LoopyGame], right: list[LoopyGame]) -> LoopyGame:
    """The canonical stopper ``{left | right}`` of stoppers."""
    from cgtalg.normal.loopy_simplify import _simplify

    return _simplify(_option_game_raw(left, right), "stopper")


def sidle(game: Any, side: str, steps: int = SIDLING_STEPS) -> LoopyGame | None:
    """The side of ``game`` found by sidling (module docstring), or ``None`` when the
    sequence does not settle within ``steps`` steps (or grows past :data:`SIDLING_SIZE`
    positions), or settles on a stopper that is not the side.

    Parameters
    ----------
    game
        A loopy game (or its text).
    side
        ``'onside'`` (sidle down from ``on``) or ``'offside'`` (up from ``off``).

    Returns
    -------
    LoopyGame or None
        A canonical stopper equal to the side asked (checked), or ``None``.

    Examples
    --------
    >>> import cgtalg as cg
    >>> str(sidle(cg.parse_loopy("a:{|{a,{a|pass}|}}"), "offside"))
    '-1'
    >>> str(sidle(cg.parse_loopy("dud"), "onside")), str(sidle(cg.parse_loopy("tis"), "onside"))
    ('on', '1')
    >>> str(sidle(cg.parse_loopy("over - over"), "onside"))  # the limit of {on|over}, ...
    'over'

    Raises
    ------
    ArgumentError
        If ``side`` is not ``'onside'`` or ``'offside'``.

    References
    ----------
    Winning Ways ch. 11 ("sidling into sums"); Siegel, CGT ch. VI (onsides and offsides).
    """
    if side not in ("onside", "offside"):
        raise ArgumentError(f"sidle: side must be 'onside' or 'offside', not {side!r}")
    game = as_loopy(game)
    graph = game.graph
    start = named_loopy()["on" if side == "onside" else "off"]
    values: list[LoopyGame] = [start] * len(graph)
    memo: dict[tuple, LoopyGame] = {}
    for _ in range(steps):
        new = []
        for lo, ro in graph:
            key = (tuple(id(values[w]) for w in lo), tuple(id(values[w]) for w in ro))
            if key not in memo:
                memo[key] = _option_game([values[w] for w in lo], [values[w] for w in ro])
            new.append(memo[key])
        if all(a is b for a, b in zip(new, values)):
            return new[0] if _equals_side(new[0], game, side) else None
        found = _limit(game, values, new, side)
        if found is not None:
            return found
        if max(g.size for g in new) > SIDLING_SIZE:
            return None
        values = new
    return None


def _limit(game: LoopyGame, old: list[LoopyGame], new: list[LoopyGame], side: str) -> LoopyGame | None:
    """The limit the sequence points at, when one step keeps a pattern: every position ``v``
    keeps the options ``w`` whose approximation ``Sₖ(w)`` is still an option of ``Sₖ₊₁(v)``
    (the others were dominated), an option that ``Sₖ₊₁(v)`` gained by bypassing becomes the
    position ``w`` when it is ``Sₖ(w)``, and a fixed stopper otherwise. When that graph is a
    stopper equal to the side asked (checked), it is the side: ``{0 | Sₖ}`` falling through
    ``1, 1/2, 1/4, ...`` points at ``a:{0|a} = over``."""
    from cgtalg.normal.loopy import _alternating_cycle
    from cgtalg.normal.loopy_simplify import _simplify

    graph = game.graph
    n = len(graph)
    anywhere = {id(x): w for w, x in enumerate(old)}  # a gained option that is some Sₖ(w)
    extra: list[LoopyGame] = []
    where: dict[int, int] = {}
    nodes: list[tuple[list[int], list[int]]] = []
    for v, (lo, ro) in enumerate(graph):
        sides = []
        for mover, opts in ((0, lo), (1, ro)):
            kept = (new[v].left, new[v].right)[mover]
            out = []
            for x in kept:
                mine = [w for w in opts if old[w] is x]
                if mine:
                    out.extend(mine)
                elif id(x) in anywhere:
                    out.append(anywhere[id(x)])
                else:
                    if id(x) not in where:
                        where[id(x)] = len(extra)
                        extra.append(x)
                    out.append(-1 - where[id(x)])
            sides.append(out)
        nodes.append((sides[0], sides[1]))
    union, starts = options_graph(extra)

    def at(i: int) -> int:
        return i if i >= 0 else n + starts[-1 - i]

    full = [(tuple(at(i) for i in lo), tuple(at(i) for i in ro)) for lo, ro in nodes]
    full.extend((tuple(n + w for w in lo), tuple(n + w for w in ro)) for lo, ro in union)
    candidate = _canonical(tuple(full), 0)
    if _alternating_cycle(candidate.graph) is not None or not _equals_side(candidate, game, side):
        return None
    return _simplify(candidate, "stopper")


def _equals_side(stopper: LoopyGame, game: LoopyGame, side: str) -> bool:
    """Whether a stopper equals ``game`` on ``side`` (both onside / offside comparisons)."""
    return le_matrix(stopper.graph, game.graph, side)[0][0] and le_matrix(game.graph, stopper.graph, side)[0][0]


def sided_sum(*games: Any) -> Sides:
    """The sides of a sum of loopy games or ``s & t`` values: ``(G + H)⁺ = (G⁺ + H⁺)⁺`` and
    ``(G + H)⁻ = (G⁻ + H⁻)⁻`` (Siegel VI; Winning Ways ch. 11, "sidling into sums"): each
    side of the sum is the side of the sum of the stoppers on that side.

    Examples
    --------
    >>> str(sided_sum("1 & 0", "0 & -1"))          # tis + tisn
    '1 & -1'
    >>> str(sided_sum("on", "off")), str(sided_sum("over", "under"))
    ('dud', 'over & under')

    Raises
    ------
    UnsupportedError
        When a side of the sum is found by neither simplification nor sidling.
    """
    from cgtalg.core.loopy import loopy_sum
    from cgtalg.normal.loopy_simplify import _side, loopy_sides

    parts = [loopy_sides(g) for g in games]
    on = loopy_sum(*(p.onside for p in parts))
    off = loopy_sum(*(p.offside for p in parts))
    return Sides(_side(on, "onside"), _side(off, "offside"))


def sides_game(x: Any) -> LoopyGame:
    """A game whose onside and offside are the sides of ``x`` (a game graph for ``s & t``).

    With ``s ≥ t`` canonical stoppers (``s`` itself when they are the same) and ``Z = {|dud}``
    (``Z = 0 & off``: ``{|on} = 0``, ``{|off} = off``), the game

        ``{ sᴸ + Z, tᴸ | sᴿ, tᴿ − Z }``

    has onside ``s`` and offside ``t``: a position's sides are the sides of the game of its
    options' sides (``G⁺ = {(Gᴸ)⁺ | (Gᴿ)⁺}``), so the onside is ``{sᴸ, tᴸ | sᴿ, on}`` and the
    offside ``{off, tᴸ | sᴿ, tᴿ}``; ``off`` as a Left option and ``on`` as a Right option are
    bypassed to nothing (reversible through ``off ≤ G``, ``on ≥ G``), ``tᴸ ⧏ t ≤ s`` adds
    nothing to ``s`` and ``sᴿ ⧐ s ≥ t`` nothing to ``t``. :func:`cgtalg.loopy_sides` of the
    result gives ``s & t`` back (checked in the tests on every ordered pair of a list of
    stoppers, and by play).

    Parameters
    ----------
    x
        A :class:`cgtalg.core.loopy.Sides` record, ``s & t`` text, or any loopy game (its
        sides).

    Returns
    -------
    LoopyGame
        A graph (a stopper when the sides are equal).

    Raises
    ------
    ArgumentError
        For ``s & t`` with ``s`` not ≥ ``t``.

    Examples
    --------
    >>> import cgtalg as cg
    >>> g = sides_game("1 & -1")
    >>> str(cg.loopy_sides(g)), cg.loopy_outcome(g).name
    ('1 & -1', 'D')
    >>> sides_game("2 & 2") is cg.parse_loopy("2")
    True

    References
    ----------
    Winning Ways ch. 11 (onsides and offsides, ``dud``); Siegel, CGT ch. VI.
    """
    from cgtalg.normal.loopy_simplify import loopy_sides

    sides = loopy_sides(x)
    s, t = sides.onside, sides.offside
    if s is t:
        return s
    z = _option_game_raw([], [named_loopy()["dud"]])  # {|dud} = 0 & off
    zero_on = -z                                       # {dud|} = on & 0
    left = [a + z for a in s.left] + list(t.left)
    right = list(s.right) + [b + zero_on for b in t.right]
    return _option_game_raw(left, right)


def _option_game_raw(left: list[LoopyGame], right: list[LoopyGame]) -> LoopyGame:
    """The game ``{left | right}`` of loopy games (no simplification)."""
    games = list(dict.fromkeys(left + right))
    union, starts = options_graph(games)
    at = {id(g): s for g, s in zip(games, starts)}
    top = (tuple(at[id(g)] for g in left), tuple(at[id(g)] for g in right))
    return _canonical((*union, top), len(union))
