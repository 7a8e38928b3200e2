"""Cram on boards of any shape (cgtalg.rulesets.cram, ``Cram(None)``, the ruleset ``cram``):
normal-play nim values of rectangles and other boards against a brute force written here
(place a domino on two free adjacent cells; mex over the options), against published values
(1×n is Dawson's Kayles 0.07, Winning Ways ch. 4 and OEIS A002187; even×even boards are 0 and
even×odd boards are first-player wins, by Gardner's symmetry strategies; the 3×n values of
Lemoine and Viennot, "Nimbers are inevitable", Theoret. Comput. Sci. 462 (2012), as tabled in
Wikipedia's "Cram (game)"), and misère outcomes and genera against a brute force."""

from __future__ import annotations

import random

import pytest

import cgtalg as cg
from cgtalg.core.partizan import nimber
from cgtalg.errors import ComputationLimitError, RulesetError
from cgtalg.misere.genus import genus
from cgtalg.misere.outcome import misere_outcome
from cgtalg.rulesets.component_games import component_grundy, component_misere_form
from cgtalg.rulesets.cram import Cram
from cgtalg.rulesets.partizan.games import partizan_form, partizan_value
from cgtalg.rulesets.registry import get_ruleset


def options(cells: frozenset):
    for r, c in cells:
        for o in ((r, c + 1), (r + 1, c)):
            if o in cells:
                yield cells - {(r, c), o}


def brute_grundy(cells: frozenset, memo: dict) -> int:
    if cells not in memo:
        vals = {brute_grundy(o, memo) for o in options(cells)}
        m = 0
        while m in vals:
            m += 1
        memo[cells] = m
    return memo[cells]


def brute_misere_grundy_mixed(cells: frozenset, twos: int, memo: dict) -> int:
    """Misère Grundy value of the board plus ``twos`` heaps *2 (a position with no option has
    the value 1); cells ``("h", k)`` are heaps *1 (a *2 heap becomes *1 or *0)."""
    key = (cells, twos, "m")
    if key not in memo:
        heaps1 = [c for c in cells if c[0] == "h"]
        board = frozenset(c for c in cells if c[0] != "h")
        opts = [(o | frozenset(heaps1), twos) for o in options(board)]
        opts += [(cells - {h}, twos) for h in heaps1]
        if twos:
            opts += [(cells | {("h", twos)}, twos - 1), (cells, twos - 1)]
        if not opts:
            memo[key] = 1
        else:
            vals = {brute_misere_grundy_mixed(o, t, memo) for o, t in opts}
            m = 0
            while m in vals:
                m += 1
            memo[key] = m
    return memo[key]


def rect(r: int, c: int) -> frozenset:
    return frozenset((i, j) for i in range(r) for j in range(c))


def test_rectangles_and_random_boards_against_brute_force():
    cram = Cram(None)
    memo: dict = {}
    for r in range(1, 4):
        for c in range(1, 5):
            assert component_grundy(cram, cram.rectangle(r, c)) == brute_grundy(rect(r, c), memo), (r, c)
    rng = random.Random(4)
    for _ in range(40):
        cells = frozenset(x for x in rect(3, 4) if rng.random() < 0.7)
        assert component_grundy(cram, cram.board(cells)) == brute_grundy(cells, memo), sorted(cells)


def test_published_values():
    cram = get_ruleset("cram")
    # 1×n: Dawson's Kayles 0.07 (heap n has the value A002187(n - 1))
    a002187 = [0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3]
    assert [component_grundy(cram, cram.rectangle(1, n)) for n in range(1, 21)] == a002187
    # 2×n: n odd is *1 (2×n is 0 for n even: symmetry)
    assert [component_grundy(cram, cram.rectangle(2, n)) for n in range(1, 9)] == [1, 0] * 4
    # Gardner: even × even boards are second-player wins (0), even × odd first-player wins
    assert component_grundy(cram, cram.rectangle(4, 4)) == 0
    assert component_grundy(cram, cram.rectangle(4, 3)) != 0
    # Lemoine–Viennot: 3×n for n = 1..7
    assert [component_grundy(cram, cram.rectangle(3, n)) for n in range(1, 8)] == [1, 1, 0, 1, 1, 4, 1]


@pytest.mark.slow
def test_published_values_slow():
    """Lemoine–Viennot 3×8, 3×9, 3×10 (3, 1, 2); 4×5 is a first-player win and 4×6 a
    second-player win (Gardner)."""
    cram = Cram(None)
    assert [component_grundy(cram, cram.rectangle(3, n)) for n in (8, 9, 10)] == [3, 1, 2]
    assert component_grundy(cram, cram.rectangle(4, 5)) != 0
    assert component_grundy(cram, cram.rectangle(4, 6)) == 0


def test_misere_outcomes_and_genera_against_brute_force():
    cram = Cram(None)
    memo: dict = {}
    boards = [rect(r, c) for r in range(1, 4) for c in range(1, 4)] + [rect(2, 4), rect(1, 7)]
    rng = random.Random(8)
    boards += [frozenset(x for x in rect(3, 3) if rng.random() < 0.75) for _ in range(10)]
    for cells in boards:
        g = component_misere_form(cram, cram.board(cells))
        gm = brute_misere_grundy_mixed(cells, 0, memo)
        assert misere_outcome(g) == ("P" if gm == 0 else "N"), sorted(cells)
        gen = genus(g)
        assert gen.g == brute_grundy(cells, {}), sorted(cells)
        assert [gen.gamma(k) for k in range(3)] == [brute_misere_grundy_mixed(cells, k, memo) for k in range(3)]


def test_values_through_the_partizan_machinery_and_the_store(tmp_path):
    """``cgtalg value cram 3x4`` computes the canonical form (a nimber) by partizan_value."""
    cram = get_ruleset("cram")
    assert partizan_form(cram, cram.parse_position("3x4")) == nimber(1)
    from cgtalg.store import open_store

    st = open_store(f"sqlite:///{tmp_path / 's.db'}")
    pos = cram.parse_position("2x5")
    assert partizan_value(cram, pos, store=st) == nimber(1)
    assert st.get_position("partizan:cram", cram.format_position(pos), "canonical_form") == "*"
    assert partizan_value(cram, pos, store=st) == nimber(1)
    assert cg.solve(cram, cram.parse_position("4x4")).outcome == "P"


def test_texts_families_and_errors():
    cram = get_ruleset("cram")
    assert cram.name == "cram" and cram.height is None
    assert cram.parse_position("3×2") == cram.parse_position("2x3") == cram.rectangle(3, 2)
    assert cram.parse_position("xx + x/x") == ("x/x", "x/x")
    assert cram.parse_position("xx./..x|x..") == ("x", "x", "x/x")
    assert get_ruleset("cram:2xn").name == "cram:2xn"
    with pytest.raises(RulesetError, match="height > 2"):
        get_ruleset("cram:2xn").parse_position("3x3")
    with pytest.raises(RulesetError, match="unexpected 'o'"):
        cram.parse_position("xo")
    with pytest.raises(ComputationLimitError, match="more than 100,000 cells"):
        cram.parse_position("9999x9999")
