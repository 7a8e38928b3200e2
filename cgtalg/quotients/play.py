"""Misère play of heap positions from a known misère quotient.

When a quotient ``(Q, P, Φ)`` of a heap game is known (computed in this process by
:func:`cgtalg.quotients.construct.misere_quotient`, or stored and re-verified on loading) and
covers the heaps of a position (every heap ``<= n`` for ``Q_n``, any heap once Φ is certified
periodic), the position is a misère P-position iff ``Φ(h1)·Φ(h2)···`` lies in ``P``: one
table look-up per heap. A winning move is a move to a position whose image is in ``P``: for
heap ``h_i`` with ``r_i`` the image of the other heaps, the options ``parts`` of ``h_i`` with
``r_i·Φ(parts) ∈ P``. For take-and-break codes and heaps beyond the computed ones, the options
are enumerated from the code's digits, and the splits of a huge heap into two heaps that are
both past the preperiod of Φ come as arithmetic families (one per residue class mod the
period, moves with ``count > 1``), as in normal play.

The ruleset is duck-typed (``heap_options``, ``name``; for a finite take-and-break code also
``digit``, ``k`` and ``is_finite``), and so is the move: :func:`quotient_winning_moves` builds
each with the ``move`` it is given, called as ``move(heap_index, heap, removed, parts)`` or, for
a family, ``move(heap_index, heap, removed, parts, stride=..., count=...)`` (the rulesets pass
:class:`~cgtalg.rulesets.heaps.games.HeapMove`).

A heap far beyond the computed ones is answered from a final quotient, never searched: for a
finite take-and-break code and a heap above :data:`LARGE_HEAP` tokens, :func:`quotient_for`
looks for the final quotient when none is known (within :data:`QUOTIENT_SECONDS` and
:data:`QUOTIENT_MEMORY`; it is stored when a store is given, so the next run reads it), and
the heap's image is ``Φ(n0 + (h − n0) mod p)``: ``outcome 0.77 10**30 --misere`` is a few
look-ups. When none is found, the search refuses up front what cannot fit
(:func:`cgtalg.rulesets.heaps.misere_play.check_search_reach`).

:meth:`HeapRuleset.outcome <cgtalg.rulesets.heaps.games.HeapRuleset.outcome>` and
:meth:`~cgtalg.rulesets.heaps.games.HeapRuleset.winning_moves` with ``misere=True`` call
:func:`quotient_outcome` / :func:`quotient_winning_moves` first and fall back to the exhaustive
search (:mod:`cgtalg.rulesets.heaps.misere_play`) when they return ``None``.
"""

from __future__ import annotations

import warnings
from typing import Any, Callable, Iterator, Sequence

from cgtalg.core.lazynp import np

from cgtalg.budget import check_max_seconds, default_max_memory, rss_bytes
from cgtalg.caches import register_cache
from cgtalg.errors import ComputationLimitError, StoreCorruptError
from cgtalg.quotients.state import (
    LOADED,
    _process_key,
    is_take_and_break,
    known_state,
    misere_theorem_note,
    remember_state,
)
from cgtalg.quotients.storage import Checkpointer, quotient_key
from cgtalg.quotients.rays_counted import covers, infinite_from

__all__ = ["quotient_for", "quotient_outcome", "quotient_winning_moves", "rays_for", "DIRECT_SPLITS",
           "LARGE_HEAP", "QUOTIENT_SECONDS", "QUOTIENT_MEMORY"]

#: a position of a finite take-and-break code with a heap above this many tokens is answered
#: from the game's final misère quotient, computed for it when none is known (within
#: :data:`QUOTIENT_SECONDS` and :data:`QUOTIENT_MEMORY`), rather than searched: the search
#: grows with the heap, the quotient's answer does not (one look-up of Φ per heap)
LARGE_HEAP = 1000
#: seconds (at most) spent looking for a final quotient to answer a large heap
QUOTIENT_SECONDS = 20.0
#: memory (bytes) that attempt may add to what the process holds (within the process ceiling)
QUOTIENT_MEMORY = 2 << 30

#: codes (process keys) whose final quotient was not found within the attempt's budget
#: game -> the largest time budget (seconds) a failed attempt at its final quotient had
_TRIED: dict = register_cache("misere.quotient attempts for large heaps", {})

#: pair splits of a heap are enumerated one by one (vectorised) up to this many pairs; past it
#: (huge heaps of a game with a certified period) they come as arithmetic families
DIRECT_SPLITS = 1 << 20


