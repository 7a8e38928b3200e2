"""Certified periodicity of Grundy sequences of heap games.

The periodicity theorem (Guy & Smith 1956; Winning Ways ch. 4; Siegel, *Combinatorial Game
Theory* IV.2): for a finite octal code with last nonzero digit ``k``, if
``G(n+p) = G(n)`` for ``n0 <= n < 2*n0 + p + k`` then it holds for every ``n >= n0``. The
proof: a move from a heap of ``n+p`` leaves heaps ``a + b >= n + p - k``, so the larger part
is at least ``n0 + p`` once ``n >= 2*n0 + p + k``, and shifting it by ``p`` keeps its value.
As a check on a computed prefix of ``L`` values this needs

- octal codes (moves leave at most 2 heaps): ``L >= 2*max(n0,1) + 2p + k`` with
  ``G[n] = G[n+p]`` for ``n0 <= n < L - p`` (``max(n0,1)``: with ``n0 = 0`` a split whose
  shifted part becomes empty would turn into a one-heap move);
- moves leaving up to ``h`` heaps (hexadecimal codes): the largest part is at least
  ``(N + p - k)/h``, so ``L >= h*max(n0,1) + h*p + k``;
- codes without splits (subtraction games): ``L >= max(n0,1) + p + k``.

The theorem comes from the ruleset's declared facts (:func:`~cgtalg.rulesets.heaps.base.periodicity_certificate`):
without one :func:`check_period_claim` raises :class:`~cgtalg.errors.RulesetFactError` naming it,
and :func:`periodicity` only detects periods (its note names the missing fact). Grundy's game (unequal splits) and infinite codes are never certified: their periods, and
the arithmetic periods (``G(n+p) = G(n) + s``, the *saltus* ``s``) of infinite codes such as
Nim ``0.[3]`` and the all-but subtraction games, are reported as DETECTED on a finite prefix.
Finite octal codes are never arithmetic-periodic (Horrocks & Nowakowski 2003).

Reuse is re-checked: a certified result read back from a store, and any certificate found on
values read from a store, stands only once the ``required_length`` values its certificate needs
are computed again by the kernels (:func:`cgtalg.rulesets.heaps.grundy_engine.trusted_values`) and
checked (the period holds from exactly ``n0``, and ``p/q`` fails for every prime ``q | p``). A
stored chunk or metadata that this contradicts is reported with a ``RuntimeWarning`` naming the
sequence, and the period is searched again on computed values (the choice made over refusing:
the answer is still exact, and the store's metadata is corrected).

The search: for each candidate ``p`` (ascending), walk down from the end of the prefix while
``G[n] == G[n+p]``; the walk only has to reach the limit the certificate allows, so wrong
periods are rejected after a few comparisons (numba kernel
:func:`cgtalg.rulesets.heaps.grundy_kernels.last_match_scan`). The first ``p`` that passes is the
smallest period: the preperiod is the same for every period of an eventually periodic
sequence, so the least period ``p*`` (which divides ``p``) passes a weaker bound. The prefix
grows geometrically, or straight to the length a detected candidate needs.
"""

from __future__ import annotations

import numbers
import warnings
from dataclasses import asdict, dataclass
from typing import Any

from cgtalg.core.lazynp import int_types, np
from cgtalg.budget import BUDGET_HINT, Deadline, default_max_memory, open_deadline_expired
from cgtalg.core.heap_facts import GUY_SMITH, facts_of, outside_reason, take_break_bound
from cgtalg.errors import ComputationLimitError, RulesetError, RulesetFactError
from cgtalg.rulesets.heaps import grundy_kernels as K
from cgtalg.rulesets.heaps.grundy_engine import (DEFAULT_MAX_BYTES, format_bytes, grundy_engine,
                                                 grundy_memory_estimate, grundy_sequence, trusted_values)
from cgtalg.rulesets.heaps.position import check_count
from cgtalg.rulesets.heaps.lazy_jit import python_kernels
from cgtalg.rulesets.protocol import check_memory, check_store, short_count, short_repr
from cgtalg.rulesets.heaps.small_grundy import small_ok

__all__ = ["PeriodicityResult", "periodicity", "check_certificate", "required_length",
           "periodicity_memory_estimate", "default_max_values"]


def _uncertified_why(ruleset: Any) -> str:
    """Why no period of ``ruleset`` is certified: its facts put it outside, or one is missing."""
    try:
        take_break_bound(ruleset, GUY_SMITH)   # None when outside the theorem
    except RulesetFactError as exc:
        return f"periods are only detected: {exc}"
    return outside_reason(facts_of(ruleset)) or "no periodicity theorem is known for this ruleset"


def required_length(mode: int, h: int, k: int, preperiod: int, period: int) -> int:
    """Values needed to certify ``(preperiod, period)``: ``h*max(n0,1) + h*p + k`` (mode 0)
    or ``max(n0,1) + p + k`` (mode 1, no splits)."""
    n0 = max(preperiod, 1)
    if mode == 1:
        return n0 + period + k
    return h * n0 + h * period + k


