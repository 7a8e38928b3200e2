"""Least-order repair (cgtalg.quotients.extend) and the frontier script
(tools/misere_quotient_frontier.py): every quotient it gives is verified, equals the one the
construction on main gives, and agrees with brute-force misère play from the rules
(tests/misere_brute.py).

Published values: Plambeck & Siegel, "Misère quotients for impartial games", JCTA 115 (2008),
Dawson's Kayles 0.07: Q_30 has order 360, Q_33 order 638 with |P| = 109 (also what MisereSolver
prints here, /work/shared/peers/miseresolver); Dawson's Kayles heap n is Dawson's Chess (0.137)
heap n − 1 (Winning Ways ch. 4), so Q_n(0.07) and Q_(n−1)(0.137) are the same quotient.
"""

from __future__ import annotations

import itertools
import json
import random
import time

import numpy as np
import pytest

from cgtalg.budget import Deadline
from cgtalg.errors import ComputationLimitError
from cgtalg.quotients import construct as Q
from cgtalg.quotients.pretension import Pretension, _reduce, verify_pretension
from cgtalg.quotients.extend import extend, extend_after
from cgtalg.quotients.state import _heap_options, forget_known, known_state
from cgtalg.rulesets.heaps.octal import TakeAndBreak
from misere_brute import MisereBrute
from quotient_helpers import fresh_quotient
from conftest import load_tool



def _tool():
    return load_tool("misere_quotient_frontier")


_quotient = fresh_quotient


def _pre_at(code, n):
    """The verified pretension of Q_n (construction on main)."""
    return _quotient(code, n)[1]


@pytest.mark.parametrize("code,n", [("0.07", 26), ("0.137", 25), ("0.77", 12), ("0.15", 12), ("0.6", 14)])
def test_least_order_gives_the_same_quotient_as_main(code, n):
    q_main, _ = _quotient(code, n)
    q_new, pre = _quotient(code, n, extend)
    assert q_new.order == q_main.order and sorted(q_new.p_portion) == sorted(q_main.p_portion)
    assert (np.asarray(q_new.table) == np.asarray(q_main.table)).all()   # canonical numbering
    options = [_heap_options(TakeAndBreak(code), h) for h in range(n + 1)]
    assert verify_pretension(pre, options) is None


def test_extend_contract_on_a_changing_heap():
    """0.07: heap 10 changes the quotient (Q_9 has order 6, Q_10 order 12)."""
    r = TakeAndBreak("0.07")
    pre = _pre_at("0.07", 9)
    assert pre.monoid.size == 6
    options = [_heap_options(r, h) for h in range(11)]
    lines = []
    got = extend(pre, options, 10, 2_000_000, Deadline(60), 5000, log=lines.append)
    assert verify_pretension(got, options) is None
    red = _reduce(got, options)
    assert red.monoid.size == 12 and int(red.P.sum()) == 3
    # brute force from the rules on every position of up to four heaps <= 10
    brute = MisereBrute(r)
    for k in range(1, 5):
        for pos in itertools.combinations_with_replacement(range(1, 11), k):
            assert brute.is_p(pos) == bool(red.P[red.image(pos)]), pos


def test_extend_budgets():
    r = TakeAndBreak("0.07")
    pre = _pre_at("0.07", 24)
    options = [_heap_options(r, h) for h in range(26)]
    with pytest.raises(ComputationLimitError, match="order"):
        extend(pre, options, 25, 2_000_000, None, 30)          # Q_25 has order 144
    d = Deadline(0.001)
    time.sleep(0.01)
    with pytest.raises(ComputationLimitError):
        extend(pre, options, 25, 2_000_000, d, 5000)


def test_a_trial_that_cannot_fit_is_skipped(monkeypatch):
    """0.6 at heap 17: one trial would need 17 GiB; it is skipped (check_fits refuses it), the
    other trials go on. Here the refusal is simulated for the trials freeing heap 2."""
    import cgtalg.quotients.extend as QE

    real = QE._with_cyclic_factors
    refused = []

    def refuse_heap_2(cand, heaps, ps, options, deadline=None):
        if 2 in heaps:
            refused.append(tuple(heaps))
            raise ComputationLimitError("a misère quotient candidate would need 17 GiB")
        return real(cand, heaps, ps, options, deadline)

    monkeypatch.setattr(QE, "_with_cyclic_factors", refuse_heap_2)
    r = TakeAndBreak("0.07")
    pre = _pre_at("0.07", 9)
    options = [_heap_options(r, h) for h in range(11)]
    got = extend(pre, options, 10, 2_000_000, Deadline(60), 5000)
    assert refused and verify_pretension(got, options) is None
    assert _reduce(got, options).monoid.size == 12


