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

from cgtalg.store.location import default_store_url, resolve_store_url, user_store_path
from cgtalg.store.migrate import head_revision
from cgtalg.store.store import Store, get_default_store, open_store

__all__ = [
    "Store",
    "open_store",
    "get_default_store",
    "default_store_url",
    "resolve_store_url",
    "user_store_path",
    "head_revision",
]
