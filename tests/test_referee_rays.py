"""The referee of infinite misère quotients (cgtalg.referee.rays), on the certificates cgtalg writes.

* the two certificates committed in docs/data (Q_34(0.07) and Q_33(0.137) infinite) are read,
  their outcomes agree with brute-force misère play written here from the rules, and (slow, as
  in CI's slow step) the referee accepts them in full;
* every claim edited to something false is rejected, with the reason naming the field
  (infinite_from, heaps_covered, the witness, a column entry, an F entry, a rule, the game, heap
  0 remapped, columns that do not commute, the quoted orders);
* the referee's own P-/N-conditions and N-search accept the finite quotients of
  tests/test_quotient_rays.py read as ray pretensions (the same pairs as the library's search),
  and catch every changed reachable table entry there;
* Lemma 6 replayed point by point: every point of N² has the signature of a check point.
"""

from __future__ import annotations

import copy
import functools
import itertools
import json
import random
from pathlib import Path

import pytest

from cgtalg.referee import Malformed, check_document, rays
from cgtalg.referee._verdict import Verdict
from ray_doc_helpers import cols_of as _cols, set_cols as _set_cols, set_table as _set_F, table_of as _F

DATA = Path(__file__).resolve().parent.parent / "docs" / "data"
Q34 = DATA / "Q34_0.07_infinite.json"
Q33 = DATA / "Q33_0.137_infinite.json"


@functools.lru_cache(maxsize=None)
def _doc(path: Path) -> str:
    return path.read_text()


def load(path: Path = Q34) -> dict:
    return json.loads(_doc(path))


