"""${message}

Revision ID: ${up_revision}
Revises: ${down_revision | comma,n}
Create Date: ${create_date}

Spell the DDL out here (op.create_table, op.add_column, op.batch_alter_table, ...): a
migration must not import cgtalg.store.schema, which describes only the newest revision.
cgtalg/store/schema.py must match the schema at head; tests/test_store_schema.py checks it.
"""

from __future__ import annotations

from alembic import op
import sqlalchemy as sa
${imports if imports else ""}

revision = ${repr(up_revision)}
down_revision = ${repr(down_revision)}
branch_labels = ${repr(branch_labels)}
depends_on = ${repr(depends_on)}


def upgrade() -> None:
    ${upgrades if upgrades else "pass"}


def downgrade() -> None:
    ${downgrades if downgrades else "pass"}
