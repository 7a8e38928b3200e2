"""``cgtalg norton``, ``reduced``, ``ordinal-sum``, ``heat``, ``overheat``, ``atomic-weight``:
constructions on normal-play partizan games given as text (CGSuite's notation: ``^``, ``v*``,
``1/2``, ``{2||1|0}``, ``±1``, ``Tiny(2)``; numbers are games here)."""

from __future__ import annotations

from typing import Any

import click

from cgtalg.cli.common import emit, json_option, time_option

__all__ = ["register"]

#: games may be negative numbers ("-1", "-1/2"): not options
_GAMES = {"ignore_unknown_options": True}


def _read(text: str, normal_play: bool = True) -> Any:
    """Game text in CGSuite's notation (a notation error names the position in the text), read
    for its normal-play value (number translation), or literally with ``normal_play=False``
    (where the form counts: ordinal sums); loopy text (on, over, a:{0|a}, ...) is left to the
    operation's door, which reads it as the game it is and refuses a loopy one by name (the
    operations are defined for short games)."""
    from cgtalg.core.loopy_notation import looks_loopy
    from cgtalg.normal.notation import parse_partizan

    if looks_loopy(text):
        return text
    return parse_partizan(text, normal_play=normal_play)


def _show(g: Any) -> str:
    from cgtalg.normal.notation import format_partizan

    # loopy text stays text: the operation's door reads it and refuses it by name
    return g if isinstance(g, str) else format_partizan(g)


def _answer(result: dict, as_json: bool, key: str) -> None:
    emit(result, as_json, lambda: result[key])


@click.command("norton", context_settings=_GAMES)
@time_option(pass_value=False)
@click.argument("g_text", metavar="G")
@click.argument("u_text", metavar="U")
@json_option
def norton_command(g_text: str, u_text: str, as_json: bool) -> None:
    """Norton product G.U of G by a positive game U (ONAG ch. 15; Winning Ways ch. 8): n copies
    of U for an integer n, else {G^L.U + (U+I) | G^R.U - (U+I)} over the incentives I of U.
    Example: ``cgtalg norton 1/2 ^`` prints ``{^^*|v*}``."""
    from cgtalg.ops import norton_product

    g, u = _read(g_text), _read(u_text)
    _answer({"g": _show(g), "u": _show(u), "norton_product": _show(norton_product(g, u))}, as_json,
            "norton_product")


@click.command("reduced", context_settings=_GAMES)
@time_option(pass_value=False)
@click.argument("g_text", metavar="G")
@json_option
def reduced_command(g_text: str, as_json: bool) -> None:
    """Reduced canonical form of G: the simplest game infinitesimally close to G (Calistrate;
    Grossman and Siegel). Example: ``cgtalg reduced "{3||2*|1*}"`` prints ``{3||2|1}``."""
    from cgtalg.ops import reduced_canonical_form

    g = _read(g_text)
    _answer({"g": _show(g), "reduced_canonical_form": _show(reduced_canonical_form(g))}, as_json,
            "reduced_canonical_form")


@click.command("ordinal-sum", context_settings=_GAMES)
@time_option(pass_value=False)
@click.argument("g_text", metavar="G")
@click.argument("h_text", metavar="H")
@json_option
def ordinal_sum_command(g_text: str, h_text: str, as_json: bool) -> None:
    """Ordinal sum G:H = {G^L, G:H^L | G^R, G:H^R}; the form of G counts, as written
    (``{*|*}:3`` is ``^[3]`` though ``{*|*} = 0``). Example: ``cgtalg ordinal-sum 1 -1``
    prints ``1/2``."""
    from cgtalg.ops import ordinal_sum

    g, h = _read(g_text, normal_play=False), _read(h_text, normal_play=False)
    _answer({"g": _show(g), "h": _show(h), "ordinal_sum": _show(ordinal_sum(g, h))}, as_json, "ordinal_sum")


@click.command("heat", context_settings=_GAMES)
@time_option(pass_value=False)
@click.argument("g_text", metavar="G")
@click.argument("t_text", metavar="T")
@json_option
def heat_command(g_text: str, t_text: str, as_json: bool) -> None:
    """G heated by T: G for a number, else {∫G^L + T | ∫G^R - T} (Winning Ways ch. 6). Example:
    ``cgtalg heat ^ 2`` prints ``{2||0|-4}``."""
    from cgtalg.ops import heat

    g, t = _read(g_text), _read(t_text)
    _answer({"g": _show(g), "t": _show(t), "heat": _show(heat(g, t))}, as_json, "heat")


@click.command("overheat", context_settings=_GAMES)
@time_option(pass_value=False)
@click.argument("g_text", metavar="G")
@click.argument("s_text", metavar="S")
@click.argument("t_text", metavar="T")
@json_option
def overheat_command(g_text: str, s_text: str, t_text: str, as_json: bool) -> None:
    """G overheated from S to T: n.S for an integer n, else {∫G^L + T | ∫G^R - T} (Berlekamp).
    Example: ``cgtalg overheat 7/16 0 0`` prints ``^[3]``."""
    from cgtalg.ops import overheat

    g, s, t = _read(g_text), _read(s_text), _read(t_text)
    _answer({"g": _show(g), "s": _show(s), "t": _show(t), "overheat": _show(overheat(g, s, t))}, as_json,
            "overheat")


@click.command("atomic-weight", context_settings=_GAMES)
@time_option(pass_value=False)
@click.argument("g_text", metavar="G")
@json_option
def atomic_weight_command(g_text: str, as_json: bool) -> None:
    """Atomic weight of G: the W with G ~ W.^ (Winning Ways ch. 8), for every all-small game and
    the other atomic infinitesimals; an error names why another game has none. Example:
    ``cgtalg atomic-weight "{^^^|vv}"`` prints ``{1|0}``."""
    from cgtalg.ops import atomic_weight

    g = _read(g_text)
    _answer({"g": _show(g), "atomic_weight": _show(atomic_weight(g))}, as_json, "atomic_weight")


def register(cli: click.Group) -> None:
    for command in (norton_command, reduced_command, ordinal_sum_command, heat_command, overheat_command,
                    atomic_weight_command):
        cli.add_command(command)
