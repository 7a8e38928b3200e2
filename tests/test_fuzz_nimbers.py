"""Hypothesis fuzz of the nimber parsers and ``cgtalg nim`` (issue 7).

Property: every input gives a value or a :class:`cgtalg.errors.CgtalgError` (never a generic
Python exception), within a per-input bound of CPU time enforced by a failing alarm (``ITIMER_VIRTUAL``).
Inputs mix random token strings with structured junk (deep nesting, exponent towers, huge
literals, unicode digits and superscripts, stray operators). The fixed ~20,000-input corpus
with before/after counts is ``benchmarks/fuzz_nimbers_corpus.py``.
"""

from __future__ import annotations

import contextlib
import io
import signal

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cgtalg.cli.main import main
from cgtalg.errors import CgtalgError
from cgtalg.nimbers.polynomials import parse_nim_polynomial
from cgtalg.nimbers.ordinal import ordinal

PER_INPUT_SECONDS = 5

TOKENS = ["w", "ω", "x", "0", "1", "2", "9", "12", "99999999999", "+", "*", "·", "^", "**",
          "(", ")", " ", "²", "１", "☃", "-", "e", "1" * 400]

random_text = st.lists(st.sampled_from(TOKENS), max_size=14).map("".join)
structured_text = st.one_of(
    st.integers(1, 100_000).map(lambda d: "(" * d + "1" + ")" * d),
    st.integers(2, 3000).map(lambda d: "^".join(["9"] * d)),
    st.tuples(st.integers(2, 99), st.integers(2, 99), st.integers(2, 99)).map(
        lambda t: f"{t[0]}^{t[1]}^{t[2]}"
    ),
    st.integers(1, 15).map(lambda k: f"(w+1)^{10 ** k}"),
    st.integers(1, 15).map(lambda k: f"9^(w+{10 ** k})"),
    st.integers(1, 200).map(lambda d: "w^" * d + "w"),
    st.integers(1, 30_000).map(lambda n: "+".join(["w"] * n)),
    st.integers(1, 6000).map(lambda n: "7" * n),
    st.integers(1, 15).map(lambda k: f"x^{10 ** k}+1"),
    st.text(max_size=12),
)
junk = st.one_of(random_text, structured_text)


@contextlib.contextmanager
def time_limit(seconds: int):
    def handler(signum, frame):
        raise TimeoutError(f"input took more than {seconds} s")

    old = signal.signal(signal.SIGVTALRM, handler)
    signal.setitimer(signal.ITIMER_VIRTUAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        signal.signal(signal.SIGVTALRM, old)


def _value_or_cgtalg_error(func, *args) -> None:
    with time_limit(PER_INPUT_SECONDS):
        try:
            func(*args)
        except CgtalgError:
            pass


FUZZ = settings(
    max_examples=150, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@FUZZ
@given(junk)
def test_fuzz_ordinal(text):
    _value_or_cgtalg_error(ordinal, text)


@FUZZ
@given(junk)
def test_fuzz_parse_nim_polynomial(text):
    _value_or_cgtalg_error(parse_nim_polynomial, text)


@settings(
    max_examples=120, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    st.sampled_from(["add", "mul", "div", "inv", "pow", "sqrt", "root", "solve", "play"]),
    junk,
    st.sampled_from(["w", "3", "-1", "0", "99999999999", "9^9^9"]),
)
def test_fuzz_nim_cli(cmd, text, other):
    if cmd in ("add", "mul", "div", "pow", "root"):
        args = ["nim", cmd, text, other]
    else:
        args = ["nim", cmd, text]
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        with time_limit(PER_INPUT_SECONDS):
            code = main(args)
    assert code in (0, 2)  # a value, or a cgtalg/usage error (exit 2); never a traceback
