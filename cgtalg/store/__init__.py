"""The persistent store: forms with stable ids, their properties and relations, cached
results for ruleset positions, and long integer sequences (SQLite or PostgreSQL).

    >>> import cgtalg as cg
    >>> from cgtalg.store import open_store
    >>> store = open_store(":memory:")
    >>> G = cg.parse("{*2}")
    >>> store.memo(G, "grundy", lambda: cg.grundy(G)), store.memo(G, "grundy", lambda: 1 / 0)
    (0, 0)
    >>> store.stats
    {'hits': 1, 'misses': 1}

See ``docs/store.md`` for locations, URLs, the schema, migrations and concurrency.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# Public name -> defining module; loaded on first use (PEP 562) so that light commands such as
# ``cgtalg store path`` do not import SQLAlchemy or Alembic.
_LAZY: dict[str, str] = {
    "Store": "cgtalg.store.store",
    "open_store": "cgtalg.store.store",
    "get_default_store": "cgtalg.store.store",
    "default_store_url": "cgtalg.store.location",
    "resolve_store_url": "cgtalg.store.location",
    "user_store_path": "cgtalg.store.location",
    "head_revision": "cgtalg.store.migrate",
}

if TYPE_CHECKING:  # pragma: no cover
    from cgtalg.store.location import default_store_url, resolve_store_url, user_store_path
    from cgtalg.store.migrate import head_revision
    from cgtalg.store.store import Store, get_default_store, open_store


def __getattr__(name: str) -> Any:
    """Resolve a public name on first use (PEP 562)."""
    try:
        module = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'cgtalg.store' has no attribute {name!r}") from None
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "Store",
    "open_store",
    "get_default_store",
    "default_store_url",
    "resolve_store_url",
    "user_store_path",
    "head_revision",
]
