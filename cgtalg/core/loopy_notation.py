"""Loopy game text: CGSuite's notation for game graphs, read and written.

Grammar (CGSuite's, Siegel ch. VI and CGSuite's loopy-games tutorial)::

    value   := expr ['&' expr]               (CGSuite's ``s & t``: onside & offside)
    option  := value | 'pass'                (a value inside braces or parentheses too)
    expr    := ['+' | '-'] term (('+' | '-') term)*
    term    := '-' term | '(' expr ')' | game | name | short
    game    := [label (':')?] '{' options bars options '}'
    options := option (',' option)*          (an option is an expr, a label or ``pass``)

- ``{0|pass}``: ``pass`` is a move to the innermost game being written (a pass move);
  ``{0||0|0,pass}`` is ``{0|a:{0|0,a}}`` (bars of the slash notation make games too);
- ``a:{0|a}`` (or CGSuite 2's ``a{0|a}``): the label names the game inside its braces;
- ``{a, b}`` without bars is the impartial game ``{a, b | a, b}`` (as in cgtalg's ``{*2}``);
- names: ``on`` = {pass|}, ``off`` = {|pass}, ``dud`` = {pass|pass}, ``over`` = {0|pass},
  ``under`` = {pass|0}, ``upon`` = {pass|*}, ``tis`` = {tisn|}, ``tisn`` = {|tis};
- CGSuite's printed stoppers (definitions in :mod:`cgtalg.core.loopy_cgsuite`): ``5over`` =
  {5|pass}, ``3/2under`` = {pass|3/2}, ``^[on]`` = upon, ``^[on]*``, ``v[on]``, ``^<on>``,
  ``-1/4v[on]``, ``5^<on>*2``, ``Tiny(G)`` = {0||0|-G}, ``Miny(G)`` = {G|0||0}, ``2Tiny(on)``;
- ``s & t`` (lowest precedence: at the top, as an option, or in parentheses): the value whose
  onside is the stopper ``s`` and offside the stopper ``t`` (``1 & -1`` is ``tis + tisn``),
  read into a :class:`cgtalg.core.loopy.Sides` record; both sides must be complete stoppers
  (``s ≥ t`` is the theory's to check: :func:`cgtalg.loopy_sides` makes the record canonical
  and refuses ``s < t``). A game with such options (CGSuite's ``{2&-2|1&-2}``) is read as the
  record of the game with the options' onsides and the game with their offsides; ``-(s & t)``
  is ``-t & -s``; values are not added in the text (:func:`cgtalg.sided_sum` adds them);
- short game text between the braces is read by :func:`cgtalg.parse_partizan` (``1/2``,
  ``^*``, ``*3``, ``±1``, ``v``), and sums and negatives of loopy games are their graphs.

:func:`format_loopy` writes a graph back: names where the game has one, CGSuite's stopper
literals (``5over``, ``^<on>``, ``Tiny(on)``, ``±(5over)``), the short form of a position without cycles, ``pass`` for a pass move, labels ``a``, ``b``, ... for longer cycles.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from cgtalg.core.loopy import NAMED_LOOPY, LoopyGame, Sides, _alternating_cycle, _canonical, as_loopy, named_loopy
from cgtalg.core import loopy_cgsuite as cgs
from cgtalg.core.notation import Scanner
from cgtalg.core.partizan_text import braces_have_bar
from cgtalg.errors import ArgumentTypeError, GameNotationError, shorten

__all__ = ["parse_loopy", "format_loopy", "looks_loopy", "LOOPY_DEPTH_LIMIT"]

#: braces nest at most this deep in loopy text
LOOPY_DEPTH_LIMIT = 200

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_LOOPY_MARK = re.compile(r"(?<![A-Za-z0-9_])(?:pass|on|off|over|under|dud|upon|tis|tisn)(?![A-Za-z0-9_(])"
                         r"|(?<![A-Za-z_])(?:over|under)(?![A-Za-z0-9_(])"
                         r"|(?<![A-Za-z0-9_])(?!Tiny|Miny)[A-Za-z_][A-Za-z0-9_]*\s*:?\s*\{")
_SHORT_CHARS = set("0123456789./*^v↑↓⇑⇓±")
# CGSuite's printed stoppers (cgtalg.core.loopy_cgsuite): 5over, 3/2under, -1/4v[on], ^<on>*, 2Tiny(
_PSEUDO_TEXT = re.compile(rf"({cgs.NUMBER})(over|under)(?![A-Za-z0-9_])")
_UPON_TEXT = re.compile(rf"({cgs.NUMBER})?([\^v])(\[on\]|<on>)(?:\*(\d*))?")
_TINY_TEXT = re.compile(rf"({cgs.NUMBER})?(Tiny|Miny)\(")


def looks_loopy(text: str) -> bool:
    """Whether game text uses loopy notation (``pass``, a label before braces, a named loopy
    game, or ``&``): what :func:`cgtalg.ops.kinds.read` uses to choose this reader."""
    return isinstance(text, str) and ("&" in text or _LOOPY_MARK.search(text) is not None)


class _Node:
    """A position being read: its options as nodes (or finished games) and its label."""

    __slots__ = ("left", "right", "at")

    def __init__(self, at: int) -> None:
        self.left: list[Any] = []
        self.right: list[Any] = []
        self.at = at


def _options_below(node: "_Node") -> Any:
    """Every option of every node reached from ``node`` through options that are nodes (each
    node once): what the reader's checks on a finished graph look through."""
    seen: set[int] = set()
    todo = [node]
    while todo:
        x = todo.pop()
        if id(x) in seen:
            continue
        seen.add(id(x))
        for o in (*x.left, *x.right):
            yield o
            if isinstance(o, _Node):
                todo.append(o)


