"""The compiled partizan kernel (cgtalg.normal._pgc) against the Python reference
(cgtalg.normal.partizan) and against comparison from the definition.

The kernel must give the very canonical forms (identical hash-consed forms) and the same
comparisons as the Python path, on random forms and on ruleset positions; comparisons are also
checked against G <= H computed straight from the definition (ONAG ch. 1: no G^L >= H and no
H^R <= G), written here without memo or shortcut. Published values: Domineering rectangles as
CGSuite prints them (CGSuite's DomineeringTest / Winning Ways ch. 5), and against cgt-py when
it is installed.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest

from conftest import skip_without_kernel

from cgtalg.core.partizan import ZERO, dyadic, integer, nimber, pgame, up
from cgtalg.normal.notation import parse_partizan
from cgtalg.normal import partizan as P
from cgtalg.normal import partizan_kernel as K
from cgtalg.rulesets.partizan.games import Clobber, Domineering, Hackenbush, ToadsAndFrogs, partizan_form

pytestmark = skip_without_kernel(K.available(), f"partizan kernel: {K.status()}")


def _le_definition(g, h) -> bool:
    """G <= H from the definition, no memo: no G^L >= H and no H^R <= G."""
    return not any(_le_definition(h, gl) for gl in g.left) and not any(_le_definition(hr, g) for hr in h.right)


def _random_forms(seed: int, count: int, rounds: int, width: int = 3) -> list:
    rng = random.Random(seed)
    pool = [ZERO, integer(1), integer(-1), nimber(1), dyadic(1, 2), up]
    for _ in range(rounds):
        new = []
        for _ in range(count):
            left = rng.sample(pool, rng.randint(0, min(width, len(pool))))
            right = rng.sample(pool, rng.randint(0, min(width, len(pool))))
            new.append(pgame(left, right))
        pool += new
    return pool


def test_random_forms_same_canonical_forms_and_comparisons():
    forms = _random_forms(1, 40, 3)
    canon = [P.canonical_form(g) for g in forms]
    for g, c in zip(forms, canon):
        assert K.canonical_form(g) is c, str(g)
    rng = random.Random(2)
    for _ in range(1500):
        a, b = rng.choice(forms), rng.choice(forms)
        assert K.le(a, b) == P.le(a, b), (str(a), str(b))
        s = K.canonical_sum(P.canonical_form(a), P.canonical_form(b))
        assert s is P.canonical_sum(P.canonical_form(a), P.canonical_form(b)), (str(a), str(b))


def test_kernel_comparison_matches_the_definition():
    # small raw forms (birthday <= 3): the definition's recursion is cheap enough there
    forms = _random_forms(3, 12, 2, width=2)
    rng = random.Random(4)
    for _ in range(400):
        a, b = rng.choice(forms), rng.choice(forms)
        assert K.le(a, b) == _le_definition(a, b), (str(a), str(b))


def test_kernel_sums_agree_with_comparison_of_sums():
    # a + b computed by the kernel equals the raw sum a + b in value (checked by the reference)
    forms = _random_forms(5, 15, 2)
    rng = random.Random(6)
    for _ in range(150):
        a, b = rng.choice(forms), rng.choice(forms)
        s = K.canonical_sum(P.canonical_form(a), P.canonical_form(b))
        assert P.equal(s, a + b), (str(a), str(b))


def test_numbers_nimbers_and_uptimals():
    for num, den in [(0, 1), (3, 1), (-5, 1), (1, 2), (-3, 8), (77, 128), (1, 1024)]:
        d = dyadic(num, den)
        assert K.to_form(K.to_kernel(d)) is d
    for n in range(6):
        assert K.canonical_form(nimber(n) + nimber(n ^ 3)) is nimber(3)
    g = up + up + nimber(1)
    assert K.canonical_form(g) is P.canonical_form(g)
    assert str(K.canonical_form(pgame([integer(1)], [integer(2)]))) == "3/2"


def test_numbers_beyond_the_kernels_range_fall_back():
    h = Hackenbush()
    s = "L" + "R" * 45  # 1 - 1/2 - 1/4 - ...: 44 binary places, beyond the kernel's 40
    assert partizan_form(h, (s,)) is partizan_form(h, (s,), engine="python")
    with pytest.raises(OverflowError):
        K.to_kernel(dyadic(1, 2**45))


def _rows(cells, height, width):
    return tuple(sum(1 << c for c in range(width) if (r, c) in cells) for r in range(height))


def test_domineering_boards_same_as_python_engine():
    d = Domineering()
    rng = random.Random(7)
    boards = [d.rectangle(m, n) for m in range(1, 5) for n in range(1, 5)]
    boards += [d.rectangle(2, n) for n in (9, 10, 11)] + [d.rectangle(n, 2) for n in (9, 10)]
    boards += [d.rectangle(1, 20), d.rectangle(3, 9)]
    for _ in range(40):
        h, w = rng.randint(2, 4), rng.randint(2, 5)
        cells = {(r, c) for r in range(h) for c in range(w) if rng.random() < 0.75}
        boards.append(_rows(cells, h, w))
    for b in boards:
        fast = d.kernel_form(b)
        assert fast is partizan_form(Domineering(), b, engine="python"), d.format_position(b)
        assert fast is partizan_form(Domineering(), b, progress=False), d.format_position(b)


def test_domineering_published_values():
    # Winning Ways ch. 5 / Siegel CGT I.1: the 2 x 2 square is ±1, a 1 x n strip -floor(n/2),
    # an n x 1 strip floor(n/2); CGSuite GameGridTest: the 4 x 4 board is
    # ±{0,{{2|0},2Tiny(2)|{2|0},Miny(2)}}
    d = Domineering()
    assert str(d.kernel_form(d.rectangle(2, 2))) == "±1"
    for n in range(1, 9):
        assert d.kernel_form(d.rectangle(1, n)) is integer(-(n // 2))
        assert d.kernel_form(d.rectangle(n, 1)) is integer(n // 2)
    assert d.kernel_form(d.rectangle(4, 4)) is parse_partizan("±{0,{{2|0},2Tiny(2)|{2|0},Miny(2)}}")
    assert d.kernel_form(d.rectangle(9, 8)) is None  # beyond 64 cells: the generic search runs


def test_generic_rulesets_kernel_engine_same_as_python():
    cases = [
        (Clobber(), ["xox|ox.", "xoxo", "xoxox|oxoxo", "xxo|oox", "xo.|oxo|x.x"]),
        (ToadsAndFrogs(), ["TT..FF", "T.TF.F", "TTF.F", "T..TF.F"]),
        (Hackenbush(), ["LRG GGL", "LRLRRLLR", "GGR LLG"]),
    ]
    for ruleset, texts in cases:
        for t in texts:
            pos = ruleset.parse_position(t)
            k = partizan_form(type(ruleset)(), pos, progress=False)
            p = partizan_form(type(ruleset)(), pos, progress=False, engine="python")
            assert k is p, (ruleset.name, t)


def test_pure_python_switch_disables_the_kernel():
    env = dict(os.environ, CGTALG_PURE_PYTHON="1")
    code = ("from cgtalg.normal import partizan_kernel as K\n"
            "from cgtalg.rulesets.partizan.games import Domineering, partizan_form\n"
            "d = Domineering(); print(K.status()); print(partizan_form(d, d.rectangle(3, 4), progress=False))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    status, value = out.stdout.strip().splitlines()
    assert status.startswith("disabled")
    assert parse_partizan(value) is Domineering().kernel_form(Domineering.rectangle(3, 4))


def test_unknown_engine_is_refused():
    from cgtalg.errors import ArgumentError

    with pytest.raises(ArgumentError, match="engine must be one of"):
        partizan_form(Domineering(), Domineering.rectangle(2, 2), engine="rust")


def test_against_cgt_py_domineering():
    cgt_py = pytest.importorskip("cgt_py")
    d = Domineering()
    for m, n in [(2, 3), (3, 3), (3, 4), (4, 4), (2, 7), (3, 5)]:
        grid = "|".join("." * n for _ in range(m))
        text = str(cgt_py.Domineering(grid).canonical_form)  # CanonicalForm('...')
        assert parse_partizan(text[len("CanonicalForm('"):-2]) is d.kernel_form(d.rectangle(m, n)), (m, n, text)


def test_misere_outcome_by_play_matches_the_solver():
    # the quick misère search of `cgtalg value` against cgtalg.rulesets.solver.solve
    from cgtalg.rulesets.partizan.konane import Konane
    from cgtalg.rulesets.partizan.forms import misere_outcome_by_play
    from cgtalg.rulesets.solver import solve

    cases = [(Domineering(), ["2x2", "3x3", "2x4", "3x4", "..#|...|.#."]),
             (Clobber(), ["xox|ox.", "xoxo", "xo|ox|xo"]),
             (Konane(), ["xoxo..", "xox.|o.xo", "xoxo|oxox|xo..|ox.."]),
             (ToadsAndFrogs(), ["TT..FF", "T.F.TF"]),
             (Hackenbush(), ["LRG GGL", "LR RL"])]
    for ruleset, texts in cases:
        for t in texts:
            pos = ruleset.parse_position(t)
            assert misere_outcome_by_play(ruleset, pos) == solve(ruleset, pos, misere=True).outcome, (ruleset.name, t)
