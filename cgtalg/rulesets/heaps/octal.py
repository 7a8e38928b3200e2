"""Octal and hexadecimal take-and-break games: codes, moves, cousins, Grundy sequences.

Code notation (Guy & Smith 1956; Winning Ways ch. 4; Flammenkamp's tables)
    ``d0.d1d2...dk``. Digit ``d_t`` says what may happen when ``t`` tokens are removed from
    one heap: bit 1 = allowed when that is the whole heap; bit 2 = allowed leaving one
    nonempty heap; bit 4 = leaving two nonempty heaps; bit 8 (hexadecimal digits) = leaving
    three nonempty heaps. ``d0`` (no token removed) may only use bits 4 and 8: ``4.07`` may
    split a heap in two without removing anything. ``k`` is the index of the last nonzero
    digit. Kayles is ``0.77``, Dawson's Kayles ``0.07``, Dawson's chess ``0.137``, Officers
    ``0.6``.

Text syntax accepted by :class:`TakeAndBreak`
    - octal codes ``0.137``, ``.77`` (``d0 = 0`` may be omitted), ``4.07``;
    - hexadecimal codes with the prefix ``0x`` (or ``hex:``): ``0x0.B``, ``0x0.F7``; digits
      ``0-9`` and ``A-F`` (either case; printed upper case, as CGSuite writes them). An
      octal code never contains 8, 9 or A-F: ``0.8`` is an error, not a hexadecimal code;
    - a repeating tail in brackets at the end: ``0.[3]`` is Nim (``0.333...``), ``0.[7]``,
      ``0.0[3]``.

``str(code)`` is the standard text: ``0`` before the point, trailing zeros dropped, the
repeating tail in its shortest form (``0.3[33]`` prints ``0.[3]``), the ``0x`` prefix only
when some digit exceeds 7 (``0x0.77`` is the octal game ``0.77``). Malformed text raises
:class:`cgtalg.errors.OctalCodeError` naming the offending character and why.

Cousins (seed 001, A. N. Walker's notes; Winning Ways ch. 4): when ``d1`` is even a heap of
one token is terminal, and the game played on heaps one smaller is again a take-and-break
game, the *first cousin*, with ``G_cousin(n) = G(n+1)``. Repeating while ``d1`` is even
gives the *standard form* and the total shift ``s``: ``G(n) = G_std(n - s)`` (``n >= s``).
"""

from __future__ import annotations

import re
from typing import Iterable, Iterator

from cgtalg.core.lazynp import bool_types, int_types, np

from cgtalg.rulesets.protocol import short_repr
from cgtalg.errors import OctalCodeError, RulesetError
from cgtalg.rulesets.heaps.grundy_engine import KernelRules, kernel_array
from cgtalg.rulesets.heaps.base import HeapFacts, HeapRuleset

__all__ = ["TakeAndBreak", "octal", "SubtractionGame", "parse_code", "KAYLES", "DAWSONS_KAYLES"]

_HEX = "0123456789ABCDEF"

#: the code of Kayles
KAYLES = "0.77"
#: the code of Dawson's Kayles
DAWSONS_KAYLES = "0.07"


