"""Operations on stoppers: upsums and downsums, degrees, varieties, stability, and stops.

Definitions (Winning Ways ch. 11, "Going forth and back"; Siegel, *Combinatorial Game Theory*
(2013), ch. VI; the texts of CGSuite's documentation of ``CanonicalStopper``, whose values the
tests compare with):

- **upsum and downsum** (ONAG ch. 16; Siegel VI): the sum ``G + H`` of two stoppers need not
  be a stopper (``on + off = dud``), but it is ``S & T`` with stoppers ``S ≥ T``:
  ``G +↑ H = S = (G + H)⁺`` (the onside: infinite play of the sum goes to Left) and
  ``G +↓ H = T = (G + H)⁻`` (the offside). When the sum is itself a stopper both are the sum;
  for short games they are the ordinary sum.
- **degree** of loopiness (Winning Ways ch. 11; Siegel VI): ``deg G = G +↑ (−G)``, the onside
  of ``G − G``; it is 0 for a short game, ``on`` for ``on`` and ``off`` (``on + off = dud``,
  whose onside is ``on``). Its downside twin is ``G +↓ (−G) = −deg G``.
- **varieties** (Winning Ways ch. 11; Siegel VI.5, stable games): for an idempotent stopper
  ``D`` (``D + D = D``: both sides of ``D + D`` are ``D``) the *upsum variety* of ``G`` relative
  to ``D`` is ``G +↑ (−G +↓ −D)`` and the *downsum variety* is ``G +↓ (−G +↑ D)``. ``G`` is
  **stable** when the two are equal for ``D = deg G`` (which must then be idempotent), and the
  common value is the **variety** of ``G``. It was conjectured (the Stability Conjecture) that
  every stopper of idempotent degree is stable; CGSuite's documentation records Ian
  Grenville's counterexample of 2022, ``a{0|{0||||0,*2|||a|0||0}||0}``, which
  :func:`is_stable` answers ``False`` for and :func:`variety` refuses.
- **stops** of a stopper (Siegel VI; CGSuite's ``Stop``): the stops of a *pseudonumber*
  (a number ``x``, ``x over = x + over = {x|pass}``, ``x under = {pass|x}``, ``on`` or ``off``)
  are itself; otherwise ``L(G) = max R(Gᴸ)`` and ``R(G) = min L(Gᴿ)``. The recursion follows
  alternating play, which ends in a stopper, so it is well founded. Pseudonumbers are ordered
  ``off < … < x under < x < x over < … < y under < y < … < on`` for numbers ``x < y``.

Every function takes stoppers (a :class:`cgtalg.LoopyGame`, loopy game text such as ``"over"``
or ``"{pass|3/2}"``, or a short game) and returns canonical stoppers
(:func:`cgtalg.normal.loopy_simplify.canonical_stopper`); a game that is not a stopper is
refused with :class:`cgtalg.errors.GameKindError`, since its sides
(:func:`cgtalg.loopy_sides`, :func:`cgtalg.normal.loopy_sidling.sided_sum`) answer instead.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from cgtalg.caches import register_cache
from cgtalg.core.loopy import LoopyGame, as_loopy, loopy_negative, loopy_sum
from cgtalg.errors import GameKindError, UnsupportedError
from cgtalg.normal.loopy import is_stopper
from cgtalg.normal.loopy_simplify import _short, canonical_stopper, offside, onside

__all__ = [
    "upsum", "downsum", "degree", "is_loopy_idempotent", "upsum_variety", "downsum_variety",
    "is_stable", "variety", "loopy_left_stop", "loopy_right_stop", "pseudonumber",
]

_SIDES_DOORS = ("cgtalg.loopy_sides", "cgtalg.normal.loopy_sidling.sided_sum")

#: (side, graph, graph) -> that side of the sum of two canonical stoppers (a sum's sides are
#: the slow part: degrees and varieties take several, often of the same pairs)
_SUM_SIDES: dict[tuple, LoopyGame] = register_cache("normal.loopy_ops sides of sums", {})


def _stopper(g: Any, who: str) -> LoopyGame:
    """``g`` as a canonical stopper, or GameKindError naming the function ``who``."""
    game = as_loopy(g)
    if not is_stopper(game):
        raise GameKindError(f"{who}({_short(game)}): not a stopper (some position has infinite "
                            "alternating play); upsums, degrees, varieties and stops are defined "
                            "for stoppers only (Siegel CGT VI); cgtalg.loopy_sides gives the sides "
                            "of any loopy game", _SIDES_DOORS)
    return canonical_stopper(game)


# -- upsum and downsum ------------------------------------------------------------------------
def upsum(g: Any, h: Any) -> LoopyGame:
    """``G +↑ H``: the onside of the sum of two stoppers, ``(G + H)⁺``.

    ``G + H = S & T`` with stoppers ``S ≥ T``; the upsum is ``S`` (ONAG ch. 16; Winning Ways
    ch. 11; Siegel CGT VI). It is the ordinary sum when the sum is a stopper (short games).

    Raises
    ------
    GameKindError
        If ``g`` or ``h`` is not a stopper.
    UnsupportedError
        If no stopper is found equal to the onside (:func:`cgtalg.normal.loopy_simplify.onside`).

    Examples
    --------
    >>> str(upsum("on", "off")), str(upsum("over", "under")), str(upsum("1/2", "*"))
    ('on', 'over', '1/2*')
    """
    return _sum_side(_stopper(g, "upsum"), _stopper(h, "upsum"), "onside")


def downsum(g: Any, h: Any) -> LoopyGame:
    """``G +↓ H``: the offside of the sum of two stoppers, ``(G + H)⁻`` (see :func:`upsum`).

    Examples
    --------
    >>> str(downsum("on", "off")), str(downsum("over", "under")), str(downsum("1", "-1"))
    ('off', 'under', '0')
    """
    return _sum_side(_stopper(g, "downsum"), _stopper(h, "downsum"), "offside")


def _sum_side(a: LoopyGame, b: LoopyGame, side: str) -> LoopyGame:
    """A side of ``a + b`` for canonical stoppers (cached; the sum is commutative)."""
    if a.is_short and b.is_short:  # a stopper: both sides are the sum
        side = "onside"
    key = (side, *sorted((a.graph, b.graph)))
    found = _SUM_SIDES.get(key)
    if found is None:
        found = _SUM_SIDES[key] = (onside if side == "onside" else offside)(loopy_sum(a, b))
    return found


def degree(g: Any) -> LoopyGame:
    """The degree of loopiness of a stopper: ``deg G = G +↑ (−G)`` (Winning Ways ch. 11; Siegel
    CGT VI; CGSuite's ``Degree``); 0 for a short game.

    Examples
    --------
    >>> str(degree("on")), str(degree("off")), str(degree("over")), str(degree("{1|*}"))
    ('on', 'on', 'over', '0')
    """
    return _degree(_stopper(g, "degree"))


def _degree(a: LoopyGame) -> LoopyGame:
    return _sum_side(a, loopy_negative(a), "onside")


# -- idempotents, varieties, stability --------------------------------------------------------
def is_loopy_idempotent(d: Any) -> bool:
    """Whether ``D + D = D`` for a stopper ``D``: both sides of ``D + D`` are ``D``
    (``D +↑ D = D +↓ D = D``; Winning Ways ch. 11, idempotents such as ``0``, ``on``,
    ``over``, ``Tiny(on)``).

    Examples
    --------
    >>> [is_loopy_idempotent(t) for t in ("0", "on", "off", "over", "1", "{pass|3/2}")]
    [True, True, True, True, False, False]
    """
    return _idempotent(_stopper(d, "is_loopy_idempotent"))


def _idempotent(a: LoopyGame) -> bool:
    return _sum_side(a, a, "onside") is a and _sum_side(a, a, "offside") is a


def _idempotent_degree(d: Any, who: str) -> LoopyGame:
    deg = _stopper(d, who)
    if not _idempotent(deg):
        raise GameKindError(f"{who}: the degree {_short(deg)} is not an idempotent (D + D ≠ D); "
                            "varieties are defined relative to idempotent degrees only "
                            "(Winning Ways ch. 11; Siegel CGT VI.5)")
    return deg


def upsum_variety(g: Any, d: Any) -> LoopyGame:
    """The upsum variety of ``G`` relative to an idempotent ``D``: ``G +↑ (−G +↓ −D)``
    (CGSuite's ``UpsumVariety``; Winning Ways ch. 11; Siegel CGT VI.5).

    Raises
    ------
    GameKindError
        If ``g`` or ``d`` is not a stopper, or ``d`` is not idempotent.
    """
    return _upsum_variety(_stopper(g, "upsum_variety"), _idempotent_degree(d, "upsum_variety"))


def _upsum_variety(a: LoopyGame, deg: LoopyGame) -> LoopyGame:
    return _sum_side(a, _sum_side(loopy_negative(a), loopy_negative(deg), "offside"), "onside")


def _downsum_variety(a: LoopyGame, deg: LoopyGame) -> LoopyGame:
    return _sum_side(a, _sum_side(loopy_negative(a), deg, "onside"), "offside")


def downsum_variety(g: Any, d: Any) -> LoopyGame:
    """The downsum variety of ``G`` relative to an idempotent ``D``: ``G +↓ (−G +↑ D)``
    (CGSuite's ``DownsumVariety``; Winning Ways ch. 11; Siegel CGT VI.5).

    Raises
    ------
    GameKindError
        If ``g`` or ``d`` is not a stopper, or ``d`` is not idempotent.
    """
    return _downsum_variety(_stopper(g, "downsum_variety"), _idempotent_degree(d, "downsum_variety"))


def _varieties(g: Any, who: str) -> tuple[LoopyGame, LoopyGame]:
    a = _stopper(g, who)
    deg = _degree(a)
    if not _idempotent(deg):
        raise GameKindError(f"{who}({_short(a)}): its degree {_short(deg)} is not an idempotent "
                            "(D + D ≠ D), so its varieties are not defined (Winning Ways ch. 11; "
                            "Siegel CGT VI.5)")
    return _upsum_variety(a, deg), _downsum_variety(a, deg)


def is_stable(g: Any) -> bool:
    """Whether a stopper is stable: its upsum and downsum varieties relative to its degree are
    equal (CGSuite's ``IsStable``; Siegel CGT VI.5).

    Raises
    ------
    GameKindError
        If ``g`` is not a stopper, or its degree is not idempotent (stability is not defined).

    Examples
    --------
    >>> is_stable("over"), is_stable("{pass|3/2}")
    (True, True)
    """
    up, down = _varieties(g, "is_stable")
    return up is down


def variety(g: Any) -> LoopyGame:
    """The variety of a stable stopper: its upsum variety relative to its degree, which equals
    its downsum variety (Winning Ways ch. 11; Siegel CGT VI.5; CGSuite's ``Variety``).

    Raises
    ------
    GameKindError
        If ``g`` is not a stopper, its degree is not idempotent, or it is not stable (the two
        varieties differ, as for Grenville's ``a{0|{0||||0,*2|||a|0||0}||0}``).

    Examples
    --------
    >>> str(variety("on")), str(variety("off")), str(variety("{pass|3/2}"))
    ('on', 'off', 'under')
    """
    up, down = _varieties(g, "variety")
    if up is not down:
        raise GameKindError(f"variety({_short(as_loopy(g))}): not stable: its upsum variety "
                            f"{_short(up)} and downsum variety {_short(down)} differ "
                            "(Siegel CGT VI.5); cgtalg.normal.loopy_ops.is_stable tells in advance",
                            ("cgtalg.normal.loopy_ops.is_stable",))
    return up


# -- stops ------------------------------------------------------------------------------------
_ON = (1, 0, 0)    # sort keys (infinite part, number, tag): on above every number
_OFF = (-1, 0, 0)


def pseudonumber(g: Any) -> tuple | None:
    """If the stopper ``g`` is a pseudonumber, its sort key ``(inf, x, tag)``: ``inf`` is 1 for
    ``on``, −1 for ``off`` and 0 otherwise; ``tag`` is −1, 0, 1 for ``x under``, ``x``,
    ``x over``. ``None`` when it is not a pseudonumber (Siegel CGT VI; CGSuite's
    ``IsPseudonumber``: numbers, ``on``, ``off``, ``x over = {x|pass}``, ``x under = {pass|x}``).

    Examples
    --------
    >>> [pseudonumber(t) for t in ("on", "-3/4", "5over", "*")]
    [(1, 0, 0), (0, Fraction(-3, 4), 0), (0, Fraction(5, 1), 1), None]
    """
    return _pseudo(_stopper(g, "pseudonumber"))


def _number(g: LoopyGame) -> Fraction | None:
    if not g.is_short:
        return None
    from cgtalg.normal.partizan import number_value

    return number_value(g.to_partizan())


def _pseudo(g: LoopyGame) -> tuple | None:
    """The pseudonumber key of a canonical stopper (None if it is not one)."""
    x = _number(g)
    if x is not None:
        return (0, x, 0)
    graph = g.graph
    lo, ro = graph[0]
    if lo == (0,) and not ro:
        return _ON
    if ro == (0,) and not lo:
        return _OFF
    for mine, theirs, tag in ((ro, lo, 1), (lo, ro, -1)):   # {x|pass}: x over; {pass|x}: x under
        if mine == (0,) and len(theirs) == 1:
            x = _number(g.follower(theirs[0]))
            if x is not None:
                return (0, x, tag)
    return None


def _stops(g: LoopyGame) -> tuple[LoopyGame, LoopyGame]:
    """(Left stop, Right stop) of a canonical stopper, as pseudonumber followers of it."""
    graph = g.graph
    memo: dict[tuple[int, int], tuple[tuple, int]] = {}
    pseudo: dict[int, tuple | None] = {}

    def key(v: int) -> tuple | None:
        if v not in pseudo:
            pseudo[v] = _pseudo(g.follower(v))
        return pseudo[v]

    def stop(v: int, mover: int, depth: int) -> tuple[tuple, int]:
        # (key, position): L(v) for mover 0, R(v) for mover 1
        if (v, mover) in memo:
            return memo[(v, mover)]
        if depth > 2 * len(graph):  # an alternating play this long repeats: not a stopper
            raise UnsupportedError(f"stops of {_short(g)}: alternating play does not end")
        k = key(v)
        if k is not None:
            memo[(v, mover)] = (k, v)
            return memo[(v, mover)]
        opts = graph[v][mover]
        if not opts:
            raise UnsupportedError(f"stops of {_short(g)}: position {v} has no "
                                   f"{('Left', 'Right')[mover]} option and is not a pseudonumber "
                                   "(not met in canonical stoppers)")
        found = [stop(w, 1 - mover, depth + 1) for w in opts]
        memo[(v, mover)] = max(found) if mover == 0 else min(found)
        return memo[(v, mover)]

    left, right = stop(0, 0, 0), stop(0, 1, 0)
    return g.follower(left[1]), g.follower(right[1])


def loopy_left_stop(g: Any) -> LoopyGame:
    """The Left stop of a stopper, a pseudonumber: itself for a pseudonumber, otherwise
    ``max R(Gᴸ)`` (Siegel CGT VI; CGSuite's ``LeftStop``). For a short game it is the usual
    Left stop (:func:`cgtalg.left_stop`), as a game.

    Raises
    ------
    GameKindError
        If ``g`` is not a stopper.

    Examples
    --------
    >>> str(loopy_left_stop("+-{5|pass}")), str(loopy_left_stop("{pass|3/2}")), str(loopy_left_stop("{1|-1}"))
    ('5over', '3/2under', '1')
    """
    return _stops(_stopper(g, "loopy_left_stop"))[0]


def loopy_right_stop(g: Any) -> LoopyGame:
    """The Right stop of a stopper: itself for a pseudonumber, otherwise ``min L(Gᴿ)`` (see
    :func:`loopy_left_stop`; CGSuite's ``RightStop``).

    Examples
    --------
    >>> str(loopy_right_stop("+-{5|pass}")), str(loopy_right_stop("+-{0|pass}"))
    ('-5under', 'under')
    """
    return _stops(_stopper(g, "loopy_right_stop"))[1]


# -- plumtrees ----------------------------------------------------------------------------------
def is_plumtree(g: Any) -> bool:
    """Whether every cycle of the game graph of ``G`` has length 1 (a *plumtree*: its only
    loops are passes, moves from a position to itself; Winning Ways ch. 11; CGSuite
    ``IsPlumtree``): the graph without its self-loops has no cycle. Short games are plumtrees.

    >>> from cgtalg.core.loopy_notation import parse_loopy
    >>> is_plumtree(parse_loopy("over")), is_plumtree(parse_loopy("a{0||||0|||a|*||*}"))
    (True, False)
    """
    graph = as_loopy(g).graph
    succ = [sorted((set(lo) | set(ro)) - {v}) for v, (lo, ro) in enumerate(graph)]
    state = [0] * len(graph)  # 0 unseen, 1 on the path, 2 done
    for root in range(len(graph)):
        if state[root]:
            continue
        state[root] = 1
        stack = [(root, 0)]
        while stack:
            v, i = stack[-1]
            if i == len(succ[v]):
                state[v] = 2
                stack.pop()
                continue
            stack[-1] = (v, i + 1)
            w = succ[v][i]
            if state[w] == 1:  # a cycle through two positions or more
                return False
            if state[w] == 0:
                state[w] = 1
                stack.append((w, 0))
    return True
