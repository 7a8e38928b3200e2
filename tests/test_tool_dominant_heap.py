"""tools/dominant_heap.py: c(M) of multisets of large heaps, read off a verified quotient.

Checked against misère outcomes and Grundy values computed by brute force from the octal
digits (tests/brute_octal.py: every position played out; no quotient), never against the
tool's own printout."""

from __future__ import annotations

import itertools
import json
from collections import defaultdict

import pytest
from brute_octal import MisereBrute, partitions
from conftest import load_tool


def _tool():
    return load_tool("dominant_heap")


CODE, N, SMALL, LARGE = "0.337", 16, 2, 8


def _brute_c(b: MisereBrute, M) -> tuple[str, int | None]:
    """c(M) from the definition: over every small part W (at most two heaps <= SMALL)."""
    smalls = [()] + [(a,) for a in range(1, SMALL + 1)]
    smalls += [(a, c) for a in range(1, SMALL + 1) for c in range(a, SMALL + 1)]
    by_value: dict[int, set[bool]] = defaultdict(set)
    for w in smalls:
        by_value[b.nim(M) ^ b.nim(w)].add(b.is_p(tuple(M) + w))
    if any(len(s) > 1 for s in by_value.values()):
        return "ambiguous", None
    ps = [v for v, s in by_value.items() if True in s]
    if len(ps) > 1:
        return "ambiguous", None
    return ("value", ps[0]) if ps else ("none", None)


@pytest.fixture(scope="module")
def measured():
    tool = _tool()
    dom = tool.dominance(CODE, N, SMALL, LARGE)
    return tool, dom


def test_grundy_values_and_c_of_every_multiset_match_brute_force(measured):
    tool, dom = measured
    b = MisereBrute(CODE, N)
    assert dom.g == b.g
    kinds = set()
    for k in (1, 2):
        for M in itertools.combinations_with_replacement(range(LARGE, N + 1), k):
            got = dom.c(M)
            assert got == _brute_c(b, M), M
            kinds.add(got[0])
    assert "value" in kinds        # the comparison saw real values, not only refusals


def test_the_table_of_c_by_dominance_is_the_brute_force_table(measured):
    tool, dom = measured
    b = MisereBrute(CODE, N)
    recs = tool.measure(dom, heaps=2, mod=2, cap=6)
    for rec in recs:
        k = rec["heaps"]
        cells: dict[tuple, set] = defaultdict(set)
        amb = 0
        for M in itertools.combinations_with_replacement(range(LARGE, N + 1), k):
            kind, v = _brute_c(b, M)
            if kind != "value":
                amb += 1
                continue
            d = max(-6, min(6, M[-1] - sum(M[:-1])))
            cells[(d,) + tuple(h % 2 for h in M)].add(v)
        assert rec["ambiguous"] + rec["none"] == amb
        want = {(row_d, key): vals for (row_d, *res), vals in cells.items()
                for key in ["".join(map(str, res))]}
        got = {(row["D"], key): set(v) for row in rec["table"] for key, v in row["c"].items()}
        assert got == want
        assert rec["conflicts"] == sorted([list(key) for key, vals in cells.items() if len(vals) > 1])
        if k > 1:
            assert rec["largest"] == _brute_largest(b, k)


def _brute_largest(b: MisereBrute, k: int) -> dict:
    """c(M) against c of its largest heap alone, from the brute-force c (the tool's record)."""
    follows = zero = None
    other = compared = 0
    for M in itertools.combinations_with_replacement(range(LARGE, N + 1), k):
        (kind, v), (top_kind, top) = _brute_c(b, M), _brute_c(b, M[-1:])
        if kind != "value" or top_kind != "value":
            continue
        compared += 1
        d = M[-1] - sum(M[:-1])
        if v == top != 0:
            follows = d if follows is None else min(follows, d)
        elif v == 0 != top:
            zero = d if zero is None else max(zero, d)
        elif v != top:
            other += 1
    return {"follows_from": follows, "zero_up_to": zero, "other": other, "compared": compared}


