"""``cgtalg check PATH...``: re-verify certificates with the independent referee.

    cgtalg equiv '{*2}' '*2+*2' --misere --json > proof.json && cgtalg check proof.json
    cgtalg period 0.07 --json | cgtalg check -
    cgtalg store export-certificates certs/ && cgtalg check certs/

Accepts files, folders (every ``*.json`` and ``*.json.gz`` below them) and ``-`` (standard
input); gzip-compressed files (``.json.gz``) are read decompressed. Documents: the whole
``--json`` output of ``equiv`` (impartial and partizan, normal and misère), ``period``,
``quotient`` (finite and infinite) and census rows, or a result's ``to_json()``. Each
certificate is re-checked by :mod:`cgtalg.referee`, which imports nothing of the engines that
found the results, and every claim is checked as stated. Exit status 0 when every certificate
holds, 1 when one is rejected, 2 when a file holds no certificate (and none is rejected).
"""

from __future__ import annotations

import click

from cgtalg.cli.common import emit, json_option, time_option

__all__ = ["register"]


@click.command("check")
@time_option(pass_value=False)
@click.argument("paths", nargs=-1, required=True)
@json_option
def check_command(paths, as_json):
    """Re-verify every certificate in PATHS (files, folders of .json and .json.gz files, or -
    for standard input) with the independent referee cgtalg.referee: the --json output of
    `cgtalg equiv`, `cgtalg period`, `cgtalg quotient`, census tables and rows (gzip-compressed
    .json.gz too), or `cgtalg store export-certificates`."""
    from cgtalg.errors import CertificateError
    from cgtalg.ops.certificates import check_files

    results = check_files(list(paths))
    rejected = any(not isinstance(got, CertificateError) and not all(r.ok for r in got) for _f, got in results)
    malformed = [(f, got) for f, got in results if isinstance(got, CertificateError)]
    files = []
    for f, got in results:
        if isinstance(got, CertificateError):
            files.append({"file": f, "ok": False, "error": str(got), "certificates": []})
        else:
            files.append({"file": f, "ok": all(r.ok for r in got), "certificates": [r.to_json() for r in got]})
    ok = not rejected and not malformed
    count = sum(len(x["certificates"]) for x in files)
    result = {"ok": ok, "referee": "cgtalg.referee", "checked": count, "files": files}
    if len(files) == 1 and "error" not in files[0]:
        result["certificates"] = files[0]["certificates"]

    def text() -> str:
        lines = []
        for f, got in results:
            if len(results) > 1:
                lines.append(f"== {f}")
            if isinstance(got, CertificateError):
                lines.append(f"NOT A CERTIFICATE: {got}")
            else:
                lines.extend(str(r) for r in got)
        held = sum(1 for x in files for c in x["certificates"] if c["ok"])
        lines.append(f"cgtalg.referee: {held} of {count} certificate(s) hold"
                     + (f"; {len(malformed)} file(s) hold no certificate" if malformed else ""))
        return "\n".join(lines)

    emit(result, as_json, text)
    if rejected:
        raise SystemExit(1)
    if malformed:
        raise SystemExit(2)


def register(cli: click.Group) -> None:
    """Attach ``check`` to the main command group."""
    cli.add_command(check_command)
