"""Play of heap-game positions: Grundy values, outcomes, winning moves and genera.

These are the algorithms the methods of :class:`~cgtalg.rulesets.heaps.base.HeapRuleset`
delegate to; each takes the ruleset first (networkx's way) and a position (an int is one
heap; any order, zeros allowed).

Normal play (Sprague 1935, Grundy 1939; Winning Ways ch. 4): a position is worth the XOR of
its heaps' Grundy values, and is a P-position iff that nim-sum is 0. Heaps far beyond the
computed values are answered from a period certified by the Guy-Smith periodicity theorem
(:func:`cgtalg.rulesets.heaps.octal_periodicity.periodicity`), with Python ints (``10**100`` is fine).

Misère play (Conway, ONAG ch. 12; Winning Ways ch. 13): from a known misère quotient of the
game when one covers the heaps (:mod:`cgtalg.quotients.play`), else by the memoised
search of :mod:`cgtalg.rulesets.heaps.misere_play`, bounded by ``max_states`` and ``max_seconds``.

A store, where one is given, is an open store object (duck-typed); these functions never
open one.
"""

from __future__ import annotations

import operator
from typing import Any, Iterator

from cgtalg.core.lazynp import int_types, np

from cgtalg.budget import check_max_seconds
from cgtalg.core.game import Game, game, zero
from cgtalg.errors import ComputationLimitError
from cgtalg.rulesets.heaps.grundy_engine import DEFAULT_MAX_BYTES, format_bytes, grundy_engine
from cgtalg.rulesets.heaps.position import (
    DIRECT_LIMIT,
    ENUMERATE_LIMIT,
    HeapMove,
    as_heaps,
    check_count,
    heap_fold,
    heap_list,
)
from cgtalg.rulesets.heaps.genus import heap_genus
from cgtalg.rulesets.protocol import check_store
from cgtalg.rulesets.heaps.small_grundy import SMALL_LIMIT, small_grundy_value, small_moves_to, small_ok

__all__ = [
    "heap_form", "position_form", "heap_genus", "heap_grundy", "heap_grundy_value", "heap_outcome",
    "heap_winning_moves", "heap_misere_grundy", "heap_moves_to", "heap_values_at", "certified_period", "beyond_limit_error",
]


def _name(ruleset: Any) -> str:
    return getattr(ruleset, "name", "heap game")


# -- forms ---------------------------------------------------------------------------------


def heap_form(ruleset: Any, n: int) -> Game:
    """The :class:`cgtalg.Game` form of a single heap of size ``n`` (memoised on the ruleset).

    Its options are the sums of the forms of the heaps each move leaves, so every
    form-level tool (misère canonical forms, equivalence proofs) applies to heaps.

    Examples
    --------
    >>> import cgtalg as cg
    >>> from cgtalg.rulesets.heaps.octal import TakeAndBreak
    >>> cg.grundy(heap_form(TakeAndBreak("0.77"), 4))
    1
    """
    n = check_count(n, "heap size")
    if n > ENUMERATE_LIMIT:
        raise ComputationLimitError(
            f"{_name(ruleset)}: the Game form of a heap of {n} tokens would hold the forms of every smaller "
            f"heap; heaps beyond {ENUMERATE_LIMIT} are refused (grundy_value() and outcome() answer "
            "normal play for heaps of any size)")
    return heap_fold(ruleset, ruleset.__dict__.setdefault("_heap_forms", []), n, zero, operator.add, game)


def position_form(ruleset: Any, heaps: Any) -> Game:
    """The form of a position: the sum of its heaps' forms (:func:`heap_form`)."""
    g = zero
    for h in as_heaps(heaps, _name(ruleset)):
        g = g + heap_form(ruleset, h)
    return g


# -- Grundy values of single heaps ---------------------------------------------------------


def certified_period(ruleset: Any, limit: int | None = None) -> Any:
    """The certified period of ``ruleset`` (a
    :class:`~cgtalg.rulesets.heaps.octal_periodicity.PeriodicityResult`), or ``None``.

    When none is known yet and a periodicity theorem applies, one is searched for on at most
    ``min(default, limit)`` values (a search that found none is not repeated on fewer values).
    """
    from cgtalg.rulesets.heaps.octal_periodicity import default_max_values, periodicity

    if getattr(ruleset, "_period", None) is None and ruleset.certificate() is not None:
        top = default_max_values(ruleset) if limit is None else min(default_max_values(ruleset), limit)
        if top > getattr(ruleset, "_period_searched", 0) and top >= 2:
            periodicity(ruleset, max_values=top)
    return getattr(ruleset, "_period", None)


