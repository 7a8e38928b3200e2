"""Light commands answer without the heavy modules (issue 23, part 4: "a small question should
not pay for a kernel it does not need"), with the answers they gave before.

Checked in fresh interpreters through ``sys.modules`` (no timing asserts; the times are in
``benchmarks/bench_startup.py`` and docs/performance.md). Each command runs twice on one
store, the second run (warm: the store holds what the first stored) is inspected.

Also cross-checked here: the kernels' Python code (what small work runs,
:func:`cgtalg.rulesets.lazy_jit.python_kernels`) against the compiled kernels, and the plain
Python misère search against a brute force written here from the rules of Kayles.

Reference values: Kayles (0.77) Grundy values and period 12 from heap 71 (Winning Ways ch. 4,
Guy & Smith 1956); Dawson's Kayles (0.07) period 34, last exceptional value G(52) (Winning Ways
ch. 4); ω ⊗ ω = ω² and ω³ = 2 in the nimbers (ONAG ch. 6).
"""

from __future__ import annotations

import functools
import json
import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
HEAVY = ("numba", "scipy", "sympy", "networkx", "alembic", "matplotlib", "tqdm")
_RUN = (
    "import io, json, sys, contextlib\n"
    "from cgtalg.cli.main import main\n"
    "out = io.StringIO()\n"
    "with contextlib.redirect_stdout(out):\n"
    "    code = main({args!r})\n"
    "print(json.dumps({{'code': code, 'out': out.getvalue(), 'heavy': [m for m in {heavy!r} if m in sys.modules]}}))\n"
)


