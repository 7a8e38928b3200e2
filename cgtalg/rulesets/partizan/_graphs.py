"""Small graph and grid helpers shared by the graph rulesets (Snort, Col, Hackenbush on graphs)
and Amazons: connected pieces, a cheap relabelling of vertices that sends many isomorphic graphs
to one key (colour refinement, then a breadth-first numbering), and the eight symmetries of a
grid. None of it is a complete isomorphism test: a key only has to describe its position
faithfully, sharing of memo entries between isomorphic positions is a bonus."""

from __future__ import annotations

from typing import Any, Hashable, Iterable, Sequence

__all__ = ["pieces", "refine", "bfs_order", "dihedral_images", "crop_cells"]


def pieces(vertices: Iterable[Hashable], adj: dict) -> list[list]:
    """The vertex sets of the connected pieces of the graph ``adj`` restricted to ``vertices``,
    each in discovery order, the pieces in order of their first vertex."""
    left = list(vertices)
    todo = set(left)
    out = []
    for start in left:
        if start not in todo:
            continue
        todo.discard(start)
        piece = [start]
        for v in piece:
            for w in adj.get(v, ()):
                if w in todo:
                    todo.discard(w)
                    piece.append(w)
        out.append(piece)
    return out


def refine(vertices: Sequence[Hashable], label: dict, nbrs: dict) -> dict:
    """Colour refinement (1-dimensional Weisfeiler–Leman): start from ``label[v]`` (any sortable
    values) and refine each vertex's class by the multiset of ``(class of w, tag)`` over its
    entries ``(w, tag)`` in ``nbrs[v]``, until the partition stops splitting. Returns
    ``vertex -> class number``; the numbering depends only on the labelled graph."""
    def compress(sig: dict) -> dict:
        order = {s: i for i, s in enumerate(sorted(set(sig.values())))}
        return {v: order[sig[v]] for v in vertices}

    cls = compress({v: label[v] for v in vertices})
    count = len(set(cls.values()))
    for _ in range(len(vertices)):
        sig = {v: (cls[v], tuple(sorted((cls[w], t) for w, t in nbrs.get(v, ())))) for v in vertices}
        new = compress(sig)
        n = len(set(new.values()))
        cls = new
        if n == count:
            break
        count = n
    return cls


def bfs_order(vertices: Sequence[Hashable], cls: dict, nbrs: dict, roots: Sequence[Hashable] = ()) -> list:
    """The vertices numbered breadth-first: from ``roots`` (in order), then from the least
    class not yet reached; neighbours in order of ``(class, tag, vertex)``."""
    seen: dict = {}
    order: list = []

    def grow(start: Hashable) -> None:
        seen[start] = None
        order.append(start)
        i = len(order) - 1
        while i < len(order):
            v = order[i]
            i += 1
            for w, t in sorted(nbrs.get(v, ()), key=lambda wt: (cls[wt[0]], repr(wt[1]), repr(wt[0]))):
                if w not in seen:
                    seen[w] = None
                    order.append(w)

    for r in roots:
        if r not in seen:
            grow(r)
    for v in sorted(vertices, key=lambda v: (cls[v], repr(v))):
        if v not in seen:
            grow(v)
    return order


def crop_cells(cells: dict[tuple[int, int], str], fill: str) -> tuple[str, ...]:
    """The rows of the bounding box of ``cells`` (``(row, col) -> character``), other squares
    ``fill``."""
    if not cells:
        return ()
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    return tuple("".join(cells.get((r, c), fill) for c in range(min(cols), max(cols) + 1))
                 for r in range(min(rows), max(rows) + 1))


def dihedral_images(rows: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The 8 images of a rectangular grid of characters under its rotations and reflections."""
    out: list[tuple[str, ...]] = []
    g: Any = rows
    for _ in range(4):
        out.append(g)
        out.append(tuple(r[::-1] for r in g))
        g = tuple("".join(g[len(g) - 1 - r][c] for r in range(len(g))) for c in range(len(g[0]))) if g else g
    return out
