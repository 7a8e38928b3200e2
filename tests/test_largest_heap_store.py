"""A largest-heap rule kept in the store answers misère play of any heaps: `cgtalg.outcome`,
`cgtalg.winning_moves`, `cgtalg outcome --misere` and `cgtalg misere` read it, the referee checks
it once per store and process, and a stored rule that is false, or about another game, is refused
(the answer then comes from the search, never from the rule). Every answer is compared with play
from the digits (tests/brute_octal.py, no cgtalg code)."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

import cgtalg as cg
from brute_octal import MisereBrute, partitions
from cgtalg.ops import largest_heap as door
from cgtalg.quotients.storage import Checkpointer
from cgtalg.rulesets.heaps.octal import TakeAndBreak
from cgtalg.store import open_store

RULES = Path(__file__).resolve().parents[1] / "docs" / "data" / "largest_heap_rules"


def _doc(code: str = "0.734") -> dict:
    return json.loads((RULES / f"{code}.json").read_text())


@pytest.fixture(scope="module")
def ruled(tmp_path_factory):
    """A store holding the proved rule of 0.734 (and no quotient of it)."""
    st = open_store(str(tmp_path_factory.mktemp("rule") / "s.sqlite"))
    Checkpointer(TakeAndBreak("0.734"), st).write_rule(_doc())
    return st


def _brute_moves(brute: MisereBrute, code: str, pos: tuple[int, ...]) -> set:
    from brute_octal import digit_options

    out = set()
    for i, h in enumerate(pos):
        rest = pos[:i] + pos[i + 1:]
        for parts in digit_options(code, h):
            if brute.is_p(rest + parts):
                out.add((h, tuple(sorted(parts))))
    return out


def test_outcomes_and_winning_moves_from_the_stored_rule_agree_with_play(ruled):
    brute = MisereBrute("0.734", 16)
    for t in range(1, 17):
        for pos in partitions(t):
            p = cg.position("0.734", *pos)
            got = cg.outcome(p, misere=True, store=ruled)
            assert got == ("P" if brute.is_p(pos) else "N"), pos
            if t <= 12:
                moves = {(m.heap, tuple(sorted(m.parts))) for m in cg.winning_moves(p, misere=True, store=ruled)}
                assert moves == _brute_moves(brute, "0.734", pos), pos


def test_the_rule_answers_heaps_no_search_reaches(ruled):
    from cgtalg.cli.octal import misere_heap_outcome

    g = TakeAndBreak("0.734")
    result, human = misere_heap_outcome(g, [10**30, 37, 4], 5, ruled)
    assert result["method"].startswith("largest-heap rule") and result["quotient_infinite"] is True
    assert result["quotient_infinite_from"] is None and "infinite, proved by the largest-heap rule" in human()
    # the certificate read by hand: m = 10^30 ≡ 0 (mod 4), G = g(37) ⊕ g(4) = 1 ⊕ 0 (g(h) = h mod
    # 4), z = m − 36 − 4 far above the window: the key (r, 0, 1, 7) is not a P-key, so N
    assert result["outcome"] == "N" and ["r", 0, 1, 7] not in _doc()["rule"]["P"]
    res2, _ = misere_heap_outcome(g, [1001, 37, 4], 20, ruled)
    assert res2["winning_move_count"] == 3
    for m in res2["winning_moves"]:
        after = [h for i, h in enumerate([1001, 37, 4]) if i != m["heap_index"]] + list(m["parts"])
        assert door.rule_play(g, ruled).is_p(after)


def test_a_false_or_foreign_stored_rule_is_refused_and_play_answers(tmp_path):
    st = open_store(str(tmp_path / "bad.sqlite"))
    g = TakeAndBreak("0.734")
    bad = _doc()
    bad["rule"]["P"].remove(["r", 1, 1, 1])         # one P-key dropped: a false rule
    Checkpointer(g, st).write_rule(bad)
    brute = MisereBrute("0.734", 12)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert door.stored_rule(g, st) is None
        assert door.rule_for_position(g, [5, 4], st) is None
    assert any("refuses it" in str(w.message) for w in caught)
    for pos in [(5, 4), (9, 2, 1), (5, 1, 1, 1)]:
        assert cg.outcome(cg.position("0.734", *pos), misere=True, store=st) == ("P" if brute.is_p(pos) else "N")
    other = open_store(str(tmp_path / "other.sqlite"))
    Checkpointer(TakeAndBreak("0.77"), other).write_rule(_doc())      # 0.734's rule under Kayles
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert door.stored_rule(TakeAndBreak("0.77"), other) is None
    assert any("about '0.734', not 0.77" in str(w.message) or "not 0.77" in str(w.message) for w in caught)


def test_the_rule_survives_a_rewrite_of_the_quotient_record(ruled):
    from cgtalg.quotients.construct import misere_quotient

    g = TakeAndBreak("0.734")
    misere_quotient(g, 12, store=ruled, partial=True, progress=False)      # writes Q_12 beside the rule
    ck = Checkpointer(g, ruled)
    assert ck.load_rule() == _doc() and ck.load() is not None
    # heaps Q_12 covers are answered by the quotient, larger ones by the rule
    assert door.rule_for_position(g, [12, 3], ruled) is None
    assert door.rule_for_position(g, [13, 3], ruled) is not None


def test_the_door_reads_a_stored_rule_instead_of_searching(ruled, monkeypatch):
    def no_search(*a, **k):
        raise AssertionError("searched although a rule is stored")

    monkeypatch.setattr(door, "find_weights", no_search)
    v = door.largest_heap_verdict("0.734", store=ruled)
    assert v is not None and v["weights"] == [0, 1, 0, 1] and v["verdict"]["ok"]


@pytest.mark.slow
def test_the_door_stores_the_rule_it_proves(tmp_path):
    st = open_store(str(tmp_path / "new.sqlite"))
    v = door.largest_heap_verdict("0.735", store=st, max_seconds=120)
    assert v is not None
    assert Checkpointer(TakeAndBreak("0.735"), st).load_rule() == v["certificate"]


def test_splits_of_a_huge_heap_come_as_families_that_match_keying_each_split(monkeypatch):
    from cgtalg.quotients import largest_heap as hp

    rp = hp.RulePlay(TakeAndBreak("0.734"), _doc())

    def mv(i, h, t, parts, stride=0, count=1):
        return (h, parts, stride, count)

    def members(ms):
        out = set()
        for h, parts, stride, count in ms:
            if count == 1:
                out.add((h, tuple(sorted(parts))))
            else:
                a, b = parts
                out |= {(h, tuple(sorted((a + j * stride, b - j * stride)))) for j in range(count)}
        return out

    cases = [[300], [301, 2], [517, 200, 3], [402, 401, 1, 1], [250, 249, 248], [333, 12, 7, 5], [640, 500]]
    for hs in cases:
        direct = members(rp.winning_moves(hs, mv))
        monkeypatch.setattr(hp, "MAX_SPLITS", 64)        # every heap above 64 by families
        fam = rp.winning_moves(hs, mv)
        monkeypatch.setattr(hp, "MAX_SPLITS", 1 << 21)
        assert members(fam) == direct, hs
        assert any(m[3] > 1 for m in fam) or not direct
    big = rp.winning_moves([10**30, 37, 4], mv)            # answered, in few families
    assert 0 < len(big) < 100


def test_stored_rule_refuses_what_is_not_a_heap_game(ruled):
    from cgtalg.errors import GameKindError

    for g in ("*2+*2", "{1|-1}", ["*2"]):
        with pytest.raises(GameKindError, match="stored_rule"):
            door.stored_rule(g, ruled)

