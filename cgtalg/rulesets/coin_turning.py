"""Coin-turning games (Winning Ways ch. 14 "Turn and Turn About"; Siegel, *Combinatorial Game
Theory*, IV.2; CGSuite's ``game.strip.Turning`` and ``game.heap.Spawning``).

A row of coins, each showing heads ``H`` or tails ``T``, numbered ``1, 2, 3, ...`` from the left
(as CGSuite numbers them; Winning Ways numbers Mock Turtles' coins from 0). A move turns over
some coins, the rightmost of which must go from heads to tails (so play ends); which sets of
coins may be turned is the ruleset's *turning code* (CGSuite's syntax):

* a count or range of counts of coins turned: ``2`` (exactly two), ``1-3`` (one to three),
  ``1+`` (any number);
* followed by modifiers: ``C`` the coins are consecutive, ``E`` equally spaced, ``S``
  symmetrically arranged (``a_i + a_(k+1-i)`` constant), ``F`` the leftmost coin (coin 1) is
  among them, ``C(n)`` they lie within ``n`` adjacent coins;
* several such elements separated by commas: a move may follow any of them.

Winning Ways' games (ch. 14) and their codes (the table of CGSuite's ``Turning`` documentation):
Turning Turtles ``1-2``, Mock Turtles ``1-3``, Moebius ``1-5``, Mogul ``1-7``, Moidores ``1-9``,
Motley ``1+``, Twins ``2``, Triplets ``3``, Ruler ``1+C``, Mock Turtle Fives ``1-3C(5)``,
Triplet Fives ``3C(5)``, Ruler Fives ``1-5C``, Turnips ``3E``, Grunt ``4FS``, Sym ``1+S``,
Sympler ``1+FS``.

The heap representation (Winning Ways ch. 14; CGSuite's ``Spawning``): a coin-turning game is, in
normal play, the heap game in which a heap of ``n`` may be replaced by the heaps ``a_1, ...,
a_(k-1)`` whenever turning coins ``a_1 < ... < a_(k-1) < n`` is a move; heads at coin ``n`` is a
heap of ``n`` (two equal heaps cancel, as a coin turned twice is back), so the Grundy value of a
row is the XOR of the heap game's values ``G(n)`` over its heads (:meth:`CoinTurning.nim_value`,
from :class:`Spawning`'s Grundy sequence). In *misère* play the two games differ, so the row is not
split into its heads (``components`` is not defined): the generic solver plays the rows
themselves.

Facts (Winning Ways ch. 14, checked by brute force in ``tests/test_rulesets_coin_turning.py``):
Turning Turtles is Nim with a heap of ``n`` for each head at coin ``n`` (1-based); a head at coin
``n`` of Mock Turtles is worth ``*m``, ``m`` the ``n``-th odious number (1, 2, 4, 7, 8, 11, ...:
an odd number of 1 bits); of Ruler, the largest power of 2 dividing ``n``.

>>> mt = get_turning("mock-turtles")
>>> mt.nim_value("HTTHTHTTH")              # CGSuite GameStripTest: Turning("1-3")("htththtth")
29
>>> [Spawning("1+C").grundy_value(n) for n in range(1, 9)]     # Ruler
[1, 2, 1, 4, 1, 2, 1, 8]
"""

from __future__ import annotations

import itertools
import re
from typing import Any, Iterator, NamedTuple

from cgtalg.core.heap_facts import HeapFacts
from cgtalg.errors import ComputationLimitError, RulesetError, shorten
from cgtalg.rulesets.heaps.base import HeapRuleset
from cgtalg.rulesets.protocol import ImpartialRuleset

__all__ = ["TurningElement", "parse_turning_code", "turning_sets", "Spawning", "CoinTurning", "NAMED_TURNING",
           "get_turning", "MAX_COINS"]

#: the most coins a row may have when read or checked
MAX_COINS = 100_000


class TurningElement(NamedTuple):
    """One element of a turning code: between ``low`` and ``high`` coins (``high`` None: no
    limit), arranged as ``spacing`` says (``""`` any, ``"C"`` consecutive, ``"E"`` equally
    spaced, ``"S"`` symmetric), coin 1 among them when ``first``, all within ``span`` adjacent
    coins (None: no limit)."""

    low: int
    high: int | None
    spacing: str
    first: bool
    span: int | None


