"""Guy's parity subtraction game (R. K. Guy, "A Parity Subtraction Game", written for *Crux
Mathematicorum with Mathematical Mayhem* after its Olympiad Corner No. 222, 2002; seed 003).

A heap of beans; the players alternately remove 1, 2 or 3 beans and keep them. When all the
beans have been taken, the player holding an even number of beans wins. (St. Petersburg
Olympiad 1965: with 25 beans, who wins? The second player.) The heap must start odd, so
that exactly one player ends with an even number.

The game is not impartial (the move shows who moved: the mover's holding grows) and its end
rule mixes normal and misère play, so neither Sprague-Grundy nor Conway's theory applies;
Guy solves it by a condensed game tree (his Figure 1). Here it is a partizan ruleset with
its own end rule, solved by the generic four-outcome solver.

Positions
    :class:`ParityGame` positions are ``(b, l, r)``: ``b`` beans in the heap, Left holding
    ``l`` and Right ``r``. With ``reduce=True`` (the default, ruleset name ``"parity"``) the
    holdings are kept mod 2. That is exact: the moves from ``(b, l, r)`` depend on ``b``
    only; a move of ``t`` beans adds ``t`` to the mover's holding, so the holdings' parities
    after the move depend only on their parities before it; and the end rule looks only at
    the parities. So the map ``(b, l, r) -> (b, l mod 2, r mod 2)`` commutes with every move
    of either player and preserves the end rule, and by induction on ``b`` the two games
    have the same winner from corresponding states. (The test suite also checks this
    against the unreduced game.)

Guy's relative notation ``b(f, s)``
    ``f`` and ``s`` are the holdings of the *next* player (to move) and the *previous*
    player; with ``d`` = odd and ``e`` = even, ``9(e,e)`` is a class of positions. Taking
    ``t`` beans from ``b(f, s)`` gives ``b-t(s, f+t)``. :class:`RelativeParityGame` plays
    directly on these classes: its moves are the same for both players, and its end rule
    ("the player to move at ``0(f, s)`` wins iff ``f`` is even") is relative to the mover, so
    its outcomes are P or N. It is the game of Guy's Figure 1.

Guy's theorem (the full solution, for subtraction set {1, 2, 3}): the P-positions are
``8k+1(e,e)``, ``8k+5(d,d)``, ``8k+4(e,d)`` and ``8k(d,e)``; every other ``b(f, s)`` with
``b + f + s`` odd is an N-position. This module does not assume it: the tests recompute
every class and compare, and :func:`detect_parity_period` finds the period 8.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Sequence

from cgtalg.budget import Deadline
from cgtalg.errors import RulesetError
from cgtalg.rulesets.protocol import ImpartialRuleset, PartizanRuleset, Player, check_memory, short_repr

__all__ = [
    "ParityGame",
    "RelativeParityGame",
    "parity_game",
    "GUY_COLUMNS",
    "guy_notation",
    "guy_state",
    "parity_class",
    "parity_class_table",
    "format_class_table",
    "detect_parity_period",
]

#: the four parity combinations (f, s) of Guy's notation, in the column order of the tables
GUY_COLUMNS: tuple[tuple[str, str], ...] = (("e", "e"), ("d", "d"), ("d", "e"), ("e", "d"))

_LETTER = {0: "e", 1: "d"}
_BIT = {"e": 0, "d": 1}


def _check_subtraction(subtraction: Iterable[int]) -> tuple[int, ...]:
    try:
        s = tuple(sorted(set(subtraction)))
    except TypeError:
        raise RulesetError(f"the subtraction set must be a collection of positive ints, got {short_repr(subtraction)}") from None
    if not s or any(isinstance(t, bool) or not isinstance(t, int) or t <= 0 for t in s):
        raise RulesetError(f"the subtraction set must be a non-empty set of positive ints, got {short_repr(subtraction)}")
    if 1 not in s:
        raise RulesetError(
            f"the subtraction set {set(s)} must contain 1: the parity rule is defined when all the "
            "beans have been taken, so the game may only end at an empty heap"
        )
    return s


def _int(text: str, what: str, source: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise RulesetError(f"bad parity-game position {short_repr(source)}: {what} {short_repr(text)} is not an integer") from None


class ParityGame(PartizanRuleset):
    """Guy's parity subtraction game as a partizan ruleset with its own end rule.

    Parameters
    ----------
    subtraction : iterable of int
        The numbers of beans a player may take (default ``(1, 2, 3)``; must contain 1).
    reduce : bool
        Keep the holdings mod 2 (exact; see the module docstring). ``False`` keeps the
        actual numbers of beans held.

    Notes
    -----
    Positions are ``(b, l, r)``: beans left, Left's holding, Right's holding, with
    ``b + l + r`` odd. Text: ``"25"`` (a fresh heap) or ``"24,1,0"``.

    Examples
    --------
    >>> from cgtalg.rulesets.solver import solve
    >>> parity = ParityGame()
    >>> solve(parity, parity.start(25)).outcome
    'P'
    >>> parity.left_moves((25, 0, 0))
    [(24, 1, 0), (23, 0, 0), (22, 1, 0)]
    """

    def __init__(self, subtraction: Iterable[int] = (1, 2, 3), reduce: bool = True) -> None:
        self.subtraction = _check_subtraction(subtraction)
        self.reduce = bool(reduce)
        if self.reduce:
            self.state_legend = (
                "Guy's notation b(f,s): b beans left; f, s = the holdings of the player to move and "
                "of the other player, e = even, d = odd"
            )
        else:
            self.state_legend = (
                "Guy's notation b(f,s): b beans left; f, s = the holdings of the player to move and "
                "of the other player"
            )
        name = "parity"
        if self.subtraction != (1, 2, 3):
            name += ":" + ",".join(map(str, self.subtraction))
        if not self.reduce:
            name += ":full"
        self.name = name
        self.example = "9"  # the opening with 9 beans, on the notebook card

    def __repr__(self) -> str:
        return f"ParityGame(subtraction={self.subtraction}, reduce={self.reduce})"

    # -- positions ----------------------------------------------------------------------
    def start(self, beans: int) -> tuple[int, int, int]:
        """The opening position: a heap of ``beans`` (odd), nobody holding anything."""
        return self.check((beans, 0, 0))

    def check(self, position: Any) -> tuple[int, int, int]:
        """Return ``position`` if it is a valid position, else raise :class:`RulesetError`."""
        if not (isinstance(position, tuple) and len(position) == 3
                and all(isinstance(x, int) and not isinstance(x, bool) for x in position)):
            raise RulesetError(
                f"a parity-game position is a tuple (beans, left_holding, right_holding) of ints, got {short_repr(position)}"
            )
        b, l, r = position
        if b < 0 or l < 0 or r < 0:
            raise RulesetError(f"parity-game position {short_repr(position)}: beans and holdings must be >= 0")
        if self.reduce and (l > 1 or r > 1):
            raise RulesetError(
                f"parity-game position {short_repr(position)}: with reduce=True the holdings are kept mod 2 (0 or 1)"
            )
        if (b + l + r) % 2 == 0:
            raise RulesetError(
                f"parity-game position {short_repr(position)}: the total number of beans b + l + r = {b + l + r} "
                "is even, so the parity rule would give no winner (Guy's game needs an odd total)"
            )
        return position

    def _after(self, held: int, t: int) -> int:
        return (held + t) & 1 if self.reduce else held + t

    def left_moves(self, position: tuple[int, int, int]) -> list[tuple[int, int, int]]:
        """Left takes ``t`` beans: ``(b, l, r) -> (b - t, l + t, r)``."""
        b, l, r = self.check(position)
        return [(b - t, self._after(l, t), r) for t in self.subtraction if t <= b]

    def right_moves(self, position: tuple[int, int, int]) -> list[tuple[int, int, int]]:
        """Right takes ``t`` beans: ``(b, l, r) -> (b - t, l, r + t)``."""
        b, l, r = self.check(position)
        return [(b - t, l, self._after(r, t)) for t in self.subtraction if t <= b]

    def end_winner(self, position: tuple[int, int, int], to_move: Player) -> Player | None:
        """At an empty heap the player holding an even number of beans wins."""
        b, l, r = self.check(position)
        if b != 0:
            return None  # cannot happen with 1 in the subtraction set
        return "L" if l % 2 == 0 else "R"

    def position_count(self, position: tuple[int, int, int], misere: bool = False) -> int:
        """An upper bound on the positions reachable from ``position`` (what the solver must
        hold): ``(b + 1)`` bean counts times the holdings (4 parity pairs when reduced, else
        up to ``(b + l + r + 1)^2``), times 2 players to move."""
        b, l, r = position
        holdings = 4 if self.reduce else (b + l + r + 1) ** 2
        return 2 * (b + 1) * holdings

    def mirror(self, position: tuple[int, int, int]) -> tuple[int, int, int]:
        """The position with Left's and Right's holdings exchanged (the rules are symmetric)."""
        b, l, r = position
        return (b, r, l)

    # -- tables -------------------------------------------------------------------------
    def class_table(self, max_beans: int, *, progress: bool | None = None,
                    max_seconds: float | None = None) -> list[tuple[str | None, ...]]:
        """Guy's class table for ``b = 0 .. max_beans`` (see :func:`parity_class_table`)."""
        return parity_class_table(max_beans, self.subtraction, progress=progress, max_seconds=max_seconds)

    class_table_columns = tuple(f"({f},{s})" for f, s in GUY_COLUMNS)

    def format_class_table(self, rows: Sequence[Sequence[str | None]]) -> str:
        """The class table as text (see :func:`format_class_table`)."""
        return format_class_table(rows)

    # -- text -------------------------------------------------------------------------
    def format_position(self, position: tuple[int, int, int]) -> str:
        """``"25"`` for a fresh heap, else ``"b,l,r"``."""
        b, l, r = position
        return str(b) if l == 0 and r == 0 else f"{b},{l},{r}"

    def parse_position(self, text: str) -> tuple[int, int, int]:
        """Read ``"25"``, ``"24,1,0"`` or ``"24 1 0"`` (holdings reduced mod 2 when ``reduce``)."""
        if not isinstance(text, str):
            raise RulesetError(f"a parity-game position text must be a str, got {short_repr(text)}")
        parts = [p for p in re.split(r"[\s,()]+", text.strip()) if p]
        if len(parts) not in (1, 3):
            raise RulesetError(
                f"bad parity-game position {short_repr(text)}: expected 'beans' or 'beans,left,right' "
                "(e.g. '25' or '24,1,0')"
            )
        b = _int(parts[0], "the number of beans", text)
        l = _int(parts[1], "Left's holding", text) if len(parts) == 3 else 0
        r = _int(parts[2], "Right's holding", text) if len(parts) == 3 else 0
        if self.reduce and l >= 0 and r >= 0:
            l, r = l & 1, r & 1
        return self.check((b, l, r))

    def format_state(self, position: tuple[int, int, int], to_move: Player) -> str:
        """Guy's relative notation ``b(f,s)`` for ``to_move`` to play (letters e/d when reduced)."""
        b, l, r = position
        f, s = (l, r) if to_move == "L" else (r, l)
        if self.reduce:
            return f"{b}({_LETTER[f]},{_LETTER[s]})"
        return f"{b}({f},{s})"

    def format_move(self, position: tuple[int, int, int], option: tuple[int, int, int], mover: Player | None) -> str:
        """``"takes t"``."""
        return f"takes {position[0] - option[0]}"


