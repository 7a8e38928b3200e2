"""Carry the misère quotient census's work from one store to another: a compact, compressed pack.

A census may span sessions and machines. The class records can be recomputed, but the work that
got them there (each class's verified quotient state, its last counting level, its proof of
infinitude) is what a new machine would otherwise redo. ``export`` writes, for every class with a
stored quotient, those entries of the store's sequence ``quotient:<standard form>``: the
state with its table given as its generators' columns (the table is rebuilt from them on
import: a few kilobytes where the table takes megabytes), the counting level, the ray proof and
the largest-heap rule as the store keeps them. ``import`` writes them into another store. Nothing is trusted: the
construction re-verifies each entry when it reads it (:mod:`cgtalg.quotients.storage`), and an
entry that fails is recomputed.

    PYTHONPATH=. python tools/quotient_census_pack.py export STORE docs/data/quotient_census_pack.json.gz
    PYTHONPATH=. python tools/quotient_census_pack.py import docs/data/quotient_census_pack.json.gz STORE

then ``cgtalg census quotient ... --store STORE`` goes on where the census was.
"""

from __future__ import annotations

import argparse
import base64
import gzip
import json
import sys
import zlib

import numpy as np

from cgtalg.census.codes import census_classes, enumerate_codes
from cgtalg.quotients.pretension import table_from_generators
from cgtalg.quotients.storage import COUNTING, ENTRY, RAYS, RULE, quotient_key
from cgtalg.rulesets.heaps.octal import TakeAndBreak
from cgtalg.store import open_store

FORMAT = 1


def _codes() -> list[str]:
    out = []
    for digits, d0 in ((3, 0), (2, 4)):
        out += [c.standard for c in census_classes(enumerate_codes(digits, d0=d0))]
    return sorted(set(out))


def _columns(rec: dict) -> dict:
    """The state record with its table as generator columns."""
    order = int(rec["order"])
    raw = zlib.decompress(base64.b64decode(rec["table"]))
    t = np.frombuffer(raw, dtype="<" + rec["dtype"]).reshape(order, order)
    gens = sorted(set(int(x) for x in rec["phi"]) - {0})
    cols = np.stack([t[:, g] for g in gens]).astype("<" + rec["dtype"]) if gens else np.zeros((0, order), "<u1")
    out = {k: v for k, v in rec.items() if k not in ("table", "presentation", "p_portion")}
    out["gens"] = gens
    out["columns"] = base64.b64encode(zlib.compress(cols.tobytes(), 9)).decode("ascii")
    return out


def _table(rec: dict) -> dict:
    """The state record back with its full table (as the store keeps it)."""
    order, dtype, gens = int(rec["order"]), rec["dtype"], [int(g) for g in rec["gens"]]
    cols = np.frombuffer(zlib.decompress(base64.b64decode(rec["columns"])), dtype="<" + dtype)
    cols = cols.reshape(len(gens), order).astype(np.int32)
    t = table_from_generators(list(cols), order)
    out = {k: v for k, v in rec.items() if k not in ("gens", "columns")}
    out["table"] = base64.b64encode(zlib.compress(np.ascontiguousarray(t.astype("<" + dtype)).tobytes(), 6)
                                    ).decode("ascii")
    return out


def export(store_path: str, out: str) -> int:
    store = open_store(store_path)
    pack: dict = {"format": FORMAT, "kind": "quotient-census-pack", "classes": {}}
    for std in _codes():
        meta = store.sequence_meta(quotient_key(TakeAndBreak(std))) or {}
        entry = {}
        if ENTRY in meta:
            entry["state"] = _columns(meta[ENTRY])
        for name in (COUNTING, RAYS, RULE):
            if name in meta:
                entry[name] = meta[name]
        if entry:
            pack["classes"][std] = entry
    with gzip.open(out, "wt", encoding="utf-8") as fh:
        json.dump(pack, fh, separators=(",", ":"))
    print(f"{len(pack['classes'])} classes written to {out}")
    return 0


def import_(pack_path: str, store_path: str) -> int:
    with gzip.open(pack_path, "rt", encoding="utf-8") as fh:
        pack = json.load(fh)
    if pack.get("format") != FORMAT or pack.get("kind") != "quotient-census-pack":
        print(f"{pack_path}: not a quotient census pack", file=sys.stderr)
        return 2
    store = open_store(store_path)
    n = 0
    for std, entry in sorted(pack["classes"].items()):
        key = quotient_key(TakeAndBreak(std))
        meta = dict(store.sequence_meta(key) or {})
        old = meta.get(ENTRY)
        state = entry.get("state")
        if state is not None and (old is None or (bool(old.get("final")), int(old.get("top", -1)))
                                  < (bool(state.get("final")), int(state["top"]))):
            meta[ENTRY] = _table(state)
        for name in (COUNTING, RAYS, RULE):
            if name in entry and name not in meta:
                meta[name] = entry[name]
        store.put_sequence_meta(key, meta, replace=True)
        n += 1
    print(f"{n} classes read into {store_path} (each entry is re-verified when the census reads it)")
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    e = sub.add_parser("export")
    e.add_argument("store")
    e.add_argument("out")
    i = sub.add_parser("import")
    i.add_argument("pack")
    i.add_argument("store")
    args = ap.parse_args(argv)
    return export(args.store, args.out) if args.cmd == "export" else import_(args.pack, args.store)


if __name__ == "__main__":
    raise SystemExit(main())
