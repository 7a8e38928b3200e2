"""``cgtalg loopy``: loopy games in normal play (Winning Ways ch. 11; Siegel CGT ch. VI).

For each game given in CGSuite's loopy notation (``on``, ``{0|pass}``, ``a:{0|{a|*}}``,
``on + off``, or a value by its sides, ``1 & -1``, shown as a game with those sides
(:func:`cgtalg.normal.loopy_sidling.sides_game`)): its graph, its outcome with draws, whether it is a stopper, its canonical
stopper, its onside and offside; then how every pair of the games compares. Outcomes and values
are kept in the store (ruleset key ``loopy``, :mod:`cgtalg.store.loopy`)."""

from __future__ import annotations

import itertools
from typing import Any

import click

from cgtalg.cli.common import cli_store, emit, json_option, no_store_option, time_option

__all__ = ["register", "loopy_report"]

_OUTCOME_WORDS = {"L": "Left wins", "R": "Right wins", "D": "draw"}


def loopy_report(text: str, store: Any = None) -> dict:
    """The facts of one loopy game (see the module docstring), as a JSON-ready dict."""
    from cgtalg.core.loopy import Sides, as_loopy, loopy_from_key
    from cgtalg.core.loopy_notation import parse_loopy
    from cgtalg.store.loopy import loopy_outcome_record, loopy_value_record

    read = parse_loopy(text) if isinstance(text, str) else text
    if isinstance(read, Sides):  # s & t: a game with these sides (its value is s & t)
        from cgtalg.normal.loopy_sidling import sides_game

        g = sides_game(read)
    else:
        g = as_loopy(read)
    outcome = loopy_outcome_record(g, store)
    value = loopy_value_record(g, store)

    def shown(key: str | None) -> str | None:
        return None if key is None else str(loopy_from_key(key))

    return {
        "game": text, "graph": str(g), "key": g.key, "positions": g.size, "short": g.is_short,
        "outcome": outcome["outcome"], "left_first": outcome["left_first"],
        "right_first": outcome["right_first"], "stopper": value["stopper"],
        "canonical_stopper": shown(value["canonical"]), "onside": shown(value["onside"]),
        "offside": shown(value["offside"]), "sides": value["sides"], "sides_refused": value["refused"],
    }


def _human(games: list[dict], pairs: list[dict]) -> str:
    lines = []
    for r in games:
        lines.append(r["game"])
        lines.append(f"  graph             {r['graph']}  ({r['positions']} positions)")
        lines.append(f"  outcome           {r['outcome']}  (Left first: {_OUTCOME_WORDS[r['left_first']]}; "
                     f"Right first: {_OUTCOME_WORDS[r['right_first']]})")
        lines.append(f"  stopper           {'yes' if r['stopper'] else 'no'}")
        if r["canonical_stopper"] is not None:
            lines.append(f"  canonical stopper {r['canonical_stopper']}")
        if r["sides"] is not None and not r["stopper"]:
            lines.append(f"  onside & offside  {r['sides']}")
        if r["sides_refused"]:
            lines.append(f"  sides             not found: {r['sides_refused']}")
    for p in pairs:
        lines.append(f"{p['g']}  {p['relation']}  {p['h']}")
    return "\n".join(lines)


@click.command("loopy")
@time_option(pass_value=False)
@click.argument("texts", metavar="TEXT", nargs=-1, required=True)
@no_store_option
@json_option
@click.pass_context
def loopy_command(ctx: click.Context, texts: tuple[str, ...], no_store: bool, as_json: bool) -> None:
    """Loopy games in CGSuite's notation (on, off, dud, over, under, upon, tis, tisn,
    {0|pass}, a:{0|{a|*}}, on + off, 1 & -1): outcome with draws, stopper or not, canonical stopper,
    onside & offside, and how each pair of the games given compares (=, <, >, ||)."""
    from cgtalg.normal.loopy import loopy_relation

    store = cli_store(ctx, not no_store)
    games = [loopy_report(t, store) for t in texts]
    pairs = [{"g": a, "h": b, "relation": loopy_relation(a, b)}
             for a, b in itertools.combinations(texts, 2)]
    result = {"games": games, "comparisons": pairs}
    if store is not None:
        result["store"] = store.url
    emit(result, as_json, lambda: _human(games, pairs))


def register(cli: click.Group) -> None:
    cli.add_command(loopy_command)
