"""Amazons (Walter Zamkauskas, 1988; Berlekamp, "Sums of N×2 Amazons", 2000; Snatzke; Siegel,
*Combinatorial Game Theory*, I.1) on small boards.

Each player has amazons: ``x`` are Left's, ``o`` Right's; ``#`` is a burnt square and ``.`` an
empty one. A move takes one of one's amazons like a chess queen (any number of empty squares
in one of the eight directions, not through amazons or burnt squares) and then, from where it
lands, shoots an arrow like a queen onto an empty square (the square it left counts as empty),
which burns. The player who cannot move loses.

Positions are tuples of equal-length rows (``"x..|.#o"`` as text, rows separated by ``|`` or
``/``, as CGSuite and cgt-py write them). Queen moves and shots never leave a region of squares
connected through their eight neighbours without crossing burnt squares, so the *regions* of
the board (8-connected sets of unburnt squares) are independent: each region that holds an
amazon and an empty square is a component (others are worth 0 and are dropped), cropped to its
bounding box (squares outside the region burnt) and normalised over the eight symmetries of
the board, all of which keep the rules.

Values are checked in ``tests/test_rulesets_amazons.py`` against cgt-py's Amazons and an
independent brute force.

>>> from cgtalg.rulesets.partizan.games import partizan_form
>>> a = Amazons()
>>> [str(partizan_form(a, a.parse_position(t))) for t in ("xo..", "x..o", "x.|.o")]
['-2', '±1', '0']
"""

from __future__ import annotations

from typing import Any, Iterable

from cgtalg.errors import ComputationLimitError, RulesetError, shorten
from cgtalg.rulesets.partizan._graphs import crop_cells, dihedral_images
from cgtalg.rulesets.protocol import PartizanRuleset

__all__ = ["Amazons", "MAX_SQUARES"]

#: the most squares a board may have when read or checked
MAX_SQUARES = 10_000

Grid = tuple[str, ...]
_DIRS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def _ray(g: list[list[str]], r: int, c: int) -> Iterable[tuple[int, int]]:
    """The empty squares a queen at (r, c) reaches."""
    h, w = len(g), len(g[0])
    for dr, dc in _DIRS:
        rr, cc = r + dr, c + dc
        while 0 <= rr < h and 0 <= cc < w and g[rr][cc] == ".":
            yield rr, cc
            rr += dr
            cc += dc


class Amazons(PartizanRuleset):
    """Amazons (module docstring): ``x`` Left's amazons, ``o`` Right's, ``#`` burnt, ``.``
    empty.

    Examples
    --------
    >>> a = Amazons()
    >>> len(list(a.left_moves(("x..",)))), sorted(set(a.left_moves(("x..",))))
    (4, [('#.x',), ('#x.',), ('.#x',), ('.x#',)])
    """

    name = "amazons"

    def _moves(self, position: Grid, me: str) -> Iterable[Grid]:
        g = [list(row) for row in position]
        for r, row in enumerate(position):
            for c, ch in enumerate(row):
                if ch != me:
                    continue
                g[r][c] = "."
                for r2, c2 in list(_ray(g, r, c)):
                    g[r2][c2] = me
                    for r3, c3 in list(_ray(g, r2, c2)):
                        g[r3][c3] = "#"
                        yield tuple("".join(x) for x in g)
                        g[r3][c3] = "."
                    g[r2][c2] = "."
                g[r][c] = me

    def left_moves(self, position: Grid) -> Iterable[Grid]:
        return self._moves(position, "x")

    def right_moves(self, position: Grid) -> Iterable[Grid]:
        return self._moves(position, "o")

    def components(self, position: Grid) -> list[Grid]:
        """The regions (8-connected unburnt squares) that hold an amazon and an empty square,
        each cropped (the rest of its box burnt) and normalised."""
        free = {(r, c): ch for r, row in enumerate(position) for c, ch in enumerate(row) if ch != "#"}
        out = []
        while free:
            start, ch = free.popitem()
            region = {start: ch}
            stack = [start]
            while stack:
                r, c = stack.pop()
                for dr, dc in _DIRS:
                    nb = (r + dr, c + dc)
                    if nb in free:
                        region[nb] = free.pop(nb)
                        stack.append(nb)
            chars = set(region.values())
            if "." in chars and chars & {"x", "o"}:
                out.append(self.normalize(crop_cells(region, "#")))
        return sorted(out)

    @staticmethod
    def normalize(position: Grid) -> Grid:
        """The least of the cropped board's 8 images under rotations and reflections (burnt
        border rows and columns dropped)."""
        cells = {(r, c): ch for r, row in enumerate(position) for c, ch in enumerate(row) if ch != "#"}
        g = crop_cells(cells, "#")
        return min(dihedral_images(g)) if g else g

    def format_position(self, position: Grid) -> str:
        return "|".join(position) or "empty"

    @staticmethod
    def check_position(position: Any) -> None:
        """Refuse what is not a position: a tuple of equal-length strings over ``x``, ``o``,
        ``#`` and ``.`` of at most :data:`MAX_SQUARES` squares."""
        if (not isinstance(position, tuple) or not all(isinstance(r, str) for r in position)
                or set("".join(position)) - set("xo#.") or len({len(r) for r in position}) > 1):
            raise RulesetError(f"amazons: a position is a tuple of equal-length rows over x (Left), o "
                               f"(Right), # (burnt) and . (empty), got {shorten(position, 60)}")
        n = len(position) * (len(position[0]) if position else 0)
        if n > MAX_SQUARES:
            raise ComputationLimitError(f"amazons: the board has {n:,} squares, more than the limit of "
                                        f"{MAX_SQUARES:,} (cgtalg.rulesets.partizan.amazons.MAX_SQUARES)")

    def parse_position(self, text: str) -> Grid:
        """Rows separated by ``|``, ``/`` or newlines over ``x`` (or ``L``), ``o`` (or ``R``),
        ``#`` and ``.``; ``empty`` is the empty board.

        Raises
        ------
        RulesetError
            For another character (named with its row and column) or rows of unequal length.
        """
        if not isinstance(text, str):
            raise RulesetError(f"amazons: a position text is a str, not {type(text).__name__}")
        if len(text) > 2 * MAX_SQUARES:
            raise ComputationLimitError(f"amazons: the position text is {len(text):,} characters long, "
                                        f"beyond the limit of {MAX_SQUARES:,} squares")
        t = text.strip()
        if t in ("", "empty", "0"):
            return ()
        rows = [row.strip() for row in t.replace("\n", "|").replace("/", "|").split("|")]
        out = []
        for i, row in enumerate(rows):
            row = row.replace("L", "x").replace("R", "o")
            for j, ch in enumerate(row):
                if ch not in "xo#.":
                    raise RulesetError(f"amazons: unexpected {ch!r} at row {i + 1}, column {j + 1} of "
                                       f"{shorten(text, 60)} (x or L: Left, o or R: Right, # burnt, . empty)")
            out.append(row)
        if len({len(r) for r in out}) > 1:
            raise RulesetError(f"amazons: the rows of {shorten(text, 60)} have different lengths "
                               f"({', '.join(str(len(r)) for r in out)})")
        pos = tuple(out)
        self.check_position(pos)
        return pos


def _register() -> None:
    from cgtalg.rulesets.registry import register_ruleset

    register_ruleset("amazons", Amazons, "Amazons on small boards: x (Left), o (Right), # burnt, . empty")


_register()
