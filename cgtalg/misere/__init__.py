"""Misère play: outcomes, canonical forms, the census of games born by day n, and
equivalence with checkable proofs (Conway ONAG ch. 12; Winning Ways ch. 13; Siegel CGT ch. V)."""

from cgtalg.misere.canonical import (
    MisereCanonicalForm,
    misere_canonical,
    misere_canonical_game,
    misere_canonical_sum,
    misere_equal,
    misere_simplest,
    reducing_candidates,
)
from cgtalg.misere.census import (
    misere_count_born_by,
    misere_count_formula,
    misere_day_counts,
    misere_games_born_by,
)
from cgtalg.misere.equivalence import distinguisher, equivalence_classes, equivalent, link, linked
from cgtalg.misere.equivalence_certificate import EquivalenceResult
from cgtalg.misere.equivalence_engine import misere_mate
from cgtalg.misere.notation import format_misere
from cgtalg.misere.outcome import misere_grundy, misere_outcome, misere_winning_moves
from cgtalg.misere.proof import check_proof, play_outcome

__all__ = [
    "MisereCanonicalForm", "misere_canonical", "misere_canonical_game", "misere_canonical_sum",
    "misere_equal", "misere_simplest", "reducing_candidates",
    "misere_games_born_by", "misere_count_born_by", "misere_count_formula", "misere_day_counts",
    "EquivalenceResult", "equivalent", "linked", "link", "distinguisher", "equivalence_classes",
    "misere_mate", "format_misere", "misere_grundy", "misere_outcome", "misere_winning_moves",
    "check_proof", "play_outcome",
]
