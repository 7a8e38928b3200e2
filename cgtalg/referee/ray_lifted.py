"""Mixed heaps in an infinite misère quotient certificate (``certificate.ray.mixed``), and the
exact N-search with counts that checks them: the referee's own proof, from the definitions, of
the N-condition of Theorem 3 of :mod:`cgtalg.referee.rays` (whose docstring has Lemmas 1–9 and
the notation) when some heap carries both an element of ``R`` and copies of ``u`` and ``v``.
Standard library, numpy and the referee only.

A *mixed* heap ``h`` (``[h, alpha, beta]`` of ``ray.mixed``, read by
:mod:`cgtalg.referee.ray_read`) maps to ``(ρ(h), alpha, beta)``: ``ρ(h)`` acts on ``R`` by
``cols[row[h]]`` and the heap counts as ``alpha`` copies of ``u`` and ``beta`` of ``v``. Its
*lift* is ``ℓ(h) = (alpha, beta)``; a heap of the ``u``-class has ``ℓ = (1, 0)`` and ``ρ`` the
identity, of the ``v``-class ``(0, 1)``, a *generator* (neither in a class nor mixed) ``(0, 0)``.

**Lemma M1 (R with mixed heaps).** The generators alone reach every element of ``R`` from 0
(their columns; the least words use them alone), and all the columns commute pairwise (a mixed
heap's column is one of ``cols``, so the check of every pair covers it). By Lemma 1 the maps
``T`` the generators' columns generate satisfy ``t ↦ t(0)`` bijective ``T → R``. A mixed
column ``m`` commutes with every ``t`` of ``T``; let ``t_m`` in ``T`` have ``t_m(0) = m(0)``:
then ``m(t(0)) = t(m(0)) = t(t_m(0)) = t_m(t(0))`` for every ``t``, so ``m = t_m``, the
multiplication by ``m(0)``. So a position ``G`` maps to ``Φ(G) = (x, a, b)``: ``x`` the product
of ``ρ`` over its generators and mixed heaps (in any order), ``a`` (``b``) the sum of the first
(second) coordinates of the lifts of its heaps: a homomorphism of the positions' monoid into
``R × N × N``.

**Lemma M2 (the options' images).** A move in heap ``h`` of ``G = G' + h`` gives ``G' + o`` for
an option ``o`` of ``h``; ``o``'s heaps contribute their columns and lifts, a mixed heap both:
``o`` maps to ``(σ, ε)`` with ``σ`` the product of ``ρ`` over its generators and mixed heaps
and ``ε`` the sum of its lifts. ``S_h`` is the set of these. If ``Φ(G') = (r, a, b)``, then
``Φ(G) = (r·ρ(h), (a, b) + ℓ(h))`` and the move gives ``(r·σ, (a, b) + ε)``.

**Lemma M3 (the P-condition).** (P) of Theorem 3 holds iff for every heap ``h`` with a move,
every ``(a, b)`` in ``N²`` and every ``r`` in ``R``: if ``F[r·ρ(h), red((a, b) + ℓ(h))]``, then
``F[r·σ, red((a, b) + ε)]`` for no ``(σ, ε)`` in ``S_h`` (M2 with ``(r, a, b)`` the image of the
rest; asking it of every ``r``, reached or not, asks more). It reads ``F`` at ``(a, b) + o``,
``o`` in ``{ℓ(h)} ∪ E``, which Lemma 6's set ``O`` holds (the mixed lifts are added to it), so the
check points of Lemma 6 prove it everywhere.

**Lemma M4 (the exact N-search with counts).** Fix a cap ``C >= 1`` (Lemma M5 takes ``C'``). The
*state* of a position ``G`` with ``Φ(G) = (x, a, b)`` is ``(x, min(a, C), min(b, C), T(G))``,
where ``T(G)`` is the set of its option images *relative to its counts*: ``(σ, δ)`` for an option
of image ``(σ, (a, b) + δ)``. With ``δ`` in the finite set ``D = {ε − ℓ(h)}`` over the heaps
``h`` with a move and their ``(σ, ε)`` in ``S_h``, ``T(G) ⊂ R × D``, so there are finitely many
states. The empty position has ``(0, 0, 0, ∅)``; adding heap ``h`` to ``G`` gives ``(x·ρ(h),
min(ca + ℓ_a, C), min(cb + ℓ_b, C), T(G)·ρ(h) ∪ {(x·σ, ε − ℓ(h)) : (σ, ε) ∈ S_h})``: an old
option ``G − t + o`` becomes ``G − t + o + h``, whose R-part is multiplied by ``ρ(h)`` and whose
counts rise by ``ℓ(h)`` as ``G``'s do (so its relative offset stays), and the new moves are those
in ``h`` (M2: ``G`` is the rest, the move removes ``ℓ(h)`` and adds ``ε``). A heap without a move
maps to the identity (Theorem 3's hypothesis) and adds no option, so it does not change the
state: the search adds the heaps with a move only (every class heap, mixed heap, generator, ``u``
and ``v`` themselves, the counted heap), and every state but the empty one's has ``T ≠ ∅``. The
map is a function of the state (the capped count ``min(a + ℓ_a, C) = min(min(a, C) + ℓ_a, C)``),
and monotone in ``T`` (``T ⊂ T'`` gives ``T·ρ(h) ∪ X ⊂ T'·ρ(h) ∪ X`` with the same ``(x, ca,
cb)`` parts). Keep, per ``(x, ca, cb)``, only the inclusion-minimal sets found, and expand each
kept one (a set superseded before its turn is not expanded; those kept at the end all were): by
induction along the heaps with a move of a position ``G`` (added in any order, from the empty
state, which is expanded), *every position with a move whose image is not dead has a kept state
with its ``(x, ca, cb)`` and a set inside ``T(G)``* (the successor by ``h`` of the kept state of
the heaps before was found, with ``G``'s next key and, by monotonicity, a set inside the next
``T``; it is kept, or contains a set kept before, or was superseded by a smaller one: a chain of
strictly smaller sets that ends at one kept at the end). The empty position stands apart (it is
expanded, never kept): it has no move, its image ``(0, 0, 0)`` is not in ``P`` (checked), so (N)
does not apply to it and it covers no state with a move. Every kept set ``T`` is ``T(G)`` of a
position ``G`` the search reached (with the state's exact counts below ``C``). The N-condition of
a state at a point ``(a, b)`` is: ``F[x, red(a, b)]``, or ``x`` is dead (a counted heap, Theorem
C2), or ``F[σ, red((a, b) + δ)]`` for some ``(σ, δ)`` in ``T``. If it holds for every kept state
at every point its key stands for (``a = ca`` when ``ca < C``, every ``a >= C`` when ``ca = C``;
the same for ``b``), then (N) holds: a position ``G`` with a move and image ``(x, a, b)`` not in
``P`` (and ``x`` not dead) has a kept state ``(x, ca, cb, T)``, ``T ⊂ T(G)``, whose key stands
for ``(a, b)``; some ``(σ, δ)`` in ``T`` has ``F[σ, red((a, b) + δ)]``, and that is an option of
``G`` in ``P``. A dead element stays dead when a heap is added (Lemma C1: the count never falls),
so the search drops dead states: their positions ask nothing (Theorem C2), and every heap-by-heap
prefix of a position that is not dead is not dead either.

**Lemma M5 (finitely many points).** Let ``C' = max(C, −min δ_a, −min δ_b)`` over ``D`` (so
``C' <= 4``, a lift being at most 4) be the cap the search uses (``C = 2``, :data:`COUNT_CAP`;
any ``C >= 1`` is sound, a larger one tells more counts apart), and ``d1, d2, d3`` Lemma 6's
minima of ``o_b − o_a``, ``o_a − o_b``, ``min(o_a, o_b)`` over ``O' = {(0, 0)} ∪ D`` (all ``<= 0``).
Every point ``(a, b)`` of a kept state's key has ``(a, b) + δ >= 0`` for ``δ`` in ``T``: a capped
coordinate is ``>= C' >= −δ``; an exact one is the count of the position ``G`` the set came from,
whose options have counts ``>= 0``. At such points the condition reads ``F`` at ``red((a, b) + o)``
for ``o`` in ``{(0, 0)} ∪ {δ of T}`` ``⊂ O'``, and equals the condition at (T1) ``(a, b − q)`` when
``b`` is capped, ``b − a + d1 > K`` and ``b − q >= C'``; (T2) ``(a − p, b)`` when ``a`` is capped,
``a − b + d2 > K2`` and ``a − p >= C'``; (T3) ``(a − s, b − s)`` when both are capped,
``min(a, b) + d3 > m0`` and ``min(a, b) − s >= C'`` (every point read meets the hypothesis of L1,
L2, L3, at coordinates ``>= 0``; the lower point stands for the same key). Each step lowers
``a + b``, so every point of a key reaches one where none applies. Those lie in ``[0, Tw]²``,
``Tw = C' + m0 + |d3| + K + K2 + |d1| + |d2| + p + q + 2s + 2``: if ``a > Tw`` (so ``a`` capped)
and ``a − b + d2 > K2``, T2 applies (``a − p > Tw − p >= C'``); else ``b >= a + d2 − K2 > Tw −
|d2| − K2 >= C'``, so ``b`` is capped too, and ``min(a, b) > Tw − |d2| − K2`` gives ``min + d3 >
m0`` and ``min − s >= C'``: T3 applies. The same with ``b > Tw`` (T1, or ``a`` capped and T3).
So the N-condition is checked, per key, at the points of ``[0, Tw]²`` it stands for where no
step applies (:func:`state_points`), which proves it at every point.

*What it asks more.* A capped key stands for every count ``>= C'``, but the positions with a given
set ``T`` need not have every such count (a set came from one position, whose counts may be
smaller or larger than a point checked): the check asks the condition at points no position with
that set reaches. That is sound (it asks more, never less). With classes alone (no mixed heap) it
refuses nothing the path of Lemmas 4–6 accepts: a set with a count ``>= 1`` came from a position
holding a heap of that class, and (N*) for the position's heaps of no class and one held heap of
each class whose count is ``>= 1`` (proved by that path at every point) gives the state's
condition at every point of its key. With
mixed heaps a true certificate could be refused at such a point; a larger cap
(``lifted_n_condition(..., cap=...)``) asks fewer of them.
"""

