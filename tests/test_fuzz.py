"""Fuzzing the edges (issue 20, part 5): every input a user can give ends, within a bound, in
an answer or a :class:`cgtalg.errors.CgtalgError` with a short message, never a generic Python
exception (``ValueError``, ``TypeError``, ``OverflowError``, ``MemoryError``,
``RecursionError``, ...) and never a hang.

(a) The inputs listed in issue 20 ("Valid inputs that run without a bound" and "Errors that are
    not cgtalg's"): command lines (each with and without ``--json``) and library calls, all in
    one child process, each under an alarm; the parent's timeout catches a hang that answers
    no alarm (the C nimber kernel's, before issue 20) and names the case. The inputs that are
    long computations by nature run with the slow tests.
(b) A seeded generator over the public entry points (``cgtalg.__all__``'s doors, constructors
    and helpers) with odd arguments (huge and negative ints, floats, nan, inf, bools, None,
    strings, bytes, deeply nested text, unicode digits, lists), run in one child process with
    a per-call alarm; the child names each call before it makes it, so a hard hang names the
    call too.

Every child runs with a small memory ceiling (``CGTALG_MAX_MEMORY``) and its own store.
"""

from __future__ import annotations

import importlib
import json
import math
import os
import random
import re
import signal
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import pytest

import cgtalg.errors

ROOT = Path(__file__).resolve().parents[1]
#: seconds a command line or library call of part (a) may take before it fails as a hang
CASE_TIMEOUT = 20
#: seconds one generated call of part (b) may take (an alarm in the child)
CALL_ALARM = 3
#: seconds of the process's user CPU (what ``ITIMER_VIRTUAL`` counts) a call interrupted by the
#: CPU-time alarm may spend before the interruption reaches Python (Ctrl-C is answered within a
#: second; a C loop that answers no signal is what this finds). Counted in CPU time, as the
#: alarm is, so a loaded machine does not make a prompt answer look late.
ALARM_GRACE = 10.0
#: memory ceiling of every child (the budget must stop what would pass it)
CHILD_MEMORY = "2G"
#: longest message a cgtalg error may have (inputs are shortened)
MAX_MESSAGE = 1500
#: private class names that must never reach a user
PRIVATE_NAMES = ("_NeedAlpha", "NeedAlpha")


def _env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["CGTALG_STORE"] = str(tmp_path / "store.sqlite")
    env["CGTALG_MAX_MEMORY"] = CHILD_MEMORY
    env["MPLBACKEND"] = "Agg"
    env.pop("CGTALG_DEBUG", None)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


# --------------------------------------------------------------------------------------------
# the helpers every error message uses


def test_shorten_and_notation_errors_never_repeat_a_long_input():
    from cgtalg.errors import GameNotationError, shorten

    assert shorten("*2") == "'*2'"
    text = "9" * 200_000
    shown = shorten(text)
    assert len(shown) < 120 and "200,000 characters" in shown
    assert "about 100,001 digits" in shorten(10**100_000)
    with pytest.raises(GameNotationError) as info:
        import cgtalg as cg

        cg.parse("{*2, " + "9" * 200_000)
    assert len(str(info.value)) < 600
    # a short text keeps its full caret picture
    with pytest.raises(GameNotationError, match=r"\{\*2,\n +\^"):
        cg.parse("{*2,")


def test_argument_errors_are_cgtalg_errors_and_builtin_ones():
    import cgtalg as cg
    from cgtalg.errors import (ArgumentError, ArgumentTypeError, CgtalgError, NodeNotFoundError,
                               python_limits, require_int)

    assert require_int(np_int(5), "n") == 5
    with pytest.raises(ArgumentTypeError) as info:
        require_int(2.5, "the heap size")
    assert isinstance(info.value, TypeError) and "the heap size must be an int" in str(info.value)
    with pytest.raises(ArgumentError):
        require_int(-1, "day", minimum=0)
    with pytest.raises(ArgumentError) as info:
        cg.nim(-(10**300))
    assert isinstance(info.value, ValueError) and len(str(info.value)) < 200
    with pytest.raises(ArgumentTypeError):
        cg.nim("5")
    with pytest.raises(NodeNotFoundError, match="root 'q' is not a node") as info:
        import networkx as nx

        from cgtalg.core import from_networkx

        from_networkx(nx.DiGraph([(1, 2)]), "q")
    assert isinstance(info.value, KeyError) and isinstance(info.value, CgtalgError)
    with pytest.raises(cgtalg.errors.ComputationLimitError, match="recursion limit"):
        with python_limits("reading"):
            raise RecursionError()
    with pytest.raises(ArgumentError, match="too large"):
        with python_limits("reading"):
            raise OverflowError("int too large to convert to float")


