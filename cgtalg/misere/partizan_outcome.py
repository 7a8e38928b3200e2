"""Misère outcomes of partizan forms and the universes they are compared in: who wins moving
first (one fold), outcomes of sums by play on pairs, membership of the dicot and dead-ending
universes, strength (Left/Right ends that win moving first), and adjoints (Siegel CGT §V.6).
Comparisons modulo a universe are in :mod:`cgtalg.misere.partizan`."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Literal, Sequence

from cgtalg.caches import register_cache
from cgtalg.core.fold import fold
from cgtalg.core.game import pair_fold
from cgtalg.errors import ArgumentTypeError, GameKindError, UniverseError, shorten
from cgtalg.core.partizan import ZERO, PartizanGame, as_partizan, literal_text, partizan_evaluator, pgame

__all__ = [
    "UNIVERSES",
    "Universe",
    "misere_outcome",
    "misere_first_winners",
    "outcome_ge",
    "misere_sum_outcome",
    "pair_first_winners",
    "reserve_dead_end",
    "is_dicot",
    "is_dead_ending",
    "in_universe",
    "misere_adjoint",
    "left_dead_end",
    "left_strong",
    "right_strong",
    "davies_milley_strong",
]

Universe = Literal["all", "dead-ending", "dicot"]
#: The universes :func:`misere_ge` compares in.
UNIVERSES: tuple[str, ...] = ("all", "dead-ending", "dicot")

#: Where the comparison of each universe comes from (cited by the certificates).
THEOREMS = {
    "all": "Siegel CGT Theorems V.6.15-V.6.16 (seed 002 Theorem 2, Definition 2, Lemma 4)",
    "dead-ending": "Larsson-Milley-Nowakowski-Renault-Santos (arXiv 1807.11297): Maintenance and "
    "Proviso modulo E (Larsson-Nowakowski-Santos, arXiv 1606.01975, Theorem 4)",
    "dicot": "Larsson-Milley-Nowakowski-Renault-Santos (arXiv 1807.11297): Maintenance and "
    "Proviso modulo D (Larsson-Nowakowski-Santos, arXiv 1606.01975, Theorem 4)",
}



# ---------------------------------------------------------------------------------------
# outcomes (one fold: who wins moving first, alone and against a dead-end reserve)
# ---------------------------------------------------------------------------------------
@partizan_evaluator("partizan_misere_play")
def _PLAY(g: PartizanGame, lv: Sequence[tuple[bool, ...]], rv: Sequence[tuple[bool, ...]]) -> tuple[bool, ...]:
    """``(lf, rf, lf_r, rf_r, lf_l, rf_l)``: Left/Right wins moving first in ``g`` alone
    (misère: no move = win); in ``g`` plus an unbounded *Right* reserve (a Left dead end of
    large birthday: at each turn Right may also pass in it or finish it); in ``g`` plus an
    unbounded *Left* reserve (the conjugate situation)."""
    lf = (not lv) or any(not v[1] for v in lv)
    rf = (not rv) or any(not v[0] for v in rv)
    # Right reserve: Left cannot move in it; Right may move in g, pass (stay), or finish (-> g)
    lf_r = (not lv) or any(not v[3] for v in lv)
    rf_r = any(not v[2] for v in rv) or not lf_r or not lf
    # Left reserve
    rf_l = (not rv) or any(not v[4] for v in rv)
    lf_l = any(not v[5] for v in lv) or not rf_l or not rf
    return (lf, rf, lf_r, rf_r, lf_l, rf_l)


def _play_number(x: Any) -> tuple[bool, ...]:
    """:data:`_PLAY` of the canonical form of the number ``x`` without its tree (a compact number,
    :mod:`cgtalg.core.partizan_atoms`): constant from ``x >= 2`` on (``2 = {1 | }`` gives it, and
    a form whose options all have it keeps it: by induction every number ``>= 2``, whose options
    are ``>= 2`` or the integer below it), and its conjugate for ``x <= -2``; for ``|x| < 2`` the
    rule on its options' values (at most ``k + 3`` levels for ``m/2^k``)."""
    if x >= 2:
        return (False, True, False, True, False, True)
    if x <= -2:
        return (True, False, True, False, True, False)
    from cgtalg.core.partizan import dyadic

    g = dyadic(x)
    d = x.denominator
    step = 1 if d == 1 else Fraction(1, d)
    lv = [_play_number(x - step)] if g._left else []
    rv = [_play_number(x + step)] if g._right else []
    return _PLAY.combine(g, lv + rv)


