"""The referee's forms, reader and play (``cgtalg.referee.games``) and its two comparison
checkers (``cgtalg.referee.equivalence``, ``cgtalg.referee.partizan``).

- The reader against the definitions: literal sums and negatives, canonical forms of numbers and
  of juxtaposed values (Siegel, CGT II.3-II.4), bars (``{2||1|0}``), CGSuite's misère notation;
  and against what cgtalg prints (its printer's texts must read back to the forms it wrote).
- The play against a brute-force solver written here (a few hundred random small sums, normal and
  misère), Bouton's formula for Nim and its misère form (Winning Ways ch. 13), and the Grundy
  values of Kayles (Winning Ways ch. 4; Guy and Smith 1956).
- Certificates written by cgtalg (``cgtalg equiv ... --json`` and ``cgtalg.compare(...).to_json()``)
  are accepted, and each quoted claim, once changed, is rejected with the field named.
"""

from __future__ import annotations

import copy
import functools
import itertools
import json
import random

import pytest
from click.testing import CliRunner

import cgtalg as cg
from cgtalg.cli.main import cli
from cgtalg.referee import Malformed, check_document, equivalence, partizan
from cgtalg.referee import games as gm
from cgtalg.referee.games import ZERO, add, form, neg, nim, number, read

# -----------------------------------------------------------------------------------------------
# the reader
# -----------------------------------------------------------------------------------------------


def test_forms_are_hash_consed():
    assert read("{0|*}") is read("^") is form([ZERO], [nim(1)])
    assert read("{*, *}") is read("{*}") is read("{*|*}")  # a repeated option counts once
    assert gm.is_impartial(read("{*, {*}}")) and not gm.is_impartial(read("{1|1}"))


def test_literal_sums_are_literal():
    one_minus_one = read("1 + -1")
    assert one_minus_one is not ZERO and one_minus_one is form([number(-1)], [number(1)])
    # ... but it is 0 in normal play (the referee's play of the difference, Siegel CGT II.1)
    assert gm.ge(one_minus_one, ZERO) and gm.ge(ZERO, one_minus_one)
    assert gm.outcome([one_minus_one], False) == "P"
    # 1 + {1|0} is the literal sum {2, {1|0} | 1}, whose canonical form is {2|1}
    g = read("1 + {1|0}")
    assert g is form([number(2), read("{1|0}")], [number(1)])
    assert g is not read("{2|1}") and gm.canonical(g) is read("{2|1}")
    assert read("*+*") is read("{*}")  # the tree of * + * (both moves lead to *)
    assert read("*2+*") is read("*+*2") is add(nim(2), nim(1))
    assert read("{1|0} - {1|0}") is add(read("{1|0}"), read("{0|-1}"))
    assert read("-{1|0}") is read("{0|-1}") and read("-(*2 + ^)") is add(nim(2), read("v"))


def test_numbers_are_their_canonical_forms():
    # n = {n-1 | }, -n = { | -(n-1)}, m/2^k = {(m-1)/2^k | (m+1)/2^k} (Siegel CGT II.3)
    assert read("0") is ZERO and read("1") is form([ZERO], [])
    assert read("3") is form([read("2")], []) and read("-2") is form([], [read("-1")])
    assert read("1/2") is form([ZERO], [read("1")])
    assert read("3/4") is form([read("1/2")], [read("1")])
    assert read("-5/8") is form([read("-3/4")], [read("-1/2")])
    assert read("2 + 1") is read("3")  # integers add literally to integers: {1|} + {0|} = {2|}
    assert read("1/2 + 1/2") is not read("1") and gm.canonical(read("1/2 + 1/2")) is read("1")
    with pytest.raises(gm.ReadError):
        read("1/3")


