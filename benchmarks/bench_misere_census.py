"""Benchmark the day-5 misère census (4171780 games born by day 5; ONAG ch. 12).

Compares, in one run, ways of deciding for every one of the 2^22 option sets ``S`` (subsets of
the 22 games born by day 4) whether ``{S}`` is reducible:

* the numba kernel ``cgtalg.misere._census_kernel.scan_masks`` over all 2^22 masks (JIT
  compile / cache load excluded by a warm-up; best of ``--repeat``);
* the numpy-vectorised scan ``scan_masks_numpy`` over all 2^22 masks;
* the same rule as a pure-Python loop over a random sample of ``--py-n`` masks, extrapolated;
* the general canonicaliser ``misere_simplest`` on ``--canon-n`` random subsets, extrapolated
  (what one would do without the bitmask formulation).

It also times the day-6 count (the exact integer from the counting formula, given the scan).

Usage::

    python benchmarks/bench_misere_census.py [--py-n 200000] [--canon-n 50000] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from typing import Callable

import numpy as np


def _best(fn: Callable[[], object], repeat: int) -> tuple[float, object]:
    best, out = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def _python_scan(masks, a_masks, b_masks, is_zero, pmask) -> int:
    irreducible = 0
    rules = list(zip(a_masks, b_masks, is_zero))
    for m in masks:
        for a, b, z in rules:
            if m & a == a and m != a and m & ~a & ~b == 0 and (not z or m & pmask):
                break
        else:
            irreducible += 1
    return irreducible


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--py-n", type=int, default=200_000, help="pure-Python sample of masks")
    parser.add_argument("--canon-n", type=int, default=50_000, help="canonicaliser sample")
    parser.add_argument("--repeat", type=int, default=3, help="best of this many full scans")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print results as JSON")
    args = parser.parse_args(argv)

    import cgtalg as cg
    from cgtalg.misere._census_kernel import scan_masks, scan_masks_numpy
    from cgtalg.misere.canonical import misere_simplest
    from cgtalg.misere.census import misere_census_scan, misere_count_formula

    t0 = time.perf_counter()
    scan = misere_census_scan(5)  # derives the masks from the day-4 forms (and warms up numba)
    setup = time.perf_counter() - t0
    universe = [f.game for f in scan.universe]
    n = len(universe)
    total = 1 << n
    a = np.array(scan.a_masks, dtype=np.int64)
    b = np.array(scan.b_masks, dtype=np.int64)
    z = np.array([h.game.is_zero for h in scan.candidates])
    zero_bit = next(i for i, g in enumerate(universe) if g.is_zero)
    rows: list[dict[str, object]] = []

    def record(impl: str, masks: int, seconds: float, count: int | None, note: str = "") -> None:
        rows.append(
            {
                "impl": impl,
                "masks_timed": masks,
                "seconds_timed": seconds,
                "seconds_for_2^22": seconds * total / masks,
                "ns_per_mask": seconds / masks * 1e9,
                "count": count,
                "note": note,
            }
        )

    scan_masks(n, a, b, z, scan.p_mask, zero_bit, 0, 1024)  # warm-up (cache load)
    sec, res = _best(lambda: scan_masks(n, a, b, z, scan.p_mask, zero_bit), args.repeat)
    record("numba kernel (all masks)", total, sec, res[0])
    sec, res = _best(lambda: scan_masks_numpy(n, a, b, z, scan.p_mask, zero_bit), args.repeat)
    record("numpy vectorised (all masks)", total, sec, res[0])

    rng = random.Random(args.seed)
    sample = [rng.getrandbits(n) for _ in range(args.py_n)]
    t0 = time.perf_counter()
    irr = _python_scan(sample, scan.a_masks, scan.b_masks, z.tolist(), scan.p_mask)
    sec = time.perf_counter() - t0
    record("pure Python mask loop (sample)", len(sample), sec, round(irr * total / len(sample)),
           "count extrapolated from the sample")

    sample = [rng.getrandbits(n) for _ in range(args.canon_n)]
    t0 = time.perf_counter()
    irr = 0
    for m in sample:
        s = [g for i, g in enumerate(universe) if m >> i & 1]
        irr += misere_simplest(s) is cg.game(s)
    sec = time.perf_counter() - t0
    record("general canonicaliser (sample)", len(sample), sec, round(irr * total / len(sample)),
           "count extrapolated from the sample")

    t0 = time.perf_counter()
    day6 = misere_count_formula(6).value
    day6_seconds = time.perf_counter() - t0

    kernel = rows[0]["seconds_for_2^22"]
    for r in rows:
        r["ratio_vs_numba"] = r["seconds_for_2^22"] / kernel
    result = {
        "day5_count": scan.count,
        "setup_seconds": setup,
        "day6_bits": day6.bit_length(),
        "day6_formula_seconds": day6_seconds,
        "rows": rows,
        "machine": {"python": sys.version.split()[0], "platform": platform.platform(),
                    "cpus": os.cpu_count(), "numpy": np.__version__},
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"day-5 count: {scan.count}  (first call incl. deriving masks + JIT/cache: {setup:.2f} s)")
    print(f"day-6 count: an exact integer of {day6.bit_length()} bits, formula in {day6_seconds:.3f} s")
    print(f"{'implementation':34s} {'timed masks':>12s} {'s for 2^22':>11s} {'ns/mask':>9s} {'x numba':>9s}  count")
    for r in rows:
        print(f"{r['impl']:34s} {r['masks_timed']:12d} {r['seconds_for_2^22']:11.3f} "
              f"{r['ns_per_mask']:9.1f} {r['ratio_vs_numba']:9.1f}  {r['count']} {r['note']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
