"""Tests for cgtalg.misere.equivalence: Theorem 1 of Spindler (seed 002), with certificates.

Sources:
- seed 002 = M. Spindler, "Equality classes of Nim positions under misère play", Integers 16
  (2016): Lemma 1 (= Siegel CGT Thm V.3.6), Lemma 2 (= Siegel CGT Thm V.3.5), Theorem 1,
  Theorem 5 (n + 1 ≡ n ⊕ 1), Definition 5 / Corollary 1 / Theorem 6 (reduced forms of Nim).
- /work/shared/notes/misere.md: examples {*1} = 0, {*1,*2} = 0, {0,*2} = *1, *2+*1 = *3,
  *1+*1 = 0, {*2} is new; counts of games born by day n 1, 2, 3, 5, 22 (Conway, ONAG ch. 12).
- Misère canonical forms (cgtalg.misere.canonical, Conway ONAG ch. 12 / Siegel CGT V.3) for
  confirmations: two forms are misère-equivalent iff their simplest forms are identical.
- Brute force from the definitions: o⁻(G + T) by direct play over a family of test games T
  (a finite family can only refute an equivalence, never confirm one).
"""

from __future__ import annotations

import itertools
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cgtalg as cg
from cgtalg.errors import GameNotationError
from cgtalg.misere import equivalence_engine as E
from cgtalg.misere.equivalence import distinguisher, equivalence_classes, equivalent, link, linked
from cgtalg.misere.equivalence_certificate import Distinction, EquivalenceProof, EquivalenceResult, GrundyProof
from cgtalg.misere.equivalence_engine import misere_mate
from cgtalg.misere.proof import check_proof

from cgtalg.misere import canonical  # noqa: E402

canon = canonical.misere_canonical_game


# ---------------------------------------------------------------------------------------
# brute force from the definitions (test-local; no library outcome code)
# ---------------------------------------------------------------------------------------
_P_MISERE: dict[int, bool] = {}
_P_NORMAL: dict[int, bool] = {}


def brute_p(g: cg.Game, misere: bool = True) -> bool:
    """P-position by the definition: misère: 0 is N, else P iff all options are N;
    normal: P iff no option is P. Iterative, memoised on ids."""
    memo = _P_MISERE if misere else _P_NORMAL
    stack = [g]
    while stack:
        x = stack[-1]
        if x.id in memo:
            stack.pop()
            continue
        todo = [o for o in x.options if o.id not in memo]
        if todo:
            stack.extend(todo)
            continue
        stack.pop()
        if misere:
            memo[x.id] = bool(x.options) and all(not memo[o.id] for o in x.options)
        else:
            memo[x.id] = not any(memo[o.id] for o in x.options)
    return memo[g.id]


def brute_outcome(g: cg.Game, misere: bool = True) -> str:
    return "P" if brute_p(g, misere) else "N"


def literal_forms_born_by(day: int) -> list[cg.Game]:
    """Every literal form born by ``day`` (1, 2, 4, 16 forms for days 0-3)."""
    forms = [cg.zero]
    for _ in range(day):
        forms = [cg.game(s) for r in range(len(forms) + 1) for s in itertools.combinations(forms, r)]
    return forms


def nim_position(heaps) -> cg.Game:
    g = cg.zero
    for h in heaps:
        g = g + cg.nim(h)
    return g


DAY3 = literal_forms_born_by(3)
DAY2 = literal_forms_born_by(2)


def canonical_born_by(day: int) -> list[cg.Game]:
    """Canonical forms born by ``day``: canonicalise all {S}, S ⊆ canonical forms of day-1."""
    forms = [cg.zero]
    for _ in range(day):
        subsets = (cg.game(s) for r in range(len(forms) + 1) for s in itertools.combinations(forms, r))
        forms = sorted({canon(x) for x in subsets}, key=lambda x: (x.birthday, x.id))
    return forms


DAY4_CANONICAL = canonical_born_by(4)


