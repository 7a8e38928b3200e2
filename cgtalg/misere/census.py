"""Misère games born by day n: enumeration, counts, and the day-5 and day-6 census.

A misère canonical form born by day ``n`` is ``{S}`` for a set ``S`` of canonical forms born by
day ``n - 1`` such that no candidate ``H`` reduces ``{S}`` (Conway's simplification rule, see
:mod:`cgtalg.misere.canonical`); distinct irreducible ``S`` give distinct (unequal) games, and a
reducible ``S`` gives a game born earlier. So the number of games born by day ``n`` is the
number of irreducible subsets of the games born by day ``n - 1`` (Conway, ONAG ch. 12; Siegel,
CGT §V.3; notes/misere.md). Published counts for days 0-5: 1, 2, 3, 5, 22, 4171780.

The rule as bitmasks
--------------------
Number the games born by day ``n - 1`` (the *universe*) by bits. Every option ``X ∈ S`` has its
options among the universe, so the candidates ``H`` (options of options) are the options of the
universe games. For a candidate ``H`` put ``A_H`` = the mask of ``opts(H)`` and ``B_H`` = the mask
of the universe games that have ``H`` as an option. Then ``S`` reduces through ``H`` iff

    ``A_H ⊊ S``  and  ``S \\ A_H ⊆ B_H``  (and, for ``H = 0``, ``S`` holds a misère P-position).

:func:`misere_census_scan` derives ``A_H``, ``B_H`` and the P-mask from the canonical forms that
:func:`misere_games_born_by` computes with the general canonicaliser (nothing is typed in), and
counts the irreducible masks with a numba kernel (``2^22`` masks for day 5).

Counting without scanning (the day-6 count)
-------------------------------------------
``A_H`` and ``B_H`` are disjoint (an option of ``H`` is born before ``H``, a game with option ``H``
after it), and no ``S`` reduces through two candidates (they would be two distinct simplest
forms equal to ``{S}``; the kernel checks this at day 5: the multiply-reducible count is 0). So
inclusion-exclusion over the candidates stops at the first term, and with ``N`` games born by
day ``n - 1``:

    ``#(born by day n) = 2^N − Σ_{H ≠ 0} (2^{|B_H|} − 1) − (2^{|B_0|} − 2^{|B_0 ∩ 𝒩|})``

where ``H`` runs over the games born by day ``n - 2``, ``|B_H|`` is the number of games born by day
``n - 1`` with ``H`` as an option, and ``B_0 ∩ 𝒩`` are those with ``0`` as an option that are
misère N-positions (the ``H = 0`` term counts the nonempty ``S ⊆ B_0`` holding a P-position). The
sizes for day 6 come from the day-5 scan (per-bit counts of the irreducible masks), which gives
the day-6 count as an exact integer: ``2^4171780`` minus a sum of powers of two
(:func:`misere_count_formula`). The same formula reproduces days 1-5 from the scans of the day
before, and the tests check that against the enumeration and the day-5 scan.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from cgtalg.caches import register_cache
from cgtalg.core.game import Game, zero
from cgtalg.errors import ArgumentTypeError, CensusError, require_int, shorten
from cgtalg.misere.canonical import MisereCanonicalForm, misere_simplest
from cgtalg.misere.outcome import misere_grundy

__all__ = [
    "misere_games_born_by",
    "misere_count_born_by",
    "misere_day_counts",
    "misere_census_scan",
    "misere_count_formula",
    "CensusScan",
    "CountFormula",
    "MAX_ENUMERATED_DAY",
    "MAX_SCANNED_DAY",
    "MAX_COUNTED_DAY",
]

#: The last day whose games :func:`misere_games_born_by` builds as forms.
MAX_ENUMERATED_DAY = 4
#: The last day :func:`misere_census_scan` scans (its universe must be enumerable).
MAX_SCANNED_DAY = MAX_ENUMERATED_DAY + 1
#: The last day :func:`misere_count_born_by` counts (by the formula from the last scan).
MAX_COUNTED_DAY = MAX_SCANNED_DAY + 1

_CHUNK = 1 << 20


def _check_day(day: object, name: str = "day") -> int:
    day = require_int(day, name)
    if day < 0:
        raise CensusError(f"{name} must be >= 0, got {day}")
    return day


# -- enumeration (days 0..4) -------------------------------------------------------------------
_BORN_BY: list[list[Game]] = [[zero]]


def _sort_key(g: Game) -> tuple:
    from cgtalg.misere.notation import format_misere

    return (g.birthday, len(g.options), format_misere(g))


def _born_by_games(day: int) -> list[Game]:
    """Canonical forms born by ``day`` (``day <= MAX_ENUMERATED_DAY``): each irreducible subset
    of the previous day's games, canonicalised with the general rule."""
    while len(_BORN_BY) <= day:
        prev = _BORN_BY[-1]
        seen: set[int] = set()
        out: list[Game] = []
        for mask in range(1 << len(prev)):
            g = misere_simplest(prev[i] for i in range(len(prev)) if mask >> i & 1)
            if g.id not in seen:
                seen.add(g.id)
                out.append(g)
        out.sort(key=_sort_key)
        _BORN_BY.append(out)
    return _BORN_BY[day]


