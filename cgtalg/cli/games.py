"""``cgtalg game`` and ``cgtalg equiv``: properties of forms and equivalence proofs.

Both are bounded: ``--time`` and the global ``--memory`` make a :class:`cgtalg.budget.Deadline`
that a watchdog checks ten times a second while the game text is read and the properties are
computed (:func:`bounded`), so a form too large for the budget ends in
:class:`~cgtalg.errors.ComputationLimitError` naming the limit and how to raise it; on a
terminal a bar on stderr shows which step is running. A form's literal text can be
exponentially longer than its DAG (``grundy(40)`` prints in 2.9·10¹¹ characters), so the
printed and JSON texts are cut or given as the DAG (:func:`game_json`), never written in full.
"""

from __future__ import annotations

import contextlib
import sys
from typing import Any, Iterator

import click

from cgtalg.cli.common import check_output_path, cli_store, emit, json_option, no_store_option, time_option

__all__ = ["register", "bounded", "game_json", "GAME_TEXT_LIMIT", "clip_text"]

#: the longest literal text of a form that ``--json`` writes out; longer forms are given as
#: their DAG (:func:`cgtalg.core.notation.game_to_json`)
GAME_TEXT_LIMIT = 4096


@contextlib.contextmanager
def bounded(max_seconds: float | None, what: str) -> Iterator[Any]:
    """Run the block under a :class:`cgtalg.budget.Deadline` of ``max_seconds`` of CPU
    (``None``: no time limit) and the memory ceiling (the global ``--memory``), entered (``with
    deadline:``) so that every deadline checked inside stops with it, naming ``what``. A phase
    that checks no deadline at all is stopped by the command's own backstop, the ``SIGPROF``
    watch of :func:`cgtalg.cli.common.command_budget` that every command runs under (one
    watcher per process, counting CPU). Ctrl-C is left alone. Yields the deadline."""
    from cgtalg.budget import Deadline

    with Deadline(max_seconds) as deadline:
        yield deadline


def game_json(g: Any) -> Any:
    """A form for JSON: its literal text when at most :data:`GAME_TEXT_LIMIT` characters, else
    ``{"dag": ...}`` (:func:`cgtalg.core.notation.game_to_json`, read back by
    ``game_from_json``)."""
    from cgtalg.core.notation import game_to_json

    return game_to_json(g, max_text=GAME_TEXT_LIMIT)


def _text_fits(g: Any) -> bool:
    from cgtalg.core.notation import text_lengths

    return text_lengths(g)[g.id] <= GAME_TEXT_LIMIT


def _report_json(report: Any) -> dict:
    """``report.to_json()``, with a form whose literal text is too long given as its DAG."""
    if _text_fits(report.game):
        return report.to_json()
    # GameReport.to_json writes the game's full text (hours for grundy(40)): the same fields,
    # with the game as its DAG
    values = dict(report.values)
    if report.canonical_cut:
        from cgtalg.core.notation import game_to_json
        from cgtalg.misere.canonical import misere_canonical_game

        dag = game_to_json(misere_canonical_game(report.game), max_text=0)
        values["misere_canonical"] = {"text": values["misere_canonical"], "truncated": True,
                                      "length": report.canonical_length(),
                                      "dag": dag["dag"] if isinstance(dag, dict) else dag}
    return {"game": game_json(report.game), **values, "from_store": sorted(report.from_store)}


def _equivalence_json(report: Any) -> dict:
    """``report.to_json()``, with forms whose literal text is too long given as their DAG."""
    if _text_fits(report.g) and _text_fits(report.h):
        return report.to_json()
    from dataclasses import fields

    out = {f.name: getattr(report, f.name) for f in fields(report) if f.name not in ("g", "h")}
    return {"g": game_json(report.g), "h": game_json(report.h), **out}


def _steps(names: tuple[str, ...], label: str) -> Any:
    """A bar of the steps of a command on stderr (on a terminal only), or None."""
    if not sys.stderr.isatty():
        return None
    from tqdm.auto import tqdm

    return tqdm(total=len(names), desc=label, unit=" steps", leave=False)


def _describe(g: Any, store: Any, show: bool) -> Any:
    """:func:`cgtalg.report.describe`, one property at a time under a bar of steps."""
    from cgtalg.report import PROPERTIES, GameReport, describe

    bar = _steps(PROPERTIES, "game") if show else None
    if bar is None:
        return describe(g, store=store)
    values: dict[str, Any] = {}
    from_store: set[str] = set()
    try:
        for name in PROPERTIES:
            bar.set_postfix_str(name.replace("_", " "))
            r = describe(g, store=store, properties=(name,))
            values.update(r.values)
            from_store |= r.from_store
            bar.update()
    finally:
        bar.close()
    return GameReport(g, values, from_store)


