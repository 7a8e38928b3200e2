"""Where a store lives: default location, URL forms, and a read-only look at a SQLite file.

A store is named by a SQLAlchemy URL. :func:`resolve_store_url` turns what a user gives
(``None``, a filesystem path, or a URL) into one absolute URL; :func:`inspect_sqlite_file`
reads the header, tables and schema revision of an existing SQLite store file without
writing to it, so that a corrupt or foreign file is reported before anything touches it.
"""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path
from typing import TYPE_CHECKING

from cgtalg.errors import StoreCorruptError, StoreError

if TYPE_CHECKING:  # SQLAlchemy (0.25 s to import) loads when a URL is resolved, not on import:
    # the light store (cgtalg.store.light) finds a plain store file without it
    from sqlalchemy.engine import URL

__all__ = [
    "STORE_ENV",
    "SUPPORTED_BACKENDS",
    "user_store_path",
    "default_store_url",
    "resolve_store_url",
    "sqlite_file",
    "describe_url",
    "inspect_sqlite_file",
    "is_corruption_error",
    "plain_store_path",
    "BUSY_TIMEOUT",
    "QUICK_CHECK_LIMIT",
    "quick_check",
    "switch_to_wal",
]

#: Seconds a SQLite writer waits for another process's write lock before giving up.
BUSY_TIMEOUT = 60.0

#: Files up to this size get ``PRAGMA quick_check`` when opened (O(size); about 0.1 s
#: for 64 MiB). Larger stores are caught when SQLite meets the damage.
QUICK_CHECK_LIMIT = 64 * 2**20

#: Environment variable naming the store used when no URL is given.
STORE_ENV = "CGTALG_STORE"
#: Database backends the store supports (SQLAlchemy dialect names).
SUPPORTED_BACKENDS = ("sqlite", "postgresql")

_SQLITE_MAGIC = b"SQLite format 3\x00"


def user_store_path() -> Path:
    """The per-user store file: ``$XDG_DATA_HOME/cgtalg/store.sqlite``, else
    ``~/.local/share/cgtalg/store.sqlite`` (XDG Base Directory Specification).

    Examples
    --------
    >>> user_store_path().name
    'store.sqlite'
    """
    base = os.environ.get("XDG_DATA_HOME")
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".local" / "share"
    return root / "cgtalg" / "store.sqlite"


def default_store_url() -> str:
    """The URL :func:`cgtalg.store.open_store` uses when given none: ``$CGTALG_STORE``
    (a path or URL) if set, else the SQLite file :func:`user_store_path`.

    Raises
    ------
    StoreError
        If ``$CGTALG_STORE`` is not a usable path or URL.
    """
    return resolve_store_url(None).render_as_string(hide_password=False)


def resolve_store_url(url: str | os.PathLike | URL | None = None) -> URL:
    """The absolute SQLAlchemy URL of a store given as ``None``, a path or a URL.

    Parameters
    ----------
    url : str, path-like, sqlalchemy.engine.URL or None
        ``None`` (or ``""``) means ``$CGTALG_STORE``, else :func:`user_store_path`. Text
        without ``://`` is a filesystem path of a SQLite file (``~`` is expanded, relative
        paths are made absolute); ``":memory:"`` is a private in-memory SQLite store. Other
        text is a SQLAlchemy URL such as ``sqlite:///abs/path.sqlite`` or
        ``postgresql+psycopg://user:password@host/dbname``.

    Returns
    -------
    sqlalchemy.engine.URL
        For SQLite files, with an absolute path.

    Raises
    ------
    StoreError
        For a malformed URL or a backend other than SQLite and PostgreSQL.

    Examples
    --------
    >>> str(resolve_store_url("/tmp/x.sqlite"))
    'sqlite:////tmp/x.sqlite'
    >>> resolve_store_url("postgresql://cgt@db.example.org/census").get_backend_name()
    'postgresql'
    """
    from sqlalchemy.engine import URL, make_url
    from sqlalchemy.exc import ArgumentError

    if isinstance(url, URL):
        parsed = url
    else:
        if url is None or url == "":
            url = os.environ.get(STORE_ENV) or None
        if url is None:
            return URL.create("sqlite", database=str(user_store_path()))
        if isinstance(url, os.PathLike):
            url = os.fspath(url)
        if not isinstance(url, str):
            raise TypeError(f"store URL must be a str or a path, got {type(url).__name__}")
        if url == ":memory:":
            return URL.create("sqlite")
        if "://" not in url:
            return URL.create("sqlite", database=str(plain_store_path(url)))
        try:
            parsed = make_url(url)
            parsed.host, parsed.port  # noqa: B018 -- make_url parses the port lazily
        except (ArgumentError, ValueError) as exc:
            raise StoreError(f"bad store URL {url!r}: {exc}") from None
    backend = parsed.get_backend_name()
    if backend not in SUPPORTED_BACKENDS:
        raise StoreError(
            f"unsupported store database {backend!r} in {describe_url(parsed)}: "
            f"cgtalg stores use {' or '.join(SUPPORTED_BACKENDS)}"
        )
    if backend == "sqlite" and parsed.database not in (None, "", ":memory:"):
        path = _expand(parsed.database)
        if not path.is_absolute() or str(path) != parsed.database:  # relative, or with a ~
            parsed = parsed.set(database=str(path.absolute()))
    return parsed


