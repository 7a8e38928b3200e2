"""The layers import one way (docs/architecture.md), as the import-linter contract in
pyproject.toml states: bottom modules (errors, caches, budget, hooks, data), core, the theories
(normal | nimbers, then misère), rulesets, operations, the store, and on top census, CLI, report,
drawing. import-linter reads every import, function-level ones included.

The contract is checked on the package as it is, and shown to catch the upward imports the
redesign removed (issue 19): each is put back into a copy of the package and must break it.
"""

from __future__ import annotations

import ast
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "cgtalg"

import importlinter  # noqa: E402,F401 - the test extra installs it; a missing one is a failure, not a skip


def _lint(package_parent: pathlib.Path) -> subprocess.CompletedProcess:
    """Run lint-imports with ``package_parent`` first on the path (the package to analyse)."""
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); "
        "from importlinter.cli import lint_imports_command; "
        "sys.argv = ['lint-imports', sys.argv[2], '--no-cache']; "
        "lint_imports_command()"
    )
    return subprocess.run(
        [sys.executable, "-c", code, str(package_parent), str(ROOT / "pyproject.toml")],
        capture_output=True, text=True, timeout=300, cwd=package_parent,
    )


def test_the_package_keeps_its_layers():
    result = _lint(ROOT)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]


# (module file, an import the redesign removed from it): each must break the contract again.
UPWARD = [
    ("core/notation.py", "from cgtalg.rulesets.registry import position_game"),
    ("core/partizan.py", "from cgtalg.normal.partizan import le"),
    ("core/partizan.py", "from cgtalg.normal.notation import format_partizan"),
    ("core/game.py", "from cgtalg.viz.html import game_html"),
    ("quotients/construct.py", "from cgtalg.rulesets.heaps.octal import octal"),
    ("rulesets/heaps/genus.py", "from cgtalg.store import open_store"),
    ("rulesets/heaps/periodicity.py", "from cgtalg.cli.common import emit"),
    ("store/verify.py", "from cgtalg.report import describe"),
    ("normal/grundy.py", "from cgtalg.misere.outcome import misere_grundy"),
]


@pytest.mark.parametrize("where,line", UPWARD, ids=[w for w, _ in UPWARD])
def test_an_upward_import_breaks_the_contract(tmp_path, where, line):
    copy = tmp_path / "cgtalg"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    target = copy / where
    text = target.read_text()
    # lazily, inside a function: import-linter must see function-level imports too
    text += f"\n\ndef _upward_probe():\n    {line}\n    return None\n"
    ast.parse(text)
    target.write_text(text)
    result = _lint(tmp_path)
    assert result.returncode != 0, f"the contract missed `{line}` in {where}"
    assert "BROKEN" in result.stdout
