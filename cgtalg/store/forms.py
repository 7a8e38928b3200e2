"""Forms in the store: hash-consed in the ``forms`` table as they are in memory.

Forms are hash-consed in the database as they are in memory (:mod:`cgtalg.core.game`): the
key of a form is the ascending list of its options' store ids, so two processes storing the
same form get the same id, whatever order they built their forms in. A nim-heap ``*n`` (an atom
of the form type, any ``n``) is keyed by its size, ``"*n"``, so storing ``*10**18`` or a form
with it as an option never walks its implied options (``*0`` keeps the empty key). A partizan
form is keyed by both its sides (:func:`partizan_key`), in the same table and id space.
"""

from __future__ import annotations

import hashlib
import sqlite3
import sys
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Sequence

from sqlalchemy import select
from sqlalchemy.engine import Connection

from cgtalg.core.game import Game, forms_by_id, nim
from cgtalg.core.game import game as make_game
from cgtalg.core.notation import digits_to_int, format_game
from cgtalg.core.partizan import pgame
from cgtalg.errors import StoreCorruptError, StoreError
from cgtalg.store.codec import BIRTHDAY_CAP, atom_key, check_game, partizan_key, shorten, stored_birthday
from cgtalg.store.engine import IN_BATCH, retry_transient
from cgtalg.store.rows import form_key
from cgtalg.store.schema import forms

__all__ = [
    "FormsMixin",
    "PendingIds",
    "BIRTHDAY_CAP",
    "stored_birthday",
    "atom_key",
    "partizan_key",
    "key_ids",
    "parse_form_key",
    "options_first",
]


def key_ids(options: Any) -> list[int]:
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
        digits = text[1:]
        if not digits.isascii() or not digits.isdigit() or digits[0] == "0":
            raise ValueError(text)
        return digits_to_int(digits)
    return [int(t) for t in text.split(",")] if text else []


def options_first(rows: dict[int, tuple[int | list[int], int]]) -> list[int]:
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
            stack.extend((o, False) for o in key_ids(options) if o not in done and o in rows)
    return order


class PendingIds(dict):
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


class FormsMixin:
    """The ``forms`` table: store ids of forms (one at a time or in bulk) and forms rebuilt
    from their ids. Part of :class:`cgtalg.store.Store`."""

    def form_id(self, g: Game) -> int:
        """The store id of the form ``g``, inserting it and its subpositions if absent.

        The key of a form is the ascending list of its options' ids, so ids are stable
        within a store and shared by every process using it. Missing forms are inserted
        bottom-up (options first) in one transaction.

        Examples
        --------
        >>> import cgtalg as cg
        >>> from cgtalg.store import open_store
        >>> store = open_store(":memory:")
        >>> store.form_id(cg.parse("*+*")) == store.form_id(cg.parse("{*}"))
        True
        """
        check_game(g)
        found = self._form_ids.get(g.id)
        if found is not None:
            return found
        return self._insert_form(g)

    @retry_transient
    def _insert_form(self, g: Game) -> int:
        with self._write_forms() as (_conn, form_id):
            return form_id(g)

    @contextmanager
    def _write_forms(self) -> Iterator[tuple[Connection, Callable[[Game], int]]]:
        """A write transaction and a ``form_id`` that inserts forms inside it.

        New ids go to a :class:`PendingIds` layer, merged into the cache only once the
        transaction has committed.
        """
        pending = PendingIds(self._form_ids)
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
        found_ids = PendingIds(self._form_ids)
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
        np = sys.modules.get("numpy")  # a numpy integer exists only once numpy is loaded
        if isinstance(form_id, bool) or not (isinstance(form_id, int)
                                             or (np is not None and isinstance(form_id, np.integer))):
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
                for start in range(0, len(batch), IN_BATCH):
                    part = batch[start : start + IN_BATCH]
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
                            todo.update(o for o in key_ids(options) if o not in rows and o not in self._games)
                missing = [i for i in batch if i not in rows]
                if missing:
                    if form_id in missing:
                        raise StoreError(f"the store {self._where} has no form with id {form_id}")
                    raise StoreCorruptError(
                        f"the store {self._where} is inconsistent: forms {missing[:5]} are "
                        "options of stored forms but have no rows"
                    )
        built: dict[int, Game] = {}

        def look(o: int) -> Any:
            return built[o] if o in built else self._games[o]

        for sid in options_first(rows):
            options, birthday = rows[sid]
            if isinstance(options, int):  # a nim-heap atom, keyed by its size
                g = nim(options)
            elif isinstance(options, tuple):  # a partizan form: (left ids, right ids)
                g = pgame([look(o) for o in options[0]], [look(o) for o in options[1]])  # type: ignore[assignment]
            else:
                g = make_game(look(o) for o in options)
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
    @retry_transient
    def form_ids(self, games: Sequence[Game]) -> list[int]:
        """The store ids of ``games`` (as :meth:`form_id`), inserting the missing ones and
        their subpositions in one transaction, level by level of birthday: per level one
        batched INSERT and at most one SELECT (not one round trip per form).

        Examples
        --------
        >>> import cgtalg as cg
        >>> from cgtalg.store import open_store
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
        pending = PendingIds(self._form_ids)
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
        # Plain dicts in the loops: ``ids`` may be a PendingIds, whose lookups cost more.
        committed = ids.committed if isinstance(ids, PendingIds) else {}
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
                    if g._heap is not None:
                        key = form_key(g, [])
                        top = 0
                    else:
                        option_ids = list(map(sget, g._option_ids))
                        if not insert and None in option_ids:  # an option the store lacks (reads only)
                            continue
                        key = form_key(g, option_ids, tget)
                        top = max(option_ids, default=0)
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
                    for start in range(0, len(hash_list), IN_BATCH):
                        query = select(forms.c.key_hash, forms.c.id, forms.c.options).where(
                            forms.c.key_hash.in_(hash_list[start : start + IN_BATCH])
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
                    sid[keyed[key]] = self._checked_form_id(row, key)
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
        for start in range(0, len(hash_list), IN_BATCH):
            part = hash_list[start : start + IN_BATCH]
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

