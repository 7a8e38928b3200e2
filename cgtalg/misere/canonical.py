"""Misère canonical (simplest) forms of impartial games.

Two impartial games are *misère equal*, ``G = H``, when ``o⁻(G + X) = o⁻(H + X)`` for every
impartial game ``X`` (``o⁻`` is the misère outcome). Conway showed that every class has a unique
*simplest form* (On Numbers and Games, ch. 12, "How to lose when you must"; Winning Ways ch. 13;
Siegel, *Combinatorial Game Theory*, §V.3, the "misère canonical form"), so misère equality
of two games is identity of their simplest forms.

The simplification rule (Conway, ONAG ch. 12; Siegel CGT §V.3; notes/misere.md)
----------------------------------------------------------------------------
Let ``G = {S}`` and let ``H`` be a game with

1. ``opts(H) ⊊ S`` (every option of ``H`` is an option of ``G``, and ``G`` has more);
2. every ``X ∈ S \\ opts(H)`` has ``H`` as an option (the move to ``X`` *reverses* through ``H``);
3. the proviso: if ``H = 0`` then some ``X ∈ S`` is a misère P-position (equivalently
   ``o⁻(G) = o⁻(H)``; for ``H ≠ 0`` this holds automatically).

Then ``G = H``, and we say ``H`` *reduces* ``G``. By condition 2, ``H`` is an option of an option
of ``G``, so the candidates are the options of options. A game none of whose options of options
reduces it, and whose options are all in simplest form, is in simplest form; two simplest forms
are equal only if they are identical (Conway, ONAG ch. 12; Siegel CGT §V.3).

Why one bottom-up pass gives the simplest form (no iteration)
-------------------------------------------------------------
The computation is one :class:`~cgtalg.core.fold.Evaluator` (``"misere_canonical"``) over the
form's DAG, memoised on form ids. When ``G = {S}`` is combined, its options have already been
replaced by their simplest forms (misère equality is a congruence: replacing options by equal
games gives an equal game), and simplest forms are hash-consed, so equal options are *identical*
objects and duplicates are removed by identity. Then:

* if some ``H`` reduces ``{S}``, the answer is ``H`` itself. ``H`` is an option of an option of
  simplest forms, hence a subposition of a simplest form, hence simplest: nothing is left to
  reverse, and the procedure need not be iterated. (Unlike normal-play partizan canonical
  forms, where reversing replaces one *option* by the options of a reversing position and those
  may reverse again, the misère rule replaces the *whole game* by an already-simplest ``H``.)
* otherwise ``{S}`` has simplest options and no reducing ``H``: it is in simplest form.

At most one candidate can reduce ``{S}``: two reducing candidates ``H₁, H₂`` would both equal
``{S}``, hence each other, and as distinct simplest forms they cannot be equal. (The census
relies on this; the tests check it on every subset of the day-3 games and on thousands of
subsets of the day-4 games, and the day-5 kernel counts the multiply-reducible masks, which
must be zero.)

Sums: misère equality is a congruence for ``+`` too, so the evaluator's ``add`` computes the
canonical form of ``A + B`` from the canonical forms of ``A`` and ``B`` (memoised on id pairs of
canonical forms) without walking the literal sum.
"""

from __future__ import annotations

import html
from typing import Iterable, Sequence, Union

from cgtalg.caches import register_cache
from cgtalg.core.fold import Evaluator, evaluator, fold
from cgtalg.core.game import Game, game, nim, sum_fold
from cgtalg.core.partizan import PartizanGame, to_impartial
from cgtalg.errors import GameKindError, shorten
from cgtalg.misere.outcome import misere_grundy as _misere_grundy_of

__all__ = [
    "MisereCanonicalForm",
    "misere_canonical",
    "misere_canonical_game",
    "misere_canonical_sum",
    "misere_canonical_sum_game",
    "misere_equal",
    "misere_simplest",
    "reducing_candidates",
]

GameLike = Union[Game, "MisereCanonicalForm", str]


# -- the reduction rule -------------------------------------------------------------------
def _dedupe(options: Iterable[Game]) -> list[Game]:
    out: list[Game] = []
    seen: set[int] = set()
    for o in options:
        if o._id not in seen:
            seen.add(o._id)
            out.append(o)
    return out


