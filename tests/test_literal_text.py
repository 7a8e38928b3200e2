"""Game text is the game it describes (issue 32, item 1: "each play its own simplifications").

``A + B`` in text is the literal disjunctive sum of the forms ``A`` and ``B``; a number written
as a value (``3``, ``1/2``, ``-3/4``) is its canonical form, ``*n``, ``^``, ``v``, ``^*`` the
canonical forms they denote, braces the form as written, ``-G`` the literal negative and
``G - H`` is ``G + (-H)``. Number translation (``1 + {1|0} = {2|1}``) is a theorem of normal play
only, so the misère answers must be those of the literal game.

Every expected value here comes from this module's own brute force, written from the definitions
and sharing nothing with the library:

- forms as in Siegel, *Combinatorial Game Theory* (CGT) I.1 and II.1; the canonical forms of
  numbers ``n = {n-1 | }``, ``-n = { | -n+1}``, ``m/2^k = {(m-1)/2^k | (m+1)/2^k}`` (CGT II.3,
  ONAG ch. 0), nimbers ``*n = {*0..*(n-1) | *0..*(n-1)}``, ``^ = {0 | *}``, ``^* = {0, * | 0}``
  (CGT II.4), switches ``±x = {x | -x}``;
- a sum is a multiset of components; a move replaces one component by one of its options for the
  player moving (CGT I.1); normal play: the player who cannot move loses; misère play: the player
  who cannot move wins (CGT V.1, V.6);
- normal-play equality ``G = H`` exactly when ``G - H`` is a P-position (CGT II.1), played out;
- misère ``G ≥ H`` modulo a universe U means ``o(G + X) ≥ o(H + X)`` for every ``X`` in U,
  outcomes ordered ``L > P, N > R`` (CGT V.6): a claimed ``≥`` is checked by play against every
  game of U born by day 2, a claimed ``≱`` by playing the distinguishing game the library gives;
- universes: dicots (every subposition has options for both players or for neither) and
  dead-ending games (every end is dead: a position where a player has no move has no move for that
  player anywhere below it), Milley and Renault 2013; impartial games.

The texts are generated with their meaning (an expression tree), printed, and evaluated by this
module into the multiset of component forms they denote; the library reads only the text.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from functools import lru_cache
from itertools import product

import pytest
from click.testing import CliRunner

import cgtalg as cg
from cgtalg.cli.main import cli
from cgtalg.errors import ComputationLimitError, GameKindError

# -- forms, interned: id -> (Left option ids, Right option ids) ------------------------------------
_OPTS: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
_IDS: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}


def form(left, right) -> int:
    key = (tuple(sorted(set(left))), tuple(sorted(set(right))))
    if key not in _IDS:
        _IDS[key] = len(_OPTS)
        _OPTS.append(key)
    return _IDS[key]


ZERO = form((), ())


@lru_cache(maxsize=None)
def neg(g: int) -> int:
    left, right = _OPTS[g]
    return form([neg(r) for r in right], [neg(x) for x in left])


@lru_cache(maxsize=None)
def form_sum(a: int, b: int) -> int:
    """The literal sum as one form (for options written as sums inside braces)."""
    (al, ar), (bl, br) = _OPTS[a], _OPTS[b]
    return form([form_sum(x, b) for x in al] + [form_sum(a, y) for y in bl],
                [form_sum(x, b) for x in ar] + [form_sum(a, y) for y in br])


@lru_cache(maxsize=None)
def number(q: Fraction) -> int:
    if q.denominator == 1:
        n = int(q)
        if n == 0:
            return ZERO
        return form([number(Fraction(n - 1))], []) if n > 0 else form([], [number(Fraction(n + 1))])
    step = Fraction(1, q.denominator)
    return form([number(q - step)], [number(q + step)])


@lru_cache(maxsize=None)
def nim(n: int) -> int:
    heaps = [nim(k) for k in range(n)]
    return form(heaps, heaps)


STAR = nim(1)
UP = form([ZERO], [STAR])                 # ^ = {0 | *}
UP_STAR = form([ZERO, STAR], [ZERO])      # ^* = {0, * | 0}


def subpositions(g: int) -> set[int]:
    seen, todo = set(), [g]
    while todo:
        x = todo.pop()
        if x not in seen:
            seen.add(x)
            todo.extend(_OPTS[x][0] + _OPTS[x][1])
    return seen


def is_impartial(g: int) -> bool:
    return all(_OPTS[x][0] == _OPTS[x][1] for x in subpositions(g))


def is_dicot(g: int) -> bool:
    return all(bool(_OPTS[x][0]) == bool(_OPTS[x][1]) for x in subpositions(g))


def is_dead_ending(g: int) -> bool:
    for x in subpositions(g):
        for side in (0, 1):
            if not _OPTS[x][side] and any(_OPTS[y][side] for y in subpositions(x)):
                return False
    return True


# -- play of sums (multisets of components) -------------------------------------------------------
def _position(components) -> tuple[int, ...]:
    return tuple(sorted(c for c in components if c != ZERO))


@lru_cache(maxsize=None)
def wins_moving_first(pos: tuple[int, ...], side: int, misere: bool) -> bool:
    """Whether the player ``side`` (0 Left, 1 Right) to move in ``pos`` wins."""
    moved = False
    for i, c in enumerate(pos):
        for o in _OPTS[c][side]:
            moved = True
            if not wins_moving_first(_position(pos[:i] + (o,) + pos[i + 1:]), 1 - side, misere):
                return True
    return misere and not moved  # no move: a loss in normal play, a win in misère play


def outcome(components, misere: bool) -> str:
    pos = _position(components)
    left, right = wins_moving_first(pos, 0, misere), wins_moving_first(pos, 1, misere)
    return {(True, True): "N", (True, False): "L", (False, True): "R", (False, False): "P"}[(left, right)]


def outcome_ge(a: str, b: str) -> bool:
    """``a ≥ b`` for Left: L > P > R and L > N > R (P and N incomparable)."""
    return a == b or a == "L" or b == "R"


# -- expressions: their text, and the components they denote --------------------------------------
def _fraction_text(q: Fraction) -> str:
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def random_number(rng: random.Random) -> Fraction:
    if rng.random() < 0.5:
        return Fraction(rng.randint(-3, 3))
    den = rng.choice((2, 4, 8))
    return Fraction(rng.choice([m for m in range(-2 * den + 1, 2 * den) if m % 2]), den)


def random_expr(rng: random.Random, depth: int, terms: int) -> tuple:
    """An expression: ("num", q), ("nim", n), ("up", text), ("switch", q), ("braces", L, R),
    ("neg", e) or ("sum", [(sign, e), ...])."""
    if terms > 1:
        return ("sum", [(rng.choice("++-"), random_expr(rng, depth, 1)) for _ in range(terms)])
    kind = rng.choices(("num", "nim", "up", "switch", "braces", "neg", "paren"),
                       (5, 2, 2, 1, 4 if depth else 0, 1, 1 if depth else 0))[0]
    if kind == "num":
        return ("num", random_number(rng))
    if kind == "nim":
        return ("nim", rng.randint(1, 3))
    if kind == "up":
        return ("up", rng.choice(("^", "v", "^*", "v*")))
    if kind == "switch":
        return ("switch", Fraction(rng.randint(1, 2)))
    if kind == "neg":
        return ("neg", random_expr(rng, max(depth - 1, 0), 1))
    if kind == "paren":
        return ("sum", [(rng.choice("+-"), random_expr(rng, depth - 1, 1)) for _ in range(2)])
    side = lambda: [random_expr(rng, depth - 1, rng.choice((1, 1, 1, 2))) for _ in range(rng.randint(0, 2))]
    return ("braces", side(), side())


def text_of(e: tuple) -> str:
    kind = e[0]
    if kind == "num":
        return _fraction_text(e[1])
    if kind == "nim":
        return "*" if e[1] == 1 else f"*{e[1]}"
    if kind == "up":
        return e[1]
    if kind == "switch":
        return "±" + _fraction_text(e[1])
    if kind == "braces":
        return "{" + ", ".join(map(text_of, e[1])) + " | " + ", ".join(map(text_of, e[2])) + "}"
    if kind == "neg":
        inner = text_of(e[1])
        return "-(" + inner + ")" if e[1][0] in ("sum", "neg", "num", "switch") else "-" + inner
    out = ""
    for i, (sign, x) in enumerate(e[1]):
        t = text_of(x)
        if x[0] == "sum":
            t = "(" + t + ")"
        out += (t if sign == "+" else "-" + (t if x[0] in ("braces", "sum") else "(" + t + ")")) if i == 0 \
            else f" {sign} {t}"
    return out


def components(e: tuple) -> list[int]:
    """The multiset of component forms the expression denotes (sums flattened)."""
    kind = e[0]
    if kind == "num":
        return [number(e[1])]
    if kind == "nim":
        return [nim(e[1])]
    if kind == "up":
        g = {"^": UP, "v": neg(UP), "^*": UP_STAR, "v*": neg(UP_STAR)}[e[1]]
        return [g]
    if kind == "switch":
        return [form([number(e[1])], [number(-e[1])])]
    if kind == "braces":
        return [form([as_form(x) for x in e[1]], [as_form(x) for x in e[2]])]
    if kind == "neg":
        return [neg(c) for c in components(e[1])]
    out: list[int] = []
    for i, (sign, x) in enumerate(e[1]):
        cs = components(x)
        out += cs if sign == "+" else [neg(c) for c in cs]
    return out


def as_form(e: tuple) -> int:
    g = ZERO
    for c in components(e):
        g = form_sum(g, c)
    return g


def to_library(g: int):
    """The form ``g`` as the library's partizan form (options as given)."""
    memo: dict[int, object] = {}
    for x in sorted(subpositions(g), key=lambda y: len(subpositions(y))):
        memo[x] = cg.pgame([memo[o] for o in _OPTS[x][0]], [memo[o] for o in _OPTS[x][1]])
    return memo[g]


