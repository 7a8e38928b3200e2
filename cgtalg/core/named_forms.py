"""Forms that have names: numbers, nimbers and uptimals, built directly and recognised.

A short partizan form *is* a number ``x`` when it is literally the canonical form of ``x``
(``1/2 = {0 | 1}``), a nimber ``*n`` when it is literally ``{*0..*(n-1) | *0..*(n-1)}``, and an
uptimal ``x + n.↑ + *m`` when it is literally that value's canonical form. This module builds
those forms without any comparison (:func:`number_form`, :func:`uptimal`) and recognises them
structurally (:func:`number_of`, :func:`nimber_of`, :func:`uptimal_parts`): what the notation
needs to read ``1/2^*`` and to print a form, and what the normal-play theory
(:mod:`cgtalg.normal.partizan`) starts from. Recognition is of *forms*, not values: use
``number_of(canonical_form(G))`` (that is :func:`cgtalg.normal.partizan.number_value`) for the
number a game equals.

References: Conway, *On Numbers and Games* (ONAG) ch. 0-2; Berlekamp, Conway and Guy, *Winning
Ways* ch. 3; Siegel, *Combinatorial Game Theory* (CGT) II.3-II.4.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Sequence

from cgtalg.caches import register_cache
from cgtalg.core.fold import memo_post_order
from cgtalg.core.game import WALK_LIMIT
from cgtalg.core.partizan import INTEGER_LIMIT, ZERO, PartizanGame, dyadic, integer, make_form, nimber
from cgtalg.errors import ArgumentError, ComputationLimitError, shorten

__all__ = ["simplest_number", "number_form", "number_of", "nimber_of", "uptimal", "uptimal_parts",
           "fraction_text", "UPTIMAL_LIMIT"]

#: id -> the number a form *is* (the canonical form of that number), or None
_NUMVAL: dict[int, Fraction | None] = register_cache("core.named_forms numbers of forms", {})
#: number -> its canonical form
_NUMFORM: dict[Fraction, PartizanGame] = register_cache("core.named_forms number forms", {})
#: id -> n when the form is the canonical nimber *n, else None
_NIMVAL: dict[int, int | None] = register_cache("core.named_forms nimbers of forms", {})


def simplest_number(lo: Fraction | int | None, hi: Fraction | int | None) -> Fraction:
    """The simplest dyadic rational strictly between ``lo`` and ``hi`` (``None``: unbounded):
    the integer of least absolute value if there is one, else the one of least denominator
    (ONAG ch. 2; Siegel CGT II.3, the simplicity theorem).

    >>> from cgtalg.core.named_forms import simplest_number
    >>> simplest_number(0, 1), simplest_number(-3, None), simplest_number(1, 2)
    (Fraction(1, 2), Fraction(0, 1), Fraction(3, 2))
    """
    if lo is not None and hi is not None and lo >= hi:
        raise ArgumentError(f"no number strictly between {shorten(lo)} and {shorten(hi)}")
    if (lo is None or lo < 0) and (hi is None or hi > 0):
        return Fraction(0)
    if lo is not None and lo >= 0:
        n = math.floor(lo) + 1
        if hi is None or n < hi:
            return Fraction(n)
    elif hi is not None and hi <= 0:
        n = math.ceil(hi) - 1
        if lo is None or n > lo:
            return Fraction(n)
    assert lo is not None and hi is not None
    d = 2
    while True:
        m = math.floor(lo * d) + 1
        if Fraction(m, d) < hi:
            return Fraction(m, d)
        d *= 2


def number_form(x: Fraction | int) -> PartizanGame:
    """The canonical form of the dyadic rational ``x`` (memoised; an integer ``n`` is built
    from ``n - 1`` when that is known, so walking up a chain of integers is linear)."""
    q = Fraction(x)
    f = _NUMFORM.get(q)
    if f is not None:
        return f
    if q.denominator == 1:
        n = int(q)
        if abs(n) > INTEGER_LIMIT:
            return integer(n)  # refused with the limit's message
        step = 1 if n > 0 else -1
        k = n
        while k != 0 and Fraction(k) not in _NUMFORM:
            k -= step
        f = _NUMFORM[Fraction(k)] if k else ZERO
        _NUMFORM.setdefault(Fraction(0), ZERO)
        _NUMVAL[ZERO._id] = Fraction(0)
        while k != n:  # build (and register) the chain k -> n
            k += step
            f = PartizanGame._make((f,), ()) if step > 0 else PartizanGame._make((), (f,))
            _NUMFORM[Fraction(k)] = f
            _NUMVAL[f._id] = Fraction(k)
        return f
    f = dyadic(q)
    _NUMFORM[q] = f
    _NUMVAL[f._id] = q
    return f


def _number_expected(x: Fraction) -> tuple[Fraction | None, Fraction | None]:
    """The option values of the canonical form of ``x``."""
    if x.denominator == 1:
        if x > 0:
            return x - 1, None
        if x < 0:
            return None, x + 1
        return None, None
    step = Fraction(1, x.denominator)
    return x - step, x + step


def _number_deps(g: PartizanGame) -> Sequence[PartizanGame]:
    if g._lazy:  # a compact number (its value is known), or a compact sum (never a number form)
        return ()
    return () if len(g._left) > 1 or len(g._right) > 1 else g._options


def _number_compute(g: PartizanGame) -> Fraction | None:
    if g._lazy:
        return g._num
    if len(g._left) > 1 or len(g._right) > 1:
        return None
    a = b = None
    if g._left:
        a = _NUMVAL[g._left[0]._id]
        if a is None:
            return None
    if g._right:
        b = _NUMVAL[g._right[0]._id]
        if b is None:
            return None
    if a is not None and b is not None and a >= b:
        return None
    x = simplest_number(a, b)
    if _number_expected(x) != (a, b):
        return None
    _NUMFORM.setdefault(x, g)
    return x


def number_of(g: PartizanGame) -> Fraction | None:
    """The number ``g`` *is* (``g`` is literally the canonical form of that number), else None."""
    if g._num is not None:  # a compact number (cgtalg.core.partizan_atoms)
        return g._num
    try:
        return _NUMVAL[g._id]
    except KeyError:
        return memo_post_order(g, _NUMVAL, _number_deps, _number_compute)  # type: ignore[arg-type]


def _nim_deps(g: PartizanGame) -> Sequence[PartizanGame]:
    return g._left if g._left == g._right else ()


def _nim_compute(g: PartizanGame) -> int | None:
    if g._left != g._right:
        return None
    vals = set()
    for o in g._left:
        v = _NIMVAL[o._id]
        if v is None:
            return None
        vals.add(v)
    n = len(vals)
    return n if vals == set(range(n)) else None


def nimber_of(g: PartizanGame) -> int | None:
    """``n`` when ``g`` is literally the canonical form ``*n``, else None."""
    try:
        return _NIMVAL[g._id]
    except KeyError:
        return memo_post_order(g, _NIMVAL, _nim_deps, _nim_compute)  # type: ignore[arg-type]



# -- uptimals: numbers plus multiples of up plus a nimber ----------------------------------------
#: (x, ups, star) -> the canonical form of x + ups.↑ + *star
_NUS: dict[tuple[Fraction, int, int], PartizanGame] = register_cache("core.named_forms uptimal forms", {})
#: id -> (x, ups, star) when the form is that uptimal's canonical form, else None
_NUSVAL: dict[int, tuple[Fraction, int, int] | None] = register_cache("core.named_forms uptimals of forms", {})


def uptimal(x: Fraction | int, ups: int, star: int) -> PartizanGame:
    """The canonical form of ``x + ups.↑ + *star`` (``x`` dyadic, ``ups`` any int, ``star``
    >= 0), built directly (Siegel CGT II.4; WW ch. 3):
    ``x + n.↑ + *m = {x | x + (n-1).↑ + *(m^1)}`` for ``n >= 1``, except
    ``x + ↑* = {x, x* | x}``; negative multiples by symmetry, ``x + *m = {x + *k | x + *k}``.

    >>> import cgtalg as cg
    >>> from cgtalg.core.named_forms import uptimal
    >>> uptimal(0, 1, 0) is cg.up, str(uptimal(0, 2, 1)), str(uptimal(-1, -3, 2))
    (True, '^^*', '-1v3*2')
    """
    q = Fraction(x)
    if isinstance(ups, bool) or not isinstance(ups, int) or isinstance(star, bool) or not isinstance(star, int) or star < 0:
        raise ArgumentError(f"uptimal() needs ints ups and star >= 0, got {shorten(ups)}, "
                            f"{shorten(star)}")
    if abs(ups) > UPTIMAL_LIMIT:
        raise ComputationLimitError(f"{ups} ups: multiples beyond {UPTIMAL_LIMIT} are refused "
                                    "(cgtalg.core.named_forms.UPTIMAL_LIMIT)")
    key = (q, ups, star)
    f = _NUS.get(key)
    if f is not None:
        return f
    if ups == 0:
        return _number_star(q, star)
    base = number_form(q)
    sign = 1 if ups > 0 else -1
    # walk i = sign, 2 sign, ..., ups; the nimber part alternates so that it ends at `star`
    parity = abs(ups) & 1
    prev: PartizanGame | None = None
    for j in range(1, abs(ups) + 1):
        i = sign * j
        cur = star ^ parity ^ (j & 1)
        k2 = (q, i, cur)
        f = _NUS.get(k2)
        if f is None:
            below = _number_star(q, cur ^ 1) if j == 1 else prev
            assert below is not None
            if j == 1 and cur == 1:
                s1 = _number_star(q, 1)
                f = make_form([base, s1], [base]) if sign > 0 else make_form([base], [base, s1])
            elif sign > 0:
                f = make_form([base], [below])
            else:
                f = make_form([below], [base])
            _NUS[k2] = f
            _NUSVAL[f._id] = k2
        prev = f
    assert prev is not None
    return prev


#: the largest multiple of up :func:`uptimal` builds (the form has birthday about ``n``)
UPTIMAL_LIMIT = 100_000


def _number_star(q: Fraction, k: int) -> PartizanGame:
    """The canonical form of ``q + *k``: ``{q + *j | q + *j}`` over ``j < k`` (number
    translation of ``*k``); refused past the walk limit like :func:`nimber`."""
    f = _NUS.get((q, 0, k))
    if f is not None:
        return f
    if k == 0:
        f = number_form(q)
    elif q == 0:
        f = nimber(k)
    else:
        if k * (k + 1) // 2 > WALK_LIMIT:
            raise ComputationLimitError(
                f"{fraction_text(q)}*{k} as a partizan form has {k * (k + 1)} option links, more "
                "than cgtalg.core.game.WALK_LIMIT")
        stars = [number_form(q)]
        for j in range(1, k + 1):
            sj = _NUS.get((q, 0, j))
            if sj is None:
                sj = make_form(stars, stars)
                _NUS[(q, 0, j)] = sj
                _NUSVAL[sj._id] = (q, 0, j)
            stars.append(sj)
        f = stars[k]
    _NUS[(q, 0, k)] = f
    if k:
        _NUSVAL[f._id] = (q, 0, k)
    return f


def uptimal_parts(g: PartizanGame) -> tuple[Fraction, int, int] | None:
    """``(x, n, m)`` when the form ``g`` is literally the canonical form of
    ``x + n.↑ + *m`` (see :func:`uptimal`), else None. A structural test on the form (no
    canonicalisation): use ``uptimal_parts(canonical_form(G))`` for values."""
    try:
        return _NUSVAL[g._id]
    except KeyError:
        return memo_post_order(g, _NUSVAL, _uptimal_deps, _uptimal_guess)  # type: ignore[arg-type]




def _uptimal_deps(g: PartizanGame) -> Sequence[PartizanGame]:
    if g._lazy or number_of(g) is not None:  # (a compact sum is not an uptimal's form)
        return ()
    lo, ro = g._left, g._right
    if lo == ro:
        return lo
    if len(lo) == 1 and len(ro) == 1:
        return (ro[0],) if number_of(lo[0]) is not None else (lo[0],) if number_of(ro[0]) is not None else ()
    return ()


def _uptimal_guess(g: PartizanGame) -> tuple[Fraction, int, int] | None:
    v = number_of(g)
    if v is not None:
        return (v, 0, 0)
    if g._lazy:
        return None
    guess: tuple[Fraction, int, int] | None = None
    lo, ro = g._left, g._right
    if lo == ro and lo:
        parts = [_NUSVAL[o._id] for o in lo]
        if None not in parts and len({p[0] for p in parts}) == 1 and all(p[1] == 0 for p in parts):  # type: ignore[index]
            guess = (parts[0][0], 0, len(parts))  # type: ignore[index]
    elif len(lo) == 1 and len(ro) == 1:
        a, b = lo[0], ro[0]
        xa, xb = number_of(a), number_of(b)
        if xa is not None and xb is None:
            p = _NUSVAL.get(b._id)
            if p is not None and p[0] == xa and p[1] >= 0:
                guess = (xa, p[1] + 1, p[2] ^ 1)
        elif xb is not None and xa is None:
            p = _NUSVAL.get(a._id)
            if p is not None and p[0] == xb and p[1] <= 0:
                guess = (xb, p[1] - 1, p[2] ^ 1)
    elif len(lo) == 2 and len(ro) == 1:
        x = number_of(ro[0])
        if x is not None:
            guess = (x, 1, 1)
    elif len(lo) == 1 and len(ro) == 2:
        x = number_of(lo[0])
        if x is not None:
            guess = (x, -1, 1)
    if guess is None or abs(guess[1]) > 100_000:
        return None
    return guess if uptimal(*guess) is g else None


def fraction_text(x: Fraction) -> str:
    """``x`` as CGSuite writes a number: ``3`` or ``-3/4`` (no ``Fraction(...)``)."""
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


