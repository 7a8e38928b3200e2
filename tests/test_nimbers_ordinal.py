"""Tests of ordinal nimbers: cgtalg.nimbers.ordinal, .lenstra, .alpha_table, tools/recompute_alpha.py
and the `cgtalg nim` arithmetic commands.

Sources of expected values are named beside them: the nimber-field tutorial in
/work/shared/seeds/004_*.txt ("seed 004", after Conway's ONAG ch. 6), Conway's ONAG ch. 6,
Lenstra, "On the algebraic closure of two" (1977) and "Nim multiplication" (1978), DiMuro,
"On On_p" (2011), and OEIS A380496 (the excesses of α_p). sympy's own ordinal arithmetic is
used as an independent oracle for ordinal sums and products.
"""

from __future__ import annotations

import math
import pathlib
import re

import pytest
import sympy
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sympy.sets.ordinals import OmegaPower, Ordinal, omega

import cgtalg.nimbers as nimbers
from cgtalg.cli.main import cli, main
from cgtalg.errors import (
    CgtalgError,
    FieldExtensionError,
    NimberError,
    NimZeroDivisionError,
    OrdinalNotationError,
    OrdinalRangeError,
)
from cgtalg.nimbers import finite
from cgtalg.nimbers.alpha_table import alpha, alpha_provenance, alpha_table, max_tabled_prime
from cgtalg.nimbers.engine import odd_prime
from cgtalg.nimbers.lenstra import (
    kappa,
    nim_degree,
    nim_div,
    nim_inv,
    nim_mul,
    nim_pow,
    nim_product,
    nim_sqrt,
)
from cgtalg.nimbers.polynomials import PolynomialNotationError, parse_nim_polynomial
from cgtalg.nimbers.roots import NimRoots, nim_root, nim_roots
from cgtalg.nimbers.ordinal import as_ordinal, format_ordinal, nim_add, nim_sum, ordinal

W = ordinal("w")
ROOT = pathlib.Path(__file__).resolve().parents[1]


def o(text: str):
    return ordinal(text)


def f(x) -> str:
    return format_ordinal(x)


# ---------------------------------------------------------------------------------------------
# Strategies: ordinals built directly as sympy Cantor normal forms.
# ---------------------------------------------------------------------------------------------


def _sympy_ordinal(terms: dict) -> object:
    """{exponent tuple (e_0, e_1, ...) of β = Σ ω^k·e_k : coefficient} → int or Ordinal."""
    out = []
    for es in sorted(terms, key=lambda es: (len(es), tuple(reversed(es))), reverse=True):
        beta_terms = [OmegaPower(k, e) for k, e in reversed(list(enumerate(es))) if e]
        beta = Ordinal(*beta_terms) if beta_terms else 0
        out.append(OmegaPower(beta, terms[es]))
    if not out:
        return 0
    return as_ordinal(Ordinal(*out))


@st.composite
def ordinals_below(draw, k: int = 4, e_max: int = 4, c_max: int = 15, max_terms: int = 3):
    """Ordinals below ω^(ω^k) with exponents β = Σ_{j<k} ω^j·e_j, e_j ≤ e_max (e_0 ≤ 2·e_max),
    coefficients ≤ c_max and at most max_terms terms."""
    n = draw(st.integers(0, max_terms))
    terms = {}
    for _ in range(n):
        es = [draw(st.integers(0, 2 * e_max))] + [draw(st.integers(0, e_max)) for _ in range(k - 1)]
        while es and es[-1] == 0:
            es.pop()
        terms[tuple(es)] = draw(st.integers(1, c_max))
    return _sympy_ordinal(terms)


@st.composite
def deep_ordinals(draw, depth: int = 3):
    """Ordinals below ε₀ with nested exponents (for parsing, printing and nim-sums)."""
    if depth == 0 or draw(st.booleans()):
        return draw(st.integers(0, 40))
    n = draw(st.integers(1, 3))
    exps = {draw(deep_ordinals(depth - 1)) for _ in range(n)}
    from cgtalg.nimbers.ordinal import _coerce, _key

    exps = sorted(exps, key=lambda e: _key(_coerce(e)), reverse=True)
    terms = [OmegaPower(e, draw(st.integers(1, 9))) for e in exps]
    return as_ordinal(Ordinal(*terms))


FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ---------------------------------------------------------------------------------------------
# Parsing and printing
# ---------------------------------------------------------------------------------------------


def test_parse_examples_match_sympy_construction():
    assert o("w^(w^2*4)+3") == Ordinal(OmegaPower(Ordinal(OmegaPower(2, 4)), 1), OmegaPower(0, 3))
    assert o("ω^2·3+1") == omega**2 * 3 + 1
    assert o("w*2+3") == omega * 2 + 3
    assert o("w") == omega
    assert o("w ^ w") == omega**omega
    assert o("w**(w**2*4) + 3") == o("w^(w^2*4)+3")  # sympy's own printing re-parses
    assert o("17") == 17 and type(o("17")) is int


def test_parse_uses_ordinal_arithmetic():
    # Ordinal sum and product are not commutative (ONAG ch. 0 / standard ordinal arithmetic).
    assert o("1+w") == W and o("2*w") == W
    assert f(o("w*(w+1)")) == "ω^2+ω"
    assert f(o("(w+1)*w")) == "ω^2"
    assert f(o("(w+1)^3")) == "ω^3+ω^2+ω+1"
    assert o("2^w") == W and f(o("2^(w+1)")) == "ω·2"
    assert f(o("3^(w^2)")) == "ω^ω"
    assert f(o("w^w^2")) == "ω^(ω^2)"  # ^ is right-associative
    assert o("(w^2+w)^w") == o("w^w")


@given(deep_ordinals(), deep_ordinals())
@FAST
def test_parser_sum_and_product_agree_with_sympy(a, b):
    # sympy implements ordinal + and * on Cantor normal forms: an independent oracle.
    sa = a if not isinstance(a, int) else Ordinal.convert(a)
    sb = b if not isinstance(b, int) else Ordinal.convert(b)
    text_a, text_b = format_ordinal(a, ascii=True), format_ordinal(b, ascii=True)
    assert o(f"({text_a})+({text_b})") == sa + sb
    assert o(f"({text_a})*({text_b})") == sa * sb


def test_format_conventions():
    assert f(o("w^2*3+1")) == "ω^2·3+1"
    assert f(o("w^(w^2*4)+3")) == "ω^(ω^2·4)+3"
    assert f(o("w*2+3")) == "ω·2+3"
    assert f(W) == "ω"
    assert f(o("w^w")) == "ω^ω"
    assert f(o("w^(w^w)")) == "ω^(ω^ω)"
    assert f(o("w^(w+1)*5")) == "ω^(ω+1)·5"
    assert f(0) == "0" and f(12) == "12"
    assert format_ordinal(o("w^(w^2*4)+3"), ascii=True) == "w^(w^2*4)+3"
    assert format_ordinal(omega, ascii=True) == "w"  # sympy's omega singleton works too


@given(deep_ordinals())
@FAST
def test_format_parse_round_trip(x):
    assert o(format_ordinal(x)) == x
    assert o(format_ordinal(x, ascii=True)) == x
    if x != 0:
        assert o(str(x)) == x  # sympy's printing: w**(w**2*4) + 3


@pytest.mark.parametrize(
    "text, position, message",
    [
        ("w^^2", 2, "bad ordinal 'w^^2' at position 2 ('^'): expected an integer, 'w' or '('\n    w^^2\n      ^"),
        (
            "(w+1",
            4,
            "bad ordinal '(w+1' at position 4 ('end of input'): expected ')' to close the '(' at position 0"
            "\n    (w+1\n        ^",
        ),
        ("w2", 1, "bad ordinal 'w2' at position 1 ('2'): expected '+', '*', '^' or end of input\n    w2\n     ^"),
        ("", 0, "bad ordinal '' at position 0 ('end of input'): expected an integer, 'w' or '('\n    \n    ^"),
        ("w+x", 2, "bad ordinal 'w+x' at position 2 ('x'): expected an integer, 'w' or '('\n    w+x\n      ^"),
        ("-1", 0, "bad ordinal '-1' at position 0 ('-'): expected an integer, 'w' or '('\n    -1\n    ^"),
    ],
)
def test_parse_errors_word_for_word(text, position, message):
    with pytest.raises(OrdinalNotationError) as info:
        ordinal(text)
    assert info.value.position == position
    assert info.value.text == text
    assert str(info.value) == message
    assert isinstance(info.value, (CgtalgError, ValueError))


