"""The ``cgtalg`` console command."""

from __future__ import annotations

import sys

import click

from cgtalg.errors import CgtalgError

__all__ = ["cli", "main"]


# Command name -> (module under cgtalg.cli, short help).  The module is imported only when its
# command runs (or its own --help is asked), so ``cgtalg --help`` and ``--version`` load no
# command module (click's documented LazyGroup pattern).  Adding a command: one line here and a
# ``register(cli)`` in its module; tests/test_startup.py checks the short help matches.
LAZY_COMMANDS: dict[str, tuple[str, str]] = {
    "game": ("games", "Outcome, Grundy value, misère Grundy..."),
    "equiv": ("games", "Decide whether G and H are equivalent..."),
    "solve": ("solve", "Solve POSITION of RULESET: the outcome..."),
    "store": ("store", "The persistent store of computed results."),
    "grundy": ("octal", "Grundy values of single heaps of GAME..."),
    "period": ("octal", "Find and certify the period of GAME's..."),
    "cousin": ("octal", "First cousin and standard form of an octal..."),
    "outcome": ("octal", "Normal-play outcome and winning moves of a..."),
    "nim": ("nim", "Nimber arithmetic on ordinals below..."),
    "demo": ("demo", "Run the showcase on the store: prove {*2}..."),
}


class LazyGroup(click.Group):
    """A click group whose subcommands are imported from their module on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(LAZY_COMMANDS))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in LAZY_COMMANDS:
            _load(LAZY_COMMANDS[cmd_name][0])
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, LAZY_COMMANDS[name][1] if name in LAZY_COMMANDS else
                 self.commands[name].get_short_help_str(limit=45))
                for name in self.list_commands(ctx)]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


def _version() -> str:
    from cgtalg import __version__

    return __version__


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--store",
    "store_url",
    default=None,
    metavar="URL",
    help="SQLAlchemy URL or SQLite file path of the store (default: $CGTALG_STORE, "
    "else the user data file; see `cgtalg store info`).",
)
@click.version_option(_version(), prog_name="cgtalg")
@click.pass_context
def cli(ctx: click.Context, store_url: str | None) -> None:
    """cgtalg: combinatorial game theory research tool (impartial games, misère theory,
    octal games, nimbers), with every result memoised in a persistent store."""
    ctx.ensure_object(dict)
    ctx.obj["store_url"] = store_url


_LOADED: set[str] = set()


def _load(name: str) -> None:
    """Import the command module ``cgtalg.cli.<name>`` and attach its commands (once)."""
    import importlib

    if name in _LOADED:
        return
    _LOADED.add(name)
    importlib.import_module(f"cgtalg.cli.{name}").register(cli)


def _register() -> None:
    """Attach every command module now (for tools that walk ``cli.commands``)."""
    for name in sorted({module for module, _ in LAZY_COMMANDS.values()}):
        _load(name)


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