class _Parser(Scanner):
    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.scopes: list[tuple[str, _Node]] = []
        self.depth = 0

    # expressions: sums of terms; a term is a finished game or a node being built
    def expr(self) -> Any:
        if self.peek() == "+" and not self.text.startswith("+-", self.pos):
            self.pos += 1
        acc = self.term()
        while self.peek() in ("+", "-"):
            op = self.text[self.pos]
            at = self.pos
            self.pos += 1
            nxt = self.term()
            acc = self.combine(acc, nxt, op, at)
        return acc

    def combine(self, a: Any, b: Any, op: str, at: int) -> Any:
        if isinstance(a, _Node) or isinstance(b, _Node):
            raise self.error("a game that refers to an enclosing game (a label or pass) cannot "
                             "be added to another inside the braces", at)
        if isinstance(a, Sides) or isinstance(b, Sides):
            raise self.error("a value given by its sides (s & t) is not added in the text "
                             "(cgtalg.sided_sum adds values)", at)
        return a + b if op == "+" else a - b

    def term(self) -> Any:
        c = self.peek()
        if c == "-" and self._minus_game():
            at = self.pos
            self.pos += 1
            x = self.term()
            if isinstance(x, _Node):
                raise self.error("a game that refers to an enclosing game (a label or pass) "
                                 "cannot be negated inside the braces", at)
            return -x  # a value s & t too: -(s & t) = -t & -s
        if (self.text.startswith("+-", self.pos) or c == "±") and self._plus_minus_game():
            at = self.pos
            self.pos += 1 if c == "±" else 2
            start = self.pos + len(self.text[self.pos:]) - len(self.text[self.pos:].lstrip())
            if self.text[start:start + 1] == "{" and not braces_have_bar(self.text, start):
                # ±{A, B} is {A, B | -A, -B}, as the partizan notation writes it
                self.pos = start
                return self.game(None, plus_minus=at)
            x = self.term()
            if isinstance(x, (_Node, Sides)):
                raise self.error("±G is written for games only: not for a value s & t, nor "
                                 "inside the braces for a game that refers to an enclosing "
                                 "game (a label or pass)", at)
            node = _Node(at)
            node.left, node.right = [x], [-x]
            return self._finish(node)
        if c == "(":
            self.pos += 1
            x = self.sided()
            if self.peek() != ")":
                raise self.error("expected ')'")
            self.pos += 1
            return x
        if c == "{":
            return self.game(None)
        m = _WORD.match(self.text, self.pos)
        if m and (not re.fullmatch(r"v+[0-9]*", m.group(0)) or self._label_follows(m.end())):
            return self.word(m)
        return self.short()

    def _plus_minus_game(self) -> bool:
        # "+-1" is short text, "+-{0|pass}" or "+-over" the game {G | -G}
        i = self.pos + (1 if self.text[self.pos] == "±" else 2)
        rest = self.text[i:].lstrip()
        return rest[:1] in ("{", "(") or bool(_WORD.match(rest) and not re.match(r"v+[0-9]*(?![A-Za-z_])", rest)) \
            or any(r.match(rest) for r in (_PSEUDO_TEXT, _UPON_TEXT, _TINY_TEXT))

    def _minus_game(self) -> bool:
        # "-1" is read as short text, but "-{...}" or "-over" as a negative
        nxt = self.text[self.pos + 1:self.pos + 2]
        return nxt in ("{", "(") or bool(_WORD.match(nxt))

    def _label_follows(self, end: int) -> bool:
        rest = self.text[end:].lstrip()
        return rest.startswith("{") or rest.startswith(":")

    def word(self, m: re.Match) -> Any:
        name, at = m.group(0), m.start()
        self.pos = m.end()
        if self._label_follows(self.pos):
            if name in NAMED_LOOPY or name == "pass":
                raise self.error(f"{name!r} is a reserved name and cannot label a game", at)
            self.peek()
            if self.text[self.pos] == ":":
                self.pos += 1
            if self.peek() != "{":
                raise self.error(f"expected '{{' after the label {name!r}")
            return self.game(name)
        if name == "pass":
            raise self.error("'pass' can only be an option inside braces", at)
        for label, node in reversed(self.scopes):
            if label == name:
                return node
        if name in NAMED_LOOPY:
            return named_loopy()[name]
        if name in ("Tiny", "Miny"):
            self.pos = at
            return self.short()
        raise self.error(f"unknown name {name!r}: not a label of an enclosing game nor one of "
                         + ", ".join(NAMED_LOOPY), at)

    def short(self) -> Any:
        """Short game text (numbers, nimbers, ups, switches): a run of its characters, read by
        the partizan reader; and CGSuite's printed stoppers (``5over``, ``^[on]``,
        ``Tiny(on)``: :meth:`stopper_literal`)."""
        lit = self.stopper_literal()
        if lit is not None:
            return lit
        start = self.pos
        t = self.text
        i = start
        if t.startswith("+-", i) or t.startswith("±", i):
            i += 2 if t[i] == "+" else 1
        if i < len(t) and t[i] == "-":  # -1, or ±-1 as the partizan printer writes {-1|1}
            i += 1
        while i < len(t) and (t[i] in _SHORT_CHARS or t.startswith("Tiny(", i) or t.startswith("Miny(", i)):
            if t.startswith("Tiny(", i) or t.startswith("Miny(", i):
                depth, i = 0, i + 4
                while i < len(t):
                    depth += {"(": 1, ")": -1}.get(t[i], 0)
                    i += 1
                    if depth == 0:
                        break
                continue
            i += 1
        piece = t[start:i]
        if not piece.strip("+-±"):
            raise self.error("expected a game")
        from cgtalg.hooks import partizan_notation  # the notation of values: cgtalg.normal

        try:
            g = partizan_notation.resolve().parse_partizan(piece)
        except GameNotationError as e:
            tiny = _TINY_TEXT.match(t, start)
            if tiny is not None:  # Tiny(G) of a loopy G: Tiny(on), 2Tiny(over)
                return self.tiny(tiny)
            raise self.error(f"cannot read {piece!r} as short game text: {e.reason}",
                             start + (e.position or 0)) from None
        self.pos = i
        return as_loopy(g)

    def stopper_literal(self) -> LoopyGame | None:
        """CGSuite's pseudonumbers ``xover`` = ``{x|pass}``, ``xunder`` = ``{pass|x}`` and upon
        forms ``x^[on]*m``, ``x^<on>*m``, ``xv[on]*m``, ``xv<on>*m`` (definitions in
        :mod:`cgtalg.core.loopy_cgsuite`) at the current position, or None."""
        m = _PSEUDO_TEXT.match(self.text, self.pos)
        if m is not None:
            self.pos = m.end()
            return cgs.pseudonumber(Fraction(m.group(1)), m.group(2) == "over")
        m = _UPON_TEXT.match(self.text, self.pos)
        if m is not None:
            self.pos = m.end()
            stars = 0 if m.group(4) is None else int(m.group(4) or 1)
            return cgs.upon_form(Fraction(m.group(1) or 0), stars, m.group(3) == "<on>", m.group(2) == "v")
        return None

    def tiny(self, m: re.Match) -> LoopyGame:
        """``xTiny(G)`` = ``{x || x | x - G}``, ``xMiny(G)`` = ``{x + G | x || x}`` for a loopy
        game ``G`` (CGSuite's ``Tiny(on)``, ``Miny(on)``, ``Tiny(over)``)."""
        at = m.start()
        self.pos = m.end()
        g = self.sided()
        if self.peek() != ")":
            raise self.error(f"expected ')' closing {m.group(2)}(")
        self.pos += 1
        if isinstance(g, _Node):
            raise self.error(f"the game G of {m.group(2)}(G) cannot refer to an enclosing game "
                             "(a label or pass)", at)
        if isinstance(g, Sides):
            raise self.error(f"the game G of {m.group(2)}(G) must be a game, not a value given by "
                             "its sides (s & t)", at)
        x = Fraction(m.group(1) or 0)
        return cgs.tiny(x, g) if m.group(2) == "Tiny" else cgs.miny(x, g)

    def game(self, label: str | None, plus_minus: int | None = None) -> Any:
        """``{...}``: a position; its options may refer to it (pass, its label) or to games
        enclosing it."""
        if self.depth >= LOOPY_DEPTH_LIMIT:
            raise self.error(f"braces nest more than {LOOPY_DEPTH_LIMIT} deep "
                             "(cgtalg.core.loopy_notation.LOOPY_DEPTH_LIMIT)")
        open_at = self.pos
        self.pos += 1
        self.depth += 1
        items: list[tuple[str, Any, int]] = []  # ("opt", value, at) / ("bar", k, at) / ("comma",..)
        # read the items first: options and separators; the bars are resolved afterwards
        pending: list[tuple[str, int]] = []  # pass markers to bind
        node = _Node(open_at)
        if label is not None:
            self.scopes.append((label, node))
        while True:
            c = self.peek()
            if c == "":
                raise self.error("missing '}'", open_at)
            if c == "}":
                self.pos += 1
                break
            if c == "|":
                at = self.pos
                k = 0
                while self.pos < len(self.text) and self.text[self.pos] == "|":
                    k += 1
                    self.pos += 1
                items.append(("bar", k, at))
                continue
            if c == ",":
                items.append(("comma", None, self.pos))
                self.pos += 1
                continue
            at = self.pos
            if self.text.startswith("pass", self.pos) and not _WORD.match(self.text, self.pos + 4):
                self.pos += 4
                items.append(("opt", "pass", at))
                pending.append(("pass", at))
                continue
            items.append(("opt", self.sided(), at))
        self._build(node, items, open_at)
        if plus_minus is not None:  # ±{A, B}: Right's options are the negatives of Left's
            if any(isinstance(x, _Node) for x in node.left):
                raise self.error("a game that refers to an enclosing game (a label or pass) "
                                 "cannot be written with ± inside the braces", plus_minus)
            node.right = [-x for x in node.left]
        if label is not None:
            self.scopes.pop()
        self.depth -= 1
        return node if self._refers_outside(node) else self._finish(node)

    def _build(self, node: _Node, items: list, open_at: int) -> None:
        bars = [k for kind, k, _ in items if kind == "bar"]
        if not bars:  # {a, b} without bars: the impartial game {a, b | a, b} (cgtalg's {*2})
            node.left = self._side(node, items, open_at)
            node.right = list(node.left)
            return
        top = max(bars)
        where = [i for i, (kind, k, _) in enumerate(items) if kind == "bar" and k == top]
        if len(where) > 1:
            raise self.error(f"ambiguous bars: '{'|' * top}' appears {len(where)} times in one "
                             "game", items[where[1]][2])
        cut = where[0]
        node.left = self._side(node, items[:cut], items[cut][2])
        node.right = self._side(node, items[cut + 1:], items[cut][2])

    def _side(self, owner: _Node, items: list, at: int) -> list[Any]:
        if any(kind == "bar" for kind, _, _ in items):
            # a side with bars of its own is one game (slash notation): {a||b|c} = {a|{b|c}}
            inner = _Node(items[0][2] if items else at)
            self._build(inner, items, inner.at)
            return [inner]
        out: list[Any] = []
        expect_option = True
        for kind, value, where in items:
            if kind == "comma":
                if expect_option:
                    raise self.error("an empty option before ','", where)
                expect_option = True
                continue
            if not expect_option:
                raise self.error("options must be separated by ','", where)
            out.append(owner if value == "pass" else value)
            expect_option = False
        if items and expect_option:
            raise self.error("an empty option after ','", items[-1][2])
        return out

    def _refers_outside(self, node: _Node) -> bool:
        """Whether the graph below ``node`` reaches a node still being read (an enclosing
        game), which makes it a part of that game's graph rather than a game of its own."""
        return any(isinstance(o, _Node) and any(o is n for _, n in self.scopes) for o in _options_below(node))

    def _finish(self, root: _Node) -> LoopyGame | Sides:
        """The game of a node whose graph is complete; when an option in it is a value
        ``s & t``, the value whose onside is the game with each such option's onside in its
        place and offside the game with its offside (a position's sides are those of the game
        of its options' sides)."""
        if not self._has_sided(root):
            return self._finish_side(root, 0)
        return Sides(self._finish_side(root, 0), self._finish_side(root, 1))

    @staticmethod
    def _has_sided(root: _Node) -> bool:
        return any(isinstance(o, Sides) for o in _options_below(root))

    def _finish_side(self, root: _Node, pick: int) -> LoopyGame:
        """The game of a complete node, each value ``s & t`` in it replaced by ``s``
        (``pick`` 0) or ``t`` (``pick`` 1)."""

        def part(o: Any) -> Any:
            return (o.onside if pick == 0 else o.offside) if isinstance(o, Sides) else o

        index: dict[int, int] = {}
        graph: list[Any] = []
        todo = [root]
        order: list[Any] = []
        while todo:
            x = todo.pop()
            if id(x) in index:
                continue
            index[id(x)] = len(order)
            order.append(x)
            if isinstance(x, _Node):
                todo.extend(part(o) for o in x.left)
                todo.extend(part(o) for o in x.right)
        # finished games contribute their whole graphs
        base = len(order)
        extra: list[Any] = []
        offset: dict[int, int] = {}
        for x in order:
            if isinstance(x, LoopyGame):
                offset[id(x)] = base + len(extra)
                start = offset[id(x)]
                extra.extend((tuple(start + w for w in lo), tuple(start + w for w in ro))
                             for lo, ro in x.graph)

        def ref(o: Any) -> int:
            o = part(o)
            return offset[id(o)] if isinstance(o, LoopyGame) else index[id(o)]

        for x in order:
            if isinstance(x, _Node):
                graph.append((tuple(ref(o) for o in x.left), tuple(ref(o) for o in x.right)))
            else:
                graph.append(((), ()))  # placeholder, never reached: edges point at offsets
        graph.extend(extra)
        return _canonical(tuple(graph), 0)

    def parse_all(self) -> Any:
        if not self.text.strip():
            raise self.error("empty game text", 0)
        g = self.sided()
        if self.peek():
            raise self.error("unexpected character after a complete game")
        if isinstance(g, _Node):  # pragma: no cover - every label is closed at the top
            raise self.error("a game refers to a label outside it", 0)
        return g

    def sided(self) -> Any:
        """``expr ['&' expr]``: a game, or a value given by its two sides (stoppers)."""
        at = self.pos
        g = self.expr()
        if self.peek() != "&":
            return g
        self.pos += 1
        if not self.peek() or self.peek() in "|,}":
            raise self.error("expected the offside after '&'")
        start = self.pos
        t = self.expr()
        self._check_side(g, "onside", at)
        self._check_side(t, "offside", start)
        if self.peek() == "&":
            raise self.error("a value has one onside and one offside: a second '&'")
        return Sides(g, t)

    def _check_side(self, g: Any, which: str, at: int) -> None:
        """A side of ``s & t`` must be a stopper (no infinite alternating play)."""
        if isinstance(g, _Node):
            raise self.error(f"the {which} of 's & t' is a complete stopper; it cannot refer to "
                             "an enclosing game (a label or pass)", at)
        if isinstance(g, Sides):
            raise self.error(f"the {which} of 's & t' must be a stopper, not a value given by "
                             "its sides", at)
        cycle = _alternating_cycle(g.graph)
        if cycle is not None:
            who = ("Left", "Right")
            shown = " -> ".join(f"{v} ({who[m]} to move)" for v, m in cycle[:6])
            raise self.error(f"the {which} of 's & t' must be a stopper, but {shorten(str(g))} "
                             f"has the alternating cycle {shown}", at)


