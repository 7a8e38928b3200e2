"""Nim with finitely many heaps of ordinal size (transfinite Nim), normal and misère play.

A move lowers one heap to any smaller ordinal; every run is finite because the ordinals are
well-ordered. Heaps are ordinals below ε₀ (anything sympy's Cantor normal form can hold).

* Normal play: the position is a P-position iff the nim-sum of the heaps (XOR of their base-2
  Cantor normal forms) is 0 — Bouton's rule, which carries over verbatim (ONAG ch. 6; Siegel,
  *Combinatorial Game Theory*, VIII.4; seed 004 §I.6: "this proof works verbatim in that
  generalized situation").
* Misère play: Bouton's misère rule carries over too (Spindler, seed 002 §6, Theorem 7 and the
  remarks after it): if every heap is 0 or 1 the position is a P-position iff the number of
  1-heaps is odd; otherwise iff the nim-sum is 0.

A winning move is a move to a P-position. From a normal-play N-position with nim-sum s the
winning moves are the heaps h with h ⊕ s < h, lowered to h ⊕ s.

Examples
--------
>>> from cgtalg.nimbers.ordinal import ordinal
>>> nim_outcome([ordinal("w"), ordinal("w")])
'P'
>>> print(format_moves(nim_winning_moves([ordinal("w*2+3"), ordinal("w+1")])))
heap 0: ω·2+3 → ω+1
"""

from __future__ import annotations

from typing import Sequence

from cgtalg.errors import NimberError
from cgtalg.errors import ComputationLimitError
from cgtalg.nimbers.ordinal import OrdinalLike, _CNF, _coerce, _format, _key, _nim_add, _out

__all__ = ["nim_outcome", "nim_winning_moves", "format_moves", "Move"]

#: A move ``(heap index, heap size before, heap size after)``.
Move = tuple[int, OrdinalLike, OrdinalLike]


def _heaps(heaps: Sequence[OrdinalLike]) -> list[_CNF]:
    if isinstance(heaps, (str, bytes)) or not hasattr(heaps, "__iter__"):
        raise NimberError(f"heaps must be a sequence of ordinals, got {type(heaps).__name__}")
    out = []
    for i, h in enumerate(heaps):
        if i >= MAX_HEAPS:
            raise ComputationLimitError(
                f"transfinite Nim: more than MAX_HEAPS = {MAX_HEAPS} heaps; refused"
            )
        out.append(_coerce(h, f"heap {i}"))
    return out


#: Most heaps a transfinite Nim position may have (the winning-move search is quadratic).
MAX_HEAPS = 1000


def _nim_sum(hs: list[_CNF]) -> _CNF:
    s: _CNF = 0
    for h in hs:
        s = _nim_add(s, h)
    return s


def _is_p(hs: list[_CNF], misere: bool) -> bool:
    if misere and all(h in (0, 1) for h in hs):
        return sum(1 for h in hs if h == 1) % 2 == 1
    return _nim_sum(hs) == 0


def nim_outcome(heaps: Sequence[OrdinalLike], misere: bool = False) -> str:
    """Outcome class of a transfinite Nim position: ``'P'`` (previous player wins) or ``'N'``.

    Parameters
    ----------
    heaps : sequence of int or Ordinal
        Finitely many heap sizes (ordinals below ε₀).
    misere : bool
        Misère play (the player who makes the last move loses).

    Returns
    -------
    str
        ``'P'`` or ``'N'``.

    Raises
    ------
    cgtalg.errors.NimberError
        If a heap is not a non-negative ordinal.

    Examples
    --------
    >>> from cgtalg.nimbers.ordinal import ordinal
    >>> nim_outcome([ordinal("w+1"), ordinal("w"), 1])
    'P'
    >>> nim_outcome([1, 1], misere=True), nim_outcome([1], misere=True)
    ('N', 'P')
    """
    return "P" if _is_p(_heaps(heaps), misere) else "N"


def nim_winning_moves(heaps: Sequence[OrdinalLike], misere: bool = False) -> list[Move]:
    """All winning moves (moves to P-positions) of a transfinite Nim position.

    Normal play: for nim-sum s ≠ 0, heap i of size h is lowered to h ⊕ s whenever h ⊕ s < h
    (Bouton). Misère play: a move wins iff it leaves a misère P-position (see the module
    docstring): either some heap ≥ 2 remains and the nim-sum is 0, or all heaps are ≤ 1 and an
    odd number of them are 1.

    Parameters
    ----------
    heaps : sequence of int or Ordinal
        Finitely many heap sizes (ordinals below ε₀).
    misere : bool
        Misère play.

    Returns
    -------
    list of (int, int or Ordinal, int or Ordinal)
        ``(heap index, size before, size after)``, ordered by heap index and then by target;
        empty for a P-position (and for the empty misère position, an N-position in which
        the player to move has no move and so has already won).

    Raises
    ------
    cgtalg.errors.NimberError
        If a heap is not a non-negative ordinal.

    Examples
    --------
    >>> from cgtalg.nimbers.ordinal import ordinal
    >>> nim_winning_moves([ordinal("w*2+3"), ordinal("w*3+2")])
    [(1, w*3 + 2, w*2 + 3)]
    >>> nim_winning_moves([ordinal("w"), 1], misere=True)
    [(0, w, 0)]
    """
    hs = _heaps(heaps)
    s = _nim_sum(hs)
    moves: list[tuple[int, _CNF, _CNF]] = []
    for i, h in enumerate(hs):
        targets: list[_CNF] = []
        t = _nim_add(h, s)
        if _key(t) < _key(h):
            rest = hs[:i] + [t] + hs[i + 1 :]
            if _is_p(rest, misere):
                targets.append(t)
        if misere:  # moves into the all-heaps-≤-1 region are the other candidates
            for t in (0, 1):
                if _key(t) < _key(h) and t not in targets:
                    rest = hs[:i] + [t] + hs[i + 1 :]
                    if _is_p(rest, misere):
                        targets.append(t)
        for t in sorted(targets, key=_key):
            moves.append((i, h, t))
    return [(i, _out(h), _out(t)) for i, h, t in moves]


def format_moves(moves: Sequence[Move], ascii: bool = False) -> str:
    """One line per move, ``heap i: before → after`` (``->`` with ``ascii``).

    Parameters
    ----------
    moves : sequence of (int, ordinal, ordinal)
        As returned by :func:`nim_winning_moves`.
    ascii : bool
        Use ``w``, ``*`` and ``->``.

    Returns
    -------
    str

    Examples
    --------
    >>> print(format_moves([(2, 5, 1)], ascii=True))
    heap 2: 5 -> 1
    """
    arrow = "->" if ascii else "→"
    return "\n".join(
        f"heap {i}: {_format(_coerce(a), ascii)} {arrow} {_format(_coerce(b), ascii)}" for i, a, b in moves
    )
