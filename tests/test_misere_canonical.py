"""Misère canonical forms and CGSuite's *[...] notation, cross-checked against direct play.

Sources: Conway, On Numbers and Games (ONAG) ch. 12; Winning Ways ch. 13; Siegel, Combinatorial
Game Theory (CGT) §V.3; /work/shared/notes/misere.md; seed 000 (Plambeck, "How to lose at
.123", Tables 1-2, the adders, Example 1); seed 002 (Spindler, "Equality classes of Nim
positions under misère play", Theorems 5-6, Definition 5, Corollary 1).
"""

from __future__ import annotations

import itertools
import pickle
import random
import subprocess
import sys

import pytest

import cgtalg as cg
from cgtalg.core.fold import Evaluator, fold
from cgtalg.errors import GameNotationError
from cgtalg.misere.canonical import (
    MisereCanonicalForm,
    misere_canonical,
    misere_canonical_game,
    misere_canonical_sum,
    misere_equal,
    misere_simplest,
    reducing_candidates,
)
from cgtalg.misere.census import misere_games_born_by
from cgtalg.misere.notation import format_misere

P = cg.parse


# -- brute force from the definitions ----------------------------------------------------------
_OUTCOME_MEMO: dict[tuple[int, ...], str] = {}


def brute_outcome(*components: cg.Game) -> str:
    """Misère outcome of the sum of ``components`` by direct play (no sums, no canonical forms):
    a position with no move is N (the player to move has made no last move); otherwise P iff
    every move, in any one component, leads to N."""
    key = tuple(sorted(c.id for c in components if c.options))
    hit = _OUTCOME_MEMO.get(key)
    if hit is not None:
        return hit
    comps = [c for c in components if c.options]
    result = "N" if not comps else "P"
    for i, c in enumerate(comps):
        for o in c.options:
            if brute_outcome(*comps[:i], o, *comps[i + 1 :]) == "P":
                result = "N"
                break
        if result == "N":
            break
    _OUTCOME_MEMO[key] = result
    return result


def literal_born_by(day: int) -> list[cg.Game]:
    """Every literal form (not reduced) of birthday <= day."""
    forms = [cg.zero]
    for _ in range(day):
        forms = [cg.game(s) for r in range(len(forms) + 1) for s in itertools.combinations(forms, r)]
    return forms


def literal_sum(a: cg.Game, b: cg.Game, memo=None) -> cg.Game:
    """a + b built option by option with cg.game (no sum bookkeeping, so canonicalising it walks
    the literal sum instead of using the evaluator's add rule)."""
    memo = {} if memo is None else memo
    key = (a.id, b.id)
    if key not in memo:
        opts = [literal_sum(x, b, memo) for x in a.options] + [literal_sum(a, y, memo) for y in b.options]
        memo[key] = cg.game(opts)
    return memo[key]


@pytest.fixture(scope="module")
def day4():
    return [f.game for f in misere_games_born_by(4)]


@pytest.fixture(scope="module")
def family(day4):
    """Test games T (tuples of components): the literal forms born by day 3 and sums of two,
    and the 22 canonical forms born by day 4 and sums of two. test_family_separates_day4 shows
    that it separates the day-4 games (the day-3 forms alone do not)."""
    l3 = literal_born_by(3)
    fam = [(x,) for x in l3] + list(itertools.combinations_with_replacement(l3, 2))
    fam += [(x,) for x in day4] + list(itertools.combinations_with_replacement(day4, 2))
    return fam


def signature(g: cg.Game, fam) -> tuple[str, ...]:
    return tuple(brute_outcome(g, *t) for t in fam)


def random_form(rng: random.Random, depth: int, pool: list[cg.Game]) -> cg.Game:
    """A random literal form: options drawn from ``pool`` and from fresh random subforms."""
    if depth == 0:
        return rng.choice(pool)
    k = rng.randint(1, 3)
    opts = [random_form(rng, rng.randint(0, depth - 1), pool) for _ in range(k)]
    return cg.game(opts)


