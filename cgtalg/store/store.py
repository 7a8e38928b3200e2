"""The persistent store: forms with stable ids, their properties and relations, cached
results for ruleset positions, and long integer sequences, in one SQL database.

:class:`Store` composes the package's parts: the connection (:mod:`cgtalg.store.engine`),
forms hash-consed into the ``forms`` table (:mod:`cgtalg.store.forms`), properties of forms
and relations (:mod:`cgtalg.store.memo`), positions of rulesets
(:mod:`cgtalg.store.positions`), sequences (:mod:`cgtalg.store.sequences`) and listings
(:mod:`cgtalg.store.listings`). Every write is one transaction; stored values are write-once
(a different value for the same key raises :class:`~cgtalg.errors.StoreError` rather than
replacing it), which is what makes a store shared by many processes, and a computation
resumed after an interruption, safe. See ``docs/store.md``.
"""

from __future__ import annotations

import os
import threading

from cgtalg.store.engine import StoreBase
from cgtalg.store.forms import FormsMixin
from cgtalg.store.listings import ListingsMixin
from cgtalg.store.location import resolve_store_url, sqlite_file
from cgtalg.store.memo import PropertiesMixin
from cgtalg.store.positions import PositionsMixin
from cgtalg.store.sequences import SequencesMixin

__all__ = ["Store", "open_store", "get_default_store"]


class Store(FormsMixin, PropertiesMixin, PositionsMixin, SequencesMixin, ListingsMixin, StoreBase):
    """A persistent store of forms, properties, relations, positions and sequences.

    Open one with :func:`open_store`. Attributes: ``url`` (the full SQLAlchemy URL, which
    reopens the store; it contains the password, if any), ``revision`` (schema revision),
    ``stats`` (``{"hits": ..., "misses": ..., "stale": ...}``: hits and misses of :meth:`memo`
    and :meth:`memo_position`, and stale rows met by reads), ``serve_stale`` and
    ``stale_served`` (see :func:`open_store` and :mod:`cgtalg.store.provenance`).

    A store can be used from several threads; a forked child process reconnects by itself.
    Pickling a store (e.g. to send it to a worker process) sends its URL: unpickling gives
    that process's :func:`get_default_store` for the URL.
    """

    def __reduce__(self):
        if sqlite_file(self._url) is None and self._url.get_backend_name() == "sqlite":
            raise TypeError("an in-memory store cannot be sent to another process")
        return (get_default_store, (self.url, self.serve_stale))

    def close(self) -> None:
        """Close the store's connections. Later calls on it raise :class:`StoreError`."""
        super().close()
        with _OPEN_LOCK:
            for key, store in list(_OPEN.items()):
                if store is self:
                    del _OPEN[key]


def open_store(url: str | os.PathLike | None = None, serve_stale: bool = False) -> "Store":
    """Open (creating and migrating on first use) the store at ``url``.

    Parameters
    ----------
    url : str, optional
        ``None`` means ``$CGTALG_STORE``, else the per-user SQLite file
        (:func:`cgtalg.store.user_store_path`); a plain path means a SQLite file; otherwise
        any SQLAlchemy URL of a SQLite or PostgreSQL database.
    serve_stale : bool, default False
        Serve rows written by an older version of their algorithm (stale rows,
        :mod:`cgtalg.store.provenance`) instead of recomputing them; each one served is
        recorded in ``store.stale_served`` as ``(table, key, Provenance)`` so that a caller
        can mark it (``cgtalg --stale show``).

    Returns
    -------
    Store

    Raises
    ------
    StoreSchemaError
        The store was written by a newer cgtalg (its schema revision is unknown here).
    StoreCorruptError
        The file is not a SQLite database, is truncated, or is not a cgtalg store.
    StoreError
        The URL is malformed, its driver is missing, or the database cannot be opened.

    Examples
    --------
    >>> import cgtalg as cg
    >>> from cgtalg.store import open_store
    >>> store = open_store(":memory:")
    >>> store.memo(cg.parse("{*2}"), "grundy", lambda: cg.grundy(cg.parse("{*2}")))
    0
    >>> store.get(cg.parse("{*2}"), "grundy"), store.stats
    (0, {'hits': 0, 'misses': 1, 'stale': 0})
    """
    return Store(url, serve_stale=serve_stale)


_OPEN: dict[str, "Store"] = {}
_OPEN_LOCK = threading.Lock()


def get_default_store(url: str | os.PathLike | None = None, serve_stale: bool = False) -> "Store":
    """The store of ``url`` (default: as :func:`open_store`) opened once per process (once
    for each ``serve_stale``, see :func:`open_store`).

    Library functions taking ``store=`` use this, so that repeated calls share one
    connection pool and one cache of form ids.
    """
    resolved = resolve_store_url(url)
    key = resolved.render_as_string(hide_password=False) + (" serve_stale" if serve_stale else "")
    with _OPEN_LOCK:
        store = _OPEN.get(key)
        if store is None or store.closed:
            store = _OPEN[key] = Store(resolved, serve_stale=serve_stale)
    return store

