"""Finite nimber arithmetic on Python ints of any size.

The non-negative integers under nim-addition ⊕ (XOR) and nim-multiplication ⊗ form a field;
the integers below each Fermat 2-power ``F = 2^(2^k)`` form the subfield ``GF(F)``
(Conway, *On Numbers and Games*, ch. 6). Nim-multiplication is defined by

    a ⊗ b = mex{ a'⊗b ⊕ a⊗b' ⊕ a'⊗b' : a' < a, b' < b }

and computed here by the recursive Karatsuba-style split at Fermat 2-powers (ONAG ch. 6;
Lenstra, "Nim multiplication", 1978): for ``H = 2^(2^(k-1))`` and ``h = H/2``, an element of
``GF(H²)`` is ``x = x1·H ⊕ x0`` with ``x1, x0 < H``, ``H ⊗ H = H ⊕ h``, and

    x ⊗ y = [(x1⊕x0)⊗(y1⊕y0) ⊕ x0⊗y0]·H ⊕ x0⊗y0 ⊕ (x1⊗y1)⊗h.

The recursion stops at the 16-bit subfield ``GF(2^16)``, handled by log/exp tables of its
cyclic multiplicative group (built with numpy from the recursion itself, then kept in a cache
file that later imports read without numpy; no table of answers is hard-coded). Inverses use the norm to the half-size subfield, square
roots the split formula for the inverse Frobenius, and quadratics reduce to the
Artin–Schreier equation ``y² ⊕ y = c``, solved recursively.

Examples
--------
>>> nim_mul(2, 2), nim_mul(16, 16), nim_inv(2)
(3, 24, 3)
>>> print(nim_solve_quadratic(1, 1, 2**63))
no roots in GF(2^64); the roots lie in GF(2^128): 18446744073709551616, 18446744073709551617
"""

from __future__ import annotations

import operator
import sys
from dataclasses import dataclass
from typing import Any

from cgtalg.errors import NimberError, NimZeroDivisionError
from cgtalg.nimbers.limits import budget_check, short_repr, shorten

__all__ = [
    "nim_add",
    "nim_mul",
    "nim_inv",
    "nim_div",
    "nim_pow",
    "nim_square",
    "nim_sqrt",
    "nim_trace",
    "field_degree",
    "fermat_field",
    "QuadraticRoots",
    "nim_solve_quadratic",
]

# The tables of the 16-bit subfield GF(2^16), derived from the definition and cached
# (cgtalg.nimbers.gf16_tables).
from cgtalg.nimbers.gf16_tables import ORDER16 as _ORDER16  # noqa: E402
from cgtalg.nimbers.gf16_tables import TABLE_NAMES as _TABLE_NAMES  # noqa: E402
from cgtalg.nimbers.gf16_tables import load_tables as _load_tables  # noqa: E402

_T16 = _load_tables()
_GENERATOR16 = _T16["generator"][0]
# Pure-Python log/exp lists. log(0) is a sentinel: any index sum involving it lands in the
# zero-filled tail of _EXP, so products need no zero test. The exp part is repeated three
# times so that a sum of up to three logs (two factors and a constant) indexes it directly.
_ZLOG = 3 * _ORDER16
_LOG: list[int] = list(_T16["log"])
_LOG[0] = _ZLOG
_EXP: list[int] = _T16["exp"] * 3 + [0] * (_ZLOG + _ORDER16 + 1)
_L15 = _LOG[0x8000]  # log of h16 = 2^15
_L15X2 = (2 * _L15) % _ORDER16  # log of h16 ⊗ h16
_SQ16: list[int] = _T16["sq"]
_SQRT16: list[int] = _T16["sqrt"]
_HALF16: list[int] = _T16["half"]
_ARTIN16: list[int] = _T16["artin"]


def byte_products() -> list[int]:
    """``a ⊗ b`` for every pair of bytes, at index ``(a << 8) | b`` (from the cached tables)."""
    return _T16["bytes"]


