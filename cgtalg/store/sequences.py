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

import json
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Connection

from cgtalg.errors import StoreError
from cgtalg.store.codec import as_int64, check_index, check_text, encode_chunk, encode_value, shorten
from cgtalg.store.engine import retry_transient
from cgtalg.store.provenance import META_PROVENANCE, current_version, made_by, sequence_version
from cgtalg.store.schema import CHUNK_SIZE, SEQUENCE_KEY_LENGTH, sequence_chunks, sequences

if TYPE_CHECKING:  # numpy is imported by the methods that read or write values
    import numpy as np

__all__ = ["SequencesMixin", "MAX_PENDING_ROWS"]

#: Rows of a sequence after its last full chunk (one per call), before they are merged.
MAX_PENDING_ROWS = 32


class SequencesMixin:
    """Sequences and their metadata. Part of :class:`cgtalg.store.Store`."""

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

    def _ensure_sequence_row(self, conn: Connection, key: str) -> Any | None:
        """Create the row of sequence ``key`` if absent and return it under a row lock; a stale
        row (an older version of its kind) is started afresh (chunks and metadata deleted). ``None``
        when the row must not be written: written by a newer version, or stale while the store
        serves stale rows."""
        version = sequence_version(key)
        conn.execute(self._insert_ignore(sequences),
                     {"key": key, "length": 0, "meta": None, "algorithm": version, "made_by": made_by()})
        row = self._sequence_row(conn, key, lock=True)
        if row.algorithm == version:
            return row
        if row.algorithm > version or self.serve_stale:
            return None
        conn.execute(delete(sequence_chunks).where(sequence_chunks.c.sequence_key == key))
        conn.execute(update(sequences).where(sequences.c.key == key).values(
            length=0, meta=None, algorithm=version, made_by=made_by()))
        return self._sequence_row(conn, key)

    @retry_transient
    def extend_sequence(self, key: str, start: int, values: Any) -> None:
        """Store ``values`` as the values of sequence ``key`` at indices ``start, start+1, ...``.

        ``start`` must be at most the stored length (no gaps). Values overlapping the stored
        prefix must equal it; the rest is appended. One transaction per call, so a writer
        interrupted between calls keeps every completed call, and resumes from
        :meth:`sequence_length`. A stale sequence (see the module) is deleted first, so it is
        written afresh from index 0.

        Raises
        ------
        StoreError
            If ``start`` is beyond the stored length, the values are not integers of one
            dimension, or an overlapping value differs from the stored one (the index and
            both values are named; nothing is written).

        Examples
        --------
        >>> from cgtalg.store import open_store
        >>> store = open_store(":memory:")
        >>> store.extend_sequence("grundy:0.07", 0, [0, 0, 1, 1])
        >>> store.extend_sequence("grundy:0.07", 2, [1, 1, 2, 0])   # overlap agrees
        >>> store.sequence("grundy:0.07").tolist(), store.sequence_length("grundy:0.07")
        ([0, 0, 1, 1, 2, 0], 6)
        """
        import numpy as np

        check_text(key, "sequence key", SEQUENCE_KEY_LENGTH)
        start = check_index(start, "start")
        array = as_int64(values, key)
        end = start + array.size
        with self._transaction(write=True) as conn:
            row = self._ensure_sequence_row(conn, key)
            if row is None:
                return
            length = int(row.length)
            if start > length:
                raise StoreError(
                    f"cannot store values of sequence {key!r} from index {start}: only "
                    f"{length} values are stored, so that would leave a gap"
                )
            overlap = min(end, length)
            if overlap > start:
                stored = self._read_range(conn, key, start, overlap)
                differ = np.flatnonzero(stored != array[: overlap - start])
                if differ.size:
                    i = int(differ[0])
                    raise StoreError(
                        f"sequence {key!r} disagrees with the store {self._where} at index "
                        f"{start + i}: stored value {stored[i]}, new value {array[i]} "
                        f"({differ.size} of the {overlap - start} overlapping values differ); "
                        "nothing was written"
                    )
            if end <= length:
                return
            self._append_chunks(conn, key, length, array[length - start :])
            conn.execute(update(sequences).where(sequences.c.key == key).values(length=end))

    def _append_chunks(self, conn: Connection, key: str, length: int, tail: np.ndarray) -> None:
        """Append ``tail`` after the ``length`` stored values of sequence ``key``.

        Full chunks of ``CHUNK_SIZE`` values start at multiples of ``CHUNK_SIZE``; the
        values after the last full chunk sit in smaller rows, one per call, until they fill
        a chunk or make ``MAX_PENDING_ROWS`` rows, when they are merged. So small calls do
        not rewrite a large partial chunk each time, and a read meets few rows.
        """
        import numpy as np

        chunks = sequence_chunks.c
        base = length - length % CHUNK_SIZE  # start of the values after the full chunks
        pending_rows = 0
        if length > base:
            pending_rows = conn.execute(
                select(func.count()).where(chunks.sequence_key == key, chunks.start >= base)
            ).scalar_one()
        if length - base + tail.size < CHUNK_SIZE and pending_rows < MAX_PENDING_ROWS:
            codec, data = encode_chunk(tail)
            conn.execute(
                insert(sequence_chunks).values(
                    sequence_key=key, start=length, count=int(tail.size), codec=codec, data=data
                )
            )
            return
        if length > base:
            tail = np.concatenate([self._read_range(conn, key, base, length), tail])
            conn.execute(
                delete(sequence_chunks).where(chunks.sequence_key == key, chunks.start >= base)
            )
        for offset in range(0, tail.size, CHUNK_SIZE):
            piece = tail[offset : offset + CHUNK_SIZE]
            codec, data = encode_chunk(piece)
            conn.execute(
                insert(sequence_chunks).values(
                    sequence_key=key, start=base + offset, count=int(piece.size), codec=codec, data=data
                )
            )

    @retry_transient
    def put_sequence_meta(self, key: str, meta: dict, replace: bool = False) -> None:
        """Record metadata of sequence ``key`` (e.g. a certified period and preperiod).

        New entries are merged into the stored ones; an entry stored with a different
        value raises :class:`StoreError` unless ``replace=True``, which replaces the whole
        metadata dict. A stale stored entry (an older version of the entry's algorithm) is
        replaced; each entry written records its version (see the module).
        """
        check_text(key, "sequence key", SEQUENCE_KEY_LENGTH)
        if not isinstance(meta, dict):
            raise StoreError(f"metadata of sequence {key!r} must be a dict, got {type(meta).__name__}")
        if META_PROVENANCE in meta:
            raise StoreError(f"metadata of sequence {key!r}: the entry name {META_PROVENANCE!r} is reserved")
        new = json.loads(encode_value(meta, f"metadata of sequence {key!r}"))
        made = made_by()
        with self._transaction(write=True) as conn:
            row = self._ensure_sequence_row(conn, key)
            if row is None:
                return
            stored = {} if row.meta is None else self._load(row.meta, "sequences", f"sequence {key!r}, column meta", dict)
            stored_prov = stored.pop(META_PROVENANCE, None)
            stored_prov = stored_prov if isinstance(stored_prov, dict) else {}
            merged: dict = {} if replace else dict(stored)
            prov: dict = {} if replace else {n: stored_prov[n] for n in stored if n in stored_prov}
            for name, value in new.items():
                text = encode_value(value, "")
                version = current_version(name)
                before = stored_prov.get(name) or {"algorithm": 1, "made_by": None}
                same = name in stored and encode_value(stored[name], "") == text
                if same:  # unchanged: keep its provenance; a stale entry written again was recomputed
                    # (it was not served), unless stale entries are served
                    recomputed = before.get("algorithm") < version and not self.serve_stale
                    prov[name] = {"algorithm": version, "made_by": made} if recomputed else before
                    merged[name] = value
                    continue
                if name in stored and not replace and before.get("algorithm") >= version:
                    if before.get("algorithm") > version:
                        continue  # written by a newer version: left as it is
                    raise StoreError(
                        f"refusing to overwrite metadata {name!r} of sequence {key!r} in the "
                        f"store {self._where}: stored value {shorten(encode_value(stored[name], ''))}, "
                        f"new value {shorten(text)} (replace=True replaces the metadata)"
                    )
                merged[name] = value
                prov[name] = {"algorithm": version, "made_by": made}
            if prov:
                merged[META_PROVENANCE] = prov
            conn.execute(
                update(sequences).where(sequences.c.key == key).values(meta=encode_value(merged, "metadata"))
            )
