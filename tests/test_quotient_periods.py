"""Periods longer than 2 in the powers of counted heaps (issue 34): the ray rules fitted with the
periods a level's data show (:mod:`cgtalg.quotients.rays_fit`).

Case: 0.3377 (digits from the code). Counting heap 17 with heap 12 free, the outcomes repeat with
period 6 along heap 12 (the rules found: steps 2, 6 and 4 along heap 17, heap 12 and the diagonal); with periods 1 and 2 only, no rules fit and the
census stopped at heap 17 with ``|Q_17| >= 3788``. The proof is checked by the referee, and its
order witness by brute-force misère play from the digits (no library engine)."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

from cgtalg.quotients import construct as Q
from cgtalg.quotients.rays import RayRules, decode_ray
from cgtalg.quotients.rays_fit import fit_rules, shown_periods
from cgtalg.referee import check_document
from cgtalg.rulesets.heaps.octal import TakeAndBreak

from quotient_helpers import brute_misere


def _planted(rules: RayRules, A: int, B: int, seed: int = 5) -> np.ndarray:
    rng = np.random.default_rng(seed)
    TA, TB = rules.table_shape
    F = rng.random((40, TA, TB)) < 0.5
    return np.stack([np.stack([F[:, rules.reduce(a, b)[0], rules.reduce(a, b)[1]] for b in range(B)], axis=1)
                     for a in range(A)], axis=1)


@pytest.mark.parametrize("planted", [RayRules(2, 3, 6, 6, 2, 2), RayRules(4, 4, 1, 1, 3, 3),
                                     RayRules(1, 0, 1, 0, 1, 0)])
def test_a_planted_rule_with_longer_periods_is_found(planted):
    grid = _planted(planted, 32, 32)
    got = fit_rules(grid)
    assert got is not None
    for a, b in itertools.product(range(32), range(32)):
        ra, rb = got.reduce(a, b)
        assert np.array_equal(grid[:, a, b], grid[:, ra, rb]), (a, b)


def test_the_periods_are_read_off_the_data():
    grid = _planted(RayRules(2, 3, 6, 6, 2, 2), 32, 32)
    _u, ids = np.unique(grid.reshape(grid.shape[0], -1), axis=1, return_inverse=True)
    along_b, along_a, _diag = shown_periods(np.asarray(ids).reshape(32, 32))
    assert 6 in along_a and not along_b - {4, 6, 8, 10, 12}


def test_without_a_pattern_nothing_fits():
    rng = np.random.default_rng(1)
    assert fit_rules(rng.random((20, 14, 14)) < 0.5) is None


@pytest.fixture(scope="module")
def q3377():
    q = Q.misere_quotient(TakeAndBreak("0.3377"), max_seconds=300, partial=True, resume=False, progress=False)
    assert q.infinite_from == 17, q.note
    return q


def test_0_3377_is_infinite_from_heap_17_and_the_referee_accepts_it(q3377):
    assert q3377.max_heap == 16 and q3377.order == 460
    ray, _witness, top = decode_ray(q3377.certificate["ray"])
    assert top == 17 and (ray.u, ray.v) == (12, 17)
    assert max(ray.rules.q, ray.rules.p, ray.rules.s) > 2
    verdicts = check_document(json.loads(json.dumps(q3377.to_dict())))
    assert verdicts and all(v.ok for v in verdicts), [v.text for v in verdicts if not v.ok]


def test_the_witness_of_0_3377_by_brute_force():
    """The order witness: 4 + 5 + 15 + 12·a + 17·b is a P-position iff b >= a (a even, b odd), by
    exhaustive play (a = 2, b = 3, 99 tokens, takes 8 minutes: left out)."""
    is_p = brute_misere("0.3377")
    assert is_p((4, 5, 15, 17))                 # a = 0, b = 1
    assert not is_p((4, 5, 15, 12, 12, 17))     # a = 2, b = 1
