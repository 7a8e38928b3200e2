"""Ordinals below ε₀ in Cantor normal form: parsing, printing and the nim-sum.

Public values are sympy's Cantor-normal-form ordinals (:mod:`sympy.sets.ordinals`) for
infinite ordinals and plain Python ``int`` for finite ones; every function here accepts both
and returns an ``int`` whenever the result is finite, so a value is canonical by construction.

Internally ordinals are kept in a small representation of our own (see ``_CNF`` below),
because sympy's ``Ordinal`` has gaps that matter for nimber arithmetic:

* it has no exponentiation other than ``omega ** x`` and no nim operations;
* ``sympy.sets.ordinals.omega`` stores no ``args``, so ``hash(omega) == hash(ord0)`` while
  ``omega == Ordinal(OmegaPower(1, 1))`` has a different hash. Results returned here are
  always built as ``Ordinal(OmegaPower(...), ...)`` (so ``ω`` comes back as
  ``Ordinal(OmegaPower(1, 1))``); equality with ``omega`` holds, but do not mix the
  ``omega`` singleton and computed ordinals as keys of one ``dict`` or ``set``.

Every ordinal that sympy can represent (a finite tree of Cantor normal forms) is below ε₀,
so nim-addition is defined on all of them.

References
----------
J. H. Conway, *On Numbers and Games* (ONAG), 2nd ed., ch. 6 (nim-addition of ordinals is the
XOR of their base-2 Cantor normal forms; ω = 2^ω). H. W. Lenstra, "On the algebraic closure of
two", Proc. KNAW A 80 (1977). Seed 004 of this project (the nimber field).
"""

from __future__ import annotations

import sys
import threading
from contextlib import contextmanager
from typing import TYPE_CHECKING, Iterable, Iterator, Union

from cgtalg.errors import NimberError, OrdinalNotationError, OrdinalRangeError
from cgtalg.nimbers.limits import short_repr, shorten

__all__ = [
    "OrdinalLike",
    "ordinal",
    "as_ordinal",
    "format_ordinal",
    "nim_add",
    "nim_sum",
]

if TYPE_CHECKING:
    from sympy.sets.ordinals import Ordinal

#: What the public functions accept: a non-negative ``int`` or a sympy ``Ordinal``. (sympy is
#: imported when a sympy value is made or given, not with this module: a command that parses,
#: computes and prints ordinals as text never loads it, see :func:`internal_values`.)
OrdinalLike = Union[int, "Ordinal"]

# ---------------------------------------------------------------------------------------
# Internal Cantor normal form.
#
# ``_CNF`` is either a non-negative ``int`` (a finite ordinal) or a non-empty tuple of terms
# ``((e1, c1), (e2, c2), ...)`` meaning ω^e1·c1 + ω^e2·c2 + ... with e1 > e2 > ... (each
# exponent again a ``_CNF``), integer coefficients c ≥ 1 and e1 ≠ 0 (an infinite ordinal).
# Both forms are canonical, so Python equality and hashing are ordinal equality.
# ---------------------------------------------------------------------------------------
_CNF = Union[int, tuple]


def _terms(a: _CNF) -> tuple:
    """The CNF terms of ``a`` (a finite n > 0 is the single term ω^0·n)."""
    if isinstance(a, int):
        return ((0, a),) if a else ()
    return a


def _make(terms: Iterable) -> _CNF:
    """Canonical ``_CNF`` from terms already in decreasing exponent order."""
    terms = tuple(terms)
    if not terms:
        return 0
    if len(terms) == 1 and terms[0][0] == 0:
        return terms[0][1]
    return terms


def _key(a: _CNF) -> tuple:
    """A Python sort key with the order of the ordinals."""
    if isinstance(a, int):
        return (0, a)
    return (1, tuple((_key(e), c) for e, c in a))


def _cmp(a: _CNF, b: _CNF) -> int:
    """-1, 0 or 1 as a <, =, > b."""
    if a == b:
        return 0
    return -1 if _key(a) < _key(b) else 1


