"""Misère quotients in the store: checkpoints of the construction, re-verified when loaded.

A quotient state (the reduced ``Q_n`` as multiplication table, P-portion and Φ for heaps
``0..n``; the certified period of Φ when final) is kept as the metadata of the store's
sequence ``quotient:<game>`` (one mutable JSON record per ruleset in the existing
``sequences`` table; no value rows), under the entry ``misere_quotient``::

    {"format": 1, "game": "0.123", "top": 14, "order": 20, "final": true, "period": [4, 5],
     "dtype": "u1", "table": "<base64 of zlib of the row-major table>", "P": "01001...",
     "phi": [0, 1, ...], "seconds": 0.4, "presentation": "⟨a,b,c | ...⟩",
     "p_portion": ["a", ...]}

Nothing read from the store is trusted. Loading checks the structure (a square table with
identity ``0``, commutative; associative by Light's test over the images of the heaps, which
generate it; Φ(0) = 1 and every heap without options maps to 1; ``1 ∉ P``) and then runs the
exact verification :func:`cgtalg.quotients.pretension.verify_pretension` against the ruleset's
own moves (recomputed from its definition, never read from the store: no stored Grundy or
misère value enters the check), which proves the stored table predicts every position of heaps
``<= n`` (module docstring of :mod:`cgtalg.quotients.construct`); the period is recomputed from Φ
(the stored ``period``, ``presentation`` and ``p_portion`` are never read back), and the
stored claim ``final`` must agree with it. The check runs under a
:class:`~cgtalg.budget.Deadline` (memory), and a table that cannot fit is refused before it
is inflated. A state that fails any check raises :class:`~cgtalg.errors.StoreCorruptError`
naming the row (sequence ``quotient:<game>``, entry ``misere_quotient``): a corrupted or
tampered record, or one written for a different ruleset of the same name. (A tampered record
that still passes the verification is a correct quotient: the check is a proof, not a
checksum.)

Beside it, the entry ``misere_quotient_rays`` may hold a proof that the next partial quotient
is infinite: a verified ray pretension with its order witness
(:func:`cgtalg.quotients.rays.encode_ray`), written when the counting strategy finds one.
It is not trusted either: :func:`check_rays_record` decodes it, verifies it against the
ruleset's own moves and recomputes the witness; a record that fails raises
:class:`~cgtalg.errors.StoreCorruptError`. A stored proof stops a later construction at once
(:func:`cgtalg.quotients.construct.misere_quotient`) and answers the positions of the heaps it
covers (:func:`cgtalg.quotients.play.rays_for`). Decoding refuses generator columns that do not
commute (as maps on ``R``), and a heap without moves that does not map to the identity is
refused before the verification. :func:`ray_certificate` exports it as a certificate that
``cgtalg check`` reads (:mod:`cgtalg.quotients.infinite`).
"""

from __future__ import annotations

import base64
import time
import warnings
import zlib
from typing import Any

from cgtalg.core.lazynp import np

from cgtalg.budget import Deadline, check_fits
from cgtalg.errors import ArgumentError, ComputationLimitError, RulesetFactError, StoreCorruptError, StoreError
from cgtalg.quotients import kernel as quotient_kernel
from cgtalg.quotients.pretension import (FiniteMonoid, Pretension, _reduce, table_bytes, table_from_generators,
                                         verify_pretension)
from cgtalg.quotients.record import (  # noqa: F401 - the record's names, served from here too
    COUNTING, ENTRY, FORMAT, PRESENTATION_ORDER, RAYS, RULE, _table_text, encode_record, quotient_key)
from cgtalg.quotients.state import (
    QuotientState,
    _game_name,
    _heap_options,
    certified_misere_period,
    misere_period_bound,
)

__all__ = ["quotient_key", "Checkpointer", "load_quotient_state", "save_quotient_state",
           "check_monoid", "check_quotient_claim", "FORMAT", "ENTRY", "RAYS", "check_rays_record",
           "ray_certificate", "COUNTING", "RULE", "encode_level", "encode_record", "check_level_record", "table_from_columns",
           "PRESENTATION_ORDER"]


