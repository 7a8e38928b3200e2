"""Partizan notation (cgtalg.normal.notation): CGSuite's grammar and printing conventions,
round trips, error messages, and the dispatch of :func:`cgtalg.parse`.

Printed forms are compared with CGSuite's own test table (lib/core/src/test/scala/org/cgsuite/
lang/CanonicalShortGameTestCase.scala: input text and the canonical form CGSuite prints) and
with CGSuite's printing rules (CanonicalShortGame.appendTo: bars, ``±``, Tiny/Miny; Uptimal:
``^``, ``^^``, ``^3``, ``v*``, ``1/2^*``).
"""

from __future__ import annotations

import pickle
import random

import pytest

import cgtalg as cg
from cgtalg.core.partizan import ZERO, down, dyadic, integer, negative, nimber, pgame, switch, up
from cgtalg.core.partizan_text import looks_partizan
from cgtalg.normal.notation import PARTIZAN_DEPTH_LIMIT, format_partizan, parse_partizan
from cgtalg.errors import ComputationLimitError, GameNotationError
from cgtalg.core import named_forms as N
from cgtalg.normal import partizan as P

from test_partizan_normal import DAY2, canonical_day, random_forms

# (CGSuite input, CGSuite's printed canonical form): CGSuite's test table
CGSUITE_PRINTED = [
    ("0", "0"), ("5", "5"), ("-1823", "-1823"), ("-1/2", "-1/2"), ("25/16", "25/16"),
    ("*8", "*8"), ("9/8+*", "9/8*"), ("^", "^"), ("v*", "v*"), ("6+^*", "6^*"), ("^*6", "^*6"),
    ("73/16+v9*8", "73/16v9*8"), ("{0||0|vvv}", "{0||0|v3}"), ("{^^^|vv}", "{^3|vv}"),
    ("{0||0|-3/2}", "Tiny(3/2)"), ("{0|||0||-1|-3}", "Tiny({3|1})"),
    ("{5||3|1|||0||||0}", "Miny({5||3|1})"), ("{1|^^||^}", "{1|^^||^}"),
    ("{1|^^^||^}", "{1|^3||^}"), ("{3||2+*|1+*}", "{3||2*|1*}"),
    ("{3/2+*|1/2||{0|-3},{-1+*,{-1/2|-1+*}|-5/2}}", "{3/2*|1/2||{0|-3},{-1*,{-1/2|-1*}|-5/2}}"),
]


@pytest.mark.parametrize("text, printed", CGSUITE_PRINTED)
def test_canonical_forms_print_as_cgsuite_prints_them(text, printed):
    c = P.canonical_form(parse_partizan(text))
    assert format_partizan(c) == printed
    assert parse_partizan(printed) is c


def test_uptimal_expansions_round_trip_structurally():
    """CGSuite prints ``^[4]``, ``^<2>`` and orders uptimal options by their expansions; cgtalg
    prints ``^[n]``/``^<n>`` (and with numbers and nimbers) as CGSuite does, and the longer
    uptimal expansions in braces, which still read back to the form."""
    for text in ("{0|*||*|||*||||*}", "{0||0|v*}",
                 "{0||0,v*|vv|||{0||0,v*|vv|||vv,{0,v*|vv}},{0||0,v*|vv}|{0||0,v*|vv|||vv,{0,v*|vv}||||vv}}"):
        c = P.canonical_form(parse_partizan(text))
        assert parse_partizan(format_partizan(c)) is c
    assert format_partizan(P.canonical_form(parse_partizan("{0|*||*|||*||||*}"))) == "^[4]"