def _known(eng: Any, period: Any) -> int:
    """Heaps below this are read from the engine: with a certified period, only the values
    the kernels computed (values read from a store answer through the period instead)."""
    return eng.trusted if period is not None else eng.n


def heap_grundy_value(ruleset: Any, n: int, limit: int = DIRECT_LIMIT) -> int:
    """``G(n)`` for a single heap of any size ``n`` (a Python int: ``10**100`` is fine).

    Computed values are read directly; beyond them, a certified period answers exactly
    (``n`` is reduced into the period with Python ints, Guy-Smith periodicity theorem);
    without one, heaps below ``limit`` are computed directly.

    Parameters
    ----------
    ruleset : HeapRuleset
    n : int
        The heap size.
    limit : int
        Heaps at or beyond this size are only answered from a certified period (the
        search for one computes at most ``min(limit, default)`` values, see
        :func:`~cgtalg.rulesets.heaps.octal_periodicity.periodicity`).

    Raises
    ------
    ComputationLimitError
        If ``n >= limit`` and no certified period is known; the message names the range
        computed and how to extend it.

    Examples
    --------
    >>> from cgtalg.rulesets.heaps.octal import TakeAndBreak
    >>> heap_grundy_value(TakeAndBreak("0.77"), 10**100)  # (10**100 - 71) % 12 = 5: G(76)
    1
    """
    n = check_count(n, "heap size")
    limit = check_count(limit, "limit")
    if n < min(limit, SMALL_LIMIT) and _small(ruleset, n):
        return small_grundy_value(ruleset, n)
    eng = grundy_engine(ruleset)
    period = getattr(ruleset, "_period", None)
    if n < _known(eng, period):
        return int(eng.G[n])
    if period is not None:
        return period.value_at(n, eng.G)
    if ruleset.certificate() is not None and (n >= limit or n >= (1 << 12)):
        # look for a period on the values direct computation would need anyway
        top = limit if n >= limit else min(limit, max(n + 1, 1 << 16))
        per = certified_period(ruleset, top)
        if per is not None:
            return per.value_at(n, eng.G)
    if n < limit:
        eng.extend(n + 1)
        return int(eng.G[n])
    raise beyond_limit_error(ruleset, n, limit)


def _small(ruleset: Any, n: int) -> bool:
    """Whether ``G(n)`` is computed in plain Python (:mod:`cgtalg.rulesets.heaps.small_grundy`):
    a small heap of a game that allows it, which the engine does not hold already."""
    if not small_ok(ruleset, n + 1):
        return False
    eng = ruleset.__dict__.get("_engines", {}).get("auto")
    return eng is None or n >= eng.n


def beyond_limit_error(ruleset: Any, n: int, limit: int) -> ComputationLimitError:
    """The error for a heap no certified period and no direct computation can answer."""
    eng = grundy_engine(ruleset)
    head = (f"{_name(ruleset)}: heap {n} is beyond the direct limit of {limit} values and no certified "
            f"period is known; G is computed for heaps 0..{eng.n - 1}")
    if ruleset.certificate() is None:
        return ComputationLimitError(
            head + " and no periodicity theorem applies to this game (periods are only detected), "
            "so only heaps below the limit are answered" + _direct_hint(ruleset, n))
    searched = getattr(ruleset, "_period_searched", 0)
    searched = (f", and the periodicity search over {searched} values certified none" if searched else "")
    return ComputationLimitError(
        head + searched + ": certify a period on more values with periodicity(max_values=...)"
        + _direct_hint(ruleset, n))


def _direct_hint(ruleset: Any, n: int) -> str:
    """``, or pass limit=...`` when computing ``G(n)`` directly fits the memory budget."""
    need = grundy_engine(ruleset).memory_estimate(n + 1) if n < 2**62 else None
    if need is not None and need <= DEFAULT_MAX_BYTES:
        return f", or pass limit={n + 1} (or more) to compute G({n}) directly"
    what = f"about {format_bytes(need)}" if need is not None else "more memory than any machine has"
    return (f" (computing G({n}) directly would need {what}, over the memory budget of "
            f"{format_bytes(DEFAULT_MAX_BYTES)})")


