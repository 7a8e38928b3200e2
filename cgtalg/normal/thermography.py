"""Stops, thermographs, mean, temperature and cooling of short partizan games.

:func:`left_stop` / :func:`right_stop` (the numbers the players reach when both stop at a
number), :func:`thermograph` (exact walls with Fraction breakpoints, :class:`Thermograph` with
``plot()`` and ``to_dict()``, printed as CGSuite prints thermographs), :func:`mean`,
:func:`temperature` and :func:`cool` (Winning Ways ch. 6; Siegel, *Combinatorial Game Theory*,
II.5; Conway, ONAG ch. 9). Temperatures follow Siegel and CGSuite: cooling is defined for
``t > -1``, so a number ``m/2^k`` (``k >= 1``) has temperature ``-1/2^k``, an integer ``-1``,
and every other game a temperature ``>= 0``. Each is an evaluator of the generic fold over the
canonical form (:mod:`cgtalg.core.fold`), memoised on form ids.
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Sequence

from cgtalg.caches import register_cache
from cgtalg.errors import ArgumentError, ArgumentTypeError, ComputationLimitError, shorten
from cgtalg.core.fold import fold, memo_post_order
from cgtalg.core.named_forms import fraction_text, number_form, number_of
from cgtalg.core.partizan import PartizanGame, dyadic, partizan_evaluator
from cgtalg.normal.partizan import _from_canonical_options, canonical_form, canonical_sum, number_value

__all__ = ["left_stop", "right_stop", "thermograph", "Thermograph", "mean", "temperature", "cool"]


# -- stops, thermographs, temperature ------------------------------------------------------------
@partizan_evaluator("partizan_stops")
def _STOPS(c: PartizanGame, lv: Sequence[tuple[Fraction, Fraction]], rv: Sequence[tuple[Fraction, Fraction]]):
    x = number_of(c)
    if x is not None:
        return (x, x)
    if not lv or not rv:  # pragma: no cover - canonical non-numbers have moves for both
        # an invariant check (the callers pass canonical forms), not a user error
        raise ValueError("stops need the canonical form of a game (a form with an empty side "
                         "that is not a number is not canonical)")
    return (max(r for _, r in lv), min(l for l, _ in rv))


_STOPS.number = lambda x: (x, x)  # a compact number (cgtalg.core.partizan_atoms) stops at itself


def left_stop(g: Any) -> Fraction:
    """Left stop: the number reached when Left moves first and both play on until a number
    is reached (``LS(G) = x`` for a number ``x``, else ``max RS(G^L)``; WW ch. 6, Siegel CGT
    II.4).

    >>> import cgtalg as cg
    >>> cg.left_stop(cg.parse("{3 || 2* | 1*}")), cg.right_stop(cg.parse("{3 || 2* | 1*}"))
    (Fraction(3, 1), Fraction(2, 1))
    """
    return fold(canonical_form(g), _STOPS)[0]


def right_stop(g: Any) -> Fraction:
    """Right stop: ``RS(G) = x`` for a number ``x``, else ``min LS(G^R)``."""
    return fold(canonical_form(g), _STOPS)[1]


class _PL:
    """A continuous piecewise-linear function on ``[-1, inf)``: vertices ``(ts[i], vs[i])``
    with ``ts[0] = -1`` ascending, then slope ``tail`` after the last vertex."""

    __slots__ = ("ts", "vs", "tail")

    def __init__(self, ts: list[Fraction], vs: list[Fraction], tail: Fraction) -> None:
        self.ts, self.vs, self.tail = ts, vs, tail

    def at(self, t: Fraction) -> Fraction:
        ts, vs = self.ts, self.vs
        if t >= ts[-1]:
            return vs[-1] + self.tail * (t - ts[-1])
        i = bisect.bisect_right(ts, t) - 1
        t0, t1, v0, v1 = ts[i], ts[i + 1], vs[i], vs[i + 1]
        return v0 + (v1 - v0) * (t - t0) / (t1 - t0)

    def slope_after(self, t: Fraction) -> Fraction:
        ts = self.ts
        i = bisect.bisect_right(ts, t) - 1
        if i >= len(ts) - 1:
            return self.tail
        return (self.vs[i + 1] - self.vs[i]) / (ts[i + 1] - ts[i])

    def tilt(self, s: int) -> "_PL":
        return _PL(list(self.ts), [v + s * t for t, v in zip(self.ts, self.vs)], self.tail + s)

    def simplified(self) -> "_PL":
        ts, vs = [self.ts[0]], [self.vs[0]]
        for t, v in zip(self.ts[1:], self.vs[1:]):
            if len(ts) >= 2 and (vs[-1] - vs[-2]) * (t - ts[-1]) == (v - vs[-1]) * (ts[-1] - ts[-2]):
                ts[-1], vs[-1] = t, v  # collinear: drop the middle vertex
            else:
                ts.append(t)
                vs.append(v)
        if len(ts) >= 2 and (vs[-1] - vs[-2]) == self.tail * (ts[-1] - ts[-2]):
            ts.pop()
            vs.pop()
        return _PL(ts, vs, self.tail)


def _envelope(fs: Sequence[_PL], upper: bool) -> _PL:
    """The pointwise max (``upper``) or min of piecewise-linear functions."""
    if len(fs) == 1:
        return fs[0]
    pts = sorted({t for f in fs for t in f.ts})
    extra: set[Fraction] = set()
    for i in range(len(fs)):
        for j in range(i + 1, len(fs)):
            f, g = fs[i], fs[j]
            for p, q in zip(pts, pts[1:]):
                dp, dq = f.at(p) - g.at(p), f.at(q) - g.at(q)
                if dp * dq < 0:
                    extra.add(p + dp * (q - p) / (dp - dq))
            p = pts[-1]
            dp, ds = f.at(p) - g.at(p), f.tail - g.tail
            if ds != 0 and dp * ds < 0:
                extra.add(p - dp / ds)
    pts = sorted(set(pts) | extra)
    pick = max if upper else min
    vs = [pick(f.at(t) for f in fs) for t in pts]
    last = pts[-1]
    best = [f for f in fs if f.at(last) == vs[-1]]
    tail = pick(f.tail for f in best)
    return _PL(pts, vs, tail).simplified()


@dataclass(frozen=True)
class Thermograph:
    """The thermograph of a short game: its Left and Right walls as exact piecewise-linear
    functions of the temperature ``t >= -1`` (Winning Ways ch. 6; Siegel CGT II.5).

    Attributes
    ----------
    mast : Fraction
        The mean value: the walls coincide (a vertical mast) from the temperature up.
    temperature : Fraction
        Where the walls meet (``-1/2^k`` for a number ``m/2^k``, ``-1`` for an integer).
    left_wall, right_wall : tuple[tuple[Fraction, Fraction], ...]
        Vertices ``(t, value)`` ascending in ``t`` from ``t = -1``; between vertices the wall
        is linear, after the last vertex it is the vertical mast at ``mast``. Only the points
        where the slope changes are kept.

    ``str(th)`` is CGSuite's ``Thermograph(mast, [critical points], [slopes], ...)`` text for
    the two walls (critical points descending; slopes of ``value(t)`` from the mast down).
    """

    mast: Fraction
    temperature: Fraction
    left_wall: tuple[tuple[Fraction, Fraction], ...]
    right_wall: tuple[tuple[Fraction, Fraction], ...]
    #: the text of the canonical form drawn (the title of the notebook picture), if known
    form: str = field(default="", compare=False, repr=False)

    def _wall(self, side: str) -> _PL:
        pts = self.left_wall if side == "L" else self.right_wall
        return _PL([t for t, _ in pts], [v for _, v in pts], Fraction(0))

    def left_at(self, t: Any) -> Fraction:
        """The Left wall at temperature ``t`` (``t >= -1``): the Left stop of ``G`` cooled by ``t``."""
        return self._wall("L").at(_temp_arg(t))

    def right_at(self, t: Any) -> Fraction:
        """The Right wall at temperature ``t`` (``t >= -1``)."""
        return self._wall("R").at(_temp_arg(t))

    def critical_points(self, side: str = "L") -> list[Fraction]:
        """Temperatures where the ``side`` (``'L'`` or ``'R'``) wall changes slope, descending."""
        pts = self.left_wall if side == "L" else self.right_wall
        return [t for t, _ in reversed(pts[1:])]

    def _slopes(self, side: str) -> list[Fraction]:
        pts = self.left_wall if side == "L" else self.right_wall
        slopes = [Fraction(0)]
        for (t0, v0), (t1, v1) in zip(reversed(pts[:-1]), reversed(pts[1:])):
            slopes.append((v1 - v0) / (t1 - t0))
        return slopes

    def __str__(self) -> str:
        def q(x: Fraction) -> str:
            return fraction_text(x)

        def side(s: str) -> str:
            cps = ",".join(q(t) for t in self.critical_points(s))
            slopes = ",".join(q(x) for x in self._slopes(s))
            return f"{q(self.mast)},[{cps}],[{slopes}]"

        return f"Thermograph({side('L')},{side('R')})"

    def __repr__(self) -> str:
        return f"Thermograph(mean={fraction_text(self.mast)}, temperature={fraction_text(self.temperature)})"

    def svg(self, title: str = "") -> str:
        """The thermograph as an inline SVG picture (:func:`cgtalg.core.svg.thermograph_svg`):
        walls, mast, axes, and ``title`` (default: the form's text) above the mean and
        temperature."""
        from cgtalg.core.svg import thermograph_svg

        return thermograph_svg(self.left_wall, self.right_wall, self.mast, self.temperature, title or self.form)

    def _repr_html_(self) -> str:
        """Notebook view: the SVG picture, with CGSuite's text folded below it."""
        from cgtalg.core.display import details, esc

        return (f"<div class='cgtalg-thermograph'>{self.svg()}"
                + details("CGSuite text", f"<code>{esc(self)}</code>") + "</div>")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data: exact values as strings (``"-1/2"``), walls as ``[t, value]`` lists."""
        def pts(wall: tuple[tuple[Fraction, Fraction], ...]) -> list[list[str]]:
            return [[fraction_text(t), fraction_text(v)] for t, v in wall]

        return {
            "mast": fraction_text(self.mast),
            "temperature": fraction_text(self.temperature),
            "left_wall": pts(self.left_wall),
            "right_wall": pts(self.right_wall),
        }

    def plot(self, ax: Any = None, top: Any = None, title: str | None = None, **kwargs: Any) -> Any:
        """Draw the thermograph with matplotlib, in the usual orientation: values increase to
        the *left* (Left's side), temperature upward, the mast drawn up to ``top`` (default:
        one unit above the temperature). Returns the axes.

        Parameters
        ----------
        ax : matplotlib Axes, optional
            Axes to draw on (a new figure otherwise).
        top : number, optional
            The temperature at which to stop the mast.
        title : str, optional
            The plot's title (default: ``thermograph: mean m, temperature t``; pass the game's
            text to name it, as ``cgtalg value ... --plot`` does).
        **kwargs
            Passed to ``ax.plot`` for the walls (e.g. ``color``).
        """
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots()
        hi = float(top) if top is not None else float(max(self.temperature, Fraction(0))) + 1.0
        style = {"color": "black"}
        style.update(kwargs)
        for pts in (self.left_wall, self.right_wall):
            ts = [float(t) for t, _ in pts] + [max(hi, float(pts[-1][0]))]
            vs = [float(v) for _, v in pts] + [float(pts[-1][1])]
            ax.plot(vs, ts, **style)
        ax.plot([float(self.mast)] * 2, [float(self.temperature), hi], **style)
        if not ax.xaxis_inverted():
            ax.invert_xaxis()
        ax.set_xlabel("value (Left is positive, to the left)")
        ax.set_ylabel("temperature")
        ax.axhline(0, color="grey", linewidth=0.5)
        caption = f"mean {self.mast}, temperature {self.temperature}"
        ax.set_title(f"{title}\n{caption}" if title else f"thermograph: {caption}", fontsize=10)
        return ax


def _number_arg(t: Any, what: str) -> Fraction:
    """``t`` as a Fraction: an int, a Fraction, or a form equal to a number."""
    if isinstance(t, (PartizanGame,)) or type(t).__name__ == "Game":
        x = number_value(t)
        if x is None:
            raise ArgumentError(f"the {what} must be a number, got the game {shorten(str(t))}")
        return x
    if isinstance(t, bool):
        raise ArgumentTypeError(f"the {what} must be a number, got {t!r}")
    if isinstance(t, str) and len(t) > 1000:
        raise ArgumentError(f"the {what} must be a number, got the text {shorten(t)}")
    try:
        return Fraction(t)
    except (TypeError, ValueError):
        raise ArgumentTypeError(f"the {what} must be a number, got {shorten(t)}") from None
    except (OverflowError, ZeroDivisionError):  # inf, '1/0'
        raise ArgumentError(f"the {what} must be a finite number, got {shorten(t)}") from None


def _temp_arg(t: Any) -> Fraction:
    q = _number_arg(t, "temperature")
    if q < -1:
        raise ArgumentError(f"thermographs are defined for temperatures t >= -1, got {shorten(q)}")
    return q


def _wall_points(f: _PL, tau: Fraction) -> tuple[tuple[Fraction, Fraction], ...]:
    ts = [t for t in f.ts if t < tau]
    vs = [f.at(t) for t in ts]
    if tau > ts[-1]:
        ts.append(tau)
        vs.append(f.at(tau))
    g = _PL(ts, vs, Fraction(0)).simplified()
    return tuple(zip(g.ts, g.vs))


@partizan_evaluator("partizan_thermograph")
def _THERMO(c: PartizanGame, lv: Sequence[Thermograph], rv: Sequence[Thermograph]) -> Thermograph:
    x = number_of(c)
    if x is not None and x.denominator == 1:
        return Thermograph(x, Fraction(-1), ((Fraction(-1), x),), ((Fraction(-1), x),))
    if not lv or not rv:  # pragma: no cover - canonical forms with an empty side are integers
        # here and below: invariant checks on the canonical forms this module builds itself,
        # never a user's input (which reaches this point only as a canonical form)
        raise ValueError("thermographs need canonical forms")
    # scaffolds: Lambda(t) = max RW(G^L)(t) - t, P(t) = min LW(G^R)(t) + t
    lam = _envelope([th._wall("R") for th in lv], True).tilt(-1)
    rho = _envelope([th._wall("L") for th in rv], False).tilt(1)
    pts = sorted(set(lam.ts) | set(rho.ts))
    tau: Fraction | None = None
    prev_t = prev_d = None
    for t in pts:
        d = lam.at(t) - rho.at(t)
        if d <= 0:
            if prev_t is None:
                if d < 0 or lam.slope_after(t) < rho.slope_after(t):  # pragma: no cover
                    raise ValueError(f"unexpected thermograph base for {c!r}: the scaffolds "
                                     "do not cross (not a canonical short game?)")
                tau = t
            else:
                tau = prev_t + prev_d * (t - prev_t) / (prev_d - d)
            break
        prev_t, prev_d = t, d
    if tau is None:
        t = pts[-1]
        d = lam.at(t) - rho.at(t)
        ds = lam.tail - rho.tail
        if ds >= 0:  # pragma: no cover - the scaffolds always cross (slopes -1 and +1)
            raise ValueError(f"the scaffolds of {c!r} do not cross")
        tau = t - d / ds
    mast = lam.at(tau)
    return Thermograph(mast, tau, _wall_points(lam, tau), _wall_points(rho, tau))


def _number_thermograph(x: Fraction) -> Thermograph:
    """The thermograph of a compact number ``x`` (:mod:`cgtalg.core.partizan_atoms`): that of its
    fractional part ``f`` moved by the integer ``x - f`` (the canonical form of ``n + f`` is the
    tree of ``f`` with every leaf moved by ``n``, so its walls are ``f``'s moved by ``n``); ``f``'s
    from the thermographs of its options' values (never a walk of the atom's tree)."""
    n = Fraction(math.floor(x))
    if n == x:
        return Thermograph(x, Fraction(-1), ((Fraction(-1), x),), ((Fraction(-1), x),))
    if x.denominator.bit_length() - 1 > 64:
        raise ComputationLimitError(f"the thermograph of a number with a denominator beyond 2^64 "
                                    f"({x.denominator.bit_length() - 1} binary places) is not computed")
    th = _fraction_thermograph(x - n)
    return Thermograph(th.mast + n, th.temperature, tuple((t, v + n) for t, v in th.left_wall),
                       tuple((t, v + n) for t, v in th.right_wall))


def _fraction_thermograph(f: Fraction) -> Thermograph:
    """The thermograph of the number ``0 <= f <= 1`` by the rule of :data:`_THERMO` on its options'
    values (at most ``k + 1`` levels for ``f = m/2^k``)."""
    if f.denominator == 1:
        return Thermograph(f, Fraction(-1), ((Fraction(-1), f),), ((Fraction(-1), f),))
    step = Fraction(1, f.denominator)
    return _THERMO.combine(dyadic(f), [_fraction_thermograph(f - step), _fraction_thermograph(f + step)])


_THERMO.number = _number_thermograph


def thermograph(g: Any) -> Thermograph:
    """The exact thermograph of ``G`` (computed on its canonical form): walls, mast and
    temperature (Winning Ways ch. 6; Siegel CGT II.5). The walls are the stops of ``G``
    cooled by ``t``: ``LW(t) = max_L RW(G^L)(t) - t`` and ``RW(t) = min_R LW(G^R)(t) + t``
    below the temperature, where they meet; above it a vertical mast.

    Examples
    --------
    >>> import cgtalg as cg
    >>> th = cg.thermograph(cg.parse("{2 || 1 | 0}"))
    >>> th.mast, th.temperature
    (Fraction(5, 4), Fraction(3, 4))
    >>> str(th)
    'Thermograph(5/4,[3/4],[0,-1],5/4,[3/4,1/2],[0,1,0])'
    >>> str(cg.thermograph(cg.parse("-1/2")))          # CGSuite: numbers cool to t = -1
    'Thermograph(-1/2,[-1/2],[0,-1],-1/2,[-1/2],[0,1])'
    """
    from cgtalg.normal.notation import format_partizan

    c = canonical_form(g)
    return replace(fold(c, _THERMO), form=format_partizan(c, max_chars=80))


def mean(g: Any) -> Fraction:
    """The mean value (the mast of the thermograph): ``mean(G + H) = mean(G) + mean(H)``.

    >>> import cgtalg as cg
    >>> cg.mean(cg.parse("{1 | 0}")), cg.temperature(cg.parse("{1 | 0}"))
    (Fraction(1, 2), Fraction(1, 2))
    """
    c = canonical_form(g)
    x = number_of(c)
    return x if x is not None else fold(c, _THERMO).mast


def temperature(g: Any) -> Fraction:
    """The temperature: where the thermograph's walls meet. ``-1/2^k`` for a number
    ``m/2^k``, ``-1`` for an integer, ``0`` for a number plus a non-zero infinitesimal, and
    ``x`` for the switch ``±x`` (Siegel CGT II.5; CGSuite's convention).

    >>> import cgtalg as cg
    >>> cg.temperature(cg.parse("±1")), cg.temperature(cg.up), cg.temperature(cg.dyadic(3, 4))
    (Fraction(1, 1), Fraction(0, 1), Fraction(-1, 4))
    """
    c = canonical_form(g)
    x = number_of(c)
    if x is not None:
        return Fraction(-1) if x.denominator == 1 else Fraction(-1, x.denominator)
    return fold(c, _THERMO).temperature


_COOL: dict[Fraction, dict[int, PartizanGame]] = register_cache("normal.thermography cooled forms", {})


def cool(g: Any, t: Any) -> PartizanGame:
    """``G`` cooled by ``t`` (canonical form): ``G_t = {G^L_t - t | G^R_t + t}``, except that an
    integer stays put and ``G_t`` is the mean once ``t`` exceeds the temperature (Winning Ways
    ch. 6; Siegel CGT II.5). ``t`` is a dyadic rational ``> -1``.

    >>> import cgtalg as cg
    >>> str(cg.cool(cg.parse("±1"), 1)), str(cg.cool(cg.parse("{3 || 2* | 1*}"), cg.dyadic(1, 2)))
    ('*', '{5/2|2*}')
    """
    q = _number_arg(t, "cooling temperature")
    if q <= -1:
        raise ArgumentError(f"cooling temperatures must be > -1, got {shorten(q)}")
    if q.denominator & (q.denominator - 1):
        raise ArgumentError(f"cooling by {shorten(q)}: the temperature must be a dyadic rational")
    memo = _COOL.setdefault(q, {})
    tq, mq = number_form(q), number_form(-q)
    root = canonical_form(g)

    def frozen(c: PartizanGame) -> bool:
        x = number_of(c)
        return (x is not None and x.denominator == 1) or temperature(c) < q

    def deps(c: PartizanGame) -> Sequence[PartizanGame]:
        return () if frozen(c) else c._options

    def compute(c: PartizanGame) -> PartizanGame:
        x = number_of(c)
        if x is not None and x.denominator == 1:
            return c
        if temperature(c) < q:
            return number_form(mean(c))
        return _from_canonical_options([canonical_sum(memo[o._id], mq) for o in c._left],
                                       [canonical_sum(memo[o._id], tq) for o in c._right])

    return memo_post_order(root, memo, deps, compute)  # type: ignore[arg-type]
