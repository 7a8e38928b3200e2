"""Benchmark: the rare/common ("sparse space") Grundy kernel against the naive mex kernel.

For Kayles (0.77) and 0.16, in one run: both kernels at n = 10**5, the rare/common kernel at
n = 10**6 (and 10**7), the naive kernel at 10**6 extrapolated from its 10**5 time with its
O(n^2) law (said so in the output: measuring it would take minutes). Also the time to
certify the periods of 0.16 and 0.56 from scratch (Guy-Smith theorem). JIT compilation is
excluded by a warm-up (numba cache).

Usage::

    python benchmarks/bench_octal_sparse.py [--big 10000000] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time


def _time(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--small", type=float, default=1e5, help="n for both kernels")
    parser.add_argument("--mid", type=float, default=1e6, help="n for sparse (naive extrapolated)")
    parser.add_argument("--big", type=float, default=1e7, help="extra n for the sparse kernel (0: skip)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    small, mid, big = int(args.small), int(args.mid), int(args.big)

    from cgtalg.rulesets.heaps.octal import TakeAndBreak

    rows = []
    for code in ("0.77", "0.16"):
        TakeAndBreak(code).grundy_sequence(3000, method="naive")  # warm-up / compile
        TakeAndBreak(code).grundy_sequence(3000, method="sparse")
        t_naive = _time(lambda: TakeAndBreak(code).grundy_sequence(small, method="naive", progress=False))
        t_sparse_small = _time(lambda: TakeAndBreak(code).grundy_sequence(small, method="sparse", progress=False))
        g = TakeAndBreak(code)
        t_sparse_mid = _time(lambda: g.grundy_sequence(mid, method="sparse", progress=False))
        t_naive_mid = t_naive * (mid / small) ** 2
        row = {
            "code": code,
            f"naive_s@{small}": round(t_naive, 3),
            f"sparse_s@{small}": round(t_sparse_small, 4),
            f"speedup@{small}": round(t_naive / t_sparse_small, 1),
            f"sparse_s@{mid}": round(t_sparse_mid, 3),
            f"naive_s@{mid} (extrapolated, O(n^2))": round(t_naive_mid, 1),
            f"speedup@{mid} (vs extrapolated naive)": round(t_naive_mid / t_sparse_mid),
            f"sparse_values_per_s@{mid}": round(mid / t_sparse_mid),
            "naive_values_per_s@small": round(small / t_naive),
        }
        if big:
            h = TakeAndBreak(code)
            t_big = _time(lambda: h.grundy_sequence(big, method="sparse", progress=False))
            row[f"sparse_values_per_s@{big}"] = round(big / t_big)
            eng = h.engine("sparse")
            row["rare_positions"] = eng.nrare
            row["split"] = eng.split.describe()
        rows.append(row)

    cert = []
    for code in ("0.16", "0.56"):
        TakeAndBreak(code).grundy_sequence(3000)
        c = TakeAndBreak(code)
        t = _time(lambda: c.periodicity())
        r = c._period
        cert.append({"code": code, "certify_s": round(t, 3), "period": r.period, "preperiod": r.preperiod,
                     "values": r.values_checked, "bound": r.bound})

    out = {"kernels": rows, "certification": cert}
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        for row in rows:
            print(f"-- {row['code']}")
            for k, v in row.items():
                if k != "code":
                    print(f"   {k:45s} {v}")
        for c in cert:
            print(f"-- certify {c['code']}: {c['certify_s']} s, period {c['period']}, "
                  f"preperiod {c['preperiod']} ({c['values']} values; {c['bound']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
