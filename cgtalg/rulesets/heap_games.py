"""Heap games: rulesets whose positions are collections of heaps, and their Grundy sequences.

A *heap game* (Winning Ways ch. 4; Siegel, *Combinatorial Game Theory* ch. IV.2) is played
on a multiset of heaps; a move replaces one heap by zero or more smaller heaps. By the
Sprague-Grundy theorem a position is worth the XOR of the Grundy values ``G(n)`` of its
heaps, so everything reduces to the sequence ``G(0), G(1), ...``.

This module holds

- :class:`HeapRuleset`: the base class (ruleset protocol of :mod:`cgtalg.rulesets.protocol`:
  positions are sorted tuples of heap sizes, components are the single heaps), with
  :meth:`~HeapRuleset.grundy_sequence` (numba kernels, stored and resumable),
  :meth:`~HeapRuleset.periodicity`, :meth:`~HeapRuleset.outcome`,
  :meth:`~HeapRuleset.winning_moves` and :meth:`~HeapRuleset.heap` (the
  :class:`cgtalg.Game` form of a heap, for misère and form-level tools);
- :class:`GrundysGame` (split a heap into two unequal heaps; Grundy 1939);
- :func:`heap_ruleset`: a heap game from a Python function giving each heap's options;
- :func:`subtraction`: subtraction games ``S(s1, s2, ...)`` and their all-but variants
  (these are take-and-break codes, see :mod:`cgtalg.rulesets.octal`);
- :class:`GrundyEngine`: the driver of the numba kernels in
  :mod:`cgtalg.rulesets._grundy_kernels` (naive mex and the rare/common method).
"""

from __future__ import annotations

import functools
import re
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Sequence

import numpy as np

from cgtalg.core.game import Game, game, zero
from cgtalg.errors import ComputationLimitError, RulesetError
from cgtalg.rulesets import _grundy_kernels as K
from cgtalg.rulesets.protocol import ImpartialRuleset

__all__ = [
    "HeapRuleset",
    "HeapMove",
    "KernelRules",
    "GrundyEngine",
    "GrundysGame",
    "FunctionHeapRuleset",
    "heap_ruleset",
    "subtraction",
    "grundys_game",
    "parse_heap_ruleset",
    "as_heaps",
    "DEFAULT_MAX_BYTES",
]

#: ``method="auto"`` judges sparse space only from this many values on ...
AUTO_DECIDE_AT = 1 << 14
#: ... and falls back to the naive kernel when more than 1/AUTO_RARE_DIVISOR of heaps are rare
AUTO_RARE_DIVISOR = 5
#: values are written to a store in batches of at least this many (or every 10 s)
STORE_BATCH_VALUES = 1 << 20
#: witnesses remembered per rare value in the sparse kernel's proof scan
WITNESSES = 4
#: heaps up to this size are computed directly when a game has no certified period
DIRECT_LIMIT = 10**7
#: splits of heaps up to this size are enumerated pair by pair in winning_moves
ENUMERATE_LIMIT = 10**7
#: default memory budget (bytes) of a Grundy-sequence computation; past it the request is
#: refused up front with ComputationLimitError (pass ``max_bytes`` to raise it)
DEFAULT_MAX_BYTES = 4 * 2**30

_DTYPES = (np.uint8, np.uint16, np.uint32, np.uint64)


def _multisets_up_to(h: int, cap: int = 10**30) -> int:
    """``sum(p(k) for k <= h)`` (p the partition numbers), capped at ``cap``: the multisets of
    heaps a heap of ``h`` can become when heaps may split."""
    if h > 20_000:
        return cap
    p = [1] + [0] * h
    for part in range(1, h + 1):
        for k in range(part, h + 1):
            p[k] += p[k - part]
        if p[h] > cap:
            return cap
    return min(cap, sum(p))


def as_heaps(position: Any, name: str = "heap game") -> tuple[int, ...]:
    """Normalise a heap position: an int (one heap) or an iterable of non-negative ints.

    Returns the sorted tuple of the nonzero heap sizes (the canonical position).

    Raises
    ------
    RulesetError
        For a negative size, a non-integer, or something that is not a position.
    """
    if isinstance(position, (bool, np.bool_)):
        raise RulesetError(f"{name}: a position is a heap size or a collection of heap sizes, got {position!r}")
    if isinstance(position, (int, np.integer)):
        items: Iterable[Any] = (position,)
    elif isinstance(position, (str, bytes)):
        raise RulesetError(
            f"{name}: a position is a heap size or a collection of heap sizes, got the text {position!r} "
            "(use parse_position for text)"
        )
    else:
        try:
            items = list(position)
        except TypeError:
            raise RulesetError(
                f"{name}: a position is a heap size or a collection of heap sizes, got {position!r}"
            ) from None
    heaps = []
    for h in items:
        if isinstance(h, (bool, np.bool_)) or not isinstance(h, (int, np.integer)):
            raise RulesetError(f"{name}: heap sizes must be non-negative integers, got {h!r}")
        h = int(h)
        if h < 0:
            raise RulesetError(f"{name}: heap sizes must be non-negative integers, got {h}")
        if h:
            heaps.append(h)
    heaps.sort()
    return tuple(heaps)


def _check_count(n: Any, what: str = "n") -> int:
    if isinstance(n, float) and n.is_integer():
        n = int(n)
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)):
        raise RulesetError(f"{what} must be a non-negative integer, got {n!r}")
    n = int(n)
    if n < 0:
        raise RulesetError(f"{what} must be a non-negative integer, got {n}")
    return n


# -- numba rule description ------------------------------------------------------------


@dataclass(frozen=True)
class KernelRules:
    """A heap game's moves as arrays of removal counts for the numba kernels.

    ``t_all``: remove ``t`` when that is the whole heap; ``t_take``: remove ``t`` leaving one
    nonempty heap; ``t_split``/``t_split3``: remove ``t`` leaving two/three nonempty heaps
    (``t = 0``: split without removing). ``unequal``: two-heap splits must be unequal
    (Grundy's game). ``finite``: the lists do not depend on the heap size bound.
    """

    t_all: np.ndarray
    t_take: np.ndarray
    t_split: np.ndarray
    t_split3: np.ndarray
    unequal: bool = False
    finite: bool = True

    @property
    def sparse_ok(self) -> bool:
        """True when the rare/common method applies: finite rules, two-heap splits only."""
        return self.finite and len(self.t_split) > 0 and len(self.t_split3) == 0 and not self.unequal

    @property
    def split_parity(self) -> int | None:
        """The common parity of all split distances, or None when they differ."""
        ps = {int(t) & 1 for t in self.t_split}
        return ps.pop() if len(ps) == 1 else None


def _arr(ts: Iterable[int]) -> np.ndarray:
    return np.array(sorted(set(int(t) for t in ts)), dtype=np.int64)


# -- the engine ------------------------------------------------------------------------


