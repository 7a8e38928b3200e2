"""The published misère quotient census (docs/data) re-checked by the referee (slow).

``docs/data/quotient_census.json.gz`` holds every row with its certificate (final: the quotient
and the periodicity of Φ; infinite: the ray pretension and its order witness); the CSV beside it
states the same claims. Here: the two agree row by row; every row is accepted by
``cgtalg.referee`` (which shares no code with the construction; about 20 s, as ``cgtalg check
docs/data/quotient_census.json.gz``, docs/quotient_census.md); rows edited to false claims are
refused."""

from __future__ import annotations

import copy
import csv
import gzip
import json
from pathlib import Path

import pytest

from cgtalg.referee.census import check_row

pytestmark = pytest.mark.slow

DATA = Path(__file__).resolve().parents[1] / "docs" / "data"


def _rows():
    with gzip.open(DATA / "quotient_census.json.gz", "rt", encoding="utf-8") as fh:
        doc = json.load(fh)
    with open(DATA / "quotient_census.csv", newline="") as fh:
        table = list(csv.DictReader(fh))
    return doc["rows"], table


def _int(x):
    return None if x in (None, "") else int(x)


def test_the_csv_states_what_the_certificates_carry():
    rows, table = _rows()
    assert len(rows) == len(table) == 575
    for r, t in zip(rows, table):
        assert t["code"] == r["code"] and t["status"] == r["status"]
        for k in ("order", "p_count", "heaps", "infinite_from"):
            assert _int(t.get(k)) == r.get(k), (r["code"], k)
        if r["status"] in ("tame", "wild-finite", "infinite"):
            assert r.get("certificate"), r["code"]


def test_every_row_passes_the_referee():
    rows, _ = _rows()
    assert any(r["status"] == "infinite" for r in rows)
    bad = [(r["code"], v.reasons) for r in rows for v in [check_row(r)] if not v.ok]
    assert not bad, bad[:5]


def test_rows_edited_to_false_claims_are_refused():
    rows, _ = _rows()
    edits = []
    inf = next((r for r in rows if r["status"] == "infinite"), None)
    if inf is not None:
        for key, delta in (("infinite_from", 1), ("order", 1), ("heaps", -1)):
            e = copy.deepcopy(inf)
            e[key] = e[key] + delta
            edits.append((key, e))
        e = copy.deepcopy(inf)
        e["status"] = "wild-finite"
        edits.append(("status", e))
    fin = next(r for r in rows if r["status"] == "wild-finite")
    for key, delta in (("order", 2), ("p_count", 1)):
        e = copy.deepcopy(fin)
        e[key] = e[key] + delta
        edits.append((key, e))
    tied = next((r for r in rows if r.get("stopped") == "normal play"), None)
    if tied is not None:         # a row tied to normal play states Q_M and the tie (docs/quotient_census.md)
        for key, value in (("order", tied["order"] + 1), ("heaps", tied["heaps"] - 1), ("stopped", "time")):
            e = copy.deepcopy(tied)
            e[key] = value
            edits.append((f"tied {key}", e))
        e = copy.deepcopy(tied)
        e["certificate"]["quotient"]["normal_tie"]["ideal"] += 1
        edits.append(("tied ideal", e))
    for what, e in edits:
        assert not check_row(e).ok, what
