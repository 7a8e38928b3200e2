"""The ruleset registry: names the CLI and the store use -> ruleset objects.

Three kinds of entries, tried in this order by :func:`get_ruleset`:

- a plain name (``"parity"``) registered with :func:`register_ruleset` and a factory
  taking no arguments;
- a family ``"prefix:argument"`` (``"parity:1,2,4"``) registered with
  :func:`register_family` and a factory taking the argument text;
- resolvers (:func:`register_resolver`): functions ``name -> ruleset or None`` for names
  with their own syntax (e.g. an octal code ``"0.77"``).

Modules of other ruleset families register themselves when imported; the registry imports
the known ruleset modules (:data:`PLUGIN_MODULES`) the first time a name is looked up, so
``get_ruleset("0.77")`` works without importing the octal module first.

Examples
--------
>>> get_ruleset("parity").name
'parity'
>>> get_ruleset("parity:1,2,4").subtraction
(1, 2, 4)
"""

from __future__ import annotations

import importlib
from typing import Any, Callable

from cgtalg.errors import ComputationLimitError, RulesetError
from cgtalg.rulesets.protocol import check_ruleset, short_repr

__all__ = [
    "register_ruleset",
    "register_family",
    "register_resolver",
    "get_ruleset",
    "available_rulesets",
    "PLUGIN_MODULES",
]

#: modules that register rulesets when imported; one that fails to import is an error naming
#: it (:class:`~cgtalg.errors.RulesetError`), never skipped
PLUGIN_MODULES: tuple[str, ...] = (
    "cgtalg.rulesets.parity",
    "cgtalg.rulesets.heaps.octal",
    "cgtalg.rulesets.heaps.games",
    "cgtalg.rulesets.partizan.games",
    "cgtalg.rulesets.node_kayles",
    "cgtalg.rulesets.cram",
    "cgtalg.rulesets.partizan.snort_col",
    "cgtalg.rulesets.partizan.amazons",
    "cgtalg.rulesets.partizan.toppling",
    "cgtalg.rulesets.partizan.hackenbush_graph",
    "cgtalg.rulesets.partizan.clobber_variants",
    "cgtalg.rulesets.partizan.toads_variants",
    "cgtalg.rulesets.coin_turning",
    "cgtalg.rulesets.partizan.fox_and_geese",
    "cgtalg.rulesets.partizan.arc_kayles",
    "cgtalg.rulesets.partizan.chess_clobber",
    "cgtalg.rulesets.partizan.elephants",
)

_NAMED: dict[str, tuple[Callable[[], Any], str]] = {}
_FAMILIES: dict[str, tuple[Callable[[str], Any], str]] = {}
_RESOLVERS: list[tuple[Callable[[str], Any], str]] = []
_plugins_loaded = False


def _check_name(name: Any, what: str) -> str:
    if not isinstance(name, str) or not name or any(c.isspace() for c in name) or ":" in name:
        raise RulesetError(f"a {what} must be a non-empty str without spaces or ':', got {short_repr(name)}")
    return name


def _register(table: dict, name: str, factory: Callable, description: str, replace: bool,
              what: str, kind: str) -> None:
    _check_name(name, what)
    if not callable(factory):
        raise RulesetError(f"the factory of {kind} {short_repr(name)} must be callable, got {short_repr(factory)}")
    old = table.get(name)
    if old is not None and old[0] is not factory and not replace:
        raise RulesetError(f"the {'ruleset name' if kind == 'ruleset' else kind} {short_repr(name)} is already "
                           f"registered ({old[1] or old[0]!r})")
    table[name] = (factory, description)


def register_ruleset(name: str, factory: Callable[[], Any], description: str = "", *, replace: bool = False) -> None:
    """Register ``factory()`` under ``name`` (e.g. ``"parity"``).

    Raises
    ------
    RulesetError
        If the name is malformed, or already registered to another factory (unless ``replace``).
    """
    _register(_NAMED, name, factory, description, replace, "ruleset name", "ruleset")


def register_family(prefix: str, factory: Callable[[str], Any], description: str = "", *, replace: bool = False) -> None:
    """Register a family: ``get_ruleset("prefix:ARG")`` returns ``factory("ARG")``.

    Raises
    ------
    RulesetError
        If the prefix is malformed, or already registered to another factory (unless ``replace``).
    """
    _register(_FAMILIES, prefix, factory, description, replace, "ruleset family prefix", "ruleset family")


