"""The persistent store: forms with stable ids, their properties and relations, cached
results for ruleset positions, and long integer sequences, in one SQL database.

Forms are hash-consed in the database as they are in memory (:mod:`cgtalg.core.game`): the
key of a form is the ascending list of its options' store ids, so two processes storing the
same form get the same id, whatever order they built their forms in. A nim-heap ``*n`` (an atom
of the form type, any ``n``) is keyed by its size, ``"*n"``, so storing ``*10**18`` or a form
with it as an option never walks its implied options (``*0`` keeps the empty key). Every write is one
transaction; stored values are write-once (a different value for the same key raises
:class:`~cgtalg.errors.StoreError` rather than replacing it), which is what makes a store
shared by many processes, and a computation resumed after an interruption, safe.

SQLite stores run in WAL mode (readers never block the writer) with write transactions
taken with ``BEGIN IMMEDIATE`` and a busy timeout, so concurrent processes queue for the
write lock instead of failing; PostgreSQL stores use ``INSERT ... ON CONFLICT DO NOTHING``
and row locks for the same guarantees. See ``docs/store.md``.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sqlite3
import threading
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Sequence

import numpy as np
from sqlalchemy import Table, UniqueConstraint, bindparam, create_engine, delete, event, func, insert, select, update
from sqlalchemy.dialects import postgresql as _postgresql
from sqlalchemy.dialects import sqlite as _sqlite
from sqlalchemy.engine import URL, Connection, Engine
from sqlalchemy.exc import DBAPIError, NoSuchModuleError
from sqlalchemy.pool import StaticPool

from cgtalg.core.game import forms_by_id
from cgtalg.core.game import Game
from cgtalg.core.game import game as make_game
from cgtalg.core.notation import format_game, parse
from cgtalg.core.partizan import PartizanGame
from cgtalg.errors import CgtalgError, StoreCorruptError, StoreError
from cgtalg.store.codec import (
    as_int64,
    check_game,
    check_index,
    check_text,
    decode_chunk,
    encode_chunk,
    encode_value,
    shorten,
    value_hash,
)
from cgtalg.store.location import (
    describe_url,
    inspect_sqlite_file,
    is_corruption_error,
    resolve_store_url,
    sqlite_file,
    user_store_path,
)
from cgtalg.store.migrate import check_revision, ensure_schema, head_revision, read_state
from cgtalg.store.schema import (
    CHUNK_SIZE,
    NAME_LENGTH,
    RULESET_LENGTH,
    SEQUENCE_KEY_LENGTH,
    form_properties,
    form_relations,
    forms,
    position_properties,
    positions,
    sequence_chunks,
    sequences,
)

__all__ = ["Store", "open_store", "get_default_store", "compact_text", "atom_key", "BIRTHDAY_CAP", "BUSY_TIMEOUT", "QUICK_CHECK_LIMIT", "VALUE_CACHE_SIZE", "MAX_LIMIT"]

#: Seconds a SQLite writer waits for another process's write lock before giving up.
BUSY_TIMEOUT = 60.0

_IN_BATCH = 500  # ids per SQL ``IN (...)`` list
_MAX_PENDING_ROWS = 32  # rows of a sequence after its last full chunk, before merging

#: Attempts of a write transaction that PostgreSQL aborted to resolve a conflict between
#: writers (a deadlock victim, SQLSTATE 40P01; a serialization failure, 40001), with
#: exponential backoff and jitter from 20 ms up to 2 s between attempts (about 15 s in all).
WRITE_RETRIES = 12
_RETRY_PAUSES = (0.02, 2.0)
_TRANSIENT_SQLSTATES = frozenset({"40P01", "40001"})
_RETRYING = threading.local()


class _TransientStoreError(StoreError):
    """The database aborted a write transaction to resolve a conflict with another writer:
    nothing of it was written, and running it again is safe."""


def _sqlstate(exc: BaseException) -> str | None:
    """The SQLSTATE of a DBAPI error (psycopg2 ``pgcode``, psycopg 3 ``sqlstate``), else None."""
    return getattr(exc, "pgcode", None) or getattr(exc, "sqlstate", None)


def _retry_transient(method: Callable) -> Callable:
    """Run a write method again when the database aborted its transaction as a deadlock victim
    or for a serialization failure. Safe because every write method is one transaction and
    idempotent (write-once values, ``INSERT ... ON CONFLICT DO NOTHING``), and ids assigned
    in a rolled-back transaction never reach the caches. Only the outermost decorated call
    retries (a nested one is part of its transaction)."""

    @functools.wraps(method)
    def wrapper(self: "Store", *args: Any, **kwargs: Any) -> Any:
        if getattr(_RETRYING, "active", False):
            return method(self, *args, **kwargs)
        import random
        import time

        pause = _RETRY_PAUSES[0]
        _RETRYING.active = True
        try:
            for attempt in range(1, WRITE_RETRIES + 1):
                try:
                    return method(self, *args, **kwargs)
                except _TransientStoreError as exc:
                    if attempt == WRITE_RETRIES:
                        raise StoreError(f"{exc} (gave up after {attempt} attempts)") from exc
                    self.write_retries += 1
                    time.sleep(pause * (0.5 + random.random()))
                    pause = min(2 * pause, _RETRY_PAUSES[1])
        finally:
            _RETRYING.active = False

    return wrapper


def open_store(url: str | os.PathLike | None = None) -> "Store":
    """Open (creating and migrating on first use) the store at ``url``.

    Parameters
    ----------
    url : str, optional
        ``None`` means ``$CGTALG_STORE``, else the per-user SQLite file
        (:func:`cgtalg.store.user_store_path`); a plain path means a SQLite file; otherwise
        any SQLAlchemy URL of a SQLite or PostgreSQL database.

    Returns
    -------
    Store

    Raises
    ------
    StoreSchemaError
        The store was written by a newer cgtalg (its schema revision is unknown here).
    StoreCorruptError
        The file is not a SQLite database, is truncated, or is not a cgtalg store.
    StoreError
        The URL is malformed, its driver is missing, or the database cannot be opened.

    Examples
    --------
    >>> import cgtalg as cg
    >>> from cgtalg.store import open_store
    >>> store = open_store(":memory:")
    >>> store.memo(cg.parse("{*2}"), "grundy", lambda: cg.grundy(cg.parse("{*2}")))
    0
    >>> store.get(cg.parse("{*2}"), "grundy"), store.stats
    (0, {'hits': 0, 'misses': 1})
    """
    return Store(url)


_OPEN: dict[str, "Store"] = {}
_OPEN_LOCK = threading.Lock()


def get_default_store(url: str | os.PathLike | None = None) -> "Store":
    """The store of ``url`` (default: as :func:`open_store`) opened once per process.

    Library functions taking ``store=`` use this, so that repeated calls share one
    connection pool and one cache of form ids.
    """
    resolved = resolve_store_url(url)
    key = resolved.render_as_string(hide_password=False)
    with _OPEN_LOCK:
        store = _OPEN.get(key)
        if store is None or store.closed:
            store = _OPEN[key] = Store(resolved)
    return store


#: Entries of the in-process cache of property values (cleared when full).
VALUE_CACHE_SIZE = 1 << 20

_MISSING = object()


class _Text(str):
    """A cached JSON text of a mutable value (decoded afresh on each hit)."""


def _freeze(value: Any, text: str) -> Any:
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return _Text(text)


def _thaw(cached: Any) -> Any:
    return json.loads(cached) if type(cached) is _Text else cached


class _PendingIds(dict):
    """Store ids assigned in an open transaction, layered over the committed ones.

    :func:`cgtalg.core.fold.fold` memoises into this; only after the transaction commits
    are the new ids merged into the store's cache, so a rolled-back transaction leaves no
    ids behind.
    """

    def __init__(self, committed: dict[int, int]) -> None:
        super().__init__()
        self.committed = committed

    def get(self, key: int, default: Any = None) -> Any:
        if dict.__contains__(self, key):
            return dict.__getitem__(self, key)
        return self.committed.get(key, default)

    def __contains__(self, key: object) -> bool:
        return dict.__contains__(self, key) or key in self.committed

    def __getitem__(self, key: int) -> int:
        if dict.__contains__(self, key):
            return dict.__getitem__(self, key)
        return self.committed[key]


class Store:
    """A persistent store of forms, properties, relations, positions and sequences.

    Open one with :func:`open_store`. Attributes: ``url`` (the full SQLAlchemy URL, which
    reopens the store; it contains the password, if any), ``revision`` (schema revision),
    ``stats`` (``{"hits": ..., "misses": ...}`` of :meth:`memo` and
    :meth:`memo_position`).

    A store can be used from several threads; a forked child process reconnects by itself.
    Pickling a store (e.g. to send it to a worker process) sends its URL: unpickling gives
    that process's :func:`get_default_store` for the URL.
    """

    def __init__(self, url: str | os.PathLike | URL | None = None) -> None:
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
            if state is not None:
                revision = check_revision(self._where, *state)
                self._malformed = quick_check(path)
                if self._malformed is None:
                    missing = _missing_tables(state[0]) if revision is not None else []
                    if missing:
                        self._malformed = f"its table(s) {', '.join(missing)} are missing"
        self._engine = _create_engine(self._url, self._where)
        try:
            with self._translate():
                if self._malformed is not None:
                    # Never migrate (write) a malformed store: reads that still work may answer.
                    self.revision: str = revision or head_revision()
                else:
                    self.revision = ensure_schema(self._engine, self._where)
                    with self._engine.connect() as conn:
                        missing = _missing_tables(read_state(conn)[0])
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
        # (Game.id, property) -> stored value (frozen) or its JSON text: stored values never
        # change (writes are write-once), so a memo hit is a dict lookup.
        self._values: dict[tuple[int, str], Any] = {}
        self.stats: dict[str, int] = {"hits": 0, "misses": 0}
        #: Write transactions run again after the database aborted them (deadlock victims,
        #: serialization failures; see :data:`WRITE_RETRIES`).
        self.write_retries = 0

    # -- plumbing ----------------------------------------------------------------------
    @property
    def location(self) -> str:
        """The store's file for SQLite, else its URL with the password hidden."""
        return self._where

    @property
    def closed(self) -> bool:
        """True after :meth:`close`."""
        return self._closed

    def __repr__(self) -> str:
        state = " (closed)" if self._closed else ""
        return f"<cgtalg Store {self._where}{state}>"

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __reduce__(self):
        if sqlite_file(self._url) is None and self._url.get_backend_name() == "sqlite":
            raise TypeError("an in-memory store cannot be sent to another process")
        return (get_default_store, (self.url,))

    def close(self) -> None:
        """Close the store's connections. Later calls on it raise :class:`StoreError`."""
        if not self._closed:
            self._closed = True
            self._engine.dispose()
        with _OPEN_LOCK:
            for key, store in list(_OPEN.items()):
                if store is self:
                    del _OPEN[key]

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
        if _sqlstate(exc) in _TRANSIENT_SQLSTATES:
            return _TransientStoreError(
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
            dialect = _postgresql if self._dialect == "postgresql" else _sqlite
            statement = dialect.insert(table).on_conflict_do_nothing(index_elements=_unique_key(table))
            self._inserts[table.name] = statement
        return statement

    # -- forms -------------------------------------------------------------------------
    def form_id(self, g: Game) -> int:
        """The store id of the form ``g``, inserting it and its subpositions if absent.

        The key of a form is the ascending list of its options' ids, so ids are stable
        within a store and shared by every process using it. Missing forms are inserted
        bottom-up (options first) in one transaction.

        Examples
        --------
        >>> import cgtalg as cg
        >>> store = open_store(":memory:")
        >>> store.form_id(cg.parse("*+*")) == store.form_id(cg.parse("{*}"))
        True
        """
        check_game(g)
        found = self._form_ids.get(g.id)
        if found is not None:
            return found
        return self._insert_form(g)

    @_retry_transient
    def _insert_form(self, g: Game) -> int:
        with self._write_forms() as (_conn, form_id):
            return form_id(g)

    @contextmanager
    def _write_forms(self) -> Iterator[tuple[Connection, Callable[[Game], int]]]:
        """A write transaction and a ``form_id`` that inserts forms inside it.

        New ids go to a :class:`_PendingIds` layer, merged into the cache only once the
        transaction has committed.
        """
        pending = _PendingIds(self._form_ids)
        with self._transaction(write=True) as conn:

            def form_id(g: Game) -> int:
                check_game(g)
                found = pending.get(g._id)
                if found is not None:
                    return found
                self._resolve_forms(conn, [g], pending, insert=True)  # level by level, batched
                return pending[g._id]

            yield conn, form_id
        self._form_ids.update(pending)

    def _stored_form_id(self, conn: Connection, g: Game) -> int | None:
        """The store id of ``g`` if the store holds it, else ``None`` (never writes)."""
        check_game(g)
        found = self._form_ids.get(g.id)
        if found is not None:
            return found
        found_ids = _PendingIds(self._form_ids)
        self._resolve_forms(conn, [g], found_ids, insert=False)  # never writes
        sid = found_ids.get(g._id)
        if sid is not None and not conn.get_execution_options().get("cgtalg_write", False):
            self._form_ids.update(found_ids)  # rows found by a read-only transaction are committed
        return sid

    def game(self, form_id: int) -> Game:
        """The form with store id ``form_id``, rebuilt as a hash-consed :class:`Game`.

        Raises
        ------
        StoreError
            If the store has no form with that id.
        """
        if isinstance(form_id, bool) or not isinstance(form_id, (int, np.integer)):
            raise TypeError(f"form id must be an int, got {type(form_id).__name__}")
        form_id = int(form_id)
        cached = self._games.get(form_id)
        if cached is not None:
            return cached
        rows: dict[int, tuple[list[int], int]] = {}
        with self._transaction() as conn:
            todo = {form_id}
            while todo:
                batch = sorted(todo)
                todo = set()
                for start in range(0, len(batch), _IN_BATCH):
                    part = batch[start : start + _IN_BATCH]
                    query = select(forms.c.id, forms.c.options, forms.c.birthday).where(forms.c.id.in_(part))
                    for row in conn.execute(query):
                        try:
                            options = parse_form_key(row.options)
                        except (ValueError, AttributeError, TypeError):
                            raise StoreCorruptError(
                                f"the store {self._where}: table forms, row (form {row.id}) is "
                                f"unreadable: its options {shorten(str(row.options), 60)} are not a "
                                "list of form ids nor a nim-heap *n"
                            ) from None
                        rows[row.id] = (options, row.birthday)
                        if not isinstance(options, int):
                            todo.update(o for o in _key_ids(options) if o not in rows and o not in self._games)
                missing = [i for i in batch if i not in rows]
                if missing:
                    if form_id in missing:
                        raise StoreError(f"the store {self._where} has no form with id {form_id}")
                    raise StoreCorruptError(
                        f"the store {self._where} is inconsistent: forms {missing[:5]} are "
                        "options of stored forms but have no rows"
                    )
        built: dict[int, Game] = {}
        for sid in _options_first(rows):
            options, birthday = rows[sid]
            if isinstance(options, int):  # a nim-heap atom, keyed by its size
                from cgtalg.core.game import nim

                g = nim(options)
            elif isinstance(options, tuple):  # a partizan form: (left ids, right ids)
                from cgtalg.core.partizan import pgame

                def look(o: int) -> Any:
                    return built[o] if o in built else self._games[o]

                g = pgame([look(o) for o in options[0]], [look(o) for o in options[1]])  # type: ignore[assignment]
            else:
                g = make_game(built[o] if o in built else self._games[o] for o in options)
            known = self._form_ids.get(g.id)
            if stored_birthday(g.birthday) != birthday or (known is not None and known != sid):
                raise StoreCorruptError(
                    f"the store {self._where} is inconsistent: form {sid} rebuilds as "
                    f"{format_game(g, 80) if isinstance(g, Game) else str(g)[:80]} "
                    f"(birthday {g.birthday}, stored {birthday}; cached id {known})"
                )
            built[sid] = g
        for sid, g in built.items():
            self._games[sid] = g
            self._form_ids[g.id] = sid
        return self._games[form_id]

    # -- bulk paths ----------------------------------------------------------------------
    @_retry_transient
    def form_ids(self, games: Sequence[Game]) -> list[int]:
        """The store ids of ``games`` (as :meth:`form_id`), inserting the missing ones and
        their subpositions in one transaction, level by level of birthday: per level one
        batched INSERT and at most one SELECT (not one round trip per form).

        Examples
        --------
        >>> import cgtalg as cg
        >>> store = open_store(":memory:")
        >>> ids = store.form_ids([cg.nim(3), cg.parse("*+*"), cg.nim(3)])
        >>> ids[0] == ids[2] == store.form_id(cg.nim(3)), ids[1] == store.form_id(cg.parse("{*}"))
        (True, True)
        """
        games = list(games)
        for g in games:
            check_game(g)
        if all(g.id in self._form_ids for g in games):
            return [self._form_ids[g.id] for g in games]
        pending = _PendingIds(self._form_ids)
        with self._transaction(write=True) as conn:
            self._resolve_forms(conn, games, pending, insert=True)
        self._form_ids.update(pending)
        return [self._form_ids[g.id] for g in games]

    def _resolve_forms(self, conn: Connection, games: Sequence[Game], ids: dict, insert: bool) -> None:
        """Put the store id of every form of ``games`` (and their subpositions) into ``ids``
        (Game.id -> store id), level by level of birthday; with ``insert=False`` forms the
        store lacks (and forms above them) are left out.

        A form is keyed once: the ascending store ids of its options joined as text (the
        decimal text of each id made once per call). Reads look each level's keys up with
        ``SELECT ... IN``. SQLite writes hold the write lock: a form with an option this
        call inserted cannot be stored yet, so only the other forms of a level are looked
        up before its INSERT (:meth:`_sqlite_insert_forms`). PostgreSQL writes insert each
        level with ``RETURNING`` and read back only the rows another writer had stored
        (``ON CONFLICT DO NOTHING`` returns none for them)."""
        # Plain dicts in the loops: ``ids`` may be a _PendingIds, whose lookups cost more.
        committed = ids.committed if isinstance(ids, _PendingIds) else {}
        known = dict(ids)  # the pending layer (or all of ``ids``)
        # -- the forms to resolve, frontier by frontier with set operations on the options'
        # Game ids (the hash-cons key each form keeps; no container is made per form, so
        # fewer garbage-collector passes); a nim-heap is keyed by its size, its options
        # never walked
        by_id = forms_by_id()
        todo: dict[int, Game] = {}
        sid: dict[int, int] = {}  # Game.id -> store id, of every form some key needs
        frontier = {g._id for g in games}.difference(known).difference(committed)
        while frontier:
            children: set[int] = set()
            add = children.update
            for gid in frontier:
                g = todo[gid] = by_id[gid]
                if g._heap is None:
                    add(g._option_ids)
            rest = children.difference(todo)
            frontier = rest.difference(known).difference(committed)
            for gid in rest.difference(frontier):  # options stored before: their ids
                found_id = known.get(gid)
                sid[gid] = found_id if found_id is not None else committed[gid]
        if not todo:
            return
        levels: dict[int, list[int]] = {}
        for gid, g in todo.items():
            level = levels.get(g._birthday)
            if level is None:
                levels[g._birthday] = [gid]
            else:
                level.append(gid)
        text = {s: str(s) for s in sid.values()}  # decimal text of store ids, made once
        tget = text.__getitem__
        sget = sid.__getitem__ if insert else sid.get
        sha256 = hashlib.sha256
        raw = self._dialect == "sqlite"
        cursor = conn.connection.driver_connection.cursor() if raw else None
        # The first id this call inserted (SQLite): a form with an option at or above it is new.
        first_new: int | None = None
        next_id = 0
        try:
            for birthday in sorted(levels):
                # key -> Game id, and whether the key may be stored already (SQLite)
                keyed: dict[str, int] = {}
                lookup: list[str] = []
                new: list[str] = []
                extra: list[tuple[str, int]] = []  # a second Game of one key (an inconsistent cache)
                for gid in levels[birthday]:
                    g = todo[gid]
                    n = g._heap
                    if n is not None:
                        key = atom_key(n)
                        top = 0
                    else:
                        option_ids = list(map(sget, g._option_ids))
                        if not insert and None in option_ids:  # an option the store lacks (reads only)
                            continue
                        if isinstance(g, PartizanGame):  # "L<left ids>|<right ids>" (partizan_key)
                            k = len(g._left)
                            key = partizan_key(option_ids[:k], option_ids[k:])
                            top = max(option_ids, default=0)
                        else:
                            option_ids.sort()
                            key = ",".join(map(tget, option_ids))
                            top = option_ids[-1] if option_ids else 0
                    if keyed.setdefault(key, gid) != gid:
                        extra.append((key, gid))
                    elif first_new is not None and top >= first_new:
                        new.append(key)
                    else:
                        lookup.append(key)
                if not keyed:
                    continue
                hashes = {k: sha256(k.encode()).hexdigest() for k in keyed}
                found: dict[str, tuple[int, str]] = {}  # key hash -> (id, stored key), as read back
                if raw:
                    self._sqlite_select_forms(cursor, [hashes[k] for k in lookup], found)
                    if insert and len(found) < len(lookup):
                        new += (k for k in lookup if hashes[k] not in found)
                        lookup = [k for k in lookup if hashes[k] in found]
                    if insert and new:
                        if first_new is None:
                            next_id = 1 + (cursor.execute("SELECT max(id) FROM forms").fetchone()[0] or 0)
                            first_new = next_id
                        b = stored_birthday(birthday)
                        if self._sqlite_insert_forms(cursor, [(i, hashes[k], k, b) for i, k in enumerate(new, next_id)]):
                            for i, k in enumerate(new, next_id):
                                sid[keyed[k]] = i
                                text[i] = str(i)
                        else:  # not every row went in: read them all back
                            self._sqlite_select_forms(cursor, [hashes[k] for k in new], found)
                            lookup += new
                        next_id += len(new)
                else:
                    hash_list = sorted(hashes.values())  # (birthday, key hash) order: no deadlock
                    if insert:
                        by_hash = {h: k for k, h in hashes.items()}
                        statement = self._insert_ignore(forms)
                        rows = [{"key_hash": h, "options": by_hash[h], "birthday": stored_birthday(birthday)}
                                for h in hash_list]
                        if conn.dialect.insert_executemany_returning:
                            result = conn.execute(statement.returning(forms.c.key_hash, forms.c.id, forms.c.options), rows)
                            for h, i, k in result:
                                found[h] = (i, k)
                        else:
                            conn.execute(statement, rows)
                    hash_list = [h for h in hash_list if h not in found]  # stored by another writer
                    for start in range(0, len(hash_list), _IN_BATCH):
                        query = select(forms.c.key_hash, forms.c.id, forms.c.options).where(
                            forms.c.key_hash.in_(hash_list[start : start + _IN_BATCH])
                        )
                        for h, i, k in conn.execute(query):
                            found[h] = (i, k)
                for key in lookup:  # every key but those just inserted (SQLite) was read back
                    row = found.get(hashes[key])
                    if row is None:
                        if insert:
                            raise StoreCorruptError(
                                f"the store {self._where} is inconsistent: the form with options [{key}] "
                                "was inserted but cannot be read back"
                            )
                        continue
                    if row[1] != key:
                        raise StoreCorruptError(
                            f"the store {self._where} is inconsistent: form {row[0]} has options "
                            f"[{row[1]}] but the key hash of [{key}]"
                        )
                    sid[keyed[key]] = row[0]
                    text[row[0]] = str(row[0])
                for key, gid in extra:
                    if keyed[key] in sid:
                        sid[gid] = sid[keyed[key]]
        finally:
            if cursor is not None:
                cursor.close()
        ids.update({gid: sid[gid] for gid in todo if gid in sid})

    @staticmethod
    def _sqlite_select_forms(cursor: sqlite3.Cursor, hash_list: list[str], found: dict[str, tuple[int, str]]) -> None:
        """Look up forms by key hash on the DBAPI cursor, filling ``found`` (hash -> (id, key))."""
        for start in range(0, len(hash_list), _IN_BATCH):
            part = hash_list[start : start + _IN_BATCH]
            cursor.execute(
                f"SELECT key_hash, id, options FROM forms WHERE key_hash IN ({','.join('?' * len(part))})", part
            )
            for h, i, k in cursor.fetchall():
                found[h] = (i, k)

    @staticmethod
    def _sqlite_insert_forms(cursor: sqlite3.Cursor, rows: list[tuple[int, str, str, int]]) -> bool:
        """SQLite's bulk INSERT of one birthday level's new forms, ``rows`` of (id, key hash,
        key, birthday); True when every row was inserted.

        The write lock is held (``BEGIN IMMEDIATE``) and ``rows`` were looked up first (or
        have an option inserted by this call), so no other writer can have stored them:
        their ids are given explicitly, counting up from one above the largest id (what
        SQLite itself would assign), with one ``executemany`` of a fixed statement. The
        INSERT stays ``ON CONFLICT DO NOTHING`` all the same: when fewer rows went in than
        given, the caller reads every row back by its key hash."""
        cursor.executemany(
            "INSERT INTO forms (id, key_hash, options, birthday) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING", rows
        )
        return cursor.rowcount == len(rows)

    @_retry_transient
    def put_many(self, items: Any) -> None:
        """Store many form properties at once: ``items`` is an iterable of
        ``(game, prop, value)`` (or a dict ``{(game, prop): value}``).

        One transaction for the whole batch: the forms are keyed with :meth:`form_ids`'s
        batched path, the values written with one multi-row ``INSERT ... ON CONFLICT DO
        NOTHING`` and read back with one SELECT, so a conflict with a stored value (or two
        different values for one key inside the batch) raises :class:`StoreError` naming
        the key, and nothing of the batch is written. Write-once as :meth:`put`.

        Examples
        --------
        >>> import cgtalg as cg
        >>> store = open_store(":memory:")
        >>> store.put_many([(cg.nim(n), "grundy", n) for n in range(5)])
        >>> store.get_many([cg.nim(4), cg.nim(9)], "grundy")
        [4, None]
        """
        if isinstance(items, dict):
            items = [(g, prop, value) for (g, prop), value in items.items()]
        rows: dict[tuple[int, str], tuple[Game, str]] = {}
        for item in items:
            if not isinstance(item, tuple) or len(item) != 3:
                raise StoreError(f"put_many: each item must be a (game, prop, value) tuple, got {item!r:.80}")
            g, prop, value = item
            check_game(g)
            check_text(prop, "property name", NAME_LENGTH)
            text = encode_value(value, f"property {prop!r}")
            earlier = rows.get((g.id, prop))
            if earlier is not None and earlier[1] != text:
                raise StoreError(
                    f"put_many: two different values for property {prop!r} of "
                    f"{format_game(g, max_chars=80)}: {shorten(earlier[1])} and {shorten(text)}; nothing was written"
                )
            rows[(g.id, prop)] = (g, text)
        if not rows:
            return
        games = {g.id: g for g, _text in rows.values()}
        pending = _PendingIds(self._form_ids)
        with self._transaction(write=True) as conn:
            self._resolve_forms(conn, list(games.values()), pending, insert=True)
            params = []
            for (gid, prop), (_g, text) in rows.items():
                params.append({"form_id": pending[gid], "name": prop, "value": text, "value_hash": value_hash(text)})
            params.sort(key=lambda p: (p["form_id"], p["name"]))  # key order: no deadlock between writers
            if self._dialect == "sqlite":
                # the DBAPI cursor directly (the write lock is held); when every row was new
                # (rowcount), nothing can conflict and the read-back is skipped
                cursor = conn.connection.driver_connection.cursor()
                try:
                    cursor.executemany(
                        "INSERT INTO form_properties (form_id, name, value, value_hash) VALUES (?, ?, ?, ?) "
                        "ON CONFLICT (form_id, name) DO NOTHING",
                        [(p["form_id"], p["name"], p["value"], p["value_hash"]) for p in params],
                    )
                    inserted = cursor.rowcount
                finally:
                    cursor.close()
                if inserted == len(params):
                    params = []
            else:
                statement = self._insert_ignore(form_properties)
                if conn.dialect.insert_executemany_returning:
                    # batched multi-row INSERT ... RETURNING (without RETURNING SQLAlchemy sends
                    # the upsert row by row); a conflicting row is not returned and is checked below
                    result = conn.execute(statement.returning(form_properties.c.form_id, form_properties.c.name), params)
                    done = {(r[0], r[1]) for r in result}
                    params = [p for p in params if (p["form_id"], p["name"]) not in done]
                else:
                    conn.execute(statement, params)
            stored = self._stored_values(conn, {(p["form_id"], p["name"]) for p in params}) if params else {}
            for p in params:
                if stored.get((p["form_id"], p["name"])) != p["value"]:
                    g = games[next(gid for gid in games if pending[gid] == p["form_id"])]
                    raise StoreError(
                        f"refusing to overwrite property {p['name']!r} of {format_game(g, max_chars=80)} "
                        f"(form {p['form_id']}) in the store {self._where}: stored value "
                        f"{shorten(str(stored.get((p['form_id'], p['name']))))}, new value "
                        f"{shorten(p['value'])}; nothing of the batch was written"
                    )
        self._form_ids.update(pending)
        for (gid, prop), (_g, text) in rows.items():
            self._remember(gid, prop, text)

    def _stored_values(self, conn: Connection, keys: set[tuple[int, str]]) -> dict[tuple[int, str], str]:
        """Stored texts of form properties ``(form_id, name)`` (one SELECT per 500 forms)."""
        ids = sorted({k[0] for k in keys})
        names = sorted({k[1] for k in keys})
        out: dict[tuple[int, str], str] = {}
        for start in range(0, len(ids), _IN_BATCH):
            query = select(form_properties.c.form_id, form_properties.c.name, form_properties.c.value).where(
                form_properties.c.form_id.in_(ids[start : start + _IN_BATCH]),
                form_properties.c.name.in_(names),
            )
            for row in conn.execute(query):
                out[(row.form_id, row.name)] = row.value
        return out

    def get_many(self, games: Sequence[Game], prop: str) -> list[Any | None]:
        """The stored ``prop`` of each of ``games`` (``None`` where absent), in one read
        transaction with batched SELECTs; answers from the in-process cache first. Never
        writes."""
        check_text(prop, "property name", NAME_LENGTH)
        games = list(games)
        for g in games:
            check_game(g)
        out: list[Any] = [None] * len(games)
        todo = []
        for i, g in enumerate(games):
            hit = self._values.get((g.id, prop), _MISSING)
            if hit is _MISSING:
                todo.append(i)
            else:
                out[i] = _thaw(hit)
        if not todo:
            return out
        with self._transaction() as conn:
            lookup = _PendingIds(self._form_ids)
            self._resolve_forms(conn, [games[i] for i in todo], lookup, insert=False)
            ids = {games[i].id: lookup[games[i].id] for i in todo if games[i].id in lookup}
            self._form_ids.update(lookup)  # rows found by a read are committed
            stored = self._stored_values(conn, {(sid, prop) for sid in ids.values()})
        for i in todo:
            sid = ids.get(games[i].id)
            text = None if sid is None else stored.get((sid, prop))
            if text is not None:
                value = self._load(text, "form_properties", f"form {sid}, property {prop!r}")
                self._remember(games[i].id, prop, text, value)
                out[i] = value
        return out

    def _remember(self, game_id: int, prop: str, text: str, value: Any = _MISSING) -> None:
        """Cache a stored (hence never-changing) value under the process-local game id."""
        if len(self._values) >= VALUE_CACHE_SIZE:
            self._values.clear()
        if value is _MISSING:
            value = json.loads(text)
        self._values[(game_id, prop)] = _freeze(value, text)

    # -- properties of forms -----------------------------------------------------------
    def get(self, g: Game, prop: str) -> Any | None:
        """The stored value of property ``prop`` of ``g`` (JSON data), or ``None``."""
        check_text(prop, "property name", NAME_LENGTH)
        hit = self._values.get((g.id, prop), _MISSING) if isinstance(g, Game) else _MISSING
        if hit is not _MISSING:
            return _thaw(hit)
        with self._transaction() as conn:
            sid = self._stored_form_id(conn, g)
            if sid is None:
                return None
            text = conn.execute(_value_select(form_properties), {"form_id": sid, "name": prop}).scalar()
        if text is None:
            return None
        value = self._load(text, "form_properties", f"form {sid}, property {prop!r}")
        self._remember(g.id, prop, text, value)
        return value

    def put(self, g: Game, prop: str, value: Any) -> None:
        """Store ``value`` (JSON data, not ``None``) as property ``prop`` of ``g``.

        Idempotent: storing the same value again does nothing.

        Raises
        ------
        StoreError
            If a different value is stored already (both are named), or ``value`` is not
            JSON data. Tuples come back as lists, numpy scalars as Python numbers.

        Examples
        --------
        >>> import cgtalg as cg
        >>> store = open_store(":memory:")
        >>> store.put(cg.parse("{*2}"), "misere_canonical", "*[2#]")
        >>> store.get(cg.parse("*[2#]"), "misere_canonical")
        '*[2#]'
        """
        check_text(prop, "property name", NAME_LENGTH)
        self._put_property(g, prop, encode_value(value, f"property {prop!r}"))

    @_retry_transient
    def _put_property(self, g: Game, prop: str, text: str) -> None:
        with self._write_forms() as (conn, form_id):
            sid = form_id(g)
            self._put_value(
                conn,
                form_properties,
                {"form_id": sid, "name": prop},
                text,
                lambda: f"property {prop!r} of {format_game(g, max_chars=80)} (form {sid})",
            )
        self._remember(g.id, prop, text)

    def _put_value(self, conn: Connection, table: Table, key: dict, text: str, what: Callable[[], str]) -> None:
        """Insert a write-once value under the primary ``key`` of ``table``; raise if a
        different value is stored there."""
        values = dict(key, value=text)
        if "value_hash" in table.c:
            values["value_hash"] = value_hash(text)
        conn.execute(self._insert_ignore(table), values)
        stored = conn.execute(_value_select(table), key).scalar_one()
        if stored != text:
            raise StoreError(
                f"refusing to overwrite {what()} in the store {self._where}: "
                f"stored value {shorten(stored)}, new value {shorten(text)}"
            )

    def memo(self, g: Game, prop: str, compute: Callable[[], Any]) -> Any:
        """The stored property ``prop`` of ``g``, or ``compute()`` stored and returned.

        Counts hits and misses in :attr:`stats`. The value returned is the stored JSON
        value in both cases (so a tuple comes back as a list the first time too).

        Examples
        --------
        >>> import cgtalg as cg
        >>> store = open_store(":memory:")
        >>> G = cg.nim(2) + cg.nim(3)
        >>> store.memo(G, "grundy", lambda: cg.grundy(G)), store.memo(G, "grundy", lambda: 1 / 0)
        (1, 1)
        >>> store.stats
        {'hits': 1, 'misses': 1}
        """
        stored = self.get(g, prop)
        if stored is not None:
            self.stats["hits"] += 1
            return stored
        self.stats["misses"] += 1
        text = encode_value(compute(), f"property {prop!r}")
        self._put_property(g, prop, text)
        return json.loads(text)

    def properties(self, g: Game) -> dict[str, Any]:
        """Every stored property of ``g`` (empty if the store does not hold ``g``)."""
        with self._transaction() as conn:
            sid = self._stored_form_id(conn, g)
            return {} if sid is None else self._form_properties(conn, [sid])[sid]

    def _form_properties(self, conn: Connection, ids: list[int]) -> dict[int, dict[str, Any]]:
        result: dict[int, dict[str, Any]] = {i: {} for i in ids}
        for start in range(0, len(ids), _IN_BATCH):
            query = (
                select(form_properties.c.form_id, form_properties.c.name, form_properties.c.value)
                .where(form_properties.c.form_id.in_(ids[start : start + _IN_BATCH]))
                .order_by(form_properties.c.name)
            )
            for row in conn.execute(query):
                result[row.form_id][row.name] = self._load(
                    row.value, "form_properties", f"form {row.form_id}, property {row.name!r}"
                )
        return result

    # -- relations between forms -------------------------------------------------------
    def get_relation(self, g: Game, h: Game, relation: str) -> dict | None:
        """The stored ``relation`` of the ordered pair ``(g, h)`` (a dict), or ``None``.

        Relations are stored for ordered pairs; a symmetric relation (such as
        ``misere_equivalent``) is found under the order it was stored in.
        """
        check_text(relation, "relation name", NAME_LENGTH)
        with self._transaction() as conn:
            a, b = self._stored_form_id(conn, g), self._stored_form_id(conn, h)
            if a is None or b is None:
                return None
            text = conn.execute(
                _value_select(form_relations), {"form_id": a, "other_id": b, "name": relation}
            ).scalar()
        return None if text is None else self._load(
            text, "form_relations", f"forms ({a}, {b}), relation {relation!r}", dict
        )

    @_retry_transient
    def put_relation(self, g: Game, h: Game, relation: str, value: dict) -> None:
        """Store ``value`` (a JSON object, e.g. ``{"holds": True, "certificate": {...}}``)
        as ``relation`` of the ordered pair ``(g, h)``; write-once like :meth:`put`."""
        check_text(relation, "relation name", NAME_LENGTH)
        if not isinstance(value, dict):
            raise StoreError(f"relation {relation!r} value must be a dict, got {type(value).__name__}")
        text = encode_value(value, f"relation {relation!r}")
        with self._write_forms() as (conn, form_id):
            a, b = form_id(g), form_id(h)
            self._put_value(
                conn,
                form_relations,
                {"form_id": a, "other_id": b, "name": relation},
                text,
                lambda: (
                    f"relation {relation!r} of {format_game(g, max_chars=60)} (form {a}) and "
                    f"{format_game(h, max_chars=60)} (form {b})"
                ),
            )

    # -- positions of rulesets ---------------------------------------------------------
    def _position_id(self, conn: Connection, ruleset: str, position: str, insert: bool) -> int | None:
        position_hash = hashlib.sha256(position.encode()).hexdigest()
        query = select(positions.c.id, positions.c.position).where(
            positions.c.ruleset == ruleset, positions.c.position_hash == position_hash
        )
        row = conn.execute(query).first()
        if row is None:
            if not insert:
                return None
            conn.execute(
                self._insert_ignore(positions),
                {"ruleset": ruleset, "position_hash": position_hash, "position": position},
            )
            row = conn.execute(query).one()
        if row.position != position:
            raise StoreCorruptError(
                f"the store {self._where} is inconsistent: position {row.id} of {ruleset!r} "
                f"is {shorten(row.position)}, not {shorten(position)}"
            )
        return row.id

    def get_position(self, ruleset: str, position: str, prop: str) -> Any | None:
        """The stored ``prop`` of ``position`` (its text key) of ``ruleset``, or ``None``."""
        _check_position(ruleset, position)
        check_text(prop, "property name", NAME_LENGTH)
        with self._transaction() as conn:
            pid = self._position_id(conn, ruleset, position, insert=False)
            if pid is None:
                return None
            text = conn.execute(
                _value_select(position_properties), {"position_id": pid, "name": prop}
            ).scalar()
        return None if text is None else self._load(
            text, "position_properties", f"position {pid} of {ruleset!r}, property {prop!r}"
        )

    def put_position(self, ruleset: str, position: str, prop: str, value: Any) -> None:
        """Store ``value`` as ``prop`` of ``position`` of ``ruleset``; write-once like :meth:`put`."""
        _check_position(ruleset, position)
        check_text(prop, "property name", NAME_LENGTH)
        self._put_position(ruleset, position, prop, encode_value(value, f"property {prop!r}"))

    @_retry_transient
    def _put_position(self, ruleset: str, position: str, prop: str, text: str) -> None:
        with self._transaction(write=True) as conn:
            pid = self._position_id(conn, ruleset, position, insert=True)
            self._put_value(
                conn,
                position_properties,
                {"position_id": pid, "name": prop},
                text,
                lambda: f"property {prop!r} of position {shorten(position)} of {ruleset!r}",
            )

    def memo_position(self, ruleset: str, position: str, prop: str, compute: Callable[[], Any]) -> Any:
        """As :meth:`memo`, for a position of a ruleset."""
        stored = self.get_position(ruleset, position, prop)
        if stored is not None:
            self.stats["hits"] += 1
            return stored
        self.stats["misses"] += 1
        text = encode_value(compute(), f"property {prop!r}")
        self._put_position(ruleset, position, prop, text)
        return json.loads(text)

    def position_properties(self, ruleset: str, position: str) -> dict[str, Any]:
        """Every stored property of ``position`` of ``ruleset``."""
        _check_position(ruleset, position)
        with self._transaction() as conn:
            pid = self._position_id(conn, ruleset, position, insert=False)
            if pid is None:
                return {}
            return self._position_properties(conn, [pid])[pid]

    def _position_properties(self, conn: Connection, ids: list[int]) -> dict[int, dict[str, Any]]:
        result: dict[int, dict[str, Any]] = {i: {} for i in ids}
        for start in range(0, len(ids), _IN_BATCH):
            query = (
                select(position_properties.c.position_id, position_properties.c.name, position_properties.c.value)
                .where(position_properties.c.position_id.in_(ids[start : start + _IN_BATCH]))
                .order_by(position_properties.c.name)
            )
            for row in conn.execute(query):
                result[row.position_id][row.name] = self._load(
                    row.value, "position_properties", f"position {row.position_id}, property {row.name!r}"
                )
        return result

    def _position_ids(self, conn: Connection, keys: set[tuple[str, str]], insert: bool) -> dict[tuple[str, str], int]:
        """Ids of positions ``(ruleset, position)`` (one SELECT per 500; with ``insert``, the
        missing ones inserted first, in key order so that concurrent writers cannot deadlock)."""
        hashed = sorted((r, hashlib.sha256(p.encode()).hexdigest(), p) for r, p in keys)
        if insert and hashed:
            conn.execute(self._insert_ignore(positions),
                         [{"ruleset": r, "position_hash": h, "position": p} for r, h, p in hashed])
        wanted = {(r, h): p for r, h, p in hashed}
        out: dict[tuple[str, str], int] = {}
        for start in range(0, len(hashed), _IN_BATCH):
            part = sorted({h for _r, h, _p in hashed[start : start + _IN_BATCH]})
            query = select(positions.c.id, positions.c.ruleset, positions.c.position_hash,
                           positions.c.position).where(positions.c.position_hash.in_(part))
            for row in conn.execute(query):
                text = wanted.get((row.ruleset, row.position_hash))
                if text is None:
                    continue
                if row.position != text:
                    raise StoreCorruptError(
                        f"the store {self._where} is inconsistent: position {row.id} of {row.ruleset!r} "
                        f"is {shorten(row.position)}, not {shorten(text)}")
                out[(row.ruleset, text)] = row.id
        return out

    @_retry_transient
    def put_positions_many(self, items: Any) -> None:
        """Store many position properties at once: ``items`` is an iterable of
        ``(ruleset, position, prop, value)``.

        One transaction for the batch, with multi-row ``INSERT ... ON CONFLICT DO NOTHING``
        for the positions and the values (each in sorted key order, so two writers cannot
        deadlock) and batched SELECTs to read them back. Write-once as :meth:`put_position`:
        a different stored value (or two values for one key in the batch) raises
        :class:`StoreError` naming the key, and nothing of the batch is written.

        Examples
        --------
        >>> store = open_store(":memory:")
        >>> store.put_positions_many([("census:octal", "0.77", "period", 12), ("census:octal", "0.137", "period", 34)])
        >>> store.get_positions_many("census:octal", ["0.77", "0.6"])
        {'0.77': {'period': 12}, '0.6': {}}
        """
        rows: dict[tuple[str, str, str], str] = {}
        for item in items:
            if not isinstance(item, tuple) or len(item) != 4:
                raise StoreError(f"put_positions_many: each item must be a (ruleset, position, prop, value) "
                                 f"tuple, got {item!r:.80}")
            ruleset, position, prop, value = item
            _check_position(ruleset, position)
            check_text(prop, "property name", NAME_LENGTH)
            text = encode_value(value, f"property {prop!r}")
            earlier = rows.setdefault((ruleset, position, prop), text)
            if earlier != text:
                raise StoreError(
                    f"put_positions_many: two different values for property {prop!r} of position "
                    f"{shorten(position)} of {ruleset!r}: {shorten(earlier)} and {shorten(text)}; nothing was written")
        if not rows:
            return
        with self._transaction(write=True) as conn:
            ids = self._position_ids(conn, {(r, p) for r, p, _n in rows}, insert=True)
            params = sorted(
                ({"position_id": ids[(r, p)], "name": n, "value": t, "value_hash": value_hash(t)}
                 for (r, p, n), t in rows.items()), key=lambda q: (q["position_id"], q["name"]))
            conn.execute(self._insert_ignore(position_properties), params)
            stored = self._stored_position_values(conn, {(q["position_id"], q["name"]) for q in params})
            for (r, p, n), t in rows.items():
                if stored.get((ids[(r, p)], n)) != t:
                    raise StoreError(
                        f"refusing to overwrite property {n!r} of position {shorten(p)} of {r!r} in the store "
                        f"{self._where}: stored value {shorten(str(stored.get((ids[(r, p)], n))))}, new value "
                        f"{shorten(t)}; nothing of the batch was written")

    def _stored_position_values(self, conn: Connection, keys: set[tuple[int, str]]) -> dict[tuple[int, str], str]:
        ids = sorted({k[0] for k in keys})
        names = sorted({k[1] for k in keys})
        out: dict[tuple[int, str], str] = {}
        for start in range(0, len(ids), _IN_BATCH):
            query = select(position_properties.c.position_id, position_properties.c.name,
                           position_properties.c.value).where(
                position_properties.c.position_id.in_(ids[start : start + _IN_BATCH]),
                position_properties.c.name.in_(names))
            for row in conn.execute(query):
                out[(row.position_id, row.name)] = row.value
        return out

    def get_positions_many(self, ruleset: str, positions_: Sequence[str]) -> dict[str, dict[str, Any]]:
        """Every stored property of each of ``positions_`` of ``ruleset``, in one read
        transaction with batched SELECTs: ``{position: {prop: value}}`` (``{}`` where none).
        Never writes."""
        keys = set()
        for position in positions_:
            _check_position(ruleset, position)
            keys.add((ruleset, position))
        with self._transaction() as conn:
            ids = self._position_ids(conn, keys, insert=False)
            props = self._position_properties(conn, sorted(ids.values()))
        return {p: dict(props[ids[(ruleset, p)]]) if (ruleset, p) in ids else {} for p in positions_}

    # -- sequences -----------------------------------------------------------------------
    def sequence_length(self, key: str) -> int:
        """How many values of sequence ``key`` are stored (0 if none)."""
        check_text(key, "sequence key", SEQUENCE_KEY_LENGTH)
        with self._transaction() as conn:
            return int(conn.execute(select(sequences.c.length).where(sequences.c.key == key)).scalar() or 0)

    def sequence(self, key: str, start: int = 0, stop: int | None = None) -> np.ndarray:
        """The stored prefix of sequence ``key`` (int64; empty if nothing is stored).

        With ``start``/``stop``, only the values at those indices (like slicing the prefix).
        """
        check_text(key, "sequence key", SEQUENCE_KEY_LENGTH)
        start = check_index(start, "start")
        if stop is not None:
            stop = check_index(stop, "stop")
        with self._transaction() as conn:
            length = int(conn.execute(select(sequences.c.length).where(sequences.c.key == key)).scalar() or 0)
            stop = length if stop is None else min(stop, length)
            if start >= stop:
                return np.empty(0, dtype=np.int64)
            return self._read_range(conn, key, start, stop)

    def _read_range(self, conn: Connection, key: str, start: int, stop: int) -> np.ndarray:
        """Values ``start .. stop-1`` (all stored) of sequence ``key``, from its chunks."""
        chunks = sequence_chunks.c
        first = conn.execute(
            select(func.max(chunks.start)).where(chunks.sequence_key == key, chunks.start <= start)
        ).scalar()
        query = (
            select(chunks.start, chunks.count, chunks.codec, chunks.data)
            .where(chunks.sequence_key == key, chunks.start >= (first or 0), chunks.start < stop)
            .order_by(chunks.start)
        )
        out = np.empty(stop - start, dtype=np.int64)
        expected = first
        for row in conn.execute(query):
            if row.start != expected:
                break
            values = self._decode_chunk(key, row)
            lo, hi = max(start, row.start), min(stop, row.start + row.count)
            out[lo - start : hi - start] = values[lo - row.start : hi - row.start]
            expected = row.start + row.count
        if expected is None or expected < stop:
            raise StoreCorruptError(
                f"the store {self._where} is inconsistent: sequence {key!r} has no stored chunk "
                f"for index {start if expected is None else expected}, below its stored length"
            )
        return out

    def _load(self, text: Any, table: str, key: str, kind: type | None = None) -> Any:
        """Decode a stored JSON value; an unreadable one raises :class:`StoreCorruptError`
        naming ``table`` and ``key`` (never a bare ``JSONDecodeError``)."""
        if not isinstance(text, str):
            raise StoreCorruptError(
                f"the store {self._where}: table {table}, row ({key}) is unreadable: the value "
                f"is a {type(text).__name__}, not JSON text"
            )
        try:
            value = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise StoreCorruptError(
                f"the store {self._where}: table {table}, row ({key}) is unreadable: its value "
                f"{shorten(text, 60)} is not valid JSON ({exc})"
            ) from None
        if value is None or (kind is not None and not isinstance(value, kind)):
            raise StoreCorruptError(
                f"the store {self._where}: table {table}, row ({key}) is unreadable: its value "
                f"{shorten(text, 60)} is not a JSON {'object' if kind is dict else 'value'}"
            )
        return value

    def _decode_chunk(self, key: str, row: Any) -> np.ndarray:
        try:
            return decode_chunk(row.codec, row.data, row.count)
        except ValueError as exc:
            raise StoreCorruptError(
                f"the store {self._where}: chunk {row.start} of sequence {key!r} is unreadable: {exc}"
            ) from None

    def _ensure_sequence_row(self, conn: Connection, key: str, column) -> Any:
        """Create the row of sequence ``key`` if absent; return ``column`` under a row lock."""
        conn.execute(self._insert_ignore(sequences), {"key": key, "length": 0, "meta": None})
        return conn.execute(select(column).where(sequences.c.key == key).with_for_update()).scalar_one()

    @_retry_transient
    def extend_sequence(self, key: str, start: int, values: Any) -> None:
        """Store ``values`` as the values of sequence ``key`` at indices ``start, start+1, ...``.

        ``start`` must be at most the stored length (no gaps). Values overlapping the stored
        prefix must equal it; the rest is appended. One transaction per call, so a writer
        interrupted between calls keeps every completed call, and resumes from
        :meth:`sequence_length`.

        Raises
        ------
        StoreError
            If ``start`` is beyond the stored length, the values are not integers of one
            dimension, or an overlapping value differs from the stored one (the index and
            both values are named; nothing is written).

        Examples
        --------
        >>> store = open_store(":memory:")
        >>> store.extend_sequence("grundy:0.07", 0, [0, 0, 1, 1])
        >>> store.extend_sequence("grundy:0.07", 2, [1, 1, 2, 0])   # overlap agrees
        >>> store.sequence("grundy:0.07").tolist(), store.sequence_length("grundy:0.07")
        ([0, 0, 1, 1, 2, 0], 6)
        """
        check_text(key, "sequence key", SEQUENCE_KEY_LENGTH)
        start = check_index(start, "start")
        array = as_int64(values, key)
        end = start + array.size
        with self._transaction(write=True) as conn:
            length = int(self._ensure_sequence_row(conn, key, sequences.c.length))
            if start > length:
                raise StoreError(
                    f"cannot store values of sequence {key!r} from index {start}: only "
                    f"{length} values are stored, so that would leave a gap"
                )
            overlap = min(end, length)
            if overlap > start:
                stored = self._read_range(conn, key, start, overlap)
                differ = np.flatnonzero(stored != array[: overlap - start])
                if differ.size:
                    i = int(differ[0])
                    raise StoreError(
                        f"sequence {key!r} disagrees with the store {self._where} at index "
                        f"{start + i}: stored value {stored[i]}, new value {array[i]} "
                        f"({differ.size} of the {overlap - start} overlapping values differ); "
                        "nothing was written"
                    )
            if end <= length:
                return
            self._append_chunks(conn, key, length, array[length - start :])
            conn.execute(update(sequences).where(sequences.c.key == key).values(length=end))

    def _append_chunks(self, conn: Connection, key: str, length: int, tail: np.ndarray) -> None:
        """Append ``tail`` after the ``length`` stored values of sequence ``key``.

        Full chunks of ``CHUNK_SIZE`` values start at multiples of ``CHUNK_SIZE``; the
        values after the last full chunk sit in smaller rows, one per call, until they fill
        a chunk or make ``_MAX_PENDING_ROWS`` rows, when they are merged. So small calls do
        not rewrite a large partial chunk each time, and a read meets few rows.
        """
        chunks = sequence_chunks.c
        base = length - length % CHUNK_SIZE  # start of the values after the full chunks
        pending_rows = 0
        if length > base:
            pending_rows = conn.execute(
                select(func.count()).where(chunks.sequence_key == key, chunks.start >= base)
            ).scalar_one()
        if length - base + tail.size < CHUNK_SIZE and pending_rows < _MAX_PENDING_ROWS:
            codec, data = encode_chunk(tail)
            conn.execute(
                insert(sequence_chunks).values(
                    sequence_key=key, start=length, count=int(tail.size), codec=codec, data=data
                )
            )
            return
        if length > base:
            tail = np.concatenate([self._read_range(conn, key, base, length), tail])
            conn.execute(
                delete(sequence_chunks).where(chunks.sequence_key == key, chunks.start >= base)
            )
        for offset in range(0, tail.size, CHUNK_SIZE):
            piece = tail[offset : offset + CHUNK_SIZE]
            codec, data = encode_chunk(piece)
            conn.execute(
                insert(sequence_chunks).values(
                    sequence_key=key, start=base + offset, count=int(piece.size), codec=codec, data=data
                )
            )

    @_retry_transient
    def put_sequence_meta(self, key: str, meta: dict, replace: bool = False) -> None:
        """Record metadata of sequence ``key`` (e.g. a certified period and preperiod).

        New entries are merged into the stored ones; an entry stored with a different
        value raises :class:`StoreError` unless ``replace=True``, which replaces the whole
        metadata dict.
        """
        check_text(key, "sequence key", SEQUENCE_KEY_LENGTH)
        if not isinstance(meta, dict):
            raise StoreError(f"metadata of sequence {key!r} must be a dict, got {type(meta).__name__}")
        new = json.loads(encode_value(meta, f"metadata of sequence {key!r}"))
        with self._transaction(write=True) as conn:
            stored_text = self._ensure_sequence_row(conn, key, sequences.c.meta)
            merged = new
            if stored_text is not None and not replace:
                merged = self._load(stored_text, "sequences", f"sequence {key!r}, column meta", dict)
                for name, value in new.items():
                    if name in merged and encode_value(merged[name], "") != encode_value(value, ""):
                        raise StoreError(
                            f"refusing to overwrite metadata {name!r} of sequence {key!r} in the "
                            f"store {self._where}: stored value {shorten(encode_value(merged[name], ''))}, "
                            f"new value {shorten(encode_value(value, ''))} (replace=True replaces the metadata)"
                        )
                    merged[name] = value
            conn.execute(
                update(sequences).where(sequences.c.key == key).values(meta=encode_value(merged, "metadata"))
            )

    def sequence_meta(self, key: str) -> dict | None:
        """The metadata of sequence ``key``, or ``None``."""
        check_text(key, "sequence key", SEQUENCE_KEY_LENGTH)
        with self._transaction() as conn:
            text = conn.execute(select(sequences.c.meta).where(sequences.c.key == key)).scalar()
        return None if text is None else self._load(text, "sequences", f"sequence {key!r}, column meta", dict)

    # -- overview and search -------------------------------------------------------------
    def info(self) -> dict:
        """Location, schema revision and counts of what the store holds.

        Returns
        -------
        dict
            ``url`` (password hidden), ``location``, ``backend``, ``revision``, ``head``,
            ``forms``, ``properties`` (count by name), ``relations`` (count by name),
            ``positions``, ``position_properties`` (count by name), ``sequences``,
            ``sequence_values`` (total stored values).
        """

        def by_name(conn: Connection, table) -> dict[str, int]:
            query = select(table.c.name, func.count()).group_by(table.c.name).order_by(table.c.name)
            return {name: int(n) for name, n in conn.execute(query)}

        def count(conn: Connection, table) -> int:
            return int(conn.execute(select(func.count()).select_from(table)).scalar_one())

        with self._transaction() as conn:
            revision = check_revision(self._where, *read_state(conn))
            result = {
                "url": self._url.render_as_string(hide_password=True),
                "location": self._where,
                "backend": self._dialect,
                "revision": revision,
                "head": head_revision(),
                "forms": count(conn, forms),
                "properties": by_name(conn, form_properties),
                "relations": by_name(conn, form_relations),
                "positions": count(conn, positions),
                "position_properties": by_name(conn, position_properties),
                "sequences": count(conn, sequences),
                "malformed": self._malformed,
                "sequence_values": int(
                    conn.execute(select(func.coalesce(func.sum(sequences.c.length), 0))).scalar_one()
                ),
            }
        return result

    def list_sequences(self, periods: bool = False, limit: int = 50) -> list[dict]:
        """Stored sequences by key: ``{"kind": "sequence", "key", "length", "meta"}``;
        with ``periods=True`` only those whose metadata holds a periodicity result, as
        ``{"kind": "period", "key", "length", "period", "preperiod", "certified", ...}``.

        Examples
        --------
        >>> store = open_store(":memory:")
        >>> store.extend_sequence("grundy:0.07", 0, [0, 0, 1, 1])
        >>> store.list_sequences()
        [{'kind': 'sequence', 'key': 'grundy:0.07', 'length': 4, 'meta': None}]
        """
        _check_limit(limit)
        query = select(sequences.c.key, sequences.c.length, sequences.c.meta).order_by(sequences.c.key)
        if periods:
            query = query.where(sequences.c.meta.like('%"periodicity"%'))
        out = []
        with self._transaction() as conn:
            for row in conn.execute(query.limit(limit)):
                meta = None if row.meta is None else self._load(row.meta, "sequences", f"sequence {row.key!r}, column meta", dict)
                if not periods:
                    out.append({"kind": "sequence", "key": row.key, "length": int(row.length), "meta": meta})
                    continue
                found = (meta or {}).get("periodicity")
                if not isinstance(found, dict):
                    continue
                out.append({
                    "kind": "period", "key": row.key, "length": int(row.length),
                    "period": found.get("period"), "preperiod": found.get("preperiod"),
                    "certified": bool(found.get("certified")), "status": found.get("status"),
                })
        return out

    def list_positions(self, ruleset: str | None = None, limit: int = 50) -> list[dict]:
        """Solved positions (positions with stored properties), by id:
        ``{"kind": "position", "ruleset", "position", "properties"}``."""
        _check_limit(limit)
        if ruleset is not None:
            check_text(ruleset, "ruleset key", RULESET_LENGTH)
        query = select(positions.c.id, positions.c.ruleset, positions.c.position).order_by(positions.c.id)
        if ruleset is not None:
            query = query.where(positions.c.ruleset == ruleset)
        with self._transaction() as conn:
            rows = list(conn.execute(query.limit(limit)))
            props = self._position_properties(conn, [row.id for row in rows])
        return [
            {"kind": "position", "ruleset": row.ruleset, "position": row.position, "properties": props[row.id]}
            for row in rows
        ]

    def find(
        self,
        text: str | None = None,
        prop: str | None = None,
        value: Any = None,
        limit: int = 50,
    ) -> list[dict]:
        """Look up stored forms by game text, or forms and positions by a property value.

        Parameters
        ----------
        text : str, optional
            Game text (:func:`cgtalg.parse`); the result is that form, if the store holds it.
        prop : str, optional
            Only entries with this property (with ``text``: a filter on that form).
        value : optional
            Only entries whose ``prop`` equals this JSON value (needs ``prop``).
        limit : int
            At most this many entries (forms first, by id; then positions).

        Returns
        -------
        list of dict
            ``{"kind": "form", "form_id", "game", "properties"}`` or
            ``{"kind": "position", "ruleset", "position", "properties"}``.

        Raises
        ------
        GameNotationError
            For malformed game text.
        StoreError
            With neither ``text`` nor ``prop``, or ``value`` without ``prop``.
        """
        if value is not None and prop is None:
            raise StoreError("find: a property value needs a property name (prop=...)")
        if text is None and prop is None:
            raise StoreError("find needs game text or a property name (prop=...)")
        if prop is not None:
            check_text(prop, "property name", NAME_LENGTH)
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
            raise StoreError(f"find: limit must be a positive int, got {limit!r} (at most {MAX_LIMIT})")
        wanted = None if value is None else encode_value(value, "the searched value")
        if text is not None:
            g = parse(text)
            with self._transaction() as conn:
                sid = self._stored_form_id(conn, g)
                props = {} if sid is None else self._form_properties(conn, [sid])[sid]
            if sid is None or (prop is not None and prop not in props):
                return []
            if wanted is not None and encode_value(props[prop], "") != wanted:
                return []
            return [{"kind": "form", "form_id": sid, "game": compact_text(g), "properties": props}]
        with self._transaction() as conn:
            form_query = select(form_properties.c.form_id).where(form_properties.c.name == prop)
            position_query = select(positions.c.id, positions.c.ruleset, positions.c.position).join(
                position_properties, position_properties.c.position_id == positions.c.id
            ).where(position_properties.c.name == prop)
            if wanted is not None:
                form_query = form_query.where(
                    form_properties.c.value_hash == value_hash(wanted), form_properties.c.value == wanted
                )
                position_query = position_query.where(
                    position_properties.c.value_hash == value_hash(wanted),
                    position_properties.c.value == wanted,
                )
            form_ids = list(conn.execute(form_query.order_by(form_properties.c.form_id).limit(limit)).scalars())
            found_positions = []
            if len(form_ids) < limit:
                found_positions = list(
                    conn.execute(position_query.order_by(positions.c.id).limit(limit - len(form_ids)))
                )
            form_props = self._form_properties(conn, form_ids)
            position_props = self._position_properties(conn, [row.id for row in found_positions])
        results = [
            {"kind": "form", "form_id": sid, "game": compact_text(self.game(sid)), "properties": form_props[sid]}
            for sid in form_ids
        ]
        results += [
            {
                "kind": "position",
                "ruleset": row.ruleset,
                "position": row.position,
                "properties": position_props[row.id],
            }
            for row in found_positions
        ]
        return results


# -- helpers -------------------------------------------------------------------------------
#: Characters of a form's text in listings before it is cut.
LISTING_TEXT_LIMIT = 80


def compact_text(g: Game, max_chars: int = LISTING_TEXT_LIMIT) -> str:
    """A short text of ``g`` for listings: its sum decomposition into nim heaps when it is
    (structurally) one and that is shorter, such as ``*2+*3``, else :func:`format_game`
    cut past ``max_chars`` (never the expanded option set of a large form).

    Examples
    --------
    >>> import cgtalg as cg
    >>> from cgtalg.core.game import game
    >>> rebuilt = game(list((cg.nim(2) + cg.nim(3)).options))   # no sum history
    >>> compact_text(rebuilt)
    '*2+*3'
    """
    text = format_game(g, max_chars=max_chars)
    heaps = _nim_sum_parts(g, 8) if len(text) > 3 else None
    if heaps is not None and len(heaps) > 1:
        summed = "+".join(f"*{n}" if n != 1 else "*" for n in sorted(heaps))
        # shorter, or as short and a sum too (then in ascending order, whatever the build order)
        if len(summed) < len(text) or (len(summed) == len(text) and "+" in text):
            return summed
    return text


def _options_first(rows: dict[int, tuple[int | list[int], int]]) -> list[int]:
    """The ids of ``rows`` (id -> (option ids or atom size, birthday)) with every option before
    the forms that have it (a topological order; stored birthdays saturate, so they cannot
    order forms above BIRTHDAY_CAP)."""
    order: list[int] = []
    done: set[int] = set()
    for root in rows:
        if root in done:
            continue
        stack = [(root, False)]
        while stack:
            sid, expanded = stack.pop()
            if sid in done:
                continue
            options = rows[sid][0] if sid in rows else ()
            if expanded or isinstance(options, int):
                done.add(sid)
                if sid in rows:
                    order.append(sid)
                continue
            stack.append((sid, True))
            stack.extend((o, False) for o in _key_ids(options) if o not in done and o in rows)
    return order


def _nim_sum_parts(g: Game, depth: int) -> list[int] | None:
    """Heap sizes ``[a, b, ...]`` with ``g`` structurally ``*a + *b + ...``, else None
    (tried by peeling the largest nim heap the birthday allows; bounded by ``depth``)."""
    n = g.nim_heap_size()
    if n is not None:
        return [n]
    if depth <= 1 or g.birthday > 4096 or len(g.options) > 4096:
        return None
    from cgtalg.core.game import nim

    for a in range(g.birthday - 1, 0, -1):
        # g = *a + R means the options of g include *k + R for k < a: in particular R itself.
        for rest in g.options:
            # *a + R has the options *k + R (k < a) and *a + R' (R' an option of R).
            if rest.birthday != g.birthday - a or len(g.options) > a + len(rest.options):
                continue
            if nim(a) + rest is g:
                parts = _nim_sum_parts(rest, depth - 1)
                if parts is not None:
                    return [a] + parts
    return None



#: Stored birthdays saturate here (a 32-bit column on PostgreSQL): ``*10**18`` is stored
#: with this birthday, its true one being its size (the key ``"*n"``).
BIRTHDAY_CAP = 2**31 - 1


def stored_birthday(b: int) -> int:
    """The birthday column's value for a form of birthday ``b`` (saturated at BIRTHDAY_CAP)."""
    return b if b < BIRTHDAY_CAP else BIRTHDAY_CAP


def atom_key(n: int) -> str:
    """The key of the nim-heap ``*n`` in the forms table: ``"*n"`` (``""`` for ``*0``)."""
    from cgtalg.core.notation import int_to_digits

    return "" if n == 0 else "*" + int_to_digits(n)


def partizan_key(left_ids: Sequence[int], right_ids: Sequence[int]) -> str:
    """The key of a partizan form in the forms table (the same table and id space as the
    impartial forms): ``"L"``, its Left options' store ids ascending, ``"|"``, its Right
    options' ids ascending (``"L|"`` is the partizan ``0 = { | }``)."""
    return ("L" + ",".join(map(str, sorted(set(left_ids)))) + "|"
            + ",".join(map(str, sorted(set(right_ids)))))


def _key_ids(options: Any) -> list[int]:
    """Every option id of a parsed key (both sides of a partizan key)."""
    if isinstance(options, tuple):
        return list(options[0]) + list(options[1])
    return list(options)


def parse_form_key(text: Any) -> int | list[int] | tuple[list[int], list[int]]:
    """A stored key read back: the heap size of an atom key ``"*n"``, the pair (Left ids,
    Right ids) of a partizan key ``"L…|…"`` (:func:`partizan_key`), else the list of option
    ids. Raises ValueError/AttributeError/TypeError for text that is none of these."""
    if text.startswith("L"):
        left, sep, right = text[1:].partition("|")
        if not sep:
            raise ValueError(text)
        return ([int(t) for t in left.split(",")] if left else [],
                [int(t) for t in right.split(",")] if right else [])
    if text.startswith("*"):
        from cgtalg.core.notation import digits_to_int

        digits = text[1:]
        if not digits.isascii() or not digits.isdigit() or digits[0] == "0":
            raise ValueError(text)
        return digits_to_int(digits)
    return [int(t) for t in text.split(",")] if text else []


#: Files up to this size get ``PRAGMA quick_check`` when opened (O(size); about 0.1 s
#: for 64 MiB). Larger stores are caught when SQLite meets the damage.
QUICK_CHECK_LIMIT = 64 * 2**20


def quick_check(path: Any) -> str | None:
    """``PRAGMA quick_check`` of a SQLite file through a read-only connection (never writes);
    the first problem found, or ``None`` when clean or when the file is larger than
    :data:`QUICK_CHECK_LIMIT`."""
    try:
        if path.stat().st_size > QUICK_CHECK_LIMIT:
            return None
        con = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=BUSY_TIMEOUT)
        try:
            rows = [row[0] for row in con.execute("PRAGMA quick_check(5)")]
        finally:
            con.close()
    except sqlite3.DatabaseError as exc:
        if is_corruption_error(exc):
            return f"SQLite says: {exc}"
        return None
    except OSError:
        return None
    if rows == ["ok"]:
        return None
    return "PRAGMA quick_check says: " + "; ".join(map(str, rows))


