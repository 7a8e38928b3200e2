"""Loopy games: the graph form, CGSuite's loopy notation, and outcomes with draws.

Outcomes are checked against the brute-force retrograde analysis of tests/loopy_brute.py
(written from the definitions, Winning Ways ch. 11 and Siegel CGT VI.1), on the named games,
their sums and random small graphs; values and printed forms against CGSuite's test cases
(lib/core/src/test/scala/org/cgsuite/lang/{EvalTest,CanonicalStopperTestCase,
SidedValueTestCase}.scala).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from loopy_brute import add, of, outcome

import cgtalg as cg
from cgtalg.core import format_loopy
from cgtalg.errors import ArgumentTypeError, GameKindError, GameNotationError, LoopyGameError

OUTCOME_NAME = {("L", "L"): "L", ("R", "R"): "R", ("L", "R"): "N", ("R", "L"): "P",
                ("D", "D"): "D", ("L", "D"): "NHat", ("R", "D"): "PCheck", ("D", "L"): "PHat",
                ("D", "R"): "NCheck"}


# -- the graph form and the notation ----------------------------------------------------------
@pytest.mark.parametrize("text,same", [
    ("on", "{pass|}"), ("off", "{|pass}"), ("dud", "{pass|pass}"), ("over", "{0|pass}"),
    ("under", "{pass|0}"), ("upon", "{pass|*}"), ("tis", "a:{{|a}|}"), ("tisn", "a:{|{a|}}"),
    ("over", "a:{0|a}"), ("over", "a{0|a}"), ("over", "x{0|x}"), ("under", "x{x|0}"),
    ("over", "b:{0|{0|b}}"), ("on", "{on|}"), ("dud", "on + off"), ("under", "-over"),
    ("{0|{0|0,pass}}", "{0||0|0,pass}"),   # pass is the innermost game, slashes make games
    ("{0, pass}", "{0, pass | 0, pass}"), ("{*}", "{*|*}"),  # no bars: an impartial game
])
def test_texts_that_name_one_graph(text, same):
    """Winning Ways ch. 11 and CGSuite's definitions: each pair is the same game graph
    (the game trees unfold alike), so the same object."""
    assert cg.parse_loopy(text) is cg.parse_loopy(same)


@pytest.mark.parametrize("text,printed", [
    # CGSuite's printed forms where its text and ours agree (EvalTest "loopy game specifiers")
    ("{pass|pass}", "dud"), ("x{0|x}", "over"), ("x{x|0}", "under"),
    ("{pass|*}", "^[on]"), ("on + off", "dud"),
    # long cycles are written with labels (CGSuite's a{...} written a:{...}), short parts
    # by the partizan printer
    ("a{0||||0|||a|*||*}", "a:{0|{0|{{a|*}|*}}}"), ("{1|pass}", "1over"),
    ("+-{0|pass}", "±over"), ("{0|{dud|},*}", "{0|{dud|},*}"), ("{0|1}", "1/2"),
    ("upon - upon", "{pass,{pass,^[on]|^[on],{*}}|pass,{{*},v[on]|pass,v[on]}}"),
])
def test_printed_forms(text, printed):
    g = cg.parse_loopy(text)
    assert str(g) == printed
    assert cg.parse_loopy(printed) is g  # the printed text reads back as the same graph


def test_graph_construction_and_identity():
    over = cg.loopy_game({"G": (["0"], ["G"]), "0": ([], [])}, "G")
    assert over is cg.parse_loopy("over") and over.size == 2
    assert cg.loopy_game([((1,), (0,)), ((), ())]) is over
    # unreachable positions and duplicated positions do not change the game
    assert cg.loopy_game([((1,), (0,)), ((), ()), ((2,), ())]) is over
    assert cg.loopy_game([((1, 2), (0,)), ((), ()), ((), ())]) is over
    assert over.left[0] is cg.as_loopy(0) and over.right[0] is over
    assert [str(f) for f in over.followers()] == ["over", "0"]
    assert -(-over) is over and over - over is over + cg.parse_loopy("under")
    for bad in ([((5,), ())], "nodes", [(1, 2, 3)], {"a": (["b"], [])}):
        with pytest.raises(ArgumentTypeError):
            cg.loopy_game(bad)


def test_short_games_convert_both_ways():
    for text in ("{1|-1}", "^*", "1/2", "{2||1|0}", "*3", "0"):
        p = cg.parse_partizan(text)
        g = cg.as_loopy(p)
        assert g.is_short and g.to_partizan() is p
    assert cg.parse_loopy("a:{0|}").to_partizan() is cg.parse_partizan("1")
    with pytest.raises(LoopyGameError, match="cycle 0 -> 0"):
        cg.parse_loopy("on").to_partizan()
    # loopy text whose graph has no cycle reads as the short form through the doors
    assert cg.kind_of("a:{0|}") == "partizan" and cg.kind_of("a:{0|a}") == "loopy"


@pytest.mark.parametrize("text,where,words", [
    ("{0|pass", 0, "missing '}'"), ("pass", 0, "only be an option inside braces"),
    ("{0||1||2}", 5, "ambiguous bars"), ("{a|0}", 1, "unknown name 'a'"),
    ("{0|over+pass}", 8, "inside braces"), ("on:{0|}", 0, "reserved name"),
    ("{0,|1}", 2, "empty option"), ("{0|1}}", 5, "after a complete game"),
    ("a:{0|-a}", 5, "cannot be negated"), ("a:{0|a+1}", 6, "cannot be added"), ("", 0, "empty"),
    ("{0 1|}", 3, "separated by ','"), ("{1/3|pass}", 2, "1/3 is not a dyadic"),
])
def test_malformed_text_names_the_position(text, where, words):
    with pytest.raises(GameNotationError) as info:
        cg.parse_loopy(text)
    assert info.value.position == where, str(info.value)
    assert words in str(info.value)


# -- outcomes with draws -----------------------------------------------------------------------
@pytest.mark.parametrize("text,want", [
    # Winning Ways ch. 11: on wins for Left, off for Right, dud is a draw
    ("on", "L"), ("off", "R"), ("dud", "D"), ("on + off", "D"),
    # CGSuite CanonicalStopperTestCase outcome classes
    ("over", "L"), ("{pass|3/2}", "L"), ("{-1/4+*|pass}", "R"), ("{0|||0||0|off}", "L"),
    ("{on|0||0}", "R"), ("{0||0|under}", "L"), ("+-{0|pass}", "N"), ("+-{5|pass}", "N"),
    ("a{0||||0|||a|*||*}", "L"), ("a{0|{0||||0,*2|||a|0||0}||0}", "N"),
    ("{0|{0||0|0,pass}||-{0||0|0,pass}}", "N"),
    # CGSuite SidedValueTestCase outcome classes
    ("a{{|a}|}", "PHat"), ("{0|{dud|},*}", "NHat"), ("a{0,{1|1,{*,{1+*|1+*,a}|*}}|0}", "N"),
    # GameTest: ^.Pow(on) + {0|upon} is L
    ("{0||0|0,pass} + {0|upon}", "L"),
    ("tis", "PHat"), ("tisn", "PCheck"), ("upon", "L"), ("under", "R"),
])
def test_outcomes_published(text, want):
    g = cg.parse_loopy(text)
    assert cg.loopy_outcome(g).name == want
    assert OUTCOME_NAME[outcome(*of(g))] == want  # the brute force agrees
    assert cg.outcome(text) == want  # and the door


NAMED = ["on", "off", "dud", "over", "under", "upon", "tis", "tisn", "0", "*", "1", "-1", "^",
         "{1|-1}", "a{{|a}|}", "{0|{dud|},*}", "+-{0|pass}"]


@pytest.mark.parametrize("a", NAMED)
@pytest.mark.parametrize("b", ["on", "off", "dud", "over", "upon", "tis", "tisn", "*", "{1|-1}"])
def test_outcomes_of_sums_against_brute_force(a, b):
    ga, gb = cg.parse_loopy(a) if a not in ("0", "*", "1", "-1", "^", "{1|-1}") else cg.as_loopy(a), cg.as_loopy(b)
    s = ga + gb
    want = outcome(*add(of(ga), of(gb)))
    got = cg.loopy_outcome(s)
    assert (got.left_first, got.right_first) == want


def test_winning_ways_sums():
    # Winning Ways ch. 11: on + off = dud; tis + tisn: onside 1 + 0, offside 0 + -1
    assert str(cg.parse_loopy("on + off")) == "dud"
    assert cg.loopy_outcome("tis + tisn").name == OUTCOME_NAME[outcome(*of(cg.parse_loopy("tis + tisn")))]
    assert cg.loopy_outcome("dud + 5").name == "D"      # dud swallows everything
    assert cg.loopy_outcome("on + 100").name == "L" and cg.loopy_outcome("off + 100").name == "R"


def _random_graph(rng, n):
    return [(tuple(sorted(rng.sample(range(n), rng.randint(0, min(2, n))))),
             tuple(sorted(rng.sample(range(n), rng.randint(0, min(2, n)))))) for _ in range(n)]


graphs = st.integers(1, 5).flatmap(lambda n: st.lists(
    st.tuples(st.sets(st.integers(0, n - 1), max_size=3), st.sets(st.integers(0, n - 1), max_size=3)),
    min_size=n, max_size=n))


@settings(max_examples=150, deadline=None)
@given(graphs, graphs)
def test_random_outcomes_and_sums_against_brute_force(ga, gb):
    a = cg.loopy_game([(list(l), list(r)) for l, r in ga])
    b = cg.loopy_game([(list(l), list(r)) for l, r in gb])
    # the canonical graph has the outcome of the graph as given
    raw = {v: (list(l), list(r)) for v, (l, r) in enumerate(ga)}
    got = cg.loopy_outcome(a)
    assert (got.left_first, got.right_first) == outcome(raw, 0)
    s = cg.loopy_outcome(a + b)
    raw_b = {v: (list(l), list(r)) for v, (l, r) in enumerate(gb)}
    assert (s.left_first, s.right_first) == outcome(*add((raw, 0), (raw_b, 0)))


@settings(max_examples=100, deadline=None)
@given(graphs)
def test_canonical_encoding_is_invariant_under_renumbering(ga):
    n = len(ga)
    perm = list(range(n))
    random.Random(n * 7919 + len(str(ga))).shuffle(perm)
    inv = {perm[i]: i for i in range(n)}
    renamed = [None] * n
    for v, (l, r) in enumerate(ga):
        renamed[perm[v]] = ([perm[w] for w in l], [perm[w] for w in r])
    a = cg.loopy_game([(list(l), list(r)) for l, r in ga])
    b = cg.loopy_game(renamed, perm[0])
    assert a is b
    del inv
    # and printing reads back as the same graph, with short parts too
    assert cg.parse_loopy(str(a)) is a
    for t in ("*", "^", "{1|-1}", "*2"):
        h = a + cg.as_loopy(cg.parse_partizan(t))
        text = format_loopy(h, max_chars=3000)
        if text.startswith("<loopy game of"):  # a text repeats shared positions: it was cut
            assert f"{h.size} positions" in text
        else:
            assert cg.parse_loopy(text) is h


def test_doors_refuse_what_loopy_games_do_not_have():
    assert str(cg.left_stop("over")) == "over"  # a stopper's stop is a pseudonumber (Winning Ways ch. 11)
    for fn in (cg.grundy, cg.misere_grundy, cg.genus, cg.mean, cg.temperature,
               cg.thermograph, cg.atomic_weight, cg.number_value, cg.winning_moves):
        with pytest.raises(GameKindError) as info:
            fn("over")
        assert fn.__name__ in str(info.value) and "loopy" in str(info.value)
        assert "cgtalg.loopy_sides" in info.value.answered_by
    for fn in (cg.outcome, cg.canonical_form):
        with pytest.raises(GameKindError, match="misère play of loopy games"):
            fn("on", misere=True)
    with pytest.raises(GameKindError, match="misère play of loopy games"):
        cg.compare("on", "0", misere=True)
    # a game that equals no stopper simplifies to its sides, s & t, as CGSuite prints it
    # (Winning Ways ch. 11: dud = on & off; tis + tisn = 1 & -1)
    assert str(cg.canonical_form("dud")) == "dud"
    assert str(cg.canonical_form("1 & -1")) == "1 & -1"
    assert str(cg.canonical_form(cg.parse_loopy("tis") + cg.parse_loopy("tisn"))) == "1 & -1"


@settings(max_examples=600, deadline=None)
@given(st.text(alphabet="{}|,:apsonfvdrtiu0123*^-+ ()/±", max_size=30))
def test_any_text_reads_or_raises_a_notation_error(text):
    from cgtalg.errors import CgtalgError

    try:
        g = cg.parse_loopy(text)
    except GameNotationError as e:
        assert e.position is None or 0 <= e.position <= len(text)
        return
    except CgtalgError:  # e.g. a number too large to build as a form
        return
    assert isinstance(g, cg.LoopyGame)


def test_plus_minus_braces_read_as_the_partizan_notation_writes_them():
    # ±{A, B} is {A, B | -A, -B} (the partizan printer's notation, CGSuite's): the loopy reader
    # reads it so, and the loopy printer's short parts read back (a hypothesis example found
    # * + {1|-1} printed as ±{±1,{1,*|1}} and read back as another game)
    for text in ("±{±1,{1,*|1}}", "±{0,*}", "+-{1,2}"):
        assert cg.parse_loopy(text) is cg.as_loopy(cg.parse_partizan(text.replace("+-", "±")))
    a = cg.parse_loopy("{0|0}") + cg.as_loopy(cg.parse_partizan("{1|-1}"))
    assert cg.parse_loopy(format_loopy(a)) is a
    assert str(cg.parse_loopy("±{0|pass}")) == "±over"
