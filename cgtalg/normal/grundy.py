"""Normal play: Grundy values (nim-values), outcomes and winning moves of forms.

Sprague-Grundy theorem (Sprague 1935, Grundy 1939; ONAG ch. 11; Siegel CGT IV.1): every
short impartial game G is equivalent in normal play to the nim-heap *g, g = mex of the
options' values, and the value of a sum is the XOR (nim-sum) of the values.
"""

from __future__ import annotations

from typing import Sequence

from cgtalg.core.fold import evaluator
from cgtalg.core.game import Game
from cgtalg.errors import ArgumentTypeError, shorten

__all__ = ["mex", "grundy", "normal_outcome", "normal_winning_moves"]


def mex(values) -> int:
    """Minimum excluded value: the least non-negative integer not in ``values``."""
    try:
        seen = set(values)
    except TypeError:
        raise ArgumentTypeError(f"mex needs an iterable of ints, got {type(values).__name__}: "
                                f"{shorten(values)}") from None
    m = 0
    while m in seen:
        m += 1
    return m


def _grundy_atom(n: int) -> int:
    # the nim-heap *n has Grundy value n (ONAG ch. 11: mex of 0..n-1)
    return n


@evaluator("grundy", add=lambda a, b: a ^ b, atom=_grundy_atom)
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
    """Options of ``g`` that are normal-play P-positions (empty when ``g`` is a P-position).

    For a nim-heap ``*n`` (any size) the answer is ``[0]`` for ``n > 0``, found without
    listing the options; for a form built as a sum of nim-heaps, Bouton's rule (ONAG ch. 11)
    names the moves, one per heap ``a`` with ``a ^ s < a`` (``s`` the nim-sum), each built as
    the sum with that heap reduced (refused past the walk limit like any literal sum).
    """
    from cgtalg.core.game import nim, zero

    h = g.nim_heap_size()
    if h is not None:
        return [zero] if h > 0 else []
    heaps = _nim_sum_heaps(g)
    if heaps is not None:
        s = 0
        for a in heaps:
            s ^= a
        if s == 0:
            return []
        moves = []
        for i, a in enumerate(heaps):
            if a ^ s < a:
                rest = heaps[:i] + [a ^ s] + heaps[i + 1:]
                total = zero
                for b in rest:
                    total = total + nim(b)
                if total not in moves:
                    moves.append(total)
        return moves
    return [o for o in g.options if _grundy(o) == 0]


def _nim_sum_heaps(g: Game) -> list[int] | None:
    """The heap sizes if ``g`` was built as a sum of nim-heaps (``Game.sum_parts``), else None."""
    out: list[int] = []
    stack = [g]
    while stack:
        x = stack.pop()
        h = x.nim_heap_size()
        if h is not None:
            out.append(h)
            continue
        parts = x.sum_parts
        if parts is None:
            return None
        stack.extend(parts)
    return out
