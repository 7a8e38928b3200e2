"""Several processes sharing one store: concurrent writers, stable ids, killed writers.

Each worker is a fresh Python interpreter (``subprocess``), so nothing is shared but the
store file. Stored Grundy values are checked against the mex rule (Sprague-Grundy: the
value of {*a, *b} is mex{a, b}; ONAG ch. 11).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import cgtalg as cg
from cgtalg.store import open_store


@pytest.fixture(autouse=True)
def _private_store_env(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("CGTALG_STORE", str(tmp_path / "env-store.sqlite"))


def spawn(code: str, *args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(code), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def finish(proc: subprocess.Popen, timeout: float = 240) -> str:
    out, err = proc.communicate(timeout=timeout)
    assert proc.returncode == 0, err
    return out


def wait_for(path, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while not os.path.exists(path):
        assert time.monotonic() < deadline, f"timed out waiting for {path}"
        time.sleep(0.01)


WRITER = """
    import os, sys, time
    import cgtalg as cg
    from cgtalg.store import open_store
    url, step, go = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    store = open_store(url)
    print("ready", flush=True)
    while not os.path.exists(go):
        time.sleep(0.005)
    for i in range(200):
        g = cg.game([cg.nim(i), cg.nim(i + step)])
        store.put(g, "grundy", cg.grundy(g))
        store.put(g, "writer", step)
        store.put(cg.nim(i), "grundy", i)  # both writers store the shared heaps
    store.close()
"""


def test_two_writers_at_once_both_land(tmp_path):
    """Two processes x 200 forms (+ properties) written at the same time: all 400 land, the
    nim-heaps both insert are stored once, and every value is right."""
    path = str(tmp_path / "shared.sqlite")
    open_store(path).close()
    go = str(tmp_path / "go")
    writers = [spawn(WRITER, path, str(step), go) for step in (1, 2)]
    for w in writers:
        assert w.stdout.readline().strip() == "ready"
    open(go, "w").close()
    for w in writers:
        finish(w)
    expected = {}
    for step in (1, 2):
        for i in range(200):
            expected[cg.game([cg.nim(i), cg.nim(i + step)])] = (min({0, 1, 2} - {i, i + step}), step)
    assert len(expected) == 400
    with open_store(path) as store:
        for g, (grundy, step) in expected.items():
            assert store.get(g, "grundy") == grundy == cg.grundy(g)
            assert store.get(g, "writer") == step
        for i in range(200):
            assert store.get(cg.nim(i), "grundy") == i
        info = store.info()
        distinct = set(expected) | {h for g in expected for h in g.subpositions()}
        assert info["forms"] == len(distinct)  # no form stored twice
        heaps = {cg.nim(i) for i in range(200)}  # {0, *} = *2 is both a heap and a pair
        assert info["properties"] == {"grundy": len(set(expected) | heaps), "writer": 400}
        ids = [store.form_id(g) for g in distinct]
        assert len(set(ids)) == len(ids)


FORM_IDS = """
    import json, sys
    import cgtalg as cg
    from cgtalg.store import open_store
    url, order = sys.argv[1], sys.argv[2]
    texts = json.loads(sys.stdin.readline())
    if order == "reversed":
        cg.parse("{*7, {*5}, *3+*3}")  # other forms first: different process-local ids
        texts = texts[::-1]
    with open_store(url) as store:
        ids = {t: store.form_id(cg.parse(t)) for t in texts}
        back = {t: str(store.game(i)) for t, i in ids.items()}
    print(json.dumps({"ids": ids, "back": back}))
"""


def test_form_ids_are_shared_by_processes(tmp_path):
    path = str(tmp_path / "ids.sqlite")
    texts = ["{*2}", "*3+*2", "{0, {*}}", "*[2[2]]", "{*4, *2, {*3}}", "*6"]
    results = []
    for order in ("given", "reversed"):
        proc = subprocess.run(
            [sys.executable, "-c", textwrap.dedent(FORM_IDS), path, order],
            input=json.dumps(texts) + "\n", capture_output=True, text=True, timeout=240,
        )
        assert proc.returncode == 0, proc.stderr
        results.append(json.loads(proc.stdout))
    first, second = results
    assert first["ids"] == second["ids"]
    for t in texts:
        assert cg.parse(second["back"][t]) is cg.parse(t)
    with open_store(path) as store:  # and this process agrees too
        assert {t: store.form_id(cg.parse(t)) for t in texts} == first["ids"]


SEQUENCE_WRITER = """
    import sys
    import numpy as np
    from cgtalg.store import open_store
    url, stop = sys.argv[1], int(sys.argv[2])
    store = open_store(url)
    values = (np.arange(stop) * 31) % 1009
    done = store.sequence_length("resumable")
    while done < stop:
        store.extend_sequence("resumable", done, values[done : done + 1000])
        done += 1000
        print(done, flush=True)
