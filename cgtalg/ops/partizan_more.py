"""Doors for more operations on normal-play partizan games: conjunctive and selective sums and
the Conway product (:mod:`cgtalg.normal.products`), and the games and invariants derived from a
canonical form -- freeze, companion, incentives, stop count, uptimal expansion, followers,
parity, temper and CGSuite's flags (:mod:`cgtalg.normal.derived`).

Each takes every kind of short game as the partizan game it is (impartial forms, partizan forms,
game text, numbers, positions of rulesets, finite nimbers) and refuses by name the kinds for
which the operation has no meaning: misère canonical forms (a class of games under misère
equivalence, not a normal-play game form), transfinite nimbers and loopy games (not short
games).

The three compounds act on the **forms** given (they are not functions of values: CGSuite's
compound games likewise take the options of the games they are given), so game text is read
literally for them, as for :func:`cgtalg.ordinal_sum`; a ruleset position stands for its
canonical form. The derived operations are of the value of the game (its canonical form).
"""

from __future__ import annotations

from typing import Any

from cgtalg.core.partizan import PartizanGame
from cgtalg.ops.partizan_ops import partizan_operand

__all__ = [
    "conjunctive_sum", "selective_sum", "conway_product", "freeze", "companion", "incentives",
    "left_incentives", "right_incentives", "stop_count", "uptimal_expansion", "is_uptimal",
    "followers", "follower_count", "parity", "temper", "is_idempotent", "is_plumtree", "is_stable",
    "ordinal_product", "power", "power_to", "subordinate",
]



def _game(operation: str, x: Any, role: str = "", literal: bool = False) -> PartizanGame:
    """``x`` as a partizan form for ``operation``
    (:func:`cgtalg.ops.partizan_ops.partizan_operand`: a misère canonical form is refused by
    name). Game text is read literally with ``literal=True`` (the compounds, where the form
    counts)."""
    return partizan_operand(operation, x, role, normal_play=not literal)


# -- compounds --------------------------------------------------------------------------------------
def conjunctive_sum(g: Any, h: Any) -> PartizanGame:
    """The conjunctive sum ``G ∧ H = {G^L ∧ H^L | G^R ∧ H^R}``: move in every component; it
    ends when a component has no move for the player to move (Winning Ways ch. 9; ONAG ch. 14;
    CGSuite ``ConjunctiveSum``). Of the forms as given (not invariant under equality); returns
    a canonical form.

    >>> from cgtalg.ops import partizan_more as pm
    >>> str(pm.conjunctive_sum("±1", "^^")), str(pm.conjunctive_sum("{*|*}", 3))
    ('{0|-1}', '2')
    """
    from cgtalg.normal.products import conjunctive_sum as f

    return f(_game("conjunctive_sum", g, literal=True), _game("conjunctive_sum", h, "second game", literal=True))


def selective_sum(g: Any, h: Any) -> PartizanGame:
    """The selective sum ``G ∨ H = {G^L ∨ H, G ∨ H^L, G^L ∨ H^L | G^R ∨ H, G ∨ H^R,
    G^R ∨ H^R}``: move in one or both components (Winning Ways ch. 9; ONAG ch. 14; CGSuite
    ``SelectiveSum`` as documented; its implementation differs, see
    :mod:`cgtalg.normal.products`). Of the forms as given (not invariant under equality);
    returns a canonical form.

    >>> from cgtalg.ops import partizan_more as pm
    >>> str(pm.selective_sum("±1", "^^")), str(pm.selective_sum("*5", "*6"))
    ('{1^^|-1^*,-1^^}', '*11')
    """
    from cgtalg.normal.products import selective_sum as f

    return f(_game("selective_sum", g, literal=True), _game("selective_sum", h, "second game", literal=True))


