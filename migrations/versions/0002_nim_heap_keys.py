"""Key nim-heaps by their size: the forms row of ``*n`` (n >= 1) gets the key ``"*n"``.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22

From this revision a nim-heap ``*n`` is an atom of the form type (its options ``*0..*(n-1)``
are implied, for any ``n``), so the store keys it by its size instead of the ascending list of
its options' ids (which for ``*10**18`` could not be written). Rows keep their ids, so every
stored property and relation stays attached; only the ``key_hash`` and ``options`` of the
nim-heap rows change. The nim-heaps of a revision-0001 store are found from ``*0`` (the form
with no options) upwards: ``*n`` is the form whose key is the ids of ``*0..*(n-1)``, and since
forms are stored with their subpositions the walk stops at the first heap size not stored.

Downgrade writes the option-list keys back.
"""

from __future__ import annotations

import hashlib

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

_forms = sa.table(
    "forms",
    sa.column("id", sa.Integer),
    sa.column("key_hash", sa.String),
    sa.column("options", sa.Text),
)


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _row_by_key(conn, key: str):
    return conn.execute(sa.select(_forms.c.id).where(_forms.c.key_hash == _sha(key))).first()


def upgrade() -> None:
    if op.get_context().as_sql:  # offline (rendered SQL): a new database has no rows to rekey
        return
    conn = op.get_bind()
    zero = _row_by_key(conn, "")
    if zero is None:
        return
    ids = [zero.id]  # ids[k] = the id of *k
    while True:
        key = ",".join(map(str, sorted(ids)))
        row = _row_by_key(conn, key)
        if row is None:
            break
        n = len(ids)
        conn.execute(
            sa.update(_forms).where(_forms.c.id == row.id).values(key_hash=_sha(f"*{n}"), options=f"*{n}")
        )
        ids.append(row.id)


def downgrade() -> None:
    if op.get_context().as_sql:
        return
    conn = op.get_bind()
    zero = _row_by_key(conn, "")
    if zero is None:
        return
    ids = [zero.id]
    while True:
        n = len(ids)
        row = _row_by_key(conn, f"*{n}")
        if row is None:
            break
        key = ",".join(map(str, sorted(ids)))
        conn.execute(sa.update(_forms).where(_forms.c.id == row.id).values(key_hash=_sha(key), options=key))
        ids.append(row.id)
