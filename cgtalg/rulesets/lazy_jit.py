"""``numba.njit`` deferred to the first call, so that importing a module of kernels costs no
numba import (about 0.2 s, plus scipy's BLAS check).

A kernel module writes ``from cgtalg.rulesets.lazy_jit import njit`` instead of ``from numba
import njit`` and keeps its ``@njit(cache=True, ...)`` decorators. Each decorated function is
a :class:`LazyKernel` until the first call of any kernel of the module; that call imports
numba and replaces every :class:`LazyKernel` of the module's namespace by ``numba.njit`` of
its function, all at once, so that kernels calling one another are typed against compiled
dispatchers (numba resolves globals when it compiles). From then on ``module.kernel`` is the
numba dispatcher itself; a reference taken before forwards to it.
"""

from __future__ import annotations

import functools
import threading
from typing import Any, Callable

__all__ = ["LazyKernel", "njit", "compile_kernels"]

_LOCK = threading.Lock()


class LazyKernel:
    """A kernel not yet compiled: the Python function (``py_func``, as numba's dispatchers
    name it) and its ``numba.njit`` options. Calling it compiles its module's kernels
    (:func:`compile_kernels`) and runs the compiled one."""

    def __init__(self, func: Callable, options: dict) -> None:
        functools.update_wrapper(self, func)
        self.py_func = func
        self.options = options

    def __call__(self, *args: Any) -> Any:
        return compile_kernels(self.py_func.__globals__)[self.__name__](*args)

    def __repr__(self) -> str:
        return f"<numba kernel {self.__module__}.{self.__name__} (compiled on first call)>"


def njit(**options: Any) -> Callable[[Callable], LazyKernel]:
    """``numba.njit(**options)`` deferred to the first call (:class:`LazyKernel`); only the
    keyword form (``@njit(cache=True)``) is supported."""

    def wrap(func: Callable) -> LazyKernel:
        return LazyKernel(func, options)

    return wrap


def compile_kernels(namespace: dict) -> dict:
    """Import numba and replace every :class:`LazyKernel` in ``namespace`` (a kernel module's
    ``globals()``) by ``numba.njit`` of its function (numba loads it from its on-disk cache
    when ``cache=True`` and the source is unchanged); returns ``namespace``. Idempotent and
    thread-safe."""
    with _LOCK:
        lazy = [(name, obj) for name, obj in namespace.items() if isinstance(obj, LazyKernel)]
        if lazy:
            import numba

            for name, obj in lazy:
                namespace[name] = numba.njit(**obj.options)(obj.py_func)
    return namespace
