"""``cgtalg store export-certificates DIR`` and ``cgtalg check`` on files and folders (issue 32):
every certificate a store holds is written as a file the independent referee accepts, and an
edited claim in any one of them makes the whole check exit 1.

The values the store holds are computed here; what is asserted of them comes from sources:
Dawson's Kayles 0.07 has period 34 and preperiod 53 (Winning Ways ch. 4), the misère quotient of
0.123 has order 20 (Plambeck, "How to lose at .123", seed 000), {*2} and *2+*2 are not misère
equivalent while *2+* and *3 are (Siegel CGT V.3; the README's examples).
"""

from __future__ import annotations

import json
import pathlib

import pytest
from click.testing import CliRunner

from cgtalg.cli.main import cli


def _run(*args):
    return CliRunner().invoke(cli, list(args), obj={})


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    root = tmp_path_factory.mktemp("export")
    store = str(root / "store.sqlite")
    for q in (["period", "0.07"], ["quotient", "0.123"], ["equiv", "{*2}", "*2+*2", "--misere"],
              ["equiv", "*2+*", "*3", "--misere"],
              ["census", "octal", "--digits", "1", "--values", "2^10", "--scheduler", "serial"]):
        r = _run("--store", store, *q)
        assert r.exit_code == 0, r.output
    out = root / "certs"
    r = _run("--store", store, "store", "export-certificates", str(out), "--json")
    assert r.exit_code == 0, r.output
    return out, json.loads(r.output)


def test_every_kind_is_exported_and_accepted(exported):
    out, result = exported
    counts = result["counts"]
    assert counts["period"] >= 1 and counts["quotient"] >= 1 and counts["equivalence"] == 2
    assert counts["census row"] >= 1
    doc = json.loads((out / "period" / "0.07.json").read_text())
    assert (doc["period"], doc["preperiod"]) == (34, 53)
    assert json.loads((out / "quotient" / "0.123.json").read_text())["order"] == 20
    r = _run("check", str(out), "--json")
    assert r.exit_code == 0, r.output
    got = json.loads(r.output)
    assert got["ok"] and got["referee"] == "cgtalg.referee"
    assert got["checked"] == len(result["written"])
    assert all(c["checker"].startswith("cgtalg.referee.") for f in got["files"] for c in f["certificates"])
    r = _run("check", str(out))
    assert "cgtalg.referee" in r.output and r.output.rstrip().endswith("hold")


def test_an_edited_claim_in_one_file_rejects_the_folder(exported, tmp_path):
    import shutil

    out, _ = exported
    copy = tmp_path / "certs"
    shutil.copytree(out, copy)
    path = copy / "quotient" / "0.123.json"
    doc = json.loads(path.read_text())
    doc["order"] = 18
    path.write_text(json.dumps(doc))
    r = _run("check", str(copy))
    assert r.exit_code == 1 and "REJECTED" in r.output and "order" in r.output
    # several paths: the good file alone holds, with the bad one the run exits 1
    good = str(copy / "period" / "0.07.json")
    assert _run("check", good).exit_code == 0
    assert _run("check", good, str(path)).exit_code == 1


def test_a_folder_without_certificates_and_a_non_certificate_exit_2(tmp_path):
    (tmp_path / "empty").mkdir()
    r = _run("check", str(tmp_path / "empty"))
    assert r.exit_code == 2 and "no .json certificate" in r.output
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"hello": 1}))
    r = _run("check", str(other))
    assert r.exit_code == 2 and "NOT A CERTIFICATE" in r.output
    assert _run("check", str(pathlib.Path(tmp_path) / "missing.json")).exit_code == 2
