"""The library's hints reworded for the command line (no click: the fast path of
:mod:`cgtalg.cli.fast` prints through it too)."""

from __future__ import annotations

import re

__all__ = ["cli_wording"]

#: :func:`cgtalg.budget.memory_hint`'s advice, whatever ceiling it suggests
_MEMORY_WORDS = re.compile(r"pass a larger max_memory= \(on the command line: --memory, e\.g\. --memory "
                           r"(\d+G); or set CGTALG_MAX_MEMORY\)")

_CLI_WORDS = (
    ("pass a larger max_seconds= (on the command line: --time, e.g. --time 10m)",
     "pass a larger --time, e.g. --time 10m"),
    ("pass a larger max_field_degree=, on the command line --max-field-degree",
     "pass a larger --max-field-degree"),
    ("stopped at max_values = ", "stopped at --max-values "),
    ("pass a larger max_values to go on", "pass a larger --max-values to go on"),
    ("periodicity(max_values=...)", "`cgtalg period GAME --max-values N`"),
)


def cli_wording(text: str) -> str:
    """``text`` with the library's hints reworded for the command line: a message printed by a
    command names the command's options (``--time``), not the Python parameters
    (``max_seconds=``)."""
    for py, cli in _CLI_WORDS:
        if py in text:
            text = text.replace(py, cli)
    return _MEMORY_WORDS.sub(r"pass a larger --memory, e.g. --memory \1 (or set CGTALG_MAX_MEMORY)", text)
