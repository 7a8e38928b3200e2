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

    PYTHONPATH=. python tools/publish_quotient_census.py --store STORE --time class=60s --out docs/data

or, from the ``--json`` outputs of the census runs (``cgtalg census quotient --digits 3 ...
--json > q3.json`` and ``--digits 2 --d0 4``), without reading the records again:

    PYTHONPATH=. python tools/publish_quotient_census.py --store STORE --from q3.json q4.json --out docs/data

A source may also be the published ``quotient_census.json.gz``, and a later source replaces the
rows of the codes it has: a run over some classes updates the table (``--from
docs/data/quotient_census.json.gz qA.json``); an unsettled row never replaces a settled one.
Every code of a class must come from one run of the whole class: a run over some of its codes
(``--codes 0.454`` of the eight codes of ``0.1777``) would leave the others' rows stale and its
own without cousins, so the table is refused (:func:`class_disagreements`) and the message
names the codes to run together.

``--rules FILE ...`` adds largest-heap rules (certificates of ``tools/largest_heap_rule.py``):
each is checked by the referee (:mod:`cgtalg.referee.heap_rule`) and, when it passes, every code
of its standard form becomes ``infinite``, the rule its certificate, with no ``infinite_from``
(the rule shows the quotient of all heaps infinite, no ``Q_n``).
"""

from __future__ import annotations

import argparse
import csv
import gzip
import io
import json
from pathlib import Path

from cgtalg.census.quotients import quotient_census
from cgtalg.cli.common import TimePart, add_time_arguments, resolve_time_arguments


def _as_csv(r: dict) -> dict:
    """A JSON row with the list columns joined as the CSV writes them."""
    d = dict(r)
    for k in ("generator_heaps", "p_portion", "phi"):
        d[k] = None if d.get(k) is None else " ".join(map(str, d[k]))
    d["growth"] = None if d.get("growth") is None else " ".join(f"{h}:{o}" for h, o in d["growth"])
    if isinstance(d.get("cousins"), list):
        d["cousins"] = " ".join(d["cousins"])
    return d


def _read(path: str) -> dict:
    """A census's ``--json`` output, or a published ``quotient_census.json.gz``."""
    raw = Path(path).read_bytes()
    return json.loads(gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw)


def _latest_rows(docs: list) -> list:
    """The rows of every code, each from the last source that has it, in the first source's
    order of codes (a later run of some classes replaces their rows in the published table); a
    ``failed`` row (a task that did not come back) does not replace a row that did, and an
    unsettled row does not replace an unsettled one that states more (a larger ``N``, or the same
    ``N`` and a larger proved lower bound on the next quotient: both are statements the
    construction proved, and the table keeps the stronger); a row tied to normal play (``stopped``
    ``normal play``: a statement about every heap, made at the least heap that proves it) states
    more than any untied one."""
    def strength(r: dict) -> tuple:
        return r.get("stopped") == "normal play", int(r.get("heaps") or 0), int(r.get("lower_bound") or 0)

    rows: dict[str, dict] = {}
    for d in docs:
        for r in d["rows"]:
            old = rows.get(r["code"])
            if old is not None and r.get("status") == "failed":
                continue
            if old is not None and r.get("status") == "unsettled" and old.get("status") in SETTLED:
                continue
            if (old is not None and r.get("status") == old.get("status") == "unsettled"
                    and strength(old) > strength(r)):
                continue
            rows[r["code"]] = r
    return list(rows.values())


#: the columns every code of a class states alike (heaps counted on the standard form)
CLASS_COLUMNS = ("status", "stopped", "order", "p_count", "tame", "lower_bound", "bound_copies")
SHIFTED_COLUMNS = ("heaps", "bound_heap", "infinite_from")


def class_disagreements(rows: list) -> list:
    """Sentences naming each class whose codes' rows do not state the same result (a later run
    replaced some of them), or whose row lists fewer cousins than its part of the table has:
    empty when the table is consistent."""
    def on_standard(r: dict, k: str):
        v = r.get(k)
        return None if v in (None, "") else int(v) - int(r.get("shift") or 0)

    def cousins(r: dict) -> set:
        c = r.get("cousins") or ()
        return set(c.split() if isinstance(c, str) else c)

    by: dict[str, list] = {}
    for r in rows:
        by.setdefault(r["standard_form"], []).append(r)
    out = []
    for std, members in by.items():
        codes = sorted(r["code"] for r in members)
        sigs = {tuple(str(r.get(k) or "") for k in CLASS_COLUMNS) + tuple(on_standard(r, k) for k in SHIFTED_COLUMNS)
                for r in members}
        short = [r["code"] for r in members
                 if {x["code"] for x in members if x["code"][:2] == r["code"][:2]} - {r["code"]} - cousins(r)]
        if len(sigs) > 1:
            out.append(f"class {std}: its codes {', '.join(codes)} state different results (a run over some of "
                       f"them); run them together: --codes {','.join(codes)}")
        elif short:
            out.append(f"class {std}: the rows of {', '.join(sorted(short))} miss cousins (a run over some codes "
                       f"of the class); run them together: --codes {','.join(codes)}")
    return out


