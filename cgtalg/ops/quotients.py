"""The door of misère quotients: one function for every kind of game that has one.

:func:`misere_quotient` takes

* a heap ruleset, or the text of one (an octal code such as ``"0.07"``, a name such as
  ``"kayles"``): the quotient of the heap game (Plambeck–Siegel;
  :func:`cgtalg.misere.quotient.misere_quotient`);
* a list of impartial forms or their text (``["*2+*2", "{*2}"]``), or one form: the quotient of
  the closure of the forms (:mod:`cgtalg.misere.form_quotient`);
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

from cgtalg.caches import register_cache
from cgtalg.core.game import Game
from cgtalg.errors import ComputationLimitError, GameKindError, GameNotationError, RulesetError, shorten
from cgtalg.misere.canonical import MisereCanonicalForm
from cgtalg.misere import form_quotient as _forms
from cgtalg.misere import quotient as _heaps
from cgtalg.misere.quotient_result import MisereQuotient
from cgtalg.misere.quotient_state import known_state
from cgtalg.rulesets.component_games import ComponentHeaps, ComponentRuleset
from cgtalg.rulesets.registry import get_ruleset

__all__ = ["misere_quotient", "component_quotient", "ComponentQuotient", "component_heaps",
           "quotient_subject", "QUOTIENT_KINDS"]

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


@dataclass
class ComponentQuotient:
    """``Q_N`` of a component family: the misère quotient of the positions whose components
    have at most ``max_size`` cells or vertices.

    Attributes
    ----------
    quotient : MisereQuotient
        Over the heaps ``0..`` of :attr:`heaps` (heap ``h`` is the component type
        ``heaps.types[h]``).
    heaps : ComponentHeaps
    max_size : int
        ``N``: every component type of at most ``N`` cells or vertices is covered.
    """

    quotient: MisereQuotient
    heaps: ComponentHeaps
    max_size: int

    @property
    def order(self) -> int:
        """``|Q_N|``."""
        return self.quotient.order

    @property
    def p_portion(self) -> list[int]:
        return self.quotient.p_portion

    @property
    def types(self) -> list[str]:
        """The component types covered (heap ``h`` is ``types[h]``; ``types[0]`` the empty position)."""
        return self.heaps.types[: len(self.quotient.phi)]

    def element(self, position: Any) -> int:
        """The element of a position (a component key, a tuple of keys, or a list of those: a sum)."""
        hs = self.heaps.heaps_of(position)
        top = len(self.quotient.phi) - 1
        for h in hs:
            if h > top:
                raise ComputationLimitError(
                    f"{self.heaps.name}: the component {self.heaps.types[h]} has more than "
                    f"{self.max_size} cells or vertices; compute a larger Q_N")
        return self.quotient.image(hs)

    def outcome(self, position: Any) -> str:
        """``'P'`` or ``'N'``: the misère outcome of a position (or of a sum of positions)."""
        return "P" if bool(self.quotient.P[self.element(position)]) else "N"

    def word(self, position: Any) -> str:
        return self.quotient.word(self.element(position))

    def to_dict(self) -> dict:
        d = self.quotient.to_dict()
        pr = self.quotient.presentation()
        d["max_size"] = self.max_size
        d["types"] = [{"component": t, "element": pr.words[x]}
                      for t, x in zip(self.types[1:], self.quotient.phi[1:])]
        return d

    def __str__(self) -> str:
        q = self.quotient
        pr = q.presentation()
        lines = [f"{self.heaps.name}: misère quotient Q_{self.max_size} (components of at most "
                 f"{self.max_size} cells or vertices; {len(self.types) - 1} types)",
                 f"|Q| = {q.order}, |P| = {len(q.p_portion)}", f"Q = {pr.text}",
                 "P = {" + ", ".join(pr.words[x] for x in q.p_portion) + "}"]
        for t, x in zip(self.types[1:61], q.phi[1:61]):
            lines.append(f"  {t:>16} -> {pr.words[x]}")
        if len(self.types) > 61:
            lines.append(f"  ... ({len(self.types) - 61} more types)")
        if q.note:
            lines.append(f"partial result: {q.note}")
        return "\n".join(lines)


def complete_size(heaps: ComponentHeaps, top: int) -> int:
    """The largest ``N`` whose types are all among heaps ``<= top``."""
    n = 0
    while n + 1 < len(heaps.size_end) and heaps.size_end[n + 1] <= top:
        n += 1
    return n


def component_quotient(ruleset: ComponentRuleset, max_size: int | None = None, **kwargs: Any) -> ComponentQuotient:
    """``Q_N`` of a component family (``N = max_size``), verified like every quotient here.

    Without ``max_size`` sizes are added until ``max_seconds`` runs out (``max_seconds`` is
    then needed) and the last complete ``Q_N`` is returned. ``kwargs`` are those of
    :func:`cgtalg.misere.quotient.misere_quotient` (``store``, ``partial``, ``callback``, ...).

    Examples
    --------
    >>> from cgtalg.rulesets.cram import Cram
    >>> q = component_quotient(Cram(1), 8)          # 1×n Cram is Dawson's Kayles, 0.07
    >>> q.order, q.outcome(["xxxx", "xxx"])
    (6, 'N')
    """
    heaps = component_heaps(ruleset)
    if max_size is None:
        if kwargs.get("max_seconds") is None:
            raise ComputationLimitError(f"{ruleset.name}: a component family has no periodicity theorem; "
                                        "pass max_heap=N (the largest component) or max_seconds")
        kwargs["partial"] = True
        q = _heaps.misere_quotient(heaps, max_heap=10**9, **kwargs)
    else:
        if isinstance(max_size, bool) or not isinstance(max_size, int) or max_size < 0:
            raise RulesetError(f"{ruleset.name}: max_heap is the largest component size, an integer "
                               f">= 0, not {shorten(max_size)}")
        q = _heaps.misere_quotient(heaps, max_heap=heaps.last_heap(max_size), **kwargs)
    top = len(q.phi) - 1
    n = complete_size(heaps, top)
    if heaps.size_end[n] < top:
        state = known_state(heaps)
        if state is not None and state.top >= top:
            note = q.note
            q = state.quotient(heaps.name, heaps.size_end[n], note=note)
    return ComponentQuotient(q, heaps, n)


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
        :func:`cgtalg.misere.quotient.misere_quotient`.

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
    kind, subject = quotient_subject(game)
    if kind == "heaps":
        return _heaps.misere_quotient(subject, max_heap, **kwargs)
    if kind == "family":
        return component_quotient(subject, max_heap, **kwargs)
    if max_heap is not None:
        raise RulesetError("max_heap has no meaning for a quotient of forms (the closure of the forms "
                           "is finite and is taken whole)")
    return _forms.form_quotient(subject, **kwargs)