def __getattr__(name: str) -> Any:
    # ``_TABLES``: the tables as int64 numpy arrays (for the numba kernels), made on first use
    if name == "_TABLES":
        import numpy as np

        tables = {key: np.array(_T16[key], dtype=np.int64) for key in _TABLE_NAMES if key != "bytes"}
        globals()["_TABLES"] = tables
        return tables
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# ---------------------------------------------------------------------------------------------
# Input checks
# ---------------------------------------------------------------------------------------------


def _is_numpy_bool(x: object) -> bool:
    np = sys.modules.get("numpy")  # a numpy bool exists only once numpy is loaded
    return np is not None and isinstance(x, np.bool_)


def _check(x: object, func: str, name: str = "argument") -> int:
    """Return ``x`` as a non-negative int, or raise :class:`NimberError` naming it."""
    if type(x) is int:
        if x < 0:
            raise NimberError(f"{func}: {name} must be a non-negative int (a nimber), got {shorten(x)}")
        return x
    if isinstance(x, bool) or _is_numpy_bool(x):
        raise NimberError(f"{func}: {name} must be a non-negative int (a nimber), got bool {short_repr(x)}")
    try:
        value = operator.index(x)  # numpy integers and other exact integer types
    except TypeError:
        raise NimberError(
            f"{func}: {name} must be a non-negative int (a nimber), "
            f"got {type(x).__name__} {short_repr(x)}"
        ) from None
    if value < 0:
        raise NimberError(f"{func}: {name} must be a non-negative int (a nimber), got {shorten(value)}")
    return value


def _check_exponent(n: object, func: str) -> int:
    if isinstance(n, bool) or _is_numpy_bool(n):
        raise NimberError(f"{func}: exponent must be an int, got bool {short_repr(n)}")
    try:
        return operator.index(n)
    except TypeError:
        got = f"{type(n).__name__} {short_repr(n)}"
        raise NimberError(f"{func}: exponent must be an int, got {got}") from None


# ---------------------------------------------------------------------------------------------
# Recursive core (arguments already checked). Split sizes are chosen from the operands'
# size: the nim-product does not depend on the field in which it is computed.
# ---------------------------------------------------------------------------------------------


def _half_bits(n: int) -> int:
    """Half the bit-size of the smallest Fermat field containing ``n`` (``n ≥ 2^16``)."""
    return 1 << ((n.bit_length() - 1).bit_length() - 1)


def _mulh(x: int, bits: int) -> int:
    """``x ⊗ 2^(bits-1)`` for ``x < 2^bits``, ``bits`` a power of two ≥ 16."""
    if bits == 16:
        return _HALF16[x]
    if bits == 32:  # the general step below, with both 16-bit factors in the log domain
        x1 = x >> 16
        return (_EXP[_LOG[x1 ^ (x & 0xFFFF)] + _L15] << 16) | _EXP[_LOG[x1] + _L15X2]
    if x == 0:
        return 0
    hb = bits >> 1
    x1 = x >> hb
    x0 = x & ((1 << hb) - 1)
    # x ⊗ H = (x1⊕x0)·H ⊕ x1⊗h', then (y1·H ⊕ y0) ⊗ h' = (y1⊗h')·H ⊕ y0⊗h'.
    return (_mulh(x1 ^ x0, hb) << hb) | _mulh(_mulh(x1, hb), hb)