def plain_store_path(url: str | os.PathLike | None = None) -> Path | None:
    """The absolute path of the SQLite file of a store named by a path or by a plain SQLite URL,
    as :func:`resolve_store_url` reads it, found without importing SQLAlchemy: ``None`` or ``""``
    means ``$CGTALG_STORE``, else :func:`user_store_path`; a filesystem path is that file; a URL
    ``sqlite:///`` followed by a path names that path (made absolute, as SQLAlchemy reads
    ``sqlite:///relative/path`` and ``sqlite:////absolute/path``). ``None`` for ``":memory:"``
    and any other URL: another backend or driver (``sqlite+pysqlite://``), a host, a query
    (``?mode=ro``), a quoted character (``%20``), no path.

    Raises
    ------
    StoreError
        For a path naming an unknown ``~user``.

    Examples
    --------
    >>> str(plain_store_path("/tmp/x.sqlite")), str(plain_store_path("sqlite:////tmp/x.sqlite"))
    ('/tmp/x.sqlite', '/tmp/x.sqlite')
    >>> plain_store_path("sqlite:////tmp/x.sqlite?mode=ro"), plain_store_path("postgresql://db/cgt")
    (None, None)
    """
    if url is None or url == "":
        url = os.environ.get(STORE_ENV) or None
        if url is None:
            return user_store_path()
    if isinstance(url, os.PathLike):
        url = os.fspath(url)
    if not isinstance(url, str) or url == ":memory:":
        return None
    if url.startswith(_SQLITE_URL):
        rest = url[len(_SQLITE_URL):]
        if not rest or rest == ":memory:" or any(c in rest for c in "?%"):
            return None
        return _expand(rest).absolute()
    return None if "://" in url else _expand(url).absolute()


#: the start of a SQLite URL naming a file (``sqlite:///relative`` or ``sqlite:////absolute``)
_SQLITE_URL = "sqlite:///"


def _expand(text: str) -> Path:
    """``Path(text).expanduser()``, with an unknown ``~user`` as a :class:`StoreError`."""
    try:
        return Path(text).expanduser()
    except RuntimeError as exc:
        raise StoreError(f"bad store path {text!r}: {exc} (no such user)") from None


def sqlite_file(url: URL) -> Path | None:
    """The file of a SQLite store URL, or ``None`` (in-memory SQLite, or another backend)."""
    if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
        return None
    return Path(url.database)


def describe_url(url: URL) -> str:
    """How messages name a store: its file for SQLite, else the URL with the password hidden."""
    path = sqlite_file(url)
    if path is not None:
        return str(path)
    if url.get_backend_name() == "sqlite":
        return "in-memory SQLite store"
    return url.render_as_string(hide_password=True)


#: Descriptors of the store files whose header :func:`inspect_sqlite_file` read, by (device, inode),
#: kept open: closing a descriptor of a file drops every POSIX lock the process holds on it,
#: SQLite's own included (SQLite, "How To Corrupt An SQLite Database File", §2.2), so a process
#: that opened its store again while a connection was live lost its locks, and another process
#: could then reset the write-ahead log under it (likely how the census store of 30 November was
#: found malformed; ``tests/test_store_concurrency.py`` shows the lost lock).
_HEADER_FDS: dict[tuple[int, int], tuple[int, Path]] = {}

#: Above this many kept descriptors, those of files deleted or replaced since are closed.
_HEADER_FDS_KEPT = 256


def _same_file(path: Path, key: tuple[int, int]) -> bool:
    try:
        st = path.stat()
    except OSError:
        return False
    return (st.st_dev, st.st_ino) == key


def _read_header(path: Path) -> bytes:
    """The first 100 bytes of ``path`` through a descriptor this process keeps open (above)."""
    st = path.stat()
    key = (st.st_dev, st.st_ino)
    if key not in _HEADER_FDS:
        if len(_HEADER_FDS) >= _HEADER_FDS_KEPT:
            for k, (fd, p) in list(_HEADER_FDS.items()):
                if not _same_file(p, k):    # gone: no connection reaches that inode by its path
                    os.close(fd)
                    del _HEADER_FDS[k]
        _HEADER_FDS[key] = (os.open(path, os.O_RDONLY), path)
    fd = _HEADER_FDS[key][0]
    if hasattr(os, "pread"):
        return os.pread(fd, 100, 0)
    os.lseek(fd, 0, os.SEEK_SET)
    return os.read(fd, 100)


