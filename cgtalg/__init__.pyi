# The public names of cgtalg, each imported from its module on first use (lazy_loader,
# SPEC 1: cgtalg/__init__.py attaches this stub). Type checkers and IDEs read it as the
# package's interface. To add a public name: one import line here.

from . import errors, nimbers, ops
from .caches import (
    clear_caches,
)
from .census.codes import (
    census_classes,
    enumerate_codes,
)
from .census.run import (
    octal_census,
)
from .census.table import (
    CensusResult,
    CensusRow,
    Disagreement,
    diff_published,
    read_published,
)
from .census.tasks import (
    CensusParams,
)
from .core import (
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
from .core.fold import (
    fold,
)
from .core.game import (
    MATERIALISE_LIMIT,
    WALK_LIMIT,
    game,
    sum_size,
    walk_size,
)
from .core.notation import (
    MAX_HEAP_DIGITS,
    MISERE_DEPTH_LIMIT,
)
from .core.loopy import (
    LoopyGame,
    as_loopy,
    loopy_game,
)
from .core.loopy_notation import (
    format_loopy,
    parse_loopy,
)
from .core.partizan import (
    PartizanGame,
    down,
    dyadic,
    from_impartial,
    integer,
    pgame,
    switch,
    up,
)
from .core.partizan_notation import (
    format_partizan,
    parse_partizan,
)
from .misere import (
    EquivalenceResult,
    MisereCanonicalForm,
    check_proof,
    distinguisher,
    equivalence_classes,
    equivalent,
    format_misere,
    link,
    linked,
    misere_count_born_by,
    misere_day_counts,
    misere_equal,
    misere_games_born_by,
    misere_mate,
)
from .misere.adders import (
    adder,
    adder_description,
    adder_index,
    adder_sum,
)
from .misere.census import (
    misere_class_counts,
    misere_p_count_born_by,
    misere_tame_count_born_by,
)
from .misere.equivalence_engine import (
    nim_sum_outcome,
)
from .misere.genus import (
    Genus,
    extended_genus,
    genus_class,
    genus_from_options,
)
from .misere.nim_positions import (
    check_nim_position_classes,
    nim_position_game,
    nim_reduced_form,
    shortlex_precedes,
)
from .misere.partizan import (
    misere_ge,
)
from .misere.partizan_certificate import (
    MisereComparison,
)
from .misere.partizan_outcome import (
    is_dead_ending,
    is_dicot,
    misere_adjoint,
)
from .misere.partizan_proof import (
    check_misere_certificate,
)
from .misere.partizan_simplest import (
    misere_simplification,
    partizan_misere_count_born_by,
    partizan_misere_games_born_by,
)
from .misere.parts import (
    MiserePart,
    misere_is_even,
    misere_is_prime,
    misere_partitions,
    misere_parts,
)
from .misere.phylum import (
    MisereClassification,
    Phylum,
    is_half_tame,
    misere_class,
    misere_classification,
    misere_phylum,
)
from .quotients.construct import (
    MisereQuotient,
)
from .ops.quotients import ComponentQuotient, misere_quotient
from .ops.certificates import CheckReport, check_certificate
from .ops.partizan_ops import heat, is_atomic, norton_product, ordinal_sum, overheat, reduced_canonical_form
from .quotients.forms import FormQuotient
from .nimbers.nimber import (
    Nimber,
    nim_add,
    nim_div,
    nim_inv,
    nim_mul,
    nim_pow,
    nim_sqrt,
    nimber,
    ordinal,
    parse_nimber,
)
from .normal.grundy import (
    mex,
)
from .normal.atomic_weight import (
    is_all_small,
    is_infinitesimal,
)
from .normal.loopy import (
    LoopyOutcome,
    is_stopper,
    loopy_outcome,
)
from .normal.loopy_simplify import (
    Sides,
    canonical_stopper,
    loopy_sides,
    offside,
    onside,
)
from .normal.loopy_sidling import (
    sided_sum,
    sides_game,
)
from .normal.partizan import (
    is_number,
)
from .normal.thermography import (
    Thermograph,
)
from .ops import (
    Comparison,
    KINDS,
    Position,
    UNIVERSES,
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
from .ops.aliases import (
    misere_canonical,
    misere_canonical_form,
    misere_outcome,
    misere_winning_moves,
    normal_outcome,
    normal_winning_moves,
    partizan_canonical,
    partizan_compare,
    partizan_equal,
    partizan_le,
    partizan_misere_equal,
    partizan_misere_outcome,
    partizan_outcome,
)
from .report import (
    EquivalenceReport,
    GameReport,
    describe,
    prove_equivalence,
)
from .rulesets import (
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
from .rulesets.heaps.octal import (
    octal,
)
from .rulesets.heaps.octal_periodicity import (
    periodicity_memory_estimate,
)
from .rulesets.registry import (
    position_game,
)
from .store.fill import (
    fill_heap_genera,
)
from .store.query import (
    query_store,
)
from .store.store import (
    open_store,
)
from .store.verify import (
    verify_store,
)
from .viz.explorer import (
    GameExplorer,
    explorer_html,
)

__version__: str
