"""The referee of linear ray certificates (:mod:`cgtalg.referee.ray_linear`): a real certificate
of 0.354 (``tests/data/linear_0354.json``) accepted and its edits refused, and small certificates
built by hand checked against misère play computed here by brute force from the referee's own
moves (:func:`cgtalg.referee.heaps.heap_rules`)."""

from __future__ import annotations

import base64
import copy
import json
import random
import zlib
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

from cgtalg.referee._verdict import Malformed
from cgtalg.referee.heaps import heap_rules
from cgtalg.referee.ray_linear import check, read

DATA = Path(__file__).parent / "data" / "linear_0354.json"


# -- helpers -------------------------------------------------------------------------------------
def _b64(raw: bytes) -> str:
    return base64.b64encode(zlib.compress(raw)).decode("ascii")


def set_table(doc, table):
    doc["linear"]["table"] = _b64(np.asarray(table, dtype="<i4").tobytes())
    doc["linear"]["order_r"] = len(table)


def set_F(doc, F):
    doc["linear"]["F"] = _b64(np.packbits(np.asarray(F, dtype=bool).reshape(-1)).tobytes())


def make_doc(game, top, table, rho, lam, window, periods, F, witness=None):
    doc = {"kind": "infinite-misere-quotient", "format": 1, "game": game, "infinite_from": top,
           "heaps_covered": top, "witness": witness or {"heap": 1, "index": 0, "period": 1, "probes": [[1, 1], [1, 1]]},
           "statement": "built by hand for the tests",
           "linear": {"format": 1, "top": top, "rho": list(rho), "lam": list(lam), "window": list(window),
                      "periods": list(periods)}}
    set_table(doc, table)
    set_F(doc, F)
    return doc


def verdict(doc, **kw):
    (v,) = check(doc, **kw)
    return v


def failures(v) -> list[str]:
    return [r for r in v.reasons if r.startswith("FAIL")]


@lru_cache(maxsize=None)
def solver(game):
    """Misère outcomes by brute force (True: a P-position) of sorted tuples of heaps."""
    rules = heap_rules(game)

    @lru_cache(maxsize=None)
    def is_p(pos: tuple[int, ...]) -> bool:
        moved = False
        for k, h in enumerate(pos):
            if k and pos[k - 1] == h:
                continue
            for o in rules.options(h):
                moved = True
                if is_p(tuple(sorted(pos[:k] + pos[k + 1:] + o))):
                    return False
        return moved
    return is_p


