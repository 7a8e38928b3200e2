"""The referee of heap-game certificates (cgtalg.referee: heaps, periodicity, quotients, census).

Sources of the published values checked here:

* Kayles 0.77: the table of G(K_12a+b) in seed 004 ("A Strategy for Kayles (Guy-Smith
  Periodicity)"): period 12 from K71, last exceptional value G(70) (Guy & Smith 1956;
  Winning Ways ch. 4);
* Dawson's chess 0.137 and Dawson's Kayles 0.07: period 34, last exceptional values G(51) and
  G(52) (Winning Ways ch. 4);
* .123: normal-play values 1 0 2 2 1 0 0 2 1 1 ... for heaps 1..10, period 5 from heap 5
  (Plambeck, "How to lose at .123", seed 000);
* 0.16: period 149,459, last exceptional value G(105,350) (Gangolli & Plambeck 1989; slow);
* the cousin chain 0.0423 -> 0.0073 -> 0.0137 -> 0.11337 (A. N. Walker's notes, seed 001);
* misère quotients (Plambeck & Siegel, "Misère quotients for impartial games", JCTA 2008,
  Table 1 and §§5-7): .123 of order 20 with five P-elements, Kayles 0.77 of order 40;
  |Q_10(0.07)| = 12, |Q_33(0.07)| = 638 with |P| = 109 (slow); misère Nim's T_1 and T_2
  (order 2 and 6).

Documents are produced by cgtalg (the library under review), then checked by the referee, and
then every quoted claim is mutated: the referee must reject each mutation naming the field.
"""

from __future__ import annotations

import copy
import itertools
import json
import re
import time
from functools import lru_cache

import numpy as np
import pytest

from cgtalg.referee import Malformed, check_document
from cgtalg.referee.census import check_row, standard_form
from cgtalg.referee.heaps import heap_rules
from cgtalg.referee.periodicity import check_period, grundy_by_definition, grundy_values
from cgtalg.referee.quotients import (check_quotient, option_images, monoid_from_presentation, nim_quotient, parse_presentation,
                                      recognise as quotient_recognises, tame_index, verify)


# -- the library's documents -----------------------------------------------------------------
def period_doc(code: str, **kw) -> dict:
    from cgtalg.rulesets.heaps.games import parse_heap_ruleset
    from cgtalg.rulesets.heaps.octal_periodicity import periodicity

    return json.loads(json.dumps(periodicity(parse_heap_ruleset(code), store=None, progress=False, **kw).to_json()))


def quotient_doc(code: str, max_heap: int | None = None) -> dict:
    from cgtalg.quotients.construct import misere_quotient
    from cgtalg.rulesets.heaps.octal import TakeAndBreak

    q = misere_quotient(TakeAndBreak(code), max_heap=max_heap, progress=False)
    d = q.to_dict()
    d["kind"] = "heaps"
    return json.loads(json.dumps(d))


def fails_naming(verdict, field: str) -> bool:
    return not verdict.ok and any(r.startswith(f"FAIL: {field}") for r in verdict.reasons)


# -- heaps.py against brute-force definitions ------------------------------------------------
def kayles_moves(n):
    """Knock down one pin or two adjacent pins from a row of n (Kayles, Winning Ways ch. 4)."""
    out = set()
    for w in (1, 2):
        for i in range(n - w + 1):
            out.add(tuple(sorted(x for x in (i, n - w - i) if x)))
    return out


def dawson_kayles_moves(n):
    """Knock down two adjacent pins (0.07)."""
    return {tuple(sorted(x for x in (i, n - 2 - i) if x)) for i in range(n - 1)}


def dawson_chess_moves(n):
    """A pawn and its neighbours go: three from anywhere, two from an end, one from a row of one (0.137)."""
    out = set()
    for i in range(n):
        left, right = max(i - 1, 0), n - min(i + 2, n)
        out.add(tuple(sorted(x for x in (left, right) if x)))
    return out


def grundy_game_moves(n):
    return {tuple(sorted((a, n - a))) for a in range(1, n) if a != n - a}


def subtraction_moves(n):
    return {((n - s),) if n > s else () for s in (1, 3, 4) if s <= n}


@pytest.mark.parametrize("name,brute", [("0.77", kayles_moves), ("kayles", kayles_moves),
                                        ("0.07", dawson_kayles_moves), ("0.137", dawson_chess_moves),
                                        ("grundy", grundy_game_moves), ("S(1,3,4)", subtraction_moves)])