def _read(text: str, show: bool, normal_play: bool = False) -> Any:
    """Game text read into a form, with a note on stderr (on a terminal) while it is built: the
    literal game the text describes, or with ``normal_play=True`` a form of its normal-play
    value (number translation; never for a misère question)."""
    from cgtalg.core.loopy_notation import looks_loopy
    from cgtalg.core.notation import parse

    if looks_loopy(text):  # on, dud, a:{0|a}, pass...: a loopy graph (or the short game it is)
        from cgtalg.ops.kinds import read

        return read(text, normal_play=normal_play)
    if show and sys.stderr.isatty() and "(" in text:
        click.echo("reading the game text (building the forms of ruleset positions)...", err=True)
    return parse(text, normal_play=normal_play)


def _read_both(text: str, show: bool) -> tuple[Any, Any, str | None]:
    """``(literal form, normal-play form, why the literal form is missing)``: the literal game
    the text describes, for the misère facts and the drawing (None when it is refused past
    :data:`cgtalg.normal.notation.SUM_LIMIT`, with the reason), and a form of the same
    normal-play value for the normal-play facts (read with number translation)."""
    from cgtalg.core.partizan import PartizanGame
    from cgtalg.core.partizan_text import looks_partizan
    from cgtalg.errors import ComputationLimitError

    try:
        g = _read(text, show)
    except ComputationLimitError as exc:
        if not looks_partizan(text):
            raise
        value = _read(text, False, normal_play=True)  # raises when the value is too large too
        return None, value, str(exc)
    if isinstance(g, PartizanGame):
        return g, _read(text, False, normal_play=True), None
    return g, g, None


#: game text may start with a minus sign ("-1 + {1|0}"): not an option
_GAME_TEXT = {"ignore_unknown_options": True}


@click.command("game", context_settings=_GAME_TEXT)
@click.argument("text")
@click.option("--misere", is_flag=True, help="Lead with misère play (both are always shown).")
@no_store_option
@click.option("--draw", type=click.Path(dir_okay=False), default=None, help="Draw the game DAG to a PNG file.")
@time_option(help="Give up (a clear error) after this much CPU time: 90, 90s, 10m, 2h (the memory "
                  "ceiling, --memory, always applies).")
@json_option
@click.pass_context
def game_command(ctx: click.Context, text: str, misere: bool, no_store: bool, draw: str | None,
                 max_seconds: float | None, as_json: bool) -> None:
    """Outcome and values of the game TEXT. Impartial text ("{*2}", "*2+*3", "*[2#]"): Grundy
    value, misère Grundy value, misère canonical form and winning moves. Partizan text in
    CGSuite's notation ("{2|-1}", "^*", "-3/2", "{1|0}+*"; text starting with a minus needs no
    `--`): canonical form, outcome, stops, temperature, thermograph and misère forms."""
    if draw:
        check_output_path(draw, "--draw")
    with bounded(max_seconds, f"cgtalg game {clip_text(text)}"):
        _game(ctx, text, misere, no_store, draw, as_json)


#: ``cgtalg game`` computes the misère simplest form of partizan text with at most this many
#: subpositions (the comparisons grow about quadratically: ~1 s at 700 on one core); larger
#: forms name the library call instead.
SIMPLEST_FORM_MAX_POSITIONS = 800


def _misere_simplest(g: Any) -> dict:
    """The misère simplest form of the partizan form ``g`` among all partizan games
    (:func:`cgtalg.misere.partizan_simplest.misere_simplest_form`), for ``cgtalg game``;
    None, with a note, beyond :data:`SIMPLEST_FORM_MAX_POSITIONS` subpositions."""
    from cgtalg.normal.notation import format_partizan
    from cgtalg.misere.partizan_simplest import misere_simplest_form

    from cgtalg.errors import ComputationLimitError

    try:
        n = len(g.subpositions())
    except ComputationLimitError as exc:  # a number too large for a tree (cgtalg.core.partizan_atoms)
        return {"misere_simplest_form": None, "misere_simplest_note": f"not computed: {exc}"}
    if n > SIMPLEST_FORM_MAX_POSITIONS:
        return {"misere_simplest_form": None,
                "misere_simplest_note": f"not computed: {n:,} subpositions (more than "
                f"{SIMPLEST_FORM_MAX_POSITIONS}); cgtalg.canonical_form(g, misere=True, universe='all')"}
    return {"misere_simplest_form": format_partizan(misere_simplest_form(g))}


def clip_text(text: str, limit: int = 60) -> str:
    """A user's input cut to about ``limit`` characters for a message (its length said)."""
    return text if len(text) <= limit else f"{text[: limit - 3]}... ({len(text):,} characters)"


