"""The referee of periodicity certificates (``cgtalg period CODE --json``, a result's ``to_json()``).

The claim, as the document states it: the Grundy sequence of a heap game satisfies
``G(n + p) = G(n)`` for every ``n >= n0``, with ``p`` the least period and ``n0`` the least
preperiod (the last exceptional value is ``G(n0 - 1)``), proved by a named theorem whose bound
is met. The referee re-derives every part of it:

1. the values ``G(0), G(1), ...`` by its own mex (:func:`grundy_values`), from the moves of
   :func:`cgtalg.referee.heaps.heap_rules`;
2. the theorem that applies and its bound (:func:`certificate_bound`);
3. ``G(n) = G(n + p)`` on the whole range the theorem needs, ``G(n0 - 1) != G(n0 - 1 + p)``
   (no smaller preperiod), and no ``p / q`` (``q`` a prime factor of ``p``) is a period of the
   periodic part (no smaller period);
4. every quoted field: ``period``, ``preperiod``, ``saltus``, ``certified``, ``status``, ``k``,
   ``theorem``, ``bound``, ``required_values``, ``values_checked``, ``last_exceptional``,
   ``summary``.

The periodicity theorem (Guy & Smith 1956; Winning Ways ch. 4; Siegel, CGT IV.2), as used here
-----------------------------------------------------------------------------------------------
Let a finite take-and-break code take at most ``k`` tokens in a move and leave at most ``h``
non-empty heaps of one heap (``h = 1`` without splits, ``2`` for octal codes with a digit
using bit 4, ``3`` for hexadecimal codes with a digit using bit 8). Write ``m = max(n0, 1)``.
If ``G(n + p) = G(n)`` for ``n0 <= n < L - p`` where ``L = h*m + h*p + k``, then it holds for
every ``n >= n0``.

*Proof.* Induction on ``n >= L - p``, assuming ``G(j + p) = G(j)`` for ``n0 <= j < n``. A move
from heap ``n + p`` takes ``t <= k`` tokens (``n + p > k``: it cannot take the whole heap) and
leaves at most ``h`` heaps summing to ``n + p - t``; the largest, ``a``, is at least
``(n + p - k) / h >= p + m`` because ``n >= h*m + (h - 1)*p + k``. Replacing ``a`` by ``a - p``
(``>= m >= 1``, still non-empty: the move keeps its number of heaps, its ``t`` and its digit's
bit, so it is a move from heap ``n``) keeps the value, as ``n0 <= a - p < n``. Conversely a
move from heap ``n`` leaves a largest heap ``b >= (n - k) / h >= n0``, ``b < n``, and ``b + p``
gives a move from heap ``n + p`` with the same value. So heaps ``n`` and ``n + p`` have the same
set of option values, and the same mex. ``max(n0, 1)``: with ``n0 = 0`` the shifted heap
``a - p`` could be empty, turning a split into a one-heap move that the digit may not allow.
For ``h = 1`` the bound reads ``L = m + p + k``: one-heap moves ``n + p - t`` and ``n - t`` need
``n - t >= m`` only.

Grundy's game (unequal splits, no bound on the tokens taken: a split of heap ``n + p`` into
``a + p`` and ``a`` has no counterpart at heap ``n``) and infinite codes (no ``k``) have no such
theorem: a document claiming a certified period for them is rejected. Arithmetic periodicity
(``G(n + p) = G(n) + s``, ``s != 0``) never holds for finite codes (Horrocks & Nowakowski 2003);
the referee knows no theorem certifying it, so a certified saltus is rejected too.

A document that is not certified (``status`` ``detected`` or ``none``) claims nothing about
the sequence: its verdict says so (ok, "claims nothing proved"); when the prefix it describes
is short, the repetition it says it saw is checked on the referee's own values.

Speed: the rare/common method
-----------------------------
``G(n) = mex`` of the option values, and a split of ``n - t`` into ``a + b`` has the value
``G(a) xor G(b)``: the naive mex costs ``O(n)`` per heap. For long sequences of octal codes
(``0.16``: 509,622 values) :func:`grundy_values` uses the "sparse space" argument (Winning Ways
ch. 4, "Sparse space spells speed"; Gangolli & Plambeck 1989): for a mask ``w`` call a value
``v`` *common* when ``popcount(v & w)`` is odd and *rare* otherwise. The xor of two common
values is rare. So, with ``c`` the least common value not excluded by the one-heap options and
the splits with a part at a *rare position* (a heap whose value is rare), no option has the
value ``c`` (a split of two common parts has a rare value): ``G(n) <= c``. ``G(n) = c`` exactly
when every rare value below ``c`` is the value of some option, which a scan of the splits
usually shows after a few pairs; otherwise the scan sees every option and ``G(n)`` is their
(rare) mex. This is correct for any mask; the mask only decides the speed, and is chosen to make
rare positions fewest.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from cgtalg.referee._verdict import Malformed, Verdict
from cgtalg.referee.heaps import HeapRules, heap_rules

__all__ = ["recognise", "check", "check_period", "grundy_values", "grundy_by_definition", "certificate_bound",
           "required_values", "rules_of", "MAX_VALUES"]

#: the most Grundy values the referee computes for one document (about a minute per million
#: values of a sparse octal code; a certificate needing more is reported as not re-checked)
MAX_VALUES = 4_000_000
#: a repetition "seen" on a prefix (an uncertified document) is re-checked on prefixes this short
SEEN_CHECK_VALUES = 1 << 15
#: below this many values the plain mex is used (the rare/common method pays off beyond)
_NAIVE_VALUES = 4096

_CHECKER = "cgtalg.referee.periodicity.check_period"


# -- the game's digits ------------------------------------------------------------------------
def rules_of(name: Any) -> HeapRules:
    """The referee's rules of the game a periodicity document names (``ruleset``)."""
    return heap_rules(name)


