"""Toppling Dominoes (Fink, Nowakowski, Siegel and Wolfe, "Toppling Conjectures", Games of No
Chance 4, 2015; Siegel, *Combinatorial Game Theory*, 2013).

A position is one or more rows of dominoes, each domino ``L`` (blue, Left's), ``R`` (red,
Right's) or ``G`` (green, either player's). A move tips one of one's own dominoes (or a green
one) to the left or to the right: it falls and knocks down every domino on that side of it in
its row. Tipping domino ``i`` of a row ``s`` leaves ``s[i+1:]`` (toppled to the left) or
``s[:i]`` (toppled to the right): always one contiguous piece, so *a row never splits* into a
sum; only the rows of a position are its components.

A row read backwards is the same game (a reflection of the table), so each row is normalised
to the lesser of itself and its reverse. Facts (all checked in ``tests/test_rulesets_toppling.py``
against an independent brute force): a row of ``n`` blue dominoes is the integer ``n``, a row
of ``n`` green dominoes is the nimber ``*n`` (its options are the green rows of every length
below ``n``), ``LR`` is ``*``.

>>> from cgtalg.rulesets.partizan.games import partizan_form
>>> t = TopplingDominoes()
>>> [str(partizan_form(t, t.parse_position(s))) for s in ("LLL", "GGG", "LR", "LRR")]
['3', '*3', '*', '{0|-1}']
"""

from __future__ import annotations

from typing import Any, Iterable

from cgtalg.errors import ComputationLimitError, RulesetError, shorten
from cgtalg.rulesets.protocol import PartizanRuleset

__all__ = ["TopplingDominoes", "MAX_DOMINOES"]

#: the most dominoes a position may have (larger ones are refused when read or checked)
MAX_DOMINOES = 100_000

Rows = tuple[str, ...]


def _row_key(s: str) -> str:
    r = s[::-1]
    return r if r < s else s


class TopplingDominoes(PartizanRuleset):
    """Toppling Dominoes (module docstring): a position is a sorted tuple of rows over ``L``,
    ``R``, ``G``, each the lesser of itself and its reverse; ``parse_position`` reads
    ``"LRGL RR"`` (rows separated by spaces, commas or ``+``; ``B`` is read as ``L``).

    Examples
    --------
    >>> t = TopplingDominoes()
    >>> sorted(set(t.left_moves(("LRG",))))     # GR is RG read backwards
    [(), ('GR',), ('LR',)]
    """

    name = "toppling-dominoes"
    example = "LRL"

    @staticmethod
    def normalize(position: Rows) -> Rows:
        """The rows, empty ones dropped, each the lesser of itself and its reverse, sorted."""
        return tuple(sorted(_row_key(s) for s in position if s))

    def _tips(self, position: Rows, mine: str) -> Iterable[Rows]:
        for k, s in enumerate(position):
            rest = position[:k] + position[k + 1:]
            for i, ch in enumerate(s):
                if ch in mine:
                    yield self.normalize(rest + (s[i + 1:],))
                    yield self.normalize(rest + (s[:i],))

    def left_moves(self, position: Rows) -> Iterable[Rows]:
        return self._tips(position, "LG")

    def right_moves(self, position: Rows) -> Iterable[Rows]:
        return self._tips(position, "RG")

    def components(self, position: Rows) -> list[Rows]:
        """The rows, each a component (a row itself never splits)."""
        return [(_row_key(s),) for s in position if s]

    def format_position(self, position: Rows) -> str:
        return " ".join(position) or "0"

    @staticmethod
    def check_position(position: Any) -> None:
        """Refuse what is not a position: a tuple of strings over ``L``, ``R``, ``G`` with at
        most :data:`MAX_DOMINOES` dominoes (:class:`~cgtalg.errors.RulesetError`,
        :class:`~cgtalg.errors.ComputationLimitError`)."""
        if not isinstance(position, tuple) or not all(
                isinstance(s, str) and not set(s) - set("LRG") for s in position):
            raise RulesetError(f"toppling-dominoes: a position is a tuple of rows over L, R and G, "
                               f"got {shorten(position, 60)}; parse_position reads text")
        n = sum(map(len, position))
        if n > MAX_DOMINOES:
            raise ComputationLimitError(
                f"toppling-dominoes: the position has {n:,} dominoes, more than the limit of "
                f"{MAX_DOMINOES:,} (cgtalg.rulesets.partizan.toppling.MAX_DOMINOES)")

    def parse_position(self, text: str) -> Rows:
        """Rows over ``L`` (or ``B``), ``R``, ``G`` separated by spaces, commas or ``+``;
        ``0`` or an empty text is the empty position.

        Raises
        ------
        RulesetError
            For another character; the message names it and its place in the text.
        """
        if not isinstance(text, str):
            raise RulesetError(f"toppling-dominoes: a position text is a str, not {type(text).__name__}")
        if len(text) > 2 * MAX_DOMINOES + 2:
            raise ComputationLimitError(
                f"toppling-dominoes: the position text is {len(text):,} characters long, beyond "
                f"the limit of {MAX_DOMINOES:,} dominoes (cgtalg.rulesets.partizan.toppling.MAX_DOMINOES)")
        rows = []
        for i, ch in enumerate(text):
            if ch.upper() not in "LRGB0" and not ch.isspace() and ch not in ",+":
                raise RulesetError(f"toppling-dominoes: unexpected {ch!r} at character {i + 1} of "
                                   f"{shorten(text, 60)} (rows of L or B (blue), R (red), G (green))")
        for word in text.replace(",", " ").replace("+", " ").split():
            if word == "0":
                continue
            if "0" in word:
                raise RulesetError(f"toppling-dominoes: {word!r} in {shorten(text, 60)} mixes 0 (the "
                                   "empty position) with dominoes")
            rows.append(word.upper().replace("B", "L"))
        pos = self.normalize(tuple(rows))
        self.check_position(pos)
        return pos


def _register() -> None:
    from cgtalg.rulesets.registry import register_ruleset

    register_ruleset("toppling-dominoes", TopplingDominoes,
                     "Toppling Dominoes: rows of L (blue), R (red), G (green) dominoes")


_register()
