"""tools/quotient_census_pack.py: the census's quotient states, counting levels and proofs of
infinitude carried to a fresh store (a new machine) and read back, re-verified."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from cgtalg.quotients.construct import misere_quotient
from cgtalg.quotients.state import forget_known
from cgtalg.quotients.storage import Checkpointer
from cgtalg.rulesets.heaps.octal import TakeAndBreak
from cgtalg.store import open_store
from conftest import load_tool



def _tool():
    return load_tool("quotient_census_pack")


def test_a_pack_carries_states_and_proofs_to_a_fresh_store(tmp_path, monkeypatch):
    tool = _tool()
    monkeypatch.setattr(tool, "_codes", lambda: ["0.123", "0.13777", "0.734"])
    src = open_store(str(tmp_path / "a.sqlite"))
    rule = json.loads((Path(__file__).resolve().parents[1] / "docs/data/largest_heap_rules/0.734.json").read_text())
    Checkpointer(TakeAndBreak("0.734"), src).write_rule(rule)      # a rule alone, no quotient state
    forget_known()
    misere_quotient("0.123", store=src, progress=False)
    misere_quotient("0.13777", store=src, progress=False, partial=True, max_seconds=120)
    forget_known()
    pack = tmp_path / "pack.json.gz"
    assert tool.export(str(tmp_path / "a.sqlite"), str(pack)) == 0
    assert tool.import_(str(pack), str(tmp_path / "b.sqlite")) == 0
    dst = open_store(str(tmp_path / "b.sqlite"))
    for code in ("0.123", "0.13777"):
        a, b = Checkpointer(TakeAndBreak(code), src).load(), Checkpointer(TakeAndBreak(code), dst).load()
        assert a.top == b.top and a.final == b.final and np.array_equal(a.pre.monoid.table, b.pre.monoid.table)
    assert Checkpointer(TakeAndBreak("0.13777"), dst).load_rays()[0].v == 10
    assert Checkpointer(TakeAndBreak("0.734"), dst).load_rule() == rule
    forget_known()
    q = misere_quotient("0.13777", store=dst, progress=False, partial=True, max_seconds=5)
    forget_known()
    assert q.infinite_from == 10 and q.order == 18
