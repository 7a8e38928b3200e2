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

from cgtalg.budget import Stopwatch
from cgtalg.cli.common import COUNT, TIME, budgeted, check_output_path, cli_store, emit, json_option, no_store_option
from cgtalg.errors import ComputationLimitError, GameKindError

__all__ = ["register", "misere_report"]


def _phylum(ruleset: Any, h: int) -> Any:
    from cgtalg.misere.phylum import misere_phylum

    return misere_phylum(ruleset.misere_canonical_heap(h))


#: seconds the report spends on misère canonical forms (genus, class, phylum, adder of each heap)
#: before reading the remaining heaps' genera off the final misère quotient
FORM_SECONDS = 5.0
#: seconds the report spends looking for a final misère quotient (without ``--time``); a stored
#: or already known quotient answers at once
QUOTIENT_SECONDS = 10.0


def _quotient_kind(g: int, x: Any) -> str | None:
    """The genus kind of ``g^γ0`` when the quotient decides it: ``γ0`` itself, or only that
    ``γ0`` lies past the tested values ``0..T`` (then ``g <= 1`` is restive and ``2 <= g <= T``
    wild, whatever ``γ0`` is)."""
    from cgtalg.misere.genus import genus_class

    if x.misere_grundy is not None:
        return genus_class(g, x.misere_grundy)
    t = len(x.tested) - 1
    if tuple(x.tested) != tuple(range(t + 1)):
        return None
    if g <= 1:
        return "restive" if t >= 1 else None
    return "wild" if g <= t else None


def misere_report(ruleset: Any, n: int, convention: str = "classical", store: Any = None,
                  progress: bool | None = None, max_seconds: float | None = None,
                  form_seconds: float | None = FORM_SECONDS) -> dict:
    """The data of ``cgtalg misere GAME -n N`` as a dict (used by the CLI and by scripts), for
    the ``n`` heaps ``0..n-1`` (as ``cgtalg grundy -n N`` gives ``N`` values).

    Heaps are first analysed by their misère canonical forms (genus, class, phylum, adder), for
    at most ``form_seconds`` (``None``: no limit but ``max_seconds``) and up to the walk limit
    of the forms; the remaining heaps take their normal value from the Grundy sequence, their
    misère outcome from the game's final misère quotient, and every genus superscript the quotient
    decides (:mod:`cgtalg.rulesets.heaps.quotient_genus`; ``?`` where it does not). Their class and
    phylum need forms and are ``None``. ``"source"`` says which way each row came; ``"complete"``
    is False (with ``"note"``) when heaps are missing because no final quotient was found.
    """
    from cgtalg.misere.adders import adder_description
    from cgtalg.rulesets.heaps.genus import genus_sequence

    budget = form_seconds if max_seconds is None else (
        max_seconds if form_seconds is None else min(form_seconds, max_seconds))
    clock = Stopwatch()  # CPU seconds, as the budgets count them
    gen = genus_sequence(ruleset, n, convention="classical", store=store, progress=progress,
                         max_seconds=budget, partial=True)
    reach = len(gen)
    shown = gen if convention == "classical" else [ruleset.genus(h, convention) for h in range(reach)]
    adders = adder_description(ruleset, reach, convention=convention)
    rows = []
    for h, (x, s) in enumerate(zip(gen, shown)):
        ph = _phylum(ruleset, h)
        rows.append({
            "heap": h, "grundy": x.g, "misere_grundy": x.misere_grundy, "genus": s.to_str(convention),
            "gammas": list(x.gammas), "class": ph.misere_class, "genus_kind": x.genus_class,
            "phylum": ph.name.lower(), "tame": bool(ph.is_tame()),
            "adder": adders.labels[h], "misere_outcome": "P" if x.misere_grundy == 0 else "N",
            "source": "forms",
        })
    note = None
    complete = True
    infinite_from = None
    infinite_rule = False
    if reach < n:
        from cgtalg.rulesets.heaps.quotient_genus import final_quotient, quotient_genus_sequence

        left = QUOTIENT_SECONDS if max_seconds is None else max(1.0, max_seconds - clock.cpu())
        verdict: dict = {}
        rule = _stored_rule(ruleset, store)
        q = None if rule is not None else final_quotient(ruleset, store, left, verdict)
        if q is None and "infinite_from" not in verdict:
            from cgtalg.quotients.play import infinite_verdict

            verdict.update(infinite_verdict(ruleset, store) or {})
        infinite_from = verdict.get("infinite_from")
        name = ruleset.name
        why = (f"the misère canonical forms reached heap {reach - 1} "
               f"(within {budget:g} s of forms and the walk limit)" if budget is not None else
               f"the misère canonical forms reached heap {reach - 1} (the walk limit)")
        if rule is not None:
            complete = False
            infinite_rule = True
            note = (f"{name}: {why}; there is no final misère quotient to read the rest from: the quotient of all "
                    "heaps is infinite (a largest-heap rule stored with the game, checked by the referee; every Q_n "
                    f"is finite), so heaps {reach}..{n - 1} are not reported; `cgtalg outcome {name} HEAPS --misere` "
                    "answers any position from the rule; --time raises the time for forms")
        elif q is None and infinite_from is not None:
            complete = False
            note = (f"{name}: {why}; there is no final misère quotient to read the rest from: Q_n is infinite "
                    f"for every n >= {infinite_from} (proved; `cgtalg quotient {name} --json` gives the "
                    "certificate), so heaps "
                    f"{reach}..{n - 1} are not reported; --time raises the time for forms")
        elif q is None:
            complete = False
            note = (f"{name}: {why}; no final misère quotient was found within {left:g} s, so heaps "
                    f"{reach}..{n - 1} are not reported. --time raises the budget "
                    f"(cgtalg quotient {name} --time ... looks for the quotient)")
        else:
            qs = quotient_genus_sequence(ruleset, n, quotient=q, store=store)
            for h in range(reach, n):
                x = qs[h]
                rows.append({
                    "heap": h, "grundy": x.g, "misere_grundy": x.misere_grundy, "genus": x.to_str(),
                    "gammas": list(x.gammas), "class": None, "genus_kind": _quotient_kind(x.g, x),
                    "phylum": None, "tame": None, "adder": "-", "misere_outcome": x.misere_outcome,
                    "source": "quotient",
                })
            tested = ", ".join(map(str, qs[0].tested)) if qs else ""
            note = (f"{name}: {why}; heaps {reach}..{n - 1} come from the final misère quotient "
                    f"(order {q.order}): misère outcome, normal value, and the genus superscripts "
                    f"among {tested} (those with a nim-heap position in the game); '?' marks a "
                    f"superscript that is none of them, and class, phylum and adder need the forms. "
                    f"--time raises the time for forms")
    first_untame = next((r["heap"] for r in rows if r["tame"] is False), None)
    first_wild = next((r["heap"] for r in rows if r["class"] == "wild"), None)
    return {
        "game": ruleset.name, "n": n, "convention": convention, "heaps": rows,
        "misere_p_positions": [r["heap"] for r in rows if r["misere_outcome"] == "P"],
        "first_untame_heap": first_untame, "first_wild_heap": first_wild,
        "classes_known_to": reach - 1, "complete": complete, "note": note,
        "quotient_infinite_from": infinite_from,
        "quotient_infinite": True if (infinite_rule or infinite_from is not None) else None,
        "specials": adders.specials,
    }


