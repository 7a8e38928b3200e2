"""Nimbers: finite nimber-field arithmetic (Python ints of any size, numba kernels for 64-bit
arrays), ordinal nimbers below ω^(ω^ω) by Lenstra's κ/α method, and transfinite Nim.

The value type is :class:`Nimber` (``cgtalg.ordinal(...)`` and ``cgtalg.nimber(...)`` give
one; the constructor function is :func:`cgtalg.nimbers.nimber.nimber`, text is read by
:func:`parse_nimber`): its operators are the nim operations, run by the C kernel. ``nim_mul``,
``nim_add``, ``nim_div``, ``nim_inv``, ``nim_pow`` and ``nim_sqrt`` are the single entry points
of :mod:`cgtalg.nimbers.nimber`: they take Nimbers (straight to the kernel), ``int`` values, sympy
ordinals or integer numpy arrays and dispatch to the finite field code, Lenstra's κ/α engine or
the compiled kernels. Modules by topic: :mod:`~cgtalg.nimbers.finite` (finite nimbers),
:mod:`~cgtalg.nimbers.engine` (the κ/α engine), :mod:`~cgtalg.nimbers.lenstra` (ordinal
arithmetic on sympy ordinals, also re-exported here with an ``ordinal_`` prefix),
:mod:`~cgtalg.nimbers.polynomials` and :mod:`~cgtalg.nimbers.roots` (polynomials and their
roots), :mod:`~cgtalg.nimbers.ordinal` (sympy ordinals, their text; the parser is exported as
``parse_ordinal`` so that ``cgtalg.nimbers.ordinal`` stays the module, as
``cgtalg.nimbers.nimber`` does), :mod:`~cgtalg.nimbers.transfinite_nim`.
"""

from cgtalg.nimbers.alpha_table import alpha, alpha_provenance  # alpha_table(): see the module
from cgtalg.nimbers.finite import (
    QuadraticRoots,
    fermat_field,
    field_degree,
    nim_solve_quadratic,
    nim_square,
    nim_trace,
)
from cgtalg.nimbers.lenstra import kappa, kappa_field_degree, nim_degree
from cgtalg.nimbers.polynomials import parse_nim_polynomial
from cgtalg.nimbers.roots import NimRoots, nim_root, nim_roots
from cgtalg.nimbers.lenstra import nim_div as ordinal_nim_div
from cgtalg.nimbers.lenstra import nim_inv as ordinal_nim_inv
from cgtalg.nimbers.lenstra import nim_mul as ordinal_nim_mul
from cgtalg.nimbers.lenstra import nim_pow as ordinal_nim_pow
from cgtalg.nimbers.lenstra import nim_product as ordinal_nim_product
from cgtalg.nimbers.lenstra import nim_sqrt as ordinal_nim_sqrt
from cgtalg.nimbers.nimber import Nimber, nim_add, nim_div, nim_inv, nim_mul, nim_pow, nim_sqrt, parse_nimber
from cgtalg.nimbers.ordinal import OrdinalLike, as_ordinal, format_ordinal
from cgtalg.nimbers.ordinal import nim_add as ordinal_nim_add
from cgtalg.nimbers.ordinal import nim_sum as ordinal_nim_sum
from cgtalg.nimbers.ordinal import ordinal as parse_ordinal
from cgtalg.nimbers.transfinite_nim import format_moves, nim_outcome, nim_winning_moves

__all__ = [
    "Nimber", "QuadraticRoots", "fermat_field", "field_degree", "nim_add", "nim_div", "nim_inv", "nim_mul",
    "nim_pow", "nim_solve_quadratic", "nim_sqrt", "nim_square", "nim_trace",
    "alpha", "alpha_provenance", "NimRoots", "kappa", "nim_degree", "nim_root",
    "nim_roots", "parse_nim_polynomial", "ordinal_nim_div", "ordinal_nim_inv", "ordinal_nim_mul",
    "ordinal_nim_pow", "ordinal_nim_product", "ordinal_nim_sqrt", "OrdinalLike", "as_ordinal",
    "format_ordinal", "ordinal_nim_add", "ordinal_nim_sum", "parse_ordinal", "format_moves",
    "nim_outcome", "nim_winning_moves", "parse_nimber", "kappa_field_degree",
]
