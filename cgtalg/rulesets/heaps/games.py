"""Concrete heap games, and the one syntax every command uses to name a heap game.

- :class:`GrundysGame` (split a heap into two unequal heaps; Grundy 1939);
- :func:`heap_ruleset` / :class:`FunctionHeapRuleset`: a heap game from a Python function
  giving each heap's options (its stored answers are keyed by its name and a fingerprint of its
  moves, :attr:`FunctionHeapRuleset.store_name`, so that they are never another ruleset's);
- :func:`subtraction`: subtraction games ``S(s1, s2, ...)`` and their all-but variants
  (take-and-break codes, see :mod:`cgtalg.rulesets.heaps.octal`);
- :func:`parse_heap_ruleset`: ``kayles``, ``0.77``, ``S(1,3,4)``, ``allbut(1,2)``, ...

The base class is :class:`cgtalg.rulesets.heaps.base.HeapRuleset`; the algorithms on heap
games are in :mod:`cgtalg.rulesets.heaps.grundy_engine` and :mod:`cgtalg.rulesets.heaps.play`.
"""

from __future__ import annotations

import functools
import re
from typing import Callable, Iterable, Iterator

from cgtalg.core.lazynp import int_types

from cgtalg.rulesets.protocol import short_repr
from cgtalg.errors import RulesetError
from cgtalg.rulesets.heaps.grundy_engine import KernelRules
from cgtalg.rulesets.heaps.position import as_heaps
from cgtalg.rulesets.heaps.base import FINGERPRINT_HEAPS, FINGERPRINT_SEPARATOR, HeapRuleset, fingerprinted_name  # noqa: F401 (re-exported)
from cgtalg.core.heap_facts import HeapFacts

__all__ = [
    "GrundysGame",
    "FunctionHeapRuleset",
    "heap_ruleset",
    "FINGERPRINT_HEAPS",
    "FINGERPRINT_SEPARATOR",
    "fingerprinted_name",
    "subtraction",
    "grundys_game",
    "parse_heap_ruleset",
    "NAMED_HEAP_GAMES",
    "HEAP_SPEC_FORMS",
]