def test_printing_rules():
    star = nimber(1)
    cases = {
        "^": up, "v": down, "*": star, "^*": up + star, "^^": up + up, "^^*": up + up + star,
        "^3": up + up + up, "v3*2": down + down + down + nimber(2), "1/2": pgame([0], [1]),
        "1*": pgame([1], [1]), "-3/4^": dyadic(-3, 4) + up, "±1": switch(1),
        "±1/2": switch(dyadic(1, 2)), "±(1*)": switch(pgame([1], [1])),
        "±{1/2,{1|0}}": pgame([dyadic(1, 2), pgame([1], [0])], [dyadic(-1, 2), pgame([0], [-1])]),
        "{1|0}": pgame([1], [0]), "{2||1|0}": pgame([2], [pgame([1], [0])]),
        "{3|2||1|0}": None, "-2": integer(-2), "Tiny(2)": pgame([0], [pgame([0], [-2])]),
        "1Tiny(2)": pgame([1], [pgame([1], [-1])]), "Miny(1)": pgame([pgame([1], [0])], [0]),
    }
    for text, g in cases.items():
        c = P.canonical_form(parse_partizan(text))
        if g is not None:
            assert P.canonical_form(g) is c, text
        assert format_partizan(c) == text, text
    assert format_partizan(switch(1), ascii=True) == "+-1"
    assert format_partizan(pgame([2, star], [-2, star])) == "±{2,*}"      # a literal form
    assert format_partizan(pgame([pgame([-1, 0, 1, star], [])], [])) == "{{-1,0,1,*|}|}"
    # CGSuite brackets at four bars: {0|*||*|||*||||*} keeps its braces inside
    deep = ZERO
    for _ in range(4):
        deep = pgame([deep], [star])          # {0|*} = ^, then {^|*}, ...
    assert format_partizan(pgame([deep], [star])) == "^[5]"
    assert format_partizan(pgame([pgame([deep], [star])], [star])) == "^[6]"
    for _ in range(4):
        deep = pgame([deep], [star])              # ^[8], then ^[9] beyond HIGHER_UP_MAX
    assert format_partizan(pgame([deep], [star])) == "{^[8]|*}"
    assert parse_partizan("{^[8]|*}") is pgame([deep], [star])


def test_multi_bar_grammar():
    """More bars bind looser (CGSuite's slashExpression): {a || b | c} = {a | {b | c}},
    {a | b || c} = {{a | b} | c}; commas bind tighter than bars."""
    a, b, c = integer(3), integer(2), integer(1)
    assert parse_partizan("{3 || 2 | 1}") is pgame([a], [pgame([b], [c])])
    assert parse_partizan("{3 | 2 || 1}") is pgame([pgame([a], [b])], [c])
    assert parse_partizan("{3, 2 | 1 || 0}") is pgame([pgame([a, b], [c])], [0])
    assert parse_partizan("{3 ||| 2 | 1 || 0}") is pgame([a], [pgame([pgame([b], [c])], [0])])
    assert parse_partizan("{ | }") is ZERO and parse_partizan("{|0}") is integer(-1)
    assert parse_partizan("{0 || }") is integer(1)
    assert parse_partizan("{*2, ^}") is pgame([nimber(2), up], [nimber(2), up])  # no bar: both players


def test_value_syntax():
    star = nimber(1)
    assert parse_partizan("^") is up and parse_partizan("↑") is up and parse_partizan("⇑*") is N.uptimal(0, 2, 1)
    assert parse_partizan("^5") is N.uptimal(0, 5, 0) and parse_partizan("vvv") is N.uptimal(0, -3, 0)
    assert parse_partizan("^*3") is N.uptimal(0, 1, 3) and parse_partizan("*") is star
    assert parse_partizan("-1^") is N.uptimal(-1, 1, 0)          # CGSuite prints -1 + ^ as -1^
    assert parse_partizan("- 1^") is negative(N.uptimal(1, 1, 0))
    assert parse_partizan("1*2") is N.uptimal(1, 0, 2)           # 1 + *2, as CGSuite prints it
    assert parse_partizan("+-1") is switch(1) is parse_partizan("±1")
    # G ± H = G + ±H; G - H = G + (-H): the literal sums of the forms (what misère play needs);
    # read for normal-play values, a number plus a canonical form is their canonical sum
    assert parse_partizan("1 +- 1") is integer(1) + switch(1)
    assert parse_partizan("1 +- 1", normal_play=True) is pgame([2], [0])
    assert parse_partizan("1 - ^") is integer(1) + down
    assert parse_partizan("1 - ^", normal_play=True) is N.uptimal(1, -1, 0)
    assert parse_partizan("{0,*|0} + {0,*|0}") is pgame([0, star], [0]) + pgame([0, star], [0])  # literal
    assert parse_partizan("4 + 5") is integer(9) and parse_partizan("-4 - 5") is integer(-9)
    with pytest.raises(ComputationLimitError, match="normal_play=True"):
        parse_partizan("4 - 91512")            # the literal sum {3 - 91512 | 4 - 91511}: too large
    assert parse_partizan("4 - 91512", normal_play=True) is integer(-91508)
    assert parse_partizan("-(1/2)") is dyadic(-1, 2)
    assert parse_partizan("2Miny(1)") is pgame([pgame([3], [2])], [2])
    assert P.canonical_form(parse_partizan("^ + ^ + *")) is N.uptimal(0, 2, 1)


