"""``cgtalg store verify`` proves what it can (issue 20): a store written through every CLI
command that writes to one verifies clean (no false alarm), and one value changed with raw SQL
in each kind of record (a certified Grundy sequence, a misère quotient, an equivalence proof's
witness, a partizan value, a solution, a form property) is caught and named by its row.

The tampered chunk is re-encoded with a correct checksum, so only the recomputation of the
values can catch it; the expected values come from the definitions (the mex rule, Winning Ways
ch. 4), not from the store."""

from __future__ import annotations

import json
import shutil
import sqlite3

import pytest

from cgtalg.cli.main import main
from cgtalg.store import open_store
from cgtalg.store.codec import decode_chunk, encode_chunk
from cgtalg.store.verify import verify_store

#: every CLI command that writes to the store, each kept cheap
WRITERS = [
    ["game", "kayles(10)"],
    ["game", "{*2,*3}"],
    ["equiv", "*2+*3", "*"],
    ["equiv", "--misere", "*+*2", "*3"],
    ["equiv", "--misere", "{*2}", "*2+*2"],
    ["grundy", "0.77", "-n", "3000"],
    ["period", "0.07"],
    ["grundy", "0.07", "-n", "5000"],
    ["misere", "0.77", "-n", "12"],
    ["misere", "0.77", "--position", "5 3"],
    ["quotient", "0.07", "--max-heap", "12", "--quiet"],
    ["outcome", "0.07", "12"],
    ["outcome", "0.77", "9", "4", "--misere"],
    ["solve", "parity", "7"],
    ["solve", "parity", "9", "--misere"],
    ["value", "domineering", "2x3"],
    ["value", "toads-and-frogs", "TT..FF"],
    ["cousin", "0.07"],
    ["demo"],
    ["census", "octal", "--codes", "0.07,0.3,0.6", "--scheduler", "serial", "--values", "4096",
     "--genus-heaps", "8", "--quotient-heaps", "6"],
    ["census", "quotient", "--codes", "0.123,0.07", "--scheduler", "serial", "--time", "class=2s"],
]


def _run(path, *args) -> int:
    return main(["--store", str(path), *args])


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    path = tmp_path_factory.mktemp("verify") / "all.sqlite"
    for args in WRITERS:
        assert _run(path, *args) == 0, args
    con = sqlite3.connect(path)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    return path


@pytest.fixture
def copy(built, tmp_path):
    target = tmp_path / "copy.sqlite"
    shutil.copy(built, target)
    return target


def _sql(path, statement, *args):
    con = sqlite3.connect(path)
    with con:
        con.execute(statement, args)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()


def _one(path, statement, *args):
    con = sqlite3.connect(path)
    try:
        return con.execute(statement, args).fetchone()
    finally:
        con.close()


def _problems(path, **kw):
    with open_store(path) as store:
        result = verify_store(store, sample=None, **kw)
    assert result["complete"], result["stopped"]
    return result["problems"]


def test_every_writer_leaves_a_store_that_verifies_clean(built, capsys):
    tables = {name: _one(built, f"SELECT count(*) FROM {name}")[0]
              for name in ("forms", "form_properties", "form_relations", "position_properties", "sequences")}
    assert all(tables.values()), tables
    with open_store(built) as store:
        result = verify_store(store, sample=None)
    assert result["ok"], result["problems"]
    checked = result["checked"]
    # certificates re-run, values recomputed: not only parsed
    for name in ("recomputed_properties", "proofs_rechecked", "certificates_rechecked", "quotients_rechecked",
                 "position_values_recomputed", "census_records_recomputed", "sequence_values_recomputed"):
        assert checked.get(name, 0) > 0, (name, checked)
    capsys.readouterr()
    assert _run(built, "store", "verify", "--full", "--json") == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] and out["complete"]
    assert _run(built, "store", "verify", "--sample", "3", "--seed", "7") == 0


def test_kayles_alone_has_no_false_alarm(tmp_path):
    """Winning moves are stored as display texts of sums; they name the same forms."""
    path = tmp_path / "k.sqlite"
    assert _run(path, "game", "kayles(10)") == 0
    assert _problems(path) == []


def _tampered_chunk(path, key, index, delta=1):
    start, count, codec, data = _one(
        path, "SELECT start, count, codec, data FROM sequence_chunks WHERE sequence_key = ? AND start <= ? "
              "ORDER BY start DESC", key, index)
    values = decode_chunk(codec, data, count).copy()
    values[index - start] += delta
    codec, data = encode_chunk(values)
    _sql(path, "UPDATE sequence_chunks SET codec = ?, data = ? WHERE sequence_key = ? AND start = ?",
         codec, data, key, start)


