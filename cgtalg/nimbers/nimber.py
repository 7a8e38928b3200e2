"""The ``Nimber`` value type.

Nimbers below ω^(ω^ω) form the algebraic closure of GF(2) under nim-addition ⊕ and
nim-multiplication ⊗ (Conway, ONAG ch. 6; Lenstra 1977). This module gives :class:`Nimber`, a
value whose ``+``/``-`` (both ⊕), ``*`` (⊗), ``/`` and ``**`` are the nim operations. It holds
the engine's κ/α representation directly (a Python ``int`` for a finite nimber, the engine's
``{monomial id: finite coefficient}`` dict otherwise), converted once from an ``int``, a sympy
ordinal or ordinal text, so arithmetic between ``Nimber``\\ s never touches sympy; and its
constructors :func:`nimber`, :func:`ordinal` and :func:`parse_nimber`.

The single entry points, one function per operation for every kind of nimber (``nim_mul``,
``nim_add``, ``nim_div``, ``nim_inv``, ``nim_pow``, ``nim_sqrt``), are in
:mod:`cgtalg.nimbers.nimber_ops`, which imports this module (never the other way round).

Examples
--------
>>> w = Nimber("w")
>>> w * w
*ω^2
>>> w * w * w                      # ω is a cube root of 2 (seed 004)
*2
>>> (w + 1) * (Nimber("w^2") + w + 5)
*(ω·4+7)
>>> w.inv(), w ** -1 == w.inv()
(*(ω^2·3), True)
>>> Nimber(2).sqrt()
*3
"""

from __future__ import annotations

import html
from typing import Any, Union

import importlib

import numpy as np

from cgtalg.errors import NimberError, NimZeroDivisionError
from cgtalg.nimbers import compiled as _compiled
from cgtalg.nimbers import finite as _finite
from cgtalg.nimbers import engine as _engine
from cgtalg.nimbers.limits import (
    LazyText,
    check_field_degree,
    check_max_field_degree,
    nimber_budget,
    short_repr,
    shorten,
)
from cgtalg.nimbers.ordinal import _cmp, _format, _parse, is_sympy

__all__ = ["Nimber", "nimber", "ordinal", "parse_nimber"]

