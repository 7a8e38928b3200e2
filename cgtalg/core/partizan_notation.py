"""Reading and writing partizan forms in CGSuite's notation.

:func:`parse_partizan` reads CGSuite's game syntax (Siegel, CGT ch. II; CGSuite's output
conventions) and :func:`format_partizan` prints forms as CGSuite prints canonical forms, so
``parse_partizan(format_partizan(G)) is G`` for every form (canonical forms print exactly as
CGSuite prints them).

Grammar (whitespace is free except inside a juxtaposed value such as ``1/2^*``):

- ``{L1, L2 | R1, R2}``: the form with those options; ``{|}`` is 0, ``{ | 0}`` is -1.
  Several bars separate levels, more bars binding looser: ``{2 || 1 | 0}`` is
  ``{2 | {1 | 0}}`` and ``{a | b || c}`` is ``{{a | b} | c}``; two runs of the same number
  of bars at one level are ambiguous and refused. Braces without a bar, ``{a, b}``, are the
  impartial form with those options for both players (as in the impartial notation).
- Numbers: integers ``3``, dyadic rationals ``1/2``, ``-3/4`` (canonical forms).
- Nimbers ``*``, ``*n``; ups ``^``, ``^^``, ``^n`` (n ups), downs ``v``, ``vv``, ``vn``, with
  an optional nimber: ``^*``, ``^^*``, ``v3*2``; the arrows ``↑ ↓ ⇑ ⇓`` are read too.
- Juxtaposed sums of a number, ups and a nimber, as CGSuite prints them: ``1*``, ``9/8*``,
  ``6^*``, ``73/16v9*8``, ``1*2`` (= 1 + *2: no multiplication here).
- ``±G`` and ``+-G`` = ``{G | -G}``; ``±{a, b}`` = ``{a, b | -a, -b}``; ``G ± H`` = ``G + ±H``.
- ``Tiny(G)`` = ``{0 || 0 | -G}``, ``Miny(G)`` = ``{G | 0 || 0}``, ``xTiny(G)`` and
  ``xMiny(G)`` translated by a number ``x`` (CGSuite's plain-text output for tinies).
- ``G + H``, ``G - H``, ``-G``, parentheses. A ``-`` written directly before a number belongs
  to the number (``-1^`` is ``-1 + ^``, as CGSuite prints it); ``+-`` is always ``±``.

Values written with the value syntax (numbers, ``^``, ``*n``, juxtaposed sums) give canonical
forms; braces give the form as written; ``+`` gives the literal sum of the forms (use
:func:`cgtalg.normal.partizan.canonical_form` for values), except that a number plus a
canonical form is their canonical sum (``2 + {1|0}`` is ``{3|2}``: number translation, so large
numbers cost nothing), and a literal sum is refused past :data:`SUM_LIMIT`.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Any

from cgtalg import hooks
from cgtalg.core.fold import memo_post_order
from cgtalg.core.named_forms import fraction_text, number_form, number_of, uptimal, uptimal_parts
from cgtalg.core.notation import Scanner
from cgtalg.core.partizan import PartizanGame, as_partizan, negative, nimber, partizan_sum, pgame
from cgtalg.errors import ArgumentTypeError, ComputationLimitError, GameNotationError, require_int, shorten

__all__ = ["parse_partizan", "format_partizan", "looks_partizan", "PARTIZAN_DEPTH_LIMIT",
           "FORMAT_LIMIT", "HIGHER_UP_LIMIT"]

#: deepest nesting of braces and parentheses :func:`parse_partizan` reads
PARTIZAN_DEPTH_LIMIT = 20_000

#: most characters :func:`format_partizan` writes without ``max_chars``
FORMAT_LIMIT = 5_000_000

#: largest product of subposition counts of a literal sum ``A + B`` read from text
SUM_LIMIT = 40_000

#: largest n read in ``^<n>`` and ``^[n]`` (the forms grow with n, their text quadratically)
HIGHER_UP_LIMIT = 1_000

#: CGSuite brackets a form once it would need this many bars
_MAX_BARS = 4

_DIGITS = frozenset("0123456789")
_UPS = {"^": 1, "↑": 1, "⇑": 2, "v": -1, "↓": -1, "⇓": -2}
_FREE_V = re.compile(r"(?<![A-Za-z_])v+[0-9]*(?![A-Za-z_(])")


#: a ruleset position ``name(args)`` in game text (not CGSuite's ``Tiny(G)`` / ``Miny(G)``)
_RULESET_CALL = re.compile(r"\b(?!Tiny\(|Miny\()[A-Za-z_][A-Za-z0-9_]*\([^()]*\)")


def looks_partizan(text: str) -> bool:
    """Whether game text uses partizan notation (bars, ups/downs, ``±``, fractions, minus
    signs, tinies): what :func:`cgtalg.parse` uses to choose the partizan reader. The
    arguments of a ruleset position ``name(a, b)`` do not count (``kayles(-1)`` is impartial
    text with a bad argument, reported as such)."""
    text = _RULESET_CALL.sub("", text)
    if any(c in text for c in "|^±↑↓⇑⇓/-"):
        return True
    if "Tiny(" in text or "Miny(" in text:
        return True
    return "v" in text and _FREE_V.search(text) is not None


def parse_partizan(text: str) -> PartizanGame:
    """Parse CGSuite partizan game text into a form (grammar in the module docstring).

    Raises
    ------
    GameNotationError
        With the position of the first character that cannot be read, e.g. an ambiguous
        pattern of bars, a fraction whose denominator is not a power of 2, or nesting deeper
        than :data:`PARTIZAN_DEPTH_LIMIT`.
    ComputationLimitError
        For values too large to build as forms (an integer beyond
        :data:`cgtalg.core.partizan.INTEGER_LIMIT`, a huge nimber).

    Examples
    --------
    >>> import cgtalg as cg
    >>> cg.parse_partizan("{0 | *}") is cg.up
    True
    >>> G = cg.parse_partizan("{2 || 1 | 0}")
    >>> G.left == (cg.integer(2),) and G.right == (cg.parse_partizan("{1 | 0}"),)
    True
    >>> cg.parse_partizan("1/2^*") is cg.partizan_canonical(cg.dyadic(1, 2) + cg.up + cg.nim(1))
    True
    """
    if isinstance(text, PartizanGame):
        return text
    if not isinstance(text, str):
        raise ArgumentTypeError(f"game text must be a str, got {type(text).__name__}: {shorten(text)}")
    depth, where = _nesting(text)
    if depth > PARTIZAN_DEPTH_LIMIT:
        raise GameNotationError(
            text, where, f"braces and parentheses nest {depth} deep, more than the limit of "
            f"{PARTIZAN_DEPTH_LIMIT} (cgtalg.core.partizan_notation.PARTIZAN_DEPTH_LIMIT)")
    # the reader recurses per nesting level, and per level of bars (at most ~sqrt(2 * bars))
    return _Parser.read(text, 12 * depth + 4 * math.isqrt(2 * text.count("|")) + 300)


def _nesting(text: str) -> tuple[int, int]:
    best = depth = 0
    where = 0
    for i, ch in enumerate(text):
        if ch in "({":
            depth += 1
            if depth > best:
                best, where = depth, i
        elif ch in ")}":
            depth -= 1
    return best, where


def _switch(g: PartizanGame) -> PartizanGame:
    return pgame([g], [_negative(g)])


def _negative(g: PartizanGame) -> PartizanGame:
    """``-G``; a number through its value (no walk down a long integer chain)."""
    x = number_of(g)
    return number_form(-x) if x is not None else negative(g)


def _literal_sum_ok(a: PartizanGame, b: PartizanGame) -> bool:
    """Whether ``A + B`` in text means the literal sum of the forms (see :func:`_sum`)."""
    if number_of(a) is not None or number_of(b) is not None:
        return False
    return len(a.subpositions()) * len(b.subpositions()) <= SUM_LIMIT


def _sum(a: PartizanGame, b: PartizanGame, text: str, at: int) -> PartizanGame:
    """``A + B`` as written: with a number on either side and a canonical form on the other,
    the canonical sum (number translation: ``1/2 + ^`` is ``1/2^``, cheap for any number);
    otherwise the literal sum of the forms, refused past :data:`SUM_LIMIT`."""
    x, y = number_of(a), number_of(b)
    if x is not None and y is not None:
        return number_form(x + y)
    if (x is not None and hooks.partizan_canonical(b) is b) or (y is not None and hooks.partizan_canonical(a) is a):
        return hooks.partizan_canonical_sum(a, b)
    na, nb = len(a.subpositions()), len(b.subpositions())
    if na * nb > SUM_LIMIT:
        raise ComputationLimitError(
            f"the literal sum at position {at} of {text[:60]!r} joins forms of {na} and {nb} "
            f"subpositions, more than cgtalg.core.partizan_notation.SUM_LIMIT = {SUM_LIMIT}; "
            "add canonical forms instead (cgtalg.normal.partizan.canonical_sum)")
    return partizan_sum(a, b)



def braces_have_bar(text: str, start: int) -> bool:
    """Whether the brace group opening at ``text[start]`` has a '|' at its own level (``±{a, b}``
    lists options; ``±{a | b}`` is a game)."""
    depth = 0
    for i in range(start, len(text)):
        ch = text[i]
        if ch in "({":
            depth += 1
        elif ch in ")}":
            depth -= 1
            if depth == 0:
                return False
        elif ch == "|" and depth == 1:
            return True
    return False

class _Parser(Scanner):
    # -- helpers (the reading position, errors and parse_all come from core's Scanner) ------
    def at(self, i: int) -> str:
        return self.text[i] if i < len(self.text) else ""

    def digits(self, what: str) -> int:
        start = self.pos
        text = self.text
        while self.pos < len(text) and text[self.pos] in _DIGITS:
            self.pos += 1
        if self.pos == start:
            raise self.error(f"expected {what}")
        if self.pos - start > 30:
            raise self.error(f"a number of {self.pos - start} digits is too large for a short "
                             "game form", start)
        return int(text[start:self.pos])

    # -- grammar -----------------------------------------------------------------------------
    def expr(self) -> PartizanGame:
        g = self.unary()
        while True:
            c = self.peek()
            if c == "+":
                at = self.pos
                if self.at(self.pos + 1) == "-":
                    self.pos += 2
                    g = _sum(g, _switch(self.unary()), self.text, at)
                else:
                    self.pos += 1
                    g = _sum(g, self.unary(), self.text, at)
            elif c == "-":
                at = self.pos
                self.pos += 1
                g = _sum(g, _negative(self.unary()), self.text, at)
            elif c == "±":
                at = self.pos
                self.pos += 1
                g = _sum(g, _switch(self.unary()), self.text, at)
            else:
                return g

    def unary(self) -> PartizanGame:
        ops: list[str] = []
        while True:
            c = self.peek()
            if c == "-" and self.at(self.pos + 1) not in _DIGITS:
                ops.append("-")
                self.pos += 1
            elif c == "+" and self.at(self.pos + 1) == "-":
                ops.append("±")
                self.pos += 2
            elif c == "±":
                ops.append("±")
                self.pos += 1
            elif c == "+":
                self.pos += 1
            else:
                break
        if ops and ops[-1] == "±" and self.peek() == "{" and not self.braces_have_bar():
            g = self.switch_list()
            ops.pop()
        else:
            g = self.primary()
        for op in reversed(ops):
            g = _negative(g) if op == "-" else _switch(g)
        return g

    def braces_have_bar(self) -> bool:
        """Whether the brace group starting at ``self.pos`` has a '|' at its own level."""
        return braces_have_bar(self.text, self.pos)

    def switch_list(self) -> PartizanGame:
        """``±{a, b}``: the switch with Left options a, b and Right options -a, -b."""
        self.pos += 1
        opts: list[PartizanGame] = []
        if self.peek() == "}":
            raise self.error("expected an option in ±{...}")
        while True:
            opts.append(self.expr())
            c = self.peek()
            if c == ",":
                self.pos += 1
                continue
            if c == "}":
                self.pos += 1
                return pgame(opts, [negative(o) for o in opts])
            raise self.error("expected ',' or '}' in ±{...}")

    def primary(self) -> PartizanGame:
        c = self.peek()
        if c == "{":
            return self.braces()
        if c == "(":
            self.pos += 1
            g = self.expr()
            if self.peek() != ")":
                raise self.error("expected ')' to close '('")
            self.pos += 1
            return g
        if c in _DIGITS or c == "-":
            return self.number_term()
        if c in _UPS or c == "*":
            return self.upstar(Fraction(0), required=True)
        if c in ("T", "M"):
            return self.tiny(Fraction(0))
        if c == "":
            raise self.error("unexpected end of input: expected a game")
        if c == "|":
            raise self.error("'|' outside braces: write {L | R}")
        if c.isdigit():
            raise self.error(f"{c!r} is not an ASCII digit")
        raise self.error("expected a game: a number, *, ^, v, {L | R}, ±G, Tiny(G) or (...)")

    def number_term(self) -> PartizanGame:
        """A number literal (``3``, ``-1/2``), optionally juxtaposed with ups, a nimber or a
        tiny: ``9/8*``, ``-1^``, ``73/16v9*8``, ``1Tiny(2)``."""
        sign = 1
        if self.text[self.pos] == "-":
            sign = -1
            self.pos += 1
        num = self.digits("a number")
        den = 1
        if self.at(self.pos) == "/" and self.at(self.pos + 1) in _DIGITS:
            slash = self.pos
            self.pos += 1
            den = self.digits("a denominator")
            if den == 0 or den & (den - 1):
                raise self.error(f"{num}/{den} is not a dyadic rational: numbers in short games "
                                 "have power-of-2 denominators", slash)
        x = Fraction(sign * num, den)
        nxt = self.at(self.pos)
        if nxt in ("T", "M"):
            return self.tiny(x)
        if nxt in _UPS or nxt == "*":
            return self.upstar(x, required=False)
        return number_form(x)

    def upstar(self, x: Fraction, required: bool) -> PartizanGame:
        """Ups or downs and a nimber written together, after a number ``x`` (no spaces)."""
        start = self.pos
        ups = 0
        c = self.at(self.pos)
        if c in _UPS:
            run = 0
            while self.at(self.pos) == c:
                run += 1
                self.pos += 1
            if run == 1 and c in "^v↑↓" and self.at(self.pos) in ("[", "<"):
                return self.higher(x, _UPS[c])
            if self.at(self.pos) in _DIGITS:
                if run > 1 or c in "⇑⇓":
                    raise self.error(f"a count follows a single {c[0]!r} only: write "
                                     f"{'^' if _UPS[c] > 0 else 'v'}n for n ups or downs")
                count = self.digits("a count")
                ups = count if _UPS[c] > 0 else -count
            else:
                ups = _UPS[c] * run
        star = 0
        if self.at(self.pos) == "*":
            self.pos += 1
            star = self.digits("a nimber size") if self.at(self.pos) in _DIGITS else 1
        if self.pos == start and required:  # pragma: no cover - callers check the first char
            raise self.error("expected ^, v or *")
        return uptimal(x, ups, star)

    def higher(self, x: Fraction, sign: int) -> PartizanGame:
        """CGSuite's ``^<n>`` (up-nth), ``^[n]`` and their negatives ``v<n>``, ``v[n]``, after a
        number ``x`` and before an optional nimber: ``3/4v[3]*``."""
        opened = self.pos
        kind = self.text[self.pos]
        self.pos += 1
        n = self.digits("a count")
        close = ">" if kind == "<" else "]"
        if self.at(self.pos) != close:
            raise self.error(f"expected {close!r} to close {kind!r}", self.pos)
        self.pos += 1
        if n < 1:
            raise self.error(f"{kind}{n}{close}: the count is at least 1", opened)
        if n > HIGHER_UP_LIMIT:
            raise ComputationLimitError(
                f"{kind}{n}{close}: orders beyond {HIGHER_UP_LIMIT} are refused (the form has birthday "
                f"about {n}; cgtalg.core.partizan_notation.HIGHER_UP_LIMIT)")
        star = 0
        if self.at(self.pos) == "*":
            self.pos += 1
            star = self.digits("a nimber size") if self.at(self.pos) in _DIGITS else 1
        canonical_sum = hooks.partizan_canonical_sum
        h = hooks.partizan_higher_up(kind, n)
        g = canonical_sum(number_form(x), h if sign > 0 else negative(h))
        return canonical_sum(g, nimber(star)) if star else g

    def tiny(self, x: Fraction) -> PartizanGame:
        """``Tiny(G)`` = ``{x || x | x - G}`` and ``Miny(G)`` = ``{x + G | x || x}``."""
        start = self.pos
        name = self.text[self.pos:self.pos + 5]
        if name not in ("Tiny(", "Miny("):
            raise self.error("expected Tiny(G) or Miny(G)", start)
        self.pos += 5
        sub = self.expr()
        if self.peek() != ")":
            raise self.error(f"expected ')' to close {name}")
        self.pos += 1
        canonical_form, canonical_sum = hooks.partizan_canonical, hooks.partizan_canonical_sum
        base = number_form(x)
        if name == "Tiny(":
            far = negative(sub) if x == 0 else canonical_sum(base, negative(canonical_form(sub)))
            return pgame([base], [pgame([base], [far])])
        far = sub if x == 0 else canonical_sum(base, canonical_form(sub))
        return pgame([pgame([far], [base])], [base])

    def braces(self) -> PartizanGame:
        opened = self.pos
        self.pos += 1
        segments: list[list[PartizanGame]] = [[]]
        bars: list[tuple[int, int]] = []  # (number of bars, position)
        need_option = False  # after a comma
        while True:
            c = self.peek()
            if c == "}":
                if need_option:
                    raise self.error("expected an option after ','")
                self.pos += 1
                break
            if c == "":
                raise self.error(f"unclosed '{{' (opened at position {opened}): expected an "
                                 "option, ',', '|' or '}'")
            if c == "|":
                if need_option:
                    raise self.error("expected an option after ','")
                start = self.pos
                while self.at(self.pos) == "|":
                    self.pos += 1
                bars.append((self.pos - start, start))
                segments.append([])
                continue
            if c == ",":
                if not segments[-1] or need_option:
                    raise self.error("expected an option before ','")
                self.pos += 1
                need_option = True
                continue
            if segments[-1] and not need_option:
                raise self.error("expected ',', '|' or '}' after an option")
            segments[-1].append(self.expr())
            need_option = False
        if not bars:
            opts = segments[0]
            return pgame(opts, opts)
        built = self.split(segments, bars, 0, len(segments) - 1)
        assert isinstance(built, PartizanGame)
        return built

    def split(self, segments: list[list[PartizanGame]], bars: list[tuple[int, int]], lo: int,
              hi: int) -> PartizanGame | list[PartizanGame]:
        """Segments ``lo..hi`` (with the bar runs between them) as one game, or as an option
        list when ``lo == hi``: the run with the most bars is the top level."""
        if lo == hi:
            return segments[lo]
        top = max(b[0] for b in bars[lo:hi])
        at = [j for j in range(lo, hi) if bars[j][0] == top]
        if len(at) > 1:
            raise self.error(f"ambiguous bars: two runs of {top} '|' at the same level "
                             "(more bars bind looser: write {a || b | c} or {a | b || c})",
                             bars[at[1]][1])
        j = at[0]
        left = self.split(segments, bars, lo, j)
        right = self.split(segments, bars, j + 1, hi)
        return pgame(left if isinstance(left, list) else [left],
                     right if isinstance(right, list) else [right])


# -- formatting -------------------------------------------------------------------------------
class _Node:
    """How one subposition prints: ``kind`` is ``"num"``, ``"nus"`` (number + ups + nimber),
    ``"imp"`` (an impartial form, braces without bars), ``"switch"``, ``"tiny"``, ``"sum"`` or
    ``"gen"`` (braces with bars)."""

    __slots__ = ("kind", "text", "compact", "lo", "ro", "bars", "core", "parts", "sub", "key", "wrap")

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.text = ""
        self.compact = True
        self.lo: list[PartizanGame] = []
        self.ro: list[PartizanGame] = []
        self.bars = 0
        self.core = 0  # length of the text without braces (gen, sum) or of the text
        self.parts: list[PartizanGame] = []
        self.sub: PartizanGame | None = None
        self.key: tuple = ()
        self.wrap = False  # always in braces (four bars, or an empty side)


def _uptimal_text(x: Fraction, n: int, m: int) -> str:
    out = ""
    if x != 0 or (n == 0 and m == 0):
        out += fraction_text(x)
    if n:
        sym = "^" if n > 0 else "v"
        out += sym * abs(n) if abs(n) <= 2 else sym + str(abs(n))
    if m:
        out += "*" if m == 1 else f"*{m}"
    return out


def _higher_text(x: Fraction, kind: str, n: int, m: int) -> str:
    """CGSuite's text for ``x + ^<n> + *m`` or ``x + ^[n] + *m`` (``v`` for negative ``n``)."""
    close = ">" if kind == "<" else "]"
    out = "" if x == 0 else fraction_text(x)
    out += ("^" if n > 0 else "v") + kind + str(abs(n)) + close
    if m:
        out += "*" if m == 1 else f"*{m}"
    return out


