"""A third way to adjoin a heap that changes the misère quotient: *counting its copies*.

:func:`cgtalg.quotients.extend.extend` repairs a candidate for ``A_n`` (the positions of
heaps ``<= n``) as a whole, so every repair must guess how the powers of the new heap ``n``
behave as well as how the older heaps split. :func:`extend_counting` separates the two. For
``B = 0, 1, 2, …`` it finds a pretension that is right on the positions with **at most B copies
of heap n**:

* the candidate is ``R × C(B+1, 1)``: ``R`` stands for the heaps ``< n`` (at first the verified
  ``Q_(n−1)``), and heap ``n`` counts itself exactly up to ``B`` in a factor whose top element
  ``n^(B+1)`` (the *overflow*) absorbs everything above; no overflow element is in ``P``;
* it is checked by :func:`cgtalg.quotients.pretension.verify_pretension` with the bound
  ``n·(B+1)``: the positions colex-less than that word are exactly those with at most ``B``
  copies of ``n`` (the largest heap counts first in colex order), and they are closed under
  options;
* a failing position (with at most ``B`` copies of ``n``) is repaired as in least-order repair:
  each heap ``h < n`` of it (then each pair) is freed with a cyclic factor, and the repaired
  candidate of least order is kept.

Why a truncated check proves something. Let ``X_B`` be the positions with at most ``B`` copies
of heap ``n``. The induction of the verification principle (:mod:`cgtalg.quotients.construct`) runs
unchanged inside ``X_B``: the options of a position of ``X_B`` are in ``X_B``; the P-condition is
checked for every element; an overflow element is never in ``P`` and a product with an
overflow element is overflow, so a P-condition can only fail on a product that stays inside
``X_B`` (the failure is then a word of ``X_B``); and the N-search walks every word of ``X_B``.
So a candidate that passes predicts the misère outcome of every position of ``X_B``.

When level ``B`` passes without a repair (the heaps ``< n`` have settled; ``B >= 1``), the
counter is *closed*: heap ``n`` is given ``C(i, p)`` with
``i + p = B + 1`` and ``p ∈ {1, 2}`` (the periods of the powers of most heaps), or the
``C(i, p)`` the level's data show (:func:`_power_periods`: the columns of ``P`` over the other
heaps' part repeat with period ``p`` from ``n^i`` on; ``0.774``: heap 10 with period 8), a
heuristic like every choice of candidate, and the candidate is verified
**without** a bound. One that
passes is a pretension for all of ``A_n``, so its reduction is ``Q_n`` exactly — the same
guarantee as the other two strategies; the counting only chooses candidates.

What a level proves when no closure passes (:class:`CountLevel`). In the passing level-``B``
candidate, before reduction, every element has a coordinate ``c`` (its copies of ``n``, or
overflow). Two elements with the same coordinate ``c`` in different classes of the
Nerode-style congruence ``x ~ y ⇔ ∀z: xz ∈ P ⇔ yz ∈ P`` are separated by some ``z``; both
``xz`` and ``yz`` have coordinate ``c + c(z)``, and the one in ``P`` is not overflow, so both are
positions of ``X_B`` whose outcomes the candidate predicts correctly: the two positions are
distinguishable in ``A_n``. Hence the number of classes among the coordinate-0 elements (the
images of positions of ``A_(n−1)``) is a lower bound for ``|Q_n|``. Across coordinates the
same holds with the tests restricted: for ``j <= B``, the elements of coordinate at most
``B − j``, divided by ``x ≈_j y ⇔ xz ∈ P ⇔ yz ∈ P`` for every ``z`` of coordinate at most
``j``, fall into classes that are pairwise distinguishable in ``A_n`` (every product involved has
coordinate ``<= B``). ``CountLevel.lower_bound`` is the largest of these counts over ``j``
(``j = B`` is the count at coordinate 0); ``≈_j`` is computed by Moore refinement over the
coordinate-0 generators, labelled by ``P`` and the ``≈_(j−1)``-class of ``x·n``.
Likewise ``n^i`` and ``n^j`` (``i < j <= B``) are distinguishable in ``A_n`` when some element
``z`` of coordinate ``<= B − j`` has ``n^i·z ∈ P`` and ``n^j·z ∉ P`` or the reverse
(``CountLevel.distinct_powers``: the powers ``n^0 … n^B`` that are pairwise distinguishable so).
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, asdict
from typing import Any, Callable, Sequence

from cgtalg.core.lazynp import np

from cgtalg.budget import Deadline
from cgtalg.errors import ArgumentError, ComputationLimitError, InfiniteQuotientError
from cgtalg.quotients import kernel as quotient_kernel
from cgtalg.quotients.pretension import (
    Pretension,
    _generate,
    _nerode_cols,
    _reduce,
    _reduced_order,
    _with_cyclic_factors,
    verify_pretension,
)
from cgtalg.quotients.extend import _factor
from cgtalg.quotients.rays import adjoin_ray_heap, full_witness, prove_infinite, witness_text
from cgtalg.quotients.rays_counted import counted_from_candidate, stalled_group, stalled_pair
from cgtalg.quotients.rays_linear import LINEAR_MAX_HEAP, prove_linear
from cgtalg.quotients.rays_linear_level import MAX_FITS, linear_rays_from_level, settle_linear
from cgtalg.quotients.rays_trace import failing_position

#: a stalled level tries the two heaps it keeps freeing as free heaps of a ray pretension (heap n
#: counted) every this many repairs (:mod:`cgtalg.quotients.rays_counted`)
PAIR_EVERY = 4

#: heaps freed to repair the candidate where a stalled pair's pretension fails (:func:`_pair_proof`)
PAIR_REPAIRS = 6

#: the first level at which a ray pretension is tried (:func:`prove_infinite`)
RAY_FROM_LEVEL = 2

#: the level at which a linear ray (:mod:`cgtalg.quotients.rays_linear`) is tried for a small heap,
#: played out exactly, once: the powers of the new heap have then stayed apart over several levels
LINEAR_FROM_LEVEL = 6
#: the levels at which a linear ray is read off the level's candidate (heaps above
#: :data:`~cgtalg.quotients.rays_linear.LINEAR_MAX_HEAP`): from 6, after the two-heap rays have
#: had four levels to prove the quotient infinite their way, sparser as they go (a fit costs
#: seconds; a long count would pay it at every level)
LINEAR_LEVELS = frozenset({3 << i for i in range(1, 8)} | {1 << i for i in range(3, 10)})
LINEAR_LEVEL_FROM = min(LINEAR_LEVELS)

#: heaps after the new one tried in the monoid of a proof of infinitude (adjoin_ray_heap)
ADJOIN_AFTER = 8

__all__ = ["extend_counting", "CountLevel", "CountStart", "counted_candidate", "MAX_LEVELS", "MAX_ROUNDS"]

#: levels (copies of the new heap) tried before giving up
MAX_LEVELS = 200

#: repairs tried within one level
MAX_ROUNDS = 400


@dataclass(frozen=True)
class CountStart:
    """Where a counting run resumes: the passing (reduced) candidate of level ``copies``, the
    freed heaps' factors and the levels proved so far (:meth:`Checkpointer.load_level
    <cgtalg.quotients.storage.Checkpointer.load_level>` re-verifies the candidate first)."""

    copies: int
    cand: Pretension
    params: dict
    levels: list


@dataclass(frozen=True)
class CountLevel:
    """What the passing candidate of one level shows (module docstring).

    ``copies``: the level ``B``; ``order`` and ``p_count``: its reduced candidate (overflow class
    included); ``lower_bound``: classes of ``Q_n`` proved distinct (positions with at most
    ``B − j`` copies of ``n`` told apart by tests with at most ``j``, the best ``j``);
    ``distinct_powers``: ``k`` such that ``n^0 … n^(k−1)`` are proved
    pairwise distinguishable; ``rounds``: repairs in this level; ``seconds``: since the start."""

    heap: int
    copies: int
    order: int
    p_count: int
    lower_bound: int
    distinct_powers: int
    rounds: int
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def counted_candidate(base: Pretension, n: int, copies: int, options, heaps: Sequence[int] = (),
                      params: Sequence[tuple[int, int]] = (), deadline: Deadline | None = None
                      ) -> Pretension:
    """``base`` with ``heaps`` freed (cyclic factors ``params``, as in least-order repair) and
    heap ``n`` a counter ``C(copies + 1, 1)`` in the last factor; the overflow elements (the
    counter at ``copies + 1``) are taken out of ``P``. Not reduced: its monoid is a product
    submonoid whose coordinates (``monoid.C``, the counter last) the level's bounds read."""
    heaps = [h for h in heaps if h != n]
    raw = _with_cyclic_factors(base, list(heaps) + [n], list(params) + [(copies + 1, 1)], options, deadline)
    over = np.asarray(raw.monoid.C)[:, -1] == copies + 1
    P = np.asarray(raw.P, dtype=bool).copy()
    P[over] = False
    return Pretension(raw.monoid, P, raw.phi)


def infinite_error(rp, witness: Sequence[int], top: int, levels=(), stored: bool = False
                   ) -> InfiniteQuotientError:
    """The :class:`~cgtalg.errors.InfiniteQuotientError` of a verified ray pretension ``rp``
    (heaps ``<= top``) with its order witness (:func:`cgtalg.quotients.rays.order_witness`)."""
    witness = full_witness(witness)
    base = " + ".join(map(str, rp.words[witness[0]])) or "0"
    done = ', a stored proof re-verified' if stored else ''
    also = "; ".join(t for t in (rp.class_text(), rp.mixed_text()) if t)
    also = f" ({also})" if also else ""
    if rp.counted is not None:
        n, cap = int(rp.counted[0]), int(rp.counted[1])
        exc = InfiniteQuotientError(
            f"misère quotient: Q_{n} is infinite (proved{done}: a ray pretension that counts heaps {rp.u} and "
            f"{rp.v}{also} and puts the other heaps, with up to {cap - 1} cop{'y' if cap == 2 else 'ies'} of heap {n}, "
            f"in a monoid of order {rp.order_r} predicts every such position of heaps <= {n} and verifies; "
            f"{witness_text(rp.u, rp.v, base, witness)}, so the powers of heap {rp.v} are pairwise "
            f"distinguishable in Q_{n}); Q_{n - 1} is the last finite partial quotient")
    else:
        n = rp.v
        more = f"; the same monoid is Q_{top}" if top > n else ""
        exc = InfiniteQuotientError(
            f"misère quotient: Q_{n} is infinite (proved{done}: a ray "
            f"pretension that counts heaps {rp.u} and {n}{also} and puts the other heaps in a monoid of order "
            f"{rp.order_r} predicts every position of heaps <= {top} and verifies; "
            f"{witness_text(rp.u, n, base, witness)}, so the powers of heap {n} are pairwise distinguishable{more}); "
            f"Q_{n - 1} is the last finite partial quotient")
    exc.levels = list(levels)  # type: ignore[attr-defined]
    exc.ray, exc.witness, exc.heap, exc.top = rp, witness, n, top  # type: ignore[attr-defined]
    exc.stored = stored  # type: ignore[attr-defined]
    return exc


def linear_infinite_error(lr, witness: dict, levels=(), stored: bool = False) -> InfiniteQuotientError:
    """The :class:`~cgtalg.errors.InfiniteQuotientError` of a verified linear ray ``lr`` (heaps
    ``<= lr.v``) with its witness (:mod:`cgtalg.quotients.rays_linear`); its ``ray`` is None and
    its ``linear`` the pretension."""
    n = lr.v
    weights = ", ".join(f"{h}: {lr.lam[h]}" for h in range(1, n + 1) if lr.lam[h])
    (hp, *_e), (hm, *_f) = witness["probes"]
    base = " + ".join(map(str, witness.get("base", ())))
    done = ', a stored proof re-verified' if stored else ''
    exc = InfiniteQuotientError(
        f"misère quotient: Q_{n} is infinite (proved{done}: a linear ray pretension, every heap <= {n} mapped "
        f"into R × Z with R of order {lr.order_r} and weights {{{weights}}}, predicts every position of "
        f"heaps <= {n} and verifies; with copies of heaps {hp} and {hm}{' and ' + base if base else ''} added, "
        f"the powers of heap {n} are "
        f"told apart, so they are pairwise distinguishable); Q_{n - 1} is the last finite partial quotient")
    exc.levels = list(levels)  # type: ignore[attr-defined]
    exc.ray, exc.linear, exc.witness, exc.heap, exc.top = None, lr, witness, n, n  # type: ignore[attr-defined]
    exc.stored = stored  # type: ignore[attr-defined]
    return exc


def _try_linear(options: Sequence[Sequence[tuple[int, ...]]], n: int, max_states: int,
                deadline: Deadline | None, levels: list, cand: Pretension | None = None,
                copies: int | None = None) -> None:
    """Raise the :class:`~cgtalg.errors.InfiniteQuotientError` of a linear ray for heap ``n``
    when one verifies with a witness (:mod:`cgtalg.quotients.rays_linear`): fitted to exhaustive
    play of the small positions for small ``n``, else read off the passing level ``cand``
    (right up to ``copies`` copies of ``n``)."""
    if n <= LINEAR_MAX_HEAP:
        got = prove_linear(options[:n + 1], n, max_states=min(max_states, 5_000_000), deadline=deadline)
        if got is not None:
            raise linear_infinite_error(got[0], got[1], levels)
        return
    if cand is None or copies is None:
        return
    for lr in itertools.islice(linear_rays_from_level(cand, n, copies, deadline=deadline), MAX_FITS):
        got = settle_linear(lr, options[:n + 1], min(max_states, 5_000_000), deadline)
        if got is not None:
            raise linear_infinite_error(got[0], got[1], levels)


def adjoin_after(exc: InfiniteQuotientError, options_of: Callable[[int], Any], last: int,
                 max_states: int, deadline: Deadline | None) -> InfiniteQuotientError:
    """``exc`` with the heaps after its heap that the same monoid covers adjoined
    (:func:`cgtalg.quotients.rays.adjoin_ray_heap`, up to ``last`` and at most
    :data:`ADJOIN_AFTER` of them; ``options_of(h)``: the options of heap ``h``)."""
    rp, top = exc.ray, exc.top  # type: ignore[attr-defined]
    if rp.counted is not None:          # the counted heap is the top heap: nothing comes after it
        return exc
    options = [options_of(h) for h in range(top + 1)]
    for h in range(top + 1, min(top + ADJOIN_AFTER, last) + 1):
        options.append(options_of(h))
        try:
            ext = adjoin_ray_heap(rp, options, max_states, deadline)
        except ArgumentError:       # an option beyond the neighbourhood the pretension checks
            ext = None
        if ext is None:
            break
        rp = ext
    if len(rp.row) - 1 == top:
        return exc
    return infinite_error(rp, exc.witness, len(rp.row) - 1, exc.levels)  # type: ignore[attr-defined]


def _power_table(raw: Pretension, copies: int):
    """``(gens, members, lut, P, coord, rid, P2)`` of an unreduced level-``copies`` candidate:
    the heaps' images, the elements they generate, their ``P``, their coordinate (copies of the new
    heap) and R-part, and ``P2[r, c]``, ``P`` as a table over (R-part, coordinate): the counter is
    an independent generator, so every R-part occurs with every coordinate ``0 .. copies + 1``."""
    m = raw.monoid
    gens = sorted(g for g in set(raw.phi) if g != 0)
    members, lut = _generate(m, gens)
    P = np.asarray(raw.P, dtype=bool)[members]
    C = np.asarray(m.C)[members]
    coord = C[:, -1]
    _, rid = np.unique(C[:, :-1], axis=0, return_inverse=True)
    rid = rid.reshape(-1)
    P2 = np.zeros((int(rid.max()) + 1, copies + 2), dtype=np.int8)
    P2[rid, coord] = P
    return gens, members, lut, P, coord, rid, P2


#: the longest period of the new heap's powers that :func:`_power_periods` reads off a level
MAX_CLOSE_PERIOD = 24


def _power_periods(raw: Pretension, copies: int) -> list[tuple[int, int]]:
    """The cyclic factors ``C(i, p)`` (``n^(i+p) = n^i``) that the level's data suggest for the
    new heap: for each period ``p >= 3`` (1 and 2 are always tried), the least ``i`` from which
    the columns ``P2[:, k]`` and ``P2[:, k + p]`` agree up to ``k + p = copies``, seen over at
    least two whole periods. A guess: the closure built from it is verified without a bound."""
    P2 = _power_table(raw, copies)[-1][:, :copies + 1]
    out = []
    for p in range(3, min(MAX_CLOSE_PERIOD, copies // 2) + 1):
        same = [bool(np.array_equal(P2[:, k], P2[:, k + p])) for k in range(copies + 1 - p)]
        i = len(same)
        while i > 0 and same[i - 1]:
            i -= 1
        if len(same) - i >= 2 * p and not any(q for _i, q in out if p % q == 0):
            out.append((i, p))
    return out


def _level_bounds(raw: Pretension, n: int, copies: int) -> tuple[int, int]:
    """``(lower_bound, distinct_powers)`` of a passing level-``copies`` candidate ``raw``
    (unreduced, from :func:`counted_candidate`; module docstring)."""
    m = raw.monoid
    gens, members, lut, P, coord, rid, P2 = _power_table(raw, copies)
    gen_cols = [lut[m.col(g)[members]] for g in gens]
    cls = quotient_kernel.nerode(P, gen_cols) if quotient_kernel.available() else _nerode_cols(P, gen_cols)
    lower = int(np.unique(cls[coord == 0]).size)
    powers = 1
    for j in range(1, copies + 1):
        # n^j against every n^i (i < j): some z of coordinate c <= copies − j separates them
        ok = True
        for i in range(j):
            c = copies - j
            if np.array_equal(P2[:, i:i + c + 1], P2[:, j:j + c + 1]):
                ok = False
                break
        if not ok:
            break
        powers = j + 1
    # the classes of positions with up to c <= copies − j copies of n, told apart by tests with
    # at most j copies: work on the coordinate-0 classes (tests within the bound agree on them)
    zero = np.nonzero(coord == 0)[0]
    qcls, rep_idx = np.unique(cls[zero], return_index=True)
    q = int(qcls.size)
    qid = np.full(int(cls.max()) + 1, -1, dtype=np.int64)
    qid[qcls] = np.arange(q)
    reps = zero[rep_idx]
    n_gens = [g for g in gens if g != raw.phi[n]]
    qcols = [qid[cls[lut[m.col(g)[members]][reps]]] for g in n_gens]
    Pq = P2[rid[reps]]                              # (q, copies + 2)
    layered = lower
    prev = None                                     # classes of the states (q, c), c <= copies − j + 1
    for j in range(copies + 1):
        top = copies - j                            # coordinates 0 .. top
        c_of = np.repeat(np.arange(top + 1), q)
        q_of = np.tile(np.arange(q), top + 1)
        labels = Pq[q_of, c_of].astype(np.int64)
        if prev is not None:
            labels = labels + 2 * prev[(c_of + 1) * q + q_of]
        cols = [c_of * q + col[q_of] for col in qcols]
        prev = _nerode_cols(labels, cols)
        layered = max(layered, int(np.unique(prev).size))
    return layered, powers


def _repair_trials(cand: Pretension, w: Sequence[int], n: int, params: dict[int, tuple[int, int]],
                   size: int, keep: Sequence[int] = ()) -> list[tuple[tuple[int, ...], list[tuple[int, int]]]]:
    """The freeings of ``size`` heaps ``< n`` of ``w`` (not those of ``keep``): factors as in
    least-order repair (for a single heap whose factor would not change, the next index), and
    each also with period 2 in place of MisereSolver's growing period (the powers of the heaps
    mostly have period 1 or 2; a longer period of the new heap is read at the closure; the
    smaller candidate is kept when it repairs ``w``)."""
    out = []

    def add(heaps, ps):
        out.append((heaps, ps))
        two = [(i, 2) for i, _p in ps]
        if two != ps:
            out.append((heaps, two))

    for heaps in itertools.combinations(sorted(set(w) - {n} - set(keep)), size):
        ps = [_factor(cand, h, w, params) for h in heaps]
        add(heaps, ps)
        if size == 1 and params.get(heaps[0]) == ps[0]:
            idx = ps[0][0] + 1
            add(heaps, [(idx, max(2, 2 * ((idx - 4) // 2)))])
    return out


def _best_freeing(cand: Pretension, w: Sequence[int], n: int, B: int, options, params: dict[int, tuple[int, int]],
                  deadline: Deadline | None, max_order: int, what: str, keep: Sequence[int] = ()):
    """``(order, k, heaps, factors, candidate)``: the freeing of one heap of ``w`` (else of two)
    whose level-``B`` candidate turns the outcome of ``w`` and reduces to the least order within
    ``max_order``; None when there is none. The heaps of ``keep`` are not freed."""
    should_p = not bool(cand.P[cand.image(w)])
    best = None
    for size in (1, 2):
        for k, (heaps, ps) in enumerate(_repair_trials(cand, w, n, params, size, keep)):
            if deadline is not None:
                deadline.check(what)
            try:
                trial = counted_candidate(cand, n, B, options, heaps, ps, deadline)
                if bool(trial.P[trial.image(w)]) != should_p:
                    continue
                # the order only: the winner's table is built once, by the caller (time, and one
                # large table in memory at a time)
                order = _reduced_order(trial, deadline)
            except ComputationLimitError:
                if deadline is not None:
                    deadline.check(what)
                continue
            if order <= max_order and (best is None or (order, k) < best[:2]):
                best = (order, k, heaps, ps, trial)
        if best is not None:
            return best
    return None


def _take(best, params: dict[int, tuple[int, int]], log: Callable[[str], Any] | None, what: str):
    """``(heaps, candidate)`` of :func:`_best_freeing`'s choice, with its factors put in
    ``params`` and the choice logged after ``what``."""
    order, _k, heaps, ps, raw = best
    for h, pp in zip(heaps, ps):
        params[h] = pp
    if log is not None:
        log(f"{what}; freed {', '.join(f'{h} C{p}' for h, p in zip(heaps, ps))} -> order {order}")
    return heaps, raw


def _pair_proof(raw: Pretension, params: dict[int, tuple[int, int]], pair: tuple[int, int], n: int, B: int,
                options, max_states: int, deadline: Deadline | None, max_order: int,
                log: Callable[[str], Any] | None, what: str, attached: tuple[int, ...] = ()) -> tuple[Any, Pretension]:
    """``(proof, raw)``: a proof that ``Q_n`` is infinite with the stalled pair ``u < v`` free
    (:func:`cgtalg.quotients.rays_counted.counted_from_candidate`) or None, and the candidate
    reached. When the pretension read off ``raw`` fails at a position, the round's candidate was
    wrong there about the heaps *other* than ``u`` and ``v`` (its rounds only ever met failures
    with many copies of ``u`` and ``v``, colex-first): up to :data:`PAIR_REPAIRS` times, one
    heap of that position other than ``u``, ``v``, ``n`` is freed as in a round (the least
    order among the trials that turn the candidate's outcome of the position), in ``params``
    too, and the pretension is read again. Only the choice of candidates changes: a proof is
    verified on its own, and the candidate returned is an ordinary counting candidate.
    ``attached``: heaps freed in turn with the pair, tried as mixed heaps
    (:func:`cgtalg.quotients.rays_counted.stalled_group`); a heap these repairs free twice is
    attached from then on (``0.1137``: heap 13 behaves as ``10 + 1``)."""
    u, v = pair
    attached = tuple(attached)
    again: list[int] = []
    for _ in range(PAIR_REPAIRS + 1):
        failures: list = []
        proof = counted_from_candidate(raw, options, u, v, B, (params[u][0], params[v][0]), max_states, deadline,
                                       failures, attached)
        if proof is not None or not failures:
            return proof, raw
        rp, fail = failures[-1]
        w = list(failing_position(rp, options[:n + 1], fail, deadline))
        if not set(w) - {u, v, n}:
            return None, raw
        base = _reduce(raw, options, deadline)
        best = _best_freeing(base, w, n, B, options, params, deadline, max_order, what, keep=(u, v))
        if best is None:
            return None, raw
        heaps, raw = _take(best, params, log, f"heap {n}, {B} copies, pair {u}, {v}: the pretension fails at "
                           f"{' + '.join(map(str, w))}")
        again.extend(heaps)
        attached = tuple(sorted(set(attached) | {h for h in again if again.count(h) >= 2} - {u, v, n}))
    return None, raw


def _close(cand: Pretension, raw: Pretension, n: int, B: int, params: dict[int, tuple[int, int]], tried: set,
           options, max_states: int, deadline: Deadline | None, max_order: int, what: str,
           shown_only: bool = False) -> tuple[Pretension, str] | None:
    """The level-``B`` candidate ``cand`` (``raw`` unreduced) closed: heap ``n`` given ``C(B, 1)``,
    ``C(B − 1, 2)`` (unless ``shown_only``) and the factors its data show (:func:`_power_periods`,
    each tried once with the same freed heaps), verified without a bound; ``(pretension, "C(i, p)")``
    for the first that passes, else None."""
    key = tuple(sorted(params.items()))
    shown = [ip for ip in _power_periods(raw, B) if (ip, key) not in tried]
    tried.update((ip, key) for ip in shown)
    for i, p in ([] if shown_only else [(B, 1), (B - 1, 2)]) + shown:
        if i < 0 or (i, p) == (0, 1):   # n -> 1: the conservative step tried it
            continue
        try:
            full = _reduce(_with_cyclic_factors(cand, [n], [(i, p)], options, deadline), options,
                           deadline, max_order=max_order)
        except ComputationLimitError:
            if deadline is not None:
                deadline.check(what)
            continue
        if full is not None and verify_pretension(full, options, max_states, deadline) is None:
            return full, f"C({i}, {p})"
    return None


def extend_counting(pre: Pretension, options: Sequence[Sequence[tuple[int, ...]]], n: int, max_states: int,
                    deadline: Deadline | None, max_order: int, *, max_levels: int = MAX_LEVELS,
                    close: bool = True, rays: bool = True, log: Callable[[str], Any] | None = None,
                    on_level: Callable[..., Any] | None = None,
                    start: "CountStart | None" = None) -> Pretension:
    """Adjoin heap ``n`` to the verified pretension ``pre`` (heaps ``< n``) by counting its
    copies (module docstring); the contract of :func:`cgtalg.quotients.extend.extend`:
    what is returned passed :func:`verify_pretension` without a bound, for heaps ``0 .. n``.

    ``on_level`` is called with a :class:`CountLevel`, the passing (reduced) candidate, the
    freed heaps' factors (``{heap: (index, period)}``) and the list of levels so far, for every
    level that passes (the level's ``lower_bound`` and ``distinct_powers`` are proved facts about
    ``Q_n`` whether or not a closure is found); the construction stores them there, and
    ``start`` (a :class:`CountStart`: a stored level, re-verified by the caller) resumes after
    that level. ``close=False`` only counts: no
    closure is tried (the levels up to ``max_levels − 1`` are found, then the error).

    From level :data:`RAY_FROM_LEVEL` on (unless ``rays=False``), each passing level is also read
    as a ray pretension (:func:`cgtalg.quotients.rays.prove_infinite`); when one verifies
    with an order witness, ``Q_n`` is infinite and
    :class:`~cgtalg.errors.InfiniteQuotientError` is raised (its ``ray``, ``witness``, ``levels``).

    Raises :class:`~cgtalg.errors.ComputationLimitError` on a budget, after ``max_levels``
    levels, or when no freeing repairs a failing position within ``max_order``; the error's
    ``levels`` attribute lists the levels that passed.
    """
    t0 = time.monotonic()
    what = f"misère quotient: adjoining heap {n} (counting its copies)"
    levels: list[CountLevel] = list(start.levels) if start is not None else []

    def fail(msg: str) -> ComputationLimitError:
        exc = ComputationLimitError(msg)
        exc.levels = list(levels)  # type: ignore[attr-defined]
        return exc

    base = Pretension(pre.monoid, pre.P, list(pre.phi[:n]) + [0])
    params: dict[int, tuple[int, int]] = {}
    tried: set = set()     # the closures from the data (:func:`_power_periods`) tried, with the params then
    cand = base
    first = 0
    if start is not None:
        if len(start.cand.phi) != n + 1:
            raise ArgumentError(f"a stored counting level of heap {len(start.cand.phi) - 1} cannot resume heap {n}")
        cand, params, first = start.cand, dict(start.params), start.copies + 1
    try:
        if start is not None and rays and start.copies >= RAY_FROM_LEVEL:
            # a resumed level may be proved with a shape of proof found since it was stored
            proof = prove_infinite(cand, n, start.copies, options, max_states, deadline)
            if proof is not None:
                raise infinite_error(proof[0], proof[1], n, levels)
            if start.copies >= (LINEAR_FROM_LEVEL if n <= LINEAR_MAX_HEAP else LINEAR_LEVEL_FROM):
                _try_linear(options, n, max_states, deadline, levels, cand, start.copies)
        if start is not None and close and start.copies >= 6:      # two periods of 3 at least
            # and closed with a period read since it was stored (before, 1 and 2 only)
            raw = counted_candidate(cand, n, start.copies, options, deadline=deadline)
            full = _close(cand, raw, n, start.copies, params, tried, options, max_states, deadline, max_order,
                          what, shown_only=True)
            if full is not None:
                return full[0]
        for B in range(first, max_levels):
            raw = counted_candidate(cand, n, B, options, deadline=deadline)
            cand = _reduce(raw, options, deadline)
            bound = (n,) * (B + 1)
            rounds = 0
            freed: list[tuple[int, ...]] = []
            while True:
                if deadline is not None:
                    deadline.check(what)
                w = verify_pretension(cand, options, max_states, deadline, bound=bound)
                if w is None:
                    break
                rounds += 1
                if rounds > MAX_ROUNDS:
                    raise fail(f"misère quotient: no candidate for heap {n} with {B} copies after "
                               f"{MAX_ROUNDS} repairs")
                best = _best_freeing(cand, w, n, B, options, params, deadline, max_order, what)
                if best is None:
                    raise fail(f"misère quotient: counting copies of heap {n} found no candidate "
                               f"repairing {' + '.join(map(str, w))} within order {max_order} "
                               f"(level {B})")
                heaps, raw = _take(best, params, log, f"heap {n}, {B} copies, round {rounds}: failing "
                                   f"{' + '.join(map(str, w))}")
                freed.append(tuple(heaps))
                pair = stalled_pair(freed, n) if rays and B >= 1 and not rounds % PAIR_EVERY else None
                group = stalled_group(freed, n, raw) if rays and B >= 1 and not rounds % (2 * PAIR_EVERY) else []
                if group:
                    # three or more heaps freed in turn: two free, the others attached as mixed heaps
                    for u, v, att in group:
                        if u not in params or v not in params:
                            continue
                        proof, raw = _pair_proof(raw, params, (u, v), n, B, options, max_states, deadline,
                                                 max_order, log, what, att)
                        if proof is not None:
                            raise infinite_error(proof[0], proof[1], n, levels)
                elif pair is not None and set(pair) & set(heaps):
                    # the older heaps u < v keep being freed: try them free, heap n counted
                    proof, raw = _pair_proof(raw, params, pair, n, B, options, max_states, deadline, max_order,
                                             log, what)
                    if proof is not None:
                        raise infinite_error(proof[0], proof[1], n, levels)   # the levels that passed
                cand = _reduce(raw, options, deadline)
            lower, powers = _level_bounds(raw, n, B)
            lev = CountLevel(n, B, int(cand.monoid.size), int(np.asarray(cand.P).sum()), lower, powers,
                             rounds, time.monotonic() - t0)
            levels.append(lev)
            if on_level is not None:
                on_level(lev, cand, dict(params), list(levels))
            if log is not None:
                log(f"heap {n}: right up to {B} copies, order {lev.order}, |Q_{n}| >= {lower}, "
                    f"{powers} distinct powers of heap {n}")
            if B >= RAY_FROM_LEVEL and rays:
                proof = prove_infinite(cand, n, B, options, max_states, deadline)
                if proof is not None:
                    raise infinite_error(proof[0], proof[1], n, levels)
                if B == LINEAR_FROM_LEVEL if n <= LINEAR_MAX_HEAP else B in LINEAR_LEVELS:
                    # many heaps counted through one weight (cgtalg.quotients.rays_linear)
                    _try_linear(options, n, max_states, deadline, levels, cand, B)
            # close the counter, n^(B+1) = n^B or n^(B+1) = n^(B-1), once a level needed no
            # repair (the heaps < n have settled); a closure's full verification walks every
            # position of the level first, so it is not tried while the levels still change
            if rounds or B == 0 or not close:
                continue
            full = _close(cand, raw, n, B, params, tried, options, max_states, deadline, max_order, what)
            if full is not None:
                if log is not None:
                    log(f"heap {n}: closed with heap {n} -> {full[1]}, order {full[0].monoid.size}")
                return full[0]
    except ComputationLimitError as exc:
        if not hasattr(exc, "levels"):
            exc.levels = list(levels)  # type: ignore[attr-defined]
        raise
    raise fail(f"misère quotient: heap {n} not closed within {max_levels} levels of copies")