def np_int(n):
    import numpy as np

    return np.int64(n)


# --------------------------------------------------------------------------------------------
# (a) the command lines of issue 20

#: digits of the longest argument a command line can carry (Linux refuses one argument of
#: more than 128 KiB); the library cases use 200,000 digits
LONG_ARG = 120_000

#: (arguments, what must appear in the error message if it fails, or None). These are
#: expected to answer or be refused within seconds once issue 20 is done.
CLI_CASES = [
    # valid inputs that ran without a bound
    (["outcome", "0.77", "10**30", "--misere"], None),  # Kayles' misère quotient is final
    (["value", "domineering", "99999999999x2"], None),  # refused up front
    (["value", "domineering", "8x8", "--time", "5"], None),
    (["census", "octal", "--digits", "1", "--scheduler", "tcp://127.0.0.1:1"], "127.0.0.1:1"),
    (["nim", "sqrt", "w^(w^13)"], None),  # the C kernel answers signals and budgets
    (["nim", "root", "w^(w^13)", "3"], None),
    (["nim", "solve", "x^2+x+w^(w^13)"], None),
    (["nim", "sqrt", "w^(w^200)"], None),  # beyond the alpha table: no private class name
    (["nim", "root", "w^(w^100)", "5"], None),
    # errors that were not cgtalg's
    (["value", "domineering", "8x8\u00b2"], None),
    (["solve", "parity", "25", "--table", "10**30"], None),
    (["game", "*" + "9" * LONG_ARG], None),
    (["game", "{" * 5000 + "}" * 5000], None),
    (["outcome", "0.07", "9" * LONG_ARG], None),
]

#: the issue's inputs that are long computations by nature: run with the slow tests, each
#: must still end (an answer, or a budget's ComputationLimitError) within SLOW_TIMEOUT
SLOW_CLI_CASES = [
    (["outcome", "0.16", "2^200", "--misere"], None),
    (["quotient", "0.6", "--max-order", "1000000"], None),
    (["quotient", "0.16"], None),
    (["game", "grundy(40)"], None),
    (["equiv", "kayles(30)", "kayles(31)"], None),
    (["period", "0x0.B"], None),
    (["grundy", "0.16", "-n", "1e9"], None),
    (["census", "octal", "--digits", "6"], None),
]
SLOW_TIMEOUT = 90


#: error types a --json failure may name: cgtalg's own and click's usage errors
KNOWN_ERRORS = {name for name in dir(cgtalg.errors) if name.endswith("Error")} | {
    "UsageError", "BadParameter", "BadArgumentUsage", "BadOptionUsage", "NoSuchOption",
    "MissingParameter", "ClickException", "Aborted"}


def _short(args: list[str]) -> str:
    return " ".join(a if len(a) <= 40 else a[:20] + f"...({len(a)} chars)" for a in args)


# --------------------------------------------------------------------------------------------
# (a) the library calls of issue 20

LIBRARY_CASES = [
    "cgtalg.nimbers.kappa(2**64)",
    "cgtalg.nimbers.kappa(2**200)",
    "cgtalg.nimbers.kappa(-3)",
    "cgtalg.misere_quotient(cgtalg.TakeAndBreak('0.07'), max_heap='5')",
    "cgtalg.misere_quotient(cgtalg.TakeAndBreak('0.07'), max_heap=-3)",
    "cgtalg.misere_quotient(cgtalg.TakeAndBreak('0.07'), max_seconds=float('nan'))",
    "cgtalg.nimbers.nim_sqrt(cgtalg.nimbers.parse_ordinal('w^(w^13)'))",
    "cgtalg.nimbers.nim_root(cgtalg.nimbers.parse_ordinal('w^(w^13)'), 3)",
    "cgtalg.nimbers.nim_roots('x^2+x+w^(w^13)', max_field_degree=1)",
    "cgtalg.nimbers.nim_roots('x^3+w^(w^13)')",
    "cgtalg.parse('*' + '9' * 200000)",
    "cgtalg.parse('{' * 100000 + '}' * 100000)",
    "cgtalg.parse('[' * 100000 + ']' * 100000)",
    "cgtalg.parse_partizan('{' * 100000 + '|' + '}' * 100000)",
    "cgtalg.nim(10**30)",
    "cgtalg.nim(1.5)",
    "cgtalg.outcome(cgtalg.position('0.77', 10**30), misere=True)",
    "cgtalg.outcome(cgtalg.position('0.16', 2**200), misere=True, max_seconds=5)",
    "cgtalg.misere_quotient(cgtalg.TakeAndBreak('0.16'), max_seconds=5)",
    "cgtalg.misere_quotient('0.07', max_heap=10)",
    "cgtalg.misere_quotient(cgtalg.TakeAndBreak('0.6'), max_order=1000000, max_seconds=5)",
    "cgtalg.grundy(cgtalg.position('kayles', 10**30))",
    "cgtalg.position('domineering', '8x8\u00b2')",
    "cgtalg.position('domineering', 99999999999, 2)",
]



