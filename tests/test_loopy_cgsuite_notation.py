"""CGSuite's printed stopper notation, read and written (issue 36).

Facts typed in from CGSuite (each line names its source):
- EvalTest = CGSuite lib/core/src/test/scala/org/cgsuite/lang/EvalTest.scala, "correctly
  interpret loopy game specifiers" and "process game operations";
- CSTC = CGSuite lib/core/src/test/scala/org/cgsuite/lang/CanonicalStopperTestCase.scala;
- constants = CGSuite lib/core/src/main/resources/org/cgsuite/lang/resources/game/constants.cgs
  (``Tiny(g) := {0||0|-g}``, ``Miny(g) := {g|0||0}``, ``upon := {pass|*}``).
Each literal is checked against the game built from its definition in brace notation (read by
the brace reader, not by the literal reader), as the same graph or, for sums, by the order.
"""

from __future__ import annotations

import random

import pytest

import cgtalg as cg
from cgtalg.core.loopy import Sides
from cgtalg.core.loopy_notation import format_loopy
from cgtalg.errors import GameNotationError, UnsupportedError
from cgtalg.normal.loopy import loopy_relation

L = cg.parse_loopy
UPONTH = "{0||0|0,pass}"  # EvalTest: uponth := {0||0|0,pass}


def test_acceptance_read_equal_and_print_back():
    """The brief's acceptance: each reads, equals its definition, prints back alike."""
    cases = [("5over", "5 + over"), ("3/2under", "3/2 + under"), ("Tiny(on)", "{0||0|off}"),
             ("Miny(on)", "{on|0||0}"), ("+-(5over)", "{5+over|-5+under}")]
    for text, definition in cases:
        g = L(text)
        assert loopy_relation(g, definition) == "="
        assert cg.canonical_form(definition) is g  # g is the canonical stopper of its definition
        assert format_loopy(g, ascii=True) == text
    assert str(L("+-(5over)")) == "±(5over)" and L("±(5over)") is L("+-(5over)")


@pytest.mark.parametrize("literal,definition", [
    # EvalTest "upon" and "uponth": CGSuite prints these inputs as these literals
    ("^[on]", "{pass|*}"), ("^[on]*", "{pass,0|0}"), ("v[on]", "{*|pass}"), ("v[on]*", "{0|0,pass}"),
    ("^<on>", "{0||0|0,pass}"), ("^<on>*", "{0,*||*|pass}"), ("v<on>", "{0,pass|0||0}"),
    ("v<on>*", "{pass|*||0,*}"),
    # CSTC: {pass|3/2} prints 3/2under, {-1/4+*|pass} prints -1/4v[on]
    ("3/2under", "{pass|3/2}"), ("-1/4v[on]", "{-1/4*|pass}"), ("5over", "{5|pass}"),
    ("-5over", "{-5|pass}"), ("over", "{0|pass}"), ("under", "{pass|0}"), ("on", "{pass|}"),
    ("off", "{|pass}"), ("upon", "{pass|*}"),
    # CSTC: Tiny(on), Miny(on), Tiny(over); constants: Tiny(g) = {0||0|-g}, Miny(g) = {g|0||0}
    ("Tiny(on)", "{0||0|{|pass}}"), ("Miny(on)", "{{pass|}|0||0}"), ("Tiny(over)", "{0|||0||pass|0}"),
    ("Tiny(^[on])", "{0||0|{*|pass}}"), ("Miny(^<on>)", "{{0||0|0,pass}|0||0}"),
    # the translated tinies: xTiny(G) = {x || x | x - G}, xMiny(G) = {x + G | x || x}
    ("2Tiny(on)", "{2||2|off}"), ("3Tiny(1under)", "{3||3|{2|pass}}"),
    ("1/2Miny(3over)", "{{7/2|pass}|1/2||1/2}"), ("-1Miny(on)", "{on|-1||-1}"),
    # ±G = {G | -G}; EvalTest "+- loopy game": +-{0|uponth} prints +-{0|^<on>}
    ("+-over", "{over|under}"), ("+-{0|^<on>}", "{{0|" + UPONTH + "}|{{0,pass|0||0}|0}}"),
    ("±^[on]", "{{pass|*}|{*|pass}}"),
])
def test_literals_are_their_definitions(literal, definition):
    assert L(literal) is L(definition)


@pytest.mark.parametrize("text,printed", [
    # EvalTest: over+5 -> 5over, under+5 -> 5under, 5+over -> 5over, over-5 -> -5over,
    # over+^ -> over, 5 + the upon family -> 5^[on], 5^[on]*, 5v[on], 5v[on]*, and uponth
    ("over+5", "5over"), ("under+5", "5under"), ("5+over", "5over"), ("over-5", "-5over"),
    ("over+^", "over"),
    ("5+{pass|*}", "5^[on]"), ("5+{pass,0|0}", "5^[on]*"), ("5+{*|pass}", "5v[on]"),
    ("5+{0|0,pass}", "5v[on]*"),
    ("5+{0||0|0,pass}", "5^<on>"), ("5+{0,*||*|pass}", "5^<on>*"), ("5+{0,pass|0||0}", "5v<on>"),
    ("5+{pass|*||0,*}", "5v<on>*"),
    # EvalTest "+- loopy game"; CSTC outputs
    ("+-{0|" + UPONTH + "}", "+-{0|^<on>}"), ("{pass|3/2}", "3/2under"), ("{-1/4+*|pass}", "-1/4v[on]"),
    ("{0|||0||0|{|pass}}", "{0|Tiny(on)}"), ("{{pass|}|0||0}", "Miny(on)"), ("{0|||0||pass|0}", "Tiny(over)"),
    ("x{0|x}", "over"), ("x{x|0}", "under"),
])
def test_cgsuite_printed_forms(text, printed):
    g = cg.canonical_form(text)
    assert format_loopy(g, ascii=True) == printed
    assert L(printed) is g


