# The public names of cgtalg.rulesets and their modules, read by lazy_loader.attach_stub at run
# time (each loaded on first use) and by type checkers. To add a public name: one import line here.
from .heaps.grundy_engine import GrundyEngine, grundy_sequence
from .heaps.base import HeapRuleset
from .heaps.games import GrundysGame, grundys_game, heap_ruleset, parse_heap_ruleset, subtraction
from .heaps.genus import genus_sequence, heap_genus
from .heaps.play import heap_grundy, heap_grundy_value, heap_misere_grundy, heap_outcome, heap_winning_moves
from .heaps.position import HeapMove, as_heaps
from .heaps.octal import TakeAndBreak
from .heaps.octal_periodicity import PeriodicityResult, periodicity_memory_estimate
from .parity import ParityGame, RelativeParityGame
from .heaps.periodicity import Periodicity, find_arithmetic_period, find_period
from .protocol import ImpartialRuleset, PartizanRuleset, ruleset_from_function
from .registry import available_rulesets, get_ruleset, position_game, register_ruleset
from .solution import Solution
from .solver import Solver, build_dag, game_of, solve

__all__ = [
    "GrundysGame", "grundys_game", "heap_ruleset", "parse_heap_ruleset", "subtraction", "TakeAndBreak",
    "HeapRuleset", "HeapMove", "as_heaps", "GrundyEngine", "grundy_sequence", "heap_grundy",
    "heap_grundy_value", "heap_outcome", "heap_winning_moves", "heap_misere_grundy", "heap_genus",
    "genus_sequence",
    "PeriodicityResult", "ParityGame", "RelativeParityGame", "Periodicity", "find_period",
    "find_arithmetic_period", "ImpartialRuleset", "PartizanRuleset", "ruleset_from_function",
    "available_rulesets", "get_ruleset", "register_ruleset", "Solution", "Solver", "build_dag",
    "game_of", "solve", "periodicity_memory_estimate", "position_game",
]
