"""describe() and prove_equivalence(): properties and proofs answered from the store."""

from __future__ import annotations

import pytest

import cgtalg as cg
from cgtalg import report as report_module
from cgtalg.store import open_store


@pytest.fixture
def store(tmp_path):
    s = open_store(str(tmp_path / "store.sqlite"))
    yield s
    s.close()


def test_describe_values_match_the_definitions():
    r = cg.describe("{*2}")
    assert set(r.values) == set(report_module.PROPERTIES)
    # {*2}: its only option *2 is an N-position in both conventions, so {*2} is P in both.
    assert (r["grundy"], r["normal_outcome"], r["misere_grundy"], r["misere_outcome"]) == (0, "P", 0, "P")
    assert r["misere_canonical"] == "*[2#]" and r["birthday"] == 3
    r = cg.describe(cg.nim(3) + cg.nim(1))
    # misère Nim (Bouton): *3+*1 has a heap >= 2 and nim-sum 2 -> N; winning move to *2+*1? no: to *1+*1? no;
    # the P-options are those of nim-sum 0 with a heap >= 2, or an odd number of 1-heaps: *1 (take the 3-heap).
    assert r["misere_outcome"] == "N" and r["misere_winning_moves"] == ["*"]
    assert r["normal_winning_moves"] == ["{*}"]  # *1+*1 as a literal form is {*}


def test_repeated_query_is_answered_from_the_store_without_recomputation(store, monkeypatch):
    first = cg.describe("{0, {*2}}", store=store)
    assert first.from_store == set()

    def explode(*args, **kwargs):
        raise AssertionError("recomputed a stored property")

    monkeypatch.setattr(report_module, "property_computers", lambda: {name: explode for name in report_module.PROPERTIES})
    again = cg.describe("{0, {*2}}", store=store)
    assert again.values == first.values
    assert again.from_store == set(report_module.PROPERTIES)
    # a second process (a new Store object on the same file) sees the same values
    other = open_store(store.url)
    try:
        assert cg.describe("{0, {*2}}", store=other).values == first.values
    finally:
        other.close()


def test_equivalence_is_stored_once_checked(store, monkeypatch):
    first = report_module.prove_equivalence("*2+*1", "*3", store=store)
    # Spindler (seed 002), Theorem 5: n + 1 ≡ n ⊕ 1 in the impartial misère universe
    assert first.holds and first.proof_checked and not first.from_store

    import cgtalg.misere.equivalence as eq

    monkeypatch.setattr(eq, "equivalent", lambda *a, **k: pytest.fail("recomputed a stored verdict"))
    again = report_module.prove_equivalence("*2+*1", "*3", store=store)
    assert again.from_store and again.holds and again.explanation == first.explanation
    assert store.get_relation(cg.parse("*2+*1"), cg.parse("*3"), "misere_equivalent")["holds"] is True


def test_equivalence_without_store_normal_play():
    r = report_module.prove_equivalence("*2+*2", "0", misere=False)
    assert r.holds and r.proof_checked  # normal play: G + G = 0
    r = report_module.prove_equivalence("*2+*2", "0", misere=True)
    assert not r.holds and r.proof_checked  # misère: *2+*2 is not 0 (Plambeck, seed 000: genus 0^02 vs 0^120)


def test_forms_with_astronomical_texts_are_described_cheaply():
    """*20+*20+*20: 9261 subpositions, but its misère canonical form's *[...] text is
    astronomically long (regression: the full text exhausted 16 GB). Reports cut display texts."""
    r = cg.describe("*20+*20+*20")
    assert r["grundy"] == 20 ^ 20 ^ 20 and r["misere_grundy"] == 20  # Bouton; misère Nim rule
    assert len(r["misere_canonical"]) == report_module.CANONICAL_TEXT_LIMIT
    assert r["misere_canonical"].startswith("*[") and r["misere_canonical"].endswith("...")
    assert len(repr(cg.canonical_form("*20+*20+*20", misere=True, universe="impartial"))) < 300
