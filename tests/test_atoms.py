"""Nim-heaps as atoms of the form type (issue 7): ``*n`` for any ``n``.

Every shortcut is cross-checked against the definitions by brute force on small heaps:
``*n = {*0, ..., *(n-1)}`` built option by option with :func:`cgtalg.game`, values computed by
evaluators that walk the options (no atom rule), outcomes by the proof checker's direct play.
Published values: Bouton's Nim and misère Nim rules (Winning Ways ch. 13; ONAG ch. 11-12),
Kayles values K3 = 3, K4 = 1 (Winning Ways ch. 4).
"""

from __future__ import annotations

import json
import random

import pytest

import cgtalg as cg
from cgtalg.core import game as core_game
from cgtalg.core.fold import Evaluator, fold
from cgtalg.core import game_table_size
from cgtalg.core.game import MATERIALISE_LIMIT, WALK_LIMIT, walk_size
from cgtalg.core.notation import MAX_HEAP_DIGITS, MISERE_DEPTH_LIMIT, format_game, game_from_json, game_to_json
from cgtalg.errors import ComputationLimitError, GameNotationError
from cgtalg.misere import canonical as C
from cgtalg.misere.equivalence import equivalent
from cgtalg.misere.equivalence_engine import nim_sum_outcome
from cgtalg.misere.proof import check_proof, play_outcome
from cgtalg.normal.grundy import mex

BIG = 10**18


def by_definition(n: int) -> cg.Game:
    """*n built from its definition {*0, ..., *(n-1)} with game() only."""
    heaps = []
    for _ in range(n + 1):
        heaps.append(cg.game(list(heaps)))
    return heaps[n]


# walking evaluators: the definitions, with no atom rule
WALK_GRUNDY = Evaluator("test_walk_grundy", lambda g, vals: mex(vals))
WALK_MISERE = Evaluator("test_walk_misere_grundy", lambda g, vals: 1 if not vals else mex(vals))
WALK_CANONICAL = Evaluator("test_walk_canonical", C.MISERE_CANONICAL.combine)


# -- the atom itself ---------------------------------------------------------------------------
def test_nim_of_any_size_is_an_o1_atom():
    g = cg.nim(BIG)
    before = game_table_size()
    assert cg.nim(BIG) is g and cg.nim(10**100) is cg.nim(10**100)
    assert game_table_size() - before <= 1  # nothing materialised
    assert g.birthday == BIG and isinstance(g.birthday, int)
    assert g.nim_heap_size() == BIG and g.num_options == BIG and g.is_atom
    assert len(g) == BIG and bool(g) and bool(cg.nim(10**100)) and not cg.zero
    assert cg.nim(5) in g and cg.nim(BIG) not in g and cg.nim(BIG - 1) in g
    assert cg.parse("{*2}") not in g


@pytest.mark.parametrize("n", range(9))
def test_atom_is_its_definition(n):
    # brute force: the option-by-option definition gives the same (identical) object
    assert by_definition(n) is cg.nim(n)
    opts = cg.nim(n).options
    assert {o.nim_heap_size() for o in opts} == set(range(n))
    assert [o.id for o in opts] == sorted(o.id for o in opts)  # ordered by id, as documented


def test_game_recognises_the_option_set_of_a_heap():
    assert cg.game([cg.nim(0), cg.nim(1), cg.nim(2)]) is cg.nim(3)
    assert cg.game([cg.nim(2), cg.nim(0), cg.nim(1), cg.nim(1)]) is cg.nim(3)
    assert cg.game([cg.nim(0), cg.nim(2)]).nim_heap_size() is None
    assert cg.game([cg.nim(1), cg.nim(2)]).nim_heap_size() is None
    assert cg.game([]) is cg.zero and cg.zero.id == 0


def test_materialising_a_huge_heap_is_refused_naming_size_and_limit():
    with pytest.raises(ComputationLimitError, match=r"\*1000000000000000000 needs 1000000000000000000 options.*"
                       r"limit of 1000000 \(cgtalg.core.game.MATERIALISE_LIMIT\)"):
        cg.nim(BIG).options
    with pytest.raises(ComputationLimitError, match="MATERIALISE_LIMIT"):
        list(cg.nim(BIG))
    with pytest.raises(ComputationLimitError, match="exceeds sys.maxsize; use .num_options"):
        len(cg.nim(10**100))
    assert MATERIALISE_LIMIT == 10**6


