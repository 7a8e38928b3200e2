"""The ruleset protocol: how a game's rules are described to cgtalg.

A *ruleset* describes a family of games by its positions and moves; the generic solver
(:mod:`cgtalg.rulesets.solver`) plays any ruleset that follows this protocol, and
:func:`~cgtalg.rulesets.solver.game_of` turns positions of impartial rulesets into
:class:`cgtalg.Game` forms so the whole impartial theory applies to them.

Positions
    Any *hashable* value (an ``int``, a tuple of heap sizes, a frozenset of cells ...).
    Identical (equal) positions are identified: the solver explores a DAG, not a tree.

Impartial ruleset (both players have the same moves; Siegel, *Combinatorial Game Theory*,
ch. IV)
    ``name: str`` and ``moves(position) -> Iterable[position]``.

Partizan ruleset (Left and Right have different moves; Winning Ways ch. 1-2, Siegel ch. II)
    ``name: str``, ``partizan = True``, ``left_moves(position)`` and ``right_moves(position)``.

Optional methods (any ruleset)
    ``components(position) -> list[position] | None``
        The position as a disjunctive sum of the listed positions, or ``None`` when it does
        not decompose. The solver uses it for impartial rulesets under the default end rules
        (normal play: the Sprague-Grundy theorem, values add by XOR; misère play: the forms
        of the components are added with :meth:`cgtalg.Game.__add__`).
    ``end_winner(position, to_move) -> "L" | "R" | None``
        Who wins when ``to_move`` (``"L"`` or ``"R"``) cannot move in ``position``; ``None``
        means the default rule (normal play: the player who cannot move loses; misère play:
        that player wins). A ruleset with its own end rule has four outcome classes
        (L, R, N, P; Winning Ways ch. 1) even when its moves are impartial.
    ``format_position(position) -> str`` and ``parse_position(text) -> position``
        Text forms of positions (the CLI, the store and printed strategies use them).
    ``format_state(position, to_move) -> str``
        A position shown relative to the player to move (e.g. Guy's ``b(f, s)`` notation).
    ``format_move(position, option, mover) -> str``
        A short description of a move such as ``"takes 2"``.
    ``mirror(position) -> position``
        The position with Left and Right exchanged, for rulesets whose rules are symmetric
        in the two players; lets printed strategies speak of the first and second player.
    ``state_legend: str``
        One line explaining the notation of ``format_state`` (printed with strategies).

Use the base classes :class:`ImpartialRuleset` / :class:`PartizanRuleset` (which supply
the optional methods' defaults), or any object with the right attributes (duck typing), or
:func:`ruleset_from_function`. :func:`player_moves` reads a position's moves through the
protocol and checks them: an unhashable position raises :class:`~cgtalg.errors.RulesetError`,
a move back to the same position raises :class:`~cgtalg.errors.LoopyGameError`.
"""

from __future__ import annotations

from typing import Any, Callable, Hashable, Iterable, Literal, Protocol, runtime_checkable

from cgtalg.budget import MEMORY_HINT, check_fits, default_max_memory, format_bytes, parse_memory
from cgtalg.errors import ComputationLimitError, LoopyGameError, RulesetError, shorten

__all__ = [
    "check_store",
    "Position",
    "Player",
    "LEFT",
    "RIGHT",
    "other_player",
    "ImpartialRulesetProtocol",
    "PartizanRulesetProtocol",
    "ImpartialRuleset",
    "PartizanRuleset",
    "ruleset_from_function",
    "is_partizan",
    "has_end_rule",
    "has_components",
    "player_moves",
    "check_ruleset",
    "check_position",
    "end_winner",
    "format_position",
    "parse_position",
    "format_state",
    "format_move",
    "components_of",
    "short_repr",
    "check_memory",
    "short_count",
]

Position = Hashable
Player = Literal["L", "R"]


def check_memory(needed_bytes: Any, what: str, max_memory: Any = None) -> None:
    """:func:`cgtalg.budget.check_fits` for estimates of any size: one past ``2**70`` bytes
    (a table of ``10**30`` rows) is refused as more than a zettabyte, without printing its
    digits. Raises :class:`~cgtalg.errors.ComputationLimitError`."""
    if needed_bytes >= 2**70:
        limit = default_max_memory() if max_memory is None else parse_memory(max_memory)
        raise ComputationLimitError(
            f"{what} would need more than a zettabyte (2**70 bytes), beyond the memory ceiling of "
            f"{format_bytes(limit)}; ask for less (or {MEMORY_HINT})")
    check_fits(needed_bytes, what, max_memory)


