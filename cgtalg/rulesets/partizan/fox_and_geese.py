"""Fox and Geese (Winning Ways ch. 20), CGSuite's GenFoxAndGeese and Ceylonese Fox and Geese.

Rules (Berlekamp, Conway and Guy, *Winning Ways*, ch. 20 "Fox and Geese"; the board and the
coordinates are CGSuite's, read from the documentation of its ``game.grid.GenFoxAndGeese`` and
``game.grid.constants`` in ``lib/core/src/main/resources/org/cgsuite/lang/resources/game/grid/``):

* the game is played on the dark squares of a board ``board_width`` columns wide (8, a
  checkerboard, by default) that is unbounded upwards; a square is ``(row, col)`` with
  ``row >= 1`` counted from the bottom, ``1 <= col <= board_width``, and ``row + col`` even (the
  dark squares);
* **Left** moves the **geese**: one goose one square diagonally *forward*, that is down, to
  ``(row - 1, col ± 1)``, onto an empty square of the board;
* **Right** moves the **fox**: one square diagonally in any of the four directions onto an
  empty square. In ``GenFoxAndGeese(fox_range=k)`` the fox moves up to ``k`` squares along one
  diagonal, never changing direction and never jumping over a goose; **Ceylonese Fox and
  Geese** is ``fox_range=2`` (CGSuite's ``CeyloneseFoxAndGeese``);
* there are no captures; the player who cannot move loses (normal play). The fox can move
  back to a square it has left, so the game is loopy (Winning Ways ch. 11, 20).

Values. Geese only move down, so the sum of the geese's rows falls with every Left move: Left
has finitely many moves in all and no play alternates for ever, so every position is a
*stopper* and has a canonical stopper (Siegel, *Combinatorial Game Theory* (2013), VI.2),
printed as CGSuite prints ``GameValue``. When the fox is on or above the geese's highest row
``m``, or on row ``m - 1`` with an empty square of row ``m`` diagonally above it, the fox has
escaped: squares of row ``m`` and above are never entered by a goose again, so the fox can move
for ever while the geese run out of moves, and the position is ``off`` (Right survives ``G - off``
and Left survives ``off - G`` moving second: Winning Ways ch. 20 treats an escaped fox as a win
for the fox; CGSuite's ``FoxAndGeese`` splits off the same positions as ``off``). Every other
position has the fox below the geese, so its game graph is finite.

:func:`GenFoxAndGeese.game_value` builds that graph with iterative code and finds the canonical
stoppers layer by layer: positions with the same geese form a layer, in which only the fox
moves; Left's moves go to layers whose geese's rows sum to less, so the layers are evaluated in
increasing order of that sum, each from the simplified forms of the layers below (replacing an
option by an equal stopper keeps a stopper's value; a layer is simplified with one comparison
table, :func:`stopper_le`), and the start's form is made canonical at the end by
:func:`cgtalg.normal.loopy_simplify.canonical_stopper`. Measured on 2 shared cores: the 8x8 start
``{(4,2),(4,4),(4,6),(4,8)}, (1,1)`` (7,257 positions, 1,314 layers) takes about 6 s, its
Ceylonese form about 6 s.

Text. A position is written as CGSuite draws it: rows of the board from the top down, ``x`` a
goose (Left), ``o`` the fox (Right), ``.`` an empty square, rows separated by ``|``; the bottom
row is row 1 and every row is ``board_width`` squares long (``"x.x.x.x.|........|.o......"``).
CGSuite's constructor arguments are read too: ``{(4,2),(4,4),(4,6),(4,8)}, (1,1)`` (geese, then
the fox, as ``(row, col)``).

Values are checked in ``tests/test_fox_and_geese.py`` by play from the rules, by an independent
retrograde analysis of the loopy outcomes, and against CGSuite's
``lib/core/src/test/scala/org/cgsuite/lang/GameGridTest.scala``.

>>> f = FoxAndGeese()
>>> str(f.game_value(f.parse_position("{(4,2),(4,4),(4,6),(4,8)}, (1,1)")))
'{4*|7/2}'
"""

from __future__ import annotations

import re
from typing import Any, Iterable

