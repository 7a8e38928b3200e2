"""CGSuite's printed forms of stoppers, read and written exactly (issue 36).

CGSuite prints a canonical stopper by its shape (facts read from CGSuite's ``CanonicalStopper``
and ``Pseudonumber`` output and its tests ``EvalTest`` / ``CanonicalStopperTestCase``; the
game each text stands for is built here from the definition, as a graph):

- *pseudonumbers*: ``xover`` = ``{x | pass}`` and ``xunder`` = ``{pass | x}`` for a number
  ``x`` (``5over``, ``3/2under``, ``-5over``; ``x = 0`` is ``over`` / ``under``); as values
  ``xover = x + over`` (CGSuite: ``over+5`` prints ``5over``);
- *upon forms* (``x`` a number, ``m ≥ 0``; ``*m`` written ``*``, ``*2``, ...):

  - ``x^[on]*m`` = ``{pass | x*(m⊕1)}`` for ``m ≠ 1`` and ``{pass, x | x}`` for ``m = 1``
    (``^[on]`` = ``{pass|*}`` = upon, ``^[on]*`` = ``{pass,0|0}``);
  - ``x^<on>*m`` = ``{x, x*, ..., x*m | xv[on]*(m⊕1)}`` (``^<on>`` = ``{0||0|0,pass}``,
    ``^<on>*`` = ``{0,*||*|pass}``);
  - ``xv[on]*m`` = ``-((-x)^[on]*m)`` and ``xv<on>*m`` = ``-((-x)^<on>*m)``
    (``v[on]`` = ``{*|pass}``, ``-1/4v[on]`` = ``{-1/4*|pass}``);

- ``Tiny(G)`` = ``{0 || 0 | -G}`` and ``Miny(G)`` = ``{G | 0 || 0}`` (CGSuite's
  ``constants.cgs``), translated: ``xTiny(G)`` = ``{x || x | x - G}``, ``xMiny(G)`` =
  ``{x + G | x || x}``; ``x - G`` is built exactly when ``G`` is a number, ``on``, ``off`` or a
  pseudonumber, and as the sum graph otherwise;
- *switches*: ``±G`` = ``{G | -G}``, ``±{A, B}`` = ``{A, B | -A, -B}`` (read by
  :mod:`cgtalg.core.loopy_notation`); CGSuite writes ``±(5over)`` with parentheses around a
  pseudonumber or a tiny.

:func:`stopper_text` finds these shapes in a graph (in CGSuite's order: pseudonumbers, then
switches, tinies and minies, then upon forms) and writes them; every text it writes is read
back (:func:`cgtalg.parse_loopy`) and kept only when it gives the very same graph.
"""

from __future__ import annotations

import re
import weakref
from fractions import Fraction
from typing import Any

from cgtalg.core.loopy import LoopyGame, _canonical, as_loopy, loopy_negative, loopy_sum, named_loopy, options_graph

__all__ = ["pseudonumber", "upon_form", "tiny", "miny", "stopper_text", "NUMBER"]

#: a number as CGSuite writes it: an integer or a fraction
NUMBER = r"-?\d+(?:/\d+)?"
_NUMBER_STAR = re.compile(rf"({NUMBER})?(?:\*(\d*))?")
_NUMBER_ONLY = re.compile(NUMBER)


# -- building the games -----------------------------------------------------------------------
def _short(text: str) -> LoopyGame:
    """The graph of a short game in CGSuite's text (a canonical form)."""
    from cgtalg.hooks import partizan_notation  # the notation of values: cgtalg.normal

    return as_loopy(partizan_notation.resolve().parse_partizan(text))


def number_star_text(x: Fraction, m: int) -> str:
    """``x*m`` as CGSuite writes it (``0``, ``*``, ``5*2``, ``-1/4*``)."""
    s = "" if x == 0 else str(x)
    if m:
        s += "*" + (str(m) if m > 1 else "")
    return s or "0"


def _number_star(x: Fraction, m: int = 0) -> LoopyGame:
    return _short(number_star_text(x, m))


def game_of(left: list, right: list, pass_left: bool = False, pass_right: bool = False) -> LoopyGame:
    """``{left, [pass] | right, [pass]}`` for finished games ``left`` and ``right``."""
    graph, starts = options_graph(list(left) + list(right))
    me = len(graph)
    lo = starts[:len(left)] + ([me] if pass_left else [])
    ro = starts[len(left):] + ([me] if pass_right else [])
    return _canonical(tuple(graph) + ((tuple(lo), tuple(ro)),), me)


def pseudonumber(x: Fraction, over: bool) -> LoopyGame:
    """``xover`` = ``{x | pass}`` (``over`` True) or ``xunder`` = ``{pass | x}``."""
    return game_of([_number_star(x)], [], pass_right=True) if over else \
        game_of([], [_number_star(x)], pass_left=True)


