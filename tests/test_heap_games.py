"""Subtraction games (incl. all-but), Grundy's game and heap games from Python functions.

Sources: OEIS A002188 (Grundy's game, n = 0..104; Guy & Smith 1956, Table 4); Winning Ways
ch. 4 (subtraction game S(1,3,4) has period 7: 0 1 0 1 2 3 2; Nim G(n) = n).
"""

from __future__ import annotations

import pytest

import cgtalg as cg
from cgtalg.errors import RulesetError
from cgtalg.rulesets.heaps.games import (
    FunctionHeapRuleset,
    GrundysGame,
    grundys_game,
    heap_ruleset,
    parse_heap_ruleset,
    subtraction,
)
from cgtalg.rulesets.heaps.position import as_heaps
from cgtalg.rulesets.heaps.base import HeapRuleset
from cgtalg.rulesets.protocol import ImpartialRuleset

A002188 = [int(x) for x in """0,0,0,1,0,2,1,0,2,1,0,2,1,3,2,1,3,2,4,3,0,4,3,0,4,3,0,4,1,2,3,1,2,4,
1,2,4,1,2,4,1,5,4,1,5,4,1,5,4,1,0,2,1,0,2,1,5,2,1,3,2,1,3,2,4,3,2,4,
3,2,4,3,2,4,3,2,4,3,2,4,5,2,4,5,2,4,3,7,4,3,7,4,3,7,4,3,5,2,3,5,2,3,5,2,3""".replace("\n", "").split(",")]


def python_mex_sequence(options, N):
    G = [0] * N
    for n in range(1, N):
        vals = set()
        for parts in options(n):
            x = 0
            for p in parts:
                x ^= G[p]
            vals.add(x)
        v = 0
        while v in vals:
            v += 1
        G[n] = v
    return G


