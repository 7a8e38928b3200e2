"""Infinite misère quotients: the certificate ``"kind": "infinite-misere-quotient"`` checked from
the definitions (the document alone, or the ``"certificate"`` of ``cgtalg quotient ... --json``).

The document (written by ``cgtalg.quotients.infinite``; its docstring has the format)
claims, for a heap game: ``Q_n`` is infinite for every ``n >= v`` and ``Q_{v−1}`` is finite
(``infinite_from``), with ``|Q_{v−1}|`` and its ``|P|`` (``last_finite``); every position of
heaps ``<= top`` has the outcome it predicts (``heaps_covered``); ``Q_m = Q_v`` for
``v <= m <= same_quotient_through``; and ``position + a·u + b·v`` is a P-position iff
``b − a >= t`` (``witness``). The referee reads the game's moves itself
(:func:`cgtalg.referee.heaps.heap_rules`), decodes the data (:mod:`cgtalg.referee.ray_read`)
and proves each claim with the lemmas below, with its own code (standard library and numpy).

Definitions. A position is a finite multiset of heaps. In misère play the player who cannot
move wins: a position is a P-position iff it has a move and every option is an N-position.
``A_n`` is the set of positions of heaps ``<= n``; ``G ≡ H`` in ``A_n`` iff ``G + X`` and
``H + X`` have the same outcome for every ``X`` in ``A_n``; the misère quotient ``Q_n`` is
``A_n / ≡`` with its P-portion (Plambeck & Siegel, *Misère quotients for impartial games*,
JCTA 115, 2008).

The pretension. ``M = R × N × N``. ``R = {0, …, order_r − 1}`` carries the generator columns
``cols[i]`` (maps ``R → R``). The counted heaps form two disjoint classes, the ``u``-class ``U``
(``ray.u_class``, ``u`` its least heap; absent: ``{u}``) and the ``v``-class ``V``
(``ray.v_class``, ``v`` its least; absent: ``{v}``): every heap of ``U`` maps to ``(1, 1, 0)``
and every heap of ``V`` to ``(1, 0, 1)`` (their ``row`` is −1, and no other heap's); a heap ``h``
of no class maps to ``(ρ(h), 0, 0)`` where ``ρ(h)`` acts by ``cols[row[h]]``. So a position
``w + g`` (``w`` of no class, ``g`` its class heaps) maps to ``(Φ(w), a, b)``, ``a`` and ``b``
the numbers of heaps of ``g`` in ``U`` and in ``V``, with multiplicity. A *mixed* heap
(``ray.mixed``, :mod:`cgtalg.referee.ray_lifted`) maps to ``(ρ(h), alpha, beta)``: its column
and its *lift* ``ℓ(h) = (alpha, beta)`` both; the heaps neither in a class nor mixed are the
*generators*. The
P-portion is ``{(r, a, b) : F[r, red(a, b)]}``, where ``red`` (rules ``q, K, p, K2, s, m0``)
is: if ``b − a > K`` subtract from ``b`` the least multiple of ``q`` that brings ``b − a`` to
``<= K``; else if ``a − b > K2`` the same with ``a``, ``p``, ``K2``; then if
``min(a, b) > m0`` subtract the least multiple of ``(s, s)`` that brings the minimum to ``<= m0``.

**Lemma 1 (R is a commutative monoid).** If the columns commute pairwise and every element is
reached from 0 by the generators' columns (the least words use generators only), the maps they
generate form a commutative monoid ``T`` and ``t ↦ t(0)`` is a bijection ``T → R``: from
``t(0) = t'(0)``, ``t(s(0)) = s(t(0)) = s(t'(0)) = t'(s(0))`` for every ``s`` in ``T``, so
``t = t'``. So ``R`` is that monoid with identity 0, ``r·ρ(h) = cols[row[h]][r]``, and the image
of a position does not depend on the order of its heaps (a mixed heap's column is among those
checked, and is the multiplication by its value at 0: Lemma M1).

**Lemma 2 (the reduction).** With ``1 <= q <= K + 1``, ``1 <= p <= K2 + 1``, ``1 <= s <= m0 + 1``,
``red`` maps ``N²`` into ``[0, m0 + K2] × [0, m0 + K]`` (the shape of ``F``), and for
``a, b >= 0``: (L1) ``red(a, b) = red(a, b − q)`` when ``b − a > K``; (L2) ``red(a, b) =
red(a − p, b)`` when ``a − b > K2``; (L3) ``red(a, b) = red(a − s, b − s)`` when
``min(a, b) > m0``. Proof: (L1) ``b − a`` and ``b − q − a`` are congruent mod ``q``; if
``b − q − a > K`` both are brought to the same point, else ``b − q − a`` lies in
``(K − q, K]`` and is where the first step takes ``b``; in both cases the first step ends at the
same point (the second step does not apply: ``a − (b − q) < q − K <= 1``), and so does the
rest. (L2) the same. (L3) the first two steps commute with the diagonal shift and keep the
minimum (a ``q``-step leaves ``b > a + K − q >= a − 1``); if the shifted minimum is still
``> m0`` the third step takes one step fewer, else it takes exactly one step from the
unshifted point, to the shifted one. Inside the bounds, ``b − q >= a + K + 1 − q >= 0``.

**Theorem 3 (verification; Plambeck & Siegel 2008, §5).** Let every heap without a move map
to the identity, and ``1 ∉ P``. If (P) no position whose image is in ``P`` has an option whose
image is in ``P``, and (N) every position with a move whose image is not in ``P`` has an option
whose image is in ``P``, then a position is a misère P-position iff its image is in ``P``.
Proof: induction on the tokens. A position without a move is an N-position (the player to move
wins at once) and its heaps map to 1, so its image ``1`` is not in ``P``; otherwise its options
are right by induction, and (P), (N) say it has an option in ``P`` iff its image is not in ``P``.

**Lemma 4 (what the conditions read; no mixed heap).** Write ``G = w + g`` with ``w`` free of class heaps,
``x = Φ(w) ∈ R``, and ``g`` holding ``a`` heaps of ``U`` and ``b`` of ``V``. An option of a heap
carries ``ε = (ε_u, ε_v)`` heaps of ``U`` and of ``V`` and an element ``σ`` of ``R`` (its other
heaps); ``S_h`` is the set of these ``(σ, ε)``. The options of ``G``: a move in ``w`` gives
``(t, (a, b) + ε)`` for ``(t, ε)`` in ``T(w)``, the set of option images of ``w``; a move in a
heap ``t`` of ``g`` in ``U`` gives ``(x·σ, (a − 1, b) + ε)`` for ``(σ, ε)`` in ``S_t``; in ``V``,
``(x·σ, (a, b − 1) + ε)``. Which heaps of the classes ``G`` holds its image does not tell; but
it holds some ``t_u ∈ U`` when ``a >= 1`` and some ``t_v ∈ V`` when ``b >= 1``, and the options
of ``w``, ``t_u`` and ``t_v`` are options of ``G``. So (N) at ``G`` follows from (N*): for every
``t_u ∈ U`` (none when ``a = 0``) and ``t_v ∈ V`` (none when ``b = 0``), some option of ``w``,
``t_u`` or ``t_v`` is in ``P`` (a ``G`` holding more class heaps has those options and more;
with singleton classes (N*) is (N)). (N*) depends only on ``(x, T(w))`` and ``(a, b)``, and reads
``F`` at ``red((a, b) + o)`` for ``o`` in ``O = {(0,0), (1,0), (0,1)} ∪ E ∪ ((−1, 0) + E_U) ∪
((0, −1) + E_V)`` and the flags ``a >= 1``, ``b >= 1`` (``E``: every ``ε`` of every heap;
``E_U``, ``E_V``: those of the heaps of ``U``, of ``V``); (P) for a move in heap ``h`` of a
position of image ``(r, a, b)·Φ(h)`` (``Φ(h) = (1, 1, 0)`` for ``h ∈ U``, ``(1, 0, 1)`` for
``h ∈ V``) reads ``F`` at ``(a, b)`` or ``(a, b) + (1, 0)`` or ``+ (0, 1)`` and at ``(a, b) +
ε``, for every ``r``. The checks ask (N*) and (P) for every heap of each class, and every heap
of a class must have a move (Theorem 3: it does not map to the identity).

*With mixed heaps* (or when asked, ``exact=True``) the N-condition is proved instead by the exact
N-search with counts of :mod:`cgtalg.referee.ray_lifted` (Lemmas M4, M5: every heap with a move,
counts capped, the option images relative to the counts), since a mixed heap changes ``r`` and
(N*) no longer covers its positions; (P) is Lemma M3, the same check with the lift ``ℓ(h)``
(``(1, 0)``, ``(0, 1)``, ``(alpha, beta)`` or ``(0, 0)``) and ``ρ(h)`` (the identity for a class
heap), and ``O`` holds the mixed lifts too.

**Lemma 5 (the N-search).** The pairs ``(Φ(w), T(w))`` are generated from ``(0, ∅)`` by
``(x, T) ↦ (x·ρ(h), T·ρ(h) ∪ x·S_h)`` over the heaps ``h`` of no class with a move (heaps
without a move change nothing). The map is monotone in ``T``, so keeping, per element ``x``,
only the inclusion-minimal sets found covers every pair: each pair contains a kept one with the
same ``x``, and (N*) for the kept one gives it for the pair (an option in ``P`` is one of the
larger set too). The empty position's pair ``(0, ∅)`` is kept apart: at ``(0, 0)`` it has no move, so
(N) does not apply to it there and it covers nothing. The search runs to exhaustion (``R`` and
the sets are finite).

**Lemma 6 (finitely many points).** Let ``d1 = min(o_b − o_a)``, ``d2 = min(o_a − o_b)``,
``d3 = min(min(o_a, o_b))`` over ``O``. The conditions at ``(a, b)`` equal those at
(T1) ``(a, b − q)`` when ``b − a + d1 > K`` and ``b >= q + 1``; (T2) ``(a − p, b)`` when
``a − b + d2 > K2`` and ``a >= p + 1``; (T3) ``(a − s, b − s)`` when ``min(a, b) + d3 > m0``
and ``min(a, b) >= s + 1``: every point read meets the hypothesis of L1 (L2, L3) so its
reduction does not change, and the flags do not change. Each step lowers ``a + b``, so every
point reaches one where none applies; those have ``min(a, b) <= M3 = max(m0 − d3, s)``, and so
``a <= M3 + K2 − d2 + p`` and ``b <= M3 + K − d1 + q``: a finite set, where (P) and (N*) are
checked.

**Lemma 7 (the order witness).** Let ``r0`` be the image of the witness position (of heaps
``<= v`` and of no class, so its image is ``(r0, 0, 0)``) and ``1 <= t <= K − q + 1``. If
``F[r0, red(a, b)] = (b − a >= t)`` at every ``(a, b)``, ``b >= 1``, where none of (W1)
``b − a > K`` and ``b >= q + 1``, (W2) ``a − b > K2``, (W3) ``min(a, b) > m0`` and
``b >= s + 1`` applies, then it holds for every ``a >= 0``, ``b >= 1``: W1–W3 keep
``F`` (L1–L3), keep ``b >= 1``, and keep the rule (W1: ``b − a − q > K − q >= t − 1``, true
before and after; W2: ``b − a + p < p − K2 <= 1 <= t``, false before and after; W3 keeps
``b − a``). Those points have ``min(a, b) <= max(m0, s)``, so ``a <= max(m0, s) + K2`` and
``b <= max(m0, s) + K + q``. Then for ``t <= b < b'``, ``X = position + (b' − t)·u`` has
``X + b'·v`` a P-position and ``X + b·v`` an N-position (Theorem 3: heaps ``<= v <= top``):
the powers ``v^t, v^(t+1), …`` are pairwise distinct in ``Q_v``, and in every ``Q_n``,
``n >= v`` (the same test ``X`` is a position of ``A_n``). So ``Q_n`` is infinite for ``n >= v``.

*The general form* (``modulus`` ``M``, ``a_class`` ``α``, ``b_class`` ``β``, ``a_from`` ``a0``,
``b_from`` ``b0``, ``sense``): the rule ``b − a >= t`` (``ge``) or ``b − a < t`` (``lt``) on the
region ``a >= a0``, ``b >= b0``, ``a ≡ α``, ``b ≡ β (mod M)``, with ``M`` dividing ``q``, ``p`` and
``s`` and ``p − K2 <= t <= K − q + 1``. A point of the region from which a step of ``red``
(W1: ``b − a > K``, to ``(a, b − q)``; W2: ``a − b > K2``, to ``(a − p, b)``; W3: ``min(a, b) >
m0``, to ``(a − s, b − s)``) stays in the region has the same ``F`` (L1–L3), the same classes
and the same rule (W1 leaves ``b − a >= K + 1 − q >= t``; W2 acts where ``b − a < −K2 < t`` and
leaves ``b − a <= p − K2 − 1 < t``; W3 keeps ``b − a``), so the rule is checked at the points of
the region where no such step applies: they lie in ``[0, T]²``, ``T = max(m0 + 1, a0 + s,
b0 + s, a0 + p, b0 + q) + max(K, K2) + 1``. Then for ``i < j`` with ``M | j − i``: take
``c >= b0`` with ``i + c ≡ β``, and ``a ≡ α``, ``a >= a0`` in ``(i + c − t, j + c − t]`` (``j − i
>= M`` integers; ``c`` large): ``position + a·u + c·v`` answers ``v^i`` and ``v^j`` differently.
For any ``i < j``, ``v^i ≡ v^j`` (a congruence) would give ``v^i ≡ v^(i + M(j − i))``: so every
two powers of ``v`` are distinct, and ``Q_n`` is infinite for ``n >= v``.

*The difference class* (``d_class`` ``δ`` in place of ``a_class`` and ``b_class``): the region is
``a >= a0``, ``b >= b0``, ``b − a ≡ δ (mod M)``, with ``M`` dividing ``q`` and ``p`` (not
necessarily ``s``). W1 changes ``b − a`` by ``q``, W2 by ``p``, W3 not at all, so each keeps the
class, and the argument above holds word for word (the same finite set of points, with the
class test on ``b − a``). For ``i < j`` with ``M | j − i``: take ``c >= b0`` and ``a >= a0`` in
``(i + c − t, j + c − t]`` with ``i + c − a ≡ δ`` (the interval holds ``j − i >= M`` integers);
``j + c − a ≡ δ`` too, so both tests lie in the region and the rule answers them differently.

*A class of one count* (``b_class`` ``β`` without ``a_class``: the region ``b ≡ β (mod M)``, any
``a``, with ``M`` dividing ``q`` and ``s``; or ``a_class`` alone: ``a ≡ β``, any ``b``, with ``M``
dividing ``p`` and ``s``). W1 changes ``b`` by ``q``, W3 by ``s`` and W2 not at all (for ``a``:
W2 by ``p``, W3 by ``s``, W1 not at all), so each keeps the class, and the same finite set of
points proves the rule. For ``i < j`` with ``M | j − i``: with a class of ``b``, take ``c >= b0``
with ``i + c ≡ β`` (then ``j + c ≡ β``) and any ``a >= a0`` of ``(i + c − t, j + c − t]``; with a
class of ``a``, any ``c >= b0`` and an ``a ≡ β``, ``a >= a0``, of that interval (``j − i >= M``
integers). The rule answers the two tests differently.

**Lemma 8 (the last finite quotient).** Let no mixed heap below ``v`` have ``beta >= 1`` (else
its copies, heaps ``< v``, would leave ``R × N × {0}``: such a certificate is refused, its
``Q_{v−1}`` not derived). The positions of heaps ``<= v − 1`` map into ``R × N × {0}`` (no heap
of ``V`` is below ``v``, its least heap; those of ``U`` below ``v`` add ``(1, 1, 0)``, a generator
``h < v`` adds ``(ρ(h), 0, 0)``, a mixed one ``(ρ(h), alpha, 0)``). Write ``n(a) =
red(a, 0)[0]``: ``n(a) = a`` for ``a <= K2``, else the number of ``(K2 − p, K2]`` congruent to
``a`` mod ``p`` (L2; ``min(a, 0) = 0 <= m0``), so ``F[r, red(a, 0)] = F[r, n(a), 0]`` and
``n(a + k) = n(n(a) + k)`` for ``k >= 0`` (equal when ``a <= K2``; else both are the number of
``(K2 − p, K2]`` congruent to ``a + k``, as ``n(a) + k > K2 − p``). So ``(r, a, 0) ↦ (r, n(a))``
is a homomorphism onto the states of ``R × {0 .. K2}`` reached from ``(0, 0)`` by the heaps
``< v`` (``(r, a) ↦ (r·ρ(h), n(a + ℓ_a(h)))``), and it keeps ``P``. By Theorem 3, ``Q_{v−1}`` is
the quotient of that finite monoid by ``x ~ y`` iff ``xz ∈ P ⇔ yz ∈ P`` for every ``z`` (the
states reached are the images of the positions, and ``xz`` is ``x`` moved by ``z``'s heaps):
finite, and computed by refining the partition ``{P, not P}`` by the heaps' maps until it is
stable (Moore's algorithm), which gives ``|Q_{v−1}|`` and ``|P|``. (Without mixed heaps the
states reached are ``R' × {0 .. K2}``, ``R'`` generated by the generators ``< v``: ``u < v`` adds 1.)

**Lemma 9 (the same quotient).** If every heap ``v < h <= m`` maps into the submonoid generated
by the heaps ``<= v``, then ``Φ(A_m) = Φ(A_v)``: the same elements and the same tests, so
``Q_m = Q_v``. A heap of ``U`` or ``V`` maps to ``Φ(u)`` or ``Φ(v)``, ``u < v``: always inside; a
generator maps inside iff ``ρ(h)`` is in the span of the generators ``<= v``; a mixed heap is
asked the same (sufficient) test: then ``(ρ(h), alpha, beta)`` is the image of a word of those
generators plus ``alpha·u + beta·v``.

**A counted heap** (``ray.counted``: the top heap ``n`` sits in ``R`` with a count of its copies,
capped): :mod:`cgtalg.referee.ray_counted` checks the count (Lemma C1) and the hypotheses under
which Theorem 3 holds inside the positions with fewer than ``cap`` copies of ``n`` (Theorem C2);
the N-condition is then required at the elements that are not dead only, the witness's element
must not be dead, ``infinite_from`` is ``n`` and no ``last_finite`` is derived (Lemma C3). The
counted heap is in neither class, and the witness position may hold it (its heaps are ``<= n``).

Then **every quoted claim** is compared with what was derived: ``infinite_from`` (``= v``),
``heaps_covered`` (``= top``), ``same_quotient_through``, ``last_finite``, the witness
(position, element, threshold, and the record's copy), the game; and in a ``cgtalg quotient
--json`` document, the last finite quotient's ``max_heap``, ``order``, ``p_portion`` (its size),
``final`` and ``infinite_from``. Its other fields (the table, Φ, the presentation) are handed
to :mod:`cgtalg.referee.quotients` when it reads them, else they are not claimed. The
certificate's ``statement`` is prose for the reader, written from the same claims, and is not
read.
"""

