"""Where a C compiler exists, every C kernel is built, fresh and in use (issue 32, item 6).

A kernel that cannot compile fails the install (hatch_build.py raises), and one that is
missing or stale fails here: CI never passes on the Python fallbacks by accident. Without a
compiler (or with ``CGTALG_PURE_PYTHON=1``) the test skips, saying why.
"""

from __future__ import annotations

import pytest

from conftest import kernels_expected


@pytest.mark.parametrize("loader", ["cgtalg.nimbers.compiled", "cgtalg.quotients.kernel",
                                    "cgtalg.normal.partizan_kernel"])
def test_every_kernel_is_compiled_where_a_compiler_exists(loader):
    import importlib

    if not kernels_expected():
        pytest.skip("no C compiler, or the Python path was asked for")
    mod = importlib.import_module(loader)
    assert mod.status() == "compiled", f"{loader}: {mod.status()} (rerun the install to rebuild the kernel)"


def test_a_compile_error_fails_the_build(tmp_path):
    """hatch_build's hook raises on a kernel the compiler refuses (never a silent warning)."""
    import subprocess
    import sys
    from pathlib import Path

    if not kernels_expected():
        pytest.skip("no C compiler")
    root = Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(root))
    try:
        import hatch_build
    finally:
        sys.path.remove(str(root))
    src = tmp_path / "cgtalg" / "misere"
    src.mkdir(parents=True)
    (src / "_broken.c").write_text("this is not C;\n")
    with pytest.raises(subprocess.CalledProcessError):
        hatch_build.compile_kernel(tmp_path, Path("cgtalg") / "misere" / "_broken.c", "X")

    class App:
        warnings: list = []

        def display_warning(self, text):
            self.warnings.append(text)

    hook = hatch_build.CustomBuildHook(str(tmp_path), {}, None, None, str(tmp_path), "wheel", App())
    old = hatch_build.KERNELS
    hatch_build.KERNELS = ((Path("cgtalg") / "misere" / "_broken.c", "X"),)
    try:
        with pytest.raises(RuntimeError, match="does not compile"):
            hook.initialize("0", {"artifacts": []})
    finally:
        hatch_build.KERNELS = old


@pytest.mark.parametrize("loader, stem", [("cgtalg.nimbers.compiled", "_nimc"), ("cgtalg.quotients.kernel", "_quotc"),
                                          ("cgtalg.normal.partizan_kernel", "_pgc")])
def test_every_wrapper_answers_through_its_one_kernel(loader, stem, monkeypatch):
    """The module-level functions of each wrapper (issue 33: written once, in cgtalg.ckernel)
    answer for the wrapper's own kernel: ``source_hash`` is the SHA-256 of its sources as
    hatch_build compiles it in, and ``CGTALG_PURE_PYTHON=1`` turns ``load``, ``status`` and
    ``available`` to the Python path until the decision is taken again."""
    import hashlib
    import importlib

    mod = importlib.import_module(loader)
    files = sorted((p for p in mod.KERNEL.directory.glob(stem + "*") if p.suffix in (".c", ".h")), key=lambda p: p.name)
    assert files and all(f.parent == mod.KERNEL.directory for f in files)
    digest = hashlib.sha256()
    for f in files:
        data = f.read_bytes()
        digest.update(f"{f.name}\0{len(data)}\0".encode() + data)
    assert mod.source_hash() == digest.hexdigest()[:16]
    assert {f.__module__ for f in (mod.load, mod.status, mod.available, mod.source_hash)} == {loader}
    try:
        monkeypatch.setenv("CGTALG_PURE_PYTHON", "1")
        mod.KERNEL.reset()
        assert (mod.load(), mod.available(), mod.status()) == (None, False, "disabled (CGTALG_PURE_PYTHON=1)")
    finally:
        monkeypatch.delenv("CGTALG_PURE_PYTHON")
        mod.KERNEL.reset()
    assert mod.available() == (mod.load() is not None) == (mod.status() == "compiled")