def _is_finite(a: _CNF) -> bool:
    return isinstance(a, int)


def _omega_power(e: _CNF, c: int = 1) -> _CNF:
    """ω^e·c."""
    return _make(((e, c),)) if c else 0


def _add(a: _CNF, b: _CNF) -> _CNF:
    """Ordinal sum a + b (not commutative: 1 + ω = ω)."""
    if isinstance(a, int) and isinstance(b, int):
        return a + b
    tb = _terms(b)
    if not tb:
        return a
    lead_e, lead_c = tb[0]
    out = []
    for e, c in _terms(a):
        s = _cmp(e, lead_e)
        if s > 0:
            out.append((e, c))
        else:
            if s == 0:
                lead_c += c
            break
    out.append((lead_e, lead_c))
    out.extend(tb[1:])
    return _make(out)


def _mul(a: _CNF, b: _CNF) -> _CNF:
    """Ordinal product a·b (not commutative: 2·ω = ω)."""
    if isinstance(a, int) and isinstance(b, int):
        return a * b
    if a == 0 or b == 0:
        return 0
    ta = _terms(a)
    e1, c1 = ta[0]
    result: _CNF = 0
    for f, d in _terms(b):
        if f == 0:
            piece = _make(((e1, c1 * d),) + tuple(ta[1:]))
        else:
            piece = _omega_power(_add(e1, f), d)
        result = _add(result, piece)
    return result


def _pow_int(a: _CNF, n: int) -> _CNF:
    """a^n for finite n, by square-and-multiply (ordinal multiplication is associative)."""
    result: _CNF = 1
    base = a
    while n:
        if n & 1:
            result = _mul(result, base)
        n >>= 1
        if n:
            base = _mul(base, base)
    return result


def _pow(a: _CNF, b: _CNF) -> _CNF:
    """Ordinal power a^b (so 2^ω = ω and ω^ω is the usual ω^ω)."""
    if b == 0:
        return 1
    if a == 0 or a == 1:
        return a
    if isinstance(a, int) and isinstance(b, int):
        return a**b
    result: _CNF = 1
    for f, d in _terms(b):  # a^(ω^f1·d1 + ω^f2·d2 + ...) = a^(ω^f1·d1) · a^(ω^f2·d2) ...
        if f == 0:
            piece = _pow_int(a, d)
        else:
            if isinstance(a, int):  # 2 ≤ a < ω: a^(ω^f) = ω^(ω^(f-1)) (f finite), ω^(ω^f) else
                inner = f - 1 if isinstance(f, int) else f
                base = _omega_power(_omega_power(inner))
            else:  # a^(ω^f) = ω^(e1·ω^f) for infinite a with leading exponent e1
                base = _omega_power(_mul(_terms(a)[0][0], _omega_power(f)))
            piece = _pow_int(base, d)
        result = _mul(result, piece)
    return result


def _nim_add(a: _CNF, b: _CNF) -> _CNF:
    """Nim-sum: XOR of the coefficients of equal powers ω^β (ONAG ch. 6)."""
    if isinstance(a, int) and isinstance(b, int):
        return a ^ b
    acc: dict = {}
    for e, c in _terms(a) + _terms(b):
        acc[e] = acc.get(e, 0) ^ c
    items = sorted(((e, c) for e, c in acc.items() if c), key=lambda t: _key(t[0]), reverse=True)
    return _make(items)


# ---------------------------------------------------------------------------------------
# Conversions at the API boundary.
# ---------------------------------------------------------------------------------------


def _from_sympy(x: "Ordinal") -> _CNF:
    # sympy keeps the exponents non-increasing, so equal exponents are adjacent: merge them.
    terms: list = []
    for t in x.terms:  # ``.terms`` (not ``.args``): sympy's ``omega`` keeps no args
        e = _from_sympy(t.exp)
        c = int(t.mult)
        if terms and terms[-1][0] == e:
            terms[-1] = (e, terms[-1][1] + c)
        else:
            terms.append((e, c))
    return _make(terms)


