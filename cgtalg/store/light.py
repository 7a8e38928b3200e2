"""The light store: the records a small command reads and writes, through Python's own
``sqlite3``, for a store file that is already at the newest schema.

SQLAlchemy's import alone costs a quarter of a second, more than a small question such as
``cgtalg game '{*2}'`` or ``cgtalg grundy 0.77 -n 100`` needs in all (issue 23: "a small
question should not pay for a kernel it does not need"). :func:`open_light_store` opens a
:class:`LightStore` when the store is a SQLite file named by a path or a plain SQLite URL
(``sqlite:///relative/path``, ``sqlite:////absolute/path``; given, or in ``$CGTALG_STORE``, or the
per-user file: :func:`cgtalg.store.location.plain_store_path`) that exists, passes the same
header, ``PRAGMA quick_check`` and table checks the full store runs on opening, runs in WAL mode
and is at :data:`HEAD_REVISION`; a new file (absent or empty) so named is first created at
:data:`HEAD_REVISION` without SQLAlchemy or Alembic (:mod:`cgtalg.store.create`, issue 35).
Anything else (an older or a newer schema, a PostgreSQL or other URL, a SQLite URL with a query
or another driver, an in-memory store, a corrupt file, a missing folder) opens the full
:class:`cgtalg.store.Store` unchanged, which migrates, refuses and reports as it always does.

A light store answers the records of the light commands from the same tables with the same
keys and encoding (:mod:`cgtalg.store.codec`), and judges the rows it reads and writes by the
same code as the full store (:mod:`cgtalg.store.rows`: keying, decoding, provenance, the
consistency checks of :mod:`cgtalg.store.answers`, write-once), so that both give the same
answers and raise the same errors in the same words: properties of forms (:meth:`LightStore.get`,
read only), properties of ruleset positions (read, written, memoised) and stored sequences and
their metadata (read, and written: :mod:`cgtalg.store.sequence_writes`, so that a first
``grundy``, ``period`` or ``quotient`` on a new store does not import SQLAlchemy). Provenance works as in the full store (a stale row is not served unless
``serve_stale``; :attr:`LightStore.stats` and :attr:`LightStore.stale_served` count and record
the same). Each read is one deferred transaction, each write one ``BEGIN IMMEDIATE``
transaction, on a connection with the full store's settings (foreign keys, WAL,
``synchronous = NORMAL``, the busy timeout :data:`~cgtalg.store.location.BUSY_TIMEOUT`).

Everything else goes to the full store, opened on first need, with the same ``stats`` and
``stale_served``: every other method and attribute (``light.form_id(g)``, ``light.put(...)``,
``light.query(...)``), and a light call that meets anything unusual -- a SQLite
error (busy, read-only, malformed), a state the light store does not judge -- which the full
store then runs again and answers or reports in its own words. A light write that failed was
rolled back, and every write is write-once, so running it again is safe.
"""

from __future__ import annotations

import functools
import json
import os
import re
import sqlite3
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

from cgtalg.core.game import Game, forms_by_id
from cgtalg.errors import StoreCorruptError, StoreError
from cgtalg.store.create import HEAD_REVISION, TABLES, create_head_schema, new_store_path
from cgtalg.store.codec import (NAME_LENGTH, check_game, check_position, check_text, encode_value, key_hash,
                                stored_birthday, value_hash)
from cgtalg.store.location import BUSY_TIMEOUT, inspect_sqlite_file, plain_store_path, quick_check
from cgtalg.store.provenance import Provenance, current_version, made_by
from cgtalg.store import rows as R
from cgtalg.store.rows import StoredRows, form_key
from cgtalg.store.sequence_writes import LIGHT_SEQUENCE_STATEMENTS as _SEQ
from cgtalg.store.sequence_writes import SequenceWrites

__all__ = ["HEAD_REVISION", "TABLES", "LightStore", "open_light_store", "light_store_path"]

#: a new form (key hash, key, birthday); written-once rows, so a conflict is another writer's same row
_INSERT_FORM = "INSERT INTO forms (key_hash, options, birthday) VALUES (?, ?, ?) ON CONFLICT (key_hash) DO NOTHING"
_SELECT_FORM_PROPERTY = "SELECT value, algorithm, made_by FROM form_properties WHERE form_id = ? AND name = ?"

