"""A second way to adjoin a heap that changes the misère quotient: *least-order repair*.

:func:`cgtalg.quotients.construct.misere_quotient` adds heap ``n`` to a verified pretension of
``A_(n−1)``; when no existing element can stand for it, it adjoins a cyclic generator for
``n`` (``Q_(n−1) × C(2, 2)``, P marked from least words, reduced) and, while the candidate fails
verification at a position ``w``, *frees* heaps of ``w``: a freed heap ``h`` is removed from the
generators of the candidate, the candidate is regenerated without it and multiplied by a free
cyclic factor ``C(i, p)`` that ``h`` maps to, the P-portion is marked afresh from least words,
and the result reduced. The construction on main takes the *first* freeing (in order of
subsets of the heaps of ``w``, singletons first) that gives ``w`` the right outcome.

At heap 34 of Dawson's Kayles (0.07) that first choice is a poor one: the failures there all
contain ``4 + 14 + 14 + 34`` and one more heap ``X``; freeing heap 4 (the first heap of ``w``
that repairs it) multiplies the order by about 1.7 each time, and after six such repairs the
candidate has order 14830. :func:`extend` instead tries **every** freeing of a single heap of
``w`` (and of pairs when no single one repairs ``w``), each with the cyclic factor of the rule
on main and, for a heap whose factor would not change, one with a larger index, and keeps the
repaired candidate of **least order** (ties: the earlier trial). At heap 34 that keeps the
candidates near order 1000–2500 for thirty repairs; it does not reach ``Q_34`` either (the
failures then grow in lock-step, ``2 + 4 + 25 + 30·k + 34·(k + 3)``; docs/quotient_frontier.md).
A trial that cannot fit in memory is skipped, not fatal (Officers, 0.6, at heap 17).

:func:`extend_after` runs the construction on main first, under a per-heap budget, and this
one when it gives up.

Nothing here is trusted: the returned pretension is the last candidate, and it is returned
only when :func:`cgtalg.quotients.pretension.verify_pretension` finds no failing position (the
verification principle of :mod:`cgtalg.quotients.construct`), so the caller's reduction of it is
``Q_n`` exactly. The choice of candidates only decides how fast (and whether, within the
budgets) one is found.
"""

from __future__ import annotations

import itertools
from typing import Any, Callable, Sequence

from cgtalg.budget import Deadline
from cgtalg.errors import ComputationLimitError
from cgtalg.quotients.pretension import (
    Pretension,
    _reduce,
    _with_cyclic_factors,
    adjoin_heap,
    failing_position,
)

__all__ = ["extend", "extend_after", "check_stall", "MAX_ROUNDS", "FIRST_SECONDS"]

#: repairs tried for one heap before giving up (each is one verification)
MAX_ROUNDS = 400

#: seconds :func:`extend_after` leaves the first strategy per heap
FIRST_SECONDS = 120.0