# --------------------------------------------------------------------------------------------
# (a) all cases run in ONE child process (one import of cgtalg), each under an alarm; the child
# names each case before it runs it, so a hard hang (a C kernel that answers no signal) is
# named too, by the parent's timeout


def _issue_child(cases_file: str, timeout: float, wall: bool = False) -> None:  # pragma: no cover - in the child
    """Run each case of ``cases_file`` (``["cli", args]`` or ``["lib", expression]``) and print
    one ``RESULT`` JSON line per case. Each case runs under an alarm of ``timeout`` seconds of
    CPU (``ITIMER_VIRTUAL``); with ``wall``, of the wall clock (``ITIMER_REAL``): the slow long
    command lines, where the alarm stands for a user's Ctrl-C, and a census driver that waits on
    its workers spends no CPU."""
    import contextlib
    import io

    import cgtalg
    import cgtalg.nimbers  # noqa: F401
    from cgtalg.cli.main import main
    from cgtalg.errors import CgtalgError

    class Hang(BaseException):
        pass

    def alarm(signum, frame):
        raise Hang()

    sig, timer = (signal.SIGALRM, signal.ITIMER_REAL) if wall else (signal.SIGVTALRM, signal.ITIMER_VIRTUAL)
    signal.signal(sig, alarm)
    for index, (kind, case) in enumerate(json.load(open(cases_file))):
        print(f"CASE {index}", flush=True)
        result: dict = {"case": index}
        out, err = io.StringIO(), io.StringIO()
        started = time.monotonic()
        started_cpu = os.times().user
        signal.setitimer(timer, timeout)
        try:
            if kind == "cli":
                with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                    result["code"] = main(["--memory", CHILD_MEMORY, *case])
            else:
                value = eval(case, {"cgtalg": cgtalg})
                result["answer"] = repr(value)[:200]
        except Hang:
            result["hang"] = True
            # past the alarm, in the clock the alarm counts: the wall clock for ``wall``, else the
            # process's user CPU (a wall-clock measure would count the time other processes took)
            spent = time.monotonic() - started if wall else os.times().user - started_cpu
            result["late"] = round(spent - timeout, 2)
        except CgtalgError as exc:
            result.update(error=type(exc).__name__, message=str(exc)[:3000], length=len(str(exc)))
        except BaseException as exc:  # noqa: BLE001 - what this test hunts
            result.update(generic=type(exc).__name__, message=str(exc)[:1000])
        finally:
            signal.setitimer(timer, 0)
        result["stdout"], result["stderr"] = out.getvalue()[-3000:], err.getvalue()[-3000:]
        print("RESULT " + json.dumps(result), flush=True)
    print("DONE", flush=True)


def _run_issue_cases(cases: list, tmp_path: Path, timeout: float, wall: bool = False) -> list[dict | str]:
    """Each case's result dict, or a string saying why it has none (a hard hang, a crash)."""
    cases_file = tmp_path / "cases.json"
    cases_file.write_text(json.dumps(cases))
    code = (f"import sys; sys.path.insert(0, {str(ROOT / 'tests')!r}); import test_fuzz; "
            f"test_fuzz._issue_child({str(cases_file)!r}, {timeout!r}, {wall!r})")
    total = timeout * len(cases) + 60
    try:
        done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=_env(tmp_path),
                              capture_output=True, text=True, timeout=total)
        out, err = done.stdout, done.stderr
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout.decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        err = f"no answer for {total} s (a hang that answers no alarm)"
    results: list[dict | str] = ["not run: an earlier case stopped the child"] * len(cases)
    for line in out.splitlines():
        if line.startswith("RESULT "):
            r = json.loads(line[7:])
            results[r["case"]] = r
    started = [int(line[5:]) for line in out.splitlines() if line.startswith("CASE ")]
    if started and isinstance(results[started[-1]], str):
        results[started[-1]] = f"the child stopped in this case: {err[-1500:]}"
    return results


