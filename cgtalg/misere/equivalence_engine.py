"""The engines behind :func:`cgtalg.misere.equivalence.equivalent`: the misère mate, outcomes
of pairs by direct play, and the memoised, iterative search of Spindler's Theorem 1 with the
construction of links and distinguishers (the module docstring of
:mod:`cgtalg.misere.equivalence` states the mathematics)."""

from __future__ import annotations

from typing import Any, Generator, Sequence

from cgtalg.budget import Deadline
from cgtalg.caches import register_cache
from cgtalg.core.fold import Evaluator
from cgtalg.core.game import Game, game, star, zero
from cgtalg.core.notation import parse
from cgtalg.core.partizan import PartizanGame, to_impartial
from cgtalg.errors import ArgumentTypeError, GameKindError, require_int, shorten
from cgtalg.misere.equivalence_certificate import Distinction, EquivalenceProof, Witness
from cgtalg.misere.outcome import misere_grundy
from cgtalg.normal.grundy import grundy

__all__ = ["misere_mate", "nim_sum_outcome", "clear_equivalence_cache"]

# ---------------------------------------------------------------------------------------
# small evaluations (via the generic fold)
# ---------------------------------------------------------------------------------------
def _mate_combine(g: Game, option_mates: Sequence[Game]) -> Game:
    return star if not option_mates else game(option_mates)


_MATE = Evaluator("misere_mate", _mate_combine)


def misere_mate(g: Game | str) -> Game:
    """The misère mate ``G⁻``: ``0⁻ = *`` and ``G⁻ = {G'⁻ : G'}`` otherwise.

    ``G + G⁻`` is a misère P-position for every impartial ``G`` (the mate of Siegel, CGT
    ch. V; proof by induction: ``0 + *`` is P, and a move to ``G' + G⁻`` or ``G + G'⁻`` is
    answered by the move to ``G' + G'⁻``, a P-position). Used to orient distinguishers.

    Parameters
    ----------
    g : Game or str
        A form (or its text).

    Returns
    -------
    Game

    Examples
    --------
    >>> import cgtalg as cg
    >>> str(misere_mate(cg.zero)), str(misere_mate(cg.star))
    ('*', '{*}')
    >>> cg.outcome(cg.nim(3) + misere_mate(cg.nim(3)), misere=True)
    'P'
    """
    return _MATE(_as_game(g, "g"))


def _normal_play_combine(g: Game, option_is_p: Sequence[bool]) -> bool:
    # normal play by direct play: P iff no option is P (so the empty form is P)
    return not any(option_is_p)


_NORMAL_P = Evaluator("normal_play_is_P", _normal_play_combine, atom=lambda n: n == 0)


def nim_sum_outcome(heaps: Sequence[int], misere: bool) -> str:
    """``'P'`` or ``'N'``: the outcome of a sum of nim-heaps by the closed formulas.

    Normal play (Bouton 1901; ONAG ch. 11): P iff the nim-sum (XOR) is 0. Misère play
    (Bouton; Winning Ways ch. 13, misère Nim): if some heap is ``>= 2``, P iff the nim-sum
    is 0; if every heap is ``<= 1``, P iff the number of heaps of size 1 is odd.

    Examples
    --------
    >>> nim_sum_outcome([1, 1], misere=True), nim_sum_outcome([1, 1], misere=False)
    ('N', 'P')
    >>> nim_sum_outcome([10**18, 10**18], misere=True)
    'P'
    """
    if isinstance(heaps, (str, bytes)) or not hasattr(heaps, "__iter__"):
        raise ArgumentTypeError(f"heaps must be an iterable of ints, got {type(heaps).__name__}: "
                                f"{shorten(heaps)}")
    x = 0
    big = False
    for n in heaps:
        n = require_int(n, "a heap size", minimum=0)
        x ^= n
        big = big or n >= 2
    if not misere or big:
        return "P" if x == 0 else "N"
    return "P" if x == 1 else "N"


#: nim-heaps above this size are compared by misère Nim theory, not by the Theorem 1 search
_ATOM_SEARCH = 64


