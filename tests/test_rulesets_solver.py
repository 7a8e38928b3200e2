"""The ruleset protocol, build_dag, game_of and the generic solver.

Cross-checks: brute-force recursive play written here from the definitions (normal play:
a player unable to move loses; misère: wins; partizan: the four outcome classes of Winning
Ways ch. 1), the Sprague-Grundy theorem through cgtalg's forms (``game_of`` + the core
fold), and published results: Bouton's theorem for Nim (Bouton 1902; Winning Ways ch. 2)
and its misère form (Bouton 1902; Winning Ways ch. 13), the subtraction game S(1,2,3)
(P-positions n = 0 mod 4 in normal play, n = 1 mod 4 in misère play; Winning Ways ch. 2, 13)
and 2x2 Domineering being a first-player win (value +-1, Winning Ways ch. 2).
"""

from __future__ import annotations

import doctest
import itertools
import random
import sys
from functools import lru_cache

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cgtalg as cg
from cgtalg.errors import LoopyGameError, RulesetError
from cgtalg.rulesets import protocol, registry, solver
from cgtalg.rulesets.protocol import (
    ImpartialRuleset,
    PartizanRuleset,
    check_ruleset,
    player_moves,
    ruleset_from_function,
)
from cgtalg.rulesets.solution import Solution
from cgtalg.rulesets.solver import build_dag, game_of, solve, solved_dag
from cgtalg.rulesets.solver_walk import outcome_class

# -- small rulesets used below ------------------------------------------------------------


def subtraction(S, name=None):
    return ruleset_from_function(
        name or f"S{tuple(S)}",
        lambda n: [n - t for t in S if t <= n],
        format_position=str,
        parse_position=int,
    )


def _nim_moves(heaps):
    out = []
    for i, h in enumerate(heaps):
        for k in range(h):
            out.append(tuple(sorted(heaps[:i] + ((k,) if k else ()) + heaps[i + 1:])))
    return out


def _nim_components(heaps):
    return [(h,) for h in heaps]


NIM = ruleset_from_function("nim", _nim_moves, components=_nim_components)
NIM_FLAT = ruleset_from_function("nim-no-components", _nim_moves)


class Domineering(PartizanRuleset):
    """Left places vertical dominoes, Right horizontal ones; positions = frozensets of free cells."""

    name = "domineering"

    def left_moves(self, cells):
        return [cells - {(r, c), (r + 1, c)} for (r, c) in cells if (r + 1, c) in cells]

    def right_moves(self, cells):
        return [cells - {(r, c), (r, c + 1)} for (r, c) in cells if (r, c + 1) in cells]


def board(rows, cols):
    return frozenset((r, c) for r in range(rows) for c in range(cols))


def random_dag_moves(n, rng, p=0.3):
    """Random impartial DAG on 0..n-1: moves go to smaller positions."""
    return {v: [u for u in range(v) if rng.random() < p] for v in range(n)}


# -- brute force from the definitions ------------------------------------------------------


def brute_impartial(moves, misere):
    @lru_cache(maxsize=None)
    def next_wins(v):
        opts = moves(v)
        if not opts:
            return misere
        return any(not next_wins(u) for u in opts)

    return next_wins


def brute_partizan(left, right, end=None, misere=False):
    """winner(pos, to_move) by plain recursion (no shared code with the solver)."""

    @lru_cache(maxsize=None)
    def winner(pos, to_move):
        opts = left(pos) if to_move == "L" else right(pos)
        other = "R" if to_move == "L" else "L"
        if not opts:
            w = end(pos, to_move) if end else None
            if w is None:
                w = to_move if misere else other
            return w
        return to_move if any(winner(q, other) == to_move for q in opts) else other

    return winner


def brute_grundy(moves):
    @lru_cache(maxsize=None)
    def g(v):
        s = {g(u) for u in moves(v)}
        m = 0
        while m in s:
            m += 1
        return m

    return g


# -- protocol ----------------------------------------------------------------------------