@pytest.fixture(scope="module")
def issue_results(tmp_path_factory):
    cases = [["cli", args + (["--json"] if as_json else [])]
             for args, _ in CLI_CASES for as_json in (False, True)]
    cases += [["lib", call] for call in LIBRARY_CASES]
    return _run_issue_cases(cases, tmp_path_factory.mktemp("issue"), CASE_TIMEOUT)


def _check_cli(args: list[str], must_name: str | None, results: list, long_ok: bool = False) -> None:
    """With ``long_ok`` a command may still be computing when the alarm comes (a long
    computation, bounded by the memory ceiling) if it answers the alarm, as it answers Ctrl-C,
    within :data:`ALARM_GRACE` seconds."""
    shown = _short(args)
    for as_json, r in zip((False, True), results):
        assert not isinstance(r, str), f"`cgtalg {shown}`: {r}"
        if long_ok and r.get("hang"):
            assert r["late"] < ALARM_GRACE, f"`cgtalg {shown}` answered the alarm only {r['late']} s late"
            continue
        assert not r.get("hang"), f"`cgtalg {shown}` ran for more than {CASE_TIMEOUT} s"
        assert "generic" not in r and "error" not in r, (
            f"`cgtalg {shown}` raised {r.get('generic') or r.get('error')}: {r['message'][:500]}")
        assert r["code"] in (0, 2), f"`cgtalg {shown}`: exit status {r['code']}\n{r['stderr']}"
        if r["code"] == 0:
            continue
        if as_json:
            error = json.loads(r["stdout"])["error"]
            text = f"{error['type']}: {error['message']}"
            assert error["type"] in KNOWN_ERRORS, f"`cgtalg {shown}`: {text[:1000]}"
        else:
            assert "cgtalg: error:" in r["stderr"], f"`cgtalg {shown}`: {r['stderr'][-2000:]}"
            text = r["stderr"]
        # the CLI's fallback for an exception that is not cgtalg's: "unexpected KeyError: ..."
        assert not re.search(r"unexpected [A-Za-z]*(Error|Exception)|CGTALG_DEBUG", text), (
            f"`cgtalg {shown}`: {text[:1000]}")
        assert not any(name in text for name in PRIVATE_NAMES), f"`cgtalg {shown}`: {text[:1000]}"
        assert "No such option" not in text, f"`cgtalg {shown}`: {text[:1000]}"
        assert len(text) < MAX_MESSAGE, f"`cgtalg {shown}`: a message of {len(text)} characters"
        if must_name is not None:
            assert must_name in text, f"`cgtalg {shown}`: {text[:1000]}"


@pytest.mark.parametrize("index", range(len(CLI_CASES)), ids=[_short(a)[:60] for a, _ in CLI_CASES])
def test_issue_command_lines(index, issue_results):
    args, must_name = CLI_CASES[index]
    _check_cli(args, must_name, issue_results[2 * index: 2 * index + 2])


@pytest.mark.parametrize("index", range(len(LIBRARY_CASES)), ids=[c[:60] for c in LIBRARY_CASES])
def test_issue_library_calls(index, issue_results):
    call = LIBRARY_CASES[index]
    r = issue_results[2 * len(CLI_CASES) + index]
    assert not isinstance(r, str), f"{call[:200]}: {r}"
    assert not r.get("hang"), f"{call[:200]} ran for more than {CASE_TIMEOUT} s"
    assert "generic" not in r, f"{call[:200]} raised {r['generic']}: {r['message'][:500]}"
    if "error" in r:
        assert r["length"] < MAX_MESSAGE, f"{call[:200]}: a message of {r['length']} characters"
        assert not any(name in r["error"] + r["message"] for name in PRIVATE_NAMES)


