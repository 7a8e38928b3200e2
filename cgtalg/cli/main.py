"""The ``cgtalg`` console command."""

from __future__ import annotations

import sys

import click

from cgtalg.errors import CgtalgError

__all__ = ["cli", "main"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--store",
    "store_url",
    default=None,
    metavar="URL",
    help="SQLAlchemy URL or SQLite file path of the store (default: $CGTALG_STORE, "
    "else the user data file; see `cgtalg store info`).",
)
@click.version_option(package_name="cgtalg")
@click.pass_context
def cli(ctx: click.Context, store_url: str | None) -> None:
    """cgtalg: combinatorial game theory research tool (impartial games, misère theory,
    octal games, nimbers), with every result memoised in a persistent store."""
    ctx.ensure_object(dict)
    ctx.obj["store_url"] = store_url


def _register() -> None:
    """Attach the command modules (each defines its commands on its own)."""
    import importlib

    for name in ("games", "solve", "store", "octal", "nim", "demo"):
        try:
            module = importlib.import_module(f"cgtalg.cli.{name}")
        except ModuleNotFoundError as exc:  # a module not written yet
            if exc.name != f"cgtalg.cli.{name}":
                raise
            continue
        module.register(cli)


_register()


def main(argv: list[str] | None = None) -> int:
    """Entry point: run the CLI, turning cgtalg errors into a clear message and exit code 2."""
    try:
        cli.main(args=argv, prog_name="cgtalg", standalone_mode=False)
    except CgtalgError as exc:
        click.echo(f"cgtalg: error: {exc}", err=True)
        return 2
    except click.exceptions.Abort:
        click.echo("Aborted.", err=True)
        return 1
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
