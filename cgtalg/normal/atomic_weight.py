"""Infinitesimals, all-small games and atomic weight (Winning Ways ch. 8; Siegel,
*Combinatorial Game Theory*, II.7; CGSuite's ``AtomicWeight`` and ``IsAtomic``).

The *atomic weight* of ``G`` is the game ``W`` with ``G ~ W.↑`` (Norton multiplication by
``↑``, :mod:`cgtalg.normal.norton`), where ``G ~ H`` when ``o(G + X + *m) = o(H + X + *m)``
for every game ``X`` and every large enough ``m`` (the *far star* ``☆``). It exists for every
all-small game and for some other infinitesimals (tinies and minies have weight 0,
``{1|^^||^}`` weight 2), and for no game that is not infinitesimal.

:func:`is_infinitesimal`, :func:`is_all_small`, :func:`is_atomic` and :func:`atomic_weight`.
The weight is found by the atomic weight calculus (a number plus ``n.↑ + *m`` weighs ``n``;
otherwise ``G° = {G^L° - 2 | G^R° + 2}``, corrected in the *eccentric* case where ``G°`` is an
integer by comparing ``G`` with ``☆``); for a game that is not all-small the candidate ``W`` is
then confirmed, ``G - W.↑`` lying between ``-(↑* + ☆:-1)`` and ``↑* + ☆:-1`` (``☆`` the
nim-heap of the least power of two beyond every nim-heap of ``G``), as CGSuite confirms it;
otherwise ``G`` is not atomic (:class:`~cgtalg.errors.NotAtomicError`).
"""

from __future__ import annotations

import math
from typing import Any, Sequence

from cgtalg.core.fold import fold
from cgtalg.core.named_forms import nimber_of, number_form, number_of, uptimal, uptimal_parts
from cgtalg.core.partizan import ZERO, PartizanGame, negative, nimber, partizan_evaluator, up
from cgtalg.core.partizan import form_le as _le
from cgtalg.errors import NotAtomicError
from cgtalg.normal.norton import norton_product
from cgtalg.normal.ordinal_sum import ordinal_sum
from cgtalg.normal.partizan import _from_canonical_options, canonical_form, canonical_sum
from cgtalg.normal.thermography import _STOPS

__all__ = ["is_infinitesimal", "is_all_small", "is_atomic", "atomic_weight", "far_star"]


# -- infinitesimals, all-small games, atomic weight ----------------------------------------------
def is_infinitesimal(g: Any) -> bool:
    """True when both stops of ``G`` are 0, i.e. ``-x < G < x`` for every positive number
    ``x`` (0 included, as in CGSuite)."""
    c = canonical_form(g)
    ls, rs = fold(c, _STOPS)
    return ls == 0 and rs == 0


@partizan_evaluator("partizan_all_small")
def _ALL_SMALL(c: PartizanGame, lv: Sequence[bool], rv: Sequence[bool]) -> bool:
    return bool(c._left) == bool(c._right) and all(lv) and all(rv)


_ALL_SMALL.number = lambda x: False  # a compact number is never 0 (cgtalg.core.partizan_atoms)


def is_all_small(g: Any) -> bool:
    """True when the canonical form of ``G`` is all-small (dicotic): every subposition has
    moves for both players or for neither (Winning Ways ch. 8; Siegel CGT II.7)."""
    return fold(canonical_form(g), _ALL_SMALL)


@partizan_evaluator("partizan_far_star")
def _FAR_STAR(c: PartizanGame, lv: Sequence[int], rv: Sequence[int]) -> int:
    n = nimber_of(c)
    if n is not None:
        return n + 1
    return max([1, *lv, *rv])


@partizan_evaluator("partizan_atomic_weight")
def _AW(c: PartizanGame, lv: Sequence[PartizanGame], rv: Sequence[PartizanGame]) -> PartizanGame:
    parts = uptimal_parts(c)
    if parts is not None:  # x + n.↑ + *m weighs n (numbers weigh 0)
        return number_form(parts[1])
    two, minus_two = number_form(2), number_form(-2)
    new_l = [canonical_sum(w, minus_two) for w in lv]
    new_r = [canonical_sum(w, two) for w in rv]
    g0 = _from_canonical_options(new_l, new_r)
    x = number_of(g0)
    if x is None or x.denominator != 1:
        return g0
    # the eccentric case: G° is an integer; compare G with a remote star
    star = nimber(fold(c, _FAR_STAR))
    below, above = _le(c, star), _le(star, c)
    if below and not above:  # G < remote star: least n with n |> every G^L°
        if not new_l:
            return ZERO
        best = None
        for w in new_l:
            n = math.ceil(fold(w, _STOPS)[1])
            if _le(number_form(n), w):
                n += 1
            best = n if best is None else max(best, n)
        return number_form(best)
    if above and not below:  # G > remote star: greatest n with n <| every G^R°
        if not new_r:
            return ZERO
        best = None
        for w in new_r:
            n = math.floor(fold(w, _STOPS)[0])
            if _le(w, number_form(n)):
                n -= 1
            best = n if best is None else min(best, n)
        return number_form(best)
    return g0