def test_values_written_as_values():
    star, up = nim(1), read("^")
    assert read("*3") is gm.impartial([ZERO, star, nim(2)])
    assert up is form([ZERO], [star]) and read("v") is form([star], [ZERO]) is neg(up)
    assert read("^*") is form([ZERO, star], [ZERO])  # ↑* = {0, * | 0}
    assert read("^^") is form([ZERO], [read("^*")]) is gm.canonical(add(up, up))
    assert read("^3") is gm.canonical(add(read("^^"), up))
    assert read("v3*2") is gm.canonical(add(neg(read("^3")), nim(2)))
    assert read("1*") is form([number(1)], [number(1)])
    assert read("1*2") is gm.canonical(add(number(1), nim(2)))
    assert read("1/2^*") is gm.canonical(add(add(read("1/2"), up), star))
    assert read("-1^") is gm.canonical(add(number(-1), up))  # the '-' belongs to the number
    assert read("±1") is read("+-1") is form([number(1)], [number(-1)])
    assert read("±{1, *}") is form([number(1), star], [number(-1), star])
    assert read("2 ± 1") is add(number(2), read("±1"))
    assert read("Tiny(2)") is form([ZERO], [form([ZERO], [number(-2)])])
    assert read("^<2>") is form([ZERO], [read("v*")])  # ↑^2 = {0 | ↓*} (Siegel CGT II.7)
    assert read("^[2]") is gm.canonical(add(up, read("^<2>")))


def test_bars_and_braces():
    assert read("{2 || 1 | 0}") is form([number(2)], [form([number(1)], [ZERO])])
    assert read("{2 | 1 || 0}") is form([form([number(2)], [number(1)])], [ZERO])
    assert read("{|}") is read("{}") is ZERO and read("{ | 0}") is number(-1)
    assert read("{*, {*}}") is gm.impartial([nim(1), gm.impartial([nim(1)])])
    for bad in ("{1 | 2 | 3}", "{1 |", "{,}", "parity(3)", "kayles(x)", "", "1 +", "{1 2}"):
        with pytest.raises(gm.ReadError):
            read(bad)


def test_heap_positions_are_sums_of_heap_forms():
    # Kayles (0.77, Winning Ways ch. 4): a heap of 1 is *, a heap of 2 is {0, *} (take both, or
    # one) = *2; a heap of 3 has the options heap 2, heap 1, heap 1 + heap 1 (take one from the
    # middle), heap 1 (take two), so its form is {*2, *, * + *}
    k1, k2 = read("kayles(1)"), read("kayles(2)")
    assert k1 is nim(1) and k2 is gm.impartial([ZERO, nim(1)])
    assert read("kayles(3)") is gm.impartial([k2, k1, gm.add(k1, k1)])
    assert read("kayles(3, 2)") is gm.add(read("kayles(3)"), k2)
    assert read("dawson(2)") is nim(1)   # Dawson's Kayles 0.07: take two (a heap of 2 is *)


def test_cgsuite_misere_notation():
    # the grammar of cgtalg/core/notation.py: *[2#] = {*2}, *[42] = {*4, *2}, *[2[2]] = *2 + *2
    assert read("*[2#]") is read("{*2}") and read("*[2]") is nim(2) and read("*[0]") is ZERO
    assert read("*[42]") is read("{*4, *2}") and read("*[2#1]") is read("{{*2}, *}")
    assert read("*[2[2]]") is read("*2+*2") and read("*[2[#2#]]") is read("{{*2} + *2}")
    assert read("*[(2#1)21]") is read("{{{*2}, *}, *2, *}") and read("*[12,3]") is read("{*12, *3}")
    assert read("*[[4,2],4,3,1]") is read("{{*4, *2}, *4, *3, *}")


def _library_rows(g):
    from cgtalg.misere.partizan_certificate_json import forms_to_json

    rows, (i,) = forms_to_json(g)
    return gm.read_rows(rows)[i]


def test_reads_what_cgtalg_prints():
    """cgtalg's printer writes canonical values by name (``^*``, ``1/2``, ``±1``, ``Tiny(2)``,
    ``^[2]*``): each text must read back to the very form cgtalg wrote (rows of its table)."""
    from cgtalg.core.partizan import pgame
    from cgtalg.normal.notation import format_partizan
    from cgtalg.normal.partizan import canonical_form

    rng = random.Random(7)
    day1 = [pgame(), pgame([pgame()]), pgame([], [pgame()]), pgame([pgame()], [pgame()])]
    games = list(day1)
    for _ in range(120):
        pool = games[:]
        g = pgame(rng.sample(pool, rng.randint(0, 3)), rng.sample(pool, rng.randint(0, 3)))
        games.append(g)
        games.append(canonical_form(g + rng.choice(pool)))
    for text in ("73/16v9*8", "-1v3*2", "3/4v[3]*", "1Miny(2)", "2Tiny(1)", "±{2,*}", "^<3>*"):
        games.append(cg.parse_partizan(text))
    for g in games:
        assert read(format_partizan(g)) is _library_rows(g), format_partizan(g)


