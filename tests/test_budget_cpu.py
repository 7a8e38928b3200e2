"""Budgets count CPU time, and every command has one (issue 35, point 3).

No test here measures wall-clock time or sets an alarm: a budget is shown not to run out
while the process sleeps, and to run out once the CPU it grants is burnt (a loop that asks
the deadline, so the test ends however loaded the machine is)."""

from __future__ import annotations

import importlib
import sys
import time

import click
import pytest
from click.testing import CliRunner

from cgtalg.budget import Deadline, Stopwatch, check_open_deadlines, cpu_seconds, open_deadline_expired
from cgtalg.errors import BudgetError, ComputationLimitError


def _burn(deadline: Deadline, what: str = "the test loop", limit: float = 30.0) -> float:
    """Spin until ``deadline.check`` raises; returns the CPU it took (fails past ``limit``)."""
    start = cpu_seconds()
    with pytest.raises(ComputationLimitError) as info:
        while cpu_seconds() - start < limit:
            sum(range(2000))
            deadline.check(what)
    assert what in str(info.value)
    return cpu_seconds() - start


def test_deadline_does_not_expire_while_the_process_sleeps():
    d = Deadline(0.05)
    for _ in range(3):
        time.sleep(0.05)  # wall time passes, almost no CPU
    assert d.wall() >= 0.15
    assert d.elapsed() < 0.05 and not d.expired()
    d.check()  # no error: the budget counts CPU


def test_deadline_expires_once_its_cpu_is_burnt():
    d = Deadline(0.2)
    used = _burn(d)
    assert used >= 0.2 - 0.01
    assert d.expired() and d.remaining() == 0.0
    assert "0.2 s of CPU" in str(pytest.raises(ComputationLimitError, d.check, "x").value)


def test_wall_clock_deadline_is_named_as_such():
    d = Deadline(0.01, clock="wall")
    time.sleep(0.02)
    assert d.expired()
    with pytest.raises(ComputationLimitError, match="wall-clock time"):
        d.check("waiting")
    with pytest.raises(BudgetError):
        Deadline(1, clock="sundial")


def test_stopwatch_and_cpu_seconds_count_cpu():
    sw = Stopwatch()
    time.sleep(0.05)
    assert sw.wall() >= 0.05 and sw.cpu() < 0.05
    assert cpu_seconds() >= 0


def test_entered_deadline_stops_inner_deadlines():
    outer = Deadline(0.1)
    inner = Deadline(None)  # a sub-computation's memory watcher: no time limit of its own
    with outer:
        _burn(inner, "the inner phase")
        assert open_deadline_expired()
        with pytest.raises(ComputationLimitError, match="a table"):
            check_open_deadlines("a table")
    assert not open_deadline_expired()  # left: no longer the budget of what runs
    inner.check()


def test_grace_moves_the_end_but_not_the_message():
    d = Deadline(0.05, grace=0.1)
    used = _burn(d)
    assert used >= 0.15 - 0.01
    with pytest.raises(ComputationLimitError, match=r"0\.05 s of CPU"):
        d.check()


def test_deadline_during_plugin_import_is_a_budget_error(monkeypatch):
    from cgtalg.rulesets import registry

    name = "cgtalg_test_budget_plugin"
    real_import = importlib.import_module

    def raising_import(mod, *a, **k):
        if mod == name:  # as a deadline checked while the module imports would
            raise ComputationLimitError("importing the plugin did not finish within the time budget of 1 s of CPU")
        return real_import(mod, *a, **k)

    monkeypatch.setattr(registry, "PLUGIN_MODULES", registry.PLUGIN_MODULES + (name,))
    monkeypatch.setattr(registry, "_plugins_loaded", False)
    monkeypatch.setattr(registry.importlib, "import_module", raising_import)
    with pytest.raises(ComputationLimitError, match="time budget"):
        registry.get_ruleset("kayles")
    assert registry._plugins_loaded is False  # the next lookup imports again
    assert name not in sys.modules


