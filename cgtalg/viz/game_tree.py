"""Drawings of game DAGs (matplotlib, Agg backend): outcomes as colours, winning moves as arrows.

:func:`draw_game_dag` draws any of

- a DAG from :func:`cgtalg.rulesets.solver.solved_dag` (outcomes and winning moves marked),
- a DAG from :func:`cgtalg.rulesets.solver.build_dag` or :meth:`cgtalg.Game.to_networkx`
  (outcomes computed here: forms through :func:`cgtalg.outcome`, other impartial graphs by
  the normal/misère recursion; graphs of partizan rulesets or rulesets with their own end
  rule need :func:`~cgtalg.rulesets.solver.solved_dag`, else they are drawn grey),
- a :class:`cgtalg.rulesets.solver.Solution` (its position's solved DAG),
- a :class:`cgtalg.Game`.

Nodes sit in rows by their birthday (the length of the longest play from them; for bean
games, the number of beans), coloured by outcome class; winning moves are black arrows,
other moves thin grey lines (or left out).

:func:`draw_parity_figure` redraws the condensed game tree of Guy's parity subtraction game
(Figure 1 of R. K. Guy, "A Parity Subtraction Game"; seed 003): one node per class
``b(f, s)``, P/N marked, and an arrow for each winning move (the only moves the figure
shows). Everything is recomputed by the solver, nothing is copied from the figure.
"""

from __future__ import annotations

from typing import Any, Hashable

import networkx as nx

from cgtalg.errors import RulesetError

__all__ = ["draw_game_dag", "draw_parity_figure", "parity_figure_graph", "OUTCOME_COLOURS"]

#: fill colours of the outcome classes
OUTCOME_COLOURS = {
    "P": "#f4a6a6",  # previous player wins: red
    "N": "#a8dba8",  # next player wins: green
    "L": "#9ec5fe",  # Left wins: blue
    "R": "#ffd59e",  # Right wins: orange
    "?": "#e0e0e0",
}
_MOVER_COLOURS = {"L": "#1f4e9c", "R": "#c45a00", "LR": "black"}
_OUTCOME_NAMES = {
    "P": "P: second player wins",
    "N": "N: first player wins",
    "L": "L: Left wins",
    "R": "R: Right wins",
}


def _agg():
    import matplotlib

    if matplotlib.get_backend().lower() != "agg":
        try:
            matplotlib.use("Agg", force=True)
        except Exception:  # pragma: no cover - backend already fixed by the user
            pass
    import matplotlib.pyplot as plt

    return plt


def _heights(graph: nx.DiGraph) -> dict[Hashable, int]:
    h: dict[Hashable, int] = {}
    for node in reversed(list(nx.topological_sort(graph))):
        h[node] = 1 + max((h[c] for c in graph.successors(node)), default=-1)
    return h


def _annotate(graph: nx.DiGraph, misere: bool) -> nx.DiGraph:
    """Copy of ``graph`` with ``outcome`` on nodes and ``winning`` on edges (when computable)."""
    g = graph.copy()
    if all("outcome" in d for _, d in g.nodes(data=True)):
        for u, v, d in g.edges(data=True):
            d.setdefault("winning", g.nodes[v]["outcome"] == "P")
        return g
    if g.number_of_nodes() and all("game" in d for _, d in g.nodes(data=True)):
        from cgtalg import outcome

        for _, d in g.nodes(data=True):
            d["outcome"] = outcome(d["game"], misere=misere)
    elif not g.graph.get("partizan", False) and not g.graph.get("end_rule", False):
        # impartial move graph: a node is P iff every option is N (terminal: P in normal
        # play, N in misère play)
        for node in reversed(list(nx.topological_sort(g))):
            kids = list(g.successors(node))
            if not kids:
                g.nodes[node]["outcome"] = "N" if misere else "P"
            else:
                g.nodes[node]["outcome"] = "N" if any(g.nodes[k]["outcome"] == "P" for k in kids) else "P"
    else:
        for _, d in g.nodes(data=True):
            d["outcome"] = "?"
    for u, v, d in g.edges(data=True):
        d["winning"] = g.nodes[v]["outcome"] == "P"
    return g


