"""CLI commands for heap games: ``grundy``, ``period``, ``cousin``, ``outcome``.

    cgtalg grundy 0.77 -n 100
    cgtalg grundy 0.6 -n 1e6 --plot officers.png
    cgtalg period 0.16
    cgtalg cousin 0.0423
    cgtalg outcome 0.77 5 9 1000000

A game is any heap-game spec (one syntax for every command, as ``solve`` reads it): an
octal/hexadecimal code (``0.77``, ``4.07``, ``0x0.B``, ``0.[3]``), a subtraction game
``S(1,3,4)`` / ``subtraction:1,3,4``, an all-but subtraction game ``allbut(1,2)``, or a name:
``kayles``, ``dawson``, ``officers``, ``grundy`` (Grundy's game). Counts and heap sizes are
exact integers of any size (``1e6``, ``2^20``, ``10**12``; see
:func:`cgtalg.cli.common.parse_exact_int`). Grundy values are read from and written to the store (the global
``--store URL``, else ``$CGTALG_STORE``, else the default file), so long runs resume;
``--no-store`` computes without it.
"""

from __future__ import annotations

import time
from typing import Any

import click

from cgtalg.cli.common import (
    COUNT,
    HEAP,
    check_output_path,
    cli_store,
    emit,
    json_option,
    no_store_option,
    time_option,
)

__all__ = ["register", "heap_outcome"]


def _game(spec: str):
    from cgtalg.rulesets.heaps.games import parse_heap_ruleset

    return parse_heap_ruleset(spec)


def _fmt_values(vals, per_line: int = 24) -> str:
    lines = []
    for i in range(0, len(vals), per_line):
        chunk = " ".join(f"{int(v):>2d}" for v in vals[i : i + per_line])
        lines.append(f"{i:>8d}: {chunk}")
    return "\n".join(lines)


