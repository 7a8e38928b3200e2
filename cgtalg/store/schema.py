"""The tables of the persistent store (SQLAlchemy Core), as of the newest migration.

This module describes the schema the code reads and writes; the Alembic migrations in
``migrations/versions/`` *create* it (each migration spells out its own DDL and never imports
this module, so old migrations stay frozen). ``tests/test_store_schema.py`` checks that a store
migrated to head matches these tables exactly.

Tables
------
``forms``
    One row per distinct short impartial form. A form's *key* is the comma-separated,
    ascending list of the store ids of its options (``""`` for the zero game), so a form's
    id depends only on its structure and is shared by every process using the store.
    ``key_hash`` (SHA-256 of the key) carries the unique index, because a key can be longer
    than a PostgreSQL b-tree entry may be.
``form_properties``
    ``(form_id, name) -> value``: JSON text of a property of a form (``grundy``,
    ``misere_grundy``, ``misere_canonical``, ...). ``value_hash`` indexes look-ups by value.
``form_relations``
    ``(form_id, other_id, name) -> value``: JSON object about an ordered pair of forms
    (e.g. ``misere_equivalent``: ``{"holds": ..., "certificate": ...}``).
``positions`` / ``position_properties``
    Positions of rulesets, keyed by ``(ruleset, position text)``, and their properties.
``sequences`` / ``sequence_chunks``
    Long integer sequences (e.g. ``grundy:0.77``): the stored length and JSON metadata, and
    the values in compressed rows (``start``, ``count``, ``codec``, ``data``): full chunks
    of ``CHUNK_SIZE`` values at multiples of ``CHUNK_SIZE``, then the few smaller rows that
    later appends wrote (merged once they fill a chunk). Readers rely only on the rows
    being contiguous.

``form_properties``, ``form_relations``, ``position_properties`` and ``sequences`` also record
each row's provenance (revision 0003): ``algorithm``, the version of the code that computed it,
and ``made_by``, the cgtalg version that wrote it (see :mod:`cgtalg.store.provenance`).
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Column,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    text,
)

__all__ = [
    "metadata",
    "forms",
    "form_properties",
    "form_relations",
    "positions",
    "position_properties",
    "sequences",
    "sequence_chunks",
    "CHUNK_SIZE",
    "ID_TYPE",
    "NAME_LENGTH",
    "RULESET_LENGTH",
    "SEQUENCE_KEY_LENGTH",
    "VERSION_LENGTH",
    "provenance_columns",
]

# CHUNK_SIZE, NAME_LENGTH, RULESET_LENGTH, SEQUENCE_KEY_LENGTH: in cgtalg.store.codec (free of
# SQLAlchemy, for the light store), re-exported here.
from cgtalg.store.codec import CHUNK_SIZE, NAME_LENGTH, RULESET_LENGTH, SEQUENCE_KEY_LENGTH  # noqa: E402

#: Longest cgtalg version text in ``made_by``.
VERSION_LENGTH = 40

#: Row ids: 64-bit on PostgreSQL; on SQLite ``INTEGER`` so that the key is the rowid.
ID_TYPE = BigInteger().with_variant(Integer(), "sqlite")

# Constraint names follow one convention so that later migrations can refer to them on
# every backend (SQLite batch mode needs named constraints to alter them).
metadata = MetaData(
    naming_convention={
        "ix": "ix_%(table_name)s_%(column_0_N_name)s",
        "uq": "uq_%(table_name)s_%(column_0_N_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)

forms = Table(
    "forms",
    metadata,
    Column("id", ID_TYPE, primary_key=True, autoincrement=True),
    Column("key_hash", String(64), nullable=False),
    Column("options", Text, nullable=False),
    Column("birthday", Integer, nullable=False),
    UniqueConstraint("key_hash"),
)


def provenance_columns() -> list[Column]:
    """The two provenance columns of every table of results (:mod:`cgtalg.store.provenance`):
    ``algorithm``, the version of the algorithm that computed the row (rows older than
    provenance have 1), and ``made_by``, the cgtalg version that wrote it (``NULL``: written
    before provenance was recorded)."""
    return [
        Column("algorithm", Integer, nullable=False, server_default=text("1")),
        Column("made_by", String(VERSION_LENGTH), nullable=True),
    ]


def _property_table(name: str, owner: str) -> Table:
    """The table ``name`` of properties ``(owner id, name) -> JSON value`` of the rows of the
    table ``owner`` (forms or positions), with an index for look-ups by value."""
    return Table(
        name,
        metadata,
        Column(f"{owner[:-1]}_id", ID_TYPE, ForeignKey(f"{owner}.id"), primary_key=True),
        Column("name", String(NAME_LENGTH), primary_key=True),
        Column("value", Text, nullable=False),
        Column("value_hash", String(32), nullable=False),
        *provenance_columns(),
        Index(None, "name", "value_hash"),
    )


form_properties = _property_table("form_properties", "forms")

form_relations = Table(
    "form_relations",
    metadata,
    Column("form_id", ID_TYPE, ForeignKey("forms.id"), primary_key=True),
    Column("other_id", ID_TYPE, ForeignKey("forms.id"), primary_key=True),
    Column("name", String(NAME_LENGTH), primary_key=True),
    Column("value", Text, nullable=False),
    *provenance_columns(),
    Index(None, "name"),
)

positions = Table(
    "positions",
    metadata,
    Column("id", ID_TYPE, primary_key=True, autoincrement=True),
    Column("ruleset", String(RULESET_LENGTH), nullable=False),
    Column("position_hash", String(64), nullable=False),
    Column("position", Text, nullable=False),
    UniqueConstraint("ruleset", "position_hash"),
)

position_properties = _property_table("position_properties", "positions")

sequences = Table(
    "sequences",
    metadata,
    Column("key", String(SEQUENCE_KEY_LENGTH), primary_key=True),
    Column("length", BigInteger, nullable=False),
    Column("meta", Text, nullable=True),
    *provenance_columns(),
)

sequence_chunks = Table(
    "sequence_chunks",
    metadata,
    Column("sequence_key", String(SEQUENCE_KEY_LENGTH), ForeignKey("sequences.key"), primary_key=True),
    Column("start", BigInteger, primary_key=True, autoincrement=False),
    Column("count", Integer, nullable=False),
    Column("codec", String(16), nullable=False),
    Column("data", LargeBinary, nullable=False),
)