def heap_values_at(ruleset: Any, idx: np.ndarray, base: int = 0, sign: int = 1) -> np.ndarray:
    """Grundy values at the heap sizes ``base + sign * idx`` (``idx`` a non-negative
    ``int64`` array, ``base`` a Python int of any size), via a certified period when they
    are beyond the computed values. Heap sizes past ``int64`` never reach numpy: they are
    reduced into the period with Python ints first."""
    idx = np.asarray(idx, dtype=np.int64)
    base = int(base)
    eng = grundy_engine(ruleset)
    if idx.size == 0:
        return np.zeros(0, dtype=np.int64)
    lo = base + sign * int(idx.max() if sign < 0 else idx.min())
    hi = base + sign * int(idx.min() if sign < 0 else idx.max())
    if hi < _known(eng, getattr(ruleset, "_period", None)):
        return eng.G[base + sign * idx].astype(np.int64)
    per = certified_period(ruleset)
    if per is None:
        if hi >= DIRECT_LIMIT:
            raise beyond_limit_error(ruleset, hi, DIRECT_LIMIT)
        eng.extend(hi + 1)
        return eng.G[base + sign * idx].astype(np.int64)
    n0, p = per.preperiod, per.period
    if lo >= n0:
        # every heap is periodic: G(base + sign*i) = G(n0 + (r0 + sign*i) mod p)
        r0 = (base - n0) % p
        return eng.G[n0 + (r0 + sign * idx) % p].astype(np.int64)
    if hi < 2**62:
        return per.values_at(base + sign * idx, eng.G)
    return np.array([per.value_at(base + sign * int(i), eng.G) for i in idx], dtype=np.int64)


# -- normal play ---------------------------------------------------------------------------


def heap_grundy(ruleset: Any, heaps: Any) -> int:
    """The normal-play Grundy value (nim value) of a position: the XOR of its heaps' values
    (Sprague-Grundy), huge heaps answered from the certified period.

    Examples
    --------
    >>> from cgtalg.rulesets.heaps.octal import TakeAndBreak
    >>> heap_grundy(TakeAndBreak("0.77"), [5, 10**30])
    5
    """
    x = 0
    for h in as_heaps(heaps, _name(ruleset)):
        x ^= heap_grundy_value(ruleset, h)
    return x


def heap_outcome(ruleset: Any, heaps: Any, *, misere: bool = False, store: Any = None,
                 max_states: int | None = None, max_seconds: float | None = None,
                 progress: bool | None = None) -> str:
    """Outcome of a multi-heap position: ``'P'`` (previous player wins) or ``'N'``.

    Normal play: ``'P'`` iff the nim-sum is 0; heaps far beyond the computed values are
    answered from a certified period. ``misere=True``: from a known misère quotient of the
    game when one covers the heaps (computed in this process or stored in ``store``;
    :mod:`cgtalg.quotients.play`), any heap size once it is final; else a memoised
    search over multisets of the heaps' misère classes (:mod:`cgtalg.rulesets.heaps.misere_play`),
    bounded by ``max_states``/``max_seconds`` (:class:`ComputationLimitError` past them), with
    a progress bar, and the answer stored in ``store`` when one is given.

    Examples
    --------
    >>> from cgtalg.rulesets.heaps.octal import TakeAndBreak
    >>> heap_outcome(TakeAndBreak("0.77"), [5, 9, 10**12])
    'N'
    >>> heap_outcome(TakeAndBreak("0.123"), [9, 8, 5, 3], misere=True)   # seed 000, Example 1
    'N'
    """
    if misere:
        from cgtalg.quotients.play import quotient_outcome
        from cgtalg.rulesets.heaps.misere_play import misere_search_outcome

        max_seconds = check_max_seconds(max_seconds)
        store = check_store(store)
        hs = heap_list(heaps, _name(ruleset))
        small = store is not None and sum(hs) <= _SMALL_MISERE_TOKENS
        if small:  # a small question asked before: its answer, without loading the quotient
            hit = _stored_misere_outcome(ruleset, hs, store)
            if hit is not None:
                return hit
        known = quotient_outcome(ruleset, hs, store, max_seconds)   # a known misère quotient covering hs
        if known is not None:
            if small:
                _store_misere_outcome(ruleset, hs, store, known)
            return known
        return misere_search_outcome(ruleset, hs, store, max_states, max_seconds, progress)
    return "P" if heap_grundy(ruleset, heaps) == 0 else "N"


#: positions of at most this many tokens keep their misère outcome in the store as a position
#: answer even when a quotient gave it (``store verify`` re-checks such rows by search), so that
#: asking again reads one row instead of loading and re-checking the quotient
_SMALL_MISERE_TOKENS = 60


def _position_text(heaps: list[int]) -> str:
    return " ".join(map(str, sorted(heaps, reverse=True))) or "0"