def parse_code(text: str) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """Parse code text into ``(d0, (d1, ..., dj), tail)`` (``tail`` empty for finite codes).

    Raises
    ------
    OctalCodeError
        With the position of the offending character and the reason.

    Examples
    --------
    >>> parse_code("0.137")
    (0, (1, 3, 7), ())
    >>> parse_code("0x4.0B[3]")
    (4, (0, 11), (3,))
    """
    if not isinstance(text, str):
        raise OctalCodeError(repr(text), None, f"a code must be text such as '0.77', got {type(text).__name__}")
    s = text
    end = len(s.rstrip())
    pos = len(s) - len(s.lstrip())
    if pos >= end:
        raise OctalCodeError(text, None, "empty code: expected a code such as 0.77 or 0x0.B")
    low = s.lower()
    hexa = False
    if low.startswith("0x", pos):
        hexa, pos = True, pos + 2
    elif low.startswith("hex:", pos):
        hexa, pos = True, pos + 4
    kind = "hexadecimal" if hexa else "octal"

    def digit(i: int) -> int:
        ch = s[i]
        if hexa:
            if ch in "0123456789":
                return int(ch)
            if ch.upper() in "ABCDEF":
                return _HEX.index(ch.upper())
            raise OctalCodeError(text, i, f"unexpected character {short_repr(ch)}: hexadecimal digits are 0-9 and A-F")
        if ch in "01234567":
            return int(ch)
        if ch in "89":
            raise OctalCodeError(
                text, i, f"{short_repr(ch)} is not an octal digit (0-7); write hexadecimal codes with the prefix 0x, "
                f"e.g. 0x0.{ch}")
        if ch.upper() in "ABCDEF":
            raise OctalCodeError(
                text, i, f"hexadecimal digit {short_repr(ch)} in an octal code; write hexadecimal codes with the "
                f"prefix 0x, e.g. 0x0.{ch.upper()}")
        if ch == ".":
            raise OctalCodeError(text, i, "a second '.': a code has one point")
        raise OctalCodeError(text, i, f"unexpected character {short_repr(ch)}: {kind} code digits are 0-7"
                             " (or a repeating group in brackets such as 0.[3])")

    d0 = 0
    if pos < end and s[pos] != ".":
        if s[pos] in "[]":
            raise OctalCodeError(text, pos, f"unexpected {short_repr(s[pos])} before the point: a code looks like 0.77")
        d0 = digit(pos)
        if d0 & 3:
            allowed = "0, 4, 8 or C" if hexa else "0 or 4"
            raise OctalCodeError(
                text, pos, f"d0 = {_HEX[d0]} is not allowed: the digit before the point may only be {allowed} "
                "(removing no token must split the heap: bit 4 = into two heaps"
                + (", bit 8 = into three" if hexa else "") + ")")
        pos += 1
    if pos >= end or s[pos] != ".":
        if pos < end and (s[pos].isalnum()):
            raise OctalCodeError(text, pos, f"expected '.' after the digit d0 = {_HEX[d0]}: a code has a single "
                                 "digit before the point, e.g. 0.77 or 4.07")
        raise OctalCodeError(text, pos, "expected '.': a code looks like 0.77")
    pos += 1
    if pos >= end:
        raise OctalCodeError(text, pos, "nothing after the point: expected digits such as 0.77")
    digits: list[int] = []
    tail: list[int] | None = None
    while pos < end:
        ch = s[pos]
        if ch == "[":
            if tail is not None:
                raise OctalCodeError(text, pos, "only one repeating group '[...]' is allowed")
            opened = pos
            pos += 1
            tail = []
            while pos < end and s[pos] != "]":
                if s[pos] == "[":
                    raise OctalCodeError(text, pos, "nested '[': a repeating group holds digits only")
                tail.append(digit(pos))
                pos += 1
            if pos >= end:
                raise OctalCodeError(text, end, f"unbalanced bracket: the '[' at position {opened} is never "
                                     "closed (expected ']')")
            if not tail:
                raise OctalCodeError(text, pos, "empty repeating group '[]': put the repeating digits inside")
            pos += 1
            if pos < end:
                raise OctalCodeError(text, pos, "nothing may follow the repeating group '[...]' at the end")
        elif ch == "]":
            raise OctalCodeError(text, pos, "unbalanced bracket: ']' without a matching '['")
        else:
            digits.append(digit(pos))
            pos += 1
    return d0, tuple(digits), tuple(tail or ())


