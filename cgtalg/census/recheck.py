"""Re-checking what a census reads back from the store before it is trusted.

A rerun of a census reads the class records the store holds (:func:`~cgtalg.census.tasks.stored_parts`)
and would print them as they are. Nothing read back is trusted: each reused part is checked
again here, on values recomputed for the check (never on values read from the store), and a
part that fails its check is computed again (the census reports the failure). A row of the
table says which: ``source`` is ``computed`` or ``reused, re-checked`` (:data:`COMPUTED`,
:data:`RECHECKED`).

- **normal, solved** (a period certified by the Guy-Smith theorem): the Grundy values the
  certificate of the claimed ``(preperiod, period)`` needs are recomputed with the compiled
  engine, the periodicity checker (:func:`~cgtalg.rulesets.heaps.octal_periodicity.periodicity`,
  whose scan certifies the least period on them) runs on them, and the record it gives must be
  the stored one, field for field (period, preperiod, largest value and where, the bound).
- **normal, unsolved**: no certificate to run; a sample is recomputed (the first
  :data:`UNSOLVED_SAMPLE` values): no period may be certified on it, and the stored largest
  value must agree with it.
- **genus**: the genera of heaps ``0 .. GENUS_SAMPLE`` are recomputed from misère canonical
  forms and must be the stored ones.
- **quotient** (``final`` or ``partial``): the store's quotient state of the game (written by
  the census's quotient attempt) is loaded by :func:`cgtalg.quotients.storage.load_quotient_state`,
  which re-verifies it exactly against the game's moves (the check
  :func:`~cgtalg.quotients.construct.misere_quotient` runs on load); the record it gives must be
  the stored one. A quotient attempt that stopped on a budget carries no claim to re-check:
  it is attempted again.

A class computed on from Grundy values the store holds (a killed run's) is re-checked the
same way once computed (:func:`~cgtalg.census.tasks.compute_class`).
"""

from __future__ import annotations

import json
from typing import Any

from cgtalg.errors import CgtalgError, ComputationLimitError

__all__ = ["recheck_part", "COMPUTED", "RECHECKED", "UNSOLVED_SAMPLE", "GENUS_SAMPLE"]

#: ``source`` of a row whose class record was computed by this run (at least one part).
COMPUTED = "computed"
#: ``source`` of a row whose class record was read from the store and passed every re-check.
RECHECKED = "reused, re-checked"
#: Grundy values recomputed to re-check an unsolved normal-play record.
UNSOLVED_SAMPLE = 4096
#: Heaps ``0..GENUS_SAMPLE`` whose genus is recomputed to re-check a genus record.
GENUS_SAMPLE = 8


def _plain(value: Any) -> Any:
    """``value`` as the store gives it back (JSON: tuples become lists)."""
    return json.loads(json.dumps(value))


def _differs(stored: dict, expected: dict) -> str | None:
    """The first field where ``stored`` and ``expected`` differ, described (None if equal)."""
    expected = _plain(expected)
    for key in sorted(set(stored) | set(expected)):
        if stored.get(key) != expected.get(key):
            return f"{key} is stored as {_short(stored.get(key))} but recomputed as {_short(expected.get(key))}"
    return None


