"""Issue 8: bulk paths of the store (form_ids / put_many / get_many) and the in-process
cache. Cross-checked against the one-at-a-time API (form_id / put / get) on the same forms,
Grundy values against the mex rule (Sprague-Grundy, ONAG ch. 11), and concurrent bulk
writers in separate processes."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import subprocess
import sys
import textwrap

import pytest

import cgtalg as cg
from cgtalg.errors import StoreError
from cgtalg.store import open_store


def _forms(count: int):
    out = []
    for a in range(count):
        out.append(cg.nim(a % 6) + cg.nim(a % 5) + cg.nim(a % 4))
    return out


def test_form_ids_agree_with_form_id_in_a_fresh_store(tmp_path):
    games = _forms(60) + [cg.parse("{*, {*2}}"), cg.zero, cg.nim(3)]
    with open_store(tmp_path / "a.sqlite") as bulk:
        bulk_ids = bulk.form_ids(games)
    with open_store(tmp_path / "b.sqlite") as single:
        single_ids = [single.form_id(g) for g in games]
    # Ids are assigned in different orders, but equal forms get equal ids in both, and
    # each store rebuilds the same form from its id.
    assert [bulk_ids.index(i) for i in bulk_ids] == [single_ids.index(i) for i in single_ids]
    with open_store(tmp_path / "a.sqlite") as reopened:
        assert [reopened.game(i) for i in bulk_ids] == games
        assert reopened.form_ids(games) == bulk_ids
        assert [reopened.form_id(g) for g in games] == bulk_ids


def test_stored_keys_are_sorted_option_ids(tmp_path):
    path = tmp_path / "s.sqlite"
    with open_store(path) as store:
        store.form_ids(_forms(30))
    con = sqlite3.connect(path)
    rows = dict(con.execute("SELECT id, options FROM forms"))
    con.close()
    with open_store(path) as store:
        heaps = {sid: store.game(sid).nim_heap_size() for sid in rows}
    for sid, options in rows.items():
        if options.startswith("*"):  # a nim-heap, keyed by its size (migration 0002)
            assert heaps[sid] == int(options[1:])
            continue
        assert heaps[sid] in (None, 0)
        ids = [int(t) for t in options.split(",")] if options else []
        assert ids == sorted(ids) and all(i in rows for i in ids)


def test_put_many_get_many_round_trip_and_mex_rule(tmp_path):
    games = _forms(40)
    with open_store(tmp_path / "s.sqlite") as store:
        store.put_many([(g, "grundy", cg.grundy(g)) for g in games])
        store.put_many([(g, "grundy", cg.grundy(g)) for g in games])  # idempotent
    with open_store(tmp_path / "s.sqlite") as store:  # cold cache
        values = store.get_many(games + [cg.nim(9)], "grundy")
        assert values[-1] is None
        for g, v in zip(games, values):
            mex = 0
            opts = {cg.grundy(o) for o in g.options}
            while mex in opts:
                mex += 1
            assert v == mex
        assert [store.get(g, "grundy") for g in games] == values[:-1]


def test_form_ids_read_back_a_row_stored_under_a_just_inserted_id(tmp_path):
    """SQLite inserts forms with an option new to this call without looking them up first
    (nothing can hold such a key); a row that does hold one anyway (here a dangling row
    naming the next id) makes the INSERT skip it (ON CONFLICT DO NOTHING), and the form
    then gets that row's id, read back, not a duplicate."""
    path = tmp_path / "s.sqlite"
    open_store(path).close()
    con = sqlite3.connect(path)
    con.execute("INSERT INTO forms (id, key_hash, options, birthday) VALUES (1, ?, '2', 3)",
                (hashlib.sha256(b"2").hexdigest(),))
    con.commit()
    con.close()
    g = cg.game([cg.nim(2)])  # its key is the id of *2, which the store gives 2
    with open_store(path) as store:
        assert store.form_ids([g, cg.nim(2)]) == [1, 2]
    con = sqlite3.connect(path)
    assert con.execute("SELECT id, options FROM forms ORDER BY id").fetchall() == [(1, "2"), (2, "*2")]
    con.close()


