"""The compiled searches of the misère-quotient construction (cgtalg/quotients/_quotc.c, wrapped by
cgtalg.quotients.kernel) against the Python reference implementations: the same
verification answers (None or the same least failing word), P-markings, partitions and
canonical orders, on random pretensions (valid and invalid) and on real quotients; the same
quotients with and without the kernel; budgets and signals answered inside a long search."""

from __future__ import annotations

import random
import signal
import time

import numpy as np
import pytest

from conftest import skip_without_kernel

from cgtalg.budget import Deadline
from cgtalg.errors import ComputationLimitError
from cgtalg.quotients import construct as qmod
from cgtalg.quotients import kernel as qk
from cgtalg.quotients.pretension import (
    FiniteMonoid,
    Pretension,
    _canonical_order,
    _least_words,
    _mark_p_python,
    _nerode_cols,
    _reduce,
    verify_pretension,
    verify_pretension_python,
)
from cgtalg.quotients.construct import misere_quotient
from cgtalg.quotients.state import _heap_options, forget_known
from cgtalg.rulesets.heaps.octal import TakeAndBreak

pytestmark = skip_without_kernel(qk.available(), f"quotient kernel: {qk.status()}")

CODES = ["0.123", "0.77", "0.72", "0.15", "0.07", "0.137", "0.6", "0.31", "0.52", "4.7", "0.753"]


def _options(code: str, top: int) -> list:
    r = TakeAndBreak(code)
    return [_heap_options(r, h) for h in range(top + 1)]


def _quotient_pre(code: str, max_heap: int | None = None):
    q = misere_quotient(TakeAndBreak(code), max_heap=max_heap, progress=False)
    pre = Pretension(FiniteMonoid(np.asarray(q.table)), np.asarray(q.P, dtype=bool), list(q.phi))
    return pre, _options(code, len(q.phi) - 1)


def _random_monoid(rng: random.Random) -> FiniteMonoid:
    m = FiniteMonoid.cyclic(rng.randrange(0, 4), rng.choice([1, 2, 2, 3]))
    for _ in range(rng.randrange(0, 3)):
        m = m.product(FiniteMonoid.cyclic(rng.randrange(0, 3), rng.choice([1, 2])))
    return m


def _random_pretension(rng: random.Random, code: str, top: int):
    opts = _options(code, top)
    m = _random_monoid(rng)
    phi = [0 if not opts[h] else rng.randrange(m.size) for h in range(top + 1)]
    P = np.array([rng.random() < 0.3 for _ in range(m.size)], dtype=bool)
    P[0] = False
    return Pretension(m, P, phi), opts


@pytest.mark.parametrize("code,max_heap", [("0.123", None), ("0.77", None), ("0.72", None),
                                           ("0.15", None), ("0.07", 20), ("0.137", 18)])
def test_real_quotients_verify_alike_and_their_perturbations_fail_alike(code, max_heap):
    rng = random.Random(hash(code) % 1000)
    pre, opts = _quotient_pre(code, max_heap)
    assert verify_pretension_python(pre, opts) is None
    assert qk.verify(pre, opts) is None
    fails = 0
    for _ in range(60):
        P, phi = pre.P.copy(), list(pre.phi)
        if rng.random() < 0.5:
            i = rng.randrange(1, len(P))
            P[i] = not P[i]
        else:
            h = rng.randrange(1, len(phi))
            if opts[h]:
                phi[h] = rng.randrange(len(P))
        bad = Pretension(pre.monoid, P, phi)
        a = verify_pretension_python(bad, opts)
        assert qk.verify(bad, opts) == a
        fails += a is not None
        assert np.array_equal(qk.mark_p(pre.monoid, phi, opts), _mark_p_python(pre.monoid, phi, opts))
    assert fails > 10


