"""tools/quotient_census_obstacles.py: each unsettled class in its group, by facts checked here
from the digits (tests/brute_octal.py, no cgtalg code): a class stopped on normal play is
``tied``; ``0.534``'s Grundy values repeat with period 4 from heap 1 (mex from the digits), and
the tool reports that period; Officers (``0.37``, the class of ``0.6``) has no period within 2,048
values (published: no period is known; its values keep growing, 33 by heap 1,025 of ``0.6``,
docs/census.md), and the tool reports none."""

from __future__ import annotations

from brute_octal import MisereBrute
from conftest import load_tool


def _tool():
    return load_tool("quotient_census_obstacles")


def _row(code, status="unsettled", stopped="limit"):
    return {"code": code, "standard_form": code, "status": status, "stopped": stopped,
            "heaps": "12", "order": "40"}


def test_groups_follow_the_grundy_sequences():
    rows = [_row("0.534", stopped="time"), _row("0.37"), _row("0.777", stopped="normal play"),
            _row("0.07", status="wild-finite", stopped="")]
    recs = {r["class"]: r for r in _tool().classify(rows, 2048)}
    assert set(recs) == {"0.534", "0.37", "0.777"}          # the settled row is left out

    g = MisereBrute("0.534", 60).g
    n0, p = 1, 4
    assert all(g[n] == g[n + p] for n in range(n0, 56)) and g[0] != g[p]
    assert recs["0.534"]["group"] == "periodic"
    assert recs["0.534"]["period"] == {"preperiod": n0, "period": p}
    assert recs["0.534"]["max"] == max(g)

    assert recs["0.37"]["group"] == "aperiodic" and recs["0.37"]["period"] is None
    g37 = MisereBrute("0.37", 200).g
    assert recs["0.37"]["max"] >= max(g37) >= 9
    assert recs["0.777"]["group"] == "tied"
