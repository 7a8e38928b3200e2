"""tools/level_linear_fits.py: the linear fits read off a stored counting level.

The level here is the final quotient of 0.123 (order 20, Plambeck's ".123" seed) stored as a
counting level of heap 12 with four copies: right for every position, so the store's own check
accepts it; a heap's powers settle within two copies, so no heap is counted and no fit exists.
The same record with one P-bit flipped is refused by that check, and a store without a level
says so."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import load_tool


def _tool():
    return load_tool("level_linear_fits")


@pytest.fixture(scope="module")
def store_url(tmp_path_factory):
    from cgtalg.quotients.construct import misere_quotient
    from cgtalg.quotients.pretension import FiniteMonoid, Pretension
    from cgtalg.quotients.record import COUNTING, quotient_key
    from cgtalg.quotients.storage import encode_level
    from cgtalg.rulesets.heaps.octal import TakeAndBreak
    from cgtalg.store import open_store

    q = misere_quotient(TakeAndBreak("0.123"))
    assert q.final and q.order == 20            # Plambeck, ".123" (the seeds): |Q| = 20
    heap = 12
    cand = Pretension(FiniteMonoid(np.asarray(q.table, dtype=np.int32)), np.asarray(q.P, dtype=bool),
                      [int(x) for x in q.phi[:heap + 1]])
    url = f"sqlite:///{tmp_path_factory.mktemp('fits') / 'q.sqlite'}"
    st = open_store(url)
    good = encode_level(heap, 4, cand, {}, [], 0.0)
    st.put_sequence_meta(quotient_key(TakeAndBreak("0.123")), {COUNTING: good}, replace=True)
    return url, good


def test_a_stored_level_is_read_back_verified_and_its_fits_reported(store_url, tmp_path, capsys):
    out = tmp_path / "r.json"
    assert _tool().main(["0.123", "0.77", "--store", store_url[0], "--json", str(out)]) == 0
    r = {x["code"]: x for x in json.loads(out.read_text())}
    assert r["0.123"]["level"] == {"heap": 12, "copies": 4, "order": 20}
    assert r["0.123"]["fits"] == [] and "no weight" in r["0.123"]["why"]
    assert r["0.77"]["why"] == "no counting level stored"
    assert "level of heap 12, 4 copies, order 20" in capsys.readouterr().out


@pytest.mark.parametrize("where", [1, 7, 19])
def test_a_level_with_one_outcome_flipped_is_refused(store_url, where):
    from cgtalg.quotients.record import COUNTING

    bad = dict(store_url[1])
    bad["P"] = bad["P"][:where] + ("0" if bad["P"][where] == "1" else "1") + bad["P"][where + 1:]

    class _Store:
        def sequence_meta(self, key):
            return {COUNTING: bad}
    r = _tool().level_fits("0.123", _Store())
    assert r["level"] is None and "refused" in r["why"], r


def test_a_malformed_code_is_a_named_error(store_url, capsys):
    assert _tool().main(["0.1x", "--store", store_url[0]]) == 2
    assert "level_linear_fits.py:" in capsys.readouterr().err


def test_ctrl_c_keeps_the_codes_done(store_url, tmp_path, monkeypatch, capsys):
    tool = _tool()
    real = tool.level_fits

    def stop_on_second(code, store, **kw):
        if code != "0.123":
            raise KeyboardInterrupt
        return real(code, store, **kw)
    monkeypatch.setattr(tool, "level_fits", stop_on_second)
    out = tmp_path / "r.json"
    assert tool.main(["0.123", "0.77", "--store", store_url[0], "--json", str(out)]) == 130
    assert [r["code"] for r in json.loads(out.read_text())] == ["0.123"]
    assert "interrupted (1 of 2 codes done" in capsys.readouterr().err