# -- (a) outcomes of sums by direct play --------------------------------------------------------
def test_brute_force_outcome_agrees_with_core_sums_and_canonical_forms(day4):
    rng = random.Random(1)
    l3 = literal_born_by(3)
    for _ in range(300):
        g = random_form(rng, 3, l3)
        t = rng.choice(day4)
        direct = brute_outcome(g, t)
        assert cg.outcome(g + t, misere=True) == direct
        # the canonical forms of the parts give the same outcome in the sum
        cg_sum = misere_canonical_sum(g, t)
        assert cg_sum.misere_outcome == direct
        assert brute_outcome(misere_canonical_game(g), misere_canonical_game(t)) == direct


# -- (b) the 22 games born by day 4: distinct forms are distinguishable ------------------------
def test_family_separates_day4(day4, family):
    sigs = {g.id: signature(g, family) for g in day4}
    for g, h in itertools.combinations(day4, 2):
        assert sigs[g.id] != sigs[h.id], f"no T in the family distinguishes {g} and {h}"
    # and the distinguishing T really is a witness: outcomes of G+T and H+T differ in direct play
    g, h = day4[5], day4[6]
    t = next(t for t in family if brute_outcome(g, *t) != brute_outcome(h, *t))
    assert brute_outcome(g, *t) != brute_outcome(h, *t)


def test_day3_forms_alone_do_not_separate_day4(day4):
    # why the family needs more than small games: {*2} and {*3} agree against every T born by day 3
    l3 = literal_born_by(3)
    fam = [(x,) for x in l3] + list(itertools.combinations_with_replacement(l3, 2))
    a, b = P("{*2}"), P("{*3}")
    assert signature(a, fam) == signature(b, fam)
    assert not misere_equal(a, b)


def test_equal_canonical_forms_play_alike(day4, family):
    # every literal form born by day 4 has one of the 22 canonical forms; for each class, up to
    # 12 random literal members play exactly like the canonical form against every T
    classes: dict[int, list[cg.Game]] = {}
    for g in literal_born_by(4):
        classes.setdefault(misere_canonical_game(g).id, []).append(g)
    assert sorted(classes) == sorted(g.id for g in day4)
    rng = random.Random(2)
    for c in day4:
        members = classes[c.id]
        sig = signature(c, family)
        for g in rng.sample(members, min(12, len(members))):
            assert signature(g, family) == sig, f"{g} and its canonical form {c} differ"


# -- (c) canonical forms of random larger forms are equivalent to them --------------------------
def test_canonical_form_of_random_forms_is_equivalent(family):
    rng = random.Random(3)
    pool = literal_born_by(2)
    for _ in range(60):
        g = random_form(rng, 5, pool)
        c = misere_canonical_game(g)
        assert c.birthday <= g.birthday
        assert signature(g, family) == signature(c, family)


# -- (d) idempotence and uniqueness of the reducing candidate ----------------------------------
def test_idempotent_and_canonical_options(day4):
    rng = random.Random(4)
    pool = literal_born_by(2)
    forms = [random_form(rng, 6, pool) for _ in range(200)] + day4
    for g in forms:
        c = misere_canonical(g)
        assert misere_canonical(c.game) is c
        assert misere_canonical_game(c.game) is c.game
        for o in c.game.options:  # hereditarily canonical
            assert misere_canonical_game(o) is o
        assert reducing_candidates(c.game.options) == []


def test_at_most_one_reducing_candidate(day4):
    rng = random.Random(5)
    masks = [rng.getrandbits(len(day4)) for _ in range(3000)]
    for m in masks:
        s = [g for i, g in enumerate(day4) if m >> i & 1]
        assert len(reducing_candidates(s)) <= 1
    day3 = [f.game for f in misere_games_born_by(3)]
    for m in range(1 << len(day3)):
        s = [g for i, g in enumerate(day3) if m >> i & 1]
        assert len(reducing_candidates(s)) <= 1


