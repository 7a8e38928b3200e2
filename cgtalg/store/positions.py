"""Positions of rulesets: results for ruleset positions keyed by text (``census:octal`` /
``0.77``), in the ``positions`` and ``position_properties`` tables; write-once like the
properties of forms, and versioned like them (:mod:`cgtalg.store.provenance`: a stale row is not
served and is replaced by the next write).
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from sqlalchemy import select
from sqlalchemy.engine import Connection

from cgtalg.errors import StoreError
from cgtalg.store.codec import check_position, check_text, encode_value, key_hash, shorten, value_hash
from cgtalg.store.engine import IN_BATCH, retry_transient
from cgtalg.store.provenance import current_version, made_by
from cgtalg.store.rows import position_property
from cgtalg.store.schema import NAME_LENGTH, RULESET_LENGTH, position_properties, positions

__all__ = ["PositionsMixin", "check_position"]


class PositionsMixin:
    """Properties of ruleset positions. Part of :class:`cgtalg.store.Store`."""

    def _position_id(self, conn: Connection, ruleset: str, position: str, insert: bool) -> int | None:
        query = select(positions.c.id, positions.c.position).where(
            positions.c.ruleset == ruleset, positions.c.position_hash == key_hash(position)
        )
        row = conn.execute(query).first()
        if row is None:
            if not insert:
                return None
            conn.execute(
                self._insert_ignore(positions),
                {"ruleset": ruleset, "position_hash": key_hash(position), "position": position},
            )
            row = conn.execute(query).one()
        return self._checked_position_id(row, ruleset, position)

    def put_position(self, ruleset: str, position: str, prop: str, value: Any) -> None:
        """Store ``value`` as ``prop`` of ``position`` of ``ruleset``; write-once like :meth:`put`
        (a stale row is replaced)."""
        check_position(ruleset, position)
        check_text(prop, "property name", NAME_LENGTH)
        self._put_position(ruleset, position, prop, encode_value(value, f"property {prop!r}"))

    @retry_transient
    def _put_position(self, ruleset: str, position: str, prop: str, text: str) -> None:
        with self._transaction(write=True) as conn:
            pid = self._position_id(conn, ruleset, position, insert=True)
            self._put_value(
                conn,
                position_properties,
                {"position_id": pid, "name": prop},
                text,
                lambda: position_property(prop, ruleset, position),
            )

    def memo_position(self, ruleset: str, position: str, prop: str, compute: Callable[[], Any]) -> Any:
        """As :meth:`memo`, for a position of a ruleset."""
        stored = self.get_position(ruleset, position, prop)
        if stored is not None:
            self.stats["hits"] += 1
            return stored
        return self._compute_and_put(prop, compute, self._put_position, ruleset, position, prop)

    def position_properties(self, ruleset: str, position: str) -> dict[str, Any]:
        """Every stored property of ``position`` of ``ruleset``."""
        check_position(ruleset, position)
        with self._transaction() as conn:
            pid = self._position_id(conn, ruleset, position, insert=False)
            if pid is None:
                return {}
            return self._properties(conn, position_properties, [pid])[pid]

    def _position_ids(self, conn: Connection, keys: set[tuple[str, str]], insert: bool) -> dict[tuple[str, str], int]:
        """Ids of positions ``(ruleset, position)`` (one SELECT per 500; with ``insert``, the
        missing ones inserted first, in key order so that concurrent writers cannot deadlock)."""
        hashed = sorted((r, key_hash(p), p) for r, p in keys)
        if insert and hashed:
            conn.execute(self._insert_ignore(positions),
                         [{"ruleset": r, "position_hash": h, "position": p} for r, h, p in hashed])
        wanted = {(r, h): p for r, h, p in hashed}
        out: dict[tuple[str, str], int] = {}
        for start in range(0, len(hashed), IN_BATCH):
            part = sorted({h for _r, h, _p in hashed[start : start + IN_BATCH]})
            query = select(positions.c.id, positions.c.ruleset, positions.c.position_hash,
                           positions.c.position).where(positions.c.position_hash.in_(part))
            for row in conn.execute(query):
                text = wanted.get((row.ruleset, row.position_hash))
                if text is None:
                    continue
                out[(row.ruleset, text)] = self._checked_position_id((row.id, row.position), row.ruleset, text)
        return out

    @retry_transient
    def put_positions_many(self, items: Any, replace: bool = False) -> None:
        """Store many position properties at once: ``items`` is an iterable of
        ``(ruleset, position, prop, value)``.

        One transaction for the batch, with multi-row ``INSERT ... ON CONFLICT DO NOTHING``
        for the positions and the values (each in sorted key order, so two writers cannot
        deadlock) and batched SELECTs to read them back. Write-once as :meth:`put_position`:
        a different stored value (or two values for one key in the batch) raises
        :class:`StoreError` naming the key, and nothing of the batch is written.

        Examples
        --------
        >>> from cgtalg.store import open_store
        >>> store = open_store(":memory:")
        >>> store.put_positions_many([("census:octal", "0.77", "period", 12), ("census:octal", "0.137", "period", 34)])
        >>> store.get_positions_many("census:octal", ["0.77", "0.6"])
        {'0.77': {'period': 12}, '0.6': {}}

        With ``replace=True`` the rows are written over whatever is stored (a repair: use it
        only for a stored value its checker refused, as the census does for a record that
        failed its re-check); the in-process cache is emptied.
        """
        rows: dict[tuple[str, str, str], str] = {}
        for item in items:
            if not isinstance(item, tuple) or len(item) != 4:
                raise StoreError(f"put_positions_many: each item must be a (ruleset, position, prop, value) "
                                 f"tuple, got {item!r:.80}")
            ruleset, position, prop, value = item
            check_position(ruleset, position)
            check_text(prop, "property name", NAME_LENGTH)
            text = encode_value(value, f"property {prop!r}")
            earlier = rows.setdefault((ruleset, position, prop), text)
            if earlier != text:
                raise StoreError(
                    f"put_positions_many: two different values for property {prop!r} of position "
                    f"{shorten(position)} of {ruleset!r}: {shorten(earlier)} and {shorten(text)}; nothing was written")
        if not rows:
            return
        made = made_by()
        versions = {n: current_version(n) for _r, _p, n in rows}
        with self._transaction(write=True) as conn:
            ids = self._position_ids(conn, {(r, p) for r, p, _n in rows}, insert=True)
            params = sorted(
                ({"position_id": ids[(r, p)], "name": n, "value": t, "value_hash": value_hash(t),
                  "algorithm": versions[n], "made_by": made}
                 for (r, p, n), t in rows.items()), key=lambda q: (q["position_id"], q["name"]))
            conn.execute(self._upsert(position_properties, replace), params)
            stored = self._stored_texts(conn, position_properties, {(q["position_id"], q["name"]) for q in params})
            where = {pid: key for key, pid in ids.items()}
            self._check_written(stored, params, lambda q: (
                f"property {q['name']!r} of position {shorten(where[q['position_id']][1])} "
                f"of {where[q['position_id']][0]!r}"))
        if replace:
            self.forget_cache()

    def get_positions_many(self, ruleset: str, positions_: Sequence[str]) -> dict[str, dict[str, Any]]:
        """Every stored property of each of ``positions_`` of ``ruleset``, in one read
        transaction with batched SELECTs: ``{position: {prop: value}}`` (``{}`` where none).
        Never writes."""
        keys = set()
        for position in positions_:
            check_position(ruleset, position)
            keys.add((ruleset, position))
        with self._transaction() as conn:
            ids = self._position_ids(conn, keys, insert=False)
            props = self._properties(conn, position_properties, sorted(ids.values()))
        return {p: dict(props[ids[(ruleset, p)]]) if (ruleset, p) in ids else {} for p in positions_}
