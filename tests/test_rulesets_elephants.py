"""Elephants and Rhinos (cgtalg.rulesets.partizan.elephants): CGSuite's
game.strip.ElephantsAndRhinos, Toads and Frogs with no jumps (CGSuite's strip/constants.cgs
defines it as GenToadsAndFrogs(maxJump => 0)). The rules, written here: Left slides an elephant
T one square right into an empty square, Right a rhino F one square left into an empty
square. Values are checked by exhaustive play on whole strips (no splitting, no cropping) and
against CGSuite's lib/core/src/test/scala/org/cgsuite/lang/GameStripTest.scala."""

from __future__ import annotations

import itertools
import random

import pytest
from rulesets_brute import equals_by_play

from cgtalg.errors import ComputationLimitError, RulesetError
from cgtalg.normal.notation import parse_partizan
from cgtalg.normal.partizan import canonical_form
from cgtalg.rulesets.partizan.elephants import ElephantsAndRhinos
from cgtalg.rulesets.partizan.games import partizan_form, partizan_value
from cgtalg.rulesets.registry import get_ruleset


def left(s: str):
    for i in range(len(s) - 1):
        if s[i] == "T" and s[i + 1] == ".":
            yield s[:i] + ".T" + s[i + 2:]


def right(s: str):
    for i in range(1, len(s)):
        if s[i] == "F" and s[i - 1] == ".":
            yield s[:i - 1] + "F." + s[i + 1:]


def test_cgsuite_value():
    """CGSuite GameStripTest.scala: game.strip.ElephantsAndRhinos("tttt..fff").CanonicalForm = 1."""
    e = ElephantsAndRhinos()
    v = partizan_form(e, e.parse_position("tttt..fff"))
    assert v == parse_partizan("1")
    assert equals_by_play(left, right, "TTTT..FFF", v)


def test_every_strip_up_to_seven_squares_agrees_with_play():
    e = ElephantsAndRhinos()
    for n in range(1, 8):
        for s in map("".join, itertools.product("TF.", repeat=n)):
            v = partizan_form(e, s)
            assert equals_by_play(left, right, s, v), (s, str(v))


def test_random_longer_strips_agree_with_play():
    e = ElephantsAndRhinos()
    rng = random.Random(11)
    for _ in range(60):
        s = "".join(rng.choice("TF...") for _ in range(rng.randint(8, 13)))
        v = partizan_form(e, s)
        assert equals_by_play(left, right, s, v), (s, str(v))


def test_hand_values():
    e = ElephantsAndRhinos()
    vals = {t: str(partizan_form(e, e.parse_position(t))) for t in
            ("T..", "..F", "T.F", "T..F", "TT..", "T.T.F")}
    # lone pieces: integers (moves to the strip's end); T.F: whoever moves blocks both: *;
    # T..F: each player has one move, after which the other has the last one: 0
    assert vals == {"T..": "2", "..F": "-2", "T.F": "*", "T..F": "0", "TT..": "4", "T.T.F": vals["T.T.F"]}
    assert vals["T.T.F"] == str(partizan_form(e, "T.T.F"))
    # no jumps: a facing pair that touches is stuck for good
    assert str(partizan_form(e, "TF")) == "0" and list(e.left_moves("TF.")) == []


def test_components_split_where_pieces_turn_away():
    e = ElephantsAndRhinos()
    # F then T: the rhino goes left, the elephant right: independent parts, each cropped
    assert e.components("..FT.TF..F.T.") == ["..F", "T.TF..F", "T."]
    # parts nobody can move in are dropped
    assert e.components("TFFT") == [] and e.components("TF.FT") == ["TF.F"]
    s = "T.F..FT.F.T.."
    assert e.components(s) == ["T.F..F", "T.F", "T.."]
    total = parse_partizan("0")
    for part in e.components(s):
        assert equals_by_play(left, right, part, partizan_form(e, part)), part
        total = total + partizan_form(e, part)
    # the sum of the parts' values is the strip's value by play
    assert equals_by_play(left, right, s, canonical_form(total))
    assert e.normalize("..T.F..") == "T.F" and e.normalize("..F..") == "..F"


@pytest.mark.parametrize("text, match", [
    ("tt.xf", r"unexpected 'x' at square 4"),
    ("t f", r"unexpected ' ' at square 2"),
])
def test_bad_texts(text, match):
    with pytest.raises(RulesetError, match=match):
        ElephantsAndRhinos().parse_position(text)


def test_checks_registry_store_and_cli(tmp_path):
    from click.testing import CliRunner

    from cgtalg.cli.main import cli
    from cgtalg.store import open_store

    e = get_ruleset("elephants-and-rhinos")
    assert isinstance(e, ElephantsAndRhinos)
    assert e.parse_position("tt..ff") == e.parse_position("TT__FF") == e.parse_position("ee..rr") == "TT..FF"
    with pytest.raises(RulesetError, match="a position is a str over T"):
        e.check_position("TX")
    with pytest.raises(RulesetError, match="a position text is a str"):
        e.parse_position(["T"])
    with pytest.raises(ComputationLimitError, match="MAX_SQUARES"):
        e.check_position("." * 200_000)
    st = open_store(f"sqlite:///{tmp_path / 's.db'}")
    g = partizan_value(e, "TTTT..FFF", store=st)
    assert st.get_position("partizan:elephants-and-rhinos", "TTTT..FFF", "canonical_form")
    assert partizan_value(e, "TTTT..FFF", store=st) == g
    res = CliRunner().invoke(cli, ["value", "--no-store", "elephants-and-rhinos", "tttt..fff"])
    assert res.exit_code == 0, res.output
    assert "canonical form  1" in res.output


def test_agrees_with_gen_toads_and_frogs_without_jumps():
    """Two code paths for one game are held equal: this ruleset (with its split into parts) and
    CGSuite's schema ``gen-toads-and-frogs:jump=0`` (no components), on random strips."""
    import random

    from cgtalg.rulesets.partizan.games import partizan_form
    from cgtalg.rulesets.registry import get_ruleset

    mine, general = ElephantsAndRhinos(), get_ruleset("gen-toads-and-frogs:jump=0")
    rng = random.Random(36)
    for _ in range(60):
        text = "".join(rng.choice("TF..") for _ in range(rng.randint(1, 9)))
        assert partizan_form(mine, mine.parse_position(text)) == partizan_form(general, general.parse_position(text)), text
