"""Infinite misère quotients where two *older* heaps run free and the new heap is counted.

:mod:`cgtalg.quotients.rays` proves ``Q_v`` infinite when the new heap ``v`` and one older heap
``u`` run free. Many stalled heaps of the octal census behave otherwise: adjoining heap ``n``,
counting stalls at one copy of ``n`` while two older heaps ``u < v < n`` must be freed again and
again (0.1077 at ``n = 19``: ``u = 11``, ``v = 18``): the outcome of ``n + w + a·u + b·v``
depends on ``b − a`` without bound, although ``Q_{n−1}`` is finite.

The pretension. ``R × N × N`` as in :mod:`cgtalg.quotients.rays`, with ``u`` and ``v`` free and
every other heap, ``n`` included, in the finite monoid ``R``; each element of ``R`` carries
``count[r]``, its copies of ``n`` up to ``cap`` (``cap`` standing for ``cap`` or more). The
elements with count ``cap`` are *dead*: never in ``P``, and no condition is checked on them.
This proves the outcome of every position with fewer than ``cap`` copies of ``n``: the set ``X``
of those positions is closed under options (an option holds smaller heaps only, never ``n``),
the images of ``X`` are exactly the elements that are not dead (``count`` is checked to add one
per copy of ``n`` and nothing for the other heaps: :func:`counted_problem`), and the induction
of the verification principle runs inside ``X``.

Where it comes from (:func:`counted_from_candidate`). A round of a stalled counting level
(:func:`cgtalg.quotients.count.extend_counting`) holds an unreduced candidate whose last
coordinate is the counter of ``n``: ``R`` is the submonoid its heaps other than ``u``, ``v``
generate, reduced by Moore refinement of the labels (count, outcomes on a box of points), and
``F`` is read on the box where the candidate's cyclic factors of ``u`` and ``v`` have not yet
wrapped; the rules are fitted there (:func:`cgtalg.quotients.rays.fit_rules`). Nothing is
trusted: the pretension is verified on its own (:func:`cgtalg.quotients.rays.verify_ray_pretension`),
and an order witness on an element that is not dead (:func:`cgtalg.quotients.rays.order_witness`)
separates the powers of ``v`` with tests that hold fewer than ``cap`` copies of ``n``: ``Q_n`` is
infinite (and every ``Q_m``, ``m >= n``), while ``Q_{n−1}`` is finite.
"""

from __future__ import annotations

from typing import Sequence

from cgtalg.core.lazynp import np

from cgtalg.budget import Deadline
from cgtalg.errors import ArgumentError, ComputationLimitError
from cgtalg.quotients.pretension import Pretension
from cgtalg.quotients.pretension import _nerode_cols
from cgtalg.quotients.rays import (RayPretension, _level_grid, _submonoid, fit_rules, image_classes,
                                  order_witness, verify_ray_pretension)

__all__ = ["counted_from_candidate", "counted_problem", "stalled_pair", "stalled_group", "infinite_from", "covers", "MARGIN"]

#: points next to where a candidate's cyclic factor wraps that are not read
MARGIN = 2

#: the margins tried in turn when no rules fit the box (a pretension is verified on its own, so a
#: box read nearer the wrap is only a worse guess, never a wrong proof)
MARGINS = (MARGIN, 1, 0)


def _read_box(raw: Pretension, ids, count, gcols: dict, gens: list, u: int, v: int, reach: tuple[int, int],
              margin: int):
    """``(grid, cls, new, reps, k, rules)``: the box of ``raw``'s outcomes ``margin`` points short
    of where the factors of ``u`` and ``v`` wrap, ``R`` reduced by Moore refinement of the labels
    (count, outcomes on the box), and the rules fitted there; None when the box is too small or
    no rules fit."""
    A, B = max(reach[0] - margin, 0), max(reach[1] - margin, 0)
    if min(A, B) < 6:
        return None
    grid = _level_grid(raw, ids, u, v, A, B)
    _, lab = np.unique(np.concatenate([count[:, None], grid.reshape(ids.size, -1)], axis=1), axis=0,
                       return_inverse=True)
    cls = _nerode_cols(lab.reshape(-1), [gcols[g] for g in gens])
    # one representative per class, the first in breadth-first order (a least word)
    k = int(cls.max()) + 1
    rep = np.full(k, -1, dtype=np.int64)
    for i in range(ids.size - 1, -1, -1):
        rep[cls[i]] = i
    # renumber the classes so that the identity's class is 0
    order = np.argsort(rep, kind="stable")
    new = np.empty(k, dtype=np.int64)
    new[order] = np.arange(k)
    reps = rep[order]
    rules = fit_rules(grid[reps])
    if rules is None:
        return None
    TA, TB = rules.table_shape
    if TA > A or TB > B:
        return None
    return grid, cls, new, reps, k, rules


