"""Writing partizan forms in CGSuite's notation: :func:`format_partizan` (the reader is
:mod:`cgtalg.normal.notation`, which re-exports this function).

Canonical forms print exactly as CGSuite prints them (numbers, ups and nimbers juxtaposed,
switches with ``±``, tinies and minies, higher ups), other forms in braces with bars, and a
literal sum ``A + B`` as that text when it reads back to the same form.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from cgtalg.core.fold import memo_post_order
from cgtalg.core.named_forms import fraction_text, number_of, uptimal_parts
from cgtalg.core.partizan import PartizanGame, as_partizan, negative, pgame
from cgtalg.errors import ComputationLimitError, require_int
from cgtalg.normal.partizan import canonical_form, canonical_sum, higher_uptimal_parts
from cgtalg.normal.thermography import mean

__all__ = ["format_partizan", "FORMAT_LIMIT", "SUM_LIMIT"]

#: most characters :func:`format_partizan` writes without ``max_chars``
FORMAT_LIMIT = 5_000_000

#: largest product of subposition counts of a literal sum ``A + B`` read from text
SUM_LIMIT = 40_000

#: CGSuite brackets a form once it would need this many bars
_MAX_BARS = 4


# -- formatting -------------------------------------------------------------------------------
class _Node:
    """How one subposition prints: ``kind`` is ``"num"``, ``"nus"`` (number + ups + nimber),
    ``"imp"`` (an impartial form, braces without bars), ``"switch"``, ``"tiny"``, ``"sum"`` or
    ``"gen"`` (braces with bars)."""

    __slots__ = ("kind", "text", "compact", "lo", "ro", "bars", "core", "parts", "sub", "key", "wrap")

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.text = ""
        self.compact = True
        self.lo: list[PartizanGame] = []
        self.ro: list[PartizanGame] = []
        self.bars = 0
        self.core = 0  # length of the text without braces (gen, sum) or of the text
        self.parts: list[PartizanGame] = []
        self.sub: PartizanGame | None = None
        self.key: tuple = ()
        self.wrap = False  # always in braces (four bars, or an empty side)


def _uptimal_text(x: Fraction, n: int, m: int) -> str:
    out = ""
    if x != 0 or (n == 0 and m == 0):
        out += fraction_text(x)
    if n:
        sym = "^" if n > 0 else "v"
        out += sym * abs(n) if abs(n) <= 2 else sym + str(abs(n))
    if m:
        out += "*" if m == 1 else f"*{m}"
    return out


def _higher_text(x: Fraction, kind: str, n: int, m: int) -> str:
    """CGSuite's text for ``x + ^<n> + *m`` or ``x + ^[n] + *m`` (``v`` for negative ``n``)."""
    close = ">" if kind == "<" else "]"
    out = "" if x == 0 else fraction_text(x)
    out += ("^" if n > 0 else "v") + kind + str(abs(n)) + close
    if m:
        out += "*" if m == 1 else f"*{m}"
    return out


