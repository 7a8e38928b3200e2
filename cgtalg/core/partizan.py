"""Short partizan game forms ``{G^L | G^R}``, hash-consed beside the impartial forms.

A :class:`PartizanGame` is a *form*: a set of Left options and a set of Right options, each a
form. It lives in the same hash-cons table as :class:`cgtalg.core.game.Game` (one id space:
:func:`cgtalg.core.game.game_by_id` finds either kind), so structural equality is identity
(``G is H``), sums and negatives memoise on id pairs, and every recursive evaluation runs
through the generic fold of :mod:`cgtalg.core.fold`: a partizan form's ``options`` are its
Left options followed by its Right options, and :func:`partizan_evaluator` turns a rule
``combine(game, left_values, right_values)`` into an :class:`~cgtalg.core.fold.Evaluator`.

Constructors: :func:`pgame` (options given), :func:`integer`, :func:`dyadic` (the canonical
form of a dyadic rational), :func:`nimber` (``*n = {*0..*(n-1) | *0..*(n-1)}``), :data:`up`
(``↑ = {0 | *}``), :data:`down`, :func:`switch` (``±x = {x | -x}``), and
:func:`from_impartial` (an impartial form ``G`` as ``{G' | G'}``). Operations: ``G + H``
(disjunctive sum), ``-G`` (negative: Left and Right exchanged), ``G - H``.

The comparison operators ``<=``, ``<``, ... compare values in normal play, from the definition
(:func:`form_le`: ``G <= H`` iff no ``G^L >= H`` and no ``H^R <= G``). Values (canonical forms,
stops, thermographs) are in :mod:`cgtalg.normal.partizan`; misère play in
:mod:`cgtalg.misere.partizan`; the forms that are numbers, nimbers and uptimals are built and
recognised in :mod:`cgtalg.core.named_forms`. A form prints in CGSuite's notation, a notation of
values (``1/2^*``, ``Tiny(3/2)``), which :mod:`cgtalg.normal.notation` reads and writes: the
forms reach it through the registration point :data:`cgtalg.hooks.partizan_notation`.

References: Conway, *On Numbers and Games* (ONAG), ch. 0-1, 7-9; Berlekamp, Conway and Guy,
*Winning Ways*, ch. 1-6; Siegel, *Combinatorial Game Theory* (CGT), ch. I-II.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, Iterable, Sequence

from cgtalg import hooks as _hooks
from cgtalg.caches import register_cache
from cgtalg.core.fold import Evaluator, fold
from cgtalg.core.game import WALK_LIMIT, Game, _TABLE, pair_fold
from cgtalg.errors import ArgumentError, ArgumentTypeError, ComputationLimitError, shorten

__all__ = [
    "PartizanGame",
    "pgame",
    "make_form",
    "integer",
    "dyadic",
    "nimber",
    "up",
    "down",
    "switch",
    "from_impartial",
    "to_impartial",
    "partizan_sum",
    "partizan_evaluator",
    "form_le",
    "Form",
]

# hash-cons keys of partizan forms: (left ids, right ids) -> form (identity: never cleared)
_PKEYS: dict[tuple[tuple[int, ...], tuple[int, ...]], "PartizanGame"] = {}
# sums and negatives memoised on ids (answers: cleared by cgtalg.clear_caches())
_PSUMS: dict[tuple[int, int], "PartizanGame"] = register_cache("core.partizan sums", {})
_PNEG: dict[int, "PartizanGame"] = register_cache("core.partizan negatives", {})
#: the order of forms: (G.id << 32 | H.id) -> G <= H (ids stay below 2**32)
_LE: dict[int, bool] = register_cache("core.partizan comparisons", {})
#: id -> (left stop, right stop) as exact floats, recorded for canonical forms by
#: cgtalg.normal.partizan (a shortcut of :func:`form_le`, never needed for its answer)
_FSTOPS: dict[int, tuple[float, float]] = register_cache("core.partizan stops of canonical forms", {})

#: the most units a constructor builds as a literal form (``integer(n)`` has birthday ``|n|``)
INTEGER_LIMIT = 100_000


class PartizanGame:
    """A short partizan game form ``{G^L | G^R}``, identified by its two option sets.

    Do not call the constructor; use :func:`pgame`, the other constructors of this module or
    :func:`cgtalg.parse`.

    Attributes
    ----------
    id : int
        Process-local hash-cons id, shared with the impartial forms' id space.
    left, right : tuple[PartizanGame, ...]
        The distinct Left and Right options, each ordered by id.
    options : tuple[PartizanGame, ...]
        ``left + right`` (what the generic fold walks; a form that is both a Left and a Right
        option appears twice).
    birthday : int
        The height of the game tree (0 for ``0 = { | }``).
    """

    __slots__ = ("_left", "_right", "_options", "_id", "_birthday", "_heap", "__weakref__")

    _left: tuple["PartizanGame", ...]
    _right: tuple["PartizanGame", ...]
    _options: tuple["PartizanGame", ...]
    _id: int
    _birthday: int
    _heap: None
    #: compact parts (cgtalg.core.partizan_atoms) override these: a number atom's value, and
    #: whether the form's options are made only when asked for
    _num: Fraction | None = None
    _lazy = False

    def __new__(cls, *args: Any, **kwargs: Any):  # pragma: no cover - guarded constructor
        raise ArgumentTypeError("use cgtalg.pgame(left, right), cgtalg.integer(n), ... or cgtalg.parse(text)")

    @classmethod
    def _make(cls, left: tuple["PartizanGame", ...], right: tuple["PartizanGame", ...]) -> "PartizanGame":
        key = (tuple(o._id for o in left), tuple(o._id for o in right))
        found = _PKEYS.get(key)
        if found is not None:
            return found
        options = left + right
        birthday = 1 + max((o._birthday for o in options), default=-1)
        if (birthday > 64 or birthday > INTEGER_LIMIT) and len(left) <= 1 and len(right) <= 1:
            # {n-1 | } built from a compact number n-1 is the atom n (one form, one object)
            from cgtalg.core.partizan_atoms import number_atom, number_candidate

            q = number_candidate(left, right)
            if q is not None:
                return number_atom(q)
        self = object.__new__(cls)
        self._left = left
        self._right = right
        self._options = options
        self._heap = None
        self._id = len(_TABLE.by_id)
        self._birthday = birthday
        _PKEYS[key] = self
        _TABLE.by_id.append(self)  # type: ignore[arg-type]
        return self

    # -- structure ---------------------------------------------------------------------
    @property
    def id(self) -> int:
        """Process-local hash-cons id; equal ids mean identical forms."""
        return self._id

    @property
    def left(self) -> tuple["PartizanGame", ...]:
        """The Left options ``G^L`` (distinct, ordered by id)."""
        return self._left

    @property
    def right(self) -> tuple["PartizanGame", ...]:
        """The Right options ``G^R`` (distinct, ordered by id)."""
        return self._right

    @property
    def options(self) -> tuple["PartizanGame", ...]:
        """``left + right``: the children the generic fold walks."""
        return self._options

    @property
    def _option_ids(self) -> tuple[int, ...]:
        # the ids of ``left + right``, as Game._option_ids (made on each use, never stored)
        return tuple(o._id for o in self._options)

    @property
    def birthday(self) -> int:
        """Formal birthday: 0 for ``0``, else 1 + the largest birthday of an option."""
        return self._birthday

    @property
    def is_zero(self) -> bool:
        """True for the empty form ``0 = { | }``."""
        return not self._options

    @property
    def is_atom(self) -> bool:
        """Always False: partizan forms have no implied options."""
        return False

    def nim_heap_size(self) -> None:
        """None: partizan forms are never impartial atoms (see :func:`nimber`)."""
        return None

    @property
    def is_impartial(self) -> bool:
        """True when every subposition has the same Left and Right options."""
        return fold(self, _IMPARTIAL)

    @property
    def sum_parts(self) -> tuple["PartizanGame", "PartizanGame"] | None:
        """A pair ``(A, B)`` with ``self`` built as ``A + B``, if this form was made by a sum."""
        parts = _TABLE.parts.get(self._id)
        if parts is None:
            return None
        return _TABLE.by_id[parts[0]], _TABLE.by_id[parts[1]]  # type: ignore[return-value]

    def subpositions(self, expand_atoms: bool = True) -> list["PartizanGame"]:
        """All distinct subpositions (including ``self``), children before parents.

        With ``expand_atoms=False`` a compact part (a number too large to build as a tree, or a
        literal sum holding one: :mod:`cgtalg.core.partizan_atoms`) is listed and not descended
        into; by default such a part is refused with
        :class:`~cgtalg.errors.ComputationLimitError`, since its tree cannot be walked."""
        order: list[PartizanGame] = []
        seen: set[int] = set()
        stack: list[tuple[PartizanGame, int]] = [(self, 0)]
        while stack:
            g, i = stack.pop()
            if i == 0 and g._id in seen:
                continue
            if i == 0 and g._lazy:
                if expand_atoms:
                    from cgtalg.core.partizan_atoms import compact_refusal

                    raise compact_refusal("listing the subpositions", g)
                seen.add(g._id)
                order.append(g)
                continue
            if i < len(g._options):
                stack.append((g, i + 1))
                child = g._options[i]
                if child._id not in seen:
                    stack.append((child, 0))
            elif g._id not in seen:
                seen.add(g._id)
                order.append(g)
        return order

    # -- arithmetic ----------------------------------------------------------------------
    def __add__(self, other: Any) -> "PartizanGame":
        o = _coerce(other)
        if o is None:
            return NotImplemented
        return partizan_sum(self, o)

    def __radd__(self, other: Any) -> "PartizanGame":
        if isinstance(other, int) and not isinstance(other, bool) and other == 0:
            return self  # sum([...])
        o = _coerce(other)
        if o is None:
            return NotImplemented
        return partizan_sum(o, self)

    def __neg__(self) -> "PartizanGame":
        return negative(self)

    def __sub__(self, other: Any) -> "PartizanGame":
        o = _coerce(other)
        if o is None:
            return NotImplemented
        return partizan_sum(self, negative(o))

    def __rsub__(self, other: Any) -> "PartizanGame":
        o = _coerce(other)
        if o is None:
            return NotImplemented
        return partizan_sum(o, negative(self))

    # comparison of values (not of forms): normal play's G <= H, from the definition (form_le)
    def __le__(self, other: Any) -> bool:
        o = _coerce(other)
        if o is None:
            return NotImplemented
        return form_le(self, o)

    def __ge__(self, other: Any) -> bool:
        o = _coerce(other)
        if o is None:
            return NotImplemented
        return form_le(o, self)

    def __lt__(self, other: Any) -> bool:
        o = _coerce(other)
        if o is None:
            return NotImplemented
        return form_le(self, o) and not form_le(o, self)

    def __gt__(self, other: Any) -> bool:
        o = _coerce(other)
        if o is None:
            return NotImplemented
        return form_le(o, self) and not form_le(self, o)

    # identity: ``==`` is structural (the same form), as for impartial forms; equality of
    # values is cgtalg.normal.partizan.equal (or comparing canonical forms)
    def __eq__(self, other: object) -> bool:
        return self is other

    def __hash__(self) -> int:
        return self._id

    def __reduce__(self):
        return (_unpickle, (literal_text(self),))

    # -- display: CGSuite's notation, a notation of values that the normal-play layer reads
    # and writes (cgtalg.normal.notation, reached through cgtalg.hooks.partizan_notation) ---
    def __str__(self) -> str:
        notation = _hooks.partizan_notation.resolve()
        try:
            return notation.format_partizan(self)
        except ComputationLimitError:  # a text longer than FORMAT_LIMIT: cut, ending in "..."
            return notation.format_partizan(self, max_chars=notation.FORMAT_LIMIT)

    def __repr__(self) -> str:
        text = _hooks.partizan_notation.resolve().format_partizan(self, max_chars=200)  # no more than it shows
        if len(text) > 200:
            text = text[:197] + "..."
        return f"PartizanGame({text!r})"

    def _repr_html_(self) -> str:  # notebooks: the card a higher layer provides (cgtalg.hooks)
        return _hooks.form_html(self)

    def _repr_latex_(self) -> str | None:
        """The form in the literature's notation (``\\Uparrow\\!*``, ``\\pm 1``,
        ``\\{2\\|1\\mid 0\\}``, ``\\frac{1}{2}``): :func:`cgtalg.core.latex.form_latex` of its text;
        None (no LaTeX display) for a form whose text is too long."""
        from cgtalg.core.latex import LATEX_LIMIT, form_latex, math

        try:
            text = _hooks.partizan_notation.resolve().format_partizan(self, max_chars=LATEX_LIMIT)
            return math(form_latex(text))
        except ComputationLimitError:
            return None

    def to_networkx(self):
        """This form as a :class:`networkx.DiGraph`: nodes are form ids (attributes ``game``,
        ``birthday``, ``label``), an edge ``G -> H`` for each option with attribute ``sides``
        (``"L"``, ``"R"`` or ``"LR"`` when ``H`` is an option for both players). The graph
        attribute ``root`` is ``self.id``."""
        import networkx as nx

        graph = nx.DiGraph(root=self._id)
        for x in self.subpositions():
            graph.add_node(x._id, game=x, birthday=x._birthday, label=_short(str(x)))
            for o in x._left:
                graph.add_edge(x._id, o._id, sides="L")
            for o in x._right:
                if graph.has_edge(x._id, o._id):
                    graph.edges[x._id, o._id]["sides"] = "LR"
                else:
                    graph.add_edge(x._id, o._id, sides="R")
        return graph


#: what the arithmetic accepts besides forms: ints, Fractions with a power-of-2 denominator,
#: impartial forms (embedded by :func:`from_impartial`)
Form = "PartizanGame | Game | int | Fraction"


def _coerce(x: Any) -> PartizanGame | None:
    if isinstance(x, PartizanGame):
        return x
    if isinstance(x, Game):
        return from_impartial(x)
    if isinstance(x, bool):
        return None
    if isinstance(x, int):
        return integer(x)
    if isinstance(x, Fraction):
        return dyadic(x)
    form = getattr(x, "__cgtalg_form__", None)  # e.g. a finite Nimber: the nim-heap *n
    if form is not None:
        return _coerce(form())
    return None


def as_partizan(x: Any) -> PartizanGame:
    """``x`` as a partizan form (forms, impartial forms, ints and dyadic Fractions accepted)."""
    g = _coerce(x)
    if g is None:
        from cgtalg.errors import GameKindError

        raise GameKindError(f"expected a partizan form, an impartial form or a dyadic number, got "
                            f"{type(x).__name__}: {_short(repr(x), 60)}")
    return g


def _short(text: str, n: int = 40) -> str:
    return text if len(text) <= n else text[: n - 3] + "..."


def _unique_sorted(options: Iterable[Any], side: str) -> tuple[PartizanGame, ...]:
    seen: dict[int, PartizanGame] = {}
    if isinstance(options, (str, bytes, PartizanGame, Game)) or not hasattr(options, "__iter__"):
        raise ArgumentTypeError(f"{side} options must be an iterable of forms, got "
                                f"{type(options).__name__}: {shorten(options)}")
    for o in options:
        g = _coerce(o)
        if g is None:
            raise ArgumentTypeError(f"{side} options must be partizan forms (or impartial forms, "
                                    f"ints, dyadic Fractions), got {type(o).__name__}: {shorten(o)}")
        seen.setdefault(g._id, g)
    return tuple(sorted(seen.values(), key=lambda g: g._id))


def pgame(left: Iterable[Any] = (), right: Iterable[Any] = ()) -> PartizanGame:
    """The form ``{left | right}`` (duplicate options merge).

    >>> import cgtalg as cg
    >>> z = cg.pgame()
    >>> cg.pgame([z], [z]) is cg.parse_partizan("*")
    True
    """
    return PartizanGame._make(_unique_sorted(left, "Left"), _unique_sorted(right, "Right"))


def make_form(left: Iterable[PartizanGame], right: Iterable[PartizanGame]) -> PartizanGame:
    """The form ``{left | right}`` from partizan forms (duplicates merge): :func:`pgame`
    without the conversions, for code that already holds forms."""
    lo = tuple(sorted({o._id: o for o in left}.values(), key=lambda o: o._id))
    ro = tuple(sorted({o._id: o for o in right}.values(), key=lambda o: o._id))
    return PartizanGame._make(lo, ro)


ZERO: PartizanGame = PartizanGame._make((), ())


def integer(n: int) -> PartizanGame:
    """The integer ``n`` as its canonical form: ``n = {n-1 | }`` for ``n > 0``, ``{ | n+1}`` for
    ``n < 0`` (ONAG ch. 0). Beyond :data:`INTEGER_LIMIT` (the form has birthday ``|n|``) the
    form is kept compact (:mod:`cgtalg.core.partizan_atoms`)."""
    if isinstance(n, bool) or not isinstance(n, int):
        raise ArgumentTypeError(f"integer() needs an int, got {shorten(n)}")
    if abs(n) > INTEGER_LIMIT:
        from cgtalg.core.partizan_atoms import number_atom

        return number_atom(Fraction(n))
    g = ZERO
    for _ in range(abs(n)):
        g = PartizanGame._make((g,), ()) if n > 0 else PartizanGame._make((), (g,))
    return g


def dyadic(x: Any, den: int | None = None) -> PartizanGame:
    """The canonical form of the dyadic rational ``x`` (an int, a :class:`~fractions.Fraction`
    with a power-of-2 denominator, or ``dyadic(num, den)``): ``m/2^k = {(m-1)/2^k | (m+1)/2^k}``
    for odd ``m`` and ``k >= 1`` (ONAG ch. 0; the options are in lowest terms).

    >>> import cgtalg as cg
    >>> half = cg.dyadic(1, 2)
    >>> half.left == (cg.integer(0),) and half.right == (cg.integer(1),)
    True
    """
    q = _fraction(x, den)
    d = q.denominator
    if d & (d - 1):
        raise ArgumentError(f"{shorten(q)} is not a dyadic rational (denominator not a power of "
                            "2); short games have dyadic numbers only")
    if d == 1:
        return integer(q.numerator)
    k = d.bit_length() - 1
    if k > 64 or abs(q.numerator) // d + k + 1 > INTEGER_LIMIT:
        from cgtalg.core.partizan_atoms import number_atom

        return number_atom(q)  # a tree too large to build: kept compact
    m = q.numerator
    return PartizanGame._make((dyadic(Fraction(m - 1, d)),), (dyadic(Fraction(m + 1, d)),))


def _fraction(x: Any, den: Any = None) -> Fraction:
    """``Fraction(x)`` or ``Fraction(x, den)``, with a cgtalg error for what is not a rational
    number (``nan``, ``inf``, ``'x'``, a list, a zero denominator) and a refusal of text whose
    exponent would build a number of more than a million digits (``'1e999999999'``)."""
    if isinstance(x, bool) or isinstance(den, bool):
        raise ArgumentTypeError(f"a number is needed, got {shorten(x if isinstance(x, bool) else den)}")
    if isinstance(x, str):
        import re

        exponent = re.search(r"[eE]\s*([+-]?\d+)", x)
        if exponent and len(exponent.group(1)) > 7:
            raise ComputationLimitError(f"the number {shorten(x)} has an exponent beyond 10^6")
    try:
        return Fraction(x) if den is None else Fraction(x, den)
    except (TypeError, AttributeError):
        raise ArgumentTypeError(f"a rational number is needed (an int, a Fraction, a float or "
                                f"text such as '3/4'), got {type(x).__name__}: {shorten(x)}") from None
    except (ValueError, OverflowError, ZeroDivisionError):
        raise ArgumentError(f"{shorten(x)}{'' if den is None else '/' + shorten(den)} is not a "
                            "finite rational number") from None


def nimber(n: int) -> PartizanGame:
    """The nim-heap ``*n = {*0, ..., *(n-1) | *0, ..., *(n-1)}`` as a partizan form."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ArgumentError(f"nimber() needs an int >= 0, got {shorten(n)}")
    if n * (n + 1) // 2 > WALK_LIMIT:
        raise ComputationLimitError(f"*{n} as a partizan form has {n * (n + 1)} option links, more "
                                    f"than cgtalg.core.game.WALK_LIMIT")
    heaps: list[PartizanGame] = [ZERO]
    for _ in range(n):
        opts = tuple(sorted(heaps, key=lambda g: g._id))
        heaps.append(PartizanGame._make(opts, opts))
    return heaps[n]


