"""Games and invariants derived from the canonical form of a short partizan game: freezing,
the lattice companion, incentives, the stop count, the uptimal expansion, followers, parity and
temper, and CGSuite's flags ``IsIdempotent``, ``IsPlumtree`` and ``IsStable`` as they read for
short games.

Every function here is of the **value** of ``G``: it works on the canonical form of ``G`` (as
CGSuite's ``CanonicalShortGame`` methods of the same names do). The definitions, with their
sources:

- :func:`freeze` -- ``G`` cooled by its temperature, ``G_t(G)`` (CGSuite ``Freeze``; cooling
  and temperature: Winning Ways ch. 6, Siegel CGT II.5); a number is its own freeze.
- :func:`companion` -- the lattice companion ``G°`` (Siegel CGT III.2; CGSuite
  ``Companion``): ``G° = {G^L°, 0 if G >= 0 | G^R°, 0 if G <= 0}`` (so ``0° = {0|0} = *``); on
  the games born by day ``n >= 1`` it is the unique non-trivial lattice automorphism.
- :func:`left_incentives`, :func:`right_incentives` -- ``G^L - G`` and ``G - G^R`` (Winning
  Ways ch. 8; Siegel CGT II.5; from :mod:`cgtalg.normal.norton`); :func:`incentives` -- the
  undominated ones among both (the largest: a player's best move is one of greatest incentive),
  as CGSuite's ``Incentives`` returns them (its test values: ``↑.Incentives = {↑*}`` though
  ``↓`` is a Left incentive of ``↑``).
- :func:`stop_count` -- the number of stopping positions (numbers) in the complete game tree
  of the canonical form: ``SC(x) = 1`` for a number ``x``, else ``ΣSC(G^L) + ΣSC(G^R)``
  (CGSuite ``StopCount``; its documentation writes ``SC(x) = x``, its test values and
  implementation count 1 per number, which is what the name says).
- :func:`uptimal_expansion` -- ``G = x + d_1.↑ + d_2.↑^2 + ... + d_n.↑^n + *m`` with ``↑^k``
  Conway's up-nth (ONAG ch. 16; Siegel CGT II.7; CGSuite ``UptimalExpansion``); None-free:
  a game that is not an uptimal is refused (:func:`is_uptimal` asks first).
- :func:`followers`, :func:`follower_count` -- the distinct subpositions of the canonical form,
  ``G`` itself included (CGSuite ``Followers`` and ``FollowerCount``).
- :func:`parity` -- ``"even"`` when ``G`` is the empty game ``{|}`` or every option of ``G`` is
  odd, ``"odd"`` when ``G`` is not ``{|}`` and every option is even, else None (of the
  canonical form; CGSuite ``IsEven`` / ``IsOdd``).
- :func:`temper` -- ``"even"`` when ``G`` is a number or every option is odd-tempered,
  ``"odd"`` when ``G`` is not a number and every option is even-tempered, else None (of the
  canonical form; Berlekamp's even- and odd-tempered games, Siegel CGT II.5 and *Mathematical
  Go*; CGSuite ``IsEvenTempered`` / ``IsOddTempered``).
- :func:`is_idempotent` -- ``G + G = G`` (CGSuite ``IsIdempotent``); for short games only 0.
- :func:`is_plumtree` -- every cycle of the game graph has length 1 (CGSuite ``IsPlumtree``;
  Winning Ways ch. 11, Siegel CGT VI); a short game has no cycle at all, so always True.
- :func:`is_stable` -- a stopper of degree ``D`` is stable when its upsum and downsum
  varieties relative to ``D`` agree (CGSuite ``IsStable``; Siegel CGT VI); a short game has
  degree 0 and both varieties ``G + (-G) = 0``, so always True.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Sequence

from cgtalg.core.fold import fold
from cgtalg.core.named_forms import fraction_text, nimber_of, number_form, number_of, uptimal_parts
from cgtalg.core.partizan import ZERO, PartizanGame, negative, nimber, partizan_evaluator
from cgtalg.core.partizan import form_le as _le
from cgtalg.errors import ArgumentError
from cgtalg.normal.norton import left_incentives, right_incentives
from cgtalg.normal.partizan import _from_canonical_options, canonical_form, canonical_sum, up_nth
from cgtalg.normal.thermography import _STOPS, cool, temperature

__all__ = [
    "freeze", "companion", "incentives", "left_incentives", "right_incentives", "stop_count",
    "UptimalExpansion", "uptimal_expansion", "is_uptimal", "followers", "follower_count", "parity",
    "temper", "is_idempotent", "is_plumtree", "is_stable",
]


# -- freeze, companion --------------------------------------------------------------------------
def freeze(g: Any) -> PartizanGame:
    """``G`` cooled by its own temperature (CGSuite ``Freeze``; Winning Ways ch. 6): always
    infinitesimally close to a number (the mean of ``G``). A number is its own freeze.

    >>> import cgtalg as cg
    >>> from cgtalg.normal.derived import freeze
    >>> str(freeze(cg.parse_partizan("{3||2*|1*}"))), str(freeze(cg.up)), str(freeze(cg.parse("±1")))
    ('9/4*', '^', '*')
    """
    c = canonical_form(g)
    if number_of(c) is not None:
        return c
    return cool(c, temperature(c))


@partizan_evaluator("partizan_companion")
def _COMPANION(c: PartizanGame, lv: Sequence[PartizanGame], rv: Sequence[PartizanGame]) -> PartizanGame:
    """G° = {G^L°, 0 if G >= 0 | G^R°, 0 if G <= 0} over the canonical form (Siegel CGT III.2)."""
    left, right = list(lv), list(rv)
    if _le(ZERO, c):
        left.append(ZERO)
    if _le(c, ZERO):
        right.append(ZERO)
    return _from_canonical_options(left, right)


_COMPANION.number = number_form  # a number other than 0 is its own companion (compact numbers are never 0)


def companion(g: Any) -> PartizanGame:
    """The lattice companion ``G°`` (Siegel CGT III.2; CGSuite ``Companion``):
    ``G° = {G^L°, 0 if G >= 0 | G^R°, 0 if G <= 0}`` on the canonical form, so ``0° = *``,
    ``*° = 0``, ``↑° = ↑*``; numbers other than 0 and hot games such as ``{3||2*|1*}`` are their
    own companions.

    >>> import cgtalg as cg
    >>> from cgtalg.normal.derived import companion
    >>> [str(companion(cg.parse_partizan(t))) for t in ("0", "*", "^", "v*", "5", "{0||0|-3/2}")]
    ['*', '0', '^*', 'v', '5', '{0,*||*|-3/2}']
    """
    return fold(canonical_form(g), _COMPANION)


def incentives(g: Any) -> tuple[PartizanGame, ...]:
    """The undominated incentives of ``G``: the greatest among its Left incentives ``G^L - G``
    and Right incentives ``G - G^R`` (canonical forms, distinct; CGSuite ``Incentives``, which
    removes the dominated ones: ``↑`` has incentives ``↓`` and ``↑*`` and ``↓ < ↑*``). All of
    them, dominated or not: ``left_incentives(G) + right_incentives(G)``.

    >>> import cgtalg as cg
    >>> from cgtalg.normal.derived import incentives
    >>> [str(x) for x in incentives(cg.up)], len(incentives(cg.nim(8)))
    (['^*'], 8)
    """
    every = list({x._id: x for x in (*left_incentives(g), *right_incentives(g))}.values())
    return tuple(x for x in every if not any(y is not x and _lt(x, y) for y in every))


# -- stop count, parity, temper ---------------------------------------------------------------------
@partizan_evaluator("partizan_stop_count")
def _STOP_COUNT(c: PartizanGame, lv: Sequence[int], rv: Sequence[int]) -> int:
    return 1 if number_of(c) is not None else sum(lv) + sum(rv)


_STOP_COUNT.number = lambda x: 1


def stop_count(g: Any) -> int:
    """The number of stopping positions (numbers) in the complete game tree of the canonical
    form of ``G``: 1 for a number, else the sum over all options (CGSuite ``StopCount``).
    Counts paths, not distinct positions: ``*n`` has ``2·3^(n-1)``.

    >>> import cgtalg as cg
    >>> from cgtalg.normal.derived import stop_count
    >>> stop_count(cg.up), stop_count(cg.nim(8)), stop_count(cg.parse_partizan("{3||2*|1*}"))
    (3, 4374, 5)
    """
    return fold(canonical_form(g), _STOP_COUNT)


def _by_options(lv: Sequence[str | None], rv: Sequence[str | None]) -> str | None:
    opts = [*lv, *rv]
    if all(v == "odd" for v in opts):
        return "even"
    if all(v == "even" for v in opts):
        return "odd"
    return None


@partizan_evaluator("partizan_parity")
def _PARITY(c: PartizanGame, lv: Sequence[str | None], rv: Sequence[str | None]) -> str | None:
    return "even" if not c._options else _by_options(lv, rv)


@partizan_evaluator("partizan_temper")
def _TEMPER(c: PartizanGame, lv: Sequence[str | None], rv: Sequence[str | None]) -> str | None:
    return "even" if number_of(c) is not None else _by_options(lv, rv)


# compact numbers (cgtalg.core.partizan_atoms): an integer n = {n-1 | } has the parity of n (0 is
# even, and each step up or down changes it); a number m/2^k with k >= 1 has options of both
# parities or of none (1/2 = {0 | 1}, and by induction), so it has none
_PARITY.number = lambda x: None if x.denominator != 1 else "even" if x.numerator % 2 == 0 else "odd"
_TEMPER.number = lambda x: "even"


def parity(g: Any) -> str | None:
    """``"even"``, ``"odd"`` or None: ``G`` is *even* when it is ``{|}`` or every option is odd,
    *odd* when it is not ``{|}`` and every option is even (of the canonical form; CGSuite
    ``IsEven`` and ``IsOdd``). Integers alternate: ``0`` even, ``1`` odd, ``2`` even.

    >>> import cgtalg as cg
    >>> from cgtalg.normal.derived import parity
    >>> [parity(cg.parse_partizan(t)) for t in ("0", "5", "-2", "*", "1*", "1/2")]
    ['even', 'odd', 'even', 'odd', 'even', None]
    """
    return fold(canonical_form(g), _PARITY)


def temper(g: Any) -> str | None:
    """``"even"``, ``"odd"`` or None: ``G`` is *even-tempered* when it is a number or every
    option is odd-tempered, *odd-tempered* when it is not a number and every option is
    even-tempered (of the canonical form; Berlekamp; Siegel CGT II.5; CGSuite
    ``IsEvenTempered`` and ``IsOddTempered``).

    >>> import cgtalg as cg
    >>> from cgtalg.normal.derived import temper
    >>> [temper(cg.parse_partizan(t)) for t in ("25/16", "9/8*", "^", "{3||2*|1*}", "*2")]
    ['even', 'odd', None, 'odd', None]
    """
    return fold(canonical_form(g), _TEMPER)


# -- followers ----------------------------------------------------------------------------------
def followers(g: Any) -> tuple[PartizanGame, ...]:
    """The distinct followers of the canonical form of ``G``, ``G`` itself included, each a
    canonical form, children before parents (CGSuite ``Followers``).

    >>> import cgtalg as cg
    >>> from cgtalg.normal.derived import followers
    >>> [str(x) for x in followers(cg.up)]
    ['0', '*', '^']
    """
    return tuple(canonical_form(g).subpositions())


def follower_count(g: Any) -> int:
    """The number of distinct followers of the canonical form of ``G``, ``G`` included
    (CGSuite ``FollowerCount``): ``|n| + 1`` for an integer ``n`` (a compact one too:
    :mod:`cgtalg.core.partizan_atoms`).

    >>> import cgtalg as cg
    >>> from cgtalg.normal.derived import follower_count
    >>> follower_count(cg.dyadic(25, 16)), follower_count(cg.nim(8)), follower_count(-10**12)
    (7, 9, 1000000000001)
    """
    c = canonical_form(g)
    if c._lazy and c._num is not None and c._num.denominator == 1:  # n, n - 1, ..., 0
        return abs(c._num.numerator) + 1
    return len(followers(c))


# -- flags ----------------------------------------------------------------------------------------
def is_idempotent(g: Any) -> bool:
    """Whether ``G + G = G`` (CGSuite ``IsIdempotent``): only ``0`` among short games."""
    c = canonical_form(g)
    return canonical_sum(c, c) is c


def is_plumtree(g: Any) -> bool:
    """Whether every cycle of the game graph of ``G`` has length 1 (CGSuite ``IsPlumtree``;
    Winning Ways ch. 11): True for every short game, whose graph has no cycle."""
    canonical_form(g)  # a short game (the doors refuse the other kinds by name)
    return True


def is_stable(g: Any) -> bool:
    """Whether the upsum and downsum varieties of ``G`` relative to its degree agree (CGSuite
    ``IsStable``; Siegel CGT VI): True for every short game (its degree is 0 and both
    varieties are ``G + (-G) = 0``)."""
    c = canonical_form(g)
    return canonical_sum(c, negative(c)) is ZERO


# -- uptimals -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class UptimalExpansion:
    """``number + d_1.↑ + d_2.↑^2 + ... + d_n.↑^n + *nimber`` (``digits = (d_1, ..., d_n)``,
    no trailing zero; ``↑^k`` is :func:`cgtalg.normal.partizan.up_nth`). Printed as CGSuite
    prints uptimal expansions: ``x*m.d1d2...``, the number left out when it is 0 and a nimber
    is present, a negative digit written as its size followed by ``-`` (CGSuite's plain text
    for the overbar), a digit of two figures or more in parentheses."""

    number: Fraction
    digits: tuple[int, ...]
    nimber: int

    def game(self) -> PartizanGame:
        """The canonical form of the game the expansion names."""
        total = canonical_sum(number_form(self.number), nimber(self.nimber))
        for i, d in enumerate(self.digits, start=1):
            if d:
                u = up_nth(i) if d > 0 else negative(up_nth(i))
                for _ in range(abs(d)):
                    total = canonical_sum(total, u)
        return total

    def __str__(self) -> str:
        head = "" if self.number == 0 and self.nimber else fraction_text(self.number)
        if self.nimber:
            head += "*" + (str(self.nimber) if self.nimber > 1 else "")

        def digit(d: int) -> str:
            s = str(abs(d)) if abs(d) < 10 else f"({abs(d)})"
            return s + ("-" if d < 0 else "")

        return head + "." + ("".join(map(digit, self.digits)) or "0")


def _lt(a: PartizanGame, b: PartizanGame) -> bool:
    return _le(a, b) and not _le(b, a)


def _star_free_digits(h: PartizanGame, bound: int) -> tuple[int, ...] | None:
    """The digits of ``h = Σ d_k.↑^k`` (no nimber), or None. Each ``↑^(k+1)`` is infinitesimal
    with respect to ``↑^k`` (Siegel CGT II.7): ``h = d_k.↑^k + R`` with ``j.R < ↑^k`` for every
    integer ``j``, so ``d_k`` is the one integer ``d`` with ``-↑^k < 2(h - d.↑^k) < ↑^k`` (the
    doubling tells ``R`` from ``↑^k + R``); found by walking, at most ``bound`` steps a digit and
    ``bound`` digits (the caller checks the result by rebuilding the game)."""
    digits: list[int] = []
    k = 1
    while h is not ZERO:
        if k > bound:
            return None
        u = up_nth(k)
        mu = negative(u)
        d = 0
        while _le(u, canonical_sum(h, h)):  # 2h >= ↑^k: one more
            h = canonical_sum(h, mu)
            d += 1
            if d > bound:
                return None
        while _le(canonical_sum(h, h), mu):  # 2h <= -↑^k: one less
            h = canonical_sum(h, u)
            d -= 1
            if -d > bound:
                return None
        twice = canonical_sum(h, h)
        if not (_lt(twice, u) and _lt(mu, twice)):
            return None
        digits.append(d)
        k += 1
    while digits and digits[-1] == 0:
        digits.pop()
    return tuple(digits)


def _expansion(c: PartizanGame) -> UptimalExpansion | None:
    x = number_of(c)
    if x is not None:
        return UptimalExpansion(x, (), 0)
    n = nimber_of(c)
    if n is not None:
        return UptimalExpansion(Fraction(0), (), n)
    ls, rs = fold(c, _STOPS)
    if ls != rs:
        return None
    h0 = canonical_sum(c, number_form(-ls)) if ls else c
    bound = 2 * c.birthday + 4
    # the nimber part: tried below twice the least power of two beyond every nimber part of an
    # uptimal follower (every answer is checked by rebuilding the game)
    top = max([p[2] for p in map(uptimal_parts, c.subpositions()) if p is not None] + [1])
    stars = 2
    while stars <= top:
        stars <<= 1
    for m in range(2 * stars):
        h = canonical_sum(h0, nimber(m)) if m else h0
        digits = _star_free_digits(h, bound)
        if digits is not None:
            e = UptimalExpansion(ls, digits, m)
            if e.game() is c:
                return e
    return None


def is_uptimal(g: Any) -> bool:
    """Whether ``G`` is an uptimal ``x + Σ d_k.↑^k + *m`` (CGSuite ``IsUptimal``)."""
    return _expansion(canonical_form(g)) is not None


def uptimal_expansion(g: Any) -> UptimalExpansion:
    """The uptimal expansion of ``G``: ``x``, the digits ``d_1..d_n`` and ``m`` with
    ``G = x + d_1.↑ + ... + d_n.↑^n + *m`` (ONAG ch. 16; Siegel CGT II.7; CGSuite
    ``UptimalExpansion``). The answer is checked by rebuilding ``G`` from it.

    >>> import cgtalg as cg
    >>> from cgtalg.normal.derived import uptimal_expansion
    >>> [str(uptimal_expansion(cg.parse_partizan(t))) for t in ("^", "v*", "6^*", "{0|*||*|||*||||*}")]
    ['0.1', '*.1-', '6*.1', '0.1111']

    Raises
    ------
    ArgumentError
        ``G`` is not an uptimal (ask :func:`is_uptimal` first).
    """
    c = canonical_form(g)
    e = _expansion(c)
    if e is None:
        raise ArgumentError(f"{c} is not an uptimal (not x + d1.^ + d2.^<2> + ... + *m), so it has "
                            "no uptimal expansion (cgtalg.is_uptimal asks first)")
    return e