def _mul(a: int, b: int) -> int:
    if a < 0x10000 and b < 0x10000:
        return _EXP[_LOG[a] + _LOG[b]]
    if a < 0x100000000 and b < 0x100000000:  # one split at 2^16, inlined
        lg = _LOG
        ex = _EXP
        a1 = a >> 16
        a0 = a & 0xFFFF
        b1 = b >> 16
        b0 = b & 0xFFFF
        p0 = ex[lg[a0] + lg[b0]]
        p1 = ex[lg[a1 ^ a0] + lg[b1 ^ b0]]
        return ((p1 ^ p0) << 16) | (p0 ^ ex[lg[a1] + lg[b1] + _L15])
    if a < 0x10000000000000000 and b < 0x10000000000000000:
        return _mul64(a, b)
    hb = _half_bits(a if a > b else b)
    mask = (1 << hb) - 1
    a1 = a >> hb
    a0 = a & mask
    b1 = b >> hb
    b0 = b & mask
    c0 = _mul(a0, b0)
    if a1 == 0:
        return (_mul(a0, b1) << hb) | c0
    if b1 == 0:
        return (_mul(a1, b0) << hb) | c0
    c2 = _mul(a1, b1)
    c1 = _mul(a1 ^ a0, b1 ^ b0)
    return ((c1 ^ c0) << hb) | (c0 ^ _mulh(c2, hb))


def _mul64(a: int, b: int) -> int:
    """``a ⊗ b`` for ``a, b < 2^64``: two levels of the split, fully inlined (the same
    formulas as the numba kernel in :mod:`cgtalg.nimbers.kernels`)."""
    lg = _LOG
    ex = _EXP
    l15 = _L15
    l15x2 = _L15X2
    m = 0xFFFF
    x1 = a >> 32
    x0 = a & 0xFFFFFFFF
    y1 = b >> 32
    y0 = b & 0xFFFFFFFF
    # c0 = x0 ⊗ y0
    u1, u0, v1, v0 = x0 >> 16, x0 & m, y0 >> 16, y0 & m
    p0 = ex[lg[u0] + lg[v0]]
    c0 = ((ex[lg[u1 ^ u0] + lg[v1 ^ v0]] ^ p0) << 16) | (p0 ^ ex[lg[u1] + lg[v1] + l15])
    # c1 = (x1⊕x0) ⊗ (y1⊕y0)
    s = x1 ^ x0
    t = y1 ^ y0
    u1, u0, v1, v0 = s >> 16, s & m, t >> 16, t & m
    p0 = ex[lg[u0] + lg[v0]]
    c1 = ((ex[lg[u1 ^ u0] + lg[v1 ^ v0]] ^ p0) << 16) | (p0 ^ ex[lg[u1] + lg[v1] + l15])
    # c2h = (x1 ⊗ y1) ⊗ 2^31 = (p1⊗h ⊕ p2⊗h²)·2^16 ⊕ (p1 ⊕ p0)⊗h²   (h = 2^15)
    u1, u0, v1, v0 = x1 >> 16, x1 & m, y1 >> 16, y1 & m
    l0 = lg[u0] + lg[v0]
    l1 = lg[u1 ^ u0] + lg[v1 ^ v0]
    l2 = lg[u1] + lg[v1]
    c2h = ((ex[l1 + l15] ^ ex[l2 + l15x2]) << 16) | (ex[l1 + l15x2] ^ ex[l0 + l15x2])
    return ((c1 ^ c0) << 32) | (c0 ^ c2h)


def _sq(x: int) -> int:
    if x < 0x10000:
        return _SQ16[x]
    hb = _half_bits(x)
    s = _sq(x >> hb)
    # (x1·H ⊕ x0)² = x1²·H ⊕ x1²⊗h ⊕ x0²
    return (s << hb) | (_mulh(s, hb) ^ _sq(x & ((1 << hb) - 1)))


def _sqrt(x: int) -> int:
    if x < 0x10000:
        return _SQRT16[x]
    hb = _half_bits(x)
    x1 = x >> hb
    # √(x1·H ⊕ x0) = √x1·H ⊕ √(x0 ⊕ x1⊗h)
    return (_sqrt(x1) << hb) | _sqrt((x & ((1 << hb) - 1)) ^ _mulh(x1, hb))


def _inv(x: int) -> int:
    """Nim-inverse of ``x != 0`` via the norm to the half-size subfield."""
    if x < 0x10000:
        return _EXP[_ORDER16 - _LOG[x]]
    hb = _half_bits(x)
    c = x >> hb
    a = x & ((1 << hb) - 1)
    ac = a ^ c
    # x ⊗ (c·H ⊕ a⊕c) = N = (a⊕c)⊗a ⊕ c²⊗h, which lies in the subfield.
    ni = _inv(_mul(ac, a) ^ _mulh(_sq(c), hb))
    return (_mul(ni, c) << hb) | _mul(ni, ac)