from __future__ import annotations

import time

import numpy as np

from cgtalg.referee._verdict import Malformed, Verdict
from cgtalg.referee.ray_counted import check_counted, dead_mask
from cgtalg.referee.ray_lifted import lifted_n_condition
from cgtalg.referee.ray_read import KIND, MAX_ENTRIES, RayCertificate, Rules, _split, read, recognise
from cgtalg.referee.ray_witness import check_witness, rule_text

__all__ = ["recognise", "check", "read", "RayCertificate", "Rules", "KIND", "MAX_ENTRIES", "MAX_STATES",
           "structure", "conditions", "check_points", "offsets_read", "n_search", "last_finite"]

#: the N-search gives up (and the verdict fails, unchecked) past this many states
MAX_STATES = 5_000_000
_CHECKER = ("cgtalg.referee.rays.check (ray pretension R × N × N: commuting maps, Theorem 3's P- and "
            "N-conditions at the check points of Lemma 6 with the referee's own moves and N-search, "
            "order witness, Lemma 8's quotient)")


# ---------------------------------------------------------------------------------------------
# the structure: Lemma 1, Lemma 2, the maps of the heaps
# ---------------------------------------------------------------------------------------------
def structure(c: RayCertificate, vd: Verdict) -> list[list[tuple[int, ...]]] | None:
    """The heaps' options (the referee's own moves) when the data are a pretension of the shape
    the lemmas need; else None, with the failures recorded."""
    where = "certificate.ray"
    nR = c.order_r
    why = c.rules.problem()
    if why is not None:
        vd.fail(f"{where}.rules: {why}")
    if c.F.shape != (nR,) + c.rules.shape:
        vd.fail(f"{where}.F_shape: {list(c.F.shape)}, but the rules need (order_r, m0 + K2 + 1, m0 + K + 1) "
                f"= {[nR, *c.rules.shape]}")
    for h, i in enumerate(c.row):
        if (i < 0) != c.in_class(h):
            vd.fail(f"{where}.row: heap {h} maps to {'(1, 1, 0) or (1, 0, 1)' if i < 0 else f'column {i}'}, "
                    f"but the counted heaps are those of {where}.u_class = {list(c.us)} and {where}.v_class = "
                    f"{list(c.vs)}")
            break
    if c.cols.size and (c.cols.min() < 0 or c.cols.max() >= nR):
        vd.fail(f"{where}.cols: an entry outside R = 0 .. {nR - 1}: the columns are not maps on R")
    if not vd.ok:
        return None
    cols = c.cols
    for i in range(cols.shape[0]):
        bad = np.nonzero((cols[i][cols] != cols[:, cols[i]]).any(axis=1))[0]
        if bad.size:
            vd.fail(f"{where}.cols: the columns {i} and {int(bad[0])} do not commute (as maps on R), so "
                    "the heaps do not generate a commutative monoid")
            return None
    words = c.words()
    if any(w is None for w in words):
        vd.fail(f"{where}.cols: element {words.index(None)} of R is not reached from the identity 0 "
                "by the columns of the heaps" + (" that are not mixed (Lemma M1)" if c.mixed else ""))
        return None
    options = [c.moves.options(h) for h in range(c.top + 1)]
    ident = np.arange(nR)
    for h in range(c.top + 1):
        if not options[h] and (c.row[h] < 0 or not np.array_equal(cols[c.row[h]], ident)):
            vd.fail(f"{where}.row: heap {h} has no move in {c.game} (the empty game) but does not map to "
                    "the identity")
    for name, cls in (("u", c.us), ("v", c.vs)):
        for h in cls:
            if not options[h]:
                field_ = f"{name}" if len(cls) == 1 else f"{name}_class"
                vd.fail(f"{where}.{field_}: heap {h} has no move in {c.game}, but it is counted")
    if c.F[0, 0, 0]:
        vd.fail(f"{where}.F: the identity (the empty position, an N-position) is in P")
    if vd.ok and c.counted is not None:
        check_counted(c, options, vd)
    return options if vd.ok else None


