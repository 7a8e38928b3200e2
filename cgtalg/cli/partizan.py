"""``cgtalg value``: the value of a position of a partizan ruleset (Domineering, Hackenbush,
Toads and Frogs, Clobber, or any registered partizan ruleset), and the partizan report that
``cgtalg game`` prints for partizan text such as ``"{1|0}"``."""

from __future__ import annotations

from typing import Any

import click

from cgtalg.cli.common import check_output_path, cli_store, emit, json_option, no_store_option, time_option

__all__ = ["register", "partizan_report", "format_report"]


def partizan_report(g: Any, misere_outcome: str | None = None) -> dict:
    """Normal-play (and misère) facts about the partizan form ``g``: canonical form, outcome,
    stops, mean, temperature, thermograph, atomic weight (atomic games), misère outcome.

    The misère outcome is computed from ``g`` itself unless given: pass it when ``g`` is only
    a normal-play canonical form (which does not keep misère outcomes), e.g. for a ruleset's
    position, whose misère outcome comes from play."""
    from cgtalg.normal.notation import format_partizan
    from cgtalg.errors import CgtalgError
    from cgtalg.normal import atomic_weight as AW
    from cgtalg.normal import partizan as P
    from cgtalg.normal import thermography as T

    c = P.canonical_form(g)
    out: dict[str, Any] = {
        "game": format_partizan(g),
        "canonical_form": format_partizan(c),
        "birthday": c.birthday,
        "outcome": P.outcome(c),
        "number": None if P.number_value(c) is None else str(P.number_value(c)),
        "left_stop": str(T.left_stop(c)),
        "right_stop": str(T.right_stop(c)),
        "mean": str(T.mean(c)),
        "temperature": str(T.temperature(c)),
        "thermograph": str(T.thermograph(c)),
        "atomic_weight": None,
    }
    if AW.is_atomic(c):  # all-small games, and the atomic infinitesimals (tinies weigh 0)
        try:
            out["atomic_weight"] = format_partizan(AW.atomic_weight(c))
        except CgtalgError as exc:  # pragma: no cover - is_atomic said it has one
            out["atomic_weight"] = f"none ({exc})"
    if misere_outcome is None:
        from cgtalg.misere.partizan_outcome import misere_outcome as mo

        misere_outcome = mo(g)
    out["misere_outcome"] = misere_outcome
    return out


_LABELS = [
    ("canonical_form", "canonical form"), ("outcome", "outcome"), ("misere_outcome", "misère outcome"),
    ("birthday", "birthday"), ("number", "number"), ("left_stop", "left stop"),
    ("right_stop", "right stop"), ("mean", "mean"), ("temperature", "temperature"),
    ("thermograph", "thermograph"), ("atomic_weight", "atomic weight"),
]


def format_report(result: dict) -> str:
    """The report as aligned ``label  value`` lines (rows whose value is None are left out)."""
    lines = []
    for key, label in _LABELS:
        v = result.get(key)
        if v is not None:
            lines.append(f"{label:<16}{v}")
    return "\n".join(lines)


@click.command("value", context_settings={"ignore_unknown_options": True})  # game text "-1": not an option
@click.argument("ruleset_name", metavar="RULESET|TEXT")
@click.argument("position_text", metavar="[POSITION]", required=False)
@no_store_option
@click.option("--plot", type=click.Path(dir_okay=False), default=None,
              help="Draw the thermograph to a PNG file.")