def _stored_rule(ruleset: Any, store: Any) -> Any:
    """The largest-heap rule stored for ``ruleset`` and accepted by the referee, or None."""
    from cgtalg.ops.largest_heap import stored_rule

    try:
        return stored_rule(ruleset, store)
    except GameKindError:
        return None


def _human(res: dict) -> str:
    last = res["classes_known_to"]
    shown_to = res["heaps"][-1]["heap"] if res["heaps"] else -1
    out = [f"{res['game']}: misère report, heaps 0..{shown_to} (genus convention {res['convention']})",
           f"{'heap':>5} {'G':>4} {'G-':>4}  {'genus':<16} {'class':<9} {'phylum':<22} adder"]
    for r in res["heaps"]:
        mg = "?" if r["misere_grundy"] is None else r["misere_grundy"]
        out.append(f"{r['heap']:>5} {r['grundy']:>4} {mg:>4}  {r['genus']:<16} "
                   f"{(r['class'] or '-'):<9} {(r['phylum'] or '-'):<22} {r['adder']}")
    out.append("misère P-positions (single heaps): " + (", ".join(map(str, res["misere_p_positions"])) or "none"))
    fu, fw = res["first_untame_heap"], res["first_wild_heap"]
    out.append(f"first heap that is not tame: {fu if fu is not None else 'none up to ' + str(last)}")
    out.append(f"first wild heap: {fw if fw is not None else 'none up to ' + str(last)}")
    if res["specials"]:
        out.append("special games: " + ", ".join(f"{k} = genus {v}" for k, v in res["specials"].items()))
    if res.get("note"):
        out.append("note: " + res["note"])
    if res.get("plot"):
        out.append(f"plot written to {res['plot']}")
    return "\n".join(out)


def register(cli: click.Group) -> None:
    """Attach the ``misere`` command to the ``cgtalg`` group."""

    @cli.command("misere")
    # --time bounds the forms and the search for a quotient (at least a second, QUOTIENT_SECONDS),
    # not the whole report: that one is bounded by twice --time and 10 s more (else 60 s)
    @budgeted("seconds", whole=lambda seconds: 2 * seconds + QUOTIENT_SECONDS)
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
                  help="time budget, CPU time (90, 30s, 10m, 1.5h): of the misère search over positions "
                       "(--position), or of the genus sequence (default: their own budgets, the whole "
                       "report at most 60s; with --time T at most 2T + 10s)")
    @no_store_option
    @json_option
    @click.pass_context
    def misere_cmd(ctx, game, n, convention, position, plot, max_states, seconds, no_store, as_json):
        """Misère report of GAME: genus sequence, classes, adders; or a position's misère play."""
        from cgtalg.rulesets.heaps.games import parse_heap_ruleset

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

            # the heaps whose class is known (from their forms)
            reach = res["classes_known_to"] + 1
            plot_genus_sequence(r.genus_sequence(reach, store=store, progress=False), plot,
                                f"{r.name}: genus, heaps 0..{reach - 1}",
                                classes=[row["class"] for row in res["heaps"][:reach]])
            res["plot"] = plot
        res["seconds"] = round(time.perf_counter() - t0, 4)
        emit(res, as_json, lambda: _human(res))
        if not res["complete"]:
            ctx.exit(1)
