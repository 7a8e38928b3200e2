"""The normal tail (cgtalg.quotients.tail): a misère quotient made final from the Grundy period.

Checked against brute-force play (positions holding heaps past the verified ``Q_N``, decided by
exhaustive misère play from the code's digits), against Plambeck–Siegel's periodicity theorem
(the same final quotient, the same outcomes, by the other theorem), and by the referee, which
proves the statement with its own code and refuses edited claims."""

from __future__ import annotations

import copy
import random

import numpy as np
import pytest

from cgtalg.errors import StoreCorruptError
from cgtalg.quotients.construct import misere_quotient
from cgtalg.quotients.pretension import FiniteMonoid, Pretension
from cgtalg.quotients.state import forget_known, misere_period_bound
from cgtalg.quotients.tail import (NormalTail, extend_phi, least_period, normal_ideal, normal_tail,
                                   normal_values, span, tail_state)
from cgtalg.referee import check_document
from cgtalg.rulesets.heaps.octal import TakeAndBreak
from cgtalg.rulesets.heaps.octal_periodicity import periodicity
from quotient_helpers import brute_misere


def _tail_at(code: str, N: int):
    """``(Q_N, its normal tail)`` of ``code`` (the tail a text when it does not hold)."""
    r = TakeAndBreak(code)
    q = misere_quotient(r, max_heap=N, progress=False, resume=False)
    per = periodicity(r)
    assert per.certified
    g = r.grundy_sequence(max(per.preperiod, N + 1) + per.period)
    return q, normal_tail(r, np.asarray(q.table), np.asarray(q.P), q.phi, misere_period_bound(r),
                          (per.preperiod, per.period), g)


def _final_by_tail(code: str, N: int):
    q, tail = _tail_at(code, N)
    assert isinstance(tail, NormalTail), tail
    pre = Pretension(FiniteMonoid(np.asarray(q.table)), np.asarray(q.P), list(q.phi))
    return tail_state(pre, tail, 0.0).quotient(code)


def _image(T, phi, heaps):
    x = 0
    for h in heaps:
        x = int(T[x, phi[h]])
    return x


@pytest.mark.parametrize("code, N, top", [("0.56", 14, 20), ("0.75", 16, 23),
                                          pytest.param("4.56", 22, 27, marks=pytest.mark.slow)])
def test_positions_past_the_verified_heaps_match_brute_force(code, N, top):
    """Q_N extended by the tail predicts the outcome of positions whose heaps lie past N (heap
    15..20 of 0.56 from Q_14: T_4 grown to T_7 by nim-values alone; 4.56, wild, from Q_22), as
    exhaustive play says."""
    q, tail = _tail_at(code, N)
    assert isinstance(tail, NormalTail), tail
    phi = extend_phi(q.phi, tail)
    start, p = max(tail.grundy[0], N + 1), tail.grundy[1]
    phi += [phi[start + (h - start) % p] for h in range(len(phi), top + 1)]
    brute = brute_misere(code)
    rng = random.Random(7)
    positions = [(h,) for h in range(N + 1, top + 1)]
    positions += [(a, b) for a in range(N + 1, top + 1) for b in range(1, 9)]
    positions += [tuple(rng.randint(1, top - 2) for _ in range(3)) for _ in range(25)]
    for heaps in positions:
        assert bool(tail.P[_image(tail.table, phi, heaps)]) == brute(heaps), heaps


@pytest.mark.parametrize("code", ["0.77", "0.512", "0.53", "0.716", "4.56", "0.75"])
def test_the_tail_and_the_misere_periodicity_theorem_give_one_quotient(code):
    """Two theorems, one answer: the final quotient by the normal tail (at the first heap where
    it holds) is Plambeck–Siegel's final quotient: isomorphic, and with the same outcomes on
    positions of heaps up to 300 (Kayles, 0.77: order 40, wild)."""
    final = misere_quotient(TakeAndBreak(code), progress=False, resume=False)
    for N in range(4, 80):
        q, tail = _tail_at(code, N)
        if isinstance(tail, NormalTail):
            break
    else:
        pytest.fail("the normal tail never held")
    by_tail = _final_by_tail(code, N)
    assert by_tail.order == final.order and by_tail.isomorphic(final)
    assert by_tail.period == final.period
    for a in range(1, 120, 7):
        for b in range(1, 300, 11):
            assert by_tail.is_p([a, b]) == final.is_p([a, b])
    assert N < final.checked_to


def test_0_56_is_final_and_tame_t7_by_the_tail():
    """0.56 (Grundy preperiod 326 640, period 144; the value 64 first at heap 22 778): final,
    T_7, within a second, where Plambeck–Siegel's theorem would need Φ of 653 570 heaps."""
    forget_known()
    q = misere_quotient(TakeAndBreak("0.56"), progress=False, resume=False)
    assert q.final and q.order == 130 and q.tame_index() == 7
    assert q.tail is not None and q.tail["outside"] == 6 and q.tail["grundy"] == [326640, 144]
    assert q.period == (326640, 144)
    g = TakeAndBreak("0.56").grundy_sequence(30000)
    assert int(np.argmax(np.asarray(g) >= 64)) == 22778
    # Φ past the verified heaps is the ideal's element of the heap's Grundy value, also far out
    words = q.presentation().words
    assert words[q.phi_of(22778)] != words[q.phi_of(22778 - 144)]
    assert q.phi_of(10**9) == q.phi_of(326640 + (10**9 - 326640) % 144)
    doc = q.to_dict()
    assert doc["max_heap"] == q.checked_to == len(doc["phi"]) - 1 < 1000
    assert "…" in str(q)


