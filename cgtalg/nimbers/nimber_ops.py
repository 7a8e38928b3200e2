"""The single entry points of nimber arithmetic: :func:`nim_mul`, :func:`nim_add`,
:func:`nim_div`, :func:`nim_inv`, :func:`nim_pow` and :func:`nim_sqrt`.

Each takes ints, :class:`~cgtalg.nimbers.nimber.Nimber` values, sympy ordinals, integer numpy
arrays and lists or tuples of any of these (elementwise), and dispatches on the argument types:
``int`` → the finite field code, sympy ordinal / :class:`~cgtalg.nimbers.nimber.Nimber` → the
κ/α engine of :mod:`cgtalg.nimbers.lenstra`, integer numpy array (or array and scalar,
broadcasting) → the compiled kernels of :mod:`cgtalg.nimbers.kernels`, lists / tuples / object
arrays → elementwise in one call. ``cgtalg.nimbers.finite.nim_mul``, ``lenstra.nim_mul``
(exported as ``ordinal_nim_mul``) and ``kernels.nim_mul_array`` remain as the type-specific
implementations. This module imports the value type from :mod:`cgtalg.nimbers.nimber`, which
imports nothing from here.

Examples
--------
>>> nim_mul(16, 16)
24
>>> from cgtalg.nimbers.ordinal import ordinal
>>> nim_mul(ordinal("w"), ordinal("w"))
w**2
>>> nim_mul(ordinal("w"), 2)
w*2
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cgtalg.errors import NimberError
from cgtalg.nimbers import finite as _finite
from cgtalg.nimbers import lenstra as _lenstra
from cgtalg.nimbers.limits import nimber_budget, short_repr, shorten
from cgtalg.nimbers.nimber import _C, Nimber, _coerce, _kernels
from cgtalg.nimbers.ordinal import nim_add as _ordinal_nim_add

__all__ = ["nim_mul", "nim_add", "nim_div", "nim_inv", "nim_pow", "nim_sqrt"]

# ---------------------------------------------------------------------------------------------
# The single entry point
# ---------------------------------------------------------------------------------------------


def _is_int_array(x: object) -> bool:
    return isinstance(x, np.ndarray) and x.dtype.kind in "iu"


def _is_seq(x: object) -> bool:
    return isinstance(x, (list, tuple)) or (isinstance(x, np.ndarray) and x.dtype.kind not in "iu")


def _elementwise(op, xs: tuple, name: str) -> Any:
    """Apply ``op`` elementwise, broadcasting scalars; lists in → list out, arrays → object array."""
    if any(isinstance(x, np.ndarray) for x in xs):
        arrs = [np.asarray(x, dtype=object) if _is_seq(x) or isinstance(x, np.ndarray) else x for x in xs]
        try:
            b = np.broadcast(*[a if isinstance(a, np.ndarray) else np.array(a, dtype=object) for a in arrs])
        except ValueError:
            shapes = " and ".join(str(np.shape(a)) for a in arrs)
            raise NimberError(f"{name}: operands of shapes {shapes} do not broadcast") from None
        out = np.empty(b.shape, dtype=object)
        out.flat = [op(*vals) for vals in b]
        return out
    n = None
    for x in xs:
        if _is_seq(x):
            if n is not None and len(x) != n:
                raise NimberError(f"{name}: sequences of different lengths {n} and {len(x)}")
            n = len(x)
    cols = [list(x) if _is_seq(x) else [x] * n for x in xs]
    return [op(*vals) for vals in zip(*cols)]


def _binary(a: object, b: object, nim_op, int_op, ord_op, array_op, name: str, bulk=None) -> Any:
    ta, tb = type(a), type(b)
    if ta is int and tb is int:
        return int_op(a, b)
    if ta is list and tb is list and len(a) == len(b):
        # bulk Nimbers: one pass, no per-element dispatch (one C loop with the kernel)
        if bulk is not None:
            got = bulk(a, b)
            if got is not None:
                return got
        elif all(type(x) is Nimber for x in a) and all(type(y) is Nimber for y in b):
            return list(map(nim_op, a, b))
    elif ta is list and tb is Nimber and all(type(x) is Nimber for x in a):
        return [nim_op(x, b) for x in a]
    if ta is Nimber or tb is Nimber:
        x = _coerce(a)
        y = _coerce(b)
        if x is None or y is None:
            if _is_seq(a) or _is_seq(b):
                return _elementwise(lambda u, v: _binary(u, v, nim_op, int_op, ord_op, array_op, name), (a, b), name)
            bad = a if x is None else b
            raise NimberError(f"{name}: unsupported operand {type(bad).__name__} {short_repr(bad)}")
        return nim_op(x, y)
    if _is_int_array(a) or _is_int_array(b):
        if (_is_int_array(a) or isinstance(a, (int, np.integer))) and (
            _is_int_array(b) or isinstance(b, (int, np.integer))
        ):
            return array_op(a, b)
    if _is_seq(a) or _is_seq(b) or isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return _elementwise(lambda u, v: _binary(u, v, nim_op, int_op, ord_op, array_op, name), (a, b), name)
    return ord_op(a, b)


def _unary(a: object, nim_op, int_op, ord_op, array_op, name: str) -> Any:
    if type(a) is int:
        return int_op(a)
    if type(a) is Nimber:
        return nim_op(a)
    if _is_int_array(a):
        return array_op(a)
    if _is_seq(a):
        return _elementwise(lambda u: _unary(u, nim_op, int_op, ord_op, array_op, name), (a,), name)
    return ord_op(a)


_NIMBER_MUL = Nimber.__mul__
_NIMBER_ADD = Nimber.__add__
_MUL_LISTS = _C.mul_lists if _C is not None else None
_ADD_LISTS = _C.add_lists if _C is not None else None


def _add_array(a: object, b: object) -> np.ndarray:
    x = _kernels._as_uint64(a, "nim_add", "a")
    y = _kernels._as_uint64(b, "nim_add", "b")
    _kernels.broadcast_shape("nim_add", x.shape, y.shape)
    return np.bitwise_xor(x, y)


def _div_array(a: object, b: object) -> np.ndarray:
    return _kernels.nim_mul_array(a, _kernels.nim_inv_array(b))


def nim_mul(a: Any, b: Any) -> Any:
    """Nim-product a ⊗ b for any supported kind of nimber (the single entry point).

    a ⊗ b = mex{a'⊗b ⊕ a⊗b' ⊕ a'⊗b' : a' < a, b' < b} (ONAG ch. 6). Dispatch: two ints →
    the finite code (:func:`cgtalg.nimbers.finite.nim_mul`, any size); a :class:`Nimber` on
    either side → a Nimber; a sympy ordinal → Lenstra's κ/α engine
    (:func:`cgtalg.nimbers.lenstra.nim_mul`, sympy conversions memoised), result an int when
    finite; an integer numpy array with an array or int → the compiled 64-bit kernel
    (:func:`cgtalg.nimbers.kernels.nim_mul_array`, broadcasting); lists, tuples and object
    arrays → elementwise in one call (list / object array out).

    Parameters
    ----------
    a, b : int, sympy Ordinal, Nimber, numpy integer array, or list/tuple/object array
        Non-negative ordinals below ω^(ω^ω) (array kernels: below 2^64).

    Returns
    -------
    int, sympy Ordinal, Nimber, numpy.ndarray or list

    Raises
    ------
    cgtalg.errors.NimberError
        Negative or non-ordinal operands, sequences of different lengths.
    cgtalg.errors.OrdinalRangeError
        Operands not below ω^(ω^ω), or a product needing α_p for p > 709.

    Examples
    --------
    >>> nim_mul(2, 3), nim_mul(Nimber("w"), 2)
    (1, *(ω·2))
    >>> nim_mul(np.array([2, 16]), 16).tolist()
    [32, 24]
    >>> nim_mul([1, 2, 3], 3)
    [3, 1, 2]
    """
    if type(a) is Nimber and type(b) is Nimber:
        return a * b  # the C slot: no dispatch for the common case
    return _binary(a, b, _NIMBER_MUL, _finite.nim_mul, _lenstra.nim_mul, _kernels.nim_mul_array, "nim_mul", _MUL_LISTS)


def nim_add(a: Any, b: Any) -> Any:
    """Nim-sum a ⊕ b (coefficient-wise XOR of the Cantor normal forms; ONAG ch. 6).

    Dispatches like :func:`nim_mul` (arrays: XOR of the uint64 values).

    Examples
    --------
    >>> nim_add(5, 3), nim_add(Nimber("w+1"), 1)
    (6, *ω)
    """
    if type(a) is Nimber and type(b) is Nimber:
        return a + b
    return _binary(a, b, _NIMBER_ADD, _finite.nim_add, _ordinal_nim_add, _add_array, "nim_add", _ADD_LISTS)


def nim_div(a: Any, b: Any) -> Any:
    """Nim-quotient a ⊗ b^(−1); dispatches like :func:`nim_mul`.

    Raises
    ------
    cgtalg.errors.NimZeroDivisionError
        If ``b`` is 0.

    Examples
    --------
    >>> nim_div(1, 2), nim_div(Nimber(2), Nimber("w"))
    (3, *ω^2)
    """
    if type(a) is Nimber and type(b) is Nimber:
        return a / b
    return _binary(a, b, Nimber.__truediv__, _finite.nim_div, _lenstra.nim_div, _div_array, "nim_div")


def nim_inv(a: Any, *, max_seconds: float | None = None) -> Any:
    """Nim-inverse a^(−1); dispatches like :func:`nim_mul` (``max_seconds``: a time budget for
    the κ/α engine, ``None`` for none).

    Raises
    ------
    cgtalg.errors.NimZeroDivisionError
        If ``a`` is 0.

    Examples
    --------
    >>> nim_inv(2), nim_inv(Nimber("w"))
    (3, *(ω^2·3))
    """
    if type(a) is Nimber:
        return a.inv(max_seconds=max_seconds)
    return _unary(a, lambda x: x.inv(max_seconds=max_seconds), _finite.nim_inv,
                  lambda x: _lenstra.nim_inv(x, max_seconds=max_seconds), _kernels.nim_inv_array, "nim_inv")


def nim_sqrt(a: Any, *, max_seconds: float | None = None, max_field_degree: int | None = None) -> Any:
    """Nim-square root (the unique r with r ⊗ r = a); dispatches like :func:`nim_mul`
    (``max_seconds`` and ``max_field_degree`` bound the κ/α engine as in
    :func:`cgtalg.nimbers.lenstra.nim_sqrt`).

    Examples
    --------
    >>> nim_sqrt(2), nim_sqrt(Nimber("w"))
    (3, *(ω^2·2))
    """
    kw = {"max_seconds": max_seconds, "max_field_degree": max_field_degree}
    if type(a) is Nimber:
        return a.sqrt(**kw)
    return _unary(a, lambda x: x.sqrt(**kw), _finite.nim_sqrt, lambda x: _lenstra.nim_sqrt(x, **kw),
                  _kernels.nim_sqrt_array, "nim_sqrt")


def nim_pow(a: Any, n: int, *, max_seconds: float | None = None) -> Any:
    """Nim-power a^⊗n (negative n inverts; 0^0 = 1); dispatches on ``a`` like :func:`nim_mul`
    (``max_seconds``: a time budget, ``None`` for none).

    Examples
    --------
    >>> nim_pow(Nimber("w"), 3), nim_pow(2, 2), nim_pow(np.array([2, 3]), 2).tolist()
    (*2, 3, [3, 2])
    """
    if max_seconds is not None:
        with nimber_budget(max_seconds, f"nim-power (^{shorten(n, 40)})"):
            return nim_pow(a, n)
    if type(a) is Nimber:
        return a ** n
    return _unary(
        a,
        lambda x: x ** n,
        lambda x: _finite.nim_pow(x, n),
        lambda x: _lenstra.nim_pow(x, n),
        lambda x: _kernels.nim_pow_array(x, n),
        "nim_pow",
    )