@pytest.mark.slow
@pytest.mark.parametrize("args, must_name", SLOW_CLI_CASES, ids=[_short(a)[:60] for a, _ in SLOW_CLI_CASES])
def test_issue_long_command_lines(args, must_name, tmp_path):
    results = _run_issue_cases([["cli", args], ["cli", args + ["--json"]]], tmp_path, SLOW_TIMEOUT, wall=True)
    _check_cli(args, must_name, results, long_ok=True)


# --------------------------------------------------------------------------------------------
# (b) a seeded generator over the public entry points

#: odd arguments: (description, constructor) - built in the child, so each call gets a fresh one
ODD_VALUES = [
    "0", "1", "2", "-1", "-3", "2**64", "2**200", "10**30", "-(2**64)",
    "0.5", "1.0", "-2.5", "float('nan')", "float('inf')", "-float('inf')", "1e300",
    "True", "False", "None",
    "''", "'5'", "'-3'", "'1e9'", "'2^200'", "'x'", "'*2'", "'{*2,*3}'", "'{0|*}'", "'0.07'",
    "'kayles'", "'w^(w^13)'", "'\u0663'", "'\u00b2'", "'\uff18'", "'*\u0663'", "'nan'",
    "'{' * 300 + '}' * 300", "'[' * 3000 + ']' * 3000", "'{' * 30000 + '|' + '}' * 30000", "'9' * 200000", "'*' + '9' * 200000",
    "b'5'", "b'*2'", "[]", "[1, 2]", "[[]]", "[-1]", "[2**64]", "(3,)", "{}", "{1: 2}",
    "object()", "complex(1, 1)", "Fraction(1, 3)", "Fraction(3, 4)", "cgtalg.nim(2)",
    "cgtalg.parse('{0|*}')", "cgtalg.nimber(5)", "print",
]

#: the subpackages whose public names are entry points below (``"misere.misere_ge"``): the
#: top level holds the doors and constructors, the rest is public in its subpackage (issue 33)
SUBPACKAGES = ("core", "normal", "misere", "nimbers", "rulesets", "census")

#: public callables and how many positional arguments to give them; calls that write files,
#: start workers or touch the user's store are left out (their own tests cover them)
ENTRY_POINTS = {
    "parse": 1, "parse_partizan": 1, "nimbers.parse_nimber": 1, "nim": 1, "game": 1,
    "nimber": 1, "ordinal": 1, "integer": 1, "dyadic": 1, "switch": 1, "pgame": 2,
    "from_impartial": 1, "format_game": 2, "format_partizan": 1, "misere.format_misere": 2,
    "outcome": 1, "grundy": 1, "misere_grundy": 1, "genus": 1, "canonical_form": 1,
    "compare": 2, "winning_moves": 1, "kind_of": 1, "atomic_weight": 1, "mean": 1,
    "temperature": 1, "thermograph": 1, "left_stop": 1, "right_stop": 1, "number_value": 1,
    "norton_product": 2, "ordinal_sum": 2, "heat": 2, "overheat": 3, "reduced_canonical_form": 1,
    "is_atomic": 1, "check_certificate": 1,
    "cool": 2, "position": 2, "is_number": 1, "is_all_small": 1, "is_infinitesimal": 1,
    "is_dicot": 1, "is_dead_ending": 1, "misere_adjoint": 1, "misere.misere_ge": 2,
    "misere_quotient": 2, "misere.misere_class": 1, "misere_classification": 1, "misere.misere_phylum": 1,
    "misere.is_half_tame": 1, "extended_genus": 1, "misere.genus_class": 2, "misere.genus_from_options": 1,
    "misere.misere_mate": 1, "misere.misere_equal": 2, "equivalent": 2, "misere.distinguisher": 2, "misere.link": 2,
    "misere.linked": 2, "misere.misere_parts": 1, "misere.misere_partitions": 1, "misere.misere_is_even": 1,
    "misere.misere_is_prime": 1, "misere.misere_count_born_by": 1, "misere.misere_day_counts": 1,
    "misere_games_born_by": 1, "misere.misere_class_counts": 1, "misere.misere_p_count_born_by": 1,
    "misere.misere_tame_count_born_by": 1, "misere.adder": 1, "misere.adder_sum": 2, "misere.adder_index": 1,
    "misere.nim_position_game": 1, "misere.nim_reduced_form": 1, "misere.shortlex_precedes": 2,
    "misere.nim_sum_outcome": 2, "misere.check_nim_position_classes": 1, "nimbers.nim_add": 2, "nimbers.nim_mul": 2,
    "nimbers.nim_div": 2, "nimbers.nim_inv": 1, "nimbers.nim_pow": 2, "nimbers.nim_sqrt": 1, "normal.mex": 1, "describe": 1,
    "prove_equivalence": 2, "subtraction": 1, "get_ruleset": 1, "find_period": 1,
    "rulesets.periodicity_memory_estimate": 2, "census.enumerate_codes": 1, "census.census_classes": 1,
    "rulesets.position_game": 2, "TakeAndBreak": 1, "ParityGame": 1, "Genus": 2, "Nimber": 1,
    "MisereCanonicalForm": 1, "misere.misere_canonical": 1, "misere.misere_outcome": 1, "check_proof": 1,
    "misere.check_misere_certificate": 1, "core.walk_size": 1, "core.sum_size": 2, "core.to_networkx": 1,
    "nimbers.kappa": 1, "nimbers.parse_ordinal": 1,
    "nimbers.nim_root": 2, "nimbers.nim_roots": 1, "nimbers.alpha": 1,
    "nimbers.parse_nim_polynomial": 1, "nimbers.nim_outcome": 1,
}