from cgtalg.caches import register_cache
from cgtalg.core.loopy import LoopyGame, loopy_game, named_loopy, options_graph
from cgtalg.errors import ComputationLimitError, RulesetError, shorten
from cgtalg.rulesets.protocol import PartizanRuleset

__all__ = ["GenFoxAndGeese", "FoxAndGeese", "CeyloneseFoxAndGeese", "parse_gen_fox_and_geese", "stopper_le",
           "MAX_WIDTH", "MAX_ROWS", "MAX_STATES"]

#: the widest board accepted
MAX_WIDTH = 64
#: the highest row a piece may stand on when a position is read or checked
MAX_ROWS = 64
#: the most positions :meth:`GenFoxAndGeese.game_value` explores
MAX_STATES = 2_000_000

Cell = tuple[int, int]
Position = tuple[tuple[Cell, ...], Cell]

DIAGONALS = ((-1, -1), (-1, 1), (1, -1), (1, 1))   # down first: a depth-first walk meets a cycle soon
GOOSE_STEPS = ((-1, -1), (-1, 1))

_ESCAPED = -1


#: (board width, fox range, position) -> canonical stopper (emptied by cgtalg.clear_caches())
_VALUES: dict[tuple, LoopyGame] = register_cache("rulesets.fox_and_geese values", {})


