"""Fast paths of the ``cgtalg`` command: answers given without importing click, numpy or
SQLAlchemy (issue 35: "no fixed cost a user pays twice").

One command is served here: ``cgtalg [--store URL] quotient CODE [--quiet] [--no-store]`` for a
take-and-break code whose quotient is not stored yet. Its final misère quotient is computed by
the pure-Python construction of :mod:`cgtalg.quotients.tiny`, written to the store as the full
construction writes it (the record of :func:`cgtalg.quotients.storage.encode_record`, which a
later run re-verifies when it loads it), and printed in the words of the full command
(:func:`cgtalg.cli.quotient_report.quotient_text`). Anything else (other options, a stored
quotient to resume, a store the light path does not open, a quotient that grows past the fast
path's limits) goes to the click application, unchanged: when the fast path gives up part way,
the full construction goes on from the last quotient it verified (re-verified by the full
construction's own check first), so nothing is computed twice.

``run_fast`` returns the exit status, or None when the command is not served here.
"""

from __future__ import annotations

import os
import re
import sys
from typing import Any

__all__ = ["run_fast", "FAST_SECONDS"]

#: the CPU seconds the pure-Python construction gets before the full one takes over
FAST_SECONDS = 1.0
#: a take-and-break code as the fast path takes it (the code reader checks it further)
_CODE = re.compile(r"[0-9]{1,3}\.[0-9A-Fa-f]{1,40}")


def _parse(args: list[str]) -> dict | None:
    """``{"store": URL or None, "code": CODE, "quiet": bool, "no_store": bool}`` for the
    commands served here, else None."""
    args = list(args)
    store = None
    if args and args[0] == "--store" and len(args) >= 2:
        store, args = args[1], args[2:]
    elif args and args[0].startswith("--store="):
        store, args = args[0].split("=", 1)[1], args[1:]
    if len(args) < 2 or args[0] != "quotient" or not _CODE.fullmatch(args[1]):
        return None
    flags = set(args[2:])
    if len(flags) != len(args) - 2 or not flags <= {"--quiet", "--no-store"}:
        return None
    return {"store": store, "code": args[1], "quiet": "--quiet" in flags, "no_store": "--no-store" in flags}


def run_fast(args: list[str]) -> int | None:
    """Serve the command ``args`` (``sys.argv[1:]``) when it is one of this module's; its exit
    status, or None to run the click application."""
    want = _parse(args)
    if want is None or os.environ.get("CGTALG_NO_FAST", "") not in ("", "0"):
        return None
    from cgtalg.cli.main import EXIT_INTERRUPTED, INTERRUPTED, _exit_now

    watch = _Watch()
    try:
        return _quotient(want)
    except KeyboardInterrupt:
        print(INTERRUPTED, file=sys.stderr)
        _exit_now(EXIT_INTERRUPTED)
    finally:
        watch.stop()


class _Watch:
    """Ctrl-C within a second here too. The construction of this path is Python, which raises
    ``KeyboardInterrupt`` at once; only SQLite (a store another process is writing) may hold
    the interpreter, and it releases the GIL while it waits, so a thread woken by the signal
    (``signal.set_wakeup_fd``) ends the process when the interpreter has not answered within
    :data:`cgtalg.interrupts.GRACE_SECONDS` (a write cut short is rolled back by SQLite). The
    full application's watchdog is a process (its C kernels hold the GIL); forking one costs
    this path more CPU than its whole computation. Stopped (the thread joined, the fd released)
    before the application runs, since the application arms its own watchdog."""

    def __init__(self) -> None:
        import signal
        import threading

        from cgtalg.cli.main import EXIT_INTERRUPTED, INTERRUPTED
        from cgtalg.interrupts import GRACE_SECONDS

        self.fds = None
        self.thread = None
        if threading.current_thread() is not threading.main_thread() or \
                signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
            return
        wake_r, wake_w = os.pipe()
        stop_r, stop_w = os.pipe()
        os.set_blocking(wake_w, False)
        self.fds = (wake_r, wake_w, stop_r, stop_w)
        self.old = signal.set_wakeup_fd(wake_w, warn_on_full_buffer=False)

        def watch() -> None:
            import select

            ready, _, _ = select.select([wake_r, stop_r], [], [])
            if stop_r in ready:
                return
            ready, _, _ = select.select([stop_r], [], [], GRACE_SECONDS)
            if not ready:   # the interpreter did not answer: end the process
                os.write(2, (INTERRUPTED + "\n").encode())
                os._exit(EXIT_INTERRUPTED)

        self.thread = threading.Thread(target=watch, name="cgtalg-fast-watch", daemon=True)
        self.thread.start()

    def stop(self) -> None:
        if self.thread is None:
            return
        import signal

        signal.set_wakeup_fd(self.old)
        os.write(self.fds[3], b"x")
        self.thread.join()
        for fd in self.fds:
            os.close(fd)
        self.thread = None


