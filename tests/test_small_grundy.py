"""The Grundy engine's plain-Python mode (``backend="python"``,
:mod:`cgtalg.rulesets.heaps.small_grundy`; issue 23 part 4: light commands without numpy;
issue 33: one engine) against the numba mode, a mex written here from the definition, a
brute force over whole positions, and published values.

- every octal code of up to three digits (``0.d1d2d3``; shorter codes are those with trailing
  zero digits), hexadecimal codes, codes with a digit ``d0``, subtraction and all-but
  subtraction games, Grundy's game: the values of both backends and of the definition (the
  mex of the XORs of the values of the heaps each option leaves, Winning Ways ch. 4), the
  mode the engine names and its rare/common split;
- a brute force over whole positions (multisets of heaps, the mex of their options' values;
  no Sprague-Grundy XOR), from the codes' digits as Winning Ways ch. 4 defines them;
- Kayles (0.77): the values of Winning Ways ch. 4 (Guy & Smith 1956), checked against a
  computation from the rules here rather than trusted;
- the winning moves, the CLI answers (``outcome``, ``grundy``, ``period`` read from a store)
  with and without the plain Python path, and the store shared by both backends.
"""

from __future__ import annotations

import contextlib
import functools
import io
import itertools
import json
import random

import pytest

from cgtalg.rulesets.heaps import grundy_engine as GE
from cgtalg.rulesets.heaps import grundy_kernels as K
from cgtalg.rulesets.heaps import small_grundy as SG
from cgtalg.rulesets.heaps.games import parse_heap_ruleset
from cgtalg.rulesets.heaps.lazy_jit import python_function
from cgtalg.rulesets.heaps.octal import TakeAndBreak


def _engine_values(ruleset, n: int) -> list[int]:
    eng = GE.GrundyEngine(ruleset, "auto")
    eng.extend(n, progress=False)
    return eng.G[:n].tolist()


def _python_values(ruleset, n: int, method: str = "auto") -> list[int]:
    return GE.grundy_sequence(ruleset, n, method, backend="python")


def _definition_values(digits: dict[int, int], n: int) -> list[int]:
    """G(0..n-1) of the take-and-break code with digits ``d_t`` from the definition (Winning
    Ways ch. 4): removing ``t`` from a heap of ``h`` leaves no heap (bit 1, ``t == h``), one
    nonempty heap (bit 2), or two (bit 4) or three (bit 8) nonempty heaps, in every way (ordered
    parts: each split met more than once); ``G(h)`` is the mex of the XORs of the values of
    the heaps left."""
    G: list[int] = []
    for h in range(n):
        seen = set()
        for t, d in digits.items():
            m = h - t
            if m < 0:
                continue
            if m == 0 and d & 1:
                seen.add(0)
            if m >= 1 and d & 2:
                seen.add(G[m])
            if d & 4:
                seen.update(G[a] ^ G[m - a] for a in range(1, m))
            if d & 8:
                seen.update(G[a] ^ G[b] ^ G[m - a - b] for a in range(1, m) for b in range(1, m - a))
        v = 0
        while v in seen:
            v += 1
        G.append(v)
    return G


def test_every_three_digit_octal_code_both_backends_and_the_definition():
    """Values (n = 100; the definition n = 60), mode and the rare/common split the engine
    chooses on the same values (as after reading them from a store), all 512 codes 0.d1d2d3."""
    n = 100
    for ds in itertools.product(range(8), repeat=3):
        code = "0." + "".join(map(str, ds))
        py = GE.GrundyEngine(TakeAndBreak(code), "auto", backend="python")
        py.extend(n, progress=False)
        eng = GE.GrundyEngine(TakeAndBreak(code), "auto")
        eng.extend(n, progress=False)
        assert isinstance(py, SG.PythonGrundyEngine) and py.values() == eng.G[:n].tolist(), code
        assert py.values(60) == _definition_values({t + 1: d for t, d in enumerate(ds)}, 60), code
        assert py.mode == eng.mode, code
        if eng.mode == "sparse":
            loaded = GE.GrundyEngine(TakeAndBreak(code), "auto")
            loaded.load_prefix(eng.G[:n])
            split, mine = loaded.sparse_split(), py.sparse_split()
            assert (split.describe(), int(loaded.nrare)) == (mine.describe(), py.nrare), code


def _random_digits(rng: random.Random, top: int, ndigits: int, d0: bool) -> dict[int, int]:
    digits = {t: rng.randrange(top) for t in range(1, ndigits + 1)}
    if d0:
        digits[0] = rng.choice([4, 8, 12]) if top == 16 else 4
    return digits


