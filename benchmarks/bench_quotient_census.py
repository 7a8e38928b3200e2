"""Benchmark of the misère quotient census (issue 21, part 3), in one run:

1. codes/hour and classes/hour of the quotient census of every octal code of up to
   ``--digits`` digits (default 2: 63 codes, 41 classes) with a class budget of
   ``--time class=TIME`` (default 5 s; a plain ``--time`` bounds each census run), serially in this process and on a Dask ``LocalCluster`` with 2
   workers, each against a fresh SQLite store; cluster start-up is timed apart. Peak resident
   memory of the driver (and, for the cluster, of the workers) beside the time.
2. the rerun: the same census again on the filled store (every class re-checked and reused),
   which is what resuming an interrupted census costs per finished class.
3. the split of a class's time: classes settled (final) against unsettled (which spend their
   whole budget), from the records' ``seconds``.

    PYTHONPATH=. python benchmarks/bench_quotient_census.py                     # 2-digit codes, 5 s a class
    PYTHONPATH=. python benchmarks/bench_quotient_census.py --digits 3 --time class=10s

The full 3-digit census of the docs (docs/quotient_census.md) is the command given there.
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time


def _peak_mib() -> float:
    """Peak resident memory of this process (and of its waited-for children), MiB."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(own, kids) / 1024


def run(digits: int, class_time: float, workers: int | None, max_seconds: float | None = None) -> None:
    from cgtalg.census import quotient_census

    kw = dict(digits=digits, class_seconds=class_time, progress=False, max_seconds=max_seconds)
    with tempfile.TemporaryDirectory() as tmp:
        for label, sched in (("serial, in-process", "serial"), (f"LocalCluster, {workers} workers", None)):
            path = os.path.join(tmp, f"{sched or 'dask'}.sqlite")
            client = cluster = None
            start = 0.0
            if sched is None:
                from distributed import Client, LocalCluster

                t = time.perf_counter()
                cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                       dashboard_address=":0", silence_logs=50)
                client = Client(cluster)
                start = time.perf_counter() - t
            try:
                t = time.perf_counter()
                r = quotient_census(scheduler=client or sched, store=path, **kw)
                dt = time.perf_counter() - t
                t = time.perf_counter()
                again = quotient_census(scheduler=client or sched, store=path, **kw)
                rerun = time.perf_counter() - t
                worker_mem = None
                if client is not None:
                    mem = client.run(lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
                    worker_mem = max(mem.values())
            finally:
                if client is not None:
                    client.close()
                    cluster.close()
            c = r.counts()
            assert r.failed == 0 and again.skipped == c["classes"], (r.errors, again.summary())
            secs = [rec.get("seconds") or 0 for rec in r.records.values()]
            settled = [rec.get("seconds") or 0 for rec in r.records.values() if rec.get("status") == "final"]
            print(f"{label}: {dt:.1f} s for {c['codes']} codes / {c['classes']} classes = "
                  f"{c['codes'] / dt * 3600:,.0f} codes/h, {c['classes'] / dt * 3600:,.0f} classes/h"
                  + (f" (cluster start-up {start:.1f} s not counted)" if start else ""))
            print(f"  {r.summary()}")
            print(f"  class time: {sum(secs):.1f} s in all, settled classes {sum(settled):.1f} s "
                  f"({len(settled)} classes), unsettled {sum(secs) - sum(settled):.1f} s")
            print(f"  rerun (every class re-checked and reused): {rerun:.1f} s "
                  f"({rerun / max(c['classes'], 1) * 1000:.0f} ms a class)")
            print(f"  peak memory: driver {_peak_mib():.0f} MiB"
                  + (f", largest worker {worker_mem:.0f} MiB" if worker_mem else ""))


def main(argv: list[str] | None = None) -> None:
    from cgtalg.cli.common import TimePart, add_time_arguments, resolve_time_arguments

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--digits", type=int, default=2)
    add_time_arguments(
        ap, TimePart(None, "max_seconds", None, "the budget of each census run"),
        TimePart("class", "class_time", 5.0, "the budget of one class", ("--class-time",)))
    ap.add_argument("--workers", type=int, default=2)
    args = resolve_time_arguments(ap, ap.parse_args(argv))
    run(args.digits, args.class_time, args.workers, args.max_seconds)


if __name__ == "__main__":
    main()
