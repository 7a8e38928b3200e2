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

import hashlib
import os
import warnings
from pathlib import Path
from types import ModuleType
from typing import Any

__all__ = ["load", "status", "source_hash", "KernelKeys"]

_LOADED = False
_MODULE: ModuleType | None = None
_STATUS = "not loaded"


def load() -> ModuleType | None:
    """The extension module ``cgtalg.nimbers._nimc``, or ``None`` when the Python path runs.

    A build whose embedded source hash differs from that of the sources beside it
    (:func:`source_hash`) is not used (with a warning saying how to rebuild), so an edited
    kernel never runs from an old build.
    """
    global _LOADED, _MODULE, _STATUS
    if _LOADED:
        return _MODULE
    _LOADED = True
    if os.environ.get("CGTALG_PURE_PYTHON", "") not in ("", "0"):
        _STATUS = "disabled (CGTALG_PURE_PYTHON=1)"
        return None
    try:
        from cgtalg.nimbers import _nimc  # type: ignore[attr-defined]
    except ImportError as exc:
        import importlib.util

        if importlib.util.find_spec("cgtalg.nimbers._nimc") is None:
            _STATUS = "python (the C kernel is not built: no C compiler when cgtalg was installed)"
        else:
            _STATUS = f"python (the C kernel failed to load: {exc})"
        return None
    expected = source_hash()  # None: the sources are not shipped beside the module
    if expected is not None and _nimc.SOURCE_HASH != expected:
        _STATUS = "python (the C kernel is stale: built from other _nimc*.c / _nimc*.h sources)"
        warnings.warn(
            "cgtalg: the compiled nimber kernel was built from another version of its sources "
            "(_nimc*.c, _nimc*.h); rebuild it with `pip install -e .` (using the Python path)",
            RuntimeWarning,
            stacklevel=2,
        )
        return None
    _MODULE = _nimc
    _STATUS = "compiled"
    return _MODULE


def source_hash() -> str | None:
    """The hash a build of the C kernel must carry to be used: the first 16 hex digits of the
    SHA-256 of the kernel's files beside this module (``_nimc*.c`` and ``_nimc*.h``, sorted by
    name, each fed as its name, a NUL, its length, a NUL, then its bytes: what
    ``hatch_build.source_hash`` compiles in), or ``None`` when the sources are not there."""
    here = Path(__file__).parent
    files = sorted((p for p in here.glob("_nimc*") if p.suffix in (".c", ".h") and p.is_file()),
                   key=lambda p: p.name)
    if not files:
        return None
    digest = hashlib.sha256()
    for path in files:
        data = path.read_bytes()
        digest.update(f"{path.name}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()[:16]


def status() -> str:
    """Which implementation the nimber arithmetic uses: ``"compiled"`` or why not."""
    load()
    return _STATUS


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
