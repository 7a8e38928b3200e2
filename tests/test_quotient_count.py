"""Counting copies of the new heap (cgtalg.quotients.count) and the truncated check it
rests on (verify_pretension's ``bound``).

* Every quotient the counting strategy gives is verified and equals the construction on main's
  (canonical tables), for quotients that change at the heap (Plambeck & Siegel, JCTA 115
  (2008): Dawson's Kayles Q_10 order 12, Q_25 order 144, Q_30 order 360, Q_33 order 638 with
  |P| = 109).
* A level's candidate is checked by brute-force misère play from the rules on every small
  position with at most ``B`` copies of the heap (tests/misere_brute.py).
* What a level claims about ``Q_n`` (a lower bound on its order, distinguishable powers of the
  heap) is checked against the true ``Q_n``, including at levels far above the closure, where
  the truncated candidate itself tells more powers apart than ``Q_n`` has (the overflow), and
  each power distinction is re-derived by brute force with an explicit distinguishing position.
* The bounded check gives the same answer compiled and in Python.
* A heap whose powers have a period other than 1 or 2 (0.774: heap 10, period 8) closes, and the
  quotient agrees with brute-force play on up to nine copies and with the referee.
"""

from __future__ import annotations

import functools
import itertools

import numpy as np
import pytest

from conftest import kernels_expected

from cgtalg.budget import Deadline
from cgtalg.errors import ComputationLimitError
from cgtalg.quotients import construct as Q
from cgtalg.quotients import kernel as quotient_kernel
from cgtalg.quotients.pretension import Pretension, _reduce, verify_pretension, verify_pretension_python
from cgtalg.quotients.count import counted_candidate, extend_counting
from cgtalg.quotients.state import _heap_options, forget_known
from cgtalg.rulesets.heaps.octal import TakeAndBreak
from cgtalg.quotients.construct import misere_quotient
from cgtalg.referee import check_document
from misere_brute import MisereBrute
from quotient_helpers import brute_misere, fresh_quotient


_quotient = fresh_quotient


def _counting(pre, options, n, max_states, deadline, max_order):
    return extend_counting(pre, options, n, max_states, deadline, max_order)


def _options(code, n):
    r = TakeAndBreak(code)
    return [_heap_options(r, h) for h in range(n + 1)]


@pytest.mark.parametrize("code,n", [("0.07", 30), ("0.137", 25), ("0.77", 14), ("0.15", 14), ("0.6", 15),
                                    ("0.123", 12)])
def test_counting_gives_the_same_quotient_as_main(code, n):
    q_main, _ = _quotient(code, n)
    q_new, pre = _quotient(code, n, _counting)
    assert q_new.order == q_main.order and sorted(q_new.p_portion) == sorted(q_main.p_portion)
    assert (np.asarray(q_new.table) == np.asarray(q_main.table)).all()
    assert verify_pretension(pre, _options(code, n)) is None


def test_dawson_kayles_q33_by_counting():
    """Plambeck & Siegel's Q_33(0.07): order 638, |P| = 109."""
    q, _ = _quotient("0.07", 33, _counting)
    assert (q.order, len(q.p_portion)) == (638, 109)


def _levels(code, n, max_levels):
    """The levels 0 .. max_levels − 1 of heap n, without closing: (level, candidate) pairs."""
    _q, pre = _quotient(code, n - 1)
    options = _options(code, n)
    got = []
    with pytest.raises(ComputationLimitError) as exc:
        extend_counting(pre, options, n, 2_000_000, Deadline(120), 5000, max_levels=max_levels,
                        close=False, on_level=lambda lev, cand, *_: got.append((lev, cand)))
    assert [lev.copies for lev in exc.value.levels] == list(range(max_levels))
    return got


