"""The generic position solver: DAGs, forms and outcomes of ruleset positions.

Every function here works on any ruleset that follows :mod:`cgtalg.rulesets.protocol`.

- :func:`build_dag`: the game graph of a position as a :class:`networkx.DiGraph`
  (identical positions identified; edges labelled with the mover).
- :func:`game_of`: the :class:`cgtalg.Game` form of a position of an impartial ruleset.
- :func:`solve`: outcome class and all winning moves, as a :class:`Solution`.
- :func:`solved_dag`: :func:`build_dag` with every node's outcome and every winning move marked.

Theory used
    *Impartial rulesets, default end rule.* Normal play: the Sprague-Grundy theorem
    (Sprague 1935, Grundy 1939; Winning Ways ch. 2; Siegel, *Combinatorial Game Theory*
    IV.1): the Grundy value of a position is the mex of its options' values, the value of
    a disjunctive sum is the XOR of the components' values, and the position is a
    P-position (second player wins) iff its value is 0. Misère play (Conway, ONAG ch. 12;
    Winning Ways ch. 13): a position without moves is an N-position, otherwise it is a
    P-position iff every option is an N-position; the misère Grundy value (1 for a terminal
    position, else the mex) is 0 exactly on P-positions. Components do not add in misère
    play, so positions that decompose are evaluated through their forms (sums of forms,
    :func:`game_of`).

    *Partizan rulesets, and rulesets with their own end rule* (Winning Ways ch. 1; Guy,
    "A Parity Subtraction Game", seed 003). A *state* is a position with the player
    to move. A player with no move in a state wins or loses as the end rule says; otherwise
    the player to move wins iff some move leads to a state the opponent (now to move) loses.
    The outcome class of a position combines the two starts: L (Left wins whoever starts),
    R (Right wins whoever starts), N (the first player wins), P (the second player wins).
    Components are not used here (adding partizan games needs partizan canonical forms).

All traversals are iterative depth-first searches with memoisation (no recursion limit;
heaps of thousands of beans are fine). Play that can return to an earlier state raises
:class:`~cgtalg.errors.LoopyGameError` naming the cycle: cgtalg solves short games only.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, Iterable

import networkx as nx

from cgtalg.core.game import Game, game, zero
from cgtalg.errors import ComputationLimitError, LoopyGameError, RulesetError
from cgtalg.rulesets.protocol import (
    Player,
    Position,
    check_position,
    check_ruleset,
    components_of,
    end_winner,
    format_move,
    format_position,
    format_state,
    has_components,
    has_end_rule,
    is_partizan,
    other_player,
    parse_position,
    player_moves,
)

__all__ = [
    "build_dag",
    "game_of",
    "solve",
    "Solver",
    "solved_dag",
    "Solution",
    "outcome_class",
    "OUTCOME_TEXT",
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

_NAMES = {"L": "Left", "R": "Right"}


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
            f"winners must be 'L' or 'R', got {winner_if_left_starts!r} and {winner_if_right_starts!r}"
        ) from None


# -- the one iterative traversal ----------------------------------------------------------


class _Bar:
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


def _loopy(ruleset: Any, cycle: list) -> LoopyGameError:
    shown = " -> ".join(format_position(ruleset, p) for p in cycle[:12])
    if len(cycle) > 12:
        shown += " -> ..."
    shown += " -> " + format_position(ruleset, cycle[0])
    return LoopyGameError(
        cycle,
        f"ruleset {ruleset.name!r}: the game graph is loopy (not short): it has the cycle {shown}",
    )


#: the most positions one solve holds in memory unless told otherwise (about 1-2 GB)
DEFAULT_MAX_POSITIONS = 10_000_000


def _walk(
    root: Hashable,
    expand: Callable[[Hashable], list],
    finish: Callable[[Hashable, list], Any],
    memo: dict,
    on_cycle: Callable[[list], Exception],
    bar: _Bar | None = None,
    limit: int | None = None,
    what: str = "",
) -> Any:
    """Iterative post-order DFS from ``root``: ``memo[node] = finish(node, expand(node))``.

    Children are finished before their parents; a child met again while on the current
    path closes a cycle, and ``on_cycle(path_from_child_to_node)`` is raised. With ``limit``,
    a walk that would hold more than ``limit`` positions (memoised + on the current path)
    stops with :class:`ComputationLimitError` before expanding the next one.
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
    return memo[root]