class RelativeParityGame(ImpartialRuleset):
    """Guy's game on his relative classes ``b(f, s)`` (the condensed tree of his Figure 1).

    Positions are ``(b, f, s)`` with ``f``, ``s`` in ``{0, 1}`` (parities of the holdings of
    the next and the previous player; ``b + f + s`` odd). Taking ``t`` beans gives
    ``(b - t, s, (f + t) mod 2)``; both players have the same moves. End rule: at ``b = 0``
    the player to move wins iff ``f`` is even. Outcomes are therefore P or N only.

    Examples
    --------
    >>> from cgtalg.rulesets.solver import solve
    >>> solve(RelativeParityGame(), (9, 0, 0)).outcome
    'P'
    """

    state_legend = (
        "Guy's notation b(f,s): b beans left; f, s = the holdings of the player to move and "
        "of the other player, e = even, d = odd"
    )

    def __init__(self, subtraction: Iterable[int] = (1, 2, 3)) -> None:
        self.subtraction = _check_subtraction(subtraction)
        self.name = "parity-relative"
        if self.subtraction != (1, 2, 3):
            self.name += ":" + ",".join(map(str, self.subtraction))

    def check(self, position: Any) -> tuple[int, int, int]:
        """Return ``position`` if it is a valid class ``(b, f, s)``, else raise :class:`RulesetError`."""
        if not (isinstance(position, tuple) and len(position) == 3
                and all(isinstance(x, int) and not isinstance(x, bool) for x in position)):
            raise RulesetError(f"a relative parity-game position is a tuple (b, f, s) of ints, got {short_repr(position)}")
        b, f, s = position
        if b < 0 or f not in (0, 1) or s not in (0, 1):
            raise RulesetError(f"relative parity-game position {short_repr(position)}: need b >= 0 and f, s in {{0, 1}}")
        if (b + f + s) % 2 == 0:
            raise RulesetError(
                f"relative parity-game position {short_repr(position)}: b + f + s must be odd (Guy's game needs an odd total)"
            )
        return position

    def position_count(self, position: tuple[int, int, int], misere: bool = False) -> int:
        """An upper bound on the positions reachable from ``position``: ``b + 1`` bean counts
        times the 4 parity classes (f, s) of the holdings."""
        return 4 * (position[0] + 1)

    def moves(self, position: tuple[int, int, int]) -> list[tuple[int, int, int]]:
        """``b(f, s) -> b-t(s, f+t)`` for each allowed ``t``."""
        b, f, s = self.check(position)
        return [(b - t, s, (f + t) & 1) for t in self.subtraction if t <= b]

    def end_winner(self, position: tuple[int, int, int], to_move: Player) -> Player | None:
        """At ``0(f, s)`` the player to move (holding ``f``) wins iff ``f`` is even."""
        b, f, s = self.check(position)
        if b != 0:
            return None
        return to_move if f == 0 else ("R" if to_move == "L" else "L")

    def mirror(self, position: tuple[int, int, int]) -> tuple[int, int, int]:
        """Relative positions do not name the players: the identity."""
        return position

    def format_position(self, position: tuple[int, int, int]) -> str:
        """Guy's notation ``b(f,s)`` with e/d letters, e.g. ``"9(e,e)"``."""
        b, f, s = position
        return f"{b}({_LETTER[f]},{_LETTER[s]})"

    def format_state(self, position: tuple[int, int, int], to_move: Player) -> str:
        """Same as :meth:`format_position` (positions are already relative to the mover)."""
        return self.format_position(position)

    def parse_position(self, text: str) -> tuple[int, int, int]:
        """Read ``"9(e,e)"`` or ``"9,0,0"``."""
        m = re.fullmatch(r"\s*(\d+)\s*\(\s*([ed01])\s*,\s*([ed01])\s*\)\s*", text or "")
        if m:
            b = int(m.group(1))
            f, s = (_BIT.get(x, None) if x in "ed" else int(x) for x in (m.group(2), m.group(3)))
            return self.check((b, f, s))
        parts = [p for p in re.split(r"[\s,]+", (text or "").strip()) if p]
        if len(parts) != 3:
            raise RulesetError(
                f"bad relative parity-game position {short_repr(text)}: expected Guy's notation like '9(e,e)' or 'b,f,s'"
            )
        return self.check(tuple(_int(p, "a number", text) for p in parts))  # type: ignore[return-value]

    def format_move(self, position: tuple[int, int, int], option: tuple[int, int, int], mover: Player | None) -> str:
        """``"takes t"``."""
        return f"takes {position[0] - option[0]}"


