"""Misère play of partizan forms: outcomes, and comparison in the full, dead-ending and dicot universes.

In misère play the player unable to move *wins*. The outcome ``o⁻(G)`` is ``L``, ``R``, ``N``
or ``P`` (Left wins, Right wins, the player to move wins, the other one wins), ordered
``L > P > R`` and ``L > N > R`` with ``P`` and ``N`` incomparable; equivalently,
``o⁻(A) ≥ o⁻(B)`` iff (Left wins ``B`` moving first ⇒ Left wins ``A`` moving first) and (Right
wins ``A`` moving first ⇒ Right wins ``B`` moving first).

For a *universe* ``U`` of games (closed under options, sums and conjugates),
``G ≥_U H`` iff ``o⁻(G + X) ≥ o⁻(H + X)`` for every ``X ∈ U``. Three universes are offered:

* ``"all"``: every short partizan game (Siegel, *Combinatorial Game Theory* (CGT), §V.6);
* ``"dead-ending"``: games all of whose ends are *dead* — a follower where Left (Right) has no
  move has only followers where Left (Right) has no move (Milley and Renault 2013);
* ``"dicot"``: games every follower of which has moves for both players or for neither
  (Dorbec, Renault, Siegel and Sopena, JCTA 2015).

The comparison test (one recursion on options)
-----------------------------------------------
All three universes admit the same "Maintenance and Proviso" test; only the Proviso's *strong*
condition differs (Larsson, Nowakowski and Santos, *Absolute combinatorial game theory*,
arXiv 1606.01975, Theorem 4; Larsson, Milley, Nowakowski, Renault and Santos, *Progress on
misère dead ends*, arXiv 1807.11297, for ``U = E, D``; for the full universe this is
Siegel CGT Theorems V.6.15-V.6.16, restated as Theorem 2 of Spindler, seed 002, with the
downlinked relation of its Definition 2 and Lemma 4). ``G ≥_U H`` iff

* **Maintenance (i)**: for every ``H^L`` there is a ``G^L ≥_U H^L`` or an ``H^LR ≤_U G``
  (i.e. ``G`` is not downlinked to ``H^L``);
* **Maintenance (ii)**: for every ``G^R`` there is an ``H^R ≤_U G^R`` or a ``G^RL ≥_U H``
  (``G^R`` is not downlinked to ``H``);
* **Proviso (iii)**: if ``H`` is a Left end (no Left option), ``G`` is *Left-strong* in ``U``:
  Left, moving first, wins ``G + X`` for every Left end ``X ∈ U``;
* **Proviso (iv)**: if ``G`` is a Right end, ``H`` is *Right-strong* in ``U`` (dually).

The strong conditions, per universe:

* full: Left-strong iff ``G`` is itself a Left end (Spindler Theorem 2 (iii)-(iv), from Siegel
  V.6.16: "if ``H`` has no Left options, then neither does ``G``");
* dicot: the only end is ``0``, so Left-strong iff Left wins ``G`` moving first;
* dead-ending: the Left ends of ``E`` are the Left dead ends. Let ``D_0 = 0`` and
  ``D_b = { | D_0, ..., D_(b-1)}``. A Right strategy in ``G + X`` for a Left dead end ``X`` of
  birthday ``b`` is copied in ``G + D_b`` (follow ``X``'s birthday), and a Right win in
  ``G + D_b`` (``b ≥ 1``) is copied in ``G + D_(b+1)`` (the first move in ``D`` is available in
  both); Left moves only in ``G``, so ``D_b`` with ``b > birthday(G)`` gives Right every
  choice he can use. Hence Left-strong iff Left wins moving first in ``G`` and in
  ``G + D_(birthday(G)+1)``; this module evaluates the latter as ``G`` against an unbounded
  Right reserve (Right may pass or finish the reserve at each turn) by one fold. The
  test of Davies and Milley (*Order and inverses in the misère monoid*, Theorem 3.1: ``G`` is
  a Left end, or some ``G^L`` has ``o⁻(G^L) = L``, passes the test, and so does every
  ``G^LR``) is implemented as :func:`davies_milley_strong`; it is a sufficient condition (for
  P-free games also necessary, as formalised in the Lean library ``t4ccer/misere-games``),
  and the tests check that it implies ours on small games — ``↑* = {0, * | 0}`` is
  Left-strong but fails it.

:func:`misere_ge` runs this recursion (memoised on pairs of form ids, iteratively) and returns a
:class:`MisereComparison` with a certificate, re-checked by
:func:`cgtalg.misere.partizan_proof.check_misere_certificate` using only outcomes of sums by
direct play:

* ``G ≥_U H``: a :class:`GeProof` DAG — per ``H^L`` the witness (a ``G^L`` or an ``H^LR``) and
  the proof of its inequality, per ``G^R`` likewise, and the Proviso facts;
* ``G ≱_U H``: a :class:`MisereDistinction` — a game ``T ∈ U`` with ``o⁻(G+T) ≱ o⁻(H+T)``,
  built from the failing condition: a Proviso failure gives a Left (Right) end ``T`` of ``U``
  (``{ | G^L°}`` among all games, ``0`` among dicots, ``0`` or ``D_b`` among dead-ending
  games); a Maintenance failure gives the downlink witness of Siegel's Lemma V.6.15, assembled
  from distinguishers of the options and *adjoints* ``G°`` (``G + G°`` is always a misère
  P-position; Siegel CGT §V.6; see :func:`misere_adjoint`), always with both Left and Right
  options from ``U``, so that ``T`` stays in ``U``.

Examples
--------
>>> from cgtalg.core.partizan import nimber, pgame
>>> from cgtalg.misere.partizan import misere_ge, misere_equal
>>> from cgtalg.misere.partizan_outcome import misere_outcome
>>> star = nimber(1)
>>> misere_outcome(pgame()), misere_outcome(star), misere_outcome(star + star)
('N', 'P', 'N')
>>> bool(misere_equal(star + star, 0))          # * + * ≠ 0 among partizan games (seed 002)
False
>>> bool(misere_equal(star + star, 0, universe="dicot"))
True
"""