_fmul = _finite._mul
NeedAlpha = _engine.NeedAlpha
class _OnFirstUse:
    """A module imported when one of its names is first read."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        return getattr(importlib.import_module(self._name), attr)


#: the numba kernels for integer arrays, imported (with numba) when an array is given
_kernels = _OnFirstUse("cgtalg.nimbers.kernels")


def _norm(d: dict) -> Union[int, dict]:
    """Engine element → internal value (an int when finite)."""
    if not d:
        return 0
    if len(d) == 1 and 0 in d:
        return d[0]
    return d


def _as_dict(v: Union[int, dict]) -> dict:
    if type(v) is int:
        return {0: v} if v else {}
    return v


def _value_of(x: object, name: str) -> Union[int, dict]:
    """Internal value of an int / sympy ordinal / Nimber / ordinal text."""
    if type(x) is Nimber:
        return x._v
    if isinstance(x, str):  # text straight to the engine, without a sympy ordinal
        t = x.strip()
        if t.startswith("*"):  # a nimber as printed: *5, *ω^2, *(ω+1); a lone * is *1
            t = t[1:].strip() or "1"
        cnf = _parse(t)
        e = _ENG.elem(cnf)
        if e is None:
            raise _engine._range_error(cnf)
        return _norm(e)
    if isinstance(x, np.integer):
        x = int(x)
    _, e = _engine.element_of(x, name)
    return _norm(e)


def _show(v: Union[int, dict]) -> str:
    return _format(v if type(v) is int else _ENG.cnf(v), False)


def _raise_alpha(op: str, exc: Exception) -> None:
    raise _engine.need_alpha_error(shorten(op, 200), exc) from None


def _bounded(op: str, fn: Any, v: dict, max_seconds: Any = None, max_field_degree: Any = False) -> "Nimber":
    """``fn(E)``, engine work on the element ``v``, as a Nimber: within a budget of
    ``max_seconds`` and, unless ``max_field_degree`` is ``False``, refused when v's κ-field is
    above it (see :mod:`cgtalg.nimbers.limits`; ``E`` is then its degree bound, else ``None``)."""
    label = LazyText(lambda: f"{op} {shorten(_show(v))}")
    try:
        E = None
        if max_field_degree is not False:
            limit = check_max_field_degree(max_field_degree, op)
            E = _ENG.degree_bound(v)
            check_field_degree(E, limit, label)  # type: ignore[arg-type]
        with nimber_budget(max_seconds, label):
            return _mk(_norm(fn(E)))
    except NeedAlpha as exc:
        _raise_alpha(str(label), exc)


_ENG = _engine.engine()  # (routes its inner loops through the C kernel when it is built)
_C = _compiled.load()
# With the C kernel, Nimber's storage and its ``+``/``-``/``*`` are the slots of the C base
# type (no Python frame per operation); without it, the Python methods _py_add / _py_mul below.
_Base: type = _C.NimberBase if _C is not None else object


class Nimber(_Base):  # type: ignore[misc,valid-type]
    """A nimber below ω^(ω^ω) whose operators are the nim operations.

    ``a + b`` and ``a - b`` are the nim-sum a ⊕ b, ``a * b`` the nim-product a ⊗ b (ONAG
    ch. 6, computed by Lenstra's κ/α method), ``a / b`` is a ⊗ b^(−1), ``a ** n`` the n-th
    nim-power (negative n inverts), ``-a`` is ``a``; ``<`` is the ordinal order; ``==`` and
    ``hash`` agree with ``int`` for finite nimbers. Ints (and sympy ordinals) mix in freely.

    Parameters
    ----------
    value : int, sympy Ordinal, str or Nimber
        A non-negative ordinal below ω^(ω^ω); text is an ordinal expression as
        :func:`cgtalg.nimbers.ordinal.ordinal` reads it (``"w^2+1"``, ``"ω·3"``) or a nimber
        as printed (``"*ω^2"``, ``"*(ω+1)"``; see :func:`parse_nimber`).

    Raises
    ------
    cgtalg.errors.NimberError
        If ``value`` is negative or of another type.
    cgtalg.errors.OrdinalNotationError
        If text is not an ordinal expression.
    cgtalg.errors.OrdinalRangeError
        If the ordinal is not below ω^(ω^ω), or an operation needs α_p beyond the table.

    Examples
    --------
    >>> Nimber("w^3") ** 3            # (ω^3)^⊗3 = ω (seed 004)
    *ω
    >>> Nimber(5), Nimber("w+1"), str(Nimber("w^2"))
    (*5, *(ω+1), '*ω^2')
    >>> int(Nimber(3) * 3), Nimber("w").is_finite
    (2, False)
    >>> Nimber("w^2").to_ordinal()
    w**2
    >>> Nimber("w") < Nimber("w+1") and Nimber(7) < Nimber("w")
    True
    """

    __slots__ = () if _C is not None else ("_v", "_h")

    def __init__(self, value: object = 0) -> None:
        """The state is set by ``__new__`` (a Nimber is immutable); this gives the signature."""

    def __new__(cls, value: object = 0) -> "Nimber":
        if type(value) is Nimber:
            return value
        if isinstance(value, bool):
            raise NimberError(f"Nimber: value must be a non-negative int, a sympy Ordinal or ordinal text, got bool {short_repr(value)}")
        if not isinstance(value, (int, str, np.integer)) and not is_sympy(value):
            raise NimberError(
                "Nimber: value must be a non-negative int, a sympy Ordinal or ordinal text, "
                f"got {type(value).__name__} {short_repr(value)}"
            )
        return _mk(_value_of(value, "value"))

    # -- conversions ----------------------------------------------------------------------------
    @property
    def is_finite(self) -> bool:
        """Whether the nimber is finite (then ``int(self)`` is its value)."""
        return type(self._v) is int

    def __int__(self) -> int:
        if type(self._v) is int:
            return self._v
        raise NimberError(f"int(): {self} is not finite")

    def to_sympy(self) -> Any:
        """The ordinal as sympy sees it: an ``int`` if finite, else a sympy ``Ordinal``.

        ``Nimber.from_ordinal`` is the way back.

        Examples
        --------
        >>> Nimber("w^2+1").to_sympy()
        w**2 + 1
        >>> Nimber.from_ordinal(Nimber("w^2+1").to_sympy()) == Nimber("w^2+1")
        True
        """
        v = self._v
        return v if type(v) is int else _engine.ordinal_of_element(v)

    to_ordinal = to_sympy

    @classmethod
    def from_ordinal(cls, value: object) -> "Nimber":
        """The Nimber of an ``int`` or a sympy ``Ordinal`` (the inverse of :meth:`to_sympy`)."""
        return cls(value)

    def __bool__(self) -> bool:
        return bool(self._v)

    # -- printing -------------------------------------------------------------------------------
    def __str__(self) -> str:
        v = self._v
        if type(v) is int:
            return f"*{_format(v, False)}"
        text = _show(v)
        if any(ch in text for ch in "+·( "):
            return f"*({text})"
        return f"*{text}"

    __repr__ = __str__

    def _repr_html_(self) -> str:
        return f"<span class=\"cgtalg-nimber\">{html.escape(str(self))}</span>"

    def _repr_latex_(self) -> str | None:
        """``*5``, ``*\\omega``, ``*(\\omega^{2}\\cdot 3+1)``."""
        from cgtalg.core.latex import form_latex, math

        return math(form_latex(str(self)))

    # -- comparison -----------------------------------------------------------------------------
    def __hash__(self) -> int:
        try:
            return self._h  # cached on first use (the slot is left unset by _mk)
        except AttributeError:
            v = self._v
            h = hash(v) if type(v) is int else hash(frozenset(v.items()))
            self._h = h
            return h

    def __eq__(self, other: object) -> bool:
        if type(other) is not Nimber:
            try:
                other = _coerce(other)
            except Exception:
                return NotImplemented
            if other is None:
                return NotImplemented
        return self._v == other._v

    def _cnf(self):
        v = self._v
        return v if type(v) is int else _ENG.cnf(v)

    def __lt__(self, other: object) -> bool:
        o = _coerce(other)
        if o is None:
            return NotImplemented
        return _cmp(self._cnf(), o._cnf()) < 0

    def __le__(self, other: object) -> bool:
        o = _coerce(other)
        if o is None:
            return NotImplemented
        return _cmp(self._cnf(), o._cnf()) <= 0

    def __gt__(self, other: object) -> bool:
        o = _coerce(other)
        if o is None:
            return NotImplemented
        return _cmp(self._cnf(), o._cnf()) > 0

    def __ge__(self, other: object) -> bool:
        o = _coerce(other)
        if o is None:
            return NotImplemented
        return _cmp(self._cnf(), o._cnf()) >= 0

    # -- arithmetic (``+``, ``-``, ``*``: see _py_add / _py_mul and the C kernel) -----------
    def __neg__(self) -> "Nimber":
        return self

    def __pos__(self) -> "Nimber":
        return self

    def inv(self, *, max_seconds: float | None = None) -> "Nimber":
        """The nim-inverse (tower method of :func:`cgtalg.nimbers.lenstra.nim_inv`), within a
        time budget of ``max_seconds`` (``None``: none).

        Raises
        ------
        cgtalg.errors.NimZeroDivisionError
            For ``*0``.
        """
        v = self._v
        if type(v) is int:
            if not v:
                raise NimZeroDivisionError("the nim-inverse of 0 is undefined")
            return _mk(_finite.nim_inv(v))
        return _bounded("nim-inverse of", lambda E: _ENG.inv(v), v, max_seconds)

    def __truediv__(self, other: object) -> "Nimber":
        if type(other) is not Nimber:
            other = _coerce(other)
            if other is None:
                return NotImplemented
        if not other._v:
            raise NimZeroDivisionError(f"nim-division of {self} by 0 is undefined")
        return self * other.inv()

    def __rtruediv__(self, other: object) -> "Nimber":
        o = _coerce(other)
        if o is None:
            return NotImplemented
        return o / self

    def __pow__(self, n: object) -> "Nimber":
        if type(n) is not int:
            n = _engine._check_int(n, "Nimber.__pow__")
        v = self._v
        if type(v) is int:
            if n < 0 and not v:
                raise NimZeroDivisionError("0 has no negative nim-powers")
            return _mk(_finite.nim_pow(v, n))
        if n == 1:
            return self
        return _bounded("nim-power", lambda E: _ENG.pow(_ENG.inv(v), -n) if n < 0
                        else _ENG.pow(v, n), v)

    def sqrt(self, *, max_seconds: float | None = None, max_field_degree: int | None = None) -> "Nimber":
        """The nim-square root: the unique r with r ⊗ r = self (Frobenius in char 2).

        ``max_seconds`` bounds the time (``None``: no limit); a nimber whose κ-field has
        degree above ``max_field_degree`` (``None``: :data:`~cgtalg.nimbers.limits.DEFAULT_MAX_FIELD_DEGREE`)
        is refused before any work with :class:`~cgtalg.errors.ComputationLimitError`."""
        v = self._v
        if type(v) is int:
            return _mk(_finite.nim_sqrt(v))
        return _bounded("nim-square root of", lambda E: _ENG.sqrt(v, E), v, max_seconds, max_field_degree)

    def __cgtalg_form__(self) -> Any:
        """The nim-heap ``*n`` of a finite nimber as a form (so ``cg.up + cg.nimber(1)`` is a
        partizan sum); a transfinite nimber is no short game and is refused."""
        if not self.is_finite:
            from cgtalg.errors import GameKindError

            raise GameKindError(f"{self} is a transfinite nimber, not a short game form")
        from cgtalg.core.game import nim

        return nim(int(self))

    def __reduce__(self):
        return (Nimber, (self.to_ordinal(),))


_MONO = _ENG._mono
_SHIFT = _ENG._SHIFT


def _mk_py(v: Union[int, dict]) -> Nimber:
    n = object.__new__(Nimber)
    n._v = v
    return n


# A Nimber holding the internal value v (an int, or the engine's dict with a nonzero monomial).
_mk = _C.make if _C is not None else _mk_py


def _py_add(self: Nimber, other: object) -> Nimber:
    """Nim-sum: coefficient-wise XOR of the κ/α forms (the Python path of ``+`` and ``-``)."""
    if type(other) is not Nimber:
        other = _coerce(other)
        if other is None:
            return NotImplemented
    a = self._v
    b = other._v
    if type(a) is int:
        if type(b) is int:
            return _mk(a ^ b)
        if not a:
            return other
        a, b = b, a  # the infinite operand first
    if type(b) is int:
        if not b:
            return self  # (after the swap b is the nonzero finite operand)
        # finite + infinite: only the constant term changes, the result stays infinite
        out = a.copy()
        c = out.get(0, 0) ^ b
        if c:
            out[0] = c
        else:
            del out[0]
        return _mk(out)
    if len(b) > len(a):
        a, b = b, a
    out = a.copy()
    get = out.get
    for k, c in b.items():
        v = get(k, 0) ^ c
        if v:
            out[k] = v
        else:
            del out[k]
    # inline normalisation: {} -> 0, {0: c} -> c
    if len(out) < 2:
        if not out:
            return _mk(0)
        if 0 in out:
            return _mk(out[0])
    return _mk(out)


def _py_mul(self: Nimber, other: object) -> Nimber:
    """Nim-product by the κ/α engine (the Python path of ``*``; also where the C kernel sends
    coefficients of 64 bits or more and errors such as an α_p beyond the table)."""
    if type(other) is not Nimber:
        other = _coerce(other)
        if other is None:
            return NotImplemented
    a = self._v
    b = other._v
    if type(a) is dict and type(b) is dict and len(a) == 1 == len(b):
        # monomial ⊗ monomial with a cached reduction: the common small product
        (ia, ca), = a.items()
        (ib, cb), = b.items()
        r = _MONO.get(ia * _SHIFT + ib if ia <= ib else ib * _SHIFT + ia)
        if r is not None and ca == 1 and cb == 1 and len(r) == 1:
            (k, cc), = r
            return _mk({k: cc} if k else cc)
    if type(a) is int:
        if type(b) is int:
            return _mk(_fmul(a, b))
        if a < 2:
            return other if a else _ZERO
        a = {0: a}
    elif type(b) is int:
        if b < 2:
            return self if b else _ZERO
        b = {0: b}
    try:
        return _mk(_norm(_ENG.mul(a, b)))
    except NeedAlpha as exc:
        _raise_alpha(f"nim-product {self} ⊗ {other}", exc)


def _mixed(op: Any) -> Any:
    """``op`` for operands in either order, one of them a Nimber (the C slots' fallback)."""

    def mixed(a: object, b: object) -> Any:
        x = _coerce(a)
        y = _coerce(b)
        if x is None or y is None:
            return NotImplemented
        return op(x, y)

    return mixed


if _C is not None:
    _C.setup_nimber(cls=Nimber, slow_add=_mixed(_py_add), slow_mul=_mixed(_py_mul))
else:
    Nimber.__add__ = Nimber.__radd__ = Nimber.__sub__ = Nimber.__rsub__ = _py_add  # type: ignore[method-assign,assignment]
    Nimber.__mul__ = Nimber.__rmul__ = _py_mul  # type: ignore[method-assign,assignment]

_ZERO = _mk(0)


def _coerce(x: object) -> Nimber | None:
    """A Nimber for an int / sympy ordinal / numpy integer operand, ``None`` otherwise."""
    if type(x) is Nimber:
        return x
    if type(x) is int:
        if x < 0:
            raise NimberError(f"nim operand must be a non-negative ordinal, got {shorten(x)}")
        return _mk(x)
    if isinstance(x, bool):
        return None
    if isinstance(x, (int, np.integer)) or is_sympy(x):
        return _mk(_value_of(x, "operand"))
    return None


def nimber(value: object = 0) -> Nimber:
    """The nimber of ``value``: what ``cgtalg.ordinal(...)`` and ``cgtalg.nimber(...)`` give.

    Parameters
    ----------
    value : int, str, Nimber or sympy Ordinal
        A non-negative ordinal below ω^(ω^ω): an ``int``; ordinal text (``"w^2+1"``,
        ``"ω·3"``) or a nimber as printed (``"*ω^2"``, ``"*(ω+1)"``, ``"*5"``, ``"*"``), read
        by :func:`parse_nimber`; a Nimber (returned as is); a sympy ordinal.

    Returns
    -------
    Nimber

    Raises
    ------
    cgtalg.errors.NimberError
        For negative values and other types.
    cgtalg.errors.OrdinalNotationError
        For text that is not an ordinal.
    cgtalg.errors.OrdinalRangeError
        If the ordinal is not below ω^(ω^ω).

    Examples
    --------
    >>> nimber("w^2*3+1"), nimber(5), nimber("*(ω+1)")
    (*(ω^2·3+1), *5, *(ω+1))
    >>> nimber("w") * nimber("w") * nimber("w")
    *2
    """
    if isinstance(value, str):
        return parse_nimber(value)
    return Nimber(value)


def ordinal(value: object = 0) -> Nimber:
    """The nimber ``*α`` of the ordinal ``α`` written as text (``"w^2+1"``), an int, or a sympy
    ordinal: the same as :func:`nimber` (the name researchers reach for when writing ordinals).

    >>> str(ordinal("w^2*3+1"))
    '*(ω^2·3+1)'
    """
    return nimber(value)


def parse_nimber(text: str) -> Nimber:
    """Read a nimber from text: an ordinal expression, or a nimber as Nimber prints it.

    ``"w^2+1"``, ``"ω^2·3+1"``, ``"*ω^2"``, ``"*(ω·4+7)"``, ``"*5"``; a lone ``"*"`` is *1
    (the usual CGT notation). The text is parsed straight to Lenstra's κ/α form, with no sympy
    ordinal on the way.

    Raises
    ------
    cgtalg.errors.NimberError
        If ``text`` is not a str.
    cgtalg.errors.OrdinalNotationError
        For text that is not an ordinal.

    Examples
    --------
    >>> parse_nimber("*"), parse_nimber("*(ω^2·3+1)"), parse_nimber("w^w")
    (*1, *(ω^2·3+1), *ω^ω)
    """
    if not isinstance(text, str):
        raise NimberError(f"parse_nimber expects a str, got {type(text).__name__} {short_repr(text)}")
    return _mk(_value_of(text, "text"))

