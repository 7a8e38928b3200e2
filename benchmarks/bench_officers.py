"""Benchmark: Officers (0.6) pushed to 2**24 values, reporting verified values per second.

Every value is proven by the rare/common kernel (a value is accepted only after the proof
scan). Baseline in the same run: the naive mex kernel on a prefix (``--naive-n``), with its
time for the full length extrapolated by its O(n^2) law (said so in the output). Officers
has no known period (Winning Ways ch. 4; Flammenkamp's tables); the run also reports the
rare/common split found and how many heaps are rare.

Usage::

    python benchmarks/bench_officers.py [--n 16777216] [--naive-n 50000] [--json] [--progress]
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=float, default=2**24)
    parser.add_argument("--naive-n", type=int, default=50_000)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--progress", action="store_true")
    args = parser.parse_args(argv)
    n = int(args.n)

    from cgtalg.rulesets.heaps.octal import TakeAndBreak

    TakeAndBreak("0.6").grundy_sequence(3000, method="naive")  # warm-up / compile
    TakeAndBreak("0.6").grundy_sequence(3000, method="sparse")
    t0 = time.perf_counter()
    TakeAndBreak("0.6").grundy_sequence(args.naive_n, method="naive", progress=False)
    naive_t = time.perf_counter() - t0

    code = TakeAndBreak("0.6")
    marks = []
    t0 = time.perf_counter()
    last = [t0]

    def progress(done, total):
        now = time.perf_counter()
        if now - last[0] > 30:
            last[0] = now
            marks.append((done, round(now - t0, 1)))
            if args.progress:
                print(f"  {done:>12,d} values  {now - t0:8.1f} s  {done / (now - t0):10,.0f} values/s",
                      file=sys.stderr)

    G = code.grundy_sequence(n, method="sparse", progress=progress)
    wall = time.perf_counter() - t0
    eng = code.engine("sparse")
    extrapolated = naive_t * (n / args.naive_n) ** 2
    out = {
        "code": "0.6",
        "values": n,
        "wall_s": round(wall, 1),
        "verified_values_per_s": round(n / wall),
        "max_value": int(G.max()),
        "rare_positions": eng.nrare,
        "split": eng.split.describe(),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
        "naive_prefix": args.naive_n,
        "naive_prefix_s": round(naive_t, 2),
        "naive_extrapolated_s (O(n^2))": round(extrapolated),
        "speedup_vs_naive (extrapolated)": round(extrapolated / wall, 1),
        "progress_marks": marks,
    }
    print(json.dumps(out, indent=2) if args.json else "\n".join(f"{k:36s} {v}" for k, v in out.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
