"""The CLI commands norton, reduced, ordinal-sum, heat, overheat and atomic-weight (with and
without --json), on CGSuite's test values, and their errors as one line / a JSON error object."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cgtalg.cli.main import cli, main


def run(*args):
    r = CliRunner().invoke(cli, list(args), obj={})
    assert r.exit_code == 0, r.output
    return r.output


@pytest.mark.parametrize("args,key,want", [
    (("norton", "1/2", "^"), "norton_product", "{^^*|v*}"),         # CGSuite GameTest
    (("norton", "Tiny(2)", "^"), "norton_product", "{^^*||0|v6}"),
    (("reduced", "{3||2*|1*}"), "reduced_canonical_form", "{3||2|1}"),  # CGSuite rcf
    (("reduced", "6^*"), "reduced_canonical_form", "6"),
    (("ordinal-sum", "{*|*}", "3"), "ordinal_sum", "^[3]"),          # CGSuite '{*|*}':3
    (("ordinal-sum", "1", "-1"), "ordinal_sum", "1/2"),              # a blue-red stalk
    (("heat", "^", "2"), "heat", "{2||0|-4}"),                       # CGSuite "^ Heat 2"
    (("heat", "{3||2*|1*}", "*"), "heat", "{3*||2|1}"),
    (("overheat", "7/16", "0", "0"), "overheat", "^[3]"),
    (("atomic-weight", "{^^^|vv}"), "atomic_weight", "{1|0}"),
    (("atomic-weight", "{0||0|-3/2}"), "atomic_weight", "0"),        # a tiny weighs 0
    (("atomic-weight", "{1|^^||^}"), "atomic_weight", "2"),
])
def test_commands(args, key, want):
    assert run(*args).strip() == want
    assert json.loads(run(*args, "--json"))[key] == want


def test_errors_are_one_line_or_json(capsys):
    assert main(["atomic-weight", "{1|^^^||^}"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cgtalg: error:") and "not atomic" in err and err.count("\n") == 1
    assert main(["norton", "1", "*", "--json"]) == 2
    out = json.loads(capsys.readouterr().out)
    assert out["error"]["type"] == "ArgumentError" and "positive unit" in out["error"]["message"]
    assert main(["heat", "{1|", "2"]) == 2
    assert "position 3" in capsys.readouterr().err


def test_loopy_text_is_refused_by_name():
    # loopy games are not short: each command's door names what answers them instead
    for args in (("reduced", "over"), ("ordinal-sum", "on", "1"), ("heat", "dud", "1"),
                 ("norton", "1", "upon"), ("atomic-weight", "on")):
        r = CliRunner().invoke(cli, list(args) + ["--json"], obj={})
        assert r.exit_code != 0
        assert main(list(args) + ["--json"]) == 2
    r = CliRunner().invoke(cli, ["reduced", "over"], obj={})
    assert "loopy" in str(r.exception) and "cgtalg.loopy_sides" in str(r.exception)
    # a short game written in loopy notation is the short game it is
    assert json.loads(run("reduced", "a:{0|}", "--json"))["reduced_canonical_form"] == "1"
