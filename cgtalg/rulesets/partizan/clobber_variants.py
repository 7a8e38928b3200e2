"""Generalised Clobber (CGSuite's ``game.grid.GenClobber``) and its named instances: Anti-Clobber,
Hot Clobber, Kings, Knights, Rooks and Queens.

Clobber (Albert, Grossman, Nowakowski and Wolfe, "An introduction to Clobber", *Integers* 5,
2005; :class:`cgtalg.rulesets.partizan.games.Clobber`) moves a stone onto an orthogonally
adjacent enemy stone, which is removed. CGSuite (Siegel, ``game.grid.GenClobber`` and
``game.grid.constants``, documentation of CGSuite 2) varies four things, and so does
:class:`GenClobber`:

``directions``
    the steps a stone may take: ``orthogonal`` (Clobber), ``diagonal``, ``compass`` (the eight
    king steps) or ``knight`` (the eight knight leaps);
``clobbered``
    for each player, what the square a stone lands on may hold: ``x`` (a Left stone), ``o`` (a
    Right stone), ``.`` (empty). Clobber: Left lands on ``o``, Right on ``x``;
``left_behind``
    for each player, what the square a stone leaves becomes (Clobber: ``.``);
``max_distance``
    how far a stone may travel in one direction (``None`` = no limit): it passes over empty
    squares, at most ``max_distance - 1`` of them, and lands on the first square that is not
    empty, or on the square ``max_distance`` steps away; the move is legal when that square is
    on the board, not a wall, and holds what ``clobbered`` allows (CGSuite's rule: one landing
    square per direction).

The named instances (``game.grid.constants`` of CGSuite):

* **Anti-Clobber**: a stone moves onto an adjacent *empty* square and leaves an enemy stone
  behind (a Clobber move played backwards in time);
* **Hot Clobber**: a stone may clobber a stone of either colour;
* **Kings**, **Knights**: Clobber with king steps, knight leaps;
* **Rooks**, **Queens**: Clobber with rook or queen slides over empty squares.

Positions are Clobber's (tuples of equal-length rows, ``"xox|ox."``); a rule that lets stones
move onto empty squares also knows ``#``, a square that is not part of the board.

Components. With ``max_distance`` 1 and no landing on empty squares, stones only ever move
between squares that held stones, so the groups of stones connected by the ``directions`` are
independent (CGSuite decomposes the same way); otherwise the regions of non-wall squares
connected by the ``directions`` are (a stone never leaves its region: it moves or slides one
direction step at a time through squares of the region). Each component is cropped and
normalised over the eight symmetries of the square grid, which map each direction set to
itself. (CGSuite splits Anti-Clobber boards at empty squares, although a stone may move into
them; here they stay joined, which is what the rules say.)

Values are checked in ``tests/test_rulesets_clobber_variants.py`` against an independent brute
force and CGSuite's ``GameGridTest.scala``.
"""

from __future__ import annotations

from typing import Any, Iterable

from cgtalg.errors import RulesetError, shorten
from cgtalg.rulesets.partizan._graphs import crop_cells, dihedral_images
from cgtalg.rulesets.partizan.games import Clobber, _check_cells, _check_text

__all__ = ["GenClobber", "DIRECTIONS", "anti_clobber", "hot_clobber", "kings", "knights", "rooks", "queens",
           "parse_gen_clobber"]

Grid = tuple[str, ...]

#: the direction sets (CGSuite's ``Coordinates.Orthogonal``, ``Diagonal``, ``Compass``, ``KnightsMove``)
DIRECTIONS: dict[str, tuple[tuple[int, int], ...]] = {
    "orthogonal": ((-1, 0), (1, 0), (0, -1), (0, 1)),
    "diagonal": ((-1, -1), (-1, 1), (1, -1), (1, 1)),
    "compass": ((-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1)),
    "knight": ((-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1)),
}


def _squares(text: Any, what: str) -> frozenset[str]:
    if not isinstance(text, str) or not text or set(text) - set("xo."):
        raise RulesetError(f"gen-clobber: {what} is a non-empty text over x (Left stone), o (Right stone) "
                           f"and . (empty), got {shorten(text, 40)}")
    return frozenset(text)


