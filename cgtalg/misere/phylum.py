"""Tame, restive, restless and wild games, with the reason (Winning Ways ch. 13; ONAG ch. 12).

Winning Ways sorts a misère game by how far the nim-like theory carries: a **tame** game
behaves, in sums with other tame games, like a nim-heap (or like ``{*2}``/``{*2,*3}``'s
``0^0``/``1^1``), so its genus ``g^γ0`` decides every sum; a **restive** game (``g ∈ {0,1}``,
``γ0 ≥ 2``) and a **restless** game (``γ0 ∈ {0,1}``, ``g ≥ 2``) are the two near-tame kinds;
everything else is **wild**. Being tame is a property of the game, not only of the genus: every
position met in play must stay tame, except for wild options that the opponent can *reverse*
to a tame position of the game's own genus.

The phyla (Dan Hoey's classification, as CGSuite reports it)
------------------------------------------------------------
Computed bottom-up on the misère canonical form from the options' phyla, the normal value
``g = G⁺`` and the misère value ``γ0 = G⁻``. The *genus kind* of ``(g, γ0)`` is tame
(``g = γ0`` or both ≤ 1), restive (``g ≤ 1 < γ0``), restless (``γ0 ≤ 1 < g``) or wild.

===========================  ==========================================================
``NIM_HEAP``                 the nim-heaps ``*n`` themselves
``HEREDITARILY_TAME``        tame genus, every option hereditarily tame
``REVERSIBLY_TAME``          tame genus; every option tame, or each wild option reverses
                             through tame second options of the game's ``g`` and ``γ0``,
                             and the tame options alone give ``g`` and ``γ0``
``TAMEABLE``                 tame genus; the genus is determined in sums with tame games
                             (wild options are themselves tameable or reverse through
                             tameable positions)
``HEREDITARILY_RESTIVE``     restive genus, every option hereditarily tame
``REVERSIBLY_RESTIVE``       restive genus, options tame or reversing through restive-or-
                             tame second options
``RESTLESS``                 restless genus, every option tame
``WILD_OF_*_GENUS``, ``WILD``  the rest, by genus kind
===========================  ==========================================================

"Tame" in the Winning Ways sense is :meth:`Phylum.is_tame` (nim-heap, hereditarily or
reversibly tame); "restive" is :meth:`Phylum.is_restive`. A game is **half-tame** when it is
not tame but ``G + G`` is tame of genus ``0^0``: restive games are (the Noah's Ark argument of
Winning Ways: ``R + R`` is tame of genus ``0^0``), and so are some wild ones.

The classification was checked against CGSuite's own test cases (tests/data/cgsuite_genus.json)
and seed 000's claims (.123 heap 6 tame, heap 8 restless, heap 9 restive).

Examples
--------
>>> import cgtalg as cg
>>> str(misere_phylum("*[2#0]")), str(misere_phylum("*[2#1]"))
('hereditarily restive', 'restless')
>>> c = misere_classification("*[(2#1)2##]"); c.misere_class, c.phylum.name
('tame', 'REVERSIBLY_TAME')
"""

from __future__ import annotations

import enum
import html
from dataclasses import dataclass, field
from typing import Any, Union

from cgtalg.caches import register_cache
from cgtalg.core.fold import fold, memo_post_order
from cgtalg.core.game import Game
from cgtalg.misere.genus import _genus_ev, genus_class
from cgtalg.normal.grundy import mex

__all__ = [
    "Phylum",
    "MisereClassification",
    "misere_phylum",
    "misere_classification",
    "misere_class",
    "is_half_tame",
]

GameLike = Union[Game, str, object]


