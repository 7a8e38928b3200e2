"""The largest-heap referee's sets of kinds (cgtalg.referee.heap_rule_sets) against the walk over
every subset it replaced, and the rules it made checkable (0.337: 16–33 s of CPU where the walk
over the subsets of its 15 kinds did not end in 10 minutes).

The rules of 0.337, 4.52, 4.53, 4.7 and 4.71 (docs/quotient_frontier_stalls.md, sixteenth session): for
0.337, with weights ``w(h) = h − 4`` for even heaps ``h >= 4``, ``h − 5`` for odd ``h >= 5``, and
``w(1) = 0``, ``w(2) = w(3) = 2``, ``m`` the largest heap, ``G`` the others' nim-value and ``z = m
− Σ w`` over them, a position is P iff its key is listed. Every check below plays positions out
from the digits (tests/brute_octal.py)."""

from __future__ import annotations

import copy
import json
import random
from itertools import combinations
from pathlib import Path

import pytest

from brute_octal import MisereBrute, partitions
from cgtalg.referee import heap_rule
from cgtalg.referee.heap_rule_sets import feasible
from test_referee_heap_rule import _key

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "data" / "largest_heap_rules"


def _walk(kinds, ek, G, kg, kwmin, kwzero, moving, sums, accept, forced=(), allowed=None, need_moving=False):
    """The statement by brute force: every set ``S`` (``ek``, the forced kinds, others from
    ``allowed``) and every ``T ⊆ S`` of odd-count kinds, as the referee walked them before."""
    pool = [i for i in (kinds if allowed is None else allowed) if i != ek and i not in forced]
    base = (ek,) + tuple(i for i in forced if i != ek)
    for size in range(len(pool) + 1):
        for extra in combinations(pool, size):
            S = base + extra
            if need_moving and not any(moving[i] for i in S):
                continue
            for tsize in range(len(S) + 1):
                for T in combinations(S, tsize):
                    x = 0
                    for i in T:
                        x ^= kg[i]
                    if x != G:
                        continue
                    cost = (0 if ek in T else kwmin[ek]) + sum(kwmin[i] * (1 if i in T else 2) for i in S if i != ek)
                    res = set(sums(ek, ek not in T, ek in T))
                    for i in S:
                        if i != ek:
                            res = {(u + v) % 4 for u in res for v in sums(i, i in T, False)}
                    zero = all(kwzero[i] for i in S)
                    if any(accept(cost, r, zero) for r in res):
                        return True
    return False


def _instance(rng):
    """A random rule's kinds: nim-values, least weights, all-zero flags, moves, residue sums."""
    k = rng.randint(1, 6)
    kinds = list(range(k))
    kg = [rng.randint(0, 3) for _ in kinds]
    kwmin = [rng.randint(0, 5) for _ in kinds]
    kwzero = [kwmin[i] == 0 and rng.random() < 0.5 for i in kinds]
    moving = [rng.random() < 0.7 for _ in kinds]
    table = {(i, odd, z): frozenset(rng.sample(range(4), rng.randint(1, 4))) | ({0} if z else set())
             for i in kinds for odd in (True, False) for z in (True, False)}
    return k, kinds, kg, kwmin, kwzero, moving, lambda i, odd, z: table[(i, odd, z)]


def test_the_sets_of_kinds_agree_with_the_walk_over_every_subset():
    rng = random.Random(7)
    for trial in range(400):
        k, kinds, kg, kwmin, kwzero, moving, sums = _instance(rng)
        bound, target, zero_ok = rng.randint(0, 12), rng.choice([None, 0, 1, 2, 3]), rng.random() < 0.5

        def accept(cost, res, zero):
            if zero:
                return zero_ok
            return cost <= bound and (target is None or res == target)

        ek = rng.choice(kinds)
        G = rng.randint(0, 3)
        forced = tuple(rng.sample(kinds, rng.randint(0, min(2, k))))
        allowed = rng.sample(kinds, rng.randint(0, k)) if rng.random() < 0.5 else None
        need = rng.random() < 0.3
        args = (kinds, ek, G, kg, kwmin, kwzero, moving, sums, accept)
        want = _walk(*args, forced=forced, allowed=allowed, need_moving=need)
        got = feasible(*args, forced=forced, allowed=allowed, need_moving=need, p=4)
        assert got == want, (trial, args[1:7], forced, allowed, need, bound, target)


#: rules found by reading a verified quotient as a monoid (sixteenth session), and by the library's
#: own fit (``0.732`` … ``0.755``, ``4.16``, ``4.17``: cgtalg.ops.largest_heap, seventeenth session),
#: with their weights
NEW_RULES = {"0.337": {"exact": [1, 0, 1], "residue": [4, 5, 4, 5]},
             "0.732": {"exact": [1, 0, 1], "residue": [4, 1, 4, 1]},
             "0.733": {"exact": [1, 0, 1], "residue": [4, 1, 4, 1]},
             "0.736": {"exact": [1, 0, 1], "residue": [4, 1, 4, 1]},
             "0.737": {"exact": [1, 0, 1], "residue": [4, 1, 4, 1]},
             "0.754": {"exact": [1, 1, 3], "residue": [3, 3]},
             "0.755": {"exact": [1, 1, 3], "residue": [3, 3]},
             "4.16": {"exact": [1, 2, 1], "residue": [2, 5, 2, 5]},
             "4.17": {"exact": [1, 2, 1], "residue": [2, 5, 2, 5]},
             "4.52": {"exact": [1, 2, 1], "residue": [2, 5, 2, 5]},
             "4.53": {"exact": [1, 2, 1], "residue": [2, 5, 2, 5]},
             "4.7": {"exact": [1, 1, 3, 3, 3], "residue": [3, 3]},
             "4.71": {"exact": [1, 1, 3, 3, 3], "residue": [3, 3]}}