def test_certified_sequence_value(copy):
    meta = json.loads(_one(copy, "SELECT meta FROM sequences WHERE key = 'grundy:0.07'")[0])
    assert meta["periodicity"]["certified"]
    _tampered_chunk(copy, "grundy:0.07", 60)  # G(60) of Dawson's Kayles, inside the certified prefix
    problems = _problems(copy)
    assert [p["key"] for p in problems] == ["sequence 'grundy:0.07', index 60"], problems
    assert problems[0]["table"] == "sequence_chunks" and "recomputed" in problems[0]["problem"]


def test_value_past_the_certificate_is_checked_by_the_period(copy):
    """Sampling recomputes only the prefix the certificate needs (1024 values of 0.07); once the
    certificate holds, the period proves every later value, so a change at 4000 is caught."""
    _tampered_chunk(copy, "grundy:0.07", 4000)
    with open_store(copy) as store:
        result = verify_store(store)
    assert [p["key"] for p in result["problems"]] == ["sequence 'grundy:0.07', index 4000"], result["problems"]
    assert "the certified period gives" in result["problems"][0]["problem"]


def test_uncertified_sequence_value_far_out(copy):
    _tampered_chunk(copy, "grundy:0.77", 2999, delta=3)
    assert [p["key"] for p in _problems(copy)] == ["sequence 'grundy:0.77', index 2999"]


def test_periodicity_certificate(copy):
    meta = json.loads(_one(copy, "SELECT meta FROM sequences WHERE key = 'grundy:0.07'")[0])
    meta["periodicity"]["preperiod"] = 40
    _sql(copy, "UPDATE sequences SET meta = ? WHERE key = 'grundy:0.07'", json.dumps(meta))
    problems = _problems(copy)
    assert any(p["key"] == "sequence 'grundy:0.07', column meta" and "periodicity certificate" in p["problem"]
               for p in problems), problems


def test_quotient_entry(copy):
    meta = json.loads(_one(copy, "SELECT meta FROM sequences WHERE key = 'quotient:0.07'")[0])
    rec = meta["misere_quotient"]
    rec["phi"][5] = (rec["phi"][5] + 1) % rec["order"]
    _sql(copy, "UPDATE sequences SET meta = ? WHERE key = 'quotient:0.07'", json.dumps(meta))
    problems = _problems(copy)
    assert [p["key"] for p in problems] == ["sequence 'quotient:0.07', column meta"], problems
    assert "misère quotient" in problems[0]["problem"]


def _relation(path, name):
    row = _one(path, "SELECT form_id, other_id, value FROM form_relations WHERE name = ? AND value LIKE ?",
               name, '%"holds":true%')
    return row[0], row[1], json.loads(row[2])


def test_proof_witness(copy):
    g, h, value = _relation(copy, "misere_equivalent")
    nodes = value["certificate"]["certificate"]["nodes"]
    step = next(n for n in nodes if n["i"])
    step["i"][0]["option"] = "*7"  # a witness that is no option
    _sql(copy, "UPDATE form_relations SET value = ? WHERE form_id = ? AND other_id = ? AND name = 'misere_equivalent'",
         json.dumps(value), g, h)
    problems = _problems(copy)
    assert [p["key"] for p in problems] == [f"forms ({g}, {h}), relation 'misere_equivalent'"], problems
    assert "proof checker rejects" in problems[0]["problem"]


def test_verdict_flipped(copy):
    g, h, value = _relation(copy, "normal_equivalent")
    value["holds"] = False
    _sql(copy, "UPDATE form_relations SET value = ? WHERE form_id = ? AND other_id = ? AND name = 'normal_equivalent'",
         json.dumps(value), g, h)
    assert [p["key"] for p in _problems(copy)] == [f"forms ({g}, {h}), relation 'normal_equivalent'"]


def _position(path, ruleset, position, name):
    return _one(path, "SELECT p.id FROM positions p JOIN position_properties q ON q.position_id = p.id "
                      "WHERE p.ruleset = ? AND p.position = ? AND q.name = ?", ruleset, position, name)[0]


