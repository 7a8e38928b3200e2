"""Order witnesses on the class of ``b − a`` and on a class of one count (issue 34):
:data:`cgtalg.quotients.rays.DIFFERENCE`, ``B_ONLY``, ``A_ONLY``, and the referee's ``d_class``,
``b_class`` or ``a_class`` alone (:mod:`cgtalg.referee.ray_witness`, Lemma 7); the repair of a
stalled pair where its pretension fails (:func:`cgtalg.quotients.count._pair_proof`,
:mod:`cgtalg.quotients.rays_trace`).

Case: 4.76 (a heap may be split in two without taking; the digits 7 and 6 for one and two
tokens). ``Q_5`` has order 30. Adjoining heap 6, the counting level with one copy of heap 6
freed heaps 2 and 5 in turn, round after round, with ever larger cyclic factors: their copies
run free. The rules fitted to them have a diagonal step ``s = 1``, and the outcome depends on
the parity of ``b − a``: a class mod 2 of ``a`` and ``b`` is not kept by a diagonal step, the
class of ``b − a`` is. Two defects kept this from a proof: the stalled pair was only tried in a
round that freed the larger heap of the pair (here rounds 4, 8, … free heap 2), and witnesses
had classes of ``a`` and ``b`` only.

Everything predicted is compared with brute-force misère play written here from the code's
digits (no library engine), and the certificate with the referee, also after tampering."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from cgtalg.quotients import construct as Q
from cgtalg.quotients.rays import DIFFERENCE, decode_ray, full_witness, witness_text
from cgtalg.quotients.rays_witness import in_rule
from cgtalg.quotients.state import forget_known
from cgtalg.referee import rays as referee_rays
from cgtalg.rulesets.heaps.octal import TakeAndBreak

from quotient_helpers import brute_misere as brute, referee_refuses_ray_edit


def _infinite_quotient(code: str, v: int):
    """The quotient of ``code`` computed afresh, which must prove ``Q_v`` infinite."""
    forget_known()
    q = Q.misere_quotient(TakeAndBreak(code), max_seconds=120, partial=True, resume=False)
    assert q.infinite_from == v, q.note
    return q


def _rule_matches(ray, witness, is_p, in_class, tokens: int) -> None:
    """The witness's rule against brute force ``is_p`` at the points of its class (``in_class(a, b,
    M, β)``) with at most ``tokens`` tokens; both sides of the threshold must be met."""
    r0, t, M, al, be, a0, b0, sense = full_witness(witness)
    base = list(ray.words[r0])
    seen = set()
    for a, b in itertools.product(range(a0, a0 + 8), range(b0, b0 + 9)):
        if not in_class(a, b, M, be) or sum(base) + ray.u * a + ray.v * b > tokens:
            continue
        rule = bool(in_rule(b - a, t, sense))
        assert is_p(base + [ray.u] * a + [ray.v] * b) == rule, (a, b)
        seen.add(rule)
    assert seen == {True, False}


def _refused(doc: dict, edit) -> bool:
    """Whether the referee refuses ``doc`` with ``edit`` applied to its certificate."""
    return referee_refuses_ray_edit(doc, edit, part=None)


@pytest.fixture(scope="module")
def q476():
    return _infinite_quotient("4.76", 6)


def test_q6_of_4_76_is_infinite_with_a_witness_on_the_difference(q476):
    assert q476.max_heap == 5 and q476.order == 30
    ray, witness, top = decode_ray(q476.certificate["ray"])
    assert (ray.u, ray.v, top) == (2, 5, 6)
    assert ray.counted is not None and ray.counted[:2] == (6, 2)
    r0, t, M, al, be, a0, b0, sense = full_witness(witness)
    assert al == DIFFERENCE and M == 2 and ray.rules.s % M      # a diagonal step changes a mod 2
    assert "b − a ≡" in witness_text(2, 5, "x", witness)
    w = q476.certificate["witness"]
    assert w["d_class"] == be and "a_class" not in w


def test_every_prediction_matches_brute_force(q476):
    ray, witness, _top = decode_ray(q476.certificate["ray"])
    is_p = brute("4.76")
    rnd = random.Random(476)
    checked = 0
    while checked < 300:
        pos = ([h for h in (1, 3, 4) for _ in range(rnd.randint(0, 2))] + [2] * rnd.randint(0, 5)
               + [5] * rnd.randint(0, 5) + [6] * rnd.randint(0, 1))
        if sum(pos) > 44:
            continue
        checked += 1
        assert ray.is_p(pos) == is_p(pos), pos
    # the witness's rule on its class, where brute force reaches: both sides of the threshold
    _rule_matches(ray, witness, is_p, lambda a, b, M, be: (b - a - be) % M == 0, 56)


def test_the_referee_accepts_the_certificate_and_refuses_tampering(q476):
    doc = json.loads(json.dumps(q476.to_dict()))
    verdicts = referee_rays.check(doc)
    assert all(v.ok for v in verdicts), [v.reasons for v in verdicts]
    assert any("b − a ≡" in r for r in verdicts[0].reasons)

    def refused(edit) -> bool:
        return _refused(doc, edit)

    def other_class(c):                          # the even differences: no such rule holds there
        c["witness"]["d_class"] = 1 - c["witness"]["d_class"]
        c["ray"]["witness"][4] = c["witness"]["d_class"]

    def classes_of_a_and_b(c):                   # a ≡ 0, b ≡ 1: not kept by the diagonal step s = 1
        w = c["witness"]
        w["a_class"], w["b_class"] = 0, w.pop("d_class")
        c["ray"]["witness"][3] = 0

    def both(c):
        c["witness"]["a_class"] = 0

    def no_modulus(c):                           # every difference: the rule fails on the even ones
        w = c["witness"]
        w["modulus"], w["d_class"] = 1, 0
        c["ray"]["witness"][2], c["ray"]["witness"][4] = 1, 0

    def flipped(c):
        c["witness"]["sense"] = "lt"
        c["ray"]["witness"][7] = -1

    def record_only(c):                          # the record says a ≡ 0 where the document says b − a
        c["ray"]["witness"][3] = 0

    for edit in (other_class, classes_of_a_and_b, both, no_modulus, flipped, record_only):
        assert refused(edit), edit.__name__


def test_a_difference_class_needs_a_modulus_dividing_p_and_q(q476):
    """Lemma 7's difference class: the steps of ``red`` in ``u`` and ``v`` change ``b − a`` by
    ``p`` and ``q``; a modulus that does not divide them is refused, whatever the table says."""
    doc = json.loads(json.dumps(q476.to_dict()))
    c = doc["certificate"]
    c["witness"]["modulus"] = 4
    c["ray"]["witness"][2] = 4
    verdicts = referee_rays.check(doc)
    assert not all(v.ok for v in verdicts)
    assert any("does not divide" in f for v in verdicts for f in v.reasons)


def test_a_failing_pair_is_traced_to_a_position_with_its_options(q476):
    """:func:`cgtalg.quotients.rays_trace.pair_position`: for pairs ``(x, T)`` of the N-search,
    a position of image ``x`` whose option images, computed here from the game's options one by
    one, are exactly ``T`` (the least word of ``x`` need not be one)."""
    from cgtalg.quotients.rays import ray_pairs
    from cgtalg.quotients.rays_trace import pair_position
    from cgtalg.quotients.state import _heap_options

    ray, _witness, top = decode_ray(q476.certificate["ray"])
    rs = TakeAndBreak("4.76")
    options = [_heap_options(rs, h) for h in range(top + 1)]
    eps = ray.eps(options)
    counted = set(ray.us) | set(ray.vs)
    pairs = ray_pairs(ray, options)
    assert len(pairs) > 20
    for x, T in pairs[:: max(1, len(pairs) // 25)]:
        w = pair_position(ray, options, x, T)
        assert w is not None and not counted & set(w)
        r, a, b = ray.image(w)
        assert (r, a, b) == (x, 0, 0)
        seen = set()
        for i, h in enumerate(w):
            for o in options[h]:
                r2, ea, eb = ray.image(list(w[:i] + w[i + 1:]) + [z for z in o if z])
                seen.add(r2 + eps.index((ea, eb)) * ray.order_r)
        assert seen == set(T), (w, x)


def test_a_stalled_pair_repairs_the_candidate_where_its_pretension_fails(monkeypatch):
    """0.1137 at heap 15 (``Q_14`` has order 28): heaps 10 and 12 stall the level; the pretension
    read off the round's candidate fails at ``4 + 13 + 14 + 15``, a position the candidate's
    rounds never reached (colex after every failure with many copies of 10 and 12). The repair
    frees a heap of that position, and the repaired candidate is right there (brute force)."""
    from cgtalg.quotients import count as C

    logs: list[str] = []
    real = C.extend_counting

    def logged(*a, **k):
        k["log"] = logs.append
        return real(*a, **k)

    monkeypatch.setattr(Q, "extend_counting", logged)
    forget_known()
    Q.misere_quotient(TakeAndBreak("0.1137"), max_heap=15, strategy="counting", max_seconds=40, partial=True,
                      resume=False)
    forget_known()
    fixes = [s for s in logs if "pair 10, 12: the pretension fails at" in s]
    assert fixes, logs[-3:]
    first = fixes[0].split("fails at ")[1].split(";")[0]
    w = [int(h) for h in first.split(" + ")]
    freed = int(fixes[0].split("freed ")[1].split(" ")[0])
    assert freed in w and freed not in (10, 12, 15)
    assert brute("0.1137")(w) is False          # the candidate had put it in P


# -- a class of one count: 0.524 at heap 17 ---------------------------------------------------------
#
# ``Q_16(0.524)`` has order 156. Counting heap 17 passed 42 levels in the census without a proof:
# the ray pretension with ``u = 12`` verifies, but its rules have ``p = 1``, so no class mod 2 of
# ``a`` and ``b`` together is kept, and ``12·a + 17·b`` is a P-position iff ``b − a < −1`` for ``b``
# even (any ``a``): a class of ``b`` alone, kept by the steps ``q = 2`` and ``s = 2``.


@pytest.fixture(scope="module")
def q524():
    return _infinite_quotient("0.524", 17)


def test_q17_of_0_524_is_infinite_with_a_witness_on_b_alone(q524):
    from cgtalg.quotients.rays import B_ONLY

    assert q524.max_heap == 16 and q524.order == 156
    ray, witness, top = decode_ray(q524.certificate["ray"])
    r0, t, M, al, be, a0, b0, sense = full_witness(witness)
    assert (ray.u, ray.v) == (12, 17) and al == B_ONLY and M == 2 and ray.rules.p % M
    w = q524.certificate["witness"]
    assert w["b_class"] == be and "a_class" not in w and "d_class" not in w


def test_0_524_predictions_and_rule_match_brute_force(q524):
    ray, witness, _top = decode_ray(q524.certificate["ray"])
    is_p = brute("0.524")
    rnd = random.Random(524)
    others = [h for h in range(1, 17) if h != 12]
    checked = 0
    while checked < 200:
        pos = rnd.sample(others, rnd.randint(0, 3)) + [12] * rnd.randint(0, 2) + [17] * rnd.randint(0, 2)
        if sum(pos) > 50:
            continue
        checked += 1
        assert ray.is_p(pos) == is_p(pos), pos
    _rule_matches(ray, witness, is_p, lambda a, b, M, be: (b - be) % M == 0, 72)


def test_the_referee_checks_a_class_of_one_count(q524):
    doc = json.loads(json.dumps(q524.to_dict()))
    verdicts = referee_rays.check(doc)
    assert all(v.ok for v in verdicts), [v.reasons for v in verdicts]
    assert any("b ≡ 0 (mod 2)" in r for r in verdicts[0].reasons)

    def refused(edit) -> bool:
        return _refused(doc, edit)

    def odd_b(c):                                # the odd b: no such rule there
        c["witness"]["b_class"] = 1
        c["ray"]["witness"][4] = 1

    def on_a(c):                                 # a class of a: 2 does not divide p = 1
        c["witness"]["a_class"] = c["witness"].pop("b_class")
        c["ray"]["witness"][3] = -3

    def every_b(c):
        c["witness"]["modulus"], c["witness"]["b_class"] = 1, 0
        c["ray"]["witness"][2], c["ray"]["witness"][4] = 1, 0

    def no_class(c):
        del c["witness"]["b_class"]

    for edit in (odd_b, on_a, every_b, no_class):
        assert refused(edit), edit.__name__


def test_a_class_of_a_alone_in_the_published_census():
    """0.106 (``Q_21`` of order 2692, ``Q_22`` infinite; docs/data/quotient_census.json.gz): its
    witness is on ``a ≡ 0 (mod 2)`` alone (rules with ``q = 1``, so no class of ``b`` is kept).
    The referee accepts it and refuses the other residue, no class, and the class moved to ``b``
    (2 does not divide ``q``); the rule agrees with brute-force play where it reaches."""
    import gzip
    from pathlib import Path

    from cgtalg.quotients.rays import A_ONLY

    path = Path(__file__).resolve().parents[1] / "docs" / "data" / "quotient_census.json.gz"
    rows = json.loads(gzip.decompress(path.read_bytes()))["rows"]
    doc = next(r for r in rows if r["code"] == "0.106")["certificate"]["infinite"]
    assert doc["ray"]["witness"][3] == A_ONLY and "b_class" not in doc["witness"]
    assert all(v.ok for v in referee_rays.check(doc))

    def refused(edit) -> bool:
        return _refused({"certificate": doc}, edit)

    def other_residue(c):
        c["witness"]["a_class"] = 1 - c["witness"]["a_class"]
        c["ray"]["witness"][4] = c["witness"]["a_class"]

    def no_class(c):
        c["witness"]["modulus"], c["witness"]["a_class"] = 1, 0
        c["ray"]["witness"][2], c["ray"]["witness"][4] = 1, 0

    def on_b(c):
        c["witness"]["b_class"] = c["witness"].pop("a_class")
        c["ray"]["witness"][3] = -2

    for edit in (other_residue, no_class, on_b):
        assert refused(edit), edit.__name__
    # 1 + 21·a + 22·b is a P-position iff b − a < 1, for a even
    w = doc["witness"]
    assert (w["position"], w["t"], w["sense"], w["modulus"], w["a_class"]) == ([1], 1, "lt", 2, 0)
    is_p = brute("0.106")
    for a, b in ((0, 0), (0, 1), (0, 2), (2, 0), (2, 1)):
        assert is_p([1] + [21] * a + [22] * b) == (b - a < 1), (a, b)
