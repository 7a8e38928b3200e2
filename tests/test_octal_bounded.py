"""Sequences and periodicity searches are bounded and interruptible (issue 20, part 5): kernel
calls of a fraction of a second with the time budget, the memory ceiling and Ctrl-C answered
between them; what cannot fit is refused up front; a heap far beyond a certified period is
answered from it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from cgtalg.cli.main import cli, main
from cgtalg.errors import ComputationLimitError
from cgtalg.rulesets.heaps.grundy_engine import grundy_engine, grundy_memory_estimate, grundy_sequence
from cgtalg.rulesets.heaps.octal import TakeAndBreak
from cgtalg.rulesets.parity import parity_class_table
from hang import HANG_SECONDS


def fresh(code: str) -> TakeAndBreak:
    r = TakeAndBreak(code)
    r.__dict__.pop("_engines", None)
    r._period = None
    return r


def test_time_budget_stops_a_cubic_kernel_within_a_second():
    r = fresh("0x0.B")  # three-heap splits: each value costs ~n**2 steps
    t = time.monotonic()
    with pytest.raises(ComputationLimitError, match=r"0x0\.B: computing 100,000 Grundy values .* computed and "
                                                    r"kept\) did not finish within the time budget of 1 s.*--time"):
        grundy_sequence(r, 10**5, max_seconds=1)
    assert time.monotonic() - t < HANG_SECONDS
    assert grundy_engine(r).n > 256  # what was computed is kept (the first call also loads the kernel)


def test_time_budget_stops_a_long_sparse_run():
    r = fresh("0.16")
    t = time.monotonic()
    with pytest.raises(ComputationLimitError, match="time budget of 1 s"):
        grundy_sequence(r, 10**9, max_seconds=1)
    assert time.monotonic() - t < HANG_SECONDS


def test_memory_ceiling_refuses_up_front(monkeypatch):
    from cgtalg.budget import rss_bytes

    # 1 GiB above this process (whatever the tests before left in it), far below what is asked
    monkeypatch.setenv("CGTALG_MAX_MEMORY", str(rss_bytes() + (1 << 30)))
    t = time.monotonic()
    with pytest.raises(ComputationLimitError, match=r"computing 10,000,000,000 Grundy values .* beyond the memory "
                                                    r"ceiling of .*--memory"):
        grundy_sequence(fresh("0.16"), 10**10)
    with pytest.raises(ComputationLimitError, match="memory ceiling of"):
        fresh("0.16").periodicity(max_values=10**10, max_bytes=10**12)
    assert time.monotonic() - t < HANG_SECONDS


def test_memory_estimate_of_split_games_is_cheap():
    t = time.monotonic()
    assert grundy_memory_estimate(fresh("0x0.F"), 10**6) >= 10**6
    assert time.monotonic() - t < HANG_SECONDS  # it computed 16384 values of a cubic kernel (minutes)


def test_heap_far_beyond_a_certified_period_is_not_computed():
    r = fresh("0.77")
    assert r.grundy_value(10**30) == r.grundy_value(71 + (10**30 - 71) % 12)
    assert r.outcome([10**30, 10**40]) in ("P", "N")
    assert grundy_engine(r).n < 10**6


def test_parity_table_refused_up_front_and_bounded():
    with pytest.raises(ComputationLimitError, match=r"parity class table up to b = 10{30} would need more than a zettabyte.*"
                                                    r"memory ceiling"):
        parity_class_table(10**30)
    with pytest.raises(ComputationLimitError, match=r"parity class table up to b = 10{40,}\.\.\. \(201 digits\) would"):
        parity_class_table(10**200)  # the input shortened in the message
    with pytest.raises(ComputationLimitError, match="time budget"):
        parity_class_table(10**6, max_seconds=0.5)


def run(*args):
    return CliRunner().invoke(cli, list(args), obj={})


def run_main(capsys, *args):
    """The command line behind its error boundary: ``(exit status, stdout)``."""
    code = main(list(args))
    return code, capsys.readouterr().out


def test_cli_period_of_0x0B_answers():
    res = run("period", "0x0.B", "--no-store", "--json", "--time", "60")
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["certified"] and out["period"] == 2


def test_cli_time_and_table_limits(capsys):
    code, out = run_main(capsys, "grundy", "0.16", "-n", "1e9", "--no-store", "--json", "--time", "1")
    err = json.loads(out)["error"]
    assert code == 2 and err["type"] == "ComputationLimitError" and "--time" in err["message"]
    for size in ("10**30", "10**2000"):  # was an OverflowError
        code, out = run_main(capsys, "solve", "parity", "25", "--table", size, "--json")
        err = json.loads(out)["error"]
        assert code == 2 and err["type"] == "ComputationLimitError" and "parity class table" in err["message"]
        assert len(err["message"]) <= 600


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_is_answered_within_a_second(tmp_path):
    env = dict(os.environ, CGTALG_STORE=str(tmp_path / "s.sqlite"))
    p = subprocess.Popen(
        [sys.executable, "-c", "from cgtalg.cli.main import main; main()", "grundy", "0x0.B", "-n", "1e5", "--no-store"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(6)  # past the imports, into the kernel
    assert p.poll() is None
    t = time.monotonic()
    p.send_signal(signal.SIGINT)
    out, _ = p.communicate(timeout=30)
    assert time.monotonic() - t < HANG_SECONDS, out
    assert "aborted" in out or "interrupted" in out or "KeyboardInterrupt" in out