# -- (e) the notes' examples ------------------------------------------------------------------
@pytest.mark.parametrize(
    "text, expected",
    [
        ("{*1}", "0"),
        ("{*1, *2}", "0"),
        ("{0, *2}", "*1"),
        ("*2+*1", "*3"),
        ("*1+*1", "0"),
        ("*3+*1", "*2"),
        ("{*2}", "{*2}"),  # {*2} is new: it is its own canonical form
        ("*2+*2", "{*2, *3}"),  # Plambeck's adder :4 = {:2, :3} (seed 000)
    ],
)
def test_notes_examples(text, expected):
    assert misere_canonical_game(P(text)) is P(expected)


def test_proviso_matters():
    # {*2} reverses through 0 but has no P-position option: the proviso keeps it a new game
    assert reducing_candidates([cg.nim(2)]) == []
    assert reducing_candidates([cg.nim(1)]) == [cg.zero]
    assert misere_simplest([cg.nim(2)]) is P("{*2}")


def test_nim_heaps_are_canonical():
    for n in range(12):
        assert misere_canonical_game(cg.nim(n)) is cg.nim(n)


# -- sums -----------------------------------------------------------------------------------------
def test_canonical_sum_matches_literal_sum(day4):
    # an evaluator without the add rule walks the literal sum option by option
    walk = Evaluator("test_misere_canonical_no_add", lambda g, vals: misere_simplest(vals))
    rng = random.Random(6)
    memo: dict = {}
    for _ in range(150):
        a, b = rng.choice(day4), rng.choice(day4)
        lit = literal_sum(a, b, memo)
        assert lit is a + b  # hash-consing: the same form
        assert misere_canonical_sum(a, b).game is fold(lit, walk)
        assert misere_canonical_game(a + b) is fold(lit, walk)
    for a, b in [(cg.nim(2), cg.nim(2)), (P("{*2}"), cg.nim(3)), (P("{*2}"), P("{*3}"))]:
        assert misere_canonical_sum(a, b).game is fold(literal_sum(a, b), walk)


def test_sum_operator_and_commutativity(day4):
    a, b = misere_canonical(day4[7]), misere_canonical(day4[12])
    assert a + b is b + a
    assert a + b is misere_canonical_sum(day4[7], day4[12])
    assert a + cg.nim(1) + cg.nim(1) is a


# -- seed 002 (Spindler): Nim positions ----------------------------------------------------------
def spindler_reduced(heaps: tuple[int, ...]) -> tuple[int, ...]:
    """Definition 5 (Spindler): the reduced form of a Nim position."""
    h = sorted(heaps)
    while True:
        odd = [i for i, x in enumerate(h) if x % 2]
        if len(odd) < 2:
            break
        h[odd[0]] -= 1
        h[odd[1]] -= 1
        h.sort()
    odd = [i for i, x in enumerate(h) if x % 2]
    if odd and h[odd[0]] != max(h):
        i = odd[0]
        h[i] -= 1
        j = max(range(len(h)), key=lambda k: (h[k], k))
        h[j] += 1
    return tuple(sorted(x for x in h if x))


def test_spindler_theorem_5():
    for n in range(12):
        assert misere_equal(cg.nim(n) + cg.nim(1), cg.nim(n ^ 1))


def test_spindler_theorem_6_nim_positions():
    # Corollary 1 + Theorem 6: Nim positions are misère equal iff their reduced forms coincide
    positions = sorted({tuple(sorted(p)) for k in range(4) for p in itertools.product(range(1, 6), repeat=k)})
    canon = {p: misere_canonical_game(sum((cg.nim(x) for x in p), cg.zero)) for p in positions}
    for p, q in itertools.combinations(positions, 2):
        assert (canon[p] is canon[q]) == (spindler_reduced(p) == spindler_reduced(q)), (p, q)


def test_sums_of_twos_are_distinct():
    # Plambeck (cited by Spindler, Introduction): distinct sums of *2's are inequivalent
    forms = [misere_canonical(sum((cg.nim(2) for _ in range(k)), cg.zero)) for k in range(7)]
    assert len(set(forms)) == 7


