"""What the misère-quotient construction, the store and play share: a verified state of the
construction (:class:`QuotientState`), the quotients known in this process, the certified
period of Φ (Plambeck–Siegel's periodicity theorem), and what is read of a heap ruleset.

The ruleset is duck-typed: the construction needs ``ruleset.heap_options(n)`` (the options of
one heap, tuples of the heaps left), ``ruleset.name``, and, for the periodicity theorem of a
finite take-and-break code, ``ruleset.is_finite`` and ``ruleset.k`` (the most tokens a move
removes). A take-and-break code (a ruleset with ``code_text`` and ``digit``) is known in this
process by its code (``sequence_key``), any other ruleset per instance.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any, Sequence

from cgtalg.caches import register_cache
from cgtalg.errors import ComputationLimitError
from cgtalg.quotients.pretension import Pretension, _reduce
from cgtalg.quotients.result import MisereQuotient

__all__ = ["QuotientState", "known_state", "remember_state", "certified_misere_period",
           "is_take_and_break", "forget_known", "CHECKPOINT_SECONDS", "max_parts"]


def _heap_options(ruleset: Any, n: int) -> list[tuple[int, ...]]:
    return sorted({tuple(sorted(p for p in parts if p)) for parts in ruleset.heap_options(n)})


def _game_name(ruleset: Any) -> str:
    return str(getattr(ruleset, "name", None) or getattr(ruleset, "code", None) or type(ruleset).__name__)


def _max_take(ruleset: Any) -> int | None:
    k = getattr(ruleset, "k", None)
    if getattr(ruleset, "is_finite", False) and isinstance(k, int):
        return k
    return None


#: seconds between two checkpoints of a quotient computation written to the store
CHECKPOINT_SECONDS = 10.0


@dataclass
class QuotientState:
    """A verified state of the construction: the reduced quotient ``Q_top`` as a pretension
    (``top = len(pre.phi) − 1``), the certified period of Φ when the quotient is final, and
    the seconds spent on it (over resumed runs)."""

    pre: Pretension
    period: tuple[int, int] | None = None
    seconds: float = 0.0

    @property
    def top(self) -> int:
        return len(self.pre.phi) - 1

    @property
    def final(self) -> bool:
        return self.period is not None

    def rank(self) -> tuple[bool, int]:
        """Which of two states knows more: a final one, else the larger heap bound."""
        return (self.final, self.top)

    def quotient(self, name: str, max_heap: int | None = None, note: str | None = None) -> "MisereQuotient":
        """``Q_max_heap`` (``None``: the final quotient) from this state: the state itself, or
        the reduction of its restriction to heaps ``<= max_heap`` (a verified pretension for
        ``A_top`` is one for every ``A_m``, ``m <= top``, so its reduction is ``Q_m``)."""
        pre = self.pre
        if max_heap is None or (self.final and max_heap >= self.top):
            if max_heap is None and not self.final:
                raise ComputationLimitError(f"{name}: the quotient is known for heaps <= {self.top} "
                                            "only (not final); pass a max_heap")
            return MisereQuotient(name, self.top, pre.monoid.table, pre.P, list(pre.phi), self.final,
                                  self.period, self.top if self.final else None, self.seconds, note=note)
        if max_heap > self.top:
            raise ComputationLimitError(f"{name}: the quotient is known for heaps <= {self.top} only")
        if max_heap < self.top:
            pre = _reduce(Pretension(pre.monoid, pre.P, list(pre.phi[: max_heap + 1])), None)
        return MisereQuotient(name, max_heap, pre.monoid.table, pre.P, list(pre.phi), False, None, None,
                              self.seconds, note=note)


def known_state(ruleset: Any) -> "QuotientState | None":
    """The best verified quotient state of ``ruleset`` found in this process (for a
    take-and-break code: by any instance with the same code)."""
    key = _process_key(ruleset)
    if key is not None:
        return _KNOWN.get(key)
    try:
        return _KNOWN_INSTANCES.get(ruleset)
    except TypeError:  # pragma: no cover - not weakly referable
        return None


def remember_state(ruleset: Any, state: QuotientState) -> None:
    """Keep ``state`` as the ruleset's known quotient when it knows more than the one kept."""
    old = known_state(ruleset)
    if old is not None and old.rank() >= state.rank():
        return
    key = _process_key(ruleset)
    if key is not None:
        _KNOWN[key] = state
        return
    try:
        _KNOWN_INSTANCES[ruleset] = state
    except TypeError:  # pragma: no cover - not weakly referable
        pass


#: (store key, store location, code or ruleset id) of the stored quotients already read in this
#: process (:mod:`cgtalg.quotients.play`)
LOADED: set = set()

_KNOWN: dict[str, QuotientState] = {}
_KNOWN_INSTANCES: "weakref.WeakKeyDictionary[Any, QuotientState]" = weakref.WeakKeyDictionary()


