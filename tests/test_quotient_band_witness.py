"""The band form of the order witness (issue 34): ``P`` iff ``t <= b − a < t_end`` on a region and
residue classes (:mod:`cgtalg.quotients.rays_witness`; the referee's proof in
:mod:`cgtalg.referee.ray_witness`).

Case: 0.3337 (digits from the code, Winning Ways ch. 4). ``Q_14`` has order 30; counting heap 15
gives a ray pretension (heaps 14 and 15 free) that verifies, but no half-line rule separates the
powers of 15: ``2 + 14·a + 15·b`` is P exactly for ``b − a`` in {2, 4} (``a``, ``b`` even). The
rule is compared with brute-force misère play, and the certificate with the referee, also after
tampering."""

from __future__ import annotations

import copy
import itertools
import json

import pytest

from cgtalg.quotients import construct as Q
from cgtalg.quotients.rays import decode_ray, full_witness
from cgtalg.quotients.rays_witness import in_rule
from cgtalg.referee import rays as referee_rays
from cgtalg.rulesets.heaps.octal import TakeAndBreak

from test_quotient_auto import _brute


@pytest.fixture(scope="module")
def q3337():
    q = Q.misere_quotient(TakeAndBreak("0.3337"), max_seconds=120, partial=True, resume=False)
    assert q.infinite_from == 15, q.note
    return q


def test_q15_of_0_3337_is_infinite_by_a_band_and_the_band_is_brute_force_true(q3337):
    assert q3337.max_heap == 14 and q3337.order == 30
    ray, witness, _top = decode_ray(q3337.certificate["ray"])
    r0, t, M, al, be, a0, b0, sense = full_witness(witness)
    assert sense >= 3 and q3337.certificate["witness"]["sense"] == "band"
    assert q3337.certificate["witness"]["t_end"] == t + sense - 2
    base = list(ray.words[r0])
    is_p = _brute("0.3337")
    seen = 0
    for a, b in itertools.product(range(a0, a0 + 6), range(b0, b0 + 8)):
        if a % M != al or b % M != be or sum(base) + 14 * a + 15 * b > 80:
            continue
        assert is_p(base + [14] * a + [15] * b) == bool(in_rule(b - a, t, sense)), (a, b)
        seen += 1
    assert seen >= 3
    # P somewhere and N above the band: the band separates
    assert any(in_rule(d, t, sense) for d in range(t, t + sense - 2))


def test_the_referee_accepts_the_band_and_refuses_it_moved(q3337):
    doc = json.loads(json.dumps(q3337.to_dict()))
    assert all(v.ok for v in referee_rays.check(doc))

    def refused(edit) -> bool:
        d = copy.deepcopy(doc)
        edit(d["certificate"]["witness"])
        try:
            return not all(v.ok for v in referee_rays.check(d))
        except Exception:
            return True

    end = doc["certificate"]["witness"]["t_end"]
    assert refused(lambda w: w.update(t_end=end + 2))
    assert refused(lambda w: w.update(t_end=end - 1) if end - 1 > w["t"] + 1 else w.update(t_end=w["t"]))
    assert refused(lambda w: w.pop("t_end"))
    assert refused(lambda w: w.update(sense="ge"))
