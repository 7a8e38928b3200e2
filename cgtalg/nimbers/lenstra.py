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

import itertools
import math
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, Sequence

import sympy

from cgtalg.errors import (
    ComputationLimitError,
    FieldExtensionError,
    NimberError,
    NimZeroDivisionError,
    OrdinalNotationError,
    OrdinalRangeError,
    PolynomialNotationError,
)
from cgtalg.nimbers import compiled as _compiled
from cgtalg.nimbers import finite as _finite
from cgtalg.nimbers.alpha_table import _alpha_cnf, max_tabled_prime
from cgtalg.nimbers.ordinal import (
    _CNF,
    OrdinalLike,
    _coerce,
    _format,
    _key,
    _make,
    _out,
    _Parser,
)

__all__ = [
    "kappa",
    "odd_prime",
    "nim_mul",
    "nim_product",
    "nim_inv",
    "nim_div",
    "nim_pow",
    "nim_sqrt",
    "nim_root",
    "nim_degree",
    "nim_roots",
    "NimRoots",
    "parse_nim_polynomial",
    "PolynomialNotationError",
]

_fmul = _finite.nim_mul
_fsq = _finite.nim_square


class _NeedAlpha(OrdinalRangeError):
    """Raised inside the engine when α_p is needed for p beyond the table."""

    def __init__(self, p: int, limit: int) -> None:
        self.p = p
        self.limit = limit
        super().__init__(f"needs alpha_p for p = {p}, beyond the shipped table (p <= {limit})")


# ---------------------------------------------------------------------------------------------
# Odd primes: index k = 0, 1, 2, ... ↦ 3, 5, 7, ...
# ---------------------------------------------------------------------------------------------

_ODD_PRIMES: list[int] = [3]


def _prime(k: int) -> int:
    while len(_ODD_PRIMES) <= k:
        _ODD_PRIMES.append(int(sympy.nextprime(_ODD_PRIMES[-1])))
    return _ODD_PRIMES[k]


def _prime_index(p: int) -> int:
    """0-based index of the odd prime ``p`` (3 ↦ 0)."""
    return int(sympy.primepi(p)) - 2


def odd_prime(k: int) -> int:
    """The k-th odd prime, counting from 1 (``odd_prime(1) = 3``), as in κ_p = ω^(ω^(k−1)).

    Parameters
    ----------
    k : int
        Index ≥ 1.

    Returns
    -------
    int

    Raises
    ------
    cgtalg.errors.NimberError
        If ``k < 1``.

    Examples
    --------
    >>> odd_prime(1), odd_prime(4)
    (3, 11)
    """
    if not isinstance(k, int) or isinstance(k, bool) or k < 1:
        raise NimberError(f"odd_prime: k must be an int >= 1, got {k!r}")
    return _prime(k - 1)


# ---------------------------------------------------------------------------------------------
# Monomial keys. A key is a tuple over prime indices k of digit tuples (d_{k,0}, d_{k,1}, ...)
# (lowest digit first, no trailing zeros), without trailing empty tuples; () is the monomial 1.
# The engine interns keys to integer ids; an element is a dict {id: nonzero finite coefficient},
# {} is 0, and elements are never mutated once built.
# ---------------------------------------------------------------------------------------------

Key = tuple
Elem = dict


def _strip(key: tuple) -> tuple:
    n = len(key)
    while n and not key[n - 1]:
        n -= 1
    return key[:n]


def _beta_to_key(beta: _CNF) -> Key | None:
    """Key of ω^β, or ``None`` if β ≥ ω^ω."""
    if isinstance(beta, int):
        es = {0: beta}
    else:
        es = {}
        for e, c in beta:
            if not isinstance(e, int):
                return None
            es[e] = c
    top = max(es)
    key = []
    for k in range(top + 1):
        e = es.get(k, 0)
        p = _prime(k)
        digits = []
        while e:
            e, d = divmod(e, p)
            digits.append(d)
        key.append(tuple(digits))
    return _strip(tuple(key))


def _key_to_beta(key: Key) -> _CNF:
    terms = []
    for k in range(len(key) - 1, -1, -1):
        p = _prime(k)
        e = 0
        for d in reversed(key[k]):
            e = e * p + d
        if e:
            terms.append((k, e))
    return _make(terms)


def _range_error(x: _CNF) -> OrdinalRangeError:
    return OrdinalRangeError(
        f"{_format(x, False)} is not below ω^(ω^ω), where nim-multiplication is no longer algebraic"
    )


# ---------------------------------------------------------------------------------------------
# The arithmetic engine (one per α table; the default one reads the shipped table).
# ---------------------------------------------------------------------------------------------

# A field signature: (two, J) with ``two`` the degree 2^a of the finite coefficient field
# GF(2^two) and ``J`` the tuple (J_0, J_1, ...) of digit counts, no trailing zeros.
Sig = tuple


def _sig_merge(s: Sig, t: Sig) -> Sig:
    two = max(s[0], t[0])
    a, b = s[1], t[1]
    n = max(len(a), len(b))
    J = tuple(max(a[i] if i < len(a) else 0, b[i] if i < len(b) else 0) for i in range(n))
    return (two, J)


def _build_byte_table() -> list[int]:
    """Nim-products of all pairs of bytes (from the finite module), indexed (a << 8) | b."""
    return [_fmul(a, b) for a in range(256) for b in range(256)]


_T8 = _build_byte_table()


def _cm(a: int, b: int) -> int:
    """Nim-product of finite coefficients (byte table for small ones)."""
    if a < 256 and b < 256:
        return _T8[(a << 8) | b]
    return _fmul(a, b)