from __future__ import annotations

from collections import deque

import numpy as np

from cgtalg.referee._verdict import Verdict
from cgtalg.referee.ray_counted import dead_mask
from cgtalg.referee.ray_read import RayCertificate, Rules

__all__ = ["COUNT_CAP", "relative_offsets", "effective_cap", "window", "state_points", "lifted_search",
           "lifted_n_condition"]

#: the cap ``C`` on the counts a state of the exact N-search tells apart (Lemma M5: any ``C >= 1``
#: is sound; the search raises it to the largest drop of a count by a move, at most 4)
COUNT_CAP = 2


def relative_offsets(c: RayCertificate, S: dict) -> list[tuple[int, int]]:
    """``D``: every ``ε − ℓ(h)`` over the heaps ``h`` with a move and ``(σ, ε)`` in ``S_h`` (Lemma M4)."""
    out = set()
    for h, imgs in S.items():
        la, lb = c.lift(h) or (0, 0)
        out.update((eu - la, ev - lb) for _col, (eu, ev) in imgs)
    return sorted(out)


def effective_cap(D: list[tuple[int, int]], cap: int = COUNT_CAP) -> int:
    """``C' = max(C, −min δ_a, −min δ_b)`` (Lemma M5)."""
    if cap < 1:
        raise ValueError(f"the cap on the counts is at least 1, not {cap}")
    return max([cap] + [-da for da, _db in D] + [-db for _da, db in D])


