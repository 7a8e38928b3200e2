"""The Grundy engine: computes, holds, stores and resumes the Grundy sequence of a heap game.

:class:`GrundyEngine` drives the numba kernels of :mod:`cgtalg.rulesets.heaps.grundy_kernels`
(naive mex and the rare/common method of Winning Ways ch. 4; Gangolli & Plambeck 1989) or,
for heap games given by a Python function, a Python mex. Small work (:func:`kernel_work` at
most :data:`cgtalg.rulesets.heaps.lazy_jit.PYTHON_WORK` steps) runs the kernels' own Python code
while numba is not loaded: the same values without paying for numba. With
``backend="python"`` (:mod:`cgtalg.rulesets.heaps.small_grundy`) the engine keeps its values in
a Python list and runs the naive kernel's own Python code on lists, importing neither numpy
nor numba: what light commands use for small heaps. The functions
:func:`grundy_engine`, :func:`grundy_sequence` and :func:`grundy_memory_estimate` take the
ruleset (any object with ``name``, ``heap_options`` and ``kernel_rules``, such as a
:class:`~cgtalg.rulesets.heaps.base.HeapRuleset`); a store is passed in as an object
(duck-typed: ``sequence_length``, ``sequence``, ``extend_sequence``), never opened here.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass, fields
from typing import Any, Callable, Iterable

from cgtalg.core.lazynp import np

from cgtalg.budget import Deadline
from cgtalg.errors import ComputationLimitError, RulesetError
from cgtalg.normal.grundy import mex
from cgtalg.rulesets.heaps import grundy_kernels as K
from cgtalg.rulesets.heaps.position import check_count
from cgtalg.rulesets.heaps.lazy_jit import python_kernels
from cgtalg.rulesets.heaps.sparse_split import SparseSplit, rare_counts, split_counts, walsh_hadamard
from cgtalg.rulesets.protocol import check_memory, check_store, short_count, short_repr

__all__ = [
    "KernelRules", "SparseSplit", "GrundyEngine", "StoreWriter", "grundy_engine", "install_grundy_engine", "grundy_sequence",
    "grundy_memory_estimate", "trusted_values", "kernel_array", "kernel_work", "walsh_hadamard", "rare_counts", "format_bytes",
    "DEFAULT_MAX_BYTES", "CHUNK_SECONDS", "AUTO_DECIDE_AT", "AUTO_RARE_DIVISOR", "STORE_BATCH_VALUES", "WITNESSES",
    "BACKENDS",
]

#: where an engine keeps its values and runs its kernels: numpy arrays and the numba kernels
#: (their Python code for small work), or Python lists and the kernels' Python code
BACKENDS = ("numba", "python")

#: ``method="auto"`` judges sparse space only from this many values on ...
AUTO_DECIDE_AT = 1 << 14
#: ... and falls back to the naive kernel when more than 1/AUTO_RARE_DIVISOR of heaps are rare
AUTO_RARE_DIVISOR = 5
#: values are written to a store in batches of at least this many (or every 10 s)
STORE_BATCH_VALUES = 1 << 20
#: target seconds of one kernel call in :meth:`GrundyEngine.extend` (the deadline, the memory
#: ceiling and Ctrl-C are answered between calls)
CHUNK_SECONDS = 0.25
#: witnesses remembered per rare value in the sparse kernel's proof scan
WITNESSES = 4
#: default memory budget (bytes) of a Grundy-sequence computation; past it the request is
#: refused up front with ComputationLimitError (pass ``max_bytes`` to raise it)
DEFAULT_MAX_BYTES = 4 * 2**30

_DTYPE_NAMES = ("uint8", "uint16", "uint32", "uint64")


def _dtypes() -> tuple:
    """The unsigned dtypes of the values, narrowest first."""
    return tuple(getattr(np, d) for d in _DTYPE_NAMES)


# -- numba rule description ------------------------------------------------------------


@dataclass(frozen=True)
class KernelRules:
    """A heap game's moves as sorted tuples of removal counts for the kernels.

    ``t_all``: remove ``t`` when that is the whole heap; ``t_take``: remove ``t`` leaving one
    nonempty heap; ``t_split``/``t_split3``: remove ``t`` leaving two/three nonempty heaps
    (``t = 0``: split without removing). ``unequal``: two-heap splits must be unequal
    (Grundy's game). ``finite``: the lists do not depend on the heap size bound. Any
    iterables of ints are taken (kept as sorted tuples of distinct ints, so that describing
    a game needs no numpy); :attr:`arrays` are the ``int64`` arrays the numba kernels read.
    """

    t_all: tuple
    t_take: tuple
    t_split: tuple
    t_split3: tuple
    unequal: bool = False
    finite: bool = True

    def __post_init__(self) -> None:
        for f in fields(self)[:4]:
            object.__setattr__(self, f.name, kernel_array(getattr(self, f.name)))

    @functools.cached_property
    def arrays(self) -> tuple:
        """``(t_all, t_take, t_split, t_split3)`` as the ``int64`` arrays of the numba kernels."""
        return tuple(np.array(getattr(self, f.name), dtype=np.int64) for f in fields(self)[:4])

    @property
    def sparse_ok(self) -> bool:
        """True when the rare/common method applies: finite rules, two-heap splits only."""
        return self.finite and len(self.t_split) > 0 and len(self.t_split3) == 0 and not self.unequal

    @property
    def split_parity(self) -> int | None:
        """The common parity of all split distances, or None when they differ."""
        ps = {int(t) & 1 for t in self.t_split}
        return ps.pop() if len(ps) == 1 else None


def kernel_work(rules: KernelRules, start: int, stop: int) -> int:
    """An upper bound on the inner-loop steps of the naive kernel computing ``G[start:stop)``
    (the sparse kernel's proof scan takes at most as many): per heap, one step per removal
    count, ``m/2`` per two-heap split distance and ``m**2/12`` per three-heap one. Small work
    runs the kernels as plain Python when numba is not loaded yet
    (:func:`cgtalg.rulesets.heaps.lazy_jit.python_kernels`)."""
    span = max(int(stop) - int(start), 0)
    stop = int(stop)
    per = (1 + len(rules.t_all) + len(rules.t_take) + len(rules.t_split) * (stop // 2)
           + len(rules.t_split3) * (stop * stop // 12))
    return span * per


def kernel_array(ts: Iterable[int]) -> tuple:
    """Sorted distinct removal counts as :class:`KernelRules` keeps them (a tuple of ints)."""
    return tuple(sorted(set(int(t) for t in ts)))


# -- the engine ------------------------------------------------------------------------


class GrundyEngine:
    """Computes and holds the Grundy sequence ``G[0:n)`` of a heap ruleset.

    ``mode`` is ``"naive"`` (mex over every option), ``"sparse"`` (the rare/common method,
    Winning Ways ch. 4; Gangolli & Plambeck 1989; Flammenkamp), or ``"python"`` (heap games
    given by a Python function). ``method="auto"`` picks sparse when the rules allow it and
    falls back to naive when the game shows no sparse space (more than a fifth of the
    positions rare). Values are stored in the smallest unsigned dtype that holds them.

    ``backend="python"`` gives the engine's plain-Python mode
    (:class:`cgtalg.rulesets.heaps.small_grundy.PythonGrundyEngine`): the same modes, rules and
    split choice, the values in a Python list, computed by the naive kernel's own Python code
    (the sparse mode's values are the same; its split is chosen on demand by
    :meth:`sparse_split`), without numpy or numba.
    """

    #: where the values are kept and how the kernels run (:data:`BACKENDS`)
    backend = "numba"

    def __new__(cls, ruleset: Any, method: str = "auto", backend: str = "numba") -> "GrundyEngine":
        if cls is GrundyEngine and backend == "python":
            from cgtalg.rulesets.heaps.small_grundy import PythonGrundyEngine

            cls = PythonGrundyEngine
        return super().__new__(cls)

    def __init__(self, ruleset: Any, method: str = "auto", backend: str = "numba") -> None:
        if method not in ("auto", "naive", "sparse"):
            raise RulesetError(f"unknown method {short_repr(method)}: expected 'auto', 'naive' or 'sparse'")
        if backend not in BACKENDS:
            raise RulesetError(f"unknown backend {short_repr(backend)}: expected 'numba' or 'python'")
        self.ruleset = ruleset
        self.method = method
        probe = ruleset.kernel_rules(64)
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
        self.n = 1
        #: ``G[:trusted]`` were computed here (or checked against a computation); values
        #: loaded from a store (:meth:`load_prefix`), and values computed from them, are not
        self.trusted = 1
        self.vmax = 0
        self.split: SparseSplit | None = None
        self.par: Any = None
        self.nrare = 0
        self.fallback_at: int | None = None
        self.rechoices = 0
        self._probe: tuple | None = None  # (values, mode, rare fraction, itemsize) for estimates
        self._init_buffers()

    # -- what the backends do differently ----------------------------------------------
    def _init_buffers(self) -> None:
        self.G = np.zeros(1024, dtype=np.uint8)
        self.marks = np.full(16, -1, dtype=np.int64)
        self.wit = np.zeros((16, WITNESSES), dtype=np.int64)
        self.wpos = np.zeros(16, dtype=np.int64)
        self.need = np.full(16, -1, dtype=np.int64)
        self.rare = np.zeros(0, dtype=np.int64)
        self.rare_val = np.zeros(0, dtype=np.int64)
        self.rare_limit = 0

    def _kernel(self, kernel: Any) -> Callable:
        """How this backend runs ``kernel``: the numba kernel itself (its Python code for
        small work, :func:`~cgtalg.rulesets.heaps.lazy_jit.python_kernels`)."""
        return kernel

    def _zeros(self, k: int) -> Any:
        return np.zeros(k, dtype=np.int64)

    def _moves(self, rules: KernelRules) -> tuple:
        return rules.arrays

    def _dmax(self) -> int:
        """The largest value ``G`` holds (at most ``2**63 - 1``: the kernels' ints)."""
        return min(int(np.iinfo(self.G.dtype).max), 2**63 - 1)

    def _chunk(self, start: int, stop: int) -> Any:
        """``G[start:stop]`` as a store writes it."""
        return np.asarray(self.G[start:stop], dtype=np.int64)

    def _read(self, store: Any, key: str, start: int, stop: int) -> Any:
        """Stored values ``start .. stop-1`` as :meth:`load_prefix` takes them."""
        return store.sequence(key, start, stop)

    # -- buffers -----------------------------------------------------------------------
    def memory_estimate(self, n: int) -> int:
        """Peak bytes held while computing ``G[0:n)`` from the current state.

        The sequence at the dtype the values so far need (1 byte per value for a fresh
        engine; values past 255 or 65535 promote it to 2 or 4 bytes), the old buffer alive
        while it is copied into a larger one, the kernels' scratch arrays (stamp and
        witness tables sized by the largest value) and, for the sparse kernel, the
        rare-position lists extrapolated from the fraction of rare heaps so far. To know the
        kernel and that fraction, the first :data:`AUTO_DECIDE_AT` values are computed first
        (a fraction of a second; 1024 for the naive kernel of games that split heaps, whose
        cost grows as ``n**2`` or ``n**3``). Computing no new value costs nothing.
        """
        n = int(n)
        if n <= self.n:
            return 0
        mode, frac, item = self.mode, self.nrare / max(self.n, 1), self.G.itemsize
        probe = min(n, AUTO_DECIDE_AT)
        if self.mode == "naive":
            rules = self.ruleset.kernel_rules(64)
            if len(rules.t_split) or len(rules.t_split3):
                # quadratic (cubic with three-heap splits) kernel: a short probe, or the
                # estimate would cost more than the computation it is for
                probe = min(n, 1024)
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
            # (exact integers: n may be far past what a float holds)
            rare = 32 * (self.nrare + (n - self.n) * round(frac * 2**20) // 2**20 + 1024)
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
        check_memory(need, f"{self.ruleset.name}: computing {short_count(n)} Grundy values ({self.n:,} computed so far)")
        if need > budget:
            raise ComputationLimitError(
                f"{self.ruleset.name}: computing {short_count(n)} Grundy values needs about {format_bytes(need)} "
                f"({getattr(self.G, 'itemsize', 8)} byte(s) per value), over the memory budget of {format_bytes(budget)}; "
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
        i = _dtypes().index(self.G.dtype.type)
        if i + 1 >= len(_dtypes()):  # pragma: no cover - values beyond 2**64
            raise ComputationLimitError(f"{self.ruleset.name}: Grundy values beyond 2**64")
        self.G = self.G.astype(_dtypes()[i + 1])

    def _ensure_marks(self) -> None:
        need = 1 << (max(self.vmax, 1).bit_length() + 2)
        if self.marks.shape[0] < need:
            self.marks = np.full(need, -1, dtype=np.int64)
            self.wit = np.zeros((need, WITNESSES), dtype=np.int64)
            self.wpos = np.zeros(need, dtype=np.int64)
            self.need = np.full(need, -1, dtype=np.int64)
            self.par = None

    def load_prefix(self, values: np.ndarray, start: int = 0, trusted: bool = False) -> None:
        """Take ``values`` as ``G[start:start+len(values))`` (e.g. read from a store).

        Only the values past those held are taken: what the engine holds is never replaced
        (``start`` must be at most :attr:`n`). Loaded values are not :attr:`trusted` (nor
        are values later computed from them) unless ``trusted=True`` (values another engine
        computed); :func:`trusted_values` re-computes them before a certificate relies on them.
        """
        values = np.asarray(values)
        start = int(start)
        if start > self.n:
            raise RulesetError(f"{self.ruleset.name}: values from index {start} would leave a gap after "
                               f"the {self.n} values held")
        if start == 0 and values.shape[0] and int(values[0]) != 0:
            raise RulesetError(f"{self.ruleset.name}: a stored Grundy sequence must start with G(0) = 0")
        values = values[self.n - start:]
        m = int(values.shape[0])
        if m == 0:
            return
        n = self.n + m
        vmax = max(int(values.max()), self.vmax)
        dt = next((d for d in _dtypes() if vmax <= np.iinfo(d).max), None)
        if dt is None or int(values.min()) < 0:
            raise RulesetError(f"{self.ruleset.name}: stored Grundy values must lie in 0 .. 2**64 - 1")
        dt = np.promote_types(dt, self.G.dtype)
        if self.G.dtype != dt:
            self.G = self.G.astype(dt)
        self._ensure_capacity(n)
        self.G[self.n:n] = values
        if trusted and self.trusted == self.n:
            self.trusted = n
        self.n = n
        self.vmax = vmax
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
            with python_kernels(4 * self.n):  # two linear passes over the values
                self._choose(self.ruleset.kernel_rules(self.n))
        return self.split if self.mode == "sparse" else None

    # -- driving -----------------------------------------------------------------------
    def extend(
        self,
        stop: int,
        progress: bool | None | Callable[[int, int], Any] = None,
        on_chunk: Callable[[int, int], Any] | None = None,
        max_bytes: int | None = None,
        _checked: bool = False,
        deadline: Deadline | None = None,
    ) -> None:
        """Compute ``G[n:stop)``.

        ``progress``: ``True`` shows a tqdm bar (values/s), ``None`` shows one on a terminal
        for long runs, ``False`` none, or a callable ``progress(done, total)`` called after
        each chunk. ``on_chunk(start, end)`` is called after each chunk (the store writer).
        ``max_bytes``: memory budget (default :data:`DEFAULT_MAX_BYTES`), checked up front
        with :meth:`check_budget`. ``deadline``: a :class:`cgtalg.budget.Deadline` checked
        after each chunk (:class:`~cgtalg.errors.ComputationLimitError` when it has passed;
        the values computed are kept).
        """
        if stop <= self.n:
            return
        if not _checked:
            self.check_budget(stop, max_bytes)
        if deadline is None:
            deadline = Deadline(None)  # no time limit, but the memory ceiling is watched
        self._ensure_capacity(stop)
        total = stop - self.n
        # the whole request decides: small work runs the kernels as plain Python while numba
        # is not loaded (the same code, so the same values: lazy_jit.python_kernels)
        rules = self.ruleset.kernel_rules(stop) if self.mode != "python" else None
        work = kernel_work(rules, self.n, stop) + 4 * stop if rules is not None else 1 << 62
        with python_kernels(work) as small:
            small = small or self.backend == "python"  # (never a bar: tqdm is not imported)
            bar = None
            # progress=None: a bar on a terminal once the work has taken a second (never for
            # small kernel work, done well within that second: tqdm is not even imported)
            if progress is True or (progress is None and not small and _on_terminal()):
                from tqdm.auto import tqdm

                bar = tqdm(total=total, unit="values", unit_scale=True, disable=False,
                           desc=f"G({self.ruleset.name})", leave=False, smoothing=0.1,
                           delay=1.0 if progress is None else 0.0)
            try:
                self._extend(stop, progress, on_chunk, deadline, bar)
            finally:
                if bar is not None:
                    bar.close()

    def _extend(self, stop: int, progress: Any, on_chunk: Any, deadline: Deadline, bar: Any) -> None:
        total = stop - self.n
        first = self.n
        callback = progress if callable(progress) else None
        chunk = 256
        while self.n < stop:
            target = min(stop, self.n + chunk)
            start = self.n
            t0 = time.perf_counter()
            self._run(target)
            if self.trusted == start:
                self.trusted = self.n
            dt = time.perf_counter() - t0
            # kernel calls of about CHUNK_SECONDS each, so that Ctrl-C and the budget are
            # answered between them within a second (a value of a game with three-heap
            # splits costs ~n**2 steps: the chunks shrink as the heaps grow)
            done = max(self.n - start, 1)
            if dt < CHUNK_SECONDS / 2:
                chunk = min(2 * chunk, 1 << 26)
            elif dt > CHUNK_SECONDS:
                chunk = max(1, int(done * CHUNK_SECONDS / dt))
            if bar is not None:
                bar.update(self.n - start)
            if on_chunk is not None:
                on_chunk(start, self.n)
            if callback is not None:
                callback(self.n - first, total)
            if self.n < stop:
                deadline.check(f"{self.ruleset.name}: computing {stop:,} Grundy values "
                               f"({self.n:,} computed and kept)")

    def _run(self, target: int) -> None:
        if self.mode == "python":
            self._run_python(target)
            return
        rules = self.ruleset.kernel_rules(target)
        while self.n < target:
            if self.mode == "sparse" and self.backend == "numba":
                self._run_sparse(rules, target)
            else:
                self._ensure_marks()
                n, status, vmax = self._kernel(K.naive_kernel)(
                    self.G, self.n, target, *self._moves(rules), rules.unequal, self.marks, self.vmax, self._dmax(),
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
        t_all, t_take, t_split, _ = rules.arrays
        n, status, nrare, vmax = K.sparse_kernel(
            self.G, self.n, target, t_all, t_take, t_split, self.par,
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
        """Choose the rare/common split with the fewest rare positions (:meth:`_pick_split`)
        and rebuild the rare list."""
        self.rechoices += 1
        n = self.n
        self.split = split = self._pick_split(rules)
        mask, cb0, cb1, rare_count = split.mask, split.cbit0, split.cbit1, split.rare
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

    def _pick_split(self, rules: KernelRules) -> SparseSplit:
        """The rare/common split with the fewest rare positions among ``1 <= a < n``
        (:func:`~cgtalg.rulesets.heaps.grundy_kernels.split_counts`, run by this backend):
        "``v`` is common iff ``popcount(v & mask)`` is odd", or, when every split removal has
        the same parity, the variant whose common bit depends on the heap's parity; ties go
        to the smaller count, then to the first variant, then to the smaller mask; the split
        held is kept when it is as good (Winning Ways ch. 4, "Sparse space spells speed";
        Gangolli & Plambeck 1989)."""
        size = 1 << max(self.vmax, 1).bit_length()
        g = rules.split_parity
        r0, r1, m0, m1 = split_counts(self._kernel(K.split_counts), self._zeros, self.G, self.n, size, g)
        cands: list[tuple[int, int, int, int]] = [(int(r0[m0]), 0, m0, 0)]  # (rare, pref, mask, variant)
        if r1 is not None:
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
        cb0, cb1 = (1, 1) if variant == 0 else (1 ^ g, g)
        return SparseSplit(mask=mask, cbit0=cb0, cbit1=cb1, rare=rare_count)

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
            v = mex(seen)
            while v > self._dmax():
                self._promote()
                G = self.G
            G[n] = v
            self.n = n + 1
            if v > self.vmax:
                self.vmax = v


def _on_terminal() -> bool:
    """Is stderr a terminal (where tqdm's ``disable=None`` shows a bar)?"""
    import sys

    try:
        return sys.stderr is not None and sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


def format_bytes(b: int) -> str:
    """``1.5 GiB``-style text of a byte count."""
    if b >= 2**70:
        return "a zettabyte (2**70 bytes) or more"
    x = float(b)
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if x < 1024 or unit == "PiB":
            return f"{int(x)} bytes" if unit == "bytes" else f"{x:.1f} {unit}"
        x /= 1024
    return f"{b} bytes"  # pragma: no cover


class StoreWriter:
    """Writes newly computed values to a store in batches (one transaction each)."""

    def __init__(self, store: Any, key: str, engine: "GrundyEngine", start: int) -> None:
        self.store, self.key, self.engine = store, key, engine
        self.written = start
        self.last = time.monotonic()

    def __call__(self, start: int, end: int) -> None:
        if end - self.written >= STORE_BATCH_VALUES or time.monotonic() - self.last > 10.0:
            self.flush()

    def flush(self) -> None:
        end = self.engine.n
        if end > self.written:
            self.store.extend_sequence(self.key, self.written, self.engine._chunk(self.written, end))
            self.written = end
        self.last = time.monotonic()



def grundy_engine(ruleset: Any, method: str = "auto", backend: str = "numba") -> GrundyEngine:
    """The :class:`GrundyEngine` of ``ruleset`` computing with ``method`` on ``backend`` (one
    per ruleset, method and backend, kept on the ruleset so that its values are computed
    once: the numba ones in ``_engines``, the plain-Python ones in ``_python_engines``)."""
    engines = ruleset.__dict__.setdefault("_python_engines" if backend == "python" else "_engines", {})
    eng = engines.get(method)
    if eng is None:
        eng = GrundyEngine(ruleset, method, backend)
        engines[method] = eng
    return eng


def install_grundy_engine(ruleset: Any, engine: GrundyEngine, method: str = "auto") -> None:
    """Make ``engine`` the one :func:`grundy_engine` gives for ``ruleset`` and ``method`` (the
    census continues values the naive kernel computed with a sparse engine this way)."""
    if engine.ruleset is not ruleset:
        raise RulesetError(f"the engine computes {engine.ruleset.name}, not {ruleset.name}")
    ruleset.__dict__.setdefault("_engines", {})[method] = engine


def grundy_sequence(
    ruleset: Any,
    n: int,
    method: str = "auto",
    store: Any = None,
    progress: bool | None | Callable[[int, int], Any] = None,
    max_bytes: int | None = None,
    *,
    max_seconds: float | None = None,
    deadline: Deadline | None = None,
    backend: str = "numba",
) -> np.ndarray:
    """The Grundy values ``G(0), ..., G(n-1)`` of the single heaps of ``ruleset``.

    Parameters
    ----------
    ruleset : HeapRuleset
    n : int
        How many values (floats such as ``1e6`` with integer value are accepted).
    method : {"auto", "naive", "sparse"}
        ``"naive"``: mex over every option (O(n^2) with splits). ``"sparse"``: the
        rare/common method (Winning Ways ch. 4 "Sparse space spells speed"; Gangolli &
        Plambeck 1989), which proves every value; only for finite codes with two-heap
        splits. ``"auto"``: sparse when possible, falling back to naive when the game
        has no sparse space.
    store : Store, optional
        An open :mod:`cgtalg.store` store: the stored prefix is used and extended, new
        values are written in batches as they are computed, so an interrupted run resumes
        where it stopped.
    progress : bool, None or callable
        tqdm bar (values/s) for long runs; a callable ``progress(done, total)`` is called
        after each chunk instead.
    max_bytes : int, optional
        Memory budget (default :data:`DEFAULT_MAX_BYTES`, 4 GiB); see
        :func:`grundy_memory_estimate`.
    max_seconds : float, optional
        Time budget: past it, :class:`~cgtalg.errors.ComputationLimitError` (the values
        computed are kept, and written to the store when there is one). ``deadline`` (a
        :class:`cgtalg.budget.Deadline`) is the same for a caller with a budget of its own.
    backend : {"numba", "python"}
        ``"python"``: the engine's plain-Python mode (no numpy, no numba: for small ``n``,
        :mod:`cgtalg.rulesets.heaps.small_grundy`), the same values as a list of ints.

    Returns
    -------
    numpy.ndarray
        A read-only array of the smallest unsigned dtype holding the values (a list of ints
        with ``backend="python"``).

    Raises
    ------
    RulesetError
        For a bad ``n``, ``method`` or ``store``.
    BudgetError
        For a ``max_seconds`` that is not a positive number of seconds.
    ComputationLimitError
        When the computation would need more than ``max_bytes`` (refused before any work),
        or runs past ``max_seconds``.

    Examples
    --------
    >>> from cgtalg.rulesets.heaps.octal import TakeAndBreak
    >>> grundy_sequence(TakeAndBreak("0.77"), 13).tolist()
    [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4]
    """
    n = check_count(n)
    store = check_store(store)
    if deadline is None and max_seconds is not None:
        deadline = Deadline(max_seconds)
    eng = grundy_engine(ruleset, method, backend)
    if max_bytes is not None:
        max_bytes = check_count(max_bytes, "max_bytes")
    eng.check_budget(n, max_bytes)
    if store is None:
        eng.extend(n, progress, max_bytes=max_bytes, deadline=deadline)
        return eng.values(n)
    key = ruleset.sequence_key
    stored_len = int(store.sequence_length(key))
    if stored_len > eng.n and eng.n < n:
        # the engine always holds what is returned (periodicity reads its buffer); values it
        # holds are kept, the stored ones past them are loaded (not trusted: see trusted_values)
        eng.load_prefix(eng._read(store, key, eng.n, min(stored_len, n)), start=eng.n)
    writer = StoreWriter(store, key, eng, start=min(stored_len, eng.n))
    try:
        eng.extend(n, progress, on_chunk=writer, max_bytes=max_bytes, deadline=deadline)
    finally:
        writer.flush()
    return eng.values(n)


def grundy_memory_estimate(ruleset: Any, n: int, method: str = "auto") -> int:
    """Bytes that computing the first ``n`` Grundy values of ``ruleset`` will hold at its
    peak (0 when they are computed already); :func:`grundy_sequence` refuses past its
    ``max_bytes``.

    About one byte per value while the values stay below 256 (two below 65536, four
    beyond), doubled while the buffer is copied into a larger one, plus the kernels'
    scratch arrays (see :meth:`GrundyEngine.memory_estimate`).

    Examples
    --------
    >>> from cgtalg.rulesets.heaps.octal import TakeAndBreak
    >>> grundy_memory_estimate(TakeAndBreak("0.77"), 10**10) > 10**10
    True
    """
    n = check_count(n)
    return grundy_engine(ruleset, method).memory_estimate(n)


def trusted_values(
    ruleset: Any,
    n: int,
    method: str = "auto",
    progress: bool | None | Callable[[int, int], Any] = None,
    max_bytes: int | None = None,
    deadline: Deadline | None = None,
) -> tuple[np.ndarray, int | None]:
    """The first ``n`` Grundy values of ``ruleset`` as the kernels compute them, never as a
    store gave them: what a certificate may rely on.

    The engine of ``ruleset`` keeps the values it computed (:attr:`GrundyEngine.trusted`);
    when it holds values read from a store among its first ``n``, they are computed again
    (on a scratch engine, under ``max_bytes`` and ``deadline``) and compared. Values that
    agree become trusted; on a disagreement the scratch engine, holding only computed
    values, replaces the engine of ``ruleset`` (the values read from the store are dropped).

    Returns
    -------
    (values, first_difference)
        A read-only view of the ``n`` trusted values, and the first index where the values
        the engine held before disagreed with the computation (``None`` when they agreed,
        or when there was nothing to compare).

    Examples
    --------
    >>> from cgtalg.rulesets.heaps.octal import TakeAndBreak
    >>> r = TakeAndBreak("0.77")
    >>> grundy_engine(r).load_prefix([0, 1, 2, 3, 9], start=0)     # G(4) = 1, not 9
    >>> G, bad = trusted_values(r, 6)
    >>> G.tolist(), bad
    ([0, 1, 2, 3, 1, 4], 4)
    """
    n = check_count(n)
    eng = grundy_engine(ruleset, method)
    if eng.trusted >= n:
        return eng.values(n), None
    if eng.trusted == eng.n:  # every value held was computed here: go on computing
        eng.extend(n, progress, max_bytes=max_bytes, deadline=deadline)
        return eng.values(n), None
    fresh = GrundyEngine(ruleset, method)
    fresh.extend(n, progress, max_bytes=max_bytes, deadline=deadline)
    m = min(n, eng.n)
    differ = np.flatnonzero(fresh.G[:m] != eng.G[:m])
    if differ.size or eng.n <= n:
        install_grundy_engine(ruleset, fresh, method)
        return fresh.values(n), (int(differ[0]) if differ.size else None)
    eng.trusted = n
    return eng.values(n), None
