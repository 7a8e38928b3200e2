"""Test-wide settings: no test reads or writes a developer's own default store."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def load_tool(name: str):
    """The module of the script ``tools/<name>.py`` (the tools are scripts, not a package),
    registered in ``sys.modules`` (dataclasses look their module up)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(autouse=True, scope="session")
def _isolated_default_store(tmp_path_factory):
    """Point $CGTALG_STORE at a throwaway file for the whole run (tests may override it)."""
    old = os.environ.get("CGTALG_STORE")
    os.environ["CGTALG_STORE"] = str(tmp_path_factory.mktemp("store") / "default.sqlite")
    os.environ.setdefault("MPLBACKEND", "Agg")
    yield
    if old is None:
        os.environ.pop("CGTALG_STORE", None)
    else:
        os.environ["CGTALG_STORE"] = old


@pytest.fixture(autouse=True)
def _forget_misere_quotients():
    """Misère quotients computed by one test are not known to the next: outcome/winning_moves
    with misere=True answer from a known quotient (issue 10), which would bypass the search
    that other tests exercise."""
    yield
    import sys

    mod = sys.modules.get("cgtalg.quotients.state")
    if mod is not None:
        mod.forget_known()


@pytest.fixture
def pg_url():
    """A fresh database on the PostgreSQL server of ``CGTALG_TEST_POSTGRES_URL`` (``.ci/run``
    starts one), dropped afterwards; the test is skipped, saying why, without a server."""
    import uuid

    admin_url = os.environ.get("CGTALG_TEST_POSTGRES_URL")
    if not admin_url:
        pytest.skip("no PostgreSQL server: set CGTALG_TEST_POSTGRES_URL (.ci/run does)")
    import sqlalchemy as sa

    name = f"cgtalg_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    yield sa.engine.make_url(admin_url).set(database=name).render_as_string(hide_password=False)
    with admin.connect() as conn:
        conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


def kernels_expected() -> bool:
    """Whether the C kernels must be in use: a C compiler exists and nothing asked for the Python
    path (``CGTALG_PURE_PYTHON``, ``CGTALG_NO_COMPILE``). There a kernel test never skips: a
    kernel that is not built is a failure (tests/test_kernels_built.py), not a fallback."""
    import shutil
    import sysconfig

    if any(os.environ.get(v, "") not in ("", "0") for v in ("CGTALG_PURE_PYTHON", "CGTALG_NO_COMPILE")):
        return False
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(cc) is not None


def skip_without_kernel(available: bool, status: str) -> pytest.MarkDecorator:
    """The mark of a kernel's test module: skip when the kernel is not in use *and* not
    expected (no compiler, or the Python path asked for); where it is expected the tests run,
    and fail if the kernel is missing."""
    return pytest.mark.skipif(not available and not kernels_expected(), reason=f"C kernel not in use: {status}")
