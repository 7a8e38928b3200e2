"""Rulesets: the ruleset protocol, the generic position solver, Guy's parity game, octal /
hexadecimal / subtraction / Grundy's games, and periodicity (detected and certified)."""

from cgtalg.rulesets.heap_games import GrundysGame, grundys_game, heap_ruleset, subtraction
from cgtalg.rulesets.octal import TakeAndBreak  # (octal() is cgtalg.octal: here it would hide the module)
from cgtalg.rulesets.octal_periodicity import PeriodicityResult
from cgtalg.rulesets.parity import ParityGame, RelativeParityGame
from cgtalg.rulesets.periodicity import Periodicity, find_arithmetic_period, find_period
from cgtalg.rulesets.protocol import ImpartialRuleset, PartizanRuleset, ruleset_from_function
from cgtalg.rulesets.registry import available_rulesets, get_ruleset, register_ruleset
from cgtalg.rulesets.solver import Solution, Solver, build_dag, game_of, solve

__all__ = [
    "GrundysGame", "grundys_game", "heap_ruleset", "subtraction", "TakeAndBreak",
    "PeriodicityResult", "ParityGame", "RelativeParityGame", "Periodicity", "find_period",
    "find_arithmetic_period", "ImpartialRuleset", "PartizanRuleset", "ruleset_from_function",
    "available_rulesets", "get_ruleset", "register_ruleset", "Solution", "Solver", "build_dag",
    "game_of", "solve",
]