def family(forms: list[cg.Game]) -> list[cg.Game]:
    """Test games: the forms and all sums of two of them."""
    return list(forms) + [a + b for a, b in itertools.combinations_with_replacement(forms, 2)]


FAMILY = family(DAY4_CANONICAL)  # 22 + 253 test games


def refuted_by_family(g: cg.Game, h: cg.Game, fam=FAMILY) -> cg.Game | None:
    for t in fam:
        if brute_p(g + t) != brute_p(h + t):
            return t
    return None


def assert_sound(result: EquivalenceResult) -> None:
    """The certificate is re-checked independently, and a distinguisher is checked here too."""
    assert check_proof(result), check_proof(result, explain=True)
    if not result.holds:
        t = result.distinguisher
        assert t is not None
        assert brute_outcome(result.g + t, result.misere) != brute_outcome(result.h + t, result.misere)
        assert brute_outcome(result.g + t, result.misere) == result.certificate.outcome_g
        assert brute_outcome(result.h + t, result.misere) == result.certificate.outcome_h


# ---------------------------------------------------------------------------------------
# examples from the notes and Spindler's Theorem 5
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "a, b",
    [("{*}", "0"), ("{*, *2}", "0"), ("{0, *2}", "*"), ("*2+*", "*3"), ("*+*", "0")],
)
def test_notes_examples_equivalent(a, b):
    # notes/misere.md: {*1} = 0, {*1,*2} = 0, {0,*2} = *1, *2+*1 = *3, *1+*1 = 0
    r = equivalent(a, b)
    assert r.holds and bool(r)
    assert isinstance(r.certificate, EquivalenceProof)
    assert r.g is cg.parse(a) and r.h is cg.parse(b)
    assert_sound(r)
    assert equivalent(b, a).holds


def test_star2_option_is_new():
    # notes/misere.md: {*2} is new (equivalent to no game born by day 2)
    g = cg.parse("{*2}")
    for x in DAY2 + [cg.nim(3)]:
        r = equivalent(g, x)
        assert not r.holds
        assert_sound(r)


@pytest.mark.parametrize("n", range(0, 9))
def test_spindler_theorem5_adding_star(n):
    # seed 002, Theorem 5: n + 1 ≡ n ⊕ 1 (heap sizes), in the impartial misère universe
    r = equivalent(cg.nim(n) + cg.star, cg.nim(n ^ 1))
    assert r.holds
    assert_sound(r)
    # and *n + *1 is NOT *(n+1) when n is odd (n ⊕ 1 = n - 1 there)
    if n % 2 == 1:
        r2 = equivalent(cg.nim(n) + cg.star, cg.nim(n + 1))
        assert not r2.holds
        assert_sound(r2)


def test_star_plus_star_is_zero_but_not_in_normal_play_terms():
    # seed 002, Theorem 5 with n = 1: 1 + 1 ≡ 0; also true in normal play (value 0)
    assert equivalent(cg.star + cg.star, cg.zero).holds
    assert equivalent(cg.star + cg.star, cg.zero, misere=False).holds
    # 1 + 1 + 1 ≡ 1 but 1 + 1 + 1 is not 0 in either play
    assert equivalent(cg.star + cg.star + cg.star, cg.star).holds
    assert not equivalent(cg.star + cg.star + cg.star, cg.zero).holds


# ---------------------------------------------------------------------------------------
# Spindler's Theorem 6 / Corollary 1 on small Nim positions
# ---------------------------------------------------------------------------------------
def reduced_form(heaps) -> tuple[int, ...]:
    """Spindler's Definition 5 (seed 002), written from the paper's three steps."""
    h = sorted(heaps)
    while True:  # (i) lower the lowest pair of odd heaps
        odd = sorted((x, i) for i, x in enumerate(h) if x % 2)
        if len(odd) < 2:
            break
        h[odd[0][1]] -= 1
        h[odd[1][1]] -= 1
    odd = [i for i, x in enumerate(h) if x % 2]
    if odd and h[odd[0]] < max(h):  # (ii) move one counter from the odd heap to a largest heap
        largest = max(range(len(h)), key=lambda i: h[i])
        h[odd[0]] -= 1
        h[largest] += 1
    return tuple(sorted(x for x in h if x))  # (iii) delete empty heaps


