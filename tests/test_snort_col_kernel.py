"""The compiled Snort and Col search (cgtalg/normal/_pgc_graph.c, through
cgtalg.normal.partizan_kernel.graph_form and the rulesets' kernel_form) against the Python
search (``engine="python"``, the reference), against exhaustive play written here from the
rules, and against published values:

- Winning Ways (Berlekamp, Conway, Guy), ch. 6, Snort: two joined vertices are ±1, a path of
  three ±2, and a star of n leaves ±n (whoever colours the centre claims every leaf);
- Conway, ONAG ch. 15 (and Winning Ways ch. 2), Col: every position is a number or a number
  plus *; on an untinted graph the colour-swapping symmetry gives G = -G, so the value is 0 or *.

The C search splits components on the edges that still matter and memoises each on a
relabelling whose key is the whole relabelled graph; the tests below check that isomorphic
graphs, whatever their labels, get the same form, that symmetric graphs (where the
relabelling must individualise vertices) agree with the Python search, and that graphs of
more than 64 vertices are split into pieces or left to the Python search.
"""

from __future__ import annotations

import itertools
import random

import pytest

from conftest import skip_without_kernel
from rulesets_brute import equals_by_play

from cgtalg.errors import ComputationLimitError
from cgtalg.normal import partizan_kernel as K
from cgtalg.normal.partizan import canonical_form, number_value
from cgtalg.core.partizan import nimber
from cgtalg.rulesets.partizan.games import partizan_form
from cgtalg.rulesets.partizan.snort_col import Col, Snort

pytestmark = skip_without_kernel(K.available(), f"partizan kernel: {K.status()}")

RULES = [Snort, Col]


def _kernel(rule, pos):
    """The form from the C search itself (not the generic search)."""
    g = rule().kernel_form(pos)
    assert g is not None
    return g


def _python(rule, pos):
    return partizan_form(rule(), pos, engine="python", progress=False)


def _random_graph(rng: random.Random, n: int, p: float, tint_p: float = 0.25):
    edges = tuple(e for e in itertools.combinations(range(n), 2) if rng.random() < p)
    tints = "".join(rng.choice("LR") if rng.random() < tint_p else "W" for _ in range(n))
    return tints, edges


def _brute_equal(snort: bool, tints: str, edges, value) -> bool:
    """``value`` is the position's value, by exhaustive play of position - value. A state is a
    tuple of '.', 'L', 'R' per vertex of the original graph; a vertex may be coloured c by the
    player c when its tint allows c and no neighbour forbids it (Snort: a neighbour of the other
    colour; Col: a neighbour of colour c)."""
    n = len(tints)
    nb = {v: set() for v in range(n)}
    for u, v in edges:
        nb[u].add(v)
        nb[v].add(u)

    def moves(state, me):
        bad = ("R" if me == "L" else "L") if snort else me
        for v in range(n):
            if state[v] == "." and tints[v] in ("W", me) and not any(state[w] == bad for w in nb[v]):
                yield state[:v] + (me,) + state[v + 1:]

    return equals_by_play(lambda s: moves(s, "L"), lambda s: moves(s, "R"), tuple("." * n), value)


@pytest.mark.parametrize("rule", RULES)
def test_random_graphs_same_forms_as_the_python_search(rule):
    """Random graphs of 2-10 vertices, sparse to dense, some vertices tinted: the C search
    gives the very form (hash-consed: identical) that the Python search gives."""
    rng = random.Random(22 if rule is Snort else 23)
    for _ in range(60):
        n = rng.randint(2, 10)
        pos = rule().normalize(_random_graph(rng, n, rng.choice([0.2, 0.35, 0.5, 0.8])))
        assert _kernel(rule, pos) is _python(rule, pos), pos


@pytest.mark.parametrize("rule", RULES)
def test_random_graphs_against_exhaustive_play(rule):
    """The C search's forms, checked by exhaustive play of G - value from the rules (written
    here, on the original labelled graph, without tints' simplifications)."""
    rng = random.Random(5 if rule is Snort else 6)
    r = rule()
    for _ in range(30):
        n = rng.randint(2, 7)
        tints, edges = _random_graph(rng, n, rng.choice([0.3, 0.5]))
        g = r.kernel_form((tints, edges))
        assert _brute_equal(r.snort, tints, edges, g), (tints, edges, str(g))


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("text", ["cycle:7", "cycle:8", "complete:5", "grid:3x3", "grid:2x5", "star:6",
                                  "graph:8:0-1,1-2,2-3,3-0,4-5,5-6,6-7,7-4,0-4,1-5,2-6,3-7",
                                  "graph:10:0-1,1-2,2-3,3-4,4-0,0-5,1-6,2-7,3-8,4-9,5-7,7-9,9-6,6-8,8-5",
                                  "cycle:6;left=0,3", "grid:3x3;right=4"])
def test_symmetric_graphs_same_forms_as_the_python_search(rule, text):
    """Vertex-transitive and symmetric graphs (cycles, complete graphs, grids, the cube Q3, the
    Petersen graph), where colour refinement alone leaves classes and the relabelling
    individualises vertices."""
    pos = rule().parse_position(text)
    assert _kernel(rule, pos) is _python(rule, pos)


