"""``cgtalg demo``: the main job of the README — an equivalence proof, a solved position and
cached queries, on the default store (created and migrated on first use)."""

from __future__ import annotations

import time

import click

from cgtalg.cli.common import cli_store, emit, json_option, time_option

__all__ = ["register"]


@click.command("demo")
@time_option(pass_value=False)
@json_option
@click.pass_context
def demo_command(ctx: click.Context, as_json: bool) -> None:
    """Run the showcase on the store: prove {*2} vs *2+*2 in misère play, prove
    *2+*1 ≡ *3, solve Guy's parity game from 25 beans, and describe {*2}; a second run
    answers from the store."""
    from cgtalg.core.notation import parse
    from cgtalg.report import describe, prove_equivalence
    from cgtalg.rulesets.parity import ParityGame
    from cgtalg.rulesets.solver import solve

    store = cli_store(ctx)
    out: dict = {"store": store.url, "steps": []}
    text: list[str] = [f"store: {store.url}", ""]

    for g_text, h_text in (("{*2}", "*2+*2"), ("*2+*1", "*3")):
        t0 = time.perf_counter()
        report = prove_equivalence(g_text, h_text, misere=True, store=store)
        seconds = time.perf_counter() - t0
        verdict = "≡" if report.holds else "≢"
        text += [f"== {g_text} {verdict} {h_text} in misère play (impartial universe) [{seconds:.3f} s]",
                 str(report), ""]
        out["steps"].append({"equivalence": [g_text, h_text], "holds": report.holds,
                             "proof_checked": report.proof_checked, "from_store": report.from_store,
                             "seconds": seconds})

    ruleset = ParityGame()
    t0 = time.perf_counter()
    solution = solve(ruleset, ruleset.start(25), store=store)
    seconds = time.perf_counter() - t0
    text += [f"== Guy's parity subtraction game from 25 beans [{seconds:.3f} s]", str(solution), ""]
    out["steps"].append({"solve": "parity 25", "solution": solution.to_json(), "seconds": seconds})

    report = describe(parse("{*2}"), store=store)
    text += ["== the game {*2}", str(report), ""]
    out["steps"].append({"describe": "{*2}", "report": report.to_json()})

    info = store.info()
    out["store_info"] = info
    text.append(
        f"store now holds: {info['forms']} forms, {sum(info['properties'].values())} form properties, "
        f"{sum(info['relations'].values())} equivalence verdicts, {info['positions']} solved positions "
        "(run `cgtalg demo` again: the proofs and the solution come from the store)"
    )
    emit(out, as_json, "\n".join(text))


def register(cli: click.Group) -> None:
    """Attach ``demo`` to the main command group."""
    cli.add_command(demo_command)
