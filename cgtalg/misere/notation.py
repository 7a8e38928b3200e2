"""CGSuite's ``*[...]`` notation for misère canonical forms.

CGSuite writes a misère canonical form as ``*`` followed by a bracketed expression (CGSuite's
misère tutorial; Siegel, CGT ch. V; the grammar is in the docstring of
:mod:`cgtalg.core.notation`, whose :func:`~cgtalg.core.notation.parse` reads it back):

- a single number is a nim-heap: ``*[2]`` is ``*2``, ``*[0]`` is ``0``;
- a sequence of items is the game with those options: ``*[42]`` = ``{*4, *2}``;
- ``#`` (CGSuite's subscript "sharp") makes an item the only option of a new game:
  ``*[2#]`` = ``{*2}``;
- a subscript number adds a nim-heap, read left to right: ``*[2[2]]`` = ``*2 + *2`` (CGSuite
  typesets ``2₂``), ``*[2#[2]#]`` = ``{{*2} + *2}``;
- an option that is itself a list of options is written as a nested list ``[...]``; commas
  separate the items of a level when an item is a number of two or more digits or starts with
  ``[`` (``*[[4,2],4,3,1]``, ``*[12,3]``).

How :func:`format_misere` chooses the text
------------------------------------------
Each canonical form is given, bottom-up over its DAG (one :class:`~cgtalg.core.fold.Evaluator`
memoised on ids), the narrowest of these descriptions, measured as CGSuite typesets them (a
subscript's brackets are not drawn, so ``*[2[2]]`` is as wide as ``*[32]``):

1. a nim-heap ``n``;
2. ``X#`` for a game ``{X}`` with one option;
3. ``F[k]``: the form is the canonical sum ``F + *k`` for an option ``F`` and ``1 ≤ k ≤ 9``
   (subscripts of a sum merge: ``F[22]`` is ``F + *2 + *2``). The search is bounded: ``F`` runs
   over the options, ``k`` increases only while ``F + *(k-1)`` is an option (all of
   ``F, F + *1, ..., F + *(k-1)`` are options of ``F + *k`` unless the sum reduces), ``k`` must
   match the normal-play Grundy values (misère-equal games have equal normal values: the genus,
   ONAG ch. 12). The canonical sums ``X + *j`` are memoised on id pairs, and ``F + *k`` is built
   from the sums of ``F``'s subpositions with ``*j``, ``j <= k``, so the search costs at most
   ``MAX_SUBSCRIPT`` canonical sums per subposition of the printed form;
4. the list of its options.

Ties go to the earlier description, so sums are shown as sums, as CGSuite does: ``*2 + *2``
prints ``*[2[2]]`` (its options are ``*2`` and ``*3``; Plambeck's adder ``:4 = {:2, :3}``).
Options in a list are ordered by decreasing birthday, nim-heaps first, then by width and a
process-independent structural key, so the text is the same in every process.

One corner of the grammar has no ``*[...]`` spelling: a single top-level item that starts with a
number of two or more digits (``*[12]`` reads as ``{*1, *2}``). Such forms print in the literal
notation instead (``*12``, ``{*12}``, ``{*12}+*2``), which :func:`~cgtalg.core.notation.parse`
also reads.
"""

from __future__ import annotations

import hashlib
from typing import NamedTuple, Sequence, Union

from cgtalg.caches import register_cache
from cgtalg.core.fold import Evaluator, fold
from cgtalg.core.game import Game, nim
from cgtalg.core.notation import decimal_length, int_to_digits
from cgtalg.errors import ArgumentTypeError, ComputationLimitError, shorten
from cgtalg.misere.canonical import (
    MisereCanonicalForm,
    misere_canonical_sum_game,
    misere_canonical_game,
)
from cgtalg.normal.grundy import grundy

__all__ = ["format_misere", "misere_text_length", "MAX_SUBSCRIPT"]

#: The largest nim-heap ``k`` tried as a subscript ``[k]``.
MAX_SUBSCRIPT = 9

_HEAP, _SHARP, _SUM, _LIST = 0, 1, 2, 3  # description kinds, in order of preference


