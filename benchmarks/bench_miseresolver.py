"""cgtalg's misère quotients against Aaron Siegel's MisereSolver, in the same run (issue 21).

MisereSolver (the Java solver CGSuite carries; GPL, a peer to measure against, never code to
copy) is built from ``../shared/peers/miseresolver`` (``javac`` into a temporary directory)
when a JDK is on the PATH; without one its rows say "skipped". Each quotient runs in a **fresh
process** per repetition, for both programs:

* MisereSolver: ``java -cp BUILD org.cgsuite.core.misere.solver.Bench CODE HEAP SECONDS`` (the
  peer's driver: heap by heap to ``HEAP``, printing ``|Q|``, ``|P|`` per heap and
  ``done ... total=SECONDS``, its own timer, JVM start excluded, JIT warm-up included);
* cgtalg: ``python -c ...`` running ``misere_quotient(TakeAndBreak(CODE), max_heap=HEAP)``
  (no store, nothing known in the process); its compute time is the in-process timer around
  that call (imports excluded). For the final quotients cgtalg stops as soon as the misère
  periodicity theorem certifies the quotient of the whole game, at or before ``HEAP``; the
  table gives the heap it reached.

For each: the compute time (in-process timer), the wall time of the fresh process (start to
exit, measured by this script; for cgtalg with the part spent importing, in brackets) and the peak resident memory of the child (``ru_maxrss`` from
``os.wait4``), median over the repetitions (min–max in the JSON), and the ratio MisereSolver /
cgtalg (above 1: cgtalg is faster). The orders of both are printed and must agree.

Usage::

    python benchmarks/bench_miseresolver.py [--reps 3] [--only 0.77,0.07:33] [--json OUT]
        [--peer DIR] [--no-java]
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

#: (label, code, heap): the quotients of issue 21's table; the heap is what MisereSolver runs to
#: (the certificate's bound for the final quotients)
CASES = [
    ("0.123 (order 20)", "0.123", 40),
    ("Kayles 0.77 (order 40)", "0.77", 169),
    ("0.15 (order 42)", "0.15", 155),
    ("0.72 (order 24)", "0.72", 43),
    ("0.07 to heap 30 (order 360)", "0.07", 30),
    ("0.07 to heap 33 (order 638)", "0.07", 33),
]

CGTALG_CHILD = r"""
import json, sys, time
t0 = time.perf_counter()
from cgtalg.quotients.construct import misere_quotient
from cgtalg.quotients import kernel as quotient_kernel
from cgtalg.rulesets.heaps.octal import TakeAndBreak
t1 = time.perf_counter()
q = misere_quotient(TakeAndBreak(sys.argv[1]), max_heap=int(sys.argv[2]), progress=False)
t2 = time.perf_counter()
print(json.dumps({"compute": t2 - t1, "imports": t1 - t0, "order": q.order,
                  "p": len(q.p_portion), "heap": q.max_heap, "final": q.final,
                  "kernel": quotient_kernel.status()}))