# -- (g) seed 000 (Plambeck, .123) --------------------------------------------------------------
def dot123_heaps(n_max: int) -> list[cg.Game]:
    """Single-heap forms of the octal game .123 (seed 000: remove 1 only when it is the whole
    heap, 2 only from a heap of more than 2, 3 from any heap; nothing splits)."""
    h = [cg.zero]
    for n in range(1, n_max + 1):
        opts = []
        if n == 1:
            opts.append(h[0])
        if n > 2:
            opts.append(h[n - 2])
        if n >= 3:
            opts.append(h[n - 3])
        h.append(cg.game(opts))
    return h


# Table 2 of seed 000, heaps 1..15: G*-values; the base is the normal Grundy value (Table 1),
# the first superscript the misère Grundy value. Plain integers are nim-heaps (genus (1)-(3)).
PLAMBECK_TABLE2 = {  # heap: (normal value, first superscript)
    1: (1, 0), 2: (0, 1), 3: (2, 2), 4: (2, 2), 5: (1, 0),
    6: (0, 0), 7: (0, 1), 8: (2, 1), 9: (1, 2), 10: (1, 0),
    11: (0, 0), 12: (0, 1), 13: (2, 1), 14: (1, 2), 15: (1, 0),
}


def test_plambeck_123_forms_and_table2():
    h = dot123_heaps(40)
    a = misere_canonical(h[6])
    b = misere_canonical(h[8])
    c = misere_canonical(h[9])
    assert a.game is P("{*2}")
    assert b.game is cg.game([a.game, cg.nim(1)])
    assert c.game is cg.game([a.game, cg.zero])
    for f in (a, b, c):
        assert f.nim_heap_size() is None
    for n, (g, gamma) in PLAMBECK_TABLE2.items():
        f = misere_canonical(h[n])
        assert f.misere_grundy == gamma, n
        assert cg.misere_grundy(h[n]) == gamma, n
        assert cg.grundy(f.game) == g == cg.grundy(h[n]), n
    # "the first non-nim-heap occurs at the six-counter heap"; h1 = 1, h2 = 0, h3 = h4 = 2,
    # h(5k) = 1 and h(5k+2) = 0 are nim-heaps
    assert [misere_canonical(h[n]).nim_heap_size() for n in range(1, 6)] == [1, 0, 2, 2, 1]
    for k in range(1, 8):
        assert misere_canonical_game(h[5 * k]) is cg.nim(1)
        assert misere_canonical_game(h[5 * k + 2]) is cg.zero
    # "the subsequent games at heap sizes 1, 3 and 4 (mod 5) are not identical to a, b and c"
    assert misere_canonical(h[11]) != a
    assert misere_canonical(h[13]) != b
    assert misere_canonical(h[14]) != c
    # single-heap P-positions 1, 5, 6, 10, 11, 15, 16, 20, 21
    assert [n for n in range(1, 22) if misere_canonical(h[n]).misere_outcome == "P"] == [
        1, 5, 6, 10, 11, 15, 16, 20, 21,
    ]


def test_plambeck_example_1():
    # seed 000, Example 1: heaps 9, 8, 5, 3 is an N-position; the winning moves are 8 -> 5,
    # 5 -> 3 and 3 -> 1 (misère nim value 0 after each), the other five moves lose
    h = dot123_heaps(9)

    def position(*heaps):
        return sum((misere_canonical(h[x]) for x in heaps), misere_canonical(cg.zero))

    assert position(9, 8, 5, 3).misere_outcome == "N"
    p_moves = [(9, 5, 5, 3), (9, 8, 3, 3), (9, 8, 5, 1)]
    n_moves = [(7, 8, 5, 3), (6, 8, 5, 3), (9, 6, 5, 3), (9, 8, 2, 3), (9, 8, 5, 0)]
    for m in p_moves:
        assert position(*m).misere_outcome == "P", m
        assert brute_outcome(*(h[x] for x in m)) == "P", m
    for m in n_moves:
        assert position(*m).misere_outcome == "N", m
        assert brute_outcome(*(h[x] for x in m)) == "N", m