class _Item(NamedTuple):
    kind: int
    width: int  # typeset width: characters, not counting a subscript's brackets
    lead: str  # "d": starts with one digit; "m": with a number of >= 2 digits; "[": with '['
    heap: int = 0
    base: Game | None = None  # _SHARP: the only option; _SUM: the form F of F + *k...
    subs: tuple[int, ...] = ()  # _SUM: the heaps added, left to right
    opts: tuple[Game, ...] = ()  # _LIST: options in display order
    commas: bool = False  # _LIST: items separated by commas


class _Desc(NamedTuple):
    best: _Item  # the best description as an item (nested inside another list)
    top: _Item  # the best description at top level (a list there needs no brackets)


# -- deterministic structural key (process independent) --------------------------------------
def _skey_combine(g: Game, child_keys: Sequence[bytes]) -> bytes:
    h = hashlib.blake2b(digest_size=12)
    for k in sorted(child_keys):
        h.update(k)
    h.update(b"|%d" % len(child_keys))
    return h.digest()


def _skey_atom(n: int) -> bytes:
    # nim-heap atoms: the structural key for n <= 64 (as if walked), a keyed hash beyond
    if n > 64:
        return hashlib.blake2b(b"nim-heap|%x" % n, digest_size=12).digest()
    keys: list[bytes] = []
    for k in range(n + 1):
        keys.append(_skey_combine(nim(k), keys[:k]))
    return keys[n]


_SKEY = Evaluator("misere_notation_structural_key", _skey_combine, atom=_skey_atom)


# -- choosing descriptions --------------------------------------------------------------------
#: options are ordered by the first this-many characters of their text (then structurally)
_ORDER_PREFIX = 64


def _list_item(g: Game, option_descs: Sequence[_Desc]) -> _Item:
    # CGSuite's order: decreasing birthday, then ascending text ('(' < '#' < digits < '['):
    # *[2#0], *[(2#1)2##], *[(2#20)2[#1]1], *[((2#0)2[#1]2#)(2#1)[1]]
    pairs = list(zip(g._options, (d.best for d in option_descs)))
    pairs.sort(
        key=lambda p: (
            -p[0].birthday,
            _render([p[1]], _ORDER_PREFIX)[:_ORDER_PREFIX],
            fold(p[0], _SKEY),
        )
    )
    commas = any(it.lead == "m" for _, it in pairs)  # a number of two or more digits
    width = sum(it.width for _, it in pairs) + 2 + (len(pairs) - 1 if commas else 0)
    return _Item(_LIST, width, "(", opts=tuple(o for o, _ in pairs), commas=commas)


def _sum_items(g: Game, option_descs: Sequence[_Desc]) -> list[tuple[tuple, _Item]]:
    """Descriptions ``F[k]`` of ``g`` as a canonical sum ``F + *k`` (bounded search)."""
    found: list[tuple[tuple, _Item]] = []
    option_ids = {o._id for o in g._options}
    gval = grundy(g)
    for f, desc in zip(g._options, option_descs):
        fval = grundy(f)
        for k in range(1, MAX_SUBSCRIPT + 1):
            try:  # a sum too large to build (a huge nim-heap F) cannot be g's description
                if k > 1 and misere_canonical_sum_game(f, nim(k - 1))._id not in option_ids:
                    break
                if fval ^ k != gval:
                    continue
                if misere_canonical_sum_game(f, nim(k)) is not g:
                    continue
            except ComputationLimitError:
                break
            it = desc.best
            if it.kind == _SUM:  # merge subscripts: (B[j])[k] -> B[jk]
                item = _Item(_SUM, it.width + 1, it.lead, base=it.base, subs=it.subs + (k,))
            else:
                item = _Item(_SUM, it.width + 1, it.lead, base=f, subs=(k,))
            found.append(((k, fold(f, _SKEY)), item))
    return found


def _describe(g: Game, option_descs: Sequence[_Desc]) -> _Desc:
    n = g.nim_heap_size()
    if n is not None:
        it = _Item(_HEAP, decimal_length(n), "d" if n < 10 else "m", heap=n)
        return _Desc(it, it)
    cands: list[tuple[tuple, _Item]] = []
    if len(g._options) == 1:
        inner = option_descs[0].best
        cands.append(((), _Item(_SHARP, inner.width + 1, inner.lead, base=g._options[0])))
    cands.extend(_sum_items(g, option_descs))
    listed = _list_item(g, option_descs) if len(g._options) >= 2 else None
    if listed is not None:
        cands.append(((), listed))

    def rank(c: tuple[tuple, _Item], top: bool) -> tuple:
        tie, it = c
        width = it.width - 2 if (top and it.kind == _LIST) else it.width
        return (width, it.kind, tie)

    best = min(cands, key=lambda c: rank(c, False))[1]
    top = min(cands, key=lambda c: rank(c, True))[1]
    return _Desc(best, top)


