"""Start-up guards (issue 8): ``import cgtalg`` and ``cgtalg --help`` stay free of heavy modules.

Source: the issue's measurement (sympy 0.53 s, numba, the rulesets 0.36 s on import); checked in
a fresh interpreter so the test process's own imports cannot hide a regression.
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
HEAVY = ("numba", "sympy", "numpy", "networkx", "matplotlib", "sqlalchemy")


def _loaded_after(code: str) -> list[str]:
    probe = code + f"\nimport sys, json\nprint(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))"
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, cwd=ROOT, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_import_cgtalg_loads_no_heavy_module():
    assert _loaded_after("import cgtalg") == []


def test_version_attribute_loads_no_heavy_module():
    assert _loaded_after("import cgtalg; assert cgtalg.__version__") == []


def test_every_public_name_resolves():
    import cgtalg

    for name in cgtalg.__all__:
        assert getattr(cgtalg, name) is not None, name
    assert set(cgtalg.__all__) <= set(dir(cgtalg))


def test_unknown_name_is_an_attribute_error():
    import cgtalg
    import pytest

    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        cgtalg.no_such_name  # noqa: B018


def test_lazy_name_is_the_real_object():
    import cgtalg
    from cgtalg.core import parse

    assert cgtalg.parse is parse


_CLI = "import sys\nfrom cgtalg.cli.main import main\nsys.argv = ['cgtalg', {args}]\ntry:\n    main()\nexcept SystemExit:\n    pass\n"


def test_cli_help_and_version_load_no_heavy_module():
    for args in ("'--help'", "'--version'"):
        assert _loaded_after(_CLI.format(args=args)) == [], args


def test_store_path_loads_no_alembic():
    probe = _CLI.format(args="'store', 'path'") + "import sys\nassert 'alembic' not in sys.modules\nassert 'numba' not in sys.modules"
    assert "sympy" not in _loaded_after(probe)


def test_lazy_command_table_matches_the_commands():
    """Every command listed without import exists in its module, with the same short help."""
    import click
    import click.testing

    from cgtalg.cli.main import LAZY_COMMANDS, _register, cli

    _register()
    assert set(cli.commands) == set(LAZY_COMMANDS)
    for name, (_module, short) in LAZY_COMMANDS.items():
        assert cli.commands[name].get_short_help_str(limit=45) == short, name
    assert click.testing.CliRunner().invoke(cli, ["--version"]).output == "cgtalg, version 0.2.0\n"
