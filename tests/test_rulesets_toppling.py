"""Toppling Dominoes (cgtalg.rulesets.partizan.toppling): values checked by exhaustive play of G - value
with the toppling rule written here (tip a domino of one's colour or green left or right; it
knocks down everything on that side), against the values of Fink, Nowakowski, Siegel and Wolfe,
"Toppling Conjectures" (Games of No Chance 4): a row of n blue dominoes is n, n green ones *n,
and through the registry and the store."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from rulesets_brute import equals_by_play

from cgtalg.core.partizan import integer, nimber
from cgtalg.errors import RulesetError
from cgtalg.normal.partizan import canonical_form, number_value
from cgtalg.rulesets.partizan.games import partizan_form, partizan_value
from cgtalg.rulesets.registry import get_ruleset
from cgtalg.rulesets.partizan.toppling import TopplingDominoes


def brute(rows: tuple, mine: str):
    """Moves from the rules, rows kept as they are (no reversal, no sorting)."""
    for k, s in enumerate(rows):
        for i, ch in enumerate(s):
            if ch in mine:
                for rest in (s[i + 1:], s[:i]):       # toppled to the left / to the right
                    yield rows[:k] + (rest,) + rows[k + 1:]


def left(p):
    return brute(p, "LG")


def right(p):
    return brute(p, "RG")


def test_every_row_of_up_to_five_dominoes_agrees_with_play():
    t = TopplingDominoes()
    for n in range(1, 6):
        for s in map("".join, itertools.product("LRG", repeat=n)):
            v = partizan_form(t, t.parse_position(s))
            assert equals_by_play(left, right, (s,), v), (s, str(v))


def test_sums_of_rows_agree_with_play():
    t = TopplingDominoes()
    for a, b in [("LR", "GL"), ("LRL", "RG"), ("GG", "GGG"), ("LLR", "RRL")]:
        v = partizan_form(t, t.parse_position(f"{a} {b}"))
        assert equals_by_play(left, right, (a, b), v)
        assert v == canonical_form(partizan_form(t, (a,)) + partizan_form(t, (b,)))


def test_published_values():
    """Toppling Conjectures: n blue = n, n red = -n, n green = *n; LR = * (each player's
    only good move is to topple everything); a row and its reverse are the same game."""
    t = TopplingDominoes()
    for n in range(1, 9):
        assert partizan_form(t, ("L" * n,)) == integer(n)
        assert partizan_form(t, ("R" * n,)) == integer(-n)
        assert partizan_form(t, ("G" * n,)) == nimber(n)
    assert str(partizan_form(t, ("LR",))) == "*"
    assert t.parse_position("LRR") == t.parse_position("RRL")
    # LRL = {0, * | 1} = 1/2 (Left topples all or leaves LR = *; Right leaves L = 1); the brute
    # force above checks every row of up to 5 dominoes
    assert number_value(partizan_form(t, ("LRL",))) == Fraction(1, 2)
    # cgt-tools' test value (t4ccer/cgt-tools, toppling_dominoes.rs): "xooxx" = LRRLL is {1|*}
    assert str(partizan_form(t, t.parse_position("LRRLL"))) == "{1|*}"


def test_a_row_does_not_split():
    """A topple leaves one piece of the row: the only components are the rows."""
    t = TopplingDominoes()
    for s in ("LRGLR", "GGRLL"):
        for q in set(t.left_moves((s,))) | set(t.right_moves((s,))):
            assert len(q) <= 1
    assert t.components(("LR", "GLL")) == [("LR",), ("GLL",)]


def test_text_registry_and_store(tmp_path):
    t = get_ruleset("toppling-dominoes")
    assert t.parse_position("blr + G, 0") == ("G", "LLR")
    assert t.parse_position("0") == ()
    with pytest.raises(RulesetError, match=r"unexpected 'x' at character 3"):
        t.parse_position("LRx")
    from cgtalg.store import open_store

    st = open_store(f"sqlite:///{tmp_path / 's.db'}")
    g = partizan_value(t, t.parse_position("LRLGR"), store=st)
    assert st.get_position("partizan:toppling-dominoes", t.format_position(t.normalize(("LRLGR",))),
                           "canonical_form") is not None
    assert partizan_value(t, t.parse_position("RGLRL"), store=st) == g      # the same row reversed
