"""The census trusts nothing it reads back (issue 20, parts 2 and 5): every class record reused
from the store is re-checked (the period's certificate on recomputed values, the quotient by
the exact verifier, the genus on a recomputed sample), a tampered one is detected, recomputed
and reported, and the table says which rows were computed and which were reused and
re-checked. A census is bounded and interruptible: an unreachable scheduler fails within
seconds naming its address, a census that cannot fit is refused up front, Ctrl-C stops it
cleanly.

Tampering is raw SQL on the SQLite file, as a bug or a hand edit would do it.
"""

from __future__ import annotations

import csv
import io
import json
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest

from cgtalg.census import octal_census, read_published
from cgtalg.census.recheck import COMPUTED, RECHECKED
from cgtalg.census.tasks import CENSUS_RULESET
from cgtalg.errors import CensusError, ComputationLimitError
from hang import HANG_SECONDS

PARAMS = dict(values=2**14, genus_heaps=12, quotient_heaps=6, quotient_max_seconds=60.0)
ROOT = Path(__file__).resolve().parent.parent


def _census(path, **kw):
    return octal_census(digits=1, scheduler="serial", store=path, **dict(PARAMS, **kw))


def _tamper_property(path, standard, prop, json_path, value):
    con = sqlite3.connect(path)
    with con:
        n = con.execute(
            "UPDATE position_properties SET value = json_set(value, ?, json(?)) WHERE name = ? AND position_id = "
            "(SELECT id FROM positions WHERE ruleset = ? AND position = ?)",
            (json_path, json.dumps(value), prop, CENSUS_RULESET, standard)).rowcount
    con.close()
    assert n == 1


def _tamper_quotient_state(path, game, P):
    con = sqlite3.connect(path)
    with con:
        meta = json.loads(con.execute("SELECT meta FROM sequences WHERE key = ?", (f"quotient:{game}",)).fetchone()[0])
        meta["misere_quotient"]["P"] = P
        con.execute("UPDATE sequences SET meta = ? WHERE key = ?", (json.dumps(meta), f"quotient:{game}"))
    con.close()


def _copy(src, dst):
    """A consistent copy of a SQLite store (its WAL included: SQLite's backup API)."""
    a, b = sqlite3.connect(src), sqlite3.connect(dst)
    with b:
        a.backup(b)
    a.close()
    b.close()


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    """A 1-digit census written to a store, and its result."""
    path = str(tmp_path_factory.mktemp("trust") / "census.sqlite")
    first = _census(path)
    assert {r.source for r in first.rows} == {COMPUTED}
    return path, first


def _rows(result):
    return [{k: v for k, v in r.to_json().items() if k not in ("source", "from_store")} for r in result.rows]


def test_a_clean_rerun_reuses_every_record_after_re_checking_it(stored, tmp_path):
    path, first = stored
    copy = str(tmp_path / "copy.sqlite")
    _copy(path, copy)
    again = _census(copy)
    assert {r.source for r in again.rows} == {RECHECKED}
    assert (again.computed, again.skipped, again.rechecks) == (0, 6, {})
    assert _rows(again) == _rows(first)
    assert "reused, re-checked" in str(again) and "6 reused from the store and re-checked" in again.summary()


