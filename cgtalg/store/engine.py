"""The store's connection to its database: engines for SQLite and PostgreSQL, transactions,
database errors turned into cgtalg errors, and the retry of write transactions another writer
made the database abort.

SQLite stores run in WAL mode (readers never block the writer) with write transactions
taken with ``BEGIN IMMEDIATE`` and a busy timeout, so concurrent processes queue for the
write lock instead of failing; PostgreSQL stores use ``INSERT ... ON CONFLICT DO NOTHING``
and row locks for the same guarantees. See ``docs/store.md``.

:class:`StoreBase` holds a store's connection and caches; the other modules of the package
add the tables' operations to it as mixins, composed into :class:`cgtalg.store.Store`.
"""

from __future__ import annotations

import functools
import os
import random
import sqlite3
import threading
import time
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Sequence

from sqlalchemy import Table, UniqueConstraint, bindparam, create_engine, event, select
from sqlalchemy.engine import URL, Connection, Engine
from sqlalchemy.exc import DBAPIError, NoSuchModuleError
from sqlalchemy.pool import StaticPool

from cgtalg.core.game import Game
from cgtalg.errors import CgtalgError, StoreCorruptError, StoreError
from cgtalg.store.answers import CHECKED, check_answers, position_label
from cgtalg.store.codec import value_hash
from cgtalg.store.create import create_head_schema
from cgtalg.store.location import (  # BUSY_TIMEOUT, QUICK_CHECK_LIMIT, quick_check, switch_to_wal: re-exported
    BUSY_TIMEOUT,
    QUICK_CHECK_LIMIT,
    describe_url,
    inspect_sqlite_file,
    is_corruption_error,
    quick_check,
    resolve_store_url,
    sqlite_file,
    switch_to_wal,
    user_store_path,
)
from cgtalg.store.migrate import check_revision, ensure_schema, head_revision, read_state
from cgtalg.store.provenance import Provenance, current_version, made_by
from cgtalg.store.rows import StoredRows
from cgtalg.store.schema import metadata

__all__ = [
    "StoreBase",
    "BUSY_TIMEOUT",
    "IN_BATCH",
    "WRITE_RETRIES",
    "RETRY_PAUSES",
    "TRANSIENT_SQLSTATES",
    "TransientStoreError",
    "sqlstate",
    "retry_transient",
    "QUICK_CHECK_LIMIT",
    "quick_check",
    "missing_tables",
    "unique_key",
    "value_select",
    "row_select",
    "make_engine",
    "switch_to_wal",
    "insert_dialect",
    "table_owner",
]

#: Ids per SQL ``IN (...)`` list.
IN_BATCH = 500

#: Attempts of a write transaction that PostgreSQL aborted to resolve a conflict between
#: writers (a deadlock victim, SQLSTATE 40P01; a serialization failure, 40001), with
#: exponential backoff and jitter from 20 ms up to 2 s between attempts (about 15 s in all).
WRITE_RETRIES = 12
RETRY_PAUSES = (0.02, 2.0)
TRANSIENT_SQLSTATES = frozenset({"40P01", "40001"})
_RETRYING = threading.local()


class TransientStoreError(StoreError):
    """The database aborted a write transaction to resolve a conflict with another writer:
    nothing of it was written, and running it again is safe."""


def sqlstate(exc: BaseException) -> str | None:
    """The SQLSTATE of a DBAPI error (psycopg2 ``pgcode``, psycopg 3 ``sqlstate``), else None."""
    return getattr(exc, "pgcode", None) or getattr(exc, "sqlstate", None)


def retry_transient(method: Callable) -> Callable:
    """Run a write method again when the database aborted its transaction as a deadlock victim
    or for a serialization failure. Safe because every write method is one transaction and
    idempotent (write-once values, ``INSERT ... ON CONFLICT DO NOTHING``), and ids assigned
    in a rolled-back transaction never reach the caches. Only the outermost decorated call
    retries (a nested one is part of its transaction)."""

    @functools.wraps(method)
    def wrapper(self: "StoreBase", *args: Any, **kwargs: Any) -> Any:
        if getattr(_RETRYING, "active", False):
            return method(self, *args, **kwargs)
        pause = RETRY_PAUSES[0]
        _RETRYING.active = True
        try:
            for attempt in range(1, WRITE_RETRIES + 1):
                try:
                    return method(self, *args, **kwargs)
                except TransientStoreError as exc:
                    if attempt == WRITE_RETRIES:
                        raise StoreError(f"{exc} (gave up after {attempt} attempts)") from exc
                    self.write_retries += 1
                    time.sleep(pause * (0.5 + random.random()))
                    pause = min(2 * pause, RETRY_PAUSES[1])
        finally:
            _RETRYING.active = False

    return wrapper


