"""Shared by the tests of the quotient strategies (test_quotient_extend, test_quotient_count,
test_quotient_auto, test_quotient_ray_classes, test_quotient_ray_difference)."""

from __future__ import annotations

from functools import lru_cache

from cgtalg.quotients import construct as Q
from cgtalg.quotients.state import forget_known, known_state
from cgtalg.rulesets.heaps.octal import TakeAndBreak


def fresh_quotient(code, n, strategy=None):
    """``(Q_n, its verified pretension)`` of ``code`` computed afresh (nothing remembered or
    stored is reused), with ``_extend`` replaced by ``strategy`` if given."""
    forget_known()
    saved = Q._extend
    if strategy is not None:
        Q._extend = strategy
    try:
        q = Q.misere_quotient(TakeAndBreak(code), max_heap=n, progress=False, resume=False,
                               strategy="repair")
        pre = known_state(TakeAndBreak(code)).pre
    finally:
        Q._extend = saved
        forget_known()
    return q, pre


def limited_counting(seen: list, levels: int, rays: bool = False):
    """A replacement of ``construct.extend_counting`` that counts at most ``levels`` levels, never
    closes the counter, tries the ray proofs only if ``rays``, and appends the copies of every
    level that passes to ``seen`` (then calls the construction's own ``on_level``, which stores
    it)."""
    from cgtalg.quotients.count import extend_counting as real   # not Q's, which a test replaces

    def run(*args, **kw):
        kw.update(max_levels=levels, close=False, rays=rays)
        inner = kw.get("on_level")

        def on_level(lev, *rest):
            seen.append(lev.copies)
            inner(lev, *rest)
        kw["on_level"] = on_level
        return real(*args, **kw)
    return run


def brute_misere(code: str):
    """Misère P-positions of a code ``d0.d1d2…`` by exhaustive play: digit ``t`` allows taking
    ``t`` tokens and leaving no heap (bit 1, ``t >= 1``), one heap (bit 2, ``t >= 1``) or two
    nonempty heaps (bit 4; for ``d0`` this splits a heap without taking)."""
    head, tail = code.split(".")
    digits = [int(head)] + [int(c) for c in tail]

    def opts(n):
        out = set()
        for t, d in enumerate(digits):
            if t > n:
                break
            r = n - t
            if t and d & 1 and r == 0:
                out.add(())
            if t and d & 2 and r > 0:
                out.add((r,))
            if d & 4:
                out.update((a, r - a) for a in range(1, r // 2 + 1))
        return out

    @lru_cache(None)
    def is_p(pos):
        moved = False
        for i, h in enumerate(pos):
            if i and pos[i - 1] == h:
                continue
            for o in opts(h):
                moved = True
                if is_p(tuple(sorted(pos[:i] + pos[i + 1:] + o))):
                    return False
        return moved          # no move: the player to move wins in misère play

    return lambda heaps: is_p(tuple(sorted(heaps)))


def referee_refuses_ray_edit(doc: dict, edit, part: str | None = "ray") -> bool:
    """Whether the referee refuses the document ``doc`` (a ``cgtalg quotient --json`` document
    with an infinite verdict, or ``{"certificate": …}`` alone, checked as the certificate) after
    ``edit`` is applied to its certificate's ``part`` (the ray record; None: the certificate); an
    unreadable record (``Malformed``) counts as refused."""
    import copy

    from cgtalg.referee import rays as referee_rays

    d = copy.deepcopy(doc)
    edit(d["certificate"] if part is None else d["certificate"][part])
    try:
        return not all(v.ok for v in referee_rays.check(d if len(d) > 1 else d["certificate"]))
    except Exception:
        return True
