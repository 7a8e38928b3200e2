"""The normal tie (cgtalg.quotients.tail.normal_tie; the referee's cgtalg.referee.quotient_tail.check_tie):
conditions 1–3 of the normal tail on a verified ``Q_N`` without a Grundy period. Then the whole
quotient is ``Q_N`` extended by the nim-values the later Grundy values span, and every later
partial quotient has order ``|Q_N| + |span G(0..n)| − |B|``.

Checked against what does not use the theorem: the construction's own partial quotients (the
verification principle, heap by heap) and exhaustive misère play from the code's digits
(``quotient_helpers.brute_misere``). The codes are those the census leaves open because their
Grundy values may grow without bound (docs/quotient_frontier_passes.md, fourth pass: 0.777's orders
48, 80, 144, … where a new power of two first appears)."""

from __future__ import annotations

import copy
import random
from functools import reduce

import numpy as np
import pytest

from cgtalg.quotients.construct import misere_quotient
from cgtalg.quotients.state import forget_known, misere_period_bound
from cgtalg.quotients.tail import normal_tie, span
from cgtalg.referee import check_document
from cgtalg.rulesets.heaps.octal import TakeAndBreak
from quotient_helpers import brute_misere


def _tie(code: str, N: int):
    r = TakeAndBreak(code)
    q = misere_quotient(r, max_heap=N, progress=False)
    return r, q, normal_tie(r, np.asarray(q.table), np.asarray(q.P), q.phi, misere_period_bound(r),
                            r.grundy_sequence(N + 1))


@pytest.mark.parametrize("code, N, later", [("0.777", 23, [34, 60, 301, 320, 653]),
                                            ("0.1707", 38, [60, 200, 400]),
                                            ("0.764", 25, [40, 100, 300])])
def test_a_tie_gives_the_order_of_every_later_partial_quotient(code, N, later):
    r, q, tie = _tie(code, N)
    assert isinstance(tie, dict), tie
    assert tie["verified_to"] == N and tie["ideal"] == len(span(r.grundy_sequence(N + 1)))
    for n in later:
        G = r.grundy_sequence(n + 1)
        predicted = q.order + len(span(G)) - tie["ideal"]
        assert misere_quotient(r, max_heap=n, progress=False).order == predicted, n


def test_positions_past_the_verified_heaps_are_played_as_in_normal_play():
    """With the tie of Q_23 of 0.777, a position holding a heap above 23 is a misère P-position
    exactly when its Grundy value is 0 (exhaustive play from the digits)."""
    r, q, tie = _tie("0.777", 23)
    assert isinstance(tie, dict)
    G = r.grundy_sequence(40)
    brute = brute_misere("0.777")
    rng = random.Random(3)
    positions = [(h,) for h in range(24, 36)] + [(h, b) for h in range(24, 31) for b in range(1, 10)]
    positions += [(rng.randint(24, 28), rng.randint(1, 8), rng.randint(1, 6)) for _ in range(12)]
    for heaps in positions:
        assert brute(heaps) == (reduce(lambda x, y: x ^ y, (G[h] for h in heaps)) == 0), heaps


def test_no_tie_where_the_conditions_fail():
    # 0.337 grows by a new generator at almost every heap: its big heaps are not played as in
    # normal play; Q_20 of 0.777 is too short for its heap 10 outside the ideal (2·10 + 3 = 23)
    _, _, tie = _tie("0.337", 40)
    assert isinstance(tie, str)
    _, _, tie = _tie("0.777", 20)
    assert isinstance(tie, str) and "heap 10 is outside the ideal" in tie


def test_a_stopped_construction_carries_its_tie_and_says_so():
    forget_known()
    q = misere_quotient(TakeAndBreak("0.1707"), max_seconds=2, partial=True, progress=False)
    assert not q.final and q.tie is not None and q.tie["verified_to"] == q.max_heap
    assert q.to_dict()["normal_tie"] == q.tie
    assert "finite exactly when the Grundy values are bounded" in str(q)
    from cgtalg.cli.quotient_report import _hint, quotient_text

    assert "tied to normal play" in quotient_text(q)
    hint = _hint(q, 2.0, False)
    assert "cgtalg period 0.1707" in hint and "--time 10m" not in hint
    # a quotient asked to a heap is not a stopped one: no tie is looked for
    assert misere_quotient(TakeAndBreak("0.1707"), max_heap=60, progress=False).tie is None