class _Formatter:
    def __init__(self, ascii_only: bool) -> None:
        self.pm = "+-" if ascii_only else "±"
        self.nodes: dict[int, _Node] = {}

    # -- analysis (bottom-up) ------------------------------------------------------------------
    def analyse(self, root: PartizanGame) -> None:
        """Analyse ``root``, its subpositions, and the extra forms some of them print through
        (the parts of a sum, the subscript of a tiny), children first, iteratively."""
        memo_post_order(root, self.nodes, self.deps, self.node)  # type: ignore[arg-type]

    def deps(self, x: PartizanGame) -> list[PartizanGame]:
        if uptimal_parts(x) is not None or hooks.partizan_higher_parts(x) is not None:
            return []
        out = list(x._options)
        parts = x.sum_parts
        if parts is not None:
            out += parts
        sub = self.tiny_sub(x)
        if sub is not None:
            out.append(sub[1])
        return out

    def node(self, x: PartizanGame) -> _Node:
        parts = uptimal_parts(x)
        if parts is not None:
            v, n, m = parts
            kind = "num" if n == 0 and m == 0 else "nus"
            nd = _Node(kind)
            nd.text = _uptimal_text(v, n, m)
            nd.core = len(nd.text)
            nd.compact = kind == "num" or (v == 0 and (n == 0 or m == 0))
            nd.key = ((0, v) if kind == "num" else (1, m) if v == 0 and n == 0
                      else (2, v, (n,) if n else (), m))
            return nd
        higher = hooks.partizan_higher_parts(x)
        if higher is not None:
            v, kind, n, m = higher
            nd = _Node("nus")
            nd.text = _higher_text(v, kind, n, m)
            nd.core = len(nd.text)
            nd.compact = v == 0 and m == 0
            nd.key = (2, v, (abs(n), 1 if kind == "<" else 2, n), m)
            return nd
        nd = self.tiny_node(x)
        if nd is None and x._left and x._left == x._right and x.is_impartial:
            nd = _Node("imp")  # an impartial form (not a nimber): {a, b} without bars
            nd.lo = nd.ro = self.sort(x._left)
        if nd is None and x._left and negative(x) is x:
            nd = _Node("switch")
            nd.lo = self.sort(x._left)
        if nd is None:
            nd = _Node("gen")
            nd.lo, nd.ro = self.sort(x._left), self.sort(x._right)
        nd.key = (3, tuple(self.nodes[o._id].key for o in self.sort(x._left)),
                  tuple(self.nodes[o._id].key for o in self.sort(x._right)))
        self.measure(x, nd)
        if x.sum_parts is not None and _literal_sum_ok(*x.sum_parts):
            a, b = x.sum_parts
            sum_len = self.length(a, True, False) + 3 + self.length(b, True, False)
            if sum_len < self.node_length(nd, True, False):
                nd.kind = "sum"
                nd.parts = [a, b]
                nd.core = sum_len
        return nd

    def sort(self, opts: tuple[PartizanGame, ...]) -> list[PartizanGame]:
        return sorted(opts, key=lambda o: self.nodes[o._id].key)

    def tiny_sub(self, x: PartizanGame) -> tuple[str, PartizanGame] | None:
        """CGSuite's Tiny/Miny: ``{a || a | b}`` with a number ``a`` and mean(b) < a prints as
        ``aTiny(a - b)``; ``{b | a || a}`` with mean(b) > a as ``aMiny(b - a)``. Returns the
        prefix text and the subscript form, or None."""
        if len(x._left) != 1 or len(x._right) != 1:
            return None
        canonical_form, mean = hooks.partizan_canonical, hooks.partizan_mean
        l, r = x._left[0], x._right[0]
        a = number_of(l)
        if a is not None and len(r._left) == 1 and len(r._right) == 1 and r._left[0] is l:
            b = r._right[0]
            if (a == 0 or canonical_form(b) is b) and mean(b) < a:
                sub = negative(b) if a == 0 else hooks.partizan_canonical_sum(l, negative(b))
                return ("" if a == 0 else fraction_text(a)) + "Tiny(", sub
        a = number_of(r)
        if a is not None and len(l._left) == 1 and len(l._right) == 1 and l._right[0] is r:
            b = l._left[0]
            if (a == 0 or canonical_form(b) is b) and mean(b) > a:
                sub = b if a == 0 else hooks.partizan_canonical_sum(b, negative(r))
                return ("" if a == 0 else fraction_text(a)) + "Miny(", sub
        return None

    def tiny_node(self, x: PartizanGame) -> _Node | None:
        found = self.tiny_sub(x)
        if found is None:
            return None
        nd = _Node("tiny")
        nd.text, nd.sub = found
        return nd

    def returned_bars(self, o: PartizanGame, brackets: bool) -> int:
        nd = self.nodes[o._id]
        if nd.kind != "gen" or brackets or nd.wrap:
            return 0
        return nd.bars

    def measure(self, x: PartizanGame, nd: _Node) -> None:
        if nd.kind == "tiny":
            assert nd.sub is not None
            nd.core = len(nd.text) + self.length(nd.sub, True, False) + 1
            return
        if nd.kind == "switch":
            lo = nd.lo
            many = len(lo) > 1
            nd.core = len(self.pm) + sum(self.length(o, True, not many) for o in lo) + (len(lo) - 1)
            if many:
                nd.core += 2
            return
        if nd.kind == "imp":
            nd.core = sum(self.length(o, True, False) for o in nd.lo) + len(nd.lo) - 1
            return
        # gen: bars = 1 + the most bars an unbracketed single option uses
        lo, ro = nd.lo, nd.ro
        bl = max((self.returned_bars(o, len(lo) > 1) for o in lo), default=0) + 1
        br = max((self.returned_bars(o, len(ro) > 1) for o in ro), default=0) + 1
        nd.bars = max(bl, br)
        nd.core = (sum(self.length(o, len(lo) > 1, False) for o in lo) + max(len(lo) - 1, 0)
                   + sum(self.length(o, len(ro) > 1, False) for o in ro) + max(len(ro) - 1, 0)
                   + nd.bars)
        nd.wrap = nd.bars >= _MAX_BARS or not lo or not ro

    def length(self, x: PartizanGame, brackets: bool, parens: bool) -> int:
        return self.node_length(self.nodes[x._id], brackets, parens)

    @staticmethod
    def node_length(nd: _Node, brackets: bool, parens: bool) -> int:
        if nd.kind == "gen":
            return nd.core + (2 if brackets or nd.wrap else 0)
        if nd.kind == "imp":
            return nd.core + 2
        if nd.kind in ("num", "nus"):
            return nd.core + (2 if parens and not nd.compact else 0)
        if nd.kind in ("tiny", "sum"):
            return nd.core + (2 if parens else 0)
        return nd.core  # switch

    # -- writing (top-down, stops at a budget) ------------------------------------------------
    def write(self, root: PartizanGame, budget: int) -> str:
        out: list[str] = []
        used = 0
        stack: list[Any] = [(root, True, False)]
        while stack and used < budget:
            item = stack.pop()
            if isinstance(item, str):
                piece = item
            else:
                x, brackets, parens = item
                nd = self.nodes[x._id]
                kind = nd.kind
                if kind in ("num", "nus"):
                    piece = f"({nd.text})" if parens and not nd.compact else nd.text
                else:
                    pieces: list[Any] = []
                    if kind == "gen":
                        wrap = brackets or nd.wrap
                        if wrap:
                            pieces.append("{")
                        for i, o in enumerate(nd.lo):
                            if i:
                                pieces.append(",")
                            pieces.append((o, len(nd.lo) > 1, False))
                        pieces.append("|" * nd.bars)
                        for i, o in enumerate(nd.ro):
                            if i:
                                pieces.append(",")
                            pieces.append((o, len(nd.ro) > 1, False))
                        if wrap:
                            pieces.append("}")
                    elif kind == "imp":
                        pieces.append("{")
                        for i, o in enumerate(nd.lo):
                            if i:
                                pieces.append(",")
                            pieces.append((o, True, False))
                        pieces.append("}")
                    elif kind == "switch":
                        many = len(nd.lo) > 1
                        pieces.append(self.pm + ("{" if many else ""))
                        for i, o in enumerate(nd.lo):
                            if i:
                                pieces.append(",")
                            pieces.append((o, True, not many))
                        if many:
                            pieces.append("}")
                    elif kind == "tiny":
                        pieces += ["(" if parens else "", nd.text, (nd.sub, True, False),
                                   ")", ")" if parens else ""]
                    else:  # sum
                        pieces += ["(" if parens else "", (nd.parts[0], True, False), " + ",
                                   (nd.parts[1], True, False), ")" if parens else ""]
                    stack.extend(reversed(pieces))
                    continue
            take = piece[: budget - used]
            out.append(take)
            used += len(take)
        return "".join(out)