SETTLED = ("tame", "wild-finite", "infinite")
#: the columns a row proved by a largest-heap rule leaves empty (it proves no Q_n)
RULE_EMPTY = ("order", "p_count", "tame", "preperiod", "period", "heaps", "generator_heaps", "growth",
              "presentation", "p_portion", "phi", "stopped", "error", "infinite_from", "bound_heap",
              "lower_bound", "bound_copies")


def apply_rules(rows: list, paths: list) -> list:
    """The rows with every code of a rule's standard form made ``infinite`` by that rule, each
    rule first checked by the referee (``SystemExit`` with its reasons when it fails)."""
    from cgtalg.referee import heap_rule

    for path in paths:
        doc = _read(path)
        vd = heap_rule.check(doc)[0]
        if not vd.ok:
            raise SystemExit(f"{path}: the referee refuses the rule:\n{vd}")
        hits = 0
        for r in rows:
            if r["standard_form"] == doc["game"]:
                hits += 1
                for key in RULE_EMPTY:
                    r[key] = None
                r.update(status="infinite", source="largest-heap rule, re-checked",
                         result="infinite (largest-heap rule)", certificate={"infinite": doc})
        if not hits:
            raise SystemExit(f"{path}: no code has the standard form {doc['game']}")
        print(f"{path}: {doc['game']} infinite by its largest-heap rule ({hits} codes); {vd.reasons[-1]}")
    return rows


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
    add_time_arguments(ap, TimePart("class", "class_time", None,
                                    "the class budget of the census run whose records are read"))
    ap.add_argument("--from", dest="sources", nargs="+", help="the --json outputs of the census runs")
    ap.add_argument("--rules", nargs="+", default=[], help="largest-heap rule certificates (tools/largest_heap_rule.py)")
    ap.add_argument("--out", default="docs/data")
    ap.add_argument("--markdown", help="also write the results' tables (docs/quotient_census.md) to this file")
    args = resolve_time_arguments(ap, ap.parse_args(argv))
    out = Path(args.out)
    if args.sources:
        docs = [_read(f) for f in args.sources]
    else:
        if args.class_time is None:
            ap.error("--time class=T (the census run's class budget) is needed without --from")
        docs = [quotient_census(d, d0, scheduler="serial", store=args.store, class_seconds=args.class_time,
                                progress=False).to_json() for d, d0 in ((3, 0), (2, 4))]
    from cgtalg.census.quotient_table import QUOTIENT_CSV_COLUMNS

    rows = _latest_rows(docs)
    # before the rules' checks (minutes): a class a rule settles gets one row for all its codes
    ruled = {_read(path)["game"] for path in args.rules}
    bad = class_disagreements([r for r in rows if r["standard_form"] not in ruled])
    if bad:
        raise SystemExit("the table is not consistent, nothing written:\n" + "\n".join(bad))
    merged = {"census": {"parts": [p for d in docs for p in (d["census"].get("parts") or [d["census"]])]},
              "rows": apply_rules(rows, args.rules)}
    out.mkdir(parents=True, exist_ok=True)
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
            if r.get("infinite_from") is None:
                print(f"- `{r['standard_form']}`: infinite by a largest-heap rule (codes {', '.join(members)})")
                continue
            print(f"- `{r['standard_form']}`: Q_n infinite from heap {int(r['infinite_from']) - s}, "
                  f"|Q_{int(r['heaps']) - s}| = {r['order']} (codes {', '.join(members)})")
    if args.markdown:
        Path(args.markdown).write_text(markdown(rows))
    return 0


def _cell(x) -> str:
    return "" if x is None else str(x).replace("|", "\\|")