def _encode(state: Any, name: str) -> dict:
    pre = state.pre
    if state.tail:
        # final by the normal tail: the record holds the verified Q_N and the tail's statement;
        # reading it verifies Q_N and proves the tail again (cgtalg.quotients.tail.recheck_tail)
        N = int(state.tail["verified_to"])
        part = QuotientState(_reduce(Pretension(pre.monoid, pre.P, list(pre.phi[: N + 1])), None), None,
                             state.seconds)
        rec = _encode(part, name)
        rec["final"], rec["tail"], rec["final_order"] = True, dict(state.tail), int(pre.monoid.size)
        return rec
    return encode_record(name, state.top, state.period, pre.monoid.table, pre.P, pre.phi, state.seconds,
                         lambda: state.quotient(name, None if state.final else state.top))


def _table_of(rec: dict, order: int, what: str) -> np.ndarray:
    """The table of a record (``dtype``, ``table``), refused up front when it cannot fit."""
    dtype = str(rec["dtype"])
    if dtype not in ("u1", "u2", "u4"):
        raise ValueError(f"dtype {dtype!r}")
    check_fits(table_bytes(order, 2), f"re-verifying {what} (order {order:,})")
    inflate = zlib.decompressobj()
    raw = inflate.decompress(base64.b64decode(rec["table"], validate=True), order * order * 4 + 1)
    if inflate.unconsumed_tail:
        raise ValueError(f"the table is longer than order {order} allows")
    table = np.frombuffer(raw, dtype="<" + dtype).astype(np.int64)
    if table.size != order * order:
        raise ValueError(f"{table.size} table entries for order {order}")
    return table.reshape(order, order)


def table_from_columns(gens: list[int], cols: np.ndarray, order: int) -> np.ndarray | str:
    """The multiplication table of the monoid of order ``order`` (identity 0) whose generators
    ``gens`` act by the columns ``cols[i] = x ↦ x·gens[i]``
    (:func:`cgtalg.quotients.pretension.table_from_generators`); a text when the columns do not
    reach every element. Whether it is a commutative monoid is for :func:`check_monoid` to say."""
    try:
        return table_from_generators([np.asarray(c, dtype=np.int32) for c in cols], order)
    except AssertionError as exc:
        return str(exc)


def encode_level(heap: int, copies: int, cand: Pretension, params: dict, levels: list, seconds: float) -> dict:
    """The record of a passing counting level (:mod:`cgtalg.quotients.count`): its reduced
    candidate for heaps ``0 .. heap`` (right for every position with at most ``copies`` copies of
    ``heap``) as the columns of its generators (the table is rebuilt from them: a few megabytes
    where the table would take hundreds), the freed heaps' factors, the levels proved so far and
    the seconds spent counting."""
    gens = sorted(set(int(x) for x in cand.phi) - {0})
    t = cand.monoid.table
    cols = np.stack([t[:, g] for g in gens]) if gens else np.zeros((0, t.shape[0]), dtype=np.int32)
    dtype, text = _table_text(cols)
    return {"format": FORMAT, "heap": int(heap), "copies": int(copies), "order": int(cand.monoid.size),
            "gens": gens, "dtype": dtype, "columns": text, "P": "".join("1" if b else "0" for b in cand.P),
            "phi": [int(x) for x in cand.phi],
            "params": {str(h): [int(i), int(p)] for h, (i, p) in sorted(params.items())},
            "levels": [lev.to_dict() for lev in levels], "seconds": round(float(seconds), 3)}


