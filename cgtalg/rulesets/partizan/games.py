"""Partizan rulesets with known values, and the partizan form of any partizan ruleset's position.

* :class:`Domineering` (Winning Ways ch. 5; Berlekamp 1988; Siegel CGT I.1): Left places
  dominoes vertically, Right horizontally, on the free cells of a grid. A position is a tuple
  of row bitmasks; :meth:`Domineering.rectangle` makes the ``m × n`` board. Components are the
  4-connected regions, each normalised up to the symmetries that keep the players' roles
  (translations and the reflections of rows and of columns).
* :class:`Hackenbush` strings (Winning Ways ch. 1-2; Berlekamp's sign expansion): a position
  is a tuple of strings over ``L`` (bLue, Left's), ``R`` (Red, Right's) and ``G`` (Green, both),
  each string a path of edges from the ground; cutting edge ``i`` removes it and everything
  above it.
* :class:`ToadsAndFrogs` (Winning Ways ch. 1; Erickson 1996): a strip over ``T`` (Left's toads,
  moving right), ``F`` (Right's frogs, moving left) and ``.``; a piece slides one square into
  an empty square or jumps over one opposing piece into an empty square.
* :class:`Clobber` (Albert, Grossman, Nowakowski, Wolfe 2005) on a grid (``"xox|ox."``): ``x``
  is Left's stone, ``o`` Right's, ``.`` empty; a player moves a stone onto an orthogonally
  adjacent opponent stone, which is removed. Components are the 4-connected groups of stones.

:func:`partizan_form` turns a position of *any* partizan ruleset (the protocol of
:mod:`cgtalg.rulesets.protocol`: ``left_moves`` / ``right_moves``, optional ``components``) into
its normal-play canonical form (:class:`cgtalg.core.partizan.PartizanGame`), memoised per
ruleset and normalised position, adding components' values.
"""

from __future__ import annotations

import weakref
from typing import Any, Hashable, Iterable

from cgtalg.budget import Deadline
from cgtalg.caches import register_cache
from cgtalg.errors import ComputationLimitError, LoopyGameError, RulesetError
from cgtalg.rulesets.partizan.forms import _clip, _short, clear_partizan_forms, partizan_form, partizan_value
from cgtalg.rulesets.protocol import PartizanRuleset

__all__ = ["Domineering", "Hackenbush", "ToadsAndFrogs", "Clobber", "partizan_form", "partizan_value",
           "MAX_CELLS", "clear_partizan_forms"]

Cell = tuple[int, int]

#: the most cells (squares of a grid or strip, edges of Hackenbush strings) a position of the
#: rulesets here may have when it is made or read from text; larger ones are refused up front
#: with :class:`~cgtalg.errors.ComputationLimitError` (raise it by assigning this name)
MAX_CELLS = 100_000
_LIMIT_HINT = "(cgtalg.rulesets.partizan.games.MAX_CELLS; assign a larger value to raise it)"


def _check_cells(name: str, cells: int, shown: str) -> None:
    """Refuse a position of more than :data:`MAX_CELLS` cells, before it is built."""
    if cells > MAX_CELLS:
        count = f"{cells:,} cells" if cells < 10**30 else "over 10^30 cells"
        raise ComputationLimitError(
            f"{name}: {shown} has {count}, more than the limit of {MAX_CELLS:,} {_LIMIT_HINT}")


def _check_text(name: str, text: Any) -> str:
    """The position text as a str no longer than the cell limit allows (refused up front)."""
    if not isinstance(text, str):
        raise RulesetError(f"{name}: a position text is a str, not {type(text).__name__}")
    # a cell takes at least one character, and separators at most one more each
    if len(text) > 2 * MAX_CELLS + 2:
        raise ComputationLimitError(
            f"{name}: the position text {_short(text)} is longer than {2 * MAX_CELLS + 2:,} "
            f"characters, beyond the limit of {MAX_CELLS:,} cells {_LIMIT_HINT}")
    return text


