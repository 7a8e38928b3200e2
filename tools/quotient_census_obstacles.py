"""What stands between each unsettled row of the misère quotient census and a verdict.

For every unsettled class of ``docs/data/quotient_census.csv`` this script states the facts about
its *normal-play* Grundy sequence that bear on the misère question:

- ``period``: the period certified by the Guy–Smith theorem on at most ``--values`` values
  (``cgtalg.rulesets.heaps.octal_periodicity.periodicity``), or none;
- ``max``: the largest Grundy value among the first ``--values`` heaps;

and puts the class in one of three groups:

``tied``
    stopped ``normal play``: the quotient is finite exactly when the Grundy values are bounded
    (``cgtalg.quotients.tail``; docs/quotient_census.md, "Rows tied to normal play").
``aperiodic``
    no period certified within ``--values`` values (Officers, ``0.6``, the class ``0.37``, is the
    best known open case; ``0.1777`` has the period
    60,620,715 from heap 160,949,018, docs/octal.md). The quotients the census finds final have
    Grundy sequences with a certified period (``0.56``, tame, from heap 326,640: more values
    than ``--values`` certify it, so the script lists it under ``finite_without_period``); for
    these classes what is within reach is a proof that some ``Q_n`` is infinite.
``periodic``
    a certified Grundy period (the quadratic classes and the others whose construction stops).

    PYTHONPATH=. python tools/quotient_census_obstacles.py [--values 16384] [--json]
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cgtalg.core.lazynp import np  # noqa: E402
from cgtalg.rulesets.heaps.octal import TakeAndBreak  # noqa: E402
from cgtalg.rulesets.heaps.octal_periodicity import periodicity  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def classify(rows: list[dict], values: int) -> list[dict]:
    """One record per unsettled class (module docstring), largest classes first."""
    classes: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        if r["status"] == "unsettled":
            classes[r["standard_form"]].append(r)
    out = []
    for sf, members in classes.items():
        t = time.process_time()
        game = TakeAndBreak(sf)
        res = periodicity(game, max_values=values)            # the values it computed are kept
        g = np.asarray(game.grundy_sequence(values), dtype=np.int64)
        period = None
        if res is not None and getattr(res, "certified", False):
            period = {"preperiod": int(res.preperiod), "period": int(res.period)}
        stopped = members[0]["stopped"]
        group = "tied" if stopped == "normal play" else "periodic" if period is not None else "aperiodic"
        out.append({"class": sf, "codes": [m["code"] for m in members], "stopped": stopped,
                    "heaps": int(members[0]["heaps"] or 0), "order": int(members[0]["order"] or 0),
                    "max": int(g.max()), "period": period, "group": group,
                    "seconds": round(time.process_time() - t, 2)})
    out.sort(key=lambda r: (-len(r["codes"]), r["class"]))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--csv", default=str(ROOT / "docs/data/quotient_census.csv"))
    ap.add_argument("--values", type=int, default=1 << 14)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    rows = list(csv.DictReader(open(a.csv, encoding="utf-8")))
    recs = classify(rows, a.values)
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for r in recs:
        counts[r["group"]][0] += 1
        counts[r["group"]][1] += len(r["codes"])
    finite = sorted({r["standard_form"] for r in rows if r["status"] in ("tame", "wild-finite")})
    without = [sf for sf in finite if not getattr(periodicity(TakeAndBreak(sf), max_values=a.values),
                                                  "certified", False)]
    if a.json:
        json.dump({"values": a.values, "classes": recs, "counts": counts,
                   "finite_classes": len(finite), "finite_without_period": without}, sys.stdout, indent=1)
        print()
        return 0
    for r in recs:
        per = f"{r['period']['period']} from {r['period']['preperiod']}" if r["period"] else "-"
        print(f"{r['class']:<10} {len(r['codes']):>2}  {r['group']:<9} {r['stopped']:<11} "
              f"Q_{r['heaps']} {r['order']:>5}  max {r['max']:>5}  period {per}")
    for k, (ncl, nco) in sorted(counts.items()):
        print(f"{k}: {ncl} classes, {nco} codes")
    print(f"finite classes (tame or wild-finite): {len(finite)}; without a Grundy period certified within "
          f"{a.values} values: {len(without)} {' '.join(without)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
