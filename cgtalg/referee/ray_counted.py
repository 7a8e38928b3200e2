"""The counted heap of an infinite-quotient certificate (``certificate.ray.counted``), checked
from the definitions: the referee's half of :mod:`cgtalg.quotients.rays_counted`.

The record ``{"heap": n, "cap": c, "count": [...]}`` says that heap ``n``, the top heap, is not
free but sits in ``R``, and that ``count[r]`` is the number of copies of ``n`` of every position
of image ``r``, capped at ``c`` (``c`` meaning ``c`` or more). The elements with count ``c`` are
*dead*: the certificate claims nothing about their positions.

**Lemma C1 (the count).** If ``count[0] = 0`` and every column adds one to the count (capped)
for heap ``n`` and nothing for the other heaps (``count[cols[row[h]][r]] = min(c, count[r] +
[h = n])`` for every ``r``), then by induction on the heaps of a position its image has count
``min(c, copies of n)``; ``u``, ``v`` and the heaps of their classes do not touch ``R``
(``n`` is in neither class); a mixed heap's column is one of those checked (``n`` is not mixed).

**Theorem C2 (verification inside X).** Let ``X`` be the positions with fewer than ``c`` copies
of ``n``. No option of a heap ``<= top`` holds heap ``n`` (checked on the referee's own moves),
so ``X`` is closed under options, and by C1 its images are exactly the elements that are not
dead. Theorem 3's induction run inside ``X``, with the N-condition required only at the
elements that are not dead (the P-condition never fires at a dead element: no dead element is in
``P``, checked), shows that a position of ``X`` is a P-position iff its image is in ``P``.

**Lemma C3 (the witness).** Lemma 7 reads positions ``position + a·u + c·v`` with the
witness's element ``r0``; when ``r0`` is not dead they are in ``X``, so Theorem C2 gives their
outcomes, and the powers of ``v`` are pairwise distinct in ``Q_n`` (the tests are positions of
heaps ``<= n``) and in every ``Q_m``, ``m >= n``. So ``infinite_from`` is ``n`` (the top heap),
not ``v``; the last finite quotient is not derived from such a certificate (Lemma 8 reads the
heaps below ``v`` only), so a counted certificate that quotes ``last_finite`` is refused.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cgtalg.referee._verdict import Malformed, Verdict

__all__ = ["read_counted", "check_counted", "dead_mask"]


def read_counted(ray: dict, nR: int, top: int, where: str) -> tuple[int, int, np.ndarray] | None:
    """``(n, cap, count)`` of ``ray["counted"]``, or None when the record has none."""
    if "counted" not in ray:
        return None
    cn = ray["counted"]
    w = where + ".counted"
    if not isinstance(cn, dict):
        raise Malformed(f"{w}: an object {{heap, cap, count}}")
    vals = []
    for key in ("heap", "cap"):
        x = cn.get(key)
        if isinstance(x, bool) or not isinstance(x, int):
            raise Malformed(f"{w}.{key}: an integer")
        vals.append(x)
    count = cn.get("count")
    if (not isinstance(count, list) or len(count) != nR
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in count)):
        raise Malformed(f"{w}.count: {nR} integers (one per element of R)")
    return vals[0], vals[1], np.asarray(count, dtype=np.int64)


def dead_mask(c: Any) -> np.ndarray:
    """The dead elements (count = cap); none without a counted heap."""
    if c.counted is None:
        return np.zeros(c.order_r, dtype=bool)
    return c.counted[2] == c.counted[1]


def check_counted(c: Any, options: list, vd: Verdict) -> None:
    """Lemma C1 and the hypotheses of Theorem C2 (module docstring); failures go to ``vd``."""
    n, cap, count = c.counted
    w = "certificate.ray.counted"
    if n != c.top or not c.u < c.v < n or n in c.us or n in c.vs:
        vd.fail(f"{w}.heap: {n}, but the counted heap must be the top heap {c.top}, above u = {c.u} and v = {c.v} "
                f"and in neither class ({list(c.us)}, {list(c.vs)})")
        return
    if cap < 1 or c.row[n] < 0:
        vd.fail(f"{w}: the cap must be >= 1 and heap {n} must map to a column")
        return
    if count[0] != 0 or count.min() < 0 or count.max() > cap:
        vd.fail(f"{w}.count: the counts are 0 .. cap = {cap}, and 0 at the identity")
        return
    for h, i in enumerate(c.row):
        if i < 0:
            continue
        want = np.minimum(count + (1 if h == n else 0), cap)
        if not np.array_equal(count[c.cols[i]], want):
            r = int(np.nonzero(count[c.cols[i]] != want)[0][0])
            vd.fail(f"{w}.count: heap {h} takes element {r} (count {int(count[r])}) to count "
                    f"{int(count[c.cols[i][r]])}, not {int(want[r])} (Lemma C1)")
            return
    for h in range(c.top + 1):
        if any(n in parts for parts in options[h]):
            vd.fail(f"{w}.heap: an option of heap {h} holds heap {n}, so the positions with fewer than {cap} "
                    f"copies of it are not closed under options")
            return
    if c.F[count == cap].any():
        vd.fail(f"{w}: a dead element (count {cap}) is in P")
