"""Misère play of multi-heap positions: outcome, winning moves and misère Grundy values.

In misère play the Sprague–Grundy theory does not apply: a position's outcome is not a function
of its heaps' values. What does hold is that misère equality is a congruence (Conway, ONAG
ch. 12; Siegel CGT §V.3): if ``C(h) = C(h')`` as misère canonical forms then ``h + X`` and
``h' + X`` have the same outcome (and the same misère Grundy value, which the canonical form
determines) for every ``X``. The search therefore works on **multisets of classes**:

* every heap is replaced by the smallest heap with the same canonical form (its class
  representative), computed once per ruleset from the canonical forms of single heaps
  (:func:`cgtalg.rulesets.heaps.genus.misere_canonical_heap`); heaps whose canonical form is out
  of reach keep their own class;
* heaps of class ``0`` are dropped (``G + 0 = G``), and heaps of class ``*1`` cancel in pairs
  (``*1 + *1 = 0`` in misère play; ``G + G = 0`` holds for no other ``G``);
* a memoised depth-first search over the sorted class tuples decides P (every option is N; the
  empty position is N, the player to move having no move *wins*) or computes the misère Grundy
  value (``1`` for the empty position, else the mex of the options' values).

The search runs in C (:mod:`cgtalg.rulesets.heaps.heap_kernel`, compiled at install): an
iterative depth-first search over an open-addressing hash table of sorted class tuples kept in
flat arrays (about 100 bytes per state), loaded in a millisecond and run without the GIL between
the budget checks. ``cgtalg outcome 0.77 14 15 16 --misere`` (ten thousand class states) costs
0.5 s of CPU for the whole process, where loading numba cost 1.3 to 3 s and a plain Python
search 2.2 s (docs/performance.md). No search is thrown away: the raw search that small
positions try first (over heap multisets, before canonical forms are computed) is capped at
:data:`RAW_STATES` states, milliseconds in C, and its states are kept for the next question.

Without the C kernel (no compiler at install, ``CGTALG_PURE_PYTHON=1``), a small position (at
most :data:`PYTHON_STATES` states) is answered by the same search in plain Python (a dictionary
of class tuples) while the numba kernel is not loaded, and the numba kernel
(:mod:`cgtalg.rulesets.heaps._misere_kernel`, the same search) takes over beyond.
The search has a budget (states, seconds, and the memory ceiling of a
:class:`cgtalg.budget.Deadline`, checked while the classes and tables are built and between
the kernel's chunks) and ends in :class:`~cgtalg.errors.ComputationLimitError` rather than
exhausting memory; a position whose heaps are too large for its tables to fit is refused up
front (:func:`check_search_reach`: a heap of ``10**30`` tokens is never searched); the states
explored are kept on the ruleset, so later queries reuse them (an interrupted search resumes
from them), and answers are written to the store (ruleset key ``misere:<name>``, properties
``misere_outcome``, ``misere_grundy`` and ``misere_winning_moves``) so a rerun is a lookup; a
stored answer read back is checked against the others stored for the position and against the
rules (:class:`HeapPositionMoves`; :mod:`cgtalg.store.answers`).
"""

from __future__ import annotations

import sys
import time
from bisect import insort
from typing import Any

from cgtalg.core.lazynp import np

from cgtalg.budget import BUDGET_HINT, Deadline, check_fits, check_max_seconds
from cgtalg.core.heap_facts import facts_of
from cgtalg.errors import ComputationLimitError
from cgtalg.rulesets.heaps.position import HeapMove

__all__ = ["MisereSearch", "misere_search", "misere_search_outcome", "misere_search_grundy",
           "misere_search_winning_moves", "DEFAULT_MAX_STATES", "search_memory_estimate",
           "check_search_reach", "HeapPositionMoves"]

#: default budget of explored class multisets (about 100 bytes each in memory)
DEFAULT_MAX_STATES = 5_000_000
#: while the compiled kernel is not loaded in the process, a search that creates at most this
#: many new states runs as plain Python (a dict of class tuples; about 0.1 s), which costs less
#: than loading numba and the kernel (about 0.5 s); past it the kernel takes over (a larger
#: position pays those 0.1 s on top)
PYTHON_STATES = 10_000
#: seconds spent on canonical forms of single heaps before the remaining heaps keep own classes
CLASS_SECONDS = 10.0


