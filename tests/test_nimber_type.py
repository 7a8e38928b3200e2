"""The Nimber value type and the single dispatching entry point (cgtalg.nimbers.nimber).

Sources of expected values: the mex definitions of ⊕ and ⊗ (ONAG ch. 6, brute force below 64),
seed 004 (ω⊗ω = ω², ω⊗ω² = 2, ω is a cube root of 2 and so are ω·2, ω·3 since 2, 3 are the
cube roots of 1 in GF(4)), the existing κ/α engine (lenstra.nim_mul & co., itself checked in
tests/test_nimbers_ordinal.py), and ogdoad 2.0.0 (independent Rust implementation) when installed.
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cgtalg.errors import NimberError, NimZeroDivisionError, OrdinalRangeError
from cgtalg.nimbers import engine, finite, lenstra, roots
from cgtalg.nimbers.nimber import Nimber
from cgtalg.nimbers.nimber_ops import nim_add, nim_div, nim_inv, nim_mul, nim_pow, nim_sqrt
from cgtalg.nimbers.ordinal import _from_sympy, _make, _out, format_ordinal, ordinal
from cgtalg.nimbers.ordinal import nim_add as ord_nim_add

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def ordinal_texts(draw, k: int = 3, max_terms: int = 3):
    """Ordinal text below ω^(ω^k): nim-sums of ω^(Σ ω^j·e_j)·c (including finite ones)."""
    n = draw(st.integers(0, max_terms))
    parts = []
    for _ in range(n):
        es = [draw(st.integers(0, 4)) for _ in range(k)]
        exp = "+".join(f"w^{j}*{e}" for j, e in reversed(list(enumerate(es))) if e) or "0"
        parts.append(f"w^({exp})*{draw(st.integers(1, 15))}")
    return "+".join(parts) or "0"


def mex(values) -> int:
    s = set(values)
    m = 0
    while m in s:
        m += 1
    return m


@pytest.fixture(scope="module")
def mex_tables():
    """⊕ and ⊗ below 64 from the mex definitions (brute force, ONAG ch. 6)."""
    N = 64
    add = [[0] * N for _ in range(N)]
    mul = [[0] * N for _ in range(N)]
    for a in range(N):
        for b in range(N):
            add[a][b] = mex([add[x][b] for x in range(a)] + [add[a][y] for y in range(b)])
    for a in range(N):
        for b in range(N):
            # ⊕ is XOR: the mex table above agrees with XOR below 64 (asserted in the test);
            # XOR is used here because products of values below 64 reach 255.
            mul[a][b] = mex(mul[x][b] ^ mul[a][y] ^ mul[x][y] for x in range(a) for y in range(b))
    return add, mul


# -- the brute-force definitions and seed 004 --------------------------------------------------


def test_finite_nimbers_and_dispatch_match_mex_definition(mex_tables):
    add, mul = mex_tables
    xs = np.arange(64, dtype=np.uint64)
    table = nim_mul(xs[:, None], xs[None, :])  # the compiled array kernel, broadcasting
    sums = nim_add(xs[:, None], xs[None, :])
    for a in range(64):
        for b in range(64):
            assert nim_mul(a, b) == mul[a][b]
            assert Nimber(a) * Nimber(b) == mul[a][b]
            assert int(table[a, b]) == mul[a][b]
            assert (Nimber(a) + b) == add[a][b] == int(sums[a, b]) == a ^ b


def test_seed_004_facts():
    w = Nimber("w")
    assert w * w == Nimber("w^2")  # ω⊗ω = ω²
    assert w * Nimber("w^2") == 2  # ω⊗ω² = 2
    assert Nimber("w^3") ** 3 == w  # (ω³)^⊗3 = ω
    for r in ("w", "w*2", "w*3"):  # the cube roots of 2
        assert Nimber(r) ** 3 == Nimber(2)
    # and no other: the three roots of X^3 - 2 are distinct, so a fourth would be a root too
    assert roots.nim_root(2, 3) == [ordinal("w"), ordinal("w*2"), ordinal("w*3")]


# -- agreement with the engine on random ordinals below ω^(ω^3) ---------------------------------


@FAST
@given(ordinal_texts(), ordinal_texts())
def test_nimber_operations_equal_engine(ta, tb):
    a, b = ordinal(ta), ordinal(tb)
    x, y = Nimber(ta), Nimber(b)
    assert (x * y).to_ordinal() == lenstra.nim_mul(a, b)
    assert nim_mul(a, b) == lenstra.nim_mul(a, b)
    assert (x + y).to_ordinal() == ord_nim_add(a, b) == (x - y).to_ordinal()
    assert (x ** 3).to_ordinal() == lenstra.nim_pow(a, 3)
    assert x.sqrt().to_ordinal() == lenstra.nim_sqrt(a)
    if b != 0:
        assert (x / y).to_ordinal() == lenstra.nim_div(a, b)
        assert y.inv().to_ordinal() == lenstra.nim_inv(b)


@FAST
@given(ordinal_texts(k=2), ordinal_texts(k=2), ordinal_texts(k=2))
def test_field_laws(ta, tb, tc):
    a, b, c = Nimber(ta), Nimber(tb), Nimber(tc)
    assert a * b == b * a and a + b == b + a
    assert (a * b) * c == a * (b * c)
    assert a * (b + c) == a * b + a * c
    assert a + a == 0 and -a == a
    assert a.sqrt() * a.sqrt() == a
    if a:
        assert a * a.inv() == 1 and a ** -2 == (a * a).inv()
        assert (b / a) * a == b


# -- the type ----------------------------------------------------------------------------------


def test_printing():
    assert str(Nimber("w^2")) == "*ω^2" and repr(Nimber(5)) == "*5"
    assert str(Nimber("w+1")) == "*(ω+1)" and str(Nimber("w*2")) == "*(ω·2)"
    assert str(Nimber("w^w")) == "*ω^ω" and str(Nimber(0)) == "*0"
    assert Nimber("w^2")._repr_html_() == '<span class="cgtalg-nimber">*ω^2</span>'


def test_conversions_hash_order():
    w = Nimber(ordinal("w"))
    assert Nimber("ω") == w == ordinal("w") and hash(w) == hash(Nimber("w"))
    assert Nimber(5) == 5 and hash(Nimber(5)) == hash(5) and int(Nimber(5)) == 5
    assert len({Nimber("w"), w, Nimber("w*2")}) == 2
    assert w.to_ordinal() == ordinal("w") and Nimber(3).to_ordinal() == 3
    assert not w.is_finite and Nimber(7).is_finite
    assert Nimber(7) < w < Nimber("w+1") < Nimber("w^2") and Nimber("w^w") > Nimber("w^9")
    assert sorted([Nimber("w"), Nimber(3), Nimber(0)]) == [0, 3, Nimber("w")]
    assert pickle.loads(pickle.dumps(Nimber("w^2+3"))) == Nimber("w^2+3")
    assert Nimber(Nimber("w")) == w and Nimber(np.uint8(4)) == 4


def test_errors():
    with pytest.raises(NimberError, match=r"int\(\): \*ω is not finite"):
        int(Nimber("w"))
    with pytest.raises(NimberError, match="must be a non-negative ordinal, got -1"):
        Nimber(-1)
    with pytest.raises(NimberError, match="got float 1.5"):
        Nimber(1.5)
    with pytest.raises(NimberError, match="got bool True"):
        Nimber(True)
    with pytest.raises(NimZeroDivisionError, match="nim-inverse of 0"):
        Nimber(0).inv()
    with pytest.raises(NimZeroDivisionError, match=r"nim-division of \*ω by 0"):
        Nimber("w") / 0
    with pytest.raises(OrdinalRangeError, match="not below ω\\^\\(ω\\^ω\\)"):
        Nimber("w^(w^w)")
    with pytest.raises(NimberError, match="exponent must be an int"):
        Nimber("w") ** 0.5
    with pytest.raises(TypeError):
        Nimber("w") * "w"


# -- one entry point ---------------------------------------------------------------------------


def test_dispatch_on_types():
    w = ordinal("w")
    assert nim_mul(16, 16) == 24 == finite.nim_mul(16, 16)
    assert type(nim_mul(w, w)) is type(w) and nim_mul(w, w) == ordinal("w^2")
    assert nim_mul(w, ordinal("w^2")) == 2 and type(nim_mul(w, ordinal("w^2"))) is int
    assert nim_mul(w, 2) == ordinal("w*2") and nim_mul(3, w) == ordinal("w*3")  # mixed
    assert nim_mul(Nimber("w"), 2) == Nimber("w*2") and isinstance(nim_mul(2, Nimber("w")), Nimber)
    arr = nim_mul(np.array([2, 16, 2**32], dtype=np.uint64), np.array([2, 16, 2**32]))
    assert arr.dtype == np.uint64 and arr.tolist() == [3, 24, 6442450944]
    assert nim_mul(np.array([1, 2, 3]), 3).tolist() == [3, 1, 2]  # array and scalar
    assert nim_mul([Nimber("w"), Nimber(2)], Nimber("w")) == [Nimber("w^2"), Nimber("w*2")]
    assert nim_mul([w, 2], [w, 3]) == [ordinal("w^2"), 1]
    obj = nim_mul(np.array([Nimber("w"), Nimber(3)], dtype=object), Nimber("w^2"))
    assert obj.dtype == object and list(obj) == [2, Nimber("w^2*3")]
    assert nim_add(w, 1) == ordinal("w+1") and nim_add(5, 3) == 6
    assert nim_add(np.array([5]), np.array([3])).tolist() == [6]
    assert nim_inv(2) == 3 and nim_inv(w) == ordinal("w^2*3") and nim_inv(Nimber("w")) == Nimber("w^2*3")
    assert nim_inv(np.array([2, 3], dtype=np.uint64)).tolist() == [3, 2]
    assert nim_div(2, w) == ordinal("w^2") and nim_div(np.array([1]), np.array([2])).tolist() == [3]
    assert nim_sqrt(w) == ordinal("w^2*2") and nim_sqrt(np.array([2], dtype=np.uint64)).tolist() == [3]
    assert nim_pow(w, 3) == 2 and nim_pow(Nimber("w"), -1) == Nimber("w^2*3")
    assert nim_pow([2, w], 3) == [1, 2]
    with pytest.raises(NimberError, match="sequences of different lengths 2 and 3"):
        nim_mul([1, 2], [1, 2, 3])
    with pytest.raises(NimberError, match="must be a non-negative"):
        nim_mul(-1, w)


def test_sympy_boundary_is_memoised_and_not_shared_mutably():
    a, b = ordinal("w^5+w^2*7+3"), ordinal("w^4+1")
    first = lenstra.nim_mul(a, b)
    assert lenstra.nim_mul(a, b) == first  # second call goes through both caches
    assert a in engine._IN_CACHE
    assert lenstra.nim_mul(a, 1) == a and lenstra.nim_mul(a, 0) == 0


# -- ogdoad, an independent implementation ------------------------------------------------------


def _og_to_sympy(x):
    fin = x.as_finite()
    if fin is not None:
        return int(fin)
    terms = [(_from(_og_to_sympy(e)), int(c)) for e, c in x.terms]
    return _out(_make(sorted(terms, key=lambda t: _key(t[0]), reverse=True)))


def _from(v):
    return v if isinstance(v, int) else _from_sympy(v)


def _key(cnf):
    from cgtalg.nimbers.ordinal import _key as k

    return k(cnf)


def _to_og(og, cnf):
    if isinstance(cnf, int):
        return og.Ordinal(cnf)
    acc = og.Ordinal(0)
    for e, c in cnf:
        acc = acc.nim_add(og.Ordinal.monomial(_to_og(og, e), c))
    return acc


def test_products_match_ogdoad():
    og = pytest.importorskip("ogdoad")
    import random

    rng = random.Random(2026)

    def text(k):
        parts = []
        for _ in range(rng.randint(1, 3)):
            exp = "+".join(f"w^{j}*{rng.randint(0, 3)}" for j in range(k)) or "0"
            parts.append(f"w^({exp})*{rng.randint(1, 20)}")
        return "+".join(parts)

    checked = 0
    for i in range(300):
        k = 1 + i % 3
        a, b = Nimber(text(k)), Nimber(text(k))
        ga, gb = _to_og(og, _from(a.to_ordinal())), _to_og(og, _from(b.to_ordinal()))
        assert _og_to_sympy(ga) == a.to_ordinal()  # the conversion itself round-trips
        prod = ga * gb
        if prod is None:
            continue
        assert _og_to_sympy(prod) == (a * b).to_ordinal(), (a, b)
        assert _og_to_sympy(ga + gb) == (a + b).to_ordinal()
        checked += 1
    assert checked >= 290
    # the example, and an inverse
    assert str(Nimber("w+1") * Nimber("w^2+w+5")) == "*(ω·4+7)"
    assert _og_to_sympy(og.Ordinal.omega().inv()) == Nimber("w").inv().to_ordinal()
    assert format_ordinal(_og_to_sympy(og.Ordinal.omega().checked_sqrt())) == "ω^2·2"


def test_docs_examples_run():
    """The examples of docs/nimbers.md's entry-point section run as doctests."""
    import doctest
    import pathlib

    text = (pathlib.Path(__file__).resolve().parents[1] / "docs" / "nimbers.md").read_text()
    start = text.index("<!-- nimber-api-doctest-start -->")
    end = text.index("<!-- nimber-api-doctest-end -->")
    section = text[start:end].replace("```python", "").replace("```", "")
    test = doctest.DocTestParser().get_doctest(section, {}, "docs/nimbers.md", None, 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert test.examples and runner.failures == 0


def test_pow_equals_repeated_products_and_sums_merge_both_ways():
    """x^⊗n by square-and-multiply equals n repeated ⊗ (definition of the power); ⊕ is
    coefficient-wise XOR of the CNF (ONAG ch. 6) whichever operand is longer or finite."""
    xs = [Nimber("w"), Nimber("w+1"), Nimber("w^2+w+5"), Nimber("w^(w*2)*3+w^5*7+w^2*9")]
    for x in xs:
        acc = Nimber(1)
        for n in range(0, 10):
            assert x ** n == acc, (x, n)
            acc = acc * x
        assert x ** 1 == x
        with pytest.raises(NimberError):
            x ** True
    a, b = Nimber("w^2+w+5"), Nimber("w+1")
    assert a + b == b + a == Nimber("w^2+4")
    assert a + 5 == 5 + a == Nimber("w^2+w") and (a + 5).is_finite is False
    assert a + a == 0 and (a + Nimber("w^2+w")) == 5 and (a + Nimber("w^2+w")).is_finite
    assert int(Nimber("w+3") + Nimber("w")) == 3


def test_nimber_constructor_and_parse_nimber():
    """cgtalg.nimbers.nimber.nimber: what cg.ordinal / cg.nimber give; parse_nimber reads
    ordinal text and Nimber's own printed form."""
    from cgtalg.nimbers import parse_nimber
    from cgtalg.nimbers.nimber import nimber

    assert type(nimber("w")) is Nimber and type(nimber(5)) is Nimber
    assert nimber("w^2*3+1") == Nimber(ordinal("w^2*3+1"))
    assert nimber(Nimber("w")) is nimber(Nimber("w")) or nimber(Nimber("w")) == Nimber("w")
    for x in (Nimber("w^2*3+1"), Nimber("w"), Nimber(5), Nimber("w^(w^2*4)+3"), Nimber("w+1")):
        assert parse_nimber(str(x)) == x
        assert nimber(str(x)) == x
    assert parse_nimber("*") == 1 and parse_nimber("*0") == 0 and parse_nimber(" *(ω·4+7) ") == Nimber("w*4+7")
    assert str(nimber("w^2*3+1")) == "*(ω^2·3+1)" and str(nimber("w")) == "*ω"
    with pytest.raises(NimberError):
        parse_nimber(3)
    with pytest.raises(NimberError):
        nimber(-1)


def test_sympy_interop():
    x = Nimber("w^2+w*3+1")
    s = x.to_sympy()
    assert s == ordinal("w^2+w*3+1") and x.to_ordinal() == s
    assert Nimber.from_ordinal(s) == x and Nimber.from_ordinal(7) == 7
    assert nim_mul(s, s) == (x * x).to_sympy()  # the sympy door still answers in sympy


def test_kappa_field_degree():
    assert lenstra.kappa_field_degree([]) == 1
    assert lenstra.kappa_field_degree([ordinal("w")]) == 6 == lenstra.kappa_field_degree([Nimber("w")])
    assert lenstra.kappa_field_degree([Nimber("w"), 5]) == 12
    assert lenstra.kappa_field_degree([Nimber("w^w")]) % 5 == 0


def test_repr_round_trips_through_the_constructor():
    for x in (Nimber("w^2*3+1"), Nimber(0), Nimber(1), Nimber("w^(w^2*4)+3"), Nimber("w^w")):
        assert Nimber(repr(x)) == x
    assert Nimber("*") == 1
