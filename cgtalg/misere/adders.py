"""Adders ``:a`` (Winning Ways ch. 13; Plambeck's ".123", seed 000, section "Adders").

``:0 = 0``, ``:1 = *1``, ``:2 = *2``, and ``:(2a) = :2 + … + :2`` (``a`` copies),
``:(2a+1) = :(2a) + :1``. In misère canonical form ``:3 = *3`` and, for ``a ≥ 2``,
``:(2a) = {:(2a−2), :(2a−1)}`` and ``:(2a+1) = {:(2a−2), :(2a−1), :(2a)}``; sums follow
``:a + :b = :(a+b)`` unless ``a`` and ``b`` are both odd, when ``:a + :b = :(a+b−2)``
(``*1 + *1 = 0`` in misère play). Their genera repeat with period 4 from ``:4``:
``0^{0202…}, 1^{1313…}, 2^{2020…}, 3^{3131…}``.

Plambeck describes misère heap games by naming each heap with the adder it equals, and a letter
for the heaps that are not adders (Table S1 of .123: ``:1 :0 :2 :2 :1 C :0 A B :1 …``);
:func:`adder_description` prints that description for any heap ruleset. All of it is computed
from the definitions: adders are built as sums of nim-heaps and compared by misère canonical
form (:mod:`cgtalg.misere.canonical`), nothing is tabulated.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cgtalg.caches import register_cache
from cgtalg.core.game import Game, nim
from cgtalg.errors import ArgumentError, ArgumentTypeError, ComputationLimitError, require_int, shorten

__all__ = ["adder", "adder_index", "adder_sum", "adder_description", "AdderDescription"]

#: the largest adder index :func:`adder` builds (``:3000`` takes a few seconds)
ADDER_LIMIT = 4096

_ADDERS: list[Game] = []
_INDEX: dict[int, int] = {}


def _clear_adders() -> None:
    _ADDERS.clear()
    _INDEX.clear()


register_cache("misere.adders", _clear_adders)


def adder(a: int) -> Game:
    """The adder ``:a`` as a misère canonical form (a :class:`~cgtalg.core.game.Game`).

    Examples
    --------
    >>> import cgtalg as cg
    >>> from cgtalg.misere import adder, format_misere
    >>> [format_misere(adder(a)) for a in range(6)]
    ['*[0]', '*[1]', '*[2]', '*[3]', '*[2[2]]', '*[3[2]]']
    """
    from cgtalg.misere.canonical import misere_canonical_game, misere_canonical_sum  # noqa: F401

    if isinstance(a, bool) or not isinstance(a, int):
        raise ArgumentTypeError(f"an adder :a needs an integer a >= 0, got {shorten(a)}")
    if a < 0:
        raise ArgumentError(f"an adder :a needs an integer a >= 0, got {shorten(a)}")
    if a > ADDER_LIMIT:
        raise ComputationLimitError(f"the adder :{a} is refused: adders are built one by one, and "
                                    f"past :{ADDER_LIMIT} (cgtalg.misere.adders.ADDER_LIMIT) that "
                                    "takes minutes")
    while len(_ADDERS) <= a:
        k = len(_ADDERS)
        if k <= 2:
            x = misere_canonical_game(nim(k))
        elif k % 2 == 0:
            x = misere_canonical_game(_ADDERS[k - 2] + nim(2))
        else:
            x = misere_canonical_game(_ADDERS[k - 1] + nim(1))
        _ADDERS.append(x)
        _INDEX.setdefault(x._id, k)
    return _ADDERS[a]


def adder_sum(a: int, b: int) -> int:
    """The index of ``:a + :b``: ``a + b``, or ``a + b − 2`` when both are odd (seed 000)."""
    a = require_int(a, "an adder index", minimum=0)
    b = require_int(b, "an adder index", minimum=0)
    return a + b - 2 if (a & 1) and (b & 1) else a + b


def adder_index(g: Any) -> int | None:
    """The ``a`` with ``g = :a`` in misère play, or ``None`` if ``g`` equals no adder.

    An adder ``:a`` has birthday at least ``a / 2`` (each ``*2`` adds a level), so only
    ``a ≤ 2·birthday + 3`` need be compared.
    """
    from cgtalg.misere.canonical import misere_canonical_game

    c = misere_canonical_game(g) if not isinstance(g, Game) else misere_canonical_game(g)
    bound = 2 * c.birthday + 3
    adder(bound)
    k = _INDEX.get(c._id)
    return k if k is not None and k <= bound else None


@dataclass
class AdderDescription:
    """Plambeck's description of a heap sequence by adders and named special games."""

    code: str
    labels: list[str]
    specials: dict[str, str] = field(default_factory=dict)  # letter -> genus of its heaps

    def __str__(self) -> str:
        return " ".join(self.labels)

    def table(self, width: int = 5) -> str:
        """Rows of ``width`` heaps, heap 1 first, in the layout of seed 000's Table S1."""
        rows = []
        for start in range(1, len(self.labels), width):
            rows.append(f"{start - 1:>3}+  " + "  ".join(f"{x:>3}" for x in self.labels[start:start + width]))
        return "\n".join(rows)

    def to_dict(self) -> dict:
        return {"ruleset": self.code, "labels": self.labels, "specials": self.specials}

    def __repr__(self) -> str:
        from cgtalg.core.display import short

        return (f"AdderDescription({self.code!r}, {len(self.labels)} heaps, "
                f"specials={short(self.specials, 120)})")

    def _repr_html_(self) -> str:
        """Notebook view: Plambeck's table (heap ``5r + c`` in row ``r``, column ``c``, adders
        ``:a``, letters for the special games) and the genus of each letter."""
        from cgtalg.core.display import Html, card, grid_html

        width = 5
        rows = []
        for start in range(1, len(self.labels), width):
            cells = self.labels[start:start + width]
            rows.append([f"{start - 1}+"] + cells + [""] * (width - len(cells)))
        table = grid_html(["heaps"] + [str(c) for c in range(1, width + 1)], rows)
        facts = [("ruleset", self.code), ("heaps", f"0 .. {len(self.labels) - 1}"),
                 ("table", Html(table))]
        facts += [(f"special {k}", f"genus {v}") for k, v in self.specials.items()]
        return card("adder description", facts, kind="adders")


