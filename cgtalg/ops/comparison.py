"""Comparison: :func:`compare` of two games of any kind, in normal or misère play, with the
certificates that exist.

- Impartial games compare as ``'='`` or ``'||'`` (an impartial ``G - H`` is 0 or fuzzy; in
  misère play in the impartial universe, outcomes P and N are incomparable). The certificate is
  the linked-test proof of equivalence (Spindler's Theorem 1 witnesses; a Grundy labelling in
  normal play) or a distinguishing game, re-checked by :func:`cgtalg.check_proof`.
- Partizan games in normal play: ``'='``, ``'<'``, ``'>'`` or ``'||'`` by the recursive
  definition of ``≤`` (no certificate).
- Misère play in the dicot, dead-ending or general universe: ``g ≥ h`` and ``h ≥ g`` decided by
  the Maintenance-and-Proviso recursion, each with its certificate (a proof or a distinguishing
  game of the universe), re-checked by :func:`cgtalg.misere.check_misere_certificate`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cgtalg.errors import GameKindError, UniverseError, shorten
from cgtalg.ops.kinds import (
    Position,
    as_impartial,
    as_loopy_game,
    as_partizan_game,
    check_universe,
    finite_nimber_value,
    is_impartial_kind,
    kind_of,
    read,
    refuse,
    refuse_loopy,
)

__all__ = ["Comparison", "compare", "RELATIONS"]

#: the relations, with their meaning
RELATIONS = {"=": "equal", "<": "less than", ">": "greater than", "||": "confused with (incomparable)"}
_SYMBOL = {"=": "=", "<": "<", ">": ">", "||": "‖"}


@dataclass(frozen=True, eq=False)
class Comparison:
    """The answer to "how do ``g`` and ``h`` compare?" with its certificates.

    Attributes
    ----------
    g, h
        The games as given (game text read into forms).
    misere : bool
        Misère play, or normal play.
    universe : str or None
        The misère universe (``"impartial"``, ``"dicot"``, ``"dead-ending"``, ``"all"``); None in
        normal play.
    relation : str
        ``'='``, ``'<'``, ``'>'`` or ``'||'`` (confused).
    certificates : tuple
        What proves the relation: an :class:`cgtalg.EquivalenceResult` (impartial games), or the
        pair of :class:`cgtalg.MisereComparison` results (``g ≥ h``, ``h ≥ g``) for a misère
        universe of partizan games; empty where no certificate is made (partizan normal play,
        transfinite nimbers).

    ``bool(c)`` is :attr:`equal`.
    """

    g: Any
    h: Any
    misere: bool
    universe: str | None
    relation: str
    certificates: tuple = field(default=(), repr=False)

    @property
    def equal(self) -> bool:
        return self.relation == "="

    holds = equal  # the name equivalence results use

    @property
    def le(self) -> bool:
        """``g ≤ h``."""
        return self.relation in ("=", "<")

    @property
    def ge(self) -> bool:
        """``g ≥ h``."""
        return self.relation in ("=", ">")

    @property
    def confused(self) -> bool:
        """Neither ``g ≤ h`` nor ``g ≥ h``."""
        return self.relation == "||"

    def __bool__(self) -> bool:
        return self.equal

    @property
    def play(self) -> str:
        if not self.misere:
            return "normal play"
        where = "the universe of all games" if self.universe == "all" else f"the {self.universe} universe"
        return f"misère play, {where}"

    @property
    def distinguisher(self) -> Any:
        """A game ``T`` telling ``g`` and ``h`` apart (the outcomes of ``g+T`` and ``h+T``
        differ as the relation says), when the certificates give one; else None."""
        return next((c.distinguisher for c in self.certificates if not c.holds), None)

    def check(self) -> bool:
        """Re-verify every certificate independently of the search that made it (by direct
        play); True when there is none to check."""
        from cgtalg.misere.equivalence import EquivalenceResult
        from cgtalg.misere.partizan_proof import check_misere_certificate
        from cgtalg.misere.proof import check_proof

        for c in self.certificates:
            ok = check_proof(c) if isinstance(c, EquivalenceResult) else check_misere_certificate(c)
            if not ok:
                return False
        return True

    def explain(self) -> str:
        """A readable statement of the relation and its proof."""
        head = f"{_text(self.g)} {_SYMBOL[self.relation]} {_text(self.h)} in {self.play}."
        parts = [head] + [c.explain() for c in self.certificates]
        if not self.certificates:
            parts.append(_NO_PROOF if self.misere else _NORMAL_ORDER)
        return "\n".join(parts)

    __str__ = explain

    def __repr__(self) -> str:
        from cgtalg.core.display import short

        return f"Comparison({short(_text(self.g), 60)} {self.relation} {short(_text(self.h), 60)}, {self.play})"

    def _repr_html_(self) -> str:
        """Notebook view: the relation, the play, and each certificate's card (their witnesses
        as expandable trees)."""
        from cgtalg.core.display import card, short

        parts = [c._repr_html_() for c in self.certificates]
        rows = [("G", short(_text(self.g), 120)), ("H", short(_text(self.h), 120)),
                ("relation", f"G {_SYMBOL[self.relation]} H"), ("play", self.play)]
        if not self.certificates:
            rows.append(("proof", _NO_PROOF if self.misere else _NORMAL_ORDER))
        return card("comparison", rows, parts, kind="comparison")

    def to_json(self) -> dict:
        """A JSON-serialisable dict: the games, the play, the relation and each certificate
        (``to_json()`` of the impartial proofs, which :func:`cgtalg.check_proof` reads back)."""
        from cgtalg.misere.partizan_certificate import MisereComparison
        from cgtalg.misere.partizan_certificate_json import comparison_to_json, forms_to_json

        certs = []
        for c in self.certificates:
            if hasattr(c, "to_json"):
                certs.append(c.to_json())
            elif isinstance(c, MisereComparison):
                certs.append(comparison_to_json(c))
            else:  # pragma: no cover - every certificate kind above has a JSON form
                certs.append({"type": type(c).__name__, "holds": bool(c), "text": c.explain()})
        if not self.misere and not self.certificates and not any(
                kind_of(x, "compare") in ("nimber", "loopy") for x in (self.g, self.h)):
            # normal-play order of partizan games: the claim with the literal forms, which
            # `cgtalg check` re-decides by play of G − H (no search of this library involved)
            rows, (gi, hi) = forms_to_json(as_partizan_game(self.g, "compare"),
                                           as_partizan_game(self.h, "compare"))
            certs.append({"type": "normal_play_order", "relation": self.relation, "g": gi, "h": hi,
                          "forms": rows})
        return {
            "g": _text(self.g), "h": _text(self.h), "misere": self.misere,
            "universe": self.universe, "relation": self.relation,
            "meaning": RELATIONS[self.relation], "equal": self.equal,
            "certificates": certs,
        }


_NO_PROOF = "(decided by the recursive definition; no certificate is made)"
_NORMAL_ORDER = ("(normal play: to_json() / --json carries the literal forms, and cgtalg check has the "
                 "order re-decided by play of G − H, Siegel CGT II.1)")


def _text(x: Any) -> str:
    s = str(x)
    return s if len(s) <= 200 else s[:197] + "..."


def _relation(ge: bool, le: bool) -> str:
    return "=" if ge and le else ">" if ge else "<" if le else "||"


def compare(g: Any, h: Any, *, misere: bool = False, universe: str | None = None) -> Comparison:
    """Compare two games of any kind: ``'='``, ``'<'``, ``'>'`` or ``'||'``, with certificates.

    Normal play compares values (impartial games are equal exactly when their Grundy values
    are). Misère play compares modulo a ``universe``: ``"impartial"`` (the default when both
    games are impartial: Siegel CGT V.3.5-3.6, Spindler's Theorem 1), ``"dicot"``,
    ``"dead-ending"`` or ``"all"`` (the default otherwise); both games must belong to it.

    Examples
    --------
    >>> import cgtalg as cg
    >>> c = cg.compare("{*2}", "*2+*2", misere=True)
    >>> c.relation, str(c.distinguisher) != "None", c.check()
    ('||', True, True)
    >>> cg.compare("*2+*", "*3", misere=True).relation
    '='
    >>> cg.compare("{1|-1}", 0).relation, cg.compare("{0|}", 0).relation
    ('||', '>')
    >>> cg.compare("*+*", 0, misere=True, universe="dicot").relation
    '='
    """
    if not isinstance(misere, bool):
        raise GameKindError(f"compare: misere must be True or False, not {shorten(misere)}")
    # misère play needs the literal games the texts describe (``1 + -1`` is not 0 there)
    a, b = read(g, normal_play=not misere), read(h, normal_play=not misere)
    ka, kb = kind_of(a, "compare"), kind_of(b, "compare")
    if "loopy" in (ka, kb):  # loopy games: stoppers by survival, others by their sides
        if misere:
            raise refuse_loopy("compare", a if ka == "loopy" else b, "misère play of loopy "
                               "games is not defined here (loopy games are played in normal play)")
        if universe is not None:
            raise UniverseError("compare: a universe applies to misère play only; pass misere=True")
        from cgtalg.normal.loopy import loopy_relation

        la, lb = as_loopy_game(a, "compare"), as_loopy_game(b, "compare")
        return Comparison(a, b, False, None, loopy_relation(la, lb))
    if not misere:
        if universe is not None:
            raise UniverseError("compare: a universe applies to misère play only; pass misere=True")
        if is_impartial_kind(a) and is_impartial_kind(b):
            if any(k == "nimber" and finite_nimber_value(x) is None for x, k in ((a, ka), (b, kb))):
                # transfinite nim-heaps: equal exactly when their values are
                from cgtalg.ops.values import grundy

                return Comparison(a, b, False, None, "=" if grundy(a) == grundy(b) else "||")
            return _impartial(a, b, False, "compare")
        from cgtalg.normal.partizan import le

        pa, pb = as_partizan_game(a, "compare"), as_partizan_game(b, "compare")
        return Comparison(a, b, False, None, _relation(le(pb, pa), le(pa, pb)))
    u = check_universe(universe, (a, b), "compare")
    if u == "impartial":
        for x in (a, b):
            if not is_impartial_kind(x):
                raise refuse("compare", x, "the impartial universe holds impartial games only",
                             ("cgtalg.compare(g, h, misere=True, universe='dicot')",
                              "cgtalg.compare(g, h, misere=True, universe='dead-ending')",
                              "cgtalg.compare(g, h, misere=True, universe='all')"))
        return _impartial(a, b, True, "compare")
    for x, k in ((a, ka), (b, kb)):
        if k == "misere class":
            raise refuse("compare", x, f"a misère canonical form stands for a class of the "
                         f"impartial universe, which the {u} universe splits; compare the games "
                         "themselves", ("cgtalg.compare(g, h, misere=True, universe='impartial')",))
    from cgtalg.misere.partizan import misere_ge

    pa, pb = _misere_partizan(a, "compare"), _misere_partizan(b, "compare")
    ge, le_ = misere_ge(pa, pb, u), misere_ge(pb, pa, u)
    return Comparison(a, b, True, u, _relation(ge.holds, le_.holds), (ge, le_))


def _impartial(a: Any, b: Any, misere: bool, operation: str) -> Comparison:
    from cgtalg.misere.equivalence import equivalent

    r = equivalent(as_impartial(a, operation), as_impartial(b, operation), misere=misere)
    return Comparison(a, b, misere, "impartial" if misere else None, "=" if r.holds else "||", (r,))


def _misere_partizan(x: Any, operation: str) -> Any:
    """A game as the literal partizan form misère play needs (never a normal-play canonical
    form: simplifying in normal play changes misère outcomes)."""
    from cgtalg.core.partizan import PartizanGame, from_impartial

    if isinstance(x, PartizanGame):
        return x
    if isinstance(x, Position):
        from cgtalg.ops.values import literal_form

        lf = literal_form(x)
        return lf if isinstance(lf, PartizanGame) else from_impartial(lf)
    return from_impartial(as_impartial(x, operation))
