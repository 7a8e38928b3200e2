"""The census driver: classes to tasks on Dask, results to the store in batches.

:func:`octal_census` enumerates the codes, groups them by standard form
(:mod:`cgtalg.census.codes`), reads what the store already holds for each class, submits one
task per class that still needs work (:func:`cgtalg.census.tasks.compute_class`) to a
``dask.distributed`` cluster, and writes the class records to the store as they come back,
in batches (one transaction per batch, :meth:`~cgtalg.store.Store.put_positions_many`).

- **Resumable, idempotent.** A rerun reads the records and skips those classes; a task
  resumes its Grundy sequence from the prefix the store holds (written in batches while it
  is computed). Records depend on the class and the bounds only, and the store is
  write-once, so two censuses over overlapping codes (or a task that ran twice) write each
  result once. Task keys are a hash of the class and the bounds: two censuses on one
  scheduler share the task.
- **Failures.** A killed worker loses only the task it was running: Dask runs it again on
  another worker (``distributed.scheduler.allowed-failures`` times, 3 by default). A task that
  keeps failing marks its class ``failed`` (its rows too); the others go on, and a rerun
  tries it again. A killed driver loses at most the records of its last unwritten batch
  (their sequences are in the store: a rerun certifies them again quickly).
- **Clusters.** ``scheduler=None`` starts a ``LocalCluster`` (one process per worker, one
  thread each); ``scheduler="tcp://HOST:8786"`` uses a running scheduler (every worker must
  reach the store: use a PostgreSQL URL, see ``docs/census.md``); ``scheduler="serial"``
  runs the tasks in this process without Dask.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sys
import time
from typing import Any, Callable, Iterable

from cgtalg.budget import Deadline, check_fits, check_max_seconds
from cgtalg.census.codes import CensusClass, census_classes, count_codes, enumerate_codes
from cgtalg.census.recheck import COMPUTED, RECHECKED
from cgtalg.census.table import CensusResult, member_row
from cgtalg.census.tasks import CENSUS_RULESET, CensusParams, compute_class, store_items, stored_parts
from cgtalg.errors import BudgetError, CensusError, ComputationLimitError

__all__ = ["octal_census", "DEFAULT_BATCH", "CONNECT_TIMEOUT", "check_census_fits", "BYTES_PER_CODE",
           "SECONDS_PER_CODE"]

#: Class records per store transaction (also flushed every ``flush_seconds``).
DEFAULT_BATCH = 32
#: Seconds to reach a Dask scheduler given by its address.
CONNECT_TIMEOUT = 3.0
#: Driver memory per code of a census (the code, its class, its record and its row; measured
#: about 850 bytes for the code and its class on 5-digit censuses, records and rows beside).
BYTES_PER_CODE = 4096
#: Driver time per code that no census can go below (enumeration and standard forms: about
#: 65 µs measured on a 2-core machine, taken at a third as a lower bound).
SECONDS_PER_CODE = 20e-6
#: Bytes per Grundy value of one class (the values and the certificate's scan table,
#: :func:`cgtalg.rulesets.octal_periodicity.periodicity_memory_estimate`: 1-2 bytes a value, 4
#: for the table; with room for the rare/common kernel's lists).
BYTES_PER_VALUE = 8
#: Seconds between two progress lines (``log``) when there is no progress bar.
PROGRESS_SECONDS = 10.0
#: Seconds between two looks of the driver at its budget (and at Ctrl-C) while Dask computes.
POLL_SECONDS = 0.1


def _shown(value: Any, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _error_text(exc: BaseException, limit: int = 600) -> str:
    text = f"{type(exc).__name__}: {' '.join(str(exc).split())}"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _stop_at(deadline: Deadline) -> float | None:
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


def _task_key(std: str, params: CensusParams, need: tuple[str, ...], reuse: dict | None = None) -> str:
    digest = hashlib.sha256(json.dumps([std, params.to_json(), list(need), reuse or {}], sort_keys=True,
                                       default=str).encode()).hexdigest()
    return f"cgtalg-census-{std}-{digest[:16]}"


def _open_store(store: Any) -> Any:
    if store is None or store is False:
        return None
    if isinstance(store, (str, os.PathLike)):
        from cgtalg.store.store import open_store

        return open_store(store)
    if not all(callable(getattr(store, m, None)) for m in ("get_positions_many", "put_positions_many")):
        raise CensusError(f"store must be a store, its URL or None, not {type(store).__name__}")
    return store


def _check_arguments(workers: Any, scheduler: Any, flush_seconds: Any, on_result: Any, connect_timeout: Any) -> None:
    """Refuse arguments of :func:`octal_census` that are not what they should be, by name."""
    import numbers

    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, numbers.Integral)
                                or workers < 1):
        raise CensusError(f"workers must be a positive integer or None, got {_shown(workers)}")
    if scheduler is not None and isinstance(scheduler, (bytes, numbers.Number, list, tuple, dict, set)):
        raise CensusError(f"scheduler must be None, 'serial', an address such as tcp://HOST:8786, a "
                          f"distributed.Client or a cluster, not {_shown(scheduler)}")
    if isinstance(flush_seconds, bool) or not isinstance(flush_seconds, numbers.Real) \
            or not flush_seconds >= 0 or flush_seconds == float("inf"):
        raise CensusError(f"flush_seconds must be a non-negative number of seconds, got {_shown(flush_seconds)}")
    if on_result is not None and not callable(on_result):
        raise CensusError(f"on_result must be callable or None, not {type(on_result).__name__}")
    try:
        if check_max_seconds(connect_timeout, "connect_timeout") is None:
            raise BudgetError("connect_timeout must be a positive number of seconds, not None")
    except BudgetError as exc:
        raise CensusError(str(exc)) from None


def _check_class_fits(params: CensusParams, deadline: Deadline) -> None:
    """Refuse up front bounds that one class cannot fit: ``values`` Grundy values with the
    certificate's scan table take about :data:`BYTES_PER_VALUE` bytes each."""
    check_fits(int(params.values) * BYTES_PER_VALUE,
               f"one class of the census (values={params.values:,} Grundy values)", deadline.max_memory)