def short_count(n: int) -> str:
    """A count for a message: ``1,000,000`` up to 10**15, else shortened (:func:`short_repr`)."""
    return f"{n:,}" if abs(n) < 10**15 else short_repr(n, 40)


def short_repr(value: Any, limit: int = 80) -> str:
    """``repr(value)`` for an error message, shortened to about ``limit`` characters: the one
    shortening of :func:`cgtalg.errors.shorten` (an input of 200,000 digits is not repeated).

    Examples
    --------
    >>> short_repr("0.77")
    "'0.77'"
    """
    return shorten(value, limit)


LEFT: Player = "L"
RIGHT: Player = "R"


def other_player(player: Player) -> Player:
    """The opponent of ``player`` (``"L"`` <-> ``"R"``)."""
    return "R" if player == "L" else "L"


@runtime_checkable
class ImpartialRulesetProtocol(Protocol):
    """Structural type of an impartial ruleset: ``name`` and ``moves(position)``."""

    name: str

    def moves(self, position: Position) -> Iterable[Position]: ...


@runtime_checkable
class PartizanRulesetProtocol(Protocol):
    """Structural type of a partizan ruleset: ``name``, ``partizan = True``, the two move sets."""

    name: str
    partizan: bool

    def left_moves(self, position: Position) -> Iterable[Position]: ...

    def right_moves(self, position: Position) -> Iterable[Position]: ...


class _RulesetBase:
    """Defaults shared by both base classes."""

    name: str = "ruleset"
    partizan: bool = False
    #: a small position (text for ``parse_position``, or a position) shown on the notebook card
    example: Any = None

    def components(self, position: Position) -> list[Position] | None:
        """The position as a disjunctive sum of components, or ``None`` (the default)."""
        return None

    def end_winner(self, position: Position, to_move: Player) -> Player | None:
        """Who wins when ``to_move`` cannot move; ``None`` (the default) = the usual rule."""
        return None

    @property
    def has_end_rule(self) -> bool:
        """True when a subclass overrides :meth:`end_winner` (the four-outcome solver is used)."""
        return type(self).end_winner is not _RulesetBase.end_winner

    @property
    def has_components(self) -> bool:
        """True when a subclass overrides :meth:`components`."""
        return type(self).components is not _RulesetBase.components

    def format_position(self, position: Position) -> str:
        """Text of a position (default: ``str(position)``)."""
        return str(position)

    def parse_position(self, text: str) -> Position:
        """Read a position from text; the default raises :class:`RulesetError`."""
        raise RulesetError(f"ruleset {short_repr(self.name)} cannot read positions from text (no parse_position)")

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"

    def _repr_html_(self) -> str:
        """Notebook view: name, kind, rules and an example position with its value."""
        from cgtalg.rulesets.ruleset_html import ruleset_html

        return ruleset_html(self)


class ImpartialRuleset(_RulesetBase):
    """Base class of impartial rulesets: subclasses set ``name`` and define :meth:`moves`.

    Examples
    --------
    >>> class Subtraction123(ImpartialRuleset):
    ...     name = "subtraction(1,2,3)"
    ...     def moves(self, n):
    ...         return [n - t for t in (1, 2, 3) if t <= n]
    >>> from cgtalg.rulesets.solver import solve
    >>> solve(Subtraction123(), 8).outcome
    'P'
    """

    partizan = False

    def moves(self, position: Position) -> Iterable[Position]:
        """The positions reachable in one move (both players have the same moves)."""
        raise NotImplementedError(f"{type(self).__name__} must define moves(position)")

    def left_moves(self, position: Position) -> Iterable[Position]:
        """Same as :meth:`moves` (impartial)."""
        return self.moves(position)

    def right_moves(self, position: Position) -> Iterable[Position]:
        """Same as :meth:`moves` (impartial)."""
        return self.moves(position)


class PartizanRuleset(_RulesetBase):
    """Base class of partizan rulesets: define :meth:`left_moves` and :meth:`right_moves`."""

    partizan = True

    def left_moves(self, position: Position) -> Iterable[Position]:
        """Left's options."""
        raise NotImplementedError(f"{type(self).__name__} must define left_moves(position)")

    def right_moves(self, position: Position) -> Iterable[Position]:
        """Right's options."""
        raise NotImplementedError(f"{type(self).__name__} must define right_moves(position)")


_SIMPLE = (int, float, str, bytes, bool, tuple, frozenset, list, set, dict, type(None))


