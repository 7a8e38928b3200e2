"""Small heaps' Grundy values in plain Python (:mod:`cgtalg.rulesets.heaps.small_grundy`, issue 23
part 4: light commands without numpy) against the engine (numpy and the numba kernels), a
brute force written here, and published values.

- every octal code of up to three digits (``0.d1d2d3``; shorter codes are those with trailing
  zero digits), the first 100 values, the kernel the engine names and its rare/common split;
  a handful of games (hexadecimal, infinite codes, Grundy's game, subtraction) up to
  :data:`~cgtalg.rulesets.heaps.small_grundy.SMALL_LIMIT`;
- a brute force over whole positions (multisets of heaps, the mex of their options' values;
  no Sprague-Grundy XOR), from the codes' digits as Winning Ways ch. 4 defines them;
- Kayles (0.77): the values of Winning Ways ch. 4 (Guy & Smith 1956), checked against a
  computation from the rules here rather than trusted;
- the winning moves, the CLI answers (``outcome``, ``grundy``, ``period`` read from a store)
  with and without the plain Python path.
"""

from __future__ import annotations

import contextlib
import functools
import io
import itertools
import json

import pytest

from cgtalg.rulesets.heaps import grundy_engine as GE
from cgtalg.rulesets.heaps import small_grundy as SG
from cgtalg.rulesets.heaps.games import parse_heap_ruleset
from cgtalg.rulesets.heaps.octal import TakeAndBreak


def _engine_values(ruleset, n: int) -> list[int]:
    eng = GE.GrundyEngine(ruleset, "auto")
    eng.extend(n, progress=False)
    return eng.G[:n].tolist()


def test_every_three_digit_octal_code_agrees_with_the_engine():
    """Values, kernel name and the rare/common split the engine chooses on the same values
    (as after reading them from a store), for all 512 codes 0.d1d2d3, n = 100."""
    n = 100
    for ds in itertools.product(range(8), repeat=3):
        code = "0." + "".join(map(str, ds))
        small = SG.small_grundy_values(TakeAndBreak(code), n)
        eng = GE.GrundyEngine(TakeAndBreak(code), "auto")
        eng.extend(n, progress=False)
        assert small == eng.G[:n].tolist(), code
        assert SG.small_mode(TakeAndBreak(code)) == eng.mode, code
        if eng.mode == "sparse":
            loaded = GE.GrundyEngine(TakeAndBreak(code), "auto")
            loaded.load_prefix(eng.G[:n])
            split, mine = loaded.sparse_split(), SG.small_sparse_split(TakeAndBreak(code), small)
            assert (split.describe(), int(loaded.nrare)) == (mine.describe(), mine.rare), code


@pytest.mark.parametrize("spec", ["0.77", "0.07", "0.137", "0.6", "4.07", "0.123", "0.[3]", "0x0.F", "grundy",
                                  "S(1,3,4)", "0.4", "allbut(1,2)", "0.4[37]", "officers"])
def test_small_values_agree_with_the_engine_up_to_the_limit(spec):
    n = SG.SMALL_LIMIT
    assert SG.small_grundy_values(parse_heap_ruleset(spec), n) == _engine_values(parse_heap_ruleset(spec), n)


def test_small_ok_only_for_games_without_user_code():
    from cgtalg.rulesets.heaps.games import heap_ruleset

    assert SG.small_ok(TakeAndBreak("0.77"), SG.SMALL_LIMIT)
    assert not SG.small_ok(TakeAndBreak("0.77"), SG.SMALL_LIMIT + 1)
    assert not SG.small_ok(heap_ruleset("nim-ish", lambda n: [(k,) for k in range(n)]), 10)
    with pytest.raises(ValueError, match="plain Python"):
        SG.small_grundy_values(TakeAndBreak("0.77"), SG.SMALL_LIMIT + 1)


# -- a brute force over whole positions ---------------------------------------------------


def _code_moves(digits: dict[int, int], heaps: tuple[int, ...]) -> set[tuple[int, ...]]:
    """Winning Ways ch. 4: digit d_t allows removing t tokens from a heap leaving no heap
    (bit 1, only when t is the whole heap), one heap (bit 2), two (bit 4) or three (bit 8)
    nonempty heaps."""
    out = set()
    for i, h in enumerate(heaps):
        rest = heaps[:i] + heaps[i + 1:]
        for t, d in digits.items():
            m = h - t
            if m < 0:
                continue
            leaves = []
            if m == 0 and d & 1:
                leaves.append(())
            if m >= 1 and d & 2:
                leaves.append((m,))
            if d & 4:
                leaves += [(a, m - a) for a in range(1, m)]
            if d & 8:
                leaves += [(a, b, m - a - b) for a in range(1, m) for b in range(1, m - a)]
            for parts in leaves:
                out.add(tuple(sorted(rest + parts)))
    return out


def _grundys_game_moves(heaps: tuple[int, ...]) -> set[tuple[int, ...]]:
    """Grundy's game (Winning Ways ch. 4): split one heap into two unequal nonempty heaps."""
    return {tuple(sorted(heaps[:i] + heaps[i + 1:] + (a, h - a)))
            for i, h in enumerate(heaps) for a in range(1, h) if 2 * a != h}


def _brute_values(moves, top: int) -> list[int]:
    @functools.lru_cache(maxsize=None)
    def value(pos: tuple[int, ...]) -> int:
        seen = {value(q) for q in moves(pos)}
        return min(set(range(len(seen) + 1)) - seen)

    return [value((n,) if n else ()) for n in range(top)]