def _to_sympy_exp(a: _CNF) -> Union[int, "Ordinal"]:
    if isinstance(a, int):
        return a
    from sympy.sets.ordinals import OmegaPower, Ordinal

    return Ordinal(*(OmegaPower(_to_sympy_exp(e), c) for e, c in a))


class Internal:
    """An infinite ordinal held in the internal Cantor normal form (``cnf``), as the functions
    of this package return it inside :func:`internal_values`; they all accept it. Printed by
    :func:`format_ordinal`."""

    __slots__ = ("cnf",)

    def __init__(self, cnf: _CNF) -> None:
        self.cnf = cnf

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Internal) and other.cnf == self.cnf

    def __hash__(self) -> int:
        return hash(self.cnf)

    def __repr__(self) -> str:
        return f"Internal({_format(self.cnf, True)})"


_STATE = threading.local()


@contextmanager
def internal_values() -> Iterator[None]:
    """Within the block, the functions of :mod:`cgtalg.nimbers` return an infinite ordinal as
    an :class:`Internal` value instead of a sympy ``Ordinal`` (finite ones stay ``int``), so
    that a caller that parses text (``Internal(_parse(text))``), computes and prints never
    imports sympy (about 0.3 s): the ``cgtalg nim`` commands.

    Examples
    --------
    >>> from cgtalg.nimbers.lenstra import nim_mul
    >>> with internal_values():
    ...     format_ordinal(nim_mul(Internal(_parse("w")), Internal(_parse("w"))))
    'ω^2'
    """
    outer = getattr(_STATE, "internal", False)
    _STATE.internal = True
    try:
        yield
    finally:
        _STATE.internal = outer


def returns_internal() -> bool:
    """True inside :func:`internal_values`."""
    return getattr(_STATE, "internal", False)


def _out(a: _CNF) -> OrdinalLike:
    """The public value of ``a``: an ``int`` if finite, else a sympy ``Ordinal`` (an
    :class:`Internal` inside :func:`internal_values`)."""
    if not isinstance(a, int) and getattr(_STATE, "internal", False):
        return Internal(a)
    return _to_sympy_exp(a)


def is_sympy(x: object, kind: str = "Basic") -> bool:
    """Is ``x`` a sympy object (``kind``: ``"Basic"``, ``"Integer"`` or ``"Ordinal"``)? Never
    imports sympy: without it loaded, no sympy object exists."""
    if kind == "Ordinal":
        module = sys.modules.get("sympy.sets.ordinals")
        return module is not None and isinstance(x, module.Ordinal)
    module = sys.modules.get("sympy")
    return module is not None and isinstance(x, getattr(module, kind))


def _coerce(x: object, name: str = "argument") -> _CNF:
    """Internal ``_CNF`` of a public value; raises :class:`NimberError` on anything else."""
    if isinstance(x, bool):
        raise NimberError(f"{name} must be a non-negative int or a sympy Ordinal, got bool {short_repr(x)}")
    if isinstance(x, int) or is_sympy(x, "Integer"):
        n = int(x)
        if n < 0:
            raise NimberError(f"{name} must be a non-negative ordinal, got {shorten(n)}")
        return n
    if isinstance(x, Internal):
        return x.cnf
    if is_sympy(x, "Ordinal"):
        return _from_sympy(x)
    raise NimberError(
        f"{name} must be a non-negative int or a sympy Ordinal, got {type(x).__name__} {short_repr(x)}"
    )


# ---------------------------------------------------------------------------------------
# Parser.
# ---------------------------------------------------------------------------------------

_OMEGA_CHARS = ("w", "ω")
_TIMES_CHARS = ("*", "·")