def register(cli: click.Group) -> None:
    """Attach the heap-game commands to the ``cgtalg`` group."""

    @cli.command("grundy")
    @click.argument("game")
    @click.option("-n", "n", type=COUNT, default=100, show_default=True, help="number of values G(0..n-1)")
    @click.option("--method", type=click.Choice(["auto", "naive", "sparse"]), default="auto", show_default=True)
    @click.option("--plot", "plot", type=click.Path(dir_okay=False), default=None,
                  help="write a PNG plot of the sequence (rare values marked)")
    @click.option("--show", type=COUNT, default=None,
                  help="values to print (default: all up to 600, else the first 120)")
    @click.option("--max-bytes", "max_bytes", type=COUNT, default=None,
                  help="memory budget of the computation in bytes, e.g. 16e9 (default 4 GiB); "
                       "larger runs are refused before anything is allocated")
    @time_option()
    @no_store_option
    @json_option
    @click.pass_context
    def grundy_cmd(ctx, game, n, method, plot, show, max_bytes, max_seconds, no_store, as_json):
        """Grundy values of single heaps of GAME (octal code, S(..), allbut(..), a name)."""
        g = _game(game)
        if plot:
            check_output_path(plot, "--plot")
        if not plot and max_bytes is None and method in ("auto", "naive"):
            from cgtalg.rulesets.heaps.small_grundy import small_ok

            if small_ok(g, n) and not getattr(g, "_engines", None):
                # a small question: plain Python, no numpy (issue 23, part 4)
                result, human = _small_grundy(g, n, method, show, cli_store(ctx, not no_store))
                emit(result, as_json, human)
                return
        if max_bytes is None:
            from cgtalg.rulesets.heaps.grundy_engine import DEFAULT_MAX_BYTES

            max_bytes = DEFAULT_MAX_BYTES
        need = g.grundy_memory_estimate(n)
        if need > max_bytes:
            from cgtalg.errors import ComputationLimitError

            from cgtalg.rulesets.heaps.grundy_engine import format_bytes
            from cgtalg.rulesets.protocol import short_count

            raise ComputationLimitError(
                f"{g.name}: computing {short_count(n)} Grundy values needs about {format_bytes(need)}, over the "
                f"memory budget of {format_bytes(max_bytes)}; "
                + (f"raise it with --max-bytes {need} (or more), or ask for fewer values" if need < 2**70
                   else "ask for fewer values")
            )
        store = cli_store(ctx, not no_store)
        t0 = time.perf_counter()
        G = g.grundy_sequence(n, method=method, store=store, progress=None if not as_json else False,
                              max_bytes=max_bytes, max_seconds=max_seconds)
        dt = time.perf_counter() - t0
        eng = g.engine(method)
        split = eng.sparse_split()
        if show is None:
            show = n if n <= 600 else 120
        result = {
            "game": g.name, "n": n, "method": eng.mode, "seconds": round(dt, 4),
            "max_value": int(G.max()) if n else None,
            "sparse_space": (split.describe() if split is not None else None),
            "rare_positions": (int(eng.nrare) if eng.mode == "sparse" else None),
            "values": [int(v) for v in G[:show]],
        }
        if plot:
            from cgtalg.viz.sequence_plot import plot_grundy_sequence

            plot_grundy_sequence(G, plot, title=f"{g.name}: G(n), n < {n}", split=split)
            result["plot"] = plot

        def human() -> str:
            out = [f"{g.name}: G(0..{n - 1})" + (f" (first {show} shown)" if show < n else "")]
            out.append(_fmt_values(result["values"]))
            rate = f", {n / dt:,.0f} values/s" if dt > 0 and n > 10000 else ""
            out.append(f"max value {result['max_value']}; method {eng.mode}{rate}")
            if result["sparse_space"]:
                out.append(f"sparse space: {result['sparse_space']} ({result['rare_positions']} rare heaps)")
            elif getattr(eng, "fallback_at", None):
                out.append(f"no sparse space: more than a fifth of the heaps were rare at n = {eng.fallback_at}, "
                           "so the naive kernel computed the rest")
            if plot:
                out.append(f"plot written to {plot}")
            return "\n".join(out)

        emit(result, as_json, human)

    def _small_grundy(g, n, method, show, store):
        """``(result, human)`` of ``grundy`` for a small ``n``, as the engine's path gives them
        (the engine's plain-Python mode, :mod:`cgtalg.rulesets.heaps.small_grundy`)."""
        from cgtalg.rulesets.heaps.grundy_engine import grundy_engine, grundy_sequence

        t0 = time.perf_counter()
        G = grundy_sequence(g, n, method, store, progress=False, backend="python")
        dt = time.perf_counter() - t0
        eng = grundy_engine(g, method, "python")
        mode = eng.mode
        split = eng.sparse_split() if n > 0 else None
        show = n if show is None else show
        result = {
            "game": g.name, "n": n, "method": mode, "seconds": round(dt, 4),
            "max_value": max(G) if n else None,
            "sparse_space": split.describe() if split is not None else None,
            "rare_positions": (split.rare if split is not None else 0) if mode == "sparse" else None,
            "values": G[:show],
        }

        def human() -> str:
            out = [f"{g.name}: G(0..{n - 1})" + (f" (first {show} shown)" if show < n else "")]
            out.append(_fmt_values(result["values"]))
            out.append(f"max value {result['max_value']}; method {mode}")
            if result["sparse_space"]:
                out.append(f"sparse space: {result['sparse_space']} ({result['rare_positions']} rare heaps)")
            return "\n".join(out)

        return result, human

    @cli.command("period")
    @click.argument("game")
    @click.option("--max-values", type=COUNT, default=None,
                  help="stop after this many values (default: extend until the period is certified, "
                       "within --time, default 60 s, and the memory budget)")
    @time_option()
    @no_store_option
    @json_option
    @click.pass_context
    def period_cmd(ctx, game, max_values, max_seconds, no_store, as_json):
        """Find and certify the period of GAME's Grundy sequence (Guy-Smith theorem)."""
        g = _game(game)
        t0 = time.perf_counter()
        res = g.periodicity(max_values=max_values, store=cli_store(ctx, not no_store),
                            progress=None if not as_json else False, max_seconds=max_seconds)
        result = res.to_json()
        result["seconds"] = round(time.perf_counter() - t0, 3)
        emit(result, as_json, lambda: str(res))

    @cli.command("cousin")
    @time_option(pass_value=False)
    @click.argument("code")
    @json_option
    def cousin_cmd(code, as_json):
        """First cousin and standard form of an octal CODE (seed 001's cousin rule)."""
        from cgtalg.errors import RulesetError
        from cgtalg.rulesets.heaps.octal import TakeAndBreak

        c = _game(code)  # a code or a name (kayles, dawson, officers)
        if not isinstance(c, TakeAndBreak):
            raise RulesetError(f"{code!r} is not an octal or hexadecimal code: cousins are defined for codes")
        chain = [c]
        while chain[-1].digit(1) % 2 == 0 and chain[-1].has_moves:
            chain.append(chain[-1].first_cousin())
        std, shift = c.standard_form()
        result = {
            "code": str(c),
            "first_cousin": str(chain[1]) if len(chain) > 1 else None,
            "standard_form": str(std),
            "shift": shift,
            "chain": [str(x) for x in chain],
        }

        def human() -> str:
            lines = [" -> ".join(result["chain"])]
            if result["first_cousin"] is None:
                lines.append(f"{c} is its own standard form (d1 is odd: a heap of 1 is not terminal)")
            else:
                lines.append(f"standard form {std}, shift {shift}: G_{c}(n) = G_{std}(n - {shift}) for n >= {shift}")
            return "\n".join(lines)

        emit(result, as_json, human)

    @cli.command("outcome")
    @click.argument("game")
    @click.argument("heaps", nargs=-1, required=True, type=HEAP)
    @click.option("--limit", type=COUNT, default=20, show_default=True, help="winning moves to print")
    @click.option("--misere", is_flag=True,
                  help="misère play: outcome and every winning move, from a known misère quotient "
                       "(`cgtalg quotient GAME`, stored) when it covers the heaps, else by search")
    @click.option("--max-states", "max_states", type=COUNT, default=None,
                  help="budget of the misère search (--misere without a quotient)")
    @time_option(help="Give up (a clear error) after this much CPU time of misère search (--misere "
                      "without a quotient): 90, 90s, 10m, 2h.")
    @no_store_option
    @json_option
    @click.pass_context
    def outcome_cmd(ctx, game, heaps, limit, misere, max_states, max_seconds, no_store, as_json):
        """Normal-play outcome and winning moves of a multi-heap position of GAME (misère play
        with --misere)."""
        if misere:
            result, human = misere_heap_outcome(_game(game), list(heaps), limit,
                                                cli_store(ctx, not no_store), max_states, max_seconds)
        else:
            result, human = heap_outcome(_game(game), list(heaps), limit)
        emit(result, as_json, human)