def check_level_record(ruleset: Any, rec: Any, heap: int, max_states: int, deadline: Deadline | None = None
                       ) -> Any:
    """A stored counting level of ``heap`` as ``(CountStart, seconds)``
    (:class:`~cgtalg.quotients.count.CountStart`), ``None`` when the record is of another heap,
    or a text saying why it is refused. Nothing is trusted: the table is rebuilt from the
    generators' columns and checked to be a commutative monoid (:func:`check_monoid`), and the
    candidate is verified against the ruleset's own moves on every position with at most
    ``copies`` copies of ``heap`` (the bound the level claims); the earlier levels' figures are
    kept as recorded."""
    from cgtalg.quotients.count import CountLevel, CountStart

    if not isinstance(rec, dict) or rec.get("format") != FORMAT:
        return "unknown record format"
    try:
        if int(rec["heap"]) != heap:
            return None
        copies, order = int(rec["copies"]), int(rec["order"])
        if copies < 0 or order < 1:
            raise ValueError(f"copies {copies}, order {order}")
        dtype = str(rec["dtype"])
        if dtype not in ("u1", "u2", "u4"):
            raise ValueError(f"dtype {dtype!r}")
        gens = [int(g) for g in rec["gens"]]
        if any(not 0 < g < order for g in gens) or len(set(gens)) != len(gens):
            raise ValueError("generators outside the table")
        check_fits(table_bytes(order, 2), f"re-verifying a stored counting level of heap {heap} (order {order:,})")
        inflate = zlib.decompressobj()
        raw = inflate.decompress(base64.b64decode(rec["columns"], validate=True), len(gens) * order * 4 + 1)
        cols = np.frombuffer(raw, dtype="<" + dtype).astype(np.int64)
        if cols.size != len(gens) * order or (cols.size and (cols.min() < 0 or cols.max() >= order)):
            raise ValueError("the generator columns do not fit the order")
        cols = cols.reshape(len(gens), order)
        ptext = str(rec["P"])
        if len(ptext) != order or set(ptext) - {"0", "1"}:
            raise ValueError("P is not a 0/1 string of the order's length")
        P = np.array([c == "1" for c in ptext], dtype=bool)
        phi = [int(x) for x in rec["phi"]]
        if len(phi) != heap + 1 or any(x != 0 and x not in gens for x in phi) or sorted(set(phi) - {0}) != gens:
            raise ValueError(f"Φ is not a map of heaps 0..{heap} onto the generators")
        params = {int(h): (int(v[0]), int(v[1])) for h, v in dict(rec.get("params") or {}).items()}
        levels = [CountLevel(**{k: type_(d[k]) for k, type_ in _LEVEL_FIELDS}) for d in rec.get("levels") or []]
        seconds = float(rec.get("seconds") or 0.0)
    except (KeyError, TypeError, ValueError, zlib.error, base64.binascii.Error) as exc:
        return f"unreadable record ({exc})"
    if P[0]:
        return "the identity (the empty position, an N-position) is in P"
    table = table_from_columns(gens, cols, order)
    if isinstance(table, str):
        return table
    why = check_monoid(table, gens)
    if why is not None:
        return why
    options = [_heap_options(ruleset, h) for h in range(heap + 1)]
    for h in range(heap + 1):
        if not options[h] and phi[h] != 0:
            return f"heap {h} has no move but Φ({h}) is not the identity"
    cand = Pretension(FiniteMonoid(table), P, phi)
    fail = verify_pretension(cand, options, max_states, deadline, bound=(heap,) * (copies + 1))
    if fail is not None:
        return (f"it fails the exact verification: it predicts the wrong outcome for the position "
                f"{' + '.join(map(str, fail)) or '0'}")
    return CountStart(copies, cand, params, levels), seconds


_LEVEL_FIELDS = (("heap", int), ("copies", int), ("order", int), ("p_count", int), ("lower_bound", int),
                 ("distinct_powers", int), ("rounds", int), ("seconds", float))


def _bad(name: str, why: str) -> StoreCorruptError:
    return StoreCorruptError(
        f"the stored misère quotient of {name} (store row: sequence 'quotient:{name}', metadata "
        f"entry {ENTRY!r}) is rejected: {why}. The record is corrupt, was "
        f"tampered with, or belongs to another ruleset named {name!r}; recompute it with "
        "misere_quotient(..., resume=False) (CLI: cgtalg quotient GAME --fresh), which replaces it")


#: the entries of one block of rows :func:`check_monoid` compares at a time
BLOCK = 1 << 24


