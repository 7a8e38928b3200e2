"""One budget word (issue 33, item 6): ``--time`` is the only visible budget option of every
command and tool; a command of several budgets takes ``--time`` several times (``PART=TIME``);
the old spellings are hidden aliases that still work and say so on stderr."""

from __future__ import annotations

import argparse
import inspect
import json
import os
import pathlib
import re
import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from cgtalg.cli.common import (
    TimePart,
    add_time_arguments,
    collect_time_budgets,
    read_time_spec,
    resolve_time_arguments,
    time_parts_option,
)
from cgtalg.cli.main import cli, main
from cgtalg.errors import BudgetError

ROOT = pathlib.Path(__file__).resolve().parents[1]

#: an option name that speaks of a budget
BUDGET_WORD = re.compile(r"time|second|budget", re.IGNORECASE)

#: commands whose computation has a budget: each must take --time
TIMED = {
    "census octal", "census quotient", "equiv", "game", "grundy", "misere", "nim add", "nim div",
    "nim inv", "nim mul", "nim pow", "nim root", "nim solve", "nim sqrt", "outcome", "period",
    "quotient", "solve", "store verify", "value",
    # issue 35: every command has a budget, by default too (form arithmetic on a large form,
    # a loopy simplification, the referee, a store fill can all run long)
    "atomic-weight", "heat", "overheat", "norton", "ordinal-sum", "reduced", "loopy", "check",
    "cousin", "demo", "nim play", "store export-certificates", "store info", "store path",
    "store query", "store fill",
}
#: commands without a budget, and why (a new command must be put in one list or the other)
UNTIMED: dict[str, str] = {}
#: the old spellings, hidden until 0.3: command -> {alias: the --time PART it stands for}
ALIASES = {
    "census octal": {"--quotient-time": "quotient", "--quotient-seconds": "quotient"},
    "census quotient": {"--class-time": "class"},
}


def _walk(group: click.Group, ctx: click.Context, prefix: tuple[str, ...] = ()):
    """Every command and group under ``group`` (loading the lazy ones), with its path."""
    yield prefix, group
    for name in group.list_commands(ctx):
        cmd = group.get_command(ctx, name)
        path = prefix + (name,)
        if isinstance(cmd, click.Group):
            yield from _walk(cmd, click.Context(cmd, parent=ctx, info_name=name), path)
        else:
            yield path, cmd


ALL = {" ".join(path): cmd for path, cmd in _walk(cli, click.Context(cli, info_name="cgtalg"))}
COMMANDS = {name: cmd for name, cmd in ALL.items() if not isinstance(cmd, click.Group)}


def _options(cmd: click.Command, hidden: bool) -> set[str]:
    return {name for p in cmd.params if isinstance(p, click.Option) and p.hidden == hidden
            for name in p.opts + p.secondary_opts}


def test_no_visible_budget_option_but_time():
    # no allow-list is needed: no visible option of any command or group names time, seconds or
    # a budget in another sense (--memory and --max-states do not match the words)
    assert len(COMMANDS) >= 30
    offending = {name: sorted(o for o in _options(cmd, hidden=False) if BUDGET_WORD.search(o) and o != "--time")
                 for name, cmd in ALL.items()}
    assert {k: v for k, v in offending.items() if v} == {}


def test_every_budgeted_command_takes_time():
    assert set(COMMANDS) == TIMED | set(UNTIMED), "classify the new command in TIMED or UNTIMED"
    assert not TIMED & set(UNTIMED)
    assert sorted(n for n in TIMED if "--time" not in _options(COMMANDS[n], hidden=False)) == []
    assert sorted(n for n in UNTIMED if "--time" in _options(COMMANDS[n], hidden=False)) == []
    # a command body that hands a time budget to the library is in TIMED
    for name, cmd in COMMANDS.items():
        if "max_seconds" in inspect.getsource(inspect.unwrap(cmd.callback)):
            assert name in TIMED, name


def test_hidden_budget_options_are_the_deprecated_aliases():
    hidden = {name: {o for o in _options(cmd, hidden=True) if BUDGET_WORD.search(o)} for name, cmd in ALL.items()}
    assert {k: v for k, v in hidden.items() if v} == {k: set(v) for k, v in ALIASES.items()}
    for name, aliases in ALIASES.items():  # the help names every part an alias stands for
        text = CliRunner().invoke(cli, [*name.split(), "--help"]).output
        assert "--time" in text and all(f"{part}=TIME" in text for part in aliases.values())
        assert not any(alias in text for alias in aliases)