def from_library(x) -> int:
    """A library form (partizan or impartial) as this module's form."""
    if isinstance(x, cg.PartizanGame):
        return form([from_library(o) for o in x.left], [from_library(o) for o in x.right])
    opts = [from_library(o) for o in x.options]
    return form(opts, opts)


def random_texts(seed: int, count: int, depth: int = 2, max_terms: int = 4):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        e = random_expr(rng, depth, rng.randint(1, max_terms))
        cs = components(e)
        size = 1
        for c in cs:
            size *= len(subpositions(c))
        if size <= 1500:
            out.append((text_of(e), cs))
    return out



# -- the tests -------------------------------------------------------------------------------------
def test_the_issue_examples():
    """The cases of issue 32: number translation had given L, R, P, N and "="."""
    cases = {"1/2 + -1": [number(Fraction(1, 2)), number(Fraction(-1))],
             "1 + {1|0}": [number(Fraction(1)), form([number(Fraction(1))], [ZERO])],
             "-1 + {1|0}": [number(Fraction(-1)), form([number(Fraction(1))], [ZERO])],
             "1/2 + 1/2 + -1": [number(Fraction(1, 2))] * 2 + [number(Fraction(-1))]}
    for text, cs in cases.items():
        assert cg.outcome(text, misere=True) == outcome(cs, True), text
        assert cg.outcome(text) == outcome(cs, False), text
    # brute force gives N, N, R, R (the issue's truths)
    assert [outcome(cs, True) for cs in cases.values()] == ["N", "N", "R", "R"]
    assert cg.parse("1 + -1") is cg.integer(1) + cg.integer(-1)          # the literal sum
    assert cg.parse("1 + -1", normal_play=True) is cg.integer(0)        # its normal-play value


