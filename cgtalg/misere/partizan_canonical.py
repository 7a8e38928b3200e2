"""Reduced (canonical) forms of partizan games in the misère dicot and dead-ending universes
(and, by :mod:`cgtalg.misere.partizan_simplest`, simplest forms among all partizan games).

Modulo the dicots ``D`` and modulo the dead-ending games ``E`` every game has a unique reduced
form (Dorbec, Renault, Siegel and Sopena, *Dicots, and a taxonomy of ranks for misère games*,
JCTA 2015, for ``D``; Larsson, Milley, Nowakowski, Renault and Santos, *Progress on misère dead
ends*, arXiv 1807.11297, for ``E``, "solving the problem of reversibility through ends").
:func:`partizan_misere_canonical_form` reduces bottom-up (options first), with comparisons from
:mod:`cgtalg.misere.partizan`, applying until none applies:

* **dominated options** are removed: a Left option ``G^L1 ≤_U G^L2``, a Right option
  ``G^R1 ≥_U G^R2``;
* **reversible options** are bypassed: a Left option ``G^L1`` with a Right option
  ``X = G^L1R1 ≤_U G`` is replaced by the Left options of ``X`` (dually for Right) — when ``X``
  is *not* a Left end (Maintenance and Proviso show the result equals ``G``);
* **options reversible through an end** ``X`` (a Left end with ``X ≤_U G``; bypassing would just
  delete the move): all such options of both players are deleted at once if the result stays
  in ``U`` and equals ``G``; else one is deleted if the rest stays in ``U`` and is still
  Left-strong (exactly the condition for the deletion to keep the value); else it is replaced
  by an *atom*: ``* = {0 | 0}`` among dicots (``0`` is the only end), and among dead-ending
  games ``{ | X*}`` for the simplest Left dead end ``X* ≤_U G`` (first by birthday, then by
  number of options, then by text). Any option ``{ | X}`` with ``X`` a Left dead end
  ``≤_U G`` keeps the value: it reverses through ``X``, and a Left move to it leaves Right a
  non-zero dead end to move in, so the game stays Left-strong. The choice of ``X*`` depends
  only on the value of ``G``; it is needed because, e.g., ``{A | 1}`` and ``{A | 2}`` can be
  equal with both Right options reversible through ends.

The rules for ends are this library's reading of the cited reductions, not a transcription
(the papers' exact statements were not available when it was written); what is *checked* is
the defining property of a canonical form: the tests verify, on every dicot born by day 3
(1268 values) and on thousands of dead-ending games born by day 3, that the result equals the
input in ``U``, is its own reduced form, and that distinct reduced forms are unequal.

Examples
--------
>>> from cgtalg.core.partizan import nimber, pgame, integer
>>> from cgtalg.core.partizan import literal_text
>>> literal_text(partizan_misere_canonical_form(nimber(1) + nimber(1), "dicot"))
'0'
>>> literal_text(partizan_misere_canonical_form(nimber(2), "dicot"))
'{0, {0 | 0} | 0, {0 | 0}}'
"""

from __future__ import annotations

from typing import Any

from cgtalg.caches import register_cache
from cgtalg.core.partizan import ZERO, PartizanGame, negative, pgame
from cgtalg.errors import ComputationLimitError, UniverseError, shorten
from cgtalg.misere.partizan import _engine
from cgtalg.misere.partizan_outcome import _check_universe, _pg, _require, in_universe, left_strong, right_strong

__all__ = ["partizan_misere_canonical_form", "misere_canonical_form", "is_misere_canonical", "REDUCED_UNIVERSES",
           "DEAD_END_SEARCH_BIRTHDAY"]

#: Universes with a published unique reduced form.
REDUCED_UNIVERSES: tuple[str, ...] = ("dicot", "dead-ending")

_CACHE: dict[str, dict[int, PartizanGame]] = {u: {} for u in REDUCED_UNIVERSES}


def _clear_reduced_forms() -> None:
    for cache in _CACHE.values():
        cache.clear()
    _RIGHT_DEAD_ENDS.clear()


register_cache("misere.partizan reduced forms", _clear_reduced_forms)
_STAR = pgame([ZERO], [ZERO])

#: The largest birthday of the dead ends searched for the canonical replacement of an option
#: reversible through an end (dead-ending universe); beyond it the reduction is refused.
DEAD_END_SEARCH_BIRTHDAY = 4