def _reducers(opts: list[Game], first_only: bool) -> list[Game]:
    """The candidates ``H`` (options of options) that reduce ``{opts}``; see the module doc.

    Condition 2 is checked by counting: an option of ``H`` is born before ``H`` and so never has
    ``H`` as an option, hence ``S \\ opts(H) ⊆ B_H`` iff exactly ``|S| - |opts(H)|`` members of
    ``S`` have ``H`` as an option. One pass over the options of options gives those counts.
    """
    if any(x._heap is not None and x._heap > _SMALL_ATOM for x in opts):
        return _reducers_with_atoms(opts, first_only)
    n = len(opts)
    counts: dict[int, int] = {}
    candidates: list[Game] = []
    for x in opts:
        for h in x._options:
            c = counts.get(h._id)
            if c is None:
                counts[h._id] = 1
                candidates.append(h)
            else:
                counts[h._id] = c + 1
    if not candidates:
        return []
    return _reducing(opts, candidates, counts, {o._id for o in opts}, None, first_only)


def _reducing(opts: list[Game], candidates: list[Game], counts: dict[int, int], ids: set[int],
              heap_bound: int | None, first_only: bool) -> list[Game]:
    """The candidates ``H`` that satisfy the three conditions, given ``counts[H]`` = the members
    of ``S = opts`` having ``H`` as an option. ``heap_bound``: when given, an atom ``*k`` has
    all its options in ``S`` iff ``k <= heap_bound`` (the mex of the heap sizes in ``S``), so its
    options are never listed."""
    n = len(opts)
    found: list[Game] = []
    has_p: bool | None = None
    for h in candidates:
        k = h.num_options
        # (1) opts(H) is a proper subset of S, and (2) the rest of S all have H as an option
        if k >= n or counts[h._id] != n - k:
            continue
        if heap_bound is not None and h._heap is not None:
            if h._heap > heap_bound:  # *0..*(k-1) not all options of G
                continue
        elif any(o._id not in ids for o in h._options):
            continue
        # (3) proviso for H = 0: some X in S is a misère P-position
        if k == 0:
            if has_p is None:
                has_p = any(_misere_grundy_of(y) == 0 for y in opts)
            if not has_p:
                continue
        found.append(h)
        if first_only:
            return found
    return found


#: Options that are nim-heaps above this size are never listed by the reduction rule.
_SMALL_ATOM = 32


def _reducers_with_atoms(opts: list[Game], first_only: bool) -> list[Game]:
    """:func:`_reducers` for option sets containing nim-heap atoms, without listing their options.

    The options of an atom ``*m`` are ``*0..*(m-1)``, so candidates and counts are known in
    closed form. Let ``A`` be the heap sizes among the options ``S`` and ``c = mex(A)``. An atom
    ``H = *k`` satisfies condition 1 only if ``*0..*(k-1)`` are all in ``S`` (``k <= c``), and
    then condition 2 needs ``*k`` in every other member of ``S``: each ``*j`` with ``j > k`` has
    it, ``*k`` itself never does. So the atom candidates are ``*k`` for ``k <= c``, with count
    (members of ``S`` having ``*k`` as an option) = the non-atom members having it + the heaps
    ``j > k`` in ``A``. A non-atom candidate is an option of a non-atom member only (atoms have
    atom options), counted over the non-atom members as in :func:`_reducers`.
    """
    n = len(opts)
    ids = {o._id for o in opts}
    heaps = sorted(x._heap for x in opts if x._heap is not None)
    top = heaps[-1]
    c = 0
    for a in heaps:
        if a == c:
            c += 1
        elif a > c:
            break
    counts: dict[int, int] = {}
    candidates: list[Game] = []
    for x in opts:
        if x._heap is not None:
            continue
        for h in x._options:
            got = counts.get(h._id)
            if got is None:
                counts[h._id] = 1
                candidates.append(h)
            else:
                counts[h._id] = got + 1
    # atom candidates *k with k <= c that are options of some option (k < top, or listed above)
    import bisect

    for k in range(min(c, n) + 1):
        h = nim(k)
        above = len(heaps) - bisect.bisect_right(heaps, k)
        if k >= top and h._id not in counts:
            continue
        if h._id not in counts:
            candidates.append(h)
        counts[h._id] = counts.get(h._id, 0) + above
    return _reducing(opts, candidates, counts, ids, c, first_only)


