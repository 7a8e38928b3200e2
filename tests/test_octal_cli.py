"""The heap-game CLI commands: grundy, period, cousin, outcome (text and --json)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from cgtalg.cli.main import cli, main


def run(*args):
    r = CliRunner().invoke(cli, list(args), obj={})
    assert r.exit_code == 0, r.output
    return r.output


def test_grundy_text_and_json():
    out = run("grundy", "0.77", "-n", "24")
    assert "0:  0  1  2  3  1  4  3  2  1  4  2  6  4  1  2  7  1  4  3  2  1  4  6  7" in out
    d = json.loads(run("grundy", "0.77", "-n", "1e2", "--json"))
    assert d["n"] == 100 and d["values"][:12] == [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
    assert d["method"] == "sparse" and "popcount" in d["sparse_space"]
    d = json.loads(run("grundy", "S(1,3,4)", "-n", "7", "--json"))
    assert d["values"] == [0, 1, 0, 1, 2, 3, 2] and d["method"] == "naive"


def test_grundy_plot(tmp_path):
    png = tmp_path / "officers.png"
    out = run("grundy", "0.6", "-n", "3000", "--plot", str(png))
    assert png.stat().st_size > 10_000 and f"plot written to {png}" in out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_period():
    out = run("period", "0.77")
    assert "0.77: CERTIFIED period 12, preperiod 71" in out
    d = json.loads(run("period", "0.16", "--json"))
    # Gangolli & Plambeck (1989): 0.16 has period 149459, last exceptional value at heap 105350
    assert (d["period"], d["preperiod"], d["certified"]) == (149459, 105351, True)
    d = json.loads(run("period", "0.[3]", "--max-values", "500", "--json"))
    # issue 7: an uncertified result states no period as a fact, only what was seen
    assert d["status"] == "detected" and d["certified"] is False
    assert (d["seen_period"], d["seen_saltus"], d["seen_preperiod"]) == (1, 1, 0)
    assert d["period"] is None and d["saltus"] is None and d["last_exceptional"] is None


def test_cousin():
    out = run("cousin", "0.0423")
    assert "0.0423 -> 0.0073 -> 0.0137 -> 0.11337" in out and "shift 3" in out
    d = json.loads(run("cousin", "0.07", "--json"))
    assert d == {"code": "0.07", "first_cousin": "0.137", "standard_form": "0.137", "shift": 1,
                 "chain": ["0.07", "0.137"]}
    assert "is its own standard form" in run("cousin", "0.77")


def test_outcome():
    out = run("outcome", "0.77", "5", "9", "1000000")
    assert "N: the player to move wins" in out and "heap #2 (1000000): take" in out
    d = json.loads(run("outcome", "0.77", "5", "9", "1e12", "--json"))
    assert d["outcome"] == "N" and d["winning_move_count"] > 10**10
    assert any(m.get("stride") == 12 for m in d["winning_moves"])
    d = json.loads(run("outcome", "0.77", "1", "1", "--json"))
    assert d["outcome"] == "P" and d["winning_moves"] == []


def test_errors_exit_2(capsys):
    assert main(["grundy", "0.8"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cgtalg: error: bad octal code '0.8' at position 2 ('8')")
    assert main(["outcome", "0.77", "1", "x"]) == 2
    assert main(["cousin", "0.77", "--json"]) == 0


def test_store_option(tmp_path):
    url = str(tmp_path / "cli.sqlite")
    r = CliRunner().invoke(cli, ["--store", url, "grundy", "0.137", "-n", "500", "--json"], obj={})
    assert r.exit_code == 0, r.output
    from cgtalg.store import open_store

    s = open_store(url)
    assert s.sequence_length("grundy:0.137") == 500
    s.close()