def format_partizan(g: Any, max_chars: int | None = None, ascii: bool = False) -> str:
    """Text for the form ``G`` as CGSuite prints it, read back by :func:`parse_partizan` to
    the same form.

    Recognised pieces (where a subform *is* the canonical form of such a value): numbers
    (``1/2``), nimbers (``*3``), numbers plus ups plus a nimber (``^``, ``v*``, ``^^*``,
    ``v3``, ``1/2^*``, ``9/8*``), switches (``±1``, ``±{2,*}``), tinies and minies
    (``Tiny(3/2)``, ``1Miny(2)``); everything else prints in braces with CGSuite's bars
    (``{2||1|0}``, options in CGSuite's order: numbers, nimbers, ups, then others), and a
    non-canonical form built as a sum prints as ``A + B`` when that is shorter.

    Parameters
    ----------
    g : PartizanGame (or anything :func:`~cgtalg.core.partizan.as_partizan` accepts)
    max_chars : int, optional
        Cut the text at this length, ending with ``...`` (then not parseable).
    ascii : bool
        Write ``+-`` instead of ``±`` (CGSuite's plain-text output).

    Raises
    ------
    ComputationLimitError
        When the text would be longer than :data:`FORMAT_LIMIT` characters and no
        ``max_chars`` is given (a form's text can be exponentially longer than its DAG).

    Examples
    --------
    >>> import cgtalg as cg
    >>> [cg.format_partizan(cg.parse(t)) for t in ("{0|*}", "{0,*|0}", "{1|-1}", "{2||1|0}", "{1|1}")]
    ['^', '^*', '±1', '{2||1|0}', '1*']
    >>> cg.format_partizan(cg.parse("{0||0|-3/2}")), cg.format_partizan(cg.switch(1), ascii=True)
    ('Tiny(3/2)', '+-1')
    """
    if max_chars is not None:
        max_chars = require_int(max_chars, "max_chars")
    x = as_partizan(g)
    f = _Formatter(ascii)
    f.analyse(x)
    n = f.length(x, True, False)
    if max_chars is not None and n > max_chars:
        return f.write(x, max(0, max_chars - 3)) + "..."
    if n > FORMAT_LIMIT:
        raise ComputationLimitError(
            f"the text of this form has {n} characters, more than "
            f"cgtalg.core.partizan_notation.FORMAT_LIMIT = {FORMAT_LIMIT}; pass max_chars, or "
            "print its canonical form")
    return f.write(x, n)
