"""Roots of polynomials over the nimbers below ω^(ω^ω) (which are algebraically closed).

:func:`nim_roots` finds all roots of a polynomial with ordinal coefficients by finite-field
factorisation in Lenstra's κ-fields; :func:`nim_root` the n-th roots of one nimber.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from cgtalg.budget import check_fits
from cgtalg.errors import ComputationLimitError, FieldExtensionError, NimberError
from cgtalg.nimbers.engine import (
    Engine,
    sig_merge,
    NeedAlpha,
    Sig,
    _check_int,
    _prime_index,
    _range_error,
    element_of,
    engine,
    need_alpha_error,
)
from cgtalg.nimbers.limits import check_field_degree, check_max_field_degree, nimber_budget, short_repr, shorten
from cgtalg.nimbers.ordinal import _CNF, OrdinalLike, _coerce, _format, _key, _out
from cgtalg.nimbers.polynomials import Poly, PolyRing, _format_poly, _parse_poly

__all__ = ["nim_root", "nim_roots", "NimRoots", "DEFAULT_MAX_DEGREE"]

#: Default largest polynomial degree :func:`nim_roots` factors (and largest odd part m of n
#: for which :func:`nim_root` lists the m roots); the factorisation cost grows like a cube.
DEFAULT_MAX_DEGREE = 16


def nim_root(a: OrdinalLike, n: int, max_degree: int = DEFAULT_MAX_DEGREE, *,
             max_field_degree: int | None = None, max_seconds: float | None = None) -> list[OrdinalLike]:
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
    max_field_degree : int or None
        Refuse, before any work, an ``a`` whose κ-field has degree above this over GF(2)
        (``None``: :data:`cgtalg.nimbers.limits.DEFAULT_MAX_FIELD_DEGREE`); the m-th roots
        are then found by :func:`nim_roots` with the same ceiling.
    max_seconds : float or None
        Time budget (``None``: none), shared by the square roots and the root finding.

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
    cgtalg.errors.ComputationLimitError
        Above ``max_degree`` or ``max_field_degree``, or when the time or memory budget runs out.

    Examples
    --------
    >>> nim_root(2, 3)                                  # the three cube roots of 2
    [w, w*2, w*3]
    """
    cnf, e = element_of(a, "a")
    n = _check_int(n, "nim_root", "n")
    if n < 1:
        raise NimberError(f"nim_root: n must be >= 1, got {shorten(n)}")
    max_degree = _check_int(max_degree, "nim_root", "max_degree")
    max_field_degree = check_max_field_degree(max_field_degree, "nim_root")
    if not e:
        return [0]
    s = (n & -n).bit_length() - 1
    m = n >> s
    if m > max_degree:
        raise ComputationLimitError(
            f"nim_root: the {shorten(n)}-th roots are {shorten(m)} roots of X^m + a (m the "
            f"odd part of n), more than max_degree = {shorten(max_degree)} (--max-degree on the command line); refused"
        )
    if s > 4096:
        raise ComputationLimitError(
            f"nim_root: n = 2^{s}·m needs {s} successive square roots, more than 4096; refused"
        )
    eng = engine()
    label = f"the {shorten(n)}-th roots of {shorten(_format(cnf, False))}"
    try:
        if not eng.is_finite(e):
            check_field_degree(eng.degree_bound(e), max_field_degree, label)
        with nimber_budget(max_seconds, label) as deadline:
            for _ in range(s):
                deadline.check(label)
                e = eng.sqrt(e)
            if m == 1:
                return [_out(engine().cnf(e))]
            return list(nim_roots({m: 1, 0: _out(engine().cnf(e))}, max_degree=max_degree,
                                  max_field_degree=max_field_degree).roots)  # (within this budget)
    except NeedAlpha as exc:
        raise need_alpha_error(label, exc) from None


# ---------------------------------------------------------------------------------------------
# Roots of polynomials
# ---------------------------------------------------------------------------------------------


