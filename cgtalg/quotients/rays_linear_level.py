"""Linear rays read off a counting level, reduced, widened and verified (:mod:`cgtalg.quotients.rays_linear`).

A passing counting level of heap ``n`` (a candidate proved right for every position with at most
``copies`` copies of ``n``) holds the data a linear ray is fitted to: the heaps whose powers stay
apart are counted through one weight with ``n``, the others generate ``R``
(:func:`linear_rays_from_level`; every group of them at once, then each alone against ``n``, each
under the fit settings of :data:`~cgtalg.quotients.rays_linear.FIT_SETTINGS`). A fit is then
reduced (:func:`minimize`: ``R`` divided by its coarsest congruence that keeps the outcome rows,
the same prediction for every position), given an order witness, and verified, its window
widened (:func:`widen`) when the verification's abstraction reads a cell the data never showed
(:func:`settle_linear`). ``0.1037``: ``Q_19`` is infinite, the outcome turning on
``2·c19 − c18`` (a slope of one half), ``R`` of 2 454 elements after the reduction (4 530
before).

Nothing here is trusted: :func:`~cgtalg.quotients.rays_linear.verify_linear_ray` proves the ray,
and the referee (:mod:`cgtalg.referee.ray_linear`) checks its certificate with its own code.
"""

from __future__ import annotations

import itertools
import math
from typing import Any, Iterator, Sequence

import numpy as np

from cgtalg.budget import Deadline
from cgtalg.quotients.rays_linear import (UNSEEN_CELL, LinearRay, fit_linear_rays, linear_witness, moore_classes,
                                         verify_linear_ray)

__all__ = ["linear_rays_from_level", "minimize", "widen", "complete", "settle_linear", "MAX_FITS"]

#: the fits read off one counting level that are verified at most
MAX_FITS = 8
#: the largest monoid of the uncounted heaps a fit is read over (its table is built densely)
MAX_BASE = 5000


