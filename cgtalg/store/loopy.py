"""Loopy games in the store: each game's graph, its outcome with draws and its value.

A loopy game is kept as a position of the pseudo-ruleset ``"loopy"`` (:data:`LOOPY_RULESET`)
in the ``positions`` table, keyed by its canonical graph (:attr:`cgtalg.LoopyGame.key`, e.g.
``over`` is ``1|0;|``), so no new table is needed. Its properties:

``loopy_outcome``
    :meth:`cgtalg.normal.loopy.LoopyOutcome.to_json`: ``{"outcome": "PHat", "left_first":
    "D", "right_first": "L"}``;
``loopy_value``
    ``{"stopper": bool, "canonical": key or None, "onside": key or None, "offside": key or
    None, "sides": text or None, "refused": reason or None}``: the canonical stopper of a
    stopper, the sides (canonical stoppers) of any game whose sides were found.

``cgtalg store verify`` recomputes both from the graph (:func:`recheck_loopy`).
"""

from __future__ import annotations

from typing import Any

from cgtalg.core.loopy import LoopyGame, as_loopy, loopy_from_key
from cgtalg.errors import CgtalgError, UnsupportedError

__all__ = ["LOOPY_RULESET", "loopy_outcome_record", "loopy_value_record", "stored_loopy",
           "recheck_loopy"]

#: the ruleset key under which loopy games are stored
LOOPY_RULESET = "loopy"


def _outcome(g: LoopyGame) -> dict:
    from cgtalg.normal.loopy import loopy_outcome

    return loopy_outcome(g).to_json()


def _value(g: LoopyGame) -> dict:
    from cgtalg.normal.loopy import is_stopper
    from cgtalg.normal.loopy_simplify import canonical_stopper, loopy_sides

    out: dict[str, Any] = {"stopper": is_stopper(g), "canonical": None, "onside": None,
                           "offside": None, "sides": None, "refused": None}
    if out["stopper"]:
        c = canonical_stopper(g)
        out.update(canonical=c.key, onside=c.key, offside=c.key, sides=str(c))
        return out
    try:
        s = loopy_sides(g)
    except UnsupportedError as exc:
        out["refused"] = str(exc)
        return out
    out.update(onside=s.onside.key, offside=s.offside.key, sides=str(s))
    if s.stopper is not None:
        out["canonical"] = s.stopper.key
    return out


def loopy_outcome_record(g: Any, store: Any = None) -> dict:
    """The stored (or computed, then stored) outcome record of a loopy game."""
    game = as_loopy(g)
    if store is None:
        return _outcome(game)
    return store.memo_position(LOOPY_RULESET, game.key, "loopy_outcome", lambda: _outcome(game))


def loopy_value_record(g: Any, store: Any = None) -> dict:
    """The stored (or computed, then stored) value record of a loopy game (module docstring)."""
    game = as_loopy(g)
    if store is None:
        return _value(game)
    return store.memo_position(LOOPY_RULESET, game.key, "loopy_value", lambda: _value(game))


def stored_loopy(store: Any) -> list[LoopyGame]:
    """Every loopy game with a record in the store."""
    from sqlalchemy import select

    from cgtalg.store.schema import positions

    with store._transaction() as conn:
        keys = conn.execute(select(positions.c.position).where(positions.c.ruleset == LOOPY_RULESET)).scalars().all()
    return [loopy_from_key(k) for k in keys]


def recheck_loopy(name: str, key: str, value: Any) -> tuple[bool, Any]:
    """Recompute the record ``name`` of the graph ``key``: ``(matches, fresh value)``."""
    try:
        game = loopy_from_key(key)
    except CgtalgError as exc:
        return False, f"the position key is not a loopy graph: {exc}"
    if game.key != key:
        return False, f"the key is not canonical (the graph's key is {game.key})"
    fresh = _outcome(game) if name == "loopy_outcome" else _value(game)
    return fresh == value, fresh
