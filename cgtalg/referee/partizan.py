"""Partizan comparisons: the ``--json`` output of ``cgtalg equiv G H`` on partizan games (normal
play, and misère play with ``--universe dicot|dead-ending|all``), ``cgtalg.compare(...).to_json()``
of them, and a single certificate (``type`` ``normal_play_order`` or ``misere_comparison``).

Forms come from the certificate's table of rows ``[[left option rows], [right option rows]]``
(:func:`cgtalg.referee.games.read_rows`); all play is the referee's own
(:mod:`cgtalg.referee.games`).

Normal play (Siegel, CGT II.1)
    ``G ≥ H`` iff Left wins ``G − H`` when Right moves first; ``G ≤ H`` iff Right wins it when
    Left moves first. The referee plays the literal sum ``G + (−H)`` both ways and derives the
    relation ``=``, ``>``, ``<`` or ``||``.

Misère play modulo a universe ``U`` (``G ≥ H`` iff ``o⁻(G + X) ≥ o⁻(H + X)`` for every ``X ∈ U``,
outcomes ordered ``L > P > R``, ``L > N > R``)
    *A distinguisher* ``T`` (the claim ``G ≱ H``) is checked by the definition: ``T ∈ U`` and the
    outcomes of ``G + T`` and ``H + T`` found by play are the claimed ones and are not in the
    order ``≥``; its ``side`` and failing ``condition`` must fit (``outcome``: ``T = 0``;
    Maintenance (i)/(ii): the ``option`` is a Left option of ``H`` / a Right option of ``G``;
    Proviso (iii)/(iv): ``H`` is a Left end / ``G`` is a Right end).

    *A proof* of ``G ≥ H`` by Maintenance and Proviso — for the universe of all games Siegel,
    CGT V.6.15-V.6.16 (seed 002 Theorem 2); for dicots and dead-ending games Larsson,
    Nowakowski and Santos (2017) Theorem 4 as applied by Larsson, Milley, Nowakowski, Renault and
    Santos (2018): ``G ≥ H`` iff (i) every ``H^L`` has a ``G^L ≥ H^L`` or an ``H^LR ≤ G``, (ii)
    every ``G^R`` has an ``H^R ≤ G^R`` or a ``G^RL ≥ H``, (iii) if ``H`` is a Left end then ``G``
    is Left-strong, (iv) if ``G`` is a Right end then ``H`` is Right-strong. ``G`` and ``H`` must
    lie in ``U``; each step reachable from a root has identical forms, or a witness per option
    that really is an option of the kind named, citing a step proving exactly that inequality with
    a smaller birthday sum; its Proviso is decided by play, and ``o⁻(A) ≥ o⁻(B)`` (the test
    ``X = 0``, necessary in every universe) is played too. *Left-strong* means Left, moving
    first, wins ``A + X`` for every Left end ``X ∈ U``:

    - all games: ``A`` is itself a Left end (Siegel V.6.16);
    - dicots: the only Left end is ``0``, so Left wins ``A`` moving first;
    - dead-ending games: Left wins ``A`` and ``A + D_b`` moving first, ``D_b = { | D_0, ...,
      D_(b-1)}``, ``b = birthday(A) + 1``. Why ``D_b`` suffices: in ``A + X`` (``X ≠ 0`` a Left
      dead end) Left moves only in ``A``, at most ``b − 1`` times, so Right moves at most ``b − 1``
      times before Left is stuck (and wins); map ``X``'s position after Right's ``j``-th move in it
      to ``D_(b−j)``, or to ``D_0`` when it is ``0``: each Right move in ``X`` is a legal move in
      ``D_b``, a Right end of ``A + X`` maps to a Right end, so a Left strategy winning ``A + D_b``
      wins ``A + X``. Conversely ``0`` and ``D_b`` are Left dead ends, so the test is exact.

    Right-strong is the conjugate.

The claim as stated: the top-level ``relation``, ``equal``, ``holds``, ``meaning``, ``misere``,
``universe``, ``g``, ``h`` (read with the referee's reader: the very forms of the rows),
``input`` (read literally: in misère play the same forms; in normal play, where the claim is
about values, a different form must have the same value, by play), each certificate's
``relation``, ``holds``, ``universe`` and ``theorem``, and ``proof_checked``; any disagreement
fails the verdict naming the field.
"""

