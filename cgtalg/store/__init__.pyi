# The public names of cgtalg.store and their modules, read by lazy_loader.attach_stub at run time
# (loaded on first use) and by type checkers.
from .location import default_store_url, resolve_store_url, user_store_path
from .migrate import head_revision
from .fill import fill_heap_genera
from .query import query_store
from .provenance import ALGORITHM_VERSIONS, Provenance, current_version
from .store import Store, get_default_store, open_store
from .light import open_light_store
from .verify import verify_store

__all__ = [
    "Store",
    "open_store",
    "open_light_store",
    "get_default_store",
    "default_store_url",
    "resolve_store_url",
    "user_store_path",
    "head_revision",
    "Provenance",
    "ALGORITHM_VERSIONS",
    "current_version",
    "verify_store",
    "query_store",
    "fill_heap_genera",
]
