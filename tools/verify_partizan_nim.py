#!/usr/bin/env python
"""Verify Spindler's Theorems 4 and 6 for all Nim positions up to a size bound, within a time budget.

Theorem 4 (seed 002): distinct Nim positions are inequivalent in misère play over *all
partizan* games (``o⁻(G+X) ≠ o⁻(H+X)`` for some partizan ``X``). Theorem 6: impartially
equivalent Nim positions have isomorphic reduced forms (Definition 5).

For each total size ``n = 0, 1, 2, ...`` this script proves, for every position of size ``n``:

* **Theorem 6** with the impartial test on main (:func:`cgtalg.misere.nim_positions.check_size_level`,
  as ``tools/nim_position_classes.py`` does): the position is impartially equivalent to its
  reduced form (a Spindler Theorem 1 certificate, re-checked by
  :func:`cgtalg.misere.check_proof`), and distinct reduced forms are inequivalent (a
  distinguishing impartial game, or different normal-play Grundy values). So two positions
  with different reduced forms are told apart by an impartial ``X`` — a fortiori by a
  partizan one;
* **Theorem 4** for the rest: the position is partizan-inequivalent to every other position
  of size ``<= n`` *with the same reduced form*, by a partizan game ``T`` with
  ``o⁻(G+T) ≠ o⁻(H+T)``. ``T`` is first sought in a fixed family of small partizan games
  (integers ``k`` with ``|k| <= n + 1``; ``*m - j`` for ``m = 2, 3, 4``, ``0 < j <= n + 1``;
  the 256 forms born by day 2; ``k + x`` for those ``x`` with at most one option per side),
  comparing outcomes computed by play (and the separating game is re-played by the
  independent checker's solver of literal sums); failing that, :func:`cgtalg.misere.partizan.misere_equal` (Siegel CGT V.6.16 /
  seed 002 Theorem 2) must answer "not equal", and its distinguisher is re-checked by
  :func:`cgtalg.misere.partizan_proof.check_misere_certificate` (direct play of the sums).

Together: the positions of size ``<= n`` are pairwise partizan-inequivalent (Theorem 4 up to
``n``). The size bound is pushed up until the time budget (``--time``, default 10 minutes)
would be exceeded: a size is started only if the previous size's time, times the growth seen
so far, fits in what is left.

What is proved is stored (the default store, or ``--store URL``): per size, a summary under
ruleset ``nim-positions-partizan``, position ``size=<n>``, property ``theorem4``, holding the
counts and, for each pair settled by the search, the two positions and the distinguisher as a
DAG (:func:`cgtalg.misere.partizan_proof.form_to_json`). A rerun reads the sizes already proved
and extends from the first missing one.

Usage::

    python tools/verify_partizan_nim.py [--time DURATION] [--max-size N] [--store URL] [--json]

Exit status 0 when both theorems held for every size checked, 1 otherwise.
"""

from __future__ import annotations

import itertools
import json
import pathlib
import sys
import time
from typing import Any

from cgtalg.core.partizan import ZERO, PartizanGame, from_impartial, integer, nimber, pgame
from cgtalg.budget import check_max_seconds
from cgtalg.misere.nim_positions import (
    NimClassCheck,
    check_size_level,
    is_nim_reduced,
    nim_position_game,
    nim_positions_of_size,
    nim_reduced_form,
)

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))  # the tools' shared command line
from nim_tool_arguments import parse_tool_arguments, tool_arguments  # noqa: E402

RULESET = "nim-positions-partizan"
PROPERTY = "theorem4"
Position = tuple[int, ...]


def _day2_forms() -> list[PartizanGame]:
    forms = [ZERO]
    for _ in range(2):
        subsets = [s for k in range(len(forms) + 1) for s in itertools.combinations(forms, k)]
        seen: dict[int, PartizanGame] = {}
        for left in subsets:
            for right in subsets:
                g = pgame(left, right)
                seen.setdefault(g.id, g)
        forms = list(seen.values())
    return forms


