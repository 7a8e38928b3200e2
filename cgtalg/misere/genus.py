"""The genus of an impartial game (Winning Ways ch. 13, "Survival in the Lost World").

The genus of ``G`` is the symbol ``g^{γ0γ1γ2…}``: ``g`` is the normal-play Grundy value of ``G``
and ``γn`` the misère Grundy value of ``G + n·*2`` (``n`` copies of the nim-heap ``*2``). It tells
the misère outcome of ``G`` plus any sum of nim-heaps when ``G`` is tame, and is the first
invariant a misère analysis prints (Plambeck's ".123", seed 000, Tables 2 and 3).

The mex rule with (γ, γ⊕1)-carrying (Winning Ways p. 410; seed 000 works one step)
-----------------------------------------------------------------------------------
A game with no options has genus ``0^{1202…}``. Otherwise, writing ``γn(G')`` for the options'
superscripts,

* ``g = mex{g(G')}`` (Sprague–Grundy), ``γ0 = mex{γ0(G')}``, and
* ``γn = mex({γn(G')} ∪ {γ(n−1), γ(n−1) ⊕ 1})`` for ``n ≥ 1``.

Proof. The options of ``G + n·*2`` are ``G' + n·*2`` (value ``γn(G')``), ``G + (n−1)·*2``
(value ``γ(n−1)``) and ``G + (n−1)·*2 + *1``. For every game ``X`` the misère Grundy value of
``X + *1`` is ``G⁻(X) ⊕ 1``: by induction, the options of ``X + *1`` are ``X' + *1`` (values
``G⁻(X') ⊕ 1``) and ``X`` (value ``m = G⁻(X)``); if ``m`` is even the set ``{0..m−1}`` is closed
under ``⊕1``, so ``m`` is present and ``m+1`` is absent (``m+1 = m⊕1`` would need ``m`` among the
``G⁻(X')``); if ``m`` is odd, ``m−1 = m⊕1`` is absent for the same reason and everything below it
is present; ``X = 0`` gives ``*1``, value ``0 = 1 ⊕ 1``. So the third option has value
``γ(n−1) ⊕ 1``. ∎

Why the computation stops, and where (a proof, not a heuristic)
---------------------------------------------------------------
Every option's superscripts are eventually periodic with period 2 from its tail start ``T'``.
Let ``T = max T'``. For ``n ≥ T`` the option set at ``n`` depends only on the parity of ``n``,
so ``γn = F_{n mod 2}(γ(n−1))``. If ``γm = γ(m−2)`` for some ``m ≥ max(2, T+1)``, then
``γ(m+1) = F(γm) = F(γ(m−2)) = γ(m−1)`` (both steps use the same option set, as
``m−1 ≥ T``), and by induction ``γ(k+2) = γk`` for all ``k ≥ m−2``. Such an ``m`` exists within
a few steps of ``T``: ``F_A(v) = mex(A ∪ {v, v⊕1})`` takes only the values ``a = mex A`` and
``a' = mex(A ∪ {a, a⊕1})``, and checking the four cases shows the even and odd terms repeat
after at most two rounds. The evaluator checks this bound and stores the shortest prefix
``γ0 … γ(t+1)`` with ``t`` the least index from which ``γ(k+2) = γk`` holds — the whole
(infinite) genus, exactly.

Conventions for printing (both are needed; see docs/misere.md)
--------------------------------------------------------------
* **classical** (the default; Winning Ways, Plambeck's tables of octal games): ``g`` then the
  superscripts up to and including the first two terms of the period-2 tail: ``*2`` is ``2^20``,
  ``*1`` is ``1^031``, heap 4 of .123 is ``2^1420``. An entry above 9 switches to
  parenthesised, comma-separated superscripts: ``6^(8,10)``.
* **short**: the shortest symbol that reads back (:meth:`Genus.parse`) to the same genus: plain
  ``g`` for the genus of the nim-heap ``*g``, one superscript ``g^γ0`` when Winning Ways'
  abbreviation of a tame or restive genus restores the rest (``0^0`` for ``0^{0202…}``), else
  the classical symbol. Seed 000's tables mix the two.
* **extended** (CGSuite's ``Genus``, by Dan Hoey): printed from the misère canonical form and its
  phylum: a nim-heap prints plain ``g``; a hereditarily or reversibly tame or restive game prints
  one superscript; any other game prints ``γ0…γm`` where ``m`` is found by starting from the
  depth of its options' symbols plus 2 and cutting back while ``γm = γ(m−2)`` (never below two
  superscripts). Kayles heaps 7, 10 and 14 are reversibly tame and print ``2^2``; heap 19 has
  the same superscripts ``2,0,2,0,…`` but is not tame, and its options carry deeper symbols, so
  CGSuite prints ``2^20``. The extended symbol therefore records phylum and depth information
  beyond the superscript sequence; :func:`extended_genus` reproduces it (checked against CGSuite's
  own test rows).
"""

