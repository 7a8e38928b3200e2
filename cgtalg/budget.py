"""One vocabulary for time and memory budgets.

In Python a long computation takes ``max_seconds=`` (a positive number of seconds, or ``None``
for no limit), checked by :func:`check_max_seconds`; on the command line every command takes
``--time`` with ``90``, ``90s``, ``10m``, ``1.5h``, ``2d`` or ``1h30m``, read by
:func:`parse_duration`. When a budget runs out, the computation raises
:class:`cgtalg.errors.ComputationLimitError` (keeping what it stored), and its message names
both spellings (``max_seconds=`` / ``--time``). Budgets count CPU seconds (this process's
threads and the children it waited for, :func:`cpu_seconds`), not wall-clock seconds: a loaded
machine gives the same answer later instead of a different one; see :class:`Deadline`.

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
import threading
import time
from typing import Any

from cgtalg.errors import BudgetError

__all__ = [
    "parse_duration", "check_max_seconds", "Deadline", "BUDGET_HINT",
    "parse_memory", "format_bytes", "default_max_memory", "set_default_max_memory", "rss_bytes",
    "check_fits", "MEMORY_HINT", "memory_hint", "cpu_seconds", "Stopwatch", "open_deadline_expired",
    "check_open_deadlines", "physical_memory",
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
#: seconds (monotonic clock) between two reads of the CPU clock in :meth:`Deadline.check`
_CLOCK_POLL = 0.005

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


def physical_memory() -> int | None:
    """This machine's physical memory in bytes (None where it cannot be read)."""
    return _physical_memory()


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


def memory_hint(limit: int, needed: float | None = None) -> str:
    """How to let a computation stopped at the memory ceiling ``limit`` go on, true on this
    machine: a ceiling to pass that is above ``limit`` and ``needed`` (when known) and below the
    physical memory; or, when no such ceiling exists, that this machine's memory is not enough
    (no option of cgtalg can help then)."""
    phys = _physical_memory()
    want = max(float(needed) * 1.1 if needed is not None else limit * 1.5, limit + (1 << 30))
    if phys and want > phys * 0.9:
        need = f"about {format_bytes(needed)}" if needed is not None else f"more than {format_bytes(limit)}"
        return (f"this machine's memory ({format_bytes(phys)}) is not enough for {need}: no larger ceiling "
                "helps here; it needs a machine with more memory")
    gib = int(math.ceil(want / (1 << 30)))
    return (f"pass a larger max_memory= (on the command line: --memory, e.g. --memory {gib}G; "
            "or set CGTALG_MAX_MEMORY)")


def _memory_error(what: str, limit: int, detail: str, needed: float | None = None) -> Exception:
    from cgtalg.errors import ComputationLimitError

    return ComputationLimitError(
        f"{what} {detail} the memory ceiling of {format_bytes(limit)}; {memory_hint(limit, needed)}")


def check_fits(needed_bytes: float, what: str, max_memory: Any = None) -> None:
    """Refuse up front a computation that needs ``needed_bytes`` (an estimate) beyond the memory
    ceiling (``max_memory`` or :func:`default_max_memory`), with
    :class:`~cgtalg.errors.ComputationLimitError` naming both."""
    limit = default_max_memory() if max_memory is None else parse_memory(max_memory)
    if needed_bytes > limit:
        raise _memory_error(what, limit, f"would need about {format_bytes(needed_bytes)}, beyond", needed_bytes)


def cpu_seconds() -> float:
    """CPU seconds this process has used: all its threads (``time.process_time``) plus the
    child processes it has waited for (``os.times``: a C compiler it ran, pool workers it
    joined). The clock of every :class:`Deadline` (unless ``clock="wall"``), so that on a
    loaded machine a computation gets the same answer later, not a different answer."""
    t = os.times()
    return time.process_time() + t.children_user + t.children_system


class Stopwatch:
    """CPU seconds (:func:`cpu_seconds`) and wall seconds since it was made: what a command
    reports as its computation's time (``cpu()``, what the budgets count) and how long one
    waited for it (``wall()``)."""

    __slots__ = ("_cpu0", "_wall0")

    def __init__(self) -> None:
        self._cpu0 = cpu_seconds()
        self._wall0 = time.monotonic()

    def cpu(self) -> float:
        return cpu_seconds() - self._cpu0

    def wall(self) -> float:
        return time.monotonic() - self._wall0


class _Open(threading.local):
    """The deadlines entered (``with deadline:``) in this thread, outermost first."""

    def __init__(self) -> None:
        self.deadlines: list[Deadline] = []


_OPEN = _Open()


def _suggest(seconds: float) -> str:
    """A budget to suggest after ``seconds`` ran out: twice as much (at least a minute), in
    the largest unit that writes it whole enough: ``_suggest(600) == '20m'``."""
    t = max(2.0 * seconds, 60.0)
    if t < 7200:
        return f"{math.ceil(t / 60)}m"
    return f"{math.ceil(t / 3600)}h"


def _time_error(what: str, d: "Deadline") -> Exception:
    from cgtalg.errors import ComputationLimitError

    hint = BUDGET_HINT
    if d.max_seconds is not None and d.max_seconds >= 600:  # "e.g. --time 10m" would not be larger
        hint = hint.replace("e.g. --time 10m", f"e.g. --time {_suggest(d.max_seconds)}")
    return ComputationLimitError(
        f"{what} did not finish within the time budget of {d.describe()}; {hint}")