def test_doctests_of_ruleset_modules():
    from cgtalg.rulesets import parity
    from cgtalg.rulesets.heaps import periodicity

    for module in (protocol, solver, registry, parity, periodicity):
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert result.failed == 0, module.__name__
        assert result.attempted > 0, module.__name__


def test_base_classes_and_defaults():
    class Sub(ImpartialRuleset):
        name = "sub"

        def moves(self, n):
            return [n - 1] if n else []

    r = Sub()
    assert r.components(3) is None and r.end_winner(3, "L") is None
    assert not r.has_end_rule and not r.has_components and not r.partizan
    assert r.format_position(3) == "3"
    with pytest.raises(RulesetError, match=r"ruleset 'sub' cannot read positions from text \(no parse_position\)"):
        r.parse_position("3")
    assert list(r.left_moves(2)) == list(r.right_moves(2)) == [1]
    assert Domineering().partizan and not Domineering().has_end_rule
    assert isinstance(r, protocol.ImpartialRulesetProtocol)
    assert isinstance(Domineering(), protocol.PartizanRulesetProtocol)


def test_check_ruleset_messages():
    class NoName:
        def moves(self, p):
            return []

    with pytest.raises(RulesetError, match="is not a ruleset: it needs a non-empty str attribute 'name'"):
        check_ruleset(NoName())

    class NoMoves:
        name = "x"

    with pytest.raises(RulesetError, match=r"ruleset 'x' has no method moves\(position\)"):
        check_ruleset(NoMoves())

    class HalfPartizan:
        name = "half"
        partizan = True

        def left_moves(self, p):
            return []

    with pytest.raises(RulesetError, match=r"partizan ruleset 'half' has no method right_moves\(position\)"):
        check_ruleset(HalfPartizan())
    with pytest.raises(RulesetError, match="a ruleset name must be a non-empty str, got ''"):
        ruleset_from_function("", lambda p: [])
    with pytest.raises(RulesetError, match="ruleset 'f': the move function must be callable, got 3"):
        ruleset_from_function("f", 3)
    with pytest.raises(RulesetError, match="ruleset 'f': components must be callable"):
        ruleset_from_function("f", lambda p: [], components=5)


def test_unhashable_and_non_iterable_moves():
    bad = ruleset_from_function("lists", lambda n: [[n - 1]] if n else [])
    with pytest.raises(RulesetError) as e:
        solve(bad, 2)
    assert str(e.value) == (
        "ruleset 'lists': moves(2) gave the unhashable position [1] (list); "
        "positions must be hashable (use tuples or frozensets)"
    )
    with pytest.raises(RulesetError, match=r"the position \[3\] is not hashable \(list\)"):
        build_dag(subtraction((1,)), [3])
    noniter = ruleset_from_function("noniter", lambda n: 5)
    with pytest.raises(RulesetError, match=r"ruleset 'noniter': moves\(1\) returned 5, not an iterable of positions"):
        solve(noniter, 1)


def test_self_loop_is_loopy():
    loop = ruleset_from_function("stay", lambda n: [n])
    with pytest.raises(LoopyGameError) as e:
        solve(loop, 4)
    assert e.value.cycle == [4]
    assert str(e.value) == (
        "ruleset 'stay': a move from 4 leads back to 4 (the cycle 4 -> 4); "
        "cgtalg solves short (loop-free) games only"
    )


def test_longer_cycle_is_named():
    # 0 -> 1 -> 2 -> 0, plus a tail 5 -> 0
    succ = {5: [0], 0: [1], 1: [2], 2: [0]}
    r = ruleset_from_function("cyc", lambda n: succ[n])
    for fn in (lambda: build_dag(r, 5), lambda: solve(r, 5), lambda: solve(r, 5, misere=True),
               lambda: game_of(r, 5)):
        with pytest.raises(LoopyGameError) as e:
            fn()
        assert e.value.cycle == [0, 1, 2]
        assert "ruleset 'cyc': the game graph is loopy (not short): it has the cycle 0 -> 1 -> 2 -> 0" == str(e.value)


