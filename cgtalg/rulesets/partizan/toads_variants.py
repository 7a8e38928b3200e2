"""Generalised Toads and Frogs (CGSuite's ``game.strip.GenToadsAndFrogs``) and its named
instances: Elephants and Rhinos, Backsliding Toads and Frogs.

Toads and Frogs (Winning Ways ch. 1; Erickson, "New toads and frogs results", *Games of No
Chance*, 1996; :class:`cgtalg.rulesets.partizan.games.ToadsAndFrogs`) is played on a strip of
``T`` (Left's toads, moving right), ``F`` (Right's frogs, moving left) and ``.`` (empty). CGSuite
(Siegel, ``game.strip.GenToadsAndFrogs`` and ``game.strip.constants``, documentation of
CGSuite 2) generalises the moves, and so does :class:`GenToadsAndFrogs`:

* **slides**: a piece moves ``k`` squares forward for any ``k`` with ``min_slide <= k <=
  max_slide``, ``k >= 1``, when the square it lands on and every square between are empty; a
  negative ``min_slide`` also lets it slide ``|k|`` squares *backward* for ``min_slide <= k
  <= -1`` (and ``k <= max_slide``) over empty squares ("backsliding": the game is then loopy);
* **jumps**: a piece jumps over ``k`` adjacent enemy pieces, ``1 <= k <= max_jump``, onto the
  empty square just past them (with ``friendly_jump``, over pieces of either side); nothing is
  captured.

Toads and Frogs is ``GenToadsAndFrogs()`` (slides of 1, jumps over 1 enemy); Elephants and Rhinos
is ``GenToadsAndFrogs(max_jump=0)``; Backsliding Toads and Frogs is
``GenToadsAndFrogs(min_slide=-1)`` (its positions are loopy: :func:`partizan_form` raises
:class:`~cgtalg.errors.LoopyGameError`, as the normal-play canonical forms of short games do not
cover them).

Positions are :class:`ToadsAndFrogs`'s strings (``"TT..FF"``).

Values are checked in ``tests/test_rulesets_toads_variants.py`` against an independent brute
force and CGSuite's ``GameStripTest.scala``.
"""

from __future__ import annotations

from typing import Any, Iterable

from cgtalg.errors import RulesetError, shorten
from cgtalg.rulesets.partizan.games import ToadsAndFrogs, _check_cells, _check_text

__all__ = ["GenToadsAndFrogs", "elephants_and_rhinos", "backsliding_toads_and_frogs", "parse_gen_toads"]


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesetError(f"gen-toads-and-frogs: {what} is an integer, got {shorten(value, 40)}")
    return value


class GenToadsAndFrogs(ToadsAndFrogs):
    """Toads and Frogs with CGSuite's generalised moves (module docstring).

    Parameters
    ----------
    min_slide, max_slide : int
        The slide lengths allowed (``min_slide <= max_slide``, ``max_slide >= 0``; a negative
        ``min_slide`` allows backward slides). Defaults 1, 1.
    max_jump : int
        The most enemy pieces jumped at once (``>= 0``; default 1).
    friendly_jump : bool
        Whether pieces of one's own side may be jumped too (default False).
    name : str, optional
        The ruleset's name (default ``gen-toads-and-frogs`` followed by the rules that differ
        from Toads and Frogs', the text :func:`parse_gen_toads` reads).

    Examples
    --------
    >>> from cgtalg.rulesets.partizan.games import partizan_form
    >>> g = GenToadsAndFrogs(max_jump=2)
    >>> g.name, str(partizan_form(g, "TTTT..FFF"))
    ('gen-toads-and-frogs:jump=2', '{1/2*|v}')
    """

    def __init__(self, min_slide: int = 1, max_slide: int = 1, max_jump: int = 1, friendly_jump: bool = False,
                 name: str | None = None) -> None:
        self.min_slide = _int(min_slide, "min_slide")
        self.max_slide = _int(max_slide, "max_slide")
        self.max_jump = _int(max_jump, "max_jump")
        if self.max_slide < 0 or self.min_slide > self.max_slide:
            raise RulesetError(f"gen-toads-and-frogs: the slides need max_slide >= 0 and min_slide <= max_slide, "
                               f"got min_slide={min_slide}, max_slide={max_slide}")
        if self.max_jump < 0:
            raise RulesetError(f"gen-toads-and-frogs: max_jump is >= 0, got {max_jump}")
        if not isinstance(friendly_jump, bool):
            raise RulesetError(f"gen-toads-and-frogs: friendly_jump is True or False, got {shorten(friendly_jump, 40)}")
        self.friendly_jump = friendly_jump
        self.name = name or "gen-toads-and-frogs" + (":" + self.rules_text() if self.rules_text() else "")

    def rules_text(self) -> str:
        """The rules that differ from Toads and Frogs', as :func:`parse_gen_toads` reads them."""
        parts = []
        if self.min_slide != 1:
            parts.append(f"min={self.min_slide}")
        if self.max_slide != 1:
            parts.append(f"max={self.max_slide}")
        if self.max_jump != 1:
            parts.append(f"jump={self.max_jump}")
        if self.friendly_jump:
            parts.append("friendly")
        return ",".join(parts)

    def _moves(self, s: str, me: str, step: int) -> Iterable[str]:
        them = "F" if me == "T" else "T"
        jumpable = (me, them) if self.friendly_jump else (them,)
        n = len(s)
        out = []

        def put(i: int, j: int) -> None:
            cells = list(s)
            cells[i], cells[j] = ".", me
            out.append("".join(cells))

        for i, ch in enumerate(s):
            if ch != me:
                continue
            k = 1      # forward slides: over empty squares only
            while k <= self.max_slide and 0 <= i + k * step < n and s[i + k * step] == ".":
                if k >= self.min_slide:
                    put(i, i + k * step)
                k += 1
            k = -1     # backward slides (min_slide < 0)
            while k >= self.min_slide and 0 <= i + k * step < n and s[i + k * step] == ".":
                if k <= self.max_slide:
                    put(i, i + k * step)
                k -= 1
            k = 1      # jumps over k jumpable pieces onto the empty square past them
            while k <= self.max_jump and 0 <= i + k * step < n and s[i + k * step] in jumpable:
                j = i + (k + 1) * step
                if 0 <= j < n and s[j] == ".":
                    put(i, j)
                k += 1
        return out

    def left_moves(self, position: str) -> Iterable[str]:
        return self._moves(position, "T", 1)

    def right_moves(self, position: str) -> Iterable[str]:
        return self._moves(position, "F", -1)

    def check_position(self, position: Any) -> None:
        """Refuse what is not a position: a str over ``T``, ``F`` and ``.``."""
        if not isinstance(position, str) or set(position) - set("TF."):
            raise RulesetError(f"{self.name}: a position is a str over T, F and ., got {shorten(position, 60)}")
        _check_cells(self.name, len(position), "the strip")

    def parse_position(self, text: str) -> str:
        """A strip over ``T`` (toad, Left), ``F`` (frog, Right) and ``.`` or ``_`` (empty), in
        either case (CGSuite writes ``"tt..ff"``).

        Raises
        ------
        RulesetError
            For another character (named with its place).
        """
        s = _check_text(self.name, text).strip().upper().replace("_", ".")
        for i, ch in enumerate(s):
            if ch not in "TF.":
                raise RulesetError(f"{self.name}: unexpected {ch!r} at square {i + 1} of {shorten(text, 60)} "
                                   "(T toad, F frog, . empty)")
        self.check_position(s)
        return s


