"""How a stored row is read, written, keyed and re-checked: the one place both code paths to a
store use.

A store is reached two ways: the full store (:class:`cgtalg.store.Store`, SQLAlchemy, for SQLite
and PostgreSQL) and the light store (:mod:`cgtalg.store.light`, Python's ``sqlite3``, for a
SQLite file at the newest schema). Their statements are written for their drivers (SQLAlchemy
Core, portable to PostgreSQL; the SQL text below, run by ``sqlite3``), and select the same
columns in the same order; what is done with the rows they return is decided here, once, on
plain values (a row is a tuple), by :class:`StoredRows`, a part of both stores. The reads of
positions' properties and of sequences (``get_position``, ``position_provenance``,
``sequence``, ``sequence_length``, ``sequence_provenance``, ``sequence_meta``) are written here
once, over the few statements each store runs its own way (``_position_id``, ``_owner_rows``,
``_sequence_row``, ``_read_range``); and:

- keying: :func:`form_key` (a form's key from its options' store ids) and the checks that a row
  found by a key hash holds that key (:meth:`StoredRows._checked_form_id`,
  :meth:`StoredRows._checked_position_id`);
- reading: :meth:`StoredRows._load` (a stored JSON value, or the error naming the row) and
  :meth:`StoredRows._fill_range` (the values of a sequence from its chunk rows);
- freshness: :meth:`StoredRows._fresh` (provenance: whether a row written by an older version
  of its algorithm is served; counted in ``stats``, recorded in ``stale_served``) and
  :meth:`StoredRows._sequence_served` for sequences;
- re-checking: :meth:`StoredRows._served_answer` (a property of a form or a position, served only
  after the answers stored beside it agree, :func:`cgtalg.store.answers.check_rows`);
- writing: :func:`property_upsert` (the write-once ``INSERT ... ON CONFLICT DO UPDATE`` of a
  property table, run by the light store and by the full store's SQLite bulk path) and
  :meth:`StoredRows._write_once` (a different current value already stored is refused).

Errors name the store, the table and the row, in the same words on both paths. This module
imports neither SQLAlchemy nor numpy.
"""

from __future__ import annotations

import json
from typing import Any, Callable

from cgtalg.core.game import Game
from cgtalg.errors import StoreCorruptError, StoreError
from cgtalg.store.answers import FormMoves, MovesOf, check_rows, companions, position_label
from cgtalg.store.codec import (
    NAME_LENGTH,
    SEQUENCE_KEY_LENGTH,
    atom_key,
    check_index,
    check_position,
    check_text,
    decode_chunk,
    decode_chunk_values,
    partizan_key,
    shorten,
)
from cgtalg.store.provenance import Provenance, current_sequence_meta, current_version, sequence_kind, sequence_version

__all__ = ["StoredRows", "VALUE_CACHE_SIZE", "form_key", "property_upsert", "position_property", "SELECT_FORM", "SELECT_POSITION",
           "INSERT_POSITION", "SELECT_SEQUENCE", "FIRST_CHUNK", "SELECT_CHUNKS", "SELECT_PROPERTY",
           "property_rows", "OWNER"]

# -- the statements of the light store (``sqlite3``, ``?`` parameters); the full store's
# SQLAlchemy Core statements select the same columns in the same order ---------------------------
#: a form by key hash: (id, options)
SELECT_FORM = "SELECT id, options FROM forms WHERE key_hash = ?"
#: a position by ruleset and text hash: (id, position)
SELECT_POSITION = "SELECT id, position FROM positions WHERE ruleset = ? AND position_hash = ?"
#: a position's row if absent (ruleset, position_hash, position)
INSERT_POSITION = ("INSERT INTO positions (ruleset, position_hash, position) VALUES (?, ?, ?) "
                   "ON CONFLICT (ruleset, position_hash) DO NOTHING")
#: one property row of a position: (value, algorithm, made_by)
SELECT_PROPERTY = "SELECT value, algorithm, made_by FROM position_properties WHERE position_id = ? AND name = ?"
#: a sequence's row: (length, meta, algorithm, made_by)
SELECT_SEQUENCE = "SELECT length, meta, algorithm, made_by FROM sequences WHERE key = ?"
#: the start of the chunk holding index ``start`` of a sequence (key, start)
FIRST_CHUNK = "SELECT max(start) FROM sequence_chunks WHERE sequence_key = ? AND start <= ?"
#: the chunk rows (start, count, codec, data) from ``first`` below ``stop`` (key, first, stop)
SELECT_CHUNKS = ("SELECT start, count, codec, data FROM sequence_chunks WHERE sequence_key = ? "
                 "AND start >= ? AND start < ? ORDER BY start")


