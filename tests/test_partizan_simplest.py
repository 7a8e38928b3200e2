"""Misère simplest forms of partizan games among all games (cgtalg.misere.partizan_simplest).

Sources: Mesdal and Ottaway, "Simplification of partizan games in misère play", INTEGERS 7
(2007) #G06 (dominated and reversible options); Siegel, "Misère canonical forms of partizan
games", Games of No Chance 4 (MSRI Publ. 63, 2015) 225-239, arXiv math/0703565 (uniqueness of
simplest forms; 256 games born by day 2); Siegel, *Combinatorial Game Theory* (2013) §V.6
(Theorem V.6.16: the comparison test whose Proviso rules out reversal through an end).

Brute force independent of the library: the literal trees and misère play of test_doors.py
(``tree``, ``add``, ``outcome_of``, ``ALL_DAY2``: every form born by day 2 as a pair of
frozensets), so "G equals its simplest form" is checked as ``o⁻(G + X) = o⁻(S(G) + X)`` for
every X born by day 2, and "distinct simplest forms differ" by a game T whose sums with the two
forms are played out by the same code.
"""

from __future__ import annotations

import itertools
import json
import random

import pytest
from click.testing import CliRunner
from test_doors import _ORDER as ORDER, ALL_DAY2, ZERO_T, add, outcome_of, tree  # tests/ is on sys.path under pytest

import cgtalg as cg
from cgtalg.core.partizan import ZERO, integer, nimber, pgame
from cgtalg.errors import ArgumentTypeError, CertificateError, ComputationLimitError
from cgtalg.misere.partizan import misere_equal, misere_ge
from cgtalg.misere.partizan_canonical import partizan_misere_canonical_form
from cgtalg.misere.partizan_proof import check_misere_certificate
from cgtalg.misere.partizan_simplest import (
    SimplificationStep,
    is_misere_simplest,
    misere_simplest_form,
    misere_simplification,
    partizan_misere_count_born_by,
    partizan_misere_games_born_by,
)

S = misere_simplest_form
DAY2 = partizan_misere_games_born_by(2)


def misere_outcome_bf(g, x):
    """o⁻(G + X) by the test's own play of the literal sum."""
    return outcome_of(add(tree(g), x if isinstance(x, tuple) else tree(x)), True)


def signature(g, xs=ALL_DAY2):
    t = tree(g)
    return tuple(outcome_of(add(t, x), True) for x in xs)


def random_day3(rng, pool, k=3):
    """A form with up to k Left and k Right options drawn from pool (forms born by day 2)."""
    return pgame(rng.sample(pool, rng.randint(0, k)), rng.sample(pool, rng.randint(0, k)))


@pytest.fixture(scope="module")
def day3():
    """Random forms born by day 3: options from all 256 day-2 games, and from a pool of 7 games
    of the 40 most often comparable ones (so that many forms share a simplest form)."""
    rng = random.Random(20070425)
    degree = {g.id: 0 for g in DAY2}
    for a, b in itertools.permutations(DAY2, 2):
        if misere_ge(a, b):
            degree[a.id] += 1
            degree[b.id] += 1
    pool = rng.sample(sorted(DAY2, key=lambda g: (-degree[g.id], cg.format_partizan(g)))[:40], 7)
    # (the day-2 games in a fixed order, by their text: ids depend on what ran before)
    base = sorted(DAY2, key=cg.format_partizan)
    forms = [random_day3(rng, base) for _ in range(150)] + [random_day3(rng, pool, 4) for _ in range(150)]
    return list({g.id: g for g in forms}.values())