def _layered_positions(graph: nx.DiGraph, layer: str) -> dict[Hashable, tuple[float, float]]:
    """Rows by ``layer`` (top = largest), order within rows by a few barycentre sweeps."""
    if all(layer in d for _, d in graph.nodes(data=True)):
        level = {n: d[layer] for n, d in graph.nodes(data=True)}
    else:
        level = _heights(graph)
    rows: dict[Any, list] = {}
    for n, lv in level.items():
        rows.setdefault(lv, []).append(n)
    keys = sorted(rows, reverse=True)
    for k in keys:
        rows[k].sort(key=lambda n: str(graph.nodes[n].get("label", n)))
    x: dict[Hashable, float] = {}

    def place() -> None:
        for k in keys:
            row = rows[k]
            w = len(row)
            for i, n in enumerate(row):
                x[n] = i - (w - 1) / 2

    place()
    for _ in range(4):
        for k in keys[1:]:  # downward: order by parents' mean x
            rows[k].sort(key=lambda n: _mean([x[p] for p in graph.predecessors(n)], x[n]))
        place()
        for k in reversed(keys[:-1]):  # upward: order by children's mean x
            rows[k].sort(key=lambda n: _mean([x[c] for c in graph.successors(n)], x[n]))
        place()
    return {n: (x[n], float(level[n])) for n in graph.nodes}


def _mean(values: list[float], default: float) -> float:
    return sum(values) / len(values) if values else default


def _collisions(p0: tuple[float, float], p1: tuple[float, float], rad: float, boxes: list) -> int:
    """How many node boxes the arc3 curve ``p0 -> p1`` with ``rad`` passes through (sampled)."""
    (x0, y0), (x1, y1) = p0, p1
    cx, cy = (x0 + x1) / 2 + rad * (y1 - y0), (y0 + y1) / 2 - rad * (x1 - x0)
    hit = 0
    for bx, by, hw, hh in boxes:
        for i in range(1, 24):
            t = i / 24
            a, b, c = (1 - t) ** 2, 2 * t * (1 - t), t * t
            px = a * x0 + b * cx + c * x1
            py = a * y0 + b * cy + c * y1
            if abs(px - bx) < hw and abs(py - by) < hh:
                hit += 1
                break
    return hit


def _best_rad(p0: tuple[float, float], p1: tuple[float, float], boxes: list) -> float:
    """The bend (matplotlib arc3 ``rad``) of least collisions, preferring straight lines."""
    if not boxes:
        return 0.0
    best, best_hits = 0.0, None
    for rad in (0.0, 0.15, -0.15, 0.3, -0.3, 0.45, -0.45):
        hits = _collisions(p0, p1, rad, boxes)
        if hits == 0:
            return rad
        if best_hits is None or hits < best_hits:
            best, best_hits = rad, hits
    return best


