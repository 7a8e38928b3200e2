"""``cgtalg solve``: solve a position of any registered ruleset.

    cgtalg solve parity 25                  # P: the second player wins, + the strategy
    cgtalg solve parity 25 --json
    cgtalg solve parity 25 --draw fig.png   # the solved DAG of the position
    cgtalg solve parity --table 40          # Guy's class table b(f,s), b = 0..40, + its period
    cgtalg solve parity --figure fig1.png   # Guy's Figure 1 (condensed game tree)
    cgtalg solve RULESET POSITION... [--misere]
"""

from __future__ import annotations

from typing import Any

import click

from cgtalg.cli.common import COUNT, check_output_path, cli_store, emit, json_option, no_store_option, time_option

__all__ = ["register"]


@click.command("solve")
@click.argument("ruleset_name", metavar="RULESET")
@click.argument("position", nargs=-1, metavar="POSITION...")
@click.option("--misere", is_flag=True, help="Misère play (the player unable to move wins), where the ruleset uses the default end rule.")
@click.option("--table", "table", type=COUNT, default=None, metavar="N",
              help="Print the ruleset's class table up to N (e.g. Guy's b(f,s) classes for parity) and its detected period.")
@click.option("--draw", type=click.Path(dir_okay=False), default=None, help="Draw the solved DAG of the position to a PNG file.")
@click.option("--figure", type=click.Path(dir_okay=False), default=None,
              help="Parity rulesets: draw Guy's condensed game tree (Figure 1) up to --table N beans (default 11).")
@click.option("--max-positions", "max_positions", type=COUNT, default=None, metavar="N",
              help="The most positions the solver may hold (default 10^7); larger game graphs are refused up front.")
@time_option()
@no_store_option
@json_option
@click.pass_context
def solve_command(
    ctx: click.Context,
    ruleset_name: str,
    position: tuple[str, ...],
    misere: bool,
    table: int | None,
    draw: str | None,
    figure: str | None,
    max_positions: int | None,
    max_seconds: float | None,
    no_store: bool,
    as_json: bool,
) -> None:
    """Solve POSITION of RULESET: the outcome class (P, N; L, R for partizan games and
    games with their own end rule), the winning moves, and the winning strategy.

    POSITION is read by the ruleset (words are joined by spaces), e.g. `parity 25` (a
    heap of 25 beans) or `parity 24,1,0` (24 beans, Left holding 1, Right 0)."""
    from cgtalg.errors import RulesetError
    from cgtalg.rulesets.protocol import parse_position
    from cgtalg.rulesets.registry import get_ruleset
    from cgtalg.rulesets.solver import solve

    ruleset = get_ruleset(ruleset_name)
    if not position and table is None and figure is None:
        raise click.UsageError("give a POSITION to solve (or --table N / --figure PATH)")
    for path, option in ((draw, "--draw"), (figure, "--figure")):
        if path:
            check_output_path(path, option)
    result: dict[str, Any] = {"ruleset": ruleset.name}
    parts: list[str] = []

    if position:
        pos = parse_position(ruleset, " ".join(position))
        from cgtalg.rulesets.heaps.base import HeapRuleset
        from cgtalg.rulesets.solver_walk import DEFAULT_MAX_POSITIONS

        limit = DEFAULT_MAX_POSITIONS if max_positions is None else max_positions
        if isinstance(ruleset, HeapRuleset) and not misere and not draw and ruleset.position_count(pos) > limit:
            # large heaps in normal play: the outcome and winning moves come from the values
            # (and the certified period), as `cgtalg outcome` gives them
            from cgtalg.cli.octal import heap_outcome

            heap_result, human = heap_outcome(ruleset, list(pos))
            result["outcome"] = heap_result
            emit(result, as_json, human)
            return
        store = None
        if callable(getattr(ruleset, "parse_position", None)):
            store = cli_store(ctx, not no_store)
        solution = solve(ruleset, pos, misere=misere, store=store, max_positions=max_positions,
                         max_seconds=max_seconds)
        result["solution"] = solution.to_json()
        if store is not None:
            result["store"] = store.url
        parts.append(str(solution))
        if draw:
            from cgtalg.viz.game_tree import draw_game_dag

            draw_game_dag(solution, draw, ruleset=ruleset)
            result["drawing"] = draw
            parts.append(f"(DAG drawn to {draw})")
    elif draw:
        raise click.UsageError("--draw needs a POSITION")

    if table is not None:
        class_table = getattr(ruleset, "class_table", None)
        if not callable(class_table):
            raise RulesetError(
                f"ruleset {ruleset.name!r} has no class table (--table works for rulesets with a "
                "class_table method, such as parity)"
            )
        if table < 0:
            raise RulesetError(f"--table needs N >= 0, got {table}")
        from cgtalg.rulesets.heaps.periodicity import find_period

        # the table is refused up front when it cannot fit the memory ceiling (--memory),
        # and stops at --time
        rows = class_table(table, progress=None if not as_json else False, max_seconds=max_seconds)
        columns = list(getattr(ruleset, "class_table_columns", ()))
        period = find_period(rows)
        result["table"] = {"columns": columns, "rows": [list(r) for r in rows]}
        result["period"] = period.to_json() if period is not None else None
        fmt = getattr(ruleset, "format_class_table", None)
        text = fmt(rows) if callable(fmt) else "\n".join(f"{i}: {r}" for i, r in enumerate(rows))
        parts.append(f"Classes of {ruleset.name} (P: second player wins, N: first player wins; "
                     "'.' = not a position):\n" + text)
        parts.append(f"Period of the table over b: {period}" if period is not None
                     else "No period detected in the table (try a larger N).")

    if figure:
        from cgtalg.rulesets.parity import ParityGame, RelativeParityGame
        from cgtalg.viz.game_tree import draw_parity_figure

        if not isinstance(ruleset, (ParityGame, RelativeParityGame)):
            raise RulesetError(f"--figure draws Guy's parity-game figure; ruleset {ruleset.name!r} is not a parity game")
        top = 11 if table is None else table
        draw_parity_figure(figure, top, subtraction=ruleset.subtraction)
        result["figure"] = figure
        parts.append(f"(Guy's condensed game tree, b = 0..{top}, drawn to {figure})")

    emit(result, as_json, lambda: "\n\n".join(parts))


def register(cli: click.Group) -> None:
    """Attach ``cgtalg solve`` to the command group."""
    cli.add_command(solve_command)
