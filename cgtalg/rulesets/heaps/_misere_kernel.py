"""Numba kernel of the misère search over heap multisets (private; see
:mod:`cgtalg.rulesets.heaps.misere_play`, which drives it).

The memo is an open-addressing hash table of sorted heap (or heap-class) tuples kept in flat
arrays that survive between calls:

* ``arena`` (``int32``): the tuples, one after another; state ``s`` is
  ``arena[off[s]:off[s] + ln[s]]``;
* ``val`` (``int32``): the answer of state ``s``; ``-1`` while unknown. Outcome mode stores
  ``1`` for N (the player to move wins) and ``0`` for P; Grundy mode the misère Grundy value;
* ``table`` (``int64``, a power of two long): ``s + 1`` at the slot of state ``s``, ``0`` empty;
* ``meta``: ``[number of states, arena words used, reason of the last GROW]``.

Moves come as a table of options per heap (class) ``c``: rows ``opt[start[c]:start[c + 1]]``
of ``K`` parts each, padded with ``-1``, parts already replaced by their class, class-0 parts
removed. ``one`` is the class of ``*1`` (or ``-1``): two of them cancel (``*1 + *1 = 0`` in
misère play), so a part equal to ``one`` removes a ``one`` already present instead of adding.

:func:`solve` runs an iterative depth-first search from a root state and returns

* ``>= 0``: the answer;
* ``GROW`` (``-1``): an array is full (``meta[2]`` says which); enlarge it and call again;
* ``PAUSE`` (``-2``): ``step`` new states were created; the caller checks its time budget,
  updates the progress bar and calls again.

Stopping is always safe: states on the abandoned stack keep ``val == -1`` and are solved again
by the next call, which walks down through the states already known. Heap games are acyclic, so
no state is its own descendant.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["GROW", "PAUSE", "solve", "rehash", "lookup"]

GROW = -1
PAUSE = -2

# reasons of a GROW (meta[2])
_ARENA = 1
_STATES = 2
_TABLE = 3
_STACK = 4
_BUF = 5

_FNV_OFFSET = np.uint64(14695981039346656037)
_FNV_PRIME = np.uint64(1099511628211)


@njit(cache=True, nogil=True, inline="always")
def _hash(buf, n):
    h = _FNV_OFFSET
    for k in range(n):
        h = (h ^ np.uint64(buf[k] + 1)) * _FNV_PRIME
    h ^= h >> np.uint64(29)
    return h


@njit(cache=True, nogil=True)
def _find(buf, n, arena, off, ln, table):
    """Slot of the tuple ``buf[:n]`` in ``table``: holding it, or the empty slot to put it."""
    mask = np.uint64(table.shape[0] - 1)
    i = np.int64(_hash(buf, n) & mask)
    while True:
        e = table[i]
        if e == 0:
            return i
        s = e - 1
        if ln[s] == n:
            o = off[s]
            same = True
            for k in range(n):
                if arena[o + k] != buf[k]:
                    same = False
                    break
            if same:
                return i
        i = (i + 1) & (table.shape[0] - 1)


@njit(cache=True, nogil=True)
def _intern(buf, n, arena, off, ln, val, table, meta):
    """Index of the state ``buf[:n]``, inserted (unknown) if new; ``-1`` when an array is full."""
    i = _find(buf, n, arena, off, ln, table)
    e = table[i]
    if e != 0:
        return e - 1
    ns = meta[0]
    used = meta[1]
    if ns >= off.shape[0]:
        meta[2] = _STATES
        return -1
    if used + n > arena.shape[0]:
        meta[2] = _ARENA
        return -1
    if 2 * (ns + 1) > table.shape[0]:
        meta[2] = _TABLE
        return -1
    for k in range(n):
        arena[used + k] = buf[k]
    off[ns] = used
    ln[ns] = n
    val[ns] = -1
    table[i] = ns + 1
    meta[0] = ns + 1
    meta[1] = used + n
    return ns


@njit(cache=True, nogil=True)
def lookup(buf, arena, off, ln, val, table):
    """The stored answer of the state ``buf`` (``-1``: unknown or absent)."""
    e = table[_find(buf, buf.shape[0], arena, off, ln, table)]
    return -1 if e == 0 else val[e - 1]


@njit(cache=True, nogil=True)
def rehash(arena, off, ln, table, n_states):
    """Fill an empty (larger) ``table`` with the states ``0 .. n_states - 1``."""
    for s in range(n_states):
        o = off[s]
        n = ln[s]
        i = _find(arena[o:o + n], n, arena, off, ln, table)
        table[i] = s + 1


@njit(cache=True, nogil=True)
def _child(arena, o, n, skip, opt, row, one, buf):
    """Write into ``buf`` the state ``arena[o:o+n]`` with its heap ``skip`` replaced by the
    parts of option ``row``; return its length."""
    m = 0
    for k in range(n):
        if k != skip:
            buf[m] = arena[o + k]
            m += 1
    for q in range(opt.shape[1]):
        p = opt[row, q]
        if p < 0:
            break
        if p == one:
            found = -1
            for k in range(m):
                if buf[k] == one:
                    found = k
                    break
            if found >= 0:
                for k in range(found, m - 1):
                    buf[k] = buf[k + 1]
                m -= 1
                continue
        k = m
        while k > 0 and buf[k - 1] > p:
            buf[k] = buf[k - 1]
            k -= 1
        buf[k] = p
        m += 1
    return m


@njit(cache=True, nogil=True)
def solve(root, grundy, start, opt, one, arena, off, ln, val, table, meta,
          stk_s, stk_i, stk_j, stk_phase, buf, step):
    """Solve the sorted state ``root`` (module docstring for the protocol)."""
    r = _intern(root, root.shape[0], arena, off, ln, val, table, meta)
    if r < 0:
        return GROW
    if val[r] >= 0:
        return val[r]
    created0 = meta[0]
    depth = 0
    stk_s[0] = r
    stk_i[0] = 0
    stk_j[0] = -1
    stk_phase[0] = 0
    while depth >= 0:
        s = stk_s[depth]
        if val[s] >= 0:          # solved meanwhile (shared subposition)
            depth -= 1
            continue
        o = off[s]
        n = ln[s]
        if n + opt.shape[1] > buf.shape[0]:
            meta[2] = _BUF
            return GROW
        i = stk_i[depth]
        j = stk_j[depth]
        phase = stk_phase[depth]
        pushed = False
        answer = -1
        moved = False
        mask = np.uint64(0)
        big = False
        while i < n:
            h = arena[o + i]
            if i > 0 and arena[o + i - 1] == h:
                i += 1
                j = -1
                continue
            if j < 0:
                j = start[h]
            if j >= start[h + 1]:
                i += 1
                j = -1
                continue
            moved = True
            m = _child(arena, o, n, i, opt, j, one, buf)
            slot = _find(buf, m, arena, off, ln, table)
            e = table[slot]
            c = e - 1
            if e == 0 or val[c] < 0:
                if phase == 1:
                    # cannot happen: phase 1 starts once every child is known
                    return GROW
                if e == 0:
                    c = _intern(buf, m, arena, off, ln, val, table, meta)
                    if c < 0:
                        return GROW
                if depth + 1 >= stk_s.shape[0]:
                    meta[2] = _STACK
                    return GROW
                stk_i[depth] = i
                stk_j[depth] = j
                depth += 1
                stk_s[depth] = c
                stk_i[depth] = 0
                stk_j[depth] = -1
                stk_phase[depth] = 0
                pushed = True
                break
            v = val[c]
            if not grundy:
                if v == 0:       # a move to a P-position: N
                    answer = 1
                    break
            elif phase == 1:
                if v < 64:
                    mask |= np.uint64(1) << np.uint64(v)
                else:
                    big = True
            j += 1
        if pushed:
            if meta[0] - created0 >= step:
                return PAUSE
            continue
        if answer < 0:
            if not grundy:
                # every option is N (P), or there is no move (the mover has won: N)
                answer = 0 if moved else 1
            elif phase == 0:
                if not moved:
                    answer = 1   # no move: misère Grundy value 1
                else:
                    # every child known: second pass for the mex
                    stk_i[depth] = 0
                    stk_j[depth] = -1
                    stk_phase[depth] = 1
                    continue
            else:
                mex = 0
                while mex < 64 and (mask >> np.uint64(mex)) & np.uint64(1):
                    mex += 1
                if mex == 64 and big:
                    # values of 64 and more: look for each candidate in turn
                    while True:
                        hit = False
                        for ii in range(n):
                            h = arena[o + ii]
                            if ii > 0 and arena[o + ii - 1] == h:
                                continue
                            for jj in range(start[h], start[h + 1]):
                                m = _child(arena, o, n, ii, opt, jj, one, buf)
                                c = table[_find(buf, m, arena, off, ln, table)] - 1
                                if val[c] == mex:
                                    hit = True
                                    break
                            if hit:
                                break
                        if not hit:
                            break
                        mex += 1
                answer = mex
        val[s] = answer
        depth -= 1
    return val[r]
