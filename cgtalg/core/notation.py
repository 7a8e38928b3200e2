"""Reading and writing impartial game forms as text.

Literal notation (what :func:`format_game` writes and :func:`parse` reads back):

- ``0`` (also ``{}``), ``*`` (= ``*1``), ``*n`` for the nim-heap of size ``n``;
- ``{G1, G2, ...}``: the form with those options;
- ``G + H``: disjunctive sum; parentheses group.

CGSuite's misère notation (Siegel, CGT ch. V; CGSuite's misère tutorial), read by
:func:`parse` and written by :func:`cgtalg.misere.notation.format_misere`:

- ``*[ ... ]`` holds a sequence of *items*. One item: the game is that item. Several
  items: the game whose options are those items. ``*[2]`` = ``*2``, ``*[42]`` = ``{*4, *2}``.
- Without commas every digit is one nim-heap item; with commas (``*[12,3]``) items are
  separated by commas and numbers may have several digits.
- Suffixes on an item: ``#`` makes the item the single option of a new game
  (``*[2#]`` = ``{*2}``, ``*[2##]`` = ``{{*2}}``); a subscript ``[...]`` is a sequence of
  operations read left to right, ``#`` (the only option of a new game) and heap sizes (add
  that nim-heap): ``*[2[2]]`` = ``*2 + *2``, ``*[2[#2#]]`` = ``{{*2} + *2}``, Norton's
  ``*[4[2#]]`` = ``{*4 + *2}`` (CGSuite's tutorial: "multiple subscripts should be read
  left-to-right").
- ``( ... )`` is a group: the game whose options are the listed items, as CGSuite prints nested
  lists (``*[(2#1)21]`` = ``{{{*2}, *}, *2, *}``). An item that *starts* with ``[`` is a
  nested list too (CGSuite's input style, ``*[[4,2],4,3,1]``), and an item may be a game
  expression starting with ``*`` (``*[[*[4] + *[2]]]``).
"""

from __future__ import annotations

import sys
from typing import Any

from cgtalg.caches import register_cache
from cgtalg.core.game import Game, game, nim, zero
from cgtalg.core.partizan_text import looks_partizan
from cgtalg.errors import ArgumentTypeError, GameNotationError, python_limits, require_int, shorten
from cgtalg.hooks import partizan_notation, position_game  # filled by higher layers

__all__ = [
    "parse",
    "format_game",
    "text_lengths",
    "game_to_json",
    "game_from_json",
    "int_to_digits",
    "decimal_length",
    "MISERE_DEPTH_LIMIT",
    "MAX_HEAP_DIGITS",
]


#: Deepest bracket nesting read inside CGSuite's ``*[...]`` notation (whose reader recurses);
#: the literal grammar (``{...}``, ``(...)``, ``+``) is read iteratively at any depth.
MISERE_DEPTH_LIMIT = 20_000

#: Most digits of one heap size ``*n`` (a 100,000-digit ``n`` reads in well under a second).
MAX_HEAP_DIGITS = 100_000

_ASCII_DIGITS = frozenset("0123456789")

#: characters that may mark partizan text (:func:`cgtalg.core.partizan_text.looks_partizan`
#: decides: a digit does when it starts a number, not a nim-heap's size)
_PARTIZAN_MARKS = "|^±↑↓⇑⇓/-vTM123456789"