def _mex(values: Iterable[int]) -> int:
    seen = set(values)
    m = 0
    while m in seen:
        m += 1
    return m


class _Sum(list):
    """Children list of a position that decomposes into these components."""


class _ImpartialValues:
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
        self.use_forms = misere and has_components(ruleset)
        self.forms: dict[Hashable, Game] | None = {} if self.use_forms else None

    def _expand(self, pos: Hashable) -> list:
        if not self.misere:
            comps = components_of(self.ruleset, pos)
            if comps is not None:
                return _Sum(comps)
        return player_moves(self.ruleset, pos)

    def _finish(self, pos: Hashable, kids: list) -> int:
        memo = self.memo
        if isinstance(kids, _Sum):
            v = 0
            for c in kids:
                v ^= memo[c]
            return v
        if not kids:
            return 1 if self.misere else 0
        return _mex(memo[k] for k in kids)

    def value(self, pos: Hashable) -> int:
        if self.use_forms:
            from cgtalg.misere.outcome import misere_grundy

            return misere_grundy(_forms(self.ruleset, pos, self.forms, self.progress))
        hit = self.memo.get(pos)
        if hit is not None:
            return hit
        bar = _Bar(self.progress, f"solving {self.ruleset.name}")
        try:
            return _walk(pos, self._expand, self._finish, self.memo, lambda c: _loopy(self.ruleset, c), bar,
                         self.max_positions, f"solving {self.ruleset.name} {format_position(self.ruleset, pos)}")
        finally:
            bar.close()


class _Winners:
    """Who wins each state (position, player to move), memoised (four-outcome play)."""

    def __init__(self, ruleset: Any, misere: bool, progress: bool | None = False,
                 max_positions: int | None = None) -> None:
        self.ruleset = ruleset
        self.misere = misere
        self.partizan = is_partizan(ruleset)
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
        bar = _Bar(self.progress, f"solving {self.ruleset.name}")
        try:
            return _walk(
                state, self._expand, self._finish, self.memo,
                lambda c: _loopy(self.ruleset, [s[0] for s in c]), bar,
                self.max_positions, f"solving {self.ruleset.name} {format_position(self.ruleset, pos)}",
            )
        finally:
            bar.close()


def _uses_four_outcomes(ruleset: Any) -> bool:
    return is_partizan(ruleset) or has_end_rule(ruleset)


# -- DAG ----------------------------------------------------------------------------------