#: Longest ordinal text accepted (characters); longer input is refused before parsing.
MAX_TEXT_LENGTH = 20_000
#: Deepest nesting of parentheses and ``^`` chains accepted (the parser is recursive).
MAX_NESTING_DEPTH = 64
#: Largest finite number (in bits) an ordinal expression may produce or contain anywhere in
#: its Cantor normal form (coefficients, finite exponents): 2^1024 bounds the finite nimber
#: field GF(2^(2^10)), where every nim-operation (even a nim-power with a huge exponent)
#: takes well under a second. ``9^9^9`` (about 1.2·10^9 bits) is refused before it is computed.
MAX_FINITE_BITS = 1024
#: Largest number of Cantor-normal-form terms (counted at every exponent level) of a value.
MAX_TERMS = 10_000


def _size(a: _CNF) -> tuple[int, int]:
    """(total number of CNF terms at every level, largest finite part in bits), iteratively."""
    terms = 0
    bits = 0
    stack = [a]
    while stack:
        x = stack.pop()
        if isinstance(x, int):
            bits = max(bits, x.bit_length())
            continue
        terms += len(x)
        for e, c in x:
            bits = max(bits, c.bit_length())
            stack.append(e)
        if terms > MAX_TERMS:
            break
    return terms, bits


class _Parser:
    """Recursive-descent parser for ordinal expressions.

    Grammar (``+``, ``*``/``·`` and ``^`` are ordinal sum, product and power; ``^`` is
    right-associative and binds tightest; ``**`` is accepted for ``^``)::

        expr   := term ('+' term)*
        term   := factor (('*' | '·') factor)*
        factor := atom ('^' factor)?
        atom   := INTEGER | 'w' | 'ω' | '(' expr ')'

    ``stop`` holds characters that end an expression without being an error (the
    polynomial parser in :mod:`cgtalg.nimbers.lenstra` uses it for its variable ``x``).
    """

    def __init__(self, text: str, error: type = OrdinalNotationError, stop: str = "") -> None:
        self.text = text
        self.pos = 0
        self.error = error
        self.stop = stop
        self.depth = 0
        if len(text) > MAX_TEXT_LENGTH:
            raise error(
                text[:40] + "...", None,
                f"the text has {len(text)} characters; at most MAX_TEXT_LENGTH = "
                f"{MAX_TEXT_LENGTH} are accepted",
            )

    def enter(self) -> None:
        self.depth += 1
        if self.depth > MAX_NESTING_DEPTH:
            self.fail(
                f"nesting of parentheses and '^' deeper than MAX_NESTING_DEPTH = {MAX_NESTING_DEPTH}"
            )

    def check(self, value: _CNF, pos: int) -> _CNF:
        """Refuse a value past :data:`MAX_TERMS` or :data:`MAX_FINITE_BITS`."""
        terms, bits = _size(value)
        if terms > MAX_TERMS:
            raise OrdinalRangeError(
                f"ordinal expression {self._shown()}: the value at position {pos} has more than "
                f"MAX_TERMS = {MAX_TERMS} Cantor-normal-form terms"
            )
        if bits > MAX_FINITE_BITS:
            raise OrdinalRangeError(
                f"ordinal expression {self._shown()}: the value at position {pos} has a finite "
                f"part of {bits} bits, above MAX_FINITE_BITS = {MAX_FINITE_BITS}"
            )
        return value

    def _shown(self) -> str:
        return repr(self.text if len(self.text) <= 60 else self.text[:57] + "...")

    def refuse(self, pos: int, what: str) -> None:
        raise OrdinalRangeError(
            f"ordinal expression {self._shown()}: {what} at position {pos} would exceed "
            f"MAX_FINITE_BITS = {MAX_FINITE_BITS} bits or MAX_TERMS = {MAX_TERMS} terms; "
            f"refused before computing"
        )

    def power(self, base: _CNF, exp: _CNF, pos: int) -> _CNF:
        """base^exp, refused up front when the result would be over the size limits."""
        if exp == 0 or base in (0, 1):
            return 1 if exp == 0 else base
        if isinstance(base, int) and isinstance(exp, int):
            # bits of base^exp >= exp·(bit_length(base) − 1) + 1
            if exp > MAX_FINITE_BITS or exp * (base.bit_length() - 1) + 1 > MAX_FINITE_BITS:
                self.refuse(pos, "the power")
            return self.check(base**exp, pos)
        for f, d in _terms(exp):
            if f != 0:
                continue  # base^(ω^f·d) is a single term ω^(...) with small parts
            if isinstance(base, int):
                if d > MAX_FINITE_BITS or d * (base.bit_length() - 1) + 1 > MAX_FINITE_BITS:
                    self.refuse(pos, "the power")
            else:
                # (ω^e·c + ...)^d has d·(terms − 1) + 1 terms and leading exponent e·d
                if len(base) > 1 and d * len(base) > MAX_TERMS:
                    self.refuse(pos, "the power")
                if d.bit_length() + _size(base)[1] > MAX_FINITE_BITS:
                    self.refuse(pos, "the power")
        return self.check(_pow(base, exp), pos)

    def product(self, a: _CNF, b: _CNF, pos: int) -> _CNF:
        sa, sb = _size(a), _size(b)
        if sa[1] + sb[1] > MAX_FINITE_BITS + 1 or sa[0] + sb[0] > MAX_TERMS:
            self.refuse(pos, "the product")
        return self.check(_mul(a, b), pos)

    def total(self, a: _CNF, b: _CNF, pos: int) -> _CNF:
        sa, sb = _size(a), _size(b)
        if max(sa[1], sb[1]) + 1 > MAX_FINITE_BITS or sa[0] + sb[0] > MAX_TERMS:
            self.refuse(pos, "the sum")
        return self.check(_add(a, b), pos)

    def fail(self, reason: str, pos: int | None = None) -> None:
        pos = self.pos if pos is None else pos
        text = self.text
        if len(text) <= 120:
            raise self.error(text, pos, reason)
        # the message quotes a window around the position, not the whole input; the error's
        # ``text`` and ``position`` stay those of the whole input
        start = max(0, min(pos, len(text)) - 50)
        end = min(len(text), start + 100)
        head = "[...]" if start else ""
        err = self.error(head + text[start:end] + ("[...]" if end < len(text) else ""),
                         pos - start + len(head), reason)
        err.text, err.position = text, pos
        raise err

    def skip(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self) -> str:
        self.skip()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def at_power(self) -> int:
        """Length of a power operator at the cursor (``^`` or ``**``), else 0."""
        if self.peek() == "^":
            return 1
        if self.text.startswith("**", self.pos):
            return 2
        return 0

    def at_times(self) -> bool:
        ch = self.peek()
        return ch in _TIMES_CHARS and not self.text.startswith("**", self.pos)

    def expr(self) -> _CNF:
        value = self.term()
        while self.peek() == "+":
            pos = self.pos
            self.pos += 1
            value = self.total(value, self.term(), pos)
        return value

    def term(self) -> _CNF:
        value = self.factor()
        while self.at_times():
            save = self.pos
            self.pos += 1
            if self.stop and self.peek() in self.stop:  # e.g. "w*x" in a polynomial
                self.pos = save
                break
            value = self.product(value, self.factor(), save)
        return value

    def factor(self) -> _CNF:
        base = self.atom()
        n = self.at_power()
        if n:
            pos = self.pos
            self.pos += n
            self.enter()
            exp = self.factor()
            self.depth -= 1
            return self.power(base, exp, pos)
        return base

    def atom(self) -> _CNF:
        ch = self.peek()
        if ch.isdigit() and ch.isascii():
            start = self.pos
            while self.pos < len(self.text) and self.text[self.pos].isdigit() and self.text[self.pos].isascii():
                self.pos += 1
            if self.pos - start > _MAX_LITERAL_DIGITS:
                self.fail(
                    f"integer literal of {self.pos - start} digits is above MAX_FINITE_BITS = "
                    f"{MAX_FINITE_BITS} bits",
                    start,
                )
            return self.check(int(self.text[start : self.pos]), start)
        if ch in _OMEGA_CHARS:
            self.pos += 1
            return ((1, 1),)
        if ch == "(":
            open_pos = self.pos
            self.enter()
            self.pos += 1
            value = self.expr()
            self.depth -= 1
            if self.peek() != ")":
                self.fail(f"expected ')' to close the '(' at position {open_pos}")
            self.pos += 1
            return value
        if ch and not ch.isascii() and (ch.isdigit() or ch.isnumeric()):
            self.fail(f"non-ASCII digit {ch!r} (U+{ord(ch):04X}); write digits 0-9 and powers with '^'")
        self.fail("expected an integer, 'w' or '('")
        raise AssertionError("unreachable")  # pragma: no cover

    def parse_all(self) -> _CNF:
        value = self.expr()
        ch = self.peek()
        if ch and not ch.isascii() and ch.isnumeric():
            self.fail(f"non-ASCII digit {ch!r} (U+{ord(ch):04X}); write powers as '^2', digits as 0-9")
        if ch:
            self.fail("expected '+', '*', '^' or end of input")
        return value


