"""``cgtalg nim``: nimber arithmetic on ordinals below ω^(ω^ω) and transfinite Nim.

Arguments are ordinal expressions (``5``, ``w``, ``"w^(w^2)*3+1"``; ``ω`` and ``·`` also work).
Finite arguments are computed by :mod:`cgtalg.nimbers.finite`, the others by Lenstra's κ/α
method (:mod:`cgtalg.nimbers.lenstra`, root finding in :mod:`cgtalg.nimbers.roots`). Every command takes ``--json`` and ``--ascii``;
the arithmetic commands refuse operands whose κ-field is above ``--max-field-degree`` before
computing, and stop after ``--time`` (no limit by default; Ctrl-C is answered at once).
"""

from __future__ import annotations

from typing import Callable

import click

from cgtalg.cli.common import ExactInt, emit, json_option, time_option

__all__ = ["register"]

_TIME_HELP = "Give up (a clear error) after this much CPU time: 90, 90s, 10m, 2h."
#: the exponent of ``nim pow`` (any integer) and the n of ``nim root`` (n >= 1)
_EXPONENT = ExactInt(None, "exponent")
_ROOT_N = ExactInt(1, "n")


def _ascii_option(func: Callable) -> Callable:
    return click.option("--ascii", "ascii_", is_flag=True, help="Print w and * instead of ω and ·.")(func)


def _show(x: object, ascii_: bool) -> str:
    from cgtalg.nimbers.ordinal import format_ordinal

    return format_ordinal(x, ascii=ascii_)


def _json_value(x: object) -> object:
    """Finite values as JSON numbers (as text beyond 4,000 digits, which JSON writers refuse),
    infinite ones as ordinal text."""
    from cgtalg.nimbers.ordinal import format_ordinal

    if isinstance(x, int) and x.bit_length() < 13_000:
        return x
    return format_ordinal(x)


def _parse(text: str) -> object:
    """The ordinal written ``text``: an int, or an infinite ordinal in the internal form
    (:func:`cgtalg.nimbers.ordinal.internal_values`: these commands never build a sympy
    value, so they never import sympy for it)."""
    from cgtalg.nimbers.ordinal import Internal, _parse

    if not isinstance(text, str):  # as cgtalg.nimbers.ordinal.ordinal() refuses it
        from cgtalg.errors import NimberError

        raise NimberError(f"ordinal() expects a str, got {type(text).__name__}")
    value = _parse(text)
    return value if isinstance(value, int) else Internal(value)


def _internal(func: Callable) -> Callable:
    """Run a command inside :func:`cgtalg.nimbers.ordinal.internal_values`."""
    import functools

    @functools.wraps(func)
    def run(*args, **kwargs):
        from cgtalg.nimbers.ordinal import internal_values

        with internal_values():
            return func(*args, **kwargs)

    return run


def _field_option(func: Callable) -> Callable:
    return click.option(
        "--max-field-degree", default=2048, show_default=True, type=click.IntRange(min=1),
        help="Refuse operands whose κ-field has larger degree over GF(2) (the cost grows with it).",
    )(func)


def _guard(values: list, max_field_degree: int) -> None:
    """Refuse, before any arithmetic, infinite operands whose common κ-field GF(2^M) has
    M > max_field_degree (Lenstra's fields; nim-products there cost about M^2)."""
    from cgtalg.errors import ComputationLimitError
    from cgtalg.nimbers.lenstra import kappa_field_degree
    from cgtalg.nimbers.ordinal import format_ordinal

    infinite = [v for v in values if not isinstance(v, int)]
    for i, v in enumerate(infinite):
        M = kappa_field_degree(infinite[: i + 1])
        if M > max_field_degree:
            raise ComputationLimitError(
                f"the operand {format_ordinal(v, ascii=True)[:60]} needs the κ-field GF(2^{M}); "
                f"{M} > --max-field-degree = {max_field_degree}; refused before computing"
            )


@click.group("nim")
def nim_group() -> None:
    """Nimber arithmetic on ordinals below ω^(ω^ω) and transfinite Nim.

    Ordinals are written like w^(w^2*4)+3 (w or ω, ^, * or ·, +, parentheses).
    """


def _binary(name: str, doc: str) -> None:
    @nim_group.command(name, help=doc)
    @click.argument("a")
    @click.argument("b")
    @_field_option
    @time_option(_TIME_HELP)
    @_ascii_option
    @json_option
    @_internal
    def command(a: str, b: str, max_field_degree: int, max_seconds: float | None, ascii_: bool,
                as_json: bool) -> None:
        from cgtalg.nimbers.lenstra import nim_div, nim_mul
        from cgtalg.nimbers.ordinal import nim_add

        x, y = _parse(a), _parse(b)
        if name == "add":  # the nim-sum is a cheap XOR of Cantor normal forms
            result = nim_add(x, y)
        else:
            _guard([x, y], max_field_degree)
            result = {"mul": nim_mul, "div": nim_div}[name](x, y, max_seconds=max_seconds)
        emit(
            {"operation": name, "a": _json_value(x), "b": _json_value(y), "result": _json_value(result)},
            as_json,
            lambda: _show(result, ascii_),
        )


_binary("add", "Nim-sum A ⊕ B (XOR of Cantor normal forms; any ordinals below ε₀).")
_binary("mul", "Nim-product A ⊗ B (`cgtalg nim mul w w^2` prints 2).")
_binary("div", "Nim-quotient A ⊗ B^(-1).")


