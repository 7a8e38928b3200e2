"""The declared heap-ruleset protocol (issue 33, item 7): what each theorem reads of a ruleset
(the most tokens a move removes, whether that is bounded, the most heaps a move leaves, whether
the moves are a take-and-break code's) is declared in ``facts`` (a HeapFacts), and a theorem
refuses by name a ruleset that lacks a fact it needs, never filling one in.

Every answer is checked against play from the definitions written here: misère outcomes and
Grundy values by plain memoised recursion over the ruleset's ``heap_options`` (nothing else of
the library), and the built-ins' facts against what their moves on small heaps show.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

import pytest

import cgtalg as cg
from cgtalg.core.heap_facts import HeapFacts
from cgtalg.errors import ComputationLimitError, RulesetError, RulesetFactError
from cgtalg.quotients.construct import misere_quotient
from cgtalg.quotients.state import certified_misere_period, certify_misere_period, forget_known
from cgtalg.rulesets import registry
from cgtalg.rulesets.heaps.base import HeapRuleset, periodicity_certificate
from cgtalg.rulesets.heaps.games import GrundysGame, heap_ruleset, subtraction
from cgtalg.rulesets.heaps.octal import TakeAndBreak
from cgtalg.rulesets.heaps.octal_periodicity import check_period_claim, periodicity


# -- a user's ruleset whose moves leave three heaps -------------------------------------------------
def _three_parts(m: int):
    for a in range(1, m // 3 + 1):
        for b in range(a, (m - a) // 2 + 1):
            yield (a, b, m - a - b)


class TakeOrSplitThree(HeapRuleset):
    """Take one or two tokens from a heap; or take one and split what is left into three
    nonempty heaps (the hexadecimal code 0x0.B3, written out as rules). Declares every fact
    but ``max_heaps``."""

    name = "take-or-split-three (no max_heaps)"
    facts = HeapFacts(octal_like=True, finite=True, k=2)

    def heap_options(self, n):
        for t in (1, 2):
            if n >= t:
                yield (n - t,) if n > t else ()
        if n >= 4:
            yield from _three_parts(n - 1)


class DeclaredTakeOrSplitThree(TakeOrSplitThree):
    """The same rules with every fact the periodicity theorems need."""

    name = "take-or-split-three"
    facts = HeapFacts(octal_like=True, finite=True, k=2, max_heaps=3)


class _Brute:
    """Misère and normal play of a heap ruleset from the definition, over sorted heap tuples."""

    def __init__(self, ruleset):
        self.r = ruleset
        self.opts = {}
        self.memo = {}

    def heap_opts(self, h):
        if h not in self.opts:
            self.opts[h] = [tuple(p for p in parts if p) for parts in self.r.heap_options(h)]
        return self.opts[h]

    def misere_p(self, pos) -> bool:
        pos = tuple(sorted(h for h in pos if h))
        if pos not in self.memo:
            kids = {tuple(sorted(pos[:i] + pos[i + 1:] + parts)) for i, h in enumerate(pos)
                    for parts in self.heap_opts(h)}
            # no move: the player to move wins (misère); else P iff every option is N
            self.memo[pos] = bool(kids) and not any(self.misere_p(c) for c in kids)
        return self.memo[pos]

    def grundy(self, n: int) -> int:
        G = self.__dict__.setdefault("G", [])
        while len(G) <= n:
            h = len(G)
            vals = set()
            for parts in self.heap_opts(h):
                x = 0
                for p in parts:
                    x ^= G[p]
                vals.add(x)
            G.append(min(set(range(len(vals) + 1)) - vals))
        return G[n]


def _positions(top_single: int, top_pair: int, top_triple: int):
    yield from ((h,) for h in range(1, top_single + 1))
    yield from (p for p in itertools.combinations_with_replacement(range(1, top_pair), 2) if sum(p) <= top_pair)
    yield from (p for p in itertools.combinations_with_replacement(range(1, top_triple), 3) if sum(p) <= top_triple)


@pytest.fixture(autouse=True)
def _fresh():
    forget_known()
    yield
    forget_known()


def test_missing_max_heaps_is_refused_by_the_misere_periodicity_theorem():
    rs = TakeOrSplitThree()
    q = misere_quotient(rs, max_heap=13, progress=False)
    # two heaps per move would certify Φ at heap 13 (2·1 + 2·4 + 2 + 1 = 13): it is not taken
    assert certified_misere_period(list(q.phi), 2, 2) == (1, 4)
    assert not q.final and q.period is None
    assert "max_heaps" in q.note and "Plambeck–Siegel" in q.note
    with pytest.raises(RulesetFactError, match="max_heaps") as exc:
        certify_misere_period(rs, list(q.phi))
    assert exc.value.facts == ("max_heaps",) and "Plambeck–Siegel" in exc.value.theorem
    assert rs.name in str(exc.value) and "HeapFacts" in str(exc.value)
    with pytest.raises(RulesetFactError, match="max_heaps"):
        misere_quotient(rs, progress=False)       # the theorem is what would end the search
    assert isinstance(exc.value, RulesetError)


def test_missing_max_heaps_is_refused_by_the_normal_play_periodicity_theorem():
    rs = TakeOrSplitThree()
    with pytest.raises(RulesetFactError, match="max_heaps"):
        periodicity_certificate(rs)
    with pytest.raises(RulesetFactError, match="max_heaps"):
        check_period_claim(rs, 4, 1)
    res = periodicity(rs, max_values=128, start=64)
    assert not res.certified and "max_heaps" in res.note


def test_declared_max_heaps_certifies_what_brute_force_play_shows():
    rs = DeclaredTakeOrSplitThree()
    q = misere_quotient(rs, progress=False)
    n0, p = q.period
    assert q.final and q.checked_to >= 3 * max(n0, 1) + 3 * p + 2 + 1
    brute = _Brute(rs)
    beyond = 0
    for pos in _positions(30, 28, 25):
        assert q.is_p(pos) == brute.misere_p(pos), pos
        beyond += max(pos) > q.checked_to
    assert beyond > 50           # positions the construction never saw, answered by the period
    # the doors answer from it too
    assert cg.outcome(cg.position(rs, 9, 23), misere=True) == ("P" if brute.misere_p((9, 23)) else "N")


def test_declared_facts_certify_the_normal_play_period_that_brute_force_shows():
    rs = DeclaredTakeOrSplitThree()
    theorem, mode, h, k = periodicity_certificate(rs)
    assert (mode, h, k) == (0, 3, 2)
    res = periodicity(rs, max_values=128, start=64)
    assert res.certified
    brute = _Brute(rs)
    n0, p = res.preperiod, res.period
    top = 3 * max(n0, 1) + 3 * p + k + 60
    assert all(brute.grundy(n) == brute.grundy(n + p) for n in range(n0, top))
    assert n0 == 0 or brute.grundy(n0 - 1) != brute.grundy(n0 - 1 + p)


# -- the built-ins declare what their moves show ---------------------------------------------------
def _shown(ruleset, top: int):
    """(largest take, most heaps left, whether the options are exactly a take-and-break code's)
    over heaps ``0..top``, from heap_options alone."""
    opts = {n: sorted(tuple(sorted(p for p in parts if p)) for parts in ruleset.heap_options(n))
            for n in range(top + 1)}
    pairs = {(n - sum(o), len(o)) for n in range(top + 1) for o in opts[n]}
    take = max((t for t, _ in pairs), default=0)
    heaps = max((j for _, j in pairs), default=0)

    @lru_cache(maxsize=None)
    def parts(m: int, j: int, least: int = 1) -> tuple:
        if j == 0:
            return ((),) if m == 0 else ()
        return tuple((a,) + rest for a in range(least, m // j + 1) for rest in parts(m - a, j - 1, a))

    code_like = all(opts[n] == sorted(q for t, j in pairs if t <= n for q in parts(n - t, j))
                    for n in range(top + 1))
    return take, heaps, code_like


@pytest.mark.parametrize("spec", ["0.77", "0.07", "0.137", "0.6", "4.07", "0.0423", "0x0.B", "0x0.F7",
                                  "0x4.0B", "S(1,3,4)", "S(2,5)", "grundy", "0.[3]", "allbut(1,2)"])
def test_builtin_facts_agree_with_their_moves(spec):
    rs = registry.get_ruleset(spec)
    f = rs.facts
    top = 24
    take, heaps, code_like = _shown(rs, top)
    assert f.octal_like == code_like
    assert f.max_heaps == max(heaps, 1)
    if f.finite:
        assert f.k == take
    else:                         # no bound: a heap can be taken whole, however large
        assert f.k is None and take == top
    assert f.finite is (spec not in ("0.[3]", "allbut(1,2)"))


def test_grundys_game_and_subtraction_facts():
    assert GrundysGame().facts == HeapFacts(octal_like=False, finite=True, k=0, max_heaps=2)
    assert subtraction([1, 3, 4]).facts == HeapFacts(octal_like=True, finite=True, k=4, max_heaps=1)
    assert TakeAndBreak("0x0.B").facts.max_heaps == 3
    # outside the theorems by its facts: no error, no certificate
    assert periodicity_certificate(GrundysGame()) is None
    assert certify_misere_period(GrundysGame(), [0] * 40) is None
    with pytest.raises(ComputationLimitError, match="not a take-and-break"):
        misere_quotient(GrundysGame(), progress=False)


def test_a_function_ruleset_declares_nothing_unless_told():
    halve = heap_ruleset("halving", lambda n: [(n // 2,)] if n > 1 else [])
    assert halve.facts == HeapFacts()
    with pytest.raises(RulesetFactError, match="octal_like.*finite.*k.*max_heaps"):
        misere_quotient(halve, progress=False)
    told = heap_ruleset("take-1-2", lambda n: [(n - t,) for t in (1, 2) if t <= n],
                        facts=HeapFacts(octal_like=True, finite=True, k=2, max_heaps=1))
    q = misere_quotient(told, progress=False)
    brute = _Brute(told)
    assert q.final and all(q.is_p(p) == brute.misere_p(p) for p in _positions(40, 30, 20))


@pytest.mark.parametrize("bad", [dict(k=-1, finite=True), dict(finite=True), dict(k=2), dict(max_heaps=1.5),
                                 dict(octal_like=1), dict(finite=False, k=3)])
def test_malformed_facts_are_refused(bad):
    with pytest.raises(RulesetError):
        HeapFacts(**bad)


def test_facts_must_be_heap_facts():
    class Wrong(TakeOrSplitThree):
        facts = {"k": 2}

    with pytest.raises(RulesetError, match="HeapFacts"):
        misere_quotient(Wrong(), max_heap=3, progress=False)


# -- the worked example of docs/rulesets.md: one module, its test, one registry line -------------
class TakeOneOrSplit(HeapRuleset):
    """Take one token from a heap; or take two and split what is left into two nonempty heaps
    (the octal game 0.34 written out as rules). A user's module: rules and facts, nothing else."""

    name = "take-one-or-split"
    facts = HeapFacts(octal_like=True, finite=True, k=2, max_heaps=2)

    def heap_options(self, n):
        if n >= 1:
            yield (n - 1,) if n > 1 else ()
        for a in range(1, (n - 2) // 2 + 1):
            yield (a, n - 2 - a)


def test_a_one_module_ruleset_works_through_the_doors(monkeypatch):
    # a registry of its own (docs/rulesets.md, run by tests/test_docs.py, registers its own copy
    # of the example under the same name)
    monkeypatch.setattr(registry, "_NAMED", {k: v for k, v in registry._NAMED.items() if k != "take-one-or-split"})
    registry.register_ruleset("take-one-or-split", TakeOneOrSplit, "take one, or take two and split")
    rs = cg.get_ruleset("take-one-or-split")
    brute = _Brute(rs)
    for heaps in [(5,), (5, 9), (3, 7, 12), (40, 41), (150, 7)]:
        want = 0
        for h in heaps:
            want ^= brute.grundy(h)
        assert cg.grundy(cg.position("take-one-or-split", *heaps)) == want
        assert cg.outcome(cg.position("take-one-or-split", *heaps)) == ("P" if want == 0 else "N")
    for heaps in [(4,), (6, 6), (2, 5, 8), (9, 10)]:
        want = "P" if brute.misere_p(heaps) else "N"
        assert cg.outcome(cg.position("take-one-or-split", *heaps), misere=True) == want
    q = cg.misere_quotient("take-one-or-split")
    assert q.final and q.checked_to < 36
    assert all(q.is_p(p) == brute.misere_p(p) for p in _positions(36, 36, 34))