def conway_product(g: Any, h: Any) -> PartizanGame:
    """ONAG's product ``G·H = {G^L H + G H^L - G^L H^L, G^R H + G H^R - G^R H^R |
    G^L H + G H^R - G^L H^R, G^R H + G H^L - G^R H^L}`` (ONAG ch. 1; CGSuite
    ``ConwayProduct``): the product on numbers, the nim-product on nimbers; of the forms as
    given otherwise. Returns a canonical form.

    >>> from cgtalg.ops import partizan_more as pm
    >>> str(pm.conway_product("1/2", "1/4")), str(pm.conway_product("*5", "*6")), str(pm.conway_product(15, "^^*2"))
    ('1/8', '*8', '^30*2')
    """
    from cgtalg.normal.products import conway_product as f

    return f(_game("conway_product", g, literal=True), _game("conway_product", h, "second game", literal=True))


# -- derived games and invariants (of the value) ---------------------------------------------------
def freeze(g: Any) -> PartizanGame:
    """``G`` cooled by its temperature (CGSuite ``Freeze``; Winning Ways ch. 6); a number is
    its own freeze.

    >>> from cgtalg.ops import partizan_more as pm
    >>> str(pm.freeze("{3||2*|1*}")), str(pm.freeze("{3/2*|1/2||{0|-3},{-1*,{-1/2|-1*}|-5/2}}"))
    ('9/4*', '-5/16*')
    """
    from cgtalg.normal.derived import freeze as f

    return f(_game("freeze", g))


def companion(g: Any) -> PartizanGame:
    """The lattice companion ``G° = {G^L°, 0 if G >= 0 | G^R°, 0 if G <= 0}`` (Siegel CGT
    III.2; CGSuite ``Companion``).

    >>> from cgtalg.ops import partizan_more as pm
    >>> str(pm.companion(0)), str(pm.companion("^")), str(pm.companion("{1|^^||^}"))
    ('*', '^*', '{1|^^*||^*}')
    """
    from cgtalg.normal.derived import companion as f

    return f(_game("companion", g))


def left_incentives(g: Any) -> tuple[PartizanGame, ...]:
    """The Left incentives ``G^L - G`` of the canonical form (Winning Ways ch. 8; CGSuite
    ``LeftIncentives``).

    >>> from cgtalg.ops import partizan_more as pm
    >>> print(*pm.left_incentives("^"))
    v
    """
    from cgtalg.normal.norton import left_incentives as f

    return f(_game("left_incentives", g))


def right_incentives(g: Any) -> tuple[PartizanGame, ...]:
    """The Right incentives ``G - G^R`` of the canonical form (Winning Ways ch. 8; CGSuite
    ``RightIncentives``).

    >>> from cgtalg.ops import partizan_more as pm
    >>> print(*sorted(str(x) for x in pm.right_incentives("v*")))
    v v*
    """
    from cgtalg.normal.norton import right_incentives as f

    return f(_game("right_incentives", g))


def incentives(g: Any) -> tuple[PartizanGame, ...]:
    """The undominated incentives of ``G`` among its Left and Right incentives (CGSuite
    ``Incentives``).

    >>> from cgtalg.ops import partizan_more as pm
    >>> print(*pm.incentives("^"))
    ^*
    """
    from cgtalg.normal.derived import incentives as f

    return f(_game("incentives", g))


def stop_count(g: Any) -> int:
    """The number of stopping positions in the complete game tree of the canonical form
    (CGSuite ``StopCount``).

    >>> from cgtalg.ops import partizan_more as pm
    >>> pm.stop_count("^*6"), pm.stop_count("{1|^^||^}")
    (1459, 9)
    """
    from cgtalg.normal.derived import stop_count as f

    return f(_game("stop_count", g))