class Deadline:
    """A budget of ``max_seconds`` seconds of CPU from now, after which a computation stops,
    and a memory ceiling (``max_memory``, default :func:`default_max_memory`).

    Time is CPU time (:func:`cpu_seconds`: this process's threads and the children it
    waited for), so that a budget buys the same work on an idle and on a loaded machine; a
    census worker's budget is its own process's CPU. A side that only waits (for Dask
    futures, for another machine) burns no CPU and would never run out: it passes
    ``clock="wall"``, a wall-clock backstop whose messages say "of wall-clock time".

    ``expired()`` and ``remaining()`` answer at once; ``check(what)`` raises
    :class:`~cgtalg.errors.ComputationLimitError` naming ``what`` and how to give more time,
    or more memory once the resident memory (read at most every 50 ms) passes the ceiling.
    ``check`` is called in hot loops: it reads the CPU clock (a system call of a few
    microseconds) only once :data:`_CLOCK_POLL` seconds have passed on the monotonic clock
    (far cheaper), so a budget is honoured within that much.

    ``with deadline:`` makes it the budget of everything run inside, in this thread: every
    other :class:`Deadline` checked there (a sub-computation's ``Deadline(None)`` made only
    to watch memory, a sub-budget) stops too once this one runs out, with its own ``what``.
    ``Deadline(None)`` never expires by itself (but still watches memory).

    ``grace`` (seconds) moves the end past the budget while messages still name the budget:
    the backstop of a whole command, entered around computations given the same budget that
    start a little later, so that theirs run out first (with their partial results and their
    precise messages) and the backstop catches only what checks no budget of its own."""

    __slots__ = ("max_seconds", "max_memory", "clock", "start", "wall_start", "cpu_start", "_end",
                 "_next_poll", "_next_read")

    def __init__(self, max_seconds: Any = None, max_memory: Any = None, clock: str = "cpu",
                 grace: float = 0.0) -> None:
        if clock not in ("cpu", "wall"):
            raise BudgetError(f"a deadline's clock is 'cpu' or 'wall', not {clock!r}")
        self.max_seconds = check_max_seconds(max_seconds)
        self.max_memory = default_max_memory() if max_memory is None else parse_memory(max_memory)
        self.clock = clock
        self.wall_start = time.monotonic()
        self.cpu_start = cpu_seconds()
        #: the reading of the budget's clock when it was made
        self.start = self.cpu_start if clock == "cpu" else self.wall_start
        self._end = None if self.max_seconds is None else self.start + self.max_seconds + max(0.0, grace)
        self._next_poll = self.wall_start
        self._next_read = self.wall_start

    def _now(self) -> float:
        return cpu_seconds() if self.clock == "cpu" else time.monotonic()

    def describe(self) -> str:
        """The budget as messages word it: ``'10 s of CPU'``."""
        return f"{self.max_seconds:g} s of {'CPU' if self.clock == 'cpu' else 'wall-clock time'}"

    def elapsed(self) -> float:
        """Seconds the budget has counted: CPU seconds (wall seconds for ``clock="wall"``)."""
        return self._now() - self.start

    def cpu(self) -> float:
        """CPU seconds (:func:`cpu_seconds`) since the deadline was made, whatever its clock."""
        return cpu_seconds() - self.cpu_start

    def wall(self) -> float:
        """Wall-clock seconds since the deadline was made."""
        return time.monotonic() - self.wall_start

    def remaining(self) -> float | None:
        """Seconds left of the budget (``None`` without a time limit)."""
        return None if self._end is None else max(0.0, self._end - self._now())

    def expired(self) -> bool:
        return self._end is not None and self._now() >= self._end

    def check(self, what: str = "the computation") -> None:
        wall = time.monotonic()
        if wall < self._next_read:
            return
        self._next_read = wall + _CLOCK_POLL
        if self._end is not None and self._now() >= self._end:
            self._next_read = -math.inf  # spent: every later check raises at once
            raise _time_error(what, self)
        for outer in _OPEN.deadlines:
            if outer is not self and outer._end is not None and outer._now() >= outer._end:
                self._next_read = -math.inf
                raise _time_error(what, outer)
        if wall >= self._next_poll:
            self._next_poll = wall + _MEMORY_POLL
            used = rss_bytes()
            if used > self.max_memory:
                raise _memory_error(what, self.max_memory, f"stopped at {format_bytes(used)} in use, past")

    def __enter__(self) -> "Deadline":
        _OPEN.deadlines.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        stack = _OPEN.deadlines
        if stack and stack[-1] is self:
            stack.pop()
        elif self in stack:  # left out of order: dropped all the same
            stack.remove(self)

    def __repr__(self) -> str:
        extra = "" if self.clock == "cpu" else ", clock='wall'"
        return f"Deadline(max_seconds={self.max_seconds!r}{extra})"


def open_deadline_expired() -> bool:
    """Whether a deadline entered (``with deadline:``) in this thread has run out. Code that
    catches :class:`~cgtalg.errors.ComputationLimitError` to fall back on something cheaper
    asks this first: the budget of the whole is not a sub-budget to recover from."""
    return any(d._end is not None and d._now() >= d._end for d in _OPEN.deadlines)


def check_open_deadlines(what: str = "the computation") -> None:
    """Raise :class:`~cgtalg.errors.ComputationLimitError` naming ``what`` when a deadline
    entered in this thread has run out: for a phase that holds no deadline of its own
    (a plugin's import, a table's construction)."""
    for d in _OPEN.deadlines:
        if d._end is not None and d._now() >= d._end:
            raise _time_error(what, d)
