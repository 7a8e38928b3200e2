"""Old names of the operations, kept as thin aliases of the doors for one release (0.2).

Each one calls the door it names, so it answers for every kind of game the door takes and
refuses the rest with the door's :class:`cgtalg.errors.GameKindError`. New code, the docs and
the command line use the doors: :func:`cgtalg.outcome`, :func:`cgtalg.winning_moves`,
:func:`cgtalg.canonical_form`, :func:`cgtalg.compare`.
"""

from __future__ import annotations

from typing import Any

from cgtalg.ops.comparison import compare
from cgtalg.ops.play import outcome, winning_moves
from cgtalg.ops.values import canonical_form

__all__ = [
    "normal_outcome", "misere_outcome", "partizan_outcome", "partizan_misere_outcome",
    "normal_winning_moves", "misere_winning_moves", "misere_canonical", "partizan_canonical",
    "misere_canonical_form", "partizan_compare", "partizan_le", "partizan_equal",
    "partizan_misere_equal",
]


def normal_outcome(g: Any) -> str:
    """Alias of ``outcome(g)`` (to be removed after 0.2)."""
    return outcome(g)


def misere_outcome(g: Any) -> str:
    """Alias of ``outcome(g, misere=True)`` (to be removed after 0.2)."""
    return outcome(g, misere=True)


partizan_outcome = normal_outcome


def partizan_misere_outcome(g: Any) -> str:
    """Alias of ``outcome(g, misere=True)`` (to be removed after 0.2)."""
    return outcome(g, misere=True)


def normal_winning_moves(g: Any) -> Any:
    """Alias of ``winning_moves(g)`` (to be removed after 0.2)."""
    return winning_moves(g)


def misere_winning_moves(g: Any) -> Any:
    """Alias of ``winning_moves(g, misere=True)`` (to be removed after 0.2)."""
    return winning_moves(g, misere=True)


def misere_canonical(g: Any) -> Any:
    """Alias of ``canonical_form(g, misere=True, universe="impartial")``: the misère canonical
    form of an impartial game (to be removed after 0.2)."""
    return canonical_form(g, misere=True, universe="impartial")


def partizan_canonical(g: Any) -> Any:
    """Alias of ``canonical_form(g)`` (to be removed after 0.2)."""
    return canonical_form(g)


def misere_canonical_form(g: Any, universe: str = "dicot") -> Any:
    """Alias of ``canonical_form(g, misere=True, universe=universe)``, the reduced misère form
    in the dicot or dead-ending universe (to be removed after 0.2)."""
    return canonical_form(g, misere=True, universe=universe)


def partizan_compare(g: Any, h: Any) -> str:
    """Alias of ``compare(g, h).relation`` (to be removed after 0.2)."""
    return compare(g, h).relation


def partizan_le(g: Any, h: Any) -> bool:
    """Alias of ``compare(g, h).le`` (to be removed after 0.2)."""
    return compare(g, h).le


def partizan_equal(g: Any, h: Any) -> bool:
    """Alias of ``compare(g, h).equal`` (to be removed after 0.2)."""
    return compare(g, h).equal


def partizan_misere_equal(g: Any, h: Any, universe: str = "full") -> Any:
    """Alias of :func:`cgtalg.misere.partizan.misere_equal`, equality in a misère universe of
    partizan games with its certificate; ``compare(g, h, misere=True, universe=...)`` is the door
    (to be removed after 0.2)."""
    from cgtalg.misere.partizan import misere_equal

    return misere_equal(g, h, universe)
