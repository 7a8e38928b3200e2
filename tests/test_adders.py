"""Adders :a and Plambeck's solution of .123 (seed 000, sections "Adders" and "Solution to .123").

The seed's reduction rules S1-S4 are implemented here, in the test, from the seed's text and
Table S2, and checked against misère outcomes computed by search from the rules of .123."""

from __future__ import annotations

import itertools

import pytest

import cgtalg as cg
from cgtalg.misere.adders import adder, adder_description, adder_index, adder_sum
from cgtalg.misere.canonical import misere_canonical_game
from cgtalg.misere.genus import Genus, genus
from cgtalg.rulesets.heaps.octal import TakeAndBreak


def test_adders_options_as_in_seed():
    # seed 000: :4 = {:2, :3}, :5 = {:2, :3, :4}, :(2a) = {:(2a-2), :(2a-1)}, :(2a+1) adds :(2a)
    assert [adder(a) for a in range(4)] == [misere_canonical_game(cg.nim(a)) for a in range(4)]
    for a in range(2, 9):
        even, odd = adder(2 * a), adder(2 * a + 1)
        assert set(even.options) == {adder(2 * a - 2), adder(2 * a - 1)}
        assert set(odd.options) == {adder(2 * a - 2), adder(2 * a - 1), adder(2 * a)}


def test_adder_addition_rule():
    # seed 000: :a + :b = :(a+b) if a or b is even, :(a+b-2) if both are odd
    for a, b in itertools.product(range(8), repeat=2):
        s = misere_canonical_game(adder(a) + adder(b))
        assert s is adder(adder_sum(a, b)), (a, b)
        assert adder_index(adder(a) + adder(b)) == adder_sum(a, b)


def test_adder_genera_period_4():
    # seed 000: genus(:0..:7) = 0^{12020}, 1^{03131}, 2^{2020}, 3^{3131}, 0^{0202}, 1^{1313}, 2^{2020}, 3^{3131}
    seed = ["0^{12020}", "1^{03131}", "2^{2020}", "3^{3131}", "0^{0202}", "1^{1313}", "2^{2020}", "3^{3131}"]
    for a, text in enumerate(seed):
        assert genus(adder(a)) == Genus.parse(text), a
    for a in range(4, 16):
        assert genus(adder(a)) == genus(adder(a + 4))


def test_adder_errors():
    with pytest.raises(ValueError, match="a >= 0"):
        adder(-1)
    assert adder_index(cg.parse("{*2}")) is None


def test_table_s1_and_s2():
    # seed 000, Tables S1 and S2: .123 heaps as adders and the special games C, A, B
    d = adder_description(TakeAndBreak("0.123"), 21, letters="CAB")
    s1 = ":1 :0 :2 :2 :1 C :0 A B :1 C :0 A B :1 C :0 A B :1".split()
    assert d.labels[1:] == s1
    assert d.specials == {"C": "0^02", "A": "2^1420", "B": "1^20"}
    assert "5+" in d.table() and d.to_dict()["labels"][0] == ":0"


# -- seed 000's rules S1-S4, and the misère nim value read off a genus --------------------------
S2 = {"C": Genus.parse("0^{02}"), "A": Genus.parse("2^{1420}"), "B": Genus.parse("1^{20}")}
ZERO = Genus.parse("0^{1202}")


def _s1(h: int) -> str:
    first = {1: ":1", 2: ":0", 3: ":2", 4: ":2"}
    if h in first:
        return first[h]
    return {0: ":1", 1: "C", 2: ":0", 3: "A", 4: "B"}[h % 5]


def _seed_value(heaps) -> int:
    """Misère nim value of a .123 position by seed 000's rules S1-S4."""
    labels = [_s1(h) for h in heaps if h]
    a = 0
    for x in labels:
        if x.startswith(":"):
            a = adder_sum(a, int(x[1:]))
    nA, nB, nC = (labels.count(c) for c in "ABC")
    special = None
    if nC or nB >= 2:  # rule S3
        a = adder_sum(a, {(0, 0): 4, (0, 1): 5, (1, 0): 2, (1, 1): 3}[(nA % 2, nB % 2)])
    else:  # rule S4
        if nB == 0:
            special = "A" if nA % 2 else None
        else:
            special = "B"
            if nA % 2:
                a = adder_sum(a, 2)
    x = S2[special] if special else ZERO
    return x.gamma(a // 2) ^ (a & 1)


def test_example_1_values():
    # seed 000, Example 1: the eight options of {9, 8, 5, 3} and their misère nim values
    table = {(7, 8, 5, 3): 5, (6, 8, 5, 3): 1, (9, 6, 5, 3): 2, (9, 5, 5, 3): 0,
             (9, 8, 3, 3): 0, (9, 8, 2, 3): 2, (9, 8, 5, 1): 0, (9, 8, 5, 0): 1}
    for pos, v in table.items():
        assert _seed_value(pos) == v, pos
    assert _seed_value((9, 8, 5, 3)) == 3  # B + :5 (seed 000)


def test_rules_s1_s4_against_search():
    # the seed's reduction rules predict the misère outcome that search finds from the rules
    r = TakeAndBreak("0.123")
    heaps = range(0, 12)
    checked = 0
    for k in (1, 2, 3):
        for pos in itertools.combinations_with_replacement(heaps, k):
            G = cg.zero
            for h in pos:
                G = G + r.heap(h)
            assert cg.misere_grundy(G) == _seed_value(pos), pos
            checked += 1
    assert checked > 300


def test_adder_description_past_the_walk_limit_of_heap_forms():
    # Kayles heap 34's form is a sum past cgtalg.core.game.WALK_LIMIT (issue 23); the adder
    # labels come from the misère canonical heaps, checked here against the labels from the
    # heaps' own forms where those can still be built (heaps 0..20)
    from cgtalg.misere.adders import adder_description

    k = TakeAndBreak("0.77")
    d = adder_description(k, 35)
    assert len(d.labels) == 35
    class FormsOnly:  # the same ruleset seen without its misère canonical heaps
        name = "0.77"

        def heap(self, h):
            return k.heap(h)
    assert adder_description(FormsOnly(), 21).labels == d.labels[:21]
    # heaps 0..3 of Kayles are the nim-heaps *0..*3 (their options are the nim-heaps below)
    assert d.labels[:4] == [":0", ":1", ":2", ":3"]