def parity_game(subtraction: Iterable[int] = (1, 2, 3), reduce: bool = True) -> ParityGame:
    """Guy's parity subtraction game (factory used by the ruleset registry as ``"parity"``)."""
    return ParityGame(subtraction, reduce)


def _letter_bits(f: str | int, s: str | int) -> tuple[int, int]:
    def bit(x: str | int) -> int:
        if x in ("e", "d"):
            return _BIT[x]  # type: ignore[index]
        if isinstance(x, int) and not isinstance(x, bool) and x >= 0:
            return x & 1
        raise RulesetError(f"a holding in Guy's notation is 'e', 'd' or a non-negative int, got {short_repr(x)}")

    return bit(f), bit(s)


def guy_state(b: int, f: str | int, s: str | int, to_move: Player = "L") -> tuple[tuple[int, int, int], Player]:
    """The reduced :class:`ParityGame` state for Guy's ``b(f, s)`` with ``to_move`` to play.

    ``f`` and ``s`` are ``'e'``/``'d'`` or holdings (reduced mod 2).

    Examples
    --------
    >>> guy_state(9, "e", "e")
    ((9, 0, 0), 'L')
    >>> guy_state(8, "d", "e", "R")
    ((8, 0, 1), 'R')
    """
    fb, sb = _letter_bits(f, s)
    pos = (b, fb, sb) if to_move == "L" else (b, sb, fb)
    return pos, to_move


