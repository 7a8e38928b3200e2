"""Issue 20, nimbers: every computation bounded and interruptible, every error cgtalg's.

* The former hard hangs (square roots, n-th roots, field degrees and polynomial roots in the
  κ-field of ω^(ω^13) = κ_47, of degree 237,820, even with ``max_field_degree=1``) return at
  once with a cgtalg error, or within their ``max_seconds=``; they run in a subprocess with a
  timeout, for the C kernel and for the Python fallback, so a regression fails instead of
  hanging the suite.
* A signal handler (a CPU-time alarm, ``ITIMER_VIRTUAL``) interrupts a long C kernel call within
  about a second.
* ``kappa`` refuses what cannot be held; messages never repeat a huge input in full.
* A seeded fuzz of the public entry points (odd inputs under a per-input alarm) finds no
  generic exception and no hang.
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from conftest import kernels_expected, skip_without_kernel
import sympy
from click.testing import CliRunner

import cgtalg as cg
from cgtalg import nimbers as N
from cgtalg.cli.main import cli
from cgtalg.nimbers import reference as R
from cgtalg.errors import CgtalgError, ComputationLimitError, NimberError
from cgtalg.nimbers import compiled

# cgtalg.nimbers loads these lazily: import them before any test arms an alarm (an alarm raised
# inside an import would leave the module half-initialised for the rest of the run) or times a call
import sympy  # noqa: E402,F401
import cgtalg.nimbers.kernels  # noqa: E402,F401
import cgtalg.nimbers.nimber  # noqa: E402,F401
import cgtalg.nimbers.roots  # noqa: E402,F401
from cgtalg.nimbers.engine import odd_prime
from hang import HANG_SECONDS

ROOT = Path(__file__).resolve().parents[1]

# Each line: an expression that used to run for minutes or forever (issue 20); now a cgtalg
# error at once, or the ComputationLimitError of its own max_seconds.
FORMER_HANGS = [
    "N.nim_sqrt(N.kappa(47))",
    "R.ordinal_nim_sqrt(N.kappa(47))",
    "cg.nimber('w^(w^13)').sqrt()",
    "N.nim_root(N.kappa(47), 3)",
    "N.nim_root(N.kappa(47), 2)",
    "N.nim_degree(N.kappa(47))",
    "N.nim_roots('x^2+x+w^(w^13)', max_field_degree=1)",
    "N.nim_roots('x^3+w^(w^13)', max_field_degree=1)",
    "N.nim_roots({2: 1, 0: N.kappa(47)}, max_field_degree=1)",
    "N.nim_sqrt(N.kappa(47), max_field_degree=10**6, max_seconds=1)",
    "N.nim_roots('x^2+x+w^(w^13)', max_field_degree=10**9, max_seconds=1)",
    "N.nim_pow(cg.nimber('w^(w^13)+w^(w^12)+w^(w^11)+w^(w^7)+w'), 10**40, max_seconds=1)",
    "R.ordinal_nim_pow(10**5000, 10**30, max_seconds=1)",
    "N.kappa(2**64)",
    "N.kappa(2**200)",
    "odd_prime(2**64)",
    "cg.nimber('w^(w^(10^15))')",
]

_SCRIPT = textwrap.dedent("""
    import sys, time
    import cgtalg as cg
    from cgtalg import nimbers as N
    from cgtalg.errors import CgtalgError
    from cgtalg.nimbers import reference as R
    from cgtalg.nimbers.engine import odd_prime
    import sympy, cgtalg.nimbers.lenstra, cgtalg.nimbers.roots, cgtalg.nimbers.nimber  # loaded lazily: not timed
    for expr in sys.argv[1:]:
        t = time.monotonic()
        try:
            eval(expr)
            outcome = "answer"
        except CgtalgError as exc:
            outcome = type(exc).__name__
        print(f"{expr}\\t{outcome}\\t{time.monotonic() - t:.2f}", flush=True)
