"""One vocabulary for time and memory budgets.

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

Memory: every :class:`Deadline` also watches the process's resident memory against a ceiling
(``max_memory=`` in bytes or text such as ``"8G"``; by default :func:`default_max_memory`, which
the environment variable ``CGTALG_MAX_MEMORY`` or the command line's ``--memory`` set). A
computation that would pass it raises :class:`~cgtalg.errors.ComputationLimitError` naming the
ceiling and how to raise it (:data:`MEMORY_HINT`); one that cannot fit at all is refused up
front with :func:`check_fits`.

    >>> parse_memory("1.5G"), parse_memory("512M"), parse_memory(4096)
    (1610612736, 536870912, 4096)
"""

from __future__ import annotations

import math
import numbers
import os
import re
import time
from typing import Any

from cgtalg.errors import BudgetError

__all__ = [
    "parse_duration", "check_max_seconds", "Deadline", "BUDGET_HINT",
    "parse_memory", "format_bytes", "default_max_memory", "set_default_max_memory", "rss_bytes",
    "check_fits", "MEMORY_HINT",
]

#: How the messages of budget errors tell the user to ask for more time.
BUDGET_HINT = "pass a larger max_seconds= (on the command line: --time, e.g. --time 10m)"
#: How the messages of memory errors tell the user to allow more memory.
MEMORY_HINT = ("pass a larger max_memory= (on the command line: --memory, e.g. --memory 16G; "
               "or set CGTALG_MAX_MEMORY)")

_MEM_UNITS = {"": 1, "b": 1, "k": 1 << 10, "kb": 1 << 10, "m": 1 << 20, "mb": 1 << 20,
              "g": 1 << 30, "gb": 1 << 30, "t": 1 << 40, "tb": 1 << 40}
_MEM = re.compile(r"(\d+(?:\.\d+)?|\.\d+)([kmgt]?b?)")
_default_max_memory: int | None = None
#: seconds between two reads of the resident memory in :meth:`Deadline.check`
_MEMORY_POLL = 0.05

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
    try:
        v = float(value)
    except OverflowError:  # an int beyond float range: no budget, but say so
        raise BudgetError(f"{name} is too large to be a number of seconds (an integer of about {int(abs(int(value)).bit_length() * 0.30103)} digits)") from None
    if not (v > 0 and math.isfinite(v)):
        raise BudgetError(f"{name} must be a positive, finite number of seconds (got {value!r})")
    return v


def parse_memory(text: Any, name: str = "max_memory") -> int:
    """Bytes from a memory size: an integer number of bytes, or text such as ``512M``, ``8G``,
    ``1.5GB`` (binary units). Raises :class:`~cgtalg.errors.BudgetError` for anything else."""
    if isinstance(text, bool):
        raise BudgetError(f"{name} {text!r} is not a memory size such as 512M or 8G")
    if isinstance(text, numbers.Real):
        v = float(text)
        if not (v > 0 and math.isfinite(v)):
            raise BudgetError(f"{name} must be a positive number of bytes (got {text!r})")
        return int(v)
    t = str(text).strip().lower().replace(" ", "")
    shown = t if len(t) <= 40 else t[:37] + "..."
    m = _MEM.fullmatch(t)
    if not m:
        raise BudgetError(f"{name} {shown!r} is not a memory size such as 512M, 8G or 1.5GB")
    v = float(m.group(1)) * _MEM_UNITS[m.group(2)]
    if not (v >= 1 and math.isfinite(v)):
        raise BudgetError(f"{name} {shown!r} must be a positive memory size")
    return int(v)


def format_bytes(n: float) -> str:
    """``n`` bytes as a short text: ``format_bytes(3 << 30) == '3.0 GiB'``."""
    if n >= 1 << 70:
        return "a zettabyte (2**70 bytes) or more"
    for unit, size in (("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{int(n)} B"


def _physical_memory() -> int | None:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not POSIX
        return None


def default_max_memory() -> int:
    """The memory ceiling of computations that are not given one: what
    :func:`set_default_max_memory` set, else ``CGTALG_MAX_MEMORY``, else 60% of the physical
    memory (at most 16 GiB; 4 GiB where it cannot be read)."""
    if _default_max_memory is not None:
        return _default_max_memory
    env = os.environ.get("CGTALG_MAX_MEMORY")
    if env:
        return parse_memory(env, "CGTALG_MAX_MEMORY")
    phys = _physical_memory()
    return 4 << 30 if not phys else min(int(phys * 0.6), 16 << 30)


def set_default_max_memory(value: Any) -> None:
    """Set the process-wide memory ceiling (``None`` restores the default); the command line's
    ``--memory`` calls this."""
    global _default_max_memory
    _default_max_memory = None if value is None else parse_memory(value)


def rss_bytes() -> int:
    """The resident memory of this process, in bytes (cheap: one read of ``/proc/self/statm``;
    elsewhere the peak resident size)."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):  # pragma: no cover - not Linux
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _memory_error(what: str, limit: int, detail: str) -> Exception:
    from cgtalg.errors import ComputationLimitError

    return ComputationLimitError(
        f"{what} {detail} the memory ceiling of {format_bytes(limit)}; {MEMORY_HINT}")


def check_fits(needed_bytes: float, what: str, max_memory: Any = None) -> None:
    """Refuse up front a computation that needs ``needed_bytes`` (an estimate) beyond the memory
    ceiling (``max_memory`` or :func:`default_max_memory`), with
    :class:`~cgtalg.errors.ComputationLimitError` naming both."""
    limit = default_max_memory() if max_memory is None else parse_memory(max_memory)
    if needed_bytes > limit:
        raise _memory_error(what, limit, f"would need about {format_bytes(needed_bytes)}, beyond")


class Deadline:
    """A point in time after which a computation stops: ``Deadline(max_seconds)`` from now,
    and a memory ceiling (``max_memory``, default :func:`default_max_memory`).

    ``expired()`` and ``remaining()`` answer cheaply; ``check(what)`` raises
    :class:`~cgtalg.errors.ComputationLimitError` naming ``what`` and how to give more time,
    or more memory once the resident memory (read at most every 50 ms) passes the ceiling.
    ``Deadline(None)`` never expires (but still watches memory)."""

    __slots__ = ("max_seconds", "start", "_end", "max_memory", "_next_poll")

    def __init__(self, max_seconds: Any = None, max_memory: Any = None) -> None:
        self.max_seconds = check_max_seconds(max_seconds)
        self.max_memory = default_max_memory() if max_memory is None else parse_memory(max_memory)
        self.start = time.monotonic()
        self._end = None if self.max_seconds is None else self.start + self.max_seconds
        self._next_poll = self.start

    def elapsed(self) -> float:
        return time.monotonic() - self.start

    def remaining(self) -> float | None:
        return None if self._end is None else max(0.0, self._end - time.monotonic())

    def expired(self) -> bool:
        return self._end is not None and time.monotonic() >= self._end

    def check(self, what: str = "the computation") -> None:
        now = time.monotonic()
        if self._end is not None and now >= self._end:
            from cgtalg.errors import ComputationLimitError

            raise ComputationLimitError(
                f"{what} did not finish within the time budget of {self.max_seconds:g} s; {BUDGET_HINT}")
        if now >= self._next_poll:
            self._next_poll = now + _MEMORY_POLL
            used = rss_bytes()
            if used > self.max_memory:
                raise _memory_error(what, self.max_memory, f"stopped at {format_bytes(used)} in use, past")

    def __repr__(self) -> str:
        return f"Deadline(max_seconds={self.max_seconds!r})"
