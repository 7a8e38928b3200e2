"""The C misère search (cgtalg/rulesets/heaps/_heapc.c, loaded by
:mod:`cgtalg.rulesets.heaps.heap_kernel`) against the definition and the other implementations.

Checked: outcomes and misère Grundy values against a brute force from the rules
(tests/misere_brute.py) on random positions of several rulesets, with a search paused after
every few states (a resumed search must give the same answers); against the plain-Python
search of :mod:`cgtalg.rulesets.heaps.misere_play` on the same class tuples; the Memo's refusals
(a table that names no class, an unsorted root); and, in fresh processes, that a misère
question is answered without numba or numpy when the kernel is built, and the same answer
with ``CGTALG_PURE_PYTHON=1`` (the fallback: plain Python, then numba).
"""

from __future__ import annotations

import json
import os
import pathlib
import random
import subprocess
import sys

import pytest

from cgtalg.rulesets.heaps import heap_kernel
from cgtalg.rulesets.heaps import misere_play as mp
from cgtalg.rulesets.heaps.games import GrundysGame
from cgtalg.rulesets.heaps.octal import TakeAndBreak

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from misere_brute import MisereBrute  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[1]

needs_c = pytest.mark.skipif(not heap_kernel.available(), reason=f"C heap kernel: {heap_kernel.status()}")


def _make(name):
    return GrundysGame() if name == "grundy" else TakeAndBreak(name)


@needs_c
@pytest.mark.parametrize("name", ["0.77", "0.123", "0.07", "4.07", "grundy"])
@pytest.mark.parametrize("classes", [True, False])
def test_c_search_matches_the_definition_with_pauses(name, classes, monkeypatch):
    monkeypatch.setattr(mp._Memo, "STEP", 2)      # a pause every few new states
    rng = random.Random(hash((name, classes)) & 0xFFFF)
    r = _make(name)
    brute = MisereBrute(_make(name))
    srch = mp.MisereSearch(r, classes)
    assert isinstance(srch.outcomes, mp._CMemo) and isinstance(srch.grundy, mp._CMemo)
    for _ in range(30):
        pos = [rng.randint(0, 10) for _ in range(rng.randint(1, 4))]
        g = brute.grundy(pos)
        s = srch.normalize(pos)
        assert srch.grundy_value(s) == g, (name, pos)
        assert srch.is_n(s) == (g != 0), (name, pos)


@needs_c
def test_c_search_matches_the_plain_python_search():
    rng = random.Random(11)
    for name in ("0.77", "0.15", "0.7"):
        r = _make(name)
        c = mp.MisereSearch(r, True)
        py = mp.MisereSearch(r, True)
        for _ in range(40):
            s = c.normalize([rng.randint(1, 14) for _ in range(rng.randint(1, 3))])
            assert c.is_n(s) == (py._python_search(s, False, 10**7) == 1), (name, s)
            if sum(s) <= 24:
                assert c.grundy_value(s) == py._python_search(s, True, 10**7), (name, s)


@needs_c
def test_deep_positions_and_large_grundy_values():
    # 0.3: the mover loses iff the number of tokens is odd (misère), depth = tokens; values of
    # Nim heaps (0.333...: take any number) reach past 64, the mex past the kernel's bit mask
    r = TakeAndBreak("0.3")
    assert r.outcome([900], misere=True) == "N"
    assert r.outcome([901], misere=True) == "P"
    nim = TakeAndBreak("0." + "3" * 80)
    srch = mp.MisereSearch(nim, False)
    assert srch.grundy_value(srch.normalize([70])) == 70    # misère Nim: a lone heap n > 1 is *n
    assert srch.grundy_value(srch.normalize([1])) == 0


@needs_c
def test_memo_refuses_bad_tables_and_roots():
    memo = heap_kernel.load().Memo()
    with pytest.raises(ValueError, match="set_table"):
        memo.solve((1,), False, -1, 10)
    with pytest.raises(ValueError, match="not a class"):
        memo.set_table([0, 0, 1], [(5,)])
    memo.set_table([0, 0, 1], [()])            # class 1 has one move, to nothing
    with pytest.raises(ValueError, match="sorted"):
        memo.solve((1, 0), False, -1, 10)
    with pytest.raises(ValueError, match="not a class"):
        memo.solve((2,), False, -1, 10)
    assert memo.solve((1,), False, -1, 10) == 0    # the move leaves no move for the opponent: P
    assert memo.lookup((1,)) == 0 and memo.lookup((7,)) == -1 and memo.size == 2


_RUN = ("import io, json, sys, contextlib\n"
        "from cgtalg.cli.main import main\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out):\n"
        "    main(['outcome', '0.77', '14', '15', '16', '--misere', '--no-store', '--json'])\n"
        "res = json.loads(out.getvalue()); res.pop('seconds')\n"
        "print(json.dumps({'res': res, 'heavy': [m for m in ('numba', 'numpy') if m in sys.modules]}))\n")


def _fresh(extra_env: dict) -> dict:
    env = {**os.environ, **extra_env, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    out = subprocess.run([sys.executable, "-c", _RUN], capture_output=True, text=True, env=env, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


@needs_c
def test_misere_outcome_loads_neither_numba_nor_numpy_and_matches_the_fallback():
    c = _fresh({})
    assert c["heavy"] == []
    assert c["res"]["outcome"] == "N" and c["res"]["winning_move_count"] == 3
    fallback = _fresh({"CGTALG_PURE_PYTHON": "1"})
    assert fallback["res"] == c["res"]
