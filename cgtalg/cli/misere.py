"""``cgtalg misere``: the misère report of a heap game.

    cgtalg misere 0.123 -n 21                 normal values and genera side by side, the class of
                                              each heap, adders, the first untame and first wild heap
    cgtalg misere 0.77 -n 30 --convention extended --plot kayles.png
    cgtalg misere 0.123 --position "9 8 5 3"  misère outcome, winning moves and genus of a position

Genera are read from and written to the store (``--no-store`` to skip it); ``--json`` prints
everything as JSON.
"""

from __future__ import annotations

import re
import time
from typing import Any

import click

from cgtalg.cli.common import COUNT, TIME, check_output_path, cli_store, emit, json_option, no_store_option
from cgtalg.errors import ComputationLimitError

__all__ = ["register", "misere_report"]


def _phylum(ruleset: Any, h: int) -> Any:
    from cgtalg.misere.phylum import misere_phylum

    return misere_phylum(ruleset.misere_canonical_heap(h))


def misere_report(ruleset: Any, n: int, convention: str = "classical", store: Any = None,
                  progress: bool | None = None, max_seconds: float | None = None) -> dict:
    """The data of ``cgtalg misere GAME -n N`` as a dict (used by the CLI and by scripts), for
    the ``n`` heaps ``0..n-1`` (as ``cgtalg grundy -n N`` gives ``N`` values);
    ``max_seconds`` bounds the genus sequence (:func:`cgtalg.rulesets.heap_misere.genus_sequence`)."""
    from cgtalg.misere.adders import adder_description
    from cgtalg.rulesets.heap_misere import genus_sequence

    gen = genus_sequence(ruleset, n, convention="classical", store=store, progress=progress,
                         max_seconds=max_seconds)
    shown = gen if convention == "classical" else [ruleset.genus(h, convention) for h in range(n)]
    adders = adder_description(ruleset, n, convention=convention)
    rows = []
    for h, (x, s) in enumerate(zip(gen, shown)):
        ph = _phylum(ruleset, h)
        rows.append({
            "heap": h, "grundy": x.g, "misere_grundy": x.misere_grundy, "genus": s.to_str(convention),
            "gammas": list(x.gammas), "class": ph.misere_class, "genus_kind": x.genus_class,
            "phylum": ph.name.lower(), "tame": bool(ph.is_tame()),
            "adder": adders.labels[h],
        })
    first_untame = next((r["heap"] for r in rows if not r["tame"]), None)
    first_wild = next((r["heap"] for r in rows if r["class"] == "wild"), None)
    return {
        "game": ruleset.name, "n": n, "convention": convention, "heaps": rows,
        "misere_p_positions": [r["heap"] for r in rows if r["misere_grundy"] == 0],
        "first_untame_heap": first_untame, "first_wild_heap": first_wild,
        "specials": adders.specials,
    }


def _human(res: dict) -> str:
    last = res["n"] - 1
    out = [f"{res['game']}: misère report, heaps 0..{last} (genus convention {res['convention']})",
           f"{'heap':>5} {'G':>4} {'G-':>4}  {'genus':<16} {'class':<9} {'phylum':<22} adder"]
    for r in res["heaps"]:
        out.append(f"{r['heap']:>5} {r['grundy']:>4} {r['misere_grundy']:>4}  {r['genus']:<16} "
                   f"{r['class']:<9} {(r['phylum'] or '-'):<22} {r['adder']}")
    out.append("misère P-positions (single heaps): " + (", ".join(map(str, res["misere_p_positions"])) or "none"))
    fu, fw = res["first_untame_heap"], res["first_wild_heap"]
    out.append(f"first heap that is not tame: {fu if fu is not None else 'none up to ' + str(last)}")
    out.append(f"first wild heap: {fw if fw is not None else 'none up to ' + str(last)}")
    if res["specials"]:
        out.append("special games: " + ", ".join(f"{k} = genus {v}" for k, v in res["specials"].items()))
    if res.get("plot"):
        out.append(f"plot written to {res['plot']}")
    return "\n".join(out)


