"""Linear ray pretensions (cgtalg.quotients.rays_linear): Q_5 of 0.354 is infinite.

Counting copies of heap 5 of 0.354 proves 5, 5², …, 5⁷⁰ pairwise distinguishable but no ray
pretension of two counted heaps fits: the outcome turns on c5 − 3·c2 − 4·c3 − 2·c4. The values
checked here come from exhaustive misère play written in this file from the octal digits, not
from the pretension's code.
"""

from __future__ import annotations

import copy
import functools
import itertools
import random

import numpy as np
import pytest

from cgtalg.quotients import rays_linear as L
from cgtalg.rulesets.heaps.octal import TakeAndBreak


@functools.lru_cache(maxsize=None)
def _digit_moves(code: str, n: int) -> tuple[tuple[int, ...], ...]:
    """The options of one heap of n tokens, from the octal digits (Winning Ways ch. 4)."""
    digits = [int(c) for c in code.split(".")[1]]
    out = set()
    for t, d in enumerate(digits, start=1):
        left = n - t
        if left < 0:
            continue
        if d & 1 and left == 0:
            out.add(())
        if d & 2 and left >= 1:
            out.add((left,))
        if d & 4 and left >= 2:
            out.update((a, left - a) for a in range(1, left // 2 + 1))
    return tuple(sorted(out))


@functools.lru_cache(maxsize=None)
def _misere_p(code: str, pos: tuple[int, ...]) -> bool:
    """Misère P-position of the octal game ``code`` (pos sorted), by exhaustive play."""
    if not pos:
        return False                      # the player to move cannot move, and wins
    for i, h in enumerate(pos):
        if i and pos[i - 1] == h:
            continue
        rest = pos[:i] + pos[i + 1:]
        for o in _digit_moves(code, h):
            if _misere_p(code, tuple(sorted(rest + o))):
                return False
    return True


def _p354(pos: tuple[int, ...]) -> bool:
    return _misere_p("0.354", pos)


@pytest.fixture(scope="module")
def proof():
    r = TakeAndBreak("0.354")
    opts = [list(r.heap_options(h)) if h else [] for h in range(6)]
    got = L.prove_linear(opts, 5)
    assert got is not None
    return got[0], got[1], opts


def test_the_moves_written_here_are_the_rulesets():
    r = TakeAndBreak("0.354")
    for n in range(1, 12):
        assert sorted(tuple(sorted(o)) for o in r.heap_options(n)) == [tuple(sorted(o)) for o in _digit_moves("0.354", n)]
        assert sorted(tuple(sorted(o)) for o in TakeAndBreak("0.536").heap_options(n)) == list(_digit_moves("0.536", n))


def test_the_weights_are_the_tempo_count(proof):
    lr, wit, _opts = proof
    assert lr.lam == [0, 0, -3, -4, -2, 1]
    assert wit["heap"] == 5


def test_every_small_position_is_predicted_as_played(proof):
    lr, _wit, _opts = proof
    checked = 0
    for counts in itertools.product(range(7), range(5), range(4), range(4), range(9)):
        heaps = tuple(sorted(h for h, c in zip(range(1, 6), counts) for _ in range(c)))
        if sum(heaps) > 40:
            continue
        assert lr.predicts(heaps) == _p354(heaps), heaps
        checked += 1
    assert checked > 2500


def test_large_random_positions_are_predicted_as_played(proof):
    """Positions of up to 14 copies of heap 5 with heaps 2, 3, 4: beyond the fitted data's sizes
    for several of them (the fit played out positions of at most ~108 tokens)."""
    lr, _wit, _opts = proof
    rng = random.Random(354)
    for _ in range(40):
        heaps = tuple(sorted([5] * rng.randint(0, 14) + [4] * rng.randint(0, 3) + [3] * rng.randint(0, 3)
                             + [2] * rng.randint(0, 3) + [1] * rng.randint(0, 2)))
        assert lr.predicts(heaps) == _p354(heaps), heaps


@pytest.mark.parametrize("heaps", [(5,) * 22 + (3, 3), (5,) * 24 + (2,), (5,) * 26, (5,) * 23 + (4, 4, 1)])
def test_positions_larger_than_the_fit_saw_are_predicted_as_played(proof, heaps):
    """More tokens (116-130) than any position the fit played out (its table stops near 108)."""
    lr, _wit, _opts = proof
    assert lr.predicts(tuple(sorted(heaps))) == _p354(tuple(sorted(heaps)))


def test_a_fit_past_the_table_bound_is_reduced_on_its_generators_before_a_table_is_made(proof, monkeypatch):
    """The fit's R × C (96 elements for 0.354, 30 after the reduction) with the bound on a dense
    table set between the two: the fit reduces it on the generators' columns alone and gives a
    ray of at most the bound that predicts every small position as played (brute force above) and
    verifies; below the reduced order, or with the product itself past its bound, no fit."""
    _lr, _wit, opts = proof
    counts, outcomes, _t = L.count_outcomes(opts, 5)
    full = L.fit_linear_ray(counts, outcomes)
    assert full.order_r == 96
    monkeypatch.setattr(L, "MAX_ORDER_R", 40)
    small = L.fit_linear_ray(counts, outcomes)
    assert small is not None and small.order_r == 30 and small.lam == full.lam
    for counts_ in itertools.product(range(6), range(4), range(3), range(3), range(8)):
        heaps = tuple(sorted(h for h, c in zip(range(1, 6), counts_) for _ in range(c)))
        if sum(heaps) <= 36:
            assert small.predicts(heaps) == _p354(heaps), heaps
    assert L.verify_linear_ray(small, opts) is None
    monkeypatch.setattr(L, "MAX_ORDER_R", 29)
    assert L.fit_linear_ray(counts, outcomes) is None
    monkeypatch.setattr(L, "MAX_ORDER_R", 40)
    monkeypatch.setattr(L, "MAX_PRODUCT_R", 95)
    assert L.fit_linear_ray(counts, outcomes) is None


def test_cells_the_fit_never_saw_are_completed_as_not_p_and_the_verification_decides(proof):
    """0.354's fit with every cell that is not P hidden (as if the data never showed it): the
    verification stops on an unseen cell; completed as not P it is the true function, verifies
    and predicts every small position as played. With one P cell hidden as well (that of a
    P-position found by brute force), the completion calls it N and nothing verifies."""
    import dataclasses

    from cgtalg.quotients import rays_linear_level as LL

    _lr, _wit, opts = proof
    counts, outcomes, _t = L.count_outcomes(opts, 5)
    lr = LL.minimize(L.fit_linear_ray(counts, outcomes))
    hidden = dataclasses.replace(lr, known=lr.known & lr.F)
    assert L.verify_linear_ray(hidden, opts).startswith(L.UNSEEN_CELL)
    got = LL.settle_linear(hidden, opts)
    assert got is not None and got[0].known is None
    assert L.verify_linear_ray(got[0], opts) is None
    for counts_ in itertools.product(range(5), range(3), range(3), range(3), range(7)):
        heaps = tuple(sorted(h for h, c in zip(range(1, 6), counts_) for _ in range(c)))
        if sum(heaps) <= 32:
            assert got[0].predicts(heaps) == _p354(heaps), heaps
    p_pos = next(hp for hp in [(1, 1, 5, 5), (2, 5), (3, 5, 5), (2, 2, 5, 5), (5, 5), (1, 5)] if _p354(hp))
    r, z = lr.image(p_pos)
    worse = hidden.known.copy()
    worse[r, lr.fold(z) - lr.lo] = False
    assert LL.settle_linear(dataclasses.replace(lr, known=worse), opts) is None


def test_the_witness_tells_the_powers_of_heap_5_apart_in_play(proof):
    """For 2 <= a < b <= 8 a position of the witness's probes separates 5^a from 5^b in play."""
    lr, wit, _opts = proof
    (hp, _ep), (hm, _em) = wit["probes"]
    for a, b in itertools.combinations(range(2, 9), 2):
        found = None
        for i, j in itertools.product(range(2, 10), range(1, 6)):
            probe = (hp,) * i + (hm,) * j
            pa, pb = tuple(sorted((5,) * a + probe)), tuple(sorted((5,) * b + probe))
            if lr.predicts(pa) != lr.predicts(pb):
                found = (pa, pb)
                break
        assert found is not None, (a, b)
        assert _p354(found[0]) != _p354(found[1])


def test_a_finite_quotient_gets_no_linear_proof():
    r = TakeAndBreak("0.77")          # Kayles: finite (order 40)
    opts = [list(r.heap_options(h)) if h else [] for h in range(6)]
    assert L.prove_linear(opts, 5, max_vectors=300_000) is None


@pytest.mark.parametrize("edit", ["lam", "cell", "period"])
def test_an_edited_pretension_does_not_verify(proof, edit):
    lr, _wit, opts = proof
    bad = copy.deepcopy(lr)
    bad.known = None
    if edit == "lam":
        bad.lam = list(bad.lam)
        bad.lam[3] = -3
    elif edit == "period":
        bad.q_hi = 2
    else:
        # the cell of 5 + 5 + 5 (predicted from the game: 5^3 alone is P)
        r, z = bad.image((5, 5, 5))
        c = bad.fold(z) - bad.lo
        bad.F = bad.F.copy()
        bad.F[r, c] = not bad.F[r, c]
    assert L.verify_linear_ray(bad, opts) is not None


def test_the_certificate_round_trips(proof):
    lr, wit, opts = proof
    doc = L.linear_certificate("0.354", lr, wit)
    assert doc["infinite_from"] == 5 and "last_finite" not in doc
    back = L.decode_linear(doc["linear"])
    assert back.lam == lr.lam and np.array_equal(back.table, lr.table)
    assert L.verify_linear_ray(back, opts) is None
    assert L.linear_witness(back) == wit


# -- the store -----------------------------------------------------------------------------------
class _Meta:
    """A store as the quotient loader sees it (sequence metadata only)."""

    def __init__(self):
        self.meta = {}

    def sequence_meta(self, key):
        return self.meta.get(key)

    def put_sequence_meta(self, key, meta, replace=False):
        self.meta[key] = meta


def _stored(proof, edit=None):
    from cgtalg.quotients.storage import RAYS, quotient_key

    lr, wit, _opts = proof
    rec = {"linear": L.encode_linear(lr), "witness": dict(wit)}
    if edit is not None:
        edit(rec)
    store = _Meta()
    store.put_sequence_meta(quotient_key(TakeAndBreak("0.354")), {RAYS: rec})
    return store


def test_a_stored_linear_ray_is_read_back_verified(proof):
    from cgtalg.quotients.storage import Checkpointer, ray_certificate

    lr, wit, _opts = proof
    got = Checkpointer(TakeAndBreak("0.354"), _stored(proof)).load_rays()
    assert got is not None and got[0].lam == lr.lam and got[1] == wit and got[2] == 5
    cert = ray_certificate(TakeAndBreak("0.354"), _stored(proof))
    assert cert["infinite_from"] == 5 and "linear" in cert and "last_finite" not in cert


@pytest.mark.parametrize("edit, why", [
    (lambda rec: rec["linear"]["lam"].__setitem__(3, -3), "does not verify"),
    (lambda rec: rec["linear"].__setitem__("periods", [2, 2]), "does not verify"),
    (lambda rec: rec["linear"].__setitem__("order_r", 95), "cannot be read"),
])
def test_a_stored_linear_ray_edited_is_refused(proof, edit, why):
    from cgtalg.errors import StoreCorruptError
    from cgtalg.quotients.storage import Checkpointer

    with pytest.raises(StoreCorruptError, match=why):
        Checkpointer(TakeAndBreak("0.354"), _stored(proof, edit)).load_rays()


def test_the_construction_proves_it_and_a_rerun_reads_it_from_the_store(tmp_path):
    """misere_quotient finds Q_5 infinite by itself (counting, then the linear ray at level 6),
    stores the proof, and a rerun answers from the store; the referee accepts the certificate."""
    from cgtalg.quotients.construct import misere_quotient
    from cgtalg.referee import rays as referee_rays
    from cgtalg.store import open_store

    with open_store(str(tmp_path / "q.sqlite")) as store:
        q = misere_quotient(TakeAndBreak("0.354"), max_seconds=300, store=store, partial=True, progress=False)
        assert q.infinite_from == 5 and q.max_heap == 4 and q.order == 14
        assert "linear" in q.certificate and "last_finite" not in q.certificate
        again = misere_quotient(TakeAndBreak("0.354"), max_seconds=300, store=store, partial=True, progress=False)
        assert again.infinite_from == 5 and "a stored proof re-verified" in again.note
        assert again.certificate == q.certificate
    verdict = referee_rays.check(q.certificate)[0]
    assert verdict.ok, verdict.reasons
    assert verdict.checker == "cgtalg.referee.ray_linear.check"


# -- read off a counting level: Q_15 of 0.536 ------------------------------------------------------
def _p536(pos: tuple[int, ...]) -> bool:
    return _misere_p("0.536", pos)


@pytest.fixture(scope="module")
def q536():
    from cgtalg.quotients.construct import misere_quotient

    return misere_quotient(TakeAndBreak("0.536"), max_seconds=300, partial=True, progress=False)


def test_0536_is_proved_infinite_from_heap_15_by_a_level_read_linear_ray(q536):
    """Counting heap 15 frees heaps 5 and 10 (their powers stay apart as long as 15's): the outcome
    turns on c15 − c5 − c10; two older heaps and the new one, read off the level's candidate."""
    assert q536.infinite_from == 15 and q536.max_heap == 14 and q536.order == 100
    lin = L.decode_linear(q536.certificate["linear"])
    assert [h for h in range(16) if lin.lam[h]] == [5, 10, 15]
    assert (lin.lam[5], lin.lam[10], lin.lam[15]) == (-1, -1, 1)


def test_0536_predictions_agree_with_exhaustive_play(q536):
    lin = L.decode_linear(q536.certificate["linear"])
    rng = random.Random(536)
    checked = 0
    for _ in range(400):
        heaps = tuple(sorted(rng.choice([15, 15, 15, 10, 10, 5, 5, 11] + list(range(1, 15)))
                             for _ in range(rng.randint(1, 6))))
        if sum(heaps) > 48:
            continue
        assert lin.predicts(heaps) == _p536(heaps), heaps
        checked += 1
    assert checked > 150


def test_0536_witness_separates_powers_of_15_in_play(q536):
    """The certificate's witness (a base position, probes 15 and 5): the least position of the
    probes and the base that the prediction says tells 15² from 15³ does so in exhaustive play."""
    lin = L.decode_linear(q536.certificate["linear"])
    wit = q536.certificate["witness"]
    (hp, *_e), (hm, *_f) = wit["probes"]
    base = tuple(wit.get("base", ()))
    probes = sorted(((hp,) * i + (hm,) * j + base for i, j in itertools.product(range(0, 3), range(0, 6))), key=sum)
    for probe in probes:
        pa, pb = tuple(sorted((15, 15) + probe)), tuple(sorted((15, 15, 15) + probe))
        if lin.predicts(pa) != lin.predicts(pb):
            assert sum(pb) <= 80
            assert _p536(pa) != _p536(pb), (pa, pb)
            return
    raise AssertionError("no probe of the witness tells 15^2 from 15^3")


def test_the_verification_stops_at_a_spent_budget_in_every_phase(proof):
    """A spent budget stops the verification in its first phases too (the closure of the images
    and the P-condition, which checked no deadline: a 40 s run of ``cgtalg quotient 0.07`` ran
    3 s past its budget there, into the command's backstop). 0.354's ray verifies in far fewer
    than the N-search's states, so without those checks it would answer None."""
    from cgtalg.budget import Deadline
    from cgtalg.errors import ComputationLimitError

    lr, _wit, opts = proof
    assert L.verify_linear_ray(lr, opts, deadline=Deadline(None)) is None
    spent = Deadline(1e-9)
    _t = sum(range(200_000))          # a little CPU, so that the budget has run out
    with pytest.raises(ComputationLimitError, match="verifying a linear ray"):
        L.verify_linear_ray(lr, opts, deadline=spent)


def test_the_fit_stops_at_a_spent_budget(proof):
    """The fit's phases after the weights (the window, the classes, the division by the
    congruence) check the budget too: ``0.16`` with 20 s ran 6 s past it there."""
    from cgtalg.budget import Deadline
    from cgtalg.errors import ComputationLimitError

    _lr, _wit, opts = proof
    counts, outcomes, _t = L.count_outcomes(opts, 5)
    spent = Deadline(1e-9)
    _t = sum(range(200_000))
    with pytest.raises(ComputationLimitError, match="linear ray"):
        L.fit_linear_ray(counts, outcomes, deadline=spent)
    rows = np.array([[0], [1], [0], [1]], dtype=np.int8)
    with pytest.raises(ComputationLimitError, match="congruence"):
        L.moore_classes(rows, [np.array([1, 2, 3, 3])], spent)
