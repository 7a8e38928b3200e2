"""Benchmark misère multi-heap play against the plain script, in one run.

* plain script (the baseline of issue 9): a memoised recursion over sorted heap tuples from
  the definition (no move: the player to move wins; P iff every option is N; Grundy: 1 with no
  move, else mex), with each heap's options listed once.
* cgtalg: ``ruleset.outcome(heaps, misere=True)`` / ``ruleset.misere_grundy_value(heaps)``
  from a fresh ruleset (cold caches): the compiled search over multisets of misère classes
  (:mod:`cgtalg.rulesets.heaps.misere_play`), canonical forms of the heaps included in the time.
  Loading the compiled kernel from numba's cache happens once per process (like an import);
  it is done first, on another game, and reported on its own line.

Usage::

    python benchmarks/bench_misere_play.py [--quick] [--json]

``--quick`` skips Kayles {20, 21, 22} (the plain script takes most of a minute on it).
"""

from __future__ import annotations

import argparse
import json
import sys
import time


def _plain(code: str, positions: list[tuple[int, ...]], grundy: bool) -> tuple[float, list]:
    from cgtalg.rulesets.heaps.octal import TakeAndBreak

    sys.setrecursionlimit(1_000_000)
    r = TakeAndBreak(code)
    t0 = time.perf_counter()
    opts: dict[int, list[tuple[int, ...]]] = {}
    memo: dict[tuple[int, ...], int] = {}

    def value(pos: tuple[int, ...]) -> int:
        v = memo.get(pos)
        if v is not None:
            return v
        vals = set()
        for i, h in enumerate(pos):
            if i and pos[i - 1] == h:
                continue
            o = opts.get(h)
            if o is None:
                o = opts[h] = [tuple(p for p in parts if p) for parts in r.heap_options(h)]
            rest = pos[:i] + pos[i + 1:]
            for parts in o:
                x = value(tuple(sorted(rest + parts)))
                if not grundy and x == 0:
                    memo[pos] = 1
                    return 1
                vals.add(x)
        if grundy:
            v = 1 if not vals else min(set(range(len(vals) + 1)) - vals)
        else:
            v = 1 if not vals else 0
        memo[pos] = v
        return v

    out = [value(tuple(sorted(p))) for p in positions]
    return time.perf_counter() - t0, out


def _load_kernel() -> float:
    """Load the compiled search once (numba's on-disk cache; once per process, like an import)
    on another game, so that the cases below measure the search only."""
    import cgtalg.rulesets.heaps.genus  # noqa: F401  (imports are not what is measured)
    import cgtalg.rulesets.heaps.misere_play  # noqa: F401
    import cgtalg.store.store  # noqa: F401
    from cgtalg.rulesets.heaps.octal import TakeAndBreak

    t0 = time.perf_counter()
    r = TakeAndBreak("0.7")
    r.misere_grundy_value([1, 2], progress=False)
    r.outcome([1, 2], misere=True, progress=False)
    return time.perf_counter() - t0


def _cgtalg(code: str, positions: list[tuple[int, ...]], grundy: bool) -> tuple[float, list]:
    from cgtalg.rulesets.heaps.octal import TakeAndBreak

    r = TakeAndBreak(code)
    t0 = time.perf_counter()
    if grundy:
        out = [r.misere_grundy_value(list(p), progress=False) for p in positions]
    else:
        out = [0 if r.outcome(list(p), misere=True, progress=False) == "P" else 1 for p in positions]
    return time.perf_counter() - t0, out


CASES = [
    ("Kayles G- of heaps 1-30", "0.77", [(n,) for n in range(1, 31)], True),
    ("Kayles outcome {14,15,16}", "0.77", [(14, 15, 16)], False),
    ("0.07 outcome {20,21,22}", "0.07", [(20, 21, 22)], False),
    ("0.123 outcome {30,31,32,33}", "0.123", [(30, 31, 32, 33)], False),
    ("Kayles outcome {20,21,22}", "0.77", [(20, 21, 22)], False),
]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows = []
    load = _load_kernel()
    for name, code, positions, grundy in CASES:
        if args.quick and "{20,21,22}" in name and code == "0.77":
            continue
        t_c, a = _cgtalg(code, positions, grundy)
        t_p, b = _plain(code, positions, grundy)
        if grundy:
            assert a == b, name
        else:
            assert [x != 0 for x in a] == [x != 0 for x in b], name
        rows.append({"case": name, "cgtalg_s": round(t_c, 3), "plain_s": round(t_p, 3),
                     "ratio": round(t_p / t_c, 1) if t_c > 0 else None})
    if args.json:
        print(json.dumps({"kernel_load_s": round(load, 3), "cases": rows}, indent=2))
    else:
        print(f"kernel load (once per process, not in the times below): {load:.3f}s")
        print(f"{'case':<30} {'cgtalg':>9} {'plain':>9} {'ratio':>7}")
        for r in rows:
            print(f"{r['case']:<30} {r['cgtalg_s']:>8.3f}s {r['plain_s']:>8.3f}s {r['ratio']:>6}x")


if __name__ == "__main__":
    main()
