"""The referee's reader of game text (standard library only): :func:`read` gives the form a text
means, read *literally*; :func:`read_value` and :func:`read_rows` read forms as cgtalg's
certificates write them. Forms and their operations are in :mod:`cgtalg.referee.games`.

- ``{L1, L2 | R1, R2}`` is the form as written; several bars separate levels, more bars binding
  looser (``{2 || 1 | 0}`` is ``{2 | {1 | 0}}``); ``{a, b}`` (no bar) is the impartial form with
  options ``a, b``; ``{}`` and ``{|}`` are ``0``.
- ``G + H`` is the literal disjunctive sum of the forms (a position of ``G + H`` is a pair: a move
  replaces one part by one of its options); ``-G`` is the literal negative ``{-G^R | -G^L}``;
  ``G - H`` is ``G + (-H)``; ``±G`` and ``+-G`` are ``{G | -G}``, ``±{a, b}`` is
  ``{a, b | -a, -b}``; parentheses group.
- A value written as a value is its canonical form (Siegel, CGT II.3): an integer ``n > 0`` is
  ``{n-1 | }``, ``-n`` is ``{ | -(n-1)}``, ``m/2^k`` (lowest terms, ``k >= 1``) is
  ``{(m-1)/2^k | (m+1)/2^k}``; ``*n`` is the nim-heap ``{*0, ..., *(n-1)}``; ``^ = {0 | *}``,
  ``v = {* | 0}``; ``^n``, ``vn``, ``^^``, and the juxtaposed values ``1*``, ``1*2``, ``^*``,
  ``1/2^*``, ``-1v3*2`` are the canonical forms (:func:`cgtalg.referee.games.canonical`) of the sums they name
  (a ``-`` written directly before a number belongs to the number, as in CGSuite's output).
- ``Tiny(G) = {0 || 0 | -G}``, ``Miny(G) = {G | 0 || 0}``; after a number ``x``:
  ``xTiny(G) = {x || x | c(x - G)}`` and ``xMiny(G) = {c(x + G) | x || x}`` with ``c`` the
  canonical form (CGSuite's output for tinies, as cgtalg prints them).
- CGSuite's misère notation ``*[...]`` (items; ``#`` makes an item the only option of a new game;
  a subscript ``[...]`` applies ``#`` and adds nim-heaps left to right; ``(...)`` and nested
  ``[...]`` are lists of options), as cgtalg's grammar (``cgtalg/core/notation.py``) states it.
- CGSuite's ``^<n>`` (``↑^n``: ``↑^1 = ↑``, ``↑^(n+1) = {0 | ↓^{→n} *}``) and ``^[n]``
  (``↑^{→n} = ↑ + ↑^2 + ... + ↑^n``), Siegel, CGT II.7; ``v<n>``, ``v[n]`` their negatives.

Heap-game positions ``name(a, b, ...)`` (``kayles(3, 4)``) are the literal sums of the heaps'
forms, from the moves :mod:`cgtalg.referee.heaps` derives; not read: positions of other
rulesets, loopy games, transfinite nimbers.
"""

from __future__ import annotations

import re
import sys
from fractions import Fraction
from typing import Any

from cgtalg.referee.games import (_NAMES, ZERO, Form, ReadError, add, canonical, form, impartial, neg,
                                  nim, number, switch)
from cgtalg.referee._verdict import Malformed
from cgtalg.referee.heaps import heap_rules

__all__ = ["read", "read_value", "read_rows"]

_DIGITS = "0123456789"

#: the largest heap whose form the reader builds in ``name(a, ...)`` (heap forms grow fast)
HEAP_LIMIT = 40


def _digit(ch: str) -> bool:
    return ch != "" and ch in _DIGITS


_UPS = {"^": 1, "↑": 1, "⇑": 2, "v": -1, "↓": -1, "⇓": -2}
_UP_MULTIPLES: dict[int, Form] = {}


def _ups(n: int) -> Form:
    """The canonical form of ``n.↑`` (``↑ = {0 | *}``), built as canonical partial sums."""
    if n not in _UP_MULTIPLES:
        one = form([ZERO], [nim(1)]) if n > 0 else form([nim(1)], [ZERO])
        acc = ZERO
        for _ in range(abs(n)):
            acc = canonical(add(acc, one))
        _UP_MULTIPLES[n] = acc
    return _UP_MULTIPLES[n]