def uptimal_expansion(g: Any) -> Any:
    """The uptimal expansion ``x + d_1.↑ + ... + d_n.↑^n + *m`` of an uptimal ``G`` (ONAG
    ch. 16; Siegel CGT II.7; CGSuite ``UptimalExpansion``): a
    :class:`cgtalg.normal.derived.UptimalExpansion`, printed as CGSuite prints it.

    >>> from cgtalg.ops import partizan_more as pm
    >>> str(pm.uptimal_expansion("73/16+v9*8")), str(pm.uptimal_expansion("{0||0|v*}"))
    ('73/16*8.9-', '*.12')

    Raises
    ------
    ArgumentError
        ``G`` is not an uptimal (:func:`is_uptimal`).
    """
    from cgtalg.normal.derived import uptimal_expansion as f

    return f(_game("uptimal_expansion", g))


def is_uptimal(g: Any) -> bool:
    """Whether ``G`` is an uptimal (CGSuite ``IsUptimal``).

    >>> from cgtalg.ops import partizan_more as pm
    >>> pm.is_uptimal("^[4]"), pm.is_uptimal("{0||0|vvv}")
    (True, False)
    """
    from cgtalg.normal.derived import is_uptimal as f

    return f(_game("is_uptimal", g))


def followers(g: Any) -> tuple[PartizanGame, ...]:
    """The distinct followers of the canonical form, ``G`` included, children first (CGSuite
    ``Followers``).

    >>> from cgtalg.ops import partizan_more as pm
    >>> print(*pm.followers("-1/2"), sep=", ")
    0, -1, -1/2
    """
    from cgtalg.normal.derived import followers as f

    return f(_game("followers", g))


def follower_count(g: Any) -> int:
    """The number of distinct followers of the canonical form, ``G`` included (CGSuite
    ``FollowerCount``).

    >>> from cgtalg.ops import partizan_more as pm
    >>> pm.follower_count("{3/2*|1/2||{0|-3},{-1*,{-1/2|-1*}|-5/2}}")
    17
    """
    from cgtalg.normal.derived import follower_count as f

    return f(_game("follower_count", g))


def parity(g: Any) -> str | None:
    """``"even"``, ``"odd"`` or None (CGSuite ``IsEven`` / ``IsOdd``, of the canonical form).

    >>> from cgtalg.ops import partizan_more as pm
    >>> pm.parity(0), pm.parity(5), pm.parity("^")
    ('even', 'odd', None)
    """
    from cgtalg.normal.derived import parity as f

    return f(_game("parity", g))


def temper(g: Any) -> str | None:
    """``"even"``, ``"odd"`` or None: even- or odd-tempered (Berlekamp; CGSuite
    ``IsEvenTempered`` / ``IsOddTempered``, of the canonical form).

    >>> from cgtalg.ops import partizan_more as pm
    >>> pm.temper("1/2"), pm.temper("{3||2*|1*}"), pm.temper("*2")
    ('even', 'odd', None)
    """
    from cgtalg.normal.derived import temper as f

    return f(_game("temper", g))


def is_idempotent(g: Any) -> bool:
    """Whether ``G + G = G`` (CGSuite ``IsIdempotent``): only 0 among short games; for a stopper,
    whether both sides of ``G + G`` are ``G`` (``on``, ``over``, ...).

    >>> from cgtalg.ops import partizan_more as pm
    >>> pm.is_idempotent("{-1|1}"), pm.is_idempotent("*")
    (True, False)
    """
    from cgtalg.ops.loopy_more import loopy_game_of

    loopy = loopy_game_of("is_idempotent", g)
    if loopy is not None:  # a stopper: both sides of D + D are D (Winning Ways ch. 11)
        from cgtalg.normal.loopy_ops import is_loopy_idempotent

        return is_loopy_idempotent(loopy)
    from cgtalg.normal.derived import is_idempotent as f

    return f(_game("is_idempotent", g))