#: bytes per option row of the search's tables (a Python tuple and its ints, then the array)
_ROW_BYTES = 120
#: bytes per heap for its class (canonical form, representative, bookkeeping)
_HEAP_BYTES = 400


def _options_count(ruleset: Any, m: int) -> float:
    """The number of options of one heap of ``m`` tokens: from the digits of a finite
    take-and-break code that declares its ``k`` (:class:`~cgtalg.core.heap_facts.HeapFacts`; no
    enumeration), else counted on a heap of at most 256 tokens and extrapolated linearly when
    it grows (an estimate either way: a ruleset without the fact is counted, not refused)."""
    digit = getattr(ruleset, "digit", None)
    k = facts_of(ruleset).k
    if callable(digit) and k is not None:
        total = 0.0
        for t in range(0, min(m, k) + 1):
            d = digit(t)
            r = m - t
            total += (1 if d & 3 else 0) + (r / 2 if d & 4 else 0) + (r * r / 12 if d & 8 else 0)
        return total
    if m <= 256:
        return float(sum(1 for _ in ruleset.heap_options(m)))
    a = sum(1 for _ in ruleset.heap_options(128))
    b = sum(1 for _ in ruleset.heap_options(256))
    return float(b) if b <= a else b + (b - a) * (m - 256) / 128


