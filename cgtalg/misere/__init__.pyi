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
from .adders import adder, adder_description, adder_index, adder_sum
from .census import misere_class_counts, misere_p_count_born_by, misere_tame_count_born_by
from .equivalence_engine import nim_sum_outcome
from .genus import Genus, extended_genus, genus_class, genus_from_options
from .nim_positions import check_nim_position_classes, nim_position_game, nim_reduced_form, shortlex_precedes
from .partizan import misere_ge
from .partizan_certificate import MisereComparison
from .partizan_outcome import is_dead_ending, is_dicot, misere_adjoint
from .partizan_proof import check_misere_certificate
from .partizan_simplest import misere_simplification, partizan_misere_count_born_by, partizan_misere_games_born_by
from .parts import MiserePart, misere_is_even, misere_is_prime, misere_partitions, misere_parts
from .phylum import MisereClassification, Phylum, is_half_tame, misere_class, misere_classification, misere_phylum

__all__ = [
    "MisereCanonicalForm", "misere_canonical", "misere_canonical_game", "misere_canonical_sum",
    "misere_equal", "misere_simplest", "reducing_candidates",
    "misere_games_born_by", "misere_count_born_by", "misere_count_formula", "misere_day_counts",
    "EquivalenceResult", "equivalent", "linked", "link", "distinguisher", "equivalence_classes",
    "misere_mate", "format_misere", "misere_grundy", "misere_outcome", "misere_winning_moves",
    "check_proof", "play_outcome",
    "adder", "adder_description", "adder_index", "adder_sum", "misere_class_counts", "misere_p_count_born_by",
    "misere_tame_count_born_by", "nim_sum_outcome", "Genus", "extended_genus", "genus_class", "genus_from_options",
    "check_nim_position_classes", "nim_position_game", "nim_reduced_form", "shortlex_precedes", "misere_ge",
    "MisereComparison", "is_dead_ending", "is_dicot", "misere_adjoint", "check_misere_certificate",
    "misere_simplification", "partizan_misere_count_born_by", "partizan_misere_games_born_by", "MiserePart",
    "misere_is_even", "misere_is_prime", "misere_partitions", "misere_parts", "MisereClassification", "Phylum",
    "is_half_tame", "misere_class", "misere_classification", "misere_phylum",
]
