#!/usr/bin/env python
"""Exact misère outcomes of ``base + x·a + y·b + c·n``: what a counting level cannot reach.

When counting the copies of a new heap ``n`` stalls ("no candidate repairing … within order …
(level 1)"), no candidate holds the outcomes of the positions with one copy of ``n``, and
:mod:`tools.quotient_count_pattern` has nothing to read. This script plays them out exactly:
the positions of heaps ``< n`` get their outcomes from the verified ``Q_{n−1}`` (the same for
every such position of one element), and a position ``x + c·n`` (``x`` of heaps ``< n``) is a
P-position iff none of its options is: the options ``x' + c·n`` (a move in ``x``, played out
recursively) and ``x + w + (c−1)·n`` (a move in one copy of ``n``, ``w`` of heaps ``< n``),
memoised on the multiset ``x`` and ``c``. Nothing is guessed: every entry is an outcome.

It prints the table of ``base + x·a + y·b + c·n`` for ``a < rows``, ``b < cols`` (``P`` or
``.``), optionally checks a rule (a Python expression in ``a`` and ``b``) on every entry of the
table, and writes ``--json``. Seen this way (30 November 2026): in ``0.177`` with one heap 26,
``9·a + 15·b + 26`` is P iff ``b > a >= 2`` and ``b − a`` is odd; in ``0.1337`` with one heap 15,
``3·a + 10·b + 15`` is P iff ``a > b`` and ``a − b`` is odd (docs/quotient_frontier_stalls.md).

Usage::

    python tools/level_play.py 0.177 --heap 26 --x 9 --y 15 --rows 10 --cols 10 \\
        --rule "b > a >= 2 and (b - a) % 2 == 1" [--base 1] [--copies 1] [--time 5m] [--json out.json]

Exit status 1 when the rule fails somewhere (the first counterexample is printed), 2 when the
budget ran out or an argument is malformed (the cgtalg error is printed).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cgtalg.budget import Deadline, parse_duration  # noqa: E402
from cgtalg.errors import CgtalgError  # noqa: E402

#: positions played out between two checks of the budget
CHECK_EVERY = 20_000


class LevelPlay:
    """Exact misère outcomes of ``x + c·n`` for positions ``x`` of heaps ``< n``, from ``Q_{n−1}``
    (``table``, ``P``, ``phi`` of the verified quotient) and the options of every heap ``<= n``
    (``options[h]``: tuples of the heaps left, zeros dropped)."""

    def __init__(self, table, P, phi, options, n: int, deadline: Deadline | None = None) -> None:
        self.table, self.P, self.phi = table, P, list(phi)
        self.options = [[tuple(sorted(p for p in o if p > 0)) for o in options[h]] for h in range(n + 1)]
        self.n = n
        self.deadline = deadline
        self.memo: dict[tuple[int, tuple[int, ...]], bool] = {}

    def element(self, heaps) -> int:
        x = 0
        for h in heaps:
            x = int(self.table[x, self.phi[h]])
        return x

    def is_p(self, heaps, copies: int = 0) -> bool:
        """Whether ``heaps + copies·n`` is a misère P-position (``heaps``: heaps ``< n``)."""
        if any(h >= self.n or h < 0 for h in heaps):
            raise ValueError(f"the heaps of x must be below n = {self.n}: {sorted(heaps)}")
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 200_000))
        try:
            return self._p(tuple(sorted(h for h in heaps if h > 0)), int(copies))
        finally:
            sys.setrecursionlimit(old)

    def _p(self, x: tuple[int, ...], c: int) -> bool:
        if c == 0:
            return bool(self.P[self.element(x)])
        key = (c, x)
        got = self.memo.get(key)
        if got is not None:
            return got
        if self.deadline is not None and not len(self.memo) % CHECK_EVERY:
            self.deadline.check(f"playing out positions with {c} cop{'y' if c == 1 else 'ies'} of heap {self.n}")
        res = True
        for w in self.options[self.n]:             # a move in one copy of n
            if self._p(tuple(sorted(x + w)), c - 1):
                res = False
                break
        if res:
            for i, h in enumerate(x):              # a move in x
                if i and x[i - 1] == h:
                    continue
                rest = x[:i] + x[i + 1:]
                if any(self._p(tuple(sorted(rest + o)), c) for o in self.options[h]):
                    res = False
                    break
        self.memo[key] = res
        return res


def level_play(code: str, n: int, deadline: Deadline | None = None, store=None) -> LevelPlay:
    """A :class:`LevelPlay` for the octal (or other heap) game ``code`` and the heap ``n``, from
    its verified ``Q_{n−1}`` (computed, or read from ``store``)."""
    import numpy as np

    from cgtalg.quotients.construct import misere_quotient
    from cgtalg.rulesets.heaps.octal import TakeAndBreak

    rules = TakeAndBreak(code)
    secs = None if deadline is None else max(1.0, deadline.remaining())
    q = misere_quotient(rules, max_heap=n - 1, max_seconds=secs, store=store)
    options = [list(rules.heap_options(h)) for h in range(n + 1)]
    return LevelPlay(np.asarray(q.table), np.asarray(q.P, dtype=bool), list(q.phi), options, n, deadline)


def table(lp: LevelPlay, base, x: int, y: int, rows: int, cols: int, copies: int) -> list[list[bool]]:
    """``out[a][b]``: ``base + x·a + y·b + copies·n`` is a P-position."""
    return [[lp.is_p(list(base) + [x] * a + [y] * b, copies) for b in range(cols)] for a in range(rows)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("code", help="an octal code, e.g. 0.177")
    ap.add_argument("--heap", type=int, required=True, help="the new heap n (Q_{n-1} is computed first)")
    ap.add_argument("--copies", type=int, default=1, help="copies of heap n in every position (default 1)")
    ap.add_argument("--x", type=int, required=True, help="the heap counted by a (below n)")
    ap.add_argument("--y", type=int, required=True, help="the heap counted by b (below n)")
    ap.add_argument("--base", default="", help="heaps below n added to every position, comma-separated")
    ap.add_argument("--rows", type=int, default=8, help="a = 0 … rows − 1 (default 8)")
    ap.add_argument("--cols", type=int, default=8, help="b = 0 … cols − 1 (default 8)")
    ap.add_argument("--rule", default=None, help="a Python expression in a and b: True where P")
    ap.add_argument("--time", default="5m", help="CPU-time budget (default 5m)")
    ap.add_argument("--json", default=None, help="write the table and the rule's verdict here")
    args = ap.parse_args(argv)
    base = [int(h) for h in args.base.split(",") if h.strip()]
    n = args.heap
    if not all(0 < h < n for h in base + [args.x, args.y]) or args.copies < 0:
        ap.error(f"x, y and the base heaps must be between 1 and n − 1 = {n - 1}, and --copies >= 0")
    try:
        deadline = Deadline(parse_duration(args.time))
        lp = level_play(args.code, n, deadline)
        out = table(lp, base, args.x, args.y, args.rows, args.cols, args.copies)
    except CgtalgError as exc:
        print(f"level_play.py: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("level_play.py: interrupted", file=sys.stderr)
        return 130
    plus = " + ".join(map(str, base))
    print(f"{args.code}: {plus + ' + ' if plus else ''}{args.x}·a + {args.y}·b + {args.copies}·{n}, "
          f"exact ({len(lp.memo):,} positions played out)")
    print("      b = " + "".join(str(b % 10) for b in range(args.cols)))
    for a, row in enumerate(out):
        print(f"  a = {a:3d}  " + "".join("P" if v else "." for v in row))
    bad = None
    if args.rule:
        bad = next(((a, b) for a in range(args.rows) for b in range(args.cols)
                    if bool(eval(args.rule, {}, {"a": a, "b": b})) != out[a][b]), None)  # noqa: S307
        print(f"rule {args.rule!r}: " + ("holds on the table" if bad is None
                                           else f"fails at a = {bad[0]}, b = {bad[1]}"))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"code": args.code, "heap": n, "copies": args.copies, "base": base, "x": args.x,
                       "y": args.y, "table": [[int(v) for v in row] for row in out], "rule": args.rule,
                       "rule_holds": (bad is None) if args.rule else None}, fh, indent=1)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