def build_dag(
    ruleset: Any,
    position: Position,
    *,
    labels: bool = True,
    progress: bool | None = None,
) -> nx.DiGraph:
    """The game graph of ``position``: one node per distinct reachable position.

    Parameters
    ----------
    ruleset
        A ruleset following :mod:`cgtalg.rulesets.protocol`.
    position
        The root position (hashable).
    labels : bool
        Add each node's text (``format_position``) as the ``label`` attribute.
    progress : bool or None
        Show a tqdm counter (None: only on a terminal and after 2 s).

    Returns
    -------
    networkx.DiGraph
        Nodes are positions with attributes ``birthday`` (the length of the longest play
        from the node, i.e. the height of its game tree) and ``label``; an edge ``p -> q``
        for each move, with attribute ``mover``: ``None`` for impartial rulesets, else
        ``"L"``, ``"R"`` or ``"LR"`` (both players have that move). Graph attributes:
        ``root``, ``ruleset`` (name), ``partizan``, ``end_rule`` (the ruleset has its own
        end rule).

    Raises
    ------
    RulesetError
        For an unhashable position or a move function that breaks the protocol.
    LoopyGameError
        If the graph has a cycle; the error's ``cycle`` lists its positions.

    Examples
    --------
    >>> from cgtalg.rulesets.protocol import ruleset_from_function
    >>> r = ruleset_from_function("subtraction(1,2)", lambda n: [n - t for t in (1, 2) if t <= n])
    >>> g = build_dag(r, 4)
    >>> sorted(g.nodes), g.nodes[4]["birthday"], g.number_of_edges()
    ([0, 1, 2, 3, 4], 4, 7)
    """
    check_ruleset(ruleset)
    check_position(ruleset, position)
    partizan = is_partizan(ruleset)
    # edges grouped by mover label (one attribute dict per edge is made by networkx only)
    edges: dict[str | None, list[tuple[Hashable, Hashable]]] = {None: [], "L": [], "R": [], "LR": []}

    def expand(pos: Hashable) -> list:
        if not partizan:
            kids = player_moves(ruleset, pos)
            edges[None].extend([(pos, q) for q in kids])
            return kids
        left = player_moves(ruleset, pos, "L")
        right = player_moves(ruleset, pos, "R")
        rset = set(right)
        lset = set(left)
        for q in left:
            edges["LR" if q in rset else "L"].append((pos, q))
        only_right = [q for q in right if q not in lset]
        edges["R"].extend([(pos, q) for q in only_right])
        return left + only_right

    height: dict[Hashable, int] = {}

    def finish(pos: Hashable, kids: list) -> int:
        return 1 + max((height[k] for k in kids), default=-1)

    bar = _Bar(progress, f"building the DAG of {ruleset.name}")
    try:
        _walk(position, expand, finish, height, lambda c: _loopy(ruleset, c), bar)
    finally:
        bar.close()
    graph = nx.DiGraph(root=position, ruleset=ruleset.name, partizan=partizan, end_rule=has_end_rule(ruleset))
    if labels:
        graph.add_nodes_from((p, {"birthday": h, "label": format_position(ruleset, p)}) for p, h in height.items())
    else:
        graph.add_nodes_from((p, {"birthday": h}) for p, h in height.items())
    for mover, group in edges.items():
        if group:
            graph.add_edges_from(group, mover=mover)
    return graph


def _forms(ruleset: Any, position: Position, memo: dict, progress: bool | None = False) -> Game:
    def expand(pos: Hashable) -> list:
        comps = components_of(ruleset, pos)
        if comps is not None:
            return _Sum(comps)
        return player_moves(ruleset, pos)

    def finish(pos: Hashable, kids: list) -> Game:
        if isinstance(kids, _Sum):
            total = zero
            for c in kids:
                total = total + memo[c]
            return total
        return game(memo[k] for k in kids)

    bar = _Bar(progress, f"forms of {ruleset.name}")
    try:
        return _walk(position, expand, finish, memo, lambda c: _loopy(ruleset, c), bar)
    finally:
        bar.close()


def game_of(
    ruleset: Any,
    position: Position,
    *,
    memo: dict | None = None,
    progress: bool | None = None,
) -> Game:
    """The impartial form (a hash-consed :class:`cgtalg.Game`) of a ruleset position.

    A position that decomposes (``components``) becomes the disjunctive sum of its
    components' forms (built with ``+``, memoised on form ids); otherwise the form whose
    options are the forms of its moves. Then every form-level tool applies: Grundy values,
    misère canonical forms, equivalence proofs.

    Parameters
    ----------
    ruleset
        An impartial ruleset without its own end rule.
    position
        The position.
    memo : dict, optional
        A position -> form cache to share between calls.
    progress : bool or None
        Show a tqdm counter (None: only on a terminal and after 2 s).

    Returns
    -------
    cgtalg.Game

    Raises
    ------
    RulesetError
        For a partizan ruleset or one with its own end rule (its positions are not
        impartial forms), and for protocol violations.
    LoopyGameError
        If the position's graph has a cycle.

    Examples
    --------
    >>> from cgtalg.rulesets.protocol import ruleset_from_function
    >>> nim1 = ruleset_from_function("nim-heap", lambda n: range(n))
    >>> str(game_of(nim1, 3))
    '*3'
    """
    check_ruleset(ruleset)
    if is_partizan(ruleset):
        raise RulesetError(f"ruleset {ruleset.name!r} is partizan: its positions are not impartial forms")
    if has_end_rule(ruleset):
        raise RulesetError(
            f"ruleset {ruleset.name!r} has its own end rule: its positions are not impartial "
            "forms under normal or misère play"
        )
    check_position(ruleset, position)
    return _forms(ruleset, position, {} if memo is None else memo, progress)


