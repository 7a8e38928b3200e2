"""The stored form of a ray pretension (:mod:`cgtalg.quotients.rays`): :func:`encode_ray`, the
JSON-ready record the store keeps and a certificate carries, and :func:`decode_ray`, which reads it
back. Nothing read back is trusted: decoding refuses generator columns that do not commute as maps
on ``R`` (:func:`commute_problem`), classes of counted heaps that do not match the rows
(:func:`check_classes`) and malformed data; the caller verifies what it reads."""

from __future__ import annotations

import base64
import zlib
from typing import TYPE_CHECKING, Sequence

from cgtalg.core.lazynp import np

from cgtalg.errors import ArgumentError
from cgtalg.quotients.rays_witness import full_witness

if TYPE_CHECKING:
    from cgtalg.quotients.rays import RayPretension

__all__ = ["encode_ray", "decode_ray", "check_classes", "commute_problem", "moveless_problem", "FORMAT"]

#: version of a stored ray pretension (:func:`encode_ray`)
FORMAT = 1


def _least_words(cols: np.ndarray, row: Sequence[int], skip: Sequence[int] = ()) -> list[tuple[int, ...]] | None:
    """A word per element of ``R``: breadth first from the identity over the columns of the
    heaps not in ``skip`` (the mixed heaps, which also count copies of ``u`` or ``v``), each
    named by its least heap (None when some element is not reached)."""
    nR = int(cols.shape[1])
    heap_of: dict[int, int] = {}
    for h, i in enumerate(row):
        if i >= 0 and i not in heap_of and h not in skip:
            heap_of[i] = h
    words: list[tuple[int, ...] | None] = [None] * nR
    words[0] = ()
    frontier = [0]
    while frontier:
        nxt = []
        for i in sorted(heap_of):
            for x, y in zip(frontier, cols[i][frontier].tolist()):
                if words[y] is None:
                    words[y] = tuple(sorted(words[x] + (heap_of[i],)))
                    nxt.append(y)
        frontier = nxt
    return None if any(w is None for w in words) else words  # type: ignore[return-value]


def _pack(a: np.ndarray) -> str:
    return base64.b64encode(zlib.compress(np.ascontiguousarray(a).tobytes(), 6)).decode("ascii")


def encode_ray(pre: "RayPretension", witness: Sequence[int], top: int) -> dict:
    """A JSON-ready record of a verified ray pretension for the heaps ``0 .. top`` and its order
    witness (:func:`decode_ray` reads it back; nothing in it is trusted on reading)."""
    return {"format": FORMAT, "u": pre.u, "v": pre.v, "top": int(top), "order_r": pre.order_r,
            "rules": pre.rules.to_dict(), "row": [int(i) for i in pre.row],
            "cols": _pack(pre.cols.astype("<i4")), "F_shape": list(pre.F.shape),
            "F": _pack(np.packbits(pre.F.reshape(-1).astype(np.uint8))),
            "witness": [int(x) for x in full_witness(witness)]} | (
        {} if pre.counted is None else {"counted": {"heap": int(pre.counted[0]), "cap": int(pre.counted[1]),
                                                    "count": [int(c) for c in pre.counted[2]]}}) | (
        {} if pre.classes is None else
        {"u_class": [int(h) for h in pre.us], "v_class": [int(h) for h in pre.vs]}) | (
        {} if not pre.mixed else {"mixed": [[int(h), int(al), int(be)] for h, al, be in pre.mixed]})


def check_classes(u: int, v: int, row: Sequence[int], us: Sequence[int], vs: Sequence[int]) -> str | None:
    """Why ``us``, ``vs`` are not the classes of counted heaps of a pretension with these ``row``
    entries (sorted, disjoint, ``u`` and ``v`` the least, and exactly the heaps with row −1)."""
    top = len(row) - 1
    for name, cls, least in (("u", us, u), ("v", vs, v)):
        if list(cls) != sorted(set(cls)) or not cls or cls[0] != least:
            return f"the {name}-class {list(cls)} is not a sorted list of distinct heaps from {name} = {least}"
        if not all(1 <= h <= top for h in cls):
            return f"the {name}-class {list(cls)} holds a heap outside 1 .. {top}"
    if set(us) & set(vs):
        return f"the u-class and the v-class share heaps {sorted(set(us) & set(vs))}"
    if {h for h, i in enumerate(row) if i < 0} != set(us) | set(vs):
        return "the heaps with row −1 are not those of the u- and v-classes"
    return None


def commute_problem(cols: np.ndarray) -> str | None:
    """Why the generator columns ``cols`` (maps on ``R``) do not commute, or None. Commuting
    maps generate a commutative monoid of maps, and ``t ↦ t(0)`` is a bijection from it onto the
    elements they reach from 0 (``t(0) = t'(0)`` gives ``t(s(0)) = s(t(0)) = s(t'(0)) =
    t'(s(0))`` for every ``s``): so the numbering of ``R`` is that monoid, 0 its identity, and
    the image of a position does not depend on the order of its heaps."""
    cols = np.asarray(cols)
    for i in range(cols.shape[0]):
        # row j: cols[i] after cols[j], against cols[j] after cols[i]
        bad = np.nonzero((cols[i][cols] != cols[:, cols[i]]).any(axis=1))[0]
        if bad.size:
            return f"the generator columns {i} and {int(bad[0])} do not commute (as maps on R)"
    return None


