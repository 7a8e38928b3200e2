"""Normal play of partizan forms (cgtalg.normal.partizan): comparison against a brute force from
the definition, canonical forms (counts of values born by day 2 and 3), numbers, stops,
thermographs, cooling and atomic weights, with values from named sources.

Sources:
- ONAG: Conway, *On Numbers and Games*; WW: Berlekamp, Conway, Guy, *Winning Ways*;
  CGT: Siegel, *Combinatorial Game Theory* (2013).
- CGSUITE: CGSuite's own test table, lib/core/src/test/scala/org/cgsuite/lang/
  CanonicalShortGameTestCase.scala (input, printed canonical form, stops, mean, temperature,
  thermograph, atomic weight, outcome of each game), values recorded below.
"""

from __future__ import annotations

import functools
import itertools
import random
from fractions import Fraction

import pytest

import cgtalg as cg
from cgtalg.core.partizan import ZERO, down, dyadic, integer, negative, nimber, pgame, switch, up
from cgtalg.errors import NotAtomicError
from cgtalg.core import named_forms as N
from cgtalg.normal import atomic_weight as AW
from cgtalg.normal import partizan as P
from cgtalg.normal import thermography as T

F = Fraction


# -- forms born by day n --------------------------------------------------------------------------
def literal_forms(day: int) -> list:
    """Every literal form born by ``day`` (days 0-2: 1, 4, 256 forms)."""
    forms = [ZERO]
    for _ in range(day):
        subsets = [s for k in range(len(forms) + 1) for s in itertools.combinations(forms, k)]
        forms = list({pgame(l, r).id: pgame(l, r) for l in subsets for r in subsets}.values())
    return forms


DAY2 = literal_forms(2)


def antichains(values: list) -> list[tuple]:
    """All sets of pairwise incomparable values (candidate undominated option sets)."""
    out: list[tuple] = [()]

    def extend(start: int, current: tuple) -> None:
        for i in range(start, len(values)):
            v = values[i]
            if all(P.compare(v, w) == "||" for w in current):
                out.append(current + (v,))
                extend(i + 1, current + (v,))

    extend(0, ())
    return out


@functools.lru_cache(maxsize=None)
def canonical_day(day: int) -> tuple:
    """The distinct canonical forms born by ``day``: {L | R} over antichains of day-1 values
    (a dominated option never matters, so antichains reach every value)."""
    if day == 0:
        return (ZERO,)
    prev = list(canonical_day(day - 1))
    chains = antichains(prev)
    return tuple({P.canonical_form(pgame(l, r)).id: P.canonical_form(pgame(l, r))
                  for l in chains for r in chains}.values())


def random_forms(count: int, seed: int, pool: list | None = None, k: int = 3) -> list:
    rng = random.Random(seed)
    pool = pool or DAY2
    return [pgame(rng.sample(pool, rng.randint(0, k)), rng.sample(pool, rng.randint(0, k)))
            for _ in range(count)]


# -- (a) comparison against the definition -----------------------------------------------------------
@functools.lru_cache(maxsize=None)
def right_first_wins(x, y) -> bool:
    """Right, moving first in the literal difference x - y, wins: a Right move is x^R - y or
    x - y^L (Right's moves in -y are the negatives of y's Left moves)."""
    moves = [(xr, y) for xr in x.right] + [(x, yl) for yl in y.left]
    return any(not left_first_wins(a, b) for a, b in moves)


@functools.lru_cache(maxsize=None)
def left_first_wins(x, y) -> bool:
    moves = [(xl, y) for xl in x.left] + [(x, yr) for yr in y.right]
    return any(not right_first_wins(a, b) for a, b in moves)


def brute_ge(g, h) -> bool:
    """G >= H iff Right moving first in G - H loses (the definition of the order; CGT II.1)."""
    return not right_first_wins(g, h)


