"""The misère quotient of the closure of a finite set of impartial forms (Plambeck–Siegel).

For a finite set ``S`` of impartial games let ``cl(S)`` be the set of all their subpositions
(the *closure*) and ``U`` the positions that are finite sums of members of ``cl(S)``. Two
games ``G, H ∈ U`` are *indistinguishable* (in ``U``) when ``o⁻(G + X) = o⁻(H + X)`` for every
``X ∈ U``; the classes form the misère quotient ``Q(S)`` with its P-portion (Plambeck 2005;
Plambeck & Siegel, JCTA 2008, §2: the quotient of any closed set of games). CGSuite orders the
positions of the set's DAG and hands them to MisereSolver one by one; here the forms are
reduced first, so that far fewer "heaps" reach the construction:

1. every position of ``cl(S)`` is replaced by its misère canonical form
   (:mod:`cgtalg.misere.canonical`): misère-equal games are equal in every universe, so the
   positions of one canonical form are one *type*, and a sum's outcome depends only on the
   types of its summands;
2. a type ``t`` that is the sum of other types, ``t = p₁ + … + p_k`` (a partition of ``t``
   into primes, Conway's parts: :func:`cgtalg.misere.parts.misere_partitions`, with every
   ``p_i`` itself a type of ``cl(S)`` ordered before ``t``), is not a generator: it is written
   as that sum wherever it occurs. The universe is unchanged (every ``p_i`` is in it already);
3. the remaining types are the *heaps* of a duck-typed heap ruleset, ordered so that options come
   first (by the least birthday of a literal position of the type in ``cl(S)``): the options of
   heap ``h`` are the types of the options of that position, each written as its tuple of heaps.
   The verified heap-by-heap construction (:func:`cgtalg.quotients.construct.misere_quotient`)
   then gives ``Q(S)``: its verification principle proves that the image of a sum predicts its
   outcome for every sum of heaps, hence for every member of ``U`` (a member is equal to the sum
   of the heaps of its summands' types).

The result (:class:`FormQuotient`) tells which of the given games map to the same element
(indistinguishable in ``U``), the P-portion, and the outcome of any sum of closure positions
(in time linear in the number of summands).

Examples
--------
>>> q = form_quotient(["*2+*2", "{*2}", "*2"])
>>> q.order, q.classes()              # {*2} acts as *2+*2 among these games
(6, [['*2+*2', '{*2}'], ['*2']])
>>> q.outcome(["*2", "*2"]), q.outcome(["{*2}", "*2+*2", "*1"])
('P', 'N')
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from cgtalg.core.game import Game
from cgtalg.core.heap_facts import HeapFacts
from cgtalg.core.notation import parse
from cgtalg.errors import ComputationLimitError, GameKindError, shorten
from cgtalg.misere.canonical import MisereCanonicalForm, misere_canonical_game
from cgtalg.misere.notation import format_misere
from cgtalg.misere.parts import misere_partitions
from cgtalg.quotients.result import MisereQuotient

__all__ = ["form_quotient", "FormQuotient", "FormHeaps", "form_heaps", "QuotientOfPositions"]

#: work budget for the partition search of one type (a type whose partitions cost more is kept whole)
PARTITION_LIMIT = 20_000


def _as_form(g: Any) -> Game:
    """``g`` as a :class:`Game` (game text is parsed); anything else is a GameKindError."""
    if isinstance(g, Game):
        return g
    if isinstance(g, MisereCanonicalForm):
        return g.game
    if isinstance(g, str):
        return parse(g)
    raise GameKindError(f"a misère quotient of forms takes impartial games or their text "
                        f"(such as '*2+*2' or '{{*2}}'), not {shorten(g)}")


class FormHeaps:
    """The types of a closure as a heap ruleset (duck-typed for
    :func:`cgtalg.quotients.construct.misere_quotient`): heap ``0`` is the empty sum, heaps
    ``1..m`` the indecomposable types, ordered so that options come first.

    Attributes
    ----------
    name : str
        ``prefix`` (``forms``) and a digest of the heaps' canonical texts (the store key's game
        name: a record is only read back for the same heaps).
    heaps : list of Game
        ``heaps[h]`` is the canonical form of heap ``h`` (``heaps[0]`` is ``0``).
    parts : dict
        Canonical form id of every type of the closure -> its tuple of heaps.
    """

    #: heaps of game forms: no periodicity theorem applies (cgtalg.core.heap_facts)
    facts = HeapFacts(octal_like=False)

    def __init__(self, forms: Sequence[Game], prefix: str = "forms") -> None:
        closure: dict[int, Game] = {}
        for g in forms:
            for s in g.subpositions():
                closure.setdefault(s.id, s)
        rep: dict[int, Game] = {}       # canonical id -> literal position of least birthday
        canon: dict[int, Game] = {}     # canonical id -> canonical form
        self._canon_of: dict[int, Game] = {}
        for s in closure.values():
            c = misere_canonical_game(s)
            self._canon_of[s.id] = c
            canon[c.id] = c
            if c.id not in rep or s.birthday < rep[c.id].birthday:
                rep[c.id] = s
        order = sorted(canon, key=lambda i: (rep[i].birthday, canon[i].birthday,
                                             format_misere(canon[i], max_chars=400)))
        rank = {i: r for r, i in enumerate(order)}
        self.parts: dict[int, tuple[int, ...]] = {}
        self.heaps: list[Game] = [canon[order[0]]] if canon[order[0]].is_zero else []
        if not self.heaps:   # pragma: no cover - every closure holds 0
            raise AssertionError("a closure without 0")
        self._reps: list[Game] = [rep[order[0]]]
        self.parts[order[0]] = ()
        for i in order[1:]:
            c = canon[i]
            split = self._split(c, rank, rank[i])
            if split is not None:
                self.parts[i] = split
                continue
            self.parts[i] = (len(self.heaps),)
            self.heaps.append(c)
            self._reps.append(rep[i])
        texts = "|".join(format_misere(h, max_chars=400) for h in self.heaps[1:])
        digest = hashlib.sha1(texts.encode()).hexdigest()[:12]
        self.name = f"{prefix}:{digest}"
        self._options = [self._heap_options_of(r) for r in self._reps]

    def _split(self, c: Game, rank: dict[int, int], mine: int) -> tuple[int, ...] | None:
        """The heaps of a partition of ``c`` whose primes are all types ranked before ``c``."""
        if c.num_options == 0 or (c.nim_heap_size() == 1):
            return None
        try:
            partitions = misere_partitions(c, limit=PARTITION_LIMIT)
        except ComputationLimitError:
            return None
        for p in partitions:
            if len(p) < 2:
                continue
            ids = [x.game.id for x in p]
            if all(j in rank and rank[j] < mine for j in ids):
                return tuple(sorted(h for j in ids for h in self.parts[j]))
        return None

    def _heap_options_of(self, g: Game) -> list[tuple[int, ...]]:
        return sorted({self.parts[self._canon_of[o.id].id] for o in g.options})

    def heap_options(self, n: int) -> list[tuple[int, ...]]:
        """The options of heap ``n``, each a tuple of smaller heaps."""
        if n >= len(self.heaps):
            raise ComputationLimitError(f"{self.name}: the closure has heaps 0..{len(self.heaps) - 1} only")
        return self._options[n]

    @property
    def max_heap(self) -> int:
        """The last heap."""
        return len(self.heaps) - 1

    def heaps_of(self, g: Any) -> tuple[int, ...]:
        """The heaps whose sum is ``g`` (a game of the universe: its canonical form is the
        canonical form of a closure position, or a sum of such games given as a list)."""
        if isinstance(g, (list, tuple)):
            return tuple(h for x in g for h in self.heaps_of(x))
        form = _as_form(g)
        c = misere_canonical_game(form)
        got = self.parts.get(c.id)
        if got is None:
            raise GameKindError(
                f"{shorten(g)} is not (misère equal to) a position of the closure of this "
                "quotient's games; pass a list for a sum of closure positions")
        return got


def form_heaps(forms: Iterable[Any], prefix: str = "forms") -> FormHeaps:
    """The heap ruleset of the closure of ``forms`` (:class:`FormHeaps`); ``prefix`` starts
    its name."""
    gs = [_as_form(g) for g in forms]
    if not gs:
        raise GameKindError("a misère quotient of forms needs at least one game")
    return FormHeaps(gs, prefix)


class QuotientOfPositions:
    """What a misère quotient answers about the positions of its universe (the sums of a
    closure of forms, the positions of a component family): a subclass holds ``quotient`` (a
    :class:`MisereQuotient`) and maps a position to its element with ``element``."""

    quotient: MisereQuotient

    def element(self, position: Any) -> int:
        """The element of ``Q`` of ``position``."""
        raise NotImplementedError

    @property
    def order(self) -> int:
        """``|Q|`` (``|Q_N|`` for a partial quotient)."""
        return self.quotient.order

    @property
    def p_portion(self) -> list[int]:
        """The elements of the P-portion."""
        return self.quotient.p_portion

    def word(self, position: Any) -> str:
        """The element of ``position`` as a word in the quotient's presentation."""
        return self.quotient.word(self.element(position))

    def outcome(self, position: Any) -> str:
        """``'P'`` or ``'N'``: the misère outcome of ``position`` (a list: their sum)."""
        return "P" if bool(self.quotient.P[self.element(position)]) else "N"

    def __repr__(self) -> str:
        q = self.quotient
        reach = "final" if q.final else f"max_heap={len(q.phi) - 1}"
        return f"{type(self).__name__}({self._repr_subject()}, {reach}, order={q.order}, p_count={len(q.p_portion)})"

    def _repr_subject(self) -> str:
        return repr(self.quotient.game)

    def _repr_html_(self) -> str:
        """The quotient's card (:func:`~cgtalg.quotients.result.quotient_html`), with the
        readable description (types, heaps, the given games' elements) folded."""
        from cgtalg.core.display import details, esc, short
        from cgtalg.quotients.result import quotient_html

        body = f"<pre style='white-space:pre-wrap;margin:0'>{esc(short(str(self), 20_000))}</pre>"
        return quotient_html(self.quotient, f"{type(self).__name__}: {short(self._repr_subject(), 100)}",
                             parts=[details("description (types, heaps, the games given)", body)])

    def describe(self, head: str, body: Iterable[str]) -> str:
        """The text of the quotient: ``head``, ``|Q|`` and ``|P|``, the presentation, the
        P-portion, the lines of ``body``, and the note of a partial result."""
        q = self.quotient
        pr = q.presentation()
        lines = [head, f"|Q| = {q.order}, |P| = {len(q.p_portion)}", f"Q = {pr.text}",
                 "P = {" + ", ".join(pr.words[x] for x in q.p_portion) + "}", *body]
        if q.note:
            lines.append(f"partial result: {q.note}")
        return "\n".join(lines)