def octal_census(
    digits: int = 3,
    values: int = 2**20,
    hexadecimal: bool = False,
    scheduler: Any = None,
    store: Any = None,
    workers: int | None = None,
    *,
    codes: Iterable[str] | None = None,
    d0: int = 0,
    misere: bool = True,
    dense_values: int = 2**16,
    three_heap_values: int = 2**11,
    genus_heaps: int = 24,
    quotient_heaps: int = 12,
    quotient_max_order: int = 256,
    quotient_max_states: int = 200_000,
    quotient_max_seconds: float = 10.0,
    quotient_seconds: float | None = None,
    batch_size: int = DEFAULT_BATCH,
    flush_seconds: float = 5.0,
    progress: bool | None = None,
    on_result: Callable[[str, dict], Any] | None = None,
    max_seconds: float | None = None,
    max_memory: Any = None,
    log: Callable[[str], Any] | None = None,
    connect_timeout: float = CONNECT_TIMEOUT,
) -> CensusResult:
    """A census of octal (or hexadecimal) games: every code of up to ``digits`` digits.

    Parameters
    ----------
    digits : int
        Codes ``0.d1...dj`` with ``j <= digits`` (:func:`~cgtalg.census.enumerate_codes`).
    values : int
        Grundy values per class when no period is certified first (``2**20``).
    hexadecimal : bool
        Hexadecimal digits ``0-F`` (moves may leave three heaps).
    scheduler : None, str, distributed.Client or cluster
        ``None``: a ``LocalCluster`` with ``workers`` processes (default: one per CPU);
        ``"tcp://HOST:8786"``: that scheduler; ``"serial"``: no Dask, in this process; a
        ``Client`` or a cluster object: that one (left running).
    store : Store, str or None
        The store (or its URL): records are read from and written to it, Grundy sequences
        too; ``None`` computes without a store (nothing is kept). Workers on other machines
        need a URL they can reach (PostgreSQL).
    workers : int, optional
        Workers of the ``LocalCluster`` (with a scheduler address: wait for this many).
    d0 : int
        ``0`` (codes ``0.xyz``, the default) or ``4`` (codes ``4.xyz``, splitting without
        taking allowed; :func:`~cgtalg.census.enumerate_codes`).
    codes : iterable of str, optional
        These codes instead of the enumeration (``digits`` is then only a label).
    misere : bool
        Also the misère genus tail and the misère-quotient attempt.
    dense_values, three_heap_values, genus_heaps, quotient_heaps, quotient_max_order, \
quotient_max_states, quotient_max_seconds
        Bounds of one class (:class:`~cgtalg.census.tasks.CensusParams`).
    quotient_seconds : float, optional
        Deprecated spelling of ``quotient_max_seconds`` (kept for one release).
    batch_size, flush_seconds : int, float
        Class records per store transaction, and the longest wait before a partial batch
        is written.
    progress : bool or None
        A tqdm bar over classes (``None``: on a terminal).
    on_result : callable, optional
        ``on_result(standard, record)`` in the driver after each class arrives.
    max_seconds : float, optional
        Time budget of the whole census: past it the classes not yet back are cancelled, the
        records that came back are written, and :class:`~cgtalg.errors.ComputationLimitError`
        is raised (a rerun goes on from the store). A census whose codes alone cannot be
        enumerated in it is refused before any work.
    max_memory : int or str, optional
        Memory ceiling of the driver (default :func:`cgtalg.budget.default_max_memory`): a
        census whose table cannot fit is refused up front (:func:`cgtalg.budget.check_fits`),
        and the driver stops past it.
    log : callable, optional
        ``log(text)`` with what the census is doing (enumerating, reading the store, starting
        the cluster), from the start; the command line prints it on stderr.
    connect_timeout : float
        Seconds to reach a scheduler given by address (a :class:`~cgtalg.errors.CensusError`
        naming it past them).

    Returns
    -------
    CensusResult
        The table (:attr:`~cgtalg.census.CensusResult.rows`) and the class records.

    Every class record read back from the store is re-checked before it is used
    (:mod:`cgtalg.census.recheck`); a row's ``source`` says ``computed`` or ``reused,
    re-checked``, and a record that fails its re-check is computed again and reported
    (:attr:`~cgtalg.census.CensusResult.rechecks`, the summary, and a warning).

    Raises
    ------
    CensusError
        For bad bounds, an in-memory store with Dask workers (they cannot share it), or a
        scheduler that cannot be reached.
    ComputationLimitError
        For a census that cannot fit ``max_seconds`` or ``max_memory`` (refused up front), or
        that runs past them (what came back is stored).

    Examples
    --------
    >>> r = octal_census(digits=1, values=2**10, scheduler="serial", misere=False)
    >>> r.counts()["codes"], r.row("0.6").result, r.row("0.7").period
    (7, 'unsolved to 1,025', 2)
    """
    t0 = time.perf_counter()
    if quotient_seconds is not None:
        import warnings

        warnings.warn("octal_census(quotient_seconds=...) is deprecated: pass quotient_max_seconds=...",
                      DeprecationWarning, stacklevel=2)
        quotient_max_seconds = quotient_seconds
    params = CensusParams(
        values=values, dense_values=dense_values, three_heap_values=three_heap_values, misere=misere,
        genus_heaps=genus_heaps, quotient_heaps=quotient_heaps, quotient_max_order=quotient_max_order,
        quotient_max_states=quotient_max_states, quotient_max_seconds=quotient_max_seconds,
    )
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise CensusError(f"batch_size must be a positive int, got {_shown(batch_size)}")
    _check_arguments(workers, scheduler, flush_seconds, on_result, connect_timeout)
    try:
        deadline = Deadline(max_seconds, max_memory)
    except BudgetError as exc:
        raise CensusError(str(exc)) from None
    _check_class_fits(params, deadline)
    say = log if log is not None else (lambda _text: None)
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
    classes = census_classes(code_list, deadline=deadline)
    st = _open_store(store)
    serial = isinstance(scheduler, str) and scheduler == "serial"
    if st is not None and not serial:
        from sqlalchemy.engine import make_url

        from cgtalg.store.location import sqlite_file

        url = make_url(str(getattr(st, "url", "")) or "sqlite://")
        if url.get_backend_name() == "sqlite" and sqlite_file(url) is None:
            raise CensusError("an in-memory store cannot be shared with Dask workers: pass a SQLite file or a "
                              "PostgreSQL URL, or scheduler='serial'")

    # what the store holds: every part read back is re-checked by the class's task
    records: dict[str, dict] = {}
    jobs: list[tuple[CensusClass, tuple[str, ...], dict]] = []
    held: dict[str, dict] = {}
    if st is not None:
        say(f"census: reading what the store holds for {len(classes):,} classes")
        props = st.get_positions_many(CENSUS_RULESET, [c.standard for c in classes])
        for c in classes:
            held[c.standard] = stored_parts(props[c.standard], params)
    for c in classes:
        have = held.get(c.standard, {})
        need = tuple(p for p in params.parts if p not in have)
        records[c.standard] = {"standard": c.standard}
        jobs.append((c, need, have))
    deadline.check("the census (before any class was computed)")

    writer = _BatchWriter(st, params, batch_size, flush_seconds)
    errors: dict[str, str] = {}
    sources: dict[str, str] = {}
    rechecks: dict[str, dict[str, str]] = {}
    warned: list[str] = []
    bar = _bar(progress, len(jobs))
    last_said = [time.monotonic()]
    if bar is None and jobs:
        say(f"census: {len(jobs):,} classes to compute or re-check")

    def arrived(std: str, got: dict) -> None:
        rec = records[std]
        for part in params.parts:
            if part in got:
                rec[part] = got[part]
        rec.setdefault("seconds", {}).update(got.get("seconds", {}))
        if "worker" in got:
            rec["worker"] = got["worker"]
        source = got.get("source", {})
        sources[std] = COMPUTED if any(v == COMPUTED for v in source.values()) or not source else RECHECKED
        if got.get("rechecks"):
            rechecks[std] = dict(got["rechecks"])
            say(f"census: {std}: " + "; ".join(f"the stored {p} record failed its re-check ({why}); recomputed"
                                               for p, why in got["rechecks"].items()))
        writer.add(std, got, replacing=bool(got.get("rechecks")))
        if bar is not None:
            bar.update(1)
        elif time.monotonic() - last_said[0] >= PROGRESS_SECONDS:
            last_said[0] = time.monotonic()
            say(f"census: {len(sources):,} of {len(jobs):,} classes done")
        if on_result is not None:
            on_result(std, rec)

    n_workers = 0
    address = "serial"
    try:
        if serial:
            for c, need, have in jobs:
                what = f"the census ({len(sources):,} of {len(jobs):,} classes done and stored)"
                deadline.check(what)
                try:
                    got = compute_class(c.standard, params, st, need, have, _stop_at(deadline))
                except Exception as exc:  # noqa: BLE001 - one class failing must not stop the census
                    if isinstance(exc, ComputationLimitError) and deadline.expired():
                        deadline.check(what)  # the census's budget: stop here, with its message
                    errors[c.standard] = _error_text(exc)
                    continue
                arrived(c.standard, got)
        elif jobs:
            n_workers, address = _run_dask(jobs, params, st, scheduler, workers, arrived, errors, deadline,
                                           say, connect_timeout)
        else:
            address = str(scheduler) if isinstance(scheduler, str) else "none needed"
    except (KeyboardInterrupt, ComputationLimitError) as exc:
        if bar is not None:
            bar.close()
            bar = None
        if serial:
            say(_stopping(exc, len(sources), len(jobs)))
        raise
    finally:
        try:
            writer.flush()
        finally:
            if bar is not None:
                bar.close()
    errors.update(writer.errors)
    for std, err in errors.items():
        records[std]["error"] = err
    warned.extend(writer.warnings)
    if rechecks:
        import warnings

        first = ", ".join(list(rechecks)[:5]) + (", ..." if len(rechecks) > 5 else "")
        warnings.warn(f"census: {len(rechecks)} class record(s) read from the store failed their re-check and "
                      f"were recomputed ({first}); see CensusResult.rechecks", RuntimeWarning, stacklevel=2)

    rows = []
    for c in classes:
        rec = records[c.standard]
        ok = all(p in rec for p in params.parts) and "error" not in rec
        for code, shift in c.members:
            rows.append(member_row(code, shift, c.codes, c.standard, rec if ok or "normal" in rec else None,
                                   source=sources.get(c.standard) if "error" not in rec else None))
    from cgtalg.census.codes import code_sort_key

    rows.sort(key=lambda r: code_sort_key(r.code))
    reused = sum(1 for v in sources.values() if v == RECHECKED)
    return CensusResult(
        rows=rows, records=records, params=params, digits=digits, hexadecimal=hexadecimal,
        computed=len(jobs) - len(errors) - reused, skipped=reused, failed=len(errors),
        seconds=time.perf_counter() - t0, workers=n_workers, scheduler=address, store=st, errors=errors,
        batches=writer.transactions, rechecks=rechecks, warnings=warned,
    )


