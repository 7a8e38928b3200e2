"""The certificate that a misère quotient is infinite: a JSON document anyone can check.

A verified ray pretension with an order witness (:mod:`cgtalg.quotients.rays`) proves
that ``Q_n`` of a heap game is infinite for every ``n >= v``. This module writes it as a plain
JSON document, the ``"certificate"`` of :meth:`MisereQuotient.to_dict` (``cgtalg quotient ...
--json``), of :func:`cgtalg.quotients.storage.ray_certificate` (a stored proof) and of
``tools/quotient_rays.py --certificate FILE``; :mod:`cgtalg.referee.rays` checks it from the
definitions (``cgtalg check FILE``), with none of the code that found it.

Format (``format`` 1)::

    {"kind": "infinite-misere-quotient", "format": 1,
     "game": "0.07",                  the heap game, as the referee's heap_rules reads it
     "infinite_from": 34,             Q_n is infinite for every n >= 34, and Q_33 is finite
     "heaps_covered": 35,             the pretension predicts every position of heaps 0 .. 35
     "same_quotient_through": 35,     Q_m = Q_34 for 34 <= m <= 35 (heaps 35.. map into the
                                      submonoid of the heaps <= 34)
     "last_finite": {"heap": 33, "order": 638, "p_count": 109},     (when known) |Q_33|, |P|
     "witness": {"position": [6, 25], "element": 47, "t": 2},
                                      6 + 25 + a·u + b·v is a P-position iff b − a >= 2
                                      (all a >= 0, b >= 1); "element" is the image of the
                                      position in R. The general form adds "modulus" M,
                                      "a_class", "b_class", "a_from", "b_from" and "sense"
                                      ("ge", "lt" or "band"): for a >= a_from, b >= b_from
                                      with a ≡ a_class, b ≡ b_class (mod M), P iff
                                      b − a >= t ("ge"), b − a < t ("lt"), or
                                      t <= b − a < t_end ("band", with "t_end");
                                      "d_class" in place of "a_class" and "b_class":
                                      the class b − a ≡ d_class (mod M); "b_class" (or
                                      "a_class") alone: a class of b (of a) only
                                      (:func:`cgtalg.quotients.rays.order_witness`)
     "statement": "...",              the claims in words
     "ray": {...}}                    the ray pretension: encode_ray's record (below)

The ``"ray"`` record (:func:`cgtalg.quotients.rays.encode_ray`, the same record the store
keeps under ``misere_quotient_rays``)::

    {"format": 1, "u": 30, "v": 34, "top": 35, "order_r": 1456,
     "rules": {"q": 2, "K": 6, "p": 2, "K2": 4, "s": 1, "m0": 2},     the reduction red
     "row": [0, 0, 1, ...],           row[h]: the column of heap h (−1 for u and v, and for
                                      every heap of their classes)
     "cols": "<base64>",              the k generator columns, each a map r ↦ r·ρ(h) on
                                      R = {0 .. order_r − 1}: zlib-compressed little-endian
                                      int32, row-major k × order_r (k = max(row) + 1)
     "F_shape": [1456, 7, 9],         (order_r, m0 + K2 + 1, m0 + K + 1)
     "F": "<base64>",                 the table F[r, a, b] (P-portion: F[r, red(a, b)]),
                                      numpy.packbits of the row-major booleans (first entry
                                      in the high bit of the first byte), zlib-compressed
     "witness": [47, 2, 1, 0, 0, 0, 1, 1],
                                      (element, t, M, a_class, b_class, a_from, b_from,
                                      sense ±1) again, as the store keeps it
     "counted": {"heap": 19, "cap": 2, "count": [0, 1, ...]}}
                                      only in the shape of cgtalg.quotients.rays_counted:
                                      the top heap sits in R; count[r] is its copies in the
                                      positions of image r, capped at cap (cap: dead, never
                                      in P). Then infinite_from is that heap, and the
                                      certificate has no last_finite
     "u_class": [5, 6], "v_class": [11]}
                                      only when other heaps share the image of u or v: every
                                      heap of the u-class maps to (1, 1, 0) and counts as a
                                      copy of u (u is its least heap), likewise for v

Decoding needs only the standard library and numpy: ``numpy.frombuffer(zlib.decompress(
base64.b64decode(cols)), "<i4")`` and ``numpy.unpackbits(numpy.frombuffer(zlib.decompress(
base64.b64decode(F)), numpy.uint8))[:order_r * A * B]``.
"""

from __future__ import annotations

from typing import Any, Sequence

from cgtalg.core.lazynp import np

from cgtalg.quotients.rays import A_ONLY, B_ONLY, DIFFERENCE, WITNESS_DEFAULTS, RayPretension, encode_ray, full_witness, witness_text

__all__ = ["KIND", "FORMAT", "infinite_certificate", "same_quotient_through", "mark_infinite"]

#: the ``kind`` of the document
KIND = "infinite-misere-quotient"
#: its version
FORMAT = 1


def same_quotient_through(ray: RayPretension) -> int:
    """The largest ``m <= top`` such that every heap ``v < h <= m`` maps into the submonoid
    generated by the heaps ``<= v`` (then ``Q_m = Q_v``: the same images, the same tests)."""
    v = ray.v
    if ray.counted is not None:         # the counted heap is the top heap
        return int(ray.counted[0])
    # the heaps of no class and not mixed (a mixed heap h > v maps inside when its element of R
    # does: (ρ, α, β) is then that part with α copies of u and β of v)
    gens = sorted({ray.row[h] for h in range(v + 1) if ray.row[h] >= 0 and ray.lift(h) is None})
    seen = np.zeros(ray.order_r, dtype=bool)
    seen[0] = True
    frontier = np.array([0])
    while frontier.size:
        nxt = np.unique(ray.cols[gens][:, frontier]) if gens else frontier[:0]
        nxt = nxt[~seen[nxt]]
        seen[nxt] = True
        frontier = nxt
    m = v
    for h in range(v + 1, len(ray.row)):
        # a counted heap maps to (1, 1, 0) or (1, 0, 1): the image of u or v, both <= v
        if ray.row[h] >= 0 and not seen[int(ray.cols[ray.row[h]][0])]:
            break
        m = h
    return m


