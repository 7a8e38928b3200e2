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

from cgtalg.core.jsonable import to_jsonable
from cgtalg.errors import ArgumentError, ArgumentTypeError, shorten

__all__ = [
    "json_option", "no_store_option", "cli_store", "emit", "to_jsonable",
    "ExactInt", "COUNT", "HEAP", "parse_exact_int", "MAX_INT_DIGITS", "check_output_path",
    "DurationType", "TIME", "time_option",
]

#: the most decimal digits an integer argument may have (and the largest exponent's result)
MAX_INT_DIGITS = 100_000

_EXACT_INT_HELP = "an integer: 1000000, 1e6, 2^20, 2**20, 10^12 (exact; 1.5 or 1e-3 are refused)"


def parse_exact_int(text: str, what: str = "value") -> int:
    """The exact integer written ``text``: decimal digits of any length (up to
    :data:`MAX_INT_DIGITS`), ``1e6`` / ``3E12`` (mantissa times a power of ten, when that is an
    integer), ``2^20`` / ``2**20`` / ``10^12`` (a power), with an optional leading ``-`` and
    ``_`` or ``,`` digit separators. Never goes through ``float``: ``1000000000000000001``
    stays itself.

    Raises
    ------
    ArgumentError
        A ``ValueError`` naming ``what`` and the text (shortened), for anything else (``1.5``,
        ``1e-3``, ``²``, an empty string, a result of more than :data:`MAX_INT_DIGITS` digits).

    Examples
    --------
    >>> [parse_exact_int(t) for t in ("1000000000000000001", "1e6", "2^20", "10**12", "2.5e3", "-7")]
    [1000000000000000001, 1000000, 1048576, 1000000000000, 2500, -7]
    """
    from cgtalg.core.notation import digits_to_int

    if not isinstance(text, str):
        raise ArgumentTypeError(f"{what} must be text, got {type(text).__name__}: {shorten(text)}")
    shown = shorten(text, 40)
    t = text.strip().replace("_", "")
    sign = 1
    if t.startswith("-"):
        sign, t = -1, t[1:]
    elif t.startswith("+"):
        t = t[1:]

    def digits(part: str) -> str:
        if not part or not part.isascii() or not part.isdigit():
            raise ArgumentError(f"{what} {shown} is not {_EXACT_INT_HELP}")
        if len(part) > MAX_INT_DIGITS:
            raise ArgumentError(f"{what} {shown} has {len(part):,} digits, more than the limit of "
                                f"{MAX_INT_DIGITS:,} (cgtalg.cli.common.MAX_INT_DIGITS)")
        return part

    if "^" in t or "**" in t:
        base_text, exp_text = t.split("^", 1) if "^" in t else t.split("**", 1)
        base, exp = digits_to_int(digits(base_text)), digits_to_int(digits(exp_text))
        if base > 1 and exp * base.bit_length() > MAX_INT_DIGITS * 3.33:
            raise ArgumentError(f"{what} {shown} has more than {MAX_INT_DIGITS:,} digits "
                                "(cgtalg.cli.common.MAX_INT_DIGITS)")
        return sign * base**exp
    low = t.lower()
    if "e" in low:
        mantissa, exp_text = low.split("e", 1)
        exp_sign = 1
        if exp_text.startswith(("-", "+")):
            exp_sign = -1 if exp_text[0] == "-" else 1
            exp_text = exp_text[1:]
        exp = exp_sign * digits_to_int(digits(exp_text))
        whole, _, frac = mantissa.partition(".")
        whole = whole.replace(",", "")
        m = digits_to_int(digits(whole + frac)) if (whole + frac) else None
        if m is None:
            raise ArgumentError(f"{what} {shown} is not {_EXACT_INT_HELP}")
        shift = exp - len(frac)
        if shift > MAX_INT_DIGITS:
            raise ArgumentError(f"{what} {shown} has more than {MAX_INT_DIGITS:,} digits "
                                "(cgtalg.cli.common.MAX_INT_DIGITS)")
        if shift >= 0:
            return sign * m * 10**shift
        if -shift > MAX_INT_DIGITS + 1:  # 10**-shift would not fit: m < 10**-shift
            q, r = 0, m
        else:
            q, r = divmod(m, 10**-shift)
        if r:
            raise ArgumentError(f"{what} {shown} is not an integer; expected {_EXACT_INT_HELP}")
        return sign * q
    if "." in t:
        whole, _, frac = t.partition(".")
        if frac.strip("0") == "" and whole:
            return sign * digits_to_int(digits(whole.replace(",", "")))
        raise ArgumentError(f"{what} {shown} is not an integer; expected {_EXACT_INT_HELP}")
    return sign * digits_to_int(digits(t.replace(",", "")))


