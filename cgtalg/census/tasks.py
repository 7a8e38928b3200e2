"""One census task: everything computed for one class (one standard form).

:func:`compute_class` is what a Dask worker runs (and what the serial path runs in-process).
It computes, for the standard form ``S`` of the class,

- **normal play**: the Grundy sequence with the rare/common kernel where the code has sparse
  space (the naive kernel otherwise), until the period is *certified* by the Guy-Smith
  theorem or the value bound is reached (:func:`~cgtalg.rulesets.heaps.octal_periodicity.periodicity`);
- **the misère genus tail**: the genera of heaps ``0..genus_heaps``
  (:func:`~cgtalg.rulesets.heaps.genus.heap_genus`, from misère canonical forms);
- **a misère-quotient attempt**: ``Q_n`` for heaps up to ``quotient_heaps``
  (:func:`~cgtalg.quotients.construct.misere_quotient`, verified exactly), final when
  Plambeck-Siegel's periodicity test holds on it.

Every record is a function of the class and the parameters only (no timings, no machine), so
a task run twice, on two machines, or by two overlapping censuses writes the same value
(the store is write-once: same value, one row). Budgets are therefore counted in values,
heaps, orders and states; the one wall-clock budget (``quotient_max_seconds``, a safety net for
quotient searches that stall) gives an *inconclusive* quotient that is reported but never
stored, so a later run tries again.

Bounds on the values (all deterministic):

- codes with two-heap splits and no sparse space (more than a fifth of the first
  ``dense_values`` heaps rare for the best split, the rule the engine itself uses) stop at
  ``dense_values``: the naive kernel is quadratic (``limit = "dense"``);
- codes whose moves leave three heaps (hexadecimal digits 8-F) stop at
  ``three_heap_values`` (cubic; ``limit = "three-heap"``);
- every other code runs to ``values`` (``limit = "values"``).

Where results live in the store (ruleset key :data:`CENSUS_RULESET`, position = the
standard form's code text): property ``normal`` holds a solved class (whatever the bound);
``normal:values=N:dense=D:three=T`` an unsolved one at those bounds; ``genus:heaps=H`` and
``quotient:heaps=H:order=O:states=S`` the misère parts. The Grundy sequence itself is the
store sequence ``grundy:<S>`` (shared with ``cgtalg grundy`` and ``cgtalg period``), written
in batches while it is computed, so a task killed halfway resumes from the stored prefix.
"""

from __future__ import annotations

import os
import socket
import time
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from cgtalg.budget import check_max_seconds
from cgtalg.census.driver import worker_store
from cgtalg.errors import BudgetError, CensusError, ComputationLimitError

__all__ = ["CensusParams", "compute_class", "stored_parts", "store_items", "CENSUS_RULESET", "PARTS",
           "solved_fields", "quotient_fields", "first_non_nim"]

#: The store's ruleset key of census records.
CENSUS_RULESET = "census:octal"
#: The parts of a class record.
PARTS = ("normal", "genus", "quotient")


