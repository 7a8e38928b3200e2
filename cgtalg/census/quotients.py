"""The misère quotient census: the quotient of every octal code of up to ``k`` digits.

:func:`quotient_census` runs, for each class of codes with one standard form
(:mod:`cgtalg.census.codes`), one task (:func:`quotient_class`) on Dask or in this process
(:mod:`cgtalg.census.driver`), against the store, and returns the table
(:class:`~cgtalg.census.quotient_table.QuotientCensusResult`).

What a class gets
-----------------
:func:`cgtalg.quotients.construct.misere_quotient` builds ``Q_n`` heap by heap, every ``Q_n``
verified exactly, and stops when Plambeck–Siegel's periodicity theorem (JCTA 2008, §8)
certifies that ``Q_N`` is the quotient of the whole game. Within the class's budget
(``class_seconds`` of CPU time (:mod:`cgtalg.budget`), cumulated over reruns; ``max_order``, the largest candidate
order) the class is

- **final**: the quotient of the whole game, with its order, ``|P|``, presentation, P-portion,
  Φ (its preperiod ``n0`` and period ``p``, and Φ of heaps ``0 .. n0+p-1``), the heap ``N``
  where the theorem certified it, whether it is tame (isomorphic to ``T_n``, the quotient of
  misère Nim on heaps ``< 2^n``; :meth:`~cgtalg.quotients.result.MisereQuotient.tame_index`)
  and which ``n``, the *generator heaps* (the heaps whose image is not a product of the images
  of smaller heaps: one per generator of the presentation), and the *growth* (the order of
  ``Q_n`` at each heap where it changes);
- **infinite**: the construction proved that ``Q_v`` is infinite (a verified ray pretension
  with an order witness, :mod:`cgtalg.quotients.infinite`), so ``Q_n`` is infinite for every
  ``n >= v`` and no quotient of the whole game is finite: the heap ``v`` (``infinite_from``),
  the facts of the last finite quotient ``Q_{v-1}`` (as for an unsettled class) and the
  certificate of the proof (the document ``cgtalg check`` reads);
- **unsettled**: the largest partial quotient ``Q_N`` reached, with the same facts of
  ``Q_N`` and its growth, what stopped it (``time``: the class budget; ``limit``: the
  order or state bound, or the candidate search gave up within it; ``memory``), and what a
  stopped counting run proved about the next heap (``next_bound``: ``|Q_{N+1}| >= L``;
  reported as the construction states it, not re-derived).

The growth is a step function: ``|Q_n|`` never decreases (``Q_n`` is a quotient of a
submonoid of ``Q_{n+1}``'s positions), so it is found by bisection over the verified state
(:func:`quotient_growth`), whatever part of it a rerun resumed from.

Records, resumption, trust
--------------------------
Class records are position properties of ruleset ``census:octal`` (the Grundy census's
positions: the standard forms), family ``quotient_census``:
``quotient_census:final`` (a function of the class only: the certified quotient, or the
proof that the quotient is infinite) and
``quotient_census:partial:seconds=S:order=M`` (the state reached within a class budget of
``S`` seconds and order ``M``). Both are write-once, stamped with their algorithm version
(:mod:`cgtalg.store.provenance`). The verified quotient state itself is the store's
checkpoint of ``misere_quotient`` (sequence metadata ``quotient:<code>``), written every few
seconds while a class runs.

A rerun re-checks and reuses a final record, or a partial record whose budget covers the one
asked (``seconds >= S`` and ``order >= M``; a record stopped by a limit other than time at an
order bound ``>= M``); every other class resumes from the checkpointed state with what is left
of its budget (``S`` less the seconds of the largest partial record stopped by time), so a
census run again with a larger ``--class-time`` goes on where the last one stopped.
Re-checking (:func:`recheck_quotient_record`) loads the stored state with the exact
re-verification ``misere_quotient`` runs on load, and recomputes the record's facts (order,
``|P|``, presentation, period, tameness, generator heaps, and the growth at each of its steps)
from it: they must be the stored ones. An infinite record's proof is re-checked too: the proof
stored beside the state is re-verified on the game's own moves
(:meth:`~cgtalg.quotients.storage.Checkpointer.load_rays`) and the record's certificate must
state it (the same heap ``v``, the same pretension and witness, the same ``Q_{v-1}``).
"""

from __future__ import annotations

import math
import os
import socket
import time
from dataclasses import asdict, dataclass
from typing import Any, Callable, Iterable

from cgtalg.census.driver import (CONNECT_TIMEOUT, DEFAULT_BATCH, BatchWriter, run_census_jobs, start_census,
                                  stored_properties, task_key, worker_store)
