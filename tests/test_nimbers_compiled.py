"""The compiled nimber kernel (cgtalg/nimbers/_nimc.c) against the Python engine it replaces.

Sources of expected values: the mex definition of ⊗ (ONAG ch. 6, brute force below 64), the
Python implementation of Lenstra's κ/α engine (``engine.Engine``'s own methods, called unbound
so that they bypass the kernel; that engine is itself checked against the transfinite mex
definition and seed 004 in tests/test_nimbers_ordinal.py and tests/test_nimber_type.py), the
Python Nimber operators (``nimber._py_add`` / ``_py_mul``), and the field laws (x ⊗ x⁻¹ = 1,
(√x)² = x). A fresh interpreter with ``CGTALG_PURE_PYTHON=1`` runs the same products through the
Python path only, and must print the same values.
"""

from __future__ import annotations

import os
import pickle
import random
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

try:
    from conftest import skip_without_kernel
except ImportError:  # imported as tests.test_nimbers_compiled by the fresh interpreter below
    from tests.conftest import skip_without_kernel

from cgtalg.errors import OrdinalRangeError
from cgtalg.nimbers import alpha_table, compiled, engine, finite, nimber
from cgtalg.nimbers.nimber import Nimber
from cgtalg.nimbers.nimber_ops import nim_add, nim_mul

C = compiled.load()
needs_c = skip_without_kernel(C is not None, f"nimber kernel: {compiled.status()}")
ENG = engine.engine()
PY = engine.Engine  # unbound methods: the Python reference, whatever the instance routes


def random_text(rng: random.Random, k: int, terms: int, max_coeff: int = 15) -> str:
    """A nim-sum of ``terms`` monomials ω^β·c below ω^(ω^k)."""
    parts = []
    for _ in range(terms):
        exp = "+".join(f"w^{j}*{rng.randint(1, 3)}" for j in range(k) if rng.random() < 0.6) or "0"
        parts.append(f"w^({exp})*{rng.randint(1, max_coeff)}")
    return "+".join(parts) or "0"


def random_nimbers(seed: int, n: int, k: int = 3, max_coeff: int = 15) -> list[Nimber]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        if rng.random() < 0.15:
            out.append(Nimber(rng.choice([0, 1, rng.randrange(2, 256), rng.getrandbits(40)])))
        else:
            out.append(Nimber(random_text(rng, rng.randint(1, k), rng.randint(1, 3), max_coeff)))
    return out


def test_compiled_kernel_is_used_where_a_compiler_exists():
    """CI installs with gcc: the kernel must be built, fresh and in use there."""
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if os.environ.get("CGTALG_PURE_PYTHON", "") not in ("", "0") or not shutil.which(cc):
        pytest.skip("no C compiler, or the Python path was asked for")
    assert compiled.status() == "compiled"
    assert C.SOURCE_HASH == compiled.source_hash()  # of every _nimc*.c / _nimc*.h (hatch_build.py)
    assert isinstance(Nimber(3), C.NimberBase)


@needs_c
def test_finite_products_below_2_64():
    """The C product of finite nimbers: the mex definition below 64, the Python code beyond."""
    N = 64
    mul = [[0] * N for _ in range(N)]
    for a in range(N):
        for b in range(N):
            mul[a][b] = min(
                set(range(N * 4)) - {mul[x][b] ^ mul[a][y] ^ mul[x][y] for x in range(a) for y in range(b)}
            )
            assert C.nim_mul64(a, b) == mul[a][b]
    rng = random.Random(8)
    for bits in (8, 9, 16, 17, 31, 32, 33, 63, 64):
        for _ in range(2000):
            a, b = rng.getrandbits(bits), rng.getrandbits(bits)
            assert C.nim_mul64(a, b) == finite.nim_mul(a, b)
    assert C.nim_mul64(2**63, 2**63) == finite.nim_mul(2**63, 2**63)


@needs_c
@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_element_operations_equal_the_python_engine(k):
    xs = [n._v for n in random_nimbers(10 + k, 60, k)]
    elems = [{0: v} if type(v) is int and v else ({} if type(v) is int else v) for v in xs]
    for x, y in zip(elems, reversed(elems)):
        assert C.elem_mul(x, y) == PY.mul(ENG, x, y)
        assert C.elem_square(x) == PY.square(ENG, x)
        for m in (1, 2, 5):
            assert C.elem_frobenius(x, m) == PY.frobenius(ENG, x, m)
        if x:
            for n in (1, 2, 3, 5, 17, 1000):
                want = x
                for _ in range(n - 1):
                    want = PY.mul(ENG, want, x)
                assert C.elem_pow(x, n) == want if n < 20 else C.elem_pow(x, n) == PY.pow(ENG, x, n)


