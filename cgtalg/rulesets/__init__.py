"""Rulesets: the ruleset protocol, the generic position solver, Guy's parity game, octal /
hexadecimal / subtraction / Grundy's games, and periodicity (detected and certified).

Rulesets are data plus moves; the algorithms are functions that take a ruleset: the solver
(:func:`solve`, :func:`game_of`, :func:`build_dag`) for any ruleset, and for heap games
:func:`grundy_sequence`, :func:`heap_grundy`, :func:`heap_outcome`,
:func:`heap_winning_moves`, :func:`heap_misere_grundy` and :func:`heap_genus`.

The public names load on first use (scientific Python's ``lazy_loader``, SPEC 1; the names and
their modules are listed once, in ``__init__.pyi``), so that ``from cgtalg.rulesets.heaps.octal
import TakeAndBreak`` does not import networkx (the solver) or numba (the kernels compile on
their first call, :mod:`cgtalg.rulesets.heaps.lazy_jit`). ``octal()`` (in
:mod:`cgtalg.rulesets.heaps.octal`) is another name of :class:`TakeAndBreak`.
"""

from cgtalg._stub import attach_stub as _attach_stub

__getattr__, __dir__ = _attach_stub(__name__, __file__)  # __all__ too, through __getattr__
