"""Impartial equivalence certificates: the ``--json`` output of ``cgtalg equiv G H`` on impartial
games (normal and misère play), ``cgtalg.compare(G, H).to_json()`` of impartial games, and the
inner certificate object (``{"g", "h", "misere", "holds", "theorem", "certificate"}``).

What is checked, from the definitions, with the referee's own forms and play
(:mod:`cgtalg.referee.games`):

* **a distinguisher** ``T`` (the claim ``G ≢ H``): ``T`` is impartial, and ``o(G + T) ≠ o(H + T)``
  by play in the stated play convention; the outcomes the certificate claims are the ones found.
  That is the definition of inequivalence (Siegel, CGT V.1: ``G ≡ H`` iff ``o(G + X) = o(H + X)``
  for every ``X`` of the universe). The explanatory ``parts`` (the options ``T_X`` of the link
  ``T``, Siegel CGT V.3.5) are checked by play too: ``X + T_X`` is P, ``Y + T_X`` is N, and
  ``T_X`` is an option of ``T``; the failing ``condition`` and its ``option`` must fit ``G``, ``H``.
* **misère equivalence** by Spindler's Theorem 1 (= Siegel, CGT V.3.5-3.6): ``G ≡ H`` in the
  impartial misère universe iff (i) every ``H'`` has an ``H'' ≡ G`` or a ``G' ≡ H'``, (ii) every
  ``G'`` has a ``G'' ≡ H`` or an ``H' ≡ G'``, and (iii) if one of ``G``, ``H`` is ``0`` the other
  is a misère N-position. Every step reachable from the root has identical forms, or a witness
  per option that really is an option of the kind cited, citing a step that proves exactly that
  pair and has a smaller birthday sum (so the induction is well founded); (iii) is decided by
  play, and a stated ``winning_move`` must be a move to a misère P-position.
* **normal-play equivalence** by the Sprague-Grundy theorem (Siegel, CGT IV.1): every
  subposition of ``G`` and ``H`` is labelled with the mex of its options' labels, ``G`` and ``H``
  have the same label (the stated value), and ``G + H`` is a P-position by play.

Then **the claim as stated**: ``holds``, ``misere``, ``theorem``, the document's ``g``/``h``
(the same forms), ``input.g``/``input.h`` (read literally by the referee's reader: they must be
the very forms the certificate is about), ``relation``, ``equal``, ``meaning``, ``universe``,
``proof_checked``/``problems`` and the first line of ``explanation`` must all agree with what
was derived; a disagreement fails the verdict naming the field.
"""

from __future__ import annotations

from typing import Any

from cgtalg.referee import games as gm
from cgtalg.referee._verdict import Malformed, Verdict, unvisited

__all__ = ["recognise", "check"]

_TYPES = ("misere-equivalence", "normal-grundy", "distinguisher")
_CHECKER = {
    "misere-equivalence": "cgtalg.referee.equivalence.check (Spindler 2016 Theorem 1 = Siegel CGT "
                          "V.3.5-3.6 steps; condition (iii) by play)",
    "normal-grundy": "cgtalg.referee.equivalence.check (Grundy labels by mex and G + H a P-position "
                     "by play; Sprague-Grundy, Siegel CGT IV.1)",
    "distinguisher": "cgtalg.referee.equivalence.check (distinguisher T: o(G+T) ≠ o(H+T) by play of "
                     "literal sums)",
}
_KIND = {"misere-equivalence": "impartial equivalence proof",
         "normal-grundy": "impartial equivalence proof (normal play)",
         "distinguisher": "distinguishing game (impartial inequivalence)"}
_MAX_FAILS = 25


def _is_certificate(c: Any) -> bool:
    return (isinstance(c, dict) and "theorem" in c and isinstance(c.get("certificate"), dict)
            and c["certificate"].get("type") in _TYPES)


def recognise(doc: dict) -> bool:
    """An impartial equivalence certificate, the ``cgtalg equiv`` document holding one, or a
    comparison whose certificates are all such."""
    if _is_certificate(doc) or _is_certificate(doc.get("certificate")):
        return True
    certs = doc.get("certificates")
    return isinstance(certs, list) and bool(certs) and all(_is_certificate(c) for c in certs)


