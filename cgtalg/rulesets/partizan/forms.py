"""The partizan form of a position of any partizan ruleset: a memoised search over normalised
components (split from :mod:`cgtalg.rulesets.partizan.games`, which re-exports its names).

:func:`partizan_form` turns a position of *any* partizan ruleset (the protocol of
:mod:`cgtalg.rulesets.protocol`: ``left_moves`` / ``right_moves``, optional ``components`` and
``normalize``) into its normal-play canonical form (:class:`cgtalg.core.partizan.PartizanGame`),
memoised per ruleset and normalised component, adding components' values;
:func:`partizan_value` answers from the store when it can.

Two engines build the canonical forms, with the same results (``tests/test_partizan_kernel.py``):
the compiled kernel (:mod:`cgtalg.normal.partizan_kernel`: forms as integer ids in C, comparisons
and sums memoised there), used when it is built; and the Python reference
(:func:`cgtalg.normal.partizan.canonical_form`), used when the kernel is not built, when
``CGTALG_PURE_PYTHON=1``, when ``engine="python"`` is passed, or when a value is beyond the
kernel's range of numbers. A ruleset may also offer a whole search of its own in the kernel
(a method ``kernel_form(position, max_seconds)`` returning the form, or None when it does not
apply): Domineering, Clobber, Konane, Snort and Col do.
"""

from __future__ import annotations

import weakref
from typing import Any, Hashable

from cgtalg.budget import Deadline
from cgtalg.caches import register_cache
from cgtalg.errors import ArgumentError, ComputationLimitError, LoopyGameError
from cgtalg.rulesets.protocol import player_moves

__all__ = ["partizan_form", "partizan_value", "partizan_store_key", "clear_partizan_forms", "misere_outcome_by_play", "ENGINES"]

#: the values of partizan_form's ``engine``: None (the kernel when it is in use), "kernel"
#: (the same), "python" (the reference)
ENGINES = (None, "kernel", "python")


def _clip(text: Any, limit: int = 40) -> str:
    """A user's input as text cut to about ``limit`` characters, for error messages."""
    s = str(text)
    return s if len(s) <= limit else f"{s[: limit - 3]}... ({len(s):,} characters)"


def _short(text: Any, limit: int = 40) -> str:
    """:func:`_clip` quoted."""
    s = str(text)
    return repr(s) if len(s) <= limit else repr(s[: limit - 3] + "...") + f" ({len(s):,} characters)"


# -- forms of positions ---------------------------------------------------------------------------
#: the rulesets holding memoised forms (so that :func:`clear_partizan_forms` can empty them)
_MEMO_HOLDERS: "weakref.WeakSet[Any]" = weakref.WeakSet()
_MEMO_NAMES = ("_partizan_forms", "_partizan_sums", "_partizan_keys", "_partizan_kids", "_partizan_ksums",
               "_partizan_misere")


@register_cache("rulesets.partizan forms of positions")
def clear_partizan_forms() -> None:
    """Empty the forms of positions memoised on every ruleset by :func:`partizan_form`, and the
    positions memoised by the kernel's searches (``cgtalg.clear_caches()`` calls this)."""
    import sys

    kernel = sys.modules.get("cgtalg.normal.partizan_kernel")  # (not loaded just to be emptied)
    if kernel is not None:
        kernel.clear_searches()
    for ruleset in list(_MEMO_HOLDERS):
        for name in _MEMO_NAMES:
            memo = getattr(ruleset, name, None)
            if isinstance(memo, dict):
                memo.clear()


def _attr_dict(ruleset: Any, name: str) -> dict:
    """A memo dict kept on the ruleset object (a fresh one for objects without a __dict__)."""
    memo = getattr(ruleset, name, None)
    if memo is None:
        memo = {}
        try:
            setattr(ruleset, name, memo)
            _MEMO_HOLDERS.add(ruleset)
        except (AttributeError, TypeError):  # pragma: no cover - objects without a __dict__
            pass
    return memo


def partizan_store_key(ruleset: Any, position: Hashable) -> tuple[str, str]:
    """Where the store keeps facts about a position of a partizan ruleset: the ruleset key
    ``partizan:<store_name>`` (its ``store_name`` when it has one, for rules that changed under
    an old name, else its ``name``) and the text of the normalised position (``format_position``)."""
    from cgtalg.rulesets.protocol import format_position

    norm = getattr(ruleset, "normalize", None)
    key_pos = norm(position) if norm is not None else position
    return f"partizan:{getattr(ruleset, 'store_name', None) or ruleset.name}", format_position(ruleset, key_pos)