from __future__ import annotations

import html
import re
from typing import Sequence, Union

from cgtalg.caches import register_cache
from cgtalg.core.fold import evaluator, fold, memo_post_order
from cgtalg.core.game import Game
from cgtalg.core.notation import int_to_digits
from cgtalg.errors import (ArgumentError, ArgumentTypeError, GameNotationError, GenusNotationError,
                           require_int, shorten)
from cgtalg.normal.grundy import mex

__all__ = [
    "Genus",
    "genus",
    "extended_genus",
    "genus_from_options",
    "genus_class",
    "GENUS_CONVENTIONS",
]

GENUS_CONVENTIONS = ("classical", "short", "extended")


def genus_class(g: int, gamma0: int) -> str:
    """The class of the pair ``g^γ0`` (Winning Ways ch. 13, p. 405; seed 000):
    ``'tame'`` if ``g = γ0`` or both are 0 or 1; ``'restive'`` if ``g ∈ {0,1}`` and ``γ0 ≥ 2``;
    ``'restless'`` if ``γ0 ∈ {0,1}`` and ``g ≥ 2``; ``'wild'`` otherwise.

    >>> genus_class(0, 0), genus_class(1, 2), genus_class(2, 1), genus_class(2, 3)
    ('tame', 'restive', 'restless', 'wild')
    """
    g = require_int(g, "the genus value g", minimum=0)
    gamma0 = require_int(gamma0, "the superscript gamma0", minimum=0)
    if g == gamma0 or (g | gamma0) < 2:
        return "tame"
    if g < 2:
        return "restive"
    if gamma0 < 2:
        return "restless"
    return "wild"


def _single_expansion(g: int, s0: int, n: int) -> int:
    """γn of the one-superscript symbol ``g^s0`` (Winning Ways' abbreviation of a tame or
    restive genus, whose superscripts are determined by ``g`` and ``γ0``; CGSuite reads its
    one-superscript symbols the same way): tame: ``γn = g ⊕ 2[n odd]`` for ``n ≥ 1``;
    restive: ``γn = b ⊕ 2[n odd]`` with ``b = γ0`` if ``γ0 < 4`` else ``g``; otherwise the
    superscript alternates with its ``⊕2`` partner."""
    if n == 0:
        return s0
    odd = 2 if n & 1 else 0
    if g == s0 or (g | s0) < 2:
        return g ^ odd
    if g < 2:
        return (s0 if s0 < 4 else g) ^ odd
    return s0 ^ odd


def _nim_gammas(n: int) -> tuple[int, ...]:
    # genus of *n: 0^{1202…}, 1^{0313…}, n^{n, n⊕2, …} (Winning Ways ch. 13; seed 000 (1)-(3))
    if n == 0:
        return (1, 2, 0)
    if n == 1:
        return (0, 3, 1)
    return (n, n ^ 2)


