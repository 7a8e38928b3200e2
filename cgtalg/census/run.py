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

import time
from typing import Any, Callable, Iterable

from cgtalg.budget import Deadline, check_fits
from cgtalg.census.driver import (CONNECT_TIMEOUT, DEFAULT_BATCH, BatchWriter, run_census_jobs, start_census,
                                  stored_properties, task_key)
from cgtalg.census.recheck import COMPUTED, RECHECKED
from cgtalg.census.table import CensusResult, member_row
from cgtalg.census.tasks import CENSUS_RULESET, CensusParams, compute_class, store_items, stored_parts

__all__ = ["octal_census", "BYTES_PER_VALUE"]

#: Bytes per Grundy value of one class (the values and the certificate's scan table,
#: :func:`cgtalg.rulesets.heaps.octal_periodicity.periodicity_memory_estimate`: 1-2 bytes a value, 4
#: for the table; with room for the rare/common kernel's lists).
BYTES_PER_VALUE = 8


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
    deadline, say, classes, digits, st = start_census(
        digits, hexadecimal, d0, codes, store, scheduler, workers, flush_seconds, on_result, connect_timeout,
        batch_size, max_seconds, max_memory, log, fits=lambda deadline: _check_class_fits(params, deadline))

    # what the store holds: every part read back is re-checked by the class's task
    records: dict[str, dict] = {}
    jobs: list[tuple[str, tuple, str]] = []
    props = stored_properties(st, CENSUS_RULESET, classes, say)
    held: dict[str, dict] = {c.standard: stored_parts(props[c.standard], params) for c in classes} if st is not None \
        else {}
    for c in classes:
        have = held.get(c.standard, {})
        need = tuple(p for p in params.parts if p not in have)
        records[c.standard] = {"standard": c.standard}
        jobs.append((c.standard, (need, have), task_key("census", c.standard, params.to_json(), list(need), have)))
    deadline.check("the census (before any class was computed)")

    writer = BatchWriter(st, lambda std, got: store_items(std, got, params), batch_size, flush_seconds)
    sources: dict[str, str] = {}
    rechecks: dict[str, dict[str, str]] = {}
    warned: list[str] = []

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
        if on_result is not None:
            on_result(std, rec)

    # compute_class is looked up here, at call time (tests replace it)
    n_workers, address, errors = run_census_jobs(compute_class, params, jobs, st, scheduler, workers, arrived,
                                                 writer, deadline, say, progress, connect_timeout)
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
