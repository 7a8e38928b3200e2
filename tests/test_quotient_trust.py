"""A misère quotient read back from the store is proved again, on values the reader computes
itself (issue 20, part 2).

The record is changed by raw SQL on the store file (one table entry, one P-membership, one Φ
value, the claim ``final``), as an outside tamperer or a damaged disk would, and read back
three ways: ``misere_quotient`` (refuses with :class:`StoreCorruptError` naming the row),
``outcome(..., misere=True)`` (warns, naming the row, and answers by search), and the
Python entry points' budgets and bad arguments (cgtalg errors, never raw ones).
"""

from __future__ import annotations

import base64
import json
import sqlite3
import warnings
import zlib

import numpy as np
import pytest

from cgtalg.errors import BudgetError, CgtalgError, RulesetError, StoreCorruptError
from cgtalg.quotients.construct import misere_quotient
from cgtalg.quotients.state import forget_known
from cgtalg.quotients.storage import ENTRY
from cgtalg.rulesets.heaps.octal import TakeAndBreak
from cgtalg.store.store import open_store

KEY = "quotient:0.123"


def _path(tmp_path):
    return tmp_path / "trust.db"


def _fresh_store(tmp_path):
    forget_known()
    st = open_store(f"sqlite:///{_path(tmp_path)}")
    q = misere_quotient(TakeAndBreak("0.123"), store=st, progress=False)
    assert q.final and q.order == 20
    return st, q


def _raw_record(tmp_path) -> dict:
    with sqlite3.connect(_path(tmp_path)) as con:
        (text,) = con.execute("SELECT meta FROM sequences WHERE key = ?", (KEY,)).fetchone()
    return json.loads(text)


def _raw_write(tmp_path, meta: dict) -> None:
    with sqlite3.connect(_path(tmp_path)) as con:
        con.execute("UPDATE sequences SET meta = ? WHERE key = ?", (json.dumps(meta), KEY))


def _table(rec: dict) -> np.ndarray:
    raw = zlib.decompress(base64.b64decode(rec["table"]))
    n = rec["order"]
    return np.frombuffer(raw, dtype="<" + rec["dtype"]).astype(np.int64).reshape(n, n)


def _with_table(rec: dict, t: np.ndarray) -> dict:
    out = dict(rec)
    out["table"] = base64.b64encode(zlib.compress(t.astype("<" + rec["dtype"]).tobytes())).decode()
    return out


def _read_back(tmp_path, expected):
    """misere_quotient on a reopened store: None when refused with the row named, else the
    quotient (which must then predict exactly what ``expected`` does)."""
    forget_known()
    st = open_store(f"sqlite:///{_path(tmp_path)}")
    try:
        q = misere_quotient(TakeAndBreak("0.123"), store=st, progress=False)
    except StoreCorruptError as exc:
        assert KEY in str(exc) and ENTRY in str(exc)
        return None
    # a change that keeps a valid pretension is a correct quotient: the same predictions
    for heaps in ([9, 8, 5, 3], [1], [2, 2], [7, 4, 4], [30, 12]):
        assert q.is_p(heaps) == expected.is_p(heaps)
    return q


def test_one_table_entry_changed_is_refused(tmp_path):
    st, q = _fresh_store(tmp_path)
    good = _raw_record(tmp_path)
    rec = good[ENTRY]
    t = _table(rec)
    caught = 0
    for i, j in [(1, 2), (3, 5), (2, 2), (7, 11), (19, 19)]:
        for both in (False, True):
            bad = t.copy()
            bad[i, j] = (bad[i, j] + 1) % rec["order"]
            if both:
                bad[j, i] = bad[i, j]
            _raw_write(tmp_path, {**good, ENTRY: _with_table(rec, bad)})
            caught += _read_back(tmp_path, q) is None
    assert caught == 10


def test_every_p_membership_flip_is_refused(tmp_path):
    st, q = _fresh_store(tmp_path)
    good = _raw_record(tmp_path)
    rec = good[ENTRY]
    for x in range(rec["order"]):
        P = rec["P"]
        flipped = P[:x] + ("1" if P[x] == "0" else "0") + P[x + 1:]
        _raw_write(tmp_path, {**good, ENTRY: {**rec, "P": flipped}})
        assert _read_back(tmp_path, q) is None, f"P-membership of element {x} flipped and accepted"


def test_phi_and_final_claims_are_refused(tmp_path):
    st, q = _fresh_store(tmp_path)
    good = _raw_record(tmp_path)
    rec = good[ENTRY]
    phi = list(rec["phi"])
    for h in (3, 9, 20):
        bad = phi.copy()
        bad[h] = (bad[h] + 1) % rec["order"]
        _raw_write(tmp_path, {**good, ENTRY: {**rec, "phi": bad}})
        assert _read_back(tmp_path, q) is None
    # a stored period or presentation is never read back: lying there changes nothing
    _raw_write(tmp_path, {**good, ENTRY: {**rec, "period": [0, 1], "presentation": "⟨a | a=1⟩"}})
    q2 = _read_back(tmp_path, q)
    assert q2 is not None and q2.period == q.period == (5, 5)
    # a zip bomb in place of the table is refused before it is inflated
    bomb = base64.b64encode(zlib.compress(b"\0" * (1 << 22))).decode()
    _raw_write(tmp_path, {**good, ENTRY: {**rec, "table": bomb}})
    assert _read_back(tmp_path, q) is None


def test_solving_positions_warns_naming_the_row_and_answers_by_search(tmp_path):
    st, q = _fresh_store(tmp_path)
    good = _raw_record(tmp_path)
    rec = good[ENTRY]
    P = rec["P"]
    _raw_write(tmp_path, {**good, ENTRY: {**rec, "P": P[:4] + ("1" if P[4] == "0" else "0") + P[5:]}})
    forget_known()
    st = open_store(f"sqlite:///{_path(tmp_path)}")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert TakeAndBreak("0.123").outcome([9, 8, 5, 3], misere=True, store=st) == "N"
    assert any(KEY in str(w.message) and "rejected" in str(w.message) for w in caught)


@pytest.mark.parametrize("kwargs,error", [
    (dict(max_heap="5"), RulesetError), (dict(max_heap=-3), RulesetError),
    (dict(max_heap=2.5), RulesetError), (dict(max_seconds=float("nan")), BudgetError),
    (dict(max_seconds=-1), BudgetError), (dict(max_seconds="10"), BudgetError),
    (dict(max_order=0), BudgetError), (dict(max_order="big"), BudgetError),
    (dict(max_states=-1), BudgetError), (dict(max_memory="lots"), BudgetError),
    (dict(checkpoint_seconds=float("nan")), BudgetError),
])
def test_bad_arguments_are_cgtalg_errors(kwargs, error):
    with pytest.raises(error) as info:
        misere_quotient(TakeAndBreak("0.123"), **kwargs)
    assert isinstance(info.value, CgtalgError) and isinstance(info.value, ValueError)
