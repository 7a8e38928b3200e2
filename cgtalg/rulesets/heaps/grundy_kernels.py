"""Numba kernels for Grundy sequences of heap games.

Most users never call these directly: :class:`cgtalg.rulesets.heaps.grundy_engine.GrundyEngine` drives them,
grows buffers, promotes dtypes, re-chooses the sparse-space split and reports progress
(the census reads :func:`value_counts` too).

Conventions shared by every kernel
----------------------------------
``G`` is the Grundy sequence being extended in place (``uint8``/``uint16``/``uint32``);
``G[0] = 0``. A kernel computes ``G[start:stop]`` and returns ``(n, status)``: ``n`` is the
first index *not* computed and ``status`` says why it stopped:

- ``DONE``: ``n == stop``;
- ``OVERFLOW``: ``G[n]`` does not fit the dtype of ``G`` (not stored; promote and resume at n);
- ``GROW``: ``G[n-1]`` is the first value of a new bit length, so the scratch arrays
  (``marks``, ``par``) must be enlarged before going on (sparse kernel also re-chooses);
- ``RARE_FULL``: the rare-position list reached its limit (sparse kernel only; re-choose).

``marks`` is a stamp array (``marks[v] == n`` means "value v is an option value of heap n"),
so nothing is ever cleared. Move rules come as sorted ``int64`` arrays of removal counts
``t``: ``t_all`` (bit 1: take t when that is the whole heap), ``t_take`` (bit 2: take t
leaving one nonempty heap), ``t_split`` (bit 4: leaving two nonempty heaps), ``t_split3``
(bit 8: three nonempty heaps). ``t = 0`` in a split list is the digit ``d0``.

The values of every option are XORs of values already in ``G``; if all values so far are
below ``2**b`` then so is every option value and the mex is at most ``2**b``. Hence scratch
arrays of length ``2**(b+2)`` are enough until a value of bit length ``b+1`` appears.

Importing this module does not import numba: ``njit`` here is
:func:`cgtalg.rulesets.heaps.lazy_jit.njit`, which compiles every kernel of the module on the first
call of any of them.

References: Winning Ways ch. 4 ("Sparse space spells speed"); Gangolli & Plambeck,
Int. J. Game Theory 18 (1989) 311-320; A. Flammenkamp's octal-game computations.
"""

from __future__ import annotations

from cgtalg.core.lazynp import np

from cgtalg.rulesets.heaps.lazy_jit import njit

__all__ = [
    "DONE", "OVERFLOW", "GROW", "RARE_FULL",
    "naive_kernel", "sparse_kernel", "rebuild_rare", "split_counts", "walsh_hadamard_inplace", "last_match_scan",
    "saltus_scan", "max_of", "value_counts", "tail_match_lengths", "period_scan",
]

DONE = 0
OVERFLOW = 1
GROW = 2
RARE_FULL = 3



@njit(cache=True, nogil=True)
def _bit_length(v):
    b = 0
    while v > 0:
        v >>= 1
        b += 1
    return b


@njit(cache=True, nogil=True, inline="always")
def _mark_take_moves(G, n, t_all, t_take, marks, stamp):
    """Stamp the values of the moves that leave no heap (take all ``t == n``) or one heap
    (``G[n - t]``, ``t < n``) in ``marks``; ``t_take`` is sorted."""
    for i in range(len(t_all)):
        if t_all[i] == n:
            marks[0] = stamp
    for i in range(len(t_take)):
        t = t_take[i]
        if t >= n:
            break
        marks[G[n - t]] = stamp


@njit(cache=True, nogil=True)
def max_of(G, n):
    """Largest value in ``G[:n]`` (0 for an empty prefix)."""
    m = 0
    for i in range(n):
        if G[i] > m:
            m = G[i]
    return np.int64(m)