def test_heap_rules_moves_are_the_games_moves(name, brute):
    rules = heap_rules(name)
    for n in range(0, 16):
        assert set(rules.options(n)) == brute(n), (name, n)


def test_heap_rules_nim_and_hexadecimal():
    assert set(heap_rules("0.[3]").options(3)) == {(), (1,), (2,)}
    # 0x0.B: take one token, leaving nothing (bit 1), one heap (bit 2) or three heaps (bit 8)
    assert set(heap_rules("0x0.B").options(6)) == {(5,), (1, 1, 3), (1, 2, 2)}


# -- periodicity -----------------------------------------------------------------------------
KAYLES_ROWS = [  # G(K_12a + b), b = 0..11, a = 0..7 (seed 004's table)
    "0 1 2 3 1 4 3 2 1 4 2 6", "4 1 2 7 1 4 3 2 1 4 6 7", "4 1 2 8 5 4 7 2 1 8 6 7",
    "4 1 2 3 1 4 7 2 1 8 2 7", "4 1 2 8 1 4 7 2 1 4 2 7", "4 1 2 8 1 4 7 2 1 8 6 7",
    "4 1 2 8 1 4 7 2 1 8 2 7", "4 1 2 8 1 4 7 2 1 8 2 7"]


def test_referee_grundy_values_are_the_published_ones():
    kayles = [int(x) for row in KAYLES_ROWS for x in row.split()]
    assert grundy_values(heap_rules("0.77"), len(kayles)).tolist() == kayles
    # .123 (seed 000, Table 1): heaps 1..15
    assert grundy_values(heap_rules("0.123"), 16).tolist()[1:] == [1, 0, 2, 2, 1, 0, 0, 2, 1, 1, 0, 0, 2, 1, 1]
    # Nim and the all-but game allbut(1,2) (arithmetic-periodic, Winning Ways ch. 4)
    assert grundy_values(heap_rules("0.[3]"), 10).tolist() == list(range(10))
    assert grundy_values(heap_rules("allbut(1,2)"), 9).tolist() == [0, 0, 0, 1, 1, 1, 2, 2, 2]


@pytest.mark.parametrize("code", ["0.77", "0.07", "0.137", "4.07", "0.16", "0.6", "0x0.F7", "grundy",
                                  "S(1,3,4)", "allbut(2)", "0x4.9"])
def test_fast_kernels_match_the_definition(code):
    rules = heap_rules(code)
    assert grundy_values(rules, 90).tolist() == grundy_by_definition(rules, 90)


@pytest.mark.parametrize("code", ["0.77", "0.16", "0.137", "0.6"])
def test_rare_common_method_matches_the_plain_mex(code):
    from cgtalg.referee.periodicity import _naive, _rare_common

    rules = heap_rules(code)
    assert np.array_equal(_rare_common(rules, 6000), _naive(rules, 6000))


@pytest.mark.parametrize("code,period,preperiod,theorem", [
    ("0.77", 12, 71, "Guy-Smith"), ("0.137", 34, 52, "Guy-Smith"), ("0.07", 34, 53, "Guy-Smith"),
    ("0.123", 5, 5, "subtraction games")])
def test_published_periods_are_certified(code, period, preperiod, theorem):
    d = period_doc(code)
    assert (d["period"], d["preperiod"]) == (period, preperiod)
    v = check_period(d)
    assert v.ok, v
    assert theorem in v.checker


@pytest.mark.parametrize("code", ["S(1,3,4)", "0x0.B", "4.07", "0.1"])
def test_each_theorem_is_named(code):
    v = check_period(period_doc(code))
    assert v.ok, v
    expected = {"S(1,3,4)": "subtraction", "0.1": "subtraction", "0x0.B": "three heaps", "4.07": "two heaps"}
    assert expected[code] in v.checker


@pytest.mark.parametrize("field,value", [
    ("period", 24), ("period", 6), ("preperiod", 70), ("preperiod", 72), ("last_exceptional", 71),
    ("saltus", 12), ("k", 3), ("required_values", 100), ("bound", "L >= 2*max(n0,1) + 2p + k = 2*7 + 2 = 16"),
    ("theorem", "periodicity theorem for subtraction games"), ("values_checked", 100),
    ("summary", "0.77: CERTIFIED period 12, preperiod 70 (last exceptional value G(69))")])
