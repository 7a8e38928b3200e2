"""The construction chooses its method (issue 34): strategy ``"auto"`` repairs, then counts the
new heap's copies with the ray proof at every level; every counting level is stored and a rerun
resumes after the last one; the proof of infinitude is a structured part of the result.

Sources: the verification principle and ray pretensions are in ``cgtalg.quotients.construct``
and ``cgtalg.quotients.rays``; outcomes are checked against brute-force misère play from the
rules of the octal code (Winning Ways ch. 4 for the codes)."""

from __future__ import annotations

import json
import warnings

import pytest

from cgtalg.errors import ComputationLimitError
from cgtalg.quotients import construct as Q
from cgtalg.quotients.state import _heap_options, forget_known, known_state
from cgtalg.quotients.storage import COUNTING, Checkpointer
from cgtalg.rulesets.heaps.octal import TakeAndBreak

from quotient_helpers import brute_misere, limited_counting


#: misère P-positions by exhaustive play from the code's digits (no library engine)
_brute = brute_misere


def test_auto_proves_an_infinite_quotient_with_a_general_witness():
    """0.13777: Q_9 has order 18 and Q_10 is infinite. The witness is of the general form
    (classes mod 2): 1 + 9 + 7·a + 10·b is P iff b >= a, for a, b even, a, b >= 1; the rule,
    and the prediction of the pretension on other positions, agree with brute force, and the
    referee accepts the certificate and refuses it with the witness's sense flipped."""
    from cgtalg.referee import check_document

    forget_known()
    q = Q.misere_quotient("0.13777", partial=True, progress=False, max_seconds=120)
    forget_known()
    assert (q.max_heap, q.order, q.infinite_from) == (9, 18, 10)
    cert = q.certificate
    w = cert["witness"]
    assert w["modulus"] == 2 and w["position"] == [1, 9]
    brute = _brute("0.13777")
    for a in (2, 4):
        for b in (2, 4):
            rule = (b - a >= w["t"]) if w["sense"] == "ge" else (b - a < w["t"])
            assert brute([1, 9] + [7] * a + [10] * b) == rule
    verdicts = check_document(json.loads(json.dumps(cert)))
    assert all(v.ok for v in verdicts), [v.reasons for v in verdicts]
    bad = json.loads(json.dumps(cert))
    bad["witness"]["sense"] = "lt" if w["sense"] == "ge" else "ge"
    bad["ray"]["witness"][7] = -bad["ray"]["witness"][7]
    assert not all(v.ok for v in check_document(bad))


def test_repair_gives_way_to_counting_when_it_chases_the_new_heap(monkeypatch):
    """A failing position with STALL_COPIES copies of the new heap ends the repair at once."""
    from cgtalg.quotients.extend import check_stall

    check_stall([1, 2, 5, 5, 5], 5, 4)
    with pytest.raises(ComputationLimitError) as info:
        check_stall([1, 5, 5, 5, 5], 5, 4)
    assert info.value.stalled and "stalled" in str(info.value)


def _stored_below(code: str, n: int, tmp_path):
    """``(ruleset, store, verified Q_{n-1} as a pretension, options of heaps 0..n)``, the store a
    fresh file holding ``Q_{n-1}``."""
    from cgtalg.store import open_store

    rs = TakeAndBreak(code)
    store = open_store(str(tmp_path / "s.sqlite"))
    forget_known()
    Q.misere_quotient(rs, max_heap=n - 1, progress=False, store=store)
    pre = known_state(rs).pre
    forget_known()
    return rs, store, pre, [_heap_options(rs, h) for h in range(n + 1)]


