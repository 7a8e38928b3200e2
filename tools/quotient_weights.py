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
import itertools
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cgtalg.core.lazynp import np  # noqa: E402
from cgtalg.quotients.construct import misere_quotient  # noqa: E402
from cgtalg.quotients.largest_heap import grundy_period  # noqa: E402
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
    ncl, F0 = (E - 1) + p, E + 2 * p
    rows = []
    for _ in range(samples):
        hs = sorted((rng.randint(1, heap) if rng.random() < 0.6 else rng.randint(1, E + 3)
                     for _ in range(rng.randint(1, 9))), reverse=True)
        if sum(hs) <= 2 * heap + 10:
            rows.append(hs)
    cnt = np.zeros((len(rows), ncl), dtype=np.int64)
    base, mc, G = (np.zeros(len(rows), dtype=np.int64) for _ in range(3))
    out = np.zeros(len(rows), dtype=bool)
    for i, hs in enumerate(rows):
        m = hs[0]
        mc[i] = m if m < F0 else F0 + m % p
        x, gg = 0, 0
        for h in hs:
            x = int(T[x, phi[h]])
        for h in hs[1:]:
            gg ^= g[h]
            cnt[i, h - 1 if h < E else E - 1 + h % p] += 1
        base[i], G[i], out[i] = m - sum(hs[1:]), gg, bool(P[x])
    zl, zh = window
    fits = []
    for res in itertools.product(range(lo, hi + 1), repeat=p):
        for ex in itertools.product(*[range(0, h + 1) for h in range(1, E)]):
            cv = np.array(list(ex) + list(res), dtype=np.int64)
            key = (mc * 64 + G) * 1000 + (np.clip(base + cnt @ cv, zl, zh) - zl)
            o = np.lexsort((out, key))
            k2, o2 = key[o], out[o]
            if np.any((k2[1:] == k2[:-1]) & (o2[1:] != o2[:-1])):
                continue
            fits.append((list(ex), list(res), int(np.unique(key).size)))
    return sorted(fits, key=lambda f: f[2])[:limit]


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