def _minimal(seq: Sequence[int]) -> tuple[int, ...]:
    """Cut a prefix whose last two terms start the period-2 tail down to the shortest such
    prefix ``γ0 … γ(t+1)``."""
    t = len(seq) - 2
    while t > 0 and seq[t - 1] == seq[t + 1]:
        t -= 1
    return tuple(seq[: t + 2])


class Genus:
    """The genus ``g^{γ0γ1…}`` of an impartial game, stored exactly: ``g`` and the shortest
    prefix ``γ0 … γ(t+1)`` after which the superscripts repeat with period 2.

    Equality and hashing use the genus only; how it prints is the :attr:`convention`
    (``'classical'``, ``'short'`` or ``'extended'``; see the module docstring).

    Examples
    --------
    >>> import cgtalg as cg
    >>> G = cg.genus(cg.nim(2)); str(G), G.gamma(5), G.misere_grundy
    ('2^20', 0, 2)
    >>> Genus.parse("2^1420").gamma(10), str(Genus.parse("0^0"))
    (2, '0^02')
    """

    __slots__ = ("g", "gammas", "convention", "_shown", "_hash")

    def __init__(self, g: int, gammas: Sequence[int], convention: str = "classical",
                 shown: Sequence[int] | None = None) -> None:
        g = require_int(g, "the genus value g")
        if isinstance(gammas, (str, bytes)) or not hasattr(gammas, "__iter__"):
            raise ArgumentTypeError(f"the superscripts of a genus must be a sequence of ints, got "
                                    f"{type(gammas).__name__}: {shorten(gammas)}")
        gs = tuple(require_int(x, "a genus superscript") for x in gammas)
        if g < 0 or len(gs) < 2 or min(gs) < 0:
            raise ArgumentError("a genus needs g >= 0 and at least two non-negative superscripts "
                                "(the period-2 tail)")
        if not isinstance(convention, str) or convention not in GENUS_CONVENTIONS:
            raise ArgumentError(f"unknown genus convention {shorten(convention)}; use one of "
                                f"{GENUS_CONVENTIONS}")
        self.g = int(g)
        self.gammas = _minimal(gs)
        self.convention = convention
        self._shown = None if shown is None else tuple(shown)
        self._hash = hash((self.g, self.gammas))

    # -- the sequence ---------------------------------------------------------------
    @property
    def tail_start(self) -> int:
        """The least ``t`` with ``γ(n+2) = γn`` for all ``n ≥ t``."""
        return len(self.gammas) - 2

    def gamma(self, n: int) -> int:
        """``γn``, the misère Grundy value of ``G + n·*2``, for any ``n ≥ 0``."""
        n = require_int(n, "the superscript index n", minimum=0)
        k = len(self.gammas)
        if n < k:
            return self.gammas[n]
        return self.gammas[k - 2 + ((n - (k - 2)) & 1)]

    def superscripts(self, count: int) -> tuple[int, ...]:
        """The first ``count`` superscripts ``γ0 … γ(count−1)``."""
        return tuple(self.gamma(i) for i in range(count))

    @property
    def normal_grundy(self) -> int:
        """``g``: the normal-play Grundy value."""
        return self.g

    @property
    def misere_grundy(self) -> int:
        """``γ0``: the misère Grundy value (0 exactly for misère P-positions)."""
        return self.gammas[0]

    @property
    def genus_class(self) -> str:
        """``'tame'``, ``'restive'``, ``'restless'`` or ``'wild'``: the class of ``g^γ0``
        (:func:`genus_class`; the class of the *game* also needs its options: see
        :mod:`cgtalg.misere.phylum`)."""
        return genus_class(self.g, self.gammas[0])

    def is_nim_genus(self) -> bool:
        """True when this is the genus of the nim-heap ``*g``."""
        return self.gammas == _nim_gammas(self.g)

    def with_convention(self, convention: str) -> "Genus":
        """The same genus printed in another convention (``'extended'`` needs the game: use
        :func:`extended_genus`)."""
        if convention == "extended" and self._shown is None:
            raise ArgumentError("the extended symbol depends on the game, not only on its genus: "
                                "use cgtalg.extended_genus(G)")
        return Genus(self.g, self.gammas, convention, self._shown)

    # -- printing ------------------------------------------------------------------
    def shown(self, convention: str | None = None) -> tuple[int, ...]:
        """The superscripts printed in ``convention`` (default: this genus's own)."""
        conv = convention or self.convention
        if conv == "classical":
            return self.gammas
        if conv == "extended":
            if self._shown is None:
                raise ArgumentError("the extended symbol depends on the game: use cgtalg.extended_genus(G)")
            return self._shown
        if conv == "short":
            if self.is_nim_genus():
                return ()
            s0 = self.gammas[0]
            if all(_single_expansion(self.g, s0, i) == self.gamma(i)
                   for i in range(len(self.gammas) + 2)):
                return (s0,)
            return self.gammas
        raise ArgumentError(f"unknown genus convention {shorten(conv)}; use one of {GENUS_CONVENTIONS}")

    def to_str(self, convention: str | None = None) -> str:
        """The symbol in ``convention``: ``2^1420``, ``6^(8,10)``, plain ``g`` for a nim-heap
        genus in the short and extended conventions."""
        from cgtalg.core.notation import int_to_digits as d

        sup = self.shown(convention)
        if not sup:
            return d(self.g)
        if any(x > 9 for x in sup):
            return f"{d(self.g)}^({','.join(map(d, sup))})"
        return f"{d(self.g)}^{''.join(map(str, sup))}"

    def __str__(self) -> str:
        return self.to_str()

    def __repr__(self) -> str:
        return f"Genus({self.to_str()!r})" if self.convention == "classical" else \
            f"Genus({self.to_str()!r}, convention={self.convention!r})"

    def _repr_html_(self) -> str:
        sup = self.shown()
        if not sup:
            return f"<span class='cgtalg-genus'>{int_to_digits(self.g)}</span>"
        body = ",".join(map(int_to_digits, sup)) if any(x > 9 for x in sup) else "".join(map(str, sup))
        return (f"<span class='cgtalg-genus' title='{html.escape(self.to_str('classical'))}…'>"
                f"{int_to_digits(self.g)}<sup>{html.escape(body)}</sup></span>")

    def _repr_latex_(self) -> str:
        """The symbol with its superscript: ``$1^{431}$``."""
        from cgtalg.core.latex import genus_latex, math

        return math(genus_latex(self.to_str()))

    def to_dict(self) -> dict:
        """JSON-ready: the symbol, ``g``, the exact superscript prefix and the tail start."""
        return {"genus": self.to_str(), "convention": self.convention, "g": self.g,
                "gammas": list(self.gammas), "tail_start": self.tail_start,
                "class": self.genus_class}

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Genus):
            return self.g == other.g and self.gammas == other.gammas
        if isinstance(other, str):
            try:
                return self == Genus.parse(other)
            except GameNotationError:
                return False
        return NotImplemented

    def __hash__(self) -> int:
        return self._hash

    # -- reading ---------------------------------------------------------------------
    _RE = re.compile(r"^\s*(\d+)\s*(?:\^\s*(?:\{([^}]*)\}|\(([^)]*)\)|(\d+)))?\s*(?:\.\.\.|…)?\s*$")

    @classmethod
    def parse(cls, text: str) -> "Genus":
        """Read a genus symbol as the literature prints it.

        * ``"2"``: the genus of the nim-heap ``*2``;
        * ``"0^0"``, ``"1^2"``: one superscript, Winning Ways' abbreviation of a tame or restive
          genus (the rest follows from ``g`` and ``γ0``, see :func:`_single_expansion`);
        * ``"2^1420"``, ``"2^{1420}"``, ``"6^(8,10)"``, ``"0^{120202…}"``: the superscripts,
          continued with period 2 from the last two.

        Raises
        ------
        GenusNotationError
            If the text is not a genus symbol (a :class:`~cgtalg.errors.GameNotationError`).
        """
        if not isinstance(text, str):
            raise ArgumentTypeError(f"Genus.parse needs text, got {type(text).__name__}: {shorten(text)}")
        m = cls._RE.match(text.replace(" ", ""))
        if not m:
            raise GenusNotationError(text, None, "expected g, g^γ0γ1…, g^{γ0γ1…} or g^(γ0,γ1,…)")
        g = int(m.group(1))
        braces, parens, digits = m.group(2), m.group(3), m.group(4)
        if braces is None and parens is None and digits is None:
            return cls(g, _nim_gammas(g))
        if parens is not None or (braces is not None and "," in braces):
            body = parens if parens is not None else braces
            try:
                sup = [int(x) for x in body.split(",") if x.strip()]
            except ValueError:
                raise GenusNotationError(text, None, "superscripts in parentheses are comma-separated integers") from None
        else:
            body = braces if braces is not None else digits
            body = body.rstrip(".").rstrip("…")
            if not body.isdigit():
                raise GenusNotationError(text, None, "superscripts are decimal digits")
            sup = [int(c) for c in body]
        if not sup:
            raise GenusNotationError(text, None, "no superscripts after ^")
        if len(sup) == 1:
            return cls(g, (sup[0], _single_expansion(g, sup[0], 1), _single_expansion(g, sup[0], 2),
                           _single_expansion(g, sup[0], 3)))
        return cls(g, sup)


