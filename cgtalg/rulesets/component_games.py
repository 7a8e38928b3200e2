"""Component games: impartial games whose positions fall apart into independent components.

In Node Kayles or Cram a move on a graph or board leaves a position that is the disjunctive
sum of its connected pieces, so such a game is played on finite multisets of *component
types* (connected graphs up to isomorphism, connected sets of cells up to the board's
symmetries), exactly as a heap game is played on multisets of heaps. The rulesets here
(:class:`ComponentRuleset` subclasses: :mod:`cgtalg.rulesets.node_kayles`,
:mod:`cgtalg.rulesets.cram`) are data and moves:

* a component is a canonical text key (``"P5"``, ``"xxx/xx."``);
* ``component_options(key)`` are the options of one component, each a sorted tuple of the
  components it leaves;
* ``component_size(key)`` counts its cells or vertices, and every option is smaller;
* ``component_types(size)`` lists the family's component types of one size, in a fixed order;
* a position is a sorted tuple of component keys (``components`` splits it).

The algorithms are functions: :func:`component_grundy` (normal-play Grundy values),
:func:`component_misere_form` (misère canonical forms of components and positions),
:class:`ComponentHeaps` (the family as a heap ruleset, its types numbered by size, for the misère
quotient construction :func:`cgtalg.quotients.construct.misere_quotient`).
"""

from __future__ import annotations

import operator
from typing import Any, Callable, Iterable, Iterator

from cgtalg.caches import register_cache
from cgtalg.core.heap_facts import HeapFacts
from cgtalg.errors import RulesetError, shorten
from cgtalg.rulesets.protocol import ImpartialRuleset

__all__ = ["ComponentRuleset", "ComponentHeaps", "component_grundy", "component_misere_form", "mex"]


def mex(values: Iterable[int]) -> int:
    """The least non-negative integer not in ``values``."""
    s = set(values)
    m = 0
    while m in s:
        m += 1
    return m


class ComponentRuleset(ImpartialRuleset):
    """Base class of component games (module docstring). Subclasses set ``name`` and define
    ``component_options``, ``component_size``, ``component_types`` and ``components_of_board``."""

    name = "component game"

    def __init__(self) -> None:
        self._options: dict[str, tuple[tuple[str, ...], ...]] = {}

    # -- what a subclass defines ---------------------------------------------------------------
    def options_of_component(self, key: str) -> Iterable[tuple[str, ...]]:  # pragma: no cover
        raise NotImplementedError

    def component_size(self, key: str) -> int:  # pragma: no cover
        raise NotImplementedError

    def component_types(self, size: int) -> list[str]:  # pragma: no cover
        raise NotImplementedError

    def check_component(self, key: Any) -> str:  # pragma: no cover
        raise NotImplementedError

    # -- the protocol ----------------------------------------------------------------------------
    def component_options(self, key: str) -> tuple[tuple[str, ...], ...]:
        """The options of one component, each a sorted tuple of component keys (memoised)."""
        got = self._options.get(key)
        if got is None:
            got = tuple(sorted({tuple(sorted(o)) for o in self.options_of_component(key)}))
            self._options[key] = got
        return got

    def position(self, parts: Any) -> tuple[str, ...]:
        """A position from a component key, or an iterable of keys (a sum)."""
        if isinstance(parts, str):
            parts = [parts]
        try:
            keys = [self.check_component(k) for k in parts]
        except TypeError:
            raise RulesetError(f"{self.name}: a position is a component key or a list of them, "
                               f"not {shorten(parts)}") from None
        return tuple(sorted(keys))

    def moves(self, position: Any) -> Iterator[tuple[str, ...]]:
        """The positions one move away: one component replaced by one of its options."""
        pos = self.position(position)
        seen = set()
        for i, key in enumerate(pos):
            if key in seen:
                continue
            seen.add(key)
            rest = pos[:i] + pos[i + 1:]
            for opt in self.component_options(key):
                yield tuple(sorted(rest + opt))

    def components(self, position: Any) -> list[tuple[str, ...]] | None:
        pos = self.position(position)
        return [(k,) for k in pos] if len(pos) > 1 else None

    def format_position(self, position: Any) -> str:
        pos = self.position(position)
        return " + ".join(pos) if pos else "0"

    def parse_position(self, text: str) -> tuple[str, ...]:
        text = text.strip()
        if text in ("", "0"):
            return ()
        return self.position([t.strip() for t in text.split("+")])


#: (ruleset name, key) -> normal-play Grundy value
_GRUNDY: dict[tuple[str, str], int] = register_cache("rulesets.component grundy values", {})


def component_grundy(ruleset: ComponentRuleset, position: Any) -> int:
    """The normal-play Grundy value of a position of a component game: the XOR of the values of
    its components (Sprague–Grundy), each the mex of the values of its options.

    >>> from cgtalg.rulesets.cram import Cram
    >>> [component_grundy(Cram(1), "x" * n) for n in range(1, 9)]   # Dawson's Kayles 0.07
    [0, 1, 1, 2, 0, 3, 1, 1]
    """
    total = 0
    for key in ruleset.position(position):
        total ^= _grundy_one(ruleset, key)
    return total


