"""cgtalg: combinatorial game theory research library.

Impartial games in normal and misère play, misère canonical forms and equivalence proofs,
octal and take-and-break games, finite and ordinal nimber arithmetic; results memoised in
a persistent SQLAlchemy store.

    >>> import cgtalg as cg
    >>> G = cg.parse("{*2}")
    >>> cg.grundy(G), cg.misere_grundy(G)
    (0, 0)
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from cgtalg import hooks as _hooks

__version__ = "0.1.0"

# The package root stands above every layer: it fills the registration points of the lower
# layers (cgtalg.hooks) with references that are imported on first use.
_hooks.position_game.provide("cgtalg.rulesets.registry:position_game", default=True)
_hooks.form_html.provide("cgtalg.viz.html:game_html", default=True)
_hooks.partizan_le.provide("cgtalg.normal.partizan:le", default=True)
_hooks.partizan_canonical.provide("cgtalg.normal.partizan:canonical_form", default=True)
_hooks.partizan_canonical_sum.provide("cgtalg.normal.partizan:canonical_sum", default=True)
_hooks.partizan_mean.provide("cgtalg.normal.thermography:mean", default=True)
_hooks.partizan_higher_up.provide("cgtalg.normal.partizan:higher_up", default=True)
_hooks.partizan_higher_parts.provide("cgtalg.normal.partizan:higher_uptimal_parts", default=True)

# Public name -> (module, attribute); attribute None means the module itself.  The modules
# load on first access (PEP 562), so ``import cgtalg`` stays cheap: no numba, sympy, numpy,
# networkx or sqlalchemy until a name that needs them is used.  To add a public name, add
# one line here and the name to ``__all__``.
_LAZY: dict[str, tuple[str, str | None]] = {
    "errors": ("cgtalg.errors", None),
    "clear_caches": ("cgtalg.caches", "clear_caches"),
    "nimbers": ("cgtalg.nimbers", None),
    "Evaluator": ("cgtalg.core", 'Evaluator'),
    "Game": ("cgtalg.core", 'Game'),
    "check_acyclic": ("cgtalg.core", 'check_acyclic'),
    "format_game": ("cgtalg.core", 'format_game'),
    "from_networkx": ("cgtalg.core", 'from_networkx'),
    "game_table_size": ("cgtalg.core", 'game_table_size'),
    "nim": ("cgtalg.core", 'nim'),
    "parse": ("cgtalg.core", 'parse'),
    "star": ("cgtalg.core", 'star'),
    "to_networkx": ("cgtalg.core", 'to_networkx'),
    "zero": ("cgtalg.core", 'zero'),
    "EquivalenceResult": ("cgtalg.misere", 'EquivalenceResult'),
    "MisereCanonicalForm": ("cgtalg.misere", 'MisereCanonicalForm'),
    "check_proof": ("cgtalg.misere", 'check_proof'),
    "distinguisher": ("cgtalg.misere", 'distinguisher'),
    "equivalence_classes": ("cgtalg.misere", 'equivalence_classes'),
    "equivalent": ("cgtalg.misere", 'equivalent'),
    "format_misere": ("cgtalg.misere", 'format_misere'),
    "link": ("cgtalg.misere", 'link'),
    "linked": ("cgtalg.misere", 'linked'),
    "misere_canonical": ("cgtalg.misere", 'misere_canonical'),
    "misere_count_born_by": ("cgtalg.misere", 'misere_count_born_by'),
    "misere_day_counts": ("cgtalg.misere", 'misere_day_counts'),
    "misere_equal": ("cgtalg.misere", 'misere_equal'),
    "misere_games_born_by": ("cgtalg.misere", 'misere_games_born_by'),
    "misere_grundy": ("cgtalg.misere", 'misere_grundy'),
    "misere_mate": ("cgtalg.misere", 'misere_mate'),
    "misere_outcome": ("cgtalg.misere", 'misere_outcome'),
    "misere_winning_moves": ("cgtalg.misere", 'misere_winning_moves'),
    "GrundysGame": ("cgtalg.rulesets", 'GrundysGame'),
    "ParityGame": ("cgtalg.rulesets", 'ParityGame'),
    "Solution": ("cgtalg.rulesets", 'Solution'),
    "TakeAndBreak": ("cgtalg.rulesets", 'TakeAndBreak'),
    "build_dag": ("cgtalg.rulesets", 'build_dag'),
    "find_period": ("cgtalg.rulesets", 'find_period'),
    "game_of": ("cgtalg.rulesets", 'game_of'),
    "get_ruleset": ("cgtalg.rulesets", 'get_ruleset'),
    "grundys_game": ("cgtalg.rulesets", 'grundys_game'),
    "heap_ruleset": ("cgtalg.rulesets", 'heap_ruleset'),
    "ruleset_from_function": ("cgtalg.rulesets", 'ruleset_from_function'),
    "solve": ("cgtalg.rulesets", 'solve'),
    "subtraction": ("cgtalg.rulesets", 'subtraction'),
    "fold": ("cgtalg.core.fold", 'fold'),
    "game": ("cgtalg.core.game", 'game'),
    "ordinal": ("cgtalg.nimbers.ordinal", 'ordinal'),
    "EquivalenceReport": ("cgtalg.report", 'EquivalenceReport'),
    "GameReport": ("cgtalg.report", 'GameReport'),
    "describe": ("cgtalg.report", 'describe'),
    "prove_equivalence": ("cgtalg.report", 'prove_equivalence'),
    "octal": ("cgtalg.rulesets.octal", 'octal'),
    "grundy": ("cgtalg.normal.grundy", 'grundy'),
    "mex": ("cgtalg.normal.grundy", 'mex'),
    "normal_outcome": ("cgtalg.normal.grundy", 'normal_outcome'),
    "normal_winning_moves": ("cgtalg.normal.grundy", 'normal_winning_moves'),
    "Nimber": ("cgtalg.nimbers.nimber", 'Nimber'),
    "nim_mul": ("cgtalg.nimbers.nimber", 'nim_mul'),
    "nim_add": ("cgtalg.nimbers.nimber", 'nim_add'),
    "nim_div": ("cgtalg.nimbers.nimber", 'nim_div'),
    "nim_inv": ("cgtalg.nimbers.nimber", 'nim_inv'),
    "nim_pow": ("cgtalg.nimbers.nimber", 'nim_pow'),
    "nim_sqrt": ("cgtalg.nimbers.nimber", 'nim_sqrt'),
    "MATERIALISE_LIMIT": ("cgtalg.core.game", 'MATERIALISE_LIMIT'),
    "WALK_LIMIT": ("cgtalg.core.game", 'WALK_LIMIT'),
    "walk_size": ("cgtalg.core.game", 'walk_size'),
    "sum_size": ("cgtalg.core.game", 'sum_size'),
    "MISERE_DEPTH_LIMIT": ("cgtalg.core.notation", 'MISERE_DEPTH_LIMIT'),
    "MAX_HEAP_DIGITS": ("cgtalg.core.notation", 'MAX_HEAP_DIGITS'),
    "nim_sum_outcome": ("cgtalg.misere.equivalence", 'nim_sum_outcome'),
    "position_game": ("cgtalg.rulesets.registry", 'position_game'),
    "open_store": ("cgtalg.store.store", 'open_store'),
    "verify_store": ("cgtalg.store.verify", 'verify_store'),
    "octal_census": ("cgtalg.census.run", 'octal_census'),
    "CensusResult": ("cgtalg.census.table", 'CensusResult'),
    "CensusRow": ("cgtalg.census.table", 'CensusRow'),
    "Disagreement": ("cgtalg.census.table", 'Disagreement'),
    "read_published": ("cgtalg.census.table", 'read_published'),
    "diff_published": ("cgtalg.census.table", 'diff_published'),
    "CensusParams": ("cgtalg.census.tasks", 'CensusParams'),
    "enumerate_codes": ("cgtalg.census.codes", 'enumerate_codes'),
    "census_classes": ("cgtalg.census.codes", 'census_classes'),
    "periodicity_memory_estimate": ("cgtalg.rulesets.octal_periodicity", 'periodicity_memory_estimate'),
    "nim_reduced_form": ("cgtalg.misere.nim_positions", 'nim_reduced_form'),
    "shortlex_precedes": ("cgtalg.misere.nim_positions", 'shortlex_precedes'),
    "check_nim_position_classes": ("cgtalg.misere.nim_positions", 'check_nim_position_classes'),
    "nim_position_game": ("cgtalg.misere.nim_positions", 'nim_position_game'),
    "misere_class_counts": ("cgtalg.misere.census", 'misere_class_counts'),
    "misere_p_count_born_by": ("cgtalg.misere.census", 'misere_p_count_born_by'),
    "misere_tame_count_born_by": ("cgtalg.misere.census", 'misere_tame_count_born_by'),
    "Genus": ("cgtalg.misere.genus", 'Genus'),
    "genus": ("cgtalg.misere.genus", 'genus'),
    "extended_genus": ("cgtalg.misere.genus", 'extended_genus'),
    "genus_from_options": ("cgtalg.misere.genus", 'genus_from_options'),
    "genus_class": ("cgtalg.misere.genus", 'genus_class'),
    "adder": ("cgtalg.misere.adders", 'adder'),
    "adder_sum": ("cgtalg.misere.adders", 'adder_sum'),
    "adder_index": ("cgtalg.misere.adders", 'adder_index'),
    "adder_description": ("cgtalg.misere.adders", 'adder_description'),
    "Phylum": ("cgtalg.misere.phylum", 'Phylum'),
    "MisereClassification": ("cgtalg.misere.phylum", 'MisereClassification'),
    "misere_phylum": ("cgtalg.misere.phylum", 'misere_phylum'),
    "misere_classification": ("cgtalg.misere.phylum", 'misere_classification'),
    "misere_class": ("cgtalg.misere.phylum", 'misere_class'),
    "is_half_tame": ("cgtalg.misere.phylum", 'is_half_tame'),
    "misere_quotient": ("cgtalg.misere.quotient", 'misere_quotient'),
    "MisereQuotient": ("cgtalg.misere.quotient", 'MisereQuotient'),
    "MiserePart": ("cgtalg.misere.parts", 'MiserePart'),
    "misere_parts": ("cgtalg.misere.parts", 'misere_parts'),
    "misere_is_prime": ("cgtalg.misere.parts", 'misere_is_prime'),
    "misere_partitions": ("cgtalg.misere.parts", 'misere_partitions'),
    "misere_is_even": ("cgtalg.misere.parts", 'misere_is_even'),
    # partizan forms (issue 11)
    "PartizanGame": ("cgtalg.core.partizan", 'PartizanGame'),
    "pgame": ("cgtalg.core.partizan", 'pgame'),
    "integer": ("cgtalg.core.partizan", 'integer'),
    "dyadic": ("cgtalg.core.partizan", 'dyadic'),
    "nimber": ("cgtalg.core.partizan", 'nimber'),
    "up": ("cgtalg.core.partizan", 'up'),
    "down": ("cgtalg.core.partizan", 'down'),
    "switch": ("cgtalg.core.partizan", 'switch'),
    "from_impartial": ("cgtalg.core.partizan", 'from_impartial'),
    "parse_partizan": ("cgtalg.core.partizan_notation", 'parse_partizan'),
    "format_partizan": ("cgtalg.core.partizan_notation", 'format_partizan'),
    # partizan normal play (issue 11)
    "partizan_le": ("cgtalg.normal.partizan", 'le'),
    "partizan_compare": ("cgtalg.normal.partizan", 'compare'),
    "partizan_equal": ("cgtalg.normal.partizan", 'equal'),
    "partizan_outcome": ("cgtalg.normal.partizan", 'outcome'),
    "partizan_canonical": ("cgtalg.normal.partizan", 'canonical_form'),
    "is_number": ("cgtalg.normal.partizan", 'is_number'),
    "number_value": ("cgtalg.normal.partizan", 'number_value'),
    "is_infinitesimal": ("cgtalg.normal.partizan", 'is_infinitesimal'),
    "is_all_small": ("cgtalg.normal.partizan", 'is_all_small'),
    "left_stop": ("cgtalg.normal.partizan", 'left_stop'),
    "right_stop": ("cgtalg.normal.partizan", 'right_stop'),
    "mean": ("cgtalg.normal.partizan", 'mean'),
    "temperature": ("cgtalg.normal.partizan", 'temperature'),
    "thermograph": ("cgtalg.normal.partizan", 'thermograph'),
    "Thermograph": ("cgtalg.normal.partizan", 'Thermograph'),
    "cool": ("cgtalg.normal.partizan", 'cool'),
    "atomic_weight": ("cgtalg.normal.partizan", 'atomic_weight'),
    # partizan misère play (issue 11)
    "partizan_misere_outcome": ("cgtalg.misere.partizan", 'misere_outcome'),
    "misere_ge": ("cgtalg.misere.partizan", 'misere_ge'),
    "partizan_misere_equal": ("cgtalg.misere.partizan", 'misere_equal'),
    "MisereComparison": ("cgtalg.misere.partizan", 'MisereComparison'),
    "misere_adjoint": ("cgtalg.misere.partizan", 'misere_adjoint'),
    "is_dicot": ("cgtalg.misere.partizan", 'is_dicot'),
    "is_dead_ending": ("cgtalg.misere.partizan", 'is_dead_ending'),
    "misere_canonical_form": ("cgtalg.misere.partizan_canonical", 'misere_canonical_form'),
    "check_misere_certificate": ("cgtalg.misere.partizan_proof", 'check_misere_certificate'),
}

if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only
    from cgtalg import errors, nimbers
    from cgtalg.core import Evaluator, Game, check_acyclic, format_game, from_networkx, game_table_size, nim, parse, star, to_networkx, zero
    from cgtalg.misere import EquivalenceResult, MisereCanonicalForm, check_proof, distinguisher, equivalence_classes, equivalent, format_misere, link, linked, misere_canonical, misere_count_born_by, misere_day_counts, misere_equal, misere_games_born_by, misere_grundy, misere_mate, misere_outcome, misere_winning_moves
    from cgtalg.rulesets import GrundysGame, ParityGame, Solution, TakeAndBreak, build_dag, find_period, game_of, get_ruleset, grundys_game, heap_ruleset, ruleset_from_function, solve, subtraction
    from cgtalg.core.fold import fold
    from cgtalg.core.game import game
    from cgtalg.nimbers.ordinal import ordinal
    from cgtalg.report import EquivalenceReport, GameReport, describe, prove_equivalence
    from cgtalg.rulesets.octal import octal
    from cgtalg.normal.grundy import grundy, mex, normal_outcome, normal_winning_moves
    from cgtalg.nimbers.nimber import Nimber, nim_add, nim_div, nim_inv, nim_mul, nim_pow, nim_sqrt
    from cgtalg.core.game import MATERIALISE_LIMIT, WALK_LIMIT, sum_size, walk_size
    from cgtalg.core.notation import MAX_HEAP_DIGITS, MISERE_DEPTH_LIMIT
    from cgtalg.misere.equivalence import nim_sum_outcome
    from cgtalg.rulesets.registry import position_game
    from cgtalg.store.store import open_store
    from cgtalg.store.verify import verify_store
    from cgtalg.census.run import octal_census
    from cgtalg.census.table import CensusResult, CensusRow, Disagreement, diff_published, read_published
    from cgtalg.census.tasks import CensusParams
    from cgtalg.census.codes import census_classes, enumerate_codes
    from cgtalg.rulesets.octal_periodicity import periodicity_memory_estimate
    from cgtalg.misere.nim_positions import check_nim_position_classes, nim_position_game, nim_reduced_form, shortlex_precedes
    from cgtalg.misere.census import misere_class_counts, misere_p_count_born_by, misere_tame_count_born_by
    from cgtalg.misere.genus import Genus, extended_genus, genus, genus_class, genus_from_options
    from cgtalg.misere.adders import adder, adder_description, adder_index, adder_sum
    from cgtalg.misere.quotient import MisereQuotient, misere_quotient
    from cgtalg.misere.phylum import MisereClassification, Phylum, is_half_tame, misere_class, misere_classification, misere_phylum
    from cgtalg.misere.parts import MiserePart, misere_is_even, misere_is_prime, misere_partitions, misere_parts
    from cgtalg.core.partizan import PartizanGame, down, dyadic, from_impartial, integer, nimber, pgame, switch, up
    from cgtalg.core.partizan_notation import format_partizan, parse_partizan
    from cgtalg.normal.partizan import Thermograph, atomic_weight, cool, is_all_small, is_infinitesimal, is_number, left_stop, mean, number_value, right_stop, temperature, thermograph
    from cgtalg.normal.partizan import canonical_form as partizan_canonical, compare as partizan_compare, equal as partizan_equal, le as partizan_le, outcome as partizan_outcome
    from cgtalg.misere.partizan import MisereComparison, is_dead_ending, is_dicot, misere_adjoint, misere_ge
    from cgtalg.misere.partizan import misere_equal as partizan_misere_equal, misere_outcome as partizan_misere_outcome
    from cgtalg.misere.partizan_canonical import misere_canonical_form
    from cgtalg.misere.partizan_proof import check_misere_certificate


def __getattr__(name: str) -> Any:
    """Resolve a public name on first use (PEP 562) and cache it in the module namespace."""
    try:
        module_name, attribute = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'cgtalg' has no attribute {name!r}") from None
    module = importlib.import_module(module_name)
    value = module if attribute is None else getattr(module, attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


def outcome(g: Game, misere: bool = False) -> str:
    """Outcome class ``'P'`` or ``'N'`` of the form ``g`` in normal or misère play."""
    if misere:
        from cgtalg.misere import misere_outcome

        return misere_outcome(g)
    from cgtalg.normal.grundy import normal_outcome

    return normal_outcome(g)


def winning_moves(g: Game, misere: bool = False) -> list[Game]:
    """The options of ``g`` that win for the player moving (moves to P-positions)."""
    if misere:
        from cgtalg.misere import misere_winning_moves

        return misere_winning_moves(g)
    from cgtalg.normal.grundy import normal_winning_moves

    return normal_winning_moves(g)


__all__ = [
    "errors", "Game", "game", "nim", "zero", "star", "parse", "format_game",
    "to_networkx", "from_networkx", "check_acyclic", "Evaluator", "fold", "game_table_size",
    "grundy", "mex", "normal_outcome", "normal_winning_moves",
    "misere_grundy", "misere_outcome", "misere_winning_moves", "outcome", "winning_moves",
    "MisereCanonicalForm", "misere_canonical", "misere_equal", "format_misere",
    "misere_games_born_by", "misere_count_born_by", "misere_day_counts",
    "EquivalenceResult", "equivalent", "linked", "link", "distinguisher", "equivalence_classes",
    "misere_mate", "check_proof", "GameReport", "describe", "EquivalenceReport", "prove_equivalence",
    "ordinal", "nimbers", "GrundysGame", "ParityGame", "Solution", "TakeAndBreak", "build_dag",
    "find_period", "game_of", "get_ruleset", "grundys_game", "heap_ruleset", "octal",
    "ruleset_from_function", "solve", "subtraction",
    "Nimber", "nim_mul", "nim_add", "nim_div", "nim_inv", "nim_pow", "nim_sqrt", "MATERIALISE_LIMIT", "WALK_LIMIT", "walk_size", "sum_size", "MISERE_DEPTH_LIMIT", "MAX_HEAP_DIGITS", "nim_sum_outcome", "position_game", "open_store", "verify_store",
    "periodicity_memory_estimate",
    "octal_census", "CensusResult", "CensusRow", "CensusParams", "Disagreement", "enumerate_codes",
    "census_classes", "read_published", "diff_published",
    "nim_reduced_form", "shortlex_precedes", "check_nim_position_classes", "nim_position_game", "misere_class_counts", "misere_p_count_born_by", "misere_tame_count_born_by",
    "Genus", "genus", "extended_genus", "genus_from_options", "genus_class",
    "adder", "adder_sum", "adder_index", "adder_description",
    "Phylum", "MisereClassification", "misere_phylum", "misere_classification", "misere_class", "is_half_tame",
    "misere_quotient", "MisereQuotient",
    "MiserePart", "misere_parts", "misere_is_prime", "misere_partitions", "misere_is_even",
    "PartizanGame", "pgame", "integer", "dyadic", "nimber", "up", "down", "switch", "from_impartial",
    "parse_partizan", "format_partizan",
    "partizan_le", "partizan_compare", "partizan_equal", "partizan_outcome", "partizan_canonical",
    "is_number", "number_value", "is_infinitesimal", "is_all_small", "left_stop", "right_stop",
    "mean", "temperature", "thermograph", "Thermograph", "cool", "atomic_weight",
    "partizan_misere_outcome", "misere_ge", "partizan_misere_equal", "MisereComparison",
    "misere_adjoint", "is_dicot", "is_dead_ending", "misere_canonical_form", "check_misere_certificate",
]
