"""``cgtalg store verify``, second half: positions' properties and sequences
(:mod:`cgtalg.store.verify` has the first half and the overview).

Positions' properties, by the ruleset key of their row:

- ``census:octal`` (records of the octal census): a ``normal`` record marked ``solved`` carries a
  periodicity certificate, re-checked with :func:`cgtalg.rulesets.heaps.octal_periodicity.check_certificate`
  against Grundy values *recomputed* for the prefix it needs (and its largest value); an unsolved
  one has its largest value (and the first heap with it) recomputed; a ``genus:heaps=N`` record is
  recomputed heap by heap; a ``quotient:…`` record is recomputed with the bounds its property
  name gives (order, status, period, P-portion); a ``quotient_census:…`` record of the misère
  quotient census is recomputed from the rules (order, ``|P|``; for a final one its period and
  the heap where the periodicity theorem certifies it);
- ``misere:RULESET`` (genus, misère outcome, Grundy value and winning moves of heap positions): recomputed;
- ``partizan:RULESET`` (canonical forms of ruleset positions): recomputed and compared as text;
- any other ruleset key is a ruleset's solved position (``solution``, ``solution:misere``):
  solved again, outcome, value and winning moves compared.

Sequences: the chunks decode (codec, value count and zlib's Adler-32 checksum: a transport check)
and tile ``0 .. length-1``; a Grundy sequence of a heap game (key ``grundy:GAME``) is recomputed
by the compiled engine (:class:`cgtalg.rulesets.heaps.grundy_engine.GrundyEngine`, a fresh one that
never reads the store) and compared chunk by chunk, in full with ``sample=None``, else its first
:data:`SAMPLE_VALUES` values or those recomputed within :data:`SAMPLE_SECONDS`; a periodicity certificate in its metadata is re-checked against the
recomputed values, and once it holds, the stored values past the recomputed prefix are compared
with the values the period gives; a misère quotient (metadata ``misere_quotient`` of ``quotient:GAME``) goes
through the loader's exact verification (:func:`cgtalg.quotients.storage.load_quotient_state`)
and its stored presentation is compared with the one recomputed from the verified table; a
stored proof that the next partial quotient is infinite (metadata ``misere_quotient_rays``) is
verified again from the rules and its order witness recomputed
(:func:`cgtalg.quotients.storage.check_rays_record`).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from cgtalg.budget import Deadline
from cgtalg.errors import CgtalgError, ComputationLimitError
from cgtalg.store.codec import decode_chunk, shorten
from cgtalg.store.provenance import current_meta, sequence_kind
from cgtalg.store.schema import position_properties, positions, sequence_chunks, sequences
from cgtalg.store.verify import _BAD, KIND_SECONDS, Verification, _json, stream_rows

__all__ = ["check_positions", "check_sequences", "SAMPLE_VALUES", "SAMPLE_SECONDS", "SEQUENCES_SECONDS", "MAX_RECOMPUTE_BYTES", "RECORD_SECONDS"]

#: Values of a Grundy sequence recomputed when sampling (all with ``sample=None``).
SAMPLE_VALUES = 1 << 22
#: Time spent recomputing one sequence when sampling (the prefix done by then is compared).
SAMPLE_SECONDS = 5.0
#: Seconds given to the sampled sequences of each kind (``grundy``, ``quotient``...) when sampling.
SEQUENCES_SECONDS = 20.0
#: Memory a sequence's recomputation may take; past it only the prefix that fits is recomputed.
MAX_RECOMPUTE_BYTES = 256 << 20
#: Time budget of recomputing one position record (a solve, a partizan value, a quotient) with
#: ``sample=None`` (:data:`SAMPLE_SECONDS` when sampling).
RECORD_SECONDS = 60.0
#: The ruleset key of census records (:data:`cgtalg.census.tasks.CENSUS_RULESET`; the census is
#: a higher layer, so its name is repeated here).
CENSUS_RULESET = "census:octal"


# -- positions ---------------------------------------------------------------------------------
def _kind(row: Any) -> str:
    """The kind a position record is sampled by: its ruleset family and property, a solved census
    record (which carries a periodicity certificate) apart from the unsolved ones."""
    ruleset, name = row.ruleset, row.name
    family = ruleset.split(":", 1)[0] if ruleset.startswith(("census:", "misere:", "partizan:")) else "ruleset"
    kind = f"{family}/{name.split(':', 1)[0]}"
    if ruleset == CENSUS_RULESET and name == "normal":
        kind += " (certified)"
    return kind


def _share(kind: str) -> float | None:
    return None if kind.endswith("(certified)") else KIND_SECONDS


def _current_entries(run: Any, meta: dict) -> dict:
    """The entries of a sequence's metadata written by the current version of their algorithm
    (the reserved provenance entry removed; stale entries counted as skipped)."""
    return current_meta(meta, lambda name, algorithm, made: not run.stale("sequences", name, algorithm))


def check_positions(run: Verification) -> None:
    """Re-derive stored properties of ruleset positions (module docstring)."""
    pp, p = position_properties.c, positions.c
    rows = stream_rows(run.store, [pp.position_id, pp.name, pp.value, pp.algorithm, p.ruleset, p.position],
                       [pp.position_id, pp.name], join=position_properties.join(positions, p.id == pp.position_id))
    run.checked.setdefault("position_properties", 0)
    for row in run.choose(rows, _kind, "position_properties", share=_share):
        run.check_time("positions")
        if run.stale("position_properties", row.name, row.algorithm):
            continue
        key = f"position {row.position_id} ({row.ruleset} {shorten(row.position, 40)}), property {row.name!r}"
        value = _json(run, "position_properties", key, row.value)
        run.count("position_properties")
        if value is _BAD:
            continue
        try:
            if row.ruleset == CENSUS_RULESET:
                _census(run, key, row, value)
            elif row.ruleset.startswith("misere:"):
                _heap_misere(run, key, row, value)
            elif row.ruleset.startswith("partizan:"):
                _partizan(run, key, row, value)
            elif row.ruleset == "loopy":
                _loopy(run, key, row, value)
            elif row.name in ("solution", "solution:misere"):
                _solution(run, key, row, value)
            else:
                run.skip("position_properties", f"no recomputation known for {row.ruleset!r} property {row.name!r}")
        except ComputationLimitError as exc:
            if run.deadline.expired():
                raise
            run.skip("position_properties", f"over its budget: {shorten(str(exc), 160)}")


def _code(run: Verification, key: str, text: str) -> Any:
    from cgtalg.rulesets.heaps.octal import TakeAndBreak

    try:
        return TakeAndBreak(text)
    except CgtalgError as exc:
        run.problem("position_properties", key, f"the census code {shorten(text, 40)!r} is not a code: {exc}")
        return None


def recompute_grundy(ruleset: Any, n: int, run: Verification) -> np.ndarray:
    """``G(0..n-1)`` of ``ruleset`` by a fresh compiled engine (never the store's values)."""
    from cgtalg.rulesets.heaps.grundy_engine import GrundyEngine

    eng = GrundyEngine(ruleset)
    eng.extend(n, progress=False, max_bytes=MAX_RECOMPUTE_BYTES, deadline=run.deadline)
    return np.asarray(eng.values(n))


def _census(run: Verification, key: str, row: Any, value: Any) -> None:
    code = _code(run, key, row.position)
    if code is None:
        return
    if not isinstance(value, dict):
        run.problem("position_properties", key, "a census record is not a JSON object", value)
        return
    part = row.name.split(":", 1)[0]
    if part == "normal":
        if value.get("status") == "solved":
            _census_period(run, key, code, value)
        else:
            _census_unsolved(run, key, code, value)
    elif part == "genus":
        from cgtalg.rulesets.heaps.genus import heap_genus

        seq = value.get("sequence")
        if not isinstance(seq, list):
            run.problem("position_properties", key, "the genus record has no sequence", value)
            return
        for h, text in enumerate(seq):
            run.check_time("census genus")
            fresh = str(heap_genus(code, h))
            if fresh != text:
                run.problem("position_properties", f"{key}, heap {h}", f"stored genus {text}, recomputed {fresh}", text, fresh)
                return
        run.count("census_records_recomputed")
    elif part == "quotient":
        _census_quotient(run, key, row, code, value)
    elif part == "quotient_census":
        _quotient_census(run, key, code, value)
    else:
        run.skip("census", f"unknown census part {row.name!r}")


def _census_period(run: Verification, key: str, code: Any, value: dict) -> None:
    from cgtalg.rulesets.heaps.octal_periodicity import check_certificate

    cert = code.certificate()
    try:
        p, n0, L = int(value["period"]), int(value["preperiod"]), int(value["values"])
    except (KeyError, TypeError, ValueError):
        run.problem("position_properties", key, "a solved census record without period, preperiod and values", value)
        return
    if cert is None:
        run.problem("position_properties", key, f"marked solved, but no periodicity theorem applies to {code.name}")
        return
    _theorem, mode, h, k = cert
    G = recompute_grundy(code, L, run)
    got = check_certificate(G, L, mode, h, k, p)
    if got != n0:
        why = "the theorem's bound does not hold" if got is None else f"the certificate gives preperiod {got}"
        run.problem("position_properties", key, f"the periodicity certificate (period {p}, preperiod {n0}, {L} values) "
                                                f"fails on recomputed Grundy values: {why}", value)
        return
    if not _same_max(run, key, value, G):
        return
    run.count("certificates_rechecked")


def _same_max(run: Verification, key: str, value: dict, G: np.ndarray) -> bool:
    """The record's ``max_value`` and ``max_value_at`` (first heap with it) against ``G``."""
    fresh = {"max_value": int(G.max(initial=0)), "max_value_at": int(np.argmax(G)) if G.size else 0}
    stored = {name: value.get(name) for name in fresh if name in value}
    if stored != {name: fresh[name] for name in stored}:
        run.mismatch("position_properties", key, stored, fresh)
        return False
    return True


def _census_unsolved(run: Verification, key: str, code: Any, value: dict) -> None:
    """An unsolved record carries no certificate: its largest value (and where) is recomputed
    over the values it says were computed, within a time share (the record's own budget)."""
    from cgtalg.rulesets.heaps.grundy_engine import GrundyEngine

    L = _int(value.get("values"))
    if not L:
        run.problem("position_properties", key, "an unsolved census record without its number of values", value)
        return
    eng = GrundyEngine(code)
    try:
        eng.extend(L, progress=False, max_bytes=MAX_RECOMPUTE_BYTES,
                   deadline=Deadline(_seconds(run), run.deadline.max_memory))
    except ComputationLimitError as exc:
        if run.deadline.expired():
            raise
        run.skip("census", f"{key}: {eng.n:,} of its {L:,} values recomputed within the time share "
                           f"({shorten(str(exc), 60)})")
        return
    if _same_max(run, key, value, np.asarray(eng.values(L))):
        run.count("census_records_recomputed")


def _census_quotient(run: Verification, key: str, row: Any, code: Any, value: dict) -> None:
    from cgtalg.quotients.construct import misere_quotient
    from cgtalg.quotients.state import certify_misere_period

    try:
        bounds = dict(part.split("=", 1) for part in row.name.split(":")[1:])
        heaps, order, states = int(bounds["heaps"]), int(bounds["order"]), int(bounds["states"])
    except (KeyError, ValueError):
        run.skip("census", f"census quotient property {row.name!r} does not name its bounds")
        return
    if value.get("status") not in ("final", "partial"):
        run.skip("census", f"a census quotient record with status {value.get('status')!r} carries no result")
        return
    q = misere_quotient(code, max_heap=heaps, max_order=order, max_states=states,
                        max_seconds=_seconds(run), progress=False)
    per = certify_misere_period(code, list(q.phi))  # k and the heaps a move leaves, from the code's facts
    pres = q.presentation()
    fresh = {"order": q.order, "status": "final" if per is not None else "partial",
             "period": list(per) if per is not None else None,
             "p_portion": [pres.words[x] for x in q.p_portion]}
    stored = {name: value.get(name) for name in fresh}
    if stored != fresh:
        run.mismatch("position_properties", key, stored, fresh)
        return
    run.count("census_records_recomputed")


def _quotient_census(run: Verification, key: str, code: Any, value: dict) -> None:
    """A class record of the misère quotient census (``quotient_census:final`` or
    ``quotient_census:partial:...``, :mod:`cgtalg.census.quotients`): the quotient is
    recomputed from the rules (a final one until the periodicity theorem certifies it, an
    unsettled one to the heap the record claims) and its order, ``|P|``, and for a final record
    the certified period and heap, compared with the record's. An ``infinite`` record (its
    ``heaps`` is ``v − 1``) is recomputed as ``Q_{v−1}`` and its proof that ``Q_v`` is infinite
    found again (the construction from the rules, within the time share)."""
    from cgtalg.errors import InfiniteQuotientError
    from cgtalg.quotients.construct import misere_quotient

    status, heaps = value.get("status"), value.get("heaps")
    if status not in ("final", "unsettled", "infinite") or not isinstance(heaps, int) or isinstance(heaps, bool):
        run.problem("position_properties", key, "a quotient census record without its status and heap", value)
        return
    if status == "infinite":
        try:
            misere_quotient(code, max_heap=heaps + 1, max_seconds=_seconds(run), progress=False, resume=False)
        except InfiniteQuotientError as exc:
            q = getattr(exc, "partial", None)
            fresh_inf = {"infinite_from": int(exc.heap),  # type: ignore[attr-defined]
                         "order": None if q is None else q.order, "p_count": None if q is None else len(q.p_portion)}
            stored_inf = {name: value.get(name) for name in fresh_inf}
            if stored_inf != fresh_inf:
                run.mismatch("position_properties", key, stored_inf, fresh_inf)
            else:
                run.count("census_records_recomputed")
            return
        except ComputationLimitError:
            run.skip("census", f"{key}: the proof of infinitude was not found again within the time share")
            return
        run.mismatch("position_properties", key, {"status": "infinite"}, {"status": f"Q_{heaps + 1} finite"})
        return
    try:
        q = misere_quotient(code, max_heap=None if status == "final" else heaps,
                            max_seconds=_seconds(run), progress=False)
    except ComputationLimitError:
        run.skip("census", f"{key}: the quotient was not recomputed within the time share")
        return
    fresh: dict[str, Any] = {"status": "final" if q.final else "unsettled", "order": q.order,
                             "p_count": len(q.p_portion)}
    if status == "final":
        fresh["heaps"] = len(q.phi) - 1
        fresh["period"] = list(q.period) if q.final else None
    stored = {name: value.get(name) for name in fresh}
    if stored != fresh:
        run.mismatch("position_properties", key, stored, fresh)
        return
    run.count("census_records_recomputed")


def _seconds(run: Verification) -> float:
    """The time budget of recomputing one record: :data:`RECORD_SECONDS`, or
    :data:`SAMPLE_SECONDS` when sampling, and never past the run's own budget."""
    own = RECORD_SECONDS if run.sample is None else SAMPLE_SECONDS
    left = run.deadline.remaining()
    return own if left is None else max(0.01, min(own, left))


def _heap_misere(run: Verification, key: str, row: Any, value: Any) -> None:
    from cgtalg.rulesets.heaps.games import parse_heap_ruleset

    try:
        ruleset = parse_heap_ruleset(row.ruleset.split(":", 1)[1])
        heaps = [int(t) for t in row.position.split()]
    except (CgtalgError, ValueError):
        run.skip("position_properties", f"ruleset {row.ruleset!r} is not a heap game known here")
        return
    if row.name == "genus":
        from cgtalg.rulesets.heaps.genus import heap_genus

        fresh = heap_genus(ruleset, heaps).to_dict()
        same = isinstance(value, dict) and value.get("g") == fresh["g"] and value.get("gammas") == fresh["gammas"]
    elif row.name in ("misere_outcome", "misere_grundy"):
        from cgtalg.rulesets.heaps.misere_play import misere_search_grundy, misere_search_outcome

        search = misere_search_grundy if row.name == "misere_grundy" else misere_search_outcome
        fresh = search(ruleset, heaps, max_seconds=_seconds(run), progress=False)
        same = value == fresh
    elif row.name == "misere_winning_moves":  # written by `cgtalg outcome ... --misere`
        from cgtalg.rulesets.heaps.misere_play import (canonical_moves_record, misere_search_winning_moves,
                                                 winning_moves_record)

        fresh = winning_moves_record(misere_search_winning_moves(ruleset, heaps, max_seconds=_seconds(run),
                                                                 progress=False))
        try:
            same = canonical_moves_record(value) == canonical_moves_record(fresh)
        except (TypeError, ValueError):
            same = False
    else:
        run.skip("position_properties", f"no recomputation known for {row.ruleset!r} property {row.name!r}")
        return
    if not same:
        run.mismatch("position_properties", key, value, fresh)
        return
    run.count("position_values_recomputed")


def _partizan_ruleset(stored: str) -> Any:
    """The ruleset whose answers are stored under ``partizan:<stored>``
    (:func:`cgtalg.rulesets.partizan.forms.partizan_store_key`): the one registered under that
    name when it keys its answers so, else the registered ruleset whose ``store_name`` it is
    (``childish-hackenbush/cgsuite``, the rule that took a new key when it changed)."""
    from cgtalg.errors import RulesetError
    from cgtalg.rulesets.registry import available_rulesets, get_ruleset

    for name in [stored, *available_rulesets()]:
        try:
            candidate = get_ruleset(name)
        except RulesetError:  # (a family pattern such as allbut:S)
            continue
        if (getattr(candidate, "store_name", None) or candidate.name) == stored:
            return candidate
    raise RulesetError(f"no registered ruleset keys its answers as {stored!r}")


def _partizan(run: Verification, key: str, row: Any, value: Any) -> None:
    from cgtalg.normal.notation import format_partizan
    from cgtalg.rulesets.partizan.games import partizan_form
    from cgtalg.rulesets.protocol import parse_position

    if row.name not in ("canonical_form", "misere_outcome"):
        run.skip("position_properties", f"no recomputation known for {row.ruleset!r} property {row.name!r}")
        return
    try:
        ruleset = _partizan_ruleset(row.ruleset.split(":", 1)[1])
        position = parse_position(ruleset, row.position)
    except CgtalgError as exc:
        run.skip("position_properties", f"ruleset or position not readable here: {shorten(str(exc), 120)}")
        return
    if row.name == "misere_outcome":  # written by `cgtalg value`: misère play of the position
        from cgtalg.rulesets.partizan.forms import misere_outcome_by_play

        fresh = misere_outcome_by_play(ruleset, position, max_seconds=_seconds(run))
    else:
        fresh = format_partizan(partizan_form(ruleset, position, max_seconds=_seconds(run), progress=False),
                                ascii=True)
    if fresh != value:
        run.mismatch("position_properties", key, value, fresh)
        return
    run.count("position_values_recomputed")


def _loopy(run: Verification, key: str, row: Any, value: Any) -> None:
    """A loopy game's outcome or value record, recomputed from its graph key."""
    from cgtalg.store.loopy import recheck_loopy

    if row.name not in ("loopy_outcome", "loopy_value"):
        run.skip("position_properties", f"no recomputation known for {row.ruleset!r} property {row.name!r}")
        return
    same, fresh = recheck_loopy(row.name, row.position, value)
    if not same:
        run.mismatch("position_properties", key, value, fresh)
        return
    run.count("position_values_recomputed")


#: the fields of a stored solution that say who wins and how
SOLUTION_FIELDS = ("outcome", "value", "winners", "winning_moves", "misere", "kind")


def _solution(run: Verification, key: str, row: Any, value: Any) -> None:
    from cgtalg.rulesets.protocol import parse_position
    from cgtalg.rulesets.registry import get_ruleset
    from cgtalg.rulesets.solver import solve

    try:
        ruleset = get_ruleset(row.ruleset)
        position = parse_position(ruleset, row.position)
    except CgtalgError as exc:
        run.skip("position_properties", f"ruleset or position not readable here: {shorten(str(exc), 120)}")
        return
    sol = solve(ruleset, position, misere=row.name == "solution:misere", max_seconds=_seconds(run))
    fresh = json.loads(json.dumps(sol.to_json()))
    stored = {f: value.get(f) for f in SOLUTION_FIELDS} if isinstance(value, dict) else value
    fresh = {f: fresh.get(f) for f in SOLUTION_FIELDS}
    if stored != fresh:
        run.mismatch("position_properties", key, stored, fresh)
        return
    run.count("position_values_recomputed")


# -- sequences ---------------------------------------------------------------------------------
def check_sequences(run: Verification) -> None:
    """Chunks, recomputed Grundy values and the certificates in sequences' metadata."""
    s = sequences.c
    run.checked.setdefault("sequences", 0)
    rows = stream_rows(run.store, [s.key, s.length, s.meta, s.algorithm], [s.key], batch=200)
    for seq in run.choose(rows, lambda r: r.key.split(":", 1)[0], "sequences", SEQUENCES_SECONDS,
                          first=lambda r: r.meta is not None and ('"certified":true' in r.meta
                                                                  or '"misere_quotient"' in r.meta)):
        run.check_time("sequences")
        if run.stale("sequences", sequence_kind(seq.key), seq.algorithm):
            continue
        key = f"sequence {seq.key!r}"
        meta = None
        if seq.meta is not None:
            meta = _json(run, "sequences", f"{key}, column meta", seq.meta, dict)
            meta = None if meta is _BAD else _current_entries(run, meta)
        ruleset = _heap_ruleset(seq.key)
        fresh = None
        if ruleset is not None and seq.length:
            want = seq.length if run.sample is None else min(seq.length, SAMPLE_VALUES)
            cert = (meta or {}).get("periodicity")
            if isinstance(cert, dict) and cert.get("certified"):
                need = _int(cert.get("values_checked"))
                # sampling: the prefix the certificate needs; once it holds, the period gives the rest
                want = max(need, 1) if run.sample is not None else max(want, need)
            fresh = _recompute(run, key, ruleset, want)
        period = _check_meta(run, seq, meta, ruleset, fresh) if meta else None
        _check_chunks(run, seq, fresh, period)
        run.count("sequences")


def _int(x: Any) -> int:
    try:
        return max(0, int(x))
    except (TypeError, ValueError):
        return 0


def _heap_ruleset(key: str) -> Any:
    """The heap game whose Grundy sequence is stored under ``key`` (None if it is not one)."""
    if not key.startswith("grundy:"):
        return None
    from cgtalg.rulesets.heaps.games import parse_heap_ruleset

    try:
        ruleset = parse_heap_ruleset(key[len("grundy:"):])
    except CgtalgError:
        return None
    return ruleset if ruleset.sequence_key == key else None


def _recompute(run: Verification, key: str, ruleset: Any, n: int) -> np.ndarray | None:
    """``G(0..n-1)`` recomputed, or the prefix that fits the memory and time of the run."""
    from cgtalg.rulesets.heaps.grundy_engine import GrundyEngine

    eng = GrundyEngine(ruleset)
    wanted = n
    while n > 1 and eng.memory_estimate(n) > MAX_RECOMPUTE_BYTES:
        n //= 2
    deadline = run.deadline
    if run.sample is not None:  # sampling: the prefix recomputed within SAMPLE_SECONDS
        left = deadline.remaining()
        deadline = Deadline(SAMPLE_SECONDS if left is None else max(0.01, min(SAMPLE_SECONDS, left)),
                            deadline.max_memory)
    try:
        eng.extend(n, progress=False, max_bytes=MAX_RECOMPUTE_BYTES, deadline=deadline)
    except ComputationLimitError:
        if run.deadline.expired() or run.sample is None:
            raise
    if eng.n < wanted:
        why = (f"within {SAMPLE_SECONDS:g} s (--full recomputes all)" if eng.n < n
               else f"within the memory of a verify run ({MAX_RECOMPUTE_BYTES >> 20} MiB)")
        run.skip("sequence_values", f"{key}: {eng.n:,} of {wanted:,} values recomputed {why}")
    if eng.n < 1:
        run.skip("sequence_values", f"{key}: not recomputed")
        return None
    return np.asarray(eng.values(eng.n))


def _check_chunks(run: Verification, seq: Any, fresh: np.ndarray | None, period: tuple[int, int] | None) -> None:
    """The chunks of one sequence, read one at a time: contiguous, decodable, and equal to the
    recomputed values where there are some; past them, when the sequence's periodicity
    certificate was re-checked (``period = (p, n0)``), equal to the values the period gives."""
    c = sequence_chunks.c
    key = f"sequence {seq.key!r}"
    expected = 0
    compared = 0
    for chunk in stream_rows(run.store, [c.start, c.count, c.codec, c.data], [c.start],
                             where=c.sequence_key == seq.key, batch=4):
        run.check_time("sequence chunks")
        ckey = f"{key}, chunk at {chunk.start}"
        if chunk.start != expected:
            what = "a gap" if chunk.start > expected else "an overlap"
            run.problem("sequence_chunks", ckey, f"{what}: the previous chunks end at {expected}")
        expected = chunk.start + chunk.count
        try:
            part = decode_chunk(chunk.codec, chunk.data, chunk.count)
        except ValueError as exc:
            run.problem("sequence_chunks", ckey, f"unreadable: {exc}")
            continue
        if fresh is None:
            continue
        if period is not None:  # a proved period extends the recomputed prefix to every index
            p, n0 = period
            idx = np.arange(chunk.start, chunk.start + chunk.count, dtype=np.int64)
            late = idx >= fresh.size
            idx[late] = n0 + (idx[late] - n0) % p
            ours = fresh[idx].astype(np.int64)
            stop = chunk.start + chunk.count
            how = "the certified period gives"
        elif chunk.start >= fresh.size:
            continue
        else:
            stop = min(chunk.start + chunk.count, fresh.size)
            ours = fresh[chunk.start:stop].astype(np.int64)
            how = "recomputed"
        differ = np.flatnonzero(part[: stop - chunk.start] != ours)
        compared += stop - chunk.start
        if differ.size:
            i = int(differ[0])
            n = chunk.start + i
            if n < fresh.size:
                how = "recomputed"
            run.problem("sequence_chunks", f"{key}, index {n}",
                        f"stored value {int(part[i])}, {how} {int(ours[i])} (chunk at {chunk.start}; "
                        f"{differ.size} of its values differ)", str(int(part[i])), str(int(ours[i])))
    if expected != seq.length:
        run.problem("sequences", key, f"stored length {seq.length}, but its chunks hold values 0 .. {expected - 1}")
    if compared:
        run.count("sequence_values_recomputed", compared)


def _check_meta(run: Verification, seq: Any, meta: dict, ruleset: Any,
                fresh: np.ndarray | None) -> tuple[int, int] | None:
    """Check the certificates in a sequence's metadata; the ``(period, preperiod)`` of a
    periodicity certificate that holds on the recomputed values, else None."""
    key = f"sequence {seq.key!r}, column meta"
    cert = meta.get("periodicity")
    period = None
    if isinstance(cert, dict) and cert.get("certified"):
        period = _periodicity(run, key, ruleset, cert, fresh)
    record = meta.get("misere_quotient")
    if record is not None:
        _quotient(run, key, seq.key, record)
    rays = meta.get("misere_quotient_rays")
    if rays is not None:
        _quotient_rays(run, key, seq.key, rays)
    return period


def _periodicity(run: Verification, key: str, ruleset: Any, cert: dict,
                 fresh: np.ndarray | None) -> tuple[int, int] | None:
    from cgtalg.rulesets.heaps.octal_periodicity import check_certificate

    if ruleset is None or ruleset.certificate() is None:
        run.problem("sequences", key, "a certified period for a sequence no periodicity theorem covers", cert)
        return None
    _theorem, mode, h, k = ruleset.certificate()
    try:
        p, n0, L = int(cert["period"]), int(cert["preperiod"]), int(cert["values_checked"])
    except (KeyError, TypeError, ValueError):
        run.problem("sequences", key, "a periodicity certificate without period, preperiod and values_checked", cert)
        return None
    if fresh is None or fresh.size < L:
        run.skip("periodicity", f"{key}: the {L} values its certificate needs were not recomputed")
        return None
    G = np.ascontiguousarray(fresh[:L])
    got = check_certificate(G, L, mode, h, k, p)
    if got != n0 or int(cert.get("k", k)) != k:
        why = "the theorem's bound does not hold" if got is None else f"the recomputed values give preperiod {got}"
        run.problem("sequences", key, f"the periodicity certificate (period {p}, preperiod {n0}, {L} values) fails "
                                      f"on recomputed Grundy values: {why}", cert)
        return None
    run.count("certificates_rechecked")
    return (p, n0) if fresh.size >= n0 + p else None


def _quotient(run: Verification, key: str, seq_key: str, record: Any) -> None:
    from cgtalg.quotients.storage import load_quotient_state, quotient_key
    from cgtalg.rulesets.heaps.games import fingerprinted_name, parse_heap_ruleset

    game = record.get("game") if isinstance(record, dict) else None
    if fingerprinted_name(seq_key.split(":", 1)[1]) is not None:  # a ruleset from a function
        run.skip("quotients", f"{key}: the game {shorten(seq_key, 60)!r} is a ruleset from a function, not known here")
        return
    try:
        ruleset = parse_heap_ruleset(str(game))
    except CgtalgError:
        run.skip("quotients", f"{key}: the game {shorten(str(game), 40)!r} is not a heap game known here")
        return
    if quotient_key(ruleset) != seq_key:
        run.problem("sequences", key, f"a misère quotient of {shorten(str(game), 40)} stored under {seq_key!r}")
        return
    try:
        state = load_quotient_state(ruleset, _OneRecord(seq_key, record))
    except ComputationLimitError as exc:
        if run.deadline.expired():
            raise
        run.skip("quotients", f"{key}: over its budget: {shorten(str(exc), 120)}")
        return
    except CgtalgError as exc:
        run.problem("sequences", key, f"the stored misère quotient fails verification: {shorten(str(exc), 240)}")
        return
    if "presentation" in record:
        q = state.quotient(state_name(ruleset), None if state.final else state.top)
        pres = q.presentation()
        fresh = {"presentation": pres.text, "p_portion": [pres.words[x] for x in q.p_portion]}
        stored = {name: record.get(name) for name in fresh}
        if stored != fresh:
            run.mismatch("sequences", key, stored, fresh)
            return
    run.count("quotients_rechecked")


def _quotient_rays(run: Verification, key: str, seq_key: str, rays: Any) -> None:
    """A stored proof that a partial misère quotient is infinite: re-verified from the ruleset's
    own moves (:func:`cgtalg.quotients.storage.check_rays_record`)."""
    from cgtalg.quotients.storage import check_rays_record, quotient_key
    from cgtalg.rulesets.heaps.games import parse_heap_ruleset

    game = seq_key.split(":", 1)[1]
    try:
        ruleset = parse_heap_ruleset(game)
    except CgtalgError:
        run.skip("quotients", f"{key}: the game {shorten(game, 40)!r} is not a heap game known here")
        return
    if quotient_key(ruleset) != seq_key:  # pragma: no cover - the key names the game
        run.problem("sequences", key, f"a proof of infinitude for {shorten(game, 40)} stored under {seq_key!r}")
        return
    try:
        why = check_rays_record(ruleset, rays)
    except ComputationLimitError as exc:
        if run.deadline.expired():
            raise
        run.skip("quotients", f"{key}: over its budget: {shorten(str(exc), 120)}")
        return
    if isinstance(why, str):
        run.problem("sequences", key, f"the stored proof that a misère quotient is infinite is rejected: {why}")
        return
    run.count("quotients_rechecked")


def state_name(ruleset: Any) -> str:
    from cgtalg.quotients.storage import quotient_key

    return quotient_key(ruleset).split(":", 1)[1]


class _OneRecord:
    """The one metadata record a quotient loader reads (it never writes through this)."""

    def __init__(self, key: str, record: Any) -> None:
        self.key, self.record = key, record

    def sequence_meta(self, key: str) -> dict | None:
        return {"misere_quotient": self.record} if key == self.key else None

    def put_sequence_meta(self, key: str, meta: dict, replace: bool = False) -> None:  # pragma: no cover
        raise CgtalgError("store verify never writes")