def _render(
    graph: nx.DiGraph,
    pos: dict[Hashable, tuple[float, float]],
    path: str,
    *,
    title: str | None,
    show_losing_moves: bool,
    curved: bool = False,
    figsize: tuple[float, float] | None = None,
    dpi: int = 150,
    fontsize: float | None = None,
    row_label: str | None = None,
    legend_below: bool = False,
    note: str | None = None,
) -> str:
    plt = _agg()
    from matplotlib.patches import Patch
    from matplotlib.lines import Line2D

    xs = [p[0] for p in pos.values()] or [0.0]
    ys = [p[1] for p in pos.values()] or [0.0]
    width = max(xs) - min(xs)
    height = max(ys) - min(ys)
    if figsize is None:
        figsize = (min(24.0, max(6.0, 1.6 * (width + 2))), min(30.0, max(4.5, 1.0 * (height + 2))))
    fig, ax = plt.subplots(figsize=figsize)
    fs = fontsize or (10 if graph.number_of_nodes() <= 40 else 8 if graph.number_of_nodes() <= 120 else 6)
    # edges first, under the nodes; an edge that would cross a node is bent (arc3) around it
    x_lo, y_lo = min(xs) - 0.8, min(ys) - 0.7
    sx = figsize[0] * 0.75 / max(width + 1.6, 1e-9)  # inches per x unit (approximate axes share)
    sy = figsize[1] * 0.8 / max(height + 1.4, 1e-9)
    boxes = {
        n: (pos[n][0] * sx, pos[n][1] * sy,
            (len(str(graph.nodes[n].get("label", n))) * 0.62 + 0.9) * fs / 72 / 2, fs * 1.9 / 72 / 2)
        for n in graph.nodes
    }
    movers_seen: set[str] = set()
    by_row: dict[float, list] = {}
    for n in graph.nodes:
        by_row.setdefault(pos[n][1], []).append(n)
    for u, v, d in graph.edges(data=True):
        win = bool(d.get("winning"))
        if not win and not show_losing_moves:
            continue
        (x0, y0), (x1, y1) = pos[u], pos[v]
        rad = 0.0
        if abs(y0 - y1) > 1 or curved:
            lo, hi = min(y0, y1), max(y0, y1)
            near = [boxes[n] for y, ns in by_row.items() if lo <= y <= hi for n in ns if n != u and n != v]
            rad = _best_rad((x0 * sx, y0 * sy), (x1 * sx, y1 * sy), near)
        colour = _MOVER_COLOURS.get(d.get("winning_for", "LR") or "LR", "black") if win else "#b0b0b0"
        movers_seen.add(d.get("winning_for", "LR") or "LR") if win else None
        style = dict(
            arrowstyle="-|>" if win else "-",
            color=colour,
            lw=1.6 if win else 0.7,
            shrinkA=fs * 1.6,
            shrinkB=fs * 1.6,
            mutation_scale=12,
            connectionstyle=f"arc3,rad={rad}",
            zorder=2 if win else 1,
        )
        ax.annotate("", xy=(x1, y1), xytext=(x0, y0), arrowprops=style)
    for n, (x, y) in pos.items():
        d = graph.nodes[n]
        label = str(d.get("label", n))
        colour = OUTCOME_COLOURS.get(d.get("outcome", "?"), OUTCOME_COLOURS["?"])
        ax.text(
            x, y, label, ha="center", va="center", fontsize=fs, zorder=3,
            bbox=dict(boxstyle="round,pad=0.35", fc=colour, ec="#444444", lw=0.8),
        )
    ax.set_xlim(min(xs) - 0.8, max(xs) + 0.8)
    ax.set_ylim(min(ys) - 0.7, max(ys) + 0.7)
    ax.set_xticks([])
    if row_label:
        ax.set_yticks(sorted(set(ys)))
        ax.set_yticklabels([f"{int(y)}" for y in sorted(set(ys))], fontsize=fs)
        ax.set_ylabel(row_label, fontsize=fs + 1)
    else:
        ax.set_yticks([])
    for side in ("top", "right", "bottom"):
        ax.spines[side].set_visible(False)
    if not row_label:
        ax.spines["left"].set_visible(False)
    present = [o for o in ("P", "N", "L", "R") if any(d.get("outcome") == o for _, d in graph.nodes(data=True))]
    handles = [Patch(fc=OUTCOME_COLOURS[o], ec="#444444", label=_OUTCOME_NAMES[o]) for o in present]
    if movers_seen & {"L", "R"}:
        for m, text in (("L", "Left's winning move"), ("R", "Right's winning move"),
                        ("LR", "winning move for either player")):
            if m in movers_seen:
                handles.append(Line2D([0], [0], color=_MOVER_COLOURS[m], lw=1.6, marker=">", markevery=[1], label=text))
    else:
        handles.append(Line2D([0], [0], color="black", lw=1.6, marker=">", markevery=[1], label="winning move"))
    if show_losing_moves:
        handles.append(Line2D([0], [0], color="#b0b0b0", lw=0.7, label="other move"))
    if legend_below:
        ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=len(handles),
                  fontsize=fs, frameon=False)
    else:
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=fs, frameon=False)
    if title:
        ax.set_title(title, fontsize=fs + 1)
    if note:
        fig.text(0.5, 0.005, note, ha="center", va="bottom", fontsize=fs - 1, color="#333333")
    fig.tight_layout(rect=(0, 0.03 if note else 0, 1, 1))
    fig.savefig(path, dpi=dpi)
    plt.close(fig)
    return str(path)


