"""Misère canonical forms and genera of heap-game positions.

The genus, the phylum and the misère outcome of a position depend only on its misère canonical
form (misère equality is a congruence: Conway, ONAG ch. 12; Siegel CGT §V.3), so a heap is
replaced by its canonical form once, built from its options *as canonical forms*: the option
``h1 + h2`` of a heap becomes the canonical sum of the canonical heaps ``C(h1)`` and ``C(h2)``
(:func:`cgtalg.misere.canonical.misere_canonical_sum`, memoised on id pairs). This reaches much
further than folding the literal heap forms (Kayles: heap 40 in seconds, where the literal sum
forms pass the walk limit near heap 32) and is what CGSuite does for ``G.Genus``.

Results are written to the store as position properties (ruleset key ``misere:<name>``
(:func:`store_key`), the position text, property ``genus``), so a rerun reads them back.
"""

from __future__ import annotations

from typing import Any, Sequence

from cgtalg.budget import Deadline, check_fits
from cgtalg.core.game import Game, game
from cgtalg.errors import ComputationLimitError, RulesetError
from cgtalg.rulesets.heaps.position import as_heaps, check_count, heap_fold
from cgtalg.rulesets.protocol import check_store

__all__ = ["misere_canonical_heap", "misere_canonical_position", "heap_genus",
           "genus_sequence", "store_key", "HEAP_FORM_BYTES"]

#: bytes per heap the fold over single heaps keeps at the least (a canonical form and its
#: options): a heap whose fold cannot fit under the memory ceiling is refused up front
HEAP_FORM_BYTES = 2048


def _canon_list(ruleset: Any) -> list[Game]:
    lst = getattr(ruleset, "_canonical_heaps", None)
    if lst is None:
        lst = []
        ruleset._canonical_heaps = lst
    return lst


def misere_canonical_heap(ruleset: Any, n: int) -> Game:
    """The misère canonical form of a single heap of ``n`` tokens (memoised on the ruleset).

    Raises
    ------
    ComputationLimitError
        When a canonical sum of two heaps would pass :data:`cgtalg.core.game.WALK_LIMIT`.
    """
    from cgtalg.misere.canonical import misere_canonical_sum_game, misere_canonical_game

    n = check_count(n, "heap size")
    lst = _canon_list(ruleset)
    if n >= len(lst):
        name = getattr(ruleset, "name", "heap game")
        shown = str(n) if n < 10**15 else f"about 10^{len(str(n)) - 1}"
        try:
            check_fits(min((n + 1 - len(lst)) * HEAP_FORM_BYTES, 1 << 62),
                       f"{name}: the misère canonical forms of heaps up to {shown}")
        except ComputationLimitError as exc:
            raise ComputationLimitError(
                f"{exc}. Outcomes of such heaps come from a final misère quotient "
                f"(cgtalg quotient {name}), never from their forms") from None
    try:
        return heap_fold(ruleset, _canon_list(ruleset), n, misere_canonical_game(game([])),
                         misere_canonical_sum_game, lambda opts: misere_canonical_game(game(opts)))
    except ComputationLimitError as exc:
        # the form-level message ends in a normal-play hint (XOR of Grundy values) that does not
        # hold in misère play: say what was reached and where the rest comes from
        name = getattr(ruleset, "name", "heap game")
        done = len(_canon_list(ruleset))
        detail = str(exc).split("; Grundy values of sums add by XOR")[0]
        raise ComputationLimitError(
            f"{name}: the misère canonical form of heap {done} is out of reach ({detail}); the "
            f"forms of heaps 0..{done - 1} are computed. Beyond them, genus superscripts come from "
            f"the final misère quotient (cgtalg misere {name} -n N reads them off it; "
            f"cgtalg.rulesets.heaps.quotient_genus.quotient_genus_sequence)") from None


def misere_canonical_position(ruleset: Any, heaps: Any) -> Game:
    """The misère canonical form of a multi-heap position (canonical sum of its heaps)."""
    from cgtalg.misere.canonical import misere_canonical_sum_game, misere_canonical_game

    x = misere_canonical_game(game([]))
    for h in as_heaps(heaps, getattr(ruleset, "name", "heap game")):
        x = misere_canonical_sum_game(x, misere_canonical_heap(ruleset, h))
    return x


