# The public names of cgtalg.misere and their modules, read by lazy_loader.attach_stub at run
# time (each loaded on first use) and by type checkers. To add a public name: one import line here.
from .canonical import (
    MisereCanonicalForm,
    misere_canonical,
    misere_canonical_game,
    misere_canonical_sum,
    misere_equal,
    misere_simplest,
    reducing_candidates,
)
from .census import misere_count_born_by, misere_count_formula, misere_day_counts, misere_games_born_by
from .equivalence import distinguisher, equivalence_classes, equivalent, link, linked
from .equivalence_certificate import EquivalenceResult
from .equivalence_engine import misere_mate
from .notation import format_misere
from .outcome import misere_grundy, misere_outcome, misere_winning_moves
from .proof import check_proof, play_outcome

__all__ = [
    "MisereCanonicalForm", "misere_canonical", "misere_canonical_game", "misere_canonical_sum",
    "misere_equal", "misere_simplest", "reducing_candidates",
    "misere_games_born_by", "misere_count_born_by", "misere_count_formula", "misere_day_counts",
    "EquivalenceResult", "equivalent", "linked", "link", "distinguisher", "equivalence_classes",
    "misere_mate", "format_misere", "misere_grundy", "misere_outcome", "misere_winning_moves",
    "check_proof", "play_outcome",
]