def markdown(rows: list) -> str:
    """The results' tables of docs/quotient_census.md: per status, one line per class (standard
    form; members with their shifts)."""
    by: dict[str, list] = {}
    for r in sorted(rows, key=lambda r: (r["standard_form"], int(r["shift"]))):
        by.setdefault(r["standard_form"], []).append(r)
    heads = {std: rs[0] for std, rs in by.items()}

    def members(std):
        return ", ".join(f"{r['code']}" + (f" (+{r['shift']})" if int(r["shift"]) else "") for r in by[std])

    def base(r, key):     # a heap of the standard form
        return None if r.get(key) in (None, "") else int(r[key]) - int(r["shift"])

    out = []
    cls = {s: [std for std, r in heads.items() if r["status"] == s] for s in
           ("tame", "wild-finite", "infinite", "unsettled", "failed")}
    out.append("| status | classes | codes |\n|---|---:|---:|")
    for st, stds in cls.items():
        out.append(f"| {st} | {len(stds)} | {sum(len(by[x]) for x in stds)} |")
    out.append(f"| all | {len(heads)} | {len(rows)} |\n")
    out.append(f"### Infinite quotients ({len(cls['infinite'])} classes)\n")
    out.append("`Q_n` is infinite for every `n >= v` (proved: a ray pretension verified on every position of its "
               "heaps, with an order witness); `Q_(v-1)` is the last finite quotient. Heaps of the standard form. "
               "A class with no `v` is infinite by a *largest-heap rule* (every outcome by a rule over heap sizes, "
               "and single heaps it tells apart): the quotient of all heaps is infinite, and no `Q_n` is shown "
               "infinite.\n")
    out.append("| standard form | codes (shift) | v | \\|Q_(v-1)\\| | \\|P\\| | growth |\n|---|---|---:|---:|---:|---|")
    for std in cls["infinite"]:
        r = heads[std]
        g = " ".join(f"{h - int(r['shift'])}:{o}" for h, o in (r.get("growth") or []) if h >= int(r["shift"]))
        if r.get("infinite_from") is None:
            out.append(f"| {std} | {members(std)} | — (largest-heap rule) | | | |")
            continue
        out.append(f"| {std} | {members(std)} | {base(r, 'infinite_from')} | {r['order']} | {r['p_count']} | {g} |")
    out.append(f"\n### Wild-finite quotients ({len(cls['wild-finite'])} classes)\n")
    out.append("Φ (its preperiod `n0` and period `p`), `N` and the generator heaps are those of the first code "
               "listed, in its own heaps.\n")
    out.append("| standard form | codes (shift) | \\|Q\\| | \\|P\\| | Φ: n0, p | N | generator heaps | presentation |"
               "\n|---|---|---:|---:|---:|---:|---|---|")
    for std in cls["wild-finite"]:
        r = heads[std]
        gens = " ".join(str(h) for h in (r.get("generator_heaps") or []))
        out.append(f"| {std} | {members(std)} | {r['order']} | {r['p_count']} | {r['preperiod']}, {r['period']} "
                   f"| {r['heaps']} | {gens} | {_cell(r.get('presentation'))} |")
    out.append(f"\n### Tame quotients ({len(cls['tame'])} classes)\n")
    out.append("| T_n | \\|Q\\| | standard forms |\n|---|---:|---|")
    tames: dict = {}
    for std in cls["tame"]:
        tames.setdefault((heads[std]["tame"], heads[std]["order"]), []).append(std)
    for (n, order), stds in sorted(tames.items()):
        out.append(f"| T_{n} | {order} | {', '.join(stds)} |")
    out.append(f"\n### Unsettled classes ({len(cls['unsettled'])})\n")
    out.append("`N`: the largest heap of the verified partial quotient `Q_N` (tied to normal play: the least heap "
               "where the tie is proved; every later order follows from the Grundy values); `|Q_H| >= L`: what "
               "counting the next heap proved (when it ran); heaps of the standard form.\n")
    out.append("![The order of Q_n against n for the unsettled classes, and for the infinite ones up to "
               "Q_(v-1)](data/quotient_census_growth.png)\n")
    out.append("| standard form | codes (shift) | N | \\|Q_N\\| | \\|P_N\\| | next | stopped |\n"
               "|---|---|---:|---:|---:|---|---|")
    for std in cls["unsettled"]:
        r = heads[std]
        nb = (f"\\|Q_{base(r, 'bound_heap')}\\| >= {r['lower_bound']}" if r.get("lower_bound") not in (None, "")
              else "")
        out.append(f"| {std} | {members(std)} | {base(r, 'heaps')} | {r['order']} | {r['p_count']} | {nb} | "
                   f"{_cell(r.get('stopped'))} |")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    raise SystemExit(main())
