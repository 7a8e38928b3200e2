"""The codes of a census and their classes: every octal (or hexadecimal) code of up to ``k``
digits, grouped by standard form.

A class is the set of codes with the same *standard form* (take first cousins while ``d1``
is even; Winning Ways ch. 4, seed 001): a code with standard form ``S`` and shift ``s`` has
``G(n) = G_S(n - s)`` for ``n >= s`` and ``G(n) = 0`` below, and its heap of ``n`` tokens is
the same game form as the heap of ``n - s`` tokens of ``S`` (heaps of ``s`` tokens or fewer
are terminal), so misère results carry over too. One computation per class answers every
member. Codes are never put together because their first values agree (0.161 and 0.36 agree
up to heap 518; Flammenkamp's tables had them as one game, tczajka/octal-games).

The order of codes is the order of the numbers they write: ``0.04 < 0.07 < 0.1 < 0.104``.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Iterable

from cgtalg.errors import CensusError
from cgtalg.rulesets.heaps.octal import TakeAndBreak

__all__ = ["CensusClass", "enumerate_codes", "census_classes", "code_sort_key", "count_codes", "MAX_DIGITS"]

#: Longest codes a census enumerates (8**6 = 262,144 octal codes; 16**4 = 65,536 hexadecimal).
MAX_DIGITS = {False: 6, True: 4}


def code_sort_key(code: "str | TakeAndBreak") -> tuple:
    """Sort key: the number the code writes (``0.07 < 0.1``), octal codes before hexadecimal
    ones of the same value, repeating tails last.

    Examples
    --------
    >>> sorted(["0.1", "0.07", "0.104", "0.7", "0.16"], key=code_sort_key)
    ['0.07', '0.1', '0.104', '0.16', '0.7']
    """
    c = code if isinstance(code, TakeAndBreak) else TakeAndBreak(code)
    return (c.d0, c.digits, c.tail, c.is_hexadecimal)


def _check_request(digits: Any, hexadecimal: bool, d0: Any) -> None:
    top = MAX_DIGITS[bool(hexadecimal)]
    if isinstance(digits, bool) or not isinstance(digits, int) or not 1 <= digits <= top:
        kind = "hexadecimal" if hexadecimal else "octal"
        shown = repr(digits) if len(repr(digits)) <= 40 else repr(digits)[:37] + "..."
        raise CensusError(f"a census of {kind} codes takes 1 to {top} digits, got digits={shown}")
    if isinstance(d0, bool) or d0 not in (0, 4):
        shown = repr(d0) if len(repr(d0)) <= 40 else repr(d0)[:37] + "..."
        raise CensusError(f"d0 is 0 (codes 0.xyz) or 4 (codes 4.xyz: splits without taking), got {shown}")


def count_codes(digits: int, hexadecimal: bool = False, d0: int = 0) -> int:
    """How many codes :func:`enumerate_codes` gives, without enumerating them:
    ``base**digits - 1``, plus one for ``4.0`` when ``d0 = 4``.

    Examples
    --------
    >>> count_codes(3), count_codes(6), count_codes(2, hexadecimal=True), count_codes(1, d0=4)
    (511, 262143, 255, 8)
    """
    _check_request(digits, hexadecimal, d0)
    return (16 if hexadecimal else 8) ** digits - 1 + (1 if d0 else 0)


def enumerate_codes(digits: int, hexadecimal: bool = False, d0: int = 0) -> list[TakeAndBreak]:
    """Every code ``d0.d1...dj`` with ``1 <= j <= digits`` and ``dj != 0``, in code order.

    Octal digits are ``0-7`` (``8**digits - 1`` codes); with ``hexadecimal=True`` ``0-F``
    (``16**digits - 1`` codes, the octal ones among them). ``d0`` is ``0`` (the usual
    ``0.xyz`` codes) or ``4`` (``4.xyz``: a heap may also be split into two nonempty heaps
    without taking anything, the table Flammenkamp keeps apart); with ``d0 = 4`` the code
    ``4.0`` (splits only) is included.

    Raises
    ------
    CensusError
        For ``digits`` outside ``1..MAX_DIGITS`` (6 octal, 4 hexadecimal), or ``d0`` not 0 or 4.

    Examples
    --------
    >>> codes = enumerate_codes(1)
    >>> [str(c) for c in codes]
    ['0.1', '0.2', '0.3', '0.4', '0.5', '0.6', '0.7']
    >>> len(enumerate_codes(3)), len(enumerate_codes(2, hexadecimal=True))
    (511, 255)
    >>> [str(c) for c in enumerate_codes(1, d0=4)][:3]
    ['4.0', '4.1', '4.2']
    """
    _check_request(digits, hexadecimal, d0)
    base = 16 if hexadecimal else 8
    out = [
        TakeAndBreak.from_digits(d0, ds)
        for ds in itertools.product(range(base), repeat=digits)
        if any(ds) or d0
    ]
    # from_digits drops trailing zeros: 0.10 and 0.100 are 0.1, enumerated once
    seen: dict[TakeAndBreak, None] = dict.fromkeys(out)
    return sorted(seen, key=code_sort_key)


@dataclass(frozen=True)
class CensusClass:
    """The codes sharing one standard form.

    Attributes
    ----------
    standard : str
        The standard form (code text): what is computed.
    members : tuple of (str, int)
        ``(code, shift)`` for each code of the census in the class, in code order, with
        ``G_code(n) = G_standard(n - shift)``.
    """

    standard: str
    members: tuple[tuple[str, int], ...]

    @property
    def codes(self) -> list[str]:
        """The member codes, in code order."""
        return [c for c, _s in self.members]

    def shift_of(self, code: str) -> int:
        """The shift of member ``code``."""
        for c, s in self.members:
            if c == code:
                return s
        raise KeyError(code)


def census_classes(codes: Iterable["str | TakeAndBreak"], deadline: Any = None) -> list[CensusClass]:
    """Group ``codes`` by standard form (one class per standard form, in code order of the
    standard forms). ``deadline`` (a :class:`cgtalg.budget.Deadline`) is checked as it goes.

    Raises
    ------
    OctalCodeError
        For text that is not a code.
    CensusError
        For a code without moves (``0.0``) or with a repeating tail (no periodicity theorem
        applies: a census is of finite codes).

    Examples
    --------
    >>> [(c.standard, c.members) for c in census_classes(["0.07", "0.137", "0.4", "0.77"])]
    [('0.137', (('0.07', 1), ('0.137', 0), ('0.4', 2))), ('0.77', (('0.77', 0),))]
    """
    if isinstance(codes, (str, TakeAndBreak)):
        codes = [codes]
    try:
        codes = iter(codes)
    except TypeError:
        raise CensusError(f"census codes are a list of codes such as ['0.77', '0.137'], not "
                          f"{type(codes).__name__}") from None
    groups: dict[str, list[tuple[TakeAndBreak, int]]] = {}
    for i, code in enumerate(codes):
        if deadline is not None and not i % 1024:
            deadline.check(f"finding the standard forms of the census codes ({i:,} done)")
        if isinstance(code, TakeAndBreak):
            c = code
        elif isinstance(code, str):
            c = TakeAndBreak(code)
        else:
            raise CensusError(f"a census code is text such as '0.77', not {type(code).__name__}")
        if not c.has_moves:
            raise CensusError(f"{c} has no move: a census takes codes with at least one nonzero digit")
        if not c.is_finite:
            raise CensusError(f"{c} has a repeating tail: a census takes finite codes only")
        std, shift = c.standard_form()
        members = groups.setdefault(str(std), [])
        if all(m != c for m, _s in members):
            members.append((c, shift))
    out = []
    for std in sorted(groups, key=code_sort_key):
        members = sorted(groups[std], key=lambda m: code_sort_key(m[0]))
        out.append(CensusClass(std, tuple((str(c), s) for c, s in members)))
    return out
