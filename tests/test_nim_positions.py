"""Nim positions under misère play: Spindler's reduced forms and Theorem 6 (seed 002), and the
P-position / tame counts of the games born by day n (issue 9).

Sources named per test: seed 002 = Spindler, "Equality classes of Nim positions under misère
play" (Definitions 3 and 5, Theorems 5 and 6, Lemmas 5, 8, 9); brute force = misère canonical
forms (Conway's simplification, an independent decision procedure) or direct play.
"""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

from cgtalg.core.game import nim
from cgtalg.errors import CensusError, ComputationLimitError, NimPositionError
from cgtalg.misere.canonical import misere_canonical_game, misere_equal
from cgtalg.misere.census import (
    _reduction_masks,
    _born_by_games,
    misere_class_counts,
    misere_count_born_by,
    misere_games_born_by,
    misere_p_count_born_by,
    misere_tame_count_born_by,
)
from cgtalg.misere.nim_positions import (
    MAX_CLASS_SIZE,
    check_nim_position_classes,
    is_nim_reduced,
    nim_position,
    nim_position_game,
    nim_positions,
    nim_positions_of_size,
    nim_reduced_form,
    shortlex_key,
    shortlex_precedes,
)
from cgtalg.misere.outcome import misere_grundy
from cgtalg.misere.proof import check_proof
from cgtalg.normal.grundy import grundy


def _genus_prefix(g, length):
    """Brute force from the definition (Winning Ways ch. 13): the normal Grundy value and the
    misère Grundy values of G + n·*2, n < length."""
    from cgtalg import grundy, misere_grundy

    gammas, total = [], g
    for _ in range(length):
        gammas.append(misere_grundy(total))
        total = total + nim(2)
    return grundy(g), tuple(gammas)


# -- Definition 3 and positions ---------------------------------------------------------------
def test_shortlex_example_of_definition_3():
    # seed 002, Definition 3: (2, 9) ≺ (2, 2, 2, 4, 5) ≺ (2, 2, 4, 4, 5)
    assert shortlex_precedes((2, 9), (2, 2, 2, 4, 5))
    assert shortlex_precedes((2, 2, 2, 4, 5), (2, 2, 4, 4, 5))
    assert not shortlex_precedes((2, 2, 4, 4, 5), (2, 9))
    assert not shortlex_precedes((1, 2), (1, 2))


def test_shortlex_is_length_then_lexicographic_brute_force():
    seqs = [s for n in range(4) for s in itertools.product(range(3), repeat=n)]
    for a in seqs:
        for b in seqs:
            expected = len(a) < len(b) or (len(a) == len(b) and list(a) < list(b))
            assert shortlex_precedes(a, b) == expected


def test_position_identification_of_section_4_1():
    # seed 002 §4.1: 4 + 1 + 0 + 1 is (1, 1, 4); 0 + 0 + 0 is the empty sequence
    assert nim_position([4, 1, 0, 1]) == (1, 1, 4)
    assert nim_position([0, 0, 0]) == ()
    assert str(nim_position_game([2, 1])) == str(nim(1) + nim(2))


def test_positions_are_the_partitions():
    # brute force: partitions of n counted p(0..10) = 1 1 2 3 5 7 11 15 22 30 42 (OEIS A000041)
    assert [len(nim_positions_of_size(n)) for n in range(11)] == [1, 1, 2, 3, 5, 7, 11, 15, 22, 30, 42]
    allp = nim_positions(6)
    assert allp == sorted(allp, key=shortlex_key) and len(set(allp)) == len(allp) == 30
    assert all(sum(p) == 5 and list(p) == sorted(p) for p in nim_positions_of_size(5))


def test_options_precede_the_position_lemma_5():
    # seed 002 Lemma 5: every option of a Nim position precedes it
    for pos in nim_positions(7):
        for i, h in enumerate(pos):
            for k in range(h):
                opt = nim_position(pos[:i] + (k,) + pos[i + 1:])
                assert shortlex_precedes(opt, pos)


