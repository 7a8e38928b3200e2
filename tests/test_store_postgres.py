"""The store on a real PostgreSQL server (the backend of the planned Dask census).

Runs when ``CGTALG_TEST_POSTGRES_URL`` names a server URL whose user may create databases
(``.ci/run`` installs Debian's PostgreSQL, starts it on 127.0.0.1 and sets it); each test gets
a database of its own. Without it every test here is skipped, saying why.
"""

from __future__ import annotations

import multiprocessing as mp
import os

import numpy as np
import pytest

import cgtalg as cg
from cgtalg.errors import StoreError

ADMIN_URL = os.environ.get("CGTALG_TEST_POSTGRES_URL")

pytestmark = pytest.mark.skipif(
    not ADMIN_URL, reason="no PostgreSQL server: set CGTALG_TEST_POSTGRES_URL (.ci/run does)"
)



def _open(url):
    from cgtalg.store import open_store

    return open_store(url)


def test_create_migrate_and_reopen(pg_url):
    store = _open(pg_url)
    info = store.info()
    assert info["backend"] == "postgresql" and info["revision"] == info["head"]
    g = cg.parse("{0, {*2}}")
    gid = store.form_id(g)
    store.put(g, "grundy", cg.grundy(g))
    store.close()
    again = _open(pg_url)
    try:
        assert again.form_id(g) == gid and again.game(gid) is g
        assert again.get(g, "grundy") == cg.grundy(g)  # mex definition (ONAG ch. 11)
    finally:
        again.close()


def test_memo_conflicts_relations_positions_find(pg_url):
    store = _open(pg_url)
    try:
        g = cg.parse("{*2}")
        assert store.memo(g, "misere_grundy", lambda: cg.misere_grundy(g)) == 0
        assert store.memo(g, "misere_grundy", lambda: pytest.fail("recomputed")) == 0
        with pytest.raises(StoreError):
            store.put(g, "misere_grundy", 1)  # a different value is never written over
        report = cg.prove_equivalence("*2+*1", "*3", store=store)  # Spindler, Theorem 5
        assert report.holds and cg.prove_equivalence("*2+*1", "*3", store=store).from_store
        assert store.memo_position("parity", "25(e,e)", "outcome", lambda: "P") == "P"
        assert store.get_position("parity", "25(e,e)", "outcome") == "P"
        assert store.find(text="{*2}")
    finally:
        store.close()


def test_sequences_chunked_and_checked(pg_url):
    store = _open(pg_url)
    try:
        values = np.arange(3_000_000) % 7
        store.extend_sequence("seq", 0, values[:1_500_000])
        store.extend_sequence("seq", 1_000_000, values[1_000_000:])  # overlap must agree
        assert np.array_equal(store.sequence("seq"), values)
        bad = values[10:20].copy()
        bad[3] += 1
        with pytest.raises(StoreError):
            store.extend_sequence("seq", 10, bad)
        assert np.array_equal(store.sequence("seq"), values)  # nothing written
    finally:
        store.close()


def _form(n: int) -> cg.Game:
    """Distinct forms for distinct n (< 37·37), sharing nim-heap subpositions across writers."""
    return cg.game([cg.nim(n % 37), cg.nim(37 + n // 37)])


def _writer(url: str, offset: int, count: int) -> None:
    store = _open(url)
    try:
        for n in range(offset, offset + count):
            store.put(_form(n), f"tag{offset}", n)
    finally:
        store.close()


def test_two_processes_writing_at_once_both_land(pg_url):
    ctx = mp.get_context("spawn")
    procs = [ctx.Process(target=_writer, args=(pg_url, off, 60)) for off in (0, 1000)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    store = _open(pg_url)
    try:
        for off in (0, 1000):
            for n in range(off, off + 60):
                assert store.get(_form(n), f"tag{off}") == n
    finally:
        store.close()


BULK_WRITER_PG = """
import sys
import cgtalg as cg
from cgtalg.store import open_store
store = open_store(sys.argv[1])
offset = int(sys.argv[2])
for batch in range(4):
    lo = offset + 15 * batch
    games = [cg.nim(a % 6) + cg.nim(a // 6 % 6) for a in range(lo, lo + 30)]
    store.put_many([(g, "grundy", cg.grundy(g)) for g in games])
"""


def test_bulk_paths_verify_and_listings(pg_url):
    import subprocess
    import sys

    from cgtalg.errors import StoreError
    from cgtalg.store.verify import verify_store

    procs = [
        subprocess.Popen([sys.executable, "-c", BULK_WRITER_PG, pg_url, str(20 * k)], stderr=subprocess.PIPE, text=True)
        for k in range(4)
    ]
    for proc in procs:
        _, err = proc.communicate(timeout=240)
        assert proc.returncode == 0, err
    games = {}
    for k in range(4):
        for batch in range(4):
            lo = 20 * k + 15 * batch
            for a in range(lo, lo + 30):
                g = cg.nim(a % 6) + cg.nim(a // 6 % 6)
                games[g.id] = g
    store = _open(pg_url)
    try:
        # Sprague-Grundy: *a + *b has Grundy value a xor b (ONAG ch. 11); brute force via cg.grundy.
        assert store.get_many(list(games.values()), "grundy") == [cg.grundy(g) for g in games.values()]
        ids = store.form_ids(list(games.values()))
        assert len(set(ids)) == len(games)
        with pytest.raises(StoreError, match="refusing to overwrite property 'grundy'"):
            store.put_many([(cg.nim(9), "grundy", 9), (next(iter(games.values())), "grundy", 99)])
        assert store.get(cg.nim(9), "grundy") is None
        store.extend_sequence("grundy:0.07", 0, [0, 0, 1, 1, 2, 0, 3, 1, 1, 0])  # Dawson's Kayles, OEIS A002187
        assert [s["key"] for s in store.list_sequences()] == ["grundy:0.07"]
        result = verify_store(store, sample=None)
        assert result["ok"], result["problems"]
        assert result["checked"]["sequence_values_recomputed"] == 10
    finally:
        store.close()


def test_huge_nim_heaps_on_postgresql(pg_url):
    """Nim-heaps keyed by size (revision 0002): *10**20 and a form above it are stored on
    PostgreSQL (birthday column saturated at 2^31 - 1, a 32-bit INTEGER there)."""
    from cgtalg.store.forms import BIRTHDAY_CAP

    huge = cg.nim(10**20)
    above = cg.game([huge, cg.nim(5)])
    store = _open(pg_url)
    try:
        store.put(huge, "grundy", 10**20)
        store.put(above, "grundy", cg.grundy(above))
        ids = store.form_ids([huge, above])
    finally:
        store.close()
    again = _open(pg_url)
    try:
        assert again.game(ids[1]) is above and again.game(ids[0]) is huge
        assert again.get(above, "grundy") == 0 and again.get(huge, "grundy") == 10**20
        assert BIRTHDAY_CAP == 2**31 - 1
    finally:
        again.close()
