"""Issue 19, the core's part: the bottom layer imports nothing above it (function-level imports
included, as grimp sees them), theories fill its registration points, its caches are in the one
registry, and every ``--time`` reads one duration vocabulary."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

import cgtalg as cg

BOTTOM = ("core", "errors", "caches", "budget", "hooks", "data")
ABOVE_NORMAL = ("misere", "rulesets", "ops", "store", "report", "census", "cli", "viz", "nimbers")


@pytest.fixture(scope="module")
def graph():
    import grimp

    return grimp.build_graph("cgtalg")


def _imports(graph, package: str) -> list[tuple[str, str]]:
    return sorted((m, i) for m in graph.modules if m.startswith(f"cgtalg.{package}")
                  for i in graph.find_modules_directly_imported_by(m) if i.startswith("cgtalg."))


def test_core_imports_only_the_bottom_layer(graph):
    bad = [(m, i) for m, i in _imports(graph, "core") if i.split(".")[1] not in BOTTOM]
    assert bad == []


def test_normal_imports_no_higher_layer_nor_nimbers(graph):
    bad = [(m, i) for m, i in _imports(graph, "normal") if i.split(".")[1] in ABOVE_NORMAL]
    assert bad == []


def test_core_import_is_cheap():
    code = "import sys, cgtalg.core; from cgtalg.core import parse, Game; parse('{0|}'); print('networkx' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_four_registration_points_each_documented_and_filled():
    """Issue 33: at most four hooks remain, each saying what it is, who uses it and who fills
    it; the package root fills every one, and each provider is of the kind its callers use."""
    import types

    from cgtalg import hooks

    assert sorted(hooks.hooks) == ["form_html", "partizan_notation", "position_game", "ruleset_named"]
    for name, hook in hooks.hooks.items():
        assert hook.name == name and getattr(hooks, name) is hook and name in hooks.__all__
        assert hook.provided, name
        assert "used by" in hook.doc and "filled by the package root" in hook.doc, name
        assert f":data:`{name}`" in hooks.__doc__, name  # and in the module's list
    for name in ("position_game", "ruleset_named", "form_html"):
        assert callable(hooks.hooks[name].resolve())
    notation = hooks.partizan_notation.resolve()
    assert isinstance(notation, types.ModuleType) and notation.__name__ == "cgtalg.normal.notation"
    assert callable(notation.format_partizan) and callable(notation.parse_partizan)
    assert isinstance(notation.FORMAT_LIMIT, int)


def test_the_forms_print_and_read_through_the_notation_hook():
    import pickle

    assert cg.up > 0 and cg.nimber(1) <= cg.nimber(1) and not cg.nimber(1) < 0
    assert str(cg.parse("{0||0|-3/2}")) == "Tiny(3/2)" and str(cg.parse("^<2>")) == "^<2>"
    assert repr(cg.parse("{0 | *}")) == "PartizanGame('^')"
    g = cg.parse("{2 || 1 | 0}") + cg.up
    assert pickle.loads(pickle.dumps(g)) is g
    assert cg.parse("2 + {1|0}", normal_play=True) is cg.parse("{3|2}")
    assert re.search(r"canonical form</th><td><code>\^</code>", cg.parse("{0, * | *}")._repr_html_())


def test_a_hook_is_filled_by_reference_and_refuses_bad_ones():
    import fractions

    from cgtalg import hooks
    from cgtalg.errors import CgtalgError

    h = hooks.Hook("probe", "probe(x) -> x: a test hook")
    with pytest.raises(CgtalgError, match="nothing provides 'probe'"):
        h(1)
    for bad in ("not a reference", "a.b:", "a.b:c d", "1a"):
        with pytest.raises(ValueError):
            h.provide(bad)
    with pytest.raises(TypeError):
        h.provide(3)
    h.provide("fractions:Fraction")
    assert h(1, 2) == fractions.Fraction(1, 2)
    h.provide(abs, default=True)  # a default never replaces a provider
    assert h(1, 2) == fractions.Fraction(1, 2)
    h.provide("fractions")
    assert h.resolve() is fractions
    assert "probe" not in hooks.hooks  # a Hook made by hand is no registration point


def _left_wins_moving_second(x, memo) -> bool:
    """Brute force from the rules of normal play: Left wins ``x`` when Right moves first iff
    every Right move leads to a position where Left, moving first, has a move to a position
    Left wins moving second."""
    hit = memo.get(x.id)
    if hit is None:
        hit = all(any(_left_wins_moving_second(xrl, memo) for xrl in xr.left) for xr in x.right)
        memo[x.id] = hit
    return hit


def test_the_order_of_forms_is_the_definition():
    """``G <= H`` iff Left wins ``H - G`` moving second (ONAG ch. 1), for forms born by day 2
    and some sums of them, whether or not the stops of canonical forms are known."""
    from itertools import product

    from cgtalg.core import partizan as C
    from cgtalg.normal.partizan import canonical_form

    day1 = [C.pgame(left, right) for left, right in product([[], [C.ZERO]], repeat=2)]
    subsets = [[x for i, x in enumerate(day1) if m >> i & 1] for m in range(16)]
    day2 = [C.pgame(left, right) for left in subsets for right in subsets]
    forms = day2[::7] + [a + b for a, b in zip(day2[::37], day2[5::41])]
    memo: dict = {}
    brute = {(g.id, h.id): _left_wins_moving_second(h - g, memo) for g in forms for h in forms}
    assert any(brute.values()) and not all(brute.values())
    cg.clear_caches()
    assert all(C.form_le(g, h) == brute[g.id, h.id] for g in forms for h in forms)
    assert all((g <= h) == brute[g.id, h.id] and (g < h) == (brute[g.id, h.id] and not brute[h.id, g.id])
               for g in forms for h in forms)
    canon = {g.id: canonical_form(g) for g in forms}  # records the stops of canonical forms
    assert C._FSTOPS
    C._LE.clear()
    assert all(C.form_le(canon[g.id], canon[h.id]) == brute[g.id, h.id] for g in forms for h in forms)


def test_clear_caches_empties_partizan_memos():
    from cgtalg.caches import registered_caches
    from cgtalg.normal import partizan as P

    g = cg.parse("{2 || 1 | 0}") + cg.up
    c = P.canonical_form(g)
    names = registered_caches()
    from cgtalg.core import partizan as C

    for name in ("core.partizan comparisons", "normal.partizan canonical sums", "core.partizan sums",
                 "core.partizan stops of canonical forms", "core.named_forms numbers of forms",
                 "fold partizan_canonical"):
        assert name in names
    cg.clear_caches()
    assert not C._LE and not C._FSTOPS and not P._CANON.cache
    assert P.canonical_form(g) is c


def test_canonical_sum_is_the_pair_fold():
    from cgtalg.core.named_forms import number_form
    from cgtalg.normal.partizan import canonical_form, canonical_sum

    a, b = canonical_form(cg.parse("{2 | {1 | 0}}")), canonical_form(cg.up + cg.nimber(2))
    assert canonical_sum(a, b) is canonical_form(a + b)
    assert canonical_sum(number_form(3), b) is canonical_form(cg.integer(3) + b)


@pytest.mark.parametrize("text, seconds", [("90", 90.0), ("90s", 90.0), ("10m", 600.0), ("2h", 7200.0)])
def test_time_option_reads_durations(text, seconds):
    import click
    from click.testing import CliRunner

    from cgtalg.cli.common import time_option

    @click.command()
    @time_option()
    def cmd(max_seconds):
        click.echo(repr(max_seconds))

    assert CliRunner().invoke(cmd, ["--time", text]).output.strip() == repr(seconds)
    assert CliRunner().invoke(cmd, []).output.strip() == "60.0"  # every command has a default budget
    bad = CliRunner().invoke(cmd, ["--time", "nan"])
    assert bad.exit_code == 2 and "not a duration" in bad.output