def _pow(a: int, n: int) -> int:
    """``a^⊗n`` for ``n ≥ 0`` by square-and-multiply (``0^0 = 1``)."""
    if n == 0:
        return 1
    if a < 2:
        return a
    bits = _degree(a)
    n %= (1 << bits) - 1  # a^(2^bits - 1) = 1 in GF(2^bits)
    result = 1
    while n:
        budget_check()
        if n & 1:
            result = _mul(result, a)
        n >>= 1
        if n:
            a = _sq(a)
    return result


def _degree(a: int) -> int:
    """``2^k`` for the smallest Fermat field ``GF(2^(2^k))`` containing ``a``."""
    return 1 if a < 2 else 1 << (a.bit_length() - 1).bit_length()


def _artin_schreier(c: int, bits: int) -> int:
    """A root ``y`` of ``y² ⊕ y = c`` in ``GF(2^bits)``; requires trace 0 (bit ``bits-1`` of
    ``c`` clear). The other root is ``y ⊕ 1``."""
    if bits <= 16:
        return _ARTIN16[c]
    hb = bits >> 1
    # y = d·H ⊕ b: d² ⊕ d = c1 and b² ⊕ b = c0 ⊕ d²⊗h; pick d or d⊕1 so the latter has trace 0.
    d = _artin_schreier(c >> hb, hb)
    t = (c & ((1 << hb) - 1)) ^ _mulh(_sq(d), hb)
    if t >> (hb - 1):
        d ^= 1
        t ^= 1 << (hb - 1)
    return (d << hb) | _artin_schreier(t, hb)


# ---------------------------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------------------------


def nim_add(a: int, b: int) -> int:
    """Nim-sum ``a ⊕ b`` (bitwise XOR; Bouton 1901, ONAG ch. 6).

    Parameters
    ----------
    a, b : int
        Non-negative integers (finite nimbers).

    Returns
    -------
    int
        ``a ⊕ b``.

    Raises
    ------
    NimberError
        If an argument is negative or not an int (bools and floats are rejected).

    Examples
    --------
    >>> nim_add(3, 5)
    6
    """
    return _check(a, "nim_add", "a") ^ _check(b, "nim_add", "b")


def nim_mul(a: int, b: int) -> int:
    """Nim-product ``a ⊗ b`` of two finite nimbers of any size.

    Follows ONAG ch. 6: the recursive split at the Fermat 2-power ``H`` below the operands'
    field, with ``H ⊗ H = 3H/2`` and ``H ⊗ x = H·x`` for ``x < H`` (three half-size products
    per level, Karatsuba style), ending in log/exp tables of ``GF(2^16)``.

    Parameters
    ----------
    a, b : int
        Non-negative integers.

    Returns
    -------
    int
        ``a ⊗ b``.

    Raises
    ------
    NimberError
        If an argument is negative or not an int.

    Examples
    --------
    >>> nim_mul(2, 2), nim_mul(16, 16), nim_mul(16, 5)
    (3, 24, 80)
    """
    return _mul(_check(a, "nim_mul", "a"), _check(b, "nim_mul", "b"))


def nim_square(a: int) -> int:
    """Nim-square ``a ⊗ a`` (the Frobenius map, additive in characteristic 2).

    Uses ``(x1·H ⊕ x0)² = x1²·H ⊕ x1²⊗(H/2) ⊕ x0²`` (ONAG ch. 6).

    Parameters
    ----------
    a : int
        A non-negative integer.

    Returns
    -------
    int
        ``a ⊗ a``.

    Raises
    ------
    NimberError
        If ``a`` is negative or not an int.

    Examples
    --------
    >>> nim_square(2), nim_square(4)
    (3, 6)
    """
    return _sq(_check(a, "nim_square", "a"))


