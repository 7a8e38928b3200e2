"""Values: canonical forms, and the value-level properties of each theory.

- :func:`canonical_form` in normal play (every kind) or misère play in a universe (impartial,
  dicot, dead-ending, all games);
- impartial only: :func:`grundy`, :func:`misere_grundy`, :func:`genus`;
- partizan normal play (impartial games taken as the partizan games they are):
  :func:`left_stop`, :func:`right_stop`, :func:`mean`, :func:`temperature`, :func:`thermograph`,
  :func:`atomic_weight`, :func:`cool`, :func:`number_value`.

A question with no answer for the kind given (the Grundy value of ``{0|}``) raises
:class:`cgtalg.errors.GameKindError` naming what does answer.
"""

from __future__ import annotations

from typing import Any, Hashable

from cgtalg.core.game import Game, nim
from cgtalg.core.partizan import PartizanGame, from_impartial, pgame
from cgtalg.errors import UniverseError, shorten
from cgtalg.ops.kinds import (
    Position,
    as_impartial,
    as_partizan_game,
    check_universe,
    finite_nimber_value,
    heap_sum_positions,
    kind_of,
    read,
    refuse,
    refuse_end_rule,
)

__all__ = [
    "grundy", "misere_grundy", "genus", "canonical_form", "left_stop", "right_stop", "mean",
    "temperature", "thermograph", "atomic_weight", "cool", "number_value", "literal_form",
]


def _transfinite(x: Any, kind: str) -> bool:
    return kind == "nimber" and finite_nimber_value(x) is None


def _impartial_position(x: Position, operation: str) -> None:
    """Refuse a position of a partizan ruleset or of one with its own end rule."""
    if x.is_partizan or x.has_end_rule:
        as_impartial(x, operation)  # raises the named refusal


def grundy(g: Any, *, store: Any = None) -> Any:
    """The Grundy value (nim-value) of an impartial game in normal play.

    Impartial forms, impartial games in partizan notation (``{*|*}``), positions of impartial
    rulesets (heap games from a certified period), misère canonical forms (the value is an
    invariant of the misère class) and nimbers (``*α`` has value ``α``). Partizan games have
    none: :class:`~cgtalg.errors.GameKindError`.

    Examples
    --------
    >>> import cgtalg as cg
    >>> cg.grundy("{*2, *3}"), cg.grundy(cg.position("0.77", 5, 10))   # Kayles: 4 ⊕ 2
    (0, 6)

    Text that is a sum of heap-game positions (``"kayles(30) + grundy(40)"``) is answered
    from the rulesets' Grundy values by the XOR rule, without building its form
    (:func:`cgtalg.ops.kinds.heap_sum_positions`).
    """
    parts = heap_sum_positions(g)
    if parts is not None:
        value = 0
        for p in parts:
            value ^= grundy(p, store=store)
        return value
    x = read(g)
    kind = kind_of(x, "grundy")
    if _transfinite(x, kind):
        return x
    if kind == "position":
        _impartial_position(x, "grundy")
        if x.is_heap_position:
            return x.ruleset.nim_value(list(x.value))
        from cgtalg.rulesets.solver import solve

        return solve(x.ruleset, x.value, False, store=store).value
    from cgtalg.normal.grundy import grundy as form_grundy

    value = form_grundy(as_impartial(x, "grundy"))
    return type(x)(value) if kind == "nimber" else value


