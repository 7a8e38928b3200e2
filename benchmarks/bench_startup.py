"""Start-up benchmark (issues 8, 21 and 23): median wall time of fresh interpreters, as ratios
to the issue-8 baseline ``python -c "import click, sqlalchemy"`` measured in the same run, and
the heavy modules each one loaded.

Run:  PYTHONPATH=. python benchmarks/bench_startup.py [N] [--markdown] [--against DIR] [--light] [--url]
(N fresh processes per command, default 5; ``--markdown`` prints the table of
docs/performance.md, "Time per command"; ``--against DIR`` times another checkout of cgtalg,
e.g. ``main``, in the same run, interleaved command by command, as a "before" column;
``--light`` times only the light commands and the three reference rows; ``--url`` names the
store by a SQLAlchemy URL, ``CGTALG_STORE=sqlite:////tmp/.../store.sqlite``, instead of its path:
issue 33, a URL store runs the light commands as fast as a plain path).

Every command runs once before it is timed (warm: the store exists and holds what the command
stores, Python's bytecode caches are written, numba's on-disk cache too when numba runs), in
the same temporary store; the children write bytecode even when the caller sets
``PYTHONDONTWRITEBYTECODE``, as a user's installation does.

Targets: ``cgtalg --help`` and ``--version`` within 2.5x of the baseline (issue 8); a small
misère quotient in a fresh process and ``cgtalg outcome 0.77 7 9 11 13 --misere`` import no
numba, networkx, sympy or Alembic (issue 21); the light commands of issue 23 -- ``game``,
``nim mul/add/pow``, ``outcome`` in normal and misère play on small heaps, ``grundy -n 100``,
``period 0.07``, ``value domineering 4x4`` -- answer under 0.3 s warm (wall time), importing
no SQLAlchemy (a store file at the newest schema is read and written through ``sqlite3``,
:mod:`cgtalg.store.light`), numba, scipy, sympy, networkx or Alembic: small Grundy
computations run the kernels' Python code, small misère positions a plain memoised search
whose answers and winning moves are stored, a stored period or quotient is re-verified on the
few values its certificate needs, and the nimbers' GF(2^16) tables are read from their cache
file (numba only when a numba kernel has real work: the ``--no-store`` rows at the end). The
misère outcome is timed twice: searched (a store without a quotient of 0.77) and from Kayles'
final quotient, stored by ``cgtalg quotient 0.77`` before the runs (re-verified when read).
Beside the baseline, the same run times ``python -c pass`` (the interpreter's own start, the
floor of any command) and ``python -c "import click, numpy"`` (the floor of a command that
needs numpy's arrays, as the heap games' Grundy engine does).
"""

from __future__ import annotations

import datetime
import json
import os
import pathlib
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
CLI = "import sys; from cgtalg.cli.main import main; sys.exit(main(sys.argv[1:]))"
HEAVY = ("numpy", "numba", "scipy", "networkx", "sympy", "sqlalchemy", "alembic", "matplotlib")
QUOTIENT = ("from cgtalg.quotients.construct import misere_quotient; "
            "from cgtalg.rulesets.heaps.octal import TakeAndBreak; "
            "misere_quotient(TakeAndBreak('0.77'), max_heap=169, progress=False)")
