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


def _misere_grundy_atom(n: int) -> int:
    # misère Grundy value of *n: 1 for *0, 0 for *1, n for n >= 2 (ONAG ch. 12; Winning Ways ch. 13)
    return n if n >= 2 else 1 - n


@evaluator("misere_grundy", atom=_misere_grundy_atom)
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
    """Options of ``g`` that are misère P-positions.

    For a nim-heap ``*n`` (any size) the answer is found without listing the options: the only
    misère P-position among ``*0..*(n-1)`` is ``*1`` (misère Nim, Winning Ways ch. 13), so
    ``[*1]`` for ``n >= 2`` and ``[]`` for ``n <= 1``.
    """
    from cgtalg.core.game import nim

    _misere_grundy(g)  # the fold refuses a non-form by name, and memoises the options' values
    h = g.nim_heap_size()
    if h is not None:
        return [nim(1)] if h >= 2 else []
    return [o for o in g.options if _misere_grundy(o) == 0]
