"""How a sequence is written: :meth:`SequenceWrites.extend_sequence` and
:meth:`SequenceWrites.put_sequence_meta`, written once for both stores (the full store,
:class:`cgtalg.store.Store`, and the light one, :mod:`cgtalg.store.light`), over the few
statements each store runs its own way (see :class:`SequenceWrites`).

So a first ``cgtalg grundy``, ``period`` or ``quotient`` on a new SQLite store writes its
values and its metadata through ``sqlite3``, without importing SQLAlchemy, and both paths
write the same rows, decide the same way (no gap, overlapping values must agree, a stale
sequence is started afresh, metadata write-once per entry and version) and word their errors
the same. This module imports neither SQLAlchemy nor numpy (numpy is imported by the value
writes, which need arrays).
"""

from __future__ import annotations

import json
from typing import Any, Callable

from cgtalg.errors import StoreError
from cgtalg.store.codec import CHUNK_SIZE, SEQUENCE_KEY_LENGTH, as_int64, check_index, check_text, encode_chunk, encode_value, shorten
from cgtalg.store.provenance import META_PROVENANCE, current_version, made_by, sequence_version

__all__ = ["SequenceWrites", "CHUNK_SIZE", "MAX_PENDING_ROWS", "LIGHT_SEQUENCE_STATEMENTS"]

#: Rows of a sequence after its last full chunk (one per call), before they are merged.
MAX_PENDING_ROWS = 32

#: The statements of the light store (``sqlite3``, ``?`` parameters), by primitive.
LIGHT_SEQUENCE_STATEMENTS = {
    "insert": ("INSERT INTO sequences (key, length, meta, algorithm, made_by) VALUES (?, 0, NULL, ?, ?) "
               "ON CONFLICT (key) DO NOTHING"),
    "restart_chunks": "DELETE FROM sequence_chunks WHERE sequence_key = ?",
    "restart_row": "UPDATE sequences SET length = 0, meta = NULL, algorithm = ?, made_by = ? WHERE key = ?",
    "pending": "SELECT count(*) FROM sequence_chunks WHERE sequence_key = ? AND start >= ?",
    "put_chunk": "INSERT INTO sequence_chunks (sequence_key, start, count, codec, data) VALUES (?, ?, ?, ?, ?)",
    "drop_chunks": "DELETE FROM sequence_chunks WHERE sequence_key = ? AND start >= ?",
    "set_length": "UPDATE sequences SET length = ? WHERE key = ?",
    "set_meta": "UPDATE sequences SET meta = ? WHERE key = ?",
}


class SequenceWrites:
    """The writes of sequences, part of both stores. Each store provides ``_transaction``,
    ``_where``, ``serve_stale``, ``_load``, ``_read_range`` and ``_sequence_row`` (as for the
    reads, :class:`cgtalg.store.rows.StoredRows`; ``_sequence_row(conn, key, lock)`` with
    ``lock`` taking the row's write lock where the database has row locks), and these
    statements, each given the transaction's connection:

    - ``_seq_insert(conn, key, version, made)``: the row ``(key, 0, NULL, version, made)`` if
      absent;
    - ``_seq_restart(conn, key, version, made)``: delete the sequence's chunks and reset its
      row to length 0, no metadata, this version;
    - ``_seq_pending(conn, key, base)``: how many chunk rows start at ``base`` or later;
    - ``_seq_put_chunk(conn, key, start, count, codec, data)``: one chunk row;
    - ``_seq_drop_chunks(conn, key, base)``: delete the chunk rows from ``base``;
    - ``_seq_set(conn, key, column, value)``: set ``length`` or ``meta`` of the row."""

    _where: str
    serve_stale: bool
    _transaction: Callable[..., Any]
    _load: Callable[..., Any]
    _read_range: Callable[..., Any]
    _sequence_row: Callable[..., Any]
    _seq_insert: Callable[..., None]
    _seq_restart: Callable[..., None]
    _seq_pending: Callable[..., int]
    _seq_put_chunk: Callable[..., None]
    _seq_drop_chunks: Callable[..., None]
    _seq_set: Callable[..., None]

    def _ensure_sequence_row(self, conn: Any, key: str) -> tuple | None:
        """Create the row of sequence ``key`` if absent and return it ``(length, meta,
        algorithm, made_by)`` under a row lock; a stale row (an older version of its kind) is
        started afresh (chunks and metadata deleted). ``None`` when the row must not be
        written: written by a newer version, or stale while the store serves stale rows."""
        version = sequence_version(key)
        self._seq_insert(conn, key, version, made_by())
        row = self._sequence_row(conn, key, True)
        if row[2] == version:
            return row
        if row[2] > version or self.serve_stale:
            return None
        self._seq_restart(conn, key, version, made_by())
        return self._sequence_row(conn, key, True)

    def extend_sequence(self, key: str, start: int, values: Any) -> None:
        """Store ``values`` as the values of sequence ``key`` at indices ``start, start+1, ...``.

        ``start`` must be at most the stored length (no gaps). Values overlapping the stored
        prefix must equal it; the rest is appended. One transaction per call, so a writer
        interrupted between calls keeps every completed call, and resumes from
        :meth:`sequence_length`. A stale sequence (see :mod:`cgtalg.store.sequences`) is
        deleted first, so it is written afresh from index 0.

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
            length = int(row[0])
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
            self._seq_set(conn, key, "length", end)

    def _append_chunks(self, conn: Any, key: str, length: int, tail: Any) -> None:
        """Append ``tail`` after the ``length`` stored values of sequence ``key``.

        Full chunks of ``CHUNK_SIZE`` values start at multiples of ``CHUNK_SIZE``; the
        values after the last full chunk sit in smaller rows, one per call, until they fill
        a chunk or make ``MAX_PENDING_ROWS`` rows, when they are merged. So small calls do
        not rewrite a large partial chunk each time, and a read meets few rows.
        """
        import numpy as np

        base = length - length % CHUNK_SIZE  # start of the values after the full chunks
        pending_rows = self._seq_pending(conn, key, base) if length > base else 0
        if length - base + tail.size < CHUNK_SIZE and pending_rows < MAX_PENDING_ROWS:
            self._seq_put_chunk(conn, key, length, int(tail.size), *encode_chunk(tail))
            return
        if length > base:
            tail = np.concatenate([self._read_range(conn, key, base, length), tail])
            self._seq_drop_chunks(conn, key, base)
        for offset in range(0, tail.size, CHUNK_SIZE):
            piece = tail[offset : offset + CHUNK_SIZE]
            self._seq_put_chunk(conn, key, base + offset, int(piece.size), *encode_chunk(piece))

    def put_sequence_meta(self, key: str, meta: dict, replace: bool = False) -> None:
        """Record metadata of sequence ``key`` (e.g. a certified period and preperiod).

        New entries are merged into the stored ones; an entry stored with a different
        value raises :class:`StoreError` unless ``replace=True``, which replaces the whole
        metadata dict. A stale stored entry (an older version of the entry's algorithm) is
        replaced; each entry written records its version (see :mod:`cgtalg.store.sequences`).
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
            stored = {} if row[1] is None else self._load(row[1], "sequences", f"sequence {key!r}, column meta", dict)
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
            self._seq_set(conn, key, "meta", encode_value(merged, "metadata"))