class Phylum(enum.IntEnum):
    """The phyla of misère impartial games, from the nim-heaps to the wild games (ordered:
    within each genus kind a larger value is further from nim)."""

    NIM_HEAP = 0
    HEREDITARILY_TAME = 1
    REVERSIBLY_TAME = 2
    TAMEABLE = 3
    WILD_OF_TAME_GENUS = 4
    HEREDITARILY_RESTIVE = 5
    REVERSIBLY_RESTIVE = 6
    WILD_OF_RESTIVE_GENUS = 7
    RESTLESS = 8
    WILD_OF_RESTLESS_GENUS = 9
    WILD = 10

    def is_hereditarily_tame(self) -> bool:
        """Nim-heap or hereditarily tame."""
        return self <= Phylum.HEREDITARILY_TAME

    def is_tame(self) -> bool:
        """Tame in the sense of Winning Ways (nim-heap, hereditarily or reversibly tame)."""
        return self <= Phylum.REVERSIBLY_TAME

    def is_tameable(self) -> bool:
        """Tame or tameable ("generally tame" in some accounts)."""
        return self <= Phylum.TAMEABLE

    def is_hereditarily_restive(self) -> bool:
        return self == Phylum.HEREDITARILY_RESTIVE

    def is_restive(self) -> bool:
        """Hereditarily or reversibly restive ("generally restive")."""
        return self in (Phylum.HEREDITARILY_RESTIVE, Phylum.REVERSIBLY_RESTIVE)

    def is_restive_or_tame(self) -> bool:
        return self.is_tame() or self.is_restive()

    def is_restless(self) -> bool:
        return self == Phylum.RESTLESS

    def is_wild(self) -> bool:
        """One of the four wild phyla (a tameable game is not wild here; it is not tame
        either)."""
        return self in (Phylum.WILD_OF_TAME_GENUS, Phylum.WILD_OF_RESTIVE_GENUS,
                        Phylum.WILD_OF_RESTLESS_GENUS, Phylum.WILD)

    @property
    def misere_class(self) -> str:
        """Winning Ways' four classes: ``'tame'``, ``'restive'``, ``'restless'``, ``'wild'``
        (tameable and the wild phyla are ``'wild'``)."""
        if self.is_tame():
            return "tame"
        if self.is_restive():
            return "restive"
        if self.is_restless():
            return "restless"
        return "wild"

    @property
    def label(self) -> str:
        return self.name.lower().replace("_", " ").replace("nim heap", "nim-heap")

    def __str__(self) -> str:
        return self.label



def _phylum_html(self: Phylum) -> str:
    """Notebook view of a phylum: its label and Winning Ways class."""
    return (f"<span class='cgtalg-phylum'>{html.escape(self.label)} "
            f"(<i>{html.escape(self.misere_class)}</i>)</span>")


Phylum._repr_html_ = _phylum_html  # type: ignore[attr-defined]  # (Enum reserves _sunder_ names in the body)


_GENUS_KIND_WILD = {
    "tame": Phylum.WILD_OF_TAME_GENUS,
    "restive": Phylum.WILD_OF_RESTIVE_GENUS,
    "restless": Phylum.WILD_OF_RESTLESS_GENUS,
    "wild": Phylum.WILD,
}


@dataclass(frozen=True)
class _Info:
    phylum: Phylum
    g: int
    m: int
    # option ids that are not tame, the reversals found (option id -> (Y for γ0, Y for g)),
    # the first option that breaks reversibility, and a short reason
    wild_options: tuple[Game, ...] = ()
    reversals: tuple[tuple[Game, Game, Game], ...] = ()
    breaker: Game | None = None
    # the reason is written on demand (its games' texts cost more than the classification)
    reason: Any = ""

    def text(self) -> str:
        return self.reason() if callable(self.reason) else self.reason


_MEMO: dict[int, _Info] = register_cache("misere.phyla", {})


def _values(x: Game) -> tuple[int, int]:
    gx = fold(x, _genus_ev)
    return gx.g, gx.gammas[0]


def _genus_str(x: Game) -> str:
    return str(fold(x, _genus_ev))


