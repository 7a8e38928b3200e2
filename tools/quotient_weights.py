"""Weights for a largest-heap rule, read off a verified partial quotient.

A largest-heap rule (:mod:`cgtalg.referee.heap_rule`) keys a position by its largest heap's class,
the others' nim-value ``G`` and ``z = m − Σ (h − c(h))`` over the other heaps, with weights ``c``
exact below ``E`` and by residue mod the Grundy period after. This tool samples random positions
of heaps ``<= N`` (up to nine heaps), takes their misère outcomes from the verified ``Q_N``, and
lists the weight vectors (exact ``c(h)`` in ``0 .. h`` for ``h < E``, residues in ``LO .. HI``)
under which no two sampled positions share a key (``z`` clamped to a window) and not an outcome.
That is how the weights of ``0.337``, ``4.52`` and ``4.53`` were found (docs/quotient_frontier_stalls.md,
"The weights of `0.337`"): the searches over weights ``0 .. 3`` read off small positions had missed
them. A fit is only a candidate: ``tools/largest_heap_rule.py CODE --weights ...`` reads the rule
and the referee proves it or not.

    PYTHONPATH=. python tools/quotient_weights.py 0.337 --heap 56 --exact-below 4 --range 2 7
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cgtalg.core.lazynp import np  # noqa: E402
from cgtalg.quotients.construct import misere_quotient  # noqa: E402
from cgtalg.quotients.largest_heap import fit_rows, grundy_period  # noqa: E402
from cgtalg.rulesets.heaps.octal import TakeAndBreak  # noqa: E402


def weight_fits(code: str, heap: int, exact_below: int = 4, lo: int = 2, hi: int = 7,
                window: tuple[int, int] = (-4, 16), samples: int = 60000, seed: int = 2, limit: int = 6) -> list:
    """The ``limit`` fits ``(exact, residue, keys)`` with the fewest keys (module docstring): the
    weights of a rule that holds make the coarsest key (``0.337``: 218 keys against 480 or more
    for the other fits). ``exact_below`` is raised to the Grundy preperiod when that is larger."""
    game = TakeAndBreak(code)
    period = grundy_period(game)
    if period is None:
        raise SystemExit(f"{code}: no Grundy period within 88 heaps (a largest-heap rule keys heaps by residue)")
    n0, p = period
    E = max(exact_below, n0)
    q = misere_quotient(game, max_heap=heap)
    T, phi, P = np.asarray(q.table), list(q.phi), np.asarray(q.P)
    g = [int(x) for x in game.grundy_sequence(heap + 1)]
    rng = random.Random(seed)
    rows = []
    for _ in range(samples):
        hs = sorted((rng.randint(1, heap) if rng.random() < 0.6 else rng.randint(1, E + 3)
                     for _ in range(rng.randint(1, 9))), reverse=True)
        if sum(hs) <= 2 * heap + 10:
            x = 0
            for h in hs:
                x = int(T[x, phi[h]])
            rows.append((hs, bool(P[x])))
    fits = fit_rows(rows, g.__getitem__, p, E, (lo, hi), window=window, limit=limit)
    return [(f.exact, f.residue, f.keys) for f in fits]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("code")
    ap.add_argument("--heap", type=int, default=56, help="N: the outcomes come from the verified Q_N")
    ap.add_argument("--exact-below", type=int, default=4, help="E: c(h) exact for h < E")
    ap.add_argument("--range", nargs=2, type=int, default=(2, 7), metavar=("LO", "HI"))
    ap.add_argument("--samples", type=int, default=60000)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    fits = weight_fits(a.code, a.heap, a.exact_below, a.range[0], a.range[1], samples=a.samples)
    if a.json:
        print(json.dumps({"code": a.code, "fits": [{"exact": e, "residue": r, "keys": k} for e, r, k in fits]}))
    else:
        for e, r, k in fits:
            print(f"{a.code}: exact {','.join(map(str, e))}  residue {','.join(map(str, r))}  ({k} keys)")
        if not fits:
            print(f"{a.code}: no weights without a conflict")
    return 0 if fits else 1


if __name__ == "__main__":
    sys.exit(main())
