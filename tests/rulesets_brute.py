"""Independent brute force for the ruleset tests (tests/test_rulesets_*.py): exhaustive play of
``G - v`` where ``G`` is a position given by the test's own move functions (written from the
rules, not from the library) and ``v`` a canonical form: ``G = v`` iff the second player wins
``G + (-v)`` whoever starts (Siegel CGT II.1). Also reads cgt-py's canonical forms."""

from __future__ import annotations

import sys
from typing import Any, Callable, Hashable, Iterable

Moves = Callable[[Hashable], Iterable[Hashable]]


def first_player_wins(left: Moves, right: Moves, pos: Hashable, v: Any, mover: str, memo: dict) -> bool:
    """Whether ``mover`` wins moving first in ``pos + (-v)`` (normal play). A Left move in
    ``-v`` is a Right option of ``v``, and the other way round."""
    key = (pos, v.id, mover)
    got = memo.get(key)
    if got is not None:
        return got
    nxt = "R" if mover == "L" else "L"
    if mover == "L":
        opts = [(p, v) for p in left(pos)] + [(pos, r) for r in v.right]
    else:
        opts = [(p, v) for p in right(pos)] + [(pos, lo) for lo in v.left]
    res = any(not first_player_wins(left, right, p, w, nxt, memo) for p, w in opts)
    memo[key] = res
    return res


def equals_by_play(left: Moves, right: Moves, pos: Hashable, v: Any) -> bool:
    """``pos == v`` by exhaustive play of ``pos - v``: neither player wins moving first."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 20_000))
    try:
        memo: dict = {}
        return not first_player_wins(left, right, pos, v, "L", memo) and \
            not first_player_wins(left, right, pos, v, "R", memo)
    finally:
        sys.setrecursionlimit(old)


def outcome_by_play(left: Moves, right: Moves, pos: Hashable, misere: bool = False) -> str:
    """The outcome class (L, R, N, P) of ``pos`` by exhaustive play, normal or misère."""
    memo: dict = {}

    def wins(p: Hashable, mover: str) -> bool:
        key = (p, mover)
        if key in memo:
            return memo[key]
        opts = list(left(p) if mover == "L" else right(p))
        if not opts:
            res = misere
        else:
            nxt = "R" if mover == "L" else "L"
            res = any(not wins(q, nxt) for q in opts)
        memo[key] = res
        return res

    a, b = wins(pos, "L"), wins(pos, "R")
    return {(True, True): "N", (False, False): "P", (True, False): "L", (False, True): "R"}[(a, b)]


def cgt_py_form(obj: Any) -> Any:
    """The library's form of a cgt-py object's canonical form (read from its text)."""
    from cgtalg.normal.notation import parse_partizan

    text = repr(obj.canonical_form)
    assert text.startswith("CanonicalForm(") and text.endswith(")")
    return parse_partizan(text[len("CanonicalForm(") + 1:-2])
