"""Provenance in the store (issue 20, part 1): every stored result records the version of the
algorithm that computed it and the cgtalg version that wrote it; a row of an older version
(stale) is not served but recomputed and replaced, or, with ``serve_stale`` / ``--stale show``,
served and named. Each test plays a bug fix: a row is written by "version 1" with a wrong value,
the version is bumped (monkeypatched), and the right value must come back.
"""

from __future__ import annotations

import pathlib
import shutil
import sqlite3

import numpy as np
import pytest
from click.testing import CliRunner

import cgtalg as cg
from cgtalg.errors import StoreError
from cgtalg.store import open_store
from cgtalg.store import provenance as P
from cgtalg.store.provenance import ALGORITHM_VERSIONS, Provenance, current_version

DATA = pathlib.Path(__file__).parent / "data" / "store_written_before_issue19.sqlite"


def bump(monkeypatch, name, version=2):
    monkeypatch.setitem(ALGORITHM_VERSIONS, name, version)


@pytest.fixture
def path(tmp_path):
    return str(tmp_path / "s.sqlite")


# -- the version table ----------------------------------------------------------------------------
def test_names_and_families():
    assert current_version("grundy") == 1
    assert P.version_name("genus:heaps=40") == "genus"  # census parameterised names: the family
    assert P.version_name("solution:misere") == "solution"
    assert current_version("no such property") == P.DEFAULT_VERSION == 1
    assert P.sequence_version("grundy:0.77") == ALGORITHM_VERSIONS["sequence:grundy"]


def test_every_name_the_library_stores_is_listed():
    """The names written by the library (form properties of describe, relations, position
    properties, census families, sequence kinds and metadata entries) each have an entry."""
    from cgtalg.quotients.storage import ENTRY
    from cgtalg.report import PROPERTIES

    names = set(PROPERTIES) | {"misere_equivalent", "normal_equivalent", "canonical_form", "solution",
                               "normal", "quotient", "genus", "misere_grundy", "misere_outcome",
                               "sequence:grundy", "periodicity", ENTRY}
    assert names <= set(ALGORITHM_VERSIONS)


def test_rows_record_provenance(path):
    with open_store(path) as s:
        s.put(cg.nim(3), "grundy", 3)
        p = s.provenance(cg.nim(3), "grundy")
        assert p == Provenance(1, cg.__version__, True, "grundy", 1)
        assert s.provenance(cg.nim(4), "grundy") is None
        s.put_position("parity", "25", "solution", {"outcome": "P"})
        assert s.position_provenance("parity", "25", "solution").made_by == cg.__version__
    con = sqlite3.connect(path)
    assert con.execute("SELECT algorithm, made_by FROM form_properties").fetchall() == [(1, cg.__version__)]
    con.close()


# -- a bumped version: the old row is recomputed and replaced -------------------------------------
def test_form_property_recomputed_in_process_and_in_a_new_store(path, monkeypatch):
    G = cg.parse("{*2,*3}")
    with open_store(path) as s:
        s.put(G, "grundy", 5)  # "version 1" was wrong
        assert s.memo(G, "grundy", lambda: pytest.fail("recomputed a current row")) == 5
        bump(monkeypatch, "grundy")
        # the in-process cache is keyed by version: the same store object recomputes
        assert s.memo(G, "grundy", lambda: cg.grundy(G)) == 0
        assert s.stats == {"hits": 1, "misses": 1, "stale": 1}
        assert s.provenance(G, "grundy").algorithm == 2
        assert s.memo(G, "grundy", lambda: pytest.fail("recomputed twice")) == 0
    monkeypatch.undo()
    with open_store(path) as s:
        s.put(G, "grundy", 7)  # the old code does not write over a row of a newer version
        assert s.get(G, "grundy") is None  # nor serve it
    bump(monkeypatch, "grundy")
    with open_store(path) as s:
        assert s.get(G, "grundy") == 0  # and was left as it was


def test_describe_recomputes_a_stale_property(path, monkeypatch):
    """The tampering of the issue (a Grundy value of {*2,*3} changed to 5) is what a stale row
    looks like; after the bump the report recomputes it."""
    G = cg.parse("{*2,*3}")
    with open_store(path) as s:
        s.put(G, "grundy", 5)
        assert cg.describe(G, store=s, properties=("grundy",)).values["grundy"] == 5
    bump(monkeypatch, "grundy")
    with open_store(path) as s:
        report = cg.describe(G, store=s, properties=("grundy",))
        assert report.values["grundy"] == 0 and "grundy" not in report.from_store
        assert s.get(G, "grundy") == 0