def _wht(a: np.ndarray) -> np.ndarray:
    """Walsh-Hadamard transform: ``W[m] = sum_v a[v] * (-1)**popcount(v & m)``."""
    a = np.asarray(a, dtype=np.int64).copy()
    n = a.shape[0]
    h = 1
    while h < n:
        b = a.reshape(-1, 2, h)
        x = b[:, 0, :].copy()
        y = b[:, 1, :]
        b[:, 0, :] = x + y
        b[:, 1, :] = x - y
        a = b.reshape(-1)
        h *= 2
    return a


@dataclass
class SparseSplit:
    """A rare/common split of values: ``v`` is common for heap ``n`` iff
    ``popcount(v & mask) % 2 == cbit[n % 2]``; ``rare`` is the number of rare positions."""

    mask: int
    cbit0: int
    cbit1: int
    rare: int

    @property
    def uses_position_parity(self) -> bool:
        """True when the split depends on the parity of the heap size."""
        return self.cbit0 != self.cbit1

    def is_common(self, value: int, n: int) -> bool:
        """Is ``value`` common for heap ``n``?"""
        return (bin(value & self.mask).count("1") & 1) == (self.cbit0 if n % 2 == 0 else self.cbit1)

    def describe(self) -> str:
        """Readable description of the split."""
        if not self.uses_position_parity:
            return f"common values have odd popcount(v & {self.mask:#x})"
        return (f"common values of even heaps have popcount(v & {self.mask:#x}) % 2 == {self.cbit0}, "
                f"of odd heaps == {self.cbit1}")


