"""``cgtalg misere``: the misère report of a heap game (issue 9), checked against seed 000
(Plambeck, ".123": Table 2, the single-heap P-positions, the classes of heaps 6, 8, 9, Table S1)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from cgtalg.cli.main import cli


def run(*args):
    r = CliRunner().invoke(cli, list(args), obj={})
    assert r.exit_code == 0, r.output
    return r.output


def test_report_0123_json(tmp_path):
    url = f"sqlite:///{tmp_path / 's.db'}"
    d = json.loads(run("--store", url, "misere", "0.123", "-n", "21", "--json"))
    rows = d["heaps"]
    assert [r["genus"] for r in rows[5:10]] == ["1^031", "0^02", "0^120", "2^1420", "1^20"]
    assert d["misere_p_positions"] == [1, 5, 6, 10, 11, 15, 16, 20]  # seed 000
    assert (rows[6]["class"], rows[8]["class"], rows[9]["class"]) == ("tame", "restless", "restive")
    assert d["first_untame_heap"] == 8 and d["first_wild_heap"] is None
    assert [r["adder"] for r in rows[1:11]] == [":1", ":0", ":2", ":2", ":1", "A", ":0", "B", "C", ":1"]
    assert [r["grundy"] for r in rows[:8]] == [0, 1, 0, 2, 2, 1, 0, 0]
    # the second run reads the genera from the store
    from cgtalg.store.store import open_store

    st = open_store(url)
    assert st.get_position("misere:0.123", "8", "genus")["gammas"] == [1, 4, 2, 0]


def test_report_text_and_plot(tmp_path):
    png = tmp_path / "g.png"
    out = run("misere", "0.123", "-n", "12", "--no-store", "--plot", str(png))
    assert "first heap that is not tame: 8" in out and "2^1420" in out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    out = run("misere", "0.123", "-n", "10", "--no-store", "--convention", "short")
    assert " 1^2 " in out and " 0^0 " in out


def test_report_bad_input(capsys):
    from cgtalg.cli.main import main

    assert main(["misere", "0.8", "-n", "5", "--no-store"]) == 2
    assert "not an octal digit" in capsys.readouterr().err
    assert main(["misere", "0.77", "-n", "5", "--no-store", "--json", "--convention", "odd"]) == 2


def test_one_meaning_per_word_and_one_numbering(tmp_path):
    """Issue 23: 'class' is the game's class in the table and JSON alike; the genus kind of
    g^γ0 has its own key; the extended convention's footer uses extended symbols; a position's
    heaps are numbered as given, as `cgtalg outcome` numbers them."""
    from cgtalg.misere.genus import extended_genus
    from cgtalg.misere.phylum import misere_class
    from cgtalg.rulesets.heaps.octal import TakeAndBreak

    k = TakeAndBreak("0.77")
    d = json.loads(run("misere", "0.77", "-n", "17", "--no-store", "--json"))
    row = d["heaps"][16]
    # Kayles heap 16: genus 1^13, whose symbol is of tame kind, but the game is tameable (wild)
    assert row["genus"] == "1^13" and row["genus_kind"] == "tame" and row["phylum"] == "tameable"
    assert row["class"] == misere_class(k.misere_canonical_heap(16)) == "wild" and row["tame"] is False
    assert "genus_class" not in row
    e = json.loads(run("misere", "0.77", "-n", "17", "--no-store", "--convention", "extended", "--json"))
    shown = {str(extended_genus(k.misere_canonical_heap(h))) for h in range(17)}
    assert set(e["specials"].values()) <= shown
    letters = {r["adder"]: r["genus"] for r in e["heaps"] if not r["adder"].startswith(":")}
    assert all(e["specials"][a] == g for a, g in letters.items())
    p = json.loads(run("misere", "0.123", "--position", "9 8 5 3", "--no-store", "--json"))
    o = json.loads(run("outcome", "0.123", "9", "8", "5", "3", "--misere", "--no-store", "--json"))
    assert p["position"] == [9, 8, 5, 3]
    assert p["winning_moves"] == o["winning_moves"]
    for m in p["winning_moves"]:
        assert [9, 8, 5, 3][m["heap_index"]] == m["heap"]

