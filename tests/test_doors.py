"""The doors' table: every public operation (cgtalg.ops.OPERATIONS) × every kind of game.

Each cell either checks the answer against an independent computation from the definitions, or
asserts the named refusal (GameKindError / UnsupportedError). The independent computations work
on literal game trees ``(Left options, Right options)`` made here (from the literal forms, or
from the rules written out for Kayles (tests/misere_brute.py), Domineering and Guy's parity game
below), and play them
out by brute force:

- outcomes: who wins moving first, by exhaustive play (Conway, ONAG ch. 7; Siegel CGT I.1);
  normal play: a player unable to move loses; misère: wins;
- Grundy values by mex (Sprague–Grundy; Siegel CGT IV.1); misère Grundy values by mex with the
  end position valued 1 (ONAG ch. 12); the genus superscripts γn as misère Grundy values of
  ``G + n·*2`` (ONAG ch. 12; Winning Ways ch. 13);
- normal-play order: ``G ≤ H`` iff Left wins ``H − G`` moving second (Siegel CGT II.1);
- stops: ``LS(G) = x`` when ``G`` equals the number ``x``, else the greatest ``RS(G^L)``, and
  dually (Siegel CGT II.3); mean and temperature of switches ``{a | b}``: ``(a+b)/2`` and
  ``(a−b)/2`` (Winning Ways ch. 6); cooling ``{a | b}`` by ``t``: ``{a−t | b+t}``; atomic weights
  of ↑ (1), ⇑ (2) and * (0) (Winning Ways ch. 8);
- misère equivalence/order modulo a universe: the outcomes of ``G + X`` and ``H + X`` compared
  for every ``X`` of the universe born by day 2 (and the impartial games born by day 3), and
  every distinguishing game the library offers re-played here.

The table is the guard against the silent answers issue 19 found (``outcome({1|-1})`` said P,
``grundy({0|})`` said 1, ``misère outcome({0|})`` said P).
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import lru_cache

import pytest
from misere_brute import kayles_moves

import cgtalg as cg
from cgtalg import ops
from cgtalg.errors import GameKindError, UniverseError, UnsupportedError

# -- literal trees and brute-force play ---------------------------------------------------------
EMPTY = frozenset()
ZERO_T = (EMPTY, EMPTY)


def tree(x):
    """The literal tree of a form (impartial or partizan) or of a misère canonical form."""
    x = ops.kinds.read(x)
    if isinstance(x, cg.MisereCanonicalForm):
        x = x.game
    memo = {}

    def walk(g):
        if g.id in memo:
            return memo[g.id]
        if isinstance(g, cg.Game):
            opts = frozenset(walk(o) for o in g.options)
            t = (opts, opts)
        else:
            t = (frozenset(walk(o) for o in g.left), frozenset(walk(o) for o in g.right))
        memo[g.id] = t
        return t

    return walk(x)


def impartial(*opts):
    s = frozenset(opts)
    return (s, s)


@lru_cache(maxsize=None)
def add(a, b):
    return (frozenset({add(x, b) for x in a[0]} | {add(a, y) for y in b[0]}),
            frozenset({add(x, b) for x in a[1]} | {add(a, y) for y in b[1]}))


@lru_cache(maxsize=None)
def neg(a):
    return (frozenset(neg(x) for x in a[1]), frozenset(neg(x) for x in a[0]))


@lru_cache(maxsize=None)
def first_wins(g, side, misere):
    moves = g[0] if side == "L" else g[1]
    if not moves:
        return misere
    other = "R" if side == "L" else "L"
    return any(not first_wins(o, other, misere) for o in moves)


def outcome_of(g, misere=False):
    left, right = first_wins(g, "L", misere), first_wins(g, "R", misere)
    return "N" if left and right else "L" if left else "R" if right else "P"


def mex(values):
    values, m = set(values), 0
    while m in values:
        m += 1
    return m


@lru_cache(maxsize=None)
def grundy_of(g):
    assert g[0] == g[1]
    return mex(grundy_of(o) for o in g[0])


@lru_cache(maxsize=None)
def misere_grundy_of(g):
    assert g[0] == g[1]
    return 1 if not g[0] else mex(misere_grundy_of(o) for o in g[0])


def le_of(g, h):
    """G ≤ H in normal play: Left wins H − G moving second."""
    return outcome_of(add(h, neg(g))) in ("L", "P")


def relation_of(g, h):
    a, b = le_of(g, h), le_of(h, g)
    return "=" if a and b else "<" if a else ">" if b else "||"


@lru_cache(maxsize=None)
def number_tree(x):
    x = Fraction(x)
    if x.denominator == 1:
        n = int(x)
        if n == 0:
            return ZERO_T
        return (frozenset({number_tree(n - 1)}), EMPTY) if n > 0 else (EMPTY, frozenset({number_tree(n + 1)}))
    step = Fraction(1, x.denominator)
    return (frozenset({number_tree(x - step)}), frozenset({number_tree(x + step)}))


@lru_cache(maxsize=None)
def number_of(g):
    """The dyadic number (denominator ≤ 16, |x| ≤ 16) that g equals, or None. A number is
    comparable with every number, so g is located by bisection: confused with one, it is none."""
    lo, hi = None, None  # numbers known to be < g and > g
    x = Fraction(0)
    for _ in range(40):
        r = relation_of(g, number_tree(x))
        if r == "=":
            return x
        if r == "||":
            return None
        if r == ">":
            lo = x
            x = x + 1 if hi is None else (x + hi) / 2
        else:
            hi = x
            x = x - 1 if lo is None else (lo + x) / 2
        if x.denominator > 16 or abs(x) > 16:
            return None
    return None


@lru_cache(maxsize=None)
def left_stop_of(g):
    x = number_of(g)
    return x if x is not None else max(right_stop_of(o) for o in g[0])


@lru_cache(maxsize=None)
def right_stop_of(g):
    x = number_of(g)
    return x if x is not None else min(left_stop_of(o) for o in g[1])


def day(n, keep=lambda l, r: True):
    games = [ZERO_T]
    for _ in range(n):
        subsets = [frozenset(c) for k in range(len(games) + 1) for c in itertools.combinations(games, k)]
        games = [(l, r) for l in subsets for r in subsets if keep(l, r)]
    return games


IMPARTIAL_DAY3 = [g for g in day(3, lambda l, r: l == r)]
ALL_DAY2 = day(2)
DICOT_DAY2 = day(2, lambda l, r: bool(l) == bool(r))


def universe_games(universe):
    return {"impartial": IMPARTIAL_DAY3, "all": ALL_DAY2, "dicot": DICOT_DAY2,
            "dead-ending": [g for g in ALL_DAY2 if _dead_ending(g)]}[universe]


def _ends(g):
    """Whether Left / Right have no move anywhere in g (a dead end for that player)."""
    return (not g[0] and all(_ends(o)[0] for o in g[1]), not g[1] and all(_ends(o)[1] for o in g[0]))


def _dead_ending(g):
    todo, seen = [g], set()
    while todo:
        x = todo.pop()
        if x in seen:
            continue
        seen.add(x)
        if not x[0] and not _ends(x)[0] or not x[1] and not _ends(x)[1]:
            return False
        todo.extend(x[0] | x[1])
    return True


_ORDER = {("L", "L"), ("L", "P"), ("L", "N"), ("L", "R"), ("P", "P"), ("P", "R"), ("N", "N"),
          ("N", "R"), ("R", "R")}


def misere_ge_on(g, h, xs):
    """o⁻(G+X) ≥ o⁻(H+X) (Left's order: L > P, N > R) for every X in xs."""
    return all((outcome_of(add(g, x), True), outcome_of(add(h, x), True)) in _ORDER for x in xs)


# -- rulesets written out from their rules ----------------------------------------------------
@lru_cache(maxsize=None)
def kayles_tree(heaps):
    """Kayles (0.77): take 1 or 2 adjacent pins from a row, leaving 0, 1 or 2 rows."""
    return impartial(*{kayles_tree(m) for m in kayles_moves(heaps)})


@lru_cache(maxsize=None)
def domineering_tree(cells):
    """Domineering: Left places a vertical domino, Right a horizontal one, on empty cells."""
    left = {domineering_tree(cells - {(r, c), (r + 1, c)}) for (r, c) in cells if (r + 1, c) in cells}
    right = {domineering_tree(cells - {(r, c), (r, c + 1)}) for (r, c) in cells if (r, c + 1) in cells}
    return (frozenset(left), frozenset(right))


def board(rows, cols):
    return frozenset((r, c) for r in range(rows) for c in range(cols))


@lru_cache(maxsize=None)
def parity_wins_first(b, mover_holds, other_holds):
    """Guy's parity game (seed 003): take 1, 2 or 3 beans; when none are left, the player holding
    an even number wins. True when the player to move (holding ``mover_holds``) wins."""
    if b == 0:
        return mover_holds % 2 == 0
    return any(not parity_wins_first(b - t, other_holds, mover_holds + t) for t in (1, 2, 3) if t <= b)


# -- the kinds: one or more examples each, with their literal trees ---------------------------
def kayles(*heaps):
    return cg.position("0.77", *heaps)


KINDS = {
    "impartial form": [cg.parse("{*2}"), cg.parse("*2+*2"), cg.parse("{*, *2, {*}}"), cg.nim(3), cg.zero],
    "impartial in partizan notation": [cg.parse("{*|*}"), cg.parse("{0|0}"), cg.parse("{0,*|0,*}")],
    "partizan form": [cg.parse("{0|}"), cg.parse("{1|-1}"), cg.parse("^"), cg.parse("{3|-1}"),
                      cg.parse("{0|{0|-1}}")],
    "heap position": [kayles(3, 4), kayles(5), kayles(2, 2)],
    "partizan position": [cg.position("domineering", "2x3"), cg.position("domineering", "2x2")],
    "misère class": [cg.canonical_form("{*2}", misere=True), cg.canonical_form("*2+*3", misere=True)],
    "nimber": [cg.Nimber(3), cg.Nimber(0)],
    "game text": ["{*2}", "{1|-1}", "*2+*2", "{0|}"],
}
IMPARTIAL_KINDS = ("impartial form", "impartial in partizan notation", "heap position",
                   "misère class", "nimber", "game text")

EXAMPLES = [(k, x) for k, xs in KINDS.items() for x in xs]
IDS = [f"{k}:{x}" for k, x in EXAMPLES]


def lit(x):
    """The literal tree of any example."""
    if isinstance(x, ops.Position):
        if x.ruleset.name == "domineering":
            return domineering_tree(frozenset(x.ruleset.cells(x.value)))
        return kayles_tree(tuple(sorted(x.value)))
    if isinstance(x, cg.Nimber):
        return tree(cg.nim(int(x)))
    return tree(x)


def is_impartial_tree(t):
    return t[0] == t[1] and all(is_impartial_tree(o) for o in t[0])


def refuses(fn, *args, error=GameKindError, **kwargs):
    with pytest.raises(error) as info:
        fn(*args, **kwargs)
    assert fn.__name__ in str(info.value), str(info.value)  # the message names the question
    return info.value


# -- the table ------------------------------------------------------------------------------
@pytest.mark.parametrize("kind,x", EXAMPLES, ids=IDS)
@pytest.mark.parametrize("misere", [False, True])
def test_outcome(kind, x, misere):
    got = cg.outcome(x, misere=misere)
    assert got == outcome_of(lit(x), misere)


@pytest.mark.parametrize("kind,x", EXAMPLES, ids=IDS)
@pytest.mark.parametrize("misere", [False, True])
def test_winning_moves(kind, x, misere):
    t = lit(x)
    if kind == "misère class" and not misere:
        refuses(cg.winning_moves, x, misere=False)
        return
    if not is_impartial_tree(t):
        refuses(cg.winning_moves, x, misere=misere)  # partizan: which player?
        for side, good in (("L", ("L", "P")), ("R", ("R", "P"))):
            moves = cg.winning_moves(x, misere=misere, player=side)
            want = {o for o in t[0 if side == "L" else 1] if outcome_of(o, misere) in good}
            got = {domineering_tree(frozenset(x.ruleset.cells(m))) if isinstance(x, ops.Position)
                   else lit(m) for m in moves}
            assert got == want
        return
    moves = cg.winning_moves(x, misere=misere)
    want = {o for o in t[0] if outcome_of(o, misere) == "P"}
    if isinstance(x, ops.Position):  # heap moves: apply them to the heaps
        got = {kayles_tree(tuple(sorted(m.result(list(x.value))))) for m in moves}
    elif isinstance(x, cg.Nimber):
        got = {tree(cg.nim(int(m))) for m in moves}
    else:
        got = {lit(m) for m in moves}
    assert got == want


@pytest.mark.parametrize("kind,x", EXAMPLES, ids=IDS)
def test_grundy_values_and_genus(kind, x):
    t = lit(x)
    if not is_impartial_tree(t):
        for fn in (cg.grundy, cg.misere_grundy, cg.genus):
            err = refuses(fn, x)
            assert err.answered_by, "the refusal names the functions that do answer"
        return
    assert cg.grundy(x) == grundy_of(t)
    assert cg.misere_grundy(x) == misere_grundy_of(t)
    gen = cg.genus(x)
    assert gen.g == grundy_of(t)
    two = impartial(ZERO_T, impartial(ZERO_T))
    s = t
    for n in range(4 if len(_followers(t)) < 12 else 1):
        assert gen.gamma(n) == misere_grundy_of(s), n
        s = add(s, two)


@pytest.mark.parametrize("kind,x", EXAMPLES, ids=IDS)
def test_canonical_form_normal_play(kind, x):
    t = lit(x)
    c = cg.canonical_form(x)
    assert relation_of(lit(c), t) == "="
    if is_impartial_tree(t):
        assert lit(c) == tree(cg.nim(grundy_of(t)))  # *n, n the Grundy value
    else:  # canonical: no form of smaller birthday is equal (brute force over day ≤ 2)
        birth = _birthday(lit(c))
        assert all(relation_of(g, t) != "=" for g in ALL_DAY2 if _birthday(g) < birth)


def _birthday(t):
    return 0 if t == ZERO_T else 1 + max(_birthday(o) for o in t[0] | t[1])


@pytest.mark.parametrize("kind,x", EXAMPLES, ids=IDS)
@pytest.mark.parametrize("universe", ["impartial", "dicot", "dead-ending", "all"])
def test_canonical_form_misere(kind, x, universe):
    t = lit(x)
    if universe == "impartial" and not is_impartial_tree(t):
        refuses(cg.canonical_form, x, misere=True, universe=universe)
        return
    if kind == "misère class" and universe != "impartial":
        refuses(cg.canonical_form, x, misere=True, universe=universe)
        return
    if universe not in ("impartial", "all") and not _in_universe(t, universe):
        with pytest.raises(Exception):
            cg.canonical_form(x, misere=True, universe=universe)
        return
    c = cg.canonical_form(x, misere=True, universe=universe)
    ct = lit(c)
    assert _birthday(ct) <= _birthday(t)
    xs = universe_games(universe)
    assert misere_ge_on(ct, t, xs) and misere_ge_on(t, ct, xs)


def _in_universe(t, universe):
    if universe == "dicot":
        return all(bool(g[0]) == bool(g[1]) for g in _followers(t))
    return _dead_ending(t)


def _followers(t):
    out, todo = set(), [t]
    while todo:
        g = todo.pop()
        if g not in out:
            out.add(g)
            todo.extend(g[0] | g[1])
    return out


PAIRS = [
    ("{*2}", "*2+*2"), ("*2+*", "*3"), ("{*2}", "{*2, *3}"), ("{1|-1}", "0"), ("{0|}", "0"),
    ("^", "*"), ("{0,*|0,*}", "*2"), ("*+*", "0"), ("{0|}", "{|0}"), ("{*|*}", "{0|0}+{0|0}"),
]


@pytest.mark.parametrize("a,b", PAIRS)
def test_compare_normal_play(a, b):
    c = cg.compare(a, b)
    assert c.relation == relation_of(tree(a), tree(b))
    assert c.check()


@pytest.mark.parametrize("a,b", PAIRS)
@pytest.mark.parametrize("universe", ["impartial", "dicot", "dead-ending", "all"])
def test_compare_misere(a, b, universe):
    ta, tb = tree(a), tree(b)
    impartial_pair = is_impartial_tree(ta) and is_impartial_tree(tb)
    if universe == "impartial" and not impartial_pair:
        refuses(cg.compare, a, b, misere=True, universe=universe)
        return
    if universe in ("dicot", "dead-ending") and not (_in_universe(ta, universe) and _in_universe(tb, universe)):
        with pytest.raises(Exception):
            cg.compare(a, b, misere=True, universe=universe)
        return
    c = cg.compare(a, b, misere=True, universe=universe)
    xs = universe_games(universe)
    ge, le = misere_ge_on(ta, tb, xs), misere_ge_on(tb, ta, xs)
    if c.ge:
        assert ge
    if c.le:
        assert le
    if c.relation != "=":  # the refutation is a game of the universe, replayed here
        t = c.distinguisher
        assert t is not None
        tt = tree(t)
        oa, ob = outcome_of(add(ta, tt), True), outcome_of(add(tb, tt), True)
        assert oa != ob or not impartial_pair
        if impartial_pair:
            assert oa != ob
    assert c.check()


def test_compare_default_universe():
    assert cg.compare("{*2}", "*2+*2", misere=True).universe == "impartial"
    assert cg.compare("{0|}", "0", misere=True).universe == "all"


def test_compare_takes_every_kind():
    # heap position vs form vs misère class vs nimber vs text, all the same game *3... or not
    k3 = kayles(3)  # Kayles 3 = {*, *2, {*}} has Grundy value 3
    for other in (cg.nim(3), cg.Nimber(3), "*3", cg.parse("{*, *2, {*}}")):
        assert cg.compare(k3, other).relation == "="
    assert cg.compare(kayles(3), "{*, *2, {*}}", misere=True).relation == "="
    assert cg.compare(cg.canonical_form("{*2}", misere=True), "{*2}", misere=True).relation == "="
    refuses(cg.compare, cg.canonical_form("{*2}", misere=True), "{*2}", misere=True, universe="dicot")
    # a partizan position against the form written out
    assert cg.compare(cg.position("domineering", "1x2"), "{|0}").relation == "="


PARTIZAN_VALUES = [
    # (game, left stop, right stop, mean, temperature): switches {a|b} (Winning Ways ch. 6)
    ("{3|-1}", 3, -1, 1, 2), ("{2|0}", 2, 0, 1, 1), ("{5|1}", 5, 1, 3, 2),
    # numbers: the stops and mean are the number, the temperature -1/2^k ... integers -1
    ("{0|}", 1, 1, 1, -1), ("0", 0, 0, 0, -1),
    # infinitesimals and impartial games: stops 0, mean 0, temperature 0
    ("*", 0, 0, 0, 0), ("^", 0, 0, 0, 0), ("{*2}", 0, 0, 0, -1),
]


@pytest.mark.parametrize("g,ls,rs,m,temp", PARTIZAN_VALUES)
def test_partizan_values(g, ls, rs, m, temp):
    t = tree(g)
    assert cg.left_stop(g) == ls == left_stop_of(t)
    assert cg.right_stop(g) == rs == right_stop_of(t)
    assert cg.mean(g) == m
    assert cg.temperature(g) == temp
    assert cg.thermograph(g) == cg.thermograph(cg.parse(g) if isinstance(g, str) else g)


@pytest.mark.parametrize("kind,x", EXAMPLES, ids=IDS)
def test_stops_of_every_kind(kind, x):
    """Stops are normal-play values: every short game has them (impartial games as the partizan
    games they are), checked against the definition."""
    t = lit(x)
    if len(_followers(t)) > 30:
        pytest.skip("the brute-force number search is too slow on a game this large")
    assert cg.left_stop(x) == left_stop_of(t)
    assert cg.right_stop(x) == right_stop_of(t)
    n = number_of(t)
    assert cg.number_value(x) == n


def test_cool_and_atomic_weight():
    assert cg.compare(cg.cool("{3|-1}", 1), "{2|0}").relation == "="  # {a|b} cooled by t
    for g, aw in (("^", 1), ("^+^", 2), ("*", 0), (cg.position("0.77", 3), 0)):  # impartial: 0
        assert cg.number_value(cg.atomic_weight(g)) == aw


def test_transfinite_nimbers():
    w = cg.Nimber("w") if _takes_text() else cg.ordinal("w")
    w = cg.Nimber(w) if not isinstance(w, cg.Nimber) else w
    assert cg.outcome(w) == "N" and cg.outcome(w, misere=True) == "N"
    assert cg.grundy(w) == w and cg.misere_grundy(w) == w
    assert [int(m) for m in cg.winning_moves(w)] == [0]
    assert [int(m) for m in cg.winning_moves(w, misere=True)] == [1]
    assert cg.compare(w, w).relation == "=" and cg.compare(w, "*5").relation == "||"
    for fn in (cg.genus, cg.left_stop, cg.mean):
        refuses(fn, w)
    refuses(cg.canonical_form, w, misere=True)
    refuses(cg.compare, w, "*2", misere=True)


def _takes_text():
    try:
        cg.Nimber("w")
        return True
    except Exception:
        return False


@pytest.mark.parametrize("x", [3, "{0|}", cg.position("domineering", "2x2")], ids=str)
def test_impartial_only_questions_refuse_partizan_games_by_name(x):
    for fn in (cg.grundy, cg.misere_grundy, cg.genus):
        err = refuses(fn, x)
        assert "partizan" in str(err)
        assert all(name.startswith("cgtalg.") for name in err.answered_by)


def test_rulesets_with_their_own_end_rule():
    p = cg.position("parity", 7)
    wins_l, wins_r = parity_wins_first(7, 0, 0), parity_wins_first(7, 0, 0)
    want = "N" if wins_l and wins_r else "P" if not (wins_l or wins_r) else "?"
    assert cg.outcome(p) == want
    for fn in (cg.grundy, cg.genus, cg.canonical_form, cg.mean):
        err = refuses(fn, p)
        assert "end rule" in str(err)
    refuses(cg.winning_moves, p)  # which player?
    for side in "LR":  # positions (beans left, Left's holding, Right's holding mod 2)
        got = {7 - m[0] for m in cg.winning_moves(p, player=side)}
        assert got == {t for t in (1, 2, 3) if not parity_wins_first(7 - t, 0, t)}


def test_bad_arguments_are_named_errors():
    for bad in ([1, 2], None, object(), 1.5):
        refuses(cg.outcome, bad)
    refuses(cg.outcome, "*2", misere="yes")
    refuses(cg.compare, "*", "*", misere=True, universe="nowhere", error=UniverseError)
    refuses(cg.canonical_form, "*", universe="dicot", error=UniverseError)  # misère play only
    refuses(cg.compare, "{0|}", "0", misere=True, universe="dicot", error=UniverseError)  # not a dicot
    refuses(cg.winning_moves, "{0|}", player="up")


#: the aliases of 0.1 (removed in 0.2.0) and the door call each one stood for
OLD_NAMES = {
    "normal_outcome": lambda g: ops.outcome(g), "misere_outcome": lambda g: ops.outcome(g, misere=True),
    "partizan_outcome": lambda g: ops.outcome(g),
    "partizan_misere_outcome": lambda g: ops.outcome(g, misere=True),
}


@pytest.mark.parametrize("name", sorted(OLD_NAMES))
@pytest.mark.parametrize("text", ["{0|}", "{1|-1}", "{*2}", "{*|*}"])
def test_old_names_are_gone_and_the_doors_answer(name, text):
    assert not hasattr(cg, name) and name not in cg.__all__
    assert OLD_NAMES[name](text) == outcome_of(tree(text), "misere" in name)


def test_every_operation_is_in_the_table():
    tested = {"outcome", "winning_moves", "canonical_form", "compare", "grundy", "misere_grundy",
              "genus", "left_stop", "right_stop", "mean", "temperature", "thermograph",
              "atomic_weight", "cool", "number_value", "misere_quotient", "norton_product",
              "reduced_canonical_form", "ordinal_sum", "heat", "overheat", "is_atomic"} | MORE_TOP
    assert set(ops.OPERATIONS) == tested
    for name in ops.OPERATIONS:
        assert getattr(cg, name) is getattr(ops, name), name


def _kayles_misere_p(heaps):
    """Misère outcome of a Kayles (0.77) position by exhaustive play from the rules."""
    @lru_cache(maxsize=None)
    def p(pos):
        moves = kayles_moves(pos)
        if not moves:
            return False          # no move: the player to move wins in misère play
        return not any(p(m) for m in moves)
    return p(tuple(sorted(h for h in heaps if h)))


def test_misere_quotient_door_takes_heap_games_forms_and_families_and_refuses_the_rest():
    # a heap game (Kayles, Q_6), checked against exhaustive misère play of every position
    # of at most three heaps <= 6
    q = cg.misere_quotient("0.77", max_heap=6)
    for heaps in itertools.combinations_with_replacement(range(7), 3):
        assert q.is_p(heaps) == _kayles_misere_p(heaps), heaps
    # forms: *2+*2 and {*2} are indistinguishable among the closure's sums (both are P-free
    # of *2 alone in misère play), *2 is not; outcomes of sums against the misère outcome
    fq = cg.misere_quotient(["*2+*2", "{*2}", "*2"])
    assert fq.indistinguishable("*2+*2", "{*2}") and not fq.indistinguishable("*2", "{*2}")
    for sums in (["*2"], ["*2", "*2"], ["{*2}", "*2"], ["*2+*2", "{*2}"]):
        assert fq.outcome(sums) == outcome_of(tree("+".join(sums)), misere=True)
    # a component family: Node Kayles on paths is Dawson's Chess 0.137
    assert cg.misere_quotient("node-kayles:paths", max_heap=8).order == \
        cg.misere_quotient("0.137", max_heap=8).order
    # refused by name: partizan forms, numbers, nonsense
    for bad in ("{1|}", 1.5, object()):
        refuses(cg.misere_quotient, bad)


# -- Norton products, reduced canonical forms, ordinal sums, heating (issue 22) -------------------
def _brute_heat(g, t, integer_base=None):
    """∫^t G (integer_base None) or ∫_s^t G (integer_base = s) on a literal tree, by the
    definitions (Winning Ways ch. 6): numbers (integers, when overheating) are where it stops."""
    x = number_of(g)
    if x is not None and (integer_base is None or x.denominator == 1):
        if integer_base is None:
            return g
        out = ZERO_T
        for _ in range(abs(int(x))):
            out = add(out, integer_base if x > 0 else neg(integer_base))
        return out
    return (frozenset(add(_brute_heat(o, t, integer_base), t) for o in g[0]),
            frozenset(add(_brute_heat(o, t, integer_base), neg(t)) for o in g[1]))


def _infinitesimal(d):
    eps = number_tree(Fraction(1, 16))
    return relation_of(d, eps) == "<" and relation_of(neg(eps), d) == "<"


@pytest.mark.parametrize("kind,x", EXAMPLES, ids=IDS)
def test_partizan_constructions(kind, x):
    """heat, overheat, ordinal_sum, norton_product, reduced_canonical_form and is_atomic take
    every short game as the partizan game it is and refuse misère classes by name."""
    if kind == "misère class":
        for fn, args in ((cg.heat, (x, 1)), (cg.overheat, (x, 1, 1)), (cg.ordinal_sum, (x, 1)),
                         (cg.ordinal_sum, (1, x)), (cg.norton_product, (x, "^")),
                         (cg.reduced_canonical_form, (x,)), (cg.is_atomic, (x,))):
            err = refuses(fn, *args)
            assert "misère canonical form" in str(err)
        return
    t = lit(x)
    if len(_followers(t)) > 40:
        pytest.skip("too large for play-out here")  # pragma: no cover - the examples are small
    c = lit(cg.canonical_form(x))
    one = number_tree(1)
    if len(_followers(c)) <= 4:  # (∫^1 *4 is already too hot to play out quickly here)
        assert relation_of(lit(cg.heat(x, 1)), _brute_heat(c, one)) == "="
        assert relation_of(lit(cg.overheat(x, 1, 1)), _brute_heat(c, one, one)) == "="
    base = tree(ops.kinds.as_partizan_game(x, "test"))   # the form the door uses as the base
    if len(_followers(base)) <= 12:                        # (a Kayles row's DAG is too big to play)
        want = (base[0] | {base}, base[1])                 # G:1 = {G^L, G:0 | G^R}, G:0 = G
        assert relation_of(lit(cg.ordinal_sum(x, 1)), want) == "="
    assert _infinitesimal(add(lit(cg.reduced_canonical_form(x)), neg(c)))
    # G.↑ for the integer multiples: n copies of ↑; otherwise ordered as G (Norton)
    t = c
    n = number_of(t)
    prod = lit(cg.norton_product(x, "^"))
    if n is not None and n.denominator == 1:
        up_t = tree("^")
        want = ZERO_T
        for _ in range(abs(int(n))):
            want = add(want, up_t if n > 0 else neg(up_t))
        assert relation_of(prod, want) == "="
    else:
        assert relation_of(prod, ZERO_T) == relation_of(t, ZERO_T)
    # atomic: never when not infinitesimal; always when all-small (dicotic); tinies weigh 0
    if not (left_stop_of(t) == right_stop_of(t) == 0):
        assert not cg.is_atomic(x)
    elif all(bool(g[0]) == bool(g[1]) for g in _followers(t)):
        assert cg.is_atomic(x)
    elif str(x).startswith("Tiny"):
        assert cg.is_atomic(x) and cg.number_value(cg.atomic_weight(x)) == 0


def test_partizan_constructions_refuse_transfinite_nimbers():
    w = cg.ordinal("w")
    w = cg.Nimber(w) if not isinstance(w, cg.Nimber) else w
    for fn, args in ((cg.heat, (w, 1)), (cg.overheat, (w, 1, 1)), (cg.ordinal_sum, (w, 1)),
                     (cg.norton_product, (1, w)), (cg.reduced_canonical_form, (w,)), (cg.is_atomic, (w,))):
        err = refuses(fn, *args)
        assert "transfinite" in str(err)


# -- CGSuite's compounds, product and derived games (issue 36) ------------------------------------
#: the doors of cgtalg.ops.partizan_more taking one game, and those taking two
MORE_ONE = ("freeze", "companion", "incentives", "left_incentives", "right_incentives", "stop_count",
            "uptimal_expansion", "is_uptimal", "followers", "follower_count", "parity", "temper",
            "is_idempotent", "is_plumtree", "is_stable")
MORE_TWO = ("conjunctive_sum", "selective_sum", "conway_product", "ordinal_product")
#: those at the top level (cgtalg.ops.OPERATIONS); the finer ones are public in cgtalg.ops only
MORE_TOP = {"conjunctive_sum", "selective_sum", "conway_product", "freeze", "companion", "incentives",
            "stop_count", "uptimal_expansion", "followers", "parity", "temper", "ordinal_product"}


@pytest.mark.parametrize("kind,x", EXAMPLES, ids=IDS)
def test_more_partizan_doors(kind, x):
    """Every kind of short game goes in as the partizan game it is, misère classes are refused by
    name; identities from the definitions checked on literal trees: G ∧ 0 = 0 (no move in 0 ends
    the conjunctive sum), G ∨ 0 = G and G·1 = G, the followers of the canonical form counted, G
    idempotent iff G = 0, every incentive a Left or Right incentive."""
    if kind == "misère class":
        for name in MORE_ONE:
            assert "misère canonical form" in str(refuses(getattr(ops, name), x))
        for name in MORE_TWO:
            assert "misère canonical form" in str(refuses(getattr(ops, name), x, 1))
            assert "misère canonical form" in str(refuses(getattr(ops, name), 1, x))
        return
    c = lit(cg.canonical_form(x))
    if len(_followers(c)) > 40:
        pytest.skip("too large for play-out here")  # pragma: no cover - the examples are small
    assert relation_of(lit(cg.conjunctive_sum(x, 0)), ZERO_T) == "="
    assert relation_of(lit(cg.selective_sum(x, 0)), c) == "="
    assert relation_of(lit(cg.conway_product(x, 1)), c) == "="
    assert ops.follower_count(x) == len(cg.followers(x)) == len(_followers(c))
    assert ops.is_idempotent(x) == (relation_of(c, ZERO_T) == "=")
    assert set(cg.incentives(x)) <= set(ops.left_incentives(x)) | set(ops.right_incentives(x))
    assert cg.stop_count(x) >= 1 and cg.parity(x) in (None, "even", "odd")
    assert ops.is_plumtree(x) and ops.is_stable(x)       # short games: no cycles


def test_more_partizan_doors_refuse_transfinite_nimbers():
    w = cg.ordinal("w")
    w = cg.Nimber(w) if not isinstance(w, cg.Nimber) else w
    for name in MORE_ONE:
        assert "transfinite" in str(refuses(getattr(ops, name), w))
    for name in MORE_TWO:
        assert "transfinite" in str(refuses(getattr(ops, name), w, 1))


# -- the loopy kind: every operation × loopy games (normal play only) --------------------------
LOOPY = ["on", "dud", "over", "upon", "tis", "a:{0||||0|||a|*||*}", "{0|{dud|},*}",
         cg.parse_loopy("upon + *")]
LOOPY_ANSWERED = {"outcome", "compare", "canonical_form"}
STOPPER_ANSWERED = ("left_stop", "right_stop", "is_stable", "is_idempotent")


def _loopy_brute_outcome(g):
    from loopy_brute import of, outcome

    return {("L", "L"): "L", ("R", "R"): "R", ("L", "R"): "N", ("R", "L"): "P", ("D", "D"): "D",
            ("L", "D"): "NHat", ("R", "D"): "PCheck", ("D", "L"): "PHat",
            ("D", "R"): "NCheck"}[outcome(*of(g))]


@pytest.mark.parametrize("x", LOOPY, ids=str)
def test_loopy_kind(x):
    from loopy_brute import le_stoppers, of

    g = cg.parse_loopy(x) if isinstance(x, str) else x
    assert cg.kind_of(x) == "loopy"
    # outcome: with draws, by the brute-force retrograde analysis; misère play refused
    assert cg.outcome(x) == _loopy_brute_outcome(g)
    refuses(cg.outcome, x, misere=True)
    # canonical_form: the canonical stopper, equal by brute-force survival; else the sides s & t
    if cg.is_stopper(g):
        c = cg.canonical_form(x)
        assert le_stoppers(of(c), of(g)) and le_stoppers(of(g), of(c))
    else:
        assert str(cg.canonical_form(x)) == str(cg.loopy_sides(x))
    refuses(cg.canonical_form, x, misere=True)
    # compare: with itself, with on (the greatest game) and off (the least)
    assert cg.compare(x, x).relation == "="
    assert cg.compare(x, "on").le and cg.compare("off", x).le
    refuses(cg.compare, x, "on", misere=True)
    # every other operation refuses the loopy kind by name
    others = {"winning_moves": (cg.winning_moves, {}), "grundy": (cg.grundy, {}),
              "misere_grundy": (cg.misere_grundy, {}), "genus": (cg.genus, {}),
              "left_stop": (cg.left_stop, {}), "right_stop": (cg.right_stop, {}),
              "mean": (cg.mean, {}), "temperature": (cg.temperature, {}),
              "thermograph": (cg.thermograph, {}), "atomic_weight": (cg.atomic_weight, {}),
              "number_value": (cg.number_value, {}), "misere_quotient": (cg.misere_quotient, {}),
              "reduced_canonical_form": (cg.reduced_canonical_form, {}), "is_atomic": (cg.is_atomic, {})}
    two = {"norton_product": (cg.norton_product, ("^",)), "ordinal_sum": (cg.ordinal_sum, (1,)),
           "heat": (cg.heat, (1,)), "overheat": (cg.overheat, (1, 1))}
    others.update({name: (getattr(ops, name), {}) for name in MORE_ONE})
    two.update({name: (getattr(ops, name), (0,)) for name in MORE_TWO})
    assert set(others) | set(two) | LOOPY_ANSWERED | {"cool"} >= set(ops.OPERATIONS)
    # the stops, stability and idempotence answer for stoppers (Winning Ways ch. 11; Siegel CGT
    # VI; cgtalg.normal.loopy_ops) and refuse the other loopy games by name
    for name in STOPPER_ANSWERED:
        fn = others.pop(name)[0]
        if cg.is_stopper(g):
            fn(x)
        else:
            assert "stopper" in str(refuses(fn, x))
    if cg.is_stopper(g):
        assert cg.compare(cg.right_stop(x), cg.left_stop(x)).le
    # whether every cycle is a pass: a property of any game graph (Winning Ways ch. 11)
    assert others.pop("is_plumtree")[0](x) in (True, False)
    for name, (fn, kw) in others.items():
        if name == "misere_quotient":
            with pytest.raises(GameKindError):
                fn(g)
            continue
        err = refuses(fn, x, **kw)
        assert "loopy" in str(err)
    for name, (fn, rest) in two.items():
        err = refuses(fn, x, *rest)
        assert "loopy" in str(err), name
    with pytest.raises(GameKindError, match="loopy"):
        cg.cool(x, 1)


def test_cyclic_input_to_the_short_apis_keeps_its_error():
    from cgtalg.errors import LoopyGameError

    with pytest.raises(LoopyGameError):
        cg.parse_loopy("on").to_partizan()
    # a short game written in loopy notation is answered as the short game it is
    assert cg.outcome("a:{0|}") == "L" and cg.grundy("a:{0|0}") == 1
