"""The referee's N-condition search (cgtalg.referee.quotient_search.n_condition).

Checked on quotients of small octal games (cgtalg computes them; here they are only inputs),
on corruptions of them (an element of P flipped, an option image removed), and on random small
commutative monoids, against:

* the definition (module docstring of cgtalg.referee.quotients): every position whose image is
  outside P and which has a move must have an option whose image is in P. A brute force over
  the positions of at most a few heaps (the cases are chosen so that its depth reaches the
  failures), and, exactly, the pairs (image, option images) of all positions, built by adding
  heaps one at a time. n_condition fails exactly when they do, the position it names fails by
  the definition, and when the condition holds its minimal pairs (x, U) are those of all
  positions;
* the previous implementation of the search (depth-first over Python-int bitsets, kept below
  as ``_reference_old``): both accept or both reject.
"""

from __future__ import annotations

import ast
import itertools
import random
import re

import numpy as np
import pytest

import cgtalg
from cgtalg.referee.heaps import heap_rules
from cgtalg.referee.quotient_search import _search, n_condition
from cgtalg.referee.quotients import nim_quotient, option_images

BIG = 10_000_000


# -- the definition, by brute force -------------------------------------------------------------
def _fails(table, P, phi, S, pos) -> bool:
    """Whether the position ``pos`` (heaps) breaks the N-condition: it has a move, its image is
    outside P, and no option (one heap ``h`` replaced by an option of image ``s ∈ S_h``) has its
    image in P."""
    if not any(S[h] for h in pos):
        return False
    x = 0
    for h in pos:
        x = table[x, phi[h]]
    if P[x]:
        return False
    for i, h in enumerate(pos):
        rest = 0
        for j, g in enumerate(pos):
            if j != i:
                rest = table[rest, phi[g]]
        if any(P[table[rest, s]] for s in S[h]):
            return False
    return True


def _brute_force(table, P, phi, S, depth):
    """The first position of at most ``depth`` heaps breaking the N-condition, or None. Heaps
    with equal image and option images are interchangeable, so one of each is used."""
    one = {}
    for h in range(len(phi)):
        if S[h]:
            one.setdefault((phi[h], tuple(S[h])), h)
    heaps = sorted(one.values())
    for n in range(1, depth + 1):
        for pos in itertools.combinations_with_replacement(heaps, n):
            if _fails(table, P, phi, S, pos):
                return list(pos)
    return None


def _pairs_of_positions(table, phi, S):
    """The pair ``(x, T)`` (image, set of the options' images) of every position with a move,
    found by adding heaps one at a time from the empty position as the module docstring defines
    them (exact, with no bound: these monoids are small), each mapped to one of its positions."""
    one = {}
    for h in range(len(phi)):
        if S[h]:
            one.setdefault((phi[h], tuple(S[h])), h)
    start = (0, frozenset())
    where = {start: ()}
    todo = [start]
    while todo:
        x, T = todo.pop()
        for (y, s_h), h in one.items():
            nxt = (int(table[x, y]), frozenset(int(table[t, y]) for t in T) | {int(table[x, s]) for s in s_h})
            if nxt not in where:
                where[nxt] = where[(x, T)] + (h,)
                todo.append(nxt)
    del where[start]
    return where


def _by_pairs(table, P, phi, S):
    """``(failure, minimal)`` from :func:`_pairs_of_positions`: a position with ``T ∩ P = ∅``
    and ``x ∉ P`` (or None), and per ``x`` the inclusion-minimal ``U(T) = {z : T·z ∩ P ≠ ∅}``
    as bitsets."""
    where = _pairs_of_positions(table, phi, S)
    failure = next((sorted(pos) for (x, T), pos in where.items() if not P[x] and not any(P[t] for t in T)), None)
    sets = {}
    for x, T in where:
        U = sum(1 << z for z in range(len(table)) if any(P[table[t, z]] for t in T))
        sets.setdefault(x, set()).add(U)
    minimal = {x: sorted(u for u in us if not any(v != u and v & ~u == 0 for v in us)) for x, us in sets.items()}
    return failure, minimal


def _named(message: str) -> list[int]:
    m = re.search(r"the position (\[[^\]]*\])", message)
    assert m, message
    return ast.literal_eval(m.group(1))


