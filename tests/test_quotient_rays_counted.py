"""Infinite quotients with two older heaps free and the new heap counted (issue 34, point 2):
:mod:`cgtalg.quotients.rays_counted` and the referee's :mod:`cgtalg.referee.ray_counted`.

Case: 0.1077 (digits from the code, Winning Ways ch. 4). ``Q_18`` has order 12; adjoining heap 19,
counting stalls at one copy of 19 while heaps 11 and 18 are freed again and again. The proof
frees 11 and 18, puts heap 19 (at most one copy) in ``R``, and separates the powers of heap 18.
Everything the proof predicts is compared with brute-force misère play from the code's digits
(no library engine), and the certificate with the referee, also after tampering."""

from __future__ import annotations

import copy
import itertools
import json
import random

import pytest

from cgtalg.quotients import construct as Q
from cgtalg.quotients.rays import decode_ray, full_witness
from cgtalg.quotients.rays_counted import counted_problem, stalled_pair
from cgtalg.referee import rays as referee_rays
from cgtalg.rulesets.heaps.octal import TakeAndBreak

from test_quotient_auto import _brute


@pytest.fixture(scope="module")
def q1077():
    q = Q.misere_quotient(TakeAndBreak("0.1077"), max_seconds=120, partial=True, resume=False)
    assert q.infinite_from == 19, q.note
    return q


def _doc(q) -> dict:
    return json.loads(json.dumps(q.to_dict()))


def test_the_stall_is_read_from_the_freed_heaps():
    assert stalled_pair([(11,), (18,)] * 4, 19) == (11, 18)
    assert stalled_pair([(4,), (5,)] + [(11,), (18,)] * 3, 19) == (11, 18)   # two other rounds
    assert stalled_pair([(11,), (18,), (12,), (13,)] * 2, 19) is None   # four heaps
    assert stalled_pair([(11,), (18,)] * 3, 19) is None                # too few rounds
    assert stalled_pair([(11,), (19,)] * 4, 19) is None                # the new heap itself


def test_q19_of_0_1077_is_infinite_and_every_prediction_matches_brute_force(q1077):
    assert q1077.max_heap == 18 and q1077.order == 12
    cert = q1077.certificate
    assert cert["infinite_from"] == 19 and "last_finite" not in cert
    ray, witness, top = decode_ray(cert["ray"])
    assert top == 19 and ray.counted[0] == 19 and ray.counted[1] == 2
    assert counted_problem(ray) is None
    is_p = _brute("0.1077")
    rnd = random.Random(34)
    others = [h for h in range(1, 19) if h not in (ray.u, ray.v)]
    checked = 0
    while checked < 150:
        pos = (rnd.sample(others, rnd.randint(0, 2)) + [19] * rnd.randint(0, 1)
               + [ray.u] * rnd.randint(0, 3) + [ray.v] * rnd.randint(0, 3))
        if sum(pos) > 62:
            continue
        checked += 1
        assert ray.is_p(pos) == is_p(pos), pos
    # the witness's rule, where brute force reaches: positions + a·u + b·v
    r0, t, M, al, be, a0, b0, sense = full_witness(witness)
    base = list(ray.words[r0])
    assert base.count(19) == 1
    seen = 0
    for a, b in itertools.product(range(a0, a0 + 7), range(b0, b0 + 5)):
        if a % M != al or b % M != be or sum(base) + a * ray.u + b * ray.v > 76:
            continue
        rule = (b - a >= t) if sense > 0 else (b - a < t)
        assert is_p(base + [ray.u] * a + [ray.v] * b) == rule, (a, b)
        seen += 1
    assert seen >= 2


def test_the_referee_accepts_the_certificate_and_refuses_tampering(q1077):
    doc = _doc(q1077)
    verdicts = referee_rays.check(doc)
    assert all(v.ok for v in verdicts), [v.failures for v in verdicts]
    cert = doc["certificate"]

    def refused(edit) -> bool:
        d = copy.deepcopy(doc)
        edit(d["certificate"])
        try:
            return not all(v.ok for v in referee_rays.check(d))
        except Exception:                        # Malformed: refused as unreadable
            return True

    def bump_count(c):
        k = c["ray"]["counted"]["count"]
        i = k.index(1)
        k[i] = 0

    assert refused(bump_count)                                           # Lemma C1
    assert refused(lambda c: c.update(infinite_from=18))                 # the claim is heap 19
    assert refused(lambda c: c.update(last_finite={"heap": 18, "order": 12, "p_count": 3}))
    assert refused(lambda c: c["ray"]["counted"].update(cap=3))
    assert refused(lambda c: c["ray"].pop("counted"))                    # heap 19 then unchecked
    assert refused(lambda c: c["witness"].update(t=cert["witness"]["t"] + 1))


def test_a_stored_counted_record_is_read_back_only_when_its_count_is_a_count(q1077):
    rec = copy.deepcopy(q1077.certificate["ray"])
    ray, _w, _top = decode_ray(rec)
    assert ray.counted[1] == 2
    k = rec["counted"]["count"]
    k[k.index(2)] = 1                                                   # a dead element revived
    with pytest.raises(ValueError, match="count"):
        decode_ray(rec)