def test_every_mutated_period_claim_is_rejected_naming_it(field, value):
    d = period_doc("0.77")
    d[field] = value
    v = check_period(d)
    named = "period/preperiod" if field in ("period", "preperiod") and value in (6, 70) else field
    assert fails_naming(v, named), v


def test_uncertified_results_claim_nothing():
    for code in ("0.[3]", "grundy", "allbut(1,2)"):
        v = check_period(period_doc(code, max_values=3000))
        assert v.ok and "claims nothing" in v.reasons[0], v
    d = period_doc("0.[3]", max_values=3000)
    d["seen_saltus"] = 2
    assert fails_naming(check_period(d), "seen_period")
    d = period_doc("grundy", max_values=500)
    d["period"] = 7
    assert fails_naming(check_period(d), "period")


def test_no_theorem_no_certificate():
    d = period_doc("0.77")
    d.update(ruleset="grundy")
    assert fails_naming(check_period(d), "certified")
    with pytest.raises(Malformed):
        check_period(dict(d, ruleset="no such game"))


@pytest.mark.slow
def test_0_16_period_149459_checked_in_bounded_time():
    d = period_doc("0.16")
    assert (d["period"], d["preperiod"]) == (149459, 105351)
    t0 = time.perf_counter()
    [v] = check_document(d)
    assert v.ok, v
    assert time.perf_counter() - t0 < 300


# -- quotients -------------------------------------------------------------------------------
def misere_outcome_p(rules, position) -> bool:
    """Whether a position (heap sizes) is a misère P-position, by play from the definition."""
    @lru_cache(maxsize=None)
    def p(pos: tuple[int, ...]) -> bool:
        moves = [tuple(sorted(pos[:i] + pos[i + 1:] + parts)) for i, h in enumerate(pos)
                 for parts in rules.options(h)]
        if not moves:
            return False  # the player to move cannot move: wins in misère play
        return all(not p(m) for m in moves)
    return p(tuple(sorted(position)))


def predicted_p(doc: dict, position) -> bool:
    t, P, phi = np.array(doc["table"]), doc["P"], doc["phi_elements"]
    x = 0
    for h in position:
        x = int(t[x, phi[h]])
    return bool(P[x])


@pytest.mark.parametrize("code,order,p_count", [("0.123", 20, 5), ("0.77", 40, 9)])
def test_published_final_quotients_are_checked(code, order, p_count):
    d = quotient_doc(code)
    assert (d["order"], sum(d["P"]), d["final"]) == (order, p_count, True)
    v = check_quotient(d)
    assert v.ok, v
    rules = heap_rules(code)
    for pos in itertools.combinations_with_replacement(range(1, 10), 3):
        assert predicted_p(d, pos) == misere_outcome_p(rules, pos), pos


@pytest.mark.parametrize("code", ["0.123", "0.77", "0.07"])
def test_verify_refuses_every_one_element_change_of_P(code):
    """The verification principle as the referee searches it (the N-condition over (x, U)):
    the true (Q, P, Φ) passes, and moving any one element into or out of P is refused by the
    P- or the N-condition (a reduced quotient's P-portion is determined by the game: any other
    is the image of a wrong outcome somewhere). Brute force agrees: the position named, or one of
    its options, has a misère outcome (by play from the definition) other than the changed claim's."""
    d = quotient_doc(code, max_heap=10)
    rules = heap_rules(code)
    table, P = np.array(d["table"]), np.array(d["P"], dtype=bool)
    phi = d["phi_elements"]
    assert verify(table, P, phi, rules) == []
    for x in range(1, table.shape[0]):
        Q = P.copy()
        Q[x] = not Q[x]
        out = verify(table, Q, phi, rules)
        assert out and out[0].startswith(("P-condition", "N-condition")), (x, out)
        pos = [int(h) for h in re.findall(r"\d+", out[0].split("]")[0])]
        changed = dict(d, P=[bool(b) for b in Q])
        near = [tuple(sorted(pos))] + [tuple(sorted(pos[:i] + pos[i + 1:] + list(parts)))
                                       for i, h in enumerate(pos) for parts in rules.options(h)]
        assert any(predicted_p(changed, w) != misere_outcome_p(rules, w) for w in near), (x, out)