def _rule(code: str) -> dict:
    return json.loads((RULES / f"{code}.json").read_text())


@pytest.mark.parametrize("code", sorted(NEW_RULES))
def test_the_new_rules_agree_with_play_past_what_they_were_read_off(code):
    """Read off 30 tokens (34: ``4.16``, ``4.17``); every position of up to 8 tokens more played
    out from the digits, and R6's family: heap ``m0 + s·i`` beside ``base + j·block`` has the other
    outcome than heap ``m0 + s·j`` beside it, for ``i > j``."""
    doc = _rule(code)
    read = doc["read_off"]["max_tokens"]
    assert doc["weights"] == NEW_RULES[code] and read in (30, 34)
    brute = MisereBrute(code, read + 8)
    n = 0
    for tokens in range(1, read + 9):
        for pos in partitions(tokens, tokens):
            assert (list(_key(doc, brute, pos)) in doc["rule"]["P"]) == brute.is_p(pos), pos
            n += 1
    count = [1] + [0] * (read + 8)            # partitions of 0 .. read + 8, by the parts' sizes
    for part in range(1, read + 9):
        for t in range(part, read + 9):
            count[t] += count[t - part]
    assert n == sum(count[1:]) >= 146784      # 146 784: partitions of 1 .. 38
    fam = doc["family"]
    for j in range(3):
        y = fam["base"] + fam["block"] * j
        mine = brute.is_p([fam["heap"] + fam["step"] * j] + y)
        for i in range(j + 1, 4):
            assert brute.is_p([fam["heap"] + fam["step"] * i] + y) != mine, (i, j)


#: the rules the slow test below proves and flips: one of each weight vector (every published rule
#: is proved again by tests/test_quotient_census_published.py)
SLOW_RULES = ["0.337", "0.737", "0.755", "4.16", "4.52", "4.7"]


@pytest.mark.slow   # 15-50 s of CPU for each proof, and as much for each false rule
@pytest.mark.parametrize("code", SLOW_RULES)
def test_the_new_rules_are_proved_and_false_rules_beside_them_are_refused(code):
    doc = _rule(code)
    vd = heap_rule.check(doc, max_seconds=300)[0]       # the walk over every subset: not in 10 min
    assert vd.ok, str(vd)
    assert "misère quotient is infinite" in vd.claim + " ".join(vd.reasons)
    brute = MisereBrute(code, 24)
    keys = {}
    for tokens in range(1, 25):
        for pos in partitions(tokens, tokens):
            keys.setdefault(_key(doc, brute, pos), pos)
    for key in random.Random(3).sample(sorted(keys, key=str), 4):
        bad = copy.deepcopy(doc)
        if list(key) in bad["rule"]["P"]:
            bad["rule"]["P"].remove(list(key))
        else:
            bad["rule"]["P"].append(list(key))
        assert (list(_key(bad, brute, keys[key])) in bad["rule"]["P"]) != brute.is_p(keys[key])
        assert not heap_rule.check(bad, max_seconds=None)[0].ok, key


def test_the_tables_kept_across_views_give_the_walks_answers():
    """``feasible`` with a memo shared by many questions about one rule's kinds, as the referee's
    views share it (the table of states is built once per sets of kinds, then read for each
    ``G`` and each bound): every answer is the walk's."""
    rng = random.Random(11)
    reused = 0
    for instance in range(40):
        k, kinds, kg, kwmin, kwzero, moving, sums = _instance(rng)
        shapes = [(rng.choice(kinds), tuple(rng.sample(kinds, rng.randint(0, min(2, k)))),
                   rng.sample(kinds, rng.randint(0, k)) if rng.random() < 0.5 else None) for _ in range(3)]
        memo: dict = {}
        for question in range(30):
            ek, forced, allowed = rng.choice(shapes)
            bound, target, zero_ok = rng.randint(0, 12), rng.choice([None, 0, 1, 2, 3]), rng.random() < 0.5

            def accept(cost, res, zero):
                if zero:
                    return zero_ok
                return cost <= bound and (target is None or res == target)

            G, need = rng.randint(0, 3), rng.random() < 0.3
            args = (kinds, ek, G, kg, kwmin, kwzero, moving, sums, accept)
            size = len(memo)
            got = feasible(*args, forced=forced, allowed=allowed, need_moving=need, p=4, memo=memo)
            reused += len(memo) == size
            assert got == _walk(*args, forced=forced, allowed=allowed, need_moving=need), (instance, question)
        assert 1 <= len(memo) <= 3
    assert reused >= 40 * 27
