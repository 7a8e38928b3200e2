"""The facts of a heap ruleset that theorems read: a declared, typed part of the heap-ruleset
protocol (:class:`cgtalg.rulesets.heaps.base.HeapRuleset`).

A theorem about a heap game holds under hypotheses on its rules: the periodicity theorems
need a bound on the tokens one move removes and on the heaps it leaves. These are not read
from the moves (a finite look at ``heap_options`` cannot prove a bound for every heap) but
*declared* by the ruleset, as its :attr:`facts` (a :class:`HeapFacts`). A fact left undeclared
is ``None``, never a guess: a theorem that needs it refuses the ruleset with
:class:`~cgtalg.errors.RulesetFactError` (:func:`require_facts`), naming the ruleset, the
theorem, the fact and how to declare it. A door that can answer without the theorem (a
misère quotient up to a given heap, a period seen but not certified) says in its result that
the theorem was not available, and why.

The type lives in the bottom of the package (beside the game forms) so that every layer that
holds a theorem can read it: :mod:`cgtalg.quotients` (Plambeck–Siegel's misère periodicity)
as well as :mod:`cgtalg.rulesets.heaps` (Guy–Smith's normal-play periodicity).

Examples
--------
>>> f = HeapFacts(octal_like=True, finite=True, k=2, max_heaps=2)     # Kayles, 0.77
>>> f.missing(("k", "max_heaps")), HeapFacts(k=2, finite=True).missing(("k", "max_heaps"))
((), ('max_heaps',))
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Iterable

from cgtalg.errors import RulesetError, RulesetFactError

__all__ = ["HeapFacts", "FACTS", "UNDECLARED", "facts_of", "require_facts", "take_break_bound",
           "outside_reason", "GUY_SMITH", "PLAMBECK_SIEGEL"]

#: the normal-play periodicity theorem of finite take-and-break codes (Guy & Smith 1956)
GUY_SMITH = "the periodicity theorem of octal games (Guy & Smith 1956; Winning Ways ch. 4)"
#: the misère periodicity theorem of finite take-and-break codes (Plambeck & Siegel 2008, §8)
PLAMBECK_SIEGEL = "Plambeck–Siegel's misère periodicity theorem (JCTA 2008, §8)"


@dataclass(frozen=True)
class HeapFacts:
    """What a heap ruleset declares about its moves, for the theorems that need it. Every field
    is ``None`` when not declared (unknown); a theorem never fills one in.

    Attributes
    ----------
    octal_like : bool or None
        True when the moves are those of a take-and-break code: whether a move may remove
        ``t`` tokens from a heap and leave ``j`` nonempty heaps depends on ``t`` and ``j`` only,
        never on the sizes of the heaps left (any sizes summing to ``n - t`` will do). Both
        periodicity theorems (:data:`GUY_SMITH`, :data:`PLAMBECK_SIEGEL`) shift one heap left
        by a move and need the shifted move to be legal. False for Grundy's game (the two heaps
        must differ).
    finite : bool or None
        True when some ``k`` bounds the tokens every move removes (a finite code), False when
        no bound exists (an infinite code such as Nim, ``0.[3]``). Both periodicity theorems
        need a finite bound.
    k : int or None
        The most tokens one move removes (the index of a finite code's last nonzero digit);
        declared exactly when ``finite`` is True. It enters the bound of both periodicity
        theorems (``N >= h·max(n0, 1) + h·p + k``).
    max_heaps : int or None
        The most nonempty heaps one move leaves in place of the heap it moves in (1 when a move
        never splits a heap, 2 for octal codes, 3 for hexadecimal codes with a digit ``>= 8``).
        It is the ``h`` of both periodicity theorems' bounds: a move of a heap of ``n`` leaves
        a largest heap of at least ``(n - k) / h``. A value too small gives a bound too weak,
        hence a wrong certificate.

    Raises
    ------
    RulesetError
        For a malformed declaration (a negative ``k``, ``finite=True`` without ``k``, ...).
    """

    octal_like: bool | None = None
    finite: bool | None = None
    k: int | None = None
    max_heaps: int | None = None

    def __post_init__(self) -> None:
        for name in ("octal_like", "finite"):
            v = getattr(self, name)
            if v is not None and not isinstance(v, bool):
                raise RulesetError(f"HeapFacts.{name} must be True, False or None (not declared), got {v!r}")
        for name in ("k", "max_heaps"):
            v = getattr(self, name)
            if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < 0):
                raise RulesetError(f"HeapFacts.{name} must be an int >= 0 or None (not declared), got {v!r}")
        if self.finite is True and self.k is None:
            raise RulesetError("HeapFacts: finite=True declares a bound on the tokens a move removes; give it as k")
        if self.finite is not True and self.k is not None:
            raise RulesetError(f"HeapFacts: k={self.k} bounds the tokens a move removes, so declare finite=True "
                               "with it (finite=False means no bound exists)")

    def missing(self, names: Iterable[str]) -> tuple[str, ...]:
        """The facts among ``names`` that are not declared."""
        return tuple(n for n in names if getattr(self, n) is None)


#: the facts, in the order a message lists them, with what each says
FACTS: dict[str, str] = {
    "octal_like": "whether its moves are a take-and-break code's",
    "finite": "whether some k bounds the tokens a move removes",
    "k": "the most tokens one move removes",
    "max_heaps": "the most heaps one move leaves in place of one",
}
assert tuple(FACTS) == tuple(f.name for f in fields(HeapFacts))

#: the facts of a ruleset that declares none
UNDECLARED = HeapFacts()


def _name(ruleset: Any) -> str:
    name = ruleset.name if hasattr(ruleset, "name") else None
    return str(name) if name else type(ruleset).__name__


def facts_of(ruleset: Any) -> HeapFacts:
    """The facts ``ruleset`` declares (its ``facts``); :data:`UNDECLARED` for a ruleset
    without a ``facts`` attribute (a duck-typed heap ruleset declares nothing).

    Raises
    ------
    RulesetError
        When ``facts`` is not a :class:`HeapFacts`.
    """
    if not hasattr(ruleset, "facts"):
        return UNDECLARED
    f = ruleset.facts
    if not isinstance(f, HeapFacts):
        raise RulesetError(f"{_name(ruleset)}: its facts must be a cgtalg.core.heap_facts.HeapFacts, "
                           f"got {type(f).__name__}")
    return f


def require_facts(ruleset: Any, theorem: str, names: Iterable[str]) -> HeapFacts:
    """The facts of ``ruleset``, once every fact of ``names`` is declared.

    Raises
    ------
    RulesetFactError
        Naming the ruleset, ``theorem``, each missing fact with what it says, and how to
        declare it.
    """
    f = facts_of(ruleset)
    gone = f.missing(names)
    if gone:
        what = "; ".join(f"{n} ({FACTS[n]})" for n in gone)
        raise RulesetFactError(
            f"{_name(ruleset)}: {theorem} needs facts the ruleset does not declare: {what}. Declare them in "
            "its `facts`, a cgtalg.core.heap_facts.HeapFacts (e.g. `facts = HeapFacts(octal_like=True, "
            "finite=True, k=2, max_heaps=3)` for a code's moves that take at most 2 tokens and leave at most "
            "3 heaps); no value is assumed, since a wrong one would certify a wrong result",
            theorem=theorem, facts=gone)
    return f


def outside_reason(f: HeapFacts) -> str | None:
    """Why the declared facts ``f`` put a ruleset outside the periodicity theorems (its moves
    are not a take-and-break code's, or no bound on the tokens taken exists); None when they
    do not."""
    if f.octal_like is False:
        return ("its moves are not a take-and-break code's (which moves are legal depends on more than the "
                "tokens taken and the heaps left), so the periodicity argument does not apply")
    if f.finite is False:
        return "no bound on the tokens a move removes (an infinite code): no periodicity theorem applies"
    return None


def take_break_bound(ruleset: Any, theorem: str) -> tuple[int, int] | None:
    """``(k, h)`` of the periodicity theorems of finite take-and-break codes (``theorem``:
    :data:`GUY_SMITH` or :data:`PLAMBECK_SIEGEL`) for ``ruleset``: the most tokens a move
    removes and the most heaps it leaves. None when its declared facts put it outside the
    theorem (:func:`outside_reason`).

    Raises
    ------
    RulesetFactError
        When a fact the theorem needs is not declared.

    Examples
    --------
    >>> class R:
    ...     name = "three heaps"
    ...     facts = HeapFacts(octal_like=True, finite=True, k=1)
    >>> try:
    ...     take_break_bound(R(), PLAMBECK_SIEGEL)
    ... except RulesetFactError as exc:
    ...     print(exc.facts, str(exc)[:73])
    ('max_heaps',) three heaps: Plambeck–Siegel's misère periodicity theorem (JCTA 2008, §8)
    >>> take_break_bound(type("Kayles", (), {"facts": HeapFacts(True, True, 2, 2)})(), PLAMBECK_SIEGEL)
    (2, 2)
    """
    f = facts_of(ruleset)
    if outside_reason(f) is not None:
        return None
    f = require_facts(ruleset, theorem, FACTS)
    assert f.k is not None and f.max_heaps is not None
    return f.k, f.max_heaps