# -- the evaluator -------------------------------------------------------------------------
_ZERO_GENUS = Genus(0, _nim_gammas(0))
_NIM_GENUS: dict[int, Genus] = register_cache("misere.nim genera", {})


def _atom(n: int) -> Genus:
    x = _NIM_GENUS.get(n)
    if x is None:
        x = Genus(n, _nim_gammas(n))
        if n < 4096:
            _NIM_GENUS[n] = x
    return x


def genus_from_options(option_genera: Sequence[Genus]) -> Genus:
    """The genus of ``{G1, G2, …}`` from the genera of its options, by the mex rule with
    (γ, γ⊕1)-carrying (module docstring: the rule and the proof that it stops).

    Examples
    --------
    Seed 000 computes ``genus(h8 + h5)`` of .123 from its four options:

    >>> opts = [Genus.parse(s) for s in ("1^{131313}", "0^{120202}", "0^{420202}", "2^{142020}")]
    >>> str(genus_from_options(opts))
    '3^0531'
    """
    if isinstance(option_genera, (str, bytes)) or not hasattr(option_genera, "__iter__"):
        raise ArgumentTypeError(f"genus_from_options needs a sequence of Genus, got "
                                f"{type(option_genera).__name__}: {shorten(option_genera)}")
    option_genera = list(option_genera)
    for o in option_genera:
        if not isinstance(o, Genus):
            raise ArgumentTypeError(f"genus_from_options needs a sequence of Genus, got an "
                                    f"entry {type(o).__name__}: {shorten(o)}")
    if not option_genera:
        return _ZERO_GENUS
    g = mex(o.g for o in option_genera)
    tmax = max(len(o.gammas) - 2 for o in option_genera)
    seq = [mex(o.gammas[0] for o in option_genera)]
    n = 1
    limit = tmax + 8
    while True:
        prev = seq[-1]
        vals = {o.gamma(n) for o in option_genera}
        vals.add(prev)
        vals.add(prev ^ 1)
        seq.append(mex(vals))
        if n >= 2 and n >= tmax + 1 and seq[n] == seq[n - 2]:
            return Genus(g, _minimal(seq))
        n += 1
        if n > limit:  # pragma: no cover - excluded by the proof in the module docstring
            raise AssertionError("genus superscripts failed to become period-2 within the proven bound")


