"""Canonical stoppers, and the onsides and offsides of loopy games.

Simplification of a stopper (Siegel, *Combinatorial Game Theory* (2013), VI.2; Winning Ways
ch. 11): with the order of every pair of its positions known (:func:`cgtalg.normal.loopy.le_matrix`,
computed once: each step below keeps every position's value),

1. remove dominated options (a Left option ≤ another Left option, a Right option ≥ another);
2. bypass reversible options (a Left option ``A`` of ``X`` with some ``A^R ≤ X`` is replaced by
   the Left options of that ``A^R``; dually for Right);
3. fuse equal positions (the graph quotient by equality),

until nothing changes. The result is the unique simplest stopper equal to the game (Siegel
VI.2: two simplified stoppers that are equal have isomorphic graphs), so two stoppers are
equal exactly when their canonical stoppers are the same :class:`cgtalg.LoopyGame`.

Sides (Siegel VI.3; Winning Ways ch. 11, "sidling"): every loopy game ``G`` met here is
``G = s & t`` with stoppers ``s = G⁺`` (the onside) ≥ ``t = G⁻`` (the offside). The onside is
found by the same simplification under the onside order (Büchi comparison), where a Right option
that Left can answer by moving straight back (a Right option reversible through the position
itself) is deleted, since the infinite play it starts is Left's in the onside; dually for the
offside (reversible options are bypassed before dominated ones are removed, so that an option
deleted this way never removes the options that replace it). What comes out is checked: it must
be a stopper equal, on that side, to ``G``; when it is not, the side is sidled
(:mod:`cgtalg.normal.loopy_sidling`: the limit of ``on``, ``{on-approximations}``, ...), and
only when that finds no stopper either (games whose sides are not stoppers, such as Bach's
Carousel) is the side refused with :class:`cgtalg.errors.UnsupportedError` rather than
guessed.
"""

from __future__ import annotations

from typing import Any

from cgtalg.core.loopy import LoopyGame, Sides, _canonical, _reachable, as_loopy
from cgtalg.errors import GameKindError, UnsupportedError
from cgtalg.normal.loopy import _alternating_cycle, is_stopper, le_matrix

__all__ = ["canonical_stopper", "onside", "offside", "Sides", "loopy_sides"]

_STEP_LIMIT = 100_000


def canonical_stopper(g: Any) -> LoopyGame:
    """The canonical (simplest) form of a stopper.

    Parameters
    ----------
    g
        A stopper: a :class:`cgtalg.LoopyGame` (or its text) with no infinite alternating play.

    Returns
    -------
    LoopyGame
        The simplest stopper equal to ``g`` (a short game's canonical form when it has no cycle).

    Raises
    ------
    GameKindError
        If ``g`` is not a stopper (naming an alternating cycle); its sides answer instead
        (:func:`loopy_sides`).

    Examples
    --------
    >>> import cgtalg as cg
    >>> str(canonical_stopper("{0, pass | }")), str(canonical_stopper("{0|{0|pass}}"))
    ('on', 'over')
    >>> str(canonical_stopper("over + 1/2"))
    '1/2over'

    References
    ----------
    Siegel, CGT VI.2 (simplification of stoppers); Winning Ways ch. 11.
    """
    game = as_loopy(g)
    cycle = _alternating_cycle(game.graph)
    if cycle is not None:
        who = ["Left", "Right"]
        shown = " -> ".join(f"{v} ({who[m]} to move)" for v, m in cycle[:8])
        raise GameKindError(f"canonical_stopper({_short(game)}): not a stopper: alternating play "
                            f"can go round {shown} forever (positions numbered from the start, 0); "
                            "cgtalg.loopy_sides answers instead", ("cgtalg.loopy_sides",))
    out = _simplify(game, "stopper")
    _check(out, game, "stopper")
    return out


def _short(g: LoopyGame) -> str:
    s = str(g)
    return s if len(s) <= 60 else s[:57] + "..."