def infinite_from(ray: RayPretension) -> int:
    """The heap from which ``ray`` proves the quotient infinite: ``v``, or the counted heap."""
    return int(ray.v) if ray.counted is None else int(ray.counted[0])


def covers(ray: RayPretension, heaps: Sequence[int]) -> bool:
    """Whether ``ray`` predicts the outcome of the position ``heaps``: every heap is at most its
    top heap, and it holds fewer than ``cap`` copies of a counted heap."""
    hs = [int(h) for h in heaps]
    if any(h >= len(ray.row) for h in hs):
        return False
    return ray.counted is None or hs.count(int(ray.counted[0])) < int(ray.counted[1])


def counted_problem(pre: RayPretension) -> str | None:
    """Why ``pre.counted = (n, cap, count)`` does not count the copies of heap ``n`` (capped at
    ``cap``), or None: ``n`` is the top heap, ``u < v < n``, ``count[0] = 0``, every generator
    column adds ``[h = n]`` to the count (capped), and no dead element is in ``P``."""
    n, cap, count = pre.counted
    count = np.asarray(count)
    if n != len(pre.row) - 1 or not pre.u < pre.v < n:
        return f"the counted heap {n} is not the top heap above u = {pre.u} and v = {pre.v}"
    if pre.row[n] < 0 or cap < 1:
        return "the counted heap needs a column and a cap >= 1"
    if count.shape != (pre.order_r,) or count.min(initial=0) < 0 or count.max(initial=0) > cap or count[0] != 0:
        return "the counts are not one number 0 .. cap per element, 0 at the identity"
    for h, i in enumerate(pre.row):
        if i < 0:
            continue
        want = np.minimum(count + (1 if h == n else 0), cap)
        if not np.array_equal(count[np.asarray(pre.cols[i], dtype=np.int64)], want):
            return f"heap {h}'s column does not add {1 if h == n else 0} copies of heap {n} to the count"
    if np.asarray(pre.F)[count == cap].any():
        return "a dead element (cap copies of the counted heap) is in P"
    return None


def stalled_pair(freed: Sequence[tuple[int, ...]], n: int, rounds: int = 8) -> tuple[int, int] | None:
    """``(u, v)`` when the last ``rounds`` repairs of a counting level freed mostly two heaps
    ``u < v < n``, one at a time: each at least twice, the two together in all but two rounds;
    else None."""
    last = [h for h in freed[-rounds:] if len(h) == 1]
    if len(freed) < rounds or len(last) < rounds - 2:
        return None
    hs = [h[0] for h in last]
    top = sorted(set(hs), key=lambda h: (-hs.count(h), -h))[:2]
    if len(top) != 2 or max(top) >= n or min(hs.count(h) for h in top) < 2:
        return None
    if sum(hs.count(h) for h in top) < rounds - 2:
        return None
    return min(top), max(top)


def counted_from_candidate(raw: Pretension, options: Sequence[Sequence[tuple[int, ...]]], u: int, v: int,
                           copies: int, reach: tuple[int, int], max_states: int = 50_000_000,
                           deadline: Deadline | None = None, failures: list | None = None,
                           attached: Sequence[int] = ()):
    """:func:`_from_candidate` with ``u`` and ``v`` alone counted, then, when other heaps share
    their images in ``raw``, with those heaps counted as copies of them too. With ``attached``
    heaps (freed in turn with ``u`` and ``v``): only the second, those of them outside the classes
    attached as mixed heaps. ``failures`` receives ``(pretension, failure)``
    (:class:`~cgtalg.quotients.rays.RayFailure`) for each pretension that was read and had a
    witness but did not verify (the caller may repair ``raw`` there)."""
    got = None
    if not attached:
        got = _from_candidate(raw, options, ((u,), (v,)), copies, reach, max_states, deadline, failures)
    if got is None:
        try:
            us, vs = image_classes(raw, u, v)
        except ArgumentError:
            return None
        att = tuple(sorted(set(attached) - set(us) - set(vs)))
        if len(us) > 1 or len(vs) > 1 or att:
            got = _from_candidate(raw, options, (us, vs), copies, reach, max_states, deadline, failures, att)
    return got


def stalled_group(freed: Sequence[tuple[int, ...]], n: int, raw: Pretension, rounds: int = 10,
                  max_pairs: int = 3) -> list[tuple[int, int, tuple[int, ...]]]:
    """When the last ``rounds`` repairs of a counting level freed three to six heaps ``< n`` in
    turn (each at least twice, together in all but two rounds): pairs ``(u, v, attached)`` to
    try, ``u < v`` of different images in ``raw`` (each the least heap of its image), the larger
    ``v`` first, and the group's other heaps; else ``[]``."""
    last = [h[0] for h in freed[-rounds:] if len(h) == 1]
    if len(freed) < rounds or len(last) < rounds - 2:
        return []
    group = sorted(h for h in set(last) if last.count(h) >= 2 and h < n)
    if not 3 <= len(group) <= 6 or sum(last.count(h) for h in group) < rounds - 2:
        return []
    least: dict[int, int] = {}
    for h in range(1, n):
        least.setdefault(int(raw.phi[h]), h)
    heads = sorted({least[int(raw.phi[h])] for h in group if int(raw.phi[h]) != 0})
    pairs = sorted(((u, v) for u in heads for v in heads if u < v), key=lambda p: (-p[1], p[0]))
    return [(u, v, tuple(h for h in group if h not in (u, v))) for u, v in pairs[:max_pairs]]


