# The public names of cgtalg, each imported from its module on first use (lazy_loader,
# SPEC 1: cgtalg/__init__.py attaches this stub). Type checkers and IDEs read it as the
# package's interface.
#
# The top level holds what a researcher types: the doors (one function per question), the
# constructors and parsers, the result types met by name, and one entry point per tool. It is
# curated (at most 110 names; tests/test_public_api.py) and listed, grouped as below, in
# docs/api.md. Everything else is public in its subpackage (cgtalg.core, cgtalg.normal,
# cgtalg.misere, cgtalg.quotients, cgtalg.rulesets, cgtalg.nimbers, cgtalg.ops, cgtalg.store,
# cgtalg.census, cgtalg.report, cgtalg.viz). To add a name here: one import line, and its line
# in docs/api.md.

from . import errors, nimbers, ops

# --- play and values: the doors -------------------------------------------------------------
from .ops import (
    Comparison,
    Position,
    atomic_weight,
    canonical_form,
    compare,
    cool,
    genus,
    grundy,
    kind_of,
    left_stop,
    mean,
    misere_grundy,
    number_value,
    outcome,
    position,
    right_stop,
    temperature,
    thermograph,
    winning_moves,
)
from .ops.partizan_more import (
    companion, conjunctive_sum, conway_product, followers, freeze, incentives, ordinal_product, parity, selective_sum, stop_count, temper, uptimal_expansion,
)
from .ops.partizan_ops import heat, is_atomic, norton_product, ordinal_sum, overheat, reduced_canonical_form

# --- games: forms, their text, the generic fold ---------------------------------------------
from .caches import clear_caches
from .core import Evaluator, Game, format_game, nim, parse, star, zero
from .core.fold import fold
from .core.game import game

# --- partizan games -------------------------------------------------------------------------
from .core.partizan import PartizanGame, down, dyadic, from_impartial, integer, pgame, switch, up
from .normal.format import format_partizan
from .normal.notation import parse_partizan
from .normal.atomic_weight import is_all_small, is_infinitesimal
from .normal.partizan import is_number
from .normal.thermography import Thermograph

# --- loopy games ----------------------------------------------------------------------------
from .core.loopy import LoopyGame, as_loopy, loopy_game
from .core.loopy_notation import parse_loopy
from .normal.loopy import is_stopper, loopy_outcome
from .normal.loopy_sidling import sided_sum
from .normal.loopy_simplify import canonical_stopper, loopy_sides

# --- misère theory --------------------------------------------------------------------------
from .misere import EquivalenceResult, MisereCanonicalForm, check_proof, equivalent, misere_games_born_by
from .misere.genus import Genus, extended_genus
from .misere.partizan_certificate import MisereComparison
from .misere.partizan_outcome import is_dead_ending, is_dicot, misere_adjoint
from .misere.phylum import MisereClassification, misere_classification

# --- misère quotients -----------------------------------------------------------------------
from .ops.quotients import misere_quotient
from .quotients.result import MisereQuotient

# --- heap games, rulesets and periodicity ---------------------------------------------------
from .rulesets import (
    ParityGame,
    TakeAndBreak,
    find_period,
    get_ruleset,
    grundys_game,
    heap_ruleset,
    ruleset_from_function,
    solve,
    subtraction,
)

# --- nimbers --------------------------------------------------------------------------------
from .nimbers.nimber import Nimber, nimber, ordinal

# --- store, census, certificates, reports, drawing ------------------------------------------
from .store.store import open_store
from .store.query import query_store
from .census.run import octal_census
from .ops.certificates import check_certificate
from .report import describe, prove_equivalence
from .viz.explorer import GameExplorer, explorer_html

__version__: str