def far_star(g: Any) -> int:
    """The size ``N`` of the far star ``☆ = *N`` used for ``G``: the least power of two
    ``>= 2`` beyond every nim-heap ``*n`` among the followers of the canonical form of ``G``
    (any larger heap behaves the same in the comparisons that use it)."""
    n = fold(canonical_form(g), _FAR_STAR)
    p = 2
    while p < n:
        p <<= 1
    return p


def _weight(c: PartizanGame) -> tuple[PartizanGame | None, str]:
    """``(W, "")`` for an atomic canonical ``c``, else ``(None, why)``."""
    ls, rs = fold(c, _STOPS)
    if ls != 0 or rs != 0:
        return None, (f"{c} is not infinitesimal (its stops are {ls} and {rs}), so it has no "
                      "atomic weight")
    w = fold(c, _AW)
    if fold(c, _ALL_SMALL):
        return w, ""
    # confirm G ~ W.↑: G - W.↑ lies between -(↑* + ☆:-1) and ↑* + ☆:-1
    d = canonical_sum(c, negative(norton_product(w, up)))
    eps = canonical_sum(uptimal(0, 1, 1), ordinal_sum(nimber(far_star(c)), number_form(-1)))
    if _le(d, eps) and _le(negative(eps), d):
        return w, ""
    return None, (f"{c} is infinitesimal but not atomic: no W has {c} ~ W.^ (the atomic weight "
                  f"calculus gives {w}, and {c} - ({w}).^ = {d} is not within ^* + *{far_star(c)}:-1 "
                  "of 0)")


def is_atomic(g: Any) -> bool:
    """True when ``G`` has an atomic weight: every all-small game, and the infinitesimals
    ``G`` with ``G ~ W.↑`` for some ``W`` (CGSuite's ``IsAtomic``).

    Examples
    --------
    >>> import cgtalg as cg
    >>> from cgtalg.normal.atomic_weight import is_atomic
    >>> P = cg.parse_partizan
    >>> [is_atomic(P(t)) for t in ("^*", "{0||0|-3/2}", "{1|^^||^}", "{1|^^^||^}", "1/2")]
    [True, True, True, False, False]
    """
    return _weight(canonical_form(g))[0] is not None


def atomic_weight(g: Any) -> PartizanGame:
    """The atomic weight of ``G``: the game ``W`` with ``G ~ W.↑`` (Winning Ways ch. 8;
    Siegel CGT II.7; CGSuite's ``AtomicWeight``).

    Computed by the atomic weight calculus on the canonical form: ``x + n.↑ + *m`` weighs
    ``n``; otherwise ``G° = {G^L° - 2 | G^R° + 2}``, and when that is an integer (the
    *eccentric* case) it is corrected by comparing ``G`` with a remote star ``☆``: for
    ``G < ☆`` the least integer ``n`` with ``n |> G^L°`` for every ``G^L``, for ``G > ☆``
    the greatest ``n`` with ``n <| G^R°`` for every ``G^R``. All-small games are atomic; for
    other infinitesimals the weight ``W`` is confirmed by ``G - W.↑`` lying within
    ``↑* + ☆:-1`` of 0 (see the module's text).

    The weight is additive, ``aw(n.↑ + *m) = n``, ``aw(G.↑) = G``, and ``G > 0`` whenever
    ``aw(G) >= 2`` (the two-ahead rule).

    Parameters
    ----------
    g : PartizanGame, Game, int or dyadic Fraction
        Any short game.

    Returns
    -------
    PartizanGame
        The canonical form of the atomic weight.

    Raises
    ------
    NotAtomicError
        When ``G`` is not infinitesimal, or is infinitesimal but not atomic (``{1|^3||^}``).

    Examples
    --------
    >>> import cgtalg as cg
    >>> [str(cg.atomic_weight(cg.parse(t))) for t in ("^", "v*", "^^*", "{^3 | vv}")]
    ['1', '-1', '2', '{1|0}']
    >>> P = cg.parse_partizan
    >>> [str(cg.atomic_weight(P(t))) for t in ("{0||0|-3/2}", "{5||3|1|||0||||0}", "{1|^^||^}")]
    ['0', '0', '2']

    References
    ----------
    Winning Ways ch. 8; Conway, ONAG ch. 16; Siegel, CGT II.7; CGSuite's
    ``CanonicalShortGameTestCase`` (the examples above are its test values).
    """
    w, why = _weight(canonical_form(g))
    if w is None:
        raise NotAtomicError(why)
    return w