def _state_for(ruleset: Any, store: Any) -> Any:
    """The best verified quotient state of ``ruleset``: this process's, or the store's (read and
    re-verified once per store and process). A stored record that fails verification is
    reported with a warning and ignored (the caller falls back to search)."""
    st = known_state(ruleset)
    if store is None or store is False or (st is not None and st.final):
        return st
    where = store if isinstance(store, str) else getattr(store, "location", id(store))
    seen = (quotient_key(ruleset), where, _process_key(ruleset) or id(ruleset))
    if seen in LOADED:
        return st
    LOADED.add(seen)
    ck = Checkpointer(ruleset, store)
    try:
        stored = ck.load(better_than=st.rank() if st is not None else None)
    except (StoreCorruptError, ComputationLimitError) as exc:
        warnings.warn(f"{exc} (answering by search instead)", RuntimeWarning, stacklevel=4)
        return st
    if stored is not None:
        remember_state(ruleset, stored)
        return stored
    return st


def _final_within(ruleset: Any, store: Any, max_seconds: float | None) -> Any:
    """The final quotient state of a finite take-and-break code, computed (and stored) now
    within :data:`QUOTIENT_SECONDS` (or ``max_seconds`` when smaller) and
    :data:`QUOTIENT_MEMORY`; None when it is not found within them (remembered with its
    budget, so the next query tries again only when given more time)."""
    key = _process_key(ruleset) or id(ruleset)
    seconds = QUOTIENT_SECONDS if max_seconds is None else min(QUOTIENT_SECONDS, max_seconds)
    if _TRIED.get(key, 0.0) >= seconds:
        return None
    from cgtalg.quotients.construct import misere_quotient

    opened = store if callable(getattr(store, "put_sequence_meta", None)) else None
    try:
        q = misere_quotient(ruleset, max_seconds=seconds, store=opened, progress=False,
                            max_memory=min(rss_bytes() + QUOTIENT_MEMORY, default_max_memory()))
    except (ComputationLimitError, StoreCorruptError):
        _TRIED[key] = max(seconds, _TRIED.get(key, 0.0))
        return None
    if not q.final:  # pragma: no cover - misere_quotient without max_heap ends final or raises
        _TRIED[key] = max(seconds, _TRIED.get(key, 0.0))
        return None
    return known_state(ruleset)


def quotient_for(ruleset: Any, heaps: Sequence[int], store: Any = None,
                 max_seconds: float | None = None) -> Any:
    """The known quotient state of ``ruleset`` when it covers ``heaps``, else None.

    For a finite take-and-break code and a heap above :data:`LARGE_HEAP`, a final quotient
    not yet known is looked for first (:data:`QUOTIENT_SECONDS`, or ``max_seconds`` when
    smaller): a heap far beyond a final quotient is answered from it, never searched."""
    st = _state_for(ruleset, store)
    if st is not None and (st.final or all(h <= st.top for h in heaps)):
        return st
    # a final quotient needs Plambeck–Siegel's theorem: without its facts the search answers
    if heaps and max(heaps) > LARGE_HEAP and misere_theorem_note(ruleset) is None:
        return _final_within(ruleset, store, check_max_seconds(max_seconds))
    return None


class _Images:
    """Φ and the table of a quotient state as fast look-ups (any heap size when final)."""

    def __init__(self, st: Any) -> None:
        self.t = st.pre.monoid.table
        self.P = st.pre.P
        self.phi = np.asarray(st.pre.phi, dtype=np.int64)
        self.top = st.top
        self.period = st.period

    def phi_of(self, h: int) -> int:
        if h <= self.top:
            return int(self.phi[h])
        n0, p = self.period
        return int(self.phi[n0 + (h - n0) % p])

    def phi_arr(self, a: np.ndarray) -> np.ndarray:
        if self.period is None or (a.size and int(a.max()) <= self.top):
            return self.phi[a]
        n0, p = self.period
        return np.where(a <= self.top, self.phi[np.minimum(a, self.top)], self.phi[n0 + (a - n0) % p])

    def image(self, heaps: Sequence[int]) -> int:
        x = 0
        t = self.t
        for h in heaps:
            if h:
                x = int(t[x, self.phi_of(int(h))])
        return x


#: stored proofs of infinitude read (and re-verified) once per store and process
_RAYS: dict = register_cache("misere.quotient ray pretensions read from stores", {})


