"""Short impartial game forms, hash-consed.

A :class:`Game` is a *form*: the set of its options, each itself a form. Forms are
hash-consed: two structurally equal forms (same option set) are the same Python object,
with one integer :attr:`Game.id`. So ``G is H`` tests structural equality (isomorphism of
game trees up to duplicate options), sums memoise on id pairs, and every recursive
evaluation (see :mod:`cgtalg.core.fold`) memoises on ids.

Ids are dense and process-local (the zero game has id 0); the persistent store gives each
form its own stable id, keyed by the form's structure (see :mod:`cgtalg.store`).

References: Conway, *On Numbers and Games* (ONAG), ch. 11-12; Siegel, *Combinatorial Game
Theory* (CGT), ch. IV-V. Hash-consing of games by integer ids follows CGSuite's design.
"""

from __future__ import annotations

from typing import Callable, Iterable, Iterator

__all__ = ["Game", "game", "nim", "zero", "star", "game_table_size"]


class _Table:
    """The hash-cons table: option-id tuples -> Game, and ids -> Game."""

    __slots__ = ("by_key", "by_id", "sums", "parts")

    def __init__(self) -> None:
        self.by_key: dict[tuple[int, ...], Game] = {}
        self.by_id: list[Game] = []
        self.sums: dict[tuple[int, int], Game] = {}
        # sum_parts: id of a sum form -> (id a, id b) for one known decomposition G = A + B.
        self.parts: dict[int, tuple[int, int]] = {}


_TABLE = _Table()


class Game:
    """An impartial short game form, identified by its set of options.

    Do not call the constructor; use :func:`game`, :func:`nim` or :func:`cgtalg.parse`.

    Attributes
    ----------
    id : int
        Process-local hash-cons id (``zero.id == 0``).
    options : tuple[Game, ...]
        The distinct options, ordered by id.
    birthday : int
        The height of the game tree (0 for the zero game).
    """

    __slots__ = ("_options", "_id", "_birthday", "__weakref__")

    _options: tuple["Game", ...]
    _id: int
    _birthday: int

    def __new__(cls, *args, **kwargs):  # pragma: no cover - guarded constructor
        raise TypeError("use cgtalg.game(options), cgtalg.nim(n) or cgtalg.parse(text)")

    @classmethod
    def _make(cls, options: tuple["Game", ...]) -> "Game":
        key = tuple(o._id for o in options)
        found = _TABLE.by_key.get(key)
        if found is not None:
            return found
        self = object.__new__(cls)
        self._options = options
        self._id = len(_TABLE.by_id)
        self._birthday = 1 + max((o._birthday for o in options), default=-1)
        _TABLE.by_key[key] = self
        _TABLE.by_id.append(self)
        return self

    # -- basic structure -------------------------------------------------------------
    @property
    def id(self) -> int:
        """Process-local hash-cons id; equal ids mean identical forms."""
        return self._id

    @property
    def options(self) -> tuple["Game", ...]:
        """The distinct options of this form, ordered by id."""
        return self._options

    @property
    def birthday(self) -> int:
        """Formal birthday: 0 for ``0``, else 1 + the largest birthday of an option."""
        return self._birthday

    @property
    def is_zero(self) -> bool:
        """True for the empty form ``0 = {}``."""
        return not self._options

    def nim_heap_size(self) -> int | None:
        """``n`` if this form *is* the nim-heap ``*n`` (options exactly ``*0..*(n-1)``), else None.

        This is a structural test, not an equivalence test.
        """
        n = len(self._options)
        if n == 0:
            return 0
        # *n has options *0..*(n-1); *k has birthday k, so the birthdays must be 0..n-1.
        if self._birthday != n:
            return None
        heaps = _nim_heaps(n)
        if all(self._options[i] is heaps[i] for i in range(n)):
            # options sorted by id; nim heaps are created in increasing order of size,
            # but another form may have been created in between, so fall back to a set test.
            return n
        if {o._id for o in self._options} == {h._id for h in heaps[:n]}:
            return n
        return None

    def subpositions(self) -> list["Game"]:
        """All distinct subpositions (including ``self``), children before parents."""
        order: list[Game] = []
        seen: set[int] = set()
        stack: list[tuple[Game, int]] = [(self, 0)]
        while stack:
            g, i = stack.pop()
            if i == 0:
                if g._id in seen:
                    continue
            if i < len(g._options):
                stack.append((g, i + 1))
                child = g._options[i]
                if child._id not in seen:
                    stack.append((child, 0))
            else:
                if g._id not in seen:
                    seen.add(g._id)
                    order.append(g)
        return order

    def __iter__(self) -> Iterator["Game"]:
        return iter(self._options)

    def __len__(self) -> int:
        return len(self._options)

    def __contains__(self, other: object) -> bool:
        return isinstance(other, Game) and any(o is other for o in self._options)

    # -- sums ------------------------------------------------------------------------
    def __add__(self, other: "Game") -> "Game":
        if not isinstance(other, Game):
            return NotImplemented
        return disjunctive_sum(self, other)

    def __radd__(self, other: object) -> "Game":
        if other == 0:  # so that sum([...]) works
            return self
        return NotImplemented

    # -- identity ----------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        return self is other

    def __hash__(self) -> int:
        return self._id

    def __reduce__(self):
        # pickling (e.g. to worker processes) re-hash-conses on load
        from cgtalg.core.notation import format_game

        return (_unpickle, (format_game(self),))

    # -- display -----------------------------------------------------------------------
    def __str__(self) -> str:
        # Literal text can be exponentially longer than the DAG: past STR_LIMIT characters
        # str() gives a cut text ending in "..."; format_game(g) and game_to_json(g) give all.
        from cgtalg.core.notation import STR_LIMIT, format_game

        return format_game(self, max_chars=STR_LIMIT)

    def __repr__(self) -> str:
        from cgtalg.core.notation import format_game

        text = format_game(self, max_chars=200)
        return f"Game({text!r})"

    def _repr_html_(self) -> str:  # notebooks
        from cgtalg.viz.html import game_html

        return game_html(self)

    # -- graphs ----------------------------------------------------------------------
    def to_networkx(self):
        """This form as a :class:`networkx.DiGraph` (see :func:`cgtalg.core.dag.to_networkx`)."""
        from cgtalg.core.dag import to_networkx

        return to_networkx(self)

    @property
    def sum_parts(self) -> tuple["Game", "Game"] | None:
        """A pair ``(A, B)`` with ``self`` built as ``A + B``, if this form was made by a sum."""
        parts = _TABLE.parts.get(self._id)
        if parts is None:
            return None
        return _TABLE.by_id[parts[0]], _TABLE.by_id[parts[1]]