def _cli(args: list[str], store: pathlib.Path) -> dict:
    env = {**os.environ, "CGTALG_STORE": str(store),
           "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    out = subprocess.run([sys.executable, "-c", _RUN.format(args=args, heavy=HEAVY)], capture_output=True,
                         text=True, env=env, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["code"] == 0, got
    return got


def _warm(args: list[str], store: pathlib.Path) -> dict:
    _cli(args, store)
    return _cli(args, store)


def test_nim_commands_load_no_sympy_numpy_or_numba(tmp_path):
    store = tmp_path / "s.sqlite"
    for args, shown in ((["nim", "mul", "w", "w", "--json"], "ω^2"), (["nim", "pow", "w", "3", "--json"], 2),
                        (["nim", "add", "w+1", "5", "--json"], "ω+4"), (["nim", "mul", "w^w", "w^w", "--json"], None),
                        (["nim", "inv", "w", "--json"], "ω^2·3")):
        got = _warm(args, store)
        assert got["heavy"] == [], (args, got["heavy"])
        if shown is not None:
            assert json.loads(got["out"])["result"] == shown, (args, got["out"])
    assert "sqlalchemy" not in _cli(["nim", "mul", "w", "w"], store)["heavy"]


def test_small_heap_commands_load_nothing_heavy(tmp_path):
    store = tmp_path / "s.sqlite"
    got = _warm(["outcome", "0.77", "5", "9", "--json"], store)
    assert got["heavy"] == []
    res = json.loads(got["out"])
    assert (res["values"], res["outcome"]) == ([4, 4], "P")  # G(5) = G(9) = 4 (Winning Ways ch. 4)
    got = _warm(["grundy", "0.77", "-n", "100", "--json"], store)
    assert got["heavy"] == []
    values = json.loads(got["out"])["values"]
    assert values[:13] == [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4]
    assert all(values[n] == values[n + 12] for n in range(71, 88))  # period 12 from heap 71
    got = _warm(["period", "0.07", "--json"], store)
    assert got["heavy"] == []
    res = json.loads(got["out"])
    assert (res["period"], res["preperiod"], res["certified"]) == (34, 53, True)
    assert "re-verified" in res["note"]  # the stored certificate was checked again


def test_small_misere_outcome_and_game_load_nothing_heavy(tmp_path):
    store = tmp_path / "s.sqlite"
    got = _warm(["outcome", "0.77", "7", "9", "11", "13", "--misere", "--json"], store)
    assert got["heavy"] == []
    res = json.loads(got["out"])
    assert res["outcome"] == _kayles_misere_outcome((7, 9, 11, 13))
    assert res["winning_move_count"] == sum(
        1 for child in _kayles_children((7, 9, 11, 13)) if _kayles_misere_outcome(child) == "P")
    got = _warm(["game", "{*2}", "--json"], store)
    assert got["heavy"] == []


# -- the kernels' Python code against the compiled kernels ----------------------------------


@pytest.mark.parametrize("code", ["0.77", "0.07", "0.137", "4.07", "0.6", "0.123", "0.[3]", "0x0.F"])
def test_python_kernels_agree_with_compiled(code):
    """The values, the sparse split and the rare positions of the first 400 values (and a
    periodicity search over them) are the same whether the kernels run compiled or as Python."""
    from cgtalg.rulesets import grundy_engine as GE
    from cgtalg.rulesets.lazy_jit import compile_kernels, python_kernels
    from cgtalg.rulesets.octal import TakeAndBreak
    from cgtalg.rulesets import grundy_kernels as K

    def state(small: bool):
        r = TakeAndBreak(code)
        eng = GE.GrundyEngine(r)
        limit = 10**12 if small else -1
        import cgtalg.rulesets.lazy_jit as LJ

        old, LJ.PYTHON_WORK = LJ.PYTHON_WORK, limit
        try:
            for stop in (37, 150, 400):
                eng.extend(stop, progress=False)
            split = eng.sparse_split()
        finally:
            LJ.PYTHON_WORK = old
        return (eng.G[:eng.n].tolist(), eng.mode, None if split is None else (split.mask, split.cbit0, split.cbit1),
                int(eng.nrare), eng.rare[:eng.nrare].tolist(), int(eng.vmax))

    py = state(True)
    compile_kernels(vars(K))
    assert state(False) == py
    import numpy as np

    G = np.asarray(py[0], dtype=np.int64)
    with python_kernels(10**12):
        z_py = K.tail_match_lengths(G, len(G), np.zeros(len(G) // 2 + 1, dtype=np.int64)).tolist()
        s_py = tuple(int(x) for x in K.saltus_scan(G, len(G), len(G) // 4, 3))
    assert K.tail_match_lengths(G, len(G), np.zeros(len(G) // 2 + 1, dtype=np.int64)).tolist() == z_py
    assert tuple(int(x) for x in K.saltus_scan(G, len(G), len(G) // 4, 3)) == s_py


# -- the plain misère search against a brute force --------------------------------------------


def _kayles_children(heaps: tuple[int, ...]) -> set[tuple[int, ...]]:
    """Kayles (Winning Ways ch. 4): knock down one pin or two adjacent pins of a row."""
    out = set()
    for i, h in enumerate(heaps):
        rest = heaps[:i] + heaps[i + 1:]
        for take in (1, 2):
            for left in range(0, h - take + 1):
                right = h - take - left
                out.add(tuple(sorted(rest + tuple(x for x in (left, right) if x))))
    return out


@functools.lru_cache(maxsize=None)
def _kayles_misere_outcome(heaps: tuple[int, ...]) -> str:
    kids = _kayles_children(heaps)
    if not kids:
        return "N"  # misère: the player who cannot move wins
    return "N" if any(_kayles_misere_outcome(k) == "P" for k in kids) else "P"


@functools.lru_cache(maxsize=None)
def _kayles_misere_grundy(heaps: tuple[int, ...]) -> int:
    kids = _kayles_children(heaps)
    if not kids:
        return 1
    seen = {_kayles_misere_grundy(k) for k in kids}
    return min(set(range(len(seen) + 1)) - seen)


def test_plain_misere_search_agrees_with_brute_force_and_kernel():
    import itertools

    from cgtalg.rulesets import misere_play as M
    from cgtalg.rulesets.octal import TakeAndBreak

    positions = [p for k in (1, 2, 3) for p in itertools.combinations_with_replacement(range(1, 9), k)]
    positions += [(7, 9, 11), (3, 5, 7, 9)]
    r = TakeAndBreak("0.77")
    for classes in (False, True):
        srch = M.MisereSearch(r, classes)
        for p in positions:
            s = srch.normalize(p)
            assert srch._python_search(s, False, 10**6) == (1 if _kayles_misere_outcome(p) == "N" else 0), p
            if sum(p) <= 16:
                assert srch._python_search(s, True, 10**6) == _kayles_misere_grundy(p), p
    kernel = M.MisereSearch(r, True)
    plain = M.MisereSearch(r, True)
    for p in positions:
        s = kernel.normalize(p)
        k_out = kernel._run(s, False, None, None, None) if "cgtalg.rulesets._misere_kernel" in sys.modules \
            else None
        if k_out is None:
            import cgtalg.rulesets._misere_kernel  # noqa: F401  (the compiled search from now on)

            k_out = kernel._run(s, False, None, None, None)
        assert k_out == plain._python_search(plain.normalize(p), False, 10**6), p
        assert kernel._run(s, True, None, None, None) == plain._python_search(plain.normalize(p), True, 10**6), p


def test_plain_search_names_the_state_budget():
    from cgtalg.errors import ComputationLimitError
    from cgtalg.rulesets import misere_play as M
    from cgtalg.rulesets.octal import TakeAndBreak

    srch = M.MisereSearch(TakeAndBreak("0.77"), False)
    with pytest.raises(ComputationLimitError, match="max_states=50 states"):
        srch._python_search(srch.normalize((9, 10, 11)), False, 50)