#: paths SQLAlchemy renders into a URL as they are (no character it would quote)
_PLAIN_PATH = re.compile(r"[A-Za-z0-9/._~+-]+")


def _format_game(g: Game) -> str:
    from cgtalg.core.notation import format_game  # (only for a message)

    return format_game(g, max_chars=80)


class _Unusual(Exception):
    """A row or a state the light store does not judge: the full store runs the call again."""


def light_store_path(url: str | os.PathLike | None = None) -> Path | None:
    """The store file a :class:`LightStore` may open for ``url`` (as
    :func:`cgtalg.store.open_store` reads it: a path or a plain ``sqlite:///`` URL,
    :func:`~cgtalg.store.location.plain_store_path`), or ``None`` when the full store must open
    it: not a SQLite file named so, absent or empty, not at :data:`HEAD_REVISION`, missing a table,
    unreadable, or failing ``PRAGMA quick_check``. Never writes and never raises for a bad
    store (the full store reports it).

    Examples
    --------
    >>> light_store_path(":memory:") is None, light_store_path("postgresql://db/cgt") is None
    (True, True)
    """
    try:
        path = plain_store_path(url)
        if path is None:
            return None
        state = inspect_sqlite_file(path)
    except (StoreError, OSError, TypeError):
        return None
    if state is None:
        return None
    tables, revisions = state
    if revisions != [HEAD_REVISION] or not set(TABLES) <= set(tables):
        return None
    if quick_check(path) is not None:
        return None
    return path


def open_light_store(url: str | os.PathLike | None = None, serve_stale: bool = False) -> Any:
    """A :class:`LightStore` for ``url`` when :func:`light_store_path` allows one, or when
    ``url`` names a new SQLite file (absent or empty), which is first created at the head
    revision through ``sqlite3`` (:func:`cgtalg.store.create.create_head_schema`); else the
    full store, ``cgtalg.store.open_store(url, serve_stale)``.

    Parameters
    ----------
    url : str or path-like, optional
        As :func:`cgtalg.store.open_store`.
    serve_stale : bool, default False
        As :func:`cgtalg.store.open_store`.

    Returns
    -------
    LightStore or cgtalg.store.Store

    Raises
    ------
    StoreError, StoreSchemaError, StoreCorruptError
        As :func:`cgtalg.store.open_store`, for the stores a light store does not open.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from cgtalg.store import open_store
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "s.sqlite"
    >>> light = open_light_store(path)              # a new file: created at the head revision
    >>> type(light).__name__, light.get_position("demo", "x", "answer")
    ('LightStore', None)
    >>> light.memo_position("demo", "x", "answer", lambda: [1, 2]), open_store(path).get_position("demo", "x", "answer")
    ([1, 2], [1, 2])

    References
    ----------
    SQLite, "Write-Ahead Logging" (https://sqlite.org/wal.html) and "BEGIN TRANSACTION"
    (https://sqlite.org/lang_transaction.html): the modes the full store uses, used here too.
    """
    path = light_store_path(url)
    if path is None:  # a new store: created at the head without SQLAlchemy or Alembic (issue 35)
        new = new_store_path(url)
        if new is not None and create_head_schema(new):
            path = light_store_path(new)
        elif new is None:  # another process may have finished creating it between the two looks
            path = light_store_path(url)
    if path is not None:
        try:
            return LightStore(path, url, serve_stale)
        except (sqlite3.Error, _Unusual):
            pass
    from cgtalg.store.store import open_store

    return open_store(url, serve_stale=serve_stale)


def _light(method: Callable) -> Callable:
    """Run ``method`` on the light connection; on a SQLite error or an :class:`_Unusual` row,
    run the full store's method of the same name with the same arguments instead (what the
    light call had counted in ``stats`` and ``stale_served`` is forgotten: the full store
    counts it again)."""
    name = method.__name__

    @functools.wraps(method)
    def wrapper(self: "LightStore", *args: Any, **kwargs: Any) -> Any:
        counted = dict(self.stats), len(self.stale_served)
        try:
            return method(self, *args, **kwargs)
        except (sqlite3.Error, _Unusual):
            self._uncount(counted)
            return getattr(self.full_store(), name)(*args, **kwargs)

    return wrapper