def reducing_candidates(options: Iterable[Game]) -> list[Game]:
    """All games ``H`` that reduce ``{options}`` by Conway's misère simplification rule.

    ``options`` must be misère canonical forms (e.g. from :func:`misere_canonical_game`).
    By the uniqueness of simplest forms the list has at most one element; it is exposed so that
    this fact can be checked (the day-``n`` census counts depend on it).

    Parameters
    ----------
    options : iterable of Game
        Canonical forms; duplicates are merged.

    Returns
    -------
    list of Game
        The reducing candidates among the options of options, in the order found.

    Examples
    --------
    >>> import cgtalg as cg
    >>> reducing_candidates([cg.nim(1)]) == [cg.zero]      # {*1} = 0
    True
    >>> reducing_candidates([cg.nim(2)])                     # {*2} is a new game
    []
    """
    opts = _dedupe(_check_game(o, "option") for o in options)
    return _reducers(opts, first_only=False)


def misere_simplest(options: Iterable[Game]) -> Game:
    """The misère simplest form of ``{options}``, given options already in simplest form.

    This is the combine step of the canonical-form fold: merge duplicate options (equal
    canonical forms are identical objects) and return the reducing candidate ``H`` if there is
    one (Conway, ONAG ch. 12; Siegel CGT V.3), else the game with those options.

    Parameters
    ----------
    options : iterable of Game
        Misère canonical forms. (Passing non-canonical forms gives a game equal to
        ``{options}`` that need not be simplest.)

    Returns
    -------
    Game
        The canonical form of ``{options}``.

    Examples
    --------
    >>> import cgtalg as cg
    >>> misere_simplest([cg.zero, cg.nim(2)]) is cg.nim(1)   # {0, *2} = *1
    True
    """
    opts = _dedupe(_check_game(o, "option") for o in options)
    hit = _reducers(opts, first_only=True)
    if hit:
        return hit[0]
    return game(opts)


def _combine(g: Game, option_values: Sequence[Game]) -> Game:
    opts = _dedupe(option_values)
    hit = _reducers(opts, first_only=True)
    if hit:
        return hit[0]
    if len(opts) == len(g._options) and all(a is b for a, b in zip(opts, g._options)):
        return g  # already canonical: same options, no reduction
    return game(opts)


# -- canonical sums on id pairs ------------------------------------------------------------
_SUMS: dict[tuple[int, int], Game] = register_cache("misere.canonical sums", {})


def misere_canonical_sum_game(a: Game, b: Game) -> Game:
    """The misère canonical form (a :class:`Game`) of ``a + b`` for forms ``a``, ``b`` that are
    already misère canonical.

    The options ``a'+b``, ``a+b'`` are made canonical recursively, then
    :func:`misere_simplest` reduces them (misère equality is a congruence for ``+``: ONAG
    ch. 12, Siegel CGT V.2). Iterative, memoised on id pairs. The arguments are not checked:
    pass canonical forms (:func:`misere_canonical_game`), or use :func:`misere_canonical_sum`,
    which accepts any forms.

    Examples
    --------
    >>> import cgtalg as cg
    >>> misere_canonical_sum_game(cg.star, cg.star) is cg.zero     # * + * = 0 (ONAG ch. 12)
    True
    """
    return sum_fold(a, b, _SUMS, _simplest_of_canonical)


#: Deprecated private spelling of :func:`misere_canonical_sum_game`, kept while
#: ``cgtalg/rulesets/heaps/genus.py`` imports it.


def _simplest_of_canonical(opts: list[Game]) -> Game:
    opts = _dedupe(opts)
    found = _reducers(opts, first_only=True)
    return found[0] if found else game(opts)


#: The misère canonical form evaluator (values are canonical :class:`Game` forms), registered
#: under the name ``"misere_canonical"`` like the Grundy evaluators.
MISERE_CANONICAL: Evaluator[Game] = evaluator(
    "misere_canonical", add=misere_canonical_sum_game, atom=nim
)(_combine)  # *n is canonical (ONAG ch. 12: no option of an option of *n reduces it)


# -- argument checks -----------------------------------------------------------------------
def _check_game(g: object, what: str = "game") -> Game:
    if isinstance(g, Game):
        return g
    if isinstance(g, MisereCanonicalForm):
        return g._game
    if _is_partizan(g):  # impartial in partizan notation ({*|*}) answers; others are refused
        return to_impartial(g, f"{what} (misère play of impartial games)")  # type: ignore[arg-type]
    raise GameKindError(f"{what} must be a cgtalg Game, got {type(g).__name__}: {shorten(g)}")


