"""numpy loaded on first use, so that a small question does not pay for it (issue 23, part 4).

A module whose small paths run without arrays writes ``from cgtalg.core.lazynp import np``
instead of ``import numpy as np``: :data:`np` is a stand-in that imports numpy on its first
attribute access and from then on hands out numpy's attributes (kept on the stand-in, so a
hot loop pays the look-up once). Unlike ``lazy_loader.load("numpy")`` it puts nothing in
``sys.modules``: ``"numpy" in sys.modules`` keeps meaning that numpy was imported.

:func:`int_types` and :func:`bool_types` are the ``isinstance`` tuples ``(int, np.integer)``
and ``(bool, np.bool_)`` without importing numpy: a value cannot be a numpy scalar before
numpy is imported.

Examples
--------
>>> from cgtalg.core.lazynp import np, int_types
>>> isinstance(5, int_types())
True
>>> int(np.int64(7))
7

References
----------
Scientific Python SPEC 1 (lazy loading), whose ``lazy_loader`` the package's subpackages use.
"""

from __future__ import annotations

import sys
from typing import Any

__all__ = ["np", "int_types", "bool_types", "numpy_loaded"]


class _LazyNumpy:
    """The stand-in for the ``numpy`` module (see the module docstring)."""

    __slots__ = ("__dict__",)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        import numpy

        value = getattr(numpy, name)
        self.__dict__[name] = value
        return value

    def __repr__(self) -> str:
        return "<numpy, imported on first use>" if not numpy_loaded() else repr(sys.modules["numpy"])


#: ``numpy``, imported on the first attribute access
np: Any = _LazyNumpy()


def numpy_loaded() -> bool:
    """Whether numpy has been imported in this process."""
    return "numpy" in sys.modules


def int_types() -> tuple[type, ...]:
    """``(int, numpy.integer)`` once numpy is imported, else ``(int,)``."""
    numpy = sys.modules.get("numpy")
    return (int, numpy.integer) if numpy is not None else (int,)


def bool_types() -> tuple[type, ...]:
    """``(bool, numpy.bool_)`` once numpy is imported, else ``(bool,)``."""
    numpy = sys.modules.get("numpy")
    return (bool, numpy.bool_) if numpy is not None else (bool,)