_DESCRIBE = Evaluator("misere_notation", _describe, atom=lambda n: _describe(nim(n), ()))


# -- rendering --------------------------------------------------------------------------------
class _End:
    __slots__ = ("gid", "start", "length")

    def __init__(self, gid: int, start: int, length: int) -> None:
        self.gid, self.start, self.length = gid, start, length


_ITEM_TEXT: dict[int, str] = register_cache("misere.notation items", {})  # text of a canonical form's best item (short ones only)
_ITEM_TEXT_LIMIT = 4000


def _render(tokens: list[object], budget: int | None) -> str:
    """Text of a token sequence (strings, items, canonical games), expanded iteratively; stops
    once ``budget`` characters are passed."""
    out: list[str] = []
    length = 0
    stack: list[object] = tokens[::-1]
    cache = _DESCRIBE.cache
    while stack:
        if budget is not None and length > budget:
            break
        top = stack.pop()
        if isinstance(top, str):
            out.append(top)
            length += len(top)
            continue
        if isinstance(top, _End):  # end of a form's expansion: remember its text
            gid, start, start_len = top.gid, top.start, top.length
            if length - start_len <= _ITEM_TEXT_LIMIT:
                text = "".join(out[start:])
                del out[start:]
                out.append(text)
                _ITEM_TEXT[gid] = text
            continue
        if isinstance(top, Game):
            known = _ITEM_TEXT.get(top._id)
            if known is not None:
                out.append(known)
                length += len(known)
                continue
            if budget is None:
                stack.append(_End(top._id, len(out), length))
            it: _Item = cache[top._id].best
        else:
            it = top  # type: ignore[assignment]
        if it.kind == _HEAP:
            text = int_to_digits(it.heap)
            out.append(text)
            length += len(text)
        elif it.kind in (_SHARP, _SUM):
            # CGSuite's subscript: the chain of '#' and added heaps down to a heap or a group,
            # read left to right, written bare when it is only '#'s, else in brackets
            # (*[2#], *[2[2]], *[2[#2#]] = {{*2} + *2}, *[4[2#]] = {*4 + *2})
            ops: list[str] = []
            cur = it
            while True:
                ops.append("#" if cur.kind == _SHARP else "".join(str(k) for k in cur.subs))
                base = cur.base
                below = cache[base._id].best
                if below.kind not in (_SHARP, _SUM):
                    break
                cur = below
            chain = "".join(reversed(ops))
            stack.append(chain if chain.strip("#") == "" else "[" + chain + "]")
            stack.append(base)
        else:
            stack.append(")")
            stack.extend(_list_body_tokens(it)[::-1])
            stack.append("(")
    return "".join(out)


def _list_body_tokens(it: _Item) -> list[object]:
    tokens: list[object] = []
    for i, o in enumerate(it.opts):
        if i and it.commas:
            tokens.append(",")
        tokens.append(o)
    return tokens


_TEXT_CACHE: dict[int, str] = register_cache("misere.notation texts", {})
_TEXT_CACHE_LIMIT = 2000


def _format_canonical(g: Game, budget: int | None) -> str:
    cached = _TEXT_CACHE.get(g._id)
    if cached is not None:
        return cached
    # A lone top-level item that starts with a multi-digit number has no *[...] spelling:
    # peel such items off into literal notation ({X} for X#, X+*k for X[k], *n for a heap).
    before: list[str] = []
    after: list[str] = []
    cur = g
    top = fold(cur, _DESCRIBE).top
    core: str | None = None
    while top.kind != _LIST and top.lead == "m":
        if top.kind == _HEAP:
            core = "*" + int_to_digits(top.heap)
            break
        if top.kind == _SHARP:
            before.append("{")
            after.append("}")
        else:
            after.append("".join(f"+*{k}" for k in top.subs))
        cur = top.base
        top = fold(cur, _DESCRIBE).top
    if core is None:
        if top.kind == _LIST:
            core = _render(["*["] + _list_body_tokens(top) + ["]"], budget)
        else:
            core = _render(["*[", top, "]"], budget)
    text = "".join(before) + core + "".join(reversed(after))
    if budget is None and len(text) <= _TEXT_CACHE_LIMIT:
        _TEXT_CACHE[g._id] = text
    return text


