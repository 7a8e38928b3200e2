"""Errors raised by cgtalg.

Every error a user can provoke with bad input is a subclass of :class:`CgtalgError`, and
also of the built-in exception that matches its meaning (``ValueError`` for malformed input,
``ZeroDivisionError`` for a nim-division by zero, ...), so that both ``except CgtalgError``
and ordinary Python idioms work. Messages name the problem precisely; tests check them.
"""

from __future__ import annotations

__all__ = [
    "CgtalgError",
    "NotationError",
    "GameNotationError",
    "OctalCodeError",
    "OrdinalNotationError",
    "PolynomialNotationError",
    "LoopyGameError",
    "OrdinalRangeError",
    "NimberError",
    "NimZeroDivisionError",
    "FieldExtensionError",
    "StoreError",
    "StoreSchemaError",
    "StoreCorruptError",
    "RulesetError",
    "RulesetFactError",
    "GenusNotationError",
]


class CgtalgError(Exception):
    """Base class of every error raised by cgtalg on bad input or state."""


class NotationError(CgtalgError, ValueError):
    """Text that cannot be parsed.

    ``text`` is the input, ``position`` the 0-based index of the offending character
    (or ``None``), and ``reason`` a short explanation. ``str(err)`` shows the text with a
    caret under the position.
    """

    kind = "notation"

    def __init__(self, text: str, position: int | None, reason: str) -> None:
        self.text = text
        self.position = position
        self.reason = reason
        super().__init__(self._render())

    def _render(self) -> str:
        # a long text is shown shortened (its start, length and end) and the caret picture is
        # a window around the position: a 200,000-digit input is never repeated in full
        text = self.text if isinstance(self.text, str) else repr(self.text)
        if self.position is None:
            return f"bad {self.kind} {shorten(text)}: {self.reason}"
        pos = self.position
        shown = text[pos] if pos < len(text) else "end of input"
        head = f"bad {self.kind} {shorten(text)} at position {pos} ({shown!r}): {self.reason}"
        if len(text) <= SHORTEN_LIMIT:
            start, window = 0, text
        else:
            start = max(0, pos - SHORTEN_LIMIT // 2)
            window = ("..." if start else "") + text[start:pos + SHORTEN_LIMIT // 2]
            window += "..." if pos + SHORTEN_LIMIT // 2 < len(text) else ""
        return f"{head}\n    {window}\n    {' ' * (pos - start + (3 if start else 0))}^"


class GameNotationError(NotationError):
    """Malformed game text such as ``{*2, }`` or ``*[2#`` ."""

    kind = "game notation"


class GenusNotationError(GameNotationError):
    """Malformed genus symbol such as ``2^`` or ``0^{a}`` (:meth:`cgtalg.Genus.parse`)."""

    kind = "genus symbol"


class OctalCodeError(NotationError):
    """Malformed octal / hexadecimal take-and-break code such as ``0.8`` or ``0.[3``."""

    kind = "octal code"


class OrdinalNotationError(NotationError):
    """Malformed ordinal text such as ``w^^2``."""

    kind = "ordinal"


class PolynomialNotationError(OrdinalNotationError):
    """Malformed polynomial text for nimber root-finding, such as ``x^2+x+``."""

    kind = "nimber polynomial"


class LoopyGameError(CgtalgError, ValueError):
    """A game graph that contains a cycle (a loopy game); cgtalg handles short games only.

    ``cycle`` lists the nodes of one cycle found, in order.
    """

    def __init__(self, cycle: list, message: str | None = None) -> None:
        self.cycle = list(cycle)
        shown = " -> ".join(repr(node) for node in self.cycle[:12])
        if len(self.cycle) > 12:
            shown += " -> ..."
        if self.cycle:
            shown += f" -> {self.cycle[0]!r}"
        super().__init__(message or f"the game graph is loopy (not short): it has the cycle {shown}")


class OrdinalRangeError(CgtalgError, ValueError):
    """An ordinal outside the range an operation supports (e.g. a nim-product at or beyond
    ω^(ω^ω), or a nim-sum at or beyond ε₀)."""


class NimberError(CgtalgError, ValueError):
    """Invalid input to nimber arithmetic (e.g. a negative integer)."""


class NimZeroDivisionError(CgtalgError, ZeroDivisionError):
    """Nim-division by, or nim-inverse of, zero."""


class FieldExtensionError(CgtalgError, ArithmeticError):
    """A result that lies outside the supported field; the message names the extension needed."""


class RulesetError(CgtalgError, ValueError):
    """A ruleset or position that violates the ruleset protocol (bad position, bad move)."""


class RulesetFactError(RulesetError):
    """A theorem refused a heap ruleset that does not declare a fact the theorem needs (the
    most tokens a move removes, the most heaps a move leaves, ...;
    :class:`cgtalg.core.heap_facts.HeapFacts`). The message names the ruleset, the theorem,
    the facts missing and how to declare them. ``facts`` holds the names of the missing facts,
    ``theorem`` the theorem refused."""

    def __init__(self, message: str, theorem: str = "", facts: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.theorem = theorem
        self.facts = tuple(facts)


class StoreError(CgtalgError):
    """A problem with the persistent store."""


class StoreSchemaError(StoreError):
    """The store was written by a newer (or unknown) schema version; it is left untouched."""


class StoreCorruptError(StoreError):
    """The store file is not a readable database; it is left untouched."""


class CertificateError(CgtalgError, ValueError):
    """A proof certificate that is malformed (not merely wrong): missing fields, bad node
    references, unknown certificate type. A well-formed but wrong certificate is rejected by
    :func:`cgtalg.misere.proof.check_proof` returning ``False`` with reasons instead."""


__all__ += ["CertificateError"]


class PeriodicityError(CgtalgError, ValueError):
    """Invalid input to a periodicity finder (e.g. a non-integer sequence for arithmetic
    periodicity, or ``min_cycles`` below 1)."""


__all__ += ["PeriodicityError"]


class ComputationLimitError(CgtalgError, ValueError):
    """A question out of reach within the given limits, e.g. a heap far beyond the computed
    Grundy values of a game with no certified period; the message names the limit to raise."""


__all__ += ["ComputationLimitError"]


class InfiniteQuotientError(ComputationLimitError):
    """A finite misère quotient was asked for, and the partial quotient ``Q_n`` at ``heap`` is
    proved infinite (``ray``: the verified ray pretension of
    :mod:`cgtalg.quotients.rays`; ``witness``: the family of positions whose outcomes tell
    the powers of heap ``n`` apart). Nothing is out of reach for lack of time: no finite
    quotient exists past the heap before."""


__all__ += ["InfiniteQuotientError"]


class CensusError(CgtalgError, ValueError):
    """A games-born-by-day census question out of range (a negative day, a day whose games are
    too many to build as forms, or a day beyond what the census can count), or an octal census
    request that cannot run (digits or bounds out of range, a malformed published table, an
    in-memory store for Dask workers; :mod:`cgtalg.census`)."""


__all__ += ["CensusError"]


class NimPositionError(CgtalgError, ValueError):
    """A Nim position that is not a finite collection of non-negative integer heap sizes, or a
    size bound out of range for the Nim-position class computations."""


__all__ += ["NimPositionError"]


class NotAtomicError(CgtalgError, ValueError):
    """An atomic weight asked of a game that has none (not infinitesimal), or of one outside
    what :func:`cgtalg.atomic_weight` computes (infinitesimal but not atomic: no ``W`` with
    ``G`` within the far-star bounds of ``W.↑``; :func:`cgtalg.is_atomic`)."""


__all__ += ["NotAtomicError"]


class BudgetError(CgtalgError, ValueError):
    """A time budget that is not one: ``max_seconds`` that is not a positive finite number of
    seconds (``nan``, ``-3``, ``"5"``), or a ``--time`` that is not a duration such as ``90``,
    ``30s``, ``10m``, ``1.5h`` (:mod:`cgtalg.budget`)."""


__all__ += ["BudgetError"]


class GameKindError(CgtalgError, TypeError):
    """A question asked of a kind of game for which it has no answer: the Grundy value of a
    partizan form such as ``{0|}``, the impartial universe for a partizan game, the normal-play
    outcome of a misère canonical form. The message says why and names what does answer;
    ``answered_by`` holds those names."""

    def __init__(self, message: str, answered_by: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.answered_by = tuple(answered_by)


__all__ += ["GameKindError"]


class UnsupportedError(CgtalgError, NotImplementedError):
    """A question that has an answer in the theory but that cgtalg does not compute yet (for
    example misère canonical forms of partizan games in the universe of all games); the message
    names what it does compute."""


__all__ += ["UnsupportedError"]


class UniverseError(CgtalgError, ValueError):
    """A misère universe that is not one (``"nowhere"``), a game outside the universe it is
    compared in (``{0|}`` is not a dicot), or a universe in which a question is not answered."""


__all__ += ["UniverseError"]


# --- issue 20 (helper "errors"): arguments of the wrong kind, shortened inputs -----------------


class ArgumentError(CgtalgError, ValueError):
    """An argument of the right type but out of range, given to a cgtalg function: a negative
    heap size, a day below 0, a temperature below -1, a genus convention that does not exist.
    The message names the argument and shows its value (shortened, :func:`shorten`)."""


__all__ += ["ArgumentError"]


class ArgumentTypeError(CgtalgError, TypeError):
    """An argument of a type a cgtalg function does not take: a float or a string where an int
    heap size is needed, a list where a game is needed. The message names the argument, the
    type it got and the types it takes."""


__all__ += ["ArgumentTypeError"]


#: longest shown form of an input inside an error message (see :func:`shorten`)
SHORTEN_LIMIT = 80


def shorten(value: object, limit: int = SHORTEN_LIMIT) -> str:
    """``repr(value)``, cut to about ``limit`` characters for an error message: a 200,000-digit
    input is shown by its start, its length and its end, never in full.

    >>> shorten("9" * 200_000)
    "'9999999999999999999999999999999999999999'... (200,000 characters) ...'9999999999'"
    >>> shorten(2**300, limit=30)
    '203703597633448608626844568... (91 digits)'
    >>> shorten(10**100_000)
    'an integer of about 100,001 digits'
    >>> shorten([1, 2])
    '[1, 2]'
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 50_000:
        # too long to print at all (perhaps above Python's int-to-text limit)
        digits = int(value.bit_length() * 0.30103) + 1
        return f"{'-' if value < 0 else ''}an integer of about {digits:,} digits"
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a repr that fails (ValueError above the int-to-text limit)
        return f"<{type(value).__name__}>"
    if len(text) <= limit:
        return text
    if isinstance(value, (str, bytes)):
        head = max(limit // 2, 8)
        tail = max(limit // 8, 4)
        return f"{value[:head]!r}... ({len(value):,} characters) ...{value[-tail:]!r}"
    if isinstance(value, int):
        return f"{text[: max(limit - 3, 8)]}... ({len(text.lstrip('-'))} digits)"
    return f"{text[: max(limit - 20, 8)]}... ({len(text):,} characters)"


__all__ += ["shorten", "SHORTEN_LIMIT"]


def require_int(value: object, name: str, minimum: int | None = None) -> int:
    """``value`` as a Python int (numpy integers accepted), for an argument called ``name``:
    :class:`ArgumentTypeError` for a bool, float, string or anything else that is not an
    integer, :class:`ArgumentError` below ``minimum``. Messages show the value shortened.

    >>> require_int(3, "day", minimum=0)
    3
    >>> try:
    ...     require_int(-1, "day", minimum=0)
    ... except ArgumentError as exc:
    ...     print(exc)
    day must be >= 0, got -1
    """
    import operator

    if isinstance(value, bool):
        raise ArgumentTypeError(f"{name} must be an int, got bool: {value!r}")
    try:
        number = operator.index(value)
    except TypeError:
        raise ArgumentTypeError(f"{name} must be an int, got {type(value).__name__}: "
                                f"{shorten(value)}") from None
    if minimum is not None and number < minimum:
        raise ArgumentError(f"{name} must be >= {minimum}, got {shorten(number)}")
    return number


__all__ += ["require_int"]


class NodeNotFoundError(CgtalgError, KeyError):
    """A node asked of a game graph that does not contain it (:func:`cgtalg.core.from_networkx` with
    a root that is not a node). A ``KeyError`` whose message prints as written."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


__all__ += ["NodeNotFoundError"]


class python_limits:  # noqa: N801 - used as ``with python_limits("parse"):``
    """Turn what crashes inside Python on a huge or deeply nested input into cgtalg errors,
    at an entry point: ``RecursionError`` becomes :class:`ComputationLimitError` naming
    Python's recursion limit, ``MemoryError`` a :class:`ComputationLimitError` naming the
    memory, ``OverflowError`` (a number too large for a float or a C integer) an
    :class:`ArgumentError`. Other exceptions pass unchanged.

    >>> import math
    >>> try:
    ...     with python_limits("the temperature"):
    ...         math.exp(10**6)
    ... except ArgumentError as exc:
    ...     print(exc)
    the temperature: a number is too large for this operation (math range error)
    """

    __slots__ = ("what",)

    def __init__(self, what: str) -> None:
        self.what = what

    def __enter__(self) -> "python_limits":
        return self

    def __exit__(self, kind: type | None, exc: BaseException | None, tb: object) -> bool:
        if kind is None:
            return False
        if issubclass(kind, RecursionError):
            import sys

            raise ComputationLimitError(
                f"{self.what}: the input is nested too deeply (Python's recursion limit is "
                f"{sys.getrecursionlimit()})") from None
        if issubclass(kind, MemoryError):
            raise ComputationLimitError(
                f"{self.what}: out of memory; pass a larger max_memory= (on the command line: "
                "--memory) or a smaller input") from None
        if issubclass(kind, OverflowError) and not isinstance(exc, CgtalgError):
            detail = str(exc) if len(str(exc)) <= SHORTEN_LIMIT else str(exc)[:SHORTEN_LIMIT] + "..."
            raise ArgumentError(f"{self.what}: a number is too large for this operation "
                                f"({detail})") from None
        return False


__all__ += ["python_limits"]


def signal_cause(exc: BaseException) -> BaseException:
    """The exception a signal handler raised inside a compiled function, else ``exc``.

    A budget's ``SIGPROF`` tick or Ctrl-C whose Python handler runs while numba's dispatcher
    is calling into Python (typing an argument, boxing a result) leaves its exception set
    under a returned result, and CPython reports ``SystemError: ... returned a result with an
    exception set`` with the handler's exception as ``__cause__``. That exception
    (:class:`CgtalgError`, e.g. the budget's :class:`ComputationLimitError`, or
    ``KeyboardInterrupt``) is what the caller should see."""
    seen = 0
    while (isinstance(exc, SystemError) and seen < 8 and "with an exception set" in str(exc)
           and isinstance(exc.__cause__, (CgtalgError, KeyboardInterrupt, SystemError))):
        exc = exc.__cause__
        seen += 1
    return exc