@dataclass(frozen=True)
class CensusParams:
    """The bounds of a census (what a class record depends on).

    Attributes
    ----------
    values : int
        Grundy values per class (``G(0) .. G(values-1)``) when no period is certified first.
    dense_values : int
        Bound for codes without sparse space (two-heap splits, naive kernel); at least
        ``2**14``, the values sparse space is judged on.
    three_heap_values : int
        Bound for codes whose moves may leave three heaps.
    misere : bool
        Compute the genus tail and the quotient attempt.
    genus_heaps : int
        Genera of heaps ``0..genus_heaps``.
    quotient_heaps, quotient_max_order, quotient_max_states : int
        The quotient attempt: ``Q_n`` for heaps ``<= quotient_heaps``, candidate orders and
        verification states at most these.
    quotient_max_seconds : float
        Wall-clock safety net of one quotient attempt (an attempt stopped by it is reported
        as inconclusive and not stored).
    """

    values: int = 2**20
    dense_values: int = 2**16
    three_heap_values: int = 2**11
    misere: bool = True
    genus_heaps: int = 24
    quotient_heaps: int = 12
    quotient_max_order: int = 256
    quotient_max_states: int = 200_000
    quotient_max_seconds: float = 10.0

    def __post_init__(self) -> None:
        for name in ("values", "dense_values", "three_heap_values", "genus_heaps", "quotient_heaps",
                     "quotient_max_order", "quotient_max_states"):
            v = getattr(self, name)
            low = 16 if name.endswith("values") else 0
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < low:
                shown = repr(v) if len(repr(v)) <= 40 else repr(v)[:37] + "..."
                raise CensusError(f"census parameter {name} must be an integer >= {low}, got {shown}")
        if self.dense_values < 2**14:
            raise CensusError(f"dense_values must be at least 2**14 = 16384 (sparse space is judged on that many "
                              f"values, as the Grundy engine does), got {self.dense_values}")
        try:
            check_max_seconds(self.quotient_max_seconds, "quotient_max_seconds")
        except BudgetError as exc:
            raise CensusError(str(exc)) from None

    @property
    def parts(self) -> tuple[str, ...]:
        """The parts each class record has."""
        return PARTS if self.misere else ("normal",)

    def normal_prop(self) -> str:
        """Store property of an unsolved class at these bounds."""
        return f"normal:values={self.values}:dense={self.dense_values}:three={self.three_heap_values}"

    def genus_prop(self) -> str:
        return f"genus:heaps={self.genus_heaps}"

    def quotient_prop(self) -> str:
        return (f"quotient:heaps={self.quotient_heaps}:order={self.quotient_max_order}"
                f":states={self.quotient_max_states}")

    def to_json(self) -> dict:
        return asdict(self)


# -- what the store holds ----------------------------------------------------------------------
def stored_parts(props: dict[str, Any], params: CensusParams) -> dict[str, dict]:
    """The parts of a class record that ``props`` (the stored properties of its position)
    answer for ``params``: ``normal`` when solved, or unsolved at these bounds or at a
    larger ``values``; ``genus`` at ``genus_heaps`` or more heaps (cut to ``genus_heaps``);
    ``quotient`` at these budgets, or any final quotient.

    Examples
    --------
    >>> p = CensusParams(values=1024)
    >>> stored_parts({"normal": {"status": "solved", "period": 12}}, p)
    {'normal': {'status': 'solved', 'period': 12}}
    >>> held = {"status": "unsolved", "values": 4096, "limit": "values"}
    >>> stored_parts({"normal:values=4096:dense=65536:three=2048": held}, p) == {"normal": held}
    True
    """
    out: dict[str, dict] = {}
    normal = props.get("normal") or props.get(params.normal_prop())
    if normal is None:
        larger = [v for k, v in props.items() if k.startswith("normal:") and isinstance(v, dict)
                  and v.get("limit") == "values" and int(v.get("values", 0)) >= params.values]
        if larger:
            normal = max(larger, key=lambda v: int(v["values"]))
    if normal is not None:
        out["normal"] = normal
    if params.misere:
        genus = props.get(params.genus_prop())
        if genus is None:
            longer = [v for k, v in props.items() if k.startswith("genus:") and isinstance(v, dict)
                      and len(v.get("sequence", ())) > params.genus_heaps and v.get("stopped") is None]
            if longer:
                genus = min(longer, key=lambda v: len(v["sequence"]))
                genus = dict(genus, sequence=genus["sequence"][: params.genus_heaps + 1],
                             heaps=params.genus_heaps)
                genus["first_non_nim"] = first_non_nim(genus["sequence"])
        if genus is not None:
            out["genus"] = genus
        quotient = props.get(params.quotient_prop())
        if quotient is None:
            final = [v for k, v in props.items() if k.startswith("quotient:") and isinstance(v, dict)
                     and v.get("status") == "final"]
            if final:
                quotient = final[0]
        if quotient is not None:
            out["quotient"] = quotient
    return out


