"""Tests of finite nimber arithmetic: cgtalg.nimbers.finite and cgtalg.nimbers.kernels.

Sources of expected values are named beside them: the mex definitions (brute force), Conway's
ONAG ch. 6 (Fermat 2-power rules), the nimber-field tutorial in /work/shared/seeds/004_*.txt
("seed 004"), and /work/shared/notes/nimbers.md ("notes").
"""

from __future__ import annotations

import random
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cgtalg.nimbers as nimbers
from cgtalg.errors import CgtalgError, NimberError, NimZeroDivisionError
from cgtalg.nimbers.finite import (
    QuadraticRoots,
    fermat_field,
    field_degree,
    nim_add,
    nim_div,
    nim_inv,
    nim_mul,
    nim_pow,
    nim_solve_quadratic,
    nim_sqrt,
    nim_square,
    nim_trace,
)
from cgtalg.nimbers.kernels import (
    nim_inv_array,
    nim_mul_array,
    nim_pow_array,
    nim_sqrt_array,
    nim_square_array,
)

U64 = st.integers(0, 2**64 - 1)
U200 = st.integers(0, 2**200 - 1)
NONZERO64 = st.integers(1, 2**64 - 1)
NONZERO200 = st.integers(1, 2**200 - 1)
FAST = settings(deadline=None, max_examples=150)


def _mex(values: np.ndarray) -> int:
    seen = np.zeros(values.size + 1, dtype=bool)
    small = values[values <= values.size]
    seen[small] = True
    return int(np.argmin(seen))


@pytest.fixture(scope="module")
def mex_product_table() -> np.ndarray:
    """Brute force: a⊗b = mex{a'⊗b ⊕ a⊗b' ⊕ a'⊗b' : a' < a, b' < b} for a, b < 64."""
    n = 64
    m = np.zeros((n, n), dtype=np.int64)
    for a in range(1, n):
        for b in range(1, n):
            opts = m[:a, b][:, None] ^ m[a, :b][None, :] ^ m[:a, :b]
            m[a, b] = _mex(opts.ravel())
    return m


# ------------------------------------------------------------------------------------------
# (a) the mex definitions
# ------------------------------------------------------------------------------------------


def test_mex_definition_of_product(mex_product_table: np.ndarray) -> None:
    n = mex_product_table.shape[0]
    for a in range(n):
        for b in range(n):
            assert nim_mul(a, b) == mex_product_table[a, b], (a, b)


def test_mex_definition_of_sum() -> None:
    # brute force: a⊕b = mex{a'⊕b, a⊕b' : a' < a, b' < b} (seed 004, I.6)
    n = 40
    s = [[0] * n for _ in range(n)]
    for a in range(n):
        for b in range(n):
            opts = {s[x][b] for x in range(a)} | {s[a][y] for y in range(b)}
            s[a][b] = next(v for v in range(2 * n + 1) if v not in opts)
            assert nim_add(a, b) == s[a][b]


def test_brute_force_inverse_and_sqrt_in_gf256() -> None:
    # brute force over GF(256): the unique x with a⊗x = 1, and with x⊗x = a
    table = [[nim_mul(a, b) for b in range(256)] for a in range(256)]
    for a in range(1, 256):
        assert nim_inv(a) == table[a].index(1)
    squares = {table[x][x]: x for x in range(256)}
    assert len(squares) == 256  # Frobenius is a bijection
    for a in range(256):
        assert nim_sqrt(a) == squares[a]
        assert nim_square(a) == table[a][a]


# ------------------------------------------------------------------------------------------
# (b) field axioms
# ------------------------------------------------------------------------------------------


@FAST
@given(U64, U64, U64)
def test_ring_axioms_64(x: int, y: int, z: int) -> None:
    assert nim_mul(x, y) == nim_mul(y, x)
    assert nim_mul(nim_mul(x, y), z) == nim_mul(x, nim_mul(y, z))
    assert nim_mul(x, y ^ z) == nim_mul(x, y) ^ nim_mul(x, z)
    assert nim_mul(x, 1) == x and nim_mul(x, 0) == 0
    assert nim_mul(x, y) < fermat_field(max(x, y))  # closed in its Fermat field


