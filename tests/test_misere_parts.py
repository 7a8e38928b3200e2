"""Parts, primes and partitions of misère games (cgtalg.misere.parts; Conway, ONAG ch. 12,
"The mate, parts and partitions"; CGSuite's MisereCanonicalGame Parts / Partitions / IsPrime).

How far a brute force can go
----------------------------
There is no small birthday bound on the parts of a game: ``{*2}`` (born on day 3) is
``*2 + K`` with ``K = {0, {*2}, {*2} + *1}`` born on day 5 (CGSuite's ``*[2[#-2]]``), because the
sum ``*2 + K`` simplifies. So a search among the games born by day ``b(G)`` (or ``b(G) + 1``) is
*not* exhaustive, and the games born by day 5 (4171780 of them) cannot be listed as forms. What
can be checked exhaustively is every decomposition inside a finite universe: for *all* pairs
``(H, K)`` of games born by day 4 (22 x 22 = 484 pairs, covering every sum of two games born by
day 3 and every game born by day 4 as ``G + 0``), ``(H, K)`` must be among ``misere_parts(H + K)``,
and likewise for ``H`` born by day 4 and ``K`` any sum of two such games (5324 pairs). The
parts outside any such universe are checked by closure identities computed independently
(parts of parts are parts; the parts are exactly the sub-sums of the partitions), by CGSuite's
published values, and by the facts the algorithm rests on (simplification lemma, cancellation,
units, parity), each brute-forced on the day-4 games and their sums.
"""

from __future__ import annotations

import itertools

import pytest

import cgtalg as cg
from cgtalg.errors import CgtalgError, ComputationLimitError, GameNotationError
from cgtalg.misere.canonical import (
    MisereCanonicalForm,
    misere_canonical_sum_game,
    misere_canonical,
    misere_canonical_game,
    misere_simplest,
)
from cgtalg.misere.census import misere_games_born_by
from cgtalg.misere.parts import (
    MiserePart,
    _Budget,
    _compute_map,
    _even_map,
    _key,
    misere_is_even,
    misere_is_prime,
    misere_partitions,
    misere_parts,
)

S = misere_canonical_sum_game
ZERO, ONE = cg.nim(0), cg.nim(1)
DAY4 = [f.game for f in misere_games_born_by(4)]
DAY3 = [f.game for f in misere_games_born_by(3)]
SUMS2 = list({S(a, b).id: S(a, b) for a in DAY4 for b in DAY4}.values())  # 242 games
POOL = list({g.id: g for g in DAY4 + SUMS2}.values())


def C(text: str):
    return misere_canonical_game(text)


def part_map(g) -> dict[int, object]:
    """id of the part -> counterpart (a Game)."""
    out = {}
    for p in misere_parts(g, limit=None):
        assert p.part.game.id not in out, "a part listed twice"
        out[p.part.game.id] = p.counterpart.game
    return out


def minus(g, h):
    """The counterpart g - h (the test fails if h is not a part of g)."""
    return part_map(g)[h.id]


def even_part(g):
    return g if misere_is_even(g) else S(g, ONE)


def total(games):
    t = ZERO
    for x in games:
        t = S(t, x)
    return t


# -- (a) every part with its counterpart sums back ----------------------------------------------
def test_every_part_sums_back_to_the_game():
    for g in POOL:
        parts = misere_parts(g, limit=None)
        ids = {p.part.game.id for p in parts}
        for p in parts:
            h, k = p
            assert S(h.game, k.game) is g
            assert k.game.id in ids  # the counterpart is a part too
        # the trivial parts 0, *1, G, G + *1 are always there
        assert {ZERO.id, ONE.id, g.id, S(g, ONE).id} <= ids