def test_a_level_predicts_every_position_with_at_most_b_copies():
    """0.07 at heap 10 (the quotient grows from order 6 to 12): each level's candidate is right,
    by brute force, on every position of at most five heaps <= 10 with at most B copies of 10."""
    brute = MisereBrute(TakeAndBreak("0.07"))
    for lev, cand in _levels("0.07", 10, 5):
        B = lev.copies
        checked = 0
        for k in range(1, 6):
            for pos in itertools.combinations_with_replacement(range(1, 11), k):
                if pos.count(10) <= B:
                    assert brute.is_p(pos) == bool(cand.P[cand.image(pos)]), (B, pos)
                    checked += 1
        assert checked > 2000


def _true_powers(pre, n):
    """index + period of Φ(n) in the reduced Q_n: the number of distinct powers of heap n."""
    i, p = pre.monoid.index_period(pre.phi[n])
    return i + p


@pytest.mark.parametrize("code,n", [("0.07", 10), ("0.07", 14), ("0.77", 9), ("0.6", 11), ("0.07", 25)])
def test_level_claims_hold_in_the_true_quotient(code, n):
    """Far past the closure, a level's candidate separates more powers of heap n than Q_n has;
    what the level *claims* never exceeds the truth (the lower bound is at most |Q_n|, the
    powers at most index + period of Φ(n)), and the claims reach the truth. The bound of level
    0 is the number of classes of A_(n−1) in Q_n at most."""
    q, pre = _quotient(code, n)
    red = _reduce(pre, _options(code, n))
    classes_below = len({red.image(w) for w in _positions_below(red, n)})
    powers = _true_powers(red, n)
    levels = _levels(code, n, 9)
    for lev, cand in levels:
        assert lev.lower_bound <= q.order
        assert lev.distinct_powers <= powers
    assert levels[0][0].lower_bound <= classes_below
    assert [lev.lower_bound for lev, _c in levels] == sorted(lev.lower_bound for lev, _c in levels)
    top = levels[-1][0]
    assert top.distinct_powers == powers and top.lower_bound == q.order
    # the overflow effect the claims must not be fooled by: the last reduced candidate keeps
    # more powers of n apart than Q_n has
    cand = levels[-1][1]
    assert len({cand.image((n,) * j) for j in range(9)}) > powers


def _positions_below(red, n):
    """Least words of the elements of the submonoid generated by the heaps < n."""
    seen = {0: ()}
    frontier = [()]
    gens = sorted({h for h in range(n) if red.phi[h] != 0})
    while frontier:
        nxt = []
        for w in frontier:
            x = red.image(w)
            for h in gens:
                y = red.monoid.mul(x, red.phi[h])
                if y not in seen:
                    seen[y] = tuple(sorted(w + (h,)))
                    nxt.append(seen[y])
        frontier = nxt
    return list(seen.values())


def test_power_distinctions_by_brute_force():
    """Kayles (0.77) at heap 9, level 4: the level claims 9^0 … 9^(k−1) pairwise
    distinguishable; for each pair a position z with few enough copies of 9 is found (among
    small positions) whose sums with the two powers have different misère outcomes, played out
    from the rules."""
    brute = MisereBrute(TakeAndBreak("0.77"))
    lev, cand = _levels("0.77", 9, 5)[-1]
    k = lev.distinct_powers
    assert k >= 3
    for i, j in itertools.combinations(range(k), 2):
        found = None
        for size in range(0, 5):
            for z in itertools.combinations_with_replacement(range(1, 10), size):
                if z.count(9) + j > lev.copies:
                    continue
                if brute.is_p((9,) * i + z) != brute.is_p((9,) * j + z):
                    found = z
                    break
            if found is not None:
                break
        assert found is not None, (i, j)


def test_bounded_check_compiled_and_python_agree():
    """The first (unrepaired) candidates of heap 25 of 0.07 at levels 0–3 fail below their
    bound; both implementations name the same least failing word, below the bound."""
    if not quotient_kernel.available() and not kernels_expected():
        pytest.skip("the compiled kernel is not built (no C compiler)")
    _q, pre = _quotient("0.07", 24)
    options = _options("0.07", 25)
    for B in range(4):
        cand = _reduce(counted_candidate(Pretension(pre.monoid, pre.P, list(pre.phi) + [0]), 25, B, options),
                       options)
        bound = (25,) * (B + 1)
        a = verify_pretension(cand, options, bound=bound)
        b = verify_pretension_python(cand, options, bound=bound)
        assert a == b
        assert a is None or a.count(25) <= B


