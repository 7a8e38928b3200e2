"""Misère quotients (Plambeck, Siegel): the construction and its strategies (repairing a
candidate, counting a heap's copies, the ray proof of an infinite quotient), pretensions and
their verification, the compiled searches (``_quotc*.c``), storage and resumption, play from a
quotient, and quotients of finite sets of forms.

Modules: :mod:`~cgtalg.quotients.construct` (:func:`misere_quotient`, the construction's
driver), :mod:`~cgtalg.quotients.pretension` (finite monoids, pretensions and their check),
:mod:`~cgtalg.quotients.extend` (repairing a candidate), :mod:`~cgtalg.quotients.count`
(counting levels), :mod:`~cgtalg.quotients.rays` and :mod:`~cgtalg.quotients.infinite` (ray
pretensions, the proof that a quotient is infinite and its certificate),
:mod:`~cgtalg.quotients.kernel` (the C searches and their Python fallbacks),
:mod:`~cgtalg.quotients.state` and :mod:`~cgtalg.quotients.storage` (the construction's state,
kept in a store and resumed), :mod:`~cgtalg.quotients.result` (:class:`MisereQuotient`),
:mod:`~cgtalg.quotients.play` (outcomes and winning moves read from a quotient),
:mod:`~cgtalg.quotients.forms` (the quotient of the closure of a set of forms).

The package sits above misère theory (:mod:`cgtalg.misere`) and below the rulesets; a ruleset
reaches it through the facts its protocol declares (:mod:`cgtalg.rulesets.protocol`). Public
names load on first use (``lazy_loader``; listed in ``__init__.pyi``).
"""

from cgtalg._stub import attach_stub as _attach_stub

__getattr__, __dir__ = _attach_stub(__name__, __file__)  # __all__ too, through __getattr__
