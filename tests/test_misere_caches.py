"""Every module-level cache of the misère package is registered with cgtalg.caches (issue 19):
one cgtalg.clear_caches() empties them, and answers computed afresh are the same."""

from __future__ import annotations

import cgtalg as cg
from cgtalg.caches import clear_caches, registered_caches
from cgtalg.core.partizan import nimber
from cgtalg.misere.adders import adder_index
from cgtalg.misere.canonical import misere_canonical_sum
from cgtalg.misere.equivalence import equivalent
from cgtalg.misere.partizan import misere_equal
from cgtalg.misere.partizan_canonical import partizan_misere_canonical_form
from cgtalg.misere.phylum import misere_phylum
from cgtalg.quotients.construct import misere_quotient
from cgtalg.quotients.state import known_state
from cgtalg.rulesets.heaps.octal import TakeAndBreak


def _answers():
    r = TakeAndBreak("0.123")
    q = misere_quotient(r, max_heap=8, progress=False)
    star = nimber(1)
    return (
        equivalent("*2+*", "*3").holds,
        bool(misere_equal(star + star, 0, universe="dicot")),
        partizan_misere_canonical_form(star + star, "dead-ending").id,
        str(misere_phylum(cg.parse("{*2, {*2}}"))),
        adder_index(cg.nim(2) + cg.nim(2)),
        misere_canonical_sum(cg.nim(2), cg.nim(3)) == cg.canonical_form(cg.nim(1), misere=True, universe="impartial"),
        (q.order, len(q.p_portion)),
    )


def test_misere_caches_are_registered():
    names = set(registered_caches())
    for name in ("misere.equivalence", "misere.partizan comparisons", "misere.known quotients",
                 "misere.canonical sums", "misere.phyla", "misere.adders"):
        assert name in names


def test_clear_caches_empties_them_and_answers_stay():
    before = _answers()
    assert known_state(TakeAndBreak("0.123")) is not None
    clear_caches()
    assert known_state(TakeAndBreak("0.123")) is None
    assert _answers() == before


def test_partizan_forms_are_refused_by_the_impartial_misere_functions_by_name():
    """A partizan game ({0|} = 1) has no impartial misère answer: refused, naming the doors that
    answer. An impartial game written in partizan notation (*2 = {0,*|0,*}) is answered as the
    impartial game it is (issue 19)."""
    import pytest

    from cgtalg.core.partizan import integer
    from cgtalg.errors import GameKindError

    with pytest.raises(GameKindError, match="impartial games only") as err:
        cg.canonical_form(integer(1), misere=True, universe="impartial")
    assert any("universe='dicot'" in name for name in err.value.answered_by)
    with pytest.raises(GameKindError, match="partizan game"):
        cg.misere_grundy(integer(1))
    with pytest.raises(GameKindError, match="cgtalg.compare"):
        equivalent(integer(1), "*")
    assert cg.canonical_form(nimber(2), misere=True, universe="impartial") is cg.canonical_form(cg.nim(2), misere=True, universe="impartial")
    assert equivalent(nimber(1), "*").holds
