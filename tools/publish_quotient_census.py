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
"""

from __future__ import annotations

import argparse
import base64
import gzip
import json
from pathlib import Path

from cgtalg.census.quotients import quotient_census


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--store", required=True)
    ap.add_argument("--class-time", type=float, required=True, help="the class budget of the run (seconds)")
    ap.add_argument("--out", default="docs/data")
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    parts = [quotient_census(3, 0, scheduler="serial", store=args.store, class_seconds=args.class_time,
                             progress=False),
             quotient_census(2, 4, scheduler="serial", store=args.store, class_seconds=args.class_time,
                             progress=False)]
    csv_text = parts[0].to_csv()
    csv_text += "".join(parts[1].to_csv().splitlines(keepends=True)[1:])
    (out / "quotient_census.csv").write_text(csv_text)
    docs = [p.to_json() for p in parts]
    merged = {"census": {"parts": [d["census"] for d in docs]}, "rows": [r for d in docs for r in d["rows"]]}
    with gzip.open(out / "quotient_census.json.gz", "wt", encoding="utf-8") as fh:
        json.dump(merged, fh, separators=(",", ":"))
    from cgtalg.census.quotient_table import _growth_plot

    png = _growth_plot(parts[0])
    if png:
        (out / "quotient_census_growth.png").write_bytes(base64.b64decode(png))
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