def misere_grundy(g: Any, *, store: Any = None, max_seconds: float | None = None) -> Any:
    """The misère Grundy value of an impartial game (the Grundy value of the game in misère
    play: ``0`` exactly at misère P-positions; ONAG ch. 12). Same kinds as :func:`grundy`.

    Examples
    --------
    >>> import cgtalg as cg
    >>> cg.misere_grundy("*2+*2"), cg.misere_grundy(cg.position("0.77", 4))
    (0, 0)
    """
    x = read(g)
    kind = kind_of(x, "misere_grundy")
    if _transfinite(x, kind):
        return x  # *α, α ≥ ω: the options are every *β, β < α, as in normal play
    if kind == "misere class":
        return x.misere_grundy
    if kind == "position":
        _impartial_position(x, "misere_grundy")
        if x.is_heap_position:
            return x.ruleset.misere_grundy_value(list(x.value), store=store, max_seconds=max_seconds)
        from cgtalg.rulesets.solver import solve

        return solve(x.ruleset, x.value, True, store=store).value
    from cgtalg.misere.outcome import misere_grundy as form_misere_grundy

    value = form_misere_grundy(as_impartial(x, "misere_grundy"))
    return type(x)(value) if kind == "nimber" else value


def genus(g: Any, convention: str = "classical", *, store: Any = None) -> Any:
    """The genus of an impartial game (Conway, ONAG ch. 12; Winning Ways ch. 13):
    :class:`cgtalg.Genus`, printed ``0^120`` in the classical convention. Heap positions use the
    ruleset's stored genus sequence; misère canonical forms give their class's genus.

    Examples
    --------
    >>> import cgtalg as cg
    >>> str(cg.genus("{*2}")), str(cg.genus(cg.position("0.77", 4)))
    ('0^02', '1^031')
    """
    x = read(g)
    kind = kind_of(x, "genus")
    if kind == "position":
        _impartial_position(x, "genus")
        if x.is_heap_position:
            return x.ruleset.genus(list(x.value), convention=convention, store=store)
    if kind == "misere class":
        x = x.game
    from cgtalg.misere.genus import genus as form_genus

    return form_genus(as_impartial(x, "genus"), convention=convention)


# -- canonical forms ---------------------------------------------------------------------------
def literal_form(p: Position) -> Any:
    """The literal form of a ruleset position, every option kept: an impartial :class:`Game`
    for an impartial ruleset, a :class:`PartizanGame` for a partizan one (what misère questions
    need; :func:`cgtalg.rulesets.partizan.games.partizan_form` gives the normal-play canonical
    form instead, which misère play may not use)."""
    if not p.is_partizan:
        return as_impartial(p, "literal_form")
    refuse_end_rule(p, "literal_form")
    from cgtalg.rulesets.protocol import player_moves

    rs = p.ruleset
    memo: dict[Hashable, PartizanGame] = {}
    stack: list[tuple[Hashable, bool]] = [(p.value, False)]
    on_path: set[Hashable] = set()
    while stack:
        pos, done = stack.pop()
        if done:
            on_path.discard(pos)
            memo[pos] = pgame([memo[o] for o in player_moves(rs, pos, "L")],
                              [memo[o] for o in player_moves(rs, pos, "R")])
            continue
        if pos in memo:
            continue
        if pos in on_path:
            from cgtalg.errors import LoopyGameError

            raise LoopyGameError(f"{rs.name}: position {pos!r} repeats; cgtalg handles short games")
        on_path.add(pos)
        stack.append((pos, True))
        for o in (*player_moves(rs, pos, "L"), *player_moves(rs, pos, "R")):
            if o not in memo:
                stack.append((o, False))
    return memo[p.value]


