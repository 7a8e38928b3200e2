"""Packaging guards: every folder of cgtalg/ ships, and the Alembic scripts are found."""

from __future__ import annotations

import importlib.resources
import pathlib
import tomllib

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_migrations_are_found():
    from cgtalg.store.migrate import migrations_dir

    assert (migrations_dir() / "env.py").is_file()
    assert (migrations_dir() / "versions").is_dir()


def test_wheel_ships_the_package_data_and_migrations(tmp_path):
    """Build the wheel with the project's backend (hatchling) and look inside it."""
    import subprocess
    import sys
    import zipfile

    pytest = __import__("pytest")
    import hatchling  # noqa: F401 - in the test extra: a missing build backend fails, never skips
    out = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w", str(tmp_path), str(ROOT)],
        capture_output=True, text=True,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    (wheel,) = tmp_path.glob("cgtalg-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "cgtalg/_migrations/env.py" in names
    assert any(n.startswith("cgtalg/_migrations/versions/") and n.endswith(".py") for n in names)
    data = {p.relative_to(ROOT).as_posix() for p in (ROOT / "cgtalg" / "data").iterdir() if p.is_file()}
    assert data <= names, sorted(data - names)


def test_a_folder_named_cgtalg_in_the_cwd_does_not_shadow_the_package(tmp_path):
    """Issue 7's namespace trap: running from the clone's parent folder."""
    import os
    import subprocess
    import sys

    pytest = __import__("pytest")
    if any("__editable__" in str(getattr(f, "__module__", "")) for f in sys.meta_path):
        pytest.skip("this environment's cgtalg was installed with the old setuptools backend (an editable "
                    "meta-path finder); reinstall with `pip install -e .` to test the hatchling install")
    (tmp_path / "cgtalg").mkdir()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = subprocess.run([sys.executable, "-c", "import cgtalg; print(cgtalg.parse)"],
                         cwd=tmp_path, capture_output=True, text=True, env=env)
    assert out.returncode == 0 and "function parse" in out.stdout, out.stderr[-1000:]


def test_public_api_names():
    import cgtalg as cg

    for name in cg.__all__:
        assert hasattr(cg, name), name


def test_no_reexport_hides_a_submodule():
    """``import cgtalg.x.y as m`` must give the module y, not a re-exported function named y."""
    import importlib
    import types

    for path in (ROOT / "cgtalg").rglob("*.py"):
        rel = path.relative_to(ROOT).with_suffix("")
        if rel.name == "__init__":
            continue
        name = ".".join(rel.parts).replace("cgtalg._migrations", "")
        if not name or "migrations" in rel.parts:
            continue
        importlib.import_module(name)
        parent, _, child = name.rpartition(".")
        attr = getattr(importlib.import_module(parent), child)
        assert isinstance(attr, types.ModuleType), f"{parent}.{child} is {attr!r}, hiding the module {name}"


def test_lazy_table_does_not_shadow_a_submodule():
    """A public name equal to a submodule's name must resolve to that very module: in the
    lazy_loader stub it is imported as the module (``from . import name``), never as an
    attribute of another module; and every name of the stub is public."""
    import ast

    import cgtalg as cg

    submodules = {p.stem for p in (ROOT / "cgtalg").glob("*.py") if p.stem != "__init__"}
    submodules |= {p.name for p in (ROOT / "cgtalg").iterdir() if (p / "__init__.py").exists()}
    stub = ast.parse((ROOT / "cgtalg" / "__init__.pyi").read_text())
    names = []
    for node in stub.body:
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                names.append(alias.name)
                if alias.name in submodules:
                    assert node.module is None, f"cgtalg.{alias.name} would hide the submodule"
    assert set(names) <= set(cg.__all__), sorted(set(names) - set(cg.__all__))
    for name in names:
        getattr(cg, name)