# -- published counts ----------------------------------------------------------------------------
def test_counts_born_by_day_0_1_2():
    # Siegel, "Misère canonical forms of partizan games" (GONC 4, 2015): 256 games born by day 2
    assert [partizan_misere_count_born_by(n) for n in range(3)] == [1, 4, 256]
    # day 1: 0, 1 = {0|}, -1 = {|0}, * = {0|0}, with the misère outcomes N, R, L, P (test's play)
    d1 = partizan_misere_games_born_by(1)
    assert [cg.format_partizan(g) for g in d1] == ["0", "1", "-1", "*"]
    assert [outcome_of(tree(g), True) for g in d1] == ["N", "R", "L", "P"]
    # ... pairwise incomparable, by the test's play against the games born by day 2
    for a, b in itertools.permutations(d1, 2):
        assert any((x, y) not in ORDER for x, y in zip(signature(a), signature(b))), (a, b)
    # day 2: every one of the 256 literal forms born by day 2 is simplest (they are the forms
    # whose options are day-1 games; no option is dominated or reversible)
    assert {tree(g) for g in DAY2} == set(ALL_DAY2)
    assert all(is_misere_simplest(g) for g in DAY2)


def test_day_3_and_bad_days_are_refused():
    with pytest.raises(ComputationLimitError, match="256 games born by day 2"):
        partizan_misere_games_born_by(3)
    for bad in (-1, 1.5, True, "2"):
        with pytest.raises(ArgumentTypeError):
            partizan_misere_games_born_by(bad)


def test_day_2_games_are_pairwise_distinct_by_play():
    """The 256 are pairwise misère-distinct, shown by play: games born by day 2 as X separate
    most pairs; the rest are separated by the certificate's T, replayed by the test's code."""
    sig = {}
    for g in DAY2:
        sig.setdefault(signature(g), []).append(g)
    assert len(sig) < 256  # X born by day 2 alone do not tell all of them apart
    replayed = 0
    for group in sig.values():
        for a, b in itertools.combinations(group, 2):
            r = misere_equal(a, b)
            assert not r
            t = r.distinguisher
            assert misere_outcome_bf(a, t) != misere_outcome_bf(b, t)
            replayed += 1
    assert replayed > 0


# -- simplest forms: equality iff identity -------------------------------------------------------
def test_equal_iff_identical_simplest_forms_day_2():
    # all pairs of the 256: none equal, all simplest forms distinct
    for a, b in itertools.combinations(DAY2, 2):
        assert not misere_equal(a, b)
    assert len({S(g).id for g in DAY2}) == 256


def test_equal_iff_identical_simplest_forms_random_day_3(day3):
    forms = day3 + DAY2[:40]
    equal_pairs = 0
    for a, b in itertools.combinations(forms, 2):
        same = S(a) is S(b)
        r = misere_equal(a, b)
        assert bool(r) == same, (a, b)
        if same:  # equal games play alike with every X born by day 2 (the test's own play)
            assert check_misere_certificate(r) and signature(a) == signature(b)
            equal_pairs += 1
    assert equal_pairs > 20  # the test exercises equal pairs, not only distinct ones


def test_each_game_equals_its_simplest_form_by_play(day3):
    reduced = [g for g in day3 if S(g) is not g]
    assert len(reduced) > 30
    for g in reduced[:40]:
        s = S(g)
        assert signature(g) == signature(s), g
        r = misere_equal(g, s)
        assert r and check_misere_certificate(r)


def test_distinct_simplest_forms_are_distinguished_by_play(day3):
    values = list({S(g).id: S(g) for g in day3}.values())
    rng = random.Random(7)
    pairs = list(itertools.combinations(values, 2))
    for a, b in rng.sample(pairs, 150):
        r = misere_equal(a, b)
        assert not r and check_misere_certificate(r)
        t = r.distinguisher
        assert misere_outcome_bf(a, t) != misere_outcome_bf(b, t)


def test_simplest_forms_are_simplest_and_no_older(day3):
    for g in day3:
        s = S(g)
        assert S(s) is s and is_misere_simplest(s)
        assert all(is_misere_simplest(x) for x in s.subpositions())   # hereditary
        assert s.birthday <= g.birthday
        # no end is created or destroyed: a side is empty iff it was (reversal through an end
        # is impossible among all games)
        assert (bool(s.left), bool(s.right)) == (bool(g.left), bool(g.right))


