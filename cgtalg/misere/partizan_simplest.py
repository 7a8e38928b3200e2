"""Misère simplest forms of partizan games in the general (full) universe.

Among *all* short partizan games, compared in misère play (``G ≥ H`` iff
``o⁻(G + X) ≥ o⁻(H + X)`` for every game ``X``; :func:`cgtalg.misere.partizan.misere_ge` with
``universe="all"``), every game has a unique *simplest form*, reached as in normal play by
removing dominated options and bypassing reversible ones:

**Theorem** (Mesdal and Ottaway, *Simplification of partizan games in misère play*, INTEGERS 7
(2007) #G06, for domination and reversibility; Siegel, *Misère canonical forms of partizan
games*, Games of No Chance 4, MSRI Publ. 63 (2015) 225–239, arXiv math/0703565, for
uniqueness; see also Siegel, *Combinatorial Game Theory* (2013) §V.6). Let ``G`` be a short
partizan game.

(a) *Dominated options.* If ``G^L1 ≤ G^L2`` for two distinct Left options, then ``G`` equals
    ``G`` without ``G^L1``; if ``G^R1 ≥ G^R2`` for two distinct Right options, then ``G``
    equals ``G`` without ``G^R1``.
(b) *Reversible options.* If some Right option ``G^L1R1`` of a Left option ``G^L1`` has
    ``G^L1R1 ≤ G``, then ``G = {G^L1R1L, G^L' | G^R}`` (``G^L1`` replaced by all the Left
    options of ``G^L1R1``; ``G^L'`` the other Left options). Dually a Right option ``G^R1``
    with ``G^R1L1 ≥ G`` is replaced by the Right options of ``G^R1L1``.
(c) *Uniqueness.* Call ``G`` *simplest* when no follower of ``G`` has a dominated or
    reversible option. If ``G`` and ``H`` are simplest and ``G = H``, then ``G ≅ H``
    (identical forms). Hence two games are misère-equal in the full universe iff their
    simplest forms are identical.

The statement is given from the papers' content; their theorem numbers are not cited because
the printed text was not at hand when this module was written (what is *checked* is the
statement itself: ``tests/test_partizan_simplest.py`` verifies (a)-(c) by play on thousands
of forms born by day 3).

*The end case of (b).* In normal play bypassing an option reversible through a Left end
``G^L1R1`` (no Left option) simply deletes it, and in the dicot and dead-ending universes such
"reversibility through ends" needs rules of its own (:mod:`cgtalg.misere.partizan_canonical`).
In the full universe the case cannot arise: by the Proviso of the comparison (Siegel CGT
Theorem V.6.16 (iii); seed 002 Theorem 2 (iii)), ``G ≥ X`` with ``X`` a Left end forces ``G``
to be a Left end, while ``G`` has the Left option ``G^L1``. So ``G^L1R1`` always has a Left
option and bypassing never empties a side: the number of Left (Right) options of a game is 0
exactly when that of its simplest form is (Milley and Renault, *Restricted developments in
partizan misère game theory*, arXiv 1606.07362, note that reversibility through an end is
impossible in general misère play). :func:`misere_simplification` checks this at every
bypass (an internal error if it ever failed) and the tests check it on every recorded step.

:func:`misere_simplest_form` applies (a) and (b) bottom-up (the options first; the followers of
a simplest form are simplest, so every option met is already simplest) until neither applies.
:func:`misere_simplification` also returns the steps — each removal or bypass with the
comparison that justifies it, whose certificate
:func:`cgtalg.misere.partizan_proof.check_misere_certificate` re-checks by play.

Counting: the forms born by day ``n + 1`` have their options among the simplest forms born by
day ``n``; :func:`partizan_misere_games_born_by` enumerates the distinct simplest forms for
``n ≤ 2``: 1, 4 and 256 games born by days 0, 1 and 2 (Siegel 2015 gives 256 for day 2: the
four games born by day 1, ``0``, ``* = {0|0}``, ``1 = {0|}`` and ``-1 = {|0}``, have the
misère outcomes N, P, R, L and are pairwise incomparable, so no form born by day 2 has a
dominated option, and none has a reversible one since ``G ≥ 0`` forces ``G`` to be a Left
end; all 256 forms born by day 2 are simplest, hence pairwise distinct). Day 3 would need the
subsets of 256 games on each side and is refused.

Examples
--------
>>> from cgtalg.core.partizan import ZERO, integer, nimber, pgame, literal_text
>>> star = nimber(1)
>>> misere_simplest_form(nimber(2)) is nimber(2)      # no simplification among all games
True
>>> g = pgame([pgame([], [integer(1)])], [])           # {{|1}|}: {|1} reverses through 1 ≤ G
>>> misere_simplest_form(g) is integer(1)
True
>>> [len(partizan_misere_games_born_by(n)) for n in range(3)]
[1, 4, 256]

References
----------
G. A. Mesdal and P. Ottaway, "Simplification of partizan games in misère play", INTEGERS 7
(2007) #G06. A. N. Siegel, "Misère canonical forms of partizan games", in *Games of No
Chance 4*, MSRI Publ. 63 (2015), 225–239 (arXiv math/0703565). A. N. Siegel, *Combinatorial
Game Theory*, AMS GSM 146 (2013), §V.6.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from cgtalg.caches import register_cache
from cgtalg.core.partizan import ZERO, PartizanGame, literal_text, make_form
from cgtalg.errors import ArgumentTypeError, ComputationLimitError
from cgtalg.misere.partizan import _engine, misere_ge
from cgtalg.misere.partizan_certificate import MisereComparison
from cgtalg.misere.partizan_outcome import _pg

__all__ = [
    "SimplificationStep",
    "MisereSimplification",
    "misere_simplest_form",
    "misere_simplification",
    "is_misere_simplest",
    "partizan_misere_games_born_by",
    "partizan_misere_count_born_by",
    "MAX_ENUMERATED_DAY",
]

#: The last day whose simplest forms :func:`partizan_misere_games_born_by` enumerates (day 3
#: would take the subsets of the 256 games born by day 2 on each side).
MAX_ENUMERATED_DAY = 2

_SIMPLEST: dict[int, PartizanGame] = {}            # form id -> its simplest form
_STEPS: dict[int, tuple["SimplificationStep", ...]] = {}  # form id -> steps taken at its top
_BORN: list[list[PartizanGame]] = []               # simplest forms born by day n


def _clear() -> None:
    _SIMPLEST.clear()
    _STEPS.clear()
    _BORN.clear()


register_cache("misere.partizan simplest forms", _clear)


@dataclass(frozen=True, eq=False)
class SimplificationStep:
    """One application of the simplification theorem at the top of ``before``.

    Attributes
    ----------
    kind : {"dominated", "reversible"}
    side : {"left", "right"}
        Whose option is removed or bypassed.
    before, after : PartizanGame
        The game before and after the step (``after = before`` in misère play).
    option : PartizanGame
        The dominated or reversible option of ``before``.
    witness : PartizanGame
        The dominating option (``dominated``) or the reversing option ``G^L1R1`` /
        ``G^R1L1`` (``reversible``).
    """

    kind: str
    side: str
    before: PartizanGame
    after: PartizanGame
    option: PartizanGame
    witness: PartizanGame

    @property
    def inequality(self) -> tuple[PartizanGame, PartizanGame]:
        """``(a, b)`` with ``a ≥ b`` the inequality the step rests on: ``G^L2 ≥ G^L1``,
        ``G^R1 ≥ G^R2``, ``G ≥ G^L1R1`` or ``G^R1L1 ≥ G``."""
        if self.kind == "dominated":
            return (self.witness, self.option) if self.side == "left" else (self.option, self.witness)
        return (self.before, self.witness) if self.side == "left" else (self.witness, self.before)

    def comparison(self) -> MisereComparison:
        """The full-universe comparison behind the step, with its certificate."""
        a, b = self.inequality
        return misere_ge(a, b, "all")

    def describe(self) -> str:
        from cgtalg.misere.partizan_outcome import _show

        a, b = self.inequality
        what = "removed (dominated)" if self.kind == "dominated" else "bypassed (reversible)"
        return (f"{self.side} option {_show(self.option, 50)} {what}: {_show(a, 50)} ≥ {_show(b, 50)}")

    def __repr__(self) -> str:
        from cgtalg.core.display import short

        return f"SimplificationStep({short(self.describe(), 170)!r})"

    def _repr_html_(self) -> str:
        from cgtalg.core.display import esc

        return f"<span class='cgtalg-step'>{esc(self.describe())}</span>"


@dataclass(frozen=True, eq=False)
class MisereSimplification:
    """A game, its simplest form in the full misère universe, and the steps between them.

    ``steps`` lists, followers first, the steps taken at the top of each follower once its
    options were simplest; every step's inequality has a certificate (:meth:`check`).
    """

    game: PartizanGame
    form: PartizanGame
    steps: tuple[SimplificationStep, ...] = field(default=())

    def __repr__(self) -> str:
        from cgtalg.misere.partizan_outcome import _show

        return f"MisereSimplification({_show(self.game, 70)} -> {_show(self.form, 70)}, {len(self.steps)} steps)"

    def _repr_html_(self) -> str:
        """Notebook view: the game, its simplest form, and the steps (folded)."""
        from cgtalg.core.display import card, details, esc
        from cgtalg.misere.partizan_outcome import _show

        items = "".join(f"<li>{esc(s.describe())}</li>" for s in self.steps[:200])
        more = f"<li>... {len(self.steps) - 200} more</li>" if len(self.steps) > 200 else ""
        parts = [details(f"{len(self.steps)} steps (dominated options removed, reversible ones bypassed)",
                         f"<ol>{items}{more}</ol>")] if self.steps else []
        return card("misère simplification (universe of all games)", [
            ("game", _show(self.game, 300)), ("simplest form", _show(self.form, 300))], parts, kind="simplification")

    def check(self, explain: bool = False) -> bool | tuple[bool, list[str]]:
        """Re-check every step's comparison certificate with the independent checker
        (:func:`cgtalg.misere.partizan_proof.check_misere_certificate`), and that no bypass
        went through an end.

        Raises
        ------
        CertificateError
            A step whose comparison fails or whose certificate does not check."""
        from cgtalg.errors import CertificateError
        from cgtalg.misere.partizan_proof import check_misere_certificate

        lines = []
        for i, s in enumerate(self.steps):
            if s.kind == "reversible" and not (s.witness.left if s.side == "left" else s.witness.right):
                raise CertificateError(f"step {i}: a bypass through an end ({s.describe()})")
            r = s.comparison()
            if not r.holds:
                raise CertificateError(f"step {i}: the inequality does not hold ({s.describe()})")
            check_misere_certificate(r)
            lines.append(f"step {i}: {s.describe()} (certificate checked)")
        return (True, lines) if explain else True


def _reduce_once(g: PartizanGame) -> tuple[PartizanGame, SimplificationStep] | None:
    """One step of (a) or (b) at the top of ``g`` (whose options are simplest), or None."""
    ge = _engine("all").ge
    left, right = g.left, g.right
    for a in left:
        for b in left:
            if b is not a and ge(b, a):
                h = make_form([o for o in left if o is not a], right)
                return h, SimplificationStep("dominated", "left", g, h, a, b)
    for a in right:
        for b in right:
            if b is not a and ge(a, b):
                h = make_form(left, [o for o in right if o is not a])
                return h, SimplificationStep("dominated", "right", g, h, a, b)
    for a in left:
        for x in a.right:
            if ge(g, x):
                if not x.left:  # impossible by the Proviso (module docstring)
                    raise AssertionError(f"reversible through a Left end in the full universe: {g}")
                h = make_form([o for o in left if o is not a] + list(x.left), right)
                return h, SimplificationStep("reversible", "left", g, h, a, x)
    for a in right:
        for x in a.left:
            if ge(x, g):
                if not x.right:  # pragma: no cover - impossible by the Proviso
                    raise AssertionError(f"reversible through a Right end in the full universe: {g}")
                h = make_form(left, [o for o in right if o is not a] + list(x.right))
                return h, SimplificationStep("reversible", "right", g, h, a, x)
    return None


def _simplest(g: PartizanGame) -> PartizanGame:
    hit = _SIMPLEST.get(g._id)
    if hit is not None:
        return hit
    for x in g.subpositions():  # children first
        if x._id in _SIMPLEST:
            continue
        y = make_form([_SIMPLEST[o._id] for o in x.left], [_SIMPLEST[o._id] for o in x.right])
        steps = []
        while True:
            r = _reduce_once(y)
            if r is None:
                break
            y, s = r
            steps.append(s)
        _SIMPLEST[x._id] = y
        _STEPS[x._id] = tuple(steps)
        if y._id not in _SIMPLEST:
            _SIMPLEST[y._id] = y
            _STEPS[y._id] = ()
    return _SIMPLEST[g._id]


def misere_simplest_form(g: Any) -> PartizanGame:
    """The simplest form of ``g`` among all partizan games in misère play.

    Parameters
    ----------
    g : PartizanGame, Game, int or str
        A short form (impartial forms are taken as the partizan forms they are).

    Returns
    -------
    PartizanGame
        Misère-equal to ``g`` in the full universe; two games are equal there iff their
        simplest forms are the same object (hash-consed forms).

    Raises
    ------
    TypeError
        For something that is not a form.

    Examples
    --------
    >>> from cgtalg.core.partizan import nimber, literal_text
    >>> literal_text(misere_simplest_form(nimber(1) + nimber(1)))   # * + * ≠ 0 among all games
    '{{0 | 0} | {0 | 0}}'

    References
    ----------
    Mesdal and Ottaway (2007); Siegel, "Misère canonical forms of partizan games" (2015); see
    the module docstring for the theorem.
    """
    return _simplest(_pg(g, "g"))


def misere_simplification(g: Any) -> MisereSimplification:
    """The simplest form of ``g`` (full universe) with every step taken, followers first.

    Returns
    -------
    MisereSimplification
        ``.form`` is :func:`misere_simplest_form` of ``g``; ``.steps`` the dominated options
        removed and the reversible ones bypassed; ``.check()`` re-checks each step's
        comparison certificate.

    Examples
    --------
    >>> from cgtalg.core.partizan import nimber, pgame
    >>> s = misere_simplification(pgame([nimber(1)], [pgame([nimber(1)], [])]))
    >>> [(t.kind, t.side) for t in s.steps], s.check()
    ([], True)
    """
    x = _pg(g, "g")
    form = _simplest(x)
    steps = tuple(s for y in x.subpositions() for s in _STEPS.get(y._id, ()))
    return MisereSimplification(x, form, steps)


def is_misere_simplest(g: Any) -> bool:
    """Whether ``g`` is its own simplest form in the full misère universe."""
    x = _pg(g, "g")
    return _simplest(x) is x


def partizan_misere_games_born_by(n: int) -> list[PartizanGame]:
    """The misère-distinct partizan games born by day ``n`` (full universe), as simplest forms.

    Day ``n + 1`` takes every pair of sets of the simplest forms born by day ``n`` as Left and
    Right options and simplifies; distinct results are distinct games (uniqueness theorem).

    Parameters
    ----------
    n : int
        0, 1 or 2 (:data:`MAX_ENUMERATED_DAY`).

    Returns
    -------
    list of PartizanGame
        Sorted by birthday, number of options and text: 1, 4 and 256 games for days 0, 1 and 2
        (Siegel 2015: 256 games born by day 2).

    Raises
    ------
    ComputationLimitError
        For ``n > 2`` (day 3 would take 2^256 × 2^256 forms).
    ArgumentTypeError
        For ``n`` not a non-negative int.

    Examples
    --------
    >>> from cgtalg.normal.notation import format_partizan
    >>> [format_partizan(g) for g in partizan_misere_games_born_by(1)]
    ['0', '1', '-1', '*']
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ArgumentTypeError(f"partizan_misere_games_born_by needs a day n ≥ 0 (an int), got {n!r}")
    if n > MAX_ENUMERATED_DAY:
        raise ComputationLimitError(
            f"the misère simplest forms born by day {n} are not enumerated: day {n} would take "
            f"every pair of subsets of the {len(partizan_misere_games_born_by(n - 1)) if n == 3 else 'many'} "
            f"games born by day {n - 1}; days 0 to {MAX_ENUMERATED_DAY} are")
    while len(_BORN) <= n:
        k = len(_BORN)
        if k == 0:
            _BORN.append([ZERO])
            continue
        prev = _BORN[k - 1]
        subsets = [s for r in range(len(prev) + 1) for s in combinations(prev, r)]
        found: dict[int, PartizanGame] = {}
        for a in subsets:
            for b in subsets:
                y = _simplest(make_form(a, b))
                found.setdefault(y._id, y)
        _BORN.append(sorted(found.values(), key=lambda y: (y.birthday, len(y.left) + len(y.right),
                                                           literal_text(y))))
    return list(_BORN[n])


def partizan_misere_count_born_by(n: int) -> int:
    """The number of misère-distinct partizan games born by day ``n`` (full universe): 1, 4,
    256 for ``n = 0, 1, 2`` (:func:`partizan_misere_games_born_by`)."""
    return len(partizan_misere_games_born_by(n))