def function_fingerprint(*fns: Any) -> str:
    """The first 16 hexadecimal digits of a SHA-256 of what the functions ``fns`` are: each
    one's compiled code (nested functions included), its default arguments, the values its
    closure holds and the plain data (numbers, strings, containers) of the global names it
    reads; for a callable without code, its type and its ``repr`` with addresses removed.
    Two rulesets whose functions are the same code over the same data share answers in the
    store; any other two do not."""
    import hashlib
    import marshal
    import re

    digest = hashlib.sha256(b"cgtalg function rules v1\n")
    for fn in fns:
        code = getattr(fn, "__code__", None)
        if fn is None:
            digest.update(b"-\n")
        elif code is None:
            text = f"{type(fn).__module__}.{type(fn).__qualname__}:{fn!r}"
            digest.update(re.sub(r" at 0x[0-9a-fA-F]+", "", text).encode() + b"\n")
        else:
            digest.update(marshal.dumps(code))
            digest.update(repr(getattr(fn, "__defaults__", None)).encode())
            for cell in getattr(fn, "__closure__", None) or ():
                try:
                    value = cell.cell_contents
                except ValueError:
                    value = None
                digest.update(repr(value if isinstance(value, _SIMPLE) else type(value).__qualname__).encode())
            glob = getattr(fn, "__globals__", {})
            for name in code.co_names:
                if name in glob and isinstance(glob[name], _SIMPLE):
                    digest.update(f"{name}={glob[name]!r}".encode())
            digest.update(b"\n")
    return digest.hexdigest()[:16]


class _FunctionRuleset(ImpartialRuleset):
    """An impartial ruleset built from plain functions (see :func:`ruleset_from_function`)."""

    def __init__(
        self,
        name: str,
        moves_fn: Callable[[Any], Iterable[Any]],
        components: Callable[[Any], list | None] | None,
        end_winner: Callable[[Any, Player], Player | None] | None,
        format_position: Callable[[Any], str] | None,
        parse_position: Callable[[str], Any] | None,
    ) -> None:
        self.name = name
        self._moves = moves_fn
        self._components = components
        self._end_winner = end_winner
        self._format = format_position
        self._parse = parse_position
        self._fingerprint: str | None = None

    @property
    def store_name(self) -> str:
        """The name the store keys this ruleset's answers by: ``name#fingerprint``, the
        fingerprint a hash of what its functions are (:func:`function_fingerprint`), so a
        ruleset from a function named like a built-in (``parity``) or like another function's
        ruleset never shares their answers."""
        if self._fingerprint is None:
            self._fingerprint = function_fingerprint(self._moves, self._components, self._end_winner,
                                                     self._format, self._parse)
        return f"{self.name}#{self._fingerprint}"

    def moves(self, position: Position) -> Iterable[Position]:
        return self._moves(position)

    def components(self, position: Position) -> list[Position] | None:
        return None if self._components is None else self._components(position)

    def end_winner(self, position: Position, to_move: Player) -> Player | None:
        return None if self._end_winner is None else self._end_winner(position, to_move)

    @property
    def has_end_rule(self) -> bool:
        return self._end_winner is not None

    @property
    def has_components(self) -> bool:
        return self._components is not None

    def format_position(self, position: Position) -> str:
        return str(position) if self._format is None else self._format(position)

    def parse_position(self, text: str) -> Position:
        if self._parse is None:
            return super().parse_position(text)
        return self._parse(text)


def ruleset_from_function(
    name: str,
    moves_fn: Callable[[Any], Iterable[Any]],
    *,
    components: Callable[[Any], list | None] | None = None,
    end_winner: Callable[[Any, Player], Player | None] | None = None,
    format_position: Callable[[Any], str] | None = None,
    parse_position: Callable[[str], Any] | None = None,
) -> ImpartialRuleset:
    """An impartial ruleset from a move function (and optional protocol functions).

    Parameters
    ----------
    name : str
        The ruleset's name (the store keys cached results on it).
    moves_fn : callable(position) -> iterable of positions
        The options of a position.
    components, end_winner, format_position, parse_position : callable, optional
        The optional protocol methods (see the module docstring).

    Returns
    -------
    ImpartialRuleset

    Raises
    ------
    RulesetError
        If ``name`` is not a non-empty string or ``moves_fn`` is not callable.

    Examples
    --------
    >>> from cgtalg.rulesets.solver import solve
    >>> r = ruleset_from_function("subtraction(1,2)", lambda n: [n - t for t in (1, 2) if t <= n])
    >>> solve(r, 6).outcome, solve(r, 7).outcome
    ('P', 'N')
    """
    if not isinstance(name, str) or not name:
        raise RulesetError(f"a ruleset name must be a non-empty str, got {short_repr(name)}")
    if not callable(moves_fn):
        raise RulesetError(f"ruleset {short_repr(name)}: the move function must be callable, got {short_repr(moves_fn)}")
    for label, fn in (("components", components), ("end_winner", end_winner),
                      ("format_position", format_position), ("parse_position", parse_position)):
        if fn is not None and not callable(fn):
            raise RulesetError(f"ruleset {short_repr(name)}: {label} must be callable, got {short_repr(fn)}")
    return _FunctionRuleset(name, moves_fn, components, end_winner, format_position, parse_position)


