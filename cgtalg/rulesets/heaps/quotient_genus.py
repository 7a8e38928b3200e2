"""Genus superscripts of heap positions read off a final misère quotient, with no canonical form.

The genus of a position ``X`` is ``g^{γ0γ1…}`` with ``γk = G⁻(X + k·*2)`` (Winning Ways ch. 13;
:mod:`cgtalg.misere.genus`). Canonical forms of heaps grow without bound in a wild game (Kayles'
heap 46 needs a sum past :data:`cgtalg.core.game.WALK_LIMIT`), while the game's misère quotient
``(Q, P, Φ)`` (Plambeck–Siegel; :func:`cgtalg.quotients.construct.misere_quotient`) may be small and
final. This module reads from the quotient every superscript it *can* decide, and says which it
cannot.

Why it is right
---------------
1. ``G⁻(Y) = m`` iff ``Y + *m`` is a misère P-position, for every impartial ``Y`` and ``m ≥ 0``
   (the notes' definition; proof: if ``G⁻(Y) = m`` no option ``Y' + *m`` is P (no option has
   value ``m``) and no option ``Y + *j``, ``j < m``, is P (``G⁻(Y) ≠ j``); if ``G⁻(Y) = v < m``
   the option ``Y + *v`` is P; if ``v > m`` some option ``Y'`` has value ``m`` and ``Y' + *m``
   is P; ``0 + *0`` has no move and is N, as ``G⁻(0) = 1 ≠ 0``; induction on ``Y``).
2. Misère equality is a congruence for ``+`` (ONAG ch. 12), so if a position ``W_m`` of the
   ruleset has the misère canonical form ``*m`` (found by :func:`nim_representatives` among
   small heaps and pairs of heaps), ``o⁻(X + k·*2 + *m) = o⁻(X + k·W_2 + W_m)``, the outcome of
   a position of the ruleset, which the quotient gives: P iff ``Φ(X)·Φ(W_2)^k·Φ(W_m) ∈ P``.
   So ``γk`` is decided whenever it is one of the ``m`` with a representative (Kayles: heaps
   ``0, 1, 2, 3`` are ``0, *1, *2, *3``, so ``γk ≤ 3`` is decided and otherwise ``γk ≥ 4``).
3. The images ``x_k = Φ(X)·e^k`` (``e = Φ(W_2)``) of a finite monoid repeat: ``x_i = x_j`` for
   some ``i < j``, so ``γ`` is periodic with period ``j − i`` from ``i``; it is also eventually
   periodic with period 2 (:mod:`cgtalg.misere.genus`), and a sequence with both properties has
   period 2 from ``i`` (for ``n ≥ i`` pick ``L`` with ``n + L(j−i)`` past the period-2 start:
   ``γ(n+2) = γ(n+2+L(j−i)) = γ(n+L(j−i)) = γn``). The superscripts ``γ0 … γ(i+1)`` are
   therefore the whole genus, cut to the shortest prefix as :class:`~cgtalg.misere.genus.Genus`
   stores it.

A misère quotient does *not* determine the misère Grundy value of a position in general (Kayles:
positions of one class of its order-40 quotient have values 6 and 7), so the values that have no
representative stay undecided (``None``) rather than being guessed; the classes of the games
(tame, wild, …) need their canonical forms and are not read from the quotient.

References
----------
Plambeck, "Taming the wild in impartial combinatorial games", Integers 5 (2005); Plambeck and
Siegel, "Misère quotients for impartial games", JCTA 115 (2008); Winning Ways ch. 13.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from cgtalg.errors import ComputationLimitError

__all__ = ["QuotientGenus", "nim_representatives", "quotient_genus", "quotient_genus_sequence",
           "final_quotient"]


@dataclass(frozen=True)
class QuotientGenus:
    """The genus of a position as far as a final misère quotient decides it.

    ``gammas`` holds ``γ0 … γ(t+1)`` (the shortest prefix after which the superscripts repeat
    with period 2), each an int or ``None`` when the value has no nim representative in the
    ruleset (then it is none of ``tested``); with no representative of ``*2`` only ``γ0`` is
    given. ``misere_outcome`` is always decided (``'P'`` iff the image lies in ``P``).
    """

    g: int
    gammas: tuple[int | None, ...]
    tested: tuple[int, ...]
    misere_outcome: str

    @property
    def complete(self) -> bool:
        """Every superscript decided (then :meth:`genus` is the exact genus)."""
        return len(self.gammas) >= 2 and all(x is not None for x in self.gammas)

    @property
    def misere_grundy(self) -> int | None:
        """``γ0``, or None when undecided."""
        return self.gammas[0]

    def genus(self) -> Any:
        """The :class:`~cgtalg.misere.genus.Genus` when :attr:`complete`, else None."""
        from cgtalg.misere.genus import Genus

        return Genus(self.g, self.gammas) if self.complete else None  # type: ignore[arg-type]

    def to_str(self) -> str:
        """The classical symbol, an undecided superscript printed ``?`` (``6^4?``); a complete
        genus prints exactly as :class:`~cgtalg.misere.genus.Genus` does."""
        if self.complete:
            return self.genus().to_str("classical")
        sup = ["?" if x is None else str(x) for x in self.gammas]
        if any(len(s) > 1 for s in sup):
            return f"{self.g}^({','.join(sup)})"
        return f"{self.g}^{''.join(sup)}"

    def __str__(self) -> str:
        return self.to_str()


def nim_representatives(ruleset: Any, max_heap: int = 16, pair_heap: int = 10) -> dict[int, tuple[int, ...]]:
    """Positions of ``ruleset`` whose misère canonical form is a nim-heap: ``{m: heaps}``.

    The empty position is ``*0``; then single heaps ``<= max_heap`` and pairs of heaps
    ``<= pair_heap`` are tried (their canonical forms are small), the fewest tokens first.

    Examples
    --------
    >>> from cgtalg.rulesets.heaps.octal import TakeAndBreak
    >>> sorted(nim_representatives(TakeAndBreak("0.77")).items())[:4]
    [(0, ()), (1, (1,)), (2, (2,)), (3, (3,))]
    """
    from cgtalg.misere.canonical import misere_canonical_sum_game

    reps: dict[int, tuple[int, ...]] = {0: ()}
    forms = []
    for h in range(max_heap + 1):
        try:
            f = ruleset.misere_canonical_heap(h)
        except ComputationLimitError:
            break
        forms.append(f)
        m = f.nim_heap_size()
        if m is not None and m not in reps:
            reps[m] = (h,)
    for a in range(1, min(pair_heap, len(forms) - 1) + 1):
        for b in range(a, min(pair_heap, len(forms) - 1) + 1):
            m = misere_canonical_sum_game(forms[a], forms[b]).nim_heap_size()
            if m is not None and m not in reps:
                reps[m] = (a, b)
    return reps


def final_quotient(ruleset: Any, store: Any = None, max_seconds: float | None = None,
                   verdict: dict | None = None) -> Any:
    """The final misère quotient of ``ruleset`` (known in this process, stored, or computed within
    ``max_seconds``); None when there is none within the budget (or no periodicity theorem). When
    the construction proves the quotient infinite, ``verdict`` (a dict, when given) gets
    ``infinite_from``: the heap ``v`` with ``Q_n`` infinite for every ``n >= v``."""
    from cgtalg.errors import InfiniteQuotientError
    from cgtalg.quotients.construct import misere_quotient

    opened = store if callable(getattr(store, "put_sequence_meta", None)) else None
    try:
        q = misere_quotient(ruleset, max_seconds=max_seconds, store=opened, progress=False)
    except InfiniteQuotientError as exc:
        if verdict is not None:
            verdict["infinite_from"] = int(exc.heap)  # type: ignore[attr-defined]
        return None
    except ComputationLimitError:
        return None
    return q if q.final else None


def _image(q: Any, heaps: Sequence[int]) -> int:
    return q.image(heaps)


def quotient_genus(q: Any, heaps: Sequence[int], g: int, reps: dict[int, tuple[int, ...]]) -> QuotientGenus:
    """The genus of the position ``heaps`` (normal value ``g``) as far as the final quotient ``q``
    decides it with the nim representatives ``reps`` (:func:`nim_representatives`).

    Raises
    ------
    ComputationLimitError
        When ``q`` is not final (it must cover every position met).
    """
    if not q.final:
        raise ComputationLimitError(f"{q.game}: the quotient is not final; the genus needs the final quotient")
    rep_img = {m: _image(q, w) for m, w in sorted(reps.items())}
    tested = tuple(sorted(rep_img))

    def value(x: int) -> int | None:
        found = [m for m, y in rep_img.items() if q.P[q.mul(x, y)]]
        if len(found) > 1:   # G⁻ is unique: a quotient that says otherwise is wrong
            raise AssertionError(f"{q.game}: the quotient gives two misère Grundy values {found}")
        return found[0] if found else None

    x = _image(q, heaps)
    outcome = "P" if q.P[x] else "N"
    if 2 not in rep_img:
        return QuotientGenus(int(g), (value(x),), tested, outcome)
    e = rep_img[2]
    xs, seen = [x], {x: 0}
    while True:
        nxt = q.mul(xs[-1], e)
        if nxt in seen:
            i = seen[nxt]
            break
        seen[nxt] = len(xs)
        xs.append(nxt)
    while len(xs) < i + 2:   # γ0 … γ(i+1): the last two lie in the period-2 tail
        xs.append(q.mul(xs[-1], e))
    seq = [value(y) for y in xs[: i + 2]]
    t = len(seq) - 2
    while t > 0 and seq[t - 1] == seq[t + 1]:
        t -= 1
    return QuotientGenus(int(g), tuple(seq[: t + 2]), tested, outcome)


def quotient_genus_sequence(ruleset: Any, n: int, quotient: Any = None, store: Any = None,
                            max_seconds: float | None = None,
                            reps: dict[int, tuple[int, ...]] | None = None) -> list[QuotientGenus]:
    """The genera of heaps ``0..n-1`` from the ruleset's final misère quotient (see the module
    docstring), ``n`` values as :func:`~cgtalg.rulesets.heaps.genus.genus_sequence` gives.

    Raises
    ------
    ComputationLimitError
        When no final quotient is found within ``max_seconds``.

    Examples
    --------
    >>> from cgtalg.rulesets.heaps.octal import TakeAndBreak
    >>> [str(x) for x in quotient_genus_sequence(TakeAndBreak("0.77"), 200)[195:]]
    ['8^??', '1^13', '4^??', '7^??', '2^20']
    """
    from cgtalg.rulesets.heaps.position import check_count

    n = check_count(n, "n")
    q = quotient if quotient is not None else final_quotient(ruleset, store, max_seconds)
    name = getattr(ruleset, "name", "heap game")
    if q is None:
        raise ComputationLimitError(
            f"{name}: no final misère quotient within the budget; the genera need canonical forms "
            f"(cgtalg quotient {name} --time ... looks for the quotient longer)")
    reps = nim_representatives(ruleset) if reps is None else reps
    gs = ruleset.grundy_sequence(n, store=store) if n else []
    return [quotient_genus(q, (h,) if h else (), int(gs[h]), reps) for h in range(n)]
