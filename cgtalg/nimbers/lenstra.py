"""Nim-multiplication of ordinals below ω^(ω^ω) by Lenstra's κ/α representation.

The ordinals below ω^(ω^ω) form, under nim-addition and nim-multiplication, the algebraic
closure of GF(2) (Conway, ONAG ch. 6; Lenstra 1977). Every such ordinal is a nim-sum of
*monomials* ``c ⊗ ∏ κ_q^(e_q)`` with finite ``c`` and ``0 ≤ e_q < p`` for each prime power
``q = p^(j+1)``:

* ``κ_{2^n} = 2^(2^(n-1))`` (finite, handled by :mod:`cgtalg.nimbers.finite`);
* for ``p`` the k-th odd prime (``p = 3`` is the first), ``κ_{p^(j+1)} = ω^(ω^(k-1)·p^j)``;
  so κ_3 = ω, κ_9 = ω^3, κ_5 = ω^ω, κ_7 = ω^(ω^2);
* ``κ_{p^(j+1)}^⊗p = κ_{p^j}`` (j ≥ 1) and ``κ_p^⊗p = α_p``, a nim-sum of monomials over
  smaller primes (the shipped table, :mod:`cgtalg.nimbers.alpha_table`).

Writing ``β = Σ ω^k·e_k < ω^ω`` and each ``e_k`` in base ``p_k`` (the (k+1)-th odd prime) with
digits ``d_{k,j}``, ``ω^β = ⊗_{k,j} κ_{p_k^(j+1)}^(d_{k,j})`` and ``ω^β·c = ω^β ⊗ c``. A product
of monomials adds digit vectors; a digit reaching ``p`` is reduced by carrying 1 to the next
*lower* digit, and at the lowest digit by multiplying with α_p. This terminates because the
carries go to lower digits or smaller primes (notes/nimbers.md; Lenstra 1977, 1978; DiMuro,
"On On_p", 2011).

An element lies in the finite field ``GF(2^E)`` spanned by the monomials whose coefficient is
below ``2^(2^a)`` and whose digits use at most ``J_k`` positions for prime ``p_k``, closed
under the α's it needs; ``E = 2^a ∏ p_k^(J_k)``. Inverses are ``x^(2^E − 2)`` (Itoh–Tsujii
addition chain, E squarings which are cheap because squaring is additive, and O(log E)
products), square roots ``x^(2^(E−1))`` (Frobenius), and polynomial roots come from
square-free, distinct-degree and trace (equal-degree) factorisation in such a field.

Beyond ω^(ω^ω) the next nimber is transcendental over the field below it, and products are no
longer computable this way: such inputs raise :class:`cgtalg.errors.OrdinalRangeError`, as does
a product that needs α_p for a prime p beyond the table (p > 709).

Examples
--------
>>> from cgtalg.nimbers.ordinal import ordinal, format_ordinal
>>> nim_mul(ordinal("w"), ordinal("w"))
w**2
>>> nim_mul(ordinal("w"), ordinal("w^2"))
2
>>> format_ordinal(nim_sqrt(ordinal("w")))
'ω^2·2'
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from cgtalg.budget import check_fits
from cgtalg.errors import ComputationLimitError, NimberError, NimZeroDivisionError
from cgtalg.nimbers import finite as _finite
from cgtalg.nimbers.engine import (
    Elem,
    NeedAlpha,
    _check_int,
    _prime_index,
    element_of,
    engine,
    need_alpha_error,
    ordinal_of_element,
    sig_merge,
)
from cgtalg.nimbers.limits import (
    LazyText,
    check_field_degree,
    check_max_field_degree,
    nimber_budget,
    seconds,
    short_repr,
    shorten,
)
from cgtalg.nimbers.ordinal import OrdinalLike, _format, _make, _out, is_sympy

__all__ = [
    "kappa",
    "nim_mul",
    "nim_product",
    "nim_inv",
    "nim_div",
    "nim_pow",
    "nim_sqrt",
    "nim_degree",
    "kappa_field_degree",
]

_fmul = _finite.nim_mul


def _shown(cnf: Any) -> str:
    """An operand as text for a message, shortened."""
    return shorten(_format(cnf, False))


def _label(what: str, cnf: Any) -> str:
    return f"{what} {_shown(cnf)}"


def _unary(a: OrdinalLike, finite_op: Callable, engine_op: Callable, what: str,
           max_seconds: Any = None, max_field_degree: Any = False) -> Any:
    """``finite_op`` on a finite ``a``, else ``engine_op(engine, element)`` within a budget of
    ``max_seconds`` (and, unless ``max_field_degree`` is ``False``, refused when a's κ-field
    is above ``max_field_degree``); an α_p beyond the table is reported as the error of
    "``what`` a"."""
    cnf, e = element_of(a, "a")
    if max_field_degree is not False:
        max_field_degree = check_max_field_degree(max_field_degree, what)
    seconds(max_seconds)
    if isinstance(cnf, int):
        return finite_op(cnf)
    label = LazyText(_label, what, cnf)
    eng = engine()
    try:
        E = None
        if max_field_degree is not False:
            E = eng.degree_bound(e)
            check_field_degree(E, max_field_degree, label)  # type: ignore[arg-type]
        with nimber_budget(max_seconds, label):
            return engine_op(eng, e, E)
    except NeedAlpha as exc:
        raise need_alpha_error(str(label), exc) from None

# ---------------------------------------------------------------------------------------------
# Public arithmetic
# ---------------------------------------------------------------------------------------------


def kappa(q: int) -> OrdinalLike:
    """Lenstra's κ_q for a prime power q.

    ``κ_{2^n} = 2^(2^(n−1))`` and, for p the k-th odd prime, ``κ_{p^(j+1)} = ω^(ω^(k−1)·p^j)``
    (Lenstra 1977; notes/nimbers.md). κ_q generates the degree-p step of the tower of
    subfields: ``κ_{p^(j+1)}^⊗p = κ_{p^j}`` and ``κ_p^⊗p = α_p``.

    Parameters
    ----------
    q : int
        A prime power ``p^n`` with ``n ≥ 1``.

    Returns
    -------
    int or Ordinal

    Raises
    ------
    cgtalg.errors.NimberError
        If ``q`` is not a prime power > 1.
    cgtalg.errors.ComputationLimitError
        If κ_q cannot be held (``κ_{2^n}`` has 2^(n−1) bits: refused beyond the memory
        ceiling), or q is too large to factor (over 4096 bits) or its prime too large to
        count the primes below it (p > 10^9).

    Examples
    --------
    >>> kappa(4), kappa(3), kappa(9), kappa(5)
    (4, w, w**3, w**(w))
    >>> kappa(47)
    w**(w**13)
    """
    if is_sympy(q, "Integer"):
        q = int(q)
    if not isinstance(q, int) or isinstance(q, bool) or q < 2:
        raise NimberError(f"kappa: q must be a prime power > 1, got {type(q).__name__} {short_repr(q)}")
    if q & (q - 1) == 0:  # 2^n: no factoring
        p, n = 2, q.bit_length() - 1
    else:
        if q.bit_length() > 4096:
            raise ComputationLimitError(
                f"kappa: q = {shorten(q)} has {q.bit_length()} bits; prime powers above 2^4096 "
                "(other than powers of 2) are not factored")
        import sympy

        pp = sympy.perfect_power(q)
        p, n = (int(pp[0]), int(pp[1])) if pp else (q, 1)
        if not sympy.isprime(p):
            raise NimberError(f"kappa: q must be a prime power > 1, got {shorten(q)}")
    if p == 2:
        # κ_{2^n} = 2^(2^(n−1)) has 2^(n−1) bits
        what = f"kappa({'2^' + str(n) if n > 16 else q}) = 2^(2^{n - 1}), of 2^{n - 1} bits,"
        if n > 64:
            raise ComputationLimitError(f"{what} cannot be held in any memory")
        check_fits(2.0 ** (n - 4), what)
        return 1 << (1 << (n - 1))
    if p > 10**9:
        raise ComputationLimitError(
            f"kappa: κ_q for the prime p = {shorten(p)} needs the index of p among the odd "
            "primes, which is not counted beyond p = 10^9")
    k = _prime_index(p)
    return _out(_make(((_make(((k, p ** (n - 1)),)), 1),)))


def nim_mul(a: OrdinalLike, b: OrdinalLike, *, max_seconds: float | None = None) -> OrdinalLike:
    """Nim-product a ⊗ b of two ordinals below ω^(ω^ω).

    a ⊗ b = mex{a'⊗b ⊕ a⊗b' ⊕ a'⊗b' : a' < a, b' < b} (ONAG ch. 6), computed by Lenstra's
    κ/α representation: monomials multiply by adding base-p exponent digits, reduced with
    κ_{p^(j+1)}^p = κ_{p^j} and κ_p^p = α_p; finite coefficients by the finite rule.

    Parameters
    ----------
    a, b : int or Ordinal
        Ordinals below ω^(ω^ω).
    max_seconds : float or None
        Time budget (``None``: none); the memory ceiling of :class:`cgtalg.budget.Deadline`
        applies as well.

    Returns
    -------
    int or Ordinal
        ``a ⊗ b``, an ``int`` when finite.

    Raises
    ------
    cgtalg.errors.OrdinalRangeError
        If an argument is not below ω^(ω^ω), or the product needs α_p for p > 709.
    cgtalg.errors.NimberError
        If an argument is not a non-negative ordinal.
    cgtalg.errors.ComputationLimitError
        When the time or memory budget runs out.

    Examples
    --------
    >>> from cgtalg.nimbers.ordinal import ordinal
    >>> nim_mul(ordinal("w"), ordinal("w^2"))       # ω is a cube root of 2 (seed 004)
    2
    >>> nim_mul(ordinal("w^w"), 2)
    w**(w)*2
    >>> nim_mul(16, 16)
    24
    """
    ca, ea = element_of(a, "a")
    cb, eb = element_of(b, "b")
    seconds(max_seconds)
    if isinstance(ca, int) and isinstance(cb, int):
        return _fmul(ca, cb)
    label = LazyText(lambda: f"nim-product {_shown(ca)} ⊗ {_shown(cb)}")
    try:
        with nimber_budget(max_seconds, label):
            return ordinal_of_element(engine().mul(ea, eb))
    except NeedAlpha as exc:
        raise need_alpha_error(str(label), exc) from None


def nim_product(values: Iterable[OrdinalLike], *, max_seconds: float | None = None) -> OrdinalLike:
    """Nim-product of a finite collection of ordinals below ω^(ω^ω) (1 for an empty one).

    Parameters
    ----------
    values : iterable of int or Ordinal

    Returns
    -------
    int or Ordinal

    Raises
    ------
    cgtalg.errors.OrdinalRangeError
        As :func:`nim_mul`.

    Examples
    --------
    >>> from cgtalg.nimbers.ordinal import ordinal
    >>> nim_product([ordinal("w^3")] * 3)             # (ω^3)^⊗3 = ω (seed 004)
    w
    """
    eng = engine()
    acc: Elem = {0: 1}
    shown = []
    try:
        with nimber_budget(max_seconds, "the nim-product") as deadline:
            for i, v in enumerate(values):
                deadline.check("the nim-product")
                cnf, e = element_of(v, f"value {i}")
                shown.append(_shown(cnf))
                acc = eng.mul(acc, e)
    except NeedAlpha as exc:
        raise need_alpha_error(shorten(f"nim-product {' ⊗ '.join(shown)}", 200), exc) from None
    return ordinal_of_element(acc)


def nim_inv(a: OrdinalLike, *, max_seconds: float | None = None) -> OrdinalLike:
    """Nim-inverse a^(−1) of a nonzero ordinal below ω^(ω^ω).

    ``a`` lies in a finite subfield F = GF(2^E) of the nimbers (its κ-field), built as a tower
    F = F'(g) with g^p = c ∈ F' (Lenstra 1977). The inverse is found one tower level at a time
    by the extended Euclidean algorithm on X^p − c and a(X) over F' (inverting leading
    coefficients recursively in smaller fields): about one dense product in F, against the
    ≈ E products of a^(2^E − 2) (``benchmarks/bench_ordinal.py`` measures both). Finite ``a``
    uses the finite module.

    Parameters
    ----------
    a : int or Ordinal
        A nonzero ordinal below ω^(ω^ω).

    Returns
    -------
    int or Ordinal

    Raises
    ------
    cgtalg.errors.NimZeroDivisionError
        If ``a`` is 0.
    cgtalg.errors.OrdinalRangeError
        If ``a`` is not below ω^(ω^ω), or its field needs α_p for p > 709.

    Examples
    --------
    >>> from cgtalg.nimbers.ordinal import ordinal
    >>> nim_inv(ordinal("w"))                          # ω ⊗ ω^2·3 = 2 ⊗ 3 = 1
    w**2*3
    >>> nim_inv(2)
    3
    """
    if not element_of(a, "a")[1]:
        raise NimZeroDivisionError("the nim-inverse of 0 is undefined")
    return _unary(a, _finite.nim_inv, lambda eng, e, E: ordinal_of_element(eng.inv(e)), "nim-inverse of",
                  max_seconds)


def nim_div(a: OrdinalLike, b: OrdinalLike, *, max_seconds: float | None = None) -> OrdinalLike:
    """Nim-quotient a ⊗ b^(−1) for ordinals below ω^(ω^ω).

    Parameters
    ----------
    a, b : int or Ordinal
        ``b`` nonzero.

    Returns
    -------
    int or Ordinal

    Raises
    ------
    cgtalg.errors.NimZeroDivisionError
        If ``b`` is 0.
    cgtalg.errors.OrdinalRangeError
        As :func:`nim_mul` and :func:`nim_inv`.

    Examples
    --------
    >>> from cgtalg.nimbers.ordinal import ordinal
    >>> nim_div(2, ordinal("w"))
    w**2
    """
    ca, ea = element_of(a, "a")
    cb, eb = element_of(b, "b")
    if not eb:
        raise NimZeroDivisionError(f"nim-division of {_shown(ca)} by 0 is undefined")
    seconds(max_seconds)
    if isinstance(ca, int) and isinstance(cb, int):
        return _finite.nim_div(ca, cb)
    eng = engine()
    label = LazyText(lambda: f"nim-quotient {_shown(ca)} / {_shown(cb)}")
    try:
        with nimber_budget(max_seconds, label):
            return ordinal_of_element(eng.mul(ea, eng.inv(eb)))
    except NeedAlpha as exc:
        raise need_alpha_error(str(label), exc) from None


def nim_pow(a: OrdinalLike, n: int, *, max_seconds: float | None = None) -> OrdinalLike:
    """Nim-power a^⊗n (n factors; a^0 = 1 including 0^0; negative n inverts first).

    Square-and-multiply with the exponent reduced modulo 2^E − 1, GF(2^E) being a's κ-field.

    Parameters
    ----------
    a : int or Ordinal
        An ordinal below ω^(ω^ω).
    n : int
        The exponent (negative only for nonzero ``a``).

    Returns
    -------
    int or Ordinal

    Raises
    ------
    cgtalg.errors.NimZeroDivisionError
        If ``a`` is 0 and ``n < 0``.
    cgtalg.errors.OrdinalRangeError
        As :func:`nim_mul`.
    cgtalg.errors.NimberError
        If ``n`` is not an int.

    Examples
    --------
    >>> from cgtalg.nimbers.ordinal import ordinal
    >>> nim_pow(ordinal("w"), 3)
    2
    >>> nim_pow(ordinal("w^(w^2)"), 7)                # κ_7^7 = α_7 = ω+1
    w + 1
    """
    cnf, e = element_of(a, "a")
    n = _check_int(n, "nim_pow")
    label = LazyText(lambda n=n: f"nim-power {_shown(cnf)}^{shorten(n)}")
    if isinstance(cnf, int):
        with nimber_budget(max_seconds, label):
            return _finite.nim_pow(cnf, n)
    eng = engine()
    try:
        with nimber_budget(max_seconds, label):
            if n < 0:
                e = eng.inv(e)
                n = -n
            return ordinal_of_element(eng.pow(e, n))
    except NeedAlpha as exc:
        raise need_alpha_error(str(label), exc) from None


def nim_sqrt(a: OrdinalLike, *, max_seconds: float | None = None,
             max_field_degree: int | None = None) -> OrdinalLike:
    """Nim-square root: the unique r with r ⊗ r = a (Frobenius is bijective in char 2).

    For a in GF(2^E), √a = a^(2^(E−1)): E − 1 squarings, each additive over the monomials.

    Parameters
    ----------
    a : int or Ordinal
        An ordinal below ω^(ω^ω).
    max_seconds : float or None
        Time budget (``None``: none).
    max_field_degree : int or None
        Refuse, before any work, an ``a`` whose κ-field GF(2^E) has E above this (``None``:
        :data:`cgtalg.nimbers.limits.DEFAULT_MAX_FIELD_DEGREE`); the cost grows with E.

    Returns
    -------
    int or Ordinal

    Raises
    ------
    cgtalg.errors.OrdinalRangeError
        As :func:`nim_mul`.
    cgtalg.errors.ComputationLimitError
        For a field above ``max_field_degree``, or when the time or memory budget runs out.

    Examples
    --------
    >>> from cgtalg.nimbers.ordinal import ordinal
    >>> nim_sqrt(ordinal("w"))
    w**2*2
    >>> nim_sqrt(2)
    3
    """
    return _unary(a, _finite.nim_sqrt, lambda eng, e, E: ordinal_of_element(eng.sqrt(e, E)), "nim-square root of",
                  max_seconds, max_field_degree)


def nim_degree(a: OrdinalLike, *, max_seconds: float | None = None, max_field_degree: int | None = None) -> int:
    """Degree over GF(2) of the field generated by a: the least d with a ∈ GF(2^d).

    Computed as the least divisor d of the κ-field degree E with a^(2^d) = a.

    Parameters
    ----------
    a : int or Ordinal
        An ordinal below ω^(ω^ω).
    max_seconds, max_field_degree
        As :func:`nim_sqrt`.

    Returns
    -------
    int

    Raises
    ------
    cgtalg.errors.OrdinalRangeError
        As :func:`nim_mul`.

    Examples
    --------
    >>> from cgtalg.nimbers.ordinal import ordinal
    >>> nim_degree(ordinal("w")), nim_degree(ordinal("w^w")), nim_degree(5)
    (6, 20, 4)
    """
    return _unary(a, _finite.field_degree, lambda eng, e, E: eng.degree(e, E), "the field degree of",
                  max_seconds, max_field_degree)


def kappa_field_degree(values: Iterable[object]) -> int:
    """The degree M over GF(2) of the smallest of Lenstra's κ-fields holding all ``values``.

    Nim-products in GF(2^M) cost about M^2 coefficient operations, so a command can refuse
    operands whose field is too large before computing anything. Finite values lie in
    GF(2^(2^a)), the finite part of every κ-field.

    Parameters
    ----------
    values : iterable of int, sympy Ordinal or Nimber
        Ordinals below ω^(ω^ω).

    Returns
    -------
    int
        M (1 for no values or only 0 and 1).

    Raises
    ------
    cgtalg.errors.OrdinalRangeError
        If a value is not below ω^(ω^ω), or its field needs α_p beyond the table.

    Examples
    --------
    >>> kappa_field_degree([5]), kappa_field_degree([5, 2]), kappa_field_degree([3, 1 << 20])
    (4, 4, 32)
    """
    eng = engine()
    sig: tuple = (1, ())
    for i, v in enumerate(values):
        _, e = element_of(v, f"value {i}")
        try:
            sig = sig_merge(sig, eng.sig(e))
        except NeedAlpha as exc:
            raise need_alpha_error("the κ-field", exc) from None
    return eng.sig_degree(sig)
