"""Many writers on one store: nothing fails, nothing is lost (issue 12).

Before the fix, 8 processes writing overlapping forms to one PostgreSQL store failed with
"deadlock detected" (two writers inserted the same forms in opposite orders; the call was not
retried, and the message blamed a lock held for 60 s). Now every write inserts in sorted key
order (forms by birthday and key hash, property rows by id and name, positions by ruleset and
hash), and a transaction the database aborts anyway (SQLSTATE 40P01 deadlock victim, 40001
serialization failure) is run again with backoff.

The load test: 16 writer processes against a local PostgreSQL (skipped without
``CGTALG_TEST_POSTGRES_URL``; ``.ci/run`` starts one) and 8 against a SQLite file, all writing
overlapping forms (in shuffled orders, with shared and private properties), positions and
sequences at once; each counts its failed writes, and afterwards every value written is read
back: failed = lost = 0. Stored values are checked against the mex rule (the Grundy value of
{*a, *b, *c} is mex{a, b, c}; Sprague-Grundy, ONAG ch. 11).
"""

from __future__ import annotations

import json
import multiprocessing
import os
import threading
import time
import uuid

import numpy as np
import pytest

import cgtalg as cg
from cgtalg.errors import StoreError
from cgtalg.store import open_store

ADMIN_URL = os.environ.get("CGTALG_TEST_POSTGRES_URL")
needs_pg = pytest.mark.skipif(not ADMIN_URL, reason="no PostgreSQL server: set CGTALG_TEST_POSTGRES_URL (.ci/run does)")

HEAPS = 10  # forms {*a, *b, *c} with a < b < c < HEAPS: 120 forms sharing their nim-heap options
ROUNDS = 3
SEQ_STEP = 400


def _mex(*xs: int) -> int:
    m = 0
    while m in xs:
        m += 1
    return m


def _writer(url: str, w: int, go: str, out: str) -> None:
    """One writer process (forked from the test process: no start-up cost per process, but its
    own interpreter state and its own connections)."""
    import random

    from cgtalg.store.store import Store

    store = Store(url)
    rng = random.Random(w)
    triples = [(a, b, c) for a in range(HEAPS) for b in range(a + 1, HEAPS) for c in range(b + 1, HEAPS)]
    # the forms every writer puts one at a time: the same eight in every writer and round (the
    # reader checks these; taken before the shuffles, whose later draws depend on timing)
    singles = triples[:8]

    def form(t):
        return cg.game([cg.nim(x) for x in t])

    stats: dict = {"attempted": 0, "failed": 0, "errors": []}

    def attempt(fn, *args):
        stats["attempted"] += 1
        try:
            fn(*args)
        except Exception as exc:  # noqa: BLE001 - counted, and the first few reported
            stats["failed"] += 1
            stats["errors"].append(f"{type(exc).__name__}: {exc}"[:400])

    while not os.path.exists(go):
        time.sleep(0.002)
    t0 = time.time()
    for rnd in range(ROUNDS):
        rng.shuffle(triples)
        for i in range(0, len(triples), 24):
            part = triples[i : i + 24]
            items = [(form(t), "mex", _mex(*t)) for t in part] + [(form(t), f"w{w}", w) for t in part]
            rng.shuffle(items)
            attempt(store.put_many, items)
        for t in singles:
            attempt(store.put, form(t), "mex1", _mex(*t))
        keys = [("load", f"p{i}", "v", i) for i in range(60)] + [("load", f"w{w}:{i}", "v", i) for i in range(20)]
        rng.shuffle(keys)
        for i in range(0, len(keys), 20):
            attempt(store.put_positions_many, keys[i : i + 20])
        attempt(store.put_position, "load", f"single{rnd % 3}", "v", rnd % 3)
        # the shared sequence: a window at or below the stored length (overlaps must agree)
        length = store.sequence_length("shared")
        start = rng.randrange(0, length + 1) if length else 0
        attempt(store.extend_sequence, "shared", start, (np.arange(start, start + SEQ_STEP) * 31) % 1009)
        own = store.sequence_length(f"own{w}")
        attempt(store.extend_sequence, f"own{w}", own, (np.arange(own, own + SEQ_STEP) * 7 + w) % 251)
        attempt(store.put_sequence_meta, "shared", {"kind": "load"})
    stats["seconds"] = round(time.time() - t0, 2)
    stats["retries"] = store.write_retries
    store.close()
    with open(out, "w") as fh:
        json.dump(stats, fh)