def test_bad_values_rejected():
    with pytest.raises(NimberError, match=r"^a must be a non-negative ordinal, got -1$"):
        nim_add(-1, 2)
    with pytest.raises(NimberError, match=r"^b must be a non-negative int or a sympy Ordinal, got float 1.5$"):
        nim_add(1, 1.5)
    with pytest.raises(NimberError, match="got bool"):
        nim_mul(True, W)


# ---------------------------------------------------------------------------------------------
# Nim-sum (ONAG ch. 6: XOR of base-2 Cantor normal forms; seed 004 §I.6)
# ---------------------------------------------------------------------------------------------


def test_nim_add_examples():
    assert nim_add(o("w*3+5"), o("w*2+1")) == o("w+4")
    assert nim_add(W, W) == 0
    assert nim_add(o("w^2*6+w"), o("w^2*3+w*3+2")) == o("w^2*5+w*2+2")
    assert nim_add(o("w^(w^2)"), o("w^w+1")) == o("w^(w^2)+w^w+1")  # distinct powers add normally
    assert nim_sum([o("w+1"), W, 5]) == 4
    assert nim_sum([]) == 0
    assert nim_add(omega, 1) == o("w+1")


@given(deep_ordinals(), deep_ordinals(), deep_ordinals())
@FAST
def test_nim_add_group_laws(a, b, c):
    assert nim_add(a, b) == nim_add(b, a)
    assert nim_add(nim_add(a, b), c) == nim_add(a, nim_add(b, c))
    assert nim_add(a, a) == 0 and nim_add(a, 0) == a


@given(st.integers(0, 2**70), st.integers(0, 2**70))
def test_nim_add_finite_is_xor(a, b):
    assert nim_add(a, b) == a ^ b == finite.nim_add(a, b)


# ---------------------------------------------------------------------------------------------
# κ's and the α table (Lenstra 1977; notes/nimbers.md; OEIS A380496)
# ---------------------------------------------------------------------------------------------


def test_kappas():
    assert [kappa(q) for q in (2, 4, 8, 16)] == [2, 4, 16, 256]  # κ_{2^n} = 2^(2^(n-1))
    assert kappa(3) == W and kappa(9) == o("w^3") and kappa(27) == o("w^9")
    assert kappa(5) == o("w^w") and kappa(25) == o("w^(w*5)")
    assert kappa(7) == o("w^(w^2)") and kappa(47) == o("w^(w^13)")
    assert odd_prime(1) == 3 and odd_prime(15) == 53
    with pytest.raises(NimberError, match=r"^kappa: q must be a prime power > 1, got 12$"):
        kappa(12)


def test_alpha_table_shape_and_provenance():
    table = alpha_table()
    assert sorted(table) == list(sympy.primerange(3, 710))
    assert max_tabled_prime() == 709
    assert "A380496" in alpha_provenance() and "Lenstra" in alpha_provenance()
    assert alpha(3) == 2 and alpha(7) == o("w+1") and alpha(641) == 2**32
    with pytest.raises(OrdinalRangeError) as info:
        alpha(719)
    assert str(info.value).startswith("alpha_p for p = 719 is beyond the shipped table (p <= 709)")
    with pytest.raises(NimberError, match="odd primes"):
        alpha(9)