def test_only_zero_equals_zero():
    # G ≥ 0 forces G to be a Left end and 0 ≥ G a Right end (Proviso): G = 0 iff G is 0
    assert S(ZERO) is ZERO
    assert all(S(g) is not ZERO for g in DAY2 if g is not ZERO)
    assert S(integer(2) + integer(-2)) is not ZERO          # 2 + (-2) ≠ 0 among all games
    assert S(nimber(1) + nimber(1)) is nimber(1) + nimber(1)  # * + * is already simplest


# -- the steps and their certificates ------------------------------------------------------------
def _replayed(step):
    """The step's result rebuilt from the rule, independently of the library's bookkeeping."""
    g, a, w = step.before, step.option, step.witness
    if step.kind == "dominated":
        left = [o for o in g.left if o is not a] if step.side == "left" else list(g.left)
        right = [o for o in g.right if o is not a] if step.side == "right" else list(g.right)
    elif step.side == "left":
        left, right = [o for o in g.left if o is not a] + list(w.left), list(g.right)
    else:
        left, right = list(g.left), [o for o in g.right if o is not a] + list(w.right)
    return pgame(left, right)


def test_steps_follow_the_theorem_and_their_certificates_check(day3):
    kinds = set()
    for g in day3:
        s = misere_simplification(g)
        assert s.form is S(g)
        for step in s.steps:
            kinds.add((step.kind, step.side))
            assert _replayed(step) is step.after
            if step.kind == "dominated":
                assert step.option in (step.before.left if step.side == "left" else step.before.right)
                assert step.witness in (step.before.left if step.side == "left" else step.before.right)
            else:
                assert step.option in (step.before.left if step.side == "left" else step.before.right)
                assert step.witness in (step.option.right if step.side == "left" else step.option.left)
                # the reversing option is never an end for the bypassing player
                assert step.witness.left if step.side == "left" else step.witness.right
            r = step.comparison()
            a, b = step.inequality
            assert r and (r.g, r.h) == (a, b) and check_misere_certificate(r)
        assert s.check() is True
    assert kinds == {("dominated", "left"), ("dominated", "right"), ("reversible", "left"),
                     ("reversible", "right")}


def test_each_step_keeps_the_value(day3):
    n = 0
    for g in day3[:80] + day3[-60:]:  # forms over all day-2 games, and over the small pool
        for step in misere_simplification(g).steps:
            r = misere_equal(step.before, step.after)
            assert r and check_misere_certificate(r)
            n += 1
    assert n > 50


def test_check_refuses_a_false_step():
    g = pgame([integer(1), nimber(1)], [])
    fake = SimplificationStep("dominated", "left", g, pgame([nimber(1)], []), integer(1), nimber(1))
    from cgtalg.misere.partizan_simplest import MisereSimplification

    with pytest.raises(CertificateError, match="does not hold"):
        MisereSimplification(g, g, (fake,)).check()
    bad = SimplificationStep("reversible", "left", g, g, integer(1), ZERO)
    with pytest.raises(CertificateError, match="through an end"):
        MisereSimplification(g, g, (bad,)).check()


def test_worked_examples():
    # {{|1}|}: the Left option {|1} reverses through 1 ≤ G, replaced by 1's Left option 0
    g = pgame([pgame([], [integer(1)])], [])
    s = misere_simplification(g)
    assert s.form is integer(1)
    assert [(t.kind, t.side, t.witness) for t in s.steps] == [("reversible", "left", integer(1))]
    ok, lines = s.check(explain=True)
    assert ok and "bypassed (reversible)" in lines[0]
    # {1, {0,*|} | 0}: the Left option 1 is dominated by {0,*|} ≥ 1 (on every X born by day 2
    # by the test's play, too), and nothing else simplifies
    h = pgame([ZERO, nimber(1)], [])
    g = pgame([integer(1), h], [ZERO])
    s = misere_simplification(g)
    assert s.form is pgame([h], [ZERO])
    assert [(t.kind, t.side, t.option, t.witness) for t in s.steps] == [("dominated", "left", integer(1), h)]
    assert all((misere_outcome_bf(h, x), misere_outcome_bf(integer(1), x)) in ORDER for x in ALL_DAY2)
    assert signature(g) == signature(s.form)