_PLAY.number = _play_number

_OUTCOME = {(True, False): "L", (False, True): "R", (True, True): "N", (False, False): "P"}
_FIRST = {v: k for k, v in _OUTCOME.items()}


def _pg(x: Any, name: str) -> PartizanGame:
    if isinstance(x, str):
        try:
            from cgtalg.normal.notation import parse_partizan
        except ImportError:  # pragma: no cover - notation module absent
            raise ArgumentTypeError(f"{name}: partizan notation is not available; pass a form") from None
        return parse_partizan(x)
    try:
        return as_partizan(x)
    except TypeError:
        raise GameKindError(f"{name} must be a partizan form (or an impartial form, an int, a dyadic "
                        f"Fraction or game text), got {type(x).__name__}: {shorten(x)}") from None


def misere_first_winners(g: Any) -> tuple[bool, bool]:
    """``(Left wins moving first, Right wins moving first)`` in misère play of ``g``.

    Examples
    --------
    >>> from cgtalg.core.partizan import pgame, integer
    >>> misere_first_winners(pgame()), misere_first_winners(integer(1))
    ((True, True), (False, True))
    """
    v = fold(_pg(g, "g"), _PLAY)
    return v[0], v[1]


def misere_outcome(g: Any) -> str:
    """The misère outcome class ``'L'``, ``'R'``, ``'N'`` or ``'P'`` of a partizan form.

    Misère play: the player unable to move wins (Siegel CGT §V.6; seed 002 §2). ``0`` is an
    N-position; ``1 = {0 | }`` is an R-position (Left must move, Right then cannot).
    Impartial forms are embedded with :func:`cgtalg.core.partizan.from_impartial`.

    Parameters
    ----------
    g : PartizanGame, Game, int or str
        The form (impartial forms, integers and game text are converted).

    Returns
    -------
    str

    Examples
    --------
    >>> from cgtalg.core.partizan import pgame, integer, nimber, up
    >>> [misere_outcome(x) for x in (pgame(), integer(1), integer(-2), nimber(1), up)]
    ['N', 'R', 'L', 'P', 'R']
    """
    return _OUTCOME[misere_first_winners(g)]


def outcome_ge(a: str, b: str) -> bool:
    """The partial order of outcomes: ``L > P > R``, ``L > N > R``, ``P`` and ``N`` incomparable.

    Examples
    --------
    >>> outcome_ge("L", "N"), outcome_ge("P", "N"), outcome_ge("N", "R")
    (True, False, True)
    """
    la, ra = _FIRST[a]
    lb, rb = _FIRST[b]
    return (la or not lb) and (rb or not ra)


_PAIR_MEMO: dict[tuple[int, int], tuple[bool, bool]] = register_cache("misere.partizan pair outcomes", {})


def _alone(g: PartizanGame) -> tuple[bool, bool]:
    v = fold(g, _PLAY)
    return (v[0], v[1])


def pair_first_winners(a: PartizanGame, b: PartizanGame) -> tuple[bool, bool]:
    """``(Left wins moving first, Right wins moving first)`` in misère play of ``a + b``, by
    play on pairs of positions (memoised on id pairs, iterative), without building the sum.

    Examples
    --------
    >>> from cgtalg.core.partizan import nimber
    >>> pair_first_winners(nimber(1), nimber(1)), pair_first_winners(nimber(2), nimber(2))
    ((True, True), (False, False))
    """
    if a.is_zero or b.is_zero:          # 0 + g is g
        return _alone(b if a.is_zero else a)

    def build(x: PartizanGame, y: PartizanGame, s: Any) -> tuple[bool, bool]:
        # (Left, Right) wins moving first in x + y; misère: a player with no move wins.
        # s(p, q) is the memoised value of p + q for nonzero p, q; 0 + q is q alone.
        lf = not (x.left or y.left)
        if not lf:
            lf = (any(not (s(o, y) if not o.is_zero else _alone(y))[1] for o in x.left)
                  or any(not (s(x, o) if not o.is_zero else _alone(x))[1] for o in y.left))
        rf = not (x.right or y.right)
        if not rf:
            rf = (any(not (s(o, y) if not o.is_zero else _alone(y))[0] for o in x.right)
                  or any(not (s(x, o) if not o.is_zero else _alone(x))[0] for o in y.right))
        return (lf, rf)

    return pair_fold(a, b, _PAIR_MEMO, build)