def test_partizan_cycle_through_alternating_play():
    class Swap(PartizanRuleset):
        name = "swap"

        def left_moves(self, p):
            return ["b"] if p == "a" else []

        def right_moves(self, p):
            return ["a"] if p == "b" else []

    with pytest.raises(LoopyGameError, match="it has the cycle a -> b -> a"):
        solve(Swap(), "a")
    with pytest.raises(LoopyGameError):
        build_dag(Swap(), "a")


def test_bad_end_winner_value():
    r = ruleset_from_function("weird-end", lambda n: [n - 1] if n else [], end_winner=lambda p, m: "X")
    with pytest.raises(RulesetError, match=r"end_winner\(0, 'L'\) returned 'X'; expected 'L', 'R' or None"):
        solve(r, 2)


def test_components_validation():
    r = ruleset_from_function("selfpart", lambda p: [], components=lambda p: [p, p])
    with pytest.raises(RulesetError, match=r"components\(\(1,\)\) lists the position itself among 2 components"):
        solve(r, (1,))
    r2 = ruleset_from_function("badparts", lambda p: [], components=lambda p: [[1]])
    with pytest.raises(RulesetError, match=r"gave the unhashable component \[1\]"):
        solve(r2, (1,))


def test_player_moves_merges_duplicates_in_order():
    r = ruleset_from_function("dups", lambda n: [1, 0, 1, 0])
    assert player_moves(r, 5) == [1, 0]


# -- build_dag ----------------------------------------------------------------------------


def test_build_dag_subtraction_identifies_positions():
    g = build_dag(subtraction((1, 2)), 6)
    assert sorted(g.nodes) == list(range(7))
    assert g.number_of_edges() == 11  # 2 moves from 2..6, 1 from 1
    assert g.graph["root"] == 6 and g.graph["ruleset"] == "S(1, 2)" and g.graph["partizan"] is False
    assert all(d["mover"] is None for *_, d in g.edges(data=True))
    assert {n: d["birthday"] for n, d in g.nodes(data=True)} == {n: n for n in range(7)}
    assert g.nodes[3]["label"] == "3"
    assert nx.is_directed_acyclic_graph(g)


def test_build_dag_deep_heap_no_recursion_limit():
    depth = sys.getrecursionlimit() + 500
    g = build_dag(subtraction((1, 2, 3)), depth, labels=False)
    assert g.number_of_nodes() == depth + 1
    assert g.nodes[depth]["birthday"] == depth
    s = solve(subtraction((1, 2, 3)), depth)
    assert s.outcome == ("P" if depth % 4 == 0 else "N")


def test_build_dag_partizan_movers():
    class Toy(PartizanRuleset):
        name = "toy"

        def left_moves(self, p):
            return {"top": ["a", "both"]}.get(p, [])

        def right_moves(self, p):
            return {"top": ["b", "both"]}.get(p, [])

    g = build_dag(Toy(), "top")
    assert {(u, v): d["mover"] for u, v, d in g.edges(data=True)} == {
        ("top", "a"): "L", ("top", "both"): "LR", ("top", "b"): "R"}


def test_build_dag_matches_game_dag_size():
    # positions of Nim identified up to order of heaps: the DAG of (2, 3) has all sorted tuples below
    g = build_dag(NIM, (2, 3))
    expected = {tuple(sorted(h for h in (a, b) if h)) for a in range(3) for b in range(4)}
    assert set(g.nodes) == expected


def test_build_dag_moderate_size():
    # a 150 x 150 grid (22,801 positions): each move lowers one coordinate by 1 or 2
    def moves(p):
        x, y = p
        return [(x - t, y) for t in (1, 2) if t <= x] + [(x, y - t) for t in (1, 2) if t <= y]

    r = ruleset_from_function("grid", moves)
    g = build_dag(r, (150, 150), labels=False, progress=False)
    assert g.number_of_nodes() == 151 * 151
    assert g.nodes[(150, 150)]["birthday"] == 300
    # this game is the sum of two S(1,2) heaps: P iff x = y mod 3 (Sprague-Grundy)
    assert solve(r, (150, 150)).outcome == "P" and solve(r, (149, 150)).outcome == "N"


