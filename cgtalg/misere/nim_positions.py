"""Impartial (misère) equivalence classes of Nim positions (Spindler, seed 002, §5).

A Nim position is a finite sum of nim-heaps; up to isomorphism it is the nondecreasing sequence
of its nonzero heap sizes (seed 002 §4.1), e.g. ``*4 + *1 + *0 + *1`` is ``(1, 1, 4)``.

* :func:`shortlex_key` / :func:`shortlex_precedes`: the quasi-lexicographic (shortlex) order of
  Definition 3 (shorter first, then lexicographic).
* :func:`nim_reduced_form`: the reduced form of Definition 5: (i) while two heaps are odd,
  lower the lowest pair by one; (ii) an odd heap that is not the largest heap is lowered by one
  and a largest heap raised by one; (iii) empty heaps are deleted. By Theorem 5
  (``*n + *1 ≡ *(n ⊕ 1)``) it is impartially equivalent to the position (Corollary 1).
* :func:`nim_positions`: every Nim position of total size ``<= n`` (partitions), in shortlex order.
* :func:`check_nim_position_classes`: verifies Theorem 6 ("impartially equivalent Nim positions
  have isomorphic reduced forms") for all positions of size ``<= n`` with the equivalence test
  :func:`cgtalg.misere.equivalent`: each position is proved equivalent to its reduced form (a
  Theorem 1 certificate), and any two distinct reduced forms with equal normal-play Grundy value
  are proved inequivalent (a distinguishing game ``T``). Reduced forms with different Grundy
  values need no search: misère-equal impartial games have equal normal-play Grundy values
  (Conway's reductions preserve the normal value; Siegel CGT §V.3), a fact the tests check by
  brute force. Every certificate can be re-checked with :func:`cgtalg.misere.check_proof`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import reduce
from typing import Any, Iterable, Iterator, Sequence

import numpy as np

from cgtalg.core.game import Game, nim, zero
from cgtalg.errors import ArgumentTypeError, ComputationLimitError, NimPositionError, require_int, shorten

__all__ = [
    "nim_position",
    "nim_position_game",
    "nim_reduced_form",
    "is_nim_reduced",
    "shortlex_key",
    "shortlex_precedes",
    "nim_positions",
    "nim_positions_of_size",
    "NimClassCheck",
    "check_nim_position_classes",
    "check_size_level",
    "MAX_CLASS_SIZE",
]

#: The largest total size :func:`check_nim_position_classes` accepts in one call (the number of
#: positions grows like the partition numbers, p(40) = 37338, and each needs a search).
MAX_CLASS_SIZE = 40

Position = tuple[int, ...]


def nim_position(heaps: Iterable[Any]) -> Position:
    """The Nim position of ``heaps`` as Spindler writes it: the nonzero sizes, nondecreasing.

    Parameters
    ----------
    heaps : iterable of int
        Heap sizes ``>= 0`` (order and zeros do not matter).

    Returns
    -------
    tuple of int

    Raises
    ------
    ArgumentTypeError
        If ``heaps`` is not an iterable of ints (a str, a bool or a float is refused; a
        ``TypeError``).
    NimPositionError
        If a heap size is negative.

    Examples
    --------
    >>> nim_position([4, 1, 0, 1])      # seed 002 §4.1: 4 + 1 + 0 + 1 is (1, 1, 4)
    (1, 1, 4)
    """
    if isinstance(heaps, (str, bytes)) or not hasattr(heaps, "__iter__"):
        raise ArgumentTypeError(f"heaps must be an iterable of ints, got {type(heaps).__name__}: "
                                f"{shorten(heaps)}")
    out = []
    for h in heaps:
        if isinstance(h, bool) or not isinstance(h, (int, np.integer)):
            raise ArgumentTypeError(f"heap sizes must be ints, got {type(h).__name__}: {shorten(h)}")
        h = int(h)
        if h < 0:
            raise NimPositionError(f"heap sizes must be >= 0, got {h}")
        if h:
            out.append(h)
    return tuple(sorted(out))


def nim_position_game(heaps: Iterable[Any]) -> Game:
    """The form ``*a1 + *a2 + ...`` of a Nim position (``0`` for no heaps).

    Examples
    --------
    >>> str(nim_position_game([2, 1]))
    '*+*2'
    """
    pos = nim_position(heaps)
    return reduce(lambda a, b: a + b, (nim(h) for h in pos), zero) if pos else zero


def shortlex_key(seq: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """The sort key of the quasi-lexicographic (shortlex) order, seed 002 Definition 3.

    Examples
    --------
    >>> sorted([(2, 2, 4, 4, 5), (2, 9), (2, 2, 2, 4, 5)], key=shortlex_key)
    [(2, 9), (2, 2, 2, 4, 5), (2, 2, 4, 4, 5)]
    """
    if isinstance(seq, (str, bytes)) or not hasattr(seq, "__iter__"):
        raise ArgumentTypeError(f"a shortlex sequence must be an iterable of ints, got "
                                f"{type(seq).__name__}: {shorten(seq)}")
    t = tuple(require_int(x, "an entry of a shortlex sequence") for x in seq)
    return (len(t), t)


def shortlex_precedes(a: Sequence[int], b: Sequence[int]) -> bool:
    """``A ≺ B`` in the shortlex order (seed 002 Definition 3): ``A`` is shorter, or has the
    same length and precedes ``B`` lexicographically.

    Examples
    --------
    >>> shortlex_precedes((2, 9), (2, 2, 2, 4, 5)), shortlex_precedes((2, 2, 2, 4, 5), (2, 2, 4, 4, 5))
    (True, True)
    >>> shortlex_precedes((1, 2), (1, 2))
    False
    """
    return shortlex_key(a) < shortlex_key(b)


def nim_reduced_form(heaps: Iterable[Any]) -> Position:
    """The reduced form of a Nim position (Spindler, seed 002, Definition 5).

    Steps: (i) while at least two heaps are odd, replace the lowest pair of odd heaps by heaps
    one smaller; (ii) if one heap is odd and it is not the largest heap, lower it by one and
    raise a largest heap by one; (iii) delete the empty heaps. The result is impartially
    (misère) equivalent to the position (Corollary 1), and by Theorem 6 two positions are
    equivalent exactly when their reduced forms agree.

    Parameters
    ----------
    heaps : iterable of int
        Heap sizes ``>= 0``.

    Returns
    -------
    tuple of int
        The reduced form, nondecreasing.

    Raises
    ------
    TypeError
        If ``heaps`` is not an iterable of ints.
    NimPositionError
        If a heap size is negative.

    Examples
    --------
    >>> nim_reduced_form([1, 1])          # *1 + *1 ≡ 0 (Theorem 5 with n = 1)
    ()
    >>> nim_reduced_form([3, 5, 2])       # the odd pair 3, 5 becomes 2, 4
    (2, 2, 4)
    >>> nim_reduced_form([3, 4])          # odd 3 is not largest: (2, 5)
    (2, 5)
    >>> nim_reduced_form([3, 3, 3])       # (2, 2, 3): the odd heap is the largest
    (2, 2, 3)
    """
    h = list(nim_position(heaps))
    # (i) the lowest pair of odd heaps, repeatedly (h stays sorted: lowering an odd a by one
    # keeps it >= its predecessor, which is either < a, or equal to a and then odd too)
    while True:
        odd = [i for i, x in enumerate(h) if x % 2]
        if len(odd) < 2:
            break
        h[odd[0]] -= 1
        h[odd[1]] -= 1
        h.sort()
    # (ii) a single odd heap that is not the largest
    odd = [i for i, x in enumerate(h) if x % 2]
    if odd and h[odd[0]] < h[-1]:
        h[odd[0]] -= 1
        h[-1] += 1
    # (iii) delete empty heaps
    return tuple(sorted(x for x in h if x))


def is_nim_reduced(heaps: Iterable[Any]) -> bool:
    """Whether a Nim position is its own reduced form (at most one odd heap, and it is a
    unique largest heap, seed 002 Lemma 9's description).

    Examples
    --------
    >>> is_nim_reduced([2, 3]), is_nim_reduced([3, 3]), is_nim_reduced([1, 1])
    (True, False, False)
    """
    pos = nim_position(heaps)
    return nim_reduced_form(pos) == pos


def _check_size(n: object, name: str = "max_size") -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise ArgumentTypeError(f"{name} must be an int, got {type(n).__name__}: {shorten(n)}")
    n = int(n)
    if n < 0:
        raise NimPositionError(f"{name} must be >= 0, got {shorten(n)}")
    return n


def _partitions(n: int, largest: int) -> Iterator[tuple[int, ...]]:
    """Partitions of ``n`` into parts ``<= largest``, as nondecreasing tuples."""
    if n == 0:
        yield ()
        return
    for k in range(min(n, largest), 0, -1):
        for rest in _partitions(n - k, k):
            yield rest + (k,)


def nim_positions_of_size(n: int) -> list[Position]:
    """All Nim positions of total size ``n`` (the partitions of ``n``), in shortlex order.

    Raises
    ------
    TypeError
        If ``n`` is not an int.
    NimPositionError
        If ``n`` is negative.
    ComputationLimitError
        If ``n > MAX_CLASS_SIZE``.

    Examples
    --------
    >>> nim_positions_of_size(4)
    [(4,), (1, 3), (2, 2), (1, 1, 2), (1, 1, 1, 1)]
    """
    n = _check_size(n, "n")
    if n > MAX_CLASS_SIZE:
        raise ComputationLimitError(
            f"Nim positions of size {n} are too many to list here (limit MAX_CLASS_SIZE = "
            f"{MAX_CLASS_SIZE}: p({MAX_CLASS_SIZE}) = 37338 partitions)"
        )
    return sorted(_partitions(n, n), key=shortlex_key)


def nim_positions(max_size: int) -> list[Position]:
    """All Nim positions of total size ``<= max_size``, in shortlex order (Definition 3).

    Raises
    ------
    TypeError
        If ``max_size`` is not an int.
    NimPositionError
        If ``max_size`` is negative.
    ComputationLimitError
        If ``max_size > MAX_CLASS_SIZE``.

    Examples
    --------
    >>> nim_positions(3)
    [(), (1,), (2,), (3,), (1, 1), (1, 2), (1, 1, 1)]
    """
    max_size = _check_size(max_size)
    out: list[Position] = []
    for n in range(max_size + 1):
        out.extend(nim_positions_of_size(n))
    return sorted(out, key=shortlex_key)


def _xor(pos: Sequence[int]) -> int:
    return reduce(lambda a, b: a ^ b, pos, 0)


@dataclass(repr=False)
class NimClassCheck:
    """What :func:`check_nim_position_classes` proved about the Nim positions of size ``<= n``.

    Attributes
    ----------
    max_size : int
        The bound ``n`` on the total size.
    positions : int
        The number of positions checked (partitions of ``0..n``).
    classes : dict
        Reduced form -> the positions of that class (in shortlex order); the keys are the
        impartial equivalence classes (Theorem 6).
    equivalences : list of (position, reduced form, EquivalenceResult)
        One certificate per position that is not already reduced: position ≡ its reduced form.
    distinctions : list of (reduced form, reduced form, EquivalenceResult)
        One certificate (a distinguishing game) per pair of distinct reduced forms with equal
        normal-play Grundy value; pairs with different Grundy values are inequivalent because
        misère-equal games have equal normal-play values.
    holds : bool
        Theorem 6 holds for every position checked (all equivalences proved, all distinctions
        found). A failure lists the offending pairs in ``failures``.
    failures : list of str
    """

    max_size: int
    positions: int = 0
    classes: dict[Position, list[Position]] = field(default_factory=dict)
    equivalences: list = field(default_factory=list, repr=False)
    distinctions: list = field(default_factory=list, repr=False)
    failures: list[str] = field(default_factory=list)

    @property
    def holds(self) -> bool:
        return not self.failures

    @property
    def num_classes(self) -> int:
        return len(self.classes)

    def __repr__(self) -> str:
        return (f"NimClassCheck(max_size={self.max_size}, positions={self.positions}, "
                f"classes={self.num_classes}, holds={self.holds})")

    def _repr_html_(self) -> str:
        """Notebook view: the verdict, the counts, the classes (folded) and the failures."""
        from cgtalg.core.display import card, details, grid_html, short

        def text(p: Position) -> str:
            return " + ".join(map(str, p)) or "0"

        classes = grid_html(["reduced form", "positions", "members"],
                            ([text(rep), len(ms), short("; ".join(text(m) for m in ms), 200)]
                             for rep, ms in self.classes.items()))
        rows = [("theorem", "holds" if self.holds else "FAILS"), ("sizes", f"0 .. {self.max_size}"),
                ("positions", self.positions), ("classes", self.num_classes),
                ("equivalence proofs", len(self.equivalences)), ("distinguishers", len(self.distinctions))]
        parts = [details(f"the {self.num_classes} classes", classes)]
        if self.failures:
            parts.append(details(f"{len(self.failures)} failures", "<br>".join(short(f, 300) for f in self.failures[:50])))
        return card("Nim position classes (Spindler, Theorem 6)", rows, parts, kind="nim-classes")


def check_size_level(
    n: int, earlier_reduced: Sequence[Position], result: NimClassCheck
) -> list[Position]:
    """Check the positions of size exactly ``n`` against the reduced forms of sizes ``< n``
    (``earlier_reduced``); add the certificates to ``result`` and return the new reduced forms
    (the reduced positions of size ``n``). Used by :func:`check_nim_position_classes` and the
    resumable tool ``tools/nim_position_classes.py``.

    Parameters
    ----------
    n : int
        The total size, ``0 <= n <= MAX_CLASS_SIZE``.
    earlier_reduced : sequence of tuple
        Every reduced form of size ``< n`` (the classes found so far).
    result : NimClassCheck
        Receives the positions, classes, certificates and failures of size ``n``.

    Returns
    -------
    list of tuple
        The reduced forms of size ``n`` (the new classes).

    Raises
    ------
    TypeError, NimPositionError, ComputationLimitError
        As :func:`nim_positions_of_size`.

    Examples
    --------
    >>> chk = NimClassCheck(2)
    >>> check_size_level(2, [(), (1,)], chk), chk.classes
    ([(2,)], {(2,): [(2,)], (): [(1, 1)]})
    """
    from cgtalg.misere.equivalence import equivalent

    by_value: dict[int, list[Position]] = {}
    for r in earlier_reduced:
        by_value.setdefault(_xor(r), []).append(r)
    new: list[Position] = []
    for pos in nim_positions_of_size(n):
        result.positions += 1
        red = nim_reduced_form(pos)
        result.classes.setdefault(red, []).append(pos)
        if red != pos:
            r = equivalent(nim_position_game(pos), nim_position_game(red))
            result.equivalences.append((pos, red, r))
            if not r.holds:
                result.failures.append(f"{pos} is not equivalent to its reduced form {red}")
            continue
        for other in by_value.get(_xor(pos), []) + [x for x in new if _xor(x) == _xor(pos)]:
            r = equivalent(nim_position_game(other), nim_position_game(pos))
            result.distinctions.append((other, pos, r))
            if r.holds:
                result.failures.append(f"distinct reduced forms {other} and {pos} are equivalent")
        new.append(pos)
    return new


def check_nim_position_classes(max_size: int, progress: bool = False) -> NimClassCheck:
    """Verify Spindler's Theorem 6 for every Nim position of total size ``<= max_size``.

    Every position that is not reduced is proved impartially (misère) equivalent to its
    reduced form (Definition 5) by :func:`cgtalg.misere.equivalent` (a Theorem 1 certificate),
    and every pair of distinct reduced forms of equal normal-play Grundy value is proved
    inequivalent by a distinguishing game. So the reduced forms are exactly the equivalence
    classes: impartially equivalent positions have isomorphic reduced forms (Theorem 6), and
    conversely (Corollary 1).

    Parameters
    ----------
    max_size : int
        ``0 <= max_size <= MAX_CLASS_SIZE``.
    progress : bool
        Show a tqdm progress bar over the sizes.

    Returns
    -------
    NimClassCheck
        ``.holds``, ``.num_classes``, and the certificates (each accepted by
        :func:`cgtalg.misere.check_proof`).

    Raises
    ------
    TypeError
        If ``max_size`` is not an int.
    NimPositionError
        If ``max_size`` is negative.
    ComputationLimitError
        If ``max_size > MAX_CLASS_SIZE``.

    Examples
    --------
    >>> chk = check_nim_position_classes(4)
    >>> chk.holds, chk.positions, chk.num_classes
    (True, 12, 6)
    >>> sorted(chk.classes, key=shortlex_key)
    [(), (1,), (2,), (3,), (4,), (2, 2)]
    """
    max_size = _check_size(max_size)
    if max_size > MAX_CLASS_SIZE:
        raise ComputationLimitError(
            f"max_size {max_size} is beyond MAX_CLASS_SIZE = {MAX_CLASS_SIZE} (p({MAX_CLASS_SIZE}) "
            f"= 37338 positions of that size alone, each needing an equivalence search)"
        )
    result = NimClassCheck(max_size)
    reduced: list[Position] = []
    sizes: Iterable[int] = range(max_size + 1)
    if progress:
        from tqdm import tqdm

        sizes = tqdm(sizes, desc="Nim positions by size", unit="size")
    for n in sizes:
        reduced.extend(check_size_level(n, reduced, result))
    return result
