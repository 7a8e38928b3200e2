"""Grundy values of small heaps in plain Python, without numpy (issue 23, part 4: "a small
question should not pay for a kernel it does not need").

Importing numpy costs about 0.1-0.2 s in a fresh process, more than computing the first few
hundred Grundy values of a take-and-break game in plain Python. For heaps below
:data:`SMALL_LIMIT`, :func:`small_grundy_values` computes ``G(0), ..., G(n-1)`` as a list of
ints by the definition (Sprague 1935, Grundy 1939; Winning Ways ch. 4): ``G(n)`` is the mex of
the XORs of the values of the heaps each option leaves. It applies to the heap games whose
class sets ``small_grundy = True`` (take-and-break codes, subtraction games, Grundy's game),
whose options are given by :meth:`heap_options` without user code; the values are the same as
the engine's (:mod:`cgtalg.rulesets.heaps.grundy_engine`; tests/test_light_commands.py compares them
on every octal code of up to three digits). :func:`small_moves_to` lists the moves of a small
heap to a given value in the order :func:`cgtalg.rulesets.heaps.play.heap_moves_to` lists them.

The values are kept on the ruleset (``_small_grundy``), so repeated questions cost nothing.

Examples
--------
>>> from cgtalg.rulesets.heaps.octal import TakeAndBreak
>>> small_grundy_values(TakeAndBreak("0.77"), 13)
[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4]

References
----------
E. R. Berlekamp, J. H. Conway, R. K. Guy, *Winning Ways*, ch. 4 (take-and-break games).
"""

from __future__ import annotations

from typing import Any, Iterator

from cgtalg.rulesets.heaps.position import HeapMove

__all__ = ["SMALL_LIMIT", "small_ok", "small_grundy_values", "small_grundy_value", "small_moves_to"]

#: heaps below this are answered in plain Python (0.77 up to 512: about 0.05 s)
SMALL_LIMIT = 512


def small_ok(ruleset: Any, n: int) -> bool:
    """Whether ``G(0 .. n-1)`` of ``ruleset`` may be computed here (a game that declares
    ``small_grundy`` and ``n <= SMALL_LIMIT``)."""
    return n <= SMALL_LIMIT and bool(getattr(type(ruleset), "small_grundy", False))


def _mex(seen: set) -> int:
    v = 0
    while v in seen:
        v += 1
    return v


def small_grundy_values(ruleset: Any, n: int) -> list[int]:
    """``[G(0), ..., G(n-1)]`` by the definition (``n <= SMALL_LIMIT``), kept on the ruleset.

    Parameters
    ----------
    ruleset : HeapRuleset
        A heap game with ``small_grundy = True`` (see :func:`small_ok`).
    n : int
        How many values.

    Returns
    -------
    list of int

    Raises
    ------
    ValueError
        If :func:`small_ok` does not hold (a caller's mistake: it checks first).

    Examples
    --------
    >>> from cgtalg.rulesets.heaps.games import grundys_game
    >>> small_grundy_values(grundys_game(), 10)
    [0, 0, 0, 1, 0, 2, 1, 0, 2, 1]
    """
    if not small_ok(ruleset, n):
        raise ValueError(f"{getattr(ruleset, 'name', ruleset)}: {n} values are not computed in plain Python")
    G: list[int] = ruleset.__dict__.setdefault("_small_grundy", [])
    digit = getattr(ruleset, "digit", None)
    for h in range(len(G), n):
        if digit is not None:
            G.append(_mex(_code_option_values(ruleset, digit, G, h)))
        else:
            seen = set()
            for parts in ruleset.heap_options(h):
                x = 0
                for p in parts:
                    x ^= G[p]
                seen.add(x)
            G.append(_mex(seen))
    return G[:n]


