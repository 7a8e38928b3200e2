"""Benchmark misère quotients (issue 10) against a plain brute-force construction, in one run.

* cgtalg: ``misere_quotient(TakeAndBreak(code))`` from scratch (no store, nothing known in the
  process): heap by heap, every candidate verified exactly, until the misère periodicity theorem
  certifies the final quotient (or up to a given heap for misère Nim, which has no final one).
* plain brute force (the baseline): the outcomes of every position of at most ``2·K`` heaps of
  sizes ``1..N`` (``N`` the heap bound cgtalg checked) by a memoised recursion from the definition,
  then the classes of the positions of at most ``K`` heaps under
  ``G ~ H ⇔ o⁻(G + X) = o⁻(H + X)`` for every ``X`` of at most ``K`` heaps. This is the bounded
  construction a script would do; it only approximates the quotient (it may merge classes that a
  larger ``X`` separates) and it never certifies anything. Its outcomes are also checked against
  the quotient's predictions (every sum it computed).
* Dawson's Kayles (0.07): the partial quotients ``Q_n`` reached within a time budget, with the
  order and the seconds of each heap (Plambeck–Siegel: |Q_30| = 360, heap 33 order 638).

* solving positions from a known final quotient (outcome and winning moves of 100 heaps near
  10⁹) and, on positions the search can reach, against the exhaustive search.

Usage::

    python benchmarks/bench_quotient.py [--quick] [--json] [--dawson-seconds S]

(``--dawson-seconds 0`` skips Dawson's Kayles.)

``--quick``: 0.07 for 30 s (default 600 s).
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time

#: (code, max_heap (None: final), K of the brute force: classes of <= K heaps under sums with
#: <= K heaps; K = 1 for games that split heaps, whose sums of 4 heaps reach tens of millions of
#: positions)
CASES = [
    ("0.123", None, 2),
    ("0.31", None, 2),
    ("0.34", None, 1),
    ("0.71", None, 1),
    ("0.75", None, 1),
    ("0.[3]", 7, 2),      # misère Nim, heaps <= 7 (order 10)
]


def _cgtalg(code: str, max_heap: int | None):
    from cgtalg.quotients.construct import misere_quotient
    from cgtalg.quotients.state import forget_known
    from cgtalg.rulesets.heaps.octal import TakeAndBreak

    forget_known()
    r = TakeAndBreak(code)
    t0 = time.perf_counter()
    q = misere_quotient(r, max_heap=max_heap, progress=False, resume=False)
    return time.perf_counter() - t0, q


def _brute(code: str, n: int, k: int):
    """Outcomes of all positions of <= 2k heaps of size 1..n, then classes of <= k heaps."""
    from cgtalg.rulesets.heaps.octal import TakeAndBreak

    sys.setrecursionlimit(1_000_000)
    r = TakeAndBreak(code)
    t0 = time.perf_counter()
    opts = {h: [tuple(p for p in parts if p) for parts in r.heap_options(h)] for h in range(n + 1)}
    memo: dict[tuple[int, ...], bool] = {}

    def is_p(pos: tuple[int, ...]) -> bool:
        v = memo.get(pos)
        if v is not None:
            return v
        moved = False
        res = True
        for i, h in enumerate(pos):
            if i and pos[i - 1] == h:
                continue
            rest = pos[:i] + pos[i + 1:]
            for parts in opts[h]:
                moved = True
                if is_p(tuple(sorted(rest + parts))):
                    res = False
                    break
            if not res:
                break
        memo[pos] = res and moved
        return memo[pos]

    small = [()] + [p for j in range(1, k + 1)
                    for p in itertools.combinations_with_replacement(range(1, n + 1), j)]
    sig: dict[tuple[bool, ...], list] = {}
    for g in small:
        key = tuple(is_p(tuple(sorted(g + x))) for x in small)
        sig.setdefault(key, []).append(g)
    return time.perf_counter() - t0, len(sig), memo


def _dawson(seconds: float) -> dict:
    from cgtalg.quotients.construct import misere_quotient
    from cgtalg.quotients.state import forget_known
    from cgtalg.rulesets.heaps.octal import TakeAndBreak

    forget_known()
    rows: list[dict] = []
    last = [time.perf_counter()]

    def cb(info: dict) -> None:
        now = time.perf_counter()
        rows.append({"heap": info["heap"], "order": info["order"], "p_count": info["p_count"],
                     "heap_s": round(now - last[0], 2), "total_s": round(info["seconds"], 1)})
        last[0] = now

    q = misere_quotient(TakeAndBreak("0.07"), max_heap=10**6, max_seconds=seconds, partial=True,
                        progress=False, resume=False, callback=cb)
    return {"budget_s": seconds, "reached_heap": q.max_heap, "order": q.order,
            "p_count": len(q.p_portion), "note": q.note, "heaps": rows}


def _positions() -> dict:
    """Solving positions from a known final quotient against the exhaustive search (best of 20)."""
    import random

    from cgtalg.quotients.state import forget_known
    from cgtalg.rulesets.heaps import misere_play as mp
    from cgtalg.rulesets.heaps.octal import TakeAndBreak

    def best(f, n=20):
        out = []
        for _ in range(n):
            t = time.perf_counter()
            f()
            out.append(time.perf_counter() - t)
        return min(out)

    forget_known()
    rng = random.Random(1)
    r = TakeAndBreak("0.123")
    r.misere_quotient(progress=False)
    big = [10**9 - rng.randint(0, 1000) for _ in range(100)]
    six = [40, 41, 42, 43, 44, 45]
    mp.misere_search_outcome(TakeAndBreak("0.7"), [1, 2])          # load the search kernel first
    t = time.perf_counter()
    mp.misere_search_outcome(TakeAndBreak("0.123"), six)
    search_six = time.perf_counter() - t
    r2 = TakeAndBreak("0.71")
    r2.misere_quotient(progress=False)
    big2 = [10**9 - rng.randint(0, 1000) for _ in range(100)]
    return {
        "0.123 outcome, 100 heaps near 1e9": best(lambda: r.outcome(big, misere=True)),
        "0.123 winning_moves, 100 heaps near 1e9": best(lambda: r.winning_moves(big, misere=True)),
        "0.123 outcome 40..45, quotient": best(lambda: r.outcome(six, misere=True)),
        "0.123 outcome 40..45, search (cold ruleset)": search_six,
        "0.71 winning_moves, 100 heaps near 1e9 (families)": best(lambda: r2.winning_moves(big2, misere=True), 5),
        "0.71 winning-move entries": len(r2.winning_moves(big2, misere=True)),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--dawson-seconds", type=float, default=None)
    args = ap.parse_args()
    dawson_s = args.dawson_seconds if args.dawson_seconds is not None else (30.0 if args.quick else 600.0)
    import cgtalg.quotients.construct  # noqa: F401  (imports are not what is measured)
    import cgtalg.rulesets.heaps.octal  # noqa: F401

    rows = []
    for code, max_heap, k in CASES:
        t_c, q = _cgtalg(code, max_heap)
        n = q.max_heap
        t_b, classes, memo = _brute(code, n, k)
        for pos, p in memo.items():        # every outcome the brute force computed
            assert q.is_p(pos) == p, (code, pos)
        rows.append({
            "game": code, "order": q.order, "p_count": len(q.p_portion), "final": q.final,
            "period": list(q.period) if q.period else None, "heaps_checked": n,
            "cgtalg_s": round(t_c, 3), "brute_s": round(t_b, 3), "brute_k": k,
            "brute_classes": classes, "brute_positions": len(memo),
            "ratio": round(t_b / t_c, 1) if t_c > 0 else None,
        })
    positions = _positions()
    dawson = _dawson(dawson_s) if dawson_s > 0 else None
    if args.json:
        print(json.dumps({"final_quotients": rows, "positions": positions, "dawson_0_07": dawson},
                         indent=2))
        return
    print(f"{'game':<7} {'|Q|':>4} {'|P|':>4} {'final':>6} {'period':>8} {'N':>4} {'cgtalg s':>9} "
          f"{'brute s':>8} {'brute cls':>9} {'ratio':>6}")
    for r in rows:
        per = f"{r['period'][0]}+{r['period'][1]}" if r["period"] else "-"
        print(f"{r['game']:<7} {r['order']:>4} {r['p_count']:>4} {str(r['final']):>6} {per:>8} "
              f"{r['heaps_checked']:>4} {r['cgtalg_s']:>9} {r['brute_s']:>8} {r['brute_classes']:>9} "
              f"{r['ratio']:>6}")
    print()
    for name, v in positions.items():
        print(f"{name}: {v if isinstance(v, int) else f'{v * 1e3:.3f} ms'}")
    if dawson is None:
        return
    print(f"\n0.07 within {dawson_s:g} s: reached Q_{dawson['reached_heap']}, order {dawson['order']}")
    for r in dawson["heaps"]:
        if r["heap"] >= 20:
            print(f"  heap {r['heap']:>3}: |Q| = {r['order']:>5}  ({r['heap_s']} s, total {r['total_s']} s)")


if __name__ == "__main__":
    main()
