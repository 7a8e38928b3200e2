"""Benchmark: canonical forms of Domineering, Konane, Clobber, Snort and Col positions against
the peers, in one run.

Each (library, game, board) is timed in a fresh interpreter (no warm caches carried between
boards or libraries; imports are not timed); ``--repeat N`` runs each N times and keeps the
median:

* cgtalg: ``partizan_form(ruleset, position)`` (the compiled kernel when it is built:
  ``cgtalg.normal.partizan_kernel``; ``--python`` forces the Python reference,
  ``engine="python"``);
* pycgt (pure Python, PyPI ``pycgt``): ``pycgt.rulesets.domineering.rectangle(m, n)``,
  ``pycgt.rulesets.clobber.parse(text)``;
* cgt-py (Rust, PyPI ``cgt-py``): ``cgt_py.Domineering(grid).canonical_form``,
  ``cgt_py.Konane(grid).canonical_form``, ``cgt_py.Snort(n, edges, blue=, red=).canonical_form``
  and ``cgt_py.Col(...)`` (Snort and Col boards are cgtalg's board texts, ``path:12``,
  ``grid:3x4``, read by cgtalg before the clock starts: cgt-py is given the same vertices,
  edges and tinted vertices, its blue / red being the vertices only Left / Right may colour).

The values are compared (each peer's printed value parsed by cgtalg and compared with cgtalg's
value for equality). Peers that are not installed, or that have no such game, are skipped:
``pip install 'cgtalg[bench]'`` installs them.

Usage::

    python benchmarks/bench_partizan.py [--quick] [--json] [--repeat 3] [--python]
        [--games domineering,konane,clobber,snort,col] [--boards 4x4,5x5]

(``--boards`` splits on commas: a Snort or Col board text with commas in it, ``tree:0,0,1``,
is given with ``+`` for its commas, ``tree:0+0+1``.)
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

BOARDS = {
    "domineering": ["2x8", "3x4", "4x4", "3x6", "4x5", "2x10", "3x7", "5x5", "5x6"],
    "konane": ["xoxo|oxox|xo..|ox..", "xoxoxo|oxoxox|xoxo..", "xoxox|oxoxo|xo.ox|oxoxo",
               "xoxoxo|ox.xox|xoxoxo|oxoxox"],
    "clobber": ["xoxo|oxox", "xoxoxo|oxoxox", "xoxo|oxox|xoxo", "xoxox|oxoxo|xoxox", "xoxoxoxo|oxoxoxox"],
    "snort": ["path:8", "path:12", "cycle:12", "star:8", "tree:0,0,1,1,2,2,3,3,4", "grid:3x3", "grid:2x6",
              "grid:3x4", "grid:3x4;left=0;right=11", "grid:4x4"],
    "col": ["path:8", "path:12", "cycle:12", "star:8", "tree:0,0,1,1,2,2,3,3,4", "grid:3x3", "grid:2x6",
            "grid:3x4", "grid:3x4;left=0;right=11", "grid:4x4"],
}
QUICK = {
    "domineering": ["2x8", "3x4", "4x4", "3x6"],
    "konane": ["xoxo|oxox|xo..|ox..", "xoxoxo|oxoxox|xoxo.."],
    "clobber": ["xoxo|oxox", "xoxoxo|oxoxox"],
    "snort": ["path:8", "grid:3x3"],
    "col": ["path:8", "grid:3x3"],
}
PEERS = {"domineering": ("pycgt", "cgt-py"), "konane": ("cgt-py",), "clobber": ("pycgt",), "snort": ("cgt-py",),
         "col": ("cgt-py",)}

_TIMED = """
import time
{setup}
t = time.perf_counter()
{compute}
dt = time.perf_counter() - t
print(dt)
print(str(g))
"""

# cgtalg's modules that the computation loads on first use (the peers' imports are untimed too)
_CGTALG_SETUP = ("import cgtalg.core.partizan\nfrom cgtalg.normal import partizan_kernel\n"
                 "partizan_kernel.available()\n")

# a Snort or Col board text read by cgtalg (untimed) into what cgt-py's constructors take
_GRAPH_SETUP = ("from cgtalg.rulesets.partizan.snort_col import {rule}\n"
                "tints, edges = {rule}().parse_position({{board!r}})\n"
                "n, edges = len(tints), list(edges)\n"
                "blue = [i for i, t in enumerate(tints) if t == 'L']\n"
                "red = [i for i, t in enumerate(tints) if t == 'R']")

_CODE = {
    ("cgtalg", "domineering"): (_CGTALG_SETUP + "from cgtalg.rulesets.partizan.games import Domineering as R, partizan_form\n"
                                "r = R(); pos = r.parse_position({board!r})",
                                "g = partizan_form(r, pos, progress=False, engine={engine!r})"),
    ("cgtalg", "konane"): (_CGTALG_SETUP + "from cgtalg.rulesets.partizan.konane import Konane as R\n"
                           "from cgtalg.rulesets.partizan.games import partizan_form\n"
                           "r = R(); pos = r.parse_position({board!r})",
                           "g = partizan_form(r, pos, progress=False, engine={engine!r})"),
    ("cgtalg", "clobber"): (_CGTALG_SETUP + "from cgtalg.rulesets.partizan.games import Clobber as R, partizan_form\n"
                            "r = R(); pos = r.parse_position({board!r})",
                            "g = partizan_form(r, pos, progress=False, engine={engine!r})"),
    ("cgtalg", "snort"): (_CGTALG_SETUP + "from cgtalg.rulesets.partizan.snort_col import Snort as R\n"
                          "from cgtalg.rulesets.partizan.games import partizan_form\n"
                          "r = R(); pos = r.parse_position({board!r})",
                          "g = partizan_form(r, pos, progress=False, engine={engine!r})"),
    ("cgtalg", "col"): (_CGTALG_SETUP + "from cgtalg.rulesets.partizan.snort_col import Col as R\n"
                        "from cgtalg.rulesets.partizan.games import partizan_form\n"
                        "r = R(); pos = r.parse_position({board!r})",
                        "g = partizan_form(r, pos, progress=False, engine={engine!r})"),
    ("pycgt", "domineering"): ("from pycgt.rulesets.domineering import rectangle\nfrom pycgt.notation import render\n"
                               "m, n = map(int, {board!r}.split('x'))",
                               "g = render(rectangle(m, n))"),
    ("pycgt", "clobber"): ("from pycgt.rulesets.clobber import parse\nfrom pycgt.notation import render",
                           "g = render(parse({board!r}))"),
    ("cgt-py", "domineering"): ("import cgt_py\nm, n = map(int, {board!r}.split('x'))\n"
                                "grid = '|'.join('.' * n for _ in range(m))",
                                "g = cgt_py.Domineering(grid).canonical_form"),
    ("cgt-py", "konane"): ("import cgt_py", "g = cgt_py.Konane({board!r}).canonical_form"),
    ("cgt-py", "snort"): ("import cgt_py\n" + _GRAPH_SETUP.format(rule="Snort"),
                          "g = cgt_py.Snort(n, edges, blue=blue, red=red).canonical_form"),
    ("cgt-py", "col"): ("import cgt_py\n" + _GRAPH_SETUP.format(rule="Col"),
                        "g = cgt_py.Col(n, edges, blue=blue, red=red).canonical_form"),
}


def _run(lib: str, game: str, board: str, timeout: float, engine: str | None) -> tuple[float | None, str]:
    setup, compute = _CODE[(lib, game)]
    code = _TIMED.format(setup=setup.format(board=board, engine=engine),
                         compute=compute.format(board=board, engine=engine))
    try:
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, f"timeout > {timeout:.0f} s"
    if out.returncode != 0:
        last = (out.stderr.strip().splitlines() or ["failed"])[-1]
        return None, last
    lines = out.stdout.strip().splitlines()
    return float(lines[0]), lines[1] if len(lines) > 1 else ""


def _median_run(lib: str, game: str, board: str, timeout: float, engine: str | None,
                repeat: int) -> tuple[float | None, str]:
    times, text = [], ""
    for _ in range(repeat):
        dt, text = _run(lib, game, board, timeout, engine)
        if dt is None:
            return None, text
        times.append(dt)
    return statistics.median(times), text


def _value_of(lib: str, text: str):
    """The peer's printed value as a cgtalg form (None when it cannot be read)."""
    try:
        from cgtalg.normal.notation import parse_partizan

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
    ap.add_argument("--games", default="domineering,konane,clobber,snort,col")
    ap.add_argument("--boards", default=None, help="comma-separated boards (for a single game)")
    ap.add_argument("--timeout", type=float, default=600.0)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--python", action="store_true", help="cgtalg's Python reference, not the kernel")
    args = ap.parse_args()
    engine = "python" if args.python else None
    rows = []
    for game in args.games.split(","):
        boards = ([b.replace("+", ",") for b in args.boards.split(",")] if args.boards
                  else (QUICK if args.quick else BOARDS)[game])
        for b in boards:
            row: dict = {"game": game, "board": b}
            texts = {}
            libs = ("cgtalg",) + PEERS[game]
            for lib in libs:
                dt, text = _median_run(lib, game, b, args.timeout, engine, args.repeat)
                row[lib] = dt
                texts[lib] = text
                if dt is None:
                    row[lib + "_note"] = text
            ours = _value_of("cgtalg", texts["cgtalg"]) if row["cgtalg"] is not None else None
            agree = {}
            for lib in PEERS[game]:
                if row[lib] is None or ours is None:
                    continue
                v = _value_of(lib, texts[lib])
                if v is not None:
                    from cgtalg.normal.partizan import equal

                    agree[lib] = equal(v, ours)
            row["value"] = texts["cgtalg"]
            row["agree"] = agree
            for lib in PEERS[game]:
                if row["cgtalg"] and row[lib]:
                    row[f"ratio_{lib}"] = round(row[lib] / row["cgtalg"], 2)
            rows.append(row)
            if not args.json:
                cells = [f"{game:<11} {b:<28} cgtalg {_fmt(row['cgtalg'])}"]
                for lib in PEERS[game]:
                    cells.append(f"{lib} {_fmt(row[lib])} ({lib}/cgtalg {row.get('ratio_' + lib, '-')})")
                print("  ".join(cells) + f"  agree {agree}  {texts['cgtalg'][:40]}", flush=True)
    if args.json:
        print(json.dumps(rows, indent=2))


def _fmt(t: float | None) -> str:
    return "      -" if t is None else f"{t:8.4f} s"


if __name__ == "__main__":
    main()
