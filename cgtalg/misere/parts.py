"""Parts and partitions of misère impartial games (Conway, ONAG ch. 12, "The mate, parts and
partitions"; Siegel, *Combinatorial Game Theory*, ch. V; Siegel, "On the structure of misère
impartial games", arXiv:2012.08554).

Definitions
-----------
All games are misère canonical forms; ``=`` is misère equality (identity of canonical forms),
``c(X)`` is the canonical form of ``X``, ``X'`` runs over the options of ``X``.

* ``H`` is a **part** of ``G`` when ``G = H + K`` for some ``K``, the **counterpart**
  ``G - H``. By Conway's cancellation theorem (``G + H = G + K`` implies ``H = K``; ONAG
  ch. 12, proved in Siegel 2020) the counterpart is unique.
* The **units** are ``0`` and ``*1`` (``*1 + *1 = 0``; ``G + H = 0`` only for ``G = H = 0`` or
  ``G = H = *1``). Every game has the *trivial* parts ``0``, ``*1``, ``G`` and ``G + *1``; the
  others are its **proper** parts.
* ``G`` is **prime** when it is not a unit and has no proper part. Primes are taken up to the
  unit ``*1`` (ONAG; CGSuite's ``IsPrime``): ``*2`` and ``*3 = *2 + *1`` are both prime.
* **Parity** (ONAG ch. 12; CGSuite's ``IsEven``): ``G`` is **even** when its canonical form is
  born before that of ``G + *1`` (the two birthdays differ by one), else **odd**: ``0``, ``*2``,
  ``{*2}`` are even, ``*1``, ``*3`` odd. Every game is ``E`` or ``E + *1`` for an even ``E``.
* A **partition** of ``G`` writes ``G`` as a sum of primes. As ``P + Q = (P + *1) + (Q + *1)``,
  partitions are normalised as CGSuite's ``Partitions`` does: a multiset of *even* primes,
  followed by ``*1`` when their sum is ``G + *1`` (when ``G`` is odd), so that every partition
  sums to ``G`` exactly and each partition up to units is listed once. ``0`` has the single
  partition ``()`` (the empty sum) and ``*1`` the single partition ``(*1,)``. Conway showed
  that every game has finitely many parts and at least one partition; partitions need not be
  unique: Norton's example ``*[4[2#]] = {*4 + *2}`` is ``*2 + ({*4+*2} - *2)`` and
  ``*4 + ({*4+*2} - *4)`` with all four summands prime (ONAG ch. 12; CGSuite writes the
  counterparts ``*[4[2#-2]]`` and ``*[4[2#-4]]``, a subtraction this library's notation does
  not have, so they print as option lists).

Counterparts can be born much later than the game: ``{*2} = *2 + K`` with
``K = {0, {*2}, {*2} + *1}`` born on day 5 (CGSuite's ``*[2[#-2]]``), because the sum
``*2 + K`` simplifies. So parts cannot be searched for among the games born by some day.

The two facts used
------------------
(A) *When is G = X + Y?* Let ``T = {c(X' + Y)} ∪ {c(X + Y')}`` (the canonical options of the
literal sum) and ``G != 0``. By Conway's simplification theorem (ONAG ch. 12; see
:mod:`cgtalg.misere.canonical`) ``c(X + Y)`` is ``{T}`` or the unique ``H`` that reduces
``{T}``, and a reducer ``H`` has ``opts(H) ⊊ T``. Hence ``G = X + Y`` iff every option of ``G``
is in ``T`` and every member of ``T`` that is not an option of ``G`` has ``G`` as an option. In
particular every option of ``G`` is ``X' + Y`` or ``X + Y'``.

(B) *Type-1 parts* (the name is CGSuite's). Let ``G = X + Y`` with ``Y`` a part of no option of
``G``. Then (A) with cancellation gives: ``X`` is a part of every option ``G'`` of ``G``; every
option ``X'`` of ``X`` is a part of ``G`` (``X' + Y`` is not an option of ``G``, so it has ``G``
as an option, ``G = X'' + Y`` or ``X' + Y'``, and the first would give ``X = X''``); and then
``Y = c(Y*)`` for ``Y* = {G' - X : G'} ∪ {G - X' : X'}``: ``Y*`` satisfies (A) against ``G``,
since ``X + (G' - X) = G'``, and ``X + (G - X')`` and ``X' + Y*`` each have ``X' + (G - X') = G``
as an option of their literal forms, so their canonical forms have ``G`` as an option or are
themselves options of ``G`` (by (A) applied to them); cancellation gives ``Y = c(Y*)``.

The algorithm
-------------
Bottom-up over the (even parts of the) subpositions of ``G``, memoised on ids, the map
``part -> counterpart`` of an even ``E != 0`` is computed from the maps of its options:

1. the trivial parts ``0``, ``*1``, ``E``, ``E + *1``;
2. *pairs*: ``U`` = the union of the parts of the options of ``E``. For ``X, Y`` in ``U`` that
   pass the necessary conditions of (A) (for every option ``G'``: ``G' = X + Y'`` or
   ``G' = X' + Y``, read off the options' maps), whose normal Grundy values XOR to that of ``E``
   (the normal value is a misère invariant, part of the genus), ``c(X + Y)`` is computed and
   compared with ``E``;
3. *type 1*, repeated until nothing changes: for ``X`` in ``N`` = the intersection of the parts
   of the options whose options are all known parts of ``E``, build ``Y*`` as in (B) and keep
   it if ``c(X + Y*) = E``.

The parts of an odd ``G = E + *1`` are those of ``E``, counterparts plus ``*1``. A game with
``0`` or ``*1`` as an option is prime or a unit (ONAG ch. 12: by (A), ``0 = X' + Y`` or
``*1 = X' + Y`` forces ``Y`` to be a unit), so such games (all nim-heaps ``*n``, ``n >= 2``)
get the trivial map at once, without looking at their options.

*Soundness*: every pair kept is checked by a canonical sum. *Completeness*, by induction on
``b(X) + b(Y)`` over the decompositions ``E = X + Y``: if ``X``, ``Y`` are both in ``U`` step 2
finds the pair. Otherwise, say ``Y`` is in no option's parts; by (B) ``X`` is in ``N`` (``E``
has an option), and each option ``X'`` of ``X`` is a part of ``E`` with counterpart an option
``Y'`` of ``Y``: a decomposition with smaller birthday sum, found by induction. So at the
fixed point of step 3 the construction of (B) applies to ``X`` and finds ``Y``.

Partitions follow by recursion: a partition of ``G`` (not a unit) is an even prime part ``p``
followed by a partition of ``G - p`` whose even primes all come at or after ``p`` in a fixed
order (birthday, number of options, CGSuite text, structural hash).

Cost and limits
---------------
Each call has a budget ``limit`` of work units: one per canonical sum tested or counterpart
built, one per member of ``U`` scanned, and one per partition listed. Past it
:class:`~cgtalg.errors.ComputationLimitError` is raised; maps finished so far stay memoised,
so a retry with a larger limit continues cheaply.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Union

from cgtalg.caches import register_cache
from cgtalg.core.fold import fold
from cgtalg.core.game import Game, nim, zero
from cgtalg.errors import ArgumentError, ArgumentTypeError, ComputationLimitError, GameKindError, shorten
from cgtalg.misere.canonical import (
    MisereCanonicalForm,
    misere_canonical_sum_game,
    misere_canonical_game,
    misere_simplest,
)
from cgtalg.normal.grundy import grundy

__all__ = [
    "MiserePart",
    "misere_parts",
    "misere_is_prime",
    "misere_partitions",
    "misere_is_even",
    "DEFAULT_PARTS_LIMIT",
]

GameLike = Union[Game, MisereCanonicalForm, str]

#: Default work budget of one call (see "Cost and limits" in the module docstring).
DEFAULT_PARTS_LIMIT = 1_000_000

_ONE = nim(1)


# -- budget and arguments ----------------------------------------------------------------------
class _Budget:
    __slots__ = ("left", "limit", "what")

    def __init__(self, limit: int | None, what: str) -> None:
        self.limit = limit
        self.left = limit
        self.what = what

    def spend(self, n: int = 1) -> None:
        if self.left is None:
            return
        self.left -= n
        if self.left < 0:
            raise ComputationLimitError(
                f"{self.what} needs more than limit={self.limit} work units (canonical "
                "sums tested, counterparts built, candidates scanned, partitions listed); "
                "pass a larger limit=, or limit=None for no limit"
            )


def _check_limit(limit: object) -> int | None:
    if limit is None:
        return None
    if isinstance(limit, bool) or not isinstance(limit, int):
        raise ArgumentTypeError(f"limit must be an int or None, got {type(limit).__name__}: "
                                f"{shorten(limit)}")
    if limit < 1:
        raise ArgumentError(f"limit must be at least 1, got {shorten(limit)}")
    return limit


def _canonical(g: object) -> Game:
    """The canonical form of ``g`` (a Game, a MisereCanonicalForm or game text)."""
    if not isinstance(g, (Game, MisereCanonicalForm, str)):
        raise GameKindError(
            "expected an impartial game: a cgtalg Game, a MisereCanonicalForm or game text, "
            f"got {type(g).__name__}: {shorten(g)}"
        )
    return misere_canonical_game(g)


def _short(g: Game) -> str:
    from cgtalg.misere.notation import format_misere

    return format_misere(g, max_chars=60)


# -- parity ------------------------------------------------------------------------------------
_EVEN: dict[int, bool] = register_cache("misere.parts even", {})


def _plus_one(g: Game) -> Game:
    n = g._heap
    if n is not None:
        return nim(n ^ 1)  # *2m + *1 = *(2m+1) in misère play too
    return misere_canonical_sum_game(g, _ONE)


def _is_even(g: Game) -> bool:
    n = g._heap
    if n is not None:
        return n % 2 == 0
    got = _EVEN.get(g._id)
    if got is None:
        other = _plus_one(g)
        got = g.birthday < other.birthday
        _EVEN[g._id] = got
        _EVEN[other._id] = not got
    return got


def _even_part(g: Game) -> Game:
    return g if _is_even(g) else _plus_one(g)


# -- small helpers -------------------------------------------------------------------------------
_OPTION_IDS: dict[int, frozenset[int]] = register_cache("misere.parts option ids", {})


def _has_option(g: Game, h: Game) -> bool:
    """Whether the canonical ``h`` is an option of the canonical ``g`` (O(1) for nim-heaps)."""
    n = g._heap
    if n is not None:
        return h._heap is not None and h._heap < n
    ids = _OPTION_IDS.get(g._id)
    if ids is None:
        ids = frozenset(o._id for o in g._options)
        _OPTION_IDS[g._id] = ids
    return h._id in ids


def _is_unit(g: Game) -> bool:
    return g is zero or g is _ONE


_KEYS: dict[int, tuple] = register_cache("misere.parts keys", {})


def _key(g: Game) -> tuple:
    """A process-independent total order on canonical forms: birthday, number of options,
    CGSuite text (first 200 characters), structural hash."""
    k = _KEYS.get(g._id)
    if k is None:
        from cgtalg.misere.notation import _SKEY, format_misere

        k = (g.birthday, g.num_options, format_misere(g, max_chars=200), fold(g, _SKEY))
        _KEYS[g._id] = k
    return k


# -- the part maps -------------------------------------------------------------------------------
PartMap = dict[int, tuple[Game, Game]]  # id of the part H -> (H, counterpart K)

#: even canonical E (by id) -> its part map
_MAPS: dict[int, PartMap] = register_cache("misere.parts part maps", {})


def _map_of(g: Game, budget: _Budget) -> PartMap:
    """The part map of the canonical ``g`` (from its even part's map if ``g`` is odd)."""
    e = _even_part(g)
    m = _MAPS.get(e._id)
    if m is None:
        m = _even_map(e, budget)
    if e is g:
        return m
    return {i: (h, _plus_one(k)) for i, (h, k) in m.items()}


def _even_map(e: Game, budget: _Budget) -> PartMap:
    """Part maps of the even ``e`` and the even parts of its subpositions, bottom-up and
    iteratively (no recursion limit)."""
    stack = [e]
    while stack:
        x = stack[-1]
        if x._id in _MAPS:
            stack.pop()
            continue
        if x is not zero and (_has_option(x, zero) or _has_option(x, _ONE)):
            # 0 = X' + Y or *1 = X' + Y forces a unit Y, so only the trivial parts (ONAG ch. 12)
            _MAPS[x._id] = _trivial_map(x)
            stack.pop()
            continue
        missing: dict[int, Game] = {}
        for o in x._options:
            d = _even_part(o)
            if d._id not in _MAPS:
                missing[d._id] = d
        if missing:
            stack.extend(missing.values())
            continue
        _MAPS[x._id] = _compute_map(x, budget)
        stack.pop()
    return _MAPS[e._id]


def _trivial_map(e: Game) -> PartMap:
    e1 = _plus_one(e)
    return {zero._id: (zero, e), _ONE._id: (_ONE, e1), e._id: (e, zero), e1._id: (e1, _ONE)}


def _compute_map(e: Game, budget: _Budget) -> PartMap:
    if e is zero:
        return {zero._id: (zero, zero), _ONE._id: (_ONE, _ONE)}
    e1 = _plus_one(e)
    known: PartMap = {}

    def record(x: Game, y: Game) -> None:
        for a, b in ((x, y), (y, x)):
            old = known.get(a._id)
            if old is not None and old[1] is not b:  # pragma: no cover - cancellation theorem
                raise RuntimeError(
                    f"two counterparts of {_short(a)} in {_short(e)}: cancellation failed")
            known[a._id] = (a, b)

    record(zero, e)
    record(_ONE, e1)
    maps = [_map_of(o, budget) for o in e._options]  # e != 0 has options

    universe: dict[int, Game] = {}
    for m in maps:
        for h, _k in m.values():
            universe[h._id] = h
    budget.spend(1 + len(universe))
    ge = grundy(e)
    smallest = min(maps, key=len)

    def fits(x: Game, y: Game) -> bool:  # necessary: every option is x + y' or x' + y
        for m in maps:
            hx = m.get(x._id)
            if hx is not None and _has_option(y, hx[1]):
                continue
            hy = m.get(y._id)
            if hy is not None and _has_option(x, hy[1]):
                continue
            return False
        return True

    # step 2: pairs X, Y both parts of options
    for x in universe.values():
        if _is_unit(x) or x._id in known:
            continue
        gy = ge ^ grundy(x)
        cands: dict[int, Game] = {}
        # smallest option map M: that option is x + y' (y has M[x] as an option) or x' + y
        # (y = M[x'] for an option x' of x)
        for h, k in smallest.values():
            if _has_option(x, h) and k._id in universe:
                cands[k._id] = k
        hx = smallest.get(x._id)
        if hx is not None:
            for y in universe.values():
                if _has_option(y, hx[1]):
                    cands[y._id] = y
        for y in cands.values():
            if _is_unit(y) or grundy(y) != gy or not fits(x, y):
                continue
            budget.spend()
            if misere_canonical_sum_game(x, y) is e:
                record(x, y)
                break  # the counterpart is unique (cancellation)

    # step 3: type-1 parts, to a fixed point
    common = [x for x in universe.values()
              if not _is_unit(x) and all(x._id in m for m in maps)]
    changed = True
    while changed:
        changed = False
        for x in common:
            if x._id in known:
                continue
            xopts = x._options
            if not all(o._id in known for o in xopts):
                continue
            budget.spend()
            y = misere_simplest([m[x._id][1] for m in maps] + [known[o._id][1] for o in xopts])
            if misere_canonical_sum_game(x, y) is e:
                record(x, y)
                changed = True
    return known


def _sorted_pairs(m: PartMap) -> list[tuple[Game, Game]]:
    return sorted(m.values(), key=lambda p: _key(p[0]))


# -- public API --------------------------------------------------------------------------------
@dataclass(frozen=True)
class MiserePart:
    """A part ``H`` of a game ``G`` with its counterpart ``K`` (``G = H + K``, misère equality).

    Unpacks as a pair: ``part, counterpart = p``. ``str`` gives ``"H + K"`` in CGSuite's
    ``*[...]`` notation.

    Attributes
    ----------
    part : MisereCanonicalForm
    counterpart : MisereCanonicalForm
        ``G - H``, unique by cancellation.
    """

    part: MisereCanonicalForm
    counterpart: MisereCanonicalForm

    def __iter__(self) -> Iterator[MisereCanonicalForm]:
        yield self.part
        yield self.counterpart

    @property
    def is_trivial(self) -> bool:
        """True for the parts ``0``, ``*1``, ``G`` and ``G + *1`` (counterpart ``0`` or ``*1``)."""
        return _is_unit(self.part.game) or _is_unit(self.counterpart.game)

    def __str__(self) -> str:
        return f"{self.part} + {self.counterpart}"

    def __repr__(self) -> str:
        from cgtalg.core.display import short

        return f"MiserePart({short(self.part, 90)!r}, {short(self.counterpart, 90)!r})"

    def _repr_html_(self) -> str:
        from cgtalg.core.display import card, short

        return card("misère part H of G = H + K", [("part H", short(self.part, 300)),
                                                   ("counterpart K", short(self.counterpart, 300))], kind="part")

    def _repr_latex_(self) -> str | None:
        from cgtalg.core.latex import math

        a, b = self.part._repr_latex_(), self.counterpart._repr_latex_()
        return None if a is None or b is None else math(f"{a[1:-1]} + {b[1:-1]}")


def misere_is_even(g: GameLike) -> bool:
    """Whether ``g`` is *even*: its canonical form is born before that of ``g + *1``
    (ONAG ch. 12; CGSuite's ``IsEven``). Every game is its even part or that plus ``*1``.

    >>> import cgtalg as cg
    >>> misere_is_even(cg.nim(2)), misere_is_even(cg.nim(3)), misere_is_even("{*2}")
    (True, False, True)
    """
    return _is_even(_canonical(g))


def misere_parts(
    g: GameLike, *, proper: bool = False, even: bool = False,
    limit: int | None = DEFAULT_PARTS_LIMIT,
) -> list[MiserePart]:
    """Every part ``H`` of ``g`` (``g = H + K`` in misère play) with its counterpart ``K``
    (Conway, ONAG ch. 12, "The mate, parts and partitions"; algorithm in the module docstring).

    Parameters
    ----------
    g : Game, MisereCanonicalForm or str
        An impartial game (text is read with :func:`cgtalg.parse`).
    proper : bool
        Leave out the trivial parts ``0``, ``*1``, ``g`` and ``g + *1``.
    even : bool
        Keep only even parts (one of each pair ``H``, ``H + *1``). ``proper=True, even=True``
        gives CGSuite's ``Parts``.
    limit : int or None
        Work budget (module docstring); ``None`` for no limit.

    Returns
    -------
    list of MiserePart
        Sorted by the part (birthday, number of options, text). Each part appears once, with
        its counterpart (unique by cancellation).

    Raises
    ------
    TypeError
        If ``g`` is not a game, canonical form or game text, or ``limit`` is not an int.
    GameNotationError
        If ``g`` is text that cannot be parsed.
    ComputationLimitError
        If the search needs more than ``limit`` work units.

    Examples
    --------
    >>> import cgtalg as cg
    >>> [str(p) for p in misere_parts(cg.nim(2))]
    ['*[0] + *[2]', '*[1] + *[3]', '*[2] + *[0]', '*[3] + *[1]']
    >>> [str(p) for p in misere_parts("{*2}", proper=True, even=True)]
    ['*[2] + *[2[#1]2#0]', '*[2[#1]2#0] + *[2]']
    """
    c = _canonical(g)
    budget = _Budget(_check_limit(limit), f"the parts of {_short(c)}")
    out = []
    for h, k in _sorted_pairs(_map_of(c, budget)):
        if proper and (_is_unit(h) or _is_unit(k)):
            continue
        if even and not _is_even(h):
            continue
        out.append(MiserePart(MisereCanonicalForm._wrap(h), MisereCanonicalForm._wrap(k)))
    return out


def _prime(g: Game, budget: _Budget) -> bool:
    return not _is_unit(g) and len(_map_of(g, budget)) == 4


def misere_is_prime(g: GameLike, *, limit: int | None = DEFAULT_PARTS_LIMIT) -> bool:
    """Whether ``g`` is prime: not ``0`` or ``*1``, and its only parts are ``0``, ``*1``, ``g``
    and ``g + *1`` (ONAG ch. 12; CGSuite's ``IsPrime``). ``g`` is prime exactly when ``g + *1``
    is, so ``*2`` and ``*3`` are both prime.

    Raises ``TypeError`` for a non-game, :class:`~cgtalg.errors.ComputationLimitError` past
    ``limit``.

    >>> import cgtalg as cg
    >>> misere_is_prime(cg.nim(2)), misere_is_prime(cg.nim(3)), misere_is_prime(cg.nim(1))
    (True, True, False)
    >>> misere_is_prime("{*2}"), misere_is_prime(cg.nim(2) + cg.nim(2))
    (False, False)
    """
    c = _canonical(g)
    budget = _Budget(_check_limit(limit), f"deciding whether {_short(c)} is prime")
    return _prime(c, budget)


#: canonical G (by id) -> its partitions (tuples of even primes, then *1 if needed), sorted
_PARTITIONS: dict[int, tuple[tuple[Game, ...], ...]] = register_cache("misere.parts partitions", {})


def _partitions_of(g: Game, budget: _Budget) -> tuple[tuple[Game, ...], ...]:
    got = _PARTITIONS.get(g._id)
    if got is not None:
        return got
    if g is zero:
        return ((),)
    if g is _ONE:
        return ((_ONE,),)
    found: list[tuple[Game, ...]] = []
    for p, rest in _sorted_pairs(_map_of(g, budget)):
        if _is_unit(p) or not _is_even(p) or not _prime(p, budget):
            continue
        kp = _key(p)
        # rest = g - p is a part of g (possibly born after g); the chain g, g - p, ... never
        # repeats (only units add to 0) and g has finitely many parts, so this terminates
        for tail in _partitions_of(rest, budget):
            if tail and tail[0] is not _ONE and _key(tail[0]) < kp:
                continue  # each multiset once: even primes in nondecreasing order
            budget.spend()
            found.append((p,) + tail)
    found.sort(key=lambda t: [_key(x) for x in t])
    result = tuple(found)
    _PARTITIONS[g._id] = result
    return result


def misere_partitions(
    g: GameLike, *, limit: int | None = DEFAULT_PARTS_LIMIT
) -> list[tuple[MisereCanonicalForm, ...]]:
    """Every partition of ``g`` into primes (Conway, ONAG ch. 12).

    A partition is a sorted tuple of *even* primes, followed by ``*1`` when ``g`` is odd, so
    that it sums to ``g`` exactly (CGSuite's ``Partitions`` convention). Primes are defined up
    to the unit ``*1``, so ``*2 + *2 = *3 + *3`` is listed once, as ``(*2, *2)``. ``0`` has the
    single partition ``()`` and ``*1`` the single partition ``(*1,)``. Partitions need not be
    unique (Norton's example below).

    Parameters
    ----------
    g : Game, MisereCanonicalForm or str
    limit : int or None
        Work budget (module docstring); ``None`` for no limit.

    Returns
    -------
    list of tuple of MisereCanonicalForm
        Sorted; the primes of a tuple are in the order (birthday, number of options, text).

    Raises
    ------
    TypeError, GameNotationError, ComputationLimitError
        As for :func:`misere_parts`.

    Examples
    --------
    >>> import cgtalg as cg
    >>> [len(p) for p in misere_partitions("*[4[2#]]")]       # Norton's example (ONAG ch. 12)
    [2, 2]
    >>> [tuple(map(str, p)) for p in misere_partitions(cg.nim(3) + cg.nim(3))]
    [('*[2]', '*[2]')]
    >>> misere_partitions(cg.zero), [tuple(map(str, p)) for p in misere_partitions(cg.nim(3))]
    ([()], [('*[2]', '*[1]')])
    """
    c = _canonical(g)
    budget = _Budget(_check_limit(limit), f"the partitions of {_short(c)}")
    return [tuple(MisereCanonicalForm._wrap(x) for x in p) for p in _partitions_of(c, budget)]
