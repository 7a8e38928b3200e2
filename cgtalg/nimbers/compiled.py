"""The compiled core of the ordinal nimber arithmetic: loading it, and saying which path runs.

``cgtalg/nimbers/_nimc.c`` (compiled at install time by the build hook ``hatch_build.py``)
holds, in C, the inner loops of Lenstra's κ/α engine (:mod:`cgtalg.nimbers.lenstra`): finite
nim-products below 2^64, products, squares, powers and Frobenius maps of engine elements
over a memoised table of monomial products, and the ``+`` / ``*`` slots of
:class:`cgtalg.nimbers.Nimber`. The Python implementation of the same operations stays as the
reference and the fallback: it runs when the extension is missing (no C compiler at install
time), stale (built from another version of ``_nimc.c``), or disabled with the environment
variable ``CGTALG_PURE_PYTHON=1``; tests check that both paths give the same results.

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

__all__ = ["load", "status"]

_LOADED = False
_MODULE: ModuleType | None = None
_STATUS = "not loaded"


def load() -> ModuleType | None:
    """The extension module ``cgtalg.nimbers._nimc``, or ``None`` when the Python path runs.

    A build whose embedded source hash differs from the ``_nimc.c`` beside it is not used
    (with a warning saying how to rebuild), so an edited kernel never runs from an old build.
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
    src = Path(__file__).with_name("_nimc.c")
    if src.exists():
        digest = hashlib.sha256(src.read_bytes()).hexdigest()[:16]
        if _nimc.SOURCE_HASH != digest:
            _STATUS = "python (the C kernel is stale: built from another _nimc.c)"
            warnings.warn(
                "cgtalg: the compiled nimber kernel was built from another version of "
                f"{src.name}; rebuild it with `pip install -e .` (using the Python path)",
                RuntimeWarning,
                stacklevel=2,
            )
            return None
    _MODULE = _nimc
    _STATUS = "compiled"
    return _MODULE


def status() -> str:
    """Which implementation the nimber arithmetic uses: ``"compiled"`` or why not."""
    load()
    return _STATUS
