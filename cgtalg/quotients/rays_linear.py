"""Infinite misère quotients where many heaps count, through one linear form (``R × ℤ``).

The ray pretensions of :mod:`cgtalg.quotients.rays` count two heaps and read the outcome off
``b − a``. Some quotients need more counted heaps: in ``0.354`` the copies of heap 5 run free
(counting proves ``5, 5², …, 5⁷⁰`` pairwise distinguishable) and the outcome of
``c1·1 + c2·2 + c3·3 + c4·4 + c5·5`` turns on ``c5 − 3·c2 − 4·c3 − 2·c4``: each heap 2, 3 or 4
gives the holder of the heaps 5 a number of spare moves (a *tempo* count). No pair of heaps
carries it. The pretension here has one integer coordinate for all of them.

The pretension. Every heap ``h <= v`` maps to ``(ρ(h), λ(h))`` in ``R × ℤ``: ``R`` a finite
commutative monoid and ``λ`` an integer weight. A position ``G`` maps to
``Φ(G) = (Π ρ(h), Σ λ(h))``, and its predicted outcome is ``f(Φ(G))``: ``f(r, z) = F[r, fold(z)]``
with a table ``F`` on ``R × [lo, hi]`` and ``fold`` periodic below ``lo`` (period ``q_lo``) and
above ``hi`` (period ``q_hi``): exact in a window, periodic on either side.

Verification (:func:`verify_linear_ray`). The verification principle of
:mod:`cgtalg.quotients.construct` never uses that the monoid is finite: if every position ``G``
satisfies the P-condition (``f(Φ(G))`` ⇒ ``G`` has a move and no option ``G'`` has
``f(Φ(G'))``) and the N-condition (not ``f(Φ(G))`` ⇒ ``G`` has no move or some option has
``f(Φ(G'))``), then by induction over the positions ``G`` is a misère P-position iff
``f(Φ(G))``. Both conditions are checked on an abstraction with finitely many states:

* the integer coordinate ``z`` is kept exactly in ``[A, B] = [lo − D, hi + D]``, else as a side
  and a residue (``H(ζ)``: ``z > B``, ``z ≡ ζ`` mod ``q_hi``; ``L(ζ)``: ``z < A``, mod
  ``q_lo``), where ``D`` bounds ``|λ(h)|``, ``|λ(o)|`` and ``|λ(o) − λ(h)|`` over every heap ``h``
  and option ``o``; then ``f(r, z + δ)`` for ``|δ| <= D`` is the same for every ``z`` of a state;
* adding heap ``h`` maps a state to the set of states of ``z + λ(h)`` (a state ``H(ζ)`` with
  ``λ(h) < 0`` may land in the window: every value of the right residue there is taken), so the
  reachable pairs ``(r, state)`` contain the image of every position;
* the P-condition is checked for every reachable pair and heap; the N-condition by the
  N-search of option images *relative* to the position's own ``z`` (``(r', δ)``), keeping the
  inclusion-minimal sets per pair (the condition is monotone in the set, and so is a move).

The order witness (:func:`linear_witness`): a heap ``s`` (the new heap) whose powers are
``ρ(s)^c``-periodic with period ``p``, and two *probes* ``h+`` (``λ > 0``) and ``h−`` (``λ < 0``)
whose powers settle in ``R``: then ``s^(c+kp) + h+^i + h−^j`` maps to ``(r1, (c+kp)·λ(s) + t)``
with ``t`` running over a whole class mod ``g = gcd(λ(h+), −λ(h−))``, and ``f(r1, ·)`` has no
period ``m·p·λ(s)`` on any class mod ``g`` (checked on a finite range, the sides being
periodic), so the powers ``s^(c+kp)`` are pairwise distinguishable: ``Q_n`` is infinite for
every ``n >= v``.

Where it comes from (:func:`fit_linear_ray`): exact misère play of every position of at most
``T`` tokens (:func:`count_outcomes`, a table over the copies of each heap; feasible for small
``v``), the weights ``λ`` chosen heap by heap so that the outcome is a function of the counts'
classes and ``z``, ``R`` the product of the smallest cyclic monoids (a count capped, a residue)
that keep it so, and the window and periods fitted. Nothing of the fit is trusted: the
pretension is verified, and the referee (``cgtalg.referee.ray_linear``) checks the
certificate (:func:`linear_certificate`) with its own code.
"""

from __future__ import annotations

import base64
import itertools
import math
import zlib
from dataclasses import dataclass
from typing import Iterator, Sequence

import numpy as np

from cgtalg.budget import Deadline

__all__ = ["LinearRay", "count_outcomes", "fit_linear_ray", "fit_linear_rays", "verify_linear_ray", "linear_witness",
           "prove_linear", "linear_certificate", "encode_linear", "decode_linear", "LINEAR_MAX_HEAP",
           "moore_classes"]

