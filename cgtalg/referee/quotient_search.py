"""The two searches of the referee's quotient check that must be fast at large heaps.

:func:`option_images` reads the images of a heap's options off a take-and-break code's digits
without listing the options; :func:`n_condition` searches the N-condition of the verification
principle (:mod:`cgtalg.referee.quotients`, whose module docstring states it) over the pairs
``(x, U)``. Both are the referee's own: they import numpy and the referee only.
"""

from __future__ import annotations

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


def _bits(rows: np.ndarray) -> list[int]:
    """Each row of a boolean matrix as a Python int whose bit ``z`` is the row's entry ``z``."""
    packed = np.packbits(np.asarray(rows, dtype=bool), axis=-1, bitorder="little")
    return [int.from_bytes(r.tobytes(), "little") for r in packed]


def n_condition(table: np.ndarray, P: np.ndarray, phi: list[int], S: list[list[int]],
                 max_states: int) -> list[str]:
    """The N-condition of the verification principle (module docstring), searched over the
    pairs ``(x, U)`` with ``U = U(T) = {z : T·z ∩ P ≠ ∅}`` in place of ``(x, T)``.

    ``U`` keeps of ``T`` what the condition can ever ask: a later position ``G + X`` has the
    options ``T(G)·Φ(X)`` among its own, and one of them is in ``P`` exactly when ``Φ(X) ∈ U``;
    the condition itself asks ``T ∩ P ≠ ∅``, that is ``1 ∈ U``. Adding heap ``h`` to ``(x, U)``
    gives ``(x·y, y⁻¹U ∪ C_h(x))`` with ``y = Φ(h)``, ``y⁻¹U = {z : yz ∈ U}`` and ``C_h(x) =
    ⋃_{s ∈ S_h} {z : xsz ∈ P}``: this is ``U`` of ``T·y ∪ x·S_h`` (the union of the ``U`` of each
    part, and ``U(T·y) = y⁻¹U(T)``). The step is monotone in ``U``, so only inclusion-minimal
    ``U`` per ``x`` are explored; and a heap whose ``C`` is, at every ``x``, a superset of the
    ``C`` of another heap with the same image (equal: the first of them) is never added, as the
    other heap reaches a smaller ``U`` in its place. Sets are Python ints, bit ``z`` for element
    ``z``; ``y⁻¹U`` is read four bits of ``U`` at a time from tables of preimages."""
    size = table.shape[0]
    inv_p = P[table]                                   # inv_p[a, z]: a·z ∈ P
    # one entry per distinct (image, option set), the first heap having it
    first: dict[tuple[int, tuple[int, ...]], int] = {}
    for h, s_h in enumerate(S):
        if s_h:
            first.setdefault((phi[h], tuple(s_h)), h)
    by_image: dict[int, list[tuple[int, list[int]]]] = {}
    for (y, s_h), h in sorted(first.items(), key=lambda kv: kv[1]):
        c = inv_p[table[:, list(s_h)]].any(axis=1)     # c[x, z]: some s in S_h has x·s·z ∈ P
        by_image.setdefault(y, []).append((h, _bits(c)))
    kinds: list[tuple[int, int, list[int]]] = []
    for y, group in by_image.items():
        for i, (h, c) in enumerate(group):
            if not any(all(c2[x] & ~c[x] == 0 for x in range(size)) and (c2 != c or j < i)
                       for j, (_, c2) in enumerate(group) if j != i):
                kinds.append((h, y, c))
    kinds.sort()
    # preimage tables: pre[y][k][v] = {z : y·z = 4k + i for a bit i of v}
    chunks = (size + 3) // 4
    pre: dict[int, list[list[int]]] = {}
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
    kept: dict[int, list[int]] = {}
    todo: list[tuple[int, int, tuple[int, ...]]] = [(0, 0, ())]
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