def switch(x: Any) -> PartizanGame:
    """``±x = {x | -x}`` (a hot game of temperature ``x`` for a number ``x > 0``)."""
    g = as_partizan(x)
    return PartizanGame._make((g,), (negative(g),))


def _impartial_combine(g: Game, vals: Sequence[PartizanGame]) -> PartizanGame:
    opts = tuple(sorted({v._id: v for v in vals}.values(), key=lambda v: v._id))
    return PartizanGame._make(opts, opts)


_FROM_IMPARTIAL: Evaluator = Evaluator("as_partizan", _impartial_combine)


def from_impartial(g: Game) -> PartizanGame:
    """The impartial form ``g`` as a partizan form: every subposition ``{G' | G'}``
    (through the generic fold, memoised; refused past the walk limit for huge nim-heaps)."""
    if not isinstance(g, Game):
        from cgtalg.errors import GameKindError

        raise GameKindError(f"from_impartial() needs an impartial Game, got {type(g).__name__}")
    return fold(g, _FROM_IMPARTIAL)


def to_impartial(g: PartizanGame, question: str = "an impartial question") -> Game:
    """The impartial form of a partizan form whose Left and Right options agree at every
    position (``{*|*}`` is ``{*}``, ``{0|0}`` is ``*``). Any other partizan form is refused with
    :class:`~cgtalg.errors.GameKindError` naming ``question``: a partizan game has no impartial
    answer (no Grundy value, genus, misère canonical form of the impartial universe).

    >>> from cgtalg.core.notation import parse
    >>> str(to_impartial(parse("{*|*}")))
    '{*}'
    """
    from cgtalg.core.game import game
    from cgtalg.errors import GameKindError

    if not g.is_impartial:
        raise GameKindError(
            f"{question}: {_short(str(g))} is a partizan game (its Left and Right options differ), "
            "which has no impartial answer; the doors cgtalg.outcome, cgtalg.canonical_form and "
            "cgtalg.compare answer for partizan games",
            ("cgtalg.outcome", "cgtalg.canonical_form", "cgtalg.compare"))
    memo: dict[int, Game] = {}
    for x in g.subpositions():  # children before parents
        memo[x._id] = game(memo[o._id] for o in x._left)
    return memo[g._id]