@dataclass(repr=False)
class FormQuotient(QuotientOfPositions):
    """The misère quotient of the closure of a finite set of forms.

    Attributes
    ----------
    quotient : MisereQuotient
        The bipartite monoid ``(Q, P)`` with Φ on the heaps of :attr:`heaps`.
    heaps : FormHeaps
        The closure's types and the heaps they are written with.
    inputs : list
        The games given, as given (text or forms).
    """

    quotient: MisereQuotient
    heaps: FormHeaps
    inputs: list = field(default_factory=list)

    def element(self, g: Any) -> int:
        """The element of ``Q`` of ``g`` (a game of the universe, or a list: their sum)."""
        return self.quotient.image(self.heaps.heaps_of(g))

    def indistinguishable(self, g: Any, h: Any) -> bool:
        """Whether ``g`` and ``h`` are indistinguishable in the closure's universe."""
        return self.element(g) == self.element(h)

    def covers(self, g: Any) -> bool:
        """Whether the quotient decides ``g`` (always, unless a budget stopped it early)."""
        return all(h < len(self.quotient.phi) for h in self.heaps.heaps_of(g))

    def classes(self) -> list[list[Any]]:
        """The given games grouped by their element (indistinguishable ones together), in order;
        games beyond a partial quotient are left out."""
        groups: dict[int, list[Any]] = {}
        for g in self.inputs:
            if self.covers(g):
                groups.setdefault(self.element(g), []).append(g)
        return list(groups.values())

    def to_dict(self) -> dict:
        """A JSON-ready summary."""
        q = self.quotient
        pr = q.presentation()
        return {
            "game": q.game, "order": q.order, "p_count": len(q.p_portion),
            "presentation": pr.text, "p_portion": [pr.words[x] for x in q.p_portion],
            "heaps": [format_misere(h, max_chars=400) for h in self.heaps.heaps],
            "phi": [pr.words[x] for x in q.phi],
            "inputs": [{"game": str(g), "element": pr.words[self.element(g)] if self.covers(g) else None,
                        "outcome": self.outcome(g) if self.covers(g) else None} for g in self.inputs],
            "classes": [[str(g) for g in c] for c in self.classes()],
        }

    def _repr_subject(self) -> str:
        shown = ", ".join(str(g) for g in self.inputs[:4]) + (", ..." if len(self.inputs) > 4 else "")
        return f"[{shown[:80]}]"

    def __str__(self) -> str:
        q = self.quotient
        pr = q.presentation()
        lines = [f"  {pr.words[q.phi[h]]:>6} = {format_misere(self.heaps.heaps[h], max_chars=80)}"
                 for h in range(1, len(q.phi))]
        for g in self.inputs:
            if self.covers(g):
                lines.append(f"{str(g)!s:>20} -> {pr.words[self.element(g)]} ({self.outcome(g)})")
            else:
                lines.append(f"{str(g)!s:>20} -> (beyond the partial quotient)")
        return self.describe(f"misère quotient of the closure of {len(self.inputs)} games "
                             f"({self.heaps.max_heap} indecomposable types)", lines)