def test_extend_after_falls_back_to_least_order():
    """A first strategy that gives up hands over to least-order repair; one that succeeds is
    used as it is."""
    r = TakeAndBreak("0.07")
    pre = _pre_at("0.07", 24)
    options = [_heap_options(r, h) for h in range(26)]
    calls = []

    def gives_up(*args):
        calls.append(args[2])
        raise ComputationLimitError("no")

    lines = []
    got = extend_after(gives_up, pre, options, 25, 2_000_000, Deadline(120), 5000, log=lines.append)
    assert calls == [25] and "least-order" in lines[0]
    assert verify_pretension(got, options) is None and _reduce(got, options).monoid.size == 144
    same = extend_after(Q._extend, pre, options, 25, 2_000_000, Deadline(120), 5000)
    assert _reduce(same, options).monoid.size == 144


def test_shift_dawson_kayles_is_dawsons_chess():
    """Q_n(0.07) = Q_(n−1)(0.137) as canonical tables, P-portions and Φ, n <= 22."""
    tool = _tool()
    a = {"_ruleset": TakeAndBreak("0.07"), "_pre": _pre_at("0.07", 22), "top": 22, "code": "0.07"}
    b = {"_ruleset": TakeAndBreak("0.137"), "_pre": _pre_at("0.137", 21), "top": 21, "code": "0.137"}
    cmp = tool.compare_shift(a, b)
    assert cmp["games_agree"] and cmp["all_equal"] and cmp["heaps"][-1]["n"] == 22


def test_brute_check_catches_a_wrong_p_portion():
    tool = _tool()
    r = TakeAndBreak("0.07")
    pre = _pre_at("0.07", 14)
    good = tool.check_state(r, pre, 100, 30, 1, 2_000_000)
    assert good["verified"] and not good["brute_disagreements"]
    P = pre.P.copy()
    x = int(np.nonzero(P)[0][-1])
    P[x] = False
    bad = tool.check_state(r, Pretension(pre.monoid, P, list(pre.phi)), 2000, 30, 1, 2_000_000)
    assert not bad["verified"]
    # the brute force agrees with tests/misere_brute.py (an independent implementation)
    brute, ref = tool.Brute(r), MisereBrute(r)
    rng = random.Random(5)
    for pos in tool.random_positions(14, 200, 30, rng):
        assert brute.is_p(pos) == ref.is_p(pos)


def test_frontier_script_small_run(tmp_path):
    tool = _tool()
    out = tmp_path / "f.json"
    rc = tool.main(["0.07", "0.137", "--to", "18", "--time", "120", "--shift", "0.07:0.137",
                    "--brute", "60", "--brute-tokens", "30", "--strategy", "least-order",
                    "--json", str(out)])
    assert rc == 0
    rec = json.loads(out.read_text())
    by = {c["code"]: c for c in rec["codes"]}
    assert by["0.07"]["heaps"][-1] == {**by["0.07"]["heaps"][-1], "heap": 18, "order": 24, "p_count": 5}
    assert by["0.07"]["check"]["verified"] and not by["0.07"]["check"]["brute_disagreements"]
    assert rec["shift_checks"][0]["all_equal"]
    assert Q._extend is tool.MAIN_EXTEND                     # restored after the run


@pytest.mark.slow
def test_dawsons_kayles_to_33_by_least_order():
    """Plambeck & Siegel (2008): |Q_30(0.07)| = 360, |Q_33(0.07)| = 638, |P| = 109."""
    orders = {}

    def cb(d):
        orders[d["heap"]] = (d["order"], d["p_count"])

    forget_known()
    saved = Q._extend
    Q._extend = extend
    try:
        Q.misere_quotient(TakeAndBreak("0.07"), max_heap=33, progress=False, resume=False, callback=cb)
        pre = known_state(TakeAndBreak("0.07")).pre
    finally:
        Q._extend = saved
        forget_known()
    assert orders[30][0] == 360 and orders[33] == (638, 109)
    tool = _tool()
    chk = tool.check_state(TakeAndBreak("0.07"), pre, 300, 44, 7, 50_000_000)
    assert chk["verified"] and not chk["brute_disagreements"]