class GenClobber(Clobber):
    """Clobber with CGSuite's generalised rules (module docstring). With the defaults it is
    Clobber (and uses Clobber's compiled search).

    Parameters
    ----------
    directions : {"orthogonal", "diagonal", "compass", "knight"}
    left_clobbers, right_clobbers : str
        What the landing square may hold, over ``x``, ``o``, ``.`` (defaults ``"o"``, ``"x"``).
    left_leaves, right_leaves : str
        What the square left becomes: ``"."``, ``"x"`` or ``"o"`` (default ``"."``).
    max_distance : int or None
        At least 1; ``None`` for no limit (default 1).
    name : str, optional
        The ruleset's name (default: ``gen-clobber`` followed by the rules that differ from
        Clobber's, the text :func:`parse_gen_clobber` reads).

    Examples
    --------
    >>> from cgtalg.rulesets.partizan.games import partizan_form
    >>> str(partizan_form(anti_clobber(), anti_clobber().parse_position("x.o")))
    '*'
    >>> GenClobber(directions="compass", max_distance=None).name
    'gen-clobber:dirs=compass,max=inf'
    """

    example = "xox|ox."

    def __init__(self, directions: str = "orthogonal", left_clobbers: str = "o", right_clobbers: str = "x",
                 left_leaves: str = ".", right_leaves: str = ".", max_distance: int | None = 1,
                 name: str | None = None) -> None:
        if directions not in DIRECTIONS:
            raise RulesetError(f"gen-clobber: directions are one of {', '.join(DIRECTIONS)}, "
                               f"not {shorten(directions, 40)}")
        self.directions = directions
        self.steps = DIRECTIONS[directions]
        self.clobbered = {"x": _squares(left_clobbers, "what Left lands on"),
                          "o": _squares(right_clobbers, "what Right lands on")}
        for who, leave in (("Left", left_leaves), ("Right", right_leaves)):
            if leave not in ("x", "o", "."):
                raise RulesetError(f"gen-clobber: what {who}'s stone leaves behind is one of x, o, ., "
                                   f"got {shorten(leave, 40)}")
        self.left_behind = {"x": left_leaves, "o": right_leaves}
        if max_distance is not None and (isinstance(max_distance, bool) or not isinstance(max_distance, int)
                                         or max_distance < 1):
            raise RulesetError(f"gen-clobber: max_distance is an integer >= 1 or None (no limit), "
                               f"got {shorten(max_distance, 40)}")
        self.max_distance = max_distance
        #: whether a stone may land on an empty square (then ``#`` marks squares off the board)
        self.onto_empty = "." in self.clobbered["x"] | self.clobbered["o"]
        self.name = name or "gen-clobber" + (":" + self.rules_text() if self.rules_text() else "")

    def rules_text(self) -> str:
        """The rules that differ from Clobber's, as :func:`parse_gen_clobber` reads them."""
        parts = []
        if self.directions != "orthogonal":
            parts.append(f"dirs={self.directions}")
        if self.clobbered["x"] != {"o"}:
            parts.append("left=" + "".join(sorted(self.clobbered["x"])))
        if self.clobbered["o"] != {"x"}:
            parts.append("right=" + "".join(sorted(self.clobbered["o"])))
        if self.left_behind != {"x": ".", "o": "."}:
            parts.append("behind=" + self.left_behind["x"] + self.left_behind["o"])
        if self.max_distance != 1:
            parts.append("max=" + ("inf" if self.max_distance is None else str(self.max_distance)))
        return ",".join(parts)

    # -- moves -------------------------------------------------------------------------------
    def _landing(self, g: Grid, r: int, c: int, dr: int, dc: int) -> tuple[int, int] | None:
        """The square a stone at ``(r, c)`` reaches going ``(dr, dc)``: past empty squares (at
        most ``max_distance - 1``) to the first non-empty one or the last step; None off the board."""
        n = 1
        rr, cc = r + dr, c + dc
        while (self.max_distance is None or n < self.max_distance) and 0 <= rr < len(g) and \
                0 <= cc < len(g[rr]) and g[rr][cc] == ".":
            n += 1
            rr, cc = rr + dr, cc + dc
        if 0 <= rr < len(g) and 0 <= cc < len(g[rr]):
            return rr, cc
        return None

    def _moves(self, g: Grid, me: str, them: str) -> Iterable[Grid]:
        allowed = self.clobbered[me]
        behind = self.left_behind[me]
        for r, row in enumerate(g):
            for c, ch in enumerate(row):
                if ch != me:
                    continue
                for dr, dc in self.steps:
                    to = self._landing(g, r, c, dr, dc)
                    if to is None or g[to[0]][to[1]] not in allowed:
                        continue
                    rows = [list(x) for x in g]
                    rows[r][c] = behind
                    rows[to[0]][to[1]] = me
                    yield tuple("".join(x) for x in rows)

    # -- components --------------------------------------------------------------------------
    def components(self, position: Grid) -> list[Grid] | None:
        """The independent pieces of the board (module docstring), each normalised; pieces with
        no stone are dropped."""
        by_stones = self.max_distance == 1 and not self.onto_empty
        keep = set("xo") if by_stones else set("xo.")
        cells = {(r, c): ch for r, row in enumerate(position) for c, ch in enumerate(row) if ch in keep}
        out = []
        while cells:
            start, ch = cells.popitem()
            comp = {start: ch}
            stack = [start]
            while stack:
                r, c = stack.pop()
                for dr, dc in self.steps:
                    nb = (r + dr, c + dc)
                    if nb in cells:
                        comp[nb] = cells.pop(nb)
                        stack.append(nb)
            if set(comp.values()) & {"x", "o"}:
                out.append(self.normalize(self._crop(comp)))
        return sorted(out)

    def _crop(self, cells: dict) -> Grid:
        return crop_cells(cells, "#" if self.onto_empty else ".")

    def normalize(self, position: Grid) -> Grid:
        """The least of the cropped position's images under the 8 symmetries of the grid (each
        maps every direction set to itself, so all keep the rules)."""
        gap = "#" if self.onto_empty else "."
        cells = {(r, c): ch for r, row in enumerate(position) for c, ch in enumerate(row) if ch != gap}
        if self.onto_empty and not any(ch in "xo" for ch in cells.values()):
            return ()
        g = crop_cells(cells, gap)
        return min(dihedral_images(g)) if g else g

    def kernel_form(self, position: Grid, tick: Any = None) -> Any:
        """Clobber's compiled search when the rules are Clobber's, else None (the generic search)."""
        if self.rules_text():
            return None
        return super().kernel_form(position, tick)

    # -- text --------------------------------------------------------------------------------
    def check_position(self, position: Any) -> None:
        """Refuse what is not a position: a tuple of equal-length strings over ``x``, ``o``,
        ``.`` (and ``#`` when stones may land on empty squares)."""
        chars = set("xo.#") if self.onto_empty else set("xo.")
        if (not isinstance(position, tuple) or not all(isinstance(r, str) for r in position)
                or set("".join(position)) - chars or len({len(r) for r in position}) > 1):
            raise RulesetError(f"{self.name}: a position is a tuple of equal-length strings over "
                               f"{', '.join(sorted(chars))}, got {shorten(position, 60)}; parse_position reads text")
        _check_cells(self.name, len(position) * (len(position[0]) if position else 0), "the grid")

    def parse_position(self, text: str) -> Grid:
        """Rows separated by ``|``, ``/`` or newlines (``"xox|ox."``): ``x`` (or ``b``) Left,
        ``o`` (or ``w``) Right, ``.`` empty and, when stones may land on empty squares, ``#``
        for a square off the board; ``empty`` is the empty board.

        Raises
        ------
        RulesetError
            For another character (named with its row and column) or rows of unequal length.
        """
        t = _check_text(self.name, text).strip()
        if t in ("", "empty", "0"):
            return ()
        chars = "xo.#" if self.onto_empty else "xo."
        rows = [row.strip() for row in t.replace("\n", "|").replace("/", "|").split("|")]
        out = []
        for i, row in enumerate(rows):
            row = row.lower().replace("b", "x").replace("w", "o")
            for j, ch in enumerate(row):
                if ch not in chars:
                    raise RulesetError(f"{self.name}: unexpected {ch!r} at row {i + 1}, column {j + 1} of "
                                       f"{shorten(text, 60)} (x: Left, o: Right, . empty"
                                       f"{', # off the board' if self.onto_empty else ''})")
            out.append(row)
        if len({len(r) for r in out}) > 1:
            raise RulesetError(f"{self.name}: the rows of {shorten(text, 60)} have different lengths "
                               f"({', '.join(str(len(r)) for r in out)})")
        pos = tuple(out)
        self.check_position(pos)
        return pos


