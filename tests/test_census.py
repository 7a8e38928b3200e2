"""The octal census on Dask (issue 12): classes, known periods, a 2-worker LocalCluster with a
worker killed mid-run against a serial run, resumption, the table and the published diff.

Published values used:
- Kayles 0.77: period 12, last exceptional heap 70 (preperiod 71; Winning Ways ch. 4).
- Dawson's chess 0.137: period 34, exceptions at 0, 14, 16, 17, 31, 34, 51 (preperiod 52;
  OEIS A002187, Guy & Smith 1956); Dawson's Kayles 0.07 has its values shifted by one heap
  (OEIS A002187: "Octal game .07 has values a(n-1)"), so preperiod 53, last exception 52.
- OEIS A002187 again: ".4, .401, .402, .403, .42, .421, .422 and .423 have values a(n-2)":
  first cousins of first cousins of 0.137.
- 0.16: period 149459, last exception 105350 (Gangolli & Plambeck 1989; OEIS A071430);
  0.56: period 144, preperiod 326640 as certified on main (tests/test_octal_periodicity.py,
  where the difference with OEIS A071436's stated last exception is explained).
- Officers 0.6 has first cousin 0.37 (Winning Ways ch. 4). tczajka/octal-games: "In Winning
  Ways game locator .27 should map to .26 (rather than .06)"; "In Flammenkamp's tables .161
  should not map to .36. The first difference between these two games is at heap size 519."
Every row is also checked against a direct computation of its own code (brute force for
the cousin shift and the member preperiods).
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

from cgtalg.census import census_classes, enumerate_codes, octal_census
from cgtalg.census.tasks import CENSUS_RULESET
from cgtalg.errors import CensusError
from cgtalg.rulesets.heaps.octal import TakeAndBreak
from cgtalg.store import open_store

ADMIN_URL = os.environ.get("CGTALG_TEST_POSTGRES_URL")
#: small bounds: the whole 2-digit census (41 classes) in a few seconds
PARAMS = dict(values=2**14, genus_heaps=12, quotient_heaps=6, quotient_max_seconds=60.0)


def _comparable(result):
    """Rows and records without what may differ between runs (timings, workers, provenance)."""
    rows = [{k: v for k, v in r.to_json().items() if k not in ("from_store", "source")} for r in result.rows]
    recs = {s: {k: v for k, v in rec.items() if k not in ("seconds", "worker")} for s, rec in result.records.items()}
    return rows, recs


@pytest.fixture(scope="module")
def serial():
    """The reference: the 2-digit census in this process, no store."""
    return octal_census(digits=2, scheduler="serial", **PARAMS)


@pytest.fixture(scope="module")
def client():
    """One 2-worker LocalCluster for the module (start-up is the slow part)."""
    from distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                           silence_logs=50)
    c = Client(cluster)
    yield c
    c.close()
    cluster.close()



# -- codes and classes --------------------------------------------------------------------------
def test_enumeration_counts_and_order():
    assert [len(enumerate_codes(k)) for k in (1, 2, 3)] == [7, 63, 511]
    assert len(enumerate_codes(2, hexadecimal=True)) == 255
    texts = [str(c) for c in enumerate_codes(2)]
    assert texts[:8] == ["0.01", "0.02", "0.03", "0.04", "0.05", "0.06", "0.07", "0.1"]
    assert len(census_classes(enumerate_codes(2))) == 41


def test_classes_are_exact_by_brute_force():
    """Every code's values are its class's standard form's, shifted (never 'first values agree')."""
    for cls in census_classes(enumerate_codes(2)):
        G = TakeAndBreak(cls.standard).grundy_sequence(400).astype(np.int64)
        for code, shift in cls.members:
            mine = TakeAndBreak(code).grundy_sequence(400 + shift).astype(np.int64)
            assert not mine[:shift].any() and np.array_equal(mine[shift:], G), code


