"""Mixed heaps and the exact N-search with counts in the referee of infinite misère quotients
(cgtalg.referee.ray_lifted, cgtalg.referee.rays with ``certificate.ray.mixed``).

Independent of the search side (cgtalg.quotients): the certificates are the published census's
(docs/data/quotient_census.json.gz), edited here by hand, and every expected outcome comes from
brute-force misère play written below from the definition of octal codes, or from the verdict of
the referee's existing path on the unedited certificate:

* the exact N-search (forced with ``exact=True``) accepts the published certificates the existing
  path accepts (a sample here, all of them in a slow test), with classes and with counted heaps;
* a u-class re-expressed as mixed heaps (lift (1, 0), an identity column) is accepted, predicts
  brute-force play, gives the same ``Q_{v−1}`` (Lemma 8 with a mixed heap below ``v``); tampered
  (a lift brute force refutes, another heap's column, a heap listed twice, ``u`` itself, a lift
  of size 0 or 5, …) it is refused, naming the reason;
* an entry of ``F`` flipped at the image of a position makes the check fail; flipped from P to N
  (which the P-condition cannot see) the exact N-search itself finds it, naming a position;
* Lemma M5 replayed: every point of a key's region reads what one of its check points reads.
"""

from __future__ import annotations

import copy
import functools
import gzip
import itertools
import json
import random
import re
from pathlib import Path

import numpy as np
import pytest

from cgtalg.referee import Malformed, rays
from cgtalg.referee._verdict import Verdict
from cgtalg.referee.ray_lifted import effective_cap, state_points
from ray_doc_helpers import cols_of as _cols, set_cols as _set_cols, set_table as _set_F, table_of as _F

CENSUS = Path(__file__).resolve().parent.parent / "docs" / "data" / "quotient_census.json.gz"


@functools.lru_cache(maxsize=None)
def _census() -> tuple[dict, dict]:
    """``code -> row`` and ``code -> its infinite certificate`` (the distinct documents only)."""
    with gzip.open(CENSUS, "rt", encoding="utf-8") as fh:
        rows = json.load(fh)["rows"]
    seen, certs, by_code = set(), {}, {}
    for r in rows:
        by_code[r["code"]] = r
        if r["status"] != "infinite":
            continue
        doc = r["certificate"]["infinite"]
        if doc.get("kind") != rays.KIND:      # a largest-heap rule (cgtalg.referee.heap_rule), not a ray
            continue
        key = json.dumps(doc, sort_keys=True)
        if key not in seen:
            seen.add(key)
            certs[r["code"]] = key
    return by_code, certs


def cert(code: str) -> dict:
    return json.loads(_census()[1][code])


# -- brute force from the definition of octal codes ------------------------------------------------
@functools.lru_cache(maxsize=None)
def _digits(code: str) -> tuple[int, ...]:
    head, tail = code.split(".")
    assert head == "0", code
    return tuple(int(ch) for ch in "0" + tail)


