"""Misère play of partizan forms: outcomes, and comparison in the full, dead-ending and dicot universes.

In misère play the player unable to move *wins*. The outcome ``o⁻(G)`` is ``L``, ``R``, ``N``
or ``P`` (Left wins, Right wins, the player to move wins, the other one wins), ordered
``L > P > R`` and ``L > N > R`` with ``P`` and ``N`` incomparable; equivalently,
``o⁻(A) ≥ o⁻(B)`` iff (Left wins ``B`` moving first ⇒ Left wins ``A`` moving first) and (Right
wins ``A`` moving first ⇒ Right wins ``B`` moving first).

For a *universe* ``U`` of games (closed under options, sums and conjugates),
``G ≥_U H`` iff ``o⁻(G + X) ≥ o⁻(H + X)`` for every ``X ∈ U``. Three universes are offered:

* ``"full"``: every short partizan game (Siegel, *Combinatorial Game Theory* (CGT), §V.6);
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
>>> from cgtalg.misere.partizan import misere_outcome, misere_ge, misere_equal
>>> star = nimber(1)
>>> misere_outcome(pgame()), misere_outcome(star), misere_outcome(star + star)
('N', 'P', 'N')
>>> bool(misere_equal(star + star, 0))          # * + * ≠ 0 among partizan games (seed 002)
False
>>> bool(misere_equal(star + star, 0, universe="dicot"))
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generator, Literal, Sequence

from cgtalg.core.fold import distinct_preorder, fold
from cgtalg.core.partizan import ZERO, PartizanGame, literal_text, as_partizan, negative, partizan_evaluator, pgame

__all__ = [
    "UNIVERSES",
    "Universe",
    "misere_outcome",
    "misere_first_winners",
    "outcome_ge",
    "misere_sum_outcome",
    "pair_first_winners",
    "reserve_dead_end",
    "is_dicot",
    "is_dead_ending",
    "in_universe",
    "misere_adjoint",
    "left_dead_end",
    "left_strong",
    "right_strong",
    "davies_milley_strong",
    "GeProof",
    "MisereDistinction",
    "MisereComparison",
    "misere_ge",
    "misere_equal",
    "clear_misere_caches",
]

Universe = Literal["full", "dead-ending", "dicot"]
#: The universes :func:`misere_ge` compares in.
UNIVERSES: tuple[str, ...] = ("full", "dead-ending", "dicot")

_THEOREM = {
    "full": "Siegel CGT Theorems V.6.15-V.6.16 (seed 002 Theorem 2, Definition 2, Lemma 4)",
    "dead-ending": "Larsson-Milley-Nowakowski-Renault-Santos (arXiv 1807.11297): Maintenance and "
    "Proviso modulo E (Larsson-Nowakowski-Santos, arXiv 1606.01975, Theorem 4)",
    "dicot": "Larsson-Milley-Nowakowski-Renault-Santos (arXiv 1807.11297): Maintenance and "
    "Proviso modulo D (Larsson-Nowakowski-Santos, arXiv 1606.01975, Theorem 4)",
}


# ---------------------------------------------------------------------------------------
# outcomes (one fold: who wins moving first, alone and against a dead-end reserve)
# ---------------------------------------------------------------------------------------
@partizan_evaluator("partizan_misere_play")
def _PLAY(g: PartizanGame, lv: Sequence[tuple[bool, ...]], rv: Sequence[tuple[bool, ...]]) -> tuple[bool, ...]:
    """``(lf, rf, lf_r, rf_r, lf_l, rf_l)``: Left/Right wins moving first in ``g`` alone
    (misère: no move = win); in ``g`` plus an unbounded *Right* reserve (a Left dead end of
    large birthday: at each turn Right may also pass in it or finish it); in ``g`` plus an
    unbounded *Left* reserve (the conjugate situation)."""
    lf = (not lv) or any(not v[1] for v in lv)
    rf = (not rv) or any(not v[0] for v in rv)
    # Right reserve: Left cannot move in it; Right may move in g, pass (stay), or finish (-> g)
    lf_r = (not lv) or any(not v[3] for v in lv)
    rf_r = any(not v[2] for v in rv) or not lf_r or not lf
    # Left reserve
    rf_l = (not rv) or any(not v[4] for v in rv)
    lf_l = any(not v[5] for v in lv) or not rf_l or not rf
    return (lf, rf, lf_r, rf_r, lf_l, rf_l)


_OUTCOME = {(True, False): "L", (False, True): "R", (True, True): "N", (False, False): "P"}
_FIRST = {v: k for k, v in _OUTCOME.items()}


def _pg(x: Any, name: str) -> PartizanGame:
    if isinstance(x, str):
        try:
            from cgtalg.core.partizan_notation import parse_partizan
        except ImportError:  # pragma: no cover - notation module absent
            raise TypeError(f"{name}: partizan notation is not available; pass a form") from None
        return parse_partizan(x)
    try:
        return as_partizan(x)
    except TypeError:
        raise TypeError(f"{name} must be a partizan form (or an impartial form, an int, a dyadic "
                        f"Fraction or game text), got {type(x).__name__}: {x!r}") from None


def misere_first_winners(g: Any) -> tuple[bool, bool]:
    """``(Left wins moving first, Right wins moving first)`` in misère play of ``g``.

    Examples
    --------
    >>> from cgtalg.core.partizan import pgame, integer
    >>> misere_first_winners(pgame()), misere_first_winners(integer(1))
    ((True, True), (False, True))
    """
    v = fold(_pg(g, "g"), _PLAY)
    return v[0], v[1]


def misere_outcome(g: Any) -> str:
    """The misère outcome class ``'L'``, ``'R'``, ``'N'`` or ``'P'`` of a partizan form.

    Misère play: the player unable to move wins (Siegel CGT §V.6; seed 002 §2). ``0`` is an
    N-position; ``1 = {0 | }`` is an R-position (Left must move, Right then cannot).
    Impartial forms are embedded with :func:`cgtalg.core.partizan.from_impartial`.

    Parameters
    ----------
    g : PartizanGame, Game, int or str
        The form (impartial forms, integers and game text are converted).

    Returns
    -------
    str

    Examples
    --------
    >>> from cgtalg.core.partizan import pgame, integer, nimber, up
    >>> [misere_outcome(x) for x in (pgame(), integer(1), integer(-2), nimber(1), up)]
    ['N', 'R', 'L', 'P', 'R']
    """
    return _OUTCOME[misere_first_winners(g)]


def outcome_ge(a: str, b: str) -> bool:
    """The partial order of outcomes: ``L > P > R``, ``L > N > R``, ``P`` and ``N`` incomparable.

    Examples
    --------
    >>> outcome_ge("L", "N"), outcome_ge("P", "N"), outcome_ge("N", "R")
    (True, False, True)
    """
    la, ra = _FIRST[a]
    lb, rb = _FIRST[b]
    return (la or not lb) and (rb or not ra)


_PAIR_MEMO: dict[tuple[int, int], tuple[bool, bool]] = {}


def pair_first_winners(a: PartizanGame, b: PartizanGame) -> tuple[bool, bool]:
    """``(Left wins moving first, Right wins moving first)`` in misère play of ``a + b``, by
    play on pairs of positions (memoised on id pairs, iterative), without building the sum.

    Examples
    --------
    >>> from cgtalg.core.partizan import nimber
    >>> pair_first_winners(nimber(1), nimber(1)), pair_first_winners(nimber(2), nimber(2))
    ((True, True), (False, False))
    """
    memo = _PAIR_MEMO
    root = (a._id, b._id)
    hit = memo.get(root)
    if hit is not None:
        return hit
    stack: list[tuple[PartizanGame, PartizanGame, bool]] = [(a, b, False)]
    while stack:
        x, y, expanded = stack.pop()
        k = (x._id, y._id)
        if k in memo:
            continue
        if not (x.left or x.right) or not (y.left or y.right):
            v = fold(y if not (x.left or x.right) else x, _PLAY)
            memo[k] = (v[0], v[1])
            continue
        if expanded:  # every move's value is known now
            lf = any(not memo[(o._id, y._id)][1] for o in x.left) or any(not memo[(x._id, o._id)][1] for o in y.left)
            rf = any(not memo[(o._id, y._id)][0] for o in x.right) or any(not memo[(x._id, o._id)][0] for o in y.right)
            memo[k] = (lf or not (x.left or y.left), rf or not (x.right or y.right))
            continue
        stack.append((x, y, True))
        for o in x.left + x.right:
            if (o._id, y._id) not in memo:
                stack.append((o, y, False))
        for o in y.left + y.right:
            if (x._id, o._id) not in memo:
                stack.append((x, o, False))
    return memo[root]


def misere_sum_outcome(*components: Any) -> str:
    """The misère outcome of the disjunctive sum of ``components`` (built as a form).

    Examples
    --------
    >>> from cgtalg.core.partizan import nimber, integer
    >>> misere_sum_outcome(nimber(1), nimber(1)), misere_sum_outcome(integer(1), integer(-1))
    ('N', 'N')
    """
    total = ZERO
    for c in components:
        total = total + _pg(c, "component")
    return misere_outcome(total)


# ---------------------------------------------------------------------------------------
# universes
# ---------------------------------------------------------------------------------------
@partizan_evaluator("partizan_is_dicot")
def _DICOT(g: PartizanGame, lv: Sequence[bool], rv: Sequence[bool]) -> bool:
    return bool(g.left) == bool(g.right) and all(lv) and all(rv)


@partizan_evaluator("partizan_dead_ends")
def _DEAD(g: PartizanGame, lv: Sequence[tuple[bool, ...]], rv: Sequence[tuple[bool, ...]]) -> tuple[bool, bool, bool]:
    """``(Left dead end, Right dead end, dead-ending)``."""
    left_dead = not g.left and all(v[0] for v in rv)
    right_dead = not g.right and all(v[1] for v in lv)
    ending = (bool(g.left) or left_dead) and (bool(g.right) or right_dead)
    ending = ending and all(v[2] for v in lv) and all(v[2] for v in rv)
    return (left_dead, right_dead, ending)


def is_dicot(g: Any) -> bool:
    """Whether every follower of ``g`` (``g`` included) has moves for both players or for
    neither (Dorbec, Renault, Siegel, Sopena 2015). Impartial forms are dicots.

    Examples
    --------
    >>> from cgtalg.core.partizan import nimber, up, integer
    >>> is_dicot(nimber(2)), is_dicot(up), is_dicot(integer(1))
    (True, True, False)
    """
    return fold(_pg(g, "g"), _DICOT)


def is_dead_ending(g: Any) -> bool:
    """Whether every end of every follower of ``g`` is dead: where Left (Right) cannot move,
    she (he) can never move again (Milley and Renault 2013). Dicots and integers are
    dead-ending; ``{ | *}`` is not (Left has no move now but gets one after Right's).

    Examples
    --------
    >>> from cgtalg.core.partizan import integer, up, pgame, nimber
    >>> is_dead_ending(integer(3)), is_dead_ending(up), is_dead_ending(pgame([], [nimber(1)]))
    (True, True, False)
    """
    return fold(_pg(g, "g"), _DEAD)[2]


def left_dead_end(g: Any) -> bool:
    """Whether Left can never move in ``g`` nor in any follower of it."""
    return fold(_pg(g, "g"), _DEAD)[0]


def _check_universe(universe: Any) -> str:
    if universe not in UNIVERSES:
        raise ValueError(f"unknown universe {universe!r}; expected one of {', '.join(map(repr, UNIVERSES))}")
    return universe


def in_universe(g: Any, universe: str) -> bool:
    """Whether ``g`` belongs to ``universe`` (``"full"``, ``"dead-ending"`` or ``"dicot"``)."""
    universe = _check_universe(universe)
    if universe == "full":
        _pg(g, "g")
        return True
    return is_dicot(g) if universe == "dicot" else is_dead_ending(g)


def _require(g: PartizanGame, universe: str, name: str) -> None:
    if universe == "full" or in_universe(g, universe):
        return
    what = "a dicot" if universe == "dicot" else "dead-ending"
    raise ValueError(f"{name} = {_show(g)} is not {what}; compare it in the universe 'full' "
                     f"(or one it belongs to)")


def _show(g: PartizanGame, limit: int = 120) -> str:
    try:
        text = str(g)
    except Exception:  # pragma: no cover - defensive: printing must not break messages
        text = literal_text(g)
    return text if len(text) <= limit else text[: limit - 3] + "..."


# ---------------------------------------------------------------------------------------
# strong games (the Proviso)
# ---------------------------------------------------------------------------------------
def left_strong(g: Any, universe: str = "full") -> bool:
    """Whether Left, moving first, wins ``g + X`` for every Left end ``X`` of ``universe``.

    full: iff ``g`` is a Left end (Siegel V.6.16 (iii)); dicot: iff Left wins ``g`` moving
    first (``0`` is the only end); dead-ending: iff Left wins moving first both ``g`` and ``g``
    against an unbounded Right reserve (see the module docstring).

    Examples
    --------
    >>> from cgtalg.core.partizan import integer, nimber
    >>> left_strong(integer(-1)), left_strong(nimber(1), "dicot"), left_strong(integer(1), "dead-ending")
    (True, False, False)
    """
    universe = _check_universe(universe)
    x = _pg(g, "g")
    if universe == "full":
        return not x.left
    v = fold(x, _PLAY)
    return v[0] if universe == "dicot" else v[0] and v[2]


def right_strong(g: Any, universe: str = "full") -> bool:
    """Whether Right, moving first, wins ``g + X`` for every Right end ``X`` of ``universe``
    (the conjugate of :func:`left_strong`)."""
    universe = _check_universe(universe)
    x = _pg(g, "g")
    if universe == "full":
        return not x.right
    v = fold(x, _PLAY)
    return v[1] if universe == "dicot" else v[1] and v[5]


@partizan_evaluator("partizan_davies_milley_strong")
def _DM(g: PartizanGame, lv: Sequence[bool], rv: Sequence[bool]) -> bool:
    if not g.left:
        return True
    for gl, ok in zip(g.left, lv):
        if ok and misere_outcome(gl) == "L" and all(fold(glr, _DM) for glr in gl.right):
            return True
    return False


def davies_milley_strong(g: Any) -> bool:
    """The Left-strong test of Davies and Milley (*Order and inverses in the misère monoid*,
    Theorem 3.1) for dead-ending universes: ``g`` is a Left end, or some ``g^L`` has misère
    outcome ``L``, passes the test, and every ``g^LR`` passes the test.

    A sufficient condition for ``g`` to be Left-strong modulo the dead-ending games (the
    direction formalised in Lean by Davies and Maciosowski; for P-free ``g`` it is also
    necessary). Kept beside :func:`left_strong`, which decides the question exactly, so that
    the tests can compare them.

    Examples
    --------
    >>> from cgtalg.core.partizan import pgame, nimber
    >>> g = pgame([0, nimber(1)], [0])           # ↑*: Left-strong, but no Left option is an L-position
    >>> davies_milley_strong(g), left_strong(g, "dead-ending")
    (False, True)
    """
    return fold(_pg(g, "g"), _DM)


# ---------------------------------------------------------------------------------------
# adjoints and the universal dead ends
# ---------------------------------------------------------------------------------------
@partizan_evaluator("partizan_misere_adjoint")
def _ADJOINT(g: PartizanGame, lv: Sequence[PartizanGame], rv: Sequence[PartizanGame]) -> PartizanGame:
    if not g.left and not g.right:
        return pgame([ZERO], [ZERO])  # 0° = *
    if not g.left:
        return pgame(rv, [ZERO])
    if not g.right:
        return pgame([ZERO], lv)
    return pgame(rv, lv)


def misere_adjoint(g: Any) -> PartizanGame:
    """The adjoint ``G°`` (Siegel CGT §V.6): ``0° = *``; ``{G^R° | 0}`` when ``G`` has Right
    options only; ``{0 | G^L°}`` when it has Left options only; ``{G^R° | G^L°}`` otherwise.

    ``G + G°`` is a misère P-position for every ``G``, and every adjoint is a dicot (both
    players always have a move), so adjoints serve as distinguishers in every universe here.

    Examples
    --------
    >>> from cgtalg.core.partizan import pgame, integer, nimber
    >>> g = pgame([integer(1)], [nimber(1)])
    >>> misere_outcome(g + misere_adjoint(g)), is_dicot(misere_adjoint(g))
    ('P', True)
    """
    return fold(_pg(g, "g"), _ADJOINT)


_DEAD_ENDS: list[PartizanGame] = [ZERO]


def reserve_dead_end(b: int) -> PartizanGame:
    """``D_b = { | D_0, ..., D_(b-1)}`` (``D_0 = 0``): the Left dead end of birthday ``b`` that
    gives Right every choice of how many moves to spend in it."""
    while len(_DEAD_ENDS) <= b:
        _DEAD_ENDS.append(pgame([], _DEAD_ENDS))
    return _DEAD_ENDS[b]


# ---------------------------------------------------------------------------------------
# certificates
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class GeProof:
    """A certificate that ``g ≥ h`` in ``universe`` (Maintenance and Proviso).

    Attributes
    ----------
    g, h : PartizanGame
    universe : str
    identical : bool
        ``g is h`` (then the witness lists are empty).
    left : tuple of (H^L, kind, witness, GeProof)
        Maintenance (i), one entry per Left option ``H^L`` of ``h``: kind ``"G^L"`` (a Left
        option of ``g`` with ``witness ≥ H^L``) or ``"H^LR"`` (a Right option of ``H^L`` with
        ``g ≥ witness``).
    right : tuple of (G^R, kind, witness, GeProof)
        Maintenance (ii), one entry per Right option ``G^R`` of ``g``: kind ``"H^R"``
        (``G^R ≥ witness``) or ``"G^RL"`` (a Left option of ``G^R`` with ``witness ≥ h``).
    proviso : tuple of str
        The Proviso facts used (empty when neither ``h`` is a Left end nor ``g`` a Right end).
    """

    g: PartizanGame
    h: PartizanGame
    universe: str
    identical: bool = False
    left: tuple[tuple[PartizanGame, str, PartizanGame, "GeProof"], ...] = ()
    right: tuple[tuple[PartizanGame, str, PartizanGame, "GeProof"], ...] = ()
    proviso: tuple[str, ...] = ()

    def nodes(self) -> list["GeProof"]:
        """All distinct proof steps reachable from this one (this one first)."""
        return distinct_preorder(self, lambda n: [p for _, _, _, p in n.left + n.right])


@dataclass(frozen=True, eq=False)
class MisereDistinction:
    """A refutation of ``g ≥ h`` in ``universe``: ``t ∈ universe`` with ``o⁻(g+t) ≱ o⁻(h+t)``.

    Attributes
    ----------
    t : PartizanGame
    outcome_g, outcome_h : str
        ``o⁻(g + t)`` and ``o⁻(h + t)``.
    side : str
        ``"left-first"`` (Left wins ``h + t`` moving first but not ``g + t``) or
        ``"right-first"`` (Right wins ``g + t`` moving first but not ``h + t``).
    condition : str
        The condition that failed: ``"outcome"`` (already ``o⁻(g) ≱ o⁻(h)``, ``t = 0``),
        ``"maintenance (i)"``, ``"maintenance (ii)"``, ``"proviso (iii)"`` or ``"proviso (iv)"``.
    option : PartizanGame or None
        The ``H^L`` (i) or ``G^R`` (ii) at which Maintenance fails.
    """

    g: PartizanGame
    h: PartizanGame
    universe: str
    t: PartizanGame
    outcome_g: str
    outcome_h: str
    side: str
    condition: str
    option: PartizanGame | None = None


_REL = {(">=", True): "≥", (">=", False): "≱", ("=", True): "=", ("=", False): "≠"}


@dataclass(eq=False)
class MisereComparison:
    """The answer to "is ``g ≥ h``?" (or "is ``g = h``?") in a misère universe.

    ``bool(result)`` is :attr:`holds`. The certificate is built on first access: a
    :class:`GeProof` (for ``=``, the pair of proofs ``(g ≥ h, h ≥ g)``) or a
    :class:`MisereDistinction`. Re-check it with
    :func:`cgtalg.misere.partizan_proof.check_misere_certificate`.
    """

    g: PartizanGame
    h: PartizanGame
    universe: str
    relation: str  # ">=" or "="
    holds: bool
    _engine: Any = field(repr=False, default=None)
    _certificate: Any = field(repr=False, default=None)

    def __bool__(self) -> bool:
        return self.holds

    @property
    def certificate(self) -> GeProof | tuple[GeProof, GeProof] | MisereDistinction:
        """The proof (``holds``) or the distinguishing game (not ``holds``)."""
        if self._certificate is None:
            e = self._engine
            if self.relation == ">=":
                self._certificate = e.proof(self.g, self.h) if self.holds else e.distinction(self.g, self.h)
            elif self.holds:
                self._certificate = (e.proof(self.g, self.h), e.proof(self.h, self.g))
            elif not e.ge(self.g, self.h):
                self._certificate = e.distinction(self.g, self.h)
            else:
                self._certificate = e.distinction(self.h, self.g)
        return self._certificate

    @property
    def distinguisher(self) -> PartizanGame | None:
        """The distinguishing game ``T`` when the relation fails, else None."""
        c = self.certificate
        return c.t if isinstance(c, MisereDistinction) else None

    @property
    def theorem(self) -> str:
        """The theorem the recursion implements."""
        return _THEOREM[self.universe]

    def explain(self) -> str:
        """One paragraph: the verdict and its certificate."""
        rel = _REL[(self.relation, self.holds)]
        head = f"{_show(self.g, 60)} {rel} {_show(self.h, 60)} in misère play, universe {self.universe!r}"
        c = self.certificate
        if isinstance(c, MisereDistinction):
            a, b = (c.g, c.h)
            return (f"{head}: T = {_show(c.t, 80)} has o(G+T) = {c.outcome_g} and o(H+T) = {c.outcome_h} "
                    f"for G = {_show(a, 40)}, H = {_show(b, 40)} ({c.side}; {c.condition} fails)")
        proofs = c if isinstance(c, tuple) else (c,)
        steps = sum(len(p.nodes()) for p in proofs)
        return f"{head}: {steps} proof steps by {self.theorem}"

    def __str__(self) -> str:
        return self.explain()

    def __repr__(self) -> str:
        rel = _REL[(self.relation, self.holds)]
        return f"MisereComparison({_show(self.g, 60)} {rel} {_show(self.h, 60)}, universe={self.universe!r})"


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
        if self.universe == "full":
            return not g.left
        v = fold(g, _PLAY)
        return v[0] if self.universe == "dicot" else v[0] and v[2]

    def _strong_right(self, h: PartizanGame) -> bool:
        if self.universe == "full":
            return not h.right
        v = fold(h, _PLAY)
        return v[1] if self.universe == "dicot" else v[1] and v[5]

    def _frame(self, g: PartizanGame, h: PartizanGame) -> _Frame:
        if g is h:
            return _Verdict(True, identical=True)
        if not outcome_ge(misere_outcome(g), misere_outcome(h)):  # X = 0 already separates
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
        order: list[tuple[PartizanGame, PartizanGame]] = []
        stack = [(g, h)]
        seen: set[tuple[int, int]] = set()
        while stack:  # collect the pairs, then build children first
            a, b = stack.pop()
            k = (a._id, b._id)
            if k in seen or k in self.proofs:
                continue
            seen.add(k)
            order.append((a, b))
            v = self.verdict(a, b)
            if not v.holds:  # pragma: no cover - internal invariant
                raise AssertionError("proof requested for a failing comparison")
            for hl, kind, w in v.left:
                stack.append((w, hl) if kind == "G^L" else (a, w))
            for gr, kind, w in v.right:
                stack.append((gr, w) if kind == "H^R" else (w, b))
        for a, b in reversed(order):
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
            if self.universe == "full":
                return pgame([], [misere_adjoint(x) for x in a.left]), "L"
            if self.universe == "dicot" or not misere_first_winners(a)[0]:
                return ZERO, "L"
            return reserve_dead_end(a.birthday + 1), "L"
        if c == "proviso (iv)":  # a is a Right end, b is not Right-strong: a Right end T of U
            if self.universe == "full":
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


def clear_misere_caches() -> None:
    """Forget the memoised comparisons, proofs, distinguishers and sum outcomes."""
    _ENGINES.clear()
    _PAIR_MEMO.clear()


def misere_ge(g: Any, h: Any, universe: str = "full") -> MisereComparison:
    """Whether ``g ≥ h`` in misère play modulo ``universe``: ``o⁻(g+X) ≥ o⁻(h+X)`` for every
    ``X`` of the universe.

    Decided by the Maintenance-and-Proviso recursion on options (see the module docstring:
    Siegel CGT V.6.15-V.6.16 / seed 002 Theorem 2 for ``"full"``; Larsson-Milley-Nowakowski-
    Renault-Santos 2018 for ``"dead-ending"`` and ``"dicot"``).

    Parameters
    ----------
    g, h : PartizanGame, Game, int or str
        Forms (impartial forms are embedded as partizan forms).
    universe : {"full", "dead-ending", "dicot"}
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


def misere_equal(g: Any, h: Any, universe: str = "full") -> MisereComparison:
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
