"""The referee of census rows (``cgtalg census octal --json``, ``cgtalg census quotient --json``).

A row states facts about one code: its class (``standard_form`` and ``shift``, and the
``cousins`` sharing it), and either the period of its Grundy sequence (the Grundy census) or
its misère quotient (the quotient census). A settled row carries a ``certificate``:

* ``period``: a periodicity certificate of the row's own code, checked by
  :func:`cgtalg.referee.periodicity.check_period` (values recomputed, the theorem's bound);
* ``quotient``: the final misère quotient of the *standard form*, checked by
  :func:`cgtalg.referee.quotients.check_quotient` (verification principle, misère periodicity
  theorem);
* ``infinite``: the proof that the misère quotient of the *standard form* is infinite (a
  document of kind ``infinite-misere-quotient``), checked by :func:`cgtalg.referee.rays.check`
  (ray pretension, order witness, the last finite quotient by Lemma 8), or a largest-heap rule
  (kind ``largest-heap-rule``), checked by :func:`cgtalg.referee.heap_rule.check` (every outcome
  by a rule over heap sizes, and single heaps it tells apart; such a row names no heap, order
  or ``|P|``). Each distinct document is checked once per process (the members of a class carry
  the same one).

The row's own claims are then re-derived from the checked certificates and the definitions:

* the standard form and shift, by first cousins (below);
* period, preperiod, last exceptional value, largest value (and where it first occurs);
* order, ``|P|``, presentation, P-portion, tameness, Φ of the code (its words, preperiod and
  period), the heap ``N``, the generator heaps and the growth ``|Q_n|`` (:func:`_code_phi`,
  :func:`cgtalg.referee.quotients.submonoid_order`);
* an infinite row (status ``infinite``): the certificate's game is the standard form, and
  with ``v`` the heap its certificate proves ``Q_v`` infinite from (for the standard form),
  ``infinite_from = v + shift``, ``heaps = v − 1 + shift`` (the last finite heap of the
  code) and ``order``, ``p_count`` are ``|Q_{v−1}|`` and its ``|P|`` (the certificate's
  ``last_finite``, checked by Lemma 8; Lemma 8 itself when the certificate omits it). The
  row's presentation, P-portion, generator heaps and growth of ``Q_{v−1}`` are not
  re-derived (the certificate proves the order and ``|P|`` only; the verdict says so). As in
  :func:`cgtalg.referee.rays.check`, the quick comparisons run first: a row whose claims
  contradict its certificate is rejected without the certificate's P- and N-conditions.

An unsettled row *tied to normal play* (``stopped`` is ``normal play``) claims its partial
quotient ``Q_N`` and the tie: its certificate (the standard form's ``Q_N`` with ``normal_tie``)
is checked, the tie by :func:`cgtalg.referee.quotient_tail.check_tie`, and the row's order,
``|P|``, presentation, P-portion and heap against it.

An unsolved, other unsettled or failed row claims nothing: its verdict says so (ok, "claims nothing")
and is never a proof; an unsettled row's lower bound on the next quotient (``bound_heap``,
``lower_bound``) is reported as stated, unchecked. The misère genus columns of the Grundy
census (``genus_tail``, ``first_non_nim``) carry no certificate and are not re-derived (the
verdict says so).

First cousins (Winning Ways ch. 4; A. N. Walker's notes)
---------------------------------------------------------
When ``d1`` is even, a heap of one token has no move (bit 1 of ``d1`` would take it; ``d0``
only splits). Drop such heaps and make every other heap one smaller: a move taking ``t`` tokens
from heap ``n + 1`` and leaving ``j`` non-empty heaps ``b_1..b_j`` becomes a move from heap
``n`` leaving the non-empty ones of ``b_i − 1``, that is taking ``r = t + j − 1`` tokens and
leaving 0, 1, ... or ``j`` heaps (as many of the ``b_i`` as exceed 1). So heap ``n + 1`` of the
code and heap ``n`` of the code ``C`` whose digit ``c_r`` has bit 1 if ``d_{r+1}`` has bit 1,
bits 1+2 if ``d_r`` has bit 2, bits 1+2+4 if ``d_{r−1}`` has bit 4 and bits 1+2+4+8 if
``d_{r−2}`` has bit 8 are isomorphic games (every combination of shapes is reached, as the
``b_i`` range over all sizes). Repeating while ``d1`` is even gives the standard form and the
shift ``s``: heap ``n`` of the code is heap ``n − s`` of the standard form, heaps ``<= s`` have
no move, so ``G(n) = G_std(n − s)`` and ``Φ(n) = Φ_std(n − s)`` (the identity for ``n <= s``).
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
from typing import Any

from cgtalg.referee import heap_rule, periodicity, quotients, rays
from cgtalg.referee._verdict import Malformed, Verdict
from cgtalg.referee.heaps import HeapRules, heap_rules

__all__ = ["recognise", "check", "check_row", "standard_form", "code_text"]

_CHECKER = "cgtalg.referee.census.check_row"
_HEX = "0123456789ABCDEF"


# -- standard forms ---------------------------------------------------------------------------
def code_text(d0: int, digits: list[int]) -> str:
    """A finite code as cgtalg writes it: trailing zeros dropped, ``0x`` when a digit exceeds 7."""
    digits = list(digits)
    while digits and digits[-1] == 0:
        digits.pop()
    hexa = any(d > 7 for d in [d0] + digits)
    return ("0x" if hexa else "") + _HEX[d0] + "." + ("".join(_HEX[d] for d in digits) or "0")


def standard_form(rules: HeapRules) -> tuple[str, int]:
    """``(standard form, shift)`` of a finite code by first cousins (module docstring).

    Raises
    ------
    Malformed
        For a game that is not a finite code.
    """
    if rules.kind != "code" or rules.k is None:
        raise Malformed(f"{rules.name}: a census row names a finite code")
    d0, digits = rules.d0, list(rules.digits)
    shift = 0

    def d(t: int) -> int:
        return d0 if t == 0 else digits[t - 1] if 1 <= t <= len(digits) else 0

    while d(1) % 2 == 0 and (d0 or any(digits)):
        new = []
        for r in range(1, len(digits) + 3):
            c = 1 if d(r + 1) & 1 else 0
            if d(r) & 2:
                c |= 3
            if d(r - 1) & 4:
                c |= 7
            if r >= 2 and d(r - 2) & 8:
                c |= 15
            new.append(c)
        while new and new[-1] == 0:
            new.pop()
        d0, digits, shift = 0, new, shift + 1
    return code_text(d0, digits), shift


def _same_code(a: Any, b: Any) -> bool:
    try:
        ra, rb = heap_rules(str(a)), heap_rules(str(b))
    except Malformed:
        return False
    return (ra.kind, ra.d0, ra.digits, ra.tail) == (rb.kind, rb.d0, rb.digits, rb.tail)


# -- recognise / check ------------------------------------------------------------------------
def recognise(doc: dict) -> bool:
    """A census (``census`` and ``rows``) or one of its rows (``code``, ``standard_form``,
    ``shift``, ``status``)."""
    if not isinstance(doc, dict):
        return False
    if isinstance(doc.get("census"), dict) and isinstance(doc.get("rows"), list):
        return True
    return all(k in doc for k in ("code", "standard_form", "shift", "status"))


def check(doc: dict) -> list[Verdict]:
    """One verdict per row (a whole census, or one row).

    Raises
    ------
    Malformed
        For a census without rows, or a row that is not an object.
    """
    rows = doc["rows"] if "rows" in doc and isinstance(doc.get("census"), dict) else [doc]
    if not rows:
        raise Malformed("the census has no rows")
    out = []
    try:
        for r in rows:
            if not isinstance(r, dict):
                raise Malformed(f"a census row is a JSON object, not {type(r).__name__}")
            out.append(check_row(r))
    finally:
        _CHECKED.clear()  # the shared certificates are this document's (their tables can be large)
    return out


#: verdicts of largest-heap rules already derived in this process, by their document
_RULE_VERDICTS: dict = {}


def check_row(row: dict) -> Verdict:
    """Re-derive every claim of one census row (module docstring)."""
    code, status = row.get("code"), row.get("status")
    quotient_row = "order" in row or "p_count" in row
    v = Verdict("census row", f"{code}: {row.get('result', status)}", True, [],
                f"{_CHECKER} ({'misère quotient census' if quotient_row else 'Grundy census'})")
    rules = heap_rules(code)
    std, shift = standard_form(rules)
    if row.get("standard_form") != std:
        v.fail(f"standard_form: the document says {row.get('standard_form')!r}, first cousins give {std!r}")
    if row.get("shift") != shift:
        v.fail(f"shift: the document says {row.get('shift')!r}, first cousins give {shift}")
    for c in row.get("cousins") or []:
        if standard_form(heap_rules(c))[0] != std:
            v.fail(f"cousins: {c} has the standard form {standard_form(heap_rules(c))[0]}, not {std}")
    cert = row.get("certificate") or {}
    if not isinstance(cert, dict):
        raise Malformed(f"{code}: a row's certificate is a JSON object")
    if quotient_row:
        _quotient_row(row, v, rules, std, shift, cert)
    else:
        _grundy_row(row, v, rules, std, shift, cert)
    return v


def _sub(v: Verdict, what: str, sub: Verdict) -> bool:
    """Fold a certificate's verdict into the row's (failures prefixed with ``what``)."""
    if not sub.ok:
        for r in sub.reasons:
            if r.startswith("FAIL: "):
                v.fail(f"{what}: {r[6:]}")
    return sub.ok


def _grundy_row(row: dict, v: Verdict, rules: HeapRules, std: str, shift: int, cert: dict) -> None:
    code, status = row.get("code"), row.get("status")
    if status == "solved":
        pc = cert.get("period")
        if not isinstance(pc, dict):
            v.fail("certificate: a solved row carries no period certificate")
        elif not _same_code(pc.get("ruleset"), code):
            v.fail(f"certificate: the period certificate is about {pc.get('ruleset')!r}, not {code}")
        else:
            for key in ("period", "preperiod"):
                if pc.get(key) != row.get(key):
                    v.fail(f"{key}: the row says {row.get(key)!r}, its certificate {pc.get(key)!r}")
            n0, p = row.get("preperiod"), row.get("period")
            if row.get("last_exceptional") != (n0 - 1 if isinstance(n0, int) and n0 > 0 else None):
                v.fail(f"last_exceptional: {row.get('last_exceptional')!r} is not G(preperiod - 1)")
            if _sub(v, "period certificate", periodicity.check_period(pc)) and isinstance(n0, int):
                G = periodicity.grundy_values(rules, n0 + p)
                top, at = int(G.max()), int(G.argmax())
                if row.get("max_value") != top:
                    v.fail(f"max_value: the row says {row.get('max_value')!r}, the largest value is {top}")
                elif row.get("max_value_at") not in (None, at):
                    v.fail(f"max_value_at: the row says {row.get('max_value_at')!r}, G({at}) = {top} first")
                else:
                    v.reasons.append(f"re-derived: period {p}, preperiod {n0}, largest value G({at}) = {top}")
    else:
        v.reasons.append(f"normal play: {status}: claims nothing proved (no certificate)")
    text = row.get("quotient")
    if isinstance(text, str) and text.startswith("final"):
        qc = cert.get("quotient")
        got = _std_quotient(v, qc, std)
        if got is not None:
            m = re.fullmatch(r"final \|Q\|=(\d+) (⟨.*⟩) \(Φ periodic from heap (\d+), period (\d+)\)", text)
            phi, order, presentation = got
            m0, q = _least(phi, qc, shift)
            if not m:
                v.fail(f"quotient: {text!r} is not a final quotient's summary")
            elif int(m.group(1)) != order or m.group(2) != presentation:
                v.fail(f"quotient: {text!r} misstates the order or the presentation of its certificate")
            elif int(m.group(4)) != q or int(m.group(3)) < m0:
                v.fail(f"quotient: Φ of {code} is periodic from heap {m0} with least period {q}, not as {text!r} says")
            else:
                v.reasons.append(f"re-derived: the misère quotient (order {order}) of {std}, Φ periodic from heap "
                                 f"{m0} with period {q}")
    elif text:
        v.reasons.append(f"misère quotient: {text!r}: a partial quotient, claims nothing proved here")
    if row.get("genus_tail") or row.get("first_non_nim") is not None:
        v.reasons.append("not re-derived: genus_tail, first_non_nim (misère genus; no certificate)")


def _std_quotient(v: Verdict, qc: Any, std: str) -> tuple[list[int], int, str] | None:
    """Check the standard form's quotient certificate; ``(Φ elements, order, presentation)``."""
    if not isinstance(qc, dict):
        v.fail("certificate: a final quotient is claimed without its certificate")
        return None
    if not _same_code(qc.get("game"), std):
        v.fail(f"certificate: the quotient certificate is about {qc.get('game')!r}, not the standard form {std}")
        return None
    if not qc.get("final"):
        v.fail("certificate: the quotient certificate is not final")
        return None
    checked = _checked_quotient(qc)
    if not _sub(v, "quotient certificate", checked[0]):
        return None
    return checked[3], int(qc["order"]), str(qc.get("presentation"))