def misere_games_born_by(day: int) -> list[MisereCanonicalForm]:
    """All misère canonical forms born by ``day`` (Conway, ONAG ch. 12; Siegel CGT §V.3).

    Built from the games born by ``day - 1``: every subset ``S`` of them is canonicalised with
    :func:`~cgtalg.misere.canonical.misere_simplest`, and the distinct results are collected.

    Parameters
    ----------
    day : int
        ``0 <= day <= MAX_ENUMERATED_DAY`` (day 5 has millions of games; count them with
        :func:`misere_count_born_by`).

    Returns
    -------
    list of MisereCanonicalForm
        Sorted by birthday, then number of options, then CGSuite text.

    Raises
    ------
    TypeError
        If ``day`` is not an int.
    CensusError
        If ``day`` is negative or beyond ``MAX_ENUMERATED_DAY``.

    Examples
    --------
    >>> [str(g) for g in misere_games_born_by(3)]
    ['*[0]', '*[1]', '*[2]', '*[2#]', '*[3]']
    >>> len(misere_games_born_by(4))
    22
    """
    day = _check_day(day)
    if day > MAX_ENUMERATED_DAY:
        raise CensusError(
            f"the games born by day {day} are too many to build as forms (days 0-"
            f"{MAX_ENUMERATED_DAY} can be listed); count them with misere_count_born_by({day})"
        )
    return [MisereCanonicalForm._wrap(g) for g in _born_by_games(day)]


# -- the mask scan -----------------------------------------------------------------------------
@dataclass(frozen=True)
class CensusScan:
    """The result of scanning every option set ``S`` of the games born by ``day``.

    Attributes
    ----------
    day : int
        The day whose games are counted.
    universe : tuple of MisereCanonicalForm
        The games born by ``day - 1``; universe game ``i`` is mask bit ``i``.
    candidates : tuple of MisereCanonicalForm
        The candidates ``H`` (the options of the universe games).
    a_masks, b_masks : tuple of int
        Per candidate: ``A_H`` (its options) and ``B_H`` (universe games with ``H`` as an option).
    p_mask : int
        The universe games that are misère P-positions.
    count : int
        Irreducible masks: the number of games born by ``day``.
    multiply_reducible : int
        Masks reduced through two or more candidates (0 by uniqueness of simplest forms).
    option_counts : tuple of int
        Per universe game ``U``: how many games born by ``day`` have ``U`` as an option.
    zero_option_n_count : int
        How many games born by ``day`` have ``0`` as an option and are misère N-positions.
    backend : str
        ``"numba"`` or ``"numpy"``.
    """

    day: int
    universe: tuple[MisereCanonicalForm, ...]
    candidates: tuple[MisereCanonicalForm, ...]
    a_masks: tuple[int, ...]
    b_masks: tuple[int, ...]
    p_mask: int
    count: int
    multiply_reducible: int
    option_counts: tuple[int, ...]
    zero_option_n_count: int
    backend: str


