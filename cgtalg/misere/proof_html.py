"""Notebook views of misère proofs: the witnesses of an equivalence or comparison as an
expandable tree (nested ``<details>``, :func:`cgtalg.core.display.tree_html`), a Grundy
labelling as a folded table, a distinguishing game as a card.

Used by the ``_repr_html_`` of :class:`cgtalg.EquivalenceResult` (impartial games, Spindler's
Theorem 1) and :class:`cgtalg.MisereComparison` (partizan games, a universe's Maintenance and
Proviso), and through them by :class:`cgtalg.Comparison`.
"""

from __future__ import annotations

from typing import Any

from cgtalg.core.display import Html, card, details, esc, grid_html, tree_html
from cgtalg.core.notation import format_game

__all__ = ["equivalence_html", "misere_comparison_html", "node_html", "node_repr"]

_SHOW = 80  # characters of a form shown in a proof step


def _f(g: Any) -> str:
    return format_game(g, max_chars=_SHOW)


def _p(g: Any) -> str:
    from cgtalg.misere.partizan_outcome import _show

    return _show(g, _SHOW)


def equivalence_html(result: Any) -> str:
    """The card of an :class:`~cgtalg.misere.equivalence_certificate.EquivalenceResult`: the
    claim, the theorem, and the certificate (a tree of witnesses, a Grundy labelling, or the
    distinguishing game)."""
    from cgtalg.misere.equivalence_certificate import (
        NORMAL_THEOREM,
        THEOREM,
        Distinction,
        EquivalenceProof,
        GrundyProof,
    )

    rel = "≡" if result.holds else "≢"
    play = "misère play (impartial universe)" if result.misere else "normal play"
    rows: list[tuple[str, Any]] = [("G", Html(f"<code>{esc(_f(result.g))}</code>")),
                                   ("H", Html(f"<code>{esc(_f(result.h))}</code>")),
                                   ("verdict", f"G {rel} H in {play}")]
    cert = result.certificate
    parts = []
    if isinstance(cert, EquivalenceProof):
        rows.append(("proof", THEOREM))
        if cert.identical:
            rows.append(("witnesses", "G and H are the same form"))
        else:
            parts.append(tree_html(cert, lambda n: f"{_f(n.g)} ≡ {_f(n.h)}", _impartial_children))
    elif isinstance(cert, GrundyProof):
        rows.append(("proof", NORMAL_THEOREM))
        rows.append(("Grundy value", f"both {cert.value}"))
        labels = sorted(cert.labels, key=lambda p: (p[0].birthday, p[0].id))
        parts.append(details(f"Grundy labelling ({len(labels)} positions; each value the mex of its options')",
                             grid_html(["position", "Grundy value"], ([_f(x), v] for x, v in labels))))
    elif isinstance(cert, Distinction):
        rows += _distinction_rows(cert, _f)
    return card("equivalence" if result.holds else "distinction", rows, parts, kind="proof")


def _distinction_rows(cert: Any, f) -> list[tuple[str, Any]]:
    rows: list[tuple[str, Any]] = [
        ("distinguisher T", Html(f"<code>{esc(f(cert.t))}</code>")),
        ("outcomes", f"G + T is {cert.outcome_g}, H + T is {cert.outcome_h}"),
        ("condition failing", cert.condition)]
    if getattr(cert, "side", None):
        rows.append(("side", cert.side))
    if cert.option is not None:
        rows.append(("at the option", Html(f"<code>{esc(f(cert.option))}</code>")))
    parts = getattr(cert, "parts", ())
    if parts:
        items = "".join(f"<li>X = <code>{esc(f(x))}</code>, Y = <code>{esc(f(y))}</code>: "
                        f"X + <code>{esc(f(t))}</code> is P, Y + it is N</li>" for x, y, t in parts[:40])
        rows.append(("link", Html(details(f"the options of T ({len(parts)})", f"<ul>{items}</ul>"))))
    return rows


def _impartial_children(n: Any) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    for w in n.condition_i:
        if w.kind == "G'":
            text = f"(i) H' = {_f(w.option)}: G' = {_f(w.game)} ≡ H'"
        else:
            text = f"(i) H' = {_f(w.option)}: H'' = {_f(w.game)} ≡ G"
        out.append((text + (" (identical)" if w.proof.identical else ""), None if w.proof.identical else w.proof))
    for w in n.condition_ii:
        if w.kind == "H'":
            text = f"(ii) G' = {_f(w.option)}: H' = {_f(w.game)} ≡ G'"
        else:
            text = f"(ii) G' = {_f(w.option)}: G'' = {_f(w.game)} ≡ H"
        out.append((text + (" (identical)" if w.proof.identical else ""), None if w.proof.identical else w.proof))
    if n.winning_move is not None:
        out.append((f"(iii) one side is 0; the other moves to {_f(n.winning_move)}, a P-position", None))
    return out


