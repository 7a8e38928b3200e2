"""The order witness of a ray pretension (:mod:`cgtalg.quotients.rays`): a rule on the outcomes
of ``r0 + a·u + b·v`` that tells every two powers of heap ``v`` apart.

Forms (``sense``): ``b − a >= t`` (``1``), ``b − a < t`` (``−1``), or a band ``t <= b − a < t + w``
(``2 + w``, ``w >= 1``), each on a region ``a >= a0``, ``b >= b0`` and residue classes mod ``M``:
``a ≡ α``, ``b ≡ β`` (``M`` divides ``p``, ``q`` and ``s``), the *difference class*
``b − a ≡ β`` (``α`` = :data:`DIFFERENCE`; ``M`` divides ``p`` and ``q`` only, since a diagonal
step keeps ``b − a``: 4.76 at heap 6, where ``s = 1`` and ``P`` depends on the parity of ``b − a``),
or a class of one count alone: ``b ≡ β`` (``α`` = :data:`B_ONLY`; ``M`` divides ``q`` and ``s``,
the steps that change ``b``: 0.524 at heap 17, where ``p = 1``) or ``a ≡ β`` (``α`` =
:data:`A_ONLY`; ``M`` divides ``p`` and ``s``).
Why each proves the powers distinct is in :func:`order_witness`; the referee's own proof is in
:mod:`cgtalg.referee.ray_witness`.
"""

from __future__ import annotations

import itertools
import math
from typing import Sequence

from cgtalg.core.lazynp import np

from cgtalg.errors import ArgumentError

__all__ = ["WITNESS_DEFAULTS", "DIFFERENCE", "B_ONLY", "A_ONLY", "witness_text", "full_witness", "witness_box", "order_witness", "in_rule",
           "rule_words"]


#: the witness of the old form: ``(r0, t)`` means ``(r0, t, 1, 0, 0, 0, 1, 1)``
WITNESS_DEFAULTS = (1, 0, 0, 0, 1, 1)

#: ``α`` of a witness whose class is on the difference: ``b − a ≡ β (mod M)``
DIFFERENCE = -1

#: ``α`` of a witness whose class is on ``b`` alone: ``b ≡ β (mod M)``, any ``a``
B_ONLY = -2

#: ``α`` of a witness whose class is on ``a`` alone: ``a ≡ β (mod M)``, any ``b``
A_ONLY = -3

#: the kinds of class, in the order tried: ``(α or None for the pairs (α, β), the steps M divides)``
_KINDS = ((None, "pqs"), (DIFFERENCE, "pq"), (B_ONLY, "qs"), (A_ONLY, "ps"))


def in_rule(d, t: int, sense: int):
    """Whether the difference ``d = b − a`` (a number or an array) satisfies the rule."""
    if sense == 1:
        return d >= t
    if sense == -1:
        return d < t
    return (d >= t) & (d < t + sense - 2) if hasattr(d, "shape") else t <= d < t + sense - 2


def rule_words(t: int, sense: int) -> str:
    if sense == 1:
        return f"b − a >= {t}"
    if sense == -1:
        return f"b − a < {t}"
    return f"{t} <= b − a < {t + sense - 2}"


def witness_text(pre_u: int, pre_v: int, base: str, witness: Sequence[int]) -> str:
    """The rule a witness states, in words."""
    r0, t, M, al, be, a0, b0, sense = full_witness(witness)
    cls = "" if M == 1 else f", {class_words(al, be, M)}"
    return (f"{base} + {pre_u}·a + {pre_v}·b is a P-position iff {rule_words(t, sense)} "
            f"(all a >= {a0}, b >= {b0}{cls})")


def class_words(al: int, be: int, M: int) -> str:
    """The residue class of a witness's region, in words."""
    if al == DIFFERENCE:
        return f"b − a ≡ {be} (mod {M})"
    if al == B_ONLY:
        return f"b ≡ {be} (mod {M})"
    if al == A_ONLY:
        return f"a ≡ {be} (mod {M})"
    return f"a ≡ {al} and b ≡ {be} (mod {M})"


