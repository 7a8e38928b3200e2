"""Whole fresh processes against their baselines, measured in the same run (issue 35, point 2:
"kernels that load in milliseconds; no throw-away search").

Three comparisons, each a pair of commands run alternately, ``--reps`` times each, every run a
new process (no store shared between runs, nothing warm but the OS's file cache):

* ``cgtalg outcome CODE HEAPS --misere --no-store`` against
  ``benchmarks/plain_misere_outcome.py CODE HEAPS`` (a memoised misère search over multisets of
  heaps written from the definition of the octal code, no library): the same answer (outcome
  and winning moves), ratio plain / cgtalg;
* ``cgtalg --store NEW quotient CODE`` (a new store file each run) against MisereSolver's
  driver (``java -cp BUILD org.cgsuite.core.misere.solver.Bench CODE HEAP 600``, built from
  ``../shared/peers/miseresolver`` with ``javac`` when a JDK is on the PATH; HEAP is the heap
  to which cgtalg's periodicity certificate checks), ratio MisereSolver / cgtalg; the orders
  printed must agree;
* the first Domineering 4x4 value: ``cg.canonical_form(cg.position('domineering', '4x4'))``
  against cgt-py's ``Domineering('....|....|....|....').canonical_form`` when ``cgt_py`` can be
  imported (``--cgt-py DIR`` adds DIR to its path: ``pip install --target DIR cgt-py``).

Reported per command: median CPU (user + system of the child, ``os.wait4``), median wall, peak
RSS; the ratio is of the CPU medians (above 1: cgtalg is faster), the wall ratio beside it (a
loaded machine inflates walls, not CPU).

Usage::

    python benchmarks/bench_fresh_process.py [--reps 5] [--only outcome,quotient,domineering]
        [--cgt-py DIR] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PEER = ROOT.parent / "shared" / "peers" / "miseresolver"

OUTCOMES = [("0.77", [14, 15, 16]), ("0.77", [7, 9, 11, 13])]
#: (code, heap to which the certificate of cgtalg's final quotient checks)
QUOTIENTS = [("0.77", 169), ("0.15", 155), ("0.123", 24), ("0.7", 8)]
#: the installed console script, verbatim (``sys.exit(main())``: the entry point reads ``sys.argv``)
CGTALG = [sys.executable, "-c", "import sys; from cgtalg.cli.main import main; sys.exit(main())"]


#: the children's environment: Python may write its bytecode caches (``PYTHONDONTWRITEBYTECODE``,
#: set in some sandboxes, would make every process compile the modules edited since their last
#: cache from source, about 0.15 s that no installed cgtalg pays)
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run(cmd: list[str], env: dict | None = None) -> dict:
    """Run ``cmd`` to its end: its output, wall seconds, CPU seconds and peak RSS (MB)."""
    env = ENV if env is None else env
    with tempfile.TemporaryFile() as fo:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=fo, stderr=subprocess.STDOUT, env=env, cwd=ROOT)
        _, status, ru = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        fo.seek(0)
        out = fo.read().decode(errors="replace")
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{out[-2000:]}")
    return {"out": out, "wall": wall, "cpu": ru.ru_utime + ru.ru_stime, "rss": ru.ru_maxrss / 1024}


def pair(label: str, ours: list[str], theirs: list[str], reps: int, check, env_ours=None, env_theirs=None) -> dict:
    """Run both commands alternately ``reps`` times (after one uncounted run of each: the
    bytecode caches); medians and ratios (theirs / ours)."""
    run(ours, env_ours)
    run(theirs, env_theirs)
    a, b = [], []
    for k in range(reps):
        order = [(a, ours, env_ours), (b, theirs, env_theirs)]
        for dest, cmd, env in (order if k % 2 == 0 else order[::-1]):
            dest.append(run(cmd, env))
    check(a[0]["out"], b[0]["out"])
    med = {n: {q: statistics.median(r[q] for r in rs) for q in ("cpu", "wall", "rss")} for n, rs in (("ours", a), ("theirs", b))}
    row = {"label": label, **med, "ratio_cpu": med["theirs"]["cpu"] / med["ours"]["cpu"],
           "ratio_wall": med["theirs"]["wall"] / med["ours"]["wall"]}
    print(f"| {label} | {med['ours']['cpu']:.2f} | {med['ours']['wall']:.2f} | {med['theirs']['cpu']:.2f} | "
          f"{med['theirs']['wall']:.2f} | {row['ratio_cpu']:.1f} | {row['ratio_wall']:.1f} | "
          f"{med['ours']['rss']:.0f} / {med['theirs']['rss']:.0f} |", flush=True)
    return row


def _moves(text: str) -> list[tuple[int, int, str]]:
    """The winning moves printed, as (heap, taken, parts) in a comparable form."""
    out = []
    for m in re.finditer(r"\(?(\d+)\)?: take (\d+), leaving ([\d +]+|nothing)", text):
        out.append((int(m.group(1)), int(m.group(2)), " + ".join(sorted(m.group(3).split(" + ")))))
    return sorted(out)


def check_outcome(ours: str, plain: str) -> None:
    o = re.search(r"\n([NP]):", "\n" + ours.split("\n", 1)[1])
    p = re.search(r"misère play: ([NP])", plain)
    assert o and p and o.group(1) == p.group(1), (ours, plain)
    assert _moves(ours) == _moves(plain), (ours, plain)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--only", default="outcome,quotient,domineering")
    ap.add_argument("--cgt-py", dest="cgt_py", default=None)
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    only = set(args.only.split(","))
    rows = []
    print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; {args.reps} fresh processes each\n")
    print("| workload | cgtalg CPU (s) | cgtalg wall (s) | baseline CPU (s) | baseline wall (s) | ratio CPU | ratio wall | "
          "peak RSS (MB) cgtalg / baseline |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    if "outcome" in only:
        for code, heaps in OUTCOMES:
            hs = [str(h) for h in heaps]
            rows.append(pair(f"outcome {code} {' '.join(hs)} --misere (vs plain Python search)",
                             [*CGTALG, "outcome", code, *hs, "--misere", "--no-store"],
                             [sys.executable, str(ROOT / "benchmarks" / "plain_misere_outcome.py"), code, *hs],
                             args.reps, check_outcome))
    if "quotient" in only:
        javac, java = shutil.which("javac"), shutil.which("java")
        if not (javac and java and PEER.is_dir()):
            print("| quotient vs MisereSolver | skipped: no JDK or no peer |")
        else:
            build = tempfile.mkdtemp(prefix="miseresolver-")
            sources = [str(p) for p in (PEER / "jsrc").rglob("*.java")]
            subprocess.run([javac, "-nowarn", "-d", build, *sources], check=True, capture_output=True)
            store_dir = tempfile.mkdtemp(prefix="cgtalg-store-")
            for code, heap in QUOTIENTS:
                counter = iter(range(10**6))

                def ours(code=code):
                    return [*CGTALG, "--store", os.path.join(store_dir, f"{code}-{next(counter)}.db"), "quotient", code]

                def check(o, t, code=code):
                    q = re.search(r"\|Q\| = (\d+)", o)
                    orders = re.findall(r"\|Q\|=(\d+)", t)
                    assert q and orders and q.group(1) == orders[-1], (code, o[-500:], t[-500:])

                run(ours())
                a, b = [], []
                for k in range(args.reps):   # a new store file for every run of cgtalg
                    jobs = [(a, ours()), (b, [java, "-cp", build, "org.cgsuite.core.misere.solver.Bench", code, str(heap), "600"])]
                    for dest, cmd in (jobs if k % 2 == 0 else jobs[::-1]):
                        dest.append(run(cmd))
                check(a[0]["out"], b[0]["out"])
                med = {n: {q: statistics.median(r[q] for r in rs) for q in ("cpu", "wall", "rss")} for n, rs in (("ours", a), ("theirs", b))}
                row = {"label": f"quotient {code} (new store) vs MisereSolver to heap {heap}", **med,
                       "ratio_cpu": med["theirs"]["cpu"] / med["ours"]["cpu"],
                       "ratio_wall": med["theirs"]["wall"] / med["ours"]["wall"]}
                print(f"| {row['label']} | {med['ours']['cpu']:.2f} | {med['ours']['wall']:.2f} | {med['theirs']['cpu']:.2f} | "
                      f"{med['theirs']['wall']:.2f} | {row['ratio_cpu']:.2f} | {row['ratio_wall']:.2f} | "
                      f"{med['ours']['rss']:.0f} / {med['theirs']['rss']:.0f} |", flush=True)
                rows.append(row)
            shutil.rmtree(build, ignore_errors=True)
            shutil.rmtree(store_dir, ignore_errors=True)
    if "domineering" in only:
        env = dict(ENV)
        if args.cgt_py:
            env["PYTHONPATH"] = args.cgt_py + os.pathsep + env.get("PYTHONPATH", "")
        ours = [sys.executable, "-c", "import cgtalg as cg; print(cg.canonical_form(cg.position('domineering', '4x4')))"]
        theirs = [sys.executable, "-c", "import cgt_py as c; print(c.Domineering('....|....|....|....').canonical_form)"]
        if subprocess.run([sys.executable, "-c", "import cgt_py"], env=env, capture_output=True).returncode:
            r = run(ours)
            print(f"| Domineering 4x4, first value in a fresh process | {r['cpu']:.2f} | {r['wall']:.2f} | "
                  "cgt-py not importable (--cgt-py DIR) | | | | |")
        else:
            rows.append(pair("Domineering 4x4, first value in a fresh process (vs cgt-py)", ours, theirs, args.reps,
                             lambda o, t: None, env_theirs=env))
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
