"""The periodicity detector (cgtalg.rulesets.heaps.periodicity) against a brute force written here
from the definition, on random eventually periodic sequences; and on published sequences:
the subtraction games S(1,2,3) (G(n) = n mod 4) and S(1,4) (period 5: 0,1,0,1,2), Winning
Ways ch. 4; Nim, G(n) = n (arithmetic period 1, saltus 1), Winning Ways ch. 2/4; Guy's
parity game (period 8 of its class table, seed 003, in tests/test_parity.py).
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from misere_brute import kayles_moves

import cgtalg as cg
from cgtalg.errors import PeriodicityError
from cgtalg.rulesets.heaps.periodicity import Periodicity, encode_sequence, find_arithmetic_period, find_period
from cgtalg.rulesets.protocol import ruleset_from_function
from cgtalg.rulesets.solver import Solver


def brute(seq, min_cycles=3, arithmetic=False, max_period=None, max_preperiod=None, min_span=0):
    """(p, n0, s) straight from the definition: the least p, then the least n0."""
    L = len(seq)
    top = L if max_period is None else min(max_period, L)
    for p in range(1, top + 1):
        if min_cycles * p > L:
            break
        for n0 in range(0, L - p + 1):
            diffs = {seq[n + p] - seq[n] if arithmetic else (seq[n + p] == seq[n]) for n in range(n0, L - p)}
            if arithmetic:
                ok = len(diffs) <= 1
                s = diffs.pop() if diffs else 0
            else:
                ok = diffs <= {True}
                s = 0
            if ok:
                break
        if L - n0 >= max(min_cycles * p, min_span) and (max_preperiod is None or n0 <= max_preperiod):
            return p, n0, s
    return None


def as_tuple(r: Periodicity | None):
    return None if r is None else (r.period, r.preperiod, r.saltus)


def eventually_periodic(rng, pre, period, cycles, alphabet, saltus=0, tail=0):
    head = [rng.randrange(alphabet) for _ in range(pre)]
    block = [rng.randrange(alphabet) for _ in range(period)]
    body = []
    for c in range(cycles):
        body += [v + c * saltus for v in block]
    body += [block[i] + cycles * saltus for i in range(tail)]
    return head + body


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 30), st.integers(1, 12), st.integers(1, 8), st.integers(2, 6), st.integers(0, 11),
       st.integers(0, 10**6), st.integers(1, 4))
def test_find_period_matches_brute_force(pre, period, cycles, alphabet, tail, seed, min_cycles):
    rng = random.Random(seed)
    seq = eventually_periodic(rng, pre, period, cycles, alphabet, tail=min(tail, period - 1))
    got = find_period(seq, min_cycles=min_cycles)
    assert as_tuple(got) == brute(seq, min_cycles)
    if got is not None:
        assert got.certified is False and got.status == "detected"
        assert got.cycles >= min_cycles
        n0, p = got.preperiod, got.period
        assert all(seq[n + p] == seq[n] for n in range(n0, len(seq) - p))
        assert n0 == 0 or seq[n0 - 1 + p] != seq[n0 - 1]
        assert all(got.extrapolate(n) == seq[n] for n in range(n0, len(seq)))
        # a constructed period spanning enough cycles bounds the detected one
        if cycles >= min_cycles:
            assert p <= period


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 20), st.integers(1, 10), st.integers(2, 7), st.integers(-3, 3), st.integers(0, 10**6))
def test_find_arithmetic_period_matches_brute_force(pre, period, cycles, saltus, seed):
    rng = random.Random(seed)
    seq = eventually_periodic(rng, pre, period, cycles, 5, saltus=saltus)
    got = find_arithmetic_period(seq)
    assert as_tuple(got) == brute(seq, 3, arithmetic=True)
    if got is not None:
        assert all(got.extrapolate(n) == seq[n] for n in range(got.preperiod, len(seq)))


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(0, 3), max_size=40), st.integers(1, 3))
def test_arbitrary_sequences_match_brute_force(seq, min_cycles):
    assert as_tuple(find_period(seq, min_cycles=min_cycles)) == brute(seq, min_cycles)
    assert as_tuple(find_arithmetic_period(seq, min_cycles=min_cycles)) == brute(seq, min_cycles, arithmetic=True)


def test_bounds_match_brute_force():
    rng = random.Random(5)
    for _ in range(300):
        seq = eventually_periodic(rng, rng.randrange(15), rng.randrange(1, 8), rng.randrange(2, 8), 3)
        mp, mpre, span = rng.randrange(1, 10), rng.randrange(0, 12), rng.choice([0, 0, 5, 12, 30])
        assert as_tuple(find_period(seq, max_period=mp, max_preperiod=mpre, min_span=span)) == brute(
            seq, 3, max_period=mp, max_preperiod=mpre, min_span=span)
        assert as_tuple(find_arithmetic_period(seq, min_span=span)) == brute(seq, 3, arithmetic=True, min_span=span)


def test_min_cycles_guards_against_coincidence():
    seq = [7, 3, 1, 4, 1, 5, 9, 2, 6, 1, 4, 1, 5, 9, 2, 6]  # period 7 spans only 2 cycles
    assert find_period(seq) is None
    r = find_period(seq, min_cycles=2)
    assert (r.period, r.preperiod) == (7, 2)
    # a short run of equal values at the end is not reported as period 1 with 3 cycles...
    assert find_period([1, 2, 3, 4, 5, 6, 0, 0]) is None
    # ...unless it spans min_cycles periods
    assert as_tuple(find_period([1, 2, 3, 4, 5, 6, 0, 0, 0])) == (1, 6, 0)
    # min_span rejects such short runs: a period must then show over at least that many values
    assert find_period([1, 2, 3, 4, 5, 6, 0, 0, 0], min_span=4) is None
    assert as_tuple(find_period([5, 1, 2] * 4, min_span=12)) == (3, 0, 0)
    with pytest.raises(PeriodicityError, match="min_span must be a non-negative int, got -2"):
        find_period([1], min_span=-2)


def test_hashable_values_and_numpy_dtypes():
    rows = [("P", None), ("N", "P"), ("N", "N")] * 5
    r = find_period(rows)
    assert (r.period, r.preperiod) == (3, 0) and r.cycle == (("P", None), ("N", "P"), ("N", "N"))
    assert as_tuple(find_period("xyzabab" + "ab" * 3)) == (2, 3, 0)
    base = [3, 1, 4, 1, 5] + [2, 7, 1] * 6
    for dtype in (np.uint8, np.int16, np.int32, np.int64, np.uint64):
        assert as_tuple(find_period(np.array(base, dtype=dtype))) == (3, 5, 0)
    big = [2**70 + v for v in base]  # beyond int64: coded, same answer
    assert as_tuple(find_period(big)) == (3, 5, 0)
    codes, exact = encode_sequence(["a", "b", "a"])
    assert codes.tolist() == [0, 1, 0] and not exact
    assert encode_sequence([1, 2])[1] is True


def test_errors():
    with pytest.raises(PeriodicityError) as e:
        find_period([1, [2], 3])
    assert str(e.value) == "sequence element 1 ([2], list) is not hashable; periodicity needs hashable values"
    with pytest.raises(PeriodicityError, match="min_cycles must be a number >= 1, got 0"):
        find_period([1, 2], min_cycles=0)
    with pytest.raises(PeriodicityError, match="max_period must be a non-negative int or None, got -1"):
        find_period([1, 2], max_period=-1)
    with pytest.raises(PeriodicityError, match=r"needs a sequence of integers that fit in int64; got the element 'a' \(str\)"):
        find_arithmetic_period(["a", "b"])
    with pytest.raises(PeriodicityError, match="got values beyond int64"):
        find_arithmetic_period([2**70, 2**70 + 1])
    r = find_period([0, 1] * 5)
    with pytest.raises(PeriodicityError, match="extrapolate needs an int n >= the preperiod 0, got -1"):
        r.extrapolate(-1)
    assert find_period([]) is None


def test_result_text_and_json():
    r = find_period([9, 9, 1, 2, 1, 2, 1, 2, 1, 2])
    assert str(r) == "period 2, preperiod 2 (detected on the first 10 values, 4.0 periods; not certified)"
    assert r.to_json() == {"period": 2, "preperiod": 2, "saltus": 0, "length": 10, "min_cycles": 3,
                           "min_span": 0, "cycles": 4.0, "cycle": [1, 2], "status": "detected", "certified": False}
    a = find_arithmetic_period(list(range(10)))
    assert str(a).startswith("arithmetic period 1, saltus 1, preperiod 0") and a.arithmetic


# -- published sequences, computed with the solver ---------------------------------------------


def grundy_values(S, n):
    r = ruleset_from_function(f"S{S}", lambda m: [m - t for t in S if t <= m])
    sv = Solver(r)
    return [sv.value(m) for m in range(n)]


def test_subtraction_games_published_periods():
    # Winning Ways ch. 4: S(1,2,3) has G(n) = n mod 4; S(1,4) has period 5 (0,1,0,1,2)
    g = grundy_values((1, 2, 3), 100)
    r = find_period(g)
    assert (r.period, r.preperiod, r.cycle) == (4, 0, (0, 1, 2, 3))
    g = grundy_values((1, 4), 100)
    r = find_period(g)
    assert (r.period, r.preperiod, r.cycle) == (5, 0, (0, 1, 0, 1, 2))


def test_nim_is_arithmetic_periodic():
    heap = ruleset_from_function("nim-heap", lambda n: range(n))
    g = [cg.grundy(cg.game([cg.nim(k) for k in range(n)])) for n in range(40)]
    assert g == [Solver(heap).value(n) for n in range(40)] == list(range(40))
    assert find_period(g) is None
    r = find_arithmetic_period(g)
    assert (r.period, r.preperiod, r.saltus) == (1, 0, 1)
    assert r.extrapolate(10**12) == 10**12


def test_long_sequence_fast_path():
    rng = np.random.default_rng(1)
    block = rng.integers(0, 50, size=997)
    seq = np.concatenate([rng.integers(0, 50, size=5000), np.tile(block, 300)])
    r = find_period(seq)
    assert (r.period, r.preperiod) == (997, 5000 - _shared_suffix(seq[:5000], block))


def _shared_suffix(head, block):
    """How many trailing values of the random head happen to continue the period backwards."""
    k = 0
    p = len(block)
    while k < len(head) and head[len(head) - 1 - k] == block[(p - 1 - k) % p]:
        k += 1
    return k


# -- Kayles (seed 004: the table of G(K_12a+b) and "after K71 it repeats the same cycle of 12") --

SEED_004_KAYLES_ROWS = [
    [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6],
    [4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7],
    [4, 1, 2, 8, 5, 4, 7, 2, 1, 8, 6, 7],
    [4, 1, 2, 3, 1, 4, 7, 2, 1, 8, 2, 7],
    [4, 1, 2, 8, 1, 4, 7, 2, 1, 4, 2, 7],
    [4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 6, 7],
    [4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7],
]


def kayles_ruleset():
    """Kayles written from its rules: knock down 1 or 2 adjacent pins of a row (rows = heaps)."""
    return ruleset_from_function("kayles-test", kayles_moves, components=lambda rows: [(n,) for n in rows])


def test_kayles_values_and_period_seed_004():
    sv = Solver(kayles_ruleset())
    g = [sv.value((n,) if n else ()) for n in range(300)]
    # seed 004 prints the table from K_0; its rows 0-6 are checked here (the rest repeat row 6)
    assert [g[12 * a + b] for a in range(7) for b in range(12)] == [v for row in SEED_004_KAYLES_ROWS for v in row]
    r = find_period(g)
    assert (r.period, r.preperiod) == (12, 71)
    assert r.cycle == tuple(g[71:83])