# -- CGSuite's named instances (game.grid.constants) ----------------------------------------------
def anti_clobber() -> GenClobber:
    """Anti-Clobber: onto an adjacent empty square, leaving an enemy stone behind."""
    return GenClobber(left_clobbers=".", right_clobbers=".", left_leaves="o", right_leaves="x",
                      name="anti-clobber")


def hot_clobber() -> GenClobber:
    """Hot Clobber: a stone may clobber a stone of either colour."""
    return GenClobber(left_clobbers="xo", right_clobbers="xo", name="hot-clobber")


def kings() -> GenClobber:
    """Kings: Clobber with the eight king steps."""
    return GenClobber(directions="compass", name="kings")


def knights() -> GenClobber:
    """Knights: Clobber with knight leaps (over anything)."""
    return GenClobber(directions="knight", name="knights")


def rooks() -> GenClobber:
    """Rooks: Clobber sliding any distance orthogonally over empty squares."""
    return GenClobber(max_distance=None, name="rooks")


def queens() -> GenClobber:
    """Queens: Clobber sliding any distance in the eight directions over empty squares."""
    return GenClobber(directions="compass", max_distance=None, name="queens")


_KEYS = ("dirs", "left", "right", "behind", "max")


def parse_gen_clobber(arg: str) -> GenClobber:
    """The ruleset ``gen-clobber:ARG``: ``ARG`` is ``KEY=VALUE`` pairs separated by commas, keys
    ``dirs`` (orthogonal, diagonal, compass, knight), ``left`` / ``right`` (what Left's / Right's
    stone may land on, over ``x``, ``o``, ``.``), ``behind`` (two characters: what Left's and
    Right's stones leave behind) and ``max`` (the most squares travelled, or ``inf``).

    >>> parse_gen_clobber("left=.,right=.,behind=ox").rules_text()
    'left=.,right=.,behind=ox'

    Raises
    ------
    RulesetError
        For an unknown key, a key given twice or a bad value.
    """
    kw: dict[str, Any] = {}
    seen = set()
    for item in [p.strip() for p in arg.split(",") if p.strip()]:
        key, eq, value = item.partition("=")
        key, value = key.strip().lower(), value.strip()
        if not eq or key not in _KEYS:
            raise RulesetError(f"bad ruleset 'gen-clobber:{shorten(arg, 60)[1:-1]}': expected KEY=VALUE pairs "
                               f"with keys {', '.join(_KEYS)}, got {shorten(item, 40)}")
        if key in seen:
            raise RulesetError(f"bad ruleset 'gen-clobber:{shorten(arg, 60)[1:-1]}': {key} is given twice")
        seen.add(key)
        if key == "dirs":
            kw["directions"] = value.lower()
        elif key == "left":
            kw["left_clobbers"] = value.lower()
        elif key == "right":
            kw["right_clobbers"] = value.lower()
        elif key == "behind":
            if len(value) != 2:
                raise RulesetError(f"gen-clobber: behind= takes two characters (Left's, Right's), "
                                   f"each x, o or ., got {shorten(value, 40)}")
            kw["left_leaves"], kw["right_leaves"] = value[0].lower(), value[1].lower()
        else:
            if value.lower() in ("inf", "none"):
                kw["max_distance"] = None
            elif value.isascii() and value.isdigit() and len(value) < 10:
                kw["max_distance"] = int(value)
            else:
                raise RulesetError(f"gen-clobber: max= takes an integer >= 1 or inf, got {shorten(value, 40)}")
    return GenClobber(**kw)


