"""Bounds on the nimber arithmetic: field-degree ceilings, time and memory budgets, short texts.

The costly operations of Lenstra's κ/α engine grow with the degree E of the κ-field GF(2^E)
they run in (a square root is E − 1 squarings, a field degree up to E of them, root finding
roughly E^3): :func:`check_field_degree` refuses, before any work, a field above
``max_field_degree`` (default :data:`DEFAULT_MAX_FIELD_DEGREE`), and :func:`nimber_budget`
bounds the time and memory of what runs (``max_seconds=``, the memory ceiling of
:class:`cgtalg.budget.Deadline`). Inside a budget the C kernel calls the budget's check every
16,384 terms and checks for signals every 4,096 (so Ctrl-C and ``signal.alarm`` handlers are
answered at once); the Python engine calls :func:`budget_check` in its loops.

    >>> with nimber_budget(10, "a test"):
    ...     budget_check()
    >>> check_field_degree(6, 2048, "the square root of ω")
    >>> shorten("7" * 1000)[:12], len(shorten("7" * 1000))
    ('777777777777', 80)
"""

from __future__ import annotations

import contextlib
from typing import Any, Callable, Iterator

from cgtalg.budget import Deadline
from cgtalg.errors import BudgetError, ComputationLimitError, NimberError
from cgtalg.nimbers import compiled as _compiled

__all__ = [
    "DEFAULT_MAX_FIELD_DEGREE", "budget_check", "nimber_budget", "check_field_degree",
    "check_max_field_degree", "shorten", "short_repr",
]

#: Largest κ-field degree E over GF(2) in which square roots, field degrees, n-th roots and
#: polynomial roots are computed unless ``max_field_degree=`` allows more (κ_47 = ω^(ω^13)
#: needs E = 237,820: about twenty seconds for one square root; fields above 2^62 could never
#: finish). Products, sums, inverses and powers are not refused by degree: they are bounded
#: by ``max_seconds=`` and the memory ceiling.
DEFAULT_MAX_FIELD_DEGREE = 1 << 16

_ACTIVE: list[tuple[Deadline, Any]] = []


def budget_check() -> None:
    """Check every open :func:`nimber_budget` (nothing outside one): raises
    :class:`~cgtalg.errors.ComputationLimitError` once the time or memory of one is spent."""
    for deadline, what in _ACTIVE:
        deadline.check(str(what))


@contextlib.contextmanager
def nimber_budget(max_seconds: Any = None, what: Any = "the nimber computation",
                  max_memory: Any = None) -> Iterator[Deadline]:
    """Bound the nimber arithmetic run inside: a :class:`~cgtalg.budget.Deadline` of
    ``max_seconds`` (validated; ``None``: no time limit) and ``max_memory`` (default: the
    process-wide ceiling) whose check the C kernel and the Python engine call as they go;
    running out raises :class:`~cgtalg.errors.ComputationLimitError` naming ``what`` (text,
    or an object whose ``str`` is made only then) and how to raise the limit. Budgets nest:
    an inner one does not lift an outer one's limits."""
    try:
        deadline = Deadline(max_seconds, max_memory)
    except OverflowError:  # an int too large for a float
        raise BudgetError(f"max_seconds {shorten(max_seconds)} is not a finite number of seconds") from None
    c = _compiled.load()
    _ACTIVE.append((deadline, what))
    prev = c.set_check(budget_check) if c is not None else None
    try:
        yield deadline
    finally:
        _ACTIVE.pop()
        if c is not None:
            c.set_check(prev)


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
    """``text`` cut to at most ``limit`` characters (middle elided), for error messages that
    quote user input (a 200,000-digit number is not repeated in full). Anything that is not a
    str is shown with ``str``; an int too long to print (Python refuses to write ints of over
    4,300 digits) is named by its size."""
    if not isinstance(text, str):
        text = _text(text, str)
    if len(text) <= limit:
        return text
    keep = limit - 5
    return f"{text[: keep - keep // 3]}[...]{text[len(text) - keep // 3:]}"


def short_repr(x: Any, limit: int = 80) -> str:
    """``repr(x)`` shortened as :func:`shorten` does (safe for huge ints)."""
    return shorten(_text(x, repr), limit)


def _text(x: Any, how: Callable[[Any], str]) -> str:
    if type(x) in (tuple, list) and len(x) < 100:
        inner = ", ".join(_text(v, repr) for v in x)
        return f"({inner}{',' if len(x) == 1 else ''})" if type(x) is tuple else f"[{inner}]"
    if isinstance(x, int) and not isinstance(x, bool) and x.bit_length() > 3300:
        digits = int(x.bit_length() * 0.30103) + 1
        return f"{'-' if x < 0 else ''}<an integer of about {digits} digits>"
    try:
        return how(x)
    except Exception:  # noqa: BLE001 - a value whose text cannot be made is named by its type
        return f"<{type(x).__name__}>"