def test_partizan_value(copy, capsys):
    pid = _position(copy, "partizan:domineering", "...|...", "canonical_form")
    _sql(copy, "UPDATE position_properties SET value = '\"5\"' WHERE position_id = ? AND name = 'canonical_form'", pid)
    problems = _problems(copy)
    assert [p["key"] for p in problems] == [f"position {pid} (partizan:domineering ...|...), property 'canonical_form'"]
    assert problems[0]["stored"] == "5" and problems[0]["recomputed"] == "{2|-1/2}"
    capsys.readouterr()
    assert _run(copy, "store", "verify", "--full") == 1
    assert "canonical_form" in capsys.readouterr().out


def test_partizan_misere_outcome(copy):
    # `cgtalg value` stores the misère outcome of the position beside its canonical form
    pid = _position(copy, "partizan:domineering", "...|...", "misere_outcome")
    stored = json.loads(_one(copy, "SELECT value FROM position_properties WHERE position_id = ? "
                                   "AND name = 'misere_outcome'", pid)[0])
    flipped = {"L": "R", "R": "L", "N": "P", "P": "N"}[stored]
    _sql(copy, "UPDATE position_properties SET value = ? WHERE position_id = ? AND name = 'misere_outcome'",
         json.dumps(flipped), pid)
    problems = _problems(copy)
    assert [p["key"] for p in problems] == [f"position {pid} (partizan:domineering ...|...), property 'misere_outcome'"]
    assert problems[0]["recomputed"] == stored


def test_solution_outcome_flipped(copy):
    pid = _position(copy, "parity", "7", "solution")
    value = json.loads(_one(copy, "SELECT value FROM position_properties WHERE position_id = ? AND name = 'solution'", pid)[0])
    assert value["outcome"] == "N"
    value["outcome"] = "P"
    _sql(copy, "UPDATE position_properties SET value = ? WHERE position_id = ? AND name = 'solution'", json.dumps(value), pid)
    problems = _problems(copy)
    assert [p["key"] for p in problems] == [f"position {pid} (parity 7), property 'solution'"], problems


def test_form_property(copy):
    with open_store(copy) as store:
        import cgtalg as cg

        fid = store.form_id(cg.parse("{*2,*3}"))
    _sql(copy, "UPDATE form_properties SET value = '5' WHERE form_id = ? AND name = 'grundy'", fid)
    problems = _problems(copy)
    assert [p["key"] for p in problems] == [f"form {fid}, property 'grundy'"]
    assert "stored value 5, recomputed 0" in problems[0]["problem"]


def test_census_certificate(copy):
    pid = _position(copy, "census:octal", "0.137", "normal")
    value = json.loads(_one(copy, "SELECT value FROM position_properties WHERE position_id = ? AND name = 'normal'", pid)[0])
    value["period"] = 17
    _sql(copy, "UPDATE position_properties SET value = ? WHERE position_id = ? AND name = 'normal'", json.dumps(value), pid)
    problems = _problems(copy)
    assert [p["key"] for p in problems] == [f"position {pid} (census:octal 0.137), property 'normal'"], problems


def test_genus_record(copy):
    pid = _position(copy, "misere:0.77", "5", "genus")
    _sql(copy, "UPDATE position_properties SET value = ? WHERE position_id = ? AND name = 'genus'",
         json.dumps({"g": 0, "gammas": [1, 2, 0], "genus": "0^120"}), pid)
    assert [p["key"] for p in _problems(copy)] == [f"position {pid} (misere:0.77 5), property 'genus'"]


def test_time_budget_stops_with_what_was_found(copy, capsys):
    with open_store(copy) as store:
        result = verify_store(store, sample=None, max_seconds=1e-6)
    assert not result["complete"] and "time budget" in result["stopped"]
    capsys.readouterr()
    assert _run(copy, "store", "verify", "--full", "--time", "0.000001") == 2
    assert "stopped before the end" in capsys.readouterr().out


def test_tables_are_streamed_in_pages(built):
    """Keyset pagination returns every row once, in key order, whatever the page size."""
    from sqlalchemy import select

    from cgtalg.store.schema import form_properties
    from cgtalg.store.verify import stream_rows

    fp = form_properties.c
    with open_store(built) as store:
        paged = [tuple(r) for r in stream_rows(store, [fp.form_id, fp.name], [fp.form_id, fp.name], batch=3)]
        with store._transaction() as conn:
            whole = [tuple(r) for r in conn.execute(select(fp.form_id, fp.name).order_by(fp.form_id, fp.name))]
    assert paged == whole and len(whole) > 3


