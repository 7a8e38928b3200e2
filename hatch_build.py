"""Build hook: compile cgtalg's C kernel (``cgtalg/nimbers/_nimc.c``) next to its source.

Hatchling builds pure-Python wheels; this hook adds the one extension module, compiled with
the C compiler Python was built with (``sysconfig``), for editable installs (in place) and for
wheels (as an artifact, with a platform tag). Without a working compiler the build goes on
with a warning and cgtalg uses its Python implementation of the same arithmetic
(``cgtalg.nimbers.compiled.status()`` tells which one is in use).
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

SOURCE = Path("cgtalg") / "nimbers" / "_nimc.c"


def compile_kernel(root: Path) -> Path:
    """Compile ``_nimc.c`` in place; return the path of the extension module."""
    src = root / SOURCE
    digest = hashlib.sha256(src.read_bytes()).hexdigest()[:16]
    out = src.with_name("_nimc" + (sysconfig.get_config_var("EXT_SUFFIX") or ".so"))
    cc = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")
    cmd = [
        *cc, "-O2", "-fPIC", "-shared", "-std=c11", "-Wall",
        f'-DCGTALG_NIMC_SOURCE_HASH="{digest}"',
        "-I", sysconfig.get_paths()["include"], str(src), "-o", str(out),
    ]
    if sys.platform == "darwin":
        cmd[len(cc):len(cc)] = ["-undefined", "dynamic_lookup"]
    subprocess.run(cmd, check=True, capture_output=True, text=True)
    return out


class CustomBuildHook(BuildHookInterface):
    """Compiles the nimber kernel for the ``wheel`` target (regular and editable)."""

    def initialize(self, version: str, build_data: dict) -> None:
        if self.target_name != "wheel" or os.environ.get("CGTALG_NO_COMPILE"):
            return
        root = Path(self.root)
        try:
            out = compile_kernel(root)
        except (OSError, subprocess.CalledProcessError) as exc:
            detail = getattr(exc, "stderr", "") or str(exc)
            self.app.display_warning(
                f"cgtalg: the C kernel {SOURCE} was not compiled ({detail.strip()[:400]}); "
                "the Python implementation will be used"
            )
            return
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        build_data["artifacts"].append(str(out.relative_to(root)))