#: the standard forms' quotient certificates checked in the document being checked, by their
#: canonical text: the cousins of a class (16 codes for 0.3777) carry the same certificate,
#: checked once (emptied when :func:`check` ends; at most 64 kept in between)
_CHECKED: dict[str, tuple[Verdict, Any, Any, list[int]]] = {}


def _checked_quotient(qc: dict) -> tuple[Verdict, Any, Any, list[int]]:
    """``(verdict of the certificate, table, P, Φ)`` of a quotient certificate, remembered by its
    canonical JSON text (the same text gives the same verdict: the check reads nothing else)."""
    key = hashlib.sha256(json.dumps(qc, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
    got = _CHECKED.get(key)
    if got is None:
        verdict = quotients.check_quotient(qc)
        table, P, phi = quotients.quotient_monoid(qc) if verdict.ok else (None, None, [])
        if len(_CHECKED) >= 64:
            _CHECKED.clear()
        got = _CHECKED[key] = (verdict, table, P, phi)
    return got


def _code_phi(phi: list[int], n0: int, p: int, shift: int, count: int) -> list[int]:
    """Φ of the code on heaps ``0..count-1`` from Φ of its standard form (periodic from ``n0``)."""
    def at(m: int) -> int:
        return phi[m] if m < len(phi) else phi[n0 + (m - n0) % p]
    return [0 if n < shift else at(n - shift) for n in range(count)]


def _least(phi: list[int], qc: dict, shift: int) -> tuple[int, int]:
    """The least preperiod and period of the code's Φ."""
    n0, p = qc["period"]
    seq = _code_phi(phi, n0, p, shift, n0 + shift + 2 * p)
    return quotients.least_period(seq, n0 + shift, p)


def _quotient_row(row: dict, v: Verdict, rules: HeapRules, std: str, shift: int, cert: dict) -> None:
    status = row.get("status")
    if status == "infinite":
        _infinite_row(row, v, std, shift, cert.get("infinite"))
        return
    if row.get("infinite_from") is not None:
        v.fail(f"infinite_from: the row says {row.get('infinite_from')!r}, but its status is {status!r}, not "
               "infinite")
    if status == "unsettled" and (cert.get("quotient") is not None or row.get("stopped") == TIED):
        _tied_row(row, v, std, shift, cert.get("quotient"))
        return
    if status not in ("tame", "wild-finite"):
        v.reasons.append(f"{status}: claims nothing (no quotient of the whole game is certified)")
        if row.get("lower_bound") is not None:
            v.reasons.append(f"not checked: the lower bound |Q_{row.get('bound_heap')}| >= {row.get('lower_bound')} "
                             "is reported as the construction stated it (no certificate)")
        return
    qc = cert.get("quotient")
    got = _std_quotient(v, qc, std)
    if got is None:
        return
    phi, order, presentation = got
    _, table, P, _ = _checked_quotient(qc)
    n = quotients.tame_index(table, P)
    facts = {"order": order, "p_count": int(P.sum()), "presentation": presentation,
             "p_portion": list(qc.get("p_portion") or []), "tame": n,
             "heaps": int(qc["max_heap"]) + shift}
    for key, want in facts.items():
        if key in row and row.get(key) != want:
            v.fail(f"{key}: the row says {row.get(key)!r}, its certificate gives {want!r}")
    if (status == "tame") != (n is not None):
        v.fail(f"status: {status!r}, but the quotient is " + (f"T_{n}" if n is not None else "not tame"))
    m0, q = _least(phi, qc, shift)
    if row.get("preperiod") != m0 or row.get("period") != q:
        v.fail(f"period: the row says preperiod {row.get('preperiod')!r}, period {row.get('period')!r}; Φ of "
               f"{row.get('code')} is periodic from heap {m0} with least period {q}")
    n0, p = qc["period"]
    words = [w for w in qc["phi"]]
    if qc.get("tail") is not None:    # by the normal tail: the row keeps Φ as verified, heaps 0..N
        code_words = ["1"] * shift + words
    else:
        code_words = ["1" if h < shift else (words[h - shift] if h - shift < len(words)
                                              else words[n0 + (h - shift - n0) % p]) for h in range(m0 + q)]
    if "phi" in row and row.get("phi") is not None and list(row["phi"]) != code_words:
        v.fail(f"phi: the row's words are not Φ of heaps 0..{m0 + q - 1} of {row.get('code')}")
    # generator heaps and growth over every heap Φ is given for (past the verified heaps by the
    # normal tail: one period past its preperiod)
    top = facts["heaps"] if qc.get("tail") is None else len(phi) - 1 + shift
    _gens_growth(row, v, table, P, _code_phi(phi, n0, p, shift, top + 1))
    if v.ok:
        v.reasons.append(f"re-derived: the quotient of {std} (order {order}, |P| = {facts['p_count']}, "
                         + (f"T_{n}" if n is not None else "not tame")
                         + f"), Φ of {row.get('code')} periodic from heap {m0} with period {q}, "
                         "generator heaps and growth")


def _gens_growth(row: dict, v: Verdict, table: Any, P: Any, cphi: list[int]) -> None:
    """The row's generator heaps and growth, re-derived from Φ of the code (``cphi``, heaps
    ``0..top``) in the certificate's monoid."""
    top = len(cphi) - 1
    if row.get("generator_heaps") is not None:
        gens, span = [], {0}
        for h, x in enumerate(cphi):
            if x not in span:
                gens.append(h)
                span = _closure(table, [cphi[g] for g in gens])
        if list(row["generator_heaps"]) != gens:
            v.fail(f"generator_heaps: the row says {row['generator_heaps']}, the heaps whose images are not "
                   f"products of smaller heaps' are {gens}")
    if row.get("growth") is not None:
        # |Q_h| depends on heaps 0..h only through the set of their images (submonoid_order
        # takes that set): it is recomputed when a heap brings an image not seen before
        steps, last, seen = [], None, set()
        for h in range(top + 1):
            if cphi[h] not in seen:
                seen.add(cphi[h])
                o = quotients.submonoid_order(table, P, sorted(seen))
            if o != last:
                steps.append([h, o])
                last = o
        if [list(s) for s in row["growth"]] != steps:
            v.fail(f"growth: the row says {row['growth']}, the orders |Q_n| change as {steps}")


#: ``stopped`` of an unsettled row tied to normal play
TIED = "normal play"


def _tied_row(row: dict, v: Verdict, std: str, shift: int, qc: Any) -> None:
    """An unsettled row whose quotient is tied to normal play: its certificate is the standard
    form's partial quotient ``Q_N`` with the tie (``normal_tie``; the referee's proof is
    :func:`cgtalg.referee.quotient_tail.check_tie`). The row's order, ``|P|``, presentation,
    P-portion, heap, generator heaps and growth are those of ``Q_N`` (heaps moved by the
    shift); every later order follows from the tie and the Grundy values."""
    if not isinstance(qc, dict):
        v.fail(f"stopped: {TIED!r} is claimed without its certificate")
        return
    if not _same_code(qc.get("game"), std):
        v.fail(f"certificate: the quotient certificate is about {qc.get('game')!r}, not the standard form {std}")
        return
    if qc.get("final") or not isinstance(qc.get("normal_tie"), dict):
        v.fail("certificate: an unsettled row's certificate is a partial quotient tied to normal play "
               "(final: false, with normal_tie)")
        return
    checked = _checked_quotient(qc)
    if not _sub(v, "quotient certificate", checked[0]):
        return
    _, table, P, phi = checked
    N = int(qc["max_heap"])
    facts = {"order": int(table.shape[0]), "p_count": int(P.sum()), "presentation": str(qc.get("presentation")),
             "p_portion": list(qc.get("p_portion") or []), "heaps": N + shift}
    for key, want in facts.items():
        if key in row and row.get(key) != want:
            v.fail(f"{key}: the row says {row.get(key)!r}, its certificate gives {want!r}")
    if row.get("stopped") != TIED:
        v.fail(f"stopped: the row says {row.get('stopped')!r}, its certificate ties it to normal play ({TIED!r})")
    _gens_growth(row, v, table, P, [0] * shift + list(phi))
    if v.ok:
        tie = qc["normal_tie"]
        v.reasons.append(
            f"re-derived: Q_{N} of {std} (order {facts['order']}, |P| = {facts['p_count']}) and its tie to normal "
            f"play (heaps above {tie.get('outside')} of {std} in an ideal played as in normal play): the whole "
            "quotient is Q_N extended by the nim-values the later Grundy values span, finite exactly when they "
            "are bounded; unsettled, as the row says; generator heaps and growth to heap N")


#: verdicts of the infinite certificates already checked in this process: the sha256 of the
#: document's canonical JSON -> (ok, failures, reasons, checker); a census gives every member of a
#: class the same document, and the check is a function of the document alone
_RAY_VERDICTS: dict[str, tuple[bool, list[str], list[str], str]] = {}
_RAY_VERDICTS_KEPT = 256


def _ray_verdict(doc: dict, checker: Any = None) -> tuple[bool, list[str], list[str], str]:
    """:func:`cgtalg.referee.rays.check` of ``doc`` (or ``checker``'s): ``(ok, failures, reasons,
    checker)`` (a document it cannot read fails, with why)."""
    key = hashlib.sha256(json.dumps(doc, sort_keys=True, separators=(",", ":"),
                                    ensure_ascii=True).encode("ascii")).hexdigest()
    got = _RAY_VERDICTS.get(key)
    if got is not None:
        ok, fails, reasons, checker = got
        return ok, list(fails), [*reasons, "the same document as an earlier row's: checked once"], checker
    check = checker or rays.check
    try:
        vd = check(doc)[0]
        got = (vd.ok, [r[6:] for r in vd.reasons if r.startswith("FAIL: ")],
               [r for r in vd.reasons if not r.startswith("FAIL: ")], vd.checker)
    except Malformed as exc:
        got = (False, [f"it cannot be read: {exc}"], [], f"{check.__module__}.read")
    if len(_RAY_VERDICTS) >= _RAY_VERDICTS_KEPT:
        _RAY_VERDICTS.pop(next(iter(_RAY_VERDICTS)))
    _RAY_VERDICTS[key] = got
    ok, fails, reasons, checker = got
    return ok, list(fails), list(reasons), checker


def _int_claim(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _last_finite_claims(row: dict, v: Verdict, std: str, dv: int, order: Any, pcount: Any, whence: str) -> None:
    for key, want in (("order", order), ("p_count", pcount)):
        if row.get(key) != want:
            v.fail(f"{key}: the row says {row.get(key)!r}, but {whence} gives {want!r} for Q_{dv - 1} of {std}")


def _infinite_row(row: dict, v: Verdict, std: str, shift: int, doc: Any) -> None:
    """An infinite row (module docstring): its claims against its certificate, and the
    certificate by :func:`cgtalg.referee.rays.check`."""
    code = row.get("code")
    if not isinstance(doc, dict):
        v.fail("certificate: an infinite quotient is claimed without its certificate (certificate.infinite)")
        return
    if doc.get("kind") == heap_rule.KIND:
        _rule_row(row, v, std, shift, doc)
        return
    if doc.get("kind") != rays.KIND:
        v.fail(f"certificate: the infinite certificate is of kind {doc.get('kind')!r}, not {rays.KIND!r}")
        return
    if not _same_code(doc.get("game"), std):
        v.fail(f"certificate: the infinite certificate is about {doc.get('game')!r}, not the standard form {std}")
        return
    dv = doc.get("infinite_from")
    if not _int_claim(dv):
        v.fail(f"certificate: the infinite certificate's infinite_from is {dv!r}, not a heap")
        return
    if row.get("infinite_from") != dv + shift:
        v.fail(f"infinite_from: the row says {row.get('infinite_from')!r}, but its certificate proves Q_n infinite "
               f"from heap {dv} of {std}, heap {dv + shift} of {code}")
    if row.get("heaps") != dv - 1 + shift:
        v.fail(f"heaps: the row says {row.get('heaps')!r}, but the last finite quotient is Q_{dv - 1} of {std}, "
               f"heap {dv - 1 + shift} of {code}")
    lf = doc.get("last_finite")
    order = pcount = None
    if isinstance(lf, dict):
        order, pcount, whence = lf.get("order"), lf.get("p_count"), "its certificate's last_finite"
        _last_finite_claims(row, v, std, dv, order, pcount, whence)
    if not v.ok:
        # as rays.check itself: the quick checks first, the P- and N-conditions only when they pass
        v.reasons.append("not checked further: the certificate's ray pretension (the row's claims already "
                         "contradict its certificate)")
        return
    ok, fails, reasons, checker = _ray_verdict(doc)
    for why in fails:
        v.fail(f"infinite certificate: {why}")
    counted = ok and ("linear" in doc or rays.read(doc).counted is not None)
    if ok and not isinstance(lf, dict) and not counted:
        # the certificate passed (its data are a pretension of the right shape): Lemma 8 here
        order, pcount = rays.last_finite(rays.read(doc))
        _last_finite_claims(row, v, std, dv, order, pcount, "Lemma 8 on its certificate")
    if counted and v.ok:
        v.reasons.append(f"not re-derived: the order and |P| of Q_{dv - 1} (a certificate with a counted heap "
                         "or a linear ray does not show the last finite quotient: cgtalg.referee.ray_counted, "
                         "Lemma C3; cgtalg.referee.ray_linear)")
        order = pcount = "not re-derived"
    if ok and v.ok:
        member = f" (so Q_n of {code} for n >= {dv + shift})" if shift else ""
        v.reasons.append(f"re-derived by {checker.split(' ')[0]}: Q_n of {std} is infinite for every n >= {dv}"
                         f"{member} and Q_{dv - 1} of {std} has order {order}, |P| = {pcount}")
        v.reasons += [f"infinite certificate: {r}" for r in reasons]
        v.reasons.append("not re-derived: presentation, p_portion, generator_heaps, growth of the last finite "
                         "quotient (the certificate proves its order and |P| only)")


def _rule_row(row: dict, v: Verdict, std: str, shift: int, doc: dict) -> None:
    """An infinite row proved by a largest-heap rule (:mod:`cgtalg.referee.heap_rule`): the rule
    gives every outcome of the standard form, and single heaps it tells apart make the quotient
    infinite; it names no heap from which ``Q_n`` is infinite and no last finite quotient, so the
    row must claim none (``infinite_from``, ``heaps``, ``order``, ``p_count`` empty)."""
    code = row.get("code")
    if not _same_code(doc.get("game"), std):
        v.fail(f"certificate: the largest-heap rule is about {doc.get('game')!r}, not the standard form {std}")
        return
    for key in ("infinite_from", "heaps", "order", "p_count"):
        if row.get(key) is not None:
            v.fail(f"{key}: the row says {row.get(key)!r}, but a largest-heap rule proves no heap from which Q_n is "
                   f"infinite and no last finite quotient")
    if not v.ok:
        v.reasons.append("not checked further: the rule (the row's claims already contradict its certificate)")
        return
    # the members of a class carry the same rule: its verdict (a function of the document alone)
    # is derived once per process
    key = json.dumps(doc, sort_keys=True)
    if key not in _RULE_VERDICTS:
        _RULE_VERDICTS[key] = _ray_verdict(doc, heap_rule.check)
    ok, fails, reasons, checker = copy.deepcopy(_RULE_VERDICTS[key])
    for why in fails:
        v.fail(f"largest-heap rule: {why}")
    if ok and v.ok:
        member = f" (and so of {code}, heap n + {shift} of which is heap n of {std})" if shift else ""
        v.reasons.append(f"re-derived by {checker.split(' ')[0]}: every misère outcome of {std} follows the rule, "
                         f"and its misère quotient is infinite{member}")
        v.reasons += [f"largest-heap rule: {r}" for r in reasons]


def _closure(table: Any, gens: list[int]) -> set[int]:
    span, frontier = {0}, [0]
    while frontier:
        y = frontier.pop()
        for g in gens:
            z = int(table[y, g])
            if z not in span:
                span.add(z)
                frontier.append(z)
    return span