from __future__ import annotations

from typing import Any

from cgtalg.referee import games as gm
from cgtalg.referee._verdict import Malformed, Verdict, unvisited

__all__ = ["recognise", "check"]

_TYPES = ("normal_play_order", "misere_comparison")
_NORMAL_CHECKER = "cgtalg.referee.partizan.check (play of G − H, Siegel CGT II.1)"
_MISERE_CHECKER = ("cgtalg.referee.partizan.check (Maintenance and Proviso steps, Siegel CGT V.6.16 / "
                   "Larsson-Nowakowski-Santos 2017 Thm 4; distinguishers by misère play)")
_MEANING = {"=": "equal", "<": "less than", ">": "greater than", "||": "confused with (incomparable)"}
#: the universes as the certificates name them ("full": the name of "all" before 0.3)
_UNIVERSE = {"all": "all", "full": "all", "dicot": "dicot", "dead-ending": "dead-ending"}
_THEOREM = {"all": "V.6.1", "dicot": "modulo D", "dead-ending": "modulo E"}
_MAX_FAILS = 25


def recognise(doc: dict) -> bool:
    """A partizan comparison certificate, or a comparison document whose certificates are all
    partizan ones (a comparison with no certificate is recognised, and refused by :func:`check`)."""
    if doc.get("type") in _TYPES:
        return True
    certs = doc.get("certificates")
    return (isinstance(certs, list) and "relation" in doc
            and all(isinstance(c, dict) and c.get("type") in _TYPES for c in certs))


def _relation(ge: bool, le: bool) -> str:
    return "=" if ge and le else ">" if ge else "<" if le else "||"


def _show(g: gm.Form) -> str:
    return gm.show(g, 80)


class _Table:
    """A certificate's forms, by row."""

    def __init__(self, cert: dict, where: str) -> None:
        self.where = where
        try:
            self.forms = gm.read_rows(cert.get("forms"))
        except gm.ReadError as exc:
            raise Malformed(f"{where}.forms: {exc}") from None

    def __call__(self, i: Any, what: str) -> gm.Form:
        if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(self.forms):
            raise Malformed(f"{self.where}.{what}: {str(i)[:40]} is not a row of the certificate's forms")
        return self.forms[i]


# ---------------------------------------------------------------------------------------------
# normal play
# ---------------------------------------------------------------------------------------------
def _order(g: gm.Form, h: gm.Form) -> tuple[bool, bool]:
    """``(G ≥ H, G ≤ H)`` by play of the literal ``G − H`` (Siegel, CGT II.1); for forms holding a
    number too large for a tree, from the definition of the order (:mod:`cgtalg.referee.compact`)."""
    from cgtalg.referee.compact import has_compact, le

    if has_compact(g, h):
        return le(h, g), le(g, h)
    d = [g, gm.neg(h)]
    return not gm.wins_first(d, False, False), not gm.wins_first(d, True, False)


def _normal_certificate(c: dict, where: str, v: Verdict) -> tuple[gm.Form, gm.Form, str]:
    t = _Table(c, where)
    g, h = t(c.get("g"), "g"), t(c.get("h"), "h")
    ge, le = _order(g, h)
    found = _relation(ge, le)
    from cgtalg.referee.compact import has_compact

    if has_compact(g, h):
        v.reasons.append(f"G ≥ H {'holds' if ge else 'fails'} and G ≤ H {'holds' if le else 'fails'} by the "
                         f"definition of the order (numbers too large for a tree kept whole), so G {found} H")
    else:
        v.reasons.append(f"G − H played out: Left {'wins' if ge else 'loses'} moving second, Right "
                         f"{'wins' if le else 'loses'} moving second, so G {found} H")
    if c.get("relation") != found:
        v.fail(f"{where}.relation: says {c.get('relation')!r} but play gives {found!r}")
    return g, h, found


# ---------------------------------------------------------------------------------------------
# misère play
# ---------------------------------------------------------------------------------------------
def _strong(a: gm.Form, universe: str, left: bool) -> bool:
    """Left-strong (``left``) or Right-strong in the universe (module docstring)."""
    if universe == "all":
        return not (a.left if left else a.right)
    if not gm.wins_first([a], left, True):
        return False
    return universe == "dicot" or gm.wins_first([a, gm.dead_end(a.birthday + 1, left)], left, True)