def window(rules: Rules, D: list[tuple[int, int]], cap: int) -> tuple[int, int, int, int]:
    """``(d1, d2, d3, Tw)`` of Lemma M5 for the offsets ``{(0, 0)} ∪ D`` and the cap ``C'``."""
    O = [(0, 0)] + list(D)
    d1 = min(ob - oa for oa, ob in O)
    d2 = min(oa - ob for oa, ob in O)
    d3 = min(min(oa, ob) for oa, ob in O)
    R = rules
    tw = cap + R.m0 + abs(d3) + R.K + R.K2 + abs(d1) + abs(d2) + R.p + R.q + 2 * R.s + 2
    return d1, d2, d3, tw


def state_points(rules: Rules, D: list[tuple[int, int]], cap: int, ca: int, cb: int) -> list[tuple[int, int]]:
    """The points a key with capped counts ``(ca, cb)`` stands for, in ``[0, Tw]²``, where none of
    Lemma M5's steps T1–T3 applies (``cap`` is ``C'``)."""
    d1, d2, d3, tw = window(rules, D, cap)
    R = rules
    As = [ca] if ca < cap else range(cap, tw + 1)
    Bs = [cb] if cb < cap else range(cap, tw + 1)
    out = []
    for a in As:
        for b in Bs:
            t1 = cb == cap and b - a + d1 > R.K and b - R.q >= cap
            t2 = ca == cap and a - b + d2 > R.K2 and a - R.p >= cap
            t3 = ca == cb == cap and min(a, b) + d3 > R.m0 and min(a, b) - R.s >= cap
            if not (t1 or t2 or t3):
                out.append((a, b))
    return out


