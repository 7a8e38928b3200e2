"""``cgtalg quotient`` and ``cgtalg outcome --misere`` (issue 10), checked against seed 000
(Plambeck, ".123": Example 1, {9, 8, 5, 3} with the winning moves 8 -> 5, 5 -> 3, 3 -> 1) and
Plambeck–Siegel's partial quotients of Dawson's Kayles (|Q_14(0.07)| = 24)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cgtalg.cli.main import cli, main
from cgtalg.quotients.state import forget_known


@pytest.fixture
def url(tmp_path):
    return f"sqlite:///{tmp_path / 's.db'}"


def run(*args):
    forget_known()          # each command as in a new process
    r = CliRunner().invoke(cli, list(args), obj={})
    assert r.exit_code == 0, r.output
    return r.output


def test_quotient_0123_text(url):
    out = run("--store", url, "quotient", "0.123")
    assert "|Q| = 20, |P| = 5" in out
    assert "P = {a, b², c, ad, be}" in out
    assert "Φ = 1 a 1 b b [a c 1 d e]" in out
    assert "periodic from heap 5 with period 5, checked to heap 24" in out
    assert "Q = ⟨a,b,c,d,e | a²=1," in out


def test_quotient_0123_json_and_store(url):
    d = json.loads(run("--store", url, "quotient", "0.123", "--json"))
    assert (d["order"], d["final"], d["period"], d["checked_to"]) == (20, True, [5, 5], 24)
    assert d["p_portion"] == ["a", "b²", "c", "ad", "be"] and len(d["table"]) == 20
    assert d["phi_text"] == "1 a 1 b b [a c 1 d e]" and d["progress"]
    # the second run reads it from the store: no heap is computed
    d2 = json.loads(run("--store", url, "quotient", "0.123", "--json"))
    assert d2["progress"] == [] and d2["order"] == 20


def test_partial_quotients_of_0_07_and_the_time_budget(url):
    out = run("--store", url, "quotient", "0.07", "--max-heap", "40", "--time", "1s")
    assert "heap   14: |Q| =    24, |P| =    5" in out       # a line per change of order
    assert "partial result:" in out and "time budget" in out
    d = json.loads(run("--store", url, "quotient", "0.07", "--max-heap", "16", "--json"))
    assert d["order"] == 24 and d["max_heap"] == 16 and not d["final"] and d["note"] is None


def test_resume_through_the_cli(url):
    run("--store", url, "quotient", "0.77", "--max-heap", "20", "--quiet")
    d = json.loads(run("--store", url, "quotient", "0.77", "--max-heap", "23", "--json"))
    assert [p["heap"] for p in d["progress"]] == [21, 22, 23]
    d = json.loads(run("--store", url, "quotient", "0.77", "--max-heap", "22", "--fresh", "--json"))
    assert d["progress"][0]["heap"] == 0          # from the start


def test_outcome_misere_seed000(url):
    out = run("--store", url, "outcome", "0.123", "9", "8", "5", "3", "--misere")
    assert "N: the player to move wins; 3 winning move(s)" in out
    assert "heap #1 (8): take 3, leaving 5" in out and "heap #2 (5): take 2, leaving 3" in out
    assert "heap #3 (3): take 2, leaving 1" in out and "(search)" in out
    run("--store", url, "quotient", "0.123", "--quiet")
    d = json.loads(run("--store", url, "outcome", "0.123", "9", "8", "5", "3", "--misere", "--json"))
    assert d["outcome"] == "N" and d["method"] == "stored answer"  # asked before: read back
    assert [(m["heap"], m["parts"]) for m in d["winning_moves"]] == [(8, [5]), (5, [3]), (3, [1])]
    d = json.loads(run("--store", url, "outcome", "0.123", "10", "8", "5", "3", "--misere", "--json"))
    assert d["method"].startswith("quotient (final)")  # a new position: from the quotient
    searched = json.loads(run("outcome", "0.123", "10", "8", "5", "3", "--misere", "--json", "--no-store"))
    assert searched["method"] == "search"
    assert (d["outcome"], d["winning_moves"]) == (searched["outcome"], searched["winning_moves"])
    d = json.loads(run("--store", url, "outcome", "0.123", "1e9", "999999999", "5", "--misere", "--json"))
    assert d["outcome"] in ("P", "N") and d["method"].startswith("quotient")
    # normal play is unchanged
    d = json.loads(run("outcome", "0.123", "9", "8", "5", "3", "--json"))
    assert "nim_sum" in d


def test_errors(url, capsys):
    assert main(["--store", url, "quotient", "0.07", "--time", "ten minutes"]) == 2
    assert "duration" in capsys.readouterr().err
    assert main(["--store", url, "quotient", "0.[3]", "--json"]) == 2      # no theorem: needs --max-heap
    assert "max_heap" in capsys.readouterr().out


def test_tampered_store_is_an_error_and_fresh_repairs_it(url, capsys):
    from cgtalg.quotients.storage import ENTRY
    from cgtalg.store.store import open_store

    run("--store", url, "quotient", "0.123", "--max-heap", "12", "--quiet")
    st = open_store(url)
    rec = dict(st.sequence_meta("quotient:0.123")[ENTRY])
    rec["phi"] = rec["phi"][:5] + [rec["phi"][6], rec["phi"][5]] + rec["phi"][7:]   # Φ(5) <-> Φ(6)
    st.put_sequence_meta("quotient:0.123", {ENTRY: rec}, replace=True)
    forget_known()
    assert main(["--store", url, "quotient", "0.123", "--max-heap", "12"]) == 2
    assert "rejected" in capsys.readouterr().err
    out = run("--store", url, "quotient", "0.123", "--max-heap", "12", "--fresh")
    assert "Q_12" in out
    assert "Q_12" in run("--store", url, "quotient", "0.123", "--max-heap", "12")


# -- issue 21, part 6: forms, names, board families, the default budget, resuming -------------------
def test_quotient_of_forms(url):
    out = run("--store", url, "quotient", "*2+*2", "{*2}", "*2")
    assert "|Q| = 6, |P| = 2" in out
    assert "*2+*2 -> b² (P)" in out and "{*2} -> b² (P)" in out and "*2 -> b (N)" in out
    d = json.loads(run("--store", url, "quotient", "*2+*2", "{*2}", "*2", "--json"))
    assert d["kind"] == "forms" and d["classes"] == [["*2+*2", "{*2}"], ["*2"]]
    assert d["resumed_from"] is not None        # the second run reads the stored quotient


def test_quotient_of_a_ruleset_name(url):
    d = json.loads(run("--store", url, "quotient", "kayles", "--max-heap", "12", "--json"))
    assert d["game"] == "0.77" and d["kind"] == "heaps" and d["max_heap"] == 12


def test_quotient_of_board_families_and_resume(url):
    out = run("--store", url, "quotient", "cram:2xn", "--max-heap", "6")
    assert "cram:2xn: misère quotient Q_6" in out and "|Q| = 6, |P| = 2" in out
    lines = [ln for ln in out.splitlines() if ln.startswith("heap")]
    assert lines and all("|Q| =" in ln for ln in lines)       # every progress line: heap and order
    assert "resuming from the stored Q_6 (order 6" in run("--store", url, "quotient", "cram:2xn", "-n", "6")
    # every component type a heap of its own: one record per family, a larger N resumes
    run("--store", url, "quotient", "cram:2xn", "--max-heap", "6", "--no-reduce")
    out = run("--store", url, "quotient", "cram:2xn", "--max-heap", "8", "--no-reduce")
    assert "resuming from the stored Q_6 (order 6" in out and "|Q| = 6, |P| = 2" in out
    d = json.loads(run("--store", url, "quotient", "node-kayles:cycles", "-n", "10", "--json"))
    assert d["kind"] == "family" and d["max_size"] == 10 and d["order"] == 12
    assert {"component": "C10", "element": d["types"][-1]["element"]} in d["types"]
    assert d["progress"] and all("heap" in p and "order" in p for p in d["progress"])


def test_default_budget_says_how_to_extend_it(url, monkeypatch):
    import cgtalg.cli.quotient as cq

    monkeypatch.setattr(cq, "DEFAULT_SECONDS", 0.5)
    out = run("--store", url, "quotient", "0.07", "--max-heap", "60")
    assert "partial result:" in out
    assert "the default budget of 0 s ended: extend it with --time 10m" in out
    assert "a rerun resumes from the store" in out
    out = run("--store", url, "quotient", "0.07", "--max-heap", "60")
    assert "resuming from the stored Q_" in out
    d = json.loads(run("--store", url, "quotient", "0.07", "--max-heap", "60", "--json"))
    assert d["hint"] and "--time 10m" in d["hint"] and d["resumed_from"]["order"] >= 24


def test_quotient_refusals(url, capsys):
    assert main(["--store", url, "quotient", "no-such-game"]) == 2
    assert "unknown ruleset" in capsys.readouterr().err
    assert main(["--store", url, "quotient", "*2", "{*2}", "--max-heap", "3"]) == 2
    assert "max_heap has no meaning" in capsys.readouterr().err
    # a family without -n grows until the budget ends, with the last complete Q_N
    d = json.loads(run("--store", url, "quotient", "node-kayles:paths", "--time", "1s", "--json"))
    assert d["max_size"] >= 14 and d["hint"].startswith("the time budget ended")


def test_a_progress_line_every_few_seconds_names_heap_and_order(url, monkeypatch):
    import cgtalg.cli.quotient as cq

    monkeypatch.setattr(cq, "PROGRESS_SECONDS", 0.0)       # a line after every heap
    out = run("--store", url, "quotient", "node-kayles:cycles", "-n", "6", "--no-reduce")
    lines = [ln for ln in out.splitlines() if ln.startswith("heap")]
    assert len(lines) == 11                                # 0, P1..P6 and C3..C6
    assert all("|Q| =" in ln for ln in lines)
    assert lines[-1].startswith("heap   10 (C6; Q_6): |Q| =     6")
    out = run("--store", url, "quotient", "node-kayles:cycles", "-n", "6")      # reduced heaps
    lines = [ln for ln in out.splitlines() if ln.startswith("heap")]
    assert lines and all("|Q| =" in ln and "Q_6)" in ln for ln in lines[1:])


def test_outcomes_of_positions_from_the_quotient(url, capsys):
    """--outcome: heaps (seed 000: {9, 8, 5, 3} is N, {9, 6, 1} is P), boards (the 2×3 Cram
    board is a misère P-position, by exhaustive play in tests/test_component_quotients.py),
    forms (a sum split at its top-level +)."""
    d = json.loads(run("--store", url, "quotient", "0.123", "--outcome", "9 8 5 3", "--outcome", "9,6,1", "--json"))
    assert [a["outcome"] for a in d["outcomes"]] == ["N", "P"]
    out = run("--store", url, "quotient", "cram:2xn", "-n", "6", "--outcome", "xxx/xxx", "--outcome", "xxx/xxx + xx")
    assert "misère outcome of xxx/xxx: P" in out and "misère outcome of xxx/xxx + xx: N" in out
    out = run("--store", url, "quotient", "*2+*2", "{*2}", "*2", "--outcome", "{*2} + *2+*2 + *1")
    assert "misère outcome of {*2} + *2+*2 + *1: N" in out
    assert main(["--store", url, "quotient", "cram:2xn", "-n", "4", "--outcome", "xxxxxx"]) == 2
    assert "compute a larger Q_N" in capsys.readouterr().err


def test_the_order_bound_hint_raises_the_bound_given(monkeypatch):
    """After the order bound, the hint suggests four times the --max-order of the run (the counting
    strategy's candidates may reach four times it): never the bound that was just reached, and
    never a bound whose candidates would not fit in the machine's memory (8 bytes an entry)."""
    from types import SimpleNamespace

    import cgtalg.budget as budget
    from cgtalg.cli.quotient_report import _hint

    q = SimpleNamespace(note="misère quotient: counting copies of heap 15 found no candidate repairing 4 + 15 "
                             "within order 20000 (level 1)", infinite_from=None, next_bound=3)
    monkeypatch.setattr(budget, "_physical_memory", lambda: 1 << 40)      # 1 TiB: fits order 350 000
    assert "--max-order 20000" in _hint(q, None, True, 60, 5000)
    assert "--max-order 80000" in _hint(q, None, True, 60, 20000)
    assert "after the last counting level" in _hint(q, None, True, 60, 5000)
    monkeypatch.setattr(budget, "_physical_memory", lambda: 24 << 30)     # 24 GiB: order 55 600 at most
    fit = int((0.9 * (24 << 30) / 8) ** 0.5)
    assert f"--max-order {fit // 4}" in _hint(q, None, True, 60, 5000)    # its candidates reach 4·13 900
    text = _hint(q, None, True, 60, 20000)                                # 80 000 already tried
    assert "--max-order" not in text.split(":", 1)[1] and "no option changes that here" in text
    # the bound the last hint suggested, run (0.1113337, tenth session): its candidates reach all
    # but a few units of what fits, so no larger bound is suggested (it suggested fit // 4 + 1)
    text = _hint(q, None, True, 60, fit // 4)
    assert "--max-order" not in text.split(":", 1)[1] and "no option changes that here" in text
    assert f"--max-order {fit // 4}" in _hint(q, None, True, 60, fit // 5)  # a fifth more: suggested
    monkeypatch.setattr(budget, "_physical_memory", lambda: None)         # unknown: as before
    assert "--max-order 80000" in _hint(q, None, True, 60, 20000)