def test_random_pretensions_verify_alike():
    rng = random.Random(2108)
    valid = 0
    for trial in range(400):
        code = rng.choice(CODES)
        pre, opts = _random_pretension(rng, code, rng.randrange(1, 12))
        a = verify_pretension_python(pre, opts)
        assert qk.verify(pre, opts) == a, (code, pre)
        valid += a is None
        assert np.array_equal(qk.mark_p(pre.monoid, pre.phi, opts),
                              _mark_p_python(pre.monoid, pre.phi, opts))
        # a valid pretension: the candidate marked from least words
        P = _mark_p_python(pre.monoid, pre.phi, opts)
        marked = Pretension(pre.monoid, P, pre.phi)
        b = verify_pretension_python(marked, opts)
        assert qk.verify(marked, opts) == b
        valid += b is None
    assert valid > 20


def test_nerode_partition_and_canonical_order_agree():
    rng = random.Random(7)
    for _ in range(200):
        m = _random_monoid(rng)
        P = np.array([rng.random() < 0.4 for _ in range(m.size)], dtype=bool)
        gens = sorted(rng.sample(range(m.size), min(m.size, rng.randrange(1, 4))))
        cols = [m.col(g) for g in gens]
        a, b = _nerode_cols(P, cols), qk.nerode(P, cols)
        # the same partition (labels differ)
        assert len(set(zip(a.tolist(), b.tolist()))) == len(set(a.tolist())) == len(set(b.tolist()))
    for code in ("0.123", "0.77", "0.15"):
        pre, _opts = _quotient_pre(code)
        words = _least_words(pre)
        order = sorted(words, key=lambda x: (len(words[x]) > 0, tuple(sorted(words[x], reverse=True))))
        assert qk.canonical_order(pre).tolist() == order
        assert np.array_equal(_canonical_order(pre).monoid.table, pre.monoid.table)


def test_kept_sets_are_minimal_option_image_sets_of_positions():
    pre, opts = _quotient_pre("0.123")
    kept = qk.new_kept(pre.monoid.size)
    assert qk.verify(pre, opts, kept=kept) is None
    assert kept.total > 0 and kept.order == pre.monoid.size and kept.nbytes > 0
    for x in range(pre.monoid.size):
        sets = kept.sets(x)
        for i, a in enumerate(sets):
            for j, b in enumerate(sets):
                assert i == j or not set(a) <= set(b)      # an antichain
            assert kept.covering(x, a)
        c2 = kept.copy()
        assert c2.sets(x) == sets


def _python_construction(monkeypatch, code, max_heap):
    forget_known()
    monkeypatch.setattr(qk, "available", lambda: False)
    try:
        return misere_quotient(TakeAndBreak(code), max_heap=max_heap, progress=False, resume=False)
    finally:
        monkeypatch.undo()
        forget_known()


@pytest.mark.parametrize("code,max_heap", [("0.123", None), ("0.72", None), ("0.77", 60),
                                           ("0.07", 16), ("0.6", 14), ("0.137", 14), ("4.7", 14)])
def test_the_same_quotient_with_and_without_the_kernel(monkeypatch, code, max_heap):
    py = _python_construction(monkeypatch, code, max_heap)
    forget_known()
    c = misere_quotient(TakeAndBreak(code), max_heap=max_heap, progress=False, resume=False)
    assert c.order == py.order and np.array_equal(c.table, py.table)
    assert np.array_equal(c.P, py.P) and list(c.phi) == list(py.phi) and c.period == py.period


def test_conservative_agrees_with_the_python_trials():
    for code, top in (("0.77", 60), ("0.15", 40), ("0.07", 22)):
        r = TakeAndBreak(code)
        q = misere_quotient(r, max_heap=top, progress=False)
        opts = _options(code, top)
        keep = qmod._KeptSets()
        for n in range(8, top + 1):
            if not opts[n]:
                continue
            sub = _reduce(Pretension(FiniteMonoid(np.asarray(q.table)), np.asarray(q.P, dtype=bool),
                                     list(q.phi[:n])), opts[:n])
            got = qmod._conservative(sub, opts[: n + 1], n, 2_000_000, None, keep)
            monkey = qk.available
            try:
                qk.available = lambda: False
                ref = qmod._conservative(sub, opts[: n + 1], n, 2_000_000, None)
            finally:
                qk.available = monkey
            assert (got is None) == (ref is None)
            if got is not None:
                assert got.phi == ref.phi