def _stored_misere_outcome(ruleset: Any, heaps: list[int], store: Any) -> str | None:
    from cgtalg.rulesets.heaps.genus import store_key

    hit = store.get_position(store_key(ruleset), _position_text(heaps), "misere_outcome")
    return None if hit is None else str(hit)


def _store_misere_outcome(ruleset: Any, heaps: list[int], store: Any, outcome: str) -> None:
    from cgtalg.rulesets.heaps.genus import store_key

    store.put_position(store_key(ruleset), _position_text(heaps), "misere_outcome", outcome)


def stored_misere_answer(ruleset: Any, heaps: list[int], store: Any) -> tuple[str, list] | None:
    """``(outcome, winning moves)`` of a small misère position as the store holds them from an
    earlier question (by search or from a quotient), else None: what a repeated one-off question
    reads instead of loading the quotient."""
    if store is None or sum(heaps) > _SMALL_MISERE_TOKENS:
        return None
    from cgtalg.rulesets.heaps.misere_play import stored_winning_moves

    outcome = _stored_misere_outcome(ruleset, heaps, store)
    moves = None if outcome is None else stored_winning_moves(ruleset, heaps, store)
    return None if moves is None else (outcome, moves)


def heap_misere_grundy(ruleset: Any, heaps: Any, *, store: Any = None, max_states: int | None = None,
                       max_seconds: float | None = None, progress: bool | None = None) -> int:
    """The misère Grundy value of a position (``0`` exactly at misère P-positions; ``1``
    for the empty position), by the search of :mod:`cgtalg.rulesets.heaps.misere_play`.

    Examples
    --------
    >>> from cgtalg.rulesets.heaps.octal import TakeAndBreak
    >>> [heap_misere_grundy(TakeAndBreak("0.77"), [n]) for n in range(8)]
    [1, 0, 2, 3, 0, 1, 3, 2]
    """
    from cgtalg.rulesets.heaps.misere_play import misere_search_grundy

    max_seconds = check_max_seconds(max_seconds)
    return misere_search_grundy(ruleset, heap_list(heaps, _name(ruleset)), check_store(store),
                                max_states, max_seconds, progress)


def heap_winning_moves(ruleset: Any, heaps: Any, *, misere: bool = False, store: Any = None,
                       max_states: int | None = None, max_seconds: float | None = None,
                       progress: bool | None = None) -> list[HeapMove]:
    """All winning moves: the moves to P-positions (nim-sum 0 in normal play; misère
    P-positions with ``misere=True``, from a known misère quotient or by the search of
    :func:`heap_outcome`).

    ``heaps`` is a list of heap sizes (any order, zeros allowed); each :class:`HeapMove`
    names the heap by its index in that list (the first of equal heaps only). For huge
    heaps with a certified period, splits come as arithmetic families (``count > 1``).

    Raises
    ------
    ComputationLimitError
        For heaps out of reach (no certified period and beyond the direct limit).
    """
    if isinstance(heaps, int_types()):
        heaps = [heaps]
    as_heaps(heaps, _name(ruleset))  # validation
    heaps = [int(h) for h in heaps]
    if misere:
        from cgtalg.quotients.play import quotient_winning_moves
        from cgtalg.rulesets.heaps.misere_play import misere_search_winning_moves

        from cgtalg.rulesets.heaps.misere_play import store_winning_moves, stored_winning_moves

        max_seconds = check_max_seconds(max_seconds)
        store = check_store(store)
        small = store is not None and sum(heaps) <= _SMALL_MISERE_TOKENS
        if small:  # a small question asked before: its moves, without loading the quotient
            hit = stored_winning_moves(ruleset, heaps, store)
            if hit is not None:
                return hit
        known = quotient_winning_moves(ruleset, heaps, store, move=HeapMove,
                                       max_seconds=max_seconds)  # a known quotient covering heaps
        if known is not None:
            if small:
                store_winning_moves(ruleset, heaps, store, known)
            return known
        return misere_search_winning_moves(ruleset, heaps, store, max_states, max_seconds, progress)
    vals = [heap_grundy_value(ruleset, h) if h else 0 for h in heaps]
    total = 0
    for v in vals:
        total ^= v
    moves: list[HeapMove] = []
    if total == 0:
        return moves
    seen_sizes = set()
    for i, h in enumerate(heaps):
        if h == 0 or h in seen_sizes:
            continue
        seen_sizes.add(h)
        moves.extend(heap_moves_to(ruleset, i, h, total ^ vals[i]))
    return moves


# -- the moves of one heap to a given value ------------------------------------------------


