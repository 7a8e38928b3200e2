"""Misère games born by day n: enumeration, the bitmask scan and the counting formula.

Published counts of misère canonical forms born by day 0..5: 1, 2, 3, 5, 22, 4171780 (Conway,
On Numbers and Games, ch. 12; Siegel, Combinatorial Game Theory, §V.3; notes/misere.md). The
day-6 count is derived (notes/misere.md: ONAG prints it with an error), so it is checked here
for consistency: the same formula reproduces days 1-5, and two scan backends agree.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

import cgtalg as cg
from cgtalg.errors import CensusError
from cgtalg.misere._census_kernel import scan_masks, scan_masks_numpy
from cgtalg.misere.canonical import (
    MisereCanonicalForm,
    misere_canonical_game,
    misere_simplest,
    reducing_candidates,
)
from cgtalg.misere.census import (
    MAX_COUNTED_DAY,
    misere_census_scan,
    misere_count_born_by,
    misere_count_formula,
    misere_day_counts,
    misere_games_born_by,
)

PUBLISHED = [1, 2, 3, 5, 22, 4171780]  # ONAG ch. 12; Siegel CGT §V.3


def literal_born_by(day: int) -> list[cg.Game]:
    forms = [cg.zero]
    for _ in range(day):
        forms = [cg.game(s) for r in range(len(forms) + 1) for s in itertools.combinations(forms, r)]
    return forms


def test_enumerated_counts_days_0_to_4():
    assert [len(misere_games_born_by(d)) for d in range(5)] == PUBLISHED[:5]
    assert [misere_count_born_by(d) for d in range(5)] == PUBLISHED[:5]


def test_day5_count_by_scan():
    scan = misere_census_scan(5)
    assert scan.count == PUBLISHED[5]
    assert scan.multiply_reducible == 0
    assert len(scan.universe) == 22
    assert misere_count_born_by(5) == PUBLISHED[5]
    assert misere_day_counts(5) == PUBLISHED


def test_numpy_backend_agrees_with_numba():
    for day in range(6):
        a, b = misere_census_scan(day, "numba"), misere_census_scan(day, "numpy")
        assert (a.count, a.multiply_reducible, a.option_counts, a.zero_option_n_count) == (
            b.count,
            b.multiply_reducible,
            b.option_counts,
            b.zero_option_n_count,
        )


def test_scan_progress_bar_runs(capsys):
    from cgtalg.misere import census

    census._SCANS.pop((4, "numpy"), None)
    assert misere_census_scan(4, "numpy", progress=True).count == 22
    assert "misère census day 4" in capsys.readouterr().err


def test_games_born_by_are_canonical_distinct_and_closed():
    for day in range(5):
        forms = misere_games_born_by(day)
        games = [f.game for f in forms]
        assert all(isinstance(f, MisereCanonicalForm) for f in forms)
        assert len({g.id for g in games}) == len(games)
        assert all(g.birthday <= day for g in games)
        ids = {g.id for g in games}
        for g in games:
            assert misere_canonical_game(g) is g
            assert reducing_candidates(g.options) == []
            assert all(o.id in ids for o in g.options)  # closed under options
        # every literal form born by ``day`` is equal to one of them (days <= 3 here; day 4 is
        # checked in test_misere_canonical.py)
        if day <= 3:
            assert {misere_canonical_game(g).id for g in literal_born_by(day)} == ids
        assert misere_games_born_by(day) == forms  # deterministic


def test_day4_listing_text():
    texts = [str(f) for f in misere_games_born_by(4)]
    assert texts[:5] == ["*[0]", "*[1]", "*[2]", "*[2#]", "*[3]"]
    assert "*[2[2]]" in texts and "*[4]" in texts and "*[2##]" in texts and "*[3#]" in texts


def test_scan_option_statistics_match_enumeration():
    # per universe game U: how many games born by the day have U as an option
    for day in range(1, 5):
        scan = misere_census_scan(day)
        forms = [f.game for f in misere_games_born_by(day)]
        for u, count in zip(scan.universe, scan.option_counts):
            assert count == sum(1 for g in forms if u.game in g)
        expected = sum(1 for g in forms if cg.zero in g and cg.outcome(g, misere=True) == "N")
        assert scan.zero_option_n_count == expected


def test_masks_are_derived_from_the_forms():
    scan = misere_census_scan(5)
    bit = {f.game.id: i for i, f in enumerate(scan.universe)}
    assert [f.game for f in scan.candidates] == [f.game for f in misere_games_born_by(3)]
    for h, a, b in zip(scan.candidates, scan.a_masks, scan.b_masks):
        assert a == sum(1 << bit[o.id] for o in h.game.options)
        assert b == sum(1 << bit[x.game.id] for x in scan.universe if h.game in x.game)
        assert a & b == 0
    assert scan.p_mask == sum(1 << i for i, f in enumerate(scan.universe) if f.misere_outcome == "P")


def test_kernel_agrees_with_general_canonicaliser_on_day5_masks():
    scan = misere_census_scan(5)
    universe = [f.game for f in scan.universe]
    a = np.array(scan.a_masks, dtype=np.int64)
    b = np.array(scan.b_masks, dtype=np.int64)
    z = np.array([h.game.is_zero for h in scan.candidates])
    zero_bit = next(i for i, g in enumerate(universe) if g.is_zero)
    rng = random.Random(9)
    masks = [rng.getrandbits(22) for _ in range(2500)]
    # masks that reduce through 0, *1 and *2 (options of the day-4 games) and a few edge cases
    masks += [0, 1 << zero_bit, (1 << 22) - 1] + [int(x) | int(y) for x, y in zip(a, b)]
    reducible_seen = 0
    for m in masks:
        s = [g for i, g in enumerate(universe) if m >> i & 1]
        irreducible_by_rule = misere_simplest(s) is cg.game(s)
        for fn in (scan_masks, scan_masks_numpy):
            count, multi, _, _ = fn(22, a, b, z, scan.p_mask, zero_bit, m, m + 1)
            assert count == int(irreducible_by_rule) and multi == 0, m
        reducible_seen += not irreducible_by_rule
    assert reducible_seen >= 5


def test_formula_reproduces_days_1_to_5():
    for day in range(1, 6):
        assert misere_count_formula(day).value == PUBLISHED[day]
    assert str(misere_count_formula(5)) == "2^22 - 2^14 - 2^12 - 2^11 + 4"
    assert str(misere_count_formula(4)) == "22"


def test_day6_count():
    f = misere_count_formula(6)
    n6 = misere_count_born_by(6)
    assert n6 == f.value
    assert f.terms[0] == (1, PUBLISHED[5])  # 2^4171780 ...
    negatives = [e for c, e in f.terms if c == -1]
    assert 15 <= len(negatives) <= 25  # "minus a sum of about twenty powers of two" (notes)
    # |B_H| counts irreducible masks holding bit H: at most half of the 2^22 masks
    assert all(e <= (1 << 21) + 1 for e in negatives)
    assert str(f).startswith(f"2^{PUBLISHED[5]} - 2^")
    # the subtracted part is tiny next to 2^4171780
    assert (1 << (PUBLISHED[5] - 1)) < n6 < (1 << PUBLISHED[5])
    # every term comes from the day-5 option counts, which the numpy backend recomputes
    scan, check = misere_census_scan(5, "numba"), misere_census_scan(5, "numpy")
    assert scan.option_counts == check.option_counts
    assert scan.zero_option_n_count == check.zero_option_n_count
    assert misere_day_counts(6)[:6] == PUBLISHED
    # the printed terms add up to the formula of the module docstring
    subtracted = sum(1 << c for c in scan.option_counts)
    added = (1 << scan.zero_option_n_count) + (len(scan.universe) - 1)
    assert n6 == (1 << scan.count) - subtracted + added


def test_errors():
    with pytest.raises(CensusError, match=r"day must be >= 0, got -1"):
        misere_games_born_by(-1)
    with pytest.raises(
        CensusError,
        match=r"the games born by day 5 are too many to build as forms \(days 0-4 can be listed\); "
        r"count them with misere_count_born_by\(5\)",
    ):
        misere_games_born_by(5)
    with pytest.raises(CensusError, match=r"day 7 is beyond the census: counts go up to day 6"):
        misere_count_born_by(7)
    with pytest.raises(CensusError, match=r"max_day must be <= 6, got 9"):
        misere_day_counts(9)
    with pytest.raises(CensusError, match=r"day 6 cannot be scanned"):
        misere_census_scan(6)
    with pytest.raises(CensusError, match=r"unknown census backend 'cuda': use 'numba' or 'numpy'"):
        misere_census_scan(3, backend="cuda")  # type: ignore[arg-type]
    with pytest.raises(CensusError, match=r"the counting formula covers days 1-6, got day 0"):
        misere_count_formula(0)
    with pytest.raises(TypeError, match=r"day must be an int, got str: '3'"):
        misere_count_born_by("3")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"day must be an int, got bool"):
        misere_games_born_by(True)
    assert misere_count_born_by(np.int64(4)) == 22
    assert MAX_COUNTED_DAY == 6
