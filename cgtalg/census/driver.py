"""What every census driver shares: the store, the cluster, the tasks, the batched writes.

A census (:func:`~cgtalg.census.octal_census`, :func:`~cgtalg.census.quotient_census`) is a
list of classes, one task per class that still needs work, and records written to the store
as the tasks come back. This module runs such a list, whatever the task computes:

- :func:`open_census_store` and :func:`check_shareable` (an in-memory store cannot be shared
  with Dask workers);
- :func:`run_census_jobs`: the tasks on Dask (``scheduler=None``: a ``LocalCluster``;
  ``"tcp://HOST:8786"``: a running scheduler; a ``Client`` or a cluster) or in this process
  (``"serial"``), with a progress bar, the census's time budget and Ctrl-C answered within
  :data:`POLL_SECONDS`, a failing task failing its class alone, and the records written in
  batches by a :class:`BatchWriter`; on Dask a window of tasks is submitted and topped up as
  classes come back (:data:`IN_FLIGHT_PER_WORKER`), so a stopped run leaves little to cancel;
- :func:`task_key`: Dask task keys that hash the class and the bounds, so two censuses on one
  scheduler share a task.

A task is ``fn(standard, params, store, *extra, stop_at)``: ``store`` is the opened store in
the serial path and its URL on Dask (each worker opens it once), ``stop_at`` the census's time
budget as a ``time.time()`` instant (None: no budget).
"""

from __future__ import annotations

import hashlib
import json
import logging
import numbers
import os
import sys
import time
from typing import TYPE_CHECKING, Any, Callable, Sequence

from cgtalg.budget import Deadline, check_fits, check_max_seconds
from cgtalg.errors import BudgetError, CensusError, ComputationLimitError

if TYPE_CHECKING:  # pragma: no cover
    from cgtalg.census.codes import CensusClass

__all__ = ["BYTES_PER_CODE", "SECONDS_PER_CODE", "check_census_fits", "select_classes", "DEFAULT_BATCH", "CONNECT_TIMEOUT", "PROGRESS_SECONDS", "POLL_SECONDS", "IN_FLIGHT_PER_WORKER", "MIN_IN_FLIGHT", "BatchWriter",
           "start_census", "stored_properties", "open_census_store", "worker_store", "check_shareable", "check_arguments", "task_key", "stop_at_of", "error_text",
           "shown", "run_census_jobs", "progress_bar", "CensusJob"]

#: Driver memory per code of a census (the code, its class, its record and its row; measured
#: about 850 bytes for the code and its class on 5-digit censuses, records and rows beside).
BYTES_PER_CODE = 4096
#: Driver time per code that no census can go below (enumeration and standard forms: about
#: 65 µs measured on a 2-core machine, taken at a third as a lower bound).
SECONDS_PER_CODE = 20e-6
#: Class records per store transaction (also flushed every ``flush_seconds``).
DEFAULT_BATCH = 32
#: Seconds to reach a Dask scheduler given by its address.
CONNECT_TIMEOUT = 3.0
#: Seconds between two progress lines (``log``) when there is no progress bar.
PROGRESS_SECONDS = 10.0
#: Seconds between two looks of the driver at its budget (and at Ctrl-C) while Dask computes.
POLL_SECONDS = 0.1

#: Tasks kept submitted per worker (and at least :data:`MIN_IN_FLIGHT`); the rest wait in
#: the driver, so a stopped run leaves the scheduler little to release.
IN_FLIGHT_PER_WORKER = 16
MIN_IN_FLIGHT = 64
#: Seconds between two counts of the cluster's workers (the window grows as workers join).
WORKER_RECOUNT_SECONDS = 5.0

#: One task of a census: ``(standard form, extra arguments of the task, Dask key)``.
CensusJob = tuple[str, tuple, str]


