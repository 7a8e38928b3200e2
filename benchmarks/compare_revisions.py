"""Before and after in one run (issue 33): the same workloads timed on two checkouts of cgtalg.

Run:  python benchmarks/compare_revisions.py --before DIR [--after DIR] [--repeat N] [--confirm N]
          [--markdown] [--json] [--only NAME ...] [--list] [--timeout SECONDS]
      python benchmarks/compare_revisions.py --load RUN.json [--markdown]   (re-print a saved run)

``--before DIR`` is a checkout of cgtalg before a change (e.g. a ``git worktree`` of the old
commit, its C kernels built in place); ``--after DIR`` another one (default: this checkout).
Every workload is a short snippet of cgtalg's public API (``import cgtalg as cg`` and names
that exist in both trees; ``nim_mul`` from ``cgtalg.nimbers`` and ``misere_count_born_by``
from ``cgtalg.misere``, which left the top level in issue 33) or a ``cgtalg`` command line
(``--json`` prints each workload's code), run in a **fresh
interpreter** with ``PYTHONPATH`` set to the checkout, from a neutral working directory, so
``import cgtalg`` imports that tree: checked once per tree before anything is timed
(``cgtalg.__file__``; the run stops if it is not under DIR) and again in every timed child
(every loaded ``cgtalg`` module must come from DIR, else the run stops).

Each workload runs once untimed per tree first (warm-up: Python's bytecode and numba's on-disk
cache are written, so JIT compilation is not measured; a kept store is filled), then ``N``
times per tree (``--repeat``, default 5), the two trees interleaved run by run and the order
alternated (A B, B A, A B, ...) so that drift in the machine's load falls on both alike.
Reported per workload: the median CPU time of the child (user + system, from
``resource.getrusage(RUSAGE_CHILDREN)`` deltas; children run one at a time), the median wall
time, the ratio after / before of the CPU medians (above 1.10: flagged **slower**; below 1/1.10:
faster), the least and greatest of the per-round ratios (each after run over the before run
next to it: a measure of the noise), and, for the Python snippets, the median CPU time of the
snippet's body alone (after its names are resolved: module imports excluded, first calls of
numba kernels, i.e. loading their cache, included). The first row, ``python -c pass`` with
each tree's ``PYTHONPATH``, runs the same code on both sides: its ratio is the run's noise
floor. Each workload's output (a printed summary of its answer) is compared between the trees
and a difference is reported.

Stores: the Python snippets use none (the library's ``store=None``); every child gets
``CGTALG_STORE`` in a temporary directory, so the user's store is never touched. Rows marked
"new store" get an empty directory for every run (the store is created, the answer computed
and written); rows marked "stored" keep one store per tree and workload, filled by the warm-up
run, so the timed runs read the stored answer.

A workload flagged slower is run ``--confirm N`` more times per tree (default 5, interleaved the
same way) and judged again on all its runs, so that one unlucky stretch of machine load does
not flag it; the table says how many rounds such a row has and whether every round's ratio
agrees with the verdict. In a run of one tree against itself (``--after`` the same DIR as
``--before``) on the shared 2-core machine, with 3 runs each, the ratios spread over 0.8-1.2:
that is the noise a single run's verdict sits in.

Exit status: 0, or 1 when a workload failed in either tree (the table says which; the other
workloads are still measured). ``--json`` prints the raw samples as well.
"""

from __future__ import annotations

import argparse
import ast
import datetime
import json
import os
import pathlib
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

ROOT = pathlib.Path(__file__).resolve().parents[1]
#: above this ratio (after / before, CPU medians) a workload is flagged slower
SLOWER = 1.10
CLI = "import sys; from cgtalg.cli.main import main; sys.exit(main(sys.argv[1:]))"
MARK = "COMPARE_REVISIONS "