def guy_notation(position: tuple[int, int, int], to_move: Player) -> str:
    """Guy's ``b(f,s)`` for a reduced :class:`ParityGame` position with ``to_move`` to play."""
    b, l, r = position
    f, s = (l, r) if to_move == "L" else (r, l)
    return f"{b}({_LETTER[f & 1]},{_LETTER[s & 1]})"


class _ClassSolver:
    """Shared memo for many class queries on one subtraction set."""

    def __init__(self, subtraction: Sequence[int]) -> None:
        from cgtalg.rulesets.solver import Solver

        self.ruleset = ParityGame(subtraction)
        self.solver = Solver(self.ruleset)

    def cls(self, b: int, f: int, s: int) -> str:
        # Left to move with holding f, Right (previous player) with s.
        return "N" if self.solver.winner((b, f, s), "L") == "L" else "P"


def parity_class(b: int, f: str | int, s: str | int, subtraction: Iterable[int] = (1, 2, 3)) -> str:
    """``'P'`` or ``'N'``: Guy's class of ``b(f, s)`` (``N``: the next player wins).

    Computed by the generic solver on :class:`ParityGame` (not from Guy's theorem).

    Raises
    ------
    RulesetError
        If ``b + f + s`` is even or the arguments are malformed.

    Examples
    --------
    >>> parity_class(25, "e", "e"), parity_class(4, "d", "e"), parity_class(4, "e", "d")
    ('P', 'N', 'P')
    """
    fb, sb = _letter_bits(f, s)
    solver = _ClassSolver(_check_subtraction(subtraction))
    solver.ruleset.check((b, fb, sb))
    return solver.cls(b, fb, sb)


