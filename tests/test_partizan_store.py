"""Partizan forms in the store (issue 11: the same forms table and id space as impartial forms):
stable ids across processes, rebuilt forms identical, properties memoised, verify clean."""

from __future__ import annotations

import subprocess
import sys

import cgtalg as cg
from cgtalg.store import open_store
from cgtalg.store.forms import parse_form_key, partizan_key
from cgtalg.store.verify import verify_store


def test_partizan_forms_round_trip_across_processes(tmp_path):
    url = f"sqlite:///{tmp_path / 's.db'}"
    st = open_store(url)
    g = cg.parse_partizan("{2||1|0}") + cg.up
    gid = st.form_id(g)
    ids = st.form_ids([cg.up, cg.parse_partizan("*"), cg.nim(1), cg.pgame()])
    assert len(set(ids)) == 4            # partizan * = {0|0} and impartial * are different rows
    st.put(g, "note", "stored")
    code = (
        "import cgtalg as cg\n"
        "from cgtalg.store.store import open_store\n"
        f"st = open_store({url!r})\n"
        f"h = st.game({gid})\n"
        "g = cg.parse_partizan('{2||1|0}') + cg.up\n"
        "print(h is g, st.form_id(g), st.get(g, 'note'), str(cg.canonical_form(h)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    same, again, note, text = out.stdout.split(maxsplit=3)
    assert same == "True" and int(again) == gid and note == "stored"
    assert text.strip() == str(cg.canonical_form(g))
    report = verify_store(open_store(url), sample=None)
    assert not report["problems"], report["problems"]


def test_partizan_keys():
    assert partizan_key([3, 1, 3], []) == "L1,3|"
    assert parse_form_key("L1,3|2") == ([1, 3], [2])
    assert parse_form_key("L|") == ([], [])
    assert parse_form_key("1,2") == [1, 2] and parse_form_key("*5") == 5
