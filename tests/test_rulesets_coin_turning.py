"""Coin-turning games (cgtalg.rulesets.coin_turning): every row's Grundy value checked against an
independent brute force (the rules written out here: each subset of coins tested against the
turning code's definition, then mex over the rows reached), against Winning Ways ch. 14's facts
and against CGSuite's test values (GameHeapTest.scala, GameStripTest.scala)."""

from __future__ import annotations

import itertools
import random

import pytest

from cgtalg.errors import ComputationLimitError, RulesetError
from cgtalg.rulesets.coin_turning import NAMED_TURNING, CoinTurning, Spawning, get_turning, parse_turning_code
from cgtalg.rulesets.registry import get_ruleset
from cgtalg.rulesets.solver import solve


# -- the rules, written out from the definition ------------------------------------------------
def element_allows(element: str, coins: tuple[int, ...]) -> bool:
    """Whether turning ``coins`` (increasing, numbered from 1) is allowed by one element of a
    turning code, read straight from its text: COUNT / LOW-HIGH / LOW+, then C (consecutive),
    E (equally spaced), S (symmetric), F (coin 1 turned), C(n) (within n adjacent coins)."""
    head = ""
    while element and (element[0].isdigit() or element[0] in "+-"):
        head, element = head + element[0], element[1:]
    if head.endswith("+"):
        low, high = int(head[:-1]), 10**9
    elif "-" in head:
        low, high = map(int, head.split("-"))
    else:
        low = high = int(head)
    span = None
    if "C(" in element:
        before, _, rest = element.partition("C(")
        span = int(rest.split(")")[0])
        element = before + rest.split(")", 1)[1]
    k = len(coins)
    if not low <= k <= high:
        return False
    if span is not None and coins[-1] - coins[0] >= span:
        return False
    if "F" in element and coins[0] != 1:
        return False
    gaps = [b - a for a, b in zip(coins, coins[1:])]
    if "C" in element and any(g != 1 for g in gaps):
        return False
    if "E" in element and len(set(gaps)) > 1:
        return False
    if "S" in element and len({coins[i] + coins[k - 1 - i] for i in range(k)}) > 1:
        return False
    return True


def brute_moves(code: str, row: str) -> set[str]:
    """Every row reached by turning a set of coins whose rightmost goes from heads to tails."""
    out = set()
    n = len(row)
    for k in range(1, n + 1):
        for coins in itertools.combinations(range(1, n + 1), k):
            if row[coins[-1] - 1] != "H":
                continue
            if any(element_allows(e, coins) for e in code.upper().split(",")):
                cells = list(row)
                for c in coins:
                    cells[c - 1] = "T" if cells[c - 1] == "H" else "H"
                out.add("".join(cells))
    return out


def brute_grundy(code: str, row: str, memo: dict) -> int:
    if row not in memo:
        vals = {brute_grundy(code, r, memo) for r in brute_moves(code, row)}
        g = 0
        while g in vals:
            g += 1
        memo[row] = g
    return memo[row]


def brute_misere_wins(code: str, row: str, memo: dict) -> bool:
    """Whether the player to move wins ``row`` in misère play (the last player to move loses)."""
    if row not in memo:
        opts = brute_moves(code, row)
        memo[row] = not opts or any(not brute_misere_wins(code, r, memo) for r in opts)
    return memo[row]


def rows(n: int):
    return ("".join(p) for p in itertools.product("HT", repeat=n))


CODES = sorted({code for code, _ in NAMED_TURNING.values()} | {"2-3,6C", "1-2E", "2S", "3C(4)", "1,3"})


@pytest.mark.parametrize("code", CODES)
def test_every_short_row_agrees_with_brute_force(code):
    game = CoinTurning(code)
    memo: dict = {}
    for n in range(0, 8):
        for row in rows(n):
            assert set(game.moves(row)) == brute_moves(code, row), (code, row)
            assert game.nim_value(row) == brute_grundy(code, row, memo), (code, row)


@pytest.mark.parametrize("code", ["1-3", "1+C", "3E", "4FS", "2"])
def test_generic_solver_on_rows_normal_and_misere(code):
    game = CoinTurning(code)
    normal: dict = {}
    misere: dict = {}
    rng = random.Random(7)
    for _ in range(12):
        row = "".join(rng.choice("HT") for _ in range(rng.randrange(1, 8)))
        s = solve(game, row)
        assert s.value == brute_grundy(code, row, normal) == game.nim_value(row)
        assert s.outcome == ("N" if s.value else "P")
        m = solve(game, row, misere=True)
        assert m.outcome == ("N" if brute_misere_wins(code, row, misere) else "P"), (code, row)


# -- Winning Ways ch. 14 facts, checked on the brute force ---------------------------------------
def test_turning_turtles_is_nim_with_heaps_at_the_heads_one_based():
    """Winning Ways ch. 14: Turning Turtles (turn one or two coins) is Nim, a head at coin n
    (coins numbered 1, 2, ... from the left, as CGSuite numbers them) being a heap of n."""
    memo: dict = {}
    tt = get_turning("turning-turtles")
    for n in range(0, 9):
        for row in rows(n):
            nim = 0
            for i, ch in enumerate(row):
                if ch == "H":
                    nim ^= i + 1
            assert brute_grundy("1-2", row, memo) == nim == tt.nim_value(row), row


def odious(count: int) -> list[int]:
    return [m for m in range(4 * count + 4) if bin(m).count("1") % 2][:count]