def _classify(x: Game, opts: tuple[Game, ...]) -> _Info:
    g, m = _values(x)
    kind = genus_class(g, m)
    infos = [_MEMO[o._id] for o in opts]
    if x.nim_heap_size() is not None:
        return _Info(Phylum.NIM_HEAP, g, m, reason=lambda: f"the nim-heap *{x.nim_heap_size()}")
    if all(i.phylum == Phylum.NIM_HEAP for i in infos) and kind == "tame" and (g > 1 or g != m):
        return _Info(Phylum.NIM_HEAP, g, m, reason=lambda: f"equal to the nim-heap *{g}")
    genus_txt = f"genus {_genus_str(x)}"
    if all(i.phylum.is_hereditarily_tame() for i in infos):
        if kind == "tame":
            return _Info(Phylum.HEREDITARILY_TAME, g, m,
                         reason=lambda: f"tame {genus_txt} and every option is hereditarily tame")
        if kind == "restive":
            return _Info(Phylum.HEREDITARILY_RESTIVE, g, m,
                         reason=lambda: f"restive {genus_txt} and every option is hereditarily tame")
    if all(i.phylum.is_tame() for i in infos):
        not_h = [o for o, i in zip(opts, infos) if not i.phylum.is_hereditarily_tame()]
        def via() -> str:
            return f"; the option {not_h[0]} is only reversibly tame" if not_h else ""
        if kind == "tame":
            return _Info(Phylum.REVERSIBLY_TAME, g, m,
                         reason=lambda: f"tame {genus_txt}, every option tame{via()}")
        if kind == "restive":
            return _Info(Phylum.REVERSIBLY_RESTIVE, g, m,
                         reason=lambda: f"restive {genus_txt}, every option tame{via()}")
        if kind == "restless":
            return _Info(Phylum.RESTLESS, g, m,
                         reason=lambda: f"restless {genus_txt} (g ≥ 2, γ0 ≤ 1) and every option is tame")
    wild_opts = tuple(o for o, i in zip(opts, infos) if not i.phylum.is_tame())
    if kind not in ("tame", "restive"):
        w = wild_opts[0]
        return _Info(_GENUS_KIND_WILD[kind], g, m, wild_options=wild_opts, breaker=w,
                     reason=lambda: (f"{kind} {genus_txt}" if kind == "wild" else
                             f"{kind} {genus_txt} but the option {w} is {_MEMO[w._id].phylum}"))
    return _reversible(x, g, m, kind, opts, infos, wild_opts)


def _reversible(x: Game, g: int, m: int, kind: str, opts, infos, wild_opts) -> _Info:
    """Tame or restive genus with a non-tame option: can every such option be reversed?"""
    possible = {Phylum.REVERSIBLY_TAME, Phylum.TAMEABLE} if kind == "tame" else {Phylum.REVERSIBLY_RESTIVE}
    tame_g: set[int] = set()
    tame_m: set[int] = set()
    tameable_g: set[int] = set()
    tameable_m: set[int] = set()
    reversals: list[tuple[Game, Game, Game]] = []
    breaker: Game | None = None
    for o, info in zip(opts, infos):
        if info.phylum.is_tame():
            tame_g.add(info.g)
            tame_m.add(info.m)
            continue
        via_m: Game | None = None
        via_g: Game | None = None
        t_m = t_g = False
        if Phylum.TAMEABLE in possible and info.phylum == Phylum.TAMEABLE:
            tameable_g.add(info.g)
            tameable_m.add(info.m)
            t_m = t_g = True
        for y in o.options:
            yi = _MEMO.get(y._id) or _info(y)
            yp = yi.phylum
            if kind == "tame" and yp.is_tame():
                if via_m is None and yi.m == m:
                    via_m = y
                if via_g is None and yi.g == g:
                    via_g = y
            elif kind == "restive" and yp.is_restive_or_tame():
                # the reversing position must itself be of a compatible restive/tame genus
                if via_m is None and yi.m == m and (yi.g < 2 or (yi.g ^ m) < 2):
                    via_m = y
                if via_g is None and yi.g == g and (yi.m < 2 or (yi.m ^ m) < 2):
                    via_g = y
            elif yp == Phylum.TAMEABLE and Phylum.TAMEABLE in possible:
                t_m |= yi.m == m
                t_g |= yi.g == g
        if via_m is not None and via_g is not None:
            reversals.append((o, via_m, via_g))
            continue
        possible.discard(Phylum.REVERSIBLY_TAME)
        possible.discard(Phylum.REVERSIBLY_RESTIVE)
        if breaker is None:
            breaker = o
        if not (t_m and t_g):
            possible.discard(Phylum.TAMEABLE)
        if not possible:
            break
    genus_txt = f"genus {_genus_str(x)}"
    mismatch = ""
    if possible and (mex(tame_g) != g or mex(tame_m) != m):
        possible.discard(Phylum.REVERSIBLY_TAME)
        possible.discard(Phylum.REVERSIBLY_RESTIVE)
        mismatch = (f"the tame options alone give {mex(tame_g)}^{mex(tame_m)}, "
                    f"not {g}^{m}")
    if Phylum.TAMEABLE in possible:
        tg, tm = tame_g | tameable_g, tame_m | tameable_m
        if (mex(tg) != g or mex(tm) != m) and (tg or g > 0):
            possible.discard(Phylum.TAMEABLE)
    def rev_txt() -> str:
        return "; ".join(f"{o} reverses through {a}" + ("" if a is b else f" and {b}")
                         for o, a, b in reversals)
    for ph in (Phylum.REVERSIBLY_TAME, Phylum.TAMEABLE, Phylum.REVERSIBLY_RESTIVE):
        if ph in possible:
            if ph == Phylum.TAMEABLE:
                why = lambda: (f"tame {genus_txt}; the non-tame options are tameable or reverse through "
                       f"tameable positions" + (f" ({mismatch})" if mismatch else "")
                       + (f"; the option {breaker} does not reverse through a tame position"
                          if breaker is not None else ""))
            else:
                why = lambda: f"{kind} {genus_txt}; {rev_txt()}"  # noqa: E731
            return _Info(ph, g, m, wild_options=wild_opts, reversals=tuple(reversals),
                         breaker=breaker, reason=why)
    if breaker is not None:
        why = lambda: (f"{kind} {genus_txt} but the option {breaker} ({_MEMO[breaker._id].phylum}) "
               f"has no {'tame' if kind == 'tame' else 'restive or tame'} option of "
               f"G⁺ = {g} and G⁻ = {m} to reverse through")
    else:
        why = lambda: f"{kind} {genus_txt} and every wild option reverses, but {mismatch}"  # noqa: E731
    return _Info(_GENUS_KIND_WILD[kind], g, m, wild_options=wild_opts,
                 reversals=tuple(reversals), breaker=breaker, reason=why)