BRUTE = {  # spec -> digits d_t (t: removal count)
    "0.77": {1: 7, 2: 7}, "0.07": {2: 7}, "0.137": {1: 1, 2: 3, 3: 7}, "0.6": {1: 6}, "4.07": {0: 4, 2: 7},
    "0.123": {1: 1, 2: 2, 3: 3}, "0x0.F": {1: 15}, "0.4": {1: 4},
}


@pytest.mark.parametrize("spec", sorted(BRUTE) + ["grundy"])
def test_small_values_equal_a_brute_force_over_positions(spec):
    top = 11 if spec != "0x0.F" else 9
    moves = _grundys_game_moves if spec == "grundy" else functools.partial(_code_moves, BRUTE[spec])
    assert SG.small_grundy_values(parse_heap_ruleset(spec), top) == _brute_values(moves, top)


#: Kayles (0.77), G(0..83): Winning Ways ch. 4 (Guy & Smith 1956), period 12 from heap 71
KAYLES_WW = [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4, 1, 2, 8, 5, 4, 7, 2, 1, 8, 6,
             7, 4, 1, 2, 3, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 4, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8,
             6, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7]


def test_kayles_values_of_winning_ways():
    """The published list, first checked against the rules (a row of pins: knock down one
    pin or two adjacent ones, leaving the pins left and right of them; Sprague-Grundy), then
    against the plain Python path."""
    G: list[int] = []
    for n in range(len(KAYLES_WW)):
        seen = {G[left] ^ G[n - take - left] for take in (1, 2) if n >= take for left in range(n - take + 1)}
        G.append(min(set(range(len(seen) + 1)) - seen))
    assert G == KAYLES_WW
    assert SG.small_grundy_values(TakeAndBreak("0.77"), len(KAYLES_WW)) == KAYLES_WW
    assert all(KAYLES_WW[n] == KAYLES_WW[n + 12] for n in range(71, len(KAYLES_WW) - 12))


# -- moves and the CLI, with and without the plain Python path ----------------------------


@pytest.mark.parametrize("spec, heaps", [("0.77", [5, 9, 11, 30]), ("0.07", [3, 4, 5, 17]), ("0.137", [6, 9, 20]),
                                         ("4.07", [7, 12]), ("0x0.F", [5, 9, 13]), ("grundy", [7, 20, 33]),
                                         ("S(1,3,4)", [5, 8, 2]), ("0.[3]", [5, 9]), ("0.123", [9, 8, 5, 3])])
def test_winning_moves_as_the_engine_lists_them(spec, heaps, monkeypatch):
    light = parse_heap_ruleset(spec)
    small = light.winning_moves(heaps)
    assert not light._engines  # (no engine: the plain Python path answered)
    monkeypatch.setattr(SG, "SMALL_LIMIT", 0)  # the engine's path
    engine = parse_heap_ruleset(spec)
    assert engine.winning_moves(heaps) == small
    assert engine.__dict__.get("_engines")  # (the engine did answer)
    # a move to a P-position: the nim-sum after it is 0
    for m in small:
        rest = heaps[:m.heap_index] + heaps[m.heap_index + 1:]
        x = 0
        for h in [*rest, *m.parts]:
            x ^= engine.grundy_value(h)
        assert x == 0, m


def _main(args: list[str]) -> dict:
    from cgtalg.cli.main import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main([*args, "--json"]) == 0
    res = json.loads(out.getvalue())
    res.pop("seconds", None)
    return res


@pytest.mark.parametrize("args", [["outcome", "0.77", "5", "9", "11", "30"], ["outcome", "0.07", "3", "4", "5", "17"],
                                  ["outcome", "grundy", "7", "20", "33"], ["grundy", "0.77", "-n", "100"],
                                  ["grundy", "0.6", "-n", "512"], ["grundy", "grundy", "-n", "50"],
                                  ["grundy", "0.07", "-n", "100", "--method", "naive"], ["period", "0.07"]])
def test_cli_answers_as_without_the_plain_python_path(args, tmp_path, monkeypatch):
    """On a store: each command twice (the second reads what the first stored) with the plain
    Python path, then twice without it; the same answers."""
    monkeypatch.setenv("CGTALG_STORE", str(tmp_path / "light.sqlite"))
    light = [_main(args), _main(args)]
    monkeypatch.setattr(SG, "SMALL_LIMIT", 0)
    monkeypatch.setenv("CGTALG_STORE", str(tmp_path / "engine.sqlite"))
    engine = [_main(args), _main(args)]
    assert light[1] == engine[1], args  # warm: read from the store
    if args[0] != "grundy":
        assert light[0] == engine[0], args
    else:  # cold, the engine's split is the one its computation kept; the values are the same
        assert light[0]["values"] == engine[0]["values"] and light[0]["method"] == engine[0]["method"]


def test_small_recheck_of_a_stored_period_finds_wrong_claims():
    from cgtalg.rulesets.heaps import octal_periodicity as OP

    r = TakeAndBreak("0.07")  # period 34, last exceptional value G(52) (Winning Ways ch. 4)
    cert = r.certificate()
    assert OP._small_recheck(r, cert, 34, 53) is None
    assert "not the least period: 34" in OP._small_recheck(r, cert, 68, 53)
    assert "does not hold" in OP._small_recheck(r, cert, 34, 40)
    assert "does not hold" in OP._small_recheck(r, cert, 17, 53)