def _doc(code: str, N: int) -> dict:
    r, q, tie = _tie(code, N)
    doc = q.to_dict()
    doc["normal_tie"] = tie if isinstance(tie, dict) else {"theorem": "normal tie", "verified_to": N,
                                                           "outside": 10, "ideal": 16}
    return doc


def _verdict(doc):
    verdicts = check_document(doc)
    assert len(verdicts) == 1
    return verdicts[0]


def test_the_referee_accepts_a_tie_and_refuses_false_ones():
    doc = _doc("0.777", 40)
    v = _verdict(doc)
    assert v.ok, v.reasons
    assert "tied to normal play" in " ".join(v.reasons)
    for key, value in [("outside", 9), ("ideal", 64), ("verified_to", 41)]:
        bad = copy.deepcopy(doc)
        bad["normal_tie"][key] = value
        v = _verdict(bad)
        assert not v.ok and f"normal_tie: {key}" in " ".join(v.reasons), (key, v.reasons)
    bad = copy.deepcopy(doc)
    bad["normal_tie"] = "tied"
    assert not _verdict(bad).ok
    # a tie stated where it does not hold: Q_20 of 0.777 (too short), Q_40 of 0.337 (no ideal)
    v = _verdict(_doc("0.777", 20))
    assert not v.ok and "must be verified" in " ".join(v.reasons), v.reasons
    v = _verdict(_doc("0.337", 40))
    assert not v.ok and "normal_tie" in " ".join(v.reasons), v.reasons


def test_a_census_row_tied_to_normal_play_is_checked_by_the_referee(tmp_path):
    """0.1707 and its cousin 0.415: unsettled rows that state Q_M at the least heap M where the
    tie is proved (heap 2·17 + 4 = 38 of 0.1707: Q_38 has order 24), whose certificate is Q_M
    with the tie; a row edited to a false claim is refused, and a census run again re-checks
    the stored record."""
    from cgtalg.census.quotients import quotient_census

    path = str(tmp_path / "census.sqlite")
    # 0.157: unsettled, no tie and no largest-heap rule tried (Grundy period 6); 0.337, used here
    # before, is now proved infinite by the rule the census fits (seventeenth session)
    r = quotient_census(codes=["0.1707", "0.415", "0.157"], scheduler="serial", store=path, class_seconds=3)
    rows = {row.code: row.to_json() for row in r.rows}
    tied = rows["0.415"]
    assert tied["status"] == "unsettled" and tied["stopped"] == "normal play"
    assert tied["certificate"]["quotient"]["normal_tie"]["outside"] == 17          # of the standard form
    assert tied["heaps"] == rows["0.1707"]["heaps"] + 1                            # shift 1
    assert rows["0.157"]["stopped"] == "time" and not rows["0.157"]["certificate"]  # no tie there
    record = r.records["0.1707"]
    assert record["heaps"] > 1000 and record["tied"]["heaps"] == 38 and record["tied"]["order"] == 24
    assert (tied["heaps"], tied["order"], tied["growth"][-1][0]) == (39, 24, max(h for h, _ in tied["growth"]))
    assert tied["presentation"] and tied["generator_heaps"]
    for row in rows.values():
        v = _verdict(row)
        assert v.ok, v.reasons
    assert "tie to normal play" in " ".join(_verdict(tied).reasons)
    for key, value in [("order", 25), ("heaps", tied["heaps"] + 1), ("stopped", "time"),
                       ("generator_heaps", tied["generator_heaps"][:-1]), ("growth", tied["growth"][:-1])]:
        bad = copy.deepcopy(tied)
        bad[key] = value
        assert not _verdict(bad).ok, key
    bad = copy.deepcopy(tied)
    bad["certificate"]["quotient"]["normal_tie"]["outside"] = 16
    assert not _verdict(bad).ok
    bad = copy.deepcopy(rows["0.157"])
    bad["stopped"] = "normal play"                 # claimed without a certificate
    assert not _verdict(bad).ok
    again = quotient_census(codes=["0.1707"], scheduler="serial", store=path, class_seconds=3)
    row = again.row("0.1707")
    assert row.source == "reused, re-checked" and row.stopped == "normal play" and not again.rechecks