def test_first_cousins_of_the_published_tables():
    classes = {c.standard: dict(c.members) for c in census_classes(enumerate_codes(3))}
    dawson = classes["0.137"]
    assert dawson["0.07"] == 1 and dawson["0.137"] == 0
    for code in ("0.4", "0.401", "0.402", "0.403", "0.42", "0.421", "0.422", "0.423"):  # OEIS A002187
        assert dawson[code] == 2
    assert classes["0.37"]["0.6"] == 1  # Officers
    assert set(classes["0.337"]) >= {"0.26", "0.27"} and "0.06" not in classes["0.337"]  # not WW's .27 -> .06
    assert "0.36" not in classes["0.161"] and "0.31" not in classes["0.314"]


# -- known periods ------------------------------------------------------------------------------
def test_known_periods_reproduced():
    r = octal_census(codes=["0.77", "0.137", "0.07", "0.16", "0.56", "0.4"], values=2**20, scheduler="serial",
                     misere=False)
    got = {row.code: (row.status, row.period, row.preperiod, row.last_exceptional) for row in r.rows}
    assert got == {
        "0.77": ("solved", 12, 71, 70),
        "0.137": ("solved", 34, 52, 51),
        "0.07": ("solved", 34, 53, 52),
        "0.4": ("solved", 34, 54, 53),
        "0.16": ("solved", 149459, 105351, 105350),
        "0.56": ("solved", 144, 326640, 326639),
    }
    assert r.row("0.07").cousins == ("0.137", "0.4") and r.row("0.137").max_value == 9  # A002187: G(85) = 9


def test_rows_agree_with_each_code_computed_directly(serial):
    for row in serial.rows:
        res = TakeAndBreak(row.code).periodicity(max_values=2**14)
        if row.status == "solved":
            assert (res.certified, res.period, res.preperiod) == (True, row.period, row.preperiod), row.code
            G = TakeAndBreak(row.code).grundy_sequence(row.preperiod + row.period)
            assert int(G.max()) == row.max_value and int(np.argmax(G)) == row.max_value_at, row.code
        else:
            assert not res.certified, row.code


# -- Dask --------------------------------------------------------------------------------------
def _kill_a_busy_worker(client, after: int):
    """An ``on_result`` hook: after ``after`` results, SIGKILL a worker process that has tasks."""
    state = {"seen": 0, "killed": None}

    def hook(std, record):
        state["seen"] += 1
        if state["seen"] != after:
            return
        busy = {w: ks for w, ks in client.processing().items() if ks}
        target = max(busy, key=lambda w: len(busy[w])) if busy else next(iter(client.processing()))
        pid = client.run(os.getpid, workers=[target])[target]
        os.kill(pid, signal.SIGKILL)
        state["killed"] = (target, len(busy.get(target, ())))

    return hook, state


def _dask_census_with_a_killed_worker(client, store_url, serial):
    client.wait_for_workers(2, timeout=120)
    hook, state = _kill_a_busy_worker(client, after=3)
    result = octal_census(digits=2, scheduler=client, store=store_url, on_result=hook, batch_size=8, **PARAMS)
    assert state["killed"] is not None and state["killed"][1] >= 1  # it had work when it died
    assert result.failed == 0 and result.computed == 41 and result.workers == 2
    assert result.batches <= 41 // 8 + 1 + result.seconds / 5 + 1  # batches, not a transaction per class
    assert _comparable(result) == _comparable(serial)
    # the store holds every record: a rerun computes nothing and answers the same
    again = octal_census(digits=2, scheduler="serial", store=store_url, **PARAMS)
    assert (again.computed, again.skipped) == (0, 41)
    assert _comparable(again) == _comparable(serial)
    return result


def test_dask_census_on_sqlite_survives_a_killed_worker(client, serial, tmp_path):
    path = str(tmp_path / "census.sqlite")
    _dask_census_with_a_killed_worker(client, path, serial)
    con = sqlite3.connect(path)
    rows = con.execute("SELECT COUNT(*), COUNT(DISTINCT position) FROM positions WHERE ruleset = ?",
                       (CENSUS_RULESET,)).fetchone()
    props = con.execute("SELECT COUNT(*) FROM position_properties").fetchone()[0]
    con.close()
    assert rows == (41, 41) and props == 41 * 3  # one record per class and part, written once


