"""CGSuite's misère ``*[...]`` notation, read and written exactly (issue 7).

Reference values: tests/data/cgsuite_misere_forms.json, the misère canonical forms CGSuite's
own tests print (MisereCanonicalGameTestCase, the MisereCanonicalGame binary-method tests and
Grundy's game heap 22 in GameHeapTest), with their repository paths; the semantics of
subscripts (read left to right, ``#`` = the game whose only option is the game so far, a digit
adds that nim-heap) from CGSuite's misère tutorial. Games are checked independently: each text
is compared with the game built from CGSuite's input syntax (nested option lists) or from the
heap ruleset, by misère canonical form.
"""

from __future__ import annotations

import json
import pathlib
import time

import pytest

import cgtalg as cg
from cgtalg.errors import GameNotationError
from cgtalg.misere import format_misere, misere_canonical
from cgtalg.misere.canonical import misere_canonical_game

DATA = json.loads((pathlib.Path(__file__).parent / "data" / "cgsuite_misere_forms.json").read_text())
FORMS = DATA["forms"]


@pytest.mark.parametrize("entry", FORMS, ids=lambda e: e["output"][:40])
def test_cgsuite_forms_round_trip(entry):
    """parse(output) is the game CGSuite means, and it prints back to the same text."""
    g = cg.parse(entry["output"])
    assert format_misere(g) == entry["output"]
    if entry["input"] is not None:
        assert misere_canonical(cg.parse(entry["input"])) is misere_canonical(g)
        assert format_misere(cg.parse(entry["input"])) == entry["output"]


def test_norton_example_is_a_single_option():
    """*[4[2#]] is {*4 + *2} (Norton, in Conway ONAG ch. 12; CGSuite's tutorial), not
    *4 + {*2}."""
    g = cg.parse("*[4[2#]]")
    assert misere_canonical(g) is misere_canonical(cg.parse("{*4+*2}"))
    assert misere_canonical(g) is not misere_canonical(cg.parse("*4+{*2}"))


@pytest.mark.parametrize(
    "text, literal",
    [
        ("*[2[#2#]]", "{{*2}+*2}"),  # the tutorial: the only option is *[2#] + *[2]
        ("*[2[#1]]", "{*2}+*"),
        ("*[(2#0)2[#1]2#]", "{{{*2}, 0}, {*2}+*, {*2}}"),
        ("*[2[2]]", "*2+*2"),
        ("*[2##]", "{{*2}}"),
        ("*[(2#1)21]", "{{{*2}, *}, *2, *}"),
    ],
)
def test_sharp_inside_subscripts(text, literal):
    assert cg.parse(text) is cg.parse(literal)


def test_groups_print_with_parentheses_and_old_texts_still_read():
    g = cg.parse("{{*4, *2}, *4, *3, *1}")
    assert format_misere(g) == "*[(42)431]"
    # the texts earlier cgtalg versions printed read back to the same games
    assert cg.parse("*[2#[2]#]") is cg.parse("*[2[#2#]]")
    assert cg.parse("*[[42],4,3,1]") is g


def test_literal_form_option_stays_available():
    """The literal notation (format_game) prints the form itself; the canonical text is
    CGSuite's."""
    g = cg.parse("*[4[2#]]")
    assert cg.format_game(g) == "{*2+*4}"
    assert format_misere(g) == "*[4[2#]]"


@pytest.mark.parametrize(
    "text, message",
    [
        ("*[2[]]", "empty subscript"),
        ("*[2[#x]]", "expected '#' or a heap size in a subscript"),
        ("*[2[#", "unclosed subscript"),
        ("*[(2#1]", "expected an item"),
        ("*[(2#1)", "unclosed bracket"),
    ],
)
def test_malformed_subscripts(text, message):
    with pytest.raises(GameNotationError, match=message):
        cg.parse(text)


@pytest.mark.parametrize("depth", [5_000, 19_000])
def test_deep_nesting(depth):
    """Deeply nested CGSuite texts parse (no recursion limit below MISERE_DEPTH_LIMIT), or are
    refused past the limit. (Speed is measured in benchmarks/, never asserted here.)"""
    for text in ("*[" + "[" * depth + "]" * depth + "]", "*[(" * (depth // 4) + ")]" * (depth // 4)):
        assert cg.parse(text) is not None
    with pytest.raises(GameNotationError, match="MISERE_DEPTH_LIMIT"):
        cg.parse("*[" + "[" * 50_000 + "]" * 50_000 + "]")


def test_every_day_4_form_round_trips():
    """All 22 misère canonical forms born by day 4 print and read back to themselves."""
    for f in cg.misere_games_born_by(4):
        g = misere_canonical_game(f)
        assert misere_canonical(cg.parse(format_misere(g))) is misere_canonical(g)


def test_cut_canonical_text_in_the_cli(tmp_path, capsys):
    """A canonical text too long to print (*20+*20+*20: about 2.2e13 characters) is cut once
    in the human output, with its full length; in --json it carries "truncated": true, its
    length and the canonical form's DAG, which reads back to the same form."""
    from cgtalg.cli.main import main
    from cgtalg.core.notation import game_from_json
    from cgtalg.misere.notation import misere_text_length

    g = cg.parse("*20+*20+*20")
    n = misere_text_length(g)
    assert n > 10**12
    assert main(["game", "*20+*20+*20", "--no-store", "--misere"]) == 0
    out = capsys.readouterr().out
    assert out.count("*[((((") == 1 and f"of {n:,} characters" in out
    assert main(["game", "*20+*20+*20", "--no-store", "--json"]) == 0
    m = json.loads(capsys.readouterr().out)["misere_canonical"]
    assert m["truncated"] is True and m["length"] == n and m["text"].endswith("...")
    assert misere_canonical(game_from_json({"dag": m["dag"]})) is misere_canonical(g)
    assert main(["game", "*2+*2", "--no-store", "--json"]) == 0  # short texts stay plain strings
    assert json.loads(capsys.readouterr().out)["misere_canonical"] == "*[2[2]]"


def test_text_length_matches_the_text():
    from cgtalg.misere.notation import misere_text_length

    for text in ("*10+*10+*10", "kayles(8)+kayles(9)", "*[((2#0)2[#1]2#)(2#1)[1]]", "*12+{*2}"):
        g = cg.parse(text)
        assert misere_text_length(g) == len(format_misere(g))