@pytest.mark.slow
def test_build_dag_and_solve_a_million_positions():
    def moves(p):
        x, y = p
        return [(x - 1, y)] * (x > 0) + [(x, y - 1)] * (y > 0)

    r = ruleset_from_function("grid1", moves)
    # two heaps of S(1) (Grundy values n mod 2): P iff x + y is even
    assert solve(r, (999, 999), progress=False).outcome == "P"
    assert solve(r, (999, 998), progress=False).outcome == "N"
    g = build_dag(r, (999, 999), labels=False, progress=False)
    assert g.number_of_nodes() == 10**6 and g.number_of_edges() == 2 * 999 * 1000
    assert g.nodes[(999, 999)]["birthday"] == 1998


# -- game_of -------------------------------------------------------------------------------


def test_game_of_nim_is_hash_consed_sum():
    single = ruleset_from_function("nim-heap", lambda n: range(n))
    for n in range(8):
        assert game_of(single, n) is cg.nim(n)
    assert game_of(NIM, (1, 2, 3)) is cg.nim(1) + cg.nim(2) + cg.nim(3)
    # the same form is built from the moves alone (no components)
    assert game_of(NIM_FLAT, (1, 2, 3)) is cg.nim(1) + cg.nim(2) + cg.nim(3)
    assert game_of(NIM, ()) is cg.zero


def test_game_of_shared_memo():
    memo: dict = {}
    a = game_of(subtraction((1, 3)), 10, memo=memo)
    assert len(memo) == 11 and memo[10] is a
    assert cg.grundy(a) == brute_grundy(lambda n: [n - t for t in (1, 3) if t <= n])(10)


def test_game_of_rejects_partizan_and_end_rules():
    with pytest.raises(RulesetError, match="ruleset 'domineering' is partizan: its positions are not impartial forms"):
        game_of(Domineering(), board(2, 2))
    r = ruleset_from_function("ended", lambda n: [], end_winner=lambda p, m: "L")
    with pytest.raises(RulesetError, match="ruleset 'ended' has its own end rule"):
        game_of(r, 0)


# -- solve: impartial ----------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=1, max_value=40), st.integers(min_value=0, max_value=10**6),
       st.floats(min_value=0.05, max_value=0.7))
def test_impartial_solve_matches_brute_force(n, seed, p):
    rng = random.Random(seed)
    succ = random_dag_moves(n, rng, p)
    r = ruleset_from_function("random-dag", lambda v: succ[v])
    for misere in (False, True):
        brute = brute_impartial(lambda v: tuple(succ[v]), misere)
        for v in range(n):
            s = solve(r, v, misere=misere)
            assert s.outcome == ("N" if brute(v) else "P")
            assert s.winning_moves == [u for u in succ[v] if not brute(u)]
            form = game_of(r, v)
            assert s.value == (cg.misere_grundy(form) if misere else cg.grundy(form))
            if s.outcome == "P":
                assert [q for q, _ in s.replies] == succ[v]
                for q, rs in s.replies:
                    assert rs == [x for x in succ[q] if not brute(x)]
                    assert rs or (misere and not succ[q])  # misère: a terminal option wins


def test_subtraction_123_published():
    # Winning Ways ch. 2 / ch. 13: S(1,2,3) P-positions are n = 0 mod 4 (normal), n = 1 mod 4 (misère)
    r = subtraction((1, 2, 3))
    for n in range(60):
        assert solve(r, n).outcome == ("P" if n % 4 == 0 else "N")
        assert solve(r, n, misere=True).outcome == ("P" if n % 4 == 1 else "N")
        assert solve(r, n).value == n % 4


def _bouton(heaps):
    x = 0
    for h in heaps:
        x ^= h
    return "P" if x == 0 else "N"