# -- brute force from the rules ---------------------------------------------------------------------
def dawson_options(n: int) -> list[tuple[int, ...]]:
    """Dawson's Kayles, octal 0.07 (Berlekamp, Conway & Guy, *Winning Ways*, ch. 4; Guy & Smith,
    *The G-values of various games*, 1956): a move removes two tokens from one heap and leaves
    0, 1 or 2 non-empty heaps (two adjacent pins knocked down from a row)."""
    m = n - 2
    if m < 0:
        return []
    if m == 0:
        return [()]
    return [(m,)] + [(a, m - a) for a in range(1, m // 2 + 1)]


@functools.lru_cache(maxsize=None)
def _is_p(pos: tuple[int, ...]) -> bool:
    # misère play: a position is P iff it has a move and every option is N (heaps 0 and 1 have
    # no move and are dropped: pos holds heaps >= 2 only, sorted)
    if not pos:
        return False
    for i, h in enumerate(pos):
        if i and pos[i - 1] == h:
            continue
        rest = pos[:i] + pos[i + 1:]
        for opt in dawson_options(h):
            if _is_p(tuple(sorted(rest + tuple(x for x in opt if x >= 2)))):
                return False
    return True


def brute_is_p(position) -> bool:
    return _is_p(tuple(sorted(h for h in position if h >= 2)))


def test_brute_force_knows_dawsons_kayles():
    # misère: the player who cannot move wins. Heaps 2 and 3 have one move, after which the
    # opponent cannot move and wins: P. 2 + 2 and 4 move to 2: N. No heap with a move: N.
    assert brute_is_p((2,)) and brute_is_p((3,)) and brute_is_p((1, 3, 0))
    assert not brute_is_p((2, 2)) and not brute_is_p((4,)) and not brute_is_p(()) and not brute_is_p((1, 1, 0))


# -- the committed certificates ---------------------------------------------------------------------
def test_the_certificates_are_recognised_and_read():
    from cgtalg.referee import quotients

    for path, game, v, top in ((Q34, "0.07", 34, 35), (Q33, "0.137", 33, 34)):
        doc = load(path)
        assert rays.recognise(doc) and not quotients.recognise(doc)
        assert rays.recognise({"game": game, "order": 638, "certificate": doc})
        c = rays.read(doc)
        assert (c.game, c.v, c.top, doc["infinite_from"], doc["heaps_covered"]) == (game, v, top, v, top)
        assert doc["last_finite"] == {"heap": v - 1, "order": 638, "p_count": 109}
        assert doc["same_quotient_through"] == top


def test_predictions_agree_with_brute_force():
    """The outcomes the 0.07 certificate predicts (the referee's own reading of it) against
    exhaustive misère play: every position of up to three heaps <= 12, and heaps 34 and 35 (and
    30, the heap u) with small heaps."""
    c = rays.read(load())
    for k in range(4):
        for pos in itertools.combinations_with_replacement(range(13), k):
            assert c.is_p(pos) == brute_is_p(pos), pos
    rng = random.Random(4)
    for _ in range(120):
        pos = [rng.choice([30, 34, 35])] + [rng.randint(1, 8) for _ in range(rng.randint(0, 2))]
        assert c.is_p(pos) == brute_is_p(pos), pos
    # the witness's rule at small a, b (6 + 25 + 30·a + 34·b, P iff b >= a + 2) and the
    # certificate agree on what they say
    assert c.is_p((6, 25, 34, 34)) and not c.is_p((6, 25, 34)) and not c.is_p((6, 25, 30, 34, 34))


# -- edits: every false claim is rejected, naming the field -------------------------------------------
def _flip(doc, r, a, b):
    F = _F(doc)
    F[r, a, b] ^= True
    _set_F(doc, F)


def _col_entry(doc):
    cols = _cols(doc)
    cols[3, 5] = (cols[3, 5] + 1) % cols.shape[1]
    _set_cols(doc, cols)


def _non_commuting(doc):
    """Two columns exchanged on two elements: maps on R still, but no longer commuting."""
    cols = _cols(doc)
    i = doc["ray"]["row"][4]
    cols[i, [0, 1]] = cols[i, [1, 0]]
    _set_cols(doc, cols)


def _heap0(doc):
    doc["ray"]["row"][0] = doc["ray"]["row"][2]


def _set(path, value):
    def edit(doc):
        d = doc
        for key in path[:-1]:
            d = d[key]
        d[path[-1]] = value
    return edit


EDITS = {
    "infinite_from": (_set(["infinite_from"], 33), "certificate.infinite_from"),
    "infinite_from missing": (lambda d: d.pop("infinite_from"), "certificate.infinite_from"),
    "heaps_covered": (_set(["heaps_covered"], 36), "certificate.heaps_covered"),
    "top": (_set(["ray", "top"], 36), "certificate.ray.row"),
    "same_quotient_through": (_set(["same_quotient_through"], 36), "certificate.same_quotient_through"),
    "last_finite order": (_set(["last_finite", "order"], 637), "certificate.last_finite.order"),
    "last_finite p_count": (_set(["last_finite", "p_count"], 110), "certificate.last_finite.p_count"),
    "last_finite heap": (_set(["last_finite", "heap"], 34), "certificate.last_finite.heap"),
    "witness t": (_set(["witness", "t"], 3), "certificate.witness"),
    "witness t out of range": (_set(["witness", "t"], 6), "certificate.witness.t"),
    "witness position": (_set(["witness", "position"], [6, 24]), "certificate.witness.element"),
    "witness position with u": (_set(["witness", "position"], [30, 25]), "certificate.witness.position"),
    "witness element": (_set(["witness", "element"], 48), "certificate.witness.element"),
    "record's witness": (_set(["ray", "witness"], [47, 3]), "certificate.ray.witness"),
    "column entry": (_col_entry, "certificate.ray.cols"),
    "non-commuting columns": (_non_commuting, "do not commute"),
    "heap 0 remapped": (_heap0, "heap 0 has no move"),
    "F: the identity in P": (lambda d: _flip(d, 0, 0, 0), "certificate.ray.F"),
    "F: the witness's row": (lambda d: _flip(d, 47, 0, 3), "certificate.witness"),
    "F: an entry of Q_33": (lambda d: _flip(d, 0, 2, 0), "certificate."),
    "rule q": (_set(["ray", "rules", "q"], 1), "certificate.ray.rules"),
    "rule K (the table's shape)": (_set(["ray", "rules", "K"], 7), "certificate.ray.F_shape"),
    "rule out of range": (_set(["ray", "rules", "s"], 4), "certificate.ray.rules"),
    "game": (_set(["game"], "0.137"), "certificate.game = '0.137'"),
    "game unreadable": (_set(["game"], "no such game"), "certificate.game"),
    "u and v": (_set(["ray", "u"], 34), "certificate.ray"),
    "format": (_set(["format"], 2), "certificate.format"),
}


def _rejected(doc) -> str:
    """The reasons the referee gives (it must not accept)."""
    try:
        verdicts = rays.check(doc)
    except Malformed as exc:
        return "malformed: " + str(exc)
    assert not all(v.ok for v in verdicts), "a false claim was accepted"
    return " | ".join(r for v in verdicts for r in v.reasons if r.startswith("FAIL"))


@pytest.mark.parametrize("name", list(EDITS))
def test_a_false_claim_is_rejected_naming_the_field(name):
    edit, field = EDITS[name]
    doc = copy.deepcopy(load())
    edit(doc)
    why = _rejected(doc)
    assert field in why, why


def test_the_fields_of_a_quotient_document_are_checked():
    """A ``cgtalg quotient --json`` document: its finite quotient's order, P-portion, max_heap,
    game and infinite_from must agree with what the certificate proves."""
    cert = load()
    outer = {"game": "0.07", "max_heap": 33, "order": 638, "p_portion": ["x"] * 109, "final": False,
             "infinite_from": 34, "certificate": cert}
    for key, value, field in (("order", 639, "order"), ("p_portion", ["x"] * 108, "p_portion"),
                              ("game", "0.137", "game"), ("infinite_from", 35, "infinite_from"),
                              ("final", True, "final")):
        doc = dict(outer, **{key: value})
        why = _rejected(doc)
        assert why.startswith(f"FAIL: {field}") or f"| FAIL: {field}" in why, why


def test_a_made_up_witness_on_a_finite_quotient_is_rejected():
    """A finite quotient read as a ray pretension is a correct pretension but has no order
    witness: a certificate built from it with a made-up witness claims a false infinitude."""
    from cgtalg.quotients.infinite import infinite_certificate

    _code, n, _pre, rp, _options = _finite("0.07", 14)
    cert = infinite_certificate("0.07", rp, (0, 2), n)
    why = _rejected(cert)
    assert "certificate.witness" in why, why


# -- the referee's conditions and search on finite quotients read as rays --------------------------
@functools.lru_cache(maxsize=None)
def _finite(code, n):
    from cgtalg.quotients.rays import free_heap, ray_pretension_from_level
    from cgtalg.quotients.state import _heap_options
    from cgtalg.rulesets.heaps.octal import TakeAndBreak

    from quotient_helpers import fresh_quotient

    _q, pre = fresh_quotient(code, n)
    rp = ray_pretension_from_level(pre, free_heap(pre, n), n, 12)
    return code, n, pre, rp, [_heap_options(TakeAndBreak(code), h) for h in range(n + 1)]


def _as_referee(code, n):
    from cgtalg.quotients.infinite import infinite_certificate

    _code, _n, _pre, rp, _options = _finite(code, n)
    return rays.read(infinite_certificate(code, rp, (0, 2), n))


@pytest.mark.parametrize("case", [("0.07", 14), ("0.77", 12), ("0.137", 16), ("0.07", 25)], ids=str)
def test_the_conditions_hold_and_the_search_agrees_on_finite_quotients(case):
    from cgtalg.quotients.rays import ray_pairs

    c = _as_referee(*case)
    vd = Verdict("test", "", True)
    options = rays.structure(c, vd)
    assert options is not None and vd.ok, vd
    got = rays.conditions(c, options, vd)
    assert got is not None and vd.ok, vd
    _points, pairs = got
    rp, lib_options = _finite(*case)[3], _finite(*case)[4]
    # the library numbers W with EPS = ((0,0), (1,0), (0,1)); the referee with the ε's it meets
    S = rays._images(c, options)
    eps = sorted({e for h, imgs in S.items() if h not in (c.u, c.v) for _col, e in imgs})
    lib_eps = ((0, 0), (1, 0), (0, 1))
    renum = [lib_eps.index(e) for e in eps]
    mine = {(x, tuple(sorted(t % c.order_r + renum[t // c.order_r] * c.order_r for t in T))) for x, T in pairs}
    assert mine == {(x, tuple(T)) for x, T in ray_pairs(rp, lib_options)}
    # the outcomes of the finite quotient itself
    pre = _finite(*case)[2]
    for r, w in enumerate(c.words()[:200]):
        for a, b in itertools.product(range(6), range(6)):
            x = pre.image(list(w) + [c.u] * a + [c.v] * b)
            assert bool(pre.P[x]) == bool(c.p_at(a, b)[r])


@pytest.mark.parametrize("case", [("0.07", 14), ("0.77", 12)], ids=str)
def test_every_changed_reachable_entry_is_caught(case):
    c = _as_referee(*case)
    R = c.rules
    A, B = R.shape
    reachable = [(a, b) for a in range(A) for b in range(B) if min(a, b) <= R.m0 and -R.K2 <= b - a <= R.K]
    rng = random.Random(11)
    for _ in range(8):
        a, b = rng.choice(reachable)
        r = rng.randrange(c.order_r)
        c.F[r, a, b] ^= True
        try:
            vd = Verdict("test", "", True)
            options = rays.structure(c, vd)
            if options is not None:
                rays.conditions(c, options, vd)
        finally:
            c.F[r, a, b] ^= True
        assert not vd.ok and "certificate.ray.F" in vd.reasons[0], (r, a, b, vd)


# -- Lemma 6, replayed -------------------------------------------------------------------------------
RULES = [rays.Rules(2, 6, 2, 4, 1, 2), rays.Rules(1, 0, 1, 0, 1, 0), rays.Rules(2, 1, 1, 3, 2, 1),
         rays.Rules(1, 3, 2, 2, 2, 3)]
OFFSETS = [{(0, 0), (1, 0), (0, 1), (-1, 0), (0, -1), (1, -1)},          # Dawson's Kayles
           {(0, 0), (1, 0), (0, 1), (-1, 0), (0, -1), (2, 0), (1, -1), (-1, 1), (0, 2)}]


@pytest.mark.parametrize("rules", RULES, ids=str)
@pytest.mark.parametrize("offsets", OFFSETS, ids=["0.07", "wider"])
def test_every_point_has_the_signature_of_a_check_point(rules, offsets):
    """What the conditions at (a, b) read: the reduction of each neighbour that is read (those
    with a negative part are not: a move in u needs a >= 1), and the flags."""
    def signature(a, b):
        return (tuple(rules.red(a + x, b + y) if a + x >= 0 and b + y >= 0 else None
                      for x, y in sorted(offsets)), a >= 1, b >= 1, (a, b) == (0, 0))

    sigs = {signature(a, b) for a, b in rays.check_points(rules, offsets)}
    for a, b in itertools.product(range(45), repeat=2):
        assert signature(a, b) in sigs, (a, b)


@pytest.mark.parametrize("rules", RULES, ids=str)
def test_the_reduction_lemmas(rules):
    A, B = rules.shape
    for a, b in itertools.product(range(40), repeat=2):
        ra, rb = rules.red(a, b)
        assert 0 <= ra < A and 0 <= rb < B and rules.red(ra, rb) == (ra, rb)
        if b - a > rules.K:
            assert rules.red(a, b - rules.q) == (ra, rb)
        if a - b > rules.K2:
            assert rules.red(a - rules.p, b) == (ra, rb)
        if min(a, b) > rules.m0:
            assert rules.red(a - rules.s, b - rules.s) == (ra, rb)


# -- slow: the referee in full on the committed certificates -----------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("path", [Q34, Q33], ids=["Q34_0.07", "Q33_0.137"])
def test_the_referee_accepts_the_committed_certificates(path):
    """What `cgtalg check docs/data/...` runs: about 15 s each on one core (the N-search over
    6 730 minimal pairs dominates)."""
    verdicts = check_document(load(path))
    assert len(verdicts) == 1 and verdicts[0].ok, verdicts[0]
    v = verdicts[0]
    assert "Q_n is infinite for every n >=" in v.claim and "order 638, |P| = 109" in v.claim


@pytest.mark.slow
def test_changed_table_entries_of_the_certificate_are_rejected():
    rng = random.Random(5)
    base = load()
    R = base["ray"]["rules"]
    for _ in range(3):
        doc = copy.deepcopy(base)
        a = rng.randrange(R["m0"] + 1)
        b = a + rng.randrange(1, R["K"] + 1)
        _flip(doc, rng.randrange(base["ray"]["order_r"]), a, b)
        why = _rejected(doc)
        assert "certificate." in why, why
