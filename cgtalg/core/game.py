"""Short impartial game forms, hash-consed.

A :class:`Game` is a *form*: the set of its options, each itself a form. Forms are
hash-consed: two structurally equal forms (same option set) are the same Python object,
with one integer :attr:`Game.id`. So ``G is H`` tests structural equality (isomorphism of
game trees up to duplicate options), sums memoise on id pairs, and every recursive
evaluation (see :mod:`cgtalg.core.fold`) memoises on ids.

Ids are dense and process-local (the zero game has id 0); the persistent store gives each
form its own stable id, keyed by the form's structure (see :mod:`cgtalg.store`).

Nim-heaps are *atoms*: ``nim(n)`` for any ``n >= 0`` (``10**18``, ``10**100``) is one object made
in O(1) whose options ``*0, ..., *(n-1)`` are implied and materialised only when a walk asks for
them (and then refused with :class:`~cgtalg.errors.ComputationLimitError` past
:data:`MATERIALISE_LIMIT` options). :func:`game` recognises an option set that is exactly
``*0..*(n-1)`` and returns the atom, so structural equality stays identity. Evaluators give the
value of ``*n`` directly (:class:`cgtalg.core.fold.Evaluator` ``atom`` rule), so the Grundy value,
misère Grundy value, outcome and misère canonical form of ``*n`` never walk its options.

References: Conway, *On Numbers and Games* (ONAG), ch. 11-12; Siegel, *Combinatorial Game
Theory* (CGT), ch. IV-V. Hash-consing of games by integer ids follows CGSuite's design.
"""

from __future__ import annotations

import sys
from typing import Any, Callable, Iterable, Iterator

from cgtalg.caches import register_cache
from cgtalg.errors import ArgumentError, ArgumentTypeError, ComputationLimitError, shorten

__all__ = [
    "Game",
    "game_by_id",
    "forms_by_id",
    "game",
    "nim",
    "zero",
    "star",
    "game_table_size",
    "MATERIALISE_LIMIT",
    "WALK_LIMIT",
    "walk_size",
    "sum_size",
]

#: The most options of one nim-heap atom that are ever materialised (``*n`` for ``n`` above
#: this refuses ``.options`` with :class:`~cgtalg.errors.ComputationLimitError`).
MATERIALISE_LIMIT = 10**6

#: The most option links (edges of the form's DAG) a walk that expands nim-heap atoms, or a
#: literal sum, may need; larger walks and sums are refused up front.
WALK_LIMIT = 10**6


class _Table:
    """The hash-cons table: option-id tuples -> Game, heap sizes -> atom, and ids -> Game."""

    __slots__ = ("by_key", "by_id", "sums", "parts", "heaps", "sizes")

    def __init__(self) -> None:
        self.by_key: dict[tuple[int, ...], Game] = {}
        self.by_id: list[Game] = []
        self.sums: dict[tuple[int, int], Game] = {}
        # sum_parts: id of a sum form -> (id a, id b) for one known decomposition G = A + B.
        self.parts: dict[int, tuple[int, int]] = {}
        # nim-heap atoms by size
        self.heaps: dict[int, Game] = {}
        # walk_size upper bounds (nodes, edges) by id, for forms whose size was asked
        self.sizes: dict[int, tuple[int, int]] = {}


_TABLE = _Table()
# the table's answers (sums already built, walk sizes) are caches; its keys, ids, atoms and
# sum decompositions are identity and structure, never cleared
register_cache("core.game sums", _TABLE.sums)
register_cache("core.game walk sizes", _TABLE.sizes)


_ATOM_HINT = (
    "ask for the value through an evaluator with an atom rule (grundy, misere_grundy, "
    "outcomes, misere_canonical) instead of walking the form"
)
_SUM_HINT = (
    "the sum is not built; Grundy values of sums add by XOR (cgtalg.grundy of each part)"
)


