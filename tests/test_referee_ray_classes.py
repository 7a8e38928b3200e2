"""Classes of counted heaps in the referee of infinite misère quotients (cgtalg.referee.rays):
``certificate.ray.u_class`` / ``v_class``, several heaps counted as copies of ``u`` (of ``v``).

Independent of the search side (cgtalg.quotients): the certificates are the committed ones in
docs/data, and a small certificate of Dawson's Kayles (0.07) written out below, whose predictions
are compared here with brute-force misère play. The class forms are made from them by hand
(:func:`_into_class`: a heap taken out of ``R`` and counted with ``u`` or ``v``), from the
definitions:

* the committed certificates read the same, and pass, with explicit singleton classes;
* malformed classes are refused naming the field (not a list, unsorted, repeated, not led by
  ``u``/``v``, out of range, overlapping; a class heap with a column; a row −1 outside the classes);
* a real class of size 2: in ``Q_14`` of 0.07, heap 4 behaves like heap 13; the certificate with
  the u-class ``{4, 13}`` is accepted by the P- and N-conditions, predicts brute-force play, and
  gives the same ``|Q_13|`` (Lemma 8);
* soundness: a heap that does not behave like ``u`` (brute force shows a position that tells
  them apart) put into the u-class makes the check fail, never pass.
"""

from __future__ import annotations

import copy
import itertools

import numpy as np
import pytest

from cgtalg.referee import Malformed, rays
from cgtalg.referee._verdict import Verdict

from test_referee_rays import Q33, Q34, _cols, _F, _set_cols, _set_F, brute_is_p, load

#: Q_14 of Dawson's Kayles (0.07) as a ray pretension, u = 13, v = 14, R of order 12 (a finite
#: quotient read as a ray: its witness is made up, so only the conditions are asked of it)
Q14_RAY = {
    "kind": "infinite-misere-quotient", "format": 1, "game": "0.07", "infinite_from": 14,
    "heaps_covered": 14, "same_quotient_through": 14,
    "witness": {"position": [], "element": 0, "t": 2},
    "ray": {"format": 1, "u": 13, "v": 14, "top": 14, "order_r": 12,
            "rules": {"q": 2, "K": 1, "p": 2, "K2": 3, "s": 2, "m0": 3},
            "row": [0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 4, 3, 5, -1, -1],
            "cols": ("eJx1jzkOwCAQxCaEcOX//80UYwlFonC1xrtI0mWKuU01j2mmm2GmWeaNq7glbo3b4o64a+ueenjM6Z56vGPOvXSV"
                     "G//78bmXLv+hy37u+QD3uAG9"),
            "F_shape": [12, 7, 5], "F": "eJxj0OJq2s8ABKKsjgEMUMD4gWnBCqDEghUwEQagbAhcCQDlVAfv",
            "witness": [0, 2, 1, 0, 0, 0, 1, 1]}}


def _into_class(doc: dict, h: int, which: str = "u") -> dict:
    """A copy of ``doc`` with heap ``h`` taken out of ``R`` and counted in the ``which``-class:
    its row −1, ``R`` cut down to the elements the other heaps generate (renumbered in order),
    ``F`` restricted to them, ``u`` (``v``) the least heap of the class. What the certificate then
    claims is that ``h`` behaves like ``u`` (``v``): true or false, the referee decides."""
    d = copy.deepcopy(doc)
    ray = d["ray"]
    cols, F, row = _cols(d), _F(d), ray["row"]
    cls = sorted(set(ray.get(f"{which}_class", [ray[which]])) | {h})
    row[h] = -1
    used = sorted({i for i in row if i >= 0})
    seen = np.zeros(cols.shape[1], dtype=bool)
    seen[0] = True
    frontier = np.array([0])
    while frontier.size:
        nxt = np.unique(cols[used][:, frontier])
        nxt = nxt[~seen[nxt]]
        seen[nxt] = True
        frontier = nxt
    members = np.nonzero(seen)[0]
    index = np.full(cols.shape[1], -1)
    index[members] = np.arange(members.size)
    new_cols = index[cols[used][:, members]]
    assert (new_cols >= 0).all()
    ray["row"] = [used.index(i) if i >= 0 else -1 for i in row]
    _set_cols(d, new_cols)
    _set_F(d, F[members])
    ray["order_r"], ray["F_shape"] = int(members.size), [int(members.size), *F.shape[1:]]
    ray[f"{which}_class"], ray[which] = cls, cls[0]
    r0 = int(index[ray["witness"][0]])
    ray["witness"][0] = d["witness"]["element"] = max(r0, 0)
    return d


def _conditions(doc: dict) -> Verdict:
    """Structure, P- and N-conditions (not the witness or the quoted claims)."""
    c = rays.read(doc)
    vd = Verdict("test", "", True)
    options = rays.structure(c, vd)
    if options is not None:
        rays.conditions(c, options, vd)
    return vd


def _failures(doc: dict) -> str:
    try:
        verdicts = rays.check(doc)
    except Malformed as exc:
        return "malformed: " + str(exc)
    assert not all(v.ok for v in verdicts), "accepted"
    return " | ".join(r for v in verdicts for r in v.reasons if r.startswith("FAIL"))