def test_le_matches_the_definition_on_all_pairs_born_by_day_2():
    assert len(DAY2) == 256
    for g, h in itertools.product(DAY2, repeat=2):
        assert P.le(g, h) == brute_ge(h, g), (g, h)


def test_le_matches_the_definition_on_random_day_3_forms():
    forms = random_forms(120, seed=3)
    for g in forms:
        for h in forms + DAY2[::4]:
            assert P.le(g, h) == brute_ge(h, g)
            assert P.le(h, g) == brute_ge(g, h)


def test_le_on_canonical_forms_matches_the_definition():
    """Canonical forms compare with shortcuts from their stops; check them against the
    definition on values born by day 3."""
    day3 = canonical_day(3)
    rng = random.Random(29)
    for _ in range(20000):
        g, h = rng.choice(day3), rng.choice(day3)
        assert P.le(g, h) == brute_ge(h, g), (g, h)
    for g in day3[::7]:
        for h in canonical_day(2):
            assert P.le(g, h) == brute_ge(h, g) and P.le(h, g) == brute_ge(g, h)


def test_compare_and_outcome():
    star = nimber(1)
    assert P.compare(up, ZERO) == ">" and P.compare(down, ZERO) == "<"
    assert P.compare(up, star) == "||" and P.compare(star + star, ZERO) == "="
    assert P.compare(up + star, ZERO) == "||"                 # ↑* is fuzzy (WW ch. 3)
    assert P.compare(up + up + star, ZERO) == ">"              # ⇑* > 0 (WW ch. 3)
    assert [P.outcome(x) for x in (integer(1), integer(-1), ZERO, star, switch(1))] == list("LRPNN")
    assert P.equal(pgame([1], [2]), dyadic(3, 2))              # simplicity: {1|2} = 3/2 (ONAG ch. 2)
    assert up > 0 and down < 0 and not (star > 0) and not (star <= 0) and up >= up
    assert cg.compare(cg.parse("{1|0}"), cg.dyadic(1, 2)).relation == "||"


def test_deep_forms_compare_and_canonicalise_without_recursion():
    chain = ZERO
    for _ in range(6000):
        chain = pgame([chain], [])        # the literal chain {{{0|}|}|} ... = 6000
    assert P.canonical_form(chain) is chain is integer(6000)
    assert P.le(chain, integer(6001)) and not P.le(integer(6001), chain)
    tall, top = ZERO, integer(5000)
    for i in range(3000):
        tall = pgame([tall, ZERO], [top])             # not canonical: numbers all the way
    assert P.number_value(tall) == 3000


# -- (b) canonical forms ----------------------------------------------------------------------------
def test_canonical_forms_born_by_day_2_are_22_values():
    """22 values are born by day 2 (WW ch. 4, Siegel CGT II.2 / table of games born by day 2)."""
    canon = {id(P.canonical_form(g)) for g in DAY2}
    assert len(canon) == 22
    assert set(map(id, canonical_day(2))) == canon
    assert len(canonical_day(1)) == 4                          # 0, *, 1, -1


def test_canonical_form_is_equal_and_equal_values_share_it():
    cf = {g: P.canonical_form(g) for g in DAY2}
    for g in DAY2:
        c = cf[g]
        assert brute_ge(g, c) and brute_ge(c, g)               # same value, by the definition
        assert P.canonical_form(c) is c                        # idempotent
    for g, h in itertools.product(DAY2, repeat=2):
        assert (cf[g] is cf[h]) == (brute_ge(g, h) and brute_ge(h, g))
    for g in random_forms(150, seed=5):
        c = P.canonical_form(g)
        assert brute_ge(g, c) and brute_ge(c, g)


