"""Reading an infinite misère quotient certificate (``"kind": "infinite-misere-quotient"``):
the fields decoded into a :class:`RayCertificate`, with ``Malformed`` naming the field when one
is missing or unreadable. Nothing is checked here beyond the shape of the data; the lemmas that
make the data a proof are in :mod:`cgtalg.referee.rays` (its docstring), which re-exports the
names of this module. Standard library, numpy and the referee only.

The counted heaps. ``ray.u`` and ``ray.v`` are the least heaps of two classes, ``ray.u_class``
and ``ray.v_class`` (optional; absent means ``[u]`` and ``[v]``): sorted lists of distinct heaps
``1 .. top``, disjoint, every heap of the first mapping to ``(1, 1, 0)`` and of the second to
``(1, 0, 1)`` (their ``row`` entry is −1; :func:`cgtalg.referee.rays.structure` checks that the
heaps with row −1 are exactly the class heaps).

The mixed heaps. ``ray.mixed`` (optional) is a list ``[[h, alpha, beta], ...]``, sorted by ``h``
without repetitions: heap ``h`` maps to ``(ρ(h), alpha, beta)``, counted as ``alpha`` copies of
``u`` and ``beta`` of ``v`` *and* carrying the element ``ρ(h)`` of ``R`` (its column
``cols[row[h]]``). Read here (``Malformed`` otherwise): three integers each; ``1 <= h <= top``;
``h`` neither ``u`` nor ``v`` nor in a class nor the counted heap; ``alpha, beta >= 0`` with
``1 <= alpha + beta <= 4``; ``row[h] >= 0``; and ``h`` has a move (a heap without one must map to
the identity, Theorem 3's hypothesis). The heaps that are neither in a class nor mixed are the
*generators*: they alone generate ``R`` (Lemma 1) and spell the least words.
"""

from __future__ import annotations

import base64
import binascii
import zlib
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cgtalg.referee._verdict import Malformed
from cgtalg.referee.heaps import HeapRules, heap_rules
from cgtalg.referee.ray_counted import read_counted

__all__ = ["recognise", "read", "RayCertificate", "Rules", "KIND", "MAX_ENTRIES"]

#: the ``kind`` of the certificate
KIND = "infinite-misere-quotient"
#: the largest data the referee inflates (entries of the columns, bits of F)
MAX_ENTRIES = 50_000_000
_RULE_KEYS = ("q", "K", "p", "K2", "s", "m0")


def _is_certificate(c: Any) -> bool:
    return isinstance(c, dict) and c.get("kind") == KIND


def recognise(doc: dict) -> bool:
    """The certificate itself, or a document holding it under ``"certificate"``."""
    return _is_certificate(doc) or _is_certificate(doc.get("certificate"))


def _split(doc: dict) -> tuple[dict | None, dict]:
    if _is_certificate(doc):
        return None, doc
    return doc, doc["certificate"]


def _get(d: Any, key: str, where: str) -> Any:
    if not isinstance(d, dict) or key not in d:
        raise Malformed(f"{where} has no field {key!r}")
    return d[key]


def _int(d: Any, key: str, where: str) -> int:
    x = _get(d, key, where)
    if isinstance(x, bool) or not isinstance(x, int):
        raise Malformed(f"{where}.{key}: an integer, not {x!r}"[:200])
    return x


def _blob(d: Any, key: str, where: str, size: int) -> bytes:
    """Base64 of zlib of ``size`` bytes (at most that many are inflated)."""
    text = _get(d, key, where)
    if not isinstance(text, str):
        raise Malformed(f"{where}.{key}: base64 text, not {type(text).__name__}")
    try:
        z = zlib.decompressobj()
        raw = z.decompress(base64.b64decode(text, validate=True), size + 1)
    except (binascii.Error, ValueError, zlib.error) as exc:
        raise Malformed(f"{where}.{key}: not base64 of zlib data ({exc})") from None
    if len(raw) != size or z.unconsumed_tail:
        raise Malformed(f"{where}.{key}: {len(raw)}{'+' if z.unconsumed_tail else ''} bytes, "
                        f"not the {size} its shape needs")
    return raw