def _distinction(d: Any, t: _Table, g: gm.Form, h: gm.Form, universe: str, either: bool,
                 where: str, v: Verdict) -> None:
    """A distinguisher of ``G ≱ H`` (or of ``H ≱ G`` when ``either``, for a claim ``G ≠ H``)."""
    if not isinstance(d, dict):
        raise Malformed(f"{where} must be an object")
    a, b, x = t(d.get("g"), "distinction.g"), t(d.get("h"), "distinction.h"), t(d.get("t"), "distinction.t")
    if not ((a is g and b is h) or (either and a is h and b is g)):
        v.fail(f"{where}: the distinguisher compares {_show(a)} and {_show(b)}, not G and H")
    why = gm.member(x, universe)
    if why:
        v.fail(f"{where}.t: T = {_show(x)} is not in the universe {universe!r}: {why}")
    oa, ob = gm.outcome([a, x], True), gm.outcome([b, x], True)
    for key, found in (("outcome_g", oa), ("outcome_h", ob)):
        if d.get(key) != found:
            v.fail(f"{where}.{key}: claimed {d.get(key)!r} but misère play gives {found}")
    if gm.outcome_ge(oa, ob):
        v.fail(f"{where}.t: T does not distinguish: o(G+T) = {oa} ≥ o(H+T) = {ob}")
    side = d.get("side")
    if side == "left-first":
        ok = gm.wins_first([b, x], True, True) and not gm.wins_first([a, x], True, True)
    elif side == "right-first":
        ok = gm.wins_first([a, x], False, True) and not gm.wins_first([b, x], False, True)
    else:
        ok = False
    if not ok:
        v.fail(f"{where}.side: {str(side)[:30]!r} is not what play gives")
    cond, opt = d.get("condition"), None if d.get("option") is None else t(d.get("option"), "distinction.option")
    fits = {"outcome": x is gm.ZERO,
            "maintenance (i)": opt is not None and any(o is opt for o in b.left),
            "maintenance (ii)": opt is not None and any(o is opt for o in a.right),
            "proviso (iii)": not b.left, "proviso (iv)": not a.right}.get(str(cond), False)
    if not fits:
        v.fail(f"{where}.condition: {str(cond)[:30]!r} (option {opt and _show(opt)}) does not fit G and H")
    v.reasons.append(f"{universe}: T = {_show(x)} in the universe; misère play gives o(G+T) = {oa}, "
                     f"o(H+T) = {ob}")


def _wanted(cond: str, kind: Any, a: gm.Form, b: gm.Form, opt: gm.Form, w: gm.Form) -> tuple | None:
    """The inequality a Maintenance witness ``w`` for the option ``opt`` of step ``A ≥ B`` must
    cite, or None when ``w`` is not an option of the kind named: (i) for ``opt = H^L``, kind
    ``G^L`` (``w`` a Left option of ``A``) cites ``w ≥ H^L``, kind ``H^LR`` (``w`` a Right option
    of ``H^L``) cites ``A ≥ w``; (ii) for ``opt = G^R``, kind ``H^R`` (``w`` a Right option of
    ``B``) cites ``G^R ≥ w``, kind ``G^RL`` (``w`` a Left option of ``G^R``) cites ``w ≥ B``."""
    kinds = {"(i)": {"G^L": (a.left, (w, opt)), "H^LR": (opt.right, (a, w))},
             "(ii)": {"H^R": (b.right, (opt, w)), "G^RL": (opt.left, (w, b))}}[cond]
    among, pair = kinds.get(kind if isinstance(kind, str) else "", ((), None))
    return pair if any(o is w for o in among) else None