#: The owner column of each property table (a form's or a position's id).
OWNER = {"form_properties": "form_id", "position_properties": "position_id"}


def property_rows(table: str, count: int) -> str:
    """``SELECT name, value, algorithm, made_by`` of one owner's properties in ``table`` among
    ``count`` names (parameters: the owner's id, then the names)."""
    return (f"SELECT name, value, algorithm, made_by FROM {table} WHERE {OWNER[table]} = ? "
            f"AND name IN ({', '.join('?' * count)})")


def property_upsert(table: str, owner: str) -> str:
    """The write-once upsert of a property table (``form_properties`` keyed by ``form_id``,
    ``position_properties`` by ``position_id``), with ``?`` parameters (owner id, name, value,
    value hash, algorithm, made_by): a new row is inserted, a stale row (an older algorithm
    version) replaced, and a current or newer row left as it is, to be read back and judged by
    :meth:`StoredRows._write_once`. SQLite 3.24+ and PostgreSQL 9.5+ syntax.

    Examples
    --------
    >>> property_upsert("position_properties", "position_id").split(" VALUES ")[1][:51]
    '(?, ?, ?, ?, ?, ?) ON CONFLICT (position_id, name) '
    """
    return (f"INSERT INTO {table} ({owner}, name, value, value_hash, algorithm, made_by) "
            f"VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT ({owner}, name) DO UPDATE SET "
            "value = excluded.value, value_hash = excluded.value_hash, algorithm = excluded.algorithm, "
            f"made_by = excluded.made_by WHERE {table}.algorithm < excluded.algorithm")


#: Entries of a store's in-process cache of property values of forms (cleared when full).
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


def form_key(g: Any, option_ids: list[int], text: Callable[[int], str] = str) -> str:
    """The key of the form ``g`` in the ``forms`` table: ``"*n"`` for the nim-heap ``*n``
    (:func:`~cgtalg.store.codec.atom_key`, ``option_ids`` unused), the store ids of its options
    ascending joined by commas for an impartial form (``option_ids`` is sorted in place;
    ``text`` writes an id), :func:`~cgtalg.store.codec.partizan_key` for a partizan form
    (``option_ids``: its Left options' ids, then its Right options').

    Examples
    --------
    >>> import cgtalg as cg
    >>> form_key(cg.parse("{*2, 0}"), [7, 3]), form_key(cg.nim(5), []), form_key(cg.pgame([], []), [])
    ('3,7', '*5', 'L|')
    """
    n = g._heap
    if n is not None:
        return atom_key(n)
    if isinstance(g, Game):
        option_ids.sort()
        return ",".join(map(text, option_ids))
    k = len(g._left)
    return partizan_key(option_ids[:k], option_ids[k:])


def position_property(prop: str, ruleset: str, position: str) -> str:
    """How a write-once refusal names a property of a position."""
    return f"property {prop!r} of position {shorten(position)} of {ruleset!r}"