def adder_description(ruleset: Any, n: int, letters: str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                      convention: str = "classical") -> AdderDescription:
    """Describe the ``n`` heaps ``0..n-1`` of ``ruleset`` as adders ``:a`` and special games.

    A heap equal (misère canonical form) to an adder ``:a`` is labelled ``:a``; the other heaps
    get a letter per genus, in order of first appearance, so heaps of the same genus share a
    letter (Plambeck's Table S1 names .123's heaps ``5k+1, 5k+3, 5k+4`` ``C, A, B`` by their
    genera ``0^{02}, 2^{1420}, 1^{20}``, Table S2). That heaps sharing a letter are
    interchangeable in every sum of the ruleset's positions is a claim about the ruleset's misère
    quotient, not checked here (seed 000 checks it for .123 by its rules S1-S4; the tests verify
    those rules by search). The genera are written, and the heaps grouped, in the genus
    ``convention`` (``classical``, ``short`` or ``extended``; the extended symbols tell apart
    some heaps that share a classical symbol, which then get different letters).

    >>> from cgtalg.rulesets.heaps.octal import TakeAndBreak
    >>> d = adder_description(TakeAndBreak("0.123"), 13, letters="CAB")   # Plambeck's letters
    >>> str(d), d.specials
    (':0 :1 :0 :2 :2 :1 C :0 A B :1 C :0', {'C': '0^02', 'A': '2^1420', 'B': '1^20'})
    """
    from cgtalg.misere.genus import extended_genus, genus

    labels: list[str] = []
    by_genus: dict[Any, str] = {}
    specials: dict[str, str] = {}
    # the misère canonical heap when the ruleset offers it: far smaller than the heap's form,
    # whose sums pass the walk limit from Kayles heap 34 on
    heap = getattr(ruleset, "misere_canonical_heap", None) or ruleset.heap
    for h in range(n):
        G = heap(h)
        k = adder_index(G)
        if k is not None:
            labels.append(f":{k}")
            continue
        x = (extended_genus(G) if convention == "extended" else genus(G)).to_str(convention)
        name = by_genus.get(x)
        if name is None:
            i = len(by_genus)
            name = letters[i] if i < len(letters) else f"X{i}"
            by_genus[x] = name
            specials[name] = x
        labels.append(name)
    code = getattr(ruleset, "code", None) or getattr(ruleset, "name", None) or type(ruleset).__name__
    return AdderDescription(str(code), labels, specials)