@pytest.fixture(scope="module")
def q33():
    """Q_33(0.07) (order 638), whose N-search meets some 12,000 states."""
    return _quotient_pre("0.07", 33)


def test_the_kernel_answers_the_budget_inside_a_search(q33):
    pre, opts = q33
    assert qk.verify(pre, opts, deadline=Deadline(60)) is None
    calls = []

    class Stop(Exception):
        pass

    def check():
        calls.append(1)
        raise Stop

    c = qk.load()
    cols, colmap = qk.columns(pre.monoid)
    S = c.images(cols, colmap, list(pre.phi), opts)
    with pytest.raises(Stop):
        c.nsearch(cols, colmap, pre.P.astype(np.uint8).tobytes(), qk._n_edges(list(pre.phi), S),
                  c.Kept(pre.monoid.size), None, 10**9, False, check)
    assert calls == [1]
    d = Deadline(0.01)  # CPU seconds: burn them (a sleep spends none)
    t = time.process_time()
    while time.process_time() - t < 0.05:
        pass
    with pytest.raises(ComputationLimitError, match="verifying a candidate"):
        qk.verify(pre, opts, deadline=d)


def test_a_construction_stops_at_its_time_budget():
    t0 = time.process_time()
    with pytest.raises(ComputationLimitError, match="time budget"):
        misere_quotient(TakeAndBreak("0.07"), max_heap=60, max_seconds=0.3, progress=False, resume=False)
    assert time.process_time() - t0 < 2.0  # CPU seconds


def test_an_alarm_signal_is_answered_inside_the_search(q33):
    pre, opts = q33

    class Alarm(Exception):
        pass

    def handler(signum, frame):
        raise Alarm

    old = signal.signal(signal.SIGVTALRM, handler)
    t0 = time.process_time()
    try:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0.05)
        with pytest.raises(Alarm):
            for _ in range(100_000):
                qk.verify(pre, opts)
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        signal.signal(signal.SIGVTALRM, old)
    assert time.process_time() - t0 < 2.0  # CPU seconds


def test_max_states_is_a_computation_limit():
    pre, opts = _quotient_pre("0.07", 20)
    with pytest.raises(ComputationLimitError, match="max_states"):
        qk.verify(pre, opts, max_states=5)
    with pytest.raises(ComputationLimitError, match="max_states"):
        verify_pretension(pre, opts, max_states=5)


@pytest.mark.parametrize("code", ["0.77", "0.07", "0.137", "4.7", "0.6", "0.123", "0.31", "0.753",
                                  "0x0.F", "0x0.8", "0x0.B4", "0x4.0F", "0x0.3F"])
def test_option_images_from_the_digits_match_the_moves(code):
    r = TakeAndBreak(code)
    digits = qk.take_break_digits(r)
    assert digits is not None
    rng = random.Random(code)
    m = _random_monoid(rng)
    top = 40
    phi = [0] + [rng.randrange(m.size) for _ in range(top)]
    opts = _options(code, top)
    assert qk.tb_images(m, phi, digits) == qk.images(m, phi, opts)
    assert qk.tb_images(m, phi, digits, 30, 35) == qk.images(m, phi, opts)[30:35]


def test_digits_only_for_finite_take_and_break_codes():
    assert qk.take_break_digits(TakeAndBreak("0.[3]")) is None
    assert qk.take_break_digits(object()) is None
    assert qk.take_break_digits(TakeAndBreak("0.77")) == [0, 7, 7]


