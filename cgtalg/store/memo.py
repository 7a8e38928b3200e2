"""Properties of forms and relations between forms: write-once JSON values, one at a time,
in bulk, or memoised (:meth:`PropertiesMixin.memo`), with an in-process cache of the values
read or written (current stored values never change, so a memo hit is a dict lookup).

Each row records the algorithm version that computed it (:mod:`cgtalg.store.provenance`); a
row of an older version is stale: not served (unless the store serves stale rows), and
replaced by the next write of its key.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Sequence

from cgtalg.core.game import Game
from cgtalg.core.notation import format_game
from cgtalg.errors import StoreError
from cgtalg.store.answers import companions
from cgtalg.store.codec import check_game, check_text, encode_value, shorten, value_hash
from cgtalg.store.engine import retry_transient, row_select
from cgtalg.store.forms import PendingIds
from cgtalg.store.provenance import Provenance, current_version, made_by
from cgtalg.store.rows import _MISSING, VALUE_CACHE_SIZE, _thaw, property_upsert
from cgtalg.store.schema import NAME_LENGTH, form_properties, form_relations

__all__ = ["PropertiesMixin", "VALUE_CACHE_SIZE"]


class PropertiesMixin:
    """Properties of forms and relations between forms. Part of :class:`cgtalg.store.Store`."""

    @retry_transient
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
        >>> from cgtalg.store import open_store
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
        pending = PendingIds(self._form_ids)
        made = made_by()
        versions = {prop: current_version(prop) for _gid, prop in rows}
        with self._transaction(write=True) as conn:
            self._resolve_forms(conn, list(games.values()), pending, insert=True)
            params = []
            for (gid, prop), (_g, text) in rows.items():
                params.append({"form_id": pending[gid], "name": prop, "value": text, "value_hash": value_hash(text),
                               "algorithm": versions[prop], "made_by": made})
            params.sort(key=lambda p: (p["form_id"], p["name"]))  # key order: no deadlock between writers
            if self._dialect == "sqlite":
                # the DBAPI cursor directly (the write lock is held); when every row was new or
                # replaced a stale one (rowcount), nothing can conflict and the read-back is skipped
                cursor = conn.connection.driver_connection.cursor()
                try:
                    cursor.executemany(
                        property_upsert("form_properties", "form_id"),
                        [(p["form_id"], p["name"], p["value"], p["value_hash"], p["algorithm"], made) for p in params],
                    )
                    inserted = cursor.rowcount
                finally:
                    cursor.close()
                if inserted == len(params):
                    params = []
            else:
                statement = self._upsert(form_properties)
                if conn.dialect.insert_executemany_returning:
                    # batched multi-row INSERT ... RETURNING (without RETURNING SQLAlchemy sends
                    # the upsert row by row); a conflicting row is not returned and is checked below
                    result = conn.execute(statement.returning(form_properties.c.form_id, form_properties.c.name), params)
                    done = {(r[0], r[1]) for r in result}
                    params = [p for p in params if (p["form_id"], p["name"]) not in done]
                else:
                    conn.execute(statement, params)
            stored = self._stored_texts(conn, form_properties, {(p["form_id"], p["name"]) for p in params}) if params else {}

            def describe(p: dict) -> str:
                g = games[next(gid for gid in games if pending[gid] == p["form_id"])]
                return f"property {p['name']!r} of {format_game(g, max_chars=80)} (form {p['form_id']})"

            newer = self._check_written(stored, params, describe)
        self._form_ids.update(pending)
        for (gid, prop), (_g, text) in rows.items():
            if (pending[gid], prop) not in newer:
                self._remember(gid, prop, versions[prop], text)

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
        version = current_version(prop)
        for i, g in enumerate(games):
            hit = self._values.get((g.id, prop, version), _MISSING)
            if hit is _MISSING:
                todo.append(i)
            else:
                out[i] = _thaw(hit)
        if not todo:
            return out
        with self._transaction() as conn:
            lookup = PendingIds(self._form_ids)
            self._resolve_forms(conn, [games[i] for i in todo], lookup, insert=False)
            ids = {games[i].id: lookup[games[i].id] for i in todo if games[i].id in lookup}
            self._form_ids.update(lookup)  # rows found by a read are committed
            names = companions(prop) or (prop,)
            stored = self._stored_texts(conn, form_properties, {(sid, n) for sid in ids.values() for n in names})
        by_form: dict[int, dict[str, tuple[str, int, str | None]]] = {}
        for (sid, n), row in stored.items():
            by_form.setdefault(sid, {})[n] = row
        for i in todo:
            sid = ids.get(games[i].id)
            rows = None if sid is None else by_form.get(sid)
            if rows is not None and prop in rows:
                value = self._served_form_property(sid, games[i], rows, prop, version)
                if value is not None and rows[prop][1] == version:
                    self._remember(games[i].id, prop, version, rows[prop][0], value)
                out[i] = value
        return out

    # -- properties of forms (``get``: cgtalg.store.rows.StoredRows.get) ------------------
    def provenance(self, g: Game, prop: str) -> Provenance | None:
        """The provenance of the stored ``prop`` of ``g`` (stale or not), or ``None`` when
        nothing is stored.

        Examples
        --------
        >>> import cgtalg as cg
        >>> from cgtalg.store import open_store
        >>> store = open_store(":memory:")
        >>> store.put(cg.nim(3), "grundy", 3)
        >>> p = store.provenance(cg.nim(3), "grundy")
        >>> p.algorithm, p.current, p.made_by == cg.__version__
        (1, True, True)
        """
        check_text(prop, "property name", NAME_LENGTH)
        with self._transaction() as conn:
            sid = self._stored_form_id(conn, g)
            if sid is None:
                return None
            row = conn.execute(row_select(form_properties), {"form_id": sid, "name": prop}).first()
        return None if row is None else Provenance.of(prop, row.algorithm, row.made_by)

    def put(self, g: Game, prop: str, value: Any) -> None:
        """Store ``value`` (JSON data, not ``None``) as property ``prop`` of ``g``.

        Idempotent: storing the same value again does nothing. A stale row (written by an
        older version of the algorithm of ``prop``) is replaced.

        Raises
        ------
        StoreError
            If a different value is stored already (both are named), or ``value`` is not
            JSON data. Tuples come back as lists, numpy scalars as Python numbers.

        Examples
        --------
        >>> import cgtalg as cg
        >>> from cgtalg.store import open_store
        >>> store = open_store(":memory:")
        >>> store.put(cg.parse("{*2}"), "misere_canonical", "*[2#]")
        >>> store.get(cg.parse("*[2#]"), "misere_canonical")
        '*[2#]'
        """
        check_text(prop, "property name", NAME_LENGTH)
        self._put_property(g, prop, encode_value(value, f"property {prop!r}"))

    @retry_transient
    def _put_property(self, g: Game, prop: str, text: str) -> None:
        with self._write_forms() as (conn, form_id):
            sid = form_id(g)
            held = self._put_value(
                conn,
                form_properties,
                {"form_id": sid, "name": prop},
                text,
                lambda: f"property {prop!r} of {format_game(g, max_chars=80)} (form {sid})",
            )
        if held:
            self._remember(g.id, prop, current_version(prop), text)

    def memo(self, g: Game, prop: str, compute: Callable[[], Any]) -> Any:
        """The stored property ``prop`` of ``g``, or ``compute()`` stored and returned.

        Counts hits and misses in :attr:`stats`. The value returned is the stored JSON
        value in both cases (so a tuple comes back as a list the first time too). A stale
        stored value (an older algorithm version) is a miss: recomputed and replaced.

        Examples
        --------
        >>> import cgtalg as cg
        >>> from cgtalg.store import open_store
        >>> store = open_store(":memory:")
        >>> G = cg.nim(2) + cg.nim(3)
        >>> store.memo(G, "grundy", lambda: cg.grundy(G)), store.memo(G, "grundy", lambda: 1 / 0)
        (1, 1)
        >>> store.stats
        {'hits': 1, 'misses': 1, 'stale': 0}
        """
        stored = self.get(g, prop)
        if stored is not None:
            self.stats["hits"] += 1
            return stored
        return self._compute_and_put(prop, compute, self._put_property, g, prop)

    def _compute_and_put(self, prop: str, compute: Callable[[], Any], put: Callable[..., None], *key: Any) -> Any:
        """A memo miss: count it, store ``compute()`` with ``put(*key, text)``, and return the
        value as it reads back (JSON: a tuple comes back as a list)."""
        self.stats["misses"] += 1
        text = encode_value(compute(), f"property {prop!r}")
        put(*key, text)
        return json.loads(text)

    def properties(self, g: Game) -> dict[str, Any]:
        """Every stored property of ``g`` (empty if the store does not hold ``g``)."""
        with self._transaction() as conn:
            sid = self._stored_form_id(conn, g)
            return {} if sid is None else self._properties(conn, form_properties, [sid])[sid]

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
            row = conn.execute(
                row_select(form_relations), {"form_id": a, "other_id": b, "name": relation}
            ).first()
        key = f"forms ({a}, {b}), relation {relation!r}"
        if row is None or not self._fresh("form_relations", lambda: key, relation, row.algorithm, row.made_by):
            return None
        return self._load(row.value, "form_relations", key, dict)

    @retry_transient
    def put_relation(self, g: Game, h: Game, relation: str, value: dict) -> None:
        """Store ``value`` (a JSON object, e.g. ``{"holds": True, "certificate": {...}}``)
        as ``relation`` of the ordered pair ``(g, h)``; write-once like :meth:`put` (a stale
        row is replaced)."""
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