def test_kappa_relations_for_prime_powers():
    # κ_{p^(n+1)}^⊗p = κ_{p^n} (Lenstra 1977), by repeated multiplication.
    for q, p in ((9, 3), (27, 3), (25, 5), (49, 7), (121, 11)):
        x = kappa(q)
        power = x
        for _ in range(p - 1):
            power = nim_mul(power, x)
        assert power == kappa(q // p)


def _repeated_power(x, n):
    y = x
    for _ in range(n - 1):
        y = nim_mul(y, x)
    return y


@pytest.mark.parametrize("p", list(sympy.primerange(3, 710)))
def test_kappa_p_to_the_p_is_alpha_p(p):
    # κ_p^⊗p = α_p for every tabled p. The first p-1 products only add exponent digits
    # (κ_p^i = ω^(ω^(k-1)·i) as an ordinal power, Conway's "simplest extension" theorem for the
    # field below κ_p); only the last one reduces with α_p. What makes the table meaningful is
    # checked separately: α_p < κ_p below, and "α_p has no p-th root" in the next test.
    k = kappa(p)
    assert _repeated_power(k, p - 1) == o(f"w^(w^{_prime_index(p)}*{p - 1})")
    assert nim_mul(_repeated_power(k, p - 1), k) == alpha(p)
    a = alpha(p)
    assert a != 0 and (isinstance(a, int) or a < k)  # α_p lies in the field below κ_p


def _prime_index(p: int) -> int:
    return int(sympy.primepi(p)) - 2


def _alpha_field_degree_bound(p: int) -> int:
    from cgtalg.nimbers.engine import engine
    from cgtalg.nimbers.ordinal import _coerce

    eng = engine()
    return eng.degree_bound(eng.elem(_coerce(alpha(p))))


def _check_no_pth_root(p: int) -> None:
    # Lenstra 1977: α_p is not a p-th power in the field below κ_p. With f = ord_p(2), an element
    # of degree d has a p-th root there iff it has one in GF(2^lcm(d, f)), i.e. iff
    # α^((2^E-1)/p) = 1 for E = lcm(d, f); and f must divide d (else every element of GF(2^d)
    # is a p-th power).
    a = alpha(p)
    order = int(sympy.n_order(2, p))
    d = nim_degree(a)
    assert d % order == 0
    E = math.lcm(d, order)
    assert nim_pow(a, ((1 << E) - 1) // p) != 1


_CHEAP = [p for p in sympy.primerange(3, 710) if math.lcm(_alpha_field_degree_bound(p), int(sympy.n_order(2, p))) <= 700]
_DEAR = [p for p in sympy.primerange(3, 710) if 700 < math.lcm(_alpha_field_degree_bound(p), int(sympy.n_order(2, p))) <= 2000]


@pytest.mark.parametrize("p", _CHEAP)
def test_alpha_p_has_no_pth_root(p):
    _check_no_pth_root(p)


@pytest.mark.slow
@pytest.mark.parametrize("p", _DEAR)
def test_alpha_p_has_no_pth_root_larger_fields(p):
    _check_no_pth_root(p)


def _load_tool():
    from conftest import load_tool

    return load_tool("recompute_alpha")


def test_recompute_alpha_small_primes():
    # Lenstra's algorithm from first principles (its own α's for smaller primes), p ≤ 13:
    # Conway's α_3 = 2, α_5 = 4, α_7 = ω+1 (ONAG ch. 6) and Lenstra's α_11, α_13.
    tool = _load_tool()
    rows = tool.recompute(13)
    assert [r.p for r in rows] == [3, 5, 7, 11, 13]
    assert all(r.agrees for r in rows)
    assert [r.alpha for r in rows] == ["2", "4", "w+1", "w^w+1", "w+4"]
    assert [r.m for r in rows] == [2, 4, 1, 1, 4]  # excesses, OEIS A380496


@pytest.mark.slow
def test_recompute_alpha_up_to_103():
    tool = _load_tool()
    assert tool.main(["--max-p", "103"]) == 0


# ---------------------------------------------------------------------------------------------
# Nim-products: seed 004 and ONAG facts
# ---------------------------------------------------------------------------------------------


def test_seed_004_facts():
    assert nim_mul(W, W) == o("w^2")  # ω⊗ω = ω²
    assert nim_mul(W, o("w^2")) == 2  # ω⊗ω² = 2 ("That's not a typo")
    assert nim_product([o("w^3")] * 3) == W  # (ω³)^⊗3 = ω
    for n in range(1, 40):  # n⊗ω = nω (ordinal product ω·n) for finite n
        assert nim_mul(n, W) == o(f"w*{n}")
    # The exercise "what are the other cube roots of 2?": ω⊗ζ for ζ the cube roots of 1 in
    # GF(4) = {2, 3}; check by cubing.
    roots = nim_root(2, 3)
    assert roots == [W, o("w*2"), o("w*3")]
    for r in roots:
        assert nim_product([r, r, r]) == 2


def test_onag_simplest_extension_examples():
    # Below κ_p the nim-powers of κ_p with smaller coefficients are ordinal (ONAG ch. 6,
    # "Δ^n⊗δ_n ⊕ ... ⊕ δ_0 = Δ^n·δ_n + ... + δ_0" for n < N).
    assert nim_mul(o("w^w"), o("w^w")) == o("w^(w*2)")
    assert nim_add(nim_mul(o("w^(w^2)"), o("w^w")), o("w+1")) == o("w^(w^2+w)+w+1")
    assert nim_mul(o("w^w"), o("w^(w*4)")) == 4  # κ_5^5 = α_5 = 4
    assert nim_pow(o("w^(w^2)"), 7) == o("w+1")  # κ_7^7 = α_7
    assert nim_mul(16, 16) == 24 and nim_mul(2, 3) == 1  # finite products delegate


def test_inverse_division_sqrt_examples():
    assert nim_inv(W) == o("w^2*3")
    assert nim_mul(W, o("w^2*3")) == 1
    assert nim_div(2, W) == o("w^2")
    assert nim_sqrt(W) == o("w^2*2") and nim_mul(o("w^2*2"), o("w^2*2")) == W
    assert nim_sqrt(2) == 3
    assert nim_pow(W, -1) == nim_inv(W)
    assert nim_pow(W, 0) == 1 and nim_pow(0, 0) == 1
    assert nim_pow(W, 2**100) == nim_pow(W, 2**100 % 63)  # ω ∈ GF(64)


def test_nim_degree():
    assert nim_degree(W) == 6  # ω is a cube root of 2 ∈ GF(4)
    assert nim_degree(o("w^w")) == 20  # κ_5^5 = 4 ∈ GF(16)
    assert nim_degree(o("w^(w^2)")) == 42  # κ_7^7 = ω+1 ∈ GF(64)
    assert nim_degree(o("w^3")) == 18
    assert nim_degree(1) == 1 and nim_degree(5) == 4
    y = nim_roots("x^2+x+w").roots[0]  # in GF(64) but not in GF(8) or GF(4), since ω is not
    assert nim_degree(y) == 6


# ---------------------------------------------------------------------------------------------
# Field laws on random ordinals below ω^(ω^4) (modest sizes)
# ---------------------------------------------------------------------------------------------


@given(ordinals_below(), ordinals_below(), ordinals_below())
@settings(max_examples=60, deadline=None)
def test_ring_laws(a, b, c):
    ab = nim_mul(a, b)
    assert ab == nim_mul(b, a)
    assert nim_mul(ab, c) == nim_mul(a, nim_mul(b, c))
    assert nim_mul(a, nim_add(b, c)) == nim_add(ab, nim_mul(a, c))
    assert nim_mul(a, 1) == a and nim_mul(a, 0) == 0


@given(ordinals_below(k=3, e_max=2, c_max=15, max_terms=3).filter(lambda x: x != 0))
@settings(max_examples=30, deadline=None)
def test_inverse_and_division(a):
    inv = nim_inv(a)
    assert nim_mul(a, inv) == 1
    assert nim_div(a, a) == 1
    assert nim_div(1, a) == inv


@pytest.mark.parametrize(
    "text", ["w^(w^3)+w^(w^2)+w^w+w+1", "w^(w^3*2+w^2+w*4+3)*5+w^(w^2*3)+7", "w^(w^3+8)*3+w^(w*4)*2+w^5"]
)
def test_inverse_in_larger_fields(text):
    # Fields of degree 4620 to 27720 over GF(2) (κ_11, κ_7, κ_5, κ_9, GF(16)): the tower inverse.
    a = o(text)
    assert nim_mul(a, nim_inv(a)) == 1


@given(ordinals_below(k=2, e_max=2, c_max=15, max_terms=3))
@settings(max_examples=30, deadline=None)
def test_sqrt_pow_and_degree(a):
    r = nim_sqrt(a)
    assert nim_mul(r, r) == a
    assert nim_pow(a, 3) == nim_product([a, a, a])
    if a != 0:
        d = nim_degree(a)  # a ∈ GF(2^d), in no proper subfield
        assert nim_pow(a, 1 << d) == a
        for r in sympy.primefactors(d):
            assert nim_pow(a, 1 << (d // r)) != a


@given(st.integers(0, 2**40), st.integers(0, 2**40))
@settings(max_examples=40)
def test_finite_inputs_agree_with_finite_module(a, b):
    assert nim_mul(a, b) == finite.nim_mul(a, b)
    assert type(nim_mul(a, b)) is int
    if b:
        assert nim_div(a, b) == finite.nim_div(a, b)


# ---------------------------------------------------------------------------------------------
# Range errors, word for word
# ---------------------------------------------------------------------------------------------


def test_range_errors():
    with pytest.raises(OrdinalRangeError) as info:
        nim_mul(o("w^(w^w)"), 2)
    assert str(info.value) == "ω^(ω^ω) is not below ω^(ω^ω), where nim-multiplication is no longer algebraic"
    # κ_719 = ω^(ω^126) (719 is the 127th odd prime): its p-th power needs α_719.
    k719 = kappa(719)
    assert k719 == o("w^(w^126)")
    with pytest.raises(OrdinalRangeError) as info:
        nim_mul(o("w^(w^126*718)"), k719)
    assert str(info.value) == (
        "nim-product ω^(ω^126·718) ⊗ ω^(ω^126) needs alpha_p for p = 719, beyond the shipped table (p <= 709)"
    )
    assert nim_mul(k719, 3) == o("w^(w^126)*3")  # products that do not reduce are fine
    with pytest.raises(OrdinalRangeError) as info:
        nim_inv(k719)
    assert str(info.value) == (
        "nim-inverse of ω^(ω^126) needs alpha_p for p = 719, beyond the shipped table (p <= 709)"
    )
    with pytest.raises(NimZeroDivisionError, match=r"^the nim-inverse of 0 is undefined$"):
        nim_inv(0)
    with pytest.raises(NimZeroDivisionError, match=r"^nim-division of ω by 0 is undefined$"):
        nim_div(W, 0)


# ---------------------------------------------------------------------------------------------
# Polynomials and roots
# ---------------------------------------------------------------------------------------------


def _evaluate(coeffs_high_first, x):
    acc = 0
    for c in coeffs_high_first:  # Horner
        acc = nim_add(nim_mul(acc, x), c)
    return acc


def test_parse_polynomials():
    assert parse_nim_polynomial("x^2+x+w") == [1, 1, W]
    assert parse_nim_polynomial("(w+1)x^3 + w*2 x + 3") == [o("w+1"), 0, o("w*2"), 3]
    assert parse_nim_polynomial("w*x^2 + x + w + 1") == [W, 1, o("w+1")]
    assert parse_nim_polynomial("x + w + w") == [1, 0]  # like monomials are nim-added
    assert parse_nim_polynomial("x^2 + x^2") == []
    with pytest.raises(PolynomialNotationError) as info:
        parse_nim_polynomial("x^2+x+")
    assert str(info.value) == (
        "bad nimber polynomial 'x^2+x+' at position 6 ('end of input'): expected an integer, 'w' or '('"
        "\n    x^2+x+\n          ^"
    )
    with pytest.raises(PolynomialNotationError) as info:
        parse_nim_polynomial("x^w")
    assert info.value.position == 2 and info.value.reason == "expected an integer exponent"
    assert isinstance(info.value, OrdinalNotationError)


def test_roots_artin_schreier_example():
    r = nim_roots("x^2+x+w")
    assert isinstance(r, NimRoots)
    assert r.splits and r.coefficient_field_degree == 6 and r.splitting_field_degree == 6
    assert len(r.roots) == 2 and nim_add(r.roots[0], r.roots[1]) == 1  # roots y, y⊕1
    for y in r.roots:
        assert _evaluate([1, 1, W], y) == 0
    assert str(r) == "2 roots in GF(2^6): ω^2·3+ω·2, ω^2·3+ω·2+1"


def test_roots_cube_root_of_two_needs_extension():
    r = nim_roots("x^3 + 2")
    assert not r.splits
    assert (r.coefficient_field_degree, r.factor_degrees, r.splitting_field_degree) == (2, (3,), 6)
    assert r.extension_degree == 3
    assert r.roots == (W, o("w*2"), o("w*3"))
    assert str(r) == (
        "no complete splitting in GF(2^2) (irreducible factor degrees 3); the roots lie in GF(2^6), "
        "an extension of degree 3: ω, ω·2, ω·3"
    )


def test_roots_with_multiplicity_and_list_input():
    # (x + ω)^2 (x + 1) = x^3 + (1)x^2 ... built by multiplying out with nim arithmetic.
    coeffs = [1]
    for root in (W, W, 1):
        coeffs = _times_linear(coeffs, root)
    r = nim_roots(coeffs)
    assert r.roots == (1, W) and r.multiplicities == (1, 2)
    assert nim_roots({2: 1, 0: 2}).roots == (3,)  # x^2 = 2 ⇒ x = √2 = 3, a double root
    assert nim_roots({2: 1, 0: 2}).multiplicities == (2,)


def _times_linear(coeffs, root):
    """coeffs (highest first) times (x + root)."""
    out = list(coeffs) + [0]
    for i, c in enumerate(coeffs):
        out[i + 1] = nim_add(out[i + 1], nim_mul(c, root))
    return out


@given(st.lists(ordinals_below(k=2, e_max=2, c_max=7, max_terms=2), min_size=1, max_size=3))
@settings(max_examples=20, deadline=None)
def test_roots_recover_constructed_roots(roots):
    """Roots built into a polynomial are found again, with their multiplicities (found by
    Hypothesis: roots outside the coefficients' field, where ``splits`` is rightly False)."""
    coeffs = [1]
    for r in roots:
        coeffs = _times_linear(coeffs, r)
    result = nim_roots(coeffs)
    # ``splits``: every root lies in the field of the coefficients, which the constructed roots
    # need not (the roots ω·6, ω·7 of x² + ωx + ω²·3 lie in GF(2^12), its coefficients in GF(2^6))
    assert result.splits == all(result.coefficient_field_degree % nim_degree(r) == 0 for r in roots)
    assert set(result.roots) == set(roots)
    assert sum(result.multiplicities) == len(roots)
    for r, m in zip(result.roots, result.multiplicities):
        assert m == roots.count(r)
    assert list(result.roots) == sorted(result.roots, key=lambda x: Ordinal.convert(x) if isinstance(x, int) else x)


@given(st.integers(1, 255), st.integers(0, 255), st.integers(0, 255))
@settings(max_examples=40, deadline=None)
def test_quadratics_agree_with_finite_solver(a, b, c):
    # The finite module solves quadratics by the Artin-Schreier recursion: an independent method.
    expected = finite.nim_solve_quadratic(a, b, c)
    got = nim_roots([a, b, c])
    assert got.roots == expected.roots
    assert got.coefficient_field_degree == expected.base_field_bits
    assert got.splits == expected.in_base_field
    assert got.splitting_field_degree == expected.roots_field_bits


def test_roots_field_limit_error():
    with pytest.raises(FieldExtensionError) as info:
        nim_roots("x^3 + x + w^w", max_field_degree=20)
    assert str(info.value) == (
        "the roots of x^3 + x + ω^ω lie in GF(2^60); computing them needs the κ-field of "
        "degree 60 > max_field_degree = 20"
    )
    with pytest.raises(NimberError, match="has no roots"):
        nim_roots("5")
    with pytest.raises(NimberError, match="every nimber as a root"):
        nim_roots([0, 0])


def test_nim_root_general():
    assert nim_root(0, 5) == [0]
    assert nim_root(W, 2) == [nim_sqrt(W)]
    fifth = nim_root(W, 5)
    assert len(fifth) == 5
    for r in fifth:
        assert nim_pow(r, 5) == W
    sixth = nim_root(W, 6)  # 6 = 2·3: three distinct roots
    assert len(sixth) == 3 and all(nim_pow(r, 6) == W for r in sixth)


# ---------------------------------------------------------------------------------------------
# Package re-exports and the CLI
# ---------------------------------------------------------------------------------------------


def test_package_reexports():
    # issue 33: the sympy-ordinal functions are references, in cgtalg.nimbers.reference only
    from cgtalg.nimbers import reference

    assert reference.ordinal_nim_mul is nim_mul and not hasattr(nimbers, "ordinal_nim_mul")
    assert reference.ordinal_nim_add is nim_add and "ordinal_nim_add" not in nimbers.__all__
    # issue 7: one entry point per operation; the finite functions stay in nimbers.finite
    from cgtalg.nimbers import nimber_ops

    assert nimbers.nim_mul is nimber_ops.nim_mul and nimbers.nim_mul(16, 16) == finite.nim_mul(16, 16)
    assert nimbers.kappa is kappa and nimbers.nim_roots is nim_roots


@pytest.mark.parametrize(
    "args, output",
    [
        (["add", "w+1", "w*3+5"], "ω·2+4"),
        (["mul", "w", "w^2"], "2"),
        (["mul", "w", "w^2", "--ascii"], "2"),
        (["mul", "w", "w", "--ascii"], "w^2"),
        (["inv", "16"], str(finite.nim_inv(16))),
        (["inv", "w"], "ω^2·3"),
        (["div", "2", "w"], "ω^2"),
        (["pow", "w", "3"], "2"),
        (["pow", "w", "-1"], "ω^2·3"),
        (["sqrt", "w"], "ω^2·2"),
        (["root", "2", "3"], "ω, ω·2, ω·3"),
        (["solve", "x^2+x+w"], "2 roots in GF(2^6): ω^2·3+ω·2, ω^2·3+ω·2+1"),
    ],
)
def test_cli_arithmetic(args, output):
    result = CliRunner().invoke(cli, ["nim", *args])
    assert result.exit_code == 0, result.output
    assert result.output == output + "\n"


def test_cli_json_and_errors(capsys):
    import json

    result = CliRunner().invoke(cli, ["nim", "mul", "w", "w^2", "--json"])
    assert json.loads(result.output) == {"operation": "mul", "a": "ω", "b": "ω^2", "result": 2}
    result = CliRunner().invoke(cli, ["nim", "solve", "x^3+2", "--json"])
    data = json.loads(result.output)
    assert data["roots"] == ["ω", "ω·2", "ω·3"] and data["extension_degree"] == 3
    assert main(["nim", "mul", "w^^2", "3"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cgtalg: error: bad ordinal 'w^^2' at position 2 ('^')")
    assert main(["nim", "inv", "0"]) == 2
    assert capsys.readouterr().err == "cgtalg: error: the nim-inverse of 0 is undefined\n"
    assert re.search(r"--json", CliRunner().invoke(cli, ["nim", "sqrt", "--help"]).output)


def test_roots_outside_the_coefficients_field():
    """(x + ω·6)(x + ω·7) = x² + ωx + ω²·3: its coefficients lie in GF(2^6) (ω has degree 6: ω³ =
    2), its roots in GF(2^12) (6 and 7 need GF(16)); found both, and ``splits`` is False."""
    roots = [ordinal("w*6"), ordinal("w*7")]
    coeffs = [1]
    for r in roots:
        coeffs = _times_linear(coeffs, r)
    result = nim_roots(coeffs)
    assert set(result.roots) == set(roots) and result.multiplicities == (1, 1)
    assert result.coefficient_field_degree == 6 and result.splitting_field_degree == 12
    assert not result.splits and [nim_degree(r) for r in roots] == [12, 12]
