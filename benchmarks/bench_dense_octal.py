"""Benchmark: certifying dense octal games with long preperiods (0.376, 0.354) from scratch.

Each game runs in a fresh subprocess (so its peak memory is its own), which reports:

- the time to certify from scratch with ``periodicity`` (Guy-Smith bound; every value
  proved by the rare/common kernel), the values computed and the peak resident memory;
- the old certificate scan (walking down from the end for every candidate period, the
  path that took 665 s on 0.376): measured in the same run on the first candidates of
  every prefix the search examined, and extrapolated to all candidates by the exact count
  of comparisons the walk makes (known from the run lengths of the new scan);
- the naive mex kernel: measured on a prefix and extrapolated to the certified length by
  its O(n^2) law (said so in the output: measuring it would take days).

Usage::

    python benchmarks/bench_dense_octal.py [--codes 0.376,0.354] [--json]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

CHILD = r"""
import json, resource, sys, time
import numpy as np
from cgtalg.rulesets.heaps import grundy_kernels as K
from cgtalg.rulesets.heaps.octal import TakeAndBreak

code, max_values, naive_n, sample_p = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
# warm-up: JIT (numba cache) outside the timings
TakeAndBreak("0.77").periodicity(progress=False)
TakeAndBreak(code).grundy_sequence(3000, method="naive", progress=False)
w = TakeAndBreak("0.376").grundy_sequence(3000, progress=False)
K.last_match_scan(w, 3000, 1, 10, 2, 3, 0, 0)

prefixes = []
real = K.tail_match_lengths
def spy(G, L, Z):
    t = time.perf_counter()
    out = real(G, L, Z)
    prefixes.append((L, time.perf_counter() - t))
    return out
K.tail_match_lengths = spy

g = TakeAndBreak(code)
t0 = time.perf_counter()
res = g.periodicity(max_values=max_values, progress=False)
t_cert = time.perf_counter() - t0
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
K.tail_match_lengths = real
eng = g.engine()
G = eng.G
h, k = 2, g.k

# the old walk: per prefix L, the comparisons it makes for every p <= (L - k) // 2
def walk_steps(L):
    p_hi = (L - k) // h
    Z = real(G, L, np.zeros(p_hi + 1, dtype=np.int64))
    p = np.arange(1, p_hi + 1, dtype=np.int64)
    lim = (L - h * p - k) // h
    ok = lim >= 1
    # the walk compares n = L-p-1 down to lim (stops at the first mismatch: Z[p] + 1 compares)
    span = (L - p - 1) - lim + 1
    steps = np.minimum(Z[1:] + 1, span)
    steps = np.where(ok, steps, 0)
    # the walk stops at the first accepted p
    if res.certified and L == res.values_checked:
        steps[res.period:] = 0
    return int(steps.sum()), int(steps[:sample_p].sum())

old_total = 0.0
scan_new = 0.0
detail = []
for L, t_new in prefixes:
    total, sample = walk_steps(L)
    hi = min(sample_p, (L - k) // h)
    if res.certified and L == res.values_checked:
        hi = min(hi, res.period)
    t = time.perf_counter()
    K.last_match_scan(G, L, 1, hi, h, k, 0, 0)
    t_sample = time.perf_counter() - t
    est = t_sample * total / sample if sample else 0.0
    old_total += est
    scan_new += t_new
    detail.append({"L": L, "old_walk_s_extrapolated": round(est, 2), "new_scan_s": round(t_new, 4)})

# naive kernel on a prefix, O(n^2) law
t = time.perf_counter()
TakeAndBreak(code).grundy_sequence(naive_n, method="naive", progress=False)
t_naive = time.perf_counter() - t
t_sparse = None
t = time.perf_counter()
TakeAndBreak(code).grundy_sequence(naive_n, method="sparse", progress=False)
t_sparse = time.perf_counter() - t
L = res.values_checked
naive_full = t_naive * (L / naive_n) ** 2

print(json.dumps({
    "code": code, "certified": res.certified, "period": res.period, "preperiod": res.preperiod,
    "values": L, "certify_s": round(t_cert, 2), "peak_rss_MB": round(rss / 2**20),
    "kernel_mode": eng.mode, "rare_heaps": int(eng.nrare), "values_per_s": round(L / t_cert),
    "prefixes_examined": [d["L"] for d in detail],
    "new_scans_s": round(scan_new, 3),
    "old_walk_s (extrapolated by exact comparison count)": round(old_total),
    "old_path_s (computation + old walk)": round(t_cert - scan_new + old_total),
    "speedup_vs_old_path": round((t_cert - scan_new + old_total) / t_cert, 1),
    f"naive_s@{naive_n}": round(t_naive, 2), f"sparse_s@{naive_n}": round(t_sparse, 3),
    "naive_s_full (extrapolated, O(n^2))": round(naive_full),
    "speedup_vs_naive (extrapolated)": round(naive_full / t_cert),
    "detail": detail,
}))
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--codes", default="0.376,0.354")
    parser.add_argument("--naive-n", type=int, default=1 << 15, help="prefix for the naive kernel")
    parser.add_argument("--sample-p", type=int, default=4000, help="candidates timed for the old walk")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = []
    for code in args.codes.split(","):
        out = subprocess.run([sys.executable, "-c", CHILD, code, str(30_000_000), str(args.naive_n),
                              str(args.sample_p)], capture_output=True, text=True, check=True)
        row = json.loads(out.stdout.strip().splitlines()[-1])
        rows.append(row)
        if not args.json:
            print(f"{code}: certified={row['certified']} period {row['period']}, preperiod {row['preperiod']}, "
                  f"{row['values']:,} values in {row['certify_s']} s ({row['values_per_s']:,} values/s, "
                  f"kernel {row['kernel_mode']}, {row['rare_heaps']} rare heaps), peak {row['peak_rss_MB']} MB")
            print(f"  prefixes examined: {row['prefixes_examined']}; O(L) run-length scans {row['new_scans_s']} s")
            print(f"  old walking scan: ~{row['old_walk_s (extrapolated by exact comparison count)']:,} s "
                  f"(timed on {args.sample_p} candidates per prefix, extrapolated by the exact count of "
                  f"comparisons); old path ~{row['old_path_s (computation + old walk)']:,} s: "
                  f"{row['speedup_vs_old_path']}x slower")
            print(f"  naive kernel: {row[f'naive_s@{args.naive_n}']} s for {args.naive_n} values "
                  f"(sparse {row[f'sparse_s@{args.naive_n}']} s); at {row['values']:,} values "
                  f"~{row['naive_s_full (extrapolated, O(n^2))']:,} s extrapolated by O(n^2): "
                  f"{row['speedup_vs_naive (extrapolated)']:,}x slower")
    if args.json:
        print(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