"""


def _run_measured(cmd: list[str], timeout: float, env: dict | None = None) -> tuple[str, float, int, int]:
    """Run ``cmd`` (killed after ``timeout`` s); (stdout, wall seconds, peak RSS in bytes of
    the child from ``os.wait4``, exit code)."""
    t0 = time.perf_counter()
    with tempfile.TemporaryFile() as fo:
        proc = subprocess.Popen(cmd, stdout=fo, stderr=subprocess.DEVNULL, env=env, cwd=ROOT)
        deadline = t0 + timeout
        while True:
            pid, status, ru = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                proc.kill()
                pid, status, ru = os.wait4(proc.pid, 0)
                break
            time.sleep(0.002)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        fo.seek(0)
        out = fo.read().decode()
    return out, wall, ru.ru_maxrss * 1024, proc.returncode


def build_peer(peer: Path) -> Path | None:
    """Compile MisereSolver into a temporary directory; None without a JDK or sources."""
    if shutil.which("javac") is None or shutil.which("java") is None:
        return None
    srcs = sorted(str(p) for p in (peer / "jsrc").rglob("*.java"))
    if not srcs:
        return None
    build = Path(tempfile.mkdtemp(prefix="miseresolver-"))
    subprocess.run(["javac", "-nowarn", "-d", str(build), *srcs], check=True, capture_output=True)
    return build


def run_peer(build: Path, code: str, heap: int, timeout: float) -> dict:
    out, wall, rss, rc = _run_measured(
        ["java", "-cp", str(build), "org.cgsuite.core.misere.solver.Bench", code, str(heap),
         str(int(timeout))], timeout + 30)
    m = re.search(r"done \S+ heaps<=(\d+) total=([\d.]+)", out)
    last = re.findall(r"heap (\d+) \|Q\|=(\d+) \|P\|=(\d+)", out)
    if not m or not last:
        raise RuntimeError(f"MisereSolver gave no result for {code}: {out[-300:]}")
    return {"compute": float(m.group(2)), "wall": wall, "rss": rss, "heap": int(m.group(1)),
            "order": int(last[-1][1]), "p": int(last[-1][2]), "timeout": "TIMEOUT" in out}


def run_cgtalg(code: str, heap: int, timeout: float) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("CGTALG_STORE", None)
    out, wall, rss, rc = _run_measured([sys.executable, "-c", CGTALG_CHILD, code, str(heap)],
                                       timeout, env)
    if rc != 0 or not out.strip():
        raise RuntimeError(f"cgtalg failed on {code} (exit {rc}): {out[-300:]}")
    got = json.loads(out.strip().splitlines()[-1])
    got.update(wall=wall, rss=rss)
    return got


def _med(rows: list[dict], key: str) -> float:
    return statistics.median(r[key] for r in rows)


def _fmt_s(x: float) -> str:
    return f"{x:.3f} s" if x < 10 else f"{x:.1f} s"


def _fmt_mb(b: float) -> str:
    return f"{b / 2**20:.0f} MB"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--only", default="", help="comma-separated CODE or CODE:HEAP to run")
    ap.add_argument("--json", default=None, help="write the measurements to this file")
    ap.add_argument("--peer", default=str(PEER))
    ap.add_argument("--no-java", action="store_true")
    ap.add_argument("--timeout", type=float, default=600)
    args = ap.parse_args()
    cases = CASES
    if args.only:
        want = set(args.only.split(","))
        cases = [c for c in CASES if c[1] in want or f"{c[1]}:{c[2]}" in want]
    build = None if args.no_java else build_peer(Path(args.peer))
    results = []
    for label, code, heap in cases:
        ms_rows, cg_rows = [], []
        for _ in range(args.reps):      # alternate, so both see the same machine load
            if build is not None:
                ms_rows.append(run_peer(build, code, heap, args.timeout))
            cg_rows.append(run_cgtalg(code, heap, args.timeout))
        row = {"label": label, "code": code, "heap": heap, "cgtalg": cg_rows, "miseresolver": ms_rows}
        if ms_rows and cg_rows:
            if ms_rows[-1]["order"] != cg_rows[-1]["order"] and not ms_rows[-1]["timeout"]:
                raise AssertionError(f"{code}: MisereSolver order {ms_rows[-1]['order']}, "
                                     f"cgtalg order {cg_rows[-1]['order']}")
        results.append(row)
        print(f"# {label}: done", file=sys.stderr, flush=True)
    print(f"cgtalg kernel: {results[0]['cgtalg'][0]['kernel'] if results else '-'}; "
          f"{args.reps} fresh processes each, medians; MisereSolver "
          f"{'built from ' + args.peer if build else 'skipped (no JDK)'}\n")
    print("| quotient | MisereSolver compute | cgtalg compute | × | MisereSolver wall | cgtalg wall "
          "(imports) | × | MisereSolver peak RSS | cgtalg peak RSS | cgtalg heap reached |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for row in results:
        cg = row["cgtalg"]
        ms = row["miseresolver"]
        c_s, c_w, c_m = _med(cg, "compute"), _med(cg, "wall"), _med(cg, "rss")
        c_i = _med(cg, "imports")
        reached = f"{cg[-1]['heap']}{' (final)' if cg[-1]['final'] else ''}"
        if ms:
            m_s, m_w, m_m = _med(ms, "compute"), _med(ms, "wall"), _med(ms, "rss")
            print(f"| {row['label']} | {_fmt_s(m_s)} | {_fmt_s(c_s)} | {m_s / c_s:.1f} | {_fmt_s(m_w)} "
                  f"| {_fmt_s(c_w)} ({_fmt_s(c_i)}) | {m_w / c_w:.1f} | {_fmt_mb(m_m)} | {_fmt_mb(c_m)} | {reached} |")
        else:
            print(f"| {row['label']} | skipped | {_fmt_s(c_s)} | – | skipped | {_fmt_s(c_w)} ({_fmt_s(c_i)}) | – "
                  f"| skipped | {_fmt_mb(c_m)} | {reached} |")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
