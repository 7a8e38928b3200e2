#!/usr/bin/env python
"""Verify Spindler's Theorem 6 for all Nim positions up to a size bound, within a time budget.

Theorem 6 (seed 002): impartially (misère) equivalent Nim positions have isomorphic reduced
forms (Definition 5). For each total size ``n = 0, 1, 2, ...`` this script proves, with the
equivalence test :func:`cgtalg.misere.equivalent` and its certificates,

* every position of size ``n`` that is not reduced is equivalent to its reduced form
  (a Theorem 1 certificate, re-checked by :func:`cgtalg.misere.check_proof`), and
* every reduced position of size ``n`` is inequivalent to each earlier reduced form of equal
  normal-play Grundy value (a distinguishing game; different Grundy values cannot be misère
  equal, see :mod:`cgtalg.misere.nim_positions`),

so the reduced forms of size ``<= n`` are exactly the equivalence classes. The size bound is
pushed up until the budget (default 10 minutes) would be exceeded: a size is started only if
the time of the previous size, times the growth ratio seen so far, fits in what is left.

What is proved is stored (the default store, or ``--store URL``): per size, a summary under
ruleset ``nim-position-classes``, position ``size=<n>``, property ``theorem6``, and each
equivalence as the relation ``misere_equivalent`` of the two forms (a summary of the checked
certificate; the full JSON certificate with ``--store-certificates``). A rerun reads the
sizes already proved and extends from the first missing one.

Usage::

    python tools/nim_position_classes.py [--time DURATION] [--max-size N] [--store URL] [--json]
        [--store-certificates]

Exit status 0 when Theorem 6 held for every size checked, 1 otherwise.
"""

from __future__ import annotations

import json
import pathlib
import sys
import time

from cgtalg.budget import check_max_seconds
from cgtalg.misere.nim_positions import (
    NimClassCheck,
    check_size_level,
    nim_position_game,
    nim_positions_of_size,
    is_nim_reduced,
)

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))  # the tools' shared command line
from nim_tool_arguments import parse_tool_arguments, tool_arguments  # noqa: E402

RULESET = "nim-position-classes"
PROPERTY = "theorem6"


def _position_key(n: int) -> str:
    return f"size={n}"


def run(
    max_seconds: float, max_size: int, store_url: str | None, progress: bool, store_certificates: bool = False
) -> dict:
    from cgtalg.misere.proof import check_proof
    from cgtalg.store import open_store

    max_seconds = check_max_seconds(max_seconds)
    store = open_store(store_url)
    start = time.perf_counter()
    # resume: the sizes already proved
    reduced: list[tuple[int, ...]] = []
    resumed = 0
    stored_seconds = None
    classes = 0
    positions = 0
    while resumed <= max_size:
        summary = store.get_position(RULESET, _position_key(resumed), PROPERTY)
        if summary is None or not summary.get("holds"):
            break
        reduced.extend(p for p in nim_positions_of_size(resumed) if is_nim_reduced(p))
        classes = summary["classes_up_to_size"]
        positions = summary["positions_up_to_size"]
        stored_seconds = summary.get("seconds")
        resumed += 1
    if len(reduced) != classes:
        raise SystemExit(
            f"the store's summary counts {classes} classes up to size {resumed - 1}, but "
            f"{len(reduced)} reduced forms exist: the stored run is inconsistent"
        )
    n = resumed
    last_time = stored_seconds  # the last stored size's time predicts the next one
    growth = 2.0
    failures: list[str] = []
    bar = None
    if progress:
        try:
            from tqdm import tqdm

            bar = tqdm(desc="Theorem 6 by size", unit="size", initial=n)
        except ImportError:  # pragma: no cover
            bar = None
    checked_now = []
    while n <= max_size:
        elapsed = time.perf_counter() - start
        if last_time is not None and elapsed + last_time * growth > max_seconds:
            break
        t0 = time.perf_counter()
        level = NimClassCheck(n)
        new = check_size_level(n, reduced, level)
        certified = 0
        for pos, red, r in level.equivalences:
            if r.holds and check_proof(r):
                value = {
                    "holds": True,
                    "theorem": "Spindler (seed 002) Theorem 1; reduced form (Definition 5)",
                    "reduced_form": list(red),
                    "certificate_checked": True,
                    "proof_nodes": len(r.certificate.nodes()),
                }
                if store_certificates:  # the full JSON certificate (slow: ~10x the search)
                    value["certificate"] = r.to_json()["certificate"]
                store.put_relation(nim_position_game(pos), nim_position_game(red), "misere_equivalent", value)
                certified += 1
            else:
                level.failures.append(f"certificate for {pos} ≡ {red} rejected by check_proof")
        distinct_checked = sum(1 for _, _, r in level.distinctions if not r.holds and check_proof(r))
        if distinct_checked != len(level.distinctions):
            level.failures.append("a distinguishing certificate was rejected by check_proof")
        reduced.extend(new)
        positions += level.positions
        dt = time.perf_counter() - t0
        summary = {
            "size": n,
            "holds": level.holds,
            "positions_of_size": level.positions,
            "new_classes": len(new),
            "classes_up_to_size": len(reduced),
            "positions_up_to_size": positions,
            "equivalence_certificates": certified,
            "distinctions": distinct_checked,
            "seconds": round(dt, 3),
        }
        if not level.holds:
            failures.extend(level.failures)
            checked_now.append(summary)
            break
        store.put_position(RULESET, _position_key(n), PROPERTY, summary)
        checked_now.append(summary)
        if last_time is not None and last_time > 0.05:
            growth = max(1.2, dt / last_time)
        last_time = dt
        n += 1
        if bar is not None:
            bar.update(1)
            bar.set_postfix(classes=len(reduced))
    if bar is not None:
        bar.close()
    bound = n - 1
    return {
        "theorem": "Spindler (seed 002) Theorem 6: impartially equivalent Nim positions have "
        "isomorphic reduced forms",
        "holds": not failures,
        "bound": bound,
        "classes": len(reduced),
        "positions": positions,
        "resumed_from_size": resumed,
        "sizes_checked_now": [s["size"] for s in checked_now],
        "seconds": round(time.perf_counter() - start, 3),
        "max_seconds": max_seconds,
        "failures": failures,
        "store": store.location,
        "levels": checked_now,
    }


def main(argv: list[str] | None = None) -> int:
    ap = tool_arguments(__doc__.split("\n\n")[0])
    ap.add_argument("--store-certificates", action="store_true",
                    help="store each full JSON certificate (readable by check_proof); by default a "
                    "checked-certificate summary is stored, as the JSON costs ~10x the search")
    args = parse_tool_arguments(ap, argv)
    out = run(
        args.time, args.max_size, args.store, progress=not (args.json or args.no_progress),
        store_certificates=args.store_certificates,
    )
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        verdict = "holds" if out["holds"] else "FAILS"
        print(f"Theorem 6 {verdict} for all Nim positions of size <= {out['bound']}: "
              f"{out['positions']} positions, {out['classes']} classes "
              f"({out['seconds']} s; resumed from size {out['resumed_from_size']}; store {out['store']})")
        for f in out["failures"]:
            print("  failure:", f)
    return 0 if out["holds"] else 1


if __name__ == "__main__":
    sys.exit(main())
