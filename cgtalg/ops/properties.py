"""The basic properties of a form that :func:`cgtalg.describe` reports and the store keeps, each
with the function that computes it (used by the report, and by ``cgtalg store verify`` to
re-check stored values)."""

from __future__ import annotations

from typing import Any, Callable

from cgtalg.core.game import Game
from cgtalg.core.notation import format_game

__all__ = ["PROPERTIES", "property_computers", "MOVE_TEXT_LIMIT", "CANONICAL_TEXT_LIMIT"]

#: winning moves are reported as literal text of at most this many characters
MOVE_TEXT_LIMIT = 2000
#: the misère canonical form is reported in *[...] notation of at most this many characters
CANONICAL_TEXT_LIMIT = 4000


def _canonical_text(g: Game) -> str:
    from cgtalg.misere.canonical import misere_canonical
    from cgtalg.misere.notation import format_misere

    # display text, cut past CANONICAL_TEXT_LIMIT (the form itself is misere_canonical(g))
    return format_misere(misere_canonical(g), max_chars=CANONICAL_TEXT_LIMIT)


def _moves(g: Game, misere: bool) -> list[str]:
    from cgtalg.misere.outcome import misere_winning_moves
    from cgtalg.normal.grundy import normal_winning_moves

    moves = misere_winning_moves(g) if misere else normal_winning_moves(g)
    # display text (cut with "..." past MOVE_TEXT_LIMIT: literal texts can be exponential in size)
    return [format_game(m, max_chars=MOVE_TEXT_LIMIT) for m in moves]


def _genus_text(g: Game) -> str:
    """The classical genus symbol (Winning Ways ch. 13; :func:`cgtalg.genus`)."""
    from cgtalg.misere.genus import genus

    return str(genus(g))


def property_computers() -> dict[str, Callable[[Game], Any]]:
    """Property name -> the function computing it from a form, in report order."""
    from cgtalg.misere.outcome import misere_grundy, misere_outcome
    from cgtalg.normal.grundy import grundy, normal_outcome

    return {
        "birthday": lambda g: g.birthday,
        "normal_outcome": normal_outcome,
        "grundy": grundy,
        "normal_winning_moves": lambda g: _moves(g, False),
        "misere_outcome": misere_outcome,
        "misere_grundy": misere_grundy,
        "misere_winning_moves": lambda g: _moves(g, True),
        "genus": _genus_text,
        "misere_canonical": _canonical_text,
    }


#: the properties :func:`cgtalg.describe` reports (and stores), in order
PROPERTIES: tuple[str, ...] = (
    "birthday", "normal_outcome", "grundy", "normal_winning_moves", "misere_outcome",
    "misere_grundy", "misere_winning_moves", "genus", "misere_canonical",
)