def parse(text: str, *, normal_play: bool = False) -> Game:
    """Parse game text (literal or CGSuite misère notation) into a form; partizan text
    (bars, ``^``/``v``, ``±``, fractions, minus signs: ``{0 | *}``, ``1/2``, ``-1``) gives a
    :class:`~cgtalg.core.partizan.PartizanGame` through
    :func:`cgtalg.normal.notation.parse_partizan` (:data:`cgtalg.hooks.partizan_notation`).

    The form is the game the text describes (``1 + -1`` is the literal sum ``{-1 | 1}``);
    ``normal_play=True`` reads partizan text for its normal-play value (``1 + -1`` is ``0``).

    ``*n`` reads the nim-heap atom for ``n`` of any size (up to :data:`MAX_HEAP_DIGITS`
    digits) in time linear in the text; braces and parentheses nest to any depth (read
    iteratively). ``name(a, b, ...)`` with an ASCII identifier and non-negative integers is the
    position of a ruleset, resolved by
    :func:`cgtalg.rulesets.registry.position_game` (``kayles(3)+kayles(4)``).

    Raises
    ------
    GameNotationError
        With the position of the first character that cannot be read: a malformed text, a
        digit that is not ASCII (``*²``), an unknown ruleset name, a heap size of more than
        :data:`MAX_HEAP_DIGITS` digits, or ``*[...]`` nested deeper than
        :data:`MISERE_DEPTH_LIMIT`.
    TypeError
        If ``text`` is not a str.

    Examples
    --------
    >>> import cgtalg as cg
    >>> cg.parse("{0, *2}") is cg.game([cg.nim(0), cg.nim(2)])
    True
    >>> cg.parse("*[2#]") is cg.parse("{*2}")
    True
    >>> cg.parse("*99999999999").nim_heap_size()
    99999999999
    """
    if isinstance(text, Game):
        return text
    if not isinstance(text, str):
        if type(text).__name__ == "PartizanGame":
            return text
        raise ArgumentTypeError(f"game text must be a str, got {type(text).__name__}: {shorten(text)}")
    if any(c in text for c in _PARTIZAN_MARKS):  # partizan text: {0 | *}, ^, 1/2, -1, ±1, v
        if looks_partizan(text):  # read by the notation of values, cgtalg.normal.notation
            return partizan_notation.resolve().parse_partizan(text, normal_play=normal_play)
    depth, where = _prescan(text)
    if depth > MISERE_DEPTH_LIMIT:
        raise GameNotationError(
            text, where,
            f"brackets inside *[...] nest {depth} deep, more than the limit of "
            f"{MISERE_DEPTH_LIMIT} (cgtalg.core.notation.MISERE_DEPTH_LIMIT)",
        )
    with python_limits("parse"):  # a last guard (the readers are bounded); a few frames per [
        return _Parser(text).parse_all() if depth == 0 else _Parser.read(text, 8 * depth + 200)


def _prescan(text: str) -> tuple[int, int]:
    """One linear pass: reject non-ASCII digits, and measure the bracket nesting depth reached
    inside ``*[...]`` (where the misère reader recurses). Returns ``(depth, position)`` of
    the deepest point, ``(0, 0)`` when the text has no ``[``."""
    for i, ch in enumerate(text):
        if ch.isdigit() and ch not in _ASCII_DIGITS:
            raise GameNotationError(
                text, i, f"{ch!r} is not an ASCII digit: heap sizes are written with 0-9"
            )
    if "[" not in text:
        return 0, 0
    best = 0
    where = 0
    depth = 0  # nesting of brackets opened since the outermost '[' (0: outside any *[...])
    for i, ch in enumerate(text):
        if ch == "[":
            depth += 1
        elif depth and ch in "({":
            depth += 1
        elif depth and ch in "])}":
            depth -= 1
        else:
            continue
        if depth > best:
            best, where = depth, i
    return best, where


def digits_to_int(digits: str) -> int:
    """``int(digits)`` for an ASCII digit string of any length (Python's ``int()`` refuses more
    than 4300 digits): balanced splitting, so subquadratic like CPython's own big conversion."""
    if len(digits) <= 3000:
        return int(digits)
    low = len(digits) // 2
    return digits_to_int(digits[:-low]) * _pow10(low) + digits_to_int(digits[-low:])


_POW10: dict[int, int] = {}


def _pow10(k: int) -> int:
    p = _POW10.get(k)
    if p is None:
        p = _POW10[k] = 10**k
    return p


