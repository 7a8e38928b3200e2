"""Compact parts of partizan forms: numbers of any size, and the literal sums that hold them.

The canonical form of the integer ``n`` is a chain ``n = {n-1 | }`` of birthday ``|n|``
(ONAG ch. 0), and that of ``m/2^k`` a tree of birthday ``|m|/2^k + k + 1``; a form that holds
the number ``10^12`` cannot hold it as a tree. As CGSuite does with its canonical short games,
a number whose tree would be large is kept *compact*: a :class:`NumberAtom` is the form of the
number ``x`` itself (its options are the canonical options of ``x``, made one level at a time
when something asks for them), made in O(1) for any dyadic rational, and hash-consed like every
form, so the literal form ``{n-1 | }`` built from an atom ``n-1`` *is* the atom ``n``. A literal
sum ``A + B`` of forms that hold atoms is a :class:`LazySum`, made in O(1) too, whose options
``A^L + B, A + B^L | ...`` are made when asked for, and which records its parts
(``sum_parts``), so the normal-play theory adds its parts' values (number translation, Siegel
CGT II.3) and never walks it.

What walks a literal tree (every subposition of a form: misère play, drawing a DAG, a literal
text of the whole tree) refuses a form that holds a compact part, with
:class:`~cgtalg.errors.ComputationLimitError` naming it; the fold of an evaluation
(:func:`cgtalg.core.fold.fold`) uses an evaluation's ``number`` rule for an atom (stops,
canonical forms, thermographs have one) and its ``add`` rule for a lazy sum, and refuses the
evaluations that have neither. So normal-play questions about ``10^6``, ``-1823437481924`` or
``10^6 + ↑`` are answered, and the others are refused by name, never walked for hours.

A number is compact when its tree would have birthday above
:data:`cgtalg.core.partizan.INTEGER_LIMIT` or a denominator above ``2^64``; smaller numbers stay
literal trees, as they always were (so every small form is what it was).

References: Conway, *On Numbers and Games* (ONAG) ch. 0-2; Siegel, *Combinatorial Game Theory*
(CGT) II.3 (number translation and avoidance).
"""

from __future__ import annotations

from fractions import Fraction

from cgtalg import hooks as _hooks
from cgtalg.core import partizan as _partizan
from cgtalg.core.partizan import PartizanGame, _PKEYS, _PSUMS
from cgtalg.core.game import _TABLE, _count_text
from cgtalg.errors import ComputationLimitError

__all__ = ["NumberAtom", "LazySum", "number_atom", "lazy_sum", "number_birthday", "is_compact_number",
           "compact_refusal", "compact_le", "DENOMINATOR_EXPONENT_LIMIT"]

#: literal trees are built for denominators up to 2^this (beyond it a number is an atom)
DENOMINATOR_EXPONENT_LIMIT = 64

# value -> atom (identity: never cleared, as the hash-cons table)
_ATOMS: dict[Fraction, "NumberAtom"] = {}


def number_birthday(q: Fraction) -> int:
    """The birthday of the canonical form of the dyadic rational ``q``: ``|n|`` for an integer,
    ``floor(|q|) + k + 1`` for ``m/2^k`` with ``m`` odd and ``k >= 1`` (ONAG ch. 0)."""
    d = q.denominator
    if d == 1:
        return abs(q.numerator)
    return abs(q.numerator) // d + d.bit_length()  # bit_length of 2^k is k + 1


def is_compact_number(q: Fraction) -> bool:
    """Whether the number ``q`` is kept as an atom (its tree is too large to build)."""
    return number_birthday(q) > _partizan.INTEGER_LIMIT or q.denominator.bit_length() - 1 > DENOMINATOR_EXPONENT_LIMIT


def _number_options(q: Fraction) -> tuple[Fraction | None, Fraction | None]:
    """The values of the Left and Right options of the canonical form of ``q``."""
    d = q.denominator
    if d == 1:
        return (q - 1, None) if q > 0 else (None, q + 1) if q < 0 else (None, None)
    step = Fraction(1, d)
    return q - step, q + step