@nim_group.command("inv")
@click.argument("a")
@_ascii_option
@json_option
@_field_option
@time_option(_TIME_HELP)
@_internal
def inv_command(a: str, max_field_degree: int, max_seconds: float | None, ascii_: bool, as_json: bool) -> None:
    """Nim-inverse of A."""
    from cgtalg.nimbers.lenstra import nim_inv

    x = _parse(a)
    _guard([x], max_field_degree)
    result = nim_inv(x, max_seconds=max_seconds)
    emit({"operation": "inv", "a": _json_value(x), "result": _json_value(result)}, as_json, lambda: _show(result, ascii_))


@nim_group.command("pow", context_settings={"ignore_unknown_options": True})
@click.argument("a")
@click.argument("n", type=_EXPONENT)
@_ascii_option
@json_option
@_field_option
@time_option(_TIME_HELP)
@_internal
def pow_command(a: str, n: int, max_field_degree: int, max_seconds: float | None, ascii_: bool,
                as_json: bool) -> None:
    """Nim-power A^N for an integer N (negative N inverts first)."""
    from cgtalg.nimbers.lenstra import nim_pow

    x = _parse(a)
    _guard([x], max_field_degree)
    result = nim_pow(x, n, max_seconds=max_seconds)
    emit(
        {"operation": "pow", "a": _json_value(x), "n": _json_value(n), "result": _json_value(result)},
        as_json,
        lambda: _show(result, ascii_),
    )


@nim_group.command("sqrt")
@click.argument("a")
@_ascii_option
@json_option
@_field_option
@time_option(_TIME_HELP)
@_internal
def sqrt_command(a: str, max_field_degree: int, max_seconds: float | None, ascii_: bool, as_json: bool) -> None:
    """Nim-square root of A (unique: Frobenius is bijective)."""
    from cgtalg.nimbers.lenstra import nim_sqrt

    x = _parse(a)
    _guard([x], max_field_degree)
    result = nim_sqrt(x, max_seconds=max_seconds, max_field_degree=max_field_degree)
    emit({"operation": "sqrt", "a": _json_value(x), "result": _json_value(result)}, as_json, lambda: _show(result, ascii_))


def _max_degree_option(func: Callable) -> Callable:
    from cgtalg.nimbers.roots import DEFAULT_MAX_DEGREE

    return click.option(
        "--max-degree", default=DEFAULT_MAX_DEGREE, show_default=True, type=click.IntRange(min=1),
        help="Refuse, before any work, polynomials (or numbers of roots) of larger degree.",
    )(func)


@nim_group.command("root")
@click.argument("a")
@click.argument("n", type=_ROOT_N)
@_max_degree_option
@_ascii_option
@json_option
@_field_option
@time_option(_TIME_HELP)
def root_command(a: str, n: int, max_degree: int, max_field_degree: int, max_seconds: float | None,
                 ascii_: bool, as_json: bool) -> None:
    """All N-th roots of A (`cgtalg nim root 2 3` prints ω, ω·2, ω·3)."""
    from cgtalg.nimbers.roots import nim_root

    x = _parse(a)
    _guard([x], max_field_degree)
    roots = nim_root(x, n, max_degree=max_degree, max_field_degree=max_field_degree, max_seconds=max_seconds)
    emit(
        {"operation": "root", "a": _json_value(x), "n": _json_value(n), "roots": [_json_value(r) for r in roots]},
        as_json,
        lambda: ", ".join(_show(r, ascii_) for r in roots),
    )


@nim_group.command("solve")
@click.argument("polynomial")
@click.option(
    "--max-field-degree", default=2048, show_default=True, type=click.IntRange(min=1),
    help="Refuse to compute in a κ-field of larger degree over GF(2).",
)
@_max_degree_option
@time_option(_TIME_HELP)
@_ascii_option
@json_option
def solve_command(
    polynomial: str, max_field_degree: int, max_degree: int, max_seconds: float | None, ascii_: bool,
    as_json: bool,
) -> None:
    """All roots of a polynomial in x with ordinal coefficients, such as "x^2+x+w".

    Prints the roots and the field GF(2^N) they lie in, naming the extension of the
    coefficient field when the polynomial does not split there.
    """
    from cgtalg.nimbers.roots import nim_roots

    result = nim_roots(polynomial, max_field_degree=max_field_degree, max_degree=max_degree,
                       max_seconds=max_seconds)
    emit(result.to_json() | {"polynomial": polynomial}, as_json, lambda: result.format(ascii=ascii_))


@nim_group.command("play")
@time_option(pass_value=False)
@click.argument("heaps", nargs=-1, required=True)
@click.option("--misere", is_flag=True, help="Misère play (the last player to move loses).")
@_ascii_option
@json_option
@_internal
def play_command(heaps: tuple[str, ...], misere: bool, ascii_: bool, as_json: bool) -> None:
    """Transfinite Nim: the outcome of HEAPS (ordinals) and all winning moves."""
    from cgtalg.nimbers.transfinite_nim import format_moves, nim_outcome, nim_winning_moves

    hs = [_parse(h) for h in heaps]
    outcome = nim_outcome(hs, misere=misere)
    moves = nim_winning_moves(hs, misere=misere)
    play = "misère" if misere else "normal"

    def human() -> str:
        shown = ", ".join(_show(h, ascii_) for h in hs)
        head = f"{outcome}-position in {play} play: ({shown})"
        if outcome == "P":
            return head + "\nno winning moves (every move leads to an N-position)"
        return head + "\nwinning moves:\n" + format_moves(moves, ascii=ascii_)

    emit(
        {
            "heaps": [_json_value(h) for h in hs],
            "misere": misere,
            "outcome": outcome,
            "winning_moves": [
                {"heap": i, "from": _json_value(a), "to": _json_value(b)} for i, a, b in moves
            ],
        },
        as_json,
        human,
    )


def register(cli: click.Group) -> None:
    """Attach the ``nim`` command group to the main CLI."""
    cli.add_command(nim_group)