def rays_for(ruleset: Any, heaps: Sequence[int], store: Any) -> Any:
    """The stored ray pretension of ``ruleset`` (a proof that a partial quotient is infinite,
    :mod:`cgtalg.quotients.rays`) when it covers ``heaps``, else None. Read from an opened
    store and re-verified once per store and process; one that fails is reported with a
    warning and ignored."""
    if store is None or store is False or isinstance(store, str) or not heaps:
        return None
    where = getattr(store, "location", id(store))
    key = (quotient_key(ruleset), where, _process_key(ruleset) or id(ruleset))
    if key not in _RAYS:
        try:
            got = Checkpointer(ruleset, store).load_rays()
        except (StoreCorruptError, ComputationLimitError) as exc:
            warnings.warn(f"{exc} (answering by search instead)", RuntimeWarning, stacklevel=4)
            got = False
        if got is None:             # nothing stored (yet): asked again next time
            return None
        _RAYS[key] = got or None
    got = _RAYS[key]
    if got is None or max(int(h) for h in heaps) > got[2] or not covers(got[0], heaps):
        return None
    return got[0]


def infinite_verdict(ruleset: Any, store: Any) -> dict | None:
    """The stored proof that the misère quotient of ``ruleset`` is infinite, as the facts a
    report shows (re-verified once per store and process, as :func:`rays_for`):
    ``{"infinite_from": v, "heaps_covered": top, "u": u, "order_r": |R|}``; None when none is
    stored."""
    if store is None or store is False or isinstance(store, str):
        return None
    ray = rays_for(ruleset, [1], store)
    if ray is None:
        return None
    return {"infinite_from": infinite_from(ray), "heaps_covered": len(ray.row) - 1, "u": int(ray.u),
            "order_r": int(ray.order_r)}


def quotient_outcome(ruleset: Any, heaps: Sequence[int], store: Any = None,
                     max_seconds: float | None = None) -> str | None:
    """``'P'``/``'N'`` from the known quotient, or None when none covers ``heaps``
    (:func:`quotient_for`: a large heap of a finite code looks for a final quotient first;
    then a stored proof that the next quotient is infinite, :func:`rays_for`, answers the
    positions of the heaps it covers)."""
    st = quotient_for(ruleset, heaps, store, max_seconds)
    if st is None:
        ray = rays_for(ruleset, heaps, store)
        if ray is None:
            return None
        return "P" if ray.is_p([int(h) for h in heaps if h]) else "N"
    im = _Images(st)
    return "P" if im.P[im.image(heaps)] else "N"


def _move_tuple(heap_index: int, heap: int, removed: int, parts: tuple[int, ...],
                stride: int = 0, count: int = 1) -> tuple:
    return (heap_index, heap, removed, parts, stride, count)


def quotient_winning_moves(ruleset: Any, heaps: Sequence[int], store: Any = None,
                           move: Callable[..., Any] | None = None,
                           max_seconds: float | None = None) -> list | None:
    """Every move to a misère P-position (module docstring), or None when no known quotient
    covers ``heaps``. Heaps are named by the index of their first occurrence.

    ``move(heap_index, heap, removed, parts, stride=0, count=1)`` builds each move (default:
    the plain tuple of those six fields); ``store`` is an opened store or None."""
    if move is None:
        move = _move_tuple
    st = quotient_for(ruleset, heaps, store, max_seconds)
    if st is None:
        ray = rays_for(ruleset, heaps, store)
        return None if ray is None else list(_ray_moves(ruleset, ray, [int(h) for h in heaps], move))
    im = _Images(st)
    t = im.t
    hs = [int(h) for h in heaps]
    # r_i = product of the images of the other heaps (prefix and suffix products)
    imgs = [im.phi_of(h) if h else 0 for h in hs]
    pre = [0] * (len(hs) + 1)
    for i, x in enumerate(imgs):
        pre[i + 1] = int(t[pre[i], x])
    suf = [0] * (len(hs) + 1)
    for i in range(len(hs) - 1, -1, -1):
        suf[i] = int(t[suf[i + 1], imgs[i]])
    moves: list = []
    seen: set[int] = set()
    for i, h in enumerate(hs):
        if h == 0 or h in seen:
            continue
        seen.add(h)
        r = int(t[pre[i], suf[i + 1]])
        moves.extend(_moves_in_heap(ruleset, im, i, h, r, move))
    return moves