def misere_sum_outcome(*components: Any) -> str:
    """The misère outcome of the disjunctive sum of ``components`` (built as a form).

    Examples
    --------
    >>> from cgtalg.core.partizan import nimber, integer
    >>> misere_sum_outcome(nimber(1), nimber(1)), misere_sum_outcome(integer(1), integer(-1))
    ('N', 'N')
    """
    total = ZERO
    for c in components:
        total = total + _pg(c, "component")
    return misere_outcome(total)


# ---------------------------------------------------------------------------------------
# universes
# ---------------------------------------------------------------------------------------
@partizan_evaluator("partizan_is_dicot")
def _DICOT(g: PartizanGame, lv: Sequence[bool], rv: Sequence[bool]) -> bool:
    return bool(g.left) == bool(g.right) and all(lv) and all(rv)


@partizan_evaluator("partizan_dead_ends")
def _DEAD(g: PartizanGame, lv: Sequence[tuple[bool, ...]], rv: Sequence[tuple[bool, ...]]) -> tuple[bool, bool, bool]:
    """``(Left dead end, Right dead end, dead-ending)``."""
    left_dead = not g.left and all(v[0] for v in rv)
    right_dead = not g.right and all(v[1] for v in lv)
    ending = (bool(g.left) or left_dead) and (bool(g.right) or right_dead)
    ending = ending and all(v[2] for v in lv) and all(v[2] for v in rv)
    return (left_dead, right_dead, ending)


def is_dicot(g: Any) -> bool:
    """Whether every follower of ``g`` (``g`` included) has moves for both players or for
    neither (Dorbec, Renault, Siegel, Sopena 2015). Impartial forms are dicots.

    Examples
    --------
    >>> from cgtalg.core.partizan import nimber, up, integer
    >>> is_dicot(nimber(2)), is_dicot(up), is_dicot(integer(1))
    (True, True, False)
    """
    return fold(_pg(g, "g"), _DICOT)


def is_dead_ending(g: Any) -> bool:
    """Whether every end of every follower of ``g`` is dead: where Left (Right) cannot move,
    she (he) can never move again (Milley and Renault 2013). Dicots and integers are
    dead-ending; ``{ | *}`` is not (Left has no move now but gets one after Right's).

    Examples
    --------
    >>> from cgtalg.core.partizan import integer, up, pgame, nimber
    >>> is_dead_ending(integer(3)), is_dead_ending(up), is_dead_ending(pgame([], [nimber(1)]))
    (True, True, False)
    """
    return fold(_pg(g, "g"), _DEAD)[2]


def left_dead_end(g: Any) -> bool:
    """Whether Left can never move in ``g`` nor in any follower of it."""
    return fold(_pg(g, "g"), _DEAD)[0]


#: older spellings of the universes' names, still read (certificates written before 0.3 say "full")
_ALIASES = {"full": "all", "general": "all"}


def _check_universe(universe: Any) -> str:
    """The universe's name (``"full"``, its name before 0.3, read as ``"all"``), or
    :class:`UniverseError`."""
    universe = _ALIASES.get(universe, universe) if isinstance(universe, str) else universe
    if universe not in UNIVERSES:
        raise UniverseError(f"unknown universe {shorten(universe)}; expected one of {', '.join(map(repr, UNIVERSES))}")
    return universe


def in_universe(g: Any, universe: str) -> bool:
    """Whether ``g`` belongs to ``universe`` (``"all"``, ``"dead-ending"`` or ``"dicot"``)."""
    universe = _check_universe(universe)
    if universe == "all":
        _pg(g, "g")
        return True
    return is_dicot(g) if universe == "dicot" else is_dead_ending(g)


def _require(g: PartizanGame, universe: str, name: str) -> None:
    if universe == "all" or in_universe(g, universe):
        return
    what = "a dicot" if universe == "dicot" else "dead-ending"
    raise UniverseError(f"{name} = {_show(g)} is not {what}; compare it in the universe of all "
                        "games (universe='all') or one it belongs to")


def _show(g: PartizanGame, limit: int = 120) -> str:
    try:
        text = str(g)
    except Exception:  # pragma: no cover - defensive: printing must not break messages
        text = literal_text(g)
    return text if len(text) <= limit else text[: limit - 3] + "..."