def forget_known() -> None:
    """Forget every quotient known in this process (the next queries read the store again).
    ``cgtalg.clear_caches()`` does this too."""
    _KNOWN.clear()
    _KNOWN_INSTANCES.clear()
    LOADED.clear()


register_cache("misere.known quotients", forget_known)


def is_take_and_break(ruleset: Any) -> bool:
    """Whether ``ruleset`` is a take-and-break code (duck-typed: it has ``code_text`` and
    ``digit``), whose code determines the game."""
    return hasattr(ruleset, "code_text") and callable(getattr(ruleset, "digit", None))


def _process_key(ruleset: Any) -> str | None:
    # a take-and-break code determines the game; other rulesets are known per instance
    return ruleset.sequence_key if is_take_and_break(ruleset) else None


def max_parts(ruleset: Any) -> int:
    """The most heaps one move of ``ruleset`` leaves in place of one (``max_heaps`` of a
    take-and-break code: 1, 2 or 3; 2 when the ruleset does not say)."""
    h = getattr(ruleset, "max_heaps", None)
    return h if isinstance(h, int) and h >= 1 else 2


def certified_misere_period(phi: Sequence[int], k: int, parts: int = 2,
                            legacy: bool = False) -> tuple[int, int] | None:
    """The period of the pretending function certified by Plambeck–Siegel's periodicity theorem.

    Parameters
    ----------
    phi : sequence of int
        Φ for heaps ``0..N`` (the elements of the quotient the heaps map to).
    k : int
        The most tokens a move removes (a finite take-and-break code).
    parts : int
        The most heaps a move leaves in place of one (2 for octal codes, 3 for hexadecimal
        codes with a digit ``>= 8``).
    legacy : bool
        Use the bound of cgtalg before issue 20 (``n0`` in place of ``max(n0, 1)``, two parts);
        only to recognise stored records written under it.

    Returns
    -------
    (n0, p) or None
        ``(n0, p)`` when ``Φ(n+p) = Φ(n)`` for ``n0 ≤ n`` up to the last heap ``N`` and
        ``N ≥ h·max(n0, 1) + h·p + k + 1`` (``h = parts``; Plambeck & Siegel, JCTA 2008, §8,
        for ``h = 2``; notes/misere.md): then ``Q_N`` is the quotient of the whole game and
        ``Φ(n + p) = Φ(n)`` for every ``n ≥ n0``. None when no period is certified yet.

    Why the bound holds, and why ``max(n0, 1)``
    -------------------------------------------
    Write ``n1 = max(n0, 1)`` and let ``n > N`` be the least heap for which the claim is not
    yet known; by induction ``Φ(m + p) = Φ(m)`` for ``n0 ≤ m`` and ``m + p < n``, and ``Q_N``
    (with Φ extended so far) is a verified pretension. A move from heap ``n`` takes ``t ≤ k``
    tokens and leaves at most ``h`` nonempty heaps summing to ``n − t``; the largest, ``a``,
    is at least ``(n − k)/h ≥ n1 + p`` because ``n ≥ N + 1 ≥ h·n1 + h·p + k``. Replacing
    ``a`` by ``a − p`` (``≥ n1 ≥ 1``: still a nonempty heap, so the move keeps its number of
    heaps and is a legal move from heap ``n − p``, same ``t``, same digit) keeps the image,
    as ``Φ(a) = Φ(a − p)``. Conversely a move from heap ``n − p`` leaves a largest heap
    ``b ≥ (n − p − k)/h ≥ n1`` and adding ``p`` to it gives a move from heap ``n`` with the
    same image. So heap ``n`` and heap ``n − p`` have the same set of option images ``S``,
    and setting ``Φ(n) = Φ(n − p)`` adds no new pair ``(Φ(h), S_h)``: the P- and N-conditions
    of :mod:`cgtalg.quotients.construct` still hold with the same monoid and ``P``, and the
    heaps' images generate the same submonoid, so the quotient stays ``Q_N``.

    With ``n0 = 0`` the shifted heap ``a − p`` may be ``0``: the split ``(p, b)`` of heap
    ``n`` then corresponds to the one-heap move ``(b)`` of heap ``n − p``, which digit ``4``
    (split, never leave one heap) does not allow: the image ``Φ(b)`` may be missing from
    ``S_{n−p}``. Hence ``max(n0, 1)``, as in the normal-play certificate
    (:mod:`cgtalg.rulesets.heaps.octal_periodicity`); tests/test_misere_periodicity_n0.py checks
    the codes where it matters against brute-force play.

    Examples
    --------
    >>> certified_misere_period([0, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2], 1)
    (1, 2)
    """
    N = len(phi) - 1
    h = 2 if legacy else max(int(parts), 2)
    for p in range(1, N + 1):
        # least n0 with phi[n] == phi[n+p] for all n0 <= n <= N - p
        n0 = N - p + 1
        while n0 > 0 and phi[n0 - 1] == phi[n0 - 1 + p]:
            n0 -= 1
        n1 = n0 if legacy else max(n0, 1)
        if N >= h * n1 + h * p + k + 1:
            return n0, p
    return None