class _Engine:
    """κ/α arithmetic with a given source of α_p (internal CNF per odd prime).

    Monomial keys are interned to integer ids (id 0 is the monomial 1); an element is a dict
    ``{id: nonzero finite coefficient}`` and is never mutated once built.
    """

    _CACHE_LIMIT = 1 << 21
    _SHIFT = 1 << 40
    _c: Any = None  # the compiled kernel (cgtalg.nimbers.compiled) when this engine uses it

    def __init__(self, alpha_source: Callable[[int], _CNF], limit: int) -> None:
        self.alpha_source = alpha_source
        self.limit = limit
        self._alpha: dict[int, Elem] = {}
        self._alpha_sig: dict[int, Sig] = {}
        self._mono: dict[int, tuple] = {}
        self._keys: list[Key] = [()]
        self._ids: dict[Key, int] = {(): 0}

    # -- keys and conversions ------------------------------------------------------------------
    def kid(self, key: Key) -> int:
        """The id of a monomial key, interned on first sight (by the C kernel when it is used)."""
        i = self._ids.get(key)
        if i is None:
            c = self._c
            if c is None:
                i = len(self._keys)
                self._keys.append(key)
                self._ids[key] = i
                return i
            self.sync_keys()
            i = self._ids.get(key)
            if i is None:
                K = len(key) - 1
                i = c.intern_key(self.kid(_strip(key[:K])), K, key[K])
                self.sync_keys()
        return i

    def sync_keys(self) -> None:
        """Mirror in ``_keys`` / ``_ids`` the monomial keys the C kernel interned (it computes
        missing monomial products itself and makes their keys as (K, low id, top digits))."""
        c = self._c
        if c is None:
            return
        keys = self._keys
        if c.key_count() == len(keys):
            return
        ids = self._ids
        for K, low, top in c.key_parts(len(keys)):
            lk = keys[low]
            key = lk + ((),) * (K - len(lk)) + (top,)
            ids[key] = len(keys)
            keys.append(key)

    def elem(self, x: _CNF) -> Elem | None:
        """Element of the ordinal ``x``, or ``None`` if x ≥ ω^(ω^ω)."""
        if isinstance(x, int):
            return {0: x} if x else {}
        out = {}
        for beta, c in x:
            key = _beta_to_key(beta)
            if key is None:
                return None
            out[self.kid(key)] = c
        return out

    def cnf(self, x: Elem) -> _CNF:
        """The ordinal of an element."""
        if not x:
            return 0
        if len(x) == 1 and 0 in x:
            return x[0]
        self.sync_keys()
        keys = self._keys
        terms = sorted(
            ((_key_to_beta(keys[i]), c) for i, c in x.items()), key=lambda t: _key(t[0]), reverse=True
        )
        return _make(terms)

    @staticmethod
    def is_finite(x: Elem) -> bool:
        return not x or (len(x) == 1 and 0 in x)

    # -- α ------------------------------------------------------------------------------------
    def alpha_elem(self, k: int) -> Elem:
        """α_{p_k} as an element using only prime indices < k."""
        got = self._alpha.get(k)
        if got is None:
            p = _prime(k)
            if p > self.limit:
                raise _NeedAlpha(p, self.limit)
            got = self.elem(self.alpha_source(p))
            self.sync_keys()
            if not got or any(len(self._keys[i]) > k for i in got):
                raise NimberError(f"alpha_p for p = {p} must be a nonzero ordinal below kappa_{p}")
            self._alpha[k] = got
        return got

    def alpha_sig(self, k: int) -> Sig:
        """Closed signature of the field generated by κ_{p_k} (which contains α_{p_k})."""
        got = self._alpha_sig.get(k)
        if got is None:
            got = self.closed_sig(self.raw_sig(self.alpha_elem(k)))
            J = list(got[1]) + [0] * (k + 1 - len(got[1]))
            J[k] = max(J[k], 1)
            got = (got[0], tuple(J))
            self._alpha_sig[k] = got
        return got

    # -- monomials ------------------------------------------------------------------------------
    def mono_mul(self, ia: int, ib: int) -> tuple:
        """Product of monomials ``ia``, ``ib`` (coefficient 1) as ((id, coeff), ...)."""
        if ia > ib:
            ia, ib = ib, ia
        h = ia * self._SHIFT + ib
        got = self._mono.get(h)
        if got is not None:
            return got
        if ia == 0:
            got = ((ib, 1),)
        else:
            self.sync_keys()
            got = self._mono_keys(self._keys[ia], self._keys[ib])
        if len(self._mono) > self._CACHE_LIMIT:
            self._mono.clear()
        self._mono[h] = got
        return got

    def _mono_keys(self, a: Key, b: Key) -> tuple:
        K = max(len(a), len(b)) - 1
        p = _prime(K)
        da = a[K] if K < len(a) else ()
        db = b[K] if K < len(b) else ()
        n = max(len(da), len(db))
        s = [(da[j] if j < len(da) else 0) + (db[j] if j < len(db) else 0) for j in range(n)]
        carry = 0
        for j in range(n - 1, -1, -1):  # κ_{p^(j+2)}^p = κ_{p^(j+1)}: carry downwards
            v = s[j] + carry
            if v >= p:
                s[j] = v - p
                carry = 1
            else:
                s[j] = v
                carry = 0
        while s and not s[-1]:
            s.pop()
        top = tuple(s)
        low = self.mono_mul(self.kid(_strip(a[:K])), self.kid(_strip(b[:K])))
        if carry:  # κ_p^p = α_p
            low = tuple(self.mul(dict(low), self.alpha_elem(K)).items())
        if not top:
            return low
        self.sync_keys()
        keys = self._keys
        return tuple(
            (self.kid(keys[i] + ((),) * (K - len(keys[i])) + (top,)), c) for i, c in low
        )

    # -- field operations ----------------------------------------------------------------------
    @staticmethod
    def add(x: Elem, y: Elem) -> Elem:
        if not x:
            return y
        if not y:
            return x
        out = dict(x)
        for k, c in y.items():
            v = out.get(k, 0) ^ c
            if v:
                out[k] = v
            else:
                del out[k]
        return out

    def mul(self, x: Elem, y: Elem) -> Elem:
        if not x or not y:
            return {}
        if len(x) > len(y):
            x, y = y, x
        cache = self._mono
        S = self._SHIFT
        T8 = _T8
        if len(x) == 1:
            # One monomial times y (the common case of small products): no accumulation dict.
            (ia, ca), = x.items()
            if len(y) == 1:
                (ib, cb), = y.items()
                r = cache.get(ia * S + ib if ia <= ib else ib * S + ia)
                if r is None:
                    r = self.mono_mul(ia, ib)
                c = cb if ca == 1 else ca if cb == 1 else (
                    T8[(ca << 8) | cb] if ca < 256 and cb < 256 else _fmul(ca, cb))
                if len(r) == 1:
                    (k, cc), = r
                    if cc == 1:
                        return {k: c}
                    return {k: T8[(c << 8) | cc] if c < 256 and cc < 256 else _fmul(c, cc)}
                out = {}
                for k, cc in r:
                    out[k] = c if cc == 1 else (T8[(c << 8) | cc] if c < 256 and cc < 256 else _fmul(c, cc))
                return out
            if ia == 0:
                return self.scale(y, ca)
        res: dict = {}
        get = res.get
        mono = self.mono_mul
        for ia, ca in x.items():
            for ib, cb in y.items():
                r = cache.get(ia * S + ib if ia <= ib else ib * S + ia)
                if r is None:
                    r = mono(ia, ib)
                if ca == 1:
                    c = cb
                elif cb == 1:
                    c = ca
                elif ca < 256 and cb < 256:
                    c = T8[(ca << 8) | cb]
                else:
                    c = _fmul(ca, cb)
                for k, cc in r:
                    if cc != 1:
                        v = T8[(c << 8) | cc] if c < 256 and cc < 256 else _fmul(c, cc)
                    else:
                        v = c
                    res[k] = get(k, 0) ^ v
        return {k: v for k, v in res.items() if v}

    def scale(self, x: Elem, c: int) -> Elem:
        """x ⊗ c for finite c."""
        if c == 0:
            return {}
        if c == 1:
            return x
        return {k: _cm(v, c) for k, v in x.items()}

    def square(self, x: Elem) -> Elem:
        """x ⊗ x, additive in characteristic 2: the sum of the squared monomials."""
        res: dict = {}
        get = res.get
        for k, c in x.items():
            c2 = _T8[(c << 8) | c] if c < 256 else _fsq(c)
            for k2, cc in self.mono_mul(k, k):
                res[k2] = get(k2, 0) ^ (c2 if cc == 1 else _cm(c2, cc))
        return {k: v for k, v in res.items() if v}

    def frobenius(self, x: Elem, m: int) -> Elem:
        """x^(2^m)."""
        c = self._c
        if c is not None and 0 < m < 1 << 62:
            got = c.elem_frobenius(x, m)
            if got is not None:
                return got
        for _ in range(m):
            x = self.square(x)
        return x

    # -- fields ---------------------------------------------------------------------------------
    def raw_sig(self, x: Elem) -> Sig:
        two = 1
        J: list[int] = []
        self.sync_keys()
        keys = self._keys
        for i, c in x.items():
            two = max(two, _finite.field_degree(c))
            key = keys[i]
            if len(key) > len(J):
                J.extend([0] * (len(key) - len(J)))
            for k, digits in enumerate(key):
                if len(digits) > J[k]:
                    J[k] = len(digits)
        return (two, tuple(J))

    def closed_sig(self, s: Sig) -> Sig:
        """The smallest κ-field signature containing ``s`` and the α's its κ's need."""
        out = s
        for k in range(len(s[1]) - 1, -1, -1):
            if s[1][k]:
                out = _sig_merge(out, self.alpha_sig(k))
        return out

    def sig(self, x: Elem) -> Sig:
        return self.closed_sig(self.raw_sig(x))

    @staticmethod
    def sig_degree(s: Sig) -> int:
        E = s[0]
        for k, J in enumerate(s[1]):
            if J:
                E *= _prime(k) ** J
        return E

    def degree_bound(self, x: Elem) -> int:
        """E with x ∈ GF(2^E) (the degree of x's κ-field)."""
        if self.is_finite(x):
            return _finite.field_degree(x.get(0, 0))
        return self.sig_degree(self.sig(x))

    def degree(self, x: Elem) -> int:
        """The exact degree of x over GF(2): least d with x^(2^d) = x."""
        E = self.degree_bound(x)
        d = E
        for r in sympy.primefactors(E):
            while d % r == 0 and self.frobenius(x, d // r) == x:
                d //= r
        return d

    def inv(self, x: Elem) -> Elem:
        """x^(−1) by the tower: extended Euclid in F'[X]/(X^p − c) (see :meth:`_inv_tower`)."""
        if not x:
            raise ZeroDivisionError
        if self.is_finite(x):
            return {0: _finite.nim_inv(x[0])}
        sig = self.sig(x)
        c = self._c
        if c is not None:
            E = self.sig_degree(sig)
            if E < 64:  # x^(2^E − 2) by the C kernel beats the tower in fields this small
                got = c.elem_pow(x, (1 << E) - 2)
                if got is not None:
                    return got
        return self._inv_tower(x, sig)

    def _inv_tower(self, x: Elem, sig: Sig) -> Elem:
        """Inverse of x in the κ-field F of signature ``sig``.

        F = F'(g) with g = κ_{p^(t+1)} the top generator (largest prime p, highest digit t),
        g^p = c ∈ F' (c = κ_{p^t}, or α_p when t = 0) and X^p − c irreducible over F'. Write
        x = Σ x_i g^i (x_i ∈ F') and run the extended Euclidean algorithm on X^p + c and
        x(X) over F' (inverses of leading coefficients recursively in smaller fields). This
        costs about one dense product in F, against O(log E) for x^(2^E − 2).
        """
        two, J = sig
        K = len(J) - 1
        t = J[K] - 1
        p = _prime(K)
        self.sync_keys()
        keys = self._keys
        parts: list[dict] = [dict() for _ in range(p)]
        for i, c in x.items():
            key = keys[i]
            dK = key[K] if K < len(key) else ()
            d = dK[t] if t < len(dK) else 0
            if d:
                low = _strip(key[:K] + (_strip_digits(dK[:t]),) + key[K + 1 :])
                parts[d][self.kid(low)] = c
            else:
                parts[0][i] = c
        xs: Poly = _ptrim(parts)
        if len(xs) == 1:  # x ∈ F'
            return self.inv(xs[0])
        if t:
            cgen = {self.kid(((),) * K + ((0,) * (t - 1) + (1,),)): 1}
        else:
            cgen = self.alpha_elem(K)
        one = {0: 1}
        r0: Poly = [cgen] + [{}] * (p - 1) + [one]  # X^p + c
        r1: Poly = xs
        s0: Poly = []
        s1: Poly = [one]
        while len(r1) > 1:
            lead_inv = self.inv(r1[-1])
            q, r = _poly_divmod(self, r0, r1, lead_inv)
            r0, r1 = r1, r
            s0, s1 = s1, _poly_add(self, s0, _poly_mul(self, q, s1))
        u = self.inv(r1[0])
        result: dict = {}
        for d, coeff in enumerate(s1):
            if not coeff:
                continue
            prod = self.mul(coeff, u)
            self.sync_keys()
            for i, c in prod.items():
                if d:
                    key = keys[i]
                    dK = key[K] if K < len(key) else ()
                    dK = dK + (0,) * (t - len(dK)) + (d,)
                    key = key + ((),) * (K + 1 - len(key))
                    i = self.kid(key[:K] + (dK,) + key[K + 1 :])
                result[i] = result.get(i, 0) ^ c
        return {k: v for k, v in result.items() if v}

    def pow(self, x: Elem, n: int) -> Elem:
        """x^n for n ≥ 0 (0^0 = 1)."""
        if n == 0:
            return {0: 1}
        if not x:
            return {}
        if self.is_finite(x):
            return {0: _finite.nim_pow(x[0], n)}
        if n.bit_length() > 16:  # reduce modulo |GF(2^E)*| only when it can pay
            E = self.degree_bound(x)
            order = (1 << E) - 1
            if n > order:
                n = n % order or order
        c = self._c
        if c is not None and n < 1 << 63:
            got = c.elem_pow(x, n)
            if got is not None:
                return got
        result: Elem = x  # the leading bit of n: start from x, not from 1
        for bit in bin(n)[3:]:
            result = self.square(result)
            if bit == "1":
                result = self.mul(result, x)
        return result

    def sqrt(self, x: Elem) -> Elem:
        """√x = x^(2^(E−1)) (inverse Frobenius)."""
        if self.is_finite(x):
            return {0: _finite.nim_sqrt(x[0])} if x else {}
        return self.frobenius(x, self.degree_bound(x) - 1)

    # -- bases of κ-fields ---------------------------------------------------------------------
    def basis(self, s: Sig) -> Iterable[Elem]:
        """The monomial basis of the κ-field with signature ``s`` (small elements first)."""
        two, J = s
        ranges = [list(itertools.product(range(_prime(k)), repeat=n)) for k, n in enumerate(J)]
        for combo in itertools.product(*reversed(ranges)):
            key = _strip(tuple(_strip_digits(d) for d in reversed(combo)))
            i = self.kid(key)
            for b in range(two):
                yield {i: 1 << b}


def _strip_digits(d: tuple) -> tuple:
    n = len(d)
    while n and not d[n - 1]:
        n -= 1
    return tuple(d[:n])


# A polynomial over the κ-fields is a list of elements, lowest degree first, with a nonzero last
# entry (the zero polynomial is []).
Poly = list


def _ptrim(f: Poly) -> Poly:
    while f and not f[-1]:
        f.pop()
    return f


def _poly_add(eng: _Engine, f: Poly, g: Poly) -> Poly:
    n = max(len(f), len(g))
    return _ptrim([eng.add(f[i] if i < len(f) else {}, g[i] if i < len(g) else {}) for i in range(n)])


def _poly_mul(eng: _Engine, f: Poly, g: Poly) -> Poly:
    if not f or not g:
        return []
    out: Poly = [{}] * (len(f) + len(g) - 1)
    for i, a in enumerate(f):
        if a:
            for j, b in enumerate(g):
                if b:
                    out[i + j] = eng.add(out[i + j], eng.mul(a, b))
    return _ptrim(out)


def _poly_divmod(eng: _Engine, f: Poly, g: Poly, lead_inv: Elem | None = None) -> tuple[Poly, Poly]:
    """Quotient and remainder of f by a nonzero g (``lead_inv`` = inverse of g's leading
    coefficient, or ``None`` for a monic g)."""
    one = {0: 1}
    if lead_inv is None and g[-1] != one:
        lead_inv = eng.inv(g[-1])
    if lead_inv == one:
        lead_inv = None
    r = list(f)
    dg = len(g) - 1
    q: Poly = [{}] * max(len(f) - dg, 0)
    for i in range(len(r) - 1, dg - 1, -1):
        c = r[i]
        if not c:
            continue
        if lead_inv is not None:
            c = eng.mul(c, lead_inv)
        q[i - dg] = c
        for j in range(dg):
            if g[j]:
                r[i - dg + j] = eng.add(r[i - dg + j], eng.mul(c, g[j]))
        r[i] = {}
    return _ptrim(q), _ptrim(r[:dg])


_DEFAULT: _Engine | None = None


def _engine() -> _Engine:
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = _Engine(_alpha_cnf, max_tabled_prime())
        _use_compiled(_DEFAULT)
    return _DEFAULT


def _use_compiled(eng: _Engine) -> None:
    """Route ``eng``'s products, squares, powers and Frobenius maps through the C kernel
    (:mod:`cgtalg.nimbers.compiled`), which asks ``eng.mono_mul`` for monomial products it has
    not seen and falls back on the Python methods for coefficients of 64 bits or more."""
    c = _compiled.load()
    if c is None:
        return
    c.setup_engine(mono_mul=eng.mono_mul, py_mul=eng.mul, py_square=eng.square, alpha=eng.alpha_elem)
    eng.mul = c.elem_mul  # type: ignore[method-assign]
    eng.square = c.elem_square  # type: ignore[method-assign]
    eng._c = c


_IN_CACHE: dict = {}
_OUT_CACHE: dict = {}
_BOUNDARY_CACHE_LIMIT = 1 << 16


def _elem(x: object, name: str) -> tuple[_CNF, Elem]:
    """(internal CNF, engine element) of a public value; sympy ordinals are memoised.

    The sympy → κ/α conversion (CNF walk, base-p digits, key interning) costs more than a
    small product, so it is done once per distinct sympy ordinal (a bounded cache keyed by
    the ordinal itself: sympy objects are immutable and hash structurally).
    """
    if type(x) is int and x >= 0:
        return x, ({0: x} if x else {})
    got = _IN_CACHE.get(x) if isinstance(x, sympy.Basic) else None
    if got is not None:
        return got
    cnf = _coerce(x, name)
    e = _engine().elem(cnf)
    if e is None:
        raise _range_error(cnf)
    if isinstance(x, sympy.Basic):
        if len(_IN_CACHE) >= _BOUNDARY_CACHE_LIMIT:
            _IN_CACHE.clear()
        _IN_CACHE[x] = (cnf, e)
    return cnf, e


def _out_elem(e: Elem) -> OrdinalLike:
    """The public value (int or sympy Ordinal) of an engine element, memoised for infinite
    ones (building a sympy Ordinal is the slow part of a small product)."""
    if not e:
        return 0
    if len(e) == 1 and 0 in e:
        return e[0]
    k = frozenset(e.items())
    got = _OUT_CACHE.get(k)
    if got is None:
        got = _out(_engine().cnf(e))
        if len(_OUT_CACHE) >= _BOUNDARY_CACHE_LIMIT:
            _OUT_CACHE.clear()
        _OUT_CACHE[k] = got
    return got


def _need_alpha(op: str, exc: _NeedAlpha) -> OrdinalRangeError:
    return OrdinalRangeError(
        f"{op} needs alpha_p for p = {exc.p}, beyond the shipped table (p <= {exc.limit})"
    )


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

    Examples
    --------
    >>> kappa(4), kappa(3), kappa(9), kappa(5)
    (4, w, w**3, w**(w))
    >>> kappa(47)
    w**(w**13)
    """
    if not isinstance(q, int) or isinstance(q, bool) or q < 2:
        raise NimberError(f"kappa: q must be a prime power > 1, got {q!r}")
    f = sympy.factorint(q)
    if len(f) != 1:
        raise NimberError(f"kappa: q must be a prime power > 1, got {q}")
    (p, n), = f.items()
    if p == 2:
        return 1 << (1 << (n - 1))
    k = _prime_index(p)
    return _out(_make(((_make(((k, p ** (n - 1)),)), 1),)))


def nim_mul(a: OrdinalLike, b: OrdinalLike) -> OrdinalLike:
    """Nim-product a ⊗ b of two ordinals below ω^(ω^ω).

    a ⊗ b = mex{a'⊗b ⊕ a⊗b' ⊕ a'⊗b' : a' < a, b' < b} (ONAG ch. 6), computed by Lenstra's
    κ/α representation: monomials multiply by adding base-p exponent digits, reduced with
    κ_{p^(j+1)}^p = κ_{p^j} and κ_p^p = α_p; finite coefficients by the finite rule.

    Parameters
    ----------
    a, b : int or Ordinal
        Ordinals below ω^(ω^ω).

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
    ca, ea = _elem(a, "a")
    cb, eb = _elem(b, "b")
    if isinstance(ca, int) and isinstance(cb, int):
        return _fmul(ca, cb)
    try:
        return _out_elem(_engine().mul(ea, eb))
    except _NeedAlpha as exc:
        raise _need_alpha(f"nim-product {_format(ca, False)} ⊗ {_format(cb, False)}", exc) from None


def nim_product(values: Iterable[OrdinalLike]) -> OrdinalLike:
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
    eng = _engine()
    acc: Elem = {0: 1}
    shown = []
    try:
        for i, v in enumerate(values):
            cnf, e = _elem(v, f"value {i}")
            shown.append(_format(cnf, False))
            acc = eng.mul(acc, e)
    except _NeedAlpha as exc:
        raise _need_alpha(f"nim-product {' ⊗ '.join(shown)}", exc) from None
    return _out_elem(acc)


def nim_inv(a: OrdinalLike) -> OrdinalLike:
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
    cnf, e = _elem(a, "a")
    if not e:
        raise NimZeroDivisionError("the nim-inverse of 0 is undefined")
    if isinstance(cnf, int):
        return _finite.nim_inv(cnf)
    try:
        return _out_elem(_engine().inv(e))
    except _NeedAlpha as exc:
        raise _need_alpha(f"nim-inverse of {_format(cnf, False)}", exc) from None


def nim_div(a: OrdinalLike, b: OrdinalLike) -> OrdinalLike:
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
    ca, ea = _elem(a, "a")
    cb, eb = _elem(b, "b")
    if not eb:
        raise NimZeroDivisionError(f"nim-division of {_format(ca, False)} by 0 is undefined")
    if isinstance(ca, int) and isinstance(cb, int):
        return _finite.nim_div(ca, cb)
    eng = _engine()
    try:
        return _out_elem(eng.mul(ea, eng.inv(eb)))
    except _NeedAlpha as exc:
        raise _need_alpha(f"nim-quotient {_format(ca, False)} / {_format(cb, False)}", exc) from None


#: Largest exponent of x the polynomial parser accepts (the coefficient list is dense).
MAX_POLY_DEGREE = 100_000
#: Default largest polynomial degree :func:`nim_roots` factors (and largest odd part m of n
#: for which :func:`nim_root` lists the m roots); the factorisation cost grows like a cube.
DEFAULT_MAX_DEGREE = 16


def _check_int(n: object, func: str, what: str = "exponent") -> int:
    if isinstance(n, bool) or not isinstance(n, (int, sympy.Integer)):
        raise NimberError(f"{func}: {what} must be an int, got {type(n).__name__} {n!r}")
    return int(n)


def nim_pow(a: OrdinalLike, n: int) -> OrdinalLike:
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
    cnf, e = _elem(a, "a")
    n = _check_int(n, "nim_pow")
    if isinstance(cnf, int):
        return _finite.nim_pow(cnf, n)
    eng = _engine()
    try:
        if n < 0:
            e = eng.inv(e)
            n = -n
        return _out_elem(eng.pow(e, n))
    except _NeedAlpha as exc:
        raise _need_alpha(f"nim-power {_format(cnf, False)}^{n}", exc) from None


def nim_sqrt(a: OrdinalLike) -> OrdinalLike:
    """Nim-square root: the unique r with r ⊗ r = a (Frobenius is bijective in char 2).

    For a in GF(2^E), √a = a^(2^(E−1)): E − 1 squarings, each additive over the monomials.

    Parameters
    ----------
    a : int or Ordinal
        An ordinal below ω^(ω^ω).

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
    >>> nim_sqrt(ordinal("w"))
    w**2*2
    >>> nim_sqrt(2)
    3
    """
    cnf, e = _elem(a, "a")
    if isinstance(cnf, int):
        return _finite.nim_sqrt(cnf)
    try:
        return _out_elem(_engine().sqrt(e))
    except _NeedAlpha as exc:
        raise _need_alpha(f"nim-square root of {_format(cnf, False)}", exc) from None


def nim_degree(a: OrdinalLike) -> int:
    """Degree over GF(2) of the field generated by a: the least d with a ∈ GF(2^d).

    Computed as the least divisor d of the κ-field degree E with a^(2^d) = a.

    Parameters
    ----------
    a : int or Ordinal
        An ordinal below ω^(ω^ω).

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
    cnf, e = _elem(a, "a")
    if isinstance(cnf, int):
        return _finite.field_degree(cnf)
    try:
        return _engine().degree(e)
    except _NeedAlpha as exc:
        raise _need_alpha(f"the field degree of {_format(cnf, False)}", exc) from None


def nim_root(a: OrdinalLike, n: int, max_degree: int = DEFAULT_MAX_DEGREE) -> list[OrdinalLike]:
    """All distinct n-th roots of a, in increasing order.

    With n = 2^s·m (m odd) the 2^s-th root is unique (Frobenius), and the m-th roots of
    b = a^(1/2^s) are the m distinct roots of X^m ⊕ b (for b ≠ 0), found by :func:`nim_roots`
    in the field where X^m ⊕ b splits (they lie below ω^(ω^ω), which is algebraically closed).

    Parameters
    ----------
    a : int or Ordinal
        An ordinal below ω^(ω^ω).
    n : int
        n ≥ 1.
    max_degree : int
        Refuse (:class:`~cgtalg.errors.ComputationLimitError`), before any work, when the odd
        part m of n (the number of roots) is above this, or n has more than 4096 factors 2.

    Returns
    -------
    list of int or Ordinal
        ``[0]`` for a = 0, else m roots.

    Raises
    ------
    cgtalg.errors.NimberError
        If ``n < 1``.
    cgtalg.errors.OrdinalRangeError, cgtalg.errors.FieldExtensionError
        As :func:`nim_roots`.

    Examples
    --------
    >>> nim_root(2, 3)                                  # the three cube roots of 2
    [w, w*2, w*3]
    """
    cnf, e = _elem(a, "a")
    n = _check_int(n, "nim_root", "n")
    if n < 1:
        raise NimberError(f"nim_root: n must be >= 1, got {n}")
    max_degree = _check_int(max_degree, "nim_root", "max_degree")
    if not e:
        return [0]
    s = (n & -n).bit_length() - 1
    m = n >> s
    if m > max_degree:
        raise ComputationLimitError(
            f"nim_root: the {n}-th roots are {m} roots of X^{m} + a (the odd part of n), "
            f"more than max_degree = {max_degree} (--max-degree on the command line); refused"
        )
    if s > 4096:
        raise ComputationLimitError(
            f"nim_root: n = 2^{s}·{m} needs {s} successive square roots, more than 4096; refused"
        )
    eng = _engine()
    try:
        for _ in range(s):
            e = eng.sqrt(e)
    except _NeedAlpha as exc:
        raise _need_alpha(f"the {n}-th roots of {_format(cnf, False)}", exc) from None
    if m == 1:
        return [_out(_engine().cnf(e))]
    return list(nim_roots({m: 1, 0: _out(_engine().cnf(e))}, max_degree=max_degree).roots)


# ---------------------------------------------------------------------------------------------
# Polynomials over the κ-fields (lists of elements, lowest degree first; see _poly_add).
# ---------------------------------------------------------------------------------------------


class _PolyRing:
    """Polynomial arithmetic over the nimber field (elements from an :class:`_Engine`)."""

    def __init__(self, eng: _Engine) -> None:
        self.e = eng

    def add(self, f: Poly, g: Poly) -> Poly:
        return _poly_add(self.e, f, g)

    def scale(self, f: Poly, c: Elem) -> Poly:
        return _ptrim([self.e.mul(a, c) for a in f])

    def monic(self, f: Poly) -> Poly:
        lead = f[-1]
        if lead == {0: 1}:
            return f
        return self.scale(f, self.e.inv(lead))

    def divmod(self, f: Poly, g: Poly) -> tuple[Poly, Poly]:
        """Quotient and remainder by a nonzero g."""
        return _poly_divmod(self.e, f, g)

    def mod(self, f: Poly, g: Poly) -> Poly:
        return self.divmod(f, g)[1]

    def gcd(self, f: Poly, g: Poly) -> Poly:
        while g:
            f, g = g, self.mod(f, g)
        return self.monic(f) if f else f

    def derivative(self, f: Poly) -> Poly:
        return _ptrim([f[i] if i % 2 else {} for i in range(1, len(f))])

    def sqrt(self, f: Poly) -> Poly:
        """g with g² = f, for f with only even-degree terms."""
        return _ptrim([self.e.sqrt(f[i]) if f[i] else {} for i in range(0, len(f), 2)])

    def square_mod(self, f: Poly, g: Poly) -> Poly:
        sq: Poly = [{}] * (2 * len(f) - 1) if f else []
        for i, c in enumerate(f):
            if c:
                sq[2 * i] = self.e.square(c)
        return self.mod(_ptrim(sq), g)

    def frobenius_mod(self, f: Poly, m: int, g: Poly) -> Poly:
        for _ in range(m):
            f = self.square_mod(f, g)
        return f

    def squarefree(self, f: Poly) -> list[tuple[Poly, int]]:
        """Square-free factorisation of a monic f: [(g, i)] with f = ∏ g^i (char 2)."""
        one = [{0: 1}]
        out: list[tuple[Poly, int]] = []
        fp = self.derivative(f)
        if not fp:
            return [(g, 2 * i) for g, i in self.squarefree(self.sqrt(f))]
        c = self.gcd(f, fp)
        w = self.divmod(f, c)[0]
        i = 1
        while w != one:
            y = self.gcd(w, c)
            fac = self.divmod(w, y)[0]
            if fac != one:
                out.append((self.monic(fac), i))
            i += 1
            w = y
            c = self.divmod(c, y)[0]
        if c != one:
            out.extend((g, 2 * j) for g, j in self.squarefree(self.sqrt(self.monic(c))))
        return out

    def distinct_degrees(self, f: Poly, E0: int) -> list[int]:
        """Degrees (with repetition) of the irreducible factors over GF(2^E0) of a monic,
        square-free f whose coefficients lie in GF(2^E0)."""
        X = [{}, {0: 1}]
        degrees: list[int] = []
        h = self.mod(X, f)
        i = 0
        while len(f) - 1 >= 2 * (i + 1):
            i += 1
            h = self.frobenius_mod(h, E0, f)
            d = self.gcd(f, self.add(h, X))
            if len(d) > 1:
                degrees.extend([i] * ((len(d) - 1) // i))
                f = self.divmod(f, d)[0]
                h = self.mod(h, f)
        if len(f) > 1:
            degrees.append(len(f) - 1)
        return degrees

    def frobenius_table(self, g: Poly, M: int) -> list[Poly]:
        """[X^(2^i) mod g for i < M]."""
        t = self.mod([{}, {0: 1}], g)
        table = [t]
        for _ in range(M - 1):
            t = self.square_mod(t, g)
            table.append(t)
        return table

    def trace_poly(self, delta: Elem, table: list[Poly]) -> Poly:
        """Tr(δX) = Σ_{i<M} δ^(2^i)·X^(2^i) mod g, from ``table`` = :meth:`frobenius_table`."""
        acc: Poly = []
        d = delta
        for i, P in enumerate(table):
            if i:
                d = self.e.square(d)
            acc = self.add(acc, self.scale(P, d))
        return acc

    def linear_roots(self, g: Poly, candidates: Iterable[Elem], M: int) -> list[Elem]:
        """Roots of a monic square-free g that splits into linear factors over GF(2^M).

        Split g by gcd with Tr(δX) (Berlekamp's trace algorithm): the roots r with
        Tr(δr) = 0 go to one factor. ``candidates`` is a basis of GF(2^M) (the trace form is
        non-degenerate, so some basis element separates any two roots), finite elements
        first: their Frobenius orbits stay single finite monomials, so Tr(δX) costs only
        additions and scalings once the table X^(2^i) mod g is built.
        """
        if len(g) == 2:
            return [g[0]]
        if len(g) < 2:
            return []
        table = self.frobenius_table(g, M)
        for delta in candidates:
            h = self.gcd(g, self.trace_poly(delta, table))
            if 1 < len(h) < len(g):
                rest = self.monic(self.divmod(g, h)[0])
                return self.linear_roots(h, candidates, M) + self.linear_roots(rest, candidates, M)
        raise AssertionError("polynomial does not split over the field")  # pragma: no cover


# ---------------------------------------------------------------------------------------------
# Polynomial text
# ---------------------------------------------------------------------------------------------


def parse_nim_polynomial(text: str) -> list[OrdinalLike]:
    """Parse a polynomial with ordinal coefficients, e.g. ``"x^2 + x + w"``.

    The polynomial is a nim-sum of monomials ``c x^n``, ``c*x^n``, ``x^n``, ``c x`` or ``c``
    separated by ``+``; a coefficient ``c`` is an ordinal expression without a top-level
    ``+`` (use parentheses: ``(w+1)x``), and the variable is ``x``. Like monomials are
    nim-added, so ``w + w`` is 0 here although it is ω·2 as an ordinal.

    Parameters
    ----------
    text : str

    Returns
    -------
    list of int or Ordinal
        Coefficients, highest degree first (as numpy.poly1d and galois.Poly), with a nonzero
        leading coefficient; ``[]`` for the zero polynomial.

    Raises
    ------
    PolynomialNotationError
        On malformed text (a subclass of :class:`cgtalg.errors.OrdinalNotationError`).

    Examples
    --------
    >>> parse_nim_polynomial("x^2+x+w")
    [1, 1, w]
    >>> parse_nim_polynomial("(w+1)x^3 + w*2 x + 3")
    [w + 1, 0, w*2, 3]
    """
    if not isinstance(text, str):
        raise NimberError(f"parse_nim_polynomial expects a str, got {type(text).__name__}")
    coeffs = _parse_poly(text)
    if not coeffs:
        return []
    n = max(coeffs)
    return [_out(coeffs.get(i, 0)) for i in range(n, -1, -1)]


def _parse_poly(text: str) -> dict[int, _CNF]:
    from cgtalg.nimbers.ordinal import _nim_add

    P = _Parser(text, error=PolynomialNotationError, stop="x")
    out: dict[int, _CNF] = {}

    def monomial() -> None:
        coeff: _CNF = 1
        degree = 0
        if P.peek() != "x":
            if P.peek() and P.peek() not in "0123456789wω(":
                P.fail("expected a coefficient, 'x' or '('")
            coeff = P.term()
            if P.at_times():
                P.pos += 1
                if P.peek() != "x":
                    P.fail("expected 'x'")
        if P.peek() == "x":
            P.pos += 1
            degree = 1
            n = P.at_power()
            if n:
                P.pos += n
                start = P.pos
                if not (P.peek().isdigit() and P.peek().isascii()):
                    P.fail("expected an integer exponent")
                start = P.pos
                while P.pos < len(text) and text[P.pos].isdigit() and text[P.pos].isascii():
                    P.pos += 1
                if P.pos - start > len(str(MAX_POLY_DEGREE)) or int(text[start : P.pos]) > MAX_POLY_DEGREE:
                    P.fail(f"exponent above MAX_POLY_DEGREE = {MAX_POLY_DEGREE}", start)
                degree = int(text[start : P.pos])
        out[degree] = _nim_add(out.get(degree, 0), coeff)

    monomial()
    while P.peek() == "+":
        P.pos += 1
        monomial()
    if P.peek():
        P.fail("expected '+', 'x' or end of input")
    return {d: c for d, c in out.items() if c != 0}


# ---------------------------------------------------------------------------------------------
# Roots of polynomials
# ---------------------------------------------------------------------------------------------


def _degree_limit(n: int, max_degree: int) -> ComputationLimitError:
    return ComputationLimitError(
        f"nim_roots: the polynomial has degree {n} > max_degree = {max_degree} "
        f"(--max-degree on the command line); refused before factoring"
    )


@dataclass(frozen=True)
class NimRoots:
    """The roots of a polynomial over the nimbers below ω^(ω^ω) and the fields involved.

    Attributes
    ----------
    coefficients : tuple
        The polynomial's coefficients, highest degree first.
    roots : tuple
        The distinct roots in increasing order (all of them: the field below ω^(ω^ω) is
        algebraically closed).
    multiplicities : tuple[int, ...]
        The multiplicity of each root.
    coefficient_field_degree : int
        E0: the coefficients generate GF(2^E0).
    factor_degrees : tuple[int, ...]
        Degrees of the irreducible factors over GF(2^E0), with repetition, increasing.
    splitting_field_degree : int
        N = E0·L, L the lcm of the factor degrees: the roots generate GF(2^N).
    computed_in_degree : int
        Degree of the κ-field (spanned by κ-monomials) in which the roots were computed.
    """

    coefficients: tuple
    roots: tuple
    multiplicities: tuple
    coefficient_field_degree: int
    factor_degrees: tuple
    splitting_field_degree: int
    computed_in_degree: int

    @property
    def extension_degree(self) -> int:
        """L = [GF(2^N) : GF(2^E0)]; 1 when the polynomial splits over its coefficients."""
        return self.splitting_field_degree // self.coefficient_field_degree

    @property
    def splits(self) -> bool:
        """Whether all roots lie in the field generated by the coefficients."""
        return self.extension_degree == 1

    def format(self, ascii: bool = False) -> str:
        """Human-readable summary (see :func:`nim_roots`)."""
        base = f"GF(2^{self.coefficient_field_degree})"
        shown = []
        for r, m in zip(self.roots, self.multiplicities):
            s = _format(_coerce(r), ascii)
            shown.append(s if m == 1 else f"{s} (multiplicity {m})")
        listed = ", ".join(shown)
        count = len(self.roots)
        noun = "root" if count == 1 else "roots"
        if self.splits:
            return f"{count} {noun} in {base}: {listed}"
        return (
            f"no complete splitting in {base} (irreducible factor degrees "
            f"{', '.join(map(str, self.factor_degrees))}); the roots lie in "
            f"GF(2^{self.splitting_field_degree}), an extension of degree "
            f"{self.extension_degree}: {listed}"
        )

    def __str__(self) -> str:
        return self.format()

    def to_json(self) -> dict:
        return {
            "coefficients": [_format(_coerce(c), False) for c in self.coefficients],
            "roots": [_format(_coerce(r), False) for r in self.roots],
            "multiplicities": list(self.multiplicities),
            "coefficient_field_degree": self.coefficient_field_degree,
            "factor_degrees": list(self.factor_degrees),
            "splitting_field_degree": self.splitting_field_degree,
            "extension_degree": self.extension_degree,
            "splits": self.splits,
        }

    def _repr_html_(self) -> str:
        """Notebook view: the readable report in a ``<pre>`` block."""
        from cgtalg.core.display import text_html

        return text_html(self)


def _field_sig_for_degree(eng: _Engine, N: int, what: str) -> Sig:
    """The smallest κ-field signature whose degree is a multiple of N."""
    f = sympy.factorint(N)
    two = 1 << f.pop(2, 0)
    J: list[int] = []
    for r, v in sorted(f.items()):
        if r > eng.limit:
            raise FieldExtensionError(
                f"{what} lie in GF(2^{N}), which needs kappa_{r} and so alpha_p for p = {r}, "
                f"beyond the shipped table (p <= {eng.limit})"
            )
        k = _prime_index(r)
        J.extend([0] * (k + 1 - len(J)))
        J[k] = v
    try:
        return eng.closed_sig((two, tuple(J)))
    except _NeedAlpha as exc:  # pragma: no cover - primes above are within the table
        raise FieldExtensionError(f"{what} need alpha_p for p = {exc.p}") from None


def _format_poly(cmap: Mapping[int, _CNF], ascii: bool = False) -> str:
    """``x^3 + (ω+1)x + ω^ω`` style text of {degree: coefficient}; re-parses."""
    parts = []
    for d, c in sorted(cmap.items(), reverse=True):
        x = "" if d == 0 else ("x" if d == 1 else f"x^{d}")
        cs = _format(c, ascii)
        if not x:
            parts.append(cs)
        elif c == 1:
            parts.append(x)
        elif isinstance(c, int):
            parts.append(f"{cs}{x}")
        else:
            parts.append(f"({cs}){x}")
    return " + ".join(parts)


def nim_roots(
    poly: str | Sequence[OrdinalLike] | Mapping[int, OrdinalLike],
    max_field_degree: int = 2048,
    max_degree: int = DEFAULT_MAX_DEGREE,
) -> NimRoots:
    """All roots of a polynomial whose coefficients are ordinals below ω^(ω^ω).

    Method (finite-field factorisation; e.g. von zur Gathen–Gerhard ch. 14): make the
    polynomial monic; find the field GF(2^E0) of its coefficients (:func:`nim_degree`);
    square-free factorisation (characteristic 2); distinct-degree factorisation over
    GF(2^E0), whose factor degrees give the splitting field GF(2^(E0·L)); then split into
    linear factors by gcds with trace polynomials Tr(δX) in the smallest κ-field containing
    GF(2^(E0·L)), with δ running over its monomial basis.

    Parameters
    ----------
    poly : str, sequence or mapping
        Text such as ``"x^2+x+w"`` (see :func:`parse_nim_polynomial`), a sequence of
        coefficients highest degree first, or a mapping ``{degree: coefficient}``.
    max_field_degree : int
        Refuse (with :class:`~cgtalg.errors.FieldExtensionError`) to compute in a κ-field of
        degree above this over GF(2); the cost grows roughly like its cube.
    max_degree : int
        Refuse (with :class:`~cgtalg.errors.ComputationLimitError`), before any work, a
        polynomial of degree above this (default ``DEFAULT_MAX_DEGREE``).

    Returns
    -------
    NimRoots

    Raises
    ------
    cgtalg.errors.NimberError
        For a constant polynomial (no roots, or every nimber a root).
    cgtalg.errors.FieldExtensionError
        If the roots need κ_p with p > 709, or a field above ``max_field_degree``; the
        message names the field GF(2^N) the roots lie in.
    cgtalg.errors.OrdinalRangeError
        If a coefficient is not below ω^(ω^ω).
    PolynomialNotationError
        For malformed text.

    Examples
    --------
    >>> print(nim_roots("x^3 + 2"))
    no complete splitting in GF(2^2) (irreducible factor degrees 3); the roots lie in GF(2^6), an extension of degree 3: ω, ω·2, ω·3
    >>> nim_roots("x^2 + x + 1").roots
    (2, 3)
    """
    max_field_degree = _check_int(max_field_degree, "nim_roots", "max_field_degree")
    max_degree = _check_int(max_degree, "nim_roots", "max_degree")
    if max_degree < 1 or max_field_degree < 1:
        raise NimberError("nim_roots: max_degree and max_field_degree must be >= 1")
    eng = _engine()
    R = _PolyRing(eng)
    if isinstance(poly, str):
        cmap = _parse_poly(poly)
    elif isinstance(poly, Mapping):
        cmap = {}
        for d, c in poly.items():
            d = _check_int(d, "nim_roots", "degree")
            if d < 0:
                raise NimberError(f"nim_roots: degrees must be >= 0, got {d}")
            if d > max_degree and c != 0:
                raise _degree_limit(d, max_degree)
            cmap[d] = _coerce(c, f"coefficient of x^{d}")
    else:
        seq = list(poly)
        cmap = {len(seq) - 1 - i: _coerce(c, f"coefficient {i}") for i, c in enumerate(seq)}
    cmap = {d: c for d, c in cmap.items() if c != 0}
    if not cmap:
        raise NimberError("nim_roots: the zero polynomial has every nimber as a root")
    n = max(cmap)
    if n > max_degree:
        raise _degree_limit(n, max_degree)
    if n == 0:
        raise NimberError(f"nim_roots: the nonzero constant {_format(cmap[0], False)} has no roots")
    coefficients = tuple(_out(cmap.get(i, 0)) for i in range(n, -1, -1))
    f: Poly = []
    for i in range(n + 1):
        c = cmap.get(i, 0)
        e = eng.elem(c)
        if e is None:
            raise _range_error(c)
        f.append(e)
    shown = _format_poly(cmap)
    try:
        E0 = 1
        for c in f:
            if c:
                E0 = math.lcm(E0, eng.degree(c))
        f = R.monic(f)
        parts = R.squarefree(f)
        degrees: list[int] = []
        for g, _ in parts:
            degrees.extend(R.distinct_degrees(g, E0))
        L = math.lcm(*degrees) if degrees else 1
        N = E0 * L
        sig = _field_sig_for_degree(eng, N, f"the roots of {shown}")
        M = eng.sig_degree(sig)
        if M > max_field_degree:
            raise FieldExtensionError(
                f"the roots of {shown} lie in GF(2^{N}); computing them needs the κ-field of "
                f"degree {M} > max_field_degree = {max_field_degree}"
            )
        candidates = list(eng.basis(sig))
        found: list[tuple[_CNF, int]] = []
        for g, mult in parts:
            for r in R.linear_roots(g, candidates, M):
                found.append((eng.cnf(r), mult))
    except _NeedAlpha as exc:
        raise _need_alpha(f"the roots of {shown}", exc) from None
    found.sort(key=lambda t: _key(t[0]))
    return NimRoots(
        coefficients=coefficients,
        roots=tuple(_out(r) for r, _ in found),
        multiplicities=tuple(m for _, m in found),
        coefficient_field_degree=E0,
        factor_degrees=tuple(sorted(degrees)),
        splitting_field_degree=N,
        computed_in_degree=M,
    )