def _unpickle(text: str) -> Game:
    from cgtalg.core.notation import parse

    return parse(text)


def game(options: Iterable[Game] = ()) -> Game:
    """The form whose options are ``options`` (duplicates merge).

    Examples
    --------
    >>> import cgtalg as cg
    >>> str(cg.game([cg.nim(2)]))
    '{*2}'
    """
    opts = []
    seen = set()
    for o in options:
        if not isinstance(o, Game):
            raise TypeError(f"options must be Game forms, got {type(o).__name__}: {o!r}")
        if o._id not in seen:
            seen.add(o._id)
            opts.append(o)
    opts.sort(key=lambda g: g._id)
    return Game._make(tuple(opts))


_NIM_HEAPS: list[Game] = []


def _nim_heaps(n: int) -> list[Game]:
    """The nim-heaps ``*0 .. *n`` (built iteratively, cached)."""
    while len(_NIM_HEAPS) <= n:
        _NIM_HEAPS.append(game(_NIM_HEAPS))
    return _NIM_HEAPS


def nim(n: int) -> Game:
    """The nim-heap ``*n = {*0, *1, ..., *(n-1)}``.

    Raises
    ------
    ValueError
        If ``n`` is negative or not an integer.
    """
    if isinstance(n, bool) or not isinstance(n, int):
        try:
            import numpy as np

            if isinstance(n, np.integer):
                n = int(n)
            else:
                raise TypeError
        except TypeError:
            raise TypeError(f"nim-heap size must be an int, got {n!r}") from None
    if n < 0:
        raise ValueError(f"nim-heap size must be >= 0, got {n}")
    return _nim_heaps(n)[n]


zero: Game = nim(0)
star: Game = nim(1)


def sum_fold(
    a: Game,
    b: Game,
    memo: dict[tuple[int, int], Game],
    make: Callable[[list[Game]], Game],
) -> Game:
    """The sum ``a + b`` built bottom-up: each ``x + y`` is ``make(options)`` where the options
    are ``x' + y`` and ``x + y'`` (already built), memoised in ``memo`` on sorted id pairs.

    With ``make = game`` this is the literal disjunctive sum; an evaluator that is a
    congruence for ``+`` (misère canonical forms, say) passes its own ``make`` to add values
    without building the literal sum. Iterative, so deep sums do not hit the recursion limit.
    """
    if a.is_zero:
        return b
    if b.is_zero:
        return a

    def key(x: Game, y: Game) -> tuple[int, int]:
        return (x._id, y._id) if x._id <= y._id else (y._id, x._id)

    root = key(a, b)
    if root in memo:
        return memo[root]
    stack: list[tuple[Game, Game]] = [(a, b)]
    while stack:
        x, y = stack[-1]
        k = key(x, y)
        if k in memo:
            stack.pop()
            continue
        pending = [(xo, y) for xo in x._options if not xo.is_zero and key(xo, y) not in memo]
        pending += [(x, yo) for yo in y._options if not yo.is_zero and key(x, yo) not in memo]
        if pending:
            stack.extend(pending)
            continue
        stack.pop()
        opts = [(y if xo.is_zero else memo[key(xo, y)]) for xo in x._options]
        opts += [(x if yo.is_zero else memo[key(x, yo)]) for yo in y._options]
        memo[k] = make(opts)
        if make is game:
            _TABLE.parts.setdefault(memo[k]._id, (x._id, y._id))
    return memo[root]


def disjunctive_sum(a: Game, b: Game) -> Game:
    """The disjunctive sum ``a + b``: options ``a' + b`` and ``a + b'`` (memoised on ids)."""
    return sum_fold(a, b, _TABLE.sums, game)


def game_table_size() -> int:
    """The number of distinct forms created in this process."""
    return len(_TABLE.by_id)


def _game_by_id(i: int) -> Game:
    return _TABLE.by_id[i]
