"""Equivalence with proofs: the linked-test search against the canonical-form baseline.

Run:  python benchmarks/bench_equivalence.py [--pairs 2000] [--json]

Measured in one run, on the same pairs: equivalent() with certificates; check_proof on them;
the decision alone (with and without the Grundy-value pruning); and deciding by comparing
misère canonical forms (the baseline). All four verdicts must agree.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import time

import cgtalg as cg
import cgtalg.misere.canonical as canonical
import cgtalg.misere.equivalence as eqv
import cgtalg.misere.equivalence_engine as engine
from cgtalg.misere.proof import check_proof


def timed(f):
    t = time.perf_counter()
    out = f()
    return time.perf_counter() - t, out


def nim_position(heaps) -> cg.Game:
    return sum((cg.nim(h) for h in heaps), cg.zero)


def measure(label: str, pairs: list[tuple[cg.Game, cg.Game]]) -> dict:
    engine.clear_equivalence_cache()
    t_eq, results = timed(lambda: [eqv.equivalent(a, b) for a, b in pairs])
    t_chk, ok = timed(lambda: all(check_proof(r) for r in results))
    # decision only (internal engine), with and without pruning by Grundy values
    unpruned = engine._MisereEngine(prune=False)
    t_unpruned, d_unpruned = timed(lambda: [unpruned.run(("eq", a, b)) for a, b in pairs])
    pruned = engine._MisereEngine(prune=True)
    t_pruned, d_pruned = timed(lambda: [pruned.run(("eq", a, b)) for a, b in pairs])
    canonical.MISERE_CANONICAL.cache.clear()
    canon = canonical.misere_canonical_game
    t_can, d_can = timed(lambda: [canon(a) is canon(b) for a, b in pairs])
    assert ok and d_unpruned == d_pruned == d_can == [r.holds for r in results]
    row = {
        "workload": label, "pairs": len(pairs), "equivalent_pairs": sum(d_can),
        "equivalent_with_certificates_s": t_eq, "check_proof_s": t_chk,
        "decision_pruned_s": t_pruned, "decision_unpruned_s": t_unpruned, "canonical_baseline_s": t_can,
        "ratio_decision_vs_canonical": t_pruned / t_can,
    }
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=2000)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    day4 = [f.game for f in cg.misere_games_born_by(4)]
    rng = random.Random(3)
    pairs = [(cg.game(rng.sample(day4, rng.randint(0, 22))), cg.game(rng.sample(day4, rng.randint(0, 22))))
             for _ in range(args.pairs)]
    heaps = [c for n in range(4) for c in itertools.combinations_with_replacement(range(1, 6), n)]
    nim_pairs = [(nim_position(a), nim_position(b)) for a, b in itertools.combinations(heaps, 2)]
    rows = [measure("random day-5 pairs", pairs), measure("Nim positions, <= 3 heaps of size <= 5", nim_pairs)]
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    for r in rows:
        print(f"{r['workload']}: {r['pairs']} pairs ({r['equivalent_pairs']} equivalent)\n"
              f"  equivalent() with certificates {r['equivalent_with_certificates_s']:.3f} s; "
              f"check_proof {r['check_proof_s']:.3f} s ({r['check_proof_s'] / r['equivalent_with_certificates_s']:.2f}x)\n"
              f"  decision only: pruned {r['decision_pruned_s']:.3f} s, unpruned {r['decision_unpruned_s']:.3f} s; "
              f"canonical-form baseline {r['canonical_baseline_s']:.3f} s "
              f"(decision / canonical = {r['ratio_decision_vs_canonical']:.1f}x)")


if __name__ == "__main__":
    main()