"""


def test_killed_writer_keeps_completed_chunks_and_resumes(tmp_path):
    path = str(tmp_path / "seq.sqlite")
    open_store(path).close()
    proc = spawn(SEQUENCE_WRITER, path, str(10**6))
    for _ in range(5):
        assert proc.stdout.readline().strip()
    proc.send_signal(signal.SIGKILL)  # possibly in the middle of a transaction
    proc.communicate(timeout=60)
    assert proc.returncode == -signal.SIGKILL
    reference = (np.arange(10**6) * 31) % 1009
    with open_store(path) as store:
        stored = store.sequence_length("resumable")
        assert stored >= 5000 and stored % 1000 == 0
        np.testing.assert_array_equal(store.sequence("resumable"), reference[:stored])
    # Resume: a new writer continues from the stored length.
    finish(spawn(SEQUENCE_WRITER, path, str(stored + 20000)))
    with open_store(path) as store:
        assert store.sequence_length("resumable") == stored + 20000
        np.testing.assert_array_equal(store.sequence("resumable"), reference[: stored + 20000])


OPENER = """
    import os, sys, time
    import cgtalg as cg
    from cgtalg.store import open_store
    url, go, k = sys.argv[1], sys.argv[2], int(sys.argv[3])
    print("ready", flush=True)
    while not os.path.exists(go):
        time.sleep(0.002)
    with open_store(url) as store:
        store.put(cg.nim(k), "grundy", k)
        print(store.revision)
"""


def test_concurrent_first_opens_migrate_once(tmp_path):
    path = str(tmp_path / "fresh.sqlite")
    go = str(tmp_path / "go")
    procs = [spawn(OPENER, path, go, str(k)) for k in (3, 4)]
    for p in procs:
        assert p.stdout.readline().strip() == "ready"
    open(go, "w").close()
    assert [finish(p).strip() for p in procs] == ["0003", "0003"]
    with open_store(path) as store:
        assert store.get(cg.nim(3), "grundy") == 3 and store.get(cg.nim(4), "grundy") == 4
        assert store.info()["revision"] == "0003"


def _forked_put(store, k):
    store.put(cg.nim(k), "grundy", k)


def test_forked_children_reconnect(tmp_path):
    """A store object inherited through fork() (multiprocessing's default on Linux) opens
    its own connections in the child instead of sharing the parent's."""
    import multiprocessing

    path = str(tmp_path / "fork.sqlite")
    with open_store(path) as store:
        store.put(cg.star, "grundy", 1)  # the parent holds a pooled connection now
        ctx = multiprocessing.get_context("fork")
        children = [ctx.Process(target=_forked_put, args=(store, k)) for k in (5, 6)]
        for c in children:
            c.start()
        for c in children:
            c.join(120)
            assert c.exitcode == 0
        assert [store.get(cg.nim(k), "grundy") for k in (1, 5, 6)] == [1, 5, 6]


def test_threads_share_one_store(tmp_path):
    """Four threads writing through one Store object: every value lands, ids agree."""
    from concurrent.futures import ThreadPoolExecutor

    path = str(tmp_path / "threads.sqlite")
    forms = [cg.game([cg.nim(i), cg.nim(j)]) for i in range(12) for j in range(i + 1, 12)]
    with open_store(path) as store:

        def work(part):
            for g in forms[part::4]:
                store.put(g, "grundy", cg.grundy(g))
            return [store.form_id(g) for g in forms]

        with ThreadPoolExecutor(4) as pool:
            seen = list(pool.map(work, range(4)))
        assert all(ids == seen[0] for ids in seen)
        assert len(set(seen[0])) == len(forms)
        for g in forms:
            a, b = g.options
            assert store.get(g, "grundy") == min({0, 1, 2} - {cg.grundy(a), cg.grundy(b)})


def test_opening_the_store_again_keeps_this_process_s_sqlite_locks(tmp_path):
    """Opening a store reads the file's header; closing that descriptor used to drop every POSIX
    lock of the process on the file, SQLite's included (SQLite, "How To Corrupt An SQLite Database
    File", §2.2): a census worker that opened the store again while its connection was live let
    another process reset the write-ahead log under it (the census store of 30 November was found
    malformed). Here the process opens the file once, connects and holds a read transaction (a
    SHARED lock, rollback journal), inspects the file again as every later opening does, and a
    writer in another process must still be unable to commit."""
    import sqlite3

    from cgtalg.store.location import inspect_sqlite_file

    path = tmp_path / "locks.sqlite"
    setup = sqlite3.connect(path)
    setup.execute("CREATE TABLE t (x INTEGER)")
    setup.commit()
    setup.close()
    inspect_sqlite_file(path)                             # the first opening, before connecting
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("PRAGMA journal_mode = DELETE")
    con.execute("BEGIN")
    con.execute("SELECT count(*) FROM t").fetchall()      # SHARED lock held from here
    for _ in range(3):
        inspect_sqlite_file(path)
    writer = spawn("""
        import sqlite3, sys
        con = sqlite3.connect(sys.argv[1], timeout=0, isolation_level=None)
        try:
            con.execute("BEGIN IMMEDIATE")
            con.execute("INSERT INTO t VALUES (1)")
            con.execute("COMMIT")
            print("committed")
        except sqlite3.OperationalError as exc:
            print("refused:", exc)
    """, str(path))
    out = finish(writer)
    con.execute("COMMIT")
    con.close()
    assert out.startswith("refused") and "locked" in out, out