def missing_tables(tables: Sequence[str]) -> list[str]:
    """The store's tables (:data:`cgtalg.store.schema.metadata`) absent from ``tables``
    (the table names read from the database)."""
    present = set(tables)
    return [name for name in metadata.tables if name not in present]


def unique_key(table: Table) -> list[str]:
    """The columns of ``table``'s unique constraint, else of its primary key."""
    for constraint in table.constraints:
        if isinstance(constraint, UniqueConstraint):
            return [c.name for c in constraint.columns]
    return [c.name for c in table.primary_key.columns]


# Not a registered cache (cgtalg.caches): one SQL statement per table, not a computed answer.
@functools.lru_cache(maxsize=None)
def value_select(table: Table):
    """``SELECT value FROM table WHERE <primary key> = :<column names>``."""
    return select(table.c.value).where(*(c == bindparam(c.name) for c in table.primary_key.columns))


# Not a registered cache (cgtalg.caches): one SQL statement per table, not a computed answer.
@functools.lru_cache(maxsize=None)
def row_select(table: Table):
    """``SELECT value, algorithm, made_by FROM table WHERE <primary key> = :<column names>``."""
    return select(table.c.value, table.c.algorithm, table.c.made_by).where(
        *(c == bindparam(c.name) for c in table.primary_key.columns)
    )