class _BatchWriter:
    """Class records to the store, ``batch_size`` classes per transaction (or every
    ``flush_seconds``); a batch that fails is retried class by class, so one bad record
    (a conflict with a stored value) does not lose the others."""

    def __init__(self, store: Any, params: CensusParams, batch_size: int, flush_seconds: float) -> None:
        self.store, self.params = store, params
        self.batch_size, self.flush_seconds = batch_size, flush_seconds
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
        items = store_items(std, got, self.params)
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
                        self.errors[std] = _error_text(exc)
                        continue
                    try:
                        # the stored record failed its re-check: repair it in place
                        self.store.put_positions_many(items, replace=True)
                        self.transactions += 1
                    except StoreError as why:
                        self.warnings.append(
                            f"{std}: the store keeps the record that failed its re-check (it could not be "
                            f"replaced; the record computed now is shown): {' '.join(str(why).split())[:300]}")


def _bar(progress: bool | None, total: int) -> Any:
    show = progress if progress is not None else (total > 1 and sys.stderr.isatty())
    if not show:
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, desc="census", unit="class")


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
                cluster.close(timeout=5)
            except BaseException:  # noqa: BLE001 - half started: close what can be closed
                pass
            instances.discard(cluster)
        raise


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
            return Client(cluster), cluster, True
        except BaseException:
            cluster.close()
            raise
    if isinstance(scheduler, Client):
        return scheduler, None, False
    if isinstance(scheduler, str):
        shown = scheduler if len(scheduler) <= 120 else scheduler[:117] + "..."
        say(f"census: connecting to the Dask scheduler at {shown}")
        try:
            client = Client(scheduler, timeout=connect_timeout)
        except (OSError, TimeoutError) as exc:
            raise CensusError(f"cannot reach the Dask scheduler at {shown} within {connect_timeout:g} s "
                              f"({' '.join(str(exc).split())[:200]}); is it running (dask scheduler), and is "
                              "the address right?") from None
        except (ValueError, TypeError) as exc:
            raise CensusError(f"{shown} is not a Dask scheduler address such as tcp://HOST:8786 "
                              f"({' '.join(str(exc).split())[:200]})") from None
        if workers:
            say(f"census: waiting for {workers} worker(s)")
            client.wait_for_workers(workers, timeout=300)
        return client, None, True
    return Client(scheduler), None, True  # a cluster object


