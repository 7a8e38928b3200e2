"""Reading and writing partizan forms in CGSuite's notation.

The notation is of values: ``1/2^*`` is a canonical form, ``^<2>`` and ``Tiny(3/2)`` are read and
recognised through canonical forms, sums and means, so it stands in the normal-play layer, above
the forms. The forms reach it through :data:`cgtalg.hooks.partizan_notation` (to print
themselves, and for :func:`cgtalg.parse` to read partizan text); what needs no values, whether
text is partizan at all, is :mod:`cgtalg.core.partizan_text`.

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
- ``G + H``, ``G - H``, ``-G``, parentheses: literal sums and negatives (below). A ``-``
  written directly before a number belongs to the number (``-1^`` is the canonical form of
  ``-1 + ^``, as CGSuite prints it); ``+-`` is always ``±``.

Text is read as the game it describes: value syntax (numbers, ``^``, ``*n``, ``1*``) gives
canonical forms, braces the form as written, ``G + H`` the literal disjunctive sum (``1 + -1``
is ``{-1 | 1}``, not ``0``), ``-G`` the literal negative, ``G - H`` = ``G + (-H)``; a literal
sum is refused past :data:`SUM_LIMIT`. Misère questions need exactly this. ``normal_play=True``
reads text for its normal-play *value* (the normal-play doors of :mod:`cgtalg.ops` do): a
number plus a canonical form is their canonical sum (number translation, Siegel CGT II.3,
which misère play does not have), so ``2 + {1|0}`` is ``{3|2}`` and large numbers cost nothing.
"""

from __future__ import annotations

import math
from fractions import Fraction

from cgtalg.core.named_forms import number_form, number_of, uptimal
from cgtalg.core.notation import Scanner
from cgtalg.core.partizan import INTEGER_LIMIT, PartizanGame, negative, nimber, partizan_sum, pgame
from cgtalg.core.partizan_text import braces_have_bar
from cgtalg.errors import ArgumentTypeError, ComputationLimitError, GameNotationError, shorten
from cgtalg.normal.format import FORMAT_LIMIT, SUM_LIMIT, format_partizan
from cgtalg.normal.partizan import canonical_form, canonical_sum, higher_up

__all__ = ["parse_partizan", "format_partizan", "PARTIZAN_DEPTH_LIMIT", "FORMAT_LIMIT", "SUM_LIMIT",
           "HIGHER_UP_LIMIT"]

#: deepest nesting of braces and parentheses :func:`parse_partizan` reads
PARTIZAN_DEPTH_LIMIT = 20_000

#: largest n read in ``^<n>`` and ``^[n]`` (the forms grow with n, their text quadratically)
HIGHER_UP_LIMIT = 1_000


_DIGITS = frozenset("0123456789")
_UPS = {"^": 1, "↑": 1, "⇑": 2, "v": -1, "↓": -1, "⇓": -2}

def parse_partizan(text: str, *, normal_play: bool = False) -> PartizanGame:
    """Parse CGSuite partizan game text into a form (grammar in the module docstring).

    By default the literal game (``A + B`` the literal sum, what misère play needs); with
    ``normal_play=True`` a form of the same normal-play value (number translation).

    Raises
    ------
    GameNotationError
        With the position of the first character that cannot be read, e.g. an ambiguous
        pattern of bars, a fraction whose denominator is not a power of 2, or nesting deeper
        than :data:`PARTIZAN_DEPTH_LIMIT`.
    ComputationLimitError
        For values too large to build as forms (an integer beyond
        :data:`cgtalg.core.partizan.INTEGER_LIMIT`, a huge nimber), and for a literal sum
        beyond :data:`SUM_LIMIT` (the message names ``normal_play=True`` for its value).

    Examples
    --------
    >>> import cgtalg as cg
    >>> cg.parse_partizan("{0 | *}") is cg.up
    True
    >>> G = cg.parse_partizan("{2 || 1 | 0}")
    >>> G.left == (cg.integer(2),) and G.right == (cg.parse_partizan("{1 | 0}"),)
    True
    >>> cg.parse_partizan("1/2^*") is cg.canonical_form(cg.dyadic(1, 2) + cg.up + cg.nim(1))
    True
    >>> cg.parse_partizan("1 + -1") is cg.integer(1) + cg.integer(-1)   # the literal sum {-1 | 1}
    True
    >>> [str(cg.parse_partizan(t, normal_play=True)) for t in ("1 + -1", "2 + {1|0}")]
    ['0', '{3|2}']
    """
    if isinstance(text, PartizanGame):
        return text
    if not isinstance(text, str):
        raise ArgumentTypeError(f"game text must be a str, got {type(text).__name__}: {shorten(text)}")
    if not isinstance(normal_play, bool):
        raise ArgumentTypeError(f"normal_play must be True or False, not {shorten(normal_play)}")
    depth, where = _nesting(text)
    if depth > PARTIZAN_DEPTH_LIMIT:
        raise GameNotationError(
            text, where, f"braces and parentheses nest {depth} deep, more than the limit of "
            f"{PARTIZAN_DEPTH_LIMIT} (cgtalg.normal.notation.PARTIZAN_DEPTH_LIMIT)")
    # the reader recurses per nesting level, and per level of bars (at most ~sqrt(2 * bars))
    reader = _NormalPlayParser if normal_play else _Parser
    return reader.read(text, 12 * depth + 4 * math.isqrt(2 * text.count("|")) + 300)


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