def _load_test(url: str, writers: int, tmp_path) -> dict:
    open_store(url).close()  # migrated once, before the writers start
    go = str(tmp_path / f"go-{uuid.uuid4().hex[:6]}")
    ctx = multiprocessing.get_context("fork")
    outs = [str(tmp_path / f"writer{w}.json") for w in range(writers)]
    procs = [ctx.Process(target=_writer, args=(url, w, go, outs[w])) for w in range(writers)]
    for p in procs:
        p.start()
    time.sleep(0.2)
    open(go, "w").close()
    for p in procs:
        p.join(600)
        assert p.exitcode == 0
    reports = [json.loads(open(o).read()) for o in outs]
    failed = sum(r["failed"] for r in reports)
    attempted = sum(r["attempted"] for r in reports)
    errors = [e for r in reports for e in r["errors"]]

    # every value written is there (and right)
    lost = 0
    triples = [(a, b, c) for a in range(HEAPS) for b in range(a + 1, HEAPS) for c in range(b + 1, HEAPS)]
    forms = [cg.game([cg.nim(x) for x in t]) for t in triples]
    with open_store(url) as store:
        got = store.get_many(forms, "mex")
        lost += sum(1 for t, v in zip(triples, got) if v != _mex(*t))
        for w in range(writers):
            lost += sum(1 for v in store.get_many(forms, f"w{w}") if v != w)
        lost += sum(1 for t in triples[:8] if store.get(cg.game([cg.nim(x) for x in t]), "mex1") != _mex(*t))
        pos = store.get_positions_many("load", [f"p{i}" for i in range(60)])
        lost += sum(1 for i in range(60) if pos[f"p{i}"] != {"v": i})
        for w in range(writers):
            mine = store.get_positions_many("load", [f"w{w}:{i}" for i in range(20)])
            lost += sum(1 for i in range(20) if mine[f"w{w}:{i}"] != {"v": i})
        lost += sum(1 for k in range(min(ROUNDS, 3)) if store.get_position("load", f"single{k}", "v") != k)
        shared = store.sequence("shared")
        assert shared.size >= SEQ_STEP
        lost += int(np.count_nonzero(shared != (np.arange(shared.size) * 31) % 1009))
        for w in range(writers):
            own = store.sequence(f"own{w}")
            lost += ROUNDS * SEQ_STEP - own.size
            lost += int(np.count_nonzero(own != (np.arange(own.size) * 7 + w) % 251))
        assert store.sequence_meta("shared") == {"kind": "load"}
        info = store.info()
    return {"failed": failed, "lost": lost, "attempted": attempted, "errors": errors[:3], "info": info,
            "retries": sum(r["retries"] for r in reports), "seconds": max(r["seconds"] for r in reports)}



@needs_pg
def test_sixteen_writers_on_postgresql_lose_nothing(pg_url, tmp_path):
    report = _load_test(pg_url, 16, tmp_path)
    assert (report["failed"], report["lost"]) == (0, 0), report
    assert report["attempted"] == 16 * ROUNDS * (5 + 8 + 4 + 1 + 3)
    assert report["info"]["properties"]["mex"] == 120


def test_eight_writers_on_sqlite_lose_nothing(tmp_path):
    report = _load_test(str(tmp_path / "load.sqlite"), 8, tmp_path)
    assert (report["failed"], report["lost"]) == (0, 0), report


# -- the retry itself ---------------------------------------------------------------------------
class _PgError(Exception):
    def __init__(self, code: str, text: str) -> None:
        super().__init__(text)
        self.pgcode = code


def test_deadlock_and_serialization_failures_are_transient_and_named(tmp_path):
    from cgtalg.store.engine import TransientStoreError

    store = open_store(tmp_path / "s.sqlite")
    try:
        text = ("deadlock detected\nDETAIL:  Process 1 waits for ShareLock on transaction 7; blocked by process 2.")
        err = store._database_error(_PgError("40P01", text))
        assert isinstance(err, TransientStoreError)
        assert "stayed locked" not in str(err)  # "blocked" once read as "locked"
        assert "aborted a write transaction to resolve a conflict with another writer" in str(err)
        assert isinstance(store._database_error(_PgError("40001", "could not serialize access")), TransientStoreError)
        assert not isinstance(store._database_error(_PgError("23505", "duplicate key")), TransientStoreError)
    finally:
        store.close()


def test_retry_runs_the_transaction_again_then_gives_up(tmp_path, monkeypatch):
    import cgtalg.store.engine as S

    monkeypatch.setattr(S, "RETRY_PAUSES", (0.0005, 0.001))
    store = open_store(tmp_path / "s.sqlite")
    calls = []

    @S.retry_transient
    def flaky(self, fails):
        calls.append(1)
        if len(calls) <= fails:
            raise S.TransientStoreError("the database aborted a write transaction")
        self.put(cg.nim(3), "grundy", 3)
        return "done"

    try:
        assert flaky(store, 2) == "done" and len(calls) == 3 and store.write_retries == 2
        assert store.get(cg.nim(3), "grundy") == 3
        calls.clear()
        with pytest.raises(StoreError, match=f"gave up after {S.WRITE_RETRIES} attempts"):
            flaky(store, 100)
        assert len(calls) == S.WRITE_RETRIES
    finally:
        store.close()


@needs_pg
def test_a_real_deadlock_victim_is_retried(pg_url):
    """Two threads insert two positions in opposite orders inside one transaction each, meeting
    at a barrier: PostgreSQL aborts one as the deadlock victim; the retry completes it."""
    import cgtalg.store.engine as S

    store = open_store(pg_url)
    barrier = threading.Barrier(2)
    attempts = {"a": 0, "b": 0}
    errors = []

    @S.retry_transient
    def insert_both(self, name, first, second):
        attempts[name] += 1
        with self._transaction(write=True) as conn:
            self._position_ids(conn, {("deadlock", first)}, insert=True)
            if attempts[name] == 1:
                barrier.wait(timeout=30)
                time.sleep(0.2)
            self._position_ids(conn, {("deadlock", second)}, insert=True)

    def run(name, first, second):
        try:
            insert_both(store, name, first, second)
        except Exception as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=run, args=("a", "x", "y")), threading.Thread(target=run, args=("b", "y", "x"))]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert not errors, errors
        assert store.write_retries >= 1 and attempts["a"] + attempts["b"] >= 3
        assert store.get_positions_many("deadlock", ["x", "y"]) == {"x": {}, "y": {}}
        assert store.info()["positions"] == 2
    finally:
        store.close()
