"""Play: :func:`outcome` and :func:`winning_moves`, for every kind of game, in normal or misère play.

Outcome classes are the field's: ``'P'`` (the second player wins), ``'N'`` (the first player
wins), and for partizan games ``'L'`` (Left wins whoever starts) and ``'R'``.
"""

from __future__ import annotations

from typing import Any

from cgtalg.core.game import Game
from cgtalg.core.partizan import PartizanGame
from cgtalg.errors import GameKindError, shorten
from cgtalg.ops.kinds import (
    Position,
    as_impartial,
    finite_nimber_value,
    heap_sum_positions,
    kind_of,
    read,
    refuse_loopy,
)

__all__ = ["outcome", "winning_moves"]


def _flag(misere: Any, operation: str) -> bool:
    if not isinstance(misere, bool):
        raise GameKindError(f"{operation}: misere must be True or False, not {shorten(misere)}")
    return misere


def outcome(g: Any, *, misere: bool = False, store: Any = None,
            max_seconds: float | None = None) -> str:
    """The outcome class of a game in normal play, or in misère play with ``misere=True``.

    Takes every kind of game (:mod:`cgtalg.ops.kinds`): impartial forms (``'P'`` or ``'N'``),
    partizan forms (``'L'``, ``'R'``, ``'P'`` or ``'N'``), positions of rulesets (heap positions
    answered from a certified period or a misère quotient where there is one; other rulesets by
    the generic solver), misère canonical forms (their class's outcome, in either play: the
    normal-play Grundy value is a misère invariant), nimbers, and game text.

    ``store`` memoises position answers (heap games and the generic solver); ``max_seconds``
    bounds the misère search of heap positions.

    Examples
    --------
    >>> import cgtalg as cg
    >>> [cg.outcome(t) for t in ("{*2}", "{1|-1}", "{0|}", "*2+*2")]
    ['P', 'N', 'L', 'P']
    >>> cg.outcome("{0|}", misere=True), cg.outcome(cg.position("0.123", 9, 8, 5, 3), misere=True)
    ('R', 'N')

    Text that is a sum of heap-game positions (``"kayles(30) + kayles(31)"``) is answered
    without building its form: in normal play by the XOR of the rulesets' Grundy values, in
    misère play (positions of one ruleset) by that ruleset's misère outcome of the heaps.
    """
    misere = _flag(misere, "outcome")
    parts = heap_sum_positions(g)
    if parts is not None and (not misere or len(parts) == 1):
        if misere:
            return _position_outcome(parts[0], True, store, max_seconds)
        from cgtalg.ops.values import grundy

        return "N" if grundy(g, store=store) else "P"
    x = read(g, normal_play=not misere)  # misère play needs the literal game the text describes
    kind = kind_of(x, "outcome")
    if kind == "loopy":  # outcomes with draws (CGSuite's classes: D, PHat, NCheck, ...)
        if misere:
            raise refuse_loopy("outcome", x, "misère play of loopy games is not defined here "
                               "(loopy games are played in normal play)")
        from cgtalg.normal.loopy import loopy_outcome

        return loopy_outcome(x).name
    if kind == "partizan":
        if misere:
            from cgtalg.misere.partizan import misere_outcome as partizan_misere_outcome

            return partizan_misere_outcome(x)
        from cgtalg.normal.partizan import outcome as partizan_outcome

        return partizan_outcome(x)
    if kind == "position":
        return _position_outcome(x, misere, store, max_seconds)
    if kind == "misere class":
        if misere:
            return x.misere_outcome
        x = x.game  # the normal-play outcome is an invariant of the misère class
    elif kind == "nimber" and finite_nimber_value(x) is None:
        return "N"  # *α with α ≥ ω: move to 0 (normal) or to *1 (misère)
    form = as_impartial(x, "outcome")
    if misere:
        from cgtalg.misere.outcome import misere_outcome

        return misere_outcome(form)
    from cgtalg.normal.grundy import normal_outcome

    return normal_outcome(form)


def _heap_rule(rs: Any, heaps: Any, misere: bool, store: Any) -> Any:
    """The stored largest-heap rule that answers the misère play of ``heaps`` (checked by the
    referee when read, :func:`cgtalg.ops.largest_heap.rule_for_position`), or None."""
    if not misere or store is None or store is False:
        return None
    from cgtalg.ops.largest_heap import rule_for_position

    return rule_for_position(rs, heaps, store)