def _factor(cand: Pretension, h: int, w: Sequence[int], params: dict[int, tuple[int, int]]) -> tuple[int, int]:
    """The cyclic factor ``C(index, period)`` a freed heap ``h`` gets: index at least its index
    in the candidate, the copies of ``h`` in ``w`` less one, and what it had before; period 2 for
    small indices (most heaps' powers have period 1 or 2; not all: heap 10 of 0.774 has period
    8, which counting finds, :mod:`cgtalg.quotients.count`)."""
    i0, _p0 = cand.monoid.index_period(cand.phi[h])
    idx = max(i0, w.count(h) - 1, params.get(h, (0, 0))[0])
    return idx, max(2, 2 * ((idx - 4) // 2))


def _trials(cand: Pretension, w: Sequence[int], params: dict[int, tuple[int, int]],
            size: int) -> list[tuple[tuple[int, ...], list[tuple[int, int]]]]:
    """The freeings of ``size`` heaps of ``w`` to try: each with the factor of :func:`_factor`,
    and, for single heaps whose factor equals the one they had (a freeing that would rebuild
    the same candidate), the same with the index one larger."""
    out = []
    for heaps in itertools.combinations(sorted(set(w)), size):
        ps = [_factor(cand, h, w, params) for h in heaps]
        out.append((heaps, ps))
        if size == 1 and params.get(heaps[0]) == ps[0]:
            idx = ps[0][0] + 1
            out.append((heaps, [(idx, max(2, 2 * ((idx - 4) // 2)))]))
    return out


def _trial(cand: Pretension, heaps: Sequence[int], ps: list[tuple[int, int]], options,
           w: Sequence[int], should_be_p: bool, deadline: Deadline | None) -> Pretension | None:
    """``cand`` with ``heaps`` freed (factors ``ps``), reduced, when it gives the failing
    position ``w`` the outcome ``should_be_p`` (read in the unreduced product first: the
    reduction keeps the P-status of every position's image, so only such a trial is reduced);
    else ``None``. ``None`` too when the trial alone cannot fit in memory
    (:func:`cgtalg.budget.check_fits` refused it: another trial may be smaller); a budget of
    ``deadline`` that has run out still ends the search."""
    try:
        raw = _with_cyclic_factors(cand, list(heaps), ps, options, deadline)
        if bool(raw.P[raw.image(w)]) != should_be_p:
            return None
        return _reduce(raw, options, deadline)
    except ComputationLimitError:
        if deadline is not None:
            deadline.check(f"misère quotient: a trial freeing heaps {list(heaps)}")
        return None


def extend(pre: Pretension, options: Sequence[Sequence[tuple[int, ...]]], n: int, max_states: int,
           deadline: Deadline | None, max_order: int, *, max_subset: int = 2,
           log: Callable[[str], Any] | None = None, stall_copies: int | None = None) -> Pretension:
    """Adjoin heap ``n`` to the verified pretension ``pre`` (heaps ``< n``) by least-order
    repair (module docstring); the contract of ``cgtalg.quotients.construct._extend``.

    Parameters
    ----------
    pre : Pretension
        A verified (reduced) pretension of the heaps ``0 .. n−1``.
    options : list
        ``options[h]``: the options of heap ``h`` for ``h <= n`` (sorted tuples of the heaps
        left).
    n, max_states, deadline, max_order
        The heap to add; the option-set states per verification; the time and memory budget
        (a :class:`cgtalg.budget.Deadline`, checked in every loop); the largest candidate
        order kept.
    max_subset : int
        The most heaps freed at once (pairs by default).
    log : callable, optional
        Called with a line of text per repair (the failing position and the order chosen).
    stall_copies : int, optional
        Give up (:func:`stalled`) when a failing position holds this many copies of heap ``n``:
        the repairs are then chasing the powers of the new heap, which counting its copies
        (:mod:`cgtalg.quotients.count`) handles.

    Returns
    -------
    Pretension
        A pretension of heaps ``0 .. n`` that :func:`verify_pretension` accepted (not
        necessarily reduced).

    Raises
    ------
    ComputationLimitError
        When a budget runs out, or no freeing repairs a failing position within ``max_order``,
        or after :data:`MAX_ROUNDS` repairs.
    """
    what = f"misère quotient: adjoining heap {n} (least-order repair)"
    params, cand = adjoin_heap(pre, n, options, deadline)
    for rnd in range(MAX_ROUNDS):
        w = failing_position(cand, options, max_states, deadline, what)
        if w is None:
            return cand
        check_stall(w, n, stall_copies)
        should_be_p = not bool(cand.P[cand.image(w)])
        best: tuple[int, int, tuple[int, ...], list[tuple[int, int]], Pretension] | None = None
        for size in range(1, min(max_subset, len(set(w))) + 1):
            for k, (heaps, ps) in enumerate(_trials(cand, w, params, size)):
                if deadline is not None:
                    deadline.check(what)
                trial = _trial(cand, heaps, ps, options, w, should_be_p, deadline)
                if trial is None or trial.monoid.size > max_order:
                    continue
                if best is None or (trial.monoid.size, k) < best[:2]:
                    best = (trial.monoid.size, k, heaps, ps, trial)
            if best is not None:
                break
        if best is None:
            raise ComputationLimitError(
                f"misère quotient: least-order repair found no candidate for heap {n} repairing "
                f"the failing position {' + '.join(map(str, w))} within order {max_order}; the "
                "quotient may be infinite or larger than max_order")
        order, _k, heaps, ps, cand = best
        for h, pp in zip(heaps, ps):
            params[h] = pp
        if log is not None:
            log(f"heap {n} round {rnd}: failing {' + '.join(map(str, w))}; freed "
                f"{', '.join(f'{h} C{p}' for h, p in zip(heaps, ps))} -> order {order}")
    raise ComputationLimitError(f"misère quotient: no valid candidate for heap {n} after {MAX_ROUNDS} "
                                "least-order repairs")


def check_stall(w: Sequence[int], n: int, stall_copies: int | None) -> None:
    """Raise the :func:`stalled` error when the failing position ``w`` holds ``stall_copies``
    copies of the new heap ``n``."""
    if stall_copies is not None and list(w).count(n) >= stall_copies:
        exc = ComputationLimitError(f"misère quotient: repairing the candidate for heap {n} stalled (the failing "
                                    f"position {' + '.join(map(str, w))} holds {list(w).count(n)} copies of heap {n})")
        exc.stalled = True  # type: ignore[attr-defined]
        raise exc


def extend_after(first: Callable[..., Pretension], pre: Pretension, options: Sequence[Sequence[tuple[int, ...]]],
                 n: int, max_states: int, deadline: Deadline | None, max_order: int, *,
                 first_seconds: float = FIRST_SECONDS,
                 log: Callable[[str], Any] | None = None, stall_copies: int | None = None) -> Pretension:
    """``first(pre, options, n, max_states, sub, max_order)`` (the construction on main,
    ``cgtalg.quotients.construct._extend``) under a budget ``sub`` of at most ``first_seconds``
    (and the memory ceiling of ``deadline``); when it gives up (a
    :class:`~cgtalg.errors.ComputationLimitError`), :func:`extend` on what is left of
    ``deadline``. The contract of :func:`extend`: what is returned was verified."""
    remaining = None if deadline is None else deadline.remaining()
    sub_seconds = first_seconds if remaining is None else min(first_seconds, max(remaining, 0.001))
    sub = Deadline(sub_seconds, None if deadline is None else deadline.max_memory)
    try:
        if stall_copies is not None:
            return first(pre, options, n, max_states, sub, max_order, stall_copies=stall_copies)
        return first(pre, options, n, max_states, sub, max_order)
    except ComputationLimitError as exc:
        if getattr(exc, "stalled", False):
            raise
        if deadline is not None:
            deadline.check(f"misère quotient: adjoining heap {n}")
        if log is not None:
            log(f"heap {n}: the first strategy gave up ({str(exc)[:100]}); least-order repair")
    return extend(pre, options, n, max_states, deadline, max_order, log=log, stall_copies=stall_copies)
