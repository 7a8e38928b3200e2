#!/usr/bin/env python
"""The misère outcomes of ``base + x·a + y·b`` read from a counting level's candidate.

``tools/misere_quotient_frontier.py --strategy counting --save-candidate F.npz`` writes the
candidate of the last level that passed: a pretension right on every position with at most
``B`` copies of the new heap ``n`` (proved in :mod:`cgtalg.quotients.count`). This script
prints, for a base position and two heaps ``x < n`` and ``y = n``, the table of outcomes of
``base + x·a + y·b`` for ``a = 0 … A`` and ``b = 0 … B`` (``P`` or ``.``), and checks a rule
against it **for every a ≥ 0**: the powers of ``Φ(x)`` in the candidate repeat from their index
with their period, so the rows ``a ≥ index + period`` repeat earlier rows, and checking
``a < index + 2·period`` (and at least ``A``) covers them all.

Usage::

    python tools/quotient_count_pattern.py level_0.07.npz --base 2,4,25 --x 30 \\
        --rule "b >= 1 and b >= a + 2 or b == 0 and a % 2 == 0" [--rows 12] [--json out.json]

The rule is a Python expression in ``a`` and ``b`` (the numbers of copies of ``x`` and ``y``).
Exit status 1 when the rule fails somewhere (the first counterexample is printed).
"""

from __future__ import annotations

import argparse
import json
import sys

import numpy as np


def load(path: str) -> dict:
    z = np.load(path)
    return {"cols": z["cols"], "P": z["P"].astype(bool), "phi": [int(g) for g in z["phi"]],
            "heap": int(z["heap"]), "copies": int(z["copies"]), "code": str(z["code"])}


def image(c: dict, word) -> int:
    x = 0
    for h in word:
        x = int(c["cols"][c["phi"][h], x])
    return x


def index_period(col: np.ndarray) -> tuple[int, int]:
    """Index and period of the element whose column ``x ↦ x·g`` is ``col``."""
    seen: dict[int, int] = {}
    y, k = 0, 0
    while y not in seen:
        seen[y] = k
        y = int(col[y])
        k += 1
    return seen[y], k - seen[y]


def outcomes(c: dict, base: list[int], x: int, rows: int) -> tuple[np.ndarray, tuple[int, int]]:
    """``out[a, b]``: ``base + x·a + y·b`` is P, for ``a < max(rows, index + 2·period)`` and
    ``b <= B`` (``y`` the candidate's heap, ``B`` its copies)."""
    i, p = index_period(c["cols"][c["phi"][x]])
    A = max(rows, i + 2 * p)
    y, B = c["heap"], c["copies"]
    out = np.zeros((A, B + 1), dtype=bool)
    for a in range(A):
        for b in range(B + 1):
            out[a, b] = c["P"][image(c, list(base) + [x] * a + [y] * b)]
    return out, (i, p)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("candidate")
    ap.add_argument("--base", default="", help="heaps of the base position, comma-separated")
    ap.add_argument("--x", type=int, required=True, help="the heap counted by a")
    ap.add_argument("--rule", default=None, help="a Python expression in a and b: True where P")
    ap.add_argument("--rows", type=int, default=12, help="rows a printed (default 12)")
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)
    c = load(args.candidate)
    base = [int(h) for h in args.base.split(",") if h.strip()]
    out, (i, p) = outcomes(c, base, args.x, args.rows)
    y, B = c["heap"], c["copies"]
    print(f"{c['code']}: {' + '.join(map(str, base)) or '0'} + {args.x}·a + {y}·b, right for b <= {B} "
          f"(index, period of Φ({args.x}) in the candidate: {i}, {p}; rows a < {out.shape[0]} cover every a)")
    print("      b = " + "".join(str(b % 10) for b in range(B + 1)))
    for a in range(min(args.rows, out.shape[0])):
        print(f"  a = {a:3d}  " + "".join("P" if v else "." for v in out[a]))
    bad = None
    if args.rule:
        for a in range(out.shape[0]):
            for b in range(B + 1):
                if bool(eval(args.rule, {}, {"a": a, "b": b})) != bool(out[a, b]):  # noqa: S307
                    bad = (a, b)
                    break
            if bad:
                break
        print(f"rule {args.rule!r}: " + ("holds for every a >= 0 and b <= %d" % B if bad is None
                                           else f"fails at a = {bad[0]}, b = {bad[1]}"))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"code": c["code"], "base": base, "x": args.x, "y": y, "copies": B,
                       "index_period_x": [i, p], "table": out.astype(int).tolist(), "rule": args.rule,
                       "rule_holds": bad is None if args.rule else None}, fh, indent=1)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