def full_witness(witness: Sequence[int]) -> tuple[int, int, int, int, int, int, int, int]:
    """A witness with the defaults of the old form filled in (:func:`order_witness`)."""
    w = tuple(int(x) for x in witness)
    if len(w) == 2:
        w = w + WITNESS_DEFAULTS
    if len(w) != 8:
        raise ArgumentError(f"a witness has 2 or 8 entries, not {len(w)}")
    M, al, be = w[2:5]
    if M < 1 or not (al in (DIFFERENCE, B_ONLY, A_ONLY) or 0 <= al < M) or not 0 <= be < M:
        raise ArgumentError(f"a witness's classes {al}, {be} are not residues mod {M}")
    return w  # type: ignore[return-value]


def witness_box(rules, a0: int, b0: int) -> int:
    """``L``: every point ``(a, b)``, ``a >= a0``, ``b >= b0``, shares its reduction with a point
    of ``[0, L]²`` that also has ``a >= a0``, ``b >= b0`` (:func:`order_witness`)."""
    R = rules
    return max(a0, b0) + max(R.p, R.q, R.s) + max(R.K, R.K2) + R.m0 + 1


def order_witness(pre, max_from: int | None = None
                  ) -> tuple[int, int, int, int, int, int, int, int] | None:
    """A witness ``(r0, t, M, α, β, a0, b0, sense)`` that ``Q_v`` is infinite, or None: for every
    ``a >= a0`` with ``a ≡ α`` and ``b >= b0`` with ``b ≡ β (mod M)``, ``r0·u^a·v^b ∈ P`` iff
    ``b − a >= t`` (``sense = 1``) or iff ``b − a < t`` (``sense = −1``), where ``M`` divides
    ``q``, ``p`` and ``s``, and ``p − K' <= t <= K − q + 1``. (The old form, ``(r0, t)``, is
    ``M = 1``, ``a0 = 0``, ``b0 = 1``, ``sense = 1``.)

    With a *verified* pretension this proves ``Q_v`` infinite. For ``i < j`` with ``M | j − i``,
    take ``c >= b0`` with ``i + c ≡ β`` and ``a ≡ α``, ``a >= a0``, in ``(i + c − t, j + c − t]``
    (an interval of ``j − i >= M`` integers; ``c`` large makes ``a >= a0``): the position
    ``words[r0] + a·u + c·v`` is a test that ``v^i`` and ``v^j`` answer differently. For any
    ``i < j``: indistinguishability is a congruence, so ``v^i ≡ v^j`` would give
    ``v^i ≡ v^(i + M(j − i))``, which is told apart. So ``v, v², …`` are pairwise distinguishable
    (also in every ``Q_m``, ``m >= v``, whose tests include these).

    A band, ``t <= b − a < t + w`` (``sense = 2 + w``, with ``p − K' <= t`` and
    ``t + w <= K − q + 1``, and some ``d`` in the band with ``d ≡ β − α (mod M)``): for ``i < j``
    with ``M | j − i``, let ``d`` be the largest difference of the band in that class; a test
    with ``c − a + i = d`` answers ``P`` for ``v^i`` and, as ``d + (j − i) >= d + M`` lies above
    the band, ``N`` for ``v^j``. The steps of ``red`` keep a band's rule as they keep
    ``b − a >= t``: a ``v``-step starts and ends at ``b − a >= K + 1 − q >= t + w``, outside the
    band; a ``u``-step at ``b − a <= p − K' − 1 < t``, outside too.

    Why a finite box suffices: along the single steps of ``red`` from a point, ``F`` is constant
    (every point of the path has the same reduction), the classes mod ``M`` are kept (``M``
    divides every step) and so is the rule (a ``v``-step acts where ``b − a > K`` and leaves
    ``b − a >= K + 1 − q >= t``; a ``u``-step acts where ``b − a < −K'`` and leaves
    ``b − a <= p − K' − 1 < t``; the diagonal keeps ``b − a``). The last point of the path with
    ``a >= a0`` and ``b >= b0`` is the reduction itself (``a <= m0 + K'``, ``b <= m0 + K``) or
    within one step of leaving that region, hence in ``[0, L]²`` with ``L`` of
    :func:`witness_box`; the rule is compared with ``P`` on every point of the box in the
    region and classes. ``max_from`` bounds ``a0 = b0`` (default ``m0 + K + K' + 4``).

    The difference class ``b − a ≡ β (mod M)`` (``α = DIFFERENCE``), tried when no witness of the
    classes ``a ≡ α``, ``b ≡ β`` exists: the same argument with ``M`` dividing ``p`` and ``q``
    only. The steps of ``red`` keep the class (a ``v``-step changes ``b − a`` by ``q``, a
    ``u``-step by ``p``, the diagonal not at all) and the rule as before; for ``i < j`` with
    ``M | j − i`` the interval ``(i + c − t, j + c − t]`` of ``j − i >= M`` integers holds an
    ``a`` with ``i + c − a ≡ β``, and then ``j + c − a ≡ β`` too: both tests lie in the class.

    A class of ``b`` alone (``α = B_ONLY``; ``M`` divides ``q`` and ``s``, the steps that change
    ``b``) or of ``a`` alone (``α = A_ONLY``; ``M`` divides ``p`` and ``s``), tried last: the steps
    keep it likewise. For ``i < j`` with ``M | j − i``, take ``c >= b0`` with ``i + c ≡ β`` (a
    class of ``b``: then ``j + c ≡ β`` too, and any ``a`` of the interval will do) or any ``c``
    and an ``a ≡ β`` of the interval (a class of ``a``)."""
    R = pre.rules
    dmax = R.m0 + R.K + R.K2 + 4 if max_from is None else int(max_from)
    L = witness_box(R, dmax, dmax)
    grid = np.stack([np.stack([pre.p_at(a, b) for b in range(L + 1)], axis=1) for a in range(L + 1)], axis=1)
    a_ix, b_ix = np.meshgrid(np.arange(L + 1), np.arange(L + 1), indexing="ij")
    low = np.minimum(a_ix, b_ix)
    for kind, steps in _KINDS:
        got = _search(R, grid, a_ix, b_ix, low, dmax, L, kind, steps)
        if got is not None:
            return got
    return None


