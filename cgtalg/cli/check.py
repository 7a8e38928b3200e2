"""``cgtalg check FILE|-``: re-verify a certificate the library wrote.

    cgtalg equiv '{*2}' '*2+*2' --misere --json > proof.json && cgtalg check proof.json
    cgtalg period 0.07 --json | cgtalg check -
    cgtalg quotient 0.123 --json | cgtalg check -

Accepts the whole ``--json`` output of ``equiv`` (impartial and partizan, normal and misère),
``period`` and ``quotient``, or a result's ``to_json()``; each certificate in it is re-checked
by a checker independent of the search (:mod:`cgtalg.ops.certificates`), which the report names.
Exit status 0 when every certificate holds, 1 when one is rejected, 2 for a file that holds none.
"""

from __future__ import annotations

import click

from cgtalg.cli.common import emit, json_option

__all__ = ["register"]


@click.command("check")
@click.argument("source", type=click.File("r", encoding="utf-8"))
@json_option
def check_command(source, as_json):
    """Re-verify every certificate in SOURCE (a file, or - for standard input): the --json
    output of `cgtalg equiv`, `cgtalg period` or `cgtalg quotient`."""
    from cgtalg.ops.certificates import check_certificate

    reports = check_certificate(source.read())
    ok = all(r.ok for r in reports)
    result = {"ok": ok, "certificates": [r.to_json() for r in reports]}
    emit(result, as_json, lambda: "\n".join(str(r) for r in reports))
    if not ok:
        raise SystemExit(1)


def register(cli: click.Group) -> None:
    """Attach ``check`` to the main command group."""
    cli.add_command(check_command)
