"""Public names loaded on first use, as the package's ``__init__.pyi`` lists them: scientific
Python's ``lazy_loader.attach_stub`` (SPEC 1), with the stub itself read on first use too.

``lazy_loader.attach_stub`` parses the stub with :mod:`ast` when the package is imported; a
fresh ``cgtalg quotient 0.7`` imports four such packages and uses none of their lazy names, and
parsing their stubs (and importing :mod:`ast`) was a tenth of its run (issue 35). Here the stub
is parsed the first time a name (or ``__all__``, or ``dir()``) is asked of the package.
"""

from __future__ import annotations

from typing import Any, Callable

__all__ = ["attach_stub"]


def attach_stub(package_name: str, filename: str) -> tuple[Callable[[str], Any], Callable[[], list]]:
    """``(__getattr__, __dir__)`` for the package ``package_name`` whose ``__init__.py`` is
    ``filename``; ``__all__`` is served by ``__getattr__`` (``from package import *`` reads it
    so too)."""
    attached: list = []

    def load() -> tuple:
        if not attached:
            import lazy_loader

            attached.append(lazy_loader.attach_stub(package_name, filename))
        return attached[0]

    def __getattr__(name: str) -> Any:
        if name == "__all__":
            return load()[2]
        return load()[0](name)

    def __dir__() -> list:
        return load()[1]()

    return __getattr__, __dir__