# -- reading a ruleset through the protocol -----------------------------------------------


def check_ruleset(ruleset: Any) -> None:
    """Raise :class:`RulesetError` unless ``ruleset`` follows the protocol.

    It needs a string ``name`` and either ``moves`` (impartial) or, with ``partizan`` true,
    ``left_moves`` and ``right_moves``.
    """
    name = getattr(ruleset, "name", None)
    if not isinstance(name, str) or not name:
        raise RulesetError(f"{short_repr(ruleset)} is not a ruleset: it needs a non-empty str attribute 'name'")
    if is_partizan(ruleset):
        for attr in ("left_moves", "right_moves"):
            if not callable(getattr(ruleset, attr, None)):
                raise RulesetError(f"partizan ruleset {short_repr(name)} has no method {attr}(position)")
    elif not callable(getattr(ruleset, "moves", None)):
        raise RulesetError(
            f"ruleset {short_repr(name)} has no method moves(position) (a partizan ruleset sets partizan = True "
            "and defines left_moves and right_moves)"
        )


def is_partizan(ruleset: Any) -> bool:
    """True for a partizan ruleset (``partizan`` attribute true)."""
    return bool(getattr(ruleset, "partizan", False))


def has_end_rule(ruleset: Any) -> bool:
    """True when the ruleset has its own end rule (an ``end_winner`` method that is not the default)."""
    flag = getattr(ruleset, "has_end_rule", None)
    if isinstance(flag, bool):
        return flag
    return callable(getattr(ruleset, "end_winner", None))


def has_components(ruleset: Any) -> bool:
    """True when the ruleset can decompose positions (a ``components`` method that is not the default)."""
    flag = getattr(ruleset, "has_components", None)
    if isinstance(flag, bool):
        return flag
    return callable(getattr(ruleset, "components", None))


def check_position(ruleset: Any, position: Any) -> None:
    """Raise :class:`RulesetError` if ``position`` is not hashable."""
    try:
        hash(position)
    except TypeError:
        raise RulesetError(
            f"ruleset {short_repr(ruleset.name)}: the position {short_repr(position)} is not hashable "
            f"({type(position).__name__}); positions must be hashable (use tuples or frozensets)"
        ) from None


def player_moves(ruleset: Any, position: Position, player: Player | None = None) -> list[Position]:
    """The distinct options of ``position`` for ``player`` (``None``: impartial ``moves``), checked.

    Duplicates are merged (a game's options form a set); order of first appearance is kept.

    Raises
    ------
    RulesetError
        If the move function does not return an iterable, or returns an unhashable position.
    LoopyGameError
        If a move leads back to ``position`` itself (a loop of length one).
    """
    if player is None:
        fn = ruleset.moves
        who = "moves"
    else:
        fn = ruleset.left_moves if player == "L" else ruleset.right_moves
        who = "left_moves" if player == "L" else "right_moves"
    result = fn(position)
    try:
        items = iter(result)
    except TypeError:
        raise RulesetError(
            f"ruleset {short_repr(ruleset.name)}: {who}({short_repr(position)}) returned {short_repr(result)}, not an iterable of positions"
        ) from None
    seen: dict[Position, None] = {}
    for q in items:
        try:
            if q in seen:
                continue
        except TypeError:
            raise RulesetError(
                f"ruleset {short_repr(ruleset.name)}: {who}({short_repr(position)}) gave the unhashable position {short_repr(q)} "
                f"({type(q).__name__}); positions must be hashable (use tuples or frozensets)"
            ) from None
        if q == position:
            raise LoopyGameError(
                [position],
                f"ruleset {short_repr(ruleset.name)}: a move from {short_repr(position)} leads back to {short_repr(position)} "
                f"(the cycle {short_repr(position)} -> {short_repr(position)}); cgtalg solves short (loop-free) games only",
            )
        seen[q] = None
    return list(seen)


