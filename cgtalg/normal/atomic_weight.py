"""Infinitesimals, all-small games and atomic weight (Winning Ways ch. 8; Siegel,
*Combinatorial Game Theory*, II.7).

:func:`is_infinitesimal`, :func:`is_all_small` and :func:`atomic_weight` of all-small games,
including the "eccentric" case where the first estimate is an integer and the game is compared
with a remote star; infinitesimals that are not all-small are refused with
:class:`~cgtalg.errors.NotAtomicError` (confirming atomicity there needs Norton
multiplication).
"""

from __future__ import annotations

import math
from typing import Any, Sequence

from cgtalg.core.fold import fold
from cgtalg.core.named_forms import nimber_of, number_form, number_of
from cgtalg.core.partizan import ZERO, PartizanGame, nimber, partizan_evaluator
from cgtalg.errors import NotAtomicError
from cgtalg.normal.partizan import _from_canonical_options, _le, canonical_form, canonical_sum
from cgtalg.normal.thermography import _STOPS, left_stop, right_stop

__all__ = ["is_infinitesimal", "is_all_small", "atomic_weight"]


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


def atomic_weight(g: Any) -> PartizanGame:
    """The atomic weight of an all-small game (canonical form of a game; Winning Ways ch. 8,
    Siegel CGT II.7): ``G° = {G^L° - 2 | G^R° + 2}``, and when that is an integer (the
    *eccentric* case) it is corrected by comparing ``G`` with a remote star ``☆``: for
    ``G < ☆`` the least integer ``n`` with ``n |> G^L°`` for every ``G^L``, for ``G > ☆``
    the greatest ``n`` with ``n <| G^R°`` for every ``G^R``.

    The weight is additive, ``aw(n.↑ + *m) = n``, and ``G > 0`` whenever ``aw(G) >= 2``
    (the two-ahead rule).

    Raises
    ------
    NotAtomicError
        When ``G`` is not infinitesimal (no atomic weight), or is infinitesimal but not
        all-small (atomic weights of such games, e.g. tinies, are not computed here).

    Examples
    --------
    >>> import cgtalg as cg
    >>> [str(cg.atomic_weight(cg.parse(t))) for t in ("^", "v*", "^^*", "{^3 | vv}")]
    ['1', '-1', '2', '{1|0}']
    """
    c = canonical_form(g)
    if not is_infinitesimal(c):
        raise NotAtomicError(f"{c} is not infinitesimal (its stops are {left_stop(c)} and "
                             f"{right_stop(c)}), so it has no atomic weight")
    if not is_all_small(c):
        raise NotAtomicError(f"{c} is infinitesimal but not all-small; atomic weights are "
                             "computed for all-small games only (Siegel CGT II.7)")
    return fold(c, _AW)