# Literal digits above which the value surely exceeds MAX_FINITE_BITS (10^(d-1) ≥ 2^MAX_FINITE_BITS).
_MAX_LITERAL_DIGITS = int(MAX_FINITE_BITS * 0.30103) + 2


def _parse(text: str) -> _CNF:
    return _Parser(text).parse_all()


def ordinal(text: str) -> OrdinalLike:
    """Parse ordinal notation such as ``"w^(w^2*4)+3"`` or ``"ω^2·3+1"``.

    ``w`` or ``ω`` is omega; ``+``, ``*`` (or ``·``) and ``^`` (or ``**``) are ordinal sum,
    product and power, with the usual precedence (``^`` tightest, right-associative) and
    parentheses. Spaces are ignored. Because the operations are the ordinal ones,
    ``2*w`` is ω and ``1+w`` is ω; write coefficients on the right (``w*2``).

    Parameters
    ----------
    text : str
        The ordinal expression.

    Returns
    -------
    int or sympy.sets.ordinals.Ordinal
        An ``int`` if the value is finite, else a sympy ``Ordinal`` in Cantor normal form.

    Raises
    ------
    cgtalg.errors.OrdinalNotationError
        On malformed text; ``position`` is the index of the offending character.

    Examples
    --------
    >>> ordinal("w^(w^2*4)+3")
    w**(w**2*4) + 3
    >>> ordinal("(w+1)*2")
    w*2 + 1
    >>> ordinal("2^w") == ordinal("w")
    True
    >>> ordinal("12")
    12
    """
    if not isinstance(text, str):
        raise NimberError(f"ordinal() expects a str, got {type(text).__name__}")
    return _out(_parse(text))