def _even_part(x: Game) -> Game:
    """The earlier-born of ``x`` and ``x + *1`` (their birthdays differ by one; Conway's
    ``*1``-part, :func:`cgtalg.misere.parts.misere_is_even`). A game and its sum with ``*1``
    share a phylum: the classification is made on this even part, as CGSuite does, and the odd
    one inherits it."""
    from cgtalg.misere.parts import _even_part as even_part

    return even_part(x)


def _info(c: Game) -> _Info:
    """Classify a misère canonical form (post-order over its DAG, memoised). A game is
    classified through its even part when that differs (G = E + *1 has E's phylum), else from
    its options' classifications (reversibility looks at second options: options of options,
    so a post-order over options covers them)."""

    def deps(x: Game) -> tuple[Game, ...]:
        e = _even_part(x)
        return (e,) if e is not x else x.options

    def compute(x: Game) -> _Info:
        e = _even_part(x)
        if e is x:
            return _classify(x, x.options)
        ie = _MEMO[e._id]
        g, m = _values(x)
        return _Info(ie.phylum, g, m, ie.wild_options, ie.reversals, ie.breaker,
                     lambda: f"{x} = {e} + *1, and {e} is {ie.phylum}: {ie.text()}")

    return memo_post_order(c, _MEMO, deps, compute)


def _canonical(g: GameLike) -> Game:
    from cgtalg.misere.canonical import misere_canonical_game

    return misere_canonical_game(g)  # type: ignore[arg-type]


def misere_phylum(g: GameLike) -> Phylum:
    """The phylum of ``g`` (module docstring), from its misère canonical form.

    >>> import cgtalg as cg
    >>> misere_phylum(cg.nim(3)).name, misere_phylum("{*2}").name
    ('NIM_HEAP', 'HEREDITARILY_TAME')
    """
    return _info(_canonical(g)).phylum


def misere_class(g: GameLike) -> str:
    """Winning Ways' class of ``g``: ``'tame'``, ``'restive'``, ``'restless'`` or ``'wild'``
    (use :func:`misere_classification` for the phylum and the reason).

    >>> misere_class("*[2#0]"), misere_class("*[2#1]"), misere_class("*[2##]")
    ('restive', 'restless', 'tame')
    """
    return misere_phylum(g).misere_class


def is_half_tame(g: GameLike) -> bool:
    """True when ``g`` is not tame but ``g + g`` is tame of genus ``0^0`` (the Noah's Ark
    property of Winning Ways ch. 13: every restive game is half-tame).

    >>> is_half_tame("*[2#0]"), is_half_tame("*[2#1]"), is_half_tame("*2")
    (True, False, False)
    """
    from cgtalg.misere.canonical import misere_canonical_sum

    c = _canonical(g)
    if _info(c).phylum.is_tame():
        return False
    d = misere_canonical_sum(c, c)._game
    i = _info(d)
    return i.phylum.is_tame() and i.g == 0 and i.m == 0