def _reduction_masks(universe: list[Game]) -> tuple[list[Game], list[int], list[int], list[bool], int, int]:
    """Derive the candidates and their ``A_H``/``B_H`` masks from the universe's actual forms."""
    bit = {g.id: i for i, g in enumerate(universe)}
    candidates: list[Game] = []
    seen: set[int] = set()
    for x in universe:
        for h in x.options:
            if h.id not in bit:
                raise RuntimeError(f"universe not closed under options: {h} missing")
            if h.id not in seen:
                seen.add(h.id)
                candidates.append(h)
    candidates.sort(key=_sort_key)
    a_masks, b_masks, is_zero = [], [], []
    for h in candidates:
        a = 0
        for o in h.options:
            if o.id not in bit:
                raise RuntimeError(f"universe not closed under options: {o} missing")
            a |= 1 << bit[o.id]
        b = 0
        for x in universe:
            if h in x:
                b |= 1 << bit[x.id]
        a_masks.append(a)
        b_masks.append(b)
        is_zero.append(h.is_zero)
    p_mask = 0
    for x in universe:
        if misere_grundy(x) == 0:
            p_mask |= 1 << bit[x.id]
    zero_bit = bit.get(zero.id, -1)
    return candidates, a_masks, b_masks, is_zero, p_mask, zero_bit


_SCANS: dict[tuple[int, str], CensusScan] = register_cache("misere.census scans", {})


def misere_census_scan(
    day: int, backend: Literal["numba", "numpy"] = "numba", progress: bool = False
) -> CensusScan:
    """Scan all option sets of the games born by ``day`` as bitmasks (notes/misere.md).

    The universe is :func:`misere_games_born_by` ``(day - 1)``; the candidates and masks are
    derived from those forms, and every one of the ``2^N`` masks is tested with the reduction
    rule by a numba kernel (or numpy, for reference).

    Parameters
    ----------
    day : int
        ``0 <= day <= MAX_SCANNED_DAY`` (day 5: ``2^22`` masks, well under a second).
    backend : {"numba", "numpy"}
        The kernel.
    progress : bool
        Show a tqdm progress bar over chunks of ``2^20`` masks.

    Returns
    -------
    CensusScan

    Raises
    ------
    TypeError
        If ``day`` is not an int.
    CensusError
        If ``day`` is out of range or ``backend`` is unknown.

    Examples
    --------
    >>> scan = misere_census_scan(4)
    >>> scan.count, len(scan.universe), scan.multiply_reducible
    (22, 5, 0)
    """
    day = _check_day(day)
    if backend not in ("numba", "numpy"):
        raise CensusError(f"unknown census backend {shorten(backend)}: use 'numba' or 'numpy'")
    if day > MAX_SCANNED_DAY:
        raise CensusError(
            f"day {day} cannot be scanned: its universe (the games born by day {day - 1}) is too "
            f"large to list; scans go up to day {MAX_SCANNED_DAY}, counts up to day "
            f"{MAX_COUNTED_DAY} (misere_count_born_by)"
        )
    key = (day, backend)
    if key in _SCANS:
        return _SCANS[key]
    from cgtalg.misere._census_kernel import scan_masks, scan_masks_numpy

    universe = _born_by_games(day - 1) if day >= 1 else []
    candidates, a_masks, b_masks, is_zero, p_mask, zero_bit = _reduction_masks(universe)
    n = len(universe)
    fn = scan_masks if backend == "numba" else scan_masks_numpy
    a = np.array(a_masks, dtype=np.int64)
    b = np.array(b_masks, dtype=np.int64)
    z = np.array(is_zero, dtype=np.bool_)
    total = 1 << n
    count = multi = zero_n = 0
    bit_counts = np.zeros(n, dtype=np.int64)
    starts = range(0, total, _CHUNK)
    if progress:
        from tqdm import tqdm

        starts = tqdm(starts, desc=f"misère census day {day}", unit="chunk")
    for start in starts:
        c, m, bc, zn = fn(n, a, b, z, p_mask, zero_bit, start, min(total, start + _CHUNK))
        count += c
        multi += m
        bit_counts += bc
        zero_n += zn
    if multi:
        raise RuntimeError(
            f"{multi} option sets reduce through two candidates at day {day}: this contradicts "
            "the uniqueness of misère simplest forms (a bug)"
        )
    wrap = MisereCanonicalForm._wrap
    result = CensusScan(
        day=day,
        universe=tuple(wrap(g) for g in universe),
        candidates=tuple(wrap(g) for g in candidates),
        a_masks=tuple(a_masks),
        b_masks=tuple(b_masks),
        p_mask=p_mask,
        count=count,
        multiply_reducible=multi,
        option_counts=tuple(int(x) for x in bit_counts),
        zero_option_n_count=zero_n,
        backend=backend,
    )
    _SCANS[key] = result
    return result