def test_dask_census_keeps_a_window_of_tasks_in_flight(client, serial, tmp_path, monkeypatch):
    """The driver submits a window of tasks and tops it up as classes come back, so a stopped
    run leaves the scheduler few tasks to forget (all 132,921 classes of a 6-digit census
    submitted at once kept the driver over 10 s in the scheduler after an interruption)."""
    from cgtalg.census import driver

    monkeypatch.setattr(driver, "_in_flight", lambda n_workers: 6)
    # a long look: the whole window comes back between two looks (the driver must refill it,
    # not take the empty window for the end of the run)
    monkeypatch.setattr(driver, "POLL_SECONDS", 0.5)
    batches: list[int] = []
    real_map = client.map

    def spy(fn, *columns, **kw):
        batches.append(len(columns[0]))
        return real_map(fn, *columns, **kw)

    monkeypatch.setattr(client, "map", spy)
    result = octal_census(digits=2, scheduler=client, store=str(tmp_path / "w.sqlite"), **PARAMS)
    assert sum(batches) == 41 and len(batches) > 41 // 6 and max(batches) <= 6
    assert result.failed == 0 and result.computed == 41
    assert _comparable(result) == _comparable(serial)


def test_a_window_that_shrinks_never_submits_a_class_twice(client, serial, tmp_path, monkeypatch):
    """Workers that leave a remote cluster shrink the window below the tasks in flight; the
    driver waits for them instead of going back over classes already submitted."""
    from cgtalg.census import driver

    sizes = iter([40] + [1] * 100000)  # the first count, then every recount: one worker left
    monkeypatch.setattr(driver, "_in_flight", lambda n_workers: next(sizes))
    monkeypatch.setattr(driver, "WORKER_RECOUNT_SECONDS", 0.0)
    keys: list[str] = []
    real_map = client.map

    def spy(fn, *columns, **kw):
        keys.extend(kw["key"])
        return real_map(fn, *columns, **kw)

    monkeypatch.setattr(client, "map", spy)
    result = octal_census(digits=2, scheduler=client, store=str(tmp_path / "s.sqlite"), **PARAMS)
    assert len(keys) == len(set(keys)) == 41
    assert result.failed == 0 and result.computed == 41
    assert _comparable(result) == _comparable(serial)


def test_dask_census_on_postgresql_survives_a_killed_worker(client, serial, pg_url):
    _dask_census_with_a_killed_worker(client, pg_url, serial)


def test_overlapping_censuses_and_the_scheduler_address(client, serial, tmp_path):
    """A 1-digit census, then the 2-digit one through the CLI with --scheduler ADDRESS on the
    same store: the classes of the first are read back, not written again."""
    import json

    from click.testing import CliRunner

    from cgtalg.cli.main import cli

    client.wait_for_workers(2, timeout=120)
    path = str(tmp_path / "overlap.sqlite")
    first = octal_census(digits=1, scheduler=client, store=path, **PARAMS)
    assert first.computed == 6
    args = ["census", "octal", "--digits", "2", "--values", str(PARAMS["values"]), "--genus-heaps", "12",
            "--quotient-heaps", "6", "--time", "quotient=60s", "--scheduler", client.scheduler.address,
            "--store", path, "--json"]
    out = CliRunner().invoke(cli, args)
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert (data["census"]["skipped"], data["census"]["computed"]) == (6, 35)
    assert [{k: v for k, v in r.items() if k not in ("from_store", "source")} for r in data["rows"]] \
        == _comparable(serial)[0]
    with open_store(path) as store:
        solved = sum(1 for rec in serial.records.values() if rec["normal"]["status"] == "solved")
        assert store.info()["position_properties"] == {"genus:heaps=12": 41, "normal": solved,
                                                       "normal:values=16384:dense=65536:three=2048": 41 - solved,
                                                       "quotient:heaps=6:order=256:states=200000": 41}


