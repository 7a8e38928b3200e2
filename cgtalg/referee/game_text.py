"""Game text as the referee reads it: a lexer, then a recursive-descent parser over its tokens.

Standard library only; the forms and their operations come from :mod:`cgtalg.referee.games`.
:func:`read` gives the form a text means, read *literally*; :func:`read_value` and
:func:`read_rows` read the forms of cgtalg's certificates (a DAG of impartial forms, or rows).

Tokens (white space separates tokens and is otherwise ignored; some rules below ask that two
tokens *touch*, with no white space between them)::

    digits  [0-9]+            word    a letter or _, then letters, digits, _
    arrows  a run of one of ^ ↑ ↓ ⇑ ⇓   ('v' is a word: v, vv, v3)
    bars    a run of |        pm      ± or +- (touching)
    single  - + * / , # ( ) { } [ ] < >

Grammar (``a ~ b``: ``b`` touches ``a``)::

    game    = sum
    sum     = signed { ("+" | "-" | pm) signed }
    signed  = { "+" | "-" | pm } atom         a "-" touching digits is the number's own sign
    atom    = braces | "(" sum ")" | misere | tiny | heap | value
    braces  = "{" section { bars section } "}"      section = [ sum { "," sum } ]
    value   = number [~ ups] [~ star]  |  ups [~ star]  |  star
    number  = ["-" ~] digits [~ "/" ~ digits]
    ups     = arrows [~ digits]  |  downs  |  one ~ ("<" ~ digits ~ ">"  |  "[" ~ digits ~ "]")
    downs   = a word of one or more v, then digits (v, vv, v3)
    one     = a single ^, ↑, ↓ or v (a count, too, follows only these)
    star    = "*" [~ digits]
    tiny    = [number ~] ("Tiny" | "Miny") ~ "(" sum ")"
    heap    = word ~ "(" [ digits { "," digits } ] ")"
    misere  = "*" ~ "[" list "]"
    list    = [ item { item } | item { "," item } ]    (commas, if any, separate every item)
    item    = (digits | "(" list ")" | "[" list "]" | sum starting with "*") { ~ ("#" | sub) }
    sub     = "[" ~ ("#" | digits) { ~ ("#" | digits | ",") } ~ "]"    ("," if the level has one)

    (the first suffix after an item starting with "*" may stand after white space, as in
    cgtalg's own reader)

Meaning:

- ``G + H`` is the literal disjunctive sum (a move replaces one part by one of its options),
  ``-G`` the literal negative ``{-G^R | -G^L}``, ``G - H`` is ``G + (-H)``; ``±G`` (``+-G``) is
  ``{G | -G}`` whether prefix or infix (``2 ± G`` is ``2 + ±G``); only as the innermost prefix
  of braces without a bar, ``±{a, b}`` is ``{a, b | -a, -b}`` (``2 ± {a, b}`` is ``2 + ±G`` with
  ``G`` the impartial ``{a, b}``, as cgtalg reads it).
- Braces: ``{a, b | c}`` is the form as written; with several runs of bars the longest run is
  the outermost, ``{2 || 1 | 0}`` is ``{2 | {1 | 0}}``; two runs of one length at one level are
  an error. ``{a, b}`` (no bar) is the impartial form with options ``a, b``; ``{}`` is ``0``.
- A value is the canonical form (Siegel, CGT II.2-II.3) of the sum it names: ``n`` is
  ``{n-1 | }``, ``m/2^k`` (written ``m/d``, ``d`` a power of 2, so ``1/2^3`` is ``1/2 + 3.↑``) is
  ``{(m-1)/2^k | (m+1)/2^k}``; ``*n`` the nim-heap
  ``{*0, ..., *(n-1)}``; ``^ = ↑ = {0 | *}``, ``v = ↓ = -↑``, ``⇑ = 2.↑``; a run counts its
  arrows, ``^3`` and ``v3`` are ``3.↑`` and ``3.↓``; ``^<n>`` is ``↑^n`` (``↑^1 = ↑``,
  ``↑^(n+1) = {0 | ↓^{→n} *}``) and ``^[n]`` is ``↑^{→n} = ↑ + ↑^2 + ... + ↑^n`` (Siegel, CGT
  II.7), ``v<n>``, ``v[n]`` their negatives. So ``1*``, ``1/2^*``, ``-1v3*2`` and ``3/4v[3]*`` are
  canonical sums, the ``-`` of ``-1v3*2`` belonging to the number.
- ``Tiny(G) = {0 || 0 | -G}`` and ``Miny(G) = {G | 0 || 0}`` (literal); after a number ``x``,
  ``xTiny(G) = {x || x | c(x - G)}`` and ``xMiny(G) = {c(x + G) | x || x}`` with ``c`` the
  canonical form.
- ``name(a, b, ...)`` is the literal sum of heaps of sizes ``a, b, ...`` of the heap game
  ``name``, whose moves :func:`cgtalg.referee.heaps.heap_rules` derives (a heap's form is the
  impartial form of the sums its moves leave), heaps up to :data:`HEAP_LIMIT` tokens.
- CGSuite's misère notation ``*[...]``: an item ``d`` is the nim-heap ``*d``; one digit per item
  when the list has no comma, whole numbers when it has; ``*[...]`` and ``(...)`` are the game
  with the items as options, a lone item standing for itself, ``[...]`` is always the game of the list; ``#`` makes the game the only
  option of a new one; a subscript ``[...]`` applies its ``#`` and adds its nim-heaps from left
  to right; an item starting with ``*`` is a game as above. ``*[2#1] = {{*2}, *}``,
  ``*[2[2]] = *2 + *2``, ``*[12,3] = {*12, *3}``, ``*[[4,2],4,3,1] = {{*4, *2}, *4, *3, *}``.

Not read: other rulesets' positions, loopy games, transfinite nimbers. Errors are
:class:`~cgtalg.referee.games.ReadError` naming the position.

>>> read("{2 || 1 | 0}") is read("{2 | {1 | 0}}"), read("*[2#1]") is read("{{*2}, *}")
(True, True)
>>> read("±{1, *}") is read("{1, * | -1, *}"), read("^*") is read("{0, * | 0}")
(True, True)
>>> read("1 + -1") is read("{-1 | 1}"), read("1/2 + 1/2") is read("1")
(True, False)
"""

