"""Benchmark of the octal census (issue 12), in one run:

1. codes/hour of a census of every 3-digit octal code (511 codes, their classes by standard
   form) to 2^16 values, on a Dask ``LocalCluster`` with 1 and with 2 workers, each against
   a fresh SQLite store; the baseline is the same census run serially in this process
   (``scheduler="serial"``, no Dask). Cluster start-up is timed apart.
2. the store's write rate, batched against unbatched: Grundy values (``extend_sequence``
   with 2^16 values per call against one value per call) and census records
   (``put_positions_many`` in batches of 32 against ``put_position`` one at a time), on
   SQLite and, with ``CGTALG_TEST_POSTGRES_URL`` set, on PostgreSQL.

    python benchmarks/bench_census.py                # the full run (several minutes)
    python benchmarks/bench_census.py --quick        # 2-digit codes, fewer writes
    python benchmarks/bench_census.py --misere       # with the genus tail and quotient attempt

Misère parts are off by default: the figure asked for is the normal-play census.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
import uuid

import numpy as np


def census_rate(digits: int, values: int, misere: bool) -> list[tuple[str, float, float, int, int]]:
    """(label, seconds, codes/hour, codes, classes) for serial, 1 and 2 workers."""
    from distributed import Client, LocalCluster

    from cgtalg.census import octal_census

    rows = []
    kw = dict(digits=digits, values=values, misere=misere, progress=False)
    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        r = octal_census(scheduler="serial", store=os.path.join(tmp, "serial.sqlite"), **kw)
        dt = time.perf_counter() - t
        codes, classes = r.counts()["codes"], r.counts()["classes"]
        rows.append(("serial, in-process (baseline)", dt, codes / dt * 3600, codes, classes))
        print(f"  serial: {dt:.1f} s ({r.summary()})", flush=True)
        for n in (1, 2):
            t = time.perf_counter()
            cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=":0",
                                   silence_logs=50)
            client = Client(cluster)
            start = time.perf_counter() - t
            try:
                t = time.perf_counter()
                r = octal_census(scheduler=client, store=os.path.join(tmp, f"w{n}.sqlite"), **kw)
                dt = time.perf_counter() - t
            finally:
                client.close()
                cluster.close()
            assert r.failed == 0, r.errors
            rows.append((f"LocalCluster, {n} worker(s) (start-up {start:.1f} s not counted)", dt,
                         codes / dt * 3600, codes, classes))
            print(f"  {n} worker(s): {dt:.1f} s + {start:.1f} s start-up", flush=True)
    return rows


def write_rates(url: str, label: str, n_single: int) -> list[tuple[str, float, float]]:
    """(what, batched values/s, unbatched values/s)."""
    from cgtalg.store import open_store

    out = []
    store = open_store(url)
    try:
        big = (np.arange(1 << 20) * 31) % 1009
        t = time.perf_counter()
        for start in range(0, big.size, 1 << 16):
            store.extend_sequence("bench:batched", start, big[start : start + (1 << 16)])
        batched = big.size / (time.perf_counter() - t)
        t = time.perf_counter()
        for i in range(n_single):
            store.extend_sequence("bench:single", i, big[i : i + 1])
        single = n_single / (time.perf_counter() - t)
        out.append((f"{label}: Grundy values (`extend_sequence`, 2^16 per call vs 1 per call)", batched, single))

        records = [("bench", f"0.{i:o}", "normal", {"status": "solved", "period": i % 97, "preperiod": i % 13,
                                                     "max_value": i % 31}) for i in range(1, 4097)]
        t = time.perf_counter()
        for i in range(0, len(records), 32):
            store.put_positions_many(records[i : i + 32])
        batched = len(records) / (time.perf_counter() - t)
        t = time.perf_counter()
        for r in records[:n_single]:
            store.put_position("bench-single", r[1], r[2], r[3])
        single = n_single / (time.perf_counter() - t)
        out.append((f"{label}: census records (`put_positions_many` of 32 vs `put_position`)", batched, single))
    finally:
        store.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="2-digit codes and fewer single writes")
    ap.add_argument("--misere", action="store_true", help="with the genus tail and the quotient attempt")
    ap.add_argument("--values", type=int, default=2**16)
    args = ap.parse_args()
    digits = 2 if args.quick else 3
    n_single = 300 if args.quick else 2000

    print(f"census of the {digits}-digit octal codes to {args.values} values (misère {'on' if args.misere else 'off'})")
    rows = census_rate(digits, args.values, args.misere)
    print()
    print("| run | seconds | codes/hour | vs serial |")
    print("|---|---:|---:|---:|")
    base = rows[0][1]
    for label, dt, rate, codes, classes in rows:
        print(f"| {label} | {dt:.1f} | {rate:,.0f} | {base / dt:.2f}× |")
    print(f"\n({rows[0][3]} codes, {rows[0][4]} classes by standard form)\n")

    rates = []
    with tempfile.TemporaryDirectory() as tmp:
        rates += write_rates(os.path.join(tmp, "rates.sqlite"), "SQLite", n_single)
    admin = os.environ.get("CGTALG_TEST_POSTGRES_URL")
    if admin:
        import sqlalchemy as sa

        name = f"cgtalg_bench_{uuid.uuid4().hex[:8]}"
        eng = sa.create_engine(admin, isolation_level="AUTOCOMMIT")
        with eng.connect() as conn:
            conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
        try:
            url = sa.engine.make_url(admin).set(database=name).render_as_string(hide_password=False)
            rates += write_rates(url, "PostgreSQL", n_single)
        finally:
            with eng.connect() as conn:
                conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            eng.dispose()
    print("| writes | batched (values/s) | unbatched (values/s) | batched / unbatched |")
    print("|---|---:|---:|---:|")
    for what, b, s in rates:
        print(f"| {what} | {b:,.0f} | {s:,.0f} | {b / s:,.0f}× |")


if __name__ == "__main__":
    main()