def test_q10_of_dawsons_kayles_has_order_12():
    d = quotient_doc("0.07", max_heap=10)
    assert d["order"] == 12 and not d["final"]
    assert check_quotient(d).ok


def test_misere_nim_quotients_are_T_n_by_the_verification_principle():
    nim = heap_rules("0.[3]")
    for n in (1, 2, 3):
        table, P = nim_quotient(n)
        phi = [0] + ([1] if n >= 1 else []) + [2 + h for h in range(2, 2 ** n)]
        assert verify(table, P, phi, nim) == []
        assert tame_index(table, P) == n
        for pos in itertools.combinations_with_replacement(range(1, 2 ** n), 3):
            x = 0
            for h in pos:
                x = int(table[x, phi[h]])
            assert bool(P[x]) == misere_outcome_p(nim, pos), pos
    assert tame_index(*nim_quotient(0)) is None  # cgtalg calls T_n tame for n >= 1 only


def test_a_quotient_without_its_table_is_built_from_its_presentation():
    d = quotient_doc("0.77")
    gens, rels = parse_presentation(d)
    table, words = monoid_from_presentation(gens, rels, 100)
    assert table.shape == (40, 40)
    del d["table"]
    assert check_quotient(d).ok


def _mutations():
    def table(d):
        d["table"][3][5] = (d["table"][3][5] + 1) % d["order"]

    def phi(d):
        d["phi_elements"][6] = d["phi_elements"][7]

    def p_flip(d):
        d["P"][1] = not d["P"][1]

    def p_word(d):
        d["p_portion"] = d["p_portion"][:-1]

    def relation(d):
        d["relations"][0] = "a²=a"
        d["presentation"] = "⟨" + ",".join(d["generators"]) + " | " + ", ".join(d["relations"]) + "⟩"

    return [("order", lambda d: d.update(order=18)), ("table", table), ("phi", phi), ("P", p_flip),
            ("p_portion", p_word), ("relations", relation), ("tame", lambda d: d.update(tame=True)),
            ("tame_index", lambda d: d.update(tame_index=2)), ("period", lambda d: d.update(period=[5, 10])),
            ("period", lambda d: d.update(period=[4, 5])), ("period", lambda d: d.update(period=[6, 5])),
            # .123 never splits (h = 1): the theorem needs heap max(5,1) + 5 + 3 - 1 = 12
            ("final", lambda d: d.update(max_heap=11, phi_elements=d["phi_elements"][:12], phi=d["phi"][:12],
                                         checked_to=11, phi_text=None)),
            ("checked_to", lambda d: d.update(checked_to=30))]


@pytest.mark.parametrize("field,mutate", _mutations(), ids=[f for f, _ in _mutations()])
def test_every_mutated_quotient_claim_is_rejected_naming_it(field, mutate):
    d = quotient_doc("0.123")
    assert check_quotient(d).ok
    mutate(d)
    v = check_quotient(d)
    assert fails_naming(v, field), v


def test_a_quotient_claiming_final_without_a_period_is_rejected():
    d = quotient_doc("0.123", max_heap=10)
    assert check_quotient(d).ok
    d["final"] = True
    assert fails_naming(check_quotient(d), "period")


def test_quotients_the_referee_does_not_take():
    d = quotient_doc("0.123")
    with pytest.raises(Malformed, match="forms"):
        check_quotient(dict(d, kind="forms"))
    assert not quotient_recognises(dict(d, infinite_from=34))  # cgtalg.referee.rays checks those


@pytest.mark.slow
def test_q33_of_dawsons_kayles_order_638_p_109():
    d = quotient_doc("0.07", max_heap=33)
    assert (d["order"], sum(d["P"])) == (638, 109)
    t0 = time.perf_counter()
    assert check_quotient(d).ok
    del d["table"]  # as `cgtalg quotient 0.07 --max-heap 33 --json` prints it (order > 64)
    assert check_quotient(d).ok
    assert time.perf_counter() - t0 < 120


# -- census ----------------------------------------------------------------------------------
def test_standard_forms_by_first_cousins():
    # seed 001: 0.0423 -> 0.0073 -> 0.0137 -> 0.11337
    assert standard_form(heap_rules("0.0423")) == ("0.11337", 3)
    assert standard_form(heap_rules("0.07")) == ("0.137", 1)
    assert standard_form(heap_rules("0.4")) == ("0.137", 2)
    assert standard_form(heap_rules("0.77")) == ("0.77", 0)
    # a cousin plays like its code on heaps one smaller (Grundy values shifted by one)
    G, C = grundy_values(heap_rules("0.0423"), 60), grundy_values(heap_rules("0.11337"), 57)
    assert G[3:].tolist() == C.tolist()