# -- doors ---------------------------------------------------------------------------------------
def test_canonical_form_door_in_the_universe_of_all_games():
    g = pgame([pgame([], [integer(1)])], [])
    for u in ("all", "full", "general", None):
        assert cg.canonical_form(g, misere=True, universe=u) is integer(1)
    assert cg.canonical_form("{{|1}|}", misere=True, universe="all") is integer(1)
    assert partizan_misere_canonical_form(g, "full") is integer(1)
    # impartial input: the impartial universe stays the default; 'all' gives a partizan form
    star2 = cg.canonical_form(cg.parse("*2"), misere=True, universe="all")
    assert star2 is nimber(2)
    assert str(cg.canonical_form(cg.parse("*2"), misere=True)) == "*[2]"


def test_cli_game_shows_the_misere_simplest_form(monkeypatch):
    from cgtalg.cli import games
    from cgtalg.cli.main import cli

    r = CliRunner().invoke(cli, ["game", "{{|1}|}", "--json"], obj={})
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["misere_simplest_form"] == "1"
    r = CliRunner().invoke(cli, ["game", "{{|1}|}"], obj={})
    assert r.exit_code == 0 and "misère simplest 1 (among all games)" in r.output
    # beyond the size bound the report names the library call instead of computing
    monkeypatch.setattr(games, "SIMPLEST_FORM_MAX_POSITIONS", 2)
    d = json.loads(CliRunner().invoke(cli, ["game", "{{|1}|}", "--json"], obj={}).output)
    assert d["misere_simplest_form"] is None
    assert d["misere_simplest_note"].startswith("not computed: 4 subpositions (more than 2)")


def test_brute_force_helpers_are_sound():
    # the test's own play: 0 is N in misère play, 1 = {0|} is R, and * + * is N
    assert outcome_of(ZERO_T, True) == "N"
    assert misere_outcome_bf(integer(1), ZERO_T) == "R"
    assert misere_outcome_bf(nimber(1), nimber(1)) == "N"
    assert bool(misere_ge(integer(-1), integer(-1)))


# -- longer runs ---------------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
def test_exhaustive_day_3_over_pools(seed):
    """Every form whose options are subsets of a pool of 4 day-2 games (256 forms): equality by
    the comparison iff identical simplest forms on all pairs; each form plays like its simplest
    form with every X born by day 2; distinct simplest forms are told apart by replayed T."""
    rng = random.Random(seed)
    pool = rng.sample(DAY2, 4)
    subsets = [c for k in range(5) for c in itertools.combinations(pool, k)]
    forms = [pgame(a, b) for a in subsets for b in subsets]
    for a, b in itertools.combinations(forms, 2):
        assert bool(misere_equal(a, b)) == (S(a) is S(b))
    for g in forms:
        assert signature(g) == signature(S(g))
        assert misere_simplification(g).check()
    values = list({S(g).id: S(g) for g in forms}.values())
    for a, b in itertools.combinations(values, 2):
        t = misere_equal(a, b).distinguisher
        assert misere_outcome_bf(a, t) != misere_outcome_bf(b, t)


@pytest.mark.slow
def test_many_random_day_3_forms():
    rng = random.Random(2015)
    forms = list({g.id: g for g in (random_day3(rng, DAY2, 5) for _ in range(1500))}.values())
    for g in forms:
        s = misere_simplification(g)
        assert s.check() and S(s.form) is s.form
        r = misere_equal(g, s.form)
        assert r and check_misere_certificate(r)
    for g in rng.sample(forms, 150):
        assert signature(g) == signature(S(g))


def test_caches_are_cleared_with_the_others():
    from cgtalg.caches import clear_caches
    from cgtalg.misere import partizan_simplest as ps

    g = pgame([pgame([], [integer(1)])], [])
    assert S(g) is integer(1) and ps._SIMPLEST and ps._BORN
    clear_caches()
    assert not ps._SIMPLEST and not ps._STEPS and not ps._BORN
    assert S(g) is integer(1) and partizan_misere_count_born_by(2) == 256  # recomputed alike
