"""tools/largest_heap_depth.py: keys holding more of the largest heaps, measured against
brute-force misère play from the digits (tests/brute_octal.py; no cgtalg engine)."""

from __future__ import annotations

from collections import defaultdict

from brute_octal import MisereBrute, partitions
from conftest import load_tool


def _tool():
    return load_tool("largest_heap_depth")


def test_the_measure_agrees_with_brute_force_play():
    """On every position of at most 22 tokens of 0.534 (keys read off 18), the tool's counts
    are those of a plain dictionary over brute-force outcomes, depth by depth."""
    tool = _tool()
    res = tool.run("0.534", 22, 18, [0, 1, 2], fit_tokens=18)
    brute = MisereBrute("0.534", 22)
    rows = [(hs, brute.is_p(hs)) for n in range(1, 23) for hs in partitions(n)]
    assert res["positions"] == len(rows)
    keys = tool.DepthKeys(lambda h: brute.g[h], res["grundy"]["period"], res["fit"]["exact"],
                          res["fit"]["residue"], res["gap_cap"])
    assert res["grundy"]["period"] == 4 and [brute.g[h] for h in range(1, 9)] == [1, 1, 2, 2, 1, 1, 2, 2]
    for got in res["depths"]:
        d = got["depth"]
        seen = defaultdict(set)
        for hs, p in rows:
            if sum(hs) <= 18:
                seen[keys.key(hs, d)].add(p)
        right = wrong = unseen = 0
        for hs, p in rows:
            if sum(hs) > 18:
                outs = seen.get(keys.key(hs, d), set())
                if len(outs) != 1:
                    unseen += 1
                elif p in outs:
                    right += 1
                else:
                    wrong += 1
        assert (got["keys"], got["conflicting"], got["right"], got["wrong"], got["unseen"]) == (
            len(seen), sum(len(v) > 1 for v in seen.values()), right, wrong, unseen)


def test_the_documented_conflict_is_real():
    """docs/quotient_frontier_stalls.md (nineteenth session): with 0.534's weights (1, 2, 1, then
    2, 5, 6, 5 by h mod 4) 18 + 8 + 8 + 1 and 18 + 8 + 3 + 3 + 3 + 1 share the depth-1 key
    (largest heap, G, z, the second heap and its gap) and not their outcome; the third heap
    tells them apart."""
    tool = _tool()
    brute = MisereBrute("0.534", 36)
    keys = tool.DepthKeys(lambda h: brute.g[h], 4, [1, 2, 1], [2, 5, 6, 5])
    a, b = (18, 8, 8, 1), (18, 8, 3, 3, 3, 1)
    assert keys.key(a, 1) == keys.key(b, 1) and keys.key(a, 2) != keys.key(b, 2)
    assert brute.is_p(b) and not brute.is_p(a)