def lifted_search(c: RayCertificate, S: dict, D: list[tuple[int, int]], cap: int,
                  max_states: int) -> list[tuple[int, int, int, list[int], list]]:
    """The kept states of Lemma M4: ``(x, ca, cb, T, entry)`` with ``T`` a sorted list of the
    elements ``σ + k·|R|`` of ``W = R × D`` (``(σ, D[k])``) and ``entry`` the search's record, whose
    parent pointers give a position of the state (:func:`_position`). Dead states are not kept.
    Raises ``OverflowError`` past ``max_states`` states."""
    nR = c.order_r
    kidx = {e: k for k, e in enumerate(D)}
    dead = dead_mask(c).tolist()
    ident = np.arange(nR)
    heaps = sorted(S)
    lifts = [c.lift(h) or (0, 0) for h in heaps]
    cols = [ident if c.in_class(h) else c.cols[c.row[h]] for h in heaps]
    gx = [col.tolist() for col in cols]
    gW = [np.concatenate([col + k * nR for k in range(len(D))]).tolist() for col in cols]
    # x ↦ the W-elements (x·σ, ε − ℓ(h)) of a move in h
    Sx = [[frozenset(r) for r in
           np.stack([col + kidx[(eu - la, ev - lb)] * nR for col, (eu, ev) in S[h]]).T.tolist()]
          for h, (la, lb) in zip(heaps, lifts)]
    C1 = cap + 1
    seen: dict[int, set[frozenset]] = {}     # every set found per key (kept or covered)
    kept: dict[int, list[list]] = {}        # key -> [[set, alive, parent, heap], ...]
    # the empty position (0, 0, 0, ∅) is expanded but never kept: it has no move (Lemma M4)
    # breadth first (by the number of heaps): small sets tend to come first, and fewer are superseded
    queue: deque[tuple[int, list]] = deque([(0, [frozenset(), True, None, None])])
    states = 0
    while queue:
        key, ent = queue.popleft()
        if not ent[1]:                      # a smaller set for its key was found since: it covers this one
            continue
        x, ca, cb = key // (C1 * C1), key // C1 % C1, key % C1
        T = ent[0]
        for j in range(len(heaps)):
            y = gx[j][x]
            if dead[y]:
                continue
            la, lb = lifts[j]
            ykey = (y * C1 + min(ca + la, cap)) * C1 + min(cb + lb, cap)
            new = Sx[j][x].union(map(gW[j].__getitem__, T))
            found = seen.setdefault(ykey, set())
            if new in found:
                continue
            found.add(new)
            lst = kept.setdefault(ykey, [])
            if any(o[0] <= new for o in lst):
                continue
            keep = []
            for o in lst:
                if new <= o[0]:             # the new set is inside: the old one is covered
                    o[1] = False
                else:
                    keep.append(o)
            ent2 = [new, True, ent, heaps[j]]
            keep.append(ent2)
            kept[ykey] = keep
            states += 1
            if states > max_states:
                raise OverflowError(f"the exact N-search passed {max_states:,} states")
            queue.append((ykey, ent2))
    out = []
    for key in sorted(kept):
        for o in kept[key]:
            out.append((key // (C1 * C1), key // C1 % C1, key % C1, sorted(o[0]), o))
    return out


def _position(entry: list) -> list[int]:
    """The heaps added along the parent pointers of a search record: a position of its state."""
    heaps = []
    while entry[2] is not None:
        heaps.append(entry[3])
        entry = entry[2]
    return sorted(heaps)


def lifted_n_condition(c: RayCertificate, S: dict, vd: Verdict, max_states: int,
                       cap: int = COUNT_CAP) -> tuple[int, int] | None:
    """The N-condition of Theorem 3 by Lemmas M4 and M5: ``(kept states, C')`` when it holds,
    else None with the failure (a position of the failing state and the point) or the state limit
    recorded in ``vd``."""
    D = relative_offsets(c, S)
    C = effective_cap(D, cap)
    try:
        states = lifted_search(c, S, D, C, max_states)
    except OverflowError as exc:
        vd.fail(f"certificate.ray: not checked: {exc}")
        return None
    nR = c.order_r
    groups: dict[tuple[int, int], list] = {}
    for st in states:
        groups.setdefault((st[1], st[2]), []).append(st)
    for (ca, cb), group in sorted(groups.items()):
        xs = np.asarray([st[0] for st in group], dtype=np.int64)
        lens = np.asarray([len(st[3]) for st in group], dtype=np.int64)
        flat = np.asarray([t for st in group for t in st[3]], dtype=np.int64)
        starts = np.concatenate([[0], np.cumsum(lens)[:-1]]).astype(np.int64)
        tr, te = flat % nR, flat // nR
        ks = np.unique(te).tolist()
        for a, b in state_points(c.rules, D, C, ca, cb):
            good = c.p_at(a, b)[xs].copy()
            gt = np.zeros(flat.size, dtype=bool)
            for k in ks:
                da, db = D[k]
                if a + da < 0 or b + db < 0:        # no kept set holds it here (Lemma M5)
                    vd.fail(f"certificate.ray: not checked: the exact N-search would read F at ({a + da}, "
                            f"{b + db}) (a referee error: Lemma M5 excludes it)")
                    return None
                sel = te == k
                gt[sel] = c.p_at(a + da, b + db)[tr[sel]]
            good |= np.logical_or.reduceat(gt, starts)
            bad = np.nonzero(~good)[0]
            if bad.size:
                x, _ca, _cb, _T, ent = group[int(bad[0])]
                pos = _position(ent)
                _r, ga, gb = c.image(pos)
                shown = " + ".join(map(str, pos))
                at = ("" if (a, b) == (ga, gb) else
                      f" with its counts ({ga}, {gb}) taken to ({a}, {b}) (the key's counts are capped at {C})")
                vd.fail(f"certificate.ray.F (read through certificate.ray.rules, on the moves of certificate.game = "
                        f"{c.game!r}): the N-condition fails (exact N-search, Lemma M4): the position {shown}, of "
                        f"image ({x}, {ga}, {gb}){at}, is not in P but none of its option images is in P "
                        f"at ({a}, {b})")
                return None
    return len(states), C