# -- the committed certificates, with explicit singleton classes ------------------------------------
@pytest.mark.parametrize("path", [Q34, Q33], ids=["Q34_0.07", "Q33_0.137"])
def test_explicit_singleton_classes_read_the_same(path):
    doc = load(path)
    explicit = copy.deepcopy(doc)
    explicit["ray"].update(u_class=[doc["ray"]["u"]], v_class=[doc["ray"]["v"]])
    a, b = rays.read(doc), rays.read(explicit)
    assert (a.us, a.vs) == (b.us, b.vs) == ((a.u,), (a.v,))
    assert a.row == b.row and np.array_equal(a.cols, b.cols) and np.array_equal(a.F, b.F)
    for c in (a, b):
        vd = Verdict("test", "", True)
        assert rays.structure(c, vd) is not None and vd.ok, vd
    assert rays.last_finite(a) == rays.last_finite(b) == (638, 109)
    c = rays.read(doc)
    assert c.classes_text == f"u = {c.u} and v = {c.v}"


@pytest.mark.slow
@pytest.mark.parametrize("path", [Q34, Q33], ids=["Q34_0.07", "Q33_0.137"])
def test_the_committed_certificates_pass_with_and_without_explicit_classes(path):
    doc = load(path)
    explicit = copy.deepcopy(doc)
    explicit["ray"].update(u_class=[doc["ray"]["u"]], v_class=[doc["ray"]["v"]])
    for d in (doc, explicit):
        verdicts = rays.check(d)
        assert verdicts and all(v.ok for v in verdicts), [v.reasons for v in verdicts]


# -- malformed classes are refused, naming the field ------------------------------------------------
def _with(**ray):
    d = load(Q34)
    d["ray"].update(ray)
    return d


MALFORMED = {
    "u_class not a list": (dict(u_class=30), "certificate.ray.u_class"),
    "u_class empty": (dict(u_class=[]), "certificate.ray.u_class"),
    "u_class of strings": (dict(u_class=["30"]), "certificate.ray.u_class"),
    "u_class with a bool": (dict(u_class=[30, True]), "certificate.ray.u_class"),
    "u_class not led by u": (dict(u_class=[31, 32]), "certificate.ray.u_class"),
    "u_class led by a smaller heap": (dict(u_class=[6, 30]), "certificate.ray.u_class"),
    "u_class unsorted": (dict(u_class=[30, 35, 31]), "certificate.ray.u_class"),
    "u_class repeated": (dict(u_class=[30, 30]), "certificate.ray.u_class"),
    "u_class out of range": (dict(u_class=[30, 36]), "certificate.ray.u_class"),
    "v_class not led by v": (dict(v_class=[35]), "certificate.ray.v_class"),
    "v_class out of range": (dict(v_class=[34, 99]), "certificate.ray.v_class"),
    "v_class unsorted": (dict(v_class=[34, 35, 35]), "certificate.ray.v_class"),
    "a heap in both classes": (dict(u_class=[30, 35], v_class=[34, 35]), "certificate.ray.v_class"),
}


@pytest.mark.parametrize("name", list(MALFORMED))
def test_malformed_classes_are_refused_naming_the_field(name):
    ray, field = MALFORMED[name]
    with pytest.raises(Malformed, match=field.replace(".", r"\.")):
        rays.read(_with(**ray))
    why = _failures(_with(**ray))
    assert why.startswith("malformed: " + field), why


def test_the_rows_must_be_minus_one_exactly_on_the_classes():
    # a class heap that keeps its column
    why = _failures(_with(u_class=[30, 31]))
    assert "certificate.ray.row: heap 31 maps to column" in why and "certificate.ray.u_class" in why, why
    # a heap with row −1 in no class (the classes left as they are)
    d = _into_class(load(Q34), 31)
    d["ray"]["u_class"] = [30]
    why = _failures(d)
    assert "certificate.ray.row: heap 31 maps to (1, 1, 0) or (1, 0, 1)" in why, why
    # without any class key: only u and v may have row −1
    del d["ray"]["u_class"]
    assert "certificate.ray.row: heap 31 maps to (1, 1, 0) or (1, 0, 1)" in _failures(d)


def test_a_class_heap_without_a_move_is_refused():
    d = _into_class(Q14_RAY, 1, "u")      # heap 1 has no move in 0.07 (and u becomes 1)
    vd = _conditions(d)
    assert not vd.ok and any("certificate.ray.u_class: heap 1 has no move" in r for r in vd.reasons), vd


# -- a real class of size 2: Q_14 of 0.07, heaps 4 and 13 -------------------------------------------
def test_the_small_certificate_predicts_brute_force():
    c = rays.read(Q14_RAY)
    assert _conditions(Q14_RAY).ok
    for k in range(4):
        for pos in itertools.combinations_with_replacement(range(15), k):
            assert c.is_p(pos) == brute_is_p(pos), pos