# -- Definition 5 ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "heaps, reduced",
    [
        ([1, 1], ()),             # Theorem 5, n = 1: *1 + *1 ≡ 0
        ([1], (1,)),
        ([3, 5, 2], (2, 2, 4)),   # step (i): the odd pair 3, 5 lowered
        ([3, 4], (2, 5)),         # step (ii): odd 3 is not the largest
        ([1, 2], (3,)),           # Theorem 5: *2 + *1 ≡ *3
        ([1, 3], (2,)),           # ... and *3 + *1 ≡ *2
        ([3, 3, 3], (2, 2, 3)),
        ([1, 1, 1, 1], ()),
        ([0, 2, 0], (2,)),        # step (iii)
    ],
)
def test_reduced_form_examples(heaps, reduced):
    # seed 002 Definition 5 and Theorem 5, worked by hand
    assert nim_reduced_form(heaps) == reduced


def test_reduced_form_shape_and_lemma_8():
    # seed 002 Lemma 8 (the reduced form is the position or precedes it) and the shape used in
    # Lemma 9 (at most one odd heap, and then it is the unique largest heap); idempotent
    for pos in nim_positions(12):
        red = nim_reduced_form(pos)
        assert red == pos or shortlex_precedes(red, pos)
        odd = [x for x in red if x % 2]
        assert len(odd) <= 1
        if odd:
            assert red[-1] == odd[0] and (len(red) == 1 or red[-2] < red[-1])
        assert nim_reduced_form(red) == red and is_nim_reduced(red)
        assert sum(red) <= sum(pos) + 1


def test_corollary_1_and_theorem_6_against_canonical_forms():
    # brute force with misère canonical forms (an independent decision procedure): a position is
    # misère equal to its reduced form (Corollary 1), and two positions are equal exactly when
    # their reduced forms coincide (Theorem 6 and its converse), for all positions of size <= 8
    positions = nim_positions(8)
    canon = {p: misere_canonical_game(nim_position_game(p)).id for p in positions}
    for p in positions:
        assert canon[p] == misere_canonical_game(nim_position_game(nim_reduced_form(p))).id
    for p, q in itertools.combinations(positions, 2):
        assert (canon[p] == canon[q]) == (nim_reduced_form(p) == nim_reduced_form(q)), (p, q)


def test_misere_equality_preserves_normal_grundy_value():
    # The bucketing of check_nim_position_classes relies on this (Conway's reductions keep the
    # normal-play value); brute force over all pairs of Nim positions of size <= 7 and of the
    # forms born by day 3 (misère canonical forms as the decision procedure)
    forms = [nim_position_game(p) for p in nim_positions(7)] + list(_born_by_games(3))
    for g, h in itertools.combinations(forms, 2):
        if misere_equal(g, h):
            assert grundy(g) == grundy(h)


# -- Theorem 6 with certificates --------------------------------------------------------------
def test_check_classes_with_certificates():
    # seed 002 Theorem 6 up to size 9, certificates re-checked by check_proof
    chk = check_nim_position_classes(9)
    assert chk.holds and chk.failures == []
    assert chk.positions == sum(len(nim_positions_of_size(n)) for n in range(10))
    assert set(chk.classes) == {p for p in nim_positions(9) if is_nim_reduced(p)}
    assert chk.num_classes == 24
    for pos, red, r in chk.equivalences:
        assert r.holds and check_proof(r) and nim_reduced_form(pos) == red
    assert chk.distinctions
    for a, b, r in chk.distinctions:
        assert not r.holds and check_proof(r) and grundy(r.g) == grundy(r.h)
    # every class is exactly the positions with that reduced form
    for red, members in chk.classes.items():
        assert all(nim_reduced_form(p) == red for p in members)