def _degree_limit(n: int, max_degree: int) -> ComputationLimitError:
    return ComputationLimitError(
        f"nim_roots: the polynomial has degree {shorten(n)} > max_degree = {shorten(max_degree)} "
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


def _field_sig_for_degree(eng: Engine, N: int, what: str) -> Sig:
    """The smallest κ-field signature whose degree is a multiple of N."""
    import sympy

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
    except NeedAlpha as exc:  # pragma: no cover - primes above are within the table
        raise FieldExtensionError(f"{what} need alpha_p for p = {exc.p}") from None


def nim_roots(
    poly: str | Sequence[OrdinalLike] | Mapping[int, OrdinalLike],
    max_field_degree: int = 2048,
    max_degree: int = DEFAULT_MAX_DEGREE,
    *,
    max_seconds: float | None = None,
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
    max_seconds : float or None
        Time budget (``None``: none); the memory ceiling of :class:`cgtalg.budget.Deadline`
        applies as well.

    Returns
    -------
    NimRoots

    Raises
    ------
    cgtalg.errors.NimberError
        For a constant polynomial (no roots, or every nimber a root).
    cgtalg.errors.FieldExtensionError
        If the roots need κ_p with p > 709, or a field above ``max_field_degree`` (refused
        before any work when the coefficients' own κ-field is above it); the message names
        the field the roots lie in.
    cgtalg.errors.ComputationLimitError
        When the time or memory budget runs out.
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
    if max_field_degree is None:
        max_field_degree = 2048
    max_field_degree = _check_int(max_field_degree, "nim_roots", "max_field_degree")
    max_degree = _check_int(max_degree, "nim_roots", "max_degree")
    if max_degree < 1 or max_field_degree < 1:
        raise NimberError("nim_roots: max_degree and max_field_degree must be >= 1")
    eng = engine()
    R = PolyRing(eng)
    if isinstance(poly, str):
        cmap = _parse_poly(poly)
    elif isinstance(poly, Mapping):
        cmap = {}
        for d, c in poly.items():
            d = _check_int(d, "nim_roots", "degree")
            if d < 0:
                raise NimberError(f"nim_roots: degrees must be >= 0, got {shorten(d)}")
            if d > max_degree and c != 0:
                raise _degree_limit(d, max_degree)
            cmap[d] = _coerce(c, f"coefficient of x^{shorten(d)}")
    else:
        if isinstance(poly, (bytes, bytearray)) or not isinstance(poly, Iterable):
            raise NimberError(
                "nim_roots: the polynomial must be text, a sequence of coefficients or a mapping "
                f"{{degree: coefficient}}, got {type(poly).__name__} {short_repr(poly)}")
        seq = list(poly)
        if len(seq) - 1 > max_degree:
            raise _degree_limit(len(seq) - 1, max_degree)
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
    shown = shorten(_format_poly(cmap), 200)
    try:
        # The coefficients' own κ-field bounds every field below (the roots' field contains
        # it): refuse before computing exact degrees, which costs Frobenius maps in it.
        sig0: Sig = (1, ())
        for c in f:
            if c:
                sig0 = sig_merge(sig0, eng.sig(c))
        M0 = eng.sig_degree(sig0)
        if M0 > max_field_degree:
            raise FieldExtensionError(
                f"the coefficients of {shown} lie in the κ-field of degree {M0} > "
                f"max_field_degree = {shorten(max_field_degree)}, and so do the roots; refused before "
                "computing (pass a larger max_field_degree=, on the command line --max-field-degree)"
            )
        with nimber_budget(max_seconds, f"the roots of {shown}"):
            return _roots(eng, R, f, shown, coefficients, max_field_degree)
    except NeedAlpha as exc:
        raise need_alpha_error(f"the roots of {shown}", exc) from None


def _roots(eng: Engine, R: PolyRing, f: Poly, shown: str, coefficients: tuple,
           max_field_degree: int) -> NimRoots:
    """The work of :func:`nim_roots` (inside its budget) on the engine polynomial f."""
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
            f"degree {M} > max_field_degree = {shorten(max_field_degree)}"
        )
    # the monomial basis of GF(2^M): M / 2^a small dicts (about 250 bytes each)
    check_fits(M / sig[0] * 250, f"the basis of the κ-field GF(2^{M}) for the roots of {shown}")
    candidates = list(eng.basis(sig))
    found: list[tuple[_CNF, int]] = []
    for g, mult in parts:
        for r in R.linear_roots(g, candidates, M):
            found.append((eng.cnf(r), mult))
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
