"""Store schema and migrations; stores that must be refused and left byte-for-byte unchanged.

A store written by a newer schema revision raises StoreSchemaError; a file that is not a
readable cgtalg store (random bytes, a truncated SQLite file, a damaged page, another
program's database) raises StoreCorruptError. Neither is written to or migrated.
The SQLite checks follow the file format's header layout (sqlite.org/fileformat.html §1.3).
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import sqlite3

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine

import cgtalg as cg
from cgtalg.errors import StoreCorruptError, StoreError, StoreSchemaError
from cgtalg.store import get_default_store, head_revision, open_store
from cgtalg.store.migrate import alembic_config, known_revisions
from cgtalg.store.schema import metadata


@pytest.fixture(autouse=True)
def _private_store_env(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("CGTALG_STORE", str(tmp_path / "env-store.sqlite"))


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def make_store(path, n=40):
    """A store with some forms and properties, closed (its WAL checkpointed into the file)."""
    with open_store(str(path)) as s:
        for k in range(n):
            g = cg.nim(k) + cg.star
            s.put(g, "grundy", cg.grundy(g))
        s.extend_sequence("seq", 0, list(range(1000)))
    assert not os.path.exists(f"{path}-wal")


def assert_refused(path, error, pattern):
    before = digest(path)
    with pytest.raises(error, match=pattern):
        open_store(str(path))
    with pytest.raises(error, match=pattern):
        get_default_store(str(path))
    assert digest(path) == before


# -- schema and migrations --------------------------------------------------------------
def test_migrations_have_one_head():
    assert head_revision() == "0003"
    assert known_revisions() == {"0001", "0002", "0003"}


def test_migrated_schema_matches_schema_module(tmp_path):
    """Alembic autogenerate finds no difference between a store migrated to head and the
    tables the code reads and writes (cgtalg/store/schema.py)."""
    path = tmp_path / "s.sqlite"
    open_store(str(path)).close()
    engine = create_engine(f"sqlite:///{path}")
    try:
        with engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), metadata)
    finally:
        engine.dispose()
    assert diff == []


def test_postgresql_migration_renders_offline():
    """The migration is portable: Alembic renders it for PostgreSQL without a server."""
    out = io.StringIO()
    cfg = alembic_config("postgresql://census@db.example.org/cgt")
    cfg.output_buffer = out
    with contextlib.redirect_stdout(out):
        command.upgrade(cfg, "head", sql=True)
    sql = out.getvalue()
    assert "CREATE TABLE forms (" in sql and "id BIGSERIAL NOT NULL" in sql
    assert "CONSTRAINT uq_forms_key_hash UNIQUE (key_hash)" in sql
    assert "data BYTEA NOT NULL" in sql
    assert "INSERT INTO alembic_version (version_num) VALUES ('0001')" in sql
    assert "UPDATE alembic_version SET version_num='0002'" in sql
    assert "ALTER TABLE form_properties ADD COLUMN algorithm INTEGER DEFAULT 1 NOT NULL" in sql
    assert "UPDATE alembic_version SET version_num='0003'" in sql
    assert sql.count("BEGIN;") == 1 and sql.count("COMMIT;") == 1  # one transaction


def test_developer_downgrade_and_upgrade(tmp_path):
    """The migration's downgrade (for developers; cgtalg never calls it) drops every table;
    opening the store then migrates it up again."""
    path = tmp_path / "s.sqlite"
    open_store(str(path)).close()
    command.downgrade(alembic_config(f"sqlite:///{path}"), "base")
    con = sqlite3.connect(path)
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    con.close()
    assert tables == {"alembic_version"}
    with open_store(str(path)) as s:
        assert s.revision == "0003" and s.info()["forms"] == 0


MIGRATION_0004 = '''
"""Test-only revision: a notes table."""
import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table("notes", sa.Column("id", sa.Integer(), primary_key=True), sa.Column("text", sa.Text()))
    op.execute("INSERT INTO notes (text) SELECT 'form ' || id FROM forms")


def downgrade():
    op.drop_table("notes")
'''


@pytest.fixture
def newer_code(tmp_path, monkeypatch):
    """The migrations of a (pretend) newer cgtalg: this package's plus a revision 0004."""
    import shutil

    from cgtalg.store import migrate

    scripts = tmp_path / "newer_migrations"
    shutil.copytree(migrate.migrations_dir(), scripts, ignore=shutil.ignore_patterns("__pycache__"))
    (scripts / "versions" / "0004_notes.py").write_text(MIGRATION_0004)
    migrate._script_revisions.cache_clear()
    monkeypatch.setattr(migrate, "migrations_dir", lambda: scripts)
    yield
    monkeypatch.undo()
    migrate._script_revisions.cache_clear()