# -- Domineering --------------------------------------------------------------------------------
Rows = tuple[int, ...]


_REV8 = [int(format(i, "08b")[::-1], 2) for i in range(256)]


def _reverse_bits(x: int, width: int) -> int:
    """The low ``width`` bits of ``x`` in reverse order."""
    if width <= 8:
        return _REV8[x] >> (8 - width)
    return int(format(x, f"0{width}b")[::-1], 2)


def _crop_rows(rows: Rows) -> Rows:
    """Drop empty rows at both ends and shift out empty columns on the right (bit 0 side)."""
    lo = 0
    hi = len(rows)
    while lo < hi and not rows[lo]:
        lo += 1
    while hi > lo and not rows[hi - 1]:
        hi -= 1
    rows = rows[lo:hi]
    if not rows:
        return ()
    acc = 0
    for r in rows:
        acc |= r
    shift = (acc & -acc).bit_length() - 1
    return tuple(r >> shift for r in rows) if shift else rows


class Domineering(PartizanRuleset):
    """Domineering: Left places dominoes vertically, Right horizontally (CGSuite's convention,
    Winning Ways ch. 5).

    A position is a tuple of rows, each an ``int`` whose bit ``c`` is set when the cell in
    column ``c`` is free (:meth:`rectangle`, :meth:`from_cells`, :meth:`parse_position`;
    :meth:`cells` lists the free cells). Rows and columns are cropped and the position is
    normalised up to the symmetries that keep vertical vertical (reversing the rows, reversing
    the columns), so equal boards share one memo entry."""

    name = "domineering"
    example = "2x3"

    @staticmethod
    def rectangle(rows: int, cols: int) -> Rows:
        """The empty ``rows × cols`` board (at most :data:`MAX_CELLS` cells)."""
        for side in (rows, cols):
            if isinstance(side, bool) or not isinstance(side, int):
                raise RulesetError(f"domineering: the sides of a board are integers, got "
                                   f"{type(side).__name__} {_short(side)}")
        if rows < 0 or cols < 0:
            raise RulesetError(f"domineering: a board has non-negative sides, got "
                               f"{_clip(rows)} x {_clip(cols)}")
        if rows and cols:
            _check_cells("domineering", rows * cols,
                         f"a {rows:,} x {cols:,} board" if max(rows, cols) < 10**15 else "the board")
        return tuple((1 << cols) - 1 for _ in range(rows)) if cols else ()

    @staticmethod
    def from_cells(cells: Iterable[Cell]) -> Rows:
        """The position whose free cells are ``cells`` (``(row, col)`` pairs, non-negative)."""
        cells = list(cells)
        if not cells:
            return ()
        if not all(isinstance(rc, tuple) and len(rc) == 2 and all(
                isinstance(v, int) and not isinstance(v, bool) for v in rc) for rc in cells):
            raise RulesetError("domineering: cells are (row, col) pairs of integers")
        if min(min(r, c) for r, c in cells) < 0:
            raise RulesetError("domineering: cells have non-negative coordinates")
        height = max(r for r, _ in cells) + 1
        width = max(c for _, c in cells) + 1
        _check_cells("domineering", height * width, f"a board spanning {height:,} x {width:,} cells"
                     if max(height, width) < 10**15 else "the board")
        rows = [0] * (max(r for r, _ in cells) + 1)
        for r, c in cells:
            rows[r] |= 1 << c
        return tuple(rows)

    @staticmethod
    def check_position(position: Any) -> None:
        """Refuse what is not a position: a tuple of non-negative ``int`` rows spanning at
        most :data:`MAX_CELLS` cells (:class:`~cgtalg.errors.RulesetError`,
        :class:`~cgtalg.errors.ComputationLimitError`)."""
        if not isinstance(position, tuple) or not all(
                isinstance(r, int) and not isinstance(r, bool) and r >= 0 for r in position):
            raise RulesetError(f"domineering: a position is a tuple of non-negative int rows "
                               f"(bit c set: cell in column c free), got {_short(position)}; "
                               "Domineering.rectangle and parse_position make them")
        width = max((r.bit_length() for r in position), default=0)
        _check_cells("domineering", len(position) * width, f"a board of {len(position):,} rows "
                     f"and {width:,} columns")

    @staticmethod
    def cells(position: Rows) -> frozenset[Cell]:
        """The free cells ``(row, col)`` of a position."""
        return frozenset((r, c) for r, row in enumerate(position) for c in range(row.bit_length())
                         if row >> c & 1)

    def left_moves(self, position: Rows) -> Iterable[Rows]:
        for r in range(len(position) - 1):
            both = position[r] & position[r + 1]
            while both:
                b = both & -both
                both ^= b
                yield position[:r] + (position[r] ^ b, position[r + 1] ^ b) + position[r + 2:]

    def right_moves(self, position: Rows) -> Iterable[Rows]:
        for r, row in enumerate(position):
            pairs = row & (row >> 1)
            while pairs:
                b = pairs & -pairs
                pairs ^= b
                yield position[:r] + (row ^ (b | b << 1),) + position[r + 1:]

    def components(self, position: Rows) -> list[Rows] | None:
        """The 4-connected regions of free cells (a cell with no free neighbour is dropped:
        nobody can ever use it), each normalised."""
        # flood fill on the board flattened to one integer, rows (width + 1) bits apart so
        # that a zero guard bit separates the end of a row from the start of the next
        width = 0
        for row in position:
            width = max(width, row.bit_length())
        step = width + 1
        flat = 0
        for r, row in enumerate(position):
            flat |= row << (r * step)
        board = flat
        mask = (1 << width) - 1
        n = len(position)
        parts = []
        while flat:
            comp = flat & -flat
            while True:
                grow = (comp | comp << 1 | comp >> 1 | comp << step | comp >> step) & board
                if grow == comp:
                    break
                comp = grow
            flat ^= comp
            if comp.bit_count() > 1:
                parts.append(self.normalize(tuple((comp >> (r * step)) & mask for r in range(n))))
        return parts

    def kernel_form(self, position: Rows, tick: Any = None) -> Any:
        """The canonical form searched wholly in the compiled partizan kernel (bitboard moves,
        components normalised and memoised in C: :func:`cgtalg.normal.partizan_kernel.domineering_form`),
        or None when the cropped board has more than 64 cells (rows × columns; the generic search
        runs then).
        :func:`partizan_form` calls it when the kernel is in use, with ``tick(solved)`` checking
        its limits every 256 components."""
        from cgtalg.normal import partizan_kernel

        rows = _crop_rows(tuple(position))
        width = max((r.bit_length() for r in rows), default=0)
        if len(rows) * width > partizan_kernel.DOMINEERING_MAX_CELLS:
            return None
        return partizan_kernel.domineering_form(rows, tick)

    @staticmethod
    def normalize(position: Rows) -> Rows:
        """The least of the cropped position's images under reversing rows and/or columns."""
        rows = _crop_rows(tuple(position))
        if not rows:
            return rows
        width = 0
        for r in rows:
            width = max(width, r.bit_length())
        flipped = tuple(_reverse_bits(r, width) for r in rows)
        return min(rows, rows[::-1], flipped, flipped[::-1])

    def format_position(self, position: Rows) -> str:
        """Rows of ``.`` (free) and ``#`` (filled) joined by ``|``, as CGSuite writes grids."""
        rows = _crop_rows(tuple(position))
        if not rows:
            return "empty"
        width = max(r.bit_length() for r in rows)
        return "|".join("".join("." if r >> c & 1 else "#" for c in range(width)) for r in rows)

    def parse_position(self, text: str) -> Rows:
        """``"3x4"`` (a rectangle) or rows of ``.``/``#`` separated by ``|``, ``/`` or newlines;
        at most :data:`MAX_CELLS` cells."""
        t = _check_text("domineering", text).strip().lower()
        if "x" in t or "×" in t:
            parts = [p.strip() for p in t.replace("×", "x").split("x")]
            if len(parts) != 2 or not all(p and p.isascii() and p.isdigit() for p in parts):
                raise RulesetError(f"domineering: a board size is written ROWSxCOLS with the "
                                   f"ASCII digits 0-9 (e.g. 8x8), got {_short(text)}")
            if any(len(p) > 30 for p in parts):  # int() of thousands of digits is slow
                raise ComputationLimitError(f"domineering: the board {_short(text)} has more "
                                            f"than {MAX_CELLS:,} cells {_LIMIT_HINT}")
            return self.rectangle(int(parts[0]), int(parts[1]))
        rows = [row for row in t.replace("\n", "|").replace("/", "|").split("|") if row]
        out = []
        for row in rows:
            bits = 0
            for c, ch in enumerate(row):
                if ch == ".":
                    bits |= 1 << c
                elif ch != "#":
                    raise RulesetError(f"domineering: unexpected {ch!r} in {_short(text)} (rows of . "
                                       "for free and # for filled cells, or ROWSxCOLS)")
            out.append(bits)
        self.check_position(tuple(out))
        return tuple(out)


