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