# ---------------------------------------------------------------------------------------
# strong games (the Proviso)
# ---------------------------------------------------------------------------------------
def left_strong(g: Any, universe: str = "all") -> bool:
    """Whether Left, moving first, wins ``g + X`` for every Left end ``X`` of ``universe``.

    all: iff ``g`` is a Left end (Siegel V.6.16 (iii)); dicot: iff Left wins ``g`` moving
    first (``0`` is the only end); dead-ending: iff Left wins moving first both ``g`` and ``g``
    against an unbounded Right reserve (see the module docstring).

    Examples
    --------
    >>> from cgtalg.core.partizan import integer, nimber
    >>> left_strong(integer(-1)), left_strong(nimber(1), "dicot"), left_strong(integer(1), "dead-ending")
    (True, False, False)
    """
    universe = _check_universe(universe)
    x = _pg(g, "g")
    if universe == "all":
        return not x.left
    v = fold(x, _PLAY)
    return v[0] if universe == "dicot" else v[0] and v[2]


def right_strong(g: Any, universe: str = "all") -> bool:
    """Whether Right, moving first, wins ``g + X`` for every Right end ``X`` of ``universe``
    (the conjugate of :func:`left_strong`)."""
    universe = _check_universe(universe)
    x = _pg(g, "g")
    if universe == "all":
        return not x.right
    v = fold(x, _PLAY)
    return v[1] if universe == "dicot" else v[1] and v[5]


@partizan_evaluator("partizan_davies_milley_strong")
def _DM(g: PartizanGame, lv: Sequence[bool], rv: Sequence[bool]) -> bool:
    if not g.left:
        return True
    for gl, ok in zip(g.left, lv):
        if ok and misere_outcome(gl) == "L" and all(fold(glr, _DM) for glr in gl.right):
            return True
    return False


def davies_milley_strong(g: Any) -> bool:
    """The Left-strong test of Davies and Milley (*Order and inverses in the misère monoid*,
    Theorem 3.1) for dead-ending universes: ``g`` is a Left end, or some ``g^L`` has misère
    outcome ``L``, passes the test, and every ``g^LR`` passes the test.

    A sufficient condition for ``g`` to be Left-strong modulo the dead-ending games (the
    direction formalised in Lean by Davies and Maciosowski; for P-free ``g`` it is also
    necessary). Kept beside :func:`left_strong`, which decides the question exactly, so that
    the tests can compare them.

    Examples
    --------
    >>> from cgtalg.core.partizan import pgame, nimber
    >>> g = pgame([0, nimber(1)], [0])           # ↑*: Left-strong, but no Left option is an L-position
    >>> davies_milley_strong(g), left_strong(g, "dead-ending")
    (False, True)
    """
    return fold(_pg(g, "g"), _DM)


# ---------------------------------------------------------------------------------------
# adjoints and the universal dead ends
# ---------------------------------------------------------------------------------------
@partizan_evaluator("partizan_misere_adjoint")
def _ADJOINT(g: PartizanGame, lv: Sequence[PartizanGame], rv: Sequence[PartizanGame]) -> PartizanGame:
    if not g.left and not g.right:
        return pgame([ZERO], [ZERO])  # 0° = *
    if not g.left:
        return pgame(rv, [ZERO])
    if not g.right:
        return pgame([ZERO], lv)
    return pgame(rv, lv)


def misere_adjoint(g: Any) -> PartizanGame:
    """The adjoint ``G°`` (Siegel CGT §V.6): ``0° = *``; ``{G^R° | 0}`` when ``G`` has Right
    options only; ``{0 | G^L°}`` when it has Left options only; ``{G^R° | G^L°}`` otherwise.

    ``G + G°`` is a misère P-position for every ``G``, and every adjoint is a dicot (both
    players always have a move), so adjoints serve as distinguishers in every universe here.

    Examples
    --------
    >>> from cgtalg.core.partizan import pgame, integer, nimber
    >>> g = pgame([integer(1)], [nimber(1)])
    >>> misere_outcome(g + misere_adjoint(g)), is_dicot(misere_adjoint(g))
    ('P', True)
    """
    return fold(_pg(g, "g"), _ADJOINT)


_DEAD_ENDS: list[PartizanGame] = [ZERO]
register_cache("misere.partizan dead-end reserves", lambda: _DEAD_ENDS.__delitem__(slice(1, None)))


def reserve_dead_end(b: int) -> PartizanGame:
    """``D_b = { | D_0, ..., D_(b-1)}`` (``D_0 = 0``): the Left dead end of birthday ``b`` that
    gives Right every choice of how many moves to spend in it."""
    while len(_DEAD_ENDS) <= b:
        _DEAD_ENDS.append(pgame([], _DEAD_ENDS))
    return _DEAD_ENDS[b]