def _bouton_misere(heaps):
    x = 0
    for h in heaps:
        x ^= h
    if all(h <= 1 for h in heaps):
        return "P" if x == 1 else "N"
    return "P" if x == 0 else "N"


def test_nim_bouton_normal_and_misere_with_and_without_components():
    positions = {tuple(sorted(h for h in hs if h)) for hs in itertools.product(range(6), repeat=3)}
    for pos in positions:
        for misere, rule in ((False, _bouton), (True, _bouton_misere)):
            with_c = solve(NIM, pos, misere=misere)
            without = solve(NIM_FLAT, pos, misere=misere)
            assert with_c.outcome == without.outcome == rule(pos), (pos, misere)
            assert sorted(with_c.winning_moves) == sorted(without.winning_moves)
            assert all(rule(q) == "P" for q in with_c.winning_moves)


def test_impartial_strategy_text():
    s = solve(subtraction((1, 2, 3)), 8)
    assert str(s).splitlines() == [
        "P: the second player wins (normal play; Grundy value 0).",
        "Position: 8",
        "Every first move loses; the second player's winning replies:",
        "  -> 7: reply -> 4",
        "  -> 6: reply -> 4",
        "  -> 5: reply -> 4",
    ]
    s = solve(subtraction((1, 2, 3)), 9, misere=True)
    assert s.outcome == "P" and "misère play; misère Grundy value 0" in str(s)
    s = solve(subtraction((1, 2, 3)), 1, misere=True)
    assert s.outcome == "P" and str(s).splitlines()[-1] == "  -> 0: the second player cannot move, and wins"
    s = solve(subtraction((1, 2, 3)), 0)
    assert str(s).splitlines()[-1] == "The player to move has no move and loses."
    assert "N: the first player wins" in str(solve(subtraction((1, 2, 3)), 0, misere=True))


# -- solve: partizan and end rules ----------------------------------------------------------


def test_outcome_class_table():
    assert [outcome_class(a, b) for a, b in (("L", "L"), ("R", "R"), ("L", "R"), ("R", "L"))] == ["L", "R", "N", "P"]
    with pytest.raises(RulesetError, match="winners must be 'L' or 'R'"):
        outcome_class("L", "X")


def test_domineering_small_boards():
    D = Domineering()
    # Winning Ways ch. 2: a vertical 2x1 strip is 1 (Left wins), 1x2 is -1 (Right), 2x2 is +-1 (N)
    assert solve(D, board(2, 1)).outcome == "L"
    assert solve(D, board(1, 2)).outcome == "R"
    assert solve(D, board(2, 2)).outcome == "N"
    assert solve(D, board(1, 1)).outcome == "P"
    brute = brute_partizan(D.left_moves, D.right_moves)
    for rows in range(1, 4):
        for cols in range(1, 5):
            b = board(rows, cols)
            s = solve(D, b)
            assert s.outcome == outcome_class(brute(b, "L"), brute(b, "R")), (rows, cols)
            assert s.kind == "four-outcome"
            for p, other in (("L", "R"), ("R", "L")):
                moves = D.left_moves(b) if p == "L" else D.right_moves(b)
                expected = [q for q in moves if brute(q, other) == p] if brute(b, p) == p else []
                assert s.winning_moves[p] == list(dict.fromkeys(expected))


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=1, max_value=25), st.integers(min_value=0, max_value=10**6), st.booleans())
def test_random_partizan_with_end_rule_matches_brute_force(n, seed, misere):
    rng = random.Random(seed)
    left = random_dag_moves(n, rng, 0.3)
    right = random_dag_moves(n, rng, 0.3)
    ends = {v: rng.choice(["L", "R", None]) for v in range(n)}

    class R(PartizanRuleset):
        name = "random-partizan"

        def left_moves(self, v):
            return left[v]

        def right_moves(self, v):
            return right[v]

        def end_winner(self, v, to_move):
            return ends[v]

    brute = brute_partizan(lambda v: tuple(left[v]), lambda v: tuple(right[v]), lambda v, m: ends[v], misere)
    for v in range(n):
        s = solve(R(), v, misere=misere)
        assert s.winners == {"L": brute(v, "L"), "R": brute(v, "R")}
        assert s.outcome == outcome_class(brute(v, "L"), brute(v, "R"))
        g = solved_dag(R(), v, misere=misere)
        for u, w, d in g.edges(data=True):
            expect = "".join(m for m in (d["mover"] or "LR") if brute(w, "R" if m == "L" else "L") == m)
            assert d["winning_for"] == expect