def test_canonical_forms_agree_with_the_definition():
    """The referee's canonical form (dominated options removed, reversible ones bypassed; Siegel
    CGT II.2) is cgtalg's, and equal in value to the form (by play)."""
    from cgtalg.core.partizan import pgame
    from cgtalg.normal.partizan import canonical_form

    rng = random.Random(3)
    pool = [pgame(), pgame([pgame()]), pgame([], [pgame()]), pgame([pgame()], [pgame()])]
    for _ in range(150):
        g = pgame(rng.sample(pool, rng.randint(0, 3)), rng.sample(pool, rng.randint(0, 3)))
        pool.append(g)
        mine = _library_rows(g)
        c = gm.canonical(mine)
        assert c is _library_rows(canonical_form(g))
        assert gm.ge(c, mine) and gm.ge(mine, c)


def test_show_reads_back():
    rng = random.Random(5)
    pool = [ZERO, number(1), number(-1), nim(1)]
    for _ in range(200):
        g = form(rng.sample(pool[:16], rng.randint(0, 3)), rng.sample(pool[:16], rng.randint(0, 3)))
        pool.append(g)
        assert read(gm.show(g, 10**6)) is g


# -----------------------------------------------------------------------------------------------
# play
# -----------------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def _brute(ids: tuple, left: bool, misere: bool) -> bool:
    """Whether the player to move wins the sum of the forms ``ids``, straight from the definition
    (every component kept, including zeros; no memo shared with the referee's)."""
    comps = [gm._FORMS[i] for i in ids]
    moves = [tuple(sorted(ids[:i] + (o.id,) + ids[i + 1:])) for i, c in enumerate(comps)
             for o in (c.left if left else c.right)]
    if not moves:
        return misere
    return any(not _brute(m, not left, misere) for m in moves)


def test_play_agrees_with_brute_force_on_random_sums():
    rng = random.Random(11)
    pool = [ZERO, number(1), number(-1), nim(1)]
    for _ in range(60):
        pool.append(form(rng.sample(pool, rng.randint(0, 3)), rng.sample(pool, rng.randint(0, 3))))
    for _ in range(300):
        comps = [rng.choice(pool) for _ in range(rng.randint(1, 3))]
        ids = tuple(sorted(c.id for c in comps))
        for misere in (False, True):
            for left in (True, False):
                assert gm.wins_first(comps, left, misere) == _brute(ids, left, misere)


def test_nim_outcomes():
    """Bouton: a sum of nim-heaps is a normal-play P-position iff its nim-sum is 0; misère
    (Winning Ways ch. 13): with a heap of size ≥ 2 the same, else P iff the number of heaps of
    size 1 is odd."""
    rng = random.Random(2)
    for _ in range(150):
        heaps = [rng.randint(0, 7) for _ in range(rng.randint(1, 4))]
        x = functools.reduce(lambda a, b: a ^ b, heaps)
        comps = [nim(n) for n in heaps]
        assert (gm.outcome(comps, False) == "P") == (x == 0)
        big = max(heaps) >= 2
        assert (gm.outcome(comps, True) == "P") == ((x == 0) if big else sum(heaps) % 2 == 1)


def _kayles(n: int, memo: dict = {}) -> gm.Form:
    """A row of ``n`` pins; a move knocks down one pin or two adjacent ones."""
    if n not in memo:
        opts = [add(_kayles(a), _kayles(n - k - a)) for k in (1, 2) for a in range(0, n - k + 1)]
        memo[n] = gm.impartial(opts)
    return memo[n]


