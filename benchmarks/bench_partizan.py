"""Benchmark: canonical forms of Domineering rectangles against the Python peers, in one run.

Each (library, board) is timed in a fresh interpreter (no warm caches carried between boards or
libraries; imports are not timed):

* cgtalg: ``partizan_form(Domineering(), Domineering.rectangle(m, n))`` (memoised search over
  normalised components, canonical forms built bottom-up);
* pycgt (pure Python, PyPI ``pycgt``): ``pycgt.rulesets.domineering.rectangle(m, n)``;
* cgt-py (Rust, PyPI ``cgt-py``): ``cgt_py.Domineering(grid).canonical_form``.

The values are compared (each peer's printed value against cgtalg's, by parsing the peer's
output where the notation agrees, else by equality of the printed text after normalising).
Peers that are not installed are skipped: ``pip install 'cgtalg[bench]'`` installs them.

Usage::

    python benchmarks/bench_partizan.py [--quick] [--json] [--boards 2x8,4x4]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

BOARDS = ["2x8", "3x4", "4x4", "3x6", "4x5", "2x10", "3x7", "5x5"]
QUICK = ["2x8", "3x4", "4x4", "3x6"]

_CODE = {
    "cgtalg": """
import time
from cgtalg.rulesets.partizan_games import Domineering, partizan_form
import cgtalg.normal.partizan
d = Domineering()
t = time.perf_counter()
g = partizan_form(d, d.rectangle({m}, {n}))
dt = time.perf_counter() - t
print(dt)
print(str(g))
""",
    "pycgt": """
import time
from pycgt.rulesets.domineering import rectangle
from pycgt.notation import render
t = time.perf_counter()
g = rectangle({m}, {n})
dt = time.perf_counter() - t
print(dt)
print(render(g))
""",
    "cgt-py": """
import time
import cgt_py
grid = "|".join("." * {n} for _ in range({m}))
t = time.perf_counter()
g = cgt_py.Domineering(grid).canonical_form
dt = time.perf_counter() - t
print(dt)
print(str(g))
""",
}


def _run(lib: str, m: int, n: int, timeout: float) -> tuple[float | None, str]:
    try:
        out = subprocess.run([sys.executable, "-c", _CODE[lib].format(m=m, n=n)], capture_output=True,
                             text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, f"timeout > {timeout:.0f} s"
    if out.returncode != 0:
        last = (out.stderr.strip().splitlines() or ["failed"])[-1]
        return None, last
    lines = out.stdout.strip().splitlines()
    return float(lines[0]), lines[1] if len(lines) > 1 else ""


def _value_of(lib: str, text: str):
    """The peer's printed value as a cgtalg form (None when it cannot be read)."""
    try:
        from cgtalg.core.partizan_notation import parse_partizan

        t = text
        if t.startswith("CanonicalForm("):
            t = t[len("CanonicalForm('"):-2]
        return parse_partizan(t.replace("+-", "±"))
    except Exception:
        return None


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--boards", default=None)
    ap.add_argument("--timeout", type=float, default=600.0)
    args = ap.parse_args()
    boards = args.boards.split(",") if args.boards else (QUICK if args.quick else BOARDS)
    rows = []
    for b in boards:
        m, n = map(int, b.split("x"))
        row: dict = {"board": b}
        texts = {}
        for lib in ("cgtalg", "pycgt", "cgt-py"):
            dt, text = _run(lib, m, n, args.timeout)
            row[lib] = dt
            texts[lib] = text
            if dt is None:
                row[lib + "_note"] = text
        ours = _value_of("cgtalg", texts["cgtalg"]) if row["cgtalg"] is not None else None
        agree = {}
        for lib in ("pycgt", "cgt-py"):
            if row[lib] is None or ours is None:
                continue
            v = _value_of(lib, texts[lib])
            if v is not None:
                from cgtalg.normal.partizan import equal

                agree[lib] = equal(v, ours)
        row["value"] = texts["cgtalg"]
        row["agree"] = agree
        for lib in ("pycgt", "cgt-py"):
            if row["cgtalg"] and row[lib]:
                row[f"ratio_{lib}"] = round(row[lib] / row["cgtalg"], 2)
        rows.append(row)
        if not args.json:
            print(f"{b:>5}  cgtalg {row['cgtalg'] if row['cgtalg'] is None else round(row['cgtalg'], 3)!s:>8} s"
                  f"  pycgt {row['pycgt'] if row['pycgt'] is None else round(row['pycgt'], 3)!s:>8} s"
                  f"  cgt-py {row['cgt-py'] if row['cgt-py'] is None else round(row['cgt-py'], 4)!s:>8} s"
                  f"  pycgt/cgtalg {row.get('ratio_pycgt', '-')}  cgt-py/cgtalg {row.get('ratio_cgt-py', '-')}"
                  f"  agree {agree}  {texts['cgtalg'][:60]}")
    if args.json:
        print(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
