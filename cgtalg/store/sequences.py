"""Long integer sequences (Grundy sequences of octal games, ...) in the store: int64 values in
compressed chunks (:func:`cgtalg.store.codec.encode_chunk`) of ``CHUNK_SIZE`` values, written
in order and resumable, with JSON metadata per sequence (a certified period, ...).

Provenance (:mod:`cgtalg.store.provenance`): a sequence's row records the version of its kind's
algorithm (``grundy:0.77`` is of kind ``grundy``, versioned as ``sequence:grundy``). A stale
sequence reads as absent (length 0, no values, no metadata), and the next write starts it
afresh: its chunks and metadata are deleted in the same transaction. Each metadata entry
(``periodicity``, ``misere_quotient``, ...) is versioned by its own name, recorded in the
reserved entry :data:`~cgtalg.store.provenance.META_PROVENANCE`; a stale entry reads as absent
and the next write of it replaces it. A store opened with ``serve_stale=True`` serves stale
sequences and entries (recording them in ``stale_served``) and writes nothing over them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Connection

from cgtalg.store.engine import retry_transient
from cgtalg.store.schema import sequence_chunks, sequences
from cgtalg.store.sequence_writes import MAX_PENDING_ROWS, SequenceWrites

if TYPE_CHECKING:  # numpy is imported by the methods that read or write values
    import numpy as np

__all__ = ["SequencesMixin", "MAX_PENDING_ROWS"]


class SequencesMixin(SequenceWrites):
    """Sequences and their metadata. Part of :class:`cgtalg.store.Store`: the statements of
    SQLAlchemy Core (portable to PostgreSQL) under the reads of
    :class:`~cgtalg.store.rows.StoredRows` and the writes of
    :class:`~cgtalg.store.sequence_writes.SequenceWrites`."""

    extend_sequence = retry_transient(SequenceWrites.extend_sequence)
    put_sequence_meta = retry_transient(SequenceWrites.put_sequence_meta)

    def _sequence_row(self, conn: Connection, key: str, lock: bool = False) -> Any:
        """The row (length, meta, algorithm, made_by) of sequence ``key``, or ``None``."""
        query = select(sequences.c.length, sequences.c.meta, sequences.c.algorithm, sequences.c.made_by).where(
            sequences.c.key == key)
        return conn.execute(query.with_for_update() if lock else query).first()

    def _read_range(self, conn: Connection, key: str, start: int, stop: int, as_list: bool = False) -> np.ndarray:
        """Values ``start .. stop-1`` (all stored) of sequence ``key``, from its chunks (an
        int64 array, or with ``as_list`` a list of ints)."""
        chunks = sequence_chunks.c
        first = conn.execute(
            select(func.max(chunks.start)).where(chunks.sequence_key == key, chunks.start <= start)
        ).scalar()
        query = (
            select(chunks.start, chunks.count, chunks.codec, chunks.data)
            .where(chunks.sequence_key == key, chunks.start >= (first or 0), chunks.start < stop)
            .order_by(chunks.start)
        )
        return self._fill_range(key, conn.execute(query), first, start, stop, *self._range_buffer(stop - start, as_list))

    # -- the statements of the writes (SequenceWrites) --------------------------------------------
    def _seq_insert(self, conn: Connection, key: str, version: int, made: str) -> None:
        conn.execute(self._insert_ignore(sequences),
                     {"key": key, "length": 0, "meta": None, "algorithm": version, "made_by": made})

    def _seq_restart(self, conn: Connection, key: str, version: int, made: str) -> None:
        conn.execute(delete(sequence_chunks).where(sequence_chunks.c.sequence_key == key))
        conn.execute(update(sequences).where(sequences.c.key == key).values(
            length=0, meta=None, algorithm=version, made_by=made))

    def _seq_pending(self, conn: Connection, key: str, base: int) -> int:
        chunks = sequence_chunks.c
        return conn.execute(select(func.count()).where(chunks.sequence_key == key, chunks.start >= base)).scalar_one()

    def _seq_put_chunk(self, conn: Connection, key: str, start: int, count: int, codec: str, data: bytes) -> None:
        conn.execute(insert(sequence_chunks).values(sequence_key=key, start=start, count=count, codec=codec, data=data))

    def _seq_drop_chunks(self, conn: Connection, key: str, base: int) -> None:
        chunks = sequence_chunks.c
        conn.execute(delete(sequence_chunks).where(chunks.sequence_key == key, chunks.start >= base))

    def _seq_set(self, conn: Connection, key: str, column: str, value: Any) -> None:
        conn.execute(update(sequences).where(sequences.c.key == key).values({column: value}))
