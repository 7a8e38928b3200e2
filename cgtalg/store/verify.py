"""``cgtalg store verify``: re-derive what a store holds and name every row that does not hold up,
without writing to the store, in bounded memory and time.

What is checked (every row with ``sample=None``, else a seeded uniform sample of at most
``sample`` rows of each kind):

- **forms**: the key is the ascending list of option ids (or ``*n`` for a nim-heap, keyed by its
  size; ``L…|…`` for a partizan form), every option has a row, the key hash is the SHA-256 of the
  key, the birthday is 1 + the largest option birthday (saturated at ``BIRTHDAY_CAP``);
- **form properties** (no certificate: recomputed): the properties :func:`cgtalg.report.describe`
  stores (``grundy``, ``misere_grundy``, ``misere_canonical``, ``genus``, outcomes, winning
  moves...) recomputed from the rebuilt form with the theory functions
  (:func:`cgtalg.ops.properties.property_computers`), for forms of at most
  :data:`RECOMPUTE_LIMIT` subpositions (:data:`LINEAR_LIMIT` for the normal-play properties, one
  pass over the form's DAG); winning moves are compared as the stored forms they
  name (their display text depends on how the form was built);
- **relations** (certificates): ``misere_equivalent`` / ``normal_equivalent`` proofs are re-run
  by the independent checker :func:`cgtalg.misere.proof.check_proof`, and their games must be the
  row's forms;
- **positions' properties** and **sequences**: :mod:`cgtalg.store.verify_records` (periodicity
  certificates against recomputed Grundy values, misère quotients through their exact verifier,
  census records, partizan values, solutions, genera).

Tables are read in batches by keyset pagination on their primary keys: memory stays bounded
by the batch size and the sample, never by the size of the store. A ``max_seconds`` budget and
the memory ceiling (:class:`cgtalg.budget.Deadline`) stop the run with what was found so far
(``complete`` is then false). Adler-32 checksums of sequence chunks are transport checks, not
proofs: the values themselves are recomputed.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any, Callable, Iterator

from sqlalchemy import select, tuple_

from cgtalg.budget import Deadline
from cgtalg.errors import CgtalgError, ComputationLimitError, StoreError
from cgtalg.store.codec import shorten
from cgtalg.store.engine import IN_BATCH
from cgtalg.store.forms import key_ids, parse_form_key, stored_birthday
from cgtalg.store.provenance import current_version
from cgtalg.store.schema import form_properties, form_relations, forms

__all__ = ["verify_store", "Verification", "RECOMPUTE_LIMIT", "LINEAR_PROPERTIES", "LINEAR_LIMIT", "BATCH", "DEFAULT_SAMPLE", "KIND_SECONDS", "stream_rows"]

#: Forms with more subpositions than this have only their :data:`LINEAR_PROPERTIES` recomputed.
RECOMPUTE_LIMIT = 2000
#: Properties computed by one pass over the form's DAG (normal play): recomputed for forms of up
#: to :data:`LINEAR_LIMIT` subpositions.
LINEAR_PROPERTIES = frozenset({"birthday", "grundy", "normal_outcome", "normal_winning_moves"})
#: Forms with more subpositions than this are checked structurally only.
LINEAR_LIMIT = 200_000
#: Rows read per query (keyset pagination).
BATCH = 2000
#: Rows of each kind checked by default (``cgtalg store verify`` without ``--full``).
DEFAULT_SAMPLE = 200
#: Seconds given to each kind of row when sampling (the rest of its sample is then skipped).
KIND_SECONDS = 5.0
#: Longest text of a value quoted in a problem.
QUOTE = 80


def stream_rows(store: Any, columns: list, keys: list, where: Any = None, join: Any = None,
                batch: int = BATCH) -> Iterator[Any]:
    """Rows of ``columns`` in the order of the primary-key columns ``keys``, read ``batch`` at a
    time by keyset pagination (``WHERE (keys) > (last keys) ORDER BY keys LIMIT batch``), one
    short read transaction per batch: memory holds one batch, whatever the table's size."""
    last = None
    while True:
        query = select(*columns)
        if join is not None:
            query = query.select_from(join)
        if where is not None:
            query = query.where(where)
        if last is not None:
            query = query.where(tuple_(*keys) > tuple_(*last) if len(keys) > 1 else keys[0] > last[0])
        query = query.order_by(*keys).limit(batch)
        with store._transaction() as conn:
            rows = conn.execute(query).all()
        if not rows:
            return
        yield from rows
        if len(rows) < batch:
            return
        last = tuple(getattr(rows[-1], k.name) for k in keys)