@FAST
@given(U200, U200, U200)
def test_ring_axioms_200(x: int, y: int, z: int) -> None:
    assert nim_mul(x, y) == nim_mul(y, x)
    assert nim_mul(nim_mul(x, y), z) == nim_mul(x, nim_mul(y, z))
    assert nim_mul(x, y ^ z) == nim_mul(x, y) ^ nim_mul(x, z)


@FAST
@given(st.one_of(NONZERO64, NONZERO200))
def test_inverse_sqrt_square(x: int) -> None:
    xi = nim_inv(x)
    assert nim_mul(x, xi) == 1
    assert xi < fermat_field(x)
    r = nim_sqrt(x)
    assert nim_square(r) == x and nim_mul(r, r) == x
    assert nim_square(x) == nim_mul(x, x)
    assert nim_div(x, x) == 1


@FAST
@given(st.one_of(U64, U200), st.one_of(NONZERO64, NONZERO200))
def test_division(x: int, y: int) -> None:
    assert nim_mul(nim_div(x, y), y) == x


@FAST
@given(st.one_of(U64, st.integers(0, 2**128 - 1)))
def test_frobenius_fixes_the_field(x: int) -> None:
    # x^(2^m) = x in GF(2^m), m = field_degree(x); x^(2^m - 1) = 1 for x != 0 (Lagrange)
    m = field_degree(x)
    assert fermat_field(x) == 2**m
    assert nim_pow(x, 2**m) == x
    if x:
        assert nim_pow(x, 2**m - 1) == 1
        assert nim_pow(x, -1) == nim_inv(x)


@FAST
@given(U64, st.integers(0, 300), st.integers(0, 300))
def test_pow_laws(x: int, m: int, n: int) -> None:
    assert nim_pow(x, m + n) == nim_mul(nim_pow(x, m), nim_pow(x, n))
    if x:
        assert nim_pow(x, -n) == nim_inv(nim_pow(x, n))


def test_pow_small_by_repeated_product() -> None:
    for x in (0, 1, 2, 3, 7, 16, 255, 2**40 + 5):
        acc = 1
        for n in range(40):
            assert nim_pow(x, n) == acc
            acc = nim_mul(acc, x)
    assert nim_pow(0, 0) == 1 and nim_pow(0, 5) == 0
    assert nim_pow(2, 10**30) == nim_pow(2, 10**30 % 3)  # 2 has order 3 (seed 004: 2⊗3 = 1)


@FAST
@given(st.one_of(U64, U200), st.one_of(U64, U200))
def test_sqrt_and_square_are_additive(x: int, y: int) -> None:
    assert nim_square(x ^ y) == nim_square(x) ^ nim_square(y)
    assert nim_sqrt(x ^ y) == nim_sqrt(x) ^ nim_sqrt(y)


# ------------------------------------------------------------------------------------------
# (c) known values
# ------------------------------------------------------------------------------------------


def test_seed_values() -> None:
    assert nim_mul(2, 2) == 3  # seed 004: 2⊗2 = 3
    assert nim_mul(2, 3) == 1 and nim_inv(2) == 3 and nim_div(1, 2) == 3  # seed 004: 1/2 = 3
    assert nim_mul(16, 16) == 24  # notes / ONAG: F⊗F = 3F/2 with F = 16
    assert nim_add(3, 5) == 6 and nim_add(1, 2) == 3  # seed 004, I.6: [1]⊕[2] = [3]


FERMAT = [2 ** (2**k) for k in range(9)]  # 2, 4, 16, ..., 2^256


