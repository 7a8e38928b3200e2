"""Lenstra's κ/α engine: monomial keys, the field arithmetic of elements, and the κ-fields.

The arithmetic behind :mod:`cgtalg.nimbers.lenstra` and :class:`cgtalg.nimbers.Nimber`
(Lenstra 1977, "On the algebraic closure of two"; Conway, ONAG ch. 6): an ordinal below
ω^(ω^ω) is a nim-sum of monomials ``c ⊗ ∏ κ_q^(e_q)`` (see :mod:`cgtalg.nimbers.lenstra` for
the rules); here a monomial is interned to an integer id and an element is a dict
``{monomial id: nonzero finite coefficient}``. :class:`Engine` multiplies, squares, inverts
(tower method) and takes Frobenius powers of elements, and knows the κ-field of an element
(its signature, :func:`sig_merge`). The default engine reads the shipped α table and runs
its inner loops in the C kernel (:mod:`cgtalg.nimbers.compiled`) when it is built; the Python
methods stay the reference.

Public for the other layers: :func:`engine` (the default engine), :func:`element_of` (the
engine element of a value), :func:`sig_merge` (κ-field signatures), :func:`odd_prime`.
"""

from __future__ import annotations

import itertools
from typing import Any, Callable, Iterable

from cgtalg.caches import register_cache
from cgtalg.errors import NimberError, NimZeroDivisionError, OrdinalRangeError
from cgtalg.nimbers import compiled as _compiled
from cgtalg.nimbers.compiled import KernelKeys
from cgtalg.nimbers import finite as _finite
from cgtalg.nimbers.alpha_table import _alpha_cnf, max_tabled_prime
from cgtalg.nimbers.limits import budget_check, short_repr, shorten
from cgtalg.nimbers.ordinal import _CNF, OrdinalLike, _coerce, _format, _key, _make, _out, is_sympy, returns_internal
from cgtalg.nimbers.primes import next_prime, prime_pi
from cgtalg.nimbers.polynomials import Poly, _poly_add, _poly_divmod, _poly_mul, _ptrim

__all__ = [
    "Engine",
    "engine",
    "element_of",
    "ordinal_of_element",
    "sig_merge",
    "odd_prime",
]

_fmul = _finite.nim_mul
_fsq = _finite.nim_square


class NeedAlpha(OrdinalRangeError):
    """Raised inside the engine when α_p is needed for p beyond the table."""

    def __init__(self, p: int, limit: int) -> None:
        self.p = p
        self.limit = limit
        super().__init__(f"needs alpha_p for p = {p}, beyond the shipped table (p <= {limit})")


# ---------------------------------------------------------------------------------------------
# Odd primes: index k = 0, 1, 2, ... ↦ 3, 5, 7, ...
# ---------------------------------------------------------------------------------------------

_ODD_PRIMES: list[int] = [3]
#: Largest index k of an odd prime (p_k ≈ 1.3·10^5) the engine reaches: ω^(ω^k) for larger k
#: is refused (its monomial key alone would list k digit positions; α_p is tabled only up to
#: p = 709, so no product there is computable anyway).
MAX_PRIME_INDEX = 12_000


def _prime(k: int) -> int:
    if k > MAX_PRIME_INDEX:
        raise OrdinalRangeError(
            f"the κ/α engine reaches the odd primes up to the {MAX_PRIME_INDEX}-th (ω^(ω^k) for "
            f"k <= {MAX_PRIME_INDEX}); asked for the {shorten(k + 1)}-th")
    while len(_ODD_PRIMES) <= k:
        _ODD_PRIMES.append(next_prime(_ODD_PRIMES[-1]))
    return _ODD_PRIMES[k]


def _prime_index(p: int) -> int:
    """0-based index of the odd prime ``p`` (3 ↦ 0): ``primepi(p) - 2``."""
    return prime_pi(p, _ODD_PRIMES) - 2


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
        raise NimberError(f"odd_prime: k must be an int >= 1, got {short_repr(k)}")
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
    if top > MAX_PRIME_INDEX:
        _prime(top)  # refused with the engine's error
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