# -- the counting formula -----------------------------------------------------------------------
@dataclass(frozen=True)
class CountFormula:
    """``#(games born by day) = Σ coefficient · 2^exponent`` (see the module docstring).

    Attributes
    ----------
    day : int
    terms : tuple of (int, int)
        ``(coefficient, exponent)`` pairs with exponents decreasing: ``(±1, e)`` for the powers
        of two at or above ``2^8`` (the binary expansions of the added and the subtracted
        parts), then at most one ``(c, 0)``: the small powers gathered into the integer ``c``.
    """

    day: int
    terms: tuple[tuple[int, int], ...]

    @property
    def value(self) -> int:
        """The count as an exact integer."""
        total = 0
        for c, e in self.terms:
            total += c << e if c >= 0 else -((-c) << e)
        return total

    def _repr_latex_(self) -> str:
        """``$2^{131072} - 2^{65536} + ...$``."""
        import re

        return "$" + re.sub(r"2\^(\d+)", r"2^{\1}", str(self)) + "$"

    def __repr__(self) -> str:
        from cgtalg.core.display import short

        return f"CountFormula(day={self.day}, {short(self, 160)!r})"

    def __str__(self) -> str:
        parts: list[str] = []
        for c, e in self.terms:
            body = f"2^{e}" if abs(c) == 1 and e else str(abs(c) << e)
            sign = ("-" if c < 0 else "") if not parts else ("- " if c < 0 else "+ ")
            parts.append(sign + body)
        return " ".join(parts) if parts else "0"


_SMALL_EXPONENT = 8  # powers of two below this are gathered into one integer constant


def _set_bits_desc(x: int) -> list[int]:
    text = bin(x)[2:]
    top = len(text) - 1
    bits, i = [], text.find("1")
    while i >= 0:
        bits.append(top - i)
        i = text.find("1", i + 1)
    return bits


def _power_terms(positive: int, negative: int) -> tuple[tuple[int, int], ...]:
    """``positive - negative`` as signed powers of two (binary expansion of each part, so
    ``2·2^e`` shows as ``2^(e+1)``), small powers gathered into one constant."""
    common = positive & negative  # a power in both parts cancels
    positive ^= common
    negative ^= common
    mask = (1 << _SMALL_EXPONENT) - 1
    terms = [(1, e) for e in _set_bits_desc(positive >> _SMALL_EXPONENT << _SMALL_EXPONENT)]
    terms += [(-1, e) for e in _set_bits_desc(negative >> _SMALL_EXPONENT << _SMALL_EXPONENT)]
    terms.sort(key=lambda t: -t[1])
    constant = (positive & mask) - (negative & mask)
    if constant:
        terms.append((constant, 0))
    return tuple(terms)