def test_bulk_paths_replace_stale_rows(path, monkeypatch):
    with open_store(path) as s:
        s.put_many([(cg.nim(n), "grundy", n + 1) for n in range(6)])
        bump(monkeypatch, "grundy")
        assert s.get_many([cg.nim(n) for n in range(6)], "grundy") == [None] * 6
        assert s.properties(cg.nim(2)) == {}
        s.put_many([(cg.nim(n), "grundy", n) for n in range(6)])  # no conflict: stale rows give way
        assert s.get_many([cg.nim(n) for n in range(6)], "grundy") == list(range(6))
        with pytest.raises(StoreError, match="refusing to overwrite property 'grundy'"):
            s.put_many([(cg.nim(1), "grundy", 9)])  # write-once among current rows


def test_relation_recomputed(path, monkeypatch):
    g, h = cg.parse("*2+*1"), cg.parse("*3")
    with open_store(path) as s:
        s.put_relation(g, h, "misere_equivalent", {"holds": False, "certificate": None, "explanation": "old"})
        assert cg.prove_equivalence(g, h, store=s).holds is False  # served as stored
        bump(monkeypatch, "misere_equivalent")
        report = cg.prove_equivalence(g, h, store=s)  # Spindler, Theorem 5: *2+*1 = *3 in misère play
        assert report.holds and not report.from_store
    with open_store(path) as s:
        assert s.get_relation(g, h, "misere_equivalent")["holds"] is True
        with pytest.raises(StoreError, match="refusing to overwrite relation"):
            s.put_relation(g, h, "misere_equivalent", {"holds": False})


def test_position_property_recomputed(path, monkeypatch):
    calls = []

    def compute(v):
        return lambda: calls.append(v) or v

    with open_store(path) as s:
        assert s.memo_position("census:octal", "0.77", "normal", compute("old")) == "old"
        bump(monkeypatch, "normal")
        assert s.memo_position("census:octal", "0.77", "normal", compute("new")) == "new"
        assert s.get_positions_many("census:octal", ["0.77"]) == {"0.77": {"normal": "new"}}
    with open_store(path) as s:
        assert s.memo_position("census:octal", "0.77", "normal", compute("again")) == "new"
        # a census family shares the version of its name's family
        s.put_positions_many([("census:octal", "0.77", "normal:values=64", 1)])
        assert s.position_provenance("census:octal", "0.77", "normal:values=64").algorithm == 2
        with pytest.raises(StoreError, match="refusing to overwrite property 'normal'"):
            s.put_positions_many([("census:octal", "0.77", "normal", "other")])
    assert calls == ["old", "new"]


def test_solver_solution_recomputed(path, monkeypatch):
    from cgtalg.rulesets.parity import ParityGame
    from cgtalg.rulesets.solver import solve

    with open_store(path) as s:
        first = solve(ParityGame(), (25, 0, 0), store=s)
        assert s.stats["misses"] == 1
        bump(monkeypatch, "solution")
        again = solve(ParityGame(), (25, 0, 0), store=s)
        assert s.stats == {"hits": 0, "misses": 2, "stale": 1}
        assert again.to_json() == first.to_json()
        assert s.position_provenance("parity", "25", "solution").algorithm == 2


def test_sequence_recomputed(path, monkeypatch):
    from cgtalg.rulesets.heaps.octal import TakeAndBreak

    kayles = TakeAndBreak("0.77")
    right = kayles.grundy_sequence(40).tolist()
    with open_store(path) as s:
        wrong = list(right)
        wrong[30] = 99
        s.extend_sequence(kayles.sequence_key, 0, wrong)
        s.put_sequence_meta(kayles.sequence_key, {"note": "old"})
        bump(monkeypatch, "sequence:grundy")
        assert s.sequence_length(kayles.sequence_key) == 0 and s.sequence_meta(kayles.sequence_key) is None
        cg.clear_caches()
        assert kayles.grundy_sequence(40, store=s).tolist() == right
    with open_store(path) as s:
        assert s.sequence(kayles.sequence_key).tolist() == right
        assert s.sequence_meta(kayles.sequence_key) is None  # the old metadata went with the old values
        assert s.sequence_provenance(kayles.sequence_key).current


