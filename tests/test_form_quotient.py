"""Misère quotients of the closure of a set of impartial forms (issue 21, part 4a), checked
against brute force: the misère outcome of a sum by exhaustive play on the literal forms
(a position with no move is an N-position; otherwise it is P iff every option is N).

Published facts used: misère Nim on heaps < 2^n has the quotient T_n of order 2^n + 2
(Plambeck & Siegel, JCTA 2008, §4), and the closure of the Kayles heaps 1..k is the universe of
Plambeck's Q_k(0.77), so both constructions must give the same order."""

from __future__ import annotations

import itertools
import random

import pytest

import cgtalg as cg
from cgtalg.core.notation import parse
from cgtalg.errors import GameKindError, RulesetError
from cgtalg.quotients.forms import form_heaps, form_quotient
from cgtalg.quotients.state import forget_known

_MEMO: dict[tuple[int, ...], str] = {}


def brute_outcome(games) -> str:
    """Misère outcome of the sum of ``games`` (Game forms) by exhaustive play."""
    key = tuple(sorted(g.id for g in games))
    got = _MEMO.get(key)
    if got is not None:
        return got
    games = list(games)
    any_move = False
    result = "P"
    for i, g in enumerate(games):
        for o in g.options:
            any_move = True
            rest = games[:i] + games[i + 1:] + ([o] if not o.is_zero else [])
            if brute_outcome(rest) == "P":
                result = "N"
                break
        if result == "N":
            break
    if not any_move:
        result = "N"
    _MEMO[key] = result
    return result


SETS = [
    ["*2+*2", "{*2}", "*2"],
    ["{*2,*3}", "{0,*2+*2}", "*3+{*2}", "*4"],
    ["{*2+*2}", "{*3,{*2}}", "{*1,*2+*2}"],
    ["{*2}+{*2}", "{*3}", "*2+*3"],
    ["{*2}", "{*2,*1}", "{{*2},*1}", "{{*2},0}", "{*3,*2}"],    # order 20, five classes
]


def closure(forms):
    seen = {}
    for g in forms:
        for s in parse(g).subpositions():
            seen[s.id] = s
    return sorted(seen.values(), key=lambda s: (s.birthday, s.id))


@pytest.mark.parametrize("forms", SETS)
def test_outcomes_of_sums_agree_with_brute_force(forms):
    q = form_quotient(forms)
    pos = closure(forms)
    rng = random.Random(21)
    for g in forms:
        assert q.outcome(g) == brute_outcome([parse(g)])
    # every sum of at most two closure positions, and random sums of three to five
    sums = [list(c) for r in (1, 2) for c in itertools.combinations_with_replacement(pos, r)]
    sums += [[rng.choice(pos) for _ in range(rng.randint(3, 5))] for _ in range(300)]
    for s in sums:
        s = [g for g in s if not g.is_zero]
        assert q.outcome(s) == brute_outcome(s), [str(g) for g in s]


@pytest.mark.parametrize("forms", SETS)
def test_indistinguishable_games_agree_on_every_small_sum(forms):
    q = form_quotient(forms)
    pos = [g for g in closure(forms) if not g.is_zero]
    xs = [[]] + [[g] for g in pos] + [list(c) for c in itertools.combinations_with_replacement(pos, 2)]
    for cls in q.classes():
        for a, b in itertools.combinations(cls, 2):
            for x in xs:
                assert brute_outcome([parse(a)] + x) == brute_outcome([parse(b)] + x)
    # and games in different classes are told apart by some sum of the universe (searched small)
    classes = q.classes()
    for c1, c2 in itertools.combinations(classes, 2):
        a, b = parse(c1[0]), parse(c2[0])
        assert any(brute_outcome([a] + x) != brute_outcome([b] + x) for x in xs) or q.order > 20


