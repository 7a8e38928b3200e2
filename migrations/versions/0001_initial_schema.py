"""Initial schema: forms, their properties and relations, ruleset positions, sequences.

Revision ID: 0001
Revises:
Create Date: 2025-11-21

The tables are described in cgtalg/store/schema.py (which matches this revision until a
later migration changes it). The DDL is written out here, not imported, so that this
migration keeps creating exactly the revision-0001 schema whatever later code looks like.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

# 64-bit ids on PostgreSQL; INTEGER on SQLite so that the id is the rowid.
_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "forms",
        sa.Column("id", _ID, autoincrement=True, nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("options", sa.Text(), nullable=False),
        sa.Column("birthday", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_forms"),
        sa.UniqueConstraint("key_hash", name="uq_forms_key_hash"),
    )
    op.create_table(
        "form_properties",
        sa.Column("form_id", _ID, nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.Column("value_hash", sa.String(32), nullable=False),
        sa.ForeignKeyConstraint(["form_id"], ["forms.id"], name="fk_form_properties_form_id_forms"),
        sa.PrimaryKeyConstraint("form_id", "name", name="pk_form_properties"),
    )
    op.create_index(
        "ix_form_properties_name_value_hash", "form_properties", ["name", "value_hash"]
    )
    op.create_table(
        "form_relations",
        sa.Column("form_id", _ID, nullable=False),
        sa.Column("other_id", _ID, nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["form_id"], ["forms.id"], name="fk_form_relations_form_id_forms"),
        sa.ForeignKeyConstraint(["other_id"], ["forms.id"], name="fk_form_relations_other_id_forms"),
        sa.PrimaryKeyConstraint("form_id", "other_id", "name", name="pk_form_relations"),
    )
    op.create_index("ix_form_relations_name", "form_relations", ["name"])
    op.create_table(
        "positions",
        sa.Column("id", _ID, autoincrement=True, nullable=False),
        sa.Column("ruleset", sa.String(200), nullable=False),
        sa.Column("position_hash", sa.String(64), nullable=False),
        sa.Column("position", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_positions"),
        sa.UniqueConstraint("ruleset", "position_hash", name="uq_positions_ruleset_position_hash"),
    )
    op.create_table(
        "position_properties",
        sa.Column("position_id", _ID, nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.Column("value_hash", sa.String(32), nullable=False),
        sa.ForeignKeyConstraint(
            ["position_id"], ["positions.id"], name="fk_position_properties_position_id_positions"
        ),
        sa.PrimaryKeyConstraint("position_id", "name", name="pk_position_properties"),
    )
    op.create_index(
        "ix_position_properties_name_value_hash", "position_properties", ["name", "value_hash"]
    )
    op.create_table(
        "sequences",
        sa.Column("key", sa.String(200), nullable=False),
        sa.Column("length", sa.BigInteger(), nullable=False),
        sa.Column("meta", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("key", name="pk_sequences"),
    )
    op.create_table(
        "sequence_chunks",
        sa.Column("sequence_key", sa.String(200), nullable=False),
        sa.Column("start", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("codec", sa.String(16), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.ForeignKeyConstraint(
            ["sequence_key"], ["sequences.key"], name="fk_sequence_chunks_sequence_key_sequences"
        ),
        sa.PrimaryKeyConstraint("sequence_key", "start", name="pk_sequence_chunks"),
    )


def downgrade() -> None:
    # For developers working on migrations only: cgtalg itself never migrates a store down.
    op.drop_table("sequence_chunks")
    op.drop_table("sequences")
    op.drop_index("ix_position_properties_name_value_hash", table_name="position_properties")
    op.drop_table("position_properties")
    op.drop_table("positions")
    op.drop_index("ix_form_relations_name", table_name="form_relations")
    op.drop_table("form_relations")
    op.drop_index("ix_form_properties_name_value_hash", table_name="form_properties")
    op.drop_table("form_properties")
    op.drop_table("forms")
