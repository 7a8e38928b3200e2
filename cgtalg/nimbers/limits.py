"""Bounds on the nimber arithmetic: field-degree ceilings, time and memory budgets, short texts.

The costly operations of Lenstra's κ/α engine grow with the degree E of the κ-field GF(2^E)
they run in (a square root is E − 1 squarings, a field degree up to E of them, root finding
roughly E^3): :func:`check_field_degree` refuses, before any work, a field above
``max_field_degree`` (default :data:`DEFAULT_MAX_FIELD_DEGREE`), and :class:`nimber_budget`
bounds the time and memory of what runs (``max_seconds=`` of CPU, the memory ceiling of
:class:`cgtalg.budget.Deadline`). The C kernel calls :func:`budget_check` (the budgets open in
the calling thread) every 16,384 monomial products and checks for signals every 4,096 (so
Ctrl-C and ``signal.alarm`` handlers are answered at once); the Python engine calls it in its
loops.

    >>> with nimber_budget(10, "a test"):
    ...     budget_check()
    >>> check_field_degree(6, 2048, "the square root of ω")
    >>> shorten("7" * 1000)
    "'7777777777777777777777777777777777777777'... (1,000 characters) ...'7777777777'"
"""

from __future__ import annotations

import threading
from typing import Any, Callable

from cgtalg.budget import Deadline, check_max_seconds
from cgtalg.errors import BudgetError, ComputationLimitError, NimberError
from cgtalg.errors import shorten as errors_shorten
from cgtalg.nimbers import compiled as _compiled

__all__ = [
    "DEFAULT_MAX_FIELD_DEGREE", "budget_check", "nimber_budget", "check_field_degree",
    "check_max_field_degree", "shorten", "short_repr", "LazyText", "seconds",
]

#: Largest κ-field degree E over GF(2) in which square roots, field degrees, n-th roots and
#: polynomial roots are computed unless ``max_field_degree=`` allows more (κ_47 = ω^(ω^13)
#: needs E = 237,820: about twenty seconds for one square root; fields above 2^62 could never
#: finish). Products, sums, inverses and powers are not refused by degree: they are bounded
#: by ``max_seconds=`` and the memory ceiling.
DEFAULT_MAX_FIELD_DEGREE = 1 << 16


class _Open(threading.local):
    """The budgets open in this thread, innermost last."""

    def __init__(self) -> None:
        self.budgets: list[nimber_budget] = []


_OPEN = _Open()
_KERNEL_HOOKED = False


def budget_check() -> None:
    """Check every :class:`nimber_budget` open in this thread (nothing outside one): raises
    :class:`~cgtalg.errors.ComputationLimitError` once the time or memory of one is spent."""
    for budget in _OPEN.budgets:
        budget.check()


def _hook_kernel() -> None:
    """Have the C kernel call :func:`budget_check` as it goes (once per process)."""
    global _KERNEL_HOOKED
    _KERNEL_HOOKED = True
    c = _compiled.load()
    if c is not None:
        c.set_check(budget_check)


class nimber_budget:  # noqa: N801 - used as a context manager, like a function
    """``with nimber_budget(max_seconds, what):`` bounds the nimber arithmetic run inside.

    A :class:`~cgtalg.budget.Deadline` of ``max_seconds`` (validated; ``None``: no time
    limit) and ``max_memory`` (default: the process-wide ceiling) whose check the C kernel
    and the Python engine call as they go; running out raises
    :class:`~cgtalg.errors.ComputationLimitError` naming ``what`` (text, or an object whose
    ``str`` is made only then) and how to raise the limit. Budgets nest: an inner one does not
    lift an outer one's limits. Entering a budget without limits is cheap (its deadline, which
    watches memory only, is made on the first check), so that small operations pay almost
    nothing for it.
    """

    __slots__ = ("max_seconds", "what", "max_memory", "_deadline")

    def __init__(self, max_seconds: Any = None, what: Any = "the nimber computation",
                 max_memory: Any = None) -> None:
        self.max_seconds = seconds(max_seconds)
        self.what = what
        self.max_memory = max_memory
        # with a limit given, the deadline now; else (memory only, at the default ceiling) on
        # the first check, which most small operations never reach
        self._deadline: Deadline | None = None
        if self.max_seconds is not None or max_memory is not None:
            self._deadline = Deadline(self.max_seconds, max_memory)

    def deadline(self) -> Deadline:
        """The :class:`~cgtalg.budget.Deadline` of this budget."""
        d = self._deadline
        if d is None:
            d = self._deadline = Deadline(None)
        return d

    def check(self, what: Any = None) -> None:
        """Raise :class:`~cgtalg.errors.ComputationLimitError` once time or memory is spent."""
        self.deadline().check(self.what if what is None else what)  # (formatted only to raise)

    def remaining(self) -> float | None:
        """Seconds of CPU left (``None`` without a time limit)."""
        if self.max_seconds is None:
            return None
        return self.deadline().remaining()

    def __enter__(self) -> "nimber_budget":
        if not _KERNEL_HOOKED:
            _hook_kernel()
        _OPEN.budgets.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        _OPEN.budgets.pop()


def seconds(max_seconds: Any) -> float | None:
    """``max_seconds`` checked by :func:`cgtalg.budget.check_max_seconds` (an int too large
    for a float is a :class:`~cgtalg.errors.BudgetError` too)."""
    try:
        return check_max_seconds(max_seconds)
    except OverflowError:
        raise BudgetError(f"max_seconds {shorten(max_seconds)} is not a finite number of seconds") from None


class LazyText:
    """Text made only when shown: ``LazyText(f, *args)`` is ``f(*args)`` once ``str`` asks
    (labels of budgets and refusals, formatted only when a message needs them)."""

    __slots__ = ("f", "args")

    def __init__(self, f: Callable[..., str], *args: Any) -> None:
        self.f, self.args = f, args

    def __str__(self) -> str:
        return self.f(*self.args)


def check_max_field_degree(value: Any, func: str) -> int:
    """``value`` as a field-degree ceiling: an int ≥ 1, or ``None`` for the default."""
    if value is None:
        return DEFAULT_MAX_FIELD_DEGREE
    if isinstance(value, bool) or not isinstance(value, int):
        raise NimberError(f"{func}: max_field_degree must be an int >= 1 or None, "
                          f"got {type(value).__name__} {short_repr(value)}")
    if value < 1:
        raise NimberError(f"{func}: max_field_degree must be >= 1, got {shorten(value)}")
    return value


def check_field_degree(M: int, max_field_degree: int, what: str) -> None:
    """Refuse (:class:`~cgtalg.errors.ComputationLimitError`) work in GF(2^M) when M is above
    ``max_field_degree``, naming the limit and how to raise it."""
    if M > max_field_degree:
        shown = shorten(M)
        raise ComputationLimitError(
            f"{what} is computed in the κ-field GF(2^{shown}), of degree {shown} > "
            f"max_field_degree = {shorten(max_field_degree)}; refused before computing (pass a larger "
            f"max_field_degree=, on the command line --max-field-degree; the cost grows with "
            f"the degree)")


def shorten(text: Any, limit: int = 80) -> str:
    """``text`` for an error message: itself when short, else shortened as
    :func:`cgtalg.errors.shorten` does (the one shortening; a 200,000-digit number is not
    repeated in full, an int too long to print is named by its size)."""
    if isinstance(text, str) and len(text) <= limit:
        return text
    return errors_shorten(text, limit)


def short_repr(x: Any, limit: int = 80) -> str:
    """``repr(x)`` shortened as :func:`cgtalg.errors.shorten` does (safe for huge ints)."""
    return errors_shorten(x, limit)