#: keyword arguments given odd values, each beside valid positional arguments:
#: entry point -> (positional argument texts, keyword names)
KEYWORD_CALLS = {
    "outcome": (["'{*2,*3}'"], ["misere", "max_seconds", "store"]),
    "misere_grundy": (["'{*2,*3}'"], ["max_seconds", "store"]),
    "grundy": (["'{*2,*3}'"], ["store"]),
    "genus": (["'{*2,*3}'"], ["convention", "store"]),
    "canonical_form": (["'{*2,*3}'"], ["misere", "universe"]),
    "compare": (["'{*2,*3}'", "'*2'"], ["misere", "universe"]),
    "winning_moves": (["'{*2,*3}'"], ["misere", "player", "max_seconds"]),
    "misere_quotient": (["cgtalg.TakeAndBreak('0.07')"], ["max_heap", "max_order", "max_seconds",
                                                          "max_states"]),
    "misere.misere_parts": (["'{*2,*3}'"], ["limit"]),
    "misere.misere_is_prime": (["'{*2,*3}'"], ["limit"]),
    "format_game": (["cgtalg.nim(2)"], ["max_chars"]),
    "misere.format_misere": (["'{*2,*3}'"], ["max_chars"]),
    "format_partizan": (["'{0|*}'"], ["max_chars", "ascii"]),
    "describe": (["'{*2,*3}'"], ["properties", "store"]),
    "equivalent": (["'{*2,*3}'", "'*2'"], ["misere"]),
    "misere.misere_ge": (["'{0|*}'", "'*'"], ["universe"]),
    "find_period": (["[0, 1, 2] * 6"], ["min_cycles", "min_span", "max_period"]),
    "nimbers.nim_roots": (["'x^2+x+1'"], ["max_field_degree", "max_degree"]),
    "nimbers.nim_root": (["2", "3"], ["max_degree"]),
}
#: calls per entry point in the default run
CALLS_PER_ENTRY = 14
SEED = 20


def generated_calls(seed: int = SEED, per_entry: int = CALLS_PER_ENTRY) -> list[tuple[str, list[str], dict]]:
    """The seeded list of (entry point, argument texts, keyword argument texts) the child
    evaluates: ``per_entry`` calls of each entry point with odd positional arguments, and
    ``per_entry + 2`` odd values of each keyword of :data:`KEYWORD_CALLS`."""
    rng = random.Random(seed)
    calls = []
    for name, arity in sorted(ENTRY_POINTS.items()):
        for _ in range(per_entry):
            calls.append((name, [rng.choice(ODD_VALUES) for _ in range(arity)], {}))
    for name, (args, keywords) in sorted(KEYWORD_CALLS.items()):
        for keyword in keywords:
            for value in rng.sample(ODD_VALUES, min(per_entry + 2, len(ODD_VALUES))):
                calls.append((name, args, {keyword: value}))
    return calls


