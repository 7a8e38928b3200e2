"""Brute force for loopy games, written from the definitions independently of cgtalg's code.

A game is a pair ``(graph, start)`` with ``graph`` a dict ``{position: (left options, right
options)}``. Everything here is a naive fixed-point iteration over explicit dicts:

- outcomes (Winning Ways ch. 11; Siegel CGT VI.1): a player without a move loses; the mover
  wins if some move reaches a position the opponent loses, loses if every move reaches one the
  opponent wins; what is never decided is a draw;
- sums: the product graph, a move in one component (Siegel VI.1);
- stoppers: no alternating play longer than the number of (position, mover) states;
- stopper order (Siegel VI.2): ``G ≤ H`` iff Left, moving second in ``H − G``, does not lose
  (wins or draws).
"""

from __future__ import annotations

import itertools

WIN, LOSS, DRAW = 1, -1, 0


def outcome_table(graph):
    """``{(v, m): WIN/LOSS/DRAW}`` for the mover ``m`` (0 Left, 1 Right), by repeated sweeps."""
    res = {}
    changed = True
    while changed:
        changed = False
        for v, opts in graph.items():
            for m in (0, 1):
                if (v, m) in res:
                    continue
                after = [res.get((w, 1 - m)) for w in opts[m]]
                if any(r == LOSS for r in after):
                    res[(v, m)] = WIN
                    changed = True
                elif all(r == WIN for r in after):  # also: no move at all
                    res[(v, m)] = LOSS
                    changed = True
    return {(v, m): res.get((v, m), DRAW) for v in graph for m in (0, 1)}


def outcome(graph, start):
    """(Left first, Right first) winners: 'L', 'R' or 'D'."""
    t = outcome_table(graph)
    lf = {WIN: "L", LOSS: "R", DRAW: "D"}[t[(start, 0)]]
    rf = {WIN: "R", LOSS: "L", DRAW: "D"}[t[(start, 1)]]
    return lf, rf


def negate(graph):
    return {v: (r, l) for v, (l, r) in graph.items()}


def add(g, h):
    """The sum of (graph, start) pairs as a (graph, start) pair on position pairs."""
    (ga, sa), (gb, sb) = g, h
    graph = {}
    for a in ga:
        for b in gb:
            graph[(a, b)] = tuple([(x, b) for x in ga[a][m]] + [(a, y) for y in gb[b][m]] for m in (0, 1))
    return graph, (sa, sb)


def is_stopper(graph):
    states = [(v, m) for v in graph for m in (0, 1)]
    alive = set(states)  # states with an alternating play of length >= k from them
    for _ in range(len(states) + 1):
        alive = {(v, m) for (v, m) in alive if any((w, 1 - m) in alive for w in graph[v][m])}
    return not alive


def le_stoppers(g, h):
    """G ≤ H for stoppers: Left survives H − G with Right moving first."""
    s = add(h, (negate(g[0]), g[1]))
    return outcome(*s)[1] != "R"


ORDER = {"L": 1, "D": 0, "R": -1}


def outcome_ge(a, b):
    """Outcome a ≥ outcome b for Left (each first player separately: L > D > R)."""
    return ORDER[a[0]] >= ORDER[b[0]] and ORDER[a[1]] >= ORDER[b[1]]


def small_games(n=2):
    """Every game on positions 0..n-1 started at 0 (each position any Left and Right option
    sets), plus 0: the test family X for o(G+X) ≥ o(H+X)."""
    subsets = [s for k in range(n + 1) for s in itertools.combinations(range(n), k)]
    out = []
    for choice in itertools.product(itertools.product(subsets, subsets), repeat=n):
        out.append(({v: (list(choice[v][0]), list(choice[v][1])) for v in range(n)}, 0))
    return out


def of(game):
    """A cgtalg LoopyGame as a (graph, start) pair."""
    return {v: (list(l), list(r)) for v, (l, r) in enumerate(game.graph)}, 0


def reachable(graph, start):
    """The positions of ``graph`` reachable from ``start``, as a graph."""
    seen, todo = {start}, [start]
    while todo:
        v = todo.pop()
        for w in (*graph[v][0], *graph[v][1]):
            if w not in seen:
                seen.add(w)
                todo.append(w)
    return {v: graph[v] for v in seen}
