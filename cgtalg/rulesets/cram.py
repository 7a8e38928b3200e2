"""Cram (impartial Domineering; Winning Ways ch. 22; Gardner 1974): players in turn place a
domino, in either orientation, on two empty adjacent cells; in normal play the player who
cannot place one loses, in misère play wins.

A board falls apart into its connected sets of empty cells, so Cram is a component game
(:mod:`cgtalg.rulesets.component_games`). A component is kept as a canonical text: its rows
from top to bottom joined by ``/``, ``x`` an empty cell and ``.`` a cell that is not
(``"xxx/x.."``), translated to its bounding box and chosen least among its images under the
strip's symmetries (the two reflections). The family ``cram:HxN`` (``H`` = 1, 2, 3, ...) is Cram
on strips of height ``H``: its component types are the connected sets of cells of height at
most ``H``. On ``1×n`` strips a domino takes two adjacent cells of a row and leaves two rows:
Dawson's Kayles, the octal game 0.07 (Winning Ways ch. 4).

>>> from cgtalg.rulesets.component_games import component_grundy
>>> c = Cram(2)
>>> c.rectangle(2, 3), [component_grundy(c, c.rectangle(2, n)) for n in range(1, 8)]
(('xxx/xxx',), [1, 0, 1, 0, 1, 0, 1])
>>> len(c.component_types(4))        # the connected sets of 4 cells of height <= 2
5
"""

from __future__ import annotations

import re
from typing import Any, Iterable

from cgtalg.caches import register_cache
from cgtalg.errors import ComputationLimitError, RulesetError, shorten
from cgtalg.rulesets.component_games import ComponentRuleset

__all__ = ["Cram", "cram_key", "cells_of", "cram_components"]

Cell = tuple[int, int]

#: the most cells a board may have when made by :meth:`Cram.rectangle` or read from text
MAX_CELLS = 100_000


def cram_key(cells: Iterable[Cell], dihedral: bool = False) -> str:
    """The canonical key of a connected set of cells ``(row, column)``: translated to its
    bounding box, the least text among its images under the two reflections (with
    ``dihedral``, under all eight symmetries of the square grid: the key of boards of any
    height, where a piece may also be turned a quarter).

    >>> cram_key([(5, 7), (5, 8), (6, 7)]), cram_key([(0, 0), (1, 0), (1, 1)])
    ('.x/xx', '.x/xx')
    >>> cram_key([(0, 0), (0, 1), (0, 2)]), cram_key([(0, 0), (1, 0), (2, 0)], dihedral=True)
    ('xxx', 'x/x/x')
    """
    cells = list(cells)
    if not cells:
        raise RulesetError("a Cram component has at least one cell")
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    shape = frozenset((r - r0, c - c0) for r, c in cells)
    memo = _KEYS[dihedral]
    got = memo.get(shape)
    if got is None:
        h = max(r for r, _ in shape) + 1
        w = max(c for _, c in shape) + 1
        rows = ["".join("x" if (r, c) in shape else "." for c in range(w)) for r in range(h)]
        grids = [rows]
        if dihedral:
            grids.append(["".join(row[c] for row in rows) for c in range(w)])   # the transpose
        out = []
        for g in grids:
            back = [row[::-1] for row in g]
            out += ["/".join(g), "/".join(back), "/".join(g[::-1]), "/".join(back[::-1])]
        got = min(out)
        if len(memo) > 1_000_000:
            memo.clear()
        memo[shape] = got
    return got


#: translated shape -> key, for the two kinds of key (memo of :func:`cram_key`)
_KEYS: dict[bool, dict[frozenset, str]] = {False: {}, True: {}}


@register_cache("rulesets.cram keys")
def _clear_keys() -> None:
    for memo in _KEYS.values():
        memo.clear()


def cells_of(key: str) -> list[Cell]:
    """The cells of a component key."""
    return [(r, c) for r, row in enumerate(key.split("/")) for c, ch in enumerate(row) if ch == "x"]


def cram_components(cells: Iterable[Cell], dihedral: bool = False) -> list[str]:
    """The keys of the connected pieces of a set of empty cells (a board), sorted (keys as
    :func:`cram_key` makes them)."""
    left = set(cells)
    out = []
    while left:
        start = left.pop()
        piece = [start]
        stack = [start]
        while stack:
            r, c = stack.pop()
            for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if nb in left:
                    left.remove(nb)
                    piece.append(nb)
                    stack.append(nb)
        out.append(cram_key(piece, dihedral))
    return sorted(out)