def nim_positions(max_heap: int, max_heaps: int) -> list[tuple[int, ...]]:
    return [
        c
        for n in range(max_heaps + 1)
        for c in itertools.combinations_with_replacement(range(1, max_heap + 1), n)
    ]


def test_reduced_form_examples():
    # seed 002, Corollary 1's proof: a + b ≡ (a ⊕ 1) + (b ⊕ 1) for odd a, b; examples by hand
    assert reduced_form((1, 1)) == ()
    assert reduced_form((1, 3)) == (2,)
    assert reduced_form((1, 2)) == (3,)
    assert reduced_form((3, 3, 2)) == (2, 2, 2)
    assert reduced_form((2, 3, 4)) == (2, 2, 5)
    assert reduced_form((5,)) == (5,)


def _check_nim_classes(max_heap: int, max_heaps: int) -> None:
    positions = nim_positions(max_heap, max_heaps)
    forms = {p: nim_position(p) for p in positions}
    for p in positions:  # Corollary 1: the reduced form is equivalent to the original
        r = equivalent(forms[p], nim_position(reduced_form(p)))
        assert r.holds, (p, reduced_form(p))
        assert_sound(r)
    for p, q in itertools.combinations(positions, 2):  # Theorem 6 and its converse
        r = equivalent(forms[p], forms[q])
        assert r.holds == (reduced_form(p) == reduced_form(q)), (p, q)
        assert_sound(r)


def test_spindler_theorem6_three_heaps_up_to_4():
    # seed 002, Theorem 6 + Corollary 1: Nim positions with at most 3 heaps of size at most 4
    _check_nim_classes(4, 3)


@pytest.mark.slow
def test_spindler_theorem6_larger():
    # seed 002, Theorem 6 + Corollary 1: up to 3 heaps of size 5, and 4 heaps of size 4
    _check_nim_classes(5, 3)
    _check_nim_classes(4, 4)


# ---------------------------------------------------------------------------------------
# normal play
# ---------------------------------------------------------------------------------------
def test_normal_play_agrees_with_grundy_and_direct_play():
    # Sprague-Grundy (Siegel CGT IV.1): G ≡ H iff G + H is a P-position iff equal values
    forms = DAY3 + [nim_position(p) for p in nim_positions(3, 2)]
    for g, h in itertools.combinations_with_replacement(forms, 2):
        r = equivalent(g, h, misere=False)
        assert r.holds == (cg.grundy(g) == cg.grundy(h))
        assert r.holds == brute_p(g + h, misere=False)  # definition of normal-play equality
        assert isinstance(r.certificate, GrundyProof if r.holds else Distinction)
        assert_sound(r)
        assert linked(g, h, misere=False) == r.holds


def test_normal_play_distinguisher_is_a_nim_heap():
    r = equivalent("*2", "{0, *2}", misere=False)  # values 2 and 1
    assert not r.holds and r.distinguisher is cg.star
    assert r.certificate.outcome_h == "P" and r.certificate.outcome_g == "N"
    assert distinguisher("*2", "*3", misere=False) is cg.nim(3)
    # in normal play {*2} = 0 (value 0), in misère play it is not
    assert equivalent("{*2}", "0", misere=False).holds
    assert not equivalent("{*2}", "0").holds


# ---------------------------------------------------------------------------------------
# brute force: refutations against a family of test games
# ---------------------------------------------------------------------------------------
def test_brute_force_family_never_refutes_a_claimed_equivalence():
    # Forms born by day 3 (all 16 literal forms) and sums of two day-2 forms.
    forms = DAY3 + [a + b for a, b in itertools.combinations_with_replacement(DAY2, 2)]
    confirmed = 0
    refutations = 0
    for g, h in itertools.combinations(forms, 2):
        r = equivalent(g, h)
        t = refuted_by_family(g, h)
        if r.holds:
            assert t is None, (str(g), str(h), str(t))
            assert brute_p(g) == brute_p(h)  # T = 0
        else:
            refutations += 1
            confirmed += t is not None
        assert_sound(r)
    # the family must be rich enough to confirm most refutations independently
    assert refutations > 100 and confirmed == refutations