""")


@pytest.mark.parametrize("pure", [False, True], ids=["kernel", "python"])
def test_former_hangs_end_quickly_in_a_subprocess(pure: bool) -> None:
    if not pure and compiled.status() != "compiled" and not kernels_expected():
        pytest.skip(f"C kernel not in use: {compiled.status()}")
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env["CGTALG_PURE_PYTHON"] = "1" if pure else "0"
    try:
        run = subprocess.run([sys.executable, "-c", _SCRIPT, *FORMER_HANGS], capture_output=True,
                             text=True, timeout=120, env=env, cwd=ROOT)
    except subprocess.TimeoutExpired as exc:  # the regression: a hang
        pytest.fail(f"a former hang hangs again; finished:\n{exc.stdout}")
    assert run.returncode == 0, run.stderr[-2000:]
    rows = [line.split("\t") for line in run.stdout.splitlines()]
    assert [r[0] for r in rows] == FORMER_HANGS
    for expr, outcome, seconds in rows:
        assert outcome in ("ComputationLimitError", "FieldExtensionError", "OrdinalRangeError"), (expr, outcome)
        limit = 5.0 if "max_seconds" in expr else 3.0  # (a shared, loaded machine)
        assert float(seconds) < limit, (expr, seconds)


class _Alarm(Exception):
    pass


@contextlib.contextmanager
def _alarm(seconds: int):
    def handler(signum, frame):
        raise _Alarm()

    # CPU time (ITIMER_VIRTUAL), not the wall clock: a loaded machine is slower, not red
    old = signal.signal(signal.SIGVTALRM, handler)
    signal.setitimer(signal.ITIMER_VIRTUAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        signal.signal(signal.SIGVTALRM, old)


@skip_without_kernel(compiled.status() == "compiled", compiled.status())
def test_alarm_interrupts_a_long_kernel_call() -> None:
    start = time.process_time()
    with pytest.raises(_Alarm), _alarm(1):
        N.nim_sqrt(N.kappa(47), max_field_degree=10**6)  # about 20 s of C squarings
    assert time.process_time() - start < HANG_SECONDS
    # the kernel is left usable, and its products unchanged
    assert str(cg.nimber("w").sqrt()) == "*(ω^2·2)"
    assert N.nim_sqrt(N.kappa(3)) == R.ordinal_nim_sqrt(N.parse_ordinal("w"))
    w = cg.nimber("w")
    assert w * w * w == 2


def test_budget_stops_a_kernel_call_and_names_the_limit() -> None:
    start = time.process_time()
    with pytest.raises(ComputationLimitError, match="max_seconds=.*--time"):
        N.nim_sqrt(N.kappa(47), max_field_degree=10**6, max_seconds=0.5)
    assert time.process_time() - start < HANG_SECONDS


def test_a_stopped_computation_leaves_no_cost_to_the_next() -> None:
    """A computation stopped by its budget may have made a million monomial keys in the C
    kernel; the next operation does not mirror them (it used to spend seconds on it)."""
    from cgtalg.nimbers.engine import engine

    with pytest.raises(ComputationLimitError):
        N.nim_roots("x^2+x+w^(w^100)", max_field_degree=2**64, max_seconds=1)
    start = time.process_time()
    assert engine().degree_bound(cg.nimber("w^(w^13)+1")._v) == 237820
    assert str(cg.nimber("w").sqrt()) == "*(ω^2·2)"
    assert time.process_time() - start < HANG_SECONDS


def test_field_degree_refusal_names_the_limit() -> None:
    with pytest.raises(ComputationLimitError, match=r"GF\(2\^237820\).*max_field_degree = 65536"):
        N.nim_sqrt(N.kappa(47))
    assert N.nim_sqrt(N.kappa(23)) == N.nim_sqrt(N.kappa(23), max_field_degree=5060)


def test_memory_ceiling_stops_the_arithmetic() -> None:
    from cgtalg.nimbers.limits import nimber_budget

    with pytest.raises(ComputationLimitError, match="memory ceiling"):
        with nimber_budget(None, "a test", max_memory="1M"):
            N.nim_sqrt(N.kappa(47), max_field_degree=10**6)


def test_cli_time_and_field_limits() -> None:
    runner = CliRunner()
    start = time.process_time()
    result = runner.invoke(cli, ["nim", "sqrt", "w^(w^13)", "--max-field-degree", "999999", "--time", "1"])
    assert isinstance(result.exception, ComputationLimitError)
    assert "--time" in str(result.exception) and time.process_time() - start < HANG_SECONDS
    result = runner.invoke(cli, ["nim", "solve", "x^2+x+w^(w^13)", "--max-field-degree", "1"])
    assert "max_field_degree = 1" in str(result.exception)
    result = runner.invoke(cli, ["nim", "pow", "w", "7" * 400])  # any exponent, read exactly
    assert result.exit_code == 0, result.output
    result = runner.invoke(cli, ["nim", "root", "w", "0"])
    assert result.exit_code == 2 and "below 1" in result.output


def test_kappa_errors_are_cgtalgs() -> None:
    with pytest.raises(ComputationLimitError, match=r"kappa\(2\^64\).*2\^63 bits"):
        N.kappa(2**64)
    with pytest.raises(ComputationLimitError, match="cannot be held"):
        N.kappa(2**200)
    with pytest.raises(NimberError):
        N.kappa(12)
    with pytest.raises(NimberError):
        N.kappa(-(10**300))
    with pytest.raises(ComputationLimitError):
        N.kappa(3 * 10**2000 + 1)  # above 2^4096, not a power of 2
    assert N.kappa(2**5) == 1 << 16 and str(N.kappa(47)) == "w**(w**13)"


def test_messages_shorten_huge_inputs() -> None:
    huge = 10**200_000
    for call in (lambda: N.kappa(-huge), lambda: N.nim_pow(2, "7" * 200_000),
                 lambda: N.parse_ordinal("7" * 200_000 + "+"), lambda: cg.nimber(-huge),
                 lambda: N.alpha(huge), lambda: N.nim_root(2, huge)):
        with pytest.raises(CgtalgError) as info:
            call()
        assert len(str(info.value)) < 700, str(info.value)[:200]


def test_budget_arguments_are_checked() -> None:
    from cgtalg.errors import BudgetError

    for bad in (float("nan"), -1, "5", True):
        with pytest.raises(BudgetError):
            R.ordinal_nim_mul(N.parse_ordinal("w"), 2, max_seconds=bad)
        with pytest.raises(BudgetError):
            N.nim_pow(10**300, 3, max_seconds=bad)
    for bad in (0, -5, 1.5, "7", True):
        with pytest.raises(NimberError):
            N.nim_sqrt(N.kappa(3), max_field_degree=bad)


# ---------------------------------------------------------------------------------------------
# The seeded fuzz
# ---------------------------------------------------------------------------------------------

PER_INPUT_SECONDS = 5

ODD = [
    0, 1, 2, 3, 16, 255, 2**63, 2**64, 2**64 - 1, 2**200, 10**5000, -1, -(10**300), 1.5, 2.0,
    float("nan"), float("inf"), -0.0, True, False, None, "", "w", "ω^(ω^13)", "w^(w^13)", "w^(w^w)",
    "w^w^w^w", "(w+1)^(10^15)", "*5", "*", "7" * 5000, "w^(w^13)*3+w+1", "x^2+x+1", "1e9", "-3", "nan",
    "w^(w^100)", "w^(w^(10^15))", "☃", [1, 2], (3,), {1: 2}, np.int64(5), np.uint64(2**63),
    np.array([1, 2, 3]), np.array([7, 9]), np.array([-1]), np.array([1.5]), b"w", 3 + 4j, sympy.Integer(5),
    sympy.Rational(1, 2), sympy.oo, "w^(w^7)", "w^(w^2)*3+w+1",
]
#: well-formed values, drawn half of the time so that the arithmetic runs, not only the checks
VALID = [0, 1, 2, 3, 7, 255, 2**64 + 5, 10**300, "w", "w+1", "w^(w^13)", "w^(w^2)*3+w+1", "w^(w^7)",
         "w^w*5+3", sympy.Integer(9)]
_BUDGET = 1  # max_seconds given to the calls that take one


def _short(b: object) -> object:
    """``b`` as a max_seconds argument: valid budgets longer than ``_BUDGET`` are cut to it (so
    that no call may run past the per-input alarm); invalid ones are kept, to be refused."""
    if isinstance(b, (int, float, np.integer)) and not isinstance(b, bool):
        try:
            if float(b) > _BUDGET:
                return _BUDGET
        except OverflowError:
            pass
    return b


def _one_argument() -> list:
    return [
        cg.nimber, cg.ordinal, N.parse_nimber, N.parse_ordinal, N.nim_inv, N.nim_sqrt, N.kappa,
        N.alpha, N.nim_degree, R.ordinal_nim_inv, R.ordinal_nim_sqrt, N.fermat_field, N.field_degree,
        N.nim_square, N.nim_trace, N.as_ordinal, N.format_ordinal, N.parse_nim_polynomial, N.nim_roots,
        odd_prime,
        lambda a: N.kappa_field_degree([a]),
        lambda a: N.nim_outcome([a, 3]),
        lambda a: N.nim_winning_moves([a, 1]),
        lambda a: R.ordinal_nim_product([a, a], max_seconds=_BUDGET),
        lambda a: cg.nimber(a).sqrt(),
        lambda a: cg.nimber(a).inv(max_seconds=_BUDGET),
        lambda a: N.nim_solve_quadratic(a, 1, 1),
        lambda a: N.nim_roots({2: 1, 1: 1, 0: a}, max_field_degree=1),
        lambda a: N.nim_roots([1, 0, a], max_seconds=_BUDGET),
    ]


def _two_arguments() -> list:
    return [
        N.nim_add, N.nim_mul, N.nim_div, R.ordinal_nim_add, R.ordinal_nim_mul, R.ordinal_nim_div,
        lambda a, b: N.nim_pow(a, b, max_seconds=_BUDGET),
        lambda a, b: R.ordinal_nim_pow(a, b, max_seconds=_BUDGET),
        lambda a, b: N.nim_root(a, b, max_seconds=_BUDGET),
        lambda a, b: N.nim_root(a, 3, max_field_degree=b, max_seconds=_BUDGET),
        lambda a, b: N.nim_sqrt(a, max_field_degree=b, max_seconds=_BUDGET),
        lambda a, b: R.ordinal_nim_sqrt(a, max_seconds=_short(b)),
        lambda a, b: N.nim_roots("x^2+x+" + (a if isinstance(a, str) else "w"), max_field_degree=b,
                                 max_seconds=_BUDGET),
        lambda a, b: N.nim_roots("x^2+x+w", max_seconds=_short(b)),
        lambda a, b: R.ordinal_nim_pow(a, 10**30, max_seconds=_short(b)),
        lambda a, b: N.nim_solve_quadratic(1, a, b),
        lambda a, b: cg.nimber(a) * cg.nimber(b),
        # ``**`` has no budget argument (nim_pow has): huge exponents go through nim_pow
        lambda a, b: cg.nimber(a) ** b if not isinstance(b, int) or abs(b) < 2**64
        else N.nim_pow(cg.nimber(a), b, max_seconds=_BUDGET),
    ]


CLI_ARGS = ["w^(w^13)", "w", "2", "-3", "1e9", "nan", "7" * 5000, "w^(w^w)", "x^2+x+w^(w^13)",
            "x^2+x+1", "10**30", "0", "w^(w^7)", "x^99999+1", "(w+1)^(10^15)"]
CLI_ARITY = {"mul": 2, "add": 2, "div": 2, "inv": 1, "pow": 2, "sqrt": 1, "root": 2, "solve": 1, "play": 2}


def _cli(args: list) -> None:
    result = CliRunner().invoke(cli, args)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception  # a CgtalgError is fine; anything else fails the test
    assert "Traceback" not in result.output and "NeedAlpha" not in result.output


def _inputs(n: int, seed: int):
    rng = random.Random(seed)
    one, two = _one_argument(), _two_arguments()

    def value():
        valid = rng.random() < 0.5
        x = rng.choice(VALID if valid else ODD)
        if valid and isinstance(x, str) and rng.random() < 0.3:
            return cg.nimber(x) if rng.random() < 0.5 else N.parse_ordinal(x)
        return x

    for _ in range(n):
        r = rng.random()
        if r < 0.35:
            yield rng.choice(one), (value(),)
        elif r < 0.85:
            yield rng.choice(two), (value(), value())
        else:
            cmd = rng.choice(sorted(CLI_ARITY))
            extra = rng.choice([[], ["--max-field-degree", "1"], ["--json"], ["--time", "1"],
                                ["--max-field-degree", "999999999", "--time", "2"]])
            if cmd == "play":
                extra = [x for x in extra if x not in ("--max-field-degree", "1", "999999999", "--time", "2")]
            args = ["nim", cmd] + [rng.choice(CLI_ARGS) for _ in range(CLI_ARITY[cmd])] + extra
            yield _cli, (args,)


def test_fuzz_public_entry_points() -> None:
    failures = []
    start = time.process_time()
    for func, args in _inputs(200, seed=20):
        t = time.process_time()
        try:
            with _alarm(PER_INPUT_SECONDS):
                func(*args)
        except CgtalgError as exc:
            if len(str(exc)) > 1500:
                failures.append((func, args, f"message of {len(str(exc))} characters"))
        except _Alarm:
            failures.append((func, args, f"hang (> {PER_INPUT_SECONDS} s)"))
        except TypeError as exc:
            # An operator given an operand of another type returns NotImplemented, and Python
            # itself raises TypeError (the protocol that lets the other operand answer).
            if "unsupported operand" not in str(exc) and "not supported between" not in str(exc):
                failures.append((func, args, f"TypeError: {exc}"))
        except Exception as exc:  # noqa: BLE001 - the property under test
            failures.append((func, args, f"{type(exc).__name__}: {str(exc)[:200]}"))
        if time.process_time() - t > PER_INPUT_SECONDS + 1:
            failures.append((func, args, "slow (CPU)"))
    from cgtalg.nimbers.limits import short_repr

    shown = [f"{getattr(f, '__name__', f)}{short_repr(a, 150)}: {why}" for f, a, why in failures]
    assert not shown, "\n".join(shown)
    assert time.process_time() - start < 60  # CPU seconds: the whole fuzz is bounded
