"""Phyla and Winning Ways' classes (cgtalg.misere.phylum), against CGSuite's test cases, seed
000's claims, and the definition (tame games add like nim-heaps in misère play)."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest

import cgtalg as cg
from cgtalg.misere.canonical import misere_canonical, misere_canonical_sum
from cgtalg.misere.census import misere_games_born_by
from cgtalg.misere.equivalence_engine import misere_mate
from cgtalg.misere.genus import extended_genus, genus
from cgtalg.misere.phylum import (
    Phylum,
    is_half_tame,
    misere_class,
    misere_classification,
    misere_phylum,
)
from cgtalg.rulesets.heaps.games import GrundysGame
from cgtalg.rulesets.heaps.octal import TakeAndBreak

DATA = json.loads((Path(__file__).parent / "data" / "cgsuite_genus.json").read_text())


@pytest.mark.parametrize("case", DATA["forms"], ids=[f["form"] for f in DATA["forms"]])
def test_cgsuite_form_flags(case):
    # CGSuite's MisereCanonicalGameTestCase: IsTame (= hereditarily), IsRestive, IsRestless,
    # IsGenerallyTame, IsTameable, IsHalfTame, IsGenerallyRestive, Genus, MisereMate
    c = misere_classification(case["form"])
    p = c.phylum
    assert p.is_hereditarily_tame() == case["tame"]
    assert p.is_hereditarily_restive() == case["restive"]
    assert p.is_restless() == case["restless"]
    assert p.is_tame() == case["generally_tame"]
    assert p.is_tameable() == case["tameable"]
    assert c.half_tame == case["half_tame"]
    if "generally_restive" in case:
        assert p.is_restive() == case["generally_restive"]
    assert str(extended_genus(case["form"])) == case["genus"]
    assert misere_canonical(misere_mate(cg.parse(case["form"]))) == misere_canonical(cg.parse(case["mate"]))


def _heap_ruleset(row: str, spec: dict):
    if row == "grundy":
        return GrundysGame()
    if row.startswith("subtraction"):
        return TakeAndBreak(spec["code"])
    return TakeAndBreak("0x" + row if "F" in row else row)


@pytest.mark.parametrize("row", sorted(DATA["heap_rows"]))
def test_cgsuite_heap_rows_print_exactly(row):
    # CGSuite GameHeapTest: [rs(n).Genus for n from 0 to 20], symbol for symbol
    spec = DATA["heap_rows"][row]
    r = _heap_ruleset(row, spec)
    got = [str(extended_genus(r.misere_canonical_heap(n))) for n in range(21)]
    assert got == spec["genus"]


def test_kayles_extended_symbols_differ_where_classical_agree():
    # issue 9 / notes: heaps 7, 10, 14 print 2^2 but 19 prints 2^20; 8 prints 1^1 but 16 1^13
    k = TakeAndBreak("0.77")
    ext = {n: str(extended_genus(k.misere_canonical_heap(n))) for n in (7, 8, 10, 14, 16, 19)}
    assert ext == {7: "2^2", 8: "1^1", 10: "2^2", 14: "2^2", 16: "1^13", 19: "2^20"}
    assert {genus(k.heap(n)) for n in (7, 10, 14, 19)} == {genus(k.heap(7))}
    assert misere_phylum(k.heap(19)) not in (Phylum.NIM_HEAP, Phylum.HEREDITARILY_TAME,
                                             Phylum.REVERSIBLY_TAME)
    assert misere_phylum(k.heap(14)).is_tame()


def test_seed000_classification_of_0123():
    # seed 000 ("The classification of heaps"): nim-heap positions tame; h6 and h(5k+1) tame
    # (h11, h16 by reverting moves); h9 and h(5k+4) restive; h8 restless
    r = TakeAndBreak("0.123")
    for n in (1, 2, 3, 4, 5, 7, 10, 12):
        assert misere_phylum(r.misere_canonical_heap(n)) == Phylum.NIM_HEAP, n
    for n in (6, 11, 16, 21):
        assert misere_class(r.misere_canonical_heap(n)) == "tame", n
    assert misere_phylum(r.misere_canonical_heap(6)) == Phylum.HEREDITARILY_TAME
    c11 = misere_classification(r.misere_canonical_heap(11))
    assert c11.phylum == Phylum.REVERSIBLY_TAME and len(c11.reversals) == 2
    for n in (9, 14, 19):
        assert misere_class(r.misere_canonical_heap(n)) == "restive", n
    assert misere_phylum(r.misere_canonical_heap(9)) == Phylum.HEREDITARILY_RESTIVE
    assert misere_class(r.misere_canonical_heap(8)) == "restless"


def test_reasons_name_the_reverting_moves():
    c = misere_classification(TakeAndBreak("0.123").misere_canonical_heap(11))
    for opt, via_m, via_g in c.reversals:
        # each wild option has a tame option of G's misère value and one of its normal value
        assert via_m in opt.options and via_g in opt.options
        assert genus(via_m).misere_grundy == genus(c.game).misere_grundy
        assert genus(via_g).g == genus(c.game).g
        assert misere_phylum(via_m).is_tame() and misere_phylum(via_g).is_tame()
    assert "reverses through" in c.reason
    w = misere_classification("*[2#1]")
    assert w.misere_class == "restless" and "restless" in w.reason
    d = c.to_dict()
    assert d["phylum"] == "reversibly_tame" and d["class"] == "tame"
    assert "reversibly tame" in c._repr_html_()


def _pool() -> list[cg.Game]:
    fs = [f._game for f in misere_games_born_by(4)]
    pool = set(fs)
    for a, b in itertools.combinations_with_replacement(fs, 2):
        pool.add(misere_canonical_sum(a, b)._game)
    return sorted(pool, key=lambda g: (g.birthday, str(g)))


def _tame_prediction(games) -> str:
    # Winning Ways ch. 13: tame games add like nim-heaps; the sum is P iff the nim-sum of the
    # normal values is 1 when every part has genus 0^1 or 1^0, else iff it is 0
    gs = [genus(g) for g in games]
    x = 0
    for G in gs:
        x ^= G.g
    if all((G.g, G.misere_grundy) in ((0, 1), (1, 0)) for G in gs):
        return "P" if x == 1 else "N"
    return "P" if x == 0 else "N"


def test_tame_games_add_like_nim_heaps_by_direct_play():
    pool = _pool()
    tame = [g for g in pool if misere_phylum(g).is_tame()]
    assert any(misere_phylum(g) == Phylum.REVERSIBLY_TAME for g in tame)
    for a, b in itertools.combinations_with_replacement(tame, 2):
        assert cg.outcome(a + b, misere=True) == _tame_prediction([a, b]), (a, b)
    rng = random.Random(9)
    for _ in range(150):
        gs = rng.sample(tame, 3)
        assert cg.outcome(gs[0] + gs[1] + gs[2], misere=True) == _tame_prediction(gs)


def test_noahs_ark_restive_plus_restive_is_tame_of_genus_0_0():
    # Winning Ways ch. 13: for a restive R, R + R is tame of genus 0^0 (so R is half-tame)
    restive = [g for g in _pool() if misere_phylum(g).is_restive()]
    assert len(restive) >= 8
    for r in restive:
        d = misere_canonical_sum(r, r)._game
        assert misere_phylum(d).is_tame() and genus(d) == genus(cg.parse("{*2}")), r
        assert is_half_tame(r)


def test_phylum_is_shared_by_g_and_g_plus_star():
    # the classification is made on the earlier-born of G and G + *1
    for g in _pool()[:120]:
        assert misere_phylum(misere_canonical_sum(g, cg.nim(1))._game) == misere_phylum(g)


def test_nim_heap_phylum_is_exactly_the_nim_heaps():
    for f in misere_games_born_by(4):
        g = f._game
        assert (misere_phylum(g) == Phylum.NIM_HEAP) == (g.nim_heap_size() is not None)


def test_class_counts_of_phyla_are_consistent():
    for g in _pool():
        p = misere_phylum(g)
        G = genus(g)
        kind = G.genus_class
        if p.is_tameable():
            assert kind == "tame"
        if p.is_restive():
            assert kind == "restive"
        if p.is_restless():
            assert kind == "restless"
