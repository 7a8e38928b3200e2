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
        if self.position is None:
            return f"bad {self.kind} {self.text!r}: {self.reason}"
        pos = self.position
        shown = self.text[pos] if pos < len(self.text) else "end of input"
        head = f"bad {self.kind} {self.text!r} at position {pos} ({shown!r}): {self.reason}"
        return f"{head}\n    {self.text}\n    {' ' * pos}^"


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
    what :func:`cgtalg.atomic_weight` computes (infinitesimal but not all-small)."""


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
