"""Reduced canonical forms (cgtalg.normal.reduced), checked against CGSuite's test values
(CanonicalShortGameTestCase.scala, ``ReducedCanonicalForm``) and by brute force on literal trees
(tests/norton_brute.py): G - rcf(G) is infinitesimal, rcf(G) is rcf(H) exactly when G - H is
infinitesimal, and no game born earlier than rcf(G) is infinitesimally close to G (Calistrate
1996; Grossman and Siegel, "Reductions of partizan games" (2009); Siegel CGT II.6)."""

from __future__ import annotations

import random
from fractions import Fraction as F

import pytest
from norton_brute import birthday, day, form, infinitesimal, random_tree, sub, tree

import cgtalg as cg
from cgtalg.normal.partizan import canonical_form, is_canonical
from cgtalg.normal.reduced import inf_le, infinitesimally_close, is_reduced, reduced_canonical_form as rcf
from cgtalg.normal.thermography import right_stop

P = cg.parse_partizan
EPS = F(1, 16)  # below every non-zero stop of a difference of games born by day 3


# -- CGSuite's values ----------------------------------------------------------------------------------
CGSUITE = [
    ("0", "0"), ("5", "5"), ("-1/2", "-1/2"), ("25/16", "25/16"),
    ("*8", "0"), ("9/8+*", "9/8"), ("^", "0"), ("v*", "0"), ("6+^*", "6"), ("^*6", "0"),
    ("73/16+v9*8", "73/16"), ("{0|*||*|||*||||*}", "0"), ("{0||0|v*}", "0"),
    ("{0||0|vvv}", "0"), ("{^^^|vv}", "0"), ("{0||0|-3/2}", "0"), ("{0|||0||-1|-3}", "0"),
    ("{5||3|1|||0||||0}", "0"), ("{1|^^||^}", "0"), ("{1|^^^||^}", "0"),
    ("{3||2+*|1+*}", "{3||2|1}"),
    ("{3/2+*|1/2||{0|-3},{-1+*,{-1/2|-1+*}|-5/2}}", "{3/2|1/2||{0|-3},{-1/2|-1||-5/2}}"),
]


@pytest.mark.parametrize("g,want", CGSUITE, ids=[c[0][:30] for c in CGSUITE])
def test_cgsuite_values(g, want):
    got = rcf(P(g))
    assert got is canonical_form(P(want))
    assert is_reduced(got) and is_canonical(got)


# -- brute force -----------------------------------------------------------------------------------------
def _games(seed, n, depth=3):
    rng = random.Random(seed)
    return [random_tree(rng, depth) for _ in range(n)]


def test_rcf_is_infinitesimally_close():
    for t in _games(1, 60):
        r = rcf(form(t))
        assert infinitesimal(sub(t, tree(r)), EPS), str(form(t))
        assert rcf(r) is r and is_canonical(r)


def test_rcf_identifies_exactly_the_infinitesimally_close_games():
    games = _games(2, 40, 2) + [tree(P(x)) for x in ("^", "*", "{1|0}", "{1*|0}", "{1|^}", "1/2", "{1/2|0}")]
    rs = [rcf(form(t)) for t in games]
    for i, a in enumerate(games):
        for j in range(i + 1, len(games)):
            b = games[j]
            close = infinitesimal(sub(a, b), EPS)
            assert (rs[i] is rs[j]) == close, (str(form(a)), str(form(b)))
            assert infinitesimally_close(form(a), form(b)) == close


DAY2 = day(2)


def test_rcf_is_the_simplest_close_game():
    """No form born before rcf(G) is infinitesimally close to G (every form born by day 2)."""
    checked = 0
    for t in _games(3, 50):
        r = rcf(form(t))
        b = r.birthday
        if 1 <= b <= 3:
            earlier = [x for x in DAY2 if birthday(x) < b]
            assert not any(infinitesimal(sub(t, x), EPS) for x in earlier), str(form(t))
            checked += 1
    assert checked >= 10


def test_inf_le_is_the_right_stop_test():
    """G <= H (mod Inf) iff RS(H - G) >= 0; then H + ε >= G for an infinitesimal ε, here found
    among n.↑ and Tiny(x) + n.↑ (the tiny absorbs a hot Right threat)."""
    rng = random.Random(4)
    ups = [cg.pgame()] + [canonical_form(sum([cg.up] * n, cg.pgame())) for n in range(1, 7)]
    tinies = [cg.pgame()] + [canonical_form(P(f"Tiny({x})")) for x in (2, 4, 8)]
    epsilons = [canonical_form(u + t) for u in ups for t in tinies]
    for _ in range(80):
        g, h = form(random_tree(rng, 2)), form(random_tree(rng, 2))
        ok = inf_le(g, h)
        assert ok == (right_stop(h - g) >= 0)
        if ok:
            assert any(cg.compare(g, h + e).le for e in epsilons), (str(g), str(h))
        else:  # no infinitesimal can help: RS(H + ε - G) = RS(H - G) < 0
            assert not any(cg.compare(g, h + e).le for e in epsilons)