def _proof(p: Any, t: _Table, roots_want: list[tuple[gm.Form, gm.Form]], universe: str, where: str,
           v: Verdict) -> None:
    """Maintenance-and-Proviso steps from each root (module docstring)."""
    if not isinstance(p, dict) or not isinstance(p.get("nodes"), list) or not isinstance(p.get("roots"), list):
        raise Malformed(f"{where} must be {{\"roots\": [...], \"nodes\": [...]}}")
    raw = p["nodes"]
    nodes = []
    for k, n in enumerate(raw):
        w = f"{where}.nodes[{k}]"
        if not isinstance(n, dict):
            raise Malformed(f"{w} must be an object")
        items = []
        for side in ("left", "right"):
            entries = n.get(side)
            if not isinstance(entries, list):
                raise Malformed(f"{w}.{side} must be a list")
            got = []
            for j, e in enumerate(entries):
                if not (isinstance(e, list) and len(e) == 4):
                    raise Malformed(f"{w}.{side}[{j}] must be [option, kind, witness, step]")
                ref = e[3]
                if not isinstance(ref, int) or isinstance(ref, bool) or not 0 <= ref < len(raw):
                    raise Malformed(f"{w}.{side}[{j}]: {str(ref)[:20]} is not a step")
                got.append((t(e[0], f"{w}.{side}[{j}]"), e[1], t(e[2], f"{w}.{side}[{j}]"), ref))
            items.append(got)
        nodes.append((t(n.get("g"), f"{w}.g"), t(n.get("h"), f"{w}.h"), n.get("identical") is True,
                      items[0], items[1], n.get("proviso")))
    roots = p["roots"]
    if len(roots) != len(roots_want):
        v.fail(f"{where}.roots: {len(roots)} roots, the claim needs {len(roots_want)}")
    stack = []
    for r, (g, h) in zip(roots, roots_want):
        if not isinstance(r, int) or isinstance(r, bool) or not 0 <= r < len(nodes):
            raise Malformed(f"{where}.roots: {str(r)[:20]} is not a step")
        if nodes[r][0] is not g or nodes[r][1] is not h:
            v.fail(f"{where}.roots: the root step proves {_show(nodes[r][0])} ≥ {_show(nodes[r][1])}, "
                   f"not {_show(g)} ≥ {_show(h)}")
        stack.append(r)
    seen: set[int] = set()
    fails = 0
    for k in unvisited(stack, seen, lambda: fails > _MAX_FAILS):
        a, b, identical, left, right, proviso = nodes[k]
        bad: list[str] = []
        if identical:
            if a is not b or left or right:
                bad.append("claims identical forms, but they differ or it lists witnesses")
        else:
            size = a.birthday + b.birthday
            for name, options, items in (("(i)", b.left, left), ("(ii)", a.right, right)):
                covered = set()
                for opt, kind, w, ref in items:
                    if not any(o is opt for o in options):
                        bad.append(f"{name}: {_show(opt)} is not such an option")
                        continue
                    pair = _wanted(name, kind, a, b, opt, w)
                    if pair is None:
                        bad.append(f"{name}: the witness {_show(w)} of kind {str(kind)[:10]!r} is not such an option")
                        continue
                    ca, cb = nodes[ref][0], nodes[ref][1]
                    if ca is not pair[0] or cb is not pair[1] or ca.birthday + cb.birthday >= size:
                        bad.append(f"{name}: for {_show(opt)} the cited step {ref} proves {_show(ca)} ≥ "
                                   f"{_show(cb)}, not the smaller {_show(pair[0])} ≥ {_show(pair[1])}")
                        continue
                    covered.add(opt.id)
                    stack.append(ref)
                missing = [o for o in options if o.id not in covered]
                if missing:
                    bad.append(f"{name}: no valid witness for the option {_show(missing[0])}")
            if not b.left and not _strong(a, universe, True):
                bad.append(f"(iii): B is a Left end but A is not Left-strong in {universe!r}")
            if not a.right and not _strong(b, universe, False):
                bad.append(f"(iv): A is a Right end but B is not Right-strong in {universe!r}")
            used = [s for s, hit in (("iii", not b.left), ("iv", not a.right)) if hit]
            if proviso is not None and proviso != used:
                bad.append(f"proviso: lists {proviso!r}, but the Proviso applies as {used!r}")
            oa, ob = gm.outcome([a], True), gm.outcome([b], True)
            if not gm.outcome_ge(oa, ob):
                bad.append(f"o⁻(A) = {oa} is not ≥ o⁻(B) = {ob} (X = 0)")
        for why in bad:
            v.fail(f"{where}.nodes[{k}] ({_show(a)} ≥ {_show(b)}): {why}")
            fails += 1
    v.reasons.append(f"{universe}: {len(seen)} Maintenance-and-Proviso steps checked (Proviso and "
                     "X = 0 by misère play)")