class Verification:
    """What one run of :func:`verify_store` found: counts per check, problems, and the sampler.

    ``problem(table, key, text, stored=..., recomputed=...)`` records a failure named by its row;
    ``count(check)`` counts a row checked; ``skip(check, why)`` counts a row that could not be
    re-derived (kept apart from the checked ones, with the first reason)."""

    def __init__(self, store: Any, sample: int | None, seed: int, deadline: Deadline,
                 progress: Callable[[str, int], Any] | None = None) -> None:
        self.store = store
        self.sample = sample
        self.rng = random.Random(seed)
        self.deadline = deadline
        self.checked: dict[str, int] = {}
        self.skipped: dict[str, dict] = {}
        self.problems: list[dict] = []
        self.stopped: str | None = None
        self.progress = progress

    def problem(self, table: str, key: str, text: str, stored: Any = None, recomputed: Any = None) -> None:
        entry = {"table": table, "key": key, "problem": text}
        if stored is not None:
            entry["stored"] = shorten(stored if isinstance(stored, str) else json.dumps(stored, ensure_ascii=False), QUOTE)
        if recomputed is not None:
            entry["recomputed"] = shorten(recomputed if isinstance(recomputed, str)
                                          else json.dumps(recomputed, ensure_ascii=False), QUOTE)
        self.problems.append(entry)

    def mismatch(self, table: str, key: str, stored: Any, fresh: Any) -> None:
        s = stored if isinstance(stored, str) else json.dumps(stored, ensure_ascii=False)
        f = fresh if isinstance(fresh, str) else json.dumps(fresh, ensure_ascii=False)
        self.problem(table, key, f"stored value {shorten(s, QUOTE)}, recomputed {shorten(f, QUOTE)}", s, f)

    def count(self, check: str, n: int = 1) -> None:
        self.checked[check] = self.checked.get(check, 0) + n
        if self.progress is not None:
            self.progress(check, n)

    def skip(self, check: str, why: str) -> None:
        entry = self.skipped.setdefault(check, {"count": 0, "first_reason": why})
        entry["count"] += 1

    def stale(self, table: str, name: str, algorithm: Any) -> bool:
        """Whether a row of ``table`` for ``name`` was written by another version of its
        algorithm than the current one (then it is counted as skipped, never as a failure: the
        store does not serve it, and recomputes it when it is next asked for)."""
        if algorithm is None or int(algorithm) == current_version(name):
            return False
        self.skip(table, f"stale: written by version {algorithm} of the algorithm of {name!r} "
                         f"(current {current_version(name)}); not served, recomputed when next asked")
        return True

    def check_time(self, what: str) -> None:
        self.deadline.check(f"store verify ({what})")

    def choose(self, rows: Iterator[Any], kind_of: Callable[[Any], str] | None = None, check: str = "rows",
               share: float | None | Callable[[str], float | None] = KIND_SECONDS,
               first: Callable[[Any], bool] | None = None) -> Iterator[Any]:
        """All of ``rows`` (``sample=None``), else a uniform sample of at most ``sample`` rows of
        each kind (reservoir sampling over the stream: memory holds the sample only), each kind
        given ``share`` seconds (or ``share(kind)``; ``None``: no share, for records that carry a
        certificate, whose checks the sample bounds): the rows of a kind left when its share is used up are counted
        as not re-derived (``--full`` checks them all). Rows for which ``first`` is true (those
        with a certificate) come first in their kind."""
        if self.sample is None:
            yield from rows
            return
        pools: dict[str, list] = {}
        seen: dict[str, int] = {}
        for i, row in enumerate(rows):
            if i % 4096 == 0:
                self.check_time("sampling rows")
            kind = kind_of(row) if kind_of is not None else ""
            n = seen[kind] = seen.get(kind, 0) + 1
            pool = pools.setdefault(kind, [])
            if len(pool) < self.sample:
                pool.append(row)
            else:
                j = self.rng.randrange(n)
                if j < self.sample:
                    pool[j] = row
        for kind in sorted(pools):
            start = self.deadline.elapsed()
            pool = pools.pop(kind)
            if first is not None:
                pool.sort(key=lambda row: not first(row))
            limit = share(kind) if callable(share) else share
            for i, row in enumerate(pool):
                if limit is not None and self.deadline.elapsed() - start > limit:
                    for _ in pool[i:]:
                        self.skip(check, f"the sample's time share ({limit:g} s) of {kind or check} was used up "
                                         "(--full checks every row)")
                    break
                yield row

    def result(self) -> dict:
        return {"store": self.store.location, "ok": not self.problems, "complete": self.stopped is None,
                "stopped": self.stopped, "sample": self.sample, "checked": self.checked,
                "skipped": self.skipped, "problems": self.problems}