@dataclass(frozen=True)
class PeriodicityResult:
    """What is known about the periodicity of a heap game's Grundy sequence.

    A certified result is a theorem about every heap; anything else is only what was seen
    on a finite prefix, and is worded so (``str()``, :meth:`summary`, :meth:`to_json`): a
    sequence can look periodic for millions of values and still change (0.376 looks like
    period 4 from G(2095356) on its first 2**21 values; its preperiod is 2,268,248,
    Gangolli & Plambeck 1989).

    Attributes
    ----------
    ruleset : str
        The game (code text or name).
    status : str
        ``"certified"`` (proved by ``theorem``), ``"detected"`` (a repetition seen on the
        prefix only, never a claim about the sequence) or ``"none"`` (no repetition seen).
    period, preperiod : int or None
        Certified: the smallest period ``p`` and the preperiod ``n0`` (``G(n+p) = G(n)`` for
        all ``n >= n0``; the last exceptional value is ``G(n0 - 1)``). Detected: the period
        seen and where the repeating tail of the prefix starts (also :attr:`seen_period`,
        :attr:`seen_preperiod`; the JSON form gives them only under the ``seen_`` keys).
    saltus : int
        0 for ordinary periodicity; the constant step ``s`` of arithmetic periodicity
        ``G(n+p) = G(n) + s`` (seen only: finite codes are never arithmetic-periodic,
        Horrocks & Nowakowski 2003).
    certified : bool
        True when the theorem's bound was met.
    theorem, bound : str or None
        The theorem used and the bound with its numbers (certified results).
    required_values : int or None
        Values the certificate needs (``L``): met for a certified result; for a repetition
        seen in a finite code, what certifying it would need at least (if the tail seen is
        where the periodic part really starts).
    values_checked : int
        Length of the prefix examined.
    k : int or None
        Last nonzero digit index of the code (None for infinite codes and other games).
    note : str
        Why a result is not certified, or where it came from.
    """

    ruleset: str
    status: str
    period: int | None = None
    preperiod: int | None = None
    saltus: int = 0
    certified: bool = False
    theorem: str | None = None
    bound: str | None = None
    required_values: int | None = None
    values_checked: int = 0
    k: int | None = None
    note: str = ""

    @property
    def last_exceptional(self) -> int | None:
        """The index of the last value outside the periodic pattern (``n0 - 1``) of a
        certified result; None when purely periodic or not certified (on a prefix it is not
        known: see :attr:`seen_preperiod`)."""
        if not self.certified or self.preperiod is None or self.preperiod == 0:
            return None
        return self.preperiod - 1

    @property
    def seen_period(self) -> int | None:
        """The period seen on the prefix (also for certified results), or None."""
        return self.period

    @property
    def seen_preperiod(self) -> int | None:
        """Where the repeating tail of the prefix starts, or None."""
        return self.preperiod

    def value_at(self, n: int, prefix: np.ndarray) -> int:
        """``G(n)`` for a heap of any size ``n`` (a Python int) from a certified period;
        ``prefix`` holds at least ``n0 + p`` values. Exact: ``n`` is reduced into the period
        with Python integers before any array is indexed.

        Raises
        ------
        RulesetError
            For a result that is not certified (a period seen on a prefix answers nothing).
        """
        self._require_certified()
        n = int(n)
        n0, p, s = self.preperiod, self.period, self.saltus
        if n < min(len(prefix), n0 + p):
            return int(prefix[n])
        q, r = divmod(n - n0, p)
        return int(prefix[n0 + r]) + s * q

    def values_at(self, idx: np.ndarray, prefix: np.ndarray) -> np.ndarray:
        """Vectorised :meth:`value_at` for heap sizes that fit ``int64`` (use :meth:`value_at`
        for larger ones)."""
        self._require_certified()
        idx = np.asarray(idx, dtype=np.int64)
        n0, p, s = self.preperiod, self.period, self.saltus
        L = min(len(prefix), n0 + p)
        small = idx < L
        out = np.empty(idx.shape, dtype=np.int64)
        if small.any():
            out[small] = np.asarray(prefix)[idx[small]]
        big = ~small
        if big.any():
            q, r = np.divmod(idx[big] - n0, p)
            out[big] = np.asarray(prefix)[n0 + r].astype(np.int64) + s * q
        return out

    def _require_certified(self) -> None:
        if self.period is None or self.preperiod is None:
            raise RulesetError(f"{self.ruleset}: no period known")
        if not self.certified:
            raise RulesetError(
                f"{self.ruleset}: the period {self.period} was only seen on {self.values_checked} values, "
                "not certified, so it answers no heap beyond them")

    def _kind(self) -> str:
        if self.saltus == 0:
            return f"period {self.period}"
        return f"arithmetic period {self.period} with saltus {self.saltus}"

    def summary(self) -> str:
        """One line: the certified fact, or what was seen on how many values."""
        if self.certified:
            last = self.last_exceptional
            return (f"{self.ruleset}: CERTIFIED {self._kind()}, preperiod {self.preperiod}"
                    + (f" (last exceptional value G({last}))" if last is not None else " (purely periodic)"))
        if self.status == "none":
            return (f"{self.ruleset}: no certified period, and no repetition seen on the "
                    f"{self.values_checked:,} values computed")
        need = ""
        if self.required_values is not None:
            need = f"; certifying it needs L >= {self.required_values:,} values"
        return (f"{self.ruleset}: no certified period: on the {self.values_checked:,} values computed, "
                f"the tail from G({self.preperiod}) repeats with {self._kind()} (seen, not proved{need})")

    def __str__(self) -> str:
        lines = [self.summary()]
        if self.certified:
            lines.append(f"  theorem: {self.theorem}")
            lines.append(f"  bound:   {self.bound}")
            lines.append(f"  checked: G(n) = G(n+{self.period}) for {self.preperiod} <= n < "
                         f"{self.values_checked - self.period} ({self.values_checked} values)")
            if self.note:
                lines.append(f"  note:    {self.note}")
        elif self.note:
            lines.append(f"  not certified: {self.note}")
        return "\n".join(lines)

    def to_json(self) -> dict:
        """JSON-ready dict (also what the store keeps as sequence metadata).

        Certified: ``period``, ``preperiod``, ``saltus``, ``last_exceptional`` state the fact.
        Not certified: those are null and the ``seen_period``, ``seen_preperiod``,
        ``seen_saltus`` keys say what the prefix showed; ``summary`` is the one-line text.
        """
        d = asdict(self)
        d["summary"] = self.summary()
        d["last_exceptional"] = self.last_exceptional
        if self.certified:
            return d
        d["seen_period"], d["seen_preperiod"], d["seen_saltus"] = self.period, self.preperiod, (
            self.saltus if self.period is not None else None)
        d["period"] = d["preperiod"] = d["saltus"] = None
        return d

    def __repr__(self) -> str:
        kind = "certified" if self.certified else self.status
        return (f"PeriodicityResult({self.ruleset!r}, {kind}, period={self.period}, "
                f"preperiod={self.preperiod}, values_checked={self.values_checked})")

    def plot_values(self, limit: int = 400) -> list[int]:
        """The first Grundy values to draw (the preperiod and three periods, at most
        ``limit``, at least 120, never more than were checked); empty when the game cannot be
        named again (a ruleset built in a session) or has no values."""
        from cgtalg.rulesets.registry import get_ruleset

        want = (self.preperiod or 0) + 3 * (self.period or 0)
        n = min(max(want, 120), limit, self.values_checked or 120)
        try:
            return [int(v) for v in get_ruleset(self.ruleset).grundy_sequence(n)]
        except Exception:  # noqa: BLE001 - a picture is optional; the card says what is known
            return []

    def _repr_html_(self) -> str:
        """Notebook view: a card (status, period, preperiod, theorem and bound) with a sparkline
        of the first values (red: the preperiod) and the report folded."""
        from cgtalg.core.display import Html, card, details, esc
        from cgtalg.core.svg import sparkline_svg

        rows = [("status", ("CERTIFIED" if self.certified else f"{self.status} (seen on a prefix, not proved)")),
                ("period", self.period if self.period is not None else "—"),
                ("preperiod", self.preperiod if self.preperiod is not None else "—")]
        if self.saltus:
            rows.append(("saltus", self.saltus))
        if self.certified:
            rows += [("theorem", self.theorem), ("bound", self.bound)]
        rows.append(("values checked", f"{self.values_checked:,}"))
        values = self.plot_values()
        parts = []
        if values:
            split = self.preperiod if self.preperiod is not None else None
            rows.append(("Grundy values", Html(
                sparkline_svg(values, split, label=f"G(0..{len(values) - 1}) of {self.ruleset}")
                + f"<br><small>G(0..{len(values) - 1})" + (", red: the preperiod" if split else "") + "</small>")))
        parts.append(details("report", f"<pre style='white-space:pre-wrap;margin:0'>{esc(self)}</pre>"))
        return card(f"periodicity of {self.ruleset}", rows, parts, kind="periodicity")


