"""Schema revisions of the store: Alembic configured in code, checks, upgrades.

The migration scripts ship inside the package as ``cgtalg._migrations`` (the repository's
``migrations/`` folder). :func:`ensure_schema` brings a store to the newest revision
(``alembic upgrade head``) under a lock, so that processes opening a new store at once
create it exactly once. A store at a revision this code does not know (written by a newer
cgtalg) raises :class:`~cgtalg.errors.StoreSchemaError`; a database that has tables but is
not a cgtalg store raises :class:`~cgtalg.errors.StoreCorruptError`. Neither is written to,
and no store is ever migrated down.
"""

from __future__ import annotations

import ast
import atexit
import contextlib
import functools
import importlib.resources
import re
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection, Engine

if TYPE_CHECKING:  # Alembic (about 0.1 s to import) loads only to migrate or to run its commands
    from alembic.config import Config

from cgtalg.caches import register_cache
from cgtalg.errors import StoreCorruptError, StoreError, StoreSchemaError

__all__ = [
    "migrations_dir",
    "alembic_config",
    "head_revision",
    "known_revisions",
    "read_script_revisions",
    "check_revision",
    "read_state",
    "ensure_schema",
]

# Key of the PostgreSQL advisory lock held while a store's schema is checked and upgraded.
_PG_MIGRATION_LOCK = 0x6367_7461_6C67  # "cgtalg"
# Tables SQLite itself may create in any database.
_SQLITE_INTERNAL = frozenset({"sqlite_sequence", "sqlite_stat1", "sqlite_stat4"})


# Not a registered cache (cgtalg.caches): the folder is where this install keeps its scripts, not
# a computed answer, and clearing it would extract a zipped install's scripts once more.
@functools.lru_cache(maxsize=None)
def migrations_dir() -> Path:
    """The folder of the Alembic scripts (``env.py``, ``versions/``).

    A source checkout's top-level ``migrations/`` folder wins when it exists (so a checkout never
    runs a stale packaged copy); in a wheel the scripts ship inside the package as
    ``cgtalg/_migrations``.

    Raises
    ------
    StoreError
        If neither location holds the scripts (a broken install).
    """
    source = Path(__file__).resolve().parents[2] / "migrations"
    if (source / "env.py").is_file() and (source / "versions").is_dir():
        return source
    packaged = Path(__file__).resolve().parents[1] / "_migrations"
    if (packaged / "env.py").is_file():
        return packaged
    try:
        resource = importlib.resources.files("cgtalg._migrations")
    except ModuleNotFoundError:
        raise StoreError(
            f"the Alembic migration scripts are missing: neither {packaged} nor {source} holds env.py; "
            "reinstall cgtalg"
        ) from None
    if isinstance(resource, Path):
        return resource
    stack = contextlib.ExitStack()  # installed as a zip: extract once for this process
    atexit.register(stack.close)
    return stack.enter_context(importlib.resources.as_file(resource))


def alembic_config(url: str | None = None, connection: Connection | None = None) -> Config:
    """An Alembic :class:`~alembic.config.Config` for the store (no ``alembic.ini`` needed).

    Parameters
    ----------
    url : str, optional
        SQLAlchemy URL, for Alembic commands that open their own connection or render SQL
        offline (``command.upgrade(cfg, "head", sql=True)``).
    connection : sqlalchemy.engine.Connection, optional
        Run the migrations on this connection, inside its current transaction.

    Examples
    --------
    >>> from alembic import command
    >>> cfg = alembic_config("sqlite:////tmp/dev-store.sqlite")
    >>> # command.revision(cfg, message="add genus table", rev_id="0002")
    """
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(migrations_dir()))
    cfg.set_main_option("path_separator", "os")
    if url is not None:
        cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


# ``revision = "0003"`` / ``down_revision = "0002"`` (optionally annotated) at the start of a line
_REVISION_LINE = re.compile(r"^(revision|down_revision)\s*(?::[^=\n]*)?=\s*(.+?)\s*$", re.M)


