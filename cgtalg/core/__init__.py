"""Core: hash-consed game forms (:mod:`.game`), their notation (:mod:`.notation`), DAG views
(:mod:`.dag`) and the generic fold (:mod:`.fold`).

Names that equal a module's name (``game``, ``fold``) are exported at the top level
(``cgtalg.game``, ``cgtalg.fold``), not here, so that ``cgtalg.core.game`` stays the module.
"""

from cgtalg.core.dag import check_acyclic, from_networkx, to_networkx
from cgtalg.core.fold import Evaluator
from cgtalg.core.game import Game, game_table_size, nim, star, zero
from cgtalg.core.notation import format_game, parse

__all__ = [
    "Game", "nim", "zero", "star", "game_table_size",
    "parse", "format_game", "to_networkx", "from_networkx", "check_acyclic", "Evaluator",
]