def upon_form(x: Fraction, m: int, th: bool, down: bool) -> LoopyGame:
    """``x^[on]*m`` (``th`` False) or ``x^<on>*m`` (``th`` True); with ``down`` the ``v``
    forms, ``xv[on]*m = -((-x)^[on]*m)``."""
    if down:
        return loopy_negative(upon_form(-x, m, th, False))
    if th:
        return game_of([_number_star(x, j) for j in range(m + 1)], [upon_form(x, m ^ 1, False, True)])
    if m == 1:
        return game_of([_number_star(x)], [_number_star(x)], pass_left=True)
    return game_of([], [_number_star(x, m ^ 1)], pass_left=True)


def _minus(x: Fraction, g: LoopyGame) -> LoopyGame:
    """``x - G``: exact (a canonical graph) for a number, ``on``, ``off`` or a pseudonumber
    ``G``; the sum graph otherwise."""
    p = _pseudo(g)
    if p is not None:
        kind, w = p
        if kind == "on":
            return named_loopy()["off"]
        if kind == "off":
            return named_loopy()["on"]
        if kind == "number":
            return _number_star(x - w)
        return pseudonumber(x - w, kind == "under")
    return loopy_sum(_number_star(x), loopy_negative(g))


def tiny(x: Fraction, g: LoopyGame) -> LoopyGame:
    """``xTiny(G)`` = ``{x || x | x - G}`` (``Tiny(G)`` = ``{0 || 0 | -G}``)."""
    a = _number_star(x)
    y = loopy_negative(g) if x == 0 else _minus(x, g)
    return game_of([a], [game_of([a], [y])])


def miny(x: Fraction, g: LoopyGame) -> LoopyGame:
    """``xMiny(G)`` = ``{x + G | x || x}`` = ``-((-x)Tiny(G))``."""
    return loopy_negative(tiny(-x, g))


# -- recognising the shapes -------------------------------------------------------------------
_PARTS: "weakref.WeakKeyDictionary[LoopyGame, Any]" = weakref.WeakKeyDictionary()


def _number_star_of(h: LoopyGame) -> tuple[Fraction, int] | None:
    """``(x, m)`` when ``h`` is exactly the canonical graph of ``x*m``, else None."""
    if h in _PARTS:
        return _PARTS[h]
    got = None
    if h.is_short:
        from cgtalg.hooks import partizan_notation

        text = partizan_notation.resolve().format_partizan(h.to_partizan())
        m = _NUMBER_STAR.fullmatch(text)
        if text and m is not None and _short(text) is h:
            got = (Fraction(m.group(1) or 0), int(m.group(2) or 1) if "*" in text else 0)
    _PARTS[h] = got
    return got


def _number_of(h: LoopyGame) -> Fraction | None:
    p = _number_star_of(h)
    return p[0] if p is not None and p[1] == 0 else None


def _pseudo(g: LoopyGame) -> tuple[str, Fraction | None] | None:
    """``("on"|"off", None)``, ``("over"|"under", x)`` or ``("number", x)`` when ``g`` is
    exactly that pseudonumber's graph, else None."""
    named = named_loopy()
    if g is named["on"]:
        return ("on", None)
    if g is named["off"]:
        return ("off", None)
    x = _number_of(g)
    if x is not None:
        return ("number", x)
    lo, ro = g.graph[0]
    if lo == (0,) and len(ro) == 1 and ro[0] != 0:
        x = _number_of(g.follower(ro[0]))
        return None if x is None else ("under", x)
    if ro == (0,) and len(lo) == 1 and lo[0] != 0:
        x = _number_of(g.follower(lo[0]))
        return None if x is None else ("over", x)
    return None


def _reaches(graph: Any, starts: tuple[int, ...], targets: set[int]) -> bool:
    seen = set(starts)
    todo = list(starts)
    while todo:
        v = todo.pop()
        if v in targets:
            return True
        for w in (*graph[v][0], *graph[v][1]):
            if w not in seen:
                seen.add(w)
                todo.append(w)
    return False


