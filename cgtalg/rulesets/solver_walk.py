"""The one iterative traversal behind the generic solver, and the evaluators it drives.

- :func:`walk`: iterative post-order depth-first search with memoisation (no recursion
  limit), raising :class:`~cgtalg.errors.LoopyGameError` on a cycle and
  :class:`~cgtalg.errors.ComputationLimitError` past ``max_positions``;
- :class:`ImpartialValues`: Grundy values (normal play; components add by XOR) and misère
  Grundy values of positions (Sprague 1935, Grundy 1939; Conway, ONAG ch. 12);
- :class:`Winners`: who wins each state (position, player to move) of a partizan ruleset or
  one with its own end rule (Winning Ways ch. 1);
- :func:`position_forms`: the :class:`cgtalg.Game` form of a position (sums of the forms
  of its components);
- :func:`outcome_class`: L, R, N or P from the winners of the two starts.

The public doors are in :mod:`cgtalg.rulesets.solver`.
"""

from __future__ import annotations

from typing import Any, Callable, Hashable

from cgtalg.budget import Deadline
from cgtalg.core.game import Game, game, zero
from cgtalg.errors import ComputationLimitError, LoopyGameError, RulesetError
from cgtalg.normal.grundy import mex
from cgtalg.rulesets.protocol import (
    Player,
    Position,
    components_of,
    end_winner,
    format_position,
    has_components,
    has_end_rule,
    is_partizan,
    other_player,
    player_moves,
    short_repr,
)

__all__ = [
    "outcome_class", "OUTCOME_TEXT", "PLAYER_NAMES", "DEFAULT_MAX_POSITIONS", "ProgressCounter",
    "loopy_error", "walk", "Sum", "ImpartialValues", "Winners", "uses_four_outcomes", "position_forms",
]

#: outcome class from (winner when Left starts, winner when Right starts)
_CLASS = {("L", "L"): "L", ("R", "R"): "R", ("L", "R"): "N", ("R", "L"): "P"}

#: readable meaning of each outcome class
OUTCOME_TEXT = {
    "P": "the second player wins",
    "N": "the first player wins",
    "L": "Left wins, whoever starts",
    "R": "Right wins, whoever starts",
}

PLAYER_NAMES = {"L": "Left", "R": "Right"}


def outcome_class(winner_if_left_starts: Player, winner_if_right_starts: Player) -> str:
    """The outcome class ``'L'``, ``'R'``, ``'N'`` or ``'P'`` from the winners of the two starts.

    Examples
    --------
    >>> outcome_class("R", "L")
    'P'
    """
    try:
        return _CLASS[(winner_if_left_starts, winner_if_right_starts)]
    except KeyError:
        raise RulesetError(
            f"winners must be 'L' or 'R', got {short_repr(winner_if_left_starts)} and {short_repr(winner_if_right_starts)}"
        ) from None


# -- the one iterative traversal ----------------------------------------------------------


class ProgressCounter:
    """A tqdm counter of finished positions, created only once a walk passes 4096 positions
    (shown after a further 2 s, or at once with ``progress=True``), so small walks cost nothing."""

    __slots__ = ("bar", "pending", "progress", "desc")

    def __init__(self, progress: bool | None, desc: str) -> None:
        self.bar = None
        self.pending = 0
        self.progress = progress
        self.desc = desc

    def tick(self) -> None:
        if self.progress is False:
            return
        self.pending += 1
        if self.pending >= 4096:
            if self.bar is None:
                from tqdm.auto import tqdm

                self.bar = tqdm(
                    desc=self.desc,
                    unit=" positions",
                    disable=None if self.progress is None else False,
                    delay=0.0 if self.progress else 2.0,
                    leave=False,
                )
            self.bar.update(self.pending)
            self.pending = 0

    def close(self) -> None:
        if self.bar is not None:
            self.bar.update(self.pending)
            self.bar.close()
            self.bar = None


def loopy_error(ruleset: Any, cycle: list) -> LoopyGameError:
    shown = " -> ".join(format_position(ruleset, p) for p in cycle[:12])
    if len(cycle) > 12:
        shown += " -> ..."
    shown += " -> " + format_position(ruleset, cycle[0])
    return LoopyGameError(
        cycle,
        f"ruleset {short_repr(ruleset.name)}: the game graph is loopy (not short): it has the cycle {shown}",
    )


#: the most positions one solve holds in memory unless told otherwise (about 1-2 GB)
DEFAULT_MAX_POSITIONS = 10_000_000


def walk(
    root: Hashable,
    expand: Callable[[Hashable], list],
    finish: Callable[[Hashable, list], Any],
    memo: dict,
    on_cycle: Callable[[list], Exception],
    bar: ProgressCounter | None = None,
    limit: int | None = None,
    what: str = "",
    deadline: Deadline | None = None,
) -> Any:
    """Iterative post-order DFS from ``root``: ``memo[node] = finish(node, expand(node))``.

    Children are finished before their parents; a child met again while on the current
    path closes a cycle, and ``on_cycle(path_from_child_to_node)`` is raised. With ``limit``,
    a walk that would hold more than ``limit`` positions (memoised + on the current path)
    stops with :class:`ComputationLimitError` before expanding the next one; with
    ``deadline`` (a :class:`cgtalg.budget.Deadline`), one that runs past it (checked every
    4096 positions; the positions done stay in ``memo``).
    """
    if root in memo:
        return memo[root]
    on_path: dict[Hashable, int] = {root: 0}
    path: list[Hashable] = [root]
    kids = expand(root)
    frames: list[tuple[list, Any]] = [(kids, iter(kids))]
    while frames:
        kids, it = frames[-1]
        for child in it:
            if child in memo:
                continue
            if child in on_path:
                raise on_cycle(path[on_path[child]:])
            if limit is not None and len(memo) + len(path) >= limit:
                raise ComputationLimitError(
                    f"{what or 'solving'}: the game graph has more than {limit:,} positions "
                    "(max_positions; the CLI's --max-positions raises it); nothing was stored"
                )
            child_kids = expand(child)
            on_path[child] = len(path)
            path.append(child)
            frames.append((child_kids, iter(child_kids)))
            break
        else:
            node = path.pop()
            frames.pop()
            del on_path[node]
            memo[node] = finish(node, kids)
            if bar is not None:
                bar.tick()
            if deadline is not None and not len(memo) & 0xFFF:
                deadline.check(f"{what or 'solving'} ({len(memo):,} positions done, kept for the next call)")
    return memo[root]


