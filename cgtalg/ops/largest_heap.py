"""The door of largest-heap rules: whether every misère outcome of a heap game follows a rule over
heap sizes that the referee proves, and so its misère quotient is infinite.

:func:`largest_heap_verdict` searches for the rule (:mod:`cgtalg.quotients.largest_heap`: read
off every position of a few tokens, played out, for each weight vector in turn) and keeps the
first one that :func:`cgtalg.referee.heap_rule.check` accepts, within a CPU-time budget. Where a
game's quotients ``Q_n`` are all finite but grow without bound (``0.734``: ``|Q_58| = 450``),
no heap starts the infinite quotient and the construction of ``Q_n`` never ends; the rule is the
statement about every heap. ``cgtalg quotient`` asks this door first when the game's Grundy
values have a short period.

Examples
--------
>>> v = largest_heap_verdict("0.734")
>>> v["weights"], v["verdict"]["ok"]
([0, 1, 0, 1], True)
>>> largest_heap_verdict("0.77") is None        # Kayles: Grundy period 12, not tried
True
"""

from __future__ import annotations

import time
from typing import Any

from cgtalg.budget import check_max_seconds
from cgtalg.errors import ComputationLimitError, GameKindError, RulesetError, shorten
from cgtalg.quotients.largest_heap import Positions, find_weights, grundy_period
from cgtalg.rulesets.registry import get_ruleset

__all__ = ["largest_heap_verdict", "suitable"]

#: the most weight vectors tried (entries 0 .. cmax, one per residue of the Grundy period)
MAX_VECTORS = 256


def _code_ruleset(game: Any) -> Any:
    if isinstance(game, str):
        try:
            game = get_ruleset(game)
        except RulesetError as exc:
            raise GameKindError(f"largest_heap_verdict({shorten(game)}): {exc}") from None
    if not callable(getattr(game, "heap_options", None)):
        raise GameKindError(f"largest_heap_verdict: a heap game (an octal code such as '0.734'), not {shorten(game)}")
    return game


def suitable(game: Any, cmax: int = 2, max_vectors: int = MAX_VECTORS) -> tuple[int, int] | None:
    """``(n0, p)`` when ``game`` is a finite take-and-break code whose Grundy values have a period
    short enough for the search (``(cmax + 1)^p <= max_vectors``), else None (cheap: 88 values)."""
    game = _code_ruleset(game)
    if not getattr(game, "is_finite", False) or getattr(game, "k", None) is None:
        return None
    per = grundy_period(game)
    if per is None or (cmax + 1) ** per[1] > max_vectors:
        return None
    return per


def largest_heap_verdict(game: Any, *, max_seconds: float | None = 30.0, cmax: int = 2, max_tokens: int = 22,
                         max_vectors: int = MAX_VECTORS) -> dict | None:
    """The largest-heap rule of ``game`` the referee proves, or None (none of this shape found
    within the budget: the game is not a finite take-and-break code, its Grundy values have no
    short period, no weight vector fits, or the budget ran out).

    Returns ``{"game", "weights", "certificate", "verdict"}``: the certificate (kind
    ``largest-heap-rule``, which ``cgtalg check`` re-checks) and the referee's verdict as JSON.
    ``max_seconds`` counts the process's CPU time (play, search and checks together).

    Raises
    ------
    GameKindError
        For anything that is not a heap game.
    """
    if max_seconds is not None:
        check_max_seconds(max_seconds)
    game = _code_ruleset(game)
    if suitable(game, cmax, max_vectors) is None:
        return None
    from cgtalg.referee import heap_rule

    t0 = time.process_time()

    def left() -> float | None:
        return None if max_seconds is None else max_seconds - (time.process_time() - t0)

    try:
        positions = Positions(game, max_tokens, left())
        for ws, doc in find_weights(game, cmax, positions=positions):
            rest = left()
            if rest is not None and rest <= 0:
                return None
            vd = heap_rule.check(doc, max_seconds=rest)[0]
            if vd.ok:
                return {"game": game.name, "weights": ws, "certificate": doc, "verdict": vd.to_json()}
    except ComputationLimitError:
        return None
    return None
