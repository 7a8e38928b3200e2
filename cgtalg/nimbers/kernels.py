"""Vectorised nimber arithmetic on ``uint64`` arrays (elements of the field GF(2^64)).

numpy-shaped functions; the work is done by numba kernels compiled on first use (and cached
on disk). The kernels use the log/exp tables of the 16-bit subfield ``GF(2^16)`` built by
:mod:`cgtalg.nimbers.finite` and two levels of the Karatsuba split at the Fermat 2-powers
``2^16`` and ``2^32`` (ONAG ch. 6; see :func:`cgtalg.nimbers.finite.nim_mul`). Every
multiplication by the constants ``h16 = 2^15`` and ``h32 = 2^31 = 2^16 ⊗ 2^15`` that the split
needs is folded into the log domain (an added constant logarithm), so one 64-bit product is
18 log-table and 10 exp-table look-ups. A zero factor is handled without branches: its
"logarithm" is a sentinel that sends every sum into a zero-filled tail of the exp table.

Examples
--------
>>> import numpy as np
>>> nim_mul_array(np.array([2, 16, 2**64 - 1], dtype=np.uint64), 2).tolist()
[3, 32, 6148914691236517205]
>>> nim_inv_array([2, 3]).tolist()
[3, 2]
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cgtalg.errors import NimberError, NimZeroDivisionError
from cgtalg.nimbers.finite import _TABLES, _check, _check_exponent
from cgtalg.nimbers.limits import short_repr, shorten

__all__ = [
    "broadcast_shape",
    "nim_mul_array",
    "nim_inv_array",
    "nim_square_array",
    "nim_sqrt_array",
    "nim_pow_array",
]

# ---------------------------------------------------------------------------------------------
# Tables
# ---------------------------------------------------------------------------------------------

_Q = 0xFFFF  # order of GF(2^16)^*
_ZERO_LOG = 3 * _Q  # sentinel "log 0": any index ≥ it reads 0


def _kernel_tables() -> tuple[np.ndarray, np.ndarray, int, int, np.ndarray]:
    exp16 = _TABLES["exp"]
    log = _TABLES["log"].astype(np.int32)
    log[0] = _ZERO_LOG
    # Valid sums of logs (plus the constants below) stay under 3·65535; a sum with one zero
    # factor lies in [ZERO_LOG, 2·ZERO_LOG + 65535), which is zero-filled.
    exp = np.zeros(2 * _ZERO_LOG + _Q + 1, dtype=np.uint16)
    exp[:_ZERO_LOG] = np.tile(exp16, 3)
    l15 = int(_TABLES["log"][0x8000])  # log of h16 = 2^15
    l15x2 = (2 * l15) % _Q  # log of h16 ⊗ h16
    sqrt16 = _TABLES["sqrt"].astype(np.uint16)
    return log, exp, l15, l15x2, sqrt16


_LOG, _EXP, _L15, _L15X2, _SQRT16 = _kernel_tables()

# ---------------------------------------------------------------------------------------------
# Kernels. All arithmetic is on int64 (uint64 data is viewed as int64 by the wrappers, so
# numba never mixes signed and unsigned types); 16-bit chunks are extracted with masks.
# ---------------------------------------------------------------------------------------------

_M16 = 0xFFFF
_M32 = 0xFFFFFFFF


@njit(cache=True, nogil=True, inline="always")
def _mul32(x, y, lg, ex, l15):  # pragma: no cover - compiled
    """x ⊗ y for x, y < 2^32."""
    x1 = (x >> 16) & _M16
    x0 = x & _M16
    y1 = (y >> 16) & _M16
    y0 = y & _M16
    p0 = np.int64(ex[lg[x0] + lg[y0]])
    p1 = np.int64(ex[lg[x1 ^ x0] + lg[y1 ^ y0]])
    p2h = np.int64(ex[lg[x1] + lg[y1] + l15])  # (x1⊗y1)⊗h16
    return ((p1 ^ p0) << 16) | (p0 ^ p2h)


@njit(cache=True, nogil=True, inline="always")
def _mul32_h32(x, y, lg, ex, l15, l15x2):  # pragma: no cover - compiled
    """(x ⊗ y) ⊗ 2^31 for x, y < 2^32, entirely in the log domain."""
    x1 = (x >> 16) & _M16
    x0 = x & _M16
    y1 = (y >> 16) & _M16
    y0 = y & _M16
    l0 = lg[x0] + lg[y0]
    l1 = lg[x1 ^ x0] + lg[y1 ^ y0]
    l2 = lg[x1] + lg[y1]
    # x⊗y = u1·H ⊕ u0 with u1 = p1⊕p0, u0 = p0⊕p2⊗h; times h32 = H⊗h:
    # ((u1⊕u0)⊗h)·H ⊕ u1⊗h⊗h  =  (p1⊗h ⊕ p2⊗h²)·H ⊕ (p1 ⊕ p0)⊗h².
    hi = np.int64(ex[l1 + l15]) ^ np.int64(ex[l2 + l15x2])
    lo = np.int64(ex[l1 + l15x2]) ^ np.int64(ex[l0 + l15x2])
    return (hi << 16) | lo


@njit(cache=True, nogil=True, inline="always")
def _mul64(x, y, lg, ex, l15, l15x2):  # pragma: no cover - compiled
    x1 = (x >> 32) & _M32
    x0 = x & _M32
    y1 = (y >> 32) & _M32
    y0 = y & _M32
    c0 = _mul32(x0, y0, lg, ex, l15)
    c1 = _mul32(x1 ^ x0, y1 ^ y0, lg, ex, l15)
    c2h = _mul32_h32(x1, y1, lg, ex, l15, l15x2)
    return ((c1 ^ c0) << 32) | (c0 ^ c2h)


@njit(cache=True, nogil=True, inline="always")
def _mulh16(x, lg, ex, l15):  # pragma: no cover - compiled
    """x ⊗ 2^15 for x < 2^16."""
    return np.int64(ex[lg[x] + l15])


@njit(cache=True, nogil=True, inline="always")
def _mulh32(x, lg, ex, l15, l15x2):  # pragma: no cover - compiled
    """x ⊗ 2^31 for x < 2^32."""
    x1 = (x >> 16) & _M16
    x0 = x & _M16
    return (np.int64(ex[lg[x1 ^ x0] + l15]) << 16) | np.int64(ex[lg[x1] + l15x2])


@njit(cache=True, nogil=True, inline="always")
def _square64(x, lg, ex, l15, l15x2):  # pragma: no cover - compiled
    """x ⊗ x: (c·H ⊕ a)² = c²·H ⊕ c²⊗h ⊕ a² at both levels."""
    c = (x >> 32) & _M32
    a = x & _M32
    # 32-bit squares in the log domain: (u1·H ⊕ u0)² = u1²·H ⊕ u1²⊗h ⊕ u0²
    c1 = (c >> 16) & _M16
    c0 = c & _M16
    a1 = (a >> 16) & _M16
    a0 = a & _M16
    lc1 = 2 * lg[c1]
    la1 = 2 * lg[a1]
    s1 = np.int64(ex[lc1])
    cc = (s1 << 16) | (np.int64(ex[lc1 + l15]) ^ np.int64(ex[2 * lg[c0]]))
    aa = (np.int64(ex[la1]) << 16) | (np.int64(ex[la1 + l15]) ^ np.int64(ex[2 * lg[a0]]))
    return (cc << 32) | (_mulh32(cc, lg, ex, l15, l15x2) ^ aa)


@njit(cache=True, nogil=True, inline="always")
def _sqrt64(x, lg, ex, l15, l15x2, sq):  # pragma: no cover - compiled
    """√(c·H ⊕ a) = √c·H ⊕ √(a ⊕ c⊗h) at both levels."""
    c = (x >> 32) & _M32
    a = (x & _M32) ^ _mulh32(c, lg, ex, l15, l15x2)
    c1 = (c >> 16) & _M16
    a1 = (a >> 16) & _M16
    rc = (np.int64(sq[c1]) << 16) | np.int64(sq[(c & _M16) ^ _mulh16(c1, lg, ex, l15)])
    ra = (np.int64(sq[a1]) << 16) | np.int64(sq[(a & _M16) ^ _mulh16(a1, lg, ex, l15)])
    return (rc << 32) | ra


@njit(cache=True, nogil=True, inline="always")
def _inv32(x, lg, ex, l15):  # pragma: no cover - compiled
    """x⁻¹ for 0 < x < 2^32 by the norm to GF(2^16)."""
    c = (x >> 16) & _M16
    a = x & _M16
    ac = a ^ c
    n = np.int64(ex[lg[ac] + lg[a]]) ^ np.int64(ex[2 * lg[c] + l15])
    lni = _Q - lg[n]  # log of N⁻¹ (n != 0 since x != 0)
    return (np.int64(ex[lni + lg[c]]) << 16) | np.int64(ex[lni + lg[ac]])


@njit(cache=True, nogil=True, inline="always")
def _inv64(x, lg, ex, l15, l15x2):  # pragma: no cover - compiled
    """x⁻¹ for x != 0 by the norm N = (a⊕c)⊗a ⊕ c²⊗h32 to GF(2^32)."""
    c = (x >> 32) & _M32
    a = x & _M32
    ac = a ^ c
    n = _mul32(ac, a, lg, ex, l15) ^ _mul32_h32(c, c, lg, ex, l15, l15x2)
    ni = _inv32(n, lg, ex, l15)
    return (_mul32(ni, c, lg, ex, l15) << 32) | _mul32(ni, ac, lg, ex, l15)


@njit(cache=True, nogil=True)
def _mul_kernel(a, b, out, lg, ex, l15, l15x2):  # pragma: no cover - compiled
    for i in range(out.shape[0]):
        out[i] = _mul64(a[i], b[i], lg, ex, l15, l15x2)


@njit(cache=True, nogil=True)
def _mul_scalar_kernel(a, s, out, lg, ex, l15, l15x2):  # pragma: no cover - compiled
    for i in range(out.shape[0]):
        out[i] = _mul64(a[i], s, lg, ex, l15, l15x2)


@njit(cache=True, nogil=True)
def _inv_kernel(a, out, lg, ex, l15, l15x2):  # pragma: no cover - compiled
    for i in range(out.shape[0]):
        out[i] = _inv64(a[i], lg, ex, l15, l15x2)


@njit(cache=True, nogil=True)
def _square_kernel(a, out, lg, ex, l15, l15x2):  # pragma: no cover - compiled
    for i in range(out.shape[0]):
        out[i] = _square64(a[i], lg, ex, l15, l15x2)


@njit(cache=True, nogil=True)
def _sqrt_kernel(a, out, lg, ex, l15, l15x2, sq):  # pragma: no cover - compiled
    for i in range(out.shape[0]):
        out[i] = _sqrt64(a[i], lg, ex, l15, l15x2, sq)


@njit(cache=True, nogil=True)
def _pow_kernel(a, n, out, lg, ex, l15, l15x2):  # pragma: no cover - compiled
    """a[i]^n[i] by square-and-multiply; n is uint64 data viewed as int64 (logical shifts)."""
    for i in range(out.shape[0]):
        base = a[i]
        e = n[i]
        result = np.int64(1)
        for _ in range(64):
            if e == 0:
                break
            if e & 1:
                result = _mul64(result, base, lg, ex, l15, l15x2)
            e = (e >> 1) & 0x7FFFFFFFFFFFFFFF
            if e != 0:
                base = _square64(base, lg, ex, l15, l15x2)
        out[i] = result


# ---------------------------------------------------------------------------------------------
# numpy-shaped wrappers
# ---------------------------------------------------------------------------------------------

_TWO64 = 1 << 64


def _as_uint64(x: object, func: str, name: str) -> np.ndarray:
    """``x`` as a uint64 array, or :class:`NimberError` naming the first bad value."""
    if isinstance(x, (bool, np.bool_)):
        raise NimberError(f"{func}: {name} must hold non-negative ints below 2^64, got bool {short_repr(x)}")
    arr = np.asarray(x)
    kind = arr.dtype.kind
    if kind == "u":
        return arr.astype(np.uint64, copy=False)
    if kind == "i":
        if arr.size and arr.min() < 0:
            bad = int(arr.flat[int(np.argmax(arr.ravel() < 0))])
            raise NimberError(
                f"{func}: {name} must hold non-negative ints below 2^64, got {shorten(bad)}"
            )
        return arr.astype(np.uint64)
    if kind == "O":
        values = [_check(v, func, name) for v in arr.ravel().tolist()]
        for v in values:
            if v >= _TWO64:
                raise NimberError(
                    f"{func}: {name} must hold non-negative ints below 2^64, got {shorten(v)} "
                    f"(use cgtalg.nimbers.finite for big ints)"
                )
        return np.array(values, dtype=np.uint64).reshape(arr.shape)
    if arr.ndim == 0:
        got = f"{type(x).__name__} {short_repr(x)}"
    else:
        got = f"an array of dtype {arr.dtype}"
    raise NimberError(f"{func}: {name} must hold non-negative ints below 2^64, got {got}")


def _flat_i64(arr: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(arr).reshape(-1).view(np.int64)


def _unary(kernel, x: object, func: str, *extra: object) -> np.ndarray:
    arr = _as_uint64(x, func, "a")
    out = np.empty(arr.shape, dtype=np.uint64)
    kernel(_flat_i64(arr), out.reshape(-1).view(np.int64), _LOG, _EXP, _L15, _L15X2, *extra)
    return out


def _check_nonzero(arr: np.ndarray, what: str) -> None:
    zero = arr == 0
    if zero.any():
        where = np.unravel_index(int(np.argmax(zero)), arr.shape) if arr.ndim else ()
        at = f" (a[{', '.join(str(int(i)) for i in where)}] == 0)" if arr.ndim else ""
        raise NimZeroDivisionError(f"{what} of 0 is undefined{at}")


def broadcast_shape(func: str, *shapes: tuple) -> tuple:
    """The broadcast shape of ``shapes`` (numpy's rule), or
    :class:`~cgtalg.errors.NimberError` naming ``func`` when they do not broadcast."""
    try:
        return np.broadcast_shapes(*shapes)
    except ValueError:
        raise NimberError(f"{func}: operands of shapes {' and '.join(map(str, shapes))} do not broadcast") from None


def nim_mul_array(a: object, b: object) -> np.ndarray:
    """Elementwise nim-product of two arrays of 64-bit nimbers (numpy broadcasting).

    Same values as :func:`cgtalg.nimbers.finite.nim_mul` (ONAG ch. 6 recursion), computed
    by a compiled kernel: two levels of the Karatsuba split over ``GF(2^16)`` log tables.

    Parameters
    ----------
    a, b : array_like
        Non-negative integers below ``2^64`` (any integer dtype, or Python ints); scalars
        broadcast.

    Returns
    -------
    numpy.ndarray
        ``uint64`` array of the broadcast shape.

    Raises
    ------
    NimberError
        If a value is negative, at least ``2^64``, or not an integer (floats, bools).

    Examples
    --------
    >>> nim_mul_array([2, 16, 2**32], [2, 16, 2**32]).tolist()
    [3, 24, 6442450944]
    """
    x = _as_uint64(a, "nim_mul_array", "a")
    y = _as_uint64(b, "nim_mul_array", "b")
    shape = broadcast_shape("nim_mul_array", x.shape, y.shape)
    out = np.empty(shape, dtype=np.uint64)
    flat_out = out.reshape(-1).view(np.int64)
    if y.size == 1 and x.shape == shape:
        _mul_scalar_kernel(
            _flat_i64(x), int(y.reshape(-1).view(np.int64)[0]), flat_out,
            _LOG, _EXP, _L15, _L15X2,
        )
    elif x.size == 1 and y.shape == shape:
        _mul_scalar_kernel(
            _flat_i64(y), int(x.reshape(-1).view(np.int64)[0]), flat_out,
            _LOG, _EXP, _L15, _L15X2,
        )
    else:
        xb, yb = np.broadcast_arrays(x, y)
        _mul_kernel(_flat_i64(xb), _flat_i64(yb), flat_out, _LOG, _EXP, _L15, _L15X2)
    return out


def nim_inv_array(a: object) -> np.ndarray:
    """Elementwise nim-inverse of an array of nonzero 64-bit nimbers.

    Norm recursion ``x⁻¹ = (N⁻¹⊗c)·H ⊕ N⁻¹⊗(a⊕c)`` at ``H = 2^32`` and ``2^16`` (ONAG ch. 6),
    then the ``GF(2^16)`` log table.

    Parameters
    ----------
    a : array_like
        Positive integers below ``2^64``.

    Returns
    -------
    numpy.ndarray
        ``uint64`` array of the same shape.

    Raises
    ------
    NimZeroDivisionError
        If any entry is 0 (the message gives its index).
    NimberError
        If a value is negative, at least ``2^64``, or not an integer.

    Examples
    --------
    >>> nim_inv_array([1, 2, 16]).tolist()
    [1, 3, 170]
    """
    arr = _as_uint64(a, "nim_inv_array", "a")
    _check_nonzero(arr, "nim-inverse")
    out = np.empty(arr.shape, dtype=np.uint64)
    _inv_kernel(_flat_i64(arr), out.reshape(-1).view(np.int64), _LOG, _EXP, _L15, _L15X2)
    return out


def nim_square_array(a: object) -> np.ndarray:
    """Elementwise nim-square ``x ⊗ x`` of an array of 64-bit nimbers.

    Parameters
    ----------
    a : array_like
        Non-negative integers below ``2^64``.

    Returns
    -------
    numpy.ndarray
        ``uint64`` array of the same shape.

    Raises
    ------
    NimberError
        If a value is negative, at least ``2^64``, or not an integer.

    Examples
    --------
    >>> nim_square_array([2, 4, 16]).tolist()
    [3, 6, 24]
    """
    return _unary(_square_kernel, a, "nim_square_array")


def nim_sqrt_array(a: object) -> np.ndarray:
    """Elementwise nim-square root of an array of 64-bit nimbers.

    ``√(c·H ⊕ a) = √c·H ⊕ √(a ⊕ c⊗H/2)`` at ``H = 2^32`` and ``2^16``, then a ``GF(2^16)``
    table.

    Parameters
    ----------
    a : array_like
        Non-negative integers below ``2^64``.

    Returns
    -------
    numpy.ndarray
        ``uint64`` array of the same shape, ``r`` with ``r ⊗ r = a``.

    Raises
    ------
    NimberError
        If a value is negative, at least ``2^64``, or not an integer.

    Examples
    --------
    >>> nim_sqrt_array([2, 3, 24]).tolist()
    [3, 2, 16]
    """
    return _unary(_sqrt_kernel, a, "nim_sqrt_array", _SQRT16)


def nim_pow_array(a: object, n: object) -> np.ndarray:
    """Elementwise nim-power ``a^⊗n`` of 64-bit nimbers (``x^0 = 1``, including ``0^0``).

    Square-and-multiply in the compiled kernel. A scalar Python ``n`` may be of any size
    (it is reduced modulo ``2^64 − 1``, the order of ``GF(2^64)^*``); a negative exponent
    means a power of the inverse.

    Parameters
    ----------
    a : array_like
        Non-negative integers below ``2^64``.
    n : int or array_like of int
        Exponents, broadcast against ``a``.

    Returns
    -------
    numpy.ndarray
        ``uint64`` array of the broadcast shape.

    Raises
    ------
    NimZeroDivisionError
        If a zero is raised to a negative power.
    NimberError
        If a value of ``a`` is invalid or ``n`` is not an integer.

    Examples
    --------
    >>> nim_pow_array([2, 2, 2, 0], [2, 3, -1, 0]).tolist()
    [3, 1, 3, 1]
    """
    x = _as_uint64(a, "nim_pow_array", "a")
    q = _TWO64 - 1
    if np.ndim(n) == 0 and not isinstance(n, np.ndarray):
        e = _check_exponent(n, "nim_pow_array")
        if e < 0:
            _check_nonzero(x, "nim-power to a negative exponent")
            x = nim_inv_array(x)
            e = -e
        reduced = 0 if e == 0 else (e - 1) % q + 1  # keeps 0^n = 0 for n > 0
        exps = np.array(reduced, dtype=np.uint64)
    else:
        earr = np.asarray(n)
        if earr.dtype.kind not in "iu" or earr.dtype == np.bool_:
            raise NimberError(
                f"nim_pow_array: exponents must be integers, got an array of dtype {earr.dtype}"
            )
        broadcast_shape("nim_pow_array", x.shape, earr.shape)
        if earr.dtype.kind == "i" and earr.size and earr.min() < 0:
            neg = earr < 0
            xb, negb = np.broadcast_arrays(x, neg)
            _check_nonzero(np.where(negb, xb, 1), "nim-power to a negative exponent")
            x = np.where(negb, nim_inv_array(np.where(negb, xb, 1)), xb)
            earr = np.abs(earr.astype(np.int64)).astype(np.uint64)  # |min int64| wraps: fine
        exps = earr.astype(np.uint64)
    xb, eb = np.broadcast_arrays(x, exps)
    out = np.empty(xb.shape, dtype=np.uint64)
    _pow_kernel(
        _flat_i64(xb), _flat_i64(eb), out.reshape(-1).view(np.int64),
        _LOG, _EXP, _L15, _L15X2,
    )
    return out
