"""Filtered queries over a store, as a table: which stored positions and forms satisfy a set of
filters (ruleset, position size, property value or range, outcome in normal or misère play,
genus, birthday), answered in SQL on SQLite and PostgreSQL from what is stored, never by
recomputing.

    >>> import cgtalg as cg
    >>> from cgtalg.store import open_store
    >>> store = open_store(":memory:")
    >>> store.put_positions_many([("misere:0.77", "1", "genus", {"g": 1, "gammas": [0, 3, 1]}),
    ...                           ("misere:0.77", "2", "genus", {"g": 2, "gammas": [2, 0]})])
    >>> rows = store.query(ruleset="kayles", outcome="P", misere=True, as_frame=False)
    >>> [(r["position"], r["genus"], r["misere"]) for r in rows]
    [('1', '1^031', 'P')]

The filters (keyword arguments of :meth:`Store.query <cgtalg.store.query.QueryMixin.query>`,
options of ``cgtalg store query``):

``kind``
    ``"position"`` or ``"form"`` (or any kind registered with :func:`register_kind`); default:
    every kind the other filters apply to.
``ruleset``
    A ruleset key as stored (``"misere:0.77"``) or a ruleset name (``"kayles"``, ``"0.77"``):
    a name matches its key and its misère results' key ``misere:<name>``.
``size``, ``heaps``
    The total number of tokens of a heap position, and its number of (nonempty) heaps: an int
    or a range ``(lo, hi)`` / ``"3..7"`` / ``"..30"``. Only positions whose text is a list of
    heap sizes (``"9 5"``, ``"3+4"``, ``"0"``) have a size.
``prop``, ``value``, ``min``, ``max``
    Entries with the property ``prop``; its value equal to ``value`` (JSON data; ``"3..7"`` is
    a range), or a number from ``min`` to ``max``.
``outcome``, ``misere``
    ``"P"``, ``"N"`` (or ``"L"``, ``"R"`` where a solution names them) in normal play, or in
    misère play with ``misere=True``. Read from any stored property that tells it
    (:data:`OUTCOME_SOURCES`): a stored outcome or solution, a Grundy value (0 exactly at P),
    or a genus ``g^γ0…`` (``g`` in normal play, ``γ0`` in misère play).
``genus``
    A genus symbol (``"1^031"``, ``"0^0"``, ``"6^(8,10)"``; compared as genera, any
    convention) or a genus kind, ``tame``, ``restive``, ``restless`` or ``wild``
    (:func:`cgtalg.misere.genus.genus_class`, from ``g`` and ``γ0``; read from genera stored as
    records, as positions store them).
``born_by``
    Forms of birthday at most this day.

References
----------
Winning Ways, ch. 13 (genus, tame and wild games); T. E. Plambeck, *Taming the wild in
impartial combinatorial games*, INTEGERS 5 (2005) (misère P-positions of Kayles).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Callable

from sqlalchemy import Numeric, Text, and_, case, cast, exists, func, literal, literal_column, or_, select
from sqlalchemy.sql.elements import ColumnElement

from cgtalg.errors import ArgumentError, GenusNotationError, StoreError
from cgtalg.store.answers import OUTCOME_SOURCES, genus_symbol, outcome_of
from cgtalg.store.codec import check_text, encode_value, value_hash
from cgtalg.store.provenance import current_version
from cgtalg.store.schema import NAME_LENGTH, form_properties, forms, position_properties, positions

__all__ = [
    "QueryMixin",
    "EntityKind",
    "register_kind",
    "KINDS",
    "FILTERS",
    "GENUS_KINDS",
    "OUTCOME_SOURCES",
    "parse_range",
    "outcome_of",
    "genus_symbol",
    "query_store",
]

#: The filters :meth:`QueryMixin.query` knows.
FILTERS = ("kind", "ruleset", "size", "heaps", "prop", "value", "min", "max", "outcome", "misere",
           "genus", "born_by")
#: Genus kinds (Winning Ways ch. 13, p. 405).
GENUS_KINDS = ("tame", "restive", "restless", "wild")
#: Outcome letters a filter may ask for.
OUTCOMES = ("P", "N", "L", "R")

_RANGE = re.compile(r"^\s*(-?\d+)?\s*\.\.\s*(-?\d+)?\s*$")


def parse_range(spec: Any, what: str) -> tuple[int | None, int | None]:
    """``(lo, hi)`` (either may be ``None``: unbounded) from an int, a pair, or text ``"7"``,
    ``"3..7"``, ``"..30"``, ``"5.."``.

    Raises
    ------
    ArgumentError
        For anything else, or ``lo > hi``; ``what`` names the filter.

    Examples
    --------
    >>> parse_range("..30", "size"), parse_range(4, "size"), parse_range("3..7", "value")
    ((None, 30), (4, 4), (3, 7))
    """
    if isinstance(spec, bool):
        raise ArgumentError(f"{what}: expected an int or a range such as 3..7, got {spec!r}")
    if isinstance(spec, int):
        return spec, spec
    if isinstance(spec, (tuple, list)) and len(spec) == 2 and all(
            x is None or (isinstance(x, int) and not isinstance(x, bool)) for x in spec):
        lo, hi = spec
    elif isinstance(spec, str):
        text = spec.strip()
        if re.fullmatch(r"-?\d+", text):
            return int(text), int(text)
        m = _RANGE.match(text)
        if not m or (m.group(1) is None and m.group(2) is None):
            raise ArgumentError(f"{what}: expected an int or a range such as 3..7, ..30 or 5.., got {spec!r}")
        lo, hi = (None if x is None else int(x) for x in m.groups())
    else:
        raise ArgumentError(f"{what}: expected an int or a range such as 3..7, got {spec!r}")
    if lo is not None and hi is not None and lo > hi:
        raise ArgumentError(f"{what}: empty range {lo}..{hi} (the lower end is above the upper)")
    return lo, hi


# -- JSON in SQL, for SQLite (JSON1) and PostgreSQL (jsonb) --------------------------------------
class _Json:
    """Expressions reading JSON text columns, per dialect. Every reader yields NULL for a value
    of another JSON type (never a cast error), so conditions can be combined in any order."""

    def __init__(self, dialect: str) -> None:
        self.pg = dialect == "postgresql"

    @staticmethod
    def _path(path: tuple) -> str:
        return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)

    def _pg(self, col: Any, path: tuple) -> tuple[Any, Any]:
        from sqlalchemy.dialects.postgresql import JSONB

        x = cast(col, JSONB)
        if not path:
            return x, x.op("#>>")(literal_column("'{}'"))
        keys = [str(p) for p in path]
        return func.jsonb_extract_path(x, *keys), func.jsonb_extract_path_text(x, *keys)

    def number(self, col: Any, *path: Any) -> ColumnElement:
        if self.pg:
            node, text = self._pg(col, path)
            return case((func.jsonb_typeof(node) == "number", cast(text, Numeric)))
        p = self._path(path)
        return case((func.json_type(col, p).in_(("integer", "real")), func.json_extract(col, p)))

    def string(self, col: Any, *path: Any) -> ColumnElement:
        if self.pg:
            node, text = self._pg(col, path)
            return case((func.jsonb_typeof(node) == "string", text))
        p = self._path(path)
        return case((func.json_type(col, p) == "text", func.json_extract(col, p)))

    def is_false(self, col: Any, *path: Any) -> ColumnElement:
        if self.pg:
            node, _text = self._pg(col, path)
            return node == cast(literal("false"), self._jsonb())
        return func.json_type(col, self._path(path)) == "false"

    def array(self, col: Any, path: tuple, items: list[int]) -> ColumnElement:
        text = json.dumps(items, separators=(",", ":"))
        if self.pg:
            node, _text = self._pg(col, path)
            return node == cast(literal(text), self._jsonb())
        p = self._path(path)
        return and_(func.json_type(col, p) == "array", func.json_extract(col, p) == text)

    @staticmethod
    def _jsonb() -> Any:
        from sqlalchemy.dialects.postgresql import JSONB

        return JSONB

    def heap_numbers(self, col: Any, count: bool) -> ColumnElement:
        """The sum of a heap position's text (or, with ``count``, its number of nonzero heaps);
        NULL when the text is not a list of heap sizes separated by ``' '``, ``'+'`` or ``','``."""
        name = f"{col.table.name}.{col.name}"
        t = f"replace(replace({name}, '+', ' '), ',', ' ')"
        if self.pg:
            agg = "count(*) FILTER (WHERE x::numeric > 0)" if count else "sum(x::numeric)"
            return literal_column(
                f"(CASE WHEN {t} ~ '^(0|[1-9][0-9]*)( (0|[1-9][0-9]*))*$' THEN "
                f"(SELECT {agg} FROM unnest(string_to_array({t}, ' ')) AS x) END)")
        agg = "count(*)" if count else "sum(value)"
        where = " WHERE value > 0" if count else ""
        return literal_column(
            f"(CASE WHEN {t} <> '' AND {t} NOT GLOB '*[^0-9 ]*' AND instr({t}, '  ') = 0 "
            f"AND {t} NOT LIKE ' %' AND {t} NOT LIKE '% ' AND (' ' || {t}) NOT GLOB '* 0[0-9]*' THEN "
            f"(SELECT {agg} FROM json_each('[' || replace({t}, ' ', ',') || ']'){where}) END)")


def _outcome_expr(j: _Json, how: str, col: Any) -> ColumnElement:
    """The outcome letter an stored value tells (NULL if it tells none)."""
    if how == "letter":
        return j.string(col)
    if how == "grundy":
        n = j.number(col)
        return case((n == 0, "P"), (n > 0, "N"))
    if how == "solution":
        return j.string(col, "outcome")
    if how == "genus_g":
        g = j.number(col, "g")
        return case((g == 0, "P"), (g > 0, "N"), (or_(col == '"0"', col.like('"0^%')), "P"), (col.like('"%'), "N"))
    if how == "genus_gamma0":
        g0 = j.number(col, "gammas", 0)
        # a genus stored as text: γ0 = 0 reads "g^0…", "g^(0,…", "g^{0…"; a plain "1" is *1's genus, γ0 = 0
        text_p = or_(col == '"1"', col.like('"%^0%'), col.like('"%^(0,%'), col.like('"%^{0%'))
        return case((g0 == 0, "P"), (g0 > 0, "N"), (text_p, "P"), (col.like('"%'), "N"))
    raise StoreError(f"unknown outcome source {how!r}")  # pragma: no cover - OUTCOME_SOURCES is fixed


# -- kinds of stored entries -------------------------------------------------------------------
@dataclass(frozen=True)
class EntityKind:
    """A kind of stored entry that queries can return: its table, its property table (owner
    column ``owner``), and which of the kind-specific filters (``ruleset``, ``size``,
    ``heaps``, ``born_by``) it has. ``build(j, filters)`` gives the SELECT of ``(id, ...)``
    columns restricted by those filters, and ``record(store, row)`` the base columns of a row.
    """

    name: str
    table: Any
    properties: Any
    owner: str
    filters: frozenset
    build: Callable[[_Json, dict], Any]
    record: Callable[[Any, Any], dict]
    order: Callable[[_Json], list] = field(default=lambda j: [])


def _ruleset_keys(ruleset: str) -> list[str]:
    """The stored ruleset keys that ``ruleset`` names: itself, ``misere:<it>``, and the same
    for the registered ruleset of that name (``kayles`` is stored as ``0.77``)."""
    names = [ruleset]
    try:
        from cgtalg.rulesets.registry import get_ruleset

        name = getattr(get_ruleset(ruleset), "name", None)
        if isinstance(name, str) and name not in names:
            names.append(name)
    except Exception:  # noqa: BLE001 - a key that names no registered ruleset is matched as written
        pass
    keys = []
    for n in names:
        keys += [n, f"misere:{n}"] if not n.startswith("misere:") else [n]
    return keys


def _positions_build(j: _Json, f: dict) -> Any:
    size = j.heap_numbers(positions.c.position, count=False)
    heaps = j.heap_numbers(positions.c.position, count=True)
    q = select(positions.c.id, positions.c.ruleset, positions.c.position, size.label("size"), heaps.label("heaps"))
    if f.get("ruleset") is not None:
        q = q.where(positions.c.ruleset.in_(_ruleset_keys(f["ruleset"])))
    for name, expr in (("size", size), ("heaps", heaps)):
        lo, hi = f.get(name) or (None, None)
        if lo is not None and hi is not None:  # BETWEEN evaluates the expression once
            q = q.where(expr == lo if lo == hi else expr.between(lo, hi))
        elif lo is not None:
            q = q.where(expr >= lo)
        elif hi is not None:
            q = q.where(expr <= hi)
    return q


def _size_order(j: _Json) -> list:
    # the output column by its name (computed once per row), positions without a size last
    return [literal_column("size").nulls_last()]


def _positions_record(store: Any, row: Any) -> dict:
    return {"kind": "position", "id": int(row.id), "ruleset": row.ruleset, "position": row.position,
            "size": None if row.size is None else int(row.size),
            "heaps": None if row.heaps is None else int(row.heaps), "birthday": None}


def _forms_build(j: _Json, f: dict) -> Any:
    q = select(forms.c.id, forms.c.birthday)
    if f.get("born_by") is not None:
        q = q.where(forms.c.birthday <= f["born_by"])
    return q


def _forms_record(store: Any, row: Any) -> dict:
    from cgtalg.store.listings import compact_text

    return {"kind": "form", "id": int(row.id), "ruleset": None, "position": compact_text(store.game(int(row.id))),
            "size": None, "heaps": None, "birthday": int(row.birthday)}


#: The kinds of entries queries return, by name (:func:`register_kind` adds one).
KINDS: dict[str, EntityKind] = {
    "position": EntityKind("position", positions, position_properties, "position_id",
                           frozenset({"ruleset", "size", "heaps"}), _positions_build, _positions_record,
                           lambda j: [positions.c.ruleset, *_size_order(j), positions.c.position]),
    "form": EntityKind("form", forms, form_properties, "form_id", frozenset({"born_by"}), _forms_build,
                       _forms_record, lambda j: [forms.c.birthday, forms.c.id]),
}


def register_kind(kind: EntityKind) -> None:
    """Make entries of a new kind (say, loopy games with their own tables) queryable: the
    generic filters (property, value, outcome, genus) apply to its property table."""
    if not isinstance(kind, EntityKind):
        raise ArgumentError(f"register_kind needs an EntityKind, got {type(kind).__name__}")
    KINDS[kind.name] = kind


# -- the query -----------------------------------------------------------------------------------
def _check_filters(filters: dict) -> dict:
    """Validate and normalise the filters (named errors for unknown names and bad values)."""
    unknown = sorted(set(filters) - set(FILTERS))
    if unknown:
        raise ArgumentError(f"unknown query filter {unknown[0]!r}; the filters are {', '.join(FILTERS)}")
    f = {k: v for k, v in filters.items() if v is not None and v is not False}
    kind = f.get("kind")
    if kind is not None and kind not in KINDS:
        raise ArgumentError(f"unknown kind {kind!r}; the kinds are {', '.join(KINDS)}")
    for name in ("size", "heaps"):
        if name in f:
            f[name] = parse_range(f[name], name)
    if "ruleset" in f:
        check_text(f["ruleset"], "ruleset key", 200)
    if "born_by" in f:
        b = f["born_by"]
        if isinstance(b, bool) or not isinstance(b, int) or b < 0:
            raise ArgumentError(f"born_by: expected a day (an int >= 0), got {b!r}")
    if any(k in f for k in ("value", "min", "max")) and "prop" not in f:
        raise ArgumentError("a value or a range (value=, min=, max=) needs a property (prop=NAME)")
    if "prop" in f:
        check_text(f["prop"], "property name", NAME_LENGTH)
    if "value" in f and ("min" in f or "max" in f):
        raise ArgumentError("give value= or min=/max=, not both")
    if isinstance(f.get("value"), str) and ".." in f["value"] and _RANGE.match(f["value"]):
        f["min"], f["max"] = parse_range(f.pop("value"), "value")
    for name in ("min", "max"):
        v = f.get(name)
        if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float))):
            raise ArgumentError(f"{name}: expected a number, got {v!r}")
    if "min" in f and "max" in f and f["min"] > f["max"]:
        raise ArgumentError(f"empty value range {f['min']}..{f['max']} (the lower end is above the upper)")
    if "outcome" in f:
        o = f["outcome"]
        if not isinstance(o, str) or o.upper() not in OUTCOMES:
            raise ArgumentError(f"unknown outcome {o!r}; the outcomes are {', '.join(OUTCOMES)}")
        f["outcome"] = o.upper()
    elif "misere" in f:
        raise ArgumentError("misere=True chooses the play of an outcome filter: give outcome='P' or 'N' too")
    if "genus" in f:
        f["genus"] = _genus_filter(f["genus"])
    return f


def _genus_filter(spec: Any) -> tuple[str, Any]:
    from cgtalg.misere.genus import Genus

    if isinstance(spec, Genus):
        return "symbol", spec
    if not isinstance(spec, str):
        raise ArgumentError(f"genus: expected a genus symbol or kind, got {spec!r}")
    if spec.strip().lower() in GENUS_KINDS:
        return "kind", spec.strip().lower()
    try:
        return "symbol", Genus.parse(spec)
    except GenusNotationError:
        raise ArgumentError(f"genus: {spec!r} is neither a genus symbol (such as 1^031, 0^0, 6^(8,10)) "
                            f"nor a genus kind ({', '.join(GENUS_KINDS)})") from None


class QueryMixin:
    """Filtered queries as tables. Part of :class:`cgtalg.store.Store` (through its listings)."""

    def _fresh_names(self, props: Any, names: list[str]) -> ColumnElement:
        """Rows of one of ``names``, current rows only unless the store serves stale ones."""
        if self.serve_stale:
            return props.c.name.in_(names)
        return or_(*(and_(props.c.name == n, props.c.algorithm == current_version(n)) for n in names))

    def _conditions(self, kind: EntityKind, j: _Json, f: dict, id_col: Any) -> list:
        props = kind.properties
        owner = props.c[kind.owner]
        col = props.c.value
        out = []

        def has(names: list[str], *conds: Any) -> Any:
            return exists().where(owner == id_col, self._fresh_names(props, names), *conds)

        if "prop" in f:
            conds = []
            if "value" in f:
                text = encode_value(f["value"], "the searched value")
                conds += [props.c.value_hash == value_hash(text), col == text]
            n = j.number(col)
            if "min" in f:
                conds.append(n >= f["min"])
            if "max" in f:
                conds.append(n <= f["max"])
            if "value" in f:  # driven by the (name, value_hash) index: the matching rows first
                out.append(id_col.in_(select(owner).where(self._fresh_names(props, [f["prop"]]), *conds)))
            else:
                out.append(has([f["prop"]], *conds))
        if "outcome" in f:
            sources = OUTCOME_SOURCES["misere" if f.get("misere") else "normal"]
            letter = case(*((props.c.name == name, _outcome_expr(j, how, col)) for name, how in sources.items()))
            out.append(has(list(sources), letter == f["outcome"]))
        if "genus" in f:
            how, x = f["genus"]
            g, g0 = j.number(col, "g"), j.number(col, "gammas", 0)
            if how == "symbol":
                texts = sorted({encode_value(x.to_str(c), "") for c in ("classical", "short")})
                cond = or_(and_(g == x.g, j.array(col, ("gammas",), list(x.gammas))), col.in_(texts))
            else:
                cls = case((or_(g == g0, and_(g < 2, g0 < 2)), "tame"), (g < 2, "restive"), (g0 < 2, "restless"),
                           else_="wild")
                cond = and_(g.is_not(None), g0.is_not(None), cls == x)
            out.append(has(["genus"], cond))
        return out

    def query(self, *, as_frame: bool | None = None, limit: int | None = None, columns: list[str] | None = None,
              **filters: Any) -> Any:
        """Stored positions and forms that pass every filter, as a table (one row per entry).

        Parameters
        ----------
        **filters
            ``kind``, ``ruleset``, ``size``, ``heaps``, ``prop``, ``value``, ``min``, ``max``,
            ``outcome``, ``misere``, ``genus``, ``born_by`` (module :mod:`cgtalg.store.query`).
        as_frame : bool, optional
            ``True``: a pandas DataFrame; ``False``: a list of dicts; ``None`` (default): a
            DataFrame when pandas can be imported, else the list.
        limit : int, optional
            At most this many rows (1 .. 10^6; default: all, up to 10^6), in order: positions by
            ruleset, size and text, then forms by birthday and id.
        columns : list of str, optional
            Property columns to include (default: every property the rows have).

        Returns
        -------
        pandas.DataFrame or list of dict
            Columns ``kind``, ``id``, ``ruleset``, ``position`` (the position's text, or a
            form's compact text), ``size``, ``heaps``, ``birthday``, ``normal`` and ``misere``
            (outcomes told by the stored properties, else None), then one column per property
            (a genus as its classical symbol).

        Raises
        ------
        ArgumentError
            For an unknown filter, kind, outcome or genus, a malformed range, or a filter that
            needs another (``value`` without ``prop``; ``misere`` without ``outcome``).
        StoreError
            For a ``limit`` out of range, or filters no kind has (``size`` with ``born_by``).

        Examples
        --------
        >>> from cgtalg.store import open_store
        >>> s = open_store(":memory:")
        >>> s.put_positions_many([("misere:0.77", "5 4", "misere_outcome", "N")])
        >>> s.query(size="..9", as_frame=False)[0]["misere"]
        'N'
        """
        from cgtalg.store.listings import MAX_LIMIT, check_limit

        limit = MAX_LIMIT if limit is None else limit
        check_limit(limit, "query: ")
        f = _check_filters(filters)
        specific = {k for k in f if k in ("ruleset", "size", "heaps", "born_by")}
        kinds = [KINDS[f["kind"]]] if "kind" in f else list(KINDS.values())
        for k in kinds:
            if "kind" in f and not specific <= k.filters:
                raise StoreError(f"query: the filter {sorted(specific - k.filters)[0]} does not apply to kind "
                                 f"{k.name!r} (its filters: {', '.join(sorted(k.filters)) or 'none'})")
        kinds = [k for k in kinds if specific <= k.filters]
        if not kinds:
            raise StoreError(f"query: no kind of entry has all of the filters {', '.join(sorted(specific))}")
        j = _Json(self._dialect)
        found: list[tuple[EntityKind, list, dict]] = []
        count = 0
        with self._transaction() as conn:
            for k in kinds:
                if count >= limit:
                    break
                q = k.build(j, f)
                id_col = k.table.c.id
                for cond in self._conditions(k, j, f, id_col):
                    q = q.where(cond)
                q = q.order_by(*k.order(j), id_col).limit(limit - count)
                rows = list(conn.execute(q))
                found.append((k, rows, self._properties(conn, k.properties, [int(r.id) for r in rows])))
                count += len(rows)
        records: list[dict] = []
        for k, rows, props in found:  # outside the transaction: a record may read the store (form texts)
            merged: dict[tuple, dict] = {}
            for r in rows:
                rec = k.record(self, r)
                p = props[int(r.id)]
                same = _heap_key(rec)
                if same is not None and same in merged:  # one position stored under two texts
                    for name, v in p.items():
                        merged[same]["properties"].setdefault(name, v)
                    continue
                rec["properties"] = p
                if same is not None:
                    merged[same] = rec
                records.append(rec)
        for rec in records:
            rec["normal"], rec["misere"] = outcome_of(rec["properties"]), outcome_of(rec["properties"], misere=True)
        return _table(records, as_frame, columns)


def _heap_key(rec: dict) -> tuple | None:
    """``(ruleset, heaps in ascending order)`` of a heap position's record, else ``None``: the
    library writes some results of a position under its heaps in descending order (``9 5``) and
    others in ascending order (``5 9``); a query shows them as one row, under the ascending text."""
    if rec.get("kind") != "position" or rec.get("size") is None:
        return None
    heaps = sorted(int(x) for x in rec["position"].replace("+", " ").replace(",", " ").split() if int(x) > 0)
    rec["position"] = " ".join(map(str, heaps)) or "0"
    return rec["ruleset"], tuple(heaps)


def query_store(store: Any = None, **kwargs: Any) -> Any:
    """:meth:`QueryMixin.query` on ``store``: an open store, a store URL or path, or ``None``
    (the default store, :func:`cgtalg.store.get_default_store`).

    Examples
    --------
    >>> from cgtalg.store import open_store, query_store
    >>> s = open_store(":memory:")
    >>> s.put_positions_many([("misere:0.77", "4", "genus", {"g": 1, "gammas": [0, 3, 1]})])
    >>> query_store(s, outcome="P", misere=True, as_frame=False)[0]["position"]
    '4'
    """
    if not hasattr(store, "query"):
        from cgtalg.store.store import get_default_store

        store = get_default_store(store)
    return store.query(**kwargs)


def _table(records: list[dict], as_frame: bool | None, columns: list[str] | None) -> Any:
    names: list[str] = []
    for r in records:
        for n in r["properties"]:
            if n not in names and (columns is None or n in columns):
                names.append(n)
    if columns is not None:
        names = [c for c in columns if c in names] + [c for c in columns if c not in names]
    rows = []
    for r in records:
        p = r.pop("properties")
        r.update({n: genus_symbol(p.get(n)) if n == "genus" else p.get(n) for n in names})
        rows.append(r)
    if as_frame is False:
        return rows
    try:
        import pandas as pd
    except ImportError:
        if as_frame:
            raise StoreError("query(as_frame=True) needs pandas (pip install pandas); "
                             "as_frame=False gives a list of dicts") from None
        return rows
    base = ["kind", "id", "ruleset", "position", "size", "heaps", "birthday", "normal", "misere"]
    frame = pd.DataFrame.from_records(rows, columns=base + names)
    for c in ("size", "heaps", "birthday"):
        frame[c] = frame[c].astype("Int64")
    return frame
