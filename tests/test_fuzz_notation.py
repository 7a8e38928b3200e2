"""Fuzzing :func:`cgtalg.parse` (issue 7): random and structured junk must give a Game or a
specific :class:`cgtalg.errors.CgtalgError` (never a generic Python exception), and each input
must finish within a time bound enforced by an alarm (a hang fails the test; no speed assert).

Inputs: arbitrary unicode text; text over the grammar's own alphabet (braces, brackets, ``*``,
``#``, digits, unicode digits, identifiers); and valid game texts (generated from the grammar)
mutated by inserting, deleting or replacing characters, and repeated or nested deeply.
"""

from __future__ import annotations

import signal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cgtalg as cg
from cgtalg.errors import CgtalgError

#: seconds one input may take before the test fails as a hang
TIME_BOUND = 5


class _Hang(Exception):
    pass


def _alarm(signum, frame):
    raise _Hang()


def parse_within_bound(text: str) -> None:
    """parse(text) must return a Game or raise a CgtalgError, within TIME_BOUND seconds."""
    old = signal.signal(signal.SIGVTALRM, _alarm)
    signal.setitimer(signal.ITIMER_VIRTUAL, TIME_BOUND)
    try:
        result = cg.parse(text)
    except CgtalgError:
        return
    except _Hang:
        pytest.fail(f"parse hung for more than {TIME_BOUND} s on {text[:200]!r}")
    except Exception as exc:  # the bug this test hunts: a generic Python exception
        pytest.fail(f"parse raised {type(exc).__name__}: {exc} on {text[:200]!r}")
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        signal.signal(signal.SIGVTALRM, old)
    assert isinstance(result, (cg.Game, cg.PartizanGame))  # partizan text since issue 11


ALPHABET = list("{}[]()<>,+*#| 0123456789-.^_") + ["²", "٣", "৪", "½", "\u2003", "kayles", "foo", "x", "\n"]

atoms = st.one_of(
    st.just("0"), st.just("*"),
    st.integers(0, 12).map(lambda n: f"*{n}"),
    st.integers(0, 10**30).map(lambda n: f"*{n}"),
    st.integers(0, 6).map(lambda n: f"kayles({n})"),
    st.text(alphabet="0123456789#", min_size=1, max_size=6).map(lambda s: f"*[{s}]"),
)


def _extend(children):
    return st.one_of(
        st.lists(children, max_size=4).map(lambda xs: "{" + ", ".join(xs) + "}"),
        st.tuples(children, children).map(lambda p: f"{p[0]}+{p[1]}"),
        children.map(lambda x: f"({x})"),
        st.lists(children, min_size=1, max_size=3).map(lambda xs: "*[" + ",".join(
            x.replace("*", "") for x in xs) + "]"),
    )


valid_ish = st.recursive(atoms, _extend, max_leaves=12)


@st.composite
def mutated(draw):
    text = draw(valid_ish)
    for _ in range(draw(st.integers(0, 4))):
        i = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["insert", "delete", "replace"]))
        ch = draw(st.sampled_from(ALPHABET))
        if op == "insert":
            text = text[:i] + ch + text[i:]
        elif op == "delete":
            text = text[:i] + text[i + 1:]
        else:
            text = text[:i] + ch + text[i + 1:]
    return text


@st.composite
def deep(draw):
    opener, closer = draw(st.sampled_from([("{", "}"), ("(", ")"), ("*[", "]"), ("[", "]"), ("*[(", ")]")]))
    depth = draw(st.integers(1, 60_000))
    inner = draw(st.sampled_from(["", "0", "*2", "1", "*[2#]"]))
    close = draw(st.integers(0, depth))
    return opener * depth + inner + closer * close


FUZZ = settings(max_examples=250, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@FUZZ
@given(st.text(max_size=60))
def test_fuzz_arbitrary_text(text):
    parse_within_bound(text)


@FUZZ
@given(st.lists(st.sampled_from(ALPHABET), max_size=40).map("".join))
def test_fuzz_grammar_alphabet(text):
    parse_within_bound(text)


@FUZZ
@given(mutated())
def test_fuzz_mutated_game_texts(text):
    parse_within_bound(text)


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(deep())
def test_fuzz_deep_nesting(text):
    parse_within_bound(text)


KNOWN_BAD = [
    "*²", "*" + "9" * 5000, "*" + "9" * 200_000, "{" * 100_000 + "}" * 100_000,
    "*[" + "[" * 100_000, "kayles(99999999999999)", "kayles(", "*[1[", "*99999999999+*99999999999",
    "{*99999999999}+{*99999999999}", "*200+*200+*200", "\x00", "*[2#[2]#]" * 50,
]


@pytest.mark.parametrize("text", KNOWN_BAD, ids=[f"input{i}" for i in range(len(KNOWN_BAD))])
def test_known_bad_inputs_fail_cleanly(text):
    parse_within_bound(text)