def _digit(rules: HeapRules, t: int) -> int:
    """What a move taking ``t`` tokens may leave, as a code digit (bit 1: nothing; 2: one heap;
    4: two heaps; 8: three heaps); subtraction and all-but games take ``t`` leaving one heap or
    none."""
    if rules.kind == "subtraction":
        return 3 if t >= 1 and t in rules.numbers else 0
    if rules.kind == "allbut":
        return 3 if t >= 1 and t not in rules.numbers else 0
    return rules.digit(t)


def _takes(rules: HeapRules, top: int) -> dict[int, np.ndarray]:
    """``{bit: array of t}``: the numbers of tokens ``t <= top`` whose digit has the bit
    (bits 1 and 2 for ``t >= 1`` only)."""
    out = {}
    ts = range(0, top + 1)
    for bit in (1, 2, 4, 8):
        out[bit] = np.array([t for t in ts if _digit(rules, t) & bit and (t >= 1 or bit >= 4)], dtype=np.int64)
    return out


# -- Grundy values ----------------------------------------------------------------------------
def grundy_by_definition(rules: HeapRules, count: int) -> list[int]:
    """``G(0) .. G(count-1)`` straight from the definition: the mex of the xor of the values of
    the heaps each option of :meth:`HeapRules.options` leaves (slow; the reference the fast
    kernel is tested against)."""
    G: list[int] = []
    for n in range(count):
        seen = set()
        for parts in rules.options(n):
            v = 0
            for a in parts:
                v ^= G[a]
            seen.add(v)
        g = 0
        while g in seen:
            g += 1
        G.append(g)
    return G


def _mex(marked: np.ndarray) -> int:
    free = np.flatnonzero(~marked)
    return int(free[0]) if free.size else int(marked.size)


def _pair_values(G: np.ndarray, m: int) -> np.ndarray:
    """``G(a) xor G(m - a)`` for ``a = 1 .. m // 2`` (every split of ``m`` into two heaps)."""
    h = m // 2
    return G[1:h + 1] ^ G[m - 1:m - h - 1:-1] if h else G[:0]