# -- the syntax: TIME or PART=TIME -------------------------------------------------------------


@pytest.mark.parametrize("text, expected", [
    ("90", (None, 90.0)), ("10m", (None, 600.0)), ("1h30m", (None, 5400.0)),
    ("class=20s", ("class", 20.0)), (" CLASS = 2h ", ("class", 7200.0)), ("main=120", ("main", 120.0)),
])
def test_read_time_spec(text, expected):
    assert read_time_spec(text, ("class", "main")) == expected


@pytest.mark.parametrize("text, words", [
    ("klass=3s", ["unknown budget 'klass'", "class=TIME", "main=TIME", "plain TIME"]),
    ("class=3x", ["class=", "not a duration"]),
    ("class=0", ["class=", "positive"]),
    ("=5s", ["unknown budget ''"]),
    ("nan", ["not a duration"]),
])
def test_read_time_spec_refuses(text, words):
    with pytest.raises(BudgetError) as exc:
        read_time_spec(text, ("class", "main"))
    assert all(w in str(exc.value) for w in words), str(exc.value)


def test_one_budget_refuses_a_part():
    with pytest.raises(BudgetError, match="one time budget, written without PART="):
        read_time_spec("class=5s", ())


PARTS = (TimePart(None, "max_seconds", None, "the whole run"),
         TimePart("class", "class_time", "20s", "one class", ("--class-time",)))


def test_collect_time_budgets_defaults_and_twice():
    assert collect_time_budgets([], PARTS) == {None: None, "class": 20.0}
    assert collect_time_budgets([("class", 5.0, "class=5s"), (None, 60.0, "1m")], PARTS) == {None: 60.0, "class": 5.0}
    with pytest.raises(BudgetError, match=r"class= time budget is given twice \(class=5s and --class-time 9\)"):
        collect_time_budgets([("class", 5.0, "class=5s"), ("class", 9.0, "--class-time 9")], PARTS)


def _probe() -> click.Command:
    @click.command()
    @time_parts_option(*PARTS)
    @click.option("--json", "as_json", is_flag=True)
    def probe(max_seconds, class_time, as_json):
        click.echo(json.dumps({"max_seconds": max_seconds, "class_time": class_time}))
    return probe


@pytest.mark.parametrize("args, expected", [
    ([], {"max_seconds": None, "class_time": 20.0}),
    (["--time", "2h"], {"max_seconds": 7200.0, "class_time": 20.0}),
    (["--time", "class=5s", "--time", "1m"], {"max_seconds": 60.0, "class_time": 5.0}),
])
def test_time_parts_option(args, expected):
    res = CliRunner().invoke(_probe(), args)
    assert res.exit_code == 0 and json.loads(res.stdout) == expected and res.stderr == ""


def test_time_parts_option_usage_errors():
    unknown = CliRunner().invoke(_probe(), ["--time", "klass=5s"])
    assert unknown.exit_code == 2 and "unknown budget 'klass'" in unknown.stderr and "class=TIME" in unknown.stderr
    twice = CliRunner().invoke(_probe(), ["--time", "1h", "--time", "2h"])
    assert twice.exit_code == 2 and "given twice" in twice.stderr


def test_time_parts_alias_works_with_a_note_on_stderr():
    res = CliRunner().invoke(_probe(), ["--class-time", "7s", "--json"])
    assert res.exit_code == 0
    assert json.loads(res.stdout) == {"max_seconds": None, "class_time": 7.0}  # stdout stays JSON
    assert res.stderr.strip() == ("note: --class-time is deprecated and will be removed in cgtalg 0.3; "
                                  "write --time class=7s")
    both = CliRunner().invoke(_probe(), ["--class-time", "7s", "--time", "class=8s"])
    assert both.exit_code == 2 and "given twice" in both.stderr
    bad = CliRunner().invoke(_probe(), ["--class-time", "soon"])
    assert bad.exit_code == 2 and "not a duration" in bad.stderr and "deprecated" not in bad.stderr