@pytest.fixture(scope="module")
def grundy_census():
    from cgtalg.census import octal_census

    return json.loads(json.dumps(octal_census(codes=["0.07", "0.4", "0.6", "0.123", "0.3", "0.2"],
                                              scheduler="serial", values=2**12, genus_heaps=8, quotient_heaps=12,
                                              progress=False).to_json()))


@pytest.fixture(scope="module")
def quotient_census():
    from cgtalg.census import quotient_census as run

    return json.loads(json.dumps(run(codes=["0.123", "0.0123", "0.31", "0.7", "0.2", "0.06"], scheduler="serial",
                                     class_seconds=20, progress=False).to_json()))


def _row(census, code):
    return copy.deepcopy(next(r for r in census["rows"] if r["code"] == code))


def test_every_census_row_is_checked(grundy_census, quotient_census):
    for census in (grundy_census, quotient_census):
        verdicts = check_document(census)
        assert len(verdicts) == len(census["rows"])
        for row, v in zip(census["rows"], verdicts):
            assert v.ok, v
            settled = row["status"] in ("solved", "tame", "wild-finite")
            assert ("claims nothing" in " ".join(v.reasons)) != settled or row.get("quotient"), v
    assert "claims nothing" in check_row(_row(grundy_census, "0.6")).reasons[0]
    assert any("claims nothing" in r for r in check_row(_row(quotient_census, "0.06")).reasons)


def test_census_rows_carry_certificates(grundy_census, quotient_census):
    from cgtalg.census.certificates import row_certificate

    solved = _row(grundy_census, "0.4")
    assert solved["certificate"]["period"]["ruleset"] == "0.4"
    assert row_certificate(solved) is solved or row_certificate(solved) == solved
    assert row_certificate(_row(grundy_census, "0.6")) is None
    tame = _row(quotient_census, "0.31")
    assert tame["certificate"]["quotient"]["game"] == "0.31"
    assert check_document(tame["certificate"]["quotient"])[0].ok


@pytest.mark.parametrize("field,value", [("period", 17), ("preperiod", 55), ("last_exceptional", 52),
                                         ("standard_form", "0.07"), ("shift", 1), ("max_value", 8),
                                         ("cousins", ["0.6"])])
def test_mutated_grundy_census_rows_are_rejected(grundy_census, field, value):
    row = _row(grundy_census, "0.4")
    row[field] = value
    assert fails_naming(check_row(row), field), check_row(row)


def test_a_solved_row_without_its_certificate_is_rejected(grundy_census):
    row = _row(grundy_census, "0.07")
    row["certificate"] = None
    assert fails_naming(check_row(row), "certificate")
    row = _row(grundy_census, "0.3")
    row["quotient"] = row["quotient"].replace("|Q|=2", "|Q|=4")
    assert fails_naming(check_row(row), "quotient")


@pytest.mark.parametrize("code,field,value", [
    ("0.123", "order", 18), ("0.123", "p_count", 4), ("0.123", "tame", 2), ("0.123", "status", "tame"),
    ("0.123", "period", 10), ("0.0123", "preperiod", 8 + 1), ("0.0123", "heaps", 30),
    ("0.0123", "phi", ["1", "a"]), ("0.123", "generator_heaps", [1, 3, 6, 8, 10]),
    ("0.123", "growth", [[0, 1], [1, 2], [3, 6]]), ("0.31", "standard_form", "0.3"),
    ("0.123", "presentation", "⟨a | a²=1⟩")])
def test_mutated_quotient_census_rows_are_rejected(quotient_census, code, field, value):
    row = _row(quotient_census, code)
    assert check_row(row).ok
    row[field] = value
    named = "period" if field == "preperiod" else field
    assert fails_naming(check_row(row), named), check_row(row)


def test_a_mutated_row_certificate_is_rejected(quotient_census):
    row = _row(quotient_census, "0.123")
    row["certificate"]["quotient"]["p_portion"][0] = "b"
    v = check_row(row)
    assert fails_naming(v, "quotient certificate"), v


