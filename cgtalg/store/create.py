"""A new SQLite store, created at the newest schema through Python's own ``sqlite3``.

Creating a store through Alembic (``alembic upgrade head`` on an empty file) costs the import of
SQLAlchemy and Alembic and the run of every migration, 2 to 5 s in a fresh process, for a result
that is always the same: the tables of the head revision, and ``alembic_version`` stamped with
it (issue 35). :func:`create_head_schema` writes that result directly: :data:`HEAD_DDL`, the
statements Alembic's upgrade to head leaves in ``sqlite_master``, word for word, then the stamp.
A store made here is therefore the same file Alembic would have made, and later migrations run
on it through Alembic as on any other store (``tests/test_light_store_urls.py`` checks the
statements against a store Alembic upgraded, table by table and index by index).

Only a new store is created here: an empty or absent file. Every existing store (older, newer,
foreign, corrupt) is left to :class:`cgtalg.store.Store`, which migrates or refuses it in its own
words. Two processes creating one store at once are serialised by SQLite's write lock: the
statements run in one ``BEGIN IMMEDIATE`` transaction that reads ``sqlite_master`` again first,
so the second process finds the tables the first made and creates nothing (the full store's
:func:`cgtalg.store.migrate.ensure_schema` takes the same lock, so it also meets the tables
complete or not at all).
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from cgtalg.errors import StoreError
from cgtalg.store.location import BUSY_TIMEOUT, inspect_sqlite_file, plain_store_path, switch_to_wal, user_store_path

__all__ = ["HEAD_REVISION", "HEAD_DDL", "TABLES", "create_head_schema", "new_store_path"]

#: The newest schema revision (the Alembic head of ``migrations/versions``), known here without
#: importing Alembic or reading the scripts; ``tests/test_light_commands.py`` checks it against
#: Alembic's own head. A new migration must update it and :data:`HEAD_DDL` (until then new
#: stores are created by Alembic and stores at the new head open the full store, so a stale
#: constant costs time, never correctness: see :func:`create_head_schema`).
HEAD_REVISION = "0003"

#: The tables of a store at :data:`HEAD_REVISION` (those of :data:`cgtalg.store.schema.metadata`,
#: checked by the tests).
TABLES = ("forms", "form_properties", "form_relations", "positions", "position_properties",
          "sequences", "sequence_chunks")

#: The ``sqlite_master`` statements of a store Alembic upgraded to :data:`HEAD_REVISION` on an
#: empty file, in their order and spelling (the column clauses that end in
#: ``algorithm ..., made_by ...`` are SQLite's rendering of the ``ADD COLUMN`` of migration
#: 0003). Generated once from such a store (``SELECT sql FROM sqlite_master ORDER BY rowid``);
#: ``tests/test_light_store_urls.py`` regenerates and compares them.
HEAD_DDL: tuple[str, ...] = (
    ('CREATE TABLE alembic_version (\n'
     '\tversion_num VARCHAR(32) NOT NULL, \n'
     '\tCONSTRAINT alembic_version_pkc PRIMARY KEY (version_num)\n'
     ')'),
    ('CREATE TABLE forms (\n'
     '\tid INTEGER NOT NULL, \n'
     '\tkey_hash VARCHAR(64) NOT NULL, \n'
     '\toptions TEXT NOT NULL, \n'
     '\tbirthday INTEGER NOT NULL, \n'
     '\tCONSTRAINT pk_forms PRIMARY KEY (id), \n'
     '\tCONSTRAINT uq_forms_key_hash UNIQUE (key_hash)\n'
     ')'),
    ('CREATE TABLE form_properties (\n'
     '\tform_id INTEGER NOT NULL, \n'
     '\tname VARCHAR(100) NOT NULL, \n'
     '\tvalue TEXT NOT NULL, \n'
     '\tvalue_hash VARCHAR(32) NOT NULL, algorithm INTEGER DEFAULT 1 NOT NULL, made_by VARCHAR(40), \n'
     '\tCONSTRAINT pk_form_properties PRIMARY KEY (form_id, name), \n'
     '\tCONSTRAINT fk_form_properties_form_id_forms FOREIGN KEY(form_id) REFERENCES forms (id)\n'
     ')'),
    'CREATE INDEX ix_form_properties_name_value_hash ON form_properties (name, value_hash)',
    ('CREATE TABLE form_relations (\n'
     '\tform_id INTEGER NOT NULL, \n'
     '\tother_id INTEGER NOT NULL, \n'
     '\tname VARCHAR(100) NOT NULL, \n'
     '\tvalue TEXT NOT NULL, algorithm INTEGER DEFAULT 1 NOT NULL, made_by VARCHAR(40), \n'
     '\tCONSTRAINT pk_form_relations PRIMARY KEY (form_id, other_id, name), \n'
     '\tCONSTRAINT fk_form_relations_form_id_forms FOREIGN KEY(form_id) REFERENCES forms (id), \n'
     '\tCONSTRAINT fk_form_relations_other_id_forms FOREIGN KEY(other_id) REFERENCES forms (id)\n'
     ')'),
    'CREATE INDEX ix_form_relations_name ON form_relations (name)',
    ('CREATE TABLE positions (\n'
     '\tid INTEGER NOT NULL, \n'
     '\truleset VARCHAR(200) NOT NULL, \n'
     '\tposition_hash VARCHAR(64) NOT NULL, \n'
     '\tposition TEXT NOT NULL, \n'
     '\tCONSTRAINT pk_positions PRIMARY KEY (id), \n'
     '\tCONSTRAINT uq_positions_ruleset_position_hash UNIQUE (ruleset, position_hash)\n'
     ')'),
    ('CREATE TABLE position_properties (\n'
     '\tposition_id INTEGER NOT NULL, \n'
     '\tname VARCHAR(100) NOT NULL, \n'
     '\tvalue TEXT NOT NULL, \n'
     '\tvalue_hash VARCHAR(32) NOT NULL, algorithm INTEGER DEFAULT 1 NOT NULL, made_by VARCHAR(40), \n'
     '\tCONSTRAINT pk_position_properties PRIMARY KEY (position_id, name), \n'
     '\tCONSTRAINT fk_position_properties_position_id_positions FOREIGN KEY(position_id) REFERENCES positions (id)\n'
     ')'),
    'CREATE INDEX ix_position_properties_name_value_hash ON position_properties (name, value_hash)',
    ('CREATE TABLE sequences (\n'
     '\t"key" VARCHAR(200) NOT NULL, \n'
     '\tlength BIGINT NOT NULL, \n'
     '\tmeta TEXT, algorithm INTEGER DEFAULT 1 NOT NULL, made_by VARCHAR(40), \n'
     '\tCONSTRAINT pk_sequences PRIMARY KEY ("key")\n'
     ')'),
    ('CREATE TABLE sequence_chunks (\n'
     '\tsequence_key VARCHAR(200) NOT NULL, \n'
     '\tstart BIGINT NOT NULL, \n'
     '\tcount INTEGER NOT NULL, \n'
     '\tcodec VARCHAR(16) NOT NULL, \n'
     '\tdata BLOB NOT NULL, \n'
     '\tCONSTRAINT pk_sequence_chunks PRIMARY KEY (sequence_key, start), \n'
     '\tCONSTRAINT fk_sequence_chunks_sequence_key_sequences FOREIGN KEY(sequence_key) REFERENCES sequences ("key")\n'
     ')'),
)


def new_store_path(url: str | os.PathLike | None = None) -> Path | None:
    """The file of a new store :func:`create_head_schema` may create for ``url``: a path or a
    plain ``sqlite:///`` URL (:func:`~cgtalg.store.location.plain_store_path`) whose file is
    absent, empty or a database without tables (one another process is creating) and whose
    folder exists (the per-user store's folder is made, as the full
    store makes it). ``None`` for anything else, which the full store creates or reports."""
    try:
        path = plain_store_path(url)
        if path is None:
            return None
        if not path.parent.is_dir():
            if path != user_store_path():
                return None  # the full store names the missing folder
            path.parent.mkdir(parents=True, exist_ok=True)
        state = inspect_sqlite_file(path)
        if state is not None and state != ([], []):  # no table yet: another process is creating it
            return None
    except (StoreError, OSError, TypeError):
        return None
    return path


def create_head_schema(path: Path) -> bool:
    """Create the tables of :data:`HEAD_REVISION` in the SQLite file ``path`` if it has none,
    in WAL mode, stamped as Alembic stamps a store at the head.

    Returns
    -------
    bool
        True when the file now holds a store at :data:`HEAD_REVISION` (created here, or by
        another process that got the write lock first); False when it holds anything else (a
        store of another revision, a foreign database) or SQLite failed, which the full store
        then opens, migrates or reports. Nothing is written unless the file had no table.
    """
    try:
        con = sqlite3.connect(f"{path.as_uri()}?mode=rwc", uri=True, timeout=BUSY_TIMEOUT, isolation_level=None)
    except sqlite3.Error:
        return False
    try:
        cursor = con.cursor()
        switch_to_wal(cursor)  # before any table: the mode every store runs in
        cursor.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT * 1000)}")
        cursor.execute("BEGIN IMMEDIATE")
        try:
            tables = {row[0] for row in cursor.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if not tables:
                for statement in HEAD_DDL:
                    cursor.execute(statement)
                cursor.execute("INSERT INTO alembic_version (version_num) VALUES (?)", (HEAD_REVISION,))
                cursor.execute("COMMIT")
                return True
            at_head = ("alembic_version" in tables and set(TABLES) <= tables
                       and [r[0] for r in cursor.execute("SELECT version_num FROM alembic_version")] == [HEAD_REVISION])
            cursor.execute("ROLLBACK")
            return at_head
        except BaseException:
            if con.in_transaction:
                con.execute("ROLLBACK")
            raise
    except sqlite3.Error:
        return False
    finally:
        con.close()
