"""Largest-heap rules: the search for a rule over heap sizes that gives every misère outcome of
a heap game, and the certificate that proves it (and the infinite quotient it implies).

A *largest-heap rule* keys a non-empty position by its largest heap ``m`` and the other heaps
``O``: ``G = ⊕_{h∈O} g(h)`` (normal-play Grundy values), ``z = m − Σ_{h∈O} w(h)`` with ``w(h) =
h − c(h)`` for weights ``c`` periodic with the Grundy values, and ``ρ(m)`` (``m`` itself below
``exact_below``, else ``m mod p``); the rule lists the keys ``(ρ(m), G, clamp(z))`` of the
P-positions, ``z`` clamped to a window ``[zl, zh]``. Where the quotients ``Q_n`` stay finite but
grow without bound (their orders grow like ``n²``), such a rule is a statement about *every*
heap; ``0.734`` and ``0.735`` follow one with ``c(h) = h mod 2`` (docs/quotient_frontier_stalls.md,
"`0.734` in three numbers").

:func:`largest_heap_rule` reads the rule off every position of at most ``max_tokens`` tokens
(played out here, misère, memoised on sorted heaps), chooses the window and ``exact_below``,
finds a family of single heaps the rule tells apart (``m0 + j·s`` beside ``base + j·block``),
and returns the certificate ``{"kind": "largest-heap-rule", ...}``. The search proves nothing:
:mod:`cgtalg.referee.heap_rule` checks the certificate for every position (the P- and
N-conditions on finitely many *views* of positions, by induction) and is the proof; ``cgtalg
check`` runs it. :func:`find_weights` tries every weight vector with entries in ``0 .. cmax``.

Examples
--------
>>> from cgtalg.rulesets.heaps.octal import TakeAndBreak
>>> doc = largest_heap_rule(TakeAndBreak("0.734"), [0, 1, 0, 1], max_tokens=16)
>>> doc["rule"]["exact_below"], doc["rule"]["z"], doc["family"]["step"]
(2, [1, 7], 4)
"""

from __future__ import annotations

import itertools
import time
from typing import Any, Iterator, Sequence

from cgtalg.errors import ComputationLimitError

__all__ = ["largest_heap_rule", "find_weights", "grundy_period", "Positions", "RuleConflict", "KIND"]

KIND = "largest-heap-rule"


class RuleConflict(ComputationLimitError):
    """No largest-heap rule of the shape asked for fits the positions played out: two positions
    with the same key have different outcomes (``examples`` holds them)."""

    def __init__(self, message: str, examples: list | None = None) -> None:
        super().__init__(message)
        self.examples = examples or []


def _grundy(game: Any, count: int) -> list[int]:
    """``g(0) .. g(count − 1)`` by the game's own Grundy engine (``grundy_sequence``)."""
    return [int(x) for x in game.grundy_sequence(count)]


