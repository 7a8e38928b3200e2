"""Numba kernel of the misère class counts per day (:func:`cgtalg.misere.census.misere_class_counts`).

Scans every option-set mask of a universe of canonical forms: a mask that no candidate ``H``
reduces (the rule of :mod:`cgtalg.misere.census`) is a game born on the next day; its normal and
misère Grundy values are the mex of its options' (misère: ``1`` for the empty set), and it is
counted as a P-position, of tame genus, and hereditarily tame.
"""

from __future__ import annotations

from numba import njit

__all__ = ["class_kernel"]


@njit(cache=True, nogil=True)
def class_kernel(n, a, b, is_zero, pmask, normal, gamma0, htame):  # pragma: no cover
    # (compiled by numba; covered through misere_class_counts)
    nc = a.shape[0]
    total = 0
    n_p = 0
    n_tame = 0
    n_htame = 0
    for m in range(1 << n):
        reducible = False
        for h in range(nc):
            ah = a[h]
            if (m & ah) == ah and m != ah and (m & ~ah & ~b[h]) == 0:
                if is_zero[h] and (m & pmask) == 0:
                    continue
                reducible = True
                break
        if reducible:
            continue
        total += 1
        gs = 0
        ms = 0
        all_ht = True
        for i in range(n):
            if (m >> i) & 1:
                gs |= 1 << normal[i]
                ms |= 1 << gamma0[i]
                if not htame[i]:
                    all_ht = False
        g = 0
        while (gs >> g) & 1:
            g += 1
        if m == 0:
            c = 1  # the empty game: misère Grundy value 1
        else:
            c = 0
            while (ms >> c) & 1:
                c += 1
        if c == 0:
            n_p += 1
        tame = g == c or (g <= 1 and c <= 1)
        if tame:
            n_tame += 1
            if all_ht:
                n_htame += 1
    return total, n_p, n_tame, n_htame