def test_1474_values_born_by_day_3_and_all_canonical():
    """1474 values are born by day 3 (Siegel CGT II.2, the count of games born by day 3; WW
    ch. 4 credits Dan Calistrate)."""
    day3 = canonical_day(3)
    assert len(day3) == 1474
    for c in day3:
        # no dominated options
        assert not any(P.le(a, b) for a in c.left for b in c.left if a is not b)
        assert not any(P.le(a, b) for a in c.right for b in c.right if a is not b)
        # no reversible options
        assert not any(P.le(ar, c) for a in c.left for ar in a.right)
        assert not any(P.le(c, al) for a in c.right for al in a.left)
        assert P.canonical_form(c) is c and P.is_canonical(c)


def test_sums_and_negatives_of_canonical_forms():
    day3 = canonical_day(3)
    rng = random.Random(7)
    for _ in range(150):
        g, h = rng.choice(day3), rng.choice(day3)
        s = P.canonical_form(g + h)
        assert s is P.canonical_sum(g, h) is P.canonical_sum(h, g)
        assert P.equal(s, g + h)
        assert P.canonical_form(-g) is negative(g)
        assert P.canonical_form(g - g) is ZERO                 # G - G = 0
    # a sum of non-canonical forms goes through its canonical parts
    a, b = random_forms(2, seed=11)
    assert P.canonical_form(a + b) is P.canonical_sum(P.canonical_form(a), P.canonical_form(b))


def test_uptimal_forms_are_canonical_sums():
    """x + n.↑ + *m built directly equals the canonical form of the literal sum (WW ch. 3,
    CGT II.4: n.↑ = {0 | (n-1).↑*}, n.↑* = {0 | (n-1).↑}, ↑* = {0,* | 0})."""
    assert N.uptimal(0, 1, 0) is up and N.uptimal(0, -1, 0) is down
    assert N.uptimal(0, 1, 1) is pgame([0, nimber(1)], [0])
    assert N.uptimal(0, 2, 0) is pgame([0], [N.uptimal(0, 1, 1)])
    assert N.uptimal(0, 2, 1) is pgame([0], [up])
    for x in (F(0), F(2), F(-3, 4)):
        for n in range(-4, 5):
            for m in range(0, 5):
                literal = N.number_form(x) + nimber(m)
                for _ in range(abs(n)):
                    literal = literal + (up if n > 0 else down)
                c = P.canonical_form(literal)
                assert c is N.uptimal(x, n, m)
                assert N.uptimal_parts(c) == (x, n, m)
    assert N.uptimal_parts(switch(1)) is None


# -- numbers ----------------------------------------------------------------------------------------------
def test_numbers_by_the_simplicity_rule():
    """ONAG ch. 2 / CGT II.3: {a | b} with numbers a < b is the simplest number between."""
    assert P.number_value(pgame([0], [1])) == F(1, 2)
    assert P.number_value(pgame([1], [2])) == F(3, 2)
    assert P.number_value(pgame([dyadic(1, 2)], [1])) == F(3, 4)
    assert P.number_value(pgame([-1], [3])) == 0
    assert P.number_value(pgame([dyadic(1, 4)], [dyadic(3, 4)])) == F(1, 2)
    assert P.number_value(pgame([nimber(1)], [])) == 0         # {*|} = 0
    assert P.number_value(pgame([up], [])) == 1                # {↑|} = 1
    assert P.number_value(up) is None and not P.is_number(switch(1))
    assert N.simplest_number(F(5, 8), F(3, 4)) == F(11, 16)
    assert N.simplest_number(None, F(-5, 2)) == -3
    with pytest.raises(ValueError):
        N.simplest_number(1, 1)
    assert P.nimber_value(pgame([0, nimber(1)], [0, nimber(1)])) == 2 and P.nimber_value(up) is None


