"""How many of the largest heaps a largest-heap key must hold: measured from play.

A largest-heap rule (:mod:`cgtalg.referee.heap_rule`) keys a position by its largest heap's class
``ρ(m)``, the other heaps' nim-value ``G`` and ``z = m − Σ (h − c(h))`` over the other heaps. In
the quadratic classes no weights ``c`` make that key conflict-free (docs/quotient_frontier_stalls.md).
This tool asks whether a key holding *more of the largest heaps* would do: at depth ``d`` the key
adds, for the ``d`` heaps after the largest (``h₂ >= h₃ >= …``, 0 when absent), the gap to the
heap before it clamped at ``L`` and its class (exact below the rule's ``f0``, else its residue).
The referee's views would have to hold one heap more than the key (a move on ``h_{d+1}`` or one
making ``h₂`` the largest needs the next heap), so a rule of depth ``d`` is finite only if ``d``
stays bounded as positions grow.

The weights are the coarsest fit over the positions of ``--fit-tokens`` tokens
(:func:`cgtalg.quotients.largest_heap.fit_rows`); every position of at most ``--tokens`` tokens is
played out (:class:`cgtalg.quotients.largest_heap.Positions`). For each depth it reports the keys
of the positions of at most ``--learn`` tokens, how many of them hold both outcomes, and how the
others' outcomes are predicted from them (right, wrong, key not seen or ambiguous), with the first
conflicts and wrong predictions::

    PYTHONPATH=. python tools/largest_heap_depth.py 0.534 --tokens 46 --learn 40 --depths 0,1,2   # ~2 min

(``0.534``: depth 1 has no conflict among the positions of 34 tokens and 5 among those of 40 —
``18 + 8 + 8 + 1`` is N and ``18 + 8 + 3 + 3 + 3 + 1`` is P — and 32 wrong predictions of 41 to 46
tokens; depth 2 no conflict on 40 and none wrong.)
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cgtalg.quotients.largest_heap import Positions, fit_rows  # noqa: E402
from cgtalg.rulesets.heaps.octal import TakeAndBreak  # noqa: E402

#: z is kept exactly in this window (wider than any position of the default sizes reaches)
Z_CLAMP = 60


class DepthKeys:
    """The keys of every depth for one game and one weight vector (module docstring)."""

    def __init__(self, gv, p: int, exact: list[int], residue: list[int], gap_cap: int = 12) -> None:
        self.gv, self.p, self.exact, self.residue, self.L = gv, p, list(exact), list(residue), gap_cap
        self.E = len(self.exact) + 1
        self.f0 = self.E + 2 * p

    def c(self, h: int) -> int:
        if h <= 0:
            return 0
        return self.exact[h - 1] if h < self.E else self.residue[h % self.p]

    def cls(self, h: int) -> int:
        return h if h < self.f0 else self.f0 + h % self.p

    def key(self, heaps, depth: int) -> tuple:
        """``heaps`` largest first."""
        m, G, S = heaps[0], 0, 0
        for h in heaps[1:]:
            G ^= self.gv(h)
            S += h - self.c(h)
        out = [self.cls(m), G, max(-Z_CLAMP, min(Z_CLAMP, m - S))]
        prev = m
        for i in range(1, depth + 1):
            h = heaps[i] if i < len(heaps) else 0
            out += [min(prev - h, self.L), self.cls(h)]
            prev = h
        return tuple(out)


def measure(rows, keys: DepthKeys, depth: int, learn: int, examples: int = 3) -> dict:
    """Conflicts among the positions of at most ``learn`` tokens and predictions of the others.
    ``rows``: (heaps largest first, is a misère P-position)."""
    seen: dict = defaultdict(list)
    for hs, isp in rows:
        if sum(hs) <= learn:
            seen[keys.key(hs, depth)].append((tuple(hs), bool(isp)))
    conflicts = [(k, v) for k, v in seen.items() if len({o for _, o in v}) > 1]
    right = wrong = unseen = 0
    wrong_examples = []
    for hs, isp in rows:
        if sum(hs) <= learn:
            continue
        v = seen.get(keys.key(hs, depth))
        outs = {o for _, o in v} if v else set()
        if len(outs) != 1:
            unseen += 1
        elif bool(isp) in outs:
            right += 1
        else:
            wrong += 1
            if len(wrong_examples) < examples:
                wrong_examples.append({"position": list(hs), "P": bool(isp), "learned_from": list(v[0][0])})
    conflict_examples = []
    for k, v in conflicts[:examples]:
        p = next(h for h, o in v if o)
        n = next(h for h, o in v if not o)
        conflict_examples.append({"P": list(p), "N": list(n)})
    return {"depth": depth, "keys": len(seen), "conflicting": len(conflicts), "right": right, "wrong": wrong,
            "unseen": unseen, "conflicts": conflict_examples, "wrong_examples": wrong_examples}


def run(code: str, tokens: int, learn: int, depths, fit_tokens: int = 22, gap_cap: int = 12,
        top: int | None = None) -> dict:
    game = TakeAndBreak(code)
    pos = Positions(game, tokens, None)
    E = max(4, pos.n0)
    small = [(hs, isp) for hs, isp in pos.data if sum(hs) <= fit_tokens]
    if top is None:
        top = 7 if pos.p <= 4 else 3
    fits = fit_rows(small, pos.gv, pos.p, E, (0, top), limit=1, max_vectors=10 ** 7)
    out = {"code": code, "tokens": tokens, "learn": learn, "positions": len(pos.data),
           "grundy": {"preperiod": pos.n0, "period": pos.p}, "fit_tokens": fit_tokens, "gap_cap": gap_cap}
    if not fits:
        out["fit"] = None
        return out
    f = fits[0]
    out["fit"] = {"exact": f.exact, "residue": f.residue, "keys": f.keys}
    keys = DepthKeys(pos.gv, pos.p, f.exact, f.residue, gap_cap)
    out["depths"] = [measure(pos.data, keys, d, learn) for d in depths]
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("code")
    ap.add_argument("--tokens", type=int, default=40, help="every position of at most this many tokens")
    ap.add_argument("--learn", type=int, default=34, help="keys read off the positions of at most this many")
    ap.add_argument("--depths", default="0,1,2")
    ap.add_argument("--fit-tokens", type=int, default=22, help="the weights fitted over this many tokens")
    ap.add_argument("--gap-cap", type=int, default=12, help="L: gaps clamped at L")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    res = run(a.code, a.tokens, a.learn, [int(x) for x in a.depths.split(",")], a.fit_tokens, a.gap_cap)
    if a.json:
        print(json.dumps(res))
        return 0 if res["fit"] else 1
    print(f"{a.code}: {res['positions']:,} positions of <= {a.tokens} tokens; Grundy preperiod "
          f"{res['grundy']['preperiod']}, period {res['grundy']['period']}")
    if not res["fit"]:
        print(f"no weights without a conflict over {a.fit_tokens} tokens")
        return 1
    f = res["fit"]
    print(f"weights (coarsest fit over {a.fit_tokens} tokens): exact {f['exact']}, by residue {f['residue']}")
    for d in res["depths"]:
        print(f"depth {d['depth']}: {d['keys']:,} keys on <= {a.learn} tokens, {d['conflicting']} with both outcomes; "
              f"larger positions: {d['right']:,} right, {d['wrong']:,} wrong, {d['unseen']:,} not seen")
        for c in d["conflicts"]:
            print(f"    same key: P {' + '.join(map(str, c['P']))}, N {' + '.join(map(str, c['N']))}")
        for w in d["wrong_examples"]:
            print(f"    wrong: {' + '.join(map(str, w['position']))} is {'P' if w['P'] else 'N'}, "
                  f"its key read off {' + '.join(map(str, w['learned_from']))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
