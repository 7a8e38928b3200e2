"""Ctrl-C: a clean exit of the command line (status 130, no traceback), also from a kernel
that keeps Python from running its handler, and imports that an interrupt cannot leave half
done (issue 35, point 4). The timing is measured by tools/ctrl_c_sweep.py; these tests only
wait, generously."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from cgtalg import interrupts

ROOT = Path(__file__).resolve().parents[1]
posix = pytest.mark.skipif(os.name != "posix", reason="POSIX signals")


@posix
def test_a_signal_inside_a_deferred_section_is_raised_when_it_ends():
    reached = []
    with pytest.raises(KeyboardInterrupt):
        with interrupts.deferred_signals():
            os.kill(os.getpid(), signal.SIGINT)
            for _ in range(1000):  # Python runs its handlers between these bytecodes
                sum(range(10))
            reached.append("end of the section")
    assert reached == ["end of the section"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_cgtalg_modules_are_imported_by_the_guard():
    import cgtalg.rulesets.heaps.periodicity as periodicity

    assert any(type(f).__name__ == "_ImportGuard" for f in sys.meta_path)
    assert "interrupt-safe" in repr(periodicity.__loader__)


HALF_IMPORT = textwrap.dedent("""
    import os, signal, sys, threading
    import cgtalg
    threading.Timer(float(sys.argv[1]), os.kill, (os.getpid(), signal.SIGINT)).start()
    try:
        cgtalg.find_period([0, 1, 2] * 20)
        print("first call done")
    except KeyboardInterrupt:
        print("first call interrupted")
    print("second call:", cgtalg.find_period([0, 1, 2] * 20).period)
""")


@posix
@pytest.mark.parametrize("delay", [0.05, 0.4])
def test_a_first_call_interrupted_in_its_imports_can_be_called_again(delay):
    """Before: ``module 'numba' has no attribute 'core'`` or ``module 'cgtalg' has no
    attribute 'find_period'`` on the second call, until the interpreter restarted."""
    res = subprocess.run([sys.executable, "-c", HALF_IMPORT, str(delay)], capture_output=True, text=True,
                         timeout=300, cwd=ROOT)
    assert res.returncode == 0, res.stderr
    assert "second call: 3" in res.stdout, res.stdout + res.stderr


def _start(args: list[str], store: Path) -> subprocess.Popen:
    env = dict(os.environ, CGTALG_STORE=str(store))
    env.pop("CGTALG_DEBUG", None)
    code = "import sys; from cgtalg.cli.main import main; sys.exit(main())"
    return subprocess.Popen([sys.executable, "-c", code, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True, env=env, cwd=ROOT, start_new_session=True)


@posix
@pytest.mark.parametrize("args", [
    ["grundy", "0.16", "-n", "1e9", "--no-store"],  # a numba kernel that holds the interpreter
    ["period", "0.6", "--no-store"],
])
def test_ctrl_c_ends_a_command_with_status_130_and_no_traceback(tmp_path, args):
    proc = _start(args, tmp_path / "s.sqlite")
    try:
        time.sleep(6)  # past the imports, into the work
        assert proc.poll() is None, proc.stderr.read()
        os.killpg(proc.pid, signal.SIGINT)  # as a terminal does: the whole group
        _out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode in (130, -signal.SIGINT), err
    assert "cgtalg: interrupted" in err and "Traceback" not in err, err


@posix
def test_the_watcher_ends_a_process_whose_interpreter_does_not_answer(tmp_path):
    """A process that blocks SIGINT's Python handler from running (here: a C call that never
    returns, ``signal.sigwait`` on another signal) is ended by the watcher."""
    code = textwrap.dedent("""
        import signal, sys
        from cgtalg.interrupts import install_watchdog
        assert install_watchdog(message="watcher: interrupted\\n")
        print("armed", flush=True)
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})
        signal.sigwait({signal.SIGUSR1})  # holds the main thread in C; SIGINT is not in the set
        print("not reached")
    """)
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=ROOT)
    try:
        assert proc.stdout.readline().strip() == "armed"
        time.sleep(1.0)  # let it reach sigwait (a SIGINT during the print would be answered)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode in (-signal.SIGINT, -signal.SIGKILL), (proc.returncode, err)
    assert "watcher: interrupted" in err and "not reached" not in out
