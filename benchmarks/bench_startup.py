"""Start-up benchmark (issues 8 and 21): median wall time of fresh interpreters, as ratios to
the issue-8 baseline ``python -c "import click, sqlalchemy"`` measured in the same run, and the
heavy modules each one loaded.

Run:  PYTHONPATH=. python benchmarks/bench_startup.py [N]     (N runs each, default 7)

Targets: ``cgtalg --help`` and ``--version`` within 2.5x of the baseline (issue 8); a small
misère quotient in a fresh process (what ``benchmarks/bench_miseresolver.py`` runs) and
``cgtalg outcome 0.77 7 9 11 13 --misere`` import no numba, networkx, sympy or Alembic
(issue 21): numba only when a numba kernel runs (the ``--no-store`` outcome searches with
one), networkx only for the position solver, Alembic only to migrate a store. The stored
outcome reads Kayles' final quotient from a temporary store filled by ``cgtalg quotient
0.77`` before the runs.
"""

from __future__ import annotations

import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
CLI = "import sys; from cgtalg.cli.main import main; sys.exit(main(sys.argv[1:]))"
HEAVY = ("numpy", "numba", "scipy", "networkx", "sympy", "sqlalchemy", "alembic", "matplotlib")
QUOTIENT = ("from cgtalg.misere.quotient import misere_quotient; "
            "from cgtalg.rulesets.octal import TakeAndBreak; "
            "misere_quotient(TakeAndBreak('0.77'), max_heap=169, progress=False)")
ROOT_API = "import cgtalg as cg; cg.misere_quotient(cg.TakeAndBreak('0.77'))"
CASES = [
    ("baseline: import click, sqlalchemy", ["-c", "import click, sqlalchemy"]),
    ("import cgtalg", ["-c", "import cgtalg"]),
    ("cgtalg --version", ["-c", CLI, "--version"]),
    ("cgtalg --help", ["-c", CLI, "--help"]),
    ("cgtalg store path", ["-c", CLI, "store", "path"]),
    ("cgtalg cousin 0.07", ["-c", CLI, "cousin", "0.07"]),
    ("quotient of 0.77 (bench_miseresolver child)", ["-c", QUOTIENT]),
    ("cg.misere_quotient(0.77) from the root", ["-c", ROOT_API]),
    ("cgtalg quotient 0.123 --no-store", ["-c", CLI, "quotient", "0.123", "--no-store"]),
    ("cgtalg outcome 0.77 7 9 11 13 --misere (stored)", ["-c", CLI, "outcome", "0.77", "7", "9", "11", "13", "--misere"]),
    ("  the same, --no-store (numba search)", ["-c", CLI, "outcome", "0.77", "7", "9", "11", "13", "--misere", "--no-store"]),
]

_PROBE = (
    "import atexit, json, sys\n"
    f"atexit.register(lambda: sys.stderr.write('HEAVY ' + json.dumps([m for m in {HEAVY!r} if m in sys.modules]) + '\\n'))\n"
)


def _run(args: list[str], env: dict) -> tuple[float, list[str]]:
    """Wall seconds of one fresh interpreter and the heavy modules it had loaded at exit."""
    code = args[1]
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", _PROBE + code, *args[2:]], env=env, cwd=ROOT,
                         check=True, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    heavy = [line for line in out.stderr.splitlines() if line.startswith("HEAVY ")]
    return seconds, json.loads(heavy[-1][6:]) if heavy else []


def _median_seconds(args: list[str], runs: int, env: dict) -> tuple[float, list[str]]:
    measured = [_run(args, env) for _ in range(runs)]
    return statistics.median(s for s, _ in measured), measured[-1][1]


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "CGTALG_STORE": str(pathlib.Path(tmp) / "store.sqlite")}
        subprocess.run([sys.executable, "-c", CLI, "quotient", "0.77"], env=env, cwd=ROOT, check=True,
                       capture_output=True)
        results = [(label, *_median_seconds(args, runs, env)) for label, args in CASES]
    base = results[0][1]
    print(f"median of {runs} runs each; load average {os.getloadavg()[0]:.2f}")
    for label, seconds, heavy in results:
        print(f"{label:50s} {seconds * 1000:7.0f} ms  {seconds / base:5.2f}x baseline  "
              f"loads: {', '.join(heavy) or '-'}")


if __name__ == "__main__":
    main()
