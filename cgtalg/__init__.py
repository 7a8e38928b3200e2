"""cgtalg: combinatorial game theory research library.

Impartial and partizan games in normal and misère play, misère canonical forms and equivalence
proofs, misère quotients, octal and take-and-break games, finite and ordinal nimber arithmetic;
results memoised in a persistent SQLAlchemy store.

One function per question, for every kind of game (forms, game text, ruleset positions, misère
canonical forms, nimbers): :func:`outcome`, :func:`winning_moves`, :func:`canonical_form`,
:func:`compare`, :func:`grundy`, :func:`misere_grundy`, :func:`genus`, :func:`mean`, ...
(:mod:`cgtalg.ops`).

The top level is curated: the doors, the constructors and parsers, the result types met by
name and one entry point per tool (``__init__.pyi`` lists them, ``docs/api.md`` groups them).
Everything else is public in its subpackage: :mod:`cgtalg.core`, :mod:`cgtalg.normal`,
:mod:`cgtalg.misere`, :mod:`cgtalg.quotients`, :mod:`cgtalg.rulesets`, :mod:`cgtalg.nimbers`
(slow reference implementations in :mod:`cgtalg.nimbers.reference`), :mod:`cgtalg.ops`,
:mod:`cgtalg.store`, :mod:`cgtalg.census`, :mod:`cgtalg.report`, :mod:`cgtalg.viz`.

    >>> import cgtalg as cg
    >>> G = cg.parse("{*2}")
    >>> cg.grundy(G), cg.misere_grundy(G), cg.outcome("{1|-1}")
    (0, 0, 'N')
"""

from __future__ import annotations

from cgtalg import interrupts as _interrupts

_interrupts.exit_quietly_while_starting()  # the console script: Ctrl-C while it starts

from cgtalg._stub import attach_stub as _attach_stub  # noqa: E402

from cgtalg import hooks as _hooks  # noqa: E402

__version__ = "0.2.0"

# Ctrl-C during a first call (a notebook's "interrupt kernel") must not leave numba or a cgtalg
# module half imported: the modules of cgtalg and of what it loads lazily finish their import
# before the KeyboardInterrupt is raised (cgtalg.interrupts).
_interrupts.install_import_guard()

# The package root stands above every layer: it fills the registration points of the lower
# layers (cgtalg.hooks) with references that are imported on first use.
_hooks.position_game.provide("cgtalg.rulesets.registry:position_game", default=True)
_hooks.ruleset_named.provide("cgtalg.rulesets.registry:get_ruleset", default=True)
_hooks.form_html.provide("cgtalg.viz.html:game_html", default=True)
_hooks.partizan_notation.provide("cgtalg.normal.notation", default=True)

# Every public name is imported from its module on first use (scientific Python's lazy_loader,
# SPEC 1), as the stub ``__init__.pyi`` beside this file lists them, so ``import cgtalg`` stays
# cheap: no numba, sympy, numpy, networkx or sqlalchemy until a name that needs them is used.
_attached_getattr, __dir__ = _attach_stub(__name__, __file__)


def __getattr__(name: str):
    """Import a public name on first use and keep it, so later uses cost a dict lookup."""
    if name == "__all__":
        return _attached_getattr(name)
    try:
        value = _attached_getattr(name)
    except AttributeError:
        raise AttributeError(f"module 'cgtalg' has no attribute {name!r}") from None
    globals()[name] = value
    return value
