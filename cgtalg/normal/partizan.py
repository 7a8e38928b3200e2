"""Normal-play values of short partizan forms: comparison, canonical forms, numbers, stops,
thermographs, cooling and atomic weight.

Everything here is a property of the *value* of a :class:`~cgtalg.core.partizan.PartizanGame`
(its equivalence class under ``G = H iff G - H is a second-player win``), computed on forms:

- :func:`le` — ``G <= H`` iff no ``G^L >= H`` and no ``H^R <= G`` (ONAG ch. 1; Siegel CGT
  II.1): the order of the forms themselves (:func:`cgtalg.core.partizan.form_le`, what the
  operators ``<=``, ``<``, ... of a form use), for anything that converts to a form;
  :func:`compare` gives one of ``'='``, ``'<'``, ``'>'``, ``'||'``; :func:`outcome` the outcome
  class ``'L'``, ``'R'``, ``'P'`` or ``'N'``.
- :func:`canonical_form` — the unique smallest form of the value: dominated options removed and
  reversible ones bypassed (ONAG ch. 10; Siegel CGT II.2). It is an evaluator of the generic
  fold (:mod:`cgtalg.core.fold`) with an ``add`` rule, so a form built as ``A + B`` is
  canonicalised from the canonical forms of ``A`` and ``B`` (number translation, Siegel CGT
  II.3, skips the moves in a number component).
- :func:`is_number`, :func:`number_value` (the simplicity rule: ONAG ch. 2, Siegel CGT II.3),
  :func:`is_infinitesimal`, :func:`is_all_small` (Winning Ways ch. 8; Siegel CGT II.7).
- :func:`left_stop`, :func:`right_stop`, :func:`mean`, :func:`temperature`,
  :func:`thermograph` (exact, with Fraction breakpoints), :func:`cool` (Winning Ways ch. 6;
  Siegel CGT II.5). Temperatures follow Siegel and CGSuite: cooling is defined for
  ``t > -1``, so a number ``m/2^k`` (``k >= 1``) has temperature ``-1/2^k`` and an integer
  ``-1``; every other game has temperature ``>= 0``.
- :func:`atomic_weight` of all-small games (Winning Ways ch. 8; Siegel CGT II.7), including
  the "eccentric" case where the first estimate is an integer and the game is compared with
  a remote star.

Stops, thermographs and cooling live in :mod:`cgtalg.normal.thermography`, infinitesimals and
atomic weight in :mod:`cgtalg.normal.atomic_weight`; the partizan notation, which prints and
reads values, in :mod:`cgtalg.normal.notation`.

References: Conway, *On Numbers and Games* (ONAG); Berlekamp, Conway and Guy, *Winning Ways*
(WW); Siegel, *Combinatorial Game Theory* (CGT), ch. II.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Sequence

from cgtalg.caches import register_cache
from cgtalg.errors import ArgumentError, ArgumentTypeError, shorten
from cgtalg.core.fold import fold
from cgtalg.core.game import pair_fold
from cgtalg.core.named_forms import nimber_of, number_form, number_of, simplest_number, uptimal_parts
from cgtalg.core.partizan import (_FSTOPS, ZERO, PartizanGame, as_partizan, make_form, nimber, partizan_evaluator,
                                  pgame)
from cgtalg.core.partizan import form_le as _le

__all__ = [
    "le",
    "compare",
    "equal",
    "outcome",
    "canonical_form",
    "canonical_sum",
    "is_canonical",
    "is_number",
    "number_value",
    "nimber_value",
    "up_nth",
    "up_bracket",
    "higher_uptimal_parts",
    "higher_up",
]

# -- caches (process-local, keyed on hash-cons ids; emptied by cgtalg.clear_caches()) -------
#: canonical sums memoised on (smaller id, larger id)
_CSUM: dict[tuple[int, int], PartizanGame] = register_cache("normal.partizan canonical sums", {})


# -- comparison ------------------------------------------------------------------------------
def le(g: Any, h: Any) -> bool:
    """``G <= H`` in normal play: no ``G^L >= H`` and no ``H^R <= G`` (ONAG ch. 1; Siegel CGT
    II.1). Memoised on id pairs; evaluated iteratively, so forms of any depth compare.

    Parameters
    ----------
    g, h : PartizanGame, Game, int or dyadic Fraction
        Forms (impartial forms and numbers are embedded).

    Examples
    --------
    >>> import cgtalg as cg
    >>> cg.compare(cg.up, cg.parse("{0 | *}")).le, cg.compare(cg.nim(1), 0).le
    (True, False)
    """
    return _le(as_partizan(g), as_partizan(h))


def compare(g: Any, h: Any) -> str:
    """``'='``, ``'<'``, ``'>'`` or ``'||'`` (confused: neither ``G <= H`` nor ``H <= G``).

    Examples
    --------
    >>> import cgtalg as cg
    >>> [cg.compare(cg.up, x).relation for x in (0, cg.nim(1), cg.dyadic(1, 2))]
    ['>', '||', '<']
    """
    a, b = as_partizan(g), as_partizan(h)
    x, y = _le(a, b), _le(b, a)
    return "=" if x and y else "<" if x else ">" if y else "||"


def equal(g: Any, h: Any) -> bool:
    """Equality of values: ``G <= H`` and ``H <= G`` (identity of forms is ``G is H``)."""
    a, b = as_partizan(g), as_partizan(h)
    return _le(a, b) and _le(b, a)


def outcome(g: Any) -> str:
    """Normal-play outcome class: ``'L'`` (G > 0, Left wins), ``'R'`` (G < 0), ``'P'``
    (G = 0, the second player wins) or ``'N'`` (G || 0, the first player wins).

    Examples
    --------
    >>> import cgtalg as cg
    >>> [cg.outcome(x) for x in (cg.up, cg.down, cg.nim(0), cg.nim(1))]
    ['L', 'R', 'P', 'N']
    """
    x = as_partizan(g)
    ge0, le0 = _le(ZERO, x), _le(x, ZERO)
    return "P" if ge0 and le0 else "L" if ge0 else "R" if le0 else "N"


# -- canonical forms ---------------------------------------------------------------------------
def _undominated(opts: list[PartizanGame], left: bool) -> list[PartizanGame]:
    """Options not dominated by another (Left keeps the maximal ones, Right the minimal);
    the options are canonical forms, so distinct ones have distinct values."""
    if len(opts) <= 1:
        return opts
    keep: list[PartizanGame] = []
    for i, x in enumerate(opts):
        dominated = False
        for j, y in enumerate(opts):
            if i != j and (_le(x, y) if left else _le(y, x)):
                dominated = True
                break
        if not dominated:
            keep.append(x)
    return keep


def _bypass_reversible(options: list[PartizanGame], g0: PartizanGame, left: bool) -> tuple[list[PartizanGame], bool]:
    """Replace each reversible option by the options it reverses through (ONAG ch. 10; Siegel,
    CGT II.2): a Left option x reverses through x^R when x^R ≤ G, and is replaced by the Left
    options of that x^R; a Right option y through y^L ≥ G, replaced by y^L's Right options.
    Returns the new options and whether any option was bypassed."""
    out: list[PartizanGame] = []
    changed = False
    for x in options:
        through = x._right if left else x._left
        rev = next((t for t in through if (_le(t, g0) if left else _le(g0, t))), None)
        if rev is None:
            out.append(x)
        else:
            out.extend(rev._left if left else rev._right)
            changed = True
    return out, changed


def _from_canonical_options(lv: Sequence[PartizanGame], rv: Sequence[PartizanGame]) -> PartizanGame:
    """The canonical form of ``{lv | rv}`` whose options are canonical forms: dominated options
    removed and reversible ones bypassed until neither remains (Siegel CGT II.2)."""
    lo = list({o._id: o for o in lv}.values())
    ro = list({o._id: o for o in rv}.values())
    # numbers only: the simplicity rule, or a hot {a | b} with a >= b (already canonical)
    lnum = [number_of(o) for o in lo]
    rnum = [number_of(o) for o in ro]
    if None not in lnum and None not in rnum:
        a = max(lnum) if lnum else None  # type: ignore[type-var]
        b = min(rnum) if rnum else None  # type: ignore[type-var]
        if a is None or b is None or a < b:
            return _with_stops(number_form(simplest_number(a, b)))
        return _with_stops(PartizanGame._make((lo[lnum.index(a)],), (ro[rnum.index(b)],)))
    # nimbers only, the same on both sides: the mex (the impartial case)
    if len(lo) == len(ro):
        ln = {nimber_of(o) for o in lo}
        if None not in ln and ln == {nimber_of(o) for o in ro}:
            n = 0
            while n in ln:
                n += 1
            return _with_stops(nimber(n))
    lo = _undominated(lo, True)
    ro = _undominated(ro, False)
    g0 = make_form(lo, ro)  # equal in value to the game throughout
    while True:
        new_lo, bypassed_l = _bypass_reversible(lo, g0, True)
        new_ro, bypassed_r = _bypass_reversible(ro, g0, False)
        changed = bypassed_l or bypassed_r
        if not changed:
            break
        lo = _undominated(list({o._id: o for o in new_lo}.values()), True)
        ro = _undominated(list({o._id: o for o in new_ro}.values()), False)
    return _with_stops(make_form(lo, ro))


def _with_stops(c: PartizanGame) -> PartizanGame:
    """``c`` (canonical), with its stops recorded for the comparison shortcuts of
    :func:`cgtalg.core.partizan.form_le` (as floats, when they are exact: dyadic rationals of at
    most 53 significant bits)."""
    if c._id not in _FSTOPS:
        from cgtalg.normal.thermography import _STOPS

        ls, rs = fold(c, _STOPS)
        fl, fr = float(ls), float(rs)
        if fl == ls and fr == rs:
            _FSTOPS[c._id] = (fl, fr)
    return c


def canonical_sum(a: PartizanGame, b: PartizanGame) -> PartizanGame:
    """The canonical form of ``a + b`` for canonical forms ``a`` and ``b`` (memoised on id
    pairs, iterative: the pair walk :func:`cgtalg.core.game.pair_fold`). A number component
    contributes no moves (number translation, Siegel CGT II.3: ``G + x = {G^L + x | G^R + x}``
    when ``G`` is not a number)."""

    def moves(x: PartizanGame) -> tuple[PartizanGame, ...]:
        return () if number_of(x) is not None else x._options

    def build(x: PartizanGame, y: PartizanGame, s: Any) -> PartizanGame:
        xn, yn = number_of(x), number_of(y)
        if xn is not None and yn is not None:
            return number_form(xn + yn)
        lv = ([s(o, y) for o in x._left] if xn is None else []) + ([s(x, o) for o in y._left] if yn is None else [])
        rv = ([s(o, y) for o in x._right] if xn is None else []) + ([s(x, o) for o in y._right] if yn is None else [])
        return _from_canonical_options(lv, rv)

    return pair_fold(a, b, _CSUM, build, moves)


@partizan_evaluator("partizan_canonical")
def _CANON(g: PartizanGame, lv: Sequence[PartizanGame], rv: Sequence[PartizanGame]) -> PartizanGame:
    return _from_canonical_options(lv, rv)


_CANON.add = canonical_sum
_CANON.number = number_form  # a compact number is its own canonical form


def canonical_form(g: Any) -> PartizanGame:
    """The canonical form of ``G``: the unique form of its value with no dominated and no
    reversible options (ONAG ch. 10; Siegel CGT II.2). Two games are equal iff their canonical
    forms are identical (``is``).

    Computed bottom-up by the generic fold (memoised on ids); a form built as a sum is
    canonicalised from the canonical forms of its parts.

    Examples
    --------
    >>> import cgtalg as cg
    >>> G = cg.parse("{0, * | 0}")          # up-star, written with both Left options
    >>> str(cg.canonical_form(G)), cg.canonical_form(cg.up + cg.nim(1)) is cg.canonical_form(G)
    ('^*', True)
    >>> str(cg.canonical_form(cg.parse("{1 | 2}")))
    '3/2'
    """
    return fold(as_partizan(g), _CANON)


def is_canonical(g: Any) -> bool:
    """True when the form ``G`` is its own canonical form."""
    x = as_partizan(g)
    return canonical_form(x) is x


# -- numbers and nimbers as values ---------------------------------------------------------------
def number_value(g: Any) -> Fraction | None:
    """The number ``G`` equals (a dyadic :class:`~fractions.Fraction`), or None when ``G`` is
    not a number. By the simplicity rule, ``{G^L | G^R}`` with number options and every
    ``G^L < G^R`` is the simplest number between them (ONAG ch. 2; Siegel CGT II.3).

    Examples
    --------
    >>> import cgtalg as cg
    >>> cg.number_value(cg.parse("{0 | 1}")), cg.number_value(cg.parse("{1 | 0}"))
    (Fraction(1, 2), None)
    """
    return number_of(canonical_form(g))


def is_number(g: Any) -> bool:
    """True when ``G`` equals a (dyadic) number."""
    return number_value(g) is not None


def nimber_value(g: Any) -> int | None:
    """``n`` when ``G = *n``, else None."""
    return nimber_of(canonical_form(g))


#: the largest n for which ^<n>, ^[n] and their negatives are recognised when printing
HIGHER_UP_MAX = 8
_UPNTH: dict[int, PartizanGame] = register_cache("normal.partizan up-nth", {})
_UPBRACKET: dict[int, PartizanGame] = register_cache("normal.partizan up-bracket", {})
#: canonical id -> ("<" or "[", signed n)
_HIGHER: dict[int, tuple[str, int]] = register_cache("normal.partizan higher ups", {})
_HIGHER_OF: dict[int, tuple[Fraction, str, int, int] | None] = register_cache(
    "normal.partizan higher uptimals of forms", {})


def up_nth(n: int) -> PartizanGame:
    """``↑^n`` (CGSuite ``^<n>``, Conway's up-nth): ``↑^1 = ↑`` and ``↑^(n+1) = {0 | ↓^{→n} *}``
    where ``↑^{→n} = ↑ + ↑^2 + ... + ↑^n`` is CGSuite's ``^[n]`` (:func:`up_bracket`; Siegel
    CGT II.7; CGSuite reads ``{0|v*}`` as ``^<2>``)."""
    if isinstance(n, bool) or not isinstance(n, int):
        raise ArgumentTypeError(f"up_nth needs an int n >= 1, got {shorten(n)}")
    if n < 1:
        raise ArgumentError(f"up_nth needs n >= 1, got {shorten(n)}")
    from cgtalg.core.partizan import up

    if n == 1:
        return up
    if n not in _UPNTH:
        _UPNTH[n] = canonical_form(pgame([ZERO], [canonical_sum(-up_bracket(n - 1), nimber(1))]))
    return _UPNTH[n]


def up_bracket(n: int) -> PartizanGame:
    """CGSuite's ``^[n]``: ``{0|*||*|...|*}`` with ``n`` levels, ``^[1] = ↑`` and
    ``^[n+1] = {^[n] | *}`` (CGSuite's CanonicalShortGameTestCase prints
    ``{0|*||*|||*||||*}`` as ``^[4]``)."""
    if isinstance(n, bool) or not isinstance(n, int):
        raise ArgumentTypeError(f"up_bracket needs an int n >= 1, got {shorten(n)}")
    if n < 1:
        raise ArgumentError(f"up_bracket needs n >= 1, got {shorten(n)}")
    from cgtalg.core.partizan import up

    if n not in _UPBRACKET:
        g = up
        for k in range(1, n):
            g = _UPBRACKET.get(k + 1) or canonical_form(pgame([g], [nimber(1)]))
            _UPBRACKET[k + 1] = g
        _UPBRACKET[1] = up
    return _UPBRACKET[n]


def higher_up(kind: str, n: int) -> PartizanGame:
    """``^<n>`` (:func:`up_nth`) for ``kind == "<"``, ``^[n]`` (:func:`up_bracket`) for
    ``kind == "["``: what the notation reads."""
    return up_nth(n) if kind == "<" else up_bracket(n)


def _higher_table() -> dict[int, tuple[str, int]]:
    if not _HIGHER:
        for n in range(2, HIGHER_UP_MAX + 1):
            for kind, g in (("<", up_nth(n)), ("[", up_bracket(n))):
                _HIGHER.setdefault(g._id, (kind, n))
                _HIGHER.setdefault((-g)._id, (kind, -n))
    return _HIGHER


def higher_uptimal_parts(g: PartizanGame) -> tuple[Fraction, str, int, int] | None:
    """``(x, kind, n, m)`` when the canonical form ``g`` is ``x + ^<n> + *m`` (kind ``"<"``) or
    ``x + ^[n] + *m`` (kind ``"["``), ``n`` negative for ``v<|n|>`` / ``v[|n|]``, with
    ``2 <= |n| <=`` :data:`HIGHER_UP_MAX` and ``m`` in 0..3; else None. Used to print such
    values as CGSuite does (``3/4v[3]*``)."""
    if g._id in _HIGHER_OF:
        return _HIGHER_OF[g._id]
    res = None
    if (g._birthday <= 2 * HIGHER_UP_MAX + 4 and uptimal_parts(g) is None and number_of(g) is None
            and canonical_form(g) is g):
        from cgtalg.normal.thermography import left_stop, right_stop

        x = left_stop(g)
        if x == right_stop(g):
            table = _higher_table()
            h = canonical_sum(g, number_form(-x)) if x else g
            for m in range(4):
                k = canonical_sum(h, nimber(m)) if m else h
                if k._id in table:
                    kind, n = table[k._id]
                    res = (x, kind, n, m)
                    break
    _HIGHER_OF[g._id] = res
    return res