# -- (c) values from the sources ---------------------------------------------------------------------
def test_known_small_values():
    star = nimber(1)
    assert P.canonical_form(pgame([0], [star])) is up                      # ↑ = {0|*} (WW ch. 3)
    assert P.canonical_form(up + up + star) is pgame([0], [up])             # ⇑* = {0|↑} (WW ch. 3)
    assert P.canonical_form(up + up) is pgame([0], [pgame([0, star], [0])])  # ⇑ = {0|↑*} (WW ch. 3)
    assert P.canonical_form(up + star) is pgame([0, star], [0])             # ↑* = {0,*|0}
    assert P.canonical_form(star + star) is ZERO
    assert P.canonical_form(pgame([1], [1])) is N.uptimal(1, 0, 1)          # 1* = {1|1}
    assert P.canonical_form(switch(1) + switch(1)) is ZERO                  # -(±1) = ±1
    # ±2 ± 1 = {{3|1} | {-1|-3}}: mean 0, temperature 2 (WW ch. 6: the hotter switch decides)
    assert T.mean(switch(2) + switch(1)) == 0 and T.temperature(switch(2) + switch(1)) == 2


def test_hot_games_mean_and_temperature():
    """{a|b} with numbers a > b: mean (a+b)/2 and temperature (a-b)/2 (WW ch. 6, CGT II.5)."""
    g = pgame([1], [0])
    assert T.mean(g) == F(1, 2) and T.temperature(g) == F(1, 2)
    assert T.left_stop(g) == 1 and T.right_stop(g) == 0
    pm1 = switch(1)
    assert T.temperature(pm1) == 1 and T.mean(pm1) == 0
    assert T.cool(pm1, 1) is nimber(1) and T.cool(pm1, 2) is ZERO and T.cool(pm1, F(1, 2)) is switch(dyadic(1, 2))
    for a, b in [(3, -1), (F(5, 2), F(1, 4)), (0, -4)]:
        h = pgame([N.number_form(a)], [N.number_form(b)])
        assert T.mean(h) == F(a + b) / 2 and T.temperature(h) == F(a - b) / 2


