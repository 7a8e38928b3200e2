"""Fitting the rules of a ray pretension to a counting level's data (:func:`fit_rules`).

A level gives the outcome class ``grid[r, a, b]`` of ``r·u^a·v^b`` for ``a < A``, ``b < B``; the
rules (:class:`cgtalg.quotients.rays.RayRules`) are the least ``(m0, K, K')``, then periods,
under which ``red`` agrees with the data wherever it can be read. Nothing is trusted: the ray
pretension built from the rules is verified on its own (:func:`cgtalg.quotients.rays.verify_ray_pretension`),
so the fit only chooses a candidate.

Periods. The first pass tries the periods 1 and 2 along each direction (those of every ray
proof found before). When it finds nothing, a second pass adds the periods the data show
(:func:`shown_periods`: the least period of a row's or column's or diagonal's tail, up to
:data:`MAX_PERIOD`): ``0.3377`` at heap 17, with heap 12 free, repeats with period 6 along the
free heap (the rules found: steps 2 along heap 17, 6 along heap 12, 4 along the diagonal).
Reading the periods off the data keeps the second pass to a few combinations (it runs at every
counting level where the first fails).
"""

from __future__ import annotations

import itertools

from cgtalg.core.lazynp import np

from cgtalg.errors import ArgumentError

__all__ = ["fit_rules", "shown_periods", "MAX_PERIOD"]

#: the longest period :func:`shown_periods` reads off a level's data
MAX_PERIOD = 12


def _least_period(seq) -> int | None:
    """The least ``t <= MAX_PERIOD`` with ``seq[i] == seq[i + t]`` on the last ``2t`` places and
    more (the tail repeats at least twice), else None."""
    n = len(seq)
    for t in range(1, min(MAX_PERIOD, n // 2) + 1):
        if all(seq[i] == seq[i + t] for i in range(n - 2 * t, n - t)):
            return t
    return None


def shown_periods(cid: np.ndarray) -> tuple[set[int], set[int], set[int]]:
    """The periods the class table ``cid[a, b]`` shows along ``b`` (rows), ``a`` (columns) and
    the diagonal, beyond 1 and 2 (:func:`_least_period` of each line's tail)."""
    A, B = cid.shape
    along_b = {_least_period(list(cid[a, :])) for a in range(A)}
    along_a = {_least_period(list(cid[:, b])) for b in range(B)}
    diag = {_least_period([cid[a + k, b + k] for k in range(min(A - a, B - b))])
            for a, b in [(0, j) for j in range(B)] + [(i, 0) for i in range(1, A)]}
    return tuple({t for t in s if t is not None and t > 2} for s in (along_b, along_a, diag))


def _agrees(cid: np.ndarray, aa: np.ndarray, bb: np.ndarray, rules) -> bool:
    """Whether ``cid[a, b] == cid[red(a, b)]`` at every point (``red`` vectorised)."""
    a, b = aa.copy(), bb.copy()
    d = b - a
    up = d > rules.K
    b = np.where(up, b - rules.q * ((d - rules.K + rules.q - 1) // rules.q), b)
    left = ~up & (a - b > rules.K2)
    a = np.where(left, a - rules.p * ((a - b - rules.K2 + rules.p - 1) // rules.p), a)
    mn = np.minimum(a, b)
    k = np.where(mn > rules.m0, (mn - rules.m0 + rules.s - 1) // rules.s, 0)
    a, b = a - k * rules.s, b - k * rules.s
    return bool(np.array_equal(cid[a, b], cid))


def fit_rules(grid: np.ndarray, max_slack: int = 12):
    """The least rules (by ``K + K' + m0``, then periods) under which ``red`` agrees with
    ``grid[r, a, b]`` (known outcomes) wherever the table they need lies inside the grid; None
    when there are none (module docstring: periods 1 and 2 first, then those the data show)."""
    from cgtalg.quotients.rays import RayRules

    _n, A, B = grid.shape
    flat = grid.reshape(grid.shape[0], A * B)
    _u, ids = np.unique(flat, axis=1, return_inverse=True)
    cid = np.asarray(ids).reshape(A, B)
    aa, bb = np.meshgrid(np.arange(A), np.arange(B), indexing="ij")
    slacks = sorted(itertools.product(range(max_slack), repeat=3), key=lambda t: (sum(t), t))

    def first_fit(periods):
        for m0, K, K2 in slacks:
            if m0 + K >= B or m0 + K2 >= A:
                continue
            for q, p, s in periods:
                try:
                    rules = RayRules(q, K, p, K2, s, m0)
                except ArgumentError:
                    continue
                if _agrees(cid, aa, bb, rules):
                    return rules
        return None

    got = first_fit(list(itertools.product((1, 2), repeat=3)))
    if got is not None:
        return got
    qs, ps, ss = shown_periods(cid)
    if not (qs or ps or ss):
        return None
    more = itertools.product(sorted({1, 2} | qs), sorted({1, 2} | ps), sorted({1, 2} | ss))
    return first_fit([t for t in more if max(t) > 2])
