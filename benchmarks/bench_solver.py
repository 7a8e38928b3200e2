"""The generic position solver and the periodicity finder, against plain baselines (one run).

Run:  python benchmarks/bench_solver.py [--n 300] [--json]

- Solver: a two-counter take-1-2-3 game with n² positions, solved by cgtalg's Solver
  (validates moves, keeps Grundy values and strategies) vs a bare lru_cache win/loss recursion.
- build_dag on the same positions (networkx construction).
- find_period (numba) on 10^7 values vs the same scan in pure Python.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from functools import lru_cache

import numpy as np

from cgtalg.rulesets.parity import parity_class_table
from cgtalg.rulesets.heaps.periodicity import find_period
from cgtalg.rulesets.protocol import ruleset_from_function
from cgtalg.rulesets.solver import Solver, build_dag


def moves(p):
    x, y = p
    return [(x - t, y) for t in (1, 2, 3) if t <= x] + [(x, y - t) for t in (1, 2, 3) if t <= y]


def best(f, k=3):
    times, out = [], None
    for _ in range(k):
        t = time.perf_counter()
        out = f()
        times.append(time.perf_counter() - t)
    return min(times), out


def python_period_scan(a, min_cycles=3):
    """The same smallest-period scan as find_period, in pure Python (the baseline)."""
    n_values = len(a)
    for p in range(1, n_values // min_cycles + 1):
        n = n_values - 1 - p
        while n >= 0 and a[n + p] == a[n]:
            n -= 1
        if n + 1 <= n_values - min_cycles * p:
            return p, n + 1
    return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    n = args.n
    ruleset = ruleset_from_function("two-counters", moves)
    t_solve, _ = best(lambda: Solver(ruleset).outcome((n - 1, n - 1)))
    sys.setrecursionlimit(100_000)

    def baseline():
        @lru_cache(maxsize=None)
        def win(p):
            return any(not win(q) for q in moves(p))

        return win((n - 1, n - 1))

    t_base, _ = best(baseline)
    t_dag, _ = best(lambda: build_dag(ruleset, (n - 1, n - 1), labels=False), 1)

    rng = np.random.default_rng(0)
    seq = np.concatenate([rng.integers(0, 30, 1_000_000), np.tile(rng.integers(0, 30, 60_000), 150)])
    find_period(seq[:1000])  # load the compiled kernel
    t_fp, res = best(lambda: find_period(seq))
    t_py, py = best(lambda: python_period_scan(seq.tolist()), 1)
    assert py == (res.period, res.preperiod)
    t_tab, _ = best(lambda: parity_class_table(20_000), 1)
    out = {
        "positions": n * n, "solver_s": t_solve, "lru_cache_baseline_s": t_base,
        "solver_over_baseline": t_solve / t_base, "positions_per_s": n * n / t_solve,
        "build_dag_s": t_dag, "build_dag_nodes_per_s": n * n / t_dag,
        "find_period_values": len(seq), "find_period_s": t_fp, "python_scan_s": t_py,
        "find_period_speedup": t_py / t_fp, "parity_class_table_20000_s": t_tab,
    }
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"solver: {n * n} positions in {t_solve:.2f} s = {n * n / t_solve:,.0f} positions/s; "
          f"bare lru_cache recursion {t_base:.2f} s (solver / baseline = {t_solve / t_base:.2f})")
    print(f"build_dag: {t_dag:.2f} s = {n * n / t_dag:,.0f} nodes/s")
    print(f"find_period: {len(seq):,} values (period {res.period}, preperiod {res.preperiod}) in {t_fp:.3f} s; "
          f"pure-Python scan {t_py:.1f} s ({t_py / t_fp:.0f}x)")
    print(f"parity class table for b <= 20000: {t_tab:.2f} s")


if __name__ == "__main__":
    main()