class Sum(list):
    """Children list of a position that decomposes into these components."""


class ImpartialValues:
    """Grundy values (normal play) or misère Grundy values of positions, memoised.

    In normal play a position that decomposes gets the XOR of its components' values.
    In misère play, if the ruleset has components, values come from forms (:func:`game_of`).
    """

    def __init__(self, ruleset: Any, misere: bool, progress: bool | None = False,
                 max_positions: int | None = None) -> None:
        self.ruleset = ruleset
        self.misere = misere
        self.memo: dict[Hashable, int] = {}
        self.progress = progress
        self.max_positions = max_positions
        self.deadline: Deadline | None = None
        self.use_forms = misere and has_components(ruleset)
        self.forms: dict[Hashable, Game] | None = {} if self.use_forms else None

    def _expand(self, pos: Hashable) -> list:
        if not self.misere:
            comps = components_of(self.ruleset, pos)
            if comps is not None:
                return Sum(comps)
        return player_moves(self.ruleset, pos)

    def _finish(self, pos: Hashable, kids: list) -> int:
        memo = self.memo
        if isinstance(kids, Sum):
            v = 0
            for c in kids:
                v ^= memo[c]
            return v
        if not kids:
            return 1 if self.misere else 0
        return mex(memo[k] for k in kids)

    def value(self, pos: Hashable) -> int:
        if self.use_forms:
            from cgtalg.misere.outcome import misere_grundy

            return misere_grundy(position_forms(self.ruleset, pos, self.forms, self.progress))
        hit = self.memo.get(pos)
        if hit is not None:
            return hit
        bar = ProgressCounter(self.progress, f"solving {self.ruleset.name}")
        try:
            return walk(pos, self._expand, self._finish, self.memo, lambda c: loopy_error(self.ruleset, c), bar,
                        self.max_positions, f"solving {self.ruleset.name} {format_position(self.ruleset, pos)}",
                        self.deadline)
        finally:
            bar.close()


class Winners:
    """Who wins each state (position, player to move), memoised (four-outcome play)."""

    def __init__(self, ruleset: Any, misere: bool, progress: bool | None = False,
                 max_positions: int | None = None) -> None:
        self.ruleset = ruleset
        self.misere = misere
        self.partizan = is_partizan(ruleset)
        self.deadline: Deadline | None = None
        self.memo: dict[tuple[Hashable, str], str] = {}
        self.progress = progress
        self.max_positions = max_positions

    def moves(self, pos: Hashable, player: Player) -> list:
        return player_moves(self.ruleset, pos, player if self.partizan else None)

    def _expand(self, state: tuple) -> list:
        pos, player = state
        nxt = other_player(player)
        return [(q, nxt) for q in self.moves(pos, player)]

    def _finish(self, state: tuple, kids: list) -> str:
        pos, player = state
        if not kids:
            return end_winner(self.ruleset, pos, player, self.misere)
        memo = self.memo
        for k in kids:
            if memo[k] == player:
                return player
        return other_player(player)

    def winner(self, pos: Hashable, player: Player) -> str:
        state = (pos, player)
        hit = self.memo.get(state)
        if hit is not None:
            return hit
        bar = ProgressCounter(self.progress, f"solving {self.ruleset.name}")
        try:
            return walk(
                state, self._expand, self._finish, self.memo,
                lambda c: loopy_error(self.ruleset, [s[0] for s in c]), bar,
                self.max_positions, f"solving {self.ruleset.name} {format_position(self.ruleset, pos)}",
                self.deadline,
            )
        finally:
            bar.close()


def uses_four_outcomes(ruleset: Any) -> bool:
    return is_partizan(ruleset) or has_end_rule(ruleset)



def position_forms(ruleset: Any, position: Position, memo: dict, progress: bool | None = False) -> Game:
    """The form of ``position`` (memoised in ``memo``, position -> form): sums of the forms of
    its components where it decomposes, else the form of its moves' forms. No checks: see
    :func:`cgtalg.rulesets.solver.game_of`."""
    def expand(pos: Hashable) -> list:
        comps = components_of(ruleset, pos)
        if comps is not None:
            return Sum(comps)
        return player_moves(ruleset, pos)

    def finish(pos: Hashable, kids: list) -> Game:
        if isinstance(kids, Sum):
            total = zero
            for c in kids:
                total = total + memo[c]
            return total
        return game(memo[k] for k in kids)

    bar = ProgressCounter(progress, f"forms of {ruleset.name}")
    try:
        return walk(position, expand, finish, memo, lambda c: loopy_error(ruleset, c), bar)
    finally:
        bar.close()