def _short(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def recheck_part(part: str, code: Any, stored: Any, params: Any, store: Any = None) -> str | None:
    """Re-check the stored ``part`` (``normal``, ``genus`` or ``quotient``) of the class record
    of ``code`` (a :class:`~cgtalg.rulesets.heaps.octal.TakeAndBreak`, the class's standard form).

    Returns None when the record passes (module docstring), else why it does not: the caller
    computes the part again. Never raises for a bad record; a check that runs out of a budget
    fails the record (it is then computed again, under the census's own budgets).
    """
    try:
        if not isinstance(stored, dict):
            return f"the stored record is not a record ({type(stored).__name__})"
        if part == "normal":
            return _recheck_normal(code, stored, params)
        if part == "genus":
            return _recheck_genus(code, stored)
        if part == "quotient":
            return _recheck_quotient(code, stored, store)
        return f"unknown census part {part!r}"
    except ComputationLimitError as exc:
        return f"its re-check ran out of a budget ({_short(' '.join(str(exc).split()), 200)})"
    except (CgtalgError, KeyError, TypeError, ValueError, IndexError, OverflowError) as exc:
        return f"it cannot be re-checked ({type(exc).__name__}: {_short(' '.join(str(exc).split()), 200)})"


def _fresh(code: Any) -> Any:
    """A new ruleset for ``code`` (its own engine: no values computed before, none from a store)."""
    from cgtalg.rulesets.heaps.octal import TakeAndBreak

    return TakeAndBreak(str(code))


def _recheck_normal(code: Any, rec: dict, params: Any) -> str | None:
    from cgtalg.census.tasks import solved_fields
    from cgtalg.rulesets.heaps.grundy_engine import grundy_engine
    from cgtalg.rulesets.heaps.octal_periodicity import periodicity, required_length

    fresh = _fresh(code)
    cert = fresh.certificate()
    if cert is None:
        return f"{code} has no periodicity theorem"
    _theorem, mode, h, k = cert
    status = rec.get("status")
    if status == "solved":
        n0, p = int(rec["preperiod"]), int(rec["period"])
        if n0 < 0 or p < 1:
            return f"the stored period {p} from heap {n0} is not a period"
        L = max(required_length(mode, h, k, n0, p), 2)
        res = periodicity(fresh, max_values=L, store=None, progress=False)
        if not res.certified:
            return (f"the stored period {p} from heap {n0} is not certified on the {L:,} values its "
                    "certificate needs (recomputed)")
        return _differs(rec, solved_fields(res, grundy_engine(fresh).G, fresh.k))
    if status == "unsolved":
        values = int(rec["values"])
        S = min(values, UNSOLVED_SAMPLE)
        res = periodicity(fresh, max_values=max(S, 2), store=None, progress=False)
        if res.certified:
            return (f"it is stored as unsolved to {values:,} values, but period {res.period} from heap "
                    f"{res.preperiod} is certified on the first {S:,} (recomputed)")
        G = grundy_engine(fresh).G[:S]
        top, at = int(rec["max_value"]), int(rec["max_value_at"])
        m = int(G.max())
        if m > top:
            return f"its largest value is stored as {top}, but G({int(G.argmax())}) = {m} (recomputed)"
        if at < S and (int(G[at]) != top or int(G.argmax()) != at):
            return (f"its largest value is stored as G({at}) = {top}, but the recomputed values give "
                    f"G({at}) = {int(G[at])}")
        if S == values and (m, int(G.argmax())) != (top, at):
            return f"its largest value is stored as G({at}) = {top}, recomputed G({int(G.argmax())}) = {m}"
        return None
    return f"unknown normal-play status {status!r}"


def _recheck_genus(code: Any, rec: dict) -> str | None:
    from cgtalg.census.tasks import first_non_nim
    from cgtalg.rulesets.heaps.genus import heap_genus

    seq = [str(g) for g in rec["sequence"]]
    if int(rec["heaps"]) != len(seq) - 1:
        return f"it holds {len(seq)} genera for heaps 0..{rec['heaps']}"
    if rec.get("first_non_nim") != first_non_nim(seq):
        return f"first_non_nim is stored as {rec.get('first_non_nim')}, the sequence says {first_non_nim(seq)}"
    fresh = _fresh(code)
    for h in range(min(len(seq) - 1, GENUS_SAMPLE) + 1):
        got = str(heap_genus(fresh, h))
        if got != seq[h]:
            return f"the genus of heap {h} is stored as {seq[h]} but recomputed as {got}"
    return None


def _recheck_quotient(code: Any, rec: dict, store: Any) -> str | None:
    from cgtalg.census.tasks import quotient_fields
    from cgtalg.quotients.storage import load_quotient_state

    status = rec.get("status")
    if status not in ("final", "partial"):
        return f"a quotient attempt that stopped ({status}) carries no result to re-check: it is attempted again"
    if store is None:
        return "no store holds the quotient to verify it against"
    fresh = _fresh(code)
    state = load_quotient_state(fresh, store)  # re-verified exactly, or StoreCorruptError
    heaps = int(rec["heaps"])
    if state is None:
        return "the store holds no quotient state of this game to verify the record against"
    if not state.final and state.top < heaps:
        return f"the verified quotient state in the store reaches heap {state.top} only, the record claims {heaps}"
    q = state.quotient(str(fresh), heaps)
    expected = quotient_fields(q, fresh, heaps)
    if "phi" not in rec:  # written before the final records kept Φ: the rest is still checked
        expected.pop("phi", None)
    return _differs(rec, expected)
