"""tools/publish_quotient_census.py: a later run's rows replace the published ones, code by code."""

import gzip
import json
from pathlib import Path
from conftest import load_tool

ROOT = Path(__file__).resolve().parents[1]


def _tool():
    return load_tool("publish_quotient_census")


def test_later_sources_replace_rows_and_gzip_is_read(tmp_path):
    tool = _tool()
    old = {"census": {"parts": [{"codes": 3}]},
           "rows": [{"code": "0.7", "status": "tame"}, {"code": "0.143", "status": "unsettled"},
                    {"code": "0.77", "status": "wild-finite"},
                    {"code": "0.106", "status": "unsettled", "heaps": 21, "lower_bound": 4062},
                    {"code": "0.35", "status": "unsettled", "heaps": 29}]}
    new = {"census": {"codes": 1}, "rows": [{"code": "0.143", "status": "infinite"},
                                            {"code": "0.77", "status": "failed"},
                                            {"code": "0.106", "status": "unsettled", "heaps": 21},
                                            {"code": "0.35", "status": "unsettled", "heaps": 52}]}
    a = tmp_path / "old.json.gz"
    with gzip.open(a, "wt") as fh:
        json.dump(old, fh)
    b = tmp_path / "new.json"
    b.write_text(json.dumps(new))
    docs = [tool._read(str(a)), tool._read(str(b))]
    rows = tool._latest_rows(docs)
    assert [(r["code"], r["status"]) for r in rows] == [("0.7", "tame"), ("0.143", "infinite"),
                                                        ("0.77", "wild-finite"), ("0.106", "unsettled"),
                                                        ("0.35", "unsettled")]
    kept = {r["code"]: r for r in rows}
    assert kept["0.106"].get("lower_bound") == 4062      # the stronger statement stays
    assert kept["0.35"]["heaps"] == 52                   # a larger N replaces a smaller


def test_the_published_table_reads_back_whole():
    tool = _tool()
    doc = tool._read(str(ROOT / "docs" / "data" / "quotient_census.json.gz"))
    rows = tool._latest_rows([doc])
    assert len(rows) == 575 and len({r["code"] for r in rows}) == 575
    assert tool.class_disagreements(rows) == []           # every class's codes state one result


def _row(code, shift, cousins, stopped, heaps, bound):
    return {"code": code, "standard_form": "0.1777", "shift": shift, "cousins": cousins, "status": "unsettled",
            "stopped": stopped, "order": 2242, "heaps": heaps, "bound_heap": heaps + 1, "lower_bound": bound}


def test_a_run_over_part_of_a_class_is_refused(tmp_path):
    """A run of `--codes 0.454` alone (one code of the class 0.1777) replaced that code's row
    only: the class's codes then stated different stop reasons and bounds, and the new row had no
    cousins (the eighteenth session published 0.024 'limit' beside 0.025 'time' this way).
    The publisher refuses such a table and names the codes to run together."""
    tool = _tool()
    old = {"census": {"parts": []},
           "rows": [_row("0.454", 1, ["0.455"], "time", 45, 3370), _row("0.455", 1, ["0.454"], "time", 45, 3370),
                    _row("0.1777", 0, [], "time", 44, 3370)]}
    assert tool.class_disagreements(old["rows"]) == [
        "class 0.1777: the rows of 0.1777, 0.454, 0.455 miss cousins (a run over some codes of the class); run "
        "them together: --codes 0.1777,0.454,0.455"]
    old["rows"][0]["cousins"], old["rows"][1]["cousins"] = ["0.455", "0.1777"], ["0.454", "0.1777"]
    old["rows"][2]["cousins"] = ["0.454", "0.455"]
    assert tool.class_disagreements(old["rows"]) == []      # heaps compared on the standard form
    part = {"census": {"codes": 1}, "rows": [_row("0.454", 1, [], "limit", 45, 5794)]}
    rows = tool._latest_rows([old, part])
    got = tool.class_disagreements(rows)
    assert len(got) == 1 and got[0].endswith("--codes 0.1777,0.454,0.455")
    whole = {"census": {"codes": 3}, "rows": [_row("0.454", 1, ["0.455", "0.1777"], "limit", 45, 5794),
                                              _row("0.455", 1, ["0.454", "0.1777"], "limit", 45, 5794),
                                              _row("0.1777", 0, ["0.454", "0.455"], "limit", 44, 5794)]}
    assert tool.class_disagreements(tool._latest_rows([old, part, whole])) == []
    a, b = tmp_path / "old.json", tmp_path / "part.json"
    a.write_text(json.dumps(old))
    b.write_text(json.dumps(part))
    out = tmp_path / "out"
    try:
        tool.main(["--store", str(tmp_path / "s.sqlite"), "--from", str(a), str(b), "--out", str(out)])
    except SystemExit as exc:
        assert "run them together: --codes 0.1777,0.454,0.455" in str(exc)
    else:
        raise AssertionError("a table with a class in two states was written")
    assert not out.exists()                               # not even the directory