def _simplify(game: LoopyGame, side: str) -> LoopyGame:
    graph = [(list(lo), list(ro)) for lo, ro in game.graph]
    le = le_matrix(game.graph, game.graph, side)
    n = len(graph)
    steps = 0
    changed = True
    while changed:
        changed = False
        for v in _reachable(graph, 0):
            for mover in (0, 1):
                steps += 1
                if steps > _STEP_LIMIT * max(1, n):  # pragma: no cover - a guard
                    raise UnsupportedError(f"simplifying {_short(game)} did not settle")
                # reversible first: Left option a with a^R ≤ v; Right option a with a^L ≥ v
                # (in a side, an option reversible through v itself is deleted, so it must
                # not first remove, as dominated, the options that replace it)
                if _bypass_one(graph, le, v, mover, side):
                    changed = True
                    continue
                opts = graph[v][mover]
                allowed = _self_reversal_allowed(side, mover)
                doomed = {a for a in opts if allowed and v in graph[a][1 - mover]}
                # dominated: Left keeps the greatest options, Right the least
                keep = []
                for a in opts:
                    dominated = False
                    for b in opts:
                        if b == a or b in doomed or b == v and allowed:
                            continue  # an option the side deletes dominates nothing
                        better = le[a][b] if mover == 0 else le[b][a]
                        worse = le[b][a] if mover == 0 else le[a][b]
                        if better and (not worse or b < a):
                            dominated = True
                            break
                    if not dominated:
                        keep.append(a)
                if len(keep) != len(opts):
                    graph[v] = (keep, graph[v][1]) if mover == 0 else (graph[v][0], keep)
                    changed = True
    # fusion: equal positions become one
    reach = _reachable(graph, 0)
    rep = {}
    for v in reach:
        rep[v] = next((u for u in reach if u <= v and le[u][v] and le[v][u]), v)
    fused = [(sorted({rep[w] for w in graph[v][0]}), sorted({rep[w] for w in graph[v][1]}))
             if v in rep else ((), ()) for v in range(n)]
    out = _canonical(tuple((tuple(lo), tuple(ro)) for lo, ro in fused), rep[0])
    if out.graph != game.graph and out.size <= game.size:
        again = _simplify(out, side)  # fusion can make options dominated or reversible again
        return again
    return out


def _bypass_one(graph: list, le: list, v: int, mover: int, side: str) -> bool:
    """Bypass one reversible option of ``v`` for ``mover`` (0 Left, 1 Right); whether one was."""
    for a in list(graph[v][mover]):
        for r in graph[a][1 - mover]:
            if not (le[r][v] if mover == 0 else le[v][r]):
                continue
            if r == v and not _self_reversal_allowed(side, mover):
                continue
            if r != v and a in graph[r][mover]:
                continue  # a replaced by options that include a: no progress
            new = [o for o in graph[v][mover] if o != a]
            for o in graph[r][mover]:
                if o != a and o not in new:
                    new.append(o)
            graph[v] = (new, graph[v][1]) if mover == 0 else (graph[v][0], new)
            return True
    return False


def _self_reversal_allowed(side: str, mover: int) -> bool:
    """A Right option reversible through the position itself is deleted in the onside (the
    play round that loop is infinite, won by Left there); a Left one in the offside."""
    return (side == "onside" and mover == 1) or (side == "offside" and mover == 0)


def _check(out: LoopyGame, game: LoopyGame, side: str) -> None:
    """The simplified game must be a stopper equal to the game (on the side asked)."""
    if _alternating_cycle(out.graph) is not None:
        raise UnsupportedError(f"the {side if side != 'stopper' else 'simplest form'} of "
                               f"{_short(game)} is not a stopper: its sides are not stopper "
                               "sides (as for Bach's Carousel), which cgtalg does not compute")
    mode = "stopper" if side == "stopper" else side
    if not (le_matrix(out.graph, game.graph, mode)[0][0] and le_matrix(game.graph, out.graph, mode)[0][0]):
        raise UnsupportedError(f"the {side} found for {_short(game)} ({_short(out)}) does not "
                               "compare equal to it; cgtalg does not compute this side")


