"""Shared helpers for cgtalg's command-line interface.

Every command takes ``--json``; commands build one JSON-serialisable ``dict`` as their result
and call :func:`emit`, which prints either that dict as JSON or the human text.
Errors from :mod:`cgtalg.errors` become a one-line message and exit status 2 (see
:func:`handle_errors` in :mod:`cgtalg.cli.main`).
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Sequence

import click

from cgtalg.core.jsonable import to_jsonable
from cgtalg.errors import ArgumentError, ArgumentTypeError, shorten, signal_cause

__all__ = [
    "json_option", "no_store_option", "cli_store", "emit", "to_jsonable",
    "ExactInt", "COUNT", "HEAP", "parse_exact_int", "MAX_INT_DIGITS", "check_output_path",
    "DurationType", "TIME", "time_option", "DEFAULT_TIME", "command_budget", "budget_grace", "budgeted",
    "TimePart", "TimeSpecType", "read_time_spec", "collect_time_budgets", "time_parts_option",
    "add_time_arguments", "resolve_time_arguments", "time_deprecation_note", "TIME_REMOVED_IN",
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
from cgtalg.cli.wording import cli_wording  # noqa: E402 - click-free (the fast path uses it)


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
#: the newest schema is read and written through ``sqlite3``, without SQLAlchemy (issue 23), and
#: a new store file is created so (issue 35); every other store, and every other command, opens
#: the full store. ``quotient`` reads its stored record (sequence metadata) on the light path;
#: its writes, when it computes, go to the full store, opened then.
LIGHT_STORE_COMMANDS = frozenset({"game", "outcome", "grundy", "period", "value", "quotient"})


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

        if isinstance(value, str) and "=" in value:  # PART=TIME, on a command of one budget
            try:
                read_time_spec(value, ())
            except BudgetError as exc:
                self.fail(str(exc), param, ctx)
        try:
            return parse_duration(value)
        except BudgetError as exc:
            self.fail(str(exc), param, ctx)


#: the one click type of every ``--time`` option
TIME = DurationType()


#: the time budget of every command run without ``--time`` (CPU time, :mod:`cgtalg.budget`)
DEFAULT_TIME = "60s"


def budget_grace(max_seconds: float, owned: bool = False) -> float:
    """Seconds of CPU a command's backstop (:func:`command_budget`) waits past its budget.

    ``owned=False`` (the backstop is the command's only budget): 4% of it, between 0.3 s and
    2 s. ``owned=True`` (the computation inside checks a deadline of the same budget and stops
    itself there, with a partial answer or its own error): 8% of it, between 1 s and 60 s, so
    that the computation's own stop, which a kernel between two checks may delay by a fraction
    of a second (more on a slow machine), and its report come first, while a phase that checks
    nothing still ends the command within 10% of the budget or a second or two."""
    if owned:
        return min(max(1.0, 0.08 * max_seconds), 60.0)
    return min(max(0.3, 0.04 * max_seconds), 2.0)


@contextlib.contextmanager
def command_budget(max_seconds: float | None, what: str, owned: bool = False) -> Iterator[Any]:
    """The budget of a whole command: a :class:`cgtalg.budget.Deadline` of ``max_seconds`` of
    CPU (plus :func:`budget_grace`; ``owned``: the computation inside has a deadline of the
    same budget of its own), entered (``with deadline:``) so that every deadline
    checked inside stops once it is spent, and watched by ``SIGPROF`` every 0.1 s of CPU (in
    the main thread on POSIX) so that a phase that checks no deadline at all (an import, a
    table built in one go, a search without a budget of its own) is stopped too, with
    :class:`~cgtalg.errors.ComputationLimitError` naming ``what`` and ``--time``. The profiling
    timer counts CPU only: a command waiting on a lock or a pipe is not woken. Left alone when
    a profiler already owns ``SIGPROF``. Yields the deadline."""
    import signal
    import threading

    from cgtalg.budget import Deadline

    deadline = Deadline(max_seconds, grace=0.0 if max_seconds is None else budget_grace(max_seconds, owned))
    watch = (max_seconds is not None and hasattr(signal, "setitimer")
             and threading.current_thread() is threading.main_thread()
             and signal.getsignal(signal.SIGPROF) in (signal.SIG_DFL, None)
             and signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0))

    def tick(signum: int, frame: Any) -> None:
        deadline.check(what)

    with deadline:
        if not watch:
            yield deadline
            return
        old = signal.signal(signal.SIGPROF, tick)
        signal.setitimer(signal.ITIMER_PROF, 0.1, 0.1)
        try:
            yield deadline
        except SystemError as exc:  # the tick raised inside a compiled kernel's dispatch
            cause = signal_cause(exc)
            if cause is exc:
                raise
            raise cause from None
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, old)


def time_option(help: str = "Give up (a clear error, keeping what is stored) after this much CPU time: "
                            "90, 90s, 10m, 2h.",
                default: Any = DEFAULT_TIME, pass_value: bool = True,
                ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The ``--time`` option of every command: sets the parameter ``max_seconds`` (float
    seconds of CPU; ``default`` written as on the command line, e.g. ``"10m"``, by default
    :data:`DEFAULT_TIME`; ``None``: no limit) and runs the command under
    :func:`command_budget`, so that no command runs unbounded and each says how to raise
    its budget. ``pass_value=False``: a command whose work takes no budget of its own (the
    command's budget is its only one) is not passed ``max_seconds``."""
    from cgtalg.budget import parse_duration

    if default is not None:
        parse_duration(default)  # (a bad default is the programmer's error, found at import)
    # the default as text, which TIME converts: --help shows it as written ([default: 60s])
    option = click.option("--time", "max_seconds", type=TIME, default=None if default is None else str(default),
                          show_default=default is not None, metavar="TIME", help=help)

    def decorate(f: Callable[..., Any]) -> Callable[..., Any]:
        return option(budgeted("max_seconds", None, pass_value)(f))

    return decorate


def budgeted(param: str = "max_seconds", default: Any = DEFAULT_TIME, pass_value: bool = True,
             whole: Callable[[float], float] | None = None) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Run a command under :func:`command_budget` of its keyword ``param`` (its ``--time``),
    or of ``default`` when that is ``None`` (for a command whose own ``--time`` defaults to
    ``None`` because its parts have budgets of their own: the whole still has one).
    ``whole(seconds)``: the whole command's budget when ``--time`` bounds only a part of it."""
    import functools

    from cgtalg.budget import parse_duration

    fallback = None if default is None else parse_duration(default)

    def decorate(f: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(f)
        def command(*args: Any, **kwargs: Any) -> Any:
            ctx = click.get_current_context(silent=True)
            what = f"`{ctx.command_path}`" if ctx is not None else "the command"
            seconds = kwargs.get(param) if pass_value else kwargs.pop(param)
            if seconds is not None and whole is not None:
                seconds = whole(seconds)
            # a command passed its budget stops itself there: the backstop waits a little longer
            with command_budget(fallback if seconds is None else seconds, what, owned=pass_value):
                return f(*args, **kwargs)

        return command

    return decorate


# --- one budget word: --time, with PART=TIME where a command has several budgets (issue 33) -----

#: the release that drops the old budget spellings (--class-time, --quotient-time, --seconds, ...)
TIME_REMOVED_IN = "0.3"


@dataclass(frozen=True)
class TimePart:
    """One time budget of a command or tool, given as ``--time TIME`` (``name`` ``None``: the
    command's main budget) or ``--time NAME=TIME``.

    ``param`` is the keyword the command function (or the ``argparse`` namespace attribute) it
    sets; ``default`` is seconds, a duration as on the command line (``"20s"``) or ``None`` (no
    limit); ``aliases`` are old spellings (``--class-time``), accepted hidden until
    :data:`TIME_REMOVED_IN` with a deprecation note on stderr."""

    name: str | None
    param: str
    default: float | str | None
    help: str
    aliases: tuple[str, ...] = ()

    def default_seconds(self) -> float | None:
        from cgtalg.budget import parse_duration

        return None if self.default is None else parse_duration(self.default)

    def spelled(self, value: str) -> str:
        """How this budget is written with ``--time``: ``--time class=20s`` or ``--time 2h``."""
        return f"--time {value}" if self.name is None else f"--time {self.name}={value}"


def read_time_spec(text: Any, parts: Iterable[str]) -> tuple[str | None, float]:
    """``(PART, seconds)`` from one ``--time`` value: ``"2h"`` gives ``(None, 7200.0)`` (the
    command's main budget), ``"class=20s"`` gives ``("class", 20.0)``. ``parts`` are the PART
    names the command knows (empty for a command of one budget).

    Raises
    ------
    BudgetError
        A duration that is not one (:func:`cgtalg.budget.parse_duration`), or a PART the
        command does not know (the message names the parts it knows).

    Examples
    --------
    >>> read_time_spec("2h", ["class"]), read_time_spec(" class = 20s", ["class"])
    ((None, 7200.0), ('class', 20.0))
    """
    from cgtalg.budget import parse_duration
    from cgtalg.errors import BudgetError

    if not isinstance(text, str):
        raise ArgumentTypeError(f"--time must be text, got {type(text).__name__}: {shorten(text)}")
    name, eq, duration = text.partition("=")
    if not eq:
        return None, parse_duration(text)
    name = name.strip().lower()
    known = tuple(parts)
    if name not in known:
        shown = shorten(text, 40)
        if not known:
            raise BudgetError(f"{shown}: this command has one time budget, written without PART= "
                              "(e.g. --time 10m)")
        raise BudgetError(f"{shown}: unknown budget {name!r}; the budgets of this command are a "
                          "plain TIME and " + ", ".join(f"{p}=TIME" for p in known))
    try:
        return name, parse_duration(duration)
    except BudgetError as exc:
        raise BudgetError(f"{name}=: {exc}") from None


def collect_time_budgets(given: Iterable[tuple[str | None, float, str]],
                         parts: Sequence[TimePart]) -> dict[str | None, float | None]:
    """Every budget of ``parts`` by name (``None``: the main one) in seconds: the value given
    (``given``: ``(PART, seconds, as written)`` in command-line order), else the part's default.

    Raises
    ------
    BudgetError
        A budget given twice (``--time 1h --time 2h``, or ``--time class=5s`` with the old
        ``--class-time 9s``): which one was meant is not guessed.
    """
    from cgtalg.errors import BudgetError

    out = {p.name: p.default_seconds() for p in parts}
    seen: dict[str | None, str] = {}
    for name, seconds, written in given:
        if name in seen:
            which = "the plain TIME budget" if name is None else f"the {name}= time budget"
            raise BudgetError(f"{which} is given twice ({seen[name]} and {written}); give it once")
        seen[name] = written
        out[name] = seconds
    return out


def time_deprecation_note(old: str, part: TimePart, value: str) -> str:
    """The one-line note printed on stderr when an old budget spelling is used."""
    return (f"note: {old} is deprecated and will be removed in cgtalg {TIME_REMOVED_IN}; "
            f"write {part.spelled(value)}")


def _default_text(p: TimePart) -> str:
    return "no limit" if p.default is None else (
        f"{p.default:g}s" if isinstance(p.default, (int, float)) else str(p.default))


def _time_help(parts: Sequence[TimePart]) -> str:
    """The help of a ``--time`` of several budgets, one sentence per budget."""
    default = _default_text
    main = [p for p in parts if p.name is None]
    named = [p.name for p in parts if p.name is not None]
    example = " ".join((["--time 2h"] if main else []) + [f"--time {n}=30s" for n in named[:1]])
    text = f"Time budgets, repeatable ({example}): " + "; ".join(
        ([f"a plain TIME (90, 90s, 10m, 2h) is {main[0].help} (default: {default(main[0])})"] if main else [])
        + [f"{p.name}=TIME is {p.help} (default: {default(p)})" for p in parts if p.name is not None])
    return text + "."


def _check_parts(parts: Sequence[TimePart]) -> None:
    names = [p.name for p in parts]
    if len(set(names)) != len(names):
        raise ArgumentError(f"time budgets named twice: {names}")


class TimeSpecType(click.ParamType):
    """A click type for one ``--time`` value of a command of several budgets: ``TIME`` or
    ``PART=TIME`` (:func:`read_time_spec`), converted to ``(PART, seconds, as written)``."""

    name = "[PART=]TIME"

    def __init__(self, parts: Iterable[str]) -> None:
        self.parts = tuple(parts)

    def convert(self, value: Any, param: Any, ctx: Any) -> tuple[str | None, float, str]:
        from cgtalg.errors import BudgetError

        if isinstance(value, tuple):  # already converted
            return value
        try:
            name, seconds = read_time_spec(value, self.parts)
        except BudgetError as exc:
            self.fail(str(exc), param, ctx)
        return name, seconds, str(value).strip()


def _alias_param(alias: str) -> str:
    return "_time_alias_" + alias.lstrip("-").replace("-", "_")


def time_parts_option(*parts: TimePart) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The ``--time`` option of a command with several time budgets: repeatable, a plain TIME
    sets the part named ``None`` (the main budget), ``PART=TIME`` the others; each part's value
    (seconds, or ``None``) reaches the command function as the keyword ``part.param``. The old
    spellings (``part.aliases``) are hidden options that still work and print a one-line
    deprecation note on stderr (never stdout: ``--json`` output stays clean).

    Example: ``@time_parts_option(TimePart(None, "max_seconds", None, "the whole run's budget"),
    TimePart("class", "class_time", "20s", "one class's budget", ("--class-time",)))``."""
    _check_parts(parts)
    names = [p.name for p in parts if p.name is not None]

    def decorate(f: Callable[..., Any]) -> Callable[..., Any]:
        import functools

        @functools.wraps(f)
        def command(*args: Any, **kwargs: Any) -> Any:
            from cgtalg.budget import parse_duration
            from cgtalg.errors import BudgetError

            given = list(kwargs.pop("_time_specs"))
            notes = []
            for p in parts:
                for alias in p.aliases:
                    value = kwargs.pop(_alias_param(alias))
                    if value is None:
                        continue
                    try:
                        given.append((p.name, parse_duration(value), f"{alias} {value}"))
                    except BudgetError as exc:
                        raise click.BadParameter(str(exc), click.get_current_context(silent=True),
                                                 param_hint=alias) from None
                    notes.append(time_deprecation_note(alias, p, value))
            try:
                budgets = collect_time_budgets(given, parts)
            except BudgetError as exc:
                raise click.UsageError(str(exc), click.get_current_context(silent=True)) from None
            for note in notes:  # once the budgets are accepted: stderr only
                click.echo(note, err=True)
            for p in parts:
                kwargs[p.param] = budgets[p.name]
            return f(*args, **kwargs)

        for p in reversed(parts):
            for alias in reversed(p.aliases):
                command = click.option(alias, _alias_param(alias), type=str, default=None, hidden=True,
                                       help=f"old spelling of {p.spelled('TIME')} "
                                            f"(removed in {TIME_REMOVED_IN})")(command)
        return click.option("--time", "_time_specs", type=TimeSpecType(names), multiple=True,
                            metavar="[PART=]TIME", help=_time_help(parts))(command)

    return decorate


def add_time_arguments(ap: Any, *parts: TimePart) -> None:
    """The ``argparse`` twin of :func:`time_parts_option`, for the scripts in ``tools/``: adds
    ``--time`` (repeatable, ``TIME`` or ``PART=TIME``) and the hidden old spellings to the
    parser ``ap``; read the arguments with :func:`resolve_time_arguments`, which sets
    ``args.<part.param>`` for each part. A tool of one budget passes one part named ``None``."""
    import argparse

    _check_parts(parts)
    ap.add_argument("--time", action="append", default=[], dest="_time_specs",
                    metavar="[PART=]TIME" if len(parts) > 1 else "TIME",
                    help=_time_help(parts).replace("%", "%%") if len(parts) > 1 else
                    f"{parts[0].help}: 90, 90s, 10m, 1.5h (default: {_default_text(parts[0])})")
    for p in parts:
        for alias in p.aliases:
            ap.add_argument(alias, dest=_alias_param(alias), default=None, help=argparse.SUPPRESS)
    ap.set_defaults(_time_parts=parts)


def resolve_time_arguments(ap: Any, args: Any) -> Any:
    """``args`` (parsed by ``ap``, set up by :func:`add_time_arguments`) with each budget as
    ``args.<part.param>`` in seconds (or ``None``); a deprecation note on stderr per old
    spelling used; a usage error (``ap.error``, exit status 2) for a budget that is not one."""
    import sys

    from cgtalg.budget import parse_duration
    from cgtalg.errors import BudgetError

    parts = args._time_parts
    names = [p.name for p in parts if p.name is not None]
    notes = []
    try:
        given = [(*read_time_spec(text, names), text) for text in args._time_specs]
        for p in parts:
            for alias in p.aliases:
                value = getattr(args, _alias_param(alias))
                delattr(args, _alias_param(alias))
                if value is not None:
                    try:
                        given.append((p.name, parse_duration(value), f"{alias} {value}"))
                    except BudgetError as exc:
                        ap.error(f"argument {alias}: {exc}")
                    notes.append(time_deprecation_note(alias, p, value))
        budgets = collect_time_budgets(given, parts)
    except BudgetError as exc:
        ap.error(f"argument --time: {exc}")
    for note in notes:
        print(note, file=sys.stderr)
    for p in parts:
        setattr(args, p.param, budgets[p.name])
    del args._time_specs, args._time_parts
    return args
