"""Re-checking any certificate the library writes: :func:`check_certificate`.

A document is what a command printed with ``--json`` (or a ``to_json()`` of the result objects):
the whole output of ``cgtalg equiv``, ``cgtalg period``, ``cgtalg quotient`` (finite or
infinite), a census row, or a file of ``cgtalg store export-certificates``. Every certificate
in it goes to :mod:`cgtalg.referee`, the independent referee: a package that imports only the
standard library, numpy and itself, so no engine that found a result takes part in checking it.
It re-derives each claim *as stated* (relation, ``holds``, the games compared, order, ``|P|``,
period, preperiod, the heap from which a quotient is infinite ...) from the certificate and the
definitions; each report names the referee's function that ran.

A tampered document is rejected with the reasons; a document that is not a certificate at all
raises :class:`~cgtalg.errors.CertificateError`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from cgtalg.errors import CertificateError, shorten

__all__ = ["CheckReport", "check_certificate", "check_files", "read_document"]


@dataclass(repr=False)
class CheckReport:
    """The verdict on one certificate (made from a :class:`cgtalg.referee.Verdict`).

    Attributes
    ----------
    kind : str
        What was checked (``"impartial equivalence proof"``, ``"periodicity certificate"``...).
    claim : str
        The claim the certificate makes, in words.
    checker : str
        The referee's function that ran (``cgtalg.referee....``) and the theorem it uses.
    ok : bool
        Whether the certificate proves its claim as stated.
    reasons : list of str
        The failures found, or a summary of what was re-derived.
    """

    kind: str
    claim: str
    checker: str
    ok: bool
    reasons: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"kind": self.kind, "claim": self.claim, "checker": self.checker, "ok": self.ok,
                "reasons": self.reasons}

    def __repr__(self) -> str:
        from cgtalg.core.display import short

        return f"CheckReport({'OK' if self.ok else 'REJECTED'}, {self.kind!r}, {short(self.claim, 100)!r})"

    def _repr_html_(self) -> str:
        """Notebook view: verdict, claim, the checker that ran, and the reasons."""
        from cgtalg.core.display import Html, card, esc, short

        reasons = "<br>".join(esc(short(r, 300)) for r in self.reasons[:50])
        return card(f"{'OK' if self.ok else 'REJECTED'}: {self.kind}", [
            ("claim", short(self.claim, 400)), ("checker", self.checker), ("reasons", Html(reasons or "—"))],
            kind="check")

    def __str__(self) -> str:
        head = f"{'OK' if self.ok else 'REJECTED'}: {self.kind}: {self.claim}\n  checker: {self.checker}"
        return head + "".join(f"\n  - {r}" for r in self.reasons)


def _report(v: Any) -> CheckReport:
    return CheckReport(v.kind, v.claim, v.checker, bool(v.ok), list(v.reasons))


def read_document(text: str) -> Any:
    """The JSON value of ``text`` (a certificate file's contents).

    Raises
    ------
    CertificateError
        When the text is not JSON.
    """
    try:
        return json.loads(text)
    except ValueError as exc:
        raise CertificateError(f"not a JSON document: {exc}") from None


def check_certificate(doc: Any) -> list[CheckReport]:
    """Re-verify every certificate in ``doc`` with :mod:`cgtalg.referee`: one report per
    certificate.

    Parameters
    ----------
    doc : dict, list or str
        A command's ``--json`` output or a result's ``to_json()``, as a dict or as JSON text.

    Returns
    -------
    list of CheckReport

    Raises
    ------
    CertificateError
        When ``doc`` holds no certificate the referee knows.

    Examples
    --------
    >>> import cgtalg as cg
    >>> [r.ok for r in check_certificate(cg.compare("{*2}", "*2+*2", misere=True).to_json())]
    [True]
    """
    from cgtalg.referee import Malformed, check_document

    if isinstance(doc, str):
        doc = read_document(doc)
    try:
        return [_report(v) for v in check_document(doc)]
    except Malformed as exc:
        raise CertificateError(str(exc)) from None
    except RecursionError:
        raise CertificateError(f"the document nests too deeply to check: {shorten(doc)}") from None


def check_files(paths: list[str]) -> list[tuple[str, list[CheckReport] | CertificateError]]:
    """``(file, reports or the error)`` for every file named and every ``*.json`` file below every
    folder named (``-``: standard input), each checked by :mod:`cgtalg.referee`."""
    import sys

    from cgtalg.referee import check_paths

    out: list[tuple[str, list[CheckReport] | CertificateError]] = []
    for p in paths:
        if p == "-":
            try:
                data = sys.stdin.buffer.read()
                if data[:2] == b"\x1f\x8b":            # gzip-compressed, as a .json.gz file
                    import gzip

                    data = gzip.decompress(data)
                out.append(("-", check_certificate(data.decode("utf-8"))))
            except CertificateError as exc:
                out.append(("-", exc))
            continue
        for f, got in check_paths([p]):
            out.append((f, CertificateError(str(got)) if isinstance(got, Exception) else [_report(v) for v in got]))
    return out
