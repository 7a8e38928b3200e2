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

import lazy_loader as _lazy

__getattr__, __dir__, __all__ = _lazy.attach_stub(__name__, __file__)
