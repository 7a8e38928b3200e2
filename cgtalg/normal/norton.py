"""Norton multiplication ``G.U`` and the incentives of a game (Conway, ONAG ch. 15; Winning
Ways ch. 8; Siegel, *Combinatorial Game Theory*, II.7; CGSuite's ``NortonProduct``).

For a game ``G`` and a positive game ``U``:

- ``G.U = U + U + ... + U`` (``n`` copies) when ``G`` is an integer ``n`` (``-n`` copies of
  ``-U`` for ``n < 0``, ``0`` for ``n = 0``);
- otherwise ``G.U = {G^L.U + (U + I) | G^R.U - (U + I)}`` where ``I`` ranges over all the
  *incentives* of ``U``: its Left incentives ``U^L - U`` and its Right incentives ``U - U^R``.

The product is computed on the canonical forms of ``G`` and ``U`` (it depends on the form of
``U`` through its incentives; the canonical form is the one CGSuite uses). For ``U > 0`` it
depends only on the value of ``G``, preserves order (``G >= H`` implies ``G.U >= H.U``) and is
additive in ``G`` for numbers; ``G.↑`` has atomic weight ``G``.

References: Conway, *On Numbers and Games* (ONAG), ch. 15 ("Norton multiplication");
Berlekamp, Conway and Guy, *Winning Ways*, ch. 8; Siegel, CGT II.7 (Norton product and atomic
weight); CGSuite's ``CanonicalShortGame.NortonProduct`` documentation.
"""

from __future__ import annotations

from typing import Any

from cgtalg.caches import register_cache
from cgtalg.core.fold import memo_post_order
from cgtalg.core.named_forms import number_of
from cgtalg.core.partizan import ZERO, PartizanGame, as_partizan, negative
from cgtalg.core.partizan import form_le as _le
from cgtalg.errors import ArgumentError
from cgtalg.normal.partizan import _from_canonical_options, canonical_form, canonical_sum

__all__ = ["incentives", "left_incentives", "right_incentives", "norton_product", "integer_multiple"]

#: (G id, U id) -> canonical G.U, for canonical G and U
_NORTON: dict[tuple[int, int], PartizanGame] = register_cache("normal.norton products", {})
#: U id -> the canonical forms U + I over the incentives I of U
_STEPS: dict[int, tuple[PartizanGame, ...]] = register_cache("normal.norton steps", {})


def _distinct(games: list[PartizanGame]) -> tuple[PartizanGame, ...]:
    return tuple({g._id: g for g in games}.values())


def left_incentives(g: Any) -> tuple[PartizanGame, ...]:
    """The Left incentives ``G^L - G`` of the canonical form of ``G`` (canonical forms,
    distinct; Winning Ways ch. 8; CGSuite's ``LeftIncentives``).

    Examples
    --------
    >>> import cgtalg as cg
    >>> from cgtalg.normal.norton import left_incentives
    >>> [str(x) for x in left_incentives(cg.up)]
    ['v']
    """
    c = canonical_form(g)
    minus = negative(c)
    return _distinct([canonical_sum(o, minus) for o in c._left])


def right_incentives(g: Any) -> tuple[PartizanGame, ...]:
    """The Right incentives ``G - G^R`` of the canonical form of ``G`` (canonical forms,
    distinct; CGSuite's ``RightIncentives``).

    Examples
    --------
    >>> import cgtalg as cg
    >>> from cgtalg.normal.norton import right_incentives
    >>> [str(x) for x in right_incentives(cg.up)]
    ['^*']
    """
    c = canonical_form(g)
    return _distinct([canonical_sum(c, negative(o)) for o in c._right])


def incentives(g: Any) -> tuple[PartizanGame, ...]:
    """All incentives of ``G`` (Left and Right together, each distinct value once; CGSuite's
    ``Incentives``): ``G^L - G`` and ``G - G^R`` over the options of its canonical form."""
    return _distinct([*left_incentives(g), *right_incentives(g)])