def _upon_parts(g: LoopyGame, th_allowed: bool) -> tuple[Fraction, int, bool] | None:
    """``(x, m, th)`` when ``g`` is exactly ``x^[on]*m`` (``th`` False) or ``x^<on>*m``."""
    lo, ro = g.graph[0]
    if len(ro) != 1 or ro[0] == 0:
        return None
    r = g.follower(ro[0])
    ns = _number_star_of(r)
    if ns is not None and len(lo) <= 2:
        x, n = ns
        if n == 0 and len(lo) == 2 and 0 in lo and _number_of(g.follower(max(lo))) == x:
            return (x, 1, False)
        if n != 0 and lo == (0,):
            return (x, n ^ 1, False)
    if th_allowed and 0 not in lo:
        inner = _upon_parts(loopy_negative(r), False)
        if inner is not None:
            a, k, _ = inner
            want = {(-a, j) for j in range((k ^ 1) + 1)}
            have = {_number_star_of(g.follower(w)) for w in lo}
            if have == want and len(lo) == len(want):
                return (-a, k ^ 1, True)
    return None


def _paren(text: str) -> str:
    """An option of ``±`` in CGSuite's parentheses when it is a translated pseudonumber or a
    tiny (``±(5over)``, ``±(Tiny(on))``)."""
    if re.fullmatch(rf"{NUMBER}(?:over|under)", text) or re.match(rf"(?:{NUMBER})?[TM]iny\(", text):
        return f"({text})"
    return text


def stopper_text(g: LoopyGame, ascii: bool = False) -> str | None:
    """CGSuite's text for the game ``g`` when it has one of the shapes in the module docstring
    (checked by reading the text back to the same graph), else None.

    Examples
    --------
    >>> import cgtalg as cg
    >>> [stopper_text(cg.parse_loopy(t)) for t in ("{5|pass}", "{pass|*}", "{0||0|0,pass}", "{0||0|off}")]
    ['5over', '^[on]', '^<on>', 'Tiny(on)']
    """
    text = _shape_text(g, ascii)
    if text is None:
        return None
    from cgtalg.core.loopy_notation import parse_loopy

    return text if parse_loopy(text) is g else None


def _shape_text(g: LoopyGame, ascii: bool) -> str | None:
    from cgtalg.core.loopy_notation import format_loopy

    p = _pseudo(g)
    if p is not None and p[0] in ("over", "under"):
        return ("" if p[1] == 0 else str(p[1])) + p[0]
    graph = g.graph
    lo, ro = graph[0]
    # a switch {A, B | -A, -B} whose options do not come back to it
    if lo and len(lo) == len(ro) and 0 not in lo and not _reaches(graph, lo, {0}) \
            and loopy_negative(g) is g:
        pm = "+-" if ascii else "±"
        texts = [format_loopy(g.follower(w), max_chars=None, ascii=ascii) for w in lo]
        return pm + (_paren(texts[0]) if len(texts) == 1 else "{" + ",".join(sorted(texts)) + "}")
    for sign in (1, -1):  # xMiny(G) = -((-x)Tiny(G))
        t = _tiny_text(g if sign == 1 else loopy_negative(g))
        if t is not None:
            x = t[0] * sign
            return ("" if x == 0 else str(x)) + ("Tiny(" if sign == 1 else "Miny(") + t[1] + ")"
    for down, h in ((False, g), (True, loopy_negative(g))):
        u = _upon_parts(h, True)
        if u is not None:
            x, m, th = u
            x = -x if down else x
            return (("" if x == 0 else str(x)) + ("v" if down else "^") + ("<on>" if th else "[on]")
                    + ("*" + (str(m) if m > 1 else "") if m else ""))
    return None


def _tiny_text(g: LoopyGame) -> tuple[Fraction, str] | None:
    """``(x, text of G)`` when ``g`` is ``{x || x | y}`` with a number ``x`` and a pseudonumber
    ``y`` (``off``, ``zover``, ``zunder``) with ``y - x ≤ under`` (CGSuite's condition for
    printing a tiny): then ``g = xTiny(G)`` with ``G = x - y``. For another stopper ``y`` the
    condition is a comparison of the theory, not decided in the notation: the braces are
    written (``Tiny(G)`` is still read for every ``G``)."""
    graph = g.graph
    lo, ro = graph[0]
    if len(lo) != 1 or len(ro) != 1 or 0 in (lo[0], ro[0]):
        return None
    x = _number_of(g.follower(lo[0]))
    p = ro[0]
    if x is None or graph[p][0] != lo or len(graph[p][1]) != 1:
        return None
    yv = graph[p][1][0]
    if yv in (0, p) or _reaches(graph, (yv,), {0, p}):
        return None
    y = g.follower(yv)
    py = _pseudo(y)
    if py is not None:
        kind, w = py
        if kind == "on" or (kind == "under" and w > x) or (kind == "over" and w >= x) or kind == "number":
            return None  # y - x ≤ under fails (CGSuite prints the braces)
        sub = {"off": "on"}.get(kind) or (("" if x - w == 0 else str(x - w)) + ("over" if kind == "under" else "under"))
        return (x, sub)
    return None  # CGSuite's condition y - x ≤ under is not decided here: the braces
