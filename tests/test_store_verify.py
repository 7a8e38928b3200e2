"""``cgtalg store verify`` (issue 7): tamper with a copy of a store underneath (with the
``sqlite3`` module) and check that verify names each inconsistency with its key, exits 1,
and never modifies the file. Recomputed values come from the definitions: Grundy values by
the mex rule, octal sequences recomputed by the Grundy engine (the take-and-break recurrence,
Winning Ways ch. 4)."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
import sys

import numpy as np
import pytest

import cgtalg as cg
from cgtalg.errors import StoreError
from cgtalg.report import describe
from cgtalg.store import open_store
from cgtalg.store.codec import encode_chunk
from cgtalg.store.verify import verify_store


def _digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _cli(path, *args):
    return subprocess.run(
        [sys.executable, "-m", "cgtalg.cli.main", "--store", str(path), "store", "verify", *args],
        capture_output=True, text=True, env=dict(os.environ),
    )


@pytest.fixture
def path(tmp_path):
    path = tmp_path / "s.sqlite"
    with open_store(path) as store:
        for text in ("*2+*3", "{*2, {*}}", "*+*"):
            describe(cg.parse(text), store=store)
    run = subprocess.run(
        [sys.executable, "-m", "cgtalg.cli.main", "--store", str(path), "grundy", "0.07", "-n", "300"],
        capture_output=True, text=True, env=dict(os.environ),
    )
    assert run.returncode == 0, run.stderr
    con = sqlite3.connect(path)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    return path


def _sql(path, statement, *args):
    con = sqlite3.connect(path)
    with con:
        con.execute(statement, args)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()


def test_clean_store_verifies_and_file_is_unchanged(path):
    before = _digest(path)
    with open_store(path) as store:
        result = verify_store(store, sample=None)
    assert result["ok"], result["problems"]
    assert result["checked"]["recomputed_properties"] > 0
    assert result["checked"]["sequence_values_recomputed"] == 300
    run = _cli(path, "--json")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["ok"] is True
    assert _digest(path) == before


def test_tampered_rows_are_each_named(path):
    with open_store(path) as store:
        g = cg.parse("*2+*3")
        sid = store.form_id(g)
        star = store.form_id(cg.star)
    # 1. a form's options changed underneath
    _sql(path, "UPDATE forms SET options = ? WHERE id = ?", str(star), sid)
    # 2. a sequence length inflated
    _sql(path, "UPDATE sequences SET length = length + 50 WHERE key = 'grundy:0.07'")
    # 3. invalid JSON in a property
    _sql(path, "UPDATE form_properties SET value = '{oops' WHERE name = 'misere_outcome' AND form_id = ?", sid)
    # 4. a wrong stored Grundy value of another form
    other = None
    with open_store(path) as store:
        other = store.form_id(cg.parse("{*2, {*}}"))
    _sql(path, "UPDATE form_properties SET value = '7' WHERE name = 'grundy' AND form_id = ?", other)
    before = _digest(path)
    with open_store(path) as store:
        problems = verify_store(store, sample=None)["problems"]
    keys = {(p["table"], p["key"]) for p in problems}
    text = json.dumps(problems)
    assert ("forms", f"form {sid}") in keys and "SHA-256" in text
    assert ("sequences", "sequence 'grundy:0.07'") in keys and "stored length 350" in text
    assert ("form_properties", f"form {sid}, property 'misere_outcome'") in keys and "not valid JSON" in text
    assert ("form_properties", f"form {other}, property 'grundy'") in keys and "stored value 7, recomputed 1" in text
    run = _cli(path, "--full")
    assert run.returncode == 1
    assert f"form {sid}" in run.stdout and "grundy:0.07" in run.stdout and "Traceback" not in run.stderr
    assert _digest(path) == before


def test_altered_chunk_breaks_the_recurrence(path):
    con = sqlite3.connect(path)
    start, count, codec, data = con.execute(
        "SELECT start, count, codec, data FROM sequence_chunks WHERE sequence_key = 'grundy:0.07' ORDER BY start"
    ).fetchone()
    con.close()
    with open_store(path) as store:
        values = store.sequence("grundy:0.07")
    altered = values[start : start + count].copy()
    altered[40 - start] += 1  # G(40) of 0.07 (Dawson's Kayles) changed
    codec, data = encode_chunk(altered)
    _sql(path, "UPDATE sequence_chunks SET data = ?, codec = ? WHERE sequence_key = 'grundy:0.07' AND start = ?",
         data, codec, start)
    with open_store(path) as store:
        problems = verify_store(store, sample=None)["problems"]
    keys = {p["key"] for p in problems}
    assert "sequence 'grundy:0.07', index 40" in keys


def test_unreadable_chunk_is_named(path):
    _sql(path, "UPDATE sequence_chunks SET data = X'0000' WHERE sequence_key = 'grundy:0.07'")
    with open_store(path) as store:
        problems = verify_store(store, sample=10)["problems"]
    assert any(p["table"] == "sequence_chunks" and "unreadable" in p["problem"] for p in problems)


def test_sample_argument(path):
    with open_store(path) as store:
        with pytest.raises(StoreError, match="sample must be a positive int"):
            verify_store(store, sample=0)
        assert verify_store(store, sample=3)["checked"]["forms"] == 3


def test_huge_nim_heaps_are_stored_verified_and_tamper_named(tmp_path):
    """Nim-heaps of any size are stored keyed by their size (migration 0002); verify rechecks
    their properties by the atom rules and names a tampered atom row."""
    import cgtalg as cg
    from cgtalg.report import describe

    path = tmp_path / "atoms.sqlite"
    huge = cg.nim(10**20)
    with open_store(path) as store:
        describe(huge, store=store)
        describe(cg.game([huge, cg.nim(3)]), store=store)
        sid = store.form_id(huge)
        assert store.get(huge, "grundy") == 10**20
        result = verify_store(store, sample=None)
    assert result["ok"], result["problems"]
    assert result["checked"]["recomputed_properties"] >= 8
    with open_store(path) as store:  # a fresh object rebuilds the atom from its key alone
        assert store.game(sid) is huge
    _sql(path, "UPDATE forms SET birthday = 7 WHERE id = ?", sid)
    with open_store(path) as store:
        problems = verify_store(store, sample=None)["problems"]
    assert any(p["key"] == f"form {sid}" and "nim-heap" in p["problem"] for p in problems), problems


def test_flipped_chunk_byte_fails_its_checksum(path):
    """A byte changed inside a stored chunk: zlib's Adler-32 checksum (or the stream itself)
    no longer matches, and verify names the chunk, read-only."""
    con = sqlite3.connect(path)
    start, data = con.execute(
        "SELECT start, data FROM sequence_chunks WHERE sequence_key = 'grundy:0.07' ORDER BY start"
    ).fetchone()
    con.close()
    flipped = bytearray(data)
    flipped[len(flipped) // 2] ^= 0x10
    _sql(path, "UPDATE sequence_chunks SET data = ? WHERE sequence_key = 'grundy:0.07' AND start = ?", bytes(flipped), start)
    before = _digest(path)
    with open_store(path) as store:
        problems = verify_store(store, sample=None)["problems"]
    assert any("grundy:0.07" in p["key"] and str(start) in p["key"] for p in problems), problems
    assert _digest(path) == before
