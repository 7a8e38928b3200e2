"""Long integer sequences in the store: chunked appends, overlap checks, slices, metadata.

The reference for every stored sequence is the numpy array the test wrote; the chunk layout
is checked directly in the SQLite file. The nim sequence of the octal game .123, computed here
from the rules and checked against Plambeck, "How to lose at .123" (2003), Table 1 (seed
000; period 5 from heap 5), serves as a real sequence computed in resumed pieces.
"""

from __future__ import annotations

import sqlite3
import zlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgtalg.errors import StoreError
from cgtalg.store import open_store
from cgtalg.store import sequence_writes as sequences_module  # the writes of both stores
from cgtalg.store.light import LightStore, open_light_store
from cgtalg.store.schema import CHUNK_SIZE


@pytest.fixture(autouse=True)
def _private_store_env(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("CGTALG_STORE", str(tmp_path / "env-store.sqlite"))


@pytest.fixture
def path(tmp_path):
    return tmp_path / "seq.sqlite"


@pytest.fixture(params=["full", "light"])
def store(path, request):
    """The full store and the light one (``sqlite3``, no SQLAlchemy) of a new file: every test
    here runs on both, as both write sequences through the same code over their own statements."""
    if request.param == "light":
        with open_light_store(str(path)) as s:
            assert isinstance(s, LightStore)
            yield s
        return
    with open_store(str(path)) as s:
        yield s


@pytest.fixture
def small_chunks(monkeypatch):
    """Chunks of 8 values, so that chunk boundaries are cheap to exercise."""
    monkeypatch.setattr(sequences_module, "CHUNK_SIZE", 8)
    return 8


def chunk_rows(path, key):
    con = sqlite3.connect(path)
    try:
        return con.execute(
            "SELECT start, count, codec, data FROM sequence_chunks WHERE sequence_key = ? ORDER BY start",
            (key,),
        ).fetchall()
    finally:
        con.close()


def test_absent_sequence(store):
    assert store.sequence("grundy:0.77").dtype == np.int64
    assert store.sequence("grundy:0.77").size == 0
    assert store.sequence_length("grundy:0.77") == 0
    assert store.sequence_meta("grundy:0.77") is None


def test_chunked_appends_in_uneven_pieces(store, path, small_chunks):
    rng = np.random.default_rng(7)
    reference = rng.integers(-50, 50, size=100)
    position = 0
    for size in [3, 5, 1, 8, 0, 13, 2, 30, 38]:
        store.extend_sequence("s", position, reference[position : position + size])
        position += size
        assert store.sequence_length("s") == position
        np.testing.assert_array_equal(store.sequence("s"), reference[:position])
    assert position == 100
    rows = chunk_rows(path, "s")
    # Every chunk but the last is full, and chunk i starts at i * chunk size.
    assert [(r[0], r[1]) for r in rows] == [(8 * i, 8) for i in range(12)] + [(96, 4)]
    for start, count, codec, data in rows:
        assert codec == "zlib:i1"
        stored = np.frombuffer(zlib.decompress(data), dtype="<i1")
        np.testing.assert_array_equal(stored, reference[start : start + count])


def test_many_small_appends_stay_few_rows(store, path, monkeypatch):
    """Appending one value at a time never leaves more than 32 rows after the last full
    chunk (they are merged), and never rewrites a growing chunk on every call."""
    monkeypatch.setattr(sequences_module, "CHUNK_SIZE", 1000)
    reference = np.arange(100) ** 2
    most = 0
    for i, v in enumerate(reference):
        store.extend_sequence("s", i, [v])
        most = max(most, len(chunk_rows(path, "s")))
    assert most == 32
    np.testing.assert_array_equal(store.sequence("s"), reference)
    rows = chunk_rows(path, "s")
    assert sum(r[1] for r in rows) == 100 and rows[0][:2] == (0, 97)  # merged at 33, 65, 97 values


def test_slices(store, small_chunks):
    reference = np.arange(1000, 1100)
    store.extend_sequence("s", 0, reference)
    for start, stop in [(0, 100), (5, 6), (7, 9), (8, 16), (15, 90), (99, 100), (40, 500), (100, 200), (30, 10)]:
        np.testing.assert_array_equal(store.sequence("s", start, stop), reference[start:stop])
    np.testing.assert_array_equal(store.sequence("s", 93), reference[93:])
    with pytest.raises(StoreError, match="start must be >= 0, got -1"):
        store.sequence("s", -1)


def test_full_size_chunks(store, path):
    """More than two chunks of the real size (2^20 values), small values stored as int8."""
    n = 2 * CHUNK_SIZE + 12345
    reference = (np.arange(n) * 7919) % 97
    store.extend_sequence("big", 0, reference[: CHUNK_SIZE + 5])
    store.extend_sequence("big", CHUNK_SIZE + 5, reference[CHUNK_SIZE + 5 :])
    rows = chunk_rows(path, "big")
    assert [(r[0], r[1], r[2]) for r in rows] == [
        (0, CHUNK_SIZE, "zlib:i1"),
        (CHUNK_SIZE, CHUNK_SIZE, "zlib:i1"),
        (2 * CHUNK_SIZE, 12345, "zlib:i1"),
    ]
    got = store.sequence("big")
    np.testing.assert_array_equal(got, reference)
    np.testing.assert_array_equal(
        store.sequence("big", CHUNK_SIZE - 3, CHUNK_SIZE + 3), reference[CHUNK_SIZE - 3 : CHUNK_SIZE + 3]
    )
    assert store.info()["sequence_values"] == n


def test_value_ranges_round_trip(store, path, small_chunks):
    reference = np.array(
        [0, -1, 127, -128, 128, 32767, -32769, 2**31, -(2**31) - 1, 2**62, np.iinfo(np.int64).max,
         np.iinfo(np.int64).min, 5, 6, 7, 8]
    )
    store.extend_sequence("wide", 0, reference)
    np.testing.assert_array_equal(store.sequence("wide"), reference)
    assert [r[2] for r in chunk_rows(path, "wide")] == ["zlib:i8", "zlib:i8"]
    store.extend_sequence("mid", 0, [300, -300])
    store.extend_sequence("mid", 2, np.array([70000], dtype=np.uint32))
    # Two calls, two rows below a full chunk, each in its own narrowest type.
    assert [(r[0], r[1], r[2]) for r in chunk_rows(path, "mid")] == [(0, 2, "zlib:i2"), (2, 1, "zlib:i4")]
    assert store.sequence("mid").tolist() == [300, -300, 70000]


def test_overlap_must_agree(store, small_chunks):
    reference = np.arange(20) % 3
    store.extend_sequence("s", 0, reference[:12])
    store.extend_sequence("s", 4, reference[4:12])  # all overlap, agreeing: nothing new
    store.extend_sequence("s", 10, reference[10:20])  # overlap 10..11, then new values
    np.testing.assert_array_equal(store.sequence("s"), reference)
    bad = reference[15:20].copy()
    bad[3] = 9  # index 18
    extended = np.concatenate([bad, [1, 2, 3]])
    with pytest.raises(
        StoreError,
        match=r"sequence 's' disagrees with the store .* at index 18: stored value 0, new value 9 "
        r"\(1 of the 5 overlapping values differ\); nothing was written",
    ):
        store.extend_sequence("s", 15, extended)
    assert store.sequence_length("s") == 20  # the new tail was not written either
    np.testing.assert_array_equal(store.sequence("s"), reference)


def test_gaps_are_refused(store):
    store.extend_sequence("s", 0, [1, 2, 3])
    with pytest.raises(
        StoreError,
        match=r"cannot store values of sequence 's' from index 5: only 3 values are stored, so that would leave a gap",
    ):
        store.extend_sequence("s", 5, [6])
    with pytest.raises(StoreError, match="from index 1: only 0 values are stored"):
        store.extend_sequence("new", 1, [6])


@pytest.mark.parametrize(
    "values, message",
    [
        (np.zeros((2, 2), dtype=int), r"values of sequence 's' must be one-dimensional, got shape \(2, 2\)"),
        ([1.5, 2.0], r"values of sequence 's' must be integers that fit in int64, got dtype float64"),
        ([2**70], r"values of sequence 's' must be integers that fit in int64, got dtype object"),
        (np.array([2**63], dtype=np.uint64), r"values of sequence 's' must fit in int64, got 9223372036854775808"),
    ],
)
def test_bad_values(store, values, message):
    with pytest.raises(StoreError, match=message):
        store.extend_sequence("s", 0, values)
    assert store.sequence_length("s") == 0


def test_bad_keys(store):
    with pytest.raises(StoreError, match=r"sequence key must have 1 to 200 characters, got '' \(0 characters\)"):
        store.sequence("")
    with pytest.raises(TypeError, match="start must be an int, got float"):
        store.extend_sequence("s", 0.0, [1])


def nim_values_0123(n: int) -> list[int]:
    """Nim values of the octal game .123 for heaps 0..n-1, from the rules (brute force).

    Code digit d_k says how k counters may be taken: bit 1 if they are the whole heap,
    bit 2 if one heap is left, bit 4 if two heaps are left (WW ch. 4). .123: take 1 only
    as a whole heap; take 2 leaving one heap; take 3 as a whole heap or leaving one heap.
    """
    digits = {1: 1, 2: 2, 3: 3}
    g: list[int] = []
    for heap in range(n):
        reachable = set()
        for k, d in digits.items():
            rest = heap - k
            if rest < 0:
                continue
            if d & 1 and rest == 0:
                reachable.add(0)
            if d & 2 and rest > 0:
                reachable.add(g[rest])
            if d & 4:
                reachable.update(g[a] ^ g[rest - a] for a in range(1, rest))
        g.append(min(set(range(len(reachable) + 1)) - reachable))
    return g


def test_resumed_computation_matches_published_values(store, small_chunks):
    """A sequence computed in pieces, each resumed from the stored length, equals the
    published nim values of .123 (Plambeck 2003, Table 1: heaps 1-15)."""
    key = "grundy:0.123"
    full = nim_values_0123(40)
    while (done := store.sequence_length(key)) < 40:
        store.extend_sequence(key, done, full[done : done + 7])
    table_1 = [1, 0, 2, 2, 1, 0, 0, 2, 1, 1, 0, 0, 2, 1, 1]  # heaps 1..15
    assert store.sequence(key, 1, 16).tolist() == table_1
    assert store.sequence(key).tolist() == full


def test_metadata_merges_and_never_silently_changes(store):
    key = "grundy:0.123"
    values = nim_values_0123(30)
    store.put_sequence_meta(key, {"source": "Plambeck 2003, Table 1"})
    assert store.sequence_length(key) == 0
    store.extend_sequence(key, 0, values)
    # "periodic of length 5, beginning at heap 5" (Plambeck 2003)
    store.put_sequence_meta(key, {"preperiod": 5, "period": 5})
    store.put_sequence_meta(key, {"period": 5})
    meta = store.sequence_meta(key)
    assert meta == {"source": "Plambeck 2003, Table 1", "preperiod": 5, "period": 5}
    seq = store.sequence(key)
    assert all(seq[n] == seq[n + meta["period"]] for n in range(meta["preperiod"], seq.size - meta["period"]))
    with pytest.raises(
        StoreError,
        match=r"refusing to overwrite metadata 'period' of sequence 'grundy:0.123' in the store .*: "
        r"stored value 5, new value 10 \(replace=True replaces the metadata\)",
    ):
        store.put_sequence_meta(key, {"period": 10})
    store.put_sequence_meta(key, {"period": 5, "checked_to": 30}, replace=True)
    assert store.sequence_meta(key) == {"period": 5, "checked_to": 30}
    with pytest.raises(StoreError, match="metadata of sequence 'x' must be a dict, got list"):
        store.put_sequence_meta("x", [1])
    info = store.info()
    assert info["sequences"] == 1 and info["sequence_values"] == 30


@settings(max_examples=60, deadline=None)
@given(
    values=st.lists(st.integers(-(2**63), 2**63 - 1), min_size=1, max_size=60),
    cuts=st.lists(st.tuples(st.integers(0, 60), st.integers(0, 20)), min_size=1, max_size=12),
)
def test_random_overlapping_appends_match_the_reference(values, cuts):
    """Any sequence of in-order writes (each may restart inside the stored prefix) stores
    exactly the reference values, whatever the row layout (chunks of 4 values here)."""
    reference = np.array(values, dtype=np.int64)
    original = sequences_module.CHUNK_SIZE
    sequences_module.CHUNK_SIZE = 4
    try:
        with open_store(":memory:") as store:
            for back, size in cuts:
                length = store.sequence_length("s")
                start = max(0, length - back)
                store.extend_sequence("s", start, reference[start : start + size])
                assert store.sequence_length("s") == min(reference.size, max(length, start + size))
            done = store.sequence_length("s")
            store.extend_sequence("s", done, reference[done:])
            np.testing.assert_array_equal(store.sequence("s"), reference)
            for lo in range(0, reference.size, 7):
                np.testing.assert_array_equal(store.sequence("s", lo, lo + 5), reference[lo : lo + 5])
    finally:
        sequences_module.CHUNK_SIZE = original


def test_light_store_writes_sequences_without_sqlalchemy(tmp_path):
    """A first ``grundy``/``period``/``quotient`` on a new store (issue 35): values and metadata
    written and read back through ``sqlite3`` alone, in a fresh interpreter that never imports
    SQLAlchemy; the full store then reads the same rows."""
    import subprocess
    import sys

    path = tmp_path / "fresh.sqlite"
    code = (
        "import sys\n"
        "from cgtalg.store.light import open_light_store\n"
        f"s = open_light_store({str(path)!r})\n"
        "s.extend_sequence('grundy:0.07', 0, [0, 0, 1, 1, 2])\n"
        "s.extend_sequence('grundy:0.07', 3, [1, 2, 0, 3])\n"
        "s.put_sequence_meta('grundy:0.07', {'periodicity': {'period': 34}})\n"
        "assert s.sequence_values('grundy:0.07') == [0, 0, 1, 1, 2, 0, 3]\n"
        "assert s.sequence_meta('grundy:0.07') == {'periodicity': {'period': 34}}\n"
        "assert s._full is None and 'sqlalchemy' not in sys.modules, sorted(m for m in sys.modules if 'sqlalchemy' in m)[:3]\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    with open_store(str(path)) as full:
        assert full.sequence("grundy:0.07").tolist() == [0, 0, 1, 1, 2, 0, 3]
        assert full.sequence_meta("grundy:0.07") == {"periodicity": {"period": 34}}
        assert full.sequence_provenance("grundy:0.07").current
