"""The baseline of ``cgtalg outcome CODE HEAPS --misere``: a plain Python script, written from the
definitions alone, that answers the same question (the misère outcome of a sum of heaps of an
octal game, and every winning move), as a user would write it without cgtalg.

An octal code ``0.d1d2d3...``: digit ``d_k`` says what removing ``k`` tokens from a heap may
leave: bit 1, nothing (the whole heap is taken); bit 2, one nonempty heap; bit 4, two nonempty
heaps. A position is a sorted tuple of nonzero heaps; in misère play the player who cannot
move wins, so a position with no move is N, and otherwise it is P exactly when every option is
N. Memoised depth-first search (a dictionary of positions), no canonical forms, no library.

Usage::

    python benchmarks/plain_misere_outcome.py 0.77 14 15 16
"""

from __future__ import annotations

import sys
from functools import lru_cache


def heap_options(digits: list[int], n: int) -> list[tuple[int, ...]]:
    """What one move may leave of a heap of ``n`` tokens (the parts, nonempty)."""
    out = []
    for k, d in enumerate(digits, start=1):
        r = n - k
        if r < 0:
            break
        if d & 1 and r == 0:
            out.append(())
        if d & 2 and r > 0:
            out.append((r,))
        if d & 4:
            for a in range(1, r // 2 + 1):
                out.append((a, r - a))
    return out


def main(argv: list[str]) -> None:
    code, heaps = argv[0], sorted(int(h) for h in argv[1:] if int(h))
    digits = [int(c) for c in code.split(".", 1)[1]]
    sys.setrecursionlimit(100_000)

    @lru_cache(maxsize=None)
    def options(n: int) -> tuple[tuple[int, ...], ...]:
        return tuple(heap_options(digits, n))

    def children(pos: tuple[int, ...]):
        for i, h in enumerate(pos):
            if i and pos[i - 1] == h:
                continue
            rest = pos[:i] + pos[i + 1:]
            for parts in options(h):
                yield i, parts, tuple(sorted(rest + parts))

    memo: dict[tuple[int, ...], bool] = {}

    def is_n(pos: tuple[int, ...]) -> bool:
        v = memo.get(pos)
        if v is None:
            v = True
            moved = False
            for _, _, c in children(pos):
                moved = True
                if not is_n(c):
                    break
            else:
                v = not moved
            memo[pos] = v
        return v

    root = tuple(heaps)
    win = is_n(root)
    print(f"{code}: heaps {' '.join(argv[1:])}; misère play: {'N' if win else 'P'} "
          f"({len(memo):,} positions)")
    for i, parts, c in children(root):
        if not is_n(c):
            print(f"  heap {root[i]}: take {root[i] - sum(parts)}, leaving {' + '.join(map(str, parts)) or 'nothing'}")


if __name__ == "__main__":
    main(sys.argv[1:])