#: bytes a row of :func:`parity_class_table` holds (the row and the solver's memo), measured
#: at about 900 and rounded up: the up-front memory check of a table
CLASS_TABLE_ROW_BYTES = 1024


def parity_class_table(
    max_beans: int, subtraction: Iterable[int] = (1, 2, 3), *, progress: bool | None = None,
    max_seconds: float | None = None, max_memory: Any = None,
) -> list[tuple[str | None, ...]]:
    """Guy's class of every ``b(f, s)`` for ``b = 0 .. max_beans``.

    Parameters
    ----------
    max_beans : int
        The last row.
    subtraction : iterable of int
        The subtraction set (must contain 1).
    progress : bool or None
        A progress bar (``None``: on a terminal, once the work has taken a second).
    max_seconds, max_memory : optional
        Time and memory budgets (:class:`cgtalg.budget.Deadline`); a table that cannot fit
        the memory ceiling (about :data:`CLASS_TABLE_ROW_BYTES` per row) is refused up front.

    Returns
    -------
    list of tuples
        Row ``b`` holds the classes (``'P'``/``'N'``) of the four combinations
        :data:`GUY_COLUMNS` ``(e,e), (d,d), (d,e), (e,d)``, with ``None`` where ``b + f + s``
        is even (not a position of the game).

    Raises
    ------
    RulesetError
        If ``max_beans`` is negative or not an int.
    ComputationLimitError
        If the table cannot fit the memory ceiling (refused before any work), or runs past
        ``max_seconds`` or the ceiling.

    Examples
    --------
    >>> parity_class_table(5)[5]
    ('N', 'P', None, None)
    """
    if isinstance(max_beans, bool) or not isinstance(max_beans, int) or max_beans < 0:
        raise RulesetError(f"max_beans must be a non-negative int, got {short_repr(max_beans)}")
    deadline = Deadline(max_seconds, max_memory)
    what = f"the parity class table up to b = {short_repr(max_beans)}"
    check_memory((max_beans + 1) * CLASS_TABLE_ROW_BYTES, what, max_memory)
    solver = _ClassSolver(_check_subtraction(subtraction))
    rows: list[tuple[str | None, ...]] = []
    bar = None
    if progress is not False:
        from tqdm.auto import tqdm

        bar = tqdm(total=max_beans + 1, desc="parity classes", unit=" rows", leave=False,
                   disable=None if progress is None else False, delay=1.0 if progress is None else 0.0)
    try:
        for b in range(max_beans + 1):
            row = []
            for f, s in GUY_COLUMNS:
                fb, sb = _BIT[f], _BIT[s]
                row.append(solver.cls(b, fb, sb) if (b + fb + sb) % 2 else None)
            rows.append(tuple(row))
            if not b & 0xFF:
                deadline.check(f"{what} ({b:,} rows done)")
                if bar is not None:
                    bar.update(b + 1 - bar.n)
    finally:
        if bar is not None:
            bar.close()
    return rows


