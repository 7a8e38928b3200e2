"""``cgtalg store query`` listings (issue 7): sequences, periods, solved positions, and
compact form texts (a form rebuilt from the store prints as ``*2+*3``, not as its
expanded option set). Expected texts follow from the definitions of the notation."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import cgtalg as cg
from cgtalg.core.game import game
from cgtalg.errors import StoreError
from cgtalg.store import open_store
from cgtalg.store.listings import compact_text


def _query(path, *args):
    return subprocess.run(
        [sys.executable, "-m", "cgtalg.cli.main", "--store", str(path), "store", "query", *args],
        capture_output=True, text=True, env=dict(os.environ),
    )


@pytest.fixture
def path(tmp_path):
    path = tmp_path / "s.sqlite"
    with open_store(path) as store:
        store.put(cg.nim(2) + cg.nim(3), "grundy", 1)
        store.extend_sequence("grundy:0.07", 0, [0, 0, 1, 1, 2, 0])
        store.extend_sequence("grundy:0.137", 0, [0, 1, 1])
        store.put_sequence_meta(
            "grundy:0.07", {"periodicity": {"period": 34, "preperiod": 52, "certified": True, "status": "certified"}}
        )
        store.put_position("octal:0.07", "5", "grundy", 2)
        store.put_position("kayles", "3,4", "grundy", 7)
    return path


def test_list_sequences_periods_positions_api(path):
    with open_store(path) as store:
        seqs = store.list_sequences()
        assert [(s["key"], s["length"]) for s in seqs] == [("grundy:0.07", 6), ("grundy:0.137", 3)]
        periods = store.list_sequences(periods=True)
        assert periods == [{"kind": "period", "key": "grundy:0.07", "length": 6, "period": 34, "preperiod": 52,
                            "certified": True, "status": "certified"}]
        assert [p["position"] for p in store.list_positions()] == ["5", "3,4"]
        assert store.list_positions(ruleset="kayles") == [
            {"kind": "position", "ruleset": "kayles", "position": "3,4", "properties": {"grundy": 7}}
        ]
        assert len(store.list_sequences(limit=1)) == 1
        with pytest.raises(StoreError, match=r"limit must be a positive int, got 100000000000000000000 \(at most 1000000\)"):
            store.list_sequences(limit=10**20)


def test_cli_listings(path):
    run = _query(path, "--sequences")
    assert run.returncode == 0 and "grundy:0.07  (6 values)" in run.stdout and "grundy:0.137" in run.stdout
    run = _query(path, "--periods")
    assert "grundy:0.07  period 34, preperiod 52 (certified" in run.stdout
    run = _query(path, "--positions", "--ruleset", "kayles", "--json")
    assert json.loads(run.stdout)["results"][0]["position"] == "3,4"
    run = _query(path, "--limit", "99999999999999999999", "--sequences")
    assert run.returncode == 2 and "Traceback" not in run.stderr and "--limit" in run.stderr


def test_forms_print_compactly(path):
    run = _query(path, "--property", "grundy")
    assert run.returncode == 0
    assert run.stdout.splitlines()[0].startswith("*2+*3  (form ")


def test_compact_text_from_definitions():
    # Rebuilt forms (no sum history) that are structurally sums of nim heaps.
    for heaps in [(2, 3), (1, 2, 2), (2, 2, 5), (4, 7)]:
        g = cg.zero
        for h in heaps:
            g = g + cg.nim(h)
        rebuilt = game(list(g.options))
        expected = "+".join("*" if h == 1 else f"*{h}" for h in sorted(heaps))
        assert compact_text(rebuilt) == expected
    assert compact_text(cg.nim(5)) == "*5"
    assert compact_text(cg.parse("{*2, {*}}")) == "{*2, {*}}"
    long = cg.parse("{" + ", ".join(f"{{*{i}, *{i + 2}}}" for i in range(30)) + "}")
    assert len(compact_text(long)) <= 80
