"""Misère play of multi-heap positions: outcome, winning moves and misère Grundy values.

In misère play the Sprague–Grundy theory does not apply: a position's outcome is not a function
of its heaps' values. What does hold is that misère equality is a congruence (Conway, ONAG
ch. 12; Siegel CGT §V.3): if ``C(h) = C(h')`` as misère canonical forms then ``h + X`` and
``h' + X`` have the same outcome (and the same misère Grundy value, which the canonical form
determines) for every ``X``. The search therefore works on **multisets of classes**:

* every heap is replaced by the smallest heap with the same canonical form (its class
  representative), computed once per ruleset from the canonical forms of single heaps
  (:func:`cgtalg.rulesets.heap_genus.misere_canonical_heap`); heaps whose canonical form is out
  of reach keep their own class;
* heaps of class ``0`` are dropped (``G + 0 = G``), and heaps of class ``*1`` cancel in pairs
  (``*1 + *1 = 0`` in misère play; ``G + G = 0`` holds for no other ``G``);
* a memoised depth-first search over the sorted class tuples decides P (every option is N; the
  empty position is N, the player to move having no move *wins*) or computes the misère Grundy
  value (``1`` for the empty position, else the mex of the options' values).

For Kayles ``{20, 21, 22}`` this visits about 2·10⁵ class multisets where a search over sorted
heap tuples visits millions (docs/performance.md). The search has a budget (states and
seconds) and ends in :class:`~cgtalg.errors.ComputationLimitError` rather than exhausting
memory; the states explored are kept on the ruleset, so later queries reuse them, and answers
are written to the store (ruleset key ``misere:<name>``, properties ``misere_outcome`` and
``misere_grundy``) so a rerun is a lookup.
"""

from __future__ import annotations

import sys
import time
from typing import Any, Iterator

from cgtalg.errors import ComputationLimitError

__all__ = ["MisereSearch", "misere_search", "DEFAULT_MAX_STATES"]

#: default budget of explored class multisets (about 200 bytes each in memory)
DEFAULT_MAX_STATES = 5_000_000
#: seconds spent on canonical forms of single heaps before the remaining heaps keep own classes
CLASS_SECONDS = 10.0


