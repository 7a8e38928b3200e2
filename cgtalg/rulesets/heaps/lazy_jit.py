"""``numba.njit`` deferred to the first call, so that importing a module of kernels costs no
numba import (about 0.2 s, plus scipy's BLAS check); and small work run as plain Python, so
that a small question never pays for numba at all.

A kernel module writes ``from cgtalg.rulesets.heaps.lazy_jit import njit`` instead of ``from numba
import njit`` and keeps its ``@njit(cache=True, ...)`` decorators. Each decorated function is
a :class:`LazyKernel` until the first call of any kernel of the module; that call imports
numba and replaces every :class:`LazyKernel` of the module's namespace by ``numba.njit`` of
its function, all at once, so that kernels calling one another are typed against compiled
dispatchers (numba resolves globals when it compiles). From then on ``module.kernel`` is the
numba dispatcher itself; a reference taken before forwards to it. With ``cache=True`` numba
writes the compiled kernels beside the module (``__pycache__``, else numba's per-user cache
directory when that one is read-only), so a later process loads them instead of compiling.

Plain Python on plain data: :func:`python_function` gives a kernel's Python function bound
to the Python functions of the kernels it calls, whether or not the module is compiled, so
that the kernel's code runs on Python lists (no numpy, no numba): the Grundy engine's
plain-Python mode (:mod:`cgtalg.rulesets.heaps.small_grundy`) runs the naive kernel so.

Small work: inside :func:`python_kernels` (the callers open it when they know the work is
small: :data:`PYTHON_WORK` steps or fewer), a kernel that is not compiled yet runs its own
Python function (``py_func``) instead -- the same code, so the same answer, on the same numpy
arrays -- and the kernels it calls do the same. Loading numba and the compiled kernels costs
about half a second in a fresh process; a few hundred thousand steps of the Python function
cost less. Once the kernels of a module are compiled in the process, they are always used.
"""

from __future__ import annotations

import functools
import sys
import threading
import types
from contextlib import contextmanager
from typing import Any, Callable, Iterator

__all__ = ["LazyKernel", "njit", "compile_kernels", "python_kernels", "python_function", "is_compiled", "PYTHON_WORK"]

_LOCK = threading.Lock()
_STATE = threading.local()
#: module name -> the namespace in which its kernels are their Python functions
_PLAIN: dict[str, dict] = {}

#: the most inner-loop steps (as the caller counts them) that :func:`python_kernels` runs as
#: plain Python when the kernels are not compiled yet: about 0.1 s of Python, below the cost of
#: importing numba and loading the compiled kernels
PYTHON_WORK = 200_000


class LazyKernel:
    """A kernel not yet compiled: the Python function (``py_func``, as numba's dispatchers
    name it) and its ``numba.njit`` options. Calling it compiles its module's kernels
    (:func:`compile_kernels`) and runs the compiled one, or, inside :func:`python_kernels`,
    runs ``py_func`` as plain Python."""

    def __init__(self, func: Callable, options: dict) -> None:
        functools.update_wrapper(self, func)
        self.py_func = func
        self.options = options

    def __call__(self, *args: Any) -> Any:
        if getattr(_STATE, "python", False):
            return self.py_func(*args)
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
            import numpy

            from cgtalg.core.lazynp import np as lazy_np

            # numba types the globals a kernel reads: the real numpy, not the stand-in of
            # cgtalg.core.lazynp that a kernel module may hold as ``np``
            for name, obj in list(namespace.items()):
                if obj is lazy_np:
                    namespace[name] = numpy
            for name, obj in lazy:
                namespace[name] = _jit(numba, obj)
    return namespace


def _jit(numba: Any, kernel: LazyKernel) -> Any:
    """``numba.njit(**options)`` of the kernel; without the on-disk cache when numba finds no
    writable place for it (neither beside the module nor in its per-user cache directory:
    numba refuses ``cache=True`` then, with a RuntimeError), so that a read-only installation
    still computes, compiling in each process."""
    try:
        return numba.njit(**kernel.options)(kernel.py_func)
    except RuntimeError as exc:
        if not kernel.options.get("cache") or "cannot cache" not in str(exc):
            raise
        return numba.njit(**{**kernel.options, "cache": False})(kernel.py_func)


def python_function(kernel: Any) -> Callable:
    """The Python function of ``kernel`` (a :class:`LazyKernel` or the numba dispatcher that
    replaced it) in a copy of its module's namespace where every kernel is its Python
    function: the kernel's own code, calling the other kernels' own code, on whatever data
    it is given (Python lists as well as numpy arrays), never compiling anything.

    Examples
    --------
    >>> from cgtalg.rulesets.heaps import grundy_kernels as K
    >>> int(python_function(K.max_of)([3, 9, 2], 3))
    9
    """
    func = kernel.py_func
    module = func.__module__
    with _LOCK:
        plain = _PLAIN.get(module)
        if plain is None:
            plain = dict(func.__globals__)
            for name, obj in func.__globals__.items():
                if not isinstance(obj, LazyKernel) and type(obj).__module__.split(".")[0] != "numba":
                    continue  # (nor any attribute asked of a stand-in such as cgtalg.core.lazynp.np)
                inner = obj.py_func
                if isinstance(inner, types.FunctionType) and inner.__module__ == module:
                    plain[name] = types.FunctionType(inner.__code__, plain, inner.__name__, inner.__defaults__,
                                                     inner.__closure__)
            _PLAIN[module] = plain
    return plain[func.__name__]


def is_compiled(module: Any) -> bool:
    """True when the kernels of ``module`` (a kernel module, or its name) are compiled in
    this process (no :class:`LazyKernel` is left in it)."""
    if isinstance(module, str):
        module = sys.modules.get(module)
        if module is None:
            return False
    return not any(isinstance(obj, LazyKernel) for obj in vars(module).values())


@contextmanager
def python_kernels(work: int | float = 0, limit: int | None = None) -> Iterator[bool]:
    """Within the block, kernels not compiled yet run as plain Python when ``work`` (the
    caller's count of the inner-loop steps ahead) is at most ``limit`` (default
    :data:`PYTHON_WORK`); yields whether they do. Kernels already compiled always run
    compiled. A nested block decides for its own work (large work inside a small block
    compiles); kernels called with no block of their own follow the enclosing one.

    Examples
    --------
    >>> from cgtalg.rulesets.heaps import grundy_kernels as K
    >>> import numpy as np
    >>> with python_kernels(10):
    ...     int(K.max_of(np.array([3, 9, 2], dtype=np.uint8), 3))
    9
    """
    outer = getattr(_STATE, "python", False)
    on = work <= (PYTHON_WORK if limit is None else limit)
    _STATE.python = on
    try:
        yield on
    finally:
        _STATE.python = outer
