"""What the misère-quotient construction, the store and play share: a verified state of the
construction (:class:`QuotientState`), the quotients known in this process, the certified
period of Φ (Plambeck–Siegel's periodicity theorem), and what is read of a heap ruleset.

The construction needs ``ruleset.heap_options(n)`` (the options of one heap, tuples of the heaps
left) and ``ruleset.name``; the periodicity theorem reads the facts the ruleset declares
(``ruleset.facts``, a :class:`~cgtalg.core.heap_facts.HeapFacts`: its moves are a take-and-break
code's, the most tokens ``k`` a move removes, the most heaps ``h`` it leaves), and refuses a
ruleset that does not declare one (:func:`misere_period_bound`,
:class:`~cgtalg.errors.RulesetFactError`): no value is assumed. A take-and-break code (a ruleset
with ``code_text`` and ``digit``) is known in this process by its code (``sequence_key``), any
other ruleset per instance.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

from cgtalg.caches import register_cache
from cgtalg.core.heap_facts import PLAMBECK_SIEGEL, facts_of, outside_reason, take_break_bound
from cgtalg.errors import ComputationLimitError, RulesetFactError
from cgtalg.quotients.result import MisereQuotient

if TYPE_CHECKING:  # the pretension machinery is loaded when a state is made into a quotient
    from cgtalg.quotients.pretension import Pretension

__all__ = ["QuotientState", "known_state", "remember_state", "certified_misere_period",
           "is_take_and_break", "forget_known", "CHECKPOINT_SECONDS", "misere_period_bound",
           "certify_misere_period", "misere_theorem_note", "active_heaps"]


def _heap_options(ruleset: Any, n: int) -> list[tuple[int, ...]]:
    return sorted({tuple(sorted(p for p in parts if p)) for parts in ruleset.heap_options(n)})


def active_heaps(phi: Sequence[int]) -> list[int]:
    """The least heap of each non-identity image of Φ, in heap order (the heaps a word of
    least order may use)."""
    seen: set[int] = set()
    out = []
    for h, x in enumerate(phi):
        if x != 0 and x not in seen:
            seen.add(x)
            out.append(h)
    return out


def _game_name(ruleset: Any) -> str:
    return str(getattr(ruleset, "name", None) or getattr(ruleset, "code", None) or type(ruleset).__name__)




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
    #: when final by the normal tail (:mod:`cgtalg.quotients.tail`): its statement
    #: (``NormalTail.to_dict()``); Φ is then held up to one period past the Grundy preperiod and
    #: verified directly up to ``tail["verified_to"]``
    tail: dict | None = None

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
            checked = (self.tail["verified_to"] if self.tail else self.top) if self.final else None
            return MisereQuotient(name, self.top, pre.monoid.table, pre.P, list(pre.phi), self.final,
                                  self.period, checked, self.seconds, note=note, tail=self.tail)
        if max_heap > self.top:
            raise ComputationLimitError(f"{name}: the quotient is known for heaps <= {self.top} only")
        if max_heap < self.top:
            from cgtalg.quotients.pretension import Pretension, _reduce

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


def misere_period_bound(ruleset: Any) -> tuple[int, int] | None:
    """``(k, h)`` of Plambeck–Siegel's misère periodicity theorem for ``ruleset``, from the
    facts it declares: the most tokens a move removes and the most heaps a move leaves. None
    when its facts put it outside the theorem (its moves are not a take-and-break code's, or
    take unboundedly many tokens).

    Raises
    ------
    RulesetFactError
        When the ruleset does not declare a fact the theorem needs (``octal_like``, ``finite``,
        ``k``, ``max_heaps``): none is assumed (a three-heap move bounded as a two-heap one
        would certify a wrong period).
    """
    return take_break_bound(ruleset, PLAMBECK_SIEGEL)


def certify_misere_period(ruleset: Any, phi: Sequence[int]) -> tuple[int, int] | None:
    """Plambeck–Siegel's theorem applied to ``ruleset``: the period ``(n0, p)`` of Φ (heaps
    ``0..len(phi)-1``) that :func:`certified_misere_period` certifies with the ruleset's declared
    ``k`` and ``max_heaps``; None when none is certified yet, or the theorem does not apply.

    Raises
    ------
    RulesetFactError
        When the ruleset does not declare a fact the theorem needs (:func:`misere_period_bound`).

    Examples
    --------
    >>> from cgtalg.rulesets.heaps.octal import TakeAndBreak
    >>> phi = [0, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2]     # heaps 0..10
    >>> certify_misere_period(TakeAndBreak("0.3"), phi), certify_misere_period(TakeAndBreak("0x0.B"), phi)
    ((1, 2), None)
    """
    bound = misere_period_bound(ruleset)
    return None if bound is None else certified_misere_period(phi, bound[0], bound[1])


def misere_theorem_note(ruleset: Any) -> str | None:
    """Why Plambeck–Siegel's theorem cannot certify a quotient of ``ruleset`` final (a fact
    it needs is not declared, or the facts put the ruleset outside it); None when it can."""
    try:
        if misere_period_bound(ruleset) is not None:
            return None
    except RulesetFactError as exc:
        return str(exc)
    return outside_reason(facts_of(ruleset))


def certified_misere_period(phi: Sequence[int], k: int, parts: int,
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
        codes with a digit ``>= 8``; no default: :func:`certify_misere_period` reads it from the
        ruleset's declared facts).
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
    >>> certified_misere_period([0, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2], 1, 2)
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