# The CGSuite test table (CGSUITE above): input, printed canonical form, left stop, right stop,
# mean, temperature, thermograph, atomic weight ("-" when CGSuite says "not atomic"), outcome
# class, birthday.
CGSUITE = [
    ("0", "0", "0", "0", "0", "-1", "Thermograph(0,[],[0],0,[],[0])", "0", "P", 0),
    ("5", "5", "5", "5", "5", "-1", "Thermograph(5,[],[0],5,[],[0])", "-", "L", 5),
    ("-1/2", "-1/2", "-1/2", "-1/2", "-1/2", "-1/2", "Thermograph(-1/2,[-1/2],[0,-1],-1/2,[-1/2],[0,1])", "-", "R", 2),
    ("25/16", "25/16", "25/16", "25/16", "25/16", "-1/16",
     "Thermograph(25/16,[-1/16,-1/2],[0,-1,0],25/16,[-1/16,-1/8,-1/2],[0,1,0,1])", "-", "L", 6),
    ("*8", "*8", "0", "0", "0", "0", "Thermograph(0,[0],[0,-1],0,[0],[0,1])", "0", "N", 8),
    ("9/8+*", "9/8*", "9/8", "9/8", "9/8", "0",
     "Thermograph(9/8,[0,-1/8,-1/4],[0,-1,0,-1],9/8,[0,-1/8],[0,1,0])", "-", "L", 6),
    ("^", "^", "0", "0", "0", "0", "Thermograph(0,[0],[0,-1],0,[],[0])", "1", "L", 2),
    ("v*", "v*", "0", "0", "0", "0", "Thermograph(0,[0],[0,-1],0,[0],[0,1])", "-1", "N", 2),
    ("6+^*", "6^*", "6", "6", "6", "0", "Thermograph(6,[0],[0,-1],6,[0],[0,1])", "-", "L", 8),
    ("^*6", "^*6", "0", "0", "0", "0", "Thermograph(0,[0],[0,-1],0,[],[0])", "1", "L", 8),
    ("73/16+v9*8", "73/16v9*8", "73/16", "73/16", "73/16", "0",
     "Thermograph(73/16,[-1/16,-1/2],[0,-1,0],73/16,[0,-1/16,-1/2],[0,1,0,1])", "-", "L", 27),
    ("{0|*||*|||*||||*}", "^[4]", "0", "0", "0", "0", "Thermograph(0,[0],[0,-1],0,[],[0])", "1", "L", 5),
    ("{0||0|v*}", "{0|^<2>}", "0", "0", "0", "0", "Thermograph(0,[0],[0,-1],0,[],[0])", "1", "L", 4),
    ("{0||0,v*|vv|||{0||0,v*|vv|||vv,{0,v*|vv}},{0||0,v*|vv}|{0||0,v*|vv|||vv,{0,v*|vv}||||vv}}", None,
     "0", "0", "0", "0", "Thermograph(0,[0],[0,-1],0,[],[0])", "0", "L", 9),
    ("{0,*,*2,*3,{0,*,*2,*3,*4||*4,v*5|vv*4}||{0,*,*2,*3,*4||*4,v*5|vv*4|||vv*4,{*4,v*5|vv*4}},"
     "{0,*,*2,*3,*4||*4,v*5|vv*4}|{0,*,*2,*3,*4||*4,v*5|vv*4|||vv*4,{*4,v*5|vv*4}||||vv*4}}", None,
     "0", "0", "0", "0", "Thermograph(0,[0],[0,-1],0,[0],[0,1])", "0", "N", 12),
    ("{0||0|vvv}", "{0||0|v3}", "0", "0", "0", "0", "Thermograph(0,[0],[0,-1],0,[],[0])", "0", "L", 6),
    ("{^^^|vv}", "{^3|vv}", "0", "0", "0", "0", "Thermograph(0,[0],[0,-1],0,[0],[0,1])", "{1|0}", "N", 5),
    ("{0||0|-3/2}", "Tiny(3/2)", "0", "0", "0", "0", "Thermograph(0,[0],[0,-1],0,[],[0])", "0", "L", 5),
    ("{0|||0||-1|-3}", "Tiny({3|1})", "0", "0", "0", "0", "Thermograph(0,[0],[0,-1],0,[],[0])", "0", "L", 6),
    ("{5||3|1|||0||||0}", "Miny({5||3|1})", "0", "0", "0", "0", "Thermograph(0,[],[0],0,[0],[0,1])", "0", "R", 8),
    ("{1|^^||^}", "{1|^^||^}", "0", "0", "0", "0", "Thermograph(0,[0],[0,-1],0,[],[0])", "2", "L", 5),
    ("{1|^^^||^}", "{1|^3||^}", "0", "0", "0", "0", "Thermograph(0,[0],[0,-1],0,[],[0])", "-", "L", 6),
    ("{3||2+*|1+*}", "{3||2*|1*}", "3", "2", "9/4", "3/4",
     "Thermograph(9/4,[3/4],[0,-1],9/4,[3/4,1/2,0],[0,1,0,1])", "-", "L", 5),
    ("{3/2+*|1/2||{0|-3},{-1+*,{-1/2|-1+*}|-5/2}}", "{3/2*|1/2||{0|-3},{-1*,{-1/2|-1*}|-5/2}}",
     "1/2", "-1", "-5/16", "21/16",
     "Thermograph(-5/16,[21/16,1/2,-1/2],[0,-1,0,-1],-5/16,[21/16,7/8,1/4,0],[0,1,0,1,0])", "-", "N", 6),
]


