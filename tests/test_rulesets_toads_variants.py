"""Generalised Toads and Frogs (cgtalg.rulesets.partizan.toads_variants): values checked by
exhaustive play of G - value with moves written here from CGSuite's documented rules, against
CGSuite's GameStripTest.scala, and the default rules against the library's ToadsAndFrogs."""

from __future__ import annotations

import random

import pytest
from rulesets_brute import equals_by_play

from cgtalg.errors import LoopyGameError, RulesetError
from cgtalg.normal.notation import parse_partizan
from cgtalg.rulesets.partizan.games import ToadsAndFrogs, partizan_form
from cgtalg.rulesets.partizan.toads_variants import (
    GenToadsAndFrogs, backsliding_toads_and_frogs, elephants_and_rhinos, parse_gen_toads)
from cgtalg.rulesets.registry import get_ruleset


def rules_moves(min_slide, max_slide, max_jump, friendly):
    """Move functions from the rules: a piece (T to the right, F to the left) slides d squares
    over empty squares for min_slide <= d <= max_slide, d != 0 (d < 0: backwards), or jumps over
    1..max_jump adjacent enemy pieces (any pieces with ``friendly``) onto the empty square just
    past them."""
    def moves(s, me, fwd):
        them = "F" if me == "T" else "T"
        out = set()
        for i, ch in enumerate(s):
            if ch != me:
                continue
            for d in range(min_slide, max_slide + 1):
                if d == 0:
                    continue
                j = i + d * fwd
                path = range(i + fwd, j + fwd, fwd) if d > 0 else range(i - fwd, j - fwd, -fwd)
                if 0 <= j < len(s) and all(s[p] == "." for p in path):
                    out.add(_put(s, i, j, me))
            for k in range(1, max_jump + 1):
                over = [i + t * fwd for t in range(1, k + 1)]
                land = i + (k + 1) * fwd
                if 0 <= land < len(s) and s[land] == "." and all(
                        0 <= p < len(s) and (s[p] == them or (friendly and s[p] == me)) for p in over):
                    out.add(_put(s, i, land, me))
        return out

    return (lambda s: moves(s, "T", 1)), (lambda s: moves(s, "F", -1))


def _put(s, i, j, me):
    cells = list(s)
    cells[i], cells[j] = ".", me
    return "".join(cells)


VARIANTS = {
    "toads-and-frogs": (GenToadsAndFrogs, (1, 1, 1, False)),
    "elephants-and-rhinos": (elephants_and_rhinos, (1, 1, 0, False)),
    "jump-2": (lambda: GenToadsAndFrogs(max_jump=2), (1, 1, 2, False)),
    "slide-1-2-jump-3": (lambda: parse_gen_toads("max=2,jump=3"), (1, 2, 3, False)),
    "slide-2-only": (lambda: parse_gen_toads("min=2,max=2"), (2, 2, 1, False)),
    "friendly-jump-2": (lambda: parse_gen_toads("jump=2,friendly"), (1, 1, 2, True)),
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_random_strips_agree_with_play(variant):
    factory, params = VARIANTS[variant]
    game = factory()
    left, right = rules_moves(*params)
    rng = random.Random(len(variant))
    for _ in range(25):
        s = "".join(rng.choice("TTFF...") for _ in range(rng.randrange(1, 9)))
        assert set(game.left_moves(s)) == left(s), (variant, s)
        assert set(game.right_moves(s)) == right(s), (variant, s)
        v = partizan_form(game, s)
        assert equals_by_play(left, right, s, v), (variant, s, str(v))


def test_default_rules_are_toads_and_frogs():
    g, t = GenToadsAndFrogs(), ToadsAndFrogs()
    assert g.name == "gen-toads-and-frogs" and g.rules_text() == ""
    rng = random.Random(2)
    for _ in range(30):
        s = "".join(rng.choice("TF..") for _ in range(rng.randrange(1, 10)))
        assert sorted(g.left_moves(s)) == sorted(t.left_moves(s)) and sorted(g.right_moves(s)) == sorted(t.right_moves(s))
        assert partizan_form(g, s) is partizan_form(t, s), s


# CGSuite lib/core/src/test/scala/org/cgsuite/lang/GameStripTest.scala, "define Toads and Frogs properly"
CGSUITE = [
    (GenToadsAndFrogs, "ttttt..fffff",
     "+-{{2|*},{5/2||2|{0||||{0||v<2>|-1},{0||||0||Miny(1/32)|-2|||-1/2*}|||v<2>|-1/2||-1*}|||0}}"),
    (lambda: GenToadsAndFrogs(max_jump=2), "tttt..fff", "{1/2*|v}"),
    (elephants_and_rhinos, "tttt..fff", "1"),
]


@pytest.mark.parametrize("factory, text, value", CGSUITE)
def test_cgsuite_values(factory, text, value):
    game = factory()
    pos = game.parse_position(text)
    assert partizan_form(game, pos) is parse_partizan(value)


def test_backsliding_is_loopy():
    # CGSuite evaluates BackslidingToadsAndFrogs("ttt..fff") with GameValue (a loopy value,
    # GameStripTest.scala); short canonical forms do not cover it
    b = backsliding_toads_and_frogs()
    assert set(b.left_moves("TTT..FFF")) == {"TT.T.FFF"}
    assert "TT.T..F" in set(b.left_moves("TT..T.F"))       # a toad slides back one square
    left, right = rules_moves(-1, 1, 1, False)
    rng = random.Random(4)
    for _ in range(40):
        s = "".join(rng.choice("TF..") for _ in range(rng.randrange(1, 9)))
        assert set(b.left_moves(s)) == left(s) and set(b.right_moves(s)) == right(s), s
    with pytest.raises(LoopyGameError):
        partizan_form(b, b.parse_position("ttt..fff"))


def test_registry_and_family_names():
    for name in ("gen-toads-and-frogs", "backsliding-toads-and-frogs"):
        assert get_ruleset(name).name == name
    # (elephants-and-rhinos is registered by cgtalg.rulesets.partizan.elephants; here it is jump=0)
    assert get_ruleset("gen-toads-and-frogs:jump=0").rules_text() == elephants_and_rhinos().rules_text()
    r = get_ruleset("gen-toads-and-frogs:jump=2")
    assert r.name == "gen-toads-and-frogs:jump=2"
    assert partizan_form(r, "TTTT..FFF") is parse_partizan("{1/2*|v}")
    assert get_ruleset("gen-toads-and-frogs:min=-1").name == "gen-toads-and-frogs:min=-1"


@pytest.mark.parametrize("arg", ["jump=-1", "min=3,max=2", "max=-1", "size=2", "jump", "friendly=1",
                                 "jump=x", "jump=1,jump=2"])
def test_bad_family_arguments_refused(arg):
    with pytest.raises(RulesetError):
        parse_gen_toads(arg)


@pytest.mark.parametrize("text", ["TTX..FF", "T T", "tt..ff|t", "ox"])
def test_bad_strips_refused(text):
    with pytest.raises(RulesetError, match="unexpected"):
        GenToadsAndFrogs().parse_position(text)


def test_bad_positions_refused():
    for bad in ("tt..ff", ("T", "F"), 3):
        with pytest.raises(RulesetError):
            GenToadsAndFrogs().check_position(bad)
    with pytest.raises(RulesetError):
        GenToadsAndFrogs(max_jump=True)
    with pytest.raises(RulesetError):
        GenToadsAndFrogs().parse_position(None)