def test_huge_subtraction_set_is_refused_before_building():
    from cgtalg.rulesets.heaps import octal
    from cgtalg.rulesets.registry import get_ruleset

    with Deadline(5.0) as d:  # CPU, not wall: refused long before
        with pytest.raises(ComputationLimitError, match="MAX_SUBTRACTION"):
            get_ruleset("S(999999999)")
        with pytest.raises(ComputationLimitError, match="MAX_SUBTRACTION"):
            get_ruleset("allbut(1,2,99999999999)")
        assert d.elapsed() < 5.0
    assert get_ruleset(f"S(1,{octal.MAX_SUBTRACTION})").subtraction_set[-1] == octal.MAX_SUBTRACTION


def _commands():
    from cgtalg.cli.main import _register, cli

    _register()
    ctx = click.Context(cli, info_name="cgtalg")
    found = []

    def walk(cmd, path):
        if isinstance(cmd, click.Group):
            for n in cmd.list_commands(ctx):
                walk(cmd.get_command(ctx, n), path + [n])
        else:
            found.append((" ".join(path), cmd))

    walk(cli, [])
    return found


def test_every_command_has_a_time_budget_by_default():
    from cgtalg.budget import parse_duration

    missing = []
    for path, cmd in _commands():
        opts = [p for p in cmd.params if "--time" in getattr(p, "opts", [])]
        if not opts:
            missing.append(path)
            continue
        opt = opts[0]
        if path.startswith("census"):  # PART=TIME budgets: each class has its own default
            continue
        if path in ("misere", "quotient"):  # parts with their own budgets; the whole is bounded too
            assert "default" in opt.help
            continue
        assert opt.default is not None and parse_duration(opt.default) > 0, path
    assert not missing, f"commands without --time: {missing}"


def test_default_budget_is_shown_in_help():
    from cgtalg.cli.main import cli

    out = CliRunner().invoke(cli, ["norton", "--help"]).output
    assert "--time" in out and "[default: 60s]" in out


def test_command_backstop_stops_a_phase_without_checks(monkeypatch):
    """A command whose work checks no deadline is still stopped by its --time (SIGPROF)."""
    import signal

    if not hasattr(signal, "setitimer"):
        pytest.skip("no setitimer")
    from cgtalg.cli.common import command_budget

    start = cpu_seconds()
    with pytest.raises(ComputationLimitError, match="the busy loop"):
        with command_budget(0.2, "the busy loop"):
            while cpu_seconds() - start < 30:  # no deadline asked: only the backstop can stop it
                sum(range(2000))
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)  # disarmed on the way out


def test_period_with_a_tiny_budget_ends_without_the_long_probe():
    """0.7777777777777777777777 spent ~11 s of CPU in the memory estimate's probe, which had no
    budget: now the search's budget is the probe's too."""
    from cgtalg.rulesets.heaps.octal import TakeAndBreak

    g = TakeAndBreak("0.7777777777777777777777")
    start = cpu_seconds()
    r = g.periodicity(max_seconds=0.5)
    assert not r.certified
    assert "time budget" in str(r.note if hasattr(r, "note") else r)
    assert cpu_seconds() - start < 8.0  # loading the compiled kernels included


def test_a_spent_large_budget_suggests_a_larger_one():
    """After a budget of 10 minutes ran out, the hint does not say "e.g. --time 10m" again."""
    from cgtalg.budget import Deadline
    from cgtalg.errors import ComputationLimitError

    d = Deadline(600)
    d._end = d.start  # spent (as after ten minutes of CPU)
    with pytest.raises(ComputationLimitError) as err:
        d.check("the search")
    assert "600 s of CPU" in str(err.value) and "--time 20m" in str(err.value)
    assert "--time 10m" not in str(err.value)


