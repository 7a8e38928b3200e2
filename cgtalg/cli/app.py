"""The ``cgtalg`` console command: the click application (:mod:`cgtalg.cli.main` is the entry point,
which first offers the command to the click-free fast paths of :mod:`cgtalg.cli.fast`)."""

from __future__ import annotations

import sys

import click

from cgtalg.cli.main import EXIT_INTERRUPTED, INTERRUPTED, _exit_now  # noqa: F401 - click-free, shared with the fast path
from cgtalg.errors import CgtalgError

__all__ = ["cli", "main"]


# Command name -> (module under cgtalg.cli, short help).  The module is imported only when its
# command runs (or its own --help is asked), so ``cgtalg --help`` and ``--version`` load no
# command module (click's documented LazyGroup pattern).  Adding a command: one line here and a
# ``register(cli)`` in its module; tests/test_startup.py checks the short help matches.
LAZY_COMMANDS: dict[str, tuple[str, str]] = {
    "game": ("games", "Outcome and values of the game TEXT."),
    "equiv": ("games", "Compare G and H: equal, less, greater or..."),
    "solve": ("solve", "Solve POSITION of RULESET: the outcome..."),
    "store": ("store", "The persistent store of computed results."),
    "grundy": ("octal", "Grundy values of single heaps of GAME..."),
    "period": ("octal", "Find and certify the period of GAME's..."),
    "cousin": ("octal", "First cousin and standard form of an octal..."),
    "outcome": ("octal", "Normal-play outcome and winning moves of a..."),
    "nim": ("nim", "Nimber arithmetic on ordinals below..."),
    "misere": ("misere", "Misère report of GAME: genus sequence,..."),
    "quotient": ("quotient", "Misère quotient of GAME: a code (0.07), a..."),
    "demo": ("demo", "Run the showcase on the store: prove {*2}..."),
    "census": ("census", "Census of heap games: every octal code of..."),
    "value": ("partizan", "Canonical form and normal-play value of..."),
    "check": ("check", "Re-verify every certificate in PATHS..."),
    "norton": ("partizan_ops", "Norton product G.U of G by a positive game..."),
    "reduced": ("partizan_ops", "Reduced canonical form of G: the simplest..."),
    "ordinal-sum": ("partizan_ops", "Ordinal sum G:H = {G^L, G:H^L | G^R,..."),
    "heat": ("partizan_ops", "G heated by T: G for a number, else {∫G^L..."),
    "overheat": ("partizan_ops", "G overheated from S to T: n.S for an..."),
    "atomic-weight": ("partizan_ops", "Atomic weight of G: the W with G ~ W.^..."),
    "loopy": ("loopy", "Loopy games in CGSuite's notation (on,..."),
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
@click.option(
    "--memory",
    "max_memory",
    default=None,
    metavar="SIZE",
    help="Memory ceiling of every computation, e.g. 8G or 512M (default: $CGTALG_MAX_MEMORY, "
    "else 60% of the physical memory, at most 16G); past it a computation stops with a clear error.",
)
@click.option(
    "--stale",
    type=click.Choice(["recompute", "show"]),
    default="recompute",
    show_default=True,
    help="Stored results written by an older version of their algorithm: recompute them, or "
    "show them marked as stale (a note on stderr names each one).",
)
@click.version_option(_version(), prog_name="cgtalg")
@click.pass_context
def cli(ctx: click.Context, store_url: str | None, max_memory: str | None, stale: str = "recompute") -> None:
    """cgtalg: combinatorial game theory research tool (impartial games, misère theory,
    octal games, nimbers), with every result memoised in a persistent store."""
    ctx.ensure_object(dict)
    ctx.obj["store_url"] = store_url
    ctx.obj["stale"] = stale
    if max_memory is not None:
        from cgtalg.budget import set_default_max_memory

        set_default_max_memory(max_memory)


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


#: longest error message printed (longer ones keep their start and end)
MAX_MESSAGE = 600


def _fail(exc: BaseException, kind: str, message: str, as_json: bool) -> int:
    """Report a failure as one line on stderr, or a JSON object on stdout; exit status 2."""
    import json

    # one line: a notation error's caret picture (lines 2-3) is dropped, its first line names
    # the position; other messages are joined
    if isinstance(exc, CgtalgError) and "\n    " in message:
        message = message.split("\n", 1)[0]
    message = " ".join(message.split())
    from cgtalg.cli.common import cli_wording

    message = cli_wording(message)
    if len(message) > MAX_MESSAGE:  # an input repeated in full (200,000 digits) helps no one
        message = message[: MAX_MESSAGE - 120] + " [...] " + message[-100:]
    if as_json:
        click.echo(json.dumps({"error": {"type": kind, "message": message}}, ensure_ascii=False))
    else:
        click.echo(f"cgtalg: error: {message}", err=True)
    return 2


#: unexpected exceptions named for what they mean to a user
_UNEXPECTED = {
    "MemoryError": "out of memory",
    "RecursionError": "the input is nested too deeply (Python's recursion limit)",
    "OverflowError": "a number is too large for this operation",
}


def _interrupted(as_json: bool, leave: bool) -> int:
    """Ctrl-C: ``cgtalg: interrupted`` on stderr (``{"error": {"type": "Interrupted", ...}}``
    with ``--json``), status 130, no traceback. ``leave``: a real process, which then ends at
    once (``os._exit``) instead of freeing a large search's memory object by object; what it
    stored is committed (a transaction cut short is rolled back by SQLite)."""
    import json

    if as_json:
        click.echo(json.dumps({"error": {"type": "Interrupted", "message": "interrupted"}}))
    click.echo(INTERRUPTED, err=True)
    if leave:
        _exit_now(EXIT_INTERRUPTED)
    return EXIT_INTERRUPTED


def main(argv: list[str] | None = None) -> int:
    """Entry point: run the CLI behind one error boundary.

    Every failure is one line on stderr, ``cgtalg: error: ...``, and exit status 2 (an
    unverified equivalence proof exits 1, as documented by ``equiv``; Ctrl-C prints
    ``cgtalg: interrupted`` and exits 130, within a second: :func:`cgtalg.interrupts.install_watchdog`
    ends a process whose kernel keeps Python from answering); with ``--json``
    anywhere in the arguments the failure is ``{"error": {"type": ..., "message": ...}}`` on
    stdout instead. cgtalg's own errors (:mod:`cgtalg.errors`) and usage errors are named as
    such; any other exception (out of memory, a file that cannot be written, a database
    driver error) is reported with its type and never as a traceback, unless the environment
    variable ``CGTALG_DEBUG=1`` asks to re-raise it.
    """
    import os

    if argv is None:  # a real process: Ctrl-C ends it within a second, whatever runs
        # numpy's OpenBLAS starts a thread per core when numpy is imported, tens of ms of CPU
        # in a fresh process; cgtalg does no floating-point linear algebra (its products are
        # of integer arrays, which BLAS does not run), so one thread is all a command needs
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
        from cgtalg.interrupts import install_watchdog

        install_watchdog(message=f"{INTERRUPTED}\n")
    args = list(sys.argv[1:] if argv is None else argv)
    as_json = "--json" in args
    debug = os.environ.get("CGTALG_DEBUG", "") not in ("", "0")
    # Integers in and out are bounded by the input readers (cgtalg.cli.common.MAX_INT_DIGITS):
    # lift Python's int-to-text limit far enough to print them, never to unbounded.
    limit = getattr(sys, "get_int_max_str_digits", lambda: 0)()
    if limit and limit < 250_000:
        sys.set_int_max_str_digits(250_000)
    try:
        if debug:
            cli.main(args=args, prog_name="cgtalg", standalone_mode=False)
        else:  # out of memory, recursion, overflow: cgtalg errors that say what to change
            from cgtalg.errors import python_limits

            with python_limits("the command"):
                cli.main(args=args, prog_name="cgtalg", standalone_mode=False)
    except CgtalgError as exc:
        if debug:
            raise
        return _fail(exc, type(exc).__name__, str(exc), as_json)
    except click.exceptions.Abort as exc:  # click's name for Ctrl-C (or the end of input at a prompt)
        if not isinstance(exc.__cause__ or exc.__context__, KeyboardInterrupt):
            return _fail(exc, "Aborted", "aborted", as_json)
        return _interrupted(as_json, argv is None)
    except click.exceptions.NoSuchOption as exc:
        if debug:
            raise
        hint = f" (see `cgtalg {exc.ctx.command_path.split(' ', 1)[1]} --help`)" if exc.ctx and " " in exc.ctx.command_path else ""
        return _fail(exc, "UsageError", exc.format_message() + hint, as_json)
    except click.exceptions.UsageError as exc:
        if debug:
            raise
        where = f"{exc.ctx.command_path}: " if exc.ctx is not None else ""
        return _fail(exc, "UsageError", where + exc.format_message(), as_json)
    except click.ClickException as exc:
        if debug:
            raise
        return _fail(exc, type(exc).__name__, exc.format_message(), as_json)
    except SystemExit as exc:  # a command's own exit status (equiv: 1 when the proof fails)
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
        return code
    except (KeyboardInterrupt, Exception) as exc:  # noqa: BLE001 - the boundary: no traceback
        if debug:
            raise
        from cgtalg.errors import signal_cause

        cause = signal_cause(exc)  # Ctrl-C or a budget inside a compiled kernel's dispatch
        if cause is not exc:
            if isinstance(cause, CgtalgError):
                return _fail(cause, type(cause).__name__, str(cause), as_json)
            exc = cause
        kind = type(exc).__name__
        meaning = _UNEXPECTED.get(kind)
        text = str(exc) or kind
        if isinstance(exc, OSError):
            meaning = "cannot read or write a file"
            text = f"{exc.strerror or exc}" + (f": {exc.filename}" if exc.filename else "")
        if isinstance(exc, KeyboardInterrupt):
            return _interrupted(as_json, argv is None)
        detail = f"{meaning}: {text}" if meaning else f"unexpected {kind}: {text}"
        return _fail(exc, kind, detail + " (set CGTALG_DEBUG=1 for the traceback)", as_json)
    return 0