def decode_ray(rec: dict) -> "tuple[RayPretension, tuple[int, ...], int]":
    """``(pretension, witness, top)`` from :func:`encode_ray`'s record; ``ValueError`` naming
    what is malformed, or when the generator columns do not commute (:func:`commute_problem`).
    The caller verifies what it reads (and checks that the heaps without moves map to the
    identity, :func:`moveless_problem`, which needs the game's moves)."""
    from cgtalg.quotients.rays import RayPretension, RayRules

    try:
        if rec.get("format") != FORMAT:
            raise ValueError(f"format {rec.get('format')!r}, not {FORMAT}")
        u, v, top, nR = int(rec["u"]), int(rec["v"]), int(rec["top"]), int(rec["order_r"])
        rules = RayRules(**{k: int(rec["rules"][k]) for k in ("q", "K", "p", "K2", "s", "m0")})
        row = [int(i) for i in rec["row"]]
        cols = np.frombuffer(zlib.decompress(base64.b64decode(rec["cols"])), dtype="<i4")
        shape = tuple(int(x) for x in rec["F_shape"])
        bits = np.frombuffer(zlib.decompress(base64.b64decode(rec["F"])), dtype=np.uint8)
        witness = full_witness(rec["witness"])
    except ValueError:
        raise
    except (KeyError, TypeError, AttributeError, IndexError, zlib.error, ArgumentError) as exc:
        raise ValueError(f"a malformed record ({type(exc).__name__}: {exc})") from None
    k = max(row) + 1 if row else 0
    if not (0 < u < v <= top == len(row) - 1) or row[u] != -1 or row[v] != -1 or nR < 1:
        raise ValueError("heaps u, v, top and the rows do not match")
    try:
        us = tuple(int(h) for h in rec.get("u_class", [u]))
        vs = tuple(int(h) for h in rec.get("v_class", [v]))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"malformed classes of counted heaps ({type(exc).__name__}: {exc})") from None
    why = check_classes(u, v, row, us, vs)
    if why is not None:
        raise ValueError(why)
    if sorted(set(i for i in row if i >= 0)) != list(range(k)) or cols.size != k * nR:
        raise ValueError("the columns do not match the rows")
    cols = cols.reshape(k, nR).astype(np.int32)
    if cols.size and (cols.min() < 0 or cols.max() >= nR):
        raise ValueError("a column names an element outside R")
    if shape != (nR,) + rules.table_shape or bits.size * 8 < nR * shape[1] * shape[2]:
        raise ValueError("the table does not have the shape the rules need")
    F = np.unpackbits(bits)[: nR * shape[1] * shape[2]].astype(bool).reshape(shape)
    why = commute_problem(cols)
    if why is not None:
        raise ValueError(why)
    mixed = _read_mixed(rec, u, v, top, row, us, vs)
    words = _least_words(cols, row, [m[0] for m in mixed])
    if words is None:
        raise ValueError("the heaps do not generate R")
    if not 0 <= witness[0] < nR:
        raise ValueError("the witness names an element outside R")
    counted = None
    if "counted" in rec:
        try:
            cn = rec["counted"]
            counted = (int(cn["heap"]), int(cn["cap"]), np.asarray([int(c) for c in cn["count"]], dtype=np.int64))
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"a malformed counted heap ({type(exc).__name__}: {exc})") from None
    if counted is not None and counted[0] in {m[0] for m in mixed}:
        raise ValueError(f"the counted heap {counted[0]} cannot be mixed")
    pre = RayPretension(u, v, np.ascontiguousarray(cols), row, words, F, rules, counted, (us, vs), mixed or None)
    if counted is not None:
        from cgtalg.quotients.rays_counted import counted_problem

        why = counted_problem(pre)
        if why is not None:
            raise ValueError(why)
    return pre, witness, top


def _read_mixed(rec: dict, u: int, v: int, top: int, row: Sequence[int], us: Sequence[int],
                vs: Sequence[int]) -> tuple[tuple[int, int, int], ...]:
    """``rec["mixed"]`` (absent: none): ``[h, α, β]`` sorted by distinct heaps ``1 .. top`` outside
    the classes, ``1 <= α + β <= 4`` (``α, β >= 0``), each with a row (its element of ``R``)."""
    raw = rec.get("mixed", [])
    try:
        mixed = tuple((int(h), int(al), int(be)) for h, al, be in raw)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"malformed mixed heaps ({type(exc).__name__}: {exc})") from None
    hs = [m[0] for m in mixed]
    if hs != sorted(set(hs)):
        raise ValueError(f"the mixed heaps {hs} are not sorted without repetitions")
    for h, al, be in mixed:
        if not 1 <= h <= top or h in us or h in vs:
            raise ValueError(f"the mixed heap {h} is not a heap 1 .. {top} outside the classes")
        if al < 0 or be < 0 or not 1 <= al + be <= 4:
            raise ValueError(f"the mixed heap {h} counts ({al}, {be}) copies: need α, β >= 0, 1 <= α + β <= 4")
        if row[h] < 0:
            raise ValueError(f"the mixed heap {h} has no element of R (row −1)")
    return mixed


# -- the heaps without a move ---------------------------------------------------------------------
def moveless_problem(pre: "RayPretension", options: Sequence[Sequence[tuple[int, ...]]]) -> str | None:
    """Why some heap without moves does not map to the identity ``(1, 0, 0)`` (None when every
    one does): such a heap is the empty game, and the verification, which never moves in it,
    would not notice."""
    ident = np.arange(pre.order_r)
    for h in range(min(len(pre.row), len(options))):
        if options[h]:
            continue
        if pre.row[h] < 0 or pre.lift(h) is not None or not np.array_equal(pre.cols[pre.row[h]], ident):
            return f"heap {h} has no move but does not map to the identity"
    return None