@pytest.mark.parametrize("rule", RULES)
def test_relabelled_graphs_get_the_same_form(rule):
    """The same tinted graph under random renamings of its vertices, each searched as a new
    graph (so the memo on exact labels is emptied): one form, from the memo on relabelled
    keys or from a fresh search after the searches' memos are cleared."""
    rng = random.Random(9)
    r = rule()
    for _ in range(12):
        n = rng.randint(6, 12)
        tints, edges = _random_graph(rng, n, 0.3)
        forms = []
        for k in range(4):
            perm = list(range(n))
            rng.shuffle(perm)
            t2 = "".join(tints[perm.index(v)] for v in range(n))
            e2 = tuple(sorted(tuple(sorted((perm[u], perm[v]))) for u, v in edges))
            if k == 3:
                K.clear_searches()
            forms.append(K.graph_form(r.name, t2, e2))
        assert all(f is forms[0] for f in forms), (tints, edges)


def test_published_snort_values():
    """Winning Ways ch. 6: path of 2 is ±1, of 3 is ±2; the star of n leaves is ±n."""
    s = Snort()
    assert [str(_kernel(Snort, s.parse_position(f"path:{n}"))) for n in (1, 2, 3)] == ["*", "±1", "±2"]
    for n in range(2, 21):
        assert str(_kernel(Snort, s.parse_position(f"star:{n}"))) == f"±{n}"


def test_col_theorem_on_kernel_values():
    """ONAG ch. 15: every Col value is x or x + * for a number x; on an untinted graph G = -G,
    so 0 or *. Every graph of 5 vertices, and tinted random graphs of 6-9."""
    col, star = Col(), nimber(1)
    for es in itertools.combinations(list(itertools.combinations(range(5), 2)), 4):
        g = _kernel(Col, col.normalize(("WWWWW", es)))
        assert str(g) in ("0", "*"), (es, str(g))
    rng = random.Random(3)
    for _ in range(40):
        g = _kernel(Col, col.normalize(_random_graph(rng, rng.randint(6, 9), 0.35, 0.4)))
        assert number_value(g) is not None or number_value(canonical_form(g + star)) is not None, str(g)


@pytest.mark.parametrize("rule", RULES)
def test_more_than_64_vertices(rule, monkeypatch):
    """A graph of 75 vertices in pieces of 5 is split and searched piece by piece; a connected
    piece of more than 64 vertices is left to the generic search (kernel_form is None), which
    still answers through partizan_form (shown with the limit lowered to 6, so that the
    generic search is quick)."""
    r = rule()
    pos = r.parse_position("graph:75:" + ",".join(f"{5 * i + j}-{5 * i + j + 1}" for i in range(15) for j in range(4)))
    piece = r.parse_position("path:5")
    expect = nimber(0)
    for _ in range(15):       # (the kernel's sums: the Python reference's take half a minute here)
        expect = K.canonical_sum(expect, _python(rule, piece))
    assert _kernel(rule, pos) is expect
    assert r.kernel_form(r.parse_position("star:64")) is None
    monkeypatch.setattr(K, "GRAPH_MAX_VERTICES", 6)
    small = r.parse_position("graph:12:0-1,1-2,2-3,3-4,5-6,6-7,7-8,8-9,9-10,10-11")
    assert r.kernel_form(small) is None
    assert partizan_form(r, small, progress=False) is _python(rule, small)
    split = r.parse_position("graph:12:0-1,1-2,2-3,3-4,4-5,6-7,7-8,8-9,9-10,10-11;left=3")
    assert _kernel(rule, split) is _python(rule, split)


def test_errors_and_limits():
    with pytest.raises(ValueError, match="tints are W, L or R"):
        K.graph_form("snort", "WX", [(0, 1)])
    with pytest.raises(ValueError, match="the edge 0-5 is not between"):
        K.graph_form("col", "WW", [(0, 5)])
    mod = K.KERNEL.load()
    with pytest.raises(ValueError, match="not in both neighbour lists"):
        mod.graph(1, [0b10, 0b00], 0b11, 0b11)
    with pytest.raises(ValueError, match="0 \\(Col\\) or 1 \\(Snort\\)"):
        mod.graph(2, [0b10, 0b01], 0b11, 0b11)
    s = Snort()
    K.clear_searches()
    with pytest.raises(ComputationLimitError, match="components solved"):
        partizan_form(s, s.parse_position("grid:5x5"), max_seconds=0.05, progress=False)


def test_pure_python_gives_the_same_values():
    """``CGTALG_PURE_PYTHON=1`` turns the kernel off: Snort and Col are then searched in Python,
    with the same values."""
    import os
    import subprocess
    import sys

    from cgtalg.normal.notation import parse_partizan

    env = dict(os.environ, CGTALG_PURE_PYTHON="1")
    code = ("from cgtalg.normal import partizan_kernel as K\n"
            "from cgtalg.rulesets.partizan.snort_col import Snort, Col\n"
            "from cgtalg.rulesets.partizan.games import partizan_form\n"
            "print(K.status())\n"
            "for r in (Snort(), Col()):\n"
            "    print(partizan_form(r, r.parse_position('grid:2x4;left=0'), progress=False))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    status, snort, col = out.stdout.strip().splitlines()
    assert status.startswith("disabled")
    for rule, text in ((Snort, snort), (Col, col)):
        assert parse_partizan(text) is _kernel(rule, rule().parse_position("grid:2x4;left=0"))
