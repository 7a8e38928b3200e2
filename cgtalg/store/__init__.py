"""The persistent store: forms with stable ids, their properties and relations, cached
results for ruleset positions, and long integer sequences (SQLite or PostgreSQL).

    >>> import cgtalg as cg
    >>> from cgtalg.store import open_store
    >>> store = open_store(":memory:")
    >>> G = cg.parse("{*2}")
    >>> store.memo(G, "grundy", lambda: cg.grundy(G)), store.memo(G, "grundy", lambda: 1 / 0)
    (0, 0)
    >>> store.stats
    {'hits': 1, 'misses': 1, 'stale': 0}

Every stored result records the version of the algorithm that computed it and the cgtalg
version that wrote it; a result of an older version is recomputed rather than served
(:mod:`cgtalg.store.provenance`). See ``docs/store.md`` for locations, URLs, the schema, migrations and concurrency.

The public names load on first use (scientific Python's ``lazy_loader``, SPEC 1; the names and
their modules are listed once, in ``__init__.pyi``), so that light commands such as
``cgtalg store path`` do not import SQLAlchemy's ORM or Alembic.
"""

from cgtalg._stub import attach_stub as _attach_stub

__getattr__, __dir__ = _attach_stub(__name__, __file__)  # __all__ too, through __getattr__
