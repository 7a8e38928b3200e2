"""Shared by the tests of the quotient strategies (test_quotient_extend, test_quotient_count)."""

from __future__ import annotations

from cgtalg.quotients import construct as Q
from cgtalg.quotients.state import forget_known, known_state
from cgtalg.rulesets.heaps.octal import TakeAndBreak


def fresh_quotient(code, n, strategy=None):
    """``(Q_n, its verified pretension)`` of ``code`` computed afresh (nothing remembered or
    stored is reused), with ``_extend`` replaced by ``strategy`` if given."""
    forget_known()
    saved = Q._extend
    if strategy is not None:
        Q._extend = strategy
    try:
        q = Q.misere_quotient(TakeAndBreak(code), max_heap=n, progress=False, resume=False,
                               strategy="repair")
        pre = known_state(TakeAndBreak(code)).pre
    finally:
        Q._extend = saved
        forget_known()
    return q, pre