# -- failures and resumption -------------------------------------------------------------------
def test_a_failing_class_fails_alone_and_a_rerun_computes_it(tmp_path, monkeypatch, serial):
    import cgtalg.census.run as run

    real = run.compute_class

    def flaky(std, params, store, need, reuse=None, stop_at=None):
        if std == "0.137":
            raise RuntimeError("simulated crash")
        return real(std, params, store, need, reuse, stop_at)

    path = str(tmp_path / "fail.sqlite")
    monkeypatch.setattr(run, "compute_class", flaky)
    broken = octal_census(digits=2, scheduler="serial", store=path, **PARAMS)
    assert broken.failed == 1 and "simulated crash" in broken.errors["0.137"]
    assert {r.code for r in broken.rows if r.status == "failed"} == {"0.07", "0.4", "0.42"}  # class 0.137
    monkeypatch.setattr(run, "compute_class", real)
    fixed = octal_census(digits=2, scheduler="serial", store=path, **PARAMS)
    assert (fixed.computed, fixed.skipped, fixed.failed) == (1, 40, 0)
    assert _comparable(fixed) == _comparable(serial)


RUN = """
    import sys
    from cgtalg.census import octal_census
    octal_census(digits=2, scheduler="serial", store=sys.argv[1], batch_size=4, values=2**14, genus_heaps=12,
                 quotient_heaps=6, quotient_max_seconds=60.0, progress=False)
"""


def test_a_killed_run_resumes(tmp_path, serial):
    path = str(tmp_path / "killed.sqlite")
    open_store(path).close()
    proc = subprocess.Popen([sys.executable, "-c", textwrap.dedent(RUN), path], stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 240
    held = 0
    while held < 8:
        assert proc.poll() is None, proc.stderr.read()
        assert time.monotonic() < deadline
        time.sleep(0.05)
        with open_store(path) as store:
            held = store.info()["positions"]
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=60)
    resumed = octal_census(digits=2, scheduler="serial", store=path, **PARAMS)
    assert resumed.skipped >= 8 and 0 < resumed.computed == 41 - resumed.skipped
    assert _comparable(resumed) == _comparable(serial)


# -- output -------------------------------------------------------------------------------------
PUBLISHED = """\
code,period,preperiod,last exceptional heap,largest value,same as,values
0.77,12,71,70,8,,
0.137,34,50,,9,,
0.07,34,53,52,7,,0 0 1 1 2 0 3 1 1 0 3 3 2 2 4 0 5 2 2 3 3 0 1 1 3 0 2 1 1 0 4 5 2 7 4
0.161,,,,,0.36,
0.27,,,,,0.06,
0.36,,,,,,0 1 1
0.26,8,0,,,,
0.7,2,0,,1,0.3,
"""


def test_diff_lists_every_disagreement_with_the_first_heap(tmp_path):
    r = octal_census(codes=["0.77", "0.137", "0.07", "0.161", "0.36", "0.27", "0.26", "0.7"], values=2**12,
                     scheduler="serial", misere=False)
    published = tmp_path / "published.csv"
    published.write_text(PUBLISHED)
    found = {(d.code, d.field): d for d in r.diff(str(published))}
    assert set(found) == {("0.137", "preperiod"), ("0.07", "max_value"), ("0.161", "standard_form"),
                          ("0.27", "standard_form"), ("0.36", "values"), ("0.26", "period"), ("0.7", "standard_form")}
    assert found[("0.137", "preperiod")].first_heap == 85  # G(51) = 2 != G(85) = 9: 51 is exceptional
    assert found[("0.07", "max_value")].first_heap == 69  # the first value above 7 (OEIS A002187: a(68) = 8)
    assert found[("0.161", "standard_form")].first_heap == 519  # tczajka/octal-games
    assert found[("0.36", "values")].first_heap == 2
    assert found[("0.26", "period")].first_heap == 8
    assert found[("0.7", "standard_form")].first_heap is None  # 0.7 and 0.3: same values, other forms
    assert not found[("0.7", "standard_form")].conclusive
    assert "fails at heap 85" in str(found[("0.137", "preperiod")])