_RIGHT_DEAD_ENDS: list[list[PartizanGame]] = []  # by birthday, reduced, in canonical order


def _right_dead_ends(b: int) -> list[PartizanGame]:
    """The reduced Right dead ends (``{S | }`` with ``S`` Right dead ends) of birthday ``b``,
    in a fixed order (number of options, then literal text)."""
    from itertools import combinations

    from cgtalg.core.partizan import literal_text

    while len(_RIGHT_DEAD_ENDS) <= b:
        k = len(_RIGHT_DEAD_ENDS)
        if k == 0:
            _RIGHT_DEAD_ENDS.append([ZERO])
            continue
        earlier = [x for level in _RIGHT_DEAD_ENDS for x in level]
        newest = _RIGHT_DEAD_ENDS[k - 1]
        found: dict[int, PartizanGame] = {}
        for r in range(1, len(earlier) + 1):
            for s in combinations(earlier, r):
                if not any(x in newest for x in s):
                    continue
                y = _canonical(pgame(s, []), "dead-ending")
                if y.birthday == k:
                    found.setdefault(y._id, y)
        _RIGHT_DEAD_ENDS.append(sorted(found.values(), key=lambda x: (len(x.left), literal_text(x))))
    return _RIGHT_DEAD_ENDS[b]


def _atom(universe: str, g: PartizanGame, x0: PartizanGame, left: bool) -> PartizanGame:
    """The canonical replacement of an option of ``g`` reversible through the end ``x0``.

    Dicots: ``*`` (``0`` is the only end). Dead-ending: ``{ | X}`` (Left option) for the first
    Left dead end ``X ≤ g`` in the fixed order of :func:`_right_dead_ends` (conjugated), i.e. the
    simplest one; ``{X | }`` for a Right option. Any such ``X`` gives a game equal to ``g`` (its
    option reverses through ``X`` and leaves the opponent a non-zero dead end), so the choice
    depends only on the value of ``g``."""
    if universe == "dicot":
        return _STAR
    ge = _engine(universe).ge
    for b in range(x0.birthday + 1):
        if b > DEAD_END_SEARCH_BIRTHDAY:
            raise ComputationLimitError(
                f"the reduced form needs the simplest dead end below a game, searched only up to "
                f"birthday DEAD_END_SEARCH_BIRTHDAY = {DEAD_END_SEARCH_BIRTHDAY}")
        for r in _right_dead_ends(b):
            x = negative(r) if left else r
            if (ge(g, x) if left else ge(x, g)):
                return pgame([], [x]) if left else pgame([x], [])
    raise AssertionError("the reversing end itself is a valid replacement")  # pragma: no cover


def _strong_without(g: PartizanGame, universe: str, left: bool, drop: PartizanGame) -> PartizanGame | None:
    """``g`` without the option ``drop`` (a Left option if ``left``), when that game is in the
    universe and still strong on that side (then it equals ``g``), else None."""
    if left:
        h = pgame([o for o in g.left if o is not drop], g.right)
        ok = in_universe(h, universe) and left_strong(h, universe)
    else:
        h = pgame(g.left, [o for o in g.right if o is not drop])
        ok = in_universe(h, universe) and right_strong(h, universe)
    return h if ok else None