def positions(top, tokens):
    """Every position of heaps 1 .. top with at most ``tokens`` tokens, as a sorted tuple."""
    def rec(h, rem):
        if h > top:
            yield ()
            return
        for c in range(rem // h + 1):
            for rest in rec(h + 1, rem - c * h):
                yield (h,) * c + rest
    return rec(1, tokens)


def disagreements(doc, tokens):
    c = read(doc)
    is_p = solver(c.game)
    return [pos for pos in positions(c.top, tokens) if bool(c.f(*c.image(pos))) != is_p(pos)]


# -- small certificates built by hand ----------------------------------------------------------------
# game, top, table, rho, lam, window, periods, F: each predicts its game exactly
SMALL = {
    # heap 1 → nothing: k copies of heap 1 are a P-position iff k is odd
    "0.1 parity in z": ("0.1", 1, [[0]], [0, 0], [0, 1], [0, 1], [2, 2], [[False, True]]),
    # take one token: P iff the number of tokens is odd
    "0.3 parity in z": ("0.3", 3, [[0]], [0, 0, 0, 0], [0, 1, 2, 3], [0, 1], [2, 2], [[False, True]]),
    "0.3 parity in R": ("0.3", 3, [[0, 1], [1, 0]], [0, 1, 0, 1], [0, 0, 0, 0], [0, 0], [1, 1], [[False], [True]]),
    # Dawson's Kayles below 4: heap 1 has no move, heaps 2 and 3 one move each
    "0.07 with a moveless heap": ("0.07", 3, [[0]], [0, 0, 0, 0], [0, 0, 1, 1], [-1, 2], [2, 2],
                                  [[True, False, True, False]]),
}


@pytest.mark.parametrize("name", sorted(SMALL))
def test_small_certificate_predicts_its_game_but_has_no_witness(name):
    doc = make_doc(*SMALL[name])
    assert disagreements(doc, 14) == []
    v = verdict(doc)
    assert not v.ok
    assert any("P- and N-conditions hold" in r for r in v.reasons), v
    fails = failures(v)
    assert fails and all(f.startswith("FAIL: witness") for f in fails), v


@pytest.mark.parametrize("F, window, periods, lemma", [
    ([[True, False]], [0, 1], [2, 2], "(L3)"),                  # P iff k even: the empty position P
    ([[False, True, True]], [0, 2], [2, 2], "P-condition (L4)"),  # 2 copies predicted P, and so is 1
    ([[False]], [0, 0], [1, 1], "N-condition (L5)"),             # nothing predicted P
])
def test_a_wrong_outcome_table_is_refused(F, window, periods, lemma):
    doc = make_doc("0.1", 1, [[0]], [0, 0], [0, 1], window, periods, F)
    assert disagreements(doc, 6)
    fails = failures(verdict(doc))
    assert any(lemma in f and f.startswith(("FAIL: linear.F", "FAIL: linear:")) for f in fails), fails


def test_a_wrong_R_is_refused_by_the_conditions():
    doc = make_doc("0.3", 3, [[0, 1], [1, 0]], [0, 1, 1, 1], [0, 0, 0, 0], [0, 0], [1, 1], [[False], [True]])
    assert disagreements(doc, 6)
    assert any("-condition (L" in f for f in failures(verdict(doc)))


def test_a_moveless_heap_must_map_to_the_identity():
    doc = make_doc("0.07", 3, [[0]], [0, 0, 0, 0], [0, 1, 1, 1], [-1, 2], [2, 2], [[True, False, True, False]])
    fails = failures(verdict(doc))
    assert any("linear.lam[1]" in f and "no move" in f for f in fails), fails


@pytest.mark.parametrize("table, words", [
    ([[0, 1, 2], [1, 2, 0], [2, 1, 0]], "not commutative"),
    ([[0, 1, 2], [1, 0, 0], [2, 0, 0]], "not associative"),      # (1·1)·2 = 2 but 1·(1·2) = 0
    ([[1, 1, 2], [1, 1, 2], [2, 2, 2]], "identity"),
    ([[0, 1, 2], [1, 3, 2], [2, 2, 2]], "not an element"),
])
def test_a_table_that_is_not_a_commutative_monoid_is_refused(table, words):
    doc = make_doc("0.1", 1, table, [0, 0], [0, 1], [0, 1], [2, 2], [[False, True]] * 3)
    fails = failures(verdict(doc))
    assert any(f.startswith("FAIL: linear.table") and words in f and "(L1)" in f for f in fails), fails


def test_an_R_too_large_to_check_is_refused():
    from cgtalg.referee.ray_linear import MAX_ORDER

    m = MAX_ORDER + 1
    ar = np.arange(m)
    table = np.maximum(ar[:, None], ar[None, :])              # commutative, identity 0
    doc = make_doc("0.1", 1, table, [0, 0], [0, 1], [0, 1], [2, 2], np.tile([False, True], (m, 1)))
    fails = failures(verdict(doc))
    assert any("linear.order_r" in f and "too large" in f for f in fails), fails


@pytest.mark.parametrize("edit, field", [
    (lambda d: d["linear"].update(rho=[0]), "linear.rho"),
    (lambda d: d["linear"].update(lam=[1, 1]), "linear.lam[0]"),
    (lambda d: d["linear"].update(rho=[0, 5]), "linear.rho[1]"),
    (lambda d: d["linear"].update(periods=[0, 2]), "linear.periods"),
    (lambda d: d["linear"].update(periods=[3, 2]), "linear.periods"),
])
def test_a_bad_image_or_period_is_refused_naming_the_field(edit, field):
    doc = make_doc(*SMALL["0.1 parity in z"])
    edit(doc)
    assert any(f.startswith("FAIL: " + field) for f in failures(verdict(doc))), verdict(doc)


@pytest.mark.parametrize("edit, words", [
    (lambda d: d.pop("linear"), "linear"),
    (lambda d: d.update(kind="misere-quotient"), "kind"),
    (lambda d: d.update(game="no such game"), "game"),
    (lambda d: d["linear"].update(table="not base64!"), "linear.table"),
    (lambda d: d["linear"].update(order_r=2), "linear.table"),
    (lambda d: d["linear"].update(F=_b64(b"\x00\x00")), "linear.F"),
    (lambda d: d["linear"].update(window=[2, 1]), "linear.window"),
    (lambda d: d["linear"].update(rho="0, 0"), "linear.rho"),
    (lambda d: d["linear"].update(format=2), "linear.format"),
])
def test_an_unreadable_document_is_malformed(edit, words):
    doc = make_doc(*SMALL["0.1 parity in z"])
    edit(doc)
    with pytest.raises(Malformed, match=words.replace(".", r"\.")):
        check(doc)


# -- the certificate of 0.354 ------------------------------------------------------------------
@pytest.fixture(scope="module")
def cert():
    return json.loads(DATA.read_text(encoding="utf-8"))


@pytest.fixture
def doc(cert):
    return copy.deepcopy(cert)


def F_of(doc):
    c = read(doc)
    return c.F.copy()


def test_the_0354_certificate_is_accepted(doc):
    v = verdict(doc)
    assert v.ok, v
    assert v.kind == "infinite misère quotient" and v.checker == "cgtalg.referee.ray_linear.check"
    assert "0.354: Q_n is infinite for every n >= 5" in v.claim
    assert any("P- and N-conditions hold" in r for r in v.reasons)
    assert any(r.startswith("order witness (L6)") for r in v.reasons)


def test_read_decodes_the_fields(doc):
    c = read(doc)
    lin = doc["linear"]
    assert (c.game, c.top, c.m) == ("0.354", 5, lin["order_r"])
    assert c.table.shape == (c.m, c.m) and c.F.shape == (c.m, c.hi - c.lo + 1)
    assert (c.rho, c.lam, [c.lo, c.hi], [c.q_lo, c.q_hi]) == (lin["rho"], lin["lam"], lin["window"], lin["periods"])


def test_the_0354_certificate_predicts_brute_force_play(doc):
    assert disagreements(doc, 26) == []


def test_the_0354_witness_powers_are_told_apart_by_brute_force(doc):
    c = read(doc)
    w = doc["witness"]
    s, cc, p = w["heap"], w["index"], w["period"]
    (hp, ep), (hm, em) = w["probes"]
    is_p = solver("0.354")
    for k, k2 in ((0, 1), (0, 2), (1, 2)):
        apart = False
        for i in range(ep, ep + 6):
            for j in range(em, em + 6):
                x = (hp,) * i + (hm,) * j
                a, b = (tuple(sorted((s,) * (cc + kk * p) + x)) for kk in (k, k2))
                if is_p(a) != is_p(b):
                    assert c.f(*c.image(a)) == is_p(a) and c.f(*c.image(b)) == is_p(b)
                    apart = True
        assert apart, (k, k2)


def test_other_settled_probes_also_witness(doc):
    """Heap 3 (λ = −4, its image idempotent) as the negative probe in place of heap 2."""
    doc["witness"]["probes"] = [[5, 2], [3, 1]]
    assert verdict(doc).ok


def test_a_last_finite_claim_is_refused(doc):
    """The certificate does not derive Q_{v−1} (its heaps below v are counted through the weights)."""
    doc["last_finite"] = {"heap": 4, "order": 14, "p_count": 4}
    assert any(f.startswith("FAIL: last_finite") for f in failures(verdict(doc)))


def _first_flip_failing(doc, lemma):
    F = F_of(doc)
    for r in range(F.shape[0]):
        for j in range(F.shape[1]):
            G = F.copy()
            G[r, j] ^= True
            d = copy.deepcopy(doc)
            set_F(d, G)
            fails = failures(verdict(d))
            if any(lemma in f for f in fails):
                return (r, j), fails
    return None, None


@pytest.mark.parametrize("lemma", ["P-condition (L4)", "N-condition (L5)"])
def test_a_flipped_cell_of_F_that_the_conditions_read_is_refused(doc, lemma):
    cell, fails = _first_flip_failing(doc, lemma)
    assert cell is not None, f"no single flip of F fails the {lemma}"
    assert any(f.startswith("FAIL: linear: the " + lemma) and "image" in f for f in fails), fails


def test_flipped_cells_that_are_accepted_change_no_prediction(doc):
    """Soundness spot check: a flip the referee accepts reads only cells no position reaches."""
    F = F_of(doc)
    rng = random.Random(354)
    cells = rng.sample([(r, j) for r in range(F.shape[0]) for j in range(F.shape[1])], 40)
    accepted = 0
    for r, j in cells:
        G = F.copy()
        G[r, j] ^= True
        d = copy.deepcopy(doc)
        set_F(d, G)
        if verdict(d).ok:
            accepted += 1
            assert disagreements(d, 18) == [], (r, j)
    assert accepted           # some cells are never read


def test_an_edited_weight_is_refused(doc):
    assert doc["linear"]["lam"][3] == -4
    doc["linear"]["lam"][3] = -3
    fails = failures(verdict(doc))
    assert fails and any(f.startswith("FAIL: linear") for f in fails), fails


def test_an_edited_image_in_R_is_refused(doc):
    doc["linear"]["rho"][4] = doc["linear"]["rho"][2]
    assert not verdict(doc).ok


@pytest.mark.parametrize("edit, field", [
    (lambda w: w.update(probes=[w["probes"][1], w["probes"][0]]), "witness.probes[0]"),
    (lambda w: w.update(probes=[w["probes"][0], w["probes"][0]]), "witness.probes[1]"),
    (lambda w: w.update(period=0), "witness.period"),
    (lambda w: w.update(index=-1), "witness.index"),
    (lambda w: w.update(index=0), "witness.period"),              # ρ(5)^1 ≠ ρ(5)^0
    (lambda w: w.update(heap=6), "witness.heap"),
    (lambda w: w.update(heap=1), "witness.heap"),                 # λ(1) = 0
    (lambda w: w["probes"][1].__setitem__(1, 0), "witness.probes[1][1]"),
    (lambda w: w.pop("probes"), "witness.probes"),
])
def test_a_wrong_witness_is_refused_naming_the_field(doc, edit, field):
    edit(doc["witness"])
    v = verdict(doc)
    assert not v.ok
    assert any(f.startswith("FAIL: " + field) for f in failures(v)), v
    assert any("P- and N-conditions hold" in r for r in v.reasons)     # only the witness fails


def test_a_witness_whose_outcomes_do_not_tell_the_powers_apart_is_refused(doc):
    c = read(doc)
    w = doc["witness"]
    (hp, ep), (hm, em) = w["probes"]
    r1 = int(c.table[int(c.table[c.power(c.rho[w["heap"]], w["index"]), c.power(c.rho[hp], ep)]),
                     c.power(c.rho[hm], em)])
    F = c.F.copy()
    F[r1, :] = F[r1, 0]
    set_F(doc, F)
    assert any(f.startswith("FAIL: witness:") and "not" in f for f in failures(verdict(doc)))


def test_no_witness_is_refused(doc):
    doc.pop("witness")
    assert any(f.startswith("FAIL: witness") for f in failures(verdict(doc)))


@pytest.mark.parametrize("key, value", [("infinite_from", 4), ("infinite_from", 6), ("heaps_covered", 4),
                                        ("heaps_covered", 6), ("infinite_from", None), ("heaps_covered", None)])
def test_a_wrong_or_missing_claim_is_refused(doc, key, value):
    if value is None:
        doc.pop(key)
    else:
        doc[key] = value
    fails = failures(verdict(doc))
    assert fails and all(f.startswith(f"FAIL: {key}:") for f in fails), fails


def test_a_non_commutative_table_is_refused(doc):
    t = read(doc).table.copy()
    x, y = 1, 2
    t[x, y] = (t[x, y] + 1) % t.shape[0]
    set_table(doc, t)
    assert any("linear.table: not commutative" in f for f in failures(verdict(doc)))


def test_a_non_associative_table_is_refused(doc):
    t = read(doc).table.copy()
    m = t.shape[0]
    x, y = 3, 5
    t[x, y] = t[y, x] = (t[x, y] + 1) % m
    set_table(doc, t)
    assert any("linear.table: not associative" in f for f in failures(verdict(doc)))


def test_the_n_search_is_bounded(doc):
    fails = failures(verdict(doc, max_states=50))
    assert any("max_states = 50" in f and "not proved" in f for f in fails), fails