def partizan_value(ruleset: Any, position: Hashable, store: Any = None,
                   max_seconds: float | None = None, progress: bool | None = None, *,
                   max_memory: Any = None) -> Any:
    """:func:`partizan_form` answered from the store when it was computed before: the canonical
    form's text is stored under the ruleset key ``partizan:<name>`` and the position's text
    (the ruleset's ``format_position`` of the normalised position), property
    ``canonical_form``, and read back with :func:`cgtalg.normal.notation.parse_partizan`.
    ``max_seconds``, ``progress`` and ``max_memory`` are :func:`partizan_form`'s.
    """
    from cgtalg.normal.notation import format_partizan, parse_partizan
    from cgtalg.rulesets.protocol import check_store

    st = check_store(store)
    if st is None:
        return partizan_form(ruleset, position, max_seconds, progress, max_memory=max_memory)
    rkey, text = partizan_store_key(ruleset, position)
    hit = st.get_position(rkey, text, "canonical_form")
    if hit is not None:
        return parse_partizan(str(hit))
    g = partizan_form(ruleset, position, max_seconds, progress, max_memory=max_memory)
    st.put_position(rkey, text, "canonical_form", format_partizan(g, ascii=True))
    return g


def partizan_form(ruleset: Any, position: Hashable, max_seconds: float | None = None,
                  progress: Any = None, *, max_memory: Any = None, engine: str | None = None) -> Any:
    """The normal-play canonical form of ``position`` in the partizan ``ruleset``
    (:class:`cgtalg.core.partizan.PartizanGame`).

    A ruleset with ``components`` has every position reached split into its components (each
    normalised by the ruleset's ``normalize`` when it has one); each component's canonical form
    is built once from its options and a position's form is the canonical sum of its
    components' forms (the value of a disjunctive sum depends only on the values of its parts,
    Siegel CGT II.1). Both are memoised on the ruleset, so later positions reuse everything
    computed before (:func:`clear_partizan_forms` empties them).

    Parameters
    ----------
    ruleset, position
        A partizan ruleset and one of its positions.
    max_seconds : float, optional
        A time limit (``None``: none).
    progress : bool or callable, optional
        A bar of components solved on stderr (default: on a terminal), or a function
        ``progress(solved)`` called every few hundred components.
    max_memory : int or str, optional
        A memory ceiling (bytes or text such as ``"8G"``; default
        :func:`cgtalg.budget.default_max_memory`).
    engine : {None, "kernel", "python"}
        Who builds the canonical forms: the compiled kernel when it is in use (None, "kernel":
        :mod:`cgtalg.normal.partizan_kernel`), or the Python reference ("python"). Both give the
        same form.

    Returns
    -------
    PartizanGame
        The canonical form.

    Raises
    ------
    ComputationLimitError
        Past ``max_seconds`` or ``max_memory``: the message names the limit, how to raise it,
        and how many components were solved (they stay memoised on the ruleset, so a second
        call goes on from them).
    LoopyGameError
        When a position can be reached from itself.
    ArgumentError
        For an unknown ``engine``.

    Examples
    --------
    >>> from cgtalg.rulesets.partizan.games import Domineering, partizan_form
    >>> d = Domineering()
    >>> str(partizan_form(d, d.rectangle(2, 2)))
    '±1'
    """
    if engine not in ENGINES:
        raise ArgumentError(f"engine must be one of None, 'kernel', 'python', got {_short(engine)}")
    check_position = getattr(ruleset, "check_position", None)
    if check_position is not None:
        check_position(position)
    kernel = None
    if engine != "python":
        from cgtalg.normal import partizan_kernel

        if partizan_kernel.available():
            kernel = partizan_kernel
    _attr_dict(ruleset, "_partizan_forms")  # (the memo that clear_partizan_forms empties)
    if kernel is not None:
        fast = getattr(ruleset, "kernel_form", None)
        if fast is not None:
            g = _kernel_search(ruleset, position, fast, max_seconds, progress, max_memory)
            if g is not None:
                return g
        try:
            return _partizan_form(ruleset, position, max_seconds, progress, max_memory, kernel)
        except OverflowError:  # a number beyond the kernel's range: the Python reference
            pass
    return _partizan_form(ruleset, position, max_seconds, progress, max_memory, None)


def _progress_reporter(ruleset: Any, progress: Any) -> tuple[Any, Any]:
    """``(report, bar)``: the function called with the number of components solved (None for
    no report) and the tqdm bar to close (or None), from :func:`partizan_form`'s ``progress``."""
    import sys

    report = progress if callable(progress) else None
    show = (progress if progress is not None else sys.stderr.isatty()) and report is None
    bar = None
    if show:
        from tqdm.auto import tqdm

        bar = tqdm(desc=f"{ruleset.name}: components solved", unit=" components", leave=False)

        def report(solved: int) -> None:
            bar.n = solved
            bar.refresh()
    return report, bar