def test_star2_option_vs_star2_plus_star2():
    # {*2} = *[2#] and *2+*2 = *[2[2]] are NOT equivalent, although no form born by day 3,
    # nor any sum of two of them, tells them apart (so a small brute-force family would
    # wrongly "confirm" the equivalence). Theorem 1, condition (i), fails at H' = *2+*.
    g, h = cg.parse("{*2}"), cg.parse("*2+*2")
    assert refuted_by_family(g, h, family(DAY3)) is None
    r = equivalent(g, h)
    assert not r.holds
    assert_sound(r)
    cert = r.certificate
    assert cert.condition == "i" and cert.option is cg.parse("*2+*")
    assert (cert.outcome_g, cert.outcome_h) == ("P", "N")
    # the link: G + T and H' + T are both P, so H + T has a winning move
    assert brute_p(g + cert.t) and brute_p(cert.option + cert.t)
    text = r.explain()
    assert "{*2} ≢ *2+*2 in misère play" in text
    assert "condition (i)" in text and f"fails at H' = {cert.option}:" in text
    assert "o(G + T) = P but o(H + T) = N" in text
    t_line = next(line for line in text.splitlines() if line.startswith("Distinguisher T = "))
    assert cg.parse(t_line.removeprefix("Distinguisher T = ")) is cert.t  # printed T parses back
    # the symmetric question fails condition (ii) at G' = *2+*
    r2 = equivalent(h, g)
    assert r2.certificate.condition == "ii" and not r2.holds
    assert_sound(r2)


# ---------------------------------------------------------------------------------------
# Lemmas 1 and 2 (Siegel V.3.5-3.6) against Theorem 1
# ---------------------------------------------------------------------------------------
def test_lemma1_and_lemma2_agree_with_theorem1():
    # Lemma 1: G ≡ H iff G is linked to no H', H to no G', and (iii); Lemma 2 gives `linked`.
    forms = DAY3
    for g, h in itertools.product(forms, repeat=2):
        lemma1 = (
            not any(linked(g, hp) for hp in h.options)
            and not any(linked(h, gp) for gp in g.options)
            and not (g.is_zero and brute_p(h))
            and not (h.is_zero and brute_p(g))
        )
        assert equivalent(g, h).holds == lemma1, (str(g), str(h))


def test_link_is_a_common_p_partner():
    # Definition 1 of seed 002: G linked to H iff o(G+T) = o(H+T) = P for some T.
    fam = family(DAY3)
    for g, h in itertools.product(DAY3, repeat=2):
        t = link(g, h)
        found = next((x for x in fam if brute_p(g + x) and brute_p(h + x)), None)
        if t is None:
            assert not linked(g, h)
            assert found is None, (str(g), str(h), str(found))
        else:
            assert linked(g, h)
            assert brute_p(g + t) and brute_p(h + t)


def test_linked_examples():
    # Lemma 2: 0 is linked to 0 (T = *); * is not linked to 0 (0 is an option of *)
    assert linked(cg.zero, cg.zero) and link(cg.zero, cg.zero) is cg.star
    assert not linked(cg.star, cg.zero) and link(cg.star, cg.zero) is None
    assert linked("{*2}", "*3") and not linked("*2", "*3")


def test_mate_makes_p_positions():
    # Siegel's mate: G + G⁻ is a misère P-position for every G
    for g in DAY3 + [nim_position(p) for p in nim_positions(3, 2)]:
        assert brute_p(g + misere_mate(g))
    assert misere_mate(cg.zero) is cg.star


