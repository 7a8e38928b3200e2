"""The heap-ruleset class: heap games as data plus moves.

A *heap game* (Winning Ways ch. 4; Siegel, *Combinatorial Game Theory* ch. IV.2) is played
on a multiset of heaps; a move replaces one heap by zero or more smaller heaps. By the
Sprague-Grundy theorem a position is worth the XOR of the Grundy values ``G(n)`` of its
heaps, so everything reduces to the sequence ``G(0), G(1), ...``.

:class:`HeapRuleset` holds what a heap game *is*: its moves (:meth:`~HeapRuleset.heap_options`,
and the removal counts the numba kernels read), its positions (sorted tuples of heap sizes)
and the ruleset protocol of :mod:`cgtalg.rulesets.protocol`. The algorithms are functions
that take the ruleset -- :mod:`cgtalg.rulesets.heaps.grundy_engine` (Grundy sequences),
:mod:`cgtalg.rulesets.heaps.play` (values, outcomes and winning moves of positions),
:mod:`cgtalg.rulesets.heaps.octal_periodicity` (certified periods),
:mod:`cgtalg.rulesets.heaps.genus` (misère canonical forms and genera),
:func:`cgtalg.quotients.construct.misere_quotient` -- and the methods of the same names are
one-line delegations to them.
"""

from __future__ import annotations

import functools
import re
from typing import Any, Callable, Iterator

from cgtalg.core.lazynp import np

from cgtalg.core.game import Game
from cgtalg.core.heap_facts import GUY_SMITH, UNDECLARED, HeapFacts, take_break_bound
from cgtalg.errors import ComputationLimitError, RulesetError, RulesetFactError
from cgtalg.rulesets.heaps import grundy_engine as _engine
from cgtalg.rulesets.heaps import genus as _genus
from cgtalg.rulesets.heaps import play as _play
from cgtalg.rulesets.heaps import octal_periodicity as _periodicity
from cgtalg.rulesets.heaps.grundy_engine import GrundyEngine, KernelRules
from cgtalg.rulesets.heaps.position import DIRECT_LIMIT, ENUMERATE_LIMIT, HeapMove, as_heaps, multisets_up_to
from cgtalg.rulesets.protocol import ImpartialRuleset, short_repr

__all__ = ["HeapRuleset", "HeapFacts", "periodicity_certificate", "fingerprinted_name", "FINGERPRINT_HEAPS",
           "FINGERPRINT_SEPARATOR"]

#: the fingerprint of a ruleset from a function covers the options of heaps 0..FINGERPRINT_HEAPS
FINGERPRINT_HEAPS = 64
#: between a ruleset's name and the fingerprint of its moves in its store name (``0.77#3f2a...``);
#: no built-in ruleset's name or code contains it
FINGERPRINT_SEPARATOR = "#"
#: hexadecimal digits of the fingerprint kept in the store name (64 bits of SHA-256)
_FINGERPRINT_DIGITS = 16


def fingerprinted_name(text: str) -> tuple[str, str] | None:
    """``(name, fingerprint)`` when ``text`` (a ruleset's part of a store key, such as the
    ``0.77#3f2a9c1b7d4e5f60`` of ``misere:0.77#3f2a9c1b7d4e5f60``) is the store name of a ruleset
    from a function, else None (a built-in's name or code).

    Examples
    --------
    >>> fingerprinted_name("0.77#3f2a9c1b7d4e5f60"), fingerprinted_name("0.77")
    (('0.77', '3f2a9c1b7d4e5f60'), None)
    """
    name, sep, fp = text.rpartition(FINGERPRINT_SEPARATOR)
    if sep and name and len(fp) == _FINGERPRINT_DIGITS and all(c in "0123456789abcdef" for c in fp):
        return name, fp
    return None


def periodicity_certificate(ruleset: Any) -> tuple[str, int, int, int] | None:
    """The normal-play periodicity theorem for ``ruleset``'s Grundy sequence, from the facts
    it declares (:class:`~cgtalg.core.heap_facts.HeapFacts`): ``(theorem, mode, h, k)``, or None
    when its facts put it outside (not a take-and-break code's moves, or no bound on the tokens
    taken). Moves that take at most ``k`` tokens and leave at most ``h`` heaps: Guy-Smith's
    theorem (Guy & Smith 1956; Winning Ways ch. 4), ``L >= h*max(n0,1) + h*p + k`` (mode 0);
    no move splits a heap (``h <= 1``, subtraction games): ``L >= max(n0,1) + p + k`` (mode 1).

    Raises
    ------
    RulesetFactError
        When the ruleset does not declare a fact the theorem needs.

    Examples
    --------
    >>> from cgtalg.rulesets.heaps.octal import TakeAndBreak
    >>> [periodicity_certificate(TakeAndBreak(c))[1:] for c in ("0.77", "0.3033", "0x0.B")]
    [(0, 2, 2), (1, 1, 4), (0, 3, 1)]
    """
    bound = take_break_bound(ruleset, GUY_SMITH)
    if bound is None:
        return None
    k, h = bound
    if h <= 1:
        return ("periodicity theorem for subtraction games (finite codes without splits; "
                "Winning Ways ch. 4)", 1, 1, k)
    if h == 2:
        return ("Guy-Smith periodicity theorem for octal games (Guy & Smith 1956; Winning Ways ch. 4)", 0, 2, k)
    return (f"Guy-Smith periodicity theorem extended to moves leaving up to {h} heaps "
            f"(Winning Ways ch. 4; the largest part is >= (N + p - k)/{h})", 0, h, k)