def search_memory_estimate(ruleset: Any, top: int) -> float:
    """An estimate of the bytes the misère search needs for positions with heaps up to
    ``top`` tokens: the option rows of every heap class up to ``top`` (their number grows
    like ``top`` times the options of heap ``top``, halved when that grows with the heap)."""
    top = int(top)
    if top <= 0:
        return 0.0
    per = _options_count(ruleset, top)
    small = _options_count(ruleset, max(1, top // 2))
    rows = top * (per + small) / 2
    return rows * _ROW_BYTES + top * _HEAP_BYTES


def check_search_reach(ruleset: Any, heaps: Any, max_memory: Any = None) -> None:
    """Refuse up front a misère search whose tables cannot fit under the memory ceiling
    (:func:`search_memory_estimate`), with :class:`~cgtalg.errors.ComputationLimitError`
    naming the heap, the ceiling, how to raise it, and the quotient that would answer."""
    top = max((int(h) for h in heaps), default=0)
    need = search_memory_estimate(ruleset, top)
    name = getattr(ruleset, "name", "heap game")
    shown = str(top) if top < 10**15 else f"about 10^{len(str(top)) - 1}"
    try:
        check_fits(min(need, 1 << 62), f"{name}: a misère search over heaps up to {shown} tokens",
                   max_memory)
    except ComputationLimitError as exc:
        raise ComputationLimitError(
            f"{exc}. No final misère quotient of {name} is known here; one answers any heap at "
            f"once (compute it with `cgtalg quotient {name} --time 10m`, which stores it)") from None


class MisereSearch:
    """Memoised misère search over multisets of heap classes for one ruleset (module docstring).

    Use :func:`misere_search` to get the instance kept on a ruleset.
    """

    def __init__(self, ruleset: Any, classes: bool = True) -> None:
        self.ruleset = ruleset
        self._rep: list[int] = []          # heap -> class representative (a heap size)
        self._canon_ok = bool(classes)     # canonical forms wanted and still within reach
        self._zero = -1                    # representative of class 0 (heap 0)
        self._one: int | None = None       # representative of class *1, if some heap has it
        self._canon_ids: dict[int, int] = {}
        self._opts: dict[int, list[tuple[int, ...]]] = {}
        self.outcomes = _new_memo()      # 1 = N (the player to move wins), 0 = P
        self.grundy = _new_memo()        # misère Grundy values
        #: the answers of the plain Python search (same states and values as the kernel's)
        self._py: tuple[dict, dict] = ({}, {})
        self._table: tuple[np.ndarray, np.ndarray] | None = None
        self._table_top = -1
        self._rows_top = -1
        self._rows: list[tuple[int, ...]] = []
        self._row_start: list[int] = [0]
        self._class_time = 0.0
        #: the budget of the query under way (time and memory), set by the callers
        self.deadline: Deadline | None = None

    # -- classes ----------------------------------------------------------------------
    def _extend_classes(self, n: int) -> None:
        from cgtalg.core.game import nim

        while len(self._rep) <= n:
            m = len(self._rep)
            if self.deadline is not None:
                self.deadline.check(f"{self.ruleset.name}: misère classes of heaps up to {n}")
            rep = m
            if self._canon_ok:
                t = time.perf_counter()
                try:
                    c = self.ruleset.misere_canonical_heap(m)
                except ComputationLimitError:
                    self._canon_ok = False
                else:
                    rep = self._canon_ids.setdefault(c._id, m)
                    if c.is_zero and self._zero < 0:
                        self._zero = rep
                    if c is nim(1) and self._one is None:
                        self._one = rep
                self._class_time += time.perf_counter() - t
                if self._class_time > CLASS_SECONDS:
                    self._canon_ok = False
            self._rep.append(rep)
        if self._zero < 0:
            self._zero = 0

    def class_of(self, h: int) -> int:
        """The class representative of heap ``h`` (the smallest heap of its canonical form)."""
        self._extend_classes(h)
        return self._rep[h]

    def normalize(self, heaps: Any) -> tuple[int, ...]:
        """The sorted class multiset of a position (zeros dropped, ``*1`` pairs cancelled)."""
        out = []
        ones = 0
        for h in heaps:
            c = self.class_of(int(h))
            if c == self._zero:
                continue
            if c == self._one:
                ones ^= 1
                continue
            out.append(c)
        if ones:
            out.append(self._one)  # type: ignore[arg-type]
        out.sort()
        return tuple(out)

    def _options_of(self, c: int) -> list[tuple[int, ...]]:
        o = self._opts.get(c)
        if o is None:
            o = [tuple(self.class_of(p) for p in parts if p) for parts in self.ruleset.heap_options(c)]
            o = sorted(set(o))
            self._opts[c] = o
        return o

    # -- search -------------------------------------------------------------------------
    def _tables(self, top: int) -> tuple[np.ndarray, np.ndarray]:
        """The kernel's option table covering every class up to ``top`` and what it reaches."""
        if self._table is not None and self._table_top >= top:
            return self._table
        top = self._build_rows(top)
        rows, start = self._rows, self._row_start
        width = max([1] + [len(r) for r in rows])
        opt = np.full((max(len(rows), 1), width), -1, dtype=np.int32)
        for k, r in enumerate(rows):
            opt[k, :len(r)] = r
        self._table = (np.asarray(start, dtype=np.int64), opt)
        self._table_top = top
        return self._table

    def _build_rows(self, top: int) -> int:
        """The option rows (class tuples, without numpy) of every class up to ``top`` and of
        what they reach, kept in ``_rows``/``_row_start``; returns the largest class covered."""
        if self._rows_top >= top:
            return self._rows_top
        rows, start = self._rows, self._row_start
        h = self._rows_top + 1
        while h <= top:
            if self.deadline is not None:
                self.deadline.check(f"{self.ruleset.name}: the misère search's table of heaps up to {top}")
            if self.class_of(h) == h and h != self._zero:
                for parts in self._options_of(h):
                    ps = tuple(p for p in parts if p != self._zero)
                    top = max(top, max(ps, default=0))
                    rows.append(ps)
            start.append(len(rows))
            h += 1
        self._rows_top = top
        return top

    def _run(self, s: tuple[int, ...], grundy: bool, max_states: int | None,
             max_seconds: float | None, progress: Any) -> int:
        memo = self.grundy if grundy else self.outcomes
        v = memo.get(s)
        if v is not None:
            return v
        max_seconds = check_max_seconds(max_seconds)
        limit = DEFAULT_MAX_STATES if max_states is None else int(max_states)
        if not _compiled_search(memo):
            # a small search answers in plain Python before the numba kernel is loaded
            v = self._python_search(s, grundy, limit)
            if v is not None:
                return v
        budget = Deadline(max_seconds)  # CPU seconds (cgtalg.budget), as every budget counts
        one = -1 if self._one is None else self._one
        while True:
            r = memo.step(self, s, grundy, one)
            if r >= 0:
                return int(r)
            size = memo.size
            if size > limit:
                raise ComputationLimitError(
                    f"{self.ruleset.name}: misère search passed max_states={limit} states "
                    f"(about {memo.nbytes // 10**6} MB); raise max_states to go on "
                    f"(states found so far are kept for the next call)")
            if max_seconds is not None and budget.expired():
                raise ComputationLimitError(
                    f"{self.ruleset.name}: misère search passed max_seconds={max_seconds} "
                    f"after {size} states (kept for the next call); {BUDGET_HINT}")
            if self.deadline is not None:
                self.deadline.check(f"{self.ruleset.name}: misère search ({size:,} states, kept "
                                    "for the next call)")
            if progress is not None:
                progress.n = size
                progress.refresh()

    def _python_search(self, root: tuple[int, ...], grundy: bool, limit: int) -> int | None:
        """The answer of ``root`` by a plain memoised depth-first search over the same class
        tuples and moves as the kernel's (:mod:`cgtalg.rulesets.heaps._misere_kernel`: a part equal
        to the class of ``*1`` cancels one already present; no move: N, misère Grundy value
        1), or ``None`` when it would create more than :data:`PYTHON_STATES` new states (the
        states it solved are kept; the kernel goes on).

        Raises
        ------
        ComputationLimitError
            When it would hold more than ``limit`` states (the search's ``max_states``), as the
            kernel would."""
        memo = self._py[1 if grundy else 0]
        v = memo.get(root)
        if v is not None:
            return v
        self._build_rows(max(root, default=0))
        rows, start = self._rows, self._row_start
        one = -1 if self._one is None else self._one

        def children(state: tuple[int, ...]):
            for i, h in enumerate(state):
                if i and state[i - 1] == h:
                    continue
                rest = state[:i] + state[i + 1:]
                for row in rows[start[h]:start[h + 1]]:
                    buf = list(rest)
                    for q in row:
                        if q == one and one in buf:
                            buf.remove(one)
                        else:
                            insort(buf, q)
                    yield tuple(buf)

        created = 0
        # frames: [state, its children (an iterator), the child waited for, values seen, moved]
        stack = [[root, children(root), None, [], False]]
        while stack:
            frame = stack[-1]
            state, kids, child, seen, moved = frame
            answer = None
            while True:
                if child is None:
                    child = next(kids, None)
                    if child is None:
                        break
                    moved = True
                c = memo.get(child)
                if c is None:
                    break
                if not grundy:
                    if c == 0:  # a move to a P-position: N
                        answer = 1
                        break
                else:
                    seen.append(c)
                child = None
            frame[2], frame[4] = child, moved
            if answer is None and child is not None:
                created += 1
                if created > PYTHON_STATES:
                    return None
                if len(memo) + len(stack) >= limit:
                    raise ComputationLimitError(
                        f"{self.ruleset.name}: misère search passed max_states={limit} states "
                        f"(about {(len(memo) + len(stack)) * 100 // 10**6} MB); raise max_states to go on "
                        f"(states found so far are kept for the next call)")
                if self.deadline is not None and created % 4096 == 0:
                    self.deadline.check(f"{self.ruleset.name}: misère search ({created:,} states)")
                stack.append([child, children(child), None, [], False])
                continue
            if answer is None:
                if not grundy:
                    answer = 0 if moved else 1  # every option is N (P), or no move (N)
                elif not moved:
                    answer = 1
                else:
                    values = set(seen)
                    answer = 0
                    while answer in values:
                        answer += 1
            memo[state] = answer
            stack.pop()
        return memo[root]

    def is_n(self, s: tuple[int, ...], max_states: int | None = None,
             max_seconds: float | None = None, progress: Any = None) -> bool:
        """True when the class multiset ``s`` is a misère N-position (mover wins)."""
        return self._run(s, False, max_states, max_seconds, progress) == 1

    def grundy_value(self, s: tuple[int, ...], max_states: int | None = None,
                     max_seconds: float | None = None, progress: Any = None) -> int:
        """The misère Grundy value of the class multiset ``s``."""
        return self._run(s, True, max_states, max_seconds, progress)


class _Memo:
    """The compiled search's memo for one mode (outcome or Grundy): flat arrays that grow on
    demand (:mod:`cgtalg.rulesets.heaps._misere_kernel`)."""

    #: new states between two returns of the kernel (budget checks, progress bar, Ctrl-C): a
    #: start, then adapted so that one call takes about :data:`STEP_SECONDS`
    STEP = 1 << 12
    #: seconds one call of the kernel aims at (Ctrl-C and the budgets are answered between calls)
    STEP_SECONDS = 0.2

    def __init__(self) -> None:
        self.meta: Any = None  # the arrays are made when the kernel first runs (no numpy before)
        self.step_size = self.STEP

    def _alloc(self) -> None:
        if self.meta is not None:
            return
        self.arena = np.zeros(1 << 12, dtype=np.int32)
        self.off = np.zeros(1 << 10, dtype=np.int64)
        self.ln = np.zeros(1 << 10, dtype=np.int32)
        self.val = np.zeros(1 << 10, dtype=np.int32)
        self.table = np.zeros(1 << 11, dtype=np.int64)
        self.meta = np.zeros(3, dtype=np.int64)
        self.stk = [np.zeros(256, dtype=np.int64) for _ in range(4)]
        self.buf = np.zeros(64, dtype=np.int32)

    @property
    def size(self) -> int:
        """Number of states stored (known or on the way)."""
        return 0 if self.meta is None else int(self.meta[0])

    def __len__(self) -> int:
        return self.size

    @property
    def nbytes(self) -> int:
        if self.meta is None:
            return 0
        return sum(a.nbytes for a in (self.arena, self.off, self.ln, self.val, self.table))

    def get(self, s: tuple[int, ...]) -> int | None:
        """The stored answer of state ``s`` (None when unknown)."""
        if self.meta is None or self.meta[0] == 0:  # nothing stored yet: no need to load the kernel
            return None
        from cgtalg.rulesets.heaps._misere_kernel import lookup

        v = lookup(np.asarray(s, dtype=np.int32), self.arena, self.off, self.ln, self.val,
                   self.table)
        return None if v < 0 else int(v)

    def __contains__(self, s: tuple[int, ...]) -> bool:
        return self.get(s) is not None

    def step(self, search: MisereSearch, s: tuple[int, ...], grundy: bool, one: int) -> int:
        """One call of the kernel from the root ``s``, on the option table of ``search``;
        grows the arrays it reports full. ``>= 0`` is the answer."""
        from cgtalg.rulesets.heaps import _misere_kernel as K

        root = np.asarray(s, dtype=np.int32)
        start, opt = search._tables(max(s, default=0))
        self._alloc()
        st = self.stk
        t0 = time.perf_counter()
        r = K.solve(root, grundy, start, opt, one, self.arena, self.off, self.ln, self.val,
                    self.table, self.meta, st[0], st[1], st[2], st[3], self.buf, self.step_size)
        took = time.perf_counter() - t0
        if took < self.STEP_SECONDS / 4 and self.step_size < 1 << 20:
            self.step_size *= 2
        elif took > self.STEP_SECONDS and self.step_size > 64:
            self.step_size //= 2
        if r != K.GROW:
            return int(r)
        why = int(self.meta[2])
        n = int(self.meta[0])
        if why == 1:
            self.arena = _grown(self.arena)
        elif why == 2:
            self.off, self.ln, self.val = (_grown(a) for a in (self.off, self.ln, self.val))
        elif why == 3:
            self.table = np.zeros(2 * self.table.shape[0], dtype=np.int64)
            K.rehash(self.arena, self.off, self.ln, self.table, n)
        elif why == 4:
            self.stk = [_grown(a) for a in st]
        else:
            self.buf = _grown(self.buf)
        return K.PAUSE


class _CMemo:
    """The memo of one mode in the C kernel (:mod:`cgtalg.rulesets.heaps.heap_kernel`): the
    same search as :class:`_Memo`'s numba kernel, loaded in a millisecond, and run without the
    GIL between the budget checks."""

    def __init__(self, kernel: Any) -> None:
        self.memo = kernel.Memo()
        self.step_size = _Memo.STEP
        self._rows = -1  # the number of classes of the option table given to the kernel

    @property
    def size(self) -> int:
        """Number of states stored (known or on the way)."""
        return self.memo.size

    def __len__(self) -> int:
        return self.memo.size

    @property
    def nbytes(self) -> int:
        return self.memo.nbytes

    def get(self, s: tuple[int, ...]) -> int | None:
        """The stored answer of state ``s`` (None when unknown)."""
        v = self.memo.lookup(s)
        return None if v < 0 else v

    def __contains__(self, s: tuple[int, ...]) -> bool:
        return self.get(s) is not None

    def step(self, search: MisereSearch, s: tuple[int, ...], grundy: bool, one: int) -> int:
        """One call of the kernel from the root ``s`` (the option table of ``search`` handed
        over again when it grew); ``>= 0`` is the answer, ``-2`` a pause."""
        search._build_rows(max(s, default=0))
        if len(search._row_start) != self._rows:
            self.memo.set_table(search._row_start, search._rows)
            self._rows = len(search._row_start)
        t0 = time.perf_counter()
        r = self.memo.solve(s, grundy, one, self.step_size)
        took = time.perf_counter() - t0
        if took < _Memo.STEP_SECONDS / 4 and self.step_size < 1 << 20:
            self.step_size *= 2
        elif took > _Memo.STEP_SECONDS and self.step_size > 64:
            self.step_size //= 2
        return r


def _new_memo() -> Any:
    """A memo in the C kernel when it is built, else for the numba kernel (module docstring)."""
    from cgtalg.rulesets.heaps import heap_kernel

    kernel = heap_kernel.load()
    return _Memo() if kernel is None else _CMemo(kernel)


def _compiled_search(memo: Any) -> bool:
    """Whether a search on ``memo`` runs compiled at no load cost: in C, or with the numba
    kernel already loaded in the process (else a small search runs as plain Python first)."""
    return isinstance(memo, _CMemo) or "cgtalg.rulesets.heaps._misere_kernel" in sys.modules


def _grown(a: np.ndarray) -> np.ndarray:
    out = np.zeros(2 * a.shape[0], dtype=a.dtype)
    out[:a.shape[0]] = a
    return out


def misere_search(ruleset: Any, classes: bool = True) -> MisereSearch:
    """The :class:`MisereSearch` kept on ``ruleset`` (its memo grows across calls);
    ``classes=False`` gives the search over plain heap multisets (no canonical forms)."""
    attr = "_misere_search" if classes else "_misere_search_raw"
    s = getattr(ruleset, attr, None)
    if s is None:
        s = MisereSearch(ruleset, classes)
        setattr(ruleset, attr, s)
    return s


#: small positions are searched over plain heap multisets first: when fewer than this many
#: states decide them, building canonical forms of the heaps would cost more than it saves
RAW_STATES = 10_000
#: the same while the search runs as plain Python (no ``max_states`` given): there canonical
#: forms of small heaps cost less than ten thousand raw states (Kayles 7+9+11+13: 0.02 s of
#: classes and 3,000 class states against more than 10,000 raw states)
PYTHON_RAW_STATES = 1_000


def _solve(ruleset: Any, heaps: list[int], grundy: bool, max_states: int | None,
           max_seconds: float | None, bar: Any) -> Any:
    check_search_reach(ruleset, heaps)
    deadline = Deadline(max_seconds)
    raw = misere_search(ruleset, classes=False)
    srch = misere_search(ruleset)
    raw.deadline = srch.deadline = deadline
    try:
        return _solve_in(raw, srch, heaps, grundy, max_states, max_seconds, bar)
    finally:
        raw.deadline = srch.deadline = None


def _solve_in(raw: MisereSearch, srch: MisereSearch, heaps: list[int], grundy: bool,
              max_states: int | None, max_seconds: float | None, bar: Any) -> Any:
    memo = raw.grundy if grundy else raw.outcomes
    py = raw._py[1 if grundy else 0]
    s = raw.normalize(heaps)
    budget = RAW_STATES
    if max_states is None and not _compiled_search(memo):
        budget = PYTHON_RAW_STATES
    if s in memo or s in py or len(memo) + len(py) < budget:
        cap = budget if max_states is None else min(RAW_STATES, int(max_states))
        try:
            return raw.grundy_value(s, cap, max_seconds) if grundy else raw.is_n(s, cap, max_seconds)
        except ComputationLimitError:
            if max_states is not None and max_states <= RAW_STATES:
                raise
    s = srch.normalize(heaps)
    if grundy:
        return srch.grundy_value(s, max_states, max_seconds, bar)
    return srch.is_n(s, max_states, max_seconds, bar)


class _Bar:
    """A tqdm bar of explored states, made (and tqdm imported) when the compiled search first
    reports progress: a search answered in plain Python never draws one."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.n = 0
        self._bar: Any = None

    def refresh(self) -> None:
        if self._bar is None:
            from tqdm.auto import tqdm

            self._bar = tqdm(desc=self.what, unit=" states", leave=False)
        self._bar.n = self.n
        self._bar.refresh()

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()


def _bar(progress: bool | None, what: str):
    show = progress if progress is not None else sys.stderr.isatty()
    if not show:
        return None
    return _Bar(what)


def _stored_answer(ruleset: Any, heaps: list[int], grundy: bool, store: Any,
                   max_states: int | None, max_seconds: float | None,
                   progress: bool | None) -> Any:
    """Read the answer from the store, else search (with a bar) and write it back."""
    from cgtalg.rulesets.protocol import check_store
    from cgtalg.rulesets.heaps.genus import store_key

    prop = "misere_grundy" if grundy else "misere_outcome"
    max_seconds = check_max_seconds(max_seconds)
    check_search_reach(ruleset, heaps)
    st = check_store(store)
    text = " ".join(map(str, sorted(heaps, reverse=True))) or "0"
    if st is not None:
        hit = st.get_position(store_key(ruleset), text, prop, moves=HeapPositionMoves(ruleset, heaps))
        if hit is not None:
            return int(hit) if grundy else str(hit)
    bar = _bar(progress, f"{ruleset.name} {prop.replace('_', ' ')} {text}")
    try:
        v = _solve(ruleset, heaps, grundy, max_states, max_seconds, bar)
    finally:
        if bar is not None:
            bar.close()
    res = int(v) if grundy else ("N" if v else "P")
    if st is not None:
        st.put_position(store_key(ruleset), text, prop, res)
    return res


def misere_search_outcome(ruleset: Any, heaps: list[int], store: Any = None,
                   max_states: int | None = None, max_seconds: float | None = None,
                   progress: bool | None = None) -> str:
    """``'P'`` or ``'N'``: the misère outcome of the position ``heaps`` (module docstring)."""
    return _stored_answer(ruleset, heaps, False, store, max_states, max_seconds, progress)


def misere_search_grundy(ruleset: Any, heaps: list[int], store: Any = None,
                        max_states: int | None = None, max_seconds: float | None = None,
                        progress: bool | None = None) -> int:
    """The misère Grundy value of the position ``heaps`` (``0`` exactly at P-positions)."""
    return _stored_answer(ruleset, heaps, True, store, max_states, max_seconds, progress)


def misere_search_winning_moves(ruleset: Any, heaps: list[int], store: Any = None,
                         max_states: int | None = None, max_seconds: float | None = None,
                         progress: bool | None = None) -> list:
    """Every move from ``heaps`` to a misère P-position, as :class:`HeapMove` (the heap named
    by the index of its first occurrence in ``heaps``). With a store, the moves are read from
    and written to it (position property ``misere_winning_moves`` of the position's text, as
    ``[heap, removed, parts]`` in the order of the heaps from the largest), so that asking
    again searches no child."""
    from cgtalg.rulesets.protocol import check_store
    from cgtalg.rulesets.heaps.genus import store_key

    max_seconds = check_max_seconds(max_seconds)
    check_search_reach(ruleset, heaps)
    st = check_store(store)
    text = " ".join(map(str, sorted(heaps, reverse=True))) or "0"
    if st is not None:
        hit = stored_winning_moves(ruleset, heaps, st)
        if hit is not None:
            return hit
    moves = []
    seen: set[int] = set()
    for i, h in enumerate(heaps):
        if h == 0 or h in seen:
            continue
        seen.add(h)
        rest = heaps[:i] + heaps[i + 1:]
        for parts in ruleset.heap_options(h):
            child = list(rest) + [p for p in parts if p]
            if not _solve(ruleset, child, False, max_states, max_seconds, None):
                moves.append(HeapMove(i, h, h - sum(parts), tuple(parts)))
    if st is not None:
        st.put_position(store_key(ruleset), text, "misere_winning_moves", winning_moves_record(moves))
    return moves


def winning_moves_record(moves: list) -> list:
    """The stored form of winning moves (position property ``misere_winning_moves``):
    ``[heap, removed, parts]`` for each move, heap by heap from the largest, the moves of one
    heap in the order found (the order of the ruleset's heap options, whether a search or a
    quotient found them), so that a move list read back is the list a fresh computation gives.
    Independent of the order the heaps were given in."""
    return [[m.heap, m.removed, list(m.parts)] for m in sorted(moves, key=lambda m: -m.heap)]


def canonical_moves_record(record: list) -> list:
    """A winning-moves record sorted fully (heap from the largest, tokens removed, parts): what
    ``store verify`` compares, so that a record is judged by the moves it holds, not their order."""
    return sorted(([int(h), int(r), [int(p) for p in parts]] for h, r, parts in record),
                  key=lambda row: (-row[0], row[1], row[2]))


#: stored winning moves are checked against the rules (:class:`HeapPositionMoves`) for positions
#: whose distinct heaps hold at most this many tokens in all (their options are enumerated)
CHECK_MOVES_TOKENS = 256


class HeapPositionMoves:
    """What the rules say of the moves of a heap position, for the store's check of the
    answers it holds for it (:class:`cgtalg.store.answers.MovesOf`): whether the position has
    a move at all (``terminal``), and whether a stored winning-move record ``[heap, removed,
    parts]`` (:func:`winning_moves_record`) is a move of it (``legal``). The options are
    enumerated only for positions whose distinct heaps hold at most :data:`CHECK_MOVES_TOKENS`
    tokens; beyond, both answers are None (not checked)."""

    def __init__(self, ruleset: Any, heaps: Any) -> None:
        self.ruleset = ruleset
        self.heaps = sorted({int(h) for h in heaps if h})
        self._options: dict[int, set] | None | bool = False

    def options(self) -> dict[int, set] | None:
        """``{heap: {(removed, sorted parts), ...}}``, or None beyond the bound."""
        if self._options is False:
            self._options = None
            if sum(self.heaps) <= CHECK_MOVES_TOKENS:
                self._options = {h: {(h - sum(p), tuple(sorted(x for x in p if x))) for p in self.ruleset.heap_options(h)}
                                 for h in self.heaps}
        return self._options

    @property
    def terminal(self) -> bool | None:
        opts = self.options()
        return None if opts is None else not any(opts.values())

    def legal(self, record: Any) -> bool | None:
        opts = self.options()
        if opts is None:
            return None
        try:
            h, removed, parts = record
            move = (int(removed), tuple(sorted(int(x) for x in parts if x)))
        except (TypeError, ValueError):
            return False
        return type(h) is int and move in opts.get(h, ())


def stored_winning_moves(ruleset: Any, heaps: list[int], store: Any) -> list | None:
    """The misère winning moves of ``heaps`` as stored (position property
    ``misere_winning_moves``), as :class:`HeapMove` numbered by the first occurrence of each
    heap size in ``heaps``; None when not stored."""
    from cgtalg.rulesets.heaps.genus import store_key

    text = " ".join(map(str, sorted(heaps, reverse=True))) or "0"
    hit = store.get_position(store_key(ruleset), text, "misere_winning_moves", moves=HeapPositionMoves(ruleset, heaps))
    if hit is None:
        return None
    first: dict[int, int] = {}
    for i, h in enumerate(heaps):
        first.setdefault(h, i)
    by_heap: dict[int, list] = {}
    for h, removed, parts in hit:
        by_heap.setdefault(h, []).append(HeapMove(first[h], h, removed, tuple(parts)))
    return [m for h in first for m in by_heap.get(h, ())]


def store_winning_moves(ruleset: Any, heaps: list[int], store: Any, moves: list) -> None:
    """Keep ``moves`` (the misère winning moves of ``heaps``) in ``store``."""
    from cgtalg.rulesets.heaps.genus import store_key

    text = " ".join(map(str, sorted(heaps, reverse=True))) or "0"
    store.put_position(store_key(ruleset), text, "misere_winning_moves", winning_moves_record(moves))