def test_part_records_and_flags():
    g = C("{*2}")
    parts = misere_parts(g)
    assert all(isinstance(p, MiserePart) for p in parts)
    assert [p.part.game for p in parts if p.is_trivial] == [ZERO, ONE, g, S(g, ONE)]
    proper = misere_parts(g, proper=True)
    assert {p.part.game.id for p in proper} == {p.part.game.id for p in parts if not p.is_trivial}
    even = misere_parts(g, proper=True, even=True)
    assert len(proper) == 2 * len(even) == 4
    assert all(misere_is_even(p.part) for p in even)
    h, k = even[0]
    assert str(even[0]) == f"{h} + {k}" == "*[2] + *[2[#1]2#0]"
    assert isinstance(h, MisereCanonicalForm) and h + k == misere_canonical(g)


# -- (b) completeness by brute force ---------------------------------------------------------
def test_every_pair_of_day4_games_is_found():
    # exhaustive inside the universe of the 22 games born by day 4: all 484 ordered pairs
    for h, k in itertools.product(DAY4, DAY4):
        m = part_map(S(h, k))
        assert m.get(h.id) is k, (str(misere_canonical(h)), str(misere_canonical(k)))


def test_day4_times_sums_of_two_day4_games_are_found():
    # 22 x 242 = 5324 decompositions of sums of three games born by day 4
    for h, k in itertools.product(DAY4, SUMS2):
        assert part_map(S(h, k)).get(h.id) is k


def test_parts_born_after_the_game_are_found():
    # {*2} = *2 + K with K born on day 5: out of reach of any search by birthday
    g = C("{*2}")
    k = minus(g, cg.nim(2))
    assert k.birthday == 5 > g.birthday
    assert k is misere_simplest([ZERO, g, S(g, ONE)])
    assert S(cg.nim(2), k) is g
    # ...and the game with all the day-4 games as summands finds no such pair
    assert not [x for x in DAY4 if S(cg.nim(2), x) is g]


def test_parts_of_parts_are_parts():
    # closure: H part of G with counterpart K, A part of H with counterpart B => A part of G
    # with counterpart B + K. parts(H) and parts(G) are computed independently.
    for g in POOL:
        mg = part_map(g)
        for hid, k in list(mg.items()):
            h = next(p.part.game for p in misere_parts(g) if p.part.game.id == hid)
            for a, b in misere_parts(h):
                assert mg.get(a.game.id) is S(b.game, k)


def test_parts_are_the_subsums_of_the_partitions():
    # G = H + K: partitions of H and of K join to a partition of G, so the even parts of G are
    # exactly the even parts of the sub-sums of its partitions
    for g in POOL:
        even_parts = {p.part.game.id for p in misere_parts(g, even=True)}
        subsums = set()
        for partition in misere_partitions(g):
            primes = [x.game for x in partition]
            for r in range(len(primes) + 1):
                for sub in itertools.combinations(primes, r):
                    subsums.add(even_part(total(sub)).id)
        assert subsums == even_parts, str(misere_canonical(g))


# -- the facts the algorithm rests on, brute-forced ---------------------------------------------
def test_options_of_a_sum_come_from_the_sum():
    # (A): every option of c(H + K) is c(H' + K) or c(H + K') (a reducer's options are a subset)
    for h in DAY4:
        for k in DAY4 + SUMS2[:60]:
            t = {S(x, k).id for x in h.options} | {S(h, y).id for y in k.options}
            g = S(h, k)
            assert {o.id for o in g.options} <= t
            # ...and the members of T that are not options of G have G as an option
            extra = t - {o.id for o in g.options}
            opts = {x.id: x for x in [S(x, k) for x in h.options] + [S(h, y) for y in k.options]}
            assert all(g in opts[i].options for i in extra)


def test_cancellation_and_units():
    # Conway: G + H = G + K implies H = K; G + H = 0 only for G = H = 0 or G = H = *1
    for a in DAY4:
        seen = {}
        for b in DAY4 + SUMS2[:40]:
            s = S(a, b).id
            assert seen.setdefault(s, b.id) == b.id
        for b in DAY4:
            if S(a, b) is ZERO:
                assert a is b and a in (ZERO, ONE)