def test_all_values_born_by_day_3_round_trip():
    for c in canonical_day(3):
        text = format_partizan(c)
        assert parse_partizan(text) is c, text
        if looks_partizan(text):
            assert cg.parse(text) is c
        assert str(c) == text


def test_literal_forms_round_trip():
    forms = DAY2 + random_forms(200, seed=19)
    rng = random.Random(23)
    forms += [rng.choice(forms) + rng.choice(forms) for _ in range(100)]
    forms += [-g for g in forms[:100]]
    for g in forms:
        text = format_partizan(g)
        assert parse_partizan(text) is g, text
    assert format_partizan(up + up) == "^ + ^" and parse_partizan("^ + ^") is up + up
    assert format_partizan(pgame([up + up, 0], [switch(1)])) == "{0,^ + ^|±1}"


@pytest.mark.parametrize(
    "text, position, reason",
    [
        ("{0|1|2}", 4, "ambiguous bars: two runs of 1 '|' at the same level (more bars bind looser: "
                       "write {a || b | c} or {a | b || c})"),
        ("1/3", 1, "1/3 is not a dyadic rational: numbers in short games have power-of-2 denominators"),
        ("{0|", 3, "unclosed '{' (opened at position 0): expected an option, ',', '|' or '}'"),
        ("{0,|1}", 3, "expected an option after ','"),
        ("^^2", 2, "a count follows a single '^' only: write ^n for n ups or downs"),
        ("{0 1|}", 3, "expected ',', '|' or '}' after an option"),
        ("^|", 1, "unexpected character after a complete game"),
        ("Tiny(2", 6, "expected ')' to close Tiny("),
        ("{0 | ,}", 5, "expected an option before ','"),
        ("-", 1, "unexpected end of input: expected a game"),
        ("1/2 + |", 6, "'|' outside braces: write {L | R}"),
    ],
)
def test_parse_errors_point_at_the_problem(text, position, reason):
    with pytest.raises(GameNotationError) as info:
        parse_partizan(text)
    err = info.value
    assert (err.position, err.reason) == (position, reason)
    assert str(err).startswith(f"bad game notation {text!r} at position {position}")
    with pytest.raises(GameNotationError):
        cg.parse(text)


def test_limits():
    # a number beyond INTEGER_LIMIT reads as its compact form (issue 36), the same object as integer(n)
    assert parse_partizan("999999999") is integer(999999999) and parse_partizan("999999999")._lazy
    with pytest.raises(GameNotationError, match="PARTIZAN_DEPTH_LIMIT"):
        parse_partizan("{" * (PARTIZAN_DEPTH_LIMIT + 1) + "|")
    deep = "{" * 3000 + "0" + "|}" * 3000
    assert parse_partizan(deep) is integer(3000)
    with pytest.raises(GameNotationError, match="too large"):
        parse_partizan("*" + "9" * 40)
    with pytest.raises(ComputationLimitError, match="SUM_LIMIT"):
        parse_partizan("±5 + ±6 + ±7 + ±8 + ±9 + ±10 + ±11")
    text = format_partizan(up + switch(3) + up, max_chars=8)
    assert len(text) == 8 and text.endswith("...")