@dataclass(frozen=True)
class Workload:
    """One timed workload: a Python snippet (``prelude`` untimed inside the child, ``body``
    timed inside it too) or a command line of ``cgtalg`` (``cli``; ``{dir}`` is the run's store
    directory). ``store``: "none" (the snippet uses no store; a kept directory anyway),
    "new" (an empty store directory for every run) or "kept" (one per tree, filled by the
    warm-up run)."""

    name: str
    label: str
    body: str = ""
    prelude: str = "import cgtalg as cg"
    cli: tuple[str, ...] = ()
    store: str = "none"
    reference: bool = False


_ORDINALS = """\
import random
rng = random.Random(5)
def rand_ordinal(terms, k):
    parts = []
    for _ in range(terms):
        exp = "+".join(f"w^{j}*{rng.randint(1, 3)}" for j in range(k) if rng.random() < 0.6) or "1"
        parts.append(f"w^({exp})*{rng.randint(1, 15)}")
    return ordinal("+".join(parts))
"""

WORKLOADS = [
    Workload("floor", "reference: python -c pass (same code in both trees)", prelude="", body="pass",
             reference=True),
    Workload("import", "import cgtalg", prelude="", body="import cgtalg"),
    Workload("help", "cgtalg --help", cli=("--help",)),
    Workload("quotient", "cg.misere_quotient(cg.TakeAndBreak('0.77'))",
             prelude="import cgtalg as cg\nmq, TB = cg.misere_quotient, cg.TakeAndBreak",
             body="q = mq(TB('0.77'))\nprint(q)"),
    Workload("dawson-counting", "Dawson's Kayles to its proof: misere_quotient('0.07', strategy='counting')",
             prelude="import cgtalg as cg\nmq, TB = cg.misere_quotient, cg.TakeAndBreak",
             body="q = mq(TB('0.07'), strategy='counting', max_order=20000, partial=True, progress=False)\n"
                  "print(q.max_heap, q.order, q.infinite_from)"),
    Workload("grundy-seq", "Grundy values of 0.77 to 10^7 (TakeAndBreak.grundy_sequence)",
             prelude="import cgtalg as cg\nTB = cg.TakeAndBreak",
             body="s = TB('0.77').grundy_sequence(10**7)\nprint(len(s), int(s.max()), int(s[-1]))"),
    Workload("period", "period certificates of 0.16 and 0.56 (TakeAndBreak.periodicity)",
             prelude="import cgtalg as cg\nTB = cg.TakeAndBreak",
             body="for code in ('0.16', '0.56'):\n"
                  "    r = TB(code).periodicity()\n"
                  "    print(code, r.period, r.preperiod, r.values_checked)"),
    Workload("find-period", "cg.find_period on 2^20 Grundy values of 0.16",
             prelude="import cgtalg as cg\nTB, find_period = cg.TakeAndBreak, cg.find_period",
             body="p = find_period(TB('0.16').grundy_sequence(2**20))\nprint(p.period, p.preperiod)"),
    Workload("nim-mul", "5·10^4 nim_mul of random 64-bit ints",
             prelude="import cgtalg as cg, random\nfrom cgtalg.nimbers import nim_mul\nrng = random.Random(1)\n"
                     "pairs = [(rng.getrandbits(64), rng.getrandbits(64)) for _ in range(50_000)]",
             body="acc = 0\nfor a, b in pairs:\n    acc ^= nim_mul(a, b)\nprint(acc)"),
    Workload("nim-mul-array", "nim_mul of two uint64 arrays of 4·10^6",
             prelude="import cgtalg as cg, numpy as np\nfrom cgtalg.nimbers import nim_mul\n"
                     "rng = np.random.default_rng(1)\n"
                     "a = rng.integers(0, 2**63, 4_000_000, dtype=np.uint64) * np.uint64(2) + np.uint64(1)\n"
                     "b = rng.integers(0, 2**63, 4_000_000, dtype=np.uint64)",
             body="r = nim_mul(a, b)\nprint(type(r).__name__, int(np.bitwise_xor.reduce(r)))"),
    Workload("ordinal", "900 nim_mul of random 3-term cg.ordinal below ω^(ω^3)",
             prelude="import cgtalg as cg\nfrom cgtalg.nimbers import nim_mul\nordinal = cg.ordinal\n" + _ORDINALS,
             body="pairs = [(rand_ordinal(3, k), rand_ordinal(3, k)) for k in (1, 2, 3) for _ in range(300)]\n"
                  "out = [nim_mul(x, y) for x, y in pairs]\nprint(len(out), out[0], out[-1])"),
    Workload("domineering-4x4", "cg.canonical_form(cg.position('domineering', '4x4'))",
             prelude="import cgtalg as cg\ncanonical_form, position = cg.canonical_form, cg.position",
             body="print(canonical_form(position('domineering', '4x4')))"),
    Workload("domineering-5x5", "cg.canonical_form(cg.position('domineering', '5x5'))",
             prelude="import cgtalg as cg\ncanonical_form, position = cg.canonical_form, cg.position",
             body="print(canonical_form(position('domineering', '5x5')))"),
    Workload("misere-census", "misere_count_born_by(5) and (6)",
             prelude="from cgtalg.misere import misere_count_born_by as count",
             body="print(count(5), count(6).bit_length())"),
    Workload("equivalent", "cg.equivalent on 1 540 pairs of Nim positions (misère, with proofs)",
             prelude="import cgtalg as cg, itertools\nequivalent = cg.equivalent\n"
                     "heaps = [c for n in range(4) for c in itertools.combinations_with_replacement(range(1, 6), n)]\n"
                     "text = lambda h: '+'.join(f'*{x}' for x in h) or '0'\n"
                     "pairs = [(text(a), text(b)) for a, b in itertools.combinations(heaps, 2)]",
             body="print(sum(equivalent(a, b).holds for a, b in pairs), len(pairs))"),
    Workload("misere-outcome", "cg.outcome of Kayles 20+21+22, misère (search, no store)",
             prelude="import cgtalg as cg\noutcome, position, TB = cg.outcome, cg.position, cg.TakeAndBreak",
             body="print(outcome(position(TB('0.77'), 20, 21, 22), misere=True))"),
    Workload("cli-grundy-file-new", "cgtalg --store FILE grundy 0.77 -n 100 (new store)",
             cli=("--store", "{dir}/s.sqlite", "grundy", "0.77", "-n", "100"), store="new"),
    Workload("cli-grundy-file", "cgtalg --store FILE grundy 0.77 -n 100 (stored)",
             cli=("--store", "{dir}/s.sqlite", "grundy", "0.77", "-n", "100"), store="kept"),
    Workload("cli-grundy-url-new", "cgtalg --store sqlite:///FILE grundy 0.77 -n 100 (new store)",
             cli=("--store", "sqlite:///{dir}/s.sqlite", "grundy", "0.77", "-n", "100"), store="new"),
    Workload("cli-grundy-url", "cgtalg --store sqlite:///FILE grundy 0.77 -n 100 (stored)",
             cli=("--store", "sqlite:///{dir}/s.sqlite", "grundy", "0.77", "-n", "100"), store="kept"),
    Workload("cli-outcome-new", "cgtalg outcome 0.77 5 9 12 --misere (new store: searched)",
             cli=("outcome", "0.77", "5", "9", "12", "--misere"), store="new"),
    Workload("cli-outcome", "cgtalg outcome 0.77 5 9 12 --misere (stored answer)",
             cli=("outcome", "0.77", "5", "9", "12", "--misere"), store="kept"),
]
BY_NAME = {w.name: w for w in WORKLOADS}

