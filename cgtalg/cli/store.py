"""``cgtalg store``: where the store is, what it holds, and what it knows about a game.

    cgtalg store path                          # where the store lives
    cgtalg store info [--json]                 # location, schema revision, counts
    cgtalg store query "{*2}" [--json]         # every property stored for that form
    cgtalg store query --property grundy --value 0
    cgtalg store verify [--sample N | --full] [--time T] [--json]   # re-check certificates, recompute values

All honour the global ``--store URL`` option (else ``$CGTALG_STORE``, else the user file).
"""

from __future__ import annotations

import json
import os
from typing import Any

import click

from cgtalg.cli.common import emit, json_option, time_option
from cgtalg.store.location import STORE_ENV, describe_url, resolve_store_url, sqlite_file, user_store_path

__all__ = ["register", "store_group"]


def _store_url(ctx: click.Context) -> str | None:
    return (ctx.find_root().obj or {}).get("store_url")


@click.group("store")
def store_group() -> None:
    """The persistent store of computed results."""


@store_group.command("path")
@time_option(pass_value=False)
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
@time_option(pass_value=False)
@json_option
@click.pass_context
def info_command(ctx: click.Context, as_json: bool) -> None:
    """Show the store's location, schema revision and what it holds."""
    from cgtalg.store import open_store  # loads SQLAlchemy's ORM and Alembic: only when needed

    with open_store(_store_url(ctx)) as store:
        result = store.info()
        result["provenance"] = store.provenance_summary()
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
    rows = info.get("provenance") or []
    stale = [r for r in rows if not r["current"]]
    old = sum(r["before_provenance"] for r in rows)
    lines.append(f"provenance: {sum(r['rows'] for r in rows)} results, {sum(r['rows'] for r in stale)} stale"
                 + (f", {old} written before provenance was recorded (served as version 1)" if old else ""))
    for r in stale:
        lines.append(f"  stale: {r['table']} {r['name']!r}: {r['rows']} rows of version {r['algorithm']} "
                     f"(current {r['current_algorithm']}; recomputed when asked, shown with --stale show)")
    return "\n".join(lines)