def verify_store(store: Any, sample: int | None = DEFAULT_SAMPLE, seed: int = 0, *,
                 max_seconds: float | None = None, max_memory: Any = None,
                 progress: Callable[[str, int], Any] | None = None) -> dict:
    """Check a store's rows against what they are derived from (read-only; module docstring).

    Parameters
    ----------
    store : cgtalg.store.Store
    sample : int or None
        Rows checked per kind (forms, each property kind, relations, each kind of position
        record, certified sequences); ``None`` checks every row. Sequences are recomputed up
        to :data:`cgtalg.store.verify_records.SAMPLE_VALUES` values when sampling.
    seed : int
        Seed of the sample.
    max_seconds : float, optional
        Time budget: past it the run stops with what it found (``complete`` false).
    max_memory : int or str, optional
        Memory ceiling watched between rows (default :func:`cgtalg.budget.default_max_memory`).
    progress : callable, optional
        ``progress(check, n)`` after each ``n`` rows of ``check``.

    Returns
    -------
    dict
        ``{"store", "ok", "complete", "stopped", "sample", "checked": {check: rows},
        "skipped": {check: {"count", "first_reason"}}, "problems": [{"table", "key",
        "problem", "stored"?, "recomputed"?}, ...]}``; ``ok`` is true when no problem was found.

    Raises
    ------
    StoreError
        For a bad ``sample`` or when the store cannot be read at all.

    Examples
    --------
    The Grundy values of Dawson's Kayles (0.07), 0 0 1 1 2 0 3 1 ..., stored with G(6) changed
    from 3 to 2: the recomputation names the row.

    >>> from cgtalg.store import open_store
    >>> store = open_store(":memory:")
    >>> store.extend_sequence("grundy:0.07", 0, [0, 0, 1, 1, 2, 0, 2, 1])
    >>> result = verify_store(store, sample=None)
    >>> result["ok"], [p["key"] for p in result["problems"]]
    (False, ["sequence 'grundy:0.07', index 6"])
    >>> result["problems"][0]["problem"]
    'stored value 2, recomputed 3 (chunk at 0; 1 of its values differ)'
    """
    if sample is not None and (isinstance(sample, bool) or not isinstance(sample, int) or sample < 1):
        raise StoreError(f"verify: sample must be a positive int or None, got {sample!r}")
    from cgtalg.store.verify_records import check_positions, check_sequences

    run = Verification(store, sample, seed, Deadline(max_seconds, max_memory), progress)
    try:
        for step in (check_forms, check_form_properties, check_relations, check_positions, check_sequences):
            step(run)
    except ComputationLimitError as exc:
        run.stopped = str(exc)
    return run.result()


# -- forms -----------------------------------------------------------------------------------
def _birthdays(store: Any, ids: set[int]) -> dict[int, int]:
    out: dict[int, int] = {}
    ordered = sorted(ids)
    with store._transaction() as conn:
        for start in range(0, len(ordered), IN_BATCH):
            part = ordered[start:start + IN_BATCH]
            out.update(conn.execute(select(forms.c.id, forms.c.birthday).where(forms.c.id.in_(part))).all())
    return out


def check_forms(run: Verification) -> None:
    """Structure of the ``forms`` rows (module docstring), batch by batch."""
    rows = run.choose(stream_rows(run.store, [forms.c.id, forms.c.key_hash, forms.c.options, forms.c.birthday],
                                  [forms.c.id]), check="forms")
    batch: list = []
    for row in rows:
        batch.append(row)
        if len(batch) >= BATCH:
            _check_form_batch(run, batch)
            batch = []
    if batch:
        _check_form_batch(run, batch)
    run.checked.setdefault("forms", 0)