# -- solutions ------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Solution:
    """The solution of a position: its outcome class and every winning move.

    Attributes
    ----------
    ruleset : str
        The ruleset's name.
    position
        The position solved.
    position_text : str
        Its text (``format_position``).
    misere : bool
        Misère play (only meaningful under the default end rule).
    kind : str
        ``"impartial"`` (outcome P or N, moves shared by both players) or ``"four-outcome"``
        (partizan rulesets and rulesets with their own end rule: outcome L, R, N or P).
    outcome : str
        ``'P'``, ``'N'``, ``'L'`` or ``'R'`` (see :data:`OUTCOME_TEXT`).
    winning_moves : list or dict
        Impartial: the winning moves (options that are P-positions), empty for a
        P-position. Four-outcome: ``{"L": [...], "R": [...]}``, the winning moves of each
        player when moving first (empty when that player loses moving first).
    replies : list or dict
        The losing side's moves with the winning replies to each: impartial, for a
        P-position, a list of ``(move, [winning replies])``; four-outcome,
        ``{"L": [...], "R": [...]}`` listing for each player who *loses* moving first their
        moves with the opponent's winning replies.
    value : int or None
        Impartial: the Grundy value (normal play) or misère Grundy value (misère play).
    winners : dict or None
        Four-outcome: ``{"L": winner when Left starts, "R": winner when Right starts}``.
    strategy : tuple of str
        The readable strategy (``str(solution)``).
    """

    ruleset: str
    position: Any
    position_text: str
    misere: bool
    kind: str
    outcome: str
    winning_moves: Any
    replies: Any
    value: int | None = None
    winners: dict | None = None
    strategy: tuple[str, ...] = ()
    texts: dict = field(default_factory=dict, repr=False)

    @property
    def outcome_text(self) -> str:
        """What the outcome class means, e.g. ``"the second player wins"``."""
        return OUTCOME_TEXT[self.outcome]

    def __str__(self) -> str:
        return "\n".join(self.strategy)

    def to_json(self) -> dict:
        """A JSON-serialisable dict (positions as the ruleset's text)."""
        t = self.texts
        data = {
            "ruleset": self.ruleset,
            "position": self.position_text,
            "misere": self.misere,
            "kind": self.kind,
            "outcome": self.outcome,
            "outcome_text": self.outcome_text,
            "value": self.value,
            "winners": self.winners,
            "winning_moves": t["winning_moves"],
            "replies": t["replies"],
            "strategy": list(self.strategy),
        }
        return data

    @classmethod
    def from_json(cls, data: dict, ruleset: Any) -> "Solution":
        """Rebuild a solution from :meth:`to_json` output (positions read with ``parse_position``)."""

        def parse(text: str) -> Any:
            return parse_position(ruleset, text)

        if data["kind"] == "impartial":
            wm = [parse(x) for x in data["winning_moves"]]
            rp = [(parse(r["move"]), [parse(x) for x in r["replies"]]) for r in data["replies"]]
        else:
            wm = {p: [parse(x) for x in data["winning_moves"][p]] for p in ("L", "R")}
            rp = {
                p: [(parse(r["move"]), [parse(x) for x in r["replies"]]) for r in data["replies"][p]]
                for p in ("L", "R")
            }
        return cls(
            ruleset=data["ruleset"],
            position=parse(data["position"]),
            position_text=data["position"],
            misere=data["misere"],
            kind=data["kind"],
            outcome=data["outcome"],
            winning_moves=wm,
            replies=rp,
            value=data.get("value"),
            winners=data.get("winners"),
            strategy=tuple(data.get("strategy", ())),
            texts={"winning_moves": data["winning_moves"], "replies": data["replies"]},
        )

    def _repr_html_(self) -> str:
        """Notebook view: the readable report in a ``<pre>`` block."""
        from cgtalg.core.display import text_html

        return text_html(self)


