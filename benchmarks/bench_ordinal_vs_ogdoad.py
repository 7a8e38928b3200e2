"""Ordinal nimber arithmetic: cgtalg's ``Nimber`` against ogdoad (Rust, PyPI) in the same run.

Run:  python benchmarks/bench_ordinal_vs_ogdoad.py [--quick] [--json]

The benchmark set (issue 8): ω⊗ω, (ω+1)⊗(ω²+ω+5), and random nim-sums of monomials below
ω^(ω^k), k = 1..4, for each operation ogdoad offers on ordinals (``*``, ``+``, ``inv``, ``/``,
``nim_pow``, ``checked_sqrt``). ogdoad ships no ordinal benchmark file of its own (its Rust
``benches/`` cover other modules), so this set is the issue's.

* one-off: the mean time of one operation between prebuilt values, cgtalg ``Nimber`` objects
  against ogdoad ``Ordinal`` objects, and cgtalg on sympy ordinals (``lenstra.nim_mul``, with
  the memoised boundary);
* bulk: one call over N pairs, ``nim_mul(list, list)`` against a list comprehension over
  ogdoad objects (ogdoad has no vectorised ordinal product), and for finite nimbers the
  compiled array kernel (``nim_mul(ndarray, ndarray)``) against ``ogdoad.nim_mul`` in a loop.

Ratios are ogdoad time / cgtalg time (> 1: cgtalg faster). Rows for ogdoad are skipped with a
note when it is not installed (``pip install cgtalg[bench]``).
"""

from __future__ import annotations

import argparse
import json
import random
import time

import numpy as np

from cgtalg.nimbers import lenstra
from cgtalg.nimbers.nimber import Nimber, nim_mul
from cgtalg.nimbers.ordinal import _from_sympy, format_ordinal, ordinal

try:
    import ogdoad
except ImportError:  # pragma: no cover - optional
    ogdoad = None


def random_text(rng: random.Random, terms: int, k: int, max_coeff: int = 15) -> str:
    """A random nim-sum of ``terms`` monomials ω^β·c below ω^(ω^k) (β < ω^k)."""
    parts = []
    for _ in range(terms):
        exp = "+".join(f"w^{j}*{rng.randint(1, 3)}" for j in range(k) if rng.random() < 0.6) or "1"
        parts.append(f"w^({exp})*{rng.randint(1, max_coeff)}")
    return "+".join(parts)


def to_ogdoad(cnf):
    """ogdoad Ordinal of an internal CNF (int, or tuple of (exponent, coefficient))."""
    O = ogdoad.Ordinal
    if isinstance(cnf, int):
        return O(cnf)
    acc = O(0)
    for e, c in cnf:
        acc = acc.nim_add(O.monomial(to_ogdoad(e), c))
    return acc


def per_call(f, n: int) -> float:
    """Best of 3 mean µs per call of f over n calls."""
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        for _ in range(n):
            f()
        best = min(best, (time.perf_counter() - t) / n)
    return best * 1e6


