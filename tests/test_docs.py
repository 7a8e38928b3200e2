"""Docs that run (issue 7): every example in docs/*.md, README.md and the docstrings of cgtalg/.

- ``>>>`` examples (Markdown and docstrings) run as doctests;
- fenced ```python blocks of a Markdown file run in order in one namespace per file;
- fenced ```console blocks' ``$ cgtalg ...`` lines run through the CLI in-process (exit 0).
"""

from __future__ import annotations

import doctest
import importlib
import pathlib
import re
import shlex

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
MARKDOWN = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]
MODULES = sorted(
    ".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
    for p in (ROOT / "cgtalg").rglob("*.py")
)
FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", re.S | re.M)
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@pytest.mark.parametrize("module_name", MODULES)
def test_docstring_examples(module_name):
    module = importlib.import_module(module_name)
    result = doctest.testmod(module, optionflags=FLAGS, report=True)
    assert result.failed == 0, f"{result.failed} failing docstring example(s) in {module_name}"


@pytest.mark.parametrize("path", MARKDOWN, ids=lambda p: p.name)
def test_markdown_doctests(path):
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    globs: dict = {}
    for _lang, body in FENCE.findall(path.read_text()):
        if ">>>" in body:
            test = doctest.DocTestParser().get_doctest(body, globs, path.name, str(path), 0)
            runner.run(test, clear_globs=False)
            globs = test.globs  # DocTest copies its globals: carry names on to the next block
    assert runner.failures == 0, f"{runner.failures} failing >>> example(s) in {path.name}"


@pytest.mark.parametrize("path", MARKDOWN, ids=lambda p: p.name)
def test_markdown_python_blocks(path):
    namespace: dict = {"__name__": f"docs_{path.stem}"}
    for lang, body in FENCE.findall(path.read_text()):
        if lang == "python" and ">>>" not in body:
            exec(compile(body, str(path), "exec"), namespace)


def _console_commands(path):
    for lang, body in FENCE.findall(path.read_text()):
        if lang in ("console", "sh", "bash", "shell"):
            for line in body.splitlines():
                line = line.strip()
                # usage synopses ([--json]) and paths on other machines are not runnable
                if line.startswith("$ cgtalg ") and "[" not in line and "/data/" not in line:
                    yield line[2:]


#: documented commands that take more than ~10 s: run with the long checks (pytest -m slow)
SLOW_COMMANDS = ("census quotient", "misere kayles -n 31", "grundy 0.6 -n 1e6", "about a minute")
CONSOLE = [pytest.param(p, c, id=f"{p.name}:{c}",
                        marks=[pytest.mark.slow] if any(k in c for k in SLOW_COMMANDS) else [])
           for p in MARKDOWN for c in _console_commands(p)]


@pytest.mark.parametrize("path,command", CONSOLE)
def test_markdown_console_commands(path, command, tmp_path, monkeypatch):
    from click.testing import CliRunner

    from cgtalg.cli.main import cli

    monkeypatch.setenv("CGTALG_STORE", str(tmp_path / "store.sqlite"))
    monkeypatch.chdir(tmp_path)
    args = shlex.split(command.split(" #")[0])[1:]
    if any(ch in command for ch in "|><&"):
        pytest.skip("shell pipeline/redirect")
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, (command, result.output, result.exception)


@pytest.mark.slow  # the build executes the notebook gallery (about a minute): CI's second step
def test_documentation_site_builds_strictly(tmp_path):
    """The MkDocs site (docs/ + the API reference from the docstrings by mkdocstrings) builds
    with --strict: no broken link, no docstring that does not match its signature."""
    import subprocess
    import sys

    import mkdocs  # noqa: F401 - the test extra installs the docs tools: missing is a failure
    import mkdocstrings  # noqa: F401
    # as a user types it: no -q, no environment set for the test (issue 23)
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "site")],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    warned = [ln for ln in (run.stderr + run.stdout).splitlines() if ln.lstrip().startswith("WARNING")]
    assert not warned, warned[:10]
    assert (tmp_path / "site" / "api" / "index.html").is_file()