def test_csv_json_html(serial, tmp_path):
    import csv
    import json

    text = serial.to_csv(tmp_path / "t.csv")
    rows = list(csv.DictReader(text.splitlines()))
    assert len(rows) == 63 and rows[6]["code"] == "0.07" and rows[6]["standard_form"] == "0.137"
    assert (rows[6]["period"], rows[6]["preperiod"], rows[6]["last_exceptional"], rows[6]["status"]) == (
        "34", "53", "52", "solved")
    unsolved = [r for r in rows if r["status"] == "unsolved"]
    assert unsolved and all(int(r["values"]) >= 2**14 for r in unsolved)
    data = json.loads(json.dumps(serial.to_json()))
    assert data["census"]["counts"]["codes"] == 63 and len(data["classes"]) == 41
    page = serial.to_html(tmp_path / "t.html")
    assert page.count('src="data:image/png;base64,') == 3 and "<td>0.137</td>" in page


def test_cli_serial_with_files_and_diff(tmp_path):
    import json

    from click.testing import CliRunner

    from cgtalg.cli.main import cli

    published = tmp_path / "p.csv"
    published.write_text("code,period,preperiod\n0.7,2,0\n0.6,5,3\n")
    args = ["census", "octal", "--digits", "1", "--values", "2^10", "--scheduler", "serial", "--no-store",
            "--csv", str(tmp_path / "t.csv"), "--html", str(tmp_path / "t.html"), "--diff", str(published)]
    out = CliRunner().invoke(cli, args + ["--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert [(d["code"], d["field"], d["first_heap"]) for d in data["diff"]] == [("0.6", "period", 8)]
    assert (tmp_path / "t.csv").exists() and (tmp_path / "t.html").exists()
    text = CliRunner().invoke(cli, args).output
    assert "1 disagreement(s)" in text and "0.6: period published period 5, preperiod 3" in text
    bad = CliRunner().invoke(cli, ["census", "octal", "--digits", "1", "--html", str(tmp_path / "t.png"), "--no-store"])
    assert bad.exit_code != 0 and "--html" in bad.output


@pytest.mark.slow
def test_default_local_cluster_matches_serial(serial, tmp_path):
    """``scheduler=None``: the census starts (and closes) its own LocalCluster."""
    result = octal_census(digits=2, workers=2, store=str(tmp_path / "local.sqlite"), **PARAMS)
    assert result.workers == 2 and result.scheduler.startswith("tcp://") and result.failed == 0
    assert _comparable(result) == _comparable(serial)


def test_codes_with_d0_4_split_without_taking():
    # 4.xyz codes (d0 = 4: a heap may be split into two nonempty heaps without taking): the
    # table Flammenkamp keeps apart. Every row is checked against the code computed directly,
    # and each class against its standard form by values (shifted), as for 0.xyz.
    codes = enumerate_codes(1, d0=4)
    assert [str(c) for c in codes] == ["4.0", "4.1", "4.2", "4.3", "4.4", "4.5", "4.6", "4.7"]
    assert len(enumerate_codes(2, d0=4)) == 64
    with pytest.raises(CensusError):
        enumerate_codes(1, d0=2)
    r = octal_census(digits=1, d0=4, values=2**12, scheduler="serial", misere=False)
    assert len(r.rows) == 8
    for row in r.rows:
        res = TakeAndBreak(row.code).periodicity(max_values=2**12)
        assert (row.status == "solved") == bool(res.certified), row.code
        if res.certified:
            assert (row.period, row.preperiod) == (res.period, res.preperiod), row.code
    for cls in census_classes(codes):
        G = TakeAndBreak(cls.standard).grundy_sequence(300).astype(np.int64)
        for code, shift in cls.members:
            mine = TakeAndBreak(code).grundy_sequence(300 + shift).astype(np.int64)
            assert not mine[:shift].any() and np.array_equal(mine[shift:], G), code