def infinite_certificate(game: str, ray: RayPretension, witness: Sequence[int], top: int,
                         last_finite: dict | None = None) -> dict:
    """The JSON document (module docstring) of a *verified* ray pretension ``ray`` of ``game``
    for the heaps ``0 .. top`` with its order witness ``(element, t)``; ``last_finite``:
    ``{"heap": v − 1, "order": |Q_{v−1}|, "p_count": |P|}`` when known."""
    v, u = ray.v, ray.u
    counted = ray.counted
    inf = v if counted is None else int(counted[0])
    if counted is not None:
        last_finite = None             # not derivable from this certificate (the referee's Lemma C3)
    witness = full_witness(witness)
    r0, t, M, al, be, a0, b0, sense = witness
    position = [int(h) for h in ray.words[r0]]
    same = same_quotient_through(ray)
    doc: dict[str, Any] = {
        "kind": KIND, "format": FORMAT, "game": str(game), "infinite_from": int(inf),
        "heaps_covered": int(top), "same_quotient_through": int(same)}
    if last_finite is not None:
        doc["last_finite"] = {k: int(last_finite[k]) for k in ("heap", "order", "p_count")}
    base = " + ".join(map(str, position)) or "0"
    doc["witness"] = {"position": position, "element": r0, "t": t}
    if witness[2:] != WITNESS_DEFAULTS:
        cls = {DIFFERENCE: {"d_class": be}, B_ONLY: {"b_class": be}, A_ONLY: {"a_class": be}}.get(
            al, {"a_class": al, "b_class": be})
        doc["witness"].update({"modulus": M} | cls
                              | {"a_from": a0, "b_from": b0, "sense": {1: "ge", -1: "lt"}.get(sense, "band")})
        if sense > 1:
            doc["witness"]["t_end"] = t + sense - 2
    finite = (f"Q_{inf - 1} is finite" + (f" (order {last_finite['order']}, |P| = {last_finite['p_count']})"
                                            if last_finite is not None else ""))
    extra = "; ".join(t for t in (ray.class_text(), ray.mixed_text()) if t)
    if counted is None:
        doc["statement"] = (
            f"{game}: the misère quotient Q_n is infinite for every n >= {v}, and {finite}. A ray "
            f"pretension (heaps {u} and {v} counted{'; ' + extra if extra else ''}, "
            f"the other heaps in a monoid R of order {ray.order_r}) "
            f"predicts the misère outcome of every position of heaps <= {top}"
            + (f"; Q_m = Q_{v} for {v} <= m <= {same}" if same > v else "")
            + f"; {witness_text(u, v, base, witness)}, so the powers of heap {v} are pairwise distinguishable.")
    else:
        doc["statement"] = (
            f"{game}: the misère quotient Q_n is infinite for every n >= {inf}. A ray pretension (heaps {u} "
            f"and {v} counted{'; ' + extra if extra else ''}, the other heaps with up to {int(counted[1]) - 1} copies of heap {inf} in a monoid R "
            f"of order {ray.order_r}) predicts the misère outcome of every such position of heaps <= {top}; "
            f"{witness_text(u, v, base, witness)}, so the powers of heap {v} are pairwise distinguishable in "
            f"Q_{inf}. (Q_{inf - 1} is finite: the finite quotient computed beside this proof.)")
    doc["ray"] = encode_ray(ray, witness, top)
    return doc


def mark_infinite(q: Any, exc: Any) -> Any:
    """``q`` (the last finite partial quotient) with the structured verdict of ``exc``: for an
    :class:`~cgtalg.errors.InfiniteQuotientError`, ``infinite_from`` and the certificate; for a
    stopped counting run (an error with ``levels``), ``next_bound``, what its last level proved
    about the next quotient. Returns ``q``."""
    ray = getattr(exc, "ray", None)
    linear = getattr(exc, "linear", None)
    levels = getattr(exc, "levels", None)
    if q is not None and linear is not None:
        from cgtalg.quotients.rays_linear import linear_certificate

        q.infinite_from = int(linear.v)
        q.certificate = linear_certificate(q.game, linear, exc.witness)
        return q
    exact = getattr(exc, "exact_next", None)
    if q is not None and ray is None and exact is not None and int(exact[0]) == q.max_heap + 1:
        # the next quotient was built and verified, but is past the order bound: its order is exact
        q.next_bound = {"heap": int(exact[0]), "at_least": int(exact[1]), "copies": None, "exact": True,
                        "p_count": int(exact[2])}
        return q
    if q is not None and ray is None and levels:
        top = levels[-1]
        if int(top.heap) == q.max_heap + 1:
            q.next_bound = {"heap": int(top.heap), "at_least": int(top.lower_bound), "copies": int(top.copies)}
    if q is None or ray is None:
        return q
    v = int(exc.heap)
    last = None
    if q.max_heap == v - 1 and not q.final:
        last = {"heap": q.max_heap, "order": q.order, "p_count": len(q.p_portion)}
    q.infinite_from = v
    q.certificate = infinite_certificate(q.game, ray, exc.witness, exc.top, last)
    return q