def test_stored_census_records_give_checkable_row_certificates(tmp_path):
    from cgtalg.census import octal_census, quotient_census, stored_row_certificates
    from cgtalg.store import open_store

    path = str(tmp_path / "census.sqlite")
    octal_census(codes=["0.07", "0.6"], scheduler="serial", values=2**12, genus_heaps=6, quotient_heaps=6,
                 store=path, progress=False)
    quotient_census(codes=["0.123", "0.06"], scheduler="serial", class_seconds=10, store=path, progress=False)
    with open_store(path) as store:
        docs = dict(stored_row_certificates(store))
    assert docs["0.37"] is None  # 0.6's class, unsolved: claims nothing
    assert set(docs) == {"0.137", "0.37", "0.123-quotient"}
    for name in ("0.137", "0.123-quotient"):
        [v] = check_document(docs[name])
        assert v.ok, v


# -- census rows of infinite quotients -------------------------------------------------------------
# Dawson's Chess 0.137 (the standard form of 0.07's class, shift 1): Q_33 infinite, Q_32 of
# order 638 with |P| = 109 (docs/data/Q33_0.137_infinite.json; docs/quotient_frontier.md).
# A row is built from a class record of status "infinite" (the census's own translation,
# quotient_row), as `cgtalg census quotient --json` prints it.
DATA = __import__("pathlib").Path(__file__).resolve().parents[1] / "docs" / "data"


@lru_cache(maxsize=None)
def _infinite_doc(name: str = "Q33_0.137_infinite.json") -> str:
    return (DATA / name).read_text()


def infinite_row(code: str, doc: dict | None = None) -> dict:
    from cgtalg.census.quotient_table import quotient_row

    doc = doc or json.loads(_infinite_doc())
    lf = doc["last_finite"]
    record = {"status": "infinite", "heaps": lf["heap"], "infinite_from": doc["infinite_from"], "order": lf["order"],
              "p_count": lf["p_count"], "presentation": None, "p_portion": None, "generator_heaps": None,
              "growth": [[0, 1], [1, 2], [3, 6], [9, 12], [13, 24], [24, 144], [26, 176], [29, 360], [30, 520],
                         [31, 552], [32, 638]], "certificate": doc}
    shift = {"0.137": 0, "0.07": 1}[code]
    return json.loads(json.dumps(quotient_row(code, shift, ["0.07", "0.137"], "0.137", record).to_json()))


def test_infinite_census_rows_pass_the_referee(tmp_path):
    """The whole ray check of the certificate runs once (11-15 s on a loaded 2-core machine);
    the member's row carries the same document, checked once per process."""
    import gzip

    from click.testing import CliRunner

    from cgtalg.cli.main import cli

    rows = [infinite_row("0.137"), infinite_row("0.07")]
    assert [(r["status"], r["infinite_from"], r["heaps"], r["result"]) for r in rows] == [
        ("infinite", 33, 32, "infinite from 33"), ("infinite", 34, 33, "infinite from 34")]
    for row in rows:
        v = check_row(row)
        assert v.ok, v
        assert "Q_n of 0.137 is infinite for every n >= 33" in v.reasons[0], v
        assert any(r.startswith("not re-derived: presentation") for r in v.reasons)
    assert "so Q_n of 0.07 for n >= 34" in check_row(rows[1]).reasons[0]
    # the census's --json output, gzip-compressed, through `cgtalg check`
    path = tmp_path / "q.json.gz"
    path.write_bytes(gzip.compress(json.dumps({"census": {"kind": "misere quotient"}, "rows": rows}).encode()))
    got = CliRunner().invoke(cli, ["check", str(path)], obj={})
    assert got.exit_code == 0 and "2 of 2 certificate(s) hold" in got.output, got.output


def _flip_witness_point(doc):
    """F at the witness's point (a, b) = (0, 1) flipped (the rule b − a >= t says not P)."""
    import base64
    import zlib

    ray = doc["ray"]
    shape = ray["F_shape"]
    bits = np.unpackbits(np.frombuffer(zlib.decompress(base64.b64decode(ray["F"])), np.uint8))
    F = bits[: int(np.prod(shape))].astype(bool).reshape(shape)
    F[doc["witness"]["element"], 0, 1] ^= True
    ray["F"] = base64.b64encode(zlib.compress(np.packbits(F.reshape(-1)).tobytes())).decode("ascii")


