"""The solution of a position: :class:`Solution` (outcome class, winning moves, the second
player's replies and a readable strategy), built from the evaluators of
:mod:`cgtalg.rulesets.solver_walk` by :func:`solve_impartial` and :func:`solve_four`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cgtalg.rulesets.protocol import (
    Position,
    format_move,
    format_position,
    format_state,
    has_end_rule,
    other_player,
    parse_position,
    player_moves,
)
from cgtalg.rulesets.solver_walk import OUTCOME_TEXT, PLAYER_NAMES, ImpartialValues, Winners, outcome_class

__all__ = ["Solution", "solve_impartial", "solve_four", "play_name"]


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

    def __repr__(self) -> str:
        from cgtalg.core.display import short

        n = (len(self.winning_moves) if isinstance(self.winning_moves, list)
             else sum(len(v) for v in self.winning_moves.values()))
        return (f"Solution({self.ruleset!r}, {short(self.position_text, 60)!r}, {play_name(self.misere)}, "
                f"outcome={self.outcome!r}, {n} winning moves)")

    def _repr_html_(self) -> str:
        """Notebook view: a card (position, play, outcome and what it means, value, the winning
        moves) with the readable strategy folded."""
        from cgtalg.core.display import Html, card, details, esc, short

        rows = [("ruleset", self.ruleset), ("position", short(self.position_text, 200)),
                ("play", play_name(self.misere)), ("outcome", f"{self.outcome}: {self.outcome_text}")]
        if self.value is not None:
            rows.append(("misère Grundy value" if self.misere else "Grundy value", self.value))
        moves = self.texts.get("winning_moves", self.winning_moves)
        if isinstance(moves, dict):
            for side, ms in moves.items():
                rows.append((f"winning moves of {side}", short(", ".join(map(str, ms)) or "none", 300)))
        else:
            rows.append(("winning moves", short(", ".join(map(str, moves)) or "none (a P-position)", 300)))
        parts = [details("strategy", f"<pre style='white-space:pre-wrap;margin:0'>{esc(short(self, 20_000))}</pre>")]
        return card("solution", rows, parts, kind="solution")


def play_name(misere: bool) -> str:
    """``"misère play"`` or ``"normal play"``."""
    return "misère play" if misere else "normal play"


def solve_impartial(ev: ImpartialValues, position: Position) -> Solution:
    """The :class:`Solution` of ``position`` of an impartial ruleset (values from ``ev``)."""
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
    lines = [f"{outcome}: {OUTCOME_TEXT[outcome]} ({play_name(misere)}; {value_name} {v})."]
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


def solve_four(ev: Winners, position: Position) -> Solution:
    """The :class:`Solution` of ``position`` under four-outcome play (winners from ``ev``)."""
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
    rule = "" if has_end_rule(ruleset) else f" ({play_name(misere)})"
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
        starters = [(p, PLAYER_NAMES[p], PLAYER_NAMES[other_player(p)]) for p in ("L", "R")]
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