def _limit_error(what: str, size: int, limit: int, unit: str, hint: str = _ATOM_HINT) -> ComputationLimitError:
    return ComputationLimitError(
        f"{what} needs {_count_text(size)} {unit}, more than the limit of {_count_text(limit)} "
        f"(cgtalg.core.game.{'MATERIALISE_LIMIT' if unit == 'options' else 'WALK_LIMIT'}); {hint}"
    )


def _count_text(n: int) -> str:
    """``n`` in digits when short, else its size in digits (never hits the int-to-str limit)."""
    if n.bit_length() <= 200:
        return str(n)
    return f"<a {int((n.bit_length() - 1) * 0.30102999566398120) + 1}-digit number>"


class Game:
    """An impartial short game form, identified by its set of options.

    Do not call the constructor; use :func:`game`, :func:`nim` or :func:`cgtalg.parse`.

    A nim-heap ``*n`` is an *atom*: made in O(1) for any ``n``, its options ``*0..*(n-1)``
    materialised only when asked for (refused past :data:`MATERIALISE_LIMIT`).

    Attributes
    ----------
    id : int
        Process-local hash-cons id (``zero.id == 0``).
    options : tuple[Game, ...]
        The distinct options, ordered by id.
    birthday : int
        The height of the game tree (0 for the zero game; ``n`` for ``*n``).
    """

    __slots__ = ("_options", "_option_ids", "_id", "_birthday", "_heap", "__weakref__")

    _options: tuple["Game", ...]
    _option_ids: tuple[int, ...]  # the ids of the options (ascending): the hash-cons key
    _id: int
    _birthday: int
    _heap: int | None
    #: never a compact part of a partizan form (cgtalg.core.partizan_atoms): what the fold asks
    _lazy = False
    _num = None

    def __new__(cls, *args, **kwargs):  # pragma: no cover - guarded constructor
        raise ArgumentTypeError("use cgtalg.game(options), cgtalg.nim(n) or cgtalg.parse(text)")

    @classmethod
    def _make(cls, options: tuple["Game", ...]) -> "Game":
        k = len(options)
        # an option set that is exactly *0..*(k-1) (options are distinct) is the atom *k
        for o in options:
            h = o._heap
            if h is None or h >= k:
                break
        else:
            return nim(k)
        key = tuple(o._id for o in options)
        found = _TABLE.by_key.get(key)
        if found is not None:
            return found
        self = object.__new__(cls)
        self._options = options
        self._option_ids = key
        self._heap = None
        self._id = len(_TABLE.by_id)
        self._birthday = 1 + max((o._birthday for o in options), default=-1)
        _TABLE.by_key[key] = self
        _TABLE.by_id.append(self)
        return self

    @classmethod
    def _atom(cls, n: int) -> "Game":
        self = object.__new__(cls)
        self._heap = n
        self._birthday = n
        self._id = len(_TABLE.by_id)
        if n == 0:
            self._options = ()
        _TABLE.heaps[n] = self
        _TABLE.by_id.append(self)
        return self

    def __getattr__(self, name: str):
        # only reached for an unset slot: the options of a nim-heap atom, made on first use
        if name == "_options" and self._heap is not None:
            n = self._heap
            if n > MATERIALISE_LIMIT:
                raise _limit_error(f"listing the options of the nim-heap *{_count_text(n)}",
                                   n, MATERIALISE_LIMIT, "options")
            opts = tuple(sorted((nim(k) for k in range(n)), key=lambda g: g._id))
            self._options = opts
            return opts
        if name == "_option_ids" and self._heap is not None:
            ids = tuple(o._id for o in self._options)
            self._option_ids = ids
            return ids
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    # -- basic structure -------------------------------------------------------------
    @property
    def id(self) -> int:
        """Process-local hash-cons id; equal ids mean identical forms."""
        return self._id

    @property
    def options(self) -> tuple["Game", ...]:
        """The distinct options of this form, ordered by id.

        Raises
        ------
        ComputationLimitError
            For a nim-heap ``*n`` with ``n > MATERIALISE_LIMIT`` (its options are implied).
        """
        return self._options

    @property
    def num_options(self) -> int:
        """The number of options, in O(1) (``n`` for the atom ``*n`` of any size)."""
        h = self._heap
        return h if h is not None else len(self._options)

    @property
    def birthday(self) -> int:
        """Formal birthday: 0 for ``0``, else 1 + the largest birthday of an option (``n`` for ``*n``)."""
        return self._birthday

    @property
    def is_zero(self) -> bool:
        """True for the empty form ``0 = {}``."""
        return self._heap == 0

    @property
    def is_atom(self) -> bool:
        """True for a nim-heap ``*n`` (an atom: options implied, see the module doc)."""
        return self._heap is not None

    def nim_heap_size(self) -> int | None:
        """``n`` if this form *is* the nim-heap ``*n`` (options exactly ``*0..*(n-1)``), else None.

        O(1): every such form is the atom ``nim(n)`` (:func:`game` recognises the option set).
        This is a structural test, not an equivalence test.
        """
        return self._heap

    def subpositions(self, expand_atoms: bool = True) -> list["Game"]:
        """All distinct subpositions (including ``self``), children before parents.

        Parameters
        ----------
        expand_atoms : bool, default True
            With False, nim-heap atoms are listed but not descended into (their subpositions
            ``*0..*(n-1)`` are implied); with True the atom ``*n`` brings ``*0..*n`` in.

        Raises
        ------
        ComputationLimitError
            With ``expand_atoms``, when the walk would need more than :data:`WALK_LIMIT`
            option links (the atom ``*n`` has ``n(n+1)/2``), named before anything is built.
        """
        order: list[Game] = []
        seen: set[int] = set()
        stack: list[tuple[Game, int]] = [(self, 0)]
        top_heap = -1
        while stack:
            g, i = stack.pop()
            if i == 0:
                if g._id in seen:
                    continue
                h = g._heap
                if h is not None:
                    if expand_atoms and h > top_heap:
                        if h * (h + 1) // 2 > WALK_LIMIT:
                            raise _limit_error(
                                f"walking the nim-heap *{_count_text(h)} option by option",
                                h * (h + 1) // 2, WALK_LIMIT, "option links",
                            )
                        for k in range(top_heap + 1, h + 1):
                            a = nim(k)
                            if a._id not in seen:
                                seen.add(a._id)
                                order.append(a)
                        top_heap = h
                    elif not expand_atoms:
                        seen.add(g._id)
                        order.append(g)
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
        h = self._heap
        if h is None:
            return len(self._options)
        if h > sys.maxsize:
            raise ComputationLimitError(
                f"len() of the nim-heap *{_count_text(h)} exceeds sys.maxsize; use .num_options"
            )
        return h

    def __bool__(self) -> bool:
        # as len(g) > 0, without len() (which refuses heaps beyond sys.maxsize)
        return self._heap != 0

    def __contains__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return False
        h = self._heap
        if h is not None:
            return other._heap is not None and other._heap < h
        return any(o is other for o in self._options)

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

    def _repr_html_(self) -> str:  # notebooks: the card a higher layer provides (cgtalg.hooks)
        from cgtalg.hooks import form_html

        return form_html(self)

    def _repr_latex_(self) -> str | None:
        """The form in LaTeX (``*2``, ``\\{*,*2\\}``): :func:`cgtalg.core.latex.form_latex` of its
        literal text; None (no LaTeX display) for a form whose text is too long."""
        from cgtalg.core.latex import LATEX_LIMIT, form_latex, math
        from cgtalg.core.notation import format_game

        return math(form_latex(format_game(self, max_chars=LATEX_LIMIT)))

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
    if isinstance(options, (str, bytes, Game)) or not hasattr(options, "__iter__"):
        raise ArgumentTypeError(f"game() takes an iterable of Game forms, got "
                                f"{type(options).__name__}: {shorten(options)}")
    for o in options:
        if not isinstance(o, Game):
            raise ArgumentTypeError(f"options must be Game forms, got {type(o).__name__}: {shorten(o)}")
        if o._id not in seen:
            seen.add(o._id)
            opts.append(o)
    opts.sort(key=lambda g: g._id)
    return Game._make(tuple(opts))


