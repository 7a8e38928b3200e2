"""The command line shared by the resumable Nim-position verification tools
(``tools/nim_position_classes.py``, ``tools/verify_partizan_nim.py``).

``--time`` takes the duration every cgtalg command takes (``90``, ``90s``, ``10m``, ``2h``;
read by :func:`cgtalg.budget.parse_duration`; ``--budget`` is accepted as its old name),
``--max-size N``, ``--store URL``, ``--json``, ``--no-progress``. The argument parsing lives
here, beside the tools; the library (:mod:`cgtalg.misere.nim_positions`) has none.
"""

from __future__ import annotations

import argparse
from typing import Any

from cgtalg.budget import parse_duration
from cgtalg.errors import BudgetError
from cgtalg.misere.nim_positions import MAX_CLASS_SIZE

__all__ = ["tool_arguments", "parse_tool_arguments"]


def _duration(text: str) -> float:
    try:
        return parse_duration(text)
    except BudgetError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def tool_arguments(description: str) -> argparse.ArgumentParser:
    """The parser of the shared options; a tool adds its own and reads the arguments with
    :func:`parse_tool_arguments`."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--time", "--budget", dest="time", type=_duration, default=600.0,
                    help="time budget: 90, 90s, 10m, 1.5h (default 600 seconds)")
    ap.add_argument("--max-size", type=int, default=MAX_CLASS_SIZE,
                    help=f"largest total size to check (default and limit {MAX_CLASS_SIZE})")
    ap.add_argument("--store", default=None, help="store URL or SQLite path (default: the user store)")
    ap.add_argument("--json", action="store_true", help="print the result as JSON")
    ap.add_argument("--no-progress", action="store_true", help="no progress bar")
    return ap


def parse_tool_arguments(ap: argparse.ArgumentParser, argv: list[str] | None) -> Any:
    """Parse and check the arguments (a usage error on a size outside 0..MAX_CLASS_SIZE)."""
    args = ap.parse_args(argv)
    if not 0 <= args.max_size <= MAX_CLASS_SIZE:
        ap.error(f"--max-size must be in 0..{MAX_CLASS_SIZE}, got {args.max_size}")
    return args
