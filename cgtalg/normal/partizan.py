"""Normal-play values of short partizan forms: comparison, canonical forms, numbers, stops,
thermographs, cooling and atomic weight.

Everything here is a property of the *value* of a :class:`~cgtalg.core.partizan.PartizanGame`
(its equivalence class under ``G = H iff G - H is a second-player win``), computed on forms:

- :func:`le` — ``G <= H`` iff no ``G^L >= H`` and no ``H^R <= G`` (ONAG ch. 1; Siegel CGT
  II.1), memoised on id pairs and evaluated with an explicit stack (no recursion limit);
  :func:`compare` gives one of ``'='``, ``'<'``, ``'>'``, ``'||'``; :func:`outcome` the outcome
  class ``'L'``, ``'R'``, ``'P'`` or ``'N'``.
- :func:`canonical_form` — the unique smallest form of the value: dominated options removed and
  reversible ones bypassed (ONAG ch. 10; Siegel CGT II.2). It is an evaluator of the generic
  fold (:mod:`cgtalg.core.fold`) with an ``add`` rule, so a form built as ``A + B`` is
  canonicalised from the canonical forms of ``A`` and ``B`` (number translation, Siegel CGT
  II.3, skips the moves in a number component).
- :func:`is_number`, :func:`number_value` (the simplicity rule: ONAG ch. 2, Siegel CGT II.3),
  :func:`is_infinitesimal`, :func:`is_all_small` (Winning Ways ch. 8; Siegel CGT II.7).
- :func:`left_stop`, :func:`right_stop`, :func:`mean`, :func:`temperature`,
  :func:`thermograph` (exact, with Fraction breakpoints), :func:`cool` (Winning Ways ch. 6;
  Siegel CGT II.5). Temperatures follow Siegel and CGSuite: cooling is defined for
  ``t > -1``, so a number ``m/2^k`` (``k >= 1``) has temperature ``-1/2^k`` and an integer
  ``-1``; every other game has temperature ``>= 0``.
- :func:`atomic_weight` of all-small games (Winning Ways ch. 8; Siegel CGT II.7), including
  the "eccentric" case where the first estimate is an integer and the game is compared with
  a remote star.

Stops, thermographs and cooling live in :mod:`cgtalg.normal.thermography`, infinitesimals and
atomic weight in :mod:`cgtalg.normal.atomic_weight`; their names are re-exported here.

References: Conway, *On Numbers and Games* (ONAG); Berlekamp, Conway and Guy, *Winning Ways*
(WW); Siegel, *Combinatorial Game Theory* (CGT), ch. II.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Iterable, Sequence

from cgtalg.core.fold import fold, memo_post_order
from cgtalg.core.game import WALK_LIMIT
from cgtalg.core.partizan import (INTEGER_LIMIT, ZERO, PartizanGame, as_partizan, dyadic, integer,
                                  nimber, partizan_evaluator, pgame)
from cgtalg.errors import ComputationLimitError

__all__ = [
    "le",
    "compare",
    "equal",
    "outcome",
    "canonical_form",
    "canonical_sum",
    "is_canonical",
    "is_number",
    "number_value",
    "number_form",
    "simplest_number",
    "nimber_value",
    "is_infinitesimal",
    "is_all_small",
    "left_stop",
    "right_stop",
    "mean",
    "temperature",
    "thermograph",
    "Thermograph",
    "cool",
    "atomic_weight",
    "uptimal_parts",
    "up_nth",
    "up_bracket",
    "higher_uptimal_parts",
    "uptimal",
    "clear_caches",
]

# -- caches (process-local, keyed on hash-cons ids) ------------------------------------------
#: (G.id << 32 | H.id) -> G <= H (ids stay below 2**32)
_LE: dict[int, bool] = {}
#: id -> the number a form *is* (the canonical form of that number), or None
_NUMVAL: dict[int, Fraction | None] = {}
#: number -> its canonical form
_NUMFORM: dict[Fraction, PartizanGame] = {}
#: id -> n when the form is the canonical nimber *n, else None
_NIMVAL: dict[int, int | None] = {}
#: canonical sums memoised on (smaller id, larger id)
_CSUM: dict[tuple[int, int], PartizanGame] = {}


def clear_caches() -> None:
    """Forget memoised comparisons, canonical forms, sums and thermographs (forms themselves
    stay in the hash-cons table)."""
    from cgtalg.normal import atomic_weight as aw, thermography as th

    for cache in (_LE, _CSUM, _FSTOPS, th._COOL):
        cache.clear()
    for ev in (_CANON, th._STOPS, th._THERMO, aw._AW, aw._ALL_SMALL, aw._FAR_STAR):
        ev.cache.clear()


# -- numbers -------------------------------------------------------------------------------
def simplest_number(lo: Fraction | int | None, hi: Fraction | int | None) -> Fraction:
    """The simplest dyadic rational strictly between ``lo`` and ``hi`` (``None``: unbounded):
    the integer of least absolute value if there is one, else the one of least denominator
    (ONAG ch. 2; Siegel CGT II.3, the simplicity theorem).

    >>> from cgtalg.normal.partizan import simplest_number
    >>> simplest_number(0, 1), simplest_number(-3, None), simplest_number(1, 2)
    (Fraction(1, 2), Fraction(0, 1), Fraction(3, 2))
    """
    if lo is not None and hi is not None and lo >= hi:
        raise ValueError(f"no number strictly between {lo} and {hi}")
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
    return () if len(g._left) > 1 or len(g._right) > 1 else g._options


def _number_compute(g: PartizanGame) -> Fraction | None:
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


def _number_of(g: PartizanGame) -> Fraction | None:
    """The number ``g`` *is* (``g`` is literally the canonical form of that number), else None."""
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


def _nim_of(g: PartizanGame) -> int | None:
    """``n`` when ``g`` is literally the canonical form ``*n``, else None."""
    try:
        return _NIMVAL[g._id]
    except KeyError:
        return memo_post_order(g, _NIMVAL, _nim_deps, _nim_compute)  # type: ignore[arg-type]


# -- comparison ------------------------------------------------------------------------------
def _le(g: PartizanGame, h: PartizanGame) -> bool:
    """``g <= h`` for forms (memoised on id pairs, explicit stack, short-circuiting).

    Shortcuts for canonical forms whose stops are known (``_FSTOPS``): ``G <= H`` needs
    ``LS(G) <= LS(H)`` and ``RS(G) <= RS(H)``, and ``RS(H) > LS(G)`` gives ``G < H``
    (stops are monotone and ``RS(G) + RS(H) <= RS(G + H)``; Siegel CGT II.4)."""
    if g is h:
        return True
    memo = _LE
    root = (g._id << 32) | h._id
    hit = memo.get(root)
    if hit is not None:
        return hit
    numval = _NUMVAL
    stops = _FSTOPS
    stack: list[tuple[PartizanGame, PartizanGame]] = [(g, h)]
    while stack:
        x, y = stack[-1]
        xi, yi = x._id, y._id
        key = (xi << 32) | yi
        if key in memo:
            stack.pop()
            continue
        sx = stops.get(xi)
        if sx is not None:
            sy = stops.get(yi)
            if sy is not None:
                if sx[0] > sy[0] or sx[1] > sy[1]:
                    memo[key] = False
                    stack.pop()
                    continue
                if sy[1] > sx[0]:
                    memo[key] = True
                    stack.pop()
                    continue
                xv = numval.get(xi)
                if xv is not None:
                    yv = numval.get(yi)
                    if yv is not None:
                        memo[key] = xv <= yv
                        stack.pop()
                        continue
        result = True
        pending: tuple[PartizanGame, PartizanGame] | None = None
        # x <= y fails if some x^L >= y, i.e. y <= x^L
        for xl in x._left:
            if xl is y:
                result = False
                break
            v = memo.get((yi << 32) | xl._id)
            if v is None:
                pending = (y, xl)
                break
            if v:
                result = False
                break
        if result and pending is None:
            # ... or if some y^R <= x
            for yr in y._right:
                if yr is x:
                    result = False
                    break
                v = memo.get((yr._id << 32) | xi)
                if v is None:
                    pending = (yr, x)
                    break
                if v:
                    result = False
                    break
        if result and pending is not None:
            stack.append(pending)
            continue
        memo[key] = result
        stack.pop()
    return memo[root]


def le(g: Any, h: Any) -> bool:
    """``G <= H`` in normal play: no ``G^L >= H`` and no ``H^R <= G`` (ONAG ch. 1; Siegel CGT
    II.1). Memoised on id pairs; evaluated iteratively, so forms of any depth compare.

    Parameters
    ----------
    g, h : PartizanGame, Game, int or dyadic Fraction
        Forms (impartial forms and numbers are embedded).

    Examples
    --------
    >>> import cgtalg as cg
    >>> cg.partizan_le(cg.up, cg.parse("{0 | *}")), cg.partizan_le(cg.nimber(1), 0)
    (True, False)
    """
    return _le(as_partizan(g), as_partizan(h))


def compare(g: Any, h: Any) -> str:
    """``'='``, ``'<'``, ``'>'`` or ``'||'`` (confused: neither ``G <= H`` nor ``H <= G``).

    >>> import cgtalg as cg
    >>> [cg.partizan_compare(cg.up, x) for x in (0, cg.nimber(1), cg.dyadic(1, 2))]
    ['>', '||', '<']
    """
    a, b = as_partizan(g), as_partizan(h)
    x, y = _le(a, b), _le(b, a)
    return "=" if x and y else "<" if x else ">" if y else "||"


def equal(g: Any, h: Any) -> bool:
    """Equality of values: ``G <= H`` and ``H <= G`` (identity of forms is ``G is H``)."""
    a, b = as_partizan(g), as_partizan(h)
    return _le(a, b) and _le(b, a)


def outcome(g: Any) -> str:
    """Normal-play outcome class: ``'L'`` (G > 0, Left wins), ``'R'`` (G < 0), ``'P'``
    (G = 0, the second player wins) or ``'N'`` (G || 0, the first player wins).

    >>> import cgtalg as cg
    >>> [cg.partizan_outcome(x) for x in (cg.up, cg.down, cg.nimber(0), cg.nimber(1))]
    ['L', 'R', 'P', 'N']
    """
    x = as_partizan(g)
    ge0, le0 = _le(ZERO, x), _le(x, ZERO)
    return "P" if ge0 and le0 else "L" if ge0 else "R" if le0 else "N"


# -- canonical forms ---------------------------------------------------------------------------
def _form(left: Iterable[PartizanGame], right: Iterable[PartizanGame]) -> PartizanGame:
    lo = tuple(sorted({o._id: o for o in left}.values(), key=lambda o: o._id))
    ro = tuple(sorted({o._id: o for o in right}.values(), key=lambda o: o._id))
    return PartizanGame._make(lo, ro)


def _undominated(opts: list[PartizanGame], left: bool) -> list[PartizanGame]:
    """Options not dominated by another (Left keeps the maximal ones, Right the minimal);
    the options are canonical forms, so distinct ones have distinct values."""
    if len(opts) <= 1:
        return opts
    keep: list[PartizanGame] = []
    for i, x in enumerate(opts):
        dominated = False
        for j, y in enumerate(opts):
            if i != j and (_le(x, y) if left else _le(y, x)):
                dominated = True
                break
        if not dominated:
            keep.append(x)
    return keep


def _bypass_reversible(options: list[PartizanGame], g0: PartizanGame, left: bool) -> tuple[list[PartizanGame], bool]:
    """Replace each reversible option by the options it reverses through (ONAG ch. 10; Siegel,
    CGT II.2): a Left option x reverses through x^R when x^R ≤ G, and is replaced by the Left
    options of that x^R; a Right option y through y^L ≥ G, replaced by y^L's Right options.
    Returns the new options and whether any option was bypassed."""
    out: list[PartizanGame] = []
    changed = False
    for x in options:
        through = x._right if left else x._left
        rev = next((t for t in through if (_le(t, g0) if left else _le(g0, t))), None)
        if rev is None:
            out.append(x)
        else:
            out.extend(rev._left if left else rev._right)
            changed = True
    return out, changed


def _from_canonical_options(lv: Sequence[PartizanGame], rv: Sequence[PartizanGame]) -> PartizanGame:
    """The canonical form of ``{lv | rv}`` whose options are canonical forms: dominated options
    removed and reversible ones bypassed until neither remains (Siegel CGT II.2)."""
    lo = list({o._id: o for o in lv}.values())
    ro = list({o._id: o for o in rv}.values())
    # numbers only: the simplicity rule, or a hot {a | b} with a >= b (already canonical)
    lnum = [_number_of(o) for o in lo]
    rnum = [_number_of(o) for o in ro]
    if None not in lnum and None not in rnum:
        a = max(lnum) if lnum else None  # type: ignore[type-var]
        b = min(rnum) if rnum else None  # type: ignore[type-var]
        if a is None or b is None or a < b:
            return _with_stops(number_form(simplest_number(a, b)))
        return _with_stops(PartizanGame._make((lo[lnum.index(a)],), (ro[rnum.index(b)],)))
    # nimbers only, the same on both sides: the mex (the impartial case)
    if len(lo) == len(ro):
        ln = {_nim_of(o) for o in lo}
        if None not in ln and ln == {_nim_of(o) for o in ro}:
            n = 0
            while n in ln:
                n += 1
            return _with_stops(nimber(n))
    lo = _undominated(lo, True)
    ro = _undominated(ro, False)
    g0 = _form(lo, ro)  # equal in value to the game throughout
    while True:
        new_lo, bypassed_l = _bypass_reversible(lo, g0, True)
        new_ro, bypassed_r = _bypass_reversible(ro, g0, False)
        changed = bypassed_l or bypassed_r
        if not changed:
            break
        lo = _undominated(list({o._id: o for o in new_lo}.values()), True)
        ro = _undominated(list({o._id: o for o in new_ro}.values()), False)
    return _with_stops(_form(lo, ro))


def _with_stops(c: PartizanGame) -> PartizanGame:
    """``c`` (canonical), with its stops recorded for the comparison shortcuts of :func:`_le`
    (as floats, when they are exact: dyadic rationals of at most 53 significant bits)."""
    if c._id not in _FSTOPS:
        from cgtalg.normal.thermography import _STOPS

        ls, rs = fold(c, _STOPS)
        fl, fr = float(ls), float(rs)
        if fl == ls and fr == rs:
            _FSTOPS[c._id] = (fl, fr)
    return c


#: id -> (left stop, right stop) as exact floats, for canonical forms (see :func:`_le`)
_FSTOPS: dict[int, tuple[float, float]] = {}


def canonical_sum(a: PartizanGame, b: PartizanGame) -> PartizanGame:
    """The canonical form of ``a + b`` for canonical forms ``a`` and ``b`` (memoised on id
    pairs, iterative). A number component contributes no moves (number translation, Siegel
    CGT II.3: ``G + x = {G^L + x | G^R + x}`` when ``G`` is not a number)."""
    if a.is_zero:
        return b
    if b.is_zero:
        return a

    def key(x: PartizanGame, y: PartizanGame) -> tuple[int, int]:
        return (x._id, y._id) if x._id <= y._id else (y._id, x._id)

    memo = _CSUM
    root = key(a, b)
    hit = memo.get(root)
    if hit is not None:
        return hit
    stack = [(a, b)]
    while stack:
        x, y = stack[-1]
        k = key(x, y)
        if k in memo:
            stack.pop()
            continue
        if x.is_zero or y.is_zero:
            memo[k] = y if x.is_zero else x
            stack.pop()
            continue
        xn, yn = _number_of(x), _number_of(y)
        if xn is not None and yn is not None:
            memo[k] = number_form(xn + yn)
            stack.pop()
            continue
        lpairs: list[tuple[PartizanGame, PartizanGame]] = []
        rpairs: list[tuple[PartizanGame, PartizanGame]] = []
        if xn is None:
            lpairs += [(o, y) for o in x._left]
            rpairs += [(o, y) for o in x._right]
        if yn is None:
            lpairs += [(x, o) for o in y._left]
            rpairs += [(x, o) for o in y._right]
        pending = [p for p in lpairs + rpairs if key(*p) not in memo]
        if pending:
            stack.extend(pending)
            continue
        stack.pop()
        memo[k] = _from_canonical_options([memo[key(*p)] for p in lpairs],
                                          [memo[key(*p)] for p in rpairs])
    return memo[root]


@partizan_evaluator("partizan_canonical")
def _CANON(g: PartizanGame, lv: Sequence[PartizanGame], rv: Sequence[PartizanGame]) -> PartizanGame:
    return _from_canonical_options(lv, rv)


_CANON.add = canonical_sum


def canonical_form(g: Any) -> PartizanGame:
    """The canonical form of ``G``: the unique form of its value with no dominated and no
    reversible options (ONAG ch. 10; Siegel CGT II.2). Two games are equal iff their canonical
    forms are identical (``is``).

    Computed bottom-up by the generic fold (memoised on ids); a form built as a sum is
    canonicalised from the canonical forms of its parts.

    Examples
    --------
    >>> import cgtalg as cg
    >>> G = cg.parse("{0, * | 0}")          # up-star, written with both Left options
    >>> str(cg.partizan_canonical(G)), cg.partizan_canonical(cg.up + cg.nimber(1)) is cg.partizan_canonical(G)
    ('^*', True)
    >>> str(cg.partizan_canonical(cg.parse("{1 | 2}")))
    '3/2'
    """
    return fold(as_partizan(g), _CANON)


def is_canonical(g: Any) -> bool:
    """True when the form ``G`` is its own canonical form."""
    x = as_partizan(g)
    return canonical_form(x) is x


# -- numbers and nimbers as values ---------------------------------------------------------------
def number_value(g: Any) -> Fraction | None:
    """The number ``G`` equals (a dyadic :class:`~fractions.Fraction`), or None when ``G`` is
    not a number. By the simplicity rule, ``{G^L | G^R}`` with number options and every
    ``G^L < G^R`` is the simplest number between them (ONAG ch. 2; Siegel CGT II.3).

    >>> import cgtalg as cg
    >>> cg.number_value(cg.parse("{0 | 1}")), cg.number_value(cg.parse("{1 | 0}"))
    (Fraction(1, 2), None)
    """
    return _number_of(canonical_form(g))


def is_number(g: Any) -> bool:
    """True when ``G`` equals a (dyadic) number."""
    return number_value(g) is not None


def nimber_value(g: Any) -> int | None:
    """``n`` when ``G = *n``, else None."""
    return _nim_of(canonical_form(g))


# -- uptimals: numbers plus multiples of up plus a nimber ----------------------------------------
_NUS: dict[tuple[Fraction, int, int], PartizanGame] = {}
_NUSVAL: dict[int, tuple[Fraction, int, int] | None] = {}


def uptimal(x: Fraction | int, ups: int, star: int) -> PartizanGame:
    """The canonical form of ``x + ups.↑ + *star`` (``x`` dyadic, ``ups`` any int, ``star``
    >= 0), built directly (Siegel CGT II.4; WW ch. 3):
    ``x + n.↑ + *m = {x | x + (n-1).↑ + *(m^1)}`` for ``n >= 1``, except
    ``x + ↑* = {x, x* | x}``; negative multiples by symmetry, ``x + *m = {x + *k | x + *k}``.

    >>> import cgtalg as cg
    >>> from cgtalg.normal.partizan import uptimal
    >>> uptimal(0, 1, 0) is cg.up, str(uptimal(0, 2, 1)), str(uptimal(-1, -3, 2))
    (True, '^^*', '-1v3*2')
    """
    q = Fraction(x)
    if isinstance(ups, bool) or not isinstance(ups, int) or isinstance(star, bool) or not isinstance(star, int) or star < 0:
        raise ValueError(f"uptimal() needs ints ups and star >= 0, got {ups!r}, {star!r}")
    if abs(ups) > UPTIMAL_LIMIT:
        raise ComputationLimitError(f"{ups} ups: multiples beyond {UPTIMAL_LIMIT} are refused "
                                    "(cgtalg.normal.partizan.UPTIMAL_LIMIT)")
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
                f = _form([base, s1], [base]) if sign > 0 else _form([base], [base, s1])
            elif sign > 0:
                f = _form([base], [below])
            else:
                f = _form([below], [base])
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
                f"{_fraction_text(q)}*{k} as a partizan form has {k * (k + 1)} option links, more "
                "than cgtalg.core.game.WALK_LIMIT")
        stars = [number_form(q)]
        for j in range(1, k + 1):
            sj = _NUS.get((q, 0, j))
            if sj is None:
                sj = _form(stars, stars)
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


#: the largest n for which ^<n>, ^[n] and their negatives are recognised when printing
HIGHER_UP_MAX = 8
_UPNTH: dict[int, PartizanGame] = {}
_UPBRACKET: dict[int, PartizanGame] = {}
_HIGHER: dict[int, tuple[str, int]] = {}         # canonical id -> ("<" or "[", signed n)
_HIGHER_OF: dict[int, tuple[Fraction, str, int, int] | None] = {}


def up_nth(n: int) -> PartizanGame:
    """``↑^n`` (CGSuite ``^<n>``, Conway's up-nth): ``↑^1 = ↑`` and ``↑^(n+1) = {0 | ↓^{→n} *}``
    where ``↑^{→n} = ↑ + ↑^2 + ... + ↑^n`` is CGSuite's ``^[n]`` (:func:`up_bracket`; Siegel
    CGT II.7; CGSuite reads ``{0|v*}`` as ``^<2>``)."""
    if n < 1:
        raise ValueError(f"up_nth needs n >= 1, got {n}")
    from cgtalg.core.partizan import up

    if n == 1:
        return up
    if n not in _UPNTH:
        _UPNTH[n] = canonical_form(pgame([ZERO], [canonical_sum(-up_bracket(n - 1), nimber(1))]))
    return _UPNTH[n]


def up_bracket(n: int) -> PartizanGame:
    """CGSuite's ``^[n]``: ``{0|*||*|...|*}`` with ``n`` levels, ``^[1] = ↑`` and
    ``^[n+1] = {^[n] | *}`` (CGSuite's CanonicalShortGameTestCase prints
    ``{0|*||*|||*||||*}`` as ``^[4]``)."""
    if n < 1:
        raise ValueError(f"up_bracket needs n >= 1, got {n}")
    from cgtalg.core.partizan import up

    if n not in _UPBRACKET:
        g = up
        for k in range(1, n):
            g = _UPBRACKET.get(k + 1) or canonical_form(pgame([g], [nimber(1)]))
            _UPBRACKET[k + 1] = g
        _UPBRACKET[1] = up
    return _UPBRACKET[n]


def _higher_table() -> dict[int, tuple[str, int]]:
    if not _HIGHER:
        for n in range(2, HIGHER_UP_MAX + 1):
            for kind, g in (("<", up_nth(n)), ("[", up_bracket(n))):
                _HIGHER.setdefault(g._id, (kind, n))
                _HIGHER.setdefault((-g)._id, (kind, -n))
    return _HIGHER


def higher_uptimal_parts(g: PartizanGame) -> tuple[Fraction, str, int, int] | None:
    """``(x, kind, n, m)`` when the canonical form ``g`` is ``x + ^<n> + *m`` (kind ``"<"``) or
    ``x + ^[n] + *m`` (kind ``"["``), ``n`` negative for ``v<|n|>`` / ``v[|n|]``, with
    ``2 <= |n| <=`` :data:`HIGHER_UP_MAX` and ``m`` in 0..3; else None. Used to print such
    values as CGSuite does (``3/4v[3]*``)."""
    if g._id in _HIGHER_OF:
        return _HIGHER_OF[g._id]
    res = None
    if (g._birthday <= 2 * HIGHER_UP_MAX + 4 and uptimal_parts(g) is None and _number_of(g) is None
            and canonical_form(g) is g):
        from cgtalg.normal.thermography import left_stop, right_stop

        x = left_stop(g)
        if x == right_stop(g):
            table = _higher_table()
            h = canonical_sum(g, number_form(-x)) if x else g
            for m in range(4):
                k = canonical_sum(h, nimber(m)) if m else h
                if k._id in table:
                    kind, n = table[k._id]
                    res = (x, kind, n, m)
                    break
    _HIGHER_OF[g._id] = res
    return res


def _uptimal_deps(g: PartizanGame) -> Sequence[PartizanGame]:
    if _number_of(g) is not None:
        return ()
    lo, ro = g._left, g._right
    if lo == ro:
        return lo
    if len(lo) == 1 and len(ro) == 1:
        return (ro[0],) if _number_of(lo[0]) is not None else (lo[0],) if _number_of(ro[0]) is not None else ()
    return ()


def _uptimal_guess(g: PartizanGame) -> tuple[Fraction, int, int] | None:
    v = _number_of(g)
    if v is not None:
        return (v, 0, 0)
    guess: tuple[Fraction, int, int] | None = None
    lo, ro = g._left, g._right
    if lo == ro and lo:
        parts = [_NUSVAL[o._id] for o in lo]
        if None not in parts and len({p[0] for p in parts}) == 1 and all(p[1] == 0 for p in parts):  # type: ignore[index]
            guess = (parts[0][0], 0, len(parts))  # type: ignore[index]
    elif len(lo) == 1 and len(ro) == 1:
        a, b = lo[0], ro[0]
        xa, xb = _number_of(a), _number_of(b)
        if xa is not None and xb is None:
            p = _NUSVAL.get(b._id)
            if p is not None and p[0] == xa and p[1] >= 0:
                guess = (xa, p[1] + 1, p[2] ^ 1)
        elif xb is not None and xa is None:
            p = _NUSVAL.get(a._id)
            if p is not None and p[0] == xb and p[1] <= 0:
                guess = (xb, p[1] - 1, p[2] ^ 1)
    elif len(lo) == 2 and len(ro) == 1:
        x = _number_of(ro[0])
        if x is not None:
            guess = (x, 1, 1)
    elif len(lo) == 1 and len(ro) == 2:
        x = _number_of(lo[0])
        if x is not None:
            guess = (x, -1, 1)
    if guess is None or abs(guess[1]) > 100_000:
        return None
    return guess if uptimal(*guess) is g else None


def _fraction_text(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


# Stops, thermographs and cooling (cgtalg.normal.thermography) and atomic weights
# (cgtalg.normal.atomic_weight) are their own modules; their names are re-exported here so
# that this module stays the one place for normal-play values.
from cgtalg.normal.thermography import (Thermograph, cool, left_stop, mean,  # noqa: E402
                                        right_stop, temperature, thermograph)
from cgtalg.normal.atomic_weight import atomic_weight, is_all_small, is_infinitesimal  # noqa: E402