def _naive(rules: HeapRules, count: int) -> np.ndarray:
    """The mex, vectorised per heap (every option's value computed)."""
    G = np.zeros(count, dtype=np.int64)
    finite = rules.k is not None
    T = _takes(rules, rules.k if finite else max(count - 1, 0))
    three = T[8].size > 0
    pairs_of: list[np.ndarray] = []  # three heaps: the values of the two-heap splits of each m
    for n in range(count):
        if three:  # the splits of n into two heaps use G(1) .. G(n-1) only
            pairs_of.append(np.unique(_pair_values(G, n)) if n >= 2 else G[:0])
        vals = []
        if rules.kind == "grundy":  # two unequal non-empty heaps
            a = np.arange(1, (n + 1) // 2)
            vals.append(G[n - a] ^ G[a])
        else:
            if n >= 1 and _digit(rules, n) & 1:
                vals.append(np.zeros(1, dtype=np.int64))
            t = T[2][T[2] < n]
            vals.append(G[n - t])
            for t in T[4][T[4] <= n - 2]:
                vals.append(_pair_values(G, n - int(t)))
            if three:
                for t in T[8][T[8] <= n - 3]:
                    m = n - int(t)
                    # three heaps: a, and a split of m - a into two (every unordered triple appears)
                    vals.extend(G[a] ^ pairs_of[m - a] for a in range(1, m - 1))
        allv = np.concatenate(vals) if vals else G[:0]
        if allv.size:
            marked = np.zeros(int(allv.max()) + 2, dtype=bool)
            marked[allv] = True
            G[n] = _mex(marked)
    return G


def _parity_table(size: int, mask: int) -> np.ndarray:
    """``rare[v]`` for ``v < size``: ``popcount(v & mask)`` even."""
    v = np.arange(size)
    bits = np.zeros(size, dtype=np.int64)
    w = v & mask
    while w.any():
        bits += w & 1
        w >>= 1
    return bits % 2 == 0


def _best_mask(G: np.ndarray, n: int) -> int:
    """The mask making the fewest of ``G(1) .. G(n-1)`` rare (ties: the smallest mask)."""
    counts = np.bincount(G[1:n])
    size = 1 << max(1, int(counts.size - 1).bit_length())
    counts = np.concatenate([counts, np.zeros(size - counts.size, dtype=counts.dtype)])
    best, best_rare = 1, None
    for mask in range(1, size):
        rare = int(counts[_parity_table(size, mask)].sum())
        if best_rare is None or rare < best_rare:
            best, best_rare = mask, rare
    return best


def _rare_common(rules: HeapRules, count: int) -> np.ndarray:
    """The Grundy values of a finite code whose moves leave at most two heaps, by the rare/common
    method (module docstring); equal to :func:`_naive` by the argument there."""
    T = _takes(rules, rules.k)
    ones, splits = T[2], T[4]
    start = min(count, _NAIVE_VALUES)
    G = np.zeros(count, dtype=np.int64)
    G[:start] = _naive(rules, start)
    mask = _best_mask(G, start)
    size = 1 << (int(G[:start].max()).bit_length() + 1)
    rare_value = _parity_table(size, mask)
    common_value = ~rare_value
    rare_pos = [int(r) for r in np.flatnonzero(rare_value[G[1:start]]) + 1]
    R = np.array(rare_pos, dtype=np.int64)
    top = int(G[:start].max())
    take_all = {n for n in range(start, min(count, rules.k + 1)) if _digit(rules, n) & 1}  # n <= k only
    for n in range(start, count):
        marked = np.zeros(size, dtype=bool)
        if take_all and n in take_all:
            marked[0] = True
        t = ones[ones < n]
        marked[G[n - t]] = True
        for t in splits:
            m = n - int(t)
            if m < 2:
                continue
            r = R[R < m]
            marked[G[r] ^ G[m - r]] = True
            if m % 2 == 0:
                marked[0] = True  # the split (m/2, m/2)
        free = common_value & ~marked  # options are below size/2, so a common value is free (else: size)
        c = int(free.argmax()) if free.any() else size  # the least common value no option has
        need = rare_value[:c] & ~marked[:c]
        if need.any():
            need = need.nonzero()[0]
            # scan every split, a few pairs at a time, until each rare value below c is seen
            lo, step, done = 1, 64, False
            ms = [n - int(t) for t in splits if n - int(t) >= 2]
            hmax = max((m // 2 for m in ms), default=0)
            while lo <= hmax:
                hi = min(hmax + 1, lo + step)
                for m in ms:
                    h = min(hi, m // 2 + 1)
                    if h > lo:
                        marked[G[lo:h] ^ G[m - lo:m - h:-1]] = True
                if marked[need].all():
                    done = True
                    break
                lo, step = hi, step * 2
            if not done and not marked[need].all():
                c = _mex(marked)  # every option seen: a rare value, a new rare position
                rare_pos.append(n)
                R = np.array(rare_pos, dtype=np.int64)
        G[n] = c
        if c > top:
            top = c
            if c >= size // 2:  # values may now reach past the table: re-choose the split
                size = 1 << (c.bit_length() + 1)
                mask = _best_mask(G, n + 1)
                rare_value = _parity_table(size, mask)
                common_value = ~rare_value
                rare_pos = [int(r) for r in np.flatnonzero(rare_value[G[1:n + 1]]) + 1]
                R = np.array(rare_pos, dtype=np.int64)
    return G


def grundy_values(rules: HeapRules, count: int) -> np.ndarray:
    """``G(0) .. G(count-1)`` of the heap game ``rules`` by the referee's own mex: the
    rare/common method for long sequences of finite codes with splits into two heaps, the
    vectorised mex otherwise.

    Raises
    ------
    Malformed
        When ``count`` exceeds :data:`MAX_VALUES`.

    Examples
    --------
    >>> grundy_values(heap_rules("0.77"), 12).tolist()
    [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
    """
    if count > MAX_VALUES:
        raise Malformed(f"{count:,} Grundy values are more than the referee computes ({MAX_VALUES:,})")
    if count <= 0:
        return np.zeros(0, dtype=np.int64)
    if (rules.kind in ("code", "subtraction") and rules.k is not None and count > _NAIVE_VALUES
            and rules.max_parts == 2 and _takes(rules, rules.k)[4].size):
        return _rare_common(rules, count)
    return _naive(rules, count)


# -- the theorem ------------------------------------------------------------------------------
def certificate_bound(rules: HeapRules) -> tuple[str, int, int] | str:
    """``(theorem, h, k)``: the periodicity theorem that applies to ``rules`` (module docstring),
    with the most heaps ``h`` a move leaves and the most tokens ``k`` it takes; or why none does."""
    if rules.kind == "grundy":
        return "Grundy's game has no periodicity theorem (a split into unequal heaps takes no bounded number of tokens)"
    if rules.k is None:
        return f"{rules.name} takes unboundedly many tokens: no periodicity theorem applies"
    h = rules.max_parts
    if h == 1:
        return ("periodicity theorem for subtraction games (moves leave at most one heap; Winning Ways ch. 4)", 1,
                rules.k)
    if h == 2:
        return "Guy-Smith periodicity theorem (moves leave at most two heaps; Guy & Smith 1956)", 2, rules.k
    return "Guy-Smith periodicity theorem for moves leaving up to three heaps (hexadecimal codes)", 3, rules.k


def required_values(h: int, k: int, n0: int, p: int) -> int:
    """The values the theorem needs: ``L = h*max(n0,1) + h*p + k`` (module docstring)."""
    return h * max(n0, 1) + h * p + k


def _prime_factors(n: int) -> list[int]:
    out, q = [], 2
    while q * q <= n:
        if n % q == 0:
            out.append(q)
            while n % q == 0:
                n //= q
        q += 1
    if n > 1:
        out.append(n)
    return out


def _theorem_named(text: Any, h: int) -> bool:
    """Whether the theorem a document names is the one the referee applies (``h`` heaps)."""
    t = str(text or "").lower().replace("–", "-")
    if h == 1:
        return "subtraction" in t or "without splits" in t
    three = "3 heaps" in t or "three heaps" in t
    return "guy" in t and "smith" in t and (three if h == 3 else not three)


def _int(doc: dict, key: str) -> int | None:
    v = doc.get(key)
    if isinstance(v, bool) or not isinstance(v, int):
        return None
    return v


def _bound_total(text: Any) -> int | None:
    """The value of the arithmetic after the first ``=`` of a bound text such as
    ``L >= 2*max(n0,1) + 2p + k = 2*71 + 2*12 + 2 = 168``, if it is consistent."""
    parts = str(text or "").split("=")
    if len(parts) < 3:
        return None
    total = 0
    for term in parts[-2].split("+"):
        nums = [int(x) for x in re.findall(r"\d+", term)]
        if not nums:
            return None
        prod = 1
        for x in nums:
            prod *= x
        total += prod
    last = re.findall(r"\d+", parts[-1])
    if not last or int(last[0]) != total:
        return None
    return total


# -- the check --------------------------------------------------------------------------------
def recognise(doc: dict) -> bool:
    """A periodicity result: ``ruleset``, ``status``, ``certified`` and a period field."""
    return isinstance(doc, dict) and "ruleset" in doc and "status" in doc and "certified" in doc and (
        "period" in doc or "seen_period" in doc)


def check(doc: dict) -> list[Verdict]:
    """The verdicts on a periodicity document (one)."""
    return [check_period(doc)]


def check_period(doc: dict) -> Verdict:
    """Re-derive the periodicity claim of ``doc`` (module docstring).

    Raises
    ------
    Malformed
        When the document names no game the referee reads, or its period is not a number.
    """
    name = doc.get("ruleset")
    rules = rules_of(name)
    certified = doc.get("certified")
    if certified is not True or doc.get("status") != "certified":
        return _uncertified(doc, rules)
    p, n0 = _int(doc, "period"), _int(doc, "preperiod")
    if p is None or n0 is None or p < 1 or n0 < 0:
        raise Malformed(f"{name}: a certified period is a positive integer and a preperiod a non-negative "
                        f"one, not period {doc.get('period')!r}, preperiod {doc.get('preperiod')!r}")
    claim = f"{name}: period {p}, preperiod {n0} (certified)"
    how = certificate_bound(rules)
    if isinstance(how, str):
        return Verdict("periodicity", claim, False, ["FAIL: certified: " + how], _CHECKER)
    theorem, h, k = how
    v = Verdict("periodicity", claim, True, [], f"{_CHECKER} ({theorem})")
    saltus = doc.get("saltus", 0)
    if saltus not in (0, None):
        v.fail(f"saltus: {saltus!r} claimed, but no theorem certifies arithmetic periodicity of a finite code "
               "(finite codes are never arithmetic-periodic, Horrocks & Nowakowski 2003)")
    L = required_values(h, k, n0, p)
    if L > MAX_VALUES:
        return v.fail(f"period: not re-checked: the theorem needs {L:,} values, more than the referee computes "
                      f"({MAX_VALUES:,})")
    G = grundy_values(rules, L)
    # G(n) = G(n + p) for n0 <= n < L - p
    bad = np.flatnonzero(G[n0:L - p] != G[n0 + p:L])
    if bad.size:
        i = n0 + int(bad[0])
        v.fail(f"period/preperiod: G({i}) = {G[i]} but G({i + p}) = {G[i + p]}: the period {p} does not hold "
               f"from heap {n0} on the {L:,} values the theorem needs")
    else:
        if n0 > 0 and G[n0 - 1] == G[n0 - 1 + p]:
            m = n0 - 1
            while m > 0 and G[m - 1] == G[m - 1 + p]:
                m -= 1
            v.fail(f"preperiod: {n0} is not the least: G({n0 - 1}) = G({n0 - 1 + p}) = {G[n0 - 1]}, so the "
                   f"period {p} holds from heap {m}")
        cycle = G[n0:n0 + p]
        for q in _prime_factors(p):
            if np.array_equal(np.roll(cycle, -(p // q)), cycle):
                v.fail(f"period: {p} is not the least period: {p // q} is one (G(n + {p // q}) = G(n) for "
                       f"every n >= {n0})")
                break
    _fields(v, doc, rules, h, k, n0, p, L)
    if v.ok:
        formula = (f"max(n0,1) + p + k = {max(n0, 1)} + {p} + {k}" if h == 1 else
                   f"{h}*max(n0,1) + {h}p + k = {h}*{max(n0, 1)} + {h}*{p} + {k}")
        v.reasons.append(f"re-derived: G(0..{L - 1}) by the referee's own mex; G(n) = G(n+{p}) for "
                         f"{n0} <= n < {L - p}; {theorem}: L >= {formula} = {L} values suffice; no smaller "
                         "preperiod; no smaller period")
    return v


def _fields(v: Verdict, doc: dict, rules: HeapRules, h: int, k: int, n0: int, p: int, L: int) -> None:
    """Every quoted field of a certified document against the re-derived facts."""
    if "k" in doc and doc.get("k") != k:
        v.fail(f"k: the document says {doc.get('k')!r}, the code's largest take is {k}")
    if "theorem" in doc and not _theorem_named(doc.get("theorem"), h):
        v.fail(f"theorem: {doc.get('theorem')!r} is not the theorem for moves leaving at most {h} heap(s)")
    req = doc.get("required_values")
    if "required_values" in doc and (not isinstance(req, int) or req < L):
        v.fail(f"required_values: {req!r} claimed, the theorem needs {L}")
    if "bound" in doc:
        total = _bound_total(doc.get("bound"))
        if total is None:
            v.fail(f"bound: {doc.get('bound')!r} is not a consistent sum")
        elif total < L:
            v.fail(f"bound: {doc.get('bound')!r} gives {total}, the theorem needs {L}")
        elif isinstance(req, int) and total != req:
            v.fail(f"bound: {doc.get('bound')!r} gives {total}, not the required_values {req}")
    checked = doc.get("values_checked")
    if "values_checked" in doc and (not isinstance(checked, int) or checked < (req if isinstance(req, int) else L)):
        v.fail(f"values_checked: {checked!r} is fewer than the values the bound needs")
    if "last_exceptional" in doc and doc.get("last_exceptional") != (n0 - 1 if n0 > 0 else None):
        v.fail(f"last_exceptional: the document says {doc.get('last_exceptional')!r}, the preperiod {n0} "
               f"makes it {n0 - 1 if n0 > 0 else None}")
    s = doc.get("summary")
    if isinstance(s, str):
        m = re.search(r"CERTIFIED period (\d+), preperiod (\d+)", s)
        last = re.search(r"last exceptional value G\((\d+)\)", s)
        if not m or (int(m.group(1)), int(m.group(2))) != (p, n0):
            v.fail(f"summary: {s!r} does not state period {p}, preperiod {n0}")
        elif (last is None) != (n0 == 0) or (last is not None and int(last.group(1)) != n0 - 1):
            v.fail(f"summary: {s!r} misstates the last exceptional value")


def _uncertified(doc: dict, rules: HeapRules) -> Verdict:
    """A document that is not certified claims nothing about the sequence; what it says it saw
    on a short prefix is checked."""
    name = doc.get("ruleset")
    status = doc.get("status")
    v = Verdict("periodicity", f"{name}: {status} (not certified)", True, [], _CHECKER)
    if doc.get("certified") not in (False, None) or status == "certified":
        return v.fail(f"certified: status {status!r} with certified = {doc.get('certified')!r} is contradictory")
    for key in ("period", "preperiod", "saltus", "theorem", "bound", "last_exceptional"):
        if doc.get(key) is not None:
            v.fail(f"{key}: an uncertified result states {key} = {doc.get(key)!r} as a fact")
    sp, s0, ss = doc.get("seen_period"), doc.get("seen_preperiod"), doc.get("seen_saltus") or 0
    n = doc.get("values_checked")
    if (status == "detected" and isinstance(sp, int) and isinstance(s0, int) and isinstance(ss, int)
            and isinstance(n, int) and sp >= 1 and 0 <= s0 and s0 + sp < n):
        if n <= SEEN_CHECK_VALUES and rules.max_parts <= 2:
            G = grundy_values(rules, n)
            if not np.array_equal(G[s0 + sp:n] - G[s0:n - sp], np.full(n - s0 - sp, ss)):
                v.fail(f"seen_period: G(n + {sp}) = G(n) + {ss} does not hold for {s0} <= n < {n - sp} on the "
                       f"first {n} values")
            else:
                v.reasons.append(f"the repetition seen (period {sp}, saltus {ss}, from heap {s0}) holds on the "
                                 f"first {n} values (recomputed)")
        else:
            v.reasons.append(f"the repetition seen on {n:,} values is not re-checked (a claim about a prefix)")
    if v.ok:
        v.reasons.insert(0, "claims nothing proved: a period seen on a finite prefix (or none) is no theorem")
    return v