def _misere_certificate(c: dict, where: str, v: Verdict) -> tuple[gm.Form, gm.Form, str, str, bool]:
    """One ``misere_comparison``: ``(G, H, universe, relation, what its evidence proves)``."""
    t = _Table(c, where)
    g, h = t(c.get("g"), "g"), t(c.get("h"), "h")
    universe, relation, holds = _UNIVERSE.get(str(c.get("universe"))), c.get("relation"), c.get("holds")
    if universe is None or relation not in (">=", "=") or not isinstance(holds, bool):
        raise Malformed(f"{where}: universe {str(c.get('universe'))[:20]!r}, relation {str(relation)[:10]!r} or "
                        f"holds {str(holds)[:10]!r} is not one of a misère comparison")
    if _THEOREM[universe] not in str(c.get("theorem", "")):
        v.fail(f"{where}.theorem: {str(c.get('theorem'))[:80]!r} is not the theorem of the universe {universe!r}")
    for name, x in (("g", g), ("h", h)):
        why = gm.member(x, universe)
        if why:
            v.fail(f"{where}.{name}: {_show(x)} is not in the universe {universe!r}: {why}")
    if "distinction" in c:
        _distinction(c["distinction"], t, g, h, universe, relation == "=", f"{where}.distinction", v)
        proved = False
    elif "proof" in c:
        want = [(g, h)] if relation == ">=" else [(g, h), (h, g)]
        _proof(c["proof"], t, want, universe, f"{where}.proof", v)
        proved = True
    else:
        raise Malformed(f"{where} has neither a proof nor a distinction")
    if holds is not proved:
        v.fail(f"{where}.holds: says {holds}, but its {'proof' if proved else 'distinguisher'} proves {proved}")
    text = c.get("text")
    if isinstance(text, str):
        sym = {(">=", True): "≥", (">=", False): "≱", ("=", True): "=", ("=", False): "≠"}[(relation, proved)]
        if f" {sym} " not in text.split(" in misère play", 1)[0] or f"universe {universe!r}" not in text:
            v.fail(f"{where}.text: {text[:80]!r} does not state what was proved ({sym}, universe {universe!r})")
    return g, h, universe, relation, proved


# ---------------------------------------------------------------------------------------------
# the claim as stated
# ---------------------------------------------------------------------------------------------
def _text_field(doc: dict, key: str, label: str, want: gm.Form, by_value: bool, v: Verdict) -> None:
    """``doc[key]`` read with the referee's reader must be the form ``want``; when ``by_value``
    (normal play, input texts) a different form must have the same value, by play."""
    if key not in doc:
        return
    text = doc[key]
    if label in ("g", "h") and isinstance(text, str) and len(text) == 200 and text.endswith("..."):
        v.reasons.append(f"{label}: the document cuts it at 200 characters; the forms are the rows'")
        return
    try:
        try:
            got = gm.read(text)
        except gm.ReadError:
            if not by_value:
                raise
            got = gm.read(text, by_value=True)  # a sum with a number kept whole: by its value
    except gm.ReadError as exc:
        v.fail(f"{label}: the referee cannot read {str(text)[:60]!r} ({exc}), so it does not state the game compared")
        return
    if got is want:
        return
    if by_value and _order(got, want) == (True, True):
        v.reasons.append(f"{label}: {str(text)[:60]!r} read literally is another form of the same normal-play "
                         f"value as the game compared ({_show(want)}), equal by play of the difference")
        return
    v.fail(f"{label}: {str(text)[:80]!r} is read literally as {_show(got)}, but the certificate compares "
           f"{_show(want)}" + (" (not even equal to it in normal play)" if by_value else ""))