def test_tampered_records_are_detected_recomputed_and_reported(stored, tmp_path):
    path, first = stored
    copy = str(tmp_path / "tampered.sqlite")
    _copy(path, copy)
    _tamper_property(copy, "0.137", "normal", "$.period", 68)           # 0.4's class: a (true) multiple
    _tamper_property(copy, "0.7", "quotient:heaps=6:order=256:states=200000", "$.order", 3)  # a final quotient
    _tamper_property(copy, "0.1", "genus:heaps=12", "$.sequence[2]", "5")
    _tamper_quotient_state(copy, "0.5", "00")                             # the verified state behind a final one
    with pytest.warns(RuntimeWarning, match="failed their re-check and were recomputed"):
        again = _census(copy)
    assert set(again.rechecks) == {"0.137", "0.7", "0.1", "0.5"}
    assert set(again.rechecks["0.137"]) == {"normal"} and "period" in again.rechecks["0.137"]["normal"]
    assert set(again.rechecks["0.7"]) == {"quotient"} and "order" in again.rechecks["0.7"]["quotient"]
    assert set(again.rechecks["0.1"]) == {"genus"} and "heap 2" in again.rechecks["0.1"]["genus"]
    assert set(again.rechecks["0.5"]) == {"quotient"} and "StoreCorruptError" in again.rechecks["0.5"]["quotient"]
    source = {r.code: r.source for r in again.rows}
    assert source == {"0.1": COMPUTED, "0.2": RECHECKED, "0.3": RECHECKED, "0.4": COMPUTED, "0.5": COMPUTED,
                      "0.6": RECHECKED, "0.7": COMPUTED}
    assert _rows(again) == _rows(first)                                  # the true values are printed
    assert again.row("0.4").period == 34
    text = str(again)
    assert "re-check failed, recomputed: 0.137 normal" in text and "stored record(s) failed their re-check" in text
    # the tampered census records were repaired in place (put_positions_many(replace=True))
    assert not any("could not be replaced" in w for w in again.warnings)
    # the tampered quotient state was replaced by the recomputation: 0.5 is trusted again next time
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        third = _census(copy)
    assert third.row("0.5").source == RECHECKED
    assert third.row("0.4").source == RECHECKED and third.row("0.4").period == 34
    # the CSV, JSON and HTML outputs carry the column
    csv_text = third.to_csv()
    assert csv_text.splitlines()[0].endswith(",source")
    assert "0.5,0.5," in csv_text and ",reused, re-checked" not in csv_text  # quoted: one column
    assert '"reused, re-checked"' in csv_text
    assert third.to_json()["rows"][0]["source"] in (COMPUTED, RECHECKED)
    assert "<th>source</th>" in third.to_html()


def test_the_source_column_in_the_diff_and_old_tables_still_load(stored, tmp_path):
    path, first = stored
    new = tmp_path / "new.csv"
    first.to_csv(new)
    old = tmp_path / "old.csv"  # a table written before the column existed
    rows = list(csv.reader(first.to_csv().splitlines()))
    assert rows[0][-1] == "source"
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(r[:-1] for r in rows)
    old.write_text(buf.getvalue())
    assert "source" not in old.read_text()
    assert len(read_published(str(old))) == len(read_published(str(new))) == 7
    assert first.diff(str(old)) == first.diff(str(new))  # the column changes nothing the diff reads
    published = tmp_path / "published.csv"
    published.write_text("code,period\n0.4,35\n")
    (d,) = first.diff(str(published))
    assert d.source == COMPUTED and str(d).endswith("[computed]") and d.to_json()["source"] == COMPUTED


def test_an_unreachable_scheduler_fails_within_seconds_naming_it():
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    t0 = time.monotonic()
    with pytest.raises(CensusError, match=f"cannot reach the Dask scheduler at {address} within"):
        octal_census(digits=1, scheduler=address, misere=False, values=2**10)
    assert time.monotonic() - t0 < HANG_SECONDS


def test_the_cli_names_the_unreachable_scheduler(tmp_path):
    from click.testing import CliRunner

    from cgtalg.cli.main import cli

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    t0 = time.monotonic()
    out = CliRunner().invoke(cli, ["census", "octal", "--digits", "1", "--no-store", "--json",
                                   "--scheduler", f"tcp://127.0.0.1:{port}"])
    assert time.monotonic() - t0 < HANG_SECONDS
    assert isinstance(out.exception, CensusError) and f"127.0.0.1:{port}" in str(out.exception)


def test_a_census_that_cannot_fit_is_refused_up_front():
    t0 = time.monotonic()
    with pytest.raises(ComputationLimitError, match=r"262,143 codes needs at least \d+ s .* --time"):
        octal_census(digits=6, max_seconds=1, scheduler="serial")
    with pytest.raises(ComputationLimitError, match=r"262,143 codes would need about .* memory ceiling .* --memory"):
        octal_census(digits=6, max_memory="64M", scheduler="serial")
    assert time.monotonic() - t0 < HANG_SECONDS  # before any enumeration