# ---------------------------------------------------------------------------------------------
# reading
# ---------------------------------------------------------------------------------------------
def _field(d: Any, key: str, where: str) -> Any:
    if not isinstance(d, dict) or key not in d:
        raise Malformed(f"{where} has no field {key!r}")
    return d[key]


def _form(d: Any, key: str, where: str) -> gm.Form:
    value = _field(d, key, where)
    try:
        return gm.read_value(value)
    except gm.ReadError as exc:
        raise Malformed(f"{where}.{key}: {exc}") from None


def _flag(d: Any, key: str, where: str) -> bool:
    value = _field(d, key, where)
    if not isinstance(value, bool):
        raise Malformed(f"{where}.{key} must be true or false, not {str(value)[:40]}")
    return value


def _index(value: Any, n: int, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < n:
        raise Malformed(f"{where} is not a step index: {str(value)[:40]}")
    return value


def _show(g: gm.Form) -> str:
    return gm.show(g, 80)


# ---------------------------------------------------------------------------------------------
# the three certificates
# ---------------------------------------------------------------------------------------------
def _distinguisher(c: dict, g: gm.Form, h: gm.Form, misere: bool, where: str, v: Verdict) -> bool:
    """``T`` distinguishes: the definition of inequivalence. Returns False (what it proves)."""
    t = _form(c, "T", where)
    if not gm.is_impartial(t):
        v.fail(f"{where}.T: {_show(t)} is not impartial, so not in the impartial universe")
    og, oh = gm.outcome([g, t], misere), gm.outcome([h, t], misere)
    if og == oh:
        v.fail(f"{where}.T: does not distinguish: G + T and H + T are both {og}-positions by play")
    for key, found in (("outcome_g_plus_T", og), ("outcome_h_plus_T", oh)):
        if c.get(key) != found:
            v.fail(f"{where}.{key}: claimed {c.get(key)!r} but play gives {found}")
    cond = c.get("condition")
    option = None if c.get("option") is None else _form(c, "option", where)
    if cond == "i" and (option is None or not gm.is_option(option, h)):
        v.fail(f"{where}.option: condition (i) fails at an option of H, and {option and _show(option)} is none")
    elif cond == "ii" and (option is None or not gm.is_option(option, g)):
        v.fail(f"{where}.option: condition (ii) fails at an option of G, and {option and _show(option)} is none")
    elif cond == "iii" and (gm.ZERO not in (g, h) or t is not gm.ZERO):
        v.fail(f"{where}.condition: (iii) needs G or H to be 0 and T = 0")
    elif cond == "grundy" and misere:
        v.fail(f"{where}.condition: 'grundy' is a normal-play reason, but misere is true")
    elif cond not in ("i", "ii", "iii", "grundy", "nim"):
        v.fail(f"{where}.condition: unknown condition {str(cond)[:40]!r}")
    if cond not in ("i", "ii") and option is not None:
        v.fail(f"{where}.option: condition {str(cond)[:20]!r} names no option, but {_show(option)} is given")
    parts = c.get("parts") or []
    if not isinstance(parts, list):
        raise Malformed(f"{where}.parts must be a list")
    for k, part in enumerate(parts):
        if not (isinstance(part, list) and len(part) == 3):
            raise Malformed(f"{where}.parts[{k}] must be [X, Y, T_X]")
        x, y, tx = (_form({"f": p}, "f", f"{where}.parts[{k}]") for p in part)
        if not gm.is_option(tx, t):
            v.fail(f"{where}.parts[{k}]: T_X = {_show(tx)} is not an option of T")
        if y not in (g, h, option):
            v.fail(f"{where}.parts[{k}]: Y = {_show(y)} is neither G, H nor the option linked")
        if gm.outcome([x, tx], misere) != "P" or gm.outcome([y, tx], misere) != "N":
            v.fail(f"{where}.parts[{k}]: X + T_X is not P or Y + T_X is not N by play")
    v.reasons.append(f"play of literal sums ({'misère' if misere else 'normal'}): o(G + T) = {og}, "
                     f"o(H + T) = {oh}, T = {_show(t)}; {len(parts)} link parts re-played")
    return False


def _grundy(c: dict, g: gm.Form, h: gm.Form, where: str, v: Verdict) -> bool:
    """Grundy labels by mex, checked position by position; ``G + H`` P by normal play."""
    raw = _field(c, "labels", where)
    if not isinstance(raw, list):
        raise Malformed(f"{where}.labels must be a list")
    labels: dict[int, int] = {}
    for k, item in enumerate(raw):
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[1], int)
                and not isinstance(item[1], bool)):
            raise Malformed(f"{where}.labels[{k}] must be [form, value]")
        x = _form({"f": item[0]}, "f", f"{where}.labels[{k}]")
        if labels.setdefault(x.id, item[1]) != item[1]:
            v.fail(f"{where}.labels: {_show(x)} has two labels {labels[x.id]} and {item[1]}")
    fails = 0
    subs = gm.subpositions(g, h)
    for x in subs:
        if fails > _MAX_FAILS:
            break
        if x.id not in labels:
            v.fail(f"{where}.labels: the subposition {_show(x)} has no label")
            fails += 1
            continue
        seen = {labels.get(o.id) for o in x.left}
        mex = next(k for k in range(len(seen) + 1) if k not in seen)
        if labels[x.id] != mex:
            v.fail(f"{where}.labels: {_show(x)} is labelled {labels[x.id]}, but the mex of its "
                   f"options' labels is {mex}")
            fails += 1
    value = c.get("value")
    if not labels.get(g.id) == labels.get(h.id) == value:
        v.fail(f"{where}.value: G is labelled {labels.get(g.id)}, H {labels.get(h.id)}, the value "
               f"stated is {value}")
    if gm.outcome([g, h], False) != "P":
        v.fail(f"{where}: G + H is not a normal-play P-position by play")
    v.reasons.append(f"Grundy labels of {len(subs)} subpositions are mexes; G + H is a P-position "
                     "by play (normal)")
    return True