def test_parity():
    # the birthdays of G and G + *1 differ by exactly one; even + even is even
    for g in POOL:
        assert abs(S(g, ONE).birthday - g.birthday) == 1
        assert misere_is_even(g) != misere_is_even(S(g, ONE))
    evens = [g for g in DAY4 if misere_is_even(g)]
    for a, b in itertools.product(evens, evens):
        assert misere_is_even(S(a, b))
    assert [misere_is_even(cg.nim(n)) for n in range(6)] == [True, False, True, False, True, False]


def test_shortcut_for_games_with_a_unit_option_agrees_with_the_general_step():
    # ONAG: a game with 0 or *1 as an option is prime or a unit. The module skips the search
    # for such games; the general step must find only the trivial parts too.
    for g in POOL:
        if g is ZERO or g is ONE or not (ZERO in g.options or ONE in g.options):
            continue
        e = even_part(g)
        shortcut = _even_map(e, _Budget(None, "test"))
        for o in e.options:
            _even_map(even_part(o), _Budget(None, "test"))
        general = _compute_map(e, _Budget(None, "test"))
        assert set(general) == set(shortcut) and len(general) == 4
        assert misere_is_prime(g)


def test_filters_do_not_lose_pairs():
    # the pair step's cheap filters (Grundy values, option conditions) against testing every
    # pair of U x U with a canonical sum
    from cgtalg.misere.parts import _map_of

    for g in POOL:
        e = even_part(g)
        universe = {}
        for o in e.options:
            for h, _ in _map_of(o, _Budget(None, "test")).values():
                universe[h.id] = h
        found = part_map(e)
        for x, y in itertools.product(universe.values(), universe.values()):
            if S(x, y) is e:
                assert found.get(x.id) is y


@pytest.mark.slow
def test_random_day5_games_closure_and_subsums():
    # 261 random games born by day 5 (seeded), each added to 8 others: the first summand is
    # found, parts of a summand are parts of the sum, parts = sub-sums of the partitions (~10 s)
    import random

    rng = random.Random(7)
    day5 = list({g.id: g for g in (misere_simplest(rng.sample(DAY4, rng.randint(1, 8)))
                                   for _ in range(300))}.values())
    for a in day5:
        for b in rng.sample(day5, 5) + rng.sample(DAY4, 3):
            g = S(a, b)
            m = part_map(g)
            assert m.get(a.id) is b
            for x, y in part_map(a).items():
                assert m[x] is S(y, b)
            even_parts = {p.part.game.id for p in misere_parts(g, even=True)}
            subsums = set()
            for partition in misere_partitions(g, limit=None):
                primes = [x.game for x in partition]
                for r in range(len(primes) + 1):
                    for sub in itertools.combinations(primes, r):
                        subsums.add(even_part(total(sub)).id)
            assert subsums == even_parts


# -- (c) Norton's example --------------------------------------------------------------------
def test_norton_example_has_two_partitions():
    # ONAG ch. 12 (Norton's observation that partitions are not unique); CGSuite's
    # MisereCanonicalGameTestCase "Multiple partitions" and its misère tutorial:
    # *[4[2#]].Partitions == [[*[2],*[4[2#-2]]],[*[4],*[4[2#-4]]]]
    g = C("*[4[2#]]")
    assert g is C("{*4+*2}")
    two, four = cg.nim(2), cg.nim(4)
    x2, x4 = minus(g, two), minus(g, four)  # CGSuite's *[4[2#-2]] and *[4[2#-4]]
    assert S(two, x2) is g and S(four, x4) is g
    got = [tuple(p.game for p in partition) for partition in misere_partitions(g)]
    assert got == [(two, x2), (four, x4)]
    assert all(misere_is_prime(x) and misere_is_even(x) for x in (two, x2, four, x4))
    assert [p.part.game for p in misere_parts(g, proper=True, even=True)] == [two, four, x2, x4]
    assert not misere_is_prime(g)