@njit(cache=True, nogil=True)
def naive_kernel(G, start, stop, t_all, t_take, t_split, t_split3, unequal, marks, vmax, dmax):
    """Plain mex over every option (the baseline; the only kernel for hexadecimal codes,
    infinite codes and Grundy's game).

    ``unequal`` restricts two-heap splits to unequal parts (Grundy's game). ``vmax`` is the
    largest value in ``G[:start]``; ``dmax`` the largest value ``G`` holds. Returns
    ``(n, status, vmax)``. Only indexing and ``len`` are used, so the Python function runs
    on Python lists as well (the engine's plain-Python mode,
    :mod:`cgtalg.rulesets.heaps.small_grundy`).
    """
    cap = len(marks)
    limit_bits = _bit_length(vmax)
    n = start
    while n < stop:
        stamp = n
        _mark_take_moves(G, n, t_all, t_take, marks, stamp)
        for i in range(len(t_split)):
            m = n - t_split[i]
            if m < 2:
                break
            top = (m - 1) // 2 if unequal else m // 2
            for a in range(1, top + 1):
                marks[G[a] ^ G[m - a]] = stamp
        for i in range(len(t_split3)):
            m = n - t_split3[i]
            if m < 3:
                break
            for a in range(1, m // 3 + 1):
                ga = G[a]
                for b in range(a, (m - a) // 2 + 1):
                    marks[ga ^ G[b] ^ G[m - a - b]] = stamp
        v = 0
        while v < cap and marks[v] == stamp:
            v += 1
        if v > dmax:
            return n, OVERFLOW, vmax
        G[n] = v
        n += 1
        if v > vmax:
            vmax = v
            if _bit_length(vmax) > limit_bits:
                return n, GROW, vmax
    return n, DONE, vmax


@njit(cache=True, nogil=True)
def sparse_kernel(G, start, stop, t_all, t_take, t_split, par, cbit0, cbit1,
                  rare, rare_val, nrare, rare_limit, marks, vmax, wit, wpos, need):
    """The rare/common ("sparse space") method; every value is proven.

    The split of values: ``par[v]`` is the parity of ``popcount(v & mask)``. A value ``v``
    is *common for heap n* when ``par[v] == cbit[n & 1]``; a position ``a`` is *rare* when
    its value is not common for it. The caller guarantees that for every split distance
    ``t`` and all ``a + b = n - t`` with ``a``, ``b`` common positions, ``G[a] ^ G[b]`` is rare
    for ``n`` (e.g. ``cbit0 = cbit1 = 1``: common values have odd masked popcount, and the
    XOR of two of them has even popcount). Then:

    1. the common option values of ``n`` all come from the take moves and the pairs with a
       rare position, so ``c`` = the least common value missing from those is an upper
       bound: ``G[n] <= c``;
    2. a proof scan over all pairs (split distances interleaved, ``a = 1, 2, ...``) looks
       for the rare values below ``c``; when all are found ``G[n] = c``, otherwise ``G[n]``
       is the least rare value never found and ``n`` becomes a rare position.

    Free zero: a split of an even ``m = n - t`` into ``(m/2, m/2)`` has value 0.
    ``rare[:nrare]`` lists the rare positions in increasing order, ``rare_val`` their values.

    ``need[v] == n`` marks the rare values below ``c`` not yet witnessed (a stamp table, like
    ``marks``; a witnessed one is set to -1), so each pair costs one predictable test.

    Speed-ups of the proof scan (they change only the order in which pairs are tried):
    ``wit[v, :]`` remembers the last ``W`` parts ``a`` that witnessed the rare value ``v``
    (tried first: when the sequence is locally periodic the same small part works again a
    few heaps later), and the scan alternates between small parts ``a = 1, 2, ...`` and
    parts near the middle ``a = m/2, m/2 - 1, ...`` (where both parts lie in the regular
    region), with all split distances interleaved. Returns ``(n, status, nrare, vmax)``.
    """
    cap = marks.shape[0]
    dmax = np.iinfo(G.dtype).max
    limit_bits = _bit_length(vmax)
    ns = t_split.shape[0]
    t0 = t_split[0]
    W = wit.shape[1]
    n = start
    while n < stop:
        stamp = n
        _mark_take_moves(G, n, t_all, t_take, marks, stamp)
        # free zero from (m/2, m/2)
        for i in range(ns):
            m = n - t_split[i]
            if m < 2:
                break
            if (m & 1) == 0:
                marks[0] = stamp
                break
        # pairs with a rare position r (either part): r + (m - r) = m, 1 <= r <= m - 1
        mtop = n - t0
        if ns == 1:
            for j in range(nrare):
                r = rare[j]
                if r >= mtop:
                    break
                marks[rare_val[j] ^ G[mtop - r]] = stamp
        else:
            for j in range(nrare):
                r = rare[j]
                if r >= mtop:
                    break
                gr = rare_val[j]
                for i in range(ns):
                    m = n - t_split[i]
                    if m - r < 1:
                        break
                    marks[gr ^ G[m - r]] = stamp
        cb = cbit0 if (n & 1) == 0 else cbit1
        v = 0
        missing = 0
        while v < cap:
            if marks[v] != stamp:
                if par[v] == cb:
                    break
                need[v] = stamp  # a rare value below c still to be witnessed
                missing += 1
            v += 1
        c = v
        value = c
        if missing > 0:
            # 1. witnesses remembered from earlier heaps
            for vv in range(c):
                if missing == 0:
                    break
                if need[vv] != stamp:
                    continue
                for w in range(W):
                    a = wit[vv, w]
                    if a == 0:
                        break
                    ga = G[a]
                    for i in range(ns):
                        m = n - t_split[i]
                        if a >= m:
                            break
                        x = ga ^ G[m - a]
                        if need[x] == stamp:
                            need[x] = -1
                            marks[x] = stamp
                            missing -= 1
                    if need[vv] != stamp:
                        break
        if missing > 0:
            # 2. the full scan, from both ends: a = 1 + j and a = m/2 - j
            half = mtop // 2
            if ns == 1:
                lo = 1
                hi = half
                while lo <= hi:
                    x = G[lo] ^ G[mtop - lo]
                    if need[x] == stamp:
                        need[x] = -1
                        marks[x] = stamp
                        q = wpos[x]
                        wit[x, q] = lo
                        wpos[x] = q + 1 if q + 1 < W else 0
                        missing -= 1
                        if missing == 0:
                            break
                    if hi > lo:
                        x = G[hi] ^ G[mtop - hi]
                        if need[x] == stamp:
                            need[x] = -1
                            marks[x] = stamp
                            q = wpos[x]
                            wit[x, q] = hi
                            wpos[x] = q + 1 if q + 1 < W else 0
                            missing -= 1
                            if missing == 0:
                                break
                    lo += 1
                    hi -= 1
            else:
                j = 0
                while missing > 0 and 1 + j <= half - j:
                    for side in range(2):
                        for i in range(ns):
                            m = n - t_split[i]
                            if m < 2:
                                break
                            lo = 1 + j
                            hi = m // 2 - j
                            if lo > hi:
                                continue
                            a = lo if side == 0 else hi
                            if side == 1 and a == lo:
                                continue
                            x = G[a] ^ G[m - a]
                            if need[x] == stamp:
                                need[x] = -1
                                marks[x] = stamp
                                q = wpos[x]
                                wit[x, q] = a
                                wpos[x] = q + 1 if q + 1 < W else 0
                                missing -= 1
                                if missing == 0:
                                    break
                        if missing == 0:
                            break
                    j += 1
            if missing > 0:
                v = 0
                while marks[v] == stamp:
                    v += 1
                value = v
        if value > dmax:
            return n, OVERFLOW, nrare, vmax
        G[n] = value
        if par[value] != cb:
            rare[nrare] = n
            rare_val[nrare] = value
            nrare += 1
        n += 1
        if value > vmax:
            vmax = value
            if _bit_length(vmax) > limit_bits:
                return n, GROW, nrare, vmax
        if nrare >= rare_limit:
            return n, RARE_FULL, nrare, vmax
    return n, DONE, nrare, vmax


@njit(cache=True, nogil=True)
def rebuild_rare(G, n, par, cbit0, cbit1, out):
    """Write the rare positions ``1 <= a < n`` into ``out``; return how many there are
    (stops counting into ``out`` when it is full but keeps the count)."""
    k = 0
    cap = len(out)
    for a in range(1, n):
        cb = cbit0 if (a & 1) == 0 else cbit1
        if par[G[a]] != cb:
            if k < cap:
                out[k] = a
            k += 1
    return k


@njit(cache=True, nogil=True)
def value_counts(G, n, size):
    """Counts of values by (position parity, value) over positions ``1 <= a < n``."""
    cnt = np.zeros((2, size), dtype=np.int64)
    for a in range(1, n):
        cnt[a & 1, G[a]] += 1
    return cnt


@njit(cache=True, nogil=True)
def walsh_hadamard_inplace(a):
    """``a[m] <- sum_v a[v] * (-1)**popcount(v & m)`` in place (``len(a)`` a power of two)."""
    size = len(a)
    h = 1
    while h < size:
        for i in range(0, size, 2 * h):
            for j in range(i, i + h):
                x = a[j]
                y = a[j + h]
                a[j] = x + y
                a[j + h] = x - y
        h *= 2
    return a


@njit(cache=True, nogil=True)
def split_counts(G, n, g, cnt0, cnt1, r0, r1):
    """How many of the heaps ``1 .. n-1`` each rare/common split leaves rare, and the best
    split of each kind (the engine's choice of the sparse kernel's split).

    ``r0[mask]``: the split "``v`` is common iff ``popcount(v & mask)`` is odd" (every heap
    alike); ``r1[mask]`` (only when ``g >= 0``: every split distance has the parity ``g``):
    the split whose common bit also depends on the heap's parity. Computed by the
    Walsh-Hadamard transform of the value counts by heap parity (``cnt0``/``cnt1``: zeroed
    scratch of the length of ``r0``, a power of two above every value); ``mask = 0`` (no
    split) is never chosen (its count is ``2**62``). Returns ``(m0, m1)``: the first mask
    with the fewest rare heaps in ``r0`` and in ``r1`` (``-1`` when ``g < 0``). Only
    indexing and ``len``: the Python function runs on lists as well.
    """
    size = len(r0)
    for a in range(1, n):
        if a & 1:
            cnt1[G[a]] += 1
        else:
            cnt0[G[a]] += 1
    n0 = 0
    n1 = 0
    for v in range(size):
        n0 += cnt0[v]
        n1 += cnt1[v]
    walsh_hadamard_inplace(cnt0)
    walsh_hadamard_inplace(cnt1)
    big = 1 << 62
    r0[0] = big
    m0 = 0
    for m in range(1, size):
        r0[m] = (n0 + cnt0[m] + n1 + cnt1[m]) // 2
        if r0[m] < r0[m0]:
            m0 = m
    if g < 0:
        return m0, -1
    r1[0] = big
    m1 = 0
    for m in range(1, size):
        if g == 0:
            r1[m] = (n0 + cnt0[m]) // 2 + (n1 - cnt1[m]) // 2
        else:
            r1[m] = (n0 - cnt0[m]) // 2 + (n1 + cnt1[m]) // 2
        if r1[m] < r1[m1]:
            m1 = m
    return m0, m1


@njit(cache=True, nogil=True)
def detection_need(p, threshold):
    """The matched tail a detected (uncertified) period ``p`` needs: ``max(threshold * p, 16)``
    when ``threshold >= 1``, else ``max(p // 2, 1024)`` (the candidate search)."""
    if threshold >= 1:
        need = threshold * p
        return need if need > 16 else 16
    need = p // 2
    return need if need > 1024 else 1024


@njit(cache=True, nogil=True)
def last_match_scan(G, L, p_lo, p_hi, h, k, mode, threshold):
    """Smallest period ``p`` in ``[p_lo, p_hi]`` accepted by ``mode``; returns ``(p, n0)``
    where ``n0`` is the least index with ``G[n] == G[n+p]`` for all ``n0 <= n < L - p``,
    or ``(-1, -1)``.

    ``mode`` 0 (certificate for octal/hexadecimal codes, splits into at most ``h`` heaps):
    accept when ``L >= h*max(n0,1) + h*p + k``. ``mode`` 1 (subtraction games, no splits):
    ``L >= max(n0,1) + p + k``. ``mode`` 2 (detection only): accept when the matched tail
    ``L - p - n0`` is at least ``max(threshold * p, 16)`` when threshold >= 1, else at least
    ``max(p // 2, 1024)`` (candidate search).

    For each ``p`` the scan walks down from the end and stops at the first mismatch; it only
    needs to reach the acceptance limit, so wrong periods are usually rejected in a few
    steps. Sound because the acceptance test is monotone in ``n0``.
    """
    for p in range(p_lo, p_hi + 1):
        if mode == 0:
            lim = (L - h * p - k) // h
            if lim < 1:
                return -1, -1
        elif mode == 1:
            lim = L - p - k
            if lim < 1:
                return -1, -1
        else:
            need = detection_need(p, threshold)
            lim = L - p - need
            if lim < 0:
                return -1, -1
        n = L - p - 1
        ok = True
        while n >= lim:
            if G[n] != G[n + p]:
                ok = False
                break
            n -= 1
        if not ok:
            continue
        while n >= 0 and G[n] == G[n + p]:
            n -= 1
        return p, n + 1
    return -1, -1


@njit(cache=True, nogil=True)
def saltus_scan(G, L, p_hi, cycles):
    """Smallest ``p <= p_hi`` with ``G[n+p] - G[n] == s`` (constant) on a tail covering at
    least ``cycles`` periods (and 16 values); returns ``(p, s, n0)`` or ``(-1, 0, -1)``."""
    for p in range(1, p_hi + 1):
        need = cycles * p
        if need < 16:
            need = 16
        lim = L - p - need
        if lim < 0:
            return -1, 0, -1
        s = np.int64(G[L - 1]) - np.int64(G[L - 1 - p])
        n = L - p - 1
        ok = True
        while n >= lim:
            if np.int64(G[n + p]) - np.int64(G[n]) != s:
                ok = False
                break
            n -= 1
        if not ok:
            continue
        while n >= 0 and np.int64(G[n + p]) - np.int64(G[n]) == s:
            n -= 1
        return p, s, n + 1
    return -1, 0, -1


@njit(cache=True, nogil=True)
def tail_match_lengths(G, L, Z):
    """``Z[p]`` for ``0 <= p < len(Z)``: the length of the longest run ``G[n] == G[n+p]`` ending at
    the end of the prefix, i.e. the largest ``z`` with ``G[L-1-j] == G[L-1-j-p]`` for ``j < z``
    (``Z[0] = L``). The least ``n0`` with ``G[n] == G[n+p]`` for ``n0 <= n < L - p`` is then
    ``L - p - Z[p]``.

    This is the Z-function (Gusfield 1997, sec. 1.4) of the reversed prefix
    ``R[i] = G[L-1-i]``, computed in O(L) time for all ``p`` at once; the run for ``p`` is
    never walked again for its multiples (the naive scan walked ``~L/2`` values for every
    multiple of the period, O(L^2) in all, when a candidate failed the certificate).
    ``Z`` (``int32`` or ``int64``, length ``p_hi + 1``) is filled and returned.
    """
    p_hi = Z.shape[0] - 1
    Z[:] = 0
    if p_hi < 0:
        return Z
    Z[0] = L
    left = 0
    right = 0  # [left, right) is the rightmost matched box: R[left:right] == R[0:right-left]
    last = L - 1
    for i in range(1, p_hi + 1):
        if i >= L:
            break
        z = 0
        if i < right:
            z = Z[i - left]
            if z > right - i:
                z = right - i
        while i + z < L and G[last - z] == G[last - i - z]:
            z += 1
        Z[i] = z
        if i + z > right:
            left = i
            right = i + z
    return Z


@njit(cache=True, nogil=True)
def period_scan(Z, L, p_lo, p_hi, h, k, mode, threshold):
    """:func:`last_match_scan` from the run lengths ``Z`` of :func:`tail_match_lengths`
    (``p_hi <= len(Z) - 1``): the smallest accepted ``p`` in ``[p_lo, p_hi]`` and its ``n0``,
    or ``(-1, -1)``. Same acceptance rules, O(p_hi - p_lo) time."""
    for p in range(p_lo, p_hi + 1):
        if p >= L:
            return -1, -1
        n0 = L - p - np.int64(Z[p])
        if n0 < 0:
            n0 = 0
        m = n0 if n0 > 1 else 1
        if mode == 0:
            if L - h * p - k < h:
                return -1, -1
            if L >= h * m + h * p + k:
                return p, n0
        elif mode == 1:
            if L - p - k < 1:
                return -1, -1
            if L >= m + p + k:
                return p, n0
        else:
            need = detection_need(p, threshold)
            if L - p - need < 0:
                return -1, -1
            if L - p - n0 >= need:
                return p, n0
    return -1, -1
