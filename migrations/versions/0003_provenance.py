"""Provenance of stored results: ``algorithm`` and ``made_by`` on every table of results.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-25

``form_properties``, ``form_relations``, ``position_properties`` and ``sequences`` gain
``algorithm`` (the version of the algorithm that computed the row; not null, default 1) and
``made_by`` (the cgtalg version that wrote it; nullable). Existing rows get ``algorithm = 1``
(every algorithm's first version, which is what wrote them) and ``made_by = NULL`` (written
before provenance was recorded); see ``cgtalg/store/provenance.py``.

Both SQLite and PostgreSQL (11 and later) add a column with a constant default without
rewriting the table, so the upgrade takes the same time on any store. Downgrade drops the
columns (SQLite batch mode).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

_TABLES = ("form_properties", "form_relations", "position_properties", "sequences")


def upgrade() -> None:
    for table in _TABLES:
        op.add_column(table, sa.Column("algorithm", sa.Integer(), nullable=False, server_default=sa.text("1")))
        op.add_column(table, sa.Column("made_by", sa.String(40), nullable=True))


def downgrade() -> None:
    # For developers working on migrations only: cgtalg itself never migrates a store down.
    for table in _TABLES:
        with op.batch_alter_table(table) as batch:
            batch.drop_column("made_by")
            batch.drop_column("algorithm")