def misere_count_formula(day: int) -> CountFormula:
    """The number of games born by ``day`` as a sum of powers of two, from the previous day's scan.

    ``2^N − Σ_{H ≠ 0} (2^{|B_H|} − 1) − (2^{|B_0|} − 2^{|B_0 ∩ 𝒩|})`` with ``N`` games born by
    ``day - 1`` and ``H`` over the games born by ``day - 2`` (module docstring; the terms do not
    overlap because a set reduces through at most one candidate).

    Parameters
    ----------
    day : int
        ``1 <= day <= MAX_COUNTED_DAY``.

    Returns
    -------
    CountFormula

    Raises
    ------
    TypeError
        If ``day`` is not an int.
    CensusError
        If ``day`` is out of range.

    Examples
    --------
    >>> str(misere_count_formula(5)), misere_count_formula(5).value
    ('2^22 - 2^14 - 2^12 - 2^11 + 4', 4171780)
    """
    day = _check_day(day)
    if day < 1 or day > MAX_COUNTED_DAY:
        raise CensusError(f"the counting formula covers days 1-{MAX_COUNTED_DAY}, got day {day}")
    prev = misere_census_scan(day - 1)
    positive = 1 << prev.count
    negative = 0
    for h, cnt in zip(prev.universe, prev.option_counts):
        negative += 1 << cnt
        positive += (1 << prev.zero_option_n_count) if h.game.is_zero else 1
    terms = _power_terms(positive, negative)
    return CountFormula(day, terms)


def misere_count_born_by(day: int) -> int:
    """The number of misère canonical forms born by ``day`` (ONAG ch. 12; Siegel CGT §V.3).

    Days 0-4 by enumeration, day 5 by the bitmask scan of all ``2^22`` option sets, day 6 by the
    counting formula from the day-5 scan (an exact integer with over a million digits).

    Parameters
    ----------
    day : int
        ``0 <= day <= MAX_COUNTED_DAY``.

    Returns
    -------
    int

    Raises
    ------
    TypeError
        If ``day`` is not an int.
    CensusError
        If ``day`` is negative or beyond ``MAX_COUNTED_DAY``.

    Examples
    --------
    >>> [misere_count_born_by(d) for d in range(5)]
    [1, 2, 3, 5, 22]
    """
    day = _check_day(day)
    if day <= MAX_ENUMERATED_DAY:
        return len(_born_by_games(day))
    if day <= MAX_SCANNED_DAY:
        return misere_census_scan(day).count
    if day <= MAX_COUNTED_DAY:
        return misere_count_formula(day).value
    raise CensusError(
        f"day {day} is beyond the census: counts go up to day {MAX_COUNTED_DAY} (the formula for "
        f"day {MAX_COUNTED_DAY + 1} would need the option structure of every game born by day "
        f"{MAX_COUNTED_DAY}, far too many to scan)"
    )


def misere_day_counts(max_day: int) -> list[int]:
    """``[misere_count_born_by(d) for d in 0..max_day]``.

    Raises
    ------
    TypeError
        If ``max_day`` is not an int.
    CensusError
        If ``max_day`` is negative or beyond ``MAX_COUNTED_DAY``.

    Examples
    --------
    >>> misere_day_counts(4)
    [1, 2, 3, 5, 22]
    """
    max_day = _check_day(max_day, "max_day")
    if max_day > MAX_COUNTED_DAY:
        raise CensusError(f"max_day must be <= {MAX_COUNTED_DAY}, got {max_day}")
    return [misere_count_born_by(d) for d in range(max_day + 1)]


