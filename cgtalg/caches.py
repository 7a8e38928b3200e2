"""One registry of cgtalg's module-level caches, and :func:`clear_caches`, which empties them.

A module that keeps a cache of computed answers (a dict of memoised values, a
``functools.lru_cache``) registers it once, where it is made::

    from cgtalg.caches import register_cache

    _VALUES: dict[int, int] = register_cache("normal.grundy values", {})

    @register_cache("nimbers.field degree")
    @functools.lru_cache(maxsize=None)
    def field_degree(...): ...

``cgtalg.clear_caches()`` then empties every registered cache, whichever modules are loaded.
Hash-consing tables (the form table of :mod:`cgtalg.core.game`, which gives forms their ids)
are not caches: clearing them would break identity, so they are never registered.

This module sits at the bottom of the layers (beside :mod:`cgtalg.errors`) and imports nothing
of cgtalg's.
"""

from __future__ import annotations

from typing import Any, Callable, TypeVar

__all__ = ["register_cache", "clear_caches", "registered_caches"]

T = TypeVar("T")

_REGISTRY: dict[str, Any] = {}


def _clearer(cache: Any) -> Callable[[], Any]:
    for attr in ("cache_clear", "clear"):
        method = getattr(cache, attr, None)
        if callable(method):
            return method
    if callable(cache):
        return cache
    # a programming error of the module that registers the cache, not a user's input
    raise TypeError(f"cannot clear a {type(cache).__name__}: register a dict, set, list, "
                    "an lru_cache-wrapped function, or a function that clears")


def register_cache(name: str, cache: T | None = None) -> Any:
    """Register ``cache`` under ``name`` and return it unchanged.

    ``cache`` is anything with ``cache_clear()`` (an ``lru_cache`` function) or ``clear()``
    (dict, set, list, an object of your own), or a function of no arguments that clears.
    Called with the name alone it is a decorator. Registering a name again replaces the earlier
    entry (a module reloaded in a test registers afresh).
    """
    if cache is None:
        def decorate(c: T) -> T:
            register_cache(name, c)
            return c

        return decorate
    _clearer(cache)  # refuse what cannot be cleared now, not at clear time
    _REGISTRY[name] = cache
    return cache


def clear_caches() -> None:
    """Empty every registered cache (answers are recomputed on the next call; forms keep their
    ids). Useful in tests, in benchmarks of cold runs, and to free memory after a large job."""
    for cache in list(_REGISTRY.values()):
        _clearer(cache)()


def registered_caches() -> list[str]:
    """The names of the registered caches, sorted."""
    return sorted(_REGISTRY)
