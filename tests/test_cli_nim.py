"""Regression tests for issue 7: nimber inputs that never hang or crash, and ``cgtalg nim``.

Each example quoted in the issue (RecursionError, MemoryError, two hangs) is run in-process
through :func:`cgtalg.cli.main.main` under a failing CPU-time alarm (``ITIMER_VIRTUAL``), and must end in
one cgtalg error (exit code 2) naming the limit. Expected values of the successful commands
come from the module docstrings (Conway, *On Numbers and Games*, ch. 6; Lenstra 1977) and are
cross-checked against the definitions by brute force where cheap.
"""

from __future__ import annotations

import signal
from contextlib import contextmanager

import pytest

from cgtalg.cli.main import main
from cgtalg.errors import (
    CgtalgError,
    ComputationLimitError,
    OrdinalNotationError,
    OrdinalRangeError,
    PolynomialNotationError,
)
from cgtalg.nimbers import ordinal as ordmod
from cgtalg.nimbers.finite import nim_mul as finite_mul
from cgtalg.nimbers.polynomials import parse_nim_polynomial
from cgtalg.nimbers.roots import nim_root, nim_roots
from cgtalg.nimbers.ordinal import ordinal
from cgtalg.nimbers.transfinite_nim import MAX_HEAPS, nim_outcome


