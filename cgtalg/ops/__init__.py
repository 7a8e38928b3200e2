"""Operations: one public function per question, for every kind of game it has meaning for.

The functions here are the doors of the library (``cg.outcome``, ``cg.compare``, ...): each one
recognises the kind of game it is given (:mod:`cgtalg.ops.kinds`: impartial and partizan forms,
ruleset positions, misère canonical forms, nimbers, game text), chooses the algorithm of the
theory for that kind and the play (normal or misère) and universe asked for, and refuses a kind
for which the question has no answer with :class:`cgtalg.errors.GameKindError`, naming what does
answer. This layer stands above the theories and rulesets and below the store.
"""

from cgtalg.ops.comparison import RELATIONS, Comparison, compare
from cgtalg.ops.kinds import KINDS, UNIVERSES, Position, kind_of, position
from cgtalg.ops.partizan_more import (
    companion,
    conjunctive_sum,
    conway_product,
    follower_count,
    followers,
    freeze,
    incentives,
    is_idempotent,
    is_plumtree,
    is_stable,
    is_uptimal,
    left_incentives,
    ordinal_product,
    parity,
    power,
    power_to,
    right_incentives,
    selective_sum,
    stop_count,
    subordinate,
    temper,
    uptimal_expansion,
)
from cgtalg.ops.loopy_more import degree, downsum, upsum, variety
from cgtalg.ops.partizan_ops import heat, is_atomic, norton_product, ordinal_sum, overheat, reduced_canonical_form
from cgtalg.ops.play import outcome, winning_moves
from cgtalg.ops.values import (
    atomic_weight,
    canonical_form,
    cool,
    genus,
    grundy,
    left_stop,
    literal_form,
    mean,
    misere_grundy,
    number_value,
    right_stop,
    temperature,
    thermograph,
)

import lazy_loader as _lazy

# The quotient door and its result type load cgtalg.ops.quotients (and with it numpy and the
# misère quotient machinery) on first use (lazy_loader, SPEC 1), so that a light command such
# as ``cgtalg game '{*2}'`` does not pay for them.
__getattr__, _, _ = _lazy.attach(
    __name__,
    submod_attrs={"quotients": ["ComponentQuotient", "misere_quotient"], "certificates": ["CheckReport", "check_certificate"]},
)

#: every operation (door), by name: the table tests/test_doors.py covers
OPERATIONS = (
    "outcome", "winning_moves", "canonical_form", "compare", "grundy", "misere_grundy", "genus",
    "left_stop", "right_stop", "mean", "temperature", "thermograph", "atomic_weight", "cool",
    "number_value", "misere_quotient", "norton_product", "reduced_canonical_form", "ordinal_sum",
    "heat", "overheat", "is_atomic",
    # issue 36: CGSuite's compounds, product and derived games (the finer ones, left_incentives,
    # right_incentives, is_uptimal, follower_count, is_idempotent, is_plumtree, is_stable, are
    # public here in cgtalg.ops, not at the curated top level)
    "conjunctive_sum", "selective_sum", "conway_product", "freeze", "companion", "incentives",
    "stop_count", "uptimal_expansion", "followers", "parity", "temper", "ordinal_product",
)

__all__ = [
    "KINDS", "UNIVERSES", "RELATIONS", "OPERATIONS", "Position", "position", "kind_of", "Comparison",
    "compare", "outcome", "winning_moves", "canonical_form", "grundy", "misere_grundy", "genus",
    "left_stop", "right_stop", "mean", "temperature", "thermograph", "atomic_weight", "cool",
    "number_value", "literal_form", "misere_quotient", "ComponentQuotient", "norton_product",
    "reduced_canonical_form", "ordinal_sum", "heat", "overheat", "is_atomic", "CheckReport",
    "check_certificate",
    "conjunctive_sum", "selective_sum", "conway_product", "freeze", "companion", "incentives",
    "left_incentives", "right_incentives", "stop_count", "uptimal_expansion", "is_uptimal", "followers",
    "follower_count", "parity", "temper", "is_idempotent", "is_plumtree", "is_stable",
    "ordinal_product", "power", "power_to", "subordinate", "upsum", "downsum", "degree", "variety",
]