def format_misere(
    form: Union[MisereCanonicalForm, Game, str], max_chars: int | None = None
) -> str:
    """The misère canonical form of ``form`` in CGSuite's ``*[...]`` notation.

    Parameters
    ----------
    form : MisereCanonicalForm, Game or str
        A canonical form, or any game (its canonical form is printed), or game text.
    max_chars : int, optional
        Cut the text to this many characters, ending in ``...`` (the cut text does not parse).

    Returns
    -------
    str
        Text that :func:`cgtalg.parse` reads back to a game with the same misère canonical
        form (see the module docstring for the choices made).

    Raises
    ------
    TypeError
        If ``form`` is not a game, canonical form or text.

    Examples
    --------
    >>> import cgtalg as cg
    >>> format_misere(cg.parse("{*2}")), format_misere(cg.nim(2) + cg.nim(2))
    ('*[2#]', '*[2[2]]')
    >>> format_misere(cg.nim(3) + cg.nim(1)), format_misere(cg.parse("{*4, *2}"))
    ('*[2]', '*[42]')
    """
    if max_chars is not None and (isinstance(max_chars, bool) or not isinstance(max_chars, int)):
        raise ArgumentTypeError(f"max_chars must be an int or None, got {shorten(max_chars)}")
    g = misere_canonical_game(form)
    text = _format_canonical(g, max_chars)
    if max_chars is not None and len(text) > max_chars:
        return text[: max(0, max_chars - 3)] + "..."
    return text


def _item_length(it: _Item, lengths: dict[int, int]) -> int:
    cache = _DESCRIBE.cache
    if it.kind == _HEAP:
        return decimal_length(it.heap)
    if it.kind in (_SHARP, _SUM):
        chain = 0
        bare = True
        cur = it
        while True:
            if cur.kind == _SHARP:
                chain += 1
            else:
                chain += len(cur.subs)
                bare = False
            base = cur.base
            below = cache[base._id].best
            if below.kind not in (_SHARP, _SUM):
                break
            cur = below
        return lengths[base._id] + chain + (0 if bare else 2)
    body = sum(lengths[o._id] for o in it.opts) + (len(it.opts) - 1 if it.commas else 0)
    return body + 2


def misere_text_length(form: Union[MisereCanonicalForm, Game, str]) -> int:
    """The length of :func:`format_misere`'s full text, computed over the canonical form's
    DAG without writing the text (which can be exponentially longer than the DAG is large).

    Examples
    --------
    >>> import cgtalg as cg
    >>> g = cg.parse("*[((2#0)2[#1]2#)(2#1)[1]]")
    >>> misere_text_length(g) == len(format_misere(g))
    True
    """
    g = misere_canonical_game(form)
    fold(g, _DESCRIBE)
    cache = _DESCRIBE.cache
    lengths: dict[int, int] = {}
    for x in _post_order(g):
        lengths[x._id] = _item_length(cache[x._id].best, lengths)
    top = cache[g._id].top
    if top.kind == _LIST:  # "*[" + the options + "]", no group parentheses at top level
        return 3 + _item_length(top, lengths) - 2
    if top.lead == "m":  # printed in the literal notation (see the module docstring)
        return len(_format_canonical(g, None))
    return 3 + _item_length(top, lengths)


def _post_order(g: Game) -> list[Game]:
    """Subpositions of ``g`` (nim-heaps as atoms) with every option before the forms above it."""
    order: list[Game] = []
    seen: set[int] = set()
    stack: list[tuple[Game, bool]] = [(g, False)]
    while stack:
        x, done = stack.pop()
        if done:
            order.append(x)
            continue
        if x._id in seen:
            continue
        seen.add(x._id)
        stack.append((x, True))
        if x.nim_heap_size() is None:
            stack.extend((o, False) for o in x._options if o._id not in seen)
    return order