# -- P-positions and tame games per day (additive; issue 9) ------------------------------------
# Genus (Winning Ways ch. 13; notes/misere.md): g^{γ0 γ1 ...} with g the normal Grundy value and
# γn the misère Grundy value of G + n·*2. A genus is *tame* when g = γ0 or {g, γ0} ⊆ {0, 1}
# (only g and γ0 matter); a form is *hereditarily tame* when it and all its subpositions have
# tame genus (Conway ONAG ch. 12 "tame games"; CGSuite's phyla nim-heap and hereditarily tame).
# The genus itself is cgtalg.misere.genus.genus; only g and γ0 are needed here.
from cgtalg.normal.grundy import grundy  # noqa: E402

__all__ += [
    "DayClassCounts",
    "misere_class_counts",
    "misere_p_count_born_by",
    "misere_tame_count_born_by",
]


def _tame_genus(normal: int, gamma0: int) -> bool:
    from cgtalg.misere.genus import genus_class

    return genus_class(normal, gamma0) == "tame"


def _hereditarily_tame(g: Game, memo: dict[int, bool]) -> bool:
    if g.id in memo:
        return memo[g.id]
    ok = _tame_genus(grundy(g), misere_grundy(g)) and all(_hereditarily_tame(o, memo) for o in g.options)
    memo[g.id] = ok
    return ok


@dataclass(frozen=True)
class DayClassCounts:
    """How many misère canonical forms born by ``day`` fall in each class.

    Attributes
    ----------
    day : int
    total : int
        All forms born by ``day`` (:func:`misere_count_born_by`).
    p_positions : int
        Misère P-positions (misère Grundy value 0).
    tame_genus : int
        Forms whose genus is tame: ``g = γ0`` or ``{g, γ0} ⊆ {0, 1}`` (Winning Ways ch. 13).
    hereditarily_tame : int
        Forms all of whose subpositions (the form included) have tame genus.
    method : str
        ``"enumeration"`` (days 0-4: every form, genus by brute force) or ``"scan"`` (day 5:
        every irreducible option set, values by the mex rule from the day-4 forms).
    """

    day: int
    total: int
    p_positions: int
    tame_genus: int
    hereditarily_tame: int
    method: str

    def _repr_html_(self) -> str:
        """Notebook view: the counts as a card."""
        from cgtalg.core.display import card

        return card(f"misère forms born by day {self.day}", [
            ("forms", f"{self.total:,}"), ("P-positions", f"{self.p_positions:,}"),
            ("tame genus", f"{self.tame_genus:,}"), ("hereditarily tame", f"{self.hereditarily_tame:,}"),
            ("method", self.method)], kind="counts")


_CLASS_COUNTS: dict[tuple[int, str], DayClassCounts] = register_cache("misere.census class counts", {})


