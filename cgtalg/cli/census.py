"""``cgtalg census``: censuses of heap games on Dask, against the store.

    cgtalg census octal --digits 3 --values 2^20                  # LocalCluster, one worker per CPU
    cgtalg census octal --digits 3 --values 2^20 --scheduler tcp://HOST:8786 \\
        --store postgresql://USER:PASSWORD@HOST/DB                 # a real cluster, shared store
    cgtalg census octal --digits 2 --values 2^16 --csv t.csv --html t.html --diff published.csv
    cgtalg census quotient --digits 3 --time class=20s --csv q.csv --html q.html   # misère quotients

Records are written to the store (``--store URL``, else the global ``--store``, else
``$CGTALG_STORE``, else the user file; ``--no-store`` keeps nothing), so a rerun re-checks what
is done and skips it (column ``source``). ``--time`` bounds the whole census, ``--time
quotient=TIME`` (octal) one misère quotient attempt, ``--time class=TIME`` (quotient) one class
(:func:`cgtalg.cli.common.time_parts_option`); Ctrl-C stops it keeping what is stored. See ``docs/census.md`` and ``docs/quotient_census.md``.
"""

from __future__ import annotations

import click

from cgtalg.cli.common import (
    COUNT,
    TimePart,
    check_output_path,
    cli_store,
    emit,
    json_option,
    no_store_option,
    time_parts_option,
)

__all__ = ["register", "census_group"]


def _options(*decorators):
    """One decorator applying click's ``decorators`` in the order written (the options both
    census commands take, listed once)."""
    def apply(f):
        for d in reversed(decorators):
            f = d(f)
        return f
    return apply


_d0_option = click.option(
    "--d0", "d0", type=click.Choice(["0", "4"]), default="0", show_default=True,
    help="first digit: 0 (codes 0.xyz) or 4 (codes 4.xyz: splitting without taking allowed)")
_cluster_options = _options(
    click.option("--scheduler", default=None, metavar="ADDRESS",
                 help="a Dask scheduler, e.g. tcp://HOST:8786 (default: a LocalCluster; 'serial': no Dask)"),
    click.option("--workers", type=click.IntRange(1), default=None,
                 help="LocalCluster workers (default: one per CPU); with --scheduler, wait for this many"),
    click.option("--store", "store_url", default=None, metavar="URL",
                 help="the store (overrides the global --store): a SQLite file or a PostgreSQL URL all workers "
                      "reach"),
    no_store_option)
_batch_codes_csv_options = _options(
    click.option("--batch", "batch_size", type=click.IntRange(1), default=32, show_default=True,
                 help="class records per store transaction"),
    click.option("--codes", default=None, metavar="LIST",
                 help="only these codes (comma-separated) instead of every code of --digits"),
    click.option("--csv", "csv_path", type=click.Path(dir_okay=False), default=None, help="write the table as CSV"))


@click.group("census")
def census_group() -> None:
    """Census of heap games: every octal code of up to k digits, class by class on Dask,
    against the store, with a published-style table."""


@census_group.command("octal")
@click.option("--digits", type=click.IntRange(1, 6), default=3, show_default=True,
              help="codes 0.d1..dk with k <= DIGITS")
@click.option("--values", "values", type=COUNT, default=2**20, show_default=True,
              help="Grundy values per class when no period is certified first (2^20, 1e6)")
@click.option("--hex", "hexadecimal", is_flag=True, help="hexadecimal digits 0-F (moves may leave three heaps)")
@_d0_option
@_cluster_options
@click.option("--no-misere", is_flag=True, help="skip the misère genus tail and quotient attempt")
@click.option("--dense-values", type=COUNT, default=2**16, show_default=True,
              help="bound for codes without sparse space (naive kernel)")
@click.option("--genus-heaps", type=COUNT, default=24, show_default=True, help="genera of heaps 0..N")
@click.option("--quotient-heaps", type=COUNT, default=12, show_default=True,
              help="misère quotient attempt: heaps <= N")
