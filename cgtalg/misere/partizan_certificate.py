"""The answers of :func:`cgtalg.misere.partizan.misere_ge` and
:func:`~cgtalg.misere.partizan.misere_equal` with their certificates: :class:`GeProof` (the
Maintenance-and-Proviso witnesses), :class:`MisereDistinction` (a distinguishing game of the
universe) and :class:`MisereComparison`; re-checked by
:func:`cgtalg.misere.partizan_proof.check_misere_certificate`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cgtalg.core.fold import distinct_preorder
from cgtalg.core.partizan import PartizanGame
from cgtalg.misere.partizan_outcome import THEOREMS, _show

__all__ = ["GeProof", "MisereDistinction", "MisereComparison"]

# ---------------------------------------------------------------------------------------
# certificates
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class GeProof:
    """A certificate that ``g ≥ h`` in ``universe`` (Maintenance and Proviso).

    Attributes
    ----------
    g, h : PartizanGame
    universe : str
    identical : bool
        ``g is h`` (then the witness lists are empty).
    left : tuple of (H^L, kind, witness, GeProof)
        Maintenance (i), one entry per Left option ``H^L`` of ``h``: kind ``"G^L"`` (a Left
        option of ``g`` with ``witness ≥ H^L``) or ``"H^LR"`` (a Right option of ``H^L`` with
        ``g ≥ witness``).
    right : tuple of (G^R, kind, witness, GeProof)
        Maintenance (ii), one entry per Right option ``G^R`` of ``g``: kind ``"H^R"``
        (``G^R ≥ witness``) or ``"G^RL"`` (a Left option of ``G^R`` with ``witness ≥ h``).
    proviso : tuple of str
        The Proviso facts used (empty when neither ``h`` is a Left end nor ``g`` a Right end).
    """

    g: PartizanGame
    h: PartizanGame
    universe: str
    identical: bool = False
    left: tuple[tuple[PartizanGame, str, PartizanGame, "GeProof"], ...] = ()
    right: tuple[tuple[PartizanGame, str, PartizanGame, "GeProof"], ...] = ()
    proviso: tuple[str, ...] = ()

    def nodes(self) -> list["GeProof"]:
        """All distinct proof steps reachable from this one (this one first)."""
        return distinct_preorder(self, lambda n: [p for _, _, _, p in n.left + n.right])

    def __repr__(self) -> str:
        from cgtalg.misere.proof_html import node_repr

        return node_repr(self)

    def _repr_html_(self) -> str:
        from cgtalg.misere.proof_html import node_html

        return node_html(self)


@dataclass(frozen=True, eq=False)
class MisereDistinction:
    """A refutation of ``g ≥ h`` in ``universe``: ``t ∈ universe`` with ``o⁻(g+t) ≱ o⁻(h+t)``.

    Attributes
    ----------
    t : PartizanGame
    outcome_g, outcome_h : str
        ``o⁻(g + t)`` and ``o⁻(h + t)``.
    side : str
        ``"left-first"`` (Left wins ``h + t`` moving first but not ``g + t``) or
        ``"right-first"`` (Right wins ``g + t`` moving first but not ``h + t``).
    condition : str
        The condition that failed: ``"outcome"`` (already ``o⁻(g) ≱ o⁻(h)``, ``t = 0``),
        ``"maintenance (i)"``, ``"maintenance (ii)"``, ``"proviso (iii)"`` or ``"proviso (iv)"``.
    option : PartizanGame or None
        The ``H^L`` (i) or ``G^R`` (ii) at which Maintenance fails.
    """

    g: PartizanGame
    h: PartizanGame
    universe: str
    t: PartizanGame
    outcome_g: str
    outcome_h: str
    side: str
    condition: str
    option: PartizanGame | None = None

    def __repr__(self) -> str:
        from cgtalg.misere.proof_html import node_repr

        return node_repr(self)

    def _repr_html_(self) -> str:
        from cgtalg.misere.proof_html import node_html

        return node_html(self)


_REL = {(">=", True): "≥", (">=", False): "≱", ("=", True): "=", ("=", False): "≠"}


@dataclass(eq=False)
class MisereComparison:
    """The answer to "is ``g ≥ h``?" (or "is ``g = h``?") in a misère universe.

    ``bool(result)`` is :attr:`holds`. The certificate is built on first access: a
    :class:`GeProof` (for ``=``, the pair of proofs ``(g ≥ h, h ≥ g)``) or a
    :class:`MisereDistinction`. Re-check it with
    :func:`cgtalg.misere.partizan_proof.check_misere_certificate`.
    """

    g: PartizanGame
    h: PartizanGame
    universe: str
    relation: str  # ">=" or "="
    holds: bool
    _engine: Any = field(repr=False, default=None)
    _certificate: Any = field(repr=False, default=None)

    def __bool__(self) -> bool:
        return self.holds

    @property
    def certificate(self) -> GeProof | tuple[GeProof, GeProof] | MisereDistinction:
        """The proof (``holds``) or the distinguishing game (not ``holds``)."""
        if self._certificate is None:
            e = self._engine
            if self.relation == ">=":
                self._certificate = e.proof(self.g, self.h) if self.holds else e.distinction(self.g, self.h)
            elif self.holds:
                self._certificate = (e.proof(self.g, self.h), e.proof(self.h, self.g))
            elif not e.ge(self.g, self.h):
                self._certificate = e.distinction(self.g, self.h)
            else:
                self._certificate = e.distinction(self.h, self.g)
        return self._certificate

    @property
    def distinguisher(self) -> PartizanGame | None:
        """The distinguishing game ``T`` when the relation fails, else None."""
        c = self.certificate
        return c.t if isinstance(c, MisereDistinction) else None

    @property
    def theorem(self) -> str:
        """The theorem the recursion implements."""
        return THEOREMS[self.universe]

    def explain(self) -> str:
        """One paragraph: the verdict and its certificate."""
        rel = _REL[(self.relation, self.holds)]
        head = f"{_show(self.g, 60)} {rel} {_show(self.h, 60)} in misère play, universe {self.universe!r}"
        c = self.certificate
        if isinstance(c, MisereDistinction):
            a, b = (c.g, c.h)
            return (f"{head}: T = {_show(c.t, 80)} has o(G+T) = {c.outcome_g} and o(H+T) = {c.outcome_h} "
                    f"for G = {_show(a, 40)}, H = {_show(b, 40)} ({c.side}; {c.condition} fails)")
        proofs = c if isinstance(c, tuple) else (c,)
        steps = sum(len(p.nodes()) for p in proofs)
        return f"{head}: {steps} proof steps by {self.theorem}"

    def __str__(self) -> str:
        return self.explain()

    def __repr__(self) -> str:
        rel = _REL[(self.relation, self.holds)]
        return f"MisereComparison({_show(self.g, 60)} {rel} {_show(self.h, 60)}, universe={self.universe!r})"

    def _repr_html_(self) -> str:
        """Notebook view: the claim, the theorem and the proof tree(s) or distinguisher."""
        from cgtalg.misere.proof_html import misere_comparison_html

        return misere_comparison_html(self)