ROOT_API = "import cgtalg as cg; cg.misere_quotient(cg.TakeAndBreak('0.77'))"
MISERE = ["outcome", "0.77", "7", "9", "11", "13", "--misere"]
#: (label, interpreter arguments, which store: "plain" (no quotient of 0.77) or "quotient")
CASES = [
    ("baseline: import click, sqlalchemy", ["-c", "import click, sqlalchemy"], "plain"),
    ("floor: python -c pass", ["-c", "pass"], "plain"),
    ("reference: import click, numpy", ["-c", "import click, numpy"], "plain"),
    ("import cgtalg", ["-c", "import cgtalg"], "plain"),
    ("cgtalg --version", ["-c", CLI, "--version"], "plain"),
    ("cgtalg --help", ["-c", CLI, "--help"], "plain"),
    ("cgtalg store path", ["-c", CLI, "store", "path"], "plain"),
    ("cgtalg cousin 0.07", ["-c", CLI, "cousin", "0.07"], "plain"),
    # the light commands of issue 23
    ("cgtalg game '{*2}'", ["-c", CLI, "game", "{*2}"], "plain"),
    ("cgtalg nim mul w w", ["-c", CLI, "nim", "mul", "w", "w"], "plain"),
    ("cgtalg nim add w+1 5", ["-c", CLI, "nim", "add", "w+1", "5"], "plain"),
    ("cgtalg nim pow w 3", ["-c", CLI, "nim", "pow", "w", "3"], "plain"),
    ("cgtalg outcome 0.77 5 9", ["-c", CLI, "outcome", "0.77", "5", "9"], "plain"),
    ("cgtalg outcome 0.77 7 9 11 13 --misere (searched)", ["-c", CLI, *MISERE], "plain"),
    ("cgtalg outcome 0.77 7 9 11 13 --misere (stored quotient)", ["-c", CLI, *MISERE], "quotient"),
    ("cgtalg grundy 0.77 -n 100", ["-c", CLI, "grundy", "0.77", "-n", "100"], "plain"),
    ("cgtalg period 0.07", ["-c", CLI, "period", "0.07"], "plain"),
    ("cgtalg value domineering 4x4", ["-c", CLI, "value", "domineering", "4x4"], "plain"),
    # heavier: a quotient computed in the process, a compiled search
    ("quotient of 0.77 (bench_miseresolver child)", ["-c", QUOTIENT], "plain"),
    ("cg.misere_quotient(0.77) from the root", ["-c", ROOT_API], "plain"),
    ("cgtalg quotient 0.123 --no-store", ["-c", CLI, "quotient", "0.123", "--no-store"], "plain"),
    ("  outcome 0.77 20 21 22 --misere --no-store (numba search)",
     ["-c", CLI, "outcome", "0.77", "20", "21", "22", "--misere", "--no-store"], "plain"),
]
#: the rows of the issue-23 table in docs/performance.md
LIGHT = [label for label, _, _ in CASES if label.startswith(("cgtalg game", "cgtalg nim", "cgtalg outcome",
                                                             "cgtalg grundy", "cgtalg period", "cgtalg value"))]
#: the rows printed above the light commands in the table: baseline, floor, numpy
REFERENCE = [label for label, _, _ in CASES[:3]]
#: the target of issue 23 for a light command, warm (seconds of wall time)
TARGET = 0.3

_PROBE = (
    "import atexit, json, sys\n"
    f"atexit.register(lambda: sys.stderr.write('HEAVY ' + json.dumps([m for m in {HEAVY!r} if m in sys.modules]) + '\\n'))\n"
)


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _run(args: list[str], env: dict) -> tuple[float, float, list[str]]:
    """Wall seconds and CPU seconds (user + system) of one fresh interpreter, and the heavy
    modules it had loaded at exit."""
    code = args[1]
    cpu = _cpu()
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", _PROBE + code, *args[2:]], env=env,
                         cwd=env.get("PYTHONPATH", ROOT), check=True, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    heavy = [line for line in out.stderr.splitlines() if line.startswith("HEAVY ")]
    return seconds, _cpu() - cpu, json.loads(heavy[-1][6:]) if heavy else []


def _median_seconds(args: list[str], runs: int, env: dict) -> tuple[float, float, list[str], tuple[float, float]]:
    """Median wall and CPU seconds of ``runs`` fresh processes (after one warm-up run, as
    hyperfine's ``--warmup 1``), the heavy modules loaded, and the least and greatest wall time."""
    _run(args, env)  # warm: the store, the bytecode and numba's caches are written
    measured = [_run(args, env) for _ in range(runs)]
    walls = [m[0] for m in measured]
    return (statistics.median(walls), statistics.median(m[1] for m in measured),
            measured[-1][2], (min(walls), max(walls)))


def _envs(tmp: str, root: pathlib.Path, tag: str, url: bool = False) -> dict:
    base = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    base["PYTHONPATH"] = str(root)
    prefix = "sqlite:///" if url else ""  # sqlite:////tmp/...: an absolute path
    envs = {name: {**base, "CGTALG_STORE": prefix + str(pathlib.Path(tmp) / f"{tag}-{name}.sqlite")}
            for name in ("plain", "quotient")}
    subprocess.run([sys.executable, "-c", CLI, "quotient", "0.77"], env=envs["quotient"], cwd=root,
                   check=True, capture_output=True)
    return envs


