"""``cgtalg loopy`` and loopy games in the store: the report (values from Winning Ways ch. 11
and CGSuite's SidedValueTestCase), the records kept under the ruleset key ``loopy`` and read back
the second time, ``store verify`` recomputing them and naming a tampered row."""

from __future__ import annotations

import json
import sqlite3

from click.testing import CliRunner

import cgtalg as cg
from cgtalg.cli.main import cli, main
from cgtalg.store import open_store
from cgtalg.store.loopy import LOOPY_RULESET, loopy_outcome_record, loopy_value_record, stored_loopy
from cgtalg.store.verify import verify_store


def run(*args, code=0):
    r = CliRunner().invoke(cli, list(args), obj={})
    assert r.exit_code == code, r.output
    return r.output


def test_cli_report_json(tmp_path):
    url = f"sqlite:///{tmp_path / 's.db'}"
    d = json.loads(run("--store", url, "loopy", "dud", "over", "on + off", "{0|{dud|},*}", "--json"))
    dud, over, sum_, hat = d["games"]
    # Winning Ways ch. 11: dud is a draw, = on & off = on + off; over is a stopper, Left wins
    assert (dud["outcome"], dud["stopper"], dud["sides"]) == ("D", False, "dud")  # CGSuite prints on & off as dud
    assert (over["outcome"], over["stopper"], over["canonical_stopper"]) == ("L", True, "over")
    assert sum_["graph"] == "dud"
    # CGSuite SidedValueTestCase: {0|{dud|},*} = ^ & v*, outcome NHat
    assert (hat["outcome"], hat["onside"], hat["offside"]) == ("NHat", "^", "v*")
    rel = {(p["g"], p["h"]): p["relation"] for p in d["comparisons"]}
    assert rel[("dud", "on + off")] == "=" and rel[("dud", "over")] == "||"
    # the records were stored, and the second run reads them
    with open_store(url) as store:
        keys = {g.key for g in stored_loopy(store)}
        assert cg.parse_loopy("dud").key in keys and cg.parse_loopy("over").key in keys
        before = store.stats["hits"]
        assert loopy_value_record("dud", store)["sides"] == "dud"
        assert store.stats["hits"] == before + 1


def test_cli_human_text_and_errors(capsys):
    out = run("loopy", "upon", "*", "--no-store")
    assert "outcome           L  (Left first: Left wins; Right first: Left wins)" in out
    assert "upon  ||  *" in out
    out = run("loopy", "a{0,{1|1,{*,{1+*|1+*,a}|*}}|0}", "--no-store")  # Bach's Carousel
    assert "sides             not found" in out
    capsys.readouterr()
    assert main(["loopy", "{0|pass", "--no-store"]) != 0
    assert "missing '}'" in capsys.readouterr().err


def test_store_verify_recomputes_loopy_records(tmp_path):
    path = tmp_path / "v.sqlite"
    assert main(["--store", str(path), "loopy", "tis", "upon - upon", "+-{0|pass}"]) == 0
    with open_store(path) as store:
        result = verify_store(store, sample=None)
    assert result["complete"] and not result["problems"], result["problems"]
    assert result["checked"].get("position_values_recomputed", 0) >= 6
    # a tampered outcome record is caught and named by its row
    key = cg.parse_loopy("tis").key
    con = sqlite3.connect(path)
    with con:
        pid = con.execute("SELECT id FROM positions WHERE ruleset = ? AND position = ?",
                          (LOOPY_RULESET, key)).fetchone()[0]
        bad = json.dumps({"outcome": "L", "left_first": "L", "right_first": "L"})
        con.execute("UPDATE position_properties SET value = ? WHERE position_id = ? AND name = 'loopy_outcome'",
                    (bad, pid))
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    with open_store(path) as store:
        problems = verify_store(store, sample=None)["problems"]
    assert [p["key"] for p in problems] == [f"position {pid} (loopy {key}), property 'loopy_outcome'"]
    assert "PHat" in str(problems[0]["recomputed"])


def test_records_without_a_store():
    assert loopy_outcome_record("tisn") == {"outcome": "PCheck", "left_first": "R", "right_first": "D"}
    v = loopy_value_record("over")
    assert v["stopper"] and cg.loopy_game([((1,), (0,)), ((), ())]).key == v["canonical"]
