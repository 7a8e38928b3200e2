"""Polynomials over the nimbers below ω^(ω^ω): arithmetic over Lenstra's κ-fields, and text.

A polynomial is a list of engine elements (:mod:`cgtalg.nimbers.engine`), lowest degree
first; :class:`PolyRing` adds the finite-field algorithms the root finder needs (square-free
and distinct-degree factorisation, trace splitting; von zur Gathen–Gerhard ch. 14), and
:func:`parse_nim_polynomial` reads text such as ``"x^2 + x + w"``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Mapping

from cgtalg.errors import NimberError, PolynomialNotationError
from cgtalg.nimbers.limits import budget_check
from cgtalg.nimbers.ordinal import _CNF, OrdinalLike, _format, _out, _Parser

if TYPE_CHECKING:
    from cgtalg.nimbers.engine import Elem, Engine

__all__ = ["parse_nim_polynomial", "PolynomialNotationError", "MAX_POLY_DEGREE"]

#: Largest exponent of x the polynomial parser accepts (the coefficient list is dense).
MAX_POLY_DEGREE = 100_000


# A polynomial over the κ-fields is a list of elements, lowest degree first, with a nonzero last
# entry (the zero polynomial is []).
Poly = list


def _ptrim(f: Poly) -> Poly:
    while f and not f[-1]:
        f.pop()
    return f


def _poly_add(eng: Engine, f: Poly, g: Poly) -> Poly:
    n = max(len(f), len(g))
    return _ptrim([eng.add(f[i] if i < len(f) else {}, g[i] if i < len(g) else {}) for i in range(n)])


def _poly_mul(eng: Engine, f: Poly, g: Poly) -> Poly:
    if not f or not g:
        return []
    out: Poly = [{}] * (len(f) + len(g) - 1)
    for i, a in enumerate(f):
        if a:
            budget_check()
            for j, b in enumerate(g):
                if b:
                    out[i + j] = eng.add(out[i + j], eng.mul(a, b))
    return _ptrim(out)


def _poly_divmod(eng: Engine, f: Poly, g: Poly, lead_inv: Elem | None = None) -> tuple[Poly, Poly]:
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
        budget_check()
        for j in range(dg):
            if g[j]:
                r[i - dg + j] = eng.add(r[i - dg + j], eng.mul(c, g[j]))
        r[i] = {}
    return _ptrim(q), _ptrim(r[:dg])


# ---------------------------------------------------------------------------------------------
# Polynomials over the κ-fields (lists of elements, lowest degree first; see _poly_add).
# ---------------------------------------------------------------------------------------------


class PolyRing:
    """Polynomial arithmetic over the nimber field (elements from an :class:`Engine`)."""

    def __init__(self, eng: Engine) -> None:
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
            budget_check()
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
            budget_check()
            t = self.square_mod(t, g)
            table.append(t)
        return table

    def trace_poly(self, delta: Elem, table: list[Poly]) -> Poly:
        """Tr(δX) = Σ_{i<M} δ^(2^i)·X^(2^i) mod g, from ``table`` = :meth:`frobenius_table`."""
        acc: Poly = []
        d = delta
        for i, P in enumerate(table):
            budget_check()
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
            budget_check()
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
