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
