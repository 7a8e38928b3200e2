"""Reference implementations of nimber arithmetic, kept for cross-checking; not the fast path.

The fast entry points are the doors of :mod:`cgtalg.nimbers` (``nim_add``, ``nim_mul``,
``nim_div``, ``nim_inv``, ``nim_pow``, ``nim_sqrt``) and the operators of
:class:`cgtalg.nimbers.Nimber`, which run in the C kernel. The functions here compute the same
values another way, so that one can be checked against the other:

* ``ordinal_nim_*``: Lenstra's κ/α arithmetic on sympy ordinals (:mod:`cgtalg.nimbers.lenstra`,
  :mod:`cgtalg.nimbers.ordinal`), sympy in and sympy out, each call converting through the
  memoised sympy boundary: several times slower than ``Nimber`` operands through the doors
  (``docs/performance.md``, "Ordinal nimbers against ogdoad"). The doors call these for sympy
  arguments, so they are the same arithmetic, reached without the kernel's representation.
* :func:`nim_add_by_definition`, :func:`nim_mul_by_definition`: the definitions themselves
  for small finite nimbers (Conway, ONAG ch. 6; Winning Ways ch. 4),
  ``a ⊕ b = mex{a' ⊕ b, a ⊕ b'}`` and ``a ⊗ b = mex{a' ⊗ b ⊕ a ⊗ b' ⊕ a' ⊗ b'}`` over
  ``a' < a``, ``b' < b``: no field structure used at all.

>>> from cgtalg.nimbers import nim_mul, parse_ordinal
>>> from cgtalg.nimbers.reference import nim_mul_by_definition, ordinal_nim_mul
>>> nim_mul_by_definition(8, 8) == nim_mul(8, 8) == 13
True
>>> ordinal_nim_mul(parse_ordinal("w"), parse_ordinal("w"))
w**2
"""

from __future__ import annotations

from cgtalg.errors import ArgumentError, ArgumentTypeError
from cgtalg.nimbers.lenstra import nim_div as ordinal_nim_div
from cgtalg.nimbers.lenstra import nim_inv as ordinal_nim_inv
from cgtalg.nimbers.lenstra import nim_mul as ordinal_nim_mul
from cgtalg.nimbers.lenstra import nim_pow as ordinal_nim_pow
from cgtalg.nimbers.lenstra import nim_product as ordinal_nim_product
from cgtalg.nimbers.lenstra import nim_sqrt as ordinal_nim_sqrt
from cgtalg.nimbers.ordinal import nim_add as ordinal_nim_add
from cgtalg.nimbers.ordinal import nim_sum as ordinal_nim_sum

__all__ = [
    "ordinal_nim_add", "ordinal_nim_sum", "ordinal_nim_mul", "ordinal_nim_product", "ordinal_nim_div",
    "ordinal_nim_inv", "ordinal_nim_pow", "ordinal_nim_sqrt", "DEFINITION_LIMIT", "nim_add_by_definition",
    "nim_mul_by_definition",
]

#: the definitions are computed for finite nimbers below this bound: the nimbers below 16 form
#: the field GF(16), closed under both operations, so the tables never index past it
DEFINITION_LIMIT = 16

# the tables filled so far: _SUMS[a][b] and _PRODUCTS[a][b] for a, b below their length
_SUMS: list[list[int]] = []
_PRODUCTS: list[list[int]] = []


def _mex(values: set[int]) -> int:
    m = 0
    while m in values:
        m += 1
    return m


def _checked(x: object, func: str) -> int:
    if isinstance(x, bool) or not isinstance(x, int):
        raise ArgumentTypeError(f"{func} takes finite nimbers as ints, not {type(x).__name__}")
    if not 0 <= x < DEFINITION_LIMIT:
        raise ArgumentError(f"{func} computes the definition for 0 <= n < {DEFINITION_LIMIT} only, "
                            f"not {x}: cgtalg.nimbers.{func.removesuffix('_by_definition')} is the fast door")
    return x


def _fill() -> None:
    """Fill both tables below :data:`DEFINITION_LIMIT` by the definitions, each entry from
    entries with a smaller argument (sums first: the products' options are nim-sums)."""
    n = DEFINITION_LIMIT
    sums = [[0] * n for _ in range(n)]
    for a in range(n):
        for b in range(n):
            sums[a][b] = _mex({sums[x][b] for x in range(a)} | {sums[a][y] for y in range(b)})
    products = [[0] * n for _ in range(n)]
    for a in range(n):
        for b in range(n):
            products[a][b] = _mex({sums[sums[products[x][b]][products[a][y]]][products[x][y]]
                                   for x in range(a) for y in range(b)})
    _SUMS[:], _PRODUCTS[:] = sums, products


def nim_add_by_definition(a: int, b: int) -> int:
    """The nim-sum by its definition ``mex{a' ⊕ b, a ⊕ b'}`` (for ``0 <= a, b < 16``).

    >>> nim_add_by_definition(5, 3) == 5 ^ 3
    True
    """
    a, b = _checked(a, "nim_add_by_definition"), _checked(b, "nim_add_by_definition")
    if not _SUMS:
        _fill()
    return _SUMS[a][b]


def nim_mul_by_definition(a: int, b: int) -> int:
    """The nim-product by its definition ``mex{a' ⊗ b ⊕ a ⊗ b' ⊕ a' ⊗ b'}`` (``0 <= a, b < 16``).

    >>> [nim_mul_by_definition(2, b) for b in range(4)], nim_mul_by_definition(4, 4)
    ([0, 2, 3, 1], 6)
    """
    a, b = _checked(a, "nim_mul_by_definition"), _checked(b, "nim_mul_by_definition")
    if not _SUMS:
        _fill()
    return _PRODUCTS[a][b]