def test_grundys_game_published_values():
    g = grundys_game()
    assert isinstance(g, ImpartialRuleset) and isinstance(g, HeapRuleset)
    assert g.grundy_sequence(len(A002188)).tolist() == A002188
    ref = python_mex_sequence(lambda n: [(a, n - a) for a in range(1, (n - 1) // 2 + 1)], 400)
    assert g.grundy_sequence(400).tolist() == ref
    assert [cg.grundy(g.heap(n)) for n in range(12)] == A002188[:12]
    with pytest.raises(RulesetError, match="sparse"):
        GrundysGame().grundy_sequence(10, method="sparse")


def test_subtraction_games():
    s = subtraction([1, 3, 4])
    assert s.grundy_sequence(21).tolist() == [0, 1, 0, 1, 2, 3, 2] * 3
    for S in ([1, 2], [2, 5, 6], [3], [1, 4, 9]):
        ref = python_mex_sequence(lambda n, S=S: [(n - t,) if n > t else () for t in S if t <= n], 200)
        assert subtraction(S).grundy_sequence(200).tolist() == ref


def test_all_but_subtraction_games():
    for S in ([], [1], [1, 2], [2, 3, 7]):
        ref = python_mex_sequence(lambda n, S=S: [(n - t,) if n > t else () for t in range(1, n + 1) if t not in S], 150)
        assert subtraction(S, all_but=True).grundy_sequence(150).tolist() == ref
    assert subtraction([], all_but=True).grundy_sequence(300).tolist() == list(range(300))  # Nim


def test_function_heap_ruleset():
    # "Lasker-like": take one token, or split a heap into two nonempty heaps
    def options(n):
        out = [(n - 1,)] if n >= 1 else []
        out += [(a, n - a) for a in range(1, n // 2 + 1)]
        return out

    game = heap_ruleset("take1-or-split", options)
    assert isinstance(game, FunctionHeapRuleset)
    assert game.grundy_sequence(60).tolist() == python_mex_sequence(options, 60)
    assert game.outcome([3, 5]) == cg.outcome(game.game_of([3, 5]))
    with pytest.raises(RulesetError, match="sparse method needs a take-and-break code"):
        heap_ruleset("x", options).grundy_sequence(5, method="sparse")


def test_function_heap_ruleset_errors():
    bad = heap_ruleset("grow", lambda n: [(n,)])
    with pytest.raises(RulesetError, match="a move from heap 1 leaves a heap of size 1"):
        bad.grundy_sequence(3)
    with pytest.raises(RulesetError, match="options\\(1\\) returned 5"):
        heap_ruleset("num", lambda n: 5).grundy_sequence(3)
    with pytest.raises(RulesetError, match="must be callable"):
        heap_ruleset("x", 3)
    with pytest.raises(RulesetError, match="non-empty str"):
        heap_ruleset("", lambda n: [])


def test_as_heaps_and_parse_ruleset():
    assert as_heaps(5) == (5,) and as_heaps([3, 0, 1]) == (1, 3) and as_heaps(()) == ()
    for bad in ("5", True, [1.5], object()):
        with pytest.raises(RulesetError):
            as_heaps(bad)
    assert parse_heap_ruleset("S(1, 3,4)").name == "subtraction(1,3,4)"
    assert parse_heap_ruleset("allbut(1,2)").code_text == "0.00[3]"
    assert parse_heap_ruleset("grundy").name == "grundy"
    assert str(parse_heap_ruleset(".77")) == "0.77"
    with pytest.raises(RulesetError, match="bad subtraction set"):
        parse_heap_ruleset("S(1,x)")


def test_solver_on_heap_games():
    from cgtalg.rulesets.solver import game_of, solve

    g = grundys_game()
    for pos in [(7,), (5, 6), (3, 4, 8)]:
        x = 0
        for h in pos:
            x ^= A002188[h]
        assert solve(g, pos).outcome == ("P" if x == 0 else "N")
        assert cg.grundy(game_of(g, pos)) == x


# -- the module-level doors the methods delegate to --------------------------------------


def test_heap_functions_are_the_methods_and_agree_with_the_definition():
    """heap_grundy / heap_outcome / heap_winning_moves / heap_misere_grundy / heap_genus take
    the ruleset; the methods of the same meaning give the same answers, and small positions
    agree with play from the definition (the forms of the heaps)."""
    from cgtalg.rulesets import (
        TakeAndBreak,
        heap_genus,
        heap_grundy,
        heap_misere_grundy,
        heap_outcome,
        heap_winning_moves,
    )
    from cgtalg.rulesets.heaps.play import position_form

    for r in (TakeAndBreak("0.77"), subtraction([1, 3, 4]), GrundysGame()):
        for heaps in ([], [3], [2, 5], [1, 4, 6], [7, 7]):
            g = position_form(r, heaps)
            assert heap_grundy(r, heaps) == r.nim_value(heaps) == cg.grundy(g)
            assert heap_outcome(r, heaps) == r.outcome(heaps) == ("P" if cg.grundy(g) == 0 else "N")
            assert heap_misere_grundy(r, heaps) == r.misere_grundy_value(heaps)
            assert heap_outcome(r, heaps, misere=True) == ("P" if heap_misere_grundy(r, heaps) == 0 else "N")
            assert str(heap_genus(r, heaps)) == str(r.genus(heaps))
            for misere in (False, True):
                moves = heap_winning_moves(r, heaps, misere=misere)
                assert moves == r.winning_moves(heaps, misere=misere)
                assert all(heap_outcome(r, m.result(heaps), misere=misere) == "P" for m in moves)
                assert bool(moves) == (heap_outcome(r, heaps, misere=misere) == "N") or (misere and not heaps)


def test_the_rulesets_take_store_objects_and_refuse_locations(tmp_path):
    """Layers: the rulesets never open a store; a URL or path is refused with the remedy."""
    from cgtalg.rulesets import TakeAndBreak, heap_genus, heap_outcome

    url = f"sqlite:///{tmp_path / 's.db'}"
    with pytest.raises(RulesetError, match="open_store"):
        heap_outcome(TakeAndBreak("0.77"), [3, 4], misere=True, store=url)
    with pytest.raises(RulesetError, match="open_store"):
        heap_genus(TakeAndBreak("0.77"), [3, 4], store=url)


def test_rulesets_import_no_higher_layer():
    """rulesets (layer 3) imports none of ops, store, report, census, cli, viz -- lazily
    inside a function neither (grimp sees function-level imports)."""
    import grimp
    g = grimp.build_graph("cgtalg")
    up = sorted((m, i) for m in g.modules if m.startswith("cgtalg.rulesets")
                for i in g.find_modules_directly_imported_by(m)
                if i.split(".")[1:2] and i.split(".")[1] in ("ops", "store", "report", "census", "cli", "viz"))
    assert up == []


def test_genus_sequence_takes_a_time_budget():
    from cgtalg.errors import BudgetError, ComputationLimitError
    from cgtalg.rulesets import TakeAndBreak, genus_sequence

    with pytest.raises(BudgetError):
        genus_sequence(TakeAndBreak("0.77"), 5, max_seconds=0)
    with pytest.raises(ComputationLimitError, match="max_seconds="):
        genus_sequence(TakeAndBreak("0.77"), 60, progress=False, max_seconds=1e-9)
    assert [str(x) for x in TakeAndBreak("0.312").genus_sequence(4, max_seconds=60)] == ["0^120", "1^031", "2^20", "0^02"]