def heap_moves_to(ruleset: Any, index: int, n: int, target: int) -> Iterator[HeapMove]:
    """The moves in heap ``n`` (at ``index`` in the position) to heaps of value ``target``.

    A game whose moves are removal counts (:class:`~cgtalg.rulesets.heaps.grundy_engine.KernelRules`
    without the unequal-split rule: take-and-break codes, subtraction games) is answered for
    heaps of any size from its certified period, splits of huge heaps coming as arithmetic
    families; any other heap game enumerates the options of heaps up to
    :data:`~cgtalg.rulesets.heaps.position.ENUMERATE_LIMIT`.
    """
    n = int(n)
    if n == 0:
        return
    if n < SMALL_LIMIT and _small(ruleset, n):
        yield from small_moves_to(ruleset, index, n, target)
        return
    rules = ruleset.kernel_rules(min(n, 2**62) + 1)
    if rules is not None and not rules.unequal:
        yield from _rule_moves_to(ruleset, rules, index, n, target)
        return
    if n > ENUMERATE_LIMIT:
        raise ComputationLimitError(
            f"{_name(ruleset)}: the moves of heap {n} are not enumerated beyond {ENUMERATE_LIMIT}")
    for parts in ruleset.heap_options(n):
        x = 0
        for p in parts:
            x ^= heap_grundy_value(ruleset, p)
        if x == target:
            yield HeapMove(index, n, n - sum(parts), tuple(parts))


def _rule_moves_to(ruleset: Any, rules: Any, index: int, n: int, target: int) -> Iterator[HeapMove]:
    if target == 0 and any(int(t) == n for t in rules.t_all):
        yield HeapMove(index, n, n, ())
    ts = np.array([int(t) for t in rules.t_take if int(t) < n], dtype=np.int64)
    if ts.size:
        vals = heap_values_at(ruleset, ts, base=n, sign=-1)
        for t in ts[vals == target]:
            yield HeapMove(index, n, int(t), (n - int(t),))
    for t in rules.t_split:
        m = n - int(t)
        if m < 2:
            continue
        yield from _split_moves_to(ruleset, index, n, int(t), m, target)
    for t in rules.t_split3:
        m = n - int(t)
        if m < 3:
            continue
        if m > 3000:
            raise ComputationLimitError(
                f"{_name(ruleset)}: three-heap splits of a heap of {m} tokens are not enumerated (limit 3000)")
        g = heap_values_at(ruleset, np.arange(m + 1))
        for a in range(1, m // 3 + 1):
            for b in range(a, (m - a) // 2 + 1):
                if g[a] ^ g[b] ^ g[m - a - b] == target:
                    yield HeapMove(index, n, int(t), (a, b, m - a - b))


def _split_moves_to(ruleset: Any, index: int, n: int, t: int, m: int, target: int) -> Iterator[HeapMove]:
    """Splits of ``m = n - t`` tokens into two heaps of value ``target`` (families past the
    preperiod of a certified period)."""
    half = m // 2
    per = certified_period(ruleset) if half > ENUMERATE_LIMIT else None
    if half > ENUMERATE_LIMIT and per is None:
        raise ComputationLimitError(
            f"{_name(ruleset)}: the splits of a heap of {m} tokens ({half} pairs) are only enumerated "
            f"up to {ENUMERATE_LIMIT} pairs without a certified period, and none is known "
            f"(G is computed for heaps 0..{grundy_engine(ruleset).n - 1}; certify one with "
            "periodicity(max_values=...))")
    direct_top = half if per is None else min(half, per.preperiod - 1)
    block = 1 << 22
    lo = 1
    while lo <= direct_top:
        hi = min(direct_top, lo + block - 1)
        a = np.arange(lo, hi + 1, dtype=np.int64)
        hit = a[(heap_values_at(ruleset, a) ^ heap_values_at(ruleset, a, base=m, sign=-1)) == target]
        for x in hit:
            yield HeapMove(index, n, t, (int(x), m - int(x)))
        lo = hi + 1
    if per is None or per.preperiod > half:
        return
    # a >= n0 and m - a >= a >= n0: both parts periodic; one family per residue class
    n0, p = per.preperiod, per.period
    G = grundy_engine(ruleset).G
    P = np.asarray(G[n0 : n0 + p], dtype=np.int64)
    j = np.arange(p, dtype=np.int64)
    r = (m - 2 * n0) % p  # Python ints: m may exceed int64
    vals = P ^ P[(r - j) % p]
    for jj in j[vals == target]:
        a = n0 + int(jj)
        if a > half:
            continue
        count = (half - a) // p + 1
        yield HeapMove(index, n, t, (a, m - a), stride=p if count > 1 else 0, count=count)
