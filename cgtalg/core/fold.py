"""One generic memoised fold over a game DAG.

Every recursive evaluation of a form (normal Grundy value, misère Grundy value, outcome,
genus, misère canonical form, ...) is an :class:`Evaluator`: it says how to *combine* the
values of a form's options into the form's value, and optionally how to *add* the values
of two summands (so that a form built as ``A + B`` is evaluated from ``A`` and ``B``
without walking the sum, when the theory allows it: the Sprague-Grundy theorem for
normal play, for instance). :func:`fold` walks the DAG once, bottom-up and iteratively
(no recursion limit), memoising per evaluator on form ids.

Nim-heaps are atoms (:func:`cgtalg.core.game.nim`): an evaluator may give the value of ``*n``
directly through its ``atom`` rule (Grundy value ``n``, misère Grundy value, canonical form
``*n``), so the fold never materialises the options of an atom it has a rule for. Evaluators
without an ``atom`` rule fall back to walking the options, refused with
:class:`~cgtalg.errors.ComputationLimitError` when that would exceed
:data:`cgtalg.core.game.WALK_LIMIT` option links.

Later evaluators (genus, canonical forms, quotients) plug in here; the store memoises
evaluator results across processes under :attr:`Evaluator.name`.
"""

from __future__ import annotations

from typing import Any, Callable, Generic, Sequence, TypeVar

from cgtalg.caches import register_cache, registered_caches
from cgtalg.core.game import WALK_LIMIT, Game, _count_text
from cgtalg.errors import ComputationLimitError, GameKindError

__all__ = ["Evaluator", "fold", "evaluator", "memo_post_order", "distinct_preorder"]

