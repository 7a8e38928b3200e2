"""Doors for the operations on stoppers (loopy games in normal play): upsum and downsum, degree,
variety, stability and the stops (:mod:`cgtalg.normal.loopy_ops`; Winning Ways ch. 11, ONAG
ch. 16, Siegel CGT ch. VI).

Each takes every kind of game that is a loopy game in normal play (game text such as ``over``,
``5over``, ``^[on]``, ``{0|pass}``, loopy graphs, short games as loopy games whose graph has no
cycle) and refuses by name what is not a stopper (:func:`cgtalg.loopy_sides` answers for any
loopy game).
"""

from __future__ import annotations

from typing import Any

from cgtalg.core.loopy import LoopyGame
from cgtalg.ops.kinds import as_loopy_game, kind_of, read

__all__ = ["upsum", "downsum", "degree", "variety", "loopy_game_of", "stopper"]


def loopy_game_of(operation: str, x: Any, stoppers_only: bool = True) -> LoopyGame | None:
    """``x`` as a loopy game when it is one (game text of a loopy game, a loopy graph), None for
    the other kinds (short games keep their own doors); with ``stoppers_only`` a loopy game that
    is not a stopper is refused naming ``operation``."""
    y = read(x, normal_play=True)
    if kind_of(y, operation) != "loopy":
        return None
    return stopper(operation, y) if stoppers_only else as_loopy_game(y, operation)


def stopper(operation: str, x: Any) -> LoopyGame:
    """``x`` as a loopy game that is a stopper, or :class:`~cgtalg.errors.GameKindError` naming
    ``operation``."""
    from cgtalg.errors import GameKindError
    from cgtalg.normal.loopy import is_stopper

    g = as_loopy_game(x, operation)
    if not is_stopper(g):
        raise GameKindError(f"{operation}: {str(g)[:60]} is a loopy game that is not a stopper (some "
                            "position has infinite alternating play); this is defined for stoppers only "
                            "(Siegel CGT VI); cgtalg.loopy_sides gives the sides of any loopy game",
                            ("cgtalg.loopy_sides",))
    return g


def upsum(g: Any, h: Any) -> LoopyGame:
    """``G +↑ H``, the onside of ``G + H`` for stoppers (CGSuite ``Upsum``; ONAG ch. 16).

    >>> from cgtalg.ops import loopy_more as lm
    >>> print(lm.upsum("on", "off"), lm.upsum("over", "under"))
    on over
    """
    from cgtalg.normal.loopy_ops import upsum as f

    return f(stopper("upsum", g), stopper("upsum", h))


def downsum(g: Any, h: Any) -> LoopyGame:
    """``G +↓ H``, the offside of ``G + H`` for stoppers (CGSuite ``Downsum``).

    >>> from cgtalg.ops import loopy_more as lm
    >>> print(lm.downsum("on", "off"))
    off
    """
    from cgtalg.normal.loopy_ops import downsum as f

    return f(stopper("downsum", g), stopper("downsum", h))


def degree(g: Any) -> LoopyGame:
    """The degree of loopiness ``G +↑ (−G)`` of a stopper (CGSuite ``Degree``; Siegel CGT VI).

    >>> from cgtalg.ops import loopy_more as lm
    >>> print(lm.degree("over"), lm.degree("off"))
    over on
    """
    from cgtalg.normal.loopy_ops import degree as f

    return f(stopper("degree", g))


def variety(g: Any) -> LoopyGame:
    """The variety of a stable stopper (CGSuite ``Variety``; Siegel CGT VI).

    >>> from cgtalg.ops import loopy_more as lm
    >>> print(lm.variety("on"), lm.variety("off"))
    on off
    """
    from cgtalg.normal.loopy_ops import variety as f

    return f(stopper("variety", g))