#: written first in every child: at exit, report (on stderr) the directories of the loaded
#: cgtalg modules, the peak resident set, and the CPU time of the body (Python snippets)
_PROBE = """\
import atexit as _ax, sys as _sys, resource as _rs, time as _tm
def _report():
    _files = sorted({getattr(m, '__file__', None) or '' for n, m in list(_sys.modules.items())
                     if n == 'cgtalg' or n.startswith('cgtalg.')})
    _sys.stderr.write(%r + repr({'files': _files, 'maxrss_kb': _rs.getrusage(_rs.RUSAGE_SELF).ru_maxrss,
                                  'body_cpu': globals().get('_body_cpu')}) + '\\n')
_ax.register(_report)
"""


def _child_code(w: Workload) -> str:
    if w.cli:
        return _PROBE % MARK + CLI
    return (_PROBE % MARK + (w.prelude + "\n" if w.prelude else "") +
            "_c0 = _tm.process_time()\n" + w.body + "\n_body_cpu = _tm.process_time() - _c0\n")


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


@dataclass
class Tree:
    """One checkout: its root, a tag ("before" / "after"), its store directories."""

    tag: str
    root: pathlib.Path
    tmp: pathlib.Path
    info: dict = field(default_factory=dict)

    def env(self, store_dir: pathlib.Path) -> dict:
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")}
        env["PYTHONPATH"] = str(self.root)
        env["CGTALG_STORE"] = str(store_dir / "default.sqlite")
        return env


