"""Lazy imports (issue 21, parts 1 and 5): a fresh process computing a small misère quotient,
or answering a misère outcome from a stored quotient, imports no numba, networkx, sympy or
Alembic; numba loads only when a numba kernel is called, Alembic only to migrate a store.

Checked in fresh interpreters through ``sys.modules`` (no timing asserts), so that the test
process's own imports cannot hide a regression. Reference values: the Grundy sequence of
Dawson's Kayles (0.07) from Winning Ways ch. 4, and Kayles' (0.77) misère quotient of order 40
with a P-portion of 9 elements (Plambeck & Siegel 2008, Table 1).
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
HEAVY = ("numba", "scipy", "networkx", "sympy", "alembic")
CLI = "import sys\nfrom cgtalg.cli.main import main\nsys.argv = ['cgtalg', *{args!r}]\ntry:\n    main()\nexcept SystemExit as e:\n    assert not e.code, e.code\n"


def _loaded_after(code: str, env: dict | None = None) -> list[str]:
    """The modules of :data:`HEAVY` loaded after running ``code`` in a fresh interpreter."""
    probe = code + f"\nimport sys, json\nprint(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))"
    env = {**os.environ, **(env or {}), "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_quotient_modules_import_nothing_heavy():
    assert _loaded_after("import cgtalg.quotients.construct\nimport cgtalg.rulesets.heaps.octal") == []


def test_quotient_of_kayles_imports_nothing_heavy():
    """What ``benchmarks/bench_miseresolver.py`` runs in its fresh processes."""
    code = (
        "from cgtalg.quotients.construct import misere_quotient\n"
        "from cgtalg.rulesets.heaps.octal import TakeAndBreak\n"
        "q = misere_quotient(TakeAndBreak('0.77'), max_heap=169, progress=False)\n"
        "assert (q.order, len(q.p_portion), q.final) == (40, 9, True), (q.order, len(q.p_portion))\n"
    )
    assert _loaded_after(code) == []


def test_quotient_from_the_root_imports_nothing_heavy():
    code = (
        "import cgtalg as cg\n"
        "from cgtalg.rulesets.heaps.octal import TakeAndBreak\n"
        "assert cg.misere_quotient(TakeAndBreak('0.77')).order == 40\n"
    )
    assert _loaded_after(code) == []


def test_kernels_compile_on_first_call():
    """Importing the Grundy kernels costs no numba; small work runs the kernels' Python code
    (no numba); the first call on large work compiles every kernel of the module (they become
    numba dispatchers) and the answers are right (Dawson's Kayles, Winning Ways ch. 4)."""
    code = (
        "import sys\n"
        "from cgtalg.rulesets.heaps import grundy_kernels as K\n"
        "from cgtalg.rulesets.heaps.lazy_jit import LazyKernel\n"
        "assert 'numba' not in sys.modules and isinstance(K.naive_kernel, LazyKernel)\n"
        "from cgtalg.rulesets.heaps.octal import TakeAndBreak\n"
        "assert 'numba' not in sys.modules\n"
        "g = [int(v) for v in TakeAndBreak('0.07').grundy_sequence(20)]\n"
        "assert g == [0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3], g\n"
        "assert 'numba' not in sys.modules and isinstance(K.naive_kernel, LazyKernel)\n"
        "G = TakeAndBreak('0.07').grundy_sequence(5000)\n"
        "assert [int(v) for v in G[:20]] == g\n"
        "import numba\n"
        "assert all(not isinstance(getattr(K, n), LazyKernel) for n in K.__all__)\n"
        "assert isinstance(K.naive_kernel, numba.core.registry.CPUDispatcher)\n"
    )
    assert "numba" in _loaded_after(code)


def test_stale_kernel_reference_forwards_to_the_compiled_one():
    from cgtalg.rulesets.heaps import grundy_kernels as K
    from cgtalg.rulesets.heaps.lazy_jit import LazyKernel, njit

    kept = LazyKernel(K.max_of.py_func, {"cache": True})
    import numpy as np

    assert kept(np.array([3, 9, 2], dtype=np.uint8), 3) == 9
    assert njit(cache=True)(K.max_of.py_func).py_func is K.max_of.py_func


def test_outcome_from_a_stored_quotient_imports_nothing_heavy(tmp_path):
    # the application (not the fast path of cgtalg.cli.fast, which ends its process when it has
    # answered, and imports less still: tests/test_quotient_tiny.py)
    env = {"CGTALG_STORE": str(tmp_path / "store.sqlite"), "CGTALG_NO_FAST": "1"}
    # a new store is created at the head schema through sqlite3 (cgtalg.store.create): no Alembic
    assert "alembic" not in _loaded_after(CLI.format(args=["quotient", "0.77"]), env)
    code = CLI.format(args=["outcome", "0.77", "7", "9", "11", "13", "--misere", "--json"])
    assert _loaded_after(code, env) == []


def test_quotient_cli_without_store_imports_nothing_heavy():
    assert _loaded_after(CLI.format(args=["quotient", "0.123", "--no-store"]), {"CGTALG_NO_FAST": "1"}) == []


def test_schema_head_read_without_alembic_agrees_with_alembic():
    from alembic.script import ScriptDirectory

    from cgtalg.store import migrate

    script = ScriptDirectory.from_config(migrate.alembic_config())
    graph = migrate.read_script_revisions(migrate.migrations_dir() / "versions")
    assert set(graph) == {s.revision for s in script.walk_revisions()}
    assert [migrate.head_revision()] == list(script.get_heads())
    assert migrate.known_revisions() == frozenset(graph)


def test_revision_reader_refuses_what_it_cannot_follow(tmp_path):
    from cgtalg.store.migrate import read_script_revisions

    (tmp_path / "0001_a.py").write_text('revision = "0001"\ndown_revision = None\n')
    (tmp_path / "0002_b.py").write_text('revision: str = "0002"\ndown_revision: str | None = "0001"\n')
    (tmp_path / "__init__.py").write_text("")
    assert read_script_revisions(tmp_path) == {"0001": (), "0002": ("0001",)}
    (tmp_path / "0003_c.py").write_text('revision = make_id()\ndown_revision = "0002"\n')
    assert read_script_revisions(tmp_path) is None


def test_lazy_packages_export_their_names():
    import cgtalg.misere as M
    import cgtalg.rulesets as R

    for package in (M, R):
        assert package.__all__, package
        for name in package.__all__:
            assert getattr(package, name) is not None, (package.__name__, name)
        assert set(package.__all__) <= set(dir(package))
    from cgtalg.rulesets.heaps.octal import TakeAndBreak

    assert R.TakeAndBreak is TakeAndBreak


def test_kernels_compile_without_a_writable_cache():
    """numba refuses ``cache=True`` when no cache directory is writable (a read-only
    installation and home); the kernels then compile without the cache and still answer
    (Dawson's Kayles, Winning Ways ch. 4)."""
    code = (
        "import numba.core.caching as C\n"
        "C.CacheImpl._locator_classes = []  # no writable place: numba raises 'cannot cache'\n"
        "from cgtalg.rulesets.heaps.octal import TakeAndBreak\n"
        "G = TakeAndBreak('0.07').grundy_sequence(3000)\n"
        "assert [int(v) for v in G[:10]] == [0, 0, 1, 1, 2, 0, 3, 1, 1, 0]\n"
        "from cgtalg.rulesets.heaps import grundy_kernels as K\n"
        "assert type(K.naive_kernel._cache).__name__ == 'NullCache', K.naive_kernel._cache\n"
    )
    assert "numba" in _loaded_after(code)