def _up_arrow(n: int) -> Form:
    """``↑^{→n} = ↑ + ↑^2 + ... + ↑^n`` (CGSuite's ``^[n]``; Siegel, CGT II.7), canonical."""
    acc = _ups(1)
    for k in range(2, n + 1):
        acc = canonical(add(acc, _up_nth(k)))
    return acc


def _up_nth(n: int) -> Form:
    """``↑^n`` (CGSuite's ``^<n>``; Siegel, CGT II.7): ``↑^1 = ↑``, ``↑^(n+1) = {0 | ↓^{→n} *}``
    with ``↓^{→n} = -↑^{→n}``."""
    if n == 1:
        return _ups(1)
    return canonical(form([ZERO], [canonical(add(neg(_up_arrow(n - 1)), nim(1)))]))


def _value(x: Fraction, ups: int, star: int, text: str) -> Form:
    """The canonical form of ``x + ups.↑ + *star``, named ``text``."""
    if abs(ups) > 64:
        raise ReadError(f"{text}: the referee builds multiples of ↑ up to 64")
    parts = ([number(x)] if x else []) + ([_ups(ups)] if ups else []) + ([nim(star)] if star else [])
    g = parts[0] if len(parts) == 1 else canonical(_sum_all(parts)) if parts else ZERO
    _NAMES.setdefault(g.id, text)
    return g


def _sum_all(parts: list[Form]) -> Form:
    acc = ZERO
    for p in parts:
        acc = add(acc, p)
    return acc


