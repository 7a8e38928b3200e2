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

Once the referee has proved a rule, :class:`RulePlay` answers the misère play of any position
from it (its outcome in one pass over the heaps, its winning moves by keying each option, the
splits of a huge heap as arithmetic families): ``cgtalg outcome 0.734 1001 37 4 --misere`` reads
the rule the store keeps (:func:`cgtalg.ops.largest_heap.rule_for_position`, which has the referee
check it when read). :class:`RulePlay` checks nothing: a rule not proved may answer wrongly.

Examples
--------
>>> from cgtalg.rulesets.heaps.octal import TakeAndBreak
>>> doc = largest_heap_rule(TakeAndBreak("0.734"), [0, 1, 0, 1], max_tokens=16)
>>> doc["rule"]["exact_below"], doc["rule"]["z"], doc["family"]["step"]
(2, [1, 7], 4)
"""

from __future__ import annotations

import itertools
import math
import time
from typing import Any, Callable, Iterable, Iterator, NamedTuple, Sequence

from cgtalg.errors import ComputationLimitError

__all__ = ["largest_heap_rule", "find_weights", "fit_weights", "fit_rows", "Fit", "grundy_period", "Positions",
           "RuleConflict", "KIND", "RulePlay", "MAX_SPLITS", "MAX_FIT_VECTORS"]

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
                      family_search: int = 6, positions: Positions | None = None, family: bool = True,
                      preperiod: int | None = None) -> dict:
    """The certificate of the largest-heap rule of ``game`` with weights ``c(h) = weights[h mod p]``
    (``p`` the Grundy period; ``exact_weights[h − 1]`` below the Grundy preperiod, ``weights[h mod p]``
    when not given), read off every position of at most ``max_tokens`` tokens (module docstring), or
    off ``positions`` when given (read once for several weights). ``family=False``: the outcomes only
    (no family of heaps told apart is looked for; a finite quotient's game can have a rule too).
    ``preperiod`` raises the certificate's Grundy preperiod above the least one (the values are
    periodic from any later heap too), so that ``exact_weights`` covers more heaps (a fit of
    :func:`fit_weights` with ``exact_below`` above the least preperiod).

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
    n0, p, gv = max(pos_.n0, preperiod or 0), pos_.p, pos_.gv
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


# -- weights fitted to the outcomes ----------------------------------------------------------------
#: the most weight vectors :func:`fit_weights` keys (exact weights times residue weights)
MAX_FIT_VECTORS = 150_000


class Fit(NamedTuple):
    """A weight vector under which no two positions share a key but not their outcome: ``exact``
    is ``c(1) .. c(E − 1)``, ``residue`` is ``c`` by ``h mod p`` from ``E`` on, ``keys`` the number
    of distinct keys over the positions (fewer is coarser)."""

    keys: int
    exact: list[int]
    residue: list[int]


def fit_rows(rows: Iterable[tuple[Sequence[int], bool]], gv: Callable[[int], int], p: int, exact_below: int,
             residue_range: tuple[int, int] = (0, 7), window: tuple[int, int] = (-8, 24), limit: int = 8,
             deadline: float | None = None, sample: Sequence[int] = (300, 3000), seed: int = 7,
             max_vectors: int = MAX_FIT_VECTORS) -> list[Fit]:
    """The ``limit`` fits with the fewest keys among every weight vector with ``c(h)`` in ``0 .. h``
    for ``h < exact_below`` and ``c`` by residue mod ``p`` in ``residue_range`` after, keyed over
    ``rows`` (positions as heaps largest first, with whether each is a misère P-position): the key
    is the largest heap's class (exact below ``exact_below + 2p``, then its residue), ``G`` and ``z``
    clamped to ``window``. Each vector is first tried on a random sample of rows (most conflict
    there), then on all. ``deadline`` is a :func:`time.process_time` value (ComputationLimitError
    past it; so past ``max_vectors`` vectors)."""
    from cgtalg.core.lazynp import np

    E = max(int(exact_below), 1)
    f0, ncl = E + 2 * p, (E - 1) + p
    rows = list(rows)
    n = len(rows)
    cnt = np.zeros((n, ncl), dtype=np.int64)
    base, cls, out = (np.zeros(n, dtype=np.int64) for _ in range(3))
    for i, (hs, isp) in enumerate(rows):
        m, G = hs[0], 0
        for h in hs[1:]:
            G ^= gv(h)
            cnt[i, h - 1 if h < E else E - 1 + h % p] += 1
        cls[i] = (m if m < f0 else f0 + m % p) << 16 | G
        base[i], out[i] = m - sum(hs[1:]), bool(isp)
    zl, zh = window
    span = zh - zl + 1
    lo, hi = residue_range
    exact = list(itertools.product(*[range(0, h + 1) for h in range(1, E)]))
    if len(exact) * (hi - lo + 1) ** p > max_vectors:
        raise ComputationLimitError(f"{len(exact) * (hi - lo + 1) ** p} weight vectors to fit, more than "
                                    f"{max_vectors}: a smaller residue range or exact_below")
    V = np.array([list(e) + list(r) for e in exact for r in itertools.product(range(lo, hi + 1), repeat=p)],
                 dtype=np.int64).reshape(-1, ncl)

    def free(V: Any, idx: Any) -> Any:
        keep = []
        c_, b_, k_, o_ = cnt[idx], base[idx][None, :], cls[idx][None, :] * span, out[idx][None, :]
        for s in range(0, len(V), 4096):
            if deadline is not None and time.process_time() > deadline:
                raise ComputationLimitError("fitting the weights of a largest-heap rule did not finish within the "
                                            "time budget")
            z = np.clip(b_ + V[s:s + 4096] @ c_.T, zl, zh) - zl
            k = ((k_ + z) << 1) | o_
            k.sort(axis=1)
            bad = ((k[:, 1:] >> 1) == (k[:, :-1] >> 1)) & ((k[:, 1:] & 1) != (k[:, :-1] & 1))
            keep.append(~bad.any(axis=1))
        return V[np.concatenate(keep)] if keep else V

    perm = np.random.default_rng(seed).permutation(n)
    for size in sample:
        if size < n:
            V = free(V, perm[:size])
    V = free(V, perm)
    fits = []
    for v in V:
        z = np.clip(base + cnt @ v, zl, zh) - zl
        fits.append(Fit(int(np.unique(cls * span + z).size), [int(x) for x in v[:E - 1]],
                        [int(x) for x in v[E - 1:]]))
    fits.sort(key=lambda f: (f.keys, f.exact, f.residue))
    return fits[:limit]