def _missing_tables(tables: Sequence[str]) -> list[str]:
    present = set(tables)
    return [t.name for t in (forms, form_properties, form_relations, positions, position_properties,
                             sequences, sequence_chunks) if t.name not in present]


def _unique_key(table: Table) -> list[str]:
    """The columns of ``table``'s unique constraint, else of its primary key."""
    for constraint in table.constraints:
        if isinstance(constraint, UniqueConstraint):
            return [c.name for c in constraint.columns]
    return [c.name for c in table.primary_key.columns]


@functools.lru_cache(maxsize=None)
def _value_select(table: Table):
    """``SELECT value FROM table WHERE <primary key> = :<column names>``."""
    return select(table.c.value).where(*(c == bindparam(c.name) for c in table.primary_key.columns))


def _create_engine(url: URL, where: str) -> Engine:
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
                _switch_to_wal(cursor)
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


def _switch_to_wal(cursor: sqlite3.Cursor) -> None:
    """``PRAGMA journal_mode = WAL`` without waiting in SQLite's busy handler: on a new file
    two processes can each hold a lock the other's switch (or the other's first commit) waits
    for, and both would then wait out the whole busy timeout. Failing fast releases this
    connection's lock, so the other process goes on; the switch is retried with a growing
    pause, up to :data:`BUSY_TIMEOUT` in all."""
    import time

    cursor.execute("PRAGMA busy_timeout = 0")
    deadline = time.monotonic() + BUSY_TIMEOUT
    pause = 0.002
    while True:
        try:
            cursor.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) and "busy" not in str(exc) or time.monotonic() > deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.1)


#: Largest ``limit`` of a listing.
MAX_LIMIT = 10**6


def _check_limit(limit: Any) -> None:
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
        raise StoreError(f"limit must be a positive int, got {limit!r} (at most {MAX_LIMIT})")


def _check_position(ruleset: Any, position: Any) -> None:
    check_text(ruleset, "ruleset key", RULESET_LENGTH)
    if not isinstance(position, str):
        raise TypeError(f"position key must be a str, got {type(position).__name__}")
