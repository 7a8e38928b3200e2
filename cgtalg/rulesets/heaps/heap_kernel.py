"""The compiled misère search over multisets of heaps: loading it.

``cgtalg/rulesets/heaps/_heapc.c`` (compiled at install time by the build hook
``hatch_build.py``) runs the search of :mod:`cgtalg.rulesets.heaps.misere_play` in C: a
``Memo`` (one per mode, outcome or misère Grundy value) holds the states met and the option
table, and ``Memo.solve`` walks down from a root for a bounded number of new states, without
the GIL. It exists because the numba kernel that does the same
(:mod:`cgtalg.rulesets.heaps._misere_kernel`) costs one to three seconds to load in each process
(importing numba, then its cache), far more than the searches a command usually asks for
(``cgtalg outcome 0.77 14 15 16 --misere``: ten thousand states, a few milliseconds).

When the extension is missing (no C compiler at install time), stale, or disabled with
``CGTALG_PURE_PYTHON=1``, the search runs as before: plain Python for a small search, the
numba kernel beyond; ``tests/test_heap_kernel.py`` checks that all give the same answers.

Examples
--------
>>> status() in ("compiled", "disabled (CGTALG_PURE_PYTHON=1)") or status().startswith("python")
True
"""

from __future__ import annotations

from pathlib import Path

from cgtalg.ckernel import CompiledKernel

__all__ = ["KERNEL", "load", "status", "source_hash", "available"]

#: the C kernel (:class:`cgtalg.ckernel.CompiledKernel`): which implementation runs, and why
KERNEL = CompiledKernel("cgtalg.rulesets.heaps._heapc", Path(__file__).parent, "_heapc", "misère heap-search kernel")
load, source_hash, status, available = KERNEL.functions(__name__)