def integer_multiple(n: int, u: PartizanGame) -> PartizanGame:
    """The canonical form of ``n`` copies of the canonical form ``u`` (``|n|`` copies of ``-u``
    for ``n < 0``), by doubling: ``O(log |n|)`` canonical sums."""
    base = u if n >= 0 else negative(u)
    k = abs(n)
    total = ZERO
    while k:
        if k & 1:
            total = canonical_sum(total, base)
        k >>= 1
        if k:
            base = canonical_sum(base, base)
    return total


def _integer_value(c: PartizanGame) -> int | None:
    x = number_of(c)
    return int(x) if x is not None and x.denominator == 1 else None


def _product(gc: PartizanGame, uc: PartizanGame) -> PartizanGame:
    """``G.U`` for canonical ``G`` and ``U`` (no positivity check), memoised on id pairs and
    evaluated bottom-up over the followers of ``G`` (no recursion limit)."""
    hit = _NORTON.get((gc._id, uc._id))
    if hit is not None:
        return hit
    steps = _STEPS.get(uc._id)
    if steps is None:
        steps = _distinct([canonical_sum(uc, i) for i in incentives(uc)])
        _STEPS[uc._id] = steps
    minus_steps = [negative(s) for s in steps]
    memo: dict[int, PartizanGame] = {}

    def deps(x: PartizanGame):
        return () if _integer_value(x) is not None else x._options

    def compute(x: PartizanGame) -> PartizanGame:
        found = _NORTON.get((x._id, uc._id))
        if found is not None:
            return found
        n = _integer_value(x)
        if n is not None:
            out = integer_multiple(n, uc)
        else:
            lo = [canonical_sum(memo[o._id], s) for o in x._left for s in steps]
            ro = [canonical_sum(memo[o._id], s) for o in x._right for s in minus_steps]
            out = _from_canonical_options(lo, ro)
        _NORTON[(x._id, uc._id)] = out
        return out

    return memo_post_order(gc, memo, deps, compute)  # type: ignore[arg-type]


def norton_product(g: Any, u: Any) -> PartizanGame:
    """The Norton product ``G.U`` of ``G`` by a positive game ``U`` (canonical form).

    ``G.U`` is ``n`` copies of ``U`` when ``G`` is an integer ``n``, else
    ``{G^L.U + (U + I) | G^R.U - (U + I)}`` with ``I`` over every incentive of ``U``
    (``U^L - U`` and ``U - U^R``); computed on canonical forms.

    Parameters
    ----------
    g : PartizanGame, Game, int or dyadic Fraction
        The multiplier ``G`` (any short game; its value is what counts).
    u : PartizanGame, Game, int or dyadic Fraction
        The unit ``U``, a game ``> 0``.

    Returns
    -------
    PartizanGame
        The canonical form of ``G.U``.

    Raises
    ------
    ArgumentError
        When ``U`` is not positive (for such ``U`` the product is neither order-preserving nor
        a function of the value of ``G``).

    Examples
    --------
    >>> import cgtalg as cg
    >>> from cgtalg.normal.norton import norton_product
    >>> [str(norton_product(x, cg.up)) for x in (6, -4, cg.dyadic(1, 2))]
    ['^6', 'v4', '{^^*|v*}']
    >>> str(norton_product(cg.up, cg.up))
    '{^^*||0|v4}'

    References
    ----------
    Conway, ONAG ch. 15; Winning Ways ch. 8; Siegel, CGT II.7; CGSuite ``NortonProduct``
    (the examples above are CGSuite's test values).
    """
    gc = canonical_form(as_partizan(g))
    uc = canonical_form(as_partizan(u))
    if not (_le(ZERO, uc) and not _le(uc, ZERO)):
        raise ArgumentError(f"the Norton product G.U needs a positive unit U, and {uc} is not "
                            "> 0 (for such U the product is neither order-preserving nor a "
                            "function of the value of G)")
    return _product(gc, uc)