def form_quotient(forms: Iterable[Any], **kwargs: Any) -> FormQuotient:
    """The misère quotient of the closure of ``forms`` (module docstring).

    Parameters
    ----------
    forms : iterable of Game, MisereCanonicalForm or game text
        The games; their subpositions are the closure.
    **kwargs
        Budgets and store of :func:`cgtalg.quotients.construct.misere_quotient` (``max_seconds``,
        ``max_order``, ``store``, ``progress``, ``callback``, ...); ``max_heap`` is the
        closure's last heap. ``heaps``: the :class:`FormHeaps` of ``forms`` when the caller
        has built it already.

    Returns
    -------
    FormQuotient

    Raises
    ------
    GameKindError
        For something that is not an impartial game or game text.
    ComputationLimitError
        When a budget runs out.

    Examples
    --------
    >>> q = form_quotient(["*1", "*2", "*3"])        # misère Nim on heaps <= 3: T_2, order 6
    >>> q.order, q.quotient.is_tame()
    (6, True)
    """
    inputs = list(forms) if not isinstance(forms, (str, Game)) else [forms]
    heaps = kwargs.pop("heaps", None) or form_heaps(inputs)
    kwargs.setdefault("progress", False)
    from cgtalg.quotients.construct import misere_quotient  # numpy: loaded when a quotient is computed

    q = misere_quotient(heaps, max_heap=heaps.max_heap, **kwargs)
    return FormQuotient(q, heaps, inputs)