def _component_value(ruleset: ComponentRuleset, key: str, memo: dict, empty: Any, add: Callable[[Any, Any], Any],
                     combine: Callable[[list], Any]) -> Any:
    """``memo[(ruleset.name, key)]``, filled bottom-up (iteratively) for ``key`` and every
    component its options lead to: a component's value is ``combine`` of its options' values,
    an option's value the ``add``-sum (from ``empty``) of its components' values."""
    stack = [key]
    while stack:
        k = stack[-1]
        if (ruleset.name, k) in memo:
            stack.pop()
            continue
        opts = ruleset.component_options(k)
        todo = [c for o in opts for c in o if (ruleset.name, c) not in memo]
        if todo:
            stack.extend(todo)
            continue
        vals = []
        for o in opts:
            v = empty
            for c in o:
                v = add(v, memo[(ruleset.name, c)])
            vals.append(v)
        memo[(ruleset.name, k)] = combine(vals)
        stack.pop()
    return memo[(ruleset.name, key)]


def _grundy_one(ruleset: ComponentRuleset, key: str) -> int:
    return _component_value(ruleset, key, _GRUNDY, 0, operator.xor, mex)


#: (ruleset name, key) -> misère canonical form (a Game)
_MISERE: dict[tuple[str, str], Any] = register_cache("rulesets.component misère forms", {})


def component_misere_form(ruleset: ComponentRuleset, position: Any) -> Any:
    """The misère canonical form (a :class:`cgtalg.Game`) of a position of a component game:
    the canonical sum of its components' forms, each ``{the canonical forms of its options}``
    reduced by Conway's simplification (:mod:`cgtalg.misere.canonical`; misère equality is a
    congruence, so canonical forms may replace the components everywhere).

    >>> from cgtalg.rulesets.cram import Cram
    >>> from cgtalg.misere.notation import format_misere
    >>> [format_misere(component_misere_form(Cram(2), k)) for k in ("xx", "xx/xx", "xxx/xxx")]
    ['*[1]', '*[0]', '*[1]']
    """
    from cgtalg.core.game import game, zero
    from cgtalg.misere.canonical import misere_canonical_game, misere_canonical_sum_game

    def one(key: str) -> Any:
        return _component_value(ruleset, key, _MISERE, zero, misere_canonical_sum_game,
                                lambda forms: misere_canonical_game(game(forms)))

    total = zero
    for key in ruleset.position(position):
        total = misere_canonical_sum_game(total, one(key))
    return total


class ComponentHeaps:
    """A component game's types as the heaps of a heap ruleset, for the misère quotient
    construction: heap ``0`` is the empty position, then the types of size 1, 2, ... in the
    order of ``component_types`` (fixed, so heap numbers do not depend on how far one goes and
    ``Q_N`` of the family is ``Q_m`` of these heaps, ``m`` the last heap of size ``<= N``).

    Attributes
    ----------
    ruleset : ComponentRuleset
    name : str
        The ruleset's name (the store keeps the quotient under ``quotient:<name>``).
    types : list of str
        ``types[h]`` is the key of heap ``h`` (``types[0]`` is ``""``, the empty position).
    """

    #: heaps of game forms: no periodicity theorem applies (cgtalg.core.heap_facts)
    facts = HeapFacts(octal_like=False)

    def __init__(self, ruleset: ComponentRuleset) -> None:
        self.ruleset = ruleset
        self.name = ruleset.name
        self.types: list[str] = [""]
        self.index: dict[str, int] = {}
        self.size_end: list[int] = [0]     # size_end[s]: the last heap of size <= s
        self._opts: list[list[tuple[int, ...]]] = [[]]

    def grow(self, size: int) -> None:
        """Number every type of size ``<= size``."""
        while len(self.size_end) <= size:
            s = len(self.size_end)
            for key in self.ruleset.component_types(s):
                self.index[key] = len(self.types)
                self.types.append(key)
            self.size_end.append(len(self.types) - 1)
            for h in range(self.size_end[s - 1] + 1, len(self.types)):
                self._opts.append(sorted({tuple(sorted(self.index[c] for c in o))
                                          for o in self.ruleset.component_options(self.types[h])}))

    def last_heap(self, size: int) -> int:
        """The last heap of size ``<= size``."""
        self.grow(size)
        return self.size_end[size]

    def heap_options(self, n: int) -> list[tuple[int, ...]]:
        """The options of heap ``n`` (tuples of smaller heaps)."""
        while n >= len(self.types):
            self.grow(len(self.size_end))
            if len(self.size_end) > 10_000:  # pragma: no cover - a family with no types
                raise RulesetError(f"{self.name}: no component type numbered {n}")
        return self._opts[n]

    def heaps_of(self, position: Any) -> tuple[int, ...]:
        """The heaps of a position (a component key, a tuple of keys, or a list of those)."""
        if isinstance(position, list):
            return tuple(h for p in position for h in self.heaps_of(p))
        pos = self.ruleset.position(position)
        out = []
        for key in pos:
            size = self.ruleset.component_size(key)
            self.grow(size)
            h = self.index.get(key)
            if h is None:
                raise RulesetError(f"{self.name}: the component {shorten(key)} is not of this family")
            out.append(h)
        return tuple(out)
