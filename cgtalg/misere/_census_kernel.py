"""Numba kernel of the misère census: scan every subset mask of a universe of canonical forms.

The masks are the option sets ``S`` of the games ``{S}`` born on the next day; a mask is
*reducible* when some candidate ``H`` reduces ``{S}`` (see :mod:`cgtalg.misere.census`). The
kernel works on int64 bitmasks (at most 32 universe forms; the census uses 22) and is wrapped
by :func:`scan_masks`, a plain numpy-shaped function.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["scan_masks", "scan_masks_numpy", "MAX_UNIVERSE_BITS"]

#: The largest universe the kernel accepts (2^32 masks is already far beyond a practical scan).
MAX_UNIVERSE_BITS = 32
_LO = 16  # per-bit counts are gathered in two tables: the low 16 bits and the rest


@njit(cache=True, nogil=True)
def _scan_kernel(start, stop, a, b, is_zero, pmask, zero_bit, lo_counts, hi_counts):  # pragma: no cover
    # (compiled by numba; covered through scan_masks)
    n_irreducible = 0
    n_multi = 0
    zero_n = 0
    nc = a.shape[0]
    lo_mask = (1 << 16) - 1
    for m in range(start, stop):
        hits = 0
        for h in range(nc):
            ah = a[h]
            if (m & ah) == ah and m != ah and (m & ~ah & ~b[h]) == 0:
                if is_zero[h] and (m & pmask) == 0:
                    continue
                hits += 1
        if hits == 0:
            n_irreducible += 1
            lo_counts[m & lo_mask] += 1
            hi_counts[m >> 16] += 1
            if zero_bit >= 0 and (m >> zero_bit) & 1 and (m & pmask) != 0:
                zero_n += 1
        elif hits > 1:
            n_multi += 1
    return n_irreducible, n_multi, zero_n


def _bit_counts(n_bits: int, lo_counts: np.ndarray, hi_counts: np.ndarray) -> np.ndarray:
    """Per-bit totals from the two tables of counts by low / high half of the mask."""
    out = np.zeros(n_bits, dtype=np.int64)
    idx_lo = np.arange(lo_counts.size, dtype=np.int64)
    idx_hi = np.arange(hi_counts.size, dtype=np.int64)
    for i in range(n_bits):
        if i < _LO:
            out[i] = lo_counts[(idx_lo >> i) & 1 == 1].sum()
        else:
            out[i] = hi_counts[(idx_hi >> (i - _LO)) & 1 == 1].sum()
    return out


def _check(n_bits: int, a: np.ndarray, b: np.ndarray, is_zero: np.ndarray) -> None:
    # invariant checks of this private kernel (its callers in cgtalg.misere.census build the
    # arrays and validate the day first): a plain ValueError is a programming error here
    if not 0 <= n_bits <= MAX_UNIVERSE_BITS:
        raise ValueError(f"n_bits must be in 0..{MAX_UNIVERSE_BITS}, got {n_bits}")
    if not (a.shape == b.shape == is_zero.shape and a.ndim == 1):
        raise ValueError("a, b and is_zero must be 1-D arrays of one length (one per candidate)")


def scan_masks(
    n_bits: int,
    a: np.ndarray,
    b: np.ndarray,
    is_zero: np.ndarray,
    pmask: int,
    zero_bit: int,
    start: int = 0,
    stop: int | None = None,
) -> tuple[int, int, np.ndarray, int]:
    """Scan the masks ``start <= m < stop`` (default: all ``2**n_bits``) with the numba kernel.

    Parameters
    ----------
    n_bits : int
        Universe size.
    a, b : int64 arrays
        Per candidate ``H``: ``a[h]`` the mask of ``opts(H)``, ``b[h]`` the mask of the
        universe forms that have ``H`` as an option.
    is_zero : bool array
        Per candidate: whether ``H = 0`` (the proviso applies).
    pmask : int
        Mask of the universe forms that are misère P-positions.
    zero_bit : int
        Bit of the form ``0`` in the universe (or -1).

    Returns
    -------
    (n_irreducible, n_multiply_reducible, bit_counts, zero_n)
        The number of irreducible masks; of masks reduced by two or more candidates (zero by
        the uniqueness of simplest forms); per universe bit, the number of irreducible masks
        holding it; and the number of irreducible masks holding ``zero_bit`` and a P-position.
    """
    a = np.ascontiguousarray(a, dtype=np.int64)
    b = np.ascontiguousarray(b, dtype=np.int64)
    is_zero = np.ascontiguousarray(is_zero, dtype=np.bool_)
    _check(n_bits, a, b, is_zero)
    stop = (1 << n_bits) if stop is None else stop
    lo_counts = np.zeros(1 << _LO, dtype=np.int64)
    hi_counts = np.zeros(1 << max(0, n_bits - _LO), dtype=np.int64)
    n_irr, n_multi, zero_n = _scan_kernel(
        np.int64(start), np.int64(stop), a, b, is_zero, np.int64(pmask), np.int64(zero_bit),
        lo_counts, hi_counts,
    )
    return int(n_irr), int(n_multi), _bit_counts(n_bits, lo_counts, hi_counts), int(zero_n)


def scan_masks_numpy(
    n_bits: int,
    a: np.ndarray,
    b: np.ndarray,
    is_zero: np.ndarray,
    pmask: int,
    zero_bit: int,
    start: int = 0,
    stop: int | None = None,
) -> tuple[int, int, np.ndarray, int]:
    """The same scan vectorised with numpy (a reference and a benchmark baseline)."""
    a = np.asarray(a, dtype=np.int64)
    b = np.asarray(b, dtype=np.int64)
    is_zero = np.asarray(is_zero, dtype=np.bool_)
    _check(n_bits, a, b, is_zero)
    stop = (1 << n_bits) if stop is None else stop
    m = np.arange(start, stop, dtype=np.int64)
    hits = np.zeros(m.shape, dtype=np.int64)
    has_p = (m & np.int64(pmask)) != 0
    for ah, bh, z in zip(a, b, is_zero):
        ok = ((m & ah) == ah) & (m != ah) & ((m & ~ah & ~bh) == 0)
        if z:
            ok &= has_p
        hits += ok
    irr = m[hits == 0]
    bit_counts = np.array([int(((irr >> i) & 1).sum()) for i in range(n_bits)], dtype=np.int64)
    zero_n = 0
    if zero_bit >= 0:
        zero_n = int((((irr >> zero_bit) & 1).astype(bool) & ((irr & np.int64(pmask)) != 0)).sum())
    return int(irr.size), int((hits > 1).sum()), bit_counts, zero_n