def _play_name(misere: bool) -> str:
    return "misère play" if misere else "normal play"


def _solve_impartial(ev: "_ImpartialValues", position: Position) -> Solution:
    ruleset, misere = ev.ruleset, ev.misere
    v = ev.value(position)
    fmt = lambda p: format_position(ruleset, p)  # noqa: E731
    moves = player_moves(ruleset, position)
    winning = [q for q in moves if ev.value(q) == 0]
    replies: list[tuple[Any, list]] = []
    if v == 0:
        for q in moves:
            replies.append((q, [r for r in player_moves(ruleset, q) if ev.value(r) == 0]))
    outcome = "P" if v == 0 else "N"
    value_name = "misère Grundy value" if misere else "Grundy value"
    lines = [f"{outcome}: {OUTCOME_TEXT[outcome]} ({_play_name(misere)}; {value_name} {v})."]
    lines.append(f"Position: {fmt(position)}")
    if outcome == "N":
        lines.append("Winning moves (to P-positions):")
        lines += [f"  {format_move(ruleset, position, q, None)}" for q in winning]
    elif not moves:
        lines.append("The player to move has no move" + (" and wins." if misere else " and loses."))
    else:
        lines.append("Every first move loses; the second player's winning replies:")
        for q, rs in replies:
            if rs:
                shown = "reply " + " or ".join(format_move(ruleset, q, r, None) for r in rs)
            else:  # only in misère play: the second player cannot move, and so wins
                shown = "the second player cannot move, and wins"
            lines.append(f"  {format_move(ruleset, position, q, None)}: {shown}")
    texts = {
        "winning_moves": [fmt(q) for q in winning],
        "replies": [{"move": fmt(q), "replies": [fmt(r) for r in rs]} for q, rs in replies],
    }
    return Solution(
        ruleset=ruleset.name, position=position, position_text=fmt(position), misere=misere,
        kind="impartial", outcome=outcome, winning_moves=winning, replies=replies, value=v,
        winners=None, strategy=tuple(lines), texts=texts,
    )