class _Formatter:
    def __init__(self, ascii_only: bool) -> None:
        self.pm = "+-" if ascii_only else "±"
        self.nodes: dict[int, _Node] = {}
        self.negatives: dict[int, PartizanGame] = {}  # id -> -x, built bottom-up
        self.sizes: dict[int, int] = {}  # id -> number of subpositions (sum parts)

    def negation(self, x: PartizanGame) -> PartizanGame:
        """``-x`` from its options' negatives (``negative`` walks the whole form at each node)."""
        neg = self.negatives
        return memo_post_order(x, neg, lambda g: () if g._lazy else g._options,  # type: ignore[arg-type]
                               lambda g: negative(g) if g._lazy else  # (a compact part: in O(1))
                               pgame([neg[o._id] for o in g._right], [neg[o._id] for o in g._left]))

    def sum_reads_back(self, a: PartizanGame, b: PartizanGame) -> bool:
        """Whether the text ``A + B`` reads back to the literal sum (within :data:`SUM_LIMIT`)."""
        for g in (a, b):
            if g._id not in self.sizes:
                self.sizes[g._id] = len(g.subpositions())
        return self.sizes[a._id] * self.sizes[b._id] <= SUM_LIMIT

    # -- analysis (bottom-up) ------------------------------------------------------------------
    def analyse(self, root: PartizanGame) -> None:
        """Analyse ``root``, its subpositions, and the extra forms some of them print through
        (the parts of a sum, the subscript of a tiny), children first, iteratively."""
        memo_post_order(root, self.nodes, self.deps, self.node)  # type: ignore[arg-type]

    def deps(self, x: PartizanGame) -> list[PartizanGame]:
        if x._lazy and x._num is None:  # a compact literal sum prints as its parts
            return list(x.sum_parts)  # type: ignore[arg-type]
        if uptimal_parts(x) is not None or higher_uptimal_parts(x) is not None:
            return []
        out = list(x._options)
        parts = x.sum_parts
        if parts is not None:
            out += parts
        sub = self.tiny_sub(x)
        if sub is not None:
            out.append(sub[1])
        return out

    def node(self, x: PartizanGame) -> _Node:
        if x._lazy and x._num is None:  # a compact literal sum (cgtalg.core.partizan_atoms): A + B
            a, b = x.sum_parts  # type: ignore[misc]
            nd = _Node("sum")
            nd.parts = [a, b]
            nd.core = self.length(a, True, False) + 3 + self.length(b, True, False)
            nd.key = (4, x._id)
            return nd
        parts = uptimal_parts(x)
        if parts is not None:
            v, n, m = parts
            kind = "num" if n == 0 and m == 0 else "nus"
            nd = _Node(kind)
            nd.text = _uptimal_text(v, n, m)
            nd.core = len(nd.text)
            nd.compact = kind == "num" or (v == 0 and (n == 0 or m == 0))
            nd.key = ((0, v) if kind == "num" else (1, m) if v == 0 and n == 0
                      else (2, v, (n,) if n else (), m))
            return nd
        higher = higher_uptimal_parts(x)
        if higher is not None:
            v, kind, n, m = higher
            nd = _Node("nus")
            nd.text = _higher_text(v, kind, n, m)
            nd.core = len(nd.text)
            nd.compact = v == 0 and m == 0
            nd.key = (2, v, (abs(n), 1 if kind == "<" else 2, n), m)
            return nd
        nd = self.tiny_node(x)
        if nd is None and x._left and x._left == x._right and x.is_impartial:
            nd = _Node("imp")  # an impartial form (not a nimber): {a, b} without bars
            nd.lo = nd.ro = self.sort(x._left)
        if nd is None and x._left and self.negation(x) is x:
            nd = _Node("switch")
            nd.lo = self.sort(x._left)
        if nd is None:
            nd = _Node("gen")
            nd.lo, nd.ro = self.sort(x._left), self.sort(x._right)
        nd.key = (3, tuple(self.nodes[o._id].key for o in self.sort(x._left)),
                  tuple(self.nodes[o._id].key for o in self.sort(x._right)))
        self.measure(x, nd)
        if x.sum_parts is not None:
            a, b = x.sum_parts
            sum_len = self.length(a, True, False) + 3 + self.length(b, True, False)
            if sum_len < self.node_length(nd, True, False) and self.sum_reads_back(a, b):
                nd.kind = "sum"
                nd.parts = [a, b]
                nd.core = sum_len
        return nd

    def sort(self, opts: tuple[PartizanGame, ...]) -> list[PartizanGame]:
        return sorted(opts, key=lambda o: self.nodes[o._id].key)

    def tiny_sub(self, x: PartizanGame) -> tuple[str, PartizanGame] | None:
        """CGSuite's Tiny/Miny: ``{a || a | b}`` with a number ``a`` and mean(b) < a prints as
        ``aTiny(a - b)``; ``{b | a || a}`` with mean(b) > a as ``aMiny(b - a)``. Returns the
        prefix text and the subscript form, or None."""
        if len(x._left) != 1 or len(x._right) != 1:
            return None
        l, r = x._left[0], x._right[0]
        a = number_of(l)
        if a is not None and len(r._left) == 1 and len(r._right) == 1 and r._left[0] is l:
            b = r._right[0]
            if (a == 0 or canonical_form(b) is b) and mean(b) < a:
                sub = negative(b) if a == 0 else canonical_sum(l, negative(b))
                return ("" if a == 0 else fraction_text(a)) + "Tiny(", sub
        a = number_of(r)
        if a is not None and len(l._left) == 1 and len(l._right) == 1 and l._right[0] is r:
            b = l._left[0]
            if (a == 0 or canonical_form(b) is b) and mean(b) > a:
                sub = b if a == 0 else canonical_sum(b, negative(r))
                return ("" if a == 0 else fraction_text(a)) + "Miny(", sub
        return None

    def tiny_node(self, x: PartizanGame) -> _Node | None:
        found = self.tiny_sub(x)
        if found is None:
            return None
        nd = _Node("tiny")
        nd.text, nd.sub = found
        return nd

    def returned_bars(self, o: PartizanGame, brackets: bool) -> int:
        nd = self.nodes[o._id]
        if nd.kind != "gen" or brackets or nd.wrap:
            return 0
        return nd.bars

    def measure(self, x: PartizanGame, nd: _Node) -> None:
        if nd.kind == "tiny":
            assert nd.sub is not None
            nd.core = len(nd.text) + self.length(nd.sub, True, False) + 1
            return
        if nd.kind == "switch":
            lo = nd.lo
            many = len(lo) > 1
            nd.core = len(self.pm) + sum(self.length(o, True, not many) for o in lo) + (len(lo) - 1)
            if many:
                nd.core += 2
            return
        if nd.kind == "imp":
            nd.core = sum(self.length(o, True, False) for o in nd.lo) + len(nd.lo) - 1
            return
        # gen: bars = 1 + the most bars an unbracketed single option uses
        lo, ro = nd.lo, nd.ro
        bl = max((self.returned_bars(o, len(lo) > 1) for o in lo), default=0) + 1
        br = max((self.returned_bars(o, len(ro) > 1) for o in ro), default=0) + 1
        nd.bars = max(bl, br)
        nd.core = (sum(self.length(o, len(lo) > 1, False) for o in lo) + max(len(lo) - 1, 0)
                   + sum(self.length(o, len(ro) > 1, False) for o in ro) + max(len(ro) - 1, 0)
                   + nd.bars)
        nd.wrap = nd.bars >= _MAX_BARS or not lo or not ro

    def length(self, x: PartizanGame, brackets: bool, parens: bool) -> int:
        return self.node_length(self.nodes[x._id], brackets, parens)

    @staticmethod
    def node_length(nd: _Node, brackets: bool, parens: bool) -> int:
        if nd.kind == "gen":
            return nd.core + (2 if brackets or nd.wrap else 0)
        if nd.kind == "imp":
            return nd.core + 2
        if nd.kind in ("num", "nus"):
            return nd.core + (2 if parens and not nd.compact else 0)
        if nd.kind in ("tiny", "sum"):
            return nd.core + (2 if parens else 0)
        return nd.core  # switch

    # -- writing (top-down, stops at a budget) ------------------------------------------------
    def write(self, root: PartizanGame, budget: int) -> str:
        out: list[str] = []
        used = 0
        stack: list[Any] = [(root, True, False)]
        while stack and used < budget:
            item = stack.pop()
            if isinstance(item, str):
                piece = item
            else:
                x, brackets, parens = item
                nd = self.nodes[x._id]
                kind = nd.kind
                if kind in ("num", "nus"):
                    piece = f"({nd.text})" if parens and not nd.compact else nd.text
                else:
                    pieces: list[Any] = []
                    if kind == "gen":
                        wrap = brackets or nd.wrap
                        if wrap:
                            pieces.append("{")
                        for i, o in enumerate(nd.lo):
                            if i:
                                pieces.append(",")
                            pieces.append((o, len(nd.lo) > 1, False))
                        pieces.append("|" * nd.bars)
                        for i, o in enumerate(nd.ro):
                            if i:
                                pieces.append(",")
                            pieces.append((o, len(nd.ro) > 1, False))
                        if wrap:
                            pieces.append("}")
                    elif kind == "imp":
                        pieces.append("{")
                        for i, o in enumerate(nd.lo):
                            if i:
                                pieces.append(",")
                            pieces.append((o, True, False))
                        pieces.append("}")
                    elif kind == "switch":
                        many = len(nd.lo) > 1
                        pieces.append(self.pm + ("{" if many else ""))
                        for i, o in enumerate(nd.lo):
                            if i:
                                pieces.append(",")
                            pieces.append((o, True, not many))
                        if many:
                            pieces.append("}")
                    elif kind == "tiny":
                        pieces += ["(" if parens else "", nd.text, (nd.sub, True, False),
                                   ")", ")" if parens else ""]
                    else:  # sum
                        pieces += ["(" if parens else "", (nd.parts[0], True, False), " + ",
                                   (nd.parts[1], True, False), ")" if parens else ""]
                    stack.extend(reversed(pieces))
                    continue
            take = piece[: budget - used]
            out.append(take)
            used += len(take)
        return "".join(out)