def test_sample_is_bounded_per_kind_and_seeded(built):
    with open_store(built) as store:
        a = verify_store(store, sample=2, seed=5)
        b = verify_store(store, sample=2, seed=5)
    assert a["ok"] and a["checked"] == b["checked"]
    assert a["checked"]["forms"] == 2
    assert a["checked"]["form_properties"] <= 2 * 9  # nine property names stored by describe
    assert a["checked"]["form_relations"] <= 2 * 2


def test_postgresql_store_verifies_and_names_a_tampered_value(pg_url):
    import sqlalchemy as sa

    for args in (["game", "{*2,*3}"], ["value", "domineering", "2x3"], ["solve", "parity", "7"],
                 ["equiv", "--misere", "*+*2", "*3"], ["period", "0.07"]):
        assert _run(pg_url, *args) == 0, args
    with open_store(pg_url) as store:
        result = verify_store(store, sample=None)
    assert result["ok"], result["problems"]
    assert result["checked"]["proofs_rechecked"] and result["checked"]["certificates_rechecked"]
    engine = sa.create_engine(pg_url)
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE position_properties SET value = '\"5\"' WHERE name = 'canonical_form'"))
    engine.dispose()
    with open_store(pg_url) as store:
        problems = verify_store(store, sample=None)["problems"]
    assert len(problems) == 1 and problems[0]["key"].endswith("(partizan:domineering ...|...), property 'canonical_form'")


def test_unsolved_census_record(copy):
    """An unsolved record carries no certificate: its largest value is recomputed."""
    pid, code, name, text = _one(copy, "SELECT p.id, p.position, q.name, q.value FROM positions p JOIN position_properties q "
                                 "ON q.position_id = p.id WHERE p.ruleset = 'census:octal' AND q.name LIKE 'normal:%'")
    value = json.loads(text)
    assert value["status"] == "unsolved"
    value["max_value"] += 1
    _sql(copy, "UPDATE position_properties SET value = ? WHERE position_id = ? AND name = ?", json.dumps(value), pid, name)
    problems = _problems(copy)
    assert [p["key"] for p in problems] == [f"position {pid} (census:octal {code}), property {name!r}"], problems


def test_stale_rows_are_skipped_not_failures(tmp_path, monkeypatch):
    """A row written by an older version of its algorithm is not served and not a failure of
    ``store verify``: it is counted among the skipped rows as stale."""
    import cgtalg as cg
    from cgtalg.store import ALGORITHM_VERSIONS, open_store
    from cgtalg.store.verify import verify_store

    store = open_store(str(tmp_path / "s.sqlite"))
    store.put(cg.parse("{*2,*3}"), "grundy", 5)  # wrong, and written by "version 1"
    monkeypatch.setitem(ALGORITHM_VERSIONS, "grundy", 2)
    report = verify_store(open_store(str(tmp_path / "s.sqlite")), sample=None)
    report = report if isinstance(report, dict) else report.to_json()
    assert not report["problems"]
    assert "stale" in json.dumps(report["skipped"])
    monkeypatch.setitem(ALGORITHM_VERSIONS, "grundy", 1)
    report = verify_store(open_store(str(tmp_path / "s.sqlite")), sample=None)
    report = report if isinstance(report, dict) else report.to_json()
    assert report["problems"]  # current again: the wrong value is found


@pytest.mark.parametrize("code, field, bad", [("0.123", "order", 21), ("0.123", "period", [5, 4]),
                                              ("0.137", "p_count", 1)])
def test_quotient_census_record(copy, code, field, bad):
    """A class record of the misère quotient census is recomputed from the rules: a tampered
    order, period or |P| is named by its row (0.123: order 20, Φ periodic from 5 with period 5,
    Plambeck & Siegel 2008; 0.07's class is 0.137, unsettled within its 2 s)."""
    pid, name, text = _one(copy, "SELECT p.id, q.name, q.value FROM positions p JOIN position_properties q "
                           "ON q.position_id = p.id WHERE p.ruleset = 'census:octal' AND p.position = ? "
                           "AND q.name LIKE 'quotient_census:%'", code)
    value = json.loads(text)
    assert value[field] != bad
    value[field] = bad
    _sql(copy, "UPDATE position_properties SET value = ? WHERE position_id = ? AND name = ?", json.dumps(value), pid, name)
    problems = _problems(copy)
    assert [p["key"] for p in problems] == [f"position {pid} (census:octal {code}), property {name!r}"], problems