def _set_witness_t(doc):
    doc["witness"]["t"] = 3


@pytest.mark.parametrize("code,field,value,named", [
    ("0.07", "infinite_from", 35, "infinite_from"), ("0.137", "infinite_from", 34, "infinite_from"),
    ("0.07", "heaps", 34, "heaps"), ("0.137", "heaps", 33, "heaps"),
    ("0.07", "order", 552, "order"), ("0.137", "p_count", 108, "p_count"),
    ("0.07", "status", "wild-finite", "certificate"), ("0.07", "status", "tame", "certificate"),
    ("0.07", "standard_form", "0.07", "standard_form"), ("0.07", "shift", 0, "shift"),
    ("0.07", "certificate", None, "certificate"), ("0.137", "certificate", {}, "certificate")])
def test_mutated_infinite_rows_are_rejected(code, field, value, named):
    row = infinite_row(code)
    row[field] = value
    v = check_row(row)
    assert fails_naming(v, named), v
    if field == "status":  # and it claims a heap v with a status that is not infinite
        assert fails_naming(v, "infinite_from"), v


@pytest.mark.parametrize("edit,why", [(_set_witness_t, "certificate.witness"),
                                      (_flip_witness_point, "certificate.witness")])
def test_a_tampered_infinite_certificate_is_rejected(edit, why):
    doc = json.loads(_infinite_doc())
    edit(doc)
    v = check_row(infinite_row("0.07", doc))
    assert fails_naming(v, f"infinite certificate: {why}"), v


def test_the_infinite_certificate_of_another_game_is_rejected():
    other = json.loads(_infinite_doc("Q34_0.07_infinite.json"))  # the member's own proof, not its class's
    row = infinite_row("0.137")
    row["certificate"] = {"infinite": other}
    v = check_row(row)
    assert fails_naming(v, "certificate") and "not the standard form 0.137" in v.reasons[0], v
    assert fails_naming(check_row(dict(infinite_row("0.07"), certificate={"infinite": other})), "certificate")
    # a certificate whose last finite quotient is misstated (and the row with it): Lemma 8 refuses it
    doc = json.loads(_infinite_doc())
    doc["last_finite"]["order"] = 552
    v = check_row(infinite_row("0.137", doc))
    assert fails_naming(v, "infinite certificate: certificate.last_finite.order"), v


def test_an_unsettled_rows_lower_bound_is_stated_not_checked():
    from cgtalg.census.quotient_table import quotient_row

    record = {"status": "unsettled", "heaps": 9, "order": 12, "p_count": 3, "growth": None, "stopped": "time",
              "next_bound": {"heap": 10, "at_least": 152, "copies": 69}}
    row = quotient_row("0.774", 0, ["0.774"], "0.774", record).to_json()
    assert (row["bound_heap"], row["lower_bound"], row["certificate"]) == (10, 152, None)
    v = check_row(row)
    assert v.ok and any("claims nothing" in r for r in v.reasons)
    assert any(r.startswith("not checked: the lower bound |Q_10| >= 152") for r in v.reasons), v


@pytest.mark.parametrize("name", ["0.77", "0.07", "0.156", "0.3777", "4.07", "0.[3]", "0.1[4]", "0x.8F",
                                  "0x8.1", "S(1,3,4)", "allbut(2,5)", "grundy"])
def test_option_images_without_listing_match_the_listed_options(name):
    """The referee's quotient check reads the option images of a code off its digits without
    listing the options (a final quotient may be certified near heap 7,500); on every heap up to
    40, under a random Φ into a commutative monoid, the images are the products of Φ over
    each listed option of HeapRules.options, and "no move" is said exactly where there is none."""
    rules = heap_rules(name)
    rng = np.random.default_rng(7)
    size = 9  # Z/3 (addition) times the chain 0 < 1 < 2 (max): a commutative monoid, identity 0
    table = np.array([[3 * ((x // 3 + y // 3) % 3) + max(x % 3, y % 3) for y in range(size)]
                      for x in range(size)])
    phi = rng.integers(0, size, size=41)
    for n in range(41):
        listed = set()
        for parts in rules.options(n):
            x = 0
            for h in parts:
                x = int(table[x, phi[h]])
            listed.add(x)
        got = option_images(rules, n, phi, table)
        assert (got is None) == (not rules.options(n)), (name, n)
        assert (got or set()) == listed, (name, n)
