"""Benchmark: certify the period of the octal game 0.1777 from scratch.

Published (A. Flammenkamp's octal-game tables; OEIS A071509): 0.1777 is eventually periodic
with period 60,620,715; the last exceptional value is at n = 160,949,017 (preperiod
160,949,018). Certification by the Guy-Smith theorem needs
``L >= 2*n0 + 2p + k = 443,139,470`` values, all computed here with the rare/common kernel
(one byte per value: about 450 MB) and checked with the period scan.

The baseline, measured in the same run, is the naive mex kernel on a prefix of
``--naive-n`` values; its time for ``L`` values is extrapolated with its O(n^2) law (said so
in the output). Run once, in the background (it takes minutes)::

    python benchmarks/bench_0_1777.py [--max-values 500000000] [--naive-n 30000] [--json]

Prints values/s, wall time, peak memory (ru_maxrss), the certified period and preperiod,
and whether they agree with the published ones.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time

PUBLISHED_PERIOD = 60_620_715
PUBLISHED_LAST_EXCEPTION = 160_949_017


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max-values", type=float, default=5e8)
    parser.add_argument("--naive-n", type=int, default=30_000)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--progress", action="store_true", help="tqdm bar (values/s)")
    args = parser.parse_args(argv)

    from cgtalg.rulesets.heaps.octal import TakeAndBreak

    # baseline: naive kernel on a prefix (compile excluded by a warm-up)
    TakeAndBreak("0.1777").grundy_sequence(2000, method="naive")
    t0 = time.perf_counter()
    TakeAndBreak("0.1777").grundy_sequence(args.naive_n, method="naive", progress=False)
    naive_t = time.perf_counter() - t0

    TakeAndBreak("0.1777").grundy_sequence(2000)  # warm-up (numba cache)
    code = TakeAndBreak("0.1777")
    t0 = time.perf_counter()
    res = code.periodicity(max_values=int(args.max_values), progress=args.progress or None)
    wall = time.perf_counter() - t0
    eng = code.engine()
    L = res.values_checked
    naive_extrapolated = naive_t * (L / args.naive_n) ** 2
    out = {
        "code": "0.1777",
        "status": res.status,
        "certified": res.certified,
        "period": res.period,
        "preperiod": res.preperiod,
        "values_computed": eng.n,
        "values_checked": L,
        "required_values": res.required_values,
        "wall_s": round(wall, 1),
        "values_per_s": round(eng.n / wall),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
        "dtype": str(eng.G.dtype),
        "rare_positions": eng.nrare,
        "split": eng.split.describe() if eng.split else None,
        "naive_prefix_values": args.naive_n,
        "naive_prefix_s": round(naive_t, 3),
        "naive_extrapolated_s_for_L (O(n^2) law)": round(naive_extrapolated),
        "speedup_vs_naive (extrapolated)": round(naive_extrapolated / wall),
        "matches_published": (res.period == PUBLISHED_PERIOD
                              and res.preperiod == PUBLISHED_LAST_EXCEPTION + 1),
    }
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print(res)
        for k, v in out.items():
            print(f"{k:40s} {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