def test_outcomes_of_random_text_agree_with_play():
    """At least 500 texts: the misère and normal outcomes of the library from the text equal
    the outcomes of this module's play of the literal sum; the text reads to the literal sum of
    the library's forms (``pgame`` and ``+``)."""
    checked = 0
    for text, cs in random_texts(32, 560):
        g = cg.parse(text)
        checked += 1
        assert cg.outcome(text, misere=True) == outcome(cs, True), text
        assert cg.outcome(text) == outcome(cs, False), text
        literal = cg.integer(0)
        for c in cs:
            literal = literal + to_library(c)
        assert (g if isinstance(g, cg.PartizanGame) else cg.from_impartial(g)) is literal, text
    assert checked >= 500


def test_normal_play_doors_give_the_value():
    """The normal-play canonical form of the text equals the literal sum in normal play:
    ``sum - canonical`` is a P-position by play (CGT II.1)."""
    for text, cs in random_texts(7, 120, depth=1, max_terms=3):
        c = from_library(cg.canonical_form(text))
        assert outcome(cs + [neg(c)], False) == "P", text


def test_misere_outcomes_never_come_from_number_translation():
    """Sums of numbers and small forms: ``cg.outcome(..., misere=True)`` on the text and on the
    library's literal sum agree with play, and differ from the translated value's outcome where
    play says so (the bug: about half of such answers were wrong)."""
    rng = random.Random(5)
    differ = 0
    for _ in range(150):
        parts = [("num", random_number(rng)) for _ in range(rng.randint(1, 3))]
        parts.append(random_expr(rng, 1, 1))
        e = ("sum", [("+", p) for p in parts])
        text, cs = text_of(e), components(e)
        truth = outcome(cs, True)
        assert cg.outcome(text, misere=True) == truth, text
        value = cg.parse(text, normal_play=True)
        differ += cg.outcome(value, misere=True) != truth
    assert differ > 0  # the translated forms are other games in misère play