def _ray_moves(ruleset: Any, ray: Any, hs: list[int], move: Callable[..., Any],
               huge: Callable[..., Iterator[Any]] | None = None) -> Iterator[Any]:
    """The winning moves of ``hs`` from a predicate on positions (``ray.is_p``: a ray pretension,
    or a largest-heap rule's :class:`~cgtalg.quotients.largest_heap.RulePlay`): each option of each
    heap (first occurrence) whose position is P. ``huge(i, h, rest, move)``, when given, yields the
    moves of a heap too large to list its options (more than ``huge.limit`` tokens)."""
    seen: set[int] = set()
    for i, h in enumerate(hs):
        if h == 0 or h in seen:
            continue
        seen.add(h)
        rest = hs[:i] + hs[i + 1:]
        if huge is not None and h > huge.limit:          # type: ignore[attr-defined]
            yield from huge(i, h, rest, move)
            continue
        done: set = set()
        for parts in ruleset.heap_options(h):
            parts = tuple(p for p in parts if p)
            key = (h - sum(parts), tuple(sorted(parts)))
            if key not in done and ray.is_p([x for x in rest + list(parts) if x]):
                done.add(key)
                yield move(i, h, h - sum(parts), parts)


def _moves_in_heap(ruleset: Any, im: _Images, i: int, h: int, r: int,
                   move: Callable[..., Any]) -> Iterator[Any]:
    t, P = im.t, im.P
    octal = is_take_and_break(ruleset) and ruleset.facts.finite is True
    if not octal:   # heaps <= top (only finite codes have final quotients): enumerate
        for parts in ruleset.heap_options(h):
            x = r
            for p in parts:
                if p:
                    x = int(t[x, im.phi_of(p)])
            if P[x]:
                yield move(i, h, h - sum(parts), tuple(parts))
        return
    # a finite take-and-break code: options from its digits, in heap_options order
    for tk in range(0, min(h, ruleset.facts.k) + 1):
        d = ruleset.digit(tk)
        if not d:
            continue
        m = h - tk
        if m == 0:
            if d & 1 and P[r]:
                yield move(i, h, h, ())
            continue
        if d & 2 and P[t[r, im.phi_of(m)]]:
            yield move(i, h, tk, (m,))
        if d & 4 and m >= 2:
            yield from _pair_splits(im, i, h, tk, m, r, move)
        if d & 8 and m >= 3:
            if m > 3000:
                raise ComputationLimitError(
                    f"{ruleset.name}: three-heap splits of a heap of {m} tokens are not enumerated (limit 3000)")
            for a in range(1, m // 3 + 1):
                xa = int(t[r, im.phi_of(a)])
                for b in range(a, (m - a) // 2 + 1):
                    if P[t[t[xa, im.phi_of(b)], im.phi_of(m - a - b)]]:
                        yield move(i, h, tk, (a, b, m - a - b))


def _pair_splits(im: _Images, i: int, h: int, tk: int, m: int, r: int,
                 move: Callable[..., Any]) -> Iterator[Any]:
    """Splits of ``m`` tokens into ``(a, m − a)``, ``1 <= a <= m // 2``, whose image with ``r``
    is in P; families for both parts past the preperiod when there are too many pairs."""
    t, P = im.t, im.P
    half = m // 2
    if half <= DIRECT_SPLITS:
        a = np.arange(1, half + 1, dtype=np.int64)
        x = t[t[r, im.phi_arr(a)], im.phi_arr(m - a)]
        for aa in a[P[x]]:
            yield move(i, h, tk, (int(aa), m - int(aa)))
        return
    n0, p = im.period  # half > DIRECT_SPLITS > top: the quotient is final
    for a in range(1, min(half, n0 - 1) + 1):
        if P[t[t[r, im.phi_of(a)], im.phi_of(m - a)]]:
            yield move(i, h, tk, (a, m - a))
    # n0 <= a <= m − a: Φ(a) = Φ(n0 + j) for a = n0 + j (mod p), Φ(m − a) = Φ(n0 + (m − 2·n0 − j) mod p)
    for j in range(p):
        a = n0 + j
        if a > half:
            continue
        if P[t[t[r, im.phi[n0 + j]], im.phi[n0 + (m - 2 * n0 - j) % p]]]:
            count = (half - a) // p + 1
            yield move(i, h, tk, (a, m - a), stride=p if count > 1 else 0, count=count)