class NumberAtom(PartizanGame):
    """The canonical form of a dyadic rational kept compact (see the module doc): the form
    itself, whose options are made one level at a time when asked for."""

    __slots__ = ("_num",)
    _lazy = True

    def __getattr__(self, name: str):
        # only reached for an unset slot: the options, made on first use
        if name in ("_left", "_right", "_options"):
            from cgtalg.core.partizan import dyadic

            a, b = _number_options(self._num)
            self._left = (dyadic(a),) if a is not None else ()
            self._right = (dyadic(b),) if b is not None else ()
            self._options = self._left + self._right
            _PKEYS.setdefault((tuple(o._id for o in self._left), tuple(o._id for o in self._right)), self)
            return getattr(self, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")


class LazySum(PartizanGame):
    """The literal sum ``A + B`` of forms that hold compact numbers (see the module doc): its
    options are made when asked for; its parts are its ``sum_parts``."""

    __slots__ = ()
    _lazy = True

    def __getattr__(self, name: str):
        if name in ("_left", "_right", "_options"):
            from cgtalg.core.partizan import partizan_sum

            a, b = self.sum_parts  # type: ignore[misc]
            left = [partizan_sum(x, b) for x in a._left] + [partizan_sum(a, y) for y in b._left]
            right = [partizan_sum(x, b) for x in a._right] + [partizan_sum(a, y) for y in b._right]
            self._left = tuple(sorted({o._id: o for o in left}.values(), key=lambda o: o._id))
            self._right = tuple(sorted({o._id: o for o in right}.values(), key=lambda o: o._id))
            self._options = self._left + self._right
            _PKEYS.setdefault((tuple(o._id for o in self._left), tuple(o._id for o in self._right)), self)
            return getattr(self, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")


def number_atom(q: Fraction) -> NumberAtom:
    """The compact form of the number ``q`` (made once; the same object ever after)."""
    found = _ATOMS.get(q)
    if found is not None:
        return found
    self = object.__new__(NumberAtom)
    self._num = q
    self._heap = None
    self._birthday = number_birthday(q)
    self._id = len(_TABLE.by_id)
    _TABLE.by_id.append(self)  # type: ignore[arg-type]
    _ATOMS[q] = self
    return self


def lazy_sum(a: PartizanGame, b: PartizanGame) -> PartizanGame:
    """The literal sum ``a + b`` kept compact (memoised on the parts' ids, as every sum)."""
    key = (a._id, b._id) if a._id <= b._id else (b._id, a._id)
    found = _PSUMS.get(key)
    if found is not None:
        return found
    self = object.__new__(LazySum)
    self._heap = None
    self._birthday = a._birthday + b._birthday
    self._id = len(_TABLE.by_id)
    _TABLE.by_id.append(self)  # type: ignore[arg-type]
    _TABLE.parts[self._id] = (a._id, b._id)
    _PSUMS[key] = self
    return self


def number_candidate(left: tuple[PartizanGame, ...], right: tuple[PartizanGame, ...]) -> Fraction | None:
    """The number ``q`` when ``{left | right}`` is literally the canonical form of a compact
    number ``q`` whose options are given as atoms or literal numbers, else None (so
    :meth:`PartizanGame._make` gives the atom itself: one form, one object)."""
    if len(left) > 1 or len(right) > 1 or not (left or right):
        return None
    from cgtalg.core.named_forms import number_of, simplest_number

    a = number_of(left[0]) if left else None
    b = number_of(right[0]) if right else None
    if (left and a is None) or (right and b is None) or (a is not None and b is not None and a >= b):
        return None
    q = simplest_number(a, b)
    if _number_options(q) != (a, b) or not is_compact_number(q):
        return None
    return q


def compact_le(g: PartizanGame, h: PartizanGame) -> bool:
    """``G <= H`` where a form holds a compact part (:mod:`cgtalg.core.partizan_atoms`), from the
    definition: a number against a number is settled by their values, and each other step
    descends in ``G`` or in ``H``, so a compact number (whose options are numbers) is met level
    by level only while the other side still has structure. A compact literal sum is replaced
    by its canonical form (the same value, so the same answer; the normal-play theory provides
    it through :data:`cgtalg.hooks.partizan_notation`): its own options would walk the number."""
    if g._num is not None and h._num is not None:
        return g._num <= h._num
    canonical = _hooks.partizan_notation.resolve().canonical_form

    def plain(x: PartizanGame) -> PartizanGame:
        return canonical(x) if x._lazy and x._num is None else x

    memo = _partizan._LE
    a, b = plain(g), plain(h)
    stack: list[tuple[PartizanGame, PartizanGame]] = [(a, b)]
    while stack:
        x, y = stack[-1]
        key = (x._id << 32) | y._id
        if key in memo:
            stack.pop()
            continue
        if x is y:
            memo[key] = True
            stack.pop()
            continue
        xn, yn = _number_value(x), _number_value(y)
        if xn is not None and yn is not None:
            memo[key] = xn <= yn
            stack.pop()
            continue
        result, pending = True, None
        for xl in x._left:  # some x^L >= y
            xl = plain(xl)
            v = memo.get((y._id << 32) | xl._id)
            if v is None:
                pending = (y, xl)
                break
            if v:
                result = False
                break
        if result and pending is None:
            for yr in y._right:  # some y^R <= x
                yr = plain(yr)
                v = memo.get((yr._id << 32) | x._id)
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
    answer = memo[(a._id << 32) | b._id]
    memo[(g._id << 32) | h._id] = answer
    return answer


def _number_value(x: PartizanGame) -> Fraction | None:
    if x._num is not None:
        return x._num
    from cgtalg.core.named_forms import number_of

    return number_of(x)


def compact_refusal(what: str, g: PartizanGame) -> ComputationLimitError:
    """The error for walking the literal tree of a form that holds a compact part."""
    if isinstance(g, NumberAtom):
        part = f"the number {_short_number(g._num)}, whose literal form has birthday {_count_text(g._birthday)}"
    else:
        part = f"a literal sum holding such a number (birthday {_count_text(g._birthday)})"
    return ComputationLimitError(
        f"{what} would walk every subposition of {part}, more than cgtalg.core.partizan.INTEGER_LIMIT = "
        f"{_partizan.INTEGER_LIMIT}; numbers that large are kept compact, and answered by the normal-play questions "
        "(cgtalg.outcome, cgtalg.canonical_form, cgtalg.compare, the stops, temperature and thermograph), "
        "which use the number's value")


def _short_number(q: Fraction) -> str:
    text = str(q)
    return text if len(text) <= 40 else f"{_count_text(q.numerator)}/{_count_text(q.denominator)}"