#: the largest new heap whose positions are played out exactly to fit a linear ray
LINEAR_MAX_HEAP = 6
#: positions played out exactly (count vectors) at most
MAX_VECTORS = 1_500_000
#: the weights tried for a heap, |λ| <= LAMBDA_MAX
LAMBDA_MAX = 6
#: the largest R a fitted pretension may have (the referee checks R's associativity by Light's
#: test on the heaps' images, ``cgtalg.referee.ray_linear.MAX_ORDER_GENERATED``)
MAX_ORDER_R = 8000
#: the largest product ``R × C`` (the uncounted heaps' monoid times the counts' classes) a fit
#: builds; past :data:`MAX_ORDER_R` it is reduced on its generators' columns before a table is
#: made (:func:`moore_classes`)
MAX_PRODUCT_R = 400_000
#: the fits tried in turn, ``(λ of the new heap, copies of it kept apart, largest |λ| of the
#: others)``: first the one fit of before, then weights of at most 2 against a new heap of weight
#: 2 or 3, then of weight 1 with its count kept apart up to 4 copies (``0.1037``: the outcome
#: turns on ``2·c19 − c18``, a slope of one half)
FIT_SETTINGS = ((1, 2, LAMBDA_MAX),) + tuple((last, cap, bound) for bound in (1, 2) for last in (2, 3)
                                            for cap in (2, 4)) + ((1, 4, 1), (1, 4, 2))
#: the smaller classes (cap, period) tried for a count kept apart up to 2 copies, period 2
_CLASSES = ((0, 1), (1, 1), (0, 2), (1, 2), (2, 1))
#: how :func:`verify_linear_ray` begins its answer when it reads a cell the fit never saw (a
#: wider window may help: :func:`cgtalg.quotients.rays_linear_level.settle_linear`)
UNSEEN_CELL = "the verification reads a cell the fit never saw"
#: the periods tried on either side of the window
PERIODS = (1, 2, 3, 4, 6, 8, 12)