from __future__ import annotations

import re
import sys
from fractions import Fraction
from functools import reduce
from typing import Any, Iterable, NamedTuple

from cgtalg.referee._verdict import Malformed
from cgtalg.referee.games import (_NAMES, ZERO, Form, ReadError, add, canonical, form, impartial, neg,
                                  nim, number, switch)
from cgtalg.referee.heaps import heap_rules

__all__ = ["read", "read_value", "read_rows"]

#: the largest heap whose form ``name(a, ...)`` builds (heap forms grow fast)
HEAP_LIMIT = 40

#: the most digits one run of digits may have
_MAX_DIGITS = 30

#: the largest multiple of ↑ a value may name, and the largest n of ``^<n>``, ``^[n]``
_MAX_UPS, _MAX_ORDER = 64, 32

_LEXEME = re.compile(r"""
      (?P<digits> [0-9]+ )
    | (?P<word>   [^\W\d]\w* )
    | (?P<arrows> \^+ | ↑+ | ↓+ | ⇑+ | ⇓+ )
    | (?P<bars>   \|+ )
    | (?P<pm>     \+- | ± )
    | (?P<single> [-+*/,#(){}\[\]<>] )
""", re.VERBOSE)
_BLANK = re.compile(r"\s*")
_DOWNS = re.compile(r"(v+)([0-9]*)")
_OPENERS, _CLOSERS = frozenset("([{"), frozenset(")]}")


class _Token(NamedTuple):
    kind: str    # "digits", "word", "arrows", "bars", "pm", "end", or the single character
    text: str
    at: int      # offset in the text
    glued: bool  # no white space before it