def inspect_sqlite_file(path: Path) -> tuple[list[str], list[str]] | None:
    """Tables and ``alembic_version`` rows of an existing SQLite file, read without writing.

    Checks the 100-byte header (magic string, page size) and, when no write-ahead log is
    pending, that the file holds every page its header counts (SQLite file format, §1.3:
    "The database header"), then reads ``sqlite_master`` through a read-only connection.

    Returns
    -------
    (tables, revisions) or None
        ``None`` if there is no file yet or it is empty (a new store).

    Raises
    ------
    StoreCorruptError
        If the file is not a SQLite database, is truncated, or SQLite reports it malformed.
    StoreError
        If the path is not a regular file or cannot be read.
    """
    if not path.exists():
        return None
    if not path.is_file():
        raise StoreError(f"the store path {path} is not a file")
    try:
        size = path.stat().st_size
        header = _read_header(path)
    except OSError as exc:
        raise StoreError(f"cannot read the store file {path}: {exc.strerror}") from None
    if size == 0:
        return None

    def corrupt(reason: str) -> StoreCorruptError:
        return StoreCorruptError(
            f"the store file {path} is not a readable SQLite database: {reason}; "
            "it was left untouched"
        )

    if not header.startswith(_SQLITE_MAGIC[: len(header)]):
        raise corrupt(f"it does not start with the SQLite header (first bytes {header[:16]!r})")
    if len(header) < 100:
        raise corrupt(f"it is truncated ({size} bytes, shorter than the 100-byte header)")
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    if page_size < 512 or page_size & (page_size - 1):
        raise corrupt(f"its header gives the impossible page size {page_size}")
    wal = path.with_name(path.name + "-wal")
    if not (wal.exists() and wal.stat().st_size > 0):
        pages = int.from_bytes(header[28:32], "big")
        header_size_valid = header[24:28] == header[92:96]
        if size % page_size or (header_size_valid and size < pages * page_size):
            expected = f"{pages} pages of {page_size} bytes" if header_size_valid else (
                f"whole pages of {page_size} bytes"
            )
            raise corrupt(f"it is truncated ({size} bytes; its header says {expected})")
    try:
        con = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=60)
        try:
            tables = [
                row[0]
                for row in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            ]
            revisions: list[str] = []
            if "alembic_version" in tables:
                revisions = [row[0] for row in con.execute("SELECT version_num FROM alembic_version")]
        finally:
            con.close()
    except sqlite3.DatabaseError as exc:
        if is_corruption_error(exc):
            raise corrupt(f"SQLite says: {exc}") from None
        raise StoreError(f"cannot read the store file {path}: {exc}") from None
    return tables, revisions


def quick_check(path: Path) -> str | None:
    """``PRAGMA quick_check`` of a SQLite file through a read-only connection (never writes);
    the first problem found, or ``None`` when clean or when the file is larger than
    :data:`QUICK_CHECK_LIMIT`."""
    try:
        if path.stat().st_size > QUICK_CHECK_LIMIT:
            return None
        con = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=BUSY_TIMEOUT)
        try:
            rows = [row[0] for row in con.execute("PRAGMA quick_check(5)")]
        finally:
            con.close()
    except sqlite3.DatabaseError as exc:
        if is_corruption_error(exc):
            return f"SQLite says: {exc}"
        return None
    except OSError:
        return None
    if rows == ["ok"]:
        return None
    return "PRAGMA quick_check says: " + "; ".join(map(str, rows))


def is_corruption_error(exc: BaseException) -> bool:
    """True for SQLite's 'malformed' / 'not a database' errors (SQLITE_CORRUPT, SQLITE_NOTADB)."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
        return True
    text = str(exc).lower()
    return "malformed" in text or "not a database" in text


def switch_to_wal(cursor: sqlite3.Cursor) -> None:
    """``PRAGMA journal_mode = WAL`` without waiting in SQLite's busy handler: on a new file
    two processes can each hold a lock the other's switch (or the other's first commit) waits
    for, and both would then wait out the whole busy timeout. Failing fast releases this
    connection's lock, so the other process goes on; the switch is retried with a growing
    pause, up to :data:`BUSY_TIMEOUT` in all."""
    cursor.execute("PRAGMA busy_timeout = 0")
    deadline = time.monotonic() + BUSY_TIMEOUT
    pause = 0.002
    while True:
        try:
            cursor.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) and "busy" not in str(exc) or time.monotonic() > deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.1)