def test_the_referee_accepts_0_56():
    q = misere_quotient(TakeAndBreak("0.56"), progress=False)
    verdicts = check_document(q.to_dict())
    assert [v.ok for v in verdicts] == [True], verdicts[0].reasons
    assert "normal tail" in " ".join(verdicts[0].reasons)


def _refused(doc) -> str:
    verdicts = check_document(doc)
    assert len(verdicts) == 1
    assert not verdicts[0].ok
    return " ".join(verdicts[0].reasons)


def test_the_referee_refuses_edited_tails():
    doc = _final_by_tail("0.75", 16).to_dict()
    assert [v.ok for v in check_document(doc)] == [True]
    edits = {
        "outside": lambda d: d["tail"].update(outside=d["tail"]["outside"] - 1),
        "grundy": lambda d: d["tail"].update(grundy=[d["tail"]["grundy"][0], d["tail"]["grundy"][1] + 1]),
        "new_values": lambda d: d["tail"].update(new_values=d["tail"]["new_values"] + [8]),
        "period": lambda d: d.update(period=[d["period"][0] + 1, d["period"][1]]),
        "P": lambda d: d["P"].__setitem__(len(d["P"]) - 1, True),
        "bound": lambda d: d.update(max_heap=12, phi=d["phi"][:13], phi_elements=d["phi_elements"][:13],
                                    checked_to=12),
    }
    for name, edit in edits.items():
        bad = copy.deepcopy(doc)
        edit(bad)
        why = _refused(bad)
        assert why, name
    # a wild quotient's final document with an invented tail
    kayles = misere_quotient(TakeAndBreak("0.77"), progress=False).to_dict()
    kayles["phi"], kayles["phi_elements"] = kayles["phi"][:21], kayles["phi_elements"][:21]
    kayles["max_heap"] = kayles["checked_to"] = 20
    kayles["tail"] = {"theorem": "normal tail", "verified_to": 20, "outside": 5, "grundy": [71, 12], "ideal": 8,
                      "new_values": []}
    assert "tail" in _refused(kayles)


def test_a_stored_tail_is_proved_again_and_an_edited_one_refused(tmp_path):
    from cgtalg.quotients.storage import ENTRY, load_quotient_state, quotient_key
    from cgtalg.store import open_store

    store = open_store(f"sqlite:///{tmp_path / 's.sqlite'}")
    r = TakeAndBreak("0.56")
    forget_known()
    q = misere_quotient(r, store=store, progress=False, resume=False)
    forget_known()
    st = load_quotient_state(TakeAndBreak("0.56"), store)
    assert st.final and st.tail == q.tail and st.pre.monoid.size == 130
    # a Grundy search that runs out of its budget on reading does not make the record false:
    # it is used as the verified Q_N, with a warning
    from cgtalg.errors import ComputationLimitError

    def short(self, *a, **k):
        raise ComputationLimitError("budget")
    forget_known()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(TakeAndBreak, "periodicity", short)
        with pytest.warns(RuntimeWarning, match="could not be proved again"):
            st2 = load_quotient_state(TakeAndBreak("0.56"), store)
    assert not st2.final and st2.top == q.checked_to
    meta = dict(store.sequence_meta(quotient_key(r)))
    rec = dict(meta[ENTRY])
    assert rec["top"] == q.checked_to and rec["final_order"] == 130
    rec["tail"] = dict(rec["tail"], outside=3)
    meta[ENTRY] = rec
    store.put_sequence_meta(quotient_key(r), meta, replace=True)
    forget_known()
    with pytest.raises(StoreCorruptError, match="normal tail"):
        load_quotient_state(TakeAndBreak("0.56"), store)


def test_the_pieces_of_the_tail():
    assert span([]) == [0] and span([3, 5]) == [0, 3, 5, 6] and span([1, 2, 3]) == [0, 1, 2, 3]
    # T_2 (misère Nim on heaps < 4) with Φ of heaps 0..3 of Nim: val is the nim-value
    q = misere_quotient(TakeAndBreak("0.[3]"), max_heap=3, progress=False)
    T, P = np.asarray(q.table), np.asarray(q.P)
    val = normal_values(T, q.phi, [0, 1, 2, 3])
    assert val is not None and [int(val[x]) for x in q.phi] == [0, 1, 2, 3]
    big = normal_ideal(T, P, val)
    assert not big[q.phi[1]] and big[q.phi[2]] and big[q.phi[3]]   # *1 is fickle, *2 and *3 are not
    assert normal_values(T, q.phi, [0, 1, 2, 2]) is None            # not a homomorphism
    # the least period of Φ: period 2 from heap 6 although the tail's period is 4 from heap 8
    assert least_period(3, (8, 4), [9, 9, 7, 8, 7, 8, 7, 8], [0, 1, 2, 3]) == (6, 2)


def test_a_census_row_by_the_normal_tail_is_checked_by_the_referee():
    """The census row of 0.56 (no cousins): tame T_7, Φ as verified, the growth past the verified
    heaps (the value 64 at heap 22 778), all re-derived by the referee."""
    from cgtalg.census.quotients import quotient_census

    forget_known()
    r = quotient_census(codes=["0.56"], scheduler="serial", class_seconds=60)
    row = r.row("0.56")
    assert (row.status, row.order, row.tame, row.preperiod, row.period) == ("tame", 130, 7, 326640, 144)
    assert [list(s) for s in row.growth][-2:] == [[256, 66], [22778, 130]]
    assert len(row.phi) == row.heaps + 1
    verdicts = check_document(row.to_json())
    assert [v.ok for v in verdicts] == [True], verdicts[0].reasons
    edited = row.to_json()
    edited["growth"] = edited["growth"][:-1]
    assert not check_document(edited)[0].ok
