#!/usr/bin/env python
"""Recompute Lenstra's α_p = κ_p^⊗p from first principles and check the shipped table.

α_p is the least ordinal in the field below κ_p that has no p-th root there (Conway, ONAG
ch. 6: κ_p is a root of the lexicographically earliest polynomial without a root, X^p − α_p).
Lenstra ("On the algebraic closure of two", 1977) showed how to find it:

1. f = the order of 2 modulo p. An element has no p-th root in the field below κ_p only if its
   degree over GF(2) is divisible by f (otherwise p divides (2^E − 1)/(2^d − 1) and every
   element of GF(2^d) is a p-th power).
2. The least ordinal whose degree is divisible by the odd part of f is κ_f = ⊕_{q ∈ Q} κ_q:
   going through the odd primes r | f from the largest down, add κ_{r^v} (r^v ∥ f) unless the
   sum so far already has degree divisible by r^v.
3. m0 = 0 if 2^v ∥ f already divides deg κ_f, else κ_{2^v} = 2^(2^(v−1)) (the least finite
   nimber of degree 2^v).
4. α_p = κ_f + m for the least m ≥ m0 such that β = κ_f + m has no p-th root: with
   E = lcm(deg β, f), β is a p-th power iff β^((2^E − 1)/p) = 1, computed as
   N(β)^((2^f − 1)/p) with N the norm from GF(2^E) to GF(2^f).

The computation uses only α_q for q < p, themselves recomputed here in increasing order, so it
is independent of the shipped table, which it is then compared with. Cost grows quickly with
the field degree (about E·(E/2^a)^2 monomial products); p ≤ 43 takes seconds, p = 47 (a field
of degree 5060) is already impractical in pure Python.

Usage::

    python tools/recompute_alpha.py [--max-p 43] [--json]

Exit status 0 when every recomputed value agrees with cgtalg/data/lenstra_alpha.tsv, 1 on a
mismatch.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import asdict, dataclass

import sympy

from cgtalg.nimbers.alpha_table import _alpha_cnf
from cgtalg.nimbers.engine import Engine
from cgtalg.nimbers.lenstra import kappa
from cgtalg.nimbers.ordinal import _coerce, _format

__all__ = ["Row", "recompute", "main"]


@dataclass
class Row:
    """One recomputed α_p and its comparison with the table."""

    p: int
    f: int
    Q: list[int]
    m0: int
    m: int
    alpha: str
    shipped: str
    agrees: bool
    seconds: float


def _norm_power_test(eng: Engine, beta: dict, E: int, f: int, p: int) -> bool:
    """True iff β ∈ GF(2^E) (f | E) has no p-th root there: N_{E/f}(β)^((2^f−1)/p) ≠ 1."""
    k = E // f
    # y_j = β^(1 + 2^f + ... + 2^(f(j−1))) by the Itoh–Tsujii chain; the norm is y_k.
    y, j = beta, 1
    for bit in bin(k)[3:]:
        y = eng.mul(eng.frobenius(y, f * j), y)
        j *= 2
        if bit == "1":
            y = eng.mul(eng.frobenius(y, f), beta)
            j += 1
    t = eng.pow(y, ((1 << f) - 1) // p)
    return t != {0: 1}


def recompute(max_p: int = 43, progress=None) -> list[Row]:
    """Recompute α_p for the odd primes p ≤ max_p (increasing) and compare with the table.

    Parameters
    ----------
    max_p : int
        Largest prime to recompute.
    progress : callable, optional
        Called with each :class:`Row` as it is finished.

    Returns
    -------
    list[Row]
    """
    found: dict[int, object] = {}

    def source(q: int) -> object:
        return found[q]  # only primes below the one being computed are ever needed

    eng = Engine(source, limit=10**9)
    rows: list[Row] = []
    for p in sympy.primerange(3, max_p + 1):
        t0 = time.perf_counter()
        f = int(sympy.n_order(2, p))
        x: dict = {}
        Q: list[int] = []
        for r in sorted(sympy.primefactors(f), reverse=True):
            if r == 2:
                continue
            q = r ** sympy.multiplicity(r, f)
            if not x or eng.degree(x) % q:
                Q.append(q)
                x = eng.add(x, eng.elem(_coerce(kappa(q))))
        v2 = sympy.multiplicity(2, f)
        deg_x = eng.degree(x) if x else 1
        m0 = 0 if deg_x % (1 << v2) == 0 else 1 << (1 << (v2 - 1))
        m = m0
        while True:
            beta = eng.add(x, {0: m}) if m else x
            E = math.lcm(eng.degree_bound(beta), f)
            if beta and _norm_power_test(eng, beta, E, f, p):
                break
            m += 1
        alpha_cnf = eng.cnf(beta)
        found[p] = alpha_cnf
        shipped = _alpha_cnf(p)
        row = Row(
            p=p, f=f, Q=Q, m0=m0, m=m,
            alpha=_format(alpha_cnf, True), shipped=_format(shipped, True),
            agrees=alpha_cnf == shipped, seconds=round(time.perf_counter() - t0, 3),
        )
        rows.append(row)
        if progress:
            progress(row)
    return rows


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; returns the exit status."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--max-p", type=int, default=43, help="largest prime to recompute (default 43)")
    ap.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = ap.parse_args(argv)

    def show(row: Row) -> None:
        if not args.json:
            status = "ok" if row.agrees else f"MISMATCH (table: {row.shipped})"
            print(
                f"p={row.p:<4} f={row.f:<4} Q={row.Q!s:<10} m0={row.m0:<4} m={row.m:<4} "
                f"alpha_p={row.alpha:<16} {status}  [{row.seconds:.2f} s]",
                flush=True,
            )

    rows = recompute(args.max_p, progress=show)
    bad = [r for r in rows if not r.agrees]
    if args.json:
        print(json.dumps([asdict(r) for r in rows], indent=2))
    else:
        print(f"{len(rows) - len(bad)} of {len(rows)} recomputed values agree with the shipped table")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