# -- Hackenbush strings ---------------------------------------------------------------------------
class Hackenbush(PartizanRuleset):
    """Hackenbush strings: a position is a tuple of strings over ``L``/``R``/``G`` (Left's blue,
    Right's red, and green edges), each read from the ground up; removing edge ``i`` removes
    the edges above it too (Winning Ways ch. 1-2)."""

    name = "hackenbush"
    example = "LRR"

    def _cuts(self, position: tuple[str, ...], colours: str) -> Iterable[tuple[str, ...]]:
        for k, s in enumerate(position):
            rest = position[:k] + position[k + 1:]
            for i, ch in enumerate(s):
                if ch in colours:
                    yield tuple(sorted(rest + ((s[:i],) if i else ())))

    def left_moves(self, position: tuple[str, ...]) -> Iterable[tuple[str, ...]]:
        return self._cuts(position, "LG")

    def right_moves(self, position: tuple[str, ...]) -> Iterable[tuple[str, ...]]:
        return self._cuts(position, "RG")

    def components(self, position: tuple[str, ...]) -> list[tuple[str, ...]] | None:
        return [(s,) for s in position if s]

    def format_position(self, position: tuple[str, ...]) -> str:
        return " ".join(position) or "0"

    @staticmethod
    def check_position(position: Any) -> None:
        """Refuse what is not a position: a tuple of strings over ``L``, ``R``, ``G`` with at
        most :data:`MAX_CELLS` edges in all."""
        if not isinstance(position, tuple) or not all(
                isinstance(t, str) and not set(t) - set("LRG") for t in position):
            raise RulesetError(f"hackenbush: a position is a tuple of strings over L, R and G, "
                               f"got {_short(position)}; parse_position reads text")
        _check_cells("hackenbush", sum(map(len, position)), "the position")

    def parse_position(self, text: str) -> tuple[str, ...]:
        """Strings over L, R, G (also B for blue) separated by spaces or commas; at most
        :data:`MAX_CELLS` edges in all."""
        text = _check_text("hackenbush", text)
        out = []
        for s in text.replace(",", " ").split():
            s = s.upper().replace("B", "L")
            if s == "0":
                continue
            if set(s) - set("LRG"):
                raise RulesetError(f"hackenbush: a string is made of L (blue), R (red) and G "
                                   f"(green) edges, got {_short(s)}")
            out.append(s)
        self.check_position(tuple(out))
        return tuple(sorted(out))