def _period(g: list[int]) -> tuple[int, int]:
    """The least ``(n0 >= 1, p)`` with ``g`` periodic from ``n0`` over the values given (half of
    them at least seen twice)."""
    n = len(g)
    for total in range(2, n // 2):
        for p in range(1, total):
            n0 = total - p
            if all(g[i] == g[i + p] for i in range(n0, n - p)):
                return n0, p
    raise RuleConflict(f"no period of the Grundy values within {n} heaps")


def grundy_period(game: Any, heaps: int = 88) -> tuple[int, int] | None:
    """The least ``(n0 >= 1, p)`` with the Grundy values of heaps ``0 .. heaps − 1`` periodic from
    ``n0`` (both seen twice over the rest), or None (a largest-heap rule keys heaps by residue)."""
    try:
        return _period(_grundy(game, heaps))
    except RuleConflict:
        return None


class _Play:
    """Misère outcomes of positions (sorted tuples), memoised; a position without a move is N."""

    def __init__(self, game: Any, max_seconds: float | None) -> None:
        self.opts: dict[int, list[tuple[int, ...]]] = {}
        self.deadline = None if max_seconds is None else time.process_time() + max_seconds
        self.game, self.memo, self.budget, self.steps = game, {}, max_seconds, 0

    def options(self, h: int) -> list[tuple[int, ...]]:
        got = self.opts.get(h)
        if got is None:
            got = self.opts[h] = [tuple(p for p in o if p > 0) for o in self.game.heap_options(h)]
        return got

    def is_p(self, pos: tuple[int, ...]) -> bool:
        got = self.memo.get(pos)
        if got is not None:
            return got
        self.steps += 1
        if self.deadline is not None and self.steps % 4096 == 0 and time.process_time() > self.deadline:
            raise ComputationLimitError(f"the largest-heap rule's play did not finish within the time budget of "
                                        f"{self.budget} s; pass a larger max_seconds or fewer max_tokens")
        moved = False
        res = True
        for i, h in enumerate(pos):
            if i and pos[i - 1] == h:
                continue
            rest = pos[:i] + pos[i + 1:]
            for parts in self.options(h):
                moved = True
                if self.is_p(tuple(sorted(rest + parts))):
                    res = False
                    break
            if not res:
                break
        res = res and moved
        self.memo[pos] = res
        return res


def _partitions(n: int, top: int):
    if n == 0:
        yield ()
        return
    for h in range(min(n, top), 0, -1):
        for rest in _partitions(n - h, h):
            yield (h,) + rest


def _positions(play: "_Play", max_tokens: int) -> list[tuple[tuple[int, ...], bool]]:
    out = []
    for n in range(1, max_tokens + 1):
        for pos in _partitions(n, n):
            out.append((pos, play.is_p(tuple(sorted(pos)))))
    return out


class Positions:
    """Every position of at most ``max_tokens`` tokens of ``game`` with its misère outcome, and
    the Grundy values with their least period (read once; :func:`largest_heap_rule` keys them by
    any weights)."""

    def __init__(self, game: Any, max_tokens: int = 26, max_seconds: float | None = 120.0) -> None:
        self.game, self.max_tokens = game, max_tokens
        self.g = _grundy(game, max(4 * max_tokens, 88))     # as grundy_period: the same period
        self.n0, self.p = _period(self.g)
        self.data = _positions(_Play(game, max_seconds), max_tokens)

    def gv(self, h: int) -> int:
        return self.g[h] if h < self.n0 + self.p else self.g[self.n0 + (h - self.n0) % self.p]


def largest_heap_rule(game: Any, weights: Sequence[int], *, exact_weights: Sequence[int] | None = None,
                      max_tokens: int = 26, max_seconds: float | None = 120.0,
                      family_search: int = 6, positions: Positions | None = None, family: bool = True) -> dict:
    """The certificate of the largest-heap rule of ``game`` with weights ``c(h) = weights[h mod p]``
    (``p`` the Grundy period; ``exact_weights[h − 1]`` below the Grundy preperiod, ``weights[h mod p]``
    when not given), read off every position of at most ``max_tokens`` tokens (module docstring), or
    off ``positions`` when given (read once for several weights). ``family=False``: the outcomes only
    (no family of heaps told apart is looked for; a finite quotient's game can have a rule too).

    ``max_seconds`` counts the process's CPU time. The certificate is checked by
    :func:`cgtalg.referee.heap_rule.check`; this function does not prove it.

    Raises
    ------
    RuleConflict
        When two positions with the same key have different outcomes (no rule of this shape with
        these weights), or no family of heaps told apart is found.
    ComputationLimitError
        When the play does not finish within ``max_seconds``.
    """
    pos_ = positions if positions is not None else Positions(game, max_tokens, max_seconds)
    n0, p, gv = pos_.n0, pos_.p, pos_.gv
    if len(weights) != p:
        raise RuleConflict(f"{len(weights)} weights given, but the Grundy period is {p}")
    ex = list(exact_weights or [])
    ex = (ex + [weights[h % p] for h in range(len(ex) + 1, n0)])[: n0 - 1]

    def c(h: int) -> int:
        if h == 0:
            return 0
        return ex[h - 1] if h < n0 else weights[h % p]

    rows = []
    for pos, isp in pos_.data:
        m, G, S = pos[0], 0, 0
        for h in pos[1:]:
            G ^= gv(h)
            S += h - c(h)
        rows.append((m, G, m - S, isp, pos))
    f0, table = _exact_below(rows, p, n0)
    zl, zh, P = _window(table)
    doc = {"kind": KIND, "format": 1, "game": getattr(game, "name", str(game)),
           "grundy": {"preperiod": n0, "period": p},
           "weights": {"exact": ex, "residue": list(weights)},
           "rule": {"exact_below": f0, "z": [zl, zh], "P": sorted([list(k[0]) + [k[1], k[2]] for k in P])},
           "read_off": {"max_tokens": pos_.max_tokens, "positions": len(rows)}}
    if family:
        doc["family"] = _family(doc, gv, c, family_search)
    return doc


def _rho(m: int, f0: int, p: int) -> tuple:
    return ("e", m) if m < f0 else ("r", m % p)


def _exact_below(rows, p: int, n0: int) -> tuple[int, dict]:
    """The least ``exact_below`` with no conflicting key (raw ``z``), and the table."""
    last = None
    for f0 in range(1, n0 + 3 * p + 2):
        table: dict = {}
        bad = None
        for m, G, z, isp, pos in rows:
            key = (_rho(m, f0, p), G, z)
            old = table.get(key)
            if old is not None and old[0] != isp:
                bad = (key, old[1], pos)
                break
            table.setdefault(key, (isp, pos))
        if bad is None:
            return f0, table
        last = bad
    key, a, b = last
    raise RuleConflict(f"positions {list(a)} and {list(b)} share the key {key} but not their outcome", [a, b])


def _window(table: dict) -> tuple[int, int, set]:
    """The narrowest ``[zl, zh]`` such that, for each ``(ρ, G)``, every ``z <= zl`` seen has one
    outcome and every ``z >= zh`` one outcome; the P-keys, clamped (a key never seen is N)."""
    by: dict = {}
    for (rho, G, z), (isp, _pos) in table.items():
        by.setdefault((rho, G), {})[z] = isp
    zl = min(_constant_end(v, False) for v in by.values())
    zh = max(max(_constant_end(v, True) for v in by.values()), zl)
    P = set()
    for (rho, G), vals in by.items():
        for x, isp in vals.items():
            if isp:
                P.add((rho, G, min(max(x, zl), zh)))
    return zl, zh, P


def _constant_end(vals: dict, top: bool) -> int:
    """The last ``z`` of the run of outcomes equal to the outcome at the lowest ``z`` seen (from
    the highest, going down, when ``top``)."""
    zs = sorted(vals, reverse=top)
    end = zs[0]
    for z in zs[1:]:
        if vals[z] != vals[zs[0]]:
            break
        end = z
    return end


def _family(doc: dict, gv, c, reach: int) -> dict:
    """Single heaps ``m0 + j·s`` the rule tells apart (certificate's ``family``)."""
    p, f0 = doc["grundy"]["period"], doc["rule"]["exact_below"]
    zl, zh = doc["rule"]["z"]
    P = {(k[0], k[1], k[2], k[3]) for k in doc["rule"]["P"]}

    def val(res, G, z):
        return ("r", res, G, min(max(z, zl), zh)) in P

    def w(h):
        return h - c(h)
    blocks = []
    for h in range(1, 4 * p + 8):
        for cnt in (2, 4):
            s = cnt * w(h)
            if s > 0 and s % p == 0:
                blocks.append((s, [h] * cnt))
    blocks.sort()
    for s, block in blocks:
        for m0 in range(max(f0, 1), max(f0, 1) + reach * p):
            res = m0 % p
            small = [h for h in range(1, min(m0, 2 * p + 6) + 1)]
            for size in range(0, 5):
                for base in itertools.combinations_with_replacement(small, size):
                    G0, S0 = 0, 0
                    for h in base:
                        G0 ^= gv(h)
                        S0 += w(h)
                    z0 = m0 - S0
                    v0 = val(res, G0, z0)
                    u, good = 1, True
                    while True:
                        if val(res, G0, z0 + u * s) == v0:
                            good = False
                            break
                        if z0 + u * s >= zh:
                            break
                        u += 1
                    if good and max(block) <= m0:
                        return {"heap": m0, "step": s, "base": list(base), "block": block}
    raise RuleConflict("no family of single heaps told apart by the rule was found (the rule may not show an "
                       "infinite quotient)")


def find_weights(game: Any, cmax: int = 2, positions: Positions | None = None,
                 **kwargs: Any) -> Iterator[tuple[list[int], dict]]:
    """Every weight vector (entries ``0 .. cmax``, in lexicographic order) whose rule has no conflict
    on the positions read, with its certificate (:func:`largest_heap_rule`'s keyword arguments pass
    on; the positions are played out once). A rule read off few positions may still be false: the
    caller keeps the first one :func:`cgtalg.referee.heap_rule.check` accepts."""
    if positions is None:
        positions = Positions(game, kwargs.pop("max_tokens", 26), kwargs.pop("max_seconds", 120.0))
    for ws in itertools.product(range(cmax + 1), repeat=positions.p):
        try:
            yield list(ws), largest_heap_rule(game, list(ws), positions=positions, **kwargs)
        except RuleConflict:
            continue
