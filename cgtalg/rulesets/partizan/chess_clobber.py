"""Kings, Rooks and Queens: CGSuite's chess-piece variants of Clobber (partizan).

CGSuite (``game.grid.Kings``, ``game.grid.Rooks``, ``game.grid.Queens``, defined in its
``lib/core/src/main/resources/org/cgsuite/lang/resources/game/grid/constants.cgs`` as instances of
its Clobber schema ``GenClobber``) plays these games as **Clobber** (Albert, Grossman,
Nowakowski and Wolfe, "An introduction to Clobber", Integers 5, 2005) with chess moves, not as
placement games: the board holds Left's stones ``x`` and Right's stones ``o``; a move takes one
of one's stones onto a square holding an *opponent's* stone, which is removed (the square left
is empty). Moves onto empty squares are never allowed. The player who cannot move loses.

* **Kings**: a stone moves one square in any of the eight directions (orthogonal or
  diagonal), like a chess king.
* **Rooks**: a stone moves any number of squares along a row or column, like a chess rook: it
  passes over empty squares, may not jump over a stone, and must land on (capture) the first
  stone it meets, which must be an opponent's.
* **Queens**: the same along rows, columns and diagonals, like a chess queen.

Components. Every move empties one occupied square and fills none, so the set of occupied
squares only shrinks and the pieces of a position never merge:

* Kings: two stones interact only when they are neighbours (8-connected), so the 8-connected
  groups of stones are independent (CGSuite splits Kings the same way);
* Rooks and Queens: two stones interact only along a line (row, column, and for Queens a
  diagonal) through both, and every square between them on it lies on that line too; so
  the groups of stones linked by sharing lines are independent. CGSuite does not split these;
  the split here is a refinement, checked against play without it in the tests.

A group holding stones of one colour only has no move for anyone (0) and is dropped. Kings and
Queens groups are cropped to their bounding box; a Rooks group keeps only the order of its
stones along each row and column, so its empty rows and columns are removed as well. Each
group is then the least of its images under the eight symmetries of the square, which all
keep these rules.

Text is CGSuite's: rows of ``x`` (Left), ``o`` (Right) and ``.`` (empty) separated by ``|``
(also ``/`` or a new line): ``"xox|ox."``. Values are checked in
``tests/test_rulesets_chess_clobber.py`` by play from the rules and against CGSuite's
``lib/core/src/test/scala/org/cgsuite/lang/GameGridTest.scala``.

>>> from cgtalg.rulesets.partizan.games import partizan_form
>>> [str(partizan_form(r, r.parse_position("xox|ox."))) for r in (Kings(), Rooks(), Queens())]
['{^^*|*,v[2]}', '{^^*|0,*}', '^']
"""

from __future__ import annotations

from typing import Any, Iterable

from cgtalg.errors import ComputationLimitError, RulesetError, shorten
from cgtalg.rulesets.partizan._graphs import crop_cells, dihedral_images
from cgtalg.rulesets.protocol import PartizanRuleset

__all__ = ["ChessClobber", "Kings", "Rooks", "Queens", "MAX_SQUARES"]

#: the most squares a board may have when read or checked
MAX_SQUARES = 10_000

Grid = tuple[str, ...]
Cell = tuple[int, int]

ORTHOGONAL = ((-1, 0), (1, 0), (0, -1), (0, 1))
COMPASS = ORTHOGONAL + ((-1, -1), (-1, 1), (1, -1), (1, 1))


