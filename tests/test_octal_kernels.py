"""Grundy sequences: the naive and rare/common numba kernels against a plain-Python reference,
against each other, and against published tables; store integration and resumption.

Sources: seed 004 (Kayles table K(12a+b), a = 0..14); seed 000 (Plambeck, "How to lose at
.123", Table 1); OEIS A002187 (0.137, Dawson's chess, values for n = 0..131); OEIS A071509
(0.1777, first values from Flammenkamp's tables); OEIS A071430 (0.16, first values);
OEIS A071436 (0.56, first values).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from cgtalg.errors import RulesetError
from cgtalg.rulesets.heaps.octal import TakeAndBreak

from test_octal import ref_grundy  # tests/ is on sys.path under pytest (rootdir-relative import)

# seed 004: rows a = 0..14, columns b = 0..11 of G(K_{12a+b}); row 0 starts with K_0 = 0
SEED_004_KAYLES = """
0 1 2 3 1 4 3 2 1 4 2 6
4 1 2 7 1 4 3 2 1 4 6 7
4 1 2 8 5 4 7 2 1 8 6 7
4 1 2 3 1 4 7 2 1 8 2 7
4 1 2 8 1 4 7 2 1 4 2 7
4 1 2 8 1 4 7 2 1 8 6 7
4 1 2 8 1 4 7 2 1 8 2 7
4 1 2 8 1 4 7 2 1 8 2 7
4 1 2 8 1 4 7 2 1 8 2 7
4 1 2 8 1 4 7 2 1 8 2 7
4 1 2 8 1 4 7 2 1 8 2 7
4 1 2 8 1 4 7 2 1 8 2 7
4 1 2 8 1 4 7 2 1 8 2 7
4 1 2 8 1 4 7 2 1 8 2 7
4 1 2 8 1 4 7 2 1 8 2 7
"""

# OEIS A002187 (Dawson's chess, octal game .137), n = 0..131
A002187 = [int(x) for x in """0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1,
0, 4, 5, 2, 7, 4, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1,
0, 4, 5, 3, 7, 4, 8, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 9, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1,
0, 4, 5, 3, 7, 4, 8, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 9, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1,
0, 4""".replace("\n", " ").split(",")]

# OEIS A071509 (0.1777), a(n) for n = 1..84
A071509 = [1, 1, 2, 2, 3, 4, 1, 1, 6, 6, 3, 2, 2, 1, 1, 6, 6, 8, 4, 4, 5, 10, 1, 1, 8, 3, 3, 4, 4, 7,
           6, 6, 8, 8, 4, 1, 1, 6, 7, 8, 4, 4, 5, 10, 8, 1, 1, 15, 5, 4, 4, 7, 6, 6, 1, 1, 4, 3, 3, 6,
           1, 1, 4, 4, 3, 8, 8, 1, 1, 10, 14, 8, 4, 13, 6, 6, 1, 1, 8, 3, 3, 13, 1, 1, 6]

# OEIS A071430 (0.16), n = 1..40; OEIS A071436 (0.56), n = 1..40
A071430 = [1, 0, 0, 1, 2, 2, 1, 4, 0, 1, 4, 2, 1, 4, 0, 1, 4, 2, 1, 4, 2, 1, 0, 2, 1, 4, 2, 1, 4, 5,
           1, 4, 2, 1, 4, 2, 1, 4, 2, 3]
A071436 = [1, 0, 2, 2, 4, 1, 1, 3, 2, 4, 4, 6, 6, 2, 1, 1, 7, 6, 8, 4, 1, 1, 6, 5, 4, 8, 1, 1, 12, 4,
           5, 6, 1, 1, 3, 12, 6, 6, 8, 9]


def test_kayles_table_of_seed_004():
    expected = [int(x) for x in SEED_004_KAYLES.split()]
    for method in ("naive", "sparse", "auto"):
        assert TakeAndBreak("0.77").grundy_sequence(180, method=method).tolist() == expected


def test_table_1_of_seed_000_for_123():
    # seed 000, Table 1: G(1..15) of .123 in rows of 5: 1 0 2 2 1 / 0 0 2 1 1 / 0 0 2 1 1
    G = TakeAndBreak("0.123").grundy_sequence(16)
    assert G[1:].tolist() == [1, 0, 2, 2, 1, 0, 0, 2, 1, 1, 0, 0, 2, 1, 1]


@pytest.mark.parametrize("code, ref, offset", [("0.137", A002187, 0), ("0.1777", A071509, 1),
                                               ("0.16", A071430, 1), ("0.56", A071436, 1)])
def test_published_first_values(code, ref, offset):
    G = TakeAndBreak(code).grundy_sequence(len(ref) + offset)
    assert G[offset:].tolist() == ref


def test_dawsons_kayles_is_dawsons_chess_shifted():
    # OEIS A002187: octal game .07 has values a(n-1)
    G07 = TakeAndBreak("0.07").grundy_sequence(132)
    assert G07[1:].tolist() == A002187[:131]


def _random_codes(seed, count, hexa=False, infinite=False, d0s=(0, 0, 0, 4)):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        top = 15 if hexa else 7
        digits = [rng.randint(0, top) for _ in range(rng.randint(1, 5))]
        tail = [rng.randint(0, top) for _ in range(rng.randint(1, 2))] if infinite else []
        code = TakeAndBreak.from_digits(rng.choice(d0s), digits, tail)
        if code.has_moves:
            out.append(code)
    return out


def test_kernels_match_the_python_reference_on_random_octal_codes():
    for code in _random_codes(1, 120):
        N = 90
        ref = ref_grundy(code.d0, code.digits, code.tail, N)
        assert TakeAndBreak(code).grundy_sequence(N, method="naive").tolist() == ref, str(code)
        assert TakeAndBreak(code).grundy_sequence(N).tolist() == ref, str(code)
        if code.kernel_rules(8).sparse_ok:
            assert TakeAndBreak(code).grundy_sequence(N, method="sparse").tolist() == ref, str(code)


def test_naive_kernel_matches_reference_on_hexadecimal_and_infinite_codes():
    for code in _random_codes(2, 30, hexa=True, d0s=(0, 4, 8, 12)) + _random_codes(3, 30, infinite=True):
        N = 40 if code.is_hexadecimal else 70
        ref = ref_grundy(code.d0, code.digits, code.tail, N)
        assert code.grundy_sequence(N).tolist() == ref, str(code)


def test_sparse_equals_naive_on_long_prefixes():
    """Codes with and without sparse space; the sparse kernel proves every value."""
    codes = [TakeAndBreak(c) for c in ("0.77", "0.137", "0.16", "0.56", "0.6", "0.1777", "0.007", "4.07")]
    codes += [c for c in _random_codes(4, 40) if c.kernel_rules(8).sparse_ok][:25]
    for code in codes:
        N = 6000
        a = TakeAndBreak(code).grundy_sequence(N, method="naive")
        b = TakeAndBreak(code).grundy_sequence(N, method="sparse")
        c = TakeAndBreak(code).grundy_sequence(N, method="auto")
        assert np.array_equal(a, b) and np.array_equal(a, c), str(code)


def test_position_parity_split_is_used_and_correct():
    # 0.137: split distance 3 only (odd), so the split may use the heap's parity
    code = TakeAndBreak("0.137")
    G = code.grundy_sequence(3000, method="sparse")
    eng = code.engine("sparse")
    assert eng.split.uses_position_parity
    assert np.array_equal(G, TakeAndBreak("0.137").grundy_sequence(3000, method="naive"))


def test_auto_falls_back_to_naive_without_sparse_space():
    code = TakeAndBreak("0.137")
    code.grundy_sequence(40000)
    eng = code.engine()
    assert eng.mode == "naive" and eng.fallback_at is not None
    assert np.array_equal(code.grundy_sequence(40000), TakeAndBreak("0.137").grundy_sequence(40000, method="naive"))


def test_auto_keeps_sparse_space_that_appears_late():
    # Officers 0.6: a fifth of its first 4 000 heaps are rare, yet only 1 583 of its first 2^24
    # (Flammenkamp's tables; bench_officers.py), so auto must not give up on it early.
    code = TakeAndBreak("0.6")
    code.grundy_sequence(40000)
    assert code.engine().mode == "sparse"


def test_dtype_promotion_when_values_grow():
    nim = TakeAndBreak("0.[3]")  # G(n) = n
    G = nim.grundy_sequence(700)
    assert G.dtype == np.uint16 and G.tolist() == list(range(700))
    assert TakeAndBreak("0.77").grundy_sequence(100).dtype == np.uint8


def test_sequences_are_read_only_and_extendable():
    k = TakeAndBreak("0.77")
    a = k.grundy_sequence(50)
    with pytest.raises(ValueError):
        a[0] = 1
    b = k.grundy_sequence(5000)
    assert b[:50].tolist() == a.tolist()
    assert k.grundy_sequence(1e3).shape == (1000,)


def test_bad_arguments():
    k = TakeAndBreak("0.77")
    with pytest.raises(RulesetError, match="n must be a non-negative integer, got -1"):
        k.grundy_sequence(-1)
    with pytest.raises(RulesetError, match="unknown method 'fast'"):
        k.grundy_sequence(10, method="fast")
    with pytest.raises(RulesetError, match="the sparse \\(rare/common\\) method needs a finite code"):
        TakeAndBreak("0.3033").grundy_sequence(10, method="sparse")


def test_progress_callable():
    calls = []
    k = TakeAndBreak("0.16")
    k.grundy_sequence(50_000, progress=lambda done, total: calls.append((done, total)))
    assert calls and calls[-1] == (49_999, 49_999)


# -- store ----------------------------------------------------------------------------


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setenv("CGTALG_STORE", str(tmp_path / "env.sqlite"))
    from cgtalg.store import open_store

    s = open_store(str(tmp_path / "octal.sqlite"))
    yield s
    s.close()


class _Spy:
    """Wraps a store and records extend_sequence calls."""

    def __init__(self, store):
        self.store = store
        self.calls = []

    def __getattr__(self, name):
        return getattr(self.store, name)

    def extend_sequence(self, key, start, values):
        self.calls.append((key, start, len(values)))
        return self.store.extend_sequence(key, start, values)


def test_store_resume_after_interrupt(store, monkeypatch):
    import cgtalg.rulesets.heaps.grundy_engine as ge

    monkeypatch.setattr(ge, "STORE_BATCH_VALUES", 1000)
    straight = TakeAndBreak("0.16").grundy_sequence(20_000, method="naive")

    # a first run computes 10^4 values into the store
    spy = _Spy(store)
    TakeAndBreak("0.16").grundy_sequence(10_000, store=spy)
    assert store.sequence_length("grundy:0.16") == 10_000

    # an "interrupted" run: Ctrl-C arrives after some chunks; completed values are kept
    def interrupt(done, total):
        if done >= 3000:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        TakeAndBreak("0.16").grundy_sequence(20_000, store=spy, progress=interrupt)
    kept = store.sequence_length("grundy:0.16")
    assert 10_000 < kept < 20_000

    # a new process (fresh object) resumes from the store: it writes only from `kept` on
    spy.calls.clear()
    resumed = TakeAndBreak("0.16").grundy_sequence(20_000, store=spy)
    assert spy.calls and spy.calls[0][1] == kept
    assert np.array_equal(resumed, straight)
    assert np.array_equal(store.sequence("grundy:0.16"), straight.astype(np.int64))
    # a shorter request is answered from the store
    spy.calls.clear()
    assert np.array_equal(TakeAndBreak("0.16").grundy_sequence(500, store=spy), straight[:500])
    assert spy.calls == []


def test_store_shared_by_equal_codes_and_url(store, tmp_path):
    from cgtalg.rulesets.heaps.octal import SubtractionGame
    from cgtalg.store import open_store

    a = SubtractionGame([1, 3, 4]).grundy_sequence(300, store=store)
    assert store.sequence_length("grundy:0.3033") == 300
    b = TakeAndBreak("0.3033").grundy_sequence(300, store=open_store(str(tmp_path / "octal.sqlite")))
    assert np.array_equal(a, b)


def test_a_store_location_is_refused_the_caller_opens_it(tmp_path):
    """The rulesets never open stores (layers): a URL or path names the function that does."""
    with pytest.raises(RulesetError, match="open_store"):
        TakeAndBreak("0.3033").grundy_sequence(10, store=str(tmp_path / "octal.sqlite"))
    with pytest.raises(RulesetError, match="open_store"):
        TakeAndBreak("0.3033").periodicity(store=tmp_path / "octal.sqlite")


@pytest.mark.slow
def test_sparse_equals_naive_for_056_through_its_preperiod():
    """Full cross-check of the kernels for 0.56 up to n = 326800 (naive: minutes)."""
    N = 326_800
    a = TakeAndBreak("0.56").grundy_sequence(N, method="naive")
    b = TakeAndBreak("0.56").grundy_sequence(N, method="sparse")
    assert np.array_equal(a, b)


def test_sparse_split_of_a_sequence_read_from_the_store(tmp_path):
    """A sequence answered wholly from the store still yields its rare/common split (for
    plots), the same split a fresh computation chooses."""
    from cgtalg.store import open_store

    store = open_store(str(tmp_path / "seq.sqlite"))
    try:
        fresh = TakeAndBreak("0.77")
        fresh.grundy_sequence(5000, store=store)
        expected = fresh.engine().sparse_split()
        again = TakeAndBreak("0.77")
        again.grundy_sequence(5000, store=store)  # nothing left to compute
        got = again.engine().sparse_split()
        assert got is not None and got.mask == expected.mask
        from cgtalg.viz.sequence_plot import rare_mask

        G = again.grundy_sequence(5000)
        by_definition = int(rare_mask(G, got.mask, got.cbit0, got.cbit1).sum())
        assert again.engine().nrare == fresh.engine().nrare == by_definition
    finally:
        store.close()


def test_time_budget_of_grundy_sequences_and_periodicity():
    """max_seconds= bounds a Grundy sequence and a periodicity search: a bad budget is refused
    up front, a tiny one ends in ComputationLimitError naming how to give more time, and the
    values computed before are kept."""
    from cgtalg.budget import BUDGET_HINT
    from cgtalg.errors import BudgetError, ComputationLimitError

    for bad in (0, -1.0, float("nan"), "10"):
        with pytest.raises(BudgetError):
            TakeAndBreak("0.16").grundy_sequence(10**6, max_seconds=bad)
        with pytest.raises(BudgetError):
            TakeAndBreak("0.16").periodicity(max_seconds=bad)
    g = TakeAndBreak("0.16")
    with pytest.raises(ComputationLimitError, match="Grundy values") as info:
        g.grundy_sequence(10**8, method="naive", max_seconds=1e-6)
    assert BUDGET_HINT in str(info.value)
    kept = g.engine("naive").n
    assert 1 < kept < 10**8
    assert np.array_equal(g.grundy_sequence(kept, method="naive"), TakeAndBreak("0.16").grundy_sequence(kept))
    with pytest.raises(ComputationLimitError, match="time budget"):
        TakeAndBreak("0.16").periodicity(max_values=2**24, max_seconds=1e-6)
    assert TakeAndBreak("0.77").periodicity(max_seconds=60).certified