@pytest.mark.parametrize("F", FERMAT)
def test_fermat_two_power_rules(F: int) -> None:
    # ONAG ch. 6: F⊗x = F·x for x < F; F⊗F = 3F/2; F ⊗ F' = F·F' for distinct Fermat 2-powers
    rnd = random.Random(F)
    for x in [0, 1, F - 1] + [rnd.randrange(F) for _ in range(20)]:
        assert nim_mul(F, x) == F * x
    assert nim_mul(F, F) == 3 * F // 2
    for G in FERMAT:
        if G != F:
            assert nim_mul(F, G) == F * G
    assert nim_square(F) == F + F // 2
    assert nim_sqrt(F + F // 2) == F


def test_onag_small_values() -> None:
    # ONAG ch. 6 multiplication table of 0..15 (equivalently from the Fermat 2-power rules):
    row2 = [0, 2, 3, 1, 8, 10, 11, 9, 12, 14, 15, 13, 4, 6, 7, 5]
    row4 = [0, 4, 8, 12, 6, 2, 14, 10, 11, 15, 3, 7, 13, 9, 5, 1]
    assert [nim_mul(2, b) for b in range(16)] == row2
    assert [nim_mul(4, b) for b in range(16)] == row4
    assert nim_mul(4, 4) == 6 and nim_mul(8, 8) == 13 and nim_mul(3, 3) == 2
    assert nim_mul(32, 32) == 52  # (2⊗16)² = 3⊗24 = 52 by the ONAG rules
    assert nim_sqrt(2) == 3 and nim_sqrt(8) == 14  # 3⊗3 = 2, 14⊗14 = 8 (GF(16) brute force)


def test_field_helpers() -> None:
    cases = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 15: 4, 16: 8, 255: 8, 256: 16, 2**64 - 1: 64, 2**64: 128}
    for a, m in cases.items():
        assert field_degree(a) == m
        assert fermat_field(a) == 2**m


def test_trace_is_top_bit_by_brute_force() -> None:
    # brute force Tr(x) = x ⊕ x² ⊕ ... ⊕ x^(2^(m-1)) over GF(2), GF(4), GF(16), GF(256)
    def tr(x: int, m: int) -> int:
        t = 0
        for _ in range(m):
            t ^= x
            x = nim_square(x)
        return t

    for m in (1, 2, 4, 8):
        for x in range(2**m):
            assert nim_trace(x, m) == tr(x, m)
    rnd = random.Random(7)
    for m in (16, 64, 128):
        for x in [2 ** (m - 1), 2 ** (m - 1) - 1] + [rnd.randrange(2**m) for _ in range(10)]:
            assert nim_trace(x, m) == tr(x, m)
    assert nim_trace(2) == 1 and nim_trace(2, 4) == 0


def test_numpy_integers_and_reexports() -> None:
    assert nim_mul(np.uint64(16), np.int32(16)) == 24
    # issue 7: cgtalg.nimbers.nim_mul is the single dispatching entry point (ints -> finite code)
    assert nimbers.nim_mul(2**64, 2**64) == nim_mul(2**64, 2**64) and nimbers.QuadraticRoots is QuadraticRoots


# ------------------------------------------------------------------------------------------
# (d) kernels agree with the pure-Python functions
# ------------------------------------------------------------------------------------------

EDGES = [0, 1, 2, 3, 2**15, 2**16, 2**31, 2**32, 2**32 - 1, 2**63, 2**64 - 1, 2**64 - 2]


@pytest.fixture(scope="module")
def sample() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(20240607)
    n = 10_000
    a = rng.integers(0, 2**64, n, dtype=np.uint64, endpoint=False)
    b = rng.integers(0, 2**64, n, dtype=np.uint64, endpoint=False)
    # edge cases, all pairs of them, and narrow values (sparse 16-bit chunks)
    pairs = [(x, y) for x in EDGES for y in EDGES]
    a[: len(pairs)] = [p[0] for p in pairs]
    b[: len(pairs)] = [p[1] for p in pairs]
    a[200:1200] >>= rng.integers(0, 64, 1000).astype(np.uint64)
    b[1200:2200] &= np.uint64(0xFFFF0000FFFF0000)
    return a, b


def test_kernel_mul(sample: tuple[np.ndarray, np.ndarray]) -> None:
    a, b = sample
    got = nim_mul_array(a, b)
    assert got.dtype == np.uint64 and got.shape == a.shape
    assert got.tolist() == [nim_mul(x, y) for x, y in zip(a.tolist(), b.tolist())]


def test_kernel_inv(sample: tuple[np.ndarray, np.ndarray]) -> None:
    a = sample[0][sample[0] != 0]
    got = nim_inv_array(a)
    assert got.tolist() == [nim_inv(x) for x in a.tolist()]