# ---------------------------------------------------------------------------------------
# canonical forms (confirmations) on the games born by day 4 and day 5
# ---------------------------------------------------------------------------------------
def test_counts_of_classes_born_by_day_n():
    # ONAG ch. 12 / notes: 1, 2, 3, 5, 22 games born by days 0-4, from Theorem 1 alone:
    # every form born by day n is equivalent to {S} with S a set of day-(n-1) representatives.
    reps = [cg.zero]
    counts = [1]
    for _ in range(4):
        forms = [cg.game(s) for r in range(len(reps) + 1) for s in itertools.combinations(reps, r)]
        classes = equivalence_classes(forms)
        reps = [c[0] for c in classes]
        counts.append(len(classes))
        for c in classes:  # each class is one canonical form
            assert len({canon(x).id for x in c}) == 1
    assert counts == [1, 2, 3, 5, 22]
    assert len(DAY4_CANONICAL) == 22


def test_census_module_agrees():
    from cgtalg.misere import census

    day4 = [f.game for f in census.misere_games_born_by(4)]
    assert {x.id for x in day4} == {x.id for x in DAY4_CANONICAL}


def test_day4_pairs_agree_with_canonical_forms():
    # every pair of the 22 canonical forms born by day 4, plus non-canonical literal forms
    # ({S} for S ⊆ the 5 day-3 forms, all 16 literal day-3 forms, some sums)
    day3 = canonical_born_by(3)
    literal = [cg.game(s) for r in range(6) for s in itertools.combinations(day3, r)]
    forms = DAY4_CANONICAL + literal + DAY3 + [a + b for a, b in itertools.combinations(day3, 2)]
    forms = list({x.id: x for x in forms}.values())
    equal_pairs = 0
    for g, h in itertools.combinations_with_replacement(forms, 2):
        r = equivalent(g, h)
        assert r.holds == (canon(g) is canon(h)), (str(g), str(h))
        equal_pairs += r.holds and g is not h
        assert_sound(r)
    for g, h in itertools.combinations(DAY4_CANONICAL, 2):  # distinct canonical forms
        assert not equivalent(g, h).holds
    assert equal_pairs > 50  # the set really contains non-trivial equivalences


def _equivalent_variant(g: cg.Game, rng: random.Random, pool: dict[int, list[cg.Game]]) -> cg.Game:
    """A different form equivalent to ``g`` by theory: options replaced by equivalent forms
    (equivalence is a congruence) and, when g has options, an option X = {g, ...} added
    ({S ∪ {X}} reduces to {S} when X has {S} as an option: notes/misere.md)."""
    opts = [rng.choice(pool.get(canon(o).id, [o])) for o in g.options]
    if g.options and rng.random() < 0.7:
        # by Theorem 1 itself: the new option X has the option g, and neither form is 0
        extra = rng.sample(DAY4_CANONICAL, rng.randint(0, 3))
        opts.append(cg.game([g] + extra))
    return cg.game(opts)


def _day5_pairs(n: int, seed: int) -> list[tuple[cg.Game, cg.Game]]:
    rng = random.Random(seed)
    pool: dict[int, list[cg.Game]] = {}
    for x in literal_forms_born_by(3) + [cg.game(s) for s in itertools.combinations(DAY4_CANONICAL[:6], 2)]:
        pool.setdefault(canon(x).id, []).append(x)
    for a, b in itertools.combinations_with_replacement(DAY4_CANONICAL[:8], 2):
        pool.setdefault(canon(a + b).id, []).append(a + b)
    pairs = []
    for k in range(n):
        g = cg.game(rng.sample(DAY4_CANONICAL, rng.randint(0, 22)))
        if k % 2:
            h = cg.game(rng.sample(DAY4_CANONICAL, rng.randint(0, 22)))
        else:
            h = _equivalent_variant(g, rng, pool)
        pairs.append((g, h))
    return pairs


