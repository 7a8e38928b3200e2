"""Small inline SVG pictures for notebook displays: a thermograph drawn from its walls and a
sparkline of a sequence. Self-contained (no matplotlib, no external CSS), exact data kept in
``data-`` attributes so a reader (or a test) can check what was drawn.
"""

from __future__ import annotations

import html
from fractions import Fraction
from typing import Sequence

__all__ = ["thermograph_svg", "sparkline_svg"]


def _q(x: Fraction) -> str:
    x = Fraction(x)
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _at(wall: Sequence[tuple[Fraction, Fraction]], t: Fraction) -> Fraction:
    """A wall's value at ``t`` (linear between vertices, vertical after the last)."""
    if t >= wall[-1][0]:
        return Fraction(wall[-1][1])
    for (t0, v0), (t1, v1) in zip(wall, wall[1:]):
        if t0 <= t <= t1:
            return Fraction(v0) + (Fraction(v1) - Fraction(v0)) * (t - t0) / (t1 - t0)
    return Fraction(wall[0][1])


def thermograph_svg(left_wall: Sequence[tuple[Fraction, Fraction]], right_wall: Sequence[tuple[Fraction, Fraction]],
                    mast: Fraction, temperature: Fraction, title: str = "", width: int = 320, height: int = 240) -> str:
    """An SVG thermograph in the usual orientation (Winning Ways ch. 6; Siegel CGT II.5):
    values increase to the *left* (Left's side), temperature upward; the walls are drawn from
    ``t = -1`` to their last vertex, then straight up, and the mast from ``temperature`` to one
    unit above it. Both walls carry their exact vertices ``t,value`` in ``data-wall``; the axes
    are the line ``t = 0`` (with the stops, the walls' values at ``t = 0``, and the mean) and a temperature axis
    (with ``-1``, ``0``, the critical temperatures and ``temperature``).

    Parameters
    ----------
    left_wall, right_wall : sequence of (t, value)
        The walls' vertices, ascending in ``t`` from ``-1`` (:class:`cgtalg.Thermograph`).
    mast, temperature : Fraction
    title : str
        Drawn above the picture (the form's text, say), followed by the mean and temperature.
    """
    top = max(Fraction(temperature), Fraction(0)) + 1
    pts = list(left_wall) + list(right_wall) + [(top, mast)]
    vmin = min(v for _, v in pts)
    vmax = max(v for _, v in pts)
    if vmax == vmin:
        vmin, vmax = vmin - 1, vmax + 1
    tmin = Fraction(-1)
    ml, mr, mt, mb = 46, 14, 40, 34  # margins
    sx = (width - ml - mr) / float(vmax - vmin)
    sy = (height - mt - mb) / float(top - tmin)

    def X(v: Fraction) -> float:  # values increase to the left
        return round(ml + float(vmax - v) * sx, 2)

    def Y(t: Fraction) -> float:
        return round(height - mb - float(t - tmin) * sy, 2)

    def poly(wall: Sequence[tuple[Fraction, Fraction]], cls: str, colour: str) -> str:
        w = list(wall) + [(top, wall[-1][1])] if wall[-1][0] < top else list(wall)
        points = " ".join(f"{X(v)},{Y(t)}" for t, v in w)
        data = " ".join(f"{_q(t)},{_q(v)}" for t, v in wall)
        return (f"<polyline class='{cls}' data-wall='{data}' points='{points}' fill='none' "
                f"stroke='{colour}' stroke-width='2'></polyline>")

    caption = f"mean {_q(mast)}, temperature {_q(temperature)}"
    head = html.escape(title if len(title) <= 60 else title[:57] + "...")
    parts = [f"<svg xmlns='http://www.w3.org/2000/svg' class='cgtalg-thermograph' width='{width}' height='{height}' "
             f"viewBox='0 0 {width} {height}' data-mast='{_q(mast)}' data-temperature='{_q(temperature)}' "
             f"font-family='sans-serif' font-size='11'>",
             f"<title>thermograph{': ' + head if head else ''} ({caption})</title>",
             f"<text x='{width / 2}' y='14' text-anchor='middle' font-weight='bold'>{head or 'thermograph'}</text>",
             f"<text x='{width / 2}' y='28' text-anchor='middle'>{html.escape(caption)}</text>"]
    # axes: t = 0 horizontally, a temperature axis at the left margin
    y0, xa = Y(Fraction(0)), ml - 8
    parts.append(f"<line class='value-axis' x1='{ml - 8}' y1='{y0}' x2='{width - mr}' y2='{y0}' stroke='#999'></line>")
    parts.append(f"<line class='temperature-axis' x1='{xa}' y1='{Y(tmin)}' x2='{xa}' y2='{Y(top)}' stroke='#999'></line>")
    temps = sorted({tmin, Fraction(0), Fraction(temperature)} | {t for t, _ in list(left_wall) + list(right_wall)})
    last = None
    for t in temps:
        if last is not None and abs(Y(t) - last) < 11:
            continue
        last = Y(t)
        parts.append(f"<text x='{xa - 3}' y='{Y(t) + 4}' text-anchor='end'>{_q(t)}</text>"
                     f"<line x1='{xa - 2}' y1='{Y(t)}' x2='{xa + 2}' y2='{Y(t)}' stroke='#999'></line>")
    values = sorted({Fraction(mast), _at(left_wall, Fraction(0)), _at(right_wall, Fraction(0))}, reverse=True)
    lastx = None
    for v in values:
        if lastx is not None and abs(X(v) - lastx) < 24:
            continue
        lastx = X(v)
        parts.append(f"<text x='{X(v)}' y='{height - mb + 14}' text-anchor='middle'>{_q(v)}</text>"
                     f"<line x1='{X(v)}' y1='{height - mb}' x2='{X(v)}' y2='{height - mb + 3}' stroke='#999'></line>")
    parts.append(f"<text x='{width - mr}' y='{height - 4}' text-anchor='end' fill='#666'>value (Left ←)</text>")
    parts.append(f"<text x='4' y='{mt - 2}' fill='#666'>t</text>")
    parts.append(poly(left_wall, "left-wall", "#1f77b4"))
    parts.append(poly(right_wall, "right-wall", "#d62728"))
    parts.append(f"<line class='mast' x1='{X(mast)}' y1='{Y(Fraction(temperature))}' x2='{X(mast)}' y2='{Y(top)}' "
                 f"stroke='black' stroke-width='2'></line>")
    parts.append("</svg>")
    return "".join(parts)


