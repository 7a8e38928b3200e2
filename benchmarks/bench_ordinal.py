"""Ordinal nimber arithmetic below ω^(ω^ω) (Lenstra's κ/α method), with same-run baselines.

Run:  python benchmarks/bench_ordinal.py [--json]

- products of random ordinals of growing size (terms, and the largest prime κ involved);
- inverses by the tower method (extended Euclid one level at a time) against the textbook
  a^(2^E − 2) by square-and-multiply in the same κ-field (the baseline), on the same inputs.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from cgtalg.nimbers.lenstra import nim_degree, nim_inv, nim_mul, nim_pow
from cgtalg.nimbers.ordinal import format_ordinal, ordinal


def random_ordinal(rng: random.Random, terms: int, max_exp_digits: int, max_coeff: int = 15):
    """A random nim-sum of monomials ω^(ω^k·a_k + ... ) ·c below ω^(ω^max_exp_digits)."""
    parts = []
    for _ in range(terms):
        exp = "+".join(f"w^{k}*{rng.randint(1, 3)}" for k in range(max_exp_digits) if rng.random() < 0.6) or "1"
        parts.append(f"w^({exp})*{rng.randint(1, max_coeff)}")
    return ordinal("+".join(parts))


def timed(f, repeat=1):
    best = float("inf")
    out = None
    for _ in range(repeat):
        t = time.perf_counter()
        out = f()
        best = min(best, time.perf_counter() - t)
    return best, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rng = random.Random(5)
    rows = []
    for terms, digits in ((3, 2), (3, 3), (6, 3), (3, 4)):
        pairs = [(random_ordinal(rng, terms, digits), random_ordinal(rng, terms, digits)) for _ in range(20)]
        t, _ = timed(lambda: [nim_mul(a, b) for a, b in pairs])
        rows.append({"operation": "product", "terms": terms, "below": f"ω^(ω^{digits})",
                     "ms_per_op": 1e3 * t / len(pairs)})
    for text in ("w^2*3+w+1", "w^(w+3)+w^w*2+5", "w^(w^2)+w^(w+1)+w^3+7"):
        a = ordinal(text)
        degree = nim_degree(a)
        t_tower, inv = timed(lambda: nim_inv(a), 3)
        t_pow, inv_pow = timed(lambda: nim_pow(a, 2**degree - 2), 1)
        assert inv == inv_pow and nim_mul(a, inv) == 1
        rows.append({"operation": "inverse", "a": format_ordinal(a), "degree": degree,
                     "tower_ms": 1e3 * t_tower, "power_baseline_ms": 1e3 * t_pow,
                     "speedup": t_pow / t_tower})
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    for r in rows:
        if r["operation"] == "product":
            print(f"product of two {r['terms']}-term ordinals below {r['below']}: {r['ms_per_op']:.2f} ms")
        else:
            print(f"inverse of {r['a']} (degree {r['degree']}): tower {r['tower_ms']:.1f} ms, "
                  f"a^(2^E-2) baseline {r['power_baseline_ms']:.1f} ms ({r['speedup']:.0f}x)")


if __name__ == "__main__":
    main()