class _Reader:
    def __init__(self, text: str) -> None:
        self.text, self.pos = text, 0

    def error(self, why: str, at: int | None = None) -> ReadError:
        at = self.pos if at is None else at
        return ReadError(f"{why} at position {at} of {self.text[:80]!r}")

    def at(self, i: int) -> str:
        return self.text[i] if i < len(self.text) else ""

    def peek(self) -> str:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1
        return self.at(self.pos)

    def digits(self) -> int:
        start = self.pos
        while _digit(self.at(self.pos)):
            self.pos += 1
        if start == self.pos or self.pos - start > 30:
            raise self.error("expected a number (at most 30 digits)", start)
        return int(self.text[start:self.pos])

    def whole(self) -> Form:
        if not self.text.strip():
            raise self.error("empty game text", 0)
        g = self.expr()
        if self.peek():
            raise self.error("unexpected character after a complete game")
        return g

    def expr(self) -> Form:
        g = self.unary()
        while True:
            c = self.peek()
            if c == "+" and self.at(self.pos + 1) == "-":
                self.pos += 2
                g = add(g, switch(self.unary()))
            elif c == "+":
                self.pos += 1
                g = add(g, self.unary())
            elif c == "-":
                self.pos += 1
                g = add(g, neg(self.unary()))
            elif c == "±":
                self.pos += 1
                g = add(g, switch(self.unary()))
            else:
                return g

    def unary(self) -> Form:
        # prefix signs, innermost last: "-" (not of a number), "±" or "+-" (the switch), "+" (none)
        ops: list[str] = []
        prefix = re.compile(r"\s*(\+-|±|-(?![0-9])|\+)")
        while (m := prefix.match(self.text, self.pos)) is not None:
            self.pos = m.end()
            if m.group(1) != "+":
                ops.append("-" if m.group(1) == "-" else "±")
        if ops and ops[-1] == "±" and self.peek() == "{" and not self.bar_in_braces():
            self.pos += 1  # ±{a, b} = {a, b | -a, -b}
            opts = self.options_until("}")
            g = form(opts, [neg(o) for o in opts])
            ops.pop()
        else:
            g = self.primary()
        for op in reversed(ops):
            g = neg(g) if op == "-" else switch(g)
        return g

    def bar_in_braces(self) -> bool:
        depth = 0
        for i in range(self.pos, len(self.text)):
            ch = self.text[i]
            if ch in "({[":
                depth += 1
            elif ch in ")}]":
                depth -= 1
                if depth == 0:
                    return False
            elif ch == "|" and depth == 1:
                return True
        return False

    def options_until(self, close: str) -> list[Form]:
        opts = [self.expr()]
        while self.peek() == ",":
            self.pos += 1
            opts.append(self.expr())
        if self.peek() != close:
            raise self.error(f"expected ',' or {close!r}")
        self.pos += 1
        return opts

    def primary(self) -> Form:
        c = self.peek()
        if c == "{":
            return self.braces()
        if c == "(":
            self.pos += 1
            g = self.expr()
            if self.peek() != ")":
                raise self.error("expected ')'")
            self.pos += 1
            return g
        if c == "*" and self.at(self.pos + 1) == "[":
            self.pos += 2
            return self.misere_list("]", True)
        if self.text[self.pos:self.pos + 5] in ("Tiny(", "Miny("):
            return self.tiny(Fraction(0))
        if c.isalpha() or c == "_":
            end = self.pos
            while end < len(self.text) and (self.text[end].isalnum() or self.text[end] == "_"):
                end += 1
            if self.at(end) == "(":
                return self.heap_position(end)
            if c != "v" or not re.fullmatch(r"v+[0-9]*", self.text[self.pos:end]):
                raise self.error("names other than heap-game positions name(n, ...) are not read by the referee")
        if _digit(c) or c == "-":
            return self.number_term()
        if c and (c in _UPS or c == "*"):
            return self.upstar(Fraction(0), self.pos)
        raise self.error("expected a game")

    def heap_position(self, end: int) -> Form:
        """``name(a, b, ...)``: the literal sum of heaps ``a, b, ...`` of the heap game ``name``
        (:func:`cgtalg.referee.heaps.heap_rules`: its moves from the game's definition; the form
        of a heap is the impartial form whose options are the sums of the heaps a move leaves)."""
        start, name = self.pos, self.text[self.pos:end]
        close = self.text.find(")", end)
        if close < 0:
            raise self.error(f"expected ')' after the arguments of {name}(...)")
        args = [a.strip() for a in self.text[end + 1:close].split(",")] if self.text[end + 1:close].strip() else []
        if not all(a.isascii() and a.isdigit() for a in args):
            raise self.error(f"the arguments of {name}(...) are heap sizes (non-negative integers)", start)
        try:
            rules = heap_rules(name)
        except Malformed as exc:
            raise self.error(f"{name}(...) is not a heap game the referee reads ({exc})", start) from None
        sizes = [int(a) for a in args]
        if sizes and max(sizes) > HEAP_LIMIT:
            raise self.error(f"a heap of {max(sizes)} tokens: the referee builds heap forms up to {HEAP_LIMIT}", start)
        heaps: dict[int, Form] = {}
        for n in range(max(sizes, default=0) + 1):
            heaps[n] = impartial(_sum_all([heaps[x] for x in o]) for o in rules.options(n))
        self.pos = close + 1
        return _sum_all([heaps[n] for n in sizes])

    def number_term(self) -> Form:
        start = self.pos
        sign = 1
        if self.at(self.pos) == "-":
            sign = -1
            self.pos += 1
        num, den = self.digits(), 1
        if self.at(self.pos) == "/" and _digit(self.at(self.pos + 1)):
            self.pos += 1
            den = self.digits()
            if den == 0 or den & (den - 1):
                raise self.error(f"{num}/{den} is not a dyadic rational", start)
        x = Fraction(sign * num, den)
        nxt = self.at(self.pos)
        if nxt in ("T", "M") and nxt:
            return self.tiny(x)
        if nxt and (nxt in _UPS or nxt == "*"):
            return self.upstar(x, start)
        return number(x)

    def upstar(self, x: Fraction, start: int) -> Form:
        """Ups or downs, then a nimber, juxtaposed after the number ``x`` (no spaces)."""
        ups, c = 0, self.at(self.pos)
        if c and c in _UPS:
            run = 0
            while self.at(self.pos) == c:
                run += 1
                self.pos += 1
            if run == 1 and c in "^v↑↓" and self.at(self.pos) in ("<", "[") and self.at(self.pos):
                return self.higher(x, _UPS[c], start)
            if _digit(self.at(self.pos)):
                if run > 1 or c in "⇑⇓":
                    raise self.error("a count follows a single ^ or v only")
                ups = self.digits() * _UPS[c]
            else:
                ups = _UPS[c] * run
        star = 0
        if self.at(self.pos) == "*":
            self.pos += 1
            star = self.digits() if _digit(self.at(self.pos)) else 1
        return _value(x, ups, star, self.text[start:self.pos])

    def higher(self, x: Fraction, sign: int, start: int) -> Form:
        """``^<n>`` (up-nth), ``^[n]`` (up-arrow-n) or their negatives ``v<n>``, ``v[n]``, after the
        number ``x``, before an optional nimber: the canonical form of the sum."""
        kind = self.text[self.pos]
        self.pos += 1
        n = self.digits()
        if self.at(self.pos) != (">" if kind == "<" else "]") or not 1 <= n <= 32:
            raise self.error(f"expected {'>' if kind == '<' else ']'} after a count 1..32")
        self.pos += 1
        star = 0
        if self.at(self.pos) == "*":
            self.pos += 1
            star = self.digits() if _digit(self.at(self.pos)) else 1
        h = _up_nth(n) if kind == "<" else _up_arrow(n)
        parts = [p for p in (number(x) if x else None, h if sign > 0 else neg(h), nim(star) if star else None) if p]
        g = parts[0] if len(parts) == 1 else canonical(_sum_all(parts))
        _NAMES.setdefault(g.id, self.text[start:self.pos])
        return g

    def tiny(self, x: Fraction) -> Form:
        name = self.text[self.pos:self.pos + 5]
        if name not in ("Tiny(", "Miny("):
            raise self.error("expected Tiny(G) or Miny(G)")
        self.pos += 5
        sub = self.expr()
        if self.peek() != ")":
            raise self.error(f"expected ')' to close {name}")
        self.pos += 1
        base = number(x)
        if name == "Tiny(":
            far = neg(sub) if x == 0 else canonical(add(base, neg(canonical(sub))))
            return form([base], [form([base], [far])])
        far = sub if x == 0 else canonical(add(base, canonical(sub)))
        return form([form([far], [base])], [base])

    def braces(self) -> Form:
        self.pos += 1
        segments: list[list[Form]] = [[]]
        bars: list[tuple[int, int]] = []
        need = False
        while True:
            c = self.peek()
            if c == "}":
                if need:
                    raise self.error("expected an option after ','")
                self.pos += 1
                break
            if c == "":
                raise self.error("unclosed '{'")
            if c == "|":
                if need:
                    raise self.error("expected an option after ','")
                start = self.pos
                while self.at(self.pos) == "|":
                    self.pos += 1
                bars.append((self.pos - start, start))
                segments.append([])
            elif c == ",":
                if not segments[-1] or need:
                    raise self.error("expected an option before ','")
                self.pos += 1
                need = True
            else:
                if segments[-1] and not need:
                    raise self.error("expected ',', '|' or '}' after an option")
                segments[-1].append(self.expr())
                need = False
        if not bars:
            return impartial(segments[0])
        g = self.split(segments, bars, 0, len(segments) - 1)
        assert isinstance(g, Form)
        return g

    def split(self, segments: list[list[Form]], bars: list[tuple[int, int]], lo: int,
              hi: int) -> Form | list[Form]:
        """Segments ``lo..hi`` as one game: the unique longest run of bars is the top level."""
        if lo == hi:
            return segments[lo]
        top = max(b[0] for b in bars[lo:hi])
        at = [j for j in range(lo, hi) if bars[j][0] == top]
        if len(at) > 1:
            raise self.error("ambiguous bars: two runs of the same length at one level", bars[at[1]][1])
        left = self.split(segments, bars, lo, at[0])
        right = self.split(segments, bars, at[0] + 1, hi)
        return form(left if isinstance(left, list) else [left], right if isinstance(right, list) else [right])

    # -- CGSuite's misère notation *[...] --------------------------------------------------------
    def level_has_comma(self) -> bool:
        """Whether a ',' stands at this level before the level closes (brackets of every kind
        nest)."""
        opened = 0
        for ch in self.text[self.pos:]:
            if ch == "," and not opened:
                return True
            if ch in "[({":
                opened += 1
            elif ch in "])}":
                opened -= 1
                if opened < 0:
                    break
        return False

    def misere_list(self, close: str, single_is_item: bool) -> Form:
        commas = self.level_has_comma()
        items: list[Form] = []
        while True:
            c = self.peek()
            if c == close:
                self.pos += 1
                break
            if c == "":
                raise self.error(f"unclosed bracket: expected {close!r}")
            if items and commas:
                if c != ",":
                    raise self.error(f"expected ',' or {close!r}")
                self.pos += 1
                if self.peek() in (close, ","):
                    raise self.error("expected an item after ','")
            items.append(self.misere_item(commas))
        if not items:
            return ZERO
        return items[0] if len(items) == 1 and single_is_item else impartial(items)

    def misere_item(self, multi_digit: bool) -> Form:
        c = self.peek()
        if _digit(c):
            if multi_digit:
                g = nim(self.digits())
            else:
                g = nim(int(c))
                self.pos += 1
        elif c == "(":
            self.pos += 1
            g = self.misere_list(")", True)
        elif c == "[":
            self.pos += 1
            g = self.misere_list("]", False)
        elif c == "*":
            g = self.expr()
        else:
            raise self.error("expected an item: a digit, '(', '[' or '*'")
        while True:  # suffixes: '#' (the only option of a new game), subscripts [...]
            if self.at(self.pos) == "#":
                self.pos += 1
                g = impartial([g])
            elif self.at(self.pos) == "[":
                g = self.subscript(g)
            else:
                return g

    def subscript(self, g: Form) -> Form:
        """``[...]`` after an item: '#' and heap sizes applied left to right (``2[2]`` is
        ``*2 + *2``, ``2[#2#]`` is ``{{*2} + *2}``)."""
        start = self.pos
        self.pos += 1
        commas = self.level_has_comma()
        ops = 0
        while True:
            c = self.at(self.pos)
            if c == "]":
                self.pos += 1
                if not ops:
                    raise self.error("empty subscript '[]'", start)
                return g
            if c == "#":
                self.pos += 1
                g = impartial([g])
            elif _digit(c):
                if commas:
                    g = add(g, nim(self.digits()))
                else:
                    g = add(g, nim(int(c)))
                    self.pos += 1
            elif c == "," and commas and ops:
                self.pos += 1
                continue
            else:
                raise self.error("expected '#' or a heap size in a subscript")
            ops += 1