def as_ordinal(x: OrdinalLike | str) -> OrdinalLike:
    """Canonical public form of ``x``: an int if finite, else a sympy ``Ordinal``.

    Parameters
    ----------
    x : int, sympy Ordinal or str
        A value to normalise; a ``str`` is parsed with :func:`ordinal`.

    Returns
    -------
    int or Ordinal

    Raises
    ------
    cgtalg.errors.NimberError
        If ``x`` is negative or not an ordinal.
    cgtalg.errors.OrdinalNotationError
        If ``x`` is malformed text.

    Examples
    --------
    >>> from sympy.sets.ordinals import Ordinal, OmegaPower
    >>> as_ordinal(Ordinal(OmegaPower(0, 5)))
    5
    >>> as_ordinal("w*2")
    w*2
    """
    if isinstance(x, str):
        return ordinal(x)
    return _out(_coerce(x))


def _int_text(n: int) -> str:
    """Decimal text of an int of any size (``str`` refuses ints of over 4,300 digits)."""
    if n.bit_length() < 12_000:
        return str(n)
    k = int(n.bit_length() * 0.30103) // 2
    hi, lo = divmod(n, 10**k)
    return _int_text(hi) + _int_text(lo).rjust(k, "0")


def _format(a: _CNF, ascii: bool) -> str:
    if isinstance(a, int):
        return _int_text(a)
    w, times = ("w", "*") if ascii else ("ω", "·")
    parts = []
    for e, c in a:
        if e == 0:
            parts.append(_int_text(c))
            continue
        if e == 1:
            s = w
        elif isinstance(e, int) or e == ((1, 1),):
            s = f"{w}^{_format(e, ascii)}"
        else:
            s = f"{w}^({_format(e, ascii)})"
        if c != 1:
            s += f"{times}{_int_text(c)}"
        parts.append(s)
    return "+".join(parts)