def _solve_four(ev: "_Winners", position: Position) -> Solution:
    ruleset, misere = ev.ruleset, ev.misere
    winners = {p: ev.winner(position, p) for p in ("L", "R")}
    outcome = outcome_class(winners["L"], winners["R"])
    fmt = lambda p: format_position(ruleset, p)  # noqa: E731
    winning: dict[str, list] = {}
    replies: dict[str, list] = {}
    for p in ("L", "R"):
        o = other_player(p)
        moves = ev.moves(position, p)
        winning[p] = [q for q in moves if ev.winner(q, o) == p] if winners[p] == p else []
        replies[p] = []
        if winners[p] != p:
            for q in moves:
                replies[p].append((q, [r for r in ev.moves(q, o) if ev.winner(r, p) == o]))
    mirror = getattr(ruleset, "mirror", None)
    symmetric = callable(mirror) and mirror(position) == position
    rule = "" if has_end_rule(ruleset) else f" ({_play_name(misere)})"
    lines: list[str] = [f"{outcome}: {OUTCOME_TEXT[outcome]}{rule}."]
    if symmetric:
        # the rules and the position are symmetric in Left and Right: show one start
        lines.append(f"Position: {format_state(ruleset, position, 'L')}")
        starters = [("L", "the first player", "the second player")]
    else:
        shown = fmt(position)
        if callable(getattr(ruleset, "format_state", None)):
            shown += (f" = {format_state(ruleset, position, 'L')} with Left to move, "
                      f"{format_state(ruleset, position, 'R')} with Right to move")
        lines.append(f"Position: {shown}")
        starters = [(p, _NAMES[p], _NAMES[other_player(p)]) for p in ("L", "R")]
    legend = getattr(ruleset, "state_legend", None)
    if isinstance(legend, str) and legend:
        lines.append(f"  ({legend})")
    for p, me, you in starters:
        o = other_player(p)
        moves = ev.moves(position, p)
        head = "Moving first" if symmetric else f"If {me} starts"
        if not moves:
            result = "wins" if winners[p] == p else "loses"
            lines.append(f"{head}, {me} has no move and {result} by the end rule.")
        elif winners[p] == p:
            lines.append(f"{head}, {me} wins by moving:")
            lines += [f"  {format_move(ruleset, position, q, p)}" for q in winning[p]]
        else:
            lines.append(f"{head}, {me} loses; {you}'s winning reply to each move:")
            for q, rs in replies[p]:
                if rs:
                    shown = " or ".join(format_move(ruleset, q, r, o) for r in rs)
                else:
                    shown = "cannot move, and wins by the end rule"
                lines.append(f"  {me} {format_move(ruleset, position, q, p)}  =>  {you} {shown}")
    texts = {
        "winning_moves": {p: [fmt(q) for q in winning[p]] for p in ("L", "R")},
        "replies": {
            p: [{"move": fmt(q), "replies": [fmt(r) for r in rs]} for q, rs in replies[p]] for p in ("L", "R")
        },
    }
    return Solution(
        ruleset=ruleset.name, position=position, position_text=fmt(position), misere=misere,
        kind="four-outcome", outcome=outcome, winning_moves=winning, replies=replies, value=None,
        winners=winners, strategy=tuple(lines), texts=texts,
    )


class Solver:
    """A reusable solver for one ruleset and play rule, memoising every position it meets.

    :func:`solve` starts afresh each call; a :class:`Solver` keeps its tables, so solving
    many positions of one ruleset (a table over heap sizes, say) costs one traversal.

    Parameters
    ----------
    ruleset
        A ruleset following :mod:`cgtalg.rulesets.protocol`.
    misere : bool
        Misère play (under the default end rule).
    progress : bool or None
        Show a tqdm counter of positions (None: only on a terminal and after 2 s).
    max_positions : int, optional
        The most positions a walk may hold (default :data:`DEFAULT_MAX_POSITIONS`); past it
        the walk stops with :class:`~cgtalg.errors.ComputationLimitError` instead of running
        out of memory.

    Raises
    ------
    RulesetError
        If ``ruleset`` does not follow the protocol.

    Examples
    --------
    >>> from cgtalg.rulesets.protocol import ruleset_from_function
    >>> sv = Solver(ruleset_from_function("S(1,2)", lambda n: [n - t for t in (1, 2) if t <= n]))
    >>> [sv.outcome(n) for n in range(7)]
    ['P', 'N', 'N', 'P', 'N', 'N', 'P']
    """

    def __init__(self, ruleset: Any, misere: bool = False, *, progress: bool | None = None,
                 max_positions: int | None = None) -> None:
        check_ruleset(ruleset)
        self.ruleset = ruleset
        self.misere = bool(misere)
        self.four_outcomes = _uses_four_outcomes(ruleset)
        if max_positions is None:
            max_positions = DEFAULT_MAX_POSITIONS
        if self.four_outcomes:
            self._ev: Any = _Winners(ruleset, self.misere, progress, max_positions)
        else:
            self._ev = _ImpartialValues(ruleset, self.misere, progress, max_positions)

    def __repr__(self) -> str:
        return f"Solver({self.ruleset.name!r}, misere={self.misere}, memo={len(self._ev.memo)})"

    def solve(self, position: Position) -> Solution:
        """The :class:`Solution` of ``position`` (see :func:`solve`)."""
        check_position(self.ruleset, position)
        if self.four_outcomes:
            return _solve_four(self._ev, position)
        return _solve_impartial(self._ev, position)

    def outcome(self, position: Position) -> str:
        """The outcome class only (``'P'``/``'N'``, or ``'L'``/``'R'``/``'N'``/``'P'``)."""
        check_position(self.ruleset, position)
        if self.four_outcomes:
            return outcome_class(self._ev.winner(position, "L"), self._ev.winner(position, "R"))
        return "P" if self._ev.value(position) == 0 else "N"

    def winner(self, position: Position, to_move: Player) -> Player:
        """Who wins ``position`` with ``to_move`` moving first (``'L'`` or ``'R'``)."""
        if to_move not in ("L", "R"):
            raise RulesetError(f"the player to move must be 'L' or 'R', got {to_move!r}")
        check_position(self.ruleset, position)
        if self.four_outcomes:
            return self._ev.winner(position, to_move)
        next_wins = self._ev.value(position) != 0
        return to_move if next_wins else other_player(to_move)

    def value(self, position: Position) -> int:
        """Impartial rulesets: the Grundy value (normal play) or misère Grundy value.

        Raises
        ------
        RulesetError
            For partizan rulesets and rulesets with their own end rule.
        """
        if self.four_outcomes:
            raise RulesetError(
                f"ruleset {self.ruleset.name!r} is partizan or has its own end rule: it has no Grundy values"
            )
        check_position(self.ruleset, position)
        return self._ev.value(position)