def store_items(standard: str, record: dict, params: CensusParams) -> list[tuple[str, str, str, Any]]:
    """The ``(ruleset, position, prop, value)`` rows that keep ``record`` (its deterministic
    parts) in the store (:meth:`~cgtalg.store.Store.put_positions_many`): the parts computed
    (a record from :func:`compute_class` names them in ``source``; reused parts are stored
    already)."""
    items = []
    source = record.get("source")
    if source is not None:
        from cgtalg.census.recheck import COMPUTED

        record = {k: v for k, v in record.items() if k not in PARTS or source.get(k) == COMPUTED}
    normal = record.get("normal")
    if normal is not None:
        prop = "normal" if normal["status"] == "solved" else params.normal_prop()
        items.append((CENSUS_RULESET, standard, prop, normal))
    genus = record.get("genus")
    if genus is not None and params.misere:
        items.append((CENSUS_RULESET, standard, params.genus_prop(), genus))
    quotient = record.get("quotient")
    if quotient is not None and params.misere and quotient.get("status") != "inconclusive":
        items.append((CENSUS_RULESET, standard, params.quotient_prop(), quotient))
    return items


# -- the task ----------------------------------------------------------------------------------
def compute_class(standard: str, params: CensusParams, store: Any = None,
                  need: tuple[str, ...] | None = None, reuse: dict | None = None,
                  stop_at: float | None = None) -> dict:
    """Compute the parts ``need`` (default: all of ``params.parts`` not in ``reuse``) of the
    class record of the standard form ``standard``, and re-check the stored parts ``reuse``.

    Parameters
    ----------
    standard : str
        The code text of a standard form (any finite code works; the census passes standard
        forms).
    params : CensusParams
    store : Store, str or None
        The store (or its URL; a worker opens it once per process): the Grundy sequence is
        read from and written to it, so a task killed halfway resumes; the misère quotient's
        verified state is kept there. Records are *not* written here: the driver writes
        them in batches.
    need : tuple of str, optional
        Parts to compute.
    reuse : dict, optional
        Parts read from the store (part -> stored record): each is re-checked
        (:func:`cgtalg.census.recheck.recheck_part`) and kept when it passes, else computed
        again (never from the stored Grundy values).
    stop_at : float, optional
        The census's time budget, as a ``time.time()`` instant: past it the task stops with
        :class:`~cgtalg.errors.ComputationLimitError` (nothing of the class is recorded; the
        Grundy values computed are kept in the store).

    Returns
    -------
    dict
        ``{"standard", "normal", "genus", "quotient", "source", "rechecks", "seconds",
        "worker"}`` (the parts not asked for are absent); ``source`` maps each part to
        ``"computed"`` or ``"reused, re-checked"``, ``rechecks`` each reused part that failed
        its re-check to why; ``seconds`` and ``worker`` are never stored.

    Examples
    --------
    >>> r = compute_class("0.77", CensusParams(values=1024, misere=False))
    >>> {k: r["normal"][k] for k in ("status", "period", "preperiod", "last_exceptional", "max_value")}
    {'status': 'solved', 'period': 12, 'preperiod': 71, 'last_exceptional': 70, 'max_value': 8}
    >>> again = compute_class("0.77", CensusParams(values=1024, misere=False), reuse={"normal": r["normal"]})
    >>> again["source"], again["rechecks"]
    ({'normal': 'reused, re-checked'}, {})
    """
    from cgtalg.census.recheck import COMPUTED, RECHECKED, recheck_part
    from cgtalg.rulesets.heaps.octal import TakeAndBreak

    if not isinstance(params, CensusParams):
        raise CensusError(f"params must be CensusParams, not {type(params).__name__}")
    if reuse is not None and not isinstance(reuse, dict):
        raise CensusError(f"reuse must be a dict of stored parts, not {type(reuse).__name__}")
    reuse = dict(reuse or {})
    need = tuple(p for p in params.parts if p not in reuse) if need is None else tuple(need)
    for part in (*need, *reuse):
        if part not in PARTS:
            raise CensusError(f"unknown census part {str(part)[:40]!r}; expected one of {PARTS}")
    st = worker_store(store)
    out: dict[str, Any] = {"standard": standard, "source": {}, "rechecks": {}, "seconds": {},
                           "worker": f"{socket.gethostname()}:{os.getpid()}"}
    for part in PARTS:
        if part not in need and part not in reuse:
            continue
        t0 = time.perf_counter()
        code = TakeAndBreak(standard)  # a fresh engine per part: memory is freed between them
        if part in reuse:
            why = recheck_part(part, code, reuse[part], params, st)
            if why is None:
                out[part] = reuse[part]
                out["source"][part] = RECHECKED
                out["seconds"][part] = round(time.perf_counter() - t0, 4)
                continue
            out["rechecks"][part] = why
            code = TakeAndBreak(standard)
        # a part whose stored record failed its re-check is computed without the stored values
        part_store = None if part == "normal" and part in reuse else st
        if part == "normal":
            resumed = part_store is not None and part_store.sequence_length(code.sequence_key) > 0
            out["normal"] = normal_record(code, params, part_store, stop_at)
            if resumed:
                # it went on from Grundy values read from the store: re-check it on fresh ones
                why = recheck_part("normal", TakeAndBreak(standard), out["normal"], params)
                if why is not None:
                    out["rechecks"]["normal"] = ("computed from the store's Grundy values, it failed its "
                                                 f"re-check: {why}")
                    out["normal"] = normal_record(TakeAndBreak(standard), params, None, stop_at)
        elif part == "genus":
            out["genus"] = genus_record(code, params, stop_at)
        else:
            out["quotient"] = quotient_record(code, params, part_store, stop_at)
        out["source"][part] = COMPUTED
        out["seconds"][part] = round(time.perf_counter() - t0, 4)
    return out


