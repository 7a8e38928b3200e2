"""Heaps of any size (issue 7): exact answers from a certified period with Python ints, a
clear ComputationLimitError where nothing can answer, and the memory budget.

Sources: Kayles 0.77 has period 12 from heap 71 (seed 004; Winning Ways ch. 4); the values
used here come from a plain-Python mex over the moves (``ref_grundy`` in test_octal.py, the
definitions), not from the kernels; the residues are reduced with Python ints.
"""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from cgtalg.errors import ComputationLimitError
from cgtalg.rulesets.heaps.grundy_engine import DEFAULT_MAX_BYTES
from cgtalg.rulesets.heaps.games import GrundysGame
from cgtalg.rulesets.heaps.octal import TakeAndBreak
from cgtalg.rulesets.heaps.octal_periodicity import periodicity_memory_estimate

from test_octal import ref_grundy  # tests/ is on sys.path under pytest

KAYLES_BRUTE = ref_grundy(0, (7, 7), (), 71 + 12 * 6)


def kayles_brute(n: int) -> int:
    """G(n) of Kayles from the brute-force values and the period 12 from 71 (Python ints)."""
    if n < len(KAYLES_BRUTE):
        return KAYLES_BRUTE[n]
    return KAYLES_BRUTE[71 + (n - 71) % 12]


def test_brute_force_kayles_prefix_repeats_with_period_12_from_71():
    G = KAYLES_BRUTE
    assert all(G[n] == G[n + 12] for n in range(71, len(G) - 12))
    assert G[70] != G[82]


@pytest.mark.parametrize("n", [10**20, 10**20 + 1, 10**20 + 7, 2**64, 2**64 + 5, 10**100, 10**100 + 11, 3**300])
def test_grundy_value_of_huge_heaps_is_exact(n):
    k = TakeAndBreak("0.77")
    got = k.grundy_value(n)
    assert type(got) is int and got == kayles_brute(n)


def test_all_residues_mod_12_of_a_googol_scale_heap():
    k = TakeAndBreak("0.77")
    base = 10**100
    assert [k.grundy_value(base + r) for r in range(12)] == [kayles_brute(base + r) for r in range(12)]


def test_outcome_of_huge_heaps():
    k = TakeAndBreak("0.77")
    for heaps in ([10**20], [10**20, 10**100], [5, 9, 10**100], [10**100, 10**100]):
        x = 0
        for h in heaps:
            x ^= kayles_brute(h)
        assert k.outcome(heaps) == ("P" if x == 0 else "N"), heaps
        assert k.nim_value(heaps) == x
    assert k.outcome([10**100, 10**100]) == "P"


@pytest.mark.parametrize("N", [10**18, 10**20 + 3, 10**100 + 1])
def test_winning_moves_of_a_huge_heap_match_a_small_heap_of_the_same_residue(N):
    """Every winning move from the huge heap N is a winning move of the pattern read off a
    small heap n' = N (mod 12) with n' past 2*71 (enumerated directly): the same small parts
    below 71, the same residues mod 12 for parts in the periodic range."""
    k = TakeAndBreak("0.77")
    n_small = 2 * 71 + 12 * 8 + (N - 2 * 71) % 12
    assert kayles_brute(N) == kayles_brute(n_small)
    moves = k.winning_moves([N])
    small = k.winning_moves([n_small])
    assert moves and small

    def pattern(ms, n):
        takes = sorted((m.removed, None) for m in ms if len(m.parts) <= 1)
        direct, fams = set(), set()
        for m in ms:
            if len(m.parts) != 2:
                continue
            for j, (a, b) in enumerate(m.members()):
                if j > 30:
                    break
                if a < 71:
                    direct.add((m.removed, a))
                else:
                    fams.add((m.removed, a % 12))
        return takes, direct, fams

    assert pattern(moves, N) == pattern(small, n_small)
    # each member checked from the brute-force values: the result has nim-sum 0
    for m in moves:
        members = list(m.members()) if m.count <= 3 else [m.parts, (m.parts[0] + m.stride, m.parts[1] - m.stride)]
        if m.count > 3:
            last = (m.parts[0] + (m.count - 1) * m.stride, m.parts[1] - (m.count - 1) * m.stride)
            members.append(last)
            assert last[0] <= last[1] < last[0] + 2 * m.stride + 1
        for parts in members:
            x = 0
            for h in parts:
                x ^= kayles_brute(h)
            assert x == 0 and sum(parts) + m.removed == N
    assert sum(m.count for m in moves) > 10**16
    assert all(isinstance(m.to_json()["parts"][1], int) for m in moves)


