"""The referee's own game forms, its reader of game text, and its play (standard library only).

Forms
-----
A *form* is ``{left options | right options}`` (Siegel, CGT II.1). Forms are hash-consed:
:func:`form` returns one object per literal tree (options are sets, so a repeated option counts
once), hence two forms built separately are the same form exactly when ``a is b``. An
*impartial* form is one whose Left and Right options are the same forms, all impartial.

Reading game text
-----------------
:func:`read` (game text, read *literally*), :func:`read_value` (text or a DAG, as impartial
certificates write forms) and :func:`read_rows` (the rows of partizan certificates) are in
:mod:`cgtalg.referee.game_text`, which states the grammar.

Play (:func:`wins_first`, :func:`outcome`)
-------------------------------------------
A position is a multiset of component forms; a move by a player replaces one component by one
of that player's options in it. In normal play the player with no move loses, in misère play
that player wins. Who wins is found by exhaustive search with a memo (iterative, so any depth);
the outcome class is ``L``, ``R``, ``N`` or ``P`` from who wins moving first.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from fractions import Fraction
from typing import Any, Iterable

__all__ = ["Form", "ReadError", "form", "impartial", "ZERO", "nim", "number", "neg", "add",
           "switch", "read", "read_value", "read_rows", "show", "subpositions", "is_impartial",
           "is_option", "canonical", "ge", "wins_first", "outcome", "outcome_ge", "member",
           "dead_end", "MAX_HEAP", "SUM_LIMIT"]

#: largest nim-heap the reader builds (the form ``*n`` has ``n`` options)
MAX_HEAP = 1024

#: most new positions one literal sum ``G + H`` may create while it is read
SUM_LIMIT = 400_000

#: largest integer the reader builds (a chain of that length)
MAX_INTEGER = 10_000


class ReadError(ValueError):
    """Game text (or a JSON form) the referee cannot read."""


class Form:
    """A form ``{left | right}``; one object per literal tree (build with :func:`form`)."""

    __slots__ = ("left", "right", "id", "birthday")
    left: tuple["Form", ...]
    right: tuple["Form", ...]
    id: int
    birthday: int
    #: a number kept whole (:class:`cgtalg.referee.compact.Num`), never walked as a tree
    compact = False

    def __repr__(self) -> str:
        return f"Form({show(self)})"


_TABLE: dict[tuple[tuple[int, ...], tuple[int, ...]], Form] = {}
_FORMS: list[Form] = []
_NAMES: dict[int, str] = {}


def _unique(options: Iterable[Form]) -> tuple[Form, ...]:
    seen = {o.id: o for o in options}
    return tuple(seen[k] for k in sorted(seen))


def form(left: Iterable[Form] = (), right: Iterable[Form] = ()) -> Form:
    """The form ``{left | right}`` (one object per literal tree; a repeated option counts once)."""
    lo, ro = _unique(left), _unique(right)
    key = (tuple(o.id for o in lo), tuple(o.id for o in ro))
    f = _TABLE.get(key)
    if f is None:
        f = object.__new__(Form)
        f.left, f.right, f.id = lo, ro, len(_FORMS)
        f.birthday = 1 + max(o.birthday for o in lo + ro) if lo or ro else 0
        _TABLE[key] = f
        _FORMS.append(f)
    return f


def impartial(options: Iterable[Form]) -> Form:
    """The form whose options, for both players, are ``options``."""
    opts = list(options)
    return form(opts, opts)


ZERO = form()
_NAMES[ZERO.id] = "0"
_NIM: list[Form] = [ZERO]


def nim(n: int) -> Form:
    """The nim-heap ``*n = {*0, ..., *(n-1)}`` (ONAG ch. 7)."""
    if n > MAX_HEAP:
        raise ReadError(f"*{n}: the referee builds nim-heaps up to *{MAX_HEAP}")
    while len(_NIM) <= n:
        k = len(_NIM)
        _NIM.append(impartial(_NIM))
        _NAMES.setdefault(_NIM[k].id, "*" if k == 1 else f"*{k}")
    return _NIM[n]


def _name(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


_NUMBERS: dict[Fraction, Form] = {}


def number(x: Fraction | int) -> Form:
    """The canonical form of the dyadic rational ``x`` (Siegel, CGT II.3): ``0 = { | }``,
    ``n = {n-1 | }``, ``-n = { | -(n-1)}``, ``m/2^k = {(m-1)/2^k | (m+1)/2^k}`` (``m`` odd)."""
    x = Fraction(x)
    d = x.denominator
    if d & (d - 1):
        raise ReadError(f"{x} is not a dyadic rational")
    if abs(x) > MAX_INTEGER or d > 2**64:  # kept whole (cgtalg.referee.compact), never a long chain
        from cgtalg.referee.compact import compact

        return compact(x)
    f = _NUMBERS.get(x)
    if f is not None:
        return f
    if d == 1:
        n, g = int(x), ZERO
        for k in range(1, abs(n) + 1):
            g = form([g], []) if n > 0 else form([], [g])
            _NUMBERS.setdefault(Fraction(k if n > 0 else -k), g)
            _NAMES.setdefault(g.id, str(k if n > 0 else -k))
        f = g
    else:
        f = form([number(x - Fraction(1, d))], [number(x + Fraction(1, d))])
    _NUMBERS[x] = f
    _NAMES.setdefault(f.id, _name(x))
    return f


def _post_order(roots: Iterable[Form]) -> list[Form]:
    """Every subposition of ``roots``, each once, options before the forms that have them."""
    out: list[Form] = []
    seen: set[int] = set()
    for root in roots:
        stack = [(root, False)]
        while stack:
            x, ready = stack.pop()
            if ready:
                out.append(x)
                continue
            if x.id in seen:
                continue
            seen.add(x.id)
            stack.append((x, True))
            if not x.compact:  # a number kept whole is a leaf of every walk
                stack.extend((o, False) for o in x.left + x.right if o.id not in seen)
    return out


def subpositions(*roots: Form) -> list[Form]:
    """The forms ``roots`` and all their followers, each once, options first."""
    return _post_order(roots)


_NEG: dict[int, Form] = {}


def neg(g: Form) -> Form:
    """The literal negative ``-G = {-G^R | -G^L}`` (Siegel, CGT II.1)."""
    if g.id not in _NEG:
        for x in _post_order([g]):
            if x.id not in _NEG and x.compact:
                _NEG[x.id] = number(-x.num)  # type: ignore[attr-defined]
            elif x.id not in _NEG:
                _NEG[x.id] = n = form([_NEG[o.id] for o in x.right], [_NEG[o.id] for o in x.left])
                name = _NAMES.get(x.id, "")
                if re.fullmatch(r"-?[0-9]+(/[0-9]+)?", name):
                    _NAMES.setdefault(n.id, _name(-Fraction(name)))
    return _NEG[g.id]


def switch(g: Form) -> Form:
    """``±G = {G | -G}``."""
    return form([g], [neg(g)])


_SUM: dict[tuple[int, int], Form] = {}


def add(a: Form, b: Form) -> Form:
    """The literal disjunctive sum: ``(A + B)^L = {A^L + B, A + B^L}``, likewise for Right;
    ``A + 0`` is ``A`` (the same tree)."""
    made = 0
    stack = [(a, b)]
    while stack:
        x, y = stack[-1]
        if x.compact or y.compact:
            raise ReadError("a literal sum with a number too large for a tree: the referee does not build it")
        key = (min(x.id, y.id), max(x.id, y.id))
        if key in _SUM or not (x.left or x.right) or not (y.left or y.right):
            stack.pop()
            if key not in _SUM:
                _SUM[key] = y if not (x.left or x.right) else x
            continue
        parts = ([(o, y) for o in x.left] + [(x, o) for o in y.left],
                 [(o, y) for o in x.right] + [(x, o) for o in y.right])
        todo = [p for p in parts[0] + parts[1]
                if (min(p[0].id, p[1].id), max(p[0].id, p[1].id)) not in _SUM]
        if todo:
            stack.extend(todo)
            continue
        stack.pop()
        made += 1
        if made > SUM_LIMIT:
            raise ReadError(f"a literal sum of more than {SUM_LIMIT} positions")
        _SUM[key] = form([_SUM[(min(p.id, q.id), max(p.id, q.id))] for p, q in parts[0]],
                         [_SUM[(min(p.id, q.id), max(p.id, q.id))] for p, q in parts[1]])
    return _SUM[(min(a.id, b.id), max(a.id, b.id))]


_IMPARTIAL: dict[int, bool] = {}


def is_impartial(g: Form) -> bool:
    """Whether every subposition of ``g`` has the same options for both players."""
    if g.id not in _IMPARTIAL:
        for x in _post_order([g]):
            if x.id not in _IMPARTIAL:
                _IMPARTIAL[x.id] = x.left == x.right and all(_IMPARTIAL[o.id] for o in x.left)
    return _IMPARTIAL[g.id]


def is_option(x: Form, of: Form) -> bool:
    """Whether ``x`` is an option (for either player) of ``of``."""
    return any(o is x for o in of.left) or any(o is x for o in of.right)


# ---------------------------------------------------------------------------------------------
# play
# ---------------------------------------------------------------------------------------------
_MEMO: dict[bool, dict[tuple[tuple[int, ...], bool], bool]] = {True: {}, False: {}}


def _children(ids: tuple[int, ...], left: bool) -> list[tuple[int, ...]]:
    out = []
    for i, cid in enumerate(ids):
        if i and ids[i - 1] == cid:
            continue
        rest = ids[:i] + ids[i + 1:]
        c = _FORMS[cid]
        for o in (c.left if left else c.right):
            if o.left or o.right:
                j = bisect_left(rest, o.id)
                out.append(rest[:j] + (o.id,) + rest[j:])
            else:  # a component that reaches 0 leaves the sum
                out.append(rest)
    return out


def wins_first(components: Iterable[Form], left: bool, misere: bool) -> bool:
    """Whether the player to move (Left if ``left``) wins the literal sum of ``components``.

    Exhaustive search of the definition: the player to move wins iff some move leads to a
    position the other player, moving, loses; with no move the player to move loses in normal
    play and wins in misère play. For impartial sums the player does not matter."""
    comps = [c for c in components if c.compact or c.left or c.right]
    if any(x.compact for x in _post_order(comps)):
        raise ReadError("play of a game holding a number too large for a tree is not searched "
                        "(normal-play orders of such forms are decided from the definition)")
    ids = tuple(sorted(c.id for c in comps))
    imp = all(is_impartial(c) for c in comps)
    memo = _MEMO[misere]
    root = (ids, True if imp else left)
    kids: dict[tuple[tuple[int, ...], bool], list[tuple[int, ...]]] = {}
    stack = [root]
    while stack:
        node = stack[-1]
        if node in memo:
            stack.pop()
            continue
        pos, who = node
        nxt = who if imp else not who
        ks = kids.get(node)
        if ks is None:
            ks = kids[node] = _children(pos, who)
        pending = []
        won = False
        for k in ks:
            v = memo.get((k, nxt))
            if v is None:
                pending.append((k, nxt))
            elif not v:
                won = True
                break
        if not won and pending:
            stack.extend(pending)
            continue
        stack.pop()
        memo[node] = won or (misere and not ks)
        del kids[node]
    return memo[root]


def outcome(components: Iterable[Form], misere: bool) -> str:
    """The outcome class of the literal sum: ``L`` (Left wins whoever starts), ``R``, ``N`` (the
    player to move wins) or ``P`` (the other player wins)."""
    comps = list(components)
    lf, rf = wins_first(comps, True, misere), wins_first(comps, False, misere)
    return {(True, False): "L", (False, True): "R", (True, True): "N", (False, False): "P"}[(lf, rf)]


_FIRST = {"L": (True, False), "R": (False, True), "N": (True, True), "P": (False, False)}


def outcome_ge(a: str, b: str) -> bool:
    """The order of outcomes ``L > P > R``, ``L > N > R`` (``P``, ``N`` incomparable): ``a ≥ b``
    iff Left wins moving first in ``a`` whenever she does in ``b``, and Right wins moving first
    in ``b`` whenever he does in ``a``."""
    (la, ra), (lb, rb) = _FIRST[a], _FIRST[b]
    return (la or not lb) and (rb or not ra)


def ge(a: Form, b: Form) -> bool:
    """``a ≥ b`` in normal play: Left wins the literal ``a − b`` when Right moves first (Siegel,
    CGT II.1)."""
    from cgtalg.referee.compact import has_compact, le

    if has_compact(a, b):
        return le(b, a)
    return not wins_first((a, neg(b)), False, False)


# ---------------------------------------------------------------------------------------------
# canonical forms (normal play) and universes (misère play)
# ---------------------------------------------------------------------------------------------
_CANON: dict[int, Form] = {}


def _reduce(lo: list[Form], ro: list[Form]) -> Form:
    """``{lo | ro}`` (canonical options) without dominated options, reversible ones bypassed."""
    while True:
        lo = [x for i, x in enumerate(lo) if not any(j != i and ge(y, x) and not (ge(x, y) and j > i)
                                                      for j, y in enumerate(lo))]
        ro = [x for i, x in enumerate(ro) if not any(j != i and ge(x, y) and not (ge(y, x) and j > i)
                                                      for j, y in enumerate(ro))]
        g = form(lo, ro)
        for i, x in enumerate(lo):  # G^L reversible through G^LR <= G: bypass it
            hit = next((y for y in x.right if ge(g, y)), None)
            if hit is not None:
                lo = lo[:i] + lo[i + 1:] + list(hit.left)
                break
        else:
            for i, x in enumerate(ro):
                hit = next((y for y in x.left if ge(y, g)), None)
                if hit is not None:
                    ro = ro[:i] + ro[i + 1:] + list(hit.right)
                    break
            else:
                return g
        lo, ro = list(_unique(lo)), list(_unique(ro))


def canonical(g: Form) -> Form:
    """The normal-play canonical form (Siegel, CGT II.2-II.3): options made canonical, dominated
    options removed, reversible options bypassed, until none is left."""
    if g.id not in _CANON:
        for x in _post_order([g]):
            if x.id not in _CANON and x.compact:
                _CANON[x.id] = x  # a number is its own canonical form
            elif x.id not in _CANON:
                _CANON[x.id] = _reduce(list(_unique(_CANON[o.id] for o in x.left)),
                                       list(_unique(_CANON[o.id] for o in x.right)))
    return _CANON[g.id]


def dead_end(b: int, left: bool = True) -> Form:
    """``D_b = { | D_0, ..., D_(b-1)}`` (a Left dead end, Right chooses how many moves it has
    left), or its conjugate ``{D'_0, ..., D'_(b-1) | }`` when ``left`` is False."""
    chain = [ZERO]
    for _ in range(b):
        chain.append(form([], chain) if left else form(chain, []))
    return chain[b]


def member(g: Form, universe: str) -> str | None:
    """None when ``g`` belongs to the universe, else the reason (naming a follower).

    ``all``/``full``: every form. ``impartial``: :func:`is_impartial`. ``dicot``: every
    follower (``g`` included) has options for both players or for neither. ``dead-ending``: at
    every Left end (a follower with no Left option) no follower has a Left option, and likewise
    for Right (every end is dead)."""
    if universe in ("all", "full"):
        return None
    fol = subpositions(g)
    if universe == "impartial":
        return None if is_impartial(g) else f"{show(g, 60)} is not impartial"
    if universe == "dicot":
        bad = next((x for x in fol if bool(x.left) != bool(x.right)), None)
        return None if bad is None else f"the follower {show(bad, 60)} has options for one player only"
    if universe != "dead-ending":
        raise ValueError(f"unknown universe {universe!r}")
    has_l: dict[int, bool] = {}
    has_r: dict[int, bool] = {}
    for x in fol:  # options first: whether a Left (Right) move exists anywhere below
        has_l[x.id] = bool(x.left) or any(has_l[o.id] for o in x.left + x.right)
        has_r[x.id] = bool(x.right) or any(has_r[o.id] for o in x.left + x.right)
    for x in fol:
        if not x.left and has_l[x.id]:
            return f"the Left end {show(x, 60)} is not dead (a follower has a Left option)"
        if not x.right and has_r[x.id]:
            return f"the Right end {show(x, 60)} is not dead (a follower has a Right option)"
    return None


# ---------------------------------------------------------------------------------------------
# showing forms (text the reader reads back to the same form)
# ---------------------------------------------------------------------------------------------
def show(g: Form, limit: int = 100) -> str:
    """Text of ``g`` that :func:`read` reads back to ``g`` (cut with ``...`` past ``limit``):
    names of canonical values met by the reader, ``{a, b}`` for equal sides, else ``{L | R}``."""
    out: list[str] = []
    used = 0
    stack: list[Any] = [g]
    while stack and used <= limit:
        item = stack.pop()
        if isinstance(item, Form):
            name = _NAMES.get(item.id)
            if name is None:
                parts: list[Any] = ["{"]
                sides = [item.left] if item.left == item.right else [item.left, item.right]
                for s, side in enumerate(sides):
                    if s:
                        parts.append(" | ")
                    for i, o in enumerate(side):
                        parts.extend([", "] if i else [])
                        parts.append(o)
                parts.append("}")
                stack.extend(reversed(parts))
                continue
            item = name
        out.append(item)
        used += len(item)
    text = "".join(out)
    return text if len(text) <= limit and not stack else text[: max(0, limit - 3)] + "..."


# ---------------------------------------------------------------------------------------------
# reading (the grammar is in cgtalg.referee.game_text, which builds on the forms above)
# ---------------------------------------------------------------------------------------------
def read(text: Any, by_value: bool = False) -> Form:
    """The form game ``text`` means, read literally (:func:`cgtalg.referee.game_text.read`; with
    ``by_value``, sums with numbers too large for a tree by their normal-play value)."""
    from cgtalg.referee.game_text import read as read_text

    return read_text(text, by_value)


def read_value(value: Any) -> Form:
    """A form as a JSON certificate writes it (:func:`cgtalg.referee.game_text.read_value`)."""
    from cgtalg.referee.game_text import read_value as read_json

    return read_json(value)


def read_rows(rows: Any) -> list[Form]:
    """The forms of a table of rows (:func:`cgtalg.referee.game_text.read_rows`)."""
    from cgtalg.referee.game_text import read_rows as read_table

    return read_table(rows)