def canonical_form(g: Any, *, misere: bool = False, universe: str | None = None,
                   max_seconds: float | None = None) -> Any:
    """The canonical (simplest) form of a game.

    Normal play: the nim-heap ``*n`` of an impartial game (``n`` its Grundy value), the
    canonical form of a partizan game (dominated options removed, reversible ones bypassed).
    Misère play, by ``universe``: ``"impartial"`` (the default for impartial games) gives the
    misère canonical form :class:`cgtalg.MisereCanonicalForm` (``*[2#]``); ``"dicot"`` and
    ``"dead-ending"`` give the reduced form of a partizan game in that universe (impartial games
    belong to both); ``"all"`` (also ``"full"``, the default for partizan games) gives the
    simplest form among all partizan games (Mesdal and Ottaway 2007, Siegel 2015:
    :func:`cgtalg.misere.partizan_simplest.misere_simplest_form`), a partizan form.

    The form keeps the kind given where it can: a partizan form for partizan (or
    partizan-notation) input, an impartial form for impartial input.

    ``max_seconds`` bounds the search of a partizan ruleset's position (a Domineering board:
    :func:`cgtalg.rulesets.partizan.games.partizan_form`); the memory ceiling
    (:func:`cgtalg.budget.default_max_memory`) always applies to it.

    Examples
    --------
    >>> import cgtalg as cg
    >>> str(cg.canonical_form("{*2, *3}")), str(cg.canonical_form("{*2}", misere=True))
    ('0', '*[2#]')
    >>> str(cg.canonical_form("{1|-1} + {1|-1}"))
    '0'
    >>> str(cg.canonical_form("{{|1}|}", misere=True, universe="all"))
    '1'
    """
    if not isinstance(misere, bool):
        raise refuse("canonical_form", g, f"misere must be True or False, not {shorten(misere)}")
    x = read(g, normal_play=not misere)  # misère play needs the literal game the text describes
    kind = kind_of(x, "canonical_form")
    if kind == "loopy":
        return _loopy_canonical(x, misere, universe)
    if not misere:
        if universe is not None:
            raise UniverseError(f"canonical_form({x}): a universe applies to misère play only; "
                                "pass misere=True")
        if kind == "nimber":
            return x  # *α is its own canonical form
        if kind == "partizan" or isinstance(x, PartizanGame):
            from cgtalg.normal.partizan import canonical_form as partizan_canonical

            return partizan_canonical(x)
        if kind == "position" and x.is_partizan:
            return as_partizan_game(x, "canonical_form", max_seconds)
        return nim(grundy(x))
    u = check_universe(universe, (x,), "canonical_form")
    if _transfinite(x, kind):
        raise refuse("canonical_form", x, "misère canonical forms are of short games",
                     ("cgtalg.canonical_form(g) (normal play)",))
    if kind == "position":
        x = literal_form(x)
        kind = kind_of(x, "canonical_form")
    if kind == "misere class":
        if u != "impartial":
            raise refuse("canonical_form", x, f"a misère canonical form stands for a class of "
                         f"the impartial universe, which the {u} universe splits; take the "
                         "canonical form of a game itself")
        return x
    if u == "impartial":
        if kind == "partizan":
            raise refuse("canonical_form", x, "the impartial universe holds impartial games only",
                          ("cgtalg.canonical_form(g, misere=True, universe='dicot')",
                           "cgtalg.canonical_form(g, misere=True, universe='dead-ending')"))
        from cgtalg.misere.canonical import misere_canonical

        return misere_canonical(as_impartial(x, "canonical_form"))
    pg = x if isinstance(x, PartizanGame) else from_impartial(as_impartial(x, "canonical_form"))
    if u == "all":  # Mesdal-Ottaway / Siegel simplest form among all partizan games
        from cgtalg.misere.partizan_simplest import misere_simplest_form

        return misere_simplest_form(pg)
    from cgtalg.misere.partizan_canonical import partizan_misere_canonical_form

    return partizan_misere_canonical_form(pg, u)


def _loopy_canonical(x: Any, misere: bool, universe: Any) -> Any:
    """The canonical stopper of a stopper, or of a game whose onside and offside are equal;
    for the others the sided value ``s & t`` with both sides canonical stoppers (a
    :class:`~cgtalg.core.loopy.Sides` record, as CGSuite simplifies a game to its sides);
    refused in misère play."""
    from cgtalg.ops.kinds import refuse_loopy

    if misere:
        raise refuse_loopy("canonical_form", x, "misère play of loopy games is not defined "
                           "here (loopy games are played in normal play)")
    if universe is not None:
        raise UniverseError(f"canonical_form({x}): a universe applies to misère play only")
    from cgtalg.normal.loopy import is_stopper
    from cgtalg.normal.loopy_simplify import canonical_stopper, loopy_sides

    if is_stopper(x):
        return canonical_stopper(x)
    sides = loopy_sides(x)
    return sides.stopper if sides.stopper is not None else sides