def misere_class_counts(day: int, method: Literal["auto", "enumeration", "scan"] = "auto") -> DayClassCounts:
    """The number of misère P-positions and of tame games among the forms born by ``day``.

    Days 0-4 are counted on the forms of :func:`misere_games_born_by` with the genus computed
    by brute force from its definition (normal Grundy value; misère Grundy value of ``G``).
    Day 5 scans all ``2^22`` option sets of the day-4 forms with the reduction rule (as
    :func:`misere_census_scan`) in a numba kernel; an irreducible ``{S}`` is a game born by
    day 5, and its normal and misère Grundy values are the mex of its options' (misère: ``1``
    for the empty set). ``method="scan"`` also works for days 1-4 (the tests compare it with
    the enumeration).

    Parameters
    ----------
    day : int
        ``0 <= day <= MAX_SCANNED_DAY``.
    method : {"auto", "enumeration", "scan"}
        ``"auto"``: enumeration up to day 4, the scan for day 5.

    Returns
    -------
    DayClassCounts

    Raises
    ------
    TypeError
        If ``day`` is not an int.
    CensusError
        If ``day`` is out of range, or ``method`` is unknown or does not apply to ``day``.

    Examples
    --------
    >>> [misere_class_counts(d).p_positions for d in range(5)]
    [0, 1, 1, 2, 4]
    >>> c = misere_class_counts(4)
    >>> c.total, c.tame_genus, c.hereditarily_tame
    (22, 14, 14)
    """
    day = _check_day(day)
    if method not in ("auto", "enumeration", "scan"):
        raise CensusError(f"unknown method {shorten(method)}: use 'auto', 'enumeration' or 'scan'")
    if day > MAX_SCANNED_DAY:
        raise CensusError(
            f"class counts go up to day {MAX_SCANNED_DAY} (day {day}'s games cannot be scanned: "
            f"their options range over the {misere_count_born_by(MAX_SCANNED_DAY)} games born by "
            f"day {MAX_SCANNED_DAY})"
        )
    if method == "auto":
        method = "enumeration" if day <= MAX_ENUMERATED_DAY else "scan"
    if method == "enumeration" and day > MAX_ENUMERATED_DAY:
        raise CensusError(f"day {day} cannot be enumerated (days 0-{MAX_ENUMERATED_DAY}); use method='scan'")
    if method == "scan" and day < 1:
        raise CensusError("the scan needs day >= 1 (day 0 has no option sets to scan)")
    key = (day, method)
    if key in _CLASS_COUNTS:
        return _CLASS_COUNTS[key]
    if method == "enumeration":
        from cgtalg.misere.genus import genus

        forms = _born_by_games(day)
        memo: dict[int, bool] = {}
        p = tame = htame = 0
        for g in forms:
            x = genus(g)
            normal, gamma0 = x.g, x.misere_grundy
            p += gamma0 == 0
            if _tame_genus(normal, gamma0):
                tame += 1
                htame += _hereditarily_tame(g, memo)
        result = DayClassCounts(day, len(forms), p, tame, htame, "enumeration")
    else:
        universe = _born_by_games(day - 1)
        _, a_masks, b_masks, is_zero, p_mask, _ = _reduction_masks(universe)
        memo = {}
        normal = np.array([grundy(g) for g in universe], dtype=np.int64)
        gamma0 = np.array([misere_grundy(g) for g in universe], dtype=np.int64)
        if len(universe) > 30 or normal.max(initial=0) > 60 or gamma0.max(initial=0) > 60:
            raise CensusError(f"day {day}: the universe is too large for the 64-bit scan")
        htame = np.array([_hereditarily_tame(g, memo) for g in universe], dtype=np.bool_)
        from cgtalg.misere._class_kernel import class_kernel  # numba: imported only when scanning

        total, p, tame, ht = class_kernel(
            len(universe),
            np.array(a_masks, dtype=np.int64),
            np.array(b_masks, dtype=np.int64),
            np.array(is_zero, dtype=np.bool_),
            np.int64(p_mask),
            normal,
            gamma0,
            htame,
        )
        result = DayClassCounts(day, int(total), int(p), int(tame), int(ht), "scan")
    _CLASS_COUNTS[key] = result
    return result


def misere_p_count_born_by(day: int) -> int:
    """The number of misère P-positions among the canonical forms born by ``day``.

    Examples
    --------
    >>> [misere_p_count_born_by(d) for d in range(5)]   # issue 9: 0, 1, 1, 2, 4
    [0, 1, 1, 2, 4]
    """
    return misere_class_counts(day).p_positions


def misere_tame_count_born_by(day: int, hereditary: bool = False) -> int:
    """The number of tame canonical forms born by ``day``: tame genus (``hereditary=False``)
    or hereditarily tame (every subposition has tame genus).

    Examples
    --------
    >>> [misere_tame_count_born_by(d) for d in range(5)]
    [1, 2, 3, 5, 14]
    >>> [misere_tame_count_born_by(d, hereditary=True) for d in range(5)]
    [1, 2, 3, 5, 14]
    """
    if not isinstance(hereditary, bool):
        raise ArgumentTypeError(f"hereditary must be a bool, got {type(hereditary).__name__}: "
                                f"{shorten(hereditary)}")
    c = misere_class_counts(day)
    return c.hereditarily_tame if hereditary else c.tame_genus