def _is_p(g: Game, misere: bool) -> bool:
    """Whether ``g`` is a P-position, by direct play on the form (no sum shortcut)."""
    if misere:
        return misere_grundy(g) == 0
    return _NORMAL_P(g)


class _PairPlay:
    """Outcomes of ``a + b`` by direct play on pairs of positions, without building the sum
    form (so checking distinguishers does not fill the hash-cons table). Memo on id pairs.

    This is a pruned search, not a fold: a pair is an N-position as soon as one option already
    known to be a P-position is seen, and its other options are then never explored.
    :func:`cgtalg.core.game.pair_fold` builds every sub-pair first; on the equivalence
    benchmark that costs about 1.5x, so the walk stays here."""

    def __init__(self, misere: bool) -> None:
        self.misere = misere
        self.memo: dict[tuple[int, int], bool] = {}

    def is_p(self, a: Game, b: Game) -> bool:
        if a.is_zero or b.is_zero:
            return _is_p(b if a.is_zero else a, self.misere)
        na, nb = a.nim_heap_size(), b.nim_heap_size()
        if na is not None and nb is not None:  # a sum of two nim-heaps: Bouton's formulas
            return nim_sum_outcome((na, nb), self.misere) == "P"
        memo = self.memo
        root = (a.id, b.id) if a.id <= b.id else (b.id, a.id)
        hit = memo.get(root)
        if hit is not None:
            return hit
        stack = [(a, b)]
        deadline = Deadline(None)  # the memory ceiling: the pairs can be |A|·|B| many
        steps = 0
        while stack:
            steps += 1
            if not steps & 0xFFF:
                deadline.check("the misère play of a sum of two forms")
            x, y = stack[-1]
            key = (x.id, y.id) if x.id <= y.id else (y.id, x.id)
            if key in memo:
                stack.pop()
                continue
            missing = []
            for nx, ny in [(xo, y) for xo in x.options] + [(x, yo) for yo in y.options]:
                if nx.is_zero or ny.is_zero:
                    sub: bool | None = _is_p(ny if nx.is_zero else nx, self.misere)
                else:
                    sub = memo.get((nx.id, ny.id) if nx.id <= ny.id else (ny.id, nx.id))
                if sub:  # a move to a P-position: x + y is N
                    memo[key] = False
                    break
                if sub is None:
                    missing.append((nx, ny))
            else:
                if missing:
                    stack.extend(missing)
                    continue
                memo[key] = True  # every move reaches an N-position (and there are moves)
            stack.pop()
        return memo[root]

    def outcome(self, a: Game, b: Game) -> str:
        return "P" if self.is_p(a, b) else "N"


_PLAY = {True: _PairPlay(True), False: _PairPlay(False)}


def _as_game(x: Any, name: str) -> Game:
    if isinstance(x, Game):
        return x
    if isinstance(x, str):
        x = parse(x)
        if isinstance(x, Game):
            return x
    if isinstance(x, PartizanGame):  # {*|*} is impartial; a partizan game is refused
        return to_impartial(x, f"{name} (equivalence among impartial games; cgtalg.compare "
                               "compares partizan games in the dicot, dead-ending or general universe)")
    raise GameKindError(f"{name} must be a Game or game text, got {type(x).__name__}: {shorten(x)}")


def _check_flag(misere: Any) -> bool:
    if not isinstance(misere, bool):
        raise GameKindError(f"misere must be True or False, got {shorten(misere)}")
    return misere


def _pair(a: Game, b: Game) -> tuple[int, int]:
    return (a.id, b.id) if a.id <= b.id else (b.id, a.id)


# ---------------------------------------------------------------------------------------
# the misère engine: Theorem 1 search and the distinguisher construction
# ---------------------------------------------------------------------------------------
_Request = tuple[str, Game, Game]
_SMALL_FORMS = 200  # below this many subpositions, build both refutations and keep the smaller