def sig_merge(s: Sig, t: Sig) -> Sig:
    """The signature of the smallest κ-field containing the κ-fields of signatures s and t.

    A signature is ``(2^a, (J_0, J_1, ...))``: GF(2^(2^a)) for the finite coefficients and
    J_k base-p_k digits for the k-th odd prime (see :meth:`Engine.sig`).

    Examples
    --------
    >>> sig_merge((2, (1,)), (4, (0, 2)))
    (4, (1, 2))
    """
    two = max(s[0], t[0])
    a, b = s[1], t[1]
    n = max(len(a), len(b))
    J = tuple(max(a[i] if i < len(a) else 0, b[i] if i < len(b) else 0) for i in range(n))
    return (two, J)


def _build_byte_table() -> list[int]:
    """Nim-products of all pairs of bytes (from the finite module), indexed (a << 8) | b."""
    return [_fmul(a, b) for a in range(256) for b in range(256)]


_T8 = _finite.byte_products()  # the same products, read from the finite module's table cache


def _cm(a: int, b: int) -> int:
    """Nim-product of finite coefficients (byte table for small ones)."""
    if a < 256 and b < 256:
        return _T8[(a << 8) | b]
    return _fmul(a, b)


class Engine:
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
                i = c.intern_key(self.kid(_strip(key[:K])), K, key[K])  # (an existing id if made)
                if isinstance(self._keys, KernelKeys):
                    self._keys.keys[i] = key
                    self._ids[key] = i
                else:
                    self.sync_keys()
        return i

    def sync_keys(self) -> None:
        """Mirror in ``_keys`` / ``_ids`` the monomial keys the C kernel interned (it computes
        missing monomial products itself and makes their keys as (K, low id, top digits)).
        With the kernel's lazy key table (:class:`KernelKeys`, the default) there is nothing
        to do: keys are read from the kernel when first asked for."""
        c = self._c
        if c is None or isinstance(self._keys, KernelKeys):
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
                raise NeedAlpha(p, self.limit)
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
            budget_check()
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
        budget_check()
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
        for _ in range(m):  # (square() checks the budget)
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
                out = sig_merge(out, self.alpha_sig(k))
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

    def degree(self, x: Elem, E: int | None = None) -> int:
        """The exact degree of x over GF(2): least d with x^(2^d) = x (``E``: a known
        :meth:`degree_bound`)."""
        if E is None:
            E = self.degree_bound(x)
        d = E
        import sympy

        for r in sympy.primefactors(E):
            while d % r == 0 and self.frobenius(x, d // r) == x:
                d //= r
        return d

    def inv(self, x: Elem) -> Elem:
        """x^(−1) by the tower: extended Euclid in F'[X]/(X^p − c) (see :meth:`_inv_tower`)."""
        if not x:
            raise NimZeroDivisionError("the nim-inverse of 0 is undefined")
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
            budget_check()
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
            if n.bit_length() >= E:  # (else n < 2^E − 1: no 2^E-bit order is built)
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

    def sqrt(self, x: Elem, E: int | None = None) -> Elem:
        """√x = x^(2^(E−1)) (inverse Frobenius; ``E``: a known :meth:`degree_bound`)."""
        if self.is_finite(x):
            return {0: _finite.nim_sqrt(x[0])} if x else {}
        return self.frobenius(x, (self.degree_bound(x) if E is None else E) - 1)

    # -- bases of κ-fields ---------------------------------------------------------------------
    def basis(self, s: Sig) -> Iterable[Elem]:
        """The monomial basis of the κ-field with signature ``s`` (small elements first)."""
        two, J = s
        ranges = [list(itertools.product(range(_prime(k)), repeat=n)) for k, n in enumerate(J)]
        for n, combo in enumerate(itertools.product(*reversed(ranges))):
            if not n & 1023:
                budget_check()
            key = _strip(tuple(_strip_digits(d) for d in reversed(combo)))
            i = self.kid(key)
            for b in range(two):
                yield {i: 1 << b}


def _strip_digits(d: tuple) -> tuple:
    n = len(d)
    while n and not d[n - 1]:
        n -= 1
    return tuple(d[:n])


_DEFAULT: Engine | None = None


def engine() -> Engine:
    """The default engine: the shipped α table, inner loops in the C kernel when it is built.

    Examples
    --------
    >>> e = engine()
    >>> e.cnf(e.mul(e.elem(((1, 1),)), e.elem(((1, 1),))))   # ω ⊗ ω = ω^2
    ((2, 1),)
    """
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Engine(_alpha_cnf, max_tabled_prime())
        _use_compiled(_DEFAULT)
    return _DEFAULT


def _use_compiled(eng: Engine) -> None:
    """Route ``eng``'s products, squares, powers and Frobenius maps through the C kernel
    (:mod:`cgtalg.nimbers.compiled`), which computes the monomial products it has not seen
    (interning their keys; ``eng.kid`` interns through it and mirrors the keys) and falls
    back on the Python methods for coefficients of 64 bits or more."""
    c = _compiled.load()
    if c is None:
        return
    c.setup_engine(mono_mul=eng.mono_mul, py_mul=eng.mul, py_square=eng.square, alpha=eng.alpha_elem)
    eng._keys = KernelKeys(c, eng._ids)  # type: ignore[assignment]
    eng.mul = c.elem_mul  # type: ignore[method-assign]
    eng.square = c.elem_square  # type: ignore[method-assign]
    eng._c = c


def _clear_monomial_products() -> None:
    eng = engine()
    eng._mono.clear()
    if eng._c is not None:
        eng._c.clear()


register_cache("nimbers.monomial products", _clear_monomial_products)
_IN_CACHE: dict = register_cache("nimbers.sympy to element", {})
_OUT_CACHE: dict = register_cache("nimbers.element to sympy", {})
_BOUNDARY_CACHE_LIMIT = 1 << 16


def element_of(x: object, name: str = "argument") -> tuple[_CNF, Elem]:
    """The (internal Cantor normal form, engine element) of a value.

    Parameters
    ----------
    x : int, sympy Ordinal, or Nimber
        A non-negative ordinal below ω^(ω^ω) (a :class:`~cgtalg.nimbers.Nimber` gives its
        stored element).
    name : str
        How to name ``x`` in an error message.

    Raises
    ------
    cgtalg.errors.NimberError
        If ``x`` is not a non-negative ordinal.
    cgtalg.errors.OrdinalRangeError
        If ``x`` is not below ω^(ω^ω).

    Notes
    -----
    The sympy → κ/α conversion (CNF walk, base-p digits, key interning) costs more than a
    small product, so it is done once per distinct sympy ordinal (a bounded cache keyed by
    the ordinal itself: sympy objects are immutable and hash structurally).

    Examples
    --------
    >>> element_of(5)
    (5, {0: 5})
    """
    v = getattr(x, "_v", None)
    basic = is_sympy(x)
    if v is not None and not basic:  # a Nimber: its stored value
        if type(v) is int:
            return v, ({0: v} if v else {})
        return engine().cnf(v), v
    if type(x) is int and x >= 0:
        return x, ({0: x} if x else {})
    got = _IN_CACHE.get(x) if basic else None
    if got is not None:
        return got
    cnf = _coerce(x, name)
    e = engine().elem(cnf)
    if e is None:
        raise _range_error(cnf)
    if basic:
        if len(_IN_CACHE) >= _BOUNDARY_CACHE_LIMIT:
            _IN_CACHE.clear()
        _IN_CACHE[x] = (cnf, e)
    return cnf, e


def ordinal_of_element(e: Elem) -> OrdinalLike:
    """The sympy value (int or sympy Ordinal) of an engine element, memoised for infinite ones
    (building a sympy Ordinal is the slow part of a small product).

    Examples
    --------
    >>> ordinal_of_element({0: 3}), ordinal_of_element({})
    (3, 0)
    """
    if not e:
        return 0
    if len(e) == 1 and 0 in e:
        return e[0]
    if returns_internal():  # no sympy value (and none cached): cgtalg.nimbers.ordinal.internal_values
        return _out(engine().cnf(e))
    k = frozenset(e.items())
    got = _OUT_CACHE.get(k)
    if got is None:
        got = _out(engine().cnf(e))
        if len(_OUT_CACHE) >= _BOUNDARY_CACHE_LIMIT:
            _OUT_CACHE.clear()
        _OUT_CACHE[k] = got
    return got


def need_alpha_error(op: str, exc: NeedAlpha) -> OrdinalRangeError:
    """The user-facing error for operation ``op`` that stopped at α_p beyond the table."""
    return OrdinalRangeError(
        f"{op} needs alpha_p for p = {exc.p}, beyond the shipped table (p <= {exc.limit})"
    )


def _check_int(n: object, func: str, what: str = "exponent") -> int:
    if isinstance(n, bool) or not (isinstance(n, int) or is_sympy(n, "Integer")):
        raise NimberError(f"{func}: {what} must be an int, got {type(n).__name__} {short_repr(n)}")
    return int(n)

