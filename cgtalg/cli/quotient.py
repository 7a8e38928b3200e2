"""``cgtalg quotient``: misère quotients (Plambeck–Siegel) of heap games, of the closure of a
set of impartial forms, and of component games (Node Kayles, Cram).

    cgtalg quotient 0.123                          the final quotient, certified by the misère
                                                   periodicity theorem: order, P-portion,
                                                   presentation, Φ with its period
    cgtalg quotient kayles                         a ruleset name
    cgtalg quotient 0.07 --max-heap 40 --time 10m  partial quotients heap by heap; ends with the
                                                   last one reached when the time runs out
    cgtalg quotient '*2+*2' '{*2}' '*2'            the closure of these forms: which of them are
                                                   indistinguishable, which sums are P
    cgtalg quotient cram:2xn --max-heap 8          Q_8 of Cram on 2×n strips (components of at
                                                   most 8 cells)
    cgtalg quotient node-kayles:cycles -n 10 --json

Without ``--time`` a run has a budget of :data:`DEFAULT_SECONDS` seconds; when a budget ends the
command prints the partial quotient reached and how to go on (``--time 10m``). The quotient is
read from and checkpointed to the store (``--no-store`` to skip it; a stored state is
re-verified when loaded, ``--fresh`` recomputes and replaces it), so a run that is stopped
resumes where it was, and says so. Once a quotient is stored, ``cgtalg outcome GAME HEAPS
--misere`` answers positions of the heaps it covers from it.

When the next quotient is proved infinite (the default strategy counts a heap's copies and
tries that proof when repairing stalls: Dawson's Kayles at heap 34), the result is the last finite one with ``infinite_from`` (the heap from which ``Q_n`` is
infinite) and, in the ``--json`` output, the ``certificate`` of that proof
(:mod:`cgtalg.quotients.infinite`), which ``cgtalg check`` checks from the definitions.
"""

from __future__ import annotations

from typing import Any

import click

from cgtalg.budget import Stopwatch
from cgtalg.cli.common import COUNT, TIME, budgeted, cli_store, emit, json_option, no_store_option

__all__ = ["register", "quotient_text", "phi_text", "split_sum", "DEFAULT_SECONDS"]

from cgtalg.cli.quotient_report import (  # noqa: E402,F401 - click-free, for cgtalg.cli.fast
    DEFAULT_SECONDS, PROGRESS_SECONDS, _hint, phi_text, progress_line, quotient_text)


def _result(q: Any, table: bool, progress: list) -> dict:
    d = q.to_dict()
    if hasattr(q, "presentation"):
        d["phi_text"] = phi_text(q)
    if not table:
        d.pop("table", None)
    d["progress"] = progress
    return d


def _stored(store: Any, heaps: Any) -> dict | None:
    """What the store claims for ``heaps`` (top heap and order; read, not verified: the
    construction re-verifies it when it loads it)."""
    if store is None:
        return None
    from cgtalg.quotients.storage import ENTRY, quotient_key

    try:
        rec = (store.sequence_meta(quotient_key(heaps)) or {}).get(ENTRY)
        return {"top": int(rec["top"]), "order": int(rec.get("final_order") or rec["order"]),
                "final": bool(rec.get("final"))}
    except (AttributeError, KeyError, TypeError, ValueError):
        return None


def _rule_reserve(kind: str, subject: Any, max_heap: int | None, budget: float | None) -> float:
    """The CPU seconds kept for a largest-heap rule after the quotient run: a quarter of the
    budget (at least 20 s, at most half the budget) when the subject is a heap code whose
    Grundy values have a short period and no ``--max-heap`` is asked (the rule is about every
    heap), else 0 (the run keeps the whole budget)."""
    if kind != "heaps" or max_heap is not None:
        return 0.0
    from cgtalg.ops.largest_heap import suitable

    if suitable(subject) is None:
        return 0.0
    return 30.0 if budget is None else min(max(20.0, 0.25 * budget), 0.5 * budget)


def _rule_time(budget: float | None) -> str:
    """A ``--time`` that gives a largest-heap rule's check at least two minutes (four times
    the budget, at least 8 minutes: a quarter of it is kept for the rule, :func:`_rule_reserve`)."""
    minutes = max(8, int(4 * (budget or 0) / 60) + 1)
    return f"{minutes}m"


def rule_text(rule: dict) -> str:
    """What a proved largest-heap rule says, in one paragraph."""
    from cgtalg.ops.largest_heap import weights_text

    doc = rule["certificate"]
    fam = doc["family"]
    return (f"the misère quotient of {rule['game']} (all heaps) is infinite: every misère outcome follows a "
            f"largest-heap rule ({weights_text(doc)}; {len(doc['rule']['P'])} P-keys), proved by "
            f"{rule['verdict']['checker']}; heaps {fam['heap']} + {fam['step']}j are pairwise inequivalent. No Q_n is "
            "shown infinite and none is final, so a larger --time only computes more of them; the certificate is in "
            "the --json output (largest_heap_rule.certificate), and `cgtalg check` re-checks it")