def _as_game(g: object) -> Game:
    """An impartial form from a form, a misère canonical form or game text; a partizan form is
    answered when it is impartial written in partizan notation, and refused otherwise."""
    if isinstance(g, str):
        from cgtalg.core.notation import parse

        g = parse(g)
    if isinstance(g, (Game, MisereCanonicalForm)) or _is_partizan(g):
        return _check_game(g, "the game")
    raise GameKindError(f"expected a cgtalg Game, a MisereCanonicalForm or game text, got "
                        f"{type(g).__name__}: {shorten(g)}")


def _is_partizan(g: object) -> bool:
    return isinstance(g, PartizanGame)


# -- public API ----------------------------------------------------------------------------
def misere_canonical_game(g: GameLike) -> Game:
    """The misère canonical (simplest) form of ``g`` as a :class:`Game`.

    Parameters
    ----------
    g : Game, MisereCanonicalForm or str
        The game (text is read with :func:`cgtalg.parse`).

    Returns
    -------
    Game
        The unique simplest form misère-equal to ``g`` (ONAG ch. 12; Siegel CGT V.3).

    Raises
    ------
    TypeError
        If ``g`` is not a game, canonical form or text.
    GameNotationError
        If ``g`` is text that cannot be parsed.

    Examples
    --------
    >>> import cgtalg as cg
    >>> misere_canonical_game(cg.nim(2) + cg.nim(1)) is cg.nim(3)
    True
    """
    if isinstance(g, MisereCanonicalForm):
        return g._game
    return fold(_as_game(g), MISERE_CANONICAL)


def misere_canonical(g: GameLike) -> "MisereCanonicalForm":
    """The misère canonical form of ``g`` (Conway's simplest form).

    Parameters
    ----------
    g : Game, MisereCanonicalForm or str
        The game (text is read with :func:`cgtalg.parse`).

    Returns
    -------
    MisereCanonicalForm
        Interned: equal games give the *same* object.

    Raises
    ------
    TypeError
        If ``g`` is not a game, canonical form or text.
    GameNotationError
        If ``g`` is text that cannot be parsed.

    Examples
    --------
    >>> import cgtalg as cg
    >>> str(misere_canonical(cg.nim(2) + cg.nim(2)))
    '*[2[2]]'
    >>> str(misere_canonical("{0, *2}")), str(misere_canonical("{*2}"))
    ('*[1]', '*[2#]')
    """
    if isinstance(g, MisereCanonicalForm):
        return g
    return MisereCanonicalForm._wrap(misere_canonical_game(g))


def misere_canonical_sum(a: GameLike, b: GameLike) -> "MisereCanonicalForm":
    """The canonical form of the disjunctive sum ``a + b``.

    Computed from the canonical forms of ``a`` and ``b`` by the option recursion
    ``(a + b)' ∈ {a' + b, a + b'}`` on canonical forms, memoised on id pairs (misère equality
    is a congruence for ``+``: ONAG ch. 12, Siegel CGT V.2).

    Examples
    --------
    >>> import cgtalg as cg
    >>> misere_canonical_sum(cg.nim(1), cg.nim(1)) == misere_canonical(cg.zero)
    True
    """
    ca = misere_canonical_game(a)
    cb = misere_canonical_game(b)
    return MisereCanonicalForm._wrap(misere_canonical_sum_game(ca, cb))


def misere_equal(g: GameLike, h: GameLike) -> bool:
    """Whether ``g`` and ``h`` are misère equal (``o⁻(g+X) = o⁻(h+X)`` for all impartial ``X``).

    Decided by identity of the canonical forms (ONAG ch. 12; Siegel CGT §V.3).

    Examples
    --------
    >>> import cgtalg as cg
    >>> misere_equal(cg.nim(1) + cg.nim(1), cg.zero), misere_equal(cg.nim(2) + cg.nim(2), cg.zero)
    (True, False)
    """
    return misere_canonical_game(g) is misere_canonical_game(h)