class LightStore(StoredRows, SequenceWrites):
    """A store file at the newest schema, read and written through ``sqlite3`` (see the
    module). Open one with :func:`open_light_store`; it has the full store's attributes
    (``url``, ``location``, ``revision``, ``stats``, ``serve_stale``, ``stale_served``) and
    methods, the light ones answered here and the others by :meth:`full_store`."""

    def __init__(self, path: Path, given: str | os.PathLike | None = None, serve_stale: bool = False) -> None:
        self._path = path
        self._given = given
        self._where = str(path)
        self.revision = HEAD_REVISION
        self.serve_stale = bool(serve_stale)
        self.stats: dict[str, int] = {"hits": 0, "misses": 0, "stale": 0}
        self.stale_served: list[tuple[str, str, Provenance]] = []
        self._full: Any = None
        self._closed = False
        self._lock = threading.RLock()
        self._form_ids: dict[int, int] = {}  # Game.id -> store id (committed rows only)
        self._values: dict[tuple[int, str, int], Any] = {}  # (Game.id, property, version) -> value
        self._con = self._connect()

    def _connect(self) -> sqlite3.Connection:
        """A connection with the full store's settings; the store must already be in WAL mode
        (every store the full store has opened is), else :class:`_Unusual`."""
        con = sqlite3.connect(f"{self._path.as_uri()}?mode=rw", uri=True, timeout=BUSY_TIMEOUT,
                              isolation_level=None, check_same_thread=False)
        try:
            con.execute("PRAGMA foreign_keys = ON")
            mode = con.execute("PRAGMA journal_mode").fetchone()[0]
            if str(mode).lower() != "wal":
                raise _Unusual(f"journal mode {mode}")
            con.execute("PRAGMA synchronous = NORMAL")
            con.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT * 1000)}")
        except BaseException:
            con.close()
            raise
        self._pid = os.getpid()
        return con

    # -- plumbing ----------------------------------------------------------------------
    def full_store(self) -> Any:
        """The full SQLAlchemy store of the same file, opened on first call, sharing this
        store's ``stats`` and ``stale_served``."""
        if self._full is None:
            if self._closed:
                raise StoreError(f"the store {self._where} is closed")
            from cgtalg.store.store import open_store

            full = open_store(self._given, serve_stale=self.serve_stale)
            full.stats = self.stats
            full.stale_served = self.stale_served
            self._full = full
        return self._full

    def _uncount(self, counted: tuple[dict[str, int], int]) -> None:
        """Put ``stats`` and ``stale_served`` back as they were (``counted``: a copy of the
        stats and the length of ``stale_served``), in place: the full store shares them."""
        self.stats.update(counted[0])
        del self.stale_served[counted[1]:]

    def __getattr__(self, name: str) -> Any:
        # only called for names this class lacks: the full store's other methods and attributes
        if name.startswith("__") or name in ("_full", "_closed", "_path", "_given"):
            raise AttributeError(name)
        return getattr(self.full_store(), name)

    @property
    def url(self) -> str:
        """The SQLAlchemy URL of the store, as the full store's ``url`` (``sqlite:////abs/path``;
        a path with characters a URL quotes is rendered by SQLAlchemy itself)."""
        text = str(self._path)
        if _PLAIN_PATH.fullmatch(text):
            return "sqlite:///" + text
        from cgtalg.store.location import resolve_store_url

        return resolve_store_url(self._path).render_as_string(hide_password=False)

    @property
    def malformed(self) -> str | None:
        """Always ``None``: a malformed store opens the full store."""
        return None if self._full is None else self._full.malformed

    def __reduce__(self) -> tuple:
        from cgtalg.store.store import get_default_store

        return (get_default_store, (self.url, self.serve_stale))

    def close(self) -> None:
        """Close the connection (and the full store, if it was opened)."""
        if not self._closed:
            self._closed = True
            self._con.close()
            if self._full is not None:
                self._full.close()

    def forget_cache(self) -> None:
        """Empty the in-process cache of values (as the full store's)."""
        self._values.clear()
        if self._full is not None:
            self._full.forget_cache()

    @contextmanager
    def _transaction(self, write: bool = False) -> Iterator[sqlite3.Connection]:
        """One transaction: ``BEGIN`` (a read) or ``BEGIN IMMEDIATE`` (a write), committed on
        success and rolled back on any exception."""
        if self._closed:
            raise StoreError(f"the store {self._where} is closed")
        with self._lock:
            if os.getpid() != self._pid:  # forked: the parent's connection is not ours
                self._con = self._connect()
            con = self._con
            con.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                yield con
            except BaseException:
                con.execute("ROLLBACK")
                raise
            con.execute("COMMIT")

    # -- properties of forms (read) ----------------------------------------------------------
    def _stored_form_id(self, con: sqlite3.Connection, g: Game) -> int | None:
        """The store id of ``g`` if the store holds it, else ``None`` (never writes;
        :meth:`_form_ids_of`)."""
        check_game(g)
        found = self._form_ids.get(g.id)
        if found is not None:
            return found
        ids = self._form_ids_of(con, g, insert=False)
        self._form_ids.update(ids)  # rows found by a read are committed
        return ids.get(g._id)

    def _form_ids_of(self, con: sqlite3.Connection, g: Game, insert: bool) -> dict[int, int]:
        """Store ids (by Game id) of ``g`` and the forms below it that the store holds, keyed
        options first (:func:`~cgtalg.store.codec.atom_key`,
        :func:`~cgtalg.store.codec.partizan_key`, ascending option ids) and looked up by key
        hash, as the full store keys them; with ``insert`` (inside a write transaction) the
        forms it lacks are inserted, options first, so ``g`` is among the ids returned."""
        by_id = forms_by_id()
        todo: dict[int, Any] = {}
        stack = [g._id]
        while stack:
            gid = stack.pop()
            if gid in todo or gid in self._form_ids:
                continue
            h = todo[gid] = by_id[gid]
            if h._heap is None:
                stack.extend(h._option_ids)
        ids: dict[int, int] = {}
        for gid in sorted(todo, key=lambda i: todo[i]._birthday):
            h = todo[gid]
            options = [] if h._heap is not None else [ids.get(o, self._form_ids.get(o)) for o in h._option_ids]
            if None in options:
                continue  # an option the store lacks (a read)
            key = form_key(h, options)
            hashed = key_hash(key)
            row = con.execute(R.SELECT_FORM, (hashed,)).fetchone()
            if row is None and insert:
                con.execute(_INSERT_FORM, (hashed, key, stored_birthday(h._birthday)))
                row = con.execute(R.SELECT_FORM, (hashed,)).fetchone()
                if row is None:
                    raise _Unusual("a form inserted but not read back")
            if row is not None:
                ids[gid] = self._checked_form_id(row, key)
        return ids

    def memo(self, g: Game, prop: str, compute: Callable[[], Any]) -> Any:
        """The stored property ``prop`` of ``g``, or ``compute()`` stored and returned (as
        :meth:`cgtalg.store.Store.memo`)."""
        stored = self.get(g, prop)
        if stored is not None:
            self.stats["hits"] += 1
            return stored
        self.stats["misses"] += 1
        text = encode_value(compute(), f"property {prop!r}")
        self._put_property(g, prop, text)
        return json.loads(text)

    def put(self, g: Game, prop: str, value: Any) -> None:
        """Store ``value`` as property ``prop`` of ``g``, keying new forms; write-once (as
        :meth:`cgtalg.store.Store.put`)."""
        check_text(prop, "property name", NAME_LENGTH)
        self._put_property(g, prop, encode_value(value, f"property {prop!r}"))

    @_light
    def _put_property(self, g: Game, prop: str, text: str) -> None:
        """One write transaction: the forms of ``g`` the store lacks, then the value, replacing
        only a stale row; a different current value already stored is refused by name, and
        nothing of the transaction stays (as the full store's ``_put_property``)."""
        check_game(g)
        version = current_version(prop)
        with self._transaction(write=True) as con:
            ids = self._form_ids_of(con, g, insert=True)
            sid = ids.get(g._id, self._form_ids.get(g._id))
            con.execute(R.property_upsert("form_properties", "form_id"),
                        (sid, prop, text, value_hash(text), version, made_by()))
            stored, algorithm, _made = con.execute(_SELECT_FORM_PROPERTY, (sid, prop)).fetchone()
            held = self._write_once(stored, algorithm, text, version,
                                    lambda: f"property {prop!r} of {_format_game(g)} (form {sid})")
        self._form_ids.update(ids)  # committed
        if held:
            self._remember(g.id, prop, version, text)

    # -- properties of ruleset positions (read and write) -----------------------------------
    def _position_id(self, con: sqlite3.Connection, ruleset: str, position: str, insert: bool) -> int | None:
        h = key_hash(position)
        row = con.execute(R.SELECT_POSITION, (ruleset, h)).fetchone()
        if row is None:
            if not insert:
                return None
            con.execute(R.INSERT_POSITION, (ruleset, h, position))
            row = con.execute(R.SELECT_POSITION, (ruleset, h)).fetchone()
            if row is None:
                raise _Unusual("a position inserted but not read back")
        return self._checked_position_id(row, ruleset, position)

    @staticmethod
    def _owner_rows(con: sqlite3.Connection, table: str, owner_id: int, names: tuple[str, ...]) -> dict[str, tuple]:
        """``{name: (text, algorithm, made_by)}`` of the properties ``names`` of one owner (a
        form or a position) in the property table ``table``, stale or not."""
        return {name: tuple(row) for name, *row in con.execute(R.property_rows(table, len(names)), (owner_id, *names))}

    def put_position(self, ruleset: str, position: str, prop: str, value: Any) -> None:
        """Store ``value`` as ``prop`` of ``position`` of ``ruleset``; write-once (as
        :meth:`cgtalg.store.Store.put_position`)."""
        check_position(ruleset, position)
        check_text(prop, "property name", NAME_LENGTH)
        self._put_position(ruleset, position, prop, encode_value(value, f"property {prop!r}"))

    @_light
    def _put_position(self, ruleset: str, position: str, prop: str, text: str) -> None:
        """One write transaction: the position's row if absent, then the value, replacing only
        a stale row (an older algorithm version); a different current value already stored is
        refused by name, and nothing of the transaction stays."""
        version = current_version(prop)
        with self._transaction(write=True) as con:
            pid = self._position_id(con, ruleset, position, insert=True)
            con.execute(R.property_upsert("position_properties", "position_id"),
                        (pid, prop, text, value_hash(text), version, made_by()))
            stored, algorithm, _made = con.execute(R.SELECT_PROPERTY, (pid, prop)).fetchone()
            self._write_once(stored, algorithm, text, version, lambda: R.position_property(prop, ruleset, position))

    def memo_position(self, ruleset: str, position: str, prop: str, compute: Callable[[], Any]) -> Any:
        """The stored ``prop`` of the position, or ``compute()`` stored and returned (as
        :meth:`cgtalg.store.Store.memo_position`; counted in :attr:`stats`)."""
        stored = self.get_position(ruleset, position, prop)
        if stored is not None:
            self.stats["hits"] += 1
            return stored
        self.stats["misses"] += 1
        text = encode_value(compute(), f"property {prop!r}")
        self._put_position(ruleset, position, prop, text)
        return json.loads(text)

    # -- sequences (read) --------------------------------------------------------------------
    @staticmethod
    def _sequence_row(con: sqlite3.Connection, key: str, lock: bool = False) -> tuple | None:
        # (lock: a write transaction here is BEGIN IMMEDIATE, which already holds the write lock)
        return con.execute(R.SELECT_SEQUENCE, (key,)).fetchone()

    # -- the statements of the sequence writes (SequenceWrites) -------------------------------
    @staticmethod
    def _seq_insert(con: sqlite3.Connection, key: str, version: int, made: str) -> None:
        con.execute(_SEQ["insert"], (key, version, made))

    @staticmethod
    def _seq_restart(con: sqlite3.Connection, key: str, version: int, made: str) -> None:
        con.execute(_SEQ["restart_chunks"], (key,))
        con.execute(_SEQ["restart_row"], (version, made, key))

    @staticmethod
    def _seq_pending(con: sqlite3.Connection, key: str, base: int) -> int:
        return int(con.execute(_SEQ["pending"], (key, base)).fetchone()[0])

    @staticmethod
    def _seq_put_chunk(con: sqlite3.Connection, key: str, start: int, count: int, codec: str, data: bytes) -> None:
        con.execute(_SEQ["put_chunk"], (key, start, count, codec, data))

    @staticmethod
    def _seq_drop_chunks(con: sqlite3.Connection, key: str, base: int) -> None:
        con.execute(_SEQ["drop_chunks"], (key, base))

    @staticmethod
    def _seq_set(con: sqlite3.Connection, key: str, column: str, value: Any) -> None:
        con.execute(_SEQ["set_" + column], (value, key))

    def sequence_values(self, key: str, start: int = 0, stop: int | None = None) -> list[int]:
        """:meth:`sequence` as a list of ints, read without numpy (a small question in a fresh
        process does not pay for importing it; :func:`cgtalg.store.codec.decode_chunk_values`);
        on a row the light store does not read, or an unreadable chunk, the full store's
        :meth:`sequence` as a list (which reads, or reports, the chunks with numpy)."""
        counted = dict(self.stats), len(self.stale_served)
        try:
            return self._sequence_read(key, start, stop, as_list=True)
        except (sqlite3.Error, _Unusual, StoreCorruptError):
            self._uncount(counted)
            return [int(v) for v in self.full_store().sequence(key, start, stop)]

    def _read_range(self, con: sqlite3.Connection, key: str, start: int, stop: int, as_list: bool = False) -> Any:
        """Values ``start .. stop-1`` (all stored) of sequence ``key``, from its chunks (an
        int64 array, or with ``as_list`` a list of ints read without numpy)."""
        first = con.execute(R.FIRST_CHUNK, (key, start)).fetchone()[0]
        chunks = con.execute(R.SELECT_CHUNKS, (key, first or 0, stop))
        return self._fill_range(key, chunks, first, start, stop, *self._range_buffer(stop - start, as_list))