#: the rulesets this module registers: name -> (factory, description). (CGSuite's Kings, Rooks and
#: Queens are registered by cgtalg.rulesets.partizan.chess_clobber under those names; here they are
#: :func:`kings`, :func:`rooks`, :func:`queens` and ``gen-clobber:dirs=compass``, ``:max=inf``,
#: ``:dirs=compass,max=inf``.)
CLOBBER_VARIANTS: dict[str, tuple[Any, str]] = {
    "anti-clobber": (anti_clobber, "Anti-Clobber: x (Left), o (Right) move onto empty squares, leaving an enemy stone"),
    "hot-clobber": (hot_clobber, "Hot Clobber: x (Left), o (Right) clobber stones of either colour"),
    "knights": (knights, "Knights: Clobber with knight leaps (CGSuite's game.grid.Knights)"),
}


def _register() -> None:
    from cgtalg.rulesets.registry import register_family, register_ruleset

    register_ruleset("gen-clobber", GenClobber, "GenClobber with Clobber's rules; gen-clobber:KEY=VALUE,...")
    for name, (factory, description) in CLOBBER_VARIANTS.items():
        register_ruleset(name, factory, description)
    register_family("gen-clobber", parse_gen_clobber,
                    "gen-clobber:dirs=D,left=S,right=S,behind=AB,max=N  CGSuite's GenClobber (D orthogonal, "
                    "diagonal, compass, knight; S over x, o, .; N or inf)")


_register()