@pytest.mark.parametrize("cgsuite_text,source", [
    # CGSuite's outputs with slashes (ours prints nested braces): read, they are the canonical
    # stoppers of the inputs
    ("{0|^<on>||v<on>}", "{0|" + UPONTH + "||-" + UPONTH + "}"),  # CSTC
    ("+-{{0|^<on>},{0|^<on>*}}", "+-{{0|" + UPONTH + "},{0|" + UPONTH + "+*}}"),  # EvalTest
])
def test_cgsuite_outputs_read_as_canonical_stoppers(cgsuite_text, source):
    g = cg.canonical_form(source)
    assert L(cgsuite_text) is g
    assert L(str(g)) is g


def test_cgsuite_sided_outputs():
    # EvalTest "integer * stopper sided": 9*(upon & v) = {0||||0|||0||0|{0||||0|||0||0|^[on]}} & v9
    v = L("{0||||0|||0||0|{0||||0|||0||0|^[on]}} & v9")
    s = cg.sided_sum(*["upon & v"] * 9)
    assert isinstance(v, Sides) and (v.onside, v.offside) == (s.onside, s.offside)
    assert str(s) == "{0|{0|{0|{0|{0|{0|{0|{0|^[on]}}}}}}}} & v9"
    # EvalTest "stopper-sided": a{1||a|0} = 2 & +-1; sides written with the literals
    assert str(cg.loopy_sides("a{1||a|0}")) == "2 & ±1"
    for text in ("^[on] & 0", "5over & 5under", "Tiny(on) & Miny(on)", "^<on> & v<on>"):
        got = L(text)
        assert isinstance(got, Sides) and str(cg.loopy_sides(got)) == text
    assert str(cg.loopy_sides("upon - upon")) == "^<on> & v<on>"
    assert str(cg.canonical_form("{pass|pass}")) == "dud"  # EvalTest: {pass|pass} prints dud


def test_reader_only_where_the_text_is_a_literal():
    # short text is still the partizan reader's: Tiny(3/2), 2Tiny(3), ±1, ^*, v3
    for text in ("Tiny(3/2)", "2Tiny(3)", "±1", "^*", "v3", "1/2*"):
        assert L(text) is cg.as_loopy(cg.parse_partizan(text))
    assert cg.kind_of("3/2under") == "loopy" and cg.kind_of("^[on]") == "loopy"
    assert cg.kind_of("Tiny(on)") == "loopy" and cg.kind_of("5over") == "loopy"
    assert L("5over + 1") is not L("6over") and loopy_relation("5over + 1", "6over") == "="
    assert L("-(5over)") is L("-5under")  # the sign of -5over belongs to the number


@pytest.mark.parametrize("text,position,reason", [
    ("Tiny(on", 7, "expected ')' closing Tiny("),
    ("a:{0|Tiny(a)}", 5, "cannot refer to an enclosing game"),
    ("Tiny(1 & 0)", 0, "not a value given by its sides"),
    ("{0|5overx}", 4, "unknown name 'overx'"),
])
def test_errors_name_the_position(text, position, reason):
    with pytest.raises(GameNotationError) as e:
        L(text)
    assert e.value.position == position and reason in str(e.value)


# -- round trips: print(g) reads back as g --------------------------------------------------------
STOPPERS = ["on", "off", "over", "under", "upon", "5over", "3/2under", "^<on>", "v[on]*", "Tiny(on)",
            "Miny(over)", "+-over", "*", "^", "1/2", "-1", "{0|on}", "2Tiny(on)"]


def _round_trip(g):
    for ascii in (False, True):
        text = format_loopy(g, ascii=ascii)
        assert L(text) is g, text


def test_round_trip_sums_of_stoppers():
    """The canonical stoppers of the sums and differences of pairs: each prints and reads back
    as the same graph (the sum's sides when it is not a stopper)."""
    seen = 0
    for i, a in enumerate(STOPPERS):
        for b in STOPPERS[i:]:
            for text in (f"({a}) + ({b})", f"({a}) - ({b})"):
                g = L(text)
                if cg.is_stopper(g):
                    _round_trip(cg.canonical_form(g))
                    seen += 1
                else:
                    try:
                        s = cg.loopy_sides(g)
                    except UnsupportedError:
                        continue
                    _round_trip(s.onside)
                    _round_trip(s.offside)
                    back = L(str(s))
                    if s.stopper is None and str(s) != "dud":
                        assert (back.onside, back.offside) == (s.onside, s.offside)
    assert seen > 100


def test_round_trip_random_stoppers():
    """Random graphs (seeded): every stopper's canonical form, and every follower of it, prints
    and reads back as the same graph."""
    rng = random.Random(36)
    done = 0
    while done < 150:
        n = rng.randint(1, 5)
        pick = [w for w in range(n + 3)]  # n positions, then 0, 1 = {0|} and * = {0|0}
        nodes = [([w for w in pick if rng.random() < 0.25], [w for w in pick if rng.random() < 0.25])
                 for _ in range(n)]
        g = cg.loopy_game(nodes + [([], []), ([n], []), ([n], [n])])
        if not cg.is_stopper(g):
            continue
        c = cg.canonical_form(g)
        for f in c.followers():
            _round_trip(f)
        done += 1


def test_printed_literals_are_what_cgsuite_prints():
    """A stopper of a literal shape prints as the literal, never as braces."""
    for text in ("7/4over", "-3under", "^[on]*3", "-2^<on>*2", "1v[on]*", "1/2v<on>*"):
        assert str(L(text)) == text
