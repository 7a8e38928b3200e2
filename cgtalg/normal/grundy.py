"""Normal play: Grundy values (nim-values), outcomes and winning moves of forms.

Sprague-Grundy theorem (Sprague 1935, Grundy 1939; ONAG ch. 11; Siegel CGT IV.1): every
short impartial game G is equivalent in normal play to the nim-heap *g, g = mex of the
options' values, and the value of a sum is the XOR (nim-sum) of the values.
"""

from __future__ import annotations

from typing import Sequence

from cgtalg.core.fold import evaluator
from cgtalg.core.game import Game

__all__ = ["mex", "grundy", "normal_outcome", "normal_winning_moves"]


def mex(values) -> int:
    """Minimum excluded value: the least non-negative integer not in ``values``."""
    seen = set(values)
    m = 0
    while m in seen:
        m += 1
    return m


@evaluator("grundy", add=lambda a, b: a ^ b)
def _grundy(g: Game, option_values: Sequence[int]) -> int:
    """Normal-play Grundy value: mex of the options' values."""
    return mex(option_values)


def grundy(g: Game) -> int:
    """The normal-play Grundy value (nim-value) of ``g``.

    Examples
    --------
    >>> import cgtalg as cg
    >>> cg.grundy(cg.nim(2) + cg.nim(3))
    1
    """
    return _grundy(g)


def normal_outcome(g: Game) -> str:
    """``'P'`` if the previous player wins ``g`` in normal play (value 0), else ``'N'``."""
    return "P" if _grundy(g) == 0 else "N"


def normal_winning_moves(g: Game) -> list[Game]:
    """Options of ``g`` that are normal-play P-positions (empty when ``g`` is a P-position)."""
    return [o for o in g.options if _grundy(o) == 0]
