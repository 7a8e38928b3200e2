"""Ordinal sums ``G:H`` of short partizan games (Conway, ONAG ch. 15; Winning Ways ch. 2 and
7; Siegel, *Combinatorial Game Theory*, II.6 (Hackenbush and ordinal sums); CGSuite's ``:``
operator).

``G:H = {G^L, G:H^L | G^R, G:H^R}``: a move in the *base* ``G`` annihilates the *subordinate*
``H``, a move in ``H`` leaves ``G`` alone. The value of ``G:H`` depends on the **form** of
``G`` (``0:1 = 1`` but ``{-1|1}:1 = 1/2``, though ``{-1|1} = 0``; CGSuite's
``'{*|*}':3 = ^[3]`` while ``{*|*} = 0``), and only on the value of ``H`` when ``G`` has no
reversible options (so a canonical ``G`` gives a function of the values). :func:`ordinal_sum`
therefore keeps the form of ``G`` as given (pass ``canonical_form(G)`` for CGSuite's reading of
an unquoted game) and returns the canonical form of the result.

Hackenbush: a stalk whose lowest edge is blue and the rest a stalk ``S`` is ``1:S``; its red
dual is ``-1:S`` (Winning Ways ch. 2; Berlekamp's sign expansion reads a number's stalk from
its ordinal sum: ``1:-1 = 1/2``, ``1:-1:-1 = 1/4``, ``1:-1:1 = 3/4``).
"""

from __future__ import annotations

from typing import Any

from cgtalg.caches import register_cache
from cgtalg.core.fold import memo_post_order
from cgtalg.core.partizan import PartizanGame, as_partizan
from cgtalg.normal.partizan import _from_canonical_options, canonical_form

__all__ = ["ordinal_sum"]

#: base form id -> {subordinate id: canonical G:H}
_ORD: dict[int, dict[int, PartizanGame]] = register_cache("normal.ordinal sums", {})


def ordinal_sum(g: Any, h: Any) -> PartizanGame:
    """The ordinal sum ``G:H = {G^L, G:H^L | G^R, G:H^R}`` (canonical form of the result).

    Parameters
    ----------
    g : PartizanGame, Game, int or dyadic Fraction
        The base ``G``: its **form** counts (its options are taken as given; each option only
        by its value).
    h : PartizanGame, Game, int or dyadic Fraction
        The subordinate ``H`` (recursed through as given).

    Returns
    -------
    PartizanGame
        The canonical form of ``G:H``.

    Examples
    --------
    >>> import cgtalg as cg
    >>> from cgtalg.normal.ordinal_sum import ordinal_sum
    >>> P = cg.parse_partizan
    >>> [str(ordinal_sum(P(a), P(b))) for a, b in (("1", "-1"), ("1/2", "1/4"), ("*5", "*6"))]
    ['1/2', '9/16', '*11']
    >>> str(ordinal_sum(P("{*|*}"), 3)), str(ordinal_sum(P("{1|0}"), 0)), str(ordinal_sum(0, 3))
    ('^[3]', '{1|0}', '3')

    References
    ----------
    Conway, ONAG ch. 15; Winning Ways ch. 2; Siegel, CGT II.6; CGSuite's
    ``CompoundGameTestCase`` (``1/2 : 1/4 = 9/16``, ``*5 : *6 = *11``, ``'{*|*}' : 3 = ^[3]``).
    """
    base = as_partizan(g)
    sub = as_partizan(h)
    gl = [canonical_form(o) for o in base._left]
    gr = [canonical_form(o) for o in base._right]
    memo = _ORD.setdefault(base._id, {})

    def compute(x: PartizanGame) -> PartizanGame:
        return _from_canonical_options(gl + [memo[o._id] for o in x._left],
                                       gr + [memo[o._id] for o in x._right])

    return memo_post_order(sub, memo, lambda x: x._options, compute)  # type: ignore[arg-type]