def _position_outcome(p: Position, misere: bool, store: Any, max_seconds: float | None) -> str:
    rs = p.ruleset
    if p.is_heap_position and not p.has_end_rule:
        rule = _heap_rule(rs, p.value, misere, store)
        if rule is not None:            # a proved largest-heap rule: every position, any size
            return rule.outcome(list(p.value))
        return rs.outcome(list(p.value), misere=misere, store=store, max_seconds=max_seconds)
    from cgtalg.rulesets.solver import solve

    return solve(rs, p.value, misere, store=store).outcome


_SIDES = {"L": "L", "l": "L", "left": "L", "Left": "L", "R": "R", "r": "R", "right": "R", "Right": "R"}


def winning_moves(g: Any, *, misere: bool = False, player: str | None = None, store: Any = None,
                  max_seconds: float | None = None) -> Any:
    """The winning moves of the player to move: the options from which that player wins moving
    second.

    Impartial games: the options that are P-positions (in the play asked). Partizan games need
    ``player`` (``'L'`` or ``'R'``): Left's winning moves are the Left options ``G^L`` with
    outcome L or P, Right's the Right options with outcome R or P. Heap positions give
    :class:`cgtalg.rulesets.heaps.games.HeapMove` objects (which heap, to what); positions of
    other rulesets give the ruleset's positions. The moves are of the kind given: forms for
    forms, misère canonical forms for a misère canonical form (misère play only), nimbers for a
    nimber.

    Examples
    --------
    >>> import cgtalg as cg
    >>> [cg.grundy(m) for m in cg.winning_moves("*3+*1")]    # the move to *1+*1
    [0]
    >>> [str(m) for m in cg.winning_moves("{0, {0|} | -1}", player="L")]
    ['0', '1']
    """
    misere = _flag(misere, "winning_moves")
    x = read(g)
    kind = kind_of(x, "winning_moves")
    side = _SIDES.get(player) if isinstance(player, str) else None
    if player is not None and side is None:
        raise GameKindError(f"winning_moves: player must be 'L' or 'R', not {shorten(player)}")
    if kind == "partizan" or (kind == "position" and x.is_partizan):
        if side is None:
            raise GameKindError(
                f"winning_moves({x}): a partizan game has winning moves for each player; say "
                "player='L' or player='R'", ("cgtalg.winning_moves(g, player='L')",))
        if kind == "position":
            from cgtalg.rulesets.solver import solve

            return list(solve(x.ruleset, x.value, misere, store=store).winning_moves[side])
        opts, good = (x.left, ("L", "P")) if side == "L" else (x.right, ("R", "P"))
        return [o for o in opts if outcome(o, misere=misere) in good]
    if kind == "position":
        rs = x.ruleset
        if x.is_heap_position and not x.has_end_rule:
            rule = _heap_rule(rs, x.value, misere, store)
            if rule is not None:
                from cgtalg.rulesets.heaps.position import HeapMove

                return rule.winning_moves(list(x.value), HeapMove)
            return rs.winning_moves(list(x.value), misere=misere, store=store, max_seconds=max_seconds)
        from cgtalg.rulesets.solver import solve

        sol = solve(rs, x.value, misere, store=store)
        moves = sol.winning_moves
        if isinstance(moves, dict):  # a ruleset with its own end rule: both players' moves
            if side is None:
                raise GameKindError(
                    f"winning_moves({x}): {rs.name} decides the winner by its own rule, so the "
                    "players' winning moves differ; say player='L' or player='R'")
            return list(moves[side])
        return list(moves)
    if kind == "misere class":
        if not misere:
            raise GameKindError(
                f"winning_moves({x}): a misère canonical form stands for a class of games under "
                "misère play; its normal-play moves depend on the game chosen from the class",
                ("cgtalg.winning_moves(g) on a game of the class",))
        return [o for o in x.options if o.misere_outcome == "P"]
    if kind == "nimber":
        from cgtalg.nimbers.nimber import Nimber

        if not x:
            return []
        if misere:
            return [] if x == Nimber(1) else [Nimber(1)]
        return [Nimber(0)]
    if isinstance(x, PartizanGame):  # an impartial game written in partizan notation
        return [o for o in x.left if outcome(o, misere=misere) == "P"]
    form: Game = as_impartial(x, "winning_moves")
    if misere:
        from cgtalg.misere.outcome import misere_winning_moves

        return misere_winning_moves(form)
    from cgtalg.normal.grundy import normal_winning_moves

    return normal_winning_moves(form)