def parse_loopy(text: str) -> LoopyGame | Sides:
    """Read loopy game text (grammar in the module docstring) into a :class:`LoopyGame`, or
    ``s & t`` into a :class:`cgtalg.core.loopy.Sides` record.

    Raises
    ------
    GameNotationError
        Naming the position of the first character that cannot be read: a missing brace,
        ambiguous bars, ``pass`` outside braces, an unknown name, a label reused as a reserved
        name, braces nested deeper than :data:`LOOPY_DEPTH_LIMIT`, a side of ``s & t`` that
        is not a stopper (naming its alternating cycle) or a second ``&``.
    ArgumentTypeError
        If ``text`` is not a str.

    Examples
    --------
    >>> import cgtalg as cg
    >>> str(cg.parse_loopy("{0|pass}")), str(cg.parse_loopy("on + off"))
    ('over', 'dud')
    >>> str(cg.parse_loopy("a:{0||||0|||a|*||*}"))
    'a:{0|{0|{{a|*}|*}}}'
    >>> cg.parse_loopy("over & v")
    Sides(over & v)
    """
    if isinstance(text, LoopyGame):
        return text
    if not isinstance(text, str):
        raise ArgumentTypeError(f"loopy game text must be a str, got {type(text).__name__}: "
                                f"{shorten(text)}")
    g = _Parser.read(text, 40 * text.count("{") + 400)
    return g


