"""Benchmark of the persistent store, as ratios against baselines measured in the same run.

    python benchmarks/bench_store.py            # full run (about a minute)
    python benchmarks/bench_store.py --quick    # smaller sizes

Rows:
- property look-up (``Store.get`` of a stored form property) against a raw ``sqlite3``
  point query of the same table: the price of SQLAlchemy, transactions and form keying;
- memo hit against recomputing the value: misère Grundy value of a sum of nim-heaps in a
  fresh evaluator (what a new process would have to do without the store);
- form insertion (``Store.form_id`` of a sum with many subpositions, all new) per form,
  against raw ``sqlite3`` ``executemany`` inserts of as many rows;
- bulk paths (``form_ids``, ``put_many``, ``get_many`` on a cold store, cached memo hits)
  per row against raw ``sqlite3`` ``executemany`` / ``SELECT ... IN`` on the same file
  (form writes: best of 3 runs on each side, each into a new file);
- sequence write and read (``extend_sequence`` in 2^20-value calls, ``sequence``) against
  ``numpy.save`` / ``numpy.load`` of the same int64 array; and the bytes on disk per value.

With ``CGTALG_TEST_POSTGRES_URL`` set (``bash .ci/postgres.sh`` prints one), the bulk
writes are measured on PostgreSQL too, against raw psycopg 3 ``executemany``.

Ratios above 1 mean the store is slower than the baseline.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import tempfile
import time

import numpy as np

import cgtalg as cg
from cgtalg.core.fold import Evaluator, fold
from cgtalg.normal.grundy import mex
from cgtalg.store import open_store
from cgtalg.store.schema import CHUNK_SIZE


def best(fn, repeat: int = 3) -> float:
    """Best wall time of ``repeat`` runs of ``fn()`` (seconds)."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def misere_grundy_fresh(g: cg.Game) -> int:
    """Misère Grundy value with a new, empty evaluator cache (as in a new process)."""
    ev = Evaluator("bench_misere_grundy", lambda x, vals: 1 if not vals else mex(vals))
    return fold(g, ev)