def test_kernel_square_sqrt(sample: tuple[np.ndarray, np.ndarray]) -> None:
    a = sample[0]
    assert nim_square_array(a).tolist() == [nim_square(x) for x in a.tolist()]
    assert nim_sqrt_array(a).tolist() == [nim_sqrt(x) for x in a.tolist()]


def test_kernel_pow(sample: tuple[np.ndarray, np.ndarray]) -> None:
    a, b = sample[0][:300], sample[1][:300]
    assert nim_pow_array(a, b).tolist() == [nim_pow(x, n) for x, n in zip(a.tolist(), b.tolist())]
    small = np.arange(300, dtype=np.int64) - 150
    x = a[:300] | np.uint64(1)
    assert nim_pow_array(x, small).tolist() == [
        nim_pow(v, int(n)) for v, n in zip(x.tolist(), small.tolist())
    ]
    big = 2**70 + 3
    assert nim_pow_array(a[:50], big).tolist() == [nim_pow(v, big) for v in a[:50].tolist()]
    assert nim_pow_array(x[:50], -5).tolist() == [nim_pow(v, -5) for v in x[:50].tolist()]
    q = 2**64 - 1  # the order of GF(2^64)^*: 0^q = 0, x^q = 1
    assert nim_pow_array([0, 5], q).tolist() == [0, 1]
    assert nim_pow_array([0, 5], 2 * q).tolist() == [0, 1]
    assert nim_pow_array([0, 5], 0).tolist() == [1, 1]


def test_kernel_shapes_and_inputs() -> None:
    m = np.arange(12, dtype=np.uint64).reshape(3, 4)
    out = nim_mul_array(m, 2)
    assert out.shape == (3, 4) and out.dtype == np.uint64
    assert out.tolist() == [[nim_mul(int(x), 2) for x in row] for row in m.tolist()]
    col = np.array([[1], [2], [3]], dtype=np.uint64)
    expected = [[nim_mul(r, c) for c in range(4)] for r in (1, 2, 3)]
    assert nim_mul_array(col, np.arange(4)).tolist() == expected
    assert nim_mul_array(5, m).tolist() == nim_mul_array(m, 5).tolist()
    assert nim_mul_array([2**64 - 1], [2**64 - 1]).tolist() == [nim_mul(2**64 - 1, 2**64 - 1)]
    assert nim_mul_array(16, 16).shape == () and int(nim_mul_array(16, 16)) == 24
    assert nim_mul_array(m[:, ::2], m[:, 1::2]).tolist() == [
        [nim_mul(int(x), int(y)) for x, y in zip(r[::2], r[1::2])] for r in m.tolist()
    ]
    assert nim_mul_array(np.zeros(0, dtype=np.uint64), 3).shape == (0,)
    assert nim_inv_array(np.array([1, 2, 16], dtype=np.int8)).tolist() == [1, 3, 170]


# ------------------------------------------------------------------------------------------
# (e) errors and their messages
# ------------------------------------------------------------------------------------------


def _raises(exc: type[BaseException], message: str):  # noqa: ANN202
    """pytest.raises matching the whole message word for word."""
    return pytest.raises(exc, match="^" + re.escape(message) + "$")


NOT_NIMBER = "must be a non-negative int (a nimber), got"


def test_error_messages() -> None:
    with _raises(NimZeroDivisionError, "nim-inverse of 0 is undefined"):
        nim_inv(0)
    with _raises(ZeroDivisionError, "nim-division of 5 by 0 is undefined"):
        nim_div(5, 0)
    with _raises(NimZeroDivisionError, "nim-power of 0 to the negative exponent -2 is undefined"):
        nim_pow(0, -2)
    with _raises(NimberError, f"nim_mul: b {NOT_NIMBER} -3"):
        nim_mul(2, -3)
    with _raises(ValueError, f"nim_inv: a {NOT_NIMBER} float 2.0"):
        nim_inv(2.0)
    with _raises(NimberError, f"nim_add: a {NOT_NIMBER} bool True"):
        nim_add(True, 1)
    with _raises(NimberError, f"nim_sqrt: a {NOT_NIMBER} str '4'"):
        nim_sqrt("4")
    with _raises(NimberError, "nim_pow: exponent must be an int, got float 0.5"):
        nim_pow(2, 0.5)
    with _raises(NimberError, "nim_trace: 16 does not lie in GF(2^4)"):
        nim_trace(16, 4)
    with _raises(NimberError, "nim_trace: field_bits must be a power of two, got 6"):
        nim_trace(3, 6)
    with _raises(NimberError, "nim_solve_quadratic: all coefficients are 0, so every x is a root"):
        nim_solve_quadratic(0, 0, 0)
    assert issubclass(NimberError, CgtalgError)


