"""``cgtalg quotient``: the misère quotient of a heap game (Plambeck–Siegel).

    cgtalg quotient 0.123                          the final quotient, certified by the misère
                                                   periodicity theorem: order, P-portion,
                                                   presentation, Φ with its period
    cgtalg quotient 0.07 --max-heap 40 --time 10m  partial quotients heap by heap; ends with the
                                                   last one reached when the time runs out
    cgtalg quotient 0.[3] --max-heap 7 --json

The quotient is read from and checkpointed to the store (``--no-store`` to skip it; a stored
state is re-verified when loaded, ``--fresh`` recomputes and replaces it), so a long run that is
stopped resumes where it was. Once a quotient is stored, ``cgtalg outcome GAME HEAPS --misere``
answers positions of the heaps it covers from it.
"""

from __future__ import annotations

import time
from typing import Any

import click

from cgtalg.cli.common import COUNT, TIME, cli_store, emit, json_option, no_store_option

__all__ = ["register", "quotient_text", "phi_text"]

def phi_text(q: Any) -> str:
    """Φ in the literature's style: the words of heaps ``0, 1, 2, ...``, the periodic part in
    brackets when certified (``1 a 1 b b [a c 1 d e]``: heaps 5.. repeat with period 5)."""
    words = q.presentation().words
    phi = [words[x] for x in q.phi]
    if q.final and q.period:
        n0, p = q.period
        return " ".join(phi[:n0] + ["[" + " ".join(phi[n0:n0 + p]) + "]"])
    return " ".join(phi)


def quotient_text(q: Any) -> str:
    """The human-readable report of a quotient (``cgtalg quotient``)."""
    pr = q.presentation()
    if q.final:
        n0, p = q.period
        head = (f"{q.game}: misère quotient of the whole game (final: Φ is periodic from heap {n0} "
                f"with period {p}, checked to heap {q.checked_to})")
    else:
        head = f"{q.game}: misère quotient Q_{q.max_heap} (heaps <= {q.max_heap})"
    lines = [head,
             f"|Q| = {q.order}, |P| = {len(q.p_portion)}" + (f", tame (T_{q.tame_index()})" if q.order <= 66 and q.is_tame() else ""),
             f"Q = {pr.text}",
             "P = {" + ", ".join(pr.words[x] for x in q.p_portion) + "}",
             f"Φ = {phi_text(q)}"]
    if q.final:
        n0, p = q.period
        lines.append(f"    (Φ(n) for heaps 0..{n0 - 1}, then the bracketed words repeat: "
                     f"Φ(n + {p}) = Φ(n) for n >= {n0})")
    if q.note:
        lines.append(f"partial result: {q.note}")
    lines.append(f"({q.seconds:.2f} s of computation)")
    return "\n".join(lines)


def _result(q: Any, table: bool, progress: list) -> dict:
    d = q.to_dict()
    d["phi_text"] = phi_text(q)
    if not table:
        d.pop("table", None)
    d["progress"] = progress
    return d


def register(cli: click.Group) -> None:
    """Attach the ``quotient`` command to the ``cgtalg`` group."""

    @cli.command("quotient")
    @click.argument("game")
    @click.option("--max-heap", "max_heap", type=COUNT, default=None,
                  help="compute Q_n for heaps <= N (default: until the periodicity theorem "
                       "certifies the final quotient)")
    @click.option("--time", "seconds", type=TIME, default=None,
                  help="time budget (90, 30s, 10m, 1.5h, 1h30m): stop with the partial quotient reached")
    @click.option("--max-order", "max_order", type=COUNT, default=5000, show_default=True,
                  help="largest quotient order tried")
    @click.option("--fresh", is_flag=True, help="ignore the stored quotient: recompute and replace it")
    @click.option("--table", "table", is_flag=True,
                  help="include the multiplication table in --json output (always for order <= 64)")
    @click.option("--quiet", is_flag=True, help="no progress lines")
    @no_store_option
    @json_option
    @click.pass_context
    def quotient_cmd(ctx, game, max_heap, seconds, max_order, fresh, table, quiet, no_store, as_json):
        """Misère quotient of GAME: order, P-portion, presentation and Φ."""
        from cgtalg.misere.quotient import misere_quotient
        from cgtalg.rulesets.heap_games import parse_heap_ruleset

        r = parse_heap_ruleset(game)       # the code (or ruleset name) as a ruleset object
        store = cli_store(ctx, not no_store)
        progress: list[dict] = []
        t0 = time.perf_counter()

        def report(info: dict) -> None:
            row = {k: (round(v, 3) if isinstance(v, float) else v) for k, v in info.items()}
            progress.append(row)
            if as_json or quiet:
                return
            if info["changed"] or info["heap"] == max_heap:
                click.echo(f"heap {info['heap']:>4}: |Q| = {info['order']:>5}, |P| = {info['p_count']:>4}"
                           f"   ({time.perf_counter() - t0:.1f} s)")

        q = misere_quotient(r, max_heap, max_order=max_order, max_seconds=seconds, store=store,
                            partial=True, resume=not fresh, callback=report, progress=False)
        emit(_result(q, table or q.order <= 64, progress), as_json, lambda: quotient_text(q))