# -- the previous implementation (before the array search), kept as a second reference ---------
def _old_bits(rows):
    packed = np.packbits(np.asarray(rows, dtype=bool), axis=-1, bitorder="little")
    return [int.from_bytes(r.tobytes(), "little") for r in packed]


def _reference_old(table, P, phi, S, max_states):
    size = table.shape[0]
    inv_p = P[table]
    first = {}
    for h, s_h in enumerate(S):
        if s_h:
            first.setdefault((phi[h], tuple(s_h)), h)
    by_image = {}
    for (y, s_h), h in sorted(first.items(), key=lambda kv: kv[1]):
        c = inv_p[table[:, list(s_h)]].any(axis=1)
        by_image.setdefault(y, []).append((h, _old_bits(c)))
    kinds = []
    for y, group in by_image.items():
        for i, (h, c) in enumerate(group):
            if not any(all(c2[x] & ~c[x] == 0 for x in range(size)) and (c2 != c or j < i)
                       for j, (_, c2) in enumerate(group) if j != i):
                kinds.append((h, y, c))
    kinds.sort()
    chunks = (size + 3) // 4
    pre = {}
    for y in {y for _, y, _ in kinds}:
        single = [0] * (4 * chunks)
        for z in range(size):
            single[int(table[y, z])] |= 1 << z
        rows = []
        for k in range(chunks):
            row = [0] * 16
            for v in range(1, 16):
                low = v & -v
                row[v] = row[v ^ low] | single[4 * k + low.bit_length() - 1]
            rows.append(row)
        pre[y] = rows
    mult = {y: table[:, y].tolist() for y in pre}
    in_p = [bool(b) for b in P]
    kept = {}
    todo = [(0, 0, ())]
    states = 0
    while todo:
        x, U, word = todo.pop()
        for h, y, c in kinds:
            rows = pre[y]
            u2 = c[x]
            rest, k = U, 0
            while rest:
                v = rest & 15
                if v:
                    u2 |= rows[k][v]
                rest >>= 4
                k += 1
            x2 = mult[y][x]
            lst = kept.setdefault(x2, [])
            if any(m & ~u2 == 0 for m in lst):
                continue
            w2 = word + (h,)
            if not in_p[x2] and not u2 & 1:
                return [f"N-condition: the position {sorted(w2)} has its image outside P, but no option "
                        "with its image in P"]
            lst[:] = [m for m in lst if u2 & ~m != 0]
            lst.append(u2)
            todo.append((x2, u2, w2))
            states += 1
            if states > max_states:
                return [f"N-condition: not checked: more than {max_states:,} option sets"]
    return []


# -- inputs -------------------------------------------------------------------------------------
#: (code, max_heap, brute-force depth)
GAMES = [("0.75", 12, 5), ("0.77", 12, 4), ("0.123", 20, 4), ("0.37", 8, 5), ("0.34", 15, 4)]


def _inputs(code, max_heap):
    q = cgtalg.misere_quotient(code, max_heap)
    table = np.asarray(q.table, dtype=np.int64)
    P = np.asarray(q.P, dtype=bool)
    phi = [int(v) for v in q.phi]
    rules = heap_rules(code)
    S = [sorted(option_images(rules, h, np.asarray(phi), table) or ()) for h in range(len(phi))]
    return table, P, phi, S


def _corruptions(table, P, phi, S):
    """Each non-identity element of P flipped, and each option image of the heaps up to 8
    removed (when the heap keeps another)."""
    for e in range(1, len(P)):
        flipped = P.copy()
        flipped[e] = not flipped[e]
        yield f"P[{e}] flipped", table, flipped, phi, S
    for h in range(1, min(len(S), 9)):
        if len(S[h]) > 1:
            for s in S[h]:
                fewer = list(S)
                fewer[h] = [t for t in S[h] if t != s]
                yield f"option {s} of heap {h} removed", table, P, phi, fewer


def _agree(table, P, phi, S, depth, what=""):
    """n_condition agrees with the brute force over positions of at most ``depth`` heaps and
    with the pairs of all positions (when the condition holds, the search's minimal pairs are
    theirs); returns whether they found a failure. ``depth=None``: the pairs only."""
    got = n_condition(table, P, phi, S, BIG)
    ref = _brute_force(table, P, phi, S, depth) if depth is not None else None
    failure, minimal = _by_pairs(table, P, phi, S)
    if got:
        pos = _named(got[0])
        assert _fails(table, P, phi, S, pos), (what, got)
        assert failure is not None and _fails(table, P, phi, S, failure), (what, got)
        assert depth is None or ref is not None, (what, got)
    else:
        assert ref is None and failure is None, (what, ref, failure)
        assert _search(table, P, phi, S, BIG)[1] == minimal, what
    return bool(got)


