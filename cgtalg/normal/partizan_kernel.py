"""The compiled canonical-form engine for short partizan games, and its translation to forms.

The C kernel ``cgtalg.normal._pgc`` (sources ``_pgc*.c`` / ``_pgc.h`` beside this module,
compiled by ``hatch_build.py``) keeps its own table of forms identified by integer ids: each
form hash-consed on its Left and Right option ids, comparisons ``G <= H`` memoised on id
pairs, canonical sums memoised on id pairs with number translation (a number component adds no
moves: Siegel CGT II.3), dominated options removed and reversible ones bypassed (ONAG ch. 10;
Siegel CGT II.2), numbers recognised by the simplicity rule and their stops used to settle
most comparisons at once (Siegel CGT II.4). It also holds whole searches over normalised
components on 64-bit boards: Domineering (:func:`domineering_form`), Clobber and Konane
(:func:`grid_form`), Snort and Col on graphs of at most 64 vertices (:func:`graph_form`).

The Python implementation (:mod:`cgtalg.normal.partizan`) stays the reference and the
fallback: ``CGTALG_PURE_PYTHON=1`` disables the kernel (as for cgtalg's other C kernels,
:mod:`cgtalg.ckernel`), and ``tests/test_partizan_kernel.py`` checks that both give the same
canonical forms and comparisons, on random forms and on ruleset positions.

Functions: :func:`available`, :func:`status`, :func:`to_kernel` (a form's canonical form in
the kernel), :func:`to_form` (a kernel id as a :class:`~cgtalg.core.partizan.PartizanGame`),
:func:`canonical_form`, :func:`le`, :func:`canonical_sum` (the kernel's answers as forms, for
cross-checks), :func:`domineering_form`, :func:`grid_form`, :func:`graph_form`.

References: Conway, *On Numbers and Games* (ONAG), ch. 1, 2, 10; Siegel, *Combinatorial Game
Theory* (CGT), ch. II.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable

from cgtalg.caches import register_cache
from cgtalg.ckernel import CompiledKernel

__all__ = ["KERNEL", "load", "source_hash", "available", "status", "to_kernel", "to_form", "canonical_form", "le",
           "canonical_sum", "domineering_form", "grid_form", "graph_form", "clear_searches", "DOMINEERING_MAX_SIDE",
           "DOMINEERING_MAX_CELLS", "GRAPH_MAX_VERTICES"]

#: the C kernel (:class:`cgtalg.ckernel.CompiledKernel`): which implementation runs, and why
KERNEL = CompiledKernel("cgtalg.normal._pgc", Path(__file__).parent, "_pgc", "partizan canonical-form kernel")

#: Clobber and Konane grids the kernel searches: at most this many rows and columns
DOMINEERING_MAX_SIDE = 8
#: Domineering boards the kernel searches: at most this many cells (rows × columns)
DOMINEERING_MAX_CELLS = 64
#: Snort and Col graphs the kernel searches: at most this many vertices in a connected piece
GRAPH_MAX_VERTICES = 64

# kernel id -> form, and form id -> kernel id of its canonical form (the kernel's table is
# never emptied, so these stay valid; cgtalg.clear_caches() empties them and they refill)
_FORM_OF: dict[int, Any] = register_cache("normal.partizan_kernel forms of kernel ids", {})
_KID_OF: dict[int, int] = register_cache("normal.partizan_kernel kernel ids of forms", {})


load, source_hash, status, available = KERNEL.functions(__name__)


def _need():
    mod = load()
    if mod is None:
        raise RuntimeError(f"the partizan kernel is not in use: {status()}")
    return mod


def to_kernel(g: Any) -> int:
    """The kernel id of the canonical form of the partizan form ``g`` (built bottom-up from
    its subpositions in the kernel).

    Raises
    ------
    RuntimeError
        When the kernel is not in use (:func:`status` says why).
    OverflowError
        When a number in ``g`` is beyond the kernel's range (``|x| <= 2^20`` with at most 40
        binary places).
    """
    from cgtalg.core.partizan import as_partizan

    mod = _need()
    g = as_partizan(g)
    hit = _KID_OF.get(g._id)
    if hit is not None:
        return hit
    canon = mod.canon
    for x in g.subpositions():
        if x._id in _KID_OF:
            continue
        kid = canon([_KID_OF[o._id] for o in x._left], [_KID_OF[o._id] for o in x._right])
        _KID_OF[x._id] = kid
    return _KID_OF[g._id]


def to_form(kid: int) -> Any:
    """The kernel's canonical form ``kid`` as a :class:`~cgtalg.core.partizan.PartizanGame`
    (hash-consed, so it is the very form :func:`cgtalg.normal.partizan.canonical_form` gives
    for the same value)."""
    from cgtalg.core.partizan import make_form

    hit = _FORM_OF.get(kid)
    if hit is not None:
        return hit
    mod = _need()
    form_of = _FORM_OF
    for i, lo, ro in mod.walk(kid):
        if i in form_of:
            continue
        f = make_form([form_of[o] for o in lo], [form_of[o] for o in ro])
        form_of[i] = f
        _KID_OF.setdefault(f._id, i)
    return form_of[kid]


def canonical_form(g: Any) -> Any:
    """The canonical form of ``g`` computed by the kernel (a form)."""
    return to_form(to_kernel(g))


def le(g: Any, h: Any) -> bool:
    """``G <= H`` decided by the kernel."""
    return _need().le(to_kernel(g), to_kernel(h))


def canonical_sum(a: Any, b: Any) -> Any:
    """The canonical form of ``a + b`` computed by the kernel (a form)."""
    return to_form(_need().add(to_kernel(a), to_kernel(b)))


def kernel_sum(kids: Iterable[int]) -> int:
    """The kernel id of the canonical sum of kernel canonical forms."""
    mod = _need()
    acc = 0
    for k in kids:
        acc = mod.add(acc, k)
    return acc


def domineering_form(rows: tuple[int, ...], tick: Any = None) -> Any:
    """The canonical form of the Domineering board ``rows`` (bit ``c`` of ``rows[r]`` set when
    cell ``(r, c)`` is free; at most :data:`DOMINEERING_MAX_CELLS` cells, rows × columns),
    searched in the kernel over normalised components.

    ``tick``, when given, is called with the number of components solved by this call every
    256 of them; whatever it raises stops the search and comes out of this function (the
    components solved stay memoised in the kernel).
    """
    return to_form(_need().domineering(tuple(rows), tick))


#: the games of :func:`grid_form`
GRID_GAMES = {"clobber": 0, "konane": 1}


def grid_form(game: str, rows: tuple[str, ...], tick: Any = None) -> Any:
    """The canonical form of a Clobber or Konane position (``game``), given as rows over ``x``
    (Left), ``o`` (Right), ``.`` (empty) and ``#`` (off the board), at most
    :data:`DOMINEERING_MAX_SIDE` rows and columns, searched in the kernel on bitboards over
    normalised components; None for a larger grid. ``tick`` as for :func:`domineering_form`.
    """
    side = DOMINEERING_MAX_SIDE
    if len(rows) > side or any(len(r) > side for r in rows):
        return None
    x = o = b = 0
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            bit = 1 << (8 * r + c)
            if ch == "x":
                x |= bit
            elif ch == "o":
                o |= bit
            if ch != "#":
                b |= bit
    return to_form(_need().grid(GRID_GAMES[game], x, o, b, tick))


#: the games of :func:`graph_form`
GRAPH_GAMES = {"col": 0, "snort": 1}


def graph_form(game: str, tints: str, edges: Iterable[tuple[int, int]], tick: Any = None) -> Any:
    """The canonical form of a Snort or Col position (``game``) on a graph, searched in the
    kernel (moves on bitmasks, components split and memoised on a relabelling that does not
    depend on the vertices' names: ``_pgc_graph.c``); None when a connected piece of the graph
    has more than :data:`GRAPH_MAX_VERTICES` vertices.

    Parameters
    ----------
    game
        ``"snort"`` or ``"col"``.
    tints
        One letter a vertex: ``W`` (either player may colour it), ``L`` (only Left), ``R``
        (only Right), as in :mod:`cgtalg.rulesets.partizan.snort_col`.
    edges
        Pairs ``(u, v)`` of vertices ``0 <= u, v < len(tints)``.
    tick
        As for :func:`domineering_form`.

    Returns
    -------
    PartizanGame or None
        The canonical form (the sum of its connected pieces' when the graph has more than 64
        vertices), or None.

    Raises
    ------
    RuntimeError
        When the kernel is not in use.
    ValueError
        For a tint other than ``W``, ``L``, ``R`` or an edge out of range (the message names it).

    Examples
    --------
    >>> from cgtalg.normal import partizan_kernel as pk
    >>> str(pk.graph_form("snort", "WWW", [(0, 1), (1, 2)])) if pk.available() else '±2'
    '±2'
    """
    mod = _need()
    code = GRAPH_GAMES[game]
    n = len(tints)
    if tints.strip("WLR"):
        bad = sorted(set(tints) - set("WLR"))[0]
        raise ValueError(f"graph_form: tints are W, L or R, got {bad!r} in {tints[:40]!r}")
    nbrs = [0] * n
    for u, v in edges:
        if not (0 <= u < n and 0 <= v < n) or u == v:
            raise ValueError(f"graph_form: the edge {u}-{v} is not between two of the {n} vertices")
        nbrs[u] |= 1 << v
        nbrs[v] |= 1 << u
    if n <= GRAPH_MAX_VERTICES:
        rev = tints[::-1]
        left = int(rev.translate(_MAY_LEFT) or "0", 2)
        right = int(rev.translate(_MAY_RIGHT) or "0", 2)
        return to_form(mod.graph(code, nbrs, left, right, tick))
    acc = 0
    for piece in _connected_pieces(nbrs):
        if len(piece) > GRAPH_MAX_VERTICES:
            return None
        index = {v: i for i, v in enumerate(piece)}
        sub = [sum(1 << index[w] for w in range(n) if nbrs[v] >> w & 1) for v in piece]
        left = sum(1 << i for i, v in enumerate(piece) if tints[v] in "WL")
        right = sum(1 << i for i, v in enumerate(piece) if tints[v] in "WR")
        acc = mod.add(acc, mod.graph(code, sub, left, right, tick))
    return to_form(acc)


# a tint string (reversed) as the binary digits of the vertices Left / Right may colour
_MAY_LEFT = str.maketrans("WLR", "110")
_MAY_RIGHT = str.maketrans("WLR", "101")


def _connected_pieces(nbrs: list[int]) -> list[list[int]]:
    """The vertex lists of the connected pieces of the graph with neighbour masks ``nbrs``."""
    seen = 0
    out = []
    for s in range(len(nbrs)):
        if seen >> s & 1:
            continue
        piece, todo = [], [s]
        seen |= 1 << s
        while todo:
            v = todo.pop()
            piece.append(v)
            m = nbrs[v] & ~seen
            seen |= m
            while m:
                w = (m & -m).bit_length() - 1
                m &= m - 1
                todo.append(w)
        out.append(sorted(piece))
    return out


def clear_searches() -> None:
    """Forget the positions memoised by the kernel's Domineering, Clobber, Konane, Snort and
    Col searches (when the kernel is loaded; its table of forms stays)."""
    if KERNEL.loaded and KERNEL.module is not None:
        KERNEL.module.clear_searches()


def stats() -> dict:
    """Sizes of the kernel's tables (forms, memoised comparisons and sums, the components
    memoised by the Domineering, Clobber / Konane and Snort / Col searches)."""
    return dict(_need().stats())
