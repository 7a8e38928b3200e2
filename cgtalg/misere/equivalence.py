"""Equivalence of impartial forms, with certificates a reader (or :mod:`cgtalg.misere.proof`) can check.

Misère play, impartial universe
-------------------------------
``G ≡ H`` iff ``o⁻(G + X) = o⁻(H + X)`` for every impartial ``X``. Spindler ("Equality
classes of Nim positions under misère play", Integers 16 (2016); seed 002) combines
Siegel's Theorems V.3.5 (his Lemma 2) and V.3.6 (his Lemma 1) of *Combinatorial Game
Theory* (CGT, 2013) into a recursion on options only:

**Theorem 1 (Spindler).** ``G ≡ H`` iff

(i)   for every ``H'`` there is an ``H''`` with ``H'' ≡ G`` or a ``G'`` with ``G' ≡ H'``;
(ii)  for every ``G'`` there is a ``G''`` with ``G'' ≡ H`` or an ``H'`` with ``H' ≡ G'``;
(iii) if ``G ≅ 0`` then ``o⁻(H) = N``, and if ``H ≅ 0`` then ``o⁻(G) = N``.

:func:`equivalent` decides ``G ≡ H`` by this recursion (memoised on pairs of form ids,
iterative, independent of misère canonical forms) and returns an
:class:`EquivalenceResult` holding a certificate:

* when ``G ≡ H``: an :class:`EquivalenceProof`, one :class:`Witness` per option for
  conditions (i) and (ii), each with the proof of the witnessed equivalence. Sub-proofs are
  shared objects (one per pair of forms), so a certificate is a DAG, not a tree;
* when ``G ≢ H``: a :class:`Distinction`, a game ``T`` with ``o⁻(G+T) ≠ o⁻(H+T)``
  (verified by direct play), built from a failing condition (for small forms the first
  failures of both (i) and (ii) are tried and the smaller ``T`` kept). If (iii) fails, ``T = 0``.
  If (i) fails at ``H'``, then ``G`` is *linked* to ``H'`` (Lemma 2): there is a ``T`` with
  ``G+T`` and ``H'+T`` both P-positions, and then ``H+T`` is an N-position (it has the
  move to ``H'+T``). That ``T`` (see :func:`link`) has one option ``T_X`` for each option
  ``X`` of either game, where ``T_X`` makes ``X + T_X`` a P-position and the *other* game
  plus ``T_X`` an N-position (a distinguisher of the pair, oriented). Any verified
  oriented distinguisher will do for ``T_X``: the search tries ``0`` and the misère mate
  ``A⁻`` (``0⁻ = *``, ``A⁻ = {A'⁻}``; ``A + A⁻`` is always P, see :func:`misere_mate`)
  first, then the construction above recursively. Orientation can be flipped with mates:
  if ``o⁻(A+X) = N`` and ``o⁻(B+X) = P`` then ``Y = {X} ∪ {A'⁻ : o⁻(A'+X) = N}`` has
  ``o⁻(A+Y) = P`` (every move from ``A+Y`` can be answered by a move to ``A'+A'⁻`` or
  ``A'+X``, both P, and ``A+X`` is N) and ``o⁻(B+Y) = N`` (move to ``B+X``). By Theorem 1
  one of the two orientations always comes directly from a failing condition.

Normal play
-----------
``G ≡ H`` iff ``G + H`` is a P-position iff ``G`` and ``H`` have the same Grundy value
(Sprague-Grundy; Siegel CGT IV.1). The certificate of an equality is a :class:`GrundyProof`
(a Grundy labelling of every subposition, checkable locally, plus the mirror argument that
``G + H`` is P); an inequality is refuted by ``T = *g(H)`` (``H + T`` is P, ``G + T`` is N).

Examples
--------
>>> import cgtalg as cg
>>> from cgtalg.misere.equivalence import equivalent
>>> bool(equivalent(cg.nim(2) + cg.nim(1), cg.nim(3)))
True
>>> r = equivalent(cg.parse("{*2}"), cg.parse("*2+*2"))
>>> r.holds, r.certificate.condition
(False, 'i')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generator, Iterable, Sequence

from cgtalg.core.fold import Evaluator, distinct_preorder
from cgtalg.core.game import Game, game, nim, star, walk_size, zero
from cgtalg.core.notation import format_game, game_to_json, parse
from cgtalg.misere.outcome import misere_grundy
from cgtalg.normal.grundy import grundy

__all__ = [
    "EquivalenceResult",
    "EquivalenceProof",
    "Witness",
    "GrundyProof",
    "Distinction",
    "equivalent",
    "linked",
    "link",
    "distinguisher",
    "misere_mate",
    "equivalence_classes",
    "clear_equivalence_cache",
    "nim_sum_outcome",
]

THEOREM = "Theorem 1 of Spindler (2016) (= Siegel, CGT Theorems V.3.5 + V.3.6)"
NORMAL_THEOREM = "Sprague-Grundy theorem (Siegel, CGT IV.1)"


# ---------------------------------------------------------------------------------------
# certificate objects
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class EquivalenceProof:
    """A certificate that ``g ≡ h`` in the impartial misère universe (Spindler Theorem 1).

    Attributes
    ----------
    g, h : Game
        The two forms (this node's own orientation: condition (i) is about the options of
        ``h``, condition (ii) about the options of ``g``).
    identical : bool
        ``g is h`` (reflexivity; then the condition lists are empty).
    condition_i : tuple[Witness, ...]
        One witness per option ``H'`` of ``h``, kind ``"H''"`` (an option of ``H'``
        equivalent to ``g``) or ``"G'"`` (an option of ``g`` equivalent to ``H'``).
    condition_ii : tuple[Witness, ...]
        One witness per option ``G'`` of ``g``, kind ``"G''"`` or ``"H'"``.
    winning_move : Game or None
        For condition (iii) when exactly one of ``g``, ``h`` is ``0``: a move of the other
        one to a misère P-position (so that one is an N-position).
    """

    g: Game
    h: Game
    identical: bool = False
    condition_i: tuple["Witness", ...] = ()
    condition_ii: tuple["Witness", ...] = ()
    winning_move: Game | None = None

    def swapped(self) -> "EquivalenceProof":
        """The same proof read as ``h ≡ g`` (conditions (i) and (ii) exchange roles)."""
        if self.identical:
            return self
        return EquivalenceProof(
            g=self.h,
            h=self.g,
            identical=False,
            condition_i=tuple(w._swapped() for w in self.condition_ii),
            condition_ii=tuple(w._swapped() for w in self.condition_i),
            winning_move=self.winning_move,
        )

    def nodes(self) -> list["EquivalenceProof"]:
        """All distinct proof nodes reachable from this one (this one first)."""
        return distinct_preorder(self, lambda n: [w.proof for w in n.condition_i + n.condition_ii])


_SWAP_KIND = {"H''": "G''", "G'": "H'", "G''": "H''", "H'": "G'"}


@dataclass(frozen=True, eq=False)
class Witness:
    """How one option is matched in condition (i) or (ii) of Theorem 1.

    ``option`` is the option being matched (``H'`` in (i), ``G'`` in (ii)); ``kind`` says
    where the witness ``game`` comes from: ``"H''"`` / ``"G''"`` (an option of ``option``,
    equivalent to the *other* whole game) or ``"G'"`` / ``"H'"`` (an option of the other
    game, equivalent to ``option``). ``proof`` certifies that equivalence.
    """

    option: Game
    kind: str
    game: Game
    proof: EquivalenceProof

    def _swapped(self) -> "Witness":
        return Witness(self.option, _SWAP_KIND[self.kind], self.game, self.proof)


@dataclass(frozen=True, eq=False)
class GrundyProof:
    """A certificate that ``g ≡ h`` in normal play: both have Grundy value ``value``.

    ``labels`` gives the Grundy value of every subposition of ``g`` and ``h``; it is a
    valid labelling iff each position's label is the mex of its options' labels, which a
    reader checks one position at a time. By the Sprague-Grundy theorem both forms then
    equal ``*value``, and ``g + h`` is a P-position (the mirror strategy).
    """

    g: Game
    h: Game
    value: int
    labels: tuple[tuple[Game, int], ...]


@dataclass(frozen=True, eq=False)
class Distinction:
    """A refutation of ``g ≡ h``: a game ``t`` with ``o(g + t) ≠ o(h + t)``.

    Attributes
    ----------
    t : Game
        The distinguishing game, verified by direct play.
    outcome_g, outcome_h : str
        ``'P'`` or ``'N'``: the outcomes of ``g + t`` and ``h + t``.
    condition : str
        Which condition of Theorem 1 fails (``"i"``, ``"ii"``, ``"iii"``), or
        ``"grundy"`` in normal play.
    option : Game or None
        The option at which (i) (an ``H'``) or (ii) (a ``G'``) fails.
    parts : tuple[tuple[Game, Game, Game], ...]
        For (i)/(ii): the options ``(X, Y, T_X)`` of the link ``t``: ``X + T_X`` is P and
        ``Y + T_X`` is N, for each option ``X`` of the two linked games.
    """

    g: Game
    h: Game
    misere: bool
    t: Game
    outcome_g: str
    outcome_h: str
    condition: str
    option: Game | None = None
    parts: tuple[tuple[Game, Game, Game], ...] = ()


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
    >>> cg.misere_outcome(cg.nim(3) + misere_mate(cg.nim(3)))
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
    x = 0
    big = False
    for n in heaps:
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
    form (so checking distinguishers does not fill the hash-cons table). Memo on id pairs."""

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
        while stack:
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
        return parse(x)
    raise TypeError(f"{name} must be a Game or game text, got {type(x).__name__}: {x!r}")


def _check_flag(misere: Any) -> bool:
    if not isinstance(misere, bool):
        raise TypeError(f"misere must be True or False, got {misere!r}")
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


def clear_equivalence_cache() -> None:
    """Forget all memoised equivalences, links and distinguishers (frees memory)."""
    global _ENGINE
    _ENGINE = _MisereEngine(prune=_ENGINE.prune)
    _NORMAL_MEMO.clear()
    for play in _PLAY.values():
        play.memo.clear()


# ---------------------------------------------------------------------------------------
# the result
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class EquivalenceResult:
    """The answer to "is ``g ≡ h``?" with a checkable certificate.

    Attributes
    ----------
    g, h : Game
        The two forms, in the order asked.
    misere : bool
        Misère play (impartial universe) or normal play.
    holds : bool
        Whether ``g ≡ h``. ``bool(result)`` is ``holds``.
    certificate : EquivalenceProof | GrundyProof | Distinction
        The proof of equivalence (misère: Spindler Theorem 1 witnesses; normal: a Grundy
        labelling) or the distinguishing game.
    """

    g: Game
    h: Game
    misere: bool
    holds: bool
    certificate: EquivalenceProof | GrundyProof | Distinction = field(repr=False)

    def __bool__(self) -> bool:
        return self.holds

    @property
    def distinguisher(self) -> Game | None:
        """The distinguishing game ``T`` when ``g ≢ h``, else None."""
        return self.certificate.t if isinstance(self.certificate, Distinction) else None

    def __str__(self) -> str:
        return self.explain()

    def __repr__(self) -> str:
        rel = "≡" if self.holds else "≢"
        play = "misère" if self.misere else "normal"
        return (
            f"EquivalenceResult({format_game(self.g, max_chars=60)} {rel} "
            f"{format_game(self.h, max_chars=60)}, {play} play)"
        )

    # -- readable proof ------------------------------------------------------------------
    def explain(self, max_chars: int = 2000, max_steps: int = 100) -> str:
        """A readable proof: Theorem 1's witnesses, a Grundy labelling, or the distinguisher.

        Forms are printed in literal notation (:func:`cgtalg.parse` reads them back); forms
        longer than ``max_chars`` are cut with ``...``, and at most ``max_steps`` proof steps
        (or Grundy labels) are listed (:meth:`to_json` always has everything).

        Examples
        --------
        >>> print(equivalent("*2+*", "*3").explain())  # doctest: +ELLIPSIS
        *+*2 ≡ *3 in misère play (impartial universe).
        ...
        [1] *+*2 ≡ *3
            (i)   H' = 0: G' = {*} ≡ H'  ([2])
                  H' = *: G' = * ≡ H'  (identical)
        ...
        """
        return _explain(self, max_chars, max_steps)

    def to_json(self) -> dict:
        """The result and its certificate as JSON types (forms as literal text).

        The layout (read back by :func:`cgtalg.misere.proof.check_proof`)::

            {"g", "h", "misere", "holds", "theorem",
             "certificate": {"type": "misere-equivalence", "root": 0, "nodes": [
                                {"g", "h", "identical", "i": [witness...], "ii": [...],
                                 "winning_move"}, ...]}
                          | {"type": "normal-grundy", "value", "labels": [[form, value], ...]}
                          | {"type": "distinguisher", "T", "outcome_g_plus_T",
                             "outcome_h_plus_T", "condition", "option", "parts"}}

        where a witness is ``{"option", "kind", "game", "proof": node index}``.
        """
        cert = self.certificate
        out: dict[str, Any] = {
            "g": game_to_json(self.g),
            "h": game_to_json(self.h),
            "misere": self.misere,
            "holds": self.holds,
            "theorem": THEOREM if self.misere else NORMAL_THEOREM,
        }
        if isinstance(cert, EquivalenceProof):
            nodes = cert.nodes()
            index = {id(n): i for i, n in enumerate(nodes)}
            out["certificate"] = {
                "type": "misere-equivalence",
                "root": 0,
                "nodes": [
                    {
                        "g": game_to_json(n.g),
                        "h": game_to_json(n.h),
                        "identical": n.identical,
                        "i": [_witness_json(w, index) for w in n.condition_i],
                        "ii": [_witness_json(w, index) for w in n.condition_ii],
                        "winning_move": None if n.winning_move is None else game_to_json(n.winning_move),
                    }
                    for n in nodes
                ],
            }
        elif isinstance(cert, GrundyProof):
            out["certificate"] = {
                "type": "normal-grundy",
                "value": cert.value,
                "labels": [[game_to_json(x), v] for x, v in cert.labels],
            }
        else:
            out["certificate"] = {
                "type": "distinguisher",
                "T": game_to_json(cert.t),
                "outcome_g_plus_T": cert.outcome_g,
                "outcome_h_plus_T": cert.outcome_h,
                "condition": cert.condition,
                "option": None if cert.option is None else game_to_json(cert.option),
                "parts": [[game_to_json(x), game_to_json(y), game_to_json(t)] for x, y, t in cert.parts],
            }
        return out

    def _repr_html_(self) -> str:
        """Notebook view: the readable report in a ``<pre>`` block."""
        from cgtalg.core.display import text_html

        return text_html(self)


def _witness_json(w: Witness, index: dict[int, int]) -> dict:
    return {
        "option": game_to_json(w.option),
        "kind": w.kind,
        "game": game_to_json(w.game),
        "proof": index[id(w.proof)],
    }


# ---------------------------------------------------------------------------------------
# public functions
# ---------------------------------------------------------------------------------------
def equivalent(g: Game | str, h: Game | str, misere: bool = True) -> EquivalenceResult:
    """Decide ``g ≡ h`` and return the answer with a certificate.

    Misère play uses Spindler's Theorem 1 (seed 002; Siegel CGT Theorems V.3.5-V.3.6) in the
    impartial misère universe: ``G ≡ H`` iff every ``H'`` has an ``H'' ≡ G`` or a
    ``G' ≡ H'``, every ``G'`` has a ``G'' ≡ H`` or an ``H' ≡ G'``, and if one game is ``0``
    the other is an N-position. The search is memoised on pairs of form ids and does not use
    misère canonical forms. Normal play compares Grundy values (Sprague-Grundy).

    Parameters
    ----------
    g, h : Game or str
        The forms (text is parsed with :func:`cgtalg.parse`).
    misere : bool, default True
        Misère play (impartial universe) or normal play.

    Returns
    -------
    EquivalenceResult
        ``.holds`` and a certificate: witnesses for each option (equivalence), a Grundy
        labelling (normal-play equivalence), or a distinguishing game ``T`` with
        ``o(g+T) ≠ o(h+T)`` verified by direct play (inequivalence).

    Raises
    ------
    TypeError
        If ``g`` or ``h`` is not a Game or text, or ``misere`` is not a bool.
    cgtalg.errors.GameNotationError
        If game text cannot be parsed.

    Examples
    --------
    >>> import cgtalg as cg
    >>> equivalent("*+*", "0").holds          # Spindler Theorem 5 with n = 1
    True
    >>> r = equivalent("0", "*")              # condition (iii) fails: T = 0
    >>> r.holds, str(r.distinguisher), r.certificate.outcome_g, r.certificate.outcome_h
    (False, '0', 'N', 'P')
    >>> equivalent("*+*", "0", misere=False).holds
    True
    """
    g = _as_game(g, "g")
    h = _as_game(h, "h")
    misere = _check_flag(misere)
    if not misere:
        return _normal_equivalent(g, h)
    if g is not h:
        na, nb = g.nim_heap_size(), h.nim_heap_size()
        if na is not None and nb is not None and max(na, nb) > _ATOM_SEARCH:
            return EquivalenceResult(g, h, True, False, _nim_distinction(g, h, na, nb))
    engine = _ENGINE
    node = engine.node(g, h)
    if node is not None:
        if node.g is not g:  # memo built in the other orientation
            node = node.swapped()
        return EquivalenceResult(g, h, True, True, node)
    return EquivalenceResult(g, h, True, False, engine.distinction(g, h))


def _nim_distinction(g: Game, h: Game, a: int, b: int) -> Distinction:
    """Distinct nim-heaps ``*a``, ``*b`` are misère-inequivalent: ``T = *max(a, b)`` when that
    is ``>= 2`` (then ``*m + *m`` is P and ``*a + *b`` with ``a != b`` is N, by misère Nim,
    Winning Ways ch. 13), else ``T = 0`` (``{a, b} = {0, 1}``: ``0`` is N, ``*`` is P)."""
    m = max(a, b)
    t = nim(m) if m >= 2 else zero
    og = _PLAY[True].outcome(g, t)
    oh = _PLAY[True].outcome(h, t)
    if og == oh:
        raise RuntimeError(f"internal error: T = *{m} does not distinguish *{a} and *{b}")
    return Distinction(g, h, True, t, og, oh, "nim" if m >= 2 else "iii")


def _normal_equivalent(g: Game, h: Game) -> EquivalenceResult:
    key = (g.id, h.id)
    hit = _NORMAL_MEMO.get(key)
    if hit is not None:
        return hit
    vg, vh = grundy(g), grundy(h)
    if vg == vh:
        labels: dict[int, tuple[Game, int]] = {}
        for root in (g, h):
            # nim-heaps above _ATOM_SEARCH are labelled as atoms (the checker knows *n has value n)
            n = root.nim_heap_size()
            if n is not None and n > _ATOM_SEARCH:
                labels.setdefault(root.id, (root, n))
                continue
            for x in root.subpositions():
                labels.setdefault(x.id, (x, grundy(x)))
        cert: GrundyProof | Distinction = GrundyProof(g, h, vg, tuple(labels.values()))
        if not _PLAY[False].is_p(g, h):  # the mirror argument, by direct play
            raise RuntimeError(f"internal error: {g} + {h} is not a normal-play P-position")
        result = EquivalenceResult(g, h, False, True, cert)
    else:
        t = nim(vh)  # h + *g(h) is P, g + *g(h) is N
        og, oh = _PLAY[False].outcome(g, t), _PLAY[False].outcome(h, t)
        if og == oh:
            raise RuntimeError(f"internal error: *{vh} does not distinguish {g} and {h}")
        result = EquivalenceResult(g, h, False, False, Distinction(g, h, False, t, og, oh, "grundy"))
    _NORMAL_MEMO[key] = result
    return result


def linked(g: Game | str, h: Game | str, misere: bool = True) -> bool:
    """Whether ``g`` is linked to ``h``: ``o(g+T) = o(h+T) = P`` for some impartial ``T``.

    Misère play: Siegel CGT Theorem V.3.5 (Spindler's Lemma 2): ``G`` is linked to ``H``
    iff no ``G' ≡ H`` and no ``H' ≡ G``. Normal play: ``G + T`` is P iff ``T = G``, so
    ``G`` is linked to ``H`` iff ``G ≡ H``.

    Parameters
    ----------
    g, h : Game or str
    misere : bool, default True

    Returns
    -------
    bool

    Raises
    ------
    TypeError, cgtalg.errors.GameNotationError
        As for :func:`equivalent`.

    Examples
    --------
    >>> import cgtalg as cg
    >>> linked(cg.zero, cg.zero), linked(cg.star, cg.zero), linked(cg.nim(2), cg.nim(3))
    (True, False, False)
    """
    g = _as_game(g, "g")
    h = _as_game(h, "h")
    if not _check_flag(misere):
        return grundy(g) == grundy(h)
    return bool(_ENGINE.run_gen(_ENGINE._linked_to_option(g, h)))


def link(g: Game | str, h: Game | str, misere: bool = True) -> Game | None:
    """A game ``T`` with ``g + T`` and ``h + T`` both P-positions, or None if there is none.

    Misère play: built as in the proof of Siegel CGT Theorem V.3.5: ``T`` has, for each
    option ``X`` of ``g`` (resp. ``h``), an option ``T_X`` with ``X + T_X`` P and
    ``h + T_X`` (resp. ``g + T_X``) N; then every move from ``g + T`` or ``h + T`` lands on
    an N-position. Both outcomes are verified by direct play. Normal play: ``T = *g(g)``.

    Parameters
    ----------
    g, h : Game or str
    misere : bool, default True

    Returns
    -------
    Game or None

    Raises
    ------
    TypeError, cgtalg.errors.GameNotationError
        As for :func:`equivalent`.

    Examples
    --------
    >>> import cgtalg as cg
    >>> G, H = cg.parse("{*2}"), cg.nim(3)
    >>> t = link(G, H)
    >>> cg.misere_outcome(G + t), cg.misere_outcome(H + t)
    ('P', 'P')
    >>> link(cg.star, cg.zero) is None
    True
    """
    g = _as_game(g, "g")
    h = _as_game(h, "h")
    misere = _check_flag(misere)
    if not linked(g, h, misere):
        return None
    if not misere:
        t = nim(grundy(g))
    else:
        t, _parts = _ENGINE.run(("link", g, h))
    if not (_PLAY[misere].is_p(g, t) and _PLAY[misere].is_p(h, t)):
        raise RuntimeError(f"internal error: link {t} of {g} and {h} failed verification")
    return t


def distinguisher(g: Game | str, h: Game | str, misere: bool = True) -> Game | None:
    """A game ``T`` with ``o(g+T) ≠ o(h+T)`` (verified by play), or None if ``g ≡ h``.

    Misère play: built from the condition of Spindler's Theorem 1 that fails (``T = 0`` for
    (iii), a link of ``g`` and an option of ``h`` (or vice versa) for (i)/(ii), Siegel CGT
    V.3.5). Normal play: ``T = *g(h)``. This is ``equivalent(g, h, misere).distinguisher``.

    Parameters
    ----------
    g, h : Game or str
    misere : bool, default True

    Returns
    -------
    Game or None

    Raises
    ------
    TypeError, cgtalg.errors.GameNotationError
        As for :func:`equivalent`.

    Examples
    --------
    >>> import cgtalg as cg
    >>> distinguisher(cg.nim(3), cg.nim(2) + cg.star) is None
    True
    >>> str(distinguisher(cg.nim(2), cg.nim(3), misere=False))
    '*3'
    """
    return equivalent(g, h, misere).distinguisher


def equivalence_classes(
    games: Iterable[Game | str], misere: bool = True, progress: bool = False
) -> list[list[Game]]:
    """Partition ``games`` into equivalence classes (first member of each class first).

    Each form is compared with one representative per class found so far, using
    :func:`equivalent` (equivalence is an equivalence relation, so one comparison per
    class suffices).

    Parameters
    ----------
    games : iterable of Game or str
    misere : bool, default True
    progress : bool, default False
        Show a tqdm progress bar.

    Returns
    -------
    list of lists of Game, in order of first appearance.

    Examples
    --------
    >>> import cgtalg as cg
    >>> cls = equivalence_classes(["0", "*", "{*}", "{*, *2}", "*2+*", "*3"])
    >>> [[str(x) for x in c] for c in cls]
    [['0', '{*}', '{*, *2}'], ['*'], ['*...*...', '*3']]
    """
    misere = _check_flag(misere)
    items = [_as_game(x, "game") for x in games]
    classes: list[list[Game]] = []
    iterator: Iterable[Game] = items
    if progress:
        from tqdm import tqdm

        iterator = tqdm(items, desc="equivalence classes", unit="form")
    for x in iterator:
        for cls in classes:
            if _holds(cls[0], x, misere):
                cls.append(x)
                break
        else:
            classes.append([x])
    return classes


def _holds(g: Game, h: Game, misere: bool) -> bool:
    if not misere:
        return grundy(g) == grundy(h)
    return _ENGINE.run(("eq", g, h))


# ---------------------------------------------------------------------------------------
# explanation text
# ---------------------------------------------------------------------------------------
def _explain(result: EquivalenceResult, max_chars: int, max_steps: int) -> str:
    def f(x: Game) -> str:
        return format_game(x, max_chars=max_chars)

    play = "misère play (impartial universe)" if result.misere else "normal play"
    rel = "≡" if result.holds else "≢"
    lines = [f"{f(result.g)} {rel} {f(result.h)} in {play}.", f"  G = {f(result.g)}", f"  H = {f(result.h)}"]
    cert = result.certificate
    if isinstance(cert, EquivalenceProof):
        lines += _explain_proof(cert, f, max_steps)
    elif isinstance(cert, GrundyProof):
        lines += _explain_grundy(cert, f, max_steps)
    else:
        lines += _explain_distinction(cert, f)
    return "\n".join(lines)


def _explain_proof(root: EquivalenceProof, f, max_steps: int) -> list[str]:
    if root.identical:
        return ["Proof: G and H are the same form (identical game trees), so G ≡ H."]
    nodes = [n for n in root.nodes() if not n.identical]
    number = {id(n): i + 1 for i, n in enumerate(nodes)}
    lines = [
        f"Proof by {THEOREM}:",
        "  G ≡ H iff (i) every H' has an option H'' ≡ G or there is a G' ≡ H',",
        "            (ii) every G' has an option G'' ≡ H or there is an H' ≡ G',",
        "            (iii) if G = 0 then H is an N-position, and if H = 0 then G is.",
        "Step [k] proves one equivalence by (i)-(iii); a step cited as [k] is proved once.",
    ]

    def cite(w: Witness) -> str:
        return "identical" if w.proof.identical else f"[{number[id(w.proof)]}]"

    for n in nodes[:max_steps]:
        k = number[id(n)]
        lines.append("")
        lines.append(f"[{k}] {f(n.g)} ≡ {f(n.h)}")
        gl, hl = ("G", "H") if k == 1 else ("A", "B")
        if k != 1:
            lines.append(f"    with {gl} = {f(n.g)}, {hl} = {f(n.h)}")
        if not n.condition_i:
            lines.append(f"    (i)   {hl} has no options.")
        for j, w in enumerate(n.condition_i):
            head = "    (i)   " if j == 0 else "          "
            if w.kind == "G'":
                lines.append(f"{head}{hl}' = {f(w.option)}: {gl}' = {f(w.game)} ≡ {hl}'  ({cite(w)})")
            else:
                lines.append(f"{head}{hl}' = {f(w.option)}: {hl}'' = {f(w.game)} ≡ {gl}  ({cite(w)})")
        if not n.condition_ii:
            lines.append(f"    (ii)  {gl} has no options.")
        for j, w in enumerate(n.condition_ii):
            head = "    (ii)  " if j == 0 else "          "
            if w.kind == "H'":
                lines.append(f"{head}{gl}' = {f(w.option)}: {hl}' = {f(w.game)} ≡ {gl}'  ({cite(w)})")
            else:
                lines.append(f"{head}{gl}' = {f(w.option)}: {gl}'' = {f(w.game)} ≡ {hl}  ({cite(w)})")
        if n.g.is_zero or n.h.is_zero:
            z, other = (gl, hl) if n.g.is_zero else (hl, gl)
            mv = f(n.winning_move) if n.winning_move is not None else "?"
            lines.append(
                f"    (iii) {z} = 0, and {other} is an N-position: it has the move to {mv}, a P-position."
            )
        else:
            lines.append(f"    (iii) holds: neither {gl} nor {hl} is 0.")
    if len(nodes) > max_steps:
        lines += ["", f"... {len(nodes) - max_steps} more steps (all of them are in to_json())."]
    return lines


def _explain_grundy(cert: GrundyProof, f, max_steps: int) -> list[str]:
    lines = [
        f"Proof ({NORMAL_THEOREM}): G and H both have Grundy value {cert.value}, so both equal",
        f"*{cert.value} and G + H is a P-position (the second player mirrors). Grundy labels",
        "(each value is the mex of the values of the position's options):",
    ]
    shown = sorted(cert.labels, key=lambda p: (p[0].birthday, p[0].id))
    for x, v in shown[:max_steps]:
        lines.append(f"    {f(x)}: {v}")
    if len(shown) > max_steps:
        lines.append(f"    ... ({len(shown) - max_steps} more in to_json())")
    return lines


def _explain_distinction(cert: Distinction, f) -> list[str]:
    lines = [
        f"Distinguisher T = {f(cert.t)}",
        f"  o(G + T) = {cert.outcome_g} but o(H + T) = {cert.outcome_h}  (checked by play;"
        f" T has birthday {cert.t.birthday} and {_plural(walk_size(cert.t)[0], 'subposition')}).",
    ]
    if cert.condition == "nim":
        m = cert.t.nim_heap_size()
        lines.append(
            f"Why (misère Nim, Winning Ways ch. 13): G and H are distinct nim-heaps and T = *{m}"
            " is the larger; with a heap of size >= 2 a sum of nim-heaps is a misère P-position"
            " iff its nim-sum is 0, so the sum with two heaps *m is P and the other is N."
        )
        return lines
    if cert.condition == "grundy":
        lines.append(
            f"Why ({NORMAL_THEOREM}): G has Grundy value {grundy(cert.g)} and H has {grundy(cert.h)};"
            f" T = *{grundy(cert.h)} = H's value, so H + T has value 0 and G + T does not."
        )
        return lines
    if cert.condition == "iii":
        z, other = ("G", "H") if cert.g.is_zero else ("H", "G")
        lines += [
            f"Why: condition (iii) of {THEOREM}",
            f"  fails: {z} = 0 but {other} is a misère P-position. With T = 0, {z} + T = 0 is an",
            f"  N-position (the player to move has no move, and wins) while {other} + T is P.",
        ]
        return lines
    if cert.condition == "i":
        this, opt, other = "H", "H'", "G"
    else:
        this, opt, other = "G", "G'", "H"
    lines += [
        f"Why: condition ({cert.condition}) of {THEOREM}",
        f"  fails at {opt} = {f(cert.option)}: no option {opt}' of {opt} is ≡ {other}, and no option"
        f" {other}' of {other} is ≡ {opt}.",
        f"  So {other} is linked to {opt} (Lemma 2 = Siegel CGT V.3.5): {other} + T and {opt} + T are"
        " both P-positions,",
        f"  hence {this} + T is an N-position (it has the move to {opt} + T) while {other} + T is P.",
        "  T is the link from the proof of Lemma 2, with one option T_X per option X of either game,",
        "  where X + T_X is P and (the other game) + T_X is N:",
    ]
    n_other = len(cert.g.options if cert.condition == "i" else cert.h.options)
    for k, (x, y, t) in enumerate(cert.parts):
        name = f"{other}'" if k < n_other else f"{opt}'"
        lines.append(f"    X = {name} = {f(x)}: T_X = {f(t)}  ({f(y)} + T_X is N)")
    return lines


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"