def _left(stop_at: float | None) -> float | None:
    """Seconds left before ``stop_at`` (None: no limit); none left raises
    :class:`~cgtalg.errors.ComputationLimitError` (the census's time budget)."""
    if stop_at is None:
        return None
    left = stop_at - time.time()
    if left <= 0:
        from cgtalg.budget import BUDGET_HINT

        raise ComputationLimitError(f"the census's time budget ran out; {BUDGET_HINT}")
    return left


def _sparse_space(G: np.ndarray, L: int, rules: Any) -> bool:
    """Whether the best rare/common split of ``G[:L]`` leaves at most a fifth of the heaps
    rare (the engine's own rule for method ``auto``; Walsh-Hadamard transform of the value
    counts by position parity, as :meth:`GrundyEngine._choose`). A function of the values
    only, so the census bound of a code never depends on how its values were obtained."""
    from cgtalg.rulesets.heaps.grundy_engine import AUTO_RARE_DIVISOR, rare_counts

    size = 1 << max(int(G[:L].max()), 1).bit_length()
    r0, r1 = rare_counts(G, L, size, rules.split_parity)
    best = int(r0.min()) if r1 is None else min(int(r0.min()), int(r1.min()))
    return best * AUTO_RARE_DIVISOR <= L


def normal_record(code: Any, params: CensusParams, store: Any = None, stop_at: float | None = None) -> dict:
    """The normal-play part of a class record (see the module docstring for the bounds).
    ``stop_at`` (``time.time()`` seconds): past it, :class:`~cgtalg.errors.ComputationLimitError`
    (the census's time budget; values computed are kept in the store).

    Keys: ``status`` (``"solved"``: a certified period; ``"unsolved"``), ``period``,
    ``preperiod``, ``last_exceptional`` (``preperiod - 1``, None when purely periodic),
    ``max_value`` and ``max_value_at`` (the largest value and the first heap with it: over
    ``G(0 .. preperiod+period-1)`` when solved, which is every value), ``values`` (solved:
    the values the certificate needs; unsolved: the values computed), ``limit`` (unsolved:
    ``"values"``, ``"dense"`` or ``"three-heap"``), ``seen_period``/``seen_preperiod``
    (unsolved: a repetition seen on the prefix, never a claim), ``tail_zeros`` (solved and
    purely periodic: zeros closing the first period, which the members' preperiods need),
    ``k`` and ``certificate`` (the theorem's bound).
    """
    from cgtalg.rulesets.heaps.octal_periodicity import periodicity

    rules = code.kernel_rules(64)
    three = len(rules.t_split3) > 0
    splits = len(rules.t_split) > 0
    N = int(params.values)
    limit = "values"
    if three:
        bound = min(N, params.three_heap_values)
        if bound < N:
            limit = "three-heap"
    elif splits:
        bound = min(N, params.dense_values)
    else:
        bound = N
    res = periodicity(code, max_values=bound, store=store, progress=False, max_seconds=_left(stop_at))
    if not res.certified and splits and not three and bound < N:
        eng = code.engine()
        if _sparse_space(eng.G, bound, rules):
            if eng.mode != "sparse":
                # The engine fell back to the naive kernel when the rare heaps peaked earlier
                # (0.344 at n = 17909, 0.764 at n = 39230, ...), but they are few again on these
                # values: go on with the rare/common kernel (correct for any split), or the
                # quadratic kernel would run to `values`.
                from cgtalg.rulesets.heaps.grundy_engine import GrundyEngine, install_grundy_engine

                fresh = GrundyEngine(code, "sparse")
                fresh.load_prefix(eng.G[: eng.n], trusted=eng.trusted >= eng.n)
                install_grundy_engine(code, fresh)
            bound = N
            res = periodicity(code, max_values=bound, store=store, progress=False, max_seconds=_left(stop_at))
        else:
            limit = "dense"
    G = code.engine().G
    if res.certified:
        return solved_fields(res, G, code.k)
    top = int(res.values_checked)
    rec: dict[str, Any] = {"k": code.k, "status": "unsolved", "period": None, "preperiod": None,
                           "last_exceptional": None, "values": top, "limit": limit,
                           "seen_period": res.seen_period, "seen_preperiod": res.seen_preperiod}
    head = np.asarray(G[:top])
    rec["max_value"] = int(head.max())
    rec["max_value_at"] = int(np.argmax(head))
    return rec