def once(f) -> float:
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t)
    return best * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer repetitions")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    reps = 300 if args.quick else 2000
    rng = random.Random(8)
    cases = [("ω⊗ω", "w", "w"), ("(ω+1)⊗(ω²+ω+5)", "w+1", "w^2+w+5")]
    for k in (1, 2, 3, 4):
        cases.append((f"3 terms < ω^(ω^{k})", random_text(rng, 3, k), random_text(rng, 3, k)))
    rows = []
    for label, ta, tb in cases:
        sa, sb = ordinal(ta), ordinal(tb)
        na, nb = Nimber(sa), Nimber(sb)
        ga = gb = None
        if ogdoad is not None:
            ga, gb = to_ogdoad(_from_sympy(sa) if not isinstance(sa, int) else sa), to_ogdoad(
                _from_sympy(sb) if not isinstance(sb, int) else sb)
        heavy = "ω^(ω^3)" in label or "ω^(ω^4)" in label
        ops = [
            ("mul", lambda: na * nb, (lambda: ga * gb), reps),
            ("add", lambda: na + nb, (lambda: ga + gb), reps),
            ("inv", lambda: na.inv(), (lambda: ga.inv()), max(3, reps // (200 if heavy else 20))),
            ("div", lambda: na / nb, (lambda: ga / gb), max(3, reps // (200 if heavy else 20))),
            ("pow5", lambda: na ** 5, (lambda: ga.nim_pow(5)), max(3, reps // 20)),
            ("sqrt", lambda: na.sqrt(), (lambda: ga.checked_sqrt()), max(3, reps // (200 if heavy else 20))),
        ]
        if "ω^(ω^4)" in label:
            # ogdoad's inv / checked_sqrt on these did not return within minutes (measured
            # 2026-11-22; cgtalg's inverse there takes ~60 ms): only mul, add, pow are timed.
            ops = [o for o in ops if o[0] in ("mul", "add", "pow5")]
        for op, fc, fo, n in ops:
            row = {"case": label, "op": op, "a": format_ordinal(sa), "b": format_ordinal(sb),
                   "cgtalg_us": per_call(fc, n)}
            if op == "mul":
                row["cgtalg_sympy_us"] = per_call(lambda: lenstra.nim_mul(sa, sb), n)
            if ogdoad is not None:
                row["ogdoad_us"] = per_call(fo, n)
                row["ratio"] = row["ogdoad_us"] / row["cgtalg_us"]
            rows.append(row)
    # bulk ordinal products: one call over N pairs
    N = 200 if args.quick else 1000
    for k in (1, 2, 3):
        A = [Nimber(random_text(rng, 2, k)) for _ in range(N)]
        B = [Nimber(random_text(rng, 2, k)) for _ in range(N)]
        row = {"case": f"bulk {N} products, 2 terms < ω^(ω^{k})", "op": "mul (bulk)",
               "cgtalg_us": once(lambda: nim_mul(A, B))}
        if ogdoad is not None:
            GA = [to_ogdoad(lenstra._engine().cnf(a._v) if not a.is_finite else int(a)) for a in A]
            GB = [to_ogdoad(lenstra._engine().cnf(b._v) if not b.is_finite else int(b)) for b in B]
            row["ogdoad_us"] = once(lambda: [x * y for x, y in zip(GA, GB)])
            row["ratio"] = row["ogdoad_us"] / row["cgtalg_us"]
        rows.append(row)
    # bulk finite products: compiled kernel vs ogdoad's int function in a loop
    M = 10_000 if args.quick else 100_000
    xs = np.random.default_rng(1).integers(0, 2**63, M, dtype=np.uint64)
    ys = np.random.default_rng(2).integers(0, 2**63, M, dtype=np.uint64)
    nim_mul(xs[:10], ys[:10])  # compile
    row = {"case": f"bulk {M} finite 64-bit products", "op": "mul (array)", "cgtalg_us": once(lambda: nim_mul(xs, ys))}
    if ogdoad is not None:
        lx, ly = xs.tolist(), ys.tolist()
        f = ogdoad.nim_mul
        row["ogdoad_us"] = once(lambda: [f(a, b) for a, b in zip(lx, ly)])
        row["ratio"] = row["ogdoad_us"] / row["cgtalg_us"]
    rows.append(row)
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    if ogdoad is None:
        print("note: ogdoad is not installed (pip install 'cgtalg[bench]'); ogdoad rows skipped")
    print(f"{'case':<42} {'op':<12} {'cgtalg µs':>11} {'sympy µs':>9} {'ogdoad µs':>10} {'ogdoad/cgtalg':>14}")
    for r in rows:
        sym = f"{r['cgtalg_sympy_us']:.2f}" if "cgtalg_sympy_us" in r else ""
        og = f"{r['ogdoad_us']:.2f}" if "ogdoad_us" in r else "skipped"
        ratio = f"{r['ratio']:.2f}x" if "ratio" in r else ""
        print(f"{r['case']:<42} {r['op']:<12} {r['cgtalg_us']:>11.2f} {sym:>9} {og:>10} {ratio:>14}")


if __name__ == "__main__":
    main()
