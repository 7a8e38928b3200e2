"""The compiled nimber kernel against the Python path of the same engine, in one run.

Run:  python benchmarks/bench_nimber_kernel.py [--json]

Each case is timed twice in fresh interpreters, once with the C kernel
(cgtalg/nimbers/_nimc.c) and once with ``CGTALG_PURE_PYTHON=1`` (the Python reference path):
inverses in fields of degree 6 to 1260 and a dense × dense product in the field of degree 1260.
Ratio = Python time / C time.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

CASES = {
    "inverse of ω (degree 6)": ("a = Nimber('w')", "a.inv()", 2000),
    "inverse of ω^(ω^2)+ω+1 (degree 42)": ("a = Nimber('w^(w^2)+w+1')", "a.inv()", 200),
    "inverse of ω^(ω+3)+ω^ω·2+5 (degree 180)": ("a = Nimber('w^(w+3)+w^(w)*2+5')", "a.inv()", 50),
    "inverse of ω^(ω^2)+ω^(ω+1)+ω^3+7 (degree 1260)": ("a = Nimber('w^(w^2)+w^(w+1)+w^3+7')", "a.inv()", 5),
    "dense × dense product, degree 1260": (
        "x = Nimber('w^(w^2)+w^(w+1)+w^3+7'); a = x.inv(); b = (x + 1).inv()", "a * b", 3),
}

CHILD = r"""
import json, sys, time
from cgtalg.nimbers import compiled
from cgtalg.nimbers.nimber import Nimber
cases = json.loads(sys.argv[1])
out = {"status": compiled.status()}
for name, (setup, stmt, n) in cases.items():
    env = {"Nimber": Nimber}
    exec(setup, env)
    code = compile(stmt, "<case>", "eval")
    eval(code, env)  # warm the monomial caches
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        for _ in range(n):
            eval(code, env)
        best = min(best, (time.perf_counter() - t) / n)
    out[name] = best
print(json.dumps(out))
"""


def run(pure: bool) -> dict:
    env = dict(os.environ, CGTALG_PURE_PYTHON="1" if pure else "0")
    got = subprocess.run([sys.executable, "-c", CHILD, json.dumps(CASES)], env=env,
                         capture_output=True, text=True, check=True)
    return json.loads(got.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    c = run(False)
    py = run(True)
    rows = [(name, c[name], py[name], py[name] / c[name]) for name in CASES]
    if args.json:
        print(json.dumps({"kernel": c["status"], "rows": rows}, indent=2))
        return
    print(f"kernel: {c['status']}   baseline: {py['status']}")
    print(f"{'case':50s} {'C ms':>9s} {'Python ms':>10s} {'ratio':>7s}")
    for name, tc, tp, r in rows:
        print(f"{name:50s} {tc * 1e3:9.3f} {tp * 1e3:10.3f} {r:6.1f}x")


if __name__ == "__main__":
    main()