def linear_rays_from_level(cand: Any, n: int, copies: int, max_points: int = 1_000_000,
                           deadline: Deadline | None = None) -> Iterator[LinearRay]:
    """A linear ray for the heaps ``<= n`` read off a passing counting level (``cand``, right up
    to ``copies`` copies of heap ``n``; a :class:`~cgtalg.quotients.pretension.Pretension` with a
    table): the heaps whose images keep distinct powers longest (at least half the levels'),
    grouped by image, are counted through one weight with ``n``; the others generate ``R``; the
    data are the level's predictions (proved right for positions with at most ``copies`` copies of
    ``n``). The fits of :func:`fit_linear_rays`, in turn (none when no weight fits); not verified
    here."""
    from cgtalg.quotients.pretension import FiniteMonoid

    m = cand.monoid
    if not isinstance(m, FiniteMonoid) or copies < 3:
        return                      # (a product candidate's .table would build its whole table)
    table = np.asarray(m.table)
    phi = [int(x) for x in cand.phi]
    P = np.asarray(cand.P, dtype=bool)
    tails = {}
    for h in range(1, n):
        seen: dict[int, int] = {}
        x, k = 0, 0
        while x not in seen:
            seen[x] = k
            x = int(table[x, phi[h]])
            k += 1
        tails[h] = seen[x]
    need = max(3, (copies + 1) // 2)
    by_img: dict[int, list[int]] = {}
    for h in range(1, n):
        if tails[h] >= need and phi[h] != 0:
            by_img.setdefault(phi[h], []).append(h)
    ranked = sorted((tuple(g) for g in by_img.values()), key=lambda g: -tails[g[0]])[:5]
    # every counted group at once, then each of the first two alone against the new heap (0.1037:
    # heap 18 alone)
    choices = [ranked] + ([[g] for g in ranked[:2]] if len(ranked) > 1 else [])
    for choice in choices:
        yield from _level_fits(table, phi, P, choice + [(n,)], n, copies, max_points, deadline)


def _level_fits(table: np.ndarray, phi: list[int], P: np.ndarray, groups: list[tuple[int, ...]], n: int,
                copies: int, max_points: int, deadline: Deadline | None) -> Iterator[LinearRay]:
    """The fits of :func:`linear_rays_from_level` with the heaps of ``groups`` counted."""
    counted = {h for g in groups for h in g}
    gens = sorted({phi[h] for h in range(1, n + 1) if h not in counted and phi[h] != 0})
    ids, index = [0], {0: 0}
    frontier = [0]
    while frontier:
        nxt = []
        for x in frontier:
            for g in gens:
                y = int(table[x, g])
                if y not in index:
                    index[y] = len(ids)
                    ids.append(y)
                    nxt.append(y)
        frontier = nxt
    idarr = np.asarray(ids, dtype=np.int64)
    if len(ids) > MAX_BASE:
        return
    lut = np.full(table.shape[0], -1, dtype=np.int64)
    lut[idarr] = np.arange(len(ids))
    btab = lut[table[np.ix_(idarr, idarr)]].astype(np.int32)
    brho = [index.get(phi[h], 0) if h not in counted else 0 for h in range(n + 1)]
    k = len(groups)
    A = 2 * copies + 8                   # the level's predictions hold for any copies of these heaps
    ranges = [A] * (k - 1) + [copies + 1]
    while len(ids) * int(np.prod(ranges)) > max_points and ranges[0] > 4:
        ranges = [r - 1 for r in ranges[:-1]] + ranges[-1:]
    if len(ids) * int(np.prod(ranges)) > max_points:
        return
    gimg = [phi[g[0]] for g in groups]
    pts, rs, outs = [], [], []
    for exps in itertools.product(*[range(c) for c in ranges]):
        if deadline is not None and not exps[-1]:
            deadline.check("reading a linear ray off a counting level")
        x = idarr.copy()
        for g, e in zip(gimg, exps):
            for _ in range(e):
                x = table[x, g]
        pts.append(np.tile(np.asarray(exps, dtype=np.int64), (len(ids), 1)))
        rs.append(np.arange(len(ids)))
        outs.append(P[x])
    counts = np.vstack(pts)
    yield from fit_linear_rays(counts, np.concatenate(outs), (btab, np.concatenate(rs), brho, groups), deadline)


def widen(lr: LinearRay, pad: int) -> LinearRay:
    """``lr`` with its window ``[lo, hi]`` widened by ``pad`` (a multiple of both periods) on
    either side: the same outcome function ``f`` on ``R × ℤ`` (the new cells are read through
    the periodic sides), but more of ``z`` kept exactly by the verification's abstraction, whose
    side states (a residue only) otherwise pair capped counts with values of ``z`` no position
    has, and then read cells the data never showed."""
    lo, hi = lr.lo - pad, lr.hi + pad
    cols = [lr.fold(z) - lr.lo for z in range(lo, hi + 1)]
    known = None if lr.known is None else np.ascontiguousarray(lr.known[:, cols])
    return LinearRay(lr.v, lr.table, list(lr.rho), list(lr.lam), lo, hi, lr.q_lo, lr.q_hi,
                     np.ascontiguousarray(lr.F[:, cols]), known)


def minimize(lr: LinearRay, deadline: Deadline | None = None) -> LinearRay:
    """``lr`` with ``R`` divided by its coarsest congruence that keeps the outcome rows: ``r ~ r'``
    when ``F`` (and the cells seen) agree on ``r·w`` and ``r'·w`` for every product ``w`` of
    the heaps' images (Moore's refinement over those images). The same predictions for every
    position, with an ``R`` often much smaller (a fit multiplies the heaps' monoid by the
    counted heaps' classes, many of which the outcome never tells apart)."""
    T = np.asarray(lr.table, dtype=np.int64)
    gens = sorted({int(g) for g in lr.rho if g})
    rows = lr.F.astype(np.int8) if lr.known is None else lr.F.astype(np.int8) * 2 + lr.known.astype(np.int8)
    cls, k = moore_classes(rows, [T[:, g] for g in gens], deadline)
    rep = np.zeros(k, dtype=np.int64)
    rep[cls[::-1]] = np.arange(cls.size)[::-1]
    table = np.ascontiguousarray(cls[T[np.ix_(rep, rep)]], dtype=np.int32)
    return LinearRay(lr.v, table, [int(cls[r]) for r in lr.rho], list(lr.lam), lr.lo, lr.hi, lr.q_lo, lr.q_hi,
                     np.ascontiguousarray(lr.F[rep]), None if lr.known is None else np.ascontiguousarray(lr.known[rep]))


def complete(lr: LinearRay) -> LinearRay:
    """``lr`` with every cell the fit never saw taken as not P: the outcome function its
    certificate states (:func:`~cgtalg.quotients.rays_linear.encode_linear`), defined everywhere.
    A guess where the data are silent; the verification decides."""
    if lr.known is None:
        return lr
    return LinearRay(lr.v, lr.table, list(lr.rho), list(lr.lam), lr.lo, lr.hi, lr.q_lo, lr.q_hi,
                     np.ascontiguousarray(lr.F & lr.known), None)


def settle_linear(lr: LinearRay, options: Sequence[Sequence[tuple[int, ...]]], max_states: int = 5_000_000,
                  deadline: Deadline | None = None) -> tuple[LinearRay, dict] | None:
    """``(ray, witness)`` for a fitted ray: reduced (:func:`minimize`), with an order witness,
    and verified (:func:`verify_linear_ray`), its window widened by one or two periods
    (:func:`widen`) when the verification reads a cell the fit never saw, and at each width
    also with those cells taken as not P (:func:`complete`: a proof when it verifies, since the
    verification principle holds for any outcome function that passes it); None otherwise."""
    lr = minimize(lr, deadline)
    wit = linear_witness(lr) or linear_witness(complete(lr))
    if wit is None:
        return None
    L = math.lcm(lr.q_lo, lr.q_hi)
    for pad in (0, L, 2 * L):
        trial = widen(lr, pad) if pad else lr
        why = verify_linear_ray(trial, options, max_states, deadline)
        if why is None:
            return trial, wit
        if not why.startswith(UNSEEN_CELL):
            return None
        full = complete(trial)
        if verify_linear_ray(full, options, max_states, deadline) is None:
            return full, wit
    return None
