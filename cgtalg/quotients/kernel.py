"""The compiled searches of the misère-quotient construction: loading them, and using them.

``cgtalg/quotients/_quotc.c`` (compiled at install time by the build hook ``hatch_build.py``)
runs in C the searches of :mod:`cgtalg.quotients.pretension` that dominate the construction's
time: the P- and N-conditions of :func:`~cgtalg.quotients.pretension.verify_pretension`, the least
words of the elements (the canonical numbering), the P-marking of a candidate, the images of
the heaps' options, and the P-condition of one new heap for every element at once. The
Python implementations stay the reference and the fallback: they run when the extension is
missing (no C compiler at install time), stale (built from other ``_quotc*.c``
sources), or disabled with ``CGTALG_PURE_PYTHON=1``; tests/test_quotient_kernel.py checks that both give the same
answers, on random pretensions (valid and invalid) and on real quotients.

The searches walk positions depth first in increasing colex order (fewer copies of the
largest heap first: the order of :func:`cgtalg.quotients.pretension._colex_key`), a monomial
order, so that the N-search's pruning (a state whose option-image set contains a kept one for
the same element is covered by it) loses no least failure: a failure below a pruned state
``w + u`` has a smaller failure ``w' + u`` below the covering state ``w' < w`` (the map
``(x, T) ↦ (x·Φ(h), T·Φ(h) ∪ x·S_h)`` is monotone in ``T``). The first failure met is the
least one, the same word the Python search returns.

:class:`Kept` (the C type ``_quotc.Kept``) holds, per element, the inclusion-minimal option-image
sets an N-search met (bitsets). Kept across heaps while the extensions stay conservative, they
are what the *mex interpolation* shortcut of :func:`conservative` reads, and the seeds of its
incremental search (proofs in :func:`conservative`).

Building it in a development checkout (what ``pip install -e .`` does through the hook)::

    python -c "import pathlib, hatch_build as h; [h.compile_kernel(pathlib.Path('.'), s, m) for s, m in h.KERNELS]"

Examples
--------
>>> status() in ("compiled", "disabled (CGTALG_PURE_PYTHON=1)") or status().startswith("python")
True
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from cgtalg.core.heap_facts import facts_of
from cgtalg.core.lazynp import np

from cgtalg.errors import ComputationLimitError
from cgtalg.quotients.state import active_heaps  # noqa: F401 - served from here too

from cgtalg.ckernel import CompiledKernel

__all__ = ["KERNEL", "load", "status", "source_hash", "available", "verify", "mark_p", "canonical_order",
           "images", "conservative", "new_kept", "columns", "nerode", "prod_block",
           "take_break_digits", "tb_images", "is_reduced", "generate", "prod_generate",
           "canonical_order_cols", "active_heaps"]

#: the C kernel (:class:`cgtalg.ckernel.CompiledKernel`): which implementation runs, and why
KERNEL = CompiledKernel("cgtalg.quotients._quotc", Path(__file__).parent, "_quotc", "misère-quotient kernel")
load, source_hash, status, available = KERNEL.functions(__name__)


def new_kept(order: int) -> Any:
    """An empty :class:`Kept` for a monoid of ``order`` elements (compiled path only)."""
    return load().Kept(int(order))


# -- reading a monoid ----------------------------------------------------------------------------
def columns(monoid: Any, zs: Any = None) -> tuple[np.ndarray, np.ndarray]:
    """``(cols, colmap)`` with ``x·z = cols[colmap[z], x]``: the table itself for a monoid with
    a table (commutative, so row ``z`` is column ``z``), else the columns of the elements
    ``zs`` (a product submonoid, whose table is never built)."""
    if not hasattr(monoid, "tables"):        # a table (FiniteMonoid), not a product submonoid
        t = np.ascontiguousarray(monoid.table, dtype=np.int32)
        return t, np.arange(t.shape[0], dtype=np.int32)
    size = int(monoid.size)
    zs = sorted(set(int(z) for z in zs))
    colmap = np.full(size, -1, dtype=np.int32)
    if not zs:
        return np.zeros((0, size), dtype=np.int32), colmap
    colmap[zs] = np.arange(len(zs), dtype=np.int32)
    cols = np.ascontiguousarray(monoid.cols(zs), dtype=np.int32)
    return cols, colmap


def images(monoid: Any, phi: Sequence[int], options: Sequence[Sequence[tuple[int, ...]]],
           cols: Any = None) -> list[tuple[int, ...]]:
    """``S_h`` for every heap of ``options``: the sorted distinct images of its options."""
    c = load()
    if cols is None:
        cols = columns(monoid, set(phi))
    return c.images(cols[0], cols[1], list(phi), options)


def take_break_digits(ruleset: Any) -> list[int] | None:
    """The digits ``d_0 … d_k`` of a finite take-and-break code (duck-typed: ``digit``,
    ``code_text``, and the declared ``facts``: ``finite`` and ``k``), for :func:`tb_images`; None
    for any other ruleset, or a code whose digit for taking nothing would leave a heap in place."""
    if not (hasattr(ruleset, "code_text") and callable(getattr(ruleset, "digit", None))):
        return None
    k = facts_of(ruleset).k
    if k is None:       # an infinite code, or a finite one that does not declare its k
        return None
    digits = [int(ruleset.digit(t)) for t in range(k + 1)]
    if digits[0] & 3:
        return None
    return digits


def tb_images(monoid: Any, phi: Sequence[int], digits: Sequence[int], n0: int = 0,
              n1: int | None = None) -> list[tuple[int, ...]]:
    """``S_n`` for heaps ``n0 <= n < n1`` (default: every heap of ``phi``) of the take-and-break
    code with ``digits`` (:func:`take_break_digits`), computed from the digits in C: the same
    sets as :func:`images` of ``TakeAndBreak.heap_options``, with no option tuples built."""
    c = load()
    phi = [int(g) for g in phi]
    cols, colmap = columns(monoid, set(phi))
    return c.tb_images(cols, colmap, phi, list(digits), int(n0), len(phi) if n1 is None else int(n1))


def is_reduced(pre: Any) -> bool:
    """Whether ``pre`` (a pretension with a table, every element a product of the heaps'
    images) is already reduced and canonically numbered: ``P`` separates all its elements
    and its elements are in the order of their least words. Its reduction is then itself."""
    c = load()
    cols, colmap = columns(pre.monoid)
    size = int(pre.monoid.size)
    gens = sorted(set(int(g) for g in pre.phi) - {0})
    cls = c.nerode(np.asarray(pre.P, dtype=np.uint8).tobytes(), cols[gens] if gens else cols[:0], None)
    if len(set(np.frombuffer(cls, dtype=np.int32).tolist())) != size:
        return False
    return bool(np.array_equal(canonical_order(pre), np.arange(size)))


def _checker(deadline: Any, what: str) -> Any:
    if deadline is None:
        return None
    return lambda: deadline.check(what)


def _word(parent: np.ndarray, via: np.ndarray, heaps: Sequence[int], x: int) -> tuple[int, ...]:
    w = []
    while x != 0:
        w.append(heaps[int(via[x])])
        x = int(parent[x])
    return tuple(sorted(w))


def _colex_key(word: Sequence[int]) -> tuple[int, ...]:
    return tuple(sorted(word, reverse=True))


def _n_edges(phi: Sequence[int], S: Sequence[tuple[int, ...]]) -> list[tuple[int, int, tuple[int, ...]]]:
    """The heaps the N-search walks: those with options, except a heap ``h`` with the same
    image as a heap ``h2`` whose option images are fewer (``S_h2 ⊊ S_h``, or equal and
    ``h2 < h``): replacing ``h`` by ``h2`` keeps the image and shrinks the option images."""
    by_phi: dict[int, list[tuple[int, frozenset]]] = {}
    for h, s in enumerate(S):
        if s:
            by_phi.setdefault(phi[h], []).append((h, frozenset(s)))
    out = []
    for g, lst in by_phi.items():
        for h, s in lst:
            if not any(s2 < s or (s2 == s and h2 < h) for h2, s2 in lst):
                out.append((h, g, S[h]))
    out.sort()
    return out


#: the most states the C search counts to (a C long); a larger max_states means no limit
STATES_CAP = 2**62


def _states_error(order: int, max_states: int) -> ComputationLimitError:
    return ComputationLimitError(
        f"verifying a candidate misère quotient of order {order} passed "
        f"{max_states:,} option-set states; pass a larger max_states")


# -- the searches --------------------------------------------------------------------------------
def verify(pre: Any, options: Sequence[Sequence[tuple[int, ...]]] | None, max_states: int = 2_000_000,
           deadline: Any = None, kept: Any = None,
           S: Sequence[tuple[int, ...]] | None = None,
           bound: Sequence[int] | None = None) -> tuple[int, ...] | None:
    """:func:`cgtalg.quotients.pretension.verify_pretension`, compiled: the same answer (None, or
    the least failing word in colex order; with ``bound``, only the words colex-less than
    it). ``kept`` (a :class:`Kept` of the monoid's order), when given, receives the
    inclusion-minimal option-image sets of the N-search (complete when the answer is None).
    ``S``, when given in place of ``options``, are the heaps' option images
    (:func:`tb_images`)."""
    c = load()
    m = pre.monoid
    size = int(m.size)
    P = np.asarray(pre.P, dtype=bool)
    n = len(pre.phi)
    if P[0]:
        return ()
    phi = [int(g) for g in pre.phi]
    cols, colmap = columns(m, set(phi))
    if S is None:
        S = c.images(cols, colmap, phi, options[:n])
    if hasattr(m, "tables"):      # a product submonoid: the columns of the option images too
        cols, colmap = columns(m, set(phi).union(*S))
    Pb = P.astype(np.uint8).tobytes()
    what = f"verifying a candidate misère quotient of order {size}"
    check = _checker(deadline, what)
    act = active_heaps(phi)
    order, parent, via, _ = c.walk(cols, colmap, [(h, phi[h], ()) for h in act], False, check)
    order = np.frombuffer(order, dtype=np.int32)
    parent = np.frombuffer(parent, dtype=np.int32)
    via = np.frombuffer(via, dtype=np.int32)
    rank = np.full(size, -1, dtype=np.int32)
    rank[order] = np.arange(order.size, dtype=np.int32)
    pedges = [(h, phi[h], S[h]) for h in range(n) if S[h]]
    fail: tuple[int, ...] | None = None
    for (h, _g, _s), x in zip(pedges, c.p_check(cols, colmap, Pb, pedges, rank.tobytes())):
        if x >= 0:
            cand = tuple(sorted(_word(parent, via, act, x) + (h,)))
            if fail is None or _colex_key(cand) < _colex_key(fail):
                fail = cand
    if fail is not None and bound is not None and _colex_key(fail) >= _colex_key(bound):
        fail = None
    limit = None
    if fail is not None or bound is not None:
        limit = [0] * n
        for h in (fail if fail is not None else bound):
            limit[h] += 1
    edges = _n_edges(phi, S)
    if kept is None:
        kept = c.Kept(size)
    status_, counts, _states = c.nsearch(cols, colmap, Pb, edges, kept, limit, min(max_states, STATES_CAP), False,
                                         check)
    if status_ == 3:
        raise _states_error(size, max_states)
    if status_ == 1:
        return tuple(sorted(h for (h, _g, _s), k in zip(edges, counts) for _ in range(k)))
    return fail


def prod_block(m: Any, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """The products ``x·y`` (``x`` in ``xs`` rows, ``y`` in ``ys`` columns) in a product
    submonoid ``m`` (:class:`cgtalg.quotients.pretension._ProductSubmonoid` with an array
    look-up), computed coordinate-wise in C; int64, shape ``(len(xs), len(ys))``."""
    c = load()
    xs = np.ascontiguousarray(xs, dtype=np.int64)
    ys = np.ascontiguousarray(ys, dtype=np.int64)
    out = c.prod_block(np.ascontiguousarray(m.C, dtype=np.int64),
                       [np.ascontiguousarray(t, dtype=np.int32) for t in m.tables],
                       np.ascontiguousarray(m.stride, dtype=np.int64), m._lut, xs.reshape(-1),
                       ys.reshape(-1))
    return np.frombuffer(out, dtype=np.int32).astype(np.int64).reshape(xs.size, ys.size)


def generate(gen_cols: np.ndarray, lut: np.ndarray) -> np.ndarray:
    """:func:`cgtalg.quotients.pretension._generate`, compiled: the members (old ids, breadth
    first, generator-major within a layer) of the submonoid generated by the elements whose
    columns are the rows of ``gen_cols``; ``lut`` (int64, all ``-1``) receives old → new ids."""
    return np.frombuffer(load().generate(gen_cols, lut, None), dtype=np.int64)


def prod_generate(tables: Sequence[np.ndarray], G: np.ndarray, stride: np.ndarray, lut: np.ndarray,
                  deadline: Any = None) -> np.ndarray:
    """The coordinates (``count × f`` int64) of the submonoid of a direct product of the monoids
    ``tables`` generated by the coordinate vectors ``G``, breadth first from the identity;
    ``lut`` (int64, all ``-1``, indexed by ``Σ stride[j]·c_j``) receives code → element id.
    The budget ``deadline`` (time, memory) is checked every few thousand elements."""
    f = len(tables)
    out = load().prod_generate([np.ascontiguousarray(t, dtype=np.int32) for t in tables],
                               np.ascontiguousarray(G, dtype=np.int64),
                               np.ascontiguousarray(stride, dtype=np.int64), lut,
                               _checker(deadline, "building a candidate misère quotient"))
    return np.frombuffer(out, dtype=np.int64).reshape(-1, f)


def nerode(P: np.ndarray, gen_cols: Sequence[np.ndarray], deadline: Any = None) -> np.ndarray:
    """:func:`cgtalg.quotients.pretension._nerode_cols`, compiled: the classes of
    ``x ~ y ⇔ ∀z: xz ∈ P ⇔ yz ∈ P`` (Moore refinement over the generators' columns), numbered
    by first occurrence (the Python reference numbers them otherwise; only the partition
    matters)."""
    c = load()
    size = int(np.asarray(P).shape[0])
    cols = np.ascontiguousarray(np.asarray(gen_cols, dtype=np.int32).reshape(len(gen_cols), size))
    what = f"reducing a candidate misère quotient of {size:,} elements"
    out = c.nerode(np.asarray(P, dtype=np.uint8).tobytes(), cols, _checker(deadline, what))
    return np.frombuffer(out, dtype=np.int32).astype(np.int64)


def mark_p(monoid: Any, phi: Sequence[int], options: Sequence[Sequence[tuple[int, ...]]],
           deadline: Any = None) -> np.ndarray:
    """:func:`cgtalg.quotients.pretension._mark_p`, compiled: each element gets the outcome of its
    least word (colex), from the images of that word's options."""
    c = load()
    phi = [int(g) for g in phi]
    n = len(phi)
    cols0 = columns(monoid, set(phi))
    S = c.images(cols0[0], cols0[1], phi, options[:n])
    active = [h for h in active_heaps(phi) if S[h] or phi[h] != 0]
    need = set(phi[h] for h in active).union(*(S[h] for h in active)) if active else set()
    cols, colmap = cols0 if cols0[0].shape[0] == monoid.size else columns(monoid, need)
    what = f"marking the P-portion of a candidate of order {int(monoid.size):,}"
    _o, _p, _v, P = c.walk(cols, colmap, [(h, phi[h], S[h]) for h in active], True,
                           _checker(deadline, what))
    return np.frombuffer(P, dtype=np.uint8).astype(bool)


def canonical_order(pre: Any) -> np.ndarray:
    """The elements in the order of their least words (colex; the identity first): the
    numbering of :func:`cgtalg.quotients.pretension._canonical_order`."""
    cols, colmap = columns(pre.monoid)
    return canonical_order_cols(cols, colmap, pre.phi)


def canonical_order_cols(cols: np.ndarray, colmap: np.ndarray, phi: Sequence[int]) -> np.ndarray:
    """:func:`canonical_order` from the columns of the heaps' images only (``x·z =
    cols[colmap[z], x]``, element 0 the identity)."""
    phi = [int(g) for g in phi]
    order, _p, _v, _ = load().walk(cols, colmap, [(h, phi[h], ()) for h in active_heaps(phi)], False, None)
    order = np.frombuffer(order, dtype=np.int32)
    if order.size != colmap.shape[0]:
        raise AssertionError("quotient has elements that are not images of positions")
    return order.astype(np.int64)


def conservative(pre: Any, options: Sequence[Sequence[tuple[int, ...]]], n: int, max_states: int,
                 deadline: Any, kept: Any) -> tuple[int, Any] | None:
    """The element ``x`` such that ``Φ(n) = x`` keeps the pretension ``pre`` (valid for heaps
    ``< n``, reduced) valid, with the kept sets of the extended pretension; None when no
    element does (the quotient grows).

    ``kept`` must hold the inclusion-minimal option-image sets of a complete N-search of
    ``pre`` (:func:`verify` with ``kept``), or of an earlier call of this function on the
    pretension ``pre`` extends. A trial's new sets are kept apart (the seeds prune its search
    but are not changed); the successful trial's are merged into ``kept``, which is returned
    (the kept sets of the extension; those of ``pre`` are gone).

    The candidates are the elements with the P-status of heap ``n`` (``x ∈ P`` iff no option
    image is in ``P``) that satisfy the P-condition for heap ``n`` (no ``z`` with ``xz ∈ P``
    and ``sz ∈ P``, ``s ∈ S_n``): together these are the P-condition of the extension and the
    N-condition of heap ``n`` alone; the other heaps' P-conditions are unchanged (same monoid
    and ``P``). Then, in order:

    *Mex interpolation* (Siegel's shortcut). If some kept set ``T0`` of ``x`` satisfies
    ``T0 ⊆ S_n``, then ``Φ(n) = x`` is valid, with no search. Proof: ``T0 = T(G)`` for a
    position ``G`` of heaps ``< n`` with ``Φ(G) = x`` (kept sets are option-image sets of
    positions the search met). For any position ``H`` with heap ``n``, write ``H = K + n`` and
    ``H' = K + G``: ``Φ(H') = Φ(K)·x = Φ(H)`` and ``T(H') = T(K)·x ∪ Φ(K)·T(G) ⊆
    T(K)·x ∪ Φ(K)·S_n = T(H)``; repeating for every copy of heap ``n`` (each step only shrinks
    ``T``, as ``(y, T) ↦ (y·Φ(h), T·Φ(h) ∪ y·S_h)`` is monotone in ``T``) gives a position
    ``H''`` of heaps ``< n`` with ``Φ(H'') = Φ(H)``, ``∅ ≠ T(H'') ⊆ T(H)`` (``T(G) ≠ ∅``). By
    the N-condition of ``pre``, ``Φ(H) ∉ P`` implies ``T(H'') ∩ P ≠ ∅``, so ``T(H) ∩ P ≠ ∅``.
    The kept sets stay valid for the extension: every pair of a position with heap ``n`` is
    covered by one of a position without it.

    *Incremental search.* Otherwise the N-search runs over the positions with at least one
    heap ``n`` only (heap ``n`` the most significant digit), seeded with a copy of the kept
    sets of ``pre``, which cover every pair of a position without heap ``n``; a state covered
    by a seed is pruned. Sound: if some position failed, let ``F`` be the least failure; a
    pruned ancestor ``A`` of ``F = A + U`` covered by a kept set of a smaller new word ``A'``
    gives a smaller failure ``A' + U``, and one covered by a seed from a position ``G'``
    without heap ``n`` gives a failing position ``G' + U`` without heap ``n`` (``U`` has only
    digits below ``A``'s, so no heap ``n``), which ``pre``'s validity excludes. The kept sets
    after a success cover every pair of the extension (seeds for the old ones, the search for
    the new ones), so they serve the next heap.

    Only one element can succeed when ``pre`` is reduced (two elements of a reduced quotient
    are told apart by ``P`` and some position), so the order of the trials changes no answer.
    """
    c = load()
    m = pre.monoid
    size = int(m.size)
    cols, colmap = columns(m)
    phi = [int(g) for g in pre.phi]
    Sn = c.images(cols, colmap, phi, [options[n]])[0]
    P = np.asarray(pre.P, dtype=bool)
    Pb = P.astype(np.uint8).tobytes()
    want_p = not any(P[s] for s in Sn)
    cands = c.compatible(cols, Pb, Sn, want_p)
    for x in cands:
        if kept.covering(x, Sn):
            return x, kept
    if not cands:
        return None
    S = c.images(cols, colmap, phi, options[:n])
    base = _n_edges(phi, S)
    what = f"misère quotient: placing heap {n} (order {size})"
    check = _checker(deadline, what)
    for x in cands:
        if deadline is not None:
            deadline.check(what)
        new = c.Kept(size)        # the new sets; the seeds prune but are not changed
        status_, _counts, _states = c.nsearch(cols, colmap, Pb, base + [(n, x, Sn)], new, None,
                                              min(max_states, STATES_CAP), True, check, kept)
        if status_ == 3:
            raise _states_error(size, max_states)
        if status_ == 0:
            kept.merge(new)
            return x, kept
    return None