@dataclass(frozen=True)
class MisereClassification:
    """The phylum of a game with its reason (see :func:`misere_classification`).

    Attributes
    ----------
    game : Game
        The misère canonical form classified.
    phylum : Phylum
    genus : Genus
        The (classical) genus.
    wild_options : tuple of Game
        The options that are not tame.
    reversals : tuple of (option, Y, Y')
        Each wild option that reverses, with the tame (or restive) second options ``Y`` of the
        game's ``γ0`` and ``Y'`` of its ``g`` it reverses through.
    breaker : Game or None
        The first option that breaks tameness (no reversal), if any.
    reason : str
        One sentence a reader can check.
    half_tame : bool
    """

    game: Game
    phylum: Phylum
    genus: object
    wild_options: tuple[Game, ...] = ()
    reversals: tuple[tuple[Game, Game, Game], ...] = ()
    breaker: Game | None = None
    reason: str = ""
    half_tame: bool = False
    extra: dict = field(default_factory=dict, compare=False)

    @property
    def misere_class(self) -> str:
        return self.phylum.misere_class

    def to_dict(self) -> dict:
        return {
            "game": str(self.game),
            "phylum": self.phylum.name.lower(),
            "class": self.misere_class,
            "genus": str(self.genus),
            "wild_options": [str(o) for o in self.wild_options],
            "reversals": [{"option": str(o), "via_misere": str(a), "via_normal": str(b)}
                          for o, a, b in self.reversals],
            "breaker": None if self.breaker is None else str(self.breaker),
            "half_tame": self.half_tame,
            "reason": self.reason,
        }

    def __str__(self) -> str:
        return f"{self.game}: {self.phylum} ({self.misere_class}), genus {self.genus}: {self.reason}"


    def __repr__(self) -> str:
        from cgtalg.core.display import short
        from cgtalg.misere.notation import format_misere

        return (f"MisereClassification({short(format_misere(self.game, max_chars=80), 80)!r}, "
                f"{self.phylum.name}, class={self.misere_class!r}, genus={str(self.genus)!r})")

    def _repr_html_(self) -> str:
        """A small card: the form (cut, its longer text folded), phylum, class, genus, the
        reason (folded when long) and the wild options and reversals, folded."""
        from cgtalg.core.display import Html, card, details, esc, short
        from cgtalg.misere.notation import format_misere

        def text(g: Game, n: int = 120) -> str:
            return format_misere(g, max_chars=n)

        form = text(self.game, 200)
        form_html = f"<code>{esc(form)}</code>"
        if form.endswith("..."):
            form_html += details("longer text (first 4,000 characters)",
                                 f"<code style='word-break:break-all'>{esc(text(self.game, 4000))}</code>")
        rows = [("form", Html(form_html)), ("phylum", str(self.phylum)), ("class", self.misere_class),
                ("genus", Html(self.genus._repr_html_())),  # type: ignore[attr-defined]
                ("half-tame", "yes" if self.half_tame else "no")]
        reason = self.reason
        rows.append(("reason", Html(esc(reason) if len(reason) <= 300 else
                                    esc(short(reason, 300)) + details("whole reason", esc(short(reason, 8000))))))
        parts = []
        if self.wild_options:
            items = "".join(f"<li><code>{esc(text(o))}</code></li>" for o in self.wild_options[:40])
            more = f"<li>... {len(self.wild_options) - 40} more</li>" if len(self.wild_options) > 40 else ""
            parts.append(details(f"{len(self.wild_options)} wild options", f"<ul>{items}{more}</ul>"))
        if self.reversals:
            items = "".join(f"<li><code>{esc(text(o))}</code> reverses through <code>{esc(text(a))}</code>"
                            f" and <code>{esc(text(b))}</code></li>" for o, a, b in self.reversals[:40])
            parts.append(details(f"{len(self.reversals)} reversals", f"<ul>{items}</ul>"))
        if self.breaker is not None:
            rows.append(("breaks tameness", Html(f"<code>{esc(text(self.breaker))}</code>")))
        return card("misère classification", rows, parts, kind="classification")


def misere_classification(g: GameLike) -> MisereClassification:
    """Classify ``g``: phylum, Winning Ways class, genus, the wild options and how they
    reverse, and the option that breaks tameness.

    >>> c = misere_classification("*[(2#20)2[#1]1]")
    >>> c.phylum.name, c.half_tame, str(c.genus)
    ('REVERSIBLY_RESTIVE', True, '0^20')
    """
    from cgtalg.misere.genus import genus

    c = _canonical(g)
    i = _info(c)
    return MisereClassification(c, i.phylum, genus(c), i.wild_options, i.reversals, i.breaker,
                                i.text(), is_half_tame(c))