class ExactInt(click.ParamType):
    """A click parameter type for counts, heap sizes and limits: read by
    :func:`parse_exact_int` (exact, any size), at least ``minimum``."""

    name = "N"

    def __init__(self, minimum: int | None = 0, what: str = "count") -> None:
        self.minimum = minimum
        self.what = what

    def convert(self, value: Any, param: Any, ctx: Any) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            try:
                number = parse_exact_int(str(value), self.what)
            except ValueError as exc:
                self.fail(str(exc), param, ctx)
        if self.minimum is not None and number < self.minimum:
            self.fail(f"{self.what} {value!r} is below {self.minimum}", param, ctx)
        return number


#: a non-negative count (``-n 1e6``)
COUNT = ExactInt(0, "count")
#: a heap size (non-negative, any size)
HEAP = ExactInt(0, "heap size")

#: the image formats matplotlib writes
IMAGE_SUFFIXES = (".png", ".svg", ".pdf", ".jpg", ".jpeg", ".eps", ".ps", ".tif", ".tiff", ".webp", ".pgf")


def check_output_path(path: str, option: str, suffixes: tuple[str, ...] = IMAGE_SUFFIXES) -> None:
    """Refuse an output file that cannot be written BEFORE any work: an extension not in
    ``suffixes``, a missing or unwritable directory, a directory in its place.

    Raises
    ------
    click.UsageError
        Naming the option and the problem.
    """
    import os

    suffix = os.path.splitext(path)[1].lower()
    if suffix not in suffixes:
        raise click.UsageError(
            f"{option} {path!r}: unknown image extension {suffix or '(none)'!r}; use one of "
            + ", ".join(suffixes)
        )
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise click.UsageError(f"{option} {path!r} is a directory")
    if not os.path.isdir(folder):
        raise click.UsageError(f"{option} {path!r}: the directory {folder} does not exist")
    if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise click.UsageError(f"{option} {path!r}: permission denied (cannot write in {folder})")


def json_option(func: Callable) -> Callable:
    """Decorator adding the ``--json`` flag (parameter name ``as_json``) to a command."""
    return click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")(func)


#: the library's hints, which name Python parameters, as the command line words them
_CLI_WORDS = (
    ("pass a larger max_seconds= (on the command line: --time, e.g. --time 10m)",
     "pass a larger --time, e.g. --time 10m"),
    ("pass a larger max_memory= (on the command line: --memory, e.g. --memory 16G; or set CGTALG_MAX_MEMORY)",
     "pass a larger --memory, e.g. --memory 16G (or set CGTALG_MAX_MEMORY)"),
    ("pass a larger max_field_degree=, on the command line --max-field-degree",
     "pass a larger --max-field-degree"),
    ("stopped at max_values = ", "stopped at --max-values "),
    ("pass a larger max_values to go on", "pass a larger --max-values to go on"),
    ("periodicity(max_values=...)", "`cgtalg period GAME --max-values N`"),
)


