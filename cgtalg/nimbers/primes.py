"""Small primes for the κ/α engine, without sympy: the engine's odd primes stop at the
:data:`~cgtalg.nimbers.engine.MAX_PRIME_INDEX`-th (about 1.3·10^5), where trial division is
instant, and importing sympy (about 0.3 s) would cost a light command more than its answer.
Beyond :data:`SMALL_PRIMES` both functions ask sympy.
"""

from __future__ import annotations

import bisect

__all__ = ["SMALL_PRIMES", "is_small_prime", "next_prime", "prime_pi"]

#: numbers below this are tested by trial division
SMALL_PRIMES = 1 << 18


def is_small_prime(n: int) -> bool:
    """Is ``n`` prime (trial division; meant for ``n`` below :data:`SMALL_PRIMES`)?

    Examples
    --------
    >>> [n for n in range(20) if is_small_prime(n)]
    [2, 3, 5, 7, 11, 13, 17, 19]
    """
    if n < 2:
        return False
    if n % 2 == 0:
        return n == 2
    d = 3
    while d * d <= n:
        if n % d == 0:
            return False
        d += 2
    return True


def next_prime(n: int) -> int:
    """The least prime above ``n`` (``sympy.nextprime``).

    Examples
    --------
    >>> next_prime(3), next_prime(7), next_prime(0)
    (5, 11, 2)
    """
    if n < SMALL_PRIMES:
        m = n + 1
        while not is_small_prime(m):
            m += 1
        return m
    import sympy

    return int(sympy.nextprime(n))


def prime_pi(p: int, odd_primes: list[int]) -> int:
    """The number of primes up to ``p`` (``sympy.primepi``); ``odd_primes`` is a list of the
    odd primes from 3 on, in order, extended here as far as ``p`` needs.

    Examples
    --------
    >>> prime_pi(10, [3]), prime_pi(2, [3]), prime_pi(1, [3])
    (4, 1, 0)
    """
    if p >= SMALL_PRIMES:
        import sympy

        return int(sympy.primepi(p))
    if p < 2:
        return 0
    while odd_primes[-1] < p:
        odd_primes.append(next_prime(odd_primes[-1]))
    return 1 + bisect.bisect_right(odd_primes, p)