def _images(c: RayCertificate, options: list) -> dict[int, list[tuple[np.ndarray, tuple[int, int]]]]:
    """``S_h`` per heap with a move: ``(column x ↦ x·σ, ε)`` per distinct option image (a mixed
    heap of an option gives its column and its lift, Lemma M2)."""
    nR = c.order_r
    out: dict[int, list[tuple[np.ndarray, tuple[int, int]]]] = {}
    for h, opts in enumerate(options):
        if not opts:
            continue
        seen: dict[tuple[int, int, int], np.ndarray] = {}
        for parts in opts:
            col = np.arange(nR)
            eu = ev = 0
            for x in parts:
                e = c.lift(x)
                if not c.in_class(x):
                    col = c.cols[c.row[x]][col]
                if e is not None:
                    eu, ev = eu + e[0], ev + e[1]
            seen.setdefault((int(col[0]), eu, ev), col)
        out[h] = [(col, (eu, ev)) for (_s, eu, ev), col in sorted(seen.items())]
    return out


# ---------------------------------------------------------------------------------------------
# Lemma 6: the check points
# ---------------------------------------------------------------------------------------------
def check_points(rules: Rules, offsets: set[tuple[int, int]]) -> list[tuple[int, int]]:
    """The points of Lemma 6 for the offsets ``O`` read: those where no translation applies."""
    d1 = min(ob - oa for oa, ob in offsets)
    d2 = min(oa - ob for oa, ob in offsets)
    d3 = min(min(oa, ob) for oa, ob in offsets)
    R = rules
    m3 = max(R.m0 - d3, R.s)
    out = []
    for a in range(m3 + R.K2 - d2 + R.p + 1):
        for b in range(m3 + R.K - d1 + R.q + 1):
            t1 = b - a + d1 > R.K and b >= R.q + 1
            t2 = a - b + d2 > R.K2 and a >= R.p + 1
            t3 = min(a, b) + d3 > R.m0 and min(a, b) >= R.s + 1
            if not (t1 or t2 or t3):
                out.append((a, b))
    return out