def _code_text(digits: dict[int, int], hexa: bool) -> str:
    top = max(digits)
    body = "".join(format(digits.get(t, 0), "X" if hexa else "o") for t in range(1, top + 1))
    return ("0x" if hexa else "") + format(digits.get(0, 0), "X" if hexa else "o") + "." + body


@pytest.mark.parametrize("hexa", [False, True])
def test_random_codes_with_d0_and_hexadecimal_digits(hexa):
    """Codes of 1-3 digits (octal with a digit d0; hexadecimal, three-heap splits included):
    both backends and the definition, n = 40, for both methods."""
    rng = random.Random(33 + hexa)
    for _ in range(40):
        digits = _random_digits(rng, 16 if hexa else 8, rng.randint(1, 3), d0=not hexa or rng.random() < 0.3)
        code = _code_text(digits, hexa)
        expect = _definition_values(digits, 40)
        for method in ("auto", "naive"):
            assert _python_values(TakeAndBreak(code), 40, method) == expect, (code, method)
        assert _engine_values(TakeAndBreak(code), 40) == expect, code


def test_subtraction_games_both_backends_and_the_definition():
    rng = random.Random(7)
    for _ in range(30):
        S = sorted(rng.sample(range(1, 10), rng.randint(1, 4)))
        for spec, allowed in ((f"S({','.join(map(str, S))})", set(S)), (f"allbut({','.join(map(str, S))})", None)):
            n = 80
            expect = []
            for h in range(n):
                seen = {expect[h - s] for s in range(1, h + 1) if (s in S) == (allowed is not None)}
                expect.append(min(set(range(len(seen) + 1)) - seen))
            assert _python_values(parse_heap_ruleset(spec), n) == expect, spec
            assert _engine_values(parse_heap_ruleset(spec), n) == expect, spec


@pytest.mark.parametrize("spec", ["0.77", "0.07", "0.137", "0.6", "4.07", "0.123", "0.[3]", "0x0.F", "grundy",
                                  "S(1,3,4)", "0.4", "allbut(1,2)", "0.4[37]", "officers"])
def test_python_values_agree_with_the_engine_up_to_the_limit(spec):
    n = SG.SMALL_LIMIT
    assert _python_values(parse_heap_ruleset(spec), n) == _engine_values(parse_heap_ruleset(spec), n)


def test_python_mode_runs_the_kernels_own_code():
    """No second implementation: the plain-Python mode calls the naive kernel's function (the
    code numba compiles), bound to the other kernels' Python functions."""
    naive = python_function(K.naive_kernel)
    assert naive.__code__ is K.naive_kernel.py_func.__code__
    assert naive.__globals__["_mark_take_moves"].__code__ is K._mark_take_moves.py_func.__code__
    calls = []
    eng = GE.GrundyEngine(TakeAndBreak("0.77"), backend="python")
    eng._kernel = lambda k: (calls.append(k.py_func.__name__), python_function(k))[1]
    eng.extend(30, progress=False)
    assert "naive_kernel" in calls and eng.values(13) == [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4]


def test_small_ok_only_for_games_without_user_code():
    from cgtalg.rulesets.heaps.games import heap_ruleset

    assert SG.small_ok(TakeAndBreak("0.77"), SG.SMALL_LIMIT)
    assert not SG.small_ok(TakeAndBreak("0.77"), SG.SMALL_LIMIT + 1)
    nimish = heap_ruleset("nim-ish", lambda n: [(k,) for k in range(n)])
    assert not SG.small_ok(nimish, 10)
    # the python backend itself takes any game and any n: Nim's G(n) = n (the Python mex)
    assert _python_values(nimish, 600) == list(range(600))
    with pytest.raises(Exception, match="backend"):
        GE.GrundyEngine(TakeAndBreak("0.77"), backend="fortran")


def test_both_backends_read_what_the_other_stored(tmp_path):
    from cgtalg.store import open_store

    store = open_store(tmp_path / "s.sqlite")
    try:
        py = GE.grundy_sequence(TakeAndBreak("0.07"), 150, store=store, backend="python")
        assert int(store.sequence_length(TakeAndBreak("0.07").sequence_key)) == 150
        r = TakeAndBreak("0.07")
        assert GE.grundy_sequence(r, 300, store=store).tolist()[:150] == py
        assert GE.grundy_engine(r).trusted == 1  # the stored values are not trusted
        fresh = TakeAndBreak("0.07")
        assert GE.grundy_sequence(fresh, 300, store=store, backend="python") == _engine_values(TakeAndBreak("0.07"), 300)
        assert GE.grundy_engine(fresh, backend="python").trusted == 1
    finally:
        store.close()


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
    assert _python_values(parse_heap_ruleset(spec), top) == _brute_values(moves, top)


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
    assert _python_values(TakeAndBreak("0.77"), len(KAYLES_WW)) == KAYLES_WW
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