def test_plambeck_adders():
    # seed 000, "Adders": :(2a) = a copies of :2, :(2a+1) = :(2a) + :1; in terms of options
    # :4 = {:2,:3}, :5 = {:2,:3,:4}, :(2a) = {:(2a-2), :(2a-1)}, :(2a+1) = {:(2a-2), :(2a-1), :(2a)}
    def adder(n):
        two = misere_canonical(cg.nim(2))
        f = misere_canonical(cg.zero)
        for _ in range(n // 2):
            f = f + two
        return f + cg.nim(n % 2)

    ad = [adder(n) for n in range(13)]
    for n in range(4):
        assert ad[n].game is cg.nim(n)
    assert set(ad[4].options) == {ad[2], ad[3]}
    assert set(ad[5].options) == {ad[2], ad[3], ad[4]}
    for a in range(3, 7):
        assert set(ad[2 * a].options) == {ad[2 * a - 2], ad[2 * a - 1]}
    for a in range(3, 6):
        assert set(ad[2 * a + 1].options) == {ad[2 * a - 2], ad[2 * a - 1], ad[2 * a]}
    for a in range(7):
        for b in range(7):
            expected = a + b - 2 if (a % 2 and b % 2) else a + b
            assert ad[a] + ad[b] is ad[expected], (a, b)


# -- the MisereCanonicalForm class ------------------------------------------------------------------
def test_form_class_basics():
    f = misere_canonical(P("{*2}+*1"))
    assert MisereCanonicalForm(P("{*2}+*1")) is f
    assert misere_canonical(f) is f
    assert misere_canonical("{*2}+*1") is f
    assert f == misere_canonical(P("{{*2}, *3}")) and hash(f) == f.game.id
    assert f != misere_canonical(P("{*2}"))
    assert f.birthday == 4
    assert set(f.options) == {misere_canonical(P("{*2}")), misere_canonical(cg.nim(3))}
    assert f.misere_outcome == cg.outcome(f.game, misere=True)
    assert f.misere_grundy == cg.misere_grundy(f.game)
    assert str(f) == "*[2[#1]]"
    assert repr(f) == "MisereCanonicalForm('*[2[#1]]')"
    html = f._repr_html_()
    assert "*[2[#1]]" in html and "birthday" in html and "<table>" in html
    assert pickle.loads(pickle.dumps(f)) is f
    with pytest.raises(AttributeError, match="immutable"):
        f.foo = 1  # type: ignore[attr-defined]
    assert (f == 3) is False


def test_bad_input_errors():
    with pytest.raises(TypeError, match="expected a cgtalg Game, a MisereCanonicalForm or game text, got int: 5"):
        misere_canonical(5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="got list"):
        misere_equal([], cg.zero)  # type: ignore[arg-type]
    with pytest.raises(GameNotationError, match="expected an option"):
        misere_canonical("{*2, }")
    with pytest.raises(TypeError, match="option must be a cgtalg Game, got str: '\\*2'"):
        misere_simplest(["*2"])  # type: ignore[list-item]


def test_deep_forms_do_not_recurse():
    g = cg.zero
    for _ in range(3000):
        g = cg.game([g, cg.nim(2)]) if _ % 3 == 0 else cg.game([g])
    c = misere_canonical(g)
    assert misere_canonical(c.game) is c
    assert len(format_misere(c, max_chars=50)) <= 50


# -- notation -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text, printed",
    [
        ("0", "*[0]"),
        ("*", "*[1]"),
        ("*2", "*[2]"),
        ("{*1}", "*[0]"),
        ("{*2}", "*[2#]"),
        ("{{*2}}", "*[2##]"),
        ("*2+*2", "*[2[2]]"),
        ("*2+*2+*2", "*[2[22]]"),
        ("{*4, *2}", "*[42]"),
        ("{*2}+*2", "*[2[#2]]"),
        ("{{*2}+*2}", "*[2[#2#]]"),
        ("{{*2}, *1}", "*[2#1]"),
        ("{*12, *3}", "*[12,3]"),
        ("{{*4, *2}, *4, *3, *1}", "*[(42)431]"),
        ("*12", "*12"),  # a lone multi-digit heap has no *[...] spelling (see notation docs)
        ("{*12}", "{*12}"),
    ],
)
def test_format_misere_examples(text, printed):
    assert format_misere(P(text)) == printed
    assert misere_canonical_game(P(printed)) is misere_canonical_game(P(text))