def test_kayles_grundy_values():
    """Kayles' Grundy values 0,1,2,3,1,4,3,2,1,4,2,6 (Winning Ways ch. 4; Guy and Smith 1956):
    K_a + K_b is a normal-play P-position iff the values are equal."""
    values = [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
    for a, b in itertools.combinations_with_replacement(range(len(values)), 2):
        assert (gm.outcome([_kayles(a), _kayles(b)], False) == "P") == (values[a] == values[b])


def test_misere_outcomes_of_small_games():
    # misère: 0 is N (no move wins), 1 = {0|} is R, -1 is L, * is P, * + * is N (docs)
    assert [gm.outcome([g], True) for g in (ZERO, number(1), number(-1), nim(1))] == ["N", "R", "L", "P"]
    assert gm.outcome([nim(1), nim(1)], True) == "N" and gm.outcome([nim(1), nim(1)], False) == "P"
    assert gm.outcome_ge("L", "P") and gm.outcome_ge("N", "R") and not gm.outcome_ge("P", "N")


def test_universes():
    assert gm.member(read("^"), "dicot") is None and gm.member(number(1), "dicot")
    assert gm.member(number(3), "dead-ending") is None and gm.member(read("{|*}"), "dead-ending")
    assert gm.member(read("{*2}"), "impartial") is None and gm.member(read("^"), "impartial")
    assert gm.member(gm.dead_end(3), "dead-ending") is None


# -----------------------------------------------------------------------------------------------
# certificates written by cgtalg, and their mutations
# -----------------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def _equiv_text(*args: str) -> str:
    r = CliRunner().invoke(cli, ["equiv", *args, "--json", "--no-store"], obj={})
    assert r.exit_code == 0, r.output
    return r.output


def equiv(*args: str) -> dict:
    return json.loads(_equiv_text(*args))


def ok(doc) -> bool:
    verdicts = check_document(doc)
    return all(v.ok for v in verdicts)


def rejected(doc, field: str) -> None:
    verdicts = check_document(doc)
    assert not all(v.ok for v in verdicts)
    fails = [r for v in verdicts for r in v.reasons if r.startswith("FAIL")]
    assert any(field in r for r in fails), fails


def changed(doc: dict, path: str, value) -> dict:
    """A copy of ``doc`` with the field at ``path`` (keys and indices separated by '/') set."""
    out = copy.deepcopy(doc)
    *head, last = path.split("/")
    d = out
    for k in head:
        d = d[int(k)] if isinstance(d, list) else d[k]
    d[int(last) if isinstance(d, list) else last] = value
    return out


IMPARTIAL = {
    "misère, distinguisher (Plambeck/Siegel: {*2} ≢ *2+*2)": ("{*2}", "*2+*2", "--misere"),
    "misère, proof": ("*2+*", "*3", "--misere"),
    "misère, proof with (iii)": ("*2+*2", "{*2, *3}", "--misere"),
    "misère, 0": ("{*}", "0", "--misere"),
    "misère, notation": ("*[2#1]", "{{*2}, *}", "--misere"),
    "normal, Grundy labels": ("*2+*", "*3"),
    "normal, distinguisher": ("*2", "*3"),
}


@pytest.mark.parametrize("name", list(IMPARTIAL))
def test_impartial_documents_are_accepted(name):
    doc = equiv(*IMPARTIAL[name])
    verdicts = check_document(doc)
    assert len(verdicts) == 1 and verdicts[0].ok, verdicts[0]
    assert verdicts[0].checker.startswith("cgtalg.referee.equivalence.check (")
    g, h = IMPARTIAL[name][:2]
    misere = "--misere" in IMPARTIAL[name]
    assert ok(cg.compare(g, h, misere=misere).to_json())  # the comparison layout
    assert ok(doc["certificate"])  # the inner certificate alone


def test_the_issues_two_holes():
    # {*2} and *2+*2 are not misère-equivalent (Plambeck/Siegel; the README): the verdict passes
    d = equiv("{*2}", "*2+*2", "--misere")
    assert d["relation"] == "||" and ok(d)
    # an equiv document whose input names a different H is rejected
    d = equiv("*2+*", "*3", "--misere")
    rejected(changed(d, "input/h", "*2"), "input.h")
    rejected(changed(d, "input/g", "*2+*2"), "input.g")


@pytest.mark.parametrize("path, value, field", [
    ("holds", False, "holds"),
    ("certificate/holds", False, "certificate.holds"),
    ("relation", "||", "relation"),
    ("h", "*2", "h"),
    ("input/h", "{*3}", "input.h"),
    ("misere", False, "misere"),
    ("universe", "dicot", "universe"),
    ("proof_checked", False, "proof_checked"),
    ("certificate/theorem", "Sprague-Grundy theorem (Siegel, CGT IV.1)", "theorem"),
    ("certificate/certificate/nodes/0/i/1/proof", 0, "nodes[0]"),
    ("certificate/certificate/nodes/0/i/1/kind", "H''", "nodes[0]"),
    ("certificate/certificate/nodes/0/ii/0/game", "0", "nodes[0]"),
    ("explanation", "*+*2 ≢ *3 in misère play (impartial universe).", "explanation"),
])
def test_mutated_misere_proof_is_rejected(path, value, field):
    d = equiv("*2+*", "*3", "--misere")
    assert ok(d)
    rejected(changed(d, path, value), field)


def test_mutated_misere_proof_steps():
    d = equiv("*2+*2", "{*2, *3}", "--misere")
    nodes = d["certificate"]["certificate"]["nodes"]
    k = next(i for i, n in enumerate(nodes) if n["winning_move"] is not None)
    rejected(changed(d, f"certificate/certificate/nodes/{k}/winning_move", "0"), f"nodes[{k}]")
    # a step claiming identical forms that are not
    j = next(i for i, n in enumerate(nodes) if n["identical"])
    rejected(changed(d, f"certificate/certificate/nodes/{j}/h", "*7"), "certificate.certificate")
    # dropping a witness leaves an option uncovered
    rejected(changed(d, "certificate/certificate/nodes/0/i", nodes[0]["i"][:1]), "nodes[0]")


@pytest.mark.parametrize("path, value, field", [
    ("holds", True, "holds"),
    ("relation", "=", "relation"),
    ("certificate/certificate/outcome_h_plus_T", "P", "outcome_h_plus_T"),
    ("certificate/certificate/outcome_g_plus_T", "N", "outcome_g_plus_T"),
    ("certificate/certificate/T", "*", "certificate.certificate.T"),
    ("certificate/certificate/T", "{1|0}", "not impartial"),
    ("certificate/certificate/parts/0/2", "*5", "parts[0]"),
    ("certificate/certificate/option", "*3", "option"),
    ("certificate/misere", False, "misere"),
    ("h", "{*2, *}", "h"),
    ("input/h", "*2+*3", "input.h"),
])
def test_mutated_distinguisher_is_rejected(path, value, field):
    d = equiv("{*2}", "*2+*2", "--misere")
    rejected(changed(d, path, value), field)


@pytest.mark.parametrize("path, value, field", [
    ("certificate/certificate/labels/1/1", 3, "labels"),
    ("certificate/certificate/value", 1, "value"),
    ("certificate/misere", True, "misere"),
    ("holds", False, "holds"),
    ("input/g", "*2+*2", "input.g"),
])
def test_mutated_grundy_labels_are_rejected(path, value, field):
    d = equiv("*2+*", "*3")
    assert ok(d)
    rejected(changed(d, path, value), field)


def test_normal_play_input_of_the_same_value_is_the_same_claim():
    """In normal play the claim is about values: an input read literally as another form of the
    same value (1 + -1 is {-1 | 1} = 0) states the claim proved; in misère play it would not."""
    d = equiv("*2+*", "*3")
    assert ok(changed(d, "input/g", "*3 + 1 + -1"))
    rejected(changed(d, "input/g", "*3 + 1"), "input.g")
    m = equiv("*2+*", "*3", "--misere")
    rejected(changed(m, "input/g", "*3 + 1 + -1"), "input.g")


PARTIZAN = {
    "normal, confused": ("{1|0}", "1/2"),
    "normal, confused switch": ("{1|0}", "{1|*}"),
    "normal, greater": ("{2|1}", "{0|}"),
    "normal, equal": ("{0|}", "{0,*|}"),
    "normal, bars": ("{2||1|0}", "{2|{1|0}}"),
    "normal, literal input": ("1 + {1|0}", "{2|1}"),
    "misère, all, confused": ("*+*", "0", "--misere", "--universe", "all"),
    "misère, all, greater": ("{|*}", "0", "--misere"),
    "misère, all": ("{1|0}", "{1|*}", "--misere"),
    "misère, dicot, equal": ("*+*", "0", "--misere", "--universe", "dicot"),
    "misère, dicot, confused": ("^", "*", "--misere", "--universe", "dicot"),
    "misère, dicot, ups": ("^ + v", "0", "--misere", "--universe", "dicot"),
    "misère, dead-ending, confused": ("*+*", "0", "--misere", "--universe", "dead-ending"),
    "misère, dead-ending, integers": ("2 + -2", "0", "--misere", "--universe", "dead-ending"),
}


@pytest.mark.parametrize("name", list(PARTIZAN))
def test_partizan_documents_are_accepted(name):
    args = PARTIZAN[name]
    doc = equiv(*args)
    verdicts = check_document(doc)
    assert len(verdicts) == 1 and verdicts[0].ok, verdicts[0]
    assert verdicts[0].checker.startswith("cgtalg.referee.partizan.check (")
    assert not equivalence.recognise(doc) and partizan.recognise(doc)
    for c in doc["certificates"]:
        assert ok(c)  # each certificate alone
    misere = "--misere" in args
    universe = args[args.index("--universe") + 1] if "--universe" in args else ("all" if misere else None)
    assert ok(cg.compare(args[0], args[1], misere=misere, universe=universe).to_json())


@pytest.mark.parametrize("path, value, field", [
    ("relation", ">", "relation"),
    ("equal", True, "equal"),
    ("holds", True, "holds"),
    ("meaning", "greater than", "meaning"),
    ("certificates/0/relation", "=", "certificates[0].relation"),
    ("universe", "all", "universe"),
    ("g", "{1|*}", "g"),
    ("input/h", "1", "input.h"),
    ("proof_checked", False, "proof_checked"),
])
def test_mutated_normal_order_is_rejected(path, value, field):
    d = equiv("{1|0}", "1/2")
    assert ok(d)
    rejected(changed(d, path, value), field)


def test_normal_order_certificate_forms():
    d = equiv("{1|0}", "{1|*}")
    assert d["relation"] == "||" and ok(d)
    c = d["certificates"][0]
    rejected(changed(c, "relation", "<"), "relation")
    # the game compared is another one: the rows of G changed, and the top-level texts no longer match
    swapped = changed(d, "certificates/0/g", c["h"])
    rejected(swapped, "g")


@pytest.mark.parametrize("path, value, field", [
    ("relation", "=", "relation"),
    ("equal", True, "equal"),
    ("universe", "dicot", "universe"),
    ("misere", False, "certificates"),
    ("certificates/0/holds", True, "certificates[0].holds"),
    ("certificates/0/universe", "dicot", "certificates[0]"),
    ("certificates/0/distinction/outcome_g", "L", "outcome_g"),
    ("certificates/0/distinction/side", "right-first", "side"),
    ("certificates/0/distinction/condition", "maintenance (i)", "condition"),
    ("certificates/1/distinction/t", 0, "certificates[1].distinction"),
    ("input/h", "{*}", "input.h"),
    ("h", "*", "h"),
])
def test_mutated_misere_distinction_is_rejected(path, value, field):
    d = equiv("*+*", "0", "--misere", "--universe", "all")
    assert ok(d)
    rejected(changed(d, path, value), field)


def test_distinguisher_outside_the_universe_is_rejected():
    d = equiv("^", "*", "--misere", "--universe", "dicot")
    forms = d["certificates"][0]["forms"]
    d = changed(d, "certificates/0/forms", forms + [[[0], []]])  # the row {0|} = 1, not a dicot
    rejected(changed(d, "certificates/0/distinction/t", len(forms)), "not in the universe")


@pytest.mark.parametrize("path, value, field", [
    ("certificates/0/proof/nodes/0/right/0/3", 0, "nodes[0]"),
    ("certificates/0/proof/nodes/0/right/0/1", "H^R", "nodes[0]"),
    ("certificates/0/proof/nodes/0/proviso", [], "proviso"),
    ("certificates/0/proof/nodes/0/right", [], "no valid witness"),
    ("certificates/1/holds", False, "certificates[1].holds"),
    ("certificates/0/theorem", "Siegel CGT Theorems V.6.15-V.6.16", "theorem"),
    ("relation", ">", "relation"),
    ("universe", "dead-ending", "universe"),
])
def test_mutated_misere_proof_steps_are_rejected(path, value, field):
    d = equiv("*+*", "0", "--misere", "--universe", "dicot")
    assert d["relation"] == "=" and ok(d)
    rejected(changed(d, path, value), field)


@pytest.mark.parametrize("universe", ["full", "dicot", "dead-ending"])
def test_single_equality_certificates(universe):
    """``cgtalg.misere.partizan.misere_equal`` writes one certificate of ``=`` (two proofs, or a
    distinguisher of either inequality): * + * = 0 among dicots only (docs/partizan_misere.md)."""
    from cgtalg.core.partizan import pgame
    from cgtalg.misere.partizan import misere_equal
    from cgtalg.misere.partizan_certificate_json import comparison_to_json

    star = pgame([pgame()], [pgame()])
    d = comparison_to_json(misere_equal(star + star, pgame(), universe=universe))
    assert d["holds"] is (universe == "dicot") and ok(d)
    rejected(changed(d, "holds", not d["holds"]), "certificate.holds")
    if "proof" in d:
        rejected(changed(d, "proof/roots", d["proof"]["roots"][:1]), "roots")
    else:
        rejected(changed(d, "distinction/outcome_h", "N"), "outcome_h")


def test_misere_inputs_are_literal():
    """In misère play 2 + -2 is the literal sum (equal to 0 among dead-ending games, not among all
    games); a document that states the sum but proves something about 0 is rejected."""
    d = equiv("2 + -2", "0", "--misere", "--universe", "dead-ending")
    assert d["relation"] == "=" and ok(d)
    rejected(changed(d, "input/g", "0"), "input.g")
    d0 = equiv("0", "0", "--misere", "--universe", "dead-ending")
    rejected(changed(d0, "input/g", "2 + -2"), "input.g")


def test_accepted_misere_proofs_survive_every_small_test_game():
    """Sanity of the theorem as the referee applies it: whenever it accepts a proof of G ≥ H in
    a universe, o⁻(G + X) ≥ o⁻(H + X) for every X of the universe born by day 2 (brute force)."""
    day1 = [ZERO, number(1), number(-1), nim(1)]
    subsets = [list(s) for k in range(5) for s in itertools.combinations(day1, k)]
    day2 = [form(a, b) for a in subsets for b in subsets]
    pairs = [("*+*", "0", "dicot"), ("^ + v", "0", "dicot"), ("2 + -2", "0", "dead-ending"),
             ("{|*}", "0", "all"), ("1 + {1|0}", "{2|1}", "all"), ("{0|*}", "{0,*|*}", "all")]
    seen = 0
    for g_text, h_text, u in pairs:
        doc = cg.compare(g_text, h_text, misere=True, universe=u).to_json()
        assert ok(doc)
        for c in doc["certificates"]:
            if not c["holds"]:
                continue
            rows = gm.read_rows(c["forms"])
            g, h = rows[c["g"]], rows[c["h"]]
            for x in day2:
                if gm.member(x, u) is None:
                    seen += 1
                    assert gm.outcome_ge(gm.outcome([g, x], True), gm.outcome([h, x], True))
    assert seen > 100


def test_recognise_is_specific():
    imp, par = equiv("*2+*", "*3", "--misere"), equiv("{1|0}", "1/2")
    assert equivalence.recognise(imp) and not partizan.recognise(imp)
    assert partizan.recognise(par) and not equivalence.recognise(par)
    for doc in ({"period": 34, "preperiod": 53, "status": "certified"}, {"table": [], "phi_elements": []},
                {"certificates": [{"type": "other"}], "relation": "="}):
        assert not equivalence.recognise(doc) and not partizan.recognise(doc)


def test_no_certificate_is_malformed():
    loopy = equiv("on", "0")
    with pytest.raises(Malformed):
        check_document(loopy)
    d = equiv("*2+*", "*3", "--misere")
    with pytest.raises(Malformed):
        check_document(changed(d, "certificate/certificate/nodes", []))
