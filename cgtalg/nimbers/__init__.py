"""Nimbers: finite nimber-field arithmetic (Python ints of any size, numba kernels for 64-bit
arrays), ordinal nimbers below ω^(ω^ω) by Lenstra's κ/α method, and transfinite Nim.

The value type is :class:`Nimber` (``cgtalg.ordinal(...)`` and ``cgtalg.nimber(...)`` give
one; the constructor function is :func:`cgtalg.nimbers.nimber.nimber`, text is read by
:func:`parse_nimber`): its operators are the nim operations, run by the C kernel. ``nim_mul``,
``nim_add``, ``nim_div``, ``nim_inv``, ``nim_pow`` and ``nim_sqrt`` are the single entry points
of :mod:`cgtalg.nimbers.nimber_ops`: they take Nimbers (straight to the kernel), ``int`` values, sympy
ordinals or integer numpy arrays and dispatch to the finite field code, Lenstra's κ/α engine or
the compiled kernels: they are the fast path. Modules by topic: :mod:`~cgtalg.nimbers.finite`
(finite nimbers), :mod:`~cgtalg.nimbers.engine` (the κ/α engine), :mod:`~cgtalg.nimbers.lenstra`
(ordinal arithmetic on sympy ordinals),
:mod:`~cgtalg.nimbers.polynomials` and :mod:`~cgtalg.nimbers.roots` (polynomials and their
roots), :mod:`~cgtalg.nimbers.ordinal` (sympy ordinals, their text; the parser is exported as
``parse_ordinal`` so that ``cgtalg.nimbers.ordinal`` stays the module, as
``cgtalg.nimbers.nimber`` does), :mod:`~cgtalg.nimbers.transfinite_nim`.

Reference implementations, kept for cross-checking and slower than the doors, are not listed
here: :mod:`cgtalg.nimbers.reference` (``ordinal_nim_mul`` and the other operations on sympy
ordinals, and the mex definitions of the finite sum and product).
"""

import importlib as _importlib

import lazy_loader as _lazy

# The public names and their modules (lazy_loader, SPEC 1: each module loads on first use, so
# that `cgtalg nim mul w w` imports neither numpy's tables of the finite field nor sympy nor
# numba when it does not need them). ``parse_ordinal`` is :func:`cgtalg.nimbers.ordinal.ordinal`,
# renamed so that ``cgtalg.nimbers.ordinal`` stays the module.
_NAMES = {
    "alpha_table": ["alpha", "alpha_provenance"],
    "finite": ["QuadraticRoots", "fermat_field", "field_degree", "nim_solve_quadratic", "nim_square", "nim_trace"],
    "lenstra": ["kappa", "kappa_field_degree", "nim_degree"],
    "polynomials": ["parse_nim_polynomial"],
    "roots": ["NimRoots", "nim_root", "nim_roots"],
    "nimber": ["Nimber", "parse_nimber"],
    "nimber_ops": ["nim_add", "nim_div", "nim_inv", "nim_mul", "nim_pow", "nim_sqrt"],
    "ordinal": ["OrdinalLike", "as_ordinal", "format_ordinal"],
    "transfinite_nim": ["format_moves", "nim_outcome", "nim_winning_moves"],
}
_ALIASES = {
    "parse_ordinal": ("ordinal", "ordinal"),
}
_getattr, _dir, _ = _lazy.attach(__name__, submod_attrs=_NAMES)


def __getattr__(name: str):
    if name in _ALIASES:
        module, attr = _ALIASES[name]
        value = getattr(_importlib.import_module(f"{__name__}.{module}"), attr)
        globals()[name] = value
        return value
    return _getattr(name)


def __dir__() -> list:
    return sorted(set(_dir()) | set(_ALIASES))


__all__ = [
    "Nimber", "QuadraticRoots", "fermat_field", "field_degree", "nim_add", "nim_div", "nim_inv", "nim_mul",
    "nim_pow", "nim_solve_quadratic", "nim_sqrt", "nim_square", "nim_trace",
    "alpha", "alpha_provenance", "NimRoots", "kappa", "nim_degree", "nim_root",
    "nim_roots", "parse_nim_polynomial", "OrdinalLike", "as_ordinal",
    "format_ordinal", "parse_ordinal", "format_moves",
    "nim_outcome", "nim_winning_moves", "parse_nimber", "kappa_field_degree",
]