def read_script_revisions(versions: Path) -> dict[str, tuple[str, ...]] | None:
    """``{revision: its down revisions}`` of the Alembic scripts in the folder ``versions``,
    read from their ``revision = ...`` and ``down_revision = ...`` lines without importing
    Alembic (about 0.1 s) or the scripts; ``None`` when a script states them in a form this
    reader does not follow (then Alembic reads them)."""
    graph: dict[str, tuple[str, ...]] = {}
    for path in sorted(versions.glob("*.py")):
        fields = dict(_REVISION_LINE.findall(path.read_text(encoding="utf-8")))
        if "revision" not in fields:
            continue  # __init__.py and helpers
        try:
            revision = ast.literal_eval(fields["revision"])
            down = ast.literal_eval(fields.get("down_revision", "None"))
        except (ValueError, SyntaxError):
            return None
        if isinstance(down, str):
            down = (down,)
        elif down is None:
            down = ()
        if not isinstance(revision, str) or not isinstance(down, tuple) or revision in graph:
            return None
        graph[revision] = down
    return graph


@register_cache("store.migration revisions")
@functools.lru_cache(maxsize=None)
def _script_revisions() -> tuple[str, frozenset[str]]:
    graph = read_script_revisions(migrations_dir() / "versions")
    if graph:
        below = {d for downs in graph.values() for d in downs}
        heads = sorted(set(graph) - below)
        known = frozenset(graph)
    else:
        from alembic.script import ScriptDirectory

        script = ScriptDirectory.from_config(alembic_config())
        heads = list(script.get_heads())
        known = frozenset(s.revision for s in script.walk_revisions())
    if len(heads) != 1:  # pragma: no cover - a packaging mistake, caught by the tests
        raise RuntimeError(f"cgtalg's store migrations have {len(heads)} heads: {heads}")
    return heads[0], known


def head_revision() -> str:
    """The newest schema revision this version of cgtalg knows (Alembic head)."""
    return _script_revisions()[0]


def known_revisions() -> frozenset[str]:
    """Every schema revision this version of cgtalg can read or upgrade from."""
    return _script_revisions()[1]


def check_revision(where: str, tables: list[str], revisions: list[str]) -> str | None:
    """Judge a store from its table names and ``alembic_version`` rows.

    Returns
    -------
    str or None
        The store's revision, or ``None`` for an empty database (a new store).

    Raises
    ------
    StoreSchemaError
        If the revision is unknown to this code (a newer cgtalg wrote the store).
    StoreCorruptError
        If the database has tables but no revision (not a cgtalg store).
    """
    if not revisions:
        foreign = sorted(set(tables) - _SQLITE_INTERNAL - {"alembic_version"})
        if foreign:
            shown = ", ".join(foreign[:8]) + (", ..." if len(foreign) > 8 else "")
            raise StoreCorruptError(
                f"{where} is not a cgtalg store: it has tables ({shown}) but no schema "
                "revision (alembic_version); it was left untouched"
            )
        return None
    head = head_revision()
    if len(revisions) == 1 and revisions[0] in known_revisions():
        return revisions[0]
    shown = ", ".join(repr(r) for r in revisions)
    raise StoreSchemaError(
        f"the store {where} has schema revision {shown}, which this version of cgtalg does "
        f"not know (its newest is {head!r}): a newer cgtalg wrote it. Upgrade cgtalg to use "
        "this store; it was left untouched"
    )


def read_state(conn: Connection) -> tuple[list[str], list[str]]:
    """Table names and ``alembic_version`` rows of the database behind ``conn``."""
    tables = inspect(conn).get_table_names()
    revisions: list[str] = []
    if "alembic_version" in tables:
        revisions = [row[0] for row in conn.execute(text("SELECT version_num FROM alembic_version"))]
    return tables, revisions


def ensure_schema(engine: Engine, where: str) -> str:
    """Check the store's schema revision and upgrade it to head if it is older.

    The upgrade runs in one write transaction (SQLite ``BEGIN IMMEDIATE`` through the
    engine's ``cgtalg_write`` execution option; a PostgreSQL advisory lock), and the
    revision is read again inside it, so concurrent first opens migrate once.

    Returns
    -------
    str
        The head revision the store is now at.

    Raises
    ------
    StoreSchemaError, StoreCorruptError
        As :func:`check_revision`; the store is not written to.
    """
    head = head_revision()
    with engine.connect() as conn, conn.begin():
        current = check_revision(where, *read_state(conn))
    if current == head:
        return head
    with engine.connect() as conn:
        conn.execution_options(cgtalg_write=True)
        with conn.begin():
            if conn.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_MIGRATION_LOCK})
            current = check_revision(where, *read_state(conn))
            if current != head:
                from alembic import command

                command.upgrade(alembic_config(connection=conn), "head")
    return head