def _parse_value(text: str) -> Any:
    """A ``--value`` as JSON (``0``, ``true``, ``[1, 2]``), else as a plain string."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


@store_group.command("query")
@time_option(pass_value=False)
@click.argument("text", required=False)
@click.option("--property", "prop", metavar="NAME", help="Only entries with this property.")
@click.option("--value", "value_text", metavar="VALUE",
              help="...whose value is VALUE (JSON, else text), or in a range A..B (..B, A..).")
@click.option("--min", "min_value", type=float, metavar="X", help="...whose value is a number >= X.")
@click.option("--max", "max_value", type=float, metavar="X", help="...whose value is a number <= X.")
@click.option("--kind", type=click.Choice(["position", "form"]), help="Only positions, or only forms.")
@click.option("--ruleset", metavar="KEY",
              help="Only positions of this ruleset: a stored key (misere:0.77) or a name (kayles, 0.77).")
@click.option("--size", "size", metavar="RANGE", help="Heap positions of this many tokens in all: N, A..B, ..B, A..")
@click.option("--heaps", "heaps", metavar="RANGE", help="Heap positions of this many nonempty heaps: N, A..B, ..B, A..")
@click.option("--outcome", metavar="P|N|L|R",
              help="Entries whose stored results tell this outcome (normal play; --misere: misère play).")
@click.option("--misere", is_flag=True, help="With --outcome: the outcome in misère play.")
@click.option("--genus", metavar="SYMBOL|KIND", help="Genus symbol (1^031, 0^0, 6^(8,10)) or kind (tame, restive, restless, wild).")
@click.option("--born-by", "born_by", type=click.IntRange(min=0), metavar="DAY", help="Forms born by day DAY (birthday <= DAY).")
@click.option("--columns", metavar="NAMES", help="Property columns to show, comma-separated (default: all stored).")
@click.option("--limit", default=50, show_default=True, type=click.IntRange(min=1, max=10**6), help="At most this many entries (1 .. 10^6).")
@click.option("--sequences", "list_sequences", is_flag=True, help="List stored sequences (key, length, metadata).")
@click.option("--periods", "list_periods", is_flag=True, help="List sequences with a periodicity result.")
@click.option("--positions", "list_positions", is_flag=True, help="List solved positions (with --ruleset: of one ruleset).")
@click.option("--csv", "as_csv", is_flag=True, help="Print the filtered table as CSV.")
@json_option
@click.pass_context
def query_command(
    ctx: click.Context, text: str | None, prop: str | None, value_text: str | None, min_value: float | None,
    max_value: float | None, kind: str | None, ruleset: str | None, size: str | None, heaps: str | None,
    outcome: str | None, misere: bool, genus: str | None, born_by: int | None, columns: str | None, limit: int,
    list_sequences: bool, list_periods: bool, list_positions: bool, as_csv: bool, as_json: bool,
) -> None:
    """Show what the store holds for the game TEXT, list sequences, periods and solved
    positions, or give the table of stored entries that pass the filters (--ruleset, --size,
    --heaps, --property/--value/--min/--max, --outcome [--misere], --genus, --born-by),
    answered from the store without recomputing.

    \b
    cgtalg store query --ruleset kayles --size ..30 --outcome P --misere
    cgtalg store query --genus wild --ruleset 0.77 --csv
    cgtalg store query --property misere_grundy --value 2..5 --json
    """
    listings = list_sequences + list_periods + list_positions
    if listings > 1:
        raise click.UsageError("give only one of --sequences, --periods, --positions")
    if as_csv and as_json:
        raise click.UsageError("give --csv or --json, not both")
    if misere and outcome is None:
        raise click.UsageError("--misere chooses the play of --outcome: give --outcome P or N too")
    for opt, given in (("--value", value_text), ("--min", min_value), ("--max", max_value)):
        if given is not None and prop is None:
            raise click.UsageError(f"{opt} needs --property NAME")
    if value_text is not None and (min_value is not None or max_value is not None):
        raise click.UsageError("give --value or --min/--max, not both")
    filters = {"kind": kind, "size": size, "heaps": heaps, "min": min_value, "max": max_value,
               "outcome": outcome, "genus": genus, "born_by": born_by}
    value = None if value_text is None else _parse_value(value_text)
    ranged = isinstance(value, str) and ".." in value
    table = (any(v is not None for v in filters.values()) or as_csv or columns is not None or ranged
             or (ruleset is not None and not list_positions))
    if listings and (text is not None or prop is not None or table):
        raise click.UsageError("--sequences/--periods/--positions take no game TEXT, --property or filters")
    if table and text is not None:
        raise click.UsageError("give game TEXT or filters, not both (to filter by form, use --kind form)")
    if text is None and prop is None and not listings and not table:
        raise click.UsageError("give game TEXT or --property NAME, filters (--ruleset, --size, --outcome, --genus, "
                               "--born-by, ...), or list with --sequences, --periods, --positions")
    from cgtalg.store import open_store  # loads SQLAlchemy's ORM and Alembic: only when needed

    if table or (as_csv and prop is not None):
        filters.update(ruleset=ruleset, prop=prop, value=value, misere=misere)
        cols = None if columns is None else [c.strip() for c in columns.split(",") if c.strip()]
        with open_store(_store_url(ctx)) as store:
            where = store.location
            rows = store.query(as_frame=False, limit=limit, columns=cols, **filters)
        shown = {k: v for k, v in filters.items() if v is not None and v is not False}
        if as_csv:
            click.echo(_rows_csv(rows), nl=False)
            return
        result = {"store": where, "query": shown, "found": bool(rows), "count": len(rows),
                  "limit_reached": len(rows) == limit, "results": rows}
        emit(result, as_json, lambda: _table_text(result))
        return
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


_BASE_COLUMNS = ("kind", "id", "ruleset", "position", "size", "heaps", "birthday", "normal", "misere")


def _cell(v: Any) -> str:
    """A table or CSV cell: text as is, other JSON data as JSON, missing as empty."""
    if v is None:
        return ""
    if isinstance(v, str):
        return v
    return json.dumps(v, ensure_ascii=False, separators=(",", ":"))


def _clip(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _rows_csv(rows: list[dict]) -> str:
    import csv
    import io

    names = list(_BASE_COLUMNS) + [n for n in (rows[0] if rows else {}) if n not in _BASE_COLUMNS]
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(names)
    for r in rows:
        w.writerow([_cell(r.get(n)) for n in names])
    return out.getvalue()


def _table_text(result: dict) -> str:
    rows = result["results"]
    if not rows:
        wanted = ", ".join(f"{k} {v}" for k, v in result["query"].items())
        return f"nothing in the store passes the filters ({wanted}) ({result['store']})"
    names = [n for n in _BASE_COLUMNS if n != "id" and any(r.get(n) is not None for r in rows)]
    names += [n for n in rows[0] if n not in _BASE_COLUMNS]
    cells = [[_clip(_cell(r.get(n))) for n in names] for r in rows]
    widths = [max(len(n), *(len(c[i]) for c in cells)) for i, n in enumerate(names)]
    lines = ["  ".join(n.ljust(w) for n, w in zip(names, widths)).rstrip()]
    lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in cells]
    more = " (the --limit; there may be more)" if result["limit_reached"] else ""
    lines.append(f"{len(rows)} {'entry' if len(rows) == 1 else 'entries'}{more}")
    return "\n".join(lines)


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


@store_group.command("fill")
@time_option(pass_value=False)
@click.argument("ruleset")
@click.option("--max-size", "max_size", required=True, type=click.IntRange(min=0, max=200), metavar="N",
              help="Positions of at most N tokens in all.")
@click.option("--min-size", "min_size", default=0, show_default=True, type=click.IntRange(min=0), metavar="N",
              help="...and at least N tokens.")
@json_option
@click.pass_context
def fill_command(ctx: click.Context, ruleset: str, max_size: int, min_size: int, as_json: bool) -> None:
    """Store the genus of every position (any number of heaps) of the heap game RULESET (kayles,
    0.77, dawson, ...) with --min-size to --max-size tokens, so that `store query` answers
    questions about all of them (a genus tells the outcome in both plays). Positions already
    stored are not recomputed.

    \b
    cgtalg store fill kayles --max-size 30
    cgtalg store query --ruleset kayles --size ..30 --outcome P --misere
    """
    from cgtalg.store import open_store
    from cgtalg.store.fill import fill_heap_genera

    if min_size > max_size:
        raise click.UsageError(f"--min-size {min_size} is above --max-size {max_size}")
    with open_store(_store_url(ctx)) as store:
        result = fill_heap_genera(ruleset, max_size, store=store, min_size=min_size)
        result["store"] = store.location
    emit(result, as_json, lambda: (
        f"{result['ruleset']}: {result['positions']} positions of {min_size} to {max_size} tokens; "
        f"{result['computed']} genera computed and stored, {result['stored_before']} were stored already "
        f"({result['store']})"))


@store_group.command("export-certificates")
@time_option(pass_value=False)
@click.argument("directory", type=click.Path(file_okay=False, writable=True))
@json_option
@click.pass_context
def export_command(ctx: click.Context, directory: str, as_json: bool) -> None:
    """Write every certificate the store holds (certified periods, misère quotients finite and
    infinite, equivalence proofs, settled census rows) as JSON files below DIRECTORY, one
    document a file, each re-checkable on its own by the independent referee:

    \b
    cgtalg store export-certificates certs/ && cgtalg check certs/
    """
    from cgtalg.export import export_certificates
    from cgtalg.store import open_store

    with open_store(_store_url(ctx)) as store:
        result = export_certificates(store, directory)
        result["store"] = store.location

    def text() -> str:
        counts = ", ".join(f"{n} {k}" for k, n in sorted(result["counts"].items())) or "no certificate"
        lines = [f"{result['directory']}: {len(result['written'])} file(s) written ({counts}) from {result['store']}"]
        lines += [f"  skipped {s['key']}: {s['why']}" for s in result["skipped"][:20]]
        if len(result["skipped"]) > 20:
            lines.append(f"  ... and {len(result['skipped']) - 20} more skipped")
        lines.append(f"check them with: cgtalg check {result['directory']}")
        return "\n".join(lines)

    emit(result, as_json, text)


@store_group.command("verify")
@click.option("--sample", type=click.IntRange(min=1, max=10**9), default=None, metavar="N",
              help="Rows checked of each kind, a seeded uniform sample (default 200); Grundy sequences "
                   "are recomputed up to 2^22 values.")
@click.option("--full", is_flag=True, help="Check every row and recompute every stored value.")
@click.option("--seed", type=click.IntRange(min=0, max=2**32 - 1), default=0, show_default=True, help="Seed of the sample.")
@time_option(help="Stop after this long (90, 90s, 10m, 2h), reporting what was checked so far.")
@click.option("--progress/--no-progress", default=None, help="Progress counter on stderr (default: on a terminal).")
@json_option
@click.pass_context
def verify_command(ctx: click.Context, sample: int | None, full: bool, seed: int, max_seconds: float | None,
                   progress: bool | None, as_json: bool) -> None:
    """Re-derive stored results: re-run the periodicity, quotient and proof checkers on every
    record that carries a certificate (on recomputed values), recompute a sample of the values
    that carry none (form properties, partizan values, solutions, genera), and name every row
    that does not hold up.

    Never writes to the store; memory stays bounded (tables are read in batches). Exit code 1
    when an inconsistency is found, 2 when stopped (--time, memory) before the end, 0 when clean.
    """
    from cgtalg.store import open_store
    from cgtalg.store.verify import DEFAULT_SAMPLE, verify_store

    if full and sample is not None:
        raise click.UsageError("give --sample N or --full, not both")
    bar = _verify_bar(progress)
    try:
        with open_store(_store_url(ctx)) as store:
            result = verify_store(store, sample=None if full else (sample or DEFAULT_SAMPLE), seed=seed,
                                  max_seconds=max_seconds, progress=bar)
            if store.malformed is not None:
                result["problems"].insert(0, {"table": "(file)", "key": store.location, "problem": f"malformed: {store.malformed}"})
                result["ok"] = False
    finally:
        if bar is not None:
            bar.close()
    emit(result, as_json, lambda: _verify_text(result))
    # SystemExit, not ctx.exit: the entry point runs click with standalone_mode=False,
    # which drops ctx.exit's code.
    if not result["ok"]:
        raise SystemExit(1)
    if not result["complete"]:
        raise SystemExit(2)


class _VerifyBar:
    """A tqdm counter of rows checked (the CLI's progress bars are tqdm's), as the
    ``progress(check, n)`` callback of :func:`cgtalg.store.verify.verify_store`."""

    def __init__(self) -> None:
        from tqdm.auto import tqdm

        self.bar = tqdm(desc="store verify", unit=" rows", leave=False)

    def __call__(self, check: str, n: int) -> None:
        self.bar.set_postfix_str(check, refresh=False)
        self.bar.update(n)

    def close(self) -> None:
        self.bar.close()


def _verify_bar(progress: bool | None) -> _VerifyBar | None:
    import sys

    show = sys.stderr.isatty() if progress is None else progress
    return _VerifyBar() if show else None


def _verify_text(result: dict) -> str:
    checked = ", ".join(f"{name} {count}" for name, count in result["checked"].items())
    scope = "every row" if result.get("sample") is None else f"a sample of up to {result['sample']} rows of each kind"
    lines = [f"store:   {result['store']}", f"checked: {checked} ({scope})"]
    for name, entry in result.get("skipped", {}).items():
        lines.append(f"not re-derived: {name} {entry['count']} (e.g. {entry['first_reason']})")
    if not result.get("complete", True):
        lines.append(f"stopped before the end: {result['stopped']}")
    if result["ok"]:
        lines.append("no inconsistency found" + ("" if result.get("complete", True) else " in what was checked"))
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
