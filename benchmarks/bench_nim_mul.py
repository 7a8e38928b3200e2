"""Benchmark 64-bit nim-multiplication and nim-inversion.

Compares, in one run:

* the numba kernels ``cgtalg.nimbers.kernels.nim_mul_array`` / ``nim_inv_array`` on ``--n``
  random uint64 values (JIT compile / cache load excluded by a warm-up; best of ``--repeat``);
* the pure-Python recursion ``cgtalg.nimbers.finite.nim_mul`` / ``nim_inv`` on a sample of
  ``--py-n`` values, scaled per operation;
* the ``galois`` library's GF(2^64) (if it imports). galois represents GF(2^64) in a
  *polynomial* basis, so its product is a different (isomorphic) field multiplication: a
  speed peer, not the same function. galois computes GF(2^64) in its "python-calculate" mode
  (object arrays), so it is timed on smaller samples and scaled per operation. For reference
  the run also times galois GF(2^32), which galois JIT-compiles ("jit-calculate"): a compiled
  peer on half-size elements.

Usage::

    python benchmarks/bench_nim_mul.py [--n 1000000] [--py-n 10000] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from typing import Callable

import numpy as np


def _best(fn: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=1_000_000, help="kernel sample size")
    parser.add_argument("--py-n", type=int, default=10_000, help="pure-Python sample size")
    parser.add_argument("--galois-n", type=int, default=10_000, help="galois GF(2^64) products")
    parser.add_argument(
        "--galois-inv-n", type=int, default=100, help="galois GF(2^64) inverses (slow)"
    )
    parser.add_argument("--repeat", type=int, default=5, help="best of this many kernel runs")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-galois", action="store_true", help="skip galois")
    parser.add_argument("--json", action="store_true", help="print results as JSON")
    args = parser.parse_args(argv)

    import numba

    from cgtalg.nimbers.finite import nim_inv, nim_mul
    from cgtalg.nimbers.kernels import nim_inv_array, nim_mul_array

    rng = np.random.default_rng(args.seed)
    a = rng.integers(1, 2**64, args.n, dtype=np.uint64, endpoint=False)
    b = rng.integers(1, 2**64, args.n, dtype=np.uint64, endpoint=False)
    rows: list[dict[str, object]] = []

    def record(op: str, impl: str, n: int, seconds: float, note: str = "") -> None:
        rows.append({"op": op, "impl": impl, "n": n, "ns_per_op": seconds / n * 1e9, "note": note})

    # numba kernels (warm up: compile or load the on-disk cache)
    nim_mul_array(a[:1000], b[:1000])
    nim_inv_array(a[:1000])
    record("mul", "cgtalg numba kernel", args.n, _best(lambda: nim_mul_array(a, b), args.repeat))
    record("inv", "cgtalg numba kernel", args.n, _best(lambda: nim_inv_array(a), args.repeat))

    # pure-Python recursion
    pa, pb = a[: args.py_n].tolist(), b[: args.py_n].tolist()
    t0 = time.perf_counter()
    prod = [nim_mul(x, y) for x, y in zip(pa, pb)]
    record("mul", "cgtalg pure Python", len(pa), time.perf_counter() - t0)
    t0 = time.perf_counter()
    inv = [nim_inv(x) for x in pa]
    record("inv", "cgtalg pure Python", len(pa), time.perf_counter() - t0)
    ok = prod == nim_mul_array(a[: args.py_n], b[: args.py_n]).tolist()
    ok = ok and inv == nim_inv_array(a[: args.py_n]).tolist()

    galois_version = None
    if not args.no_galois:
        try:
            import galois
        except ImportError:  # pragma: no cover - optional
            galois = None
        if galois is not None:
            galois_version = galois.__version__
            gf64 = galois.GF(2**64)
            mode = gf64.ufunc_mode
            ga = gf64(a[: args.galois_n].tolist())
            gb = gf64(b[: args.galois_n].tolist())
            ga * gb  # warm-up
            record("mul", "galois GF(2^64)", len(ga), _best(lambda: ga * gb, 1), mode)
            gi = gf64(a[: args.galois_inv_n].tolist())
            record("inv", "galois GF(2^64)", len(gi), _best(lambda: gi**-1, 1), mode)
            gf32 = galois.GF(2**32)
            mask = np.uint64(0xFFFFFFFF)
            a32 = gf32(np.maximum(a & mask, 1).astype(np.int64))
            b32 = gf32(np.maximum(b & mask, 1).astype(np.int64))
            a32[:1000] * b32[:1000]  # warm-up (JIT)
            a32[:1000] ** -1
            mode32 = gf32.ufunc_mode
            record("mul", "galois GF(2^32)", args.n, _best(lambda: a32 * b32, args.repeat), mode32)
            record("inv", "galois GF(2^32)", args.n, _best(lambda: a32**-1, args.repeat), mode32)

    ref = {r["op"]: r["ns_per_op"] for r in rows if r["impl"] == "cgtalg numba kernel"}
    for r in rows:
        r["ratio_vs_kernel"] = r["ns_per_op"] / ref[r["op"]]
    meta = {
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "galois": galois_version,
        "cpu": platform.processor() or platform.machine(),
        "cpu_count": os.cpu_count(),
        "kernel_matches_pure_python": ok,
    }
    if args.json:
        json.dump({"meta": meta, "results": rows}, sys.stdout, indent=2)
        print()
    else:
        print(f"nim arithmetic on random 64-bit values (python {meta['python']}, numba "
              f"{meta['numba']}, galois {galois_version}, {os.cpu_count()} CPUs)")
        head = f"{'op':<4} {'implementation':<22} {'n timed':>9} {'ns/op':>12} {'x kernel':>10}"
        print(head + "  note")
        for r in rows:
            print(f"{r['op']:<4} {r['impl']:<22} {r['n']:>9} {r['ns_per_op']:>12.1f} "
                  f"{r['ratio_vs_kernel']:>10.1f}  {r['note']}")
        print(f"kernel results match the pure-Python recursion: {ok}")
        print("galois uses a polynomial basis: a speed peer, not the same product.")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