# ---------------------------------------------------------------------------------------------
# Theorem 3: the P-condition
# ---------------------------------------------------------------------------------------------
def _p_condition(c: RayCertificate, S: dict, points: list, vd: Verdict) -> None:
    for a, b in points:
        for h, imgs in S.items():
            # the rest's image times Φ(h) = (ρ(h), ℓ(h)): ρ(h) the identity for a class heap (Lemma M3)
            e = c.lift(h) or (0, 0)
            lhs = c.p_at(a + e[0], b + e[1])
            if not c.in_class(h):
                lhs = lhs[c.cols[c.row[h]]]
            bad = np.zeros(c.order_r, dtype=bool)
            for col, (eu, ev) in imgs:
                bad |= c.p_at(a + eu, b + ev)[col]
            hit = np.nonzero(lhs & bad)[0]
            if hit.size:
                r = int(hit[0])
                vd.fail(f"certificate.ray.F (read through certificate.ray.rules, on the moves of "
                        f"certificate.game = {c.game!r}): the P-condition fails: {c.show(r, a, b, (h,))} is "
                        f"in P and so is one of its options (a move in heap {h})")
                return


# ---------------------------------------------------------------------------------------------
# Lemma 5: the N-search, and the N-condition
# ---------------------------------------------------------------------------------------------
def n_search(c: RayCertificate, S: dict, eps: list[tuple[int, int]],
             max_states: int = MAX_STATES) -> list[tuple[int, list[int]]]:
    """The inclusion-minimal option-image sets ``T ⊂ W = R × eps`` per element ``x`` of ``R``
    over the positions free of the class heaps (Lemma 5); ``W``'s element ``r + k·|R|`` is
    ``(r, eps[k])``. Raises ``OverflowError`` past ``max_states`` states."""
    nR = c.order_r
    kidx = {e: k for k, e in enumerate(eps)}
    heaps = [h for h in S if c.lift(h) is None]
    # per heap: x ↦ x·ρ(h) on R, (r, ε) ↦ (r·ρ(h), ε) on W, and x ↦ the W-elements x·σ + k|R|
    # of its options (σ, ε_k)
    gx = [c.cols[c.row[h]].tolist() for h in heaps]
    gW = [np.concatenate([c.cols[c.row[h]] + k * nR for k in range(len(eps))]).tolist() for h in heaps]
    Sx = [np.stack([col + kidx[e] * nR for col, e in S[h]]).T.tolist() for h in heaps]
    Sb: list[dict[int, int]] = [{} for _h in heaps]       # the same as bit sets, when first needed
    seen: dict[int, set[int]] = {}          # every set found per element (kept or covered)
    kept: dict[int, list[list]] = {}        # x -> [[bits, elements, alive], ...]
    # the empty position (0, ∅) stands apart: at (0, 0) it has no move at all, so it covers
    # no pair (0, T) with T ≠ ∅ there (Lemma 5)
    stack: list[tuple[int, list]] = [(0, [0, [], True])]
    states = 0
    while stack:
        x, ent = stack.pop()
        if not ent[2]:                      # a smaller set for x was found since: it covers this one
            continue
        T = ent[1]
        for j in range(len(heaps)):
            g = gW[j]
            bits = Sb[j].get(x)
            if bits is None:
                bits = 0
                for i in Sx[j][x]:
                    bits |= 1 << i
                Sb[j][x] = bits
            for i in T:
                bits |= 1 << g[i]
            y = gx[j][x]
            found = seen.setdefault(y, set())
            if bits in found:
                continue
            found.add(bits)
            lst = kept.setdefault(y, [])
            if any(o[0] & bits == o[0] for o in lst):
                continue
            keep = []
            for o in lst:
                if o[0] & bits == bits:     # the new set is inside: the old one is covered
                    o[2] = False
                else:
                    keep.append(o)
            ent2 = [bits, sorted({g[i] for i in T}.union(Sx[j][x])), True]
            keep.append(ent2)
            kept[y] = keep
            states += 1
            if states > max_states:
                raise OverflowError(f"the N-search passed {max_states:,} states")
            stack.append((y, ent2))
    return [(0, [])] + [(x, o[1]) for x in sorted(kept) for o in kept[x]]


