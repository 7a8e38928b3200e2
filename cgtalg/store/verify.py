"""``cgtalg store verify``: re-derive stored results from their inputs and report every
inconsistency with its key, without writing to the store.

Checks (a random sample of rows, or every row with ``full=True``):

- forms: the key is the ascending list of option ids (or ``*n`` for a nim-heap, keyed by its
  size), every option has a row, the key hash is the SHA-256 of the key, the birthday is
  1 + the largest option birthday (``n`` for ``*n``; saturated at ``BIRTHDAY_CAP``);
- form properties: the value is JSON, and the properties :func:`cgtalg.report.describe`
  stores (``grundy``, ``misere_grundy``, ``misere_canonical``, outcomes, winning moves...)
  recomputed from the rebuilt form equal the stored value (forms of at most
  :data:`RECOMPUTE_LIMIT` subpositions);
- relations, positions' properties, sequence metadata: the value is JSON (relations: an
  object);
- sequences: the chunks decode (each chunk is a zlib stream, whose Adler-32 checksum of
  the values is checked on decoding, with its codec and value count), tile ``0 .. length-1`` without gap or overlap, and for the
  Grundy sequences of take-and-break codes (key ``grundy:CODE``) sampled values satisfy the
  recurrence G(n) = mex{G(a) xor G(b) xor ... : (a, b, ...) an option of a heap of n}
  (Berlekamp, Conway, Guy, *Winning Ways* ch. 4), computed from the stored earlier values.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

from sqlalchemy import select

from cgtalg.errors import CgtalgError, StoreError
from cgtalg.normal.grundy import mex
from cgtalg.store.codec import decode_chunk, shorten
from cgtalg.store.forms import parse_form_key, stored_birthday
from cgtalg.store.schema import (
    form_properties,
    form_relations,
    forms,
    position_properties,
    positions,
    sequence_chunks,
    sequences,
)

__all__ = ["verify_store", "RECOMPUTE_LIMIT", "RECURRENCE_WORK_LIMIT"]

#: Forms with more subpositions than this are checked structurally only.
RECOMPUTE_LIMIT = 2000
#: Heap options examined per sequence when checking the recurrence (bounded work).
RECURRENCE_WORK_LIMIT = 200_000


def _sample(rows: list, sample: int | None, rng: random.Random) -> list:
    if sample is None or len(rows) <= sample:
        return rows
    return rng.sample(rows, sample)


def verify_store(store: Any, sample: int | None = 200, seed: int = 0) -> dict:
    """Check a store's rows against what they are derived from (read-only).

    Parameters
    ----------
    store : cgtalg.store.Store
    sample : int or None
        Rows checked per table (forms, properties, relations, positions, sequence values);
        ``None`` checks every row.
    seed : int
        Seed of the sample.

    Returns
    -------
    dict
        ``{"store", "ok", "checked": {what: count}, "problems": [{"table", "key",
        "problem"}, ...]}``; ``ok`` is true when no problem was found.

    Raises
    ------
    StoreError
        For a bad ``sample`` or when the store cannot be read at all.
    """
    if sample is not None and (isinstance(sample, bool) or not isinstance(sample, int) or sample < 1):
        raise StoreError(f"verify: sample must be a positive int or None, got {sample!r}")
    rng = random.Random(seed)
    problems: list[dict] = []
    checked: dict[str, int] = {}

    def problem(table: str, key: str, text: str) -> None:
        problems.append({"table": table, "key": key, "problem": text})

    with store._transaction() as conn:
        form_rows = {row.id: row for row in conn.execute(select(forms.c.id, forms.c.key_hash, forms.c.options, forms.c.birthday))}
        # -- forms ---------------------------------------------------------------------------
        good_forms: set[int] = set()
        for fid in _sample(sorted(form_rows), sample, rng):
            row = form_rows[fid]
            key = f"form {fid}"
            try:
                ids = parse_form_key(row.options)
            except (ValueError, AttributeError, TypeError):
                problem("forms", key, f"options {shorten(str(row.options), 60)} are not a list of form ids nor a nim-heap *n")
                continue
            ok = True
            if isinstance(ids, int):  # a nim-heap atom keyed by its size
                if row.key_hash != hashlib.sha256(str(row.options).encode()).hexdigest():
                    problem("forms", key, f"key hash {row.key_hash} is not the SHA-256 of its key {shorten(str(row.options), 60)}")
                    ok = False
                if row.birthday != stored_birthday(ids):
                    problem("forms", key, f"birthday {row.birthday}, but the nim-heap {shorten(str(row.options), 60)} has {stored_birthday(ids)}")
                    ok = False
                if ok:
                    good_forms.add(fid)
                continue
            sides = list(ids) if isinstance(ids, tuple) else [ids]   # partizan: Left, Right
            if isinstance(ids, tuple):
                ids = ids[0] + ids[1]
            if any(side != sorted(set(side)) for side in sides):
                problem("forms", key, f"options [{row.options}] are not the ascending list of distinct ids")
                ok = False
            missing = [i for i in ids if i not in form_rows]
            if missing:
                problem("forms", key, f"options {missing[:5]} have no form rows")
                ok = False
            if row.key_hash != hashlib.sha256(str(row.options).encode()).hexdigest():
                problem("forms", key, f"key hash {row.key_hash} is not the SHA-256 of its options [{shorten(str(row.options), 60)}]")
                ok = False
            if not missing:
                expected = stored_birthday(1 + max((form_rows[i].birthday for i in ids), default=-1))
                if row.birthday != expected:
                    problem("forms", key, f"birthday {row.birthday}, but its options give {expected}")
                    ok = False
            if ok:
                good_forms.add(fid)
        checked["forms"] = min(len(form_rows), sample or len(form_rows))

        # -- form properties -------------------------------------------------------------------
        prop_rows = list(conn.execute(select(form_properties.c.form_id, form_properties.c.name, form_properties.c.value)))
        from cgtalg.ops.properties import property_computers  # what describe() stores

        computers = property_computers()
        recomputed = 0
        for row in _sample(prop_rows, sample, rng):
            key = f"form {row.form_id}, property {row.name!r}"
            try:
                stored = json.loads(row.value)
            except (TypeError, ValueError) as exc:
                problem("form_properties", key, f"value {shorten(str(row.value), 60)} is not valid JSON ({exc})")
                continue
            compute = computers.get(row.name)
            if compute is None or row.form_id not in form_rows:
                continue
            try:
                g = _rebuild(store, row.form_id)
            except CgtalgError as exc:
                problem("form_properties", key, f"its form cannot be rebuilt: {exc}")
                continue
            if len(g.subpositions(expand_atoms=False)) > RECOMPUTE_LIMIT:  # nim-heaps: atom rules
                continue
            fresh = json.loads(json.dumps(compute(g)))
            recomputed += 1
            if fresh != stored and not _same_moves(row.name, stored, fresh):
                problem(
                    "form_properties", key,
                    f"stored value {shorten(json.dumps(stored), 60)}, recomputed {shorten(json.dumps(fresh), 60)}",
                )
        checked["form_properties"] = min(len(prop_rows), sample or len(prop_rows))
        checked["recomputed_properties"] = recomputed

        # -- relations, positions, metadata: readable JSON ---------------------------------
        rel_rows = list(conn.execute(select(form_relations.c.form_id, form_relations.c.other_id, form_relations.c.name, form_relations.c.value)))
        for row in _sample(rel_rows, sample, rng):
            _check_json(problem, "form_relations", f"forms ({row.form_id}, {row.other_id}), relation {row.name!r}", row.value, dict)
        checked["form_relations"] = min(len(rel_rows), sample or len(rel_rows))
        pos_rows = list(
            conn.execute(
                select(positions.c.id, positions.c.ruleset, position_properties.c.name, position_properties.c.value).join(
                    position_properties, position_properties.c.position_id == positions.c.id
                )
            )
        )
        for row in _sample(pos_rows, sample, rng):
            _check_json(problem, "position_properties", f"position {row.id} of {row.ruleset!r}, property {row.name!r}", row.value)
        checked["position_properties"] = min(len(pos_rows), sample or len(pos_rows))

        # -- sequences ---------------------------------------------------------------------------
        seq_rows = list(conn.execute(select(sequences.c.key, sequences.c.length, sequences.c.meta)))
        values_checked = 0
        for seq in seq_rows:
            key = f"sequence {seq.key!r}"
            if seq.meta is not None:
                _check_json(problem, "sequences", f"{key}, column meta", seq.meta, dict)
            chunk_rows = list(
                conn.execute(
                    select(sequence_chunks.c.start, sequence_chunks.c.count, sequence_chunks.c.codec, sequence_chunks.c.data)
                    .where(sequence_chunks.c.sequence_key == seq.key)
                    .order_by(sequence_chunks.c.start)
                )
            )
            expected = 0
            values: list = []
            intact = True
            for chunk in chunk_rows:
                ckey = f"{key}, chunk at {chunk.start}"
                if chunk.start != expected:
                    what = "a gap" if chunk.start > expected else "an overlap"
                    problem("sequence_chunks", ckey, f"{what}: the previous chunks end at {expected}")
                    intact = False
                try:
                    part = decode_chunk(chunk.codec, chunk.data, chunk.count)
                except ValueError as exc:
                    problem("sequence_chunks", ckey, f"unreadable: {exc}")
                    intact = False
                    expected = chunk.start + chunk.count
                    continue
                values.append(part)
                expected = chunk.start + chunk.count
            if expected != seq.length:
                problem("sequences", key, f"stored length {seq.length}, but its chunks hold values 0 .. {expected - 1}")
                intact = False
            if intact and values:
                import numpy as np

                array = np.concatenate(values)
                values_checked += _check_recurrence(problem, seq.key, array, sample, rng)
        checked["sequences"] = len(seq_rows)
        checked["sequence_values_recomputed"] = values_checked
    return {"store": store.location, "ok": not problems, "checked": checked, "problems": problems}


def _check_json(problem, table: str, key: str, text: Any, kind: type | None = None) -> None:
    try:
        value = json.loads(text)
    except (TypeError, ValueError) as exc:
        problem(table, key, f"value {shorten(str(text), 60)} is not valid JSON ({exc})")
        return
    if kind is not None and not isinstance(value, kind):
        problem(table, key, f"value {shorten(str(text), 60)} is not a JSON object")


def _same_moves(name: str, stored: Any, fresh: Any) -> bool:
    """Winning moves are stored as display texts, which depend on how the form was built
    (``*2+*2`` or its expanded set): compare them as forms."""
    if not name.endswith("_winning_moves") or not isinstance(stored, list) or not isinstance(fresh, list):
        return False
    from cgtalg.core.notation import parse

    try:
        return {parse(t).id for t in stored} == {parse(t).id for t in fresh}
    except (CgtalgError, TypeError, ValueError):
        return False


def _rebuild(store: Any, form_id: int):
    return store.game(form_id)


def _check_recurrence(problem, key: str, array, sample: int | None, rng: random.Random) -> int:
    """Recompute sampled values of an octal Grundy sequence from the stored earlier ones."""
    if not key.startswith("grundy:"):
        return 0
    from cgtalg.rulesets.octal import TakeAndBreak

    try:
        rules = TakeAndBreak(key[len("grundy:"):])
    except (CgtalgError, ValueError, TypeError):
        return 0
    n_total = int(array.size)
    indices = list(range(n_total)) if sample is None else sorted(
        set(rng.sample(range(n_total), min(sample, n_total))) | set(range(min(n_total, 64)))
    )
    work = 0
    done = 0
    for n in indices:
        seen = set()
        for parts in rules.heap_options(n):
            x = 0
            for p in parts:
                x ^= int(array[p])
            seen.add(x)
            work += 1
        value = mex(seen)
        done += 1
        if value != int(array[n]):
            problem("sequence_chunks", f"sequence {key!r}, index {n}", f"stored value {int(array[n])}, the recurrence gives {value}")
        if sample is not None and work > RECURRENCE_WORK_LIMIT:
            break
    return done
