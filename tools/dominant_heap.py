#!/usr/bin/env python
"""Positions of large heaps in a quadratic class: the largest heap against the sum of the others.

In the classes whose partial quotients grow quadratically (``0.337``: ``|Q_n| = 2⌊n²/16⌋``;
54 codes of the census stop there on ``time``), a position ``M + W`` of *large* heaps
``M`` (each ``>= --large``) and a *small* part ``W`` (at most two heaps ``<= --small``) is, for
most ``M``, a misère P-position exactly when its Grundy value is one number ``c(M)``: ``0`` (as
in normal play) or a fixed ``c* != 0``. This script measures that from a verified ``Q_n``:

- for every multiset ``M`` of ``k`` large heaps (``k <= --heaps``): the nim-values ``v`` with
  ``M + W`` a P-position when ``G(M + W) = v``, over every small ``W``; ``M`` is *ambiguous*
  when for one ``v`` some ``W`` give a P-position and some do not (the small part then matters
  beyond its Grundy value) or when two values do, else ``c(M)`` is the one value (none: no
  P-position at all);
- ``c(M)`` tabulated against ``D(M) = max(M) − (sum of the other heaps of M)``, capped at
  ``±--cap``, and the heaps' residues modulo ``--mod``: a table with no conflict is a function
  of those features on the measured range;
- ``c(M)`` against ``c`` of its largest heap alone (for ``k >= 2``): the least ``D`` from which
  they agree (and are not 0), the largest ``D`` at which ``c(M)`` is 0 while the largest heap's
  is not, and how many ``M`` are neither;
- the *exact table*: whether the outcome of every ``M + W`` is a function of ``D(M)`` capped at
  ``±--cap``, the gaps between consecutive heaps of ``M`` capped at ``--cap-gap``, the heaps'
  residues and the small part's element (keys seen, positions read, conflicting keys); with
  ``--learn-below H``, the table read off the multisets whose largest heap is ``<= H`` predicts
  the others' outcomes. The residues default to the period with which the large heaps'
  outcomes repeat (:func:`residue_period`), a multiple of the Grundy values' period;
- the *coarse table*: the same with the key ``(D(M), the largest heap's residue, the nim-value
  of the other large heaps, the small part's element)``, for each number of large heaps and
  for all of them together;
- with ``--moves``, where the N-positions win: the coarse keys whose N-positions all win by one
  and the same move on the largest heap (written relative to it), and by which heaps the
  others win (:func:`largest_heap_moves`);
- with ``--all-heaps K``, the coarse key with *every* heap counted in ``D`` (the other heaps of
  any size and number, not large heaps beside a small part of at most two heaps), over every
  position of one to three heaps and sampled ones of four to ``K`` (:func:`all_heaps_table`);
  with ``--whole-small``, the small part any position of heaps ``<= --small``, and with
  ``--d-small TOKENS`` the coarse table with the small part counted in ``D``
  (:func:`coarse_with_small`);
- with ``--class-counts SMALL,COUNT_CAP,EXACT_BELOW,MANY_SMALL``, every position (any largest
  heap, many small heaps too) keyed by ``D``, the largest heap's class and the other heaps'
  class counts (:func:`class_count_key`, :func:`class_count_table`); with ``--weights W0,W1,…``
  keyed by ``z = max − Σ (h − W[h mod p])``, the largest heap's class and the others' nim-value
  (:func:`weighted_key`, :func:`weighted_table`; ``0.734``: ``--weights 0,1,0,1``, 149 keys, no
  conflict over 1 265 989 positions).

Measured (1 December 2026, tenth session; docs/quotient_frontier_stalls.md, "the largest heap
against the others"): in 37 of the 42 quadratic classes, ``c(M)`` is 0 (normal play) while
``D`` is small and the largest heap's own ``c`` once ``D`` passes a class constant (``0.337``,
``Q_58``, large ``>= 24``: two heaps 0 up to ``D = 7`` and 2 from 7 by parity; three heaps 0 up
to 3 and 2 from 2), with the residues or the small part deciding in a band between. So the
outcome depends on whether the largest heap dominates the others, a relation between heap
*sizes*: why every large heap is its own element, and the statement a proof over heap sizes
must make. The exact tables of all 42 classes (one, two and three large heaps) have no
conflicting key with ``--cap 24 --cap-gap 16``: on the measured range the outcome is a finite
table in those linear relations. Eleventh session: in 30 of the 42 classes the coarse table has
no conflict for one to four large heaps (in 19 of them with every number of heaps in one
table), and read off the smaller heaps it predicts 6 318 465 outcomes of larger ones, none
wrong. Twelfth session: that table was an artefact of its small part (at most two heaps
``<= 7``, no heaps between 8 and the threshold): with every heap counted in ``D``, the same key
has conflicting keys in a band of ``D`` in every one of the 42 classes (``0.734``: only at
``D = 0`` up to six heaps; more with many small heaps), and the small heaps' elements grow
with ``n`` (``0.157``: 44 pairs (element, Grundy value) in ``Q_64``, 62 in ``Q_93``).

Every outcome is read off the verified quotient (``cgtalg.misere_quotient``, from ``--store``
when stored), Grundy values off ``grundy_sequence``.

Usage::

    python tools/dominant_heap.py 0.337 -n 58 --small 7 --large 24 [--heaps 3] [--mod 4]
        [--cap 24] [--cap-gap 16] [--learn-below 44] [--sample 5000] [--moves] [--store URL]
        [--time 5m] [--json out.json]

Exit status 2 when an argument is malformed or the budget ran out (the cgtalg error is
printed), 130 on Ctrl-C.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Sequence

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cgtalg.budget import Deadline, parse_duration  # noqa: E402
from cgtalg.errors import CgtalgError  # noqa: E402

#: multisets measured between two checks of the budget
CHECK_EVERY = 2_000


class Dominance:
    """``c(M)`` for multisets of large heaps, read off a verified quotient (module docstring)."""

    def __init__(self, table, P, phi, grundy, small: int, large: int, options=None, whole_small: bool = False) -> None:
        self.table, self.P, self.phi, self.g = table, P, list(phi), list(grundy)
        self.options = options          # options[h]: the options of heap h (tuples), when given
        n = len(self.phi) - 1
        if not 0 <= small < large <= n:
            raise ValueError(f"need 0 <= small < large <= n = {n}: small = {small}, large = {large}")
        self.small, self.large, self.n = small, large, n
        if whole_small:
            parts = small_closure(self, small)
        else:
            parts = [()] + [(a,) for a in range(1, small + 1)]
            parts += [(a, b) for a in range(1, small + 1) for b in range(a, small + 1)]
        self.parts = parts
        # one W per (element, Grundy value) of the small part
        self.smalls: set[tuple[int, int]] = {(self.element(w), self.nim(w)) for w in parts}
        self._c: dict[tuple[int, ...], tuple[str, int | None]] = {}   # c(M), read once per M

    def element(self, heaps) -> int:
        x = 0
        for h in heaps:
            x = int(self.table[x][self.phi[h]])
        return x

    def nim(self, heaps) -> int:
        v = 0
        for h in heaps:
            v ^= self.g[h]
        return v

    def c(self, M) -> tuple[str, int | None]:
        """``("value", v)``, ``("none", None)`` (no P-position) or ``("ambiguous", None)``."""
        M = tuple(M)
        got = self._c.get(M)
        if got is None:
            got = self._c[M] = self._read_c(M)
        return got

    def _read_c(self, M: tuple[int, ...]) -> tuple[str, int | None]:
        m, gm = self.element(M), self.nim(M)
        by_value: dict[int, set[bool]] = defaultdict(set)
        for e, gw in self.smalls:
            by_value[gm ^ gw].add(bool(self.P[int(self.table[m][e])]))
        if any(len(s) > 1 for s in by_value.values()):
            return "ambiguous", None
        ps = [v for v, s in by_value.items() if True in s]
        if not ps:
            return "none", None
        if len(ps) > 1:
            return "ambiguous", None
        return "value", ps[0]


def _count(dom: Dominance, k: int) -> int:
    """How many multisets of ``k`` large heaps there are."""
    return math.comb(dom.n - dom.large + k, k)


def multisets(dom: Dominance, k: int, sample: int | None = None):
    """The multisets of ``k`` large heaps (sorted tuples): all of them, or with ``sample`` and
    more than ``sample`` of them, ``sample`` distinct ones drawn at random (seeded by ``k``, so a
    rerun reads the same)."""
    if sample is None or _count(dom, k) <= sample:
        yield from itertools.combinations_with_replacement(range(dom.large, dom.n + 1), k)
        return
    rng = random.Random(k)
    seen: set[tuple[int, ...]] = set()
    while len(seen) < sample:
        M = tuple(sorted(rng.randint(dom.large, dom.n) for _ in range(k)))
        if M not in seen:
            seen.add(M)
            yield M


def measure(dom: Dominance, heaps: int = 3, mod: int = 2, cap: int = 12, cap_gap: int = 12,
            deadline: Deadline | None = None, learn_below: int | None = None,
            sample: int | None = None, moves: bool = False) -> list[dict]:
    """One record per ``k = 1 … heaps``: counts, the table of ``c`` by ``(D, residues)`` and
    its conflicts, ``c(M)`` against its largest heap's, the exact table (:func:`exact_table`)
    and, with ``moves``, where the N-positions win (:func:`largest_heap_moves`)."""
    out = []
    across: dict[tuple, set[bool]] = defaultdict(set)     # the coarse table over k = 1 … heaps
    for k in range(1, heaps + 1):
        cells: dict[tuple, set] = defaultdict(set)
        counts = {"multisets": 0, "ambiguous": 0, "none": 0}
        odd: dict[int, int] = defaultdict(int)      # ambiguous (or no P-position) by capped D
        for i, M in enumerate(multisets(dom, k, sample)):
            if deadline is not None and not i % CHECK_EVERY:
                deadline.check(f"measuring multisets of {k} large heap{'s' if k > 1 else ''}")
            counts["multisets"] += 1
            kind, v = dom.c(M)
            d = max(-cap, min(cap, M[-1] - sum(M[:-1])))
            if kind != "value":
                counts[kind] += 1
                odd[d] += 1
                continue
            cells[(d,) + tuple(h % mod for h in M)].add(v)
        conflicts = sorted(key for key, vals in cells.items() if len(vals) > 1)
        rule = _against_the_largest(dom, k, deadline, sample) if k > 1 else None
        values = sorted({v for vals in cells.values() for v in vals})
        rows = []
        sep = "" if mod <= 10 else ","             # residues of one digit are written together
        for d in range(-cap, cap + 1):
            row = {sep.join(map(str, key[1:])): sorted(vals) for key, vals in sorted(cells.items()) if key[0] == d}
            if row or odd[d]:
                rows.append({"D": d, "c": row, "other": odd[d]})
        out.append({"heaps": k, **counts, "values": values, "conflicts": [list(c) for c in conflicts],
                    "table": rows, "largest": rule,
                    "exact": exact_table(dom, k, mod, cap, cap_gap, deadline, learn_below, sample, across),
                    "sampled": sample is not None and _count(dom, k) > sample})
        if moves:
            out[-1]["largest_moves"] = largest_heap_moves(dom, k, mod, cap, deadline, sample)
    return out


def _summary(cells: dict, learned: dict | None, later: list, learn_below: int | None) -> dict:
    """Keys, conflicting keys (the first five) and, with ``learn_below``, the prediction of
    ``later`` from ``learned``."""
    conflicts = sorted(key for key, v in cells.items() if len(v) > 1)
    out = {"keys": len(cells), "conflicts": len(conflicts),
           "first_conflicts": [list(c) for c in conflicts[:5]]}
    if learn_below is not None and learned is not None:
        right = sum(1 for key, p in later if learned.get(key) == {p})
        unseen = sum(1 for key, _ in later if key not in learned)
        out["predicted"] = {"learn_below": learn_below, "right": right,
                            "wrong": len(later) - right - unseen, "unseen": unseen}
    return out


def exact_table(dom: Dominance, k: int, mod: int, cap: int, cap_gap: int,
                deadline: Deadline | None = None, learn_below: int | None = None,
                sample: int | None = None, across: dict | None = None) -> dict:
    """Whether the outcome of ``M + W`` (``k`` large heaps, ``W`` any small part) is a function
    of ``D(M)`` capped at ``±cap``, the gaps between consecutive heaps of ``M`` (sorted) capped
    at ``cap_gap``, the heaps' residues mod ``mod`` and the element of ``W``: the keys seen, the
    positions read, and the keys holding both a P- and an N-position (``conflicts``, the first
    five shown as ``[D, gaps, residues, element]``).

    With ``learn_below``, also a prediction: the table read off the multisets whose largest
    heap is ``<= learn_below`` predicts the others' outcomes (``predicted``: right, wrong, and
    unseen keys).

    ``coarse``: the same for the *coarse* key ``(D(M) capped, the largest heap's residue, the
    nim-value of the other large heaps, W's element)``, no gaps and one residue; with
    ``across`` (a dict kept over the calls for ``k = 1, 2, …``), ``coarse_up_to_k``: that table
    over every multiset of at most ``k`` large heaps, where the number of heaps is not a key."""
    cells: dict[tuple, set[bool]] = defaultdict(set)
    learned: dict[tuple, set[bool]] = defaultdict(set)
    later: list[tuple[tuple, bool]] = []
    coarse: dict[tuple, set[bool]] = defaultdict(set)
    coarse_learned: dict[tuple, set[bool]] = defaultdict(set)
    coarse_later: list[tuple[tuple, bool]] = []
    elements = sorted({e for e, _ in dom.smalls})
    positions = 0
    for i, M in enumerate(multisets(dom, k, sample)):
        if deadline is not None and not i % CHECK_EVERY:
            deadline.check(f"tabulating the outcomes of {k} large heap{'s' if k > 1 else ''}")
        m = dom.element(M)
        d = max(-cap, min(cap, M[-1] - sum(M[:-1])))
        gaps = tuple(min(cap_gap, M[j + 1] - M[j]) for j in range(k - 1))
        res = tuple(h % mod for h in M)
        top = coarse_key(dom, M, mod, cap)
        for e in elements:
            key, p = (d, gaps, res, e), bool(dom.P[int(dom.table[m][e])])
            cells[key].add(p)
            coarse[top + (e,)].add(p)
            if across is not None:
                across[top + (e,)].add(p)
            positions += 1
            if learn_below is not None:
                if M[-1] <= learn_below:
                    learned[key].add(p)
                    coarse_learned[top + (e,)].add(p)
                else:
                    later.append((key, p))
                    coarse_later.append((top + (e,), p))
    out = {"positions": positions, **_summary(cells, learned, later, learn_below)}
    out["first_conflicts"] = [[d, list(g), list(r), e] for d, g, r, e in out["first_conflicts"]]
    out["coarse"] = _summary(coarse, coarse_learned, coarse_later, learn_below)
    if across is not None:
        out["coarse_up_to_k"] = _summary(across, None, [], None)
    return out


def coarse_key(dom: Dominance, M: tuple[int, ...], mod: int, cap: int) -> tuple[int, int, int]:
    """The coarse key of ``M`` (the small part's element is added by the caller): ``(D(M) capped
    at ±cap, max M mod mod, the nim-value of the other heaps of M)``."""
    return max(-cap, min(cap, M[-1] - sum(M[:-1]))), M[-1] % mod, dom.nim(M[:-1])


def small_closure(dom: Dominance, small: int, size_cap: int | None = None) -> list[tuple[int, ...]]:
    """One small part (heaps ``<= small``, any number of them) for each pair (element of ``Q_n``,
    Grundy value) that such positions reach — the submonoid those heaps generate, with the
    nim-values beside it — or with ``size_cap``, for each triple with the number of tokens
    ``<= size_cap`` too (a closure from the empty position)."""
    def key(x: int, v: int, z: int) -> tuple[int, ...]:
        return (x, v) if size_cap is None else (x, v, z)
    reps = {key(0, 0, 0): ()}
    todo = [(0, 0, 0)]
    while todo:
        x, v, z = todo.pop()
        w = reps[key(x, v, z)]
        for h in range(1, small + 1 if size_cap is None else min(small, size_cap - z) + 1):
            y = (int(dom.table[x][dom.phi[h]]), v ^ dom.g[h], z + h)
            if key(*y) not in reps:
                reps[key(*y)] = tuple(sorted(w + (h,)))
                todo.append(y)
    return sorted(reps.values(), key=lambda w: (sum(w), w))


def whole_small_parts(dom: Dominance, size_cap: int) -> list[tuple[int, ...]]:
    """One small part (heaps ``<= dom.small``, any number of them) for each triple (element of
    ``Q_n``, Grundy value, number of tokens ``<= size_cap``) that such positions reach."""
    return small_closure(dom, dom.small, size_cap)


def coarse_with_small(dom: Dominance, k: int, mod: int, cap: int, parts: list[tuple[int, ...]],
                      deadline: Deadline | None = None, sample: int | None = None) -> dict:
    """The coarse table with the small part counted in ``D``: the outcome of ``M + W`` (``k``
    large heaps, ``W`` each of ``parts``) keyed by ``(D, the largest heap's residue, the
    nim-value of the other large heaps, W's element, W's nim-value)``, ``D = max M − (every
    other heap, W's too)`` capped at ``±cap``; ``conflicts`` among ``keys``, and the same without
    W's nim-value (``conflicts_without_nim``)."""
    cells: dict[tuple, set[bool]] = defaultdict(set)
    small = [(dom.element(W), dom.nim(W), sum(W)) for W in parts]
    for i, M in enumerate(multisets(dom, k, sample)):
        if deadline is not None and not i % 50:
            deadline.check(f"the coarse table of {k} large heaps with the small part counted in D")
        m, rest = dom.element(M), M[-1] - sum(M[:-1])
        top = (M[-1] % mod, dom.nim(M[:-1]))
        for e, gw, z in small:
            d = max(-cap, min(cap, rest - z))
            cells[(d,) + top + (e, gw)].add(bool(dom.P[int(dom.table[m][e])]))
    without: dict[tuple, set[bool]] = defaultdict(set)
    for key, v in cells.items():
        without[key[:-1]] |= v
    bad = sorted(key for key, v in cells.items() if len(v) > 1)
    return {"keys": len(cells), "conflicts": len(bad), "first_conflicts": [list(c) for c in bad[:5]],
            "conflicts_without_nim": sum(1 for v in without.values() if len(v) > 1)}


def all_heap_positions(dom: Dominance, heaps: int, sample: int | None, many_small: int = 0):
    """The positions :func:`all_heaps_table` reads: every multiset of one to three heaps
    ``<= n`` (as many as ``heaps`` allows), then for each size from four to ``heaps``,
    ``sample`` multisets drawn at random (seeded by ``heaps``: a rerun reads the same; repeats
    possible), and with ``many_small``, for each size from four to eleven, ``many_small``
    positions of one heap ``<= n`` beside heaps ``<= 8``; sorted tuples, any largest heap (the
    caller keeps the large ones)."""
    for k in range(1, min(heaps, 3) + 1):
        yield from itertools.combinations_with_replacement(range(1, dom.n + 1), k)
    rng = random.Random(heaps)
    for k in range(4, heaps + 1):
        for _ in range(sample or 0):
            yield tuple(sorted(rng.randint(1, dom.n) for _ in range(k)))
    for k in range(4, 12):
        for _ in range(many_small):
            yield tuple(sorted([rng.randint(1, 8) for _ in range(k - 1)] + [rng.randint(1, dom.n)]))


def class_count_key(dom: Dominance, X: tuple[int, ...], mod: int, cap: int, small: int, count_cap: int,
                    exact_below: int) -> tuple:
    """The key of a position ``X`` (sorted) with every heap counted and the other heaps by their
    classes: ``(D capped at ±cap, the largest heap's class, the other heaps' class counts)``; a
    heap's class is its size up to ``small`` and ``small + 1 +`` its residue mod ``mod`` above
    (the largest heap's: its size below ``exact_below``, else ``exact_below +`` its residue), a
    count ``c`` is kept as ``(min(c, count_cap), c mod 2)``."""
    m, rest = X[-1], X[:-1]
    counts = [0] * (small + 1 + mod)
    for h in rest:
        counts[h if h <= small else small + 1 + h % mod] += 1
    top = m if m < exact_below else exact_below + m % mod
    return ((max(-cap, min(cap, m - sum(rest))), top)
            + tuple((min(c, count_cap), c % 2) for c in counts[1:]))


def class_count_table(dom: Dominance, mod: int, cap: int, small: int, count_cap: int, exact_below: int,
                      heaps: int = 3, sample: int | None = None, many_small: int = 0,
                      learn_below: int | None = None, deadline: Deadline | None = None) -> dict:
    """The outcome of every position :func:`all_heap_positions` yields (any largest heap) keyed by
    :func:`class_count_key`: keys, conflicting keys (``by_d``: how many at each ``D``), and with
    ``learn_below`` the table read off the positions whose largest heap is ``<= learn_below``
    predicting the others (right, wrong, unseen keys)."""
    cells, out = _keyed_outcomes(dom, lambda X: class_count_key(dom, X, mod, cap, small, count_cap, exact_below),
                                 heaps, sample, many_small, learn_below, deadline, "the class-count table")
    out["by_d"] = dict(sorted(Counter(key[0] for key, v in cells.items() if len(v) > 1).items()))
    return out


def _keyed_outcomes(dom: Dominance, key_of, heaps: int, sample: int | None, many_small: int,
                    learn_below: int | None, deadline: Deadline | None, what: str) -> tuple[dict, dict]:
    """``(cells, summary)``: the outcomes of the positions :func:`all_heap_positions` yields by
    ``key_of(X)``, and the positions read, keys, conflicting keys and, with ``learn_below``, the
    prediction of the positions whose largest heap is larger by the table of the others."""
    cells: dict[tuple, set[bool]] = defaultdict(set)
    learned: dict[tuple, set[bool]] = defaultdict(set)
    later: list[tuple[tuple, bool]] = []
    read = 0
    for read, X in enumerate(all_heap_positions(dom, heaps, sample, many_small), start=1):
        if deadline is not None and not read % CHECK_EVERY:
            deadline.check(what)
        key, p = key_of(X), bool(dom.P[dom.element(X)])
        cells[key].add(p)
        if learn_below is not None:
            (learned[key].add(p) if X[-1] <= learn_below else later.append((key, p)))
    out = {"positions": read, "keys": len(cells), "conflicts": sum(1 for v in cells.values() if len(v) > 1)}
    if learn_below is not None:
        right = sum(1 for key, p in later if learned.get(key) == {p})
        unseen = sum(1 for key, _ in later if key not in learned)
        out["predicted"] = {"learn_below": learn_below, "right": right, "wrong": len(later) - right - unseen,
                            "unseen": unseen}
    return cells, out


def all_heaps_table(dom: Dominance, mod: int, cap: int, heaps: int = 3, sample: int | None = None,
                    deadline: Deadline | None = None) -> dict:
    """The coarse key with *every* heap counted: for each position ``X`` of heaps ``<= n`` whose
    largest heap ``m`` is large (``>= dom.large``) — every multiset of one to three heaps, and of
    four to ``heaps`` heaps ``sample`` drawn at random (seeded) for each size — the outcome keyed
    by ``(D, m mod mod, the nim-value of the other heaps)``, ``D = m − (the sum of the other
    heaps)`` capped at ``±cap``, the other heaps of any size and number (the coarse table of
    :func:`exact_table` reads only large heaps and a small part of at most two heaps, which
    enters by its element and not in ``D``). ``conflicts``: keys holding a P- and an N-position;
    ``band``: the least and largest ``D`` of a conflicting key; ``by_heaps``: conflicting keys
    by the number of heaps of their positions; ``with_count``: conflicts when the number of heaps
    is a key too; ``examples``: a P- and an N-position of the first conflicting keys."""
    cells: dict[tuple, set[bool]] = defaultdict(set)
    counted: dict[tuple, set[bool]] = defaultdict(set)
    example: dict[tuple, tuple[int, ...]] = {}
    sizes: dict[tuple, set[int]] = defaultdict(set)
    read = 0
    for i, X in enumerate(all_heap_positions(dom, heaps, sample)):
        if deadline is not None and not i % CHECK_EVERY:
            deadline.check("the coarse table with every heap counted")
        m, rest = X[-1], X[:-1]
        if m < dom.large:
            continue
        key = (max(-cap, min(cap, m - sum(rest))), m % mod, dom.nim(rest))
        p = bool(dom.P[dom.element(X)])
        cells[key].add(p)
        counted[key + (len(X),)].add(p)
        example.setdefault(key + (p,), X)
        sizes[key].add(len(X))
        read += 1
    bad = sorted(key for key, v in cells.items() if len(v) > 1)
    by_heaps: dict[int, int] = defaultdict(int)
    for key in bad:
        for k in sizes[key]:
            by_heaps[k] += 1
    return {"positions": read, "keys": len(cells), "conflicts": len(bad),
            "band": [bad[0][0], max(key[0] for key in bad)] if bad else None,
            "by_heaps": dict(sorted(by_heaps.items())),
            "with_count": sum(1 for v in counted.values() if len(v) > 1),
            "examples": [[list(key), list(example[key + (True,)]), list(example[key + (False,)])] for key in bad[:3]]}


def weighted_key(dom: Dominance, X: tuple[int, ...], mod: int, cap: int, weights: Sequence[int],
                 exact_below: int = 4) -> tuple[int, int, int]:
    """``(z capped at ±cap, the largest heap's class, the nim-value of the other heaps)`` for a
    position ``X`` (sorted), ``z = m − Σ (h − weights[h mod mod])`` over the other heaps ``h``
    (``weights`` all 0: ``z = D``; ``0.734``: weights ``(0, 1, 0, 1)``, ``z = m − Σ 2⌊h/2⌋``); the
    largest heap's class is its size below ``exact_below``, else ``exact_below +`` its residue."""
    m, rest = X[-1], X[:-1]
    z = m - sum(h - weights[h % mod] for h in rest)
    return max(-cap, min(cap, z)), (m if m < exact_below else exact_below + m % mod), dom.nim(rest)


def weighted_table(dom: Dominance, mod: int, cap: int, weights: Sequence[int], heaps: int = 3,
                   sample: int | None = None, many_small: int = 0, learn_below: int | None = None,
                   deadline: Deadline | None = None) -> dict:
    """The outcome of every position :func:`all_heap_positions` yields keyed by
    :func:`weighted_key`: keys, conflicting keys, the table (``table``: for each class of the
    largest heap and nim-value of the others, ``z`` → ``"P"``, ``"N"`` or ``"?"``), and with
    ``learn_below`` the prediction of the positions whose largest heap is larger."""
    cells, out = _keyed_outcomes(dom, lambda X: weighted_key(dom, X, mod, cap, weights), heaps, sample,
                                 many_small, learn_below, deadline, "the weighted table")
    table: dict[str, dict[int, str]] = defaultdict(dict)
    for (z, top, v), outs in sorted(cells.items()):
        table[f"{top},{v}"][z] = "?" if len(outs) > 1 else ("P" if True in outs else "N")
    out["table"] = dict(table)
    return out


def largest_heap_moves(dom: Dominance, k: int, mod: int, cap: int, deadline: Deadline | None = None,
                       sample: int | None = None) -> dict:
    """Where the N-positions ``M + W`` (``k`` large heaps, ``W`` every small part) have their
    winning moves: for each coarse key, the moves on the largest heap ``m`` that win from *every*
    N-position of the key, a move written relative to ``m`` as ``(t, s)``: take ``t`` tokens and
    leave one heap ``m − t − s`` and, unless ``s`` is None, a heap ``s < --large`` beside it (a
    split into two large heaps is not written so).
    ``keys``: N-keys seen; ``uniform``: those with such a move; ``positions``: N-positions;
    ``without``: those in keys without one, counted by the heaps where they have a winning move
    (``by_kind``: ``largest``, ``second``, ``other`` large heap, ``small`` part)."""
    if dom.options is None:
        raise ValueError("largest_heap_moves needs the heaps' options (a Dominance from dominance())")

    def p(heaps) -> bool:
        return bool(dom.P[dom.element(heaps)])

    won: dict[tuple, set | None] = {}
    count: dict[tuple, int] = defaultdict(int)
    kept: list[tuple[tuple, tuple, tuple]] = []
    for i, M in enumerate(multisets(dom, k, sample)):
        if deadline is not None and not i % CHECK_EVERY:
            deadline.check(f"reading the winning moves of {k} large heap{'s' if k > 1 else ''}")
        m, rest, top = M[-1], M[:-1], coarse_key(dom, M, mod, cap)
        for W in dom.parts:
            if p(M + W):
                continue
            key = top + (dom.element(W),)
            count[key] += 1
            good = set()
            for o in dom.options[m]:
                if len(o) == 2 and min(o) >= dom.large:
                    continue                    # two large heaps: not a move written relative to m
                if p(rest + o + W):
                    good.add((m - sum(o), min(o) if len(o) == 2 else None))
            won[key] = good if won.get(key) is None else won[key] & good
            kept.append((key, M, W))
    by_kind: dict[str, int] = defaultdict(int)
    for key, M, W in kept:
        if won[key]:
            continue
        kinds = set()
        for j, h in enumerate(M):
            role = "largest" if j == k - 1 else "second" if j == k - 2 else "other"
            if role not in kinds and any(p(M[:j] + M[j + 1:] + o + W) for o in dom.options[h]):
                kinds.add(role)
        for j, h in enumerate(W):
            if any(p(M + W[:j] + W[j + 1:] + o) for o in dom.options[h]):
                kinds.add("small")
                break
        by_kind["+".join(sorted(kinds)) or "none"] += 1
    return {"keys": len(count), "uniform": sum(1 for key in count if won[key]),
            "positions": sum(count.values()), "without": sum(by_kind.values()), "by_kind": dict(by_kind)}


def grundy_period(g: list[int], lo: int) -> int:
    """The least ``p`` with ``g[h + p] = g[h]`` for every ``lo <= h <= len(g) − 1 − p`` (at most
    half the range; else the range's length)."""
    n = len(g) - 1
    for p in range(1, (n - lo) // 2 + 1):
        if all(g[h + p] == g[h] for h in range(lo, n - p + 1)):
            return p
    return n - lo + 1


def residue_period(dom: Dominance, cap_gap: int) -> int:
    """The residues the tables use by default: the least multiple ``p`` of the Grundy values'
    period on the large heaps with which the outcomes of ``h + (h + gap) + W`` (every
    ``gap <= cap_gap``, every small part ``W``) repeat when ``h`` moves by ``p``, over the large
    heaps read (at most a third of their range; else the Grundy period). The misère outcomes
    may repeat more slowly than the Grundy values (``0.357``: Grundy period 2, pairs period 3)."""
    base = grundy_period(dom.g, dom.large)
    elements = sorted({e for e, _ in dom.smalls})

    def p_of(h: int, gap: int, e: int) -> bool:
        return bool(dom.P[int(dom.table[dom.element((h, h + gap))][e])])

    span = dom.n - dom.large
    for p in range(base, span // 3 + 1, base):
        if all(p_of(h, gap, e) == p_of(h + p, gap, e)
               for gap in range(cap_gap + 1) for h in range(dom.large, dom.n - p - gap + 1)
               for e in elements):
            return p
    return base


def _against_the_largest(dom: Dominance, k: int, deadline: Deadline | None = None,
                         sample: int | None = None) -> dict:
    """``c(M)`` of ``k`` large heaps against ``c`` of its largest heap alone: the least ``D`` with
    ``c(M) = c(max M) != 0`` (``follows_from``), the largest ``D`` with ``c(M) = 0 != c(max M)``
    (``zero_up_to``), and how many ``M`` have a ``c`` that is neither (``other``); multisets
    that are ambiguous, or whose largest heap alone is, are not counted (``compared``: the rest)."""
    alone = {h: dom.c((h,)) for h in range(dom.large, dom.n + 1)}
    follows = zero = None
    other = compared = 0
    for i, M in enumerate(multisets(dom, k, sample)):
        if deadline is not None and not i % CHECK_EVERY:
            deadline.check(f"comparing multisets of {k} large heaps with their largest")
        kind, v = dom.c(M)
        top_kind, top = alone[M[-1]]
        if kind != "value" or top_kind != "value":
            continue
        compared += 1
        d = M[-1] - sum(M[:-1])
        if v == top and v != 0:
            follows = d if follows is None else min(follows, d)
        elif v == 0 and top != 0:
            zero = d if zero is None else max(zero, d)
        elif v != top:
            other += 1
    return {"follows_from": follows, "zero_up_to": zero, "other": other, "compared": compared}


def dominance(code: str, n: int, small: int, large: int, store=None,
              deadline: Deadline | None = None, whole_small: bool = False) -> Dominance:
    """A :class:`Dominance` of ``code`` from its verified ``Q_n`` (computed, or read from ``store``)."""
    from cgtalg.quotients.construct import misere_quotient
    from cgtalg.rulesets.heaps.grundy_engine import grundy_sequence
    from cgtalg.rulesets.heaps.octal import TakeAndBreak

    rules = TakeAndBreak(code)
    secs = None if deadline is None else max(1.0, deadline.remaining())
    q = misere_quotient(rules, max_heap=n, max_seconds=secs, store=store)
    grundy = [int(v) for v in grundy_sequence(rules, n + 1, deadline=deadline)]
    options = [[tuple(o) for o in rules.heap_options(h)] for h in range(n + 1)]
    return Dominance(q.table, q.P, q.phi, grundy, small, large, options, whole_small)


def _show(rec: dict) -> str:
    lines = [f"  {rec['heaps']} large heap{'s' if rec['heaps'] > 1 else ''}: {rec['multisets']:,} multisets"
             f"{' (a seeded sample)' if rec.get('sampled') else ''}, "
             f"{rec['ambiguous']:,} ambiguous, {rec['none']:,} with no P-position; c in {rec['values']}, "
             f"{len(rec['conflicts'])} conflict{'s' if len(rec['conflicts']) != 1 else ''}"]
    if rec.get("largest"):
        r = rec["largest"]
        lines.append(f"    against the largest heap alone ({r['compared']:,} compared): c(M) = c(max M) != 0 "
                     f"from D = {r['follows_from']}, c(M) = 0 != c(max M) up to D = {r['zero_up_to']}, "
                     f"{r['other']:,} neither")
    for row in rec["table"]:
        vals = {tuple(v) for v in row["c"].values()}
        shown = ("/".join(map(str, vals.pop())) if len(vals) == 1
                 else " ".join(f"{k}:{'/'.join(map(str, v))}" for k, v in row["c"].items()) or "-")
        extra = f"  ({row['other']} ambiguous or without P)" if row["other"] else ""
        lines.append(f"    D = {row['D']:>3}: c = {shown}{extra}")
    x = rec.get("exact")
    if x:
        lines.append(f"    exact table (D, gaps, residues, small element): {x['positions']:,} positions, "
                     f"{x['keys']:,} keys, {x['conflicts']:,} conflicting"
                     + (f", e.g. {x['first_conflicts'][0]}" if x["conflicts"] else ""))
        if "predicted" in x:
            q = x["predicted"]
            lines.append(f"    read off largest heaps <= {q['learn_below']}, the table predicts the others: "
                         f"{q['right']:,} right, {q['wrong']:,} wrong, {q['unseen']:,} with a key not seen")
        c, a = x["coarse"], x["coarse_up_to_k"]
        lines.append(f"    coarse table (D, the largest heap's residue, nim-value of the others, small element): "
                     f"{c['keys']:,} keys, {c['conflicts']:,} conflicting"
                     + (f", e.g. {c['first_conflicts'][0]}" if c["conflicts"] else "")
                     + (f"; predicts {c['predicted']['right']:,} right, {c['predicted']['wrong']:,} wrong, "
                        f"{c['predicted']['unseen']:,} unseen" if "predicted" in c else "")
                     + f"; with 1 … {rec['heaps']} large heaps together: {a['keys']:,} keys, "
                     f"{a['conflicts']:,} conflicting")
    w = rec.get("largest_moves")
    if w:
        kinds = ", ".join(f"{k} {v:,}" for k, v in sorted(w["by_kind"].items())) or "-"
        lines.append(f"    N-positions: {w['positions']:,} in {w['keys']:,} coarse keys; {w['uniform']:,} keys have one "
                     f"move on the largest heap winning from all their positions; the {w['without']:,} positions "
                     f"of the others win with a move on: {kinds}")
    c = rec.get("coarse_d_small")
    if c:
        lines.append(f"    coarse table with the small part counted in D ({c['parts']:,} small parts): {c['keys']:,} keys, "
                     f"{c['conflicts']:,} conflicting{', e.g. ' + str(c['first_conflicts'][0]) if c['conflicts'] else ''}"
                     f"; without W's nim-value {c['conflicts_without_nim']:,}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("code", help="an octal code, e.g. 0.337")
    ap.add_argument("-n", type=int, required=True, help="the verified quotient Q_n read (heaps <= n)")
    ap.add_argument("--small", type=int, default=7, help="heaps of the small part W (default <= 7)")
    ap.add_argument("--large", type=int, default=20, help="heaps of M (default >= 20)")
    ap.add_argument("--heaps", type=int, default=3, help="multisets M of 1 … HEAPS large heaps (default 3)")
    ap.add_argument("--mod", type=int, default=0,
                    help="residues of the heaps in the tables (default 0: the period of the large heaps' outcomes, residue_period)")
    ap.add_argument("--cap", type=int, default=24, help="D capped at ±CAP (default 24)")
    ap.add_argument("--cap-gap", type=int, default=16, help="gaps of the exact table capped at CAP_GAP (default 16)")
    ap.add_argument("--sample", type=int, default=None,
                    help="at most SAMPLE multisets of each size, drawn at random (seeded) when there are more")
    ap.add_argument("--learn-below", type=int, default=None,
                    help="also predict: the exact table read off largest heaps <= LEARN_BELOW, checked on the rest")
    ap.add_argument("--moves", action="store_true",
                    help="also: which N-positions of a coarse key share one winning move on the largest heap")
    ap.add_argument("--whole-small", action="store_true",
                    help="the small part W any position of heaps <= SMALL (one per element of the submonoid "
                         "they generate and Grundy value), not at most two heaps")
    ap.add_argument("--d-small", type=int, default=None, metavar="TOKENS",
                    help="also: the coarse table with the small part counted in D, W any position of heaps "
                         "<= SMALL of at most TOKENS tokens")
    ap.add_argument("--all-heaps", type=int, default=None, metavar="K",
                    help="also: the coarse key with every heap counted in D, over every position of one to three "
                         "heaps <= n with a large largest heap and, with --sample, sampled ones of four to K heaps")
    ap.add_argument("--class-counts", default=None, metavar="SMALL,COUNT_CAP,EXACT_BELOW,MANY_SMALL",
                    help="also: the outcome of every position (--all-heaps K heaps, sampled as there, and "
                         "MANY_SMALL positions of many heaps <= 8 for each size 4 … 11) keyed by D capped at --cap, "
                         "the largest heap's class and the other heaps' class counts (class_count_key)")
    ap.add_argument("--weights", default=None, metavar="W0,W1,…",
                    help="also: every position (as for --class-counts) keyed by z = max − Σ (h − W[h mod --mod]) over "
                         "the other heaps h, the largest heap's class and the others' nim-value (weighted_key)")
    ap.add_argument("--store", default=None, help="a store URL (default: compute, store nothing)")
    ap.add_argument("--time", default="5m", help="CPU-time budget (default 5m)")
    ap.add_argument("--json", default=None, help="write the measurement here")
    args = ap.parse_args(argv)
    if (not 0 <= args.small < args.large <= args.n or args.heaps < 1 or args.mod < 0 or args.cap < 1
            or args.cap_gap < 1 or (args.sample is not None and args.sample < 1)):
        ap.error("need 0 <= --small < --large <= -n, --heaps >= 1, --mod >= 0, --cap >= 1 and --cap-gap >= 1")
    for name, text, count in (("--class-counts", args.class_counts, 4), ("--weights", args.weights, None)):
        try:
            numbers = None if text is None else [int(x) for x in text.split(",")]
        except ValueError:
            numbers = []
        if numbers is not None and (not numbers or (count is not None and len(numbers) != count)
                                    or (count is not None and min(numbers) < 0)):
            ap.error(f"{name} takes {count or 'one or more'} comma-separated integers"
                     f"{' >= 0' if count else ''}, not {text!r}")
    if args.d_small is not None and args.d_small < 0:
        ap.error("--d-small must be >= 0")
    try:
        deadline = Deadline(parse_duration(args.time))
        store = None
        if args.store:
            from cgtalg.store import open_store
            store = open_store(args.store)
        dom = dominance(args.code, args.n, args.small, args.large, store, deadline, args.whole_small)
        mod = args.mod or residue_period(dom, args.cap_gap)
        recs = measure(dom, args.heaps, mod, args.cap, args.cap_gap, deadline, args.learn_below, args.sample,
                       args.moves)
        every = None if args.all_heaps is None else all_heaps_table(dom, mod, args.cap, args.all_heaps, args.sample,
                                                                    deadline)
        counted = None
        if args.class_counts is not None:
            sm, cc, eb, ms = (int(x) for x in args.class_counts.split(","))
            counted = class_count_table(dom, mod, args.cap, sm, cc, eb, args.all_heaps or 3, args.sample, ms,
                                        args.learn_below, deadline)
        weighted = None
        if args.weights is not None:
            ws = [int(x) for x in args.weights.split(",")]
            if len(ws) != mod:
                raise CgtalgError(f"--weights needs {mod} numbers (one per residue mod {mod}), not {len(ws)}")
            ms = int(args.class_counts.split(",")[3]) if args.class_counts else 0
            weighted = weighted_table(dom, mod, args.cap, ws, args.all_heaps or 3, args.sample, ms,
                                      args.learn_below, deadline)
        if args.d_small is not None:
            parts = whole_small_parts(dom, args.d_small)
            for rec in recs:
                rec["coarse_d_small"] = coarse_with_small(dom, rec["heaps"], mod, args.cap, parts, deadline,
                                                          args.sample)
                rec["coarse_d_small"]["parts"] = len(parts)
    except CgtalgError as exc:
        print(f"dominant_heap.py: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("dominant_heap.py: interrupted", file=sys.stderr)
        return 130
    print(f"{args.code}: Q_{args.n}, large heaps >= {args.large}, small part <= {args.small} "
          f"({len(dom.smalls)} elements); c(M) by D = max − sum of the others and residues mod {mod}")
    for rec in recs:
        print(_show(rec))
    if every is not None:
        print(f"  every heap counted in D (key: D, the largest heap's residue, the others' nim-value): "
              f"{every['positions']:,} positions, {every['keys']:,} keys, {every['conflicts']:,} conflicting"
              + (f" with D in {every['band']}, by number of heaps {every['by_heaps']}; with the number of heaps "
                 f"a key: {every['with_count']:,}" if every['conflicts'] else ""))
    if counted is not None:
        pr = counted.get("predicted")
        print(f"  class counts (D, the largest heap's class, the others' class counts): {counted['positions']:,} "
              f"positions, {counted['keys']:,} keys, {counted['conflicts']:,} conflicting"
              + (f" (by D: {counted['by_d']})" if counted['conflicts'] else "")
              + (f"; read off largest heaps <= {pr['learn_below']}: {pr['right']:,} right, {pr['wrong']:,} wrong, "
                 f"{pr['unseen']:,} unseen" if pr else ""))
    if weighted is not None:
        pr = weighted.get("predicted")
        print(f"  weighted (z, the largest heap's class, the others' nim-value): {weighted['positions']:,} positions, "
              f"{weighted['keys']:,} keys, {weighted['conflicts']:,} conflicting"
              + (f"; read off largest heaps <= {pr['learn_below']}: {pr['right']:,} right, {pr['wrong']:,} wrong, "
                 f"{pr['unseen']:,} unseen" if pr else ""))
        for cell, row in weighted["table"].items():
            if "P" in row.values() or "?" in row.values():
                print(f"    class,G = {cell}: " + " ".join(f"{z}:{o}" for z, o in sorted(row.items())))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"code": args.code, "n": args.n, "small": args.small, "large": args.large,
                       "mod": mod, "cap": args.cap, "cap_gap": args.cap_gap, "measured": recs,
                       "all_heaps": every, "class_counts": counted, "weighted": weighted}, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