def end_winner(ruleset: Any, position: Position, to_move: Player, misere: bool = False) -> Player:
    """Who wins when ``to_move`` has no move in ``position``.

    The ruleset's own ``end_winner`` decides when it returns a player; otherwise the
    default rule: in normal play the player unable to move loses, in misère play they win.

    Raises
    ------
    RulesetError
        If the ruleset's ``end_winner`` returns something other than ``"L"``, ``"R"`` or ``None``.
    """
    if has_end_rule(ruleset):
        w = ruleset.end_winner(position, to_move)
        if w is not None:
            if w not in ("L", "R"):
                raise RulesetError(
                    f"ruleset {short_repr(ruleset.name)}: end_winner({short_repr(position)}, {short_repr(to_move)}) returned {short_repr(w)}; "
                    "expected 'L', 'R' or None"
                )
            return w
    return to_move if misere else other_player(to_move)


def format_position(ruleset: Any, position: Position) -> str:
    """The ruleset's text for ``position`` (``str(position)`` when it has no ``format_position``)."""
    fn = getattr(ruleset, "format_position", None)
    return fn(position) if callable(fn) else str(position)


def parse_position(ruleset: Any, text: str) -> Position:
    """Read a position with the ruleset's ``parse_position``.

    Raises
    ------
    RulesetError
        If the ruleset cannot read positions from text.
    """
    fn = getattr(ruleset, "parse_position", None)
    if not callable(fn):
        raise RulesetError(f"ruleset {short_repr(ruleset.name)} cannot read positions from text (no parse_position)")
    return fn(text)


def format_state(ruleset: Any, position: Position, to_move: Player | None) -> str:
    """``position`` shown relative to the player to move, when the ruleset can (``format_state``)."""
    fn = getattr(ruleset, "format_state", None)
    if callable(fn) and to_move is not None:
        return fn(position, to_move)
    return format_position(ruleset, position)


def format_move(ruleset: Any, position: Position, option: Position, mover: Player | None) -> str:
    """Text of the move ``position -> option`` by ``mover``: the ruleset's short description
    (``format_move``, e.g. ``"takes 2"``) followed by the resulting position, shown relative
    to the next player when the ruleset has ``format_state``: ``"takes 2 -> 23(e,d)"``."""
    state = format_state(ruleset, option, other_player(mover) if mover else None)
    fn = getattr(ruleset, "format_move", None)
    if callable(fn):
        desc = fn(position, option, mover)
        if desc:
            return f"{desc} -> {state}"
    return f"-> {state}"


def components_of(ruleset: Any, position: Position) -> list[Position] | None:
    """The components of ``position`` if it decomposes into a sum of *other* positions, else None.

    The ruleset's ``components`` returning ``None``, or a one-element list holding
    ``position`` itself, means "no decomposition". An empty list means the empty sum (a
    position equal to the zero game).

    Raises
    ------
    RulesetError
        If ``components`` returns a non-list or unhashable components, or lists ``position``
        itself among several components.
    """
    fn = getattr(ruleset, "components", None)
    if not callable(fn):
        return None
    parts = fn(position)
    if parts is None:
        return None
    try:
        parts = list(parts)
    except TypeError:
        raise RulesetError(
            f"ruleset {short_repr(ruleset.name)}: components({short_repr(position)}) returned {short_repr(parts)}, not a list of positions"
        ) from None
    for c in parts:
        try:
            hash(c)
        except TypeError:
            raise RulesetError(
                f"ruleset {short_repr(ruleset.name)}: components({short_repr(position)}) gave the unhashable component {short_repr(c)}"
            ) from None
    if len(parts) == 1 and parts[0] == position:
        return None
    if any(c == position for c in parts):
        raise RulesetError(
            f"ruleset {short_repr(ruleset.name)}: components({short_repr(position)}) lists the position itself among "
            f"{len(parts)} components"
        )
    return parts


def check_store(store: Any, what: str = "store") -> Any:
    """``store`` if it is a store object, ``None`` for no store (``None`` or ``False``).

    The rulesets never open stores: a caller holding a URL or a path opens it first
    (``cgtalg.store.open_store(url)``) and passes the store.

    Raises
    ------
    RulesetError
        For a URL or path given as text.
    """
    if store is None or store is False:
        return None
    if isinstance(store, (str, bytes)) or hasattr(store, "__fspath__"):
        raise RulesetError(
            f"{what} must be a store object (or None), not the location {short_repr(store)}: open it with "
            "cgtalg.store.open_store(...) and pass the store")
    return store
