"""Publish the misère quotient census from a store: the table, its certificates, the plot.

Reads every class record from the store (``quotient_census`` of the codes ``0.d1d2d3`` and
``4.d1d2``, in this process; records are re-checked, nothing is recomputed that the store holds
at the class budget given) and writes

* ``OUT/quotient_census.csv``: one row per code (575 rows; columns in docs/quotient_census.md);
* ``OUT/quotient_census.json.gz``: the same rows with their certificates (final: the quotient
  and the periodicity of Φ; infinite: the ray pretension with its order witness), which
  ``cgtalg check OUT/quotient_census.json.gz`` re-checks from the definitions;
* ``OUT/quotient_census_growth.png``: ``|Q_n|`` against ``n`` of the unsettled classes;
* ``OUT/quotient_census_pack.json.gz``: the states, counting levels and proofs a rerun on
  another machine resumes from (tools/quotient_census_pack.py);

and prints the counts and the lists of infinite and unsettled classes in Markdown.

    PYTHONPATH=. python tools/publish_quotient_census.py --store STORE --class-time 60 --out docs/data

or, from the ``--json`` outputs of the two census runs (``cgtalg census quotient --digits 3 ...
--json > q3.json`` and ``--digits 2 --d0 4``), without reading the records again:

    PYTHONPATH=. python tools/publish_quotient_census.py --store STORE --from q3.json q4.json --out docs/data
"""

from __future__ import annotations

import argparse
import csv
import gzip
import io
import json
from pathlib import Path

from cgtalg.census.quotients import quotient_census


def _as_csv(r: dict) -> dict:
    """A JSON row with the list columns joined as the CSV writes them."""
    d = dict(r)
    for k in ("generator_heaps", "p_portion", "phi"):
        d[k] = None if d.get(k) is None else " ".join(map(str, d[k]))
    d["growth"] = None if d.get("growth") is None else " ".join(f"{h}:{o}" for h, o in d["growth"])
    if isinstance(d.get("cousins"), list):
        d["cousins"] = " ".join(d["cousins"])
    return d


def _plot(rows: list, path: Path) -> None:
    """``|Q_n|`` against ``n`` (step plot, log scale) of each unsettled class, and up to the last
    finite quotient of each infinite class (dashed)."""
    from matplotlib.figure import Figure

    classes: dict = {}
    for r in sorted(rows, key=lambda r: int(r["shift"])):
        if r["status"] in ("unsettled", "infinite") and r.get("growth") and r["standard_form"] not in classes:
            classes[r["standard_form"]] = r
    if not classes:
        return
    fig = Figure(figsize=(8, 5))
    ax = fig.add_subplot()
    for std, r in sorted(classes.items()):
        s = int(r["shift"])
        xs = [h - s for h, _o in r["growth"]] + [int(r["heaps"]) - s]
        ys = [o for _h, o in r["growth"]] + [r["growth"][-1][1]]
        ax.step(xs, ys, where="post", lw=0.8, alpha=0.7, ls="--" if r["status"] == "infinite" else "-")
    ax.set_yscale("log")
    ax.set_xscale("symlog", linthresh=16)
    ax.set_xlim(left=0)
    ax.set_xlabel("heap n of the standard form (linear to 16, logarithmic after)")
    ax.set_ylabel("order of Q_n")
    n_inf = sum(r["status"] == "infinite" for r in classes.values())
    ax.set_title(f"{len(classes) - n_inf} unsettled classes (solid), {n_inf} infinite up to Q_(v-1) (dashed)")
    fig.savefig(path, dpi=110)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--store", required=True)
    ap.add_argument("--class-time", type=float, help="the class budget of the run (seconds)")
    ap.add_argument("--from", dest="sources", nargs="+", help="the --json outputs of the census runs")
    ap.add_argument("--out", default="docs/data")
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.sources:
        docs = [json.loads(Path(f).read_text()) for f in args.sources]
    else:
        if args.class_time is None:
            ap.error("--class-time is needed without --from")
        docs = [quotient_census(d, d0, scheduler="serial", store=args.store, class_seconds=args.class_time,
                                progress=False).to_json() for d, d0 in ((3, 0), (2, 4))]
    from cgtalg.census.quotient_table import QUOTIENT_CSV_COLUMNS

    merged = {"census": {"parts": [d["census"] for d in docs]}, "rows": [r for d in docs for r in d["rows"]]}
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=list(QUOTIENT_CSV_COLUMNS), lineterminator="\n")
    w.writeheader()
    for r in merged["rows"]:
        d = _as_csv(r)
        w.writerow({k: ("" if d.get(k) is None else d[k]) for k in QUOTIENT_CSV_COLUMNS})
    (out / "quotient_census.csv").write_text(buf.getvalue())
    with gzip.open(out / "quotient_census.json.gz", "wt", encoding="utf-8") as fh:
        json.dump(merged, fh, separators=(",", ":"))
    _plot(merged["rows"], out / "quotient_census_growth.png")
    import importlib.util

    spec = importlib.util.spec_from_file_location("pack", Path(__file__).with_name("quotient_census_pack.py"))
    pack = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(pack)
    pack.export(args.store, str(out / "quotient_census_pack.json.gz"))
    rows = merged["rows"]
    codes: dict[str, int] = {}
    classes: dict[str, set] = {}
    for r in rows:
        codes[r["status"]] = codes.get(r["status"], 0) + 1
        classes.setdefault(r["status"], set()).add(r["standard_form"])
    print(f"{len(rows)} codes, {sum(len(v) for v in classes.values())} classes")
    print("| status | classes | codes |\n| --- | ---: | ---: |")
    for s in ("tame", "wild-finite", "infinite", "unsettled", "failed"):
        print(f"| {s} | {len(classes.get(s, ()))} | {codes.get(s, 0)} |")
    seen = set()
    print("\nInfinite (standard form: Q_n infinite from heap v; |Q_(v-1)|):")
    for r in sorted(rows, key=lambda r: (r["standard_form"], r["shift"])):
        if r["status"] == "infinite" and r["standard_form"] not in seen:
            seen.add(r["standard_form"])
            s = int(r["shift"])
            members = sorted(x["code"] for x in rows if x["standard_form"] == r["standard_form"])
            print(f"- `{r['standard_form']}`: Q_n infinite from heap {int(r['infinite_from']) - s}, "
                  f"|Q_{int(r['heaps']) - s}| = {r['order']} (codes {', '.join(members)})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