def onside(g: Any) -> LoopyGame:
    """The onside ``G⁺`` of a loopy game as a canonical stopper.

    Raises
    ------
    UnsupportedError
        When the onside found is not a stopper equal to ``G⁺`` (games whose sides are not
        stoppers).

    Examples
    --------
    >>> str(onside("dud")), str(onside("a:{{|a}|}")), str(onside("{0|{dud|},*}"))
    ('on', '1', '^')
    """
    return _side(as_loopy(g), "onside")


def offside(g: Any) -> LoopyGame:
    """The offside ``G⁻`` of a loopy game as a canonical stopper (see :func:`onside`).

    Examples
    --------
    >>> str(offside("dud")), str(offside("a:{{|a}|}")), str(offside("{0|{dud|},*}"))
    ('off', '0', 'v*')
    """
    return _side(as_loopy(g), "offside")


def _side(game: LoopyGame, side: str) -> LoopyGame:
    if is_stopper(game):
        return canonical_stopper(game)
    out = _simplify(game, side)
    try:
        _check(out, game, side)
    except UnsupportedError as first:
        from cgtalg.normal.loopy_sidling import sidle

        found = sidle(game, side)
        if found is None:
            raise UnsupportedError(f"no stopper found equal to the {side} of {_short(game)}: "
                                   f"simplification gives {_short(out)}, which is not it, and "
                                   "sidling from " + ("on" if side == "onside" else "off")
                                   + " does not settle on it within cgtalg.normal.loopy_sidling."
                                   "SIDLING_STEPS steps (games whose sides are not stoppers, "
                                   "such as Bach's Carousel, have none)") from first
        return found
    # the side is a stopper: its canonical form
    return _simplify(out, "stopper")


def loopy_sides(g: Any) -> Sides:
    """``G = G⁺ & G⁻``: the onside and offside as canonical stoppers (CGSuite's ``s & t``).

    Each side is found by simplifying the graph on that side, and when that does not give a
    stopper equal to the side, by sidling (:func:`cgtalg.normal.loopy_sidling.sidle`); what is
    returned is checked equal to the side either way.

    Parameters
    ----------
    g
        A :class:`cgtalg.LoopyGame`, loopy game text (``s & t`` too), a short form, or a
        :class:`cgtalg.core.loopy.Sides` record (made canonical).

    Returns
    -------
    Sides

    Raises
    ------
    UnsupportedError
        When neither method finds a stopper equal to a side: games whose sides are not
        stoppers (Bach's Carousel), and the rare games sidling does not settle on
        (:data:`cgtalg.normal.loopy_sidling.SIDLING_STEPS`).
    ArgumentError
        For ``s & t`` with ``s`` not ≥ ``t``.

    Examples
    --------
    >>> str(loopy_sides("on + off")), str(loopy_sides("a:{1||a|0}")), str(loopy_sides("over"))
    ('dud', '2 & ±1', 'over')
    >>> str(loopy_sides("{0|pass} & {0|-1}"))
    'over & {0|-1}'
    >>> str(loopy_sides("{2&-2|1&-2}"))   # CGSuite's EvalTest: {2|1} & -2*
    '{2|1} & -2*'

    References
    ----------
    Winning Ways ch. 11 (onsides, offsides, sidling); Siegel, CGT ch. VI.
    """
    from cgtalg.core.loopy_notation import parse_loopy
    from cgtalg.normal.loopy import checked_sides

    x = parse_loopy(g) if isinstance(g, str) else g
    if isinstance(x, Sides):  # s & t, or a game with such options: the sides of each part
        return checked_sides(Sides(_side(x.onside, "onside"), _side(x.offside, "offside")))
    x = as_loopy(x)
    return Sides(_side(x, "onside"), _side(x, "offside"))
