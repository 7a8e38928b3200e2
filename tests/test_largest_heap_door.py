"""The door of largest-heap rules (cgtalg.ops.largest_heap) and `cgtalg quotient`'s use of it: a
heap code whose quotients Q_n stay finite but grow (0.734) is reported infinite by a rule the
referee proves; games the search cannot reach keep the whole budget for Q_n."""

from __future__ import annotations

import json

import pytest

from brute_octal import MisereBrute, partitions
from cgtalg.errors import GameKindError
from cgtalg.ops.largest_heap import largest_heap_verdict, suitable
from cgtalg.rulesets.heaps.octal import TakeAndBreak



def test_the_door_proves_the_rule_of_0734_and_it_agrees_with_play():
    v = largest_heap_verdict("0.734")
    assert v is not None and v["verdict"]["ok"] and v["weights"] == [0, 1, 0, 1]
    doc = v["certificate"]
    P = {tuple(k) for k in doc["rule"]["P"]}
    zl, zh = doc["rule"]["z"]
    brute = MisereBrute("0.734", 18)
    for t in range(1, 19):
        for pos in partitions(t, t):
            m, G, z = pos[0], 0, pos[0]
            for h in pos[1:]:
                G ^= brute.g[h]
                z -= h - h % 2
            rho = ("e", m) if m < doc["rule"]["exact_below"] else ("r", m % 4)
            assert ((rho[0], rho[1], G, min(max(z, zl), zh)) in P) == brute.is_p(pos), pos


def test_the_door_declines_what_it_cannot_reach():
    assert suitable("0.77") is None and largest_heap_verdict("0.77") is None      # Grundy period 12
    assert suitable("0.07") is None                                                 # period 34
    assert suitable("0.337") == (1, 4) and largest_heap_verdict("0.337", max_fits=0) is None   # keys conflict
    assert largest_heap_verdict("0.734", max_seconds=0.05) is None                  # budget spent
    with pytest.raises(GameKindError):
        largest_heap_verdict(["*2+*2"])


def test_the_quotient_command_keeps_the_whole_budget_where_no_rule_is_tried():
    from cgtalg.cli.quotient import _rule_reserve

    assert _rule_reserve("heaps", TakeAndBreak("0.07"), None, 120.0) == 0.0
    assert _rule_reserve("heaps", TakeAndBreak("0.77"), None, 120.0) == 0.0
    assert _rule_reserve("heaps", TakeAndBreak("0.734"), 20, 120.0) == 0.0           # Q_20 asked
    assert _rule_reserve("forms", ["*2"], None, 120.0) == 0.0
    assert _rule_reserve("heaps", TakeAndBreak("0.734"), None, 120.0) == 30.0
    assert _rule_reserve("heaps", TakeAndBreak("0.734"), None, 20.0) == 10.0
    assert _rule_reserve("heaps", TakeAndBreak("0.734"), None, 60.0) == 20.0          # at least 20 s


@pytest.mark.slow
def test_cgtalg_quotient_reports_0734_infinite_and_check_holds_both(tmp_path, capsys):
    from cgtalg.cli import app

    # a minute: 20 s of it kept for the rule (its search and check take about 14 s of CPU here)
    assert app.main(["quotient", "0.734", "--time", "60s", "--no-store", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["largest_heap_rule"]["weights"] == [0, 1, 0, 1]
    assert "(all heaps) is infinite" in d["hint"] and d["infinite_from"] is None
    f = tmp_path / "q.json"
    f.write_text(json.dumps(d))
    assert app.main(["check", str(f)]) == 0
    assert "2 of 2 certificate(s) hold" in capsys.readouterr().out
    d["largest_heap_rule"]["certificate"]["rule"]["P"].remove(["r", 3, 1, 7])
    f.write_text(json.dumps(d))
    assert app.main(["check", str(f)]) == 1