def test_star2_plus_star2_and_star2_sharp_are_indistinguishable_among_these_games():
    q = cg.misere_quotient(["*2+*2", "{*2}", "*2"])
    assert q.order == 6 and q.quotient.is_tame()            # T_2 (Plambeck–Siegel §4)
    assert q.classes() == [["*2+*2", "{*2}"], ["*2"]]
    assert q.indistinguishable("*2+*2", "{*2}") and not q.indistinguishable("*2", "{*2}")
    # they are not equal as games: the quotient merges them in this universe only
    assert not cg.canonical_form("*2+*2", misere=True, universe="impartial") == cg.canonical_form("{*2}", misere=True, universe="impartial")


def test_sums_split_into_parts_that_are_in_the_closure():
    h = form_heaps(["*2+*2"])
    # the types are 0, *1, *2, *3 = *2+*1, *2+*2; the last two are sums of the first ones
    assert [str(cg.canonical_form(x, misere=True, universe="impartial")) for x in h.heaps] == ["*[0]", "*[1]", "*[2]"]
    assert h.heaps_of("*2+*2") == (2, 2) and h.heaps_of("*3") == (1, 2)
    # {*2} is not prime, but its counterpart (born on day 5) is not in the closure: kept whole
    assert form_heaps(["{*2}"]).max_heap == 3


@pytest.mark.parametrize("n", [1, 2, 3])
def test_nim_heaps_give_the_tame_quotients(n):
    """The closure of *1, ..., *(2^n − 1) is misère Nim on those heaps: T_n (Plambeck–Siegel §4)."""
    q = form_quotient([f"*{k}" for k in range(1, 2 ** n)])
    assert q.order == (2 if n == 1 else 2 ** n + 2)
    assert q.quotient.tame_index() == n


@pytest.mark.parametrize("k", [3, 5, 6])
def test_the_closure_of_kayles_heaps_is_plambecks_q_k(k):
    from cgtalg.rulesets.heaps.octal import TakeAndBreak

    kayles = TakeAndBreak("0.77")
    q = form_quotient([kayles.heap(n) for n in range(1, k + 1)])
    qk = cg.misere_quotient(kayles, max_heap=k)
    assert q.order == qk.order and q.quotient.isomorphic(qk)
    for heaps in itertools.combinations_with_replacement(range(1, k + 1), 3):
        assert q.outcome([kayles.heap(n) for n in heaps]) == ("P" if qk.is_p(heaps) else "N")


def test_refusals():
    with pytest.raises(GameKindError, match="misère quotient is of"):
        cg.misere_quotient(3.5)
    with pytest.raises(GameKindError):
        cg.misere_quotient([1, 2])
    with pytest.raises(RulesetError, match="max_heap has no meaning"):
        cg.misere_quotient(["*2"], max_heap=3)
    with pytest.raises(RulesetError, match="unknown ruleset"):
        cg.misere_quotient("no-such-game")
    with pytest.raises(cg.errors.GameNotationError, match="unclosed"):     # meant as a game
        cg.misere_quotient("{*2")
    q = form_quotient(["*2", "{*2}"])
    with pytest.raises(GameKindError, match="not .*a position of the closure"):
        q.outcome("*5")


def test_a_single_form_and_game_objects():
    q = cg.misere_quotient(cg.parse("{*2}"))
    assert q.outcome(cg.parse("{*2}")) == brute_outcome([cg.parse("{*2}")])
    assert cg.misere_quotient("{*2}").order == q.order


def test_stored_and_resumed(tmp_path):
    from cgtalg.quotients.storage import load_quotient_state
    from cgtalg.store import open_store

    store = open_store(f"sqlite:///{tmp_path / 's.db'}")
    forms = ["{*2,*3}", "{0,*2+*2}", "*3+{*2}"]
    q = form_quotient(forms, store=store)
    forget_known()
    state = load_quotient_state(form_heaps(forms), store)         # re-verified on load
    assert state is not None and state.pre.monoid.size == q.order
    assert form_quotient(forms, store=store).order == q.order