#: The reads a light store runs itself, written once for both stores
#: (:class:`~cgtalg.store.rows.StoredRows`) and handed to the full store on anything unusual
#: (:func:`_light`); besides them :meth:`LightStore.put_position`.
LIGHT_READS = ("get", "get_position", "position_provenance", "sequence_length", "sequence_provenance", "sequence",
               "sequence_meta")
for _name in LIGHT_READS:
    setattr(LightStore, _name, _light(getattr(StoredRows, _name)))

#: The writes of sequences a light store runs itself (:class:`SequenceWrites`), handed to the
#: full store on anything unusual (the light transaction was rolled back).
LIGHT_WRITES = ("extend_sequence", "put_sequence_meta")
for _name in LIGHT_WRITES:
    setattr(LightStore, _name, _light(getattr(SequenceWrites, _name)))

#: The full store's public methods that a light store hands to it (:meth:`LightStore.full_store`):
#: defined on the class, so that a caller checking ``callable(getattr(store, "put"))`` does not
#: open the full store before it is needed.
FORWARDED = ("put_many", "get_many", "provenance", "properties", "get_relation", "put_relation",
             "form_id", "form_ids", "game", "position_properties", "put_positions_many",
             "get_positions_many", "info", "provenance_summary",
             "list_sequences", "list_positions", "list_relations", "find", "query")


def _forward(name: str) -> Callable:
    def method(self: LightStore, *args: Any, **kwargs: Any) -> Any:
        return getattr(self.full_store(), name)(*args, **kwargs)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"As :meth:`cgtalg.store.Store.{name}` (run by the full store)."
    return method


for _name in FORWARDED:
    setattr(LightStore, _name, _forward(_name))
del _name
