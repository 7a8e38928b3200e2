"""The command line shared by the resumable Nim-position verification tools
(``tools/nim_position_classes.py``, ``tools/verify_partizan_nim.py``).

``--time`` takes the duration every cgtalg command takes (``90``, ``90s``, ``10m``, ``2h``;
:func:`cgtalg.cli.common.add_time_arguments`; the old ``--budget`` still works until cgtalg 0.3,
with a note on stderr),
``--max-size N``, ``--store URL``, ``--json``, ``--no-progress``. The argument parsing lives
here, beside the tools; the library (:mod:`cgtalg.misere.nim_positions`) has none.
"""

from __future__ import annotations

import argparse
from typing import Any

from cgtalg.cli.common import TimePart, add_time_arguments, resolve_time_arguments
from cgtalg.misere.nim_positions import MAX_CLASS_SIZE

__all__ = ["tool_arguments", "parse_tool_arguments"]


def tool_arguments(description: str) -> argparse.ArgumentParser:
    """The parser of the shared options; a tool adds its own and reads the arguments with
    :func:`parse_tool_arguments`."""
    ap = argparse.ArgumentParser(description=description)
    add_time_arguments(ap, TimePart(None, "time", 600.0, "time budget", ("--budget",)))
    ap.add_argument("--max-size", type=int, default=MAX_CLASS_SIZE,
                    help=f"largest total size to check (default and limit {MAX_CLASS_SIZE})")
    ap.add_argument("--store", default=None, help="store URL or SQLite path (default: the user store)")
    ap.add_argument("--json", action="store_true", help="print the result as JSON")
    ap.add_argument("--no-progress", action="store_true", help="no progress bar")
    return ap


def parse_tool_arguments(ap: argparse.ArgumentParser, argv: list[str] | None) -> Any:
    """Parse and check the arguments (a usage error on a size outside 0..MAX_CLASS_SIZE)."""
    args = resolve_time_arguments(ap, ap.parse_args(argv))
    if not 0 <= args.max_size <= MAX_CLASS_SIZE:
        ap.error(f"--max-size must be in 0..{MAX_CLASS_SIZE}, got {args.max_size}")
    return args