def nim_sqrt(a: int) -> int:
    """Nim-square root: the unique ``r`` with ``r ⊗ r = a``.

    Squaring is a bijection of each finite field of characteristic 2, so ``r`` exists, is
    unique and lies in the same Fermat field as ``a``. Uses
    ``√(x1·H ⊕ x0) = √x1·H ⊕ √(x0 ⊕ x1⊗(H/2))``.

    Parameters
    ----------
    a : int
        A non-negative integer.

    Returns
    -------
    int
        ``√a``.

    Raises
    ------
    NimberError
        If ``a`` is negative or not an int.

    Examples
    --------
    >>> nim_sqrt(2), nim_sqrt(3)
    (3, 2)
    """
    return _sqrt(_check(a, "nim_sqrt", "a"))


def nim_inv(a: int) -> int:
    """Nim-inverse ``a^(-1)``, the ``x`` with ``a ⊗ x = 1``.

    For ``a = c·H ⊕ a0`` the norm ``N = (a0⊕c)⊗a0 ⊕ c²⊗(H/2)`` lies in the half-size subfield
    and ``a^(-1) = (N^(-1)⊗c)·H ⊕ N^(-1)⊗(a0⊕c)`` (ONAG ch. 6; Lenstra 1978).

    Parameters
    ----------
    a : int
        A positive integer.

    Returns
    -------
    int
        The nim-inverse of ``a``; it lies in the same Fermat field as ``a``.

    Raises
    ------
    NimZeroDivisionError
        If ``a == 0``.
    NimberError
        If ``a`` is negative or not an int.

    Examples
    --------
    >>> nim_inv(2), nim_inv(16)
    (3, 170)
    """
    a = _check(a, "nim_inv", "a")
    if a == 0:
        raise NimZeroDivisionError("nim-inverse of 0 is undefined")
    return _inv(a)


def nim_div(a: int, b: int) -> int:
    """Nim-quotient ``a ⊗ b^(-1)``.

    Parameters
    ----------
    a : int
        Dividend, a non-negative integer.
    b : int
        Divisor, a positive integer.

    Returns
    -------
    int
        The ``q`` with ``q ⊗ b = a``.

    Raises
    ------
    NimZeroDivisionError
        If ``b == 0``.
    NimberError
        If an argument is negative or not an int.

    Examples
    --------
    >>> nim_div(1, 2), nim_div(3, 2)
    (3, 2)
    """
    a = _check(a, "nim_div", "a")
    b = _check(b, "nim_div", "b")
    if b == 0:
        raise NimZeroDivisionError(f"nim-division of {shorten(a)} by 0 is undefined")
    return _mul(a, _inv(b))


def nim_pow(a: int, n: int) -> int:
    """Nim-power ``a^⊗n`` (``a ⊗ a ⊗ … ⊗ a``, ``n`` factors; ``a^0 = 1`` including ``0^0``).

    Square-and-multiply; the exponent is first reduced modulo ``2^m − 1`` where ``GF(2^m)``
    is the Fermat field of ``a`` (Lagrange). A negative ``n`` means ``(a^(-1))^(-n)``.

    Parameters
    ----------
    a : int
        A non-negative integer.
    n : int
        The exponent, any int (negative only for ``a != 0``).

    Returns
    -------
    int
        ``a^⊗n``.

    Raises
    ------
    NimZeroDivisionError
        If ``a == 0`` and ``n < 0``.
    NimberError
        If ``a`` is negative or not an int, or ``n`` is not an int.

    Examples
    --------
    >>> nim_pow(2, 2), nim_pow(2, 3), nim_pow(2, -1)
    (3, 1, 3)
    """
    a = _check(a, "nim_pow", "a")
    n = _check_exponent(n, "nim_pow")
    if n < 0:
        if a == 0:
            raise NimZeroDivisionError(f"nim-power of 0 to the negative exponent {shorten(n)} is undefined")
        a = _inv(a)
        n = -n
    return _pow(a, n)


