"""Brute force from the definitions, for the tests of Norton products, heating, ordinal sums,
reduced canonical forms and atomic weights (written here, independently of cgtalg's algorithms).

A game is a literal tree ``(Left options, Right options)`` of frozensets. Outcomes come from
exhaustive play (normal play: a player unable to move loses); ``G <= H`` iff Left wins
``H - G`` moving second (Siegel CGT II.1); numbers are the literal dyadic trees
``m/2^k = {(m-1)/2^k | (m+1)/2^k}`` (ONAG ch. 0). Only the conversion of a cgtalg form to its
literal tree (:func:`tree`) touches the library.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from functools import lru_cache

EMPTY: frozenset = frozenset()
ZERO_T = (EMPTY, EMPTY)


def tree(g):
    """The literal tree of a cgtalg partizan form (or impartial form)."""
    memo = {}
    for x in g.subpositions():
        if hasattr(x, "left"):
            memo[x.id] = (frozenset(memo[o.id] for o in x.left), frozenset(memo[o.id] for o in x.right))
        else:
            opts = frozenset(memo[o.id] for o in x.options)
            memo[x.id] = (opts, opts)
    return memo[g.id]


def form(t):
    """A cgtalg form of the literal tree ``t`` (for printing and for library calls)."""
    import cgtalg as cg

    @lru_cache(maxsize=None)
    def build(x):
        return cg.pgame([build(o) for o in x[0]], [build(o) for o in x[1]])

    return build(t)


def game(left=(), right=()):
    return (frozenset(left), frozenset(right))


@lru_cache(maxsize=None)
def add(a, b):
    if a == ZERO_T:
        return b
    if b == ZERO_T:
        return a
    return (frozenset({add(x, b) for x in a[0]} | {add(a, y) for y in b[0]}),
            frozenset({add(x, b) for x in a[1]} | {add(a, y) for y in b[1]}))


@lru_cache(maxsize=None)
def neg(a):
    return (frozenset(neg(x) for x in a[1]), frozenset(neg(x) for x in a[0]))


def sub(a, b):
    return add(a, neg(b))


@lru_cache(maxsize=None)
def left_first_wins(g):
    return any(not right_first_wins(o) for o in g[0])


@lru_cache(maxsize=None)
def right_first_wins(g):
    return any(not left_first_wins(o) for o in g[1])


def outcome(g):
    lw, rw = left_first_wins(g), right_first_wins(g)
    return "N" if lw and rw else "L" if lw else "R" if rw else "P"


def le(g, h):
    """G <= H: Left wins H - G moving second (Right cannot win moving first)."""
    return not right_first_wins(sub(h, g))


def eq(g, h):
    return le(g, h) and le(h, g)


def lt(g, h):
    return le(g, h) and not le(h, g)


@lru_cache(maxsize=None)
def number(x):
    """The literal canonical tree of the dyadic rational x."""
    x = Fraction(x)
    if x.denominator == 1:
        n = int(x)
        if n == 0:
            return ZERO_T
        return (frozenset({number(n - 1)}), EMPTY) if n > 0 else (EMPTY, frozenset({number(n + 1)}))
    step = Fraction(1, x.denominator)
    return (frozenset({number(x - step)}), frozenset({number(x + step)}))


@lru_cache(maxsize=None)
def nim(n):
    opts = frozenset(nim(k) for k in range(n))
    return (opts, opts)


UP = game([ZERO_T], [nim(1)])


def multiple(n, u):
    out = ZERO_T
    for _ in range(abs(n)):
        out = add(out, u if n > 0 else neg(u))
    return out


def birthday(t):
    return 0 if t == ZERO_T else 1 + max(birthday(o) for o in t[0] | t[1])


def infinitesimal(d, eps):
    """-eps < d < eps for the positive number eps (a dyadic Fraction)."""
    e = number(eps)
    return lt(neg(e), d) and lt(d, e)


def number_value(t, max_den=64, bound=16):
    """The dyadic number (denominator <= max_den, |x| <= bound) t equals, or None: a number is
    comparable with every number, so t is located by bisection; confused with one, it is none."""
    lo = hi = None
    x = Fraction(0)
    for _ in range(60):
        a, b = le(t, number(x)), le(number(x), t)
        if a and b:
            return x
        if not a and not b:
            return None
        if b:
            lo = x
            x = x + 1 if hi is None else (x + hi) / 2
        else:
            hi = x
            x = x - 1 if lo is None else (lo + x) / 2
        if x.denominator > max_den or abs(x) > bound:
            return None
    return None


def day(n, keep=lambda l, r: True):
    """Every literal form born by day n (with the keep filter on each day's new forms)."""
    games = [ZERO_T]
    for _ in range(n):
        subsets = [frozenset(c) for k in range(len(games) + 1) for c in itertools.combinations(games, k)]
        games = [(l, r) for l in subsets for r in subsets if keep(l, r)]
    return games


def random_tree(rng: random.Random, depth: int, width: int = 2, pool=None):
    """A random literal form of birthday <= depth (at most ``width`` options a side)."""
    if depth == 0:
        return ZERO_T
    pool = pool if pool is not None else DAY1

    def pick():
        if rng.random() < 0.35:
            return rng.choice(pool)
        return random_tree(rng, depth - 1, width, pool)

    left = [pick() for _ in range(rng.randint(0, width))]
    right = [pick() for _ in range(rng.randint(0, width))]
    return game(left, right)


DAY1 = day(1)
