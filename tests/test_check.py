"""``cgtalg check`` and cgtalg.ops.certificates (issues 23 and 32): the whole --json output of
every command that prints a certificate is accepted and re-checked, and a tampered one is
rejected.

The checker is the independent referee, :mod:`cgtalg.referee` (direct play of literal sums;
re-computation of values from the rules; the exact quotient verification on the game's own
moves; the normal-play order, G ≥ H iff Left wins G − H moving second, Siegel CGT II.1).
The documents checked are computed here, then tampered with: a wrong period (17 for 0.07, whose
period is 34: Winning Ways ch. 4) or a flipped P-position of Q(0.123) must be rejected.
"""

from __future__ import annotations

import copy
import json

import pytest
from click.testing import CliRunner

from cgtalg.cli.main import cli, main
from cgtalg.errors import CertificateError
from cgtalg.ops.certificates import check_certificate


def out(*args):
    r = CliRunner().invoke(cli, list(args) + ["--json"], obj={})
    assert r.exit_code in (0, 1), r.output
    return json.loads(r.output)


def check(doc, *extra):
    r = CliRunner().invoke(cli, ["check", "-", *extra], input=json.dumps(doc), obj={})
    return r.exit_code, r.output


DOCS = {
    "impartial misère, distinguisher": ("equiv", "{*2}", "*2+*2", "--misere", "--no-store"),
    "impartial misère, proof": ("equiv", "*2+*", "*3", "--misere", "--no-store"),
    "impartial normal": ("equiv", "*2+*", "*3", "--no-store"),
    "partizan normal": ("equiv", "{1|0}", "{1|*}", "--no-store"),
    "partizan normal, equal": ("equiv", "{0|}", "{0,*|}", "--no-store"),
    "partizan misère, full": ("equiv", "{1|0}", "{1|*}", "--misere", "--no-store"),
    "partizan misère, dicot": ("equiv", "*+*", "0", "--misere", "--universe", "dicot", "--no-store"),
    "period": ("period", "0.07", "--no-store"),
    "quotient": ("quotient", "0.123", "--no-store"),
}


@pytest.mark.parametrize("name", list(DOCS))
def test_every_certificate_command_is_accepted(name):
    doc = out(*DOCS[name])
    code, text = check(doc)
    assert code == 0, text
    assert text.startswith("OK: ") and "checker: " in text
    code, text = check(doc, "--json")
    d = json.loads(text)
    assert d["ok"] and all(c["checker"] for c in d["certificates"])


def test_tampered_certificates_are_rejected():
    d = out(*DOCS["impartial misère, distinguisher"])
    d["certificate"]["certificate"]["outcome_h_plus_T"] = "P"
    assert check(d)[0] == 1
    d = out(*DOCS["partizan normal"])
    d["certificates"][0]["relation"] = "="
    code, text = check(d)
    assert code == 1 and "play gives '||'" in text
    d = out(*DOCS["partizan misère, full"])
    d["certificates"][0]["distinction"]["outcome_g"] = "P"
    assert check(d)[0] == 1
    d = out(*DOCS["partizan misère, dicot"])
    d["relation"] = ">"   # its certificates prove '='
    assert check(d)[0] == 1
    p = out(*DOCS["period"])
    for key, value, why in (("period", 17, "G("), ("preperiod", 54, "not the least"), ("period", 68, "not the least")):
        bad = copy.deepcopy(p)
        bad[key] = value
        code, text = check(bad)
        assert code == 1 and why in text, (key, value, text)
    q = out(*DOCS["quotient"])
    bad = copy.deepcopy(q)
    bad["P"] = [not x for x in bad["P"][:1]] + bad["P"][1:]
    assert check(bad)[0] == 1
    bad = copy.deepcopy(q)
    i = bad["P"].index(True)
    bad["P"][i] = False
    code, text = check(bad)
    assert code == 1 and ("N-condition" in text or "no option with its image in P" in text)
    bad = copy.deepcopy(q)
    bad["table"][1][1] = (bad["table"][1][1] + 1) % len(bad["table"])
    assert check(bad)[0] == 1


def test_not_a_certificate():
    r = CliRunner().invoke(cli, ["check", "-"], input="{not json", obj={})
    assert r.exit_code != 0
    assert main(["check", "/nonexistent/file.json"]) == 2
    with pytest.raises(CertificateError, match="no certificate"):
        check_certificate({"hello": 1})
    # a period that is not certified claims nothing: the referee says so, and proves nothing
    (rep,) = check_certificate(out("period", "0.376", "--no-store", "--max-values", "5000"))
    assert rep.ok and "claims nothing" in " ".join(rep.reasons)


def test_python_results_are_accepted():
    import cgtalg as cg

    for a, b, kw in (("{*2}", "*2+*2", {"misere": True}), ("{1|0}", "{1|*}", {}),
                     ("{1|0}", "{1|*}", {"misere": True, "universe": "all"})):
        reps = check_certificate(cg.compare(a, b, **kw).to_json())
        assert reps and all(r.ok for r in reps)


def test_normal_order_checker_against_the_library_on_random_forms():
    # the referee's play of G − H (Siegel CGT II.1) and the library's recursive order agree on
    # small forms, handed over as the rows a certificate carries
    import random

    import cgtalg as cg
    from cgtalg.core.partizan import pgame
    from cgtalg.misere.partizan_certificate_json import forms_to_json
    from cgtalg.referee.games import ge, read_rows

    rng = random.Random(5)
    forms = [pgame()]
    for _ in range(60):
        forms.append(pgame(rng.sample(forms, min(len(forms), rng.randint(0, 2))),
                           rng.sample(forms, min(len(forms), rng.randint(0, 2)))))
    for _ in range(200):
        g, h = rng.choice(forms), rng.choice(forms)
        rel = cg.compare(g, h).relation
        rows, (gi, hi) = forms_to_json(g, h)
        rg, rh = (read_rows(rows)[i] for i in (gi, hi))
        assert ge(rg, rh) == (rel in ("=", ">"))
        assert ge(rh, rg) == (rel in ("=", "<"))


def test_gzip_compressed_files_are_read(tmp_path):
    """``.json.gz`` files (a census's --json output is large) are read decompressed: named, or
    found in a folder beside ``.json`` files; a damaged one is not a certificate (exit 2)."""
    import gzip

    doc = json.dumps(out(*DOCS["period"]))
    (tmp_path / "certs").mkdir()
    (tmp_path / "certs" / "p.json.gz").write_bytes(gzip.compress(doc.encode()))
    (tmp_path / "certs" / "p.json").write_text(doc)
    r = CliRunner().invoke(cli, ["check", str(tmp_path / "certs" / "p.json.gz")], obj={})
    assert r.exit_code == 0 and "1 of 1 certificate(s) hold" in r.output, r.output
    r = CliRunner().invoke(cli, ["check", str(tmp_path / "certs"), "--json"], obj={})
    got = json.loads(r.output)
    assert r.exit_code == 0 and [f["file"].rsplit("/", 1)[1] for f in got["files"]] == ["p.json", "p.json.gz"]
    bad = json.loads(doc)
    bad["period"] = 17
    (tmp_path / "bad.json.gz").write_bytes(gzip.compress(json.dumps(bad).encode()))
    assert main(["check", str(tmp_path / "bad.json.gz")]) == 1
    (tmp_path / "cut.json.gz").write_bytes(gzip.compress(doc.encode())[:40])
    r = CliRunner().invoke(cli, ["check", str(tmp_path / "cut.json.gz")], obj={})
    assert r.exit_code == 2 and "damaged gzip" in r.output, r.output