def sparkline_svg(values: Sequence[int], split: int | None = None, width: int = 360, height: int = 56,
                  label: str = "") -> str:
    """A small plot of a sequence of numbers (one dot per value, joined); with ``split`` the
    values before index ``split`` (a preperiod) are red, the rest blue. The values are kept in
    ``data-values``."""
    vals = [int(v) for v in values]
    if not vals:
        return "<svg xmlns='http://www.w3.org/2000/svg' width='0' height='0'></svg>"
    hi = max(max(vals), 1)
    lo = min(min(vals), 0)
    pad = 4
    dx = (width - 2 * pad) / max(len(vals) - 1, 1)

    def xy(i: int, v: int) -> str:
        return f"{round(pad + i * dx, 2)},{round(height - pad - (v - lo) * (height - 2 * pad) / (hi - lo), 2)}"

    parts = [f"<svg xmlns='http://www.w3.org/2000/svg' class='cgtalg-sparkline' width='{width}' height='{height}' "
             f"viewBox='0 0 {width} {height}' data-values='{' '.join(map(str, vals))}'>",
             f"<title>{html.escape(label or 'values')}: {len(vals)} values, max {max(vals)}</title>",
             f"<polyline points='{' '.join(xy(i, v) for i, v in enumerate(vals))}' fill='none' stroke='#bbb' "
             f"stroke-width='1'></polyline>"]
    for i, v in enumerate(vals):
        colour = "#d62728" if split is not None and i < split else "#1f77b4"
        x, y = xy(i, v).split(",")
        parts.append(f"<circle cx='{x}' cy='{y}' r='1.6' fill='{colour}'></circle>")
    parts.append("</svg>")
    return "".join(parts)