def _ge_children(n: Any) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    for opt, kind, wit, proof in n.left:
        if kind == "G^L":
            text = f"(i) H^L = {_p(opt)}: G^L = {_p(wit)} ≥ H^L"
        else:
            text = f"(i) H^L = {_p(opt)}: H^LR = {_p(wit)}, G ≥ H^LR"
        out.append((text, None if proof.identical else proof))
    for opt, kind, wit, proof in n.right:
        if kind == "H^R":
            text = f"(ii) G^R = {_p(opt)}: H^R = {_p(wit)}, G^R ≥ H^R"
        else:
            text = f"(ii) G^R = {_p(opt)}: G^RL = {_p(wit)} ≥ H"
        out.append((text, None if proof.identical else proof))
    for fact in n.proviso:
        out.append((f"proviso: {fact}", None))
    return out


def misere_comparison_html(c: Any) -> str:
    """The card of a :class:`~cgtalg.misere.partizan_certificate.MisereComparison`: the claim,
    the universe and theorem, and the proof tree(s) of ``≥`` or the distinguishing game."""
    from cgtalg.misere.partizan_certificate import _REL, MisereDistinction

    rel = _REL[(c.relation, c.holds)]
    rows: list[tuple[str, Any]] = [("G", Html(f"<code>{esc(_p(c.g))}</code>")),
                                   ("H", Html(f"<code>{esc(_p(c.h))}</code>")),
                                   ("verdict", f"G {rel} H in misère play, universe {c.universe!r}"),
                                   ("theorem", c.theorem)]
    cert = c.certificate
    parts = []
    if isinstance(cert, MisereDistinction):
        rows += _distinction_rows(cert, _p)
    else:
        for proof in (cert if isinstance(cert, tuple) else (cert,)):
            if proof.identical:
                parts.append(f"<div>{esc(_p(proof.g))} ≥ {esc(_p(proof.h))}: the same form</div>")
            else:
                parts.append(tree_html(proof, lambda n: f"{_p(n.g)} ≥ {_p(n.h)}", _ge_children))
    return card("misère comparison", rows, parts, kind="proof")


def node_repr(node: Any) -> str:
    """One line for a certificate node (a proof step, a labelling or a distinction)."""
    from cgtalg.misere.equivalence_certificate import Distinction, EquivalenceProof, GrundyProof, Witness
    from cgtalg.misere.partizan_certificate import GeProof, MisereDistinction

    name = type(node).__name__
    if isinstance(node, EquivalenceProof):
        return f"{name}({_f(node.g)[:70]} ≡ {_f(node.h)[:70]}, {len(node.nodes())} steps)"
    if isinstance(node, GeProof):
        return f"{name}({_p(node.g)[:70]} ≥ {_p(node.h)[:70]}, {len(node.nodes())} steps)"
    if isinstance(node, GrundyProof):
        return f"{name}(value={node.value}, {len(node.labels)} labels)"
    if isinstance(node, Witness):
        return f"{name}({node.kind}, option={_f(node.option)[:60]}, game={_f(node.game)[:60]})"
    if isinstance(node, (Distinction, MisereDistinction)):
        f = _f if isinstance(node, Distinction) else _p
        return f"{name}(T={f(node.t)[:80]}, outcomes {node.outcome_g}/{node.outcome_h}, condition {node.condition!r})"
    return f"{name}()"  # pragma: no cover - every certificate node kind is above


def node_html(node: Any) -> str:
    """The notebook view of a certificate node: a proof step as the tree below it, a labelling
    as a table, a distinction as a card."""
    from cgtalg.misere.equivalence_certificate import Distinction, EquivalenceProof, GrundyProof, Witness
    from cgtalg.misere.partizan_certificate import GeProof, MisereDistinction

    if isinstance(node, EquivalenceProof):
        if node.identical:
            return f"<div>{esc(_f(node.g))} ≡ {esc(_f(node.h))}: the same form</div>"
        return tree_html(node, lambda n: f"{_f(n.g)} ≡ {_f(n.h)}", _impartial_children)
    if isinstance(node, GeProof):
        if node.identical:
            return f"<div>{esc(_p(node.g))} ≥ {esc(_p(node.h))}: the same form</div>"
        return tree_html(node, lambda n: f"{_p(n.g)} ≥ {_p(n.h)}", _ge_children)
    if isinstance(node, GrundyProof):
        labels = sorted(node.labels, key=lambda p: (p[0].birthday, p[0].id))
        return card(f"Grundy labelling: both forms have value {node.value}", [],
                    [grid_html(["position", "Grundy value"], ([_f(x), v] for x, v in labels))], kind="proof")
    if isinstance(node, Witness):
        return (f"<div>{esc(node.kind)}: option <code>{esc(_f(node.option))}</code>, witness "
                f"<code>{esc(_f(node.game))}</code></div>" + node_html(node.proof))
    if isinstance(node, (Distinction, MisereDistinction)):
        return card("distinction", _distinction_rows(node, _f if isinstance(node, Distinction) else _p), kind="proof")
    return f"<div>{esc(node)}</div>"  # pragma: no cover