@pytest.mark.parametrize("row", CGSUITE, ids=[r[0][:30] for r in CGSUITE])
def test_cgsuite_reference_values(row):
    text, printed, ls, rs, mean, temp, therm, aw, outcome, birthday = row
    g = cg.parse_partizan(text)
    c = cg.canonical_form(g)
    assert c.birthday == birthday
    assert (cg.left_stop(g), cg.right_stop(g)) == (F(ls), F(rs))
    assert cg.mean(g) == F(mean) and cg.temperature(g) == F(temp)
    assert str(cg.thermograph(g)) == therm
    assert cg.outcome(g) == outcome
    if aw == "-":
        with pytest.raises(NotAtomicError, match="not infinitesimal|not atomic"):
            cg.atomic_weight(g)
    else:
        assert cg.atomic_weight(g) is cg.canonical_form(cg.parse_partizan(aw))
    # cooling to the temperature freezes: the stops meet at the mean
    if not P.is_number(c):
        frozen = T.cool(c, F(temp))
        assert T.left_stop(frozen) == T.right_stop(frozen) == F(mean)


def test_thermograph_of_2_1_0():
    """{2 || 1 | 0}: Right's option {1|0} has temperature 1/2 and mean 1/2; the walls
    LW(t) = 2 - t and RW(t) = 1 (t <= 1/2), 1/2 + t above, meet at t = 3/4, mast 5/4 (the
    scaffold construction of WW ch. 6 / CGT II.5, computed by hand)."""
    th = T.thermograph(cg.parse("{2 || 1 | 0}"))
    assert th.mast == F(5, 4) and th.temperature == F(3, 4)
    assert th.left_wall == ((F(-1), F(3)), (F(3, 4), F(5, 4)))
    assert th.right_wall == ((F(-1), F(1)), (F(1, 2), F(1)), (F(3, 4), F(5, 4)))
    assert th.left_at(0) == 2 and th.right_at(0) == 1 and th.right_at(5) == F(5, 4)
    assert th.to_dict() == {"mast": "5/4", "temperature": "3/4",
                            "left_wall": [["-1", "3"], ["3/4", "5/4"]],
                            "right_wall": [["-1", "1"], ["1/2", "1"], ["3/4", "5/4"]]}
    with pytest.raises(ValueError, match="t >= -1"):
        th.left_at(-2)


def test_thermograph_plot():
    import matplotlib

    matplotlib.use("Agg")
    ax = T.thermograph(cg.parse("{2 || 1 | 0}")).plot()
    assert ax.xaxis_inverted() and len(ax.lines) >= 3
    # titled (issue 23): {2||1|0} has mean 5/4 and temperature 3/4 (cooled by t, the left wall
    # is 2 - t; {1|0} freezes to 1/2 at t = 1/2, so the right wall is 1/2 + t past it; they meet
    # at t = 3/4, value 5/4: Winning Ways ch. 6)
    assert ax.get_title() == "thermograph: mean 5/4, temperature 3/4"
    ax = T.thermograph(cg.parse("{2 || 1 | 0}")).plot(title="{2||1|0}")
    assert ax.get_title().splitlines()[0] == "{2||1|0}"
    import matplotlib.pyplot as plt

    plt.close("all")


def test_walls_are_the_stops_of_the_cooled_game_and_means_add():
    """LW(t) = LS(G_t) and RW(t) = RS(G_t) (the definition of the thermograph, CGT II.5),
    checked on every value born by day 3 against cooling computed on canonical forms; and
    mean(G + H) = mean(G) + mean(H) (WW ch. 6, CGT II.5)."""
    day3 = canonical_day(3)
    temps = [F(-1, 2), F(-1, 4), F(0), F(1, 4), F(1, 2), F(3, 4), F(1), F(2)]
    for c in day3[::3]:
        th = T.thermograph(c)
        for t in temps:
            ct = T.cool(c, t)
            assert T.left_stop(ct) == th.left_at(t), (c, t)
            assert T.right_stop(ct) == th.right_at(t), (c, t)
        assert T.left_stop(c) == th.left_at(0) and T.right_stop(c) == th.right_at(0)
        assert th.temperature >= 0 or P.is_number(c)
    rng = random.Random(13)
    for _ in range(120):
        g, h = rng.choice(day3), rng.choice(day3)
        assert T.mean(g + h) == T.mean(g) + T.mean(h)


