"""Core: hash-consed game forms (:mod:`.game`), their notation (:mod:`.notation`), DAG views
(:mod:`.dag`) and the generic fold (:mod:`.fold`); partizan forms (:mod:`.partizan`) and the forms
that have names (:mod:`.named_forms`). The partizan notation is a notation of values, in
:mod:`cgtalg.normal.notation`; the forms reach it through :data:`cgtalg.hooks.partizan_notation`.

The names below load on first use through scientific Python's ``lazy_loader`` (SPEC 1), so
``import cgtalg.core`` costs nothing until a name is used, and the bottom layer does not pay for
networkx (:mod:`.dag`) unless a graph is asked for.

Names that equal a module's name (``game``, ``fold``) are exported at the top level
(``cgtalg.game``, ``cgtalg.fold``), not here, so that ``cgtalg.core.game`` stays the module.
"""

import lazy_loader as _lazy

__getattr__, __dir__, __all__ = _lazy.attach(
    __name__,
    submod_attrs={
        "dag": ["check_acyclic", "from_networkx", "to_networkx"],
        "fold": ["Evaluator"],
        "game": ["Game", "game_table_size", "nim", "star", "zero", "MATERIALISE_LIMIT", "WALK_LIMIT", "sum_size",
                 "walk_size"],
        "loopy": ["LoopyGame", "as_loopy", "loopy_game"],
        "loopy_notation": ["format_loopy", "parse_loopy"],
        "notation": ["format_game", "parse", "MAX_HEAP_DIGITS", "MISERE_DEPTH_LIMIT"],
    },
)