def _normalise(d0: int, digits: Iterable[int], tail: Iterable[int]) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    digits = list(digits)
    tail = list(tail)
    if tail:
        q = len(tail)
        for p in range(1, q + 1):
            if q % p == 0 and tail == tail[:p] * (q // p):
                tail = tail[:p]
                break
        while digits and digits[-1] == tail[-1]:
            tail = [tail[-1]] + tail[:-1]
            digits.pop()
        if not any(tail):
            tail = []
    if not tail:
        while digits and digits[-1] == 0:
            digits.pop()
    return d0, tuple(digits), tuple(tail)


class TakeAndBreak(HeapRuleset):
    """A take-and-break game given by an octal or hexadecimal code (alias :data:`octal`).

    Parameters
    ----------
    code : str or TakeAndBreak
        Code text (see the module docstring): ``"0.77"``, ``".137"``, ``"4.07"``,
        ``"0x0.B"``, ``"0.[3]"``.

    Attributes
    ----------
    d0 : int
        The digit before the point.
    digits : tuple[int, ...]
        ``d1 .. dj`` (the finite part after the point).
    tail : tuple[int, ...]
        The repeating tail (empty for finite codes).
    name : str
        The standard code text (``str(code)``).

    Raises
    ------
    OctalCodeError
        For malformed text.

    Examples
    --------
    >>> kayles = TakeAndBreak(".77")
    >>> str(kayles), kayles.k
    ('0.77', 2)
    >>> sorted(kayles.moves((4,)))
    [(1, 1), (1, 2), (2,), (3,)]
    >>> kayles.grundy_sequence(12).tolist()
    [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
    """

    #: small heaps' Grundy values are computed in plain Python (:mod:`cgtalg.rulesets.heaps.small_grundy`)
    small_grundy = True

    def __init__(self, code: "str | TakeAndBreak") -> None:
        super().__init__()
        if isinstance(code, TakeAndBreak):
            d0, digits, tail = code.d0, code.digits, code.tail
        else:
            d0, digits, tail = parse_code(code)
        self._set(*_normalise(d0, digits, tail))

    def _set(self, d0: int, digits: tuple[int, ...], tail: tuple[int, ...]) -> None:
        self.d0, self.digits, self.tail = d0, digits, tail
        self._rules_cache: KernelRules | None = None
        self.name = self.code_text

    @classmethod
    def from_digits(cls, d0: int, digits: Iterable[int], tail: Iterable[int] = ()) -> "TakeAndBreak":
        """The code with the given digits (``digits`` = ``d1, d2, ...``).

        Raises
        ------
        OctalCodeError
            If a digit is out of range or ``d0`` uses bits 1 or 2.
        """
        digits, tail = tuple(int(d) for d in digits), tuple(int(d) for d in tail)
        for d in (d0,) + digits + tail:
            if not 0 <= d <= 15:
                raise OctalCodeError(repr((d0, digits, tail)), None, f"digit {d} is not in 0..15")
        if d0 & 3:
            raise OctalCodeError(repr((d0, digits, tail)), None,
                                 f"d0 = {d0} is not allowed: d0 may only use bits 4 and 8")
        self = cls.__new__(cls)
        HeapRuleset.__init__(self)
        self._set(*_normalise(d0, digits, tail))
        return self

    # -- code properties -------------------------------------------------------------------
    @property
    def is_hexadecimal(self) -> bool:
        """True when some digit exceeds 7 (a move may leave three heaps)."""
        return any(d > 7 for d in (self.d0,) + self.digits + self.tail)

    @property
    def is_finite(self) -> bool:
        """True for a code without a repeating tail."""
        return not self.tail

    @property
    def k(self) -> int | None:
        """Index of the last nonzero digit (None for an infinite code)."""
        if self.tail:
            return None
        return len(self.digits)

    @property
    def max_heaps(self) -> int:
        """The most heaps one move may leave in place of one (1, 2 or 3)."""
        bits = 0
        for d in (self.d0,) + self.digits + self.tail:
            bits |= d
        return 3 if bits & 8 else 2 if bits & 4 else 1

    @property
    def facts(self) -> HeapFacts:
        """What the theorems read of the code (:class:`~cgtalg.core.heap_facts.HeapFacts`): its
        moves are a take-and-break code's; ``k`` and ``max_heaps`` as above.

        >>> TakeAndBreak("0x0.B").facts
        HeapFacts(octal_like=True, finite=True, k=1, max_heaps=3)
        """
        return HeapFacts(octal_like=True, finite=self.is_finite, k=self.k, max_heaps=self.max_heaps)

    @property
    def code_text(self) -> str:
        """The standard text of the code (what ``str`` prints)."""
        hexa = self.is_hexadecimal
        body = "".join(_HEX[d] for d in self.digits)
        if self.tail:
            body += "[" + "".join(_HEX[d] for d in self.tail) + "]"
        if not body:
            body = "0"
        return ("0x" if hexa else "") + _HEX[self.d0] + "." + body

    def digit(self, t: int) -> int:
        """The digit ``d_t`` (0 beyond the end of a finite code)."""
        if t < 0:
            return 0
        if t == 0:
            return self.d0
        if t <= len(self.digits):
            return self.digits[t - 1]
        if self.tail:
            return self.tail[(t - len(self.digits) - 1) % len(self.tail)]
        return 0

    def __str__(self) -> str:
        return self.code_text

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code_text!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TakeAndBreak):
            return NotImplemented
        return (self.d0, self.digits, self.tail) == (other.d0, other.digits, other.tail)

    def __hash__(self) -> int:
        return hash(("TakeAndBreak", self.d0, self.digits, self.tail))

    @property
    def sequence_key(self) -> str:
        """Store key of the Grundy sequence: ``"grundy:" + code text`` (shared by equal codes)."""
        return f"grundy:{self.code_text}"

    # -- moves -----------------------------------------------------------------------------
    def heap_options(self, n: int) -> Iterator[tuple[int, ...]]:
        """The options of one heap of ``n`` tokens: tuples of the nonempty heaps left.

        Examples
        --------
        >>> list(TakeAndBreak("0.137").heap_options(4))
        [(2,), (1,)]
        """
        top = n if not self.is_finite else min(n, self.k)
        for t in range(0, top + 1):
            d = self.digit(t)
            if not d:
                continue
            m = n - t
            if m == 0:
                if d & 1:
                    yield ()
                continue
            if d & 2:
                yield (m,)
            if d & 4 and m >= 2:
                for a in range(1, m // 2 + 1):
                    yield (a, m - a)
            if d & 8 and m >= 3:
                for a in range(1, m // 3 + 1):
                    for b in range(a, (m - a) // 2 + 1):
                        yield (a, b, m - a - b)

    def kernel_rules(self, n_max: int) -> KernelRules:
        if self.is_finite:
            if self._rules_cache is None:
                ts = range(0, self.k + 1)
                self._rules_cache = KernelRules(
                    kernel_array(t for t in ts if self.digit(t) & 1 and t >= 1),
                    kernel_array(t for t in ts if self.digit(t) & 2 and t >= 1),
                    kernel_array(t for t in ts if self.digit(t) & 4),
                    kernel_array(t for t in ts if self.digit(t) & 8),
                )
            return self._rules_cache
        ts = range(0, max(n_max, 1))
        return KernelRules(
            kernel_array(t for t in ts if self.digit(t) & 1 and t >= 1),
            kernel_array(t for t in ts if self.digit(t) & 2 and t >= 1),
            kernel_array(t for t in ts if self.digit(t) & 4),
            kernel_array(t for t in ts if self.digit(t) & 8),
            finite=False,
        )

    # -- cousins ---------------------------------------------------------------------------
    def first_cousin(self) -> "TakeAndBreak":
        """The first cousin: the same game on heaps one smaller (``G_C(n) = G(n+1)``).

        Defined when ``d1`` is even (a heap of 1 is terminal). Digit ``r`` of the cousin has
        bit 1 if ``d_{r+1}`` has bit 1; bits 1+2 if ``d_r`` has bit 2; bits 1+2+4 if
        ``d_{r-1}`` has bit 4; bits 1+2+4+8 if ``d_{r-2}`` has bit 8 (seed 001; Winning Ways
        ch. 4).

        Raises
        ------
        RulesetError
            If ``d1`` is odd.

        Examples
        --------
        >>> str(TakeAndBreak("0.0423").first_cousin())
        '0.0073'
        >>> str(TakeAndBreak("0.07").first_cousin())
        '0.137'
        """
        d1 = self.digit(1)
        if d1 & 1:
            raise RulesetError(f"{self.code_text} has no first cousin: d1 = {_HEX[d1]} is odd, "
                               "so a heap of one token is not terminal")
        d = self.digit

        def c(r: int) -> int:
            v = 0
            if d(r + 1) & 1:
                v |= 1
            if r >= 1 and d(r) & 2:
                v |= 3
            if d(r - 1) & 4:
                v |= 7
            if d(r - 2) & 8:
                v |= 15
            return v

        if self.is_finite:
            digits = [c(r) for r in range(1, self.k + 3)]
            return TakeAndBreak.from_digits(0, digits)
        P, q = len(self.digits), len(self.tail)
        digits = [c(r) for r in range(1, P + 3)]
        tail = [c(r) for r in range(P + 3, P + 3 + q)]
        return TakeAndBreak.from_digits(0, digits, tail)

    def standard_form(self) -> tuple["TakeAndBreak", int]:
        """The standard form (take first cousins while ``d1`` is even) and the shift ``s``
        with ``G(n) = G_std(n - s)`` for ``n >= s`` (and ``G(n) = 0`` for ``n < s``).

        Examples
        --------
        >>> std, shift = TakeAndBreak("0.0423").standard_form()
        >>> str(std), shift
        ('0.11337', 3)
        """
        code, shift = self, 0
        while code.digit(1) % 2 == 0 and code.has_moves:
            code = code.first_cousin()
            shift += 1
        return code, shift

    @property
    def has_moves(self) -> bool:
        """False for the code without any move (every digit 0)."""
        return any((self.d0,) + self.digits + self.tail)


#: alias: ``octal("0.77")``
octal = TakeAndBreak


#: The largest move a :class:`SubtractionGame` may have: its code has one digit per heap size
#: up to the largest move, and building it and its kernel rules costs about a second per
#: million (``S(999999999)`` would take minutes and gigabytes before any question is asked).
MAX_SUBTRACTION = 1_000_000


class SubtractionGame(TakeAndBreak):
    """The subtraction game ``S(s1, s2, ...)``: remove ``s`` tokens from one heap for some ``s``
    in ``S`` (with ``all_but=True``: for any ``s`` not in ``S``). As a code: digit 3 at each
    allowed ``s`` (Winning Ways ch. 4), so the all-but games are infinite codes such as
    ``0.00[3]`` for all-but(1, 2).

    Raises
    ------
    RulesetError
        If ``S`` holds anything but positive integers, or is empty without ``all_but``.
    ComputationLimitError
        If the largest move is beyond :data:`MAX_SUBTRACTION`.

    Examples
    --------
    >>> g = SubtractionGame([1, 3, 4])
    >>> g.name, g.code_text
    ('subtraction(1,3,4)', '0.3033')
    """

    def __init__(self, S: Iterable[int], all_but: bool = False) -> None:
        HeapRuleset.__init__(self)
        try:
            items = list(S)
        except TypeError:
            raise RulesetError(f"a subtraction set must be a collection of positive integers, got {short_repr(S)}") from None
        for s in items:
            if isinstance(s, bool_types()) or not isinstance(s, int_types()) or s <= 0:
                raise RulesetError(f"a subtraction set holds positive integers, got {short_repr(s)}")
        sset = sorted({int(s) for s in items})
        if not sset and not all_but:
            raise RulesetError("the subtraction set is empty: the game has no move")
        top = max(sset, default=0)
        if top > MAX_SUBTRACTION:
            from cgtalg.errors import ComputationLimitError

            raise ComputationLimitError(
                f"the subtraction set's largest move {short_repr(top, 40)} is beyond MAX_SUBTRACTION = "
                f"{MAX_SUBTRACTION:,} (cgtalg.rulesets.heaps.octal.MAX_SUBTRACTION): its code has one digit "
                "per heap size up to the largest move; refused before building it")
        self.subtraction_set = tuple(sset)
        self.all_but = bool(all_but)
        if all_but:
            digits = [0 if t in sset else 3 for t in range(1, top + 1)]
            self._set(*_normalise(0, digits, (3,)))
        else:
            digits = [3 if t in sset else 0 for t in range(1, top + 1)]
            self._set(*_normalise(0, digits, ()))
        label = ",".join(str(s) for s in sset)
        self.name = f"subtraction-all-but({label})" if all_but else f"subtraction({label})"

    def __repr__(self) -> str:
        return f"SubtractionGame({list(self.subtraction_set)!r}, all_but={self.all_but})"


_CODE_LIKE = re.compile(r"^\s*(0x|hex:|[0-9A-Fa-f]?\.)", re.I)


def _resolve(name: str) -> TakeAndBreak | None:
    """Registry resolver: text that looks like a code is parsed (errors propagate)."""
    if _CODE_LIKE.match(name):
        return TakeAndBreak(name)
    return None


def _register() -> None:
    from cgtalg.rulesets.registry import register_resolver

    register_resolver(_resolve, "0.77  octal / hexadecimal take-and-break codes (0.137, 4.07, 0x0.B, 0.[3])")


_register()