def field_degree(a: int) -> int:
    """Degree ``m = 2^k`` over GF(2) of the smallest Fermat field ``GF(2^m)`` containing ``a``.

    The subfields of the finite nimbers are exactly the sets ``{x : x < 2^(2^k)}`` (ONAG
    ch. 6), so this is also the degree of the subfield generated by ``a``.

    Parameters
    ----------
    a : int
        A non-negative integer.

    Returns
    -------
    int
        ``2^k``, least with ``a < 2^(2^k)`` (1 for ``a`` in {0, 1}).

    Raises
    ------
    NimberError
        If ``a`` is negative or not an int.

    Examples
    --------
    >>> field_degree(1), field_degree(3), field_degree(255), field_degree(2**64)
    (1, 2, 8, 128)
    """
    return _degree(_check(a, "field_degree", "a"))


def fermat_field(a: int) -> int:
    """Size ``F = 2^(2^k)`` of the smallest Fermat field containing ``a`` (least with ``a < F``).

    Parameters
    ----------
    a : int
        A non-negative integer.

    Returns
    -------
    int
        ``2^(field_degree(a))``.

    Raises
    ------
    NimberError
        If ``a`` is negative or not an int.

    Examples
    --------
    >>> fermat_field(0), fermat_field(2), fermat_field(16), fermat_field(255)
    (2, 4, 256, 256)
    """
    return 1 << _degree(_check(a, "fermat_field", "a"))


def nim_trace(a: int, field_bits: int | None = None) -> int:
    """Absolute trace ``Tr(a) = a ⊕ a² ⊕ a⁴ ⊕ … ⊕ a^(2^(m-1))`` from ``GF(2^m)`` to GF(2).

    In the nimber field ``GF(2^(2^k))`` the trace is the top bit, bit ``2^k − 1`` (each
    ``h = 2^(2^k − 1)`` has trace 1 since ``x² ⊕ x = h`` defines the next Fermat 2-power, and
    the lower powers of two lie in the kernel); ``y² ⊕ y = a`` is solvable in the field iff
    the trace is 0 (Artin–Schreier / Hilbert 90).

    Parameters
    ----------
    a : int
        A non-negative integer.
    field_bits : int, optional
        ``m``, a power of two with ``a < 2^m``; default ``field_degree(a)``.

    Returns
    -------
    int
        0 or 1.

    Raises
    ------
    NimberError
        If ``a`` is negative or not an int, or ``field_bits`` is not a power of two
        with ``a < 2^field_bits``.

    Examples
    --------
    >>> nim_trace(2), nim_trace(1), nim_trace(1, 2), nim_trace(2**63)
    (1, 1, 0, 1)
    """
    a = _check(a, "nim_trace", "a")
    if field_bits is None:
        m = _degree(a)
    else:
        m = _check(field_bits, "nim_trace", "field_bits")
        if m == 0 or m & (m - 1):
            raise NimberError(f"nim_trace: field_bits must be a power of two, got {shorten(m)}")
        if a >> m:
            raise NimberError(f"nim_trace: {shorten(a)} does not lie in GF(2^{m})")
    return (a >> (m - 1)) & 1


