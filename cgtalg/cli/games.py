"""``cgtalg game`` and ``cgtalg equiv``: properties of forms and equivalence proofs."""

from __future__ import annotations

import click

from cgtalg.cli.common import check_output_path, cli_store, emit, json_option, no_store_option

__all__ = ["register"]


@click.command("game")
@click.argument("text")
@click.option("--misere", is_flag=True, help="Lead with misère play (both are always shown).")
@no_store_option
@click.option("--draw", type=click.Path(dir_okay=False), default=None, help="Draw the game DAG to a PNG file.")
@json_option
@click.pass_context
def game_command(ctx: click.Context, text: str, misere: bool, no_store: bool, draw: str | None, as_json: bool) -> None:
    """Outcome, Grundy value, misère Grundy value, misère canonical form and winning
    moves of the game TEXT (e.g. "{*2}", "*2+*3", "*[2#]")."""
    from cgtalg.core.notation import parse
    from cgtalg.report import describe

    if draw:
        check_output_path(draw, "--draw")
    g = parse(text)
    from cgtalg.core.partizan import PartizanGame

    if isinstance(g, PartizanGame):  # partizan text such as "{1|0}" or "^*"
        from cgtalg.cli.partizan import format_report, partizan_report

        presult = {"input": text, **partizan_report(g)}
        if draw:
            from cgtalg.viz.game_tree import draw_game_dag

            draw_game_dag(g.to_networkx(), draw, misere=misere)
            presult["drawing"] = draw
        emit(presult, as_json, lambda: f"{'input':<16}{text}\n" + format_report(presult)
             + (f"\n(drawing written to {draw})" if draw else ""))
        return
    store = cli_store(ctx, not no_store)
    report = describe(g, store=store)
    result = {"input": text, **report.to_json()}
    if store is not None:
        result["store"] = store.url
    if draw:
        from cgtalg.viz.game_tree import draw_game_dag

        draw_game_dag(g.to_networkx(), draw, misere=misere)
        result["drawing"] = draw

    def human() -> str:
        v = report.values
        canonical = "below (cut)" if report.canonical_cut else v["misere_canonical"]
        head = (
            f"misère: {v['misere_outcome']}-position, misère Grundy value {v['misere_grundy']}, "
            f"canonical form {canonical}"
            if misere
            else f"normal play: {v['normal_outcome']}-position, Grundy value {v['grundy']}"
        )
        body = str(report)
        if text.strip() != result.get("game"):  # the input as given; the form is shown below it
            body = f"{'input':<16}{text}\n" + body
        return head + "\n\n" + body + (f"\n(drawing written to {draw})" if draw else "")

    emit(result, as_json, human)


@click.command("equiv")
@click.argument("g_text", metavar="G")
@click.argument("h_text", metavar="H")
@click.option("--misere/--normal", default=False,
              help="Misère play (a player unable to move wins); default normal play.")
@click.option("--universe", type=click.Choice(["impartial", "dicot", "dead-ending", "all"]),
              default=None, help="The misère universe the games are compared in (default: "
              "impartial when both games are impartial, else all games).")
@no_store_option
@json_option
@click.pass_context
def equiv_command(ctx: click.Context, g_text: str, h_text: str, misere: bool, universe: str | None,
                  no_store: bool, as_json: bool) -> None:
    """Compare G and H: equal, less, greater or confused, in normal play or in misère play
    modulo a universe, with a proof that is re-checked independently.

    Impartial games: Spindler's Theorem 1 (Siegel CGT V.3.5-3.6) witnesses when they are
    equivalent, a distinguishing game T when they are not (normal play: Grundy labels).
    Partizan games: the order in normal play; in misère play (dicot, dead-ending or general
    universe) the Maintenance-and-Proviso certificates of G ≥ H and H ≥ G, re-checked by play."""
    from cgtalg.ops import compare, kind_of
    from cgtalg.ops.kinds import check_universe, read

    g, h = read(g_text), read(h_text)
    impartial = all(kind_of(x, "equiv") == "impartial" for x in (g, h))
    chosen = check_universe(universe, (g, h), "equiv") if misere else None
    if universe is not None and not misere:
        raise click.UsageError("--universe applies to misère play; add --misere")
    store = cli_store(ctx, not no_store)
    if impartial and chosen in (None, "impartial"):
        from cgtalg.core.partizan import PartizanGame, to_impartial
        from cgtalg.report import prove_equivalence

        g, h = (to_impartial(x) if isinstance(x, PartizanGame) else x for x in (g, h))
        report = prove_equivalence(g, h, misere=misere, store=store)
        payload = {"input": {"g": g_text, "h": h_text}, **report.to_json(),
                   "universe": chosen, "relation": "=" if report.holds else "||"}
        checked, text = report.proof_checked, str(report)
    else:
        c = compare(g, h, misere=misere, universe=chosen)
        checked = c.check()
        payload = {"input": {"g": g_text, "h": h_text}, **c.to_json(), "holds": c.equal,
                   "proof_checked": checked, "from_store": False}
        text = c.explain()
        if c.certificates:
            text += "\n\n" + ("certificates re-checked by play: OK" if checked else "PROOF CHECK FAILED")
    if store is not None:
        payload["store"] = store.url

    def human() -> str:
        echo = ""
        if g_text.strip() != payload["g"] or h_text.strip() != payload["h"]:  # inputs as given
            echo = f"input: G = {g_text}, H = {h_text}\n"
        return echo + text

    emit(payload, as_json, human)
    if not checked:
        raise SystemExit(1)


def register(cli: click.Group) -> None:
    """Attach ``game`` and ``equiv`` to the main command group."""
    cli.add_command(game_command)
    cli.add_command(equiv_command)