def register_resolver(resolver: Callable[[str], Any], description: str = "") -> None:
    """Register ``resolver(name) -> ruleset | None``, tried for names nothing else matches."""
    if not callable(resolver):
        raise RulesetError(f"a ruleset resolver must be callable, got {short_repr(resolver)}")
    if all(r is not resolver for r, _ in _RESOLVERS):
        _RESOLVERS.append((resolver, description))


def _load_plugins() -> None:
    """Import every module of :data:`PLUGIN_MODULES` (once per process).

    Raises
    ------
    RulesetError
        When a plugin module fails to import: the message names the module and the original
        error (chained as ``__cause__``). A :class:`~cgtalg.errors.ComputationLimitError`
        raised while it imports (a budget that ran out then) is raised unchanged. Nothing is skipped: a ruleset missing because its
        module is broken would otherwise surface as a misleading "unknown ruleset". The next
        lookup tries again.
    """
    global _plugins_loaded
    if _plugins_loaded:
        return
    _plugins_loaded = True  # set first: a plugin that looks a name up while importing
    for module in PLUGIN_MODULES:
        try:
            importlib.import_module(module)
        except ComputationLimitError:
            # a time budget (or memory ceiling) that ran out while the module was importing
            # is the budget's error, not a broken plugin: raised as it is; the next lookup
            # imports the module again
            _plugins_loaded = False
            raise
        except Exception as exc:
            _plugins_loaded = False
            detail = " ".join(f"{type(exc).__name__}: {exc}".split())
            if len(detail) > 300:
                detail = detail[:280] + " [...]"
            raise RulesetError(
                f"the ruleset plugin module {short_repr(module)} failed to import ({detail}); rulesets it "
                "registers are unavailable until it is fixed") from exc


def get_ruleset(name: str) -> Any:
    """The ruleset called ``name``.

    Parameters
    ----------
    name : str
        A registered name (``"parity"``), a family member (``"parity:1,2,4"``) or a name a
        resolver understands.

    Returns
    -------
    A ruleset object following :mod:`cgtalg.rulesets.protocol`.

    Raises
    ------
    RulesetError
        For an unknown name (the message lists the known names and families), or when a
        factory returns something that is not a ruleset.

    Examples
    --------
    >>> get_ruleset("no-such-game")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cgtalg.errors.RulesetError: unknown ruleset 'no-such-game'; known rulesets: ...parity, parity-relative...
    """
    if not isinstance(name, str) or not name.strip():
        raise RulesetError(f"a ruleset name must be a non-empty str, got {short_repr(name)}")
    name = name.strip()
    _load_plugins()
    ruleset = None
    lower = name.lower()
    prefix = lower.split(":", 1)[0] if ":" in name else None
    if name in _NAMED or lower in _NAMED:  # names are case-insensitive: Kayles, KAYLES
        ruleset = _NAMED[name if name in _NAMED else lower][0]()
    elif prefix is not None and prefix in _FAMILIES:
        ruleset = _FAMILIES[prefix][0](name.split(":", 1)[1])
    else:
        for resolver, _ in _RESOLVERS:
            ruleset = resolver(name)
            if ruleset is not None:
                break
    if ruleset is None:
        known = ", ".join(sorted(_NAMED)) or "(none)"
        fams = ", ".join(_FAMILIES[p][1].split(" ")[0] if _FAMILIES[p][1] else f"{p}:ARG" for p in sorted(_FAMILIES))
        extra = "; families: " + fams if fams else ""
        more = "; " + "; ".join(d for _, d in _RESOLVERS if d) if any(d for _, d in _RESOLVERS) else ""
        raise RulesetError(f"unknown ruleset {short_repr(name)}; known rulesets: {known}{extra}{more}")
    check_ruleset(ruleset)
    return ruleset


def available_rulesets() -> dict[str, str]:
    """Registered names and family patterns with their descriptions."""
    _load_plugins()
    out = {n: d for n, (_, d) in sorted(_NAMED.items())}
    out.update({(d.split(" ")[0] if d else f"{p}:ARG"): d for p, (_, d) in sorted(_FAMILIES.items())})
    for _, d in _RESOLVERS:
        if d:
            out[d.split(" ")[0]] = d
    return out


