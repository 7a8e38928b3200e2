"""Normal play: Grundy values and the mex (:mod:`.grundy`), partizan canonical forms and
comparison (:mod:`.partizan`, compiled in :mod:`.partizan_kernel`), thermography
(:mod:`.thermography`), atomic weights (:mod:`.atomic_weight`), Norton products, ordinal sums,
heating and reduced canonical forms (:mod:`.norton`, :mod:`.ordinal_sum`, :mod:`.heating`,
:mod:`.reduced`), and loopy games: outcomes, stoppers, sides and sidling (:mod:`.loopy`,
:mod:`.loopy_simplify`, :mod:`.loopy_sidling`).

The questions themselves are asked through the doors (:mod:`cgtalg.ops`: ``cgtalg.outcome``,
``cgtalg.canonical_form``, ``cgtalg.mean``, ...). The public names below load on first use
(scientific Python's ``lazy_loader``, SPEC 1; listed once, in ``__init__.pyi``).
"""

from cgtalg._stub import attach_stub as _attach_stub

__getattr__, __dir__ = _attach_stub(__name__, __file__)  # __all__ too, through __getattr__
