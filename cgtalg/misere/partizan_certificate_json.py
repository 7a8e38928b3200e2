"""Partizan misère comparison certificates as JSON, and back.

:func:`comparison_to_json` writes a :class:`~cgtalg.misere.partizan_certificate.MisereComparison`
with its certificate (a :class:`~cgtalg.misere.partizan_certificate.GeProof` DAG, a pair of them
for ``=``, or a :class:`~cgtalg.misere.partizan_certificate.MisereDistinction`) as plain JSON:
every form appears once in a table of literal forms (``[left option indices, right option
indices]``, options before the forms that have them), so the document's size is the number of
distinct forms and proof steps, never the length of a printed tree. :func:`comparison_from_json`
reads it back into the objects :func:`cgtalg.misere.partizan_proof.check_misere_certificate`
re-checks (nothing of the search is involved: the forms are rebuilt from the table, and the
checker plays them).

>>> from cgtalg.core.partizan import integer, pgame
>>> from cgtalg.misere.partizan import misere_ge
>>> from cgtalg.misere.partizan_proof import check_misere_certificate
>>> d = comparison_to_json(misere_ge(integer(-1), pgame()))
>>> d["type"], d["holds"], check_misere_certificate(comparison_from_json(d))
('misere_comparison', False, True)
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from cgtalg.core.partizan import PartizanGame, make_form
from cgtalg.errors import CertificateError, shorten
from cgtalg.misere.partizan_certificate import GeProof, MisereComparison, MisereDistinction

__all__ = ["comparison_to_json", "comparison_from_json", "forms_to_json", "forms_from_json"]


class _Forms:
    """The table of distinct literal forms of a document (options first)."""

    def __init__(self) -> None:
        self.index: dict[int, int] = {}
        self.rows: list[list[list[int]]] = []

    def add(self, g: PartizanGame) -> int:
        i = self.index.get(g.id)
        if i is not None:
            return i
        stack = [(g, False)]
        while stack:
            x, ready = stack.pop()
            if x.id in self.index:
                continue
            parts = x.sum_parts if x._lazy and x._num is None else None
            if ready:
                self.index[x.id] = len(self.rows)
                if x._num is not None and x._lazy:  # a compact number: its value
                    self.rows.append({"number": str(x._num)})
                elif parts is not None:  # a compact literal sum: its parts
                    self.rows.append({"sum": [self.index[p.id] for p in parts]})
                else:
                    self.rows.append([[self.index[o.id] for o in x.left], [self.index[o.id] for o in x.right]])
                continue
            stack.append((x, True))
            if x._lazy:
                stack.extend((p, False) for p in (parts or ()) if p.id not in self.index)
            else:
                stack.extend((o, False) for o in x.left + x.right if o.id not in self.index)
        return self.index[g.id]


def forms_to_json(*games: PartizanGame) -> tuple[list, list[int]]:
    """``(table, indices)``: the literal forms of ``games`` and of all their followers, each
    once, as ``[left indices, right indices]`` rows (options first), and each game's row. A
    compact number (:mod:`cgtalg.core.partizan_atoms`) is the row ``{"number": "m/2^k"}``
    (its literal form is the canonical form of that number, ONAG ch. 0) and a compact
    literal sum the row ``{"sum": [a, b]}`` (the literal sum of two earlier rows)."""
    t = _Forms()
    idx = [t.add(g) for g in games]
    return t.rows, idx


def forms_from_json(rows: Any) -> list[PartizanGame]:
    """The forms of a table written by :func:`forms_to_json`.

    Raises
    ------
    CertificateError
        When a row is malformed or names an option not defined before it.
    """
    if not isinstance(rows, list):
        raise CertificateError(f"the forms of a certificate are a list of rows, not {shorten(rows)}")
    out: list[PartizanGame] = []
    for i, row in enumerate(rows):
        if isinstance(row, dict):
            out.append(_compact_row(i, row, out))
            continue
        try:
            left, right = row
            if not all(isinstance(j, int) and 0 <= j < i for j in list(left) + list(right)):
                raise ValueError
        except (TypeError, ValueError):
            raise CertificateError(f"form row {i} is not [left option rows, right option rows] "
                                   f"naming earlier rows: {shorten(row)}") from None
        out.append(make_form([out[j] for j in left], [out[j] for j in right]))
    return out


def _compact_row(i: int, row: dict, out: list[PartizanGame]) -> PartizanGame:
    """The form of a ``{"number": text}`` or ``{"sum": [a, b]}`` row (see :func:`forms_to_json`)."""
    from fractions import Fraction

    from cgtalg.core.partizan import dyadic, partizan_sum

    try:
        if set(row) == {"number"} and isinstance(row["number"], str) and len(row["number"]) < 10_000:
            return dyadic(Fraction(row["number"]))
        if set(row) == {"sum"}:
            a, b = row["sum"]
            if all(isinstance(j, int) and not isinstance(j, bool) and 0 <= j < i for j in (a, b)):
                return partizan_sum(out[a], out[b])
    except (TypeError, ValueError, ZeroDivisionError, ArithmeticError):
        pass
    raise CertificateError(f"form row {i} is neither [left rows, right rows], {{\"number\": dyadic text}} "
                           f"nor {{\"sum\": [two earlier rows]}}: {shorten(row)}")


def comparison_to_json(c: MisereComparison) -> dict:
    """``c`` with its certificate as a JSON-ready dict (module docstring)."""
    t = _Forms()
    cert = c.certificate
    doc: dict[str, Any] = {"type": "misere_comparison", "g": t.add(c.g), "h": t.add(c.h),
                           "universe": c.universe, "relation": c.relation, "holds": c.holds,
                           "theorem": c.theorem, "text": c.explain()}
    if isinstance(cert, MisereDistinction):
        doc["distinction"] = {
            "g": t.add(cert.g), "h": t.add(cert.h), "t": t.add(cert.t),
            "outcome_g": cert.outcome_g, "outcome_h": cert.outcome_h, "side": cert.side,
            "condition": cert.condition, "option": None if cert.option is None else t.add(cert.option),
        }
    else:
        roots = cert if isinstance(cert, tuple) else (cert,)
        order: dict[int, int] = {}
        nodes: list[GeProof] = []
        for r in roots:
            for n in r.nodes():
                if id(n) not in order:
                    order[id(n)] = len(nodes)
                    nodes.append(n)
        doc["proof"] = {
            "roots": [order[id(r)] for r in roots],
            "nodes": [{
                "g": t.add(n.g), "h": t.add(n.h), "identical": n.identical,
                "left": [[t.add(a), kind, t.add(w), order[id(p)]] for a, kind, w, p in n.left],
                "right": [[t.add(a), kind, t.add(w), order[id(p)]] for a, kind, w, p in n.right],
                "proviso": list(n.proviso),
            } for n in nodes],
        }
    doc["forms"] = t.rows
    return doc


def comparison_from_json(doc: Any) -> SimpleNamespace:
    """The comparison written by :func:`comparison_to_json`, as the object
    :func:`~cgtalg.misere.partizan_proof.check_misere_certificate` reads (``g``, ``h``,
    ``universe``, ``relation``, ``holds``, ``certificate``).

    Raises
    ------
    CertificateError
        For a document that is not such a certificate (missing fields, bad indices).
    """
    if not isinstance(doc, dict) or doc.get("type") != "misere_comparison":
        raise CertificateError("not a partizan misère comparison certificate "
                               "(expected a JSON object with \"type\": \"misere_comparison\")")
    forms = forms_from_json(doc.get("forms"))

    def form(i: Any) -> PartizanGame:
        if not isinstance(i, int) or not 0 <= i < len(forms):
            raise CertificateError(f"form index {shorten(i)} is not a row of the certificate's forms")
        return forms[i]

    try:
        g, h, universe, relation = form(doc["g"]), form(doc["h"]), doc["universe"], doc["relation"]
        holds = doc["holds"]
        if not isinstance(holds, bool):
            raise CertificateError(f"holds must be true or false, not {shorten(holds)}")
        if "distinction" in doc:
            d = doc["distinction"]
            cert: Any = MisereDistinction(
                form(d["g"]), form(d["h"]), universe, form(d["t"]), d["outcome_g"], d["outcome_h"],
                d["side"], d["condition"], None if d.get("option") is None else form(d["option"]))
        else:
            nodes_doc = doc["proof"]["nodes"]
            built: dict[int, GeProof] = {}

            def node(i: Any, depth: int = 0) -> GeProof:
                if not isinstance(i, int) or not 0 <= i < len(nodes_doc):
                    raise CertificateError(f"proof step {shorten(i)} is not a step of the certificate")
                if i in built:
                    return built[i]
                # steps cite steps of smaller games; build bottom-up without recursion
                todo, seen = [i], set()
                while todo:
                    j = todo[-1]
                    if j in built:
                        todo.pop()
                        continue
                    n = nodes_doc[j]
                    subs = [e[3] for e in n["left"] + n["right"]]
                    for s in subs:
                        if not isinstance(s, int) or not 0 <= s < len(nodes_doc):
                            raise CertificateError(f"proof step {shorten(s)} is not a step of the certificate")
                    missing = [s for s in subs if s not in built]
                    if missing:
                        if j in seen:
                            raise CertificateError(f"proof step {j} cites itself through a cycle")
                        seen.add(j)
                        todo.extend(missing)
                        continue
                    todo.pop()
                    built[j] = GeProof(
                        form(n["g"]), form(n["h"]), universe, bool(n["identical"]),
                        tuple((form(a), str(k), form(w), built[p]) for a, k, w, p in n["left"]),
                        tuple((form(a), str(k), form(w), built[p]) for a, k, w, p in n["right"]),
                        tuple(str(x) for x in n["proviso"]))
                return built[i]

            roots = [node(r) for r in doc["proof"]["roots"]]
            cert = roots[0] if len(roots) == 1 else tuple(roots)
    except (KeyError, TypeError, ValueError) as exc:
        raise CertificateError(f"malformed partizan misère certificate: {shorten(exc)}") from None
    return SimpleNamespace(g=g, h=h, universe=universe, relation=relation, holds=holds, certificate=cert)