def _kernel_search(ruleset: Any, position: Hashable, fast: Any, max_seconds: float | None,
                   progress: Any, max_memory: Any) -> Any:
    """The ruleset's whole search in the kernel (``fast(position, tick)``), with the limits and
    the progress report of :func:`partizan_form` checked every 256 components."""
    from cgtalg.rulesets.protocol import format_position

    deadline = Deadline(max_seconds, max_memory)
    what = f"the canonical form of {ruleset.name} {_clip(format_position(ruleset, position), 60)}"
    report, bar = _progress_reporter(ruleset, progress)
    count = [0]

    def tick(solved: int) -> None:
        count[0] = solved
        deadline.check(what)
        if report is not None:
            report(solved)

    try:
        deadline.check(what)
        return fast(position, tick)
    except ComputationLimitError as exc:
        raise ComputationLimitError(
            f"{exc} ({count[0]:,} components solved by this call: they are kept in the partizan "
            "kernel, so a second call goes on from them)") from None
    finally:
        if bar is not None:
            bar.close()


class _PythonEngine:
    """Canonical forms built by the Python reference (:mod:`cgtalg.normal.partizan`)."""

    memo_names = ("_partizan_forms", "_partizan_sums")

    def __init__(self) -> None:
        from cgtalg.core.partizan import ZERO, pgame
        from cgtalg.normal.partizan import canonical_form

        self.zero = ZERO
        self._pgame = pgame
        self._canon = canonical_form

    def make(self, left: list, right: list) -> Any:
        return self._canon(self._pgame(left, right))

    def add(self, a: Any, b: Any) -> Any:
        return self._canon(a + b)

    def result(self, value: Any) -> Any:
        return value


class _KernelEngine:
    """Canonical forms as ids of the compiled kernel (:mod:`cgtalg.normal.partizan_kernel`)."""

    memo_names = ("_partizan_kids", "_partizan_ksums")

    def __init__(self, kernel: Any) -> None:
        mod = kernel._need()
        self.zero = 0
        self.make = mod.canon
        self.add = mod.add
        self.result = kernel.to_form


def _partizan_form(ruleset: Any, position: Hashable, max_seconds: float | None, progress: Any,
                   max_memory: Any, kernel: Any) -> Any:
    """:func:`partizan_form` with one engine (``kernel``: the kernel module, or None)."""
    eng = _PythonEngine() if kernel is None else _KernelEngine(kernel)
    deadline = Deadline(max_seconds, max_memory)
    memo = _attr_dict(ruleset, eng.memo_names[0])   # component -> value
    sums = _attr_dict(ruleset, eng.memo_names[1])   # sorted tuple of components -> value of the sum
    comps_of = getattr(ruleset, "components", None)
    norm = getattr(ruleset, "normalize", None)

    keys = _attr_dict(ruleset, "_partizan_keys")   # position -> its parts key

    def parts_key(q: Hashable) -> tuple:
        """The sorted multiset of normalised components of ``q`` (memoised: the same board
        is often reached from several parents)."""
        k = keys.get(q)
        if k is not None:
            return k
        k = None
        if comps_of is not None:
            parts = comps_of(q)
            if parts is not None:
                k = tuple(_sorted(parts)) if len(parts) > 1 else tuple(parts)
        if k is None:
            k = (norm(q) if norm is not None else q,)
        keys[q] = k
        return k

    add = eng.add

    def form_of(key: tuple) -> Any:
        if len(key) == 1:
            return memo[key[0]]
        f = sums.get(key)
        if f is None:
            f = eng.zero
            for c in key:
                f = add(f, memo[c])
            sums[key] = f
        return f

    root = parts_key(position)
    if all(c in memo for c in root):
        return eng.result(form_of(root))
    # iterative post-order over components: a frame is (component, its options' keys or None)
    stack: list[tuple[Hashable, Any]] = [(c, None) for c in root if c not in memo]
    report, bar = _progress_reporter(ruleset, progress)
    try:
        return eng.result(_solve_components(ruleset, position, stack, memo, parts_key, form_of, root,
                                            deadline, report, eng.make))
    finally:
        if bar is not None:
            bar.close()


