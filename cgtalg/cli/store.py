"""``cgtalg store``: where the store is, what it holds, and what it knows about a game.

    cgtalg store path                          # where the store lives
    cgtalg store info [--json]                 # location, schema revision, counts
    cgtalg store query "{*2}" [--json]         # every property stored for that form
    cgtalg store query --property grundy --value 0
    cgtalg store verify [--sample N | --full] [--json]   # re-derive stored results

All honour the global ``--store URL`` option (else ``$CGTALG_STORE``, else the user file).
"""

from __future__ import annotations

import json
import os
from typing import Any

import click

from cgtalg.cli.common import emit, json_option
from cgtalg.store.location import STORE_ENV, describe_url, resolve_store_url, sqlite_file, user_store_path

__all__ = ["register", "store_group"]


def _store_url(ctx: click.Context) -> str | None:
    return (ctx.find_root().obj or {}).get("store_url")


@click.group("store")
def store_group() -> None:
    """The persistent store of computed results."""


@store_group.command("path")
@json_option
@click.pass_context
def path_command(ctx: click.Context, as_json: bool) -> None:
    """Print where the store lives (without creating it)."""
    given = _store_url(ctx)
    url = resolve_store_url(given)
    if given:
        source = "--store"
    elif os.environ.get(STORE_ENV):
        source = f"${STORE_ENV}"
    else:
        source = "user data directory"
    path = sqlite_file(url)
    result = {
        "location": describe_url(url),
        "url": url.render_as_string(hide_password=True),
        "source": source,
        "exists": None if path is None else path.exists(),
        "user_store": str(user_store_path()),
    }
    emit(result, as_json, result["location"])


@store_group.command("info")
@json_option
@click.pass_context
def info_command(ctx: click.Context, as_json: bool) -> None:
    """Show the store's location, schema revision and what it holds."""
    from cgtalg.store import open_store  # loads SQLAlchemy's ORM and Alembic: only when needed

    with open_store(_store_url(ctx)) as store:
        result = store.info()
    emit(result, as_json, lambda: _info_text(result))


def _counts(by_name: dict[str, int]) -> str:
    if not by_name:
        return "none"
    return ", ".join(f"{name} {count}" for name, count in by_name.items())


def _info_text(info: dict) -> str:
    revision = info["revision"] + (" (newest)" if info["revision"] == info["head"] else "")
    lines = [
        f"store:      {info['location']}",
        f"backend:    {info['backend']}",
        f"revision:   {revision}",
        f"forms:      {info['forms']}",
        f"properties: {_counts(info['properties'])}",
        f"relations:  {_counts(info['relations'])}",
        f"positions:  {info['positions']} (properties: {_counts(info['position_properties'])})",
        f"sequences:  {info['sequences']} ({info['sequence_values']} values)",
    ]
    return "\n".join(lines)


