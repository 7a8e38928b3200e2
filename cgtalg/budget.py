"""One vocabulary for time budgets.

In Python a long computation takes ``max_seconds=`` (a positive number of seconds, or ``None``
for no limit), checked by :func:`check_max_seconds`; on the command line every command takes
``--time`` with ``90``, ``90s``, ``10m``, ``1.5h``, ``2d`` or ``1h30m``, read by
:func:`parse_duration`. When a budget runs out, the computation raises
:class:`cgtalg.errors.ComputationLimitError` (keeping what it stored), and its message names
both spellings (``max_seconds=`` / ``--time``).

    >>> [parse_duration(t) for t in ("90", "90s", "10m", "1.5h", "1h30m")]
    [90.0, 90.0, 600.0, 5400.0, 5400.0]
    >>> d = Deadline(None)
    >>> d.expired(), d.remaining()
    (False, None)
"""

from __future__ import annotations

import math
import numbers
import re
import time
from typing import Any

from cgtalg.errors import BudgetError

__all__ = ["parse_duration", "check_max_seconds", "Deadline", "BUDGET_HINT"]

#: How the messages of budget errors tell the user to ask for more time.
BUDGET_HINT = "pass a larger max_seconds= (on the command line: --time, e.g. --time 10m)"

_UNITS = {"": 1.0, "s": 1.0, "sec": 1.0, "m": 60.0, "min": 60.0, "h": 3600.0, "d": 86400.0}
_PART = re.compile(r"(\d+(?:\.\d+)?|\.\d+)(min|sec|[smhd]?)")


def parse_duration(text: Any) -> float:
    """Seconds from a duration written ``90``, ``90s``, ``10m``, ``1.5h``, ``2d`` or ``1h30m``
    (a bare number is seconds). Raises :class:`~cgtalg.errors.BudgetError` for anything else,
    and for a duration that is not positive."""
    if isinstance(text, bool):
        raise BudgetError(f"time {text!r} is not a duration such as 90, 30s, 10m, 1.5h")
    if isinstance(text, (int, float)):
        return check_max_seconds(text, "time")  # type: ignore[return-value]
    t = str(text).strip().lower().replace(" ", "")
    shown = t if len(t) <= 40 else t[:37] + "..."
    parts = _PART.findall(t)
    if not t or "".join(a + b for a, b in parts) != t:
        raise BudgetError(f"time {shown!r} is not a duration such as 90, 30s, 10m, 1.5h or 1h30m")
    total = sum(float(a) * _UNITS[b] for a, b in parts)
    if not (total > 0 and math.isfinite(total)):
        raise BudgetError(f"time {shown!r} must be a positive, finite duration")
    return total


def check_max_seconds(value: Any, name: str = "max_seconds") -> float | None:
    """``value`` as a budget in seconds: ``None`` (no limit) or a positive finite real number.

    ``nan``, infinities, zero, negatives, strings and booleans are refused with
    :class:`~cgtalg.errors.BudgetError` (``nan`` would otherwise switch the budget off)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):  # numpy floats are Real
        raise BudgetError(f"{name} must be a number of seconds or None, not {type(value).__name__}")
    v = float(value)
    if not (v > 0 and math.isfinite(v)):
        raise BudgetError(f"{name} must be a positive, finite number of seconds (got {value!r})")
    return v


class Deadline:
    """A point in time after which a computation stops: ``Deadline(max_seconds)`` from now.

    ``expired()`` and ``remaining()`` answer cheaply; ``check(what)`` raises
    :class:`~cgtalg.errors.ComputationLimitError` naming ``what`` and how to give more time.
    ``Deadline(None)`` never expires."""

    __slots__ = ("max_seconds", "start", "_end")

    def __init__(self, max_seconds: Any = None) -> None:
        self.max_seconds = check_max_seconds(max_seconds)
        self.start = time.monotonic()
        self._end = None if self.max_seconds is None else self.start + self.max_seconds

    def elapsed(self) -> float:
        return time.monotonic() - self.start

    def remaining(self) -> float | None:
        return None if self._end is None else max(0.0, self._end - time.monotonic())

    def expired(self) -> bool:
        return self._end is not None and time.monotonic() >= self._end

    def check(self, what: str = "the computation") -> None:
        if self.expired():
            from cgtalg.errors import ComputationLimitError

            raise ComputationLimitError(
                f"{what} did not finish within the time budget of {self.max_seconds:g} s; {BUDGET_HINT}")

    def __repr__(self) -> str:
        return f"Deadline(max_seconds={self.max_seconds!r})"