@contextmanager
def time_limit(seconds: int):
    def handler(signum, frame):  # pragma: no cover - only on failure
        raise TimeoutError(f"took more than {seconds} s")

    # CPU time (ITIMER_VIRTUAL), not a wall-clock alarm: a loaded machine is slower, not red
    old = signal.signal(signal.SIGVTALRM, handler)
    signal.setitimer(signal.ITIMER_VIRTUAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        signal.signal(signal.SIGVTALRM, old)


def run(args: list[str], capsys) -> tuple[int, str, str]:
    with time_limit(10):
        code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


# --- the four CLI examples of the issue -------------------------------------------------


def test_deep_nesting_in_mul_is_a_notation_error_not_recursion(capsys):
    deep = "(" * 100_000 + "1" + ")" * 100_000
    code, out, err = run(["nim", "mul", deep, "w"], capsys)
    assert code == 2
    assert "MAX_TEXT_LENGTH" in err and "RecursionError" not in err
    # below the length limit, the nesting limit names itself with the position
    nested = "(" * 500 + "1" + ")" * 500
    with pytest.raises(OrdinalNotationError, match="MAX_NESTING_DEPTH = 64") as info:
        ordinal(nested)
    assert info.value.position == ordmod.MAX_NESTING_DEPTH
    tower = "^".join(["2"] * 200)
    with pytest.raises(OrdinalNotationError, match="MAX_NESTING_DEPTH"):
        ordinal(tower)


def test_root_with_huge_n_is_refused_up_front(capsys):
    code, out, err = run(["nim", "root", "2", "99999999999"], capsys)
    assert code == 2
    assert "max_degree = 16" in err and "--max-degree" in err and "MemoryError" not in err
    with pytest.raises(ComputationLimitError, match="99999999999 roots"):
        nim_root(2, 99999999999)
    # the 2-power part only costs square roots, the limit on it is named too
    with pytest.raises(ComputationLimitError, match="4096"):
        nim_root(2, 2**5000)
    assert nim_root(0, 99999999999) == [0]  # 0 is the only root of x^n = 0


def test_solve_huge_degree_is_refused_up_front(capsys):
    code, out, err = run(["nim", "solve", "x^1000000+1"], capsys)
    assert code == 2 and "MAX_POLY_DEGREE = 100000" in err
    code, out, err = run(["nim", "solve", "x^1000+1"], capsys)
    assert code == 2 and "max_degree = 16" in err and "--max-degree" in err
    with pytest.raises(ComputationLimitError, match="degree 1000 > max_degree = 16"):
        nim_roots("x^1000+1")
    with pytest.raises(ComputationLimitError, match="max_degree"):
        nim_roots({10**12: 1, 0: 1})
    with pytest.raises(PolynomialNotationError, match="MAX_POLY_DEGREE"):
        parse_nim_polynomial("x^99999999999999")


def test_exponent_tower_is_refused_before_computing(capsys):
    code, out, err = run(["nim", "mul", "9^9^9", "w"], capsys)
    assert code == 2 and "MAX_FINITE_BITS = 1024" in err and "refused before computing" in err
    for text in ["9^9^9", "2^1024", "9^(w+99999999)", "(w+1)^1000000000", "(w*3+1)^(10^9)"]:
        with pytest.raises(OrdinalRangeError, match="MAX_"):
            ordinal(text)
    # just under the bound is computed, and exactly (brute force: Python integers)
    assert ordinal("2^1023") == 2**1023
    assert ordinal("9^9") == 9**9
    assert ordinal("(w*3+w)^(10^9)") == ordinal("w^(10^9)*4")  # single-term base: no blow-up
    assert ordinal("(w+1)^3") == ordinal("w^3+w^2+w+1")  # (ω+1)^3 by hand, ordinal arithmetic


def test_literals_and_unicode(capsys):
    with pytest.raises(OrdinalNotationError, match="integer literal of 400 digits"):
        ordinal("1" * 400)
    with pytest.raises(OrdinalNotationError, match="non-ASCII digit '²'") as info:
        ordinal("ω²")
    assert info.value.position == 1
    with pytest.raises(OrdinalNotationError, match="non-ASCII digit '１'"):
        ordinal("１２")
    with pytest.raises(OrdinalNotationError, match="expected an integer, 'w' or '\\('"):
        ordinal("w+☃")


def test_transfinite_nim_heap_bound():
    with pytest.raises(ComputationLimitError, match=f"MAX_HEAPS = {MAX_HEAPS}"):
        nim_outcome([1] * (MAX_HEAPS + 1))
    # P-position iff the nim-sum is 0 (Bouton); 1 ⊕ 2 ⊕ 3 = 0
    assert nim_outcome([1, 2, 3]) == "P"


# --- every subcommand: a value, or one cgtalg error with exit 2 -------------------------


def test_successful_commands(capsys):
    code, out, err = run(["nim", "root", "2", "3"], capsys)
    assert code == 0 and out.strip() == "ω, ω·2, ω·3"
    code, out, err = run(["nim", "mul", "5", "6"], capsys)
    assert code == 0 and int(out) == finite_mul(5, 6) == 8  # ONAG table: 5 ⊗ 6 = 8
    code, out, err = run(["nim", "solve", "x^3+2", "--max-degree", "3"], capsys)
    assert code == 0 and "ω, ω·2, ω·3" in out


@pytest.mark.parametrize(
    "args",
    [
        ["nim", "add", "w+", "1"],
        ["nim", "mul", "9^9^9", "9^9^9"],
        ["nim", "div", "w", "0"],
        ["nim", "inv", "0"],
        ["nim", "pow", "0", "-1"],
        ["nim", "pow", "2^2000", "3"],
        ["nim", "sqrt", "w^(w^w)"],
        ["nim", "root", "w", "0"],
        ["nim", "solve", "x^2+"],
        ["nim", "solve", "5"],
        ["nim", "play", "w^^2"],
    ],
)
def test_failures_are_cgtalg_errors(args, capsys):
    code, out, err = run(args, capsys)
    assert code == 2
    assert err.startswith("cgtalg: error: ") or err.startswith("{") or out.startswith("{")


def test_max_degree_option_is_validated(capsys):
    code, out, err = run(["nim", "solve", "x^2+x+1", "--max-degree", "0"], capsys)
    assert code == 2 and "--max-degree" in err


def test_cgtalg_error_is_the_only_failure_type():
    for text in ["", "(", "w^", "w**", "((w)", ")", "ww", "w w", "1 2", "·", "+1"]:
        with pytest.raises(CgtalgError):
            ordinal(text)


def test_operands_in_huge_fields_are_refused(capsys):
    # found by benchmarks/fuzz_nimbers_corpus.py: (ω+2)^1000 lies in GF(2^4374) (κ-field of
    # ω^1000: 2·3^7, Lenstra 1977), where inv/pow/sqrt took minutes
    for args in (["nim", "pow", "(w+2)^1000", "3"], ["nim", "inv", "(w+9)^1000"],
                 ["nim", "mul", "(w+9)^1000", "w"]):
        code, out, err = run(args, capsys)
        assert code == 2 and "GF(2^" in err and "--max-field-degree = 2048" in err
    code, out, err = run(["nim", "sqrt", "w", "--max-field-degree", "6"], capsys)
    assert code == 0 and out.strip() == "ω^2·2"  # √ω = ω²·2 (module docstring, checked below)
    code, out, err = run(["nim", "mul", "w^2*2", "w^2*2"], capsys)
    assert code == 0 and out.strip() == "ω"
    code, out, err = run(["nim", "solve", "x^28+x+w"], capsys)
    assert code == 2 and "max_degree = 16" in err
