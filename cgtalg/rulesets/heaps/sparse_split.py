"""Rare/common splits of Grundy values (the sparse kernel's "sparse space"), as the Grundy
engine chooses them (:mod:`cgtalg.rulesets.heaps.grundy_engine`; both of its backends).

A split says which values are *common* for a heap: ``v`` is common for heap ``n`` iff
``popcount(v & mask) % 2 == cbit[n % 2]``; a heap whose value is not common is *rare*. The
engine chooses the split leaving the fewest heaps rare, counted for every mask at once by the
Walsh-Hadamard transform of the value counts by heap parity (the kernel
:func:`~cgtalg.rulesets.heaps.grundy_kernels.split_counts`).

References: Winning Ways ch. 4 ("Sparse space spells speed"); Gangolli & Plambeck,
Int. J. Game Theory 18 (1989) 311-320.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from cgtalg.core.lazynp import np

from cgtalg.rulesets.heaps import grundy_kernels as K
from cgtalg.rulesets.heaps.lazy_jit import python_kernels

__all__ = ["SparseSplit", "walsh_hadamard", "rare_counts", "split_counts"]


def walsh_hadamard(a: np.ndarray) -> np.ndarray:
    """Walsh-Hadamard transform: ``W[m] = sum_v a[v] * (-1)**popcount(v & m)`` (a new
    ``int64`` array; the length of ``a`` a power of two)."""
    a = np.array(a, dtype=np.int64)
    with python_kernels(4 * a.shape[0] * max(a.shape[0].bit_length(), 1)):
        return K.walsh_hadamard_inplace(a)


def rare_counts(G: np.ndarray, n: int, size: int,
                split_parity: int | None) -> tuple[np.ndarray, np.ndarray | None]:
    """How many of the heaps ``0 .. n-1`` each rare/common split leaves rare.

    ``r0[mask]``: the split "``v`` is common iff ``popcount(v & mask)`` is odd" (every heap
    alike); ``r1[mask]`` (only when every split distance has the parity ``split_parity``):
    the split whose common bit also depends on the heap's parity. Computed by the
    Walsh-Hadamard transform of the value counts by heap parity (values below ``size``, a
    power of two); ``mask = 0`` (no split) is never chosen (its count is ``2**62``). The
    kernel :func:`~cgtalg.rulesets.heaps.grundy_kernels.split_counts` computes them.
    """
    r0, r1, _, _ = split_counts(K.split_counts, lambda k: np.zeros(k, dtype=np.int64), G, n, size, split_parity)
    return r0, r1


def split_counts(kernel: Any, zeros: Callable[[int], Any], G: Any, n: int, size: int,
                 split_parity: int | None) -> tuple:
    """``(r0, r1, m0, m1)`` of :func:`~cgtalg.rulesets.heaps.grundy_kernels.split_counts` run by
    ``kernel`` (the kernel, or its Python function) on buffers made by ``zeros``."""
    g = -1 if split_parity is None else int(split_parity)
    r0, r1 = zeros(size), zeros(size if g >= 0 else 0)
    with python_kernels(4 * (n + size * max(size.bit_length(), 1))):
        m0, m1 = kernel(G, n, g, zeros(size), zeros(size), r0, r1)
    return r0, (r1 if g >= 0 else None), int(m0), int(m1)


@dataclass
class SparseSplit:
    """A rare/common split of values: ``v`` is common for heap ``n`` iff
    ``popcount(v & mask) % 2 == cbit[n % 2]``; ``rare`` is the number of rare positions."""

    mask: int
    cbit0: int
    cbit1: int
    rare: int

    @property
    def uses_position_parity(self) -> bool:
        """True when the split depends on the parity of the heap size."""
        return self.cbit0 != self.cbit1

    def is_common(self, value: int, n: int) -> bool:
        """Is ``value`` common for heap ``n``?"""
        return (bin(value & self.mask).count("1") & 1) == (self.cbit0 if n % 2 == 0 else self.cbit1)

    def describe(self) -> str:
        """Readable description of the split."""
        if not self.uses_position_parity:
            return f"common values have odd popcount(v & {self.mask:#x})"
        return (f"common values of even heaps have popcount(v & {self.mask:#x}) % 2 == {self.cbit0}, "
                f"of odd heaps == {self.cbit1}")
