"""CLI contract: every command has --help and --json; the global --store option exists."""

from __future__ import annotations

import click
from click.testing import CliRunner

from cgtalg.cli.main import _register, cli

_register()  # the group loads its command modules lazily; attach them all to walk cli.commands


def _commands(group: click.Group, prefix=()):
    for name, cmd in group.commands.items():
        path = prefix + (name,)
        if isinstance(cmd, click.Group):
            yield from _commands(cmd, path)
        else:
            yield path, cmd


def test_every_command_has_json_and_help():
    missing = []
    paths = list(_commands(cli))
    assert len(paths) >= 8
    for path, cmd in paths:
        if "--json" not in {opt for p in cmd.params for opt in getattr(p, "opts", [])}:
            missing.append(" ".join(path))
        result = CliRunner().invoke(cli, [*path, "--help"])
        assert result.exit_code == 0, (path, result.output)
    assert not missing, f"commands without --json: {missing}"


def test_global_store_option():
    assert any("--store" in p.opts for p in cli.params)
    assert CliRunner().invoke(cli, ["--help"]).exit_code == 0