def fit_weights(positions: Positions, exact_below: int = 4, residue_range: tuple[int, int] | None = None,
                limit: int = 8, deadline: float | None = None) -> list[Fit]:
    """The weight vectors of :func:`fit_rows` over every position ``positions`` played out,
    coarsest first; ``exact_below`` is raised to the Grundy preperiod, and the residue range is
    ``0 .. top`` with the largest ``top <= 7`` that keeps the vectors within
    :data:`MAX_FIT_VECTORS` (an empty list when even ``0 .. 2`` does not). Where the search over
    small weights (:func:`find_weights`) finds no rule, these are the candidates: the weights of a
    rule that holds give the coarsest key (``0.337``: 213 keys over the positions of 22 tokens,
    258 or more for every other fit; docs/quotient_frontier_stalls.md, "The weights of `0.337`").
    A fit is not a rule: :func:`largest_heap_rule` reads it and the referee proves it or not."""
    E, p = max(exact_below, positions.n0), positions.p
    n_exact = math.factorial(E)          # c(h) in 0 .. h for h < E
    if residue_range is None:
        top = next((t for t in range(7, 1, -1) if n_exact * (t + 1) ** p <= MAX_FIT_VECTORS), None)
        if top is None:
            return []
        residue_range = (0, top)
    return fit_rows(positions.data, positions.gv, p, E, residue_range, limit=limit, deadline=deadline)


# -- play from a proved rule -------------------------------------------------------------------------
#: splits of a heap keyed one by one up to this many tokens (winning moves); past it, the splits
#: come as arithmetic families (one run of equal keys per residue class, :meth:`RulePlay._huge_moves`)
MAX_SPLITS = 1 << 21