def _child_main(calls_file: str) -> None:  # pragma: no cover - runs in the child process
    """Evaluate every call of ``calls_file`` under a per-call alarm, print one JSON line per
    call that did not end in an answer or a cgtalg error (and ``CALL`` before each call)."""
    import cgtalg
    from cgtalg.errors import CgtalgError

    for package in SUBPACKAGES:
        importlib.import_module(f"cgtalg.{package}")

    class Hang(BaseException):
        pass

    def alarm(signum, frame):
        raise Hang()

    signal.signal(signal.SIGVTALRM, alarm)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 1000))
    names = {"cgtalg": cgtalg, "Fraction": Fraction, "math": math}
    for name, arg_texts, keyword_texts in json.load(open(calls_file)):
        target = cgtalg
        for part in name.split("."):
            target = getattr(target, part)
        args = [eval(text, names) for text in arg_texts]
        kwargs = {k: eval(text, names) for k, text in keyword_texts.items()}
        texts = arg_texts + [f"{k}={t}" for k, t in keyword_texts.items()]
        shown = f"{name}({', '.join(t if len(t) < 40 else t[:30] + '...' for t in texts)})"
        print("CALL " + shown, flush=True)
        started = time.monotonic()
        started_cpu = os.times().user
        signal.setitimer(signal.ITIMER_VIRTUAL, CALL_ALARM)
        problem = None
        try:
            target(*args, **kwargs)
        except CgtalgError as exc:
            message = str(exc)
            signal.setitimer(signal.ITIMER_VIRTUAL, 0)
            if len(message) > MAX_MESSAGE:
                problem = f"a message of {len(message)} characters: {message[:200]}..."
            elif any(p in type(exc).__name__ + message for p in PRIVATE_NAMES):
                problem = f"a private name in {type(exc).__name__}: {message[:300]}"
        except Hang:
            # a long computation is allowed (the memory ceiling bounds it) if it answers the
            # alarm, as it must answer Ctrl-C, within about a second; a late answer is a failure.
            # Lateness in user CPU, the clock of the alarm: on a loaded machine the wall clock
            # also counts what other processes ran
            late = os.times().user - started_cpu - CALL_ALARM
            if late > ALARM_GRACE:
                problem = (f"answered the alarm after {CALL_ALARM} s of CPU only {late:.1f} s of "
                           "CPU later")
            else:
                print(f"LONG (interrupted by the alarm) {shown}", flush=True)
        except BaseException as exc:  # noqa: BLE001 - what this test hunts
            signal.setitimer(signal.ITIMER_VIRTUAL, 0)
            problem = f"{type(exc).__name__}: {str(exc)[:300]}"
        finally:
            signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        if problem:
            print("FAIL " + json.dumps({"call": shown, "problem": problem}), flush=True)
        elif time.monotonic() - started > CALL_ALARM / 3:  # near the alarm: shown, not failed
            print(f"SLOW {time.monotonic() - started:.1f} s {shown}", flush=True)
    print("DONE", flush=True)


def test_generated_calls_over_public_entry_points(tmp_path):
    import cgtalg

    for package in SUBPACKAGES:
        importlib.import_module(f"cgtalg.{package}")
    missing = [name for name in {**ENTRY_POINTS, **KEYWORD_CALLS}
               if not hasattr(getattr(cgtalg, name.split(".")[0]) if "." in name else cgtalg,
                              name.split(".")[-1])]
    assert not missing, f"entry points no longer public: {missing}"
    calls_file = tmp_path / "calls.json"
    calls_file.write_text(json.dumps(generated_calls()))
    code = (f"import sys; sys.path.insert(0, {str(ROOT / 'tests')!r}); import test_fuzz; "
            f"test_fuzz._child_main({str(calls_file)!r})")
    budget = 600
    try:
        done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=_env(tmp_path),
                              capture_output=True, text=True, timeout=budget)
        out, err = done.stdout, done.stderr
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout.decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        err = ""
        calls = [line[5:] for line in out.splitlines() if line.startswith("CALL ")]
        pytest.fail(f"the generated calls ran for more than {budget} s; last call: "
                    f"{calls[-1] if calls else '(none)'}")
    lines = out.splitlines()
    failures = [json.loads(line[5:]) for line in lines if line.startswith("FAIL ")]
    if not lines or lines[-1] != "DONE":
        calls = [line[5:] for line in lines if line.startswith("CALL ")]
        failures.append({"call": calls[-1] if calls else "(none)",
                         "problem": f"the child died: {err[-1500:]}"})
    assert not failures, "\n".join(f"{f['call']}: {f['problem']}" for f in failures)


if __name__ == "__main__":  # pragma: no cover - `python tests/test_fuzz.py calls.json`
    _child_main(sys.argv[1])