class Failed(Exception):
    pass


class WrongTree(Exception):
    pass


def _run(tree: Tree, w: Workload, timeout: float) -> dict:
    """One fresh interpreter running ``w`` on ``tree``: wall and CPU seconds, peak RSS, body CPU,
    stdout. Raises Failed (non-zero exit, time-out) or WrongTree."""
    if w.store == "new":
        store_dir = pathlib.Path(tempfile.mkdtemp(prefix=f"{tree.tag}-{w.name}-", dir=tree.tmp))
    else:
        store_dir = tree.tmp / w.name
        store_dir.mkdir(exist_ok=True)
    args = [a.replace("{dir}", str(store_dir)) for a in w.cli]
    cwd = tree.tmp / "cwd"  # neutral: nothing importable there
    cpu = _cpu()
    start = time.perf_counter()
    try:
        out = subprocess.run([sys.executable, "-c", _child_code(w), *args], env=tree.env(store_dir), cwd=cwd,
                             capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        raise Failed(f"timed out after {timeout:.0f} s") from e
    finally:
        wall = time.perf_counter() - start
        used = _cpu() - cpu
        if w.store == "new":
            shutil.rmtree(store_dir, ignore_errors=True)
    if out.returncode != 0:
        tail = "\n".join([line for line in out.stderr.strip().splitlines() if not line.startswith(MARK)][-6:])
        raise Failed(f"exit status {out.returncode}: {tail}")
    reports = [line for line in out.stderr.splitlines() if line.startswith(MARK)]
    if not reports:  # the child left without running its exit handlers: its tree is not checked
        raise Failed("the child did not report which cgtalg it loaded")
    report = ast.literal_eval(reports[-1][len(MARK):])
    package = tree.root / "cgtalg"
    foreign = [f for f in report.get("files", []) if f and not pathlib.Path(f).resolve().is_relative_to(package)]
    if foreign:
        raise WrongTree(f"{tree.tag}: {w.name} loaded cgtalg modules from outside {package}: {foreign[:3]}")
    return {"wall": wall, "cpu": used, "maxrss_kb": report.get("maxrss_kb"), "body_cpu": report.get("body_cpu"),
            "stdout": out.stdout}


def _git(root: pathlib.Path, *args: str) -> str:
    try:
        return subprocess.run(["git", "--no-optional-locks", "-C", str(root), *args], capture_output=True,
                              text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return ""


_KERNELS = """\
import importlib, pathlib, re, cgtalg
print(cgtalg.__file__)
root = pathlib.Path(cgtalg.__file__).parent
for path in sorted(root.rglob('*.py')):
    text = path.read_text(encoding='utf-8', errors='replace')
    if path.name != 'ckernel.py' and re.search(r'^KERNEL = CompiledKernel[(]', text, re.M):
        name = '.'.join(('cgtalg',) + path.relative_to(root).with_suffix('').parts)
        try:
            print(name, importlib.import_module(name).KERNEL.status())
        except Exception as e:
            print(name, 'not loadable:', type(e).__name__, e)
"""


def _check_tree(tree: Tree) -> None:
    """Once per tree: ``import cgtalg`` imports DIR/cgtalg (else WrongTree); which C kernels
    run; the git revision and whether the work tree has changes."""
    out = subprocess.run([sys.executable, "-c", _KERNELS], env=tree.env(tree.tmp), cwd=tree.tmp / "cwd",
                         capture_output=True, text=True, timeout=300)
    lines = out.stdout.splitlines()
    if out.returncode != 0 or not lines:
        raise WrongTree(f"{tree.tag}: `import cgtalg` failed with PYTHONPATH={tree.root}:\n{out.stderr[-2000:]}")
    found = pathlib.Path(lines[0]).resolve()
    if found != (tree.root / "cgtalg" / "__init__.py").resolve():
        raise WrongTree(f"{tree.tag}: with PYTHONPATH={tree.root}, `import cgtalg` imported {found}")
    status = _git(tree.root, "status", "--porcelain", "--untracked-files=no")
    tree.info = {
        "dir": str(tree.root),
        "cgtalg_file": str(found),
        "commit": _git(tree.root, "rev-parse", "--short", "HEAD") or "?",
        "changed_files": len(status.splitlines()) if status else 0,
        "kernels": dict(line.split(" ", 1) for line in lines[1:] if " " in line),
        "warnings": [line for line in out.stderr.splitlines() if "Warning" in line],
    }


def _summary(samples: list[dict], key: str) -> float | None:
    values = [s[key] for s in samples if s.get(key) is not None]
    return statistics.median(values) if values else None


def _row(w: Workload, res: dict) -> dict:
    """The summary of one workload's samples: medians, ratios, verdict."""
    b, a = res["samples"]["before"], res["samples"]["after"]
    row = {"name": w.name, "label": w.label, "store": w.store, "reference": w.reference,
           "code": list(w.cli) if w.cli else (w.prelude + "\n" if w.prelude else "") + w.body,
           "error": res["error"] or None, "runs": min(len(b), len(a)), "confirm_rounds": res["confirm_rounds"]}
    if res["stdout"].get("before") is not None and res["stdout"].get("after") is not None:
        row["same_output"] = res["stdout"]["before"] == res["stdout"]["after"]
        if not row["same_output"]:
            row["output"] = {k: v[-600:] for k, v in res["stdout"].items()}
    if b and a and not res["error"]:
        for key in ("cpu", "wall", "maxrss_kb", "body_cpu"):
            row[f"before_{key}"], row[f"after_{key}"] = _summary(b, key), _summary(a, key)
        row["ratio_cpu"] = row["after_cpu"] / row["before_cpu"]
        row["ratio_wall"] = row["after_wall"] / row["before_wall"]
        if row["before_body_cpu"] and row["after_body_cpu"] is not None:
            row["ratio_body_cpu"] = row["after_body_cpu"] / row["before_body_cpu"]
        paired = [y["cpu"] / x["cpu"] for x, y in zip(b, a)]
        row["paired_cpu_ratios"] = [min(paired), max(paired)]
        row["verdict"] = ("slower" if row["ratio_cpu"] > SLOWER else
                          "faster" if row["ratio_cpu"] < 1 / SLOWER else "same")
        row["samples"] = {"before": b, "after": a}
    return row


def measure(before: pathlib.Path, after: pathlib.Path, repeat: int, workloads: list[Workload],
            timeout: float, confirm: int = 0, log=print) -> dict:
    """Warm up, then ``repeat`` interleaved rounds, then ``confirm`` more rounds of the
    workloads flagged slower (their samples pooled); returns everything --json prints."""
    with tempfile.TemporaryDirectory(prefix="compare_revisions-") as tmp:
        trees = []
        for tag, root in (("before", before), ("after", after)):
            t = Tree(tag, root, pathlib.Path(tmp) / tag)
            (t.tmp / "cwd").mkdir(parents=True)
            _check_tree(t)
            trees.append(t)
            k = ", ".join(f"{n.removeprefix('cgtalg.')} {s}" for n, s in t.info["kernels"].items())
            log(f"{tag}: {root} @ {t.info['commit']}"
                f"{' + %d changed files' % t.info['changed_files'] if t.info['changed_files'] else ''}; "
                f"C kernels: {k or 'none found'}")
            for line in t.info["warnings"]:
                log(f"  {tag}: {line}")
        kernels = [t.info["kernels"] for t in trees]
        if sorted(kernels[0].values()) != sorted(kernels[1].values()):
            log("WARNING: the trees do not run the same C kernels (see above): the comparison includes that")
        load0 = os.getloadavg()
        started = time.time()
        results = {w.name: {"samples": {"before": [], "after": []}, "error": {}, "stdout": {}, "confirm_rounds": 0}
                   for w in workloads}
        log(f"warm-up: {len(workloads)} workloads x 2 trees")
        for w in workloads:
            for t in trees:
                try:
                    results[w.name]["stdout"][t.tag] = _run(t, w, timeout)["stdout"]
                except Failed as e:
                    results[w.name]["error"][t.tag] = str(e)
                    log(f"  {w.name} FAILED in {t.tag}: {e}")

        def rounds(chosen: list[Workload], count: int, what: str) -> None:
            for r in range(count):
                log(f"{what} {r + 1}/{count}")
                for i, w in enumerate(chosen):
                    res = results[w.name]
                    if res["error"]:
                        continue
                    # the order alternates from round to round (and from workload to workload)
                    order = trees if (len(res["samples"]["before"]) + i) % 2 == 0 else trees[::-1]
                    for t in order:
                        try:
                            sample = _run(t, w, timeout)
                        except Failed as e:
                            res["error"][t.tag] = str(e)
                            log(f"  {w.name} FAILED in {t.tag}: {e}")
                            break
                        sample.pop("stdout")
                        res["samples"][t.tag].append(sample)

        rounds(workloads, repeat, "round")
        flagged = [w for w in workloads if not w.reference and _row(w, results[w.name]).get("verdict") == "slower"]
        if flagged and confirm:
            log(f"flagged slower: {', '.join(w.name for w in flagged)}; {confirm} more rounds of them")
            rounds(flagged, confirm, "confirmation round")
            for w in flagged:
                results[w.name]["confirm_rounds"] = confirm
        load1 = os.getloadavg()
    return {
        "date": datetime.datetime.now().isoformat(timespec="seconds"),
        "python": sys.version.split()[0], "machine": platform.machine(), "cores": os.cpu_count(),
        "load_average_start": load0[0], "load_average_end": load1[0],
        "seconds": round(time.time() - started, 1), "repeat": repeat, "confirm": confirm, "slower_above": SLOWER,
        "before": trees[0].info, "after": trees[1].info,
        "rows": [_row(w, results[w.name]) for w in workloads],
    }


def _every_round(r: dict) -> bool:
    """Whether every round's ratio agrees with the row's verdict (else it is within the run's
    noise)."""
    low, high, limit = *r["paired_cpu_ratios"], r.get("slower_above", SLOWER)
    return {"slower": low > limit, "faster": high < 1 / limit}.get(r["verdict"], 1 / limit <= low <= high <= limit)


def _ms(x: float | None) -> str:
    return "–" if x is None else f"{x * 1000:.0f}"


def _tree_text(info: dict) -> str:
    changed = f" + {info['changed_files']} uncommitted changes" if info["changed_files"] else ""
    return f"`{info['dir']}` @ {info['commit']}{changed}"


def print_markdown(data: dict) -> None:
    confirm = (f"; a flagged workload is run {data['confirm']} more times per tree and judged on all its runs"
               if data.get("confirm") else "")
    print(f"Measured {data['date'][:10]}, median of {data['repeat']} fresh processes per tree after one "
          f"warm-up run each, before and after interleaved run by run (order alternated), load average "
          f"{data['load_average_start']:.2f} → {data['load_average_end']:.2f} on {data['cores']} cores, "
          f"{data['seconds']:.0f} s in all. Before: {_tree_text(data['before'])}; after: "
          f"{_tree_text(data['after'])}. Flagged slower: CPU ratio above {data['slower_above']:.2f}"
          f"{confirm}.\n")
    print("| workload | CPU before (ms) | CPU after (ms) | ratio CPU | per-round ratios | "
          "wall before (ms) | wall after (ms) | ratio wall | ratio body CPU | peak RSS before / after (MB) | |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for r in data["rows"]:
        label = r["label"].replace("|", "\\|")
        if "ratio_cpu" not in r:
            err = "; ".join(f"{k}: {v.splitlines()[-1][:100]}" for k, v in (r["error"] or {}).items())
            print(f"| {label} | | | | | | | | | | failed ({err.replace('|', '/')}) |")
            continue
        verdict = ("noise floor" if r["reference"] else
                   {"slower": "**slower**", "faster": "faster", "same": ""}[r["verdict"]])
        if verdict and not r["reference"]:
            verdict += " (every round)" if _every_round(r) else " (not every round)"
        if r.get("confirm_rounds"):
            verdict += (f"{'; ' if verdict else ''}flagged after {r['runs'] - r['confirm_rounds']} rounds, "
                        f"judged on {r['runs']}")

        if r.get("same_output") is False:
            verdict = (verdict + "; " if verdict else "") + "output differs"
        body = f"{r['ratio_body_cpu']:.2f}" if r.get("ratio_body_cpu") is not None and not r["reference"] else ""
        rss = f"{r['before_maxrss_kb'] / 1024:.0f} / {r['after_maxrss_kb'] / 1024:.0f}" if r["before_maxrss_kb"] else ""
        print(f"| {label} | {_ms(r['before_cpu'])} | {_ms(r['after_cpu'])} | {r['ratio_cpu']:.2f} | "
              f"{r['paired_cpu_ratios'][0]:.2f}–{r['paired_cpu_ratios'][1]:.2f} | {_ms(r['before_wall'])} | "
              f"{_ms(r['after_wall'])} | {r['ratio_wall']:.2f} | {body} | {rss} | {verdict} |")


def print_text(data: dict) -> None:
    print(f"before: {_tree_text(data['before'])}\nafter:  {_tree_text(data['after'])}")
    print(f"median of {data['repeat']} runs per tree (warm, interleaved); load average "
          f"{data['load_average_start']:.2f} -> {data['load_average_end']:.2f}; {data['seconds']:.0f} s\n")
    print(f"{'workload':22s} {'CPU before':>10s} {'CPU after':>10s} {'ratio':>6s} {'per-round':>11s} "
          f"{'wall bef.':>9s} {'wall aft.':>9s} {'ratio':>6s} {'body':>5s}")
    for r in data["rows"]:
        if "ratio_cpu" not in r:
            print(f"{r['name']:22s} FAILED: " +
                  "; ".join(f"in {k}: {v.splitlines()[-1]}" for k, v in r["error"].items()))
            continue
        flag = ("  (noise floor)" if r["reference"] else
                {"slower": "  SLOWER", "faster": "  faster", "same": ""}[r["verdict"]])
        if flag and not r["reference"]:
            flag += " (every round)" if _every_round(r) else " (not every round)"
        if r.get("confirm_rounds"):
            flag += (f"{'; ' if flag else '  '}flagged after {r['runs'] - r['confirm_rounds']} rounds, "
                     f"judged on {r['runs']}")
        if r.get("same_output") is False:
            flag += "  (output differs)"
        body = f"{r['ratio_body_cpu']:5.2f}" if r.get("ratio_body_cpu") is not None and not r["reference"] else "     "
        print(f"{r['name']:22s} {_ms(r['before_cpu']):>7s} ms {_ms(r['after_cpu']):>7s} ms {r['ratio_cpu']:6.2f} "
              f"{r['paired_cpu_ratios'][0]:5.2f}-{r['paired_cpu_ratios'][1]:<5.2f} "
              f"{_ms(r['before_wall']):>6s} ms {_ms(r['after_wall']):>6s} ms {r['ratio_wall']:6.2f} {body}{flag}")
    slower = [r["name"] for r in data["rows"] if r.get("verdict") == "slower" and not r["reference"]]
    print(f"\nslower (CPU ratio > {data['slower_above']:.2f}): {', '.join(slower) or 'none'}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", type=pathlib.Path, help="checkout of cgtalg before the change")
    ap.add_argument("--after", type=pathlib.Path, default=ROOT, help="checkout after it (default: %(default)s)")
    ap.add_argument("--repeat", type=int, default=5, help="timed runs per workload and tree (default: 5)")
    ap.add_argument("--confirm", type=int, default=5, metavar="N",
                    help="N more interleaved runs per tree of each workload flagged slower, pooled with "
                         "the first ones before the verdict (default: 5; 0: none)")
    ap.add_argument("--only", nargs="+", metavar="NAME", help="only these workloads (see --list)")
    ap.add_argument("--timeout", type=float, default=600, help="seconds allowed to one child (default: 600)")
    ap.add_argument("--markdown", action="store_true", help="print the table as markdown")
    ap.add_argument("--json", action="store_true", help="print everything as JSON (raw samples included)")
    ap.add_argument("--list", action="store_true", help="list the workloads and exit")
    ap.add_argument("--load", type=pathlib.Path, metavar="FILE",
                    help="print the table of an earlier run saved with --json (nothing is run)")
    args = ap.parse_args(argv)
    if args.list:
        for w in WORKLOADS:
            print(f"{w.name:22s} {w.label}")
        return 0
    if args.load is not None:
        data = json.loads(args.load.read_text(encoding="utf-8"))
        print_markdown(data) if args.markdown else print_text(data)
        return 0
    if args.before is None:
        ap.error("--before DIR is required")
    if args.repeat < 1:
        ap.error("--repeat must be at least 1")
    unknown = [n for n in args.only or [] if n not in BY_NAME]
    if unknown:
        ap.error(f"unknown workload(s) {', '.join(unknown)}; --list names them")
    workloads = [w for w in WORKLOADS if args.only is None or w.name in args.only]
    roots = []
    for d in (args.before, args.after):
        root = d.resolve()
        if not (root / "cgtalg" / "__init__.py").is_file():
            ap.error(f"{d} is not a checkout of cgtalg (no cgtalg/__init__.py)")
        roots.append(root)
    quiet = args.json or args.markdown
    try:
        data = measure(roots[0], roots[1], args.repeat, workloads, args.timeout, max(args.confirm, 0),
                       log=lambda *a: print(*a, file=sys.stderr if quiet else sys.stdout, flush=True))
    except WrongTree as e:
        print(f"compare_revisions: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(data, indent=2))
    elif args.markdown:
        print_markdown(data)
    else:
        print_text(data)
    return 1 if any(r["error"] for r in data["rows"]) else 0


if __name__ == "__main__":
    sys.exit(main())
