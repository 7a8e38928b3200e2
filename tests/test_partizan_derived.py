"""Freeze, companion, incentives, stop count, uptimal expansion, followers, parity, temper and
the flags (cgtalg.normal.derived, doors in cgtalg.ops.partizan_more), checked against brute
force from the definitions on random canonical forms of birthday <= 3 (built with the existing
constructors) and against CGSuite's test values: CGSuite
lib/core/src/test/scala/org/cgsuite/lang/CanonicalShortGameTestCase.scala, 24 of its 26 games
(``0`` and ``-1823437481924``, whose form is past cgtalg's INTEGER_LIMIT, are left out; ``0``
is checked by hand below), 13 properties each where given.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from norton_brute import form, random_tree

import cgtalg as cg
from cgtalg.core.partizan import ZERO
from cgtalg.errors import ArgumentError, GameKindError
from cgtalg.normal import derived as D
from cgtalg.normal.partizan import canonical_form, equal, is_number, le, up_nth
from cgtalg.normal.thermography import cool, temperature
from cgtalg.ops import partizan_more as pm

P = cg.parse_partizan


def V(text):
    return canonical_form(P(text))


def _forms(seed, n=60, depth=3):
    rng = random.Random(seed)
    return [canonical_form(form(random_tree(rng, depth))) for _ in range(n)]


# -- brute force of the definitions ----------------------------------------------------------------
def b_companion(c):
    """G° = {G^L°, 0 if G >= 0 | G^R°, 0 if G <= 0}, as a literal form (Siegel CGT III.2)."""
    left = [b_companion(o) for o in c.left] + ([ZERO] if le(ZERO, c) else [])
    right = [b_companion(o) for o in c.right] + ([ZERO] if le(c, ZERO) else [])
    return cg.pgame(left, right)


def b_stop_count(c):
    return 1 if is_number(c) else sum(b_stop_count(o) for o in c.left + c.right)


def b_parity(c):
    if not c.left and not c.right:
        return "even"
    opts = [b_parity(o) for o in c.left + c.right]
    return "even" if all(p == "odd" for p in opts) else "odd" if all(p == "even" for p in opts) else None


def b_temper(c):
    if is_number(c):
        return "even"
    opts = [b_temper(o) for o in c.left + c.right]
    return "even" if all(p == "odd" for p in opts) else "odd" if all(p == "even" for p in opts) else None


def test_by_brute_force():
    for c in _forms(36):
        assert equal(D.companion(c), b_companion(c)), str(c)
        assert D.stop_count(c) == b_stop_count(c), str(c)
        assert D.parity(c) == b_parity(c) and D.temper(c) == b_temper(c), str(c)
        seen = {}
        stack = [c]
        while stack:
            x = stack.pop()
            if x.id not in seen:
                seen[x.id] = x
                stack.extend(x.left + x.right)
        assert set(D.followers(c)) == set(seen.values()) and D.follower_count(c) == len(seen)
        t = temperature(c)
        assert D.freeze(c) is (c if is_number(c) else cool(c, t))
        inc = [canonical_form(o - c) for o in c.left] + [canonical_form(c - o) for o in c.right]
        best = {x.id for x in inc if not any(le(x, y) and not le(y, x) for y in inc)}
        assert {x.id for x in D.incentives(c)} == best, str(c)
        assert D.is_idempotent(c) == (c is ZERO)
        assert D.is_plumtree(c) and D.is_stable(c)


def test_companion_is_an_order_automorphism_of_day_two():
    """Siegel CGT III.2: on the games born by day n >= 1 the companion preserves order and is an
    involution."""
    from norton_brute import day

    games = list({canonical_form(form(t)).id: canonical_form(form(t)) for t in day(2)}.values())
    for g in games:
        assert D.companion(D.companion(g)) is g
        for h in games:
            assert le(g, h) == le(D.companion(g), D.companion(h)), (str(g), str(h))


def test_uptimal_expansions_round_trip():
    """Random x + Σ d_k.↑^k + *m are recognised with their digits; other games are refused."""
    rng = random.Random(5)
    for _ in range(30):
        digits = tuple(rng.randint(-2, 2) for _ in range(rng.randint(0, 3)))
        while digits and digits[-1] == 0:
            digits = digits[:-1]
        e = D.UptimalExpansion(Fraction(rng.randint(-4, 4), 2), digits, rng.randint(0, 3))
        g = e.game()
        total = canonical_form(cg.dyadic(e.number) + cg.nim(e.nimber))
        for k, d in enumerate(digits, 1):
            for _ in range(abs(d)):
                total = canonical_form(total + (up_nth(k) if d > 0 else -up_nth(k)))
        assert g is total
        assert D.uptimal_expansion(g) == e, str(e)
    for text in ("{1|-1}", "{0||0|vvv}", "{^^^|vv}", "{0||0|-3/2}"):
        assert not D.is_uptimal(V(text))
        with pytest.raises(ArgumentError, match="not an uptimal"):
            D.uptimal_expansion(V(text))


# -- CGSuite's values (CanonicalShortGameTestCase.scala) --------------------------------------------
# (game, companion, followerCount, freeze, incentives, isEven, isEvenTempered, isOdd, isOddTempered,
#  leftIncentives, rightIncentives, stopCount, uptimalExpansion or None)
CGSUITE = [
    ("5", "5", 6, "5", ["-1"], 0, 1, 1, 0, ["-1"], [], 1, "5.0"),
    ("-1/2", "-1/2", 3, "-1/2", ["-1/2"], 0, 1, 0, 0, ["-1/2"], ["-1/2"], 1, "-1/2.0"),
    ("25/16", "25/16", 7, "25/16", ["-1/16"], 0, 1, 0, 0, ["-1/16"], ["-1/16"], 1, "25/16.0"),
    ("*8", "*8", 9, "*8", [f"*{k}" for k in range(8, 16)], 0, 0, 0, 0, [f"*{k}" for k in range(8, 16)],
     [f"*{k}" for k in range(8, 16)], 4374, "*8.0"),
    ("9/8+*", "9/8*", 7, "9/8*", ["*"], 0, 0, 0, 1, ["*"], ["*"], 2, "9/8*.0"),
    ("^", "^*", 3, "^", ["^*"], 0, 0, 0, 0, ["v"], ["^*"], 3, "0.1"),
    ("v*", "v", 3, "v*", ["^*"], 0, 0, 0, 0, ["^*"], ["v", "v*"], 4, "*.1-"),
    ("6+^*", "6^*", 9, "6^*", ["^*"], 0, 0, 0, 0, ["v", "v*"], ["^*"], 4, "6*.1"),
    ("^*6", "^*6", 9, "^*6", ["^*"], 0, 0, 0, 0, ["v*6"], ["^*"], 1459, "*6.1"),
    ("73/16+v9*8", "73/16v9*8", 28, "73/16v9*8", ["^*"], 0, 0, 0, 0, ["^*"], ["v9*8"], 13131, "73/16*8.9-"),
    ("{0|*||*|||*||||*}", "^[4]*", 6, "^[4]", ["^[4]*"], 0, 0, 0, 0, ["v<4>"], ["^[4]*"], 9, "0.1111"),
    ("{0||0|v*}", "{0|^<2>*}", 5, "{0|^<2>}", ["^[2]*"], 0, 0, 0, 0, ["{v<2>|0}"], ["^[2]*"], 6, "*.12"),
    ("{0||0|vvv}", "{0,*||*|v3*}", 7, "{0||0|v3}", ["{^3,{^3|0}|0}"], 0, 0, 0, 0, ["{^3|0||0}"],
     ["{^3,{^3|0}|0}"], 7, None),
    ("{^^^|vv}", "{^3*|vv*}", 8, "{^3|vv}", ["{^5|0}"], 0, 0, 0, 0, ["{^5|0}"], ["{^5|0}"], 10, None),
    ("{0||0|-3/2}", "{0,*||*|-3/2}", 6, "{0||0|-3/2}", ["{3/2,{3/2|0}|0}"], 0, 0, 0, 0, ["{3/2|0||0}"],
     ["{3/2,{3/2|0}|0}"], 3, None),
    ("{0|||0||-1|-3}", "{0,*|||*||-1|-3}", 7, "{0|||0||-1|-3}", None, 0, 0, 0, 0, None, None, 4, None),
    ("{5||3|1|||0||||0}", "{5||3|1|||*||||0,*}", 10, "{5||3|1|||0||||0}", None, 0, 0, 0, 0, None, None, 5, None),
    ("{1|^^||^}", "{1|^^*||^*}", 8, "{1|^^||^}", None, 0, 0, 0, 0, None, ["{1v|^||0}"], 9, None),
    ("{1|^^^||^}", "{1|^3*||^*}", 8, "{1|^3||^}", None, 0, 0, 0, 0, None, ["{1v|^^||0}"], 9, None),
    ("{3||2+*|1+*}", "{3||2*|1*}", 8, "9/4*", ["{2*|1*||0}"], 0, 0, 0, 1, ["{2*|1*||0}"], ["{2*|1*||0}"], 5, None),
    ("{3/2+*|1/2||{0|-3},{-1+*,{-1/2|-1+*}|-5/2}}", "{3/2*|1/2||{*|-3},{-1*,{-1/2|-1*}|-5/2}}", 17, "-5/16*",
     None, 0, 0, 0, 0, None, None, 11, None),
]


def _set(texts):
    return {V(t).id for t in texts}


@pytest.mark.parametrize("row", CGSUITE, ids=[r[0] for r in CGSUITE])
def test_cgsuite_values(row):
    g, comp, fc, frz, inc, ev, et, od, ot, li, ri, sc, ue = row
    c = V(g)
    assert pm.companion(g) is V(comp)
    assert pm.follower_count(g) == fc
    assert pm.freeze(g) is V(frz)
    if inc is not None:
        assert {x.id for x in pm.incentives(g)} == _set(inc)
    if li is not None:
        assert {x.id for x in pm.left_incentives(g)} == _set(li)
    if ri is not None:
        assert {x.id for x in pm.right_incentives(g)} == _set(ri)
    assert (pm.parity(g) == "even", pm.parity(g) == "odd") == (bool(ev), bool(od))
    assert (pm.temper(g) == "even", pm.temper(g) == "odd") == (bool(et), bool(ot))
    assert pm.stop_count(g) == sc
    if ue is None:
        assert not pm.is_uptimal(c)
    else:
        assert str(pm.uptimal_expansion(c)) == ue and pm.uptimal_expansion(c).game() is c


def test_cgsuite_zero_and_followers():
    """CanonicalShortGameTestCase.scala: 0 (companion *, followers {0}, freeze 0, even,
    even-tempered, stop count 1, uptimal expansion 0.0) and some Followers sets."""
    assert pm.companion(0) is V("*") and pm.followers(0) == (ZERO,) and pm.freeze(0) is ZERO
    assert pm.parity(0) == "even" and pm.temper(0) == "even" and pm.stop_count(0) == 1
    assert str(pm.uptimal_expansion(0)) == "0.0"
    assert {x.id for x in pm.followers("25/16")} == _set(["0", "1", "3/2", "25/16", "13/8", "7/4", "2"])
    assert {x.id for x in pm.followers("{0||0|vvv}")} == _set(["0", "*", "v3", "vv*", "v", "{0|v3}", "{0||0|v3}"])
    assert {x.id for x in pm.followers("{3||2+*|1+*}")} == _set(["0", "1", "2", "3", "1*", "2*", "{3||2*|1*}", "{2*|1*}"])


# -- doors ------------------------------------------------------------------------------------------
def test_doors_refuse_by_name():
    mc = cg.canonical_form("{*2}", misere=True)
    w = cg.Nimber(cg.ordinal("w"))
    for name in pm.__all__:
        if name in ("conjunctive_sum", "selective_sum", "conway_product", "ordinal_product"):
            continue
        extra = (1,) if name in ("power", "power_to", "subordinate") else ()
        with pytest.raises(GameKindError, match="misère"):
            getattr(pm, name)(mc, *extra)
        with pytest.raises(GameKindError):
            getattr(pm, name)(w, *extra)


def test_doors_take_impartial_forms():
    assert pm.stop_count(cg.nim(3)) == 18 and pm.companion(cg.nim(1)) is ZERO
    assert pm.is_idempotent("{-1|1}") and not pm.is_idempotent("*")
