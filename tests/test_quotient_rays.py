"""Ray pretensions (cgtalg.quotients.rays): infinite quotients ``R × N × N`` verified from
a finite certificate. Checked against finite quotients that are already verified (read as ray
pretensions they must verify and predict the same outcomes), against brute-force play, by
changing one reachable table entry (every such change must be caught: each ``(r, a, b)`` is the
image of a position with a fixed outcome), and, slow, on heap 34 of Dawson's Kayles."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from cgtalg.errors import ArgumentError, InfiniteQuotientError
from cgtalg.quotients.rays import (
    OFFSETS,
    RayRules,
    adjoin_ray_heap,
    fit_rules,
    free_heap,
    order_witness,
    ray_pairs,
    ray_pretension_from_level,
    verify_ray_pretension,
)
from cgtalg.quotients.state import _heap_options
from cgtalg.rulesets.heaps.octal import TakeAndBreak

from quotient_helpers import fresh_quotient


def _brute(code):
    opts: dict[int, list[tuple[int, ...]]] = {}
    rs = TakeAndBreak(code)
    memo: dict[tuple[int, ...], bool] = {}

    def heap_opts(h):
        if h not in opts:
            opts[h] = sorted({tuple(sorted(p for p in parts if p)) for parts in rs.heap_options(h)})
        return opts[h]

    def is_p(pos):
        pos = tuple(sorted(h for h in pos if h and heap_opts(h)))
        if pos not in memo:
            res = bool(pos)
            for i, h in enumerate(pos):
                if i and pos[i - 1] == h:
                    continue
                rest = pos[:i] + pos[i + 1:]
                if any(is_p(rest + o) for o in heap_opts(h)):
                    res = False
                    break
            memo[pos] = res
        return memo[pos]

    return is_p


# -- the reduction and the finite set of points ---------------------------------------------------
RULES = [RayRules(2, 6, 2, 4, 1, 2), RayRules(1, 0, 1, 0, 1, 0), RayRules(2, 1, 1, 3, 2, 1),
         RayRules(1, 3, 2, 2, 2, 3)]


@pytest.mark.parametrize("rules", RULES, ids=str)
def test_reduction_lemmas(rules):
    A, B = rules.table_shape
    for a, b in itertools.product(range(40), repeat=2):
        ra, rb = rules.reduce(a, b)
        assert 0 <= ra < A and 0 <= rb < B
        assert rules.reduce(ra, rb) == (ra, rb)
        if b - a > rules.K:
            assert rules.reduce(a, b - rules.q) == (ra, rb)
        if a - b > rules.K2:
            assert rules.reduce(a - rules.p, b) == (ra, rb)
        if min(a, b) > rules.m0:
            assert rules.reduce(a - rules.s, b - rules.s) == (ra, rb)


def _signature(rules, a, b):
    """What the conditions at (a, b) read: the reduction of each neighbour in N², the flags."""
    return (tuple(rules.reduce(a + x, b + y) if a + x >= 0 and b + y >= 0 else None for x, y in OFFSETS),
            a >= 1, b >= 1, (a, b) == (0, 0))


@pytest.mark.parametrize("rules", RULES, ids=str)
def test_every_point_has_the_signature_of_a_checked_point(rules):
    """The translation argument of the module docstring, replayed point by point."""
    checked = set(rules.check_points())
    sigs = {_signature(rules, a, b) for a, b in checked}
    for a, b in itertools.product(range(45), repeat=2):
        assert _signature(rules, a, b) in sigs, (a, b)


def test_rules_refuse_bad_parameters():
    with pytest.raises(ArgumentError):
        RayRules(3, 1, 1, 0, 1, 0)           # q > K + 1
    with pytest.raises(ArgumentError):
        RayRules(1, 0, 1, 0, 2, 0)           # s > m0 + 1
    with pytest.raises(ArgumentError):
        RayRules(1, 0, 1, 0, 1, 0).reduce(-1, 0)


def test_fit_rules_finds_a_planted_rule():
    rng = np.random.default_rng(3)
    planted = RayRules(2, 3, 1, 2, 1, 1)
    A, B = planted.table_shape
    F = rng.random((30, A, B)) < 0.5
    grid = np.stack([np.stack([F[:, planted.reduce(a, b)[0], planted.reduce(a, b)[1]] for b in range(12)], axis=1)
                     for a in range(20)], axis=1)
    got = fit_rules(grid)
    assert got is not None
    for a, b in itertools.product(range(20), range(12)):
        assert np.array_equal(grid[:, a, b], grid[:, got.reduce(a, b)[0], got.reduce(a, b)[1]])


# -- finite quotients read as ray pretensions -------------------------------------------------------
CASES = [("0.07", 14), ("0.77", 12), ("0.137", 16), ("0.07", 25), ("0.07", 33)]


@pytest.fixture(scope="module", params=CASES, ids=lambda c: f"{c[0]}-{c[1]}")
def finite_case(request):
    code, n = request.param
    _q, pre = fresh_quotient(code, n)
    u = free_heap(pre, n)
    rp = ray_pretension_from_level(pre, u, n, 12)
    options = [_heap_options(TakeAndBreak(code), h) for h in range(n + 1)]
    return code, n, pre, rp, options


def test_a_finite_quotient_verifies_as_a_ray_pretension(finite_case):
    code, n, pre, rp, options = finite_case
    assert verify_ray_pretension(rp, options) is None
    assert order_witness(rp) is None          # a finite quotient has no order witness
    # the same outcome as the finite quotient on every (r, a, b), a, b < 20
    for r, w in enumerate(rp.words):
        x = pre.image(w)
        for b in range(20):
            y = x
            for a in range(20):
                assert bool(pre.P[y]) == bool(rp.p_at(a, b)[r])
                y = pre.monoid.mul(y, pre.phi[rp.u])
            x = pre.monoid.mul(x, pre.phi[n])


def test_ray_predictions_against_brute_force(finite_case):
    code, n, _pre, rp, _options = finite_case
    is_p = _brute(code)
    rng = random.Random(7)
    for _ in range(150):
        pos = [rng.choice([rp.u, n])]
        while rng.random() < 0.8:
            h = rng.randint(1, 12)
            if sum(pos) + h > n + 14:
                break
            pos.append(h)
        assert is_p(pos) == rp.is_p(pos), pos


def test_compiled_and_python_pairs_agree(finite_case):
    _code, _n, _pre, rp, options = finite_case
    assert sorted(ray_pairs(rp, options, compiled=True)) == sorted(ray_pairs(rp, options, compiled=False))


def test_one_changed_reachable_entry_is_caught(finite_case):
    _code, _n, _pre, rp, options = finite_case
    R = rp.rules
    A, B = R.table_shape
    reachable = [(a, b) for a in range(A) for b in range(B)
                 if min(a, b) <= R.m0 and -R.K2 <= b - a <= R.K]
    rng = random.Random(11)
    for _ in range(8):
        a, b = rng.choice(reachable)
        r = rng.randrange(rp.order_r)
        rp.F[r, a, b] ^= True
        try:
            fail = verify_ray_pretension(rp, options)
        finally:
            rp.F[r, a, b] ^= True
        assert fail is not None, (r, a, b)
        assert fail.kind in ("P", "N")


def test_ray_pretension_errors(finite_case):
    _code, n, pre, rp, _options = finite_case
    with pytest.raises(ArgumentError):
        rp.image([n + 1])
    with pytest.raises(ArgumentError):
        ray_pretension_from_level(pre, n, n, 12)
    with pytest.raises(ArgumentError):
        verify_ray_pretension(rp, [])


def test_an_option_with_two_copies_of_u_widens_the_check_points():
    """Heap 14 of 0.07 splits into 6 + 6: with u = 6 the conditions read two steps away, beyond
    the first neighbourhood, so the check points are those of the offsets read
    (:meth:`RayRules.check_points_for`); the finite quotient Q_14, read as a ray pretension,
    verifies with them, and its predictions agree with brute force."""
    _q, pre = fresh_quotient("0.07", 14)
    rp = ray_pretension_from_level(pre, 6, 14, 12)
    options = [_heap_options(TakeAndBreak("0.07"), h) for h in range(15)]
    pts = rp.check_points(options)
    assert (2, 0) in {e for _c, e in rp.option_images(options, 14)} and set(pts) != set(rp.rules.check_points())
    assert verify_ray_pretension(rp, options) is None
    is_p = _brute("0.07")
    rng = random.Random(14)
    for _ in range(150):
        pos = [rng.choice([1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13]) for _ in range(rng.randint(0, 2))]
        pos += [6] * rng.randint(0, 4) + [14] * rng.randint(0, 2)
        if sum(pos) <= 50:
            assert rp.is_p(pos) == is_p(pos), pos


def test_an_option_with_too_many_counted_copies_is_refused(finite_case):
    """Past MAX_EPS copies of counted heaps in one option the verification refuses (a proof
    search then treats it as no proof)."""
    from cgtalg.quotients.rays import MAX_EPS

    import dataclasses

    _code, n, _pre, rp, options = finite_case
    rp = dataclasses.replace(rp, _cache={})       # its option images are cached per heap
    opts = [list(o) for o in options]
    h = next(h for h in range(1, n + 1) if rp.lift(h) is None and opts[h])
    opts[h] = opts[h] + [(rp.u,) * (MAX_EPS + 1)]
    with pytest.raises(ArgumentError, match="more counted heaps"):
        verify_ray_pretension(rp, opts)


OFFSET_SETS = [OFFSETS, OFFSETS + ((2, 0), (1, 0)), OFFSETS + ((-1, 2), (2, -1)), ((0, 0), (1, 0), (0, 1), (3, 0))]


@pytest.mark.parametrize("rules", RULES, ids=str)
@pytest.mark.parametrize("offsets", OFFSET_SETS, ids=str)
def test_the_check_points_of_any_offsets_have_every_signature(rules, offsets):
    """The translation argument of :meth:`RayRules.check_points_for`, replayed point by point:
    every point reads what some check point reads."""
    def sig(a, b):
        return (tuple(rules.reduce(a + x, b + y) if a + x >= 0 and b + y >= 0 else None for x, y in offsets),
                a >= 1, b >= 1, (a, b) == (0, 0))

    sigs = {sig(a, b) for a, b in rules.check_points_for(offsets)}
    for a, b in itertools.product(range(45), repeat=2):
        assert sig(a, b) in sigs, (a, b)


# -- the loader refuses what the verification would not notice ---------------------------------------
class _Meta:
    """A store as the quotient loader sees it (sequence metadata only)."""

    def __init__(self):
        self.meta = {}

    def sequence_meta(self, key):
        return self.meta.get(key)

    def put_sequence_meta(self, key, meta, replace=False):
        self.meta[key] = meta


def _stored_ray(finite_case, edit):
    from cgtalg.quotients.rays import encode_ray
    from cgtalg.quotients.storage import RAYS, quotient_key

    code, n, _pre, rp, _options = finite_case
    rec = encode_ray(rp, (0, 2), n)
    edit(rec, rp)
    store = _Meta()
    store.put_sequence_meta(quotient_key(TakeAndBreak(code)), {RAYS: rec})
    return store, rec


@pytest.mark.parametrize("finite_case", [("0.07", 14)], indirect=True, ids=["0.07-14"])
def test_a_stored_ray_with_heap_0_remapped_is_refused(finite_case):
    """Heap 0 has no move; mapped to another element, the verification (which never moves in it)
    passed, and is_p((0,)) could say P. The loader refuses it before verifying."""
    from cgtalg.errors import StoreCorruptError
    from cgtalg.quotients.rays import decode_ray
    from cgtalg.quotients.storage import Checkpointer, check_rays_record

    def remap(rec, rp):
        rec["row"][0] = next(i for i in rec["row"] if i > 0)

    store, rec = _stored_ray(finite_case, remap)
    ray, _w, _top = decode_ray(rec)
    assert ray.image([0]) != (0, 0, 0)
    why = check_rays_record(TakeAndBreak("0.07"), rec)
    assert isinstance(why, str) and "heap 0 has no move" in why
    with pytest.raises(StoreCorruptError, match="heap 0 has no move but does not map to the identity"):
        Checkpointer(TakeAndBreak("0.07"), store).load_rays()
    # and the verification itself refuses to call it verified
    options = [_heap_options(TakeAndBreak("0.07"), h) for h in range(15)]
    with pytest.raises(ArgumentError, match="heap 0 has no move"):
        verify_ray_pretension(ray, options)


@pytest.mark.parametrize("finite_case", [("0.07", 14)], indirect=True, ids=["0.07-14"])
def test_a_stored_ray_with_columns_that_do_not_commute_is_refused(finite_case):
    import base64
    import zlib

    from cgtalg.errors import StoreCorruptError
    from cgtalg.quotients.rays import commute_problem
    from cgtalg.quotients.storage import Checkpointer

    def swap(rec, rp):
        cols = rp.cols.astype("<i4").copy()
        i = rp.row[4]
        # a column whose image of 0 is changed to another element: it no longer commutes
        cols[i, 0] = (cols[i, 0] + 1) % rp.order_r
        assert commute_problem(cols) is not None
        rec["cols"] = base64.b64encode(zlib.compress(cols.tobytes())).decode("ascii")

    store, _rec = _stored_ray(finite_case, swap)
    with pytest.raises(StoreCorruptError, match="do not commute"):
        Checkpointer(TakeAndBreak("0.07"), store).load_rays()


def test_commuting_columns_pass():
    from cgtalg.quotients.rays import commute_problem

    z4 = np.array([[1, 2, 3, 0], [2, 3, 0, 1]])           # x + 1, x + 2 mod 4
    assert commute_problem(z4) is None
    assert "do not commute" in commute_problem(np.array([[1, 0, 2], [0, 2, 2]]))


# -- Dawson's Kayles, heap 34 -------------------------------------------------------------------------
@pytest.mark.slow
def test_dawson_kayles_q34_is_infinite():
    """Q_34(0.07) as a verified ray pretension (u = 30), found by the counting strategy on its
    own: every position of heaps <= 34 gets its outcome, the powers of heap 34 are pairwise
    distinguishable, the outcome rules of docs/quotient_frontier.md hold, Q_35 = Q_34 and heap
    36 does not fit (Plambeck & Siegel computed Q_n(0.07) up to n = 33, order 638)."""
    from cgtalg.budget import Deadline
    from cgtalg.quotients.count import extend_counting

    code, n = "0.07", 34
    _q, pre = fresh_quotient(code, n - 1)
    options = [_heap_options(TakeAndBreak(code), h) for h in range(38)]
    got = {}

    def keep(lev, cand, *_):
        got[lev.copies] = cand

    with pytest.raises(InfiniteQuotientError) as info:
        extend_counting(pre, options[:n + 1], n, 50_000_000, Deadline(None, "8G"), 60000, on_level=keep)
    exc = info.value
    assert exc.heap == n and len(exc.levels) == max(got) + 1
    rp, (r0, t) = exc.ray, exc.witness[:2]
    assert (rp.u, rp.order_r) == (30, 1456) and t == 2
    # verified again, with the Python N-search this time
    assert verify_ray_pretension(rp, options[:n + 1], compiled=False) is None
    assert order_witness(rp)[:2] == (r0, t)
    # the level candidate is right up to its copies of heap 34 (proved separately): agree there
    B = max(got)
    cand = got[B]
    for r in range(0, rp.order_r, 7):
        x = cand.image(rp.words[r])
        for b in range(B + 1):
            y = x
            for a in range(25):
                assert bool(cand.P[y]) == bool(rp.p_at(a, b)[r])
                y = cand.monoid.mul(y, cand.phi[30])
            x = cand.monoid.mul(x, cand.phi[n])
    # the outcome rules (unchanged by the steps of red, so a, b < 60 covers every a, b)
    for a, b in itertools.product(range(60), range(1, 60)):
        assert rp.is_p((2, 4, 25) + (30,) * a + (34,) * b) == (b >= a + 2)
        assert rp.is_p((14, 25) + (30,) * a + (34,) * b) == (b <= a + 1 and (a + b) % 2 == 1)
    ext = adjoin_ray_heap(rp, options[:36])
    assert ext is not None and ext.image([35]) == ext.image([2, 28])
    assert adjoin_ray_heap(ext, options[:37]) is None
    is_p = _brute(code)
    rng = random.Random(5)
    for _ in range(40):
        pos = [rng.choice([34, 35])] + [rng.randint(1, 5) for _ in range(rng.randint(0, 2))]
        assert is_p(pos) == ext.is_p(pos), pos


# -- how a proof of infinitude reaches the caller ---------------------------------------------------
@pytest.fixture
def fake_proof(monkeypatch, finite_case):
    """``prove_infinite`` answering at once (the plumbing only: the proof itself is the slow test
    above), with a real ray pretension so that the message can name its parts."""
    from cgtalg.quotients import count as quotient_count

    rp = finite_case[3]
    calls = []

    def fake(cand, n, copies, options, max_states=0, deadline=None):
        calls.append((n, copies))
        return (rp, (0, 2)) if n == rp.v else None

    monkeypatch.setattr(quotient_count, "prove_infinite", fake)
    monkeypatch.setattr(quotient_count, "RAY_FROM_LEVEL", 0)
    return calls


@pytest.mark.parametrize("finite_case", [("0.07", 14)], indirect=True, ids=["0.07-14"])
def test_an_infinite_quotient_stops_the_construction(fake_proof):
    from cgtalg.quotients import construct as Q
    from cgtalg.quotients.state import forget_known

    forget_known()
    with pytest.raises(InfiniteQuotientError) as info:
        Q.misere_quotient("0.07", max_heap=14, strategy="counting", partial=False, progress=False, resume=False)
    exc = info.value
    n = exc.heap
    assert fake_proof and fake_proof[-1][0] == n == 14 and exc.ray is not None and exc.witness[:2] == (0, 2)
    assert f"Q_{n} is infinite (proved" in str(exc) and exc.partial.max_heap == n - 1
    assert exc.partial.infinite_from == n and exc.partial.certificate["infinite_from"] == n
    forget_known()
    q = Q.misere_quotient("0.07", max_heap=14, strategy="counting", partial=True, progress=False, resume=False)
    # the verdict is a field (and its certificate), not only a sentence of the note
    assert q.max_heap == n - 1 and q.infinite_from == n
    cert = q.certificate
    assert cert["kind"] == "infinite-misere-quotient" and cert["game"] == "0.07" and cert["ray"]["v"] == n
    assert cert["last_finite"] == {"heap": n - 1, "order": q.order, "p_count": len(q.p_portion)}
    assert q.to_dict()["infinite_from"] == n and q.to_dict()["certificate"] is cert
    forget_known()


@pytest.mark.parametrize("finite_case", [("0.07", 14)], indirect=True, ids=["0.07-14"])
def test_cli_says_no_budget_helps(fake_proof, tmp_path):
    import json

    from click.testing import CliRunner

    from cgtalg.cli.main import cli
    from cgtalg.quotients.state import forget_known

    forget_known()
    r = CliRunner().invoke(cli, ["--store", f"sqlite:///{tmp_path / 's.db'}", "quotient", "0.07", "-n", "14",
                                 "--strategy", "counting", "--json"], obj={})
    forget_known()
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["infinite_from"] == 14 and d["hint"].startswith("no budget gives a finite quotient")
    assert d["certificate"]["kind"] == "infinite-misere-quotient" and d["certificate"]["infinite_from"] == 14
    # the referee reads the document: this proof is made up (a finite quotient with a made-up
    # witness), so it is refused, naming the witness
    from cgtalg.referee import check_document

    verdicts = check_document(d)
    assert not verdicts[0].ok and "witness" in " ".join(verdicts[0].reasons)
    # the proof was stored, and is re-verified when read: this one (a finite quotient read as
    # a ray pretension, with a made-up witness) verifies but has no order witness, so it is refused
    r = CliRunner().invoke(cli, ["--store", f"sqlite:///{tmp_path / 's.db'}", "quotient", "0.07", "-n", "14",
                                 "--strategy", "counting", "--json"], obj={})
    forget_known()
    assert r.exit_code != 0 and "no order witness" in r.output + str(r.exception), r.output


@pytest.mark.slow
def test_dawson_kayles_proof_is_stored_and_answers_positions(tmp_path):
    """The proof that Q_34(0.07) is infinite is stored beside Q_33, re-verified when read (a
    rerun stops at once), answers outcomes and winning moves of positions of heaps <= 35 that
    no search reaches (and, on small ones, what brute-force play says), and a tampered record
    is refused."""
    import time

    from cgtalg.errors import StoreCorruptError
    from cgtalg.quotients import construct as Q
    from cgtalg.quotients import play as quotient_play
    from cgtalg.quotients.play import quotient_outcome, quotient_winning_moves
    from cgtalg.quotients.rays import decode_ray, encode_ray
    from cgtalg.quotients.state import forget_known
    from cgtalg.quotients.storage import RAYS, quotient_key
    from cgtalg.store.store import open_store

    store = open_store(f"sqlite:///{tmp_path / 's.db'}")
    forget_known()
    q = Q.misere_quotient("0.07", strategy="counting", max_order=20000, store=store, partial=True, progress=False)
    assert q.max_heap == 33 and q.order == 638
    assert q.infinite_from == 34 and q.certificate["heaps_covered"] == 35
    forget_known()
    t0 = time.monotonic()
    q = Q.misere_quotient("0.07", strategy="counting", max_order=20000, store=store, partial=True, progress=False)
    assert "a stored proof re-verified" in q.note and time.monotonic() - t0 < 60
    assert q.infinite_from == 34 and q.certificate["heaps_covered"] == 35
    # exported from the store, and checked by the referee from the definitions
    from cgtalg.quotients.storage import ray_certificate
    from cgtalg.referee import check_document

    cert = ray_certificate(TakeAndBreak("0.07"), store)
    assert cert["infinite_from"] == 34 and cert["same_quotient_through"] == 35
    assert cert["last_finite"] == {"heap": 33, "order": 638, "p_count": 109}
    verdicts = check_document(cert)
    assert len(verdicts) == 1 and verdicts[0].ok, verdicts[0]
    from cgtalg.store.verify import verify_store

    checked = verify_store(store, sample=None)
    assert checked["ok"], checked["problems"]
    assert checked["checked"]["quotients_rechecked"] == 2       # Q_33 and the proof beside it
    rs = TakeAndBreak("0.07")
    quotient_play._RAYS.clear()
    big = (6, 25) + (30,) * 40
    assert quotient_outcome(rs, big + (34,) * 42, store) == "P"
    assert quotient_outcome(rs, big + (34,) * 41, store) == "N"
    assert quotient_outcome(rs, (36, 2), store) is None          # heap 36 is not covered
    is_p = _brute("0.07")
    for pos in [(34, 2), (35, 4, 1), (34, 3, 2), (35, 6), (34, 1, 1, 4)]:
        assert quotient_outcome(rs, pos, store) == ("P" if is_p(pos) else "N"), pos
        got = {(m[0], m[3]) for m in quotient_winning_moves(rs, pos, store)}
        want = set()
        for i, h in enumerate(pos):
            if h in pos[:i]:
                continue
            rest = pos[:i] + pos[i + 1:]
            for parts in rs.heap_options(h):
                parts = tuple(p for p in parts if p)
                if is_p(rest + parts):
                    want.add((i, parts))
        assert got == want, pos
    # a reachable table entry changed in the store: refused when read
    key = quotient_key(rs)
    meta = store.sequence_meta(key)
    ray, witness, top = decode_ray(meta[RAYS])
    R = ray.rules
    ray.F[5, 0, R.K] ^= True
    meta[RAYS] = encode_ray(ray, witness, top)
    store.put_sequence_meta(key, meta, replace=True)
    forget_known()
    quotient_play._RAYS.clear()
    with pytest.raises(StoreCorruptError, match="does not verify"):
        Q.misere_quotient("0.07", strategy="counting", max_order=20000, store=store, partial=True, progress=False)
    with pytest.warns(RuntimeWarning, match="does not verify"):
        assert quotient_outcome(rs, big + (34,) * 42, store) is None
    problems = verify_store(store, sample=None)["problems"]
    assert any("infinite is rejected" in p["problem"] for p in problems), problems
    forget_known()