# -- writing ----------------------------------------------------------------------------------
#: the longest text :func:`format_loopy` writes by default (a graph's text repeats a position
#: once per path that reaches it, so it can grow exponentially with the graph)
FORMAT_LIMIT = 20_000


class _TooLong(Exception):
    pass


def format_loopy(g: LoopyGame, max_chars: int | None = FORMAT_LIMIT, ascii: bool = False) -> str:
    """CGSuite-style text of a loopy game (see the module docstring), which
    :func:`parse_loopy` reads back as the same graph; past ``max_chars`` characters the text
    is cut and says so (the whole graph is :attr:`cgtalg.LoopyGame.key`). A position of one
    of CGSuite's stopper shapes is written CGSuite's way (:mod:`cgtalg.core.loopy_cgsuite`:
    ``5over``, ``^[on]``, ``^<on>*``, ``Tiny(on)``, ``±(5over)``); ``ascii`` writes ``+-``
    for ``±`` (CGSuite's plain text).

    Examples
    --------
    >>> import cgtalg as cg
    >>> [format_loopy(cg.parse_loopy(t)) for t in ("{pass|*}", "{|tis}", "{1|pass}", "{on|0||0}")]
    ['^[on]', 'tisn', '1over', 'Miny(on)']
    """
    graph = g.graph
    # upon is written as CGSuite prints it, ^[on] (the reader takes both)
    names = {v.encoding: k for k, v in named_loopy().items() if k != "upon"}
    cyclic = _reaches_cycle(graph)
    labels: dict[int, str] = {}
    known: dict[int, str | None] = {}
    budget = [max_chars if max_chars is not None else -1]

    def spend(text: str) -> str:
        if budget[0] >= 0:
            budget[0] -= len(text)
            if budget[0] < 0:
                raise _TooLong
        return text

    def name(v: int) -> str | None:
        if v not in known:
            known[v] = _name_of(g.follower(v), names, cyclic[v], ascii)
        return known[v]

    def text(v: int, on_stack: tuple[int, ...]) -> str:
        if v in on_stack:
            if v == on_stack[-1]:
                return spend("pass")
            if v not in labels:
                labels[v] = _label(len(labels))
            return spend(labels[v])
        n = name(v)
        if n is not None:
            return spend(n)
        inner = on_stack + (v,)
        lo = ",".join(text(w, inner) for w in graph[v][0])
        ro = ",".join(text(w, inner) for w in graph[v][1])
        body = spend("{" + "|" + "}" + "," * max(0, len(graph[v][0]) + len(graph[v][1]) - 2)) and \
            "{" + lo + "|" + ro + "}"
        return f"{spend(labels[v] + ':')}{body}" if v in labels else body

    try:
        return text(0, ())
    except _TooLong:
        return f"<loopy game of {g.size} positions, whose text is longer than {max_chars} characters>"


