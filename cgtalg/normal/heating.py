"""Heating and overheating of short partizan games, beside cooling (Winning Ways ch. 6;
Berlekamp, "The economist's view of combinatorial games" (1996) and Berlekamp & Wolfe,
*Mathematical Go* for overheating; Siegel, *Combinatorial Game Theory*, II.5; CGSuite's
``Heat`` and ``Overheat``).

- :func:`heat` -- ``G`` heated by ``t`` (written ``∫^t G``): ``G`` itself when ``G`` is a
  number, else ``{∫^t G^L + t | ∫^t G^R - t}``. ``t`` may be any game (``∫^* G``, heating by
  star, is the first step of Grossman and Siegel's reduced canonical form).
- :func:`overheat` -- ``G`` overheated from ``s`` to ``t`` (``∫_s^t G``): ``G.s`` (``n``
  copies of ``s``) when ``G`` is an integer ``n``, else ``{∫_s^t G^L + t | ∫_s^t G^R - t}``
  (non-integer numbers are overheated through their options).

Both are computed on the canonical form of ``G`` (they depend on the form: heating is not a
function of values in general, which is why the canonical form is the one used, as CGSuite
does). Heating is an inverse of cooling where cooling loses nothing: for ``t`` below the
temperature of every non-numeric follower, ``∫^t (G_t) = G``; and cooling undoes heating,
``(∫^t G)_t = G``, for games whose followers are all hot enough (checked in the tests).
"""

from __future__ import annotations

from typing import Any

from cgtalg.caches import register_cache
from cgtalg.core.fold import memo_post_order
from cgtalg.core.named_forms import number_of
from cgtalg.core.partizan import PartizanGame, as_partizan, negative
from cgtalg.normal.norton import integer_multiple
from cgtalg.normal.partizan import _from_canonical_options, canonical_form, canonical_sum

__all__ = ["heat", "overheat"]

#: (t id) -> {G id: canonical ∫^t G}
_HEAT: dict[int, dict[int, PartizanGame]] = register_cache("normal.heating heated forms", {})
#: (s id, t id) -> {G id: canonical ∫_s^t G}
_OVERHEAT: dict[tuple[int, int], dict[int, PartizanGame]] = register_cache("normal.heating overheated forms", {})


def _shifted(root: PartizanGame, memo: dict[int, PartizanGame], t: PartizanGame,
             frozen: Any) -> PartizanGame:
    """``{F(G^L) + t | F(G^R) - t}`` bottom-up over the canonical form ``root``, with
    ``frozen(x)`` giving the value of a follower where the recursion stops (or None)."""
    minus_t = negative(t)
    stops: dict[int, PartizanGame | None] = {}

    def stop(x: PartizanGame) -> PartizanGame | None:
        if x._id not in stops:
            stops[x._id] = frozen(x)
        return stops[x._id]

    def deps(x: PartizanGame):
        return () if stop(x) is not None else x._options

    def compute(x: PartizanGame) -> PartizanGame:
        v = stop(x)
        if v is not None:
            return v
        return _from_canonical_options([canonical_sum(memo[o._id], t) for o in x._left],
                                       [canonical_sum(memo[o._id], minus_t) for o in x._right])

    return memo_post_order(root, memo, deps, compute)  # type: ignore[arg-type]


def heat(g: Any, t: Any) -> PartizanGame:
    """``G`` heated by ``t``: ``∫^t G = G`` for a number ``G``, else
    ``{∫^t G^L + t | ∫^t G^R - t}`` (on the canonical form of ``G``).

    Parameters
    ----------
    g : PartizanGame, Game, int or dyadic Fraction
        The game to heat.
    t : PartizanGame, Game, int or dyadic Fraction
        The heat: usually a number, but any game is accepted (``∫^* G`` is used by reduced
        canonical forms).

    Returns
    -------
    PartizanGame
        The canonical form of ``∫^t G``.

    Examples
    --------
    >>> import cgtalg as cg
    >>> from cgtalg.normal.heating import heat
    >>> G = cg.parse_partizan("{3||2*|1*}")
    >>> str(heat(G, 1)), str(heat(G, cg.dyadic(1, 2))), str(heat(G, -1))
    ('{4|||3|1||0|-2}', '{7/2|||5/2|3/2||±1/2}', '9/4')
    >>> str(heat(cg.nim(1), 2)), str(heat(cg.up, 2)), str(heat(G, cg.nim(1)))
    ('±2', '{2||0|-4}', '{3*||2|1}')

    References
    ----------
    Winning Ways ch. 6; Siegel, CGT II.5; CGSuite ``Heat`` (the examples are CGSuite's test
    values).
    """
    root = canonical_form(as_partizan(g))
    tc = canonical_form(as_partizan(t))
    memo = _HEAT.setdefault(tc._id, {})
    return _shifted(root, memo, tc, lambda x: x if number_of(x) is not None else None)


def overheat(g: Any, s: Any, t: Any) -> PartizanGame:
    """``G`` overheated from ``s`` to ``t``: ``∫_s^t n = n.s`` (``n`` copies of ``s``) for an
    integer ``n``, else ``{∫_s^t G^L + t | ∫_s^t G^R - t}`` (on the canonical form of ``G``;
    dyadic non-integers are overheated through their options).

    Parameters
    ----------
    g : PartizanGame, Game, int or dyadic Fraction
        The game to overheat.
    s, t : PartizanGame, Game, int or dyadic Fraction
        The games that integers become multiples of (``s``) and that each move adds (``t``).

    Returns
    -------
    PartizanGame
        The canonical form of ``∫_s^t G``.

    Examples
    --------
    >>> import cgtalg as cg
    >>> from cgtalg.normal.heating import overheat
    >>> str(overheat(cg.dyadic(7, 16), 0, 0))
    '^[3]'
    >>> str(overheat(cg.parse_partizan("{3||2*|1*}"), cg.nim(1), cg.parse_partizan("1*")))
    '{1||±(1*)|-1,{-1|-3}}'

    References
    ----------
    Berlekamp, "The economist's view of combinatorial games", in *Games of No Chance* (1996);
    Berlekamp and Wolfe, *Mathematical Go* (1994); CGSuite ``Overheat`` (the examples are
    CGSuite's test values).
    """
    root = canonical_form(as_partizan(g))
    sc = canonical_form(as_partizan(s))
    tc = canonical_form(as_partizan(t))
    memo = _OVERHEAT.setdefault((sc._id, tc._id), {})

    def frozen(x: PartizanGame) -> PartizanGame | None:
        v = number_of(x)
        if v is not None and v.denominator == 1:
            return integer_multiple(int(v), sc)
        return None

    return _shifted(root, memo, tc, frozen)