def _reduce_once(g: PartizanGame, universe: str) -> PartizanGame | None:
    """One reduction step at the top of ``g`` (its options already reduced), or None."""
    e = _engine(universe)
    ge = e.ge
    left, right = list(g.left), list(g.right)
    # dominated options
    for i, a in enumerate(left):
        if any(b is not a and ge(b, a) for b in left):
            return pgame(left[:i] + left[i + 1:], right)
    for i, a in enumerate(right):
        if any(b is not a and ge(a, b) for b in right):
            return pgame(left, right[:i] + right[i + 1:])
    # reversible options: bypass through non-ends, collect those reversible through ends
    end_l: list[tuple[PartizanGame, PartizanGame]] = []
    end_r: list[tuple[PartizanGame, PartizanGame]] = []
    for i, a in enumerate(left):
        for x in a.right:
            if ge(g, x):
                if x.left:
                    return pgame(left[:i] + list(x.left) + left[i + 1:], right)
                end_l.append((a, x))
    for i, a in enumerate(right):
        for x in a.left:
            if ge(x, g):
                if x.right:
                    return pgame(left, right[:i] + list(x.right) + right[i + 1:])
                end_r.append((a, x))
    if not (end_l or end_r):
        return None
    # options reversible through ends: delete them all at once, or one at a time, when the
    # result stays in the universe and equal; otherwise replace each by its canonical atom
    drop_l = {a._id for a, _ in end_l}
    drop_r = {a._id for a, _ in end_r}
    h = pgame([o for o in left if o._id not in drop_l], [o for o in right if o._id not in drop_r])
    if in_universe(h, universe) and ge(g, h) and ge(h, g):
        return h
    for a, _ in end_l:
        h2 = _strong_without(g, universe, True, a)
        if h2 is not None:
            return h2
    for a, _ in end_r:
        h2 = _strong_without(g, universe, False, a)
        if h2 is not None:
            return h2
    for a, x in end_l:
        y = _atom(universe, g, x, True)
        if y is not a:
            return pgame([y if o is a else o for o in left], right)
    for a, x in end_r:
        y = _atom(universe, g, x, False)
        if y is not a:
            return pgame(left, [y if o is a else o for o in right])
    return None


def _canonical(g: PartizanGame, universe: str) -> PartizanGame:
    cache = _CACHE[universe]
    hit = cache.get(g._id)
    if hit is not None:
        return hit
    for x in g.subpositions():  # children first
        if x._id in cache:
            continue
        y = pgame([cache[o._id] for o in x.left], [cache[o._id] for o in x.right])
        while True:
            z = _reduce_once(y, universe)
            if z is None:
                break
            y = z
        cache[x._id] = y
        cache.setdefault(y._id, y)
    return cache[g._id]


def partizan_misere_canonical_form(g: Any, universe: str = "dicot") -> PartizanGame:
    """The reduced (canonical) form of the partizan game ``g`` modulo the misère ``universe``
    — the simplest form for the universe of all games — (for impartial forms in the impartial
    universe: :func:`cgtalg.misere.canonical.misere_canonical`).

    Parameters
    ----------
    g : PartizanGame, Game, int or str
        A form of the universe.
    universe : {"dicot", "dead-ending", "all"}
        ``"all"`` (all partizan games) gives the simplest form of Mesdal-Ottaway and Siegel
        (:func:`cgtalg.misere.partizan_simplest.misere_simplest_form`).

    Returns
    -------
    PartizanGame
        Equal to ``g`` modulo ``universe``; equal games have identical reduced forms.

    Raises
    ------
    ValueError
        For an unknown universe, or a form outside the universe.
    ComputationLimitError
        Dead-ending only: when the simplest dead end below (above) the game is searched beyond
        birthday :data:`DEAD_END_SEARCH_BIRTHDAY` (games of birthday 7 and more may need it).

    Examples
    --------
    >>> from cgtalg.core.partizan import nimber, integer, literal_text
    >>> literal_text(partizan_misere_canonical_form(nimber(1) + nimber(1), "dead-ending"))   # *+* ≠ 0 in E
    '{{0 | 0} | {0 | 0}}'
    >>> partizan_misere_canonical_form(integer(2) + integer(-2), "dead-ending") is integer(0)
    True
    >>> partizan_misere_canonical_form(integer(2) + integer(-2), "all") is integer(0)   # not 0 among all games
    False
    """
    universe = _check_universe(universe)
    if universe == "all":
        from cgtalg.misere.partizan_simplest import misere_simplest_form

        return misere_simplest_form(g)
    if universe not in REDUCED_UNIVERSES:  # pragma: no cover - _check_universe knows three
        raise UniverseError(f"no unique reduced form is implemented for the universe {shorten(universe)}; "
                         f"use one of {', '.join(map(repr, REDUCED_UNIVERSES))} or 'all'")
    x = _pg(g, "g")
    _require(x, universe, "g")
    return _canonical(x, universe)


#: Deprecated name of :func:`partizan_misere_canonical_form` (kept for one release; the
#: impartial misère canonical form is :func:`cgtalg.misere.canonical.misere_canonical`).
misere_canonical_form = partizan_misere_canonical_form


def is_misere_canonical(g: Any, universe: str = "dicot") -> bool:
    """Whether ``g`` is its own reduced form modulo ``universe``."""
    x = _pg(g, "g")
    return partizan_misere_canonical_form(x, universe) is x