def test_counting_levels_are_stored_and_a_rerun_resumes_after_the_last(tmp_path, monkeypatch):
    """Counting heap 10 of 0.13777 is stopped after 3 levels; the rerun starts at level 3
    (levels 0-2 are read back, re-verified), and a tampered record is refused with a warning and
    counting starts over."""
    rs, store, pre, options = _stored_below("0.13777", 10, tmp_path)
    seen: list[int] = []

    def limited(levels):
        return limited_counting(seen, levels)

    ck = Checkpointer(rs, store)
    monkeypatch.setattr(Q, "extend_counting", limited(3))
    with pytest.raises(ComputationLimitError) as info:
        Q._count_copies(pre, options, 10, 2_000_000, None, 5000, ck)
    assert seen == [0, 1, 2] and info.value.resumed is None and "rerun resumes" in str(info.value)
    assert ck.has_level(10) and not ck.has_level(11)
    seen.clear()
    monkeypatch.setattr(Q, "extend_counting", limited(5))
    with pytest.raises(ComputationLimitError) as info:
        Q._count_copies(pre, options, 10, 2_000_000, None, 5000, ck)
    assert seen == [3, 4] and info.value.resumed == 2
    assert [lev.copies for lev in info.value.levels] == [0, 1, 2, 3, 4]
    # a tampered level (no element in P) fails its verification: refused, counting restarts
    meta = dict(store.sequence_meta(ck.key))
    rec = dict(meta[COUNTING])
    rec["P"] = "0" * len(rec["P"])
    meta[COUNTING] = rec
    store.put_sequence_meta(ck.key, meta, replace=True)
    seen.clear()
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        with pytest.raises(ComputationLimitError):
            Q._count_copies(pre, options, 10, 2_000_000, None, 5000, ck)
    assert seen[0] == 0 and any("rejected" in str(x.message) for x in got)


def test_a_rerun_with_stored_levels_repairs_before_it_counts(tmp_path, monkeypatch):
    """0.346: Q_24 has order 1066, which repairing finds in a second. A census pass that had
    stored counting levels of heap 24 went straight back to counting on every rerun (its powers
    stay 6 distinct while the levels pass, and counting never closed): a rerun now repairs first,
    without the stall rule, and reaches the quotient that the repair strategy gives."""
    from cgtalg.quotients import kernel as quotient_kernel

    if not quotient_kernel.available():
        pytest.skip("the repair of heap 24 takes 0.5 s with the compiled kernel, more than the share of a "
                    "120 s budget without it")
    rs, store, pre, options = _stored_below("0.346", 24, tmp_path)
    ck = Checkpointer(rs, store)
    monkeypatch.setattr(Q, "extend_counting", limited_counting([], 3))
    with pytest.raises(ComputationLimitError):
        Q._count_copies(pre, options, 24, 2_000_000, None, 5000, ck)
    assert ck.has_level(24)
    monkeypatch.undo()
    calls = []
    real = Q._count_copies
    monkeypatch.setattr(Q, "_count_copies", lambda *a, **k: calls.append(a) or real(*a, **k))
    q = Q.misere_quotient(rs, max_heap=24, progress=False, store=store, max_seconds=120)
    assert (q.order, len(q.phi)) == (1066, 25) and calls == []
    forget_known()
    by_repair = Q.misere_quotient(rs, max_heap=24, progress=False, resume=False, strategy="repair")
    assert by_repair.order == 1066 and by_repair.isomorphic(q)
    forget_known()


@pytest.mark.slow
def test_the_default_command_proves_dawsons_kayles_q34_infinite_and_a_stopped_run_resumes(tmp_path):
    """``cgtalg quotient 0.07`` from a fresh store: a run stopped during counting stores its
    levels and says a rerun resumes; the rerun starts after the stored level and ends with
    ``Q_33`` (order 638, |P| = 109: Plambeck & Siegel's table for Q_33 is MisereSolver's, see
    tests/test_quotient_extend.py) and ``Q_n`` infinite from heap 34, with a certificate the
    referee accepts."""
    from click.testing import CliRunner

    from cgtalg.cli.main import cli
    from cgtalg.referee import check_document
    from cgtalg.store import open_store

    store = str(tmp_path / "s.sqlite")
    ck = Checkpointer(TakeAndBreak("0.07"), open_store(store))
    # short runs until one stops during counting (how far 40 s gets depends on the machine's load)
    for _ in range(4):
        run = CliRunner().invoke(cli, ["--store", store, "quotient", "0.07", "--time", "40s", "--json"])
        assert run.exit_code == 0, run.output
        first = json.loads(run.output)
        forget_known()
        if first.get("infinite_from") is not None or ck.has_level(34):
            break
        assert "resumes" in (first["hint"] or "")
    if first.get("infinite_from") is None:          # stopped by the budget while counting
        assert ck.has_level(34) and "after the last counting level" in (first["hint"] or "")
    run = CliRunner().invoke(cli, ["--store", store, "quotient", "0.07", "--time", "20m", "--json"])
    assert run.exit_code == 0, run.output
    d = json.loads(run.output)
    forget_known()
    assert (d["max_heap"], d["order"], len(d["p_portion"]), d["infinite_from"]) == (33, 638, 109, 34)
    assert all(v.ok for v in check_document(d["certificate"]))