def _parse_value(text: str) -> Any:
    """A ``--value`` as JSON (``0``, ``true``, ``[1, 2]``), else as a plain string."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


@store_group.command("query")
@click.argument("text", required=False)
@click.option("--property", "prop", metavar="NAME", help="Only entries with this property.")
@click.option("--value", "value_text", metavar="VALUE", help="...whose value is VALUE (JSON, else text).")
@click.option("--limit", default=50, show_default=True, type=click.IntRange(min=1, max=10**6), help="At most this many entries (1 .. 10^6).")
@click.option("--sequences", "list_sequences", is_flag=True, help="List stored sequences (key, length, metadata).")
@click.option("--periods", "list_periods", is_flag=True, help="List sequences with a periodicity result.")
@click.option("--positions", "list_positions", is_flag=True, help="List solved positions (with --ruleset: of one ruleset).")
@click.option("--ruleset", metavar="KEY", help="With --positions: only this ruleset's positions.")
@json_option
@click.pass_context
def query_command(
    ctx: click.Context, text: str | None, prop: str | None, value_text: str | None, limit: int,
    list_sequences: bool, list_periods: bool, list_positions: bool, ruleset: str | None, as_json: bool,
) -> None:
    """Show what the store holds for the game TEXT, which entries have a property value,
    or list sequences, periods and solved positions."""
    listings = list_sequences + list_periods + list_positions
    if listings > 1:
        raise click.UsageError("give only one of --sequences, --periods, --positions")
    if ruleset is not None and not list_positions:
        raise click.UsageError("--ruleset needs --positions")
    if listings and (text is not None or prop is not None):
        raise click.UsageError("--sequences/--periods/--positions take no game TEXT or --property")
    if value_text is not None and prop is None:
        raise click.UsageError("--value needs --property NAME")
    if text is None and prop is None and not listings:
        raise click.UsageError("give game TEXT or --property NAME (or list with --sequences, --periods, --positions)")
    value = None if value_text is None else _parse_value(value_text)
    from cgtalg.store import open_store  # loads SQLAlchemy's ORM and Alembic: only when needed

    with open_store(_store_url(ctx)) as store:
        where = store.location
        if list_sequences or list_periods:
            results = store.list_sequences(periods=list_periods, limit=limit)
        elif list_positions:
            results = store.list_positions(ruleset=ruleset, limit=limit)
        else:
            results = store.find(text=text, prop=prop, value=value, limit=limit)
    result = {
        "store": where,
        "query": {"game": text, "property": prop, "value": value},
        "found": bool(results),
        "results": results,
    }
    emit(result, as_json, lambda: _query_text(result))


def _query_text(result: dict) -> str:
    query = result["query"]
    if not result["results"] and query["game"] is None and query["property"] is None:
        return f"nothing of that kind in the store ({result['store']})"
    if not result["results"]:
        if query["game"] is not None:
            extra = f" with property {query['property']}" if query["property"] else ""
            return f"{query['game']} is not in the store{extra} ({result['store']})"
        wanted = query["property"] + ("" if query["value"] is None else f" = {json.dumps(query['value'])}")
        return f"nothing in the store has {wanted} ({result['store']})"
    lines = []
    for entry in result["results"]:
        if entry["kind"] == "sequence":
            meta = "" if entry["meta"] is None else "  meta " + _short_json(entry["meta"])
            lines.append(f"{entry['key']}  ({entry['length']} values){meta}")
            continue
        if entry["kind"] == "period":
            state = "certified" if entry["certified"] else "not certified"
            lines.append(
                f"{entry['key']}  period {entry['period']}, preperiod {entry['preperiod']} ({state}; "
                f"{entry['length']} values stored)"
            )
            continue
        if entry["kind"] == "form":
            lines.append(f"{entry['game']}  (form {entry['form_id']})")
        else:
            lines.append(f"{entry['ruleset']} position {entry['position']}")
        props = entry["properties"]
        width = max((len(name) for name in props), default=0)
        lines += [f"  {name.ljust(width)}  {json.dumps(v, ensure_ascii=False)}" for name, v in props.items()]
        if not props:
            lines.append("  (no properties stored)")
    return "\n".join(lines)


@store_group.command("verify")
@click.option("--sample", type=click.IntRange(min=1, max=10**9), default=200, show_default=True,
              help="Rows checked per table (random sample).")
@click.option("--full", is_flag=True, help="Check every row.")
@click.option("--seed", type=click.IntRange(min=0, max=2**32 - 1), default=0, show_default=True, help="Seed of the sample.")
@json_option
@click.pass_context
def verify_command(ctx: click.Context, sample: int, full: bool, seed: int, as_json: bool) -> None:
    """Re-derive stored results from their inputs; report every inconsistency with its key.

    Never writes to the store. Exit code 1 when an inconsistency is found, 0 when clean.
    """
    from cgtalg.store import open_store
    from cgtalg.store.verify import verify_store

    with open_store(_store_url(ctx)) as store:
        result = verify_store(store, sample=None if full else sample, seed=seed)
        if store.malformed is not None:
            result["problems"].insert(0, {"table": "(file)", "key": store.location, "problem": f"malformed: {store.malformed}"})
            result["ok"] = False
    emit(result, as_json, lambda: _verify_text(result))
    if not result["ok"]:
        # SystemExit, not ctx.exit: the entry point runs click with standalone_mode=False,
        # which drops ctx.exit's code.
        raise SystemExit(1)


def _verify_text(result: dict) -> str:
    checked = ", ".join(f"{name} {count}" for name, count in result["checked"].items())
    lines = [f"store:   {result['store']}", f"checked: {checked}"]
    if result["ok"]:
        lines.append("no inconsistency found")
    else:
        lines.append(f"{len(result['problems'])} inconsistencies:")
        lines += [f"  {p['table']}: {p['key']}: {p['problem']}" for p in result["problems"]]
    return "\n".join(lines)


def _short_json(value: Any, limit: int = 120) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def register(cli: click.Group) -> None:
    """Add the ``store`` command group to the ``cgtalg`` CLI."""
    cli.add_command(store_group)