class MisereSearch:
    """Memoised misère search over multisets of heap classes for one ruleset (module docstring).

    Use :func:`misere_search` to get the instance kept on a ruleset.
    """

    def __init__(self, ruleset: Any, classes: bool = True) -> None:
        self.ruleset = ruleset
        self._rep: list[int] = []          # heap -> class representative (a heap size)
        self._canon_ok = bool(classes)     # canonical forms wanted and still within reach
        self._zero = -1                    # representative of class 0 (heap 0)
        self._one: int | None = None       # representative of class *1, if some heap has it
        self._canon_ids: dict[int, int] = {}
        self._opts: dict[int, list[tuple[int, ...]]] = {}
        self.outcomes: dict[tuple[int, ...], bool] = {}   # True = N (mover wins)
        self.grundy: dict[tuple[int, ...], int] = {}
        self._class_time = 0.0

    # -- classes ----------------------------------------------------------------------
    def _extend_classes(self, n: int) -> None:
        from cgtalg.core.game import nim

        while len(self._rep) <= n:
            m = len(self._rep)
            rep = m
            if self._canon_ok:
                t = time.perf_counter()
                try:
                    c = self.ruleset.misere_canonical_heap(m)
                except ComputationLimitError:
                    self._canon_ok = False
                else:
                    rep = self._canon_ids.setdefault(c._id, m)
                    if c.is_zero and self._zero < 0:
                        self._zero = rep
                    if c is nim(1) and self._one is None:
                        self._one = rep
                self._class_time += time.perf_counter() - t
                if self._class_time > CLASS_SECONDS:
                    self._canon_ok = False
            self._rep.append(rep)
        if self._zero < 0:
            self._zero = 0

    def class_of(self, h: int) -> int:
        """The class representative of heap ``h`` (the smallest heap of its canonical form)."""
        self._extend_classes(h)
        return self._rep[h]

    def normalize(self, heaps: Any) -> tuple[int, ...]:
        """The sorted class multiset of a position (zeros dropped, ``*1`` pairs cancelled)."""
        out = []
        ones = 0
        for h in heaps:
            c = self.class_of(int(h))
            if c == self._zero:
                continue
            if c == self._one:
                ones ^= 1
                continue
            out.append(c)
        if ones:
            out.append(self._one)  # type: ignore[arg-type]
        out.sort()
        return tuple(out)

    def _options_of(self, c: int) -> list[tuple[int, ...]]:
        o = self._opts.get(c)
        if o is None:
            o = [tuple(self.class_of(p) for p in parts if p) for parts in self.ruleset.heap_options(c)]
            o = sorted(set(o))
            self._opts[c] = o
        return o

    def _children(self, s: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        prev = -1
        for i, h in enumerate(s):
            if h == prev:
                continue
            prev = h
            rest = s[:i] + s[i + 1:]
            for parts in self._options_of(h):
                yield self._merge(rest, parts)

    def _merge(self, rest: tuple[int, ...], parts: tuple[int, ...]) -> tuple[int, ...]:
        if not parts:
            return rest
        one = self._one
        if one is None and self._zero not in parts:
            return tuple(sorted(rest + parts))
        out = list(rest)
        for p in parts:
            if p == self._zero:
                continue
            if p == one and one in out:
                out.remove(one)
                continue
            out.append(p)
        out.sort()
        return tuple(out)

    # -- search -------------------------------------------------------------------------
    def _budget(self, max_states: int | None, max_seconds: float | None, progress: Any):
        start = time.perf_counter()
        limit = DEFAULT_MAX_STATES if max_states is None else int(max_states)

        def check(size: int) -> None:
            if size > limit:
                raise ComputationLimitError(
                    f"{self.ruleset.name}: misère search passed max_states={limit} class "
                    f"multisets (about {limit * 200 // 10**6} MB); raise max_states to go on "
                    f"(states found so far are kept for the next call)")
            if max_seconds is not None and time.perf_counter() - start > max_seconds:
                raise ComputationLimitError(
                    f"{self.ruleset.name}: misère search passed max_seconds={max_seconds} "
                    f"after {size} states (kept for the next call)")
            if progress is not None:
                progress.n = size
                progress.refresh()

        return check

    def is_n(self, s: tuple[int, ...], max_states: int | None = None,
             max_seconds: float | None = None, progress: Any = None) -> bool:
        """True when the class multiset ``s`` is a misère N-position (mover wins)."""
        memo = self.outcomes
        if s in memo:
            return memo[s]
        check = self._budget(max_states, max_seconds, progress)
        # iterative DFS; a frame is [state, generator of its children, child being solved]
        stack: list[list[Any]] = [[s, self._children(s), None]]
        base = len(memo)
        get = memo.get
        while stack:
            frame = stack[-1]
            state, kids, child = frame
            win = False
            if child is not None:           # back from solving this child
                win = not memo[child]
                frame[2] = None
            moved = child is not None
            descended = False
            if not win:
                for c in kids:
                    moved = True
                    v = get(c)
                    if v is None:
                        frame[2] = c
                        stack.append([c, self._children(c), None])
                        descended = True
                        break
                    if not v:
                        win = True
                        break
            if descended:
                n = len(memo)
                if (n - base) & 0x3FFF == 0:
                    check(n)
                continue
            # no move at all: the player to move has won (misère)
            memo[state] = win or not moved
            stack.pop()
        return memo[s]

    def grundy_value(self, s: tuple[int, ...], max_states: int | None = None,
                     max_seconds: float | None = None, progress: Any = None) -> int:
        """The misère Grundy value of the class multiset ``s``."""
        memo = self.grundy
        if s in memo:
            return memo[s]
        check = self._budget(max_states, max_seconds, progress)
        raw = self._one is None and not self._canon_ids   # plain heaps: no class rewriting
        opts = self._options_of
        # a frame is [state, its children, index of the first child not yet known]
        stack: list[list[Any]] = [[s, None, 0]]
        base = len(memo)
        while stack:
            frame = stack[-1]
            state, kids, i = frame
            if kids is None:
                if state in memo:
                    stack.pop()
                    continue
                if raw:
                    kids = []
                    prev = -1
                    for j, h in enumerate(state):
                        if h != prev:
                            prev = h
                            rest = state[:j] + state[j + 1:]
                            for parts in opts(h):
                                kids.append(tuple(sorted(rest + parts)) if parts else rest)
                    frame[1] = kids
                else:
                    kids = frame[1] = list(self._children(state))
            n_k = len(kids)
            while i < n_k and kids[i] in memo:
                i += 1
            if i < n_k:
                frame[2] = i
                stack.append([kids[i], None, 0])
                n = len(memo)
                if (n - base) & 0x3FFF == 0:
                    check(n + len(stack))
                continue
            if not kids:     # no move: value 1, as for the empty position
                memo[state] = 1
            else:
                vals = {memo[k] for k in kids}
                m = 0
                while m in vals:
                    m += 1
                memo[state] = m
            stack.pop()
        return memo[s]


def misere_search(ruleset: Any, classes: bool = True) -> MisereSearch:
    """The :class:`MisereSearch` kept on ``ruleset`` (its memo grows across calls);
    ``classes=False`` gives the search over plain heap multisets (no canonical forms)."""
    attr = "_misere_search" if classes else "_misere_search_raw"
    s = getattr(ruleset, attr, None)
    if s is None:
        s = MisereSearch(ruleset, classes)
        setattr(ruleset, attr, s)
    return s


#: small positions are searched over plain heap multisets first: when fewer than this many
#: states decide them, building canonical forms of the heaps would cost more than it saves
RAW_STATES = 10_000


def _solve(ruleset: Any, heaps: list[int], grundy: bool, max_states: int | None,
           max_seconds: float | None, bar: Any) -> Any:
    raw = misere_search(ruleset, classes=False)
    memo = raw.grundy if grundy else raw.outcomes
    s = raw.normalize(heaps)
    if s in memo or len(memo) < RAW_STATES:
        cap = RAW_STATES if max_states is None else min(RAW_STATES, int(max_states))
        try:
            return raw.grundy_value(s, cap, max_seconds) if grundy else raw.is_n(s, cap, max_seconds)
        except ComputationLimitError:
            if max_states is not None and max_states <= RAW_STATES:
                raise
    srch = misere_search(ruleset)
    s = srch.normalize(heaps)
    if grundy:
        return srch.grundy_value(s, max_states, max_seconds, bar)
    return srch.is_n(s, max_states, max_seconds, bar)


def _bar(progress: bool | None, what: str):
    show = progress if progress is not None else sys.stderr.isatty()
    if not show:
        return None
    from tqdm.auto import tqdm

    return tqdm(desc=what, unit=" states", leave=False)


def _stored_answer(ruleset: Any, heaps: list[int], grundy: bool, store: Any,
                   max_states: int | None, max_seconds: float | None,
                   progress: bool | None) -> Any:
    """Read the answer from the store, else search (with a bar) and write it back."""
    from cgtalg.rulesets.heap_genus import _open, store_key

    prop = "misere_grundy" if grundy else "misere_outcome"
    st = _open(store)
    text = " ".join(map(str, sorted(heaps, reverse=True))) or "0"
    if st is not None:
        hit = st.get_position(store_key(ruleset), text, prop)
        if hit is not None:
            return int(hit) if grundy else str(hit)
    bar = _bar(progress, f"{ruleset.name} {prop.replace('_', ' ')} {text}")
    try:
        v = _solve(ruleset, heaps, grundy, max_states, max_seconds, bar)
    finally:
        if bar is not None:
            bar.close()
    res = int(v) if grundy else ("N" if v else "P")
    if st is not None:
        st.put_position(store_key(ruleset), text, prop, res)
    return res


def misere_outcome(ruleset: Any, heaps: list[int], store: Any = None,
                   max_states: int | None = None, max_seconds: float | None = None,
                   progress: bool | None = None) -> str:
    """``'P'`` or ``'N'``: the misère outcome of the position ``heaps`` (module docstring)."""
    return _stored_answer(ruleset, heaps, False, store, max_states, max_seconds, progress)


def misere_grundy_value(ruleset: Any, heaps: list[int], store: Any = None,
                        max_states: int | None = None, max_seconds: float | None = None,
                        progress: bool | None = None) -> int:
    """The misère Grundy value of the position ``heaps`` (``0`` exactly at P-positions)."""
    return _stored_answer(ruleset, heaps, True, store, max_states, max_seconds, progress)


def misere_winning_moves(ruleset: Any, heaps: list[int], store: Any = None,
                         max_states: int | None = None, max_seconds: float | None = None,
                         progress: bool | None = None) -> list:
    """Every move from ``heaps`` to a misère P-position, as :class:`HeapMove` (the heap named
    by the index of its first occurrence in ``heaps``)."""
    from cgtalg.rulesets.heap_games import HeapMove

    moves = []
    seen: set[int] = set()
    for i, h in enumerate(heaps):
        if h == 0 or h in seen:
            continue
        seen.add(h)
        rest = heaps[:i] + heaps[i + 1:]
        for parts in ruleset.heap_options(h):
            child = list(rest) + [p for p in parts if p]
            if not _solve(ruleset, child, False, max_states, max_seconds, None):
                moves.append(HeapMove(i, h, h - sum(parts), tuple(parts)))
    return moves