class _Family:
    """The fixed, ordered family of small partizan test games (grown with the size bound)."""

    def __init__(self) -> None:
        self.day2 = _day2_forms()
        self.small = [x for x in self.day2 if len(x.left) <= 1 and len(x.right) <= 1 and not x.is_zero]
        self.bound = -1
        self.games: list[PartizanGame] = []

    def upto(self, n: int) -> list[PartizanGame]:
        if n != self.bound:
            ints = [integer(k) for k in range(-(n + 1), n + 2) if k]
            heaps = [nimber(k) + integer(-j) for j in range(1, n + 2) for k in (2, 3, 4)]
            seen: dict[int, PartizanGame] = {}
            for g in ints + heaps + self.day2 + [i + x for i in ints for x in self.small]:
                seen.setdefault(g.id, g)
            self.games = list(seen.values())
            self.bound = n
        return self.games


def _describe_family(n: int) -> str:
    return (f"integers k with 0 < |k| <= {n + 1}; *m - j for m = 2, 3, 4 and 0 < j <= {n + 1}; the "
            f"256 literal forms born by day 2; k + x for those k and the forms x born by day 2 with "
            f"at most one option per side")


def _distinguish(a: PartizanGame, b: PartizanGame, family: list[PartizanGame]) -> int | None:
    from cgtalg.misere.partizan_outcome import pair_first_winners

    for i, x in enumerate(family):
        if pair_first_winners(a, x) != pair_first_winners(b, x):
            return i
    return None