def test_impartial_moves_with_end_rule_give_four_outcomes():
    # a heap game where an empty heap is won by Left whoever is to move: class L at 0
    r = ruleset_from_function("left-takes-all", lambda n: [n - 1] if n else [], end_winner=lambda p, m: "L")
    assert solve(r, 0).outcome == "L" and solve(r, 5).outcome == "L"
    # the end rule returning None falls back to normal play (misère flag honoured)
    r2 = ruleset_from_function("default-end", lambda n: [n - 1] if n else [], end_winner=lambda p, m: None)
    assert solve(r2, 3).outcome == "N" and solve(r2, 2).outcome == "P"
    assert solve(r2, 3, misere=True).outcome == "P"


def test_four_outcome_strategy_text_names_both_starts():
    s = solve(Domineering(), board(2, 2))
    text = str(s)
    assert text.startswith("N: the first player wins (normal play).")
    assert "If Left starts, Left wins by moving:" in text
    assert "If Right starts, Right wins by moving:" in text
    s = solve(Domineering(), board(1, 3))
    assert s.outcome == "R"
    assert "If Left starts, Left has no move and loses by the end rule." in str(s)


# -- Solution JSON and store -----------------------------------------------------------------


def test_solution_json_round_trip():
    from cgtalg.rulesets.parity import ParityGame

    for ruleset, pos in ((subtraction((1, 2, 3)), 9), (subtraction((1, 2, 3)), 8), (ParityGame(), (25, 0, 0)),
                         (ParityGame(), (10, 1, 0))):
        s = solve(ruleset, pos)
        back = Solution.from_json(s.to_json(), ruleset)
        assert back.to_json() == s.to_json()
        assert back.position == s.position and back.winning_moves == s.winning_moves
        assert back.replies == s.replies and str(back) == str(s)


def test_store_memoises_solutions(tmp_path):
    import cgtalg.store as store_mod
    from cgtalg.rulesets.parity import ParityGame

    store = store_mod.open_store(str(tmp_path / "s.sqlite"))
    parity = ParityGame()
    first = solve(parity, (25, 0, 0), store=store)
    assert store.stats["misses"] == 1 and store.stats["hits"] == 0
    second = solve(parity, (25, 0, 0), store=store)
    assert store.stats["hits"] == 1
    assert second.to_json() == first.to_json() and second.position == (25, 0, 0)
    assert store.get_position("parity", "25", "solution")["outcome"] == "P"
    # misère is a separate property; impartial rulesets too
    r = subtraction((1, 2, 3), name="S123")
    assert solve(r, 9, misere=True, store=store).outcome == "P"
    assert solve(r, 9, misere=True, store=store).winning_moves == []
    # a ruleset from a function is stored under its name and a fingerprint of its functions
    assert r.store_name.startswith("S123#") and store.get_position("S123", "9", "solution:misere") is None
    assert store.get_position(r.store_name, "9", "solution:misere")["outcome"] == "P"
    store.close()


def test_store_needs_round_trip():
    class FakeStore:
        def memo_position(self, *a):  # pragma: no cover - must not be reached
            raise AssertionError

    r = ruleset_from_function("noparse", lambda n: [])
    with pytest.raises(RulesetError, match=r"ruleset 'noparse' cannot read positions from text"):
        solve(r, 1, store=FakeStore())
    r2 = ruleset_from_function("lossy", lambda n: [], format_position=lambda p: "x", parse_position=lambda t: 0)
    with pytest.raises(RulesetError, match=r"the position 1 does not round-trip through its text 'x'"):
        solve(r2, 1, store=FakeStore())