@pytest.mark.parametrize("code,max_heap,depth", GAMES)
def test_n_condition_matches_the_definition(code, max_heap, depth):
    table, P, phi, S = _inputs(code, max_heap)
    assert n_condition(table, P, phi, S, BIG) == []
    assert _brute_force(table, P, phi, S, depth) is None
    found = [_agree(*case[1:], depth, case[0]) for case in _corruptions(table, P, phi, S)]
    assert any(found)                                  # the corruptions do break the condition


@pytest.mark.parametrize("code,max_heap,depth", GAMES)
def test_n_condition_matches_the_old_search(code, max_heap, depth):
    table, P, phi, S = _inputs(code, max_heap)
    for what, *case in [("as computed", table, P, phi, S), *_corruptions(table, P, phi, S)]:
        new = n_condition(*case, BIG)
        assert bool(new) == bool(_reference_old(*case, BIG)), (code, what, new)
        assert not new or "not checked" not in new[0]
        for batch in (1, 1000):                       # the order of the search does not matter
            assert bool(n_condition(*case, BIG, batch=batch)) == bool(new), (code, what, batch)


def _cyclic(index, period):
    """The monoid generated by ``a`` with ``a^(index + period) = a^index``: element ``k`` is ``a^k``."""
    n = index + period
    k = np.arange(n)
    s = k[:, None] + k[None, :]
    return np.where(s < n, s, index + (s - index) % period)


def _product(a, b):
    n, m = len(a), len(b)
    i, j = np.divmod(np.arange(n * m), m)
    return a[i[:, None], i[None, :]] * m + b[j[:, None], j[None, :]]


def _random_case(rng: random.Random):
    """A product of two small cyclic monoids or a Nim quotient, with random P (not the identity),
    Φ and option images; for the Nim quotient T_2 sometimes Nim's own Φ and options."""
    if rng.random() < 0.3:
        table, P = nim_quotient(2)
        phi = [0, 1, 2 + 2, 2 + 3]                     # heaps 0..3 of Nim: 1, a, z_2, z_3
        S = [[], [0], [0, 1], [0, 1, 4]]
        if rng.random() < 0.5:
            P = P.copy()
            P[rng.randrange(1, len(P))] ^= True
        else:
            h = rng.randrange(2, 4)
            S[h] = [s for s in S[h] if s != rng.choice(S[h])]
        return table, P, phi, S
    table = _product(_cyclic(rng.randrange(0, 3), rng.randrange(1, 4)),
                     _cyclic(rng.randrange(0, 3), rng.randrange(1, 4)))
    size = len(table)
    P = np.array([False] + [rng.random() < 0.4 for _ in range(size - 1)])
    heaps = rng.randrange(2, 6)
    phi = [0] + [rng.randrange(size) for _ in range(heaps)]
    S = [[]] + [sorted(rng.sample(range(size), rng.randrange(1, min(size, 3) + 1))) for _ in range(heaps)]
    return table, P, phi, S


def test_n_condition_on_random_monoids():
    rng = random.Random(20240611)
    outcomes = []
    for _ in range(300):
        table, P, phi, S = _random_case(rng)
        new = n_condition(table, P, phi, S, BIG)
        assert bool(new) == bool(_reference_old(table, P, phi, S, BIG)), (table.tolist(), P, phi, S)
        outcomes.append(_agree(table, P, phi, S, None))
    assert 20 < sum(outcomes) < 280                    # both verdicts occur


def test_nim_with_its_own_moves_passes():
    table, P = nim_quotient(2)
    phi = [0, 1, 4, 5]
    S = [[], [0], [0, 1], [0, 1, 4]]
    assert n_condition(table, P, phi, S, BIG) == []
    assert _reference_old(table, P, phi, S, BIG) == []


def test_the_state_bound_is_reported():
    table, P, phi, S = _inputs("0.77", 12)
    got = n_condition(table, P, phi, S, 0)
    assert got == ["N-condition: not checked: more than 0 option sets"]


def test_no_heap_with_a_move():
    table, P = nim_quotient(1)
    assert n_condition(table, P, [0, 0], [[], []], BIG) == []
