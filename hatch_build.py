"""Build hook: compile cgtalg's C kernels next to their sources.

Hatchling builds pure-Python wheels; this hook adds the extension modules, each compiled with
the C compiler Python was built with (``sysconfig``), for editable installs (in place) and for
wheels (as artifacts, with a platform tag):

- ``cgtalg/nimbers/_nimc.c``: the ordinal nimber arithmetic (``cgtalg.nimbers.compiled``);
- ``cgtalg/misere/_quotc.c``: the searches of the misère-quotient construction
  (``cgtalg.misere.quotient_kernel``).

Without a working compiler the build goes on with a warning and cgtalg uses its Python
implementation of the same computations (``cgtalg.nimbers.compiled.status()`` and
``cgtalg.misere.quotient_kernel.status()`` tell which one is in use).
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

#: (source, macro that receives the source's hash) of every kernel
KERNELS = (
    (Path("cgtalg") / "nimbers" / "_nimc.c", "CGTALG_NIMC_SOURCE_HASH"),
    (Path("cgtalg") / "misere" / "_quotc.c", "CGTALG_QUOTC_SOURCE_HASH"),
)
SOURCE = KERNELS[0][0]


def compile_kernel(root: Path, source: Path = SOURCE, macro: str = "CGTALG_NIMC_SOURCE_HASH") -> Path:
    """Compile the C file ``source`` (relative to ``root``) in place; return the path of the
    extension module. The first 16 hex digits of the source's SHA-256 are compiled in (as
    ``macro``), so a loader can refuse a build of another version of the source."""
    src = root / source
    digest = hashlib.sha256(src.read_bytes()).hexdigest()[:16]
    out = src.with_name(src.stem + (sysconfig.get_config_var("EXT_SUFFIX") or ".so"))
    cc = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")
    cmd = [
        *cc, "-O2", "-fPIC", "-shared", "-std=c11", "-Wall",
        f'-D{macro}="{digest}"',
        "-I", sysconfig.get_paths()["include"], str(src), "-o", str(out),
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
            except (OSError, subprocess.CalledProcessError) as exc:
                detail = getattr(exc, "stderr", "") or str(exc)
                self.app.display_warning(
                    f"cgtalg: the C kernel {source} was not compiled ({detail.strip()[:400]}); "
                    "the Python implementation will be used"
                )
                continue
            build_data["pure_python"] = False
            build_data["infer_tag"] = True
            build_data["artifacts"].append(str(out.relative_to(root)))