@time_parts_option(
    TimePart(None, "max_seconds", None, "the whole census's budget: past it the classes not back are "
             "cancelled, what came back is stored (a rerun goes on)"),
    TimePart("quotient", "quotient_time", "10s", "the wall-clock safety net of one misère quotient attempt "
             "(an attempt it stops is not stored)", ("--quotient-time", "--quotient-seconds")))
@_batch_codes_csv_options
@click.option("--html", "html_path", type=click.Path(dir_okay=False), default=None,
              help="write an HTML page with the table and plots")
@click.option("--diff", "diff_path", type=click.Path(exists=True, dir_okay=False), default=None,
              help="a published table (CSV with a code column): list every disagreement")
@click.option("--show", type=COUNT, default=None, help="rows to print (default: all)")
@json_option
@click.pass_context
def octal_command(ctx, digits, values, hexadecimal, d0, scheduler, workers, store_url, no_store, no_misere, dense_values,
                  genus_heaps, quotient_heaps, max_seconds, quotient_time, batch_size, codes, csv_path,
                  html_path, diff_path, show, as_json):
    """Census of octal games: every code of up to DIGITS digits, by standard form.

    Each class (codes with one standard form: first cousins) is one Dask task: the Grundy
    sequence to VALUES (rare/common kernel) with the period certified where it holds, the
    misère genus tail and a misère-quotient attempt. Results go to the store in batches; a
    rerun re-checks what the store holds (column ``source``: computed, or reused, re-checked)
    and computes only the rest. What it is doing is printed on stderr from the start; Ctrl-C
    stops it within a second, keeping what is stored.
    """
    published, store, log = _start(ctx, csv_path, html_path, diff_path, False, store_url, no_store, as_json)
    from cgtalg.census.run import octal_census

    result = octal_census(
        digits=digits, values=values, hexadecimal=hexadecimal, scheduler=scheduler, store=store,
        workers=workers, codes=_codes(codes),
        d0=int(d0), misere=not no_misere, dense_values=dense_values, genus_heaps=genus_heaps, quotient_heaps=quotient_heaps,
        quotient_max_seconds=quotient_time, batch_size=batch_size,
        progress=None if not as_json else False, max_seconds=max_seconds, log=log,
    )
    _report(result, as_json, show, csv_path, html_path, (diff_path, published) if diff_path else None)


@census_group.command("quotient")
@click.option("--digits", type=click.IntRange(1, 6), default=3, show_default=True,
              help="codes d0.d1..dk with k <= DIGITS")
@_d0_option
@click.option("--max-order", type=click.IntRange(1), default=5000, show_default=True,
              help="largest candidate order of one class's construction")
@click.option("--max-states", type=click.IntRange(1), default=2_000_000, show_default=True,
              help="option-set states one verification of a candidate may visit")
@_cluster_options
@time_parts_option(
    TimePart(None, "max_seconds", None, "the whole census's budget: past it the classes not back are "
             "cancelled, what came back is stored, checkpoints are kept (a rerun goes on)"),
    TimePart("class", "class_time", "20s", "the budget of one class in CPU time, cumulated over reruns "
             "(a rerun with more goes on)", ("--class-time",)))
@_batch_codes_csv_options
@click.option("--html", "html_path", type=click.Path(dir_okay=False), default=None,
              help="write an HTML page with the table and the plot of |Q_n| of the unsettled classes")
@click.option("--diff", "diff_path", type=click.Path(exists=True, dir_okay=False), default=None,
              help="another table (this command's --json output or CSV, or a published CSV with a code "
                   "column): list every disagreement")
