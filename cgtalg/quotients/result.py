"""The result of a misère-quotient computation: :class:`MisereQuotient` (the bipartite monoid
``(Q, P)`` with the pretending function Φ), its presentation by generators and relations, and
isomorphism of bipartite monoids (Plambeck & Siegel, JCTA 2008)."""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from cgtalg.core.lazynp import bool_types, np

from cgtalg.errors import ComputationLimitError, RulesetError

__all__ = ["MisereQuotient", "Presentation"]

# -- the result ----------------------------------------------------------------------------------
_LETTERS = "abcdefghijklmnopqrstuvwxyz"


@dataclass
class MisereQuotient:
    """The misère quotient ``Q_n`` of a heap game (heaps of at most ``max_heap`` tokens), or of
    the whole game when ``final`` (certified by the periodicity theorem).

    Attributes
    ----------
    table : numpy.ndarray
        Multiplication table; element 0 is the identity (the class of the empty position).
    P : numpy.ndarray of bool
        The P-portion.
    phi : list of int
        The pretending function: ``phi[h]`` is the class of a heap of ``h`` tokens.
    """

    game: str
    max_heap: int
    table: np.ndarray
    P: np.ndarray
    phi: list[int]
    final: bool = False
    period: tuple[int, int] | None = None  # (preperiod n0, period p) of Φ when final
    checked_to: int | None = None
    seconds: float = 0.0
    _pres: Any = field(default=None, repr=False)
    #: why a computation stopped before its goal (budget), when the result is partial
    note: str | None = None
    #: the heap ``v`` from which ``Q_n`` is proved infinite (``Q_n`` infinite for every
    #: ``n >= v``), when this is the last finite partial quotient ``Q_{v−1}`` and the proof is known
    infinite_from: int | None = None
    #: the proof of that, a JSON-ready certificate (:mod:`cgtalg.quotients.infinite`;
    #: ``cgtalg check`` reads it)
    certificate: dict | None = field(default=None, repr=False)
    #: what a stopped counting run proved about the next quotient: ``{"heap": N + 1,
    #: "at_least": L, "copies": B}`` (``|Q_{N+1}| >= L``, its candidate right up to ``B`` copies
    #: of heap ``N + 1``; :class:`cgtalg.quotients.count.CountLevel`), when one ran
    next_bound: dict | None = None
    #: when final by the normal tail (:mod:`cgtalg.quotients.tail`) rather than by Φ's period:
    #: its statement; Φ is verified directly up to ``checked_to`` and held further (one Grundy
    #: period past the preperiod), and the certificate carries Φ up to ``checked_to`` only
    tail: dict | None = None
    #: when a construction stopped short and the normal tail's conditions 1–3 hold on this
    #: ``Q_N`` (:func:`cgtalg.quotients.tail.normal_tie`): the whole quotient is ``Q_N``
    #: extended by one element per nim-value the Grundy values of heaps above ``N`` add, so it
    #: is finite exactly when those are bounded (``{"theorem", "verified_to", "outside", "ideal"}``)
    tie: dict | None = None

    def covers(self, heaps: Iterable[int]) -> bool:
        """Whether the quotient decides every heap of ``heaps`` (``heap <= max_heap``, or any
        heap once Φ is certified periodic)."""
        if self.final and self.period is not None:
            return True
        top = len(self.phi) - 1
        return all(int(h) <= top for h in heaps)

    @property
    def order(self) -> int:
        """``|Q|``."""
        return len(self.table)

    def __len__(self) -> int:
        return self.order

    @property
    def p_portion(self) -> list[int]:
        return [x for x, b in enumerate(self.P) if b]

    def mul(self, x: int, y: int) -> int:
        return int(self.table[x][y])

    def phi_of(self, heap: int) -> int:
        """``Φ(heap)``; beyond ``max_heap`` from the certified period. A heap that is not a
        non-negative integer raises :class:`~cgtalg.errors.RulesetError`."""
        if isinstance(heap, bool_types()) or not isinstance(heap, numbers.Integral) or heap < 0:
            shown = repr(heap) if len(repr(heap)) <= 40 else repr(heap)[:37] + "..."
            raise RulesetError(f"{self.game}: a heap is a non-negative integer, not {shown}")
        heap = int(heap)
        if heap < len(self.phi):
            return self.phi[heap]
        if self.final and self.period is not None:
            n0, p = self.period
            return self.phi[n0 + (heap - n0) % p]
        raise ComputationLimitError(
            f"{self.game}: Φ is known for heaps <= {len(self.phi) - 1} only "
            "(no certified period); compute a larger quotient")

    def image(self, heaps: Iterable[int]) -> int:
        x = 0
        for h in heaps:
            x = int(self.table[x][self.phi_of(h)])
        return x

    def is_p(self, heaps: Iterable[int]) -> bool:
        """Whether the position is a misère P-position (its image lies in ``P``)."""
        return bool(self.P[self.image(heaps)])

    # -- presentation ------------------------------------------------------------------------
    def presentation(self) -> "Presentation":
        if self._pres is None:
            self._pres = _presentation(self)
        return self._pres

    def is_tame(self) -> bool:
        """True when the quotient is that of misère Nim on some heaps: ``T_n`` for some ``n``
        (:meth:`tame_index`)."""
        return self.tame_index() is not None

    def tame_index(self, max_n: int = 10) -> int | None:
        """``n`` when the quotient is isomorphic to ``T_n``, the quotient of misère Nim on heaps
        ``< 2^n`` (Plambeck–Siegel 2008, §4: ``T_1 = ⟨a | a² = 1⟩`` of order 2 and ``T_n`` of
        order ``2^n + 2`` for ``n >= 2``, ``T_2 = ⟨a, b | a² = 1, b³ = b⟩``), else None (not
        tame, or tame beyond ``T_max_n``)."""
        for n in range(1, max_n + 1):
            if self.order != (2 if n == 1 else 2 ** n + 2):
                continue
            if _isomorphic(self.table, self.P, *tame_quotient(n)):
                return n
        return None

    def isomorphic(self, other: "MisereQuotient") -> bool:
        """Isomorphism of bipartite monoids (a multiplication- and P-preserving bijection)."""
        return _isomorphic(self.table, self.P, other.table, other.P)

    def word(self, x: int) -> str:
        return self.presentation().words[x]

    def __repr__(self) -> str:
        """Short: the game, the reach, ``|Q|`` and ``|P|`` (``str()`` gives the presentation and
        Φ, ``to_dict()`` the table)."""
        reach = "final" if self.final else f"max_heap={self.max_heap}"
        return (f"MisereQuotient({self.game!r}, {reach}, order={self.order}, "
                f"p_count={len(self.p_portion)})")

    def __str__(self) -> str:
        pr = self.presentation()
        head = f"misère quotient of {self.game} ({'final' if self.final else f'heaps <= {self.max_heap}'})"
        lines = [head, f"|Q| = {self.order}, |P| = {len(self.p_portion)}",
                 f"Q = {pr.text}", "P = {" + ", ".join(pr.words[x] for x in self.p_portion) + "}",
                 "Φ = " + " ".join(pr.words[x] for x in self.shown_phi)
                 + (" …" if len(self.shown_phi) < len(self.phi) else "")]
        if self.tail:
            lines.append(f"Φ verified to heap {self.checked_to}; beyond, heap n maps to the element of the ideal "
                         f"with nim-value G(n) (normal tail: heaps above {self.tail['outside']} are played as in "
                         f"normal play; Grundy period {self.tail['grundy'][1]} from heap {self.tail['grundy'][0]})")
        if self.final and self.period:
            lines.append(f"Φ periodic from heap {self.period[0]} with period {self.period[1]} "
                         f"(checked to heap {self.checked_to})")
        n = self.tame_index() if self.order <= 1026 else None
        if n is not None:
            lines.append(f"tame: isomorphic to T_{n} (misère Nim on heaps < {2 ** n})")
        if self.infinite_from is not None:
            lines.append(f"infinite: Q_n is infinite for every n >= {self.infinite_from} (proved; "
                         "the certificate is in to_dict())")
        if self.next_bound is not None:
            b = self.next_bound
            lines.append(next_bound_text(b))
        if self.tie:
            lines.append(tie_text(self.tie))
        if self.note:
            lines.append(f"partial: {self.note}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        """A card: order, ``|P|``, presentation, P-portion, Φ (the first heaps, the rest folded),
        periodicity and tameness; the multiplication table folded in a ``<details>``."""
        return quotient_html(self, f"misère quotient of {self.game}")

    @property
    def shown_phi(self) -> list[int]:
        """Φ as printed and certified: up to ``checked_to`` when final by the normal tail (the
        rest follows from the Grundy sequence), else all of ``phi``."""
        return self.phi[: self.checked_to + 1] if self.tail and self.checked_to is not None else self.phi

    def to_dict(self) -> dict:
        pr = self.presentation()
        phi = self.shown_phi
        return {"game": self.game, "max_heap": len(phi) - 1 if self.tail else self.max_heap, "order": self.order,
                "p_portion": [pr.words[x] for x in self.p_portion],
                "presentation": pr.text, "generators": pr.generators, "relations": pr.relations,
                "phi": [pr.words[x] for x in phi], "final": self.final,
                "period": list(self.period) if self.period else None,
                "checked_to": self.checked_to, "table": _rows(self.table),
                "P": [bool(b) for b in self.P], "phi_elements": list(phi),
                "tame": self.is_tame(), "tame_index": self.tame_index(),
                "seconds": round(self.seconds, 3), "note": self.note,
                "infinite_from": self.infinite_from, "certificate": self.certificate,
                "next_bound": self.next_bound, **({"tail": self.tail} if self.tail else {}),
                **({"normal_tie": self.tie} if self.tie else {})}


def tie_text(tie: dict) -> str:
    """A normal tie (:attr:`MisereQuotient.tie`) in words."""
    N = tie["verified_to"]
    return (f"tied to normal play: every heap above {tie['outside']} lands in an ideal of {tie['ideal']} elements "
            f"played as in normal play, so the quotient of the whole game is Q_{N} extended by one element "
            f"for each nim-value the Grundy values of heaps above {N} add to those of heaps <= {N}: it is "
            "finite exactly when the Grundy values are bounded (a question of normal play)")


def quotient_html(q: "MisereQuotient", title: str, rows: Sequence[tuple[str, Any]] = (),
                  parts: Sequence[str] = ()) -> str:
    """The notebook card of a misère quotient (and of the quotients of positions built on one):
    ``title``, ``|Q|``, ``|P|``, the presentation, the P-portion, Φ on the first 24 heaps (all
    of Φ folded), periodicity, tameness, extra ``rows``; the multiplication table (as words,
    at most 66 elements) folded; then ``parts``."""
    from cgtalg.core.display import Html, card, details, esc, grid_html

    pr = q.presentation()
    reach = "final (the whole game)" if q.final else f"heaps ≤ {len(q.phi) - 1}"
    out: list[tuple[str, Any]] = [
        ("reach", reach), ("|Q|", q.order), ("|P|", len(q.p_portion)),
        ("presentation", Html(f"<code>{esc(pr.text)}</code>")),
        ("P", Html("<code>{" + esc(", ".join(pr.words[x] for x in q.p_portion)) + "}</code>")),
    ]
    phi = [pr.words[x] for x in getattr(q, "shown_phi", q.phi)]
    shown = " ".join(phi[:24]) + (" ..." if len(phi) > 24 else "")
    phi_html = f"<code>{esc(shown)}</code>"
    if len(phi) > 24:
        phi_html += details(f"Φ on all {len(phi)} heaps",
                            grid_html(["heap", "Φ"], ([h, w] for h, w in enumerate(phi)), max_rows=400))
    out.append(("Φ (heap 0, 1, ...)", Html(phi_html)))
    if q.final and q.period:
        out.append(("Φ periodic", f"from heap {q.period[0]}, period {q.period[1]} (checked to heap {q.checked_to})"))
    n = q.tame_index() if q.order <= 1026 else None
    if n is not None:
        out.append(("tame", f"isomorphic to T_{n} (misère Nim on heaps < {2 ** n})"))
    out.extend(rows)
    if q.note:
        out.append(("partial", q.note))
    folded = []
    if q.order <= 66:
        words = pr.words
        table = grid_html(["·"] + [words[y] for y in range(q.order)],
                          ([words[x]] + [words[int(q.table[x][y])] for y in range(q.order)] for x in range(q.order)))
        folded.append(details(f"multiplication table ({q.order} × {q.order})", table))
    else:
        folded.append(details("multiplication table", f"{q.order} elements: too large to show (to_dict() has it)"))
    return card(title, out, list(folded) + list(parts), kind="quotient")


@dataclass
class Presentation:
    """A presentation of a misère quotient: generators, relations (a complete rewriting
    system) and the normal-form word of each element; ``text`` is ``⟨a, b | a² = 1, ...⟩``."""

    generators: list[str]
    relations: list[str]
    words: list[str]
    text: str

    def __repr__(self) -> str:
        from cgtalg.core.display import short

        return f"Presentation({short(self.text, 180)!r})"

    def _repr_html_(self) -> str:
        from cgtalg.core.display import esc

        return f"<code class='cgtalg-presentation'>{esc(self.text)}</code>"


def _word_text(exps: Sequence[int], names: Sequence[str]) -> str:
    parts = []
    for e, n in zip(exps, names):
        if e == 1:
            parts.append(n)
        elif e > 1:
            parts.append(f"{n}{_sup(e)}")
    return "".join(parts) or "1"


_SUPS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def _sup(e: int) -> str:
    return str(e).translate(_SUPS)


def _presentation(q: MisereQuotient) -> Presentation:
    """Generators: the images of the heaps not in the submonoid generated by smaller heaps;
    normal forms: graded-lex least words; relations: the minimal words that are not normal
    forms, each equal to its normal form (a complete rewriting system, like the literature's).

    A word is keyed by its exponents read as digits in base ``order + 1`` (no exponent of a
    normal form or of a minimal non-normal word exceeds the order), so a divisor is one
    subtraction: ``O(order · k²)`` for ``k`` generators."""
    t = _rows(q.table)
    gens: list[int] = []
    span = {0}
    for x in q.phi:
        x = int(x)
        if x in span:
            continue
        gens.append(x)
        frontier = list(span)
        while frontier:  # the span grows by the new generator's multiples
            y = frontier.pop()
            row = t[y]
            for g in gens:
                z = row[g]
                if z not in span:
                    span.add(z)
                    frontier.append(z)
    names = list(_LETTERS[: len(gens)]) if len(gens) <= 26 else [f"g{i}" for i in range(len(gens))]
    k = len(gens)
    unit = [(q.order + 1) ** i for i in range(k)]
    one = tuple([0] * k)
    normal: dict[int, tuple[int, ...]] = {0: one}   # element -> its normal form's exponents
    elem_of: dict[int, int] = {0: 0}                # normal form's key -> element
    relations: list[str] = []
    # breadth-first by degree, lexicographic within a degree (a before b)
    frontier = [(0, one)]
    while frontier:
        nxt: dict[int, tuple[int, ...]] = {}
        for key, w in frontier:
            for i in range(k):
                key2 = key + unit[i]
                if key2 not in nxt:
                    nxt[key2] = w[:i] + (w[i] + 1,) + w[i + 1:]
        new_frontier = []
        for key2, w2 in sorted(nxt.items(), key=lambda kw: tuple(-e for e in kw[1])):
            # a candidate only if all its immediate divisors are normal forms
            first = -1
            for i in range(k):
                if w2[i] and key2 - unit[i] not in elem_of:
                    break
                if w2[i] and first < 0:
                    first = i
            else:
                x = t[elem_of[key2 - unit[first]]][gens[first]]
                if x in normal:
                    relations.append(f"{_word_text(w2, names)}={_word_text(normal[x], names)}")
                else:
                    normal[x] = w2
                    elem_of[key2] = x
                    new_frontier.append((key2, w2))
        frontier = new_frontier
    words = [_word_text(normal[x], names) for x in range(q.order)]
    text = "⟨" + ",".join(names) + (" | " + ", ".join(relations) if relations else "") + "⟩"
    return Presentation(names, relations, words, text)


def _rows(table: Any) -> list[list[int]]:
    """A table (a numpy array or a list of rows) as a list of rows of ints."""
    tolist = getattr(table, "tolist", None)
    return tolist() if tolist is not None else [[int(v) for v in row] for row in table]


def tame_quotient(n: int) -> tuple[list[list[int]], list[bool]]:
    """``T_n``, the misère quotient of Nim on heaps ``< 2^n`` (``n >= 1``), from its description
    (Plambeck & Siegel, JCTA 2008, §4; Conway's theory of misère Nim): a position whose heaps
    are all 0 or 1 is known by the parity of its heaps (elements 0, even: the identity, and 1,
    odd), any other position by its nim-sum ``v`` (element ``2 + v``, ``v < 2^n``; none for
    ``n = 1``). Products add parities and nim-sums (a parity class times a nim-sum class is the
    nim-sum class, shifted by the parity); the P-portion is ``{odd, nim-sum 0}``. As
    ``(table, P)``; tests/test_quotient_tiny.py checks it against the construction of
    misère Nim's quotients."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"T_n is defined for n >= 1, not {n!r}")
    size = 2 if n == 1 else 2 ** n + 2

    def value(x: int) -> tuple[bool, int]:     # (small?, parity or nim-sum)
        return (True, x) if x < 2 else (False, x - 2)

    t = []
    for x in range(size):
        sx, vx = value(x)
        row = []
        for y in range(size):
            sy, vy = value(y)
            row.append((vx ^ vy) if sx and sy else 2 + (vx ^ vy))
        t.append(row)
    P = [x == 1 or x == 2 for x in range(size)]
    return t, P


def _isomorphic(t1: Any, P1: Any, t2: Any, P2: Any) -> bool:
    t1, t2 = _rows(t1), _rows(t2)
    P1, P2 = [bool(b) for b in P1], [bool(b) for b in P2]
    n = len(t1)
    if n != len(t2) or sum(P1) != sum(P2):
        return False
    # generators of Q1 (greedy), then backtrack over images of generators
    gens: list[int] = []
    span = {0}
    for x in range(n):
        if x not in span:
            gens.append(x)
            frontier = list(span)
            while frontier:
                y = frontier.pop()
                for g in gens:
                    z = t1[y][g]
                    if z not in span:
                        span.add(z)
                        frontier.append(z)

    def extend(assign: dict[int, int]) -> bool:
        # closure: map products of assigned generators
        f = {0: 0}
        frontier = [0]
        while frontier:
            y = frontier.pop()
            for g, img in assign.items():
                z = t1[y][g]
                w = t2[f[y]][img]
                if z in f:
                    if f[z] != w:
                        return False
                else:
                    f[z] = w
                    frontier.append(z)
        if any(bool(P1[a]) != bool(P2[b]) for a, b in f.items()):
            return False
        if len(set(f.values())) != len(f):
            return False
        if len(assign) == len(gens):
            return len(f) == n
        g = gens[len(assign)]
        for img in range(n):
            if bool(P2[img]) == bool(P1[g]):
                a2 = dict(assign)
                a2[g] = img
                if extend(a2):
                    return True
        return False

    return extend({})


def next_bound_text(b: dict) -> str:
    """What a stopped run proved about the next quotient (``next_bound``): its exact order, when
    it was built and verified past the order bound, else a lower bound from counting."""
    if b.get("exact"):
        p = f", |P| = {b['p_count']}" if b.get("p_count") is not None else ""
        return (f"next: |Q_{b['heap']}| = {b['at_least']}{p} (built and verified past the order bound; "
                "a larger --max-order builds it again and goes on)")
    return (f"next: |Q_{b['heap']}| >= {b['at_least']} (proved by counting up to {b['copies']} "
            f"copies of heap {b['heap']})")
