"""Misère play on forms: outcomes, misère Grundy values, winning moves.

In misère play the player who makes the last move loses. A form with no options is an
N-position (the player to move has no move and so wins); otherwise G is a P-position iff
every option is an N-position. The misère Grundy value (Conway, ONAG ch. 12; Winning Ways
ch. 13) is 1 for the empty form and the mex of the options' values otherwise; G is a
misère P-position iff its misère Grundy value is 0.
"""

from __future__ import annotations

from typing import Sequence

from cgtalg.core.fold import evaluator
from cgtalg.core.game import Game
from cgtalg.normal.grundy import mex

__all__ = ["misere_grundy", "misere_outcome", "misere_winning_moves"]


@evaluator("misere_grundy")
def _misere_grundy(g: Game, option_values: Sequence[int]) -> int:
    """Misère Grundy value: 1 for the empty form, else mex of the options' values."""
    if not option_values:
        return 1
    return mex(option_values)


def misere_grundy(g: Game) -> int:
    """The misère Grundy value of ``g`` (``0`` exactly for misère P-positions).

    Examples
    --------
    >>> import cgtalg as cg
    >>> cg.misere_grundy(cg.zero), cg.misere_grundy(cg.nim(1)), cg.misere_grundy(cg.nim(1) + cg.nim(1))
    (1, 0, 1)
    """
    return _misere_grundy(g)


def misere_outcome(g: Game) -> str:
    """``'P'`` or ``'N'``: the misère outcome class of ``g``."""
    return "P" if _misere_grundy(g) == 0 else "N"


def misere_winning_moves(g: Game) -> list[Game]:
    """Options of ``g`` that are misère P-positions."""
    return [o for o in g.options if _misere_grundy(o) == 0]
