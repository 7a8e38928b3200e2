"""One generic memoised fold over a game DAG.

Every recursive evaluation of a form (normal Grundy value, misère Grundy value, outcome,
genus, misère canonical form, ...) is an :class:`Evaluator`: it says how to *combine* the
values of a form's options into the form's value, and optionally how to *add* the values
of two summands (so that a form built as ``A + B`` is evaluated from ``A`` and ``B``
without walking the sum, when the theory allows it: the Sprague-Grundy theorem for
normal play, for instance). :func:`fold` walks the DAG once, bottom-up and iteratively
(no recursion limit), memoising per evaluator on form ids.

Later evaluators (genus, canonical forms, quotients) plug in here; the store memoises
evaluator results across processes under :attr:`Evaluator.name`.
"""

from __future__ import annotations

from typing import Any, Callable, Generic, Sequence, TypeVar

from cgtalg.core.game import Game

__all__ = ["Evaluator", "fold", "evaluator"]

V = TypeVar("V")


class Evaluator(Generic[V]):
    """A memoised bottom-up evaluation of forms.

    Parameters
    ----------
    name : str
        A stable name (used as the property key in the store, e.g. ``"grundy"``).
    combine : callable(game, option_values) -> value
        The value of ``game`` from the values of its options (in ``game.options`` order).
    add : callable(value_a, value_b) -> value, optional
        The value of ``A + B`` from the values of ``A`` and ``B``, where the theory gives
        such a rule. Used for forms known to be sums (``Game.sum_parts``).
    """

    def __init__(
        self,
        name: str,
        combine: Callable[[Game, Sequence[V]], V],
        add: Callable[[V, V], V] | None = None,
    ) -> None:
        self.name = name
        self.combine = combine
        self.add = add
        self.cache: dict[int, V] = {}

    def __call__(self, g: Game) -> V:
        return fold(g, self)

    def __repr__(self) -> str:
        return f"Evaluator({self.name!r}, cached={len(self.cache)})"


_REGISTRY: dict[str, Evaluator] = {}


def evaluator(name: str, add: Callable[[Any, Any], Any] | None = None):
    """Decorator: register ``combine(game, option_values)`` as the evaluator ``name``."""

    def wrap(combine: Callable[[Game, Sequence[Any]], Any]) -> Evaluator:
        ev = Evaluator(name, combine, add)
        ev.__doc__ = combine.__doc__
        _REGISTRY[name] = ev
        return ev

    return wrap


def registered_evaluators() -> dict[str, Evaluator]:
    """Evaluators registered by name (``grundy``, ``misere_grundy``, ...)."""
    return dict(_REGISTRY)


def fold(g: Game, ev: Evaluator[V]) -> V:
    """Evaluate ``ev`` on ``g``, memoised on form ids, bottom-up over the shared DAG.

    Examples
    --------
    >>> import cgtalg as cg
    >>> from cgtalg.core.fold import Evaluator, fold
    >>> count = Evaluator("leaves", lambda g, vals: 1 if not vals else sum(vals))
    >>> fold(cg.nim(3), count)
    4
    """
    cache = ev.cache
    hit = cache.get(g._id)
    if hit is not None or g._id in cache:
        return hit  # type: ignore[return-value]
    add = ev.add
    stack: list[Game] = [g]
    while stack:
        x = stack[-1]
        if x._id in cache:
            stack.pop()
            continue
        if add is not None:
            parts = x.sum_parts
            if parts is not None:
                a, b = parts
                missing = [p for p in (a, b) if p._id not in cache]
                if missing:
                    stack.extend(missing)
                    continue
                cache[x._id] = add(cache[a._id], cache[b._id])
                stack.pop()
                continue
        missing = [o for o in x._options if o._id not in cache]
        if missing:
            stack.extend(missing)
            continue
        cache[x._id] = ev.combine(x, [cache[o._id] for o in x._options])
        stack.pop()
    return cache[g._id]
