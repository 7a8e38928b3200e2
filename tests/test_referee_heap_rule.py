"""Largest-heap rules: the referee's proof (cgtalg.referee.heap_rule) and the search
(cgtalg.quotients.largest_heap), against brute-force play from the digits (tests/brute_octal.py).

The rule of 0.734 and 0.735 (docs/quotient_frontier_stalls.md, "`0.734` in three numbers"): with
``m`` the largest heap, ``G`` the nim-value of the others and ``z = m − Σ 2⌊h/2⌋`` over them, a
position is P iff (m even and G = g(m)), or (m odd >= 3 and (G = g(m), z <= 1 or G = g(m) ⊕ 2,
z >= 7)), or (m = 1 and the number of heaps is odd). The certificates in
docs/data/largest_heap_rules/ are what the census publishes; every check below compares the
referee's verdict with outcomes played out, never with what the code printed before."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from brute_octal import MisereBrute, partitions
from cgtalg.quotients.largest_heap import Positions, RuleConflict, find_weights, largest_heap_rule
from cgtalg.referee import check_document, heap_rule
from cgtalg.referee._verdict import Malformed
from cgtalg.rulesets.heaps.octal import TakeAndBreak

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "data" / "largest_heap_rules"


def _doc(code: str) -> dict:
    return json.loads((RULES / f"{code}.json").read_text())



def _key(doc: dict, brute: MisereBrute, pos) -> tuple:
    """The rule's key of a position, from the certificate's data and brute-force Grundy values."""
    p, n0 = doc["grundy"]["period"], doc["grundy"]["preperiod"]
    ex, res = doc["weights"]["exact"], doc["weights"]["residue"]
    zl, zh = doc["rule"]["z"]
    f0 = doc["rule"]["exact_below"]
    hs = sorted(pos, reverse=True)
    m, G, S = hs[0], 0, 0
    for h in hs[1:]:
        G ^= brute.g[h]
        S += h - (ex[h - 1] if h < n0 else res[h % p])
    rho = ("e", m) if m < f0 else ("r", m % p)
    return rho[0], rho[1], G, min(max(m - S, zl), zh)


def _rule_says_p(doc, brute, pos) -> bool:
    return list(_key(doc, brute, pos)) in doc["rule"]["P"]


@pytest.mark.parametrize("code", ["0.734", "0.735"])
def test_the_published_rule_is_proved_and_agrees_with_play(code):
    doc = _doc(code)
    vd = heap_rule.check(doc)[0]
    assert vd.ok, str(vd)
    assert "infinite" in vd.claim
    brute = MisereBrute(code, 22)
    n = 0
    for tokens in range(1, 23):
        for pos in partitions(tokens, tokens):
            assert _rule_says_p(doc, brute, pos) == brute.is_p(pos), pos
            n += 1
    assert n == 4507        # partitions of 1 .. 22


@pytest.mark.parametrize("code", ["0.734", pytest.param("0.735", marks=pytest.mark.slow)])
def test_every_false_rule_one_key_away_is_refused(code):
    """Each key some position of at most 18 tokens has, flipped (P <-> N): the rule is then false
    on that position (played out), so the referee must refuse it."""
    doc = _doc(code)
    brute = MisereBrute(code, 18)
    reached = {}
    for tokens in range(1, 19):
        for pos in partitions(tokens, tokens):
            reached.setdefault(tuple(_key(doc, brute, pos)), pos)
    assert len(reached) >= 50
    for key, pos in reached.items():
        bad = copy.deepcopy(doc)
        if list(key) in bad["rule"]["P"]:
            bad["rule"]["P"].remove(list(key))
        else:
            bad["rule"]["P"].append(list(key))
        assert _rule_says_p(bad, brute, pos) != brute.is_p(pos)
        assert not heap_rule.check(bad)[0].ok, (key, pos)


def test_the_family_heaps_are_told_apart_in_play():
    """R6's witnesses, played out: heap m0 + s·i beside Y_j = base + j·block has the other outcome
    than heap m0 + s·j beside it (i > j)."""
    doc = _doc("0.734")
    fam = doc["family"]
    brute = MisereBrute("0.734", 40)
    for j in range(3):
        y = fam["base"] + fam["block"] * j
        mine = brute.is_p([fam["heap"] + fam["step"] * j] + y)
        for i in range(j + 1, 4):
            assert brute.is_p([fam["heap"] + fam["step"] * i] + y) != mine, (i, j)


@pytest.mark.parametrize("code", ["0.337", "0.737", "0.754", "0.534", "0.736"])
def test_the_rule_of_0734_is_refused_for_other_games(code):
    """The same rule named for a game it does not describe (brute force finds a position where it
    is wrong) is refused."""
    doc = _doc("0.734")
    doc["game"] = code
    brute = MisereBrute(code, 16)
    assert any(_rule_says_p(doc, brute, pos) != brute.is_p(pos) for t in range(1, 17) for pos in partitions(t, t))
    assert not heap_rule.check(doc)[0].ok


def test_a_family_that_tells_nothing_apart_is_refused():
    doc = _doc("0.734")
    for fam, why in (({"heap": 3, "step": 4, "base": [1], "block": [2]}, "block"),        # ⊕ g = 2, Σ w = 2
                     ({"heap": 3, "step": 8, "base": [1], "block": [2, 2]}, "block"),     # Σ w = 4, not 8
                     ({"heap": 2, "step": 4, "base": [], "block": [2, 2]}, "same"),       # m even: z is not read
                     ({"heap": 3, "step": 4, "base": [9], "block": [2, 2]}, "1 .. 3")):   # a heap above m0
        bad = copy.deepcopy(doc)
        bad["family"] = fam
        vd = heap_rule.check(bad)[0]
        assert not vd.ok and any(why in r for r in vd.reasons if r.startswith("FAIL")), (fam, str(vd))
    bad = copy.deepcopy(doc)
    del bad["family"]
    assert not heap_rule.check(bad)[0].ok


def test_wrong_data_are_refused():
    doc = _doc("0.734")
    bad = copy.deepcopy(doc)
    bad["grundy"]["period"] = 3
    bad["weights"]["residue"] = [0, 1, 0]
    bad["rule"]["P"] = [k for k in bad["rule"]["P"] if k[0] == "e" or k[1] < 3]
    vd = heap_rule.check(bad)[0]
    assert not vd.ok and "no period 3" in str(vd)
    bad = copy.deepcopy(doc)
    bad["weights"]["residue"] = [0, 5, 0, 1]
    vd = heap_rule.check(bad)[0]
    assert not vd.ok and "c(1) = 5 > 1" in str(vd)
    # period 8 is a period of h mod 4 too, but the keys then name m mod 8: heaps 4 .. 7 mod 8 are
    # all called N, which play refutes
    bad = copy.deepcopy(doc)
    bad["grundy"]["period"] = 8
    bad["weights"]["residue"] = [0, 1, 0, 1, 0, 1, 0, 1]
    brute = MisereBrute("0.734", 14)
    assert any(_rule_says_p(bad, brute, p) != brute.is_p(p) for t in range(1, 15) for p in partitions(t, t))
    assert not heap_rule.check(bad)[0].ok


def test_a_rule_read_off_too_few_positions_is_refused():
    """Read off 20 tokens, 0.735 also fits weights (0, 1, 0, 0); play refutes that rule further on,
    and the referee refuses it."""
    doc = largest_heap_rule(TakeAndBreak("0.735"), [0, 1, 0, 0], max_tokens=20)
    brute = MisereBrute("0.735", 26)
    assert any(_rule_says_p(doc, brute, p) != brute.is_p(p) for t in range(21, 27) for p in partitions(t, t))
    assert not heap_rule.check(doc)[0].ok


def test_malformed_certificates():
    doc = _doc("0.734")
    for edit in (lambda d: d.pop("rule"), lambda d: d["rule"]["P"].append(["x", 1, 0, 1]),
                 lambda d: d["rule"]["P"].append(["r", 9, 0, 1]), lambda d: d["rule"].update(z=[5, 1]),
                 lambda d: d["weights"].update(residue=[0, 1])):
        bad = copy.deepcopy(doc)
        edit(bad)
        with pytest.raises(Malformed):
            heap_rule.read(bad)
    bad = copy.deepcopy(doc)
    bad["game"] = "0.[3]"            # an infinite code: no bound on the tokens a move takes
    assert not heap_rule.check(bad)[0].ok


def test_cgtalg_check_reads_the_certificate_file(tmp_path, capsys):
    bad = _doc("0.735")
    bad["rule"]["P"] = bad["rule"]["P"][1:]
    vds = check_document(bad)
    assert len(vds) == 1 and not vds[0].ok and vds[0].checker == "cgtalg.referee.heap_rule.check"
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(bad))
    from cgtalg.cli import app

    assert app.main(["check", str(f)]) == 1
    assert "REJECTED" in capsys.readouterr().out


def test_a_spent_budget_is_a_failure_not_a_pass():
    vd = heap_rule.check(_doc("0.734"), max_seconds=1e-9)[0]
    assert not vd.ok and any("CPU time" in r for r in vd.reasons)


# -- the search ---------------------------------------------------------------------------------
def test_the_search_reads_the_positions_as_played_out():
    pos = Positions(TakeAndBreak("0.734"), 14)
    brute = MisereBrute("0.734", 14)
    assert (pos.n0, pos.p) == (1, 4)
    assert len(pos.data) == sum(1 for t in range(1, 15) for _ in partitions(t, t))
    assert all(brute.is_p(p) == isp for p, isp in pos.data)


@pytest.mark.slow   # the same loop runs in tests/test_largest_heap_door.py (the door)
def test_the_search_finds_the_rule_the_referee_proves():
    """Read off 20 tokens, (0, 1, 0, 0) fits 0.734 too and comes first; the referee refuses it and
    accepts (0, 1, 0, 1)."""
    verdicts = [(ws, heap_rule.check(d)[0].ok, d) for ws, d in find_weights(TakeAndBreak("0.734"), cmax=1, max_tokens=20)]
    assert [ws for ws, ok, _d in verdicts if ok] == [[0, 1, 0, 1]]
    doc = next(d for _ws, ok, d in verdicts if ok)
    brute = MisereBrute("0.734", 16)
    assert all(_rule_says_p(doc, brute, p) == brute.is_p(p) for t in range(1, 17) for p in partitions(t, t))


@pytest.mark.parametrize("code", ["0.337", "0.737"])
def test_no_rule_with_0734s_weights_for_games_whose_rules_weigh_otherwise(code):
    """0.337 and 0.737 have largest-heap rules (docs/data/largest_heap_rules/), with other weights:
    with 0.734's, two positions of one key differ in outcome by brute force."""
    with pytest.raises(RuleConflict) as exc:
        largest_heap_rule(TakeAndBreak(code), [0, 1, 0, 1], max_tokens=16)
    a, b = exc.value.examples
    brute = MisereBrute(code, 16)
    assert brute.is_p(a) != brute.is_p(b)
    with pytest.raises(RuleConflict, match="Grundy period is 6"):
        largest_heap_rule(TakeAndBreak("0.157"), [0, 1, 0, 1], max_tokens=8)


