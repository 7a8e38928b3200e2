"""Reduced canonical forms: the simplest game infinitesimally close to ``G`` (Calistrate, "The
reduced canonical form of a game", *Games of No Chance* (1996); Grossman and Siegel,
"Reductions of partizan games", *Games of No Chance 3* (2009); Siegel, *Combinatorial Game
Theory*, II.6; CGSuite's ``ReducedCanonicalForm``).

Two games are *infinitesimally close*, ``G ≡ H (mod Inf)``, when ``G - H`` is infinitesimal;
``G <= H (mod Inf)`` when ``G <= H + ε`` for some infinitesimal ``ε``, which holds exactly when
the Right stop of ``H - G`` is ``>= 0`` (Grossman and Siegel). A Left option ``G^L1`` is
*Inf-dominated* when ``G^L1 <= G^L2 (mod Inf)`` for another Left option, and *Inf-reversible*
through ``G^L1R`` when ``G^L1R <= G (mod Inf)`` (dually for Right). The reduced canonical form
``rcf(G)`` is the number ``x`` when ``G`` is infinitesimally close to ``x`` (equal stops
``x``); otherwise it is ``{rcf(G^L) | rcf(G^R)}`` with Inf-dominated options removed and
Inf-reversible ones bypassed until none remain. It is unique: ``rcf(G) is rcf(H)`` exactly
when ``G - H`` is infinitesimal, and ``rcf(G)`` has the least birthday in its class.
"""

from __future__ import annotations

from typing import Any

from cgtalg.caches import register_cache
from cgtalg.core.fold import fold, memo_post_order
from cgtalg.core.named_forms import number_form
from cgtalg.core.partizan import PartizanGame, as_partizan, make_form, negative
from cgtalg.normal.partizan import canonical_form, canonical_sum
from cgtalg.normal.thermography import _STOPS

__all__ = ["inf_le", "infinitesimally_close", "reduced_canonical_form", "is_reduced"]

#: canonical id -> reduced canonical form
_RCF: dict[int, PartizanGame] = register_cache("normal.reduced canonical forms", {})
#: (a id, b id) -> a <= b (mod Inf), for canonical forms
_INF_LE: dict[tuple[int, int], bool] = register_cache("normal.reduced inf comparisons", {})


def _inf_le(a: PartizanGame, b: PartizanGame) -> bool:
    """``a <= b (mod Inf)`` for canonical forms: the Right stop of ``b - a`` is ``>= 0``."""
    if a is b:
        return True
    key = (a._id, b._id)
    hit = _INF_LE.get(key)
    if hit is None:
        d = canonical_sum(b, negative(a))
        hit = fold(d, _STOPS)[1] >= 0
        _INF_LE[key] = hit
    return hit


def inf_le(g: Any, h: Any) -> bool:
    """``G <= H`` modulo infinitesimals: ``G <= H + ε`` for some infinitesimal ``ε``, i.e.
    the Right stop of ``H - G`` is ``>= 0`` (Grossman and Siegel 2009; Siegel CGT II.6).

    >>> import cgtalg as cg
    >>> from cgtalg.normal.reduced import inf_le
    >>> inf_le(cg.up, 0), inf_le(0, cg.down), inf_le(cg.dyadic(1, 2), 0)
    (True, True, False)
    """
    return _inf_le(canonical_form(as_partizan(g)), canonical_form(as_partizan(h)))


def infinitesimally_close(g: Any, h: Any) -> bool:
    """True when ``G - H`` is infinitesimal (both its stops are 0)."""
    a, b = canonical_form(as_partizan(g)), canonical_form(as_partizan(h))
    return fold(canonical_sum(a, negative(b)), _STOPS) == (0, 0)


def _prune(opts: list[PartizanGame], left: bool) -> list[PartizanGame]:
    """Options without Inf-dominated ones (distinct options Inf-equivalent to each other:
    the one of least id is kept, though for reduced options they are the same form)."""
    opts = list({o._id: o for o in opts}.values())
    keep = []
    for x in opts:
        beaten = False
        for y in opts:
            if y is x:
                continue
            below = _inf_le(x, y) if left else _inf_le(y, x)
            if below:
                above = _inf_le(y, x) if left else _inf_le(x, y)
                if not above or y._id < x._id:
                    beaten = True
                    break
        if not beaten:
            keep.append(x)
    return keep


def _reduce(lo: list[PartizanGame], ro: list[PartizanGame]) -> PartizanGame:
    """``{lo | ro}`` (reduced options, not close to a number) with Inf-dominated options
    removed and Inf-reversible ones bypassed until none remain."""
    lo, ro = _prune(lo, True), _prune(ro, False)
    while True:
        g0 = canonical_form(make_form(lo, ro))
        changed = False
        new_lo: list[PartizanGame] = []
        for x in lo:
            rev = next((r for r in x._right if _inf_le(canonical_form(r), g0)), None)
            if rev is None:
                new_lo.append(x)
            else:
                new_lo.extend(rev._left)
                changed = True
        new_ro: list[PartizanGame] = []
        for y in ro:
            rev = next((r for r in y._left if _inf_le(g0, canonical_form(r))), None)
            if rev is None:
                new_ro.append(y)
            else:
                new_ro.extend(rev._right)
                changed = True
        if not changed:
            return make_form(lo, ro)
        lo, ro = _prune(new_lo, True), _prune(new_ro, False)


def reduced_canonical_form(g: Any) -> PartizanGame:
    """The reduced canonical form of ``G``: the simplest game infinitesimally close to ``G``.

    Parameters
    ----------
    g : PartizanGame, Game, int or dyadic Fraction
        Any short game.

    Returns
    -------
    PartizanGame
        ``rcf(G)``: a number when ``G`` is infinitesimally close to one, else a form with no
        Inf-dominated and no Inf-reversible options, all of whose followers are reduced
        (it is also a canonical form).

    Examples
    --------
    >>> import cgtalg as cg
    >>> from cgtalg.normal.reduced import reduced_canonical_form as rcf
    >>> P = cg.parse_partizan
    >>> [str(rcf(P(t))) for t in ("^", "9/8*", "6^*", "{0||0|-3/2}", "{3||2*|1*}")]
    ['0', '9/8', '6', '0', '{3||2|1}']
    >>> str(rcf(P("{3/2*|1/2||{0|-3},{-1*,{-1/2|-1*}|-5/2}}")))
    '{3/2|1/2||{0|-3},{-1/2|-1||-5/2}}'

    References
    ----------
    Calistrate (1996); Grossman and Siegel, "Reductions of partizan games" (2009); Siegel,
    CGT II.6; CGSuite ``ReducedCanonicalForm`` (the examples are CGSuite's test values).
    """
    root = canonical_form(as_partizan(g))

    def close_number(x: PartizanGame):
        ls, rs = fold(x, _STOPS)
        return ls if ls == rs else None

    def deps(x: PartizanGame):
        return () if close_number(x) is not None else x._options

    def compute(x: PartizanGame) -> PartizanGame:
        v = close_number(x)
        if v is not None:
            return number_form(v)
        return _reduce([_RCF[o._id] for o in x._left], [_RCF[o._id] for o in x._right])

    return memo_post_order(root, _RCF, deps, compute)  # type: ignore[arg-type]


def is_reduced(g: Any) -> bool:
    """True when the form ``G`` is its own reduced canonical form."""
    x = as_partizan(g)
    return reduced_canonical_form(x) is x
