"""The normal tail: a misère quotient certified final from the Grundy sequence.

Plambeck and Siegel's periodicity theorem certifies ``Q_N`` final once Φ repeats up to about
``2·n0 + 2·p`` (:func:`cgtalg.quotients.state.certified_misere_period`). A game whose Grundy
sequence has a long preperiod (``0.56``: ``n0 = 326 640``, period 144) would need Φ of some
650 000 heaps that way. Yet from some heap on such a game is played as in normal play: every
large heap lands in an ideal of the quotient on which the P-portion is "Grundy value 0". This
module proves that, with the certified Grundy period instead of Φ's.

The theorem (a misère analogue of "a position with a big heap is played as in normal play")
--------------------------------------------------------------------------------------------
Let ``(Q, P)`` be the verified reduced quotient of the heaps ``0..N`` with map Φ, and ``G`` the
Grundy sequence. Suppose

1. *values:* ``val: Q → ℕ`` with ``val(Φ(h)) = G(h)`` for ``h <= N`` and
   ``val(xy) = val(x) ⊕ val(y)`` (a homomorphism onto nim-addition);
2. *the ideal:* ``B = {b ∈ Q : for every y, by ∈ P ⟺ val(b) ⊕ val(y) = 0}``. It is an ideal
   (``(bz)y = b(zy)``) and ``b ∈ P ⟺ val(b) = 0`` on it (take ``y = 1``);
3. *the bound:* ``f`` is the largest heap ``<= N`` whose image is not in ``B`` (heaps without a
   move map to ``1 ∉ B``), a move takes at most ``k`` tokens and leaves at most ``h`` heaps,
   and ``N >= h·f + k``; every heap ``n > N`` has a move that leaves a heap;
4. *the values beyond:* the Grundy sequence is certified periodic (Guy–Smith), and ``V′`` is the
   set of nim-values spanned by ``val(Q_N)`` and the values ``G(n)``, ``n > N``.

``B`` holds one element of each value of ``val(Q_N)`` (a group; two elements of ``B`` with one
value are indistinguishable, so equal in a reduced quotient). Let ``Q′`` be ``Q_N`` with a new
element ``b_g`` for each ``g ∈ V′ ∖ val(Q_N)``, multiplied by ``x·b_g = β(val(x) ⊕ g)`` (``β``
the element of ``B ∪ {b_g}`` with that value), none of them in ``P``. Then ``Q′`` is the
quotient of the whole game, with ``Φ(n) = β(G(n))`` for ``n > N``.

*Proof.* Extend Φ by ``β∘G`` above ``N``; ``val(Φ(W)) = G(W)`` for every position ``W``. We show
``W`` is a misère P-position exactly when ``Φ(W) ∈ P``, by induction over the positions (the
game ends). For ``W`` of heaps ``<= N`` this is the verification of ``Q_N``. Otherwise ``W``
holds a heap ``n > N``: ``Φ(W)`` lies in the ideal ``B′ = B ∪ {b_g}``, and every option of ``W``
holds a heap ``> f`` (``n`` itself, or the largest heap a move leaves of ``n``, at least
``(n − k) / h > f``), so every option's image is in ``B′`` too, where ``P`` is ``val = 0``. By
induction an option ``W'`` is P exactly when ``G(W') = 0``. ``W`` has a move (condition 3), so
it is P exactly when no option has Grundy value 0, that is ``G(W) = 0``, that is
``Φ(W) ∈ P``. The heaps' images generate ``Q′``, and ``Q′`` is reduced (elements of ``B′`` with
different values are told apart by ``β`` of one of them; an element ``x ∉ B`` from one of
``B′`` with its value by the ``y`` that keeps ``x`` out of ``B``, from one with another value
``g`` by ``b_g``), so ``Q′`` is the quotient.

It applies well beyond long preperiods: Kayles (``0.77``, wild, order 40) is final by it at heap
52 (Plambeck–Siegel's theorem needs heap 170). The construction tries it only when that theorem
would need more than :data:`TAIL_FROM` heaps, so results certified the usual way do not change.

The referee proves the same statement with its own code (:mod:`cgtalg.referee.quotient_tail`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np

from cgtalg.quotients.state import _heap_options

__all__ = ["NormalTail", "normal_values", "normal_ideal", "normal_tail", "least_period", "extend_phi", "span",
           "TAIL_THEOREM", "BudgetShort", "recheck_tail", "tail_state", "TailWatch",
           "ideal_conditions", "certified_grundy_period", "normal_tie", "TIE_THEOREM", "tie_of",
           "TIE_ORDER", "least_tie"]

#: rows of the table handled at once (the checks read whole rows)
BLOCK = 256

#: most nim-values the tail may add to the quotient
MAX_NEW = 1 << 16

#: how the statement is named in results, records and certificates
TAIL_THEOREM = "normal tail (heaps above the bound land in an ideal played as in normal play)"


@dataclass(frozen=True)
class NormalTail:
    """A proof that the quotient of the whole game is ``Q_N`` extended by the normal tail
    (module docstring).

    ``verified_to`` is ``N``; ``outside`` the largest heap ``f <= N`` whose image is not in the
    ideal ``B`` (``-1`` for none); ``grundy`` the certified ``(n0, p)`` of the Grundy sequence;
    ``new_values`` the nim-values of ``V′`` not already in ``val(Q_N)`` (each a new element of
    ``B′``, numbered after ``Q_N``'s in that order); ``table`` and ``P`` the final quotient
    ``Q′``; ``images`` Φ of heaps ``N + 1 .. max(n0, N + 1) + p − 1``, from which Φ repeats
    with period ``p``."""

    verified_to: int
    outside: int
    grundy: tuple[int, int]
    ideal_size: int
    new_values: tuple[int, ...]
    table: np.ndarray = field(repr=False, compare=False)
    P: np.ndarray = field(repr=False, compare=False)
    images: tuple[int, ...] = field(repr=False)

    def to_dict(self) -> dict:
        return {"theorem": TAIL_THEOREM, "verified_to": self.verified_to, "outside": self.outside,
                "grundy": list(self.grundy), "ideal": self.ideal_size, "new_values": list(self.new_values)}


def span(values: Sequence[int]) -> list[int]:
    """The nim-values spanned by ``values`` under ``⊕`` (0 included), sorted."""
    basis: list[int] = []
    for v in values:
        for b in basis:
            v = min(v, v ^ b)
        if v:
            basis.append(v)
    out = {0}
    for b in basis:
        out |= {x ^ b for x in out}
    return sorted(out)


def normal_values(table: np.ndarray, phi: Sequence[int], grundy: Sequence[int]) -> np.ndarray | None:
    """``val`` on the elements (condition 1), or None when the heaps' Grundy values do not
    define a homomorphism onto nim-addition (some element would get two values, or an element is
    no product of heap images)."""
    size = table.shape[0]
    val = np.full(size, -1, dtype=np.int64)
    val[0] = 0
    gens: dict[int, int] = {}
    for h, x in enumerate(phi):
        g = int(grundy[h])
        if gens.setdefault(int(x), g) != g:
            return None
    frontier = [0]
    while frontier:
        nxt = []
        for y in frontier:
            for x, g in gens.items():
                z = int(table[y, x])
                w = int(val[y]) ^ g
                if val[z] < 0:
                    val[z] = w
                    nxt.append(z)
                elif val[z] != w:
                    return None
        frontier = nxt
    if (val < 0).any():
        return None
    for lo in range(0, size, BLOCK):   # by blocks of rows: a table of 20 000 elements fits
        hi = min(size, lo + BLOCK)
        if not (val[table[lo:hi]] == (val[lo:hi, None] ^ val[None, :])).all():
            return None
    return val


def normal_ideal(table: np.ndarray, P: np.ndarray, val: np.ndarray) -> np.ndarray:
    """The mask of ``B`` (condition 2): the elements ``b`` with ``by ∈ P ⟺ val(b) ⊕ val(y) = 0``
    for every ``y``."""
    P = np.asarray(P, dtype=bool)
    out = np.empty(table.shape[0], dtype=bool)
    for lo in range(0, table.shape[0], BLOCK):
        hi = min(table.shape[0], lo + BLOCK)
        out[lo:hi] = (P[table[lo:hi]] == ((val[lo:hi, None] ^ val[None, :]) == 0)).all(axis=1)
    return out


def ideal_conditions(ruleset: Any, table: np.ndarray, P: np.ndarray, phi: Sequence[int], bound: tuple[int, int],
                     grundy: Sequence[int]) -> tuple[np.ndarray, np.ndarray, int] | str:
    """Conditions 1–3 of the module docstring on the verified ``Q_N`` (``N = len(phi) − 1``;
    ``grundy`` holds ``G(0..N)`` at least): ``(val, the mask of B, f)``, or why they fail."""
    N = len(phi) - 1
    val = normal_values(table, phi, grundy)
    if val is None:
        return "the heaps' Grundy values do not make a homomorphism of Q onto nim-addition"
    big = normal_ideal(table, P, val)
    if not big.any():
        return "no element of Q is played as in normal play"
    outside = max((h for h, x in enumerate(phi) if not big[x]), default=-1)
    k, hmax = bound
    if N < hmax * outside + k:
        return (f"heap {outside} is outside the ideal, so the bound needs heaps up to "
                f"{hmax * outside + k}, not {N}")
    if not any(len(o) for o in _heap_options(ruleset, N + 1)):
        return f"heap {N + 1} has no move that leaves a heap"
    return val, big, outside


def normal_tail(ruleset: Any, table: np.ndarray, P: np.ndarray, phi: Sequence[int], bound: tuple[int, int],
                grundy_period: tuple[int, int], grundy: Sequence[int],
                conditions: tuple[np.ndarray, np.ndarray, int] | None = None) -> NormalTail | str:
    """The proof that the verified ``Q_N`` (``N = len(phi) − 1``) is final by the normal tail, or
    why not (a text).

    ``bound`` is ``(k, h)`` (most tokens a move takes, most heaps it leaves); ``grundy_period``
    the *certified* ``(n0, p)`` of the Grundy sequence and ``grundy`` its values for heaps
    ``0 .. max(n0, N + 1) + p − 1`` at least; ``conditions``, what :func:`ideal_conditions` gave
    for these data, when it ran already."""
    N = len(phi) - 1
    n0, p = grundy_period
    stop = max(n0, N + 1) + p
    if len(grundy) < stop:
        raise ValueError(f"the Grundy values reach heap {len(grundy) - 1}, not {stop - 1}")
    got = conditions if conditions is not None else ideal_conditions(ruleset, table, P, phi, bound, grundy)
    if isinstance(got, str):
        return got
    val, big, outside = got
    beta = {int(val[b]): int(b) for b in np.flatnonzero(big)}
    tail_values = {int(g) for g in grundy[N + 1: stop]}
    values = span(sorted(set(beta) | tail_values))
    if len(values) - len(beta) > MAX_NEW:
        return f"the tail's Grundy values span {len(values)} nim-values, more than this extension builds"
    if not set(val.tolist()) <= set(beta):
        return "the ideal misses a nim-value of Q"     # (cannot happen: val(B) = val(Q) when B is non-empty)
    new = [g for g in values if g not in beta]
    size = table.shape[0]
    for i, g in enumerate(new):
        beta[g] = size + i
    vals = np.concatenate([val, np.asarray(new, dtype=np.int64)])
    to_elem = np.zeros(max(values) + 1, dtype=np.int64)
    for g, b in beta.items():
        to_elem[g] = b
    ext = np.empty((size + len(new), size + len(new)), dtype=np.int64)
    ext[:size, :size] = table
    ext[:, size:] = to_elem[vals[:, None] ^ vals[None, size:]]
    ext[size:, :] = ext[:, size:].T
    Pext = np.concatenate([np.asarray(P, dtype=bool), np.zeros(len(new), dtype=bool)])
    images = tuple(int(beta[int(g)]) for g in grundy[N + 1: stop])
    return NormalTail(N, outside, (int(n0), int(p)), int(big.sum()), tuple(new), ext, Pext, images)

def extend_phi(phi: Sequence[int], tail: NormalTail) -> list[int]:
    """Φ of heaps ``0 .. max(n0, N + 1) + p − 1``: ``phi`` (heaps ``0..N``) and the tail's images."""
    return [int(x) for x in phi[: tail.verified_to + 1]] + list(tail.images)


def least_period(N: int, grundy: tuple[int, int], images: Sequence[int], phi: Sequence[int]) -> tuple[int, int]:
    """The least preperiod and period of the infinite Φ that is ``phi`` on heaps ``0..N`` and has
    the ``images`` on heaps ``N + 1 ..`` (then period ``p`` from ``max(n0, N + 1)``)."""
    n0, p = grundy
    start = max(n0, N + 1)
    seq = list(phi[: N + 1]) + list(images)
    q = next(d for d in range(1, p + 1)
             if p % d == 0 and all(seq[start + i] == seq[start + (i + d) % p] for i in range(p)))
    m = start
    while m > 0 and seq[m - 1] == seq[m - 1 + q]:
        m -= 1
    return (m, q)


#: the normal tail is tried only when Plambeck–Siegel's theorem would need Φ past this heap
#: (from the Grundy period: Φ's preperiod is at least the Grundy sequence's when Φ determines G)
TAIL_FROM = 2000

#: heaps up to which the Grundy values the tail's first checks read come from a plain mex
SMALL_MEX = 2048

#: the first heap at which the normal tail is tried
TAIL_FIRST = 256

#: the share of the budget left that the Grundy period's search may take, and at most
TAIL_SHARE, TAIL_SECONDS = 0.1, 10.0


class TailWatch:
    """Decides, heap after heap of a construction, when the normal tail is worth trying, and
    keeps what it needs: the Grundy period (searched once, within a share of the budget) and the
    largest heap outside the ideal of the current quotient."""

    def __init__(self, ruleset: Any, bound: tuple[int, int] | None) -> None:
        self.ruleset, self.bound = ruleset, bound
        self.off = bound is None or not callable(getattr(ruleset, "periodicity", None))
        self.cert: tuple[int, int] | None = None
        self.order = -1
        self.next_try = 0
        self.g: list[int] = []

    def grundy_to(self, N: int) -> list[int]:
        """``G(0..N)``: by the mex of the heaps' options up to a few thousand heaps (no compiled
        kernel loaded for a small quotient), by the ruleset's engine beyond."""
        if N >= SMALL_MEX:
            return [int(x) for x in self.ruleset.grundy_sequence(N + 1)]
        while len(self.g) <= N:
            seen = set()
            for o in _heap_options(self.ruleset, len(self.g)):
                x = 0
                for part in o:
                    x ^= self.g[part]
                seen.add(x)
            m = 0
            while m in seen:
                m += 1
            self.g.append(m)
        return self.g[: N + 1]

    def _grundy_period(self, deadline: Any) -> tuple[int, int] | None:
        if self.cert is None and not self.off:
            left = deadline.remaining() if hasattr(deadline, "remaining") else None
            got = certified_grundy_period(self.ruleset, TAIL_SECONDS if left is None else
                                          max(1.0, min(TAIL_SECONDS, TAIL_SHARE * left)))
            k, h = self.bound
            if isinstance(got, str) or h * max(got[0], 1) + h * got[1] + k <= TAIL_FROM:
                self.off = True   # no certified period, or Plambeck–Siegel's theorem is near
                return None
            self.cert = got
        return self.cert

    def attempt(self, pre: Any, deadline: Any) -> NormalTail | None:
        """The normal tail of the verified ``pre`` (heaps ``0..N``), when it holds."""
        N = len(pre.phi) - 1
        if self.off or N < self.next_try:
            return None
        if pre.monoid.size != self.order:   # a new quotient: wait until it has held a while
            first, self.order = self.order < 0, pre.monoid.size
            self.next_try = max(2 * N, TAIL_FIRST)
            if not (first and N >= TAIL_FIRST):   # (a state resumed past TAIL_FIRST: try it now)
                return None
        self.next_try = 2 * N
        # the cheap conditions first (wild quotients stop here, without a Grundy search)
        cond = ideal_conditions(self.ruleset, pre.monoid.table, pre.P, pre.phi, self.bound, self.grundy_to(N))
        if isinstance(cond, str):
            return None
        cert = self._grundy_period(deadline)
        if cert is None:
            return None
        n0, p = cert
        grundy = self.ruleset.grundy_sequence(max(n0, N + 1) + p)
        got = normal_tail(self.ruleset, pre.monoid.table, pre.P, pre.phi, self.bound, cert, grundy, cond)
        return got if isinstance(got, NormalTail) else None


def tail_state(pre: Any, tail: NormalTail, seconds: float) -> Any:
    """The final :class:`~cgtalg.quotients.state.QuotientState` of a normal tail: the quotient
    ``Q′`` (canonically numbered), Φ up to one Grundy period past the preperiod, its least
    period, and the tail's statement."""
    from cgtalg.quotients.pretension import FiniteMonoid, Pretension, _canonical_order
    from cgtalg.quotients.state import QuotientState

    phi = extend_phi(pre.phi, tail)
    ext = _canonical_order(Pretension(FiniteMonoid(tail.table), tail.P, phi))
    period = least_period(tail.verified_to, tail.grundy, ext.phi[tail.verified_to + 1:], ext.phi)
    return QuotientState(ext, period, seconds, tail=tail.to_dict())


#: how the statement without a Grundy period is named (:func:`normal_tie`)
TIE_THEOREM = ("normal tie (heaps above the bound land in an ideal played as in normal play; the whole "
               "quotient is Q_N extended by the nim-values the later Grundy values span)")


def normal_tie(ruleset: Any, table: np.ndarray, P: np.ndarray, phi: Sequence[int], bound: tuple[int, int],
               grundy: Sequence[int]) -> dict | str:
    """The normal tail's statement without its condition 4, or why conditions 1–3 fail (a text).

    When conditions 1–3 hold on the verified ``Q_N`` (``N = len(phi) − 1``) the module's proof
    needs no Grundy period: the quotient of the whole game is ``Q_N`` with one new element for
    each nim-value of ``V′ ∖ val(Q_N)``, ``V′`` spanned by ``val(Q_N)`` and the Grundy values of
    the heaps above ``N`` (the induction never uses that ``V′`` is finite). So it is finite
    exactly when those Grundy values are bounded (a span of values below ``2^k`` lies below
    ``2^k``; unbounded values span infinitely many). As ``val(Q_N)`` is the span of ``G(0..N)``
    (``B``, the ideal, holds one element of each), ``|Q_n| = |Q_N| + |span G(0..n)| − |B|`` for
    every ``n >= N``. A statement about every heap, which leaves the quotient's finiteness to a
    question of normal play.

    Returns ``{"theorem", "verified_to": N, "outside": f, "ideal": |B|}``."""
    got = ideal_conditions(ruleset, table, P, phi, bound, grundy)
    if isinstance(got, str):
        return got
    val, big, outside = got
    return {"theorem": TIE_THEOREM, "verified_to": len(phi) - 1, "outside": int(outside), "ideal": int(big.sum())}


#: the largest partial quotient whose normal tie is looked for (the check reads |Q|² entries)
TIE_ORDER = 5000


def tie_of(q: Any, ruleset: Any, grundy_to: Callable[[int], Sequence[int]] | None = None) -> dict | None:
    """The normal tie (:func:`normal_tie`) of the verified partial quotient ``q`` (a
    :class:`~cgtalg.quotients.result.MisereQuotient` of ``ruleset``), or None when it does not
    hold or is not looked for (a final or infinite quotient, one of order above
    :data:`TIE_ORDER`, a ruleset outside Plambeck–Siegel's theorem or without Grundy values).
    ``grundy_to(N)`` gives ``G(0..N)`` (default: the ruleset's ``grundy_sequence``)."""
    from cgtalg.errors import RulesetFactError
    from cgtalg.quotients.state import misere_period_bound

    if (q.final or getattr(q, "infinite_from", None) is not None or q.order > TIE_ORDER
            or not callable(getattr(ruleset, "grundy_sequence", None))):
        return None
    try:
        bound = misere_period_bound(ruleset)
    except RulesetFactError:
        return None
    if bound is None:
        return None
    N = int(q.max_heap)
    g = list(grundy_to(N)) if grundy_to is not None else [int(x) for x in ruleset.grundy_sequence(N + 1)]
    got = normal_tie(ruleset, np.asarray(q.table), np.asarray(q.P, dtype=bool), q.phi, bound, g[: N + 1])
    return got if isinstance(got, dict) else None


def least_tie(ruleset: Any, quotient_at: Callable[[int], Any], N: int, tie: dict,
              grundy_to: Callable[[int], Sequence[int]] | None = None) -> tuple[int, dict]:
    """``(M, the tie of Q_M)``: the least heap ``M <= N`` of the doubling sequence from
    ``h·f + k`` (``f`` the tie's heap outside the ideal, ``(k, h)`` Plambeck–Siegel's bound)
    whose partial quotient ``quotient_at(M)`` is tied to normal play, else ``(N, tie)``. A tie
    proved at ``M`` says as much as one at ``N`` (every later order follows from the Grundy
    values) and its certificate is checked in a fraction of the time."""
    from cgtalg.quotients.state import misere_period_bound

    k, h = misere_period_bound(ruleset)
    M = max(h * int(tie["outside"]) + k, 1)
    while M < N:
        got = tie_of(quotient_at(M), ruleset, grundy_to)
        if got is not None:
            return M, got
        M *= 2
    return N, tie


class BudgetShort(str):
    """Why a stored tail could not be proved again within the budget (not that it is false)."""


def certified_grundy_period(ruleset: Any, seconds: float) -> tuple[int, int] | str:
    """``(n0, p)`` of the ruleset's Grundy sequence, certified by its own search within
    ``seconds`` of CPU; else why not (a :class:`BudgetShort` when the budget ran out)."""
    from cgtalg.errors import ComputationLimitError, RulesetError

    if not callable(getattr(ruleset, "periodicity", None)):
        return "the ruleset has no Grundy period search"
    try:
        res = ruleset.periodicity(max_seconds=seconds)
    except (ComputationLimitError, RulesetError) as exc:
        return BudgetShort(f"its Grundy period could not be certified ({exc})")
    if not res.certified or res.saltus:
        return "its Grundy sequence is not certified periodic"
    return (int(res.preperiod), int(res.period))


#: seconds the Grundy period's search may take when a stored normal tail is read
RECHECK_SECONDS = 60.0


def recheck_tail(ruleset: Any, pre: Any, stated: dict, bound: tuple[int, int], seconds: float) -> Any:
    """The final state of a stored normal tail, proved again from the verified ``pre`` (heaps
    ``0..N``) and the Grundy period (searched again): a text saying why when it does not hold
    as stated (a :class:`BudgetShort` when the search ran out of its budget)."""
    cert = certified_grundy_period(ruleset, RECHECK_SECONDS)
    if isinstance(cert, str):
        return cert
    if list(cert) != list(stated.get("grundy") or ()):
        return f"it states the Grundy period {stated.get('grundy')}, the sequence has {list(cert)}"
    grundy = ruleset.grundy_sequence(max(cert[0], len(pre.phi)) + cert[1])
    got = normal_tail(ruleset, pre.monoid.table, pre.P, pre.phi, bound, cert, grundy)
    if isinstance(got, str):
        return got
    if got.to_dict() != stated:
        return f"it states {stated}, the proof gives {got.to_dict()}"
    return tail_state(pre, got, seconds)