def run(max_seconds: float, max_size: int, store_url: str | None, progress: bool) -> dict[str, Any]:
    from cgtalg.misere.partizan import misere_equal
    from cgtalg.misere.partizan_proof import check_misere_certificate, form_to_json, play_misere_outcome
    from cgtalg.misere.proof import check_proof
    from cgtalg.store import open_store

    max_seconds = check_max_seconds(max_seconds)
    store = open_store(store_url)
    start = time.perf_counter()
    # resume: the sizes already proved
    resumed = 0
    stored_seconds = None
    positions_total = 0
    while resumed <= max_size:
        summary = store.get_position(RULESET, f"size={resumed}", PROPERTY)
        if summary is None or not summary.get("holds"):
            break
        positions_total = summary["positions_up_to_size"]
        stored_seconds = summary.get("seconds")
        resumed += 1
    classes: dict[Position, list[Position]] = {}
    reduced: list[Position] = []
    for m in range(resumed):
        for p in nim_positions_of_size(m):
            classes.setdefault(nim_reduced_form(p), []).append(p)
            if is_nim_reduced(p):
                reduced.append(p)
    if sum(len(v) for v in classes.values()) != positions_total:
        raise SystemExit(f"the store counts {positions_total} positions up to size {resumed - 1}, but "
                         f"{sum(len(v) for v in classes.values())} exist: the stored run is inconsistent")
    forms: dict[Position, PartizanGame] = {}

    def form(p: Position) -> PartizanGame:
        g = forms.get(p)
        if g is None:
            g = forms[p] = from_impartial(nim_position_game(p))
        return g

    family = _Family()
    n = resumed
    last_time = stored_seconds
    growth = 2.0
    failures: list[str] = []
    levels: list[dict[str, Any]] = []
    bar = None
    if progress:
        try:
            from tqdm import tqdm

            bar = tqdm(desc="Theorems 4 and 6 by size", unit="size", initial=n)
        except ImportError:  # pragma: no cover
            bar = None
    while n <= max_size:
        elapsed = time.perf_counter() - start
        if last_time is not None and elapsed + last_time * growth > max_seconds:
            break
        t0 = time.perf_counter()
        level_failures: list[str] = []
        # Theorem 6 (impartial), as tools/nim_position_classes.py
        chk = NimClassCheck(n)
        new_reduced = check_size_level(n, reduced, chk)
        eq_ok = sum(1 for _, _, r in chk.equivalences if r.holds and check_proof(r))
        ds_ok = sum(1 for _, _, r in chk.distinctions if not r.holds and check_proof(r))
        level_failures += chk.failures
        if eq_ok != len(chk.equivalences) or ds_ok != len(chk.distinctions):
            level_failures.append("an impartial certificate was rejected by check_proof")
        reduced.extend(new_reduced)
        # Theorem 4 within each impartial class
        fam = family.upto(n)
        by_family = 0
        searched: list[dict[str, Any]] = []
        new_positions = nim_positions_of_size(n)
        for p in new_positions:
            members = classes.setdefault(nim_reduced_form(p), [])
            for q in members:
                i = _distinguish(form(p), form(q), fam)
                if i is not None:  # re-played by the checker's own solver of literal sums
                    x = fam[i]
                    if play_misere_outcome(form(p), x) == play_misere_outcome(form(q), x):
                        level_failures.append(f"the family game {i} does not separate {q} and {p} on replay")
                    by_family += 1
                    continue
                r = misere_equal(form(q), form(p))
                if r.holds:
                    level_failures.append(f"{q} and {p} are partizan-equivalent")
                    continue
                if not check_misere_certificate(r):
                    level_failures.append(f"the distinguisher of {q} and {p} was rejected")
                    continue
                c = r.certificate
                searched.append({"positions": [list(q), list(p)], "T": form_to_json(c.t),
                                 "outcomes": [c.outcome_g, c.outcome_h], "condition": c.condition})
            members.append(p)
        positions_total += len(new_positions)
        within = by_family + len(searched)
        dt = time.perf_counter() - t0
        summary = {
            "size": n,
            "holds": not level_failures,
            "positions_of_size": len(new_positions),
            "positions_up_to_size": positions_total,
            "classes_up_to_size": len(reduced),
            "pairs_up_to_size": positions_total * (positions_total - 1) // 2,
            "new_pairs_within_classes": within,
            "new_pairs_by_family": by_family,
            "new_pairs_by_search": len(searched),
            "theorem6_equivalence_certificates": eq_ok,
            "theorem6_distinctions": ds_ok,
            "family": _describe_family(n),
            "distinguishers_by_search": searched,
            "seconds": round(dt, 3),
        }
        levels.append({k: v for k, v in summary.items() if k != "distinguishers_by_search"})
        if level_failures:
            failures.extend(level_failures)
            break
        store.put_position(RULESET, f"size={n}", PROPERTY, summary)
        if last_time is not None and last_time > 0.05:
            growth = max(1.2, dt / last_time)
        last_time = dt
        n += 1
        if bar is not None:
            bar.update(1)
    if bar is not None:
        bar.close()
    return {
        "theorem": "Spindler (seed 002) Theorem 4: distinct Nim positions are misère-inequivalent "
        "in the partizan universe; Theorem 6: impartially equivalent Nim positions have "
        "isomorphic reduced forms",
        "holds": not failures,
        "bound": n - 1,
        "positions": positions_total,
        "classes": len(reduced),
        "pairs": positions_total * (positions_total - 1) // 2,
        "resumed_from_size": resumed,
        "sizes_checked_now": [lv["size"] for lv in levels],
        "seconds": round(time.perf_counter() - start, 3),
        "max_seconds": max_seconds,
        "failures": failures,
        "store": store.location,
        "levels": levels,
    }


def main(argv: list[str] | None = None) -> int:
    args = parse_tool_arguments(tool_arguments(__doc__.split("\n\n")[0]), argv)
    out = run(args.time, args.max_size, args.store, progress=not (args.json or args.no_progress))
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        verdict = "hold" if out["holds"] else "FAIL"
        print(f"Theorems 4 and 6 {verdict} for all Nim positions of size <= {out['bound']}: "
              f"{out['positions']} positions, pairwise partizan-inequivalent ({out['pairs']} pairs), "
              f"{out['classes']} impartial classes ({out['seconds']} s; resumed from size "
              f"{out['resumed_from_size']}; store {out['store']})")
        for f in out["failures"]:
            print("  failure:", f)
    return 0 if out["holds"] else 1


if __name__ == "__main__":
    sys.exit(main())