def _solve_components(ruleset: Any, position: Any, stack: list, memo: dict, parts_key: Any,
                      form_of: Any, root: tuple, deadline: Deadline, report: Any, make: Any) -> Any:
    """The post-order loop of :func:`partizan_form` (the deadline is checked at every step,
    progress reported every 256 components); ``make(left values, right values)`` is the
    engine's canonical form of options."""
    from cgtalg.rulesets.protocol import format_position

    opened: set = set()
    solved = 0
    check = deadline.check
    what = None
    try:
        while stack:
            if what is None:
                what = f"the canonical form of {ruleset.name} {_clip(format_position(ruleset, position), 60)}"
            check(what)
            c, kids = stack.pop()
            if c in memo:
                continue
            if kids is None:
                if c in opened:
                    raise LoopyGameError(
                        [c], f"ruleset {ruleset.name!r}: the position {_short(c, 60)} can be "
                        "reached from itself; partizan forms are for short (loop-free) games")
                opened.add(c)
                lk = [parts_key(q) for q in player_moves(ruleset, c, "L")]
                rk = [parts_key(q) for q in player_moves(ruleset, c, "R")]
                kids = (lk, rk)
                stack.append((c, kids))
                stack.extend((d, None) for k in lk + rk for d in k if d not in memo)
                continue
            lk, rk = kids
            missing = [d for k in lk + rk for d in k if d not in memo]
            if missing:
                stack.append((c, kids))
                stack.extend((d, None) for d in missing)
                continue
            memo[c] = make([form_of(k) for k in lk], [form_of(k) for k in rk])
            solved += 1
            if report is not None and solved & 0xFF == 0:
                report(solved)
        check(what or "the canonical form")
        return form_of(root)
    except ComputationLimitError as exc:
        raise ComputationLimitError(
            f"{exc} ({solved:,} components solved by this call, {len(memo):,} known in all: "
            "they are kept on the ruleset, so a second call goes on from them)") from None


def misere_outcome_by_play(ruleset: Any, position: Hashable, max_seconds: float | None = None,
                           *, max_memory: Any = None) -> str:
    """The misère-play outcome class of ``position`` of the partizan ``ruleset`` (the player who
    cannot move wins), by a memoised search of play (no components: misère values do not add
    as in normal play). Positions are memoised on the ruleset under its ``normalize`` (a
    symmetry of the board is the same game).

    This is the outcome :func:`cgtalg.rulesets.solver.solve` gives with ``misere=True``,
    without its strategy tables and graph library (``tests/test_partizan_kernel.py`` compares
    the two): the quick path of ``cgtalg value``.

    Parameters
    ----------
    ruleset, position
        A partizan ruleset and one of its positions.
    max_seconds, max_memory
        Limits, as :func:`partizan_form`'s.

    Returns
    -------
    str
        ``"L"``, ``"R"``, ``"N"`` (the player to move wins) or ``"P"``.

    Raises
    ------
    ComputationLimitError
        Past either limit.
    LoopyGameError
        When a position can be reached from itself.

    Examples
    --------
    >>> from cgtalg.rulesets.partizan.games import Domineering
    >>> d = Domineering()
    >>> misere_outcome_by_play(d, d.rectangle(2, 2))  # the first to play leaves no move: loses
    'P'
    """
    deadline = Deadline(max_seconds, max_memory)
    norm = getattr(ruleset, "normalize", None)
    memo = _attr_dict(ruleset, "_partizan_misere")   # (normalised position, mover) -> mover wins
    root = norm(position) if norm is not None else position
    sides = ("L", "R")
    for mover in sides:
        key = (root, mover)
        if key in memo:
            continue
        # iterative search: a frame is [key, its options' keys (the opponent to move), index]
        stack: list[list] = [[key, None, 0]]
        opened = {key}
        steps = 0
        while stack:
            frame = stack[-1]
            k, opts, i = frame
            if opts is None:
                q, who = k
                nxt = "R" if who == "L" else "L"
                opts = [((norm(o) if norm is not None else o), nxt) for o in player_moves(ruleset, q, who)]
                frame[1] = opts
                if not opts:   # misère play: the player who cannot move wins
                    memo[k] = True
                    opened.discard(k)
                    stack.pop()
                    continue
            steps += 1
            if steps & 0x3FF == 0:
                deadline.check(f"the misère outcome of {ruleset.name} {_clip(position, 60)}")
            win = False
            while i < len(opts):
                o = opts[i]
                v = memo.get(o)
                if v is None:
                    break
                if not v:      # a move to a position the opponent loses
                    win = True
                    break
                i += 1
            frame[2] = i
            if win or i == len(opts):
                memo[k] = win
                opened.discard(k)
                stack.pop()
                continue
            o = opts[i]
            if o in opened:
                raise LoopyGameError([o[0]], f"ruleset {ruleset.name!r}: the position {_short(o[0], 60)} can "
                                     "be reached from itself; misère outcomes here are for short games")
            opened.add(o)
            stack.append([o, None, 0])
    left_first, right_first = memo[(root, "L")], memo[(root, "R")]
    return "N" if left_first and right_first else "L" if left_first else "R" if right_first else "P"


def _sorted(parts: list) -> list:
    try:
        return sorted(parts)
    except TypeError:  # positions of a ruleset that are not mutually comparable
        return sorted(parts, key=repr)