@needs_c
def test_nimber_operators_equal_the_python_path():
    xs = random_nimbers(3, 80)
    ys = random_nimbers(4, 80)
    for x, y in zip(xs, ys):
        assert x + y == nimber._py_add(x, y)
        assert x - y == nimber._py_add(x, y)
        assert x * y == nimber._py_mul(x, y)
        assert (x * y)._v == nimber._py_mul(x, y)._v
        assert type(x * y) is Nimber and type(x + y) is Nimber
    # mixed operands, both orders, and the units
    w = Nimber("w")
    assert 3 * w == w * 3 == nimber._py_mul(w, Nimber(3))
    assert 3 + w == w + 3 == Nimber("w+3")
    assert w * 1 is w and w * 0 == 0 and w + 0 is w and 0 + w is w
    assert w.__add__("w") is NotImplemented  # text is not an operand (TypeError below)
    with pytest.raises(TypeError):
        w + "w"  # noqa: B018


@needs_c
def test_coefficients_beyond_64_bits_take_the_python_path():
    """Finite coefficients ≥ 2^64 (the field GF(2^128) and up) leave the C fast path."""
    big = 2**100 + 12345
    x = Nimber(f"w*{big}+w^2*{2**70}+3")
    y = Nimber(f"w^2+{2**65}")
    assert x * y == nimber._py_mul(x, y)
    assert x + y == nimber._py_add(x, y)
    assert Nimber(big) * Nimber(big + 1) == Nimber(finite.nim_mul(big, big + 1))
    assert x * x.inv() == 1
    assert C.elem_mul(x._v, y._v) == PY.mul(ENG, x._v, y._v)
    assert C.elem_frobenius(x._v, 2) is None  # (the caller runs the Python loop)
    assert ENG.frobenius(x._v, 2) == PY.frobenius(ENG, x._v, 2)
    assert (x**5)._v == PY.pow(ENG, x._v, 5)


@needs_c
@pytest.mark.parametrize("k", [1, 2, 3])
def test_inverse_square_root_and_powers(k):
    """x ⊗ x⁻¹ = 1 (the small-field inverse is x^(2^E−2) in C, the large-field one the tower),
    √x ⊗ √x = x, and both inverse methods agree."""
    for x in random_nimbers(20 + k, 25, k):
        if not x:
            continue
        inv = x.inv()
        assert x * inv == 1
        if not x.is_finite:
            sig = ENG.sig(x._v)
            assert inv._v == ENG._inv_tower(x._v, sig)
        r = x.sqrt()
        assert r * r == x
        assert x**7 == x * x * x * x * x * x * x
        assert x**-2 == inv * inv


@needs_c
def test_alpha_beyond_the_table_is_the_librarys_error():
    """A product needing α_p beyond the shipped table: OrdinalRangeError naming the product,
    raised through the C slot exactly as through the Python path."""
    q = sympy_next_prime(alpha_table.max_tabled_prime())  # 719
    k = engine._prime_index(q)
    big = Nimber(f"w^(w^{k}*400)")  # κ_q^400: its square reaches κ_q^q = α_q
    with pytest.raises(OrdinalRangeError, match=f"nim-product .* needs alpha_p for p = {q}"):
        big * big  # noqa: B018
    with pytest.raises(OrdinalRangeError):
        C.elem_mul(big._v, big._v)
    assert big * Nimber(f"w^(w^{k}*300)") == Nimber(f"w^(w^{k}*700)")  # below κ_q^q: fine


def sympy_next_prime(p: int) -> int:
    import sympy

    return int(sympy.nextprime(p))


@needs_c
def test_bulk_lists_and_fallbacks():
    xs = random_nimbers(5, 200)
    ys = random_nimbers(6, 200)
    assert nim_mul(xs, ys) == [nimber._py_mul(x, y) for x, y in zip(xs, ys)]
    assert nim_add(xs, ys) == [nimber._py_add(x, y) for x, y in zip(xs, ys)]
    assert C.mul_lists(xs, [1] * 200) is None  # not all Nimbers: the caller dispatches
    assert nim_mul([2, 3], [3, 3]) == [1, 2]  # ints stay ints
    assert nim_mul(xs[:3], [Nimber(1)] * 3) == xs[:3]


@needs_c
def test_value_type_behaviour_with_the_c_base():
    w = Nimber("w^2+w")
    assert pickle.loads(pickle.dumps(w)) == w
    assert hash(w) == hash(Nimber("w^2+w")) and len({w, Nimber("w^2+w"), Nimber(3), 3}) == 2
    assert not hasattr(w, "__dict__")
    with pytest.raises(AttributeError):
        w._v = 5  # immutable


