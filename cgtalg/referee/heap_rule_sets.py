"""Which sets of heap kinds can stand beside the two largest heaps of a view of a largest-heap
rule (:mod:`cgtalg.referee.heap_rule`, R5), decided by a small dynamic programme instead of a
walk over every subset. Standard library and the referee only.

R5 reads a view through the sets ``S`` of kinds that the heaps other than the largest ``m`` may
have. ``S`` holds ``η``, the kind of the second largest heap ``h₂``. A set *can make the view*
when some choice ``T ⊆ S`` of the kinds of odd count has ``⊕_{i∈T} g(i) = G`` and either

- every kind of ``S`` has ``w = 0`` on all its sizes, and ``z = m`` (exactly when ``m`` is
  exact, by residue mod ``p`` otherwise); or
- the least ``Σ w`` of the heaps other than ``h₂`` (a kind of ``T`` holds one heap or more, any
  other kind two or more; ``η`` counts ``h₂`` itself) is at most ``m − w(h₂) − z`` when that bound
  is known, and some residue mod ``p`` that sum can have is ``m − z − w(h₂)`` when ``z``'s
  residue is known.

This is the statement the walk over every ``(S, T)`` made (each pair's least ``Σ w`` with the
residues its counts allow), so the verdicts are the same; the walk costs ``3^k`` for ``k`` kinds,
this ``k · |states|`` with at most ``2 · 2^b · p`` states (``b`` the bits of the Grundy values).

The questions R5 asks, each over the sets ``S`` that can make the view:

- is there one at all (else no position has the view);
- is there one with ``η`` and a given kind ``i`` (the P-condition reads the moves of kind ``i``);
- is there one whose kinds (beside ``η``) are all in a given list, optionally with at least one
  kind that has a move (the N-condition's sets without a winning kind; the P-condition's sets
  without any move).
"""

from __future__ import annotations

from typing import Callable, Iterable

__all__ = ["feasible"]


def feasible(kinds: Iterable[int], ek: int, G: int, kg, kwmin, kwzero, moving, sums: Callable,
             accept: Callable, *, forced: Iterable[int] = (), allowed: Iterable[int] | None = None,
             need_moving: bool = False, p: int = 1, memo: dict | None = None) -> bool:
    """Whether some set ``S`` of kinds can make the view (module docstring): ``S`` holds ``ek``
    and every kind of ``forced``, its other kinds come from ``allowed`` (default: every kind of
    ``kinds``), and with ``need_moving`` one of its kinds has a move (``moving[i]``).

    ``sums(i, odd, zero_ok)`` gives the residues mod ``p`` of ``Σ w`` over a number of heaps of
    kind ``i`` of the given parity (``zero_ok``: none allowed too). ``accept(cost, residue,
    all_zero)`` says whether a set with that least ``Σ w``, that residue of it and that
    all-``w = 0`` flag makes the view.

    The table of states depends on the kinds (``ek``, the forced ones, the pool) and not on
    ``G`` or ``accept``: with ``memo`` (a dict kept for one rule's ``kg``, ``kwmin``,
    ``kwzero``, ``moving`` and ``sums``) it is built once per kinds and read by every view that
    asks about them (the views of a rule repeat a few hundred sets of kinds hundreds of
    thousands of times)."""
    forced_set = frozenset(int(i) for i in forced) - {ek}
    pool = set(int(i) for i in (kinds if allowed is None else allowed)) | forced_set
    pool.discard(ek)
    if memo is None:
        by_xor = _states(ek, pool, forced_set, kg, kwmin, kwzero, moving, sums, p)
    else:
        key = (ek, frozenset(pool), forced_set, p)
        by_xor = memo.get(key)
        if by_xor is None:
            by_xor = memo[key] = _states(ek, pool, forced_set, kg, kwmin, kwzero, moving, sums, p)
    for res, zero, mov, cost in by_xor.get(G, ()):
        if need_moving and not mov:
            continue
        if accept(cost, res, zero):
            return True
    return False


def _states(ek: int, pool: set, forced_set: frozenset, kg, kwmin, kwzero, moving, sums: Callable,
            p: int) -> dict:
    """The dynamic programme: for each nim-value ``xor``, the states ``(residue, every kind w = 0,
    some kind has a move, least Σ w)`` of the sets ``S`` (``ek``, every kind of ``forced_set``,
    any of ``pool``)."""
    # state (xor, residue, every kind w = 0, some kind has a move) -> least Σ w
    states: dict = {}

    def put(table: dict, key: tuple, cost: int) -> None:
        old = table.get(key)
        if old is None or cost < old:
            table[key] = cost

    # η: odd in T means h₂ and an even number (maybe 0) of other heaps of its kind; even means
    # h₂ and an odd number (one or more) of others
    for in_t in (True, False):
        xor = kg[ek] if in_t else 0
        cost = 0 if in_t else kwmin[ek]
        for res in sums(ek, not in_t, in_t):
            put(states, (xor, res % p, bool(kwzero[ek]), bool(moving[ek])), cost)
    for i in sorted(pool):
        nxt: dict = {} if i in forced_set else dict(states)
        for (xor, res, zero, mov), cost in states.items():
            for in_t in (True, False):
                x2 = xor ^ kg[i] if in_t else xor
                c2 = cost + kwmin[i] * (1 if in_t else 2)
                z2, m2 = zero and bool(kwzero[i]), mov or bool(moving[i])
                for r in sums(i, in_t, False):
                    put(nxt, (x2, (res + r) % p, z2, m2), c2)
        states = nxt
    by_xor: dict = {}
    for (xor, res, zero, mov), cost in states.items():
        by_xor.setdefault(xor, []).append((res, zero, mov, cost))
    return by_xor