# -- Toads and Frogs ------------------------------------------------------------------------------
class ToadsAndFrogs(PartizanRuleset):
    """Toads and Frogs on a strip (Winning Ways ch. 1): ``T`` (Left) moves right, ``F`` (Right)
    moves left, one square into an empty square or jumping over one opposing piece."""

    name = "toads-and-frogs"
    example = "TT.FF"

    def left_moves(self, position: str) -> Iterable[str]:
        s = position
        for i, ch in enumerate(s):
            if ch != "T":
                continue
            if i + 1 < len(s) and s[i + 1] == ".":
                yield s[:i] + ".T" + s[i + 2:]
            elif i + 2 < len(s) and s[i + 1] == "F" and s[i + 2] == ".":
                yield s[:i] + ".FT" + s[i + 3:]

    def right_moves(self, position: str) -> Iterable[str]:
        s = position
        for i, ch in enumerate(s):
            if ch != "F":
                continue
            if i >= 1 and s[i - 1] == ".":
                yield s[:i - 1] + "F." + s[i + 1:]
            elif i >= 2 and s[i - 1] == "T" and s[i - 2] == ".":
                yield s[:i - 2] + "FT." + s[i + 1:]

    @staticmethod
    def check_position(position: Any) -> None:
        """Refuse what is not a position: a str over ``T``, ``F`` and ``.`` of at most
        :data:`MAX_CELLS` squares."""
        if not isinstance(position, str) or set(position) - set("TF."):
            raise RulesetError(f"toads-and-frogs: a position is a str over T, F and ., got "
                               f"{_short(position)}")
        _check_cells("toads-and-frogs", len(position), "the strip")

    def parse_position(self, text: str) -> str:
        s = _check_text("toads-and-frogs", text).strip().upper().replace("_", ".")
        if set(s) - set("TF."):
            raise RulesetError(f"toads-and-frogs: a strip is made of T, F and ., got {_short(text)}")
        self.check_position(s)
        return s