def negative(g: PartizanGame) -> PartizanGame:
    """``-G = {-G^R | -G^L}`` (memoised; iterative)."""
    hit = _PNEG.get(g._id)
    if hit is not None:
        return hit
    for x in g.subpositions(expand_atoms=False):
        if x._id in _PNEG:
            continue
        if x._lazy:  # a compact number, or a literal sum holding one: -(A + B) = -A + -B
            if x._num is not None:
                n = dyadic(-x._num)
            else:
                a, b = x.sum_parts  # type: ignore[misc]
                n = partizan_sum(negative(a), negative(b))
            _PNEG[x._id] = n
            _PNEG.setdefault(n._id, x)
            continue
        left = tuple(sorted((_PNEG[o._id] for o in x._right), key=lambda v: v._id))
        right = tuple(sorted((_PNEG[o._id] for o in x._left), key=lambda v: v._id))
        n = PartizanGame._make(left, right)
        _PNEG[x._id] = n
        _PNEG.setdefault(n._id, x)
    return _PNEG[g._id]


def partizan_sum(a: PartizanGame, b: PartizanGame) -> PartizanGame:
    """The disjunctive sum ``a + b = {a^L + b, a + b^L | a^R + b, a + b^R}`` (memoised on id
    pairs, built iteratively).

    Raises
    ------
    ComputationLimitError
        When the literal sum would have more than :data:`~cgtalg.core.game.WALK_LIMIT`
        subpositions (the product of the parts' counts bounds it), before anything is built.
    """
    if a.is_zero:
        return b
    if b.is_zero:
        return a

    key = (a._id, b._id) if a._id <= b._id else (b._id, a._id)
    if key in _PSUMS:
        return _PSUMS[key]
    if a._birthday > INTEGER_LIMIT or b._birthday > INTEGER_LIMIT:
        from cgtalg.core.named_forms import number_of
        from cgtalg.core.partizan_atoms import lazy_sum

        x, y = number_of(a), number_of(b)
        if x is not None and y is not None and x.denominator == 1 == y.denominator and x * y >= 0:
            return integer(int(x + y))  # integers of one sign: the literal sum is the integer's form
        return lazy_sum(a, b)  # a part holds a compact number: the sum is kept compact too
    na, nb = len(a.subpositions()), len(b.subpositions())
    if na * nb > WALK_LIMIT:
        raise ComputationLimitError(
            f"the sum of forms with {na} and {nb} subpositions may have {na * nb} subpositions, "
            f"more than cgtalg.core.game.WALK_LIMIT = {WALK_LIMIT}; compare or canonicalise the "
            "parts first (cgtalg.normal.partizan)")

    def build(x: PartizanGame, y: PartizanGame, s: Callable[[Any, Any], Any]) -> PartizanGame:
        left = [s(xo, y) for xo in x._left] + [s(x, yo) for yo in y._left]
        right = [s(xo, y) for xo in x._right] + [s(x, yo) for yo in y._right]
        g = PartizanGame._make(_unique_sorted(left, "Left"), _unique_sorted(right, "Right"))
        _TABLE.parts.setdefault(g._id, (x._id, y._id))
        return g

    return pair_fold(a, b, _PSUMS, build)