def is_plumtree(g: Any) -> bool:
    """Whether every cycle of the game graph has length 1 (CGSuite ``IsPlumtree``; Winning Ways
    ch. 11): True for every short game; for a loopy game, of its graph (its only cycles are
    passes).

    >>> from cgtalg.ops import partizan_more as pm
    >>> pm.is_plumtree("{1|^^||^}")
    True
    """
    from cgtalg.ops.loopy_more import loopy_game_of

    loopy = loopy_game_of("is_plumtree", g, stoppers_only=False)
    if loopy is not None:  # its game graph: the only cycles are passes (Winning Ways ch. 11)
        from cgtalg.normal.loopy_ops import is_plumtree as plumtree

        return plumtree(loopy)
    from cgtalg.normal.derived import is_plumtree as f

    return f(_game("is_plumtree", g))


def is_stable(g: Any) -> bool:
    """Whether the upsum and downsum varieties of ``G`` relative to its degree agree (CGSuite
    ``IsStable``; Siegel CGT VI): True for every short game; for a stopper, by
    :func:`cgtalg.normal.loopy_ops.is_stable`.

    >>> from cgtalg.ops import partizan_more as pm
    >>> pm.is_stable("^*")
    True
    """
    from cgtalg.ops.loopy_more import loopy_game_of

    loopy = loopy_game_of("is_stable", g)
    if loopy is not None:  # a stopper: its varieties relative to its degree (Siegel CGT VI)
        from cgtalg.normal.loopy_ops import is_stable as stable

        return stable(loopy)
    from cgtalg.normal.derived import is_stable as f

    return f(_game("is_stable", g))


# -- ordinal products, powers and subordinates (cgtalg.normal.ordinal_ops) --------------------------
def ordinal_product(g: Any, h: Any) -> PartizanGame:
    """The ordinal product ``G ⊛ H`` (CGSuite ``OrdinalProduct``; built from ordinal sums, see
    :func:`cgtalg.normal.ordinal_ops.ordinal_product`): of the forms as given (``'{*|*}' ⊛ 3`` is
    0), the ordinary product on nim-heaps. Returns a canonical form.

    >>> from cgtalg.ops import partizan_more as pm
    >>> str(pm.ordinal_product("1/2", "1/4")), str(pm.ordinal_product("*5", "*6"))
    ('11/32', '*30')
    """
    from cgtalg.normal.ordinal_ops import ordinal_product as f

    return f(_game("ordinal_product", g, literal=True), _game("ordinal_product", h, "second game", literal=True))


def power(g: Any, x: Any) -> PartizanGame:
    """``G^x`` for ``G = {0 | H}`` and a number ``x >= 1`` (CGSuite ``Pow``; ``↑^n`` for ``G = ↑``):
    see :func:`cgtalg.normal.ordinal_ops.power`.

    >>> from cgtalg.ops import partizan_more as pm
    >>> str(pm.power("^", 3))
    '^<3>'
    """
    from cgtalg.normal.ordinal_ops import power as f

    return f(_game("power", g), _game("power", x, "exponent"))


def power_to(g: Any, x: Any) -> PartizanGame:
    """``G^→x`` (CGSuite ``PowTo``; ``↑^→n = ↑ + ↑^2 + ... + ↑^n`` for ``G = ↑``): see
    :func:`cgtalg.normal.ordinal_ops.power_to`.

    >>> from cgtalg.ops import partizan_more as pm
    >>> str(pm.power_to("^", 3))
    '^[3]'
    """
    from cgtalg.normal.ordinal_ops import power_to as f

    return f(_game("power_to", g), _game("power_to", x, "exponent"))


def subordinate(g: Any, base: Any) -> PartizanGame:
    """The ``H`` with ``G = base : H`` (CGSuite ``Subordinate``; the inverse of the ordinal sum on
    the base's form): see :func:`cgtalg.normal.ordinal_ops.subordinate`.

    >>> from cgtalg.ops import partizan_more as pm
    >>> str(pm.subordinate("1/8", 1))
    '-3'
    """
    from cgtalg.normal.ordinal_ops import subordinate as f

    return f(_game("subordinate", g, literal=True), _game("subordinate", base, "base", literal=True))
