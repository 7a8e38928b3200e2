"""Operations built on ordinal sums: the ordinal product, the generalised powers ``G^x`` and
``G^→x`` of a game, and the subordinate (the inverse of the ordinal sum) -- CGSuite's
``OrdinalProduct``, ``Pow``, ``PowTo`` and ``Subordinate`` on short partizan games.

- :func:`ordinal_product` -- ``G ⊛ H = {G⊛H^L : G^L, G⊛H^R : -G^R | G⊛H^L : G^R, G⊛H^R : -G^L}``
  (CGSuite's documentation of ``Game.OrdinalProduct``). On Hackenbush stalks it replaces every
  blue edge of ``H`` by a copy of ``G`` and every red edge by a copy of ``-G`` (a move in the
  copy standing for an edge of ``H`` cuts everything above it, as an ordinal sum does). It is
  an operation on **forms**: ``G⊛H^L`` is the *base* of an ordinal sum, and the value of an
  ordinal sum depends on the form of its base (:mod:`cgtalg.normal.ordinal_sum`), so the
  recursion keeps each ``G⊛K`` as a form -- with canonical options, which is all an ordinal
  sum reads of its base -- and only the final answer is canonicalised. ``G`` enters through
  the forms of its options (as subordinates, recursed as given), ``H`` through its form.
  ``*a ⊛ *b = *(a·b)`` (ordinary multiplication, by induction: the options are
  ``*(a·b' + a')``, ``a' < a``, ``b' < b``), ``G ⊛ 1 = G`` and ``G ⊛ 0 = 0``.
- :func:`power_to` -- the cumulative power ``G^→x`` (CGSuite ``PowTo``):
  ``G^→0 = 0`` and ``G^→x = {G^L, G^→x^L | G^R, G^→x^R}`` over the canonical options of the
  number ``x >= 0``. For ``G = {0 | H}`` and an integer ``n`` this is
  ``G^→n = {0, G^→(n-1) | H} = G^1 + G^2 + ... + G^n`` (Siegel, *Combinatorial Game Theory*,
  ch. II, the generalised up-nths of ``{0 | H}``; ``↑^→n`` is CGSuite's ``^[n]``); the tests
  check that identity against the sum of the powers.
- :func:`power` -- the power ``G^x`` (CGSuite ``Pow``) of ``G = {0 | H}``:
  ``G^x = {0 | H - G^→(x-1)}`` for a number ``x >= 1`` (Siegel, CGT ch. II: ``G^1 = G``,
  ``G^(n+1) = {0 | H - G^→n}``; ``↑^n`` is CGSuite's ``^<n>``).
- :func:`subordinate` -- the unique ``H`` with ``G = B:H`` for a base form ``B`` (CGSuite's
  documentation of ``CanonicalStopper.Subordinate``). ``H`` is unique because ``B:X - B:Y`` has
  the outcome of ``X - Y`` (a move in one base is answered in the other), so ``X ↦ B:X`` is an
  order embedding.

The extension of ``G^→x`` and ``G^x`` from integers to dyadic ``x`` (and of ``G^→n`` to bases
not of the form ``{0 | H}``) follows the recursion above, the way an ordinal sum ``G:x`` runs
over the options of ``x``; CGSuite documents ``Pow``/``PowTo`` only as "raised to the
specified (cumulative) power", and its test values (``^.Pow(7/4)``, ``^.PowTo(7/4)``,
``{0||0|-2}.Pow(7/4)``, ``{0||0|-2}.PowTo(7/4)``, ``(+-1).PowTo(3)``, GameTest.scala) are
reproduced by it (tests/test_ordinal_ops.py).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from cgtalg.caches import register_cache
from cgtalg.core.fold import memo_post_order
from cgtalg.core.partizan import ZERO, PartizanGame, as_partizan, make_form, negative
from cgtalg.errors import ArgumentError, GameKindError, shorten
from cgtalg.normal.ordinal_sum import ordinal_sum
from cgtalg.normal.partizan import (_from_canonical_options, canonical_form, canonical_sum,
                                    equal, number_value)

__all__ = ["ordinal_product", "power", "power_to", "subordinate"]

#: G form id -> {H-subposition id: G⊛K as a form with canonical options}
_OPROD: dict[int, dict[int, PartizanGame]] = register_cache("normal.ordinal_ops ordinal products", {})
#: canonical G id -> {canonical number id: canonical G^→x}
_POWTO: dict[int, dict[int, PartizanGame]] = register_cache("normal.ordinal_ops cumulative powers", {})
#: base form id -> {canonical G id: canonical H with G = B:H, or None}
_SUBORD: dict[int, dict[int, PartizanGame | None]] = register_cache("normal.ordinal_ops subordinates", {})


def ordinal_product(g: Any, h: Any) -> PartizanGame:
    """The ordinal product ``G ⊛ H = {G⊛H^L : G^L, G⊛H^R : -G^R | G⊛H^L : G^R, G⊛H^R : -G^L}``
    (canonical form of the result).

    Parameters
    ----------
    g : PartizanGame, Game, int or dyadic Fraction
        ``G``: the forms of its options are copied (as subordinates of ordinal sums).
    h : PartizanGame, Game, int or dyadic Fraction
        ``H``: recursed through as given (a stalk of ``H`` becomes a stalk of copies of ``±G``).

    Returns
    -------
    PartizanGame
        The canonical form of ``G ⊛ H``.

    Notes
    -----
    Not a function of values: pass ``canonical_form(G)``, ``canonical_form(H)`` for CGSuite's
    reading of unquoted games (its ``'{*|*}'`` and ``*[[[2]],[2],0]`` are literal forms).

    Examples
    --------
    >>> import cgtalg as cg
    >>> from cgtalg.normal.ordinal_ops import ordinal_product
    >>> P = cg.parse_partizan
    >>> [str(ordinal_product(P(a), P(b))) for a, b in (("1/2", "1/4"), ("*5", "*6"), ("±1", "^^"))]
    ['11/32', '*30', '±1']

    References
    ----------
    CGSuite's documentation of ``Game.OrdinalProduct`` (lib/core/src/main/resources/org/cgsuite/
    lang/resources/game/Game.cgs) and its CompoundGameTestCase values; Conway, ONAG ch. 15 and
    Siegel, CGT II.6 for ordinal sums.
    """
    base = as_partizan(g)
    sub = as_partizan(h)
    gl = base._left
    gr = base._right
    neg_gl = [negative(x) for x in gl]
    neg_gr = [negative(x) for x in gr]
    memo = _OPROD.setdefault(base._id, {})

    def compute(k: PartizanGame) -> PartizanGame:
        left = [ordinal_sum(memo[kl._id], x) for kl in k._left for x in gl]
        left += [ordinal_sum(memo[kr._id], x) for kr in k._right for x in neg_gr]
        right = [ordinal_sum(memo[kl._id], x) for kl in k._left for x in gr]
        right += [ordinal_sum(memo[kr._id], x) for kr in k._right for x in neg_gl]
        return make_form(left, right)  # options canonical: all an ordinal sum reads of a base

    return canonical_form(memo_post_order(sub, memo, lambda x: x._options, compute))  # type: ignore[arg-type]


def _exponent(operation: str, x: Any, least: int) -> PartizanGame:
    """The canonical form of the number ``x >= least`` (int, dyadic Fraction or a game equal to
    a number), or a specific error."""
    if isinstance(x, Fraction) and (x.denominator & (x.denominator - 1)):
        raise ArgumentError(f"{operation} needs a dyadic exponent x >= {least}, got {shorten(x)} "
                            "(not dyadic: no short game equals it)")
    value = number_value(x)
    if value is None:
        raise ArgumentError(f"{operation} needs a number as exponent (a dyadic rational "
                            f">= {least}), got {shorten(x)}, which is not a number")
    if value < least:
        raise ArgumentError(f"{operation} needs an exponent x >= {least}, got {value}")
    return canonical_form(x)


def _base_0_h(operation: str, g: Any) -> tuple[PartizanGame, PartizanGame]:
    """``(G, H)`` for a ``G`` whose canonical form is ``{0 | H}``, or GameKindError."""
    c = canonical_form(g)
    if c._left != (ZERO,) or len(c._right) != 1:
        raise GameKindError(
            f"{operation} is defined for a base of the form {{0|H}} (one Left option 0, one Right "
            f"option), and {c} is not (Siegel, CGT ch. II: the powers of {{0|H}})",
            ("cgtalg.normal.ordinal_ops.power_to",))
    return c, c._right[0]


def power_to(g: Any, x: Any) -> PartizanGame:
    """The cumulative power ``G^→x`` (CGSuite ``G.PowTo(x)``): ``G^→0 = 0`` and
    ``G^→x = {G^L, G^→x^L | G^R, G^→x^R}`` over the canonical options of the number ``x``
    (``G`` read as its canonical form).

    For ``G = {0 | H}`` and an integer ``n >= 1``, ``G^→n = {0, G^→(n-1) | H}``
    ``= G^1 + ... + G^n`` (Siegel, CGT ch. II; ``↑^→n`` is ``^[n]``).

    Parameters
    ----------
    g : PartizanGame, Game, int or dyadic Fraction
        The base ``G`` (its value: the canonical form is used, as CGSuite does).
    x : int, dyadic Fraction or a game equal to a number
        The exponent, ``x >= 0``.

    Raises
    ------
    ArgumentError
        ``x`` is not a number, or ``x < 0``.

    Examples
    --------
    >>> import cgtalg as cg
    >>> from cgtalg.normal.ordinal_ops import power_to
    >>> str(power_to(cg.up, 3)), str(power_to(cg.up, cg.dyadic(7, 4))), str(power_to(cg.parse_partizan("±1"), 3))
    ('^[3]', '{^|*,^[2]||*,^[2]}', '{1,{1,±1|-1}|-1}')
    """
    c = canonical_form(g)
    e = _exponent("power_to", x, 0)
    gl, gr = list(c._left), list(c._right)
    memo = _POWTO.setdefault(c._id, {})

    def compute(y: PartizanGame) -> PartizanGame:
        if not y._options:
            return ZERO
        return _from_canonical_options(gl + [memo[o._id] for o in y._left],
                                       gr + [memo[o._id] for o in y._right])

    return memo_post_order(e, memo, lambda y: y._options, compute)  # type: ignore[arg-type]


def power(g: Any, x: Any) -> PartizanGame:
    """The power ``G^x = {0 | H - G^→(x-1)}`` of ``G = {0 | H}`` (CGSuite ``G.Pow(x)``) for a
    number ``x >= 1``: ``G^1 = G`` and ``G^(n+1) = {0 | H - G^→n}`` (Siegel, CGT ch. II, the
    generalised up-nths; ``↑^n`` is CGSuite's ``^<n>``).

    Raises
    ------
    GameKindError
        The canonical form of ``G`` is not ``{0 | H}`` (``±1`` is not).
    ArgumentError
        ``x`` is not a number, or ``x < 1``.

    Examples
    --------
    >>> import cgtalg as cg
    >>> from cgtalg.normal.ordinal_ops import power
    >>> str(power(cg.up, 3)), str(power(cg.up, cg.dyadic(7, 4)))
    ('^<3>', '{0||0,v*|0,{0,v*|0,*}}')
    """
    c, h = _base_0_h("power", g)
    e = _exponent("power", x, 1)
    below = power_to(c, canonical_sum(e, canonical_form(-1)))
    return _from_canonical_options([ZERO], [canonical_sum(h, negative(below))])


def subordinate(g: Any, base: Any) -> PartizanGame:
    """The subordinate of ``G`` to the base ``B``: the unique ``H`` with ``G = B:H``
    (CGSuite ``G.Subordinate(B)``; canonical form).

    ``G`` counts by its value; ``B`` by its **form** (an ordinal sum depends on the form of its
    base: ``^ = '{*|*}':1`` though ``{*|*} = 0``).

    How: ``B:H = {B^L, B:H^L | B^R, B:H^R}`` and, for canonical ``H``, no ``B:H^L`` is
    reversible in ``B:H`` (a base option ``B^R`` is never ``<= B:H``: moving there leaves
    ``B^R - B^R = 0``; and ``B:H^LR <= B:H`` iff ``H^LR <= H``), so the canonical options of
    ``G`` that are themselves ordinal sums over ``B`` give the options of ``H``; the candidate
    ``H`` is then checked (``B:H = G``) before it is returned.

    Raises
    ------
    ArgumentError
        ``G`` is not ``B:H`` for any ``H`` (``*`` is not ``1:H``).

    Examples
    --------
    >>> import cgtalg as cg
    >>> from cgtalg.normal.ordinal_ops import subordinate
    >>> str(subordinate(cg.dyadic(1, 8), 1)), str(subordinate(cg.up, cg.parse_partizan("{*|*}")))
    ('-3', '1')
    """
    b = as_partizan(base)
    c = canonical_form(g)
    memo = _SUBORD.setdefault(b._id, {})

    def compute(k: PartizanGame) -> PartizanGame | None:
        if equal(k, b):
            return ZERO
        lo = [memo[o._id] for o in k._left]
        ro = [memo[o._id] for o in k._right]
        cand = _from_canonical_options([o for o in lo if o is not None], [o for o in ro if o is not None])
        return cand if equal(ordinal_sum(b, cand), k) else None

    found = memo_post_order(c, memo, lambda k: k._options, compute)  # type: ignore[arg-type]
    if found is None:
        raise ArgumentError(f"{c} cannot be subordinated to the base {b}: no H has {b}:H = {c}")
    return found