def test_a_stored_quotient_is_reverified_from_the_digits(tmp_path):
    from cgtalg.quotients.storage import Checkpointer
    from cgtalg.store import open_store

    st = open_store(f"sqlite:///{tmp_path / 's.sqlite'}")
    forget_known()
    q = misere_quotient(TakeAndBreak("0.77"), store=st, progress=False, resume=False)
    forget_known()
    t0 = time.perf_counter()
    state = Checkpointer(TakeAndBreak("0.77"), st).load()
    assert time.perf_counter() - t0 < 5.0          # milliseconds here; no timing asserts beyond sanity
    assert state.final and np.array_equal(state.pre.monoid.table, q.table)
    assert qk.is_reduced(state.pre)
    # a valid but unreduced, renumbered pretension is not taken as reduced
    perm = np.arange(q.order)
    perm[[1, 2]] = perm[[2, 1]]
    inv = np.argsort(perm)
    t = inv[np.asarray(q.table)[np.ix_(perm, perm)]].astype(np.int32)
    shuffled = Pretension(FiniteMonoid(t), np.asarray(q.P)[perm], [int(inv[x]) for x in q.phi])
    assert not qk.is_reduced(shuffled)
    assert np.array_equal(_reduce(shuffled, None).monoid.table, q.table)


def test_a_corrupt_stored_state_is_replaced_by_a_process_holding_its_own_copy(tmp_path):
    """A process that knows a state does not load the stored one: at equal rank, the stored
    one (here corrupted: its P-portion changed) must still be replaced, not kept."""
    import json

    from cgtalg.errors import StoreCorruptError
    from cgtalg.quotients.storage import ENTRY, Checkpointer
    from cgtalg.store import open_store

    game = TakeAndBreak("0.77")
    st = open_store(f"sqlite:///{tmp_path / 's.sqlite'}")
    forget_known()
    q = misere_quotient(game, store=st, progress=False, resume=False)   # this process keeps it
    key = Checkpointer(game, st).key
    meta = dict(st.sequence_meta(key))
    rec = dict(meta[ENTRY])
    rec["P"] = "1" + rec["P"][1:] if rec["P"][0] == "0" else "0" + rec["P"][1:]
    meta[ENTRY] = rec
    st.put_sequence_meta(key, meta, replace=True)
    with pytest.raises(StoreCorruptError):
        Checkpointer(game, st).load()
    again = misere_quotient(game, store=st, progress=False)             # resumes from its own copy
    assert again.order == q.order
    state = Checkpointer(game, st).load()                              # verifies: it was replaced
    assert state.final and np.array_equal(state.pre.monoid.table, q.table)
    assert json.dumps(st.sequence_meta(key)[ENTRY]["P"]) != json.dumps(rec["P"])
    # an identical stored copy is left as it is (no write)
    before = st.sequence_meta(key)[ENTRY]
    misere_quotient(game, store=st, progress=False)
    assert st.sequence_meta(key)[ENTRY] == before
    forget_known()


def test_reduction_and_product_candidates_agree_with_python(monkeypatch):
    from cgtalg.quotients.pretension import _with_cyclic_factors

    rng = random.Random(33)
    cases = []
    for _ in range(120):
        code = rng.choice(CODES)
        pre, opts = _random_pretension(rng, code, rng.randrange(2, 10))
        heaps = sorted(rng.sample([h for h in range(len(pre.phi)) if opts[h]] or [0], 1))
        params = [(rng.randrange(0, 4), rng.choice([2, 4]))]
        cases.append((pre, opts, heaps, params))

    def run():
        out = []
        for pre, opts, heaps, params in cases:
            r = _reduce(pre, opts)
            w = _reduce(_with_cyclic_factors(pre, heaps, params, opts), opts)
            out.append((r.monoid.table.tolist(), r.P.tolist(), list(r.phi),
                        w.monoid.table.tolist(), w.P.tolist(), list(w.phi)))
        return out

    compiled = run()
    monkeypatch.setattr(qk, "available", lambda: False)
    assert run() == compiled


def test_verifying_a_product_candidate_needs_no_table():
    from cgtalg.quotients.pretension import _with_cyclic_factors

    pre, opts = _quotient_pre("0.07", 14)
    raw = _with_cyclic_factors(pre, [14], [(2, 2)], opts)
    assert hasattr(raw.monoid, "tables")
    assert qk.verify(raw, opts) == verify_pretension_python(
        Pretension(FiniteMonoid(raw.monoid.table), raw.P, raw.phi), opts)


