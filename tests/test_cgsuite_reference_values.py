"""Misère values of heap games and forms against CGSuite's own test tables (reference values
with provenance in tests/data/cgsuite_genus.json: GameHeapTest's misère nim-value rows and
MisereCanonicalGameTestCase's mates). The genus strings in that file are for the genus work
(issue 9) and are not tested here yet."""

from __future__ import annotations

import json
import pathlib

import pytest

import cgtalg as cg
from cgtalg.misere import format_misere, misere_mate
from cgtalg.rulesets.registry import get_ruleset

DATA = json.loads((pathlib.Path(__file__).parent / "data" / "cgsuite_genus.json").read_text())
SPECS = {"0.[3]": "0.[3]", "grundy": "grundy", "0.77": "0.77", "0.07": "0.07",
         "subtraction(2,3,7)": "S(2,3,7)", "0.3F": "0x0.3F"}


@pytest.mark.parametrize("key", sorted(DATA["heap_rows"]))
def test_misere_nim_values_of_heaps_0_to_20(key):
    """misère Grundy values of single heaps 0..20, computed from the heap forms, equal
    CGSuite's [rs(n).MisereNimValue for n from 0 to 20]."""
    ruleset = get_ruleset(SPECS[key])
    got = [cg.misere_grundy(ruleset.heap(n)) for n in range(21)]
    assert got == DATA["heap_rows"][key]["misere_nim_value"]


@pytest.mark.parametrize("entry", DATA["forms"], ids=lambda e: e["form"])
def test_mates(entry):
    """Conway's mate (ONAG ch. 12) of each form equals CGSuite's Mate."""
    assert format_misere(misere_mate(cg.parse(entry["form"]))) == entry["mate"]
