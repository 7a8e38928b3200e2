#!/usr/bin/env python
"""Push the misère quotients Q_n of heap games past the published range, and check each one.

For each code given, :func:`cgtalg.misere.misere_quotient` adds heaps one at a time under a
time budget; a heap that changes the quotient is adjoined by the strategy chosen:

* ``main``: the construction on main (``cgtalg.quotients.construct._extend``: the first freeing
  of a heap of the failing position that repairs it);
* ``least-order``: :func:`cgtalg.quotients.extend.extend` (every freeing of one heap,
  then of two, of the failing position; the repaired candidate of least order);
* ``both`` (default): ``main`` first within ``--time main=TIME`` per heap (default 120 s), then
  ``least-order`` on what is left of the budget;
* ``counting``: :func:`cgtalg.quotients.count.extend_counting` (candidates right on the
  positions with at most ``B`` copies of the new heap, ``B = 0, 1, 2, …``, then the counter
  closed and verified in full). Every level that passes is recorded under ``levels`` with the
  lower bound on ``|Q_n|`` and the number of distinguishable powers of the heap it proves.

Per heap it prints ``heap order |P| seconds`` (seconds since the start of that code). When the
run stops (heap bound or budget) the last quotient reached is checked twice more:

1. by :func:`cgtalg.quotients.pretension.verify_pretension` again (its P- and N-conditions, the
   verification principle proved in :mod:`cgtalg.quotients.construct`; a pretension verified for
   heaps ``<= N`` is one for every ``m <= N``, so this covers every ``Q_m`` printed);
2. by brute force: the misère outcome of random positions of heaps ``<= N`` (at least one heap
   ``>= N − 4``, at most ``--brute-tokens`` tokens), computed from the rules alone by
   exhaustive memoised play (a position is P iff it has a move and every move leads to an
   N-position), compared with ``Φ``-product ∈ P.

``--shift A:B`` checks, for codes ``A`` and ``B`` both run, that heap ``h`` of ``A`` is heap
``h − 1`` of ``B`` as a game (the options agree) and that ``Q_n(A)`` and ``Q_(n−1)(B)`` have equal
canonical tables, P-portions and Φ, for every ``n`` both reached (0.07:0.137 is Dawson's
Kayles and Dawson's Chess).

Usage::

    python tools/misere_quotient_frontier.py 0.07 0.137 0.6 --to 40 --time 1h [--time main=120] \\
        [--strategy both|main|least-order|counting] [--shift 0.07:0.137] [--brute 200] [--json out.json]

``--time`` is the budget per code (default 3600 s) and ``--time main=TIME`` the ``main``
strategy's share per heap; the old ``--seconds`` and ``--main-seconds`` still work until cgtalg
0.3, with a note on stderr (:func:`cgtalg.cli.common.add_time_arguments`).

Writes the JSON record (per code: the heaps with order, |P|, seconds; the checks; why it
stopped; the machine) to ``--json`` (default ``quotient_frontier.json``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from typing import Any

from cgtalg.cli.common import TimePart, add_time_arguments, resolve_time_arguments
from cgtalg.quotients import construct as Q
from cgtalg.quotients.pretension import Pretension, _reduce, verify_pretension
from cgtalg.quotients.count import extend_counting
from cgtalg.quotients.extend import extend, extend_after
from cgtalg.quotients.state import _heap_options, forget_known, known_state
from cgtalg.rulesets.heaps.octal import TakeAndBreak

MAIN_EXTEND = Q._extend


def strategy(name: str, main_seconds: float, log=None, levels: list | None = None,
             last: dict | None = None):
    """The ``_extend`` replacement for ``name`` (module docstring). For ``counting``, the
    replacement of ``extend_counting`` that ``misere_quotient(strategy="counting")`` calls: it
    appends every level that passes to ``levels`` (as a dict) and keeps the last level's
    candidate in ``last``."""
    if name == "main":
        return MAIN_EXTEND

    def counting(pre, options, n, max_states, deadline, max_order, **kw):
        outer = kw.pop("on_level", None)  # the construction's own (it stores the level)

        def on_level(lev, cand, *rest):
            if levels is not None:
                levels.append(lev.to_dict())
            if last is not None:
                last.update(level=lev, candidate=cand)
            if outer is not None:
                outer(lev, cand, *rest)

        kw.pop("log", None)
        return extend_counting(pre, options, n, max_states, deadline, max_order, log=log, on_level=on_level, **kw)

    if name == "counting":
        return counting

    def least(pre, options, n, max_states, deadline, max_order):
        return extend(pre, options, n, max_states, deadline, max_order, log=log)

    if name == "least-order":
        return least

    def both(pre, options, n, max_states, deadline, max_order):
        return extend_after(MAIN_EXTEND, pre, options, n, max_states, deadline, max_order,
                            first_seconds=main_seconds, log=log)

    return both


# -- brute force from the rules --------------------------------------------------------------------
class Brute:
    """Misère outcomes of heap positions by exhaustive memoised play, from ``heap_options`` only.
    Heaps without a move are dropped (the game tree is the same)."""

    def __init__(self, ruleset: Any) -> None:
        sys.setrecursionlimit(max(sys.getrecursionlimit(), 200_000))
        self.r = ruleset
        self.opts: dict[int, list[tuple[int, ...]]] = {}
        self.memo: dict[tuple[int, ...], bool] = {}

    def heap_opts(self, h: int) -> list[tuple[int, ...]]:
        if h not in self.opts:
            self.opts[h] = sorted({tuple(sorted(p for p in parts if p)) for parts in self.r.heap_options(h)})
        return self.opts[h]

    def norm(self, pos) -> tuple[int, ...]:
        return tuple(sorted(h for h in pos if h and self.heap_opts(h)))

    def is_p(self, pos) -> bool:
        pos = self.norm(pos)
        if pos in self.memo:
            return self.memo[pos]
        if not pos:
            res = False                       # no move: the player to move wins (misère)
        else:
            res = True
            for i, h in enumerate(pos):
                if i and pos[i - 1] == h:
                    continue
                rest = pos[:i] + pos[i + 1:]
                for parts in self.heap_opts(h):
                    if self.is_p(rest + parts):
                        res = False
                        break
                if not res:
                    break
        self.memo[pos] = res
        return res


def random_positions(n: int, count: int, max_tokens: int, rng: random.Random) -> list[tuple[int, ...]]:
    """``count`` random positions of heaps ``<= n``, each with a heap ``>= n − 4`` and at most
    ``max_tokens`` tokens in all."""
    out = []
    while len(out) < count:
        big = rng.randint(max(1, n - 4), n)
        pos = [big]
        while True:
            h = rng.randint(1, n)
            if sum(pos) + h > max_tokens or rng.random() < 0.25:
                break
            pos.append(h)
        out.append(tuple(sorted(pos)))
    return out


def check_state(ruleset: Any, pre: Pretension, brute_count: int, brute_tokens: int, seed: int,
                max_states: int) -> dict:
    """Re-verify ``pre`` and compare it with brute-force play on random positions."""
    top = len(pre.phi) - 1
    options = [_heap_options(ruleset, h) for h in range(top + 1)]
    t0 = time.monotonic()
    w = verify_pretension(pre, options, max_states)
    verified = w is None
    t1 = time.monotonic()
    rng = random.Random(seed)
    brute = Brute(ruleset)
    disagree = []
    positions = random_positions(top, brute_count, brute_tokens, rng) if top >= 1 else []
    for pos in positions:
        if brute.is_p(pos) != bool(pre.P[pre.image(pos)]):
            disagree.append(list(pos))
    return {"heap": top, "verified": verified, "failing_position": list(w) if w else None,
            "verify_seconds": round(t1 - t0, 3), "brute_positions": len(positions),
            "brute_max_tokens": brute_tokens, "brute_states": len(brute.memo),
            "brute_disagreements": disagree, "brute_seconds": round(time.monotonic() - t1, 3)}


def run_code(code: str, to: int, seconds: float, strat: str, main_seconds: float, max_order: int,
             max_states: int, verbose: bool, save_candidate: str | None = None) -> dict:
    ruleset = TakeAndBreak(code)
    forget_known()
    rows: list[dict] = []

    def cb(d):
        rows.append({"heap": d["heap"], "order": d["order"], "p_count": d["p_count"],
                     "seconds": round(d["seconds"], 3)})
        print(f"{code}  heap {d['heap']:3d}  order {d['order']:6d}  |P| {d['p_count']:5d}  "
              f"{d['seconds']:9.2f} s", flush=True)

    log = (lambda s: print(f"{code}    {s}", flush=True)) if verbose else None
    levels: list[dict] = []
    last: dict = {}
    chosen = strategy(strat, main_seconds, log, levels, last)
    if strat == "counting":
        Q.extend_counting = chosen
    else:
        Q._extend = chosen
    t0 = time.monotonic()
    try:
        q = Q.misere_quotient(ruleset, max_heap=to, max_seconds=seconds, max_order=max_order,
                              max_states=max_states, progress=False, partial=True, resume=False,
                              callback=cb, strategy="counting" if strat == "counting" else "repair")
        note = q.note
    finally:
        Q._extend = MAIN_EXTEND
        Q.extend_counting = extend_counting
    state = known_state(ruleset)
    if save_candidate and last:
        save_level(last["candidate"], last["level"], code, save_candidate.replace("{code}", code))
    return {"code": code, "strategy": strat, "to": to, "seconds_budget": seconds,
            "seconds": round(time.monotonic() - t0, 2), "top": state.top if state else None,
            "final": bool(state and state.final), "stopped": note, "heaps": rows, "levels": levels,
            "_pre": state.pre if state else None, "_ruleset": ruleset}


def save_level(cand: Pretension, level: Any, code: str, path: str) -> None:
    """Write the passing candidate of a counting level for tools/quotient_count_pattern.py
    (``.npz``: the columns ``x ↦ x·Φ(h)`` of the heaps' images, which is all that products of
    heaps need, P, Φ as column numbers, the heap and the copies it is right for)."""
    import numpy as np

    gens = sorted(set(int(g) for g in cand.phi))
    cols = np.stack([np.asarray(cand.monoid.col(g), dtype=np.int32) for g in gens])
    np.savez_compressed(path, cols=cols, P=np.asarray(cand.P, dtype=bool),
                        phi=np.asarray([gens.index(int(g)) for g in cand.phi], dtype=np.int64),
                        heap=level.heap, copies=level.copies, code=code)
    print(f"{code}  saved the level-{level.copies} candidate of heap {level.heap} to {path}", flush=True)


def compare_shift(a: dict, b: dict) -> dict:
    """Heap ``h`` of ``a`` is heap ``h − 1`` of ``b``: same options (shifted), and equal
    canonical quotients ``Q_n(a)``, ``Q_(n−1)(b)`` for each ``n`` both reached."""
    ra, rb = a["_ruleset"], b["_ruleset"]
    top = min(a["top"], b["top"] + 1)
    games_agree = all(_shift_equal(ra, rb, h) for h in range(1, top + 1))
    out = {"codes": [a["code"], b["code"]], "games_agree": games_agree, "heaps": []}
    pa, pb = a["_pre"], b["_pre"]
    for n in range(2, top + 1):
        qa = _reduce(Pretension(pa.monoid, pa.P, list(pa.phi[: n + 1])), None)
        qb = _reduce(Pretension(pb.monoid, pb.P, list(pb.phi[:n])), None)
        same = (qa.monoid.size == qb.monoid.size and (qa.monoid.table == qb.monoid.table).all()
                and (qa.P == qb.P).all() and qa.phi[1:] == qb.phi)
        out["heaps"].append({"n": n, "order": qa.monoid.size, "equal": bool(same)})
    out["all_equal"] = all(h["equal"] for h in out["heaps"])
    return out


def _shift_equal(ra: Any, rb: Any, h: int) -> bool:
    """Heap ``h`` of ``ra`` and heap ``h − 1`` of ``rb`` have the same options up to the shift
    (a heap ``j`` of ``ra`` left by a move is a heap ``j − 1`` of ``rb``; heaps of ``ra`` of size
    1 have no move and stand for the empty heap of ``rb``)."""
    def shifted(o):
        return tuple(sorted(j - 1 for j in o if j - 1 > 0))

    oa = {shifted(o) for o in _heap_options(ra, h)}
    ob = {tuple(sorted(o)) for o in _heap_options(rb, h - 1)}
    return oa == ob


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("codes", nargs="+")
    ap.add_argument("--to", type=int, default=40, help="largest heap (default 40)")
    add_time_arguments(
        ap, TimePart(None, "seconds", 3600.0, "the time budget per code", ("--seconds",)),
        TimePart("main", "main_seconds", 120.0, "with --strategy both, the construction on main's share "
                 "per heap", ("--main-seconds",)))
    ap.add_argument("--strategy", choices=("both", "main", "least-order", "counting"), default="both")
    ap.add_argument("--max-order", type=int, default=20000)
    ap.add_argument("--max-states", type=int, default=50_000_000)
    ap.add_argument("--brute", type=int, default=200, help="random positions checked by brute force")
    ap.add_argument("--brute-tokens", type=int, default=40)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--shift", action="append", default=[], help="A:B, heap h of A = heap h-1 of B")
    ap.add_argument("--json", default="quotient_frontier.json")
    ap.add_argument("-v", "--verbose", action="store_true", help="print each repair")
    ap.add_argument("--save-candidate", default=None,
                    help="with --strategy counting: write the last level's candidate to this .npz "
                         "({code} is replaced by the code)")
    args = resolve_time_arguments(ap, ap.parse_args(argv))
    from cgtalg.quotients import kernel as quotient_kernel

    quotient_kernel.load()
    record: dict = {"command": " ".join([os.path.basename(sys.argv[0])] + (argv or sys.argv[1:])),
                    "machine": {"platform": platform.platform(), "python": platform.python_version(),
                                "cpus": os.cpu_count(), "kernel": quotient_kernel.status()},
                    "started_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "codes": []}
    runs = {}
    ok = True
    for code in args.codes:
        run = run_code(code, args.to, args.seconds, args.strategy, args.main_seconds, args.max_order,
                       args.max_states, args.verbose, args.save_candidate)
        if run["_pre"] is not None:
            chk = check_state(run["_ruleset"], run["_pre"], args.brute, args.brute_tokens, args.seed,
                              args.max_states)
            run["check"] = chk
            ok &= chk["verified"] and not chk["brute_disagreements"]
            print(f"{code}  Q_{run['top']}: verified={chk['verified']} ({chk['verify_seconds']} s); "
                  f"brute force on {chk['brute_positions']} positions (<= {args.brute_tokens} tokens, "
                  f"{chk['brute_states']:,} positions solved): {len(chk['brute_disagreements'])} "
                  f"disagreements ({chk['brute_seconds']} s)", flush=True)
        if run["stopped"]:
            print(f"{code}  stopped: {run['stopped']}", flush=True)
        runs[code] = run
    record["shift_checks"] = []
    for spec in args.shift:
        a, b = spec.split(":")
        if a in runs and b in runs and runs[a]["_pre"] is not None and runs[b]["_pre"] is not None:
            cmp = compare_shift(runs[a], runs[b])
            record["shift_checks"].append(cmp)
            ok &= cmp["all_equal"] and cmp["games_agree"]
            print(f"shift {a}:{b}: games agree {cmp['games_agree']}; Q_n({a}) = Q_(n-1)({b}) for "
                  f"n = 2..{cmp['heaps'][-1]['n'] if cmp['heaps'] else '-'}: {cmp['all_equal']}", flush=True)
    for run in runs.values():
        record["codes"].append({k: v for k, v in run.items() if not k.startswith("_")})
    record["finished_utc"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    with open(args.json, "w") as fh:
        json.dump(record, fh, indent=1)
    print(f"wrote {args.json}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
