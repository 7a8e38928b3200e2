"""Infinite quotients where several heaps share the free image (issue 34, "a refined R"):
:attr:`cgtalg.quotients.rays.RayPretension.classes` and the referee's classes
(``certificate.ray.u_class``, :mod:`cgtalg.referee.ray_read`).

Case: 0.564 (digits from the code, Winning Ways ch. 4). ``Q_10`` has order 30. Counting heap 11
passes level after level (``11^0 … 11^37`` pairwise distinct in 150 s) but heaps 5 and 6 share
one image whose powers run free with those of 11, so a pretension that counts 5 alone puts 6,
with the same unbounded powers, into ``R`` and no rules fit (docs/quotient_frontier_passes.md). With
both counted as copies of ``u`` the pretension verifies. Everything it predicts is compared with
brute-force misère play from the code's digits (no library engine), and the certificate with the
referee, also after tampering."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from cgtalg.quotients import construct as Q
from cgtalg.quotients.rays import check_classes, decode_ray, encode_ray, full_witness
from cgtalg.referee import rays as referee_rays
from cgtalg.rulesets.heaps.octal import TakeAndBreak

from quotient_helpers import limited_counting, referee_refuses_ray_edit
from test_quotient_auto import _brute


@pytest.fixture(scope="module")
def q564():
    q = Q.misere_quotient(TakeAndBreak("0.564"), max_seconds=120, partial=True, resume=False)
    assert q.infinite_from == 11, q.note
    return q


def test_q11_of_0_564_is_infinite_with_heaps_5_and_6_counted_together(q564):
    assert q564.max_heap == 10 and q564.order == 30
    ray, witness, top = decode_ray(q564.certificate["ray"])
    assert (ray.u, ray.v, top) == (5, 11, 11)
    assert ray.us == (5, 6) and ray.vs == (11,)
    assert ray.image([5, 6, 6, 11]) == (0, 3, 1)


def test_every_prediction_matches_brute_force(q564):
    ray, witness, _top = decode_ray(q564.certificate["ray"])
    is_p = _brute("0.564")
    rnd = random.Random(564)
    others = [h for h in range(1, 11) if h not in (5, 6)]
    checked = 0
    while checked < 250:
        pos = (rnd.sample(others, rnd.randint(0, 3)) + [5] * rnd.randint(0, 3) + [6] * rnd.randint(0, 3)
               + [11] * rnd.randint(0, 3))
        if sum(pos) > 56:
            continue
        checked += 1
        assert ray.is_p(pos) == is_p(pos), pos
    # the witness's rule where brute force reaches, with the copies of u as heaps 5 or 6
    r0, t, M, al, be, a0, b0, sense = full_witness(witness)
    base = list(ray.words[r0])
    seen = 0
    for a, b in itertools.product(range(a0, a0 + 7), range(max(b0, 1), max(b0, 1) + 5)):
        if a % M != al or b % M != be or sum(base) + 6 * a + 11 * b > 64:
            continue
        rule = (b - a >= t) if sense > 0 else (b - a < t)
        for k in sorted({0, a // 2, a}):            # k heaps 6, the rest heaps 5
            assert is_p(base + [6] * k + [5] * (a - k) + [11] * b) == rule, (a, b, k)
        seen += 1
    assert seen >= 3


def test_the_referee_accepts_the_certificate_and_refuses_tampering(q564):
    doc = json.loads(json.dumps(q564.to_dict()))
    verdicts = referee_rays.check(doc)
    assert all(v.ok for v in verdicts), [v.reasons for v in verdicts]
    assert any("u-class {5, 6}" in r for r in verdicts[0].reasons)

    def refused(edit) -> bool:
        return referee_refuses_ray_edit(doc, edit)

    def drop_6(ray):                             # heap 6 no longer counted, and no column for it
        ray["u_class"] = [5]

    def add_4(ray):                              # heap 4 claimed to behave like 5
        ray["u_class"] = [4, 5, 6]
        ray["u"] = 4

    def move_6(ray):                             # heap 6 claimed to behave like 11
        ray["u_class"] = [5]
        ray["v_class"] = [6, 11]

    for edit in (drop_6, add_4, move_6):
        assert refused(edit), edit.__name__


def test_the_stored_form_checks_its_classes(q564):
    ray, witness, top = decode_ray(q564.certificate["ray"])
    rec = encode_ray(ray, witness, top)
    assert rec["u_class"] == [5, 6] and rec["v_class"] == [11]
    assert check_classes(5, 11, ray.row, (5, 6), (11,)) is None
    assert "row −1" in check_classes(5, 11, ray.row, (5,), (11,))
    assert "share" in check_classes(5, 11, list(ray.row) + [-1], (5, 6, 12), (11, 12))
    assert "from v" in check_classes(5, 11, ray.row, (5,), (6, 11))
    assert "from u" in check_classes(5, 11, ray.row, (6, 5), (11,))
    for bad in ({"u_class": [5]}, {"u_class": [6, 5]}, {"v_class": [11, 12]}):
        with pytest.raises(ValueError):
            decode_ray({**rec, **bad})


def test_a_stored_level_is_proved_when_resumed(tmp_path, monkeypatch):
    """Levels stored by a run that had no proof of this shape (the ray proof switched off here,
    as before classes existed) are proved when a rerun resumes them, before any new level is
    counted (the census store held level 37 of 0.564 from such a run)."""
    from cgtalg.errors import ComputationLimitError, InfiniteQuotientError
    from cgtalg.quotients.state import _heap_options, forget_known, known_state
    from cgtalg.quotients.storage import Checkpointer
    from cgtalg.store import open_store

    rs = TakeAndBreak("0.564")
    store = open_store(str(tmp_path / "s.sqlite"))
    forget_known()
    Q.misere_quotient(rs, max_heap=10, progress=False, store=store)
    pre = known_state(rs).pre
    forget_known()
    options = [_heap_options(rs, h) for h in range(12)]
    seen: list[int] = []
    ck = Checkpointer(rs, store)
    monkeypatch.setattr(Q, "extend_counting", limited_counting(seen, 8, rays=False))
    with pytest.raises(ComputationLimitError):
        Q._count_copies(pre, options, 11, 2_000_000, None, 5000, ck)
    assert seen == list(range(8)) and ck.has_level(11)
    seen.clear()
    monkeypatch.setattr(Q, "extend_counting", limited_counting(seen, 20, rays=True))
    with pytest.raises(InfiniteQuotientError) as info:
        Q._count_copies(pre, options, 11, 2_000_000, None, 5000, ck)
    assert seen == [] and info.value.ray.us == (5, 6)    # proved at the resumed level 7