def _n_condition(c: RayCertificate, S: dict, eps: list, pairs: list, points: list, vd: Verdict) -> None:
    nR = c.order_r
    xs = np.asarray([x for x, _T in pairs], dtype=np.int64)
    lens = np.asarray([len(T) for _x, T in pairs], dtype=np.int64)
    flat = np.asarray([t for _x, T in pairs for t in T], dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum(lens)[:-1]]).astype(np.int64)
    tr, te = flat % nR, flat // nR
    nz = lens > 0
    dead = dead_mask(c)
    for a, b in points:
        good = c.p_at(a, b)[xs] | dead[xs]        # x ∈ P here, or dead: nothing to show
        if flat.size:
            gt = np.zeros(flat.size, dtype=bool)
            for k, (eu, ev) in enumerate(eps):
                sel = te == k
                if sel.any():
                    gt[sel] = c.p_at(a + eu, b + ev)[tr[sel]]
            anyT = np.zeros(xs.size, dtype=bool)
            anyT[nz] = np.logical_or.reduceat(gt, starts[nz])
            good |= anyT
        if a == 0 and b == 0:
            good |= ~nz        # no move at all: the terminal position, 1 ∉ P was checked
        # the moves of the class heaps: a position with a >= 1 holds some heap t_u of the u-class,
        # which one its image does not tell, so each is asked alone (one holding more heaps of the
        # classes has more options); likewise t_v when b >= 1 (Lemma 4)
        gu = [(t, _class_moves(c, S[t], xs, a - 1, b)) for t in c.us] if a >= 1 else [(None, False)]
        gv = [(t, _class_moves(c, S[t], xs, a, b - 1)) for t in c.vs] if b >= 1 else [(None, False)]
        for tu, g1 in gu:
            for tv, g2 in gv:
                bad = np.nonzero(~(good | g1 | g2))[0]
                if not bad.size:
                    continue
                x = int(xs[bad[0]])
                held = tuple(t for t in (tu, tv) if t is not None and t not in (c.u, c.v))
                pos = c.show(x, a - (tu not in (None, c.u)), b - (tv not in (None, c.v)), held)
                named = [f"heap {t} of the {n}-class {list(cls)}" for t, n, cls in ((tu, "u", c.us), (tv, "v", c.vs))
                         if t is not None and len(cls) > 1]
                which = f" (with the moves of {' and '.join(named)})" if named else ""
                vd.fail(f"certificate.ray.F (read through certificate.ray.rules, on the moves of certificate.game = "
                        f"{c.game!r}): the N-condition fails: {pos}{which} is not in P but no option of a "
                        "position with its image and option images is in P")
                return


