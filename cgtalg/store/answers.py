"""Stored answers that must agree, checked whenever they are read.

A form, or a position of a ruleset, keeps several answers about itself in separate rows: its
outcome, Grundy value, winning moves, genus and solution, in normal and misère play. They are
not independent. In either play a position with a winning move is an N-position and a
P-position has none; in normal play an N-position always has one; a Grundy value (normal play)
and a misère Grundy value are 0 exactly at the P-positions of their play; a genus
``g^γ0γ1…`` holds both (``g`` the Grundy value, ``γ0`` the misère Grundy value); a solution
record holds an outcome, a value and winning moves of its own. Rows that contradict each other
(a P-position with a winning move, an N-position without one, Grundy value 5 beside the outcome
P) were damaged, tampered with, or written by a faulty program: they are never served.

:func:`check_answers` is that check, the only one: every reader calls it, through
:func:`check_rows` where it has raw rows -- ``get`` and ``get_position``, written once for the
full store and the light store (:meth:`cgtalg.store.rows.StoredRows._served_answer`), and the
full store's ``get_many``, ``properties``, ``position_properties``, ``get_positions_many`` and
``query``. A
contradiction raises :class:`~cgtalg.errors.StoreCorruptError` naming the store, the table, the
row (the form's id, or the position's text, ruleset key and id) and the two answers.

Only current rows take part (a stale row, written by an older version of its algorithm, may
differ from a current one for the very reason its version was bumped). What the rules of the
game say is used when the reader knows it (``moves``: see :class:`MovesOf`): whether the
position has any move (misère play: a position with no move is an N-position without a
winning move, so "N and no winning move" contradicts only when the position has a move) and
whether each stored winning move is a move of the position.

This module also reads the outcome that each kind of stored answer tells
(:data:`OUTCOME_SOURCES`, :func:`outcome_of`), for queries (:mod:`cgtalg.store.query`). It
imports neither SQLAlchemy nor the rulesets, so that the light store can use it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable, Protocol

from cgtalg.errors import ArgumentError, GenusNotationError, StoreCorruptError
from cgtalg.store.codec import shorten
from cgtalg.store.provenance import current_version

__all__ = ["OUTCOME_SOURCES", "CHECKED", "MovesOf", "FormMoves", "companions", "check_rows", "check_answers",
           "position_label", "outcome_of", "genus_symbol"]

#: The stored properties an outcome is read from, by play: ``{play: {property: how}}``.
OUTCOME_SOURCES = {
    "normal": {"normal_outcome": "letter", "outcome": "letter", "grundy": "grundy", "genus": "genus_g",
               "solution": "solution"},
    "misere": {"misere_outcome": "letter", "misere_grundy": "grundy", "genus": "genus_gamma0",
               "solution:misere": "solution"},
}
#: The stored winning moves of each play (a list of moves, empty at a P-position).
MOVES = {"normal": "normal_winning_moves", "misere": "misere_winning_moves"}
#: The properties checked together: reading one of them reads the others of the same row owner.
CHECKED: tuple[str, ...] = tuple(sorted({*OUTCOME_SOURCES["normal"], *OUTCOME_SOURCES["misere"], *MOVES.values()}))
_LETTERS = ("P", "N", "L", "R")
#: four-outcome class from the winners when Left, and when Right, moves first
_CLASS = {("L", "L"): "L", ("R", "R"): "R", ("L", "R"): "N", ("R", "L"): "P"}
_PLAYER = {"L": "Left", "R": "Right"}


class MovesOf(Protocol):
    """What the rules say of one position's moves (given by a reader that knows the rules):
    ``terminal`` is True when the position has no move at all, False when it has one, None
    when unknown; ``legal(record)`` is whether a stored winning-move record is a move of the
    position (None: not checked)."""

    terminal: bool | None

    def legal(self, record: Any) -> bool | None: ...


class FormMoves:
    """:class:`MovesOf` for a form: terminal when it has no option; moves are not checked
    (a stored move is the text of an option, cut past a length)."""

    def __init__(self, g: Any) -> None:
        heap = getattr(g, "_heap", None)
        self.terminal = heap == 0 if heap is not None else not getattr(g, "_option_ids", (1,))

    def legal(self, record: Any) -> bool | None:
        return None


def position_label(pid: int, ruleset: str, position: str) -> str:
    """How an error names a stored position: ``position '12 9 5' of 'misere:0.77' (id 3)``."""
    return f"position {shorten(position, 80)!r} of {ruleset!r} (id {pid})"


def companions(prop: str) -> tuple[str, ...]:
    """The properties read with ``prop`` so that they are checked together (``prop`` among
    them), or ``()`` when ``prop`` is not checked."""
    return CHECKED if prop in CHECKED else ()


def check_rows(rows: dict[str, tuple[Any, int]], load: Callable[[Any, str], Any], *, where: str, table: str,
               label: Callable[[], str], moves: MovesOf | None = None) -> None:
    """:func:`check_answers` on raw rows ``{name: (stored text, algorithm version)}`` of one
    owner: the current rows of the checked names are decoded with ``load(text, name)`` (which
    raises on an unreadable one) and checked; stale rows and other names are left out."""
    values = {name: load(text, name) for name, (text, algorithm) in rows.items()
              if name in CHECKED and algorithm == current_version(name)}
    check_answers(values, where=where, table=table, label=label, moves=moves)


def check_answers(values: dict[str, Any], *, where: str, table: str, label: Callable[[], str],
                  moves: MovesOf | None = None) -> None:
    """Raise :class:`StoreCorruptError` when the answers ``values`` (current stored values of
    one form or position, by property name) contradict each other or the rules (``moves``).

    ``where`` names the store, ``table`` the property table and ``label()`` the row's owner
    (``form 12``, ``position '12 9 5' of 'misere:0.77' (id 3)``).

    Examples
    --------
    >>> check_answers({"misere_outcome": "N", "misere_winning_moves": [[4, 1, [3]]]}, where="s.sqlite",
    ...               table="position_properties", label=lambda: "position '4' of 'misere:x' (id 1)")
    >>> check_answers({"grundy": 5, "normal_outcome": "P"}, where="s.sqlite", table="form_properties",
    ...               label=lambda: "form 12")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cgtalg.errors.StoreCorruptError: the store s.sqlite: table form_properties, form 12: property 'normal_outcome' is 'P', but property 'grundy' is 5 (...)...
    """
    if not values:
        return
    check = _Check(values, where, table, label, moves)
    for play in ("normal", "misere"):
        check.play(play)
    for name in ("solution", "solution:misere"):
        if name in values:
            check.solution(name, values[name])


class _Check:
    def __init__(self, values: dict[str, Any], where: str, table: str, label: Callable[[], str],
                 moves: MovesOf | None) -> None:
        self.values, self.where, self.table, self.label, self.moves = values, where, table, label, moves

    def fail(self, first: str, second: str | None = None) -> StoreCorruptError:
        what = (f"{first}; such a stored answer is" if second is None else
                f"{first}, but {second}; stored answers that contradict each other are")
        return StoreCorruptError(
            f"the store {self.where}: table {self.table}, {self.label()}: {what} never served (the store was "
            "damaged or tampered with, or a faulty program wrote it). `cgtalg store verify --full` recomputes the "
            "stored answers of built-in games and of forms and names the wrong ones")

    def agree(self, claims: list[tuple[Any, str]]) -> None:
        """All claims ``(answer, description)`` give the same answer."""
        for answer, said in claims[1:]:
            if answer != claims[0][0]:
                raise self.fail(claims[0][1], said)

    def play(self, play: str) -> None:
        """Every answer about one play tells the same outcome and the same Grundy value."""
        misere = play == "misere"
        outcomes: list[tuple[str, str]] = []
        numbers: list[tuple[int, str]] = []
        for name, how in OUTCOME_SOURCES[play].items():
            if name not in self.values:
                continue
            v = self.values[name]
            if how == "letter":
                if v not in _LETTERS:
                    raise self.fail(f"property {name!r} is {shorten(repr(v), 80)}, which is not an outcome (P, N, L or R)")
                outcomes.append((v, f"property {name!r} is {v!r}"))
            elif how == "grundy":
                if not _count(v):
                    raise self.fail(f"property {name!r} is {shorten(repr(v), 80)}, which is not a Grundy value")
                outcomes.append((_letter(v), f"property {name!r} is {v} (a {'misère ' if misere else ''}Grundy "
                                             "value is 0 exactly at P-positions)"))
                numbers.append((v, f"property {name!r} is {v}"))
            elif how.startswith("genus"):
                x = _as_genus(v)
                if x is None:
                    continue
                k, sym = (x.misere_grundy, "γ0") if misere else (x.g, "g")
                outcomes.append((_letter(k), f"property 'genus' is {x} ({sym} = {k})"))
                numbers.append((k, f"property 'genus' is {x} ({sym} = {k})"))
            elif isinstance(v, dict):  # a solution record (checked in itself by solution())
                if v.get("outcome") in _LETTERS:
                    outcomes.append((v["outcome"], f"property {name!r} has the outcome {v['outcome']!r}"))
                if v.get("kind") == "impartial" and _count(v.get("value")):
                    numbers.append((v["value"], f"property {name!r} has the value {v['value']}"))
        moves = self.values.get(MOVES[play])
        if moves is not None:
            told = self.winning_moves(f"property {MOVES[play]!r}", moves, misere, self.moves)
            if all(o in ("P", "N") for o, _said in outcomes):  # a partizan outcome (L, R) is not told by one list
                outcomes += told
        self.agree(outcomes)
        self.agree(numbers)

    def winning_moves(self, who: str, moves: Any, misere: bool, rules: MovesOf | None) -> list[tuple[str, str]]:
        """The outcome a stored list of winning moves tells (none when it cannot tell), after
        checking each move against the ``rules`` when the reader gave them; ``who`` names the list."""
        if not isinstance(moves, list):
            raise self.fail(f"{who} is {shorten(repr(moves), 80)}, which is not a list of moves")
        if rules is not None:
            for m in moves:
                if rules.legal(m) is False:
                    raise self.fail(f"{who} lists {shorten(repr(m), 80)}, which is not a move of the position")
        if moves:
            return [("N", f"{who} lists {len(moves)} winning move(s) (so N)")]
        if not misere:  # normal play: no move, or no winning move, is a P-position
            return [("P", f"{who} lists no winning move (so P)")]
        if rules is not None and rules.terminal is False:  # misère play: a position without any move is N
            return [("P", f"{who} lists no winning move and the position has moves (so P)")]
        return []

    def solution(self, name: str, rec: Any) -> None:
        """A solution record agrees with itself: its outcome, value and winning moves
        (impartial), or its outcome, winners and winning moves (four outcomes)."""
        if not isinstance(rec, dict):
            raise self.fail(f"property {name!r} is {shorten(repr(rec), 80)}, which is not a solution record")
        outcome, kind, wm = rec.get("outcome"), rec.get("kind"), rec.get("winning_moves")
        if outcome not in _LETTERS:
            raise self.fail(f"property {name!r} has the outcome {shorten(repr(outcome), 40)}, which is not an outcome")
        said = f"property {name!r} has the outcome {outcome!r}"
        if kind == "impartial":
            claims = [(outcome, said)]
            value = rec.get("value")
            if _count(value):
                claims.append((_letter(value), f"its value is {value} (0 exactly at P-positions)"))
            if isinstance(wm, list):
                # the moves of a solution are position texts: the rules given are not about them
                claims += self.winning_moves("its list of winning moves", wm, bool(rec.get("misere")), None)
            self.agree(claims)
        elif kind == "four-outcome":
            winners = rec.get("winners")
            if isinstance(winners, dict):
                got = _CLASS.get((winners.get("L"), winners.get("R")))
                if got is not None and got != outcome:
                    raise self.fail(said, f"its winners (Left moving first: {winners['L']}, Right moving first: "
                                          f"{winners['R']}) make it {got!r}")
                for p in ("L", "R") if isinstance(wm, dict) else ():
                    if winners.get(p) not in (None, p) and wm.get(p):
                        raise self.fail(f"property {name!r} says {_PLAYER[p]} loses moving first",
                                        f"it lists {len(wm[p])} winning move(s) for {_PLAYER[p]}")


def _count(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _letter(v: int) -> str:
    return "P" if v == 0 else "N"


def outcome_of(props: dict, misere: bool = False) -> str | None:
    """The outcome letter that the stored properties ``props`` of one entry tell (the Python
    twin of the SQL filter of :mod:`cgtalg.store.query`, for its ``normal`` / ``misere``
    columns), or ``None``.

    Examples
    --------
    >>> outcome_of({"genus": {"g": 1, "gammas": [0, 3, 1]}}), outcome_of({"genus": "1^031"}, misere=True)
    ('N', 'P')
    """
    for name, how in OUTCOME_SOURCES["misere" if misere else "normal"].items():
        v = props.get(name)
        if v is None:
            continue
        if how == "letter" and isinstance(v, str):
            return v
        if how == "grundy" and isinstance(v, int) and not isinstance(v, bool):
            return "P" if v == 0 else "N"
        if how == "solution" and isinstance(v, dict) and isinstance(v.get("outcome"), str):
            return v["outcome"]
        if how.startswith("genus"):
            x = _as_genus(v)
            if x is not None:
                return "P" if (x.misere_grundy if misere else x.g) == 0 else "N"
    return None


def _as_genus(v: Any) -> Any:
    """The :class:`~cgtalg.misere.genus.Genus` of a stored genus (record or text), else None."""
    if isinstance(v, dict):
        g, gammas = v.get("g"), v.get("gammas")
        if not isinstance(gammas, list):
            return None
        try:
            return _genus(g, tuple(gammas), None)
        except TypeError:  # unhashable entries: not a genus
            return None
    return _genus(None, None, v) if isinstance(v, str) else None


@lru_cache(maxsize=4096)
def _genus(g: Any, gammas: Any, text: str | None) -> Any:
    from cgtalg.misere.genus import Genus

    try:
        return Genus.parse(text) if text is not None else Genus(g, gammas)
    except (ArgumentError, GenusNotationError, TypeError, ValueError):
        return None


def genus_symbol(v: Any) -> Any:
    """A stored genus (a record ``{"g", "gammas", ...}`` or text) as its classical symbol;
    anything else unchanged."""
    x = _as_genus(v) if isinstance(v, dict) else None
    return str(x) if x is not None else v