def form_le(g: PartizanGame, h: PartizanGame) -> bool:
    """``G <= H`` for two forms, from the definition: no ``G^L >= H`` and no ``H^R <= G``
    (ONAG ch. 1; Siegel CGT II.1). Memoised on id pairs, evaluated with an explicit stack (forms
    of any depth compare) and short-circuiting; the comparison operators of
    :class:`PartizanGame` use it, and :func:`cgtalg.normal.partizan.le` for anything that
    converts to a form.

    Shortcuts for canonical forms whose stops are known (``_FSTOPS``, which the canonical
    forms of :mod:`cgtalg.normal.partizan` fill; without it the answer is the same, only
    slower): ``G <= H`` needs ``LS(G) <= LS(H)`` and ``RS(G) <= RS(H)``, and ``RS(H) > LS(G)``
    gives ``G < H`` (stops are monotone and ``RS(G) + RS(H) <= RS(G + H)``; Siegel CGT II.4)."""
    if g is h:
        return True
    memo = _LE
    root = (g._id << 32) | h._id
    hit = memo.get(root)
    if hit is not None:
        return hit
    if g._birthday > INTEGER_LIMIT or h._birthday > INTEGER_LIMIT:
        from cgtalg.core.partizan_atoms import compact_le

        return compact_le(g, h)
    stops = _FSTOPS
    stack: list[tuple[PartizanGame, PartizanGame]] = [(g, h)]
    while stack:
        x, y = stack[-1]
        xi, yi = x._id, y._id
        key = (xi << 32) | yi
        if key in memo:
            stack.pop()
            continue
        sx = stops.get(xi)
        if sx is not None:
            sy = stops.get(yi)
            if sy is not None:
                if sx[0] > sy[0] or sx[1] > sy[1]:
                    memo[key] = False
                    stack.pop()
                    continue
                if sy[1] > sx[0]:
                    memo[key] = True
                    stack.pop()
                    continue
                if x is y:  # (two numbers with equal stops are the same canonical form)
                    memo[key] = True
                    stack.pop()
                    continue
        result = True
        pending: tuple[PartizanGame, PartizanGame] | None = None
        # x <= y fails if some x^L >= y, i.e. y <= x^L
        for xl in x._left:
            if xl is y:
                result = False
                break
            v = memo.get((yi << 32) | xl._id)
            if v is None:
                pending = (y, xl)
                break
            if v:
                result = False
                break
        if result and pending is None:
            # ... or if some y^R <= x
            for yr in y._right:
                if yr is x:
                    result = False
                    break
                v = memo.get((yr._id << 32) | xi)
                if v is None:
                    pending = (yr, x)
                    break
                if v:
                    result = False
                    break
        if result and pending is not None:
            stack.append(pending)
            continue
        memo[key] = result
        stack.pop()
    return memo[root]


