"""Misère play of multi-heap positions (cgtalg.rulesets.heaps.misere_play): against a search from the
definition (tests/misere_brute.py, memoised over sorted heap tuples), seed 000, and CGSuite's
rows."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from cgtalg.budget import BUDGET_HINT
from cgtalg.errors import BudgetError, ComputationLimitError
from cgtalg.rulesets.heaps import misere_play as mp
from cgtalg.rulesets.heaps.games import GrundysGame
from cgtalg.rulesets.heaps.position import HeapMove
from cgtalg.rulesets.heaps.octal import TakeAndBreak
from misere_brute import MisereBrute

DATA = json.loads((Path(__file__).parent / "data" / "cgsuite_genus.json").read_text())


RULESETS = ["0.123", "0.77", "0.07", "4.7", "0.137", "0.3F", "0.[3]", "grundy", "subtraction"]


def _make(name):
    if name == "grundy":
        return GrundysGame()
    if name == "subtraction":
        return TakeAndBreak(DATA["heap_rows"]["subtraction(2,3,7)"]["code"])
    return TakeAndBreak("0x" + name if "F" in name else name)


@pytest.mark.parametrize("name", RULESETS)
def test_outcomes_and_grundy_values_match_the_definition(name):
    rng = random.Random(hash(name) & 0xFFFF)
    brute = MisereBrute(_make(name))
    r = _make(name)
    classes = mp.misere_search(r)            # canonical classes
    raw = mp.misere_search(r, classes=False)  # plain multisets
    hi = 8 if name == "4.7" else 13   # 4.7 also splits without taking: keep the brute force small
    for _ in range(60):
        pos = [rng.randrange(0, hi) for _ in range(rng.randrange(1, 5))]
        g = brute.grundy(pos)
        assert r.misere_grundy_value(pos) == g, pos
        assert r.outcome(pos, misere=True) == ("P" if g == 0 else "N"), pos
        assert classes.is_n(classes.normalize(pos)) == (g != 0), pos
        assert classes.grundy_value(classes.normalize(pos)) == g, pos
        assert raw.is_n(raw.normalize(pos)) == (g != 0), pos
        wins = r.winning_moves(pos, misere=True)
        expect = set()
        seen = set()
        for i, h in enumerate(pos):
            if h == 0 or h in seen:
                continue
            seen.add(h)
            rest = pos[:i] + pos[i + 1:]
            for parts in r.heap_options(h):
                if brute.grundy(rest + list(parts)) == 0:
                    expect.add((i, h, tuple(parts)))
        assert {(m.heap_index, m.heap, m.parts) for m in wins} == expect, pos


@pytest.mark.parametrize("row", sorted(DATA["heap_rows"]))
def test_single_heap_misere_values_match_cgsuite(row):
    # CGSuite GameHeapTest: [rs(n).MisereNimValue for n from 0 to 20]
    spec = DATA["heap_rows"][row]
    if row == "grundy":
        r = GrundysGame()
    elif row.startswith("subtraction"):
        r = TakeAndBreak(spec["code"])
    else:
        r = TakeAndBreak("0x" + row if "F" in row else row)
    assert [r.misere_grundy_value([n]) for n in range(21)] == spec["misere_nim_value"]


def test_seed000_example_1():
    # seed 000, Example 1: {9, 8, 5, 3} is an N-position with exactly the winning moves
    # 8 -> 5, 5 -> 3 and 3 -> 1
    r = TakeAndBreak("0.123")
    assert r.outcome([9, 8, 5, 3], misere=True) == "N"
    moves = r.winning_moves([9, 8, 5, 3], misere=True)
    assert {(m.heap, m.parts) for m in moves} == {(8, (5,)), (5, (3,)), (3, (1,))}
    assert all(isinstance(m, HeapMove) for m in moves)


def test_seed000_single_heap_p_positions_and_heap_7():
    # seed 000: single-heap P-positions 1, 5, 6, 10, 11, 15, 16, 20, 21, ...; heap 7 is N
    # with the winning move 7 -> 5
    r = TakeAndBreak("0.123")
    ps = [n for n in range(1, 40) if r.outcome([n], misere=True) == "P"]
    assert ps == [n for n in range(1, 40) if n % 5 in (0, 1)]
    assert [(m.heap, m.parts) for m in r.winning_moves([7], misere=True)] == [(7, (5,))]


def test_seed000_warning_example_by_play():
    # h9 + h6 + *1 is a misère P-position, h9 + h3 + h3 + *1 an N-position (seed 000)
    r = TakeAndBreak("0.123")
    assert r.outcome([9, 6, 1], misere=True) == "P"
    assert r.outcome([9, 3, 3, 1], misere=True) == "N"


def test_budget_ends_in_a_clear_error():
    r = TakeAndBreak("0.77")
    with pytest.raises(ComputationLimitError, match="max_states"):
        r.outcome([20, 21, 22], misere=True, max_states=1000)
    with pytest.raises(ComputationLimitError, match="max_seconds") as info:
        TakeAndBreak("0.77").outcome([24, 25, 26], misere=True, max_seconds=1e-9)
    assert BUDGET_HINT in str(info.value)
    # a budget that is not one (zero, nan, text) is refused before any work
    for bad in (0.0, float("nan"), "5"):
        with pytest.raises(BudgetError):
            TakeAndBreak("0.77").outcome([24, 25, 26], misere=True, max_seconds=bad)


def test_results_are_stored_and_read_back(tmp_path, monkeypatch):
    from cgtalg.store.store import open_store

    url = f"sqlite:///{tmp_path / 's.db'}"
    st = open_store(url)
    r = TakeAndBreak("0.77")
    assert r.outcome([12, 9, 7], misere=True, store=st) == TakeAndBreak("0.77").outcome(
        [7, 9, 12], misere=True)
    g = r.misere_grundy_value([12, 9, 7], store=st)

    def boom(*a, **k):
        raise AssertionError("recomputed instead of read from the store")

    monkeypatch.setattr(mp, "_solve", boom)
    st2 = open_store(url)
    r2 = TakeAndBreak("0.77")
    assert r2.outcome([7, 9, 12], misere=True, store=st2) in ("P", "N")
    assert r2.misere_grundy_value([9, 12, 7], store=st2) == g


def test_classes_cut_the_search():
    # the class multiset search visits far fewer states than plain multisets
    r = TakeAndBreak("0.77")
    cl = mp.misere_search(r)
    raw = mp.misere_search(r, classes=False)
    pos = [14, 15, 16]
    assert cl.is_n(cl.normalize(pos)) == raw.is_n(raw.normalize(pos))
    assert len(cl.outcomes) * 3 < len(raw.outcomes)


@pytest.mark.slow
def test_kayles_20_21_22_against_the_definition():
    r = TakeAndBreak("0.77")
    b = MisereBrute(TakeAndBreak("0.77"))
    assert r.outcome([20, 21, 22], misere=True) == ("P" if b.grundy([20, 21, 22]) == 0 else "N")


def test_compiled_search_resumes_after_every_pause(monkeypatch):
    # the kernel returns every STEP new states (budget checks) and the next call walks down
    # again through what is known: answers must not depend on where it stopped
    monkeypatch.setattr(mp._Memo, "STEP", 3)
    rng = random.Random(7)
    for name in ("0.77", "0.123", "grundy"):
        r = _make(name)
        b = MisereBrute(_make(name))
        for _ in range(25):
            pos = [rng.randint(1, 9) for _ in range(rng.randint(1, 4))]
            g = b.grundy(pos)
            assert r.misere_grundy_value(pos) == g, (name, pos)
            assert r.outcome(pos, misere=True) == ("P" if g == 0 else "N"), (name, pos)


def test_deep_and_wide_positions_grow_the_kernel_arrays():
    # 0.3 (take one token, anywhere): every play lasts exactly as many moves as there are
    # tokens, so in misère play the mover loses iff that number is odd, and the misère Grundy
    # value of a position is 1 - (tokens mod 2) (it alternates 1, 0, 1, ... from the end)
    r = TakeAndBreak("0.3")
    assert r.outcome([600], misere=True) == "N"           # depth 600: the DFS stack grows
    assert r.outcome([601], misere=True) == "P"
    assert r.misere_grundy_value([300, 1]) == 0
    heaps = [1 + (i % 3) for i in range(100)]              # 100 heaps: the scratch tuple grows
    assert r.outcome(heaps, misere=True) == ("P" if sum(heaps) % 2 else "N")
    assert r.misere_grundy_value(heaps + [1]) == 1 - (sum(heaps) + 1) % 2