def _bound_text(mode: int, h: int, k: int, n0: int, p: int) -> str:
    L = required_length(mode, h, k, n0, p)
    m = max(n0, 1)
    if mode == 1:
        return f"L >= max(n0,1) + p + k = {m} + {p} + {k} = {L}"
    return f"L >= {h}*max(n0,1) + {h}p + k = {h}*{m} + {h}*{p} + {k} = {L}"


def check_certificate(G: np.ndarray, L: int, mode: int, h: int, k: int, period: int) -> int | None:
    """Check one period on ``G[:L]``: the preperiod if the theorem's bound holds, else None."""
    with python_kernels(2 * L):  # one walk down the prefix: plain Python when it is short
        p, n0 = K.last_match_scan(G, L, period, period, h, k, mode, 0)
    return int(n0) if p == period else None


def _detect(G: np.ndarray, L: int) -> tuple[int, int, int] | None:
    """Smallest (arithmetic) period seen over at least 3 cycles: ``(p, saltus, n0)``."""
    if L < 20:
        return None
    with python_kernels(L * L // 4):
        p, s, n0 = K.saltus_scan(G, L, max(1, L // 4), 3)
    if p < 0:
        return None
    return int(p), int(s), int(n0)


def _z_dtype(L: int) -> type:
    return np.int32 if L < 2**31 else np.int64


def periodicity_memory_estimate(ruleset: Any, max_values: int) -> int:
    """Peak bytes of a :func:`periodicity` search over at most ``max_values`` values: the
    Grundy values (:func:`~cgtalg.rulesets.heaps.grundy_engine.grundy_memory_estimate`)
    plus the run-length table of the certificate scan (4 bytes per value, the last prefix
    being up to ``max_values`` long, ``8`` bytes past ``2**31``)."""
    if not callable(getattr(ruleset, "kernel_rules", None)):
        raise RulesetError(f"a periodicity search is of a take-and-break ruleset, not {short_repr(ruleset)}")
    if isinstance(max_values, bool) or not isinstance(max_values, numbers.Integral) or max_values < 0:
        raise RulesetError(f"max_values must be a non-negative integer, not {short_repr(max_values)}")
    L = int(max_values)
    z = (L + 1) * np.dtype(_z_dtype(L)).itemsize
    return int(grundy_memory_estimate(ruleset, L)) + z


#: the time budget of a periodicity search given no ``max_values`` (it extends until it certifies)
DEFAULT_PERIOD_SECONDS = 60.0


def extend_max_values(ruleset: Any, budget: int) -> int:
    """The most values a search that extends until it certifies may compute: the largest power
    of two whose search fits ``budget`` bytes (:func:`periodicity_memory_estimate`), at most 2**34."""
    budget = min(budget, default_max_memory())
    L = 1 << 12
    while L < (1 << 34) and periodicity_memory_estimate(ruleset, 2 * L) <= budget:
        L *= 2
    return L


def default_max_values(ruleset: Any) -> int:
    """The default ``max_values`` of :func:`periodicity` for ``ruleset`` (see there)."""
    rules = ruleset.kernel_rules(64)
    if rules is None:
        return 1 << 12
    if ruleset.certificate() is None:
        return 1 << 12
    if rules.sparse_ok:
        return 1 << 21
    if len(rules.t_split) == 0 and len(rules.t_split3) == 0:
        return 1 << 22
    return 1 << 16


def periodicity(
    ruleset: Any,
    max_values: int | None = None,
    store: Any = None,
    progress: bool | None = None,
    start: int = 1024,
    max_bytes: int | None = None,
    *,
    max_seconds: float | None = None,
) -> PeriodicityResult:
    """Compute Grundy values until the period is found and certified (or ``max_values``).

    Parameters
    ----------
    ruleset : HeapRuleset
        A take-and-break code, subtraction game, Grundy's game or function heap game.
    max_values : int, optional
        Stop after this many values. Default for a game that can be certified (finite codes,
        finite subtraction games): none given, the search extends (doubling its prefix) until
        it certifies, within the time budget ``max_seconds`` (default
        :data:`DEFAULT_PERIOD_SECONDS`) and the memory budget; when the time budget ends first,
        the result says so and reports what the last prefix shows (no error). For games that
        cannot be certified (infinite codes, Grundy's game, function-defined games) 2**12.
    store : Store, optional
        An open store: values are read from and written to it (resumable); a certified
        result is kept as the sequence's metadata. Nothing read from the store is trusted
        for a certificate: a stored certified result is re-checked on the values its
        certificate needs, computed again by the kernels and compared with the stored ones,
        and a certificate found on stored values stands only once those values are computed
        again. A stored value or metadata that the recomputation contradicts is reported with
        a :class:`RuntimeWarning` naming the sequence and the store, and the search runs
        again without the store's values (its metadata is then replaced by the result).
    progress : bool or None
        Progress bars for long computations.
    start : int
        Length of the first prefix examined.
    max_bytes : int, optional
        Memory budget (default :data:`cgtalg.rulesets.heaps.grundy_engine.DEFAULT_MAX_BYTES`): a
        search whose ``max_values`` would need more (see
        :func:`periodicity_memory_estimate`) is refused before any work.
    max_seconds : float, optional
        Time budget of the search. With ``max_values`` given, past it
        :class:`~cgtalg.errors.ComputationLimitError` (the values computed are kept, and
        stored when there is a store); without, the search ends with what it saw.

    Returns
    -------
    PeriodicityResult
        Certified, or what was seen on the prefix (worded as such, never as a fact). A
        certified result is kept on the ruleset: heaps of any size are then answered from it
        (:func:`~cgtalg.rulesets.heaps.play.heap_grundy_value`,
        :func:`~cgtalg.rulesets.heaps.play.heap_outcome`, ...).

    Raises
    ------
    RulesetError
        For a bad ``max_values``.
    ComputationLimitError
        When ``max_values`` values would not fit ``max_bytes``, or the search runs past
        ``max_seconds``.

    Examples
    --------
    >>> from cgtalg.rulesets.heaps.octal import TakeAndBreak
    >>> r = periodicity(TakeAndBreak("0.77"))
    >>> r.certified, r.period, r.preperiod
    (True, 12, 71)
    """
    extend = max_values is None and ruleset.certificate() is not None
    if extend and max_seconds is None:
        max_seconds = DEFAULT_PERIOD_SECONDS
    deadline = Deadline(max_seconds)
    with deadline:  # the budget of all the search runs, its memory estimate's probe included
        res = _search(ruleset, max_values, check_store(store), progress, start, max_bytes, deadline, extend)
    if res.certified and not getattr(res, "_small", False):
        ruleset._period = res
    else:
        ruleset._period_searched = max(getattr(ruleset, "_period_searched", 0), res.values_checked)
    return res


#: up to this many values a periodicity claim is re-checked on values of the naive kernel
NAIVE_CHECK_VALUES = 20_000


def check_period_claim(ruleset: Any, period: Any, preperiod: Any) -> tuple[bool, list[str], str]:
    """Re-check a certified period of ``ruleset`` (pass a fresh instance: one whose values were
    not computed by the search being checked) from its rules, trusting nothing of the
    search that certified it: the bound comes from the ruleset's own theorem
    (:meth:`certificate`), the values are computed afresh (no store; the naive mex kernel up to
    :data:`NAIVE_CHECK_VALUES` values, a fresh engine past that), and the claim is checked on
    them: ``G(n) = G(n + p)`` for ``n0 <= n < L - p`` with ``L`` the theorem's bound, ``n0``
    least (``G(n0 - 1) != G(n0 - 1 + p)``) and ``p`` least (no proper divisor is a period of
    the same tail).

    Returns
    -------
    (ok, reasons, checker)
    """
    from cgtalg.errors import CertificateError

    cert = ruleset.certificate()
    if cert is None:
        take_break_bound(ruleset, GUY_SMITH)  # RulesetFactError when a fact it needs is not declared
        raise CertificateError(f"{ruleset.name}: no periodicity theorem applies to this game, so no "
                               f"period of it is certified ({outside_reason(facts_of(ruleset))})")
    try:
        p, n0 = int(period), int(preperiod)
        if p < 1 or n0 < 0:
            raise ValueError
    except (TypeError, ValueError):
        raise CertificateError(f"{ruleset.name}: period {shorten_value(period)} and preperiod "
                               f"{shorten_value(preperiod)} must be integers, p >= 1, n0 >= 0") from None
    theorem, mode, h, k = cert
    L = required_length(mode, h, k, n0, p)
    check_memory(periodicity_memory_estimate(ruleset, L), f"{ruleset.name}: re-checking a period on {L:,} values")
    method = "naive" if L <= NAIVE_CHECK_VALUES else "auto"
    G = np.asarray(grundy_sequence(ruleset, L, method=method, store=None, progress=False))[:L].astype(np.int64)
    checker = (f"{theorem}: bound L = {L:,} re-derived from the rules; values re-computed "
               f"({'naive mex kernel' if method == 'naive' else 'a fresh kernel, no store'})")
    bad = [f"G({n}) = {G[n]} but G({n + p}) = {G[n + p]}" for n in
           np.nonzero(G[n0:L - p] != G[n0 + p:L])[0][:3] + n0] if L - p > n0 else []
    if not bad and n0 > 0 and G[n0 - 1] == G[n0 - 1 + p]:
        bad.append(f"the preperiod is not least: G({n0 - 1}) = G({n0 - 1 + p}) as well")
    if not bad:
        for d in range(1, p):
            if p % d == 0 and L - d > n0 and np.array_equal(G[n0:L - d], G[n0 + d:L]):
                bad.append(f"the period is not least: {d} is a period of the same tail")
                break
    good = [f"G(n) = G(n+{p}) for {n0} <= n < {L - p} ({L:,} values), n0 and p least"]
    return not bad, (bad or good), checker


def shorten_value(x: Any) -> str:
    return short_repr(x, 40)


def _seen(Z: np.ndarray, L: int) -> tuple[int, int, int] | None:
    """What a prefix of ``L`` values shows: the smallest period repeating over 3 cycles."""
    with python_kernels(L):
        sp, sn0 = K.period_scan(Z, L, 1, max(1, L // 3), 1, 0, 2, 3)
    return (int(sp), 0, int(sn0)) if sp > 0 else None


class _Damaged(Exception):
    """Values or metadata read from the store that the recomputation contradicts."""


def _search(ruleset: Any, max_values: int | None, store: Any, progress: bool | None, start: int,
            max_bytes: int | None, deadline: Deadline, extend: bool = False) -> PeriodicityResult:
    name = ruleset.name
    cert = ruleset.certificate()
    budget = DEFAULT_MAX_BYTES if max_bytes is None else check_count(max_bytes, "max_bytes")
    damaged = None
    if max_values is None and extend and cert is not None and store is not None:
        # a certified result kept in the store answers (re-verified, under its own memory check)
        # before the search's memory estimate, which computes a probe of values to make
        try:
            got = _from_store(ruleset, store, cert, progress, budget, deadline)
        except _Damaged as exc:
            damaged = exc
        else:
            if got is not None:
                return got
    if max_values is None:
        try:  # the estimate computes a probe of values under the search's budget; if that runs out
            max_values = extend_max_values(ruleset, budget) if extend else default_max_values(ruleset)
        except ComputationLimitError:  # there, the search ends with nothing seen
            if not (extend and open_deadline_expired()):
                raise
            return _certify(ruleset, cert, 1 << 12, store, False, progress, start, budget, deadline, extend)
    max_values = check_count(max_values, "max_values")
    if max_values < 2:
        raise RulesetError(f"max_values must be at least 2, got {max_values}")
    est = periodicity_memory_estimate(ruleset, max_values)
    if est > budget:
        raise ComputationLimitError(
            f"{name}: a periodicity search over max_values = {short_repr(max_values, 40)} values needs about "
            f"{format_bytes(est)}, over the memory budget of {format_bytes(budget)}; "
            + (f"pass max_bytes={est} (or more) to allow it, or a smaller max_values" if est < 2**70
               else "pass a smaller max_values"))
    check_memory(est, f"{name}: a periodicity search over max_values = {short_count(max_values)} values")
    if cert is None or store is None:
        return _certify(ruleset, cert, max_values, store, True, progress, start, budget, deadline, extend)
    try:
        if damaged is not None:
            raise damaged
        got = _from_store(ruleset, store, cert, progress, budget, deadline) if not extend else None
        if got is not None:
            return got
        return _certify(ruleset, cert, max_values, store, True, progress, start, budget, deadline, extend)
    except _Damaged as exc:
        warnings.warn(f"{exc}; recomputing {short_repr(ruleset.sequence_key)} without the store's values",
                      RuntimeWarning, stacklevel=3)
    return _certify(ruleset, cert, max_values, store, False, progress, start, budget, deadline, extend)


def _certify(ruleset: Any, cert: tuple | None, max_values: int, store: Any, read: bool,
             progress: bool | None, start: int, budget: int, deadline: Deadline,
             extend: bool = False) -> PeriodicityResult:
    """The search proper: values from the store when ``read`` (else computed), a certificate
    accepted only once the values it needs are re-computed (:func:`_recheck`). With ``extend``
    (no ``max_values`` given), the time budget ends the search with what the last prefix
    shows instead of an error."""
    name = ruleset.name
    eng = grundy_engine(ruleset)

    def compute(L: int) -> np.ndarray:
        deadline.check(f"{name}: the periodicity search ({eng.n:,} values computed and kept)")
        grundy_sequence(ruleset, L, store=store if read else None, progress=progress, max_bytes=budget,
                        deadline=deadline)
        return grundy_engine(ruleset).G

    if cert is not None:
        theorem, mode, h, k = cert
        L = min(max(start, 4 * (k + 4)), max_values)
        seen = None
        done = 0  # the longest prefix computed in full
        stop = f"stopped at max_values = {max_values:,} values (pass a larger max_values to go on)"
        while True:
            try:
                G = compute(L)
            except ComputationLimitError:  # its budget, or the caller's (a command's --time)
                if not (extend and open_deadline_expired()):
                    raise
                L = done
                stop = (f"stopped by the time budget of {deadline.describe()} after {L:,} values, "
                        f"before a certificate; {BUDGET_HINT}")
                if L:
                    G = grundy_engine(ruleset).G
                    with python_kernels(2 * L):
                        Z = K.tail_match_lengths(G, L, np.zeros(L // 2 + 1, dtype=_z_dtype(L)))
                    seen = _seen(Z, L)
                break
            done = L
            p_hi = max(1, (L - k) // h) if mode == 0 else max(1, L - k)
            with python_kernels(4 * L):  # O(L) scans: plain Python on a short prefix
                Z = K.tail_match_lengths(G, L, np.zeros(max(p_hi, L // 2) + 1, dtype=_z_dtype(L)))
                p, n0 = K.period_scan(Z, L, 1, p_hi, h, k, mode, 0)
            if p > 0:
                p, n0 = int(p), int(n0)
                problem = _recheck(ruleset, cert, p, n0, progress, budget, deadline)
                if problem is not None:
                    if not read:  # pragma: no cover - computed values certify what they show
                        raise RuntimeError(f"{name}: {problem}")
                    raise _Damaged(f"{name}: the values read from the store {_where(store)} are wrong: {problem}")
                res = PeriodicityResult(
                    ruleset=name, status="certified", period=p, preperiod=n0, saltus=0, certified=True,
                    theorem=theorem, bound=_bound_text(mode, h, k, n0, p),
                    required_values=required_length(mode, h, k, n0, p), values_checked=L, k=k,
                )
                if store is not None:
                    _put_meta(store, ruleset.sequence_key, res)
                return res
            if L >= max_values:
                seen = _seen(Z, L)
                break
            with python_kernels(L):
                cp, cn0 = K.period_scan(Z, L, 1, max(1, L // 2), 1, 0, 2, 0)
            del Z
            nxt = 2 * L
            if cp > 0:
                need = required_length(mode, h, k, int(cn0), int(cp))
                if need > L:
                    nxt = min(nxt, max(need, L + 64))
            L = min(nxt, max_values)
        note = stop
        if seen is None:
            return PeriodicityResult(ruleset=name, status="none", values_checked=L, k=k, note=note)
        p, s, n0 = seen
        return PeriodicityResult(ruleset=name, status="detected", period=p, preperiod=n0, saltus=0,
                                 certified=False, required_values=required_length(mode, h, k, n0, p),
                                 values_checked=L, k=k, note=note)
    k = None
    L = max_values
    G = compute(L)
    why = _uncertified_why(ruleset)
    det = _detect(G, L)
    if det is None:
        return PeriodicityResult(ruleset=name, status="none", values_checked=L, k=k, note=why)
    p, s, n0 = det
    return PeriodicityResult(ruleset=name, status="detected", period=p, preperiod=n0, saltus=s,
                             certified=False, values_checked=L, k=k, note=why)


def _where(store: Any) -> str:
    return str(getattr(store, "url", None) or getattr(store, "location", None) or "given")


def _prime_factors(p: int) -> list[int]:
    out, q = [], 2
    while q * q <= p:
        if p % q == 0:
            out.append(q)
            while p % q == 0:
                p //= q
        q += 1
    if p > 1:
        out.append(p)
    return out


def _small_recheck_ok(ruleset: Any, store: Any, R: int) -> bool:
    """Whether a stored period needing ``R`` values is re-checked in plain Python
    (:func:`_small_recheck`): few values of a game that allows it
    (:func:`~cgtalg.rulesets.heaps.small_grundy.small_ok`), no engine computing them in this
    process, and a store that reads values without numpy."""
    return (small_ok(ruleset, R) and not getattr(ruleset, "_engines", None)
            and callable(getattr(store, "sequence_values", None)))


def _small_recheck(ruleset: Any, cert: tuple, p: int, n0: int) -> str | None:
    """:func:`_recheck` on values computed in plain Python
    (the engine's plain-Python mode, :mod:`~cgtalg.rulesets.heaps.small_grundy`),
    the certificate checked by the Python code of the same kernel."""
    theorem, mode, h, k = cert
    R = required_length(mode, h, k, n0, p)
    G = grundy_sequence(ruleset, R, backend="python")

    def check(period: int) -> int | None:
        q, m0 = K.last_match_scan.py_func(G, R, period, period, h, k, mode, 0)
        return int(m0) if q == period else None

    got = check(p)
    if got != n0:
        return (f"the period {p} with preperiod {n0} does not hold on the {R:,} values its certificate needs"
                + ("" if got is None else f" (they show preperiod {got})"))
    for q in _prime_factors(p):
        if check(p // q) is not None:
            return f"{p} is not the least period: {p // q} is one"
    return None


def _recheck(ruleset: Any, cert: tuple, p: int, n0: int, progress: bool | None, budget: int,
             deadline: Deadline) -> str | None:
    """Check that ``(n0, p)`` is the certified period of ``ruleset`` on values computed by the
    kernels (:func:`~cgtalg.rulesets.heaps.grundy_engine.trusted_values`), never on values a store
    gave: the ``R = required_length(...)`` values the certificate needs (``h*max(n0,1) +
    h*p + k`` for splits into at most ``h`` heaps, ``max(n0,1) + p + k`` without splits)
    are computed when not already, and on them ``G(n) = G(n+p)`` must hold exactly from
    ``n0`` (not from ``n0 - 1``), and ``p / q`` must fail for every prime ``q | p`` (``p``
    is the least period). Returns what is wrong, or None."""
    theorem, mode, h, k = cert
    R = required_length(mode, h, k, n0, p)
    G, bad = trusted_values(ruleset, R, progress=progress, max_bytes=budget, deadline=deadline)
    if bad is not None:
        return f"the value held for G({bad}) differs from its recomputation"
    got = check_certificate(G, R, mode, h, k, p)
    if got != n0:
        return (f"the period {p} with preperiod {n0} does not hold on the {R:,} values its certificate needs"
                + ("" if got is None else f" (they show preperiod {got})"))
    for q in _prime_factors(p):
        if check_certificate(G, R, mode, h, k, p // q) is not None:
            return f"{p} is not the least period: {p // q} is one"
    return None


def _from_store(ruleset: Any, store: Any, cert: tuple, progress: bool | None, budget: int,
                deadline: Deadline) -> PeriodicityResult | None:
    """A certified result kept in the store, re-checked on values it has verified: the
    values its certificate needs are computed again (:func:`_recheck`) and compared with the
    stored ones. ``None`` when the store holds no certified result; :class:`_Damaged` when
    the stored values or metadata are contradicted by the recomputation."""
    key = ruleset.sequence_key
    meta = store.sequence_meta(key)
    if not meta or not isinstance(meta.get("periodicity"), dict):
        return None
    m = meta["periodicity"]
    if not m.get("certified"):
        return None
    theorem, mode, h, k = cert
    where = f"{ruleset.name}: the certified period stored for {short_repr(key)} in the store {_where(store)}"
    try:
        p, n0 = int(m["period"]), int(m["preperiod"])
        saltus = int(m.get("saltus") or 0)
    except (KeyError, TypeError, ValueError):
        raise _Damaged(f"{where} is unreadable") from None
    if p < 1 or n0 < 0 or saltus != 0:
        raise _Damaged(f"{where} is not one (period {p}, preperiod {n0}, saltus {saltus})")
    R = required_length(mode, h, k, n0, p)
    stored_len = int(store.sequence_length(key))
    if stored_len < R:
        raise _Damaged(f"{where} needs {R:,} values, but only {stored_len:,} are stored")
    check_memory(16 * R, f"{ruleset.name}: re-checking the certified period stored for {short_repr(key)} ({R:,} values)")
    if _small_recheck_ok(ruleset, store, R):
        # few values: re-checked in plain Python, without numpy (issue 23, part 4)
        problem = _small_recheck(ruleset, cert, p, n0)
        if problem is not None:
            raise _Damaged(f"{where} is wrong: {problem}")
        G = grundy_sequence(ruleset, R, backend="python")
        stored = store.sequence_values(key, 0, R)
        i = next((i for i in range(R) if stored[i] != G[i]), None)
        if i is not None:
            raise _Damaged(f"{ruleset.name}: the store {_where(store)} holds G({i}) = {stored[i]} for "
                           f"{short_repr(key)}, but G({i}) = {G[i]}")
        res = PeriodicityResult(
            ruleset=ruleset.name, status="certified", period=p, preperiod=n0, saltus=0, certified=True,
            theorem=theorem, bound=_bound_text(mode, h, k, n0, p),
            required_values=R, values_checked=R, k=k,
            note=f"read from the store and re-verified: its {R:,} values recomputed and compared with the stored ones",
        )
        object.__setattr__(res, "_small", True)  # the engine does not hold the values: periodicity() does not keep it
        return res
    problem = _recheck(ruleset, cert, p, n0, progress, budget, deadline)
    if problem is not None:
        raise _Damaged(f"{where} is wrong: {problem}")
    G = grundy_engine(ruleset).G
    for lo in range(0, R, 1 << 22):  # the stored values against the computed ones
        hi = min(R, lo + (1 << 22))
        stored = store.sequence(key, lo, hi)
        differ = np.flatnonzero(stored != G[lo:hi])
        if differ.size:
            i = lo + int(differ[0])
            raise _Damaged(f"{ruleset.name}: the store {_where(store)} holds G({i}) = {int(stored[i - lo])} for "
                           f"{short_repr(key)}, but G({i}) = {int(G[i])}")
    return PeriodicityResult(
        ruleset=ruleset.name, status="certified", period=p, preperiod=n0, saltus=0, certified=True,
        theorem=theorem, bound=_bound_text(mode, h, k, n0, p),
        required_values=R, values_checked=R, k=k,
        note=f"read from the store and re-verified: its {R:,} values recomputed and compared with the stored ones",
    )


def _put_meta(store: Any, key: str, res: PeriodicityResult) -> None:
    """Keep the certified result as the sequence's metadata (replacing an older one)."""
    from cgtalg.errors import StoreError

    try:
        store.put_sequence_meta(key, {"periodicity": res.to_json()})
    except StoreError:
        meta = dict(store.sequence_meta(key) or {})
        meta["periodicity"] = res.to_json()
        store.put_sequence_meta(key, meta, replace=True)
