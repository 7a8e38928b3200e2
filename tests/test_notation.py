"""Game notation: literal forms and CGSuite's misère notation (parse side)."""

from __future__ import annotations

import random

import pytest

import cgtalg as cg
from cgtalg.errors import GameNotationError


@pytest.mark.parametrize(
    "text, expected",
    [
        ("0", lambda: cg.zero),
        ("{}", lambda: cg.zero),
        ("*", lambda: cg.nim(1)),
        ("*5", lambda: cg.nim(5)),
        ("{*, *2}", lambda: cg.game([cg.nim(1), cg.nim(2)])),
        ("{0, {*2}}", lambda: cg.game([cg.zero, cg.game([cg.nim(2)])])),
        ("*2+*3", lambda: cg.nim(2) + cg.nim(3)),
        ("( *2 + *3 ) + {*}", lambda: cg.nim(2) + cg.nim(3) + cg.game([cg.nim(1)])),
        # CGSuite misère notation (CGSuite misère tutorial; notes/misere.md)
        ("*[2]", lambda: cg.nim(2)),
        ("*[0]", lambda: cg.zero),
        ("*[42]", lambda: cg.game([cg.nim(4), cg.nim(2)])),
        ("*[2#]", lambda: cg.game([cg.nim(2)])),
        ("*[2[2]]", lambda: cg.nim(2) + cg.nim(2)),
        ("*[2#[2]#]", lambda: cg.game([cg.game([cg.nim(2)]) + cg.nim(2)])),
        ("*[2#1]", lambda: cg.game([cg.game([cg.nim(2)]), cg.nim(1)])),
        ("*[12,3]", lambda: cg.game([cg.nim(12), cg.nim(3)])),
        ("*[[4,2],4,3,1]", lambda: cg.game([cg.game([cg.nim(4), cg.nim(2)]), cg.nim(4), cg.nim(3), cg.nim(1)])),
        ("*[[2],2,1,0]", lambda: cg.game([cg.game([cg.nim(2)]), cg.nim(2), cg.nim(1), cg.zero])),
    ],
)
def test_parse(text, expected):
    assert cg.parse(text) is expected()


def test_format_round_trips_random_forms():
    rng = random.Random(3)

    def rand(depth):
        if depth == 0:
            return cg.zero
        return cg.game(rand(rng.randint(0, depth - 1)) for _ in range(rng.randint(0, 3)))

    for _ in range(200):
        g = rand(5)
        assert cg.parse(str(g)) is g
    g = cg.nim(3) + cg.parse("{0, {*2}}")
    assert cg.parse(str(g)) is g


def test_format_prefers_short_text():
    assert str(cg.nim(2) + cg.nim(3)) == "*2+*3"
    assert str(cg.nim(1) + cg.nim(1)) == "{*}"
    assert str(cg.parse("{*2, 0}")) == "{0, *2}"


@pytest.mark.parametrize(
    "text, position, reason",
    [
        ("{*2,", 4, "unexpected end of input: expected a game"),
        ("*[2#", 4, "unclosed bracket: expected ']'"),
        ("{*2 *3}", 4, "expected ',' or '}' after an option"),
        ("3", 0, "a bare number 3 is not an impartial game; write *3 for the nim-heap"),
        ("*2++", 3, "expected a game: 0, *, *n, {...}, *[...] or (...)"),
        ("", 0, "empty game text"),
        ("*[2,]", 4, "expected an item after ','"),
        ("{1|0}", 1, "a bare number 1 is not an impartial game; write *1 for the nim-heap"),
        ("*2 )", 3, "unexpected character after a complete game"),
    ],
)
def test_parse_errors_point_at_the_problem(text, position, reason):
    with pytest.raises(GameNotationError) as info:
        cg.parse(text)
    err = info.value
    assert err.position == position and err.reason == reason
    assert str(err).startswith(f"bad game notation {text!r} at position {position}")
    assert isinstance(err, ValueError) and isinstance(err, cg.errors.CgtalgError)


def test_very_deep_forms_print_and_parse():
    deep = cg.zero
    for _ in range(20000):
        deep = cg.game([deep])
    text = str(deep)
    assert len(text) == 2 * 19999 + 1  # {0} prints as *, wrapped 19999 times
    assert cg.parse(text) is deep