BELOW_2_64 = "must hold non-negative ints below 2^64, got"


def test_kernel_error_messages() -> None:
    with _raises(NimZeroDivisionError, "nim-inverse of 0 is undefined (a[2] == 0)"):
        nim_inv_array(np.array([1, 2, 0, 3], dtype=np.uint64))
    with _raises(NimZeroDivisionError, "nim-inverse of 0 is undefined"):
        nim_inv_array(0)
    with _raises(NimberError, f"nim_mul_array: b {BELOW_2_64} -1"):
        nim_mul_array([1, 2], [3, -1])
    with _raises(
        NimberError,
        f"nim_mul_array: a {BELOW_2_64} 18446744073709551616 "
        "(use cgtalg.nimbers.finite for big ints)",
    ):
        nim_mul_array([2**64], 1)
    with _raises(NimberError, f"nim_square_array: a {BELOW_2_64} an array of dtype float64"):
        nim_square_array(np.array([1.0, 2.0]))
    with _raises(NimberError, f"nim_sqrt_array: a {BELOW_2_64} float 2.5"):
        nim_sqrt_array(2.5)
    with _raises(NimberError, f"nim_sqrt_array: a {BELOW_2_64} bool True"):
        nim_sqrt_array(True)
    with _raises(NimberError, f"nim_sqrt_array: a {BELOW_2_64} an array of dtype bool"):
        nim_sqrt_array(np.array([True]))
    zero_pow = "nim-power to a negative exponent of 0 is undefined (a[1] == 0)"
    with _raises(NimZeroDivisionError, zero_pow):
        nim_pow_array([3, 0], -1)
    bad_exp = "nim_pow_array: exponents must be integers, got an array of dtype float64"
    with _raises(NimberError, bad_exp):
        nim_pow_array([3], np.array([1.5]))


# ------------------------------------------------------------------------------------------
# (f) quadratic equations a⊗x² ⊕ b⊗x ⊕ c = 0
# ------------------------------------------------------------------------------------------


def _value(a: int, b: int, c: int, x: int) -> int:
    return nim_mul(a, nim_square(x)) ^ nim_mul(b, x) ^ c


def test_required_example_x2_plus_x_eq_2_63() -> None:
    # notes: x² ⊕ x = 2^63 has trace 1 in GF(2^64); since 2^64 ⊗ 2^64 = 2^64 ⊕ 2^63 (ONAG),
    # the roots are 2^64 and 2^64 ⊕ 1.
    res = nim_solve_quadratic(1, 1, 2**63)
    assert res.roots == (2**64, 2**64 + 1)
    assert res.base_field_bits == 64 and res.roots_field_bits == 128
    assert not res.in_base_field and not res.repeated
    assert str(res) == (
        "no roots in GF(2^64); the roots lie in GF(2^128): "
        "18446744073709551616, 18446744073709551617"
    )
    for r in res.roots:
        assert _value(1, 1, 2**63, r) == 0