class _MisereEngine:
    """Memoised, iterative evaluation of Theorem 1 and of the link construction.

    Each computation is a generator *frame* that yields sub-requests ``(kind, a, b)`` and
    receives their results, so deep recursions run on an explicit stack. Kinds:
    ``"eq"`` (is ``a ≡ b``; memo holds the proof node or ``None``), ``"ori"`` (a ``T``
    with ``o⁻(a+T) = P`` and ``o⁻(b+T) = N``, for ``a ≢ b``) and ``"link"`` (a ``T`` with
    ``a+T`` and ``b+T`` both P, for ``a`` linked to ``b``; memo holds ``(T, parts)``).

    With ``prune`` the search first compares two invariants of misère equivalence: the
    normal Grundy value and the misère Grundy value. Both are preserved by the misère
    simplification of a form to its canonical form (Conway, ONAG ch. 12; Siegel CGT V.3):
    if ``G = {S}`` reduces to ``H`` then ``opts(H) ⊊ S`` and every other ``X ∈ S`` has ``H``
    as an option, so no such ``X`` has the value of ``H`` and the mex over ``S`` equals the
    value of ``H`` (for ``H = 0`` in misère play the proviso supplies a P-option). Equal
    games have equal canonical forms, hence equal values; this only skips work, and the
    tests check that pruned and unpruned searches agree.
    """

    def __init__(self, prune: bool = True) -> None:
        self.prune = prune
        self.eq: dict[tuple[int, int], EquivalenceProof | None] = {}
        self.ori: dict[tuple[int, int], Game] = {}
        self.links: dict[tuple[int, int], tuple[Game, tuple[tuple[Game, Game, Game], ...]]] = {}
        self._optids: dict[int, frozenset[int]] = {}
        self._inv: dict[int, tuple[int, int]] = {}
        self._buckets: dict[int, dict[Any, list[Game]]] = {}

    def clear(self) -> None:
        """Forget every memoised answer (the pruning setting stays)."""
        for memo in (self.eq, self.ori, self.links, self._optids, self._inv, self._buckets):
            memo.clear()

    # -- indexes on options --------------------------------------------------------------
    def _invariant(self, g: Game) -> Any:
        """The pruning key: forms with different keys are never equivalent."""
        if not self.prune:
            return None
        key = self._inv.get(g.id)
        if key is None:
            key = self._inv[g.id] = (grundy(g), misere_grundy(g))
        return key

    def _has_option(self, parent: Game, x: Game) -> bool:
        ids = self._optids.get(parent.id)
        if ids is None:
            ids = self._optids[parent.id] = frozenset(o.id for o in parent.options)
        return x.id in ids

    def _candidates(self, parent: Game, target: Game) -> list[Game]:
        """The options of ``parent`` that may be equivalent to ``target`` (same invariants)."""
        buckets = self._buckets.get(parent.id)
        if buckets is None:
            buckets = {}
            for o in parent.options:
                buckets.setdefault(self._invariant(o), []).append(o)
            self._buckets[parent.id] = buckets
        return buckets.get(self._invariant(target), [])

    def _quick(self, a: Game, b: Game) -> bool | None:
        """Decide ``a ≡ b`` without search when identity or the invariants settle it."""
        if a is b:
            self._identical(a)
            return True
        if self.prune and self._invariant(a) != self._invariant(b):
            return False
        return None

    # -- driver ------------------------------------------------------------------------
    def _key(self, req: _Request) -> tuple[int, int]:
        kind, a, b = req
        return _pair(a, b) if kind == "eq" else (a.id, b.id)

    def _memo(self, kind: str) -> dict:
        return self.eq if kind == "eq" else self.ori if kind == "ori" else self.links

    def _value(self, kind: str, stored: Any) -> Any:
        return (stored is not None) if kind == "eq" else stored

    def _frame(self, req: _Request) -> Generator[_Request, Any, Any]:
        kind, a, b = req
        if kind == "eq":
            return self._eq_frame(a, b)
        if kind == "ori":
            return self._ori_frame(a, b)
        return self._link_frame(a, b)

    def run(self, req: _Request) -> Any:
        """Evaluate one request (and everything it needs) on an explicit stack."""
        kind = req[0]
        if kind == "eq":
            quick = self._quick(req[1], req[2])
            if quick is not None:
                return quick
        memo = self._memo(kind)
        key = self._key(req)
        if key in memo:
            return self._value(kind, memo[key])
        stack: list[tuple[str, tuple[int, int], Generator]] = [(kind, key, self._frame(req))]
        active: set[tuple[str, tuple[int, int]]] = {(kind, key)}
        send: Any = None
        while stack:
            fkind, fkey, frame = stack[-1]
            try:
                sub = frame.send(send)
            except StopIteration as stop:
                self._memo(fkind)[fkey] = stop.value
                stack.pop()
                active.discard((fkind, fkey))
                send = self._value(fkind, stop.value)
                continue
            skind = sub[0]
            if skind == "eq":
                quick = self._quick(sub[1], sub[2])
                if quick is not None:
                    send = quick
                    continue
            smemo = self._memo(skind)
            skey = self._key(sub)
            if skey in smemo:
                send = self._value(skind, smemo[skey])
                continue
            if (skind, skey) in active:  # cannot happen if Theorem 1 holds; guard anyway
                raise RuntimeError(f"internal error: circular request {skind} {sub[1]} / {sub[2]}")
            active.add((skind, skey))
            stack.append((skind, skey, self._frame(sub)))
            send = None
        return self._value(kind, memo[key])

    def node(self, a: Game, b: Game) -> EquivalenceProof | None:
        """The proof node for ``a ≡ b`` (in whichever orientation it was built), or None."""
        if not self.run(("eq", a, b)):
            return None
        return self.eq[_pair(a, b)]

    # -- Theorem 1 ---------------------------------------------------------------------
    def _identical(self, g: Game) -> EquivalenceProof:
        key = (g.id, g.id)
        node = self.eq.get(key)
        if node is None:
            node = EquivalenceProof(g, g, identical=True)
            self.eq[key] = node
        return node

    def _eq_frame(self, g: Game, h: Game) -> Generator[_Request, bool, EquivalenceProof | None]:
        if g is h:
            return self._identical(g)
        if self.prune and self._invariant(g) != self._invariant(h):
            return None
        # condition (iii)
        winning_move = None
        for zero_side, other in ((g, h), (h, g)):
            if zero_side.is_zero:
                moves = [o for o in other.options if misere_grundy(o) == 0]
                if not moves:
                    return None
                winning_move = moves[0]
        # condition (i): every H' matched; (ii): every G' matched
        wi: list[Witness] = []
        for hp in h.options:
            w = yield from self._match(hp, g, "H''", "G'")
            if w is None:
                return None
            wi.append(w)
        wii: list[Witness] = []
        for gp in g.options:
            w = yield from self._match(gp, h, "G''", "H'")
            if w is None:
                return None
            wii.append(w)
        return EquivalenceProof(g, h, False, tuple(wi), tuple(wii), winning_move)

    def _match(
        self, xp: Game, other: Game, kind_rev: str, kind_opt: str
    ) -> Generator[_Request, bool, Witness | None]:
        """A witness for option ``xp`` of one game against the ``other`` game."""
        # identical matches first: they print and check trivially
        if self._has_option(other, xp):
            return Witness(xp, kind_opt, xp, self._identical(xp))
        if self._has_option(xp, other):
            return Witness(xp, kind_rev, other, self._identical(other))
        for op in self._candidates(other, xp):
            if (yield ("eq", op, xp)):
                return Witness(xp, kind_opt, op, self.eq[_pair(op, xp)])  # type: ignore[arg-type]
        for xpp in self._candidates(xp, other):
            if (yield ("eq", xpp, other)):
                return Witness(xp, kind_rev, xpp, self.eq[_pair(xpp, other)])  # type: ignore[arg-type]
        return None

    # -- refutations -------------------------------------------------------------------
    def _linked_to_option(self, a: Game, bp: Game) -> Generator[_Request, bool, bool]:
        """Lemma 2 for ``a`` and ``bp``: no option of ``bp`` ≡ ``a`` and no option of ``a`` ≡ ``bp``."""
        for bpp in self._candidates(bp, a):
            if (yield ("eq", bpp, a)):
                return False
        for ap in self._candidates(a, bp):
            if (yield ("eq", ap, bp)):
                return False
        return True

    def _ori_frame(self, a: Game, b: Game) -> Generator[_Request, Any, Game]:
        """A ``T`` with ``o⁻(a+T) = P`` and ``o⁻(b+T) = N`` (requires ``a ≢ b``)."""
        # cheap candidates: any verified distinguisher will do as an ingredient of a link
        if misere_grundy(a) == 0 and misere_grundy(b) != 0:
            return zero
        mate = _MATE(a)  # a + a⁻ is always P
        if not _PLAY[True].is_p(b, mate):
            return mate
        # from the theory: a is linked to some option b' of b (condition (i) fails) ...
        for bp in b.options:
            if (yield from self._linked_to_option(a, bp)):
                t, _parts = yield ("link", a, bp)
                return t
        # ... or the opposite orientation exists: flip it with mates
        x = yield ("ori", b, a)
        opts = [x] + [_MATE(ap) for ap in a.options if not _PLAY[True].is_p(ap, x)]
        return game(opts)

    def _link_frame(self, a: Game, b: Game) -> Generator[_Request, Any, tuple[Game, tuple]]:
        """A ``T`` with ``a+T`` and ``b+T`` both misère P (requires ``a`` linked to ``b``)."""
        opts: list[Game] = []
        parts: list[tuple[Game, Game, Game]] = []
        for x, y in [(ap, b) for ap in a.options] + [(bp, a) for bp in b.options]:
            # x + T must be N: it is when some option T' of T has x + T' P
            covered = next((t for t in opts if _PLAY[True].is_p(x, t)), None)
            if covered is None:
                covered = yield ("ori", x, y)
                opts.append(covered)
            parts.append((x, y, covered))
        if not opts:  # a = b = 0
            return star, ()
        return game(opts), tuple(parts)

    def distinction(self, g: Game, h: Game) -> Distinction:
        """Refute ``g ≡ h`` from the failing condition of Theorem 1 (assumes ``g ≢ h``)."""
        condition, option, t, parts = None, None, None, ()
        if g.is_zero and misere_grundy(h) == 0:
            condition, t = "iii", zero
        elif h.is_zero and misere_grundy(g) == 0:
            condition, t = "iii", zero
        else:
            # the first failure of (i), and for small forms also of (ii): keep the smaller link
            found: list[tuple[str, Game, Game, tuple]] = []
            small = len(g.subpositions()) + len(h.subpositions()) <= _SMALL_FORMS
            for cond, this, other in (("i", h, g), ("ii", g, h)):
                if found and not small:
                    break
                for xp in this.options:
                    if self.run_gen(self._linked_to_option(other, xp)):
                        found.append((cond, xp, *self.run(("link", other, xp))))
                        break
            if found:
                condition, option, t, parts = min(
                    found, key=lambda c: (len(c[2].subpositions()), c[2].birthday)
                )
        if t is None:
            raise RuntimeError(f"internal error: no condition of Theorem 1 fails for {g} and {h}")
        og, oh = _PLAY[True].outcome(g, t), _PLAY[True].outcome(h, t)
        if og == oh:
            raise RuntimeError(f"internal error: constructed T = {t} does not distinguish {g} and {h}")
        return Distinction(g, h, True, t, og, oh, condition, option, parts)

    def run_gen(self, gen: Generator[_Request, Any, Any]) -> Any:
        """Drive a generator that yields requests, answering each with :meth:`run`."""
        send = None
        while True:
            try:
                req = gen.send(send)
            except StopIteration as stop:
                return stop.value
            send = self.run(req)


_ENGINE = _MisereEngine()
_NORMAL_MEMO: dict[tuple[int, int], "EquivalenceResult"] = {}


def _clear() -> None:
    _ENGINE.clear()
    _NORMAL_MEMO.clear()
    for play in _PLAY.values():
        play.memo.clear()


register_cache("misere.equivalence", _clear)


def clear_equivalence_cache() -> None:
    """Forget all memoised equivalences, links and distinguishers (frees memory).

    A thin alias of :func:`cgtalg.clear_caches`, which empties these memos with every other
    cache of cgtalg."""
    from cgtalg.caches import clear_caches

    clear_caches()