def test_a_computation_that_owns_its_budget_stops_itself_before_the_backstop():
    """CI regression (``quotient 0.07 --time 40s``): a search that checks its own deadline of
    the command's budget T, but only between kernels that run a second apiece, stopped with a
    partial answer at T + 0.8 s, and the backstop, 4% past T, turned that answer into an error.
    A command whose computation owns its budget gets a backstop 8% (at least a second) past T,
    while a command with no budget of its own keeps the short one."""
    import signal

    if not hasattr(signal, "setitimer"):
        pytest.skip("no setitimer")
    from cgtalg.cli.common import budget_grace, command_budget

    assert budget_grace(40) == 1.6 and budget_grace(40, owned=True) == pytest.approx(3.2)
    assert budget_grace(2, owned=True) == 1.0 and budget_grace(3600, owned=True) == 60.0

    def search(budget: float, step: float) -> str:
        """A search with its own deadline, checked only every ``step`` seconds of CPU."""
        own = Deadline(budget)
        last = cpu_seconds()
        while True:
            if cpu_seconds() - last >= step:
                last = cpu_seconds()
                try:
                    own.check("the search")
                except ComputationLimitError:
                    return "partial"
            sum(range(2000))

    # checks at 0.75 and 1.5 s: the search stops at 1.5 s, past the short backstop (1.3 s) and
    # before the long one (2 s)
    with command_budget(1.0, "the command", owned=True):
        assert search(1.0, 0.75) == "partial"
    with pytest.raises(ComputationLimitError, match="the command"):
        with command_budget(1.0, "the command"):
            search(1.0, 0.75)


def _as_in_a_compiled_dispatch(cause: BaseException) -> SystemError:
    """What CPython raises when a signal handler's exception is left set under the result of a
    C call (numba's dispatcher): ``SystemError`` with the handler's exception as its cause
    (seen: ``cgtalg period 0.776`` printed "unexpected SystemError: CPUDispatcher(...) returned
    a result with an exception set" when its budget ran out inside ``tail_match_lengths``)."""
    err = SystemError("CPUDispatcher(<function tail_match_lengths>) returned a result with an exception set")
    err.__cause__ = cause
    return err


def test_a_budget_tick_inside_a_kernel_dispatch_is_the_budget_error():
    import signal

    if not hasattr(signal, "setitimer"):
        pytest.skip("no setitimer")
    from cgtalg.cli.common import command_budget
    from cgtalg.errors import signal_cause

    budget = ComputationLimitError("the search did not finish within the time budget")
    with pytest.raises(ComputationLimitError, match="did not finish") as err:
        with command_budget(5.0, "the command"):
            raise _as_in_a_compiled_dispatch(budget)
    assert err.value is budget
    # any other SystemError is left alone
    other = SystemError("a result with an exception set")  # no cause
    assert signal_cause(other) is other
    assert signal_cause(_as_in_a_compiled_dispatch(KeyboardInterrupt())).__class__ is KeyboardInterrupt
    with pytest.raises(SystemError):
        with command_budget(5.0, "the command"):
            raise SystemError("bad argument to internal function")


def test_the_cli_reports_the_cause_of_a_dispatch_system_error(monkeypatch, capsys):
    """At the CLI's boundary: the budget's own message (and Ctrl-C's status 130), never
    "unexpected SystemError"."""
    from cgtalg.cli import app

    def boom(*a, **k):
        raise _as_in_a_compiled_dispatch(ComputationLimitError("period search: out of --time"))

    monkeypatch.setattr(app.cli, "main", boom)
    monkeypatch.delenv("CGTALG_DEBUG", raising=False)
    assert app.main(["period", "0.776"]) == 2
    err = capsys.readouterr().err
    assert "out of --time" in err and "SystemError" not in err

    def interrupted(*a, **k):
        raise _as_in_a_compiled_dispatch(KeyboardInterrupt())

    monkeypatch.setattr(app.cli, "main", interrupted)
    assert app.main(["period", "0.776"]) == 130
