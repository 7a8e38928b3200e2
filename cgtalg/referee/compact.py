"""The referee's compact numbers: a number too large for a literal tree, kept whole.

cgtalg keeps a number whose canonical form would be a tree of birthday above 100,000 (or with a
denominator above ``2^64``) compact, and its certificates write it as the row
``{"number": "m/2^k"}``. The referee reads such a number as a :class:`Num`: the canonical form of
the number ``x`` (ONAG ch. 0: ``n = {n-1 | }``, ``-n = { | -(n-1)}``,
``m/2^k = {(m-1)/2^k | (m+1)/2^k}``), whose options are made one level at a time when asked for,
never walked as a chain.

The normal-play order of forms holding such numbers is decided from the definition itself
(Siegel, CGT II.1): ``G <= H`` iff no ``G^L >= H`` and no ``H^R <= G``, where two numbers compare
by their values (the order of the canonical forms of numbers is the order of the numbers, ONAG
ch. 1). Each step of the definition descends in ``G`` or in ``H``, so a long number is met one
level at a time, and only while the other side still has structure: a number against a number
ends the descent. The game text ``x`` followed by ups and stars (``1000000^``) is read by number
translation (Siegel, CGT II.3: ``G + x = {G^L + x | G^R + x}`` for ``G`` not a number). Misère
play and literal sums of compact numbers are refused (:class:`~cgtalg.referee.games.ReadError`):
they need the whole tree.

Standard library only; nothing of cgtalg's searches (the import contract of the referee).
"""

from __future__ import annotations

from fractions import Fraction

from cgtalg.referee import games as gm

__all__ = ["Num", "compact", "number_value", "has_compact", "le", "translate"]

_NUMS: dict[Fraction, "Num"] = {}


class Num(gm.Form):
    """The canonical form of the number ``num``, kept whole (options made when asked for)."""

    __slots__ = ("num", "_opts")
    compact = True

    def _options(self) -> tuple[tuple[gm.Form, ...], tuple[gm.Form, ...]]:
        try:
            return self._opts
        except AttributeError:
            x, d = self.num, self.num.denominator
            if d == 1:
                lo = (gm.number(x - 1),) if x > 0 else ()
                ro = (gm.number(x + 1),) if x < 0 else ()
            else:
                lo, ro = (gm.number(x - Fraction(1, d)),), (gm.number(x + Fraction(1, d)),)
            self._opts = (lo, ro)
            return self._opts

    @property  # type: ignore[override]
    def left(self) -> tuple[gm.Form, ...]:
        return self._options()[0]

    @property  # type: ignore[override]
    def right(self) -> tuple[gm.Form, ...]:
        return self._options()[1]


def compact(x: Fraction) -> Num:
    """The number ``x`` kept whole (one object per value)."""
    found = _NUMS.get(x)
    if found is None:
        found = object.__new__(Num)
        found.num = x
        found.id = len(gm._FORMS)
        d = x.denominator
        found.birthday = abs(x.numerator) if d == 1 else abs(x.numerator) // d + d.bit_length()
        gm._FORMS.append(found)
        gm._NAMES[found.id] = str(x.numerator) if d == 1 else f"{x.numerator}/{d}"
        _NUMS[x] = found
    return found


_VALUE: dict[int, Fraction | None] = {}


def number_value(g: gm.Form) -> Fraction | None:
    """The number ``g`` literally is (a compact number, or the canonical form of a number:
    ``{ | } = 0``, ``{n | } = n + 1`` for an integer ``n >= 0``, ``{ | n} = n - 1`` for ``n <= 0``,
    ``{a | b} = (a + b)/2`` when ``b - a = 2/d`` and ``d`` is the denominator of ``(a + b)/2``,
    ``d >= 2``), else None."""
    if g.compact:
        return g.num  # type: ignore[attr-defined]
    if g.id in _VALUE:
        return _VALUE[g.id]
    order = [x for x in gm.subpositions(g) if len(x.left) <= 1 and len(x.right) <= 1]
    for x in order:
        if x.id in _VALUE:
            continue
        a = _VALUE.get(x.left[0].id) if x.left and not x.left[0].compact else (x.left[0].num if x.left else None)
        b = _VALUE.get(x.right[0].id) if x.right and not x.right[0].compact else (x.right[0].num if x.right else None)
        v: Fraction | None = None
        if (x.left and a is None) or (x.right and b is None):
            v = None
        elif a is None and b is None:
            v = Fraction(0)
        elif b is None:
            v = a + 1 if a.denominator == 1 and a >= 0 else None  # type: ignore[union-attr]
        elif a is None:
            v = b - 1 if b.denominator == 1 and b <= 0 else None
        else:
            q = (a + b) / 2
            v = q if q.denominator >= 2 and b - a == Fraction(2, q.denominator) else None
        _VALUE[x.id] = v
    return _VALUE.get(g.id)


def has_compact(*forms: gm.Form) -> bool:
    """Whether a compact number is among the followers of ``forms``."""
    return any(x.compact for x in gm.subpositions(*forms))


_LE: dict[tuple[int, int], bool] = {}


def le(g: gm.Form, h: gm.Form) -> bool:
    """``G <= H`` in normal play from the definition (module doc), for forms holding compact
    numbers; iterative and memoised."""
    stack = [(g, h)]
    while stack:
        x, y = stack[-1]
        key = (x.id, y.id)
        if key in _LE:
            stack.pop()
            continue
        if x is y:
            _LE[key] = True
            stack.pop()
            continue
        xv, yv = number_value(x), number_value(y)
        if xv is not None and yv is not None:
            _LE[key] = xv <= yv
            stack.pop()
            continue
        result, pending = True, None
        for xl in x.left:  # some G^L >= H
            v = _LE.get((y.id, xl.id))
            if v is None:
                pending = (y, xl)
                break
            if v:
                result = False
                break
        if result and pending is None:
            for yr in y.right:  # some H^R <= G
                v = _LE.get((yr.id, x.id))
                if v is None:
                    pending = (yr, x)
                    break
                if v:
                    result = False
                    break
        if result and pending is not None:
            stack.append(pending)
            continue
        _LE[key] = result
        stack.pop()
    return _LE[(g.id, h.id)]


def translate(g: gm.Form, x: Fraction) -> gm.Form:
    """``G + x`` for a number ``x`` and a canonical ``G``: ``G^L + x``, ``G^R + x`` option by
    option (number translation, Siegel CGT II.3), a number option moved to the number ``y + x``."""
    memo: dict[int, gm.Form] = {}
    for y in gm.subpositions(g):
        v = number_value(y)
        if v is not None:
            memo[y.id] = gm.number(v + x)
        else:
            memo[y.id] = gm.form([memo[o.id] for o in y.left], [memo[o.id] for o in y.right])
    return memo[g.id]
