"""Loopy games: comparison, canonical stoppers, onsides and offsides.

Independent checks (tests/loopy_brute.py, from the definitions):

- stoppers: ``G ≤ H`` iff Left survives ``H − G`` moving second (Siegel CGT VI.2), by the
  brute-force retrograde analysis of the explicit difference graph;
- every game: ``G ≥ H`` implies ``o(G + X) ≥ o(H + X)`` for every test game ``X`` (Siegel's
  definition of the order of loopy games, VI.1), over every game of at most two positions;
- canonical stoppers: equal to the game (brute force), stoppers (brute force), fixed by
  simplification, and the same graph for every equal stopper tried (uniqueness, Siegel VI.2);
- sides: ``G ≤ H`` iff ``G⁺ ≤ H⁺`` and ``G⁻ ≤ H⁻`` with the sides compared as stoppers by
  the brute force.

Published values: Winning Ways ch. 11 and CGSuite's test cases (EvalTest, GameTest,
CanonicalStopperTestCase, SidedValueTestCase in lib/core/src/test/scala/org/cgsuite/lang/).
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from loopy_brute import add, is_stopper, le_stoppers, of, outcome, outcome_ge, reachable, small_games

import cgtalg as cg
from cgtalg.normal import onside
from cgtalg.errors import GameKindError, UnsupportedError
from cgtalg.normal.loopy import loopy_le, loopy_relation

L = cg.parse_loopy
UPONTH = "{0||0|0,pass}"          # CGSuite's uponth := {0||0|0,pass}, printed ^<on>


# -- published values -------------------------------------------------------------------------
@pytest.mark.parametrize("a,rel,b", [
    # Winning Ways ch. 11: on is the greatest game, off the least; dud = on & off
    ("on", ">", "over"), ("on", ">", 100), ("off", "<", -100), ("on + off", "=", "dud"),
    ("dud", "||", "0"), ("on", ">", "upon"),
    # over = 1/on: 0 < over < every positive number (Winning Ways ch. 11); over + * is won by
    # Left whoever starts (Right's moves: * to 0, then Left takes over to 0; or pass)
    ("over", ">", "0"), ("over", "<", "1/64"), ("over", ">", "*"), ("under", "=", "-over"),
    # upon = {pass|*}: CGSuite's ^[on] = ↑ + ↑² + ↑³ + ..., between ↑ and ⇑
    ("upon", ">", "^"), ("upon", "<", "^+^"), ("upon", "||", "*"),
    # CGSuite EvalTest: over + ^ = over, over + 5 = 5over = {5|pass}, x{0|x} = over
    ("over + ^", "=", "over"), ("over + 5", "=", "{5|pass}"), ("x{0|x}", "=", "over"),
    # GameTest: +-(uponth + *) = 0
    (f"+-({UPONTH} + *)", "=", "0"),
    # tis = 1 & 0 and tisn = 0 & -1 (Winning Ways ch. 11): tis + tisn = 1 & -1, confused with 0
    ("tis", "<", 1), ("tis", ">", "0"), ("tis + tisn", "||", "0"), ("tisn", "=", "-tis"),
])
def test_published_relations(a, rel, b):
    assert loopy_relation(a, b) == rel
    assert cg.compare(a, b).relation == rel  # the door
    assert cg.compare(b, a).relation == {"<": ">", ">": "<"}.get(rel, rel)


@pytest.mark.parametrize("text,canonical,followers", [
    # CanonicalStopperTestCase: input, CGSuite's output (ours: CGSuite's text, with its slashes
    # written as nested braces, its a{...} as a:{...} and +- as ±), FollowerCount
    ("on", "on", 1), ("off", "off", 1), ("over", "over", 2), ("{pass|3/2}", "3/2under", 5),
    ("{-1/4+*|pass}", "-1/4v[on]", 6),
    ("{0|" + UPONTH + "||-" + UPONTH + "}", "{{0|^<on>}|v<on>}", 7),  # CGSuite {0|^<on>||v<on>}
    ("{0|||0||0|off}", "{0|Tiny(on)}", 5), ("{on|0||0}", "Miny(on)", 4),
    ("{0||0|under}", "Tiny(over)", 4), ("+-{0|pass}", "±over", 4),
    ("+-{5|pass}", "±(5over)", 14), ("a{0||||0|||a|*||*}", "a:{0|{0|{{a|*}|*}}}", 6),
    ("a{0|{0||||0,*2|||a|0||0}||0}", "a:{{0|{0|{0,*2|{{a|0}|0}}}}|0}", 9),  # Grenville's game
    # EvalTest: the upon family and over + ^
    ("{pass,0|0}", "^[on]*", 2), ("over + ^", "over", 2), ("upon + *", "^[on]*", 2),
    ("over + 1/2", "1/2over", 4), ("{0, pass|}", "on", 1),
])
def test_canonical_stoppers_published(text, canonical, followers):
    _check_canonical(text, canonical, followers)


def test_a_canonical_stopper_of_17_positions():
    # CanonicalStopperTestCase: this game is canonical, FollowerCount 17, OutcomeClass L
    text = "{0|{0||||-1|||-1+*,a{0||0|a|||-1+*||||-1+*}||-2|b{-2,{-1,-1+*||-1+*|b|||-2}|-2}}}"
    c = cg.canonical_stopper(text)
    assert c.size == 17 and cg.outcome(c) == "L"
    assert cg.canonical_stopper(c) is c


def _check_canonical(text, canonical, followers):
    c = cg.canonical_stopper(text)
    assert str(c) == canonical and c.size == followers
    assert cg.canonical_form(text) is c  # the door
    assert le_stoppers(of(c), of(L(text))) and le_stoppers(of(L(text)), of(c))


@pytest.mark.parametrize("text,onside,offside", [
    # SidedValueTestCase: dud = on & off, a{{|a}|} = 1 & 0, {0|{dud|},*} = ^ & v*
    ("dud", "on", "off"), ("a{{|a}|}", "1", "0"), ("{0|{dud|},*}", "^", "v*"),
    # EvalTest "stopper-sided": a{1||a|0} = 2 & +-1
    ("a{1||a|0}", "2", "±1"),
    # GameTest: ^.Pow(on) + {0|upon} = {0||0|^<on>*} & {0|^[on]} (^<on>* = {0,*||*|pass})
    (UPONTH + " + {0|upon}", "{0|{0|^<on>*}}", "{0|^[on]}"),
    # Winning Ways ch. 11: on + off = dud; tis + tisn = 1 & -1
    ("on + off", "on", "off"), ("tis + tisn", "1", "-1"),
    # a stopper is its own sides
    ("over", "over", "over"),
])
def test_sides_published(text, onside, offside):
    s = cg.loopy_sides(text)
    assert (str(s.onside), str(s.offside)) == (onside, offside)
    shown = "dud" if (onside, offside) == ("on", "off") else f"{onside} & {offside}"  # CGSuite's
    assert str(s) == (onside if onside == offside else shown)


def test_sides_that_are_not_stoppers_are_refused():
    # Bach's Carousel (Winning Ways ch. 11; CGSuite: its sides are not stoppers)
    with pytest.raises(UnsupportedError, match="no stopper found equal to the onside"):
        cg.loopy_sides("a{0,{1|1,{*,{1+*|1+*,a}|*}}|0}")
    with pytest.raises(GameKindError, match="alternating play"):
        cg.canonical_stopper("dud")


def test_computed_sums_with_their_sides():
    """Values computed here (not found in print), each cross-checked by the comparisons of
    their sides: over − over = over & under, upon − upon = ^<on> & v<on>, upon + upon =
    {0|upon*}."""
    assert str(cg.loopy_sides("over - over")) == "over & under"
    assert str(cg.loopy_sides("upon - upon")) == "^<on> & v<on>"
    assert str(cg.canonical_stopper("upon + upon")) == "{0|^[on]*}"
    assert loopy_relation("upon + upon", "{0|upon + *}") == "="
    assert loopy_relation("over - over", "0") == "||"


# -- brute force: stoppers ----------------------------------------------------------------------
graphs = st.integers(1, 4).flatmap(lambda n: st.lists(
    st.tuples(st.sets(st.integers(0, n - 1), max_size=2), st.sets(st.integers(0, n - 1), max_size=2)),
    min_size=n, max_size=n))


def game_of(g):
    return cg.loopy_game([(list(l), list(r)) for l, r in g])


def raw(g):
    return {v: (list(l), list(r)) for v, (l, r) in enumerate(g)}, 0


@settings(max_examples=200, deadline=None)
@given(graphs)
def test_stopper_recognition_against_brute_force(g):
    assert cg.is_stopper(game_of(g)) == is_stopper(reachable(*raw(g)))


SHORT_OFFSETS = ["0", "*", "^", "1", "-1/2", "{1|-1}", "*2"]


@settings(max_examples=120, deadline=None)
@given(graphs, graphs, st.sampled_from(SHORT_OFFSETS))
def test_stopper_order_against_brute_force(ga, gb, short):
    a, b = game_of(ga), game_of(gb) + cg.as_loopy(cg.parse_partizan(short))
    assume(cg.is_stopper(a) and cg.is_stopper(b))
    assert loopy_le(a, b) == le_stoppers(of(a), of(b))
    assert loopy_le(b, a) == le_stoppers(of(b), of(a))


@settings(max_examples=120, deadline=None)
@given(graphs, st.sampled_from(SHORT_OFFSETS))
def test_canonical_stoppers_against_brute_force(g, short):
    game = game_of(g) + cg.as_loopy(cg.parse_partizan(short))
    assume(cg.is_stopper(game))
    c = cg.canonical_stopper(game)
    assert is_stopper(of(c)[0])
    assert le_stoppers(of(c), of(game)) and le_stoppers(of(game), of(c))  # equal
    assert c.size <= game.size and cg.canonical_stopper(c) is c
    # uniqueness: equal stoppers written otherwise have the same canonical graph
    for zero in ("{-1|1}", "* + *", "^ + v", "{*|*}"):
        other = game + cg.as_loopy(cg.parse_partizan(zero))
        if cg.is_stopper(other):
            assert cg.canonical_stopper(other) is c
    if game.is_short:  # the short canonical form (ONAG)
        assert c.to_partizan() is cg.canonical_form(game.to_partizan())


# -- every game: the order against outcomes in sums, and the sides ----------------------------
X_FAMILY = small_games(2) + [of(cg.as_loopy(cg.parse_partizan(t))) for t in ("1", "-1", "*", "^", "{1|-1}")]


@settings(max_examples=40, deadline=None)
@given(graphs, graphs)
def test_order_is_sound_against_outcomes_of_sums(ga, gb):
    """G ≥ H means o(G + X) ≥ o(H + X) for every X (Siegel VI.1): checked over every game of
    at most two positions and a few short games."""
    a, b = game_of(ga), game_of(gb)
    for x, y in ((a, b), (b, a)):
        if loopy_le(y, x):  # x ≥ y
            for X in X_FAMILY:
                assert outcome_ge(outcome(*add(of(x), X)), outcome(*add(of(y), X))), (str(x), str(y))


@settings(max_examples=60, deadline=None)
@given(graphs, graphs)
def test_order_agrees_with_the_sides(ga, gb):
    a, b = game_of(ga), game_of(gb)
    try:
        sa, sb = cg.loopy_sides(a), cg.loopy_sides(b)
    except UnsupportedError:
        assume(False)
        return
    # the sides are stoppers with onside ≥ offside, and each side compares as its game
    for s in (sa, sb):
        assert is_stopper(of(s.onside)[0]) and is_stopper(of(s.offside)[0])
        assert le_stoppers(of(s.offside), of(s.onside))
    by_sides = le_stoppers(of(sa.onside), of(sb.onside)) and le_stoppers(of(sa.offside), of(sb.offside))
    assert loopy_le(a, b) == by_sides
    # the sides are canonical: the same game written otherwise (plus a zero) has the same sides
    for zero in ("{-1|1}", "* + *"):
        try:
            sz = cg.loopy_sides(a + cg.as_loopy(cg.parse_partizan(zero)))
        except UnsupportedError:
            continue
        assert (sz.onside, sz.offside) == (sa.onside, sa.offside)


def test_every_game_lies_between_off_and_on():
    for n in (1, 2):
        for g, _ in small_games(n):
            game = cg.loopy_game([(g[v][0], g[v][1]) for v in range(n)])
            assert loopy_le(game, "on") and loopy_le("off", game)


def test_outcome_of_sums_named():
    # Winning Ways ch. 11: dud absorbs (a draw whatever is added); on + X is a Left win for
    # every X without an infinite Right run ...
    for x in ("0", "*", "over", "upon", "{1|-1}", "tis"):
        assert cg.outcome(f"dud + {x}") == "D"
    for x in ("0", "*", "over", "upon", "-100"):
        assert cg.outcome(f"on + {x}") == "L" and cg.outcome(f"off + {x}") == "R"


def test_relations_in_a_list_are_a_partial_order():
    games = ["on", "off", "dud", "over", "under", "upon", "tis", "tisn", "0", "*", "^", "1",
             "{1|-1}", "a{{|a}|}", "{0|{dud|},*}", "+-{0|pass}"]
    le = {(a, b): loopy_le(a, b) for a, b in itertools.product(games, repeat=2)}
    for a in games:
        assert le[(a, a)]
    for a, b, c in itertools.product(games, repeat=3):
        if le[(a, b)] and le[(b, c)]:
            assert le[(a, c)], (a, b, c)


def test_sides_found_by_hand():
    """G = a:{0|{a,0|}}: the offside sidles up from off (B = {off,0|} = 1, G = {0|1} = 1/2,
    fixed), the onside down from on (B = {on,0|} = on, G = {0|on} = 1, B = {1,0|} = 2,
    G = {0|2} = 1): G = 1 & 1/2 (Winning Ways ch. 11, sidling). G = a:{pass,{a|}|pass,{a|}}:
    Left passes for ever in the onside, so its onside is on."""
    assert str(cg.loopy_sides("a:{0|{a,0|}}")) == "1 & 1/2"
    assert str(onside("a:{pass,{a|}|pass,{a|}}")) == "on"


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(st.integers(1, 6).flatmap(lambda n: st.lists(
    st.tuples(st.sets(st.integers(0, n - 1), max_size=3), st.sets(st.integers(0, n - 1), max_size=3)),
    min_size=n, max_size=n)))
def test_larger_random_games(g):
    """Larger graphs: outcomes against the brute force, canonical stoppers equal and fixed,
    sides (when found) stoppers whose order is the game's."""
    game = game_of(g)
    got = cg.loopy_outcome(game)
    assert (got.left_first, got.right_first) == outcome(*raw(g))
    if cg.is_stopper(game):
        c = cg.canonical_stopper(game)
        assert le_stoppers(of(c), of(game)) and le_stoppers(of(game), of(c))
        assert cg.canonical_stopper(c) is c
        return
    try:
        s = cg.loopy_sides(game)
    except UnsupportedError:
        return
    assert le_stoppers(of(s.offside), of(s.onside))
    for t in ("0", "*", "^", "1"):
        x = cg.as_loopy(cg.parse_partizan(t))
        assert loopy_le(game, x) == (le_stoppers(of(s.onside), of(x)) and le_stoppers(of(s.offside), of(x)))