def format_partizan(g: Any, max_chars: int | None = None, ascii: bool = False) -> str:
    """Text for the form ``G`` as CGSuite prints it, read back by :func:`parse_partizan` to
    the same form.

    Recognised pieces (where a subform *is* the canonical form of such a value): numbers
    (``1/2``), nimbers (``*3``), numbers plus ups plus a nimber (``^``, ``v*``, ``^^*``,
    ``v3``, ``1/2^*``, ``9/8*``), switches (``±1``, ``±{2,*}``), tinies and minies
    (``Tiny(3/2)``, ``1Miny(2)``); everything else prints in braces with CGSuite's bars
    (``{2||1|0}``, options in CGSuite's order: numbers, nimbers, ups, then others), and a
    non-canonical form built as a sum prints as ``A + B`` when that is shorter.

    Parameters
    ----------
    g : PartizanGame (or anything :func:`~cgtalg.core.partizan.as_partizan` accepts)
    max_chars : int, optional
        Cut the text at this length, ending with ``...`` (then not parseable).
    ascii : bool
        Write ``+-`` instead of ``±`` (CGSuite's plain-text output).

    Raises
    ------
    ComputationLimitError
        When the text would be longer than :data:`FORMAT_LIMIT` characters and no
        ``max_chars`` is given (a form's text can be exponentially longer than its DAG).

    Examples
    --------
    >>> import cgtalg as cg
    >>> [cg.format_partizan(cg.parse(t)) for t in ("{0|*}", "{0,*|0}", "{1|-1}", "{2||1|0}", "{1|1}")]
    ['^', '^*', '±1', '{2||1|0}', '1*']
    >>> cg.format_partizan(cg.parse("{0||0|-3/2}")), cg.format_partizan(cg.switch(1), ascii=True)
    ('Tiny(3/2)', '+-1')
    """
    if max_chars is not None:
        max_chars = require_int(max_chars, "max_chars")
    x = as_partizan(g)
    f = _Formatter(ascii)
    f.analyse(x)
    n = f.length(x, True, False)
    if max_chars is not None and n > max_chars:
        return f.write(x, max(0, max_chars - 3)) + "..."
    if n > FORMAT_LIMIT:
        raise ComputationLimitError(
            f"the text of this form has {n} characters, more than "
            f"cgtalg.normal.notation.FORMAT_LIMIT = {FORMAT_LIMIT}; pass max_chars, or "
            "print its canonical form")
    return f.write(x, n)