def read(text: Any) -> Form:
    """The form that game ``text`` means, read literally (module docstring).

    Raises
    ------
    ReadError
        For text that is not a game the referee reads (with the position)."""
    if not isinstance(text, str):
        raise ReadError(f"game text must be a string, not {type(text).__name__}")
    limit = sys.getrecursionlimit()
    need = min(200_000, 2_000 + 12 * sum(text.count(c) for c in "{([#"))
    try:
        if need > limit:
            sys.setrecursionlimit(need)
        return _Reader(text).whole()
    except RecursionError:
        raise ReadError(f"game text nested too deeply: {text[:60]!r}") from None
    finally:
        sys.setrecursionlimit(limit)


def read_value(value: Any) -> Form:
    """A form written in a JSON certificate: game text, or ``{"dag": [node, ...]}`` whose nodes
    are lists of earlier node indices (an impartial form with those options) or nim-heap texts
    ``"*n"``; the last node is the form."""
    if isinstance(value, str):
        return read(value)
    nodes = value.get("dag") if isinstance(value, dict) else None
    if not isinstance(nodes, list) or not nodes:
        raise ReadError(f"expected game text or {{\"dag\": [...]}}, got {str(value)[:60]}")
    built: list[Form] = []
    for i, node in enumerate(nodes):
        if isinstance(node, str):
            g = read(node)
            if not node.strip().startswith("*"):
                raise ReadError(f"DAG node {i} given as text must be a nim-heap *n")
            built.append(g)
        elif isinstance(node, list) and all(isinstance(j, int) and not isinstance(j, bool) and 0 <= j < i
                                            for j in node):
            built.append(impartial(built[j] for j in node))
        else:
            raise ReadError(f"DAG node {i} must list earlier node indices: {str(node)[:60]}")
    return built[-1]


def read_rows(rows: Any) -> list[Form]:
    """The forms of a table of rows ``[[left option rows], [right option rows]]``, each row
    naming earlier rows only (the layout of cgtalg's partizan certificates)."""
    if not isinstance(rows, list):
        raise ReadError("the forms of a certificate are a list of rows")
    out: list[Form] = []
    for i, row in enumerate(rows):
        ok = isinstance(row, list) and len(row) == 2 and all(isinstance(s, list) for s in row)
        if not ok or not all(isinstance(j, int) and not isinstance(j, bool) and 0 <= j < i
                             for j in row[0] + row[1]):
            raise ReadError(f"form row {i} is not [left rows, right rows] naming earlier rows: {str(row)[:60]}")
        out.append(form([out[j] for j in row[0]], [out[j] for j in row[1]]))
    return out
