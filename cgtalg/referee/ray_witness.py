"""The order witness of an infinite misère quotient certificate (Lemma 7 of
:mod:`cgtalg.referee.rays`, whose docstring has the proof): the rule the witness states is
compared with the certificate's table at the finitely many points where no step of ``red`` stays
in the witness's region, which proves it everywhere, and so that the powers of heap ``v`` are
pairwise distinguishable. Standard library, numpy and the referee only.

**The band** (``sense`` ``"band"``, with ``t_end``): ``P`` iff ``t <= b − a < t_end`` on the
region and classes, with ``p − K2 <= t < t_end <= K − q + 1`` and a difference ``d`` of the band
with ``d ≡ b_class − a_class (mod M)``. The steps of ``red`` keep the rule (a ``v``-step starts
and ends at ``b − a >= K + 1 − q >= t_end``, a ``u``-step at ``b − a <= p − K2 − 1 < t``: outside
the band both times), so the same finite set of points proves it. For ``i < j`` with
``M | j − i``, the largest such ``d`` gives a test ``position + a·u + c·v`` with
``c + i − a = d``: ``P`` for ``v^i``; ``c + j − a >= d + M >= t_end``: ``N`` for ``v^j``. The
congruence argument of Lemma 7 does the rest.

**The difference class** (``d_class`` ``δ``): the region's class is ``b − a ≡ δ (mod M)`` with
``M`` dividing ``q`` and ``p``; the diagonal step keeps ``b − a``, so ``M`` need not divide ``s``
(Lemma 7, "The difference class"). **A class of one count** (``b_class`` alone, or ``a_class``
alone): ``b ≡ β`` with ``M`` dividing ``q`` and ``s``, or ``a ≡ β`` with ``M`` dividing ``p`` and
``s`` (Lemma 7, "A class of one count")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cgtalg.referee._verdict import Verdict
from cgtalg.referee.ray_read import _get, _int

if TYPE_CHECKING:
    from cgtalg.referee.ray_read import RayCertificate

__all__ = ["witness_form", "check_witness", "rule_text", "ON_DIFFERENCE", "ON_B", "ON_A"]


#: ``a_class`` of the record's witness when the class is on the difference, ``b − a ≡ b_class``
ON_DIFFERENCE = -1

#: ``a_class`` of the record's witness when the class is on ``b`` alone, ``b ≡ b_class``
ON_B = -2

#: ``a_class`` of the record's witness when the class is on ``a`` alone, ``a ≡ b_class``
ON_A = -3

#: the steps of ``red`` the modulus must divide to keep each kind of class (Lemma 7)
_STEPS = {None: "pqs", ON_DIFFERENCE: "pq", ON_B: "qs", ON_A: "ps"}


def witness_form(w: dict, vd: Verdict) -> tuple[int, int, int, int, int, int] | None:
    """``(M, a_class, b_class, a_from, b_from, sense)`` of a witness document; the old form (no
    ``modulus``) is ``(1, 0, 0, 0, 1, +1)``; a ``d_class`` gives ``(M, −1, d_class, …)``."""
    if "modulus" not in w:
        return 1, 0, 0, 0, 1, 1
    # the kind of class is told by the keys present: d_class; a_class and b_class; one of them
    have = tuple(k for k in ("d_class", "a_class", "b_class") if k in w)
    kind = {("d_class",): ON_DIFFERENCE, ("a_class", "b_class"): None, ("b_class",): ON_B,
            ("a_class",): ON_A}.get(have, "bad")
    if kind == "bad":
        vd.fail("certificate.witness: d_class (the class of b − a), or a_class and b_class, or one of "
                f"them alone, not {', '.join(have) or 'none'}")
        return None
    vals = []
    for key in ("modulus",) + have + ("a_from", "b_from"):
        x = w.get(key)
        if not isinstance(x, int) or isinstance(x, bool) or x < 0:
            vd.fail(f"certificate.witness.{key}: a non-negative integer, not {x!r}")
            return None
        vals.append(x)
    if kind is not None:
        vals.insert(1, kind)
    M, al, be, a0, b0 = vals
    if M < 1 or not ((kind is not None or al < M) and be < M):
        vd.fail(f"certificate.witness: modulus {M} with classes {al}, {be}: need 0 <= class < modulus")
        return None
    sense = {"ge": 1, "lt": -1, "band": 0}.get(w.get("sense"))
    if sense is None:
        vd.fail(f"certificate.witness.sense: 'ge', 'lt' or 'band', not {w.get('sense')!r}")
        return None
    if sense == 0:                       # the record's code of a band: 2 + its width
        t, t_end = w.get("t"), w.get("t_end")
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in (t, t_end)) or t_end <= t:
            vd.fail(f"certificate.witness.t_end: an integer above t, not {t_end!r}")
            return None
        sense = 2 + t_end - t
    return M, al, be, a0, b0, sense


def _rule(d: int, t: int, sense: int) -> bool:
    return d >= t if sense == 1 else d < t if sense == -1 else t <= d < t + sense - 2


def _words(t: int, sense: int) -> str:
    return (f"b − a >= {t}" if sense == 1 else f"b − a < {t}" if sense == -1
            else f"{t} <= b − a < {t + sense - 2}")


def check_witness(c: RayCertificate, cert: dict, vd: Verdict) -> tuple[list[int], int, int, tuple] | None:
    w = _get(cert, "witness", "certificate")
    pos = _get(w, "position", "certificate.witness")
    t = _int(w, "t", "certificate.witness")
    if not isinstance(pos, list) or any(c.lift(h) is not None for h in pos if isinstance(h, int)):
        vd.fail(f"certificate.witness.position: a list of heaps of no class, other than u = {c.u} and v = {c.v}"
                + ("" if len(c.us) == len(c.vs) == 1 else f" (and the heaps of their classes {list(c.us)}, "
                   f"{list(c.vs)})"))
        return None
    r0 = c.image(pos, "certificate.witness.position")[0]
    # the tests position + a·u + b·v must be positions of A_v (of A_n with a counted heap n), so
    # that they separate the powers of v in Q_v (Lemma 7; Lemma C3)
    bound = c.v if c.counted is None else c.top
    if any(h > bound for h in pos):
        vd.fail(f"certificate.witness.position: heap {max(pos)} is above {bound}, so its tests are not "
                f"positions of A_{bound} (Lemma 7)")
        return None
    if "element" in w and w["element"] != r0:
        vd.fail(f"certificate.witness.element: {w['element']!r}, but the position's image in R is {r0}")
    form = witness_form(w, vd)
    if form is None:
        return None
    M, al, be, a0, b0, sense = form
    if c.record_witness != (r0, t) + form:
        vd.fail(f"certificate.ray.witness: {list(c.record_witness)}, but the witness is {[r0, t, *form]}")
    R = c.rules
    kind = al if al in (ON_DIFFERENCE, ON_B, ON_A) else None
    # Lemma 7: the steps of red keep F (L1-L3); M must divide those that change the class's
    # count (a v-step changes b by q, a u-step a by p, a diagonal step both by s and b − a not at
    # all), and t must lie where a v-step (from b − a > K) and a u-step (from b − a < −K') keep
    # the rule
    steps = {"p": R.p, "q": R.q, "s": R.s}
    if any(steps[x] % M for x in _STEPS[kind]):
        vd.fail(f"certificate.witness.modulus: {M} does not divide the steps "
                + ", ".join(f"{x} = {steps[x]}" for x in _STEPS[kind]) + " (Lemma 7)")
        return None
    t_top = t if sense < 2 else t + sense - 2       # the band's end must lie where t may
    if not (R.p - R.K2 <= t <= R.K - R.q + 1 and t_top <= R.K - R.q + 1):
        vd.fail(f"certificate.witness.t: {_words(t, sense)} is not within p − K' .. K − q + 1 = "
                f"{R.p - R.K2} .. {R.K - R.q + 1} (Lemma 7)")
        return None
    # the class of b − a the region holds (a class of a or of b alone holds every one)
    delta = be if kind == ON_DIFFERENCE else None if kind in (ON_A, ON_B) else be - al
    if sense >= 2 and delta is not None and not any((d - delta) % M == 0 for d in range(t, t_top)):
        vd.fail(f"certificate.witness: the band {_words(t, sense)} holds no difference b − a of the "
                f"{_classes(al, be, M)}")
        return None
    # the points of the region with no step of red that stays in the region: every other point
    # of the region shares F, class and rule with one of them, and they are bounded
    top = max(R.m0 + 1, a0 + R.s, b0 + R.s, a0 + R.p, b0 + R.q) + max(R.K, R.K2) + 1
    for a in range(a0, top + 1):
        for b in range(b0, top + 1):
            if not _in_class(a, b, kind, al, be, M):
                continue
            if b - a > R.K and b - R.q >= b0:
                continue
            if a - b > R.K2 and a - R.p >= a0:
                continue
            if min(a, b) > R.m0 and a - R.s >= a0 and b - R.s >= b0:
                continue
            rule = _rule(b - a, t, sense)
            if bool(c.p_at(a, b)[r0]) != rule:
                base = " + ".join(map(str, pos)) or "0"
                vd.fail(f"certificate.witness: {base} + {a}·{c.u} + {b}·{c.v} is "
                        f"{'in' if c.p_at(a, b)[r0] else 'not in'} P, but the rule {_words(t, sense)} "
                        f"says {'it is' if rule else 'not'}")
                return None
    return pos, r0, t, form


def _in_class(a: int, b: int, kind, al: int, be: int, M: int) -> bool:
    if kind == ON_DIFFERENCE:
        return (b - a - be) % M == 0
    if kind == ON_B:
        return b % M == be
    if kind == ON_A:
        return a % M == be
    return a % M == al and b % M == be


def _class_text(al: int, be: int, M: int) -> str:
    return {ON_DIFFERENCE: f"b − a ≡ {be}", ON_B: f"b ≡ {be}", ON_A: f"a ≡ {be}"}.get(
        al, f"a ≡ {al}, b ≡ {be}") + f" (mod {M})"


def _classes(al: int, be: int, M: int) -> str:
    return f"class {_class_text(al, be, M)}"


def rule_text(c: RayCertificate, base: str, v: int, t: int, form: tuple) -> str:
    M, al, be, a0, b0, sense = form
    cls = "" if M == 1 else f", {_class_text(al, be, M)}"
    return (f"{base} + {c.u}·a + {v}·b is a P-position iff {_words(t, sense)} "
            f"(a >= {a0}, b >= {b0}{cls}; Lemma 7)")
