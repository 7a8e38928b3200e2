"""Census rows settled by a largest-heap rule (cgtalg.referee.heap_rule): the row the publishing
tool makes (tools/publish_quotient_census.py --rules), the census referee's check of it, rows
edited to false claims, and the tool that finds and proves a rule (tools/largest_heap_rule.py)."""

from __future__ import annotations

import copy
import gzip
import json
from pathlib import Path

import pytest

from conftest import load_tool
from cgtalg.referee.census import check_row

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "docs" / "data"


def _published(code: str) -> dict:
    with gzip.open(DATA / "quotient_census.json.gz", "rt", encoding="utf-8") as fh:
        return next(r for r in json.load(fh)["rows"] if r["code"] == code)


def _unsettled(code: str) -> dict:
    """The row as the census computes it (unsettled, its partial quotient stated)."""
    row = copy.deepcopy(_published(code))
    row.update(status="unsettled", stopped="time", certificate=None, heaps=58, order=450, p_count=106,
               result="unsettled at 58", infinite_from=None)
    return row


@pytest.fixture(scope="module")
def ruled():
    """The rows of 0.734 and 0.735 after ``--rules`` with 0.734's rule (checked once)."""
    pub = load_tool("publish_quotient_census")
    return pub.apply_rules([_unsettled("0.734"), _unsettled("0.735")], [str(DATA / "largest_heap_rules" / "0.734.json")])


def test_the_rule_row_passes_the_census_referee(ruled):
    row, other = copy.deepcopy(ruled)
    assert row["status"] == "infinite" and row["infinite_from"] is None and row["order"] is None
    assert other["status"] == "unsettled"           # another standard form: untouched
    vd = check_row(row)
    assert vd.ok, str(vd)
    assert any("every misère outcome of 0.734 follows the rule" in r for r in vd.reasons)


def test_rule_rows_edited_to_false_claims_are_refused(ruled):
    row = ruled[0]
    edits = []
    for key, value in (("infinite_from", 59), ("order", 450), ("heaps", 58)):
        e = copy.deepcopy(row)
        e[key] = value
        edits.append((key, e))
    e = copy.deepcopy(row)
    e["certificate"]["infinite"] = json.loads((DATA / "largest_heap_rules" / "0.735.json").read_text())
    edits.append(("another game's rule", e))
    e = copy.deepcopy(row)
    e["certificate"]["infinite"]["rule"]["P"].remove(["r", 3, 1, 7])     # {7, 1} is P in play
    edits.append(("a false rule", e))
    e = copy.deepcopy(row)
    e["certificate"]["infinite"]["family"]["block"] = [2]
    edits.append(("a family that tells nothing apart", e))
    for what, e in edits:
        assert not check_row(e).ok, what


def test_a_refused_rule_is_not_published(tmp_path):
    pub = load_tool("publish_quotient_census")
    bad = json.loads((DATA / "largest_heap_rules" / "0.734.json").read_text())
    bad["rule"]["P"].remove(["r", 3, 1, 7])
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(bad))
    with pytest.raises(SystemExit, match="refuses"):
        pub.apply_rules([_unsettled("0.734")], [str(f)])


def test_an_unsettled_row_does_not_replace_a_settled_one(ruled):
    pub = load_tool("publish_quotient_census")
    settled = ruled[0]
    later = _unsettled("0.734")
    rows = pub._latest_rows([{"rows": [settled]}, {"rows": [later]}])
    assert rows[0]["status"] == "infinite"
    rows = pub._latest_rows([{"rows": [later]}, {"rows": [settled]}])
    assert rows[0]["status"] == "infinite"


def test_the_tool_proves_0735_and_reports_what_it_tried(tmp_path, capsys):
    tool = load_tool("largest_heap_rule")
    out = tmp_path / "r.json"
    assert tool.main(["0.735", "--search", "1", "--tokens", "20", "--out", str(out), "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["proved"] and res["weights"] == [0, 1, 0, 1]
    # read off 20 tokens, (0, 1, 0, 0) fits too, comes first and is refused by the referee
    tried = {tuple(t["weights"]): t for t in res["tried"]}
    assert "conflict" in tried[(0, 0, 0, 0)]
    assert tried[(0, 1, 0, 0)]["referee"] is False
    assert json.loads(out.read_text())["game"] == "0.735"
    assert tool.main(["0.337", "--search", "1", "--tokens", "14"]) == 1
    assert "no largest-heap rule proved" in capsys.readouterr().out
    assert tool.main(["0.7x4"]) == 2
    assert tool.main(["0.734", "--tokens", "2"]) == 2


def _rule_doc(code: str = "0.734") -> dict:
    return json.loads((DATA / "largest_heap_rules" / f"{code}.json").read_text())


def test_a_census_rule_record_makes_the_row_the_publishing_tool_makes(ruled):
    from cgtalg.census.quotient_table import quotient_row

    rec = {"status": "infinite", "rule": _rule_doc(), "heaps": None, "order": None, "p_count": None, "growth": None}
    row = quotient_row("0.734", 0, ["0.734"], "0.734", rec, "computed").to_json()
    assert row["result"] == "infinite (largest-heap rule)"
    # the row ``ruled`` holds passed the census referee (test above): the same claims and certificate
    for key in ("status", "infinite_from", "heaps", "order", "p_count", "growth", "certificate", "stopped"):
        assert row[key] == ruled[0][key], key


def test_a_census_rule_record_edited_is_refused_on_recheck():
    from cgtalg.census.quotients import _recheck_rule, recheck_quotient_record

    base = {"status": "infinite", "rule": _rule_doc(), "heaps": None, "order": None, "p_count": None, "growth": None}
    claims = dict(base, heaps=58)
    assert "proves no heap" in recheck_quotient_record("0.734", claims, None)
    flipped = copy.deepcopy(base)
    flipped["rule"]["rule"]["P"].remove(["r", 1, 1, 1])
    assert "referee refuses" in _recheck_rule("0.734", flipped)
    assert "not 0.77" in _recheck_rule("0.77", base)          # 0.734's rule as Kayles's record


@pytest.mark.slow
def test_the_census_proves_0734_by_its_rule_and_reuses_it(tmp_path):
    from cgtalg.census.quotients import quotient_census
    from cgtalg.referee.census import check_row as referee_row
    from cgtalg.store import open_store

    st = open_store(str(tmp_path / "c.sqlite"))
    first = quotient_census(codes=["0.734"], class_seconds=5.0, store=st, scheduler="serial")
    row = first.rows[0]
    assert row.status == "infinite" and row.infinite_from is None and row.source == "computed"
    assert referee_row(row.to_json()).ok
    again = quotient_census(codes=["0.734"], class_seconds=5.0, store=st, scheduler="serial")
    assert again.rows[0].status == "infinite" and again.rows[0].source != "computed"
