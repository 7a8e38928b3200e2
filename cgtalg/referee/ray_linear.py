"""Infinite misère quotients by a *linear ray*: the certificate ``"kind": "infinite-misere-quotient"``
with a ``"linear"`` record, checked from the definitions (the referee's half of
:mod:`cgtalg.quotients.rays_linear`, sharing no code with it: standard library, numpy and the
referee only).

Definitions (Plambeck & Siegel, *Misère quotients for impartial games*, JCTA 115, 2008). A
position is a finite multiset of heaps. In misère play a position is a P-position iff it has a
move and every option is an N-position (a position without a move is an N-position). ``A_n`` is
the set of positions of heaps ``<= n``; ``G ≡ H`` in ``A_n`` iff ``G + X`` and ``H + X`` have the
same outcome for every ``X`` in ``A_n``; ``Q_n = A_n / ≡``. The moves are the referee's own
reading of the game's name (:func:`cgtalg.referee.heaps.heap_rules`).

The document::

    {"kind": "infinite-misere-quotient", "format": 1, "game": "0.354",
     "infinite_from": top, "heaps_covered": top,
     "witness": {"heap": s, "index": c, "period": p, "probes": [[hp, ep], [hm, em]]},
     "linear": {"format": 1, "top": top, "order_r": m, "table": <m×m little-endian int32>,
                "rho": [0, ρ(1), ..., ρ(top)], "lam": [0, λ(1), ..., λ(top)],
                "window": [lo, hi], "periods": [q_lo, q_hi], "F": <packbits of m × (hi − lo + 1)>}}

(``table`` and ``F``: base64 of zlib; ``F`` in numpy's default bit order, row-major.)

The pretension. ``R = {0, …, m − 1}`` with ``x·y = table[x][y]``. A position ``G`` maps to
``Φ(G) = (Π_{h∈G} ρ(h), Σ_{h∈G} λ(h))`` in ``R × ℤ``. ``fold(z) = z`` on ``[lo, hi]``; above, the
value of ``(hi − q_hi, hi]`` congruent to ``z`` mod ``q_hi``; below, the value of
``[lo, lo + q_lo)`` congruent to ``z`` mod ``q_lo`` (with ``hi − lo + 1 >= max(q_lo, q_hi)`` both
lie in the window). ``f(r, z) = F[r, fold(z) − lo]``. **Fact F**: ``fold(z)`` depends only on
``z mod q_hi`` for ``z > hi − q_hi``, and only on ``z mod q_lo`` for ``z < lo + q_lo`` (inside the
window ``fold`` is the identity, and ``(hi − q_hi, hi]``, ``[lo, lo + q_lo)`` are full residue
systems). For an option ``o`` of a heap (a tuple of heaps), ``ρ(o)`` and ``λ(o)`` are its
product and sum (``()`` gives ``(0, 0)``).

**L1 (R is a commutative monoid; Φ is well defined).** Checked: the entries of ``table`` lie in
``[0, m)``; ``0`` is an identity (row and column 0); ``table`` is symmetric; and the product is
associative: when the images ``ρ(h)`` generate ``R`` (every element is reached from ``0`` by
multiplying by them, checked), by Light's test, ``(x·g)·y = x·(g·y)`` for every image ``g`` and
all ``x, y`` (the elements ``b`` with ``(x·b)·y = x·(b·y)`` for all ``x, y`` are closed under the
product, so they are all of ``R``; Clifford & Preston, *The Algebraic Theory of Semigroups* I,
§1.2), ``m² `` checks per image; otherwise ``(x·y)·z = x·(y·z)`` for all ``m³`` triples, refused
as too large to check past ``m = 1200``. ``m > 8000`` is refused in any case. ``rho`` and ``lam`` have ``top + 1`` entries, ``rho`` in ``[0, m)``, ``ρ(0) =
λ(0) = 0``; every heap ``1 .. top`` without a move has ``ρ = λ = 0``; every heap of an option of a
heap ``h <= top`` is below ``h``. Then the product over a multiset does not depend on the order, so
``Φ`` is a monoid map from positions (under ``+``) to ``R × ℤ``, the positions of moveless heaps
map to ``(0, 0)``, and the option ``G − h + o`` of ``G`` has image ``(Φ_R(G − h)·ρ(o),
Φ_Z(G − h) + λ(o))``.

**L2 (the abstraction).** ``D`` is the largest of ``|λ(h)|``, ``|λ(o)|`` and ``|λ(o) − λ(h)|``
over the heaps ``h`` in ``1 .. top`` and their options ``o``; ``A = lo − D``, ``B = hi + D``. The
abstract states of an integer ``z``: ``E(z)`` for ``A <= z <= B``; ``H(ζ)``, ``0 <= ζ < q_hi``:
``z > B``, ``z ≡ ζ (mod q_hi)``; ``L(ζ)``, ``0 <= ζ < q_lo``: ``z < A``, ``z ≡ ζ (mod q_lo)``;
``abs(z)`` is the state of ``z``. (a) *For ``|δ| <= D``, ``f(r, z + δ)`` is the same for every
``z`` of a state*, written ``value(r, state, δ)``: trivially for ``E``; for ``H(ζ)``, ``z + δ >
B − D = hi > hi − q_hi`` and ``z + δ ≡ ζ + δ``, so Fact F; for ``L(ζ)``, ``z + δ < A + D = lo <
lo + q_lo``, the same. (b) *``add(state, l)``, ``|l| <= D``, is the set of ``abs(z + l)`` over the
``z`` of the state*: for ``E(z)``, ``{abs(z + l)}``; for ``H(ζ)``, ``{H((ζ + l) mod q_hi)}``, and
when ``l < 0`` also ``{E(w) : B + l < w <= B, w ≡ ζ + l (mod q_hi)}``; for ``L(ζ)``,
``{L((ζ + l) mod q_lo)}``, and when ``l > 0`` also ``{E(w) : A <= w < A + l, w ≡ ζ + l (mod
q_lo)}``. Proof for ``H`` (``L`` mirrored): if ``l >= 0``, ``z + l > B``; if ``l < 0``, either
``z + l > B``, or ``B + l < z + l <= B`` and ``B + l >= B − D = hi >= A``, so ``z + l`` is some
such ``E(w)``; each listed state is met (``z`` large, or ``z = w − l``). (c) ``S`` is the set
of pairs ``(r, state)`` reached from ``(0, abs(0))`` by ``(r, s) → (r·ρ(h), s')``, ``s'`` in
``add(s, λ(h))``, over the heaps ``h`` with a move (a moveless heap maps to ``(0, 0)`` and
changes nothing). *Every position ``G`` has ``(Φ_R(G), abs(Φ_Z(G)))`` in ``S``*: by induction
on the heaps of ``G`` (the empty position gives ``(0, abs(0))``; ``G + h`` gives ``(r·ρ(h),
abs(z + λ(h)))`` and ``abs(z + λ(h))`` is in ``add(abs(z), λ(h))`` by (b)).

**L3 (terminal).** ``f(0, 0)`` is False: a position without a move (only moveless heaps) maps
to ``(0, 0)`` by L1, and is an N-position.

**L4 (the P-condition).** For every ``(r, s)`` in ``S`` and heap ``h``: if
``value(r·ρ(h), s, λ(h))`` then ``value(r·ρ(o), s, λ(o))`` is False for every option ``o`` of
``h``. *So no position ``G`` with ``f(Φ(G))`` has an option ``G'`` with ``f(Φ(G'))``*: ``G' =
G − h + o`` for a heap ``h`` of ``G``; ``G − h`` has ``(r, abs(z))`` in ``S`` (L2c), ``Φ(G) =
(r·ρ(h), z + λ(h))``, ``Φ(G') = (r·ρ(o), z + λ(o))``, and ``|λ(h)|, |λ(o)| <= D`` (L2a).

**L5 (the N-condition).** The triples ``(r, s, T)``, ``T`` a finite set of ``(r', δ)`` with
``|δ| <= D``, are generated from ``(0, abs(0), ∅)`` by adding a heap ``h`` with a move:
``(r·ρ(h), s', T·ρ(h) ∪ {(r·ρ(o), λ(o) − λ(h)) : o an option of h})`` for ``s'`` in ``add(s,
λ(h))``, ``T·ρ(h) = {(r'·ρ(h), δ) : (r', δ) ∈ T}``. *Every position ``G`` gives a generated triple
``(Φ_R(G), abs(z_G), T_G)``, ``T_G`` the set of ``(Φ_R(G'), z_G' − z_G)`` over its options
``G'``*: induction on the heaps; an option of ``G + h`` is ``G' + h`` (image ``(r'·ρ(h), z_G' +
λ(h))``, at the same ``δ`` from ``z_G + λ(h)``) or ``G + o`` (at ``λ(o) − λ(h)``, ``|·| <= D``);
moveless heaps change nothing. Required at every generated triple with ``T ≠ ∅``:
``value(r, s, 0)``, or ``value(r', s, δ)`` for some ``(r', δ)`` in ``T`` — so a position with a
move and not ``f(Φ(G))`` has an option ``G'`` with ``f(Φ(G'))``. *Pruning*: the requirement is
monotone (it holds for ``T`` ⇒ for every ``T2 ⊇ T``) and so is the step (``T ⊆ T2`` ⇒ ``T' ⊆
T2'``, the same ``r``, ``s``); ``T`` is empty only at the start (a heap with a move adds an
option). So the search keeps, per ``(r, s)``, the inclusion-minimal non-empty sets it finds (a
new set containing a kept one is dropped; a kept one containing a new one is dropped), explores
the successors of the start and of every set still kept when its turn comes, and checks the
requirement at every set it finds. Every set it found contains one kept at the end (a set is
dropped only for a subset, and there are finitely many), whose successors it generated. By
induction on the derivation, every triple ``(r, s, T)``, ``T ≠ ∅``, of the unpruned generation
contains a finally kept ``(r, s, T0)``: its parent is the start (whose successors are generated)
or contains a finally kept ``T1``, whose successor by the same heap and ``s`` is found and is a
subset (monotone step). The requirement at ``T0`` gives it at ``T`` (monotone). The search stops
at ``max_states`` kept sets: a failed verdict, not a pass.

**Theorem (the pretension predicts every position of heaps ``1 .. top``).** With L1–L5, a
position ``G`` of heaps ``1 .. top`` is a misère P-position iff ``f(Φ(G))``. Induction on ``G``
in the multiset order (Dershowitz–Manna; well founded): a move replaces one heap by heaps below
it (L1; a split need not lose a token), so every option is smaller and of heaps ``<= top``. If
``G`` has no move it is an N-position and ``f(Φ(G)) = f(0, 0)`` is False (L1, L3). Else every option ``G'``
is a P-position iff ``f(Φ(G'))``. If ``f(Φ(G))``, no option has ``f`` (L4): all are
N-positions, so ``G`` (it has a move) is a P-position. If not, some option has ``f`` (L5): it is a
P-position, so ``G`` is an N-position.

**L6 (the witness: ``Q_n`` is infinite for every ``n >= top``).** The probes are ``[hp, ep, pp]``
and ``[hm, em, pm]`` (a missing period is 1). Checked: ``1 <= s, hp, hm <= top``, ``c >= 0``,
``p, ep, em, pp, pm >= 1``, ``λ(s) ≠ 0``, ``λ(hp) > 0``, ``λ(hm) < 0``; in ``R`` (``x^0 = 0``),
``ρ(s)^(c+p) = ρ(s)^c``, ``ρ(hp)^(ep+pp) = ρ(hp)^ep``, ``ρ(hm)^(em+pm) = ρ(hm)^em``. Then
``ρ(s)^(c+kp) = ρ(s)^c``, ``ρ(hp)^i = ρ(hp)^ep`` (``i = ep + u·pp``, ``u >= 0``), ``ρ(hm)^j =
ρ(hm)^em`` (``j = em + w·pm``, ``w >= 0``), and with the *base* ``B`` (``witness.base``, a list of
heaps, empty when absent) ``X_k(i, j) = s^(c+kp) + hp^i + hm^j + B`` maps to ``(r1, (c + kp)·λ(s) +
t)``, ``r1 = ρ(s)^c·ρ(hp)^ep·ρ(hm)^em·ρ(B)``, ``t = t0 + u·a − w·b`` (``a = pp·λ(hp)``, ``b =
−pm·λ(hm)``, ``t0 = ep·λ(hp) + em·λ(hm) + λ(B)``). *These ``t`` are exactly ``t0 +
gℤ``*, ``g = gcd(a, b)``: ``⊆`` is clear; for ``t − t0 = g·k`` Bézout gives ``g·k = u·a − w·b``,
and ``(u + Nb)·a − (w + Na)·b`` is the same for ``u + Nb, w + Na >= 0``. Let ``φ(y) = f(r1, y)``, ``E = |p·λ(s)|``. *Claim*: if for every residue ``ζ`` mod
``g`` and every ``μ >= 1`` some ``y ≡ ζ (mod g)`` has ``φ(y) ≠ φ(y + μE)``, then the powers
``s^(c+kp)``, ``k >= 0``, are pairwise distinct in ``Q_top``. For ``k < k'``, ``μ = k' − k``: if
``λ(s) > 0`` take ``ζ ≡ (c + kp)·λ(s) + t0``; ``y = (c + kp)·λ(s) + t`` for some ``t`` of
``t0 + gℤ``, i.e. some ``X = hp^i + hm^j + B``, and ``s^(c+k'p) + X`` maps to ``y + μE``; by the
Theorem one of ``s^(c+kp) + X``, ``s^(c+k'p) + X`` (heaps ``<= top``) is a P-position and the
other not. If ``λ(s) < 0``, the hypothesis at the class ``ζ − μE`` gives ``y`` with ``φ(y) ≠
φ(y + μE)``; ``y + μE`` is then of class ``ζ``, the image of some ``s^(c+kp) + X``, and ``y``
that of ``s^(c+k'p) + X``.
``X`` is in ``A_top ⊆ A_n``, so ``Q_n`` is infinite for every ``n >= top``. *The finite check*:
``Lc = lcm(g, q_lo, q_hi)``, ``M1 = ceil((hi − lo + Lc + 1)/E)``. For ``1 <= μ < M1``, ``y`` is
sought in ``[lo − μE − Lc, hi + Lc]``. For ``μ >= M1`` the *straddling* ``y`` (``y < lo``, ``y +
μE > hi``: ``hi − μE < y < lo``, at least ``Lc`` integers) are sought: by Fact F, ``φ(y)``
depends on ``y mod q_lo`` and ``φ(y + μE)`` on ``(y + μE) mod q_hi``, and ``y mod g`` too,
all fixed by ``y mod Lc`` and ``μE mod Lc``; the ``Lc`` values ``[lo − Lc, lo − 1]`` are
straddling and a full residue system, so whether a straddling ``y`` of class ``ζ`` exists depends
on ``μE mod Lc`` only, and ``μ = M1 .. M1 + Lc − 1`` (every ``μ mod Lc``) covers every ``μ >= M1``.

**L7 (the claims).** ``infinite_from``, ``heaps_covered`` and ``linear.top`` are the same heap: the
Theorem covers the positions of heaps ``<= top`` and L6 makes ``Q_n`` infinite from ``top``.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from cgtalg.referee._verdict import Malformed, Verdict
from cgtalg.referee.heaps import heap_rules
from cgtalg.referee.ray_read import _blob, _get, _int   # the same reading as the ray certificates'

__all__ = ["LinearRay", "read", "check", "KIND", "MAX_ORDER", "MAX_ORDER_GENERATED"]

#: the ``kind`` of the document (shared with :mod:`cgtalg.referee.rays`; the ``"linear"`` record tells them apart)
KIND = "infinite-misere-quotient"
#: the largest ``R`` whose associativity is checked triple by triple (``m³``), when the heaps'
#: images do not generate it
MAX_ORDER = 1200
#: the largest ``R`` checked by Light's test (``m²`` products per generating image)
MAX_ORDER_GENERATED = 8000
#: the largest data the referee inflates (entries of ``F``)
MAX_ENTRIES = 50_000_000
#: the largest top heap (the options of every heap are listed)
MAX_TOP = 2_000
#: the largest table ``value(r, state, δ)`` (states × m × (2D + 1)) and witness search (values read)
MAX_WORK = 50_000_000
#: the largest integer of the data (the window, the periods, the weights)
_BIG = 10 ** 12
_CHECKER = "cgtalg.referee.ray_linear.check"


@dataclass
class LinearRay:
    """The decoded ``"linear"`` record (not yet checked): ``table[x][y] = x·y`` in ``R``
    (``m × m``), ``rho[h]``, ``lam[h]`` the image of heap ``h = 0 .. top`` (as many entries as the
    document gives), ``F[r, z − lo]`` on the window ``[lo, hi]``, periods ``q_lo`` below and
    ``q_hi`` above."""

    game: str
    top: int
    m: int
    table: np.ndarray
    rho: list[int]
    lam: list[int]
    lo: int
    hi: int
    q_lo: int
    q_hi: int
    F: np.ndarray

    def fold(self, z: Any) -> Any:
        """``fold`` of the module docstring, of an integer or an integer array (periods >= 1)."""
        if isinstance(z, np.ndarray):
            up = z - self.q_hi * (-((self.hi - z) // self.q_hi))
            down = z + self.q_lo * (-((z - self.lo) // self.q_lo))
            return np.where(z > self.hi, up, np.where(z < self.lo, down, z))
        if z > self.hi:
            return z - self.q_hi * (-((self.hi - z) // self.q_hi))
        if z < self.lo:
            return z + self.q_lo * (-((z - self.lo) // self.q_lo))
        return z

    def f(self, r: int, z: Any) -> Any:
        """The predicted outcome of ``(r, z)`` (True: a P-position); ``z`` may be an array."""
        return self.F[r, self.fold(z) - self.lo]

    def image(self, heaps: Any) -> tuple[int, int]:
        """``Φ`` of a position (heaps ``0 .. top``)."""
        r, z = 0, 0
        for h in heaps:
            r = int(self.table[r, self.rho[h]])
            z += self.lam[h]
        return r, z

    def power(self, x: int, k: int) -> int:
        """``x^k`` in ``R`` (``x^0 = 0``), by squaring (``R`` associative: L1)."""
        r, b = 0, x
        while k:
            if k & 1:
                r = int(self.table[r, b])
            b = int(self.table[b, b])
            k >>= 1
        return r


# -- reading -----------------------------------------------------------------------------------
def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _ints(d: Any, key: str, where: str, n: int | None = None) -> list[int]:
    x = _get(d, key, where)
    if not isinstance(x, list) or not all(_is_int(v) for v in x) or (n is not None and len(x) != n):
        raise Malformed(f"{where}.{key}: a list of {'' if n is None else f'{n} '}integers, not {x!r}"[:200])
    return list(x)


def read(doc: dict) -> LinearRay:
    """The decoded data of a linear ray certificate (module docstring), not yet checked.

    Raises
    ------
    Malformed
        When the document is not such a certificate or a field is missing or unreadable
        (naming the field): the wrong kind or format, no ``"linear"`` record, bad base64 or
        zlib, data of the wrong size, a window with ``lo > hi``, a game the referee cannot read."""
    if not isinstance(doc, dict) or doc.get("kind") != KIND:
        raise Malformed(f"not a certificate of kind {KIND!r}")
    if doc.get("format") != 1:
        raise Malformed(f"format: {doc.get('format')!r}, not 1")
    game = _get(doc, "game", "the certificate")
    try:
        heap_rules(game)
    except Malformed as exc:
        raise Malformed(f"game: {exc}") from None
    lin = _get(doc, "linear", "the certificate")
    w = "linear"
    if not isinstance(lin, dict):
        raise Malformed(f"{w}: an object, not {type(lin).__name__}")
    if lin.get("format") != 1:
        raise Malformed(f"{w}.format: {lin.get('format')!r}, not 1")
    top, m = _int(lin, "top", w), _int(lin, "order_r", w)
    if top < 1:
        raise Malformed(f"{w}.top: {top}, not a heap >= 1")
    if not 1 <= m or m * m > MAX_ENTRIES:
        raise Malformed(f"{w}.order_r: {m} is not an order the referee reads")
    table = np.frombuffer(_blob(lin, "table", w, 4 * m * m), dtype="<i4").astype(np.int64).reshape(m, m)
    rho, lam = _ints(lin, "rho", w), _ints(lin, "lam", w)
    lo, hi = _ints(lin, "window", w, 2)
    q_lo, q_hi = _ints(lin, "periods", w, 2)
    if lo > hi:
        raise Malformed(f"{w}.window: [{lo}, {hi}] has lo > hi")
    for key, xs in (("lam", lam), ("window", [lo, hi]), ("periods", [q_lo, q_hi])):
        if any(abs(x) > _BIG for x in xs):
            raise Malformed(f"{w}.{key}: an entry beyond ±{_BIG}, out of the range the referee reads")
    W = hi - lo + 1
    if m * W > MAX_ENTRIES:
        raise Malformed(f"{w}.window: F would have {m * W} entries, more than the referee reads")
    raw = np.frombuffer(_blob(lin, "F", w, (m * W + 7) // 8), dtype=np.uint8)
    F = np.unpackbits(raw)[: m * W].reshape(m, W).astype(bool)
    return LinearRay(str(game), top, m, table, rho, lam, lo, hi, q_lo, q_hi, F)


# -- L1: the structure -------------------------------------------------------------------------
@dataclass
class _Moves:
    """The heaps with a move, and per heap the distinct option images ``(ρ(o), λ(o), o)``."""

    heaps: list[int]
    images: dict[int, list[tuple[int, int, tuple[int, ...]]]]
    D: int


def _monoid(c: LinearRay, vd: Verdict) -> bool:
    """L1 on ``table`` alone; failures to ``vd``."""
    t, m = c.table, c.m
    if t.min() < 0 or t.max() >= m:
        x, y = (int(v[0]) for v in np.nonzero((t < 0) | (t >= m)))
        vd.fail(f"linear.table: entry [{x}][{y}] = {int(t[x, y])} is not an element 0 .. {m - 1} of R (L1)")
        return False
    ar = np.arange(m)
    for name, line in (("row 0", t[0]), ("column 0", t[:, 0])):
        if not np.array_equal(line, ar):
            x = int(np.nonzero(line != ar)[0][0])
            vd.fail(f"linear.table: {name} is not the identity: 0·{x} or {x}·0 is {int(line[x])}, not {x} (L1)")
            return False
    if not np.array_equal(t, t.T):
        x, y = (int(v[0]) for v in np.nonzero(t != t.T))
        vd.fail(f"linear.table: not commutative: {x}·{y} = {int(t[x, y])} but {y}·{x} = {int(t[y, x])} (L1)")
        return False
    gens = sorted({int(g) for g in c.rho if 0 < int(g) < m}) if len(c.rho) else []
    if m > MAX_ORDER_GENERATED:
        vd.fail(f"linear.order_r: R has {m} elements, too large to check its associativity (at most "
                f"{MAX_ORDER_GENERATED}) (L1)")
        return False
    if _generated(t, gens):              # Light's test on the generating images
        for g in gens:
            left, right = t[t[:, g]], t[:, t[g]]   # [x, y]: (x·g)·y and x·(g·y)
            if not np.array_equal(left, right):
                x, y = (int(v[0]) for v in np.nonzero(left != right))
                vd.fail(f"linear.table: not associative: ({x}·{g})·{y} = {int(left[x, y])} but {x}·({g}·{y}) = "
                        f"{int(right[x, y])} (L1)")
                return False
        return True
    if m > MAX_ORDER:
        vd.fail(f"linear.order_r: R has {m} elements, not all products of the heaps' images, too large to "
                f"check its associativity triple by triple (at most {MAX_ORDER}) (L1)")
        return False
    for x in range(m):
        left, right = t[t[x]], t[x][t]           # [y, z]: (x·y)·z and x·(y·z)
        if not np.array_equal(left, right):
            y, z = (int(v[0]) for v in np.nonzero(left != right))
            vd.fail(f"linear.table: not associative: ({x}·{y})·{z} = {int(left[y, z])} but {x}·({y}·{z}) = "
                    f"{int(right[y, z])} (L1)")
            return False
    return True


def _generated(t: np.ndarray, gens: list[int]) -> bool:
    """Whether every element of the table ``t`` is reached from ``0`` by multiplying by ``gens``."""
    seen = np.zeros(t.shape[0], dtype=bool)
    seen[0] = True
    frontier = np.array([0])
    while frontier.size and gens:
        nxt = np.unique(t[np.ix_(frontier, gens)])
        nxt = nxt[~seen[nxt]]
        seen[nxt] = True
        frontier = nxt
    return bool(seen.all())


def _structure(c: LinearRay, vd: Verdict) -> _Moves | None:
    """L1 and the hypotheses of L2 (the periods, the window, ``D``); None after a failure."""
    if not _monoid(c, vd):
        return None
    top, m = c.top, c.m
    for key, xs in (("rho", c.rho), ("lam", c.lam)):
        if len(xs) != top + 1:
            vd.fail(f"linear.{key}: {len(xs)} entries, but the heaps 0 .. top = {top} need {top + 1} (L1)")
            return None
        if xs[0] != 0:
            vd.fail(f"linear.{key}[0]: {xs[0]}, but the empty heap maps to 0 (L1)")
            return None
    bad = [h for h, x in enumerate(c.rho) if not 0 <= x < m]
    if bad:
        vd.fail(f"linear.rho[{bad[0]}]: {c.rho[bad[0]]} is not an element 0 .. {m - 1} of R (L1)")
        return None
    if min(c.q_lo, c.q_hi) < 1:
        vd.fail(f"linear.periods: {[c.q_lo, c.q_hi]}, but each period is >= 1 (L2)")
        return None
    if c.hi - c.lo + 1 < max(c.q_lo, c.q_hi):
        vd.fail(f"linear.periods: {[c.q_lo, c.q_hi]}, longer than the window [{c.lo}, {c.hi}] (L2)")
        return None
    if top > MAX_TOP:
        vd.fail(f"linear.top: {top}, more heaps than the referee lists the options of (at most {MAX_TOP})")
        return None
    rules = heap_rules(c.game)
    heaps, images, D = [], {}, 0
    for h in range(1, top + 1):
        opts = rules.options(h)
        if not opts:
            if c.rho[h] != 0 or c.lam[h] != 0:
                vd.fail(f"linear.rho[{h}], linear.lam[{h}]: heap {h} has no move in {c.game}, so it must map to "
                        f"(0, 0), not ({c.rho[h]}, {c.lam[h]}) (L1, L3)")
                return None
            continue
        seen: dict[tuple[int, int], tuple[int, ...]] = {}
        for o in opts:
            if any(not 1 <= x < h for x in o):
                vd.fail(f"game: the option {o} of heap {h} in {c.game} holds a heap not below {h}, so the "
                        f"induction over positions does not apply (L1)")
                return None
            seen.setdefault(c.image(o), o)
        heaps.append(h)
        images[h] = [(r, z, o) for (r, z), o in seen.items()]
        D = max([D, abs(c.lam[h])] + [max(abs(z), abs(z - c.lam[h])) for _r, z, _o in images[h]])
    return _Moves(heaps, images, D)


# -- L2: the abstraction ------------------------------------------------------------------------
class _Abstraction:
    """The states of L2, numbered: ``E(z)`` as ``z − A`` (``0 .. B − A``), then ``H(0 .. q_hi − 1)``,
    then ``L(0 .. q_lo − 1)``."""

    def __init__(self, c: LinearRay, D: int) -> None:
        self.c, self.D = c, D
        self.A, self.B = c.lo - D, c.hi + D
        self.nE = self.B - self.A + 1
        self.n = self.nE + c.q_hi + c.q_lo
        self._add: dict[tuple[int, int], tuple[int, ...]] = {}

    def of(self, z: int) -> int:
        """``abs(z)``."""
        if z > self.B:
            return self.nE + z % self.c.q_hi
        if z < self.A:
            return self.nE + self.c.q_hi + z % self.c.q_lo
        return z - self.A

    def rep(self, i: int) -> int:
        """An integer of state ``i`` (L2a: every one reads the same values)."""
        if i < self.nE:
            return self.A + i
        if i < self.nE + self.c.q_hi:
            zeta, q = i - self.nE, self.c.q_hi
            return self.B + 1 + (zeta - self.B - 1) % q
        zeta, q = i - self.nE - self.c.q_hi, self.c.q_lo
        return self.A - 1 - (self.A - 1 - zeta) % q

    def name(self, i: int) -> str:
        if i < self.nE:
            return f"E(z = {self.A + i})"
        if i < self.nE + self.c.q_hi:
            return f"H(z > {self.B}, z ≡ {i - self.nE} mod {self.c.q_hi})"
        return f"L(z < {self.A}, z ≡ {i - self.nE - self.c.q_hi} mod {self.c.q_lo})"

    def add(self, i: int, l: int) -> tuple[int, ...]:
        """``add(state, l)`` of L2b."""
        got = self._add.get((i, l))
        if got is not None:
            return got
        if i < self.nE:
            out = [self.of(self.A + i + l)]
        elif i < self.nE + self.c.q_hi:
            zeta, q = i - self.nE, self.c.q_hi
            out = [self.nE + (zeta + l) % q]
            if l < 0:
                out += [w - self.A for w in range(self.B + l + 1, self.B + 1) if (w - zeta - l) % q == 0]
        else:
            zeta, q = i - self.nE - self.c.q_hi, self.c.q_lo
            out = [self.nE + self.c.q_hi + (zeta + l) % q]
            if l > 0:
                out += [w - self.A for w in range(self.A, self.A + l) if (w - zeta - l) % q == 0]
        self._add[(i, l)] = got = tuple(out)
        return got

    def values(self) -> np.ndarray:
        """``value(r, state, δ)`` as an array ``[state, r, δ + D]`` (L2a)."""
        reps = np.array([self.rep(i) for i in range(self.n)], dtype=np.int64)
        Z = reps[:, None] + np.arange(-self.D, self.D + 1, dtype=np.int64)[None, :]
        cols = self.c.fold(Z) - self.c.lo
        return np.ascontiguousarray(self.c.F[:, cols].transpose(1, 0, 2))


# -- L3, L4, L5: the conditions -------------------------------------------------------------------
def _reach(c: LinearRay, mv: _Moves, ab: _Abstraction) -> np.ndarray:
    """``S`` of L2c as a boolean array ``[r, state]``."""
    reach = np.zeros((c.m, ab.n), dtype=bool)
    start = (0, ab.of(0))
    reach[start] = True
    todo = [start]
    t = c.table
    while todo:
        r, i = todo.pop()
        for h in mv.heaps:
            r2 = int(t[r, c.rho[h]])
            for i2 in ab.add(i, c.lam[h]):
                if not reach[r2, i2]:
                    reach[r2, i2] = True
                    todo.append((r2, i2))
    return reach


def _p_condition(c: LinearRay, mv: _Moves, ab: _Abstraction, reach: np.ndarray, val: np.ndarray,
                 vd: Verdict) -> bool:
    """L4 at every pair of ``S``; the first failure to ``vd``."""
    D, t = ab.D, c.table
    for i in range(ab.n):
        rs = np.nonzero(reach[:, i])[0]
        if not len(rs):
            continue
        for h in mv.heaps:
            pred = val[i][t[rs, c.rho[h]], D + c.lam[h]]
            if not pred.any():
                continue
            for ro, zo, o in mv.images[h]:
                bad = pred & val[i][t[rs, ro], D + zo]
                if bad.any():
                    r = int(rs[np.nonzero(bad)[0][0]])
                    left = " + ".join(map(str, o)) or "nothing"
                    vd.fail(f"linear: the P-condition (L4) fails: a position G of image ({r}, {ab.name(i)}) plus heap "
                            f"{h} has image ({int(t[r, c.rho[h]])}, z{c.lam[h]:+d}), predicted P, and so is its "
                            f"option G + ({left}) (heap {h} leaving {left}), of image ({int(t[r, ro])}, z{zo:+d})")
                    return False
    return True


def _bits(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _n_condition(c: LinearRay, mv: _Moves, ab: _Abstraction, val: np.ndarray, max_states: int,
                 vd: Verdict) -> int | None:
    """The N-search of L5; the number of minimal sets kept, or None after a failure (to ``vd``).
    A set ``T`` is a bit mask, ``(r', δ)`` at bit ``(δ + D)·m + r'``."""
    m, D, n, t = c.m, ab.D, ab.n, c.table
    tl = t.tolist()
    nd = 2 * D + 1
    f0 = [val[i][:, D].tolist() for i in range(n)]
    V = [int.from_bytes(np.packbits(val[i].T.reshape(-1), bitorder="little").tobytes(), "little")
         for i in range(n)]
    emap = {h: [(e // m) * m + tl[e % m][c.rho[h]] for e in range(m * nd)] for h in mv.heaps}
    opts = {h: [sum({1 << ((zo - c.lam[h] + D) * m + tl[r][ro]) for ro, zo, _o in mv.images[h]}) for r in range(m)]
            for h in mv.heaps}
    cache: dict[tuple[int, int], int] = {}

    def mapped(h: int, T: int) -> int:
        got = cache.get((h, T))
        if got is None:
            em = emap[h]
            got = 0
            for e in _bits(T):
                got |= 1 << em[e]
            if len(cache) > 1_000_000:
                cache.clear()
            cache[(h, T)] = got
        return got

    def show(T: int) -> str:
        items = [(e % m, e // m - D) for e in _bits(T)]
        text = ", ".join(f"({r}, z{d:+d})" for r, d in items[:8])
        return "{" + text + (f", … {len(items) - 8} more" if len(items) > 8 else "") + "}"

    kept: dict[int, list[int]] = {}
    stack = [(0, ab.of(0), 0)]
    count = 0
    while stack:
        r, i, T = stack.pop()
        if T and T not in kept[r * n + i]:
            continue                                        # dropped: a smaller set was found
        for h in mv.heaps:
            r2 = tl[r][c.rho[h]]
            T2 = mapped(h, T) | opts[h][r]
            for i2 in ab.add(i, c.lam[h]):
                key = r2 * n + i2
                lst = kept.setdefault(key, [])
                if any(not U & ~T2 for U in lst):
                    continue
                if not f0[i2][r2] and not T2 & V[i2]:
                    vd.fail(f"linear: the N-condition (L5) fails: a position of image ({r2}, {ab.name(i2)}), "
                            f"reached by adding heap {h} to one of image ({r}, {ab.name(i)}), is not predicted P "
                            f"and none of its option images {show(T2)} (relative to its z) is")
                    return None
                lst[:] = [U for U in lst if T2 & ~U] + [T2]
                count += 1
                if count > max_states:
                    vd.fail(f"linear: the N-search (L5) passed max_states = {max_states:,} kept sets before "
                            f"exhausting; the N-condition is not proved")
                    return None
                stack.append((r2, i2, T2))
    return sum(len(x) for x in kept.values())


def _conditions(c: LinearRay, mv: _Moves, max_states: int, vd: Verdict) -> str | None:
    """L2–L5; a summary, or None after a failure."""
    ab = _Abstraction(c, mv.D)
    if ab.n * c.m * (2 * mv.D + 1) > MAX_WORK:
        vd.fail(f"linear: the abstraction has {ab.n} states × {c.m} elements × {2 * mv.D + 1} offsets, too large "
                f"to check (L2)")
        return None
    if c.f(0, 0):
        vd.fail("linear.F: f(0, 0) is True, but the empty position (and every position of moveless heaps) maps "
                "to (0, 0) and is an N-position (L3)")
        return None
    val = ab.values()
    reach = _reach(c, mv, ab)
    if not _p_condition(c, mv, ab, reach, val, vd):
        return None
    kept = _n_condition(c, mv, ab, val, max_states, vd)
    if kept is None:
        return None
    return (f"P- and N-conditions hold (L3, L4, L5) for the heaps 1 .. {c.top} on the referee's own moves of "
            f"{c.game}: D = {mv.D}, {ab.n} abstract states of z (exact on [{ab.A}, {ab.B}]), {int(reach.sum())} "
            f"reachable pairs (r, state), {kept} minimal N-search sets; so every position of heaps <= {c.top} "
            f"is a misère P-position iff f(Φ(G)) (the Theorem)")


# -- L6: the witness ------------------------------------------------------------------------------
def _witness(c: LinearRay, doc: dict, vd: Verdict) -> str | None:
    """L6; a summary, or None after a failure (to ``vd``)."""
    w = doc.get("witness")
    if not isinstance(w, dict):
        vd.fail(f"witness: an object {{heap, index, period, probes}}, not {w!r}"[:200])
        return None
    vals = {}
    for key in ("heap", "index", "period"):
        if not _is_int(w.get(key)):
            vd.fail(f"witness.{key}: an integer, not {w.get(key)!r}"[:200])
            return None
        vals[key] = w[key]
    probes = w.get("probes")
    if (not isinstance(probes, list) or len(probes) != 2
            or not all(isinstance(x, list) and len(x) in (2, 3) and all(_is_int(y) for y in x) for x in probes)):
        vd.fail(f"witness.probes: [[h+, e+(, p+)], [h−, e−(, p−)]], not {probes!r}"[:200])
        return None
    s, cc, p = vals["heap"], vals["index"], vals["period"]
    (hp, ep, pp), (hm, em, pm) = (tuple(x) + (1,) * (3 - len(x)) for x in probes)
    base = w.get("base", [])
    if not isinstance(base, list) or not all(_is_int(h) and 1 <= h <= c.top for h in base) or len(base) > 64:
        vd.fail(f"witness.base: a list of heaps 1 .. top = {c.top}, not {base!r}"[:200])
        return None
    top, lam = c.top, c.lam
    for key, h in (("heap", s), ("probes[0][0]", hp), ("probes[1][0]", hm)):
        if not 1 <= h <= top:
            vd.fail(f"witness.{key}: {h} is not a heap 1 .. top = {top} (L6)")
            return None
    for key, x, least in (("index", cc, 0), ("period", p, 1), ("probes[0][1]", ep, 1), ("probes[1][1]", em, 1),
                          ("probes[0][2]", pp, 1), ("probes[1][2]", pm, 1)):
        if x < least:
            vd.fail(f"witness.{key}: {x}, but it must be >= {least} (L6)")
            return None
    if lam[s] == 0:
        vd.fail(f"witness.heap: λ({s}) = 0, so its powers do not move z (L6)")
        return None
    if lam[hp] <= 0:
        vd.fail(f"witness.probes[0]: heap {hp} has λ = {lam[hp]}, but the first probe has λ > 0 (L6)")
        return None
    if lam[hm] >= 0:
        vd.fail(f"witness.probes[1]: heap {hm} has λ = {lam[hm]}, but the second probe has λ < 0 (L6)")
        return None
    x = c.rho[s]
    if c.power(x, cc + p) != c.power(x, cc):
        vd.fail(f"witness.period: ρ({s})^{cc + p} = {c.power(x, cc + p)} but ρ({s})^{cc} = {c.power(x, cc)} "
                f"in R (L6)")
        return None
    for k, (h, e, per) in enumerate(((hp, ep, pp), (hm, em, pm))):
        if c.power(c.rho[h], e + per) != c.power(c.rho[h], e):
            vd.fail(f"witness.probes[{k}]: ρ({h})^{e + per} ≠ ρ({h})^{e} in R: the powers of heap {h} do not "
                    f"repeat with period {per} from {e} copies (L6)")
            return None
    t = c.table
    r1 = int(t[int(t[c.power(x, cc), c.power(c.rho[hp], ep)]), c.power(c.rho[hm], em)])
    for h in base:
        r1 = int(t[r1, c.rho[h]])
    g = math.gcd(pp * lam[hp], -pm * lam[hm])
    E = abs(p * lam[s])
    Lc = math.lcm(g, c.q_lo, c.q_hi)
    W = c.hi - c.lo + 1
    M1 = -(-(W + Lc) // E)
    if E > _BIG or (M1 - 1) * (2 * W + 3 * Lc) + Lc * Lc > MAX_WORK:
        vd.fail(f"witness: the finite check of L6 (M1 = {M1}, Lc = {Lc}) is too large to run")
        return None

    def classes(ys: np.ndarray, d: int) -> np.ndarray:
        """The classes mod g of the ``y`` of ``ys`` with ``φ(y) ≠ φ(y + d)``."""
        hit = np.zeros(g, dtype=bool)
        hit[ys[c.f(r1, ys) != c.f(r1, ys + d)] % g] = True
        return hit

    for mu in range(1, M1):
        hit = classes(np.arange(c.lo - mu * E - Lc, c.hi + Lc + 1, dtype=np.int64), mu * E)
        if not hit.all():
            zeta = int(np.nonzero(~hit)[0][0])
            vd.fail(f"witness: f({r1}, y) = f({r1}, y + {mu}·{E}) for every y ≡ {zeta} (mod {g}) in "
                    f"[{c.lo - mu * E - Lc}, {c.hi + Lc}], so the powers {s}^({cc} + {p}k) are not told apart (L6)")
            return None
    done = set()
    straddle = np.arange(c.lo - Lc, c.lo, dtype=np.int64)
    for mu in range(M1, M1 + Lc):
        if (mu * E) % Lc in done:
            continue
        done.add((mu * E) % Lc)
        hit = classes(straddle, mu * E)
        if not hit.all():
            zeta = int(np.nonzero(~hit)[0][0])
            vd.fail(f"witness: no straddling y ≡ {zeta} (mod {g}) has f({r1}, y) ≠ f({r1}, y + μ·{E}) for "
                    f"μ ≡ {mu} (mod {Lc}), μ >= {M1}, so the powers {s}^({cc} + {p}k) are not shown apart (L6)")
            return None
    plus = f" with the base {' + '.join(map(str, base))}" if base else ""
    return (f"order witness (L6){plus}: ρ({s})^{cc + p} = ρ({s})^{cc}; probes {hp} (λ = {lam[hp]}, period {pp} from {ep} "
            f"copies) and {hm} (λ = {lam[hm]}, period {pm} from {em}); f({r1}, ·) has no period μ·{E} on any class mod {g} "
            f"(μ < {M1} directly, μ >= {M1} on the straddling values, Lc = {Lc}), so the powers {s}^({cc} + {p}k) "
            f"are pairwise distinguishable in Q_{top}, and Q_n is infinite for every n >= {top}")


# -- L7 and the verdict ----------------------------------------------------------------------------
def _claims(c: LinearRay, doc: dict, vd: Verdict) -> None:
    """L7: ``infinite_from`` and ``heaps_covered`` are ``linear.top``."""
    for key, what in (("infinite_from", "the heap from which L6 shows Q_n infinite"),
                      ("heaps_covered", "the heaps the Theorem covers")):
        if key not in doc:
            vd.fail(f"{key}: missing (the claim the certificate proves)")
        elif not _is_int(doc[key]) or doc[key] != c.top:
            vd.fail(f"{key}: {doc[key]!r}, but {what} is linear.top = {c.top} (L7)"[:300])


def check(doc: dict, max_states: int = 5_000_000) -> list[Verdict]:
    """The verdict on a linear ray certificate (module docstring): one Verdict of kind
    ``"infinite misère quotient"``, ok when L1–L7 all hold. The structure (L1) is checked first;
    then the claims (L7), the witness (L6) and the conditions (L2–L5) each report, so a refused
    certificate says everything that failed. ``max_states`` bounds the N-search of L5 (kept
    sets); passing it is a failure, not a pass.

    Raises
    ------
    Malformed
        When the document cannot be read (:func:`read`)."""
    c = read(doc)
    t0 = time.monotonic()
    claim = (f"{c.game}: Q_n is infinite for every n >= {doc.get('infinite_from')!r} (a linear ray pretension "
             f"predicts every position of heaps <= {c.top})")
    vd = Verdict("infinite misère quotient", claim, True, [], _CHECKER)
    mv = _structure(c, vd)
    _claims(c, doc, vd)
    if mv is None:
        return [vd]
    vd.reasons.append(f"R: {c.m} elements, a commutative monoid with identity 0 (L1); heaps 1 .. {c.top} map to "
                      + ", ".join(f"{h} ↦ ({c.rho[h]}, {c.lam[h]})" for h in range(1, c.top + 1))
                      + f"; F on [{c.lo}, {c.hi}], periods {c.q_lo} below and {c.q_hi} above")
    wit = _witness(c, doc, vd)
    if wit is not None:
        vd.reasons.append(wit)
    conds = _conditions(c, mv, max_states, vd)
    if conds is not None:
        vd.reasons.append(conds)
    if "last_finite" in doc:
        vd.fail("last_finite: a linear ray does not derive the last finite quotient (its heaps below top are "
                "counted through the weights too), so the claim is not shown by this certificate")
    vd.reasons.append(f"checked in {time.monotonic() - t0:.1f} s")
    return [vd]