@needs_c
def test_cleared_product_cache_gives_the_same_results():
    xs = random_nimbers(30, 40, 3)
    before = [x * y for x, y in zip(xs, xs[1:])]
    C.clear()
    assert C.stats()["cached_products"] == 0
    assert [x * y for x, y in zip(xs, xs[1:])] == before


def test_pure_python_path_gives_the_same_values():
    """A fresh interpreter with CGTALG_PURE_PYTHON=1 computes the same products and inverses."""
    code = (
        "import random;from cgtalg.nimbers import compiled;from cgtalg.nimbers.nimber import Nimber;"
        "import tests.test_nimbers_compiled as t;xs=t.random_nimbers(7,60);"
        "print(compiled.status());"
        "print([str(x*y) for x,y in zip(xs,xs[1:])]);print([str(x+y) for x,y in zip(xs,xs[1:])]);"
        "print([str(x.inv()) for x in xs if x])"
    )
    root = Path(__file__).resolve().parent.parent
    outs = []
    for pure in ("1", "0"):
        env = dict(os.environ, CGTALG_PURE_PYTHON=pure)
        got = subprocess.run([sys.executable, "-c", code], env=env, cwd=root, capture_output=True, text=True, timeout=300)
        assert got.returncode == 0, got.stderr
        outs.append(got.stdout.splitlines())
    assert outs[0][0].startswith("disabled")
    assert outs[0][1:] == outs[1][1:]


@needs_c
def test_a_stale_build_is_not_used(tmp_path, monkeypatch):
    """A kernel built from another _nimc.c than the one beside it is refused, with a warning."""
    (tmp_path / "_nimc.c").write_text("/* an edited kernel */\n")
    monkeypatch.setattr(compiled.KERNEL, "directory", tmp_path)
    compiled.KERNEL.reset()
    try:
        with pytest.warns(RuntimeWarning, match="rebuild it with `pip install -e .`"):
            assert compiled.load() is None
        assert "stale" in compiled.status()
    finally:
        monkeypatch.undo()
        compiled.KERNEL.reset()
        compiled.load()


def _wide_text(rng: random.Random, k: int) -> str:
    """2–4 terms, coefficients up to 255, exponent coefficients up to 255 (many base-p digits,
    carries and α reductions): monomial products the table has not seen."""
    parts = []
    for _ in range(rng.randint(2, 4)):
        exp = "+".join(f"w^{j}*{rng.randint(1, 255)}" for j in range(k) if rng.random() < 0.7) or "1"
        parts.append(f"w^({exp})*{rng.randint(1, 255)}")
    return "+".join(parts)


@needs_c
@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_monomial_products_computed_in_c_equal_the_python_reduction(k):
    """The kernel computes a missing monomial product itself (keys interned in C); the Python
    engine's _mono_keys (its own table emptied, so nothing is shared) is the reference."""
    rng = random.Random(40 + k)
    xs = [Nimber(_wide_text(rng, k)) for _ in range(30)]
    C.clear()
    ENG._mono.clear()
    for x, y in zip(xs, xs[1:]):
        got = C.elem_mul(x._v, y._v)
        assert got == PY.mul(ENG, x._v, y._v)
        for ia in x._v:
            for ib in y._v:
                if ia and ib:
                    want = dict(PY.mono_mul(ENG, ia, ib))
                    assert C.elem_mul({ia: 1}, {ib: 1}) == want
    # the keys the kernel made are read by the Python engine (on first use) and print as
    # ordinals; interning a key the kernel made gives its id back
    for i in range(C.key_count()):
        key = ENG._keys[i]
        assert ENG._ids[key] == i and ENG.kid(key) == i
        if key:
            K = len(key) - 1
            assert C.intern_key(ENG.kid(engine._strip(key[:K])), K, key[K]) == i
    assert C.key_count() == len({ENG._keys[i] for i in range(C.key_count())})
    assert str(xs[0] * xs[1]) == str(nimber._py_mul(xs[0], xs[1]))


@needs_c
def test_clear_caches_empties_the_product_tables():
    from cgtalg.caches import clear_caches, registered_caches

    assert "nimbers.monomial products" in registered_caches()
    xs = random_nimbers(31, 30, 3)
    before = [x * y for x, y in zip(xs, xs[1:])]
    clear_caches()
    assert C.stats()["cached_products"] == 0 and not ENG._mono
    assert [x * y for x, y in zip(xs, xs[1:])] == before
