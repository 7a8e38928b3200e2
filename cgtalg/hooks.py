"""Registration points: where a lower layer needs an answer that a higher layer computes.

The layers import one way (forms; theories; rulesets; operations; store; census, CLI and
drawing: ``[tool.importlinter]`` in ``pyproject.toml``). Where a lower layer needs something
only a higher one has -- the game-text parser reading ``kayles(3)`` needs a ruleset, a form
drawing itself in a notebook needs its Grundy value -- the lower layer calls a :class:`Hook`
defined here, and the higher layer fills it::

    from cgtalg.hooks import position_game          # in core.notation (low)
    g = position_game("kayles", (3,))

    position_game.provide(my_function)              # in rulesets.registry (high)

A hook may also be filled with a reference ``"module:attribute"`` (or ``"module"`` for a hook
whose provider is a module) that is imported on first use; the package root
(``cgtalg/__init__.py``, which stands above every layer) fills each hook that way, so ``import
cgtalg`` stays cheap and a lower layer never names a higher one. A hook that nobody filled
raises :class:`cgtalg.errors.CgtalgError` naming it.

There are four (:data:`hooks`), each for a question the lower layer cannot answer alone:

- :data:`position_game` -- the parser of game text (:mod:`cgtalg.core.notation`) reading a
  ruleset position ``kayles(3)``: the rulesets stand above the forms.
- :data:`ruleset_named` -- the misère quotients (:mod:`cgtalg.quotients.construct`) given a
  ruleset by name (``"0.07"``, ``"kayles"``): the registry of rulesets stands above them.
- :data:`form_html` -- a form's notebook card (``_repr_html_`` of the forms of
  :mod:`cgtalg.core`): the card shows values of every theory and is drawn by
  :mod:`cgtalg.viz.html`, the top layer.
- :data:`partizan_notation` -- a partizan form printing itself (``str``, ``repr``, LaTeX,
  pickling) and :func:`cgtalg.core.notation.parse` reading partizan text: CGSuite's notation
  is one of values (``1/2^*``, ``^<2>``, ``Tiny(3/2)`` are canonical forms, sums and means), so
  it is normal-play theory, :mod:`cgtalg.normal.notation`, a layer above the forms.

The order of partizan forms (``G <= H`` from the definition) is not a hook: it belongs to the
forms (:func:`cgtalg.core.partizan.form_le`); only a compact literal sum
(:mod:`cgtalg.core.partizan_atoms`, a sum holding a number too large for a tree) is compared
through its canonical form, which it reaches through :data:`partizan_notation` (the module that
reads values has ``canonical_form``).
"""

from __future__ import annotations

import importlib
import types
from typing import Any, Callable

__all__ = ["Hook", "hooks", "position_game", "ruleset_named", "form_html", "partizan_notation"]


class Hook:
    """A named registration point: a function (or, for :data:`partizan_notation`, a module) that a
    higher layer provides. Calling the hook calls the function; :meth:`resolve` gives what was
    provided."""

    __slots__ = ("name", "doc", "_impl", "_ref")

    def __init__(self, name: str, doc: str) -> None:
        self.name = name
        self.doc = doc
        self._impl: Any = None  # a callable or a module
        self._ref: str | None = None

    def provide(self, impl: Callable[..., Any] | types.ModuleType | str, *, default: bool = False) -> None:
        """Fill the hook with a callable or a module, or with a reference imported on first use:
        ``"module:attribute"``, or ``"module"`` for the module itself. With ``default=True`` an
        existing provider is kept (the package root's defaults never replace one a module
        installed itself)."""
        if default and (self._impl is not None or self._ref is not None):
            return
        # a wrong provider is a programming error of the module that registers it (never a
        # user's input), so these stay plain ValueError / TypeError
        if isinstance(impl, str):
            module, colon, attr = impl.partition(":")
            names = module.split(".") + ([attr] if colon else [])
            if not all(n.isidentifier() for n in names):
                raise ValueError(f"hook reference {impl!r} is not 'module:attribute' nor 'module'")
            self._impl, self._ref = None, impl
        elif callable(impl) or isinstance(impl, types.ModuleType):
            self._impl, self._ref = impl, None
        else:
            raise TypeError(f"hook {self.name!r} needs a callable, a module, 'module:attribute' or 'module'")

    @property
    def provided(self) -> bool:
        return self._impl is not None or self._ref is not None

    def resolve(self) -> Any:
        """What the hook was filled with (a reference is imported now, once)."""
        if self._impl is None:
            if self._ref is None:
                from cgtalg.errors import CgtalgError

                raise CgtalgError(f"nothing provides {self.name!r} ({self.doc})")
            module, _, attr = self._ref.partition(":")
            found = importlib.import_module(module)
            self._impl = getattr(found, attr) if attr else found
        return self._impl

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        impl = self._impl if self._impl is not None else self.resolve()
        return impl(*args, **kwargs)

    def __repr__(self) -> str:
        who = self._ref or (getattr(self._impl, "__qualname__", None) if self._impl else "nothing")
        return f"<hook {self.name}: {who}>"


#: name -> hook, every registration point there is.
hooks: dict[str, Hook] = {}


def _hook(name: str, doc: str) -> Hook:
    hooks[name] = h = Hook(name, doc)
    return h


position_game = _hook(
    "position_game", "position_game(name, args) -> form: the form of a ruleset position written "
    "name(a, b, ...) in game text, e.g. kayles(3); used by cgtalg.core.notation.parse, filled by "
    "the package root with cgtalg.rulesets.registry.position_game (the rulesets stand above the "
    "forms)")
ruleset_named = _hook(
    "ruleset_named", "ruleset_named(name) -> ruleset: the ruleset registered under name, or the "
    "take-and-break game of an octal code such as '0.07'; used by cgtalg.quotients.construct for "
    "a ruleset given by name, filled by the package root with "
    "cgtalg.rulesets.registry.get_ruleset (the registry stands above the quotients)")
form_html = _hook(
    "form_html", "form_html(game) -> str: the notebook HTML card of a form (impartial, partizan "
    "or loopy); used by the forms' _repr_html_, filled by the package root with "
    "cgtalg.viz.html.game_html (the card shows values of every theory)")
partizan_notation = _hook(
    "partizan_notation", "the module cgtalg.normal.notation, CGSuite's partizan notation: "
    "format_partizan(g, max_chars=None, ascii=False) -> str, parse_partizan(text, *, "
    "normal_play=False) -> form, FORMAT_LIMIT; used by PartizanGame's str, repr, LaTeX and "
    "pickling, cgtalg.core.notation and cgtalg.core.loopy_notation, filled by the package root "
    "(the notation reads and writes values: canonical forms, sums, means, higher ups)")
