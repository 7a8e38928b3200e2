"""Conjunctive and selective sums and the Conway product of short partizan games (Winning Ways
ch. 9 and ch. 14; Conway, *On Numbers and Games* (ONAG), ch. 1 (product) and ch. 14 (compound
games); CGSuite's ``ConjunctiveSum``, ``SelectiveSum`` and ``ConwayProduct``).

- :func:`conjunctive_sum` -- ``G ∧ H = {G^L ∧ H^L | G^R ∧ H^R}``: the player to move moves in
  **every** component, so the compound ends as soon as one component has no move for the
  player to move (``G ∧ H`` is identically ``0`` when ``G`` or ``H`` is; Winning Ways ch. 9,
  "conjunctive compound"; ONAG ch. 14).
- :func:`selective_sum` -- ``G ∨ H = {G^L ∨ H, G ∨ H^L, G^L ∨ H^L | G^R ∨ H, G ∨ H^R,
  G^R ∨ H^R}``: the player to move moves in any nonempty set of components (Winning Ways
  ch. 9, "selective compound"; ONAG ch. 14; CGSuite's documentation of ``SelectiveSum``).
  CGSuite's *implementation* differs: after a move in one component it continues with the
  disjunctive sum ``G^L + H`` (its ``CompoundGame`` lists the disjunctive options and the
  conjunctive ones), so its test values (``*5 ∨ *6 = *8``, ``±1 ∨ ↑↑ = {1↑↑|-1}``) are not
  those of the definition (``*a ∨ *b = *(a + b)``, ordinary addition, by induction; here
  ``*5 ∨ *6 = *11``); the tests check both readings by brute force.
- :func:`conway_product` -- ONAG's product, defined for all games:
  ``G·H = {G^L H + G H^L - G^L H^L, G^R H + G H^R - G^R H^R |
  G^L H + G H^R - G^L H^R, G^R H + G H^L - G^R H^L}`` (ONAG ch. 1; the sums are disjunctive).
  On numbers it is the product of the numbers; on nimbers the nim-product (ONAG ch. 6).

**These are operations on game trees, not on values.** None of them is invariant under
normal-play equality in general: equal games can have unequal conjunctive sums, selective sums
or products (``{-1|1} = 0`` but ``{-1|1} ∧ * = {-1∧0 | 1∧0} = {0|0} = *``, while
``0 ∧ * = 0``; the tests exhibit such pairs for each operation). So, as CGSuite does (its
``CompoundGame`` takes the options of the games it is given: the literal options of an
explicit game, the canonical options of a value), each function here recurses through the
**forms it is given**, exactly as given; pass ``canonical_form(G)`` to act on a value. The
result is the canonical form of the compound (which depends only on the values of its options,
so nothing is lost by canonicalising on the way up).
"""

from __future__ import annotations

from typing import Any, Callable

from cgtalg.caches import register_cache
from cgtalg.core.partizan import ZERO, PartizanGame, as_partizan, negative
from cgtalg.normal.partizan import _from_canonical_options, canonical_sum

__all__ = ["conjunctive_sum", "selective_sum", "conway_product"]

Pair = tuple[PartizanGame, PartizanGame]
#: (G id, H id) -> canonical G ∧ H, G ∨ H, G·H of the forms G and H
_CONJ: dict[tuple[int, int], PartizanGame] = register_cache("normal.products conjunctive sums", {})
_SEL: dict[tuple[int, int], PartizanGame] = register_cache("normal.products selective sums", {})
_PROD: dict[tuple[int, int], PartizanGame] = register_cache("normal.products Conway products", {})


def _pair_post_order(root: Pair, memo: dict[tuple[int, int], PartizanGame],
                     deps: Callable[[PartizanGame, PartizanGame], list[Pair]],
                     compute: Callable[[PartizanGame, PartizanGame], PartizanGame]) -> PartizanGame:
    """``compute(g, h)`` for ``root`` and every pair it depends on, children first, each once
    (an explicit stack: no Python recursion limit on deep forms)."""
    key = (root[0]._id, root[1]._id)
    if key in memo:
        return memo[key]
    stack: list[tuple[Pair, bool]] = [(root, False)]
    while stack:
        (g, h), expanded = stack.pop()
        k = (g._id, h._id)
        if k in memo:
            continue
        if expanded:
            memo[k] = compute(g, h)
            continue
        stack.append(((g, h), True))
        for d in deps(g, h):
            if (d[0]._id, d[1]._id) not in memo:
                stack.append((d, False))
    return memo[key]