def draw_game_dag(
    graph_or_solution: Any,
    path: str,
    *,
    misere: bool | None = None,
    ruleset: Any = None,
    show_losing_moves: bool = True,
    layer: str = "birthday",
    title: str | None = None,
    max_nodes: int = 300,
    dpi: int = 150,
) -> str:
    """Draw a game DAG to a PNG file: outcome colours, winning moves as arrows, rows by birthday.

    Parameters
    ----------
    graph_or_solution
        A networkx DAG (from :func:`~cgtalg.rulesets.solver.solved_dag`,
        :func:`~cgtalg.rulesets.solver.build_dag` or :meth:`cgtalg.Game.to_networkx`), a
        :class:`~cgtalg.rulesets.solver.Solution`, or a :class:`cgtalg.Game`.
    path : str
        The PNG file to write.
    misere : bool, optional
        Play rule for outcomes computed here (default: the graph's or solution's, else normal).
    ruleset : optional
        The ruleset of a Solution (default: looked up by name in the registry).
    show_losing_moves : bool
        Draw the non-winning moves as thin grey lines (default) or leave them out.
    layer : str
        Node attribute giving the row (default ``"birthday"``; computed if missing).
    title : str, optional
        Figure title.
    max_nodes : int
        Refuse larger graphs (a drawing of thousands of nodes is unreadable).
    dpi : int
        Resolution.

    Returns
    -------
    str
        ``path``.

    Raises
    ------
    RulesetError
        If the graph has more than ``max_nodes`` nodes, or the input is not a DAG, a
        Solution or a Game.
    LoopyGameError
        If the graph has a cycle.

    Examples
    --------
    >>> import cgtalg as cg, tempfile, os
    >>> out = os.path.join(tempfile.mkdtemp(), "g.png")
    >>> draw_game_dag(cg.parse("{*2, *}"), out) == out and os.path.getsize(out) > 0
    True
    """
    from cgtalg.core.dag import check_acyclic
    from cgtalg.core.game import Game
    from cgtalg.rulesets.solution import Solution
    from cgtalg.rulesets.solver import solved_dag

    obj = graph_or_solution
    if isinstance(obj, Game):
        obj = obj.to_networkx()
    if isinstance(obj, Solution):
        if ruleset is None:
            from cgtalg.rulesets.registry import get_ruleset

            ruleset = get_ruleset(obj.ruleset)
        m = obj.misere if misere is None else misere
        graph = solved_dag(ruleset, obj.position, m)
        title = title or f"{obj.ruleset}: {obj.position_text} ({obj.outcome})"
    elif isinstance(obj, nx.DiGraph):
        graph = obj
    else:
        raise RulesetError(
            f"draw_game_dag needs a networkx DiGraph, a Solution or a Game, got {type(obj).__name__}"
        )
    if graph.number_of_nodes() > max_nodes:
        raise RulesetError(
            f"the DAG has {graph.number_of_nodes()} nodes, more than max_nodes={max_nodes}; "
            "a drawing that large is unreadable (pass a larger max_nodes to force it)"
        )
    check_acyclic(graph)
    m = bool(graph.graph.get("misere", False)) if misere is None else bool(misere)
    graph = _annotate(graph, m)
    pos = _layered_positions(graph, layer)
    return _render(graph, pos, path, title=title, show_losing_moves=show_losing_moves, dpi=dpi,
                   row_label=layer if layer else None)


