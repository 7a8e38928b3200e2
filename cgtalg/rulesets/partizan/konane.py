"""Konane (Hawaiian checkers) as a partizan ruleset.

A position is a rectangular grid, written as Clobber's is (``"xox.|o.xo"``: rows separated by
``|`` or ``/``): ``x`` is a stone of Left (black), ``o`` a stone of Right (white), ``.`` an empty
square. A move jumps one's stone orthogonally over an adjacent opponent stone into the empty
square just beyond, removing the stone jumped; the same stone may go on jumping in the same
direction in the same move (over an opponent stone into an empty square each time), and may stop
after any jump. A player with no jump loses (normal play). This is the game of Ernst, "Playing
Konane mathematically: a combinatorial game-theoretic analysis" (UMAP Journal 16, 1995), and
of CGSuite's and cgt-py's ``Konane``.

Components. A stone can only ever stand on a square that holds a stone now or that a chain of
jumps could reach: the closure of the occupied squares under "a square two steps beyond an
occupied-or-reachable square, across one, inside the grid". Two stones in different 4-connected
groups of that closure can never become adjacent, so the groups are independent games and the
position is their disjunctive sum (Siegel CGT II.1). Each group is cut out with the squares of
its closure (its bounding box; the squares it can never reach are walls ``#``) and normalised
to the least of its 8 images under the grid's symmetries (all keep the rules).

References: Ernst (1995) above; Santos and Silva, "Konane has infinite nim-dimension",
INTEGERS 8 (2008); Siegel, *Combinatorial Game Theory* (2013), ch. II.
"""

from __future__ import annotations

from typing import Any, Iterable

from cgtalg.errors import RulesetError
from cgtalg.rulesets.partizan.games import _check_cells, _check_text, _short
from cgtalg.rulesets.protocol import PartizanRuleset

__all__ = ["Konane"]

Grid = tuple[str, ...]
_DIRS = ((0, 1), (0, -1), (1, 0), (-1, 0))


def _images(g: Grid) -> list[Grid]:
    """The 8 images of a rectangular grid under rotations and reflections."""
    out = []
    for _ in range(4):
        out.append(g)
        out.append(tuple(r[::-1] for r in g))
        g = tuple("".join(g[len(g) - 1 - r][c] for r in range(len(g))) for c in range(len(g[0])))
    return out


