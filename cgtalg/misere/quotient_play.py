"""Misère play of heap positions from a known misère quotient.

When a quotient ``(Q, P, Φ)`` of a heap game is known (computed in this process by
:func:`cgtalg.misere.quotient.misere_quotient`, or stored and re-verified on loading) and
covers the heaps of a position (every heap ``<= n`` for ``Q_n``, any heap once Φ is certified
periodic), the position is a misère P-position iff ``Φ(h1)·Φ(h2)···`` lies in ``P``: one
table look-up per heap. A winning move is a move to a position whose image is in ``P``: for
heap ``h_i`` with ``r_i`` the image of the other heaps, the options ``parts`` of ``h_i`` with
``r_i·Φ(parts) ∈ P``. For take-and-break codes and heaps beyond the computed ones, the options
are enumerated from the code's digits, and the splits of a huge heap into two heaps that are
both past the preperiod of Φ come as arithmetic families (one per residue class mod the
period, :class:`~cgtalg.rulesets.heap_games.HeapMove` with ``count > 1``), as in normal play.

:meth:`HeapRuleset.outcome <cgtalg.rulesets.heap_games.HeapRuleset.outcome>` and
:meth:`~cgtalg.rulesets.heap_games.HeapRuleset.winning_moves` with ``misere=True`` call
:func:`quotient_outcome` / :func:`quotient_winning_moves` first and fall back to the exhaustive
search (:mod:`cgtalg.rulesets.misere_play`) when they return ``None``.
"""

from __future__ import annotations

import warnings
from typing import Any, Iterator, Sequence

import numpy as np

from cgtalg.errors import ComputationLimitError, StoreCorruptError

__all__ = ["quotient_for", "quotient_outcome", "quotient_winning_moves", "DIRECT_SPLITS"]

#: pair splits of a heap are enumerated one by one (vectorised) up to this many pairs; past it
#: (huge heaps of a game with a certified period) they come as arithmetic families
DIRECT_SPLITS = 1 << 20


def _state_for(ruleset: Any, store: Any) -> Any:
    """The best verified quotient state of ``ruleset``: this process's, or the store's (read and
    re-verified once per store and process). A stored record that fails verification is
    reported with a warning and ignored (the caller falls back to search)."""
    from cgtalg.misere.quotient import _process_key, known_state, remember_state
    from cgtalg.misere.quotient_store import Checkpointer, quotient_key

    st = known_state(ruleset)
    if store is None or store is False or (st is not None and st.final):
        return st
    where = store if isinstance(store, str) else getattr(store, "location", id(store))
    seen = (quotient_key(ruleset), where, _process_key(ruleset) or id(ruleset))
    if seen in _LOADED:
        return st
    _LOADED.add(seen)
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


#: (store key, store location, code or ruleset id) already read in this process
_LOADED: set = set()


def quotient_for(ruleset: Any, heaps: Sequence[int], store: Any = None) -> Any:
    """The known quotient state of ``ruleset`` when it covers ``heaps``, else None."""
    st = _state_for(ruleset, store)
    if st is None:
        return None
    if st.final or all(h <= st.top for h in heaps):
        return st
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


def quotient_outcome(ruleset: Any, heaps: Sequence[int], store: Any = None) -> str | None:
    """``'P'``/``'N'`` from the known quotient, or None when none covers ``heaps``."""
    st = quotient_for(ruleset, heaps, store)
    if st is None:
        return None
    im = _Images(st)
    return "P" if im.P[im.image(heaps)] else "N"


def quotient_winning_moves(ruleset: Any, heaps: Sequence[int], store: Any = None) -> list | None:
    """Every move to a misère P-position (module docstring), or None when no known quotient
    covers ``heaps``. Heaps are named by the index of their first occurrence."""
    st = quotient_for(ruleset, heaps, store)
    if st is None:
        return None
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
        moves.extend(_moves_in_heap(ruleset, im, i, h, r))
    return moves


def _moves_in_heap(ruleset: Any, im: _Images, i: int, h: int, r: int) -> Iterator[Any]:
    from cgtalg.rulesets.heap_position import HeapMove
    from cgtalg.rulesets.octal import TakeAndBreak

    t, P = im.t, im.P
    octal = isinstance(ruleset, TakeAndBreak) and ruleset.is_finite
    if not octal:   # heaps <= top (only finite codes have final quotients): enumerate
        for parts in ruleset.heap_options(h):
            x = r
            for p in parts:
                if p:
                    x = int(t[x, im.phi_of(p)])
            if P[x]:
                yield HeapMove(i, h, h - sum(parts), tuple(parts))
        return
    # a finite take-and-break code: options from its digits, in heap_options order
    for tk in range(0, min(h, ruleset.k) + 1):
        d = ruleset.digit(tk)
        if not d:
            continue
        m = h - tk
        if m == 0:
            if d & 1 and P[r]:
                yield HeapMove(i, h, h, ())
            continue
        if d & 2 and P[t[r, im.phi_of(m)]]:
            yield HeapMove(i, h, tk, (m,))
        if d & 4 and m >= 2:
            yield from _pair_splits(im, i, h, tk, m, r)
        if d & 8 and m >= 3:
            if m > 3000:
                raise ComputationLimitError(
                    f"{ruleset.name}: three-heap splits of a heap of {m} tokens are not enumerated (limit 3000)")
            for a in range(1, m // 3 + 1):
                xa = int(t[r, im.phi_of(a)])
                for b in range(a, (m - a) // 2 + 1):
                    if P[t[t[xa, im.phi_of(b)], im.phi_of(m - a - b)]]:
                        yield HeapMove(i, h, tk, (a, b, m - a - b))


def _pair_splits(im: _Images, i: int, h: int, tk: int, m: int, r: int) -> Iterator[Any]:
    """Splits of ``m`` tokens into ``(a, m − a)``, ``1 <= a <= m // 2``, whose image with ``r``
    is in P; families for both parts past the preperiod when there are too many pairs."""
    from cgtalg.rulesets.heap_position import HeapMove

    t, P = im.t, im.P
    half = m // 2
    if half <= DIRECT_SPLITS:
        a = np.arange(1, half + 1, dtype=np.int64)
        x = t[t[r, im.phi_arr(a)], im.phi_arr(m - a)]
        for aa in a[P[x]]:
            yield HeapMove(i, h, tk, (int(aa), m - int(aa)))
        return
    n0, p = im.period  # half > DIRECT_SPLITS > top: the quotient is final
    for a in range(1, min(half, n0 - 1) + 1):
        if P[t[t[r, im.phi_of(a)], im.phi_of(m - a)]]:
            yield HeapMove(i, h, tk, (a, m - a))
    # n0 <= a <= m − a: Φ(a) = Φ(n0 + j) for a = n0 + j (mod p), Φ(m − a) = Φ(n0 + (m − 2·n0 − j) mod p)
    for j in range(p):
        a = n0 + j
        if a > half:
            continue
        if P[t[t[r, im.phi[n0 + j]], im.phi[n0 + (m - 2 * n0 - j) % p]]]:
            count = (half - a) // p + 1
            yield HeapMove(i, h, tk, (a, m - a), stride=p if count > 1 else 0, count=count)