def test_quadratic_small_cases() -> None:
    # x² ⊕ x ⊕ 1 over GF(2) is irreducible; roots 2, 3 in GF(4) (2⊗2 = 3, seed 004)
    res = nim_solve_quadratic(1, 1, 1)
    assert res.roots == (2, 3) and res.base_field_bits == 1 and res.roots_field_bits == 2
    assert str(res) == "no roots in GF(2^1); the roots lie in GF(2^2): 2, 3"
    # x² ⊕ x = 0: roots 0, 1
    res = nim_solve_quadratic(1, 1, 0)
    assert res.roots == (0, 1) and res.in_base_field and str(res) == "2 roots in GF(2^1): 0, 1"
    # x² = 2: double root √2 = 3
    res = nim_solve_quadratic(1, 0, 2)
    assert res.roots == (3,) and res.repeated and str(res) == "1 double root in GF(2^2): 3"
    # linear: 2⊗x ⊕ 1 = 0 → x = 1/2 = 3 (seed 004)
    res = nim_solve_quadratic(0, 2, 1)
    assert res.roots == (3,) and not res.repeated and str(res) == "1 root in GF(2^2): 3"
    # 0 = 5: no roots anywhere
    res = nim_solve_quadratic(0, 0, 5)
    assert res.roots == () and res.roots_field_bits is None
    assert str(res) == "no roots in any field: the equation reduces to 5 = 0"
    # (x ⊕ 2)(x ⊕ 7) = x² ⊕ 5x ⊕ 2⊗7
    res = nim_solve_quadratic(1, 5, nim_mul(2, 7))
    assert res.roots == (2, 7) and res.in_base_field
    with pytest.raises(AttributeError):
        res.roots = ()  # type: ignore[misc]  # frozen


@settings(deadline=None, max_examples=200)
@given(
    st.one_of(U64, st.integers(0, 255), U200),
    st.one_of(U64, st.integers(0, 255), U200),
    st.one_of(U64, st.integers(0, 255), U200),
)
def test_quadratic_roots_by_substitution(a: int, b: int, c: int) -> None:
    if a == b == c == 0:
        return
    res = nim_solve_quadratic(a, b, c)
    m = max(field_degree(a), field_degree(b), field_degree(c))
    assert res.base_field_bits == m
    for r in res.roots:
        assert _value(a, b, c, r) == 0
        assert r < 2 ** res.roots_field_bits
    assert list(res.roots) == sorted(set(res.roots))
    if a:
        assert len(res.roots) == (1 if b == 0 else 2)
        assert res.roots_field_bits in (m, 2 * m)
        assert res.in_base_field == (res.roots_field_bits == m)
        if not res.in_base_field:
            assert all(r >= 2**m for r in res.roots)
    elif b:
        assert len(res.roots) == 1 and res.in_base_field


@FAST
@given(st.one_of(U64, U200), st.one_of(U64, U200))
def test_quadratic_with_chosen_roots(r: int, s: int) -> None:
    # (x ⊕ r)(x ⊕ s) = x² ⊕ (r⊕s)x ⊕ r⊗s must give back {r, s}
    res = nim_solve_quadratic(1, r ^ s, nim_mul(r, s))
    assert set(res.roots) == {r, s}
    assert res.in_base_field


def _brute_force_counts(bits: int, a_values: list[int]) -> dict[tuple[int, int, int], set[int]]:
    q = 2**bits
    table = np.array([[nim_mul(x, y) for y in range(q)] for x in range(q)], dtype=np.int64)
    sq = table[np.arange(q), np.arange(q)]
    roots: dict[tuple[int, int, int], set[int]] = {}
    xs = np.arange(q)
    for a in a_values:
        for b in range(q):
            v = table[a, sq] ^ table[b, xs]  # a⊗x² ⊕ b⊗x for all x
            for c in range(q):
                roots[(a, b, c)] = set(xs[v == c].tolist())
    return roots


@pytest.mark.parametrize("bits,a_values", [(4, list(range(16))), (8, [1, 2, 77, 255])])
def test_quadratic_against_brute_force(bits: int, a_values: list[int]) -> None:
    # brute force over all x in GF(2^bits), all (b, c) and the given leading coefficients
    q = 2**bits
    for (a, b, c), found in _brute_force_counts(bits, a_values).items():
        if a == b == c == 0:
            continue
        res = nim_solve_quadratic(a, b, c)
        in_field = {r for r in res.roots if r < q}
        assert in_field == found, (a, b, c)
        if res.in_base_field or (res.roots_field_bits or 0) <= bits:
            assert set(res.roots) == found
        if a and b:
            # Artin–Schreier: two roots in the base field iff the trace of a⊗c/b² is 0
            t = nim_div(nim_mul(a, c), nim_square(b))
            assert res.in_base_field == (nim_trace(t, res.base_field_bits) == 0)