V = TypeVar("V")
T = TypeVar("T")


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
    atom : callable(n) -> value, optional
        The value of the nim-heap ``*n`` given directly (``n`` any non-negative int), so the
        options of the atom are never materialised. Without it the fold walks ``*n``'s
        options like any form's (refused past ``WALK_LIMIT`` option links).
    number : callable(x) -> value, optional
        The value of a compact number (:class:`cgtalg.core.partizan_atoms.NumberAtom`, the
        canonical form of a dyadic rational ``x`` too large to build as a tree) given directly.
        Without it the fold refuses such a number by name, as it refuses a compact literal
        sum (:class:`~cgtalg.core.partizan_atoms.LazySum`) when there is no ``add`` rule.
    partizan : bool, default False
        Whether the evaluation is of partizan forms (its option values come Left then Right;
        :func:`cgtalg.core.partizan.partizan_evaluator`). An impartial evaluation given a
        partizan form answers for it only when the form is impartial written in partizan
        notation (``{*|*}``), and otherwise refuses it with
        :class:`~cgtalg.errors.GameKindError`: it never walks Left and Right options as one
        set. A partizan evaluation given an impartial form evaluates it as the partizan game
        it is.
    """

    def __init__(
        self,
        name: str,
        combine: Callable[[Game, Sequence[V]], V],
        add: Callable[[V, V], V] | None = None,
        atom: Callable[[int], V] | None = None,
        partizan: bool = False,
        number: Callable[[Any], V] | None = None,
    ) -> None:
        self.name = name
        self.number = number
        self.partizan = partizan
        self.combine = combine
        self.add = add
        self.atom = atom
        self.cache: dict[int, V] = {}
        _register_evaluator_cache(self)

    def cache_clear(self) -> None:
        """Forget the memoised values (what :func:`cgtalg.clear_caches` calls)."""
        self.cache.clear()

    def atom_value(self, n: int) -> V:
        """The value of the nim-heap ``*n``: the ``atom`` rule, else by the fold."""
        from cgtalg.core.game import nim

        return fold(nim(n), self)

    def __call__(self, g: Game) -> V:
        return fold(g, self)

    def __repr__(self) -> str:
        return f"Evaluator({self.name!r}, cached={len(self.cache)})"


_REGISTRY: dict[str, Evaluator] = {}


def _register_evaluator_cache(ev: Evaluator) -> None:
    """Every evaluator's memo is a cache of the one registry (:mod:`cgtalg.caches`), named
    ``"fold <name>"`` (``"fold <name> #2"``, ... for a second evaluator of the same name)."""
    taken = set(registered_caches())
    label, k = f"fold {ev.name}", 1
    while label in taken:
        k += 1
        label = f"fold {ev.name} #{k}"
    register_cache(label, ev)


def _of_kind(g: Any, ev: Evaluator) -> Any:
    """``g`` as the kind of form ``ev`` evaluates (see :class:`Evaluator`'s ``partizan``)."""
    from cgtalg.core.partizan import PartizanGame, from_impartial, to_impartial

    if ev.partizan:
        if isinstance(g, Game):
            return from_impartial(g)
    elif isinstance(g, PartizanGame):
        return to_impartial(g, ev.name)
    from cgtalg.errors import GameKindError

    raise GameKindError(f"{ev.name}: {type(g).__name__} is not a form")


def evaluator(
    name: str,
    add: Callable[[Any, Any], Any] | None = None,
    atom: Callable[[int], Any] | None = None,
):
    """Decorator: register ``combine(game, option_values)`` as the evaluator ``name`` (with
    the optional ``add`` rule for sums and ``atom`` rule for nim-heaps)."""

    def wrap(combine: Callable[[Game, Sequence[Any]], Any]) -> Evaluator:
        ev = Evaluator(name, combine, add, atom)
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
    try:
        key = g._id
    except AttributeError:
        raise GameKindError(
            f"{ev.name}: {type(g).__name__} is not a game form; the functions of forms take a cgtalg.Game "
            "(or a partizan form where the theory has one), and the doors (cgtalg.outcome, cgtalg.grundy, ...) "
            "take game text, positions and every kind of game",
            answered_by=("outcome", "grundy", "misere_grundy", "canonical_form")) from None
    hit = cache.get(key)
    if hit is not None or key in cache:
        return hit  # type: ignore[return-value]
    if ev.partizan == isinstance(g, Game):
        g = _of_kind(g, ev)
        hit = cache.get(g._id)
        if hit is not None or g._id in cache:
            return hit  # type: ignore[return-value]
    add = ev.add
    atom = ev.atom
    top_heap = -1  # the largest atom expanded so far (atoms without an atom rule)
    stack: list[Game] = [g]
    while stack:
        x = stack[-1]
        if x._id in cache:
            stack.pop()
            continue
        if x._lazy:  # a compact part of a partizan form (cgtalg.core.partizan_atoms)
            if x._num is not None:
                if ev.number is None:
                    from cgtalg.core.partizan_atoms import compact_refusal

                    raise compact_refusal(f"evaluating {ev.name!r}", x)
                cache[x._id] = ev.number(x._num)
                stack.pop()
                continue
            if add is None:
                from cgtalg.core.partizan_atoms import compact_refusal

                raise compact_refusal(f"evaluating {ev.name!r}", x)
        h = x._heap
        if h is not None:
            if atom is not None:
                cache[x._id] = atom(h)
                stack.pop()
                continue
            if h > top_heap:
                if h * (h + 1) // 2 > WALK_LIMIT:
                    raise ComputationLimitError(
                        f"evaluating {ev.name!r} on the nim-heap *{_count_text(h)} walks "
                        f"{_count_text(h * (h + 1) // 2)} option links, more than the limit of "
                        f"{WALK_LIMIT} (cgtalg.core.game.WALK_LIMIT); the evaluator has no "
                        "atom rule for nim-heaps"
                    )
                top_heap = h
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


def memo_post_order(root: Game, memo: dict[int, V], deps: Callable[[Game], Sequence[Game]],
                    compute: Callable[[Game], V]) -> V:
    """``memo[root._id]``, filling ``memo[x._id] = compute(x)`` bottom-up (iteratively) for
    ``root`` and, first, for everything ``deps`` leads to. For properties that need more than
    the options' values (reversibility looks at the options' phyla and their second options;
    CGSuite's extended genus stops at tame forms): ``compute(x)`` may read ``memo`` at every
    ``d in deps(x)``.
    """
    stack = [root]
    while stack:
        x = stack[-1]
        if x._id in memo:
            stack.pop()
            continue
        missing = [d for d in deps(x) if d._id not in memo]
        if missing:
            stack.extend(missing)
            continue
        memo[x._id] = compute(x)
        stack.pop()
    return memo[root._id]


def distinct_preorder(root: T, children: Callable[[T], Sequence[T]]) -> list[T]:
    """The distinct objects reachable from ``root`` through ``children`` (distinct by
    identity, for DAGs with shared nodes such as proof trees), depth-first, each before the
    nodes below it and children in their given order; ``root`` first. Iterative (no
    recursion limit)."""
    order: list[T] = []
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        order.append(node)
        for c in reversed(children(node)):
            if id(c) not in seen:
                stack.append(c)
    return order
