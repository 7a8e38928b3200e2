"""Issue 7: a store you can audit -- unreadable rows, malformed images, read-only causes,
bad URLs. Expected behaviour is from the issue text; every tamper is done on a real SQLite
file underneath the store with the ``sqlite3`` module."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import subprocess
import sys

import pytest

import cgtalg as cg
from cgtalg.errors import StoreCorruptError, StoreError
from cgtalg.store import open_store


def _digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _checkpoint(path) -> None:
    con = sqlite3.connect(path)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()


@pytest.fixture
def populated(tmp_path):
    path = tmp_path / "s.sqlite"
    with open_store(path) as store:
        for n in range(300):
            store.put(cg.nim(n % 9) + cg.nim(n % 7), f"p{n}", list(range(50)))
        store.put(cg.nim(2), "grundy", 2)
        store.put_position("octal:0.07", "5", "grundy", 1)
        store.extend_sequence("grundy:0.07", 0, [0, 0, 1, 1])
        store.put_sequence_meta("grundy:0.07", {"period": 34})
    _checkpoint(path)
    return path


def _sql(path, statement, *args) -> None:
    con = sqlite3.connect(path)
    with con:
        con.execute(statement, args)
    con.close()
    _checkpoint(path)


def test_invalid_json_property_names_table_and_key(populated):
    _sql(populated, "UPDATE form_properties SET value = '{not json' WHERE name = 'grundy'")
    with open_store(populated) as store:
        with pytest.raises(StoreCorruptError, match=r"form_properties.*property 'grundy'.*not valid JSON"):
            store.get(cg.nim(2), "grundy")
        with pytest.raises(StoreCorruptError, match=r"form_properties"):
            store.properties(cg.nim(2))
        with pytest.raises(StoreCorruptError, match=r"form_properties"):
            store.find(prop="grundy")
        with pytest.raises(StoreCorruptError, match=r"form_properties"):
            store.memo(cg.nim(2), "grundy", lambda: 2)


def test_wrong_type_and_bad_position_and_meta_rows(populated):
    _sql(populated, "UPDATE position_properties SET value = X'00ff' WHERE name = 'grundy'")
    _sql(populated, "UPDATE sequences SET meta = '[1, 2]'")
    with open_store(populated) as store:
        with pytest.raises(StoreCorruptError, match=r"position_properties.*not JSON text"):
            store.get_position("octal:0.07", "5", "grundy")
        with pytest.raises(StoreCorruptError, match=r"sequences.*'grundy:0.07'.*not a JSON object"):
            store.sequence_meta("grundy:0.07")


def test_cli_query_on_invalid_json_is_one_line_error(populated):
    _sql(populated, "UPDATE form_properties SET value = 'nope' WHERE name = 'grundy'")
    run = subprocess.run(
        [sys.executable, "-m", "cgtalg.cli.main", "--store", str(populated), "store", "query", "*2"],
        capture_output=True, text=True, env=dict(os.environ),
    )
    assert run.returncode != 0
    assert "Traceback" not in run.stderr
    assert "form_properties" in run.stderr and "grundy" in run.stderr


def test_malformed_image_refuses_every_write_and_leaves_file_unchanged(populated):
    size = populated.stat().st_size
    with open(populated, "r+b") as handle:  # the tamper: 4 KiB of random bytes mid-file
        handle.seek(size // 2)
        handle.write(os.urandom(4096))
    before = _digest(populated)
    with open_store(populated) as store:
        assert store.malformed is not None
        with pytest.raises(StoreCorruptError, match="malformed.*writes to it are refused"):
            store.put(cg.nim(5), "grundy", 5)
        with pytest.raises(StoreCorruptError, match="malformed"):
            store.extend_sequence("grundy:0.07", 4, [2])
    for args in (["game", "*2"], ["grundy", "0.07", "-n", "10"]):
        run = subprocess.run(
            [sys.executable, "-m", "cgtalg.cli.main", "--store", str(populated), *args],
            capture_output=True, text=True, env=dict(os.environ),
        )
        assert run.returncode == 2, (args, run.stdout, run.stderr)
        assert "malformed" in run.stderr and str(populated) in run.stderr
        assert "Traceback" not in run.stderr
    assert _digest(populated) == before


def test_missing_table_refuses_writes(populated):
    _sql(populated, "DROP TABLE form_relations")
    with open_store(populated) as store:
        assert "form_relations" in store.malformed
        with pytest.raises(StoreCorruptError, match="form_relations are missing.*writes to it are refused"):
            store.put(cg.nim(5), "grundy", 5)
        assert store.get(cg.nim(2), "grundy") == 2  # reads that still work answer


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores file permissions")
def test_read_only_directory_names_the_directory(populated):
    os.chmod(populated.parent, 0o555)
    try:
        with pytest.raises(StoreError, match="store directory .* is not writable"):
            with open_store(populated) as store:
                store.put(cg.nim(7), "grundy", 7)
    finally:
        os.chmod(populated.parent, 0o755)


def test_read_only_cause_is_named(populated, monkeypatch):
    # As root permissions are not enforced, so check the diagnosis itself.
    with open_store(populated) as store:
        monkeypatch.setattr(os, "access", lambda p, mode: str(p) != str(populated.parent))
        assert "store directory" in store._read_only_cause() and "not writable" in store._read_only_cause()
        monkeypatch.setattr(os, "access", lambda p, mode: str(p) != str(populated))
        assert "read-only database" in store._read_only_cause()


@pytest.mark.parametrize(
    "url, message",
    [
        ("postgresql://[::1/db", r"bad store URL 'postgresql://\[::1/db'"),
        ("postgresql://u@h:notaport/db", "bad store URL"),
        ("~nosuchuser_cgtalg/x.sqlite", r"bad store path '~nosuchuser_cgtalg/x.sqlite'.*no such user"),
    ],
)
def test_malformed_urls_and_unknown_users(url, message):
    with pytest.raises(StoreError, match=message):
        open_store(url)


def test_unreadable_form_row_is_named(populated):
    _sql(populated, "UPDATE forms SET options = 'x,y' WHERE id = (SELECT MAX(id) FROM forms)")
    with open_store(populated) as store:
        con = sqlite3.connect(populated)
        top = con.execute("SELECT MAX(id) FROM forms").fetchone()[0]
        con.close()
        with pytest.raises(StoreCorruptError, match=rf"table forms, row \(form {top}\) is unreadable"):
            store.game(top)


def test_migrations_dir_prefers_the_source_checkout():
    from pathlib import Path

    import cgtalg
    from cgtalg.store.migrate import migrations_dir

    source = Path(cgtalg.__file__).resolve().parents[1] / "migrations"
    if source.is_dir():
        assert migrations_dir() == source
    assert (migrations_dir() / "env.py").is_file()
