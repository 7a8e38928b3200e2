"""Elephants and Rhinos: Toads and Frogs without jumps (CGSuite ``game.strip.ElephantsAndRhinos``).

CGSuite defines it (``lib/core/src/main/resources/org/cgsuite/lang/resources/game/strip/constants.cgs``)
as its generalised Toads and Frogs with no jumps allowed: on a strip of squares, Left's
elephants ``T`` (CGSuite's ``t``, a toad) and Right's rhinos ``F`` (``f``, a frog) face each
other; Left's only move is to slide an elephant one square to the right into an empty square,
Right's to slide a rhino one square to the left into an empty square. The player who cannot
move loses. (Toads and Frogs itself, Winning Ways ch. 1, also lets a piece jump one opposing
piece: :class:`cgtalg.rulesets.partizan.games.ToadsAndFrogs`.)

Components. No piece ever passes another, and pieces only move forward, so the order of the
pieces along the strip never changes. Where a rhino ``F`` at square ``a`` is followed (not
necessarily at once) by an elephant ``T`` at square ``b > a``, every piece left of the rhino stays
at or left of ``a`` (it is behind the rhino, which only moves left) and every piece right of
the elephant stays at or right of ``b``: the strip splits there into independent parts. Each
part is then elephants followed by rhinos; squares left of its first elephant and right of its
last rhino are never entered by its pieces and are cropped (a part of rhinos only keeps the
strip up to the left end, a part of elephants only up to the right end).

Text is CGSuite's (``"tttt..fff"``) or cgtalg's Toads-and-Frogs letters (``"TTTT..FFF"``;
``E``/``R`` are read as elephant/rhino too); positions are kept as upper-case strings over
``T``, ``F`` and ``.``. Values are checked in ``tests/test_rulesets_elephants.py`` by play from
the rules and against CGSuite's ``lib/core/src/test/scala/org/cgsuite/lang/GameStripTest.scala``
(``ElephantsAndRhinos("tttt..fff")`` is ``1``).

>>> from cgtalg.rulesets.partizan.games import partizan_form
>>> e = ElephantsAndRhinos()
>>> [str(partizan_form(e, e.parse_position(t))) for t in ("tttt..fff", "t.f", "t..f", "T.TF..")]
['1', '*', '0', '1']
"""

from __future__ import annotations

from typing import Any, Iterable

from cgtalg.errors import ComputationLimitError, RulesetError, shorten
from cgtalg.rulesets.protocol import PartizanRuleset

__all__ = ["ElephantsAndRhinos", "MAX_SQUARES"]

#: the most squares a strip may have when read or checked
MAX_SQUARES = 100_000


class ElephantsAndRhinos(PartizanRuleset):
    """Elephants and Rhinos (module docstring): a position is a str over ``T`` (Left's
    elephants, moving right), ``F`` (Right's rhinos, moving left) and ``.``.

    Examples
    --------
    >>> e = ElephantsAndRhinos()
    >>> sorted(e.left_moves("T.T.F")), sorted(e.right_moves("T.T.F"))
    (['.TT.F', 'T..TF'], ['T.TF.'])
    >>> e.components("..FT.TF..F.T.")
    ['..F', 'T.TF..F', 'T.']
    """

    name = "elephants-and-rhinos"
    example = "TT..FF"

    def left_moves(self, position: str) -> Iterable[str]:
        s = position
        for i in range(len(s) - 1):
            if s[i] == "T" and s[i + 1] == ".":
                yield s[:i] + ".T" + s[i + 2:]

    def right_moves(self, position: str) -> Iterable[str]:
        s = position
        for i in range(1, len(s)):
            if s[i] == "F" and s[i - 1] == ".":
                yield s[:i - 1] + "F." + s[i + 1:]

    def components(self, position: str) -> list[str]:
        """The independent parts of the strip (module docstring), each cropped; parts where
        nobody can move are dropped."""
        s = position
        places = [i for i, ch in enumerate(s) if ch != "."]
        groups: list[list[int]] = []
        for i in places:
            if groups and not (s[groups[-1][-1]] == "F" and s[i] == "T"):
                groups[-1].append(i)
            else:
                groups.append([i])
        out = []
        for g in groups:
            lo = g[0] if s[g[0]] == "T" else 0                  # rhinos only: to the left end
            hi = g[-1] if s[g[-1]] == "F" else len(s) - 1       # elephants only: to the right end
            part = s[lo:hi + 1]
            if any(True for _ in self.left_moves(part)) or any(True for _ in self.right_moves(part)):
                out.append(part)
        return out

    @staticmethod
    def normalize(position: str) -> str:
        """The strip without the empty squares at its ends that no piece can enter."""
        s = position
        places = [i for i, ch in enumerate(s) if ch != "."]
        if not places:
            return ""
        lo = places[0] if s[places[0]] == "T" else 0
        hi = places[-1] if s[places[-1]] == "F" else len(s) - 1
        return s[lo:hi + 1]

    def format_position(self, position: str) -> str:
        return position or "empty"

    @staticmethod
    def check_position(position: Any) -> None:
        """Refuse what is not a position: a str over ``T``, ``F`` and ``.``
        (:class:`~cgtalg.errors.RulesetError`) of at most :data:`MAX_SQUARES` squares
        (:class:`~cgtalg.errors.ComputationLimitError`)."""
        if not isinstance(position, str) or set(position) - set("TF."):
            raise RulesetError(f"elephants-and-rhinos: a position is a str over T (Left's elephants), F "
                               f"(Right's rhinos) and ., got {shorten(position, 60)}; parse_position reads text")
        if len(position) > MAX_SQUARES:
            raise ComputationLimitError(f"elephants-and-rhinos: the strip has {len(position):,} squares, more "
                                        f"than the limit of {MAX_SQUARES:,} "
                                        "(cgtalg.rulesets.partizan.elephants.MAX_SQUARES)")

    def parse_position(self, text: str) -> str:
        """A strip over ``t``/``T``/``E`` (Left's elephants), ``f``/``F``/``R`` (Right's rhinos)
        and ``.`` (or ``_``): ``"tttt..fff"`` as CGSuite writes it; ``empty`` is the empty strip.

        Raises
        ------
        RulesetError
            For another character (named with its place).
        """
        if not isinstance(text, str):
            raise RulesetError(f"elephants-and-rhinos: a position text is a str, not {type(text).__name__}")
        if len(text) > MAX_SQUARES + 2:
            raise ComputationLimitError(f"elephants-and-rhinos: the position text is {len(text):,} characters "
                                        f"long, beyond the limit of {MAX_SQUARES:,} squares")
        t = text.strip()
        if t.lower() in ("empty", "0"):
            return ""
        out = []
        for i, ch in enumerate(t):
            got = {"t": "T", "e": "T", "f": "F", "r": "F", ".": ".", "_": "."}.get(ch.lower())
            if got is None:
                raise RulesetError(f"elephants-and-rhinos: unexpected {ch!r} at square {i + 1} of "
                                   f"{shorten(text, 60)} (t: Left's elephant, f: Right's rhino, . empty)")
            out.append(got)
        s = "".join(out)
        self.check_position(s)
        return s


def _register() -> None:
    from cgtalg.rulesets.registry import register_ruleset

    register_ruleset("elephants-and-rhinos", ElephantsAndRhinos,
                     "Elephants and Rhinos: Toads and Frogs without jumps (t Left, f Right: 'tttt..fff')")


_register()
