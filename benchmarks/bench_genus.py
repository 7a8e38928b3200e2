"""Benchmark the genus (Winning Ways ch. 13) against its definition, in one run.

* cgtalg: ``ruleset.genus_sequence(n)``: heaps as misère canonical forms built from canonical
  sums, and the genus by the mex rule with (γ, γ⊕1)-carrying, one fold over the canonical DAG.
* baseline (the definition): for every heap ``h`` the misère Grundy values of
  ``h + k·*2`` for ``k = 0 .. K`` by a plain memoised recursion over the literal forms, where
  ``K`` is the number of superscripts needed to reach the period-2 tail (given the baseline
  for free: it does not have to discover where to stop).

Both start from cold caches (fresh rulesets, cleared evaluator caches).

Usage::

    python benchmarks/bench_genus.py [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time


def _cgtalg(code: str, n: int) -> tuple[float, list]:
    from cgtalg.core.fold import registered_evaluators
    from cgtalg.rulesets.heaps.octal import TakeAndBreak

    for ev in registered_evaluators().values():
        ev.cache.clear()
    r = TakeAndBreak(code)
    t0 = time.perf_counter()
    seq = r.genus_sequence(n + 1, progress=False)
    return time.perf_counter() - t0, seq


def _baseline(code: str, n: int, depth: list[int]) -> tuple[float, list]:
    import cgtalg as cg
    from cgtalg.rulesets.heaps.octal import TakeAndBreak

    sys.setrecursionlimit(100000)
    r = TakeAndBreak(code)
    memo: dict[int, int] = {}

    def mg(g) -> int:
        v = memo.get(g.id)
        if v is None:
            opts = g.options
            if not opts:
                v = 1
            else:
                s = {mg(o) for o in opts}
                v = 0
                while v in s:
                    v += 1
            memo[g.id] = v
        return v

    t0 = time.perf_counter()
    out = []
    for h in range(n + 1):
        G = r.heap(h)
        row = []
        for k in range(depth[h]):
            row.append(mg(G))
            G = G + cg.nim(2)
        out.append(row)
    return time.perf_counter() - t0, out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows = []
    for code, n in [("0.123", 300), ("0.07", 30), ("0.77", 26)]:
        t_c, seq = _cgtalg(code, n)
        depth = [len(x.gammas) for x in seq]
        t_b, base = _baseline(code, n, depth)
        assert all(tuple(b) == x.superscripts(len(b)) for b, x in zip(base, seq)), code
        rows.append({"game": code, "heaps": n, "cgtalg_s": round(t_c, 4), "definition_s": round(t_b, 4),
                     "speedup": round(t_b / t_c, 1) if t_c > 0 else None})
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        print(f"{'game':<7} {'heaps':>5} {'cgtalg':>9} {'definition':>11} {'ratio':>7}")
        for r in rows:
            print(f"{r['game']:<7} {r['heaps']:>5} {r['cgtalg_s']:>8.3f}s {r['definition_s']:>10.3f}s {r['speedup']:>6}x")


if __name__ == "__main__":
    main()