def test_a_wrong_quotient_is_seen(measured):
    """The measurement reads the quotient it is given: a P bit flipped changes some c(M)."""
    tool, dom = measured
    b = MisereBrute(CODE, N)
    P = [bool(p) for p in dom.P]
    m = dom.element((LARGE,))
    target = int(dom.table[m][dom.element(())])          # the element of the single heap LARGE
    P[target] = not P[target]
    bad = tool.Dominance(dom.table, P, dom.phi, dom.g, SMALL, LARGE)
    assert bad.c((LARGE,)) != _brute_c(b, (LARGE,))


def test_command_line_writes_json_and_refuses_bad_input(tmp_path, capsys):
    tool = _tool()
    out = tmp_path / "d.json"
    assert tool.main([CODE, "-n", str(N), "--small", str(SMALL), "--large", str(LARGE), "--heaps", "2",
                      "--json", str(out)]) == 0
    rec = json.loads(out.read_text())
    assert [r["heaps"] for r in rec["measured"]] == [1, 2]
    assert "large heaps >= 8" in capsys.readouterr().out
    assert all("largest_moves" not in r for r in rec["measured"])
    assert tool.main([CODE, "-n", str(N), "--small", str(SMALL), "--large", str(LARGE), "--heaps", "2",
                      "--moves", "--json", str(out)]) == 0
    rec = json.loads(out.read_text())
    assert [set(r["largest_moves"]) for r in rec["measured"]] == [{"keys", "uniform", "positions", "without",
                                                                  "by_kind"}] * 2
    assert "move on the largest heap winning" in capsys.readouterr().out
    assert tool.main(["0.3x7", "-n", "10", "--small", "2", "--large", "5"]) == 2
    assert "dominant_heap.py" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        tool.main([CODE, "-n", "10", "--small", "5", "--large", "5"])
    assert exc.value.code == 2


