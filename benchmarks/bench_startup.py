"""Start-up benchmark (issue 8): median wall time of fresh interpreters, as ratios to the
issue's baseline ``python -c "import click, sqlalchemy"`` measured in the same run.

Run:  PYTHONPATH=. python benchmarks/bench_startup.py [N]     (N runs each, default 7)
Target: ``cgtalg --help`` and ``--version`` within 2.5x of the baseline.
"""

from __future__ import annotations

import os
import pathlib
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
CLI = "import sys; from cgtalg.cli.main import main; sys.exit(main(sys.argv[1:]))"
CASES = [
    ("baseline: import click, sqlalchemy", ["-c", "import click, sqlalchemy"]),
    ("import cgtalg", ["-c", "import cgtalg"]),
    ("cgtalg --version", ["-c", CLI, "--version"]),
    ("cgtalg --help", ["-c", CLI, "--help"]),
    ("cgtalg store path", ["-c", CLI, "store", "path"]),
    ("cgtalg cousin 0.07", ["-c", CLI, "cousin", "0.07"]),
]


def _median_seconds(args: list[str], runs: int) -> float:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, *args], env=env, cwd=ROOT, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    results = [(label, _median_seconds(args, runs)) for label, args in CASES]
    base = results[0][1]
    print(f"median of {runs} runs each")
    for label, seconds in results:
        print(f"{label:40s} {seconds * 1000:8.0f} ms   {seconds / base:5.2f}x baseline")


if __name__ == "__main__":
    main()
