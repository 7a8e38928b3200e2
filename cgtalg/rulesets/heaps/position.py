"""Heap positions: their normal form (:func:`as_heaps`), counts, and :class:`HeapMove`.

A heap position is a multiset of heap sizes, kept as the sorted tuple of its nonzero heaps;
an int means a single heap. This module is the bottom of the heap-game modules: the Grundy
engine (:mod:`cgtalg.rulesets.heaps.grundy_engine`), the heap ruleset class
(:mod:`cgtalg.rulesets.heaps.base`) and the play functions
(:mod:`cgtalg.rulesets.heaps.play`, :mod:`cgtalg.rulesets.heaps.misere_play`) all read positions
through it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Sequence

from cgtalg.core.lazynp import bool_types, int_types, np

from cgtalg.rulesets.protocol import short_repr
from cgtalg.errors import RulesetError

__all__ = ["as_heaps", "heap_list", "check_count", "heap_fold", "multisets_up_to", "HeapMove", "DIRECT_LIMIT",
           "ENUMERATE_LIMIT"]

#: heaps up to this size are computed directly when a game has no certified period
DIRECT_LIMIT = 10**7
#: splits of heaps up to this size are enumerated pair by pair in winning_moves
ENUMERATE_LIMIT = 10**7


def multisets_up_to(h: int, cap: int = 10**30) -> int:
    """``sum(p(k) for k <= h)`` (p the partition numbers), capped at ``cap``: the multisets of
    heaps a heap of ``h`` can become when heaps may split."""
    if h > 20_000:
        return cap
    p = [1] + [0] * h
    for part in range(1, h + 1):
        for k in range(part, h + 1):
            p[k] += p[k - part]
        if p[h] > cap:
            return cap
    return min(cap, sum(p))


def as_heaps(position: Any, name: str = "heap game") -> tuple[int, ...]:
    """Normalise a heap position: an int (one heap) or an iterable of non-negative ints.

    Returns the sorted tuple of the nonzero heap sizes (the canonical position).

    Raises
    ------
    RulesetError
        For a negative size, a non-integer, or something that is not a position.
    """
    if isinstance(position, bool_types()):
        raise RulesetError(f"{name}: a position is a heap size or a collection of heap sizes, got {short_repr(position)}")
    if isinstance(position, int_types()):
        items: Iterable[Any] = (position,)
    elif isinstance(position, (str, bytes)):
        raise RulesetError(
            f"{name}: a position is a heap size or a collection of heap sizes, got the text {short_repr(position)} "
            "(use parse_position for text)"
        )
    else:
        try:
            items = list(position)
        except TypeError:
            raise RulesetError(
                f"{name}: a position is a heap size or a collection of heap sizes, got {short_repr(position)}"
            ) from None
    heaps = []
    for h in items:
        if isinstance(h, bool_types()) or not isinstance(h, int_types()):
            raise RulesetError(f"{name}: heap sizes must be non-negative integers, got {short_repr(h)}")
        h = int(h)
        if h < 0:
            raise RulesetError(f"{name}: heap sizes must be non-negative integers, got {h}")
        if h:
            heaps.append(h)
    heaps.sort()
    return tuple(heaps)

def heap_list(heaps: Any, name: str = "heap game") -> list[int]:
    """The heaps of a position as a sorted list of Python ints (an int is one heap)."""
    return [int(h) for h in as_heaps(heaps, name)]


def check_count(n: Any, what: str = "n") -> int:
    """``n`` as a non-negative Python int (a float with integer value is accepted).

    Raises
    ------
    RulesetError
        For anything else.
    """
    if isinstance(n, float) and n.is_integer():
        n = int(n)
    if isinstance(n, bool_types()) or not isinstance(n, int_types()):
        raise RulesetError(f"{what} must be a non-negative integer, got {short_repr(n)}")
    n = int(n)
    if n < 0:
        raise RulesetError(f"{what} must be a non-negative integer, got {n}")
    return n


def heap_fold(ruleset: Any, values: list, n: int, empty: Any, add: Callable[[Any, Any], Any],
              combine: Callable[[list], Any]) -> Any:
    """The value of heap ``n`` in the fold over single heaps that ``values`` holds (its first
    entries, heaps ``0, 1, ...``), extending it as needed: the value of a heap is
    ``combine([...])`` over its options, an option's value the ``add``-sum (from ``empty``)
    of the values of the heaps it leaves. Heap forms (``zero``, ``+``, ``game``) and misère
    canonical heaps (canonical sums and forms) are folds of this kind."""
    while len(values) <= n:
        m = len(values)
        opts = []
        for parts in ruleset.heap_options(m):
            x = empty
            for p in parts:
                if p:
                    x = add(x, values[p])
            opts.append(x)
        values.append(combine(opts))
    return values[n]


@dataclass(frozen=True)
class HeapMove:
    """A move in one heap of a multi-heap position, or an arithmetic family of such moves.

    ``heap_index`` is the index of the heap in the position as given; the heap of size
    ``heap`` is replaced by the heaps ``parts`` (``removed`` tokens are taken away). A family
    (``count > 1``) stands for the ``count`` splits ``(a + j*stride, b - j*stride)``,
    ``j = 0 .. count-1``, where ``(a, b) = parts``: all have the same value when the
    Grundy sequence is periodic with period ``stride`` (huge heaps).
    """

    heap_index: int
    heap: int
    removed: int
    parts: tuple[int, ...]
    stride: int = 0
    count: int = 1

    def members(self) -> Iterator[tuple[int, ...]]:
        """The resulting heaps of each move of the family."""
        if self.count == 1:
            yield self.parts
            return
        a, b = self.parts
        for j in range(self.count):
            yield (a + j * self.stride, b - j * self.stride)

    def result(self, heaps: Sequence[int], member: int = 0) -> tuple[int, ...]:
        """The whole position after the move (sorted nonzero heaps)."""
        parts = self.parts
        if member:
            a, b = self.parts
            parts = (a + member * self.stride, b - member * self.stride)
        rest = [h for i, h in enumerate(heaps) if i != self.heap_index]
        return as_heaps(rest + list(parts))

    def describe_parts(self) -> str:
        """Text of the heaps left in place of the heap moved in."""
        if not self.parts:
            return "nothing"
        return " + ".join(str(p) for p in self.parts)

    def __str__(self) -> str:
        head = f"heap #{self.heap_index} ({self.heap}): take {self.removed}, leaving {self.describe_parts()}"
        if self.count > 1:
            a, b = self.parts
            last = (a + (self.count - 1) * self.stride, b - (self.count - 1) * self.stride)
            head += (f"; also every {self.stride}th such split up to {last[0]} + {last[1]} "
                     f"({self.count} moves)")
        return head

    def _repr_html_(self) -> str:
        """Notebook view: the move in words."""
        from cgtalg.core.display import esc

        return f"<span class='cgtalg-move'>{esc(self)}</span>"

    def to_json(self) -> dict:
        """JSON-ready dict."""
        d = {"heap_index": self.heap_index, "heap": self.heap, "removed": self.removed,
             "parts": list(self.parts)}
        if self.count > 1:
            d.update(stride=self.stride, count=self.count)
        return d