def _theorem1(c: dict, g: gm.Form, h: gm.Form, where: str, v: Verdict) -> bool:
    """Spindler's Theorem 1, step by step from the root (module docstring)."""
    raw = _field(c, "nodes", where)
    if not isinstance(raw, list) or not raw:
        raise Malformed(f"{where}.nodes must be a non-empty list")
    nodes = []
    for k, n in enumerate(raw):
        w = f"{where}.nodes[{k}]"
        steps = []
        for cond in ("i", "ii"):
            items = _field(n, cond, w)
            if not isinstance(items, list):
                raise Malformed(f"{w}.{cond} must be a list")
            steps.append([(_form(e, "option", f"{w}.{cond}[{j}]"), _field(e, "kind", f"{w}.{cond}[{j}]"),
                           _form(e, "game", f"{w}.{cond}[{j}]"),
                           _index(_field(e, "proof", f"{w}.{cond}[{j}]"), len(raw), f"{w}.{cond}[{j}].proof"))
                          for j, e in enumerate(items)])
        mv = None if n.get("winning_move") is None else _form(n, "winning_move", w)
        nodes.append((_form(n, "g", w), _form(n, "h", w), _flag(n, "identical", w), steps[0], steps[1], mv))
    root = _index(c.get("root", 0), len(nodes), f"{where}.root")
    if {nodes[root][0].id, nodes[root][1].id} != {g.id, h.id} or (g is h) != (nodes[root][0] is nodes[root][1]):
        v.fail(f"{where}.root: the root step proves {_show(nodes[root][0])} ≡ {_show(nodes[root][1])}, "
               "not G ≡ H")
    seen: set[int] = set()
    stack = [root]
    fails = 0
    for k in unvisited(stack, seen, lambda: fails > _MAX_FAILS):
        a, b, identical, cond_i, cond_ii, mv = nodes[k]
        here = f"{where}.nodes[{k}] ({_show(a)} ≡ {_show(b)})"
        bad: list[str] = []
        if identical:
            if a is not b or cond_i or cond_ii or mv is not None:
                bad.append("claims identical forms, but they differ or it lists witnesses")
        else:
            size = a.birthday + b.birthday
            # (i): each option B' of B; kind H'' = an option of B' ≡ A, kind G' = an option of A ≡ B'
            # (ii): each option A' of A; kind G'' = an option of A' ≡ B, kind H' = an option of B ≡ A'
            for name, whole, other, kinds, items in (("i", b, a, ("H''", "G'"), cond_i),
                                                     ("ii", a, b, ("G''", "H'"), cond_ii)):
                covered = set()
                for opt, kind, wit, ref in items:
                    if not gm.is_option(opt, whole):
                        bad.append(f"({name}): {_show(opt)} is not an option of {_show(whole)}")
                        continue
                    if kind == kinds[0] and gm.is_option(wit, opt):
                        pair = (wit, other)
                    elif kind == kinds[1] and gm.is_option(wit, other):
                        pair = (wit, opt)
                    else:
                        bad.append(f"({name}): the witness {_show(wit)} of kind {kind!r} is not such an option")
                        continue
                    ca, cb = nodes[ref][0], nodes[ref][1]
                    if not ((ca is pair[0] and cb is pair[1]) or (ca is pair[1] and cb is pair[0])):
                        bad.append(f"({name}): for {_show(opt)} the cited step {ref} proves {_show(ca)} ≡ "
                                   f"{_show(cb)}, not {_show(pair[0])} ≡ {_show(pair[1])}")
                        continue
                    if ca.birthday + cb.birthday >= size:
                        bad.append(f"({name}): the cited step {ref} is not smaller")
                        continue
                    covered.add(opt.id)
                    stack.append(ref)
                missing = [o for o in whole.left if o.id not in covered]
                if missing:
                    bad.append(f"({name}): no valid witness for the option {_show(missing[0])} of {_show(whole)}")
            for z, o in ((a, b), (b, a)):  # (iii), by misère play
                if z is gm.ZERO and gm.outcome([o], True) != "N":
                    bad.append(f"(iii): {_show(z)} = 0 but {_show(o)} is not a misère N-position")
            if mv is not None and gm.ZERO not in (a, b):
                bad.append("winning_move: given, but neither side is 0")
            elif mv is not None:
                side = b if a is gm.ZERO else a
                if not gm.is_option(mv, side) or gm.outcome([mv], True) != "P":
                    bad.append(f"(iii): winning_move {_show(mv)} is not a move of {_show(side)} to a "
                               "misère P-position")
        for why in bad:
            v.fail(f"{here}: {why}")
            fails += 1
    trivial = sum(1 for k in seen if nodes[k][2])
    v.reasons.append(f"Theorem 1 steps checked: {len(seen) - trivial}, identical steps: {trivial} "
                     "(condition (iii) by misère play)")
    return True


