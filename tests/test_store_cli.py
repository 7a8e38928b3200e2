"""``cgtalg store path|info|query``, with and without ``--json``, through the real entry point.

Stores live in ``tmp_path``; ``CGTALG_STORE`` and ``XDG_DATA_HOME`` point there too.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3

import pytest

import cgtalg as cg
from cgtalg.cli.main import main
from cgtalg.store import open_store


@pytest.fixture(autouse=True)
def _private_store_env(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("CGTALG_STORE", str(tmp_path / "env-store.sqlite"))


@pytest.fixture
def filled(tmp_path):
    """A store holding {*2} (grundy 0, misère grundy 0; Winning Ways ch. 13: {*2} is a
    misère P-position, as every option *2 is an N-position), one position, one sequence."""
    path = tmp_path / "filled.sqlite"
    G = cg.parse("{*2}")
    with open_store(str(path)) as s:
        s.put(G, "grundy", cg.grundy(G))
        s.put(G, "misere_grundy", cg.misere_grundy(G))
        s.put(cg.nim(3), "grundy", 3)
        s.put_position("parity", "5", "grundy", 0)
        s.extend_sequence("grundy:0.123", 0, [0, 1, 0, 2, 2])
    return path


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_path_human_and_json(capsys, tmp_path):
    code, out, _ = run(capsys, "store", "path")
    assert code == 0 and out == f"{tmp_path / 'env-store.sqlite'}\n"
    code, out, _ = run(capsys, "--store", str(tmp_path / "x.sqlite"), "store", "path", "--json")
    data = json.loads(out)
    assert data == {
        "location": str(tmp_path / "x.sqlite"),
        "url": f"sqlite:///{tmp_path / 'x.sqlite'}",
        "source": "--store",
        "exists": False,
        "user_store": str(tmp_path / "xdg" / "cgtalg" / "store.sqlite"),
    }
    assert not (tmp_path / "x.sqlite").exists()  # `path` creates nothing
    code, out, _ = run(capsys, "--store", "postgresql://cgt:pw@db/census", "store", "path", "--json")
    data = json.loads(out)
    assert data["location"] == "postgresql://cgt:***@db/census" and data["exists"] is None


def test_path_defaults(capsys, tmp_path, monkeypatch):
    monkeypatch.delenv("CGTALG_STORE")
    code, out, _ = run(capsys, "store", "path", "--json")
    data = json.loads(out)
    assert data["source"] == "user data directory"
    assert data["location"] == str(tmp_path / "xdg" / "cgtalg" / "store.sqlite")


def test_info(capsys, filled):
    code, out, _ = run(capsys, "--store", str(filled), "store", "info")
    assert code == 0
    assert out.splitlines() == [
        f"store:      {filled}",
        "backend:    sqlite",
        "revision:   0003 (newest)",
        "forms:      3",  # *2, {*2}, *3 (nim-heaps are keyed by size: 0 and * are not needed)
        "properties: grundy 2, misere_grundy 1",
        "relations:  none",
        "positions:  1 (properties: grundy 1)",
        "sequences:  1 (5 values)",
        "provenance: 5 results, 0 stale",
    ]
    code, out, _ = run(capsys, "--store", str(filled), "store", "info", "--json")
    data = json.loads(out)
    assert {(r["table"], r["name"], r["rows"], r["current"]) for r in data["provenance"]} == {
        ("form_properties", "grundy", 2, True), ("form_properties", "misere_grundy", 1, True),
        ("position_properties", "grundy", 1, True), ("sequences", "sequence:grundy", 1, True)}
    assert data["forms"] == 3 and data["properties"] == {"grundy": 2, "misere_grundy": 1}
    assert data["revision"] == data["head"] == "0003" and data["location"] == str(filled)
    assert data["sequences"] == 1 and data["sequence_values"] == 5


def test_info_uses_cgtalg_store_env(capsys, tmp_path):
    code, out, _ = run(capsys, "store", "info", "--json")
    assert json.loads(out)["location"] == str(tmp_path / "env-store.sqlite")


def test_query_form(capsys, filled):
    code, out, _ = run(capsys, "--store", str(filled), "store", "query", "*[2#]")
    assert code == 0
    assert out.splitlines() == [
        "{*2}  (form 2)",
        "  grundy         0",
        "  misere_grundy  0",
    ]
    code, out, _ = run(capsys, "--store", str(filled), "store", "query", "{*2}", "--json")
    data = json.loads(out)
    assert data["found"] is True and data["store"] == str(filled)
    assert data["results"] == [
        {"kind": "form", "form_id": 2, "game": "{*2}", "properties": {"grundy": 0, "misere_grundy": 0}}
    ]


def test_query_absent_form(capsys, filled):
    code, out, _ = run(capsys, "--store", str(filled), "store", "query", "{*5}")
    assert code == 0 and out == f"{{*5}} is not in the store ({filled})\n"
    code, out, _ = run(capsys, "--store", str(filled), "store", "query", "{*5}", "--json")
    data = json.loads(out)
    assert data["found"] is False and data["results"] == []
    code, out, _ = run(capsys, "--store", str(filled), "store", "query", "*2")  # a subposition
    assert out.splitlines() == ["*2  (form 1)", "  (no properties stored)"]


def test_query_by_property_value(capsys, filled):
    code, out, _ = run(capsys, "--store", str(filled), "store", "query", "--property", "grundy", "--value", "0")
    assert code == 0
    assert out.splitlines() == [
        "{*2}  (form 2)",
        "  grundy         0",
        "  misere_grundy  0",
        "parity position 5",
        "  grundy  0",
    ]
    code, out, _ = run(capsys, "--store", str(filled), "store", "query", "--property", "grundy", "--json")
    data = json.loads(out)
    assert [e.get("game", e.get("position")) for e in data["results"]] == ["{*2}", "*3", "5"]
    code, out, _ = run(capsys, "--store", str(filled), "store", "query", "--property", "grundy", "--value", "7")
    assert out == f"nothing in the store has grundy = 7 ({filled})\n"


def test_query_usage_errors(capsys, filled):
    code, _, err = run(capsys, "--store", str(filled), "store", "query")
    assert code == 2 and "give game TEXT or --property NAME" in err
    code, _, err = run(capsys, "--store", str(filled), "store", "query", "--value", "0")
    assert code == 2 and "--value needs --property NAME" in err
    code, _, err = run(capsys, "--store", str(filled), "store", "query", "{*2")
    assert code == 2 and err.startswith("cgtalg: error: bad game notation '{*2' at position 3")


def test_refused_stores_exit_2_untouched(capsys, tmp_path, filled):
    con = sqlite3.connect(filled)
    con.execute("UPDATE alembic_version SET version_num = '0099'")
    con.commit()
    con.close()
    before = hashlib.sha256(filled.read_bytes()).hexdigest()
    code, out, err = run(capsys, "--store", str(filled), "store", "info")
    assert code == 2 and out == ""
    assert err.startswith(f"cgtalg: error: the store {filled} has schema revision '0099'")
    assert hashlib.sha256(filled.read_bytes()).hexdigest() == before
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not a database" * 10)
    code, out, err = run(capsys, "--store", str(junk), "store", "query", "{*2}", "--json")
    # issue 7: under --json a failure is a JSON error object on stdout
    error = json.loads(out)["error"]
    assert code == 2 and f"the store file {junk} is not a readable SQLite database" in error["message"]
    assert junk.read_bytes() == b"this is not a database" * 10
