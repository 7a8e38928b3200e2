"""cgtalg: combinatorial game theory research library.

Impartial games in normal and misère play, misère canonical forms and equivalence proofs,
octal and take-and-break games, finite and ordinal nimber arithmetic; results memoised in
a persistent SQLAlchemy store.

    >>> import cgtalg as cg
    >>> G = cg.parse("{*2}")
    >>> cg.grundy(G), cg.misere_grundy(G)
    (0, 0)
"""

from cgtalg import errors
from cgtalg.core import (
    Evaluator,
    Game,
    check_acyclic,
    format_game,
    from_networkx,
    game_table_size,
    nim,
    parse,
    star,
    to_networkx,
    zero,
)
from cgtalg.core.fold import fold
from cgtalg.core.game import game
from cgtalg.misere import (
    EquivalenceResult,
    MisereCanonicalForm,
    check_proof,
    distinguisher,
    equivalence_classes,
    equivalent,
    format_misere,
    link,
    linked,
    misere_canonical,
    misere_count_born_by,
    misere_day_counts,
    misere_equal,
    misere_games_born_by,
    misere_grundy,
    misere_mate,
    misere_outcome,
    misere_winning_moves,
)
from cgtalg.nimbers.ordinal import ordinal
from cgtalg.report import EquivalenceReport, GameReport, describe, prove_equivalence
from cgtalg.rulesets import (
    GrundysGame,
    ParityGame,
    Solution,
    TakeAndBreak,
    build_dag,
    find_period,
    game_of,
    get_ruleset,
    grundys_game,
    heap_ruleset,
    ruleset_from_function,
    solve,
    subtraction,
)
from cgtalg.rulesets.octal import octal
from cgtalg import nimbers  # noqa: E402  (the nimber API lives in its namespace: cg.nimbers.nim_mul)
from cgtalg.normal.grundy import grundy, mex, normal_outcome, normal_winning_moves

__version__ = "0.1.0"


def outcome(g: Game, misere: bool = False) -> str:
    """Outcome class ``'P'`` or ``'N'`` of the form ``g`` in normal or misère play."""
    return misere_outcome(g) if misere else normal_outcome(g)


def winning_moves(g: Game, misere: bool = False) -> list[Game]:
    """The options of ``g`` that win for the player moving (moves to P-positions)."""
    return misere_winning_moves(g) if misere else normal_winning_moves(g)


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
]