class Cram(ComponentRuleset):
    """Cram on strips of height ``height`` (module docstring): ``name`` is ``cram:<H>xn``;
    ``Cram(None)`` is Cram on boards of any shape (``name`` ``"cram"``), its pieces keyed up to
    all eight symmetries of the grid.

    Positions are sorted tuples of component keys; :meth:`rectangle`, :meth:`board` and
    :meth:`parse_position` (``"3x5"``, ``"xxx/x.x + xx"``) make them from boards.

    Examples
    --------
    >>> from cgtalg.rulesets.component_games import component_grundy
    >>> cram = Cram(None)
    >>> cram.parse_position("3x2"), cram.parse_position("xx./..x")
    (('xx/xx/xx',), ('x', 'x/x'))
    >>> [component_grundy(cram, cram.rectangle(3, n)) for n in range(1, 6)]
    [1, 1, 0, 1, 1]
    """

    def __init__(self, height: int | None = 2) -> None:
        super().__init__()
        if height is not None and (isinstance(height, bool) or not isinstance(height, int) or height < 1):
            raise RulesetError(f"Cram strips have a height >= 1 (or None: any board), not {shorten(height)}")
        self.height = height
        self.name = "cram" if height is None else f"cram:{height}xn"
        self._dihedral = height is None
        self._types: dict[int, list[str]] = {}

    def key(self, cells: Iterable[Cell]) -> str:
        """The key of a connected set of cells in this family (:func:`cram_key`)."""
        return cram_key(cells, self._dihedral)

    def parse_position(self, text: str) -> tuple[str, ...]:
        """A board: ``RxC`` (the empty rectangle, e.g. ``3x5``), or pieces joined by ``+``, each
        rows of ``x`` (empty) and ``.`` (filled) separated by ``/`` or ``|`` (a piece that falls
        apart is split); ``0`` is the empty board.

        Raises
        ------
        RulesetError
            For another character (named), or a piece taller than the family's strips.
        """
        if not isinstance(text, str):
            raise RulesetError(f"{self.name}: a position text is a str, not {type(text).__name__}")
        t = text.strip().lower().replace("×", "x")
        if len(t) > 2 * MAX_CELLS:
            raise ComputationLimitError(f"{self.name}: the position text is {len(t):,} characters long, beyond "
                                        f"the limit of {MAX_CELLS:,} cells (cgtalg.rulesets.cram.MAX_CELLS)")
        m = re.fullmatch(r"([0-9]{1,4})\s*x\s*([0-9]{1,4})", t)
        if m:
            return self.rectangle(int(m.group(1)), int(m.group(2)))
        if t in ("", "0"):
            return ()
        cells: list[Cell] = []
        row0 = 0
        for part in t.split("+"):
            rows = [r.strip() for r in part.strip().replace("|", "/").split("/")]
            for i, row in enumerate(rows):
                for j, ch in enumerate(row):
                    if ch == "x":
                        cells.append((row0 + i, j))
                    elif ch != ".":
                        raise RulesetError(f"{self.name}: unexpected {ch!r} in {shorten(text)} (a board is "
                                           "RxC, or rows of x (empty) and . (filled) joined by /, pieces by +)")
            row0 += len(rows) + 1      # a blank row keeps the pieces apart
        return self.board(cells)

    def check_component(self, key: Any) -> str:
        if not isinstance(key, str) or not key or set(key) - {"x", ".", "/"}:
            raise RulesetError(f"{self.name}: a component is a text of rows of x (empty) and . "
                               f"joined by / (such as 'xxx/x..'), not {shorten(key)}")
        cells = cells_of(key)
        if not cells or cram_components(cells, self._dihedral) != [self.key(cells)]:
            raise RulesetError(f"{self.name}: {shorten(key)} is not one connected set of cells")
        return self.key(cells)

    def component_size(self, key: str) -> int:
        return key.count("x")

    def options_of_component(self, key: str) -> Iterable[tuple[str, ...]]:
        cells = set(cells_of(key))
        for r, c in cells:
            for other in ((r, c + 1), (r + 1, c)):
                if other in cells:
                    yield tuple(cram_components(cells - {(r, c), other}, self._dihedral))

    def component_types(self, size: int) -> list[str]:
        """The connected sets of ``size`` cells of height ``<= height`` (of any shape for
        ``Cram(None)``), sorted by key. (Each
        such set is one of ``size - 1`` cells with a cell added: a leaf of a spanning tree
        can be taken away.)"""
        if size < 1:
            return []
        got = self._types.get(size)
        if got is not None:
            return got
        if size == 1:
            got = ["x"]
        else:
            found = set()
            for key in self.component_types(size - 1):
                cells = set(cells_of(key))
                for r, c in cells:
                    for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                        if nb in cells:
                            continue
                        rows = [x for x, _ in cells] + [nb[0]]
                        if self.height is not None and max(rows) - min(rows) + 1 > self.height:
                            continue
                        found.add(self.key(cells | {nb}))
            got = sorted(found)
        self._types[size] = got
        return got

    def board(self, cells: Iterable[Cell]) -> tuple[str, ...]:
        """The position of a board given by its empty cells ``(row, column)``."""
        cells = [(int(r), int(c)) for r, c in cells]
        pos = tuple(cram_components(cells, self._dihedral))
        for k in pos:
            if self.height is not None and k.count("/") + 1 > self.height:
                raise RulesetError(f"{self.name}: the board has a piece of height > {self.height}")
        return pos

    def rectangle(self, rows: int, cols: int) -> tuple[str, ...]:
        """The empty ``rows × cols`` board (``()`` when it has no cell; at most
        :data:`MAX_CELLS` cells, else :class:`~cgtalg.errors.ComputationLimitError`)."""
        if rows * cols > MAX_CELLS:
            raise ComputationLimitError(
                f"{self.name}: a {rows:,} x {cols:,} board has more than {MAX_CELLS:,} cells "
                "(cgtalg.rulesets.cram.MAX_CELLS)")
        return self.board((r, c) for r in range(rows) for c in range(cols))


def _cram(arg: str) -> Cram:
    a = arg.strip().lower()
    if a.endswith("xn") and a[:-2].isdigit() and a[:-2].isascii() and int(a[:-2]) >= 1:
        return Cram(int(a[:-2]))
    raise RulesetError(f"bad Cram family 'cram:{arg}': expected cram:1xn, cram:2xn or cram:3xn "
                       "(strips of that height)")


def _register() -> None:
    from cgtalg.rulesets.registry import register_family, register_ruleset

    register_ruleset("cram", lambda: Cram(None), "Cram (impartial dominoes) on boards of any shape: 3x5, xxx/x.x")
    register_family("cram", _cram, "cram:Hxn  Cram (impartial dominoes) on strips of height H")


_register()