# -- built-in rulesets --------------------------------------------------------------------


def _parity(arg: str | None = None) -> Any:
    from cgtalg.rulesets.parity import ParityGame

    if arg is None:
        return ParityGame()
    parts = arg.split(":")
    reduce = True
    if parts and parts[-1] == "full":
        reduce = False
        parts = parts[:-1]
    if len(parts) > 1:
        raise RulesetError(f"bad parity ruleset 'parity:{arg}': expected parity:S or parity:S:full (S like 1,2,3)")
    subtraction: tuple[int, ...] = (1, 2, 3)
    if parts and parts[0]:
        try:
            subtraction = tuple(int(x) for x in parts[0].split(","))
        except ValueError:
            raise RulesetError(
                f"bad parity ruleset 'parity:{arg}': the subtraction set must be comma-separated ints like 1,2,3"
            ) from None
    return ParityGame(subtraction, reduce=reduce)


def _relative(arg: str | None = None) -> Any:
    from cgtalg.rulesets.parity import RelativeParityGame

    if arg is None:
        return RelativeParityGame()
    try:
        subtraction = tuple(int(x) for x in arg.split(","))
    except ValueError:
        raise RulesetError(
            f"bad ruleset 'parity-relative:{arg}': the subtraction set must be comma-separated ints like 1,2,3"
        ) from None
    return RelativeParityGame(subtraction)


register_ruleset("parity", _parity, "Guy's parity subtraction game (take 1-3 beans; even holding wins)")
register_ruleset("parity-relative", _relative, "Guy's parity game on his relative classes b(f,s)")
register_family("parity", _parity, "parity:S[:full] (Guy's game with subtraction set S; full = unreduced holdings)")
register_family("parity-relative", _relative, "parity-relative:S (relative classes, subtraction set S)")


# -- positions of rulesets as game forms (the game-text hook ``name(a, b, ...)``) -----------


def position_game(name: str, args: tuple[int, ...]) -> Any:
    """The :class:`cgtalg.Game` form of the position ``name(a, b, ...)`` of a ruleset: for a
    heap game (every spec :func:`get_ruleset` knows: ``kayles``, ``dawson``, ``officers``,
    ``grundy``, codes are not names so use the names here) the disjunctive sum of the forms of
    heaps ``a, b, ...`` (``ruleset.heap(n)``); for another impartial ruleset whose positions
    are integers (``parity``), the sum of the forms of the positions ``a, b, ...``
    (:func:`cgtalg.rulesets.solver.game_of`).

    This is what ``cgtalg.parse("kayles(3)+kayles(4)")`` calls, so the misère canonical form
    of a sum of Kayles heaps is one expression.

    Examples
    --------
    >>> from cgtalg.misere import misere_canonical
    >>> from cgtalg.rulesets.heaps.octal import TakeAndBreak
    >>> kayles = TakeAndBreak("0.77")
    >>> position_game("kayles", (3, 4)) is kayles.heap(3) + kayles.heap(4)
    True
    >>> position_game("Kayles", (2,)) is position_game("0.77", (2,))
    True

    Raises
    ------
    RulesetError
        For an unknown ruleset name (the message lists the known ones), or a ruleset whose
        positions are not given by integers.
    ComputationLimitError
        When the literal form would be too large to build (the limits of the form type:
        :data:`cgtalg.core.game.WALK_LIMIT`; heap forms grow exponentially with the heap).
    """
    from cgtalg.core.game import zero

    ruleset = get_ruleset(name)
    heap = getattr(ruleset, "heap", None)
    if isinstance(args, (int, str)) or not isinstance(args, (tuple, list)):
        raise RulesetError(f"position_game takes the position's arguments as a tuple, e.g. "
                           f"position_game('kayles', (3, 4)), not {short_repr(args)}")
    g = zero
    if callable(heap):
        for n in args:
            g = g + heap(n)
        return g
    from cgtalg.rulesets.protocol import parse_position
    from cgtalg.rulesets.solver import game_of

    if getattr(ruleset, "partizan", False):
        raise RulesetError(f"ruleset {short_repr(name)} is partizan: its positions are not impartial forms")
    for n in args:
        g = g + game_of(ruleset, parse_position(ruleset, str(n)))
    return g


__all__ += ["position_game"]
