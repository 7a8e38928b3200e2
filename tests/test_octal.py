"""Octal / hexadecimal codes: parsing, errors, standard text, moves, forms, cousins.

Sources: seed 001 (A. N. Walker, "Octal Games": digit bits, 0.0423 -> 0.0073 -> 0.0137 ->
0.11337, 0.04 and 0.007 with standard form 0.11337); the task notes (0.07 -> 0.137,
0.6 -> 0.37); seed 004 (Kayles, 0.77); OEIS A002187 (0.07 has values of 0.137 shifted by 1).
"""

from __future__ import annotations

import random

import pytest

import cgtalg as cg
from cgtalg.errors import OctalCodeError, RulesetError
from cgtalg.rulesets.heaps.octal import SubtractionGame, TakeAndBreak, octal, parse_code


# -- a plain-Python reference written from the definition of the digit bits ------------


def ref_options(d0, digits, tail, n):
    """Options of a heap of n from the digit bits, written independently of the library."""

    def d(t):
        if t == 0:
            return d0
        if t <= len(digits):
            return digits[t - 1]
        if tail:
            return tail[(t - len(digits) - 1) % len(tail)]
        return 0

    out = set()
    for t in range(0, n + 1):
        dt = d(t)
        rest = n - t
        if rest == 0 and dt & 1 and t > 0:
            out.add(())
        if rest >= 1 and dt & 2 and t > 0:
            out.add((rest,))
        if rest >= 2 and dt & 4:
            for a in range(1, rest // 2 + 1):
                out.add((a, rest - a))
        if rest >= 3 and dt & 8:
            for a in range(1, rest):
                for b in range(a, rest):
                    c = rest - a - b
                    if c >= b:
                        out.add((a, b, c))
    return out


def ref_grundy(d0, digits, tail, N):
    G = [0] * N
    for n in range(1, N):
        vals = set()
        for parts in ref_options(d0, digits, tail, n):
            x = 0
            for p in parts:
                x ^= G[p]
            vals.add(x)
        v = 0
        while v in vals:
            v += 1
        G[n] = v
    return G


# -- parsing and standard text --------------------------------------------------------------


@pytest.mark.parametrize(
    "text, std, d0, digits, tail",
    [
        ("0.77", "0.77", 0, (7, 7), ()),
        (".77", "0.77", 0, (7, 7), ()),
        ("0.770", "0.77", 0, (7, 7), ()),
        ("  0.137 ", "0.137", 0, (1, 3, 7), ()),
        ("4.07", "4.07", 4, (0, 7), ()),
        ("4.0", "4.0", 4, (), ()),
        ("0.0", "0.0", 0, (), ()),
        ("0.[3]", "0.[3]", 0, (), (3,)),
        ("0.3[33]", "0.[3]", 0, (), (3,)),
        ("0.33[3]", "0.[3]", 0, (), (3,)),
        ("0.1[71]", "0.[17]", 0, (), (1, 7)),
        ("0.00[3]", "0.00[3]", 0, (0, 0), (3,)),
        ("0.7[0]", "0.7", 0, (7,), ()),
        ("0x0.B", "0x0.B", 0, (11,), ()),
        ("0X0.f7", "0x0.F7", 0, (15, 7), ()),
        ("hex:0.b", "0x0.B", 0, (11,), ()),
        ("0x0.77", "0.77", 0, (7, 7), ()),
        ("0x8.1", "0x8.1", 8, (1,), ()),
        ("0xC.[F]", "0xC.[F]", 12, (), (15,)),
    ],
)
def test_parse_and_standard_text(text, std, d0, digits, tail):
    code = TakeAndBreak(text)
    assert str(code) == std == code.name
    assert (code.d0, code.digits, code.tail) == (d0, digits, tail)
    assert TakeAndBreak(std) == code and hash(TakeAndBreak(std)) == hash(code)
    assert octal is TakeAndBreak


@pytest.mark.parametrize(
    "text, position, reason",
    [
        ("", None, "empty code: expected a code such as 0.77 or 0x0.B"),
        ("   ", None, "empty code"),
        ("0.8", 2, "'8' is not an octal digit (0-7); write hexadecimal codes with the prefix 0x, e.g. 0x0.8"),
        ("0.79", 3, "'9' is not an octal digit"),
        ("0.B", 2, "hexadecimal digit 'B' in an octal code; write hexadecimal codes with the prefix 0x, e.g. 0x0.B"),
        ("0.7z", 3, "unexpected character 'z': octal code digits are 0-7"),
        ("0x0.7G", 5, "unexpected character 'G': hexadecimal digits are 0-9 and A-F"),
        ("1.7", 0, "d0 = 1 is not allowed: the digit before the point may only be 0 or 4"),
        ("2.7", 0, "d0 = 2 is not allowed"),
        ("0x3.7", 2, "may only be 0, 4, 8 or C"),
        ("0.", 2, "nothing after the point: expected digits such as 0.77"),
        ("4.", 2, "nothing after the point"),
        ("077", 1, "expected '.' after the digit d0 = 0"),
        ("0.[3", 4, "unbalanced bracket: the '[' at position 2 is never closed (expected ']')"),
        ("0.3]", 3, "unbalanced bracket: ']' without a matching '['"),
        ("0.[]", 3, "empty repeating group '[]'"),
        ("0.[3]7", 5, "nothing may follow the repeating group"),
        ("0.[[3]]", 3, "nested '['"),
        ("0.7.7", 3, "a second '.': a code has one point"),
    ],
)
def test_malformed_codes_name_the_character_and_why(text, position, reason):
    with pytest.raises(OctalCodeError) as info:
        TakeAndBreak(text)
    err = info.value
    assert err.position == position
    assert reason in err.reason
    assert err.text == text
    if position is not None:
        shown = text[position] if position < len(text) else "end of input"
        assert f"at position {position} ({shown!r})" in str(err)
    assert isinstance(err, ValueError)


def test_parse_code_rejects_non_text():
    with pytest.raises(OctalCodeError, match="a code must be text"):
        parse_code(77)


def test_code_properties():
    k = TakeAndBreak("0.77")
    assert (k.k, k.is_finite, k.is_hexadecimal, k.max_heaps) == (2, True, False, 2)
    assert TakeAndBreak("0.[3]").k is None
    assert TakeAndBreak("0x0.B").max_heaps == 3
    assert TakeAndBreak("0.33").max_heaps == 1
    assert [TakeAndBreak("0.1[37]").digit(t) for t in range(7)] == [0, 1, 3, 7, 3, 7, 3]


# -- moves ------------------------------------------------------------------------------------


def _random_code(rng, hexa=False, infinite=False):
    d0 = rng.choice([0, 0, 4] + ([8, 12] if hexa else []))
    top = 15 if hexa else 7
    digits = tuple(rng.randint(0, top) for _ in range(rng.randint(1, 4)))
    tail = tuple(rng.randint(0, top) for _ in range(rng.randint(1, 2))) if infinite else ()
    return d0, digits, tail


def test_heap_options_match_the_digit_bits():
    rng = random.Random(7)
    for _ in range(150):
        d0, digits, tail = _random_code(rng, hexa=rng.random() < 0.3, infinite=rng.random() < 0.3)
        code = TakeAndBreak.from_digits(d0, digits, tail)
        for n in range(0, 13):
            got = list(code.heap_options(n))
            assert len(got) == len(set(got)), (code, n)
            assert set(got) == ref_options(code.d0, code.digits, code.tail, n), (code, n)


def test_moves_of_positions_and_protocol():
    k = TakeAndBreak("0.77")
    assert sorted(k.moves(4)) == [(1, 1), (1, 2), (2,), (3,)]
    assert sorted(k.moves((1, 2))) == [(1,), (1, 1), (2,)]
    assert k.components((3, 1, 0, 3)) == [(1,), (3,), (3,)]
    assert k.parse_position("5 9, 12") == (5, 9, 12) == k.parse_position("(12+9+5)")
    assert k.format_position((9, 5)) == "5+9" and k.format_position(()) == "0"
    with pytest.raises(RulesetError, match="heap sizes must be non-negative integers, got -3"):
        list(k.moves((2, -3)))
    with pytest.raises(RulesetError, match="bad heap size 'x'"):
        k.parse_position("3 x")
    with pytest.raises(RulesetError, match="got 2.5"):
        list(k.moves([2.5]))


def test_generic_solver_agrees_on_multi_heap_positions():
    from cgtalg.rulesets.solver import solve

    k = TakeAndBreak("0.137")
    G = k.grundy_sequence(12)
    for pos in [(3, 4), (1, 2, 5), (6, 6), (2, 7, 9)]:
        x = 0
        for h in pos:
            x ^= int(G[h])
        assert solve(k, pos).outcome == ("P" if x == 0 else "N")


def test_heap_forms_have_the_kernel_values():
    """Forms built from the options (sums of heap forms) agree with the kernels (fold-based
    Grundy values of the foundation: an independent path)."""
    for text in ["0.77", "0.137", "4.07", "0x0.B", "0.6", "0.[3]"]:
        code = TakeAndBreak(text)
        G = code.grundy_sequence(11)
        assert [cg.grundy(code.heap(n)) for n in range(11)] == G.tolist(), text
    k = TakeAndBreak("0.77")
    assert cg.grundy(k.game_of((3, 5, 2))) == 3 ^ 4 ^ 2
    assert k.heap(0) is cg.zero and k.heap(1) is cg.star


def test_heap_forms_give_misere_play_too():
    # misère Kayles: from a heap of 1 the mover must make the last move and so loses
    k = TakeAndBreak("0.77")
    assert cg.outcome(k.heap(1), misere=True) == "P"
    assert cg.outcome(k.heap(2), misere=True) == "N"  # take one, leave one


# -- cousins ------------------------------------------------------------------------------------


def test_cousin_chain_of_seed_001():
    c = TakeAndBreak("0.0423")
    chain = [c]
    while chain[-1].digit(1) % 2 == 0:
        chain.append(chain[-1].first_cousin())
    assert [str(x) for x in chain] == ["0.0423", "0.0073", "0.0137", "0.11337"]
    std, shift = c.standard_form()
    assert (str(std), shift) == ("0.11337", 3)
    # seed 001: 0.04, 0.0401 and 0.007 have the same canonical form
    for other in ["0.04", "0.0401", "0.007"]:
        assert str(TakeAndBreak(other).standard_form()[0]) == "0.11337"


@pytest.mark.parametrize("code, cousin", [("0.07", "0.137"), ("0.6", "0.37"), ("0.2", "0.3"),
                                          ("4.07", "0.737"), ("0.[2]", "0.[3]")])
def test_first_cousins(code, cousin):
    assert str(TakeAndBreak(code).first_cousin()) == cousin


def test_no_first_cousin_when_d1_is_odd():
    with pytest.raises(RulesetError, match=r"0.77 has no first cousin: d1 = 7 is odd"):
        TakeAndBreak("0.77").first_cousin()
    assert TakeAndBreak("0.77").standard_form() == (TakeAndBreak("0.77"), 0)
    assert TakeAndBreak("0.0").standard_form()[1] == 0


def test_standard_form_preserves_values_on_random_codes():
    """Brute force: G_orig(n) = G_std(n - shift) for n >= shift, and 0 below."""
    rng = random.Random(11)
    checked = 0
    for _ in range(200):
        d0, digits, tail = _random_code(rng, hexa=rng.random() < 0.25, infinite=rng.random() < 0.2)
        digits = (digits[0] & ~1,) + digits[1:]
        code = TakeAndBreak.from_digits(d0, digits, tail)
        if not code.has_moves:
            continue
        std, shift = code.standard_form()
        assert std.digit(1) % 2 == 1
        N = 40 if not code.is_hexadecimal else 24
        Go = ref_grundy(code.d0, code.digits, code.tail, N)
        Gs = ref_grundy(std.d0, std.digits, std.tail, N)
        assert Go[:shift + 1] == [0] * (shift + 1), code
        assert Go[shift:] == Gs[: N - shift], (str(code), str(std), shift)
        checked += 1
    assert checked > 150


# -- subtraction codes ----------------------------------------------------------------------


def test_subtraction_games_are_codes():
    g = SubtractionGame([4, 1, 3])
    assert (g.name, g.code_text, g.subtraction_set) == ("subtraction(1,3,4)", "0.3033", (1, 3, 4))
    a = SubtractionGame([1, 2], all_but=True)
    assert (a.name, a.code_text) == ("subtraction-all-but(1,2)", "0.00[3]")
    assert SubtractionGame([], all_but=True).code_text == "0.[3]"
    with pytest.raises(RulesetError, match="the subtraction set is empty"):
        SubtractionGame([])
    with pytest.raises(RulesetError, match="positive integers, got 0"):
        SubtractionGame([0, 2])


def test_registry_resolves_codes():
    from cgtalg.rulesets.registry import get_ruleset

    assert get_ruleset("0.77") == TakeAndBreak("0.77")
    assert get_ruleset("subtraction:1,3,4").code_text == "0.3033"
    assert get_ruleset("allbut:1,2").code_text == "0.00[3]"
    assert get_ruleset("grundy").name == "grundy"
    with pytest.raises(OctalCodeError, match="not an octal digit"):
        get_ruleset("0.8")