def test_the_census_time_budget_stops_it_and_keeps_what_came_back(tmp_path):
    """(The whole two-digit census takes about 2 s of wall-clock time on a machine of 2026-11-30;
    a budget of 0.5 s let it finish on a faster one, so the budget is 0.1 s: a few classes, or
    none if the codes' enumeration used it up.)"""
    path = str(tmp_path / "budget.sqlite")
    t0 = time.monotonic()
    with pytest.raises(ComputationLimitError, match="the census ") as stopped:
        octal_census(digits=2, scheduler="serial", store=path, max_seconds=0.1, **PARAMS)
    assert time.monotonic() - t0 < 60
    done = re.search(r"\((\d+) of 41 classes done and stored\)", str(stopped.value))
    kept = int(done.group(1)) if done else 0
    assert done or "before any class" in str(stopped.value), str(stopped.value)
    rest = octal_census(digits=2, scheduler="serial", store=path, **PARAMS)
    assert rest.failed == 0 and rest.computed + rest.skipped == 41 and rest.skipped == kept


def test_a_long_class_stops_at_the_census_budget():
    """The budget reaches into a class: 2**20 values of 0.6 (unsolved) stop at it."""
    t0 = time.monotonic()
    with pytest.raises(ComputationLimitError, match="time budget"):
        octal_census(codes=["0.6"], scheduler="serial", values=2**24, dense_values=2**24, misere=False,
                     max_seconds=1.5)
    assert time.monotonic() - t0 < HANG_SECONDS


@pytest.mark.parametrize("scheduler", ["serial", None])
def test_ctrl_c_stops_the_census_cleanly(tmp_path, scheduler):
    path = str(tmp_path / "interrupted.sqlite")
    args = ["census", "octal", "--digits", "3", "--values", "2^16", "--store", path]
    args += ["--scheduler", "serial"] if scheduler else ["--workers", "2"]
    proc = subprocess.Popen([sys.executable, "-c", "import sys; from cgtalg.cli.main import main; sys.exit(main())",
                             *args], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    t0 = time.monotonic()
    seen = []
    started = "classes to compute" if scheduler else "submitting"  # Dask: the cluster is up and computing
    while True:  # progress is printed at once
        line = proc.stderr.readline()
        seen.append(line)
        if started in line or not line:
            break
    assert time.monotonic() - t0 < 120 and "enumerating 511 codes" in "".join(seen), "".join(seen)
    time.sleep(1)
    proc.send_signal(signal.SIGINT)
    t1 = time.monotonic()
    _out, err = proc.communicate(timeout=60)
    assert time.monotonic() - t1 < HANG_SECONDS  # the cluster closes in a few seconds; the driver answers at once
    assert proc.returncode == 130  # 128 + SIGINT, as shells report Ctrl-C
    assert "Traceback" not in err and ("aborted" in err or "interrupted" in err)
    rerun = octal_census(codes=["0.77"], scheduler="serial", store=path, misere=False, values=2**10)
    assert rerun.failed == 0  # the store is usable: the run resumes from it


def test_a_class_resumed_from_tampered_grundy_values_is_recomputed_from_fresh_ones(stored, tmp_path):
    """A class whose record is missing goes on from the Grundy values the store holds: its
    result is re-checked on fresh values, and recomputed without the stored ones if it fails."""
    from cgtalg.rulesets.heaps.octal import TakeAndBreak
    from cgtalg.store import open_store

    path, first = stored
    copy = str(tmp_path / "values.sqlite")
    _copy(path, copy)
    true = TakeAndBreak("0.137").grundy_sequence(1024, progress=False)
    fake = [int(x) for x in true]
    fake[500] = 9
    con = sqlite3.connect(copy)
    with con:
        con.execute("DELETE FROM position_properties WHERE name = 'normal' AND position_id = "
                    "(SELECT id FROM positions WHERE ruleset = ? AND position = '0.137')", (CENSUS_RULESET,))
        con.execute("DELETE FROM sequence_chunks WHERE sequence_key = 'grundy:0.137'")
        con.execute("DELETE FROM sequences WHERE key = 'grundy:0.137'")
    con.close()
    with open_store(copy) as store:
        store.extend_sequence("grundy:0.137", 0, fake)
    with pytest.warns(RuntimeWarning, match="failed their re-check"):
        again = _census(copy)
    assert "store's Grundy values" in again.rechecks["0.137"]["normal"]
    assert again.row("0.4").source == COMPUTED
    assert _rows(again) == _rows(first)