def store_key(ruleset: Any) -> str:
    """The store's ruleset key for misère results of ``ruleset``: ``misere:`` and what
    identifies its rules, its ``store_name`` when it has one (a ruleset from a function: its
    name and a fingerprint of its moves, :class:`~cgtalg.rulesets.heaps.games.FunctionHeapRuleset`),
    else its name (a built-in: ``misere:0.77``, as every store has always keyed it)."""
    return f"misere:{getattr(ruleset, 'store_name', None) or getattr(ruleset, 'name', type(ruleset).__name__)}"


def heap_genus(ruleset: Any, heaps: Any, convention: str = "classical", store: Any = None) -> Genus:
    """The genus of a multi-heap position (or a single heap), from its misère canonical form.

    Parameters
    ----------
    ruleset : HeapRuleset
    heaps : int or sequence of int
    convention : {'classical', 'short', 'extended'}
        How the result prints (:mod:`cgtalg.misere.genus`).
    store : Store, optional
        An open store: the genus is read from / written to it (position property ``genus``).

    Examples
    --------
    >>> from cgtalg.rulesets.heaps.octal import TakeAndBreak
    >>> r = TakeAndBreak("0.123")
    >>> str(heap_genus(r, [9, 6])), str(heap_genus(r, [9, 3, 3]))   # seed 000's warning
    ('1^13', '1^20')
    """
    from cgtalg.misere.genus import GENUS_CONVENTIONS, Genus, extended_genus, genus  # on use: cheap import

    if convention not in GENUS_CONVENTIONS:
        raise RulesetError(f"unknown genus convention {convention!r}; use one of {GENUS_CONVENTIONS}")
    hs = as_heaps(heaps, getattr(ruleset, "name", "heap game"))
    if convention == "extended":
        return extended_genus(misere_canonical_position(ruleset, hs))
    st = check_store(store)
    text = " ".join(map(str, hs)) or "0"
    if st is not None:
        from cgtalg.rulesets.heaps.misere_play import HeapPositionMoves

        hit = st.get_position(store_key(ruleset), text, "genus", moves=HeapPositionMoves(ruleset, hs))
        if hit is not None:
            x = Genus(hit["g"], hit["gammas"])
            return x if convention == "classical" else x.with_convention(convention)
    x = genus(misere_canonical_position(ruleset, hs))
    if st is not None:
        st.put_position(store_key(ruleset), text, "genus", x.to_dict())
    return x if convention == "classical" else x.with_convention(convention)


def genus_sequence(ruleset: Any, n: int, convention: str = "classical", store: Any = None,
                   progress: bool | None = None, *, max_seconds: float | None = None,
                   partial: bool = False) -> list[Genus]:
    """Genera of the ``n`` single heaps ``0..n-1`` (Plambeck's tables; CGSuite's
    ``[G(k).Genus for k …]``): ``n`` values, as :func:`~cgtalg.rulesets.heaps.grundy_engine.grundy_sequence`
    gives ``n`` Grundy values.

    ``progress``: ``True`` shows a tqdm bar, ``None`` one on a terminal for ``n > 40``.
    ``max_seconds``: time budget, checked between heaps (past it,
    :class:`~cgtalg.errors.ComputationLimitError`; the canonical heaps built are kept on the
    ruleset and the genera written to the store stay there).
    ``partial``: on a budget or the walk limit of the canonical forms, return the genera of the
    heaps reached (fewer than ``n``) instead of raising; the heaps beyond come from a final
    misère quotient as far as it decides them
    (:func:`cgtalg.rulesets.heaps.quotient_genus.quotient_genus_sequence`).

    Examples
    --------
    >>> from cgtalg.rulesets.heaps.octal import TakeAndBreak
    >>> [str(x) for x in genus_sequence(TakeAndBreak("0.312"), 7)][1:]
    ['1^031', '2^20', '0^02', '2^1420', '0^02', '1^13']
    """
    import sys

    n = check_count(n, "n")
    show = progress if progress is not None else (n > 40 and sys.stderr.isatty())
    it: Sequence[int] | Any = range(n)
    if show:
        from tqdm.auto import tqdm

        it = tqdm(it, desc=f"genus {getattr(ruleset, 'name', '')}", unit="heap")
    st = check_store(store)
    deadline = Deadline(max_seconds)
    out: list[Genus] = []
    for h in it:
        try:
            deadline.check(f"{getattr(ruleset, 'name', 'heap game')}: the genera of heaps 0..{n - 1} "
                           f"({len(out)} computed)")
            out.append(heap_genus(ruleset, h, convention, st))
        except ComputationLimitError:
            if partial:
                return out
            raise
    return out