# ---------------------------------------------------------------------------------------------
# the claim as stated
# ---------------------------------------------------------------------------------------------
def _same_form(doc: dict, key: str, want: gm.Form, label: str, v: Verdict, by_value: bool = False) -> None:
    """``doc[key]`` (game text, or a DAG) must be the form ``want`` (``label`` names it); with
    ``by_value`` (an input text in normal play, where the claim is about values) a different form
    must have the same normal-play value, by play of the literal difference."""
    if key not in doc:
        return
    text = doc[key]
    if label in ("g", "h") and isinstance(text, str) and len(text) == 200 and text.endswith("..."):
        v.reasons.append(f"{label}: the document cuts it at 200 characters; the form is the certificate's")
        return
    try:
        got = gm.read_value(doc[key])
    except gm.ReadError as exc:
        v.fail(f"{label}: the referee cannot read it ({exc}), so it does not state the game proved")
        return
    if got is want:
        return
    if by_value and gm.ge(got, want) and gm.ge(want, got):
        v.reasons.append(f"{label}: {str(doc[key])[:60]!r} read literally is another form of the same "
                         f"normal-play value as {_show(want)} (equal by play of the difference)")
        return
    v.fail(f"{label}: {str(doc[key])[:80]!r} is read literally as {_show(got)}, but the certificate "
           f"is about {_show(want)}" + (" (not even equal to it in normal play)" if by_value else ""))