def elephants_and_rhinos() -> GenToadsAndFrogs:
    """Elephants and Rhinos: Toads and Frogs without jumps (CGSuite's ``game.strip.ElephantsAndRhinos``)."""
    return GenToadsAndFrogs(max_jump=0, name="elephants-and-rhinos")


def backsliding_toads_and_frogs() -> GenToadsAndFrogs:
    """Backsliding Toads and Frogs: a piece may also slide one square back (loopy)."""
    return GenToadsAndFrogs(min_slide=-1, name="backsliding-toads-and-frogs")


_KEYS = ("min", "max", "jump", "friendly")


def parse_gen_toads(arg: str) -> GenToadsAndFrogs:
    """The ruleset ``gen-toads-and-frogs:ARG``: comma-separated ``min=N`` (least slide, may be
    negative), ``max=N`` (longest slide), ``jump=N`` (most pieces jumped) and ``friendly``
    (pieces of one's own side may be jumped).

    >>> parse_gen_toads("jump=2,friendly").name
    'gen-toads-and-frogs:jump=2,friendly'

    Raises
    ------
    RulesetError
        For an unknown or repeated key, or a value that is not an integer.
    """
    kw: dict[str, Any] = {}
    for item in [p.strip() for p in arg.split(",") if p.strip()]:
        key, eq, value = item.partition("=")
        key, value = key.strip().lower(), value.strip()
        if key not in _KEYS or (key == "friendly") == bool(eq):
            raise RulesetError(f"bad ruleset 'gen-toads-and-frogs:{shorten(arg, 60)[1:-1]}': expected min=N, "
                               f"max=N, jump=N or friendly, got {shorten(item, 40)}")
        field = {"min": "min_slide", "max": "max_slide", "jump": "max_jump", "friendly": "friendly_jump"}[key]
        if field in kw:
            raise RulesetError(f"bad ruleset 'gen-toads-and-frogs:{shorten(arg, 60)[1:-1]}': {key} is given twice")
        if key == "friendly":
            kw[field] = True
            continue
        digits = value[1:] if value.startswith("-") else value
        if not (digits.isascii() and digits.isdigit() and len(digits) < 10):
            raise RulesetError(f"gen-toads-and-frogs: {key}= takes an integer, got {shorten(value, 40)}")
        kw[field] = int(value)
    return GenToadsAndFrogs(**kw)


def _register() -> None:
    # (Elephants and Rhinos is registered by cgtalg.rulesets.partizan.elephants under its name;
    # here it is elephants_and_rhinos() and gen-toads-and-frogs:jump=0)
    from cgtalg.rulesets.registry import register_family, register_ruleset

    register_ruleset("gen-toads-and-frogs", GenToadsAndFrogs,
                     "GenToadsAndFrogs with Toads and Frogs' rules; gen-toads-and-frogs:min=N,max=N,jump=N,friendly")
    register_ruleset("backsliding-toads-and-frogs", backsliding_toads_and_frogs,
                     "Backsliding Toads and Frogs: pieces may also slide back one square (loopy)")
    register_family("gen-toads-and-frogs", parse_gen_toads,
                    "gen-toads-and-frogs:min=N,max=N,jump=N,friendly  CGSuite's GenToadsAndFrogs")


_register()