_ELEMENT = re.compile(r"^(\d+)(?:(\+)|-(\d+))?((?:C\(\d+\)|[CESF])*)$")


def parse_turning_code(code: str) -> tuple[TurningElement, ...]:
    """The elements of a turning code (module docstring), e.g. ``"1-3C(5)"`` or ``"2-3,6C"``.

    >>> parse_turning_code("1-3C(5)")
    (TurningElement(low=1, high=3, spacing='', first=False, span=5),)

    Raises
    ------
    RulesetError
        For a malformed code, a range whose low end is below 1 or above its high end, or an
        element with two of C, E, S.
    """
    if not isinstance(code, str) or not code.strip():
        raise RulesetError(f"a turning code is a non-empty text such as 1-3 or 1+C, got {shorten(code, 40)}")
    if len(code) > 200:
        raise RulesetError(f"the turning code {shorten(code, 40)} is longer than 200 characters")
    out = []
    for part in code.upper().replace(" ", "").split(","):
        m = _ELEMENT.match(part)
        if not m:
            raise RulesetError(f"bad turning code {shorten(code, 60)}: {shorten(part, 30)} is not COUNT, LOW-HIGH "
                               "or LOW+ followed by modifiers C, E, S, F, C(n) (e.g. 1-3, 2, 1+C, 3C(5), 4FS)")
        low = int(m.group(1))
        high = None if m.group(2) else int(m.group(3) or m.group(1))
        mods = m.group(4)
        spans = [int(s) for s in re.findall(r"C\((\d+)\)", mods)]
        flags = re.sub(r"C\(\d+\)", "", mods)
        spacing = "".join(ch for ch in flags if ch in "CES")
        if low < 1 or (high is not None and high < low):
            raise RulesetError(f"bad turning code {shorten(code, 60)}: {part} turns from {low} to "
                               f"{'any number' if high is None else high} coins; a move turns at least 1 coin "
                               "and the range goes up")
        if len(spacing) > 1 or len(spans) > 1 or flags.count("F") > 1:
            raise RulesetError(f"bad turning code {shorten(code, 60)}: {part} gives a modifier twice or two of C, "
                               "E, S (a move has one arrangement)")
        span = spans[0] if spans else None
        if span is not None and span < 1:
            raise RulesetError(f"bad turning code {shorten(code, 60)}: C({span}) needs a span of at least 1 coin")
        out.append(TurningElement(low, high, spacing, "F" in flags, span))
    return tuple(out)


