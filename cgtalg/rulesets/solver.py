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
from typing import Any, Hashable

import networkx as nx

from cgtalg.budget import Deadline, check_max_seconds
from cgtalg.core.game import Game
from cgtalg.errors import ComputationLimitError, RulesetError
from cgtalg.rulesets.protocol import (
    Player,
    Position,
    check_position,
    check_ruleset,
    format_position,
    has_end_rule,
    is_partizan,
    other_player,
    parse_position,
    player_moves,
    short_count,
    short_repr,
)
from cgtalg.rulesets.solution import Solution, solve_four, solve_impartial
from cgtalg.rulesets.solver_walk import (
    DEFAULT_MAX_POSITIONS,
    ImpartialValues,
    ProgressCounter,
    Winners,
    loopy_error,
    outcome_class,
    position_forms,
    uses_four_outcomes,
    walk,
)

__all__ = [
    "build_dag",
    "game_of",
    "solve",
    "Solver",
    "solved_dag",
]


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

    bar = ProgressCounter(progress, f"building the DAG of {ruleset.name}")
    try:
        walk(position, expand, finish, height, lambda c: loopy_error(ruleset, c), bar)
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
        raise RulesetError(f"ruleset {short_repr(ruleset.name)} is partizan: its positions are not impartial forms")
    if has_end_rule(ruleset):
        raise RulesetError(
            f"ruleset {short_repr(ruleset.name)} has its own end rule: its positions are not impartial "
            "forms under normal or misère play"
        )
    check_position(ruleset, position)
    return position_forms(ruleset, position, {} if memo is None else memo, progress)



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
    max_seconds : float, optional
        Time budget of each call (``solve`` takes its own too): past it,
        :class:`~cgtalg.errors.ComputationLimitError`; the positions done stay memoised.

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
                 max_positions: int | None = None, max_seconds: float | None = None) -> None:
        check_ruleset(ruleset)
        self.max_seconds = check_max_seconds(max_seconds)
        self.ruleset = ruleset
        self.misere = bool(misere)
        self.four_outcomes = uses_four_outcomes(ruleset)
        if max_positions is None:
            max_positions = DEFAULT_MAX_POSITIONS
        if self.four_outcomes:
            self._ev: Any = Winners(ruleset, self.misere, progress, max_positions)
        else:
            self._ev = ImpartialValues(ruleset, self.misere, progress, max_positions)

    def __repr__(self) -> str:
        return f"Solver({self.ruleset.name!r}, misere={self.misere}, memo={len(self._ev.memo)})"

    def _budget(self, max_seconds: float | None = None) -> None:
        """Start the time budget of one call (``max_seconds``, else the solver's own)."""
        secs = self.max_seconds if max_seconds is None else check_max_seconds(max_seconds)
        self._ev.deadline = Deadline(secs)  # without a time limit it still watches the memory ceiling

    def solve(self, position: Position, *, max_seconds: float | None = None) -> Solution:
        """The :class:`Solution` of ``position`` (see :func:`solve`)."""
        check_position(self.ruleset, position)
        self._budget(max_seconds)
        if self.four_outcomes:
            return solve_four(self._ev, position)
        return solve_impartial(self._ev, position)

    def outcome(self, position: Position) -> str:
        """The outcome class only (``'P'``/``'N'``, or ``'L'``/``'R'``/``'N'``/``'P'``)."""
        check_position(self.ruleset, position)
        self._budget()
        if self.four_outcomes:
            return outcome_class(self._ev.winner(position, "L"), self._ev.winner(position, "R"))
        return "P" if self._ev.value(position) == 0 else "N"

    def winner(self, position: Position, to_move: Player) -> Player:
        """Who wins ``position`` with ``to_move`` moving first (``'L'`` or ``'R'``)."""
        if to_move not in ("L", "R"):
            raise RulesetError(f"the player to move must be 'L' or 'R', got {short_repr(to_move)}")
        check_position(self.ruleset, position)
        self._budget()
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
                f"ruleset {short_repr(self.ruleset.name)} is partizan or has its own end rule: it has no Grundy values"
            )
        check_position(self.ruleset, position)
        self._budget()
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
    max_seconds: float | None = None,
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
        Memoise the solution in a store (``store.memo_position(key, text, prop, ...)`` with
        ``prop`` ``"solution"`` or ``"solution:misere"``, and ``key`` the ruleset's
        ``store_name`` when it has one -- a ruleset from a function: its name and a fingerprint
        of its functions -- else its name); needs the ruleset's ``format_position`` /
        ``parse_position`` to round-trip.
    progress : bool or None
        Show a tqdm counter of positions (None: only on a terminal and after 2 s).
    solver : Solver, optional
        A :class:`Solver` of the same ruleset and play rule whose tables are reused.
    max_positions : int, optional
        The most positions the solve may visit (default :data:`DEFAULT_MAX_POSITIONS`).
    max_seconds : float, optional
        Time budget: past it, :class:`~cgtalg.errors.ComputationLimitError` (whose message
        says how to give more time).

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
    max_seconds = check_max_seconds(max_seconds)
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
                f"solving {ruleset.name} {short_repr(format_position(ruleset, position), 60)[1:-1]}: its game "
                f"graph has up to {short_count(bound)} positions, more than max_positions = {limit:,} (the CLI's --max-positions "
                f"raises it); refused before walking{hint}"
            )
    if solver is None:
        solver = Solver(ruleset, misere, progress=progress, max_positions=max_positions)
    elif solver.ruleset is not ruleset or solver.misere != misere:
        raise RulesetError(
            f"the solver given is for ruleset {short_repr(solver.ruleset.name)} with misere={solver.misere}, "
            f"not {short_repr(ruleset.name)} with misere={misere}"
        )

    if store is None:
        return solver.solve(position, max_seconds=max_seconds)
    text = format_position(ruleset, position)
    back = parse_position(ruleset, text)
    if back != position:
        raise RulesetError(
            f"ruleset {short_repr(ruleset.name)}: the position {short_repr(position)} does not round-trip through its text "
            f"{short_repr(text)} (parse_position gives {short_repr(back)}), so it cannot be cached in the store"
        )
    computed: list[Solution] = []

    def compute_json() -> dict:
        sol = solver.solve(position, max_seconds=max_seconds)
        computed.append(sol)
        return json.loads(json.dumps(sol.to_json()))

    data = store.memo_position(getattr(ruleset, "store_name", None) or ruleset.name, text, "solution:misere" if misere else "solution", compute_json)
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
    if uses_four_outcomes(ruleset):
        ev = Winners(ruleset, bool(misere), progress)
        for p, data in graph.nodes(data=True):
            data["outcome"] = outcome_class(ev.winner(p, "L"), ev.winner(p, "R"))
        for u, v, data in graph.edges(data=True):
            movers = data["mover"] or "LR"
            wins = "".join(m for m in movers if ev.winner(v, other_player(m)) == m)
            data["winning_for"] = wins
            data["winning"] = bool(wins)
    else:
        ev = ImpartialValues(ruleset, bool(misere), progress)
        for p, data in graph.nodes(data=True):
            data["value"] = ev.value(p)
            data["outcome"] = "P" if data["value"] == 0 else "N"
        for u, v, data in graph.edges(data=True):
            win = graph.nodes[v]["value"] == 0
            data["winning_for"] = "LR" if win else ""
            data["winning"] = win
    return graph