class GenFoxAndGeese(PartizanRuleset):
    """Fox and Geese on a board ``board_width`` wide with a fox of range ``fox_range`` (module
    docstring). A position is ``(geese, fox)``: a sorted tuple of the geese's ``(row, col)``
    squares and the fox's square.

    Parameters
    ----------
    board_width : int
        The number of columns (``2 <= board_width <=`` :data:`MAX_WIDTH`; default 8).
    fox_range : int
        How far the fox may move along a diagonal in one move (``>= 1``; default 1).
    name : str, optional
        The ruleset's name (default ``gen-fox-and-geese`` followed by the rules that differ
        from Fox and Geese's, the text :func:`parse_gen_fox_and_geese` reads).

    Examples
    --------
    >>> g = GenFoxAndGeese()
    >>> p = g.parse_position("x.x.....|........|o.......")
    >>> p
    (((3, 1), (3, 3)), (1, 1))
    >>> [g.format_position(q) for q in g.left_moves(p)]
    ['..x.....|.x......|o.......', 'x.......|.x......|o.......', 'x.......|...x....|o.......']
    >>> [g.format_position(q) for q in g.right_moves(p)]
    ['x.x.....|.o......|........']
    """

    example = "x.x.x.x.|........|........|o......."
    partizan = True

    def __init__(self, board_width: int = 8, fox_range: int = 1, name: str | None = None) -> None:
        for what, value, low in (("board_width", board_width, 2), ("fox_range", fox_range, 1)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise RulesetError(f"gen-fox-and-geese: {what} is an integer, got {shorten(value, 40)}")
            if value < low:
                raise RulesetError(f"gen-fox-and-geese: {what} must be >= {low}, got {value}")
        if board_width > MAX_WIDTH:
            raise ComputationLimitError(f"gen-fox-and-geese: board_width {board_width} is more than the limit "
                                        f"of {MAX_WIDTH} (cgtalg.rulesets.partizan.fox_and_geese.MAX_WIDTH)")
        self.board_width = board_width
        self.fox_range = fox_range
        self.name = name or "gen-fox-and-geese" + (":" + self.rules_text() if self.rules_text() else "")

    def rules_text(self) -> str:
        """The rules that differ from Fox and Geese's, as :func:`parse_gen_fox_and_geese` reads them."""
        parts = []
        if self.board_width != 8:
            parts.append(f"width={self.board_width}")
        if self.fox_range != 1:
            parts.append(f"range={self.fox_range}")
        return ",".join(parts)

    # -- moves -----------------------------------------------------------------------------------
    def _on_board(self, r: int, c: int) -> bool:
        return r >= 1 and 1 <= c <= self.board_width

    def left_moves(self, position: Position) -> Iterable[Position]:
        """Each goose one square diagonally down onto an empty square of the board."""
        geese, fox = position
        occupied = set(geese)
        out = []
        for g in geese:
            for dr, dc in GOOSE_STEPS:
                to = (g[0] + dr, g[1] + dc)
                if self._on_board(*to) and to != fox and to not in occupied:
                    out.append((tuple(sorted((occupied - {g}) | {to})), fox))
        return out

    def right_moves(self, position: Position) -> Iterable[Position]:
        """The fox up to ``fox_range`` squares along a diagonal, over empty squares only."""
        geese, fox = position
        occupied = set(geese)
        out = []
        for dr, dc in DIAGONALS:
            for k in range(1, self.fox_range + 1):
                to = (fox[0] + k * dr, fox[1] + k * dc)
                if not self._on_board(*to) or to in occupied:
                    break
                out.append((geese, to))
        return out

    def escaped(self, position: Position) -> bool:
        """Whether the fox has got past the geese (module docstring): then the position is ``off``."""
        geese, (r, c) = position
        if not geese:
            return True
        top = max(g[0] for g in geese)
        if r >= top:
            return True
        return r == top - 1 and any(1 <= c + dc <= self.board_width and (top, c + dc) not in geese
                                    for dc in (-1, 1))

    # -- values ----------------------------------------------------------------------------------
    def game_value(self, position: Position) -> LoopyGame:
        """The canonical stopper of a position (CGSuite's ``GameValue``; module docstring).

        Raises
        ------
        ComputationLimitError
            When more than :data:`MAX_STATES` positions would be explored.
        """
        self.check_position(position)
        key = (self.board_width, self.fox_range, position)
        found = _VALUES.get(key)
        if found is None:  # each door asks again (canonical form, outcome, stops): solved once
            found = _VALUES[key] = _Solver(self, position).run()
        return found

    def states(self, position: Position) -> int:
        """The number of positions (fox not escaped) :meth:`game_value` explores from ``position``."""
        self.check_position(position)
        return len(_Solver(self, position).explore())

    # -- text ------------------------------------------------------------------------------------
    def format_position(self, position: Position) -> str:
        geese, fox = position
        top = max([fox[0]] + [g[0] for g in geese])
        cells = {g: "x" for g in geese}
        cells[fox] = "o"
        return "|".join("".join(cells.get((r, c), ".") for c in range(1, self.board_width + 1))
                        for r in range(top, 0, -1))

    def check_position(self, position: Any) -> None:
        """Refuse what is not a position: ``(geese, fox)`` with the geese a sorted tuple of
        distinct dark squares ``(row, col)`` (``row + col`` even), the fox a dark square not
        under a goose (:class:`~cgtalg.errors.RulesetError`), rows at most :data:`MAX_ROWS`
        (:class:`~cgtalg.errors.ComputationLimitError`)."""
        def bad(why: str) -> RulesetError:
            return RulesetError(f"{self.name}: {why}, got {shorten(position, 60)}; a position is (geese, fox) "
                                "with (row, col) squares, row + col even; parse_position reads text")

        if not (isinstance(position, tuple) and len(position) == 2 and isinstance(position[0], tuple)):
            raise bad("a position is a pair (tuple of geese, fox)")
        geese, fox = position
        for sq in geese + (fox,):
            if not (isinstance(sq, tuple) and len(sq) == 2 and all(type(v) is int for v in sq)):
                raise bad(f"{shorten(sq, 30)} is not a (row, col) pair of integers")
            if not self._on_board(*sq) or (sq[0] + sq[1]) % 2:
                raise bad(f"{sq} is not a dark square of the board (1 <= col <= {self.board_width}; "
                          "row >= 1; row + col even)")
            if sq[0] > MAX_ROWS:
                raise ComputationLimitError(f"{self.name}: row {sq[0]} is beyond the limit of {MAX_ROWS} rows "
                                            "(cgtalg.rulesets.partizan.fox_and_geese.MAX_ROWS)")
        if list(geese) != sorted(set(geese)):
            raise bad("the geese are a sorted tuple of distinct squares")
        if fox in geese:
            raise bad(f"the fox and a goose are both on {fox}")

    def parse_position(self, text: str) -> Position:
        """A board drawn as rows from the top down over ``x`` (goose), ``o`` (fox) and ``.``,
        separated by ``|``, ``/`` or new lines, each ``board_width`` squares long, the bottom
        row being row 1; or CGSuite's arguments ``{(row,col), ...}, (row,col)`` (geese, fox),
        optionally inside ``FoxAndGeese(...)``.

        Raises
        ------
        RulesetError
            For another character, a row of the wrong length, a piece on a light square, no
            fox or two foxes (named with its row and column).
        """
        if not isinstance(text, str):
            raise RulesetError(f"{self.name}: a position text is a str, not {type(text).__name__}")
        if len(text) > 4 * MAX_ROWS * (MAX_WIDTH + 1):
            raise ComputationLimitError(f"{self.name}: the position text is {len(text):,} characters long")
        t = text.strip()
        if "(" in t:
            return self._parse_cgsuite(text)
        rows = [row.strip() for row in t.replace("\n", "|").replace("/", "|").split("|")]
        n = len(rows)
        geese, foxes = [], []
        for i, row in enumerate(rows):
            r = n - i
            if len(row) != self.board_width:
                raise RulesetError(f"{self.name}: row {r} (line {i + 1}) of {shorten(text, 60)} has {len(row)} "
                                   f"squares; the board is {self.board_width} wide")
            for j, ch in enumerate(row):
                if ch == ".":
                    continue
                if ch not in "xo":
                    raise RulesetError(f"{self.name}: unexpected {ch!r} at row {r}, column {j + 1} of "
                                       f"{shorten(text, 60)} (x: goose, Left; o: fox, Right; . empty)")
                if (r + j + 1) % 2:
                    raise RulesetError(f"{self.name}: the {'goose' if ch == 'x' else 'fox'} at row {r}, column "
                                       f"{j + 1} of {shorten(text, 60)} is on a light square (row + col odd)")
                (geese if ch == "x" else foxes).append((r, j + 1))
        if len(foxes) != 1:
            raise RulesetError(f"{self.name}: {shorten(text, 60)} has {len(foxes)} foxes (o); there is one")
        pos = (tuple(sorted(geese)), foxes[0])
        self.check_position(pos)
        return pos

    def _parse_cgsuite(self, text: str) -> Position:
        t = text.strip()
        m = re.fullmatch(r"(?:\w+\s*\((.*)\)|(.*))", t, re.S)
        body = (m.group(1) if m.group(1) is not None else m.group(2)).strip()
        pair = r"\(\s*(\d+)\s*,\s*(\d+)\s*\)"
        m = re.fullmatch(r"\{\s*((?:%s\s*(?:,\s*%s\s*)*)?)\}\s*,\s*%s" % (pair, pair, pair), body)
        if m is None:
            raise RulesetError(f"{self.name}: cannot read {shorten(text, 60)}: expected CGSuite's arguments "
                               "{(row,col), ...}, (row,col) (the geese, then the fox) or a board 'x.x.|....|o...'")
        cells = [(int(a), int(b)) for a, b in re.findall(pair, body)]
        geese, fox = cells[:-1], cells[-1]
        for sq in cells:
            if not self._on_board(*sq) or (sq[0] + sq[1]) % 2:
                raise RulesetError(f"{self.name}: {sq} in {shorten(text, 60)} is not a dark square "
                                   f"(1 <= col <= {self.board_width}; row >= 1; row + col even)")
        pos = (tuple(sorted(set(geese))), fox)
        self.check_position(pos)
        return pos


class _Solver:
    """The game graph of one position, on integer codes, and its values layer by layer."""

    def __init__(self, ruleset: GenFoxAndGeese, position: Position) -> None:
        self.ruleset = ruleset
        self.start = position
        geese, fox = position
        w = ruleset.board_width
        self.top = top = max([g[0] for g in geese], default=0)
        # the dark squares of rows 1..top, bottom row first: a goose set is a bit mask
        self.squares = [(r, c) for r in range(1, top + 1) for c in range(1, w + 1) if (r + c) % 2 == 0]
        index = {sq: i for i, sq in enumerate(self.squares)}
        self.index = index
        self.row = [sq[0] for sq in self.squares]
        self.goose_to = [[index[(r - 1, c + dc)] for dc in (-1, 1) if r > 1 and 1 <= c + dc <= w]
                         for r, c in self.squares]
        # the fox's rays: squares along each diagonal up to fox_range, _ESCAPED above row top
        self.rays = []
        for r, c in self.squares:
            rays = []
            for dr, dc in DIAGONALS:
                ray = []
                for k in range(1, ruleset.fox_range + 1):
                    rr, cc = r + k * dr, c + k * dc
                    if rr < 1 or not 1 <= cc <= w:
                        break
                    if rr > top:
                        ray.append(_ESCAPED)
                        break
                    ray.append(index[(rr, cc)])
                rays.append(ray)
            self.rays.append(rays)
        # up[i]: the squares diagonally above square i (inside the board)
        self.up = [[index[(r + 1, c + dc)] for dc in (-1, 1) if r < top and 1 <= c + dc <= w]
                   for r, c in self.squares]

    def code(self, mask: int, fox: int) -> tuple[int, int] | None:
        """The state, or None when the fox has escaped."""
        if fox == _ESCAPED or not mask:
            return None
        top = self.row[mask.bit_length() - 1]
        r = self.row[fox]
        if r >= top:
            return None
        if r == top - 1 and any(not mask >> j & 1 for j in self.up[fox]):
            return None
        return (mask, fox)

    def moves(self, mask: int, fox: int) -> tuple[list, list]:
        left = []
        m = mask
        while m:
            low = m & -m
            i = low.bit_length() - 1
            m ^= low
            for j in self.goose_to[i]:
                if j != fox and not mask >> j & 1:
                    left.append(self.code(mask ^ low ^ (1 << j), fox))
        right = []
        for ray in self.rays[fox]:
            for j in ray:
                if j != _ESCAPED and mask >> j & 1:
                    break
                right.append(self.code(mask, j))
        return left, right

    def explore(self) -> dict:
        """Every state reached from the start: ``state -> (left options, right options)``,
        an escaped option being None."""
        geese, fox = self.start
        mask = sum(1 << self.index[g] for g in geese)
        first = None if self.ruleset.escaped(self.start) else (mask, self.index[fox])
        graph: dict = {}
        todo = [first] if first is not None else []
        while todo:
            s = todo.pop()
            if s in graph:
                continue
            if len(graph) >= MAX_STATES:
                raise ComputationLimitError(f"{self.ruleset.name}: more than {MAX_STATES:,} positions from "
                                            f"{shorten(self.ruleset.format_position(self.start), 60)} "
                                            "(cgtalg.rulesets.partizan.fox_and_geese.MAX_STATES)")
            opts = self.moves(*s)
            graph[s] = opts
            todo.extend(t for side in opts for t in side if t is not None and t not in graph)
        self.first = first
        return graph

    def run(self) -> LoopyGame:
        from cgtalg.normal.loopy_simplify import canonical_stopper

        graph = self.explore()
        off = named_loopy()["off"]
        if self.first is None:
            return off
        layers: dict[int, list] = {}
        for s in graph:
            layers.setdefault(s[0], []).append(s)

        def height(mask: int) -> int:
            return sum(self.row[i] for i in range(mask.bit_length()) if mask >> i & 1)

        value: dict = {None: off}
        layers_done: dict = {}
        for mask in sorted(layers, key=height):
            foxes = layers[mask]
            local = {s: k for k, s in enumerate(foxes)}
            games: list[LoopyGame] = []
            gid: dict[int, int] = {}
            for s in foxes:
                for t in graph[s][0]:
                    g = value[t]
                    if id(g) not in gid:
                        gid[id(g)] = len(games)
                        games.append(g)
            if id(off) not in gid:
                gid[id(off)] = len(games)
                games.append(off)
            union, starts = options_graph(games)
            base = len(union)
            nodes = list(union)
            for s in foxes:
                lo = sorted({starts[gid[id(value[t])]] for t in graph[s][0]})
                ro = sorted({starts[gid[id(off)]] if t is None else base + local[t] for t in graph[s][1]})
                nodes.append((lo, ro))
            # a chain c_k = {fox_k | c_(k+1)} makes the layer one graph, merged by its game
            # trees (equal layers are then the same graph, computed once)
            chain = len(nodes)
            for k in range(len(foxes)):
                nodes.append(([base + k], [chain + k + 1] if k + 1 < len(foxes) else []))
            layer = loopy_game(nodes, chain)
            got = layers_done.get(layer)
            if got is None:
                roots, c = [], 0
                while True:
                    roots.append(layer.graph[c][0][0])
                    if not layer.graph[c][1]:
                        break
                    c = layer.graph[c][1][0]
                simple = _simplify_roots(layer.graph, roots)
                got = layers_done[layer] = []
                got.extend(simple[r] for r in roots)
            for s, v in zip(foxes, got):
                value[s] = v
        # the layers' forms are simplified (each step keeps the value); the start's is made
        # canonical, and checked equal to it, by the library's canonical_stopper
        return canonical_stopper(value[self.first])


def stopper_le(graph: Any) -> list[list[bool]]:
    """``le[x][y]``: whether position ``x`` <= position ``y`` of a stopper graph, that is, Left
    survives ``y - x`` moving second (Siegel, CGT VI.2) -- what
    :func:`cgtalg.normal.loopy.le_matrix` gives with ``side='stopper'``, found here in one
    backward pass: the positions of ``y - x`` Right wins are those where Left, to move, has no
    move or only moves to such positions, or Right, to move, has a move to one.
    """
    n = len(graph)
    lefts = [lo for lo, _ in graph]
    rights = [ro for _, ro in graph]
    rev_l: list[list[int]] = [[] for _ in range(n)]
    rev_r: list[list[int]] = [[] for _ in range(n)]
    for v, (lo, ro) in enumerate(graph):
        for w in lo:
            rev_l[w].append(v)
        for w in ro:
            rev_r[w].append(v)
    nn = n * n
    # state x*n + y: y - x with Left to move (first nn) or Right to move (second nn)
    count = [len(lefts[y]) + len(rights[x]) for x in range(n) for y in range(n)]
    lost = bytearray(2 * nn)     # Right wins from here
    todo = [i for i in range(nn) if not count[i]]
    for i in todo:
        lost[i] = 1
    while todo:
        i = todo.pop()
        if i < nn:   # Left to move at (x, y) loses: Right moved here, y'->y (y in y'^R) or x'->x (x in x'^L)
            x, y = divmod(i, n)
            preds = [nn + x * n + w for w in rev_r[y]] + [nn + w * n + y for w in rev_l[x]]
            for j in preds:
                if not lost[j]:
                    lost[j] = 1
                    todo.append(j)
        else:        # Right to move at (x, y) wins: Left moved here, y'->y (y in y'^L) or x'->x (x in x'^R)
            x, y = divmod(i - nn, n)
            preds = [x * n + w for w in rev_l[y]] + [w * n + y for w in rev_r[x]]
            for j in preds:
                if not lost[j]:
                    count[j] -= 1
                    if not count[j]:
                        lost[j] = 1
                        todo.append(j)
    return [[not lost[nn + x * n + y] for y in range(n)] for x in range(n)]


def _simplify_roots(nodes: list, roots: Iterable[int]) -> dict[int, LoopyGame]:
    """The games at ``roots`` of the stopper graph ``nodes``, simplified together.

    The order of every pair of positions is found once (:func:`cgtalg.normal.loopy.le_matrix`);
    then, at every position, reversible options are bypassed and dominated options removed,
    and equal positions are fused, until nothing changes (Siegel, CGT VI.2; each step keeps the
    value of every position). The caller passes each result through
    :func:`~cgtalg.normal.loopy_simplify.canonical_stopper`, which makes it canonical and checks
    it; simplifying the layer at once needs one comparison table for all its positions
    instead of one per position.
    """
    graph = [(list(lo), list(ro)) for lo, ro in nodes]
    le = stopper_le(nodes)
    n = len(graph)

    def below(a: int, b: int, mover: int) -> bool:  # a is no better than b for mover
        return le[a][b] if mover == 0 else le[b][a]

    rep = list(range(n))
    changed = True
    while changed:
        changed = False
        for v in range(n):
            for mover in (0, 1):
                # reversible: a Left option a with some a^R <= v (dually for Right) is
                # replaced by that a^R's Left options
                opts = graph[v][mover]
                for a in opts:
                    r = next((r for r in graph[a][1 - mover]
                              if r != v and below(r, v, mover) and a not in graph[r][mover]), None)
                    if r is not None:
                        new = [o for o in opts if o != a]
                        new += [o for o in graph[r][mover] if o != a and o not in new]
                        graph[v] = (new, graph[v][1]) if mover == 0 else (graph[v][0], new)
                        changed = True
                        break
                opts = graph[v][mover]
                keep = [a for a in opts if not any(b != a and below(a, b, mover) and (not below(b, a, mover) or b < a)
                                                   for b in opts)]
                if len(keep) != len(opts):
                    graph[v] = (keep, graph[v][1]) if mover == 0 else (graph[v][0], keep)
                    changed = True
        if not changed:  # fuse equal positions
            rep = [next(u for u in range(v + 1) if le[u][v] and le[v][u]) for v in range(n)]
            fused = [(sorted({rep[w] for w in lo}), sorted({rep[w] for w in ro})) for lo, ro in graph]
            if fused != graph:
                graph = fused
                changed = True
    return {v: loopy_game(graph, rep[v]) for v in roots}


class FoxAndGeese(GenFoxAndGeese):
    """Fox and Geese (Winning Ways ch. 20; CGSuite ``game.grid.FoxAndGeese``): an 8-wide board,
    the fox moves one square."""

    def __init__(self) -> None:
        super().__init__(8, 1, name="fox-and-geese")


class CeyloneseFoxAndGeese(GenFoxAndGeese):
    """Ceylonese Fox and Geese (CGSuite ``game.grid.CeyloneseFoxAndGeese`` =
    ``GenFoxAndGeese(foxRange => 2)``): the fox moves up to two squares along a diagonal."""

    def __init__(self) -> None:
        super().__init__(8, 2, name="ceylonese-fox-and-geese")


_KEYS = {"width": "board_width", "range": "fox_range"}


def parse_gen_fox_and_geese(arg: str) -> GenFoxAndGeese:
    """The ruleset ``gen-fox-and-geese:ARG``: comma-separated ``width=N`` (board width) and
    ``range=N`` (the fox's range).

    >>> parse_gen_fox_and_geese("width=10").name
    'gen-fox-and-geese:width=10'

    Raises
    ------
    RulesetError
        For an unknown or repeated key, or a value that is not a positive integer.
    """
    kw: dict[str, int] = {}
    for item in [p.strip() for p in arg.split(",") if p.strip()]:
        key, eq, value = item.partition("=")
        key, value = key.strip().lower(), value.strip()
        if key not in _KEYS or not eq:
            raise RulesetError(f"bad ruleset 'gen-fox-and-geese:{shorten(arg, 60)[1:-1]}': expected width=N "
                               f"or range=N, got {shorten(item, 40)}")
        if _KEYS[key] in kw:
            raise RulesetError(f"bad ruleset 'gen-fox-and-geese:{shorten(arg, 60)[1:-1]}': {key} is given twice")
        if not (value.isascii() and value.isdigit() and len(value) < 10):
            raise RulesetError(f"gen-fox-and-geese: {key}= takes a positive integer, got {shorten(value, 40)}")
        kw[_KEYS[key]] = int(value)
    return GenFoxAndGeese(**kw)


def _register() -> None:
    from cgtalg.rulesets.registry import register_family, register_ruleset

    register_ruleset("fox-and-geese", FoxAndGeese,
                     "Fox and Geese (loopy): geese x (Left) step diagonally down, the fox o (Right) any way")
    register_ruleset("ceylonese-fox-and-geese", CeyloneseFoxAndGeese,
                     "Ceylonese Fox and Geese: the fox moves up to 2 squares diagonally (loopy)")
    register_ruleset("gen-fox-and-geese", GenFoxAndGeese,
                     "GenFoxAndGeese with Fox and Geese's rules; gen-fox-and-geese:width=N,range=N")
    register_family("gen-fox-and-geese", parse_gen_fox_and_geese,
                    "gen-fox-and-geese:width=N,range=N  CGSuite's GenFoxAndGeese")


_register()
