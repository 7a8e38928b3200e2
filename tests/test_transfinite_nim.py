"""Tests of transfinite Nim (cgtalg.nimbers.transfinite_nim) and `cgtalg nim play`.

Finite positions are checked exhaustively against a brute-force search written here from the
definitions (a position is a P-position iff every move leads to an N-position; in misère play
the player unable to move wins). Transfinite positions cannot be searched, so they are checked
by arguments from the definitions, named beside each case: the mirror (Tweedledum–Tweedledee)
strategy, Bouton's theorem for ordinals (ONAG ch. 6; seed 004 §I.6: "this proof works verbatim
in that generalized situation") and Spindler's transfinite misère Nim (seed 002 §6, Theorem 7).
"""

from __future__ import annotations

import itertools
import json
from functools import lru_cache

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from sympy.sets.ordinals import OmegaPower, Ordinal

from cgtalg.cli.main import cli
from cgtalg.errors import NimberError
from cgtalg.nimbers.ordinal import _coerce, _key, _out, as_ordinal, nim_sum, ordinal
from cgtalg.nimbers.transfinite_nim import format_moves, nim_outcome, nim_winning_moves

W = ordinal("w")


def o(text: str):
    return ordinal(text)


# ---------------------------------------------------------------------------------------------
# Brute force on finite heaps
# ---------------------------------------------------------------------------------------------


@lru_cache(maxsize=None)
def _brute_p(heaps: tuple[int, ...], misere: bool) -> bool:
    """P-position by exhaustive search (heaps sorted, so positions are canonical)."""
    moves = [
        tuple(sorted(heaps[:i] + (t,) + heaps[i + 1 :]))
        for i, h in enumerate(heaps)
        for t in range(h)
    ]
    if not moves:
        return not misere  # normal: the player to move has lost; misère: has won
    return all(not _brute_p(m, misere) for m in moves)


def _brute_winning_moves(heaps: tuple[int, ...], misere: bool) -> list[tuple[int, int, int]]:
    return [
        (i, h, t)
        for i, h in enumerate(heaps)
        for t in range(h)
        if _brute_p(tuple(sorted(heaps[:i] + (t,) + heaps[i + 1 :])), misere)
    ]


FINITE_POSITIONS = [
    p
    for n, top in ((1, 9), (2, 7), (3, 6), (4, 4))
    for p in itertools.product(range(top + 1), repeat=n)
]


@pytest.mark.parametrize("misere", [False, True])
def test_finite_positions_exhaustively(misere):
    for heaps in FINITE_POSITIONS:
        expected = "P" if _brute_p(tuple(sorted(heaps)), misere) else "N"
        assert nim_outcome(heaps, misere=misere) == expected, heaps
        assert nim_winning_moves(heaps, misere=misere) == _brute_winning_moves(heaps, misere), heaps


def test_empty_position():
    assert nim_outcome([]) == "P"  # no move: the player to move loses
    assert nim_outcome([], misere=True) == "N"  # ... and wins in misère play
    assert nim_winning_moves([]) == []


# ---------------------------------------------------------------------------------------------
# Transfinite positions, from the definitions
# ---------------------------------------------------------------------------------------------


def test_mirror_positions_are_p():
    # Tweedledum–Tweedledee: in (G, G) the second player copies every move in the other heap.
    # In misère play too, as long as the copy never leaves only heaps ≤ 1 ... for equal heaps
    # ≥ 2 the mirror breaks down only at (1, 1) and Bouton's misère rule covers that.
    for h in (W, o("w^w*3+w+7"), o("w^(w^2)+1")):
        assert nim_outcome([h, h]) == "P"
        assert nim_outcome([h, h], misere=True) == "P"
        assert nim_winning_moves([h, h]) == []


def test_omega_against_a_finite_heap():
    # (ω, n): moving ω → n gives a mirror position; any other move leaves (t, n) with t ≠ n
    # finite (an N-position of finite Nim) or lowers n to m < n with ω left (the opponent
    # answers ω → m). So the only winning move is ω → n.
    for n in range(0, 6):
        assert nim_outcome([W, n]) == "N"
        assert nim_winning_moves([W, n]) == [(0, W, n)]


def test_single_heaps():
    # One heap h > 0: normal play, take it all; misère play, leave exactly 1 (seed 002 §6).
    for h in (W, o("w^w"), o("w*5+3")):
        assert nim_winning_moves([h]) == [(0, h, 0)]
        assert nim_winning_moves([h], misere=True) == [(0, h, 1)]
    assert nim_outcome([1], misere=True) == "P" and nim_outcome([1]) == "N"


def test_misere_omega_and_one():
    # (ω, 1) misère: ω → 0 leaves the single heap 1, which the opponent must take (and lose);
    # ω → 1 leaves (1, 1), an N-position; ω → n ≥ 2 leaves (n, 1), an N-position (move to (1,1)
    # is bad for... the opponent moves n → 0 leaving 1). So ω → 0 is the only winning move.
    assert nim_outcome([W, 1], misere=True) == "N"
    assert nim_winning_moves([W, 1], misere=True) == [(0, W, 0)]
    # Normal play: ω → 1 mirrors.
    assert nim_winning_moves([W, 1]) == [(0, W, 1)]


