"""Benchmark the largest-heap referee (``cgtalg.referee.heap_rule.check``) against itself without
its two tables, in one run.

* cgtalg: the referee as shipped: the dynamic programme over heap kinds
  (``heap_rule_sets.feasible``) builds its table of states once per sets of kinds and every view
  reads it; an option's clamped ``z`` values are kept per ``(spec, z)``.
* baseline: the same referee with both tables switched off (the table of states built again at
  every question, ``z`` values computed at every call), as it ran before the seventeenth session.

Both check the published certificates (``docs/data/largest_heap_rules/``); the verdicts and
their reasons (but the time line) must be the same. CPU time of this process.

Usage::

    python benchmarks/bench_heap_referee.py [--rules 0.734,0.732,0.337] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

RULES = Path(__file__).resolve().parent.parent / "docs" / "data" / "largest_heap_rules"


def _check(doc: dict) -> tuple[float, bool, list]:
    from cgtalg.referee import heap_rule

    t0 = time.process_time()
    vd = heap_rule.check(doc, max_seconds=None)[0]
    return time.process_time() - t0, vd.ok, [r for r in vd.reasons if not r.startswith("checked in")]


def _baseline(doc: dict) -> tuple[float, bool, list]:
    from cgtalg.referee import heap_rule

    feasible, zvalues = heap_rule.feasible, heap_rule._Prover.zvalues

    def no_memo(*args, memo=None, **kw):
        return feasible(*args, **kw)

    heap_rule.feasible = no_memo
    heap_rule._Prover.zvalues = heap_rule._Prover._zvalues
    try:
        return _check(doc)
    finally:
        heap_rule.feasible, heap_rule._Prover.zvalues = feasible, zvalues


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rules", default="0.734,0.732,0.337")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    rows = []
    for code in args.rules.split(","):
        doc = json.loads((RULES / f"{code}.json").read_text())
        t_new, ok_new, why_new = _check(doc)
        t_old, ok_old, why_old = _baseline(doc)
        if (ok_new, why_new) != (ok_old, why_old):
            print(f"{code}: the verdicts differ", file=sys.stderr)
            return 1
        rows.append({"rule": code, "ok": ok_new, "cgtalg_s": round(t_new, 2), "baseline_s": round(t_old, 2),
                     "ratio": round(t_old / max(t_new, 1e-9), 2)})
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        print(f"{'rule':8} {'verdict':8} {'cgtalg s':>9} {'baseline s':>11} {'ratio':>6}")
        for r in rows:
            print(f"{r['rule']:8} {'holds' if r['ok'] else 'refused':8} {r['cgtalg_s']:9.2f} {r['baseline_s']:11.2f} "
                  f"{r['ratio']:6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