def test_counting_budgets():
    from cgtalg.errors import ArgumentError

    _q, pre = _quotient("0.07", 24)
    options = _options("0.07", 25)
    with pytest.raises(ComputationLimitError, match="order") as exc:
        extend_counting(pre, options, 25, 2_000_000, None, 30)        # Q_25 has order 144
    assert isinstance(exc.value.levels, list)
    with pytest.raises(ArgumentError, match="outside"):
        verify_pretension(pre, options[:25], bound=(30,))


def test_misere_quotient_strategy_argument():
    from cgtalg.errors import ArgumentError

    forget_known()
    q = Q.misere_quotient(TakeAndBreak("0.07"), max_heap=14, strategy="counting", resume=False, progress=False)
    assert q.order == 24                       # Plambeck & Siegel: |Q_14(0.07)| = 24
    with pytest.raises(ArgumentError, match="strategy"):
        Q.misere_quotient(TakeAndBreak("0.07"), max_heap=3, strategy="guess")
    forget_known()


def test_a_stopped_counting_run_reports_its_lower_bound(monkeypatch):
    """Q_10(0.07) has order 12: with max_order 8 (and counting candidates held to it too:
    COUNTING_ORDER = 1) counting stops, and the partial quotient's note and ``next_bound`` state
    the lower bound its levels proved (at most the true 12)."""
    import re

    monkeypatch.setattr(Q, "COUNTING_ORDER", 1)
    forget_known()
    q = Q.misere_quotient(TakeAndBreak("0.07"), max_heap=10, strategy="counting", max_order=8, partial=True,
                          resume=False, progress=False)
    forget_known()
    assert q.order == 6 and "counting proved |Q_10| >= " in q.note, q.note
    bound = int(re.search(r"\|Q_10\| >= (\d+)", q.note).group(1))
    assert 6 <= bound <= 12
    assert q.next_bound == {"heap": 10, "at_least": bound, "copies": q.next_bound["copies"]}


def test_cli_strategy(tmp_path):
    import json

    from click.testing import CliRunner

    from cgtalg.cli.main import cli

    url = f"sqlite:///{tmp_path / 's.db'}"
    forget_known()
    r = CliRunner().invoke(cli, ["--store", url, "quotient", "0.07", "-n", "14", "--strategy", "counting",
                                 "--json"], obj={})
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["order"] == 24
    # forms and component families are quotients of heaps too (one heap per form or
    # component type): the strategy applies, with the same answer as the default
    for game in (["*2+*2", "{*2}", "*2"], ["node-kayles:paths", "-n", "6"]):
        got = []
        for strategy in ("repair", "counting"):
            forget_known()
            r = CliRunner().invoke(cli, ["quotient", *game, "--no-store", "--strategy", strategy, "--json"],
                                   obj={})
            assert r.exit_code == 0, r.output
            d = json.loads(r.output)
            got.append((d["order"], d["p_portion"]))
        assert got[0] == got[1], game
    forget_known()
    r = CliRunner().invoke(cli, ["quotient", "0.07", "--no-store", "--strategy", "guess"], obj={})
    assert r.exit_code != 0 and "guess" in r.output


