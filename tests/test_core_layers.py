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


def test_partizan_hooks_are_filled_by_the_theory():
    from cgtalg import hooks

    for name in ("partizan_le", "partizan_canonical", "partizan_canonical_sum", "partizan_mean",
                 "partizan_higher_up", "partizan_higher_parts", "position_game", "form_html"):
        assert hooks.hooks[name].provided, name
    assert cg.up > 0 and cg.nimber(1) <= cg.nimber(1) and not cg.nimber(1) < 0
    assert str(cg.parse("{0||0|-3/2}")) == "Tiny(3/2)" and str(cg.parse("^<2>")) == "^<2>"
    assert re.search(r"canonical form</th><td><code>\^</code>", cg.parse("{0, * | *}")._repr_html_())


def test_clear_caches_empties_partizan_memos():
    from cgtalg.caches import registered_caches
    from cgtalg.normal import partizan as P

    g = cg.parse("{2 || 1 | 0}") + cg.up
    c = P.canonical_form(g)
    names = registered_caches()
    for name in ("normal.partizan comparisons", "normal.partizan canonical sums", "core.partizan sums",
                 "core.named_forms numbers of forms", "fold partizan_canonical"):
        assert name in names
    cg.clear_caches()
    assert not P._LE and not P._CANON.cache
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
    assert CliRunner().invoke(cmd, []).output.strip() == "None"
    bad = CliRunner().invoke(cmd, ["--time", "nan"])
    assert bad.exit_code == 2 and "not a duration" in bad.output