class RulePlay:
    """The outcomes and winning moves a largest-heap rule gives (module docstring).

    ``game`` is the heap ruleset the rule is about (``heap_options``, ``grundy_sequence``);
    ``doc`` the certificate. Malformed documents raise ``ValueError``."""

    def __init__(self, game: Any, doc: dict) -> None:
        try:
            self.n0 = int(doc["grundy"]["preperiod"])
            self.p = int(doc["grundy"]["period"])
            self.exact = [int(x) for x in doc["weights"]["exact"]]
            self.residue = [int(x) for x in doc["weights"]["residue"]]
            rule = doc["rule"]
            self.f0 = int(rule["exact_below"])
            self.zl, self.zh = (int(x) for x in rule["z"])
            self.P = {(str(k[0]), int(k[1]), int(k[2]), int(k[3])) for k in rule["P"]}
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"not a largest-heap rule ({type(exc).__name__}: {exc})") from None
        if self.n0 < 1 or self.p < 1 or len(self.residue) != self.p or len(self.exact) != self.n0 - 1:
            raise ValueError("the rule's Grundy period and weights do not match")
        self.game = game
        self.g = [int(x) for x in game.grundy_sequence(self.n0 + self.p)]

    def gv(self, h: int) -> int:
        """The Grundy value of heap ``h`` (periodic from the preperiod on)."""
        if h < self.n0 + self.p:
            return self.g[h]
        return self.g[self.n0 + (h - self.n0) % self.p]

    def c(self, h: int) -> int:
        if h <= 0:
            return 0
        return self.exact[h - 1] if h < self.n0 else self.residue[h % self.p]

    def key(self, heaps: Sequence[int]) -> tuple | None:
        """The rule's key ``(kind, value, G, clamp(z))`` of a non-empty position (None when empty)."""
        hs = [int(h) for h in heaps if h]
        if not hs:
            return None
        i = max(range(len(hs)), key=hs.__getitem__)
        m = hs[i]
        G, z = 0, m
        for j, h in enumerate(hs):
            if j != i:
                G ^= self.gv(h)
                z -= h - self.c(h)
        rho = ("e", m) if m < self.f0 else ("r", m % self.p)
        return (rho[0], rho[1], G, min(max(z, self.zl), self.zh))

    def is_p(self, heaps: Sequence[int]) -> bool:
        """Whether ``heaps`` is a misère P-position by the rule (the empty position is N)."""
        return self.key(heaps) in self.P

    def outcome(self, heaps: Sequence[int]) -> str:
        return "P" if self.is_p(heaps) else "N"

    def winning_moves(self, heaps: Sequence[int], move: Callable[..., Any]) -> list:
        """Every move of ``heaps`` to a position the rule calls P, built by ``move(heap_index, heap,
        removed, parts)`` (heaps named by the index of their first occurrence)."""
        from cgtalg.quotients.play import _ray_moves

        def huge(i: int, h: int, rest: list[int], mv: Callable[..., Any]) -> Iterator[Any]:
            return self._huge_moves(i, h, rest, mv)
        huge.limit = MAX_SPLITS       # type: ignore[attr-defined]   (read when called: tests lower it)
        return list(_ray_moves(self.game, self, [int(h) for h in heaps], move, huge))

    # -- a heap too large to key each split ---------------------------------------------------
    def _huge_moves(self, i: int, h: int, rest: list[int], move: Callable[..., Any]) -> Iterator[Any]:
        """The winning moves in a heap ``h > MAX_SPLITS`` of a finite take-and-break code, from its
        digits: a move leaving one heap or none is keyed alone; the splits into ``(a, r − a)``
        (``r = h − t``) are keyed alone for ``a`` below the preperiod and ``exact_below``, and
        per residue class of ``a`` mod ``p`` above: along a class the other heaps' ``G`` is
        constant, and while ``b = r − a`` is the largest heap ``ρ(b)`` is constant and ``z = r − 2a
        + c(a) − Σ w(rest)`` decreases, so clamped it is monotone; once the largest of ``rest``
        exceeds ``b`` the key is constant. So a class is cut where ``b`` stops being the largest,
        and each part into runs of one key by bisection (equal keys at both ends of a part of a
        monotone key are equal throughout); a run of P-keys is one family of moves (``stride p``)."""
        digit, k = getattr(self.game, "digit", None), getattr(self.game, "k", None)
        if digit is None or k is None or not getattr(self.game, "is_finite", False):
            raise ComputationLimitError(
                f"the winning moves in a heap of {h} tokens: only a finite take-and-break code's are enumerated "
                "from a largest-heap rule (its outcome is answered)")
        p, top = self.p, max(rest, default=0)
        low = max(self.n0, self.f0, 1)
        for t in range(0, min(h, k) + 1):
            d = digit(t)
            r = h - t
            if not d:
                continue
            if r == 0:
                if d & 1 and self.is_p(rest):
                    yield move(i, h, h, ())
                continue
            if d & 2 and self.is_p(rest + [r]):
                yield move(i, h, t, (r,))
            if not d & 4:
                continue
            half = r // 2
            for a in range(1, min(low - 1, half) + 1):
                if self.is_p(rest + [a, r - a]):
                    yield move(i, h, t, (a, r - a))
            for a0 in range(low, min(low + p, half + 1)):
                last = a0 + (half - a0) // p * p
                # b = r − a is the largest while a <= r − top; past it the largest of rest is
                end = min(last, r - top)
                cut = a0 + (end - a0) // p * p if end >= a0 else a0 - p
                for lo, hi in ((a0, cut), (cut + p, last)):
                    if lo <= hi:
                        for x, y in self._runs(rest, r, lo, hi):
                            count = (y - x) // p + 1
                            yield move(i, h, t, (x, r - x), stride=p if count > 1 else 0, count=count)

    def _runs(self, rest: list[int], r: int, lo: int, hi: int) -> Iterator[tuple[int, int]]:
        """The runs ``[x, y]`` (steps of ``p``) of ``a`` in ``[lo, hi]`` whose split ``(a, r − a)``
        beside ``rest`` is called P, where the key is monotone in ``a`` (:meth:`_huge_moves`)."""
        p = self.p

        def key(a: int) -> tuple | None:
            return self.key(rest + [a, r - a])

        stack = [(lo, hi)]
        runs: list[tuple[int, int]] = []
        while stack:
            x, y = stack.pop()
            kx = key(x)
            if kx == key(y):
                if kx in self.P:
                    runs.append((x, y))
                continue
            mid = x + (y - x) // p // 2 * p
            stack.append((mid + p, y))
            stack.append((x, mid))
        runs.sort()
        merged: list[tuple[int, int]] = []
        for x, y in runs:
            if merged and merged[-1][1] + p == x:
                merged[-1] = (merged[-1][0], y)
            else:
                merged.append((x, y))
        return iter(merged)