def _quotient(want: dict) -> int | None:
    from cgtalg.budget import Stopwatch
    from cgtalg.errors import CgtalgError

    clock = Stopwatch()
    try:
        from cgtalg.quotients.state import misere_period_bound
        from cgtalg.rulesets.heaps.octal import TakeAndBreak

        ruleset = TakeAndBreak(want["code"])
        bound = misere_period_bound(ruleset)
    except CgtalgError:
        return None               # the click application says what is wrong, in its words
    if bound is None:
        return None
    from cgtalg.quotients.record import quotient_key

    if want["no_store"]:
        return _compute(want, ruleset, bound, None, clock)
    try:
        from cgtalg.store.light import LightStore, open_light_store

        store = open_light_store(want["store"])
    except (CgtalgError, OSError):
        return None
    try:
        if not isinstance(store, LightStore) or store.sequence_meta(quotient_key(ruleset)) is not None:
            return None           # resuming (re-verified) and the full store are the application's
        return _compute(want, ruleset, bound, store, clock)
    except (CgtalgError, OSError):
        return None               # the application opens the store again and reports it
    finally:
        store.close()


def _compute(want: dict, ruleset: Any, bound: tuple[int, int], store: Any, clock: Any) -> int | None:
    """The quotient by the tiny construction, stored and printed (0), or None after handing a
    partial quotient over to the application's construction."""
    from cgtalg.cli.quotient_report import PROGRESS_SECONDS, progress_line, quotient_text
    from cgtalg.quotients.record import ENTRY, encode_record, quotient_key
    from cgtalg.quotients.tiny import GiveUp, tiny_quotient

    last = [clock.wall()]

    def report(info: dict) -> None:
        now = clock.wall()
        if not want["quiet"] and (info["changed"] or now - last[0] >= PROGRESS_SECONDS):
            last[0] = now
            print(progress_line(f"heap {info['heap']:>4}", info, clock.cpu()), file=sys.stderr, flush=True)

    try:
        got = tiny_quotient(ruleset.heap_options, bound, seconds=FAST_SECONDS, callback=report)
    except GiveUp as exc:
        if exc.state is not None:
            _hand_over(ruleset, exc.state)
        return None
    from cgtalg.cli.wording import cli_wording
    from cgtalg.quotients.result import MisereQuotient

    name, top = ruleset.name, got.checked_to
    q = MisereQuotient(name, top, got.table, got.P, got.phi, True, got.period, top, got.seconds)
    if store is not None:
        rec = encode_record(name, top, got.period, got.table, got.P, got.phi, got.seconds, lambda: q)
        store.put_sequence_meta(quotient_key(ruleset), {ENTRY: rec}, replace=True)
    print(cli_wording(quotient_text(q, clock.cpu())), flush=True)
    return 0


def _hand_over(ruleset: Any, state: tuple) -> None:
    """Give the full construction of this process the last quotient the fast path verified
    (heaps ``0 .. len(phi) − 1``), after its own exact check (:func:`verify_pretension`); a
    state it refuses is dropped (the full construction then starts afresh)."""
    import numpy as np

    from cgtalg.quotients.pretension import FiniteMonoid, Pretension, verify_pretension
    from cgtalg.quotients.state import QuotientState, _heap_options, remember_state

    table, P, phi, seconds = state
    pre = Pretension(FiniteMonoid(np.array(table, dtype=np.int32)), np.array(P, dtype=bool), list(phi))
    options = [_heap_options(ruleset, h) for h in range(len(phi))]
    if verify_pretension(pre, options) is None:
        remember_state(ruleset, QuotientState(pre, None, seconds))
