"""The two searches of the referee's quotient check that must be fast at large heaps.

:func:`option_images` reads the images of a heap's options off a take-and-break code's digits
without listing the options; :func:`n_condition` searches the N-condition of the verification
principle (:mod:`cgtalg.referee.quotients`, whose module docstring states it) over the pairs
``(x, U)``. Both are the referee's own: they import numpy and the referee only.
"""

from __future__ import annotations

import heapq

import numpy as np

from cgtalg.referee.heaps import HeapRules

__all__ = ["option_images", "n_condition"]


def option_images(rules: HeapRules, n: int, phi: np.ndarray, table: np.ndarray) -> set[int] | None:
    """The images in ``table`` of the options of one heap of ``n`` tokens (each option the
    product of ``phi`` of the heaps it leaves), or ``None`` when the heap has no move.

    For a take-and-break code the options are read off its digits here, without listing them
    (:meth:`HeapRules.options` lists and keeps every option, about ``n/2`` per splitting digit,
    which for a final quotient certified near heap 7,500 is tens of millions of tuples): a move
    taking ``t`` tokens by digit ``d_t`` leaves nothing (bit 1), one heap ``m = n - t`` (bit 2),
    two heaps ``m - a, a`` for ``1 <= a <= m/2`` (bit 4: one vectorised lookup), or three (bit 8,
    listed). Other rules (subtraction sets, all-but and Grundy's game) list their options."""
    if rules.kind != "code":
        imgs = set()
        for parts in rules.options(n):
            x = 0
            for a in parts:
                x = int(table[x, phi[a]])
            imgs.add(x)
        return imgs or None
    imgs: set[int] = set()
    moved = False
    for m, d in rules.digit_moves(n):
        if m == 0:
            if d & 1:
                moved = True
                imgs.add(0)
            continue
        if d & 2:
            moved = True
            imgs.add(int(phi[m]))
        if d & 4 and m >= 2:
            moved = True
            a = np.arange(1, m // 2 + 1)
            imgs.update(np.unique(table[phi[m - a], phi[a]]).tolist())
        if d & 8 and m >= 3:
            moved = True
            for a in range(1, m // 3 + 1):
                b = np.arange(a, (m - a) // 2 + 1)
                if b.size:
                    imgs.update(np.unique(table[table[phi[m - a - b], phi[b]], phi[a]]).tolist())
    return imgs if moved else None


#: Words compared at once in a subset test (bounds its temporary arrays to some 32 MB).
_WORDS = 1 << 22
#: Elements ``(state, kind, z)`` of the candidate array built for one batch of states.
_CANDIDATES = 1 << 22


def _pack(rows: np.ndarray) -> np.ndarray:
    """Each row of a boolean matrix as ``ceil(n/64)`` little-endian uint64 words (bit ``z`` of the
    row's set is entry ``z``), so a subset test is a few word operations."""
    packed = np.packbits(np.asarray(rows, dtype=bool), axis=-1, bitorder="little")
    pad = -packed.shape[-1] % 8
    if pad:
        packed = np.concatenate([packed, np.zeros(packed.shape[:-1] + (pad,), np.uint8)], axis=-1)
    return np.ascontiguousarray(packed).view(np.uint64)


def _subsets(sets: np.ndarray, of: np.ndarray) -> np.ndarray:
    """``out[i]``: how many rows of ``of`` are subsets of row ``i`` of ``sets`` (packed words)."""
    out = np.zeros(len(sets), dtype=np.int64)
    if not len(of):
        return out
    step = max(1, _WORDS // of.size)
    for i in range(0, len(sets), step):
        outside = (of[None, :, :] & ~sets[i:i + step, None, :]).any(axis=2)
        out[i:i + step] = (~outside).sum(axis=1)
    return out


def _first_of_each(rows: np.ndarray) -> np.ndarray:
    """The index of the first occurrence of each distinct row of a 2-d array, in order."""
    rows = np.ascontiguousarray(rows)
    keys = rows.view(np.dtype((np.void, rows.dtype.itemsize * rows.shape[1]))).reshape(-1)
    return np.sort(np.unique(keys, return_index=True)[1])


def _kinds(table: np.ndarray, in_p: np.ndarray, phi: list[int], S: list[list[int]]
           ) -> tuple[list[int], np.ndarray, np.ndarray]:
    """The heaps worth adding in the N-search: ``(heaps, images, G)`` with ``G[k]`` the set
    ``G_h = {w : w·S_h ∩ P ≠ ∅}`` (a boolean row) of the ``k``-th heap ``h``, sorted by heap.

    In a commutative monoid ``C_h(x) = {z : x·s·z ∈ P for some s ∈ S_h} = x⁻¹G_h``, so heap ``h``
    is known, for the search, by its image and ``G_h``. A heap whose ``G_h`` contains the ``G`` of
    another heap with the same image (equal: a heap before it) reaches, at every ``x``, a superset
    of what the other reaches, and is left out (the step is monotone)."""
    first: dict[tuple[int, tuple[int, ...]], int] = {}
    for h, s_h in enumerate(S):
        if s_h:
            first.setdefault((int(phi[h]), tuple(s_h)), h)
    by_image: dict[int, tuple[list[int], list[np.ndarray]]] = {}
    for (y, s_h), h in sorted(first.items(), key=lambda kv: kv[1]):
        heaps, rows = by_image.setdefault(y, ([], []))
        heaps.append(h)
        rows.append(in_p[table[:, list(s_h)]].any(axis=1))
    kinds: list[tuple[int, int, np.ndarray]] = []
    for y, (heaps, rows) in by_image.items():
        g = np.array(rows)
        once = _first_of_each(_pack(g))               # the first heap of each distinct G
        packed = _pack(g[once])
        for j in np.flatnonzero(_subsets(packed, packed) == 1):   # only itself below it
            kinds.append((heaps[once[j]], y, g[once[j]]))
    kinds.sort(key=lambda k: k[0])
    size = table.shape[0]
    return ([h for h, _, _ in kinds], np.array([y for _, y, _ in kinds], dtype=np.int64),
            np.array([g for _, _, g in kinds], dtype=bool).reshape(len(kinds), size))


def n_condition(table: np.ndarray, P: np.ndarray, phi: list[int], S: list[list[int]],
                max_states: int, batch: int = 32) -> list[str]:
    """The N-condition of the verification principle (module docstring of
    :mod:`cgtalg.referee.quotients`), searched over the pairs ``(x, U)`` with ``U = U(T) =
    {z : T·z ∩ P ≠ ∅}`` in place of ``(x, T)``, on the commutative monoid ``table``.

    ``U`` keeps of ``T`` what the condition can ever ask: a later position ``G + X`` has the
    options ``T(G)·Φ(X)`` among its own, and one of them is in ``P`` exactly when ``Φ(X) ∈ U``;
    the condition itself asks ``T ∩ P ≠ ∅``, that is ``1 ∈ U``. Adding heap ``h`` to ``(x, U)``
    gives ``(x·y, y⁻¹U ∪ x⁻¹G_h)`` with ``y = Φ(h)``, ``y⁻¹U = {z : yz ∈ U}`` and ``G_h = {w :
    w·S_h ∩ P ≠ ∅}``: this is ``U`` of ``T·y ∪ x·S_h`` (the union of the ``U`` of each part, and
    ``U(T·y) = y⁻¹U(T)``). The step is monotone in ``U``, and failing (``x ∉ P``, ``1 ∉ U``) is
    inherited by smaller ``U`` at the same ``x``, so only inclusion-minimal ``U`` per ``x`` are
    kept and expanded; a kept pair later undercut by a smaller ``U`` is not expanded (the smaller
    one reaches less). Only the heaps of :func:`_kinds` are added. Every candidate pair is a
    reachable position's, so any failing candidate is a counterexample, named by its heaps.

    Pairs are expanded smallest ``U`` first, ``batch`` at a time: small sets tend to undercut
    large ones, so few pairs are expanded before they would be undercut (for the order-172
    quotient of 0.3777, 574 kinds: about 220 pairs expanded, of 900 found, where the depth-first
    search found and expanded 53,500: 0.5 s instead of 350 s). The answer does not
    depend on the order; only the count of pairs, which ``max_states`` bounds, does. A batch's
    steps are computed as arrays: ``U`` is a boolean row, ``y⁻¹U`` a gather of it by row ``y``
    of the table, ``x⁻¹G_h`` a gather of ``G_h`` by row ``x``; subset tests use packed words.

    Returns ``[]`` when the condition holds, else one message: a position breaking it, or that
    more than ``max_states`` pairs were needed (raise ``max_states`` of :func:`verify
    <cgtalg.referee.quotients.verify>` to check it)."""
    failure, _ = _search(table, P, phi, S, max_states, batch)
    return [failure] if failure else []


def _search(table: np.ndarray, P: np.ndarray, phi: list[int], S: list[list[int]], max_states: int,
            batch: int = 32) -> tuple[str | None, dict[int, list[int]]]:
    """The search of :func:`n_condition`: ``(failure, minimal)``, ``failure`` its message or
    None, and, when the search ends without one, ``minimal[x]`` the inclusion-minimal ``U``
    (Python ints, bit ``z`` for element ``z``) of the pairs ``(x, U)`` of the positions with a
    move (the tests compare them with the pairs of every position)."""
    size = table.shape[0]
    in_p = np.asarray(P, dtype=bool)
    heaps, ys, G = _kinds(table, in_p, phi, S)
    if not heaps:
        return None, {}
    mult = table[ys]                                  # mult[k, z] = Φ(heap k)·z
    batch = max(1, min(batch, _CANDIDATES // (len(heaps) * size)))
    # every pair found: its x, U (packed) and how it was reached (pair, kind); pair 0 is (1, ∅)
    xs: list[int] = [0]
    sets: list[np.ndarray] = [_pack(np.zeros(size, dtype=bool))]
    came: list[tuple[int, int]] = [(-1, -1)]
    live = [True]                                     # still minimal at its x (or the start)
    kept: dict[int, tuple[np.ndarray, np.ndarray]] = {}   # x -> (pair ids, their packed U)
    queue: list[tuple[int, int]] = [(0, 0)]            # (|U|, pair id)

    def position(i: int, k: int) -> list[int]:
        out = [heaps[k]]
        while i > 0:
            i, k = came[i]
            out.append(heaps[k])
        return sorted(out)

    while queue:
        ids: list[int] = []
        while queue and len(ids) < batch:
            i = heapq.heappop(queue)[1]
            if live[i]:
                ids.append(i)
        if not ids:
            break
        x = np.array([xs[i] for i in ids], dtype=np.int64)
        u = np.unpackbits(np.array([sets[i] for i in ids]).view(np.uint8), axis=1,
                          bitorder="little")[:, :size].astype(bool)
        new = u[:, mult] | G[:, table[x]].transpose(1, 0, 2)   # new[b, k]: U after adding heap k
        x2 = mult[:, x].T                                        # x2[b, k]
        bad = ~in_p[x2] & ~new[:, :, 0]
        if bad.any():
            b, k = np.argwhere(bad)[0]
            return (f"N-condition: the position {position(ids[b], k)} has its image outside P, but no "
                    "option with its image in P"), {}
        count = new.sum(axis=2).reshape(-1)
        rows = np.concatenate([x2.reshape(-1, 1).astype(np.uint64), _pack(new.reshape(-1, size))], axis=1)
        pick = _first_of_each(rows)
        pick = pick[np.argsort(rows[pick, 0], kind="stable")]    # distinct candidates, by x2
        bounds = np.flatnonzero(np.diff(rows[pick, 0].astype(np.int64))) + 1
        for group in np.split(pick, bounds):
            at = int(rows[group[0], 0])
            cand = rows[group, 1:]
            old_ids, old = kept.get(at, (np.zeros(0, np.int64), np.zeros((0, cand.shape[1]), np.uint64)))
            fresh = _subsets(cand, old) == 0
            group, cand = group[fresh], cand[fresh]
            fresh = _subsets(cand, cand) == 1                    # distinct: only itself below it
            group, cand = group[fresh], cand[fresh]
            if not len(group):
                continue
            undercut = _subsets(old, cand) > 0
            for i in old_ids[undercut].tolist():
                live[i] = False
            first = len(xs)
            for c, row in zip(group.tolist(), cand):
                b, k = divmod(c, len(heaps))
                heapq.heappush(queue, (int(count[c]), len(xs)))
                xs.append(at)
                sets.append(row)
                came.append((ids[b], k))
                live.append(True)
            kept[at] = (np.concatenate([old_ids[~undercut], np.arange(first, len(xs))]),
                        np.concatenate([old[~undercut], cand]))
            if len(xs) - 1 > max_states:
                return f"N-condition: not checked: more than {max_states:,} option sets", {}
    return None, {x: sorted(int.from_bytes(row.tobytes(), "little") for row in found)
                  for x, (_, found) in kept.items() if len(found)}
