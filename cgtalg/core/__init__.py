"""Core: hash-consed game forms, their notation, DAG views and the generic fold."""

from cgtalg.core.dag import check_acyclic, from_networkx, to_networkx
from cgtalg.core.fold import Evaluator, fold
from cgtalg.core.game import Game, game, game_table_size, nim, star, zero
from cgtalg.core.notation import format_game, parse

__all__ = [
    "Game", "game", "nim", "zero", "star", "game_table_size",
    "parse", "format_game", "to_networkx", "from_networkx", "check_acyclic",
    "Evaluator", "fold",
]