def test_mock_turtles_single_heads_are_the_odious_numbers():
    """Winning Ways ch. 14: a lone head in Mock Turtles (up to three coins) is worth the
    odious numbers 1, 2, 4, 7, 8, 11, ...: coin n (numbered from 1) the n-th of them (Winning
    Ways numbers these coins from 0)."""
    memo: dict = {}
    mt = get_turning("mock-turtles")
    want = odious(12)
    for n in range(1, 10):
        row = "T" * (n - 1) + "H"
        assert brute_grundy("1-3", row, memo) == want[n - 1]
    assert [mt.nim_value("T" * (n - 1) + "H") for n in range(1, 13)] == want


def test_ruler_single_heads_are_the_ruler_function():
    """Winning Ways ch. 14: in Ruler (any number of consecutive coins) a head at coin n is worth
    the largest power of 2 dividing n."""
    memo: dict = {}
    ruler = get_turning("ruler")
    for n in range(1, 10):
        row = "T" * (n - 1) + "H"
        assert brute_grundy("1+C", row, memo) == (n & -n) == ruler.nim_value(row)
    assert [ruler.nim_value("T" * (n - 1) + "H") for n in range(1, 33)] == [n & -n for n in range(1, 33)]


# -- CGSuite's test values ----------------------------------------------------------------------
# CGSuite lib/core/src/test/scala/org/cgsuite/lang/GameHeapTest.scala, "define other heap games
# properly": game.heap.Spawning(code) -- Options.Size of heap 20, nim values of heaps 1..20
CGSUITE_SPAWNING = [
    ("1-3", 191, [1, 2, 4, 7, 8, 11, 13, 14, 16, 19, 21, 22, 25, 26, 28, 31, 32, 35, 37, 38]),
    ("1-9", 169766, [1, 2, 4, 8, 16, 32, 64, 128, 256, 511, 512, 1024, 2048, 4096, 7711, 8192, 16384, 26215,
                     32768, 43691]),
    ("3", 171, [0, 0, 1, 2, 4, 7, 8, 11, 13, 14, 16, 19, 21, 22, 25, 26, 28, 31, 32, 35]),
    ("1+C", 20, [1, 2, 1, 4, 1, 2, 1, 8, 1, 2, 1, 4, 1, 2, 1, 16, 1, 2, 1, 4]),
    ("1-3C(5)", 11, [1, 2, 4, 7, 8] * 4),
    ("3C(5)", 6, [0, 0, 1, 2, 4] * 4),
    ("1-5C", 5, [1, 2, 1, 4] * 5),
    ("3E", 9, [0, 0, 1, 0, 0, 1, 2, 2, 1, 0, 0, 1, 0, 0, 1, 2, 2, 1, 4, 4]),
    ("4FS", 9, [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3]),
    ("1+S", 2046, [1, 2, 4, 3, 6, 7, 8, 16, 18, 25, 32, 11, 64, 31, 128, 10, 256, 5, 512, 28]),
]


@pytest.mark.parametrize("code, options, values", CGSUITE_SPAWNING)
def test_cgsuite_spawning_values(code, options, values):
    heaps = Spawning(code)
    assert len(list(heaps.heap_options(20))) == options
    upto = 14 if code == "1-9" else 20        # Moidores' options grow fast: its first 14 values
    assert heaps.grundy_sequence(upto + 1).tolist()[1:] == values[:upto]
    game = CoinTurning(code)
    assert [game.nim_value("T" * (n - 1) + "H") for n in range(1, upto + 1)] == values[:upto]


def test_cgsuite_turning_strip_value():
    # CGSuite lib/core/src/test/scala/org/cgsuite/lang/GameStripTest.scala:
    # game.strip.Turning("1-3")("htththtth").NimValue == 29
    mt = CoinTurning("1-3")
    assert mt.nim_value(mt.parse_position("htththtth")) == 29
    assert brute_grundy("1-3", "HTTHTHTTH", {}) == 29


# -- names, text, errors ------------------------------------------------------------------------
def test_registry_names():
    for name, (code, _) in NAMED_TURNING.items():
        r = get_ruleset(name)
        assert r.name == name and r.code == Spawning(code).code
    assert get_ruleset("Mock-Turtles").nim_value("THTTH") == 2 ^ 8       # coins 2 and 5: odious 2, 8
    assert get_ruleset("turning:1-2").nim_value("THTTH") == 2 ^ 5
    assert get_ruleset("turning:1-3C(5)").name == "turning:1-3C(5)"
    assert get_ruleset("spawning:1+C").grundy_value(12) == 4


def test_position_text():
    g = CoinTurning("1-2")
    assert g.parse_position(" thTTh ") == "THTTH"
    assert g.format_position("THTTH") == "THTTH"
    assert g.parse_position("empty") == "" and g.format_position("") == "empty"
    assert g.nim_value("") == 0


@pytest.mark.parametrize("text", ["THXH", "TH TH", "1010", "H-T"])
def test_bad_rows_refused(text):
    with pytest.raises(RulesetError, match="unexpected"):
        CoinTurning("1-2").parse_position(text)


def test_bad_positions_refused():
    g = CoinTurning("1-2")
    for bad in ("THx", ("H", "T"), 5):
        with pytest.raises(RulesetError):
            g.check_position(bad)
    with pytest.raises(RulesetError, match="str"):
        g.parse_position(5)


@pytest.mark.parametrize("code", ["", "0-2", "3-1", "1-3X", "CE", "1-3CE", "2C(0)", "1-", "a", "2F F", "1,", "3C(2)C(3)"])
def test_bad_codes_refused(code):
    with pytest.raises(RulesetError):
        parse_turning_code(code)
    with pytest.raises(RulesetError):
        CoinTurning(code)


def test_big_rows_refused_before_walking():
    g = get_turning("mock-turtles")
    row = "T" * 59 + "H"
    with pytest.raises(ComputationLimitError):
        solve(g, row)
    assert g.nim_value(row) == odious(60)[59]