class HeapRuleset(ImpartialRuleset):
    """Base class of heap games (ruleset protocol, :mod:`cgtalg.rulesets.protocol`).

    Positions are sorted tuples of nonzero heap sizes (``parse_position("5 9")`` or
    ``as_heaps([9, 5, 0]) == (5, 9)``); an int means a single heap. The components of a
    position are its single heaps, so the generic solver adds their Grundy values.

    Subclasses define :meth:`heap_options` (and :meth:`kernel_rules` to use the numba
    kernels), set ``name``, and declare in ``facts`` (a
    :class:`~cgtalg.core.heap_facts.HeapFacts`) what the theorems need to know of the moves:
    whether they are a take-and-break code's, the most tokens a move removes, the most heaps
    it leaves. A fact not declared is unknown: a theorem that needs it refuses the ruleset
    (:class:`~cgtalg.errors.RulesetFactError`), never assumes a value.
    """

    name: str = "heap game"
    #: what the theorems read of the moves (:class:`~cgtalg.core.heap_facts.HeapFacts`); nothing
    #: is declared unless a subclass says so
    facts: HeapFacts = UNDECLARED

    def __init__(self) -> None:
        self._engines: dict[str, GrundyEngine] = {}
        self._heap_forms: list[Game] = []
        self._period = None  # cached certified PeriodicityResult
        self._period_searched = 0  # a search over this many values certified no period

    def position_count(self, position: Any, misere: bool = False) -> int:
        """An upper bound on the positions the generic solver holds for ``position`` (it
        refuses past its ``max_positions`` before walking). Normal play walks single heaps
        and their option tuples: about ``(H + 1)^2 / 2`` for a largest heap ``H`` (``H + 1``
        for games that never split a heap). Misère play walks sums of heaps: the product over
        the heaps of the multisets a heap of ``h`` can become (``h + 1`` without splits, else
        the partitions of every ``k <= h``). Capped at ``10**30``.
        """
        heaps = as_heaps(position, self.name)
        if not heaps:
            return 1
        splits = self.facts.max_heaps is None or self.facts.max_heaps > 1  # unknown: the larger bound
        cap = 10**30
        if not misere:
            h = max(heaps)
            return min(cap, (h + 1) * (h + 2) // 2 if splits else h + 1)
        total = 1
        for h in heaps:
            total *= multisets_up_to(h) if splits else h + 1
            if total > cap:
                return cap
        return total

    # -- to be defined by subclasses -----------------------------------------------------
    def heap_options(self, n: int) -> Iterator[tuple[int, ...]]:
        """The options of a single heap of size ``n``: tuples of the (nonzero) heaps left."""
        raise NotImplementedError

    def kernel_rules(self, n_max: int) -> KernelRules | None:
        """The rules as removal-count arrays valid for heaps below ``n_max`` (None: Python only)."""
        return None

    def certificate(self) -> tuple[str, int, int, int] | None:
        """How a period can be certified: ``(theorem, mode, h, k)`` from the declared
        :attr:`facts` (:func:`periodicity_certificate`), or None (detection only: the facts put
        the ruleset outside the theorem, or do not declare what it needs)."""
        try:
            return periodicity_certificate(self)
        except RulesetFactError:
            return None

    # -- what identifies the rules in the store -----------------------------------------
    @functools.cached_property
    def fingerprint(self) -> str:
        """SHA-256 (its first 16 hexadecimal digits) of the option lists of heaps
        ``0 .. FINGERPRINT_HEAPS``, as :meth:`heap_options` gives them (in its order); computed
        once per object. Rules that agree on those heaps count as the same rules. A heap
        whose options raise ends the list with the error's type (the error itself comes when
        that heap is played)."""
        import hashlib  # (loaded when a fingerprint is asked for)

        digest = hashlib.sha256(b"cgtalg heap-game options v1\n")
        for n in range(FINGERPRINT_HEAPS + 1):
            try:
                rows = [list(parts) for parts in self.heap_options(n)]
            except Exception as exc:  # noqa: BLE001 - the failure is part of what the rules do
                digest.update(f"{n}!{type(exc).__name__}\n".encode())
                break
            digest.update(f"{n}:{rows}\n".encode())
        return digest.hexdigest()[:_FINGERPRINT_DIGITS]

    @property
    def store_name(self) -> str:
        """The name the store keys this ruleset's answers by: a built-in's name or code (it
        names its rules), else ``name#fingerprint`` (:attr:`fingerprint`), so that a user's
        ruleset named like a built-in (``0.77``) never shares the built-in's answers."""
        if type(self).__module__.startswith("cgtalg."):
            return self.name
        return f"{self.name}{FINGERPRINT_SEPARATOR}{self.fingerprint}"

    @property
    def sequence_key(self) -> str:
        """The store key of the Grundy sequence (``"grundy:" + store_name``)."""
        return f"grundy:{self.store_name}"

    # -- ruleset protocol ------------------------------------------------------------------
    def moves(self, position: Any) -> Iterator[tuple[int, ...]]:
        """The positions reachable in one move (sorted tuples of heaps).

        Raises
        ------
        ComputationLimitError
            For a heap beyond :data:`~cgtalg.rulesets.heaps.position.ENUMERATE_LIMIT` (its
            moves are too many to list one by one; :meth:`outcome` and :meth:`winning_moves`
            answer such heaps from the period).
        """
        heaps = as_heaps(position, self.name)
        if heaps and heaps[-1] > ENUMERATE_LIMIT:
            raise ComputationLimitError(
                f"{self.name}: the moves of a heap of {heaps[-1]} tokens are not listed one by one (limit "
                f"{ENUMERATE_LIMIT}); use outcome() or winning_moves(), which answer heaps of any size "
                "from a certified period")
        seen = set()
        for i, h in enumerate(heaps):
            if i and heaps[i - 1] == h:
                continue
            rest = heaps[:i] + heaps[i + 1 :]
            for parts in self.heap_options(h):
                q = tuple(sorted(rest + tuple(parts)))
                if q not in seen:
                    seen.add(q)
                    yield q

    def components(self, position: Any) -> list[tuple[int, ...]]:
        """The single heaps of the position (the disjunctive sum it is)."""
        return [(h,) for h in as_heaps(position, self.name)]

    def format_position(self, position: Any) -> str:
        """``"5+9+12"`` (``"0"`` for the empty position)."""
        heaps = as_heaps(position, self.name)
        return "+".join(str(h) for h in heaps) if heaps else "0"

    def parse_position(self, text: str) -> tuple[int, ...]:
        """Read ``"5 9 12"``, ``"5,9,12"``, ``"5+9+12"`` or ``"(5, 9, 12)"``.

        Raises
        ------
        RulesetError
            If the text holds anything but non-negative integers.
        """
        if not isinstance(text, str):
            raise RulesetError(f"{self.name}: parse_position needs text, got {short_repr(text)}")
        body = text.strip().strip("()[]")
        items = [s for s in re.split(r"[\s,+]+", body) if s]
        heaps = []
        for s in items:
            if not s.isdigit():
                raise RulesetError(f"{self.name}: bad heap size {short_repr(s)} in position {short_repr(text)}: "
                                   "expected non-negative integers such as '5 9 12'")
            heaps.append(int(s))
        return as_heaps(heaps, self.name)

    # -- delegations to the algorithms (each documented at its function) -------------------
    def heap(self, n: int) -> Game:
        """The :class:`cgtalg.Game` form of a single heap: :func:`~cgtalg.rulesets.heaps.play.heap_form`.

        >>> import cgtalg as cg
        >>> from cgtalg.rulesets.heaps.octal import TakeAndBreak
        >>> cg.grundy(TakeAndBreak("0.77").heap(4))
        1
        """
        return _play.heap_form(self, n)

    def game_of(self, position: Any) -> Game:
        """The form of a position: :func:`~cgtalg.rulesets.heaps.play.position_form`."""
        return _play.position_form(self, position)

    def misere_canonical_heap(self, n: int) -> Game:
        """:func:`cgtalg.rulesets.heaps.genus.misere_canonical_heap`."""
        return _genus.misere_canonical_heap(self, n)

    def genus(self, heaps: Any, convention: str = "classical", store: Any = None) -> Any:
        """:func:`cgtalg.rulesets.heaps.genus.heap_genus`.

        >>> from cgtalg.rulesets.heaps.octal import TakeAndBreak
        >>> str(TakeAndBreak("0.123").genus(8))
        '2^1420'
        """
        return _genus.heap_genus(self, heaps, convention, store=store)

    def genus_sequence(self, n: int, convention: str = "classical", store: Any = None,
                       progress: bool | None = None, *, max_seconds: float | None = None,
                       partial: bool = False) -> list:
        """:func:`cgtalg.rulesets.heaps.genus.genus_sequence`."""
        return _genus.genus_sequence(self, n, convention, store=store, progress=progress, max_seconds=max_seconds,
                                     partial=partial)

    def engine(self, method: str = "auto") -> GrundyEngine:
        """:func:`cgtalg.rulesets.heaps.grundy_engine.grundy_engine`."""
        return _engine.grundy_engine(self, method)

    def grundy_sequence(self, n: int, method: str = "auto", store: Any = None,
                        progress: bool | None | Callable[[int, int], Any] = None,
                        max_bytes: int | None = None, *, max_seconds: float | None = None) -> np.ndarray:
        """:func:`cgtalg.rulesets.heaps.grundy_engine.grundy_sequence`.

        >>> from cgtalg.rulesets.heaps.octal import TakeAndBreak
        >>> TakeAndBreak("0.77").grundy_sequence(13).tolist()
        [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4]
        """
        return _engine.grundy_sequence(self, n, method, store, progress, max_bytes, max_seconds=max_seconds)

    def grundy_memory_estimate(self, n: int, method: str = "auto") -> int:
        """:func:`cgtalg.rulesets.heaps.grundy_engine.grundy_memory_estimate`."""
        return _engine.grundy_memory_estimate(self, n, method)

    def grundy_value(self, n: int, limit: int = DIRECT_LIMIT) -> int:
        """``G(n)`` of a single heap: :func:`cgtalg.rulesets.heaps.play.heap_grundy_value`.

        >>> from cgtalg.rulesets.heaps.octal import TakeAndBreak
        >>> TakeAndBreak("0.77").grundy_value(10**100)  # (10**100 - 71) % 12 = 5: G(76)
        1
        """
        return _play.heap_grundy_value(self, n, limit)

    def periodicity(self, max_values: int | None = None, store: Any = None,
                    progress: bool | None = None, start: int = 1024, max_bytes: int | None = None, *,
                    max_seconds: float | None = None):
        """:func:`cgtalg.rulesets.heaps.octal_periodicity.periodicity` (a certified result is kept)."""
        return _periodicity.periodicity(self, max_values, store, progress, start, max_bytes,
                                        max_seconds=max_seconds)

    def nim_value(self, heaps: Any) -> int:
        """:func:`cgtalg.rulesets.heaps.play.heap_grundy`."""
        return _play.heap_grundy(self, heaps)

    def outcome(self, heaps: Any, misere: bool = False, store: Any = None,
                max_states: int | None = None, max_seconds: float | None = None,
                progress: bool | None = None) -> str:
        """:func:`cgtalg.rulesets.heaps.play.heap_outcome`.

        >>> from cgtalg.rulesets.heaps.octal import TakeAndBreak
        >>> TakeAndBreak("0.77").outcome([5, 9, 10**12])
        'N'
        """
        return _play.heap_outcome(self, heaps, misere=misere, store=store, max_states=max_states,
                                  max_seconds=max_seconds, progress=progress)

    def misere_quotient(self, max_heap: int | None = None, **kwargs: Any) -> Any:
        """:func:`cgtalg.quotients.construct.misere_quotient` of this game.

        >>> from cgtalg.rulesets.heaps.octal import TakeAndBreak
        >>> q = TakeAndBreak("0.123").misere_quotient()
        >>> q.order, q.period, q.presentation().words[q.phi_of(10**9)]
        (20, (5, 5), 'a')
        """
        from cgtalg.quotients.construct import misere_quotient

        return misere_quotient(self, max_heap, **kwargs)

    def misere_grundy_value(self, heaps: Any, store: Any = None, max_states: int | None = None,
                            max_seconds: float | None = None, progress: bool | None = None) -> int:
        """:func:`cgtalg.rulesets.heaps.play.heap_misere_grundy`."""
        return _play.heap_misere_grundy(self, heaps, store=store, max_states=max_states,
                                        max_seconds=max_seconds, progress=progress)

    def winning_moves(self, heaps: Any, misere: bool = False, store: Any = None,
                      max_states: int | None = None, max_seconds: float | None = None,
                      progress: bool | None = None) -> list[HeapMove]:
        """:func:`cgtalg.rulesets.heaps.play.heap_winning_moves`."""
        return _play.heap_winning_moves(self, heaps, misere=misere, store=store, max_states=max_states,
                                        max_seconds=max_seconds, progress=progress)
