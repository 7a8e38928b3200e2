"""A heap far beyond a final misère quotient is answered from it, never searched; without one,
a search that cannot fit is refused up front (issue 20, part 5).

Before issue 20, ``cgtalg outcome 0.77 10**30 --misere`` took 7.8 GB in 33 s (the search built
the classes of every heap up to 10**30 until memory ran out) although Kayles' misère quotient
is final, and ``outcome 0.16 2^200 --misere`` 5.6 GB. Now a heap above
:data:`cgtalg.quotients.play.LARGE_HEAP` of a finite code looks for the final quotient
first (within a budget), and answers from its periodic Φ; the search refuses what cannot fit
under the memory ceiling, at once.
"""

from __future__ import annotations

import pytest

from cgtalg.budget import rss_bytes
from cgtalg.errors import ComputationLimitError
from cgtalg.quotients import play as QP
from cgtalg.quotients.construct import misere_quotient
from cgtalg.quotients.state import forget_known
from cgtalg.rulesets.heaps.position import HeapMove
from cgtalg.rulesets.heaps.octal import TakeAndBreak
from misere_brute import MisereBrute

BIG = (10**30, 2**200, 3**100 + 1)


def _never_searched(monkeypatch):
    """Make the exhaustive misère search fail if anything calls it: an answer then came from
    the quotient (no timing assert: speed is measured in benchmarks/, not here)."""
    import cgtalg.rulesets.heaps.misere_play as mp

    def refuse(*args, **kwargs):
        raise AssertionError("the exhaustive misère search ran")

    for name in ("misere_search_outcome", "misere_search_winning_moves"):
        if hasattr(mp, name):
            monkeypatch.setattr(mp, name, refuse)


def _small(q, h: int) -> int:
    """A small heap of the same residue class as ``h`` past the preperiod of Φ."""
    n0, p = q.period
    return n0 + p + (h - n0) % p


@pytest.mark.parametrize("code", ["0.71", "0.34", "4.3", "0.304"])
def test_big_heaps_answer_from_the_final_quotient(code, monkeypatch):
    forget_known()
    monkeypatch.setattr(QP, "_TRIED", {})
    _never_searched(monkeypatch)
    r = TakeAndBreak(code)
    # no quotient known yet: the first query computes the final one (under a second for these)
    assert r.outcome([10**30], misere=True) in "PN"
    q = misere_quotient(r, progress=False)
    assert q.final
    brute = MisereBrute(r)
    for big in (BIG, (BIG[0],), (BIG[1], 5), (BIG[0], BIG[1], 7, 7)):
        got = r.outcome(list(big), misere=True)
        small = [_small(q, h) if h > q.checked_to else h for h in big]
        assert got == ("P" if q.is_p(small) else "N") == ("P" if q.is_p(list(big)) else "N")
        if sum(small) <= 30:
            assert got == ("P" if brute.is_p(tuple(small)) else "N")
    # winning moves of a huge heap come from the quotient too (families of splits)
    moves = r.winning_moves([2**200, 3], misere=True)
    assert all(isinstance(m, HeapMove) for m in moves)


@pytest.mark.slow
def test_kayles_10_30(monkeypatch):
    # the issue's example (slow: the quotient itself takes 4-13 s to find): Kayles' final quotient (order 40, Φ of period 12 from heap 71)
    forget_known()
    r = TakeAndBreak("0.77")
    q = misere_quotient(r, max_seconds=120, progress=False)
    assert q.final and q.order == 40 and q.period == (71, 12)
    before = rss_bytes()
    _never_searched(monkeypatch)
    assert r.outcome([10**30], misere=True) == ("P" if q.is_p([_small(q, 10**30)]) else "N")
    assert r.outcome([2**200], misere=True) == ("P" if q.is_p([_small(q, 2**200)]) else "N")
    assert rss_bytes() - before < 50 << 20


def test_without_a_final_quotient_a_huge_heap_is_refused_at_once(monkeypatch):
    # 0.16's misère quotient is not found within the attempt's budget (made short here)
    monkeypatch.setattr(QP, "QUOTIENT_SECONDS", 0.5)
    monkeypatch.setattr(QP, "_TRIED", {})
    forget_known()
    r = TakeAndBreak("0.16")
    before = rss_bytes()
    with pytest.raises(ComputationLimitError) as info:
        r.outcome([2**200], misere=True)
    msg = str(info.value)
    assert "memory ceiling" in msg and "cgtalg quotient 0.16" in msg
    # no ceiling would hold a search over 10^60 tokens: the message does not suggest one
    assert "not enough" in msg and "--memory" not in msg and "max_memory=" not in msg
    assert len(msg) < 600 and str(2**200) not in msg
    # the attempt is not repeated with the same budget: a second one would fail here
    import cgtalg.quotients.construct as quotient_module

    def again(*args, **kwargs):
        raise AssertionError("the quotient attempt was repeated")

    monkeypatch.setattr(quotient_module, "misere_quotient", again)
    with pytest.raises(ComputationLimitError):
        r.outcome([10**30, 3], misere=True)
    with pytest.raises(ComputationLimitError):
        r.winning_moves([10**30], misere=True)
    with pytest.raises(ComputationLimitError):
        r.misere_grundy_value([10**30])
    assert rss_bytes() - before < 300 << 20


def test_rulesets_without_a_periodicity_theorem_are_refused_up_front():
    # misère Nim (an infinite code): no final quotient is looked for; the search refuses
    r = TakeAndBreak("0.[3]")
    before = rss_bytes()
    with pytest.raises(ComputationLimitError, match="memory ceiling"):
        r.outcome([10**30, 1], misere=True)
    assert rss_bytes() - before < 100 << 20  # refused before anything was built
    # while small heaps are searched as before
    assert r.outcome([2, 2], misere=True) == "P" and r.outcome([1, 1], misere=True) == "N"