def _check_form_batch(run: Verification, rows: list) -> None:
    run.check_time("forms")
    parsed = {}
    for row in rows:
        key = f"form {row.id}"
        try:
            parsed[row.id] = parse_form_key(row.options)
        except (ValueError, AttributeError, TypeError):
            run.problem("forms", key, f"options {shorten(str(row.options), 60)} are not a list of form ids nor a nim-heap *n")
    need = {i for ids in parsed.values() if not isinstance(ids, int) for i in key_ids(ids)}
    births = _birthdays(run.store, need)
    for row in rows:
        if row.id not in parsed:
            run.count("forms")
            continue
        ids = parsed[row.id]
        key = f"form {row.id}"
        if row.key_hash != hashlib.sha256(str(row.options).encode()).hexdigest():
            run.problem("forms", key, f"key hash {row.key_hash} is not the SHA-256 of its key [{shorten(str(row.options), 60)}]")
        if isinstance(ids, int):  # a nim-heap atom keyed by its size
            if row.birthday != stored_birthday(ids):
                run.problem("forms", key, f"birthday {row.birthday}, but the nim-heap {shorten(str(row.options), 60)} "
                                          f"has {stored_birthday(ids)}")
            run.count("forms")
            continue
        sides = list(ids) if isinstance(ids, tuple) else [ids]  # partizan: Left, Right
        if any(side != sorted(set(side)) for side in sides):
            run.problem("forms", key, f"options [{shorten(str(row.options), 60)}] are not the ascending list of distinct ids")
        flat = key_ids(ids)
        missing = [i for i in flat if i not in births]
        if missing:
            run.problem("forms", key, f"options {missing[:5]} have no form rows")
        else:
            expected = stored_birthday(1 + max((births[i] for i in flat), default=-1))
            if row.birthday != expected:
                run.problem("forms", key, f"birthday {row.birthday}, but its options give {expected}")
        run.count("forms")


# -- form properties ---------------------------------------------------------------------------
def check_form_properties(run: Verification) -> None:
    """Recompute sampled form properties from their rebuilt forms (module docstring)."""
    from cgtalg.core.game import Game
    from cgtalg.ops.properties import property_computers  # what describe() stores

    computers = property_computers()
    fp = form_properties.c
    rows = run.choose(stream_rows(run.store, [fp.form_id, fp.name, fp.value, fp.algorithm], [fp.form_id, fp.name]),
                      lambda r: r.name, "form_properties")
    run.checked.setdefault("form_properties", 0)
    for row in rows:
        run.check_time("form properties")
        if run.stale("form_properties", row.name, row.algorithm):
            continue
        key = f"form {row.form_id}, property {row.name!r}"
        stored = _json(run, "form_properties", key, row.value)
        run.count("form_properties")
        if stored is _BAD:
            continue
        compute = computers.get(row.name)
        if compute is None:
            run.skip("form_properties", f"no recomputation known for property {row.name!r}")
            continue
        try:
            g = run.store.game(row.form_id)
        except CgtalgError as exc:
            run.problem("form_properties", key, f"its form cannot be rebuilt: {exc}")
            continue
        if not isinstance(g, Game):
            run.skip("form_properties", "a partizan form's properties are not recomputed")
            continue
        limit = LINEAR_LIMIT if row.name in LINEAR_PROPERTIES else RECOMPUTE_LIMIT
        if _too_big(g, limit):
            run.skip("form_properties", f"{row.name} is not recomputed for forms of more than {limit} subpositions")
            continue
        if row.name.endswith("_winning_moves"):
            _check_moves(run, key, g, row.name.startswith("misere"), stored)
        else:
            fresh = json.loads(json.dumps(compute(g)))
            if fresh != stored:
                run.mismatch("form_properties", key, stored, fresh)
        run.count("recomputed_properties")


def _too_big(g: Any, limit: int) -> bool:
    """More than ``limit`` subpositions (the walk stops as soon as it is known)."""
    seen = {g.id}
    stack = [g]
    while stack:
        x = stack.pop()
        if getattr(x, "is_atom", False):
            continue
        for o in x.options:
            if o.id not in seen:
                seen.add(o.id)
                if len(seen) > limit:
                    return True
                stack.append(o)
    return False