def _label(i: int) -> str:
    s = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        s = chr(97 + r) + s
    return s


def _name_of(game: LoopyGame, names: dict, cyclic: bool, ascii: bool = False) -> str | None:
    if game.encoding in names:
        return names[game.encoding]
    if not cyclic:
        from cgtalg.hooks import partizan_notation  # the notation of values: cgtalg.normal

        return partizan_notation.resolve().format_partizan(game.to_partizan(), ascii=ascii)
    return cgs.stopper_text(game, ascii)


def _reaches_cycle(graph: Any) -> list[bool]:
    """For each position, whether a cycle is reachable from it."""
    n = len(graph)
    # positions that reach a cycle: complement of those whose followers are all acyclic
    succ = [(*graph[v][0], *graph[v][1]) for v in range(n)]
    pred: list[list[int]] = [[] for _ in range(n)]
    for v in range(n):
        for w in succ[v]:
            pred[w].append(v)
    left = [len(set(s)) for s in succ]
    done = [False] * n
    todo = [v for v in range(n) if left[v] == 0]
    for v in todo:
        done[v] = True
    while todo:
        w = todo.pop()
        for v in set(pred[w]):
            left[v] -= 1
            if left[v] == 0 and not done[v]:
                done[v] = True
                todo.append(v)
    return [not d for d in done]