def _universes(g: int, h: int) -> list[str]:
    out = ["all"]
    if is_dicot(g) and is_dicot(h):
        out.append("dicot")
    if is_dead_ending(g) and is_dead_ending(h):
        out.append("dead-ending")
    if is_impartial(g) and is_impartial(h):
        out.append("impartial")
    return out


_MEMBER = {"all": lambda x: True, "dicot": is_dicot, "dead-ending": is_dead_ending,
           "impartial": is_impartial}


@lru_cache(maxsize=None)
def _born_by_day_2() -> tuple[int, ...]:
    day1 = [ZERO, form([ZERO], []), form([], [ZERO]), form([ZERO], [ZERO])]
    sides = [[x for x, keep in zip(day1, bits) if keep] for bits in product((0, 1), repeat=4)]
    return tuple(form(left, right) for left in sides for right in sides)


def _check_ge_by_play(g: list[int], h: list[int], universe: str, holds: bool, t) -> None:
    """A claim ``G ≥ H`` (``holds``) against every game of the universe born by day 2, or a
    claim ``G ≱ H`` by playing its distinguishing game ``t``."""
    if holds:
        for x in _born_by_day_2():
            if _MEMBER[universe](x):
                assert outcome_ge(outcome(g + [x], True), outcome(h + [x], True))
    else:
        x = from_library(t)
        assert _MEMBER[universe](x)
        assert not outcome_ge(outcome(g + [x], True), outcome(h + [x], True))


def test_misere_comparisons_of_text_are_of_the_literal_games():
    """``cg.compare`` in misère play, in every universe both games belong to: the text path
    equals the path of the library's literal forms, and each direction is checked by play."""
    rng = random.Random(11)
    checked = 0
    pairs = [("1 + -1", "0"), ("1/2 + 1/2 + -1", "0"), ("{0|} + {|0}", "0"), ("1/2 - 1/2", "0"),
             ("2 + -1", "{0|}"), ("* + *", "0"), ("*2 + *3", "*")]
    while len(pairs) < 40:
        a = ("sum", [("+", ("num", random_number(rng))) for _ in range(rng.randint(1, 2))])
        b = random_expr(rng, 1, rng.randint(1, 2))
        pairs.append((text_of(a), text_of(b)))
    for gt, ht in pairs:
        g, h = components(_Reader(gt).sum()), components(_Reader(ht).sum())
        if len(subpositions(as_form_of(g))) * len(subpositions(as_form_of(h))) > 400:
            continue
        checked += 1
        gf, hf = (_literal(cs) for cs in (g, h))
        for u in _universes(as_form_of(g), as_form_of(h)):
            by_text = cg.compare(gt, ht, misere=True, universe=u)
            by_form = cg.compare(gf, hf, misere=True, universe=u)
            assert by_text.relation == by_form.relation, (gt, ht, u)
            if u == "impartial":
                ok = by_text.relation == "="
                _check_ge_by_play(g, h, u, ok, None if ok else by_text.distinguisher)
                _check_ge_by_play(h, g, u, ok, None if ok else by_text.distinguisher)
                continue
            ge, le = by_text.certificates
            _check_ge_by_play(g, h, u, ge.holds, None if ge.holds else ge.distinguisher)
            _check_ge_by_play(h, g, u, le.holds, None if le.holds else le.distinguisher)
    assert checked >= 30


