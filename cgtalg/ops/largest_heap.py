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
import warnings
from typing import Any

from cgtalg.budget import check_max_seconds
from cgtalg.caches import register_cache
from cgtalg.errors import ComputationLimitError, GameKindError, RulesetError, shorten
from cgtalg.quotients.largest_heap import (Positions, RuleConflict, find_weights, fit_weights, grundy_period,
                                           largest_heap_rule)
from cgtalg.rulesets.registry import get_ruleset

__all__ = ["largest_heap_verdict", "suitable", "stored_rule", "rule_play", "rule_for_position", "weights_text"]

#: stored rules read and checked by the referee, once per store and process:
#: (game, store) -> (certificate, verdict JSON), or None when the stored one was refused
_CHECKED: dict = register_cache("largest-heap rules read from stores (checked by the referee)", {})
#: CPU seconds the referee may take to check a stored rule before it answers
CHECK_SECONDS = 300.0

#: the most weight vectors tried (entries 0 .. cmax, one per residue of the Grundy period)
MAX_VECTORS = 256
#: the fitted weight vectors (:func:`~cgtalg.quotients.largest_heap.fit_weights`) tried, coarsest first
MAX_FITS = 3
#: tokens of the positions a fitted rule is read off (66 272 positions, played out in about a
#: second): read off 26 tokens ``0.337``'s rule misses a P-key and the referee refuses it, read
#: off 30 ``4.16``'s is false (``14 + 14 + 3 + 3``); read off 34 both hold
FIT_TOKENS = 34


def _code_ruleset(game: Any, operation: str = "largest_heap_verdict") -> Any:
    if isinstance(game, str):
        try:
            game = get_ruleset(game)
        except RulesetError as exc:
            raise GameKindError(f"{operation}({shorten(game)}): {exc}") from None
    if not callable(getattr(game, "heap_options", None)):
        raise GameKindError(f"{operation}: a heap game (an octal code such as '0.734'), not {shorten(game)}")
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


def _where(store: Any) -> Any:
    return getattr(store, "location", id(store))


def _opened(store: Any) -> bool:
    return store is not None and store is not False and callable(getattr(store, "sequence_meta", None)) \
        and callable(getattr(store, "put_sequence_meta", None))


def stored_rule(game: Any, store: Any, max_seconds: float | None = CHECK_SECONDS) -> dict | None:
    """The largest-heap rule stored for ``game`` (beside its misère quotient record), checked by
    the referee (:func:`cgtalg.referee.heap_rule.check`, R1–R6) once per store and process:
    ``{"game", "weights", "certificate", "verdict"}`` as :func:`largest_heap_verdict` gives, or None
    when none is stored. A stored rule that is about another game, that the referee refuses, or
    that it does not finish checking within ``max_seconds`` of CPU time is reported with a warning
    and ignored (the caller answers another way)."""
    if not _opened(store):
        return None
    game = _code_ruleset(game, "stored_rule")
    from cgtalg.quotients.storage import Checkpointer

    ck = Checkpointer(game, store)
    key = (ck.key, _where(store))
    if key in _CHECKED:
        return _CHECKED[key]
    doc = ck.load_rule()
    if doc is None:
        return None
    from cgtalg.referee import heap_rule
    from cgtalg.referee._verdict import Malformed

    why, late = None, False
    if doc.get("game") != game.name:
        why = f"it is about {shorten(doc.get('game'))}, not {game.name}"
    else:
        try:
            vd = heap_rule.check(doc, max_seconds=max_seconds)[0]
            if not vd.ok:
                why = "the referee refuses it: " + "; ".join(r for r in vd.reasons if r.startswith("FAIL"))[:300]
                late = any("not all checked within" in r for r in vd.reasons)
        except Malformed as exc:
            why = f"it is malformed: {exc}"
    if why is not None:
        warnings.warn(f"the largest-heap rule stored for {game.name} (sequence {ck.key!r}) is ignored: {why}",
                      RuntimeWarning, stacklevel=2)
        if not late:                  # a check stopped by its budget is tried again next time
            _CHECKED[key] = None
        return None
    got = {"game": game.name, "weights": list(doc["weights"]["residue"]), "certificate": doc, "verdict": vd.to_json()}
    _CHECKED[key] = got
    return got


def rule_play(game: Any, store: Any) -> Any:
    """A :class:`~cgtalg.quotients.largest_heap.RulePlay` of the rule stored for ``game`` and
    accepted by the referee (:func:`stored_rule`), or None."""
    if not _opened(store) or not callable(getattr(game, "heap_options", None)):
        return None
    got = stored_rule(game, store)
    if got is None:
        return None
    from cgtalg.quotients.largest_heap import RulePlay

    return RulePlay(game, got["certificate"])


