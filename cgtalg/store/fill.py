"""Fill a store with the genera of every position of a heap game up to a number of tokens, so that
questions about all of them ("which Kayles positions of at most 30 tokens are misère P, and what
are their genera") are answered by a query (:mod:`cgtalg.store.query`) without recomputing.

A genus ``g^γ0γ1…`` tells both outcomes (normal play: ``g = 0`` exactly at P-positions; misère
play: ``γ0 = 0``), so the genus is the one property written. The rows are those
:func:`cgtalg.rulesets.heaps.genus.heap_genus` reads and writes (ruleset key ``misere:<name>``,
position text the heap sizes in ascending order, ``"0"`` for the empty position).
"""

from __future__ import annotations

from typing import Any, Iterator

from cgtalg.errors import ArgumentError, RulesetError

__all__ = ["fill_heap_genera", "heap_positions"]

#: Positions written per transaction.
BATCH = 5000


def heap_positions(tokens: int) -> Iterator[tuple[int, ...]]:
    """Every heap position of exactly ``tokens`` tokens (the partitions of ``tokens``), each as
    its ascending tuple of heap sizes; ``()`` for 0.

    Examples
    --------
    >>> list(heap_positions(4))
    [(1, 1, 1, 1), (1, 1, 2), (1, 3), (2, 2), (4,)]
    """

    def parts(n: int, largest: int) -> Iterator[tuple[int, ...]]:
        if n == 0:
            yield ()
            return
        for k in range(1, min(n, largest) + 1):
            for rest in parts(n - k, k):
                yield rest + (k,)

    yield from sorted(parts(tokens, tokens))


def fill_heap_genera(ruleset: Any, max_size: int, store: Any = None, min_size: int = 0) -> dict:
    """Store the genus of every position of ``ruleset`` with ``min_size`` to ``max_size`` tokens
    in all (any number of heaps); positions already stored are read, not recomputed.

    Parameters
    ----------
    ruleset : str or heap ruleset
        A ruleset name (``"kayles"``, ``"0.77"``) or a heap ruleset object.
    max_size, min_size : int
        The range of total token counts.
    store : Store or str, optional
        An open store, a URL, or ``None`` for the default store.

    Returns
    -------
    dict
        ``{"ruleset": key, "positions": n, "computed": k, "stored_before": n - k}``.

    Raises
    ------
    RulesetError
        For a ruleset that is not a heap game.
    ArgumentError
        For sizes that are not ints with ``0 <= min_size <= max_size``.

    Examples
    --------
    >>> from cgtalg.store import open_store
    >>> s = open_store(":memory:")
    >>> fill_heap_genera("kayles", 4, store=s)
    {'ruleset': 'misere:0.77', 'positions': 12, 'computed': 12, 'stored_before': 0}
    >>> fill_heap_genera("kayles", 4, store=s)["computed"]
    0
    """
    from cgtalg.rulesets.heaps.base import HeapRuleset
    from cgtalg.rulesets.heaps.genus import heap_genus, store_key
    from cgtalg.rulesets.registry import get_ruleset
    from cgtalg.store.store import get_default_store

    for name, v in (("max_size", max_size), ("min_size", min_size)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise ArgumentError(f"{name}: expected a number of tokens (an int >= 0), got {v!r}")
    if min_size > max_size:
        raise ArgumentError(f"min_size {min_size} is above max_size {max_size}")
    r = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    if not isinstance(r, HeapRuleset):
        raise RulesetError(f"fill_heap_genera needs a heap game (an octal code, kayles, dawson, ...), "
                           f"got {getattr(r, 'name', r)!r}")
    st = store if hasattr(store, "put_positions_many") else get_default_store(store)
    key = store_key(r)
    done = computed = 0
    for n in range(min_size, max_size + 1):
        batch = [(p, " ".join(map(str, p)) or "0") for p in heap_positions(n)]
        for start in range(0, len(batch), BATCH):
            part = batch[start:start + BATCH]
            have = st.get_positions_many(key, [t for _p, t in part])
            items = [(key, t, "genus", heap_genus(r, p).to_dict()) for p, t in part if "genus" not in have[t]]
            st.put_positions_many(items)
            computed += len(items)
            done += len(part)
    return {"ruleset": key, "positions": done, "computed": computed, "stored_before": done - computed}