def bulk_rows(tmp: str, n: int) -> list[tuple[str, float, str, float]]:
    """Bulk paths (issue 8): ``form_ids`` / ``put_many`` / ``get_many`` / cached memo hits,
    per item, against raw ``sqlite3`` ``executemany`` / ``SELECT ... IN`` of as many rows
    on the same file, in one transaction each."""
    import hashlib
    import json

    # n distinct forms whose subpositions are mostly shared: sums of three nim heaps.
    side = round(n ** (1 / 3)) + 2
    games = [cg.nim(a) + cg.nim(b) + cg.nim(c) for a in range(side) for b in range(a, side) for c in range(b, side)][:n]
    n = len(games)
    # Form writes, best of 3 on each side: each run writes the forms into a new store file
    # (a new Store: nothing cached), then the same rows the store wrote (its option-id keys),
    # hashed, raw into a new table of that file. The first run's file is kept for the rest.
    t_forms = t_raw_forms = float("inf")
    for run in range(3):
        path = os.path.join(tmp, f"bulk{run}.sqlite")
        store = open_store(path)
        t = time.perf_counter()
        ids = store.form_ids(games)
        t_forms = min(t_forms, time.perf_counter() - t)
        inserted = store.info()["forms"]
        con = sqlite3.connect(path)
        con.execute("CREATE TABLE raw_forms (id INTEGER PRIMARY KEY, key_hash TEXT UNIQUE, options TEXT, birthday INT)")
        keys = [row[0] + "/raw" for row in con.execute("SELECT options FROM forms")]
        t = time.perf_counter()
        with con:
            con.executemany(
                "INSERT INTO raw_forms (key_hash, options, birthday) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                [(hashlib.sha256(k.encode()).hexdigest(), k, 3) for k in keys],
            )
        t_raw_forms = min(t_raw_forms, time.perf_counter() - t)
        if run == 0:
            kept = store, con, ids, path
        else:
            con.close()
            store.close()
    store, con, ids, path = kept
    con.execute(
        "CREATE TABLE raw_props (form_id INT, name TEXT, value TEXT, value_hash TEXT, PRIMARY KEY (form_id, name))"
    )
    values = [cg.grundy(g) for g in games]
    t = time.perf_counter()
    store.put_many([(g, "grundy", v) for g, v in zip(games, values)])
    t_props = time.perf_counter() - t
    t = time.perf_counter()
    with con:
        con.executemany(
            "INSERT INTO raw_props (form_id, name, value, value_hash) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
            [(i, "grundy", json.dumps(v), hashlib.md5(json.dumps(v).encode()).hexdigest()) for i, v in zip(ids, values)],
        )
    t_raw_props = time.perf_counter() - t

    def raw_select():
        out = []
        for start in range(0, n, 500):
            part = ids[start : start + 500]
            marks = ",".join("?" * len(part))
            out += con.execute(
                f"SELECT form_id, value FROM raw_props WHERE name = 'grundy' AND form_id IN ({marks})", part
            ).fetchall()
        return out

    t_raw_read = best(raw_select)
    con.close()
    store.close()
    cold = open_store(path)  # a new process: empty caches
    t = time.perf_counter()
    got = cold.get_many(games, "grundy")
    t_cold = time.perf_counter() - t
    assert got == values
    t_warm = best(lambda: [cold.memo(g, "grundy", lambda: 1 / 0) for g in games])
    t_grundy = best(lambda: [misere_grundy_fresh(g) for g in games[: max(1, n // 10)]]) / max(1, n // 10)
    cold.close()
    print(f"bulk: {n} forms ({inserted} rows with subpositions); warm memo hits {n / t_warm:,.0f}/s")
    return [
        (f"bulk form writes (form_ids), per row, {inserted} rows", t_forms / inserted,
         "raw sqlite3 executemany, per row", t_raw_forms / inserted),
        (f"bulk property writes (put_many), per row, {n}", t_props / n,
         "raw sqlite3 executemany, per row", t_raw_props / n),
        (f"bulk reads, cold store (get_many), per row, {n}", t_cold / n,
         "raw sqlite3 SELECT ... IN, per row", t_raw_read / n),
        ("memo hit, warm cache, per hit", t_warm / n, "recompute misère Grundy (fresh)", t_grundy),
    ]


def postgres_rows(admin_url: str, n: int) -> list[tuple[str, float, str, float]]:
    """The bulk rows on PostgreSQL (a fresh database), against raw psycopg 3 ``executemany``
    (pipelined: one round trip for the batch)."""
    import hashlib
    import json
    import uuid

    import sqlalchemy as sa

    name = f"cgtalg_bench_{uuid.uuid4().hex[:8]}"
    admin = sa.create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    url = sa.engine.make_url(admin_url).set(database=name)
    try:
        store = open_store(url.render_as_string(hide_password=False))
        side = round(n ** (1 / 3)) + 2
        games = [cg.nim(a) + cg.nim(b) + cg.nim(c) for a in range(side) for b in range(a, side) for c in range(b, side)][:n]
        n = len(games)
        t = time.perf_counter()
        ids = store.form_ids(games)
        t_forms = time.perf_counter() - t
        values = [cg.grundy(g) for g in games]
        t = time.perf_counter()
        store.put_many([(g, "grundy", v) for g, v in zip(games, values)])
        t_props = time.perf_counter() - t
        t_warm = best(lambda: [store.memo(g, "grundy", lambda: 1 / 0) for g in games])
        store.close()
        import psycopg

        con = psycopg.connect(url.set(drivername="postgresql").render_as_string(hide_password=False))
        cur = con.cursor()
        cur.execute("SELECT options FROM forms")
        keys = [row[0] + "/raw" for row in cur.fetchall()]
        cur.execute("CREATE TABLE raw_forms (id BIGSERIAL PRIMARY KEY, key_hash TEXT UNIQUE, options TEXT, birthday INT)")
        cur.execute("CREATE TABLE raw_props (form_id BIGINT, name TEXT, value TEXT, value_hash TEXT, PRIMARY KEY (form_id, name))")
        con.commit()
        t = time.perf_counter()
        cur.executemany("INSERT INTO raw_forms (key_hash, options, birthday) VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
                       [(hashlib.sha256(k.encode()).hexdigest(), k, 3) for k in keys])
        con.commit()
        t_raw_forms = time.perf_counter() - t
        t = time.perf_counter()
        cur.executemany("INSERT INTO raw_props (form_id, name, value, value_hash) VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING",
                       [(i, "grundy", json.dumps(v), hashlib.md5(json.dumps(v).encode()).hexdigest()) for i, v in zip(ids, values)])
        con.commit()
        t_raw_props = time.perf_counter() - t
        con.close()
        print(f"postgresql bulk: {n} forms ({len(keys)} rows); warm memo hits {n / t_warm:,.0f}/s")
        return [
            (f"PG bulk form writes, per row, {len(keys)} rows", t_forms / len(keys),
             "raw psycopg 3 executemany, per row", t_raw_forms / len(keys)),
            (f"PG bulk property writes, per row, {n}", t_props / n,
             "raw psycopg 3 executemany, per row", t_raw_props / n),
        ]
    finally:
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes")
    args = parser.parse_args()
    n_lookups = 300 if args.quick else 2000
    n_values = 3 * CHUNK_SIZE if args.quick else 20 * CHUNK_SIZE
    heaps = (6, 5, 4, 3) if args.quick else (9, 8, 7, 6, 5)

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "bench.sqlite")
        store = open_store(path)

        # -- property look-ups ---------------------------------------------------------------
        forms = [cg.nim(i % 50) + cg.nim(i // 50) for i in range(n_lookups)]
        for g in forms:
            store.put(g, "grundy", cg.grundy(g))
        ids = [store.form_id(g) for g in forms]
        t_get = best(lambda: [store.get(g, "grundy") for g in forms]) / n_lookups
        con = sqlite3.connect(path)
        t_raw = best(
            lambda: [
                con.execute("SELECT value FROM form_properties WHERE form_id = ? AND name = ?", (i, "grundy")).fetchone()
                for i in ids
            ]
        ) / n_lookups
        con.close()
        rows.append(("property look-up (Store.get)", t_get, "raw sqlite3 point query", t_raw))

        # -- memo hit against recomputation ----------------------------------------------------
        G = sum((cg.nim(h) for h in heaps), cg.zero)
        t_compute = best(lambda: misere_grundy_fresh(G), repeat=2)
        store.memo(G, "misere_grundy", lambda: misere_grundy_fresh(G))
        t_hit = best(lambda: store.memo(G, "misere_grundy", lambda: misere_grundy_fresh(G)))
        size = len(G.subpositions())
        rows.append((f"memo hit, misère Grundy of a {size}-form sum", t_hit, "recompute from scratch", t_compute))

        # -- form insertion ----------------------------------------------------------------------
        H = sum((cg.nim(h + 1) for h in heaps), cg.star)
        new_forms = len(H.subpositions())
        before = store.info()["forms"]
        t_insert = best(lambda: store.form_id(H), repeat=1)
        inserted = store.info()["forms"] - before
        raw_path = os.path.join(tmp, "raw.sqlite")
        con = sqlite3.connect(raw_path)
        con.execute("CREATE TABLE forms (id INTEGER PRIMARY KEY, key_hash TEXT UNIQUE, options TEXT, birthday INT)")
        t0 = time.perf_counter()
        with con:
            con.executemany(
                "INSERT INTO forms (key_hash, options, birthday) VALUES (?, ?, ?)",
                ((f"{i:064x}", str(i), 0) for i in range(inserted)),
            )
        t_raw_insert = time.perf_counter() - t0
        con.close()
        rows.append(
            (f"form insertion, per form ({inserted} of {new_forms} new)", t_insert / inserted,
             "raw sqlite3 executemany, per row", t_raw_insert / inserted)
        )

        rows += bulk_rows(tmp, 2000 if args.quick else 10000)
        if os.environ.get("CGTALG_TEST_POSTGRES_URL"):
            rows += postgres_rows(os.environ["CGTALG_TEST_POSTGRES_URL"], 2000 if args.quick else 10000)

        # -- sequences -------------------------------------------------------------------------
        # Uniform random 6-bit values: no structure for zlib to find (Grundy sequences of
        # octal games are usually far more compressible than this).
        values = np.random.default_rng(2025).integers(0, 64, size=n_values, dtype=np.int64)

        def write():
            for start in range(0, n_values, CHUNK_SIZE):
                store.extend_sequence("bench", start, values[start : start + CHUNK_SIZE])

        t_write = best(write, repeat=1)
        t_read = best(lambda: store.sequence("bench"))
        npy = os.path.join(tmp, "values.npy")
        t_save = best(lambda: np.save(npy, values), repeat=1)
        t_load = best(lambda: np.load(npy))
        assert np.array_equal(store.sequence("bench"), values)
        store.close()
        con = sqlite3.connect(path)
        stored_bytes = con.execute("SELECT SUM(LENGTH(data)) FROM sequence_chunks WHERE sequence_key='bench'").fetchone()[0]
        con.close()
        rows.append((f"sequence write, {n_values} values", t_write, "numpy.save", t_save))
        rows.append((f"sequence read, {n_values} values", t_read, "numpy.load", t_load))

    print(f"{'measurement':48} {'store':>12} {'baseline':>34} {'ratio':>8}")
    for name, t, base_name, base in rows:
        print(f"{name:48} {t * 1e3:9.3f} ms {base_name:>24} {base * 1e3:9.3f} ms {t / base:8.2f}")
    print(f"sequence storage: {stored_bytes / n_values:.3f} bytes per value (int64 in memory: 8)")


if __name__ == "__main__":
    main()