class GrundysGame(HeapRuleset):
    """Grundy's game: split a heap into two nonempty heaps of different sizes (Grundy 1939;
    Winning Ways ch. 4). Conjectured but not known to be periodic: never certified (its moves
    are not a take-and-break code's, so the periodicity theorems do not apply)."""

    name = "grundy"
    #: a move splits one heap into two and takes no token; which splits are legal depends on the
    #: sizes (the two heaps must differ)
    facts = HeapFacts(octal_like=False, finite=True, k=0, max_heaps=2)
    #: light commands compute small heaps' Grundy values in plain Python (:mod:`cgtalg.rulesets.heaps.small_grundy`)
    small_grundy = True

    def heap_options(self, n: int) -> Iterator[tuple[int, ...]]:
        for a in range(1, (n - 1) // 2 + 1):
            yield (a, n - a)

    def kernel_rules(self, n_max: int) -> KernelRules:
        return KernelRules((), (), (0,), (), unequal=True)


def grundys_game() -> GrundysGame:
    """Grundy's game (see :class:`GrundysGame`)."""
    return GrundysGame()


class FunctionHeapRuleset(HeapRuleset):
    """A heap game given by a Python function ``options(n) -> iterable of tuples of heaps``.

    Every heap left by a move from ``n`` must be smaller than ``n`` (so play ends); its
    Grundy sequence is computed in Python (no certificate: periods are only detected).

    Its answers are stored under :attr:`store_name`, its name and a fingerprint of its moves,
    never under its name alone: a function ruleset called ``0.77`` (the code of Kayles) or
    ``kayles`` keeps its answers apart from the built-in game's, and two functions given the
    same name keep theirs apart from each other's, while the same function in another process
    or object finds them.
    """

    def __init__(self, name: str, options: Callable[[int], Iterable[Iterable[int]]],
                 facts: HeapFacts | None = None) -> None:
        super().__init__()
        if not isinstance(name, str) or not name:
            raise RulesetError(f"a ruleset name must be a non-empty str, got {short_repr(name)}")
        if not callable(options):
            raise RulesetError(f"heap ruleset {short_repr(name)}: options must be callable, got {short_repr(options)}")
        if facts is not None and not isinstance(facts, HeapFacts):
            raise RulesetError(f"heap ruleset {short_repr(name)}: facts must be a HeapFacts, got {short_repr(facts)}")
        self.name = name
        self._options = options
        if facts is not None:
            self.facts = facts

    def heap_options(self, n: int) -> Iterator[tuple[int, ...]]:
        got = self._options(n)
        try:
            items = iter(got)
        except TypeError:
            raise RulesetError(f"heap ruleset {short_repr(self.name)}: options({n}) returned {short_repr(got)}, "
                               "not an iterable of tuples of heap sizes") from None
        for parts in items:
            if isinstance(parts, int_types()):
                parts = (parts,)
            heaps = as_heaps(parts, self.name)
            for p in heaps:
                if p >= n:
                    raise RulesetError(
                        f"heap ruleset {short_repr(self.name)}: a move from heap {n} leaves a heap of size {p}; "
                        "every heap left must be smaller than the heap moved in (else play may not end)"
                    )
            yield heaps

    @property
    def store_name(self) -> str:
        """The name the store keys this ruleset's answers by: ``name#fingerprint``
        (:attr:`fingerprint`), e.g. ``misere:0.77#3f2a9c1b7d4e5f60`` for its misère answers."""
        return f"{self.name}{FINGERPRINT_SEPARATOR}{self.fingerprint}"


def heap_ruleset(name: str, options: Callable[[int], Iterable[Iterable[int]]],
                 facts: HeapFacts | None = None) -> FunctionHeapRuleset:
    """A heap game from a function giving the options of a single heap.

    Parameters
    ----------
    name : str
        The game's name. Its answers are stored under the name and a fingerprint of its moves
        (:attr:`FunctionHeapRuleset.store_name`), so any name is safe, a built-in's included.
    options : callable(n) -> iterable of tuples of heap sizes
        The heaps left by each move from a heap of ``n`` (an int means one heap; zeros are
        dropped). Every heap left must be smaller than ``n``.
    facts : HeapFacts, optional
        What the theorems may read of the moves (:class:`~cgtalg.core.heap_facts.HeapFacts`);
        default: nothing declared (periods are then only detected, and a misère quotient is
        computed up to a given heap, never certified final).

    Examples
    --------
    >>> halve = heap_ruleset("halving", lambda n: [(n // 2,)] if n > 1 else [])
    >>> halve.grundy_sequence(6).tolist()
    [0, 0, 1, 1, 0, 0]
    """
    return FunctionHeapRuleset(name, options, facts)


def subtraction(S: Iterable[int], all_but: bool = False):
    """The subtraction game ``S(s1, s2, ...)``: take ``s`` tokens from a heap for some ``s`` in S
    (``all_but=True``: for any ``s`` not in S). A take-and-break code with digits 3
    (see :class:`cgtalg.rulesets.heaps.octal.SubtractionGame`).

    Examples
    --------
    >>> subtraction([1, 3, 4]).grundy_sequence(8).tolist()
    [0, 1, 0, 1, 2, 3, 2, 0]
    """
    from cgtalg.rulesets.heaps.octal import SubtractionGame

    return SubtractionGame(S, all_but=all_but)


_SUB_RE = re.compile(r"^(?:s|sub|subtraction)\s*\((.*)\)$", re.I)
_ALLBUT_RE = re.compile(r"^(?:allbut|all-but|all_but|subtraction-all-but)\s*\((.*)\)$", re.I)


#: names researchers use for heap games (Winning Ways ch. 4): name -> octal code
NAMED_HEAP_GAMES: dict[str, str] = {
    "kayles": "0.77",
    "dawson": "0.07",  # Dawson's Kayles
    "dawsons-kayles": "0.07",
    "dawsons-chess": "0.137",
    "officers": "0.6",
}

#: the spec forms every command accepts, for error messages
HEAP_SPEC_FORMS = (
    "an octal or hexadecimal code (0.77, 4.07, 0x0.B, 0.[3]), S(1,3,4) / subtraction:1,3,4, "
    "allbut(1,2) / allbut:1,2, or a name: kayles, dawson, officers, grundy"
)


def parse_heap_ruleset(text: str) -> HeapRuleset:
    """A heap game from its spec, the one syntax every command uses: an octal or hexadecimal
    code (``0.77``, ``0x0.B``, ``0.[3]``), ``S(1,3,4)`` / ``subtraction(1,3,4)`` /
    ``subtraction:1,3,4``, ``allbut(1,2)`` / ``allbut:1,2``, or a name (case-insensitive):
    ``kayles`` (0.77), ``dawson`` (Dawson's Kayles, 0.07), ``dawsons-chess`` (0.137),
    ``officers`` (0.6), ``grundy`` (Grundy's game). Same as
    :func:`cgtalg.rulesets.registry.get_ruleset`, restricted to heap games.

    Examples
    --------
    >>> [parse_heap_ruleset(t).name for t in ("Kayles", "S(1,3,4)", "subtraction:1,3,4", "0.77")]
    ['0.77', 'subtraction(1,3,4)', 'subtraction(1,3,4)', '0.77']

    Raises
    ------
    OctalCodeError
        For a malformed code.
    RulesetError
        For a malformed subtraction set, or a ruleset that is not a heap game.
    """
    from cgtalg.rulesets.registry import get_ruleset

    if not isinstance(text, str):
        raise RulesetError(f"a heap game spec must be a str, got {type(text).__name__}")
    ruleset = get_ruleset(text)
    if not isinstance(ruleset, HeapRuleset):
        raise RulesetError(f"{short_repr(text)} is not a heap game; heap games are {HEAP_SPEC_FORMS}")
    return ruleset


def _spec_resolver(text: str) -> HeapRuleset | None:
    """``S(1,3,4)``, ``subtraction(1,3,4)``, ``allbut(1,2)`` (the function-call forms)."""
    s = text.strip()
    for rx, allbut in ((_SUB_RE, False), (_ALLBUT_RE, True)):
        m = rx.match(s)
        if m:
            items = [x for x in re.split(r"[\s,]+", m.group(1).strip()) if x]
            if not items or not all(x.isascii() and x.isdigit() for x in items):
                raise RulesetError(f"bad subtraction set in {short_repr(text)}: expected positive integers such as S(1,3,4)")
            return subtraction([int(x) for x in items], all_but=allbut)
    return None


def _register() -> None:
    from cgtalg.rulesets.registry import register_family, register_resolver, register_ruleset

    register_ruleset("grundy", GrundysGame, "Grundy's game: split a heap into two unequal heaps")

    def _sub(arg: str, all_but: bool = False) -> HeapRuleset:
        items = [x for x in re.split(r"[\s,]+", arg.strip()) if x]
        if not items or not all(x.isdigit() for x in items):
            raise RulesetError(f"bad subtraction set {short_repr(arg)}: expected positive integers such as 1,3,4")
        return subtraction([int(x) for x in items], all_but=all_but)

    register_family("subtraction", _sub, "subtraction:S  subtraction game, S like 1,3,4")
    register_family("allbut", lambda a: _sub(a, True), "allbut:S  all-but subtraction game, S like 1,2")
    register_resolver(_spec_resolver, "S(1,3,4)  subtraction game; allbut(1,2) all-but subtraction game")
    from cgtalg.rulesets.heaps.octal import TakeAndBreak

    for name, code in NAMED_HEAP_GAMES.items():
        register_ruleset(name, functools.partial(TakeAndBreak, code), f"the octal game {code}")


_register()