"""Re-checking any certificate the library writes: :func:`check_certificate`.

A document is what a command printed with ``--json`` (or a ``to_json()`` of the result objects):
the whole output of ``cgtalg equiv``, ``cgtalg period`` or ``cgtalg quotient``, or one
certificate in it. Each certificate found is re-verified by a checker that shares no code with
the search that made it, and the report names that checker:

========================================  ==========================================================
certificate                               checker
========================================  ==========================================================
impartial equivalence proof or            :func:`cgtalg.misere.proof.check_proof`: Spindler's
distinguishing game (``equiv``)           Theorem 1 steps (misère) or Grundy labels (normal play),
                                          outcomes by its own play of literal sums
partizan misère comparison (``equiv       :func:`cgtalg.misere.partizan_proof.check_misere_certificate`:
--misere``, dicot / dead-ending / all)    Maintenance witnesses, Proviso and distinguishers by play
partizan normal-play order (``equiv``)    the relation re-decided by play of ``G − H`` with each
                                          player first, on the literal forms (Siegel CGT II.1)
periodicity certificate (``period``)      the values re-computed from the rules, ``G(n) = G(n+p)``
                                          checked on the theorem's bound, the least preperiod and
                                          the least period
misère quotient (``quotient``)            the exact verification of the pretension (P- and
                                          N-conditions) on the code's own moves, and the misère
                                          periodicity theorem for a final quotient
========================================  ==========================================================

A tampered document is rejected with the reasons; a document that is not a certificate at all
raises :class:`~cgtalg.errors.CertificateError`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from cgtalg.errors import CertificateError, CgtalgError, shorten

__all__ = ["CheckReport", "check_certificate", "read_document"]


@dataclass(repr=False)
class CheckReport:
    """The verdict on one certificate.

    Attributes
    ----------
    kind : str
        What was checked (``"impartial equivalence proof"``, ``"periodicity certificate"``...).
    claim : str
        The claim the certificate makes, in words.
    checker : str
        The checker that ran (a function name and what it does).
    ok : bool
        Whether the certificate proves its claim.
    reasons : list of str
        The failures found, or a summary of what was checked.
    """

    kind: str
    claim: str
    checker: str
    ok: bool
    reasons: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"kind": self.kind, "claim": self.claim, "checker": self.checker, "ok": self.ok,
                "reasons": self.reasons}

    def __repr__(self) -> str:
        from cgtalg.core.display import short

        return f"CheckReport({'OK' if self.ok else 'REJECTED'}, {self.kind!r}, {short(self.claim, 100)!r})"

    def _repr_html_(self) -> str:
        """Notebook view: verdict, claim, the checker that ran, and the reasons."""
        from cgtalg.core.display import Html, card, esc, short

        reasons = "<br>".join(esc(short(r, 300)) for r in self.reasons[:50])
        return card(f"{'OK' if self.ok else 'REJECTED'}: {self.kind}", [
            ("claim", short(self.claim, 400)), ("checker", self.checker), ("reasons", Html(reasons or "—"))],
            kind="check")

    def __str__(self) -> str:
        head = f"{'OK' if self.ok else 'REJECTED'}: {self.kind}: {self.claim}\n  checker: {self.checker}"
        return head + "".join(f"\n  - {r}" for r in self.reasons)


def read_document(text: str) -> Any:
    """The JSON value of ``text`` (a certificate file's contents).

    Raises
    ------
    CertificateError
        When the text is not JSON.
    """
    try:
        return json.loads(text)
    except ValueError as exc:
        raise CertificateError(f"not a JSON document: {exc}") from None


def check_certificate(doc: Any) -> list[CheckReport]:
    """Re-verify every certificate in ``doc`` (module docstring): one report per certificate.

    Parameters
    ----------
    doc : dict or str
        A command's ``--json`` output or a result's ``to_json()``, as a dict or as JSON text.

    Returns
    -------
    list of CheckReport

    Raises
    ------
    CertificateError
        When ``doc`` holds no certificate this function knows.

    Examples
    --------
    >>> import cgtalg as cg
    >>> [r.ok for r in check_certificate(cg.compare("{*2}", "*2+*2", misere=True).to_json())]
    [True]
    """
    if isinstance(doc, str):
        doc = read_document(doc)
    if not isinstance(doc, dict):
        raise CertificateError(f"a certificate document is a JSON object, not {shorten(doc)}")
    if "certificates" in doc and "relation" in doc:  # a comparison (cgtalg equiv on partizan games)
        certs = doc["certificates"]
        if not isinstance(certs, list) or not certs:
            raise CertificateError("the comparison carries no certificate to check")
        reports = [_one(c) for c in certs]
        _agree(doc, reports, certs)
        return reports
    if "certificate" in doc and isinstance(doc["certificate"], dict) and "theorem" in doc["certificate"]:
        reports = [_one(doc["certificate"])]  # cgtalg equiv on impartial games: the proof inside
        if "holds" in doc and doc["holds"] != doc["certificate"].get("holds"):
            reports[0].ok = False
            reports[0].reasons.append("the document's verdict differs from its certificate's")
        return reports
    return [_one(doc)]


def _clip(x: Any, n: int = 60) -> str:
    t = str(x)
    return t if len(t) <= n else t[: n - 3] + "..."


def _one(c: Any) -> CheckReport:
    if not isinstance(c, dict):
        raise CertificateError(f"a certificate is a JSON object, not {shorten(c)}")
    if c.get("type") == "misere_comparison":
        return _misere_partizan(c)
    if c.get("type") == "normal_play_order":
        return _normal_order(c)
    if "theorem" in c and isinstance(c.get("certificate"), dict):
        return _impartial(c)
    if "table" in c and "phi_elements" in c:
        return _quotient(c)
    if "period" in c and "preperiod" in c and "status" in c:
        return _period(c)
    raise CertificateError("no certificate found: expected the --json output of `cgtalg equiv`, "
                           "`cgtalg period` or `cgtalg quotient`, or a result's to_json()")


def _agree(doc: dict, reports: list[CheckReport], certs: list) -> None:
    """The document's relation must be what its certificates prove."""
    rel = doc.get("relation")
    holds = [c.get("holds") for c in certs if isinstance(c, dict)]
    if doc.get("misere") and len(certs) == 2 and all(isinstance(h, bool) for h in holds):
        ge, le = holds
        want = "=" if ge and le else ">" if ge else "<" if le else "||"
        if want != rel:
            reports[0].ok = False
            reports[0].reasons.append(f"the document says {rel!r} but its certificates prove {want!r}")


def _impartial(c: dict) -> CheckReport:
    from cgtalg.misere.proof import check_proof

    ok, why = check_proof(c, explain=True)
    rel = "≡" if c.get("holds") else "≢"
    play = "misère" if c.get("misere") else "normal"
    kind = ("impartial equivalence proof" if c.get("holds") else
            "distinguishing game (impartial inequivalence)")
    return CheckReport(kind, f"{_clip(c.get('g'))} {rel} {_clip(c.get('h'))} in {play} play",
                       "cgtalg.misere.proof.check_proof (its own play of literal sums)", ok, list(why))


def _misere_partizan(c: dict) -> CheckReport:
    from cgtalg.misere.partizan_certificate_json import comparison_from_json
    from cgtalg.misere.partizan_proof import check_misere_certificate

    obj = comparison_from_json(c)
    ok, why = check_misere_certificate(obj, explain=True)
    rel = {(">=", True): "≥", (">=", False): "≱", ("=", True): "=", ("=", False): "≠"}.get(
        (obj.relation, obj.holds), obj.relation)
    return CheckReport("partizan misère comparison",
                       f"{_clip(obj.g)} {rel} {_clip(obj.h)} in misère play, "
                       f"universe {obj.universe!r}",
                       "cgtalg.misere.partizan_proof.check_misere_certificate (witnesses and "
                       "distinguishers by direct play)", ok, list(why))


def _normal_order(c: dict) -> CheckReport:
    from cgtalg.misere.partizan_certificate_json import forms_from_json

    forms = forms_from_json(c.get("forms"))
    try:
        g, h = forms[c["g"]], forms[c["h"]]
    except (KeyError, IndexError, TypeError):
        raise CertificateError("a normal-play order certificate names its two forms by row") from None
    rel = c.get("relation")
    if rel not in ("=", "<", ">", "||"):
        raise CertificateError(f"unknown relation {shorten(rel)}")
    ge, le = _left_wins_second(g, h), _left_wins_second(h, g)
    found = "=" if ge and le else ">" if ge else "<" if le else "||"
    why = [f"G − H played out: Left {'wins' if ge else 'loses'} moving second, "
           f"Right {'wins' if le else 'loses'} moving second, so G {found} H"]
    if found != rel:
        why.insert(0, f"the certificate says {rel!r} but play gives {found!r}")
    return CheckReport("partizan normal-play order", f"{_clip(g)} {rel} {_clip(h)}",
                       "play of G − H on the literal forms (Siegel CGT II.1: G ≥ H iff Left wins "
                       "G − H moving second)", found == rel, why)


def _left_wins_second(g: Any, h: Any) -> bool:
    """Left wins ``g − h`` when Right moves first, by exhaustive play of the literal sum
    (positions are pairs of forms, so nothing but the options of the given forms is used)."""
    memo: dict[tuple[int, int, bool], bool] = {}

    def wins(a: Any, b: Any, left_to_move: bool) -> bool:
        """Whether the player to move wins ``a − b`` (Left's options of ``a − b``: ``a^L − b``
        and ``a − b^R``; Right's: ``a^R − b`` and ``a − b^L``)."""
        key = (a.id, b.id, left_to_move)
        got = memo.get(key)
        if got is not None:
            return got
        stack = [(a, b, left_to_move, False)]
        while stack:
            x, y, lm, expanded = stack.pop()
            k = (x.id, y.id, lm)
            if k in memo:
                continue
            nxt = ([(o, y) for o in x.left] + [(x, o) for o in y.right]) if lm else \
                  ([(o, y) for o in x.right] + [(x, o) for o in y.left])
            todo = [(p, q) for p, q in nxt if (p.id, q.id, not lm) not in memo]
            if todo and not expanded:
                stack.append((x, y, lm, True))
                stack.extend((p, q, not lm, False) for p, q in todo)
                continue
            memo[k] = any(not memo[(p.id, q.id, not lm)] for p, q in nxt)
        return memo[key]

    return not wins(g, h, False)


def _period(c: dict) -> CheckReport:
    from cgtalg.rulesets.heap_games import parse_heap_ruleset
    from cgtalg.rulesets.octal_periodicity import check_period_claim

    name = c.get("ruleset")
    claim = f"{name}: period {c.get('period')}, preperiod {c.get('preperiod')}"
    if c.get("status") != "certified" or not c.get("certified"):
        raise CertificateError(f"{shorten(name)}: the periodicity result is not certified "
                               f"(status {shorten(c.get('status'))}): it claims nothing to check")
    try:
        ok, why, how = check_period_claim(parse_heap_ruleset(str(name)), c.get("period"), c.get("preperiod"))
    except CgtalgError as exc:
        return CheckReport("periodicity certificate", claim, "re-computation from the rules", False, [str(exc)])
    return CheckReport("periodicity certificate", claim, how, ok, why)


def _quotient(c: dict) -> CheckReport:
    from cgtalg.misere.quotient_store import check_quotient_claim
    from cgtalg.rulesets.heap_games import parse_heap_ruleset

    if c.get("kind") in ("forms", "family"):
        raise CertificateError(
            f"a misère quotient of {'a set of forms' if c.get('kind') == 'forms' else 'a component family'} "
            "is re-checked by recomputing it (cgtalg quotient ... re-verifies what it reads from the "
            "store); `cgtalg check` re-checks the quotients of heap games from their JSON")
    name = c.get("game")
    claim = (f"{name}: misère quotient of order {c.get('order')}, "
             f"{'final' if c.get('final') else 'heaps 0..' + str(c.get('max_heap'))}")
    try:
        why = check_quotient_claim(parse_heap_ruleset(str(name)), c.get("table"), c.get("P"), c.get("phi_elements"),
                                   bool(c.get("final")))
    except CgtalgError as exc:
        return CheckReport("misère quotient", claim, "exact verification on the code's own moves",
                           False, [str(exc)])
    return CheckReport("misère quotient", claim,
                       "cgtalg.misere.quotient_store.check_quotient_claim (P- and N-conditions on "
                       "the code's own moves; misère periodicity theorem for a final quotient)",
                       True, why)