def _class_moves(c: RayCertificate, imgs: list, xs: np.ndarray, a: int, b: int) -> np.ndarray:
    """Whether a move in one class heap (its option images ``imgs``) from ``x·(a + 1, b)`` (a heap
    of the u-class) or ``x·(a, b + 1)`` (of the v-class) reaches ``P``: ``(x·σ, (a, b) + ε)``."""
    good = np.zeros(xs.size, dtype=bool)
    for col, (eu, ev) in imgs:
        good |= c.p_at(a + eu, b + ev)[col[xs]]
    return good


# ---------------------------------------------------------------------------------------------
# Lemma 7: the witness; Lemma 8: Q_{v−1}; Lemma 9
# ---------------------------------------------------------------------------------------------
def _span(c: RayCertificate, heaps: list[int]) -> np.ndarray:
    """The elements of ``R`` generated by ``heaps`` (a boolean mask)."""
    gens = sorted({c.row[h] for h in heaps if c.row[h] >= 0})
    seen = np.zeros(c.order_r, dtype=bool)
    seen[0] = True
    frontier = np.array([0])
    while frontier.size:
        nxt = np.unique(c.cols[gens][:, frontier]) if gens else frontier[:0]
        nxt = nxt[~seen[nxt]]
        seen[nxt] = True
        frontier = nxt
    return seen


def last_finite(c: RayCertificate) -> tuple[int, int]:
    """``(|Q_{v−1}|, |P|)`` by Lemma 8 (Moore's partition refinement). Raises ``Malformed`` when
    Lemma 8 does not apply (a heap of ``V`` or a mixed heap with ``beta >= 1`` below ``v``)."""
    if any(h < c.v for h in c.vs):       # read() refuses it: v is the least heap of its class
        raise Malformed(f"certificate.ray.v_class: {list(c.vs)} holds a heap below v = {c.v}")
    why = _lemma8_refused(c)
    if why is not None:
        raise Malformed(why)
    # the states (r, a), a = n(a) <= K2, as r·A + a, reached from (0, 0) by the heaps < v: a
    # generator and a mixed heap act by (r, a) ↦ (r·ρ(h), n(a + alpha)), a heap of U by a ↦ n(a + 1)
    A = c.rules.K2 + 1
    nxt = np.asarray([c.rules.red(a, 0)[0] for a in range(A + 4)], dtype=np.int64)
    acts = sorted({(c.row[h] if not c.in_class(h) else -1, (c.lift(h) or (0, 0))[0]) for h in range(c.v)})
    ident = np.arange(c.order_r)
    maps = [(ident if i < 0 else c.cols[i], al) for i, al in acts]
    seen = np.zeros(c.order_r * A, dtype=bool)
    seen[0] = True
    frontier = np.array([0])
    while frontier.size:
        r, a = frontier // A, frontier % A
        nxt_states = np.unique(np.concatenate([col[r] * A + nxt[a + al] for col, al in maps]))
        nxt_states = nxt_states[~seen[nxt_states]]
        seen[nxt_states] = True
        frontier = nxt_states
    states = np.nonzero(seen)[0]
    index = np.full(seen.size, -1, dtype=np.int64)
    index[states] = np.arange(states.size)
    r_of, a_of = states // A, states % A
    inP = c.F[r_of, a_of, 0]            # red(a, 0) = (a, 0) for a <= K2
    succ = [index[col[r_of] * A + nxt[a_of + al]] for col, al in maps]
    label = inP.astype(np.int64)
    count = len(np.unique(label))
    while True:
        sig = np.stack([label] + [label[s] for s in succ], axis=1)
        _u, new = np.unique(sig, axis=0, return_inverse=True)
        new = np.asarray(new).reshape(-1)
        k = int(new.max()) + 1
        label = new
        if k == count:
            break
        count = k
    return count, int(np.unique(label[inP]).size)


def _lemma8_refused(c: RayCertificate) -> str | None:
    """Why Lemma 8 does not derive ``Q_{v−1}`` (a mixed heap below ``v`` counting copies of ``v``)."""
    bad = [(h, be) for h, (_al, be) in sorted((c.mixed or {}).items()) if h < c.v and be >= 1]
    if bad:
        return (f"certificate.ray.mixed: heap {bad[0][0]} below v = {c.v} counts as {bad[0][1]} "
                f"copies of v, so the positions of heaps < v leave R × N × {{0}} and Lemma 8 does not derive "
                f"Q_{c.v - 1}")
    return None