def _code_option_values(ruleset: Any, digit: Any, G: list[int], n: int) -> set:
    """The values of the options of heap ``n`` of a take-and-break code (its digit ``d_t``:
    bit 1 takes the whole heap, 2 leaves one heap, 4 two, 8 three), as ``heap_options``."""
    seen = set()
    top = n if not ruleset.is_finite else min(n, ruleset.k)
    for t in range(top + 1):
        d = digit(t)
        if not d:
            continue
        m = n - t
        if m == 0:
            if d & 1:
                seen.add(0)
            continue
        if d & 2:
            seen.add(G[m])
        if d & 4 and m >= 2:
            for a in range(1, m // 2 + 1):
                seen.add(G[a] ^ G[m - a])
        if d & 8 and m >= 3:
            for a in range(1, m // 3 + 1):
                ga = G[a]
                for b in range(a, (m - a) // 2 + 1):
                    seen.add(ga ^ G[b] ^ G[m - a - b])
    return seen


def small_grundy_value(ruleset: Any, n: int) -> int:
    """``G(n)`` for ``n < SMALL_LIMIT`` (:func:`small_grundy_values`)."""
    G = ruleset.__dict__.get("_small_grundy")
    if G is not None and n < len(G):
        return G[n]
    return small_grundy_values(ruleset, n + 1)[n]


def small_moves_to(ruleset: Any, index: int, n: int, target: int) -> Iterator[HeapMove]:
    """The moves in heap ``n < SMALL_LIMIT`` (at ``index`` in the position) to heaps of value
    ``target``, in the order of :func:`cgtalg.rulesets.heaps.play.heap_moves_to`: for a code,
    taking the whole heap, then by removal count the moves leaving one heap, then the
    two-heap splits (smaller part first), then the three-heap splits; for other games, the
    order of ``heap_options``."""
    G = small_grundy_values(ruleset, n + 1)
    digit = getattr(ruleset, "digit", None)
    if digit is None:
        for parts in ruleset.heap_options(n):
            x = 0
            for p in parts:
                x ^= G[p]
            if x == target:
                yield HeapMove(index, n, n - sum(parts), tuple(parts))
        return
    ts = range(n + 1) if not ruleset.is_finite else range(min(n, ruleset.k) + 1)
    if target == 0 and n >= 1 and any(t == n and digit(t) & 1 for t in ts):
        yield HeapMove(index, n, n, ())
    for t in ts:
        if t >= 1 and t < n and digit(t) & 2 and G[n - t] == target:
            yield HeapMove(index, n, t, (n - t,))
    for t in ts:
        m = n - t
        if digit(t) & 4 and m >= 2:
            for a in range(1, m // 2 + 1):
                if G[a] ^ G[m - a] == target:
                    yield HeapMove(index, n, t, (a, m - a))
    for t in ts:
        m = n - t
        if digit(t) & 8 and m >= 3:
            for a in range(1, m // 3 + 1):
                for b in range(a, (m - a) // 2 + 1):
                    if G[a] ^ G[b] ^ G[m - a - b] == target:
                        yield HeapMove(index, n, t, (a, b, m - a - b))


def _code_rules(ruleset: Any) -> tuple[bool, list[int], bool] | None:
    """``(finite, two-heap split removals, three-heap splits?)`` of a take-and-break code, or
    None for another game (the engine's :class:`~cgtalg.rulesets.heaps.grundy_engine.KernelRules`
    without numpy)."""
    digit = getattr(ruleset, "digit", None)
    if digit is None or not ruleset.is_finite:
        return None if digit is None else (False, [], False)
    ts = range(ruleset.k + 1)
    return True, [t for t in ts if digit(t) & 4], any(digit(t) & 8 for t in ts)


def small_mode(ruleset: Any, method: str = "auto") -> str:
    """The kernel the engine would name for ``method`` (``"auto"`` or ``"naive"``):
    ``"sparse"`` for a finite code with two-heap splits and no three-heap ones under
    ``"auto"``, else ``"naive"``."""
    rules = _code_rules(ruleset)
    if method != "auto" or rules is None:
        return "naive"
    finite, t_split, split3 = rules
    return "sparse" if finite and t_split and not split3 else "naive"


def small_sparse_split(ruleset: Any, G: list[int]) -> Any:
    """The rare/common split the engine chooses for the values ``G`` (a sparse-mode game,
    :func:`small_mode`) when it holds them without a split (as after reading them from a
    store): the split with the fewest rare heaps among ``1 <= a < len(G)``, "``v`` is common
    iff ``popcount(v & mask)`` is odd", or, when every split removal has the same parity, the
    variant whose common bit depends on the heap's parity; ties go to the smaller count, then
    to the first variant, then to the smaller mask (Winning Ways ch. 4, "Sparse space spells
    speed"; Gangolli & Plambeck 1989). Returns a
    :class:`~cgtalg.rulesets.heaps.grundy_engine.SparseSplit`."""
    from cgtalg.rulesets.heaps.grundy_engine import SparseSplit

    n = len(G)
    size = 1 << max(max(G, default=0), 1).bit_length()
    parities = {t & 1 for t in _code_rules(ruleset)[1]}
    g = parities.pop() if len(parities) == 1 else None
    # rare[variant][mask]: heaps 1 <= a < n left rare by the split
    even = [[0] * size, [0] * size]  # [heap parity][mask]: heaps whose popcount(v & mask) is even
    count = [[0] * size, [0] * size]
    for a in range(1, n):
        count[a & 1][G[a]] += 1
    for par in (0, 1):
        for v, c in enumerate(count[par]):
            if c:
                row = even[par]
                for mask in range(size):
                    if not bin(v & mask).count("1") & 1:
                        row[mask] += c
    N = [sum(count[0]), sum(count[1])]
    big = 1 << 62
    r0 = [big] + [even[0][m] + even[1][m] for m in range(1, size)]
    cands = [(min(r0), 0, r0.index(min(r0)), 0)]
    if g is not None:
        # variant 1: common for even heaps iff popcount odd == (1 ^ g), for odd heaps == g
        if g == 0:
            r1 = [big] + [even[0][m] + (N[1] - even[1][m]) for m in range(1, size)]
        else:
            r1 = [big] + [(N[0] - even[0][m]) + even[1][m] for m in range(1, size)]
        cands.append((min(r1), 1, r1.index(min(r1)), 1))
    rare, _, mask, variant = min(cands)
    cb0, cb1 = (1, 1) if variant == 0 else (1 ^ g, g)
    return SparseSplit(mask=mask, cbit0=cb0, cbit1=cb1, rare=rare)


def small_sequence(ruleset: Any, n: int, store: Any = None) -> list[int]:
    """``[G(0), ..., G(n-1)]`` for ``n <= SMALL_LIMIT`` (:func:`small_ok`), as
    :func:`cgtalg.rulesets.heaps.grundy_engine.grundy_sequence` gives them with ``store``: the
    stored values when the store holds ``n`` of them (read without numpy when the store can:
    ``sequence_values`` of :class:`cgtalg.store.light.LightStore`), else computed here and the
    values past the stored ones written to the store.

    Examples
    --------
    >>> from cgtalg.rulesets.heaps.octal import TakeAndBreak
    >>> small_sequence(TakeAndBreak("0.07"), 10)
    [0, 0, 1, 1, 2, 0, 3, 1, 1, 0]
    """
    if store is None:
        return small_grundy_values(ruleset, n)
    key = ruleset.sequence_key
    stored = int(store.sequence_length(key))
    if stored >= n:
        read = getattr(store, "sequence_values", None)
        return list(read(key, 0, n)) if callable(read) else [int(v) for v in store.sequence(key, 0, n)]
    G = small_grundy_values(ruleset, n)
    store.extend_sequence(key, stored, G[stored:n])
    return G