def test_argparse_twin(capsys):
    def parse(argv):
        ap = argparse.ArgumentParser(prog="tool")
        add_time_arguments(ap, TimePart(None, "seconds", 3600.0, "per code", ("--seconds",)),
                           TimePart("main", "main_seconds", 120.0, "main's share", ("--main-seconds",)))
        return resolve_time_arguments(ap, ap.parse_args(argv))

    args = parse(["--time", "10m", "--time", "main=30"])
    assert (args.seconds, args.main_seconds) == (600.0, 30.0) and not hasattr(args, "_time_specs")
    assert (parse([]).seconds, parse([]).main_seconds) == (3600.0, 120.0)
    capsys.readouterr()
    old = parse(["--seconds", "500", "--main-seconds", "2m"])
    assert (old.seconds, old.main_seconds) == (500.0, 120.0)
    assert capsys.readouterr().err.splitlines() == [
        "note: --seconds is deprecated and will be removed in cgtalg 0.3; write --time 500",
        "note: --main-seconds is deprecated and will be removed in cgtalg 0.3; write --time main=2m"]
    for argv, words in ((["--time", "klass=3"], "unknown budget 'klass'"),
                        (["--time", "1h", "--seconds", "2"], "given twice"),
                        (["--main-seconds", "x"], "argument --main-seconds")):
        with pytest.raises(SystemExit) as exc:
            parse(argv)
        assert exc.value.code == 2 and words in capsys.readouterr().err


# -- the commands themselves ---------------------------------------------------------------------


@pytest.mark.parametrize("args, words", [
    (["census", "quotient", "--time", "klass=3s", "--codes", "0.7"], ["unknown budget 'klass'", "class=TIME"]),
    (["census", "octal", "--time", "class=3s", "--codes", "0.7"], ["unknown budget 'class'", "quotient=TIME"]),
    (["census", "quotient", "--time", "class=2s", "--class-time", "3s", "--codes", "0.7"], ["given twice"]),
    (["quotient", "0.07", "--time", "class=3s"], ["one time budget"]),
    (["grundy", "0.07", "--time", "quotient=3s"], ["one time budget"]),
])
def test_commands_refuse_bad_parts_before_any_work(args, words, capsys):
    assert main(["--store", "/nonexistent/dir/never.sqlite", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cgtalg: error:") and all(w in err for w in words), err


def test_census_quotient_alias_and_part_agree():
    """``--class-time 7s`` and ``--time class=7s`` give the same census with a class budget of
    7 s (not the default 20 s), the alias with a note on stderr and clean JSON on stdout."""
    base = ["census", "quotient", "--codes", "0.7,0.123", "--scheduler", "serial", "--no-store", "--json"]
    new = CliRunner().invoke(cli, [*base, "--time", "class=7s", "--time", "10m"])
    old = CliRunner().invoke(cli, [*base, "--class-time", "7s", "--time", "10m"])
    assert new.exit_code == 0 and old.exit_code == 0, (new.output, old.output)
    assert "deprecated" not in new.stderr and "write --time class=7s" in old.stderr
    new_json, old_json = json.loads(new.stdout), json.loads(old.stdout)
    assert new_json["census"]["params"]["class_seconds"] == 7.0 == old_json["census"]["params"]["class_seconds"]
    keys = ("code", "result", "order", "p_count")
    assert [{k: r[k] for k in keys} for r in new_json["rows"]] == [{k: r[k] for k in keys} for r in old_json["rows"]]


# -- the tools -----------------------------------------------------------------------------------

#: scripts that run a computation under a time budget: each must take --time
TIMED_TOOLS = {"tools/misere_quotient_frontier.py", "tools/nim_position_classes.py",
               "tools/verify_partizan_nim.py", "tools/quotient_rays.py",
               "benchmarks/bench_quotient_census.py"}


def _help(script: str) -> str:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    res = subprocess.run([sys.executable, str(ROOT / script), "--help"], capture_output=True, text=True,
                         cwd=ROOT, env=env, timeout=300)
    assert res.returncode == 0, res.stderr
    return res.stdout


@pytest.mark.parametrize("script", sorted({f"tools/{p.name}" for p in (ROOT / "tools").glob("*.py")
                                           if "ArgumentParser" in p.read_text()
                                           and "__main__" in p.read_text()} | TIMED_TOOLS))
def test_tool_budget_option_is_time(script):
    text = _help(script)
    options = set(re.findall(r"(?<![\w-])--[a-z][\w-]*", text))
    assert sorted(o for o in options if BUDGET_WORD.search(o) and o != "--time") == []
    if script in TIMED_TOOLS:
        assert "--time" in options
