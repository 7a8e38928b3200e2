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

__all__ = ["counted_from_candidate", "counted_problem", "stalled_pair", "infinite_from", "covers", "MARGIN"]

#: points next to where a candidate's cyclic factor wraps that are not read
MARGIN = 2


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
                           deadline: Deadline | None = None, failures: list | None = None):
    """:func:`_from_candidate` with ``u`` and ``v`` alone counted, then, when other heaps share
    their images in ``raw``, with those heaps counted as copies of them too. ``failures``
    receives ``(pretension, failure)`` (:class:`~cgtalg.quotients.rays.RayFailure`) for each
    pretension that was read and had a witness but did not verify (the caller may repair ``raw``
    there)."""
    got = _from_candidate(raw, options, ((u,), (v,)), copies, reach, max_states, deadline, failures)
    if got is None:
        try:
            us, vs = image_classes(raw, u, v)
        except ArgumentError:
            return None
        if len(us) > 1 or len(vs) > 1:
            got = _from_candidate(raw, options, (us, vs), copies, reach, max_states, deadline, failures)
    return got


def _from_candidate(raw: Pretension, options: Sequence[Sequence[tuple[int, ...]]],
                    classes: tuple[tuple[int, ...], tuple[int, ...]], copies: int, reach: tuple[int, int],
                    max_states: int, deadline: Deadline | None, failures: list | None = None):
    """``(ray, witness)`` proving ``Q_n`` infinite (``n``: the top heap of ``raw``) with ``u``,
    ``v`` free and ``n`` counted up to ``cap = copies + 1``, read off ``raw``, an unreduced
    counting candidate right (it is hoped) on ``a < reach[0]``, ``b < reach[1]`` copies of ``u``
    and ``v`` (module docstring); None when no rules fit, the pretension fails, or it has no
    witness. ``classes``: the heaps counted as copies of ``u`` and of ``v`` (each led by its
    least heap). ``raw.monoid.C[:, -1]`` must be the counter of heap ``n``."""
    n = len(raw.phi) - 1
    cap = copies + 1
    us, vs = classes
    u, v = us[0], vs[0]
    if not 0 < u < v < n or n in us or n in vs:
        return None
    A, B = max(reach[0] - MARGIN, 0), max(reach[1] - MARGIN, 0)
    if min(A, B) < 6:
        return None
    others = [h for h in range(n + 1) if h not in us and h not in vs]
    ids, remap, words, gcol = _submonoid(raw, others)
    if (remap[ids] < 0).any():
        return None
    count = np.asarray(raw.monoid.C)[ids, -1].astype(np.int64)
    grid = _level_grid(raw, ids, u, v, A, B)
    gens = sorted({int(raw.phi[h]) for h in others} - {0})
    gcols = {g: remap[gcol[g][ids]] for g in gens}
    if any((c < 0).any() for c in gcols.values()):
        return None
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
    row = [-1] * (n + 1)
    col_rows: list[np.ndarray] = []
    gid: dict[int, int] = {}
    for h in others:
        g = int(raw.phi[h])
        if g not in gid:
            gid[g] = len(col_rows)
            col_rows.append(new[cls[gcols[g][reps]]] if g != 0 else np.arange(k))
        row[h] = gid[g]
    cols = np.ascontiguousarray(np.stack(col_rows), dtype=np.int32)
    F = np.ascontiguousarray(grid[reps][:, :TA, :TB])
    rp = RayPretension(u, v, cols, row, [words[i] for i in reps], F, rules,
                       (n, cap, np.minimum(count[reps], cap)),
                       (us, vs))
    if counted_problem(rp) is not None:
        return None
    wit = order_witness(rp)
    if wit is None or rp.counted[2][wit[0]] == cap:
        return None
    try:
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