def format_ordinal(x: OrdinalLike, ascii: bool = False) -> str:
    """Print an ordinal in the nimber literature's convention.

    Terms are ``ω^β·c`` joined by ``+``; the exponent is parenthesised unless it is finite or
    ``ω`` itself; a coefficient 1 and an exponent 1 are omitted.

    Parameters
    ----------
    x : int or Ordinal
        The ordinal.
    ascii : bool
        Use ``w`` and ``*`` instead of ``ω`` and ``·`` (the output then re-parses with
        :func:`ordinal`, as does the Unicode form).

    Returns
    -------
    str

    Raises
    ------
    cgtalg.errors.NimberError
        If ``x`` is not an ordinal.

    Examples
    --------
    >>> format_ordinal(ordinal("w^2*3+1"))
    'ω^2·3+1'
    >>> format_ordinal(ordinal("w^(w^2*4)+3"))
    'ω^(ω^2·4)+3'
    >>> format_ordinal(ordinal("w*2+3"), ascii=True)
    'w*2+3'
    >>> format_ordinal(ordinal("w^w"))
    'ω^ω'
    """
    return _format(_coerce(x), ascii)


def nim_add(a: OrdinalLike, b: OrdinalLike) -> OrdinalLike:
    """Nim-sum a ⊕ b of two ordinals (below ε₀, i.e. any sympy ordinal).

    Writing ordinals in base 2 (ω = 2^ω, so ω^β·c = 2^(ω·β)·c with finite c), the nim-sum
    is the XOR of base-2 digits; equivalently the coefficients of equal powers ω^β are XORed
    as finite integers (Conway, ONAG ch. 6; seed 004).

    Parameters
    ----------
    a, b : int or Ordinal
        The summands.

    Returns
    -------
    int or Ordinal
        ``a ⊕ b``; an ``int`` when finite.

    Raises
    ------
    cgtalg.errors.NimberError
        If an argument is negative or not an ordinal.

    Examples
    --------
    >>> nim_add(ordinal("w*3+5"), ordinal("w*2+1"))
    w + 4
    >>> nim_add(ordinal("w"), ordinal("w"))
    0
    >>> nim_add(5, 3)
    6
    """
    return _out(_nim_add(_coerce(a, "a"), _coerce(b, "b")))


def nim_sum(values: Iterable[OrdinalLike]) -> OrdinalLike:
    """Nim-sum of any finite collection of ordinals (0 for an empty one).

    Parameters
    ----------
    values : iterable of int or Ordinal

    Returns
    -------
    int or Ordinal

    Raises
    ------
    cgtalg.errors.NimberError
        If a value is negative or not an ordinal.

    Examples
    --------
    >>> nim_sum([1, 2, 3])
    0
    >>> nim_sum([ordinal("w+1"), ordinal("w"), 5])
    4
    """
    acc: _CNF = 0
    for i, v in enumerate(values):
        acc = _nim_add(acc, _coerce(v, f"value {i}"))
    return _out(acc)