def rule_for_position(game: Any, heaps: Any, store: Any) -> Any:
    """The :class:`~cgtalg.quotients.largest_heap.RulePlay` that answers the misère play of
    ``heaps`` when a rule is stored for ``game`` and no known quotient covers the heaps (a
    quotient answers its heaps by look-ups: it is kept for them), else None. A heap above
    :data:`cgtalg.quotients.play.LARGE_HEAP` goes to the rule at once (no final quotient is
    looked for: the rule proves there is none)."""
    if not _opened(store) or not callable(getattr(game, "heap_options", None)):
        return None
    from cgtalg.quotients.storage import Checkpointer

    if Checkpointer(game, store).load_rule() is None:
        return None
    hs = [int(h) for h in heaps if h]
    from cgtalg.quotients.play import LARGE_HEAP, quotient_for

    if hs and max(hs) <= LARGE_HEAP and quotient_for(game, hs, store) is not None:
        return None
    return rule_play(game, store)


def largest_heap_verdict(game: Any, *, max_seconds: float | None = 30.0, cmax: int = 2, max_tokens: int = 22,
                         max_vectors: int = MAX_VECTORS, store: Any = None, max_fits: int = MAX_FITS,
                         notes: list | None = None) -> dict | None:
    """The largest-heap rule of ``game`` the referee proves, or None (none of this shape found
    within the budget: the game is not a finite take-and-break code, its Grundy values have no
    short period, no weight vector fits, or the budget ran out).

    Returns ``{"game", "weights", "certificate", "verdict"}``: the certificate (kind
    ``largest-heap-rule``, which ``cgtalg check`` re-checks) and the referee's verdict as JSON.
    The search tries every weight vector with entries ``0 .. cmax`` (the rule read off the
    positions of ``max_tokens`` tokens); then the ``max_fits`` coarsest weight vectors of
    :func:`~cgtalg.quotients.largest_heap.fit_weights` (exact weights below the fourth heap, larger
    residue weights: ``0.337``'s ``1, 0, 1`` then ``4, 5, 4, 5``), each read off the positions of
    :data:`FIT_TOKENS` tokens. When the referee's check of a candidate is cut off by the budget,
    ``notes`` (a list, when given) gets a sentence saying so (a larger budget settles it).

    ``max_seconds`` counts the process's CPU time (play, search and checks together). With an
    opened ``store``, a rule stored before is read and checked again by the referee
    (:func:`stored_rule`) instead of searched, and a rule found is stored (beside the game's
    quotient record), so that misère outcomes of any heaps are answered from it
    (:func:`cgtalg.outcome` with ``store``).

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
    if _opened(store):
        got = stored_rule(game, store, CHECK_SECONDS if max_seconds is None else max(max_seconds, 1.0))
        if got is not None:
            return got
    from cgtalg.referee import heap_rule

    t0 = time.process_time()

    def left() -> float | None:
        return None if max_seconds is None else max_seconds - (time.process_time() - t0)

    def proved(ws: list[int], doc: dict) -> dict | None:
        rest = left()
        if rest is not None and rest <= 0:
            raise ComputationLimitError("the budget is spent")
        vd = heap_rule.check(doc, max_seconds=rest)[0]
        if not vd.ok:
            if any("not all checked within" in r for r in vd.reasons):
                raise _Late(ws, doc)
            return None
        got = {"game": game.name, "weights": ws, "certificate": doc, "verdict": vd.to_json()}
        if _opened(store):
            from cgtalg.quotients.storage import Checkpointer

            ck = Checkpointer(game, store)
            ck.write_rule(doc)
            _CHECKED[(ck.key, _where(store))] = got
        return got

    try:
        positions = Positions(game, max_tokens, left())
        for ws, doc in find_weights(game, cmax, positions=positions):
            got = proved(ws, doc)
            if got is not None:
                return got
        rest = left()
        fits = fit_weights(positions, limit=max_fits, deadline=None if rest is None else time.process_time() + rest)
        if fits:
            wide = Positions(game, max(max_tokens, FIT_TOKENS), left())
        for fit in fits:
            E = len(fit.exact) + 1
            try:
                doc = largest_heap_rule(game, fit.residue, exact_weights=fit.exact, preperiod=E, positions=wide)
            except RuleConflict:
                continue
            got = proved(fit.residue, doc)
            if got is not None:
                return got
    except _Late as late:
        if notes is not None:
            notes.append(late.note(game.name))
        return None
    except ComputationLimitError:
        return None
    return None


def weights_text(doc: dict) -> str:
    """The weights of a largest-heap rule as the field writes them: ``c(1 .. 3) = 1, 0, 1, then 4, 5,
    4, 5 by residue mod 4``."""
    ex, res = doc["weights"]["exact"], doc["weights"]["residue"]
    return (f"c(1 .. {len(ex)}) = {', '.join(map(str, ex))}, then " if ex else "c = ") + \
        f"{', '.join(map(str, res))} by residue mod {doc['grundy']['period']}"


class _Late(ComputationLimitError):
    """The referee's check of a rule that fits every position read did not finish in the budget."""

    def __init__(self, weights: list[int], doc: dict) -> None:
        super().__init__("the referee's check did not finish within the budget")
        self.weights, self.doc = weights, doc

    def note(self, name: str) -> str:
        return (f"a largest-heap rule of {name} ({weights_text(self.doc)}) fits every position of at most "
                f"{self.doc['read_off']['max_tokens']} tokens, but the referee did not finish checking it within "
                "the budget; with a larger --time it is proved or refused")