def test_bouton_transfinite_examples():
    # Nim-sums of base-2 Cantor normal forms (ONAG ch. 6): (ω·2+3) ⊕ (ω+1) = ω·3+2, and only
    # heap 0 can be lowered to make the sum 0, giving the mirror position (ω+1, ω+1).
    heaps = [o("w*2+3"), o("w+1")]
    assert nim_outcome(heaps) == "N"
    assert nim_winning_moves(heaps) == [(0, o("w*2+3"), o("w+1"))]
    assert format_moves(nim_winning_moves(heaps)) == "heap 0: ω·2+3 → ω+1"
    assert format_moves(nim_winning_moves(heaps), ascii=True) == "heap 0: w*2+3 -> w+1"
    # (ω+1, ω, 1): ω+1 = ω ⊕ 1, so the nim-sum is 0.
    assert nim_outcome([o("w+1"), W, 1]) == "P"
    # (ω+1, ω, 5) misère: heaps ≥ 2 remain, nim-sum 4, so as in normal play: 5 → 1.
    assert nim_winning_moves([o("w+1"), W, 5], misere=True) == [(2, 5, 1)]
    # Three heaps where two moves win: (ω^ω+ω, ω^ω, ω·3): sum ω·2; ω·3 → ω and ω^ω+ω → ω^ω+ω·3?
    heaps = [o("w^w+w"), o("w^w"), o("w*3")]
    moves = nim_winning_moves(heaps)
    assert moves == [(2, o("w*3"), W)]  # ω^ω+ω ⊕ ω·2 = ω^ω+ω·3 is larger, ω^ω ⊕ ω·2 too


def _smaller_ordinals(h):
    """A sample of ordinals below h: lower one CNF coefficient and append small tails."""
    c = _coerce(h)
    if isinstance(c, int):
        return list(range(min(c, 6)))
    out = [0, 1, 5]
    terms = list(c)
    for i, (e, k) in enumerate(terms):
        prefix = terms[:i]
        for k2 in {k - 1, 0}:
            base = prefix + ([(e, k2)] if k2 else [])
            for tail in ([], [(0, 3)], [(1, 2), (0, 1)] if _key(e) > _key(1) else []):
                cand = tuple(base + tail)
                cand = cand if cand and not (len(cand) == 1 and cand[0][0] == 0) else (cand[0][1] if cand else 0)
                if _key(cand) < _key(c):
                    out.append(_out(cand))
    return out


@st.composite
def heap_ordinals(draw):
    n = draw(st.integers(0, 3))
    terms = {}
    for _ in range(n):
        terms[draw(st.integers(0, 3))] = draw(st.integers(1, 5))
    out = [OmegaPower(e, terms[e]) for e in sorted(terms, reverse=True)]
    return as_ordinal(Ordinal(*out)) if out else 0


@given(st.lists(heap_ordinals(), min_size=1, max_size=4), st.booleans())
@settings(max_examples=60, deadline=None)
def test_outcomes_are_consistent_with_moves(heaps, misere):
    # Definitions: an N-position has a move to a P-position; from a P-position no move (here: a
    # sample of moves) reaches a P-position.
    outcome = nim_outcome(heaps, misere)
    moves = nim_winning_moves(heaps, misere)
    terminal = all(h == 0 for h in heaps)
    if terminal and misere:  # no move available: the player to move has already won
        assert outcome == "N" and moves == []
        return
    assert (outcome == "N") == bool(moves)
    for i, before, after in moves:
        assert before == heaps[i]
        assert _key(_coerce(after)) < _key(_coerce(before))
        rest = list(heaps)
        rest[i] = after
        assert nim_outcome(rest, misere) == "P"
    if outcome == "P":
        for i, h in enumerate(heaps):
            for t in _smaller_ordinals(h):
                rest = list(heaps)
                rest[i] = t
                assert nim_outcome(rest, misere) == "N"
    if not misere:
        assert (outcome == "P") == (nim_sum(heaps) == 0)


def test_bad_heaps():
    with pytest.raises(NimberError, match=r"^heap 1 must be a non-negative ordinal, got -2$"):
        nim_outcome([1, -2])
    with pytest.raises(NimberError, match="sequence of ordinals"):
        nim_outcome("w")


# ---------------------------------------------------------------------------------------------
# CLI
# ---------------------------------------------------------------------------------------------


def test_cli_play():
    result = CliRunner().invoke(cli, ["nim", "play", "w+1", "w", "5", "--misere"])
    assert result.exit_code == 0, result.output
    assert result.output == "N-position in misère play: (ω+1, ω, 5)\nwinning moves:\nheap 2: 5 → 1\n"
    result = CliRunner().invoke(cli, ["nim", "play", "w*2+3", "w+1", "--ascii"])
    assert result.output == "N-position in normal play: (w*2+3, w+1)\nwinning moves:\nheap 0: w*2+3 -> w+1\n"
    result = CliRunner().invoke(cli, ["nim", "play", "w", "w"])
    assert result.output == "P-position in normal play: (ω, ω)\nno winning moves (every move leads to an N-position)\n"
    result = CliRunner().invoke(cli, ["nim", "play", "w+1", "w", "5", "--misere", "--json"])
    assert json.loads(result.output) == {
        "heaps": ["ω+1", "ω", 5],
        "misere": True,
        "outcome": "N",
        "winning_moves": [{"heap": 2, "from": 5, "to": 1}],
    }