def _literal_sum(a: PartizanGame, b: PartizanGame, text: str, at: int) -> PartizanGame:
    """``A + B`` as written: the literal sum of the forms, refused past :data:`SUM_LIMIT`. The
    literal sum of integers of one sign *is* the integer form (by induction every option of
    ``m + n`` is the form ``m + n - 1``), made here without walking the pairs."""
    x, y = number_of(a), number_of(b)
    if (x is not None and y is not None and x.denominator == 1 and y.denominator == 1
            and x * y >= 0):
        return number_form(x + y)
    if a._birthday > INTEGER_LIMIT or b._birthday > INTEGER_LIMIT:
        return partizan_sum(a, b)  # a compact literal sum (cgtalg.core.partizan_atoms)
    na, nb = len(a.subpositions()), len(b.subpositions())
    if na * nb > SUM_LIMIT:
        raise ComputationLimitError(
            f"the literal sum at position {at} of {text[:60]!r} joins forms of {na} and {nb} "
            f"subpositions, more than cgtalg.normal.notation.SUM_LIMIT = {SUM_LIMIT}; "
            "text is read as the literal game it describes, which misère play needs; for its "
            "normal-play value read it with cgtalg.parse(text, normal_play=True) (number "
            "translation), as the normal-play doors do (cgtalg.outcome(text), "
            "cgtalg.canonical_form(text), cgtalg.compare(g, h) without misere=True)")
    return partizan_sum(a, b)


def _normal_play_sum(a: PartizanGame, b: PartizanGame, text: str, at: int) -> PartizanGame:
    """``A + B`` for its normal-play value: a number plus a canonical form is the canonical sum
    (number translation: ``1/2 + ^`` is ``1/2^``, cheap for any number); else the literal sum."""
    x, y = number_of(a), number_of(b)
    if x is not None and y is not None:
        return number_form(x + y)
    if (x is not None and canonical_form(b) is b) or (y is not None and canonical_form(a) is a):
        return canonical_sum(a, b)
    return _literal_sum(a, b, text, at)


class _Parser(Scanner):
    """The reader of the literal game (``A + B`` the literal sum)."""

    # -- helpers (the reading position, errors and parse_all come from core's Scanner) ------
    def sum(self, a: PartizanGame, b: PartizanGame, at: int) -> PartizanGame:
        return _literal_sum(a, b, self.text, at)

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
                    g = self.sum(g, _switch(self.unary()), at)
                else:
                    self.pos += 1
                    g = self.sum(g, self.unary(), at)
            elif c == "-":
                at = self.pos
                self.pos += 1
                g = self.sum(g, _negative(self.unary()), at)
            elif c == "±":
                at = self.pos
                self.pos += 1
                g = self.sum(g, _switch(self.unary()), at)
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
                f"about {n}; cgtalg.normal.notation.HIGHER_UP_LIMIT)")
        star = 0
        if self.at(self.pos) == "*":
            self.pos += 1
            star = self.digits("a nimber size") if self.at(self.pos) in _DIGITS else 1
        h = higher_up(kind, n)
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


class _NormalPlayParser(_Parser):
    """The reader for normal-play values (``parse_partizan(text, normal_play=True)``)."""

    def sum(self, a: PartizanGame, b: PartizanGame, at: int) -> PartizanGame:
        return _normal_play_sum(a, b, self.text, at)
