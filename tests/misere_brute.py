"""Misère play of heap positions from the definition, shared by the tests of the misère search
(test_misere_play.py) and of misère quotients (test_quotient.py); and Kayles's moves written out
from its rules (:func:`kayles_moves`, for test_doors.py and test_periodicity.py).

A position is a sorted tuple of nonzero heaps. A position with no move is won by the player to
move (the empty position included); otherwise it is P iff every option is N. The misère Grundy
value is 1 for a position with no move and the mex of the options' values otherwise. Memoised
recursion, each heap's options listed once: nothing from the library but ``heap_options``.
"""

from __future__ import annotations

import itertools
import sys


class MisereBrute:
    def __init__(self, ruleset) -> None:
        sys.setrecursionlimit(max(sys.getrecursionlimit(), 100_000))
        self.r = ruleset
        self.opts: dict[int, list[tuple[int, ...]]] = {}
        self.memo: dict[tuple[int, ...], int] = {}

    def options(self, pos: tuple[int, ...]):
        for i, h in enumerate(pos):
            if h not in self.opts:
                self.opts[h] = [tuple(p for p in parts if p) for parts in self.r.heap_options(h)]
            rest = pos[:i] + pos[i + 1:]
            for parts in self.opts[h]:
                yield tuple(sorted(rest + parts))

    def grundy(self, pos) -> int:
        pos = tuple(sorted(h for h in pos if h))
        if pos in self.memo:
            return self.memo[pos]
        vals = {self.grundy(c) for c in self.options(pos)}
        m = 1 if not vals else min(set(range(len(vals) + 1)) - vals)
        self.memo[pos] = m
        return m

    def is_p(self, pos) -> bool:
        return self.grundy(pos) == 0

    def p_table(self, n: int, max_heaps: int) -> dict[tuple[int, ...], bool]:
        """Whether each multiset of 1..max_heaps heaps of sizes 1..n is a P-position."""
        return {pos: self.is_p(pos)
                for k in range(1, max_heaps + 1)
                for pos in itertools.combinations_with_replacement(range(1, n + 1), k)}


def kayles_moves(rows: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The options of a Kayles (0.77) position from the rules: knock down 1 or 2 adjacent pins of
    a row (rows = heaps, a sorted tuple), leaving 0, 1 or 2 rows; sorted, each once."""
    out = set()
    for i, n in enumerate(rows):
        rest = rows[:i] + rows[i + 1:]
        for t in (1, 2):
            for a in range(0, n - t + 1):
                b = n - t - a
                out.add(tuple(sorted(rest + tuple(x for x in (a, b) if x))))
    return sorted(out)
