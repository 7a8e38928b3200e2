"""The stored record of a misère quotient: its key, format and encoding (no numpy needed to
write one: :mod:`cgtalg.cli.fast` writes the records of :mod:`cgtalg.quotients.tiny`);
:mod:`cgtalg.quotients.storage` reads, re-verifies and writes them."""

from __future__ import annotations

import array
import base64
import sys
import zlib
from typing import Any

from cgtalg.core.lazynp import np
from cgtalg.quotients.state import _game_name

__all__ = ["FORMAT", "ENTRY", "RAYS", "COUNTING", "RULE", "PRESENTATION_ORDER", "quotient_key", "encode_record"]

#: version of the stored record
FORMAT = 1
#: the entry of the sequence metadata that holds the record
ENTRY = "misere_quotient"
#: the entry that holds a proof that the next partial quotient is infinite (a verified ray
#: pretension, :mod:`cgtalg.quotients.rays`), beside the last finite one
RAYS = "misere_quotient_rays"
#: the entry that holds the last counting level proved for the next heap
#: (:mod:`cgtalg.quotients.count`), so that a stopped counting run resumes after it
COUNTING = "misere_quotient_counting"
#: the entry that holds a largest-heap rule of the game (a certificate of kind
#: ``largest-heap-rule``, :mod:`cgtalg.quotients.largest_heap`): every misère outcome by a rule
#: over heap sizes; not trusted on reading (the referee checks it again, :mod:`cgtalg.ops.largest_heap`)
RULE = "misere_largest_heap_rule"
#: presentations are stored for quotients up to this order (they are recomputed on load anyway)
PRESENTATION_ORDER = 400


def quotient_key(ruleset: Any) -> str:
    """The store key (sequence metadata) of the misère quotient of ``ruleset``: ``quotient:``
    and what identifies its rules, its ``store_name`` when it has one (a ruleset from a
    function: its name and a fingerprint of its moves), else its name (``quotient:0.77``)."""
    return f"quotient:{getattr(ruleset, 'store_name', None) or _game_name(ruleset)}"


def encode_record(name: str, top: int, period: Any, table: Any, P: Any, phi: Any, seconds: float,
                  quotient: Any) -> dict:
    """The stored record of a verified quotient state: ``table`` a numpy array or a list of rows
    (:mod:`cgtalg.quotients.tiny` writes without numpy), ``quotient()`` its
    :class:`~cgtalg.quotients.result.MisereQuotient` (for the presentation)."""
    order = len(table)
    dtype, text = _table_text(table)
    rec = {
        "format": FORMAT, "game": name, "top": int(top), "order": order,
        "final": period is not None, "period": list(period) if period else None,
        "dtype": dtype, "table": text,
        "P": "".join("1" if b else "0" for b in P), "phi": [int(x) for x in phi],
        "seconds": round(float(seconds), 3),
    }
    if order <= PRESENTATION_ORDER:
        q = quotient()
        pr = q.presentation()
        rec["presentation"] = pr.text
        rec["p_portion"] = [pr.words[x] for x in q.p_portion]
    return rec


def _table_text(t: Any) -> tuple[str, str]:
    """``(dtype, base64 of zlib)`` of an array of elements of a monoid of order ``t.shape[-1]``
    (a table, or generator columns; a list of rows is read as a table): the least unsigned type
    that holds them."""
    rows = isinstance(t, list)
    order = len(t) if rows else int(t.shape[-1]) if t.ndim else 0
    dtype = "u1" if order <= 256 else "u2" if order <= 65536 else "u4"
    if rows:   # without numpy: the same bytes as the array's
        flat = array.array({"u1": "B", "u2": "H", "u4": "I"}[dtype], (v for row in t for v in row))
        if sys.byteorder != "little" and dtype != "u1":  # pragma: no cover - big-endian machines
            flat.byteswap()
        raw = flat.tobytes()
    else:
        raw = np.ascontiguousarray(t.astype("<" + dtype)).tobytes()
    return dtype, base64.b64encode(zlib.compress(raw, 6)).decode("ascii")