def conjunctive_sum(g: Any, h: Any) -> PartizanGame:
    """The conjunctive sum ``G ∧ H = {G^L ∧ H^L | G^R ∧ H^R}`` of the forms ``G`` and ``H``
    (Winning Ways ch. 9; ONAG ch. 14; CGSuite ``ConjunctiveSum``): a move is a move in both
    components, so ``G ∧ H`` has no move for a player who has no move in one of them.

    Acts on the forms as given (not a function of values: see the module docstring); returns
    the canonical form of the compound.

    Examples
    --------
    >>> import cgtalg as cg
    >>> from cgtalg.normal.products import conjunctive_sum
    >>> P = cg.parse_partizan
    >>> str(conjunctive_sum(P("*"), P("*2"))), str(conjunctive_sum(P("{-1|1}"), P("*")))
    ('*', '*')
    >>> str(conjunctive_sum(P("3"), P("5")))
    '3'
    """
    a, b = as_partizan(g), as_partizan(h)

    def deps(x: PartizanGame, y: PartizanGame) -> list[Pair]:
        return [(xl, yl) for xl in x._left for yl in y._left] + \
               [(xr, yr) for xr in x._right for yr in y._right]

    def compute(x: PartizanGame, y: PartizanGame) -> PartizanGame:
        return _from_canonical_options([_CONJ[(xl._id, yl._id)] for xl in x._left for yl in y._left],
                                       [_CONJ[(xr._id, yr._id)] for xr in x._right for yr in y._right])

    return _pair_post_order((a, b), _CONJ, deps, compute)


def selective_sum(g: Any, h: Any) -> PartizanGame:
    """The selective sum ``G ∨ H = {G^L ∨ H, G ∨ H^L, G^L ∨ H^L | G^R ∨ H, G ∨ H^R,
    G^R ∨ H^R}`` of the forms ``G`` and ``H`` (Winning Ways ch. 9; ONAG ch. 14; CGSuite
    ``SelectiveSum``): a move is a move in one or both components.

    Acts on the forms as given (not a function of values: see the module docstring); returns
    the canonical form of the compound.

    Examples
    --------
    >>> import cgtalg as cg
    >>> from cgtalg.normal.products import selective_sum
    >>> P = cg.parse_partizan
    >>> str(selective_sum(P("*"), P("*"))), str(selective_sum(P("1"), P("1")))
    ('*2', '2')
    """
    a, b = as_partizan(g), as_partizan(h)

    def deps(x: PartizanGame, y: PartizanGame) -> list[Pair]:
        out: list[Pair] = []
        for xs, ys in ((x._left, y._left), (x._right, y._right)):
            out += [(xo, y) for xo in xs] + [(x, yo) for yo in ys] + [(xo, yo) for xo in xs for yo in ys]
        return out

    def side(x: PartizanGame, y: PartizanGame, xs: tuple, ys: tuple) -> list[PartizanGame]:
        return ([_SEL[(xo._id, y._id)] for xo in xs] + [_SEL[(x._id, yo._id)] for yo in ys]
                + [_SEL[(xo._id, yo._id)] for xo in xs for yo in ys])

    def compute(x: PartizanGame, y: PartizanGame) -> PartizanGame:
        return _from_canonical_options(side(x, y, x._left, y._left), side(x, y, x._right, y._right))

    return _pair_post_order((a, b), _SEL, deps, compute)


def conway_product(g: Any, h: Any) -> PartizanGame:
    """ONAG's product of the forms ``G`` and ``H`` (Conway, ONAG ch. 1; CGSuite
    ``ConwayProduct``)::

        G·H = {G^L H + G H^L - G^L H^L, G^R H + G H^R - G^R H^R |
               G^L H + G H^R - G^L H^R, G^R H + G H^L - G^R H^L}

    (``+`` and ``-`` the disjunctive sum and negative). On numbers it is the product of the
    numbers (ONAG ch. 1), on nimbers the nim-product (ONAG ch. 6); on other games it depends
    on the forms (see the module docstring). Returns the canonical form of the product.

    Examples
    --------
    >>> import cgtalg as cg
    >>> from cgtalg.normal.products import conway_product
    >>> P = cg.parse_partizan
    >>> [str(conway_product(P(a), P(b))) for a, b in (("3/4", "-5/2"), ("*2", "*2"), ("*3", "*3"))]
    ['-15/8', '*3', '*2']
    """
    a, b = as_partizan(g), as_partizan(h)

    def deps(x: PartizanGame, y: PartizanGame) -> list[Pair]:
        out: list[Pair] = []
        for xo in x._options:
            out.append((xo, y))
        for yo in y._options:
            out.append((x, yo))
        for xo in x._options:
            out += [(xo, yo) for yo in y._options]
        return out

    def term(x: PartizanGame, y: PartizanGame, xo: PartizanGame, yo: PartizanGame) -> PartizanGame:
        # x^o y + x y^o - x^o y^o
        s = canonical_sum(_PROD[(xo._id, y._id)], _PROD[(x._id, yo._id)])
        return canonical_sum(s, negative(_PROD[(xo._id, yo._id)]))

    def compute(x: PartizanGame, y: PartizanGame) -> PartizanGame:
        if not x._options or not y._options:  # 0·H = G·0 = 0 (no options either side)
            return ZERO
        left = [term(x, y, xl, yl) for xl in x._left for yl in y._left] + \
               [term(x, y, xr, yr) for xr in x._right for yr in y._right]
        right = [term(x, y, xl, yr) for xl in x._left for yr in y._right] + \
                [term(x, y, xr, yl) for xr in x._right for yl in y._left]
        return _from_canonical_options(left, right)

    return _pair_post_order((a, b), _PROD, deps, compute)