def solved_fields(res: Any, G: np.ndarray, k: int) -> dict:
    """The normal-play part of a solved class from the certified result ``res``
    (:class:`~cgtalg.rulesets.heaps.octal_periodicity.PeriodicityResult`) and the Grundy values ``G``
    (at least ``preperiod + period`` of them); see :func:`normal_record`."""
    n0, p = int(res.preperiod), int(res.period)
    top = n0 + p
    rec: dict[str, Any] = {"k": k, "status": "solved", "period": p, "preperiod": n0,
                           "last_exceptional": (n0 - 1 if n0 else None), "values": int(res.required_values),
                           "certificate": res.bound}
    if n0 == 0:
        first = np.asarray(G[:p])
        nz = np.flatnonzero(first)
        rec["tail_zeros"] = int(p - 1 - nz[-1]) if nz.size else p
    head = np.asarray(G[:top])
    rec["max_value"] = int(head.max())
    rec["max_value_at"] = int(np.argmax(head))
    return rec


def first_non_nim(sequence: list[str]) -> int | None:
    """The first heap whose genus (text) is not a nim-heap's, None if every one is."""
    from cgtalg.misere.genus import Genus

    for h, text in enumerate(sequence):
        if not Genus.parse(text).is_nim_genus():
            return h
    return None