def misere_heap_outcome(g, heaps: list[int], limit: int = 20, store: Any = None,
                        max_states: int | None = None, max_seconds: float | None = None):
    """``(result dict, human text function)`` for the misère outcome and winning moves of
    ``heaps``: from a misère quotient of ``g`` known in this process or stored (re-verified
    when read) that covers the heaps, else by the exhaustive search of
    :mod:`cgtalg.rulesets.heaps.misere_play`."""
    from cgtalg.rulesets.heaps.play import stored_misere_answer

    t0 = time.perf_counter()
    hs = [int(h) for h in heaps]
    known = stored_misere_answer(g, hs, store)  # a small question asked before: read back
    rule = None
    if known is not None:
        outcome, moves = known
        how = "stored answer"
    else:
        from cgtalg.ops.largest_heap import rule_for_position

        rule = rule_for_position(g, hs, store)
    if known is None and rule is not None:      # a proved largest-heap rule answers any heaps
        from cgtalg.rulesets.heaps.position import HeapMove

        outcome, moves = rule.outcome(hs), rule.winning_moves(hs, HeapMove)
        how = "largest-heap rule, checked by the referee when read from the store"
    elif known is None:
        from cgtalg.quotients.play import quotient_for, rays_for

        st = quotient_for(g, [h for h in hs if h], store)
        ray = rays_for(g, [h for h in hs if h], store) if st is None else None
        kw: dict[str, Any] = {} if max_states is None else {"max_states": max_states}
        if max_seconds is not None:
            kw["max_seconds"] = max_seconds
        outcome = g.outcome(hs, misere=True, store=store, **kw)
        moves = g.winning_moves(hs, misere=True, store=store, **kw)
        how = "search"
        if st is not None:
            how = ("quotient (final)" if st.final else f"quotient Q_{st.top}") + f", order {st.pre.monoid.size}"
        elif ray is not None:
            how = (f"infinite quotient Q_{len(ray.row) - 1} (ray pretension: heaps {ray.u} and {ray.v} "
                   f"counted, the others in a monoid of order {ray.order_r})")
    count = sum(m.count for m in moves)
    from cgtalg.quotients.play import infinite_verdict

    infinite = infinite_verdict(g, store)
    if infinite is None and rule is not None:   # the rule was checked in full (R6 too) when read
        infinite = {"infinite_from": None, "by": "largest-heap rule"}
    result = {
        "game": g.name, "heaps": hs, "play": "misere", "outcome": outcome,
        "winning_moves": [m.to_json() for m in moves[: max(limit, 0)]],
        "winning_move_count": count, "method": how,
        "seconds": round(time.perf_counter() - t0, 4),
        "quotient_infinite_from": None if infinite is None else infinite["infinite_from"],
        "quotient_infinite": None if infinite is None else True,
    }

    def human() -> str:
        lines = [f"{g.name}: heaps {' '.join(map(str, hs))}; misère play ({how})"]
        if infinite is not None and infinite["infinite_from"] is None:
            lines.append(f"(the misère quotient of {g.name} is infinite, proved by the largest-heap rule that "
                         f"answers; every Q_n is finite; `cgtalg quotient {g.name} --json` has the certificate)")
        elif infinite is not None:
            lines.append(f"(the misère quotient of {g.name} is infinite: Q_n for every n >= "
                         f"{infinite['infinite_from']}, proved; `cgtalg quotient {g.name} --json` has the certificate)")
        if outcome == "P":
            lines.append("P: the second player (the previous player) wins; every move loses")
        else:
            lines.append(f"N: the player to move wins; {count:,} winning move(s):")
            lines += [f"  {m}" for m in moves[:limit]]
            if len(moves) > limit:
                lines.append(f"  ... and {len(moves) - limit} more entries (use --limit)")
        return "\n".join(lines)

    return result, human


