"""Ctrl-C sweep: does every long command of the CLI stop within a second of SIGINT?

Each case starts one ``cgtalg`` command with arguments that keep it busy for longer than the
sweep waits, on a fresh temporary store, in a process group of its own; after a delay (0.3 s
lands in the imports, 2 s in the first computation, 8 s and 20 s deep in the work) it sends
SIGINT the way a terminal does (to the whole process group, Dask workers included; ``--target
process`` sends it to the command alone) and records:

- ``exit s``: seconds from the signal to the command's exit (``HANG`` past ``--wait``);
- ``code``: the exit status; 130 (or -2, killed by SIGINT: what a shell also shows as 130) is
  right;
- ``tb``: whether stderr shows a Python traceback or a leaked-semaphore warning;
- ``left``: processes of the group still running one second after the command exited;
- ``store``: whether ``cgtalg store verify`` passes on the store afterwards.

A command that ended before the signal is marked ``done`` (its arguments are too small to
test anything). Usage::

    python tools/ctrl_c_sweep.py                       # every case at 0.3, 2, 8 and 20 s
    python tools/ctrl_c_sweep.py --delays 2,8 --only game,census-octal
    python tools/ctrl_c_sweep.py --list

The sweep runs one command at a time and takes a few minutes; it is a tool to run by hand
(tests/test_interrupts.py holds the quick checks the test suite runs).
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: name -> arguments of ``cgtalg`` that keep the command busy for well over 20 s
CASES: dict[str, list[str]] = {
    "game": ["game", "grundy(60)"],
    "outcome": ["outcome", "0.6", "--misere", "30", "29", "28", "27", "26", "--max-states", "10^9"],
    "grundy": ["grundy", "0.16", "-n", "1e9"],
    "period": ["period", "0.6"],
    "quotient": ["quotient", "0.1337", "-n", "40", "--max-order", "100000"],
    # the fast path (cgtalg.cli.fast) for its first second, then the full construction it hands over to
    "quotient-fast": ["quotient", "0.54"],
    "misere": ["misere", "0.6", "-n", "60", "--position", "40 35 30 25 20", "--max-states", "10^9"],
    "value": ["value", "domineering", "8x8"],
    "census-octal": ["census", "octal", "--digits", "4", "--workers", "2"],
    "census-quotient": ["census", "quotient", "--digits", "3", "--workers", "2"],
    "check": ["check", "{certificates}"],
}

ENTRY = "import sys; from cgtalg.cli.main import main; sys.exit(main())"


def _command() -> list[str]:
    """The ``cgtalg`` console script beside this Python (what a user runs), else ``python -c``."""
    script = Path(sys.executable).with_name("cgtalg")
    return [str(script)] if script.exists() else [sys.executable, "-c", ENTRY]


def _group_members(pgid: int) -> list[str]:
    """``pid command`` of every live process of process group ``pgid`` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            fields = stat[stat.rindex(")") + 2:].split()
            if fields[0] == "Z" or int(fields[2]) != pgid:
                continue
            cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
        except (OSError, ValueError, IndexError):
            continue
        found.append(f"{entry.name} {cmd[:80]}")
    return found


def _certificates(folder: Path) -> Path:
    """A folder of certificates for ``check``: the period certificate of 0.16 (period 149459,
    preperiod 105351), whose re-check computes 509,622 Grundy values (made once per sweep)."""
    path = folder / "certificates"
    path.mkdir(exist_ok=True)
    cert = path / "period-0.16.json"
    if not cert.exists():
        out = subprocess.run([*_command(), "period", "0.16", "--json", "--no-store"], capture_output=True,
                             text=True, timeout=600, cwd=folder)
        cert.write_text(out.stdout)
    return path


def run_case(name: str, args: list[str], delay: float, wait: float, target: str, folder: Path) -> dict:
    store = folder / f"{name}-{delay:g}.sqlite"
    args = [a.replace("{certificates}", str(_certificates(folder))) if "{" in a else a for a in args]
    env = dict(os.environ, CGTALG_STORE=str(store))
    env.pop("CGTALG_DEBUG", None)
    proc = subprocess.Popen([*_command(), *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env,
                            cwd=folder, start_new_session=True)
    time.sleep(delay)
    row = {"case": name, "delay": delay}
    if proc.poll() is not None:
        row.update(exit="done", code=proc.returncode, tb="", left="", store="")
        proc.stderr.close()
        return row
    t0 = time.monotonic()
    if target == "group":
        os.killpg(proc.pid, signal.SIGINT)
    else:
        proc.send_signal(signal.SIGINT)
    try:
        _out, err = proc.communicate(timeout=wait)
        took = f"{time.monotonic() - t0:.2f}"
    except subprocess.TimeoutExpired:
        took = "HANG"
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        _out, err = proc.communicate()
    time.sleep(1.0)
    left = _group_members(proc.pid)
    for member in left:
        try:
            os.kill(int(member.split()[0]), signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    text = err.decode(errors="replace")
    bad = [w for w in ("Traceback", "leaked") if w in text]
    verify = "-"
    if store.exists():
        res = subprocess.run([*_command(), "--store", str(store), "store", "verify"], capture_output=True,
                             text=True, timeout=300, cwd=folder)
        verify = "ok" if res.returncode == 0 else f"FAIL({res.returncode})"
    last = [line for line in text.splitlines() if line.strip()]
    row.update(exit=took, code=proc.returncode, tb=",".join(bad) or "no", left=len(left) or 0, store=verify,
               said=(last[-1][:60] if last else ""))
    return row


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--delays", default="0.3,2,8,20", help="seconds before SIGINT, comma-separated")
    ap.add_argument("--only", default="", help="cases to run, comma-separated (see --list)")
    ap.add_argument("--wait", type=float, default=30.0, help="seconds to wait for the exit before HANG")
    ap.add_argument("--target", choices=["group", "process"], default="group",
                    help="send SIGINT to the process group (as a terminal does) or to the command alone")
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    opts = ap.parse_args()
    if opts.list:
        for name, args in CASES.items():
            print(f"{name:16} cgtalg {' '.join(args)}")
        return 0
    names = [n.strip() for n in opts.only.split(",") if n.strip()] or list(CASES)
    delays = [float(d) for d in opts.delays.split(",")]
    print(f"{'case':16} {'delay':>5} {'exit s':>6} {'code':>5} {'tb':>9} {'left':>4} {'store':>6}  last line of stderr")
    failures = 0
    with tempfile.TemporaryDirectory(prefix="ctrl-c-sweep-") as tmp:
        for name in names:
            for delay in delays:
                r = run_case(name, CASES[name], delay, opts.wait, opts.target, Path(tmp))
                ok = r["exit"] == "done" or (r["exit"] != "HANG" and float(r["exit"]) <= 1.0 and r["code"] in (130, -2)
                                             and r["tb"] == "no" and not r["left"] and r["store"] in ("ok", "-"))
                failures += not ok
                print(f"{r['case']:16} {r['delay']:>5g} {r['exit']:>6} {r['code']!s:>5} {r['tb']:>9} {r['left']!s:>4} "
                      f"{r['store']:>6}  {'' if ok else 'BAD '}{r.get('said', '')}", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