def _lex(text: str) -> list[_Token]:
    found: list[_Token] = []
    end = 0
    while True:
        blank = _BLANK.match(text, end)
        at = blank.end() if blank else end
        if at == len(text):
            found.append(_Token("end", "", at, at == end))
            return found
        m = _LEXEME.match(text, at)
        if m is None:
            raise ReadError(f"unexpected character {text[at]!r} at position {at} of {text[:80]!r}")
        kind = m.lastgroup or "single"
        found.append(_Token(m.group() if kind == "single" else kind, m.group(), at, at == end))
        end = m.end()


def _total(parts: Iterable[Form]) -> Form:
    """The literal sum of ``parts`` (``0`` for none)."""
    return reduce(add, parts, ZERO)


# --- multiples of ↑, ↑^n and ↑^{→n}, each built from its definition and made canonical -------
_UP_MULTIPLE: dict[int, Form] = {0: ZERO}


def _up_multiple(n: int) -> Form:
    """``n.↑`` canonical: ``±1`` from ``{0 | *}``, ``{* | 0}``, else two halves added."""
    if n not in _UP_MULTIPLE:
        if abs(n) == 1:
            star = nim(1)
            _UP_MULTIPLE[n] = form([ZERO], [star]) if n > 0 else form([star], [ZERO])
        else:
            half = int(n / 2)
            _UP_MULTIPLE[n] = canonical(add(_up_multiple(half), _up_multiple(n - half)))
    return _UP_MULTIPLE[n]


_POWERS: list[Form] = []   # _POWERS[k] = ↑^(k+1)
_ARROWS: list[Form] = []   # _ARROWS[k] = ↑^{→(k+1)}


def _up_power(n: int, cumulative: bool) -> Form:
    """``↑^n`` or, when ``cumulative``, ``↑^{→n}`` (Siegel, CGT II.7), canonical."""
    while len(_POWERS) < n:
        if not _POWERS:
            nth = _up_multiple(1)
        else:  # ↑^(k+1) = {0 | ↓^{→k} *}
            nth = canonical(form([ZERO], [add(neg(_ARROWS[-1]), nim(1))]))
        _POWERS.append(nth)
        _ARROWS.append(canonical(add(_ARROWS[-1], nth)) if _ARROWS else nth)
    return (_ARROWS if cumulative else _POWERS)[n - 1]


