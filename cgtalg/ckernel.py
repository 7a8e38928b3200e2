"""Loading one of cgtalg's C kernels, and saying which implementation runs.

cgtalg has two C extension modules, compiled at install time by the build hook
``hatch_build.py``: the nimber arithmetic (``cgtalg/nimbers/_nimc*.c``) and the searches of
the misère-quotient construction (``cgtalg/quotients/_quotc*.c``). Each has a Python
implementation of the same operations, the reference and the fallback. A
:class:`CompiledKernel` decides, once per process, which one runs:

* ``CGTALG_PURE_PYTHON=1`` (any value but ``""`` and ``"0"``) disables the C kernels;
* a kernel that is not built (no C compiler when cgtalg was installed), or fails to load, is
  not used;
* a build whose embedded ``SOURCE_HASH`` differs from the hash of the sources beside it
  (:meth:`CompiledKernel.source_hash`: what ``hatch_build.source_hash`` compiles in) is *stale*
  and not used, with a warning saying how to rebuild, so an edited kernel never runs from an
  old build.

Each kernel's wrapper module (``cgtalg.nimbers.compiled``, ``cgtalg.normal.partizan_kernel``,
``cgtalg.quotients.kernel``) names its kernel once and takes its module-level functions
``load``, ``source_hash``, ``status`` and ``available`` from :meth:`CompiledKernel.functions`::

    KERNEL = CompiledKernel("cgtalg.nimbers._nimc", Path(__file__).parent, "_nimc", "nimber kernel")
    load, source_hash, status, available = KERNEL.functions(__name__)

This module is at the bottom of cgtalg's layers: it imports nothing of cgtalg.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import warnings
from pathlib import Path
from types import ModuleType
from typing import Callable

__all__ = ["CompiledKernel", "pure_python_requested"]


def pure_python_requested() -> bool:
    """Whether ``CGTALG_PURE_PYTHON`` asks for the Python implementations."""
    return os.environ.get("CGTALG_PURE_PYTHON", "") not in ("", "0")


class CompiledKernel:
    """One C kernel: the extension module ``module`` (dotted name) built from the files
    ``stem*.c`` / ``stem*.h`` in ``directory``; ``what`` names it in messages.

    :meth:`load` returns the extension module or ``None`` (the Python path runs), deciding once
    per process (:meth:`reset` forgets the decision); :meth:`status` says which and why.
    """

    def __init__(self, module: str, directory: Path, stem: str, what: str) -> None:
        self.module_name = module
        self.directory = Path(directory)
        self.stem = stem
        self.what = what
        self.reset()

    def reset(self) -> None:
        """Forget the decision: the next :meth:`load` decides again."""
        self.loaded = False
        self.module: ModuleType | None = None
        self.status_text = "not loaded"

    def files(self) -> list[Path]:
        """The kernel's sources beside its loader, sorted by name."""
        return sorted((p for p in self.directory.glob(self.stem + "*")
                       if p.suffix in (".c", ".h") and p.is_file()), key=lambda p: p.name)

    def source_hash(self) -> str | None:
        """The hash a build must carry to be used: the first 16 hex digits of the SHA-256 of
        the kernel's files (sorted by name, each fed as its name, a NUL, its length, a NUL, then
        its bytes), or ``None`` when the sources are not shipped beside the module."""
        files = self.files()
        if not files:
            return None
        digest = hashlib.sha256()
        for path in files:
            data = path.read_bytes()
            digest.update(f"{path.name}\0{len(data)}\0".encode())
            digest.update(data)
        return digest.hexdigest()[:16]

    def load(self) -> ModuleType | None:
        """The extension module, or ``None`` when the Python path runs (module docstring)."""
        if self.loaded:
            return self.module
        self.loaded = True
        if pure_python_requested():
            self.status_text = "disabled (CGTALG_PURE_PYTHON=1)"
            return None
        try:
            mod = importlib.import_module(self.module_name)
        except ImportError as exc:
            if importlib.util.find_spec(self.module_name) is None:
                self.status_text = "python (the C kernel is not built: no C compiler when cgtalg was installed)"
            else:
                self.status_text = f"python (the C kernel failed to load: {exc})"
            return None
        expected = self.source_hash()
        if expected is not None and getattr(mod, "SOURCE_HASH", None) != expected:
            sources = f"{self.stem}*.c / {self.stem}*.h"
            self.status_text = f"python (the C kernel is stale: built from other {sources} sources)"
            warnings.warn(
                f"cgtalg: the compiled {self.what} was built from another version of its sources "
                f"({self.stem}*.c, {self.stem}*.h); rebuild it with `pip install -e .` (using the "
                "Python path)", RuntimeWarning, stacklevel=3)
            return None
        self.module = mod
        self.status_text = "compiled"
        return mod

    def status(self) -> str:
        """Which implementation runs: ``"compiled"``, or ``"python (why)"`` / ``"disabled (...)"``."""
        self.load()
        return self.status_text

    def available(self) -> bool:
        """Whether the compiled kernel is in use (built, current, and not disabled by
        ``CGTALG_PURE_PYTHON``)."""
        return self.load() is not None

    def functions(self, module: str) -> tuple[Callable, Callable, Callable, Callable]:
        """``(load, source_hash, status, available)``: the module-level functions of the
        kernel's wrapper module ``module`` (its ``__name__``), each documented with the
        kernel's names."""
        stem, what = self.stem, self.what

        def load() -> ModuleType | None:
            return self.load()

        def source_hash() -> str | None:
            return self.source_hash()

        def status() -> str:
            return self.status()

        def available() -> bool:
            return self.available()

        load.__doc__ = (f"The extension module ``{self.module_name}``, or ``None`` when the Python path runs "
                        "(a stale build is refused with a warning: :meth:`cgtalg.ckernel.CompiledKernel.load`).")
        source_hash.__doc__ = (f"The hash a build of the {what} must carry to be used (``{stem}*.c`` and "
                               f"``{stem}*.h`` beside it; :meth:`cgtalg.ckernel.CompiledKernel.source_hash`), "
                               "or ``None``.")
        status.__doc__ = f'Which implementation the {what} uses: ``"compiled"`` or ``"python (why)"`` / ``"disabled (...)"``.'
        available.__doc__ = f"Whether the compiled {what} is in use (built, current, not disabled)."
        for f in (load, source_hash, status, available):
            f.__module__ = module
            f.__qualname__ = f.__name__
        return load, source_hash, status, available