def _game(ctx: click.Context, text: str, misere: bool, no_store: bool, draw: str | None,
          as_json: bool) -> None:
    from cgtalg.core.notation import format_game

    literal, value, missing = _read_both(text, not as_json)
    g = literal if literal is not None else value
    from cgtalg.core.loopy import LoopyGame
    from cgtalg.core.partizan import PartizanGame

    if isinstance(g, LoopyGame):
        raise click.UsageError(f"{clip_text(text, 40)} is a loopy game: `cgtalg loopy {clip_text(text, 40)}` "
                               "gives its outcome (with draws), whether it is a stopper, its sides, and "
                               "comparisons; `cgtalg equiv G H` compares loopy games too")

    if isinstance(g, PartizanGame):  # partizan text such as "{1|0}" or "^*"
        from cgtalg.cli.partizan import format_report, partizan_report
        from cgtalg.normal.notation import format_partizan
        from cgtalg.misere.partizan_outcome import misere_outcome

        # normal-play facts from the value; misère facts from the literal game only (number
        # translation and the other normal-play simplifications change misère outcomes)
        if literal is None:
            presult = {"input": text, **partizan_report(value, misere_outcome="?"),
                       "misere_outcome": None, "misere_simplest_form": None,
                       "misere_simplest_note": f"not computed: {missing}"}
        else:
            from cgtalg.errors import ComputationLimitError

            try:
                mis = misere_outcome(literal)
            except ComputationLimitError:  # a literal sum holding a number too large for a tree
                mis = None
            presult = {"input": text, **partizan_report(value, misere_outcome=mis or "?"),
                       "game": format_partizan(literal), **_misere_simplest(literal)}
            if mis is None:
                presult["misere_outcome"] = None
        if draw:
            if literal is None:  # the drawing is of the game itself, with its outcomes
                raise click.UsageError(f"--draw draws the literal game, which is refused: {missing}")
            from cgtalg.viz.game_tree import draw_game_dag

            draw_game_dag(g.to_networkx(), draw, misere=misere)
            presult["drawing"] = draw
        emit(presult, as_json, lambda: f"{'input':<16}{text}\n" + format_report(presult)
             + f"\n{'misère simplest' if literal is not None else 'misère play':<16}"
             + (f"{presult['misere_simplest_form']} (among all games)"
                if presult["misere_simplest_form"] is not None else presult["misere_simplest_note"])
             + (f"\n(drawing written to {draw})" if draw else ""))
        return
    store = cli_store(ctx, not no_store)
    report = _describe(g, store, not as_json)
    if as_json:
        result = {"input": text, **_report_json(report)}
    else:  # the human text cuts the form (format_game(..., max_chars)); never the full text
        result = {"input": text, "game": format_game(g, max_chars=len(text.strip()) + 4)}
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


@click.command("equiv", context_settings=_GAME_TEXT)
@click.argument("g_text", metavar="G")
@click.argument("h_text", metavar="H")
@click.option("--misere/--normal", default=False,
              help="Misère play (a player unable to move wins); default normal play.")
@click.option("--universe", type=click.Choice(["impartial", "dicot", "dead-ending", "all"]),
              default=None, help="The misère universe the games are compared in (default: "
              "impartial when both games are impartial, else all games).")
@no_store_option
@time_option(help="Give up (a clear error) after this much CPU time: 90, 90s, 10m, 2h (the memory "
                  "ceiling, --memory, always applies).")
@json_option
@click.pass_context
def equiv_command(ctx: click.Context, g_text: str, h_text: str, misere: bool, universe: str | None,
                  no_store: bool, max_seconds: float | None, as_json: bool) -> None:
    """Compare G and H: equal, less, greater or confused, in normal play or in misère play
    modulo a universe, with a proof that is re-checked independently.

    Impartial games: Spindler's Theorem 1 (Siegel CGT V.3.5-3.6) witnesses when they are
    equivalent, a distinguishing game T when they are not (normal play: Grundy labels).
    Partizan games: the order in normal play; in misère play (dicot, dead-ending or general
    universe) the Maintenance-and-Proviso certificates of G ≥ H and H ≥ G, re-checked by play."""
    with bounded(max_seconds, f"cgtalg equiv {clip_text(g_text, 40)} {clip_text(h_text, 40)}"):
        checked = _equiv(ctx, g_text, h_text, misere, universe, no_store, as_json)
    if not checked:
        raise SystemExit(1)


def _equiv(ctx: click.Context, g_text: str, h_text: str, misere: bool, universe: str | None,
           no_store: bool, as_json: bool) -> bool:
    from cgtalg.core.notation import format_game
    from cgtalg.ops import compare, kind_of
    from cgtalg.ops.kinds import check_universe

    # misère play compares the literal games the texts describe; normal play their values
    g, h = _read(g_text, not as_json, not misere), _read(h_text, False, not misere)
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
        if as_json:
            body = _equivalence_json(report)
        else:  # the human text shows the inputs; never the forms' full texts
            body = {"g": format_game(g, max_chars=len(g_text.strip()) + 4),
                    "h": format_game(h, max_chars=len(h_text.strip()) + 4)}
        payload = {"input": {"g": g_text, "h": h_text}, **body,
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
    return checked


def register(cli: click.Group) -> None:
    """Attach ``game`` and ``equiv`` to the main command group."""
    cli.add_command(game_command)
    cli.add_command(equiv_command)