def _search(R, grid, a_ix, b_ix, low, dmax: int, L: int, kind: int | None, steps: str):
    """The best witness of :func:`order_witness` with classes ``a ≡ α``, ``b ≡ β`` (``kind``
    None) or of the ``kind`` given (:data:`DIFFERENCE`, :data:`B_ONLY`, :data:`A_ONLY`), whose
    modulus divides the ``steps`` named (of ``p``, ``q``, ``s``)."""
    best = None
    g = 0
    for name in steps:
        g = math.gcd(g, {"p": R.p, "q": R.q, "s": R.s}[name])
    for M in (1, 2, 3, 4, 6, 8, 12):      # the periods rays_fit reads, and their divisors
        if g % M or (kind is not None and M == 1):
            continue
        pairs = [(kind, be) for be in range(M)] if kind is not None else itertools.product(range(M), repeat=2)
        for al, be in pairs:
            delta = None          # the class of b − a the region holds (None: every class)
            if kind == DIFFERENCE:
                cls = (b_ix - a_ix) % M == be
                delta = be
            elif kind == B_ONLY:
                cls = b_ix % M == be
            elif kind == A_ONLY:
                cls = a_ix % M == be
            else:
                cls = (a_ix % M == al) & (b_ix % M == be)
                delta = be - al
            lo, hi = R.p - R.K2, R.K - R.q + 1
            # the half-lines b − a >= t, b − a < t, then the bands t <= b − a < t + w
            forms = [(t, sense) for t in range(lo, hi + 1) for sense in (1, -1)]
            forms += [(t, 2 + w) for t in range(lo, hi) for w in range(1, hi - t + 1)
                      if delta is None or any((d - delta) % M == 0 for d in range(t, t + w))]
            for t, sense in forms:
                want = in_rule(b_ix - a_ix, t, sense)
                bad = (grid != want[None]) & cls[None]
                # the least d such that every mismatch has min(a, b) < d (a0 = b0 = d)
                worst = np.where(bad, low[None] + 1, 0).max(axis=(1, 2))
                if M == 1 and sense == 1 and t >= 1 and kind is None:
                    # the old form: a >= 0, b >= 1
                    ok = ~(bad & (b_ix >= 1)[None]).any(axis=(1, 2))
                    hit = np.nonzero(ok)[0]
                    if hit.size and witness_box(R, 0, 1) <= L:
                        return (int(hit[0]), int(t)) + WITNESS_DEFAULTS
                r0 = int(np.argmin(worst))
                d = int(worst[r0])
                if d <= dmax:
                    key = (d, M, sense > 1, t)
                    if best is None or key < best[0]:
                        best = (key, (r0, int(t), M, al, be, d, d, sense))
    return None if best is None else best[1]


