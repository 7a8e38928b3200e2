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
- Suffixes on an item, read left to right: ``#`` makes the item the single option of a new
  game (``*[2#]`` = ``{*2}``); ``[k]`` adds the nim-heap ``*k`` (``*[2[2]]`` = ``*2 + *2``);
  ``[a b ...]`` adds each listed item in turn.
- An item that *starts* with ``[`` is a nested list (CGSuite's input style): the game whose
  options are the listed items (``*[[4,2],4,3,1]``); ``( ... )`` groups like ``*[ ... ]``.
"""

from __future__ import annotations

import sys

from cgtalg.core.game import Game, game, nim, zero
from cgtalg.errors import GameNotationError

__all__ = ["parse", "format_game", "text_lengths", "game_to_json", "game_from_json"]


def parse(text: str) -> Game:
    """Parse game text (literal or CGSuite misère notation) into a form.

    Raises
    ------
    GameNotationError
        With the position of the first character that cannot be read.

    Examples
    --------
    >>> import cgtalg as cg
    >>> cg.parse("{0, *2}") is cg.game([cg.nim(0), cg.nim(2)])
    True
    >>> cg.parse("*[2#]") is cg.parse("{*2}")
    True
    """
    if isinstance(text, Game):
        return text
    if not isinstance(text, str):
        raise TypeError(f"game text must be a str, got {type(text).__name__}")
    depth = text.count("{") + text.count("(") + text.count("[")
    limit = sys.getrecursionlimit()
    needed = 8 * depth + 200  # each nesting level costs a few frames of the descent parser
    if needed <= limit:
        return _Parser(text).parse_all()
    sys.setrecursionlimit(needed)  # Python >= 3.11: Python-to-Python calls do not use the C stack
    try:
        return _Parser(text).parse_all()
    finally:
        sys.setrecursionlimit(limit)


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    # -- helpers ---------------------------------------------------------------------
    def error(self, reason: str, pos: int | None = None) -> GameNotationError:
        return GameNotationError(self.text, self.pos if pos is None else pos, reason)

    def skip_ws(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self) -> str:
        self.skip_ws()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def expect(self, ch: str, what: str) -> None:
        if self.peek() != ch:
            raise self.error(f"expected {ch!r} {what}")
        self.pos += 1

    def number(self) -> int:
        self.skip_ws()
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos].isdigit():
            self.pos += 1
        if start == self.pos:
            raise self.error("expected a number")
        return int(self.text[start : self.pos])

    # -- literal grammar -------------------------------------------------------------
    def parse_all(self) -> Game:
        if not self.text.strip():
            raise self.error("empty game text", 0)
        g = self.expr()
        if self.peek():
            raise self.error("unexpected character after a complete game")
        return g

    def expr(self) -> Game:
        g = self.term()
        while self.peek() == "+":
            self.pos += 1
            if not self.peek():
                raise self.error("expected a game after '+'")
            g = g + self.term()
        return g

    def term(self) -> Game:
        c = self.peek()
        if c == "{":
            return self.braces()
        if c == "(":
            self.pos += 1
            g = self.expr()
            self.expect(")", "to close '('")
            return g
        if c == "*":
            self.pos += 1
            # no whitespace allowed between '*' and its size / bracket
            nxt = self.text[self.pos] if self.pos < len(self.text) else ""
            if nxt.isdigit():
                return nim(self.number())
            if nxt == "[":
                self.pos += 1
                return self.misere_list(close="]", single_is_item=True)
            return nim(1)
        if c.isdigit():
            start = self.pos
            n = self.number()
            if n != 0:
                raise self.error(
                    f"a bare number {n} is not an impartial game; write *{n} for the nim-heap",
                    start,
                )
            return zero
        if c == "":
            raise self.error("unexpected end of input: expected a game")
        if c in "|":
            raise self.error("'|' is partizan notation; impartial forms are written {a, b, ...}")
        raise self.error("expected a game: 0, *, *n, {...}, *[...] or (...)")

    def braces(self) -> Game:
        self.expect("{", "to open options")
        opts: list[Game] = []
        if self.peek() == "}":
            self.pos += 1
            return zero
        while True:
            if self.peek() in (",", "}"):
                raise self.error("expected an option")
            opts.append(self.expr())
            c = self.peek()
            if c == ",":
                self.pos += 1
                continue
            if c == "}":
                self.pos += 1
                return game(opts)
            if c == "":
                raise self.error("unclosed '{': expected ',' or '}'")
            raise self.error("expected ',' or '}' after an option")

    # -- misère (CGSuite) grammar ------------------------------------------------------
    def level_has_comma(self, close: str) -> bool:
        """Whether a comma occurs at the current nesting level before ``close``."""
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
        elif c == "*":
            raise self.error("'*' is not needed inside *[...]: write the heap size alone")
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
                self.pos += 1
                addends = self.misere_items("]")
                if not addends:
                    raise self.error("empty subscript '[]': expected heap sizes to add", self.pos - 1)
                for a in addends:
                    g = g + a
            else:
                return g


# -- formatting ----------------------------------------------------------------------
_FORMAT_CACHE: dict[int, str] = {}
_FORMAT_CACHE_LIMIT = 2000  # characters; longer strings are not cached


#: a literal text longer than this is never built in full by ``str()`` / ``repr()``
STR_LIMIT = 1_000_000


def format_game(g: Game, max_chars: int | None = None) -> str:
    """Literal text for ``g`` that :func:`parse` reads back to the same form.

    Nim-heaps print as ``*n``; forms built as sums print as ``A+B`` when that is shorter
    than listing options. With ``max_chars`` the text is cut with ``...`` (not parseable).
    Computed bottom-up without recursion, so arbitrarily deep forms print.

    A form's literal text can be exponentially longer than its DAG (a small distinguisher
    may print in gigabytes), so the length is computed first, from the DAG, and with
    ``max_chars`` only the needed prefix is ever written. For storing or exchanging large
    forms use :func:`game_to_json`.
    """
    text = _FORMAT_CACHE.get(g.id)
    if text is None:
        lengths = text_lengths(g)
        if max_chars is not None and lengths[g.id] > max_chars:
            return _prefix(g, lengths, max(0, max_chars - 3)) + "..."
        local: dict[int, str] = {}
        for x in g.subpositions():  # children before parents
            if x.id not in local:
                local[x.id] = _format_one(x, local)
        text = local[g.id]
    if max_chars is not None and len(text) > max_chars:
        return text[: max(0, max_chars - 3)] + "..."
    return text


def text_lengths(g: Game) -> dict[int, int]:
    """Length of the literal text of every subposition of ``g`` (by id), from the DAG alone."""
    lengths: dict[int, int] = {}
    for x in g.subpositions():
        cached = _FORMAT_CACHE.get(x.id)
        if cached is not None:
            lengths[x.id] = len(cached)
            continue
        n = x.nim_heap_size()
        if n is not None:
            lengths[x.id] = 1 if n == 1 else len(str(n)) + (0 if n == 0 else 1)
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
            if cached is not None or lengths[item.id] <= 64:
                piece = cached if cached is not None else format_game(item)
            else:
                parts = _uses_sum_text(item, lengths)
                if parts is not None:
                    stack.extend([parts[1], "+", parts[0]])
                    continue
                opts = sorted(item.options, key=lambda o: _order_key(o, lengths))
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


def _order_key(o: Game, lengths: dict[int, int]) -> tuple:
    """The order of options in braces: by text length, then text (as in full formatting)."""
    n = lengths[o.id]
    return (n, format_game(o)) if n <= _FORMAT_CACHE_LIMIT else (n, "", o.id)


def game_to_json(g: Game, max_text: int = 4096) -> str | dict:
    """A JSON value for ``g``: its literal text when that is at most ``max_text`` characters,
    else its DAG ``{"dag": [[option indices], ...]}`` (children before parents; the last node
    is ``g``), whose size is the number of subpositions, not the length of the text.
    :func:`game_from_json` reads both back to the same form."""
    if text_lengths(g)[g.id] <= max_text:
        return format_game(g)
    subs = g.subpositions()
    index = {x.id: i for i, x in enumerate(subs)}
    return {"dag": [sorted(index[o.id] for o in x.options) for x in subs]}


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
        text = "0" if n == 0 else ("*" if n == 1 else f"*{n}")
    else:
        pieces = sorted((_text_of(o, local) for o in g.options), key=lambda s: (len(s), s))
        text = "{" + ", ".join(pieces) + "}"
        parts = g.sum_parts
        if parts is not None:
            a, b = parts
            ta = _FORMAT_CACHE.get(a.id) or local.get(a.id) or format_game(a)
            tb = _FORMAT_CACHE.get(b.id) or local.get(b.id) or format_game(b)
            sum_text = f"{ta}+{tb}"  # + is associative: no brackets needed
            if len(sum_text) < len(text):
                text = sum_text
    if len(text) <= _FORMAT_CACHE_LIMIT:
        _FORMAT_CACHE[g.id] = text
    return text