# -- CGSuite's published values ------------------------------------------------------------------
def _cgsuite_expected():
    """CGSuite's MisereCanonicalGameTestCase: (form, Parts, Partitions), with CGSuite's
    subtractions ``X-k`` rebuilt as counterparts."""
    g2, d = cg.nim(2), C("{*2}")
    dd = C("{{*2}}")
    d_2 = minus(d, g2)                    # *[2[#-2]]
    dd_2 = minus(dd, g2)                  # *[2[##-2]]
    dd_2_0 = misere_simplest([dd_2, ZERO])  # *[2[##-2]0]
    e = C("*[2[#2#]]")
    e_2 = minus(e, g2)                    # *[2[#2#-2]]
    return [
        ("*[0]", [], [()]),
        ("*[1]", [], [(ONE,)]),
        ("*[2]", [], [(g2,)]),
        ("*[2#]", [g2, d_2], [(g2, d_2)]),
        ("*[2##]", [g2, dd_2, d, dd_2_0, d_2, S(dd_2_0, g2)], [(g2, d_2, dd_2_0)]),
        ("*[2[2]]", [g2], [(g2, g2)]),
        ("*[2[#2#]]", [g2, e_2, d, S(g2, g2), minus(e_2, g2), d_2, S(d, g2)],
         [(g2, g2, d_2, d_2)]),
        ("*[2#0]", [], [(C("*[2#0]"),)]),
        ("*[2#1]", [], [(C("*[2#1]"),)]),
        ("*[(2#1)2##]", [], [(C("*[(2#1)2##]"),)]),
        ("*[((2#0)10)2##]", [], [(C("*[((2#0)10)2##]"),)]),
        ("*[((2#0)2[#1]2#)(2#1)[1]]", [], [(C("*[((2#0)2[#1]2#)(2#1)[1]]"),)]),
        ("*[(2#20)2[#1]1]", [], [(C("*[(2#20)2[#1]1]"),)]),
    ]


@pytest.mark.parametrize("form, parts, partitions", _cgsuite_expected(),
                         ids=[c[0] for c in _cgsuite_expected()])
def test_cgsuite_parts_partitions_and_primality(form, parts, partitions):
    g = C(form)
    got_parts = [p.part.game for p in misere_parts(g, proper=True, even=True)]
    assert sorted(x.id for x in got_parts) == sorted(x.id for x in parts)
    got = [tuple(x.game for x in p) for p in misere_partitions(g)]
    assert sorted(tuple(sorted(x.id for x in p)) for p in got) == \
        sorted(tuple(sorted(x.id for x in p)) for p in partitions)
    prime = g not in (ZERO, ONE) and not parts
    assert misere_is_prime(g) == prime


# -- (d) primes ----------------------------------------------------------------------------
def test_primes_among_the_day4_games():
    primes = [str(misere_canonical(g)) for g in DAY4 if misere_is_prime(g)]
    assert primes == ["*[2]", "*[3]", "*[2#0]", "*[2#1]", "*[2#20]", "*[2#21]", "*[2#30]",
                      "*[2#31]", "*[2#210]", "*[2#320]", "*[2#321]", "*[4]", "*[2#3210]"]
    # units are not prime; a game is prime iff G + *1 is; prime iff its only partition is itself
    for g in POOL:
        assert misere_is_prime(g) == misere_is_prime(S(g, ONE))
        parts = misere_partitions(g)
        e = even_part(g)
        alone = [(e,)] if e is g else [(e, ONE)]
        assert misere_is_prime(g) == ([tuple(x.game for x in p) for p in parts] == alone
                                      and g not in (ZERO, ONE))
    # brute force inside day 4: no two non-units born by day 4 add to a prime
    nonunits = [g for g in DAY4 if g not in (ZERO, ONE)]
    for a, b in itertools.product(nonunits, nonunits):
        assert not misere_is_prime(S(a, b))


