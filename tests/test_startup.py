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