@evaluator("genus", atom=_atom)
def _genus_ev(game: Game, option_values: Sequence[Genus]) -> Genus:
    """Genus by the mex rule with carrying (Winning Ways ch. 13)."""
    return genus_from_options(option_values)


GameLike = Union[Game, str]


def _as_game(g: object) -> Game:
    from cgtalg.misere.canonical import _as_game as as_game

    return as_game(g)


def genus(g: GameLike, convention: str = "classical") -> Genus:
    """The genus ``g^{γ0γ1…}`` of an impartial form (Winning Ways ch. 13).

    Parameters
    ----------
    g : Game, MisereCanonicalForm or str
        The form (text is read with :func:`cgtalg.parse`).
    convention : {'classical', 'short', 'extended'}
        How the result prints (module docstring). ``'extended'`` is CGSuite's symbol and is
        computed from the misère canonical form (:func:`extended_genus`).

    Returns
    -------
    Genus
        Exact: ``.gamma(n)`` answers any ``n``.

    Examples
    --------
    >>> import cgtalg as cg
    >>> str(cg.genus("{*2}")), str(cg.genus(cg.nim(2) + cg.nim(2), "short"))
    ('0^02', '0^0')
    >>> str(cg.genus(cg.nim(12)))
    '12^(12,14)'
    """
    if convention == "extended":
        return extended_genus(g)
    if convention not in GENUS_CONVENTIONS:
        raise ArgumentError(f"unknown genus convention {shorten(convention)}; use one of "
                            f"{GENUS_CONVENTIONS}")
    x = fold(_as_game(g), _genus_ev)
    return x if convention == "classical" else x.with_convention(convention)