class MisereCanonicalForm:
    """A misère canonical (simplest) form: an immutable, interned wrapper of a canonical Game.

    ``MisereCanonicalForm(g)`` is the canonical form of any game ``g`` (same as
    :func:`misere_canonical`). Equality and hash are by the canonical game's id, so two
    wrappers are equal exactly when the games are misère equal; wrappers are interned, so equal
    forms are the same object. ``str`` gives CGSuite's ``*[...]`` notation
    (:func:`cgtalg.misere.notation.format_misere`).

    Attributes
    ----------
    game : Game
        The canonical form.
    options : tuple of MisereCanonicalForm
        Its options (themselves canonical).
    birthday : int
        The birthday of the canonical form (the least birthday of a game in the class).
    misere_outcome : str
        ``'P'`` or ``'N'``.
    misere_grundy : int
        The misère Grundy value (ONAG ch. 12).
    """

    __slots__ = ("_game", "__weakref__")
    _INTERN: dict[int, "MisereCanonicalForm"] = {}

    _game: Game

    def __new__(cls, g: GameLike) -> "MisereCanonicalForm":
        return misere_canonical(g)

    @classmethod
    def _wrap(cls, canonical: Game) -> "MisereCanonicalForm":
        found = cls._INTERN.get(canonical._id)
        if found is None:
            found = object.__new__(cls)
            object.__setattr__(found, "_game", canonical)
            cls._INTERN[canonical._id] = found
        return found

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("MisereCanonicalForm is immutable")

    def __reduce__(self):
        return (misere_canonical, (self._game,))

    # -- structure -------------------------------------------------------------------------
    @property
    def game(self) -> Game:
        """The canonical form as a :class:`Game`."""
        return self._game

    @property
    def options(self) -> tuple["MisereCanonicalForm", ...]:
        """The options of the canonical form (each canonical)."""
        return tuple(MisereCanonicalForm._wrap(o) for o in self._game._options)

    @property
    def birthday(self) -> int:
        """Birthday of the canonical form."""
        return self._game.birthday

    @property
    def misere_outcome(self) -> str:
        """``'P'`` or ``'N'``: the misère outcome class."""
        return "P" if _misere_grundy_of(self._game) == 0 else "N"

    @property
    def misere_grundy(self) -> int:
        """The misère Grundy value (1 for 0, else mex of the options' values)."""
        return _misere_grundy_of(self._game)

    def nim_heap_size(self) -> int | None:
        """``n`` if this canonical form is the nim-heap ``*n``, else None."""
        return self._game.nim_heap_size()

    # -- algebra ---------------------------------------------------------------------------
    def __add__(self, other: object) -> "MisereCanonicalForm":
        if not isinstance(other, (MisereCanonicalForm, Game)):
            return NotImplemented
        return misere_canonical_sum(self, other)

    def __radd__(self, other: object) -> "MisereCanonicalForm":
        if isinstance(other, int) and not isinstance(other, bool) and other == 0:
            return self  # so that sum([...]) works
        return self.__add__(other)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, MisereCanonicalForm):
            return self._game is other._game
        return NotImplemented

    def __hash__(self) -> int:
        return self._game._id

    # -- display ---------------------------------------------------------------------------
    def __str__(self) -> str:
        # The *[...] text can be exponentially longer than the form's DAG (*16+*16+*16 has 329
        # subpositions): past STR_LIMIT characters str() is cut with "..."; format_misere() and
        # cgtalg.core.notation.game_to_json(form.game) give everything.
        from cgtalg.core.notation import STR_LIMIT
        from cgtalg.misere.notation import format_misere

        return format_misere(self, max_chars=STR_LIMIT)

    def __repr__(self) -> str:
        from cgtalg.misere.notation import format_misere

        return f"MisereCanonicalForm({format_misere(self, max_chars=200)!r})"

    def _repr_latex_(self) -> str | None:
        """CGSuite's ``*[...]`` text with ``#`` and ``[k]`` as subscripts (``*[2_{\\#}1]``);
        None for a long text."""
        from cgtalg.core.latex import LATEX_LIMIT, math, misere_latex
        from cgtalg.misere.notation import format_misere

        return math(misere_latex(format_misere(self, max_chars=LATEX_LIMIT)))

    def _repr_html_(self) -> str:
        from cgtalg.core.notation import format_game
        from cgtalg.misere.notation import format_misere
        from cgtalg.normal.grundy import grundy

        rows = [
            ("misère canonical form", format_misere(self, max_chars=300)),
            ("as a literal form", format_game(self._game, max_chars=300)),
            ("birthday", self.birthday),
            ("misère Grundy value", f"{self.misere_grundy} ({self.misere_outcome}-position in misère play)"),
            ("normal Grundy value", grundy(self._game)),
        ]
        body = "".join(
            f"<tr><th style='text-align:left'>{html.escape(str(k))}</th>"
            f"<td><code>{html.escape(str(v))}</code></td></tr>"
            for k, v in rows
        )
        return f"<table>{body}</table>"

