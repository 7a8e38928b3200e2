"""Re-checked reuse of stored periodicity certificates (issue 20, part 2).

A certified period read back from the store is re-checked on values the kernels compute
again (the prefix its certificate needs), never on the stored values: a stored chunk
changed in place (re-encoded, so its zlib Adler-32 checksum is valid) and stored metadata
with a wrong period or preperiod are each caught on read, reported with a RuntimeWarning
naming the sequence, and the period is recomputed.
"""

from __future__ import annotations

import json
import sqlite3
import warnings

import numpy as np
import pytest

from cgtalg.rulesets.heaps.grundy_engine import grundy_engine, grundy_sequence, trusted_values
from cgtalg.rulesets.heaps.octal import TakeAndBreak
from cgtalg.rulesets.heaps.octal_periodicity import required_length
from cgtalg.store import open_store
from cgtalg.store.codec import decode_chunk, encode_chunk

KEY = "grundy:0.177"   # period 20, preperiod 497 (k = 3): the certificate needs 2*497 + 2*20 + 3 values
NEED = required_length(0, 2, 3, 497, 20)


def fresh_code() -> TakeAndBreak:
    code = TakeAndBreak("0.177")
    code.__dict__.pop("_engines", None)  # no values computed in this process
    code._period = None
    return code


@pytest.fixture
def stored(tmp_path):
    """A store file holding the certified period of 0.177 and its values."""
    path = tmp_path / "trust.sqlite"
    store = open_store(str(path))
    res = fresh_code().periodicity(store=store)
    assert (res.period, res.preperiod, res.certified) == (20, 497, True)
    assert store.sequence_length(KEY) >= NEED
    store.close()
    return path


def tamper_value(path, index: int, delta: int = 1) -> int:
    """Change the stored G(index) by raw SQL, the chunk re-encoded as the store encodes it."""
    con = sqlite3.connect(path)
    rows = con.execute("SELECT start, count, codec, data FROM sequence_chunks WHERE sequence_key = ? "
                       "ORDER BY start", (KEY,)).fetchall()
    for start, count, codec, data in rows:
        if start <= index < start + count:
            values = decode_chunk(codec, data, count).copy()
            old = int(values[index - start])
            values[index - start] = old + delta
            new_codec, new_data = encode_chunk(values)
            decode_chunk(new_codec, new_data, count)  # a valid chunk: checksum and count agree
            con.execute("UPDATE sequence_chunks SET codec = ?, data = ? WHERE sequence_key = ? AND start = ?",
                        (new_codec, new_data, KEY, start))
            con.commit()
            con.close()
            return old
    raise AssertionError(f"no stored chunk holds index {index}")


def tamper_meta(path, **changes) -> None:
    con = sqlite3.connect(path)
    (text,) = con.execute("SELECT meta FROM sequences WHERE key = ?", (KEY,)).fetchone()
    meta = json.loads(text)
    meta["periodicity"].update(changes)
    con.execute("UPDATE sequences SET meta = ? WHERE key = ?", (json.dumps(meta), KEY))
    con.commit()
    con.close()


def read_back(path):
    store = open_store(str(path))
    try:
        code = fresh_code()
        return code, code.periodicity(store=store), store.sequence_meta(KEY)["periodicity"]
    finally:
        store.close()


def test_untampered_certificate_is_reused_after_recomputing_its_prefix(stored):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        code, res, _ = read_back(stored)
    assert (res.period, res.preperiod, res.certified) == (20, 497, True)
    assert "re-verified" in res.note and f"{NEED:,} values recomputed" in res.note
    eng = grundy_engine(code)
    assert eng.trusted >= NEED  # computed, not read
    assert code.grundy_value(10**40) == int(eng.G[497 + (10**40 - 497) % 20])


@pytest.mark.parametrize("index", [3, 496, 600, NEED - 1])
def test_a_tampered_value_in_the_prefix_is_caught_on_read(stored, index):
    old = tamper_value(stored, index)
    with pytest.warns(RuntimeWarning, match=rf"store .* holds G\({index}\) = {old + 1} for '{KEY}', "
                                            rf"but G\({index}\) = {old}.*recomputing '{KEY}'"):
        code, res, meta = read_back(stored)
    assert (res.period, res.preperiod, res.certified) == (20, 497, True)
    assert "read from the store" not in res.note
    eng = grundy_engine(code)
    assert int(eng.G[index]) == old and eng.trusted >= NEED  # the computed value is what is held


@pytest.mark.parametrize("changes, why", [
    ({"period": 21}, "does not hold on the"),
    ({"period": 40}, "40 is not the least period: 20 is one"),
    ({"preperiod": 496}, "does not hold"),
    ({"preperiod": 498}, "show preperiod 497"),
    ({"period": "twenty"}, "is unreadable"),
    ({"preperiod": 10**6}, "only .* are stored"),
])
def test_tampered_metadata_is_caught_on_read(stored, changes, why):
    tamper_meta(stored, **changes)
    with pytest.warns(RuntimeWarning, match=rf"0\.177: .*'{KEY}'.*{why}"):
        _, res, meta = read_back(stored)
    assert (res.period, res.preperiod, res.certified) == (20, 497, True)
    assert (meta["period"], meta["preperiod"]) == (20, 497)  # the recomputed metadata replaced it


def test_a_search_over_tampered_stored_values_recomputes_them(stored):
    """Without metadata the search reads the stored values (resumable), but a certificate
    found on them stands only once the values it needs are computed again."""
    con = sqlite3.connect(stored)
    con.execute("UPDATE sequences SET meta = NULL WHERE key = ?", (KEY,))
    con.commit()
    con.close()
    old = tamper_value(stored, 700)
    with pytest.warns(RuntimeWarning, match=rf"values read from the store .* are wrong: the value held for "
                                            rf"G\(700\) differs from its recomputation.*'{KEY}'"):
        code, res, meta = read_back(stored)
    assert (res.period, res.preperiod, res.certified) == (20, 497, True)
    assert int(grundy_engine(code).G[700]) == old


def test_values_loaded_from_a_store_are_not_trusted_until_recomputed(tmp_path):
    store = open_store(str(tmp_path / "s.sqlite"))
    store.extend_sequence("grundy:0.77", 0, [0, 1, 2, 3, 1, 4, 3, 2, 1, 9])  # G(9) = 4 really
    code = TakeAndBreak("0.77")
    code.__dict__.pop("_engines", None)
    assert grundy_sequence(code, 10, store=store).tolist()[-1] == 9   # served as stored ...
    assert grundy_engine(code).trusted == 1
    G, bad = trusted_values(code, 12)                                  # ... but never certified
    assert bad == 9 and G[9] == 4 and grundy_engine(code).trusted == 12
    store.close()


def test_load_prefix_never_replaces_values_held():
    code = TakeAndBreak("0.77")
    code.__dict__.pop("_engines", None)
    eng = grundy_engine(code)
    eng.extend(6)
    eng.load_prefix(np.array([0, 9, 9, 9, 9, 9, 3, 2]), start=0)
    assert eng.values().tolist() == [0, 1, 2, 3, 1, 4, 3, 2] and eng.trusted == 6