def _check_moves(run: Verification, key: str, g: Any, misere: bool, stored: Any) -> None:
    """Winning moves are stored as display texts, which depend on how the form was built
    (``*2+*2`` or its expanded set, cut with ``...`` past a length): compare the forms they
    name, by store id, with the winning moves of the rebuilt form; a cut text is compared by
    the number of moves only."""
    from cgtalg.core.notation import format_game, parse
    from cgtalg.misere.outcome import misere_winning_moves
    from cgtalg.normal.grundy import normal_winning_moves

    store = run.store
    moves = misere_winning_moves(g) if misere else normal_winning_moves(g)
    fresh_text = [format_game(m, max_chars=60) for m in moves]
    if not isinstance(stored, list) or len(stored) != len(moves) or not all(isinstance(t, str) for t in stored):
        run.mismatch("form_properties", key, stored, fresh_text)
        return
    with store._transaction() as conn:
        fresh_ids = {m.id for m in moves}
        fresh_sids = {store._stored_form_id(conn, m) for m in moves} - {None}
        for text in stored:
            if text.endswith("..."):
                continue
            try:
                named = parse(text)
                ok = named.id in fresh_ids or store._stored_form_id(conn, named) in fresh_sids
            except (CgtalgError, ValueError, TypeError):
                ok = False
            if not ok:
                run.problem("form_properties", key, f"stored winning move {shorten(text, QUOTE)} is not a winning move "
                                                    f"of the form; recomputed {shorten(json.dumps(fresh_text), QUOTE)}",
                            text, fresh_text)
                return


# -- relations ---------------------------------------------------------------------------------
def check_relations(run: Verification) -> None:
    """Re-run the proof checker on stored equivalence verdicts (module docstring)."""
    fr = form_relations.c
    rows = run.choose(stream_rows(run.store, [fr.form_id, fr.other_id, fr.name, fr.value, fr.algorithm],
                                  [fr.form_id, fr.other_id, fr.name]),
                      lambda r: r.name, "form_relations", share=None)  # every relation carries its proof
    run.checked.setdefault("form_relations", 0)
    for row in rows:
        run.check_time("relations")
        if run.stale("form_relations", row.name, row.algorithm):
            continue
        key = f"forms ({row.form_id}, {row.other_id}), relation {row.name!r}"
        value = _json(run, "form_relations", key, row.value, dict)
        run.count("form_relations")
        if value is _BAD:
            continue
        if row.name not in ("misere_equivalent", "normal_equivalent"):
            run.skip("form_relations", f"no checker known for relation {row.name!r}")
            continue
        _check_equivalence(run, key, row, value)


def _check_equivalence(run: Verification, key: str, row: Any, value: dict) -> None:
    from cgtalg.core.notation import parse
    from cgtalg.misere.proof import check_proof

    cert = value.get("certificate")
    if not isinstance(cert, dict):
        run.problem("form_relations", key, "no certificate stored with the verdict")
        return
    if value.get("holds") != cert.get("holds"):
        run.problem("form_relations", key, f"the verdict holds={value.get('holds')!r} is not the certificate's "
                                           f"holds={cert.get('holds')!r}")
        return
    if bool(cert.get("misere")) != (row.name == "misere_equivalent"):
        run.problem("form_relations", key, f"a {row.name} row holds a certificate with misere={cert.get('misere')!r}")
        return
    try:
        ok, reasons = check_proof(cert, explain=True)
    except CgtalgError as exc:
        run.problem("form_relations", key, f"the certificate is malformed: {shorten(str(exc), 160)}")
        return
    if not ok:
        run.problem("form_relations", key, "the proof checker rejects the certificate: "
                                           + shorten("; ".join(reasons), 240))
        return
    try:
        with run.store._transaction() as conn:
            ids = (run.store._stored_form_id(conn, parse(str(cert["g"]))),
                   run.store._stored_form_id(conn, parse(str(cert["h"]))))
    except (CgtalgError, KeyError, ValueError, TypeError) as exc:
        run.problem("form_relations", key, f"the certificate's games cannot be read: {shorten(str(exc), 160)}")
        return
    if ids != (row.form_id, row.other_id):
        run.problem("form_relations", key, f"the certificate proves a claim about forms {ids}, not about this row's forms")
        return
    run.count("proofs_rechecked")


_BAD = object()


def _json(run: Verification, table: str, key: str, text: Any, kind: type | None = None) -> Any:
    """``text`` read as JSON, or ``_BAD`` after naming the row."""
    try:
        value = json.loads(text)
    except (TypeError, ValueError) as exc:
        run.problem(table, key, f"value {shorten(str(text), 60)} is not valid JSON ({exc})")
        return _BAD
    if kind is not None and not isinstance(value, kind):
        run.problem(table, key, f"value {shorten(str(text), 60)} is not a JSON object")
        return _BAD
    return value