def solve(
    ruleset: Any,
    position: Position,
    misere: bool = False,
    *,
    store: Any = None,
    progress: bool | None = None,
    solver: Solver | None = None,
    max_positions: int | None = None,
) -> Solution:
    """Solve ``position``: its outcome class and every winning move, with the strategy.

    Impartial rulesets under the default end rule get outcome ``'P'`` or ``'N'`` (normal
    or misère play), the Grundy value (or misère Grundy value) and all winning moves;
    partizan rulesets and rulesets with their own end rule get one of the four outcome
    classes L, R, N, P and each player's winning moves (see the module docstring for the
    theorems used).

    Parameters
    ----------
    ruleset
        A ruleset following :mod:`cgtalg.rulesets.protocol`.
    position
        The position (hashable).
    misere : bool
        Misère play: a player unable to move wins (unless the ruleset's end rule says
        otherwise).
    store : cgtalg.store.Store, optional
        Memoise the solution in a store (``store.memo_position(ruleset.name, text, prop,
        ...)`` with ``prop`` ``"solution"`` or ``"solution:misere"``); needs the ruleset's
        ``format_position`` / ``parse_position`` to round-trip.
    progress : bool or None
        Show a tqdm counter of positions (None: only on a terminal and after 2 s).
    solver : Solver, optional
        A :class:`Solver` of the same ruleset and play rule whose tables are reused.
    max_positions : int, optional
        The most positions the solve may visit (default :data:`DEFAULT_MAX_POSITIONS`).

    Returns
    -------
    Solution

    Raises
    ------
    RulesetError
        For protocol violations (unhashable positions, bad end rule values), a ``solver``
        of another ruleset or play rule, and when a store is given but positions do not
        round-trip through their text.
    LoopyGameError
        If play can return to an earlier state.

    Examples
    --------
    >>> from cgtalg.rulesets.protocol import ruleset_from_function
    >>> r = ruleset_from_function("subtraction(1,2,3)", lambda n: [n - t for t in (1, 2, 3) if t <= n])
    >>> s = solve(r, 9)
    >>> s.outcome, s.value, s.winning_moves
    ('N', 1, [8])
    >>> print(solve(r, 8))
    P: the second player wins (normal play; Grundy value 0).
    Position: 8
    Every first move loses; the second player's winning replies:
      -> 7: reply -> 4
      -> 6: reply -> 4
      -> 5: reply -> 4
    """
    check_ruleset(ruleset)
    check_position(ruleset, position)
    misere = bool(misere)
    limit = DEFAULT_MAX_POSITIONS if max_positions is None else max_positions
    count = getattr(ruleset, "position_count", None)
    if callable(count):  # a ruleset that can bound its game graph: refuse before walking
        try:
            bound = count(position, misere=misere)
        except TypeError:
            bound = count(position)
        if bound is not None and bound > limit:
            hint = ""
            if hasattr(ruleset, "grundy_value") and not misere:
                hint = "; a heap game's outcome and winning moves at any size come from its period: `cgtalg outcome`"
            raise ComputationLimitError(
                f"solving {ruleset.name} {format_position(ruleset, position)}: its game graph has up to "
                f"{bound:,} positions, more than max_positions = {limit:,} (the CLI's --max-positions "
                f"raises it); refused before walking{hint}"
            )
    if solver is None:
        solver = Solver(ruleset, misere, progress=progress, max_positions=max_positions)
    elif solver.ruleset is not ruleset or solver.misere != misere:
        raise RulesetError(
            f"the solver given is for ruleset {solver.ruleset.name!r} with misere={solver.misere}, "
            f"not {ruleset.name!r} with misere={misere}"
        )

    if store is None:
        return solver.solve(position)
    text = format_position(ruleset, position)
    back = parse_position(ruleset, text)
    if back != position:
        raise RulesetError(
            f"ruleset {ruleset.name!r}: the position {position!r} does not round-trip through its text "
            f"{text!r} (parse_position gives {back!r}), so it cannot be cached in the store"
        )
    computed: list[Solution] = []

    def compute_json() -> dict:
        sol = solver.solve(position)
        computed.append(sol)
        return json.loads(json.dumps(sol.to_json()))

    data = store.memo_position(ruleset.name, text, "solution:misere" if misere else "solution", compute_json)
    if computed:
        return computed[0]
    return Solution.from_json(data, ruleset)