def register(cli: click.Group) -> None:
    """Attach the ``misere`` command to the ``cgtalg`` group."""

    @cli.command("misere")
    @click.argument("game")
    @click.option("-n", "n", type=COUNT, default=21, show_default=True,
                  help="number of heaps of the report, 0..N-1 (as `cgtalg grundy -n N` gives N values)")
    @click.option("--convention", type=click.Choice(["classical", "short", "extended"]),
                  default="classical", show_default=True,
                  help="genus symbols: classical (Winning Ways), short, or extended (CGSuite)")
    @click.option("--position", "position", default=None,
                  help='a multi-heap position, e.g. "9 8 5 3": misère outcome, winning moves and genus')
    @click.option("--plot", "plot", type=click.Path(dir_okay=False), default=None,
                  help="write a plot of g and γ0 per heap, coloured by class (the table's column)")
    @click.option("--max-states", "max_states", type=COUNT, default=None,
                  help="budget of the misère search over positions (--position)")
    @click.option("--time", "seconds", type=TIME, default=None,
                  help="time budget (90, 30s, 10m, 1.5h): of the misère search over positions (--position), "
                       "or of the genus sequence")
    @no_store_option
    @json_option
    @click.pass_context
    def misere_cmd(ctx, game, n, convention, position, plot, max_states, seconds, no_store, as_json):
        """Misère report of GAME: genus sequence, classes, adders; or a position's misère play."""
        from cgtalg.rulesets.heap_games import parse_heap_ruleset

        r = parse_heap_ruleset(game)
        if n < 1:
            raise click.BadParameter("the report needs at least one heap (-n 1: heap 0)", param_hint="-n")
        store = cli_store(ctx, not no_store)
        t0 = time.perf_counter()
        if position is not None:
            r.parse_position(position)  # the checks and their messages
            # the heaps as given, in their order (as `cgtalg outcome` numbers them)
            hs = tuple(int(x) for x in re.split(r"[\s,+]+", position.strip().strip("()[]")) if x)
            kw: dict[str, Any] = {} if max_states is None else {"max_states": max_states}
            if seconds is not None:
                kw["max_seconds"] = seconds
            outcome = r.outcome(hs, misere=True, store=store, **kw)
            moves = r.winning_moves(hs, misere=True, store=store, **kw)
            try:
                x = r.genus(hs, convention, store=store if convention != "extended" else None)
            except ComputationLimitError as exc:   # huge heaps: the outcome came from a quotient
                x, why = None, str(exc)
            res = {"game": r.name, "position": list(hs), "misere_outcome": outcome,
                   "winning_moves": [m.to_json() for m in moves],
                   "genus": None if x is None else x.to_str(convention),
                   "gammas": None if x is None else list(x.gammas),
                   "seconds": round(time.perf_counter() - t0, 4)}
            if x is None:
                res["genus_note"] = why

            def human() -> str:
                genus = res["genus"] if x is not None else "out of reach (heaps too large for canonical forms)"
                out = [f"{r.name} {' '.join(map(str, hs))}: misère {outcome}-position, genus {genus}"]
                if moves:
                    out.append("winning moves: " + ", ".join(str(m) for m in moves))
                return "\n".join(out)

            emit(res, as_json, human)
            return
        if plot:
            check_output_path(plot, "--plot")
        res = misere_report(r, n, convention, store, progress=None if not as_json else False,
                            max_seconds=seconds)
        if plot:
            from cgtalg.core.game import Game  # noqa: F401
            from cgtalg.viz.sequence_plot import plot_genus_sequence

            plot_genus_sequence(r.genus_sequence(n, store=store, progress=False), plot,
                                f"{r.name}: genus, heaps 0..{n - 1}",
                                classes=[row["class"] for row in res["heaps"]])
            res["plot"] = plot
        res["seconds"] = round(time.perf_counter() - t0, 4)
        emit(res, as_json, lambda: _human(res))
