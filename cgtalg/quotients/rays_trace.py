"""A position behind a failing pair of a ray pretension's N-search.

:func:`cgtalg.quotients.rays.verify_ray_pretension` checks the N-condition over the pairs
``(x, T)`` of :func:`cgtalg.quotients.rays.ray_pairs`: an element ``x`` of ``R`` and an
inclusion-minimal set ``T`` of the option images of some position ``w`` (heaps other than the
counted ones) with ``Φ(w) = x``. Its :class:`~cgtalg.quotients.rays.RayFailure` names the least
word of ``x``, which has image ``x`` but may have other options. When the pretension is to be
repaired there (:func:`cgtalg.quotients.count._pair_proof`), the position that fails is
wanted: :func:`pair_position` searches the positions again, breadth first, remembering how each
pair was reached, and returns a shortest position with the pair.
"""

from __future__ import annotations

from collections import deque
from typing import Sequence

from cgtalg.budget import Deadline
from cgtalg.quotients.rays import RayFailure, RayPretension, _w_monoid

__all__ = ["pair_position", "failing_position", "trace_word"]


def pair_position(pre: RayPretension, options: Sequence[Sequence[tuple[int, ...]]], x: int, T: Sequence[int],
                  max_states: int = 1_000_000, deadline: Deadline | None = None) -> tuple[int, ...] | None:
    """A position ``w`` of the heaps other than the counted ones with image ``x`` and option
    images ``T`` (a minimal set of :func:`~cgtalg.quotients.rays.ray_pairs`), or None when none
    is found within ``max_states`` pairs."""
    target = frozenset(int(t) for t in T)
    if x == 0 and not target:
        return ()
    _nW, cols, colmap, edges = _w_monoid(pre, options)
    return trace_word(cols, colmap, edges, x, target, max_states, deadline)


def trace_word(cols, colmap, edges, x: int, T: Sequence[int], max_states: int = 1_000_000,
               deadline: Deadline | None = None) -> tuple[int, ...] | None:
    """A shortest word of heaps reaching ``(x, T')`` with ``T' ⊂ T`` in the search of
    :func:`cgtalg.quotients.rays.kept_search` (edges ``(heap, g, S)``, columns by ``colmap``),
    breadth first with parent pointers; None when none is found within ``max_states`` pairs."""
    target = frozenset(int(t) for t in T)
    if x == 0 and not target:
        return ()
    gcols = [cols[colmap[g]].tolist() for _h, g, _S in edges]
    scols = [[cols[colmap[z]].tolist() for z in S] for _h, _g, S in edges]
    start = (0, frozenset())
    parent: dict = {start: None}
    kept: dict[int, list[frozenset]] = {}
    queue = deque([start])
    while queue:
        st = queue.popleft()
        x0, T0 = st
        for (h, _g, _S), gc, sc in zip(edges, gcols, scols):
            y = gc[x0]
            T2 = frozenset([gc[t] for t in T0] + [c[x0] for c in sc])
            lst = kept.setdefault(y, [])
            if any(T3 <= T2 for T3 in lst):
                continue
            lst[:] = [T3 for T3 in lst if not T2 <= T3]
            lst.append(T2)
            nxt = (y, T2)
            parent[nxt] = (st, h)
            if y == x and T2 <= target:
                out = []
                while parent[nxt] is not None:
                    nxt, hh = parent[nxt]
                    out.append(hh)
                return tuple(sorted(out))
            if len(parent) > max_states:
                return None
            if deadline is not None and not len(parent) % 4096:
                deadline.check("tracing a failure of a ray pretension")
            queue.append(nxt)
    return None


def failing_position(pre: RayPretension, options: Sequence[Sequence[tuple[int, ...]]], fail: RayFailure,
                     deadline: Deadline | None = None) -> tuple[int, ...]:
    """The position of a failure: for an N-failure with its pair, a position with that pair
    (:func:`pair_position`) and the failure's copies of the counted heaps; else (or when none is
    found) ``fail.position``."""
    if fail.kind != "N" or fail.pair is None:
        return fail.position
    x, T, tu, tv = fail.pair
    w = pair_position(pre, options, x, T, deadline=deadline)
    if w is None:
        return fail.position
    a, b = fail.point
    counted = ((tu,) if a else ()) + (pre.u,) * max(a - 1, 0) + ((tv,) if b else ()) + (pre.v,) * max(b - 1, 0)
    return tuple(sorted(w + counted))