from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generator

from cgtalg.caches import register_cache
from cgtalg.core.fold import fold
from cgtalg.core.partizan import ZERO, PartizanGame, negative, pgame
from cgtalg.misere.partizan_certificate import GeProof, MisereComparison, MisereDistinction
from cgtalg.misere.partizan_outcome import (
    _OUTCOME,
    _PLAY,
    _check_universe,
    _pg,
    _require,
    misere_adjoint,
    misere_first_winners,
    misere_outcome,
    outcome_ge,
    pair_first_winners,
    reserve_dead_end,
)

__all__ = ["misere_ge", "misere_equal", "clear_misere_caches"]

# ---------------------------------------------------------------------------------------
# the engine
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Verdict:
    holds: bool
    identical: bool = False
    left: tuple[tuple[PartizanGame, str, PartizanGame], ...] = ()
    right: tuple[tuple[PartizanGame, str, PartizanGame], ...] = ()
    proviso: tuple[str, ...] = ()
    condition: str = ""
    option: PartizanGame | None = None


_Frame = Generator[tuple[PartizanGame, PartizanGame], bool, _Verdict]


class _Engine:
    """Maintenance-and-Proviso recursion for one universe, memoised on id pairs, run on an
    explicit stack of generator frames (no recursion limit); distinguishers built on demand."""

    def __init__(self, universe: str) -> None:
        self.universe = universe
        self.memo: dict[tuple[int, int], _Verdict] = {}
        self.proofs: dict[tuple[int, int], GeProof] = {}
        self.lf_memo: dict[tuple[int, int], PartizanGame] = {}
        self.rf_memo: dict[tuple[int, int], PartizanGame] = {}

    # -- the decision ------------------------------------------------------------------
    def _strong_left(self, g: PartizanGame) -> bool:
        if self.universe == "all":
            return not g.left
        v = fold(g, _PLAY)
        return v[0] if self.universe == "dicot" else v[0] and v[2]

    def _strong_right(self, h: PartizanGame) -> bool:
        if self.universe == "all":
            return not h.right
        v = fold(h, _PLAY)
        return v[1] if self.universe == "dicot" else v[1] and v[5]

    def _frame(self, g: PartizanGame, h: PartizanGame) -> _Frame:
        if g is h:
            return _Verdict(True, identical=True)
        vg, vh = fold(g, _PLAY), fold(h, _PLAY)  # the memoised play values (no argument checks)
        if not outcome_ge(_OUTCOME[vg[0], vg[1]], _OUTCOME[vh[0], vh[1]]):  # X = 0 already separates
            return _Verdict(False, condition="outcome")
        proviso: list[str] = []
        if not h.left:
            if not self._strong_left(g):
                return _Verdict(False, condition="proviso (iii)")
            proviso.append("iii")
        if not g.right:
            if not self._strong_right(h):
                return _Verdict(False, condition="proviso (iv)")
            proviso.append("iv")
        left = []
        for hl in h.left:
            w = None
            for gl in g.left:
                if (yield (gl, hl)):
                    w = (hl, "G^L", gl)
                    break
            if w is None:
                for hlr in hl.right:
                    if (yield (g, hlr)):
                        w = (hl, "H^LR", hlr)
                        break
            if w is None:
                return _Verdict(False, condition="maintenance (i)", option=hl)
            left.append(w)
        right = []
        for gr in g.right:
            w = None
            for hr in h.right:
                if (yield (gr, hr)):
                    w = (gr, "H^R", hr)
                    break
            if w is None:
                for grl in gr.left:
                    if (yield (grl, h)):
                        w = (gr, "G^RL", grl)
                        break
            if w is None:
                return _Verdict(False, condition="maintenance (ii)", option=gr)
            right.append(w)
        return _Verdict(True, left=tuple(left), right=tuple(right), proviso=tuple(proviso))

    def verdict(self, g: PartizanGame, h: PartizanGame) -> _Verdict:
        key = (g._id, h._id)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        stack: list[tuple[tuple[int, int], _Frame]] = [(key, self._frame(g, h))]
        send: bool | None = None
        memo = self.memo
        while stack:
            k, fr = stack[-1]
            try:
                a, b = fr.send(send)  # type: ignore[arg-type]
            except StopIteration as stop:
                memo[k] = stop.value
                stack.pop()
                send = stop.value.holds
                continue
            sub = memo.get((a._id, b._id))
            if sub is not None:
                send = sub.holds
                continue
            stack.append(((a._id, b._id), self._frame(a, b)))
            send = None
        return memo[key]

    def ge(self, g: PartizanGame, h: PartizanGame) -> bool:
        return self.verdict(g, h).holds

    # -- certificates --------------------------------------------------------------------
    def proof(self, g: PartizanGame, h: PartizanGame) -> GeProof:
        """The :class:`GeProof` of ``g ≥ h`` (which must hold), built bottom-up from the memo."""
        root = (g._id, h._id)
        if root in self.proofs:
            return self.proofs[root]
        # children before parents: a post-order of the proof DAG (a pre-order reversed is not
        # one when a pair is reached again from a pair visited later)
        order: list[tuple[PartizanGame, PartizanGame]] = []
        stack: list[tuple[PartizanGame, PartizanGame, bool]] = [(g, h, False)]
        seen: set[tuple[int, int]] = set()
        while stack:
            a, b, expanded = stack.pop()
            k = (a._id, b._id)
            if expanded:
                order.append((a, b))
                continue
            if k in seen or k in self.proofs:
                continue
            seen.add(k)
            v = self.verdict(a, b)
            if not v.holds:  # pragma: no cover - internal invariant
                raise AssertionError("proof requested for a failing comparison")
            stack.append((a, b, True))
            for hl, kind, w in v.left:
                stack.append(((w, hl) if kind == "G^L" else (a, w)) + (False,))
            for gr, kind, w in v.right:
                stack.append(((gr, w) if kind == "H^R" else (w, b)) + (False,))
        for a, b in order:
            v = self.verdict(a, b)
            left = tuple((hl, kind, w, self.proofs[(w._id, hl._id) if kind == "G^L" else (a._id, w._id)])
                         for hl, kind, w in v.left)
            right = tuple((gr, kind, w, self.proofs[(gr._id, w._id) if kind == "H^R" else (w._id, b._id)])
                          for gr, kind, w in v.right)
            self.proofs[(a._id, b._id)] = GeProof(a, b, self.universe, v.identical, left, right, v.proviso)
        return self.proofs[root]

    def _pad(self, g: PartizanGame) -> PartizanGame:
        """``{g° | g°}``, a dicot: whoever moves first in ``g + pad`` wins by moving it to
        ``g°`` (``g + g°`` is a P-position), so a move *to* it loses for the mover."""
        a = misere_adjoint(g)
        return pgame([a], [a])

    def _base(self, a: PartizanGame, b: PartizanGame) -> tuple[PartizanGame, str]:
        """A distinguisher ``T`` of ``a ≱ b`` from the failing condition, with its side:
        ``"L"``: Left wins ``b + T`` moving first but not ``a + T``; ``"R"``: Right wins
        ``a + T`` moving first but not ``b + T``."""
        v = self.verdict(a, b)
        c = v.condition
        if c == "outcome":
            la, ra = misere_first_winners(a)
            lb, rb = misere_first_winners(b)
            return ZERO, ("L" if lb and not la else "R")
        if c == "proviso (iii)":  # b is a Left end, a is not Left-strong: a Left end T of U
            if self.universe == "all":
                return pgame([], [misere_adjoint(x) for x in a.left]), "L"
            if self.universe == "dicot" or not misere_first_winners(a)[0]:
                return ZERO, "L"
            return reserve_dead_end(a.birthday + 1), "L"
        if c == "proviso (iv)":  # a is a Right end, b is not Right-strong: a Right end T of U
            if self.universe == "all":
                return pgame([misere_adjoint(x) for x in b.right], []), "R"
            if self.universe == "dicot" or not misere_first_winners(b)[1]:
                return ZERO, "R"
            return negative(reserve_dead_end(b.birthday + 1)), "R"
        if c == "maintenance (i)":  # a downlinked to b^L: not LF(a+T), not RF(b^L+T)
            return self._downlink(a, v.option), "L"  # type: ignore[arg-type]
        if c == "maintenance (ii)":  # a^R downlinked to b: not LF(a^R+T), not RF(b+T)
            return self._downlink(v.option, b), "R"  # type: ignore[arg-type]
        raise AssertionError(f"no failing condition for {a} ≱ {b}")  # pragma: no cover

    def _downlink(self, p: PartizanGame, q: PartizanGame) -> PartizanGame:
        """``T`` with ``o⁻(p+T) ≤ P`` and ``o⁻(q+T) ≥ P`` when ``p`` is downlinked to ``q``
        (no ``p^L ≥ q``, no ``q^R ≤ p``; Siegel CGT Lemma V.6.15): Left options ``rf(p, q^R)``,
        Right options ``lf(p^L, q)``; an empty side gets ``{p°|p°}`` (Left) or ``{q°|q°}``
        (Right), moves that lose for the mover."""
        tl = [self.rf(p, qr) for qr in q.right] or [self._pad(p)]
        tr = [self.lf(pl, q) for pl in p.left] or [self._pad(q)]
        return pgame(tl, tr)

    def lf(self, a: PartizanGame, b: PartizanGame) -> PartizanGame:
        """``Y ∈ U``: Left wins ``b + Y`` moving first, but not ``a + Y`` (needs ``a ≱ b``)."""
        key = (a._id, b._id)
        hit = self.lf_memo.get(key)
        if hit is None:
            t, side = self._base(a, b)
            if side != "L":  # flip: Y = {T | a^L°}, Left's move to T wins b+Y and loses a+Y
                t = pgame([t], [misere_adjoint(x) for x in a.left] or [ZERO])
            hit = self.lf_memo[key] = t
        return hit

    def rf(self, a: PartizanGame, b: PartizanGame) -> PartizanGame:
        """``Y ∈ U``: Right wins ``a + Y`` moving first, but not ``b + Y`` (needs ``a ≱ b``)."""
        key = (a._id, b._id)
        hit = self.rf_memo.get(key)
        if hit is None:
            t, side = self._base(a, b)
            if side != "R":  # flip: Y = {b^R° | T}
                t = pgame([misere_adjoint(x) for x in b.right] or [ZERO], [t])
            hit = self.rf_memo[key] = t
        return hit

    def distinction(self, g: PartizanGame, h: PartizanGame) -> MisereDistinction:
        v = self.verdict(g, h)
        t, side = self._base(g, h)
        og = _OUTCOME[pair_first_winners(g, t)]
        oh = _OUTCOME[pair_first_winners(h, t)]
        return MisereDistinction(g, h, self.universe, t, og, oh,
                                 "left-first" if side == "L" else "right-first", v.condition, v.option)