def _from_candidate(raw: Pretension, options: Sequence[Sequence[tuple[int, ...]]],
                    classes: tuple[tuple[int, ...], tuple[int, ...]], copies: int, reach: tuple[int, int],
                    max_states: int, deadline: Deadline | None, failures: list | None = None,
                    attached: tuple[int, ...] = ()):
    """``(ray, witness)`` proving ``Q_n`` infinite (``n``: the top heap of ``raw``) with ``u``,
    ``v`` free and ``n`` counted up to ``cap = copies + 1``, read off ``raw``, an unreduced
    counting candidate right (it is hoped) on ``a < reach[0]``, ``b < reach[1]`` copies of ``u``
    and ``v`` (module docstring); None when no rules fit, the pretension fails, or it has no
    witness. ``classes``: the heaps counted as copies of ``u`` and of ``v`` (each led by its
    least heap). ``attached``: heaps left out of ``R`` whose images are then chosen as mixed
    heaps (:func:`cgtalg.quotients.rays_lift.attach_heaps`). ``raw.monoid.C[:, -1]`` must be
    the counter of heap ``n``."""
    n = len(raw.phi) - 1
    cap = copies + 1
    us, vs = classes
    u, v = us[0], vs[0]
    if not 0 < u < v < n or n in us or n in vs or set(attached) & (set(us) | set(vs) | {n}):
        return None
    others = [h for h in range(n + 1) if h not in us and h not in vs and h not in attached]
    ids, remap, words, gcol = _submonoid(raw, others)
    if (remap[ids] < 0).any():
        return None
    count = np.asarray(raw.monoid.C)[ids, -1].astype(np.int64)
    gens = sorted({int(raw.phi[h]) for h in others} - {0})
    gcols = {g: remap[gcol[g][ids]] for g in gens}
    if any((c < 0).any() for c in gcols.values()):
        return None
    for margin in MARGINS:              # a box too small for rules: then read nearer the wrap
        got = _read_box(raw, ids, count, gcols, gens, u, v, reach, margin)
        if got is not None:
            break
    else:
        return None
    grid, cls, new, reps, k, rules = got
    TA, TB = rules.table_shape
    row = [-1] * (n + 1)
    col_rows: list[np.ndarray] = []
    gid: dict[int, int] = {}
    for h in others:
        g = int(raw.phi[h])
        if g not in gid:
            gid[g] = len(col_rows)
            col_rows.append(new[cls[gcols[g][reps]]] if g != 0 else np.arange(k))
        row[h] = gid[g]
    if attached:                        # placeholders: the identity, one copy of u
        row = [len(col_rows) if h in attached else i for h, i in enumerate(row)]
        col_rows.append(np.arange(k))
    cols = np.ascontiguousarray(np.stack(col_rows), dtype=np.int32)
    F = np.ascontiguousarray(grid[reps][:, :TA, :TB])
    rp = RayPretension(u, v, cols, row, [words[i] for i in reps], F, rules,
                       (n, cap, np.minimum(count[reps], cap)),
                       (us, vs), tuple((h, 1, 0) for h in attached) or None)
    if counted_problem(rp) is not None:
        return None
    wit = order_witness(rp)
    if wit is None or rp.counted[2][wit[0]] == cap:
        return None
    try:
        if attached:
            from cgtalg.quotients.rays_lift import attach_heaps

            got, fail = attach_heaps(rp, attached, options[:n + 1], lambda p: verify_ray_pretension(
                p, options[:n + 1], max_states, deadline), deadline=deadline)
            if got is not None:
                return got, wit
            if fail is None:
                # no image to try for an attached heap: nothing was verified; the placeholders
                # (every attached heap as one copy of u) are a pretension too, verified as it is
                fail = verify_ray_pretension(rp, options[:n + 1], max_states, deadline)
            else:
                rp, fail = fail
        else:
            fail = verify_ray_pretension(rp, options[:n + 1], max_states, deadline)
    except (ArgumentError, ComputationLimitError):
        if deadline is not None:
            deadline.check(f"proving Q_{n} infinite")
        return None
    if fail is not None:
        if failures is not None:
            failures.append((rp, fail))
        return None
    return rp, wit