def test_class_counts_per_size_are_partition_numbers():
    # A reduced form of size 2k has only even heaps (halve them: a partition of k); one of size
    # 2k + 1 is such a form with its largest heap raised by one. So each size n brings p(n // 2)
    # new classes (p = OEIS A000041: 1 1 2 3 5 7 11); brute force via the Theorem 6 check
    chk = check_nim_position_classes(13)
    new = [sum(1 for r in chk.classes if sum(r) == n) for n in range(14)]
    assert new == [1, 1, 1, 1, 2, 2, 3, 3, 5, 5, 7, 7, 11, 11]


def test_check_classes_small_example():
    # size <= 4: classes (), (1), (2), (3), (4), (2, 2); e.g. (1, 1) ≡ 0 and (1, 3) ≡ (2)
    chk = check_nim_position_classes(4)
    assert sorted(chk.classes, key=shortlex_key) == [(), (1,), (2,), (3,), (4,), (2, 2)]
    assert (1, 1) in chk.classes[()] and (1, 3) in chk.classes[(2,)]


def test_errors():
    with pytest.raises(NimPositionError, match="heap sizes must be >= 0, got -1"):
        nim_reduced_form([2, -1])
    with pytest.raises(TypeError, match="heap sizes must be ints, got float"):
        nim_reduced_form([1.5])
    with pytest.raises(TypeError, match="heap sizes must be ints, got bool"):
        nim_position([True])
    with pytest.raises(TypeError, match="heaps must be an iterable of ints, got str"):
        nim_reduced_form("12")
    with pytest.raises(NimPositionError, match="max_size must be >= 0, got -2"):
        check_nim_position_classes(-2)
    with pytest.raises(ComputationLimitError, match=f"beyond MAX_CLASS_SIZE = {MAX_CLASS_SIZE}"):
        check_nim_position_classes(MAX_CLASS_SIZE + 1)
    with pytest.raises(ComputationLimitError, match="MAX_CLASS_SIZE"):
        nim_positions_of_size(MAX_CLASS_SIZE + 1)