# -- registry ---------------------------------------------------------------------------


def test_registry():
    from cgtalg.rulesets.registry import available_rulesets, get_ruleset, register_family, register_ruleset

    assert get_ruleset("parity").name == "parity"
    assert get_ruleset("parity:1,2,4").subtraction == (1, 2, 4)
    assert get_ruleset("parity:full").reduce is False
    assert get_ruleset("parity-relative").name == "parity-relative"
    assert "parity" in available_rulesets()
    with pytest.raises(RulesetError, match="unknown ruleset 'zzz'; known rulesets: .*parity"):
        get_ruleset("zzz")
    with pytest.raises(RulesetError, match="the subtraction set must be comma-separated ints"):
        get_ruleset("parity:1,x")
    with pytest.raises(RulesetError, match="already registered"):
        register_ruleset("parity", lambda: None)
    with pytest.raises(RulesetError, match="must be a non-empty str without spaces or ':'"):
        register_family("a:b", lambda arg: None)
    register_ruleset("test-sub-1-2", lambda: subtraction((1, 2), name="test-sub-1-2"), replace=True)
    assert solve(get_ruleset("test-sub-1-2"), 3).outcome == "P"


# -- Solver (reusable tables) ----------------------------------------------------------------


def test_solver_reuses_tables_and_agrees_with_solve():
    from cgtalg.rulesets.solver import Solver

    r = subtraction((1, 3, 4))
    sv = Solver(r)
    brute = brute_impartial(lambda n: tuple(n - t for t in (1, 3, 4) if t <= n), False)
    g = brute_grundy(lambda n: tuple(n - t for t in (1, 3, 4) if t <= n))
    for n in range(80):
        assert sv.outcome(n) == ("N" if brute(n) else "P") == solve(r, n).outcome
        assert sv.value(n) == g(n)
        assert sv.winner(n, "R") == ("R" if brute(n) else "L")
    assert "memo=80" in repr(sv)
    assert solve(r, 50, solver=sv).to_json() == solve(r, 50).to_json()
    with pytest.raises(RulesetError, match=r"the solver given is for ruleset 'S\(1, 3, 4\)' with misere=False, "
                                          r"not 'S\(1, 3, 4\)' with misere=True"):
        solve(r, 5, misere=True, solver=sv)
    with pytest.raises(RulesetError, match="the player to move must be 'L' or 'R', got 'X'"):
        sv.winner(3, "X")
    dom = Solver(Domineering())
    assert dom.outcome(board(2, 2)) == "N" and dom.winner(board(1, 2), "L") == "R"
    with pytest.raises(RulesetError, match="'domineering' is partizan or has its own end rule: it has no Grundy values"):
        dom.value(board(2, 2))


def test_solve_takes_a_time_budget():
    """max_seconds= on solve and Solver: refused when not a budget, ComputationLimitError
    naming how to give more time when it runs out, the positions done kept."""
    import pytest

    from cgtalg.budget import BUDGET_HINT
    from cgtalg.errors import BudgetError, ComputationLimitError
    from cgtalg.rulesets.protocol import ruleset_from_function
    from cgtalg.rulesets.solver import Solver

    r = ruleset_from_function("S(1,2)", lambda n: [n - t for t in (1, 2) if t <= n])
    for bad in (0, -2, float("nan"), "3"):
        with pytest.raises(BudgetError):
            solve(r, 5, max_seconds=bad)
    with pytest.raises(ComputationLimitError) as info:
        solve(r, 200_000, max_seconds=1e-9)
    assert BUDGET_HINT in str(info.value)
    sv = Solver(r, max_seconds=1e-9)
    with pytest.raises(ComputationLimitError):
        sv.outcome(100_000)
    assert "memo=0)" not in repr(sv)            # the positions done are kept
    assert solve(r, 300, max_seconds=60).outcome == "P"