def test_no_certified_period_means_computation_limit_error_naming_the_range():
    nim = TakeAndBreak("0.[3]")  # infinite code: no periodicity theorem
    with pytest.raises(ComputationLimitError) as e:
        nim.grundy_value(10**20)
    msg = str(e.value)
    assert "heap 100000000000000000000 is beyond the direct limit of 10000000 values" in msg
    assert "G is computed for heaps 0.." in msg and "no periodicity theorem applies" in msg
    with pytest.raises(ComputationLimitError, match="beyond the direct limit"):
        nim.outcome([3, 10**100])
    with pytest.raises(ComputationLimitError, match="beyond the direct limit"):
        GrundysGame().winning_moves([10**20])
    officers = TakeAndBreak("0.6")
    with pytest.raises(ComputationLimitError) as e:
        officers.grundy_value(10**30, limit=3000)
    assert "certify a period on more values with periodicity(max_values=...)" in str(e.value)
    assert "computing G(1000000000000000000000000000000) directly would need" in str(e.value)
    assert "over the memory budget of 4.0 GiB" in str(e.value)
    with pytest.raises(ComputationLimitError) as e:
        officers.grundy_value(5000, limit=3000)
    assert "heap 5000 is beyond the direct limit of 3000 values" in str(e.value)
    assert "pass limit=5001 (or more) to compute G(5000) directly" in str(e.value)


def test_memory_estimate_and_budget_refusal():
    k = TakeAndBreak("0.77")
    est = k.grundy_memory_estimate(10**10)
    assert est >= 10**10  # one byte per value at least
    n_before = k.engine().n
    with pytest.raises(ComputationLimitError) as e:
        k.grundy_sequence(10**10)
    assert "over the memory budget of 4.0 GiB" in str(e.value) and f"max_bytes={est}" in str(e.value)
    assert k.engine().n == n_before and k.engine().G.shape[0] < 10**8  # nothing allocated
    with pytest.raises(ComputationLimitError, match="over the memory budget of 1000 bytes"):
        TakeAndBreak("0.137").grundy_sequence(100_000, max_bytes=1000)
    with pytest.raises(ComputationLimitError, match="a periodicity search over max_values = 10000000000"):
        TakeAndBreak("0.376").periodicity(max_values=10**10)
    assert periodicity_memory_estimate(TakeAndBreak("0.376"), 10**10) > DEFAULT_MAX_BYTES
    assert TakeAndBreak("0.137").grundy_sequence(5000, max_bytes=10**6).shape == (5000,)
    k.grundy_sequence(100)
    assert k.grundy_memory_estimate(10) == 0  # computed already: nothing to do


def test_memory_estimate_bounds_the_measured_peak():
    code = TakeAndBreak("0.77")  # values stay below 256 (uint8), sparse kernel
    n = 400_000
    est = code.grundy_memory_estimate(n)
    tracemalloc.start()
    code.grundy_sequence(n, progress=False)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak <= est <= 4 * peak + (1 << 20), (peak, est)


def test_heap_sizes_never_reach_numpy_as_overflowing_ints():
    k = TakeAndBreak("0.77")
    k.periodicity()
    with np.errstate(all="raise"):
        assert k.grundy_value(2**63) == kayles_brute(2**63)
        assert k.grundy_value(2**63 - 1) == kayles_brute(2**63 - 1)
        assert k.outcome([2**63, 2**64, 1]) in ("P", "N")


def test_doctests_of_the_octal_modules():
    """The docstring examples (including G(10**100) of Kayles) run and pass."""
    import doctest

    import cgtalg.rulesets.heaps.grundy_engine as ge
    import cgtalg.rulesets.heaps.games as hg
    import cgtalg.rulesets.heaps.play as hp
    import cgtalg.rulesets.heaps.base as hr
    import cgtalg.rulesets.heaps.octal as oc
    import cgtalg.rulesets.heaps.octal_periodicity as op

    for module in (ge, hg, hp, hr, oc, op):
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert result.failed == 0 and result.attempted > 0, module.__name__


def test_listing_the_moves_of_a_huge_heap_is_refused_at_once():
    """The generic solver lists moves one by one; for a heap of 10**18 that never ends, so the
    ruleset refuses in bounded time and names the API that answers (issue 7: solve hung)."""
    from cgtalg.rulesets import solver

    k = TakeAndBreak("0.77")
    with pytest.raises(ComputationLimitError, match="use outcome\\(\\) or winning_moves\\(\\)"):
        list(k.moves((3, 10**18)))
    # the solver bounds the game graph before walking it (position_count) and names the API
    with pytest.raises(ComputationLimitError, match="game graph has up to .* come from its period"):
        solver.solve(k, (10**18,))
    assert k.outcome([10**18]) == ("P" if kayles_brute(10**18) == 0 else "N")
    assert sorted(k.moves((4,))) == [(1, 1), (1, 2), (2,), (3,)]
    with pytest.raises(ComputationLimitError, match="the Game form of a heap of 100000000000000000000 tokens"):
        k.heap(10**20)


def test_a_small_limit_still_uses_the_certified_period():
    k = TakeAndBreak("0.77")
    assert k.grundy_value(4000, limit=1000) == kayles_brute(4000)
    assert k.engine().n < 4000  # answered from the period, not computed