# -- Clobber --------------------------------------------------------------------------------------
Grid = tuple[str, ...]


def _dihedral(rows: Grid) -> list[Grid]:
    """The 8 images of a rectangular grid of characters under rotations and reflections."""
    out = []
    g = rows
    for _ in range(4):
        out.append(g)
        out.append(tuple(r[::-1] for r in g))
        # rotate a quarter turn: new row i is old column i read bottom-up
        g = tuple("".join(g[len(g) - 1 - r][c] for r in range(len(g))) for c in range(len(g[0]))) if g else g
    return out


def _crop(cells: dict[Cell, str]) -> Grid:
    if not cells:
        return ()
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    return tuple("".join(cells.get((r, c), ".") for c in range(min(cols), max(cols) + 1))
                 for r in range(min(rows), max(rows) + 1))


class Clobber(PartizanRuleset):
    """Clobber (Albert, Grossman, Nowakowski and Wolfe 2005) on a grid: ``x`` is Left's stone,
    ``o`` Right's, ``.`` empty; a move puts one's stone onto an orthogonally adjacent opponent
    stone, which is removed (the square left is empty). Positions are tuples of equal-length
    rows, written ``"xox|ox."`` as CGSuite does; a strip is one row."""

    name = "clobber"
    example = "xox|ox."

    def _moves(self, g: Grid, me: str, them: str) -> Iterable[Grid]:
        for r, row in enumerate(g):
            for c, ch in enumerate(row):
                if ch != me:
                    continue
                for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                    if 0 <= rr < len(g) and 0 <= cc < len(g[rr]) and g[rr][cc] == them:
                        rows = [list(x) for x in g]
                        rows[r][c] = "."
                        rows[rr][cc] = me
                        yield tuple("".join(x) for x in rows)

    def left_moves(self, position: Grid) -> Iterable[Grid]:
        return self._moves(position, "x", "o")

    def right_moves(self, position: Grid) -> Iterable[Grid]:
        return self._moves(position, "o", "x")

    def components(self, position: Grid) -> list[Grid] | None:
        """The 4-connected groups of stones that hold both colours (a group of one colour has no
        move for anyone: 0), each normalised."""
        stones = {(r, c): ch for r, row in enumerate(position) for c, ch in enumerate(row) if ch != "."}
        out = []
        while stones:
            start, ch = stones.popitem()
            comp = {start: ch}
            stack = [start]
            while stack:
                r, c = stack.pop()
                for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                    if nb in stones:
                        comp[nb] = stones.pop(nb)
                        stack.append(nb)
            if len(set(comp.values())) == 2:
                out.append(self.normalize(_crop(comp)))
        return out

    def kernel_form(self, position: Grid, tick: Any = None) -> Any:
        """The canonical form searched wholly in the compiled partizan kernel on bitboards
        (:func:`cgtalg.normal.partizan_kernel.grid_form`), or None for a grid larger than 8 x 8.
        :func:`partizan_form` calls it when the kernel is in use, with ``tick(solved)`` checking
        its limits every 256 components."""
        from cgtalg.normal import partizan_kernel

        return partizan_kernel.grid_form("clobber", tuple(position), tick)

    @staticmethod
    def normalize(position: Grid) -> Grid:
        """The least of the cropped position's 8 images under the grid's symmetries (all keep
        the rules)."""
        cells = {(r, c): ch for r, row in enumerate(position) for c, ch in enumerate(row) if ch != "."}
        g = _crop(cells)
        return min(_dihedral(g)) if g else g

    def format_position(self, position: Grid) -> str:
        return "|".join(position) or "empty"

    @staticmethod
    def check_position(position: Any) -> None:
        """Refuse what is not a position: a tuple of equal-length strings over ``x``, ``o``
        and ``.`` of at most :data:`MAX_CELLS` squares."""
        if (not isinstance(position, tuple) or not all(isinstance(r, str) for r in position)
                or set("".join(position)) - set("xo.") or len({len(r) for r in position}) > 1):
            raise RulesetError(f"clobber: a position is a tuple of equal-length strings over x, o "
                               f"and ., got {_short(position)}; parse_position reads text")
        _check_cells("clobber", len(position) * (len(position[0]) if position else 0), "the grid")

    def parse_position(self, text: str) -> Grid:
        """Rows separated by ``|`` or ``/`` (``"xox|ox."``); ``x``/``b`` Left, ``o``/``w`` Right."""
        s = _check_text("clobber", text).strip().lower().replace("b", "x").replace("w", "o").replace("/", "|")
        rows = tuple(s.split("|"))
        if set("".join(rows)) - set("xo.") or len({len(r) for r in rows}) > 1:
            raise RulesetError(f"clobber: rows of equal length over x (Left), o (Right) and ., "
                               f"got {_short(text)}")
        self.check_position(rows)
        return rows


def _konane() -> Any:
    from cgtalg.rulesets.partizan.konane import Konane  # (its own module: it reuses this one's helpers)

    return Konane()


#: the rulesets this module registers: name -> (factory, description); ``cgtalg value`` looks a
#: name up here first (without loading every ruleset plugin), then in the registry
PARTIZAN_RULESETS: dict[str, tuple[Any, str]] = {
    "domineering": (Domineering, "Domineering: Left vertical, Right horizontal dominoes"),
    "hackenbush": (Hackenbush, "Hackenbush strings over L (blue), R (red), G (green)"),
    "toads-and-frogs": (ToadsAndFrogs, "Toads and Frogs on a strip (T Left, F Right)"),
    "clobber": (Clobber, "Clobber on a grid: x (Left) and o (Right) stones"),
    "konane": (_konane, "Konane on a grid: x (Left) and o (Right) stones jump and capture"),
}


def _register() -> None:
    from cgtalg.rulesets.registry import register_ruleset

    for name, (factory, description) in PARTIZAN_RULESETS.items():
        register_ruleset(name, factory, description)


_register()
