"""The compiled core of the ordinal nimber arithmetic: loading it, and saying which path runs.

``cgtalg/nimbers/_nimc.c`` (compiled at install time by the build hook ``hatch_build.py``)
holds, in C, the inner loops of Lenstra's κ/α engine (:mod:`cgtalg.nimbers.lenstra`): finite
nim-products below 2^64, products, squares, powers and Frobenius maps of engine elements
over a memoised table of monomial products, and the ``+`` / ``*`` slots of
:class:`cgtalg.nimbers.Nimber`. The Python implementation of the same operations stays as the
reference and the fallback: it runs when the extension is missing (no C compiler at install
time), stale (built from other ``_nimc*.c`` sources), or disabled with the environment
variable ``CGTALG_PURE_PYTHON=1``; tests check that both paths give the same results.
:class:`KernelKeys` reads the monomial keys the kernel made, one at a time, when asked.

Examples
--------
>>> status() in ("compiled", "disabled (CGTALG_PURE_PYTHON=1)") or status().startswith("python")
True
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cgtalg.ckernel import CompiledKernel

__all__ = ["KERNEL", "load", "status", "source_hash", "available", "KernelKeys"]

#: the C kernel (:class:`cgtalg.ckernel.CompiledKernel`): which implementation runs, and why
KERNEL = CompiledKernel("cgtalg.nimbers._nimc", Path(__file__).parent, "_nimc", "nimber kernel")
load, source_hash, status, available = KERNEL.functions(__name__)


class KernelKeys:
    """``id -> key`` of the monomials the C kernel interned, read from it on first use (the
    key table of :class:`cgtalg.nimbers.engine.Engine` when the kernel is in use).

    The kernel interns the keys of the monomial products it computes (millions in a large
    field); mirroring all of them in Python after each operation would cost more than the
    operation (and after a computation stopped by its budget, the next one would pay for the
    keys of the stopped one). Each key is read when an element holding its id is looked at,
    and recorded in the engine's ``_ids`` too."""

    __slots__ = ("c", "keys", "ids")

    def __init__(self, c: Any, ids: dict) -> None:
        self.c, self.ids = c, ids
        self.keys: dict[int, tuple] = {i: k for k, i in ids.items()}

    def __getitem__(self, i: int) -> tuple:
        got = self.keys.get(i)
        if got is not None:
            return got
        chain = []  # the ids down to a known key (lower ids have fewer primes: no cycle)
        while got is None:
            (K, low, top), = self.c.key_parts(i, i + 1)
            chain.append((i, K, top))
            i = low
            got = self.keys.get(i)
        for i, K, top in reversed(chain):
            got = got + ((),) * (K - len(got)) + (top,)
            self.keys[i] = got
            self.ids[got] = i
        return got
