"""Dense octal games with long preperiods (issue 8) and the wording of uncertified results
(issue 7).

Published values: 0.376 has period 4 and preperiod 2,268,248 (last exceptional value
G(2268247)); 0.354 has period 1180 and preperiod 10,061,916 (Gangolli & Plambeck, "A note
on periodicity in some octal games", Int. J. Game Theory 18 (1989) 311-320; A. Flammenkamp's
table of octal games). Kernel cross-checks: the rare/common kernel against the naive mex
(the definition) on prefixes.
"""

from __future__ import annotations

import numpy as np
import pytest

from cgtalg.errors import ComputationLimitError
from cgtalg.rulesets.heaps.octal import TakeAndBreak


@pytest.mark.parametrize("code, n", [("0.376", 40_000), ("0.354", 30_000)])
def test_sparse_kernel_equals_naive_on_prefixes_of_dense_games(code, n):
    fast = TakeAndBreak(code).grundy_sequence(n, method="sparse")
    naive = TakeAndBreak(code).grundy_sequence(n, method="naive")
    assert np.array_equal(fast, naive)


def test_0376_at_2_21_values_is_worded_as_seen_not_as_a_fact():
    """On its first 2**21 values 0.376 seems periodic from G(2095356); the true preperiod is
    2,268,248 (Gangolli-Plambeck), so nothing may be stated as a fact (issue 7). The same
    run checks the kernel's mode on this dense game: the rare/common kernel all the way (no
    fallback to the naive kernel, a handful of rare heaps)."""
    g = TakeAndBreak("0.376")
    res = g.periodicity(max_values=2**21, progress=False)
    assert (res.certified, res.status, res.values_checked) == (False, "detected", 2**21)
    text = str(res)
    assert text.splitlines()[0] == (
        "0.376: no certified period: on the 2,097,152 values computed, the tail from G(2095356) repeats "
        "with period 4 (seen, not proved; certifying it needs L >= 4,190,723 values)")
    assert "last exceptional" not in text and "CERTIFIED" not in text and "max_values = 2,097,152" in text
    assert res.last_exceptional is None and res.required_values == 2 * 2095356 + 2 * 4 + 3
    d = res.to_json()
    assert d["certified"] is False and d["period"] is None and d["preperiod"] is None
    assert (d["seen_period"], d["seen_preperiod"], d["seen_saltus"]) == (4, 2095356, 0)
    assert d["last_exceptional"] is None and d["summary"] == text.splitlines()[0]
    with pytest.raises(ComputationLimitError) as e:
        g.grundy_value(10**20)
    assert "the periodicity search over 2097152 values certified none" in str(e.value)
    assert "G is computed for heaps 0..2097151" in str(e.value)
    eng = g.engine()
    assert eng.mode == "sparse" and eng.fallback_at is None
    assert eng.nrare < 1000 and eng.split is not None


@pytest.mark.slow
def test_0376_certified_with_the_published_preperiod():
    g = TakeAndBreak("0.376")
    res = g.periodicity(max_values=6_000_000, progress=False)
    assert (res.certified, res.period, res.preperiod) == (True, 4, 2_268_248)
    assert res.last_exceptional == 2_268_247
    assert res.bound == "L >= 2*max(n0,1) + 2p + k = 2*2268248 + 2*4 + 3 = 4536507"
    assert res.values_checked == 4_536_507
    G = g.engine().G
    assert G[2_268_247] != G[2_268_251]
    n = 10**20 + 3
    assert g.grundy_value(n) == int(G[2_268_248 + (n - 2_268_248) % 4])
    assert str(res).startswith("0.376: CERTIFIED period 4, preperiod 2268248 (last exceptional value G(2268247))")


@pytest.mark.slow
def test_0354_certified_with_the_published_preperiod():
    g = TakeAndBreak("0.354")
    res = g.periodicity(max_values=25_000_000, progress=False)
    assert (res.certified, res.period, res.preperiod) == (True, 1180, 10_061_916)
    assert res.values_checked == 2 * 10_061_916 + 2 * 1180 + 3