def make_engine(url: URL, where: str) -> Engine:
    """An engine for ``url``; for SQLite with WAL, busy timeout, foreign keys, BEGIN IMMEDIATE."""
    try:
        if url.get_backend_name() != "sqlite":
            return create_engine(url, pool_pre_ping=True)
        in_memory = sqlite_file(url) is None
        engine = create_engine(
            url,
            connect_args={"timeout": BUSY_TIMEOUT, "check_same_thread": False},
            **({"poolclass": StaticPool} if in_memory else {}),
        )
    except (ImportError, NoSuchModuleError) as exc:
        raise StoreError(
            f"cannot open the store {where}: its database driver is not installed ({exc})"
        ) from None

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection, _record) -> None:
        # Let SQLAlchemy's "begin" event below issue BEGIN itself (the pysqlite recipe in
        # SQLAlchemy's SQLite dialect documentation), so that writers can BEGIN IMMEDIATE.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute("PRAGMA foreign_keys = ON")
            if not in_memory:
                switch_to_wal(cursor)
                cursor.execute("PRAGMA synchronous = NORMAL")
            cursor.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT * 1000)}")
        finally:
            cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        # A write transaction takes the write lock at BEGIN: a reader that later upgraded
        # to a writer could fail with SQLITE_BUSY at once, without waiting.
        write = conn.get_execution_options().get("cgtalg_write", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

    return engine


def insert_dialect(name: str) -> Any:
    """SQLAlchemy's dialect module (``sqlalchemy.dialects.postgresql`` or ``.sqlite``) whose
    ``insert`` has ``ON CONFLICT`` for a store of the dialect ``name``; imported on first use
    (the PostgreSQL dialect costs about 30 ms to import)."""
    if name == "postgresql":
        from sqlalchemy.dialects import postgresql

        return postgresql
    from sqlalchemy.dialects import sqlite

    return sqlite


def table_owner(row: dict) -> str:
    """The owner column (``form_id`` or ``position_id``) of a row of a property table."""
    return "form_id" if "form_id" in row else "position_id"


class StoreBase(StoredRows):
    """A store's connection, transactions and caches (see :class:`cgtalg.store.Store`)."""

    def __init__(self, url: str | os.PathLike | URL | None = None, serve_stale: bool = False) -> None:
        self._url = resolve_store_url(url)
        self.url: str = self._url.render_as_string(hide_password=False)
        self._where = describe_url(self._url)
        self._closed = True
        self._malformed: str | None = None  # why writes are refused, once the store is malformed
        path = sqlite_file(self._url)
        if path is not None:
            if not path.parent.is_dir():
                if path != user_store_path():
                    raise StoreError(
                        f"cannot create the store {path}: the directory {path.parent} does not exist"
                    )
                path.parent.mkdir(parents=True, exist_ok=True)
            state = inspect_sqlite_file(path)
            if state in (None, ([], [])) and create_head_schema(path):  # a new store: made without Alembic
                state = inspect_sqlite_file(path)
            if state is not None:
                revision = check_revision(self._where, *state)
                self._malformed = quick_check(path)
                if self._malformed is None:
                    missing = missing_tables(state[0]) if revision is not None else []
                    if missing:
                        self._malformed = f"its table(s) {', '.join(missing)} are missing"
        self._engine = make_engine(self._url, self._where)
        try:
            with self._translate():
                if self._malformed is not None:
                    # Never migrate (write) a malformed store: reads that still work may answer.
                    self.revision: str = revision or head_revision()
                else:
                    self.revision = ensure_schema(self._engine, self._where)
                    with self._engine.connect() as conn:
                        missing = missing_tables(read_state(conn)[0])
                    if missing:
                        self._malformed = f"its table(s) {', '.join(missing)} are missing"
        except BaseException:
            self._engine.dispose()
            raise
        self._dialect = self._engine.dialect.name
        self._pid = os.getpid()
        self._closed = False
        self._form_ids: dict[int, int] = {}  # Game.id -> store id (committed rows only)
        self._games: dict[int, Game] = {}  # store id -> Game
        self._inserts: dict[str, Any] = {}  # table name -> INSERT ... ON CONFLICT DO NOTHING
        # (Game.id, property, algorithm version) -> stored value (frozen) or its JSON text:
        # current stored values never change (writes are write-once among current rows), so
        # a memo hit is a dict lookup; the version in the key makes a bumped version miss.
        self._values: dict[tuple[int, str, int], Any] = {}
        self.stats: dict[str, int] = {"hits": 0, "misses": 0, "stale": 0}
        #: Serve rows written by an older algorithm version (and record them in
        #: :attr:`stale_served`) instead of treating them as absent.
        self.serve_stale = bool(serve_stale)
        #: The stale rows served (with :attr:`serve_stale`): ``(table, key, Provenance)``.
        self.stale_served: list[tuple[str, str, Provenance]] = []
        #: Write transactions run again after the database aborted them (deadlock victims,
        #: serialization failures; see :data:`WRITE_RETRIES`).
        self.write_retries = 0

    # -- plumbing ----------------------------------------------------------------------
    def close(self) -> None:
        """Close the store's connections. Later calls on it raise :class:`StoreError`."""
        if not self._closed:
            self._closed = True
            self._engine.dispose()

    @contextmanager
    def _translate(self) -> Iterator[None]:
        """Turn database errors into :class:`StoreError` / :class:`StoreCorruptError`."""
        try:
            yield
        except CgtalgError:
            raise
        except DBAPIError as exc:
            raise self._database_error(exc.orig if exc.orig is not None else exc) from exc
        except sqlite3.Error as exc:
            raise self._database_error(exc) from exc

    @property
    def malformed(self) -> str | None:
        """Why the store is malformed (then every write is refused), else ``None``."""
        return self._malformed

    def _database_error(self, exc: BaseException) -> StoreError:
        if is_corruption_error(exc):
            self._malformed = f"the database says: {exc}"
            return StoreCorruptError(
                f"the store {self._where} is malformed ({self._malformed}): writes to it are refused"
            )
        if sqlstate(exc) in TRANSIENT_SQLSTATES:
            return TransientStoreError(
                f"the store {self._where}: the database aborted a write transaction to resolve a conflict "
                f"with another writer (nothing of it was written): {exc}"
            )
        lowered = str(exc).lower()
        if self._url.get_backend_name() == "sqlite" and ("locked" in lowered or "busy" in lowered):
            return StoreError(
                f"the store {self._where} stayed locked by another process for more than "
                f"{BUSY_TIMEOUT:g} s: {exc}"
            )
        if "readonly" in lowered or "read-only" in lowered:
            return StoreError(f"{self._read_only_cause()}: {exc}")
        return StoreError(f"database error in the store {self._where}: {exc}")

    def _read_only_cause(self) -> str:
        """The real reason SQLite said "readonly": the directory, the file, or the database."""
        path = sqlite_file(self._url)
        if path is not None:
            if not os.access(path.parent, os.W_OK):
                return (
                    f"cannot write to the store {self._where}: the store directory {path.parent} is "
                    "not writable (SQLite needs to create its -wal and -shm files there)"
                )
            if path.exists() and not os.access(path, os.W_OK):
                return f"cannot write to the store {self._where}: the file is a read-only database"
        return f"cannot write to the store {self._where}: it is a read-only database"

    @contextmanager
    def _transaction(self, write: bool = False) -> Iterator[Connection]:
        """One transaction; ``write`` takes the write lock up front (SQLite IMMEDIATE)."""
        if self._closed:
            raise StoreError(f"the store {self._where} is closed")
        if write and self._malformed is not None:
            raise StoreCorruptError(
                f"the store {self._where} is malformed ({self._malformed}): writes to it are "
                "refused; run `cgtalg store verify`, restore a backup or recover it with "
                "`sqlite3 FILE .recover`"
            )
        if os.getpid() != self._pid:  # forked: the parent's connections are not ours
            self._engine.dispose(close=False)
            self._pid = os.getpid()
        with self._translate(), self._engine.connect() as conn:
            if write:
                conn.execution_options(cgtalg_write=True)
            with conn.begin():
                yield conn

    def _insert_ignore(self, table: Table):
        """``INSERT ... ON CONFLICT (its unique key) DO NOTHING`` into ``table``, for this
        store's dialect (built once per table; execute it with the row as parameters)."""
        statement = self._inserts.get(table.name)
        if statement is None:
            insert = insert_dialect(self._dialect).insert(table)
            statement = insert.on_conflict_do_nothing(index_elements=unique_key(table))
            self._inserts[table.name] = statement
        return statement

    def forget_cache(self) -> None:
        """Empty this store object's in-process cache of values (they are read again from the
        database). Not needed after a version bump (the cache is keyed by version)."""
        self._values.clear()

    def _upsert(self, table: Table, replace: bool = False):
        """``INSERT ... ON CONFLICT (primary key) DO UPDATE`` of a table of results that
        replaces only a stale row (one whose ``algorithm`` is older than the new row's): the
        write-once rule holds among current rows. Execute it with the rows (``algorithm`` and
        ``made_by`` included) as parameters; built once per table. With ``replace`` every
        row is overwritten (a repair: the caller proved the stored row wrong)."""
        name = ("replace " if replace else "upsert ") + table.name
        statement = self._inserts.get(name)
        if statement is None:
            insert = insert_dialect(self._dialect).insert(table)
            columns = [c.name for c in table.columns if not c.primary_key]
            statement = insert.on_conflict_do_update(
                index_elements=[c.name for c in table.primary_key.columns],
                set_={c: insert.excluded[c] for c in columns},
                where=None if replace else table.c.algorithm < insert.excluded.algorithm,
            )
            self._inserts[name] = statement
        return statement

    def _put_value(self, conn: Connection, table: Table, key: dict, text: str, what: Callable[[], str]) -> bool:
        """Insert a write-once value under the primary ``key`` of ``table`` (whose ``name``
        gives its algorithm version), replacing a stale row; raise if a different current
        value is stored there. A row written by a newer version is left as it is (then the
        result is False: the store does not hold this value)."""
        version = current_version(key["name"])
        values = dict(key, value=text, algorithm=version, made_by=made_by())
        if "value_hash" in table.c:
            values["value_hash"] = value_hash(text)
        conn.execute(self._upsert(table), values)
        stored, algorithm, _made = conn.execute(row_select(table), key).one()
        return self._write_once(stored, algorithm, text, version, what)

    # -- rows of the property tables (form_properties, position_properties) -------------------
    def _stored_texts(
        self, conn: Connection, table: Table, keys: set[tuple[int, str]]
    ) -> dict[tuple[int, str], tuple[str, int, str | None]]:
        """Stored rows of ``table`` ``(owner id, name) -> (text, algorithm, made_by)``, the
        owner being its first key column (a form or a position); one SELECT per
        :data:`IN_BATCH` owners. Stale rows included."""
        owner = table.primary_key.columns[0]
        ids = sorted({k[0] for k in keys})
        names = sorted({k[1] for k in keys})
        out: dict[tuple[int, str], tuple[str, int, str | None]] = {}
        for start in range(0, len(ids), IN_BATCH):
            query = select(owner, table.c.name, table.c.value, table.c.algorithm, table.c.made_by).where(
                owner.in_(ids[start : start + IN_BATCH]), table.c.name.in_(names)
            )
            for owner_id, name, value, algorithm, made in conn.execute(query):
                out[(owner_id, name)] = (value, algorithm, made)
        return out

    def _owner_rows(self, conn: Connection, table: str, owner_id: int, names: Sequence[str]) -> dict[str, tuple]:
        """``{name: (text, algorithm, made_by)}`` of the properties ``names`` of one owner (a
        form or a position) in the property table ``table``, stale or not."""
        rows = self._stored_texts(conn, metadata.tables[table], {(owner_id, n) for n in names})
        return {n: row for (_i, n), row in rows.items()}

    def _check_written(self, stored: dict[tuple[int, str], tuple[str, int, str | None]],
                       params: list[dict], describe: Callable[[dict], str]) -> set[tuple[int, str]]:
        """After a batch upsert: raise if a row of ``params`` meets a different *current*
        stored value (``describe(row)`` names its key); stale rows were replaced and rows of a
        newer version are left alone: their keys are returned."""
        newer = set()
        for p in params:
            text, algorithm, _made = stored.get((p[table_owner(p)], p["name"]), (None, None, None))
            self._write_once(text, algorithm, p["value"], p["algorithm"], lambda: describe(p), batch=True)
            if algorithm is not None and algorithm > p["algorithm"]:
                newer.add((p[table_owner(p)], p["name"]))
        return newer

    def _properties(self, conn: Connection, table: Table, ids: list[int]) -> dict[int, dict[str, Any]]:
        """Every stored property of each owner (form or position) in ``ids``, decoded:
        ``{owner id: {name: value}}``, names in order. The current answers of each owner are
        checked against each other (:func:`cgtalg.store.answers.check_answers`)."""
        owner = table.primary_key.columns[0]
        kind = owner.name.removesuffix("_id")
        result: dict[int, dict[str, Any]] = {i: {} for i in ids}
        checked: dict[int, dict[str, Any]] = {}
        for start in range(0, len(ids), IN_BATCH):
            query = (
                select(owner, table.c.name, table.c.value, table.c.algorithm, table.c.made_by)
                .where(owner.in_(ids[start : start + IN_BATCH]))
                .order_by(table.c.name)
            )
            for owner_id, name, value, algorithm, made in conn.execute(query):
                key = f"{kind} {owner_id}, property {name!r}"
                current = algorithm == current_version(name)
                if current or self._fresh(table.name, lambda: key, name, algorithm, made):
                    result[owner_id][name] = self._load(value, table.name, key)
                    if current and name in CHECKED:
                        checked.setdefault(owner_id, {})[name] = result[owner_id][name]
        for owner_id, values in checked.items():
            check_answers(values, where=self._where, table=table.name,
                          label=functools.partial(self._owner_label, conn, kind, owner_id))
        return result

    @staticmethod
    def _owner_label(conn: Connection, kind: str, owner_id: int) -> str:
        """How an error names a form (``form 12``) or a position (its text, ruleset key and id)."""
        if kind != "position":
            return f"{kind} {owner_id}"
        table = metadata.tables["positions"]
        row = conn.execute(select(table.c.ruleset, table.c.position).where(table.c.id == owner_id)).first()
        return f"position {owner_id}" if row is None else position_label(owner_id, row.ruleset, row.position)