def test_cg_parse_dispatch():
    """Partizan text gives partizan forms; impartial text reads exactly as before."""
    assert cg.parse("{0 | *}") is up and cg.parse("{ | 0}") is integer(-1)
    assert cg.parse("{2 || 1 | 0}") is parse_partizan("{2||1|0}")
    assert cg.parse("1/2") is dyadic(1, 2) and cg.parse("-3/4") is dyadic(-3, 4)
    assert cg.parse("^*") is N.uptimal(0, 1, 1) and cg.parse("v") is down and cg.parse("±1") is switch(1)
    assert isinstance(cg.parse("{0, *2}"), cg.Game) and cg.parse("*3") is cg.nim(3)
    assert isinstance(cg.parse("kayles(3)"), cg.Game) and isinstance(cg.parse("*[2#]"), cg.Game)
    assert cg.parse(up) is up
    for text in ("{0|*}", "^", "v3", "1/2*", "-1", "±1", "Tiny(2)", "{0,v*|vv}"):
        assert looks_partizan(text)
    for text in ("{0, *2}", "*[2#]", "kayles(3)+kayles(4)", "{*, {*2}}"):
        assert not looks_partizan(text)


def test_str_repr_and_pickle():
    g = parse_partizan("{2||1|0}")
    assert str(g) == "{2||1|0}" and repr(g) == "PartizanGame('{2||1|0}')"
    for h in (g, up, switch(1) + up, pgame([up + up], [ZERO]), integer(-7)):
        assert pickle.loads(pickle.dumps(h)) is h
    assert str(cg.from_impartial(cg.parse("{*2, {*}}"))) == "{*2,{*}}"   # not canonical: structural


def test_format_recognises_values_inside_literal_forms():
    """A sub-form prints as a value only where it IS that value's canonical form."""
    star = nimber(1)
    assert format_partizan(pgame([up, pgame([0], [0])], [star + star])) == "{*,^|{*}}"   # * + * = {*|*}
    assert format_partizan(pgame([pgame([star], [star])], [])) == "{{*}|}"
    assert format_partizan(pgame([up + up + star], [])) == "{^ + ^ + *|}"
    assert format_partizan(cg.parse("±{0,{{2|0},2Tiny(2)|{2|0},Miny(2)}}")) == "±{0,{{2|0},2Tiny(2)|{2|0},Miny(2)}}"


@pytest.mark.parametrize("seed", range(3))
def test_fuzz_partizan_text_fails_cleanly(seed):
    """Random text over the partizan alphabet: a form or a CgtalgError, never another error."""
    from cgtalg.errors import CgtalgError

    rng = random.Random(seed)
    alphabet = list("{}()|,+-*^v/±0123456789 .") + ["Tiny(", "Miny(", "↑", "+-", "*2", "1/2", "||"]
    for _ in range(400):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 25)))
        try:
            g = cg.parse(text)
        except CgtalgError:
            continue
        assert isinstance(g, (cg.Game, cg.PartizanGame))
        if isinstance(g, cg.PartizanGame):
            assert parse_partizan(format_partizan(g)) is g, text


def test_higher_uptimals_read_and_print_as_cgsuite():
    # CGSuite's CanonicalShortGameTestCase / EvalTest / GameGraphTest: "{0|*||*|||*||||*}" is
    # "^[4]", "{0|v*}" is "^<2>", "{0||0|v*}" is "{0|^<2>}", Hackenbush "lrlerrr" is "3/4v[3]*"
    from cgtalg.normal.partizan import canonical_sum, equal, up_bracket, up_nth

    for text, shown in [("{0|*||*|||*||||*}", "^[4]"), ("{0|v*}", "^<2>"), ("{0||0|v*}", "{0|^<2>}"),
                        ("3/4v[3]*", "3/4v[3]*"), ("^[2]*", "^[2]*"), ("v<3>*2", "v<3>*2")]:
        g = P.canonical_form(parse_partizan(text))
        assert format_partizan(g) == shown, text
        assert parse_partizan(shown) is g
    # ^[n] = ^ + ^<2> + ... + ^<n> (Siegel CGT II.7: the up-nth sum), checked by value
    acc = up_nth(1)
    for n in range(2, 6):
        acc = canonical_sum(acc, up_nth(n))
        assert equal(acc, up_bracket(n)), n
    assert not equal(up_nth(3), up_nth(2)) and not equal(up_nth(3), up_nth(1))