class _Reader:
    """This module's own tiny reader of the texts compared above (written by hand or by
    :func:`text_of`): terms joined by ``+``/``-``; a term is a number, ``*``, ``*n``, ``^``,
    ``v``, ``^*``, ``v*``, ``±x``, braces, ``-term`` or a parenthesised sum."""

    def __init__(self, text: str) -> None:
        self.s, self.i = text.replace(" ", ""), 0

    def sum(self) -> tuple:
        terms = [("+", self.term())]
        while self.i < len(self.s) and self.s[self.i] in "+-":
            sign = self.s[self.i]
            self.i += 1
            terms.append((sign, self.term()))
        return ("sum", terms)

    def term(self) -> tuple:
        s = self.s
        c = s[self.i]
        if c == "(":
            self.i += 1
            e = self.sum()
            assert s[self.i] == ")"
            self.i += 1
            return e
        if c == "{":
            self.i += 1
            sides: list[list[tuple]] = [[], []]
            k = 0
            while s[self.i] != "}":
                if s[self.i] == "|":
                    k, self.i = 1, self.i + 1
                elif s[self.i] == ",":
                    self.i += 1
                else:
                    sides[k].append(self.sum())
            self.i += 1
            return ("braces", sides[0], sides[1])
        if c == "±":
            self.i += 1
            return ("switch", self.number())
        if c == "*":
            self.i += 1
            n = 1
            if self.i < len(s) and s[self.i].isdigit():
                n = int(s[self.i])
                self.i += 1
            return ("nim", n) if n else ("num", Fraction(0))
        for t in ("^*", "v*", "^", "v"):
            if s.startswith(t, self.i):
                self.i += len(t)
                return ("up", t)
        if c == "-" and not s[self.i + 1].isdigit():
            self.i += 1
            return ("neg", self.term())
        return ("num", self.number())

    def number(self) -> Fraction:
        j = self.i + (self.s[self.i] == "-")
        while j < len(self.s) and (self.s[j].isdigit() or self.s[j] == "/"):
            j += 1
        q = Fraction(self.s[self.i:j])
        self.i = j
        return q


def as_form_of(cs: list[int]) -> int:
    g = ZERO
    for c in cs:
        g = form_sum(g, c)
    return g


def _literal(cs: list[int]):
    out = cg.integer(0)
    for c in cs:
        out = out + to_library(c)
    return out


def test_the_cli_reads_the_literal_game():
    """``cgtalg game TEXT --json``: the misère outcome of play; ``cgtalg equiv "1 + -1" 0
    --misere --universe all`` says ``||``, as the library's comparison of the literal sum
    ``cg.integer(1) + cg.integer(-1)`` with 0 does; ``{0|} + {|0}`` is compared among all games
    (it is partizan), never in the impartial universe."""
    runner = CliRunner()

    def run(*args):
        r = runner.invoke(cli, [*args, "--no-store", "--json"], obj={})
        assert r.exit_code == 0, r.output
        return json.loads(r.output)

    texts = random_texts(3, 8, depth=1, max_terms=3)
    texts += [("1/2 + -1", [number(Fraction(1, 2)), number(Fraction(-1))]),
              ("-1 + {1|0}", [number(Fraction(-1)), form([number(Fraction(1))], [ZERO])])]
    for text, cs in texts:
        d = run("game", text)
        assert d["misere_outcome"] == outcome(cs, True), text
    d = run("equiv", "1 + -1", "0", "--misere", "--universe", "all")
    objects = cg.compare(cg.integer(1) + cg.integer(-1), 0, misere=True, universe="all")
    assert d["relation"] == objects.relation == "||"
    d = run("equiv", "{0|} + {|0}", "0", "--misere")
    assert (d["universe"], d["relation"]) == ("all", "||")
    assert cg.compare("{0|} + {|0}", 0, misere=True).universe == "all"
    with pytest.raises(GameKindError, match="impartial universe"):
        cg.compare("{0|} + {|0}", 0, misere=True, universe="impartial")
    d = run("equiv", "1 + -1", "0")                                  # normal play: the value
    assert d["relation"] == "="


def test_large_literal_sums_are_refused_by_name():
    """A literal sum past SUM_LIMIT is refused in misère play, naming the normal-play reading,
    which the normal-play doors use (their values cost no literal sum)."""
    with pytest.raises(ComputationLimitError, match="normal_play=True"):
        cg.outcome("500 - 500 + ^", misere=True)
    # 500 - 500 + ^ = ^ in normal play, an L-position (^ > 0: Left wins moving first to 0, and
    # moving second answers Right's move to * by moving to 0; CGT II.4)
    assert str(cg.canonical_form("500 - 500 + ^")) == "^" and cg.outcome("500 - 500 + ^") == "L"
    assert outcome([UP], False) == "L"
    # integers of one sign: the literal sum is the integer form (no pairs are walked)
    assert cg.parse_partizan("200 + 300") is cg.integer(500)
    assert cg.parse_partizan("3 + 2") is cg.integer(3) + cg.integer(2) is cg.integer(5)
    assert cg.parse_partizan("-3 - 2") is cg.integer(-3) + cg.integer(-2) is cg.integer(-5)
    assert as_form_of([number(Fraction(3)), number(Fraction(2))]) == number(Fraction(5))
