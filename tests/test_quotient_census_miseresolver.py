"""The misère quotient census against Aaron Siegel's MisereSolver (slow).

Acceptance point: every class of the census (``docs/data/quotient_census.csv``) whose quotient
MisereSolver reaches within two minutes has the same order ``|Q|`` and the same ``|P|``.

Sources:

* MisereSolver, by Aaron Siegel (2006–07), the misère-quotient solver that CGSuite carries,
  described in T. E. Plambeck and A. N. Siegel, "Misère quotients for impartial games",
  J. Combin. Theory Ser. A 115 (2008) 593–622. It is GPL and lives outside the project, in
  ``../shared/peers/miseresolver``: it is only compiled (``javac``, into a temporary directory,
  once per module) and run as a subprocess through its driver
  ``Bench CODE MAXHEAP SECONDS``, which prints ``heap N |Q|=… |P|=…`` for each heap it
  finishes (``Q_N``: the quotient of heaps ``0 .. N``), as ``benchmarks/bench_miseresolver.py``
  does.
* The census table, read with :class:`csv.DictReader`. One row per class (the row whose code
  is its ``standard_form`` if present, else the first); MisereSolver runs on the standard form
  itself, to heap ``heaps - shift`` (heap ``n`` of a code is heap ``n - shift`` of its
  standard form).

What is compared, at that heap, when MisereSolver reaches it within ``SECONDS`` (120 s; the
environment variable ``CGTALG_MISERESOLVER_SECONDS`` overrides it):

* final classes (``tame``, ``wild-finite``): ``heaps`` is where the periodicity theorem
  certified the final quotient, so ``|Q_heaps|`` must be its order; for a final quotient by the
  normal tail (``0.56``), ``heaps`` is the verified ``Q_N`` that the tail grows by one element per
  new nim-value, so ``|Q_N|`` must be its order less those (the certificate's
  ``tail.new_values``); at least 80 % of them must be compared, so the test cannot pass vacuously;
* infinite classes (``infinite``, if the table has them): ``Q_{v-1}``, the last finite
  quotient, with ``v`` the ``infinite_from`` column (``heaps`` when the column is absent);
* unsettled classes, in a separate test: the partial quotient ``Q_N`` at ``N = heaps``, the
  last heap reached, exact too.

Skipped: classes MisereSolver does not reach in time (counted), and classes whose standard
form has a digit other than 0 before the point (``4.xx``): MisereSolver's stand-in octal move
generator (``TakeAndBreak.java``) reads only the digits after the point, so it would play a
different game. Without ``javac``/``java`` the module is skipped (failed under ``CI``).
"""

from __future__ import annotations

import csv
import gzip
import json
import os
import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
PEER = ROOT.parent / "shared" / "peers" / "miseresolver"
CENSUS = ROOT / "docs" / "data" / "quotient_census.csv"
CERTIFICATES = ROOT / "docs" / "data" / "quotient_census.json.gz"
SECONDS = int(os.environ.get("CGTALG_MISERESOLVER_SECONDS", "120"))
#: the unsettled classes are a bonus (the issue asks for the final ones): a shorter limit keeps
#: CI's slow step short (the full comparison: CGTALG_MISERESOLVER_UNSETTLED_SECONDS=120)
UNSETTLED_SECONDS = int(os.environ.get("CGTALG_MISERESOLVER_UNSETTLED_SECONDS", "15"))
#: unsettled classes compared in the default slow run (a seeded sample)
UNSETTLED_SAMPLE = 16
WORKERS = 2
MIN_COMPARED = 0.8

HEAP_LINE = re.compile(r"^heap (\d+) \|Q\|=(\d+) \|P\|=(\d+)", re.MULTILINE)
PARSEABLE = re.compile(r"0\.[0-7]+")
FINAL = ("tame", "wild-finite")


@pytest.fixture(scope="module")
def build(tmp_path_factory) -> Path:
    """MisereSolver compiled into a temporary directory, once for the module."""
    srcs = sorted(str(p) for p in (PEER / "jsrc").rglob("*.java"))
    missing = ("javac/java (a JDK)" if shutil.which("javac") is None or shutil.which("java") is None
               else f"MisereSolver's sources in {PEER}" if not srcs else None)
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"the MisereSolver comparison needs {missing}")
        pytest.skip(f"no {missing} here")
    out = tmp_path_factory.mktemp("miseresolver")
    subprocess.run(["javac", "-nowarn", "-d", str(out), *srcs], check=True, capture_output=True)
    return out


def census_classes(statuses: tuple[str, ...]) -> list[dict]:
    """One row per class (its standard form's own row when the table has it) with a status in
    ``statuses``."""
    with CENSUS.open(newline="") as f:
        rows = list(csv.DictReader(f))
    chosen: dict[str, dict] = {}
    for row in rows:
        std = row["standard_form"]
        if std not in chosen or row["code"] == std:
            chosen[std] = row
    # an infinite row proved by a largest-heap rule states no Q_n (no infinite_from, no order):
    # nothing to compare
    return [r for r in chosen.values() if r["status"] in statuses
            and not (r["status"] == "infinite" and r.get("infinite_from") in (None, ""))]