class Konane(PartizanRuleset):
    """Konane on a grid: ``x`` (Left) and ``o`` (Right) stones jump orthogonally over an
    adjacent opponent stone into the empty square beyond, capturing it, possibly several times
    in one direction in one move; ``#`` marks a square off the board (module docstring).

    Examples
    --------
    >>> from cgtalg.rulesets.partizan.games import partizan_form
    >>> k = Konane()
    >>> str(partizan_form(k, k.parse_position("xo.")))
    '1'
    >>> str(partizan_form(k, k.parse_position("xoxo..")))
    '2'
    """

    name = "konane"
    example = "xoxo|oxox"

    def _moves(self, g: Grid, me: str, them: str) -> Iterable[Grid]:
        h = len(g)
        w = len(g[0]) if h else 0
        for r in range(h):
            row = g[r]
            for c in range(w):
                if row[c] != me:
                    continue
                for dr, dc in _DIRS:
                    cells = [list(x) for x in g]
                    cells[r][c] = "."
                    rr, cc = r, c
                    while True:
                        mr, mc, er, ec = rr + dr, cc + dc, rr + 2 * dr, cc + 2 * dc
                        if not (0 <= er < h and 0 <= ec < w) or cells[mr][mc] != them or cells[er][ec] != ".":
                            break
                        cells[mr][mc] = "."
                        rr, cc = er, ec
                        cells[rr][cc] = me
                        yield tuple("".join(x) for x in cells)
                        cells[rr][cc] = "."

    def left_moves(self, position: Grid) -> Iterable[Grid]:
        return self._moves(position, "x", "o")

    def right_moves(self, position: Grid) -> Iterable[Grid]:
        return self._moves(position, "o", "x")

    @staticmethod
    def reach(position: Grid) -> set[tuple[int, int]]:
        """The squares a stone may ever stand on: the occupied ones and, repeatedly, an empty
        square two steps beyond a square of the set across another square of the set."""
        h = len(position)
        w = len(position[0]) if h else 0
        occ = {(r, c) for r in range(h) for c in range(w) if position[r][c] in "xo"}
        changed = True
        while changed:  # to the fixpoint: a square added may carry later jumps across it
            changed = False
            for r, c in list(occ):
                for dr, dc in _DIRS:
                    er, ec = r + 2 * dr, c + 2 * dc
                    if ((r + dr, c + dc) in occ and (er, ec) not in occ and 0 <= er < h and 0 <= ec < w
                            and position[er][ec] == "."):
                        occ.add((er, ec))
                        changed = True
        return occ

    def components(self, position: Grid) -> list[Grid]:
        """The independent groups of the position (module docstring), each cut out and
        normalised; a group holding stones of one colour only is left out (nobody can move in
        it: 0)."""
        cells = self.reach(position)
        out = []
        while cells:
            start = cells.pop()
            comp = {start}
            stack = [start]
            while stack:
                r, c = stack.pop()
                for dr, dc in _DIRS:
                    nb = (r + dr, c + dc)
                    if nb in cells:
                        cells.discard(nb)
                        comp.add(nb)
                        stack.append(nb)
            chars = {position[r][c] for r, c in comp}
            if "x" in chars and "o" in chars:
                out.append(self._cut(position, comp))
        return out

    @staticmethod
    def _cut(position: Grid, comp: set[tuple[int, int]]) -> Grid:
        rs = [r for r, _ in comp]
        cs = [c for _, c in comp]
        r0, c0 = min(rs), min(cs)
        rows = tuple("".join(position[r][c] if (r, c) in comp else "#" for c in range(c0, max(cs) + 1))
                     for r in range(r0, max(rs) + 1))
        return min(_images(rows))

    def kernel_form(self, position: Grid, tick: Any = None) -> Any:
        """The canonical form searched wholly in the compiled partizan kernel on bitboards
        (:func:`cgtalg.normal.partizan_kernel.grid_form`), or None for a grid larger than 8 x 8.
        :func:`~cgtalg.rulesets.partizan.games.partizan_form` calls it when the kernel is in use,
        with ``tick(solved)`` checking its limits every 256 components."""
        from cgtalg.normal import partizan_kernel

        return partizan_kernel.grid_form("konane", tuple(position), tick)

    def normalize(self, position: Grid) -> Grid:
        """The least image, under the grid's 8 symmetries, of the position cut to the squares
        its stones may ever reach (the others become walls ``#``)."""
        cells = self.reach(position)
        if not cells:
            return ()
        return self._cut(position, cells)

    def format_position(self, position: Grid) -> str:
        return "|".join(position) or "empty"

    @staticmethod
    def check_position(position: Any) -> None:
        """Refuse what is not a position: a tuple of equal-length strings over ``x``, ``o``,
        ``.`` and ``#`` of at most :data:`~cgtalg.rulesets.partizan.games.MAX_CELLS` squares."""
        if (not isinstance(position, tuple) or not all(isinstance(r, str) for r in position)
                or set("".join(position)) - set("xo.#") or len({len(r) for r in position}) > 1):
            raise RulesetError(f"konane: a position is a tuple of equal-length strings over x, o, . "
                               f"and #, got {_short(position)}; parse_position reads text")
        _check_cells("konane", len(position) * (len(position[0]) if position else 0), "the grid")

    def parse_position(self, text: str) -> Grid:
        """Rows separated by ``|`` or ``/`` (``"xox.|o.xo"``): ``x``/``b`` Left, ``o``/``w``
        Right, ``.`` empty, ``#`` off the board; at most
        :data:`~cgtalg.rulesets.partizan.games.MAX_CELLS` squares."""
        s = _check_text("konane", text).strip().lower().replace("b", "x").replace("w", "o").replace("/", "|")
        rows = tuple(s.split("|"))
        bad = sorted(set("".join(rows)) - set("xo.#"))
        if bad:
            where = s.index(bad[0])
            raise RulesetError(f"konane: unexpected {bad[0]!r} at position {where} of {_short(text)} "
                               "(rows over x (Left), o (Right), . (empty) and # (off the board), "
                               "separated by |)")
        if len({len(r) for r in rows}) > 1:
            raise RulesetError(f"konane: the rows of {_short(text)} have different lengths "
                               f"({', '.join(str(len(r)) for r in rows)})")
        self.check_position(rows)
        return rows