def heap_outcome(g, heaps: list[int], limit: int = 20):
    """``(result dict, human text function)`` for the normal-play outcome and winning moves of
    the heaps ``heaps`` of the heap game ``g``, at any heap size (from the certified period);
    shared by ``cgtalg outcome`` and ``cgtalg solve`` on heap games."""
    values = [g.grundy_value(h) if h else 0 for h in heaps]
    total = 0
    for v in values:
        total ^= v
    moves = g.winning_moves(heaps) if total else []
    count = sum(m.count for m in moves)
    per = g._period
    result = {
        "game": g.name, "heaps": heaps, "values": values, "nim_sum": total,
        "outcome": "P" if total == 0 else "N",
        "winning_moves": [m.to_json() for m in moves[: max(limit, 0)]],
        "winning_move_count": count,
        "period": per.to_json() if per is not None else None,
    }

    def human() -> str:
        lines = [f"{g.name}: heaps {' '.join(map(str, heaps))}; values {' '.join(map(str, values))}; "
                 f"nim-sum {total}"]
        if total == 0:
            lines.append("P: the second player (the previous player) wins; every move loses")
        else:
            families = sum(1 for m in moves if m.count > 1)
            grouped = f", listed as {len(moves)} entries ({families} arithmetic families of splits)" if families else ""
            lines.append(f"N: the player to move wins; {count:,} winning move(s){grouped}:")
            lines += [f"  {m}" for m in moves[:limit]]
            if len(moves) > limit:
                lines.append(f"  ... and {len(moves) - limit} more entries (use --limit)")
        if per is not None and max(heaps) >= per.values_checked:
            lines.append(f"(large heaps answered from the certified period {per.period}, "
                         f"preperiod {per.preperiod})")
        return "\n".join(lines)

    return result, human
