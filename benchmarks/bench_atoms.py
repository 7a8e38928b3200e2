"""Nim-heaps as atoms: ``parse("*n")`` and the values of ``*n`` against materialising ``*n``.

Baseline (same run): building ``*n`` the way forms were built before atoms, option set by
option set (``*k = {*0, ..., *(k-1)}`` for k = 0..n, n(n+1)/2 option links) and evaluating its
Grundy value by walking the options (an evaluator without an atom rule). Measured: the atom
path, ``parse("*n")`` + Grundy value + misère Grundy value + misère canonical form. Prints
both times and the ratio; also the atom path alone for ``*10**18``.

    python benchmarks/bench_atoms.py [-n 1000]
"""

from __future__ import annotations

import argparse
import time


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("-n", type=int, default=1000)
    args = ap.parse_args()
    n = args.n

    import cgtalg as cg
    from cgtalg.core.fold import Evaluator, fold
    from cgtalg.normal.grundy import mex

    # baseline: materialise *0..*n as explicit option tuples, walk for the Grundy value
    t = time.perf_counter()
    heaps: list = []
    tuples = []
    for _ in range(n + 1):
        tuples.append(tuple(heaps))  # the option tuple the old representation stored
        heaps.append(cg.game(heaps))
    walk = Evaluator("bench_walk_grundy", lambda g, vals: mex(vals))
    assert fold(heaps[n], walk) == n
    baseline = time.perf_counter() - t
    links = sum(len(x) for x in tuples)

    # atoms (fresh sizes, so nothing is cached)
    m = n + 10**9
    t = time.perf_counter()
    g = cg.parse(f"*{m}")
    assert cg.grundy(g) == m and cg.misere_grundy(g) == m and cg.canonical_form(g, misere=True, universe="impartial").game is g
    atom = time.perf_counter() - t

    t = time.perf_counter()
    big = cg.nim(10**18 + 7)
    assert cg.grundy(big) == 10**18 + 7 and cg.outcome(big, misere=True) == "N"
    huge = time.perf_counter() - t

    print(f"materialised *{n} ({links} option links) + walked Grundy value: {baseline:.3f} s")
    print(f"atom parse('*{m}') + grundy + misère grundy + canonical:     {atom * 1e6:.1f} µs")
    print(f"ratio (materialised / atom): {baseline / atom:,.0f}x")
    print(f"nim(10**18+7) + grundy + misère outcome: {huge * 1e6:.1f} µs")


if __name__ == "__main__":
    main()
