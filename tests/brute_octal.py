"""Brute force for octal games, written from the digits (no cgtalg code): the options of one
heap, misère outcomes by playing every position out, and Grundy values by mex. Tests compare
the library's and the tools' answers with these."""

from __future__ import annotations


def digit_options(code: str, n: int) -> list[tuple[int, ...]]:
    """The options of one heap of ``n`` tokens under the octal code ``code`` (``d0.d1d2…``), as
    tuples of the nonempty heaps left: digit ``d_k`` lets a move take ``k`` tokens leaving no
    heap (bit 1), one heap (bit 2) or two heaps (bit 4); ``d0 = 4`` splits a heap in two."""
    out = []
    if int(code.split(".")[0]) & 4:       # d0 = 4: split a heap in two, taking nothing
        out.extend((a, n - a) for a in range(1, n // 2 + 1))
    for k, ch in enumerate(code.split(".")[1], start=1):
        d, rest = int(ch), n - k
        if rest < 0:
            break
        if d & 1 and rest == 0:
            out.append(())
        if d & 2 and rest > 0:
            out.append((rest,))
        if d & 4:
            out.extend((a, rest - a) for a in range(1, rest // 2 + 1))
    return out


class MisereBrute:
    """Misère outcomes of positions of heaps ``<= top`` (every position played out, memoised on
    the sorted heaps) and the Grundy values ``g[0 … top]`` of single heaps."""

    def __init__(self, code: str, top: int) -> None:
        self.opts = [digit_options(code, h) for h in range(top + 1)]
        self.memo: dict[tuple[int, ...], bool] = {}
        self.g: list[int] = []
        for h in range(top + 1):
            seen = {self.nim(o) for o in self.opts[h]}
            self.g.append(min(set(range(len(seen) + 1)) - seen))

    def nim(self, heaps) -> int:
        """The Grundy value (normal play) of a position: the nim-sum of its heaps'."""
        v = 0
        for h in heaps:
            v ^= self.g[h]
        return v

    def is_p(self, heaps) -> bool:
        """Whether ``heaps`` is a misère P-position: a player who cannot move wins, so a position
        without a move (the empty one) is an N-position."""
        x = tuple(sorted(h for h in heaps if h > 0))
        got = self.memo.get(x)
        if got is not None:
            return got
        moved, res = False, True
        for i, h in enumerate(x):
            if i and x[i - 1] == h:
                continue
            rest = x[:i] + x[i + 1:]
            for o in self.opts[h]:
                moved = True
                if self.is_p(rest + o):
                    res = False
                    break
            if not res:
                break
        res = res and moved
        self.memo[x] = res
        return res


def partitions(n: int, top: int | None = None):
    """The positions of ``n`` tokens (heaps ``<= top``), each a non-increasing tuple of heaps."""
    top = n if top is None else top
    if n == 0:
        yield ()
        return
    for h in range(min(n, top), 0, -1):
        for rest in partitions(n - h, h):
            yield (h,) + rest