def test_older_store_is_upgraded_keeping_its_data(tmp_path, request):
    """A store written at 0003 and opened by code whose head is 0004 is migrated up (the
    migration runs over the stored data) and keeps its data."""
    path = tmp_path / "s.sqlite"
    make_store(path, n=5)
    # nim-heaps are keyed by size: their implied options are not stored for them
    n_forms = len({h for k in range(5) for h in (cg.nim(k) + cg.star).subpositions(expand_atoms=False)})
    request.getfixturevalue("newer_code")
    assert head_revision() == "0004"
    with open_store(str(path)) as s:
        assert s.revision == "0004"
        assert s.get(cg.nim(3) + cg.star, "grundy") == 2  # *3 + *1: 3 XOR 1
        assert s.info()["forms"] == n_forms
        assert s.sequence("seq").tolist() == list(range(1000))
    con = sqlite3.connect(path)
    assert con.execute("SELECT COUNT(*) FROM notes").fetchone() == (n_forms,)
    con.close()


def test_store_upgraded_by_newer_code_is_refused(tmp_path, newer_code, monkeypatch):
    from cgtalg.store import migrate

    path = tmp_path / "s.sqlite"
    make_store(path, n=3)
    with open_store(str(path)) as s:
        assert s.revision == "0004"
    monkeypatch.undo()  # back to this package's migrations (head 0003)
    migrate._script_revisions.cache_clear()
    assert head_revision() == "0003"
    assert_refused(path, StoreSchemaError, r"has schema revision '0004', which this version of cgtalg does not know \(its newest is '0003'\)")


def test_empty_file_becomes_a_store(tmp_path):
    path = tmp_path / "empty.sqlite"
    path.write_bytes(b"")
    with open_store(str(path)) as s:
        s.put(cg.star, "grundy", 1)
    with open_store(str(path)) as s:
        assert s.get(cg.star, "grundy") == 1


# -- refused stores ----------------------------------------------------------------------
def test_newer_schema_revision_is_refused_untouched(tmp_path):
    path = tmp_path / "newer.sqlite"
    make_store(path)
    con = sqlite3.connect(path)
    con.execute("UPDATE alembic_version SET version_num = '0042_from_the_future'")
    con.commit()
    con.close()
    assert_refused(
        path,
        StoreSchemaError,
        rf"the store {path} has schema revision '0042_from_the_future', which this version of "
        r"cgtalg does not know \(its newest is '0003'\): a newer cgtalg wrote it\. Upgrade cgtalg "
        r"to use this store; it was left untouched",
    )


def test_newer_schema_in_rollback_journal_mode_is_untouched(tmp_path):
    """Even a store in rollback-journal mode (switching it to WAL would rewrite its header)
    is refused before anything is written."""
    path = tmp_path / "newer.sqlite"
    make_store(path)
    con = sqlite3.connect(path)
    con.execute("PRAGMA journal_mode = DELETE")
    con.execute("UPDATE alembic_version SET version_num = '0004'")
    con.commit()
    con.close()
    assert_refused(path, StoreSchemaError, r"has schema revision '0004'")


def test_random_bytes_are_refused_untouched(tmp_path):
    path = tmp_path / "random.sqlite"
    path.write_bytes(bytes(range(256)) * 40)
    assert_refused(
        path,
        StoreCorruptError,
        rf"the store file {path} is not a readable SQLite database: it does not start with the "
        r"SQLite header \(first bytes b'\\x00\\x01.*'\); it was left untouched",
    )