def test_format_accepts_forms_games_and_text():
    f = misere_canonical(P("{*2}"))
    assert format_misere(f) == format_misere(f.game) == format_misere("{*2}") == "*[2#]"
    with pytest.raises(TypeError, match="got float"):
        format_misere(1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="max_chars must be an int or None"):
        format_misere(f, max_chars="5")  # type: ignore[arg-type]


def test_round_trip_day4_and_day5(day4):
    for g in day4:
        text = format_misere(g)
        assert text.startswith("*[")
        assert misere_canonical_game(P(text)) is g
    rng = random.Random(7)
    for _ in range(1500):
        m = rng.getrandbits(len(day4))
        g = misere_simplest(x for i, x in enumerate(day4) if m >> i & 1)
        text = format_misere(g)
        assert text.startswith("*[") and text.endswith("]")
        assert misere_canonical_game(P(text)) is g, text


def test_round_trip_sums_and_heaps(day4):
    rng = random.Random(8)
    for _ in range(100):
        parts = [rng.choice(day4) for _ in range(rng.randint(1, 3))] + [cg.nim(rng.randint(0, 12))]
        g = misere_canonical_game(sum(parts, cg.zero))
        text = format_misere(g)
        assert misere_canonical_game(P(text)) is g, text


def test_round_trip_with_multi_digit_heaps():
    # heaps >= 10 force commas, and a lone top-level item starting with one falls back to the
    # literal notation; either way parse() reads the text back to the same canonical form
    rng = random.Random(10)

    def rnd(depth):
        if depth == 0:
            return cg.nim(rng.choice([0, 1, 2, 10, 11, 12, 13]))
        return cg.game(rnd(rng.randint(0, depth - 1)) for _ in range(rng.randint(1, 3)))

    for _ in range(150):
        g = rnd(3)
        if rng.random() < 0.3:
            g = g + cg.nim(rng.randint(0, 12))
        text = format_misere(g)
        assert misere_canonical_game(P(text)) is misere_canonical_game(g), text
    for text, printed in [("{{{*12}}}", "{{{*12}}}"), ("{*12}+*2", "{*12}+*2"), ("{{*12}, *3}", "*[12#,3]")]:
        assert format_misere(P(text)) == printed


def test_truncation():
    g = cg.game([cg.nim(k) for k in range(2, 30, 2)])
    full = format_misere(g)
    assert full == "*[28,26,24,22,20,18,16,14,12,10,8,6,4,2]"
    cut = format_misere(g, max_chars=12)
    assert cut == "*[28,26,2..."
    assert format_misere(g, max_chars=len(full)) == full
    assert repr(misere_canonical(g)) == f"MisereCanonicalForm({full!r})"


def test_text_does_not_depend_on_creation_order(day4):
    # the text is stored in the persistent store: it must not depend on process-local ids
    code = (
        "import random, cgtalg as cg\n"
        "rng = random.Random(11)\n"
        "for _ in range(300):\n"
        "    cg.game([cg.nim(rng.randint(0, 5)) for _ in range(rng.randint(1, 4))])\n"
        "from cgtalg.misere.census import misere_games_born_by\n"
        "print('|'.join(str(f) for f in misere_games_born_by(4)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "|".join(format_misere(g) for g in day4)