def test_walks_are_refused_up_front():
    with pytest.raises(ComputationLimitError, match=r"walking the nim-heap \*100000 .*WALK_LIMIT"):
        cg.nim(100_000).subpositions()
    subs = cg.parse("{*100000, *3}").subpositions(expand_atoms=False)
    assert {x.nim_heap_size() for x in subs} == {100_000, 3, None}
    with pytest.raises(ComputationLimitError, match="'test_walk_grundy' on the nim-heap \\*100000.*no atom rule"):
        fold(cg.nim(100_000), WALK_GRUNDY)
    assert walk_size(cg.nim(BIG)) == (BIG + 1, BIG * (BIG + 1) // 2)


def test_huge_literal_sums_are_refused_up_front():
    before = game_table_size()
    with pytest.raises(ComputationLimitError, match=r"the sum of forms with 1000000000000000001 and 4 subpositions.*"
                       r"limit of 1000000 \(cgtalg.core.game.WALK_LIMIT\)"):
        cg.nim(BIG) + cg.nim(3)
    with pytest.raises(ComputationLimitError, match="WALK_LIMIT"):
        cg.nim(10_000) + cg.nim(10_000)
    assert game_table_size() - before < 10  # refused before building anything
    assert cg.nim(BIG) + cg.zero is cg.nim(BIG)
    assert WALK_LIMIT == 10**6


# -- values of atoms: the atom rules against the definitions -------------------------------------
@pytest.mark.parametrize("n", range(12))
def test_atom_rules_agree_with_walking_the_options(n):
    g = by_definition(n)
    assert cg.grundy(g) == fold(g, WALK_GRUNDY) == n
    assert cg.misere_grundy(g) == fold(g, WALK_MISERE)
    assert C.misere_canonical_game(g) is fold(g, WALK_CANONICAL) is g  # *n is canonical
    assert cg.outcome(g, misere=True) == play_outcome(g, misere=True)
    assert cg.outcome(g) == play_outcome(g, misere=False)


def test_values_of_a_huge_heap_answer_instantly():
    g = cg.nim(BIG)
    assert cg.grundy(g) == BIG and cg.misere_grundy(g) == BIG
    assert cg.outcome(g) == "N" and cg.outcome(g, misere=True) == "N"
    assert C.misere_canonical_game(g) is g and str(cg.canonical_form(g, misere=True, universe="impartial")) == f"*{BIG}"
    assert cg.winning_moves(g) == [cg.zero] and cg.winning_moves(g, misere=True) == [cg.star]
    assert cg.misere_grundy(cg.nim(1)) == 0 and cg.misere_grundy(cg.nim(0)) == 1


@pytest.mark.parametrize("n", range(8))
def test_winning_moves_of_heaps_match_brute_force(n):
    g = by_definition(n)
    assert cg.winning_moves(g) == [o for o in g.options if play_outcome(o, misere=False) == "P"]
    assert cg.winning_moves(g, misere=True) == [o for o in g.options if play_outcome(o, misere=True) == "P"]


def test_bouton_winning_moves_of_a_sum_of_heaps():
    g = cg.nim(3) + cg.nim(5) + cg.nim(7)  # nim-sum 1: Bouton's moves reduce 3, 5, 7 by one
    brute = {o.id for o in g.options if play_outcome(o, misere=False) == "P"}
    assert {m.id for m in cg.winning_moves(g)} == brute and len(brute) == 3


def test_reduction_with_atoms_matches_the_listing_rule(monkeypatch):
    # brute force: the closed-form rule for atom options against listing every option of option
    rng = random.Random(7)
    forms = [cg.nim(k) for k in range(40)]
    for _ in range(150):
        forms.append(C.misere_simplest(rng.sample(forms[:60], rng.randint(0, 4))))
    forms = list({f.id: f for f in forms}.values())
    monkeypatch.setattr(C, "_SMALL_ATOM", 10**9)  # force the listing rule
    checked = 0
    for _ in range(3000):
        opts = C._dedupe(rng.sample(forms, rng.randint(1, 6)))
        if all(x.nim_heap_size() is None for x in opts):
            continue
        listed = {h.id for h in C._reducers(opts, False)}
        closed = {h.id for h in C._reducers_with_atoms(opts, False)}
        assert listed == closed, [str(o) for o in opts]
        checked += 1
    assert checked > 1000


def test_canonical_forms_with_huge_atoms():
    n = cg.nim(BIG)
    assert C.misere_canonical_game(cg.game([n])) is cg.game([n])  # {*N} is canonical for N >= 2
    assert C.misere_canonical_game(cg.game([cg.zero, n])) is cg.star  # {0, *N} = * as {0, *2} = *
    assert C.misere_canonical_game(cg.game([cg.zero, cg.nim(2)])) is cg.star
    g = cg.parse("{*99999999999, *7}")
    assert C.misere_canonical_game(g) is g and str(cg.canonical_form(g, misere=True, universe="impartial")) == "*[99999999999,7]"


# -- parsing and printing ------------------------------------------------------------------------
def test_parse_big_heaps():
    assert cg.parse("*10000") is cg.nim(10_000)
    assert cg.parse("*30000") is cg.nim(30_000)
    assert cg.parse("*99999999999") is cg.nim(99_999_999_999)
    digits = "9" * 5000  # beyond Python's 4300-digit int/str limit
    g = cg.parse("*" + digits)
    assert g.nim_heap_size() == 10**5000 - 1
    assert format_game(g) == "*" + digits and cg.parse(str(g)) is g
    with pytest.raises(GameNotationError, match=f"more than the limit of {MAX_HEAP_DIGITS}"):
        cg.parse("*" + "1" * (MAX_HEAP_DIGITS + 1))


@pytest.mark.parametrize("text, position", [("*²", 1), ("{*٣}", 2), ("*1²", 2), ("*[2²]", 3)])
def test_unicode_digits_are_refused(text, position):
    with pytest.raises(GameNotationError) as info:
        cg.parse(text)
    assert info.value.position == position and "is not an ASCII digit" in info.value.reason


def test_deep_nesting_parses_iteratively():
    depth = 100_000
    g = cg.parse("{" * depth + "}" * depth)
    assert g.birthday == depth - 1
    assert cg.parse("(" * depth + "*2" + ")" * depth) is cg.nim(2)
    assert cg.parse(format_game(g)) is g  # written front to back: linear time and memory
    assert str(g) == format_game(g)
    chain = cg.parse("{" * 3000 + "}" * 3000)  # below the linear-writer threshold
    assert cg.parse(format_game(chain)) is chain
    with pytest.raises(GameNotationError, match=f"more than the limit of {MISERE_DEPTH_LIMIT}"):
        cg.parse("*[" + "[" * depth + "]" * depth + "]")


def test_round_trip_of_forms_with_atoms():
    for text in ["*99999999999", "{*99999999999, *7}", "{{*12345678901234567890}, 0}", "*5+*7"]:
        g = cg.parse(text)
        assert cg.parse(format_game(g)) is g
        encoded = game_to_json(g, max_text=4)
        assert game_from_json(json.loads(json.dumps(encoded))) is g


def test_ruleset_positions_in_game_text():
    # Kayles (octal 0.77): K3 = 3, K4 = 1 (Winning Ways ch. 4), so K3 + K4 has value 2
    g = cg.parse("kayles(3)+kayles(4)")
    assert cg.grundy(g) == 2
    assert cg.parse("kayles(3, 4)") is g
    with pytest.raises(GameNotationError) as info:
        cg.parse("*2 + foo(3)")
    assert info.value.position == 5 and "foo" in info.value.reason
    with pytest.raises(GameNotationError, match="expected '\\(' after the ruleset name 'kayles'"):
        cg.parse("kayles 3")
    with pytest.raises(GameNotationError, match="expected a non-negative integer argument of kayles"):
        cg.parse("kayles(-1)")


# -- equivalence ---------------------------------------------------------------------------------
@pytest.mark.parametrize("a, b", [(BIG, BIG + 1), (BIG, 0), (1, 10**100), (BIG, 3), (65, 64)])
@pytest.mark.parametrize("misere", [True, False])
def test_distinct_huge_heaps_are_inequivalent_with_checked_certificates(a, b, misere):
    r = equivalent(cg.nim(a), cg.nim(b), misere=misere)
    assert not r.holds
    assert check_proof(r)
    data = json.loads(json.dumps(r.to_json()))
    assert check_proof(data)
    assert len(json.dumps(data)) < 2000  # a short certificate
    # tampering: claim the opposite outcomes, or swap T for a heap that does not distinguish
    data["certificate"]["outcome_g_plus_T"] = data["certificate"]["outcome_h_plus_T"]
    assert not check_proof(data)


def test_a_wrong_distinguisher_between_huge_heaps_is_rejected():
    data = equivalent(cg.nim(BIG), cg.nim(BIG + 2)).to_json()
    data["certificate"]["T"] = "*7"  # *N + *7 and *(N+2) + *7 are both N in misère Nim
    ok, reasons = check_proof(data, explain=True)
    assert not ok and "does not distinguish" in reasons[0]


@pytest.mark.parametrize("misere", [True, False])
def test_identical_huge_heaps_are_equivalent(misere):
    r = equivalent(cg.nim(BIG), cg.nim(BIG), misere=misere)
    assert r.holds and check_proof(r) and check_proof(json.loads(json.dumps(r.to_json())))


def test_nim_shortcut_matches_direct_play_on_small_heaps():
    # the closed formulas against the checker's direct play (brute force), heaps <= 6
    from cgtalg.misere.equivalence import _nim_distinction

    for heaps in [(a, b, c) for a in range(7) for b in range(7) for c in range(4)]:
        forms = [by_definition(h) for h in heaps]
        for misere in (True, False):
            assert nim_sum_outcome(heaps, misere) == play_outcome(*forms, misere=misere), heaps
    for a in range(8):
        for b in range(8):
            if a != b:
                d = _nim_distinction(cg.nim(a), cg.nim(b), a, b)
                assert play_outcome(cg.nim(a), d.t) != play_outcome(cg.nim(b), d.t)
                assert not equivalent(cg.nim(a), cg.nim(b)).holds  # Theorem 1 search agrees


# -- drawings and reports ------------------------------------------------------------------------
def test_networkx_draws_a_huge_heap_as_one_node():
    G = cg.nim(BIG).to_networkx()
    (node, data), = G.nodes(data=True)
    assert data["label"] == f"*{BIG}" and data["atom"] == BIG and data["expanded"] is False
    H = cg.parse("{*99999999999, *2}").to_networkx()
    assert H.number_of_nodes() == 5 and H.number_of_edges() == 2 + 3  # {..} -> 2 options; *2 -> 0, *; * -> 0
    small = (cg.nim(2) + cg.nim(1)).to_networkx()
    assert all(d["expanded"] for _, d in small.nodes(data=True))


def test_describe_huge_heaps_and_small_sums():
    from cgtalg.report import describe

    r = describe(cg.parse("*99999999999"))
    assert r["grundy"] == 99_999_999_999 and r["misere_grundy"] == 99_999_999_999
    assert r["normal_winning_moves"] == ["0"] and r["misere_winning_moves"] == ["*"]
    assert r["misere_canonical"] == "*99999999999" and r["birthday"] == 99_999_999_999
    s = describe(cg.parse("*5+*7"))
    assert s["grundy"] == 2 and s["normal_winning_moves"] == ["*5+*5"]
    g = cg.nim(5) + cg.nim(7)
    assert s["misere_grundy"] == fold(g, WALK_MISERE)


def test_heaps_beyond_the_int_str_limit_print_everywhere():
    from cgtalg.report import describe

    digits = "9" * 5000
    g = cg.parse("*" + digits)
    assert str(cg.canonical_form(g, misere=True, universe="impartial")) == "*" + digits  # CGSuite notation of a huge heap
    h = cg.parse("{*" + digits + ", *3}")
    assert cg.parse(str(cg.canonical_form(h, misere=True, universe="impartial"))) is h
    text = str(describe(g))
    assert f"Grundy value {digits}" in text and f"(birthday {digits})" in text