# -- partizan normal-play values ------------------------------------------------------------------
def _partizan(name: str, g: Any) -> PartizanGame:
    return as_partizan_game(g, name)


def left_stop(g: Any) -> Any:
    """Left's stop (Siegel CGT II.3): the number reached when Left moves first and both play
    until a number is reached. Partizan games, and impartial games as partizan games; for a
    stopper, the pseudonumber its play reaches (``over``, ``2under``, ``on``: Winning Ways ch. 11).

    Examples
    --------
    >>> import cgtalg as cg
    >>> cg.left_stop("{3|-1}"), cg.left_stop("*5")
    (Fraction(3, 1), Fraction(0, 1))
    """
    from cgtalg.ops.loopy_more import loopy_game_of

    loopy = loopy_game_of("left_stop", g)
    if loopy is not None:  # a stopper: a pseudonumber (x, x over, x under, on, off)
        from cgtalg.normal.loopy_ops import loopy_left_stop

        return loopy_left_stop(loopy)
    from cgtalg.normal.thermography import left_stop as f

    return f(_partizan("left_stop", g))


def right_stop(g: Any) -> Any:
    """Right's stop (Siegel CGT II.3); see :func:`left_stop`."""
    from cgtalg.ops.loopy_more import loopy_game_of

    loopy = loopy_game_of("right_stop", g)
    if loopy is not None:
        from cgtalg.normal.loopy_ops import loopy_right_stop

        return loopy_right_stop(loopy)
    from cgtalg.normal.thermography import right_stop as f

    return f(_partizan("right_stop", g))


def mean(g: Any) -> Any:
    """The mean value (Winning Ways ch. 6; the mast of the thermograph)."""
    from cgtalg.normal.thermography import mean as f

    return f(_partizan("mean", g))


def temperature(g: Any) -> Any:
    """The temperature (Winning Ways ch. 6; where the thermograph's walls meet the mast)."""
    from cgtalg.normal.thermography import temperature as f

    return f(_partizan("temperature", g))


def thermograph(g: Any) -> Any:
    """The thermograph (:class:`cgtalg.Thermograph`)."""
    from cgtalg.normal.thermography import thermograph as f

    return f(_partizan("thermograph", g))


def cool(g: Any, t: Any) -> Any:
    """The game cooled by ``t`` (Winning Ways ch. 6), a partizan form."""
    from cgtalg.normal.thermography import cool as f

    return f(_partizan("cool", g), t)


def atomic_weight(g: Any) -> Any:
    """The atomic weight ``W`` with ``G ~ W.↑`` (Winning Ways ch. 8; Siegel CGT II.7; CGSuite's
    ``AtomicWeight``): every all-small game has one, and so do some other infinitesimals
    (tinies weigh 0, ``{1|^^||^}`` weighs 2); :class:`~cgtalg.errors.NotAtomicError` names why
    another game has none (not infinitesimal, or infinitesimal but not atomic, such as
    ``{1|^3||^}``). :func:`cgtalg.is_atomic` asks first.

    Examples
    --------
    >>> import cgtalg as cg
    >>> str(cg.atomic_weight("^*")), str(cg.atomic_weight("{0|{0|-1}}"))
    ('1', '0')
    """
    from cgtalg.normal.atomic_weight import atomic_weight as f

    return f(_partizan("atomic_weight", g))


def number_value(g: Any) -> Any:
    """The number a game equals in normal play (a dyadic :class:`fractions.Fraction`), or
    ``None`` when it is not a number (impartial games other than 0 are not numbers)."""
    from cgtalg.normal.partizan import number_value as f

    return f(_partizan("number_value", g))
