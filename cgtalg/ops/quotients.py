"""The door of misère quotients: one function for every kind of game that has one.

:func:`misere_quotient` takes

* a heap ruleset, or the text of one (an octal code such as ``"0.07"``, a name such as
  ``"kayles"``): the quotient of the heap game (Plambeck–Siegel;
  :func:`cgtalg.quotients.construct.misere_quotient`);
* a list of impartial forms or their text (``["*2+*2", "{*2}"]``), or one form: the quotient of
  the closure of the forms (:mod:`cgtalg.quotients.forms`);
* a component family, or its name (``"cram:2xn"``, ``"node-kayles:cycles"``;
  :mod:`cgtalg.rulesets.component_games`): the quotient ``Q_N`` of the positions whose
  components have at most ``N`` cells or vertices (``max_heap=N``), the component types
  numbered by size as heaps, so that misère outcomes of sums of boards are answered from it
  (:class:`ComponentQuotient`);

and refuses anything else with :class:`~cgtalg.errors.GameKindError` naming what it takes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cgtalg.budget import BUDGET_HINT, check_max_seconds, cpu_seconds
from cgtalg.caches import register_cache
from cgtalg.core.game import Game
from cgtalg.core.heap_facts import HeapFacts
from cgtalg.errors import ComputationLimitError, GameKindError, GameNotationError, RulesetError, shorten
from cgtalg.misere.canonical import MisereCanonicalForm
from cgtalg.quotients import forms as _forms
from cgtalg.misere.notation import format_misere
from cgtalg.quotients.result import MisereQuotient
from cgtalg.quotients.state import known_state
from cgtalg.rulesets.component_games import ComponentHeaps, ComponentRuleset, component_misere_form
from cgtalg.rulesets.registry import get_ruleset

__all__ = ["misere_quotient", "component_quotient", "ComponentQuotient", "component_heaps",
           "ReducedComponentHeaps", "complete_size", "quotient_subject", "QUOTIENT_KINDS"]

#: what :func:`misere_quotient` takes (named in its refusals)
QUOTIENT_KINDS = ("a heap ruleset or its code or name ('0.07', 'kayles')", "a list of impartial "
                  "forms or their text (['*2+*2', '{*2}'])", "a component family "
                  "('cram:2xn', 'node-kayles:cycles')")

#: family name -> its heaps (one per process, so the construction's in-process state is reused)
_FAMILY_HEAPS: dict[str, ComponentHeaps] = register_cache("ops.component family heaps", {})


def component_heaps(ruleset: ComponentRuleset) -> ComponentHeaps:
    """The heaps of a component family (one object per family name in this process)."""
    got = _FAMILY_HEAPS.get(ruleset.name)
    if got is None or type(got.ruleset) is not type(ruleset):
        got = _FAMILY_HEAPS[ruleset.name] = ComponentHeaps(ruleset)
    return got


class ReducedComponentHeaps:
    """The components of at most ``max_size`` cells or vertices of a family, reduced to heaps by
    their misère canonical forms (:func:`cgtalg.rulesets.component_games.component_misere_form`):
    the heaps of the closure of those forms (:class:`cgtalg.quotients.forms.FormHeaps`:
    equal components merge, a component equal to a sum of earlier types is that sum). The
    universe is unchanged: the closure's positions are (equal to) sums of components of at most
    ``max_size``, and every component is one of the closure's types.

    Attributes
    ----------
    ruleset, max_size, name
        ``name`` is ``<family>@<N>:<digest of the heaps>`` (the store key's game name).
    forms : FormHeaps
    types : list of str
        The component types covered, by size (``types[0]`` is ``""``, the empty position).
    """

    #: heaps of game forms: no periodicity theorem applies (cgtalg.core.heap_facts)
    facts = HeapFacts(octal_like=False)

    def __init__(self, ruleset: ComponentRuleset, max_size: int) -> None:
        self.ruleset = ruleset
        self.max_size = max_size
        self.types = [""] + [key for s in range(1, max_size + 1) for key in ruleset.component_types(s)]
        self.canon = {key: component_misere_form(ruleset, key) for key in self.types[1:]}
        forms = list(self.canon.values()) or [component_misere_form(ruleset, ())]
        self.forms = _forms.FormHeaps(forms, prefix=f"{ruleset.name}@{max_size}")
        self.name = self.forms.name
        #: the first component type (by size) of each heap, when one is that heap alone
        self.label: dict[int, str] = {}
        for key in self.types[1:]:
            hs = self.forms.parts[self.canon[key].id]
            if len(hs) == 1:
                self.label.setdefault(hs[0], key)

    def heap_options(self, n: int) -> list[tuple[int, ...]]:
        return self.forms.heap_options(n)

    @property
    def max_heap(self) -> int:
        return self.forms.max_heap

    def heap_text(self, h: int) -> str:
        """A component that heap ``h`` is, else its misère canonical form."""
        if h in self.label:
            return self.label[h]
        return format_misere(self.forms.heaps[h], max_chars=60)

    def heaps_of(self, position: Any) -> tuple[int, ...]:
        """The heaps of a position (a key, a tuple of keys, or a list of those: a sum)."""
        if isinstance(position, list):
            return tuple(h for p in position for h in self.heaps_of(p))
        out: list[int] = []
        for key in self.ruleset.position(position):
            if self.ruleset.component_size(key) > self.max_size:
                raise ComputationLimitError(
                    f"{self.ruleset.name}: the component {key} has more than {self.max_size} cells "
                    "or vertices; compute a larger Q_N")
            out.extend(self.forms.parts[self.canon[key].id])
        return tuple(out)



def _heap_quotient(*args: Any, **kwargs: Any) -> MisereQuotient:
    """:func:`cgtalg.quotients.construct.misere_quotient`, imported when a heap quotient is computed
    (it loads numpy, which ``cgtalg game`` and the other doors of :mod:`cgtalg.ops` need not)."""
    from cgtalg.quotients.construct import misere_quotient

    return misere_quotient(*args, **kwargs)

@dataclass(repr=False)
class ComponentQuotient(_forms.QuotientOfPositions):
    """``Q_N`` of a component family: the misère quotient of the positions whose components
    have at most ``max_size`` cells or vertices.

    Attributes
    ----------
    quotient : MisereQuotient
        Over the heaps of :attr:`heaps`.
    heaps : ReducedComponentHeaps or ComponentHeaps
        The heaps: the components reduced by their misère canonical forms (the default), or
        every component type a heap of its own (``reduce=False``; heap ``h`` is
        ``heaps.types[h]``).
    max_size : int
        ``N``: every component type of at most ``N`` cells or vertices is covered.
    """

    quotient: MisereQuotient
    heaps: Any
    max_size: int

    @property
    def reduced(self) -> bool:
        """Whether the heaps are the components' misère canonical forms."""
        return isinstance(self.heaps, ReducedComponentHeaps)

    @property
    def types(self) -> list[str]:
        """The component types covered (``types[0]`` is ``""``, the empty position)."""
        if self.reduced:
            return self.heaps.types
        return self.heaps.types[: self.heaps.size_end[self.max_size] + 1]

    def element(self, position: Any) -> int:
        """The element of a position (a component key, a tuple of keys, or a list of those: a sum)."""
        hs = self.heaps.heaps_of(position)
        top = len(self.quotient.phi) - 1
        for h in hs:
            if h > top:
                raise ComputationLimitError(
                    f"{self.heaps.name}: the position {shorten(position)} is beyond the partial "
                    f"quotient; compute a larger Q_N")
        return self.quotient.image(hs)

    def to_dict(self) -> dict:
        d = self.quotient.to_dict()
        pr = self.quotient.presentation()
        d["family"] = self.heaps.ruleset.name
        d["max_size"] = self.max_size
        d["reduced"] = self.reduced
        d["types"] = [{"component": t, "element": pr.words[self.element(t)]} for t in self.types[1:]]
        if self.reduced:
            d["heaps"] = [self.heaps.heap_text(h) for h in range(len(self.quotient.phi))]
        return d

    def _repr_subject(self) -> str:
        return f"{self.heaps.ruleset.name!r}, max_size={self.max_size}"

    def __str__(self) -> str:
        q = self.quotient
        pr = q.presentation()
        lines = [f"  {t:>16} -> {pr.words[self.element(t)]}" for t in self.types[1:61]]
        if len(self.types) > 61:
            lines.append(f"  ... ({len(self.types) - 61} more types)")
        return self.describe(f"{self.heaps.ruleset.name}: misère quotient Q_{self.max_size} (components of at "
                             f"most {self.max_size} cells or vertices; {len(self.types) - 1} types"
                             + (f", {len(q.phi) - 1} heaps after misère simplification)" if self.reduced else ")"),
                             lines)


def complete_size(heaps: ComponentHeaps, top: int) -> int:
    """The largest ``N`` whose types are all among heaps ``<= top``."""
    n = 0
    while n + 1 < len(heaps.size_end) and heaps.size_end[n + 1] <= top:
        n += 1
    return n


def _check_size(ruleset: ComponentRuleset, max_size: Any) -> int:
    if isinstance(max_size, bool) or not isinstance(max_size, int) or max_size < 0:
        raise RulesetError(f"{ruleset.name}: max_heap is the largest component size, an integer "
                           f">= 0, not {shorten(max_size)}")
    return max_size


def component_quotient(ruleset: ComponentRuleset, max_size: int | None = None, reduce: bool = True,
                       **kwargs: Any) -> ComponentQuotient:
    """``Q_N`` of a component family (``N = max_size``), verified like every quotient here.

    Parameters
    ----------
    ruleset : ComponentRuleset
    max_size : int, optional
        ``N``. Without it, ``N = 1, 2, ...`` until ``max_seconds`` (then required) runs out;
        the last complete ``Q_N`` is returned (with a ``note``).
    reduce : bool
        Reduce the components to heaps by their misère canonical forms
        (:class:`ReducedComponentHeaps`; far fewer heaps: 466 components of Cram on 2×n
        strips with at most 11 cells are 5 heaps), stored per family and ``N``. With False,
        every component type is a heap (:class:`ComponentHeaps`), numbered by size, stored
        per family, and a larger ``N`` resumes from a smaller one.
    **kwargs
        Those of :func:`cgtalg.quotients.construct.misere_quotient` (``store``, ``partial``,
        ``callback``, ``max_seconds``, ...).

    Examples
    --------
    >>> from cgtalg.rulesets.cram import Cram
    >>> q = component_quotient(Cram(1), 8)          # 1×n Cram is Dawson's Kayles, 0.07
    >>> q.order, q.outcome(["xxxx", "xxx"])
    (6, 'N')
    """
    if max_size is None:
        return _grow(ruleset, reduce, **kwargs)
    max_size = _check_size(ruleset, max_size)
    callback = kwargs.get("callback")
    if reduce:
        heaps = ReducedComponentHeaps(ruleset, max_size)
        if callback is not None:
            kwargs["callback"] = lambda info: callback(
                dict(info, component=heaps.heap_text(info["heap"]), max_size=max_size))
        q = _heap_quotient(heaps, max_heap=heaps.max_heap, **kwargs)
        return ComponentQuotient(q, heaps, max_size)
    heaps = component_heaps(ruleset)
    if callback is not None:
        kwargs["callback"] = lambda info: callback(dict(info, component=heaps.types[info["heap"]],
                                                        max_size=ruleset.component_size(heaps.types[info["heap"]])
                                                        if info["heap"] else 0))
    q = _heap_quotient(heaps, max_heap=heaps.last_heap(max_size), **kwargs)
    top = len(q.phi) - 1
    n = complete_size(heaps, top)
    if heaps.size_end[n] < top:        # a partial run: the last complete size
        state = known_state(heaps)
        if state is not None and state.top >= top:
            q = state.quotient(heaps.name, heaps.size_end[n], note=q.note)
    return ComponentQuotient(q, heaps, n)


def _grow(ruleset: ComponentRuleset, reduce: bool, **kwargs: Any) -> ComponentQuotient:
    """``Q_1, Q_2, ...`` until the time budget ends: the last complete one."""
    seconds = kwargs.pop("max_seconds", None)
    if seconds is None:
        raise ComputationLimitError(f"{ruleset.name}: a component family has no periodicity theorem; "
                                    "pass max_heap=N (the largest component) or max_seconds")
    seconds = check_max_seconds(seconds)
    kwargs.pop("partial", None)
    t0 = cpu_seconds()  # the budget counts CPU seconds, as every Deadline
    best = None
    n = 1
    while True:
        left = seconds - (cpu_seconds() - t0)
        try:
            if left <= 0:
                raise ComputationLimitError(f"{ruleset.name}: Q_{n} did not finish within the time budget of "
                                            f"{seconds:g} s of CPU; {BUDGET_HINT}")
            got = component_quotient(ruleset, n, reduce, max_seconds=left, **kwargs)
        except ComputationLimitError as exc:
            if best is None:
                raise
            best.quotient.note = str(exc)
            return best
        best = got
        n += 1


def quotient_subject(game: Any) -> Any:
    """What a quotient is asked of: ``("heaps", ruleset)``, ``("forms", list)`` or
    ``("family", ruleset)``; GameKindError for anything else."""
    if isinstance(game, str):
        try:
            game = get_ruleset(game)
        except RulesetError as exc:
            try:
                _forms.form_heaps([game])
            except (GameNotationError, GameKindError):
                if any(c in game for c in "*{}+|#"):   # meant as a game: say what is wrong with it
                    raise
                raise exc from None
            return "forms", [game]
    if isinstance(game, (Game, MisereCanonicalForm)):
        return "forms", [game]
    if isinstance(game, ComponentRuleset):
        return "family", game
    if callable(getattr(game, "heap_options", None)):
        return "heaps", game
    if isinstance(game, (list, tuple)) and game and all(isinstance(g, (str, Game, MisereCanonicalForm))
                                                       for g in game):
        return "forms", list(game)
    raise GameKindError(f"a misère quotient is of {'; '.join(QUOTIENT_KINDS)}; not {shorten(game)}")


def misere_quotient(game: Any, max_heap: int | None = None, **kwargs: Any) -> Any:
    """The misère quotient of ``game`` (module docstring for the kinds taken).

    Parameters
    ----------
    game : heap ruleset, code or name; list of forms; component family or its name
    max_heap : int, optional
        For a heap game, ``Q_max_heap``; for a component family ``Q_N`` with ``N = max_heap``
        (the most cells or vertices of a component). Refused for forms (their closure is finite).
    **kwargs
        Budgets, ``store``, ``partial``, ``progress``, ``callback``, ... of
        :func:`cgtalg.quotients.construct.misere_quotient`.

    Returns
    -------
    MisereQuotient, FormQuotient or ComponentQuotient

    Raises
    ------
    GameKindError
        For anything that has no quotient here.

    Examples
    --------
    >>> misere_quotient("0.123").order
    20
    >>> misere_quotient(["*2+*2", "{*2}", "*2"]).classes()
    [['*2+*2', '{*2}'], ['*2']]
    >>> misere_quotient("node-kayles:paths", max_heap=6).order   # Q_6 of Dawson's Chess 0.137
    6
    """
    try:
        kind, subject = quotient_subject(game)
    except GameKindError as exc:
        if type(exc) is not GameKindError or "misere_quotient(" in str(exc):
            raise
        # the message names the question, like every door's refusal
        raise GameKindError(f"misere_quotient({shorten(game)}): {exc}",
                            getattr(exc, "answered_by", ())) from None
    if kind == "heaps":
        return _heap_quotient(subject, max_heap, **kwargs)
    if kind == "family":
        return component_quotient(subject, max_heap, **kwargs)
    if max_heap is not None:
        raise RulesetError("max_heap has no meaning for a quotient of forms (the closure of the forms "
                           "is finite and is taken whole)")
    return _forms.form_quotient(subject, **kwargs)