def test_form_ids_in_a_store_that_holds_some_of_the_forms(tmp_path):
    """Forms over stored options are looked up, forms over new options inserted, for
    impartial and partizan forms: a second process (a fresh store object) gets the same
    ids, one form at a time or in bulk, and rebuilds the same forms."""
    games = _forms(40) + [cg.parse("{*, {*2}}"), cg.nim(9), cg.up, cg.parse_partizan("{2||1|0}") + cg.up]
    with open_store(tmp_path / "a.sqlite") as store:
        first = store.form_ids(games[::3])
        ids = store.form_ids(games)
        assert ids[::3] == first
    with open_store(tmp_path / "a.sqlite") as store:
        assert [store.form_id(g) for g in games] == ids
        assert [store.game(i) for i in ids] == games
    with open_store(tmp_path / "a.sqlite") as store:
        assert store.form_ids(games) == ids
        assert store.info()["forms"] == len({sid for sid in ids} | set(store._form_ids.values()))


def test_put_many_accepts_a_dict_and_rejects_bad_items(tmp_path):
    with open_store(tmp_path / "s.sqlite") as store:
        store.put_many({(cg.nim(1), "grundy"): 1, (cg.nim(2), "label"): [1, "x"]})
        assert store.get_many([cg.nim(1), cg.nim(2)], "grundy") == [1, None]
        assert store.get(cg.nim(2), "label") == [1, "x"]
        with pytest.raises(StoreError, match="each item must be a"):
            store.put_many([(cg.nim(1), "grundy")])
        with pytest.raises(StoreError, match="two different values for property 'grundy'"):
            store.put_many([(cg.nim(3), "grundy", 3), (cg.nim(3), "grundy", 4)])
        with pytest.raises(StoreError, match="not JSON"):
            store.put_many([(cg.nim(3), "grundy", object())])


def test_put_many_conflict_writes_nothing_of_the_batch(tmp_path):
    path = tmp_path / "s.sqlite"
    with open_store(path) as store:
        store.put(cg.nim(1), "grundy", 1)
        with pytest.raises(StoreError, match=r"refusing to overwrite property 'grundy' of \*.*stored value 1, new value 7"):
            store.put_many([(cg.nim(5), "grundy", 5), (cg.nim(1), "grundy", 7)])
        assert store.get(cg.nim(5), "grundy") is None
    with open_store(path) as store:
        assert store.get(cg.nim(5), "grundy") is None and store.get(cg.nim(1), "grundy") == 1


def test_cached_mutable_values_are_copies(tmp_path):
    with open_store(tmp_path / "s.sqlite") as store:
        store.put(cg.nim(1), "x", [1, 2])
        store.get(cg.nim(1), "x").append(3)
        assert store.get(cg.nim(1), "x") == [1, 2]
        assert store.get_many([cg.nim(1)], "x") == [[1, 2]]


def test_memo_hits_come_from_the_cache(tmp_path, monkeypatch):
    with open_store(tmp_path / "s.sqlite") as store:
        store.memo(cg.nim(4), "grundy", lambda: 4)

        def no_db(*args, **kwargs):
            raise AssertionError("a cached memo hit must not touch the database")

        monkeypatch.setattr(store, "_transaction", no_db)
        assert store.memo(cg.nim(4), "grundy", lambda: 1 / 0) == 4
        assert store.stats == {"hits": 1, "misses": 1, "stale": 0}


BULK_WRITER = """
    import sys
    import cgtalg as cg
    from cgtalg.store import open_store
    url, offset = sys.argv[1], int(sys.argv[2])
    store = open_store(url)
    for batch in range(6):
        lo = offset + 20 * batch
        games = [cg.nim(a % 7) + cg.nim(a // 7 % 7) for a in range(lo, lo + 40)]
        store.put_many([(g, "grundy", cg.grundy(g)) for g in games])
    print("done")
"""


def test_concurrent_bulk_writers_lose_nothing(tmp_path):
    path = tmp_path / "s.sqlite"
    procs = [
        subprocess.Popen([sys.executable, "-c", textwrap.dedent(BULK_WRITER), str(path), str(30 * k)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for k in range(5)
    ]
    for proc in procs:
        out, err = proc.communicate(timeout=240)
        assert proc.returncode == 0, err
    expected = {}
    for k in range(5):
        for batch in range(6):
            lo = 30 * k + 20 * batch
            for a in range(lo, lo + 40):
                g = cg.nim(a % 7) + cg.nim(a // 7 % 7)
                expected[g.id] = g
    with open_store(path) as store:
        values = store.get_many(list(expected.values()), "grundy")
        assert values == [cg.grundy(g) for g in expected.values()]
    con = sqlite3.connect(path)
    total, distinct = con.execute("SELECT COUNT(*), COUNT(DISTINCT key_hash) FROM forms").fetchone()
    assert total == distinct
    n_props = con.execute("SELECT COUNT(*) FROM form_properties WHERE name = 'grundy'").fetchone()[0]
    con.close()
    assert n_props == len(expected)