def test_budget_and_ctrl_c_end_with_their_exit_status(monkeypatch, capsys):
    tool = _tool()
    args = [CODE, "-n", str(N), "--small", str(SMALL), "--large", str(LARGE)]

    def stopped(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(tool, "measure", stopped)
    assert tool.main(args) == 130
    assert "interrupted" in capsys.readouterr().err
    from cgtalg.errors import ComputationLimitError

    def spent(*a, **k):
        raise ComputationLimitError("measuring did not finish within the time budget")

    monkeypatch.setattr(tool, "measure", spent)
    assert tool.main(args) == 2
    assert "dominant_heap.py: measuring did not finish within the time budget" in capsys.readouterr().err


def test_the_exact_table_matches_brute_force_outcomes(measured):
    """Keys and conflicts of the exact table, with every outcome played out by brute force
    (the small part's element only labels its key)."""
    tool, dom = measured
    b = MisereBrute(CODE, N)
    smalls = [()] + [(a,) for a in range(1, SMALL + 1)]
    smalls += [(a, c) for a in range(1, SMALL + 1) for c in range(a, SMALL + 1)]
    for k in (1, 2, 3):
        got = tool.exact_table(dom, k, mod=4, cap=5, cap_gap=3, learn_below=12)
        cells: dict[tuple, set] = defaultdict(set)
        learned: dict[tuple, set] = defaultdict(set)
        later = {}                       # one entry per (position's key, element): W's share it
        for M in itertools.combinations_with_replacement(range(LARGE, N + 1), k):
            d = max(-5, min(5, M[-1] - sum(M[:-1])))
            gaps = tuple(min(3, M[j + 1] - M[j]) for j in range(k - 1))
            for w in smalls:
                key, p = (d, gaps, tuple(h % 4 for h in M), dom.element(w)), b.is_p(M + w)
                cells[key].add(p)
                if M[-1] <= 12:
                    learned[key].add(p)
                else:
                    later[(M, key[3])] = (key, p)
        conflicts = sorted(key for key, v in cells.items() if len(v) > 1)
        assert got["keys"] == len(cells)
        assert got["conflicts"] == len(conflicts)
        assert got["first_conflicts"] == [[d, list(g), list(r), e] for d, g, r, e in conflicts[:5]]
        right = sum(1 for key, p in later.values() if learned.get(key) == {p})
        unseen = sum(1 for key, _ in later.values() if key not in learned)
        assert got["predicted"] == {"learn_below": 12, "right": right,
                                    "wrong": len(later) - right - unseen, "unseen": unseen}
    # small caps lose information: somewhere the table must conflict, and it does
    assert tool.exact_table(dom, 3, mod=1, cap=1, cap_gap=1)["conflicts"] > 0


def test_the_coarse_table_matches_brute_force_outcomes(measured):
    """The coarse key (D capped, the largest heap's residue, the nim-value of the other large
    heaps, the small part's element), per number of large heaps and over all of them at once,
    with outcomes and Grundy values played out by brute force."""
    tool, dom = measured
    b = MisereBrute(CODE, N)
    smalls = [()] + [(a,) for a in range(1, SMALL + 1)]
    smalls += [(a, c) for a in range(1, SMALL + 1) for c in range(a, SMALL + 1)]
    across_brute: dict[tuple, set] = defaultdict(set)
    across: dict = defaultdict(set)
    seen = []
    for k in (1, 2, 3):
        got = tool.exact_table(dom, k, mod=4, cap=5, cap_gap=3, learn_below=12, across=across)
        cells: dict[tuple, set] = defaultdict(set)
        learned: dict[tuple, set] = defaultdict(set)
        later = {}
        for M in itertools.combinations_with_replacement(range(LARGE, N + 1), k):
            d = max(-5, min(5, M[-1] - sum(M[:-1])))
            for w in smalls:
                key, p = (d, M[-1] % 4, b.nim(M[:-1]), dom.element(w)), b.is_p(M + w)
                cells[key].add(p)
                across_brute[key].add(p)
                if M[-1] <= 12:
                    learned[key].add(p)
                else:
                    later[(M, key[3])] = (key, p)
        conflicts = sorted(key for key, v in cells.items() if len(v) > 1)
        right = sum(1 for key, p in later.values() if learned.get(key) == {p})
        unseen = sum(1 for key, _ in later.values() if key not in learned)
        assert got["coarse"] == {"keys": len(cells), "conflicts": len(conflicts),
                                 "first_conflicts": [list(c) for c in conflicts[:5]],
                                 "predicted": {"learn_below": 12, "right": right,
                                               "wrong": len(later) - right - unseen, "unseen": unseen}}
        merged = sorted(key for key, v in across_brute.items() if len(v) > 1)
        assert got["coarse_up_to_k"] == {"keys": len(across_brute), "conflicts": len(merged),
                                         "first_conflicts": [list(c) for c in merged[:5]]}
        seen.append((got["coarse"]["conflicts"], got["coarse_up_to_k"]["conflicts"]))
    # both cases met: one large heap conflicts (D capped at 5 hides its size), two and three
    # heaps do not, and together (the number of heaps not a key) they do
    assert seen[0][0] > 0 and seen[1][0] == seen[2][0] == 0 and seen[2][1] > 0
    assert "coarse_up_to_k" not in tool.exact_table(dom, 2, mod=4, cap=5, cap_gap=3)


def test_where_the_n_positions_win_matches_brute_force(measured):
    """largest_heap_moves: the coarse keys whose N-positions share one winning move on the
    largest heap, and by which heaps the others win, from brute-force play with the options
    written from the digits (tests/brute_octal.py)."""
    from brute_octal import digit_options

    tool, dom = measured
    b = MisereBrute(CODE, N)
    parts = [()] + [(a,) for a in range(1, SMALL + 1)]
    parts += [(a, c) for a in range(1, SMALL + 1) for c in range(a, SMALL + 1)]
    met = set()
    for k in (1, 2, 3):
        won: dict[tuple, set] = {}
        count: dict[tuple, int] = defaultdict(int)
        kept = []
        for M in itertools.combinations_with_replacement(range(LARGE, N + 1), k):
            for W in parts:
                if b.is_p(M + W):
                    continue
                key = (max(-5, min(5, M[-1] - sum(M[:-1]))), M[-1] % 4, b.nim(M[:-1]), dom.element(W))
                count[key] += 1
                good = set()
                for o in digit_options(CODE, M[-1]):
                    if len(o) == 2 and min(o) >= LARGE:
                        continue
                    if b.is_p(tuple(sorted(M[:-1] + o + W))):
                        good.add((M[-1] - sum(o), min(o) if len(o) == 2 else None))
                won[key] = won[key] & good if key in won else good
                kept.append((key, M, W))
        by_kind: dict[str, int] = defaultdict(int)
        for key, M, W in kept:
            if won[key]:
                continue
            kinds = set()
            for j, h in enumerate(M):
                role = "largest" if j == k - 1 else "second" if j == k - 2 else "other"
                if any(b.is_p(tuple(sorted(M[:j] + M[j + 1:] + o + W))) for o in digit_options(CODE, h)):
                    kinds.add(role)
            for j, h in enumerate(W):
                if any(b.is_p(tuple(sorted(M + W[:j] + W[j + 1:] + o))) for o in digit_options(CODE, h)):
                    kinds.add("small")
            by_kind["+".join(sorted(kinds)) or "none"] += 1
        want = {"keys": len(count), "uniform": sum(1 for key in count if won[key]),
                "positions": sum(count.values()), "without": sum(by_kind.values()), "by_kind": dict(by_kind)}
        assert tool.largest_heap_moves(dom, k, mod=4, cap=5) == want
        met.update({"uniform" if want["uniform"] else "", "without" if want["without"] else ""})
    assert met >= {"uniform", "without"}           # both kinds of key are met


def test_grundy_period():
    tool = _tool()
    assert tool.grundy_period([5, 9] + [0, 1, 2, 3] * 6, 2) == 4
    assert tool.grundy_period([0, 1, 1, 2, 2, 2, 1, 1, 2, 2, 2, 1, 1, 2, 2, 2, 1, 1], 2) == 5
    assert tool.grundy_period(list(range(20)), 0) == 20


def test_residue_period_from_brute_force_outcomes(measured):
    """The default residues: the least multiple of the Grundy period with which the pairs'
    outcomes (beside every small part) repeat, recomputed from brute-force play."""
    tool, dom = measured
    b = MisereBrute(CODE, N)
    smalls = [()] + [(a,) for a in range(1, SMALL + 1)]
    smalls += [(a, c) for a in range(1, SMALL + 1) for c in range(a, SMALL + 1)]
    base = tool.grundy_period(b.g, LARGE)
    cap_gap = 2
    want = base
    for p in range(base, (N - LARGE) // 3 + 1, base):
        if all(b.is_p((h, h + gap) + w) == b.is_p((h + p, h + p + gap) + w)
               for gap in range(cap_gap + 1) for h in range(LARGE, N - p - gap + 1) for w in smalls):
            want = p
            break
    assert tool.residue_period(dom, cap_gap) == want


def test_a_sample_is_seeded_distinct_and_only_taken_when_needed(measured):
    tool, dom = measured
    every = list(tool.multisets(dom, 3))
    assert len(every) == tool._count(dom, 3) == len(set(every))          # all of them, once
    assert list(tool.multisets(dom, 3, sample=len(every))) == every       # no sample needed
    some = list(tool.multisets(dom, 3, sample=40))
    assert len(some) == len(set(some)) == 40 and set(some) <= set(every)
    assert some == list(tool.multisets(dom, 3, sample=40))                # seeded: the same again
    assert tool._count(dom, 2) <= 50 < tool._count(dom, 3)                # 45 pairs, 165 triples
    recs = tool.measure(dom, heaps=3, mod=4, cap=5, cap_gap=3, sample=50)
    assert [r["sampled"] for r in recs] == [False, False, True]
    assert recs[2]["multisets"] == 50 and recs[2]["exact"]["positions"] == 50 * len({e for e, _ in dom.smalls})


def _clamp(x: int, cap: int) -> int:
    return max(-cap, min(cap, x))


def test_every_heap_counted_matches_brute_force(measured):
    """The coarse key with every heap counted in D: keys, conflicts and the band, from outcomes
    played out, over the positions the tool reads (all of one to three heaps, a seeded sample
    of four)."""
    tool, dom = measured
    b = MisereBrute(CODE, N)
    for heaps, sample in ((3, None), (4, 300)):
        got = tool.all_heaps_table(dom, 2, 4, heaps, sample)
        cells: dict[tuple, set[bool]] = defaultdict(set)
        counted: dict[tuple, set[bool]] = defaultdict(set)
        read = 0
        for X in tool.all_heap_positions(dom, heaps, sample):
            if X[-1] < LARGE:
                continue
            key = (_clamp(X[-1] - sum(X[:-1]), 4), X[-1] % 2, b.nim(X[:-1]))
            cells[key].add(b.is_p(X))
            counted[key + (len(X),)].add(b.is_p(X))
            read += 1
        bad = sorted(k for k, v in cells.items() if len(v) > 1)
        assert (got["positions"], got["keys"], got["conflicts"]) == (read, len(cells), len(bad))
        assert got["with_count"] == sum(1 for v in counted.values() if len(v) > 1)
        assert got["band"] == ([bad[0][0], max(k[0] for k in bad)] if bad else None)
        for key, p_pos, n_pos in got["examples"]:
            assert b.is_p(tuple(p_pos)) and not b.is_p(tuple(n_pos))
            assert _clamp(p_pos[-1] - sum(p_pos[:-1]), 4) == key[0] == _clamp(n_pos[-1] - sum(n_pos[:-1]), 4)
    assert bad, "0.337 to heap 16 has conflicting keys once every heap counts (the measured range)"
    assert {len(X) for X in tool.all_heap_positions(dom, 4, 300)} == {1, 2, 3, 4}


def test_the_whole_small_part_and_the_small_part_counted_in_d_match_brute_force(measured):
    """Small parts of any number of heaps: one per (element, Grundy value, tokens), every such
    triple reached (all multisets of heaps <= SMALL up to the token cap, enumerated here); the
    coarse table with W counted in D keyed as the brute force keys it."""
    tool, dom = measured
    b = MisereBrute(CODE, N)
    cap_tokens = 9
    want = set()
    for k in range(cap_tokens + 1):
        for W in itertools.combinations_with_replacement(range(1, SMALL + 1), k):
            if sum(W) <= cap_tokens:
                want.add((dom.element(W), b.nim(W), sum(W)))
    parts = tool.whole_small_parts(dom, cap_tokens)
    assert {(dom.element(W), b.nim(W), sum(W)) for W in parts} == want and len(parts) == len(want)
    assert all(max(W, default=1) <= SMALL for W in parts)
    cells: dict[tuple, set[bool]] = defaultdict(set)
    for M in itertools.combinations_with_replacement(range(LARGE, N + 1), 2):
        for W in parts:
            key = (_clamp(M[-1] - M[0] - sum(W), 4), M[-1] % 2, b.nim(M[:-1]), dom.element(W), b.nim(W))
            cells[key].add(b.is_p(M + W))
    got = tool.coarse_with_small(dom, 2, 2, 4, parts)
    assert (got["keys"], got["conflicts"]) == (len(cells), sum(1 for v in cells.values() if len(v) > 1))
    whole = tool.Dominance(dom.table, dom.P, dom.phi, dom.g, SMALL, LARGE, whole_small=True)
    reach = {(dom.element(W), b.nim(W)) for k in range(8) for W in
             itertools.combinations_with_replacement(range(1, SMALL + 1), k)}
    assert whole.smalls == reach


def test_the_class_count_table_matches_brute_force(measured):
    """The key with every heap counted and the other heaps by class counts: the key of each
    position written out here from its heaps, the outcomes played out; keys, conflicts and the
    prediction read off the smaller largest heaps, over the positions the tool reads (all of one
    to three heaps, sampled ones of four, many small heaps)."""
    tool, dom = measured
    b = MisereBrute(CODE, N)

    def key(X):
        counts = [0] * (3 + 1 + 2)
        for h in X[:-1]:
            counts[h if h <= 3 else 4 + h % 2] += 1
        top = X[-1] if X[-1] < 5 else 5 + X[-1] % 2
        return (_clamp(X[-1] - sum(X[:-1]), 4), top) + tuple((min(c, 2), c % 2) for c in counts[1:])
    positions = list(tool.all_heap_positions(dom, 4, 200, 30))
    assert any(len(X) >= 10 and max(X[:-1]) <= 8 for X in positions)        # many small heaps read
    cells: dict[tuple, set[bool]] = defaultdict(set)
    learned: dict[tuple, set[bool]] = defaultdict(set)
    later = []
    for X in positions:
        assert tool.class_count_key(dom, X, 2, 4, 3, 2, 5) == key(X), X
        cells[key(X)].add(b.is_p(X))
        (learned[key(X)].add(b.is_p(X)) if X[-1] <= 12 else later.append((key(X), b.is_p(X))))
    got = tool.class_count_table(dom, 2, 4, 3, 2, 5, 4, 200, 30, learn_below=12)
    bad = [k for k, v in cells.items() if len(v) > 1]
    assert (got["positions"], got["keys"], got["conflicts"]) == (len(positions), len(cells), len(bad))
    right = sum(1 for k, p in later if learned.get(k) == {p})
    unseen = sum(1 for k, _ in later if k not in learned)
    assert got["predicted"] == {"learn_below": 12, "right": right, "wrong": len(later) - right - unseen,
                                "unseen": unseen}
    assert right and got["keys"] > 50


def test_the_weighted_table_matches_brute_force(measured):
    """z = max − Σ (h − w[h mod 2]) over the other heaps, the largest heap's class and the
    others' nim-value: each key written out here, outcomes played out."""
    tool, dom = measured
    b = MisereBrute(CODE, N)
    positions = list(tool.all_heap_positions(dom, 4, 200, 20))
    cells: dict[tuple, set[bool]] = defaultdict(set)
    for X in positions:
        z = X[-1] - sum(h - (1 if h % 2 else 0) for h in X[:-1])
        key = (_clamp(z, 5), X[-1] if X[-1] < 4 else 4 + X[-1] % 2, b.nim(X[:-1]))
        assert tool.weighted_key(dom, X, 2, 5, (0, 1)) == key, X
        cells[key].add(b.is_p(X))
    got = tool.weighted_table(dom, 2, 5, (0, 1), 4, 200, 20, learn_below=12)
    assert (got["positions"], got["keys"]) == (len(positions), len(cells))
    assert got["conflicts"] == sum(1 for v in cells.values() if len(v) > 1)
    for (z, top, v), outs in cells.items():
        assert got["table"][f"{top},{v}"][z] == ("?" if len(outs) > 1 else "P" if True in outs else "N")
    assert got["predicted"]["right"] > 0


def test_weights_of_the_wrong_length_are_refused(capsys):
    tool = _tool()
    assert tool.main(["0.337", "-n", "16", "--small", "2", "--large", "8", "--mod", "2", "--weights", "0,1,0"]) == 2
    assert "--weights needs 2 numbers" in capsys.readouterr().err


@pytest.mark.parametrize("code", ["0.734", "0.735"])
def test_the_documented_rule_of_0734_holds_on_every_small_position(code):
    """The rule docs/quotient_frontier_stalls.md ("0.734 in three numbers") reads off Q_58 with
    tools/dominant_heap.py --weights 0,1,0,1, checked here on every position of at most 24 tokens
    played out from the digits (tests/brute_octal.py; no quotient): with m the largest heap, G the
    nim-value of the others and z = m − Σ 2⌊h/2⌋ over the others, m odd (>= 3) is P exactly when
    G = g(m) and z <= 1 or G = g(m) ⊕ 2 and z >= 7, m even exactly when G = g(m), m = 1 exactly
    when the number of heaps is odd. (Checked to 40 tokens, 215 308 positions, when it was found.)"""
    b = MisereBrute(code, 24)
    assert b.g[:12] == [0, 1, 2, 3] * 3

    def rule(X):
        if not X:
            return False
        m, rest = X[-1], X[:-1]
        G = b.nim(rest)
        if m == 1:
            return len(X) % 2 == 1
        if m % 2 == 0:
            return G == b.g[m]
        z = m - sum(2 * (h // 2) for h in rest)
        return (G == b.g[m] and z <= 1) or (G == b.g[m] ^ 2 and z >= 7)

    checked = dominant = 0
    for total in range(25):
        for part in partitions(total, total):
            X = tuple(sorted(part))
            assert b.is_p(X) == rule(X), X
            checked += 1
            if X and X[-1] % 2 and b.nim(X[:-1]) == b.g[X[-1]] ^ 2 and X[-1] - sum(2 * (h // 2) for h in X[:-1]) >= 7:
                dominant += 1
    assert checked > 5000 and dominant > 100       # the misère swap is exercised, not only normal play


@pytest.mark.parametrize("bad", [["--class-counts", "3,4"], ["--class-counts", "3,4,4,-1"], ["--weights", "a,b"],
                                 ["--d-small", "-2"]])
def test_malformed_measurement_options_are_refused(bad, capsys):
    tool = _tool()
    with pytest.raises(SystemExit) as exc:
        tool.main(["0.337", "-n", "16", "--small", "2", "--large", "8"] + bad)
    assert exc.value.code == 2 and bad[0] in capsys.readouterr().err