def _nim_heaps(n: int) -> list[Game]:
    """The nim-heaps ``*0 .. *n`` (kept for callers of the old helper; ``n + 1`` atoms)."""
    return [nim(k) for k in range(n + 1)]


def nim(n: int) -> Game:
    """The nim-heap ``*n = {*0, *1, ..., *(n-1)}``, for any ``n >= 0``, in O(1).

    ``*n`` is an atom: its options are implied and materialised only when asked for
    (:attr:`Game.options`, refused past :data:`MATERIALISE_LIMIT`); evaluators give its value
    directly (Grundy value ``n``, ONAG ch. 11).

    Parameters
    ----------
    n : int
        The heap size (a Python or numpy integer, of any size).

    Returns
    -------
    Game
        The hash-consed atom: ``nim(n) is game([nim(k) for k in range(n)])``.

    Raises
    ------
    ArgumentTypeError
        If ``n`` is not an integer (a ``TypeError``).
    ArgumentError
        If ``n`` is negative (a ``ValueError``).

    Examples
    --------
    >>> import cgtalg as cg
    >>> cg.nim(10**18).birthday == 10**18
    True
    >>> cg.game([cg.nim(0), cg.nim(1), cg.nim(2)]) is cg.nim(3)
    True
    """
    found = _TABLE.heaps.get(n) if type(n) is int else None
    if found is not None:
        return found
    if isinstance(n, bool) or not isinstance(n, int):
        try:
            import numpy as np

            if isinstance(n, np.integer):
                n = int(n)
            else:
                raise TypeError
        except TypeError:
            raise ArgumentTypeError(f"nim-heap size must be an int, got {shorten(n)}") from None
    else:
        n = int(n)  # int subclasses
    if n < 0:
        raise ArgumentError(f"nim-heap size must be >= 0, got {shorten(n)}")
    found = _TABLE.heaps.get(n)
    if found is not None:
        return found
    return Game._atom(n)


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

    Raises
    ------
    ComputationLimitError
        When the sum walk would need more than :data:`WALK_LIMIT` option links, estimated up
        front from the parts (:func:`sum_size`), before anything is built.
    """
    if a.is_zero:
        return b
    if b.is_zero:
        return a
    if (a._id, b._id) not in memo and (b._id, a._id) not in memo:
        nodes, edges = sum_size(a, b)
        if edges > WALK_LIMIT:
            raise _limit_error(
                f"the sum of forms with {_count_text(walk_size(a)[0])} and "
                f"{_count_text(walk_size(b)[0])} subpositions",
                edges, WALK_LIMIT, "option links", _SUM_HINT,
            )

    def build(x: Game, y: Game, s: Callable[[Game, Game], Game]) -> Game:
        g = make([s(xo, y) for xo in x._options] + [s(x, yo) for yo in y._options])
        if make is game:
            _TABLE.parts.setdefault(g._id, (x._id, y._id))
        return g

    return pair_fold(a, b, memo, build)


def pair_fold(a: Any, b: Any, memo: dict[tuple[int, int], Any],
              build: Callable[[Any, Any, Callable[[Any, Any], Any]], Any],
              moves: Callable[[Any], Iterable[Any]] | None = None,
              single: Callable[[Any], Any] | None = None) -> Any:
    """The walk behind every disjunctive sum of forms (impartial :class:`Game` and partizan
    :class:`~cgtalg.core.partizan.PartizanGame` alike, literal or canonical): ``x + y`` for
    every pair of subpositions reached from ``(a, b)``, bottom-up and iteratively, memoised in
    ``memo`` on sorted id pairs. ``build(x, y, s)`` makes ``x + y`` from the sums of its parts'
    options, read with ``s(p, q)`` (``s(0, q) = q``); zero parts are never stored.
    ``moves(x)`` (default: ``x.options``) gives the options of a part that the walk descends
    into (the canonical sum skips a number's: number translation). ``single(x)`` is the
    value of ``x + 0`` for walks whose values are not forms (outcomes of sums played without
    building them); by default it is ``x`` itself.
    """
    def key(x: Any, y: Any) -> tuple[int, int]:
        return (x._id, y._id) if x._id <= y._id else (y._id, x._id)

    alone = (lambda x: x) if single is None else single

    def s(p: Any, q: Any) -> Any:
        if p.is_zero:
            return alone(q)
        if q.is_zero:
            return alone(p)
        return memo[key(p, q)]

    if a.is_zero:
        return alone(b)
    if b.is_zero:
        return alone(a)
    root = key(a, b)
    if root in memo:
        return memo[root]
    stack: list[tuple[Any, Any]] = [(a, b)]
    while stack:
        x, y = stack[-1]
        k = key(x, y)
        if k in memo:
            stack.pop()
            continue
        xs, ys = (x._options, y._options) if moves is None else (moves(x), moves(y))
        pending = [(xo, y) for xo in xs if not xo.is_zero and key(xo, y) not in memo]
        pending += [(x, yo) for yo in ys if not yo.is_zero and key(x, yo) not in memo]
        if pending:
            stack.extend(pending)
            continue
        stack.pop()
        memo[k] = build(x, y, s)
    return memo[root]


def disjunctive_sum(a: Game, b: Game) -> Game:
    """The disjunctive sum ``a + b``: options ``a' + b`` and ``a + b'`` (memoised on ids).

    Raises
    ------
    ComputationLimitError
        When the literal sum would need more than :data:`WALK_LIMIT` option links (estimated
        from the parts: :func:`sum_size`), e.g. ``nim(10**6) + nim(10**6)``.
    """
    return sum_fold(a, b, _TABLE.sums, game)


def walk_size(g: Game) -> tuple[int, int]:
    """``(nodes, edges)``: the number of subpositions of ``g`` and of option links among them,
    computed without expanding atoms (``*n`` has ``n + 1`` subpositions and ``n(n+1)/2``
    links), by one walk over the non-atom part (memoised per form).
    """
    if not isinstance(g, Game):
        raise ArgumentTypeError(f"walk_size needs a Game form, got {type(g).__name__}: {shorten(g)}")
    known = _TABLE.sizes.get(g._id)
    if known is not None:
        return known
    h = g._heap
    if h is not None:
        return (h + 1, h * (h + 1) // 2)
    nodes = 0
    edges = 0
    top_heap = -1
    seen: set[int] = set()
    stack = [g]
    while stack:
        x = stack.pop()
        if x._id in seen:
            continue
        seen.add(x._id)
        if x._heap is not None:
            top_heap = max(top_heap, x._heap)
            continue
        nodes += 1
        edges += len(x._options)
        stack.extend(o for o in x._options if o._id not in seen)
    if top_heap >= 0:
        nodes += top_heap + 1
        edges += top_heap * (top_heap + 1) // 2
    result = (nodes, edges)
    _TABLE.sizes[g._id] = result
    return result


def sum_size(a: Game, b: Game) -> tuple[int, int]:
    """Upper bound ``(nodes, edges)`` of the literal sum ``a + b`` from its parts: the pairs of
    subpositions, ``N(a)N(b)`` nodes, and ``E(a)N(b) + N(a)E(b)`` option links."""
    na, ea = walk_size(a)
    nb, eb = walk_size(b)
    return na * nb, ea * nb + na * eb


def game_table_size() -> int:
    """The number of distinct forms created in this process."""
    return len(_TABLE.by_id)


def game_by_id(i: int) -> Game:
    """The form with process-local id ``i`` (``game_by_id(g.id) is g``)."""
    return _TABLE.by_id[i]


def forms_by_id() -> list[Game]:
    """The live list of every form made in this process, indexed by id (read it, never change
    it; hot loops that map many ids to forms index it directly)."""
    return _TABLE.by_id