@dataclass(frozen=True)
class QuadraticRoots:
    """The distinct roots of ``a⊗x² ⊕ b⊗x ⊕ c = 0`` and the field they need.

    Attributes
    ----------
    coefficients : tuple[int, int, int]
        ``(a, b, c)``.
    roots : tuple[int, ...]
        All distinct roots in increasing order (in the algebraic closure; each quadratic
        splits in the next Fermat field). Empty only for ``0 = c`` with ``c != 0``.
    base_field_bits : int
        ``m`` such that the coefficients lie in ``GF(2^m)`` (``m`` a power of two, minimal).
    roots_field_bits : int | None
        ``m'`` for the smallest Fermat field ``GF(2^m')`` ⊇ ``GF(2^m)`` holding the roots
        (``m`` or ``2m``); ``None`` when there are no roots.
    in_base_field : bool
        Whether the roots lie in the base field.
    repeated : bool
        True for a double root (a genuine quadratic with ``b = 0``).
    """

    coefficients: tuple[int, int, int]
    roots: tuple[int, ...]
    base_field_bits: int
    roots_field_bits: int | None
    in_base_field: bool
    repeated: bool = False

    def __str__(self) -> str:
        base = f"GF(2^{self.base_field_bits})"
        listed = ", ".join(str(r) for r in self.roots)
        if not self.roots:
            return f"no roots in any field: the equation reduces to {self.coefficients[2]} = 0"
        if not self.in_base_field:
            return f"no roots in {base}; the roots lie in GF(2^{self.roots_field_bits}): {listed}"
        if self.repeated:
            return f"1 double root in {base}: {listed}"
        count = len(self.roots)
        return f"{count} root{'s' if count != 1 else ''} in {base}: {listed}"

    def _repr_html_(self) -> str:
        """Notebook view: the readable report in a ``<pre>`` block."""
        from cgtalg.core.display import text_html

        return text_html(self)


def nim_solve_quadratic(a: int, b: int, c: int) -> QuadraticRoots:
    """Solve ``a⊗x² ⊕ b⊗x ⊕ c = 0`` over the finite nimbers.

    Method: divide by ``a``; if ``b = 0`` the double root is ``√(c/a)``; otherwise substitute
    ``x = (b/a)⊗y`` to get the Artin–Schreier equation ``y² ⊕ y = t``, ``t = a⊗c/b²``. It has
    roots ``y, y⊕1`` in the base field ``GF(2^m)`` iff ``Tr(t) = 0`` (bit ``m−1`` of ``t``);
    otherwise it is irreducible and splits in ``GF(2^(2m))``, where its trace is 0. The
    root is found by the recursive split ``y = d·H ⊕ e`` (notes/nimbers.md). With ``a = 0``
    the equation is linear.

    Parameters
    ----------
    a, b, c : int
        Non-negative integer coefficients.

    Returns
    -------
    QuadraticRoots
        All distinct roots, with the base field and the field containing the roots.

    Raises
    ------
    NimberError
        If a coefficient is negative or not an int, or ``a = b = c = 0`` (every ``x`` is a
        root).

    Examples
    --------
    >>> nim_solve_quadratic(1, 1, 1).roots      # x² ⊕ x ⊕ 1 = 0 over GF(2): roots in GF(4)
    (2, 3)
    >>> print(nim_solve_quadratic(1, 0, 2))
    1 double root in GF(2^2): 3
    """
    a = _check(a, "nim_solve_quadratic", "a")
    b = _check(b, "nim_solve_quadratic", "b")
    c = _check(c, "nim_solve_quadratic", "c")
    coeffs = (a, b, c)
    m = max(_degree(a), _degree(b), _degree(c))
    if a == 0:
        if b == 0:
            if c == 0:
                raise NimberError(
                    "nim_solve_quadratic: all coefficients are 0, so every x is a root"
                )
            return QuadraticRoots(coeffs, (), m, None, False)
        return QuadraticRoots(coeffs, (_mul(c, _inv(b)),), m, m, True)
    ainv = _inv(a)
    if b == 0:
        return QuadraticRoots(coeffs, (_sqrt(_mul(c, ainv)),), m, m, True, repeated=True)
    bb = _mul(b, ainv)  # x² ⊕ bb⊗x ⊕ cc = 0
    cc = _mul(c, ainv)
    t = _mul(cc, _inv(_sq(bb)))  # x = bb⊗y  →  y² ⊕ y = t
    field = m
    if (t >> (m - 1)) & 1:
        field = 2 * m  # irreducible over GF(2^m); splits in GF(2^(2m))
    y = _artin_schreier(t, field)
    r0 = _mul(bb, y)
    roots = tuple(sorted((r0, r0 ^ bb)))
    return QuadraticRoots(coeffs, roots, m, field, field == m)
