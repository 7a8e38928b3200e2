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
import os
import sys
import time
from typing import Any, Callable, Iterable

from cgtalg.census.codes import CensusClass, census_classes, enumerate_codes
from cgtalg.census.table import CensusResult, member_row
from cgtalg.census.tasks import CENSUS_RULESET, CensusParams, compute_class, store_items, stored_parts
from cgtalg.errors import CensusError

__all__ = ["octal_census", "DEFAULT_BATCH"]

#: Class records per store transaction (also flushed every ``flush_seconds``).
DEFAULT_BATCH = 32


def _task_key(std: str, params: CensusParams, need: tuple[str, ...]) -> str:
    digest = hashlib.sha256(json.dumps([std, params.to_json(), list(need)], sort_keys=True).encode()).hexdigest()
    return f"cgtalg-census-{std}-{digest[:16]}"


def _open_store(store: Any) -> Any:
    if store is None or store is False:
        return None
    if isinstance(store, (str, os.PathLike)):
        from cgtalg.store.store import open_store

        return open_store(store)
    return store


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

    Returns
    -------
    CensusResult
        The table (:attr:`~cgtalg.census.CensusResult.rows`) and the class records.

    Raises
    ------
    CensusError
        For bad bounds, or an in-memory store with Dask workers (they cannot share it).

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
        raise CensusError(f"batch_size must be a positive int, got {batch_size!r}")
    if codes is None:
        code_list = enumerate_codes(digits, hexadecimal, d0)
    else:
        code_list = list(codes)
        digits = None
    classes = census_classes(code_list)
    st = _open_store(store)
    serial = isinstance(scheduler, str) and scheduler == "serial"
    if st is not None and not serial:
        from cgtalg.store.location import sqlite_file

        if st._url.get_backend_name() == "sqlite" and sqlite_file(st._url) is None:
            raise CensusError("an in-memory store cannot be shared with Dask workers: pass a SQLite file or a "
                              "PostgreSQL URL, or scheduler='serial'")

    # what the store holds
    records: dict[str, dict] = {}
    from_store: set[str] = set()
    jobs: list[tuple[CensusClass, tuple[str, ...]]] = []
    held: dict[str, dict] = {}
    if st is not None:
        props = st.get_positions_many(CENSUS_RULESET, [c.standard for c in classes])
        for c in classes:
            held[c.standard] = stored_parts(props[c.standard], params)
    for c in classes:
        have = held.get(c.standard, {})
        need = tuple(p for p in params.parts if p not in have)
        records[c.standard] = dict(have, standard=c.standard)
        if need:
            jobs.append((c, need))
        else:
            from_store.add(c.standard)

    writer = _BatchWriter(st, params, batch_size, flush_seconds)
    errors: dict[str, str] = {}
    bar = _bar(progress, len(jobs))

    def arrived(std: str, got: dict) -> None:
        rec = records[std]
        for part in params.parts:
            if part in got:
                rec[part] = got[part]
        rec.setdefault("seconds", {}).update(got.get("seconds", {}))
        if "worker" in got:
            rec["worker"] = got["worker"]
        writer.add(std, got)
        if bar is not None:
            bar.update(1)
        if on_result is not None:
            on_result(std, rec)

    n_workers = 0
    address = "serial"
    try:
        if serial:
            for c, need in jobs:
                try:
                    got = compute_class(c.standard, params, st, need)
                except Exception as exc:  # noqa: BLE001 - one class failing must not stop the census
                    errors[c.standard] = f"{type(exc).__name__}: {exc}"
                    continue
                arrived(c.standard, got)
        elif jobs:
            n_workers, address = _run_dask(jobs, params, st, scheduler, workers, arrived, errors)
        else:
            address = str(scheduler) if isinstance(scheduler, str) else "none needed"
    finally:
        try:
            writer.flush()
        finally:
            if bar is not None:
                bar.close()
    errors.update(writer.errors)
    for std, err in errors.items():
        records[std]["error"] = err

    rows = []
    for c in classes:
        rec = records[c.standard]
        ok = all(p in rec for p in params.parts) and "error" not in rec
        for code, shift in c.members:
            rows.append(member_row(code, shift, c.codes, c.standard, rec if ok or "normal" in rec else None,
                                   from_store=c.standard in from_store))
    from cgtalg.census.codes import code_sort_key

    rows.sort(key=lambda r: code_sort_key(r.code))
    return CensusResult(
        rows=rows, records=records, params=params, digits=digits, hexadecimal=hexadecimal,
        computed=len(jobs) - len(errors), skipped=len(from_store), failed=len(errors),
        seconds=time.perf_counter() - t0, workers=n_workers, scheduler=address, store=st, errors=errors,
        batches=writer.transactions,
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
        self.transactions = 0

    def add(self, std: str, got: dict) -> None:
        if self.store is None:
            return
        items = store_items(std, got, self.params)
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
                    self.errors[std] = f"StoreError: {exc}"


def _bar(progress: bool | None, total: int) -> Any:
    show = progress if progress is not None else (total > 1 and sys.stderr.isatty())
    if not show:
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, desc="census", unit="class")


def _client(scheduler: Any, workers: int | None) -> tuple[Any, Any, bool]:
    """``(client, cluster or None, owned)``: the client to use and whether we close it."""
    try:
        from distributed import Client
    except ImportError:
        raise CensusError("the census runs on dask.distributed, which is not installed: "
                          "pip install 'cgtalg[census]' (or pass scheduler='serial')") from None

    if scheduler is None:
        from distributed import LocalCluster

        n = workers or os.cpu_count() or 1
        cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=":0",
                               silence_logs=40)
        return Client(cluster), cluster, True
    if isinstance(scheduler, Client):
        return scheduler, None, False
    if isinstance(scheduler, str):
        client = Client(scheduler)
        if workers:
            client.wait_for_workers(workers, timeout=300)
        return client, None, True
    return Client(scheduler), None, True  # a cluster object


def _run_dask(jobs: list, params: CensusParams, store: Any, scheduler: Any, workers: int | None,
              arrived: Callable[[str, dict], None], errors: dict[str, str]) -> tuple[int, str]:
    from distributed import as_completed

    client, cluster, owned = _client(scheduler, workers)
    try:
        url = None if store is None else store.url
        futures = {}
        for c, need in jobs:
            fut = client.submit(compute_class, c.standard, params, url, need,
                                key=_task_key(c.standard, params, need), pure=False)
            futures[fut] = c.standard
        n_workers = len(client.scheduler_info(n_workers=-1).get("workers", {})) if _accepts_n_workers(client) \
            else len(client.scheduler_info().get("workers", {}))
        for fut in as_completed(list(futures)):
            std = futures[fut]
            try:
                got = fut.result()
            except Exception as exc:  # noqa: BLE001 - KilledWorker, a task error: this class only
                errors[std] = f"{type(exc).__name__}: {exc}"
                continue
            finally:
                fut.release()
            arrived(std, got)
        address = client.scheduler.address if client.scheduler is not None else str(scheduler)
        return n_workers, address
    finally:
        if owned:
            client.close()
            if cluster is not None:
                cluster.close()


def _accepts_n_workers(client: Any) -> bool:
    import inspect

    try:
        return "n_workers" in inspect.signature(client.scheduler_info).parameters
    except (TypeError, ValueError):  # pragma: no cover
        return False