class GrundyEngine:
    """Computes and holds the Grundy sequence ``G[0:n)`` of a heap ruleset.

    ``mode`` is ``"naive"`` (mex over every option), ``"sparse"`` (the rare/common method,
    Winning Ways ch. 4; Gangolli & Plambeck 1989; Flammenkamp), or ``"python"`` (heap games
    given by a Python function). ``method="auto"`` picks sparse when the rules allow it and
    falls back to naive when the game shows no sparse space (more than a fifth of the
    positions rare). Values are stored in the smallest unsigned dtype that holds them.
    """

    def __init__(self, ruleset: "HeapRuleset", method: str = "auto") -> None:
        if method not in ("auto", "naive", "sparse"):
            raise RulesetError(f"unknown method {method!r}: expected 'auto', 'naive' or 'sparse'")
        self.ruleset = ruleset
        self.method = method
        probe = ruleset._kernel_rules(64)
        if probe is None:
            if method == "sparse":
                raise RulesetError(f"{ruleset.name}: the sparse method needs a take-and-break code; "
                                   "this heap game is defined by a Python function (use method='auto')")
            self.mode = "python"
        elif method == "sparse":
            if not probe.sparse_ok:
                raise RulesetError(
                    f"{ruleset.name}: the sparse (rare/common) method needs a finite code with a digit "
                    "that splits a heap into two (bit 4) and no three-heap or unequal splits; use "
                    "method='naive' or 'auto'"
                )
            self.mode = "sparse"
        elif method == "naive":
            self.mode = "naive"
        else:
            self.mode = "sparse" if probe.sparse_ok else "naive"
        self.G = np.zeros(1024, dtype=np.uint8)
        self.n = 1
        self.vmax = 0
        self.marks = np.full(16, -1, dtype=np.int64)
        self.wit = np.zeros((16, WITNESSES), dtype=np.int64)
        self.wpos = np.zeros(16, dtype=np.int64)
        self.need = np.full(16, -1, dtype=np.int64)
        self.split: SparseSplit | None = None
        self.par: np.ndarray | None = None
        self.rare = np.zeros(0, dtype=np.int64)
        self.rare_val = np.zeros(0, dtype=np.int64)
        self.nrare = 0
        self.rare_limit = 0
        self.fallback_at: int | None = None
        self.rechoices = 0
        self._probe: tuple | None = None  # (values, mode, rare fraction, itemsize) for estimates

    # -- buffers -----------------------------------------------------------------------
    def memory_estimate(self, n: int) -> int:
        """Peak bytes held while computing ``G[0:n)`` from the current state.

        The sequence at the dtype the values so far need (1 byte per value for a fresh
        engine; values past 255 or 65535 promote it to 2 or 4 bytes), the old buffer alive
        while it is copied into a larger one, the kernels' scratch arrays (stamp and
        witness tables sized by the largest value) and, for the sparse kernel, the
        rare-position lists extrapolated from the fraction of rare heaps so far. To know the
        kernel and that fraction, the first :data:`AUTO_DECIDE_AT` values are computed first
        (a fraction of a second). Computing no new value costs nothing.
        """
        n = int(n)
        if n <= self.n:
            return 0
        mode, frac, item = self.mode, self.nrare / max(self.n, 1), self.G.itemsize
        probe = min(n, AUTO_DECIDE_AT)
        if self.n < probe and self.mode != "python":
            # learn the kernel, the rare fraction and the dtype on a scratch engine (cheap;
            # this engine, its progress reports and store writes are left alone)
            if self._probe is None or self._probe[0] < probe:
                tmp = GrundyEngine(self.ruleset, self.method)
                tmp.extend(probe, progress=False, _checked=True)
                self._probe = (probe, tmp.mode, tmp.nrare / max(tmp.n, 1), tmp.G.itemsize)
            _, mode, frac, item = self._probe
        item = max(item, self.G.itemsize)
        cap = self.G.shape[0]
        seq = max(n, cap) * item + (cap * item if n > cap else 0)
        scratch = (self.marks.nbytes + self.wit.nbytes + self.wpos.nbytes + self.need.nbytes
                   + (self.par.nbytes if self.par is not None else 0)
                   + self.rare.nbytes + self.rare_val.nbytes)
        rare = 0
        if mode == "sparse":
            # rare positions and their values, int64 each, lists kept up to twice full;
            # the fraction seen so far (at most 1/AUTO_RARE_DIVISOR with method="auto")
            rare = 32 * int(self.nrare + frac * (n - self.n) + 1024)
        return int(seq + scratch + rare)

    def check_budget(self, n: int, max_bytes: int | None = None) -> None:
        """Refuse, before any work, to compute ``G[0:n)`` when it needs more than ``max_bytes``
        (default :data:`DEFAULT_MAX_BYTES`).

        Raises
        ------
        ComputationLimitError
            Naming the estimate, the budget and how to raise it.
        """
        budget = DEFAULT_MAX_BYTES if max_bytes is None else int(max_bytes)
        need = self.memory_estimate(n)
        if need > budget:
            raise ComputationLimitError(
                f"{self.ruleset.name}: computing {n} Grundy values needs about {_fmt_bytes(need)} "
                f"({self.G.itemsize} byte(s) per value), over the memory budget of {_fmt_bytes(budget)}; "
                f"{self.n} values are computed; pass max_bytes={need} (or more) to allow it, or ask for fewer values"
            )

    def values(self, n: int | None = None) -> np.ndarray:
        """A read-only view of ``G[:n]`` (all computed values by default)."""
        n = self.n if n is None else min(n, self.n)
        view = self.G[:n]
        view.flags.writeable = False
        return view

    def _ensure_capacity(self, stop: int) -> None:
        if self.G.shape[0] >= stop:
            return
        cap = max(stop, self.G.shape[0] + self.G.shape[0] // 4)
        new = np.zeros(cap, dtype=self.G.dtype)
        new[: self.n] = self.G[: self.n]
        self.G = new

    def _promote(self) -> None:
        i = _DTYPES.index(self.G.dtype.type)
        if i + 1 >= len(_DTYPES):  # pragma: no cover - values beyond 2**64
            raise ComputationLimitError(f"{self.ruleset.name}: Grundy values beyond 2**64")
        self.G = self.G.astype(_DTYPES[i + 1])

    def _ensure_marks(self) -> None:
        need = 1 << (max(self.vmax, 1).bit_length() + 2)
        if self.marks.shape[0] < need:
            self.marks = np.full(need, -1, dtype=np.int64)
            self.wit = np.zeros((need, WITNESSES), dtype=np.int64)
            self.wpos = np.zeros(need, dtype=np.int64)
            self.need = np.full(need, -1, dtype=np.int64)
            self.par = None

    def load_prefix(self, values: np.ndarray) -> None:
        """Replace the computed prefix by ``values`` (e.g. read from a store)."""
        values = np.asarray(values)
        n = int(values.shape[0])
        if n == 0:
            return
        if int(values[0]) != 0:
            raise RulesetError(f"{self.ruleset.name}: a stored Grundy sequence must start with G(0) = 0")
        vmax = int(values.max())
        dt = next(d for d in _DTYPES if vmax <= np.iinfo(d).max)
        cap = max(n, self.G.shape[0])
        new = np.zeros(cap, dtype=np.promote_types(dt, self.G.dtype))
        new[:n] = values
        if self.n > n:
            new[n : self.n] = self.G[n : self.n]
        else:
            self.n = n
        self.G = new
        self.vmax = max(vmax, int(K.max_of(self.G, self.n)))
        self.split = None
        self.par = None

    def sparse_split(self) -> "SparseSplit | None":
        """The rare/common split for the values known so far, or ``None`` without sparse space.

        After :meth:`load_prefix` (values read from a store) no split is held until the next
        extension; this chooses one now, as the sparse kernel would, so that callers (plots,
        reports) can mark the rare values of a stored sequence.
        """
        if self.mode != "sparse":
            return None
        if self.split is None and self.n > 0:
            self._ensure_marks()
            self._choose(self.ruleset._kernel_rules(self.n))
        return self.split if self.mode == "sparse" else None

    # -- driving -----------------------------------------------------------------------
    def extend(
        self,
        stop: int,
        progress: bool | None | Callable[[int, int], Any] = None,
        on_chunk: Callable[[int, int], Any] | None = None,
        max_bytes: int | None = None,
        _checked: bool = False,
    ) -> None:
        """Compute ``G[n:stop)``.

        ``progress``: ``True`` shows a tqdm bar (values/s), ``None`` shows one on a terminal
        for long runs, ``False`` none, or a callable ``progress(done, total)`` called after
        each chunk. ``on_chunk(start, end)`` is called after each chunk (the store writer).
        ``max_bytes``: memory budget (default :data:`DEFAULT_MAX_BYTES`), checked up front
        with :meth:`check_budget`.
        """
        if stop <= self.n:
            return
        if not _checked:
            self.check_budget(stop, max_bytes)
        self._ensure_capacity(stop)
        total = stop - self.n
        first = self.n
        bar = None
        callback = progress if callable(progress) else None
        if not callable(progress):
            show = progress if progress is not None else (None if total >= 2_000_000 else False)
            if show is not False:
                from tqdm.auto import tqdm

                bar = tqdm(total=total, unit="values", unit_scale=True, disable=None if show is None else not show,
                           desc=f"G({self.ruleset.name})", leave=False, smoothing=0.1)
        chunk = 1 << 12
        try:
            while self.n < stop:
                target = min(stop, self.n + chunk)
                start = self.n
                t0 = time.perf_counter()
                self._run(target)
                dt = time.perf_counter() - t0
                if dt < 0.1 and chunk < (1 << 26):
                    chunk *= 2
                elif dt > 1.0 and chunk > 64:
                    chunk //= 2
                if bar is not None:
                    bar.update(self.n - start)
                if on_chunk is not None:
                    on_chunk(start, self.n)
                if callback is not None:
                    callback(self.n - first, total)
        finally:
            if bar is not None:
                bar.close()

    def _run(self, target: int) -> None:
        if self.mode == "python":
            self._run_python(target)
            return
        rules = self.ruleset._kernel_rules(target)
        while self.n < target:
            if self.mode == "sparse":
                self._run_sparse(rules, target)
            else:
                self._ensure_marks()
                n, status, vmax = K.naive_kernel(
                    self.G, self.n, target, rules.t_all, rules.t_take, rules.t_split,
                    rules.t_split3, rules.unequal, self.marks, self.vmax,
                )
                self.n, self.vmax = int(n), int(vmax)
                if status == K.OVERFLOW:
                    self._promote()

    def _run_sparse(self, rules: KernelRules, target: int) -> None:
        self._ensure_marks()
        if self.par is None or self.split is None:
            self._choose(rules)
            if self.mode != "sparse":
                return
        s = self.split
        n, status, nrare, vmax = K.sparse_kernel(
            self.G, self.n, target, rules.t_all, rules.t_take, rules.t_split, self.par,
            s.cbit0, s.cbit1, self.rare, self.rare_val, self.nrare, self.rare_limit, self.marks, self.vmax,
            self.wit, self.wpos, self.need,
        )
        self.n, self.nrare, self.vmax = int(n), int(nrare), int(vmax)
        if status == K.OVERFLOW:
            self._promote()
        elif status == K.GROW:
            self._ensure_marks()
            self._choose(rules)
        elif status == K.RARE_FULL:
            self._choose(rules)

    def _choose(self, rules: KernelRules) -> None:
        """Choose the rare/common split with the fewest rare positions (Walsh-Hadamard
        transform of the value counts by position parity) and rebuild the rare list."""
        self.rechoices += 1
        n = self.n
        bits = max(self.vmax, 1).bit_length()
        size = 1 << bits
        cnt = K.value_counts(self.G, n, size)
        W0, W1 = _wht(cnt[0]), _wht(cnt[1])
        N0, N1 = int(cnt[0].sum()), int(cnt[1].sum())
        big = np.int64(1) << 62
        cands: list[tuple[int, int, int, int]] = []  # (rare, pref, mask, variant)
        r0 = (N0 + W0 + N1 + W1) // 2
        r0[0] = big
        m0 = int(np.argmin(r0))
        cands.append((int(r0[m0]), 0, m0, 0))
        g = rules.split_parity
        if g is not None:
            if g == 0:
                r1 = (N0 + W0) // 2 + (N1 - W1) // 2
            else:
                r1 = (N0 - W0) // 2 + (N1 + W1) // 2
            r1[0] = big
            m1 = int(np.argmin(r1))
            cands.append((int(r1[m1]), 1, m1, 1))
        cur = self.split
        best = min(cands)
        if cur is not None:
            # keep the current split when it is as good (avoids useless rebuilds)
            cur_variant = 0 if not cur.uses_position_parity else 1
            cur_count = None
            if cur.mask < size:
                if cur_variant == 0:
                    cur_count = int(r0[cur.mask])
                elif g is not None:
                    cur_count = int(r1[cur.mask])
            if cur_count is not None and cur_count <= best[0]:
                best = (cur_count, 0, cur.mask, cur_variant)
        rare_count, _, mask, variant = best
        if variant == 0:
            cb0 = cb1 = 1
        else:
            cb0, cb1 = 1 ^ g, g
        self.split = SparseSplit(mask=mask, cbit0=cb0, cbit1=cb1, rare=rare_count)
        cap = self.marks.shape[0]
        self.par = (np.bitwise_count(np.arange(cap, dtype=np.uint64) & np.uint64(mask)) & 1).astype(np.int64)
        if self.method == "auto" and n >= AUTO_DECIDE_AT and rare_count * AUTO_RARE_DIVISOR > n:
            # no sparse space: the naive kernel is as fast and simpler (Flammenkamp; notes).
            # Games without sparse space keep a quarter to a third of their heaps rare
            # (0.137, 0.06, 0.007); games with it fall far below a fifth once past their
            # first few thousand values (0.6: 20% at n = 4179 but 5% at 30 000), so decide late.
            self.mode = "naive"
            self.fallback_at = n
            self.rare = np.zeros(0, dtype=np.int64)
            self.nrare = 0
            return
        limit = max(2 * rare_count, rare_count + 1024)
        rare = np.zeros(limit, dtype=np.int64)
        got = K.rebuild_rare(self.G, n, self.par, cb0, cb1, rare)
        assert got == rare_count, (got, rare_count)
        self.rare, self.nrare, self.rare_limit = rare, int(got), limit
        self.rare_val = np.zeros(limit, dtype=np.int64)
        self.rare_val[:got] = self.G[rare[:got]]

    def _run_python(self, target: int) -> None:
        rs = self.ruleset
        G = self.G
        for n in range(self.n, target):
            seen = set()
            for parts in rs.heap_options(n):
                x = 0
                for p in parts:
                    x ^= int(G[p])
                seen.add(x)
            v = 0
            while v in seen:
                v += 1
            while v > np.iinfo(self.G.dtype).max:
                self._promote()
                G = self.G
            G[n] = v
            self.n = n + 1
            if v > self.vmax:
                self.vmax = v


def _fmt_bytes(b: int) -> str:
    """``1.5 GiB``-style text of a byte count."""
    x = float(b)
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if x < 1024 or unit == "PiB":
            return f"{int(x)} bytes" if unit == "bytes" else f"{x:.1f} {unit}"
        x /= 1024
    return f"{b} bytes"  # pragma: no cover


class _StoreWriter:
    """Writes newly computed values to a store in batches (one transaction each)."""

    def __init__(self, store: Any, key: str, engine: GrundyEngine, start: int) -> None:
        self.store, self.key, self.engine = store, key, engine
        self.written = start
        self.last = time.monotonic()

    def __call__(self, start: int, end: int) -> None:
        if end - self.written >= STORE_BATCH_VALUES or time.monotonic() - self.last > 10.0:
            self.flush()

    def flush(self) -> None:
        end = self.engine.n
        if end > self.written:
            chunk = np.asarray(self.engine.G[self.written:end], dtype=np.int64)
            self.store.extend_sequence(self.key, self.written, chunk)
            self.written = end
        self.last = time.monotonic()


def _open_store(store: Any) -> Any:
    if isinstance(store, str):
        from cgtalg.store import open_store

        return open_store(store)
    return store


# -- moves -----------------------------------------------------------------------------


@dataclass(frozen=True)
class HeapMove:
    """A move in one heap of a multi-heap position, or an arithmetic family of such moves.

    ``heap_index`` is the index of the heap in the position as given; the heap of size
    ``heap`` is replaced by the heaps ``parts`` (``removed`` tokens are taken away). A family
    (``count > 1``) stands for the ``count`` splits ``(a + j*stride, b - j*stride)``,
    ``j = 0 .. count-1``, where ``(a, b) = parts``: all have the same value when the
    Grundy sequence is periodic with period ``stride`` (huge heaps).
    """

    heap_index: int
    heap: int
    removed: int
    parts: tuple[int, ...]
    stride: int = 0
    count: int = 1

    def members(self) -> Iterator[tuple[int, ...]]:
        """The resulting heaps of each move of the family."""
        if self.count == 1:
            yield self.parts
            return
        a, b = self.parts
        for j in range(self.count):
            yield (a + j * self.stride, b - j * self.stride)

    def result(self, heaps: Sequence[int], member: int = 0) -> tuple[int, ...]:
        """The whole position after the move (sorted nonzero heaps)."""
        parts = self.parts
        if member:
            a, b = self.parts
            parts = (a + member * self.stride, b - member * self.stride)
        rest = [h for i, h in enumerate(heaps) if i != self.heap_index]
        return as_heaps(rest + list(parts))

    def describe_parts(self) -> str:
        """Text of the heaps left in place of the heap moved in."""
        if not self.parts:
            return "nothing"
        return " + ".join(str(p) for p in self.parts)

    def __str__(self) -> str:
        head = f"heap #{self.heap_index} ({self.heap}): take {self.removed}, leaving {self.describe_parts()}"
        if self.count > 1:
            a, b = self.parts
            last = (a + (self.count - 1) * self.stride, b - (self.count - 1) * self.stride)
            head += (f"; also every {self.stride}th such split up to {last[0]} + {last[1]} "
                     f"({self.count} moves)")
        return head

    def to_json(self) -> dict:
        """JSON-ready dict."""
        d = {"heap_index": self.heap_index, "heap": self.heap, "removed": self.removed,
             "parts": list(self.parts)}
        if self.count > 1:
            d.update(stride=self.stride, count=self.count)
        return d


# -- the base class --------------------------------------------------------------------


class HeapRuleset(ImpartialRuleset):
    """Base class of heap games (ruleset protocol, :mod:`cgtalg.rulesets.protocol`).

    Positions are sorted tuples of nonzero heap sizes (``parse_position("5 9")`` or
    ``as_heaps([9, 5, 0]) == (5, 9)``); an int means a single heap. The components of a
    position are its single heaps, so the generic solver adds their Grundy values.

    Subclasses define :meth:`heap_options` (and :meth:`_kernel_rules` to use the numba
    kernels) and set ``name``.
    """

    name: str = "heap game"

    def __init__(self) -> None:
        self._engines: dict[str, GrundyEngine] = {}
        self._heap_forms: list[Game] = []
        self._period = None  # cached certified PeriodicityResult
        self._period_searched = 0  # a search over this many values certified no period

    def position_count(self, position: Any, misere: bool = False) -> int:
        """An upper bound on the positions the generic solver holds for ``position`` (it
        refuses past its ``max_positions`` before walking). Normal play walks single heaps
        and their option tuples: about ``(H + 1)^2 / 2`` for a largest heap ``H`` (``H + 1``
        for games that never split a heap). Misère play walks sums of heaps: the product over
        the heaps of the multisets a heap of ``h`` can become (``h + 1`` without splits, else
        the partitions of every ``k <= h``). Capped at ``10**30``.
        """
        heaps = as_heaps(position, self.name)
        if not heaps:
            return 1
        splits = getattr(self, "max_heaps", 2) > 1
        cap = 10**30
        if not misere:
            h = max(heaps)
            return min(cap, (h + 1) * (h + 2) // 2 if splits else h + 1)
        total = 1
        for h in heaps:
            total *= _multisets_up_to(h) if splits else h + 1
            if total > cap:
                return cap
        return total

    # -- to be defined by subclasses -----------------------------------------------------
    def heap_options(self, n: int) -> Iterator[tuple[int, ...]]:
        """The options of a single heap of size ``n``: tuples of the (nonzero) heaps left."""
        raise NotImplementedError

    def _kernel_rules(self, n_max: int) -> KernelRules | None:
        """The rules as removal-count arrays valid for heaps below ``n_max`` (None: Python only)."""
        return None

    def certificate(self) -> tuple[str, int, int, int] | None:
        """How a period can be certified: ``(theorem, mode, h, k)`` or None (detection only)."""
        return None

    @property
    def sequence_key(self) -> str:
        """The store key of the Grundy sequence (``"grundy:" + name``)."""
        return f"grundy:{self.name}"

    # -- ruleset protocol ------------------------------------------------------------------
    def moves(self, position: Any) -> Iterator[tuple[int, ...]]:
        """The positions reachable in one move (sorted tuples of heaps).

        Raises
        ------
        ComputationLimitError
            For a heap beyond :data:`ENUMERATE_LIMIT` (its moves are too many to list one by
            one; :meth:`outcome` and :meth:`winning_moves` answer such heaps from the period).
        """
        heaps = as_heaps(position, self.name)
        if heaps and heaps[-1] > ENUMERATE_LIMIT:
            raise ComputationLimitError(
                f"{self.name}: the moves of a heap of {heaps[-1]} tokens are not listed one by one (limit "
                f"{ENUMERATE_LIMIT}); use outcome() or winning_moves(), which answer heaps of any size "
                "from a certified period")
        seen = set()
        for i, h in enumerate(heaps):
            if i and heaps[i - 1] == h:
                continue
            rest = heaps[:i] + heaps[i + 1 :]
            for parts in self.heap_options(h):
                q = tuple(sorted(rest + tuple(parts)))
                if q not in seen:
                    seen.add(q)
                    yield q

    def components(self, position: Any) -> list[tuple[int, ...]]:
        """The single heaps of the position (the disjunctive sum it is)."""
        return [(h,) for h in as_heaps(position, self.name)]

    def format_position(self, position: Any) -> str:
        """``"5+9+12"`` (``"0"`` for the empty position)."""
        heaps = as_heaps(position, self.name)
        return "+".join(str(h) for h in heaps) if heaps else "0"

    def parse_position(self, text: str) -> tuple[int, ...]:
        """Read ``"5 9 12"``, ``"5,9,12"``, ``"5+9+12"`` or ``"(5, 9, 12)"``.

        Raises
        ------
        RulesetError
            If the text holds anything but non-negative integers.
        """
        if not isinstance(text, str):
            raise RulesetError(f"{self.name}: parse_position needs text, got {text!r}")
        body = text.strip().strip("()[]")
        items = [s for s in re.split(r"[\s,+]+", body) if s]
        heaps = []
        for s in items:
            if not s.isdigit():
                raise RulesetError(f"{self.name}: bad heap size {s!r} in position {text!r}: "
                                   "expected non-negative integers such as '5 9 12'")
            heaps.append(int(s))
        return as_heaps(heaps, self.name)

    # -- forms -----------------------------------------------------------------------------
    def heap(self, n: int) -> Game:
        """The :class:`cgtalg.Game` form of a single heap of size ``n`` (memoised).

        Its options are the sums of the forms of the heaps each move leaves, so every
        form-level tool (misère canonical forms, equivalence proofs) applies to heaps.

        Examples
        --------
        >>> import cgtalg as cg
        >>> from cgtalg.rulesets.octal import TakeAndBreak
        >>> cg.grundy(TakeAndBreak("0.77").heap(4))
        1
        """
        n = _check_count(n, "heap size")
        if n > ENUMERATE_LIMIT:
            raise ComputationLimitError(
                f"{self.name}: the Game form of a heap of {n} tokens would hold the forms of every smaller "
                f"heap; heaps beyond {ENUMERATE_LIMIT} are refused (grundy_value() and outcome() answer "
                "normal play for heaps of any size)")
        forms = self._heap_forms
        while len(forms) <= n:
            m = len(forms)
            opts = []
            for parts in self.heap_options(m):
                g = zero
                for p in parts:
                    g = g + forms[p]
                opts.append(g)
            forms.append(game(opts))
        return forms[n]

    def misere_canonical_heap(self, n: int) -> Game:
        """The misère canonical form of a heap of ``n`` tokens, built from canonical sums
        (:func:`cgtalg.rulesets.heap_genus.misere_canonical_heap`)."""
        from cgtalg.rulesets.heap_genus import misere_canonical_heap

        return misere_canonical_heap(self, n)

    def genus(self, heaps: Any, convention: str = "classical", store: Any = None) -> Any:
        """The genus ``g^{γ0γ1…}`` of a position (Winning Ways ch. 13;
        :func:`cgtalg.rulesets.heap_genus.heap_genus`).

        >>> from cgtalg.rulesets.octal import TakeAndBreak
        >>> str(TakeAndBreak("0.123").genus(8))
        '2^1420'
        """
        from cgtalg.rulesets.heap_genus import heap_genus

        return heap_genus(self, heaps, convention, store)

    def genus_sequence(self, n: int, convention: str = "classical", store: Any = None,
                       progress: bool | None = None) -> list:
        """Genera of single heaps ``0..n`` (:func:`cgtalg.rulesets.heap_genus.genus_sequence`)."""
        from cgtalg.rulesets.heap_genus import genus_sequence

        return genus_sequence(self, n, convention, store, progress)

    def game_of(self, position: Any) -> Game:
        """The form of a position: the sum of its heaps' forms."""
        g = zero
        for h in as_heaps(position, self.name):
            g = g + self.heap(h)
        return g

    # -- Grundy sequences ----------------------------------------------------------------
    def engine(self, method: str = "auto") -> GrundyEngine:
        """The (cached) :class:`GrundyEngine` computing this game's sequence with ``method``."""
        eng = self._engines.get(method)
        if eng is None:
            eng = GrundyEngine(self, method)
            self._engines[method] = eng
        return eng

    def grundy_sequence(
        self,
        n: int,
        method: str = "auto",
        store: Any = None,
        progress: bool | None | Callable[[int, int], Any] = None,
        max_bytes: int | None = None,
    ) -> np.ndarray:
        """The Grundy values ``G(0), ..., G(n-1)`` of single heaps.

        Parameters
        ----------
        n : int
            How many values (floats such as ``1e6`` with integer value are accepted).
        method : {"auto", "naive", "sparse"}
            ``"naive"``: mex over every option (O(n^2) with splits). ``"sparse"``: the
            rare/common method (Winning Ways ch. 4 "Sparse space spells speed"; Gangolli &
            Plambeck 1989), which proves every value; only for finite codes with two-heap
            splits. ``"auto"``: sparse when possible, falling back to naive when the game
            has no sparse space.
        store : Store or str, optional
            A :mod:`cgtalg.store` store (or URL): the stored prefix is used and extended,
            new values are written in batches as they are computed, so an interrupted run
            resumes where it stopped.
        progress : bool, None or callable
            tqdm bar (values/s) for long runs; a callable ``progress(done, total)`` is called
            after each chunk instead.
        max_bytes : int, optional
            Memory budget (default :data:`DEFAULT_MAX_BYTES`, 4 GiB); see
            :meth:`grundy_memory_estimate`.

        Returns
        -------
        numpy.ndarray
            A read-only array of the smallest unsigned dtype holding the values.

        Raises
        ------
        RulesetError
            For a bad ``n`` or ``method``.
        ComputationLimitError
            When the computation would need more than ``max_bytes`` (refused before any work).

        Examples
        --------
        >>> from cgtalg.rulesets.octal import TakeAndBreak
        >>> TakeAndBreak("0.77").grundy_sequence(13).tolist()
        [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4]
        """
        n = _check_count(n)
        eng = self.engine(method)
        if max_bytes is not None:
            max_bytes = _check_count(max_bytes, "max_bytes")
        eng.check_budget(n, max_bytes)
        if store is None:
            eng.extend(n, progress, max_bytes=max_bytes)
            return eng.values(n)
        store = _open_store(store)
        key = self.sequence_key
        stored_len = int(store.sequence_length(key))
        if stored_len > eng.n and eng.n < n:
            # the engine always holds what is returned (periodicity reads its buffer)
            eng.load_prefix(store.sequence(key, 0, min(stored_len, n)))
        writer = _StoreWriter(store, key, eng, start=min(stored_len, eng.n))
        try:
            eng.extend(n, progress, on_chunk=writer, max_bytes=max_bytes)
        finally:
            writer.flush()
        return eng.values(n)

    def grundy_memory_estimate(self, n: int, method: str = "auto") -> int:
        """Bytes that computing the first ``n`` Grundy values will hold at its peak (0 when
        they are computed already); :meth:`grundy_sequence` refuses past its ``max_bytes``.

        About one byte per value while the values stay below 256 (two below 65536, four
        beyond), doubled while the buffer is copied into a larger one, plus the kernels'
        scratch arrays (see :meth:`GrundyEngine.memory_estimate`).

        Examples
        --------
        >>> from cgtalg.rulesets.octal import TakeAndBreak
        >>> TakeAndBreak("0.77").grundy_memory_estimate(10**10) > 10**10
        True
        """
        n = _check_count(n)
        return self.engine(method).memory_estimate(n)

    def grundy_value(self, n: int, limit: int = DIRECT_LIMIT) -> int:
        """``G(n)`` for a single heap of any size ``n`` (a Python int: ``10**100`` is fine).

        Computed values are read directly; beyond them, a certified period answers exactly
        (``n`` is reduced into the period with Python ints, Guy-Smith periodicity theorem);
        without one, heaps below ``limit`` are computed directly.

        Parameters
        ----------
        n : int
            The heap size.
        limit : int
            Heaps at or beyond this size are only answered from a certified period (the
            search for one computes at most ``min(limit, default)`` values, see
            :func:`~cgtalg.rulesets.octal_periodicity.periodicity`).

        Raises
        ------
        ComputationLimitError
            If ``n >= limit`` and no certified period is known; the message names the range
            computed and how to extend it.

        Examples
        --------
        >>> from cgtalg.rulesets.octal import TakeAndBreak
        >>> TakeAndBreak("0.77").grundy_value(10**100)  # (10**100 - 71) % 12 = 5: G(76)
        1
        """
        n = _check_count(n, "heap size")
        limit = _check_count(limit, "limit")
        eng = self.engine()
        if n < eng.n:
            return int(eng.G[n])
        if self._period is not None:
            return self._period.value_at(n, eng.G)
        if self.certificate() is not None and (n >= limit or n >= (1 << 12)):
            # look for a period on the values direct computation would need anyway
            top = limit if n >= limit else min(limit, max(n + 1, 1 << 16))
            per = self._certified_period(top)
            if per is not None:
                return per.value_at(n, eng.G)
        if n < limit:
            eng.extend(n + 1)
            return int(eng.G[n])
        raise self._beyond_error(n, limit)

    def _beyond_error(self, n: int, limit: int) -> ComputationLimitError:
        """The error for a heap no certified period and no direct computation can answer."""
        eng = self.engine()
        head = (f"{self.name}: heap {n} is beyond the direct limit of {limit} values and no certified "
                f"period is known; G is computed for heaps 0..{eng.n - 1}")
        if self.certificate() is None:
            return ComputationLimitError(
                head + " and no periodicity theorem applies to this game (periods are only detected), "
                "so only heaps below the limit are answered" + self._direct_hint(n))
        searched = (f", and the periodicity search over {self._period_searched} values certified none"
                    if self._period_searched else "")
        return ComputationLimitError(
            head + searched + ": certify a period on more values with periodicity(max_values=...)"
            + self._direct_hint(n))

    def _direct_hint(self, n: int) -> str:
        """``, or pass limit=...`` when computing ``G(n)`` directly fits the memory budget."""
        need = self.engine().memory_estimate(n + 1) if n < 2**62 else None
        if need is not None and need <= DEFAULT_MAX_BYTES:
            return f", or pass limit={n + 1} (or more) to compute G({n}) directly"
        what = f"about {_fmt_bytes(need)}" if need is not None else "more memory than any machine has"
        return (f" (computing G({n}) directly would need {what}, over the memory budget of "
                f"{_fmt_bytes(DEFAULT_MAX_BYTES)})")

    def _certified_period(self, limit: int | None = None):
        """The certified period, searched for on at most ``min(default, limit)`` values when not
        known yet (a search that found none is not repeated on fewer values)."""
        if self._period is None and self.certificate() is not None:
            from cgtalg.rulesets.octal_periodicity import _default_max

            top = _default_max(self) if limit is None else min(_default_max(self), limit)
            if top > self._period_searched and top >= 2:
                res = self.periodicity(max_values=top)
                if not res.certified:
                    self._period_searched = max(self._period_searched, top)
        return self._period

    # -- periodicity ---------------------------------------------------------------------
    def periodicity(self, max_values: int | None = None, store: Any = None,
                    progress: bool | None = None, start: int = 1024, max_bytes: int | None = None):
        """Find, and certify when a theorem applies, the period of the Grundy sequence.

        See :func:`cgtalg.rulesets.octal_periodicity.periodicity` (the Guy-Smith periodicity
        theorem; Winning Ways ch. 4). A certified result is kept: heaps of any size are then
        answered from it (:meth:`grundy_value`, :meth:`outcome`, :meth:`winning_moves`).
        """
        from cgtalg.rulesets.octal_periodicity import periodicity

        res = periodicity(self, max_values=max_values, store=store, progress=progress, start=start,
                          max_bytes=max_bytes)
        if res.certified:
            self._period = res
        else:
            self._period_searched = max(self._period_searched, res.values_checked)
        return res

    # -- multi-heap play (normal play) ---------------------------------------------------
    def nim_value(self, heaps: Any) -> int:
        """The Grundy value of a position: the XOR of its heaps' values (Sprague-Grundy)."""
        x = 0
        for h in as_heaps(heaps, self.name):
            x ^= self.grundy_value(h)
        return x

    def outcome(self, heaps: Any, misere: bool = False, store: Any = None,
                max_states: int | None = None, max_seconds: float | None = None,
                progress: bool | None = None) -> str:
        """Outcome of a multi-heap position: ``'P'`` (previous player wins) or ``'N'``.

        Normal play: ``'P'`` iff the nim-sum is 0; heaps far beyond the computed values are
        answered from a certified period. ``misere=True``: from a known misère quotient of the
        game when one covers the heaps (:meth:`misere_quotient`, computed in this process or
        stored in ``store``; :mod:`cgtalg.misere.quotient_play`), any heap size once it is
        final; else a memoised search over multisets of
        the heaps' misère classes (:mod:`cgtalg.rulesets.misere_play`), bounded by
        ``max_states``/``max_seconds`` (:class:`ComputationLimitError` past them), with a
        progress bar, and the answer stored in ``store`` when one is given.

        Examples
        --------
        >>> from cgtalg.rulesets.octal import TakeAndBreak
        >>> TakeAndBreak("0.77").outcome([5, 9, 10**12])
        'N'
        >>> TakeAndBreak("0.123").outcome([9, 8, 5, 3], misere=True)   # seed 000, Example 1
        'N'
        """
        if misere:
            from cgtalg.misere.quotient_play import quotient_outcome
            from cgtalg.rulesets.misere_play import misere_outcome

            hs = self._heap_list(heaps)
            known = quotient_outcome(self, hs, store)   # a known misère quotient covering hs
            if known is not None:
                return known
            return misere_outcome(self, hs, store, max_states, max_seconds, progress)
        return "P" if self.nim_value(heaps) == 0 else "N"

    def misere_quotient(self, max_heap: int | None = None, **kwargs: Any) -> Any:
        """The misère quotient of this game (heaps ``<= max_heap``, or the final one certified
        by the periodicity theorem): :func:`cgtalg.misere.quotient.misere_quotient`, which takes
        the same keyword arguments (budgets, ``store``, ``partial``, ``progress``...). Once a
        quotient is known, :meth:`outcome` and :meth:`winning_moves` with ``misere=True``
        answer from it for the heaps it covers.

        >>> from cgtalg.rulesets.octal import TakeAndBreak
        >>> q = TakeAndBreak("0.123").misere_quotient()
        >>> q.order, q.period, q.presentation().words[q.phi_of(10**9)]
        (20, (5, 5), 'a')
        """
        from cgtalg.misere.quotient import misere_quotient

        return misere_quotient(self, max_heap, **kwargs)

    def misere_grundy_value(self, heaps: Any, store: Any = None, max_states: int | None = None,
                            max_seconds: float | None = None, progress: bool | None = None) -> int:
        """The misère Grundy value of a position (``0`` exactly at misère P-positions; ``1``
        for the empty position), by the search of :mod:`cgtalg.rulesets.misere_play`.

        >>> from cgtalg.rulesets.octal import TakeAndBreak
        >>> [TakeAndBreak("0.77").misere_grundy_value([n]) for n in range(8)]
        [1, 0, 2, 3, 0, 1, 3, 2]
        """
        from cgtalg.rulesets.misere_play import misere_grundy_value

        return misere_grundy_value(self, self._heap_list(heaps), store, max_states, max_seconds,
                                   progress)

    def _heap_list(self, heaps: Any) -> list[int]:
        if isinstance(heaps, (int, np.integer)):
            heaps = [heaps]
        hs = as_heaps(heaps, self.name)
        return [int(h) for h in hs]

    def winning_moves(self, heaps: Any, misere: bool = False, store: Any = None,
                      max_states: int | None = None, max_seconds: float | None = None,
                      progress: bool | None = None) -> list[HeapMove]:
        """All winning moves: the moves to P-positions (nim-sum 0 in normal play; misère
        P-positions with ``misere=True``, from a known misère quotient or by the search of
        :meth:`outcome`).

        ``heaps`` is a list of heap sizes (any order, zeros allowed); each :class:`HeapMove`
        names the heap by its index in that list (the first of equal heaps only). For huge
        heaps with a certified period, splits come as arithmetic families (``count > 1``).

        Raises
        ------
        ComputationLimitError
            For heaps out of reach (no certified period and beyond the direct limit).
        """
        if isinstance(heaps, (int, np.integer)):
            heaps = [heaps]
        as_heaps(heaps, self.name)  # validation
        heaps = [int(h) for h in heaps]
        if misere:
            from cgtalg.misere.quotient_play import quotient_winning_moves
            from cgtalg.rulesets.misere_play import misere_winning_moves

            known = quotient_winning_moves(self, heaps, store, move=HeapMove)  # a known quotient covering heaps
            if known is not None:
                return known
            return misere_winning_moves(self, heaps, store, max_states, max_seconds, progress)
        vals = [self.grundy_value(h) if h else 0 for h in heaps]
        total = 0
        for v in vals:
            total ^= v
        moves: list[HeapMove] = []
        if total == 0:
            return moves
        seen_sizes = set()
        for i, h in enumerate(heaps):
            if h == 0 or h in seen_sizes:
                continue
            seen_sizes.add(h)
            target = total ^ vals[i]
            moves.extend(self._heap_moves_to(i, h, target))
        return moves

    def _heap_moves_to(self, index: int, n: int, target: int) -> Iterator[HeapMove]:
        """Moves in heap ``n`` to positions of value ``target`` (generic: enumerate)."""
        if n > ENUMERATE_LIMIT:
            raise ComputationLimitError(
                f"{self.name}: the moves of heap {n} are not enumerated beyond {ENUMERATE_LIMIT}"
            )
        for parts in self.heap_options(n):
            x = 0
            for p in parts:
                x ^= self.grundy_value(p)
            if x == target:
                yield HeapMove(index, n, n - sum(parts), tuple(parts))


# -- concrete heap games -----------------------------------------------------------------


class GrundysGame(HeapRuleset):
    """Grundy's game: split a heap into two nonempty heaps of different sizes (Grundy 1939;
    Winning Ways ch. 4). Conjectured but not known to be periodic: never certified."""

    name = "grundy"

    def heap_options(self, n: int) -> Iterator[tuple[int, ...]]:
        for a in range(1, (n - 1) // 2 + 1):
            yield (a, n - a)

    def _kernel_rules(self, n_max: int) -> KernelRules:
        e = np.zeros(0, dtype=np.int64)
        return KernelRules(e, e, np.array([0], dtype=np.int64), e, unequal=True)


def grundys_game() -> GrundysGame:
    """Grundy's game (see :class:`GrundysGame`)."""
    return GrundysGame()


class FunctionHeapRuleset(HeapRuleset):
    """A heap game given by a Python function ``options(n) -> iterable of tuples of heaps``.

    Every heap left by a move from ``n`` must be smaller than ``n`` (so play ends); its
    Grundy sequence is computed in Python (no certificate: periods are only detected).
    """

    def __init__(self, name: str, options: Callable[[int], Iterable[Iterable[int]]]) -> None:
        super().__init__()
        if not isinstance(name, str) or not name:
            raise RulesetError(f"a ruleset name must be a non-empty str, got {name!r}")
        if not callable(options):
            raise RulesetError(f"heap ruleset {name!r}: options must be callable, got {options!r}")
        self.name = name
        self._options = options

    def heap_options(self, n: int) -> Iterator[tuple[int, ...]]:
        got = self._options(n)
        try:
            items = iter(got)
        except TypeError:
            raise RulesetError(f"heap ruleset {self.name!r}: options({n}) returned {got!r}, "
                               "not an iterable of tuples of heap sizes") from None
        for parts in items:
            if isinstance(parts, (int, np.integer)):
                parts = (parts,)
            heaps = as_heaps(parts, self.name)
            for p in heaps:
                if p >= n:
                    raise RulesetError(
                        f"heap ruleset {self.name!r}: a move from heap {n} leaves a heap of size {p}; "
                        "every heap left must be smaller than the heap moved in (else play may not end)"
                    )
            yield heaps


def heap_ruleset(name: str, options: Callable[[int], Iterable[Iterable[int]]]) -> FunctionHeapRuleset:
    """A heap game from a function giving the options of a single heap.

    Parameters
    ----------
    name : str
        The game's name (store key).
    options : callable(n) -> iterable of tuples of heap sizes
        The heaps left by each move from a heap of ``n`` (an int means one heap; zeros are
        dropped). Every heap left must be smaller than ``n``.

    Examples
    --------
    >>> halve = heap_ruleset("halving", lambda n: [(n // 2,)] if n > 1 else [])
    >>> halve.grundy_sequence(6).tolist()
    [0, 0, 1, 1, 0, 0]
    """
    return FunctionHeapRuleset(name, options)


def subtraction(S: Iterable[int], all_but: bool = False):
    """The subtraction game ``S(s1, s2, ...)``: take ``s`` tokens from a heap for some ``s`` in S
    (``all_but=True``: for any ``s`` not in S). A take-and-break code with digits 3
    (see :class:`cgtalg.rulesets.octal.SubtractionGame`).

    Examples
    --------
    >>> subtraction([1, 3, 4]).grundy_sequence(8).tolist()
    [0, 1, 0, 1, 2, 3, 2, 0]
    """
    from cgtalg.rulesets.octal import SubtractionGame

    return SubtractionGame(S, all_but=all_but)


_SUB_RE = re.compile(r"^(?:s|sub|subtraction)\s*\((.*)\)$", re.I)
_ALLBUT_RE = re.compile(r"^(?:allbut|all-but|all_but|subtraction-all-but)\s*\((.*)\)$", re.I)


#: names researchers use for heap games (Winning Ways ch. 4): name -> octal code
NAMED_HEAP_GAMES: dict[str, str] = {
    "kayles": "0.77",
    "dawson": "0.07",  # Dawson's Kayles
    "dawsons-kayles": "0.07",
    "dawsons-chess": "0.137",
    "officers": "0.6",
}

#: the spec forms every command accepts, for error messages
HEAP_SPEC_FORMS = (
    "an octal or hexadecimal code (0.77, 4.07, 0x0.B, 0.[3]), S(1,3,4) / subtraction:1,3,4, "
    "allbut(1,2) / allbut:1,2, or a name: kayles, dawson, officers, grundy"
)


def parse_heap_ruleset(text: str) -> HeapRuleset:
    """A heap game from its spec, the one syntax every command uses: an octal or hexadecimal
    code (``0.77``, ``0x0.B``, ``0.[3]``), ``S(1,3,4)`` / ``subtraction(1,3,4)`` /
    ``subtraction:1,3,4``, ``allbut(1,2)`` / ``allbut:1,2``, or a name (case-insensitive):
    ``kayles`` (0.77), ``dawson`` (Dawson's Kayles, 0.07), ``dawsons-chess`` (0.137),
    ``officers`` (0.6), ``grundy`` (Grundy's game). Same as
    :func:`cgtalg.rulesets.registry.get_ruleset`, restricted to heap games.

    Examples
    --------
    >>> [parse_heap_ruleset(t).name for t in ("Kayles", "S(1,3,4)", "subtraction:1,3,4", "0.77")]
    ['0.77', 'subtraction(1,3,4)', 'subtraction(1,3,4)', '0.77']

    Raises
    ------
    OctalCodeError
        For a malformed code.
    RulesetError
        For a malformed subtraction set, or a ruleset that is not a heap game.
    """
    from cgtalg.rulesets.registry import get_ruleset

    if not isinstance(text, str):
        raise RulesetError(f"a heap game spec must be a str, got {type(text).__name__}")
    ruleset = get_ruleset(text)
    if not isinstance(ruleset, HeapRuleset):
        raise RulesetError(f"{text!r} is not a heap game; heap games are {HEAP_SPEC_FORMS}")
    return ruleset


def _spec_resolver(text: str) -> HeapRuleset | None:
    """``S(1,3,4)``, ``subtraction(1,3,4)``, ``allbut(1,2)`` (the function-call forms)."""
    s = text.strip()
    for rx, allbut in ((_SUB_RE, False), (_ALLBUT_RE, True)):
        m = rx.match(s)
        if m:
            items = [x for x in re.split(r"[\s,]+", m.group(1).strip()) if x]
            if not items or not all(x.isascii() and x.isdigit() for x in items):
                raise RulesetError(f"bad subtraction set in {text!r}: expected positive integers such as S(1,3,4)")
            return subtraction([int(x) for x in items], all_but=allbut)
    return None


def _register() -> None:
    from cgtalg.rulesets.registry import register_family, register_resolver, register_ruleset

    register_ruleset("grundy", GrundysGame, "Grundy's game: split a heap into two unequal heaps")

    def _sub(arg: str, all_but: bool = False) -> HeapRuleset:
        items = [x for x in re.split(r"[\s,]+", arg.strip()) if x]
        if not items or not all(x.isdigit() for x in items):
            raise RulesetError(f"bad subtraction set {arg!r}: expected positive integers such as 1,3,4")
        return subtraction([int(x) for x in items], all_but=all_but)

    register_family("subtraction", _sub, "subtraction:S  subtraction game, S like 1,3,4")
    register_family("allbut", lambda a: _sub(a, True), "allbut:S  all-but subtraction game, S like 1,2")
    register_resolver(_spec_resolver, "S(1,3,4)  subtraction game; allbut(1,2) all-but subtraction game")
    from cgtalg.rulesets.octal import TakeAndBreak

    for name, code in NAMED_HEAP_GAMES.items():
        register_ruleset(name, functools.partial(TakeAndBreak, code), f"the octal game {code}")


_register()