def test_day5_random_pairs_agree_with_canonical_forms():
    # a few hundred pairs of day-5 forms {S}, S ⊆ the 22 day-4 forms; half are constructed
    # equivalent by theory (congruence + reversible options), half are random pairs
    holds = 0
    for k, (g, h) in enumerate(_day5_pairs(300, seed=5)):
        r = equivalent(g, h)
        assert r.holds == (canon(g) is canon(h)), (str(g), str(h))
        if k % 2 == 0:
            assert r.holds, (str(g), str(h))  # equivalent by construction
        holds += r.holds
        assert_sound(r)
    assert holds >= 150


@pytest.mark.slow
def test_day5_many_random_pairs():
    for g, h in _day5_pairs(3000, seed=55):
        r = equivalent(g, h)
        assert r.holds == (canon(g) is canon(h))
        assert_sound(r)


def test_pruned_and_unpruned_search_agree():
    # the pruning invariants (normal and misère Grundy values) only skip work
    plain = E._MisereEngine(prune=False)
    forms = DAY4_CANONICAL + DAY3 + [g for g, _ in _day5_pairs(20, seed=9)]
    for g, h in itertools.combinations_with_replacement(forms, 2):
        eq = plain.run(("eq", g, h))
        assert eq == equivalent(g, h).holds
        if eq:
            assert (cg.grundy(g), cg.misere_grundy(g)) == (cg.grundy(h), cg.misere_grundy(h))
            node = plain.node(g, h)
            node = node if node.g is g else node.swapped()
            assert check_proof(EquivalenceResult(g, h, True, True, node))
        else:
            d = plain.distinction(g, h)
            assert check_proof(EquivalenceResult(g, h, True, False, d))


def _forms():
    return st.recursive(
        st.just(cg.zero),
        lambda kids: st.lists(kids, max_size=3).map(cg.game),
        max_leaves=12,
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_forms(), _forms())
def test_random_forms_property(g, h):
    # hypothesis: Theorem 1 agrees with canonical forms; every certificate checks; every
    # form is equivalent to its canonical form
    r = equivalent(g, h)
    assert r.holds == (canon(g) is canon(h))
    assert_sound(r)
    assert equivalent(g, canon(g)).holds


# ---------------------------------------------------------------------------------------
# certificates: structure, DAG sharing, explanation, JSON
# ---------------------------------------------------------------------------------------
def test_proof_witnesses_follow_theorem1():
    r = equivalent("*2+*", "*3")
    p = r.certificate
    assert p.g is r.g and p.h is r.h and not p.identical
    assert [w.option for w in p.condition_i] == list(r.h.options)
    assert [w.option for w in p.condition_ii] == list(r.g.options)
    for w in p.condition_i:
        assert w.kind in ("H''", "G'")
        if w.kind == "G'":
            assert w.game in r.g.options and {w.proof.g.id, w.proof.h.id} == {w.game.id, w.option.id}
        else:
            assert w.game in w.option.options and {w.proof.g.id, w.proof.h.id} == {w.game.id, r.g.id}
    # H' = 0 is matched by G' = *+* (= {*}), with the sub-proof {*} ≡ 0
    w0 = next(w for w in p.condition_i if w.option is cg.zero)
    assert w0.kind == "G'" and w0.game is cg.star + cg.star and not w0.proof.identical


def test_certificate_is_a_dag_not_a_tree():
    # *8 + *1 ≡ *9: the sub-proofs *k + *1 ≡ *(k ⊕ 1) are cited many times but stored once
    r = equivalent(cg.nim(8) + cg.star, cg.nim(9))
    nodes = r.certificate.nodes()
    citations = sum(len(n.condition_i) + len(n.condition_ii) for n in nodes)
    assert len(nodes) < citations
    assert len({(n.g.id, n.h.id) for n in nodes}) == len(nodes)  # one node per pair
    data = r.to_json()
    assert len(data["certificate"]["nodes"]) == len(nodes)