@pytest.mark.parametrize("text,idempotent", [
    # CanonicalStopperTestCase's IsIdempotent (G + G = G) and Degree (an idempotent)
    ("on", True), ("off", True), ("over", True), ("{pass|3/2}", False), ("{-1/4+*|pass}", False),
    ("{0|" + UPONTH + "||-" + UPONTH + "}", False), ("{0|||0||0|off}", False),
    ("{on|0||0}", True), ("{0||0|under}", True), ("+-{0|pass}", False), ("+-{5|pass}", False),
    ("a{0||||0|||a|*||*}", False), ("a{0|{0||||0,*2|||a|0||0}||0}", False),
    (UPONTH, True),                                  # ^<on>, the Degree of the uponth game
    ("{0|a{0|0,{0|||a|0||0}}}", True),  # the Degree of a{0||||0|||a|*||*}
    ("a{0||0|{0|a||0,*2|||0||||0}}", True),  # the Degree of Grenville's game
    ("{0|{0||||-1|||-1+*,a{0||0|a|||-1+*||||-1+*}||-2|b{-2,{-1,-1+*||-1+*|b|||-2}|-2}}}", True),
])
def test_idempotents_published(text, idempotent):
    g = L(text)
    assert (loopy_relation(g + g, g) == "=") == idempotent
