"""The Grundy engine's plain-Python mode: values in a Python list, no numpy, no numba (issue 23,
part 4: "a small question should not pay for a kernel it does not need"; issue 33: one engine).

Importing numpy costs about 0.1-0.2 s in a fresh process and loading numba half a second,
more than computing the first few hundred Grundy values of a take-and-break game in plain
Python. ``GrundyEngine(ruleset, method, backend="python")`` (:class:`PythonGrundyEngine`,
through :func:`~cgtalg.rulesets.heaps.grundy_engine.grundy_engine` and
:func:`~cgtalg.rulesets.heaps.grundy_engine.grundy_sequence`) is the engine of
:mod:`cgtalg.rulesets.heaps.grundy_engine` with its values kept in a list: the same rules
(:class:`~cgtalg.rulesets.heaps.grundy_engine.KernelRules`), the same mode names, the same
store keys and split choice, and the naive kernel's own Python code
(:func:`cgtalg.rulesets.heaps.lazy_jit.python_function`) run on lists; heap games given by a
Python function take the engine's Python mex. Light commands use it for heaps below
:data:`SMALL_LIMIT` of the games whose class sets ``small_grundy = True`` (take-and-break
codes, subtraction games, Grundy's game: rules without user code), :func:`small_ok`.
:func:`small_moves_to` lists the moves of a small heap to a given value in the order
:func:`cgtalg.rulesets.heaps.play.heap_moves_to` lists them.

Examples
--------
>>> from cgtalg.rulesets.heaps.grundy_engine import grundy_sequence
>>> from cgtalg.rulesets.heaps.octal import TakeAndBreak
>>> grundy_sequence(TakeAndBreak("0.77"), 13, backend="python")
[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4]

References
----------
E. R. Berlekamp, J. H. Conway, R. K. Guy, *Winning Ways*, ch. 4 (take-and-break games).
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

from cgtalg.errors import ComputationLimitError, RulesetError
from cgtalg.rulesets.heaps.grundy_engine import GrundyEngine, KernelRules, grundy_engine
from cgtalg.rulesets.heaps.lazy_jit import python_function
from cgtalg.rulesets.heaps.position import HeapMove

__all__ = ["SMALL_LIMIT", "PythonGrundyEngine", "small_ok", "small_grundy_value", "small_moves_to"]

#: light commands answer heaps below this in plain Python (0.77 up to 512: about 0.05 s)
SMALL_LIMIT = 512
#: Python ints do not overflow; the kernels' bound on a value
_DMAX = 2**63 - 1


class PythonGrundyEngine(GrundyEngine):
    """:class:`~cgtalg.rulesets.heaps.grundy_engine.GrundyEngine` with ``backend="python"``:
    ``G`` is a list of ints (past :attr:`n`, zeros), and the kernels run as their Python
    functions on lists. The sparse mode's values are computed by the naive kernel (the same
    values: the sparse kernel proves each of them); its split is chosen by
    :meth:`sparse_split`, as the numba engine chooses one for values read from a store."""

    backend = "python"

    def _init_buffers(self) -> None:
        self.G: list[int] = [0]
        self.marks: list[int] = [-1] * 16

    def _kernel(self, kernel: Any) -> Callable:
        return python_function(kernel)

    def _zeros(self, k: int) -> list[int]:
        return [0] * k

    def _moves(self, rules: KernelRules) -> tuple:
        return rules.t_all, rules.t_take, rules.t_split, rules.t_split3

    def _dmax(self) -> int:
        return _DMAX

    def _chunk(self, start: int, stop: int) -> list[int]:
        return self.G[start:stop]

    def _read(self, store: Any, key: str, start: int, stop: int) -> list[int]:
        read = getattr(store, "sequence_values", None)  # the light store reads without numpy
        return list(read(key, start, stop)) if callable(read) else [int(v) for v in store.sequence(key, start, stop)]

    def memory_estimate(self, n: int) -> int:
        """Bytes of the list of ``n`` values and the stamp table (8 per entry; small ints are
        shared by Python)."""
        n = int(n)
        return 0 if n <= self.n else 8 * (max(n, len(self.G)) + len(self.marks))

    def values(self, n: int | None = None) -> list[int]:
        """``[G(0), ..., G(n-1)]`` (all computed values by default), a new list."""
        return self.G[: self.n if n is None else min(n, self.n)]

    def _ensure_capacity(self, stop: int) -> None:
        if len(self.G) < stop:
            self.G.extend([0] * (stop - len(self.G)))

    def _promote(self) -> None:  # pragma: no cover - values beyond 2**63
        raise ComputationLimitError(f"{self.ruleset.name}: Grundy values beyond 2**63")

    def _ensure_marks(self) -> None:
        need = 1 << (max(self.vmax, 1).bit_length() + 2)
        if len(self.marks) < need:
            self.marks = [-1] * need

    def load_prefix(self, values: Any, start: int = 0, trusted: bool = False) -> None:
        """Take ``values`` as ``G[start:start+len(values))``, as
        :meth:`GrundyEngine.load_prefix <cgtalg.rulesets.heaps.grundy_engine.GrundyEngine.load_prefix>`
        does (only values past those held; not :attr:`trusted` unless ``trusted=True``)."""
        values = [int(v) for v in values]
        start = int(start)
        if start > self.n:
            raise RulesetError(f"{self.ruleset.name}: values from index {start} would leave a gap after "
                               f"the {self.n} values held")
        if start == 0 and values and values[0] != 0:
            raise RulesetError(f"{self.ruleset.name}: a stored Grundy sequence must start with G(0) = 0")
        values = values[self.n - start:]
        if not values:
            return
        if min(values) < 0 or max(values) > _DMAX:
            raise RulesetError(f"{self.ruleset.name}: stored Grundy values must lie in 0 .. 2**63 - 1")
        n = self.n + len(values)
        self._ensure_capacity(n)
        self.G[self.n:n] = values
        if trusted and self.trusted == self.n:
            self.trusted = n
        self.n, self.vmax = n, max(self.vmax, max(values))
        self.split = None

    def _choose(self, rules: KernelRules) -> None:
        self.rechoices += 1
        self.split = self._pick_split(rules)
        self.nrare = self.split.rare


def small_ok(ruleset: Any, n: int) -> bool:
    """Whether light commands compute ``G(0 .. n-1)`` of ``ruleset`` in plain Python: a game
    that declares ``small_grundy`` and ``n <= SMALL_LIMIT``."""
    return n <= SMALL_LIMIT and bool(getattr(type(ruleset), "small_grundy", False))


def _values(ruleset: Any, n: int) -> list[int]:
    """The plain-Python engine of ``ruleset`` (method ``auto``) holding at least ``n`` values;
    its list itself (not a copy: callers only read it)."""
    eng = grundy_engine(ruleset, "auto", "python")
    eng.extend(n, progress=False)
    return eng.G


def small_grundy_value(ruleset: Any, n: int) -> int:
    """``G(n)`` from the plain-Python engine of ``ruleset``."""
    return _values(ruleset, n + 1)[n]


def small_moves_to(ruleset: Any, index: int, n: int, target: int) -> Iterator[HeapMove]:
    """The moves in heap ``n`` (at ``index`` in the position) to heaps of value ``target``,
    in the order of :func:`cgtalg.rulesets.heaps.play.heap_moves_to`: for a code, taking the
    whole heap, then by removal count the moves leaving one heap, then the two-heap splits
    (smaller part first), then the three-heap splits; for other games, the order of
    ``heap_options``."""
    G = _values(ruleset, n + 1)
    digit = getattr(ruleset, "digit", None)
    if digit is None:
        for parts in ruleset.heap_options(n):
            x = 0
            for p in parts:
                x ^= G[p]
            if x == target:
                yield HeapMove(index, n, n - sum(parts), tuple(parts))
        return
    ts = range(n + 1) if not ruleset.is_finite else range(min(n, ruleset.k) + 1)
    if target == 0 and n >= 1 and any(t == n and digit(t) & 1 for t in ts):
        yield HeapMove(index, n, n, ())
    for t in ts:
        if t >= 1 and t < n and digit(t) & 2 and G[n - t] == target:
            yield HeapMove(index, n, t, (n - t,))
    for t in ts:
        m = n - t
        if digit(t) & 4 and m >= 2:
            for a in range(1, m // 2 + 1):
                if G[a] ^ G[m - a] == target:
                    yield HeapMove(index, n, t, (a, m - a))
    for t in ts:
        m = n - t
        if digit(t) & 8 and m >= 3:
            for a in range(1, m // 3 + 1):
                for b in range(a, (m - a) // 2 + 1):
                    if G[a] ^ G[b] ^ G[m - a - b] == target:
                        yield HeapMove(index, n, t, (a, b, m - a - b))