def test_metadata_entries_are_versioned(path, monkeypatch):
    with open_store(path) as s:
        s.extend_sequence("grundy:0.07", 0, [0, 0, 1, 1])
        s.put_sequence_meta("grundy:0.07", {"periodicity": {"period": 1}, "other": 1})
        assert s.sequence_meta("grundy:0.07") == {"periodicity": {"period": 1}, "other": 1}
        bump(monkeypatch, "periodicity")
        assert s.sequence_meta("grundy:0.07") == {"other": 1}
        s.put_sequence_meta("grundy:0.07", {"periodicity": {"period": 2}})  # replaces the stale entry
        assert s.sequence_meta("grundy:0.07") == {"periodicity": {"period": 2}, "other": 1}
        with pytest.raises(StoreError, match="refusing to overwrite metadata 'periodicity'"):
            s.put_sequence_meta("grundy:0.07", {"periodicity": {"period": 3}})
        with pytest.raises(StoreError, match="reserved"):
            s.put_sequence_meta("grundy:0.07", {"provenance": {}})
        assert s.sequence("grundy:0.07").tolist() == [0, 0, 1, 1]  # the values are not stale


# -- stale rows shown -----------------------------------------------------------------------------
def test_serve_stale_serves_and_records(path, monkeypatch):
    G = cg.parse("{*2,*3}")
    with open_store(path) as s:
        s.put(G, "grundy", 5)
        s.extend_sequence("grundy:0.07", 0, [0, 0, 1])
    bump(monkeypatch, "grundy")
    bump(monkeypatch, "sequence:grundy")
    with open_store(path, serve_stale=True) as s:
        assert s.memo(G, "grundy", lambda: pytest.fail("recomputed")) == 5
        assert s.sequence("grundy:0.07").tolist() == [0, 0, 1]
        s.extend_sequence("grundy:0.07", 3, [1])  # nothing is written over a stale sequence
        tables = [t for t, _k, _p in s.stale_served]
        assert "form_properties" in tables and "sequences" in tables
        table, key, prov = s.stale_served[0]
        assert prov == Provenance(1, cg.__version__, False, "grundy", 2)
        assert "grundy v1 (current v2)" in prov.describe()
    with open_store(path) as s:
        assert s.sequence_length("grundy:0.07") == 0


def test_cli_stale_show_and_recompute(path, monkeypatch):
    from cgtalg.cli.main import cli

    G = cg.parse("{*2,*3}")
    with open_store(path) as s:
        s.put(G, "grundy", 5)
    bump(monkeypatch, "grundy")
    runner = CliRunner()
    shown = runner.invoke(cli, ["--store", path, "--stale", "show", "game", "{*2,*3}"])
    assert shown.exit_code == 0, shown.output
    assert "Grundy value 5" in shown.stdout
    assert ("note: stale result (form_properties, form" in shown.stderr
            and "made by grundy v1 (current v2), cgtalg " in shown.stderr
            and "recompute with --stale recompute" in shown.stderr)
    again = runner.invoke(cli, ["--store", path, "game", "{*2,*3}"])  # --stale recompute is the default
    assert again.exit_code == 0 and "Grundy value 0" in again.stdout and "stale" not in again.stderr
    bad = runner.invoke(cli, ["--stale", "sometimes", "game", "*"])
    assert bad.exit_code == 2


# -- migration and summary ------------------------------------------------------------------------
def test_migration_brings_old_rows_forward_as_version_1(tmp_path):
    path = tmp_path / "old.sqlite"
    shutil.copy(DATA, path)
    with open_store(str(path)) as s:
        assert s.revision == "0003"
        assert s.get(cg.parse("{*2}"), "misere_canonical") is not None  # served: version 1 is current
        p = s.provenance(cg.parse("{*2}"), "grundy")
        assert p.algorithm == 1 and p.made_by is None and p.current
        assert s.sequence("grundy:0.77").size == 100 and s.sequence_meta("quotient:0.123")
        summary = s.provenance_summary()
        assert all(r["current"] for r in summary)
        assert {r["table"] for r in summary} == {"form_properties", "form_relations", "position_properties",
                                                "sequences", "sequences.meta"}
        assert all(r["before_provenance"] == r["rows"] for r in summary)
        s.put(cg.nim(5), "grundy", 5)
        assert any(r["rows"] > r["before_provenance"] for r in s.provenance_summary())
    con = sqlite3.connect(path)
    assert con.execute("SELECT DISTINCT algorithm, made_by FROM position_properties").fetchall() == [(1, None)]
    con.close()