def partizan_evaluator(name: str) -> Callable[[Callable[[PartizanGame, Sequence[Any], Sequence[Any]], Any]], Evaluator]:
    """Decorator: an :class:`~cgtalg.core.fold.Evaluator` over partizan forms from a rule
    ``combine(game, left_values, right_values)`` (the generic fold walks ``left + right``)."""

    def wrap(rule: Callable[[PartizanGame, Sequence[Any], Sequence[Any]], Any]) -> Evaluator:
        def combine(g: Any, vals: Sequence[Any]) -> Any:
            k = len(g._left)
            return rule(g, vals[:k], vals[k:])

        ev = Evaluator(name, combine, partizan=True)
        ev.__doc__ = rule.__doc__
        return ev

    return wrap


@partizan_evaluator("partizan_is_impartial")
def _IMPARTIAL(g: PartizanGame, lv: Sequence[bool], rv: Sequence[bool]) -> bool:
    return g._left == g._right and all(lv)


_IMPARTIAL.number = lambda x: False  # a compact number is never 0
_IMPARTIAL.add = lambda a, b: a and b


def literal_text(g: PartizanGame) -> str:
    """Literal text ``{L1, L2 | R1}`` with ``0`` for the empty form (no value recognition)."""
    memo: dict[int, str] = {}
    for x in g.subpositions(expand_atoms=False):
        if x.is_zero:
            memo[x._id] = "0"
            continue
        if x._lazy:  # a compact number is written as its value, a compact sum as its parts
            if x._num is not None:
                memo[x._id] = str(x._num)
            else:
                a, b = x.sum_parts  # type: ignore[misc]
                memo[x._id] = f"({literal_text(a)} + {literal_text(b)})"
            continue
        left = ", ".join(memo[o._id] for o in x._left)
        right = ", ".join(memo[o._id] for o in x._right)
        memo[x._id] = "{" + (left + " " if left else "") + "|" + (" " + right if right else "") + "}"
    return memo[g._id]


def _unpickle(text: str) -> PartizanGame:
    return _hooks.partizan_notation.resolve().parse_partizan(text)


up: PartizanGame = PartizanGame._make((ZERO,), (nimber(1),))
down: PartizanGame = negative(up)