# -- CGSuite's extended symbol ---------------------------------------------------------------
_EXT_DEPTH: dict[int, tuple[int, tuple[int, ...]]] = register_cache("misere.extended genus depths", {})


def _extended_of_canonical(c: Game) -> tuple[int, tuple[int, ...]]:
    """``(depth, shown)`` of CGSuite's extended symbol for a misère canonical form ``c``
    (iterative over the canonical DAG, memoised on ids)."""
    from cgtalg.misere.phylum import misere_phylum

    def deps(x: Game) -> tuple[Game, ...]:
        return () if misere_phylum(x).is_restive_or_tame() else x.options

    def compute(x: Game) -> tuple[int, tuple[int, ...]]:
        gx = fold(x, _genus_ev)
        ph = misere_phylum(x)
        if ph.is_restive_or_tame():
            if ph.is_tame():
                shown: tuple[int, ...] = () if ph.name == "NIM_HEAP" else (gx.gammas[0],)
                return (2 if gx.g < 2 and (not shown or shown[0] != gx.g) else 1), shown
            return (1 if gx.gammas[0] < 4 else 2), (gx.gammas[0],)
        m = max([1] + [_EXT_DEPTH[o._id][0] for o in x.options]) + 2
        while m > 1 and gx.gamma(m) == gx.gamma(m - 2):
            m -= 1
        return m, gx.superscripts(m + 1)

    return memo_post_order(c, _EXT_DEPTH, deps, compute)


def extended_genus(g: GameLike) -> Genus:
    """The genus printed as CGSuite prints it (its ``G.Genus``; module docstring).

    The superscripts are the same as :func:`genus`; only the printed symbol differs, and it
    depends on the misère canonical form's phylum and on its options (so two games of the same
    genus can print differently: Kayles heaps 14 and 19).

    >>> import cgtalg as cg
    >>> str(extended_genus(cg.nim(2))), str(extended_genus("{*2}"))
    ('2', '0^0')
    """
    from cgtalg.misere.canonical import misere_canonical_game

    c = misere_canonical_game(_as_game(g))
    x = fold(c, _genus_ev)
    _, shown = _extended_of_canonical(c)
    return Genus(x.g, x.gammas, "extended", shown)