def shown(value: Any, limit: int = 40) -> str:
    """``repr(value)``, shortened to ``limit`` characters (messages never repeat a long input)."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def error_text(exc: BaseException, limit: int = 600) -> str:
    """One line naming the exception and its message (for a failed class)."""
    text = f"{type(exc).__name__}: {' '.join(str(exc).split())}"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def stop_at_of(deadline: Deadline) -> float | None:
    """The deadline as a ``time.time()`` instant (what tasks on other machines can compare)."""
    left = deadline.remaining()
    return None if left is None else time.time() + left


def _stopping(exc: BaseException, done: int, total: int) -> str:
    why = "interrupted" if isinstance(exc, KeyboardInterrupt) else "out of budget"
    return (f"census: {why} after {done:,} of {total:,} classes; the records that came back are written, "
            "a rerun goes on from the store")


def check_census_fits(n_codes: int, deadline: Deadline, what: str = "the census") -> None:
    """Refuse up front a census of ``n_codes`` codes that cannot fit the driver's memory
    ceiling (``n_codes * BYTES_PER_CODE``, :func:`cgtalg.budget.check_fits`) or its time
    budget (``n_codes * SECONDS_PER_CODE``, a lower bound: the codes' enumeration alone),
    with :class:`~cgtalg.errors.ComputationLimitError` naming the limit and how to raise it."""
    check_fits(n_codes * BYTES_PER_CODE, what, deadline.max_memory)
    need = n_codes * SECONDS_PER_CODE
    if deadline.max_seconds is not None and need > deadline.max_seconds:
        from cgtalg.budget import BUDGET_HINT

        raise ComputationLimitError(
            f"{what} needs at least {need:.0f} s (enumerating its codes alone), beyond the time budget of "
            f"{deadline.max_seconds:g} s; {BUDGET_HINT}, or ask for fewer digits")


def select_classes(digits: int | None, hexadecimal: bool, d0: int, codes: Any, deadline: Deadline,
                   say: Callable[[str], Any]) -> "tuple[list[CensusClass], int | None]":
    """The classes of a census: of every code of up to ``digits`` digits
    (:func:`~cgtalg.census.codes.enumerate_codes`), or of ``codes`` (a list, or text with
    commas) when given; refused up front when they cannot fit ``deadline``
    (:func:`check_census_fits`). Returns the classes and ``digits`` (None with ``codes``)."""
    from cgtalg.census.codes import census_classes, count_codes, enumerate_codes

    if codes is None:
        n_codes = count_codes(digits, hexadecimal, d0)
    else:
        if isinstance(codes, str):
            codes = [c.strip() for c in codes.split(",") if c.strip()]
        code_list = list(codes)
        n_codes = len(code_list)
    check_census_fits(n_codes, deadline, what=f"a census of {n_codes:,} codes")
    if codes is None:
        say(f"census: enumerating {n_codes:,} codes of up to {digits} digit{'s' if digits > 1 else ''} "
            "and their standard forms")
        code_list = enumerate_codes(digits, hexadecimal, d0)
    else:
        digits = None
    return census_classes(code_list, deadline=deadline), digits


def start_census(digits: int | None, hexadecimal: bool, d0: int, codes: Any, store: Any, scheduler: Any,
                 workers: Any, flush_seconds: Any, on_result: Any, connect_timeout: Any, batch_size: Any,
                 max_seconds: Any, max_memory: Any, log: Callable[[str], Any] | None,
                 fits: Callable[[Deadline], Any] | None = None,
                 ) -> "tuple[Deadline, Callable[[str], Any], list[CensusClass], int | None, Any]":
    """What every census does before its tasks: check the arguments (:func:`check_arguments`),
    make the budget (a :class:`~cgtalg.errors.CensusError` for a bad one), call ``fits(deadline)``
    (a census's own up-front refusal), select the classes (:func:`select_classes`), open the
    store (:func:`open_census_store`) and check that the workers can share it. Returns
    ``(deadline, say, classes, digits, store)``; ``say`` is ``log`` or does nothing."""
    check_arguments(workers, scheduler, flush_seconds, on_result, connect_timeout, batch_size)
    try:
        # wall-clock: the driver mostly waits on its workers and burns no CPU of its own (each
        # class's budget is its worker's); the census's messages say "of wall-clock time"
        deadline = Deadline(max_seconds, max_memory, clock="wall")
    except BudgetError as exc:
        raise CensusError(str(exc)) from None
    if fits is not None:
        fits(deadline)
    say = log if log is not None else (lambda _text: None)
    classes, digits = select_classes(digits, hexadecimal, d0, codes, deadline, say)
    st = open_census_store(store)
    check_shareable(st, scheduler)
    return deadline, say, classes, digits, st


def stored_properties(st: Any, ruleset: str, classes: "Sequence[CensusClass]", say: Callable[[str], Any]) -> dict:
    """What the store ``st`` holds for the standard forms of ``classes`` under ``ruleset``
    (standard form -> properties; ``{}`` without a store)."""
    if st is None:
        return {}
    say(f"census: reading what the store holds for {len(classes):,} classes")
    return st.get_positions_many(ruleset, [c.standard for c in classes])


def task_key(kind: str, std: str, *parts: Any) -> str:
    """The Dask key of the task of class ``std``: ``cgtalg-<kind>-<std>-<hash of parts>``."""
    digest = hashlib.sha256(json.dumps([std, *parts], sort_keys=True, default=str).encode()).hexdigest()
    return f"cgtalg-{kind}-{std}-{digest[:16]}"


def open_census_store(store: Any) -> Any:
    """The opened store of a census: ``None``/``False`` for none, a URL or path opened, or a
    store object (anything with ``get_positions_many`` and ``put_positions_many``)."""
    if store is None or store is False:
        return None
    if isinstance(store, (str, os.PathLike)):
        from cgtalg.store.store import open_store

        return open_store(store)
    if not all(callable(getattr(store, m, None)) for m in ("get_positions_many", "put_positions_many")):
        raise CensusError(f"store must be a store, its URL or None, not {type(store).__name__}")
    return store


def worker_store(store: Any) -> Any:
    """The store of a class task on a worker: ``None``, a store object as given, or a URL
    opened once per process (:func:`cgtalg.store.store.get_default_store`)."""
    if store is None:
        return None
    if isinstance(store, str):
        from cgtalg.store.store import get_default_store

        return get_default_store(store)
    return store


def check_shareable(st: Any, scheduler: Any) -> None:
    """Refuse an in-memory store with Dask workers (they run in other processes)."""
    serial = isinstance(scheduler, str) and scheduler == "serial"
    if st is None or serial:
        return
    from sqlalchemy.engine import make_url

    from cgtalg.store.location import sqlite_file

    url = make_url(str(getattr(st, "url", "")) or "sqlite://")
    if url.get_backend_name() == "sqlite" and sqlite_file(url) is None:
        raise CensusError("an in-memory store cannot be shared with Dask workers: pass a SQLite file or a "
                          "PostgreSQL URL, or scheduler='serial'")


def check_arguments(workers: Any, scheduler: Any, flush_seconds: Any, on_result: Any, connect_timeout: Any,
                    batch_size: Any = DEFAULT_BATCH) -> None:
    """Refuse driver arguments that are not what they should be, by name
    (:class:`~cgtalg.errors.CensusError`)."""
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise CensusError(f"batch_size must be a positive int, got {shown(batch_size)}")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, numbers.Integral)
                                or workers < 1):
        raise CensusError(f"workers must be a positive integer or None, got {shown(workers)}")
    if scheduler is not None and isinstance(scheduler, (bytes, numbers.Number, list, tuple, dict, set)):
        raise CensusError(f"scheduler must be None, 'serial', an address such as tcp://HOST:8786, a "
                          f"distributed.Client or a cluster, not {shown(scheduler)}")
    if isinstance(flush_seconds, bool) or not isinstance(flush_seconds, numbers.Real) \
            or not flush_seconds >= 0 or flush_seconds == float("inf"):
        raise CensusError(f"flush_seconds must be a non-negative number of seconds, got {shown(flush_seconds)}")
    if on_result is not None and not callable(on_result):
        raise CensusError(f"on_result must be callable or None, not {type(on_result).__name__}")
    try:
        if check_max_seconds(connect_timeout, "connect_timeout") is None:
            raise BudgetError("connect_timeout must be a positive number of seconds, not None")
    except BudgetError as exc:
        raise CensusError(str(exc)) from None


class BatchWriter:
    """Class records to the store, ``batch_size`` classes per transaction (or every
    ``flush_seconds``); a batch that fails is retried class by class, so one bad record
    (a conflict with a stored value) does not lose the others.

    ``items_of(standard, got)`` gives the ``(ruleset, position, prop, value)`` rows of a task's
    result. ``conflicts``: ``"fail"`` (a class whose record conflicts with a stored one is
    failed) or ``"keep"`` (the stored record stays, a warning says so: for records that
    depend on a wall-clock budget, which two runs may fill differently)."""

    def __init__(self, store: Any, items_of: Callable[[str, dict], list], batch_size: int = DEFAULT_BATCH,
                 flush_seconds: float = 5.0, conflicts: str = "fail") -> None:
        self.store, self.items_of = store, items_of
        self.batch_size, self.flush_seconds = batch_size, flush_seconds
        self.conflicts = conflicts
        self.pending: list[tuple[str, list]] = []
        self.last = time.monotonic()
        self.errors: dict[str, str] = {}
        self.warnings: list[str] = []
        self.replacing: set[str] = set()
        self.transactions = 0

    def add(self, std: str, got: dict, replacing: bool = False) -> None:
        """Queue the computed parts of ``got``; ``replacing``: some stored part of the class
        failed its re-check, so the new record replaces the stored one
        (``put_positions_many(replace=True)``); if even that fails: a warning, not a failure
        (the record computed now is the one shown)."""
        if self.store is None:
            return
        items = self.items_of(std, got)
        if replacing:
            self.replacing.add(std)
        if items:
            self.pending.append((std, items))
        if len(self.pending) >= self.batch_size or time.monotonic() - self.last > self.flush_seconds:
            self.flush()

    def flush(self) -> None:
        from cgtalg.errors import StoreError

        self.last = time.monotonic()
        if self.store is None or not self.pending:
            return
        batch, self.pending = self.pending, []
        try:
            self.store.put_positions_many([item for _std, items in batch for item in items])
            self.transactions += 1
        except StoreError:
            for std, items in batch:
                try:
                    self.store.put_positions_many(items)
                    self.transactions += 1
                except StoreError as exc:
                    if std not in self.replacing:
                        if self.conflicts == "keep":
                            self.warnings.append(f"{std}: the store holds another record under the same "
                                                 "budget (another run's); it is kept, the record computed "
                                                 f"now is shown: {' '.join(str(exc).split())[:300]}")
                        else:
                            self.errors[std] = error_text(exc)
                        continue
                    try:
                        # the stored record failed its re-check: repair it in place
                        self.store.put_positions_many(items, replace=True)
                        self.transactions += 1
                    except StoreError as why:
                        self.warnings.append(
                            f"{std}: the store keeps the record that failed its re-check (it could not be "
                            f"replaced; the record computed now is shown): {' '.join(str(why).split())[:300]}")


def progress_bar(progress: bool | None, total: int, desc: str = "census") -> Any:
    """A tqdm bar over ``total`` classes (``progress=None``: on a terminal), or None."""
    show = progress if progress is not None else (total > 1 and sys.stderr.isatty())
    if not show:
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=desc, unit="class")


def run_census_jobs(fn: Callable[..., dict], params: Any, jobs: Sequence[CensusJob], store: Any, scheduler: Any,
                    workers: int | None, arrived: Callable[[str, dict], None], writer: BatchWriter,
                    deadline: Deadline, say: Callable[[str], Any], progress: bool | None = None,
                    connect_timeout: float = CONNECT_TIMEOUT, desc: str = "census") -> tuple[int, str, dict]:
    """Run the tasks ``fn(standard, params, store, *extra, stop_at)`` of ``jobs`` and hand each
    result to ``arrived(standard, result)`` (then to ``writer``) as it comes back.

    Returns ``(workers, scheduler address, errors)``: ``errors`` maps each class whose task
    failed to why (the others go on). The census's budget (``deadline``) and Ctrl-C stop the
    run within :data:`POLL_SECONDS` (what came back is written; the cluster this started is
    closed) and are raised again.
    """
    errors: dict[str, str] = {}
    serial = isinstance(scheduler, str) and scheduler == "serial"
    bar = progress_bar(progress, len(jobs), desc)
    last_said = [time.monotonic()]
    done = [0]
    if bar is None and jobs:
        say(f"census: {len(jobs):,} classes to compute or re-check")

    def take(std: str, got: dict) -> None:
        arrived(std, got)
        writer.add(std, got, replacing=bool(got.get("rechecks")))
        done[0] += 1
        if bar is not None:
            bar.update(1)
        elif time.monotonic() - last_said[0] >= PROGRESS_SECONDS:
            last_said[0] = time.monotonic()
            say(f"census: {done[0]:,} of {len(jobs):,} classes done")

    n_workers, address = 0, "serial"
    try:
        if serial:
            for std, extra, _key in jobs:
                what = f"the census ({done[0]:,} of {len(jobs):,} classes done and stored)"
                deadline.check(what)
                try:
                    got = fn(std, params, store, *extra, stop_at_of(deadline))
                except Exception as exc:  # noqa: BLE001 - one class failing must not stop the census
                    if isinstance(exc, ComputationLimitError) and deadline.expired():
                        deadline.check(what)  # the census's budget: stop here, with its message
                    errors[std] = error_text(exc)
                    continue
                take(std, got)
        elif jobs:
            n_workers, address = _run_dask(fn, params, jobs, store, scheduler, workers, take, errors, deadline,
                                           say, connect_timeout)
        else:
            address = str(scheduler) if isinstance(scheduler, str) else "none needed"
    except (KeyboardInterrupt, ComputationLimitError) as exc:
        if bar is not None:
            bar.close()
            bar = None
        if serial:
            say(_stopping(exc, done[0], len(jobs)))
        raise
    finally:
        try:
            writer.flush()
        finally:
            if bar is not None:
                bar.close()
    errors.update(writer.errors)
    return n_workers, address, errors


def _start_local_cluster(LocalCluster: Any, n: int) -> Any:
    """A ``LocalCluster`` of ``n`` one-thread worker processes. Interrupted while it starts
    (Ctrl-C), the half-started cluster is closed here, so nothing is left for Dask's exit hook
    to trip over."""
    try:
        from distributed.deploy.spec import SpecCluster

        instances = SpecCluster._instances
    except (ImportError, AttributeError):  # pragma: no cover - another distributed
        instances = None
    before = set(instances) if instances is not None else set()
    try:
        return LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=":0",
                            silence_logs=logging.CRITICAL)
    except BaseException:
        # the workers' own start-up tasks fail with it: not worth a traceback on the way out
        logging.getLogger("asyncio").setLevel(logging.CRITICAL)
        for cluster in (set(instances) - before if instances is not None else ()):
            try:
                if isinstance(sys.exc_info()[1], KeyboardInterrupt):
                    _end_workers(cluster)
                cluster.close(timeout=1)
            except BaseException:  # noqa: BLE001 - half started: close what can be closed
                pass
            instances.discard(cluster)
        raise


def _ignore_sigint() -> bool:
    """Run on a worker of our own cluster (in its main thread): ignore SIGINT."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    return True


def _workers_leave_ctrl_c_to_the_driver(client: Any) -> None:
    """A terminal's Ctrl-C reaches every process of its group, the local cluster's workers
    too; each would die printing its own traceback while the driver closes the cluster. The
    workers of a cluster this census started ignore SIGINT: the driver answers it and closes
    them (a worker that cannot be told is left as it is)."""
    try:
        client.run(_ignore_sigint)
    except Exception:  # noqa: BLE001 - an old or odd worker: Ctrl-C still stops the driver
        pass


def _client(scheduler: Any, workers: int | None, say: Callable[[str], Any],
            connect_timeout: float = CONNECT_TIMEOUT) -> tuple[Any, Any, bool]:
    """``(client, cluster or None, owned)``: the client to use and whether we close it."""
    try:
        from distributed import Client
    except ImportError:
        raise CensusError("the census runs on dask.distributed, which is not installed: "
                          "pip install 'cgtalg[census]' (or pass scheduler='serial')") from None

    if scheduler is None:
        from distributed import LocalCluster

        n = workers or os.cpu_count() or 1
        say(f"census: starting a local Dask cluster of {n} worker(s)")
        cluster = _start_local_cluster(LocalCluster, n)
        try:
            client = Client(cluster)
            _workers_leave_ctrl_c_to_the_driver(client)
            return client, cluster, True
        except BaseException:
            cluster.close()
            raise
    if isinstance(scheduler, Client):
        return scheduler, None, False
    if isinstance(scheduler, str):
        text = scheduler if len(scheduler) <= 120 else scheduler[:117] + "..."
        say(f"census: connecting to the Dask scheduler at {text}")
        try:
            client = Client(scheduler, timeout=connect_timeout)
        except (OSError, TimeoutError) as exc:
            raise CensusError(f"cannot reach the Dask scheduler at {text} within {connect_timeout:g} s "
                              f"({' '.join(str(exc).split())[:200]}); is it running (dask scheduler), and is "
                              "the address right?") from None
        except (ValueError, TypeError) as exc:
            raise CensusError(f"{text} is not a Dask scheduler address such as tcp://HOST:8786 "
                              f"({' '.join(str(exc).split())[:200]})") from None
        if workers:
            say(f"census: waiting for {workers} worker(s)")
            client.wait_for_workers(workers, timeout=300)
        return client, None, True
    return Client(scheduler), None, True  # a cluster object


def _run_dask(fn: Callable[..., dict], params: Any, jobs: Sequence[CensusJob], store: Any, scheduler: Any,
              workers: int | None, take: Callable[[str, dict], None], errors: dict[str, str], deadline: Deadline,
              say: Callable[[str], Any], connect_timeout: float = CONNECT_TIMEOUT) -> tuple[int, str]:
    """Submit the jobs and take the classes as they come back. The driver looks at its budget
    (and lets Ctrl-C through) every :data:`POLL_SECONDS`; on a budget, Ctrl-C or any error
    the tasks not yet back are cancelled and the cluster it started is closed."""
    from distributed import as_completed

    client, cluster, owned = _client(scheduler, workers, say, connect_timeout)
    futures: dict = {}
    total, next_job = len(jobs), 0  # jobs[:next_job] submitted so far
    try:
        url = None if store is None else store.url
        stop_at = stop_at_of(deadline)
        width = max((len(extra) for _s, extra, _k in jobs), default=0)
        n_workers = _worker_count(client)
        window = _in_flight(n_workers)
        say(f"census: submitting {total:,} tasks to the cluster, at most {window:,} at a time")
        ready = as_completed()
        counted_at = time.monotonic()

        def submit(upto: int) -> None:
            nonlocal next_job
            batch = jobs[next_job:upto]
            columns = [[extra[i] for _s, extra, _k in batch] for i in range(width)]
            submitted = client.map(fn, [std for std, _e, _k in batch], [params] * len(batch), [url] * len(batch),
                                   *columns, [stop_at] * len(batch), key=[key for _s, _e, key in batch], pure=False)
            for fut, (std, _e, _k) in zip(submitted, batch):
                futures[fut] = std
                ready.add(fut)
            next_job = upto

        submit(min(total, window))
        while futures or next_job < total:
            deadline.check(f"the census ({next_job - len(futures):,} of {total:,} classes back and stored)")
            if next_job < total and time.monotonic() - counted_at >= WORKER_RECOUNT_SECONDS:
                n_workers, counted_at = _worker_count(client), time.monotonic()  # workers join and leave
                window = _in_flight(n_workers)
            if next_job < total and len(futures) <= window // 2:  # top the window up (or refill it)
                submit(min(total, next_job + window - len(futures)))  # > next_job: futures <= window/2
            if not ready.has_ready():
                time.sleep(POLL_SECONDS)  # the main thread sleeps: Ctrl-C and the budget are seen at once
                continue
            for fut in ready.next_batch(block=False):
                std = futures.pop(fut)
                try:
                    got = fut.result()
                except Exception as exc:  # noqa: BLE001 - KilledWorker, a task error: this class only
                    errors[std] = error_text(exc)
                    continue
                finally:
                    fut.release()
                take(std, got)
        address = client.scheduler.address if client.scheduler is not None else str(scheduler)
        return n_workers, address
    except (KeyboardInterrupt, ComputationLimitError) as exc:
        say(_stopping(exc, next_job - len(futures), total))
        raise
    finally:
        if futures and not owned:  # a cluster of ours is closed at once, its tasks with it
            try:
                client.cancel(list(futures), force=True)
            except Exception:  # noqa: BLE001 - the scheduler may be gone already
                pass
        if owned:  # a slow close must not replace the error (or the answer) of the run
            hurry = sys.exc_info()[0] is not None  # interrupted or stopped: the user is waiting
            # Ctrl-C, or another interruption that is not an error (SystemExit, a signal
            # handler's exception): the run is abandoned, its workers too
            stopped = sys.exc_info()[1]
            interrupted = stopped is not None and not isinstance(stopped, Exception)
            if interrupted and cluster is not None:
                _end_workers(cluster)  # Ctrl-C: within a second, not after the tasks' next look
            # after Ctrl-C the workers are dead already: closing waits only for the scheduler and
            # the nannies, so short timeouts keep the whole exit within a second
            for close, seconds in ((client.close, 0.2 if interrupted else 1 if hurry else 2),
                                   (cluster.close if cluster is not None else None,
                                    0.3 if interrupted else 2 if hurry else 10)):
                if close is None:
                    continue
                try:
                    close(timeout=seconds)
                except (OSError, TimeoutError, RuntimeError):  # a busy or gone cluster
                    pass


def _end_workers(cluster: Any) -> None:
    """End the worker processes of our local cluster at once (SIGKILL): after Ctrl-C their
    running tasks are abandoned anyway, and a graceful close waits for each to finish its
    current class. A task cut short in a store write leaves a transaction that SQLite rolls
    back (the journal) on the next open; what was committed stays and a rerun resumes."""
    import signal

    for nanny in list(getattr(cluster, "workers", {}).values()):
        pid = getattr(nanny, "pid", None)
        if isinstance(pid, int) and pid > 0:
            try:
                os.kill(pid, getattr(signal, "SIGKILL", signal.SIGTERM))
            except OSError:  # gone already
                pass


def _worker_count(client: Any) -> int:
    info = client.scheduler_info(n_workers=-1) if _accepts_n_workers(client) else client.scheduler_info()
    return len(info.get("workers", {}))


def _in_flight(n_workers: int) -> int:
    """How many tasks the driver keeps submitted at once: enough to keep every worker busy
    between two looks, few enough that the scheduler forgets them quickly when the run stops
    (a run that submitted all 132,921 classes of a 6-digit census at once spent over 10 s in
    the scheduler releasing them after Ctrl-C or its budget)."""
    return max(MIN_IN_FLIGHT, IN_FLIGHT_PER_WORKER * max(n_workers, 1))


def _accepts_n_workers(client: Any) -> bool:
    import inspect

    try:
        return "n_workers" in inspect.signature(client.scheduler_info).parameters
    except (TypeError, ValueError):  # pragma: no cover
        return False