# -- PostgreSQL -----------------------------------------------------------------------------------
def test_postgresql_stale_rows_replaced(pg_url, monkeypatch):
    G = cg.parse("{*2,*3}")
    with open_store(pg_url) as s:
        s.put(G, "grundy", 5)
        s.put_many([(cg.nim(n), "grundy", n + 1) for n in range(4)])
        s.put_positions_many([("census:octal", "0.77", "normal", "old")])
        s.extend_sequence("grundy:0.07", 0, [5, 5])
        bump(monkeypatch, "grundy")
        bump(monkeypatch, "normal")
        bump(monkeypatch, "sequence:grundy")
        assert s.memo(G, "grundy", lambda: 0) == 0
        s.put_many([(cg.nim(n), "grundy", n) for n in range(4)])
        assert s.get_many([cg.nim(n) for n in range(4)], "grundy") == [0, 1, 2, 3]
        with pytest.raises(StoreError, match="refusing to overwrite"):
            s.put_many([(cg.nim(1), "grundy", 7)])
        assert s.get_positions_many("census:octal", ["0.77"]) == {"0.77": {}}
        s.put_positions_many([("census:octal", "0.77", "normal", "new")])
        assert s.get_position("census:octal", "0.77", "normal") == "new"
        s.extend_sequence("grundy:0.07", 0, np.array([0, 0, 1]))
        assert s.sequence("grundy:0.07").tolist() == [0, 0, 1]
    with open_store(pg_url, serve_stale=True) as s:
        assert s.stale_served == [] and s.get(G, "grundy") == 0


def test_serve_stale_rewriting_metadata_keeps_it_stale(path, monkeypatch):
    """Under serve_stale a stale entry read and written back unchanged (as the periodicity
    search does with replace=True) is not thereby made current."""
    with open_store(path) as s:
        s.put_sequence_meta("quotient:0.123", {"misere_quotient": {"order": 20}})
    bump(monkeypatch, "misere_quotient")
    with open_store(path, serve_stale=True) as s:
        meta = s.sequence_meta("quotient:0.123")
        s.put_sequence_meta("quotient:0.123", dict(meta, other=1), replace=True)
    with open_store(path) as s:
        assert s.sequence_meta("quotient:0.123") == {"other": 1}


def test_find_skips_stale_values(path, monkeypatch):
    with open_store(path) as s:
        s.put(cg.nim(2), "grundy", 2)
        assert [r["form_id"] for r in s.find(prop="grundy", value=2)]
        bump(monkeypatch, "grundy")
        assert s.find(prop="grundy", value=2) == []


def test_default_store_per_serve_stale(path):
    from cgtalg.store import get_default_store

    a, b = get_default_store(path), get_default_store(path, serve_stale=True)
    assert a is not b and b.serve_stale and not a.serve_stale
    assert get_default_store(path, serve_stale=True) is b
    import pickle

    assert pickle.loads(pickle.dumps(b)) is b
    a.close()
    b.close()


def test_put_positions_many_replace_repairs_a_row(tmp_path):
    """``replace=True`` overwrites a stored row (the census's repair of a record that failed
    its re-check); without it the write-once rule refuses the different value."""
    from cgtalg.errors import StoreError
    from cgtalg.store import open_store

    store = open_store(str(tmp_path / "r.sqlite"))
    store.put_positions_many([("census:octal", "0.77", "normal", {"period": 13})])
    with pytest.raises(StoreError):
        store.put_positions_many([("census:octal", "0.77", "normal", {"period": 12})])
    store.put_positions_many([("census:octal", "0.77", "normal", {"period": 12})], replace=True)
    again = open_store(str(tmp_path / "r.sqlite"))
    assert again.get_position("census:octal", "0.77", "normal") == {"period": 12}
