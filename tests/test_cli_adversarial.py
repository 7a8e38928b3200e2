"""The CLI's error boundary under adversarial input (issue 7).

Every run ends within a time bound with exit status 0 (valid input) or 2 (a failure; 1 only
for an equivalence proof that does not check), never a Python traceback; a failure is one
line on stderr, ``cgtalg: error: ...``, and under ``--json`` a JSON object
``{"error": {"type": ..., "message": ...}}`` on stdout. Cases: the issue's examples (superscript
digits, 5000-digit numbers, ``-n 1e10``, unwritable or unknown-extension image paths, bad
PostgreSQL URLs, ``~nosuchuser``, huge ``--limit``, 100,000-deep nesting, ``nim root 2
99999999999``, ``solve parity 99999999999``, ``solve 0.77 10**18``, ``nim solve x^1000000+1``,
``nim mul 9^9^9 w``) and a table of malformed values for every command and option.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys

import pytest

from cgtalg.cli.main import main

BIG = "9" * 5000
DEEP_BRACES = "{" * 100_000 + "}" * 100_000
DEEP_MISERE = "*[" + "[" * 50_000 + "]" * 50_000 + "]"
DEEP_ORDINAL = "(" * 100_000 + "w" + ")" * 100_000

# (args, expected exit status) -- 2 for a failure, 0 for input that is valid and answered
CASES: list[tuple[list[str], int]] = [
    # the examples
    (["game", "*²"], 2),
    (["game", "*" + BIG], 0),
    (["grundy", "0.77", "-n", "1e10"], 2),
    (["grundy", "0.77", "-n", "1.5"], 2),
    (["grundy", "0.6", "-n", "100", "--plot", "/nonexistent-dir/x.png"], 2),
    (["grundy", "0.6", "-n", "100", "--plot", "PLOTDIR/x.unknownext"], 2),
    (["--store", "postgresql://[::1/db", "game", "*2"], 2),
    (["--store", "~nosuchuser/x.sqlite", "game", "*2"], 2),
    (["store", "query", "--limit", "99999999999999999999", "*2"], 2),
    (["nim", "mul", DEEP_ORDINAL, "w"], 2),
    (["nim", "root", "2", "99999999999"], 2),
    (["solve", "parity", "99999999999"], 2),
    (["solve", "0.77", "1000000000000000000"], 0),
    (["outcome", "0.77", "1000000000000000001"], 0),
    (["outcome", "0.77", "100000000000000000000"], 0),
    (["nim", "solve", "x^1000000+1"], 2),
    (["nim", "mul", "9^9^9", "w"], 2),
    # game texts
    (["game", ""], 2),
    (["game", DEEP_BRACES], 0),
    (["game", DEEP_MISERE], 2),
    (["game", "{*2"], 2),
    (["game", "*2}"], 2),
    (["game", "{*2|*}"], 0),   # partizan text since issue 11: {*2 | *} = 0
    (["game", "*-1"], 0),      # * - 1 = -1* (CGSuite reads it so too)
    (["game", "{*2|*"], 2),
    (["game", "*-"], 2),
    (["game", "1/3"], 2),      # not dyadic: short games have dyadic numbers only
    (["game", "*1.5"], 2),
    (["game", "*٣"], 2),
    (["game", "nosuchgame(3)"], 2),
    (["game", "kayles(3)+kayles(4)"], 0),
    (["game", "kayles(99999)"], 2),
    (["game", "*" + "9" * 200_000], 2),
    (["game", "*[2#"], 2),
    (["game", "*[#]]"], 2),
    (["game", "\x00"], 2),
    (["game", "*2", "--draw", "/nonexistent-dir/g.png"], 2),
    (["game", "*2", "--draw", "PLOTDIR/g.xyz"], 2),
    (["game", "*+*"], 0),
    (["game", "*1000000000000000000000+*3"], 2),
    (["equiv", "*2", "{*2"], 2),
    (["equiv", "", "*"], 2),
    (["equiv", "*+*", "{*}"], 0),
    (["equiv", "*2+*2", "{*2}"], 0),
    # counts and heaps of every heap command
    *[(["grundy", "0.77", "-n", bad], 2) for bad in ("-1", "abc", "1e-3", "½", "1e999999", "2^99999999", "", "nan", "inf")],
    *[(["grundy", "0.77", "--show", bad], 2) for bad in ("-5", "x", "1.25")],
    (["grundy", "0.77", "-n", "1e3"], 0),
    (["grundy", "0.77", "-n", "2^10"], 0),
    (["grundy", "kayles", "-n", "10**3"], 0),
    (["grundy", "0.77", "--max-bytes", "-1"], 2),
    *[(["outcome", "0.77", bad], 2) for bad in ("-1", "1.5", "x", "²", "1e-2", "")],
    (["outcome", "0.77", BIG], 0),
    (["outcome", "0.77", "1e30", "2^70"], 0),
    (["outcome", "grundy", "10000000000000000000000"], 2),
    (["outcome", "0.77"], 2),
    (["outcome", "0.77", "5", "--limit", "-3"], 2),
    *[(["grundy", spec, "-n", "10"], 2) for spec in ("0.8", "0x", "1.2", "S()", "S(a)", "allbut()", "0.[", "nosuch", "", "4..1", "0.7a")],
    *[(["grundy", spec, "-n", "10"], 0) for spec in ("0.77", "S(1,3,4)", "subtraction:1,3,4", "kayles", "Dawson", "officers", "grundy", "allbut(1,2)", "0x0.B")],
    *[(["period", spec], 2) for spec in ("", "0.9", "parity")],
    (["period", "0.77", "--max-values", "-4"], 2),
    (["period", "0.77", "--max-values", "1.5"], 2),
    (["period", "0.77"], 0),
    (["cousin", "0.9"], 2),
    (["cousin", "kayles"], 0),
    (["cousin", "grundy"], 2),
    (["cousin", ""], 2),
    # solve
    (["solve", "parity"], 2),
    (["solve", "nosuchruleset", "5"], 2),
    (["solve", "parity", "-5"], 2),
    (["solve", "parity", "x"], 2),
    (["solve", "parity", "25", "--draw", "/nonexistent-dir/d.png"], 2),
    (["solve", "parity", "25", "--draw", "PLOTDIR/d.docx"], 2),
    (["solve", "parity", "--table", "-1"], 2),
    (["solve", "parity", "--table", "1.5"], 2),
    (["solve", "parity", "25", "--max-positions", "10"], 2),
    (["solve", "parity", "25"], 0),
    (["solve", "kayles", "100", "200", "--misere"], 2),
    (["solve", "kayles", "5", "9"], 0),
    (["solve", "S(1,2)", "9"], 0),
    # nimbers
    (["nim", "mul", "w", ""], 2),
    (["nim", "mul", "w^w^w^w", "w"], 2),
    (["nim", "mul", "-1", "2"], 2),
    (["nim", "mul", "1.5", "2"], 2),
    (["nim", "mul", "²", "2"], 2),
    (["nim", "mul", BIG, "2"], 2),
    (["nim", "add", "w", "w+1"], 0),
    (["nim", "root", "x", "2"], 2),
    (["nim", "solve", ""], 2),
    (["nim", "solve", "x^2+x+w"], 0),
    (["nim", "solve", "x^" + BIG], 2),
    (["nim", "play", "w+1", "w", "-1"], 2),
    # store
    (["store", "query", ""], 2),
    (["store", "query", "{*2"], 2),
    (["store", "query", "--limit", "-1", "*2"], 2),
    (["store", "query", "*2"], 0),
    (["store", "info"], 0),
    (["store", "verify", "--sample", "0"], 2),
    (["store", "verify", "--sample", "1e99999"], 2),
    (["--store", "/nonexistent-dir/deeper/s.sqlite", "store", "info"], 2),
    (["--store", "postgresql://nobody@127.0.0.1:1/db", "store", "info"], 2),
    (["--store", "mysql+nosuchdriver://x/y", "game", "*"], 2),
    (["--store", "", "game", "*"], 0),
    # the CLI itself
    (["nosuchcommand"], 2),
    (["game"], 2),
    (["game", "*2", "--nosuchoption"], 2),
    (["grundy", "0.77", "-n"], 2),
    (["--version"], 0),
    (["--help"], 0),
]


class _Timeout(Exception):
    pass


def _alarm(signum, frame):  # pragma: no cover - only on a hang
    raise _Timeout


def _ids(case) -> str:
    args = case[0] if isinstance(case, tuple) else case
    text = " ".join(a if len(a) <= 24 else a[:12] + f"...[{len(a)}]" for a in args)
    return text.encode("ascii", "backslashreplace").decode()


@pytest.fixture
def run(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CGTALG_STORE", str(tmp_path / "adversarial.sqlite"))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    monkeypatch.delenv("CGTALG_DEBUG", raising=False)

    def go(args: list[str], seconds: int = 60) -> tuple[int, str, str]:
        args = [a.replace("PLOTDIR", str(tmp_path)) for a in args]
        # a hang detector in CPU time (ITIMER_VIRTUAL), not a wall-clock alarm
        old = signal.signal(signal.SIGVTALRM, _alarm)
        signal.setitimer(signal.ITIMER_VIRTUAL, seconds)
        try:
            code = main(args)
        except _Timeout:
            pytest.fail(f"cgtalg {_ids((args, 0))} did not finish within {seconds} s of CPU")
        finally:
            signal.setitimer(signal.ITIMER_VIRTUAL, 0)
            signal.signal(signal.SIGVTALRM, old)
        out, err = capsys.readouterr()
        return code, out, err

    return go


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_adversarial_input_human(run, case):
    args, expected = case
    code, out, err = run(args)
    assert "Traceback" not in out + err
    assert code == expected, (code, out[-500:], err[-500:])
    if expected == 2:
        lines = [line for line in err.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("cgtalg: error: "), err[-1000:]
        assert not lines[0].startswith("cgtalg: error: unexpected "), lines[0]  # every failure is named


@pytest.mark.parametrize("case", [c for c in CASES if c[1] == 2 and "--help" not in c[0]], ids=_ids)
def test_adversarial_input_json(run, case):
    args, _ = case
    code, out, err = run(args + ["--json"])
    assert code == 2 and "Traceback" not in out + err
    error = json.loads(out)["error"]
    assert set(error) == {"type", "message"} and error["message"] and "\n" not in error["message"]


def test_unexpected_exceptions_are_one_line_and_debug_reraises(run, monkeypatch):
    """Anything that escapes a command is reported with its type, one line, exit 2 (a
    MemoryError as the cgtalg error it means, naming --memory; any other exception as
    unexpected); CGTALG_DEBUG=1 lets it through for developers."""
    import cgtalg.report

    def boom(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(cgtalg.report, "describe", boom)
    code, out, err = run(["game", "*2", "--no-store"])
    assert code == 2 and err.startswith("cgtalg: error: the command: out of memory") and "--memory" in err
    code, out, err = run(["game", "*2", "--no-store", "--json"])
    assert json.loads(out)["error"]["type"] == "ComputationLimitError"

    def strange(*args, **kwargs):
        raise LookupError("no such thing")

    monkeypatch.setattr(cgtalg.report, "describe", strange)
    code, out, err = run(["game", "*2", "--no-store"])
    assert code == 2 and err == "cgtalg: error: unexpected LookupError: no such thing (set CGTALG_DEBUG=1 for the traceback)\n"
    code, out, err = run(["game", "*2", "--no-store", "--json"])
    assert json.loads(out) == {"error": {"type": "LookupError", "message": "unexpected LookupError: no such thing "
                                         "(set CGTALG_DEBUG=1 for the traceback)"}}
    monkeypatch.setattr(cgtalg.report, "describe", boom)
    monkeypatch.setenv("CGTALG_DEBUG", "1")
    with pytest.raises(MemoryError):
        main(["game", "*2", "--no-store"])


def test_exact_heap_sizes_end_to_end(run):
    """Heap sizes are read exactly (never through float): 10**18 + 1 stays itself."""
    code, out, _ = run(["outcome", "0.77", "1000000000000000001", "--json"])
    assert code == 0 and json.loads(out)["heaps"] == [10**18 + 1]
    code, out, _ = run(["outcome", "0.77", "1e18", "2^64", "--json"])
    assert json.loads(out)["heaps"] == [10**18, 2**64]
    code, out, _ = run(["grundy", "0.77", "-n", "1.5"])
    assert code == 2


@pytest.mark.parametrize("args", [["game", "*²"], ["solve", "parity", "99999999999"], ["nim", "mul", "9^9^9", "w"]],
                         ids=_ids)
def test_console_script_in_a_fresh_process(tmp_path, args):
    """The same boundary through the installed console entry point (a fresh interpreter)."""
    env = {"CGTALG_STORE": str(tmp_path / "s.sqlite"), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    run = subprocess.run([sys.executable, "-m", "cgtalg.cli.main", *args, "--json"],
                         capture_output=True, text=True, timeout=120, env=env)
    assert run.returncode == 2 and "Traceback" not in run.stdout + run.stderr
    assert set(json.loads(run.stdout)["error"]) == {"type", "message"}