def target_heap(row: dict) -> int:
    """The heap of the standard form at which the row's ``order``/``p_count`` hold."""
    shift = int(row.get("shift") or 0)
    v = row.get("infinite_from")
    if row["status"] == "infinite" and v not in (None, ""):
        return int(v) - 1 - shift
    return int(row["heaps"]) - shift


def tail_growth() -> dict[str, int]:
    """For each standard form made final by the normal tail, the elements the tail adds to the
    verified ``Q_N`` (one per new nim-value): MisereSolver computes ``Q_N`` itself, so at heap
    ``N`` the row's order less these is what it must find (``0.56``: 130 − 64 = 66 at heap 7916)."""
    doc = json.loads(gzip.decompress(CERTIFICATES.read_bytes()))
    out = {}
    for r in doc["rows"]:
        q = (r.get("certificate") or {}).get("quotient") or {}
        if isinstance(q, dict) and q.get("tail"):
            out[r["standard_form"]] = len(q["tail"]["new_values"])
    return out


def run_bench(build: Path, code: str, heap: int, seconds: int = SECONDS) -> tuple[dict[int, tuple[int, int]], str]:
    """``{N: (|Q_N|, |P_N|)}`` for every heap MisereSolver finished, and the end of its output
    (``TIMEOUT``, ``killed``, a Java error ...) for the summary."""
    cmd = ["java", "-cp", str(build), "org.cgsuite.core.misere.solver.Bench", code, str(heap),
           str(seconds)]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=seconds + 30, cwd=build)
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        return {int(n): (int(q), int(p)) for n, q, p in HEAP_LINE.findall(out)}, "killed"
    got = {int(n): (int(q), int(p)) for n, q, p in HEAP_LINE.findall(proc.stdout)}
    note = "TIMEOUT" if "TIMEOUT" in proc.stdout else (proc.stderr.strip().splitlines() or [""])[-1]
    return got, note or f"exit {proc.returncode}"


def compare(build: Path, rows: list[dict], seconds: int = SECONDS) -> dict:
    """Run MisereSolver on each class (``WORKERS`` at a time) and sort the classes into
    compared, disagreeing, not reached and not parseable."""
    unparsed = [r["standard_form"] for r in rows if not PARSEABLE.fullmatch(r["standard_form"])]
    todo = [(r, target_heap(r)) for r in rows if PARSEABLE.fullmatch(r["standard_form"])]
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        results = list(pool.map(lambda t: run_bench(build, t[0]["standard_form"], t[1], seconds), todo))
    compared, disagreements, not_reached = [], [], []
    added = tail_growth()
    for (row, heap), (got, note) in zip(todo, results):
        std = row["standard_form"]
        if heap not in got:
            not_reached.append((std, heap, max(got, default=None), note))
            continue
        compared.append(std)
        ours, theirs = (int(row["order"]) - added.get(std, 0), int(row["p_count"])), got[heap]
        if ours != theirs:
            disagreements.append((std, heap, ours, theirs))
    return {"compared": compared, "disagreements": disagreements, "not_reached": not_reached,
            "unparsed": unparsed}


def summary(label: str, res: dict) -> str:
    slow = ", ".join(f"{s} (heap {h}, reached {r}, {n})" for s, h, r, n in res["not_reached"])
    return (f"{label}: {len(res['compared'])} classes compared, {len(res['not_reached'])} skipped "
            f"for time, {len(res['unparsed'])} skipped for parsing; {len(res['disagreements'])} "
            f"disagreements" + (f"; not reached: {slow}" if slow else ""))


def disagreement_message(res: dict) -> str:
    return "MisereSolver disagrees with the census on " + "; ".join(
        f"{std} at heap {heap}: ours |Q|={o[0]} |P|={o[1]}, MisereSolver |Q|={t[0]} |P|={t[1]}"
        for std, heap, o, t in res["disagreements"])


def test_final_and_infinite_classes_agree_with_miseresolver(build):
    rows = census_classes(FINAL + ("infinite",))
    finals = [r for r in rows if r["status"] in FINAL]
    assert finals, "the census has no final class"
    res = compare(build, rows)
    print("\n" + summary("final and infinite classes vs MisereSolver", res))
    assert not res["disagreements"], disagreement_message(res)
    final_forms = {r["standard_form"] for r in finals if PARSEABLE.fullmatch(r["standard_form"])}
    n_compared = len(final_forms.intersection(res["compared"]))
    assert n_compared >= MIN_COMPARED * len(final_forms), (
        f"only {n_compared} of {len(final_forms)} final classes compared: " + summary("final", res))


def test_unsettled_partial_quotients_agree_with_miseresolver(build):
    """A seeded sample of the unsettled classes (all of them: CGTALG_MISERESOLVER_UNSETTLED=all)."""
    import random

    rows = census_classes(("unsettled",))
    if not rows:
        pytest.skip("the census has no unsettled class")
    if os.environ.get("CGTALG_MISERESOLVER_UNSETTLED") != "all":
        rows = random.Random(34).sample(rows, min(UNSETTLED_SAMPLE, len(rows)))
    res = compare(build, rows, UNSETTLED_SECONDS)
    print("\n" + summary("unsettled classes (partial Q_N) vs MisereSolver", res))
    assert not res["disagreements"], disagreement_message(res)
    assert res["compared"] or not any(PARSEABLE.fullmatch(r["standard_form"]) for r in rows), (
        "no unsettled class compared: " + summary("unsettled", res))
