"""``cgtalg.referee`` imports only the standard library, numpy and itself (issue 32): the
import-linter contract in pyproject.toml forbids it every other cgtalg package (run by
tests/test_layers.py through lint-imports); this test reads every import statement of the
package, function-level ones included, for the outside packages."""

from __future__ import annotations

import ast
import pathlib
import sys

REFEREE = pathlib.Path(__file__).resolve().parents[1] / "cgtalg" / "referee"


def _imports(path: pathlib.Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_the_referee_imports_only_the_standard_library_numpy_and_itself():
    files = sorted(REFEREE.glob("*.py"))
    assert len(files) >= 8
    for path in files:
        for name in _imports(path):
            top = name.split(".")[0]
            ok = (top in sys.stdlib_module_names or top == "numpy" or name == "cgtalg.referee"
                  or name.startswith("cgtalg.referee."))
            assert ok, f"{path.name} imports {name}"


def test_the_contract_is_declared():
    text = (REFEREE.parents[1] / "pyproject.toml").read_text(encoding="utf-8")
    assert 'source_modules = ["cgtalg.referee"]' in text and "the referee shares no code with the searches" in text
