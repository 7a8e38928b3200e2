"""Ctrl-C that stops promptly, and imports that an interrupt cannot leave half done.

Two problems, two tools.

**Half-imports.** Python runs a signal handler between two bytecodes of the main thread, so a
``KeyboardInterrupt`` can land in the middle of a module's code while it is being imported.
The import system then drops that module from ``sys.modules`` but keeps the submodules that
finished, without binding them on the parent it imports again later: the next attempt finds
``module 'numba' has no attribute 'core'`` (or a ``cgtalg`` name missing) until the
interpreter restarts. A notebook's "interrupt kernel" during a first call does exactly this.
:func:`install_import_guard` (called by ``import cgtalg``) puts a finder first on
``sys.meta_path`` that runs the code of every module of cgtalg and of the packages it loads
lazily (:data:`GUARDED_PACKAGES`) inside :func:`deferred_signals`: a SIGINT (or a budget's
SIGALRM) arriving meanwhile is recorded, the import completes, and the handler then runs, so
the ``KeyboardInterrupt`` is raised just after the import, which the next call finds whole.
Imports take at most about a second (numba's), so the interrupt is late by that at most.

**Work that never returns to the interpreter.** A numba kernel or a C loop that does not
check for signals keeps the interpreter from running the handler at all, for as long as it
runs. For the command line, :func:`install_watchdog` forks a small watcher process at start:
the signal module writes every signal's number to a pipe (``signal.set_wakeup_fd``, done in C
in the signal handler itself, without the GIL), and the watcher, seeing SIGINT there without
the interpreter's acknowledgement (:data:`ACK`, written by the Python-level handler) within
:data:`GRACE_SECONDS`, says ``interrupted`` on stderr and ends the process: with a second
SIGINT, which the C handler installed with ``SA_RESETHAND`` no longer catches (the process
dies of SIGINT: a shell reports status 130, as for any program stopped by Ctrl-C), else with
SIGKILL. SQLite's journal keeps the store intact through such an end: a transaction in flight
is rolled back when the store is next opened. A library call has no watcher (it would end the
user's interpreter): there a ``KeyboardInterrupt`` surfaces when the kernel returns.

This module is at the bottom of cgtalg's layers: it imports nothing of cgtalg.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from typing import Any, Iterator

__all__ = ["exit_quietly_while_starting", "GUARDED_PACKAGES", "GRACE_SECONDS", "ACK", "deferred_signals", "install_import_guard",
           "install_watchdog", "acknowledge", "watchdog_active"]

#: Top-level packages whose modules are imported inside :func:`deferred_signals`: cgtalg and
#: what it imports lazily, on a first call.
GUARDED_PACKAGES = frozenset({
    "cgtalg", "numba", "llvmlite", "numpy", "scipy", "sympy", "mpmath", "networkx", "sqlalchemy",
    "alembic", "dask", "distributed", "matplotlib", "tqdm", "lazy_loader", "click", "PIL",
})
#: Seconds the interpreter has, after SIGINT, to run its handler before the watcher ends the
#: process (the command line promises an exit within a second).
GRACE_SECONDS = 0.8
#: The byte the Python-level SIGINT handler writes to the watcher: the interrupt surfaced (no
#: signal has number 255, so it never mixes with the signal numbers on the same pipe).
ACK = b"\xff"

#: signals whose Python-level handlers wait for the end of an import (SIGPROF: a command's CPU
#: budget, cgtalg.cli.common.command_budget, must not cut an import short either)
_DEFERRED = tuple(getattr(signal, name) for name in ("SIGINT", "SIGALRM", "SIGTERM", "SIGPROF")
                  if hasattr(signal, name))
_depth = 0  # nesting of deferred_signals in the main thread
_watch: dict[str, Any] = {}  # the watcher: its pid, the pipe's write end, whether SA_RESETHAND is used


def _in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextlib.contextmanager
def deferred_signals() -> Iterator[None]:
    """A critical section of the main thread: the Python-level handlers of SIGINT, SIGALRM,
    SIGTERM and SIGPROF that arrive inside it run when it ends (each signal once, in order of arrival), so
    their exception (``KeyboardInterrupt``, a budget's error) is raised after the block, not in
    its middle. Nested sections defer to the outermost; in another thread (where Python runs no
    handler anyway) it does nothing. Meant for short blocks: imports, a cache's update."""
    global _depth
    if not _in_main_thread():
        yield
        return
    if _depth:
        _depth += 1
        try:
            yield
        finally:
            _depth -= 1
        return
    pending: list[tuple[int, Any]] = []

    def record(signum: int, frame: Any) -> None:
        if signum == signal.SIGINT:
            acknowledge()
        pending.append((signum, frame))

    saved: dict[int, Any] = {}
    for signum in _DEFERRED:
        handler = signal.getsignal(signum)
        if callable(handler):
            saved[signum] = handler
            signal.signal(signum, record)
    _depth = 1
    try:
        yield
    finally:
        _depth = 0
        for signum, handler in saved.items():
            if signal.getsignal(signum) is record:  # a handler the block installed stays
                signal.signal(signum, handler)
        if signal.SIGINT in saved:
            _rearm_reset()
        seen: set[int] = set()
        for signum, frame in pending:
            if signum not in seen and signum in saved:
                seen.add(signum)
                saved[signum](signum, frame)


class _GuardedLoader:
    """A module loader that runs its module's code inside :func:`deferred_signals`; every
    other attribute is the wrapped loader's (resources, source, ``is_package``)."""

    def __init__(self, loader: Any) -> None:
        self._loader = loader

    def __getattr__(self, name: str) -> Any:
        return getattr(self._loader, name)

    def create_module(self, spec: Any) -> Any:
        create = getattr(self._loader, "create_module", None)
        if create is None:
            return None
        with deferred_signals():  # an extension module initialises here
            return create(spec)

    def exec_module(self, module: Any) -> None:
        with deferred_signals():
            self._loader.exec_module(module)

    def __repr__(self) -> str:
        return f"<interrupt-safe {self._loader!r}>"


class _ImportGuard:
    """First on ``sys.meta_path``: finds a guarded module with the finders after it and
    wraps its loader in :class:`_GuardedLoader`."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name.partition(".")[0] not in GUARDED_PACKAGES:
            return None
        for finder in sys.meta_path:
            if finder is self or isinstance(finder, _ImportGuard):
                continue
            find = getattr(finder, "find_spec", None)
            if find is None:
                continue
            spec = find(name, path, target)
            if spec is not None:
                break
        else:
            return None
        if spec.loader is not None and hasattr(spec.loader, "exec_module") \
                and not isinstance(spec.loader, _GuardedLoader):
            spec.loader = _GuardedLoader(spec.loader)
        return spec


def install_import_guard() -> None:
    """Put the import guard first on ``sys.meta_path`` (once per process)."""
    if not any(isinstance(f, _ImportGuard) for f in sys.meta_path):
        sys.meta_path.insert(0, _ImportGuard())


# -- the command line's watcher ------------------------------------------------------------------
#: ``SA_RESETHAND`` and the offset of ``sa_flags`` in glibc's and musl's ``struct sigaction``
#: on the 64-bit Linux machines where they are known; elsewhere the watcher uses SIGKILL
_SA_RESETHAND = 0x80000000
_LAYOUTS = {"x86_64", "aarch64", "amd64", "arm64"}


def _libc_sigaction() -> Any:
    """``(sigaction, struct type)`` of libc through ctypes, or None where the layout of
    ``struct sigaction`` is not known (made once)."""
    if "sigaction" not in _watch:
        _watch["sigaction"] = None
        import platform

        if sys.platform.startswith("linux") and platform.machine().lower() in _LAYOUTS:
            try:
                import ctypes

                class Sigaction(ctypes.Structure):
                    _fields_ = [("handler", ctypes.c_void_p), ("mask", ctypes.c_ulong * 16),
                                ("flags", ctypes.c_uint), ("restorer", ctypes.c_void_p)]

                _watch["sigaction"] = (ctypes.CDLL(None, use_errno=True).sigaction, Sigaction, ctypes.byref)
            except (OSError, AttributeError):  # pragma: no cover - an odd libc
                pass
    return _watch["sigaction"]


def _sigaction_flags(signum: int, add: int) -> bool:
    """Add ``add`` to the flags of the current C-level action of ``signum`` (Linux, through
    libc's ``sigaction``); False when that is not possible here."""
    found = _libc_sigaction()
    if found is None:
        return False
    sigaction, Sigaction, byref = found
    act = Sigaction()
    if sigaction(signum, None, byref(act)) != 0 or (act.handler or 0) <= 1:
        return False  # SIG_DFL or SIG_IGN: nothing of Python's to reset
    if act.flags & add == add:
        return True
    act.flags |= add
    return sigaction(signum, byref(act), None) == 0


def _rearm_reset() -> None:
    """After Python installed a SIGINT handler again (a C-level action without
    ``SA_RESETHAND``), add the flag back, so that the watcher's SIGINT still ends the process."""
    if _watch.get("reset") and _in_main_thread():
        _sigaction_flags(signal.SIGINT, _SA_RESETHAND)


def acknowledge() -> None:
    """Tell the watcher that the interpreter has seen SIGINT (its handler runs): the process
    ends by itself, through its ``KeyboardInterrupt``."""
    fd = _watch.get("fd")
    if fd is not None:
        try:
            os.write(fd, ACK)
        except OSError:  # a full pipe or a gone watcher: nothing to tell
            pass


def watchdog_active() -> bool:
    """Whether :func:`install_watchdog` armed a watcher in this process."""
    return "pid" in _watch


def _on_sigint(signum: int, frame: Any) -> None:
    acknowledge()
    raise KeyboardInterrupt


def _watcher(read_fd: int, parent: int, grace: float, message: bytes, kill_with: int) -> None:
    """The watcher process: read signal numbers (and :data:`ACK`) from the pipe; a SIGINT not
    acknowledged within ``grace`` seconds ends ``parent``. Returns when the parent is gone."""
    import select

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a terminal's Ctrl-C reaches the whole group
    interrupt = bytes([signal.SIGINT])
    while True:
        data = os.read(read_fd, 4096)
        if not data:
            return  # the parent exited: the pipe's write end is closed
        if data.rfind(interrupt) <= data.rfind(ACK):
            continue
        ends = time.monotonic() + grace
        seen = False
        while not seen:
            left = ends - time.monotonic()
            if left <= 0 or not select.select([read_fd], [], [], left)[0]:
                break
            more = os.read(read_fd, 4096)
            if not more:
                return
            seen = more.rfind(ACK) > more.rfind(interrupt)
        if seen:
            continue
        if os.getppid() != parent:
            return
        if message:
            try:
                os.write(2, message)
            except OSError:
                pass
        os.kill(parent, kill_with)
        if kill_with != signal.SIGKILL:  # in case Python caught it after all (its handler changed)
            end = time.monotonic() + grace
            while time.monotonic() < end:
                if not select.select([read_fd], [], [], end - time.monotonic())[0]:
                    continue
                if not os.read(read_fd, 4096):
                    return
            if os.getppid() == parent:
                os.kill(parent, signal.SIGKILL)
        return


def install_watchdog(grace: float = GRACE_SECONDS, message: str = "") -> bool:
    """Arm the watcher of this process (the command line's, once, at start, before any thread
    exists): SIGINT raises ``KeyboardInterrupt`` as usual, and if the interpreter has not run
    its handler within ``grace`` seconds (a kernel holds it), the process ends, ``message``
    on stderr first. Returns whether it is armed (POSIX with ``fork``, in the main thread,
    SIGINT not handled by someone else)."""
    if "pid" in _watch:
        return True
    if not (hasattr(os, "fork") and hasattr(signal, "set_wakeup_fd") and _in_main_thread()):
        return False
    handler = signal.getsignal(signal.SIGINT)
    if handler is not signal.default_int_handler and getattr(handler, "__name__", "") != "_quiet_exit" \
            or threading.active_count() > 1:
        return False
    read_fd, write_fd = os.pipe()
    os.set_blocking(write_fd, False)
    signal.signal(signal.SIGINT, _on_sigint)
    reset = _sigaction_flags(signal.SIGINT, _SA_RESETHAND)
    parent = os.getpid()
    for stream in (sys.stdout, sys.stderr):  # nothing buffered is written twice
        with contextlib.suppress(OSError, ValueError, AttributeError):
            stream.flush()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the watcher process (measured by tests/test_interrupts.py)
        try:
            keep = {read_fd, 2} if message else {read_fd}
            for fd in range(0, 3):
                if fd not in keep:
                    with contextlib.suppress(OSError):
                        os.close(fd)
            os.closerange(3, read_fd)
            os.closerange(read_fd + 1, 1 << 16)
            _watcher(read_fd, parent, grace, message.encode(), signal.SIGINT if reset else signal.SIGKILL)
        finally:
            os._exit(0)
    os.close(read_fd)
    signal.set_wakeup_fd(write_fd, warn_on_full_buffer=False)
    _watch.update(pid=pid, fd=write_fd, reset=reset)
    # the watcher exits when this process does; reap it if this process ends first by itself
    import atexit

    atexit.register(_reap, pid)
    return True


def _reap(pid: int) -> None:
    with contextlib.suppress(OSError):
        os.waitpid(pid, os.WNOHANG)


def _quiet_exit(signum: int, frame: Any) -> None:  # pragma: no cover - measured by tools/ctrl_c_sweep.py
    os.write(2, b"cgtalg: interrupted\n")
    os._exit(130)


def exit_quietly_while_starting() -> None:
    """In the ``cgtalg`` console script only (``sys.argv[0]``), before anything is imported:
    Ctrl-C while the command's modules load ends the process as the command line does
    (``cgtalg: interrupted``, status 130), not with an import's traceback; the command line's
    ``main`` then installs its own handler (:func:`install_watchdog`)."""
    if os.path.basename(sys.argv[0] if sys.argv and sys.argv[0] else "") not in ("cgtalg", "cgtalg.exe"):
        return
    if _in_main_thread() and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _quiet_exit)