@dataclass
class LinearRay:
    """A pretension ``R × ℤ`` for the heaps ``1 .. v`` (module docstring).

    ``table`` is ``R``'s multiplication (identity 0); ``rho[h]``, ``lam[h]`` the image of heap
    ``h`` (``h = 0 .. v``); ``F[r, z − lo]`` the outcome table on the window ``[lo, hi]``,
    periodic with ``q_lo`` below and ``q_hi`` above; ``known`` marks the cells the fit saw (the
    others were never observed: a verification that reads one fails)."""

    v: int
    table: np.ndarray
    rho: list[int]
    lam: list[int]
    lo: int
    hi: int
    q_lo: int
    q_hi: int
    F: np.ndarray
    known: np.ndarray | None = None

    @property
    def order_r(self) -> int:
        return int(self.table.shape[0])

    def fold(self, z: int) -> int:
        if z > self.hi:
            return z - self.q_hi * (-(-(z - self.hi) // self.q_hi))
        if z < self.lo:
            return z + self.q_lo * (-(-(self.lo - z) // self.q_lo))
        return z

    def f(self, r: int, z: int) -> bool:
        """The predicted outcome of an element ``(r, z)`` (True: P); KeyError on a cell the fit
        never saw."""
        c = self.fold(z) - self.lo
        if self.known is not None and not self.known[r, c]:
            raise KeyError((r, z))
        return bool(self.F[r, c])

    def image(self, heaps: Sequence[int]) -> tuple[int, int]:
        r, z = 0, 0
        for h in heaps:
            r = int(self.table[r, self.rho[h]])
            z += int(self.lam[h])
        return r, z

    def predicts(self, heaps: Sequence[int]) -> bool:
        """Whether the position ``heaps`` is predicted a misère P-position."""
        return self.f(*self.image(heaps))


# -- exact play of small positions ---------------------------------------------------------------
def count_outcomes(options: Sequence[Sequence[tuple[int, ...]]], v: int, max_vectors: int = MAX_VECTORS,
                   deadline: Deadline | None = None) -> tuple[np.ndarray, np.ndarray, int]:
    """Exact misère outcomes of the positions of heaps ``1 .. v`` of at most ``T`` tokens, ``T``
    the largest with at most ``max_vectors`` positions: ``(counts, outcomes, T)``, ``counts`` a
    ``(n, v)`` array of the copies of each heap, ``outcomes`` True for a P-position."""
    def n_vectors(T: int) -> int:
        ways = [1] + [0] * T           # positions of exactly t tokens, heaps 1..v
        for h in range(1, v + 1):
            for t in range(h, T + 1):
                ways[t] += ways[t - h]
        return sum(ways)
    T = 1
    while n_vectors(T + 1) <= max_vectors and T < 400:
        T += 1
    moves = {h: [tuple(x for x in o if x > 0) for o in options[h]] for h in range(1, v + 1)}
    vecs: list[tuple[int, ...]] = []

    def rec(h: int, rem: int, cur: list[int]) -> None:
        if h > v:
            vecs.append(tuple(cur))
            return
        for c in range(rem // h + 1):
            cur.append(c)
            rec(h + 1, rem - c * h, cur)
            cur.pop()
    rec(1, T, [])
    # an option has fewer tokens, or as many in more heaps (a 4.xx code splits a heap)
    vecs.sort(key=lambda w: (sum((i + 1) * c for i, c in enumerate(w)), -sum(w)))
    P: dict[tuple[int, ...], bool] = {}
    for k, w in enumerate(vecs):
        if deadline is not None and not k % 100_000:
            deadline.check(f"playing out the positions of heaps <= {v} ({k:,} of {len(vecs):,})")
        p = any(w)                      # the empty position is an N-position (misère)
        for h in range(1, v + 1):
            if not w[h - 1] or not p:
                continue
            for o in moves[h]:
                u = list(w)
                u[h - 1] -= 1
                for x in o:
                    u[x - 1] += 1
                if P[tuple(u)]:
                    p = False
                    break
        P[w] = p
    counts = np.array(vecs, dtype=np.int64).reshape(-1, v)
    return counts, np.array([P[w] for w in vecs], dtype=bool), T


# -- the fit ---------------------------------------------------------------------------------
def _conflicts(key: np.ndarray, out: np.ndarray) -> int:
    o = np.argsort(key, kind="stable")
    k, p = key[o], out[o]
    return int(((k[1:] == k[:-1]) & (p[1:] != p[:-1])).sum())


def _class_code(counts: np.ndarray, spec: Sequence[tuple[int, int]]) -> np.ndarray:
    code = np.zeros(counts.shape[0], dtype=np.int64)
    for i, (cap, M) in enumerate(spec):
        x = counts[:, i]
        code = code * (cap + M) + np.where(x < cap, x, cap + (x - cap) % M)
    return code


def _fold_array(z: np.ndarray, lo: int, hi: int, q_lo: int, q_hi: int) -> np.ndarray:
    up = z - q_hi * (-(-(z - hi) // q_hi))
    down = z + q_lo * (-(-(lo - z) // q_lo))
    return np.where(z > hi, up, np.where(z < lo, down, z))


def _descend(counts: np.ndarray, outcomes: np.ndarray, key0: np.ndarray, deadline: Deadline | None = None,
             sample: int = 300_000, last: int = 1, bound: int = LAMBDA_MAX) -> list[int]:
    """Weights (the last one ``last``) by coordinate descent on the conflicts of (key0, folded z),
    on a sample of at most ``sample`` points (the caller checks the result on all of them)."""
    k = counts.shape[1]
    if counts.shape[0] > sample:
        pick = np.random.default_rng(0).choice(counts.shape[0], sample, replace=False)
        counts, outcomes, key0 = counts[pick], outcomes[pick], key0[pick]

    def conflicts(lam: list[int]) -> int:
        z = counts @ np.asarray(lam, dtype=np.int64)
        return _conflicts(key0 * 4096 + _fold_array(z, -8, 8, 2, 2) + 2048, outcomes)
    lam = [0] * k
    lam[-1] = last
    best = conflicts(lam)
    for _round in range(2):
        for i in range(k - 1):
            if deadline is not None:
                deadline.check("fitting a linear ray's weights")
            for l in range(-bound, bound + 1):
                trial = lam[:i] + [l] + lam[i + 1:]
                c = conflicts(trial)
                if c < best or (c == best and abs(l) < abs(lam[i])):
                    best, lam = c, trial
    return lam


def _weights(counts: np.ndarray, outcomes: np.ndarray, key: np.ndarray, last: int,
             deadline: Deadline | None = None, bound: int = LAMBDA_MAX) -> list[int] | None:
    """Integer weights with ``last`` for the last coordinate (the new heap) and ``|λ| <= bound``
    for the others, under which the outcome is a function of (``key``, ``z``), ``z`` the
    weighted count; None when none fits, or when the weights have a common factor (the same
    rule with a smaller ``last``)."""
    k = counts.shape[1]
    lam: list[int] | None = [0] * k
    lam[k - 1] = last
    for h in range(k - 1):
        # the weights, one coordinate at a time, on the points where the others are absent
        sel = np.all(np.delete(counts, [h, k - 1], axis=1) == 0, axis=1)
        for l in sorted(range(-bound, bound + 1), key=abs):
            if deadline is not None:
                deadline.check("fitting a linear ray's weights")
            z = last * counts[sel, k - 1] + l * counts[sel, h]
            if not _conflicts(key[sel] * 4096 + z + 2048, outcomes[sel]):
                lam[h] = l
                break
        else:
            lam = None
            break
    z = None if lam is None else counts @ np.asarray(lam, dtype=np.int64)
    if lam is None or _conflicts(key * 4096 + z + 2048, outcomes):
        lam = _descend(counts, outcomes, key, deadline, last=last, bound=bound)   # several at once
        z = counts @ np.asarray(lam, dtype=np.int64)
        if _conflicts(key * 4096 + z + 2048, outcomes):
            return None
    if math.gcd(*lam) != 1:
        return None
    return lam


def fit_linear_rays(counts: np.ndarray, outcomes: np.ndarray, base: tuple | None = None,
                    deadline: Deadline | None = None) -> Iterator[LinearRay]:
    """The linear rays :func:`fit_linear_ray` fits under each setting of :data:`FIT_SETTINGS`
    in turn (the first is the only one tried before: ``λ = 1`` for the new heap, weights up to
    :data:`LAMBDA_MAX`); none is verified here. Later settings look for weights of at most 1 or
    2 with the new heap's weight 2 or 3 (a slope of a half or a third), its count kept apart up
    to 4 copies: a weight of 6 makes every data point a cell of its own and fits anything."""
    seen: set = set()
    for last, cap, bound in FIT_SETTINGS:
        lr = _fit_one(counts, outcomes, base, deadline, last, cap, bound)
        if lr is None:
            continue
        mark = (tuple(lr.lam), lr.lo, lr.hi, lr.q_lo, lr.q_hi, lr.order_r)
        if mark not in seen:
            seen.add(mark)
            yield lr


def fit_linear_ray(counts: np.ndarray, outcomes: np.ndarray, base: tuple | None = None,
                   deadline: Deadline | None = None) -> LinearRay | None:
    """The first of :func:`fit_linear_rays`, or None."""
    return next(fit_linear_rays(counts, outcomes, base, deadline), None)


def _fit_one(counts: np.ndarray, outcomes: np.ndarray, base: tuple | None, deadline: Deadline | None,
             last: int, cap: int, bound: int) -> LinearRay | None:
    """A linear ray fitted to exact outcomes, with ``λ = last`` for the last counted coordinate,
    whose count is kept apart up to ``cap`` copies, and ``|λ| <= bound`` for the others;
    None when no weights, classes or window of the tried sizes fit. Not verified here
    (:func:`verify_linear_ray`).

    Without ``base``: ``counts`` are the copies of the heaps ``1 .. v`` (:func:`count_outcomes`).
    With ``base = (table, r_of_point, rho, groups)``: a finite monoid for the heaps that are not
    counted (its ``table``), the element of each data point (``r_of_point``), the element of each
    heap ``0 .. v`` (``rho``, used for the heaps of no group) and the counted ``groups`` (heaps that
    count as one coordinate each, the last one ``(v,)``); ``counts`` then has one column per group
    (:func:`cgtalg.quotients.rays_linear_level.linear_rays_from_level`)."""
    n, k = counts.shape
    if k < 2:
        return None
    m0 = 1 if base is None else int(base[0].shape[0])
    r0 = np.zeros(n, dtype=np.int64) if base is None else np.asarray(base[1], dtype=np.int64)
    full = [(2, 2)] * (k - 1) + [(cap, 2)]
    key = _class_code(counts, full) * m0 + r0
    lam = _weights(counts, outcomes, key, last, deadline, bound)
    if lam is None:
        return None
    if deadline is not None:
        deadline.check("fitting a linear ray's window")
    z = counts @ np.asarray(lam, dtype=np.int64)
    # the window and periods, from the cells (class, z) the data show: above hi the outcome
    # repeats with q_hi wherever both cells are seen, below lo with q_lo; the narrowest window
    cells, first = np.unique(key * 4096 + z + 2048, return_index=True)
    cr, cz, cp = cells // 4096, cells % 4096 - 2048, outcomes[first]
    # the cells as a grid (class, z): 1 P, 0 not, -1 unseen
    rows, ri = np.unique(cr, return_inverse=True)
    zmin = int(cz.min())
    grid = np.full((rows.size, int(cz.max()) - zmin + 1), -1, dtype=np.int8)
    grid[np.asarray(ri).reshape(-1), cz - zmin] = cp

    def edge(q: int, up: bool) -> int | None:
        """The least hi (up) or greatest lo (not up) past which the cells repeat with period q
        (None when fewer than 20 pairs of cells q apart are seen: no evidence either way)."""
        if q >= grid.shape[1]:
            return None
        a, b = grid[:, q:], grid[:, :-q]          # the cells at z and at z − q
        seen = (a >= 0) & (b >= 0)
        if int(seen.sum()) < 20:
            return None
        diff = np.nonzero((seen & (a != b)).any(axis=0))[0]
        if not diff.size:
            return zmin if up else int(cz.max())
        # a difference between z (column c + q) and z − q (column c): above, hi must reach z;
        # below, lo must reach z − q
        return int(diff.max()) + q + zmin if up else int(diff.min()) + zmin
    his = sorted((e, q) for q in PERIODS if (e := edge(q, True)) is not None)
    los = sorted((-e, q) for q in PERIODS if (e := edge(q, False)) is not None)
    best_w = None
    for hi, q_hi in his:
        for nlo, q_lo in los:
            lo = -nlo
            width = hi - lo + 1
            while width < max(q_lo, q_hi):
                width += 1
            if best_w is None or width < best_w[0]:
                best_w = (width, hi - width + 1, hi, q_lo, q_hi)
    if best_w is None or best_w[0] > 80:
        return None
    _w, lo, hi, q_lo, q_hi = best_w
    zf = _fold_array(z, lo, hi, q_lo, q_hi)
    # the classes: the smallest cyclic monoid per coordinate that keeps the outcome a function
    spec = list(full)
    for i in range(k):
        # (a count kept apart up to 4 copies may also keep 3, or 2 with a period 2)
        tries = _CLASSES if spec[i] == (2, 2) else _CLASSES + ((3, 1), (2, 2), (4, 1))
        for cand in tries:
            if deadline is not None:
                deadline.check("fitting a linear ray's classes")
            trial = spec[:i] + [cand] + spec[i + 1:]
            if not _conflicts((_class_code(counts, trial) * m0 + r0) * 4096 + zf + 2048, outcomes):
                spec = trial
                break
    sizes = [c + M for c, M in spec]
    mc = int(np.prod(sizes))
    if m0 * mc > MAX_PRODUCT_R:
        return None                               # R × C too large even to reduce
    # C: the classes' mixed-radix numbering of _class_code (the first coordinate most significant)
    caps = np.array([c for c, _M in spec], dtype=np.int64)
    mods = np.array([M for _c, M in spec], dtype=np.int64)
    digits = np.array(list(itertools.product(*[range(s) for s in sizes])), dtype=np.int64).reshape(mc, k)

    def cmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        s = digits[a] + digits[b]
        s = np.where(s < caps, s, caps + (s - caps) % mods)
        out = np.zeros(s.shape[0], dtype=np.int64)
        for i in range(k):
            out = out * sizes[i] + s[:, i]
        return out

    def unit(i: int) -> int:
        """The class of one copy of the ``i``-th counted coordinate."""
        out = 0
        for j, (c, M) in enumerate(spec):
            x = int(j == i)
            out = out * sizes[j] + (x if x < c else c + (x - c) % M)
        return out
    code = _class_code(counts, spec)          # the same numbering as digits (mixed radix)
    btab = np.zeros((1, 1), dtype=np.int64) if base is None else np.asarray(base[0], dtype=np.int64)
    m = m0 * mc                               # R × C: element (x, c) numbered x·mc + c

    def mul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return btab[a // mc, b // mc] * mc + cmul(a % mc, b % mc)
    if base is None:
        rho, lam_h = [0] + [unit(i) for i in range(k)], [0] + list(lam)
    else:
        _b, _r, brho, groups = base
        v = max(groups[-1])
        rho, lam_h = [0] * (v + 1), [0] * (v + 1)
        where = {h: i for i, g in enumerate(groups) for h in g}
        for h in range(1, v + 1):
            if h in where:
                rho[h], lam_h[h] = unit(where[h]), lam[where[h]]
            else:
                rho[h] = int(brho[h]) * mc
    cell = r0 * mc + code
    F = np.zeros((m, hi - lo + 1), dtype=bool)
    known = np.zeros((m, hi - lo + 1), dtype=bool)
    F[cell, zf - lo] = outcomes
    known[cell, zf - lo] = True
    every = np.arange(m, dtype=np.int64)
    if m > MAX_ORDER_R:
        # R × C divided by its coarsest congruence keeping the outcome rows, found on the
        # generators' columns alone (the dense table of R × C would not fit): the same prediction
        # for every position (:func:`cgtalg.quotients.rays_linear_level.minimize`)
        gens = sorted({g for g in rho if g})
        cls, kk = moore_classes(F.astype(np.int8) * 2 + known.astype(np.int8),
                                [mul(every, np.full(m, g, dtype=np.int64)) for g in gens], deadline)
        if kk > MAX_ORDER_R:
            return None                           # R too large for the referee to check
        rep = np.zeros(kk, dtype=np.int64)
        rep[cls[::-1]] = every[::-1]
        rho = [int(cls[g]) for g in rho]
        F, known = np.ascontiguousarray(F[rep]), np.ascontiguousarray(known[rep])
    else:
        cls, rep, kk = every, every, m
    table = np.empty((kk, kk), dtype=np.int32)
    for i in range(kk):
        if deadline is not None and not i % 64:
            deadline.check("fitting a linear ray's monoid")
        table[i] = cls[mul(np.full(kk, rep[i], dtype=np.int64), rep)]
    return LinearRay(len(rho) - 1, table, rho, lam_h, lo, hi, q_lo, q_hi, F, known)


def moore_classes(rows: np.ndarray, cols: Sequence[np.ndarray],
                  deadline: Deadline | None = None) -> tuple[np.ndarray, int]:
    """``(cls, k)``: the coarsest partition of a commutative monoid's elements (numbered
    ``0 .. len(rows) − 1``, the identity 0) that keeps ``rows`` and is kept by multiplying by each
    generator (``cols[i][x]``: ``x`` times the ``i``-th generator), Moore's refinement: a congruence
    when the generators generate the monoid; the identity's class is 0."""
    _, cls = np.unique(rows, axis=0, return_inverse=True)
    cls = np.asarray(cls).reshape(-1)
    k = int(cls.max()) + 1
    while True:
        if deadline is not None:
            deadline.check("dividing a linear ray's monoid by its congruence")
        sig = np.stack([cls] + [cls[c] for c in cols], axis=1)
        _, new = np.unique(sig, axis=0, return_inverse=True)
        new = np.asarray(new).reshape(-1)
        k2 = int(new.max()) + 1
        cls = new
        if k2 == k:
            break
        k = k2
    e = int(cls[0])
    if e:
        swap = np.arange(k)
        swap[[0, e]] = swap[[e, 0]]
        cls = swap[cls]
    return cls, k


# -- verification ----------------------------------------------------------------------------
class _Abstract:
    """The finite abstraction of ``z`` (module docstring): states ``("E", z)``, ``("H", ζ)``,
    ``("L", ζ)``."""

    def __init__(self, lr: LinearRay, D: int) -> None:
        self.lr, self.D = lr, D
        self.A, self.B = lr.lo - D, lr.hi + D

    def of(self, z: int) -> tuple[str, int]:
        if z > self.B:
            return ("H", z % self.lr.q_hi)
        if z < self.A:
            return ("L", z % self.lr.q_lo)
        return ("E", z)

    def rep(self, s: tuple[str, int]) -> int:
        """A value of the state (every value gives the same outcomes within ``D``)."""
        k, x = s
        if k == "E":
            return x
        if k == "H":
            return self.B + 1 + (x - self.B - 1) % self.lr.q_hi
        return self.A - 1 - (self.A - 1 - x) % self.lr.q_lo

    def add(self, s: tuple[str, int], l: int) -> list[tuple[str, int]]:
        k, x = s
        if k == "E":
            return [self.of(x + l)]
        q = self.lr.q_hi if k == "H" else self.lr.q_lo
        out = [(k, (x + l) % q)]
        if k == "H" and l < 0:
            out += [("E", w) for w in range(self.B + l + 1, self.B + 1) if (w - x - l) % q == 0]
        elif k == "L" and l > 0:
            out += [("E", w) for w in range(self.A, self.A + l) if (w - x - l) % q == 0]
        return out


def _option_images(lr: LinearRay, options: Sequence[Sequence[tuple[int, ...]]]) -> list[list[tuple[int, int]]]:
    return [[lr.image([x for x in o if x > 0]) for o in options[h]] for h in range(lr.v + 1)]


def verify_linear_ray(lr: LinearRay, options: Sequence[Sequence[tuple[int, ...]]], max_states: int = 5_000_000,
                      deadline: Deadline | None = None) -> str | None:
    """None when ``lr`` satisfies the P- and N-conditions for every position of heaps
    ``1 .. v`` (module docstring), else why not (a text)."""
    v = lr.v
    if len(options) < v + 1:
        return f"the options of heaps up to {v} are needed"
    for h in range(1, v + 1):
        if not options[h] and (lr.rho[h] != 0 or lr.lam[h] != 0):
            return f"heap {h} has no move but does not map to the identity"
    S = _option_images(lr, options)
    D = max([abs(lr.lam[h]) for h in range(1, v + 1)]
            + [max(abs(z), abs(z - lr.lam[h])) for h in range(1, v + 1) for _r, z in S[h]] + [0])
    ab = _Abstract(lr, D)
    T = lr.table

    def val(r: int, s: tuple[str, int], d: int) -> bool:
        return lr.f(r, ab.rep(s) + d)
    try:
        if val(0, ("E", 0), 0):
            return "the empty position is predicted a P-position"
        start = (0, ("E", 0))
        seen = {start}
        todo = [start]
        what = f"verifying a linear ray pretension for heaps <= {v}"
        popped = 0
        while todo:
            x, s = todo.pop()
            popped += 1
            if deadline is not None and not popped % 2_000:
                deadline.check(what)
            for h in range(1, v + 1):
                for s2 in ab.add(s, lr.lam[h]):
                    y = (int(T[x, lr.rho[h]]), s2)
                    if y not in seen:
                        seen.add(y)
                        todo.append(y)
        for i, (x, s) in enumerate(seen):                   # the P-condition
            if deadline is not None and not i % 2_000:
                deadline.check(what)
            for h in range(1, v + 1):
                if val(int(T[x, lr.rho[h]]), s, lr.lam[h]):
                    for r, z in S[h]:
                        if val(int(T[x, r]), s, z):
                            return (f"the P-condition fails: a position of image ({x}, {s}) with heap {h} is "
                                    f"predicted P, and so is its option through heap {h}")
        kept: dict[tuple[int, tuple[str, int]], list[frozenset]] = {start: [frozenset()]}
        stack = [(start, frozenset())]
        states = 0
        popped = 0
        while stack:
            (x, s), TT = stack.pop()
            popped += 1
            if deadline is not None and not popped % 1_000:
                deadline.check(what)
            if TT not in kept.get((x, s), ()):
                continue
            for h in range(1, v + 1):
                x2 = int(T[x, lr.rho[h]])
                T2 = frozenset([(int(T[r, lr.rho[h]]), d) for r, d in TT]
                               + [(int(T[x, r]), z - lr.lam[h]) for r, z in S[h]])
                for s2 in ab.add(s, lr.lam[h]):
                    key = (x2, s2)
                    lst = kept.setdefault(key, [])
                    if any(U <= T2 for U in lst):
                        continue
                    lst[:] = [U for U in lst if not T2 <= U] + [T2]
                    states += 1
                    if states > max_states:
                        return f"the N-search passed {max_states:,} states"
                    if T2 and not val(x2, s2, 0) and not any(val(r, s2, d) for r, d in T2):
                        return (f"the N-condition fails: a position of image ({x2}, {s2}) is not predicted P "
                                f"and none of its options is")
                    stack.append((key, T2))
    except KeyError as exc:
        return f"{UNSEEN_CELL} {exc.args[0]}"
    return None


# -- the order witness -------------------------------------------------------------------------
def _power(table: np.ndarray, x: int, k: int) -> int:
    r = 0
    for _ in range(k):
        r = int(table[r, x])
    return r


def _tail(table: np.ndarray, x: int, limit: int = 64) -> tuple[int, int] | None:
    """``(c, p)`` with ``x^(c+p) = x^c`` least, or None past ``limit``."""
    seen: dict[int, int] = {}
    r = 0
    for k in range(limit + 1):
        if r in seen:
            return seen[r], k - seen[r]
        seen[r] = k
        r = int(table[r, x])
    return None


def _no_period(lr: LinearRay, r1: int, g: int, E: int) -> bool:
    """For every class mod ``g`` and every ``m >= 1``: ``f(r1, y) != f(r1, y + m·E)`` for some
    ``y`` of the class (the witness's finite check; module docstring)."""
    L = math.lcm(g, lr.q_lo, lr.q_hi)
    phi = lambda y: lr.f(r1, y)  # noqa: E731
    M1 = -(-(lr.hi - lr.lo + L + 1) // E)
    for zeta in range(g):
        for m in range(1, M1):
            d = m * E
            ys = range(lr.lo - d - L, lr.hi + L + 1)
            if not any(phi(y) != phi(y + d) for y in ys if (y - zeta) % g == 0):
                return False
        for m in range(M1, M1 + L):
            d = m * E
            ys = range(lr.hi - d + 1, lr.lo)
            if not any(phi(y) != phi(y + d) for y in ys if (y - zeta) % g == 0):
                return False
    return True


def linear_witness(lr: LinearRay, max_base: int = 3) -> dict | None:
    """``{"heap", "index", "period", "probes"}``: the powers of heap ``v`` told apart (module
    docstring), with ``"base"``, a position of at most ``max_base`` heaps added to every compared
    position, when they alone do not tell them apart; or None when no settled probes or base do."""
    s = lr.v
    if lr.lam[s] == 0:
        return None
    tail = _tail(lr.table, lr.rho[s])
    if tail is None:
        return None
    c, p = tail
    probes = []
    for sign in (1, -1):
        best = None
        for h in range(1, lr.v + 1):
            if lr.lam[h] * sign <= 0:
                continue
            t = _tail(lr.table, lr.rho[h])
            if t is None:
                continue
            e, per = max(t[0], 1), t[1]
            if best is None or (per * abs(lr.lam[h]), e) < (best[2] * abs(lr.lam[best[0]]), best[1]):
                best = (h, e, per)
        if best is None:
            return None
        probes.append(best)
    (hp, ep, pp), (hm, em, pm) = probes
    r0 = int(lr.table[int(lr.table[_power(lr.table, lr.rho[s], c), _power(lr.table, lr.rho[hp], ep)]),
                      _power(lr.table, lr.rho[hm], em)])
    g = math.gcd(pp * lr.lam[hp], -pm * lr.lam[hm])
    E = abs(p * lr.lam[s])
    tried: set[int] = set()
    for size in range(max_base + 1):
        for base in itertools.combinations_with_replacement(range(1, lr.v + 1), size):
            r1 = int(lr.table[r0, lr.image(base)[0]])
            if r1 in tried:
                continue
            tried.add(r1)
            try:
                if _no_period(lr, r1, g, E):
                    got = {"heap": s, "index": c, "period": p,
                           "probes": [[h, e] if per == 1 else [h, e, per] for h, e, per in probes]}
                    if base:
                        got["base"] = [int(h) for h in base]
                    return got
            except KeyError:
                continue
    return None


def prove_linear(options: Sequence[Sequence[tuple[int, ...]]], v: int, max_vectors: int = MAX_VECTORS,
                 max_states: int = 5_000_000, deadline: Deadline | None = None
                 ) -> tuple[LinearRay, dict] | None:
    """A verified linear ray for the heaps ``<= v`` with an order witness (``Q_v`` infinite), or
    None. Plays out the small positions exactly, so only for ``v <=`` :data:`LINEAR_MAX_HEAP`."""
    if v > LINEAR_MAX_HEAP or v < 2:
        return None
    counts, out, _T = count_outcomes(options, v, max_vectors, deadline)
    lr = fit_linear_ray(counts, out)
    if lr is None:
        return None
    wit = linear_witness(lr)
    if wit is None or verify_linear_ray(lr, options, max_states, deadline) is not None:
        return None
    return lr, wit


# -- the certificate -----------------------------------------------------------------------------
def _b64(raw: bytes) -> str:
    return base64.b64encode(zlib.compress(raw, 9)).decode("ascii")


def encode_linear(lr: LinearRay) -> dict:
    """The ``"linear"`` record of the certificate (cells never seen by the fit, which the
    verification never read, are written as not P)."""
    return {"format": 1, "top": int(lr.v), "order_r": lr.order_r,
            "table": _b64(np.ascontiguousarray(lr.table, dtype="<i4").tobytes()),
            "rho": [int(x) for x in lr.rho], "lam": [int(x) for x in lr.lam],
            "window": [int(lr.lo), int(lr.hi)], "periods": [int(lr.q_lo), int(lr.q_hi)],
            "F": _b64(np.packbits(np.asarray(lr.F, dtype=bool).reshape(-1)).tobytes())}


def decode_linear(rec: dict) -> LinearRay:
    """The :class:`LinearRay` of a ``"linear"`` record (ValueError when it cannot be read); not
    verified here."""
    try:
        m = int(rec["order_r"])
        lo, hi = (int(x) for x in rec["window"])
        q_lo, q_hi = (int(x) for x in rec["periods"])
        table = np.frombuffer(zlib.decompress(base64.b64decode(rec["table"])), "<i4").reshape(m, m).astype(np.int32)
        W = hi - lo + 1
        bits = np.unpackbits(np.frombuffer(zlib.decompress(base64.b64decode(rec["F"])), np.uint8))
        F = bits[: m * W].reshape(m, W).astype(bool)
        lr = LinearRay(int(rec["top"]), table, [int(x) for x in rec["rho"]], [int(x) for x in rec["lam"]],
                       lo, hi, q_lo, q_hi, F)
    except (KeyError, TypeError, ValueError, zlib.error) as exc:
        raise ValueError(f"the linear ray record cannot be read ({exc})") from exc
    if (len(lr.rho) != lr.v + 1 or len(lr.lam) != lr.v + 1 or min(q_lo, q_hi) < 1 or W < max(q_lo, q_hi)
            or int(table.min()) < 0 or int(table.max()) >= m or min(lr.rho) < 0 or max(lr.rho) >= m):
        raise ValueError("the linear ray record is malformed (lengths, periods, window or entries)")
    return lr


def linear_certificate(game: str, lr: LinearRay, witness: dict) -> dict:
    """The ``infinite-misere-quotient`` document of a verified linear ray with its witness
    (format: :mod:`cgtalg.quotients.infinite`, with a ``"linear"`` record in place of ``"ray"``;
    checked by ``cgtalg.referee.ray_linear``). It states no ``last_finite``: ``Q_{v−1}`` is not
    derived from the pretension (its heaps ``< v`` are counted through ``λ`` too), so that claim
    is the finite quotient's own, computed and checked beside it."""
    from cgtalg.quotients.infinite import FORMAT, KIND

    v = lr.v
    (hp, ep, *_pp), (hm, em, *_pm) = witness["probes"]
    c, p = witness["index"], witness["period"]
    base = " + ".join(map(str, witness.get("base", ())))
    weights = ", ".join(f"λ({h}) = {lr.lam[h]}" for h in range(1, v + 1) if lr.lam[h])
    return {
        "kind": KIND, "format": FORMAT, "game": str(game), "infinite_from": int(v), "heaps_covered": int(v),
        "witness": {k: witness[k] for k in ("heap", "index", "period", "probes", "base") if k in witness},
        "statement": (
            f"{game}: the misère quotient Q_n is infinite for every n >= {v}. A linear ray pretension (every "
            f"heap h <= {v} maps to (ρ(h), λ(h)) in R × Z, R of order {lr.order_r}; {weights}; the outcome "
            f"read from R and from Σλ, exactly on [{lr.lo}, {lr.hi}] and with periods {lr.q_lo} below and "
            f"{lr.q_hi} above) predicts the misère outcome of every position of heaps <= {v}; with {ep}+ "
            f"copies of heap {hp} and {em}+ of heap {hm}{' and ' + base if base else ''} added, the powers "
            f"{v}^({c} + {p}k) are told apart, "
            f"so they are pairwise distinguishable. (Q_{v - 1} is finite: the finite quotient computed "
            f"beside this proof.)"),
        "linear": encode_linear(lr)}