def genus_record(code: Any, params: CensusParams, stop_at: float | None = None) -> dict:
    """The misère genus part: ``sequence`` (classical genus text of heaps ``0..heaps``),
    ``heaps`` (the last heap done), ``first_non_nim`` (the first heap whose genus is not a
    nim-heap's, None if all are: the game is tame that far), ``stopped`` (why it stopped
    early, e.g. a canonical form past the walk limit, else None)."""
    from cgtalg.rulesets.heaps.genus import heap_genus

    seq: list[str] = []
    stopped = None
    for h in range(params.genus_heaps + 1):
        _left(stop_at)
        try:
            seq.append(str(heap_genus(code, h)))
        except ComputationLimitError as exc:
            stopped = " ".join(str(exc).split())
            break
    return {"heaps": len(seq) - 1, "sequence": seq, "first_non_nim": first_non_nim(seq), "stopped": stopped}


def quotient_record(code: Any, params: CensusParams, store: Any = None, stop_at: float | None = None) -> dict:
    """The misère-quotient attempt: ``Q_n`` for heaps ``n <= quotient_heaps``.

    ``status``: ``"final"`` (Plambeck-Siegel's periodicity test holds on the heaps done, so
    this is the quotient of the whole game; ``period`` = ``[n0, p]`` of the pretending
    function), ``"partial"`` (``Q_n`` of the heaps done, the test does not hold yet),
    ``"over budget"`` (an order/state budget or the candidate search gave up: ``reason``),
    ``"inconclusive"`` (the wall-clock safety net stopped it; never stored). With ``order``,
    ``presentation`` and ``p_portion`` when a quotient was found, and for a final one ``phi``
    (the words of Φ of heaps ``0 .. n0+p-1``: the row's certificate is built from them).

    With a ``store``, the verified quotient state is kept there too (sequence metadata
    ``quotient:<code>``, :mod:`cgtalg.quotients.storage`): a later census re-verifies the
    record against it (:mod:`cgtalg.census.recheck`). A stored state that fails its
    verification is replaced by a fresh computation; one that a process resumed from its own
    copy did not read is replaced by that copy when they differ
    (:meth:`cgtalg.quotients.storage.Checkpointer.write`).
    """
    from cgtalg.errors import StoreCorruptError
    from cgtalg.quotients.construct import misere_quotient

    Hq = int(params.quotient_heaps)
    left = _left(stop_at)
    census_bound = left is not None and left < params.quotient_max_seconds

    def attempt(resume: bool) -> Any:
        return misere_quotient(code, max_heap=Hq, max_order=params.quotient_max_order,
                               max_states=params.quotient_max_states,
                               max_seconds=left if census_bound else params.quotient_max_seconds,
                               progress=False, store=store, resume=resume)

    try:
        try:
            q = attempt(True)
        except StoreCorruptError:
            q = attempt(False)  # the stored state failed its verification: recompute, replace it
    except ComputationLimitError as exc:
        text = " ".join(str(exc).split())
        if census_bound and "time budget" in text:
            raise  # the census's own budget, not the attempt's: no record
        status = "inconclusive" if "time budget" in text else "over budget"
        return {"heaps": Hq, "status": status, "reason": text}
    return quotient_fields(q, code, Hq)


def quotient_fields(q: Any, code: Any, heaps: int) -> dict:
    """The quotient part of a class record from the verified quotient ``q`` of heaps
    ``<= heaps`` (:class:`~cgtalg.quotients.result.MisereQuotient`); see
    :func:`quotient_record`."""
    from cgtalg.quotients.state import certify_misere_period  # Plambeck-Siegel's test, on the code's facts

    per = certify_misere_period(code, list(q.phi))
    pres = q.presentation()
    out = {"heaps": int(heaps), "status": "final" if per is not None else "partial", "order": q.order,
           "presentation": pres.text, "p_portion": [pres.words[x] for x in q.p_portion],
           "period": list(per) if per is not None else None}
    if per is not None:  # Φ of heaps 0 .. n0+p-1: with the period, the row's certificate (certificates.quotient_certificate)
        out["phi"] = [pres.words[x] for x in q.phi[: per[0] + per[1]]]
    return out