# ---------------------------------------------------------------------------------------------
# the check
# ---------------------------------------------------------------------------------------------
def offsets_read(c: RayCertificate, S: dict) -> set[tuple[int, int]]:
    """The offsets ``O`` the conditions read (Lemma 4; the mixed heaps' lifts, Lemma M3)."""
    E_all = {e for imgs in S.values() for _col, e in imgs}
    return ({(0, 0), (1, 0), (0, 1)} | E_all | set((c.mixed or {}).values())
            | {(eu - 1, ev) for t in c.us for _col, (eu, ev) in S.get(t, ())}
            | {(eu, ev - 1) for t in c.vs for _col, (eu, ev) in S.get(t, ())})


def conditions(c: RayCertificate, options: list, vd: Verdict, exact: bool = False) -> tuple[list, list] | None:
    """Theorem 3's P- and N-conditions at the points of Lemma 6, over the pairs of Lemma 5:
    ``(points, pairs)`` when they hold, else None with the failure recorded in ``vd``.
    ``options``: the heaps' options (:func:`structure`, which must have passed). With mixed heaps,
    or ``exact``, the N-condition is the exact N-search's (:mod:`cgtalg.referee.ray_lifted`), and
    ``pairs`` is the number of its kept states."""
    S = _images(c, options)
    E_w = sorted({e for h, imgs in S.items() if c.lift(h) is None for _col, e in imgs})
    points = check_points(c.rules, offsets_read(c, S))
    _p_condition(c, S, points, vd)
    if not vd.ok:
        return None
    if exact or c.mixed is not None:
        kept = lifted_n_condition(c, S, vd, MAX_STATES)
        return (points, kept) if vd.ok else None    # type: ignore[return-value]
    try:
        pairs = n_search(c, S, E_w)
    except OverflowError as exc:
        vd.fail(f"certificate.ray: not checked: {exc}")
        return None
    _n_condition(c, S, E_w, pairs, points, vd)
    return (points, pairs) if vd.ok else None


def _claim_int(d: dict, key: str, want: int, where: str, vd: Verdict, what: str) -> None:
    if key in d and d[key] != want:
        vd.fail(f"{where}{key}: {d[key]!r}, but {what} is {want}")


def check(doc: dict, exact: bool = False) -> list[Verdict]:
    """The verdicts on ``doc`` (module docstring): one on the infinite quotient, and the verdicts
    of :mod:`cgtalg.referee.quotients` on the finite quotient a ``cgtalg quotient --json``
    document also quotes, when that module reads them. The quick checks (the structure, the
    witness, the quoted numbers) run first; the P- and N-conditions only when they pass.
    ``exact``: prove the N-condition by the exact N-search with counts even without mixed heaps
    (:mod:`cgtalg.referee.ray_lifted`; a certificate with mixed heaps always is).

    Raises
    ------
    Malformed
        When a field the check needs is missing or unreadable."""
    outer, cert = _split(doc)
    if "linear" in cert:
        return _check_linear(outer, cert)
    c = read(doc)
    t0 = time.monotonic()
    game, top = c.game, c.top
    v = c.v if c.counted is None else top          # Lemma C3: Q_n infinite from the counted heap
    claim = (f"{game}: Q_n is infinite for every n >= {cert.get('infinite_from')!r}, the positions of heaps "
             f"<= {cert.get('heaps_covered')!r} are predicted")
    vd = Verdict("infinite misère quotient", claim, True, [], _CHECKER)
    if "infinite_from" not in cert:
        vd.fail("certificate.infinite_from: missing (the claim the certificate proves)")
    _claim_int(cert, "infinite_from", v, "certificate.", vd, "the counted heap v (where Q_n turns infinite)")
    _claim_int(cert, "heaps_covered", top, "certificate.", vd, "the top heap of the ray record")
    options = structure(c, vd)
    if options is None:
        return [vd]
    # the quoted claims: Lemma 7, Lemma 8, Lemma 9, the document's fields
    wit = check_witness(c, cert, vd)
    if wit is not None and c.counted is not None and dead_mask(c)[wit[1]]:
        vd.fail("certificate.witness: its element is dead (count = cap): no outcome of its positions is shown")
    refused = _lemma8_refused(c) if c.counted is None else None
    if refused is not None:
        vd.fail(refused)
    order, pcount = last_finite(c) if c.counted is None and refused is None else (None, None)
    lf = cert.get("last_finite")
    if lf is not None and c.counted is not None:
        vd.fail("certificate.last_finite: a certificate with a counted heap does not show the last finite "
                "quotient (Lemma C3)")
    elif lf is not None and refused is None:
        if not isinstance(lf, dict):
            raise Malformed("certificate.last_finite: an object {heap, order, p_count}")
        _claim_int(lf, "heap", v - 1, "certificate.last_finite.", vd, "v − 1")
        _claim_int(lf, "order", order, "certificate.last_finite.", vd, f"|Q_{v - 1}| (Lemma 8)")
        _claim_int(lf, "p_count", pcount, "certificate.last_finite.", vd, f"|P| of Q_{v - 1} (Lemma 8)")
    same = cert.get("same_quotient_through")
    if same is not None:
        span = _span(c, [h for h in range(v + 1) if c.lift(h) is None])     # the generators <= v
        if isinstance(same, bool) or not isinstance(same, int) or not v <= same <= top:
            vd.fail(f"certificate.same_quotient_through: {same!r} is not a heap v .. top = {v} .. {top}")
        else:
            # a class heap maps to (1, 1, 0) or (1, 0, 1), the image of u or v: inside; a generator
            # or a mixed heap when its R-part is in the generators' span (Lemma 9)
            out = [h for h in range(v + 1, same + 1)
                   if not c.in_class(h) and not span[int(c.cols[c.row[h]][0])]]
            if out:
                vd.fail(f"certificate.same_quotient_through: heap {out[0]} does not map into the submonoid "
                        f"of the heaps <= {v}, so Q_{same} = Q_{v} is not shown (Lemma 9)")
    if outer is not None:
        _outer_fields(outer, cert, c, order, pcount, vd)
    if not vd.ok:
        return [vd]
    got = conditions(c, options, vd, exact)
    if got is None:
        return [vd]
    points, pairs = got
    thm = f"Theorem 3{'' if c.counted is None else ', C2'}"
    conds = (f"P- and N-conditions ({thm}) hold at the {len(points)} check points of Lemma 6 for heaps 0 .. {top} "
             f"on the referee's own moves of {game}, over {len(pairs)} minimal N-search pairs (Lemma 5)"
             if isinstance(pairs, list) else
             f"P-condition ({thm}) holds at the {len(points)} check points of Lemma 6 (Lemma M3) and the "
             f"N-condition at the check points of Lemma M5, by the exact N-search with counts capped at "
             f"C' = {pairs[1]} over {pairs[0]} minimal states (Lemma M4), for heaps 0 .. {top} on the referee's "
             f"own moves of {game}")
    mixed = ("" if not c.mixed else "; mixed heaps " + ", ".join(f"{h} ↦ (ρ({h}), {al}, {be})" for h, (al, be)
                                                                 in sorted(c.mixed.items())) + " (Lemma M1)")
    pos, r0, t, form = wit  # type: ignore[misc]
    base = " + ".join(map(str, pos)) or "0"
    fin = (f" and Q_{v - 1} is finite (order {order}, |P| = {pcount})" if c.counted is None else
           f" (the positions with fewer than {c.counted[1]} copies of heap {top} are predicted)")
    vd.claim = (f"{game}: Q_n is infinite for every n >= {v}{fin}"
                + (f"; every position of heaps <= {top} is predicted" if c.counted is None else "")
                + (f"; Q_m = Q_{v} for {v} <= m <= {same}" if isinstance(same, int) and same > v else ""))
    vd.reasons += [
        f"R: {c.order_r} elements, the {c.cols.shape[0]} columns commute and generate it (Lemma 1); the heaps "
        f"without a move map to the identity; {c.classes_text} counted; rules {vars(c.rules)} (Lemma 2)"
        + ("" if c.counted is None else f"; heap {top} counted in R up to {c.counted[1] - 1} copies (Lemma C1)")
        + mixed,
        conds,
        f"order witness: {rule_text(c, base, c.v, t, form)}, so the powers of heap {c.v} are pairwise "
        f"distinguishable in Q_{v}",
        (f"Q_{v - 1}: order {order}, |P| = {pcount} (Lemma 8)" if c.counted is None else
         "the last finite quotient is not derived from this certificate (Lemma C3)"),
        f"checked in {time.monotonic() - t0:.1f} s"]
    out = [vd]
    if outer is not None:
        out += _finite_part(outer, v, vd)
    return out