class _Parser:
    """One pass over the tokens of ``text``; each method reads one rule of the grammar."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.toks = _lex(text)
        self.by_value = False  # read sums with numbers kept whole by their value (read(by_value=True))
        self.i = 0
        self.after = 0  # where the last token taken ends

    # -- tokens ------------------------------------------------------------------------------
    def look(self, ahead: int = 0) -> _Token:
        return self.toks[min(self.i + ahead, len(self.toks) - 1)]

    def sees(self, kind: str, ahead: int = 0, touching: bool = False) -> bool:
        t = self.look(ahead)
        return t.kind == kind and (t.glued or not touching)

    def take(self) -> _Token:
        t = self.look()
        if t.kind != "end":
            self.i += 1
            self.after = t.at + len(t.text)
        return t

    def need(self, kind: str, what: str, touching: bool = False) -> _Token:
        if not self.sees(kind, touching=touching):
            raise self.fail(f"expected {what}")
        return self.take()

    def fail(self, why: str, tok: _Token | None = None) -> ReadError:
        at = (tok or self.look()).at
        return ReadError(f"{why} at position {at} of {self.text[:80]!r}")

    def count(self, tok: _Token) -> int:
        if len(tok.text) > _MAX_DIGITS:
            raise self.fail(f"a number has at most {_MAX_DIGITS} digits", tok)
        return int(tok.text)

    # -- sums and signs ------------------------------------------------------------------------
    def game(self) -> Form:
        if self.sees("end"):
            raise self.fail("empty game text")
        g = self.sum()
        if not self.sees("end"):
            raise self.fail("unexpected text after a complete game")
        return g

    def sum(self) -> Form:
        g = self.signed()
        while self.look().kind in ("+", "-", "pm"):
            op = self.take().kind
            h = self.signed()
            h = h if op == "+" else neg(h) if op == "-" else switch(h)
            g = self.value_sum(g, h) if self.by_value and _holds_compact(g, h) else add(g, h)
        return g

    def value_sum(self, g: Form, h: Form) -> Form:
        """``G + H`` for its normal-play value when one part is a number kept whole: the other
        part moved by it (number translation, Siegel CGT II.3); only in a value reading."""
        from cgtalg.referee.compact import number_value, translate

        x, y = number_value(g), number_value(h)
        if x is not None and y is not None:
            return number(x + y)
        if x is not None:
            return translate(canonical(h), x)
        if y is not None:
            return translate(canonical(g), y)
        raise self.fail("a sum of games holding numbers too large for a tree")

    def sign_ahead(self) -> bool:
        """Whether a prefix sign comes next (a '-' touching digits is the number's own)."""
        if self.sees("-") and self.sees("digits", 1, touching=True):
            return False
        return self.look().kind in ("+", "-", "pm")

    def signed(self) -> Form:
        taken = []
        while self.sign_ahead():
            taken.append(self.take().kind)
        prefixes = [kind for kind in taken if kind != "+"]
        if prefixes and prefixes[-1] == "pm" and self.sees("{"):
            sections, runs = self.brace_parts()
            if runs:
                g = self.levels(sections, runs)
            else:  # ±{a, b} = {a, b | -a, -b}
                if not sections[0]:
                    raise self.fail("±{...} needs an option", self.toks[self.i - 1])
                g = form(sections[0], [neg(o) for o in sections[0]])
                prefixes.pop()
        else:
            g = self.atom()
        for kind in reversed(prefixes):
            g = switch(g) if kind == "pm" else neg(g)
        return g

    def atom(self) -> Form:
        t = self.look()
        if t.kind == "{":
            sections, runs = self.brace_parts()
            return self.levels(sections, runs) if runs else impartial(sections[0])
        if t.kind == "(":
            self.take()
            g = self.sum()
            self.need(")", "')'")
            return g
        if t.kind == "*" and self.sees("[", 1, touching=True):
            self.take()
            self.take()
            return self.group("]", lone_is_item=True)
        if t.kind == "word":
            if self.sees("(", 1, touching=True):
                return self.tiny(Fraction(0)) if t.text in ("Tiny", "Miny") else self.heap()
            if not _DOWNS.fullmatch(t.text):
                raise self.fail("names other than heap-game positions name(n, ...) are not read by the referee")
        if t.kind in ("digits", "-", "arrows", "word", "*"):
            return self.value()
        raise self.fail("expected a game")

    # -- braces --------------------------------------------------------------------------------
    def brace_parts(self) -> tuple[list[list[Form]], list[_Token]]:
        """``{ section { bars section } }``: the sections' options and the runs of bars."""
        self.take()
        sections: list[list[Form]] = [[]]
        runs: list[_Token] = []
        while not self.sees("}"):
            if self.sees("end"):
                raise self.fail("unclosed '{'")
            if self.sees("bars"):
                runs.append(self.take())
                sections.append([])
                continue
            if sections[-1]:
                raise self.fail("expected ',', '|' or '}' after an option")
            sections[-1].append(self.sum())
            while self.sees(","):
                self.take()
                sections[-1].append(self.sum())
        self.take()
        return sections, runs

    def levels(self, sections: list[list[Form]], runs: list[_Token]) -> Form:
        """Join the sections across their bars, shortest runs first: each run of the shortest
        length makes the form of its two neighbours (two such runs side by side: ambiguous)."""
        sides: list[Any] = list(sections)
        runs = list(runs)
        while runs:
            shortest = min(len(r.text) for r in runs)
            k = 0
            while k < len(runs):
                if len(runs[k].text) != shortest:
                    k += 1
                    continue
                if k + 1 < len(runs) and len(runs[k + 1].text) == shortest:
                    raise self.fail("ambiguous bars: two runs of the same length at one level", runs[k + 1])
                lo, hi = sides[k], sides[k + 1]
                sides[k:k + 2] = [form(lo if isinstance(lo, list) else [lo], hi if isinstance(hi, list) else [hi])]
                del runs[k]
        return sides[0]

    # -- values --------------------------------------------------------------------------------
    def number(self) -> Fraction:
        sign = -1 if self.take().kind == "-" else 1
        if sign < 0:
            self.take()
        top = self.toks[self.i - 1]
        num, den = self.count(top), 1
        if self.sees("/", touching=True) and self.sees("digits", 1, touching=True):
            self.take()
            den = self.count(self.take())
            if den == 0 or den & (den - 1):
                raise self.fail(f"{num}/{den} is not a dyadic rational", top)
        return Fraction(sign * num, den)

    def value(self) -> Form:
        """Touching parts ``number``, ``ups``, ``star``: the canonical form of their sum, named
        by its text (:func:`cgtalg.referee.games.show` writes it so)."""
        first = self.look()
        parts: list[Form] = []
        touching = False  # whether the next part must touch the one before
        if first.kind in ("-", "digits"):
            x = self.number()
            word = self.look()
            if word.glued and word.kind == "word" and word.text in ("Tiny", "Miny") and self.sees("(", 1, True):
                return self.tiny(x)
            parts.append(number(x))
            touching = True
        t = self.look()
        if (t.glued or not touching) and (t.kind == "arrows" or t.kind == "word" and _DOWNS.fullmatch(t.text)):
            parts.append(self.ups())
            touching = True
        t = self.look()
        if (t.glued or not touching) and t.kind == "*":
            self.take()
            parts.append(nim(self.count(self.take()) if self.sees("digits", touching=True) else 1))
        if first.kind in ("-", "digits") and len(parts) == 1:
            return parts[0]  # a number alone
        parts = [p for p in parts if p is not ZERO]
        if parts and parts[0].compact and len(parts) > 1:  # x + ups + star, x kept whole: translate
            from cgtalg.referee.compact import translate

            g = translate(canonical(_total(parts[1:])), parts[0].num)  # type: ignore[attr-defined]
        else:
            g = canonical(_total(parts)) if len(parts) > 1 else parts[0] if parts else ZERO
        _NAMES.setdefault(g.id, self.text[first.at:self.after])
        return g

    def ups(self) -> Form:
        """A run of arrows with an optional count, or ``^<n>``, ``^[n]`` and their negatives."""
        t = self.take()
        if t.kind == "word":
            m = _DOWNS.fullmatch(t.text)
            assert m is not None
            run, digits, sign, each = len(m.group(1)), m.group(2), -1, 1
        else:
            run, digits = len(t.text), ""
            sign = 1 if t.text[0] in "^↑⇑" else -1
            each = 2 if t.text[0] in "⇑⇓" else 1
        single = run == 1 and each == 1
        if single and not digits and self.look().kind in ("<", "[") and self.look().glued:
            close = ">" if self.take().kind == "<" else "]"
            order = self.count(self.need("digits", "a number", touching=True))
            if not (self.sees(close, touching=True) and 1 <= order <= _MAX_ORDER):
                raise self.fail(f"expected {close!r} after a count 1..{_MAX_ORDER}")
            self.take()
            h = _up_power(order, cumulative=close == "]")
            return h if sign > 0 else neg(h)
        if not digits and t.kind == "arrows" and self.sees("digits", touching=True):
            digits = self.take().text
        if digits and not single:
            raise self.fail("a count follows a single ^ or v only")
        if len(digits) > _MAX_DIGITS:
            raise self.fail(f"a number has at most {_MAX_DIGITS} digits", t)
        n = sign * (int(digits) if digits else run * each)
        if abs(n) > _MAX_UPS:
            raise self.fail(f"the referee builds multiples of ↑ up to {_MAX_UPS}", t)
        return _up_multiple(n)

    def tiny(self, x: Fraction) -> Form:
        """``Tiny(G)``, ``Miny(G)``, ``xTiny(G)``, ``xMiny(G)`` (the word and '(' are next)."""
        is_tiny = self.take().text == "Tiny"
        self.take()
        g = self.sum()
        self.need(")", "')' closing Tiny(...) or Miny(...)")
        base = number(x)
        if is_tiny:
            far = neg(g) if x == 0 else canonical(add(base, neg(g)))
            return form([base], [form([base], [far])])
        far = g if x == 0 else canonical(add(base, g))
        return form([form([far], [base])], [base])

    def heap(self) -> Form:
        """``name(a, b, ...)``: the literal sum of heaps ``a, b, ...`` of the heap game ``name``."""
        word = self.take()
        self.take()
        sizes: list[int] = []
        while not self.sees(")"):
            if sizes:
                self.need(",", f"',' or ')' in {word.text}(...)")
            if not self.sees("digits"):
                raise self.fail(f"the arguments of {word.text}(...) are heap sizes (non-negative integers)")
            sizes.append(int(self.take().text))
        self.take()
        try:
            rules = heap_rules(word.text)
        except Malformed as exc:
            raise self.fail(f"{word.text}(...) is not a heap game the referee reads ({exc})", word) from None
        if sizes and max(sizes) > HEAP_LIMIT:
            raise self.fail(f"a heap of {max(sizes)} tokens: the referee builds heap forms up to {HEAP_LIMIT}", word)
        heap_forms: list[Form] = []
        for size in range(max(sizes, default=0) + 1):
            heap_forms.append(impartial(_total(heap_forms[h] for h in left) for left in rules.options(size)))
        return _total(heap_forms[s] for s in sizes)

    # -- CGSuite's misère notation ---------------------------------------------------------------
    def comma_ahead(self) -> bool:
        """Whether a ',' stands at this bracket level before the level closes."""
        depth = 0
        for t in self.toks[self.i:]:
            if t.kind == "," and depth == 0:
                return True
            depth += (t.kind in _OPENERS) - (t.kind in _CLOSERS)
            if depth < 0:
                return False
        return False

    def group(self, close: str, lone_is_item: bool) -> Form:
        """The items up to ``close`` (taken): the game with those options, or the lone item."""
        whole_numbers = self.comma_ahead()
        items: list[Form] = []
        while not self.sees(close):
            if self.sees("end"):
                raise self.fail(f"unclosed bracket: expected {close!r}")
            if items and whole_numbers:
                self.need(",", f"',' or {close!r}")
                if self.sees(close) or self.sees(","):
                    raise self.fail("expected an item after ','")
            items.extend(self.item(whole_numbers))
        self.take()
        if len(items) == 1 and lone_is_item:
            return items[0]
        return impartial(items)

    def item(self, whole_numbers: bool) -> list[Form]:
        """One item with its suffixes (a run of digits without commas: one item a digit, the
        suffixes applying to the last)."""
        t = self.look()
        loose = False  # whether the first suffix may stand after white space
        if t.kind == "digits":
            self.take()
            made = [nim(self.count(t))] if whole_numbers else [nim(int(d)) for d in t.text]
        elif t.kind in ("(", "["):
            self.take()
            made = [self.group(")" if t.kind == "(" else "]", lone_is_item=t.kind == "(")]
        elif t.kind == "*":
            made, loose = [self.sum()], True
        else:
            raise self.fail("expected an item: a digit, '(', '[' or '*'")
        g = made[-1]
        while self.look().glued or loose:
            loose = False
            if self.sees("#"):
                self.take()
                g = impartial([g])
            elif self.sees("["):
                g = self.subscript(g)
            else:
                break
        made[-1] = g
        return made

    def subscript(self, g: Form) -> Form:
        """``[...]`` after an item, no white space inside: ``#`` and nim-heaps applied to ``g``
        in turn (``2[2]`` is ``*2 + *2``, ``2[#2#]`` is ``{{*2} + *2}``)."""
        opening = self.take()
        whole_numbers = self.comma_ahead()
        steps = 0
        while True:
            t = self.take()
            if not t.glued:
                raise self.fail("no white space in a subscript", t)
            if t.kind == "]":
                if not steps:
                    raise self.fail("empty subscript '[]'", opening)
                return g
            if t.kind == "#":
                g = impartial([g])
            elif t.kind == "digits":
                for heap in ([self.count(t)] if whole_numbers else [int(d) for d in t.text]):
                    g = add(g, nim(heap))
            elif not (t.kind == "," and whole_numbers and steps):
                raise self.fail("expected '#' or a heap size in a subscript", t)
            else:
                continue
            steps += 1


def _holds_compact(*forms: Form) -> bool:
    from cgtalg.referee.compact import has_compact

    return has_compact(*forms)


def read(text: Any, by_value: bool = False) -> Form:
    """The form that game ``text`` means, read literally (module docstring); with ``by_value``, a
    sum with a number too large for a tree is read as a form of its normal-play value (number
    translation), for the claims about values only.

    Raises
    ------
    ReadError
        For text that is not a game the referee reads (with the position)."""
    if not isinstance(text, str):
        raise ReadError(f"game text must be a string, not {type(text).__name__}")
    parser = _Parser(text)
    parser.by_value = by_value
    nesting = sum(t.kind in _OPENERS for t in parser.toks)
    saved = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(max(saved, min(200_000, 2_000 + 12 * nesting)))
        return parser.game()
    except RecursionError:
        raise ReadError(f"game text nested too deeply: {text[:60]!r}") from None
    finally:
        sys.setrecursionlimit(saved)


def _earlier(refs: Any, here: int) -> bool:
    """Whether ``refs`` is a list of indices (ints, not bools) of entries before ``here``."""
    return isinstance(refs, list) and all(isinstance(r, int) and not isinstance(r, bool) and 0 <= r < here
                                          for r in refs)


def read_value(value: Any) -> Form:
    """A form written in a JSON certificate: game text, or ``{"dag": [node, ...]}`` whose nodes
    are lists of earlier node indices (an impartial form with those options) or nim-heap texts
    ``"*n"``; the last node is the form."""
    if isinstance(value, str):
        return read(value)
    dag = value.get("dag") if isinstance(value, dict) else None
    if not (isinstance(dag, list) and dag):
        raise ReadError(f"expected game text or {{\"dag\": [...]}}, got {str(value)[:60]}")
    made: list[Form] = []
    for k, node in enumerate(dag):
        if isinstance(node, str):
            g = read(node)
            if node.lstrip()[:1] != "*":
                raise ReadError(f"DAG node {k} given as text must be a nim-heap *n")
        elif _earlier(node, k):
            g = impartial(made[r] for r in node)
        else:
            raise ReadError(f"DAG node {k} must list earlier node indices: {str(node)[:60]}")
        made.append(g)
    return made[-1]


def read_rows(rows: Any) -> list[Form]:
    """The forms of a table of rows ``[[left option rows], [right option rows]]``, each row
    naming earlier rows only (the layout of cgtalg's partizan certificates)."""
    if not isinstance(rows, list):
        raise ReadError("the forms of a certificate are a list of rows")
    made: list[Form] = []
    for k, row in enumerate(rows):
        if isinstance(row, dict) and set(row) == {"number"} and isinstance(row["number"], str):
            try:  # a number kept whole (cgtalg.referee.compact)
                x = Fraction(row["number"]) if len(row["number"]) < 10_000 else None
            except (ValueError, ZeroDivisionError):
                x = None
            if x is None or x.denominator & (x.denominator - 1):
                raise ReadError(f"form row {k} is not a dyadic number: {str(row)[:60]}")
            made.append(number(x))
            continue
        if isinstance(row, dict) and set(row) == {"sum"}:
            raise ReadError(f"form row {k} is a literal sum holding a number too large for a tree "
                            f"({str(row)[:60]}): the referee does not build it")
        if not (isinstance(row, list) and len(row) == 2 and _earlier(row[0], k) and _earlier(row[1], k)):
            raise ReadError(f"form row {k} is not [left rows, right rows] naming earlier rows: {str(row)[:60]}")
        made.append(form([made[r] for r in row[0]], [made[r] for r in row[1]]))
    return made
