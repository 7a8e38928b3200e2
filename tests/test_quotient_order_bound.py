"""What a run stopped by a bound says (30 November 2026): a quotient built and verified past
``max_order`` is reported, not dropped, and a verification's state budget is named with the
option that raises it.

Before, a run whose next quotient ``Q_n`` was built, verified and reduced, but of order above
``max_order``, stopped at ``Q_(n-1)`` saying only "order > max_order", and a census row lost the
lower bound its stored counting levels had given. Now the result's ``next_bound`` carries the
exact order and ``|P|`` of ``Q_n`` (``exact``), the census record keeps it, and the hint names a
bound above it.

Outside values: ``|Q_30(0.07)| = 360`` (Plambeck & Siegel, "Misère quotients for impartial
games", JCTA 2008, §7, from Siegel's MisereSolver).
"""

from __future__ import annotations

import json

from cgtalg import TakeAndBreak, misere_quotient
from cgtalg.quotients.state import forget_known


def _stopped(order_bound: int):
    forget_known()       # the process's memo of quotients already built answers past any bound
    return misere_quotient(TakeAndBreak("0.07"), max_heap=30, max_order=order_bound, progress=False,
                           partial=True)


def test_the_next_quotient_past_the_bound_is_reported_with_its_exact_order():
    full = misere_quotient(TakeAndBreak("0.07"), max_heap=30, progress=False)
    assert full.order == 360                      # Plambeck & Siegel (2008), §7
    q = _stopped(359)
    assert q.max_heap == 29 and q.order < 360
    assert q.next_bound == {"heap": 30, "at_least": 360, "copies": None, "exact": True,
                            "p_count": len(full.p_portion)}
    assert f"next: |Q_30| = 360, |P| = {len(full.p_portion)} (built and verified" in str(q)
    # within the bound nothing is reported about a next quotient
    forget_known()
    assert misere_quotient(TakeAndBreak("0.07"), max_heap=30, max_order=360, progress=False,
                           partial=True).next_bound is None


def test_the_census_row_keeps_the_exact_order_as_its_bound():
    from click.testing import CliRunner

    from cgtalg.cli.main import cli

    r = CliRunner().invoke(cli, ["census", "quotient", "--codes", "0.07", "--max-order", "359", "--no-store",
                                 "--scheduler", "serial", "--time", "class=60s", "--json"], obj={})
    assert r.exit_code == 0, r.output
    row = json.loads(r.output)["rows"][0]
    assert (row["status"], row["heaps"], row["stopped"]) == ("unsettled", 29, "limit")
    assert (row["bound_heap"], row["lower_bound"], row["bound_copies"]) == (30, 360, None)


def test_cli_shows_the_exact_order_and_a_bound_above_it():
    from click.testing import CliRunner

    from cgtalg.cli.main import cli

    r = CliRunner().invoke(cli, ["quotient", "0.07", "-n", "30", "--max-order", "359", "--no-store"], obj={})
    assert r.exit_code == 0, r.output
    assert "next: |Q_30| = 360" in r.output
    assert "--max-order 1436" in r.output          # four times the bound given, above 360
    r = CliRunner().invoke(cli, ["quotient", "0.07", "-n", "30", "--max-order", "359", "--no-store", "--json"],
                           obj={})
    d = json.loads(r.output)
    assert d["next_bound"]["at_least"] == 360 and d["next_bound"]["exact"] is True


def test_a_verification_past_its_state_budget_names_the_option_that_raises_it():
    from click.testing import CliRunner

    from cgtalg.cli.main import cli

    r = CliRunner().invoke(cli, ["quotient", "0.07", "-n", "20", "--max-states", "50", "--no-store"], obj={})
    assert r.exit_code == 0, r.output
    assert "passed 50 option-set states" in r.output
    assert "raise it with --max-states (e.g. --max-states 200; 50 now)" in r.output
    # the option is the library's max_states: with the default the same run goes on to Q_20
    r = CliRunner().invoke(cli, ["quotient", "0.07", "-n", "20", "--no-store", "--json"], obj={})
    d = json.loads(r.output)
    assert d["max_heap"] == 20 and d["hint"] is None


def test_the_census_takes_the_state_budget():
    from click.testing import CliRunner

    from cgtalg.cli.main import cli

    r = CliRunner().invoke(cli, ["census", "quotient", "--codes", "0.07", "--max-states", "50", "--no-store",
                                 "--scheduler", "serial", "--time", "class=20s", "--json"], obj={})
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["census"]["params"]["max_states"] == 50
    row = d["rows"][0]
    # Q_9 of 0.07 needs no verification past 50 states; heap 10's does (the run above)
    assert (row["status"], row["stopped"], row["heaps"]) == ("unsettled", "limit", 9)