def octal_options(code: str, n: int) -> set[tuple[int, ...]]:
    """Digit ``d_t`` (``t >= 1`` tokens taken from one heap): bit 1, none left; bit 2, one
    non-empty heap left; bit 4, two non-empty heaps left (Winning Ways, ch. 4)."""
    out = set()
    for t, d in enumerate(_digits(code)):
        if t == 0 or t > n:
            continue
        r = n - t
        if d & 1 and r == 0:
            out.add(())
        if d & 2 and r > 0:
            out.add((r,))
        if d & 4:
            out.update((a, r - a) for a in range(1, r // 2 + 1))
    return out


@functools.lru_cache(maxsize=None)
def _brute(code: str, pos: tuple[int, ...]) -> bool:
    moved = False
    for i, h in enumerate(pos):
        if i and pos[i - 1] == h:
            continue
        for o in octal_options(code, h):
            moved = True
            if _brute(code, tuple(sorted(pos[:i] + pos[i + 1:] + o))):
                return False
    return moved        # misère: no move at all is a win for the player to move (N)


def brute_is_p(code: str, position) -> bool:
    return _brute(code, tuple(sorted(h for h in position if h)))


def test_brute_force_knows_misere_play():
    # 0.564: heap 1 has one move (to 0), so it is P in misère play; 1 + 1 is N; 0 is N
    assert brute_is_p("0.564", (1,)) and not brute_is_p("0.564", (1, 1)) and not brute_is_p("0.564", ())
    assert octal_options("0.564", 3) == {(1, 1), (1,)}      # take 1 (digit 5: two heaps), take 2 (6: one)


def _tells_apart(code: str, left: tuple[int, ...], right: tuple[int, ...], top: int) -> tuple[int, ...]:
    """A position ``X`` of heaps ``<= top`` with ``X + left`` and ``X + right`` of different outcomes."""
    for k in range(4):
        for X in itertools.combinations_with_replacement(range(1, top + 1), k):
            if brute_is_p(code, X + left) != brute_is_p(code, X + right):
                return X
    raise AssertionError(f"{left} and {right} not told apart in {code}")


# -- certificates edited by hand ---------------------------------------------------------------------
def as_mixed(doc: dict, lift=(1, 0)) -> dict:
    """Every heap of the u-class other than ``u`` made a mixed heap ``[h, *lift]`` with an identity
    column appended to ``cols``: the same claims when ``lift`` is (1, 0)."""
    d = copy.deepcopy(doc)
    ray = d["ray"]
    cols = _cols(d)
    ident = cols.shape[0]
    _set_cols(d, np.vstack([cols, np.arange(cols.shape[1])[None, :]]))
    others = [h for h in ray["u_class"] if h != ray["u"]]
    for h in others:
        ray["row"][h] = ident
    ray["mixed"] = [[h, *lift] for h in others]
    ray["u_class"] = [ray["u"]]
    return d


def _failures(doc: dict, **kw) -> str:
    try:
        verdicts = rays.check(doc, **kw)
    except Malformed as exc:
        return "malformed: " + str(exc)
    assert not all(v.ok for v in verdicts), "accepted"
    return " | ".join(r for v in verdicts for r in v.reasons if r.startswith("FAIL"))


def _conditions(doc: dict, exact: bool = False) -> Verdict:
    """Structure, P- and N-conditions only (not the witness or the quoted claims)."""
    c = rays.read(doc)
    vd = Verdict("test", "", True)
    options = rays.structure(c, vd)
    if options is not None:
        rays.conditions(c, options, vd, exact)
    return vd


def _ok(doc: dict, **kw) -> list[Verdict]:
    verdicts = rays.check(doc, **kw)
    assert verdicts and all(v.ok for v in verdicts), [v.reasons for v in verdicts]
    return verdicts


# -- the exact N-search agrees with the existing path ------------------------------------------------
#: plain (0.005, 0.154, 0.76), with a u-class (0.544, 0.564), counted (0.026, 0.141, 0.224, 4.77),
#: both (0.127): each a fraction of a second
SAMPLE = ["0.005", "0.154", "0.76", "0.544", "0.564", "0.026", "0.141", "0.224", "4.77", "0.127"]


@pytest.mark.parametrize("code", SAMPLE)
def test_the_exact_search_accepts_what_the_existing_path_accepts(code):
    doc = cert(code)
    _ok(doc)                                   # the existing path's verdict: the expectation
    v = _ok(doc, exact=True)[0]
    assert any("exact N-search" in r for r in v.reasons), v


@pytest.mark.slow
def test_the_exact_search_accepts_every_published_certificate():
    """All 37 distinct certificates (about 80 s on one core: the two of order 1456 take half a minute each)."""
    _by_code, certs = _census()
    for code in certs:
        doc = cert(code)
        _ok(doc)
        _ok(doc, exact=True)


# -- classes re-expressed as mixed heaps ------------------------------------------------------------
@pytest.mark.parametrize("code", ["0.564", "0.544", "0.127"])
def test_a_class_re_expressed_as_mixed_heaps_is_accepted(code):
    doc = cert(code)
    _ok(doc)
    d = as_mixed(doc)
    assert d["ray"]["mixed"] and "u_class" in d["ray"]
    c = rays.read(d)
    assert c.mixed == {h: (1, 0) for h in doc["ray"]["u_class"][1:]} and c.us == (c.u,)
    v = _ok(d)[0]
    assert any("exact N-search" in r for r in v.reasons), v
    # the same images as the class heaps had (the generators' words unchanged)
    c0 = rays.read(doc)
    rng = random.Random(3)
    for _ in range(50):
        pos = [rng.randint(0, c.top) for _ in range(rng.randint(0, 5))]
        assert c.image(pos) == c0.image(pos) and c.is_p(pos) == c0.is_p(pos), pos
    assert c.words() == c0.words()
    if c.counted is None:      # Lemma 8 with a mixed heap below v: the census row's (verified) numbers
        row = _census()[0][code]
        assert rays.last_finite(c) == rays.last_finite(c0) == (row["order"], row["p_count"])


def test_the_re_expressed_certificate_predicts_brute_force():
    code = "0.564"
    c = rays.read(as_mixed(cert(code)))
    assert c.mixed == {6: (1, 0)}
    rng = random.Random(7)
    positions = [(6,), (6, 6), (5, 6), (6, 6, 6, 11), (3, 6, 9), (6, 11, 11)]
    while len(positions) < 120:
        pos, total = [], rng.randint(1, 24)
        while sum(pos) < total:
            pos.append(rng.choice([6, 6, 5, 11] + list(range(1, c.top + 1))))
        positions.append(tuple(pos))
    for pos in positions:
        assert c.is_p(pos) == brute_is_p(code, pos), pos


def test_a_lift_brute_force_refutes_is_refused():
    """Heap 6 of 0.564 as 2·u (lift (2, 0)), as v (lift (0, 1)), as u + 3 (the column of heap 3):
    brute force tells each from heap 6, and the certificate is refused."""
    code, doc = "0.564", cert("0.564")
    top = doc["ray"]["top"]
    _tells_apart(code, (6,), (5, 5), top)
    assert "certificate.ray" in _failures(as_mixed(doc, (2, 0)))
    _tells_apart(code, (6,), (11,), top)
    why = _failures(as_mixed(doc, (0, 1)))
    assert "Lemma 8 does not derive Q_10" in why and "heap 6 below v = 11" in why, why
    _tells_apart(code, (6,), (3, 5), top)
    d = as_mixed(doc)
    cols = _cols(d)
    cols[d["ray"]["row"][6]] = cols[d["ray"]["row"][3]]     # heap 6's (appended) column: heap 3's
    _set_cols(d, cols)
    assert "certificate.ray" in _failures(d)
    # and the conditions alone (not the quick checks) refuse the wrong lift and the wrong column
    assert not _conditions(as_mixed(doc, (2, 0))).ok
    assert not _conditions(d).ok


def _edit_mixed(entries):
    d = as_mixed(cert("0.564"))
    d["ray"]["mixed"] = entries
    return d


MALFORMED = {
    "not a list": ({"6": [1, 0]}, "certificate.ray.mixed: a list"),
    "an entry of two": ([[6, 1]], "certificate.ray.mixed[0]: a list of three integers"),
    "a bool": ([[6, True, 0]], "certificate.ray.mixed[0]: a list of three integers"),
    "listed twice": ([[6, 1, 0], [6, 1, 0]], "certificate.ray.mixed[1]: heap 6 after heap 6: the list is not sorted"),
    "unsorted": ([[7, 1, 0], [6, 1, 0]], "certificate.ray.mixed[1]: heap 6 after heap 7"),
    "u": ([[5, 1, 0], [6, 1, 0]], "certificate.ray.mixed[0]: heap 5 is u"),
    "v": ([[6, 1, 0], [11, 1, 0]], "certificate.ray.mixed[1]: heap 11 is v"),
    "heap 0": ([[0, 1, 0]], "certificate.ray.mixed[0]: heap 0 is not a heap 1 .. top = 11"),
    "above top": ([[12, 1, 0]], "certificate.ray.mixed[0]: heap 12 is not a heap 1 .. top = 11"),
    "alpha + beta = 0": ([[6, 0, 0]], "need alpha, beta >= 0 and 1 <= alpha + beta <= 4"),
    "alpha + beta = 5": ([[6, 3, 2]], "need alpha, beta >= 0 and 1 <= alpha + beta <= 4"),
    "negative": ([[6, 2, -1]], "need alpha, beta >= 0 and 1 <= alpha + beta <= 4"),
}


@pytest.mark.parametrize("name", list(MALFORMED))
def test_malformed_mixed_heaps_are_refused_naming_the_reason(name):
    entries, text = MALFORMED[name]
    d = _edit_mixed(entries)
    with pytest.raises(Malformed, match=re.escape(text)):
        rays.read(d)
    why = _failures(d)
    assert why.startswith("malformed: certificate.ray.mixed") and text in why, why


def test_a_mixed_heap_in_a_class_without_a_column_or_without_a_move_is_refused():
    d = cert("0.564")            # heap 6 still in the u-class
    d["ray"]["mixed"] = [[6, 1, 0]]
    with pytest.raises(Malformed, match=r"mixed\[0\]: heap 6 is a heap of the u-class or the v-class"):
        rays.read(d)
    d = cert("0.564")            # heap 6 out of the class but still with row −1
    d["ray"]["u_class"] = [5]
    d["ray"]["mixed"] = [[6, 1, 0]]
    with pytest.raises(Malformed, match=r"mixed\[0\]: heap 6 has row −1"):
        rays.read(d)
    d = as_mixed(cert("0.564"))
    assert not octal_options("0.564", 2)           # heap 2 has no move in 0.564
    d["ray"]["mixed"] = [[2, 1, 0], [6, 1, 0]]
    with pytest.raises(Malformed, match=r"mixed\[0\]: heap 2 has no move"):
        rays.read(d)
    d = as_mixed(cert("0.127"))                    # the counted heap 14 cannot be mixed
    d["ray"]["mixed"] = [[8, 1, 0], [14, 1, 0]]
    with pytest.raises(Malformed, match=r"mixed\[1\]: heap 14 is the counted heap"):
        rays.read(d)


def test_without_the_key_nothing_changes_and_an_empty_list_takes_the_exact_search():
    doc = cert("0.564")
    c = rays.read(doc)
    assert c.mixed is None and all(c.lift(h) is None or c.in_class(h) for h in range(c.top + 1))
    v = _ok(doc)[0]
    assert any("minimal N-search pairs (Lemma 5)" in r for r in v.reasons), v
    d = copy.deepcopy(doc)
    d["ray"]["mixed"] = []
    v = _ok(d)[0]
    assert any("exact N-search" in r for r in v.reasons), v


def test_past_the_state_limit_the_verdict_fails_unchecked(monkeypatch):
    monkeypatch.setattr(rays, "MAX_STATES", 50)
    why = _failures(as_mixed(cert("0.564")))
    assert "certificate.ray: not checked: the exact N-search passed 50 states" in why, why


# -- tampered tables --------------------------------------------------------------------------------
def _positions(code: str, top: int, rng: random.Random, with_heap: int, k: int):
    out = []
    while len(out) < k:
        pos = [with_heap] + [rng.randint(1, top) for _ in range(rng.randint(0, 3))]
        out.append(tuple(sorted(pos)))
    return out


def test_a_flipped_entry_of_f_is_refused():
    """F flipped at the image of a position holding the mixed heap: the certificate then
    mispredicts it (brute force), and the check fails."""
    code, base = "0.564", as_mixed(cert("0.564"))
    c = rays.read(base)
    rng = random.Random(5)
    for pos in _positions(code, c.top, rng, 6, 6):
        r, a, b = c.image(pos)
        ra, rb = c.rules.red(a, b)
        d = copy.deepcopy(base)
        F = _F(d)
        F[r, ra, rb] ^= True
        _set_F(d, F)
        assert rays.read(d).is_p(pos) != brute_is_p(code, pos), pos
        assert "certificate." in _failures(d), pos


@pytest.mark.parametrize("mixed", [True, False], ids=["mixed", "classes, exact search forced"])
def test_a_p_entry_turned_n_is_found_by_the_exact_search(mixed):
    """A P-position's entry of F turned to N: the P-condition cannot see it (it only loses P
    entries), so the exact N-search must, and it names a position of the failing state; when the
    point is that position's own, the referee's prediction of it and of its options replays."""
    code = "0.564"
    base = as_mixed(cert(code)) if mixed else cert(code)
    c = rays.read(base)
    rng = random.Random(9)
    pool = [p for p in _positions(code, c.top, rng, 6, 400) if brute_is_p(code, p)]
    assert len(pool) >= 5
    replayed = 0
    for pos in pool[:8]:
        r, a, b = c.image(pos)
        ra, rb = c.rules.red(a, b)
        d = copy.deepcopy(base)
        F = _F(d)
        assert F[r, ra, rb]
        F[r, ra, rb] = False
        _set_F(d, F)
        vd = _conditions(d, exact=True)
        assert not vd.ok, pos
        why = vd.reasons[0]
        assert "the N-condition fails (exact N-search, Lemma M4)" in why, why
        shown = re.search(r"the position ([\d + ]+), of image", why).group(1)
        if "taken to" not in why:
            bad = [int(h) for h in shown.split(" + ")]
            cd = rays.read(d)
            assert not cd.is_p(bad)
            for i, h in enumerate(bad):
                for o in octal_options(code, h):
                    assert not cd.is_p(bad[:i] + bad[i + 1:] + list(o)), (bad, h, o)
            replayed += 1
    assert replayed


# -- Lemma M5, replayed ------------------------------------------------------------------------------
RULES = [rays.Rules(2, 6, 2, 4, 1, 2), rays.Rules(1, 0, 1, 0, 1, 0), rays.Rules(2, 1, 1, 3, 2, 1),
         rays.Rules(1, 3, 2, 2, 2, 3)]
OFFSETS = [[(-1, 0), (0, -1), (0, 0), (0, 1), (1, -1), (1, 0)],
           [(-2, 0), (-1, 1), (0, -1), (0, 2), (2, -1), (-3, 1)]]


@pytest.mark.parametrize("rules", RULES, ids=str)
@pytest.mark.parametrize("D", OFFSETS, ids=["classes", "mixed"])
def test_every_point_of_a_key_reads_what_one_of_its_points_reads(rules, D):
    """The condition of a state at ``(a, b)`` reads ``red((a, b) + o)``, ``o`` in ``{(0, 0)} ∪ D``:
    for every key ``(ca, cb)`` every point it stands for has the reads of one of its points."""
    cap = effective_cap(D, 2)
    offsets = [(0, 0)] + D

    def reads(a, b):
        return tuple(rules.red(a + x, b + y) if a + x >= 0 and b + y >= 0 else None for x, y in offsets)

    for ca, cb in itertools.product(range(cap + 1), repeat=2):
        sigs = {reads(a, b) for a, b in state_points(rules, D, cap, ca, cb)}
        As = [ca] if ca < cap else range(cap, 60)
        Bs = [cb] if cb < cap else range(cap, 60)
        for a, b in itertools.product(As, Bs):
            assert reads(a, b) in sigs, (ca, cb, a, b)
