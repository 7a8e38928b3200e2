"""Find and prove a largest-heap rule of an octal game: every misère outcome by a rule over heap
sizes, and so an infinite misère quotient (cgtalg.quotients.largest_heap finds it,
cgtalg.referee.heap_rule proves it).

    PYTHONPATH=. python tools/largest_heap_rule.py 0.734 --weights 0,1,0,1 --out docs/data/largest_heap_rules/0.734.json
    PYTHONPATH=. python tools/largest_heap_rule.py 0.735 --search 2 --json

The rule is read off every position of at most ``--tokens`` tokens (played out, misère); with
``--search CMAX`` every weight vector with entries ``0 .. CMAX`` whose rule has no conflict is
tried in turn, and the first one the referee accepts is kept. The certificate written is what
``cgtalg check FILE`` re-checks and what ``tools/publish_quotient_census.py --rules FILE`` puts
in the census table. Exit status: 0 proved, 1 no rule proved, 2 bad arguments or code.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from pathlib import Path

from cgtalg.budget import parse_duration
from cgtalg.errors import CgtalgError
from cgtalg.quotients.largest_heap import Positions, RuleConflict, largest_heap_rule
from cgtalg.referee import heap_rule
from cgtalg.rulesets.heaps.octal import TakeAndBreak


#: the most weight vectors --search tries
MAX_VECTORS = 4096


def prove(code: str, weights: list[list[int]] | None, cmax: int, tokens: int, seconds: float) -> dict:
    """``{"code", "proved", "weights", "certificate", "verdict", "tried"}``: the first candidate
    (given weights, or every vector in ``0 .. cmax``) whose certificate the referee accepts."""
    game = TakeAndBreak(code)
    positions = Positions(game, tokens, seconds)
    if weights is None and (cmax + 1) ** positions.p > MAX_VECTORS:
        raise ValueError(f"{code}: the Grundy period is {positions.p}: {(cmax + 1) ** positions.p} weight vectors "
                         f"with entries 0 .. {cmax}, more than {MAX_VECTORS}; pass --weights or a smaller --search")
    cands = weights or [list(w) for w in itertools.product(range(cmax + 1), repeat=positions.p)]
    tried = []
    for ws in cands:
        try:
            doc = largest_heap_rule(game, ws, positions=positions)
        except RuleConflict as exc:
            tried.append({"weights": ws, "conflict": str(exc)})
            continue
        vd = heap_rule.check(doc, max_seconds=seconds)[0]
        tried.append({"weights": ws, "referee": vd.ok, "reasons": vd.reasons[:3]})
        if vd.ok:
            return {"code": code, "proved": True, "weights": ws, "certificate": doc, "verdict": vd.to_json(),
                    "tried": tried}
    return {"code": code, "proved": False, "weights": None, "certificate": None, "verdict": None, "tried": tried}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("code", help="an octal code, e.g. 0.734 (its standard form, for the census)")
    ap.add_argument("--weights", default=None, help="c(h) by residue mod the Grundy period, comma-separated")
    ap.add_argument("--search", type=int, default=2, metavar="CMAX",
                    help="without --weights: try every weight vector in 0 .. CMAX (default 2)")
    ap.add_argument("--tokens", type=int, default=26, help="read the rule off positions of at most this many tokens")
    ap.add_argument("--time", default="10m", help="CPU-time budget of the play and of each referee check (default 10m)")
    ap.add_argument("--out", default=None, help="write the certificate here when proved")
    ap.add_argument("--json", action="store_true", help="print the result as JSON")
    args = ap.parse_args(argv)
    try:
        weights = None
        if args.weights is not None:
            weights = [[int(x) for x in args.weights.split(",")]]
        if args.tokens < 4 or args.search < 0:
            raise ValueError("--tokens must be at least 4 and --search at least 0")
        seconds = parse_duration(args.time)
        res = prove(args.code, weights, args.search, args.tokens, seconds)
    except (CgtalgError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    if res["proved"] and args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(res["certificate"], indent=1) + "\n")
    if args.json:
        print(json.dumps(res, indent=1))
    elif res["proved"]:
        doc = res["certificate"]
        print(f"{args.code}: proved with weights {res['weights']} (z window {doc['rule']['z']}, exact below "
              f"{doc['rule']['exact_below']}, {len(doc['rule']['P'])} P-keys); the misère quotient is infinite")
        for r in res["verdict"]["reasons"]:
            print(f"  - {r}")
    else:
        print(f"{args.code}: no largest-heap rule proved ({len(res['tried'])} weight vectors tried)")
        for t in res["tried"][:5]:
            print(f"  - {t['weights']}: {t.get('conflict') or '; '.join(t.get('reasons', []))[:200]}")
    return 0 if res["proved"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
