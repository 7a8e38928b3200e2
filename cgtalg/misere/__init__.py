"""Misère theory of forms: outcomes, canonical forms, genus, parts and phyla, the census of
games born by day n, equivalence with checkable proofs, and partizan misère play (Conway ONAG
ch. 12; Winning Ways ch. 13; Siegel CGT ch. V). Misère quotients are a package of their own,
:mod:`cgtalg.quotients`, a layer above.

The public names load on first use (scientific Python's ``lazy_loader``, SPEC 1; the names and
their modules are listed once, in ``__init__.pyi``), so that importing one module of the
package (say :mod:`cgtalg.misere.genus`) does not import the census, the canonical forms
and the equivalence engine as well.
"""

from cgtalg._stub import attach_stub as _attach_stub

__getattr__, __dir__ = _attach_stub(__name__, __file__)  # __all__ too, through __getattr__