def _claim_fields(outer: dict, g: gm.Form, h: gm.Form, misere: bool, found: bool, v: Verdict) -> None:
    """Every quoted field of the ``cgtalg equiv`` / ``compare`` document against the derivation."""
    _same_form(outer, "g", g, "g", v)
    _same_form(outer, "h", h, "h", v)
    if "input" in outer:
        inp = outer["input"]
        if not isinstance(inp, dict):
            v.fail("input: must be {\"g\": text, \"h\": text}")
        else:
            _same_form(inp, "g", g, "input.g", v, not misere)
            _same_form(inp, "h", h, "input.h", v, not misere)
    if "misere" in outer and outer["misere"] is not misere:
        v.fail(f"misere: the document says {outer['misere']!r}, its certificate is for "
               f"{'misère' if misere else 'normal'} play")
    for key in ("holds", "equal"):
        if key in outer and outer[key] is not found:
            v.fail(f"{key}: the document says {outer[key]!r}, the certificate proves {found}")
    want = "=" if found else "||"
    if "relation" in outer and outer["relation"] != want:
        v.fail(f"relation: the document says {outer['relation']!r}, the certificate proves {want!r}")
    meaning = "equal" if found else "confused with (incomparable)"
    if "meaning" in outer and outer["meaning"] != meaning:
        v.fail(f"meaning: the document says {outer['meaning']!r}, not {meaning!r}")
    universe = "impartial" if misere else None
    if "universe" in outer and outer["universe"] != universe:
        v.fail(f"universe: the document says {outer['universe']!r}, the certificate is for {universe!r}")
    text = outer.get("explanation")
    if isinstance(text, str):
        head = text.split("\n", 1)[0]
        if ("≢" in head) == found or ("misère" in head) != misere:
            v.fail(f"explanation: its first line {head[:80]!r} does not state what was proved")


def check(doc: dict) -> list[Verdict]:
    """One verdict on the impartial equivalence claim of ``doc`` (module docstring).

    Raises
    ------
    Malformed
        When a field the check needs is missing or unreadable inside the certificate."""
    if _is_certificate(doc):  # the certificate alone: its fields are named from it
        outer, cert, pre = None, doc, ""
    elif _is_certificate(doc.get("certificate")):  # cgtalg equiv --json
        outer, cert, pre = doc, doc["certificate"], "certificate."
    else:  # cgtalg.compare(...).to_json()
        certs = doc["certificates"]
        if len(certs) != 1:
            raise Malformed(f"an impartial comparison has one certificate, this one has {len(certs)}")
        outer, cert, pre = doc, certs[0], "certificates[0]."
    inner = cert["certificate"]
    kind = inner["type"]
    top = pre.rstrip(".") or "certificate"
    g, h = _form(cert, "g", top), _form(cert, "h", top)
    misere, holds = _flag(cert, "misere", top), _flag(cert, "holds", top)
    claimed = outer.get("holds", outer.get("equal", holds)) if outer else holds
    names = (outer or cert).get("g"), (outer or cert).get("h")
    if outer and isinstance(outer.get("input"), dict):
        names = outer["input"].get("g", names[0]), outer["input"].get("h", names[1])
    claim = (f"{str(names[0])[:60]} {'≡' if claimed else '≢'} {str(names[1])[:60]} in "
             f"{'misère play (impartial universe)' if misere else 'normal play'}")
    v = Verdict(_KIND[kind], claim, True, [], _CHECKER[kind])
    for name, x in (("g", g), ("h", h)):
        if not gm.is_impartial(x):
            v.fail(f"{pre}{name}: {_show(x)} is not impartial")
    if kind == "distinguisher":
        found = _distinguisher(inner, g, h, misere, pre + "certificate", v)
    elif kind == "normal-grundy":
        found = _grundy(inner, g, h, pre + "certificate", v)
        if misere:
            v.fail(f"{pre}misere: a Grundy labelling proves normal-play equivalence, not misère")
    else:
        found = _theorem1(inner, g, h, pre + "certificate", v)
        if not misere:
            v.fail(f"{pre}misere: Theorem 1 proves misère equivalence, but misere is false")
    if holds is not found:
        v.fail(f"{pre}holds: says {holds}, but a {kind} certificate proves {found}")
    theorem = str(cert.get("theorem"))
    if ("Spindler" in theorem) != misere or ("Sprague-Grundy" in theorem) == misere:
        v.fail(f"{pre}theorem: {theorem[:80]!r} is not the theorem of "
               f"{'misère' if misere else 'normal'} play equivalence")
    if outer is not None:
        valid = v.ok  # the certificate itself, before the document's other fields
        _claim_fields(outer, g, h, misere, found, v)
        if "proof_checked" in outer and outer["proof_checked"] is not valid:
            v.fail(f"proof_checked: the document says {outer['proof_checked']!r}, the referee finds "
                   f"the certificate {'valid' if valid else 'invalid'}")
        if outer.get("proof_checked") is True and outer.get("problems"):
            v.fail("problems: a checked proof lists problems")
    if v.ok:
        v.reasons.append("holds, misere, theorem, g, h" + (", input, relation and the other quoted "
                         "fields" if outer else "") + " agree with what was derived")
    return [v]