@click.option("--show", type=COUNT, default=None, help="rows to print (default: all)")
@json_option
@click.pass_context
def quotient_command(ctx, digits, d0, class_time, max_order, max_states, scheduler, workers, store_url, no_store, max_seconds,
                     batch_size, codes, csv_path, html_path, diff_path, show, as_json):
    """Misère quotient census: the quotient of every octal code of up to DIGITS digits.

    Each class (codes with one standard form) is one Dask task: its misère quotient built
    heap by heap and verified (Plambeck-Siegel), final when the periodicity theorem
    certifies it (order, |P|, presentation, period of Φ, tame T_n or wild), otherwise the
    largest partial Q_N reached within --time class=TIME and --max-order, with its growth.
    Records go to the store; a rerun re-checks and reuses what is done, and resumes the
    unsettled classes from their checkpoints when given a larger --time class=TIME. See
    docs/quotient_census.md.
    """
    other, store, log = _start(ctx, csv_path, html_path, diff_path, True, store_url, no_store, as_json)
    from cgtalg.census.quotients import quotient_census

    result = quotient_census(
        digits=digits, d0=int(d0), scheduler=scheduler, store=store, workers=workers,
        codes=_codes(codes), class_seconds=class_time,
        max_order=max_order, max_states=max_states, batch_size=batch_size,
        progress=None if not as_json else False, max_seconds=max_seconds, log=log,
    )
    _report(result, as_json, show, csv_path, html_path, (diff_path, other) if diff_path else None)


def _start(ctx, csv_path, html_path, diff_path, quotient: bool, store_url, no_store: bool, as_json: bool):
    """What both censuses do before any work: check the output paths, read the ``--diff``
    table (the quotient census's own reader when ``quotient``; a malformed table fails here),
    let the census's own ``--store`` stand for the global one (keeping ``--stale``) and open
    the store. Returns ``(the other table or None, the store, log)``; ``log`` prints on stderr
    unless the output is JSON."""
    if csv_path:
        check_output_path(csv_path, "--csv", (".csv", ".txt"))
    if html_path:
        check_output_path(html_path, "--html", (".html", ".htm"))
    other = None
    if diff_path:
        if quotient:
            from cgtalg.census.quotient_table import read_quotient_table as read
        else:
            from cgtalg.census.table import read_published as read
        other = read(diff_path)
    if store_url:
        root = ctx.find_root()
        root.obj = dict(root.obj or {}, store_url=store_url)
    store = cli_store(ctx, not no_store)

    def log(text: str) -> None:
        if not as_json:
            click.echo(text, err=True)

    return other, store, log


def _codes(codes: str | None) -> list[str] | None:
    """``--codes``: the comma-separated codes, or None for every code of ``--digits``."""
    return [c.strip() for c in codes.split(",") if c.strip()] if codes else None


def _report(result, as_json: bool, show, csv_path, html_path, diff) -> None:
    """Write the files asked for and print the table (or JSON), with the diff and the failures."""
    out = result.to_json()
    files = {}
    if csv_path:
        result.to_csv(csv_path)
        files["csv"] = csv_path
    if html_path:
        result.to_html(html_path)
        files["html"] = html_path
    diffs = result.diff(diff[1]) if diff else None
    if diffs is not None:
        out["diff"] = [d.to_json() for d in diffs]
    out["files"] = files

    def human() -> str:
        text = str(result).splitlines()
        if show is not None:
            text = text[: show + 2] + ([f"... {len(result.rows) - show} more rows"] if show < len(result.rows) else [])
        lines = list(text)
        for name, path in files.items():
            lines.append(f"{name} written to {path}")
        if diffs is not None:
            lines.append(f"{len(diffs)} disagreement(s) with {diff[0]}" + (":" if diffs else ""))
            lines += [f"  {d}" for d in diffs]
        if result.errors:
            lines.append("failed classes (a rerun tries them again):")
            lines += [f"  {std}: {err}" for std, err in result.errors.items()]
        return "\n".join(lines)

    emit(out, as_json, human)


def register(cli: click.Group) -> None:
    """Attach ``census`` to the ``cgtalg`` group."""
    cli.add_command(census_group)