def _element_sets(e: TurningElement, n: int) -> Iterator[tuple[int, ...]]:
    """The coins other than ``n`` turned with ``n`` (the rightmost) by the moves of element ``e``,
    coins numbered from 1 (each an increasing tuple; maybe repeated)."""
    lowest = 1 if e.span is None else max(1, n - e.span + 1)      # the leftmost coin allowed
    top = n - lowest + 1                                           # the most coins that fit
    high = top if e.high is None else min(e.high, top)
    for k in range(e.low, high + 1):
        if k == 1:
            if not e.first or n == 1:
                yield ()
            continue
        if e.spacing == "C":
            start = n - k + 1
            if not e.first or start == 1:
                yield tuple(range(start, n))
        elif e.spacing == "E":
            for d in range(1, (n - lowest) // (k - 1) + 1):
                start = n - (k - 1) * d
                if not e.first or start == 1:
                    yield tuple(range(start, n, d))
        elif e.spacing == "S":
            for m in ([1] if e.first else range(lowest, n)):
                if m < lowest:
                    continue
                # symmetric about (m + n) / 2: pairs (x, m + n - x) with m < x < (m + n) / 2,
                # and the centre when m + n is even
                pairs = [x for x in range(m + 1, n) if 2 * x < m + n]
                centre = (m + n) // 2 if (m + n) % 2 == 0 else None
                inner = k - 2
                for c in ((0, 1) if centre is not None else (0,)):
                    if (inner - c) % 2 or inner - c < 0:
                        continue
                    for chosen in itertools.combinations(pairs, (inner - c) // 2):
                        coins = {m, *chosen, *(m + n - x for x in chosen)}
                        if c:
                            coins.add(centre)
                        yield tuple(sorted(coins))
        else:
            if e.first:
                if lowest > 1:
                    continue
                for rest in itertools.combinations(range(2, n), k - 2):
                    yield (1, *rest)
            else:
                yield from itertools.combinations(range(lowest, n), k - 1)


def turning_sets(elements: tuple[TurningElement, ...], n: int) -> list[tuple[int, ...]]:
    """The other coins turned by each move whose rightmost coin is ``n`` (sorted, without repeats).

    >>> turning_sets(parse_turning_code("1-2"), 3)      # Turning Turtles: coin 3 alone, or with 1 or 2
    [(), (1,), (2,)]
    """
    return sorted({s for e in elements for s in _element_sets(e, n)})


class Spawning(HeapRuleset):
    """The heap representation of a coin-turning game (module docstring; CGSuite's
    ``game.heap.Spawning``): a heap of ``n`` becomes the heaps ``a_1, ..., a_(k-1)`` when turning
    coins ``a_1 < ... < a_(k-1) < n`` is a move. Named ``spawning:CODE``.

    >>> Spawning("1-3").grundy_sequence(8).tolist()     # Mock Turtles: 0, then the odious numbers
    [0, 1, 2, 4, 7, 8, 11, 13]
    """

    def __init__(self, code: str) -> None:
        super().__init__()
        self.elements = parse_turning_code(code)
        self.code = ",".join(_element_text(e) for e in self.elements)
        self.name = f"spawning:{self.code}"
        highs = [e.high for e in self.elements]
        # a move leaves one heap fewer than it turns coins
        self.facts = HeapFacts(octal_like=False, max_heaps=None if None in highs else max(highs) - 1)

    def heap_options(self, n: int) -> Iterator[tuple[int, ...]]:
        if n < 1:
            return iter(())
        return iter(turning_sets(self.elements, n))


def _element_text(e: TurningElement) -> str:
    count = f"{e.low}+" if e.high is None else (str(e.low) if e.high == e.low else f"{e.low}-{e.high}")
    return count + e.spacing + ("F" if e.first else "") + (f"C({e.span})" if e.span is not None else "")


class CoinTurning(ImpartialRuleset):
    """A coin-turning game on a row of coins (module docstring). A position is a str over ``H``
    (heads) and ``T`` (tails), coin 1 first; ``parse_position`` also reads lowercase (CGSuite
    writes ``"htth"``).

    Parameters
    ----------
    code : str
        The turning code (``"1-3"``, ``"1+C"``, ...).
    name : str, optional
        The ruleset's name (default ``turning:CODE``).

    Examples
    --------
    >>> tt = CoinTurning("1-2")
    >>> sorted(tt.moves("THH"))
    ['HHT', 'HTH', 'THT', 'TTH', 'TTT']
    >>> tt.nim_value("THH")                      # Nim heaps 2 and 3
    1
    """

    example = "THTTH"

    def __init__(self, code: str, name: str | None = None) -> None:
        self.heaps = Spawning(code)
        self.code = self.heaps.code
        self.name = name or f"turning:{self.code}"

    def moves(self, position: str) -> Iterator[str]:
        s = position
        for i, ch in enumerate(s):
            if ch != "H":
                continue
            for others in self.heaps.heap_options(i + 1):
                cells = list(s)
                cells[i] = "T"
                for j in others:
                    cells[j - 1] = "T" if cells[j - 1] == "H" else "H"
                yield "".join(cells)

    def heads(self, position: str) -> tuple[int, ...]:
        """The coins (numbered from 1) showing heads."""
        self.check_position(position)
        return tuple(i + 1 for i, ch in enumerate(position) if ch == "H")

    def nim_value(self, position: str) -> int:
        """The normal-play Grundy value: the XOR of the heap representation's ``G(n)`` over the
        heads ``n`` (:class:`Spawning`'s Grundy sequence)."""
        heads = self.heads(position)
        if not heads:
            return 0
        seq = self.heaps.grundy_sequence(heads[-1] + 1)
        value = 0
        for n in heads:
            value ^= int(seq[n])
        return value

    def position_count(self, position: str, misere: bool = False) -> int:
        """An upper bound on the rows reachable: ``2^m``, ``m`` the place of the last head (coins
        to its right never turn); capped at ``10**30``."""
        heads = self.heads(position)
        if not heads:
            return 1
        return 10**30 if heads[-1] > 99 else min(10**30, 2 ** heads[-1])

    def check_position(self, position: Any) -> None:
        """Refuse what is not a position: a str over ``H`` and ``T`` of at most :data:`MAX_COINS` coins."""
        if not isinstance(position, str) or set(position) - set("HT"):
            raise RulesetError(f"{self.name}: a position is a str over H (heads) and T (tails), "
                               f"got {shorten(position, 60)}; parse_position reads text")
        if len(position) > MAX_COINS:
            raise ComputationLimitError(f"{self.name}: a row of {len(position):,} coins is more than the limit of "
                                        f"{MAX_COINS:,} (cgtalg.rulesets.coin_turning.MAX_COINS)")

    def format_position(self, position: str) -> str:
        return position or "empty"

    def parse_position(self, text: str) -> str:
        """A row of ``H``/``h`` (heads) and ``T``/``t`` (tails), coin 1 first; ``empty`` (or
        nothing) is the empty row.

        Raises
        ------
        RulesetError
            For another character (named with its place).
        """
        if not isinstance(text, str):
            raise RulesetError(f"{self.name}: a position text is a str, not {type(text).__name__}")
        if len(text) > MAX_COINS + 100:
            raise ComputationLimitError(f"{self.name}: the position text is {len(text):,} characters long, "
                                        f"beyond the limit of {MAX_COINS:,} coins")
        t = text.strip()
        if t.lower() in ("", "empty"):
            return ""
        s = t.upper()
        for i, ch in enumerate(s):
            if ch not in "HT":
                raise RulesetError(f"{self.name}: unexpected {t[i]!r} at coin {i + 1} of {shorten(text, 60)} "
                                   "(H heads, T tails)")
        self.check_position(s)
        return s


#: Winning Ways' coin-turning games (ch. 14) with CGSuite's codes: name -> (code, description)
NAMED_TURNING: dict[str, tuple[str, str]] = {
    "turning-turtles": ("1-2", "turn one or two coins"),
    "mock-turtles": ("1-3", "turn up to three coins"),
    "moebius": ("1-5", "turn up to five coins"),
    "mogul": ("1-7", "turn up to seven coins"),
    "moidores": ("1-9", "turn up to nine coins"),
    "motley": ("1+", "turn any number of coins"),
    "twins": ("2", "turn exactly two coins"),
    "triplets": ("3", "turn exactly three coins"),
    "ruler": ("1+C", "turn any number of consecutive coins"),
    "mock-turtle-fives": ("1-3C(5)", "turn up to three of five consecutive coins"),
    "triplet-fives": ("3C(5)", "turn exactly three of five consecutive coins"),
    "ruler-fives": ("1-5C", "turn up to five consecutive coins"),
    "turnips": ("3E", "turn three equally spaced coins"),
    "grunt": ("4FS", "turn four symmetric coins, the leftmost among them"),
    "sym": ("1+S", "turn any number of symmetric coins"),
    "sympler": ("1+FS", "turn any number of symmetric coins, the leftmost among them"),
}


def get_turning(name: str) -> CoinTurning:
    """The coin-turning game ``name`` of :data:`NAMED_TURNING` (``"mock-turtles"``).

    Raises
    ------
    RulesetError
        For another name.
    """
    if name not in NAMED_TURNING:
        raise RulesetError(f"unknown coin-turning game {shorten(name, 40)}; known: {', '.join(NAMED_TURNING)}")
    return CoinTurning(NAMED_TURNING[name][0], name=name)


def _register() -> None:
    from cgtalg.rulesets.registry import register_family, register_ruleset

    for name, (code, what) in NAMED_TURNING.items():
        register_ruleset(name, lambda name=name: get_turning(name),
                         f"{name.replace('-', ' ').capitalize()} (coin turning {code}: {what}), rows like THTTH")
    register_family("turning", CoinTurning, "turning:CODE  a coin-turning game on rows like THTTH (CODE like 1-3, "
                    "1+C, 3C(5), 4FS)")
    register_family("spawning", Spawning, "spawning:CODE  the heap game of the coin-turning game CODE")


_register()
