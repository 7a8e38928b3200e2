"""Build hook: compile cgtalg's C kernels next to their sources.

Hatchling builds pure-Python wheels; this hook adds the extension modules, each compiled with
the C compiler Python was built with (``sysconfig``), for editable installs (in place) and for
wheels (as artifacts, with a platform tag):

- ``cgtalg/nimbers/_nimc.c``: the ordinal nimber arithmetic (``cgtalg.nimbers.compiled``);
- ``cgtalg/quotients/_quotc.c``: the searches of the misère-quotient construction
  (``cgtalg.quotients.kernel``);
- ``cgtalg/normal/_pgc.c``: the canonical-form engine for short partizan games, with the
  searches of Domineering, Clobber, Konane, Snort and Col (``cgtalg.normal.partizan_kernel``;
  its sources ``_pgc_core.c``, ``_pgc_search.c``, ``_pgc_dom.c``, ``_pgc_grid.c``,
  ``_pgc_graph.c`` and ``_pgc.h`` are picked up by :func:`kernel_files`);
- ``cgtalg/rulesets/heaps/_heapc.c``: the misère search over multisets of heaps
  (``cgtalg.rulesets.heaps.heap_kernel``), so that ``cgtalg outcome ... --misere`` never loads
  numba (a second or more per process).

A kernel is split by topic into several files compiled together into one extension module:
its main source (named above, holding the module's table and ``PyInit``) and the ``.c`` /
``.h`` files beside it whose names start with the main source's stem (``_quotc_kept.c``,
``_quotc.h``, ...): :func:`kernel_files`. The hash compiled in (:func:`source_hash`) covers
all of them, so editing any one makes an existing build stale; the loaders
(``cgtalg.nimbers.compiled``, ``cgtalg.quotients.kernel``) compute the same hash.

Without a C compiler the build goes on with a warning and cgtalg uses its Python
implementation of the same computations; a compiler that refuses a kernel's sources fails the
build (a broken kernel must not pass as a fallback), unless ``CGTALG_ALLOW_KERNEL_FAILURE=1`` (``cgtalg.nimbers.compiled.status()`` and
``cgtalg.quotients.kernel.status()`` tell which one is in use).
"""

from __future__ import annotations

import hashlib
import os
import shlex
import subprocess
import sys
import sysconfig
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: (main source, macro that receives the hash of the kernel's files) of every kernel
KERNELS = (
    (Path("cgtalg") / "nimbers" / "_nimc.c", "CGTALG_NIMC_SOURCE_HASH"),
    (Path("cgtalg") / "quotients" / "_quotc.c", "CGTALG_QUOTC_SOURCE_HASH"),
    (Path("cgtalg") / "normal" / "_pgc.c", "CGTALG_PGC_SOURCE_HASH"),
    (Path("cgtalg") / "rulesets" / "heaps" / "_heapc.c", "CGTALG_HEAPC_SOURCE_HASH"),
)
SOURCE = KERNELS[0][0]


def kernel_files(src: Path) -> list[Path]:
    """The files of the kernel whose main source is ``src``: the ``.c`` and ``.h`` files beside
    it whose names start with its stem (``src`` itself among them), sorted by name."""
    return sorted(
        (p for p in src.parent.glob(src.stem + "*") if p.suffix in (".c", ".h") and p.is_file()),
        key=lambda p: p.name,
    )


def source_hash(src: Path) -> str:
    """The first 16 hex digits of the SHA-256 of the kernel's files (:func:`kernel_files`), each
    fed as its name, a NUL, its length in bytes, a NUL, then its bytes (the loaders compute
    the same digest to refuse a build of other sources)."""
    digest = hashlib.sha256()
    for path in kernel_files(src):
        data = path.read_bytes()
        digest.update(f"{path.name}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()[:16]


def compile_kernel(root: Path, source: Path = SOURCE, macro: str = "CGTALG_NIMC_SOURCE_HASH") -> Path:
    """Compile the kernel whose main C file is ``source`` (relative to ``root``), with every
    ``.c`` file of :func:`kernel_files`, into one extension module in place; return its path.
    The hash of all the kernel's files (:func:`source_hash`) is compiled in (as ``macro``), so
    a loader can refuse a build of another version of the sources."""
    src = root / source
    sources = [str(p) for p in kernel_files(src) if p.suffix == ".c"]
    out = src.with_name(src.stem + (sysconfig.get_config_var("EXT_SUFFIX") or ".so"))
    cc = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")
    cmd = [
        *cc, "-O2", "-fPIC", "-shared", "-std=c11", "-Wall",
        f'-D{macro}="{source_hash(src)}"',
        "-I", sysconfig.get_paths()["include"], *sources, "-o", str(out),
    ]
    if sys.platform == "darwin":
        cmd[len(cc):len(cc)] = ["-undefined", "dynamic_lookup"]
    subprocess.run(cmd, check=True, capture_output=True, text=True)
    return out


class CustomBuildHook(BuildHookInterface):
    """Compiles the C kernels for the ``wheel`` target (regular and editable)."""

    def initialize(self, version: str, build_data: dict) -> None:
        if self.target_name != "wheel" or os.environ.get("CGTALG_NO_COMPILE"):
            return
        root = Path(self.root)
        for source, macro in KERNELS:
            try:
                out = compile_kernel(root, source, macro)
            except OSError as exc:          # no compiler at all: the Python path runs
                self.app.display_warning(
                    f"cgtalg: the C kernel {source} was not compiled (no C compiler: {exc}); "
                    "the Python implementation will be used"
                )
                continue
            except subprocess.CalledProcessError as exc:
                # a compiler that refuses the sources is a broken kernel, never a silent fallback
                # (CGTALG_ALLOW_KERNEL_FAILURE=1 turns it back into a warning, for a broken toolchain)
                detail = (exc.stderr or str(exc)).strip()
                if os.environ.get("CGTALG_ALLOW_KERNEL_FAILURE", "") not in ("", "0"):
                    self.app.display_warning(f"cgtalg: the C kernel {source} did not compile ({detail[:400]}); "
                                             "the Python implementation will be used")
                    continue
                raise RuntimeError(
                    f"cgtalg: the C kernel {source} does not compile with {exc.cmd[0]}:\n{detail[-4000:]}\n"
                    "(fix the C sources; CGTALG_NO_COMPILE=1 installs without kernels, "
                    "CGTALG_ALLOW_KERNEL_FAILURE=1 turns this error into a warning)") from None
            build_data["pure_python"] = False
            build_data["infer_tag"] = True
            build_data["artifacts"].append(str(out.relative_to(root)))
