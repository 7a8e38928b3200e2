"""Compute an infinite partial misère quotient ``Q_n`` exactly, as a verified ray pretension.

Runs the counting strategy (:mod:`cgtalg.quotients.count`) on heap ``n`` for ``--levels``
levels, reads a ray pretension off the last level (:mod:`cgtalg.quotients.rays`: the heaps
other than the freed heap ``u`` and ``n`` in a finite monoid ``R``, the copies of ``u`` and ``n``
counted exactly), verifies it for every position of heaps ``<= n``, and reports what it proves:

* the rules and ``|R|``, the points checked, the N-search pairs, the seconds;
* the agreement with the level candidate (a separately verified prediction for positions with
  at most ``--levels − 1`` copies of ``n``) on every ``(r, a, b)``, ``a <= 40``;
* an *order witness*: an element ``r0`` and ``t`` with ``r0 + a·u + b·n`` a P-position iff
  ``b − a >= t`` (all ``a >= 0``, ``b >= 1``), so ``n, n², n³, …`` are pairwise distinguishable
  and ``Q_m`` is infinite for every ``m >= n`` (and so is the quotient of the whole game);
* ``--to M``: the heaps ``n + 1 .. M`` adjoined one by one while one maps to an element of
  ``R`` that verifies (:func:`cgtalg.quotients.rays.adjoin_ray_heap`), so ``Q_h`` is the
  same infinite quotient up to the last;
* ``--rule "2+4+25"`` prints the outcome table of ``base + a·u + b·n`` (a, b < 16);
* ``--brute N``: N random positions of at most ``--brute-tokens`` tokens against exhaustive play;
* ``--certificate FILE``: the proof as a JSON certificate (:mod:`cgtalg.quotients.infinite`)
  that ``cgtalg check FILE`` checks from the definitions (:mod:`cgtalg.referee.rays`).

The exit status is 0 only when the pretension verifies and nothing disagrees. Dawson's Kayles
and Dawson's Chess (docs/quotient_frontier.md)::

    PYTHONPATH=. python tools/quotient_rays.py 0.07 34 --levels 9 --to 40 --brute 300 --json rays_007.json \
        --certificate docs/data/Q34_0.07_infinite.json
    PYTHONPATH=. python tools/quotient_rays.py 0.137 33 --levels 9 --to 39 --brute 300 --json rays_0137.json \
        --certificate docs/data/Q33_0.137_infinite.json
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

from cgtalg.budget import Deadline
from cgtalg.cli.common import TimePart, add_time_arguments, resolve_time_arguments
from cgtalg.errors import ComputationLimitError
from cgtalg.quotients import construct as Q
from cgtalg.quotients.count import extend_counting
from cgtalg.quotients.infinite import infinite_certificate
from cgtalg.quotients.rays import (
    adjoin_ray_heap,
    free_heap,
    order_witness,
    ray_pairs,
    ray_pretension_from_level,
    verify_ray_pretension,
)
from cgtalg.quotients.state import _heap_options, forget_known, known_state
from cgtalg.rulesets.heaps.octal import TakeAndBreak


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("code")
    ap.add_argument("heap", type=int)
    ap.add_argument("--levels", type=int, default=10, help="counting levels (copies 0 .. levels − 1)")
    ap.add_argument("--free", type=int, default=None, help="the freed heap u (default: found)")
    ap.add_argument("--to", type=int, default=None, help="then adjoin the heaps n + 1 .. TO while each maps into R")
    ap.add_argument("--memory", default="10G")
    add_time_arguments(ap, TimePart(None, "seconds", 3600.0, "time budget of building Q_(n-1) first"))
    ap.add_argument("--max-order", type=int, default=60000)
    ap.add_argument("--max-states", type=int, default=50_000_000)
    ap.add_argument("--rule", action="append", default=[], help="a base position, e.g. 2+4+25")
    ap.add_argument("--brute", type=int, default=0)
    ap.add_argument("--brute-tokens", type=int, default=44)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", default=None)
    ap.add_argument("--certificate", default=None,
                    help="write the proof as a certificate that `cgtalg check FILE` checks")
    args = resolve_time_arguments(ap, ap.parse_args(argv))
    n = args.heap
    rs = TakeAndBreak(args.code)
    t0 = time.monotonic()
    forget_known()
    last = Q.misere_quotient(rs, max_heap=n - 1, progress=False, resume=False, max_seconds=args.seconds)
    pre = known_state(rs).pre
    if len(pre.phi) != n:
        print(f"Q_{n - 1}({args.code}) was not reached", file=sys.stderr)
        return 2
    options = [_heap_options(rs, h) for h in range(n + 1)]
    got = {}

    def on_level(lev, cand, *_):
        got["level"], got["cand"] = lev, cand
        print(f"level {lev.copies}: order {lev.order}, |Q_{n}| >= {lev.lower_bound}, "
              f"{lev.distinct_powers} distinct powers, {lev.seconds:.1f} s", flush=True)

    try:
        extend_counting(pre, options, n, args.max_states, Deadline(None, args.memory), args.max_order,
                        max_levels=args.levels, close=False, rays=False, on_level=on_level)
    except ComputationLimitError as exc:
        print(f"counting stopped: {exc}", flush=True)
    if "cand" not in got:
        return 2
    cand, lev = got["cand"], got["level"]
    u = args.free if args.free is not None else free_heap(cand, n)
    t1 = time.monotonic()
    rp = ray_pretension_from_level(cand, u, n, lev.copies)
    fail = verify_ray_pretension(rp, options, args.max_states)
    t2 = time.monotonic()
    pairs = len(ray_pairs(rp, options, args.max_states))
    out = {"code": args.code, "heap": n, "free": u, "level": lev.copies, "order_R": rp.order_r,
           "rules": rp.rules.to_dict(), "check_points": len(rp.rules.check_points()), "pairs": pairs,
           "verified": fail is None, "failure": None if fail is None else str(fail),
           "count_seconds": round(t1 - t0, 1), "verify_seconds": round(t2 - t1, 2)}
    print(f"ray pretension for heaps <= {n} of {args.code}: u = {u}, |R| = {rp.order_r}, rules {rp.rules}, "
          f"{out['check_points']} points, {pairs} pairs: " + ("VERIFIED" if fail is None else str(fail)), flush=True)
    # agreement with the level candidate on every (r, a, b), b <= copies
    m = cand.monoid
    disagree = 0
    for r, w in enumerate(rp.words):
        x = cand.image(w)
        for b in range(lev.copies + 1):
            y = x
            for a in range(41):
                disagree += int(bool(cand.P[y]) != bool(rp.p_at(a, b)[r]))
                y = m.mul(y, cand.phi[u])
            x = m.mul(x, cand.phi[n])
    out["level_disagreements"] = disagree
    print(f"against the level-{lev.copies} candidate (a <= 40, b <= {lev.copies}): {disagree} disagreements")
    wit = order_witness(rp) if fail is None else None
    if wit is not None:
        r0, t = wit
        base = " + ".join(map(str, rp.words[r0]))
        out["order_witness"] = {"base": list(rp.words[r0]), "t": t}
        print(f"order witness: {base} + {u}·a + {n}·b is a P-position iff b >= a + {t} (all a >= 0, b >= 1): "
              f"the powers of heap {n} are pairwise distinguishable, Q_m({args.code}) is infinite for m >= {n}")
    top = n
    if fail is None and args.to:
        more = [_heap_options(rs, h) for h in range(n + 1, args.to + 1)]
        out["adjoined"] = {}
        for h in range(n + 1, args.to + 1):
            t3 = time.monotonic()
            ext = adjoin_ray_heap(rp, options + more[: h - n])
            if ext is None:
                print(f"heap {h}: no element of R x N x N verifies (Q_{h} needs more than this monoid)")
                out["stopped_at"] = h
                break
            rp, top = ext, h
            word = rp.words[int(rp.cols[rp.row[h]][0])]
            out["adjoined"][h] = list(word)
            print(f"heap {h} -> the image of {' + '.join(map(str, word))}: verified for every position of "
                  f"heaps <= {h} ({time.monotonic() - t3:.1f} s)", flush=True)
        options = options + more[: top - n]
    out["top"] = top
    for text in args.rule:
        base = tuple(int(h) for h in text.replace(" ", "").split("+") if h)
        rows = [[int(rp.is_p(base + (u,) * a + (n,) * b)) for b in range(16)] for a in range(16)]
        out.setdefault("rules_tables", {})[text] = rows
        print(f"{text} + {u}·a + {n}·b, P = 1 (rows a = 0 .., columns b = 0 .. 15):")
        for a, row in enumerate(rows):
            print(f"  a={a:2d} " + "".join(map(str, row)))
    if args.brute:
        sys.path.insert(0, __file__.rsplit("/", 1)[0])
        from misere_quotient_frontier import Brute, random_positions
        rng = random.Random(args.seed)
        brute = Brute(rs)
        bad = []
        pos = random_positions(top, args.brute, args.brute_tokens, rng)
        for p in pos:
            if brute.is_p(p) != rp.is_p(p):
                bad.append(list(p))
        out["brute"] = {"positions": len(pos), "with_heap_n": sum(max(p) >= n for p in pos), "disagreements": bad}
        print(f"brute force: {len(pos)} positions ({out['brute']['with_heap_n']} with a heap >= {n}), "
              f"{len(bad)} disagreements")
    if args.certificate and wit is not None and not disagree and not out.get("brute", {}).get("disagreements"):
        cert = infinite_certificate(args.code, rp, wit, top,
                                    {"heap": n - 1, "order": last.order, "p_count": len(last.p_portion)})
        with open(args.certificate, "w") as fh:
            json.dump(cert, fh, indent=1)
            fh.write("\n")
        print(f"certificate written to {args.certificate} (check it with: cgtalg check {args.certificate})")
    elif args.certificate:
        print("no certificate written: nothing proved, or a disagreement", file=sys.stderr)
    out["seconds"] = round(time.monotonic() - t0, 1)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(out, fh, indent=1)
    return 0 if fail is None and not disagree and not out.get("brute", {}).get("disagreements") else 1


if __name__ == "__main__":
    sys.exit(main())