def test_nim_heaps_are_prime():
    # *n has the option 0, so n >= 2 gives a prime (ONAG); checked against the general step
    assert not misere_is_prime(cg.nim(0)) and not misere_is_prime(cg.nim(1))
    assert all(misere_is_prime(cg.nim(n)) for n in range(2, 41))
    assert misere_is_prime(cg.nim(10**9))  # no options are listed
    assert [tuple(map(str, p)) for p in misere_partitions(cg.nim(7))] == [("*[6]", "*[1]")]
    # sums of heaps: *2 + *2 + *4 has exactly the partition (*2, *2, *4)
    g = total([cg.nim(2), cg.nim(2), cg.nim(5)])
    assert [tuple(x.game for x in p) for p in misere_partitions(g)] == \
        [(cg.nim(2), cg.nim(2), cg.nim(4), ONE)]


# -- (e) partitions multiply back -------------------------------------------------------------
def test_partitions_sum_back_and_are_normalised():
    for g in POOL:
        partitions = misere_partitions(g)
        assert partitions, "every game has a partition (ONAG ch. 12)"
        assert len(set(partitions)) == len(partitions)
        for p in partitions:
            games = [x.game for x in p]
            assert total(games) is g
            primes = games[:-1] if games and games[-1] is ONE and g is not ZERO else games
            if games and games[-1] is ONE:
                assert not misere_is_even(g)  # *1 closes a partition exactly for odd games
            else:
                assert misere_is_even(g)
            assert all(misere_is_even(x) and misere_is_prime(x) for x in primes if x is not ONE)
            keys = [_key(x) for x in primes]
            assert keys == sorted(keys)  # primes in the module's order: each multiset once
    assert misere_partitions(ZERO) == [()]
    assert misere_partitions(ONE) == [(misere_canonical(ONE),)]


def test_unique_partitions_of_small_sums():
    # every sum of two games born by day 4 has exactly one partition, and it is the union of
    # the summands' partitions (up to *1)
    for a, b in itertools.product(DAY4, DAY4):
        (pa,), (pb,), parts = misere_partitions(a), misere_partitions(b), misere_partitions(S(a, b))
        assert len(parts) == 1
        strip = [x.game for x in pa + pb if x.game is not ONE]
        assert sorted(x.id for x in strip) == sorted(x.game.id for x in parts[0] if x.game is not ONE)


# -- errors and limits ---------------------------------------------------------------------------
@pytest.mark.parametrize("bad", [5, None, 2.5, [cg.nim(2)], object()])
def test_non_games_are_rejected(bad):
    for f in (misere_parts, misere_is_prime, misere_partitions, misere_is_even):
        with pytest.raises(TypeError, match="expected|must be"):
            f(bad)


def test_bad_text_and_bad_limits():
    with pytest.raises(GameNotationError):
        misere_parts("{*2, ")
    with pytest.raises(TypeError, match="limit"):
        misere_parts(cg.nim(2), limit=2.0)
    with pytest.raises(TypeError, match="limit"):
        misere_partitions(cg.nim(2), limit=True)
    with pytest.raises(ValueError, match="at least 1"):
        misere_is_prime(cg.nim(2), limit=0)


def test_budget_stops_with_computation_limit_error():
    g = total([C("{*4+*2}"), C("*[2##]"), cg.nim(6)])
    with pytest.raises(ComputationLimitError, match="limit=5") as err:
        misere_partitions(g, limit=5)
    assert isinstance(err.value, CgtalgError)
    # a retry with a larger budget continues from what was memoised and gets the answer
    parts = misere_partitions(g, limit=None)
    assert all(total([x.game for x in p]) is g for p in parts)
    assert [len(p) for p in parts] == [6, 6]  # Norton's two partitions, times *[2##] and *6


def test_public_api_names():
    """The parts are public in cgtalg.misere (issue 33: not at the curated top level)."""
    import cgtalg.misere as M

    assert M.misere_parts is misere_parts
    assert M.misere_partitions is misere_partitions
    assert M.misere_is_prime is misere_is_prime
    assert M.misere_is_even is misere_is_even
    assert M.MiserePart is MiserePart
    for name in ("misere_parts", "misere_partitions", "misere_is_prime", "misere_is_even",
                 "MiserePart"):
        assert name in M.__all__