from cgtalg.census.recheck import COMPUTED, RECHECKED
from cgtalg.census.tasks import CENSUS_RULESET
from cgtalg.errors import CensusError, CgtalgError, ComputationLimitError

__all__ = ["quotient_census", "QuotientParams", "quotient_class", "quotient_record", "quotient_growth",
           "recheck_quotient_record", "held_quotient_records", "FINAL_PROP", "FAMILY", "TAME_MAX_N"]

#: Property family of the quotient census's class records (its algorithm version is looked up
#: under this name in :data:`cgtalg.store.provenance.ALGORITHM_VERSIONS`).
FAMILY = "quotient_census"
#: The property of a final (certified) class record.
FINAL_PROP = f"{FAMILY}:final"
#: Tame quotients are recognised up to ``T_TAME_MAX_N`` (order ``2^n + 2``).
TAME_MAX_N = 8
#: Presentations (and generator heaps) are given for quotients up to this order.
PRESENTATION_ORDER = 2000


@dataclass(frozen=True)
class QuotientParams:
    """The budgets of one class (what a partial record depends on).

    Attributes
    ----------
    class_seconds : float
        Wall-clock seconds of one class, cumulated over reruns.
    max_order : int
        Largest candidate order of the construction.
    max_states : int
        Option-set states per verification.
    """

    class_seconds: float = 20.0
    max_order: int = 5000
    max_states: int = 2_000_000

    def __post_init__(self) -> None:
        s = self.class_seconds
        if isinstance(s, bool) or not isinstance(s, (int, float)) or not math.isfinite(s) or s <= 0:
            raise CensusError(f"class_seconds must be a positive number of seconds, got {s!r:.40}")
        for name in ("max_order", "max_states"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise CensusError(f"{name} must be a positive integer, got {v!r:.40}")

    def partial_prop(self) -> str:
        """The store property of a partial record at these budgets."""
        return f"{FAMILY}:partial:seconds={self.class_seconds:g}:order={self.max_order}"

    def to_json(self) -> dict:
        return asdict(self)


# -- what the store holds -------------------------------------------------------------------------
def held_quotient_records(props: dict[str, Any], params: QuotientParams) -> dict:
    """What the stored properties ``props`` of a class give for ``params``: ``{"final": rec}``
    (a certified quotient, or one proved infinite), ``{"covering": rec}`` (a partial record
    whose budget covers ``params``), and ``spent`` (the seconds already given to the class: those of the largest
    partial record that time stopped at an order bound ``>= max_order``).

    Examples
    --------
    >>> held_quotient_records({}, QuotientParams())
    {'spent': 0.0}
    >>> rec = {"status": "unsettled", "heaps": 20, "stopped": "time", "budget": {"seconds": 30, "max_order": 5000}}
    >>> held_quotient_records({"quotient_census:partial:seconds=30:order=5000": rec}, QuotientParams(20.0))["covering"]["heaps"]
    20
    """
    final = props.get(FINAL_PROP)
    if isinstance(final, dict):
        return {"final": final, "spent": 0.0}
    out: dict[str, Any] = {"spent": 0.0}
    best = None
    for key, rec in props.items():
        if not key.startswith(f"{FAMILY}:partial:") or not isinstance(rec, dict):
            continue
        budget = rec.get("budget") or {}
        try:
            seconds, order = float(budget["seconds"]), int(budget["max_order"])
        except (KeyError, TypeError, ValueError):
            continue
        if order < params.max_order:
            continue
        if rec.get("stopped") == "time":
            out["spent"] = max(out["spent"], seconds)
        covers = seconds >= params.class_seconds or rec.get("stopped") == "limit"
        if covers and (best is None or int(rec.get("heaps", -1)) > int(best.get("heaps", -1))):
            best = rec
    if best is not None:
        out["covering"] = best
    return out


# -- the facts of one quotient --------------------------------------------------------------------
def quotient_growth(order_at: Callable[[int], int], top: int, known: dict[int, int] | None = None) -> list[list[int]]:
    """``[[heap, order], ...]`` at heap 0 and at each heap ``n <= top`` where ``|Q_n|``
    differs from ``|Q_{n-1}|``, from ``order_at(n) = |Q_n|`` (a non-decreasing function:
    found by bisection, ``order_at`` is called about ``steps * log(top)`` times); ``known``
    holds orders already known (from the construction's callback).

    Examples
    --------
    >>> quotient_growth(lambda n: [1, 2, 2, 6, 6, 6][n], 5)
    [[0, 1], [1, 2], [3, 6]]
    """
    seen: dict[int, int] = dict(known or {})

    def at(n: int) -> int:
        if n not in seen:
            seen[n] = int(order_at(n))
        return seen[n]

    stack = [(0, top)]
    at(0)
    at(top)
    while stack:
        lo, hi = stack.pop()
        if hi - lo <= 1 or at(lo) == at(hi):
            continue
        inner = [n for n in seen if lo < n < hi]
        mid = min(inner, key=lambda n: abs(2 * n - lo - hi)) if inner else (lo + hi) // 2
        at(mid)
        stack += [(lo, mid), (mid, hi)]
    steps, last = [], None
    for n in range(top + 1):
        if n in seen and seen[n] != last:
            # the order is constant between two known heaps with the same order (monotone)
            steps.append([n, seen[n]])
            last = seen[n]
    return steps


def _stop_reason(note: str | None) -> str | None:
    if not note:
        return None
    text = " ".join(note.split())
    if "time budget" in text:
        return "time"
    if "memory" in text:
        return "memory"
    return "limit"


def quotient_record(q: Any, state: Any, name: str, known: dict[int, int] | None = None,
                    params: QuotientParams | None = None, ruleset: Any = None) -> dict:
    """The class record of the verified quotient ``q`` (:class:`~cgtalg.quotients.result.MisereQuotient`,
    final or the partial ``Q_N``) whose construction state is ``state``
    (:class:`~cgtalg.quotients.state.QuotientState`, giving ``Q_n`` for every ``n <= N``);
    ``known``: orders of ``Q_n`` already known. A partial record names its ``budget``
    (``params``) and why it stopped (``q.note``).

    Keys: ``status`` (``final``, ``infinite`` or ``unsettled``), ``heaps`` (``N``: the heap
    where the quotient was certified, the last finite heap ``v-1``, or the largest heap
    reached), ``order``, ``p_count``, ``presentation`` and ``p_portion`` (words; None past
    :data:`PRESENTATION_ORDER`), ``generator_heaps``, ``growth``; final: ``period``
    (``[n0, p]`` of Φ), ``phi`` (the words of Φ of heaps ``0 .. n0+p-1``), ``tame`` (``n``
    when ``Q ≅ T_n``, else None); infinite (``q`` is ``Q_{v-1}`` with ``q.infinite_from = v``
    and its certificate): ``infinite_from`` (``v``) and ``certificate`` (the
    ``infinite-misere-quotient`` document); unsettled: ``stopped``, ``budget`` and
    ``next_bound`` (``{"heap": N+1, "at_least": L, "copies": B}`` when a stopped counting
    run proved ``|Q_{N+1}| >= L``, else None), and ``tied`` when ``q`` is tied to normal play
    (``q.tie``; ``ruleset`` given): the facts of ``Q_M`` at the least heap ``M`` where the tie is
    proved (:func:`cgtalg.quotients.tail.least_tie`; ``heaps``, ``order``, ``p_count``,
    ``presentation``, ``p_portion``, ``generator_heaps``, ``phi`` of heaps ``0..M`` and its
    ``normal_tie``), from which every later order follows.
    """
    top = int(q.max_heap)
    if q.final:
        top = len(q.phi) - 1
    infinite = _infinite_from(q)
    growth = quotient_growth(lambda n: state.quotient(name, n).order if n < state.top or not state.final
                             else q.order, top, known)
    status = "final" if q.final else "infinite" if infinite is not None else "unsettled"
    tail = getattr(q, "tail", None) if q.final else None
    rec: dict[str, Any] = {"status": status, "heaps": int(q.checked_to) if tail else top, "order": q.order,
                           "p_count": int(q.P.sum()), "presentation": None, "p_portion": None,
                           "generator_heaps": None, "growth": growth}
    if q.order <= PRESENTATION_ORDER:
        rec.update(_words(q))
    if q.final:
        n0, p = q.period
        rec["period"] = [int(n0), int(p)]
        pr = q.presentation() if q.order <= PRESENTATION_ORDER else None
        shown = q.shown_phi if tail else q.phi[: n0 + p]   # by the normal tail: Φ as verified
        rec["phi"] = [pr.words[x] for x in shown] if pr is not None else None
        rec["tame"] = _tame(q)
        if tail:
            rec["tail"] = dict(tail)
    elif infinite is not None:
        rec["infinite_from"] = infinite
        rec["certificate"] = q.certificate
    else:
        rec["stopped"] = _stop_reason(q.note)
        tie = getattr(q, "tie", None)
        if tie and ruleset is not None:
            # tied to normal play (cgtalg.quotients.tail.normal_tie): Q_M at the least heap M
            # where the tie is proved, the row's claims and certificate
            from cgtalg.quotients.tail import least_tie

            M, tie_m = least_tie(ruleset, lambda m: state.quotient(name, m), top, tie)
            qm = q if M == top else state.quotient(name, M)
            rec["tied"] = {"heaps": M, "order": qm.order, "p_count": int(qm.P.sum()), **_words(qm, phi=True),
                           "normal_tie": dict(tie_m)}
        rec["budget"] = {"seconds": params.class_seconds, "max_order": params.max_order} if params else None
        bound = getattr(q, "next_bound", None)
        rec["next_bound"] = ({"heap": int(bound["heap"]), "at_least": int(bound["at_least"]),
                              "copies": None if bound.get("copies") is None else int(bound["copies"]),
                              **({"exact": True} if bound.get("exact") else {})}
                             if isinstance(bound, dict) else None)
    return rec


def _words(q: Any, phi: bool = False) -> dict:
    """``presentation``, ``p_portion``, ``generator_heaps`` of ``q`` (with ``phi``: the words of Φ too)."""
    pr = q.presentation()
    first: dict[str, int] = {}
    for h, x in enumerate(q.phi):
        first.setdefault(pr.words[x], h)
    out = {"presentation": pr.text, "p_portion": [pr.words[x] for x in q.p_portion],
           "generator_heaps": [first[g] for g in pr.generators]}
    if phi:
        out["phi"] = [pr.words[x] for x in q.phi]
    return out


def _infinite_from(q: Any) -> int | None:
    """``v`` when ``q`` is the last finite partial quotient ``Q_{v-1}`` of a game proved to have
    ``Q_v`` infinite, with the certificate of the proof (else None: an unsettled quotient)."""
    v = getattr(q, "infinite_from", None)
    cert = getattr(q, "certificate", None)
    if v is None or q.final or not isinstance(cert, dict) or int(q.max_heap) != int(v) - 1:
        return None
    return int(v)


def _tame(q: Any) -> int | None:
    """``n`` when ``q`` is isomorphic to ``T_n`` (order 2 for ``n = 1``, ``2^n + 2`` after)."""
    o = q.order
    n = 1 if o == 2 else (o - 2).bit_length() - 1 if o > 4 and (o - 2) & (o - 3) == 0 else None
    if n is None or n > TAME_MAX_N:
        return None
    return q.tame_index(max_n=n)


# -- re-checking a stored record ------------------------------------------------------------------
def recheck_quotient_record(code: Any, rec: Any, store: Any) -> str | None:
    """Why the stored class record ``rec`` of ``code`` (the standard form's
    :class:`~cgtalg.rulesets.heaps.octal.TakeAndBreak`) does not hold, None when it does.

    The store's quotient state of the game is loaded with the exact re-verification
    (:func:`cgtalg.quotients.storage.load_quotient_state`; nothing of the record is read
    into it), and the facts of ``Q_N`` are recomputed from it: order, ``|P|``, presentation,
    P-portion, generator heaps, for a final record the certified period, Φ and tameness, and
    the growth at each of its steps (``|Q_h|`` and ``|Q_{h-1}|``, which fix the step function
    since the order never decreases). For an infinite record ``N = v - 1`` and the proof
    stored beside the state is re-verified too (:func:`_recheck_infinite`). An unsettled
    record's ``next_bound`` is not re-derived (it is reported as stated). Never raises for a
    bad record.
    """
    from cgtalg.census.recheck import _differs, _short
    from cgtalg.quotients.storage import load_quotient_state
    from cgtalg.rulesets.heaps.octal import TakeAndBreak

    try:
        if not isinstance(rec, dict) or rec.get("status") not in ("final", "infinite", "unsettled"):
            return "the stored record is not a quotient census record"
        if rec["status"] == "infinite" and isinstance(rec.get("rule"), dict):
            return _recheck_rule(code, rec)       # a largest-heap rule: the referee checks it again
        if store is None:
            return "no store holds the quotient to verify it against"
        fresh = TakeAndBreak(str(code))
        heaps = int(rec["heaps"])
        if rec["status"] == "infinite" and heaps != int(rec["infinite_from"]) - 1:
            return (f"the record says Q_n is infinite from heap {rec['infinite_from']} but gives the facts of "
                    f"heap {heaps}, not of the last finite heap")
        state = load_quotient_state(fresh, store)  # re-verified exactly, or StoreCorruptError
        if state is None:
            return "the store holds no quotient state of this game to verify the record against"
        name = str(fresh)
        if rec["status"] == "final":
            if not state.final:
                return "the verified quotient state in the store is not final"
            q = state.quotient(name, None)
            at = q.checked_to if q.tail else len(q.phi) - 1
            if heaps != at:
                return f"the quotient is stored as certified at heap {heaps}, the state at heap {at}"
        else:
            if state.final and rec["status"] == "infinite":
                return "the verified quotient state in the store is final, but the record says it is infinite"
            if state.top < heaps:
                return f"the verified quotient state in the store reaches heap {state.top} only, the record claims {heaps}"
            q = state.quotient(name, heaps, note=None)
            if rec.get("tied") is not None:    # the tie is proved again on the verified Q_N, then Q_M
                from cgtalg.quotients.tail import tie_of

                q.tie = tie_of(q, fresh)
        steps = rec.get("growth") or []
        known: dict[int, int] = {}
        for i, (h, o) in enumerate(steps):
            known[int(h)] = state.quotient(name, int(h)).order if int(h) < state.top else q.order
            if i and int(h) > 0:
                known[int(h) - 1] = state.quotient(name, int(h) - 1).order
        expected = quotient_record(q, state, name, known, ruleset=fresh)
        if rec["status"] == "infinite":
            expected["status"] = "infinite"  # Q_{v-1} here; the proof about Q_v: _recheck_infinite
        skip = ("stopped", "budget", "next_bound", "infinite_from", "certificate")
        mine = {k: v for k, v in rec.items() if k not in skip}
        why = _differs(mine, {k: v for k, v in expected.items() if k not in skip})
        if why is None and rec["status"] == "infinite":
            why = _recheck_infinite(fresh, rec, store, q)
        return why
    except ComputationLimitError as exc:
        return f"its re-check ran out of a budget ({_short(' '.join(str(exc).split()), 200)})"
    except (CgtalgError, KeyError, TypeError, ValueError, IndexError, OverflowError) as exc:
        return f"it cannot be re-checked ({type(exc).__name__}: {_short(' '.join(str(exc).split()), 200)})"


#: option-set states of the re-verification of a stored proof that a quotient is infinite (as
#: :func:`cgtalg.quotients.storage.ray_certificate`)
RAY_STATES = 50_000_000


def _recheck_infinite(fresh: Any, rec: dict, store: Any, q: Any) -> str | None:
    """Why the infinite record ``rec`` is not what the store proves, None when it is: the proof
    stored beside the quotient state is re-verified on the game's own moves
    (:meth:`~cgtalg.quotients.storage.Checkpointer.load_rays`: the pretension, and the order
    witness recomputed), it must prove ``Q_v`` infinite for the record's ``v``, and the record's
    certificate must be the document of that proof
    (:func:`cgtalg.quotients.infinite.infinite_certificate`: the same game, ``v``, heaps
    covered, witness and ``Q_{v-1}``, and the same pretension, compared decoded; the
    ``statement`` is prose and is not compared). The certificate is checked again, from the definitions, by ``cgtalg
    check`` (:mod:`cgtalg.referee.rays`) on the census's rows."""
    import numpy as np

    from cgtalg.census.recheck import _short
    from cgtalg.quotients.infinite import KIND, infinite_certificate
    from cgtalg.quotients.rays import decode_ray
    from cgtalg.quotients.rays_counted import infinite_from
    from cgtalg.quotients.storage import Checkpointer

    v = int(rec["infinite_from"])
    cert = rec.get("certificate")
    if isinstance(cert, dict) and isinstance(cert.get("linear"), dict):
        return _recheck_linear(fresh, cert, v)
    ck = Checkpointer(fresh, store, RAY_STATES)
    got = ck.load_rays()  # re-verified, or StoreCorruptError
    if got is None:
        return "the store holds no proof that a quotient of this game is infinite"
    ray, witness, top = got
    from cgtalg.quotients.rays_linear import LinearRay

    if isinstance(ray, LinearRay):
        return "the store holds a linear ray proof, but the record's certificate is a ray pretension"
    if infinite_from(ray) != v:
        return (f"the record says Q_n is infinite from heap {v}, the proof in the store from heap "
                f"{infinite_from(ray)}")
    cert = rec.get("certificate")
    if not isinstance(cert, dict) or cert.get("kind") != KIND:
        return "the record carries no certificate that its quotient is infinite"
    last = {"heap": int(q.max_heap), "order": int(q.order), "p_count": len(q.p_portion)}
    want = infinite_certificate(ck.name, ray, witness, top, last)
    for key in sorted(set(want) | set(cert)):
        if key not in ("statement", "ray") and cert.get(key) != want.get(key):  # the statement is prose
            return (f"the certificate's {key} is {_short(cert.get(key))} but the proof in the store gives "
                    f"{_short(want.get(key))}")
    mine_ray = cert.get("ray")
    try:
        mine, _w, mine_top = decode_ray(mine_ray if isinstance(mine_ray, dict) else {})
    except (ValueError, CgtalgError) as exc:
        return f"the certificate's ray pretension cannot be read ({_short(str(exc), 160)})"
    same = (mine.u == ray.u and mine.v == ray.v and mine_top == top and list(mine.row) == list(ray.row)
            and mine.us == ray.us and mine.vs == ray.vs and mine.mixed == ray.mixed
            and mine.rules == ray.rules and np.array_equal(mine.cols, ray.cols) and np.array_equal(mine.F, ray.F)
            and (mine.counted is None) == (ray.counted is None)
            and (mine.counted is None or (mine.counted[:2] == ray.counted[:2]
                                          and np.array_equal(mine.counted[2], ray.counted[2])))
            and mine_ray.get("witness") == want["ray"].get("witness"))
    if not same:
        return "the certificate's ray pretension is not the proof stored (and re-verified) beside the quotient"
    return None


def _recheck_linear(fresh: Any, cert: dict, v: int) -> str | None:
    """Why a record's linear-ray certificate (:mod:`cgtalg.quotients.rays_linear`; not kept in the
    store, a construction finds it again in seconds) is not a proof that ``Q_v`` is infinite, None
    when it is: the pretension is decoded and verified on the game's own moves, its witness
    found again, and the document must be the one they give (the ``statement`` is prose)."""
    from cgtalg.census.recheck import _short
    from cgtalg.quotients.rays_linear import decode_linear, linear_certificate, linear_witness, verify_linear_ray
    from cgtalg.quotients.state import _heap_options

    try:
        lr = decode_linear(cert["linear"])
    except ValueError as exc:
        return f"the certificate's linear ray cannot be read ({_short(str(exc), 160)})"
    if lr.v != v:
        return f"the record says Q_n is infinite from heap {v}, its linear ray is about heap {lr.v}"
    fail = verify_linear_ray(lr, [_heap_options(fresh, h) for h in range(v + 1)], RAY_STATES)
    if fail is not None:
        return f"the certificate's linear ray does not verify ({_short(fail, 160)})"
    wit = linear_witness(lr)
    if wit is None:
        return "the certificate's linear ray has no order witness"
    want = linear_certificate(str(cert.get("game")), lr, wit)
    for key in sorted(set(want) | set(cert)):
        if key != "statement" and cert.get(key) != want.get(key):
            return (f"the certificate's {key} is {_short(cert.get(key))} but its verified linear ray gives "
                    f"{_short(want.get(key))}")
    return None


# -- largest-heap rules ----------------------------------------------------------------------------
#: CPU seconds a class that ends unsettled may spend on a largest-heap rule (its search and the
#: referee's check, or the check of a rule the store holds), beyond the class budget; only
#: classes whose Grundy values have a short period try (:func:`cgtalg.ops.largest_heap.suitable`)
RULE_SECONDS = 120.0


def rule_record(code: Any, store: Any = None, seconds: float = RULE_SECONDS) -> dict | None:
    """The class record of ``code`` (the standard form's ruleset) proved infinite by a largest-heap
    rule (:func:`cgtalg.ops.largest_heap.largest_heap_verdict`: found, or read from the store, and
    accepted by the referee within ``seconds``), or None. The record claims no heap, order or last
    finite quotient (no ``Q_n`` is shown infinite): ``{"status": "infinite", "rule": certificate,
    "heaps": None, "order": None, "p_count": None, "growth": None}``."""
    from cgtalg.ops.largest_heap import largest_heap_verdict, suitable

    if suitable(code) is None:
        return None
    got = largest_heap_verdict(code, max_seconds=seconds, store=store)
    if got is None:
        return None
    return {"status": "infinite", "rule": got["certificate"], "heaps": None, "order": None, "p_count": None,
            "growth": None}


def _with_rule(code: Any, rec: dict, store: Any) -> dict:
    """``rec``, or the rule record that replaces it when it is unsettled (not tied to normal play)
    and a largest-heap rule proves the quotient infinite (:func:`rule_record`; the partial
    quotient reached stays in the record as ``reached``)."""
    if rec.get("status") != "unsettled" or rec.get("tied") is not None:
        return rec
    ruled = rule_record(code, store)
    if ruled is None:
        return rec
    ruled["reached"] = {"heaps": rec.get("heaps"), "order": rec.get("order")}
    return ruled


def _recheck_rule(code: Any, rec: dict) -> str | None:
    """Why the rule record ``rec`` of ``code`` does not hold, None when it does: the rule must be
    about the standard form, the record must claim no heap, order or last finite quotient, and
    the referee (:func:`cgtalg.referee.heap_rule.check`) must accept it again."""
    from cgtalg.referee import heap_rule
    from cgtalg.rulesets.heaps.octal import TakeAndBreak

    doc = rec["rule"]
    name = str(TakeAndBreak(str(code)))
    if doc.get("game") != name:
        return f"the record's largest-heap rule is about {doc.get('game')!r}, not {name}"
    for key in ("heaps", "order", "p_count", "infinite_from"):
        if rec.get(key) is not None:
            return f"the record says {key} = {rec.get(key)!r}, but a largest-heap rule proves no heap or last finite quotient"
    vd = heap_rule.check(doc)[0]
    if not vd.ok:
        return "the referee refuses the record's largest-heap rule: " + "; ".join(
            r for r in vd.reasons if r.startswith("FAIL"))[:300]
    return None


# -- the task --------------------------------------------------------------------------------------
def quotient_class(standard: str, params: QuotientParams, store: Any = None, held: dict | None = None,
                   stop_at: float | None = None) -> dict:
    """The class record of the standard form ``standard`` (what a Dask worker runs).

    ``held`` is what the store holds for the class (:func:`held_quotient_records`): a final
    record or a covering partial one is re-checked (:func:`recheck_quotient_record`) and
    returned; otherwise (or when the re-check fails) the quotient is computed, resuming from
    the store's checkpoint, for what is left of the class budget. ``stop_at`` is the census's
    time budget (``time.time()``): a class it stops raises
    :class:`~cgtalg.errors.ComputationLimitError` (no record; the checkpoint is kept).

    Returns ``{"standard", "record", "source", "rechecks", "seconds", "worker"}``.

    Examples
    --------
    >>> r = quotient_class("0.123", QuotientParams(class_seconds=30))
    >>> r["record"]["status"], r["record"]["order"], r["record"]["p_count"], r["record"]["period"]
    ('final', 20, 5, [5, 5])
    """
    from cgtalg.errors import StoreCorruptError
    from cgtalg.quotients.construct import misere_quotient
    from cgtalg.quotients.state import known_state
    from cgtalg.rulesets.heaps.octal import TakeAndBreak

    if not isinstance(params, QuotientParams):
        raise CensusError(f"params must be QuotientParams, not {type(params).__name__}")
    held = dict(held or {})
    st = worker_store(store)
    t0 = time.perf_counter()
    out: dict[str, Any] = {"standard": standard, "rechecks": {},
                           "worker": f"{socket.gethostname()}:{os.getpid()}"}
    stored = held.get("final") or held.get("covering")
    if stored is not None:
        why = recheck_quotient_record(standard, stored, st)
        if why is None:
            ruled = _with_rule(TakeAndBreak(standard), stored, st)     # an unsettled class may have a rule
            out.update(record=ruled, source=RECHECKED if ruled is stored else COMPUTED,
                       seconds=round(time.perf_counter() - t0, 4))
            return out
        out["rechecks"]["quotient"] = why
    code = TakeAndBreak(standard)
    name = str(code)
    left = params.class_seconds - float(held.get("spent") or 0.0) if stored is None else params.class_seconds
    left = max(left, min(params.class_seconds, 1.0))
    census_left = None if stop_at is None else stop_at - time.time()
    if census_left is not None and census_left <= 0:
        from cgtalg.budget import BUDGET_HINT

        raise ComputationLimitError(f"the census's time budget ran out; {BUDGET_HINT}")
    census_bound = census_left is not None and census_left < left
    known: dict[int, int] = {}

    def seen(info: dict) -> None:
        known[int(info["heap"])] = int(info["order"])

    def attempt(resume: bool) -> Any:
        return misere_quotient(code, max_order=params.max_order, max_states=params.max_states,
                               max_seconds=census_left if census_bound else left, progress=False, store=st,
                               partial=True, resume=resume, callback=seen)

    try:
        q = attempt(True)
    except StoreCorruptError:
        q = attempt(False)  # the stored state failed its verification: recompute, replace it
    if census_bound and _stop_reason(q.note) == "time":
        from cgtalg.budget import BUDGET_HINT

        raise ComputationLimitError(f"the census's time budget ran out while computing {name}; {BUDGET_HINT}")
    state = known_state(code)
    out["record"] = quotient_record(q, state, name, known, params, ruleset=code)
    if not census_bound:
        out["record"] = _with_rule(code, out["record"], st)
    out["source"] = COMPUTED
    out["seconds"] = round(time.perf_counter() - t0, 4)
    return out


def _items(std: str, got: dict, params: QuotientParams) -> list:
    if got.get("source") != COMPUTED:
        return []
    rec = got["record"]
    # a certified quotient and a proof of infinitude are functions of the class only
    prop = FINAL_PROP if rec["status"] in ("final", "infinite") else params.partial_prop()
    return [(CENSUS_RULESET, std, prop, rec)]


# -- the census ------------------------------------------------------------------------------------
def quotient_census(
    digits: int = 3,
    d0: int = 0,
    scheduler: Any = None,
    store: Any = None,
    workers: int | None = None,
    *,
    codes: Iterable[str] | None = None,
    class_seconds: float = 20.0,
    max_order: int = 5000,
    max_states: int = 2_000_000,
    batch_size: int = DEFAULT_BATCH,
    flush_seconds: float = 5.0,
    progress: bool | None = None,
    on_result: Callable[[str, dict], Any] | None = None,
    max_seconds: float | None = None,
    max_memory: Any = None,
    log: Callable[[str], Any] | None = None,
    connect_timeout: float = CONNECT_TIMEOUT,
) -> Any:
    """The misère quotient census: every octal code of up to ``digits`` digits (``d0=4``: the
    codes ``4.d1...dj``), one class per standard form (module docstring).

    Parameters
    ----------
    digits, d0, codes
        The codes (:func:`~cgtalg.census.enumerate_codes`; ``codes``: these instead).
    scheduler, store, workers, batch_size, flush_seconds, progress, on_result, max_seconds, \
max_memory, log, connect_timeout
        As for :func:`~cgtalg.census.octal_census`: a ``LocalCluster`` by default, a
        scheduler address, or ``"serial"``; the store (or its URL; None keeps nothing);
        ``max_seconds`` bounds the whole census (a class it stops is not recorded, its
        checkpoint is kept: a rerun goes on).
    class_seconds, max_order, max_states
        The budgets of one class (:class:`QuotientParams`).

    Returns
    -------
    QuotientCensusResult

    Examples
    --------
    >>> r = quotient_census(codes=["0.123", "0.7", "0.31", "0.147"], scheduler="serial", class_seconds=30)
    >>> [(row.code, row.status, row.order, row.tame) for row in r.rows]
    [('0.123', 'wild-finite', 20, None), ('0.147', 'tame', 10, 3), ('0.31', 'tame', 6, 2), ('0.7', 'tame', 2, 1)]
    """
    from cgtalg.census.quotient_table import QuotientCensusResult, quotient_row

    t0 = time.perf_counter()
    params = QuotientParams(class_seconds=class_seconds, max_order=max_order, max_states=max_states)
    deadline, say, classes, digits, st = start_census(
        digits, False, d0, codes, store, scheduler, workers, flush_seconds, on_result, connect_timeout, batch_size,
        max_seconds, max_memory, log)
    props = stored_properties(st, CENSUS_RULESET, classes, say)
    held: dict[str, dict] = {c.standard: held_quotient_records(props[c.standard], params) if st is not None else {}
                             for c in classes}
    jobs = [(c.standard, (held[c.standard],), task_key("qcensus", c.standard, params.to_json(), held[c.standard]))
            for c in classes]
    deadline.check("the census (before any class was computed)")
    records: dict[str, dict] = {}
    sources: dict[str, str] = {}
    rechecks: dict[str, dict[str, str]] = {}

    def arrived(std: str, got: dict) -> None:
        records[std] = dict(got["record"], seconds=got.get("seconds"), worker=got.get("worker"))
        sources[std] = got["source"]
        if got.get("rechecks"):
            rechecks[std] = dict(got["rechecks"])
            say(f"census: {std}: the stored quotient record failed its re-check ({got['rechecks']['quotient']}); "
                "recomputed")
        if on_result is not None:
            on_result(std, records[std])

    writer = BatchWriter(st, lambda std, got: _items(std, got, params), batch_size, flush_seconds, conflicts="keep")
    n_workers, address, errors = run_census_jobs(quotient_class, params, jobs, st, scheduler, workers, arrived,
                                                 writer, deadline, say, progress, connect_timeout,
                                                 desc="quotient census")
    if rechecks:
        import warnings

        first = ", ".join(list(rechecks)[:5]) + (", ..." if len(rechecks) > 5 else "")
        warnings.warn(f"quotient census: {len(rechecks)} class record(s) read from the store failed their "
                      f"re-check and were recomputed ({first})", RuntimeWarning, stacklevel=2)
    rows = []
    for c in classes:
        rec = records.get(c.standard)
        if rec is None:
            rec = {"error": errors.get(c.standard, "not computed")}
            records[c.standard] = rec
        for code, shift in c.members:
            rows.append(quotient_row(code, shift, c.codes, c.standard, rec, sources.get(c.standard)))
    from cgtalg.census.codes import code_sort_key

    rows.sort(key=lambda r: code_sort_key(r.code))
    reused = sum(1 for v in sources.values() if v == RECHECKED)
    return QuotientCensusResult(
        rows=rows, records=records, params=params, digits=digits, d0=d0,
        computed=len(sources) - reused, skipped=reused, failed=len(errors),
        seconds=time.perf_counter() - t0, workers=n_workers, scheduler=address, store=st, errors=errors,
        batches=writer.transactions, rechecks=rechecks, warnings=list(writer.warnings),
    )