def check_monoid(table: np.ndarray, gens: list[int]) -> str | None:
    """Why ``table`` is not a commutative monoid with identity 0 generated by ``gens`` (None
    when it is). Associativity by Light's test: the elements ``a`` with ``(xa)y = x(ay)`` for
    all ``x, y`` are closed under products, so checking the generators suffices."""
    n = table.shape[0]
    if table.ndim != 2 or table.shape[1] != n or n == 0:
        return f"the table has shape {table.shape}, not square"
    if table.min() < 0 or table.max() >= n:
        return "the table has entries outside 0..order-1"
    ar = np.arange(n)
    if not (np.array_equal(table[0], ar) and np.array_equal(table[:, 0], ar)):
        return "element 0 is not the identity"
    step = max(1, BLOCK // n)           # rows per block: |Q|² temporaries would not fit at order 20 000
    for lo in range(0, n, step):
        if not np.array_equal(table[lo:lo + step], table[:, lo:lo + step].T):
            return "the table is not commutative"
    seen = np.zeros(n, dtype=bool)
    seen[0] = True
    frontier = np.array([0])
    while frontier.size:
        nxt = np.unique(table[np.ix_(frontier, np.asarray(gens, dtype=np.int64))]) if gens else frontier[:0]
        nxt = nxt[~seen[nxt]]
        seen[nxt] = True
        frontier = nxt
    if not seen.all():
        return f"{int((~seen).sum())} elements are not products of the heaps' images"
    for a in gens:
        # (x a) y  versus  x (a y), for all x, y (by blocks of x)
        for lo in range(0, n, step):
            if not np.array_equal(table[table[lo:lo + step, a]], table[lo:lo + step][:, table[a]]):
                return f"the table is not associative (Light's test fails at element {a})"
    return None


def _decode(rec: Any, name: str, ruleset: Any, max_states: int) -> Any:
    if not isinstance(rec, dict) or rec.get("format") != FORMAT:
        raise _bad(name, "unknown record format")
    try:
        order, top = int(rec["order"]), int(rec["top"])
        if order < 1 or top < 0:
            raise ValueError(f"order {order}, top {top}")
        # refuse up front a table that cannot fit (before inflating it)
        table = _table_of(rec, order, f"the stored misère quotient of {name}")
        ptext = str(rec["P"])
        if len(ptext) != order or set(ptext) - {"0", "1"}:
            raise ValueError("P is not a 0/1 string of the order's length")
        P = np.array([c == "1" for c in ptext], dtype=bool)
        phi = [int(x) for x in rec["phi"]]
        if len(phi) != top + 1:
            raise ValueError(f"Φ has {len(phi)} entries for heaps 0..{top}")
        seconds = float(rec.get("seconds") or 0.0)
        tail = rec.get("tail")
        if tail is not None and not isinstance(tail, dict):
            raise ValueError("the normal tail is not a mapping")
        claims_final = bool(rec.get("final")) and tail is None
    except (KeyError, TypeError, ValueError, zlib.error, base64.binascii.Error) as exc:
        raise _bad(name, f"unreadable record ({exc})") from None
    pre, period = _verify(ruleset, name, table, P, phi, claims_final, max_states, lambda why: _bad(name, why))
    deadline = Deadline(None)
    # a record written by cgtalg is reduced and canonically numbered already
    if not (quotient_kernel.available() and quotient_kernel.is_reduced(pre)):
        pre = _reduce(pre, None, deadline)
    if tail is not None:
        from cgtalg.quotients.tail import BudgetShort, recheck_tail

        bound = misere_period_bound(ruleset)
        got = recheck_tail(ruleset, pre, tail, bound, seconds) if bound is not None else "no bound applies"
        if isinstance(got, BudgetShort):
            # not proved false: a verified Q_N, and the construction goes on from it
            warnings.warn(f"the stored misère quotient of {name} is final by the normal tail, which could not "
                          f"be proved again now ({got}); it is used as Q_{top}", RuntimeWarning, stacklevel=3)
            return QuotientState(pre, None, seconds)
        if isinstance(got, str):
            raise _bad(name, f"it claims to be final by the normal tail, which does not hold: {got}")
        return got
    return QuotientState(pre, period, seconds)


def _verify(ruleset: Any, name: str, table: np.ndarray, P: np.ndarray, phi: list[int], claims_final: bool,
            max_states: int, bad: Any) -> tuple[Pretension, tuple[int, int] | None]:
    """The exact verification of a quotient's data against ``ruleset``'s own moves: the monoid,
    the P- and N-conditions for heaps ``0..len(phi)-1`` and, when it ``claims_final``, the misère
    periodicity theorem. Returns the pretension and the certified period; raises ``bad(why)``."""
    order, top = table.shape[0], len(phi) - 1
    if any(not 0 <= x < order for x in phi):
        raise bad("Φ has elements outside the table")
    if P[0]:
        raise bad("the identity (the empty position, an N-position) is in P")
    gens = sorted(set(phi) - {0})
    why = check_monoid(table, gens)
    if why is not None:
        raise bad(why)
    deadline = Deadline(None)
    pre = Pretension(FiniteMonoid(table), P, phi)
    digits = quotient_kernel.take_break_digits(ruleset) if quotient_kernel.available() else None
    try:
        if digits is not None:
            # the option images straight from the code's digits (its own moves), in C
            S = quotient_kernel.tb_images(pre.monoid, phi, digits)
            for h in range(top + 1):
                if not S[h] and phi[h] != 0:
                    raise bad(f"heap {h} has no move but Φ({h}) is not the identity")
            fail = quotient_kernel.verify(pre, None, max_states, deadline, S=S)
        else:
            options = []
            for h in range(top + 1):     # the ruleset's own moves: nothing of the record is trusted
                deadline.check(f"re-verifying the stored misère quotient of {name} (heap {h})")
                options.append(_heap_options(ruleset, h))
            for h in range(top + 1):
                if not options[h] and phi[h] != 0:
                    raise bad(f"heap {h} has no move but Φ({h}) is not the identity")
            fail = verify_pretension(pre, options, max_states, deadline)
    except ComputationLimitError as exc:
        raise ComputationLimitError(f"re-verifying the stored misère quotient of {name}: {exc}") from None
    if fail is not None:
        raise bad("it fails the exact verification: it predicts the wrong outcome for "
                         f"the position {' + '.join(map(str, fail)) or '0'}")
    try:
        bound = misere_period_bound(ruleset)     # (k, h): the facts the ruleset declares
    except RulesetFactError as exc:
        if claims_final:
            # the claim cannot be checked without the facts: a verified Q_top, not final
            warnings.warn(f"the stored misère quotient of {name} ({quotient_key(ruleset)}) is marked final, "
                          f"which cannot be checked: {exc}; it is used as Q_{top}", RuntimeWarning, stacklevel=4)
        return pre, None
    period = certified_misere_period(phi, *bound) if bound is not None else None
    if claims_final and period is None:
        if bound is None or certified_misere_period(phi, bound[0], 2, legacy=True) is None:
            raise bad("it claims to be final but Φ is not certified periodic")
        # written under the bound of cgtalg before issue 20 (n0 where max(n0, 1) belongs):
        # a verified Q_top, not final; the construction goes on from it
        warnings.warn(f"the stored misère quotient of {name} ({quotient_key(ruleset)}) was "
                      "marked final under an older periodicity bound; it is used as Q_"
                      f"{top} and extended", RuntimeWarning, stacklevel=4)
    return pre, period


def check_quotient_claim(ruleset: Any, table: Any, P: Any, phi: Any, final: bool,
                         max_states: int = 2_000_000) -> list[str]:
    """Re-verify a misère quotient as ``cgtalg quotient --json`` prints it (its ``table``, the
    P-portion ``P`` as booleans, ``phi_elements``, ``final``) against ``ruleset``'s own moves:
    the table is a commutative monoid generated by the heaps' images, the pretension passes the
    exact P- and N-conditions on heaps ``0..len(phi)-1`` (Plambeck & Siegel 2008), and a final
    quotient's Φ is certified periodic by the misère periodicity theorem. Returns what was
    checked.

    Raises
    ------
    CertificateError
        With the reason, when any of it fails or the data are malformed.
    RulesetFactError
        When it claims to be final and ``ruleset`` does not declare a fact the periodicity
        theorem needs.
    """
    from cgtalg.errors import CertificateError

    name = _game_name(ruleset)
    try:
        t = np.asarray(table, dtype=np.int64)
        Pb = np.asarray([bool(x) for x in P], dtype=bool)
        ph = [int(x) for x in phi]
        if t.ndim != 2 or t.shape[0] != t.shape[1] or t.shape[0] < 1 or len(Pb) != t.shape[0] or not ph:
            raise ValueError("the table is not square, or P does not match its order")
    except (TypeError, ValueError) as exc:
        raise CertificateError(f"{name}: malformed quotient data ({exc})") from None
    check_fits(table_bytes(t.shape[0], 2), f"re-verifying the misère quotient of {name} (order {t.shape[0]:,})")
    if Pb[0]:
        raise CertificateError(f"{name}: the identity (the empty position, an N-position) is in P")
    if final:
        misere_period_bound(ruleset)  # a final claim needs the theorem: RulesetFactError without its facts
    pre, period = _verify(ruleset, name, t, Pb, ph, final, max_states,
                          lambda why: CertificateError(f"{name}: {why}"))
    done = [f"order {t.shape[0]}: the table is a commutative monoid generated by the heaps' images",
            f"P- and N-conditions hold for heaps 0..{len(ph) - 1} on the code's own moves"]
    if final:
        if period is None:  # only an older, weaker bound certifies it
            raise CertificateError(f"{name}: it claims to be final but Φ is not certified periodic")
        n0, p = period
        done.append(f"final: Φ certified periodic from heap {n0} with period {p} "
                    "(misère periodicity theorem, Plambeck & Siegel 2008)")
    return done


def check_rays_record(ruleset: Any, rec: Any, max_states: int = 50_000_000) -> Any:
    """Why the stored ray record ``rec`` of ``ruleset`` is not a proof that ``Q_v`` is infinite
    (a text), or ``(ray pretension, witness, top)`` when it is: decoded (the generator columns
    must commute, :func:`~cgtalg.quotients.rays.commute_problem`), every heap without
    moves must map to the identity, verified against the ruleset's own moves for every heap
    ``<= top`` (:func:`verify_ray_pretension`), and the order witness recomputed
    (:func:`order_witness`: the stored one is not read)."""
    from cgtalg.quotients.rays import decode_ray, moveless_problem, order_witness, verify_ray_pretension

    if not isinstance(rec, dict):
        return "not a record"
    if "linear" in rec:
        return _check_linear_record(ruleset, rec, max_states)
    try:
        ray, _stored_witness, top = decode_ray(rec)
    except ValueError as exc:
        return str(exc)
    options = [_heap_options(ruleset, h) for h in range(top + 1)]
    why = moveless_problem(ray, options)
    if why is not None:
        return why
    try:
        fail = verify_ray_pretension(ray, options, max_states, Deadline(None))
    except (ArgumentError, ComputationLimitError) as exc:
        return f"its verification stopped: {exc}"
    if fail is not None:
        return f"it does not verify ({fail})"
    witness = order_witness(ray)
    if witness is None:
        return "it has no order witness, so it proves no infinite quotient"
    return ray, witness, top


def _check_linear_record(ruleset: Any, rec: dict, max_states: int) -> Any:
    """:func:`check_rays_record` of a stored linear ray (``{"linear": ..., "witness": ...}``,
    :mod:`cgtalg.quotients.rays_linear`): decoded, verified on the ruleset's own moves, its
    witness recomputed (the stored one is not read); ``(linear ray, witness, v)`` or why not."""
    from cgtalg.quotients.rays_linear import decode_linear, linear_witness, verify_linear_ray

    try:
        lr = decode_linear(rec["linear"])
    except (TypeError, ValueError) as exc:
        return str(exc)
    fail = verify_linear_ray(lr, [_heap_options(ruleset, h) for h in range(lr.v + 1)], max_states)
    if fail is not None:
        return f"it does not verify ({fail})"
    witness = linear_witness(lr)
    if witness is None:
        return "it has no order witness, so it proves no infinite quotient"
    return lr, witness, lr.v


def ray_certificate(ruleset: Any, store: Any, max_states: int = 50_000_000) -> dict | None:
    """The certificate that a misère quotient of ``ruleset`` is infinite, from the proof stored
    beside its last finite quotient (a JSON-ready document,
    :mod:`cgtalg.quotients.infinite`; ``cgtalg check`` reads it), or None when no proof
    is stored. The stored proof is re-verified first (:meth:`Checkpointer.load_rays`), and the
    last finite quotient ``Q_{v−1}`` (re-verified too) gives the ``last_finite`` claims when
    it is stored with exactly those heaps.

    Raises
    ------
    StoreCorruptError
        When the stored proof, or the finite quotient beside it, fails a check.
    """
    from cgtalg.quotients.infinite import infinite_certificate

    ck = Checkpointer(ruleset, store, max_states)
    got = ck.load_rays()
    if got is None:
        return None
    ray, witness, top = got
    from cgtalg.quotients.rays_linear import LinearRay, linear_certificate

    if isinstance(ray, LinearRay):               # no last_finite claim (the referee refuses one)
        return linear_certificate(ck.name, ray, witness)
    last = None
    st = ck.load()
    if st is not None and not st.final and st.top == ray.v - 1 and ray.counted is None:
        q = st.quotient(ck.name, st.top)
        last = {"heap": st.top, "order": q.order, "p_count": len(q.p_portion)}
    return infinite_certificate(ck.name, ray, witness, top, last)


def load_quotient_state(ruleset: Any, store: Any, max_states: int = 2_000_000) -> Any:
    """The verified quotient state stored for ``ruleset`` (None when nothing is stored).

    Raises
    ------
    StoreCorruptError
        When the stored record fails a check (module docstring).
    """
    return Checkpointer(ruleset, store, max_states).load()


def save_quotient_state(ruleset: Any, store: Any, state: Any) -> None:
    """Write ``state`` for ``ruleset`` unless the store already knows as much."""
    ck = Checkpointer(ruleset, store)
    ck.write(state)


def _as_store(store: Any) -> Any:
    """``store`` when it is an opened store (duck-typed: ``sequence_meta`` and
    ``put_sequence_meta``), None for None or False."""
    if store is None or store is False:
        return None
    if not (callable(getattr(store, "sequence_meta", None))
            and callable(getattr(store, "put_sequence_meta", None))):
        raise StoreError(f"a misère quotient is stored in an opened store, not a {type(store).__name__} "
                         "(open a URL with cgtalg.store.open_store first)")
    return store


class Checkpointer:
    """Reads and writes one ruleset's quotient record; writes at most every few seconds.

    ``store`` is an opened store (anything with ``sequence_meta`` and ``put_sequence_meta``), or
    None for none."""

    def __init__(self, ruleset: Any, store: Any, max_states: int = 2_000_000, replace: bool = False) -> None:
        self.ruleset = ruleset
        self.name = _game_name(ruleset)
        self.store = _as_store(store)
        self.key = quotient_key(ruleset)
        self.max_states = max_states
        self.replace = replace           # overwrite what is stored even if it claims more
        self.stored_rank: tuple[bool, int] | None = None
        self._pending: Any = None
        self._last = time.monotonic()
        self._keep_rays = False          # a proof written in this run survives a fresh state
        self._keep_level = False         # so does a counting level written in this run
        self._stored_verified = False    # the stored state was read and verified by this one

    @property
    def active(self) -> bool:
        return self.store is not None

    def _record(self) -> dict | None:
        meta = self.store.sequence_meta(self.key)
        rec = (meta or {}).get(ENTRY)
        if rec is None:
            return None
        try:
            self.stored_rank = (bool(rec.get("final")), int(rec.get("top")))
        except (AttributeError, TypeError, ValueError):
            self.stored_rank = None
        return rec

    def load(self, better_than: tuple[bool, int] | None = None) -> Any:
        """The verified stored state, or None (nothing stored, or it claims no more than
        ``better_than``)."""
        if self.store is None:
            return None
        rec = self._record()
        if rec is None:
            return None
        if better_than is not None and self.stored_rank is not None and self.stored_rank <= better_than:
            return None
        st = _decode(rec, self.name, self.ruleset, self.max_states)
        self.stored_rank = st.rank()
        self._stored_verified = True
        return st

    def load_rays(self) -> tuple[Any, tuple[int, int], int] | None:
        """The stored proof that a partial quotient is infinite, re-verified: ``(ray pretension,
        order witness, top heap)``, or None when none is stored. Raises
        :class:`~cgtalg.errors.StoreCorruptError` when it fails a check."""
        if self.store is None:
            return None
        rec = (self.store.sequence_meta(self.key) or {}).get(RAYS)
        if rec is None:
            return None
        why = check_rays_record(self.ruleset, rec, self.max_states)
        if isinstance(why, str):
            raise StoreCorruptError(
                f"the stored proof that a misère quotient of {self.name} is infinite (store row: sequence "
                f"{self.key!r}, metadata entry {RAYS!r}) is rejected: {why}. Recompute it with "
                "misere_quotient(..., strategy='counting', resume=False) (CLI: --fresh), which replaces it")
        return why

    def write_rays(self, ray: Any, witness: tuple[int, int], top: int) -> None:
        """Store a verified ray pretension with its order witness, beside the finite state."""
        if self.store is None:
            return
        from cgtalg.quotients.rays import encode_ray

        self.flush()
        meta = dict(self.store.sequence_meta(self.key) or {})
        from cgtalg.quotients.rays_linear import LinearRay, encode_linear

        if isinstance(ray, LinearRay):           # a linear ray (cgtalg.quotients.rays_linear)
            meta[RAYS] = {"linear": encode_linear(ray), "witness": dict(witness)}
        else:
            meta[RAYS] = encode_ray(ray, witness, top)
        self.store.put_sequence_meta(self.key, meta, replace=True)
        self._keep_rays = True

    def load_rule(self) -> dict | None:
        """The stored largest-heap rule (a certificate document, :data:`RULE`), unchecked: the
        caller has the referee check it (:func:`cgtalg.ops.largest_heap.stored_rule`)."""
        if self.store is None:
            return None
        rec = (self.store.sequence_meta(self.key) or {}).get(RULE)
        return rec if isinstance(rec, dict) else None

    def write_rule(self, doc: dict) -> None:
        """Store a largest-heap rule the referee accepted, beside the quotient record."""
        if self.store is None:
            return
        self.flush()
        meta = dict(self.store.sequence_meta(self.key) or {})
        meta[RULE] = doc
        self.store.put_sequence_meta(self.key, meta, replace=True)

    def has_level(self, heap: int) -> bool:
        """Whether a counting level of ``heap`` is stored (not yet re-verified)."""
        if self.store is None:
            return False
        rec = (self.store.sequence_meta(self.key) or {}).get(COUNTING)
        return isinstance(rec, dict) and rec.get("heap") == heap

    def load_level(self, heap: int, deadline: Deadline | None = None) -> Any:
        """The stored counting level of ``heap``, re-verified (:func:`check_level_record`):
        ``(CountStart, seconds)``, or None when none is stored for that heap. A record that
        fails a check is dropped with a warning (it only saves time: counting restarts)."""
        if self.store is None:
            return None
        rec = (self.store.sequence_meta(self.key) or {}).get(COUNTING)
        if rec is None:
            return None
        try:
            got = check_level_record(self.ruleset, rec, heap, self.max_states, deadline)
        except ComputationLimitError:
            if deadline is not None:
                deadline.check(f"misère quotient: re-verifying the stored counting level of heap {heap}")
            return None
        if isinstance(got, str):
            warnings.warn(f"the stored counting level of {self.name} (sequence {self.key!r}, entry {COUNTING!r}) "
                          f"is rejected and counting restarts: {got}", RuntimeWarning, stacklevel=3)
            return None
        return got

    def write_level(self, heap: int, copies: int, cand: Any, params: dict, levels: list, seconds: float) -> None:
        """Store a passing counting level of ``heap`` (the last one replaces the one before)."""
        if self.store is None:
            return
        self.flush()
        meta = dict(self.store.sequence_meta(self.key) or {})
        meta[COUNTING] = encode_level(heap, copies, cand, params, levels, seconds)
        self.store.put_sequence_meta(self.key, meta, replace=True)
        self._keep_level = True

    def write(self, state: Any) -> None:
        if self.store is None:
            return
        if not self.replace:
            if self.stored_rank is None:
                self._record()
            if self.stored_rank is not None and self.stored_rank > state.rank():
                return
        if not self.replace and self.stored_rank == state.rank() and self._stored_verified:
            return                         # the stored state is this one's rank, verified on loading
        entry = _encode(state, self.name)
        if not self.replace and self.stored_rank == state.rank() and self._stored_holds(entry):
            return
        meta = {ENTRY: entry}
        old = self.store.sequence_meta(self.key) or {}
        rays = old.get(RAYS)
        if rays is not None and (self._keep_rays or not self.replace):
            meta[RAYS] = rays              # a proof of infinitude stays beside the finite state
        if old.get(RULE) is not None:
            meta[RULE] = old[RULE]         # a largest-heap rule is about every heap: it always stays
        level = old.get(COUNTING)
        if isinstance(level, dict) and (self._keep_level or not self.replace) and level.get("heap") == state.top + 1:
            meta[COUNTING] = level         # counting the next heap: its last level stays
        self.store.put_sequence_meta(self.key, meta, replace=True)
        self.stored_rank = state.rank()
        self._stored_verified = True
        self.replace = False
        self._pending = None
        self._last = time.monotonic()

    def _stored_holds(self, entry: dict) -> bool:
        """Whether the stored state, of the rank of ``entry`` (a verified state's) and not read by
        this checkpointer, may stay: it is ``entry`` but for its time. A process that holds its
        own copy of a state does not load the stored one, which may be corrupt; at equal rank the
        verified copy replaces it (nothing is lost: both claim as much)."""
        rec = (self.store.sequence_meta(self.key) or {}).get(ENTRY)
        if not isinstance(rec, dict):
            return False
        return {k: v for k, v in rec.items() if k != "seconds"} == {k: v for k, v in entry.items() if k != "seconds"}

    def update(self, state: Any, every: float) -> None:
        """Remember ``state``; write it when ``every`` seconds passed since the last write."""
        if self.store is None:
            return
        self._pending = state
        if time.monotonic() - self._last >= every:
            self.write(state)

    def flush(self) -> None:
        if self._pending is not None:
            self.write(self._pending)