def _check_linear(outer: dict | None, cert: dict) -> list[Verdict]:
    """A certificate with a ``"linear"`` record (a linear ray pretension, ``R × Z``): checked by
    :mod:`cgtalg.referee.ray_linear` (which refuses a ``last_finite`` claim: the heaps below ``v``
    are counted through the weights too); here the fields of a ``cgtalg quotient --json``
    document around it, whose finite quotient is checked by :mod:`cgtalg.referee.quotients`."""
    from cgtalg.referee import ray_linear

    if "ray" in cert:
        raise Malformed("certificate: both a \"ray\" and a \"linear\" record (one proof per certificate)")
    out = ray_linear.check(cert)
    vd = out[0]
    v = cert.get("infinite_from")
    if outer is not None:
        if "game" in outer and outer["game"] != cert.get("game"):
            vd.fail(f"game: {outer['game']!r}, but the certificate is about {cert.get('game')!r}")
        if "infinite_from" in outer and outer["infinite_from"] != v:
            vd.fail(f"infinite_from: {outer['infinite_from']!r}, but the certificate says {v!r}")
        if outer.get("final"):
            vd.fail("final: true, but the certificate proves a partial quotient infinite")
        if isinstance(v, int) and not isinstance(v, bool) and outer.get("max_heap") == v - 1:
            out += _finite_part(outer, v, vd)
    return out


def _outer_fields(outer: dict, cert: dict, c: RayCertificate, order: int, pcount: int, vd: Verdict) -> None:
    """The fields of a ``cgtalg quotient --json`` document (the last finite quotient ``Q_{v−1}``)."""
    v = c.v if c.counted is None else c.top
    if "game" in outer and outer["game"] != c.game:
        vd.fail(f"game: {outer['game']!r}, but the certificate is about {c.game!r}")
    if "infinite_from" in outer and outer["infinite_from"] != cert.get("infinite_from"):
        vd.fail(f"infinite_from: {outer['infinite_from']!r}, but the certificate proves {v}")
    if "max_heap" in outer and outer["max_heap"] != v - 1:
        return          # not Q_{v−1}: its fields are another quotient's (the quotients module's)
    if outer.get("final"):
        vd.fail(f"final: true, but Q_{v} is infinite, so no quotient of the whole game is finite")
    if order is None:               # a counted certificate: the quotients module checks Q_{v−1}
        return
    _claim_int(outer, "order", order, "", vd, f"|Q_{v - 1}| (Lemma 8)")
    pp = outer.get("p_portion")
    if isinstance(pp, list) and len(pp) != pcount:
        vd.fail(f"p_portion: {len(pp)} elements, but |P| of Q_{v - 1} is {pcount} (Lemma 8)")


def _finite_part(outer: dict, v: int, vd: Verdict) -> list[Verdict]:
    """The finite quotient's other fields: :mod:`cgtalg.referee.quotients` when it reads them."""
    sub = {k: x for k, x in outer.items() if k not in ("certificate", "infinite_from")}
    try:
        from cgtalg.referee import quotients
    except ImportError:                 # pragma: no cover - built beside this module
        quotients = None
    why = "no referee module reads them"
    if quotients is not None:
        try:
            if quotients.recognise(sub):
                return list(quotients.check(sub))
        except Malformed as exc:
            why = f"cgtalg.referee.quotients cannot read them: {exc}"
    vd.reasons.append(f"not claimed: the table, Φ and presentation of Q_{v - 1} in this document ({why}); "
                      "its order and |P| are checked above")
    return []