def test_cooling_refuses_bad_temperatures():
    with pytest.raises(ValueError, match="> -1"):
        T.cool(up, -1)
    with pytest.raises(ValueError, match="dyadic"):
        T.cool(up, F(1, 3))
    assert T.cool(integer(3), 5) is integer(3)
    assert T.cool(cg.parse("{3 || 2* | 1*}"), dyadic(3, 4)) is N.uptimal(F(9, 4), 0, 1)   # freeze: 9/4* (CGSUITE)


# -- atomic weight -----------------------------------------------------------------------------------------
def test_atomic_weights_of_ups_and_stars():
    """aw(n.↑ + *m) = n (WW ch. 8; CGT II.7)."""
    for n in range(-4, 5):
        for m in range(0, 5):
            assert AW.atomic_weight(N.uptimal(0, n, m)) is integer(n)
    assert AW.atomic_weight(up) is integer(1)
    assert AW.atomic_weight(nimber(7)) is ZERO
    with pytest.raises(NotAtomicError, match="not infinitesimal"):
        AW.atomic_weight(switch(1))
    assert AW.atomic_weight(cg.parse("Tiny(1)")) is ZERO  # tinies weigh 0 (CGSuite)
    with pytest.raises(NotAtomicError, match="not atomic"):
        AW.atomic_weight(cg.parse("{1|^^^||^}"))


def test_atomic_weight_is_additive_and_the_two_ahead_rule_holds():
    """On all-small values born by day 3: aw(G + H) = aw(G) + aw(H) (CGT II.7), and the
    two-ahead rule: aw(G) >= 2 implies G > 0, aw(G) <= -2 implies G < 0, aw(G) >= 1 implies
    Left wins moving first (WW ch. 8; CGT II.7)."""
    small = [c for c in canonical_day(3) if AW.is_all_small(c)]
    assert len(small) > 40
    weights = {c: AW.atomic_weight(c) for c in small}
    for c, w in weights.items():
        assert AW.is_all_small(c) and AW.is_infinitesimal(c)
        if P.le(integer(2), w):
            assert P.outcome(c) == "L"
        if P.le(w, integer(-2)):
            assert P.outcome(c) == "R"
        if P.le(integer(1), w):
            assert P.outcome(c) in "LN"
    rng = random.Random(17)
    for _ in range(150):
        g, h = rng.choice(small), rng.choice(small)
        assert AW.atomic_weight(g + h) is P.canonical_sum(weights[g], weights[h]), (g, h)


def test_eccentric_atomic_weights():
    """The eccentric case (G° an integer, WW ch. 8 / CGT II.7): aw(↑) goes through it —
    G° = {0 - 2 | aw(*) + 2} = {-2 | 2} = 0 is an integer and ↑ > ☆ = *2, so aw is the
    greatest integer n with n <| 2, i.e. 1."""
    g0 = P._from_canonical_options([N.number_form(-2)], [N.number_form(2)])
    assert g0 is ZERO
    assert P.compare(up, nimber(2)) == ">" and AW.atomic_weight(up) is integer(1)
    # {0 | ↓}: G° = {-2 | -1 + 2} = {-2 | 1} = 0, and {0|↓} || *2 so aw = 0
    g = pgame([0], [down])
    assert P.compare(g, nimber(2)) == "||" and AW.atomic_weight(g) is ZERO


def test_infinitesimal_and_all_small_predicates():
    assert AW.is_infinitesimal(up) and AW.is_infinitesimal(ZERO) and not AW.is_infinitesimal(switch(1))
    assert AW.is_infinitesimal(cg.parse("Tiny(2)")) and not AW.is_all_small(cg.parse("Tiny(2)"))
    assert AW.is_all_small(up + nimber(3)) and not AW.is_all_small(integer(1))