def solved_dag(
    ruleset: Any,
    position: Position,
    misere: bool = False,
    *,
    labels: bool = True,
    progress: bool | None = None,
) -> nx.DiGraph:
    """:func:`build_dag` with the solution of every node and the winning moves marked.

    Node attributes added: ``outcome`` (``'P'``/``'N'``, or ``'L'``/``'R'``/``'N'``/``'P'``
    for four-outcome rulesets) and, for impartial rulesets, ``value`` (the Grundy or misère
    Grundy value). Edge attributes added: ``winning_for`` (``""``, ``"L"``, ``"R"`` or
    ``"LR"``: the movers for whom the move wins; impartial: ``"LR"`` when it leads to a
    P-position) and ``winning`` (bool). The graph attribute ``misere`` records the play rule.

    Parameters, Raises: as for :func:`build_dag` and :func:`solve`.

    Examples
    --------
    >>> from cgtalg.rulesets.protocol import ruleset_from_function
    >>> r = ruleset_from_function("subtraction(1,2)", lambda n: [n - t for t in (1, 2) if t <= n])
    >>> g = solved_dag(r, 4)
    >>> g.nodes[3]["outcome"], [v for u, v, w in g.out_edges(4, data="winning") if w]
    ('P', [3])
    """
    graph = build_dag(ruleset, position, labels=labels, progress=progress)
    graph.graph["misere"] = bool(misere)
    if _uses_four_outcomes(ruleset):
        ev = _Winners(ruleset, bool(misere), progress)
        for p, data in graph.nodes(data=True):
            data["outcome"] = outcome_class(ev.winner(p, "L"), ev.winner(p, "R"))
        for u, v, data in graph.edges(data=True):
            movers = data["mover"] or "LR"
            wins = "".join(m for m in movers if ev.winner(v, other_player(m)) == m)
            data["winning_for"] = wins
            data["winning"] = bool(wins)
    else:
        ev = _ImpartialValues(ruleset, bool(misere), progress)
        for p, data in graph.nodes(data=True):
            data["value"] = ev.value(p)
            data["outcome"] = "P" if data["value"] == 0 else "N"
        for u, v, data in graph.edges(data=True):
            win = graph.nodes[v]["value"] == 0
            data["winning_for"] = "LR" if win else ""
            data["winning"] = win
    return graph
