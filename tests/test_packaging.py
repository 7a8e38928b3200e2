"""Packaging guards: every folder of cgtalg/ ships, and the Alembic scripts are found."""

from __future__ import annotations

import importlib.resources
import pathlib
import tomllib

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_every_subpackage_is_listed_in_pyproject():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    folders = {
        "cgtalg" + ("." + ".".join(p.relative_to(ROOT / "cgtalg").parts) if p != ROOT / "cgtalg" else "")
        for p in (ROOT / "cgtalg").rglob("*")
        if p.is_dir() and (p / "__init__.py").exists()
    } | {"cgtalg"}
    assert folders <= listed, f"add to pyproject.toml [tool.setuptools] packages: {sorted(folders - listed)}"


def test_migrations_ship_with_the_package():
    root = importlib.resources.files("cgtalg._migrations")
    assert root.joinpath("versions").is_dir()


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
    """A lazy public name equal to a submodule's name must resolve to that very module."""
    import cgtalg as cg

    submodules = {p.stem for p in (ROOT / "cgtalg").glob("*.py") if p.stem != "__init__"}
    submodules |= {p.name for p in (ROOT / "cgtalg").iterdir() if (p / "__init__.py").exists()}
    for name, (module, attribute) in cg._LAZY.items():
        if name in submodules:
            assert (module, attribute) == (f"cgtalg.{name}", None), f"cgtalg.{name} would hide the submodule"
    assert set(cg._LAZY) <= set(cg.__all__), sorted(set(cg._LAZY) - set(cg.__all__))
