"""Doors for the constructions on normal-play partizan games: Norton products, reduced canonical
forms, ordinal sums, heating and overheating (:mod:`cgtalg.normal.norton`,
:mod:`cgtalg.normal.reduced`, :mod:`cgtalg.normal.ordinal_sum`, :mod:`cgtalg.normal.heating`).

Each takes every kind of short game as the partizan game it is (impartial forms, partizan forms,
game text, numbers, positions of rulesets, finite nimbers) and refuses by name the kinds for
which the construction has no meaning: misère canonical forms (a class of games under misère
equivalence, not a normal-play game form) and transfinite nimbers (not short games).
"""

from __future__ import annotations

from typing import Any

from cgtalg.core.partizan import PartizanGame
from cgtalg.ops.kinds import as_partizan_game, kind_of, read, refuse

__all__ = ["norton_product", "reduced_canonical_form", "ordinal_sum", "heat", "overheat", "is_atomic"]

_NORMAL_FORM_DOORS = ("cgtalg.canonical_form(g) (normal play)", "cgtalg.outcome(g, misere=True)")


def partizan_operand(operation: str, x: Any, role: str = "", normal_play: bool = True) -> PartizanGame:
    """``x`` as a partizan form for ``operation``; a misère canonical form is refused (it stands
    for a misère class, and these constructions are of normal-play game forms). Game text is
    read for its normal-play value, or literally with ``normal_play=False`` (ordinal sums, where
    the form of the base counts). The operand reader of every door on normal-play forms
    (:mod:`cgtalg.ops.partizan_more` too)."""
    y = read(x, normal_play=normal_play)
    if kind_of(y, operation) == "misere class":
        what = f"the {role} is" if role else "this is"
        raise refuse(operation, y, f"{what} a misère canonical form, which stands for a class of "
                     "games under misère equivalence; this construction is of normal-play game "
                     "forms (take the game itself, e.g. its .game)", _NORMAL_FORM_DOORS)
    return as_partizan_game(y, operation)


def norton_product(g: Any, u: Any) -> PartizanGame:
    """The Norton product ``G.U`` of ``G`` by a positive game ``U`` (Conway, ONAG ch. 15;
    Winning Ways ch. 8; Siegel CGT II.7): ``n`` copies of ``U`` for an integer ``n``, else
    ``{G^L.U + (U + I) | G^R.U - (U + I)}`` over the incentives ``I`` of ``U``.

    Examples
    --------
    >>> import cgtalg as cg
    >>> from fractions import Fraction
    >>> str(cg.norton_product(Fraction(1, 2), "^")), str(cg.norton_product(3, "^"))
    ('{^^*|v*}', '^3')

    Raises
    ------
    ArgumentError
        ``U`` not positive. :class:`~cgtalg.errors.GameKindError` for misère canonical forms
        and transfinite nimbers.
    """
    from cgtalg.normal.norton import norton_product as f

    return f(partizan_operand("norton_product", g), partizan_operand("norton_product", u, "unit"))


def reduced_canonical_form(g: Any) -> PartizanGame:
    """The reduced canonical form: the simplest game infinitesimally close to ``G`` (Calistrate
    1996; Grossman and Siegel 2009; Siegel CGT II.6).

    Examples
    --------
    >>> import cgtalg as cg
    >>> str(cg.reduced_canonical_form("{3||2*|1*}"))
    '{3||2|1}'
    >>> str(cg.reduced_canonical_form("^")), str(cg.reduced_canonical_form("*5"))
    ('0', '0')
    """
    from cgtalg.normal.reduced import reduced_canonical_form as f

    return f(partizan_operand("reduced_canonical_form", g))


def ordinal_sum(g: Any, h: Any) -> PartizanGame:
    """The ordinal sum ``G:H = {G^L, G:H^L | G^R, G:H^R}`` (ONAG ch. 15; Winning Ways ch. 2).
    The **form** of the base ``G`` counts: it is taken as given (game text is read literally;
    a ruleset position stands for its canonical form); the result is a canonical form.

    Examples
    --------
    >>> import cgtalg as cg
    >>> str(cg.ordinal_sum(1, -1)), str(cg.ordinal_sum("{*|*}", 3)), str(cg.ordinal_sum("*", 1))
    ('1/2', '^[3]', '^*')
    """
    from cgtalg.normal.ordinal_sum import ordinal_sum as f

    return f(partizan_operand("ordinal_sum", g, normal_play=False),
             partizan_operand("ordinal_sum", h, "subordinate", normal_play=False))


def heat(g: Any, t: Any) -> PartizanGame:
    """``G`` heated by ``t``: ``∫^t G = G`` for a number, else ``{∫^t G^L + t | ∫^t G^R - t}``
    (Winning Ways ch. 6; on the canonical form of ``G``; ``t`` any game).

    Examples
    --------
    >>> import cgtalg as cg
    >>> str(cg.heat("*", 2)), str(cg.heat("^", 2))
    ('±2', '{2||0|-4}')
    """
    from cgtalg.normal.heating import heat as f

    return f(partizan_operand("heat", g), partizan_operand("heat", t, "heat"))


def overheat(g: Any, s: Any, t: Any) -> PartizanGame:
    """``G`` overheated from ``s`` to ``t``: ``n.s`` for an integer ``n``, else
    ``{∫_s^t G^L + t | ∫_s^t G^R - t}`` (Berlekamp 1996; on the canonical form of ``G``).

    Examples
    --------
    >>> import cgtalg as cg
    >>> from fractions import Fraction
    >>> str(cg.overheat(Fraction(7, 16), 0, 0)), str(cg.overheat(2, "*", 1))
    ('^[3]', '0')
    """
    from cgtalg.normal.heating import overheat as f

    return f(partizan_operand("overheat", g), partizan_operand("overheat", s, "base s"), partizan_operand("overheat", t, "heat t"))


def is_atomic(g: Any) -> bool:
    """Whether ``G`` has an atomic weight (every all-small game, and the infinitesimals with
    ``G ~ W.↑``; CGSuite's ``IsAtomic``).

    >>> import cgtalg as cg
    >>> cg.is_atomic("^*"), cg.is_atomic("{1|-1}")
    (True, False)
    """
    from cgtalg.normal.atomic_weight import is_atomic as f

    return f(partizan_operand("is_atomic", g))