def _document(doc: dict) -> Verdict:
    certs = doc["certificates"]
    if not certs:
        raise Malformed("the comparison carries no certificate to check (loopy games and transfinite "
                        "nimbers are compared without one)")
    misere = doc.get("misere")
    if not isinstance(misere, bool):
        raise Malformed("a comparison states misere: true or false")
    rel = doc.get("relation")
    claim = (f"{str(doc.get('g'))[:60]} {rel} {str(doc.get('h'))[:60]} in "
             + (f"misère play, universe {doc.get('universe')!r}" if misere else "normal play"))
    if not misere:
        v = Verdict("partizan normal-play order", claim, True, [], _NORMAL_CHECKER)
        if len(certs) != 1 or certs[0].get("type") != "normal_play_order":
            v.fail("certificates: normal play has one normal_play_order certificate")
            return v
        g, h, found = _normal_certificate(certs[0], "certificates[0]", v)
        if doc.get("universe") is not None:
            v.fail(f"universe: normal play has no universe, the document says {doc.get('universe')!r}")
    else:
        v = Verdict("partizan misère comparison", claim, True, [], _MISERE_CHECKER)
        if len(certs) != 2 or any(c.get("type") != "misere_comparison" for c in certs):
            v.fail("certificates: a misère comparison has two misere_comparison certificates (G ≥ H, H ≥ G)")
            return v
        g, h, u0, r0, ge = _misere_certificate(certs[0], "certificates[0]", v)
        h1, g1, u1, r1, le = _misere_certificate(certs[1], "certificates[1]", v)
        if g1 is not g or h1 is not h or r0 != ">=" or r1 != ">=":
            v.fail("certificates: they must prove or refute G ≥ H and H ≥ G, about the same G and H")
        found = _relation(ge, le)
        if _UNIVERSE.get(str(doc.get("universe"))) != u0 or u1 != u0:
            v.fail(f"universe: the document says {doc.get('universe')!r}, its certificates are for "
                   f"{u0!r} and {u1!r}")
    valid = v.ok  # the certificates themselves, before the document's other fields
    if rel != found:
        v.fail(f"relation: the document says {rel!r}, the certificates prove {found!r}")
    for key in ("equal", "holds"):
        if key in doc and doc[key] is not (found == "="):
            v.fail(f"{key}: the document says {doc[key]!r}, but G {found} H")
    if "meaning" in doc and doc["meaning"] != _MEANING[found]:
        v.fail(f"meaning: the document says {doc['meaning']!r}, not {_MEANING[found]!r}")
    _text_field(doc, "g", "g", g, False, v)
    _text_field(doc, "h", "h", h, False, v)
    if "input" in doc:
        inp = doc["input"]
        if not isinstance(inp, dict):
            v.fail("input: must be {\"g\": text, \"h\": text}")
        else:
            _text_field(inp, "g", "input.g", g, not misere, v)
            _text_field(inp, "h", "input.h", h, not misere, v)
    if "proof_checked" in doc and doc["proof_checked"] is not valid:
        v.fail(f"proof_checked: the document says {doc['proof_checked']!r}, the referee finds the "
               f"certificates {'valid' if valid else 'invalid'}")
    if v.ok:
        v.reasons.append(f"relation {found!r}, equal, holds, meaning, misere, universe, g, h and input "
                         "agree with what was derived")
    return v


def check(doc: dict) -> list[Verdict]:
    """One verdict on the comparison claimed by ``doc`` (module docstring).

    Raises
    ------
    Malformed
        When the document carries no certificate, or one is missing what its check needs."""
    if doc.get("type") == "normal_play_order":
        v = Verdict("partizan normal-play order", "", True, [], _NORMAL_CHECKER)
        g, h, _ = _normal_certificate(doc, "certificate", v)
        v.claim = f"{_show(g)} {doc.get('relation')} {_show(h)} in normal play"
        return [v]
    if doc.get("type") == "misere_comparison":
        rel = {(">=", True): "≥", (">=", False): "≱", ("=", True): "=", ("=", False): "≠"}.get(
            (doc.get("relation"), doc.get("holds")), str(doc.get("relation")))
        v = Verdict("partizan misère comparison", "", True, [], _MISERE_CHECKER)
        g, h, universe, _, _ = _misere_certificate(doc, "certificate", v)
        v.claim = f"{_show(g)} {rel} {_show(h)} in misère play, universe {universe!r}"
        return [v]
    return [_document(doc)]