@dataclass
class Rules:
    """The reduction ``red`` (module docstring)."""

    q: int
    K: int
    p: int
    K2: int
    s: int
    m0: int

    def problem(self) -> str | None:
        if min(self.q, self.K, self.p, self.K2, self.s, self.m0) < 0:
            return "every rule is a number >= 0"
        if not 1 <= self.q <= self.K + 1:
            return f"q = {self.q} is not in 1 .. K + 1 = {self.K + 1}"
        if not 1 <= self.p <= self.K2 + 1:
            return f"p = {self.p} is not in 1 .. K2 + 1 = {self.K2 + 1}"
        if not 1 <= self.s <= self.m0 + 1:
            return f"s = {self.s} is not in 1 .. m0 + 1 = {self.m0 + 1}"
        return None

    @property
    def shape(self) -> tuple[int, int]:
        return self.m0 + self.K2 + 1, self.m0 + self.K + 1

    def red(self, a: int, b: int) -> tuple[int, int]:
        if b - a > self.K:
            b -= self.q * (-(-(b - a - self.K) // self.q))
        elif a - b > self.K2:
            a -= self.p * (-(-(a - b - self.K2) // self.p))
        if min(a, b) > self.m0:
            k = -(-(min(a, b) - self.m0) // self.s)
            a, b = a - k * self.s, b - k * self.s
        return a, b


@dataclass
class RayCertificate:
    """The decoded data of a certificate (not yet checked): the game's rules as the referee reads
    them, ``u``, ``v``, ``top``, the columns ``cols`` (``k × |R|``), ``row``, the rules and
    ``F``. :meth:`is_p` is the outcome the certificate predicts."""

    game: str
    moves: HeapRules
    u: int
    v: int
    top: int
    cols: np.ndarray
    row: list[int]
    rules: Rules
    F: np.ndarray
    record_witness: tuple[int, ...]
    #: ``(n, cap, count)``: the top heap counted in R (:mod:`cgtalg.referee.ray_counted`)
    counted: tuple | None = None
    #: the ``u``-class and the ``v``-class (sorted; ``u``, ``v`` the least): the heaps counted as
    #: copies of ``u`` and of ``v``; empty means ``(u,)`` and ``(v,)``
    us: tuple[int, ...] = ()
    vs: tuple[int, ...] = ()
    #: the mixed heaps ``h -> (alpha, beta)`` (``ray.mixed``); None when the record has no such key
    mixed: dict[int, tuple[int, int]] | None = None
    _words: list | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self.us = tuple(self.us) or (self.u,)
        self.vs = tuple(self.vs) or (self.v,)

    def lift(self, h: int) -> tuple[int, int] | None:
        """The copies of ``u`` and ``v`` heap ``h`` counts as: ``(1, 0)`` for a heap of the
        ``u``-class, ``(0, 1)`` of the ``v``-class, ``(alpha, beta)`` for a mixed heap, else None
        (a generator: the heap maps into ``R`` alone)."""
        if h in self.us:
            return (1, 0)
        if h in self.vs:
            return (0, 1)
        return None if self.mixed is None else self.mixed.get(h)

    def in_class(self, h: int) -> bool:
        """Whether ``h`` is a heap of the ``u``-class or the ``v``-class (it has no column)."""
        return h in self.us or h in self.vs

    def is_mixed(self, h: int) -> bool:
        return self.mixed is not None and h in self.mixed

    @property
    def classes_text(self) -> str:
        """``u = 5 (u-class {5, 6})``, the classes shown only when they hold more than one heap."""
        def one(name: str, h: int, cls: tuple[int, ...]) -> str:
            return f"{name} = {h}" + ("" if len(cls) == 1 else f" ({name}-class {{{', '.join(map(str, cls))}}})")
        return f"{one('u', self.u, self.us)} and {one('v', self.v, self.vs)}"

    @property
    def order_r(self) -> int:
        return int(self.cols.shape[1])

    def p_at(self, a: int, b: int) -> np.ndarray:
        """Whether ``(r, a, b)`` is in ``P``, for every ``r``."""
        ra, rb = self.rules.red(a, b)
        return self.F[:, ra, rb]

    def image(self, position: Any, where: str = "position") -> tuple[int, int, int]:
        r, a, b = 0, 0, 0
        for h in position:
            if isinstance(h, bool) or not isinstance(h, int) or not 0 <= h <= self.top:
                raise Malformed(f"{where}: {h!r} is not a heap 0 .. {self.top}")
            if h in self.us:
                a += 1
            elif h in self.vs:
                b += 1
            else:
                r = int(self.cols[self.row[h], r])
                if self.is_mixed(h):
                    al, be = self.mixed[h]      # type: ignore[index]
                    a, b = a + al, b + be
        return r, a, b

    def is_p(self, position: Any) -> bool:
        """The predicted misère outcome of a position of heaps ``<= top`` (True: P)."""
        r, a, b = self.image(position)
        return bool(self.p_at(a, b)[r])

    def words(self) -> list[tuple[int, ...]]:
        """A least position of generators (heaps neither in a class nor mixed) of each element,
        breadth first; None for an element they do not reach."""
        if self._words is None:
            heap_of: dict[int, int] = {}
            for h, i in enumerate(self.row):
                if i >= 0 and not self.is_mixed(h):
                    heap_of.setdefault(i, h)
            words: list = [None] * self.order_r
            words[0] = ()
            frontier = [0]
            while frontier:
                nxt = []
                for i in sorted(heap_of):
                    for x, y in zip(frontier, self.cols[i][frontier].tolist()):
                        if words[y] is None:
                            words[y] = tuple(sorted(words[x] + (heap_of[i],)))
                            nxt.append(y)
                frontier = nxt
            self._words = words
        return self._words

    def show(self, r: int, a: int, b: int, extra: tuple[int, ...] = ()) -> str:
        w = self.words()[r]
        heaps = sorted((w or ()) + (self.u,) * a + (self.v,) * b + extra)
        return " + ".join(map(str, heaps)) or "0"


def read(doc: dict) -> RayCertificate:
    """The certificate's data, decoded (``Malformed`` naming the field when unreadable)."""
    if not isinstance(doc, dict) or not recognise(doc):
        raise Malformed(f"not a certificate of kind {KIND!r}")
    _outer, cert = _split(doc)
    if cert.get("format") != 1:
        raise Malformed(f"certificate.format: {cert.get('format')!r}, not 1")
    game = _get(cert, "game", "certificate")
    try:
        moves = heap_rules(game)
    except Malformed as exc:
        raise Malformed(f"certificate.game: {exc}") from None
    ray = _get(cert, "ray", "certificate")
    where = "certificate.ray"
    u, v, top, nR = (_int(ray, k, where) for k in ("u", "v", "top", "order_r"))
    if not 0 < u < v <= top:
        raise Malformed(f"{where}: heaps u = {u}, v = {v}, top = {top} need 0 < u < v <= top")
    if not 1 <= nR <= MAX_ENTRIES:
        raise Malformed(f"{where}.order_r: {nR} is not an order the referee reads")
    rules_d = _get(ray, "rules", where)
    rules = Rules(*(_int(rules_d, k, where + ".rules") for k in _RULE_KEYS))
    row = _get(ray, "row", where)
    if not isinstance(row, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in row):
        raise Malformed(f"{where}.row: a list of integers")
    if len(row) != top + 1:
        raise Malformed(f"{where}.row: {len(row)} entries for the heaps 0 .. top = {top}")
    k = max(row) + 1
    if min(row) < -1 or k < 0 or k * nR > MAX_ENTRIES:
        raise Malformed(f"{where}.row: entries are −1 or column numbers")
    cols = np.frombuffer(_blob(ray, "cols", where, 4 * k * nR), dtype="<i4").astype(np.int64).reshape(k, nR)
    shape = _get(ray, "F_shape", where)
    if (not isinstance(shape, list) or len(shape) != 3
            or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 1 for x in shape)):
        raise Malformed(f"{where}.F_shape: three positive integers")
    bits = shape[0] * shape[1] * shape[2]
    if bits > MAX_ENTRIES:
        raise Malformed(f"{where}.F_shape: {bits} entries, more than the referee reads")
    raw = np.frombuffer(_blob(ray, "F", where, (bits + 7) // 8), dtype=np.uint8)
    F = np.unpackbits(raw)[:bits].astype(bool).reshape(shape)
    wit = _get(ray, "witness", where)
    if not (isinstance(wit, list) and len(wit) in (2, 8) and all(isinstance(x, int) for x in wit)):
        raise Malformed(f"{where}.witness: [element, t] or [element, t, M, a_class, b_class, a_from, b_from, sense]")
    if len(wit) == 2:
        wit = list(wit) + [1, 0, 0, 0, 1, 1]
    counted = read_counted(ray, nR, top, where)
    us, vs = _read_classes(ray, u, v, top, where)
    mixed = _read_mixed(ray, u, v, top, us + vs, counted, row, moves, where)
    return RayCertificate(str(game), moves, u, v, top, cols, list(row), rules, F, tuple(wit), counted, us, vs,
                          mixed)


def _read_mixed(ray: dict, u: int, v: int, top: int, classes: tuple[int, ...], counted: tuple | None,
                row: list[int], moves: HeapRules, where: str) -> dict[int, tuple[int, int]] | None:
    """``ray["mixed"]`` (module docstring): ``h -> (alpha, beta)``, or None without the key."""
    if "mixed" not in ray:
        return None
    w = f"{where}.mixed"
    entries = ray["mixed"]
    if not isinstance(entries, list):
        raise Malformed(f"{w}: a list of [heap, alpha, beta], not {entries!r}"[:200])
    out: dict[int, tuple[int, int]] = {}
    for k, e in enumerate(entries):
        if (not isinstance(e, list) or len(e) != 3
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in e)):
            raise Malformed(f"{w}[{k}]: a list of three integers [heap, alpha, beta], not {e!r}"[:200])
        h, al, be = e
        if out and h <= max(out):
            raise Malformed(f"{w}[{k}]: heap {h} after heap {max(out)}: the list is not sorted by heap without "
                            "repetitions")
        if not 1 <= h <= top:
            raise Malformed(f"{w}[{k}]: heap {h} is not a heap 1 .. top = {top}")
        if h in (u, v) or h in classes:
            name = "u" if h == u else "v" if h == v else "a heap of the u-class or the v-class"
            raise Malformed(f"{w}[{k}]: heap {h} is {name}: a counted heap is not also mixed")
        if counted is not None and h == counted[0]:
            raise Malformed(f"{w}[{k}]: heap {h} is the counted heap (certificate.ray.counted), not a mixed one")
        if al < 0 or be < 0 or not 1 <= al + be <= 4:
            raise Malformed(f"{w}[{k}]: heap {h} counts as alpha = {al}, beta = {be} copies of u and v: need "
                            "alpha, beta >= 0 and 1 <= alpha + beta <= 4")
        if row[h] < 0:
            raise Malformed(f"{w}[{k}]: heap {h} has row −1, but a mixed heap carries an element of R (a column)")
        if not moves.options(h):
            raise Malformed(f"{w}[{k}]: heap {h} has no move, so it must map to the identity (Theorem 3), "
                            "not be mixed")
        out[h] = (al, be)
    return out


def _read_classes(ray: dict, u: int, v: int, top: int, where: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``ray["u_class"]`` and ``ray["v_class"]`` (absent: ``[u]``, ``[v]``): sorted lists of
    distinct heaps ``1 .. top`` led by ``u`` (``v``), disjoint. Whether the heaps with row −1 are
    exactly these is checked with the structure (:func:`cgtalg.referee.rays.structure`)."""
    out = []
    for name, least in (("u", u), ("v", v)):
        key = f"{name}_class"
        w = f"{where}.{key}"
        cls = ray.get(key, [least])
        if not isinstance(cls, list) or not cls or not all(isinstance(h, int) and not isinstance(h, bool)
                                                           for h in cls):
            raise Malformed(f"{w}: a non-empty list of heaps, not {cls!r}"[:200])
        if any(x >= y for x, y in zip(cls, cls[1:])):
            raise Malformed(f"{w}: {cls} is not sorted without repetitions"[:200])
        if cls[0] != least:
            raise Malformed(f"{w}: starts with {cls[0]}, but {name} = {least} must be its least heap")
        if cls[-1] > top:
            raise Malformed(f"{w}: heap {cls[-1]} is not a heap 1 .. top = {top}")
        out.append(tuple(cls))
    both = sorted(set(out[0]) & set(out[1]))
    if both:
        raise Malformed(f"{where}.v_class: heap {both[0]} is also in {where}.u_class: the classes are disjoint")
    return out[0], out[1]
