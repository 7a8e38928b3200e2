"""What a store holds, for people: counts (:meth:`ListingsMixin.info`), listings of sequences,
periods and solved positions, and look-ups of forms and positions by game text or by a
property value (``cgtalg store info|query``).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.engine import Connection

from cgtalg.core.game import Game, nim
from cgtalg.core.notation import format_game, parse
from cgtalg.errors import StoreError
from cgtalg.store.codec import check_text, encode_value, value_hash
from cgtalg.store.migrate import check_revision, head_revision, read_state
from cgtalg.store.provenance import META_PROVENANCE, current_version, sequence_kind
from cgtalg.store.query import QueryMixin
from cgtalg.store.schema import (
    NAME_LENGTH,
    RULESET_LENGTH,
    form_properties,
    form_relations,
    forms,
    position_properties,
    positions,
    sequences,
)

__all__ = ["ListingsMixin", "compact_text", "nim_sum_parts", "check_limit", "LISTING_TEXT_LIMIT", "MAX_LIMIT"]

#: Largest ``limit`` of a listing.
MAX_LIMIT = 10**6


def check_limit(limit: Any, where: str = "") -> None:
    """Refuse a listing's ``limit`` that is not an int from 1 to :data:`MAX_LIMIT` (``where``
    starts the message, e.g. ``"find: "``)."""
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
        raise StoreError(f"{where}limit must be a positive int, got {limit!r} (at most {MAX_LIMIT})")


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
    heaps = nim_sum_parts(g, 8) if len(text) > 3 else None
    if heaps is not None and len(heaps) > 1:
        summed = "+".join(f"*{n}" if n != 1 else "*" for n in sorted(heaps))
        # shorter, or as short and a sum too (then in ascending order, whatever the build order)
        if len(summed) < len(text) or (len(summed) == len(text) and "+" in text):
            return summed
    return text


def nim_sum_parts(g: Game, depth: int) -> list[int] | None:
    """Heap sizes ``[a, b, ...]`` with ``g`` structurally ``*a + *b + ...``, else None
    (tried by peeling the largest nim heap the birthday allows; bounded by ``depth``)."""
    n = g.nim_heap_size()
    if n is not None:
        return [n]
    if depth <= 1 or g.birthday > 4096 or len(g.options) > 4096:
        return None
    for a in range(g.birthday - 1, 0, -1):
        # g = *a + R means the options of g include *k + R for k < a: in particular R itself.
        for rest in g.options:
            # *a + R has the options *k + R (k < a) and *a + R' (R' an option of R).
            if rest.birthday != g.birthday - a or len(g.options) > a + len(rest.options):
                continue
            if nim(a) + rest is g:
                parts = nim_sum_parts(rest, depth - 1)
                if parts is not None:
                    return [a] + parts
    return None


class ListingsMixin(QueryMixin):
    """Overview and search of a store, and filtered queries (:meth:`query`,
    :mod:`cgtalg.store.query`). Part of :class:`cgtalg.store.Store`."""

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

    def provenance_summary(self) -> list[dict]:
        """Counts of the stored results by table, name and algorithm version, for ``store
        info``: ``{"table", "name", "algorithm", "current_algorithm", "current", "rows",
        "before_provenance"}`` (``before_provenance``: rows written before cgtalg recorded
        provenance, ``made_by`` NULL). Sequences are counted by kind (``sequence:grundy``), and
        the entries of their metadata by entry name (table ``sequences.meta``).

        Examples
        --------
        >>> import cgtalg as cg
        >>> from cgtalg.store import open_store
        >>> store = open_store(":memory:")
        >>> store.put(cg.nim(2), "grundy", 2)
        >>> [(r["table"], r["name"], r["algorithm"], r["current"], r["rows"]) for r in store.provenance_summary()]
        [('form_properties', 'grundy', 1, True, 1)]
        """
        counts: dict[tuple[str, str, int], list[int]] = {}

        def add(table: str, name: str, algorithm: int, rows: int, old: int) -> None:
            entry = counts.setdefault((table, name, int(algorithm)), [0, 0])
            entry[0] += int(rows)
            entry[1] += int(old)

        with self._transaction() as conn:
            for table in (form_properties, form_relations, position_properties):
                old = func.count() - func.count(table.c.made_by)
                query = select(table.c.name, table.c.algorithm, func.count(), old).group_by(
                    table.c.name, table.c.algorithm)
                for name, algorithm, rows, before in conn.execute(query):
                    add(table.name, name, algorithm, rows, before)
            for key, algorithm, made, meta in conn.execute(
                    select(sequences.c.key, sequences.c.algorithm, sequences.c.made_by, sequences.c.meta)):
                add("sequences", sequence_kind(key), algorithm, 1, made is None)
                try:
                    entries = self._load(meta, "sequences", f"sequence {key!r}, column meta", dict) if meta else {}
                except StoreError:
                    continue
                prov = entries.pop(META_PROVENANCE, None)
                prov = prov if isinstance(prov, dict) else {}
                for name in entries:
                    p = prov.get(name) if isinstance(prov.get(name), dict) else {}
                    add("sequences.meta", name, p.get("algorithm", 1), 1, p.get("made_by") is None)
        out = []
        for (table, name, algorithm), (rows, old) in sorted(counts.items()):
            now = current_version(name)  # a sequence's kind is listed as "sequence:<kind>"
            out.append({"table": table, "name": name, "algorithm": algorithm, "current_algorithm": now,
                        "current": algorithm == now, "rows": rows, "before_provenance": old})
        return out

    def list_sequences(self, periods: bool = False, limit: int = 50) -> list[dict]:
        """Stored sequences by key: ``{"kind": "sequence", "key", "length", "meta"}``;
        with ``periods=True`` only those whose metadata holds a periodicity result, as
        ``{"kind": "period", "key", "length", "period", "preperiod", "certified", ...}``.

        Examples
        --------
        >>> from cgtalg.store import open_store
        >>> store = open_store(":memory:")
        >>> store.extend_sequence("grundy:0.07", 0, [0, 0, 1, 1])
        >>> store.list_sequences()
        [{'kind': 'sequence', 'key': 'grundy:0.07', 'length': 4, 'meta': None}]
        """
        check_limit(limit)
        query = select(sequences.c.key, sequences.c.length, sequences.c.meta).order_by(sequences.c.key)
        if periods:
            query = query.where(sequences.c.meta.like('%"periodicity"%'))
        out = []
        with self._transaction() as conn:
            for row in conn.execute(query.limit(limit)):
                meta = None if row.meta is None else self._current_meta(
                    row.key, self._load(row.meta, "sequences", f"sequence {row.key!r}, column meta", dict))
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
        check_limit(limit)
        if ruleset is not None:
            check_text(ruleset, "ruleset key", RULESET_LENGTH)
        query = select(positions.c.id, positions.c.ruleset, positions.c.position).order_by(positions.c.id)
        if ruleset is not None:
            query = query.where(positions.c.ruleset == ruleset)
        with self._transaction() as conn:
            rows = list(conn.execute(query.limit(limit)))
            props = self._properties(conn, position_properties, [row.id for row in rows])
        return [
            {"kind": "position", "ruleset": row.ruleset, "position": row.position, "properties": props[row.id]}
            for row in rows
        ]

    def list_relations(self, limit: int = 50) -> list[dict]:
        """Stored relations between forms, in key order: ``{"kind": "relation", "form_id",
        "other_id", "name", "value"}`` (``value`` the stored JSON text, read as it is: a caller
        that trusts it re-checks it, as ``cgtalg check`` does with the certificate inside)."""
        check_limit(limit)
        fr = form_relations.c
        query = (select(fr.form_id, fr.other_id, fr.name, fr.value)
                 .order_by(fr.form_id, fr.other_id, fr.name).limit(limit))
        with self._transaction() as conn:
            return [{"kind": "relation", "form_id": int(a), "other_id": int(b), "name": name, "value": value}
                    for a, b, name, value in conn.execute(query)]

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
        check_limit(limit, "find: ")
        wanted = None if value is None else encode_value(value, "the searched value")
        if text is not None:
            g = parse(text)
            with self._transaction() as conn:
                sid = self._stored_form_id(conn, g)
                props = {} if sid is None else self._properties(conn, form_properties, [sid])[sid]
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
            if not self.serve_stale:  # a stale value is not an answer the store gives
                version = current_version(prop)
                form_query = form_query.where(form_properties.c.algorithm == version)
                position_query = position_query.where(position_properties.c.algorithm == version)
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
            form_props = self._properties(conn, form_properties, form_ids)
            position_props = self._properties(conn, position_properties, [row.id for row in found_positions])
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

