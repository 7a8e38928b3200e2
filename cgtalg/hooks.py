"""Registration points: where a lower layer needs an answer that a higher layer computes.

The layers import one way (forms and notation; theories; rulesets; operations; store; census,
CLI and drawing). Where a lower layer needs an answer from a higher one -- the game-text parser
reading ``kayles(3)`` needs a ruleset, a form drawing itself in a notebook needs its Grundy value
-- the lower layer calls a :class:`Hook` defined here, and the higher layer fills it::

    from cgtalg.hooks import position_game          # in core.notation (low)
    g = position_game("kayles", (3,))

    position_game.provide(my_function)              # in rulesets.registry (high)

A hook may also be filled with a reference ``"module:attribute"`` that is imported on first use;
the package root (``cgtalg/__init__.py``, which stands above every layer) fills each hook that
way, so ``import cgtalg`` stays cheap and a lower layer never names a higher one. A hook that
nobody filled raises :class:`cgtalg.errors.CgtalgError` naming it.
"""

from __future__ import annotations

import importlib
from typing import Any, Callable

__all__ = ["Hook", "hooks", "position_game", "ruleset_named", "form_html", "partizan_le", "partizan_canonical",
           "partizan_canonical_sum", "partizan_mean", "partizan_higher_up", "partizan_higher_parts"]


class Hook:
    """A named registration point: a function a higher layer provides."""

    __slots__ = ("name", "doc", "_impl", "_ref")

    def __init__(self, name: str, doc: str) -> None:
        self.name = name
        self.doc = doc
        self._impl: Callable[..., Any] | None = None
        self._ref: str | None = None

    def provide(self, impl: Callable[..., Any] | str, *, default: bool = False) -> None:
        """Fill the hook with a callable, or with ``"module:attribute"`` imported on first use.
        With ``default=True`` an existing provider is kept (the package root's defaults never
        replace one a module installed itself)."""
        if default and (self._impl is not None or self._ref is not None):
            return
        # a wrong provider is a programming error of the module that registers it (never a
        # user's input), so these stay plain ValueError / TypeError
        if isinstance(impl, str):
            if ":" not in impl:
                raise ValueError(f"hook reference {impl!r} is not 'module:attribute'")
            self._impl, self._ref = None, impl
        elif callable(impl):
            self._impl, self._ref = impl, None
        else:
            raise TypeError(f"hook {self.name!r} needs a callable or 'module:attribute'")

    @property
    def provided(self) -> bool:
        return self._impl is not None or self._ref is not None

    def resolve(self) -> Callable[..., Any]:
        if self._impl is None:
            if self._ref is None:
                from cgtalg.errors import CgtalgError

                raise CgtalgError(f"nothing provides {self.name!r} ({self.doc})")
            module, _, attr = self._ref.partition(":")
            self._impl = getattr(importlib.import_module(module), attr)
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
    "name(a, b, ...) in game text, e.g. kayles(3)")
ruleset_named = _hook(
    "ruleset_named", "ruleset_named(name) -> ruleset: the ruleset registered under name, or the "
    "take-and-break game of an octal code such as '0.07'")
form_html = _hook(
    "form_html", "form_html(game) -> str: the notebook HTML card of a form (impartial or partizan)")
partizan_le = _hook(
    "partizan_le", "partizan_le(g, h) -> bool: g <= h in normal play, for the comparison "
    "operators of PartizanGame")
partizan_canonical = _hook(
    "partizan_canonical", "partizan_canonical(g) -> PartizanGame: the canonical form of a partizan "
    "form, for the partizan notation (tinies, sums written in text)")
partizan_canonical_sum = _hook(
    "partizan_canonical_sum", "partizan_canonical_sum(a, b) -> PartizanGame: the canonical form of "
    "a + b for canonical forms a and b, for the partizan notation (1/2^<2>, 2 + {1|0})")
partizan_mean = _hook(
    "partizan_mean", "partizan_mean(g) -> Fraction: the mean value of a partizan form, for "
    "printing tinies and minies")
partizan_higher_up = _hook(
    "partizan_higher_up", "partizan_higher_up(kind, n) -> PartizanGame: ^<n> (kind '<') or ^[n] "
    "(kind '['), for reading them in the partizan notation")
partizan_higher_parts = _hook(
    "partizan_higher_parts", "partizan_higher_parts(g) -> (x, kind, n, m) | None: g as "
    "x + ^<n> + *m or x + ^[n] + *m, for printing in the partizan notation")
