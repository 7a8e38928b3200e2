"""Rulesets: the ruleset protocol, the generic position solver, Guy's parity game, octal /
hexadecimal / subtraction / Grundy's games, and periodicity (detected and certified).

Rulesets are data plus moves; the algorithms are functions that take a ruleset: the solver
(:func:`solve`, :func:`game_of`, :func:`build_dag`) for any ruleset, and for heap games
:func:`grundy_sequence`, :func:`heap_grundy`, :func:`heap_outcome`,
:func:`heap_winning_moves`, :func:`heap_misere_grundy` and :func:`heap_genus`."""

from cgtalg.rulesets.grundy_engine import GrundyEngine, grundy_sequence
from cgtalg.rulesets.heap_games import GrundysGame, grundys_game, heap_ruleset, parse_heap_ruleset, subtraction
from cgtalg.rulesets.heap_misere import genus_sequence, heap_genus
from cgtalg.rulesets.heap_play import (
    heap_grundy,
    heap_grundy_value,
    heap_misere_grundy,
    heap_outcome,
    heap_winning_moves,
)
from cgtalg.rulesets.heap_position import HeapMove, as_heaps
from cgtalg.rulesets.heap_base import HeapRuleset
from cgtalg.rulesets.octal import TakeAndBreak  # (octal() is cgtalg.octal: here it would hide the module)
from cgtalg.rulesets.octal_periodicity import PeriodicityResult
from cgtalg.rulesets.parity import ParityGame, RelativeParityGame
from cgtalg.rulesets.periodicity import Periodicity, find_arithmetic_period, find_period
from cgtalg.rulesets.protocol import ImpartialRuleset, PartizanRuleset, ruleset_from_function
from cgtalg.rulesets.registry import available_rulesets, get_ruleset, register_ruleset
from cgtalg.rulesets.solution import Solution
from cgtalg.rulesets.solver import Solver, build_dag, game_of, solve

__all__ = [
    "GrundysGame", "grundys_game", "heap_ruleset", "parse_heap_ruleset", "subtraction", "TakeAndBreak",
    "HeapRuleset", "HeapMove", "as_heaps", "GrundyEngine", "grundy_sequence", "heap_grundy",
    "heap_grundy_value", "heap_outcome", "heap_winning_moves", "heap_misere_grundy", "heap_genus",
    "genus_sequence",
    "PeriodicityResult", "ParityGame", "RelativeParityGame", "Periodicity", "find_period",
    "find_arithmetic_period", "ImpartialRuleset", "PartizanRuleset", "ruleset_from_function",
    "available_rulesets", "get_ruleset", "register_ruleset", "Solution", "Solver", "build_dag",
    "game_of", "solve",
]