def int_to_digits(n: int) -> str:
    """``str(n)`` for a non-negative int of any size (Python's ``str()`` refuses more than 4300
    digits): balanced splitting by powers of ten."""
    if n.bit_length() <= 9000:  # < 2709 digits: within the default limit
        return str(n)
    k = int(n.bit_length() * 0.30102999566398120) // 2  # about half the digits
    hi, lo = divmod(n, _pow10(k))
    return int_to_digits(hi) + int_to_digits(lo).rjust(k, "0")


def decimal_length(n: int) -> int:
    """The number of decimal digits of a non-negative int, without converting it to text."""
    if n.bit_length() <= 9000:
        return len(str(n))
    k = int((n.bit_length() - 1) * 0.30102999566398120)  # 10^k <= n, or just below
    while _pow10(k + 1) <= n:
        k += 1
    while _pow10(k) > n:
        k -= 1
    return k + 1


class Scanner:
    """The reading position shared by the game-text readers (impartial here, partizan in
    :mod:`cgtalg.normal.notation`): errors name the text and the position,
    whitespace is skipped, and :meth:`parse_all` reads one complete expression
    (subclasses define ``expr``)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def error(self, reason: str, pos: int | None = None) -> GameNotationError:
        return GameNotationError(self.text, self.pos if pos is None else pos, reason)

    def skip_ws(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self) -> str:
        self.skip_ws()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def expr(self) -> Any:  # pragma: no cover - defined by each reader
        raise NotImplementedError

    @classmethod
    def read(cls, text: str, frames: int) -> Any:
        """``cls(text).parse_all()`` with the recursion limit raised to ``frames`` for the call
        when it is lower (the nested parts of both grammars are read recursively; since
        Python 3.11 Python-to-Python calls do not use the C stack), restored afterwards."""
        limit = sys.getrecursionlimit()
        if frames <= limit:
            return cls(text).parse_all()
        sys.setrecursionlimit(frames)
        try:
            return cls(text).parse_all()
        finally:
            sys.setrecursionlimit(limit)

    def parse_all(self) -> Any:
        if not self.text.strip():
            raise self.error("empty game text", 0)
        g = self.expr()
        if self.peek():
            raise self.error("unexpected character after a complete game")
        return g


class _Parser(Scanner):
    # -- helpers ---------------------------------------------------------------------
    def expect(self, ch: str, what: str) -> None:
        if self.peek() != ch:
            raise self.error(f"expected {ch!r} {what}")
        self.pos += 1

    def number(self) -> int:
        self.skip_ws()
        start = self.pos
        text = self.text
        while self.pos < len(text) and text[self.pos] in _ASCII_DIGITS:
            self.pos += 1
        if start == self.pos:
            raise self.error("expected a number")
        if self.pos - start > MAX_HEAP_DIGITS:
            raise self.error(
                f"a number of {self.pos - start} digits, more than the limit of "
                f"{MAX_HEAP_DIGITS} (cgtalg.core.notation.MAX_HEAP_DIGITS)", start,
            )
        return digits_to_int(text[start : self.pos])

    # -- literal grammar -------------------------------------------------------------
    def expr(self) -> Game:
        """An expression ``term ('+' term)*``, nesting ``{...}`` and ``(...)`` read with an
        explicit stack (no recursion, so any depth reads in linear time)."""
        # frames: [kind, saved accumulator, options (for '{'), opening position]
        stack: list[list] = []
        acc: Game | None = None
        while True:
            # -- expecting a term
            c = self.peek()
            if c == "{":
                opened = self.pos
                self.pos += 1
                if self.peek() == "}":
                    self.pos += 1
                    value = zero
                else:
                    if self.peek() == ",":
                        raise self.error("expected an option")
                    stack.append(["{", acc, [], opened])
                    acc = None
                    continue
            elif c == "(":
                stack.append(["(", acc, None, self.pos])
                self.pos += 1
                acc = None
                continue
            else:
                value = self.term()
            # -- a term was read: add it, then close every frame that ends here
            while True:
                acc = value if acc is None else acc + value
                if self.peek() == "+":
                    self.pos += 1
                    if not self.peek():
                        raise self.error("expected a game after '+'")
                    break  # next term
                if not stack:
                    return acc
                frame = stack[-1]
                c = self.peek()
                if frame[0] == "(":
                    self.expect(")", "to close '('")
                    stack.pop()
                    value, acc = acc, frame[1]
                    continue
                opts = frame[2]
                if c == ",":
                    self.pos += 1
                    opts.append(acc)
                    acc = None
                    if self.peek() in (",", "}"):
                        raise self.error("expected an option")
                    break  # next option
                if c == "}":
                    self.pos += 1
                    opts.append(acc)
                    stack.pop()
                    value, acc = game(opts), frame[1]
                    continue
                if c == "":
                    raise self.error("unclosed '{': expected ',' or '}'")
                raise self.error("expected ',' or '}' after an option")

    def term(self) -> Game:
        """A term that is not ``{...}`` or ``(...)``: ``0``, ``*``, ``*n``, ``*[...]``, or a
        ruleset position ``name(a, ...)``."""
        c = self.peek()
        if c == "*":
            self.pos += 1
            # no whitespace allowed between '*' and its size / bracket
            nxt = self.text[self.pos] if self.pos < len(self.text) else ""
            if nxt in _ASCII_DIGITS:
                return nim(self.number())
            if nxt == "[":
                self.pos += 1
                return self.misere_list(close="]", single_is_item=True)
            return nim(1)
        if c in _ASCII_DIGITS:
            start = self.pos
            n = self.number()
            if n != 0:
                shown = self.text[start : self.pos] if self.pos - start <= 40 else "n"
                raise self.error(
                    f"a bare number {shown} is not an impartial game; write *{shown} for the nim-heap",
                    start,
                )
            return zero
        if c == "_" or ("a" <= c <= "z") or ("A" <= c <= "Z"):
            return self.position()
        if c == "":
            raise self.error("unexpected end of input: expected a game")
        if c in "|":
            raise self.error("'|' is partizan notation; impartial forms are written {a, b, ...}")
        raise self.error("expected a game: 0, *, *n, {...}, *[...], (...) or name(n, ...)")

    def position(self) -> Game:
        """``name(a, b, ...)``: the ruleset position, from
        :func:`cgtalg.rulesets.registry.position_game`."""
        start = self.pos
        text = self.text
        while self.pos < len(text) and (text[self.pos] == "_" or text[self.pos].isascii() and text[self.pos].isalnum()):
            self.pos += 1
        name = text[start : self.pos]
        if self.pos >= len(text) or text[self.pos] != "(":
            raise self.error(f"expected '(' after the ruleset name {name!r}: write {name}(n, ...)")
        self.pos += 1
        args: list[int] = []
        if self.peek() == ")":
            self.pos += 1
        else:
            while True:
                if self.peek() not in _ASCII_DIGITS:
                    raise self.error(f"expected a non-negative integer argument of {name}(...)")
                args.append(self.number())
                c = self.peek()
                if c == ",":
                    self.pos += 1
                    continue
                if c == ")":
                    self.pos += 1
                    break
                raise self.error(f"expected ',' or ')' in the arguments of {name}(...)")
        from cgtalg.errors import CgtalgError, ComputationLimitError

        if not position_game.provided:
            raise self.error("ruleset positions are not available (nothing fills "
                             "cgtalg.hooks.position_game: import cgtalg)", start)
        try:
            g = position_game(name, tuple(args))
        except ComputationLimitError:
            raise
        except (CgtalgError, LookupError, ValueError) as exc:
            raise self.error(f"unknown ruleset position {name}(...): {exc}", start) from None
        if not isinstance(g, Game):
            raise self.error(f"ruleset {name!r} did not give a game form", start)
        return g

    # -- misère (CGSuite) grammar ------------------------------------------------------
    def level_has_comma(self, close: str) -> bool:
        """Whether a comma occurs at the current nesting level before ``close``.

        Answered from a table built by one pass over the text on first use (keyed by the
        bracket just opened), so nested ``*[...]`` texts read in linear time."""
        table = getattr(self, "_comma_table", None)
        if table is None:
            table = {}
            stack: list[int] = []
            for i, ch in enumerate(self.text):
                if ch in "[({":
                    stack.append(i)
                    table[i] = False
                elif ch in "])}":
                    if stack:
                        stack.pop()
                elif ch == "," and stack:
                    table[stack[-1]] = True
            self._comma_table = table
        opened = table.get(self.pos - 1)
        if opened is not None:
            return opened
        depth = 0
        i = self.pos
        while i < len(self.text):
            ch = self.text[i]
            if ch in "[({":
                depth += 1
            elif ch in "])}":
                if depth == 0:
                    return False
                depth -= 1
            elif ch == "," and depth == 0:
                return True
            i += 1
        return False

    def misere_items(self, close: str) -> list[Game]:
        """Items up to (and consuming) ``close``."""
        commas = self.level_has_comma(close)
        items: list[Game] = []
        while True:
            c = self.peek()
            if c == close:
                self.pos += 1
                return items
            if c == "":
                raise self.error(f"unclosed bracket: expected {close!r}")
            if items and commas:
                if c != ",":
                    raise self.error(f"expected ',' or {close!r} between items")
                self.pos += 1
                if self.peek() in (close, ","):
                    raise self.error("expected an item after ','")
            items.append(self.misere_item(commas))

    def misere_list(self, close: str, single_is_item: bool) -> Game:
        items = self.misere_items(close)
        if not items:
            return zero
        if len(items) == 1 and single_is_item:
            return items[0]
        return game(items)

    def misere_item(self, multi_digit: bool) -> Game:
        self.skip_ws()
        c = self.peek()
        if c.isdigit():
            if multi_digit:
                g = nim(self.number())
            else:
                g = nim(int(c))
                self.pos += 1
        elif c == "(":
            self.pos += 1
            g = self.misere_list(")", single_is_item=True)
        elif c == "[":
            self.pos += 1
            g = self.misere_list("]", single_is_item=False)
        elif c == "*":  # a game expression as an item, as CGSuite reads *[[*[4] + *[2]]]
            g = self.expr()
        elif c == ",":
            raise self.error("expected an item, found ','")
        else:
            raise self.error("expected an item: a digit, '(' or '['")
        # suffixes
        while True:
            if self.pos < len(self.text) and self.text[self.pos] == "#":
                self.pos += 1
                g = game([g])
            elif self.pos < len(self.text) and self.text[self.pos] == "[":
                g = self.misere_subscript(g)
            else:
                return g

    def misere_subscript(self, g: Game) -> Game:
        """CGSuite's subscript ``[...]`` after an item: a sequence of operations read left to
        right, ``#`` (the game whose only option is the game so far) and heap sizes (add that
        nim-heap): ``2[#2#]`` = {{*2} + *2}, Norton's ``4[2#]`` = {*4 + *2}, ``2[2]`` = *2 + *2.
        Digits are single heaps unless the subscript separates numbers with commas."""
        start = self.pos
        self.pos += 1
        commas = self.level_has_comma("]")
        text = self.text
        ops = 0
        while True:
            c = text[self.pos] if self.pos < len(text) else ""
            if c == "]":
                self.pos += 1
                if not ops:
                    raise self.error("empty subscript '[]': expected '#' or heap sizes", start)
                return g
            if c == "#":
                self.pos += 1
                g = game([g])
            elif c in _ASCII_DIGITS:
                if commas:
                    g = g + nim(self.number())
                else:
                    g = g + nim(int(c))
                    self.pos += 1
            elif c == "," and commas and ops:
                self.pos += 1
                continue
            elif c == "":
                raise self.error("unclosed subscript: expected ']'", start)
            else:
                raise self.error("expected '#' or a heap size in a subscript [...]")
            ops += 1


# -- formatting ----------------------------------------------------------------------
_FORMAT_CACHE: dict[int, str] = register_cache("core.notation texts of forms", {})
_FORMAT_CACHE_LIMIT = 2000  # characters; longer strings are not cached


#: a literal text longer than this is never built in full by ``str()`` / ``repr()``
STR_LIMIT = 1_000_000

#: texts longer than this are written front to back by one linear pass (options of equal text
#: length above ``_FORMAT_CACHE_LIMIT`` characters are then ordered by id, not by text)
_LINEAR_TEXT = 10_000


def format_game(g: Game, max_chars: int | None = None) -> str:
    """Literal text for ``g`` that :func:`parse` reads back to the same form.

    Nim-heaps print as ``*n``; forms built as sums print as ``A+B`` when that is shorter
    than listing options. With ``max_chars`` the text is cut with ``...`` (not parseable).
    Computed bottom-up without recursion, so arbitrarily deep forms print.

    A form's literal text can be exponentially longer than its DAG (a small distinguisher
    may print in gigabytes), so the length is computed first, from the DAG, and with
    ``max_chars`` only the needed prefix is ever written. For storing or exchanging large
    forms use :func:`game_to_json`. A partizan form prints in CGSuite's notation
    (:func:`cgtalg.normal.notation.format_partizan`).
    """
    max_chars = None if max_chars is None else require_int(max_chars, "max_chars")
    if not isinstance(g, Game):
        from cgtalg.core.partizan import PartizanGame

        if isinstance(g, PartizanGame):
            from cgtalg.hooks import partizan_notation

            text = partizan_notation.resolve().format_partizan(g)
            return text if max_chars is None or len(text) <= max_chars else text[: max(max_chars - 3, 0)] + "..."
        from cgtalg.errors import GameKindError

        raise GameKindError(f"format_game needs a form, got {type(g).__name__}")
    text = _FORMAT_CACHE.get(g.id)
    if text is None:
        lengths = text_lengths(g)
        if max_chars is not None and lengths[g.id] > max_chars:
            return _prefix(g, lengths, max(0, max_chars - 3)) + "..."
        if lengths[g.id] > _LINEAR_TEXT:
            # long texts are written once, front to back (keeping every subposition's text
            # would take memory quadratic in the depth: 10 GB for a 100,000-deep chain)
            return _prefix(g, lengths, lengths[g.id])
        local: dict[int, str] = {}
        for x in g.subpositions(expand_atoms=False):  # children before parents
            if x.id not in local:
                local[x.id] = _format_one(x, local)
        text = local[g.id]
    if max_chars is not None and len(text) > max_chars:
        return text[: max(0, max_chars - 3)] + "..."
    return text


def text_lengths(g: Game) -> dict[int, int]:
    """Length of the literal text of every subposition of ``g`` (by id), from the DAG alone."""
    lengths: dict[int, int] = {}
    for x in g.subpositions(expand_atoms=False):
        cached = _FORMAT_CACHE.get(x.id)
        if cached is not None:
            lengths[x.id] = len(cached)
            continue
        n = x.nim_heap_size()
        if n is not None:
            lengths[x.id] = 1 if n == 1 else decimal_length(n) + (0 if n == 0 else 1)
            continue
        k = len(x.options)
        braces = 2 + sum(lengths[o.id] for o in x.options) + 2 * (k - 1)
        parts = x.sum_parts
        if parts is not None:
            a, b = parts
            la = lengths.get(a.id)
            lb = lengths.get(b.id)
            if la is None or lb is None:  # parts outside this DAG (never for literal sums)
                la, lb = len(format_game(a)), len(format_game(b))
            if la + 1 + lb < braces:
                braces = la + 1 + lb
        lengths[x.id] = braces
    return lengths


def _uses_sum_text(x: Game, lengths: dict[int, int]) -> tuple[Game, Game] | None:
    parts = x.sum_parts
    if parts is None:
        return None
    a, b = parts
    k = len(x.options)
    braces = 2 + sum(lengths[o.id] for o in x.options) + 2 * (k - 1)
    return parts if lengths[a.id] + 1 + lengths[b.id] < braces else None


def _prefix(g: Game, lengths: dict[int, int], budget: int) -> str:
    """The first ``budget`` characters of ``format_game(g)``, writing nothing beyond them."""
    out: list[str] = []
    used = 0
    # a stack of pending items: Game to expand, or literal str to write
    stack: list[Game | str] = [g]
    while stack and used < budget:
        item = stack.pop()
        if isinstance(item, str):
            piece = item
        else:
            cached = _FORMAT_CACHE.get(item.id)
            if item.nim_heap_size() is not None:  # an atom: its text is "*n", never its options
                piece = cached if cached is not None else _format_one(item, {})
            elif cached is not None or lengths[item.id] <= 64:
                piece = cached if cached is not None else format_game(item)
            else:
                parts = _uses_sum_text(item, lengths)
                if parts is not None:
                    terms = _prefix_terms(item, lengths)
                    for i in range(len(terms) - 1, -1, -1):
                        stack.append(terms[i])
                        if i:
                            stack.append("+")
                    continue
                opts = item.options  # sorted when there are two or more (a key formats)
                opts = sorted(opts, key=lambda o: _order_key(o, lengths)) if len(opts) > 1 else opts
                stack.append("}")
                for i in range(len(opts) - 1, -1, -1):
                    stack.append(opts[i])
                    if i:
                        stack.append(", ")
                stack.append("{")
                continue
        take = piece[: budget - used]
        out.append(take)
        used += len(take)
    return "".join(out)


def _split_terms(text: str) -> list[str]:
    """The top-level ``+`` terms of a game text (``+`` inside braces or brackets not split)."""
    terms: list[str] = []
    depth = 0
    start = 0
    for i, c in enumerate(text):
        if c in "{[(":
            depth += 1
        elif c in "}])":
            depth -= 1
        elif c == "+" and depth == 0:
            terms.append(text[start:i])
            start = i + 1
    terms.append(text[start:])
    return terms


def _sorted_terms(terms: list[str]) -> list[str]:
    """Sum terms in the printed order: shortest first, then by text (``*+*2+*3``), as option
    lists in braces are ordered."""
    return sorted(terms, key=lambda t: (len(t), t))


def _prefix_terms(g: Game, lengths: dict[int, int]) -> list[Game | str]:
    """The terms of the sum text of ``g`` in the order :func:`_format_one` prints them: texts
    for short terms, forms for long ones (ordered by length; equal long lengths by id)."""
    out: list[tuple[int, str, int, Game | str]] = []
    stack: list[Game] = [g]
    while stack:
        x = stack.pop()
        cached = _FORMAT_CACHE.get(x.id)
        if x.nim_heap_size() is not None or cached is not None or lengths[x.id] <= 64:
            text = cached if cached is not None else format_game(x)
            out.extend((len(t), t, 0, t) for t in _split_terms(text))
            continue
        parts = _uses_sum_text(x, lengths)
        if parts is not None:
            stack.extend(parts)
        else:
            out.append((lengths[x.id], "", x.id, x))
    out.sort(key=lambda t: t[:3])
    return [t[3] for t in out]


def _order_key(o: Game, lengths: dict[int, int]) -> tuple:
    """The order of options in braces: by text length, then text (as in full formatting)."""
    n = lengths[o.id]
    return (n, format_game(o)) if n <= _FORMAT_CACHE_LIMIT else (n, "", o.id)


def game_to_json(g: Game, max_text: int = 4096) -> str | dict:
    """A JSON value for ``g``: its literal text when that is at most ``max_text`` characters,
    else its DAG ``{"dag": [[option indices], ...]}`` (children before parents; the last node
    is ``g``), whose size is the number of subpositions, not the length of the text. A
    nim-heap atom is one node written as its text ``"*n"`` (its options are implied).
    :func:`game_from_json` reads both back to the same form."""
    if text_lengths(g)[g.id] <= max_text:
        return format_game(g)
    subs = g.subpositions(expand_atoms=False)
    heaps = [x.nim_heap_size() for x in subs if x.nim_heap_size() is not None]
    small = max((n for n in heaps if n <= _JSON_ATOM_NODES), default=-1)
    subs = [nim(k) for k in range(small + 1)] + [
        x for x in subs if x.nim_heap_size() is None or x.nim_heap_size() > small
    ]
    index = {x.id: i for i, x in enumerate(subs)}
    return {
        "dag": [
            _format_one(x, {}) if x.nim_heap_size() is not None and x.nim_heap_size() > small
            else sorted(index[o.id] for o in x.options)
            for x in subs
        ]
    }


#: nim-heaps up to this size are written as DAG nodes with their options; larger ones as "*n"
_JSON_ATOM_NODES = 64


def game_from_json(value: object) -> Game:
    """The form written by :func:`game_to_json` (game text, or ``{"dag": [...]}``).

    Raises
    ------
    GameNotationError
        For text that does not parse, or a DAG whose nodes name options not yet defined.
    """
    if isinstance(value, str):
        return parse(value)
    nodes = value.get("dag") if isinstance(value, dict) else None
    if not isinstance(nodes, list) or not nodes:
        raise GameNotationError(repr(value)[:80], None, 'expected game text or {"dag": [[option indices], ...]}')
    built: list[Game] = []
    for i, opts in enumerate(nodes):
        if isinstance(opts, str):  # a nim-heap atom "*n"
            atom = parse(opts)
            if atom.nim_heap_size() is None:
                raise GameNotationError(opts[:80], None, f"DAG node {i} given as text must be a nim-heap *n")
            built.append(atom)
            continue
        if not isinstance(opts, list) or any(not isinstance(j, int) or not 0 <= j < i for j in opts):
            raise GameNotationError(
                repr(value)[:80], None,
                f"DAG node {i} must list indices of earlier nodes (children before parents), got {opts!r}",
            )
        built.append(game(built[j] for j in opts))
    return built[-1]


def _text_of(x: Game, local: dict[int, str]) -> str:
    cached = _FORMAT_CACHE.get(x.id)
    return cached if cached is not None else local[x.id]


def _format_one(g: Game, local: dict[int, str]) -> str:
    """Text of ``g`` given the texts of its options (and of its sum parts) in ``local``."""
    cached = _FORMAT_CACHE.get(g.id)
    if cached is not None:
        return cached
    n = g.nim_heap_size()
    if n is not None:
        text = "0" if n == 0 else ("*" if n == 1 else "*" + int_to_digits(n))
    else:
        pieces = sorted((_text_of(o, local) for o in g.options), key=lambda s: (len(s), s))
        text = "{" + ", ".join(pieces) + "}"
        parts = g.sum_parts
        if parts is not None:
            a, b = parts
            ta = _FORMAT_CACHE.get(a.id) or local.get(a.id) or format_game(a)
            tb = _FORMAT_CACHE.get(b.id) or local.get(b.id) or format_game(b)
            # + is associative and commutative: no brackets, and the terms in one order
            # whatever order the sum was built in (shortest first: *+*2+*3)
            sum_text = "+".join(_sorted_terms(_split_terms(ta) + _split_terms(tb)))
            if len(sum_text) < len(text):
                text = sum_text
    if len(text) <= _FORMAT_CACHE_LIMIT:
        _FORMAT_CACHE[g.id] = text
    return text