def measure(runs: int = 5, against: pathlib.Path | None = None, light_only: bool = False,
            url: bool = False) -> tuple[list, float]:
    """``([(label, median wall seconds, median CPU seconds, heavy modules loaded, (least, greatest)
    wall seconds, (wall, CPU) seconds of `against` or None)], load average)``, baseline first;
    with ``url`` the store is named by a ``sqlite:///`` URL."""
    with tempfile.TemporaryDirectory() as tmp:
        envs = _envs(tmp, ROOT, "here", url)
        other = _envs(tmp, against, "other", url) if against is not None else None
        load = os.getloadavg()[0]
        results = []
        for label, args, store in CASES:
            if light_only and label not in LIGHT and label not in REFERENCE:
                continue
            before = _median_seconds(args, runs, other[store])[:2] if other is not None else None
            results.append((label, *_median_seconds(args, runs, envs[store]), before))
    return results, load


def main() -> None:
    argv = sys.argv[1:]
    against = None
    if "--against" in argv:
        i = argv.index("--against")
        against = pathlib.Path(argv[i + 1]).resolve()
        del argv[i:i + 2]
    args = [a for a in argv if not a.startswith("--")]
    runs = int(args[0]) if args else 5
    results, load = measure(runs, against, light_only="--light" in argv, url="--url" in argv)
    base, base_cpu = results[0][1], results[0][2]
    floor = results[1][1]
    for label, wall, cpu, heavy, spread, before in results:  # the full listing (on stderr with --markdown)
        was = f"  (before: {before[0] * 1000:6.0f} ms, CPU {before[1] * 1000:5.0f} ms)" if before else ""
        mark = ("  < 0.3 s" if wall < TARGET else "  >= 0.3 s") if label in LIGHT else ""
        print(f"{label:62s} {wall * 1000:7.0f} ms ({spread[0] * 1000:.0f}-{spread[1] * 1000:.0f})  "
              f"{wall / base:5.2f}x baseline  CPU {cpu * 1000:6.0f} ms  {cpu / base_cpu:5.2f}x baseline CPU"
              f"{mark}{was}  loads: {', '.join(heavy) or '-'}", file=sys.stderr if "--markdown" in sys.argv else sys.stdout)
    if "--markdown" in sys.argv:
        today = datetime.date.today().isoformat()
        print(f"Measured {today}, median of {runs} fresh processes each after one warm-up run, load "
              f"average {load:.2f} on {os.cpu_count()} cores; baseline `python -c \"import click, sqlalchemy\"` "
              f"{base * 1000:.0f} ms wall ({base_cpu * 1000:.0f} ms CPU), `python -c pass` {floor * 1000:.0f} ms.\n")
        head = ("| command | wall, median (ms) | wall, least–greatest (ms) | ratio to baseline (wall) | "
                "CPU (ms) | under 0.3 s | heavy modules loaded |")
        rule = "|---|---:|---:|---:|---:|---|---|"
        if against is not None:
            head, rule = head + " before: wall, CPU (ms) |", rule + "---:|"
        print(head)
        print(rule)
        for label, wall, cpu, heavy, spread, before in results:
            if label in LIGHT or label in REFERENCE:
                shown = label.replace("|", "\\|")
                was = f" {before[0] * 1000:.0f}, {before[1] * 1000:.0f} |" if before else ""
                under = ("yes" if wall < TARGET else "**no**") if label in LIGHT else ""
                print(f"| `{shown}` | {wall * 1000:.0f} | {spread[0] * 1000:.0f}–{spread[1] * 1000:.0f} | "
                      f"{wall / base:.2f} | {cpu * 1000:.0f} | {under} | {', '.join(heavy) or '-'} |{was}")
        return
    store = "a sqlite:/// URL" if "--url" in argv else "a plain path"
    print(f"median of {runs} runs each (warm); store named by {store}; load average {load:.2f}; "
          f"`python -c pass` {floor * 1000:.0f} ms")


if __name__ == "__main__":
    main()