def _run_dask(jobs: list, params: CensusParams, store: Any, scheduler: Any, workers: int | None,
              arrived: Callable[[str, dict], None], errors: dict[str, str], deadline: Deadline,
              say: Callable[[str], Any], connect_timeout: float = CONNECT_TIMEOUT) -> tuple[int, str]:
    """Submit the jobs and take the classes as they come back. The driver looks at its budget
    (and lets Ctrl-C through) every :data:`POLL_SECONDS`; on a budget, Ctrl-C or any error
    the tasks not yet back are cancelled and the cluster it started is closed."""
    from distributed import as_completed

    client, cluster, owned = _client(scheduler, workers, say, connect_timeout)
    futures: dict = {}
    total = len(jobs)
    try:
        url = None if store is None else store.url
        say(f"census: submitting {total:,} tasks to the cluster")
        stop_at = _stop_at(deadline)
        submitted = client.map(compute_class, [c.standard for c, _n, _h in jobs], [params] * total, [url] * total,
                               [need for _c, need, _h in jobs], [have for _c, _n, have in jobs], [stop_at] * total,
                               key=[_task_key(c.standard, params, need, have) for c, need, have in jobs], pure=False)
        futures = {fut: c.standard for fut, (c, _n, _h) in zip(submitted, jobs)}
        n_workers = len(client.scheduler_info(n_workers=-1).get("workers", {})) if _accepts_n_workers(client) \
            else len(client.scheduler_info().get("workers", {}))
        ready = as_completed(list(futures))
        while futures:
            deadline.check(f"the census ({total - len(futures):,} of {total:,} classes back and stored)")
            if not ready.has_ready():
                time.sleep(POLL_SECONDS)  # the main thread sleeps: Ctrl-C and the budget are seen at once
                continue
            for fut in ready.next_batch(block=False):
                std = futures.pop(fut)
                try:
                    got = fut.result()
                except Exception as exc:  # noqa: BLE001 - KilledWorker, a task error: this class only
                    errors[std] = _error_text(exc)
                    continue
                finally:
                    fut.release()
                arrived(std, got)
        address = client.scheduler.address if client.scheduler is not None else str(scheduler)
        return n_workers, address
    except (KeyboardInterrupt, ComputationLimitError) as exc:
        say(_stopping(exc, total - len(futures), total))
        raise
    finally:
        if futures and not owned:  # a cluster of ours is closed at once, its tasks with it
            try:
                client.cancel(list(futures), force=True)
            except Exception:  # noqa: BLE001 - the scheduler may be gone already
                pass
        if owned:  # a slow close must not replace the error (or the answer) of the run
            hurry = sys.exc_info()[0] is not None  # interrupted or stopped: the user is waiting
            for close, seconds in ((client.close, 1 if hurry else 2),
                                   (cluster.close if cluster is not None else None, 2 if hurry else 10)):
                if close is None:
                    continue
                try:
                    close(timeout=seconds)
                except (OSError, TimeoutError, RuntimeError):  # a busy or gone cluster
                    pass


def _accepts_n_workers(client: Any) -> bool:
    import inspect

    try:
        return "n_workers" in inspect.signature(client.scheduler_info).parameters
    except (TypeError, ValueError):  # pragma: no cover
        return False