@pytest.mark.parametrize("code", ["0.7", "0.73", "4.3", "4.72", "4.02", "0.012", "0.772"])
def test_outcome_rules_of_finite_quotients_are_accepted_only_when_true(code):
    """Games whose quotients are finite have largest-heap rules too (the outcomes only, R1–R5):
    read off positions of at most 12 tokens, a rule the referee accepts must agree with play from
    the digits to 20 tokens; 0.772's (read off 12 tokens) is false at 24 tokens … and refused."""
    game = TakeAndBreak(code)
    pos = Positions(game, 12)
    doc = None
    for ws in ([0] * pos.p, [x % 2 for x in range(pos.p)]):
        try:
            doc = largest_heap_rule(game, ws, positions=pos, family=False)
            break
        except RuleConflict:
            continue
    assert doc is not None
    vd = heap_rule.check(doc, infinite=False)[0]
    brute = MisereBrute(code, 24 if code == "0.772" else 20)
    wrong = [p for t in range(1, brute_top(brute) + 1) for p in partitions(t) if _rule_says_p(doc, brute, p) != brute.is_p(p)]
    if vd.ok:
        assert not wrong, wrong[:3]
    if code == "0.772":
        assert wrong and not vd.ok
    else:
        assert vd.ok, str(vd)


def brute_top(brute: MisereBrute) -> int:
    return len(brute.g) - 1


def test_a_position_without_a_move_is_never_called_p():
    """0.012: a heap of 1 has no move. With heap 1 its own class of largest heap (exact_below 2),
    the rule read off 12 tokens holds; calling P the positions of heaps of 1 only (an even number
    beside the largest: {1}, {1, 1, 1}, …), each without a move and so an N-position, is wrong on
    those positions alone, and refused."""
    game = TakeAndBreak("0.012")
    doc = largest_heap_rule(game, [0, 0], positions=Positions(game, 12), family=False)
    doc["rule"]["exact_below"] = 2
    assert heap_rule.check(doc, infinite=False)[0].ok
    brute = MisereBrute("0.012", 16)
    assert brute.opts[1] == [] and brute.opts[2] == [()]
    key = list(_key(doc, brute, (1,)))
    assert key[:2] == ["e", 1] and key not in doc["rule"]["P"]
    doc["rule"]["P"].append(key)
    wrong = [p for t in range(1, 17) for p in partitions(t) if _rule_says_p(doc, brute, p) != brute.is_p(p)]
    assert wrong and all(set(p) == {1} for p in wrong)
    assert not heap_rule.check(doc, infinite=False)[0].ok