def cli_wording(text: str) -> str:
    """``text`` with the library's hints reworded for the command line: a message printed by a
    command names the command's options (``--time``), not the Python parameters
    (``max_seconds=``)."""
    for py, cli in _CLI_WORDS:
        if py in text:
            text = text.replace(py, cli)
    return text


def emit(result: dict, as_json: bool, human: str | Callable[[], str]) -> None:
    """Print ``result`` as JSON when ``as_json`` is set, else the human-readable text (hints
    worded for the command line, :func:`cli_wording`)."""
    if as_json:
        click.echo(cli_wording(json.dumps(to_jsonable(result), indent=2, ensure_ascii=False)))
    else:
        click.echo(cli_wording(human() if callable(human) else human))


def no_store_option(func: Callable) -> Callable:
    """Decorator adding ``--no-store`` (parameter ``no_store``) to a command that uses the store."""
    return click.option("--no-store", is_flag=True, help="Compute without reading or writing the store.")(func)


#: Commands whose store is opened by :func:`cgtalg.store.light.open_light_store`: a store file at
#: the newest schema is read and written through ``sqlite3``, without SQLAlchemy (issue 23);
#: every other store, and every other command, opens the full store.
LIGHT_STORE_COMMANDS = frozenset({"game", "outcome", "grundy", "period", "value"})


def cli_store(ctx: click.Context, enabled: bool = True):
    """The store chosen by the global ``--store URL`` (else ``$CGTALG_STORE``, else the default
    file), opened and migrated; ``None`` when ``enabled`` is false (``--no-store``). For the
    commands of :data:`LIGHT_STORE_COMMANDS`, a light store when the file allows one
    (:mod:`cgtalg.store.light`).

    With the global ``--stale show`` the store serves results written by an older version of
    their algorithm, and when the command ends one note per stale result served goes to stderr."""
    if not enabled:
        return None
    if ctx.info_name in LIGHT_STORE_COMMANDS:  # no SQLAlchemy for a store file at the newest schema
        from cgtalg.store.light import open_light_store as open_store
    else:
        from cgtalg.store import open_store

    root = ctx.find_root()
    obj = root.obj or {}
    show = obj.get("stale") == "show"
    store = open_store(obj.get("store_url"), serve_stale=show)
    if show:
        root.call_on_close(lambda: _note_stale(store))
    return store


def _note_stale(store: Any) -> None:
    """One line on stderr per stale stored result the command served (``--stale show``)."""
    seen = set()
    for table, key, prov in store.stale_served:
        if (table, key) in seen:
            continue
        seen.add((table, key))
        click.echo(
            f"note: stale result ({table}, {key}) {prov.describe()}; recompute with --stale recompute",
            err=True,
        )


class DurationType(click.ParamType):
    """A time budget on the command line: ``90``, ``90s``, ``10m``, ``1.5h``, ``2d``, ``1h30m``
    (a bare number is seconds), read by :func:`cgtalg.budget.parse_duration` into float
    seconds; anything else (``nan``, ``-5``, ``soon``, ``0``) is a usage error."""

    name = "TIME"

    def convert(self, value: Any, param: Any, ctx: Any) -> float:
        from cgtalg.budget import parse_duration
        from cgtalg.errors import BudgetError

        try:
            return parse_duration(value)
        except BudgetError as exc:
            self.fail(str(exc), param, ctx)


#: the one click type of every ``--time`` option
TIME = DurationType()


def time_option(help: str = "Give up (a clear error, keeping what is stored) after this long: "
                            "90, 90s, 10m, 2h.",
                default: Any = None) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The ``--time`` option of every command with a time budget: sets the parameter
    ``max_seconds`` (float seconds, or ``None`` for no limit unless ``default`` is given;
    ``default`` may be written as on the command line, e.g. ``"10m"``)."""
    if default is not None:
        from cgtalg.budget import parse_duration

        default = parse_duration(default)
    return click.option("--time", "max_seconds", type=TIME, default=default,
                        show_default=default is not None, metavar="TIME", help=help)