def parity_figure_graph(max_beans: int = 11, subtraction=(1, 2, 3)) -> nx.DiGraph:
    """The condensed game tree of Guy's parity game: classes ``b(f, s)`` for ``b <= max_beans``.

    Nodes are :class:`~cgtalg.rulesets.parity.RelativeParityGame` positions ``(b, f, s)``
    (every one with ``b + f + s`` odd), with ``outcome`` P/N and ``label`` like ``9(e,e)``;
    edges are all moves, ``winning`` marking the winning ones (the arrows of Guy's Figure 1).

    Raises
    ------
    RulesetError
        If ``max_beans`` is not a non-negative int.
    """
    from cgtalg.rulesets.parity import RelativeParityGame
    from cgtalg.rulesets.solver import solved_dag

    if isinstance(max_beans, bool) or not isinstance(max_beans, int) or max_beans < 0:
        raise RulesetError(f"max_beans must be a non-negative int, got {max_beans!r}")
    rel = RelativeParityGame(subtraction)
    graph = nx.DiGraph()
    for b in (max_beans, max_beans - 1):
        for f in (0, 1):
            for s in (0, 1):
                if b >= 0 and (b + f + s) % 2:
                    graph = nx.compose(graph, solved_dag(rel, (b, f, s)))
    graph.graph.update(ruleset=rel.name, partizan=False, misere=False)
    return graph


def draw_parity_figure(
    path: str,
    max_beans: int = 11,
    *,
    subtraction=(1, 2, 3),
    show_losing_moves: bool = False,
    dpi: int = 150,
) -> str:
    """Redraw Guy's Figure 1: the condensed game tree of the parity subtraction game.

    One node per class ``b(f, s)`` (``b = 0 .. max_beans``, ``f``/``s`` = e/d the parities of
    the holdings of the next and the previous player), P-positions red and N-positions
    green, and an arrow for every winning move (the figure's arrows: "the arrows in
    Figure 1 are the only winning moves"). Rows are the numbers of beans; odd rows use the
    two left columns ``(e,e)``, ``(d,d)`` and even rows the two right columns ``(d,e)``,
    ``(e,d)``, so that no arrow passes through a node.

    Parameters
    ----------
    path : str
        The PNG file to write.
    max_beans : int
        The top row (Guy draws 0 .. 11).
    subtraction : iterable of int
        The subtraction set (Guy's game: 1, 2, 3).
    show_losing_moves : bool
        Also draw the other moves, thin and grey.
    dpi : int
        Resolution.

    Returns
    -------
    str
        ``path``.

    Examples
    --------
    >>> import tempfile, os
    >>> out = os.path.join(tempfile.mkdtemp(), "fig1.png")
    >>> draw_parity_figure(out, 11) == out
    True
    """
    graph = parity_figure_graph(max_beans, subtraction)
    column = {(0, 0): 0.0, (1, 1): 1.0, (1, 0): 2.2, (0, 1): 3.2}
    pos = {n: (column[(n[1], n[2])], float(n[0])) for n in graph.nodes}
    for n, d in graph.nodes(data=True):
        d["label"] = f"{n[0]}({'ed'[n[1]]},{'ed'[n[2]]})"
    sub = ",".join(map(str, tuple(subtraction)))
    title = (
        f"Guy's parity subtraction game (take {{{sub}}}): condensed game tree\n"
        "b(f,s): b beans left; f, s = parity (e even, d odd) of the beans\n"
        "held by the next and the previous player"
    )
    note = "At 0(f,s) the game is over: the player holding an even number of beans wins."
    rows = max_beans + 1
    figsize = (7.5, max(4.5, 0.62 * rows + 2.2))
    return _render(graph, pos, path, title=title, show_losing_moves=show_losing_moves,
                   figsize=figsize, dpi=dpi, fontsize=10, row_label="beans left (b)",
                   legend_below=True, note=note)