def _subject_heaps(kind: str, subject: Any, max_heap: int | None, reduce: bool) -> Any:
    """The heap ruleset the construction runs on (its store key), None when it is only known
    as the run goes (a family grown size by size)."""
    if kind == "family":
        from cgtalg.ops.quotients import ReducedComponentHeaps, component_heaps

        if not reduce:
            return component_heaps(subject)
        return ReducedComponentHeaps(subject, max_heap) if max_heap is not None else None
    if kind == "forms":
        from cgtalg.quotients.forms import form_heaps

        return form_heaps(subject)
    return subject


def _q_name(kind: str, heaps: Any, top: int) -> str:
    from cgtalg.ops.quotients import ReducedComponentHeaps, complete_size

    if isinstance(heaps, ReducedComponentHeaps):
        if top >= heaps.max_heap:
            return f"Q_{heaps.max_size}"
        return f"part of Q_{heaps.max_size} (heaps <= {top} of {heaps.max_heap})"
    if kind == "family":
        heaps.heap_options(top)
        n = complete_size(heaps, top)
        extra = top - heaps.size_end[n]
        return f"Q_{n}" + (f" and {extra} type(s) of {n + 1}" if extra else "")
    if kind == "forms":
        return "quotient of the closure" if top >= heaps.max_heap else f"part of the quotient (heaps <= {top})"
    return f"Q_{top}"


def _heap_label(kind: str, info: dict) -> str:
    h = info["heap"]
    if h == 0 and kind != "heaps":
        return f"heap {h:>4} (the empty position)"
    if "component" in info:
        return f"heap {h:>4} ({info['component']}; Q_{info['max_size']})"
    if kind == "forms":
        return f"heap {h:>4} ({info['form']})"
    return f"heap {h:>4}"


def split_sum(text: str) -> list[str]:
    """The summands of a sum written with ``+`` (split at the top level only: ``{*2+*2} + *3``
    is two summands).

    >>> split_sum("{*2+*2} + *3"), split_sum("xxx/xxx + xx/xx")
    (['{*2+*2}', '*3'], ['xxx/xxx', 'xx/xx'])
    """
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch in "{[(":
            depth += 1
        elif ch in "}])":
            depth -= 1
        if ch == "+" and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur).strip())
    return [p for p in parts if p]


def _answer(kind: str, q: Any, text: str) -> str:
    """The misère outcome of a position written on the command line, from the quotient."""
    from cgtalg.errors import RulesetError

    if kind == "heaps":
        try:
            heaps = [int(h) for h in text.replace(",", " ").replace("+", " ").split()]
        except ValueError:
            raise RulesetError(f"--outcome {text!r}: a position of a heap game is heap sizes such as '3 5 9'") from None
        return "P" if q.is_p(heaps) else "N"
    return q.outcome(split_sum(text))