def test_tool_stores_and_resumes(tmp_path, capsys):
    from conftest import load_tool

    tool = load_tool("nim_position_classes")
    url = str(tmp_path / "s.db")
    assert tool.main(["--max-size", "5", "--store", url, "--json", "--store-certificates"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["holds"] and first["bound"] == 5 and first["classes"] == 8 and first["resumed_from_size"] == 0
    assert tool.main(["--max-size", "7", "--store", url, "--json"]) == 0
    second = json.loads(capsys.readouterr().out)
    assert second["resumed_from_size"] == 6 and second["sizes_checked_now"] == [6, 7]
    assert second["bound"] == 7 and second["classes"] == 14 and second["positions"] == 45
    from cgtalg.store import open_store

    store = open_store(url)
    rel = store.get_relation(nim_position_game((1, 3)), nim_position_game((2,)), "misere_equivalent")
    assert rel["holds"] is True and rel["reduced_form"] == [2] and rel["certificate_checked"]
    # the stored full certificate (size 4, --store-certificates) is re-checked from its JSON
    from cgtalg.misere.equivalence import equivalent

    stored = equivalent(nim_position_game((1, 3)), nim_position_game((2,))).to_json()
    assert stored["certificate"] == rel["certificate"] and check_proof(stored)
    # sizes 6-7 (second run) store the checked summary only
    rel7 = store.get_relation(nim_position_game((3, 4)), nim_position_game((2, 5)), "misere_equivalent")
    assert rel7["holds"] is True and "certificate" not in rel7 and rel7["proof_nodes"] > 0
    assert store.get_position("nim-position-classes", "size=7", "theorem6")["classes_up_to_size"] == 14


# -- census: P-positions and tame games per day ---------------------------------------------------
def test_p_counts_days_0_to_4():
    # issue 9: 0, 1, 1, 2, 4 P-positions among the games born by days 0-4; brute force by
    # misère Grundy values of the enumerated forms
    assert [misere_p_count_born_by(d) for d in range(5)] == [0, 1, 1, 2, 4]
    for d in range(5):
        assert misere_p_count_born_by(d) == sum(misere_grundy(g.game) == 0 for g in misere_games_born_by(d))


def test_genus_prefix_of_nim_heaps():
    # Winning Ways ch. 13 / notes/misere.md: 0 has genus 0^{1202...}, *1 is 1^{0313...},
    # *n (n >= 2) is n^{n, n⊕2, n, ...}
    assert _genus_prefix(nim(0), 4) == (0, (1, 2, 0, 2))
    assert _genus_prefix(nim(1), 4) == (1, (0, 3, 1, 3))
    for n in (2, 3, 4, 5):
        assert _genus_prefix(nim(n), 3) == (n, (n, n ^ 2, n))


def test_scan_agrees_with_enumeration_days_1_to_4():
    # the day-5 method (mask scan, mex rule) against enumeration + brute-force genus, days 1-4
    for d in range(1, 5):
        a, b = misere_class_counts(d, "scan"), misere_class_counts(d, "enumeration")
        assert (a.total, a.p_positions, a.tame_genus, a.hereditarily_tame) == (
            b.total, b.p_positions, b.tame_genus, b.hereditarily_tame)


def test_day_5_counts():
    c = misere_class_counts(5)
    # the published day-5 total (ONAG ch. 12 / notes/misere.md)
    assert c.total == misere_count_born_by(5) == 4171780
    # brute force for the P count: a day-5 P-position is a nonempty irreducible {S} with S
    # among the day-4 N-positions; recount those masks with numpy from the reduction rule
    universe = _born_by_games(4)
    _, a, b, is_zero, pmask, _ = _reduction_masks(universe)
    n_mask = ((1 << len(universe)) - 1) & ~pmask
    bits = [i for i in range(len(universe)) if n_mask >> i & 1]
    idx = np.arange(1 << len(bits), dtype=np.int64)
    m = np.zeros_like(idx)
    for j, i in enumerate(bits):
        m |= ((idx >> j) & 1) << i
    reducible = np.zeros(m.shape, dtype=bool)
    for ah, bh, z in zip(a, b, is_zero):
        if z:
            continue  # H = 0 needs a P-position in S (the proviso)
        reducible |= ((m & ah) == ah) & (m != ah) & ((m & ~ah & ~bh) == 0)
    assert c.p_positions == int(((m != 0) & ~reducible).sum()) == 245249
    # the two tame counts: pinned from cgtalg 0.1.0 to detect change (no published day-5 value;
    # the rule that counts them is checked against brute force on days 0-4 below)
    assert c.tame_genus == misere_tame_count_born_by(5) == 2518212
    assert c.hereditarily_tame == misere_tame_count_born_by(5, hereditary=True) == 14532
    assert c.hereditarily_tame <= c.tame_genus <= c.total


def test_tame_counts_brute_force_days_0_to_4():
    # tame genus: g = γ0 or {g, γ0} ⊆ {0, 1} (notes/misere.md "Classes"); genus by brute force
    for d in range(5):
        forms = [g.game for g in misere_games_born_by(d)]
        tame = [g for g in forms if (lambda gg: gg[0] == gg[1][0] or max(gg[0], gg[1][0]) <= 1)(_genus_prefix(g, 1))]
        assert misere_tame_count_born_by(d) == len(tame)
        def htame(x):
            n, (c,) = _genus_prefix(x, 1)
            return (n == c or max(n, c) <= 1) and all(htame(o) for o in x.options)
        assert misere_tame_count_born_by(d, hereditary=True) == sum(htame(g) for g in forms)
    assert [misere_tame_count_born_by(d) for d in range(5)] == [1, 2, 3, 5, 14]


def test_census_class_errors():
    with pytest.raises(CensusError, match="class counts go up to day 5"):
        misere_class_counts(6)
    with pytest.raises(CensusError, match="unknown method 'x'"):
        misere_class_counts(3, "x")
    with pytest.raises(CensusError, match="day 5 cannot be enumerated"):
        misere_class_counts(5, "enumeration")
    with pytest.raises(TypeError, match="hereditary must be a bool"):
        misere_tame_count_born_by(3, hereditary=1)