_ENGINES: dict[str, _Engine] = {}


def _engine(universe: str) -> _Engine:
    e = _ENGINES.get(universe)
    if e is None:
        e = _ENGINES[universe] = _Engine(universe)
    return e


register_cache("misere.partizan comparisons", _ENGINES)


def clear_misere_caches() -> None:
    """Forget the memoised comparisons, proofs, distinguishers and sum outcomes.

    A thin alias of :func:`cgtalg.clear_caches`, which empties these memos with every other
    cache of cgtalg."""
    from cgtalg.caches import clear_caches

    clear_caches()


def misere_ge(g: Any, h: Any, universe: str = "all") -> MisereComparison:
    """Whether ``g ≥ h`` in misère play modulo ``universe``: ``o⁻(g+X) ≥ o⁻(h+X)`` for every
    ``X`` of the universe.

    Decided by the Maintenance-and-Proviso recursion on options (see the module docstring:
    Siegel CGT V.6.15-V.6.16 / seed 002 Theorem 2 for ``"all"``; Larsson-Milley-Nowakowski-
    Renault-Santos 2018 for ``"dead-ending"`` and ``"dicot"``).

    Parameters
    ----------
    g, h : PartizanGame, Game, int or str
        Forms (impartial forms are embedded as partizan forms).
    universe : {"all", "dead-ending", "dicot"}
        Both forms must belong to it.

    Returns
    -------
    MisereComparison
        Truthy iff ``g ≥ h``; ``.certificate`` is a :class:`GeProof` or a
        :class:`MisereDistinction` (a game ``T`` of the universe with ``o⁻(g+T) ≱ o⁻(h+T)``).

    Raises
    ------
    ValueError
        For an unknown universe, or a form outside it.
    TypeError
        For something that is not a form.

    Examples
    --------
    >>> from cgtalg.core.partizan import integer, nimber
    >>> r = misere_ge(integer(-1), 0)     # -1 ≱ 0 in general misère play
    >>> bool(r), r.certificate.condition
    (False, 'maintenance (ii)')
    >>> bool(misere_ge(nimber(1) + nimber(1), 0, universe="dicot"))
    True
    """
    universe = _check_universe(universe)
    a, b = _pg(g, "g"), _pg(h, "h")
    _require(a, universe, "g")
    _require(b, universe, "h")
    e = _engine(universe)
    return MisereComparison(a, b, universe, ">=", e.ge(a, b), e)


def misere_equal(g: Any, h: Any, universe: str = "all") -> MisereComparison:
    """Whether ``g = h`` in misère play modulo ``universe`` (``g ≥ h`` and ``h ≥ g``).

    Examples
    --------
    >>> from cgtalg.core.partizan import nimber
    >>> star = nimber(1)
    >>> r = misere_equal(star + star, 0)                # seed 002: *+* ≠ 0 with partizan X
    >>> bool(r), r.certificate.condition, r.certificate.outcome_g, r.certificate.outcome_h
    (False, 'proviso (iii)', 'P', 'L')
    >>> bool(misere_equal(star + star, 0, universe="dicot"))
    True
    >>> bool(misere_equal(star + star, 0, universe="dead-ending"))  # * is not invertible in E
    False
    """
    universe = _check_universe(universe)
    a, b = _pg(g, "g"), _pg(h, "h")
    _require(a, universe, "g")
    _require(b, universe, "h")
    e = _engine(universe)
    return MisereComparison(a, b, universe, "=", e.ge(a, b) and e.ge(b, a), e)
