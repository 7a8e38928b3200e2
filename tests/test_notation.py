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
        ("*2++", 3, "expected a game: 0, *, *n, {...}, *[...], (...) or name(n, ...)"),
        ("", 0, "empty game text"),
        ("*[2,]", 4, "expected an item after ','"),
        # ("{1|0}" is partizan notation since issue 11, and a bare number such as "3" since
        # issue 32: cg.parse reads them as PartizanGames, test_bare_numbers_are_numbers)
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


def test_bare_numbers_are_numbers():
    # CGSuite's reading (issue 32): "3" is the integer 3 = {2|} (Siegel CGT II.3), "2 + *" the
    # literal sum of 2 and *, and "{1, 0}" the form with options 1 and 0 for both players; the
    # digits of a nim-heap (*12) and of misère notation (*[12,3]) are no numbers
    three = cg.parse("3")
    assert isinstance(three, cg.PartizanGame) and str(three) == "3"
    assert three.left == (cg.parse("2"),) and three.right == ()
    assert cg.parse("2 + *") is cg.parse("2") + cg.parse("*")
    assert cg.parse("{1, 0}").left == cg.parse("{1, 0}").right
    assert isinstance(cg.parse("*12"), cg.Game) and isinstance(cg.parse("*[12,3]"), cg.Game)


def test_very_deep_forms_print_and_parse():
    deep = cg.zero
    for _ in range(20000):
        deep = cg.game([deep])
    text = str(deep)
    assert len(text) == 2 * 19999 + 1  # {0} prints as *, wrapped 19999 times
    assert cg.parse(text) is deep


def _doubling(k: int) -> cg.Game:
    """A DAG of k+1 nodes whose literal text has about 2^k characters: G_{i+1} = {G_i, {G_i}}."""
    g = cg.zero
    for _ in range(k):
        g = cg.game([g, cg.game([g])])
    return g


def test_cut_text_is_a_prefix_and_never_built_in_full():
    from cgtalg.core.notation import text_lengths

    small = _doubling(9)
    full = cg.format_game(small)
    assert text_lengths(small)[small.id] == len(full)
    for cut in (5, 50, 500):
        assert cg.format_game(small, max_chars=cut) == full[: cut - 3] + "..."
    huge = _doubling(60)  # about 2^60 characters: only a prefix may ever be written
    assert text_lengths(huge)[huge.id] > 2**59
    head = cg.format_game(huge, max_chars=80)
    assert len(head) == 80 and head.startswith("{") and head.endswith("...")
    assert len(str(huge)) == 1_000_000 and repr(huge).startswith("Game('{")


def test_game_json_text_or_dag():
    from cgtalg.core.notation import game_from_json, game_to_json

    g = cg.parse("{0, {*2}}")
    assert game_to_json(g) == "{0, {*2}}" and game_from_json("{0, {*2}}") is g
    huge = _doubling(60)
    encoded = game_to_json(huge)
    assert isinstance(encoded, dict) and len(encoded["dag"]) == len(huge.subpositions())
    assert game_from_json(encoded) is huge
    with pytest.raises(GameNotationError, match="DAG node 1 must list indices of earlier nodes"):
        game_from_json({"dag": [[], [1]]})


def test_sum_text_does_not_depend_on_build_order():
    """A sum prints its terms in one order (shortest first) whatever order it was built in:
    the hash-consed form remembers only the first decomposition it was made by."""
    import subprocess
    import sys

    code = (
        "import cgtalg as cg\n"
        "a, b, c = cg.nim(5), cg.parse('{*2}'), cg.nim(1)\n"
        "g = ORDER\n"
        "print(str(g), str(cg.parse('*2+*')), str(cg.parse('*+*2')))\n"
    )
    outs = {
        subprocess.run(
            [sys.executable, "-c", code.replace("ORDER", order)], capture_output=True, text=True, check=True
        ).stdout
        for order in ("(a + b) + c", "c + (b + a)", "(b + c) + a")
    }
    assert outs == {"*+*5+{*2} *+*2 *+*2\n"}


def test_cut_sum_text_is_a_prefix_of_the_full_text():
    from cgtalg.core.notation import format_game

    # long enough (> 64 characters) that the cut text is written term by term, not sliced
    chain = lambda k, t: cg.parse("{" * k + t + "}" * k)  # noqa: E731 - tiny DAGs, long texts
    g = chain(9, "*3") + cg.nim(7) + chain(11, "*2") + chain(10, "*4, *") + cg.nim(2)
    full = format_game(g)
    assert len(full) > 64
    for budget in (5, 10, 25, 60, len(full) - 1):
        assert format_game(g, budget) == full[: budget - 3] + "...", budget