def test_incremental_kept_sets_are_exactly_the_minimal_option_image_sets():
    # kept sets carried across conservative heaps (mex interpolation, seeded searches, merges)
    # are the inclusion-minimal option-image sets of the reachable positions: the same sets a
    # full verification of the extended pretension keeps
    checked = 0
    for code, top, start in (("0.15", 60, 31), ("0.07", 29, 28), ("0.77", 60, 28)):
        r = TakeAndBreak(code)
        q = misere_quotient(r, max_heap=top, progress=False)
        opts = _options(code, top)
        keep = qmod._KeptSets()
        pre = _reduce(Pretension(FiniteMonoid(np.asarray(q.table)), np.asarray(q.P, dtype=bool),
                                 list(q.phi[:start])), opts[:start])
        assert pre.monoid.size == q.order
        for n in range(start, top + 1):
            got = qmod._conservative(pre, opts[: n + 1], n, 2_000_000, None, keep)
            assert got is not None and keep.pre is got       # carried to the next heap
            full = qk.new_kept(got.monoid.size)
            assert qk.verify(got, opts[: n + 1], kept=full) is None
            for x in range(got.monoid.size):
                assert sorted(keep.kept.sets(x)) == sorted(full.sets(x)), (code, n, x)
            checked += 1
            pre = got
    assert checked > 40


def test_a_stale_or_disabled_kernel_is_not_used(monkeypatch):
    import warnings as w

    from cgtalg.quotients import _quotc  # type: ignore[attr-defined]

    try:
        qk.KERNEL.reset()
        monkeypatch.setattr(_quotc, "SOURCE_HASH", "0" * 16)
        with w.catch_warnings(record=True) as got:
            w.simplefilter("always")
            assert qk.load() is None
        assert "stale" in qk.status() and any("rebuild" in str(x.message) for x in got)
        monkeypatch.undo()
        qk.KERNEL.reset()
        monkeypatch.setenv("CGTALG_PURE_PYTHON", "1")
        assert qk.load() is None and qk.status().startswith("disabled")
    finally:
        monkeypatch.undo()
        qk.KERNEL.reset()
        assert qk.load() is not None and qk.status() == "compiled"


def test_python_and_compiled_searches_keep_the_same_minimal_sets():
    for code, top in (("0.123", None), ("0.72", None), ("0.07", 22)):
        pre, opts = _quotient_pre(code, top)
        sets: dict = {}
        assert verify_pretension_python(pre, opts, kept_out=sets) is None
        kept = qk.new_kept(pre.monoid.size)
        assert qk.verify(pre, opts, kept=kept) is None
        for x in range(pre.monoid.size):
            assert sorted(kept.sets(x)) == sorted(tuple(sorted(T)) for T in sets.get(x, ()))


@pytest.mark.parametrize("code,n", [("0.07", 25), ("0.77", 12), ("0.137", 20), ("0.123", 14)])
def test_a_table_rebuilt_from_the_generators_columns_is_the_quotients(code, n):
    """The reduction builds the table of a quotient from its generators' columns
    (``x·(y·g) = (x·y)·g``); on verified quotients that rebuild is their table, and a column that
    does not generate the monoid is refused."""
    from cgtalg.quotients.construct import misere_quotient
    from cgtalg.quotients.pretension import table_from_generators
    from cgtalg.rulesets.heaps.octal import TakeAndBreak

    q = misere_quotient(TakeAndBreak(code), max_heap=n, progress=False)
    t = np.asarray(q.table)
    gens = sorted(set(q.phi) - {0})
    got = table_from_generators([t[:, g].astype(np.int32) for g in gens], t.shape[0])
    assert np.array_equal(got, t)
    with pytest.raises(AssertionError):
        table_from_generators([t[:, g].astype(np.int32) for g in gens[:1]], t.shape[0])