@time_option(help="Give up (a clear error) after this much CPU time of search: 90, 90s, 10m, 2h.")
@json_option
@click.pass_context
def value_command(ctx: click.Context, ruleset_name: str, position_text: str, no_store: bool,
                  plot: str | None, max_seconds: float | None, as_json: bool) -> None:
    """Canonical form and normal-play value of POSITION of RULESET
    (e.g. ``domineering 4x4``, ``hackenbush LRLRRLLR``, ``toads-and-frogs TT.FF``,
    ``clobber "xox|ox."``, ``konane "xoxo|oxox"``, ``snort path:5``, ``cram 3x5``), or of game
    TEXT in CGSuite's notation given alone (``"{2|-1}"``, ``"^*"``, ``"-3/2"``: the report of
    ``cgtalg game TEXT``): outcome, stops, mean, temperature, thermograph, atomic weight, misère
    outcome; answered from the store when it was computed before."""
    from cgtalg.rulesets.partizan.games import PARTIZAN_RULESETS, partizan_value
    from cgtalg.rulesets.partizan.forms import misere_outcome_by_play, partizan_store_key
    from cgtalg.rulesets.protocol import is_partizan, parse_position

    if plot:
        check_output_path(plot, "--plot")
    known = PARTIZAN_RULESETS.get(ruleset_name.strip().lower())
    if known is not None:  # the rulesets of partizan_games: no need to load every plugin
        ruleset = known[0]()
    else:
        from cgtalg.errors import RulesetError
        from cgtalg.rulesets.registry import get_ruleset

        try:
            ruleset = get_ruleset(ruleset_name)
        except RulesetError:
            if position_text is not None:
                raise
            ruleset = None
    if position_text is None:
        if ruleset is not None:
            raise click.UsageError(f"{ruleset_name!r} is a ruleset: give a POSITION of it too (e.g. "
                                   "`cgtalg value domineering 4x4`); game text goes alone (`cgtalg value "
                                   "'{2|-1}'`, as `cgtalg game '{2|-1}'`)")
        if plot:
            raise click.UsageError("--plot draws the thermograph of a ruleset's position; for game text "
                                   "use cgtalg.thermograph(...) in Python")
        from cgtalg.cli.games import game_command

        ctx.invoke(game_command, text=ruleset_name, misere=False, no_store=no_store, draw=None,
                   max_seconds=max_seconds, as_json=as_json)
        return
    # an impartial ruleset (Cram, Node Kayles, ...) has a value too: its nim-heap
    from cgtalg.cli.games import bounded, clip_text

    pos = parse_position(ruleset, position_text)
    check = getattr(ruleset, "check_position", None)
    if check is not None:
        check(pos)
    if getattr(ruleset, "game_value", None) is not None:  # a loopy ruleset (Fox and Geese)
        if plot:
            raise click.UsageError("--plot draws thermographs of short games; this ruleset's positions are loopy")
        _loopy_value(ruleset, pos, position_text, max_seconds, as_json)
        return
    store = cli_store(ctx, not no_store)
    show = None if not as_json else False
    # the watchdog keeps the memory ceiling over the whole command (the store, the misère
    # search); the time budget is the searches' own, whose messages say how far they got
    with bounded(None, f"cgtalg value {ruleset.name} {clip_text(position_text)}") as deadline:
        nim_value = getattr(ruleset, "nim_value", None)
        fast = nim_value is not None and not hasattr(ruleset, "heap_options") and not is_partizan(ruleset)
        if fast:
            # an impartial ruleset that knows its positions' Grundy values (the coin-turning
            # games: the XOR over the heads of the heap representation's values, Winning Ways
            # ch. 14): its normal-play canonical form is that nim-heap, no search of the rows
            from cgtalg.core.partizan import nimber

            g = nimber(nim_value(pos))
        else:
            g = partizan_value(ruleset, pos, store=store, max_seconds=max_seconds, progress=show)
        left = None if max_seconds is None else max(max_seconds - deadline.elapsed(), 0.01)
        # the canonical form keeps normal-play values only: the misère outcome comes from play
        # (stored beside the canonical form, as the property "misere_outcome")
        mis = None
        if store is not None:
            rkey, text = partizan_store_key(ruleset, pos)
            mis = store.get_position(rkey, text, "misere_outcome")
        unknown = None
        if mis is None and fast:
            # Grundy values answer normal play only; the misère outcome is searched with a short
            # budget, and reported as not computed past it (the normal-play report still stands)
            from cgtalg.errors import ComputationLimitError

            try:
                mis = misere_outcome_by_play(ruleset, pos, max_seconds=left if max_seconds is not None else 10.0)
            except ComputationLimitError as exc:
                mis, unknown = "?", str(exc)
        elif mis is None:
            mis = misere_outcome_by_play(ruleset, pos, max_seconds=left)
        if store is not None and unknown is None:
            store.put_position(rkey, text, "misere_outcome", mis)
    result = {"ruleset": ruleset.name, "position": position_text, **partizan_report(g, mis)}
    if unknown is not None:
        result["misere_outcome"] = None
        result["misere_outcome_not_computed"] = unknown
    if store is not None:
        result["store"] = store.url
    if plot:
        from cgtalg.normal.thermography import thermograph

        _save_plot(thermograph(g), plot, f"{ruleset.name} {clip_text(position_text, 50)}")
        result["plot"] = plot

    def human() -> str:
        head = f"{ruleset.name} {position_text}"
        note = (f"\nmisère outcome  not computed: {result['misere_outcome_not_computed']}"
                if "misere_outcome_not_computed" in result else "")
        return head + "\n" + format_report(result) + note + (f"\n(thermograph drawn to {plot})" if plot else "")

    emit(result, as_json, human)


def _loopy_value(ruleset: Any, pos: Any, position_text: str, max_seconds: float | None, as_json: bool) -> None:
    """The value of a position of a loopy ruleset: its canonical stopper (the ruleset's
    ``game_value``), its outcome with draws and its stops (normal play; misère play of loopy
    games is not defined). Not kept in the store."""
    from cgtalg.cli.games import bounded, clip_text
    from cgtalg.normal.loopy import loopy_outcome
    from cgtalg.normal.loopy_ops import loopy_left_stop, loopy_right_stop

    with bounded(max_seconds, f"cgtalg value {ruleset.name} {clip_text(position_text)}"):
        v = ruleset.game_value(pos)
        result = {"ruleset": ruleset.name, "position": position_text, "loopy": True, "value": str(v),
                  "outcome": loopy_outcome(v).name, "left_stop": str(loopy_left_stop(v)),
                  "right_stop": str(loopy_right_stop(v))}

    def human() -> str:
        return (f"{ruleset.name} {position_text}\n  value (canonical stopper)  {result['value']}\n"
                f"  outcome  {result['outcome']}\n  stops  {result['left_stop']}, {result['right_stop']}")

    emit(result, as_json, human)


def _save_plot(th: Any, path: str, title: str | None = None) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ax = th.plot(title=title)
    fig = getattr(ax, "figure", None) or plt.gcf()
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)


def register(cli: click.Group) -> None:
    cli.add_command(value_command)