class ChessClobber(PartizanRuleset):
    """Clobber with chess moves (module docstring): the class attributes ``directions`` (the
    steps a stone may take) and ``slides`` (False: one step; True: any number of steps over
    empty squares) make :class:`Kings`, :class:`Rooks` and :class:`Queens`."""

    name = "chess-clobber"
    example = "xox|ox."
    directions: tuple[Cell, ...] = COMPASS
    slides = False

    # -- moves -----------------------------------------------------------------------------------
    def _target(self, g: Grid, r: int, c: int, dr: int, dc: int) -> Cell | None:
        """The square a stone at (r, c) reaches going (dr, dc): the first one past empty squares
        (only one step when the piece does not slide), or None off the board."""
        h, w = len(g), len(g[0])
        rr, cc = r + dr, c + dc
        while self.slides and 0 <= rr < h and 0 <= cc < w and g[rr][cc] == ".":
            rr, cc = rr + dr, cc + dc
        if 0 <= rr < h and 0 <= cc < w:
            return rr, cc
        return None

    def _moves(self, g: Grid, me: str, them: str) -> Iterable[Grid]:
        for r, row in enumerate(g):
            for c, ch in enumerate(row):
                if ch != me:
                    continue
                for dr, dc in self.directions:
                    to = self._target(g, r, c, dr, dc)
                    if to is not None and g[to[0]][to[1]] == them:
                        rows = [list(x) for x in g]
                        rows[r][c] = "."
                        rows[to[0]][to[1]] = me
                        yield tuple("".join(x) for x in rows)

    def left_moves(self, position: Grid) -> Iterable[Grid]:
        return self._moves(position, "x", "o")

    def right_moves(self, position: Grid) -> Iterable[Grid]:
        return self._moves(position, "o", "x")

    # -- components ------------------------------------------------------------------------------
    def _lines(self, cell: Cell) -> list[tuple]:
        """The lines through ``cell`` along which it meets other stones (sliding pieces)."""
        r, c = cell
        out = [("row", r), ("col", c)]
        if any(dr and dc for dr, dc in self.directions):
            out += [("diag", r - c), ("anti", r + c)]
        return out

    def _groups(self, stones: dict[Cell, str]) -> list[dict[Cell, str]]:
        """The independent groups of stones (module docstring)."""
        parent = {s: s for s in stones}

        def find(s: Cell) -> Cell:
            while parent[s] != s:
                parent[s] = parent[parent[s]]
                s = parent[s]
            return s

        def union(a: Cell, b: Cell) -> None:
            ra, rb = find(a), find(b)
            if ra != rb:
                parent[ra] = rb

        if self.slides:
            first: dict[tuple, Cell] = {}
            for s in stones:
                for line in self._lines(s):
                    if line in first:
                        union(s, first[line])
                    else:
                        first[line] = s
        else:
            for r, c in stones:
                for dr, dc in self.directions:
                    if (r + dr, c + dc) in stones:
                        union((r, c), (r + dr, c + dc))
        groups: dict[Cell, dict[Cell, str]] = {}
        for s, ch in stones.items():
            groups.setdefault(find(s), {})[s] = ch
        return list(groups.values())

    def _squeeze(self, cells: dict[Cell, str]) -> dict[Cell, str]:
        """Rooks only: the occupied rows and columns renumbered 0, 1, ... in order (only the
        order of stones along a row or column matters to a rook); others unchanged."""
        if not self.slides or any(dr and dc for dr, dc in self.directions):
            return cells
        rows = {r: i for i, r in enumerate(sorted({r for r, _ in cells}))}
        cols = {c: i for i, c in enumerate(sorted({c for _, c in cells}))}
        return {(rows[r], cols[c]): ch for (r, c), ch in cells.items()}

    def components(self, position: Grid) -> list[Grid]:
        """The independent groups of stones that hold both colours, each normalised."""
        stones = {(r, c): ch for r, row in enumerate(position) for c, ch in enumerate(row) if ch != "."}
        out = []
        for group in self._groups(stones):
            if len(set(group.values())) == 2:
                out.append(self._normal(group))
        return sorted(out)

    def _normal(self, cells: dict[Cell, str]) -> Grid:
        g = crop_cells(self._squeeze(cells), ".")
        return min(dihedral_images(g)) if g else g

    def normalize(self, position: Grid) -> Grid:
        """The cropped board (Rooks: also its empty rows and columns removed, which keeps the
        order of the stones along every row and column), least of its eight images under the
        symmetries of the square."""
        stones = {(r, c): ch for r, row in enumerate(position) for c, ch in enumerate(row) if ch != "."}
        return self._normal(stones) if stones else ()

    # -- text ------------------------------------------------------------------------------------
    def format_position(self, position: Grid) -> str:
        return "|".join(position) or "empty"

    def check_position(self, position: Any) -> None:
        """Refuse what is not a position: a tuple of equal-length strings over ``x``, ``o`` and
        ``.`` (:class:`~cgtalg.errors.RulesetError`) of at most :data:`MAX_SQUARES` squares
        (:class:`~cgtalg.errors.ComputationLimitError`)."""
        if (not isinstance(position, tuple) or not all(isinstance(r, str) for r in position)
                or set("".join(position)) - set("xo.") or len({len(r) for r in position}) > 1):
            raise RulesetError(f"{self.name}: a position is a tuple of equal-length rows over x (Left), o "
                               f"(Right) and . (empty), got {shorten(position, 60)}; parse_position reads text")
        n = len(position) * (len(position[0]) if position else 0)
        if n > MAX_SQUARES:
            raise ComputationLimitError(f"{self.name}: the board has {n:,} squares, more than the limit of "
                                        f"{MAX_SQUARES:,} (cgtalg.rulesets.partizan.chess_clobber.MAX_SQUARES)")

    def parse_position(self, text: str) -> Grid:
        """Rows over ``x`` (Left), ``o`` (Right) and ``.`` separated by ``|``, ``/`` or new
        lines (``"xox|ox."``, as CGSuite writes them); ``empty`` (or ``0``) is the empty board.

        Raises
        ------
        RulesetError
            For another character (named with its row and column) or rows of unequal length.
        """
        if not isinstance(text, str):
            raise RulesetError(f"{self.name}: a position text is a str, not {type(text).__name__}")
        if len(text) > 2 * MAX_SQUARES:
            raise ComputationLimitError(f"{self.name}: the position text is {len(text):,} characters long, "
                                        f"beyond the limit of {MAX_SQUARES:,} squares")
        t = text.strip()
        if t in ("", "empty", "0"):
            return ()
        rows = [row.strip() for row in t.replace("\n", "|").replace("/", "|").split("|")]
        for i, row in enumerate(rows):
            for j, ch in enumerate(row):
                if ch not in "xo.":
                    raise RulesetError(f"{self.name}: unexpected {ch!r} at row {i + 1}, column {j + 1} of "
                                       f"{shorten(text, 60)} (x: Left, o: Right, . empty)")
        if len({len(r) for r in rows}) > 1 or not rows[0]:
            raise RulesetError(f"{self.name}: the rows of {shorten(text, 60)} are empty or have different "
                               f"lengths ({', '.join(str(len(r)) for r in rows)})")
        pos = tuple(rows)
        self.check_position(pos)
        return pos


class Kings(ChessClobber):
    """Kings (CGSuite ``game.grid.Kings``): Clobber where a stone moves one square in any of the
    eight directions onto an opponent's stone."""

    name = "kings"
    directions = COMPASS
    slides = False


class Rooks(ChessClobber):
    """Rooks (CGSuite ``game.grid.Rooks``): Clobber where a stone slides along a row or column
    over empty squares onto the first stone it meets, which must be an opponent's."""

    name = "rooks"
    directions = ORTHOGONAL
    slides = True


class Queens(ChessClobber):
    """Queens (CGSuite ``game.grid.Queens``): as :class:`Rooks`, along diagonals too."""

    name = "queens"
    directions = COMPASS
    slides = True


def _register() -> None:
    from cgtalg.rulesets.registry import register_ruleset

    register_ruleset("kings", Kings, "Kings: Clobber with king moves (x Left, o Right, . empty: 'xox|ox.')")
    register_ruleset("rooks", Rooks, "Rooks: Clobber with rook slides onto the first stone ('xox|ox.')")
    register_ruleset("queens", Queens, "Queens: Clobber with queen slides onto the first stone ('xox|ox.')")


_register()