def test_explain_equivalence_text():
    # (how a sum prints depends on which decomposition built it first: *2+* or *+*2)
    g = str(cg.parse("*2+*"))
    text = equivalent("*2+*", "*3").explain()
    lines = text.splitlines()
    assert lines[0] == f"{g} ≡ *3 in misère play (impartial universe)."
    assert "Theorem 1 of Spindler (2016)" in text
    assert f"[1] {g} ≡ *3" in lines
    assert "    (i)   H' = 0: G' = {*} ≡ H'  ([2])" in lines
    assert "          H' = *: G' = * ≡ H'  (identical)" in lines
    assert "    (iii) holds: neither G nor H is 0." in lines
    assert "[2] {*} ≡ 0" in lines
    assert "    (iii) B = 0, and A is an N-position: it has the move to *, a P-position." in lines
    assert str(equivalent("*2+*", "*3")) == text
    assert "identical game trees" in equivalent("*2", "*2").explain()


def test_explain_condition_iii_and_normal_play():
    text = equivalent("0", "*2+*2").explain()
    assert "Distinguisher T = 0" in text and "condition (iii)" in text
    assert "o(G + T) = N but o(H + T) = P" in text
    text = equivalent("*2+*", "*3", misere=False).explain()
    assert "both have Grundy value 3" in text and f"    {cg.parse('*2+*')}: 3" in text.splitlines()
    text = equivalent("*2", "*3", misere=False).explain()
    assert "Distinguisher T = *3" in text and "o(G + T) = N but o(H + T) = P" in text


def test_explain_is_bounded_for_large_proofs():
    r = equivalent(cg.nim(60) + cg.star, cg.nim(61))
    text = r.explain(max_steps=5)
    assert "more steps (all of them are in to_json())" in text
    assert text.count("\n[") == 5


def test_to_json_round_trip():
    for a, b, misere in [("*2+*", "*3", True), ("{*2}", "*2+*2", True), ("*3", "*2+*", False), ("*", "*2", False)]:
        r = equivalent(a, b, misere=misere)
        data = json.loads(json.dumps(r.to_json()))
        assert data["g"] == str(r.g) and data["h"] == str(r.h)
        assert data["holds"] == r.holds and data["misere"] == misere
        assert check_proof(data)
        if not r.holds:
            assert cg.parse(data["certificate"]["T"]) is r.distinguisher


def test_distinguisher_function():
    assert distinguisher("*3", "*2+*") is None
    t = distinguisher("*2", "*3")
    assert t is not None and brute_p(cg.nim(2) + t) != brute_p(cg.nim(3) + t)


def _chain(n: int) -> cg.Game:
    g = cg.zero
    for _ in range(n):
        g = cg.game([g])
    return g


def test_deep_forms_do_not_hit_the_recursion_limit():
    # birthdays far above Python's recursion limit: the chain {{...{0}...}} of length n is
    # ≡ 0 for even n and ≡ * for odd n ({*} = 0 and {0} = *, and congruence)
    n = 3000
    r = equivalent(_chain(n) + cg.star, cg.star + _chain(n + 2) + cg.star + cg.star)
    assert r.holds and check_proof(r)
    r2 = equivalent(_chain(n), _chain(n + 1))
    assert not r2.holds and check_proof(r2)
    r3 = equivalent(_chain(n) + cg.nim(2), _chain(n + 1) + cg.nim(3))
    assert r3.holds and check_proof(r3)


def test_clear_cache_keeps_answers():
    before = equivalent("*2+*", "*3").holds
    E.clear_equivalence_cache()
    assert equivalent("*2+*", "*3").holds == before


# ---------------------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------------------
def test_bad_input_messages():
    with pytest.raises(TypeError, match=r"g must be a Game or game text, got int: 3"):
        equivalent(3, "*")
    with pytest.raises(TypeError, match=r"h must be a Game or game text, got list"):
        linked("*", [])
    with pytest.raises(TypeError, match=r"misere must be True or False, got 'yes'"):
        equivalent("*", "*", misere="yes")
    with pytest.raises(GameNotationError, match=r"bad game notation '\{\*2,\}'"):
        equivalent("{*2,}", "0")
    with pytest.raises(TypeError, match=r"game must be a Game or game text, got NoneType"):
        equivalence_classes([cg.zero, None])
