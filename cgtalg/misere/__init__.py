"""Misère play: outcomes, canonical forms, the census of games born by day n, and
equivalence with checkable proofs (Conway ONAG ch. 12; Winning Ways ch. 13; Siegel CGT ch. V).

The public names load on first use (scientific Python's ``lazy_loader``, SPEC 1; the names and
their modules are listed once, in ``__init__.pyi``), so that importing one module of the
package (say :mod:`cgtalg.quotients.construct`) does not import the census, the canonical forms
and the equivalence engine as well.
"""

import lazy_loader as _lazy

__getattr__, __dir__, __all__ = _lazy.attach_stub(__name__, __file__)
