"""Shared helpers for cgtalg's command-line interface.

Every command takes ``--json``; commands build one JSON-serialisable ``dict`` as their result
and call :func:`emit`, which prints either that dict as JSON or the human text.
Errors from :mod:`cgtalg.errors` become a one-line message and exit status 2 (see
:func:`handle_errors` in :mod:`cgtalg.cli.main`).
"""

from __future__ import annotations

import json
from typing import Any, Callable

import click

__all__ = ["json_option", "no_store_option", "cli_store", "emit", "to_jsonable"]


def json_option(func: Callable) -> Callable:
    """Decorator adding the ``--json`` flag (parameter name ``as_json``) to a command."""
    return click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")(func)


def to_jsonable(obj: Any) -> Any:
    """Convert results (numpy scalars/arrays, sets, tuples, games, ordinals) to JSON types."""
    try:
        import numpy as np
    except ImportError:  # pragma: no cover
        np = None
    if obj is None or isinstance(obj, (bool, str, float)):
        return obj
    if isinstance(obj, int):
        return obj
    if np is not None:
        if isinstance(obj, np.integer):
            return int(obj)
        if isinstance(obj, np.floating):
            return float(obj)
        if isinstance(obj, np.ndarray):
            return obj.tolist()
    if isinstance(obj, dict):
        return {str(k): to_jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple, set, frozenset)):
        items = list(obj)
        if isinstance(obj, (set, frozenset)):
            items = sorted(items, key=repr)
        return [to_jsonable(v) for v in items]
    if hasattr(obj, "to_json"):
        return to_jsonable(obj.to_json())
    return str(obj)


def emit(result: dict, as_json: bool, human: str | Callable[[], str]) -> None:
    """Print ``result`` as JSON when ``as_json`` is set, else the human-readable text."""
    if as_json:
        click.echo(json.dumps(to_jsonable(result), indent=2, ensure_ascii=False))
    else:
        click.echo(human() if callable(human) else human)


def no_store_option(func: Callable) -> Callable:
    """Decorator adding ``--no-store`` (parameter ``no_store``) to a command that uses the store."""
    return click.option("--no-store", is_flag=True, help="Compute without reading or writing the store.")(func)


def cli_store(ctx: click.Context, enabled: bool = True):
    """The store chosen by the global ``--store URL`` (else ``$CGTALG_STORE``, else the default
    file), opened and migrated; ``None`` when ``enabled`` is false (``--no-store``)."""
    if not enabled:
        return None
    from cgtalg.store import open_store

    root = ctx.find_root()
    return open_store((root.obj or {}).get("store_url"))