def test_truncated_sqlite_file_is_refused_untouched(tmp_path):
    path = tmp_path / "truncated.sqlite"
    make_store(path)
    data = path.read_bytes()
    page = int.from_bytes(data[16:18], "big")
    pages = len(data) // page
    path.write_bytes(data[: (pages // 2) * page])
    assert_refused(
        path,
        StoreCorruptError,
        rf"the store file {path} is not a readable SQLite database: it is truncated "
        rf"\({(pages // 2) * page} bytes; its header says {pages} pages of {page} bytes\)",
    )


def test_file_cut_mid_page_and_mid_header_are_refused(tmp_path):
    path = tmp_path / "cut.sqlite"
    make_store(path)
    data = path.read_bytes()
    path.write_bytes(data[:5000])
    assert_refused(path, StoreCorruptError, r"it is truncated \(5000 bytes; its header says \d+ pages")
    path.write_bytes(data[:60])
    assert_refused(path, StoreCorruptError, r"it is truncated \(60 bytes, shorter than the 100-byte header\)")


def test_damaged_schema_page_is_refused_untouched(tmp_path):
    path = tmp_path / "damaged.sqlite"
    make_store(path)
    data = bytearray(path.read_bytes())
    data[100:4000] = os.urandom(3900)  # page 1 after the header: the schema table
    path.write_bytes(bytes(data))
    assert_refused(path, StoreCorruptError, rf"the store file {path} is not a readable SQLite database: SQLite says: ")


def test_foreign_sqlite_database_is_refused_untouched(tmp_path):
    path = tmp_path / "other.sqlite"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE recipes (name TEXT)")
    con.execute("INSERT INTO recipes VALUES ('soup')")
    con.commit()
    con.close()
    assert_refused(
        path,
        StoreCorruptError,
        rf"{path} is not a cgtalg store: it has tables \(recipes\) but no schema revision "
        r"\(alembic_version\); it was left untouched",
    )


def test_corrupt_sequence_chunk_is_reported(tmp_path):
    path = tmp_path / "s.sqlite"
    make_store(path)
    con = sqlite3.connect(path)
    con.execute("UPDATE sequence_chunks SET data = X'00010203'")
    con.commit()
    con.close()
    with open_store(str(path)) as s:
        with pytest.raises(StoreCorruptError, match=r"chunk 0 of sequence 'seq' is unreadable: undecompressible data"):
            s.sequence("seq")


def test_directory_instead_of_file(tmp_path):
    (tmp_path / "dir.sqlite").mkdir()
    with pytest.raises(StoreError, match=r"the store path .*dir\.sqlite is not a file"):
        open_store(str(tmp_path / "dir.sqlite"))


def test_revision_0001_nim_heaps_are_rekeyed_keeping_ids(tmp_path):
    """Migration 0002 (nim-heaps keyed by size): a revision-0001 store, whose nim-heap rows are
    keyed by their options' ids, keeps every id and property; afterwards the same forms are
    found (not inserted again) and *10**18 can be stored."""
    import hashlib

    path = tmp_path / "old.sqlite"
    command.upgrade(alembic_config(f"sqlite:///{path}"), "0001")
    con = sqlite3.connect(path)
    sha = lambda t: hashlib.sha256(t.encode()).hexdigest()  # noqa: E731
    # revision-0001 keys, written as that code wrote them: *0..*3, then {*2} and {*3, *}
    rows = [(1, ""), (2, "1"), (3, "1,2"), (4, "1,2,3"), (5, "3"), (6, "2,4")]
    for i, key in rows:
        con.execute("INSERT INTO forms (id, key_hash, options, birthday) VALUES (?, ?, ?, ?)",
                    (i, sha(key), key, {1: 0, 2: 1, 3: 2, 4: 3, 5: 3, 6: 4}[i]))
    con.execute("INSERT INTO form_properties (form_id, name, value, value_hash) VALUES (4, 'grundy', '3', 'x')")
    con.commit()
    con.close()
    with open_store(str(path)) as s:
        assert s.revision == "0003"
        assert [s.form_id(cg.nim(k)) for k in range(4)] == [1, 2, 3, 4]
        assert s.form_id(cg.game([cg.nim(2)])) == 5 and s.form_id(cg.game([cg.nim(3), cg.star])) == 6
        assert s.get(cg.nim(3), "grundy") == 3
        assert s.info()["forms"] == 6  # nothing inserted twice
        s.put(cg.nim(10**18), "grundy", 10**18)  # keyed by size, never walked
        assert s.get(cg.nim(10**18), "grundy") == 10**18
        assert s.form_id(cg.game([cg.nim(10**18)])) == s.form_id(cg.game([cg.nim(10**18)]))
    con = sqlite3.connect(path)
    assert con.execute("SELECT options FROM forms WHERE id IN (1, 4) ORDER BY id").fetchall() == [("",), ("*3",)]
    con.close()
