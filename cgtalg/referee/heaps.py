"""The moves of heap games, from their definitions (the referee's own reading of a game's name).

A certificate about a heap game names the game as cgtalg writes it; the referee reads that name
here and derives the moves itself, so a check never uses the moves of the library that found
the result.

Names read
    * octal and hexadecimal codes (Guy & Smith 1956; Winning Ways ch. 4): ``d0.d1d2...``; digit
      ``d_t`` says what may happen when ``t`` tokens are taken from one heap: bit 1, the whole
      heap; bit 2, leaving one non-empty heap; bit 4, two; bit 8 (hexadecimal), three. ``d0``
      (nothing taken) uses bits 4 and 8 only. ``0x`` or ``hex:`` marks a hexadecimal code; a
      trailing group in brackets repeats for ever (``0.[3]`` is Nim); ``.77`` is ``0.77``;
    * the names ``kayles`` (0.77), ``dawson`` / ``dawsons-kayles`` (0.07), ``dawsons-chess``
      (0.137), ``officers`` (0.6), ``nim`` (0.[3]) and ``grundy`` (Grundy's game: split one heap
      into two unequal non-empty heaps);
    * subtraction games ``S(1,3,4)``, ``subtraction(1,3,4)``, ``subtraction:1,3,4`` (take ``s``
      tokens, ``s`` in the set, leaving one heap or none) and all-but subtraction games
      ``allbut(1,2)`` / ``allbut:1,2`` / ``subtraction-all-but(1,2)`` (the name cgtalg prints:
      take any positive number not in the set).

Examples
--------
>>> r = heap_rules("0.137")
>>> r.options(4), r.k, r.max_parts
([(2,), (1,)], 3, 2)
>>> heap_rules("kayles").options(3)
[(2,), (1, 1), (1,)]
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from cgtalg.referee._verdict import Malformed

__all__ = ["HeapRules", "heap_rules"]

_NAMES = {"kayles": "0.77", "dawson": "0.07", "dawsons-kayles": "0.07", "dawsons_kayles": "0.07",
          "dawsons-chess": "0.137", "dawsons_chess": "0.137", "officers": "0.6", "nim": "0.[3]"}
_HEXDIGITS = "0123456789ABCDEF"
_SET_RE = re.compile(r"^(S|subtraction|allbut|subtraction-all-but)\s*(?:\((.*)\)|:(.*))$", re.IGNORECASE)


@dataclass
class HeapRules:
    """A heap game as the referee reads it.

    Attributes
    ----------
    name : str
        The name as given.
    kind : str
        ``"code"`` (take-and-break code), ``"subtraction"``, ``"allbut"`` or ``"grundy"``.
    k : int or None
        The largest number of tokens a move takes, or None when it is unbounded (an infinite
        code, an all-but game, Grundy's game).
    max_parts : int
        The largest number of heaps one move leaves of one heap.
    """

    name: str
    kind: str
    d0: int = 0
    digits: tuple[int, ...] = ()
    tail: tuple[int, ...] = ()
    numbers: frozenset[int] = frozenset()
    k: int | None = None
    max_parts: int = 1
    _memo: dict[int, list[tuple[int, ...]]] = field(default_factory=dict, repr=False)

    def digit(self, t: int) -> int:
        """Digit ``d_t`` of a code (0 past a finite code)."""
        if t == 0:
            return self.d0
        if t <= len(self.digits):
            return self.digits[t - 1]
        if self.tail:
            return self.tail[(t - len(self.digits) - 1) % len(self.tail)]
        return 0

    def options(self, n: int) -> list[tuple[int, ...]]:
        """The options of one heap of ``n`` tokens: each the sorted tuple of the non-empty heaps
        it leaves (``()``: nothing left), each distinct option once, in a fixed order."""
        if n < 0:
            raise Malformed(f"a heap has at least 0 tokens, not {n}")
        got = self._memo.get(n)
        if got is None:
            seen: dict[tuple[int, ...], None] = {}
            for o in self._moves(n):
                seen.setdefault(tuple(sorted(o)), None)
            got = self._memo[n] = list(seen)
        return got

    def digit_moves(self, n: int):
        """For a code, each ``(m, d)``: a move may take ``t = n - m`` tokens of a heap of ``n``
        by the non-zero digit ``d = d_t``, leaving ``m`` tokens to split as ``d``'s bits allow
        (1: none left; 2: one heap; 4: two; 8: three), ``t`` up to ``min(n, k)``."""
        for t in range(0, n + 1 if self.k is None else min(n, self.k) + 1):
            d = self.digit(t)
            if d:
                yield n - t, d

    def _moves(self, n: int):
        if self.kind == "grundy":
            for a in range(1, (n + 1) // 2):
                yield (n - a, a)
            return
        if self.kind in ("subtraction", "allbut"):
            for t in range(1, n + 1):
                if (t in self.numbers) == (self.kind == "subtraction"):
                    yield (n - t,) if n > t else ()
            return
        for m, d in self.digit_moves(n):
            if m == 0:
                if d & 1:
                    yield ()
                continue
            if d & 2:
                yield (m,)
            if d & 4:
                for a in range(1, m // 2 + 1):
                    yield (m - a, a)
            if d & 8:
                for a in range(1, m // 3 + 1):
                    for b in range(a, (m - a) // 2 + 1):
                        yield (m - a - b, b, a)


def _parse_code(name: str, text: str) -> HeapRules:
    s = text.strip()
    hexa = False
    for prefix in ("0x", "0X", "hex:"):
        if s.startswith(prefix):
            s, hexa = s[len(prefix):], True
    base = 16 if hexa else 8
    if "." not in s:
        raise Malformed(f"{name!r} is not a code the referee reads (no point, as in 0.77)")
    head, body = s.split(".", 1)
    tail_text = ""
    if "[" in body:
        if not body.endswith("]") or body.count("[") != 1 or body.count("]") != 1:
            raise Malformed(f"{name!r}: a repeating group stands in brackets at the end, as in 0.[3]")
        body, tail_text = body[:-1].split("[")
        if not tail_text:
            raise Malformed(f"{name!r}: an empty repeating group")

    def digits(t: str) -> tuple[int, ...]:
        out = []
        for ch in t:
            v = _HEXDIGITS.find(ch.upper())
            if v < 0 or v >= base:
                raise Malformed(f"{name!r}: {ch!r} is not a digit of a {'hexadecimal' if hexa else 'octal'} code")
            out.append(v)
        return tuple(out)

    d0 = digits(head or "0")
    if len(d0) != 1 or d0[0] & 3:
        raise Malformed(f"{name!r}: the digit before the point is one digit using bits 4 and 8 only")
    ds, tail = digits(body), digits(tail_text)
    finite = not any(tail)
    if finite:
        tail = ()
        while ds and ds[-1] == 0:
            ds = ds[:-1]
    allbits = (d0[0],) + ds + tail
    parts = 3 if any(d & 8 for d in allbits) else 2 if any(d & 4 for d in allbits) else 1
    return HeapRules(name, "code", d0=d0[0], digits=ds, tail=tail, k=len(ds) if finite else None,
                     max_parts=parts)


def heap_rules(name: str) -> HeapRules:
    """The referee's rules of the heap game ``name`` (module docstring).

    Raises
    ------
    Malformed
        When the name is not one the referee reads.
    """
    if not isinstance(name, str) or not name.strip():
        raise Malformed(f"a heap game is named by a string such as '0.77', not {name!r}")
    key = name.strip()
    low = key.lower()
    if low == "grundy":
        return HeapRules(name, "grundy", k=None, max_parts=2)
    if low in _NAMES:
        return _parse_code(name, _NAMES[low])
    m = _SET_RE.match(key)
    if m:
        items = [x for x in re.split(r"[\s,]+", (m.group(2) if m.group(2) is not None else m.group(3)).strip()) if x]
        if not items or not all(x.isdigit() and int(x) > 0 for x in items):
            raise Malformed(f"{name!r}: a subtraction set is a list of positive integers")
        numbers = frozenset(int(x) for x in items)
        if m.group(1).lower() in ("allbut", "subtraction-all-but"):
            return HeapRules(name, "allbut", numbers=numbers, k=None, max_parts=1)
        return HeapRules(name, "subtraction", numbers=numbers, k=max(numbers), max_parts=1)
    return _parse_code(name, key)
