#!/usr/bin/env python
"""What the linear rays read off a stored counting level say: fitted, reduced, verified or why not.

A census rerun that stops on a ``limit`` leaves the last passing counting level of the next heap
in the store (``misere_quotient_counting``). When that level holds at least three copies of the
heap, the construction reads linear rays off it (:mod:`cgtalg.quotients.rays_linear_level`) and
keeps the first that verifies; when none does, the run says only that counting stopped. This
script re-reads the stored level (re-verified against the ruleset's moves, as a resuming run
does), reads every fit the construction would read, and prints for each: the order of ``R``
as fitted and after the reduction, the weights ``λ``, the window and periods, whether an order
witness exists, and what the verification answers, window widened by 0, 1, 2 and 4 periods
(``OK``, a cell the level never showed, or a failing P- or N-condition: the fit is wrong there).

Measured with it on 1 December 2026 (docs/quotient_frontier_stalls.md, "Linear fits read off the
stored levels"): no stored level of an unsettled class gives a ray that verifies.

Usage::

    python tools/level_linear_fits.py 0.174 0.163 --store sqlite:////work/census/q.sqlite [--time 5m] [--json out.json]

Exit status 2 when an argument is malformed or the budget runs out (the cgtalg error is printed),
130 on Ctrl-C (the codes done so far are still written to ``--json``).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cgtalg.budget import Deadline, parse_duration  # noqa: E402
from cgtalg.errors import CgtalgError  # noqa: E402

#: the widenings of the window tried, in periods (lcm of the two)
PADS = (0, 1, 2, 4)


def level_fits(code: str, store, max_states: int = 5_000_000, deadline: Deadline | None = None) -> dict:
    """The stored counting level of ``code``'s quotient and its linear fits (module docstring)."""
    from cgtalg.quotients import rays_linear as L
    from cgtalg.quotients import rays_linear_level as LL
    from cgtalg.quotients.record import COUNTING, quotient_key
    from cgtalg.quotients.state import _heap_options
    from cgtalg.quotients.storage import check_level_record
    from cgtalg.rulesets.heaps.octal import TakeAndBreak

    rs = TakeAndBreak(code)
    rec = (store.sequence_meta(quotient_key(rs)) or {}).get(COUNTING)
    out: dict = {"code": code, "level": None, "fits": []}
    if not isinstance(rec, dict) or "heap" not in rec:
        out["why"] = "no counting level stored"
        return out
    heap = int(rec["heap"])
    got = check_level_record(rs, rec, heap, max_states, deadline)
    if isinstance(got, str) or got is None:
        out["why"] = f"the stored level is refused: {got}"
        return out
    start, _seconds = got
    out["level"] = {"heap": heap, "copies": start.copies, "order": int(start.cand.monoid.size)}
    if start.copies < 3:
        out["why"] = "fewer than three copies proved: no linear ray is read off this level"
        return out
    options = [_heap_options(rs, h) for h in range(heap + 1)]
    for lr in LL.linear_rays_from_level(start.cand, heap, start.copies, deadline=deadline):
        m = LL.minimize(lr)
        fit = {"order_r": lr.order_r, "reduced": m.order_r, "lam": {h: lr.lam[h] for h in range(1, heap + 1) if lr.lam[h]},
               "window": [lr.lo, lr.hi], "periods": [lr.q_lo, lr.q_hi], "witness": L.linear_witness(m) is not None,
               "verification": []}
        L_ = math.lcm(m.q_lo, m.q_hi)
        for pad in PADS:
            trial = LL.widen(m, pad * L_) if pad else m
            why = L.verify_linear_ray(trial, options, max_states, deadline)
            fit["verification"].append([pad * L_, why or "OK"])
            if why is None or not why.startswith(L.UNSEEN_CELL):
                break
            # the unseen cells taken as not P (what the construction tries too)
            why = L.verify_linear_ray(LL.complete(trial), options, max_states, deadline)
            fit["verification"].append([pad * L_, "completed: " + (why or "OK")])
            if why is None:
                break
        out["fits"].append(fit)
        if len(out["fits"]) >= LL.MAX_FITS:
            break
    if not out["fits"]:
        out["why"] = "no weight, classes or window fits the level's data within the bounds"
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("codes", nargs="+", help="octal codes (the census's standard forms), e.g. 0.174")
    ap.add_argument("--store", required=True, help="a store URL, e.g. sqlite:////work/census/q.sqlite")
    ap.add_argument("--time", default="10m", help="CPU-time budget for all codes (default 10m)")
    ap.add_argument("--json", help="write the reports here")
    args = ap.parse_args(argv)
    from cgtalg.store import open_store

    reports: list[dict] = []
    try:
        deadline = Deadline(parse_duration(args.time))
        store = open_store(args.store)
        for code in args.codes:
            r = level_fits(code, store, deadline=deadline)
            reports.append(r)
            lev = r["level"]
            print(f"{code}: " + (f"level of heap {lev['heap']}, {lev['copies']} copies, order {lev['order']:,}"
                                 if lev else "no level") + (f"; {r['why']}" if r.get("why") else ""))
            for f in r["fits"]:
                last = f["verification"][-1][1] if f["verification"] else "no witness"
                print(f"  R {f['order_r']:,} -> {f['reduced']:,}, λ {f['lam']}, window {f['window']}, periods "
                      f"{f['periods']}, witness {'yes' if f['witness'] else 'no'}: {last}")
    except CgtalgError as exc:
        print(f"level_linear_fits.py: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"level_linear_fits.py: interrupted ({len(reports)} of {len(args.codes)} codes done"
              f"{', written to ' + args.json if args.json else ''})", file=sys.stderr)
        if args.json:
            Path(args.json).write_text(json.dumps(reports, indent=1, default=str))
        return 130
    if args.json:
        Path(args.json).write_text(json.dumps(reports, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
