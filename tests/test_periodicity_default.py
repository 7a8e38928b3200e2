"""Periodicity with no max_values extends until it certifies, within a time budget (issue 23).

Reference: Gangolli & Plambeck, "A note on periodicity in some octal games" (IJGT 1989):
0.16 has period 149459 and last exceptional value G(105350), so its certificate (Guy-Smith
bound 2*n0 + 2p + k) needs 509,622 values, past the 2**16 the search used to stop at.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from cgtalg.cli.main import cli
from cgtalg.errors import ComputationLimitError
from cgtalg.rulesets.heaps.octal import TakeAndBreak
from cgtalg.rulesets.heaps.octal_periodicity import DEFAULT_PERIOD_SECONDS, extend_max_values, periodicity


def test_default_extends_to_a_certificate_past_the_old_cap():
    r = periodicity(TakeAndBreak("0.16"))
    assert r.certified and r.period == 149459 and r.last_exceptional == 105350
    assert r.values_checked >= r.required_values == 2 * 105351 + 2 * 149459 + 2


def test_time_budget_ends_the_extending_search_with_what_it_saw():
    r = periodicity(TakeAndBreak("0.376"), max_seconds=0.2)
    assert not r.certified and r.status in ("none", "detected")
    assert "time budget of 0.2 s" in r.note and "max_seconds" in r.note


def test_explicit_max_values_keeps_the_error_on_the_time_budget():
    with pytest.raises(ComputationLimitError, match="time budget"):
        periodicity(TakeAndBreak("0.376"), max_values=2**23, max_seconds=0.2)


def test_extending_search_is_bounded_by_memory():
    r = TakeAndBreak("0.376")
    assert extend_max_values(r, 64 << 20) < extend_max_values(r, 1 << 30)
    assert DEFAULT_PERIOD_SECONDS > 0


def test_cli_names_its_own_option():
    out = CliRunner().invoke(cli, ["period", "0.376", "--no-store", "--time", "0.2"])
    assert out.exit_code == 0, out.output
    assert "--time" in out.output and "max_seconds" not in out.output