def format_class_table(rows: Sequence[Sequence[str | None]]) -> str:
    """The class table as text: one line per ``b``, columns ``(e,e) (d,d) (d,e) (e,d)``."""
    width = max(2, len(str(len(rows) - 1)))
    head = " " * width + "  " + "  ".join(f"({f},{s})" for f, s in GUY_COLUMNS)
    lines = [head]
    for b, row in enumerate(rows):
        cells = "  ".join(f"{(c or '.'):^5}" for c in row)
        lines.append(f"{b:>{width}}  {cells}")
    return "\n".join(lines)


def detect_parity_period(max_beans: int = 200, subtraction: Iterable[int] = (1, 2, 3), min_cycles: int = 3):
    """Detect the periodicity of the class table over ``b`` with :func:`find_period`.

    Guy's Figure 1 "repeats itself every 8 rows" for subtraction set {1, 2, 3}; this
    recomputes the table up to ``max_beans`` and finds the smallest period, as detected on
    that prefix (not certified).

    Returns
    -------
    Periodicity or None

    Examples
    --------
    >>> p = detect_parity_period(100)
    >>> p.period, p.preperiod
    (8, 0)
    """
    from cgtalg.rulesets.heaps.periodicity import find_period

    return find_period(parity_class_table(max_beans, subtraction), min_cycles=min_cycles)