def register(cli: click.Group) -> None:
    """Attach the ``quotient`` command to the ``cgtalg`` group."""

    @cli.command("quotient")
    @budgeted("seconds", DEFAULT_SECONDS)  # the whole run: --time, else DEFAULT_SECONDS
    @click.argument("game", nargs=-1, required=True)
    @click.option("--max-heap", "-n", "max_heap", type=COUNT, default=None,
                  help="compute Q_N: heaps <= N, or for a board family (cram:2xn, "
                       "node-kayles:cycles) components of at most N cells or vertices (default: "
                       "until the periodicity theorem certifies the final quotient, or the budget)")
    @click.option("--time", "seconds", type=TIME, default=None,
                  help=f"time budget, CPU time (90, 30s, 10m, 1.5h, 1h30m; default {DEFAULT_SECONDS:.0f}s): "
                       "stop with the partial quotient reached")
    @click.option("--max-order", "max_order", type=COUNT, default=5000, show_default=True,
                  help="largest quotient order tried")
    @click.option("--max-states", "max_states", type=COUNT, default=2_000_000, show_default=True,
                  help="option-set states one verification of a candidate may visit")
    @click.option("--fresh", is_flag=True, help="ignore the stored quotient: recompute and replace it")
    @click.option("--table", "table", is_flag=True,
                  help="include the multiplication table in --json output (always for order <= 64)")
    @click.option("--quiet", is_flag=True, help="no progress lines")
    @click.option("--outcome", "outcomes", multiple=True, metavar="POSITION",
                  help="also answer the misère outcome of POSITION from the quotient (repeatable): "
                       "heaps '3 5 9', board components 'xxx/xxx + xx/xx' or 'C7 + P3', or forms "
                       "'{*2} + *2+*2' (summands split at the top-level +)")
    @click.option("--no-reduce", "no_reduce", is_flag=True,
                  help="board families: every component type a heap of its own (stored per family, "
                       "so a larger N resumes from a smaller one) instead of the components' misère "
                       "canonical forms (far fewer heaps; stored per family and N)")
    @click.option("--strategy", type=click.Choice(["auto", "repair", "counting"]), default="auto",
                  show_default=True,
                  help="how a heap (a form, a component type) that changes the quotient is adjoined, "
                       "all verified: repair the whole candidate, or count the new heap's copies with "
                       "the proof of an infinite quotient tried at every level (each level stored: a "
                       "rerun resumes after the last); auto repairs for a quarter of the budget left, "
                       "then counts")
    @no_store_option
    @json_option
    @click.pass_context
    def quotient_cmd(ctx, game, max_heap, seconds, max_order, max_states, fresh, table, quiet, outcomes, no_reduce,
                     strategy, no_store, as_json):
        """Misère quotient of GAME: a code (0.07), a ruleset name (kayles), a list of forms
        ('*2+*2' '{*2}'), or a board family (cram:2xn, node-kayles:cycles): order, P-portion,
        presentation and Φ. Progress lines (heap and order) go to stderr."""
        from cgtalg.ops.quotients import misere_quotient, quotient_subject

        kind, subject = quotient_subject(game[0] if len(game) == 1 else list(game))
        heaps = _subject_heaps(kind, subject, max_heap, not no_reduce)
        store = cli_store(ctx, not no_store)
        budget = DEFAULT_SECONDS if seconds is None else seconds
        progress: list[dict] = []
        clock = Stopwatch()  # CPU seconds, as the budget counts them
        say = (lambda text: None) if (as_json or quiet) else (lambda text: click.echo(text, err=True))

        stored = None if fresh or heaps is None else _stored(store, heaps)
        resumed = None
        if stored is not None:
            resumed = {"top": stored["top"], "order": stored["order"],
                       "quotient": _q_name(kind, heaps, stored["top"]) if not stored["final"] else "final"}
            say(f"resuming from the stored {resumed['quotient']} (order {stored['order']}; "
                "re-verified as it is loaded)")

        last = [clock.wall()]

        def report(info: dict) -> None:
            if kind == "forms":
                from cgtalg.misere.notation import format_misere

                info = dict(info, form=format_misere(heaps.heaps[info["heap"]], max_chars=60))
            row = {k: (round(v, 3) if isinstance(v, float) else v) for k, v in info.items()}
            progress.append(row)
            now = clock.wall()
            if info["changed"] or info["heap"] == max_heap or now - last[0] >= PROGRESS_SECONDS:
                last[0] = now
                say(progress_line(_heap_label(kind, info), info, clock.cpu()))

        extra = {"reduce": not no_reduce} if kind == "family" else {}
        if kind == "forms":
            extra = {"heaps": heaps}
        if strategy != "auto":
            extra["strategy"] = strategy
        reserve = _rule_reserve(kind, subject, max_heap, budget)
        q = misere_quotient(subject, max_heap, max_order=max_order, max_states=max_states,
                            max_seconds=None if budget is None else budget - reserve, store=store,
                            partial=True, resume=not fresh, callback=report, progress=False, **extra)
        inner = getattr(q, "quotient", q)
        rule, rule_notes = None, []
        if reserve and not getattr(inner, "final", False) and getattr(inner, "infinite_from", None) is None:
            from cgtalg.ops.largest_heap import largest_heap_verdict

            say("trying a largest-heap rule (every outcome by a rule over heap sizes)")
            rest = None if budget is None else max(budget - clock.cpu(), 1.0)
            rule = largest_heap_verdict(subject, max_seconds=rest, store=store, notes=rule_notes)
        run_seconds = clock.cpu()
        hint = _hint(inner, seconds, store is not None, DEFAULT_SECONDS, max_order, max_states)
        if rule is not None:
            hint = rule_text(rule)
        elif rule_notes:
            hint = f"{rule_notes[0]} (a quarter of the budget goes to the rule: e.g. --time {_rule_time(budget)})"
        d = _result(q, table or inner.order <= 64, progress)
        d["kind"] = kind
        d["run_seconds"] = round(run_seconds, 3)
        d["resumed_from"] = resumed
        d["hint"] = hint
        d["largest_heap_rule"] = rule
        answers = [{"position": text, "outcome": _answer(kind, q, text)} for text in outcomes]
        if answers:
            d["outcomes"] = answers

        def text() -> str:
            body = quotient_text(q, run_seconds) if kind == "heaps" else str(q)
            lines = [f"misère outcome of {a['position']}: {a['outcome']}" for a in answers]
            return "\n".join([body] + lines + ([hint] if hint else []))

        emit(d, as_json, text)