class StoredRows:
    """How a store judges the rows it reads and writes (see the module): a part of the full
    store (:class:`cgtalg.store.engine.StoreBase`) and of :class:`cgtalg.store.light.LightStore`,
    which provide ``_where`` (how messages name the store), ``stats``, ``serve_stale`` and
    ``stale_served``."""

    _where: str
    stats: dict[str, int]
    serve_stale: bool
    stale_served: list[tuple[str, str, Provenance]]

    # what each store provides: its connection and the statements of its driver
    _closed: bool
    close: Callable[[], None]
    _transaction: Callable[..., Any]  # a context manager: one transaction, yielding a connection
    _values: dict[tuple[int, str, int], Any]  # (Game.id, property, version) -> value (_remember)
    _stored_form_id: Callable[..., int | None]  # (conn, g): the store id of the form g, or None
    _position_id: Callable[..., int | None]  # (conn, ruleset, position, insert): the position's id
    _owner_rows: Callable[..., dict[str, tuple]]  # (conn, table, owner id, names): {name: row}
    _sequence_row: Callable[..., Any]  # (conn, key): the SELECT_SEQUENCE row, or None
    _read_range: Callable[..., Any]  # (conn, key, start, stop, as_list): values by _fill_range

    # -- the store object ------------------------------------------------------------------------
    @property
    def location(self) -> str:
        """The store's file for SQLite, else its URL with the password hidden."""
        return self._where

    @property
    def closed(self) -> bool:
        """True after ``close()``."""
        return self._closed

    def __repr__(self) -> str:
        return f"<cgtalg Store {self._where}{' (closed)' if self._closed else ''}>"

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reading and freshness ---------------------------------------------------------------
    def _fresh(self, table: str, key: Callable[[], str], name: str, algorithm: int,
               made: str | None, current: int | None = None) -> bool:
        """Whether a row of ``name`` written by ``algorithm`` is served: a current row always;
        a stale one (counted in ``stats["stale"]``) only with ``serve_stale``, and then
        recorded in ``stale_served`` as ``(table, key(), Provenance)``."""
        now = current_version(name) if current is None else current
        if algorithm == now:
            return True
        self.stats["stale"] += 1
        if not self.serve_stale:
            return False
        self.stale_served.append((table, key(), Provenance.of(name, algorithm, made, now)))
        return True

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

    def _served_answer(self, table: str, owner: str, rows: dict[str, tuple], prop: str, label: Callable[[], str],
                       moves: MovesOf | None = None, current: int | None = None) -> Any | None:
        """The stored value of ``prop`` of one owner (a form, ``owner`` = ``"form 12"``; a
        position, ``"position 3 of 'demo'"``), or ``None`` when its row is stale and not served.
        ``rows`` (``{name: (text, algorithm, made_by)}``) holds ``prop`` and the answers read with
        it (:func:`~cgtalg.store.answers.companions`); they are checked against each other and
        the rules ``moves`` before the value is served (``label()`` names the owner in an error)."""
        text, algorithm, made = rows[prop]
        key = f"{owner}, property {prop!r}"
        if not self._fresh(table, lambda: key, prop, algorithm, made, current):
            return None
        value = self._load(text, table, key)
        check_rows({n: (t, a) for n, (t, a, _m) in rows.items()},
                   lambda t, n: self._load(t, table, f"{owner}, property {n!r}"),
                   where=self._where, table=table, label=label, moves=moves)
        return value

    # -- properties of forms -----------------------------------------------------------------
    def get(self, g: Any, prop: str) -> Any | None:
        """The stored value of property ``prop`` of the form ``g`` (JSON data), or ``None``;
        the answers stored for the form are checked against each other
        (:mod:`cgtalg.store.answers`). A current value read is kept in an in-process cache
        (current stored values never change)."""
        check_text(prop, "property name", NAME_LENGTH)
        version = current_version(prop)
        hit = self._values.get((g.id, prop, version), _MISSING) if isinstance(g, Game) else _MISSING
        if hit is not _MISSING:
            return _thaw(hit)
        with self._transaction() as conn:
            sid = self._stored_form_id(conn, g)
            if sid is None:
                return None
            rows = self._owner_rows(conn, "form_properties", sid, companions(prop) or (prop,))
        if prop not in rows:
            return None
        value = self._served_form_property(sid, g, rows, prop, version)
        if value is not None and rows[prop][1] == version:
            self._remember(g.id, prop, version, rows[prop][0], value)
        return value

    def _remember(self, game_id: int, prop: str, version: int, text: str, value: Any = _MISSING) -> None:
        """Cache a current stored (hence never-changing) value under the process-local game
        id and the algorithm version that wrote it."""
        if len(self._values) >= VALUE_CACHE_SIZE:
            self._values.clear()
        if value is _MISSING:
            value = json.loads(text)
        self._values[(game_id, prop, version)] = _freeze(value, text)

    def _served_form_property(self, sid: int, g: Any, rows: dict[str, tuple], prop: str, current: int) -> Any | None:
        """:meth:`_served_answer` for a form ``g`` of store id ``sid`` (terminal when it has no
        option, :class:`~cgtalg.store.answers.FormMoves`)."""
        return self._served_answer("form_properties", f"form {sid}", rows, prop, lambda: f"form {sid}",
                                   FormMoves(g), current)

    # -- properties of positions --------------------------------------------------------------
    def get_position(self, ruleset: str, position: str, prop: str, *, moves: MovesOf | None = None) -> Any | None:
        """The stored ``prop`` of ``position`` (its text key) of ``ruleset``, or ``None``.

        The answers stored for the position (outcomes, Grundy values, winning moves, genus,
        solutions) are checked against each other when one of them is read; ``moves``, given by
        a reader that knows the rules, says whether the position has a move and which stored
        winning moves are moves of it (:class:`cgtalg.store.answers.MovesOf`).

        Raises
        ------
        StoreCorruptError
            For an unreadable row, or stored answers that contradict each other or the rules
            (:mod:`cgtalg.store.answers`), naming the row.
        """
        check_position(ruleset, position)
        check_text(prop, "property name", NAME_LENGTH)
        found = self._position_rows(ruleset, position, prop)
        if found is None:
            return None
        pid, rows = found
        return self._served_answer("position_properties", f"position {pid} of {ruleset!r}", rows, prop,
                                   lambda: position_label(pid, ruleset, position), moves)

    def position_provenance(self, ruleset: str, position: str, prop: str) -> Provenance | None:
        """The provenance of the stored ``prop`` of ``position`` of ``ruleset`` (stale or
        not), or ``None`` when nothing is stored."""
        check_position(ruleset, position)
        check_text(prop, "property name", NAME_LENGTH)
        found = self._position_rows(ruleset, position, prop)
        return None if found is None else Provenance.of(prop, found[1][prop][1], found[1][prop][2])

    def _position_rows(self, ruleset: str, position: str, prop: str) -> tuple[int, dict[str, tuple]] | None:
        """``(position id, {name: (text, algorithm, made_by)})`` of ``prop`` of a position and
        the answers checked with it (:func:`cgtalg.store.answers.companions`), stale or not, or
        ``None`` when ``prop`` is not stored."""
        with self._transaction() as conn:
            pid = self._position_id(conn, ruleset, position, insert=False)
            if pid is None:
                return None
            rows = self._owner_rows(conn, "position_properties", pid, companions(prop) or (prop,))
        return (pid, rows) if prop in rows else None

    # -- sequences (read) ------------------------------------------------------------------------
    def sequence_length(self, key: str) -> int:
        """How many values of sequence ``key`` are stored (0 if none, or if stale)."""
        check_text(key, "sequence key", SEQUENCE_KEY_LENGTH)
        with self._transaction() as conn:
            row = self._sequence_row(conn, key)
        return int(row[0]) if self._sequence_served(key, row) else 0

    def sequence_provenance(self, key: str) -> Provenance | None:
        """The provenance of the values of sequence ``key`` (stale or not), or ``None``."""
        check_text(key, "sequence key", SEQUENCE_KEY_LENGTH)
        with self._transaction() as conn:
            row = self._sequence_row(conn, key)
        return None if row is None else Provenance.of(sequence_kind(key), row[2], row[3], sequence_version(key))

    def sequence(self, key: str, start: int = 0, stop: int | None = None) -> Any:
        """The stored prefix of sequence ``key`` (an int64 numpy array; empty if nothing is
        stored, or if the sequence is stale and stale rows are not served).

        With ``start``/``stop``, only the values at those indices (like slicing the prefix).
        """
        return self._sequence_read(key, start, stop, as_list=False)

    def sequence_meta(self, key: str) -> dict | None:
        """The metadata of sequence ``key`` (its current entries), or ``None`` (also when the
        sequence is stale)."""
        check_text(key, "sequence key", SEQUENCE_KEY_LENGTH)
        with self._transaction() as conn:
            row = self._sequence_row(conn, key)
        if row is None or row[1] is None or not self._sequence_served(key, row):
            return None
        return self._current_meta(key, self._load(row[1], "sequences", f"sequence {key!r}, column meta", dict))

    def _sequence_read(self, key: str, start: int, stop: int | None, as_list: bool) -> Any:
        """:meth:`sequence`, as an int64 array or (``as_list``) a list of ints."""
        check_text(key, "sequence key", SEQUENCE_KEY_LENGTH)
        start = check_index(start, "start")
        if stop is not None:
            stop = check_index(stop, "stop")
        with self._transaction() as conn:
            row = self._sequence_row(conn, key)
            length = int(row[0]) if self._sequence_served(key, row) else 0
            stop = length if stop is None else min(stop, length)
            if start < stop:
                return self._read_range(conn, key, start, stop, as_list)
        return self._range_buffer(0, as_list)[0]

    @staticmethod
    def _range_buffer(count: int, as_list: bool) -> tuple[Any, Callable[[str, bytes, int], Any]]:
        """Room for ``count`` values of a sequence and the chunk decoder that fills it: a list
        and :func:`~cgtalg.store.codec.decode_chunk_values` (no numpy), or an int64 array and
        :func:`~cgtalg.store.codec.decode_chunk`."""
        if as_list:
            return [0] * count, decode_chunk_values
        import numpy as np

        return np.empty(count, dtype=np.int64), decode_chunk

    # -- sequences -------------------------------------------------------------------------------
    def _sequence_served(self, key: str, row: tuple | None) -> bool:
        """Whether the row ``(length, meta, algorithm, made_by)`` of sequence ``key`` is served
        (current, or stale and ``serve_stale``; a stale row is counted, and recorded when served)."""
        if row is None:
            return False
        return self._fresh("sequences", lambda: f"sequence {key!r}", sequence_kind(key), row[2], row[3],
                           sequence_version(key))

    def _current_meta(self, key: str, meta: dict) -> dict:
        """``meta`` without its provenance entry and without stale entries (unless served)."""
        return current_sequence_meta(key, meta, self._fresh)

    def _fill_range(self, key: str, chunks: Any, first: int | None, start: int, stop: int, out: Any,
                    decode: Callable[[str, bytes, int], Any]) -> Any:
        """``out`` (``stop - start`` slots) filled with values ``start .. stop-1`` of sequence
        ``key`` from its chunk rows ``(start, count, codec, data)`` in order from ``first`` (the
        chunk holding ``start``), each decoded by ``decode``; a chunk that is unreadable or
        missing below ``stop`` raises :class:`StoreCorruptError`."""
        expected = first
        for row_start, count, codec, data in chunks:
            if row_start != expected:
                break
            try:
                values = decode(codec, data, count)
            except ValueError as exc:
                raise StoreCorruptError(
                    f"the store {self._where}: chunk {row_start} of sequence {key!r} is unreadable: {exc}"
                ) from None
            lo, hi = max(start, row_start), min(stop, row_start + count)
            if lo < hi:  # (a chunk ending below ``start``: the one holding it is missing)
                out[lo - start : hi - start] = values[lo - row_start : hi - row_start]
            expected = row_start + count
        if expected is None or expected < stop:
            raise StoreCorruptError(
                f"the store {self._where} is inconsistent: sequence {key!r} has no stored chunk "
                f"for index {start if expected is None else expected}, below its stored length"
            )
        return out

    # -- keying ----------------------------------------------------------------------------------
    def _checked_form_id(self, found: tuple[int, str], key: str) -> int:
        """The id of the form row ``found`` = ``(id, options)`` read by the key hash of ``key``;
        a row holding other options raises :class:`StoreCorruptError`."""
        if found[1] != key:
            raise StoreCorruptError(
                f"the store {self._where} is inconsistent: form {found[0]} has options "
                f"[{found[1]}] but the key hash of [{key}]"
            )
        return found[0]

    def _checked_position_id(self, found: tuple[int, str], ruleset: str, position: str) -> int:
        """The id of the position row ``found`` = ``(id, position)`` read by the text hash of
        ``position`` of ``ruleset``; a row holding another text raises :class:`StoreCorruptError`."""
        if found[1] != position:
            raise StoreCorruptError(
                f"the store {self._where} is inconsistent: position {found[0]} of {ruleset!r} "
                f"is {shorten(found[1])}, not {shorten(position)}"
            )
        return found[0]

    # -- writing ---------------------------------------------------------------------------------
    def _write_once(self, stored: Any, algorithm: int | None, text: str, version: int, what: Callable[[], str],
                    batch: bool = False) -> bool:
        """Judge a row read back after the upsert of ``text`` by ``version``
        (:func:`property_upsert`): a different value stored by the same version raises
        :class:`StoreError` naming ``what()`` (``batch``: one row of a batch, nothing of which was
        written); True when the row holds this value, False when a newer version wrote it (left
        as it is) or it is absent."""
        if stored != text and algorithm == version:
            raise StoreError(
                f"refusing to overwrite {what()} in the store {self._where}: stored value "
                f"{shorten(str(stored))}, new value {shorten(text)}"
                + ("; nothing of the batch was written" if batch else "")
            )
        return algorithm == version
