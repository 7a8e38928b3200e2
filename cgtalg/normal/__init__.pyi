# The public names of cgtalg.normal and their modules, read by lazy_loader.attach_stub at run
# time (each loaded on first use) and by type checkers. To add a public name: one import line here.
from .atomic_weight import is_all_small, is_infinitesimal
from .grundy import mex
from .loopy import LoopyOutcome, is_stopper, loopy_outcome
from .loopy_sidling import sided_sum, sides_game
from .loopy_simplify import Sides, canonical_stopper, loopy_sides, offside, onside
from .partizan import is_number
from .thermography import Thermograph

__all__ = [
    "is_all_small", "is_infinitesimal", "mex", "LoopyOutcome", "is_stopper", "loopy_outcome", "sided_sum",
    "sides_game", "Sides", "canonical_stopper", "loopy_sides", "offside", "onside", "is_number", "Thermograph",
]