def test_heap_4_counted_with_u_13_is_accepted():
    """Heap 4 behaves like heap 13 in 0.07 up to heap 14: the certificate with ``u_class =
    [4, 13]`` (u = 4, R what the other heaps generate: all 12 elements here) passes the P-
    and N-conditions, predicts the outcomes of brute-force play, and Lemma 8 gives the same Q_13."""
    d = _into_class(Q14_RAY, 4)
    assert d["ray"]["u"] == 4 and d["ray"]["u_class"] == [4, 13] and d["ray"]["row"][4] == -1
    c = rays.read(d)
    assert (c.us, c.vs) == ((4, 13), (14,))
    assert c.classes_text == "u = 4 (u-class {4, 13}) and v = 14"
    assert c.image([4, 13, 13, 14, 6]) == (c.image([6])[0], 3, 1)
    vd = _conditions(d)
    assert vd.ok, vd
    for k in range(4):
        for pos in itertools.combinations_with_replacement(range(15), k):
            assert c.is_p(pos) == brute_is_p(pos), pos
    for pos in ((4, 4, 13, 13), (4, 13, 14, 2), (4, 4, 14, 2), (4, 4, 4, 13, 5)):
        assert c.is_p(pos) == brute_is_p(pos), pos
    assert rays.last_finite(c) == rays.last_finite(rays.read(Q14_RAY))
    # the offsets read include those of both heaps of the class (Lemma 4)
    S = rays._images(c, [c.moves.options(h) for h in range(c.top + 1)])
    O = rays.offsets_read(c, S)
    assert {(eu - 1, ev) for t in (4, 13) for _col, (eu, ev) in S[t]} <= O
    # and the N-search runs over the heaps of no class only
    assert all(c.lift(h) is None for h in S if h not in (4, 13, 14))


def test_the_class_is_a_claim_the_referee_checks():
    """Without heap 4 in the class (its row −1 kept) the record is refused; with the classes
    exchanged the certificate says something else and fails."""
    d = _into_class(Q14_RAY, 4)
    d["ray"]["u_class"], d["ray"]["u"] = [13], 13
    vd = Verdict("test", "", True)
    assert rays.structure(rays.read(d), vd) is None
    assert "certificate.ray.row: heap 4" in vd.reasons[0], vd


def test_the_n_condition_asks_the_moves_of_each_heap_of_the_class():
    """With heap 12 also put with 4 and 13, the positions with one counted heap may hold heap 12,
    whose moves do not reach P: the N-condition fails, naming it (Lemma 4, (N*))."""
    _tells_apart(12, 13)
    vd = _conditions(_into_class(_into_class(Q14_RAY, 4), 12))
    assert not vd.ok
    assert "the N-condition fails" in vd.reasons[0], vd
    assert "with the moves of heap 12 of the u-class [4, 12, 13]" in vd.reasons[0], vd


# -- soundness: a heap that does not behave like u ---------------------------------------------------
def _tells_apart(h: int, u: int, hint: tuple[int, ...] | None = None) -> tuple[int, ...]:
    """A small position X with X + h and X + u of different misère outcomes (brute force); the
    ``hint`` is tried first (a search far enough to find it is slow)."""
    if hint is not None and brute_is_p(hint + (h,)) != brute_is_p(hint + (u,)):
        return hint
    for k in range(3):
        for X in itertools.combinations_with_replacement(range(2, 13), k):
            if brute_is_p(X + (h,)) != brute_is_p(X + (u,)):
                return X
    raise AssertionError(f"heaps {h} and {u} not told apart")


@pytest.mark.parametrize("h", [5, 9, 12])
def test_a_heap_unlike_u_in_the_u_class_fails_on_the_small_certificate(h):
    _tells_apart(h, 13)
    d = _into_class(Q14_RAY, h)
    vd = _conditions(d)
    assert not vd.ok, f"heap {h} counted as u was accepted"
    assert any("certificate.ray" in r for r in vd.reasons), vd


@pytest.mark.slow
@pytest.mark.parametrize("h", [31, 35])
def test_a_heap_unlike_u_in_the_u_class_fails_on_q34(h):
    """Heap 31 (below v) and heap 35 (above v: Lemma 9 must not read a column for it) put with
    u = 30 in Q_34's certificate of 0.07: brute force tells each from 30, and the check fails,
    in the structure or the conditions, never passes; Lemma 9 does not complain of heap 35. (With
    ``last_finite`` quoted, Lemma 8 already refuses heap 31: |Q_33| would be 452, not 638.)"""
    _tells_apart(h, 30, {31: (10, 14)}.get(h))
    d = _into_class(load(Q34), h)
    d.pop("last_finite")        # let the check reach the P- and N-conditions
    why = _failures(d)
    assert "certificate.ray" in why, why
    assert "same_quotient_through" not in why, why


@pytest.mark.slow
def test_a_heap_unlike_v_in_the_v_class_fails_on_q34():
    """Heap 35 counted with v = 34: brute force tells them apart, the check fails."""
    _tells_apart(35, 34)
    d = _into_class(load(Q34), 35, "v")
    assert d["ray"]["v_class"] == [34, 35]
    d.pop("last_finite")
    why = _failures(d)
    assert "certificate.ray" in why, why
    assert "same_quotient_through" not in why, why
