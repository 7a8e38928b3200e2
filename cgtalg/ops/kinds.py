"""The kinds of game the operations take, how each is recognised, and how a question is refused.

Every operation of :mod:`cgtalg.ops` (``cg.outcome``, ``cg.grundy``, ``cg.compare``, ...) first
asks :func:`kind_of` what it was given, then answers by the algorithm for that kind, or refuses
with :class:`cgtalg.errors.GameKindError` naming why and what does answer. Nothing is computed
as if the game were of another kind: a partizan form is never walked as an impartial one.

The kinds (:data:`KINDS`):

``"impartial"``
    an impartial form (:class:`cgtalg.Game`), or a partizan form whose Left and Right options are
    the same at every position (``{0|0}``, ``{*|*}``): that *is* an impartial game, written in
    partizan notation, and is answered as one;
``"partizan"``
    any other partizan form (:class:`cgtalg.PartizanGame`): ``{0|}``, ``{1|-1}``, ``↑``;
``"position"``
    a position of a ruleset (:class:`Position`, made by :func:`position`): heaps of an octal game,
    a Domineering board, a position of Guy's parity game;
``"misere class"``
    a misère canonical form (:class:`cgtalg.MisereCanonicalForm`): the class of an impartial game
    under misère equivalence in the impartial universe. The normal-play Grundy value, the genus,
    the misère outcome are invariants of the class (Conway, ONAG ch. 12), so those questions have
    answers; a comparison in a larger universe (dicot, dead-ending, all games) does not;
``"nimber"``
    a :class:`cgtalg.Nimber`: finite ones are the nim-heaps ``*n``; transfinite ones (``*ω``) are
    answered where the question makes sense for an infinite nim-heap (outcome, Grundy value,
    winning moves, equality) and refused where it needs a short game;
``"loopy"``
    a :class:`cgtalg.LoopyGame` (a graph with cycles: ``on``, ``a:{0|a}``, ``{pass|*}``), in
    normal play only: outcomes with draws, comparison, canonical stoppers
    (:mod:`cgtalg.normal.loopy`); loopy text whose graph has no cycle reads as the short form;
game text
    a ``str`` is read with :func:`cgtalg.parse` and then answered as the kind it reads as.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Hashable

from cgtalg.core.game import Game, nim
from cgtalg.core.loopy import LoopyGame, Sides
from cgtalg.core.partizan import PartizanGame, as_partizan, to_impartial
from cgtalg.errors import GameKindError, UniverseError, shorten

__all__ = [
    "KINDS", "UNIVERSES", "Position", "position", "kind_of", "read", "as_impartial",
    "as_partizan_game", "refuse", "check_universe",
    "finite_nimber_value", "refuse_end_rule", "is_impartial_kind", "heap_sum_positions",
    "as_loopy_game", "refuse_loopy", "LOOPY_DOORS",
]

KINDS = ("impartial", "partizan", "position", "misere class", "nimber", "loopy")

#: the operations that answer for loopy games (normal play)
LOOPY_DOORS = ("cgtalg.outcome", "cgtalg.compare", "cgtalg.canonical_form (stoppers)",
               "cgtalg.loopy_sides")

#: the universes of misère comparison, and the names they are accepted under
UNIVERSES = ("impartial", "dicot", "dead-ending", "all")
_UNIVERSE_NAMES = {
    "impartial": "impartial", "dicot": "dicot", "dicots": "dicot",
    "dead-ending": "dead-ending", "dead_ending": "dead-ending", "deadending": "dead-ending",
    "all": "all", "full": "all", "general": "all",
}


@dataclass(frozen=True)
class Position:
    """A position of a ruleset: what the operations take for "heaps 5 and 9 of Kayles" or "this
    Domineering board". Make one with :func:`position`.

    Attributes
    ----------
    ruleset
        The ruleset (:mod:`cgtalg.rulesets.protocol`): impartial or partizan, heap game or not.
    value : hashable
        The position in the ruleset's own terms (a tuple of heap sizes for heap games).
    """

    ruleset: Any
    value: Hashable

    @property
    def is_heap_position(self) -> bool:
        """Whether the ruleset is a heap game (octal, subtraction, Grundy's game, ...), whose
        algorithms take a list of heap sizes."""
        return hasattr(self.ruleset, "heap_options") and hasattr(self.ruleset, "nim_value")

    @property
    def is_partizan(self) -> bool:
        from cgtalg.rulesets.protocol import is_partizan

        return is_partizan(self.ruleset)

    @property
    def has_end_rule(self) -> bool:
        """Whether the ruleset decides the winner at the end by a rule of its own (then its
        positions are not games in normal or misère play, and have no Grundy value)."""
        from cgtalg.rulesets.protocol import has_end_rule

        return has_end_rule(self.ruleset)

    def __str__(self) -> str:
        from cgtalg.rulesets.protocol import format_position

        v = self.value
        if isinstance(v, tuple) and any(isinstance(h, int) and h.bit_length() > 10_000 for h in v):
            # heaps past Python's int-to-text limit: their digits, long ones cut
            from cgtalg.core.notation import int_to_digits

            def digits(h: Any) -> str:
                t = int_to_digits(h) if isinstance(h, int) and h >= 0 else str(h)
                return t if len(t) <= 40 else f"{t[:20]}...({len(t):,} digits)"

            return f"{self.ruleset.name} ({', '.join(map(digits, v))})"
        return f"{self.ruleset.name} {format_position(self.ruleset, v)}"

    def __repr__(self) -> str:
        from cgtalg.core.display import short

        return f"Position({short(self, 180)})"

    def _repr_html_(self) -> str:
        """Notebook view: the ruleset and the position's text."""
        from cgtalg.core.display import Html, card, esc, short

        kind = "partizan" if self.is_partizan else "impartial"
        text = short(str(self)[len(self.ruleset.name) + 1:], 400)
        return card(f"position of {self.ruleset.name}", [
            ("position", Html(f"<code style='white-space:pre'>{esc(text)}</code>")),
            ("ruleset", f"{self.ruleset.name} ({kind}{', heap game' if self.is_heap_position else ''})")],
            kind="position")


def position(ruleset: Any, *args: Any) -> Position:
    """A position of ``ruleset`` for the operations.

    ``ruleset`` is a ruleset object or its name / code (``"0.77"``, ``"kayles"``,
    ``"domineering"``, ``"parity"``: :func:`cgtalg.get_ruleset`). The position is given as the
    ruleset writes it: heap sizes for heap games (``position("0.77", 5, 9)``), or one argument,
    either the position itself or its text (``position("domineering", "3x4")``).

    Examples
    --------
    >>> import cgtalg as cg
    >>> cg.outcome(cg.position("0.77", 5, 10)), cg.grundy(cg.position("0.77", 5, 10))
    ('N', 6)
    """
    from cgtalg.rulesets.protocol import check_position, parse_position
    from cgtalg.rulesets.registry import get_ruleset

    rs = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    if not (hasattr(rs, "name") and (hasattr(rs, "moves") or hasattr(rs, "left_moves"))):
        raise GameKindError(f"position({_show(ruleset)}, ...): the first argument is a ruleset "
                            "or its name (cgtalg.get_ruleset), not a "
                            f"{type(ruleset).__name__}")
    heap_game = hasattr(rs, "heap_options") and hasattr(rs, "nim_value")
    if heap_game and all(isinstance(a, int) and not isinstance(a, bool) for a in args):
        from cgtalg.rulesets.heaps.games import as_heaps

        return Position(rs, tuple(int(h) for h in as_heaps(list(args), rs.name)))
    if len(args) != 1:
        raise GameKindError(
            f"position({getattr(rs, 'name', rs)!r}, ...) takes heap sizes (for a heap game) or "
            "one position or its text")
    value = args[0]
    if not heap_game and isinstance(value, int) and not isinstance(value, bool):
        # e.g. position("parity", 25): the ruleset's text of the position
        from cgtalg.core.notation import int_to_digits

        if value.bit_length() > 400_000:
            raise GameKindError(f"position({rs.name!r}, n): n has more than 120,000 digits")
        value = int_to_digits(value) if value >= 0 else "-" + int_to_digits(-value)
    if isinstance(value, str):
        value = parse_position(rs, value)
    elif heap_game and isinstance(value, (list, tuple)):
        from cgtalg.rulesets.heaps.games import as_heaps

        value = tuple(int(h) for h in as_heaps(value, rs.name))
    check_position(rs, value)
    own_check = getattr(rs, "check_position", None)  # a ruleset's own check (sizes, types)
    if own_check is not None:
        own_check(value)
    return Position(rs, value)


def read(x: Any, normal_play: bool = False) -> Any:
    """Game text read into a form (:func:`cgtalg.parse`); an integer or dyadic fraction made the
    partizan number it names (CGSuite's reading: ``3`` is the number 3, ``0`` the game 0);
    loopy text (``pass``, labels, ``on``, ``over``, ...: :func:`cgtalg.parse_loopy`) a
    :class:`cgtalg.LoopyGame`, or the short form when its graph has no cycle; anything else
    unchanged.

    Text is read as the game it describes (``1 + -1`` the literal sum ``{-1 | 1}``), which every
    misère question and every question about the form (its kind, its moves) needs;
    ``normal_play=True`` only for a question whose answer depends on the normal-play value
    alone (then ``1 + -1`` may be read as ``0``: number translation)."""
    if isinstance(x, str):
        from cgtalg.core.loopy_notation import looks_loopy

        if looks_loopy(x):
            from cgtalg.core.loopy_notation import parse_loopy

            g = parse_loopy(x)
            if isinstance(g, Sides):  # s & t: a game with these sides
                from cgtalg.normal.loopy_sidling import sides_game

                g = sides_game(g)
            return g.to_partizan() if g.is_short else g
        from cgtalg.core.notation import parse

        return parse(x, normal_play=normal_play)
    if isinstance(x, (int, Fraction)) and not isinstance(x, bool):
        return as_partizan(x)
    if isinstance(x, Position) and x.is_partizan and hasattr(x.ruleset, "game_value"):
        # a loopy ruleset (Fox and Geese): its positions are loopy games, valued as canonical
        # stoppers by the ruleset (the doors' loopy questions take them as such)
        return x.ruleset.game_value(x.value)
    return x


_TERM = r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*\(\s*([0-9]+(?:\s*,\s*[0-9]+)*)\s*\)\s*"
_HEAP_SUM = None


def heap_sum_positions(text: Any) -> list[Position] | None:
    """The positions of the game text ``text`` when it is a sum of heap-game positions
    (``"kayles(30)"``, ``"grundy(40) + kayles(3, 4)"``: every name a heap game of
    :func:`cgtalg.get_ruleset` without an end rule of its own), one :class:`Position` per
    ruleset named; else None. The doors answer normal-play Grundy values and outcomes of such
    text from the rulesets' Grundy values (computed by the compiled engine, or from a
    certified period) and the XOR rule, without building the forms (whose DAG grows
    exponentially with the heaps)."""
    import re

    global _HEAP_SUM
    if not isinstance(text, str) or "(" not in text or len(text) > 100_000:
        return None
    if _HEAP_SUM is None:
        _HEAP_SUM = (re.compile(f"{_TERM}(?:\\+{_TERM})*"), re.compile(_TERM))
    whole, term = _HEAP_SUM
    if not whole.fullmatch(text):
        return None
    from cgtalg.errors import CgtalgError
    from cgtalg.rulesets.heaps.games import as_heaps
    from cgtalg.rulesets.registry import get_ruleset

    heaps: dict[str, tuple[Any, list[int]]] = {}
    for m in term.finditer(text):
        try:
            rs = get_ruleset(m.group(1))
        except (CgtalgError, LookupError):
            return None  # let the parser name the error
        if not (hasattr(rs, "heap_options") and hasattr(rs, "nim_value")):
            return None
        from cgtalg.rulesets.protocol import has_end_rule

        if has_end_rule(rs):
            return None
        from cgtalg.core.notation import MAX_HEAP_DIGITS, digits_to_int

        args = [a.strip() for a in m.group(2).split(",")]
        if any(len(a) > MAX_HEAP_DIGITS for a in args):
            return None  # the parser refuses it, naming the limit
        sizes = [digits_to_int(a) for a in args]
        heaps.setdefault(rs.name, (rs, []))[1].extend(sizes)
    return [Position(rs, tuple(int(h) for h in as_heaps(hs, rs.name))) for rs, hs in heaps.values()]


def kind_of(x: Any, operation: str | None = None) -> str:
    """The kind of ``x`` (one of :data:`KINDS`; game text is read first).

    Examples
    --------
    >>> import cgtalg as cg
    >>> [cg.kind_of(t) for t in ("{*2}", "{0|}", "{*|*}")]
    ['impartial', 'partizan', 'impartial']
    """
    x = read(x)
    if isinstance(x, Game):
        return "impartial"
    if isinstance(x, PartizanGame):
        return "impartial" if x.is_impartial else "partizan"
    if isinstance(x, Position):
        return "position"
    if _is_misere_class(x):
        return "misere class"
    if _is_nimber(x):
        return "nimber"
    if isinstance(x, LoopyGame):
        return "loopy"
    where = f"{operation}: " if operation else ""
    raise GameKindError(
        f"{where}{_show(x)} ({type(x).__name__}) is not a game: give a form (cgtalg.parse), game "
        "text, a number, a ruleset position (cgtalg.position), a misère canonical form or a nimber")


def is_impartial_kind(x: Any) -> bool:
    """Whether ``x`` is of an impartial kind: an impartial form (or one in partizan notation),
    a misère canonical form, a nimber, or a position of an impartial ruleset."""
    kind = kind_of(x)
    return kind in ("impartial", "misere class", "nimber") or (kind == "position" and not x.is_partizan)


def _is_misere_class(x: Any) -> bool:
    from cgtalg.misere.canonical import MisereCanonicalForm

    return isinstance(x, MisereCanonicalForm)


def _is_nimber(x: Any) -> bool:
    from cgtalg.nimbers.nimber import Nimber

    return isinstance(x, Nimber)


def _show(x: Any, limit: int = 60) -> str:
    try:
        s = str(x)
    except Exception:  # pragma: no cover - a broken __str__ of a foreign object
        s = object.__repr__(x)
    return s if len(s) <= limit else s[: limit - 3] + "..."


def refuse(operation: str, x: Any, why: str, answered_by: tuple[str, ...] = ()) -> GameKindError:
    """The error for ``operation`` asked of ``x``: why it has no answer, and what does answer."""
    tail = ""
    if answered_by:
        tail = "; " + (answered_by[0] if len(answered_by) == 1 else
                       ", ".join(answered_by[:-1]) + " or " + answered_by[-1]) + " answers instead"
    return GameKindError(f"{operation}({_show(x)}): {why}{tail}", answered_by)


def finite_nimber_value(x: Any) -> int | None:
    """The integer n of a finite nimber ``*n``, or None for a transfinite one."""
    return int(x) if x.is_finite else None


def as_impartial(x: Any, operation: str) -> Game:
    """``x`` as an impartial form, for ``operation``; refused for partizan forms and positions
    of partizan rulesets (naming what answers), and for transfinite nimbers."""
    x = read(x)
    if isinstance(x, Game):
        return x
    if isinstance(x, LoopyGame):
        x = _short_or_refuse(x, operation)
    if isinstance(x, PartizanGame):
        if x.is_impartial:
            return to_impartial(x)
        raise refuse(operation, x, "a partizan game has no impartial answer (its Left and Right "
                     "options differ)", PARTIZAN_DOORS.get(operation, ()))
    if isinstance(x, Position):
        refuse_end_rule(x, operation)
        if x.is_partizan:
            raise refuse(operation, x, f"{x.ruleset.name} is a partizan ruleset",
                         PARTIZAN_DOORS.get(operation, ()))
        from cgtalg.rulesets.solver import game_of

        return game_of(x.ruleset, x.value)
    if _is_misere_class(x):
        return x.game
    if _is_nimber(x):
        n = finite_nimber_value(x)
        if n is None:
            raise refuse(operation, x, "a transfinite nimber is not a short game",
                         ("cgtalg.outcome", "cgtalg.grundy", "cgtalg.winning_moves",
                          "cgtalg.compare (normal play)"))
        return nim(n)
    kind_of(x, operation)  # raises the not-a-game error
    raise AssertionError("unreachable")  # pragma: no cover


def refuse_end_rule(x: Position, operation: str) -> None:
    """Refuse a position of a ruleset that decides the winner by its own end rule: such positions
    are not games in normal or misère play, so only who wins (and how) has an answer."""
    if x.has_end_rule:
        raise refuse(operation, x, f"{x.ruleset.name} decides the winner by its own end rule, so "
                     "its positions are not games in normal or misère play",
                     ("cgtalg.outcome", "cgtalg.winning_moves"))


def as_partizan_game(x: Any, operation: str, max_seconds: float | None = None) -> PartizanGame:
    """``x`` as a partizan form (impartial forms are partizan games with equal sides), for the
    normal-play partizan questions; positions of rulesets become their forms
    (:func:`cgtalg.rulesets.partizan.games.partizan_form`, within ``max_seconds`` and the
    memory ceiling). Game text is read for its normal-play value (``read(x, normal_play=True)``):
    only normal-play questions come here."""
    x = read(x, normal_play=True)
    if isinstance(x, LoopyGame):
        x = _short_or_refuse(x, operation)
    if isinstance(x, PartizanGame):
        return x
    if isinstance(x, Position) and x.is_partizan:
        refuse_end_rule(x, operation)
        from cgtalg.rulesets.partizan.games import partizan_form

        return partizan_form(x.ruleset, x.value, max_seconds, progress=False)
    return as_partizan(as_impartial(x, operation))


def _short_or_refuse(x: LoopyGame, operation: str) -> PartizanGame:
    """A loopy game whose graph has no cycle as its short form; else the named refusal."""
    if x.is_short:
        return x.to_partizan()
    raise refuse_loopy(operation, x)


def refuse_loopy(operation: str, x: Any, why: str | None = None) -> GameKindError:
    """The refusal of a question that has no answer for a loopy game (``why`` given: a
    question in misère play, which the normal-play doors answer instead)."""
    if why is not None:
        return refuse(operation, x, why, (f"cgtalg.{operation}(g) (normal play)",))
    return refuse(operation, x, "a loopy game (its graph has a cycle) is not a short game",
                  LOOPY_DOORS)


def as_loopy_game(x: Any, operation: str, max_seconds: float | None = None) -> LoopyGame:
    """``x`` as a loopy game (short games are loopy games whose graph has no cycle), for the
    loopy questions of normal play; positions of partizan rulesets become their forms first."""
    x = read(x, normal_play=True)
    if isinstance(x, Sides):
        from cgtalg.normal.loopy_sidling import sides_game

        x = sides_game(x)
    if isinstance(x, LoopyGame):
        return x
    from cgtalg.core.loopy import as_loopy

    if isinstance(x, PartizanGame):
        return as_loopy(x)
    if isinstance(x, Position) and x.is_partizan:
        return as_loopy(as_partizan_game(x, operation, max_seconds))
    if _is_nimber(x) and finite_nimber_value(x) is None:
        raise refuse(operation, x, "a transfinite nimber is not a finite game graph")
    return as_loopy(as_partizan(as_impartial(x, operation)))


def check_universe(universe: Any, games: tuple[Any, ...], operation: str) -> str:
    """The misère universe to use: the one asked (``"impartial"``, ``"dicot"``,
    ``"dead-ending"``, ``"all"``), or by default the impartial universe when every game is
    impartial and the universe of all games otherwise."""
    if universe is None:
        return "impartial" if all(is_impartial_kind(g) for g in games) else "all"
    name = _UNIVERSE_NAMES.get(str(universe).lower()) if isinstance(universe, str) else None
    if name is None:
        raise UniverseError(f"{operation}: unknown universe {shorten(universe)}; expected one of "
                            + ", ".join(map(repr, UNIVERSES)))
    return name


#: for each impartial-only operation, the operations that answer for partizan games
PARTIZAN_DOORS: dict[str, tuple[str, ...]] = {
    "grundy": ("cgtalg.canonical_form", "cgtalg.outcome", "cgtalg.mean", "cgtalg.temperature"),
    "misere_grundy": ("cgtalg.outcome(g, misere=True)", "cgtalg.canonical_form(g, misere=True, universe='dicot')"),
    "genus": ("cgtalg.outcome(g, misere=True)", "cgtalg.canonical_form(g, misere=True, universe='dicot')"),
}