def test_pattern_tool_against_brute_force(tmp_path):
    """tools/quotient_count_pattern.py on a saved level (Kayles, heap 9, right up to 3 copies):
    its table of base + 5·a + 9·b agrees with brute-force play, and a rule is checked."""
    from conftest import load_tool as tool

    lev, cand = _levels("0.77", 9, 4)[-1]
    path = str(tmp_path / "level.npz")
    tool("misere_quotient_frontier").save_level(cand, lev, "0.77", path)
    pat = tool("quotient_count_pattern")
    c = pat.load(path)
    assert (c["heap"], c["copies"]) == (9, 3)
    out, (i, p) = pat.outcomes(c, [2], 5, 4)
    brute = MisereBrute(TakeAndBreak("0.77"))
    for a in range(4):
        for b in range(4):
            assert bool(out[a, b]) == brute.is_p((2,) + (5,) * a + (9,) * b), (a, b)
    truth = " and ".join(f"not (a == {a} and b == {b})" for a in range(out.shape[0]) for b in range(4)
                         if not out[a, b]) or "True"
    assert pat.main([path, "--base", "2", "--x", "5", "--rows", "4", "--rule", truth, "--json", str(tmp_path / "t.json")]) == 0
    assert pat.main([path, "--base", "2", "--x", "5", "--rule", "False"]) == (1 if out.any() else 0)


@functools.cache
def _q774():
    """Q_10 of 0.774: heap 10 closes only with a period of 8 (``C(0, 8)``: ten copies of it
    behave as two, eight as none), which its counting levels show and the closure reads off.
    Built once for the module's tests (about a minute), which only read it."""
    q = misere_quotient(TakeAndBreak("0.774"), max_heap=10, progress=False, resume=False)
    T, P, phi = np.asarray(q.table), np.asarray(q.P), list(q.phi)

    def image(heaps):
        x = 0
        for h in heaps:
            x = int(T[x, phi[h]])
        return x
    return q, P, image


def test_a_heap_of_period_eight_closes_and_the_referee_accepts_it():
    """(Before, the counter was closed only with period 1 or 2: 0.774 counted heap 10 to 199
    copies and stopped; its levels proved |Q_10| >= 152, the order the closure has.)"""
    q, P, image = _q774()
    assert q.order == 152
    e = q.phi[10]
    powers = [image((10,) * k) for k in range(10)]
    assert len(set(powers[:8])) == 8 and powers[8] == powers[0] and powers[9] == powers[1]
    assert e == powers[1]
    assert [v.ok for v in check_document(q.to_dict())] == [True]


@pytest.mark.parametrize("copies", [0, 1, 2, 3, 4, pytest.param(8, marks=pytest.mark.slow),
                                    pytest.param(9, marks=pytest.mark.slow)])
def test_the_period_eight_quotient_against_brute_force(copies):
    """Exhaustive misère play from the code's digits on ``copies`` heaps of 10 with small
    heaps beside them: eight copies play as none, nine as one (slow: 20 s and 35 s)."""
    _q, P, image = _q774()
    brute = brute_misere("0.774")
    rest = [(), (1,), (2,), (3,), (5,), (9,), (1, 2), (2, 2), (5, 9), (9, 9)]
    for y in rest[:3] if copies >= 8 else rest:
        pos = (10,) * copies + y
        assert bool(P[image(pos)]) == brute(pos), pos


def test_a_stored_level_past_the_period_closes_on_resuming():
    """A counting run stored 0.774's heap 10 at level 24 without closing it (as the census had,
    at 199 copies, before periods other than 1 and 2 were read): resuming there closes it."""
    from cgtalg.quotients.count import CountStart
    _q, pre = _quotient("0.774", 9)
    options = _options("0.774", 10)
    got = []
    with pytest.raises(ComputationLimitError):
        extend_counting(pre, options, 10, 2_000_000, Deadline(120), 5000, max_levels=25, close=False,
                        on_level=lambda lev, cand, params, levels: got.append((lev, cand, params, levels)))
    lev, cand, params, levels = got[-1]
    assert lev.copies == 24
    start = CountStart(24, cand, dict(params), list(levels))
    full = extend_counting(pre, options, 10, 2_000_000, Deadline(120), 5000, max_levels=25, start=start)
    assert verify_pretension(full, options) is None
    assert _reduce(full, options, None).monoid.size == 152
