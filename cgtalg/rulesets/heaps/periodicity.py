"""Detecting periodicity in finite prefixes of sequences.

A sequence ``a`` is *(ultimately) periodic* with period ``p`` and preperiod ``n0`` when
``a[n + p] = a[n]`` for all ``n >= n0``, and *arithmetic-periodic* with saltus ``s`` when
``a[n + p] = a[n] + s`` for all ``n >= n0`` (Winning Ways ch. 4, "arithmetic
periodicity"; Guy & Smith 1956 for octal games; Austin 1976 and Howse & Nowakowski 2004
for arithmetic periodicity of subtraction and hexadecimal games).

From a finite prefix ``a[0 .. L-1]`` one can only *detect* periodicity: this module finds
the smallest ``p`` (and for it the smallest ``n0``) such that the identity holds for every
``n`` with ``n0 <= n < L - p`` and the periodic part ``a[n0 .. L-1]`` spans at least
``min_cycles`` periods and ``min_span`` values (``L - n0 >= max(min_cycles * p, min_span)``),
so that a short coincidence at the end is not reported. The result is marked *detected, not certified*. Certifying that the
periodicity continues forever needs a theorem about the sequence's origin (for octal
games the Guy-Smith periodicity theorem; see :mod:`cgtalg.rulesets.heaps.octal_periodicity`).

The scan runs in a numba kernel over int64 codes: each candidate ``p`` is checked from the
end of the prefix backwards and rejected at its first mismatch inside the required window,
so most candidates cost O(1); the accepted one costs O(L). Sequences of arbitrary hashable
values (tuples, strings) are first coded as integers (equal values, equal codes).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Hashable, Sequence

from cgtalg.core.lazynp import int_types, np
from numba import njit

from cgtalg.rulesets.protocol import short_repr
from cgtalg.errors import PeriodicityError
from cgtalg.core.jsonable import to_jsonable

__all__ = ["Periodicity", "find_period", "find_arithmetic_period", "encode_sequence"]


@dataclass(frozen=True)
class Periodicity:
    """A periodicity detected on a finite prefix of a sequence.

    Attributes
    ----------
    period : int
        The smallest period ``p`` found.
    preperiod : int
        The smallest ``n0`` for that ``p``: ``a[n + p] = a[n] + saltus`` for
        ``n0 <= n < length - p``, and ``a[n0 - 1 + p] != a[n0 - 1] + saltus`` if ``n0 > 0``.
    saltus : int
        ``s`` in ``a[n + p] = a[n] + s`` (0 for ordinary periodicity).
    length : int
        The number of values examined (the prefix length ``L``).
    min_cycles : int
        The number of periods the periodic part had to span.
    min_span : int
        The number of values the periodic part had to span.
    cycle : tuple
        The values ``a[n0 .. n0 + p - 1]`` (one period), used by :meth:`extrapolate`.
    certified : bool
        Always ``False`` here: detected on a prefix, not proved.
    """

    period: int
    preperiod: int
    saltus: Any
    length: int
    min_cycles: int
    cycle: tuple
    certified: bool = False
    min_span: int = 0

    @property
    def arithmetic(self) -> bool:
        """True for arithmetic periodicity with a nonzero saltus."""
        return self.saltus != 0

    @property
    def cycles(self) -> float:
        """How many periods the periodic part ``a[n0 .. L-1]`` spans."""
        return (self.length - self.preperiod) / self.period

    @property
    def status(self) -> str:
        """``"detected"`` (on a finite prefix; not certified)."""
        return "certified" if self.certified else "detected"

    def extrapolate(self, n: int) -> Any:
        """The value ``a[n]`` predicted by the detected rule, for ``n >= preperiod``.

        Raises
        ------
        PeriodicityError
            If ``n`` lies in the preperiod (those values are not part of the rule).
        """
        if isinstance(n, bool) or not isinstance(n, int_types()) or n < self.preperiod:
            raise PeriodicityError(
                f"extrapolate needs an int n >= the preperiod {self.preperiod}, got {short_repr(n)}"
            )
        q, r = divmod(int(n) - self.preperiod, self.period)
        v = self.cycle[r]
        return v + q * self.saltus if self.saltus != 0 else v

    def __str__(self) -> str:
        kind = f"arithmetic period {self.period}, saltus {self.saltus}" if self.arithmetic else f"period {self.period}"
        return (
            f"{kind}, preperiod {self.preperiod} ({self.status} on the first {self.length} values, "
            f"{self.cycles:.1f} periods; not certified)"
        )

    def to_json(self) -> dict:
        """A JSON-serialisable dict."""
        return {
            "period": self.period,
            "preperiod": self.preperiod,
            "saltus": to_jsonable(self.saltus),
            "length": self.length,
            "min_cycles": self.min_cycles,
            "min_span": self.min_span,
            "cycles": round(self.cycles, 3),
            "cycle": to_jsonable(list(self.cycle)),
            "status": self.status,
            "certified": self.certified,
        }

    def __repr__(self) -> str:
        return (f"Periodicity(period={self.period}, preperiod={self.preperiod}, saltus={short_repr(self.saltus)}, "
                f"length={self.length}, {self.status})")

    def _repr_html_(self) -> str:
        """Notebook view: a card with a sparkline of one period drawn three times (numeric
        values), the report below."""
        from cgtalg.core.display import Html, card
        from cgtalg.core.svg import sparkline_svg

        rows = [("period", self.period), ("preperiod", self.preperiod)]
        if self.saltus != 0:
            rows.append(("saltus", self.saltus))
        rows += [("seen on", f"the first {self.length} values, {self.cycles:.1f} periods"), ("status", self.status)]
        try:
            spark = [int(self.extrapolate(self.preperiod + i)) for i in range(min(3 * self.period, 300))]
        except (TypeError, ValueError):
            spark = []
        if spark:
            rows.append(("three periods", Html(sparkline_svg(spark, label="the periodic part"))))
        if len(str(self.cycle)) <= 300:
            rows.append(("one period", " ".join(map(str, self.cycle))))
        return card("periodicity" + ("" if self.certified else " (detected on a prefix, not certified)"), rows,
                    kind="periodicity")


@njit(cache=True, nogil=True)
def _scan_kernel(a, min_cycles, min_span, max_period, max_preperiod, arithmetic):  # pragma: no cover - jitted
    """Smallest (p, n0, s) as described in the module docstring; (-1, -1, 0) if none."""
    L = a.shape[0]
    for p in range(1, max_period + 1):
        need = min_cycles * p
        if need < min_span:
            need = min_span
        if min_cycles * p > L:
            break
        if need > L:
            continue
        limit = L - need  # n0 must be <= limit
        s = a[L - 1] - a[L - 1 - p] if (arithmetic and p < L) else 0
        n = L - 1 - p
        if arithmetic:
            while n >= 0 and a[n + p] - a[n] == s:
                n -= 1
        else:
            while n >= 0 and a[n + p] == a[n]:
                n -= 1
        n0 = n + 1
        if n0 <= limit and (max_preperiod < 0 or n0 <= max_preperiod):
            return p, n0, s
    return -1, -1, 0


def encode_sequence(seq: Sequence[Hashable] | np.ndarray) -> tuple[np.ndarray, bool]:
    """``seq`` as an int64 array, and whether those are the values themselves.

    Integer sequences that fit in int64 are used as they are (``True``); anything else
    (tuples, strings, huge ints, floats) is coded by first appearance (equal values get
    equal codes; ``False``).

    Raises
    ------
    PeriodicityError
        If an element is unhashable.
    """
    if isinstance(seq, np.ndarray) and seq.dtype.kind in "iub" and seq.ndim == 1:
        if seq.dtype.kind == "u" and seq.size and int(seq.max()) > np.iinfo(np.int64).max:
            pass
        else:
            return np.ascontiguousarray(seq, dtype=np.int64), True
    items = list(seq)
    if not items:
        return np.empty(0, dtype=np.int64), True
    if isinstance(items[0], int_types()) and not isinstance(items[0], bool):
        # fast path: numpy infers an integer dtype only when every element is an int (a
        # float, string, tuple or an int beyond 64 bits gives another dtype or an error;
        # a bool among ints becomes 0/1, which Python also treats as equal to 0/1)
        try:
            arr = np.asarray(items)
        except (OverflowError, ValueError):
            arr = None
        if arr is not None and arr.ndim == 1 and (
            arr.dtype.kind == "i" or (arr.dtype.kind == "u" and int(arr.max()) <= np.iinfo(np.int64).max)
        ):
            return arr.astype(np.int64, copy=False), True
    codes: dict[Hashable, int] = {}
    out = np.empty(len(items), dtype=np.int64)
    for i, x in enumerate(items):
        try:
            out[i] = codes.setdefault(x, len(codes))
        except TypeError:
            raise PeriodicityError(
                f"sequence element {i} ({short_repr(x)}, {type(x).__name__}) is not hashable; "
                "periodicity needs hashable values"
            ) from None
    return out, False


def _check_args(min_cycles: int, max_period: int | None, max_preperiod: int | None, length: int) -> tuple[int, int, int]:
    if isinstance(min_cycles, bool) or not isinstance(min_cycles, (int, float)) or not min_cycles >= 1:
        raise PeriodicityError(f"min_cycles must be a number >= 1, got {short_repr(min_cycles)}")
    for label, v in (("max_period", max_period), ("max_preperiod", max_preperiod)):
        if v is not None and (isinstance(v, bool) or not isinstance(v, int_types()) or v < 0):
            raise PeriodicityError(f"{label} must be a non-negative int or None, got {short_repr(v)}")
    mp = length if max_period is None else min(int(max_period), length)
    # the kernel works with an integer number of cycles; ceil keeps "at least min_cycles"
    # (capped at length + 1: more cycles than values can never be met, and the kernel is int64)
    cyc = int(min(np.ceil(min_cycles), length + 1))
    return cyc, mp, -1 if max_preperiod is None else int(max_preperiod)


def _find(seq: Any, min_cycles: int, min_span: int, max_period: int | None, max_preperiod: int | None,
          arithmetic: bool) -> Periodicity | None:
    if isinstance(seq, np.ndarray):
        items = seq
    else:
        try:
            items = list(seq)
        except TypeError:
            raise PeriodicityError(f"a period is found in a sequence (a list, an array, a text), not in "
                                   f"{short_repr(seq)} ({type(seq).__name__})") from None
    a, exact = encode_sequence(items)
    if arithmetic and not exact:
        bad = next(x for x in items if not isinstance(x, int_types()) or isinstance(x, bool)) \
            if any(not isinstance(x, int_types()) or isinstance(x, bool) for x in items) else None
        what = f"the element {short_repr(bad)} ({type(bad).__name__})" if bad is not None else "values beyond int64"
        raise PeriodicityError(
            f"arithmetic periodicity needs a sequence of integers that fit in int64; got {what}"
        )
    cyc, mp, mpre = _check_args(min_cycles, max_period, max_preperiod, len(a))
    if isinstance(min_span, bool) or not isinstance(min_span, int_types()) or min_span < 0:
        raise PeriodicityError(f"min_span must be a non-negative int, got {short_repr(min_span)}")
    if len(a) == 0:
        return None
    p, n0, s = _scan_kernel(a, cyc, int(min(min_span, len(a) + 1)), mp, mpre, arithmetic)
    if p < 0:
        return None
    p, n0 = int(p), int(n0)
    if isinstance(items, np.ndarray):
        cycle = tuple(items[n0:n0 + p].tolist())
    else:
        cycle = tuple(items[n0:n0 + p])
    return Periodicity(
        period=p, preperiod=n0, saltus=int(s), length=len(a), min_cycles=cyc, cycle=cycle, certified=False,
        min_span=int(min_span),
    )


def find_period(
    seq: Sequence[Hashable] | np.ndarray,
    *,
    min_cycles: int = 3,
    min_span: int = 0,
    max_period: int | None = None,
    max_preperiod: int | None = None,
) -> Periodicity | None:
    """Detect ultimate periodicity on a finite prefix: the smallest period and its preperiod.

    Finds the least ``p >= 1`` for which some ``n0`` has ``seq[n + p] == seq[n]`` for all
    ``n0 <= n < len(seq) - p`` and ``len(seq) - n0 >= max(min_cycles * p, min_span)``;
    ``n0`` is the least such. Detected, not certified (see the module docstring).

    Parameters
    ----------
    seq : sequence of hashables or 1-d numpy array
        The prefix (ints are scanned directly; other values are coded first).
    min_cycles : int
        How many periods the periodic part must span (default 3; a number >= 1, rounded up).
    min_span : int
        How many values the periodic part must span at least (default 0). ``min_cycles``
        alone lets a tiny period through on a short run: with few distinct values, three
        equal values at the end already make "period 1" with 3 cycles; ``min_span``
        (say 50) rejects such coincidences.
    max_period, max_preperiod : int, optional
        Bounds on the answer.

    Returns
    -------
    Periodicity or None
        ``None`` when no period meets the conditions.

    Raises
    ------
    PeriodicityError
        For unhashable elements or bad parameters.

    Examples
    --------
    >>> find_period([5, 1, 2, 1, 2, 1, 2, 1, 2]).period, find_period([5, 1, 2, 1, 2, 1, 2, 1, 2]).preperiod
    (2, 1)
    >>> find_period([0, 1, 2, 3]) is None
    True
    >>> str(find_period("abcabcabcabc"))
    'period 3, preperiod 0 (detected on the first 12 values, 4.0 periods; not certified)'
    """
    return _find(seq, min_cycles, min_span, max_period, max_preperiod, arithmetic=False)


def find_arithmetic_period(
    seq: Sequence[int] | np.ndarray,
    *,
    min_cycles: int = 3,
    min_span: int = 0,
    max_period: int | None = None,
    max_preperiod: int | None = None,
) -> Periodicity | None:
    """Detect arithmetic periodicity ``seq[n + p] == seq[n] + s`` on a finite prefix.

    The least ``p`` for which the difference ``seq[n + p] - seq[n]`` is one constant ``s``
    (the *saltus*; 0 means ordinary periodicity) for all ``n0 <= n < len(seq) - p`` with
    ``len(seq) - n0 >= max(min_cycles * p, min_span)``; ``n0`` the least such. Detected,
    not certified.
    Winning Ways ch. 4 (arithmetic periodicity); Nim (code 0.333...) has ``G(n) = n``:
    period 1, saltus 1.

    Parameters, Returns: as for :func:`find_period`.

    Raises
    ------
    PeriodicityError
        If the sequence is not made of integers that fit in int64, or for bad parameters.

    Examples
    --------
    >>> r = find_arithmetic_period([0, 1, 2, 3, 4, 5, 6])
    >>> r.period, r.preperiod, r.saltus
    (1, 0, 1)
    >>> r = find_arithmetic_period([0, 1, 0, 2, 1, 3, 2, 4, 3, 5])
    >>> r.period, r.saltus, r.preperiod
    (2, 1, 1)
    """
    return _find(seq, min_cycles, min_span, max_period, max_preperiod, arithmetic=True)
