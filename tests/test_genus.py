"""Genus g^{γ0γ1…} (Winning Ways ch. 13): the mex-with-carrying evaluator against the definition
(brute-force misère Grundy values of G + n·*2), against seed 000 (Plambeck, ".123": Tables 2
and 3, the worked carrying step, the h9+h6 / h9+h3+h3 warning), against a published 0.312 row,
and against CGSuite's genus rows (tests/data/cgsuite_genus.json, from CGSuite's GameHeapTest)."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest

import cgtalg as cg
from cgtalg.errors import GameNotationError
from cgtalg.misere.census import misere_games_born_by
from cgtalg.misere.genus import Genus, genus, genus_class, genus_from_options
from cgtalg.rulesets.heaps.octal import TakeAndBreak

DATA = json.loads((Path(__file__).parent / "data" / "cgsuite_genus.json").read_text())


def _brute_misere(g: cg.Game, memo: dict) -> int:
    """Misère Grundy value from the definition (1 for no options, else mex), own recursion."""
    v = memo.get(g.id)
    if v is None:
        opts = g.options
        if not opts:
            v = 1
        else:
            s = {_brute_misere(o, memo) for o in opts}
            v = 0
            while v in s:
                v += 1
        memo[g.id] = v
    return v


def _check_definition(G: cg.Game, terms: int = 7) -> None:
    x = genus(G)
    memo: dict = {}
    s = G
    for n in range(terms):
        assert _brute_misere(s, memo) == x.gamma(n), (str(G), n, str(x))
        s = s + cg.nim(2)
    assert cg.grundy(G) == x.g


def _forms(day: int) -> list[cg.Game]:
    out = []
    for c in misere_games_born_by(day):
        out.append(c if isinstance(c, cg.Game) else c.game)
    return out


def test_definition_on_every_game_born_by_day_4():
    games = _forms(4)
    assert len(games) == 22
    for G in games:
        _check_definition(G)


def test_definition_on_sums_and_random_forms_from_day_4():
    # non-canonical forms too: option sets drawn from the day-4 games and pairwise sums
    rng = random.Random(9)
    games = _forms(4)
    for a, b in itertools.combinations_with_replacement(games[:14], 2):
        _check_definition(a + b, terms=5)
    for _ in range(60):
        opts = rng.sample(games, rng.randint(1, 5))
        _check_definition(cg.game(opts), terms=6)


@pytest.mark.parametrize("code", ["0.123", "0.77", "0.07", "0.312", "0.137", "4.7"])
def test_definition_on_heap_positions(code):
    r = TakeAndBreak(code)
    for n in range(0, 11):
        _check_definition(r.heap(n), terms=6)
    for a, b in [(3, 4), (5, 2), (6, 6), (7, 3)]:
        _check_definition(r.heap(a) + r.heap(b), terms=5)


def test_nim_heaps():
    # seed 000, (1)-(3): 0 = 0^{1202…}, 1 = 1^{0313…}, 2 = 2^{2020…}
    assert genus(cg.nim(0)).superscripts(7) == (1, 2, 0, 2, 0, 2, 0)
    assert genus(cg.nim(1)).superscripts(7) == (0, 3, 1, 3, 1, 3, 1)
    assert genus(cg.nim(2)).superscripts(7) == (2, 0, 2, 0, 2, 0, 2)
    for n in range(2, 40):
        x = genus(cg.nim(n))
        assert x.superscripts(4) == (n, n ^ 2, n, n ^ 2) and x.is_nim_genus()
        assert x.to_str("short") == str(n)
    big = genus(cg.nim(10**30))  # atom rule: no walk of the heap's options
    assert big.g == 10**30 and big.gamma(1) == 10**30 ^ 2


def test_seed000_table2_single_heaps_of_0123():
    # Plambeck ".123", Table 2 (heaps 1-15, then period 5); plain integers are nim-heaps
    table = ["1", "0", "2", "2", "1", "0^0", "0", "2^{1420}", "1^{20}", "1",
             "0^0", "0", "2^{1420}", "1^{20}", "1"]
    r = TakeAndBreak("0.123")
    for n, text in enumerate(table, start=1):
        assert genus(r.heap(n)) == Genus.parse(text), (n, text)
    # P-positions: first superscript 0 at heaps 1, 5, 6, 10, 11, 15, 16, 20, 21 (seed 000)
    ps = [n for n in range(1, 22) if genus(r.heap(n)).misere_grundy == 0]
    assert ps == [1, 5, 6, 10, 11, 15, 16, 20, 21]


def test_seed000_table3_two_heap_genera():
    # Plambeck ".123", Table 3: genus of h_i + h_j for 1 <= i <= j <= 9
    rows = {
        1: "0 1 3 3 0 1^{13} 1 3^{0531} 0^{31}",
        2: "0 2 2 1 0^0 0 2^{1420} 1^{20}",
        3: "0^0 0^0 3 2^{20} 2 0^{420} 3^{02}",
        4: "0^0 3 2^{20} 2 0^{420} 3^{02}",
        5: "0 1^{13} 1 3^{0531} 0^{31}",
        6: "0^0 0^0 2^{20} 1^{13}",
        7: "0 2^{1420} 1^{20}",
        8: "0^{12} 3^{02}",
        9: "0^{02}",
    }
    r = TakeAndBreak("0.123")
    checked = 0
    for i, row in rows.items():
        for j, text in zip(range(i, 10), row.split()):
            got = genus(r.heap(i) + r.heap(j))
            g, _, sup = text.partition("^")
            assert got.g == int(g), (i, j)
            if not sup:
                # a plain integer: the sum equals a nim-heap, so it has that nim-heap's genus
                assert got == Genus.parse(text), (i, j, text, str(got))
            else:
                digits = tuple(int(c) for c in sup.strip("{}"))
                # the printed superscripts are the first superscripts of the genus
                assert got.superscripts(len(digits)) == digits, (i, j, text, str(got))
                if len(digits) == 1:
                    # one superscript: Winning Ways' abbreviation of a tame/restive genus
                    assert got == Genus.parse(text), (i, j, text, str(got))
            checked += 1
    # h8 + h8 is an even multiple of h8: genus 0^{1202...} (seed 000, Noah's Ark (c))
    assert genus(r.heap(8) + r.heap(8)) == Genus.parse("0^{1202}")
    assert checked == 45


def test_seed000_carrying_step_h8_plus_h5():
    # seed 000: genus(h8+h5) from its options h6+h5, h5+h5, h8+h3, h8+h2 = 3^{053131…}
    r = TakeAndBreak("0.123")
    opts = [genus(r.heap(a) + r.heap(b)) for a, b in [(6, 5), (5, 5), (8, 3), (8, 2)]]
    assert [o.superscripts(6) for o in opts] == [
        (1, 3, 1, 3, 1, 3), (1, 2, 0, 2, 0, 2), (4, 2, 0, 2, 0, 2), (1, 4, 2, 0, 2, 0)]
    assert genus_from_options(opts).superscripts(6) == (0, 5, 3, 1, 3, 1)
    assert genus(r.heap(8) + r.heap(5)) == Genus.parse("3^{053131}")


def test_seed000_warning_example():
    # seed 000: s1 = h9 + h6 has genus 1^13 but s2 = h9 + h3 + h3 has genus 1^20
    r = TakeAndBreak("0.123")
    s1, s2 = r.heap(9) + r.heap(6), r.heap(9) + r.heap(3) + r.heap(3)
    assert str(genus(s1)) == "1^13" and str(genus(s2)) == "1^20"
    # adding a nim-heap of size 1: s1 + *1 is a misère P-position, s2 + *1 an N-position
    assert cg.outcome(s1 + cg.nim(1), misere=True) == "P" and cg.outcome(s2 + cg.nim(1), misere=True) == "N"


def test_published_0312_row():
    # 0.312 heaps 1-6 (issue 9, from Plambeck's octal-game pages): classical symbols exactly
    r = TakeAndBreak("0.312")
    assert [str(genus(r.heap(n))) for n in range(1, 7)] == [
        "1^031", "2^20", "0^02", "2^1420", "0^02", "1^13"]


@pytest.mark.parametrize("row", sorted(DATA["heap_rows"]))
def test_cgsuite_rows_same_superscripts(row):
    # CGSuite's extended symbols name the same (infinite) genus as ours for every heap 0-20
    spec = DATA["heap_rows"][row]
    if row == "grundy":
        from cgtalg.rulesets.heaps.games import GrundysGame as R

        r = R()
    elif row.startswith("subtraction"):
        r = TakeAndBreak(spec["code"])
    else:
        r = TakeAndBreak("0x" + row if "F" in row else row)
    for n, (text, mv) in enumerate(zip(spec["genus"], spec["misere_nim_value"])):
        got = genus(r.heap(n))
        assert got.misere_grundy == mv, (row, n)
        exp = Genus.parse(text)
        k = max(len(got.gammas), len(exp.gammas)) + 2
        assert got.g == exp.g and got.superscripts(k) == exp.superscripts(k), (row, n, text, str(got))


def test_printing_conventions():
    assert Genus(6, (8, 10)).to_str() == "6^(8,10)"
    assert Genus(0, (0, 2)).to_str("short") == "0^0"
    assert Genus(1, (2, 0)).to_str("short") == "1^2"
    assert Genus(2, (1, 4, 2, 0)).to_str("short") == "2^1420"
    assert Genus.parse("6^(8,10)") == Genus(6, (8, 10))
    assert Genus.parse("0^{1202020…}") == genus(cg.zero)
    assert Genus.parse("2^{1420}") == Genus.parse("2^142020")
    assert "<sup>1420</sup>" in Genus(2, (1, 4, 2, 0))._repr_html_()
    for bad in ("", "x", "2^", "2^{a}", "^12"):
        with pytest.raises(GameNotationError, match="genus symbol"):
            Genus.parse(bad)
    with pytest.raises(ValueError, match="convention"):
        genus(cg.zero, "fancy")


def test_genus_class_of_pairs():
    # seed 000: restive pairs 0^0?? no - restive: g in {0,1}, γ0 >= 2 (0^2, 0^3, 1^2, ...)
    assert genus_class(0, 2) == "restive" and genus_class(1, 5) == "restive"
    assert genus_class(3, 0) == "restless" and genus_class(4, 4) == "tame"
    assert genus_class(0, 1) == "tame" and genus_class(5, 7) == "wild"


def test_genus_of_text_and_recurrence_equals_fold():
    assert str(genus("{*2}")) == "0^02"
    G = cg.parse("{*2, {*3, *1}}")
    assert genus(G) == genus_from_options([genus(o) for o in G.options])


def test_genus_in_describe_and_from_store(tmp_path):
    from cgtalg.report import describe
    from cgtalg.store.store import open_store

    store = open_store(f"sqlite:///{tmp_path/'s.db'}")
    r1 = describe("{*2}", store=store)
    assert r1["genus"] == "0^02" and "genus           0^02" in str(r1)
    r2 = describe("{*2}", store=store)
    assert "genus" in r2.from_store
