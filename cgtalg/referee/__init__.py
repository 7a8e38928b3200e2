"""``cgtalg.referee``: an independent referee for every certificate cgtalg writes.

The referee re-derives each claim a reader would quote (a relation, an order, a period and
preperiod, ``|P|``, the heap from which a quotient is infinite, the games compared) from the
certificate and the definitions alone. It imports only the standard library, numpy and
itself (an import-linter contract in ``pyproject.toml`` says so), so none of the engines that
found a result takes part in checking it: a reader can read this package, and nothing else,
to believe a result.

One module per kind of certificate, each with ``recognise(doc) -> bool`` and
``check(doc) -> list[Verdict]``:

====================================  ==========================================================
certificate                           module
====================================  ==========================================================
impartial equivalence proofs and      :mod:`cgtalg.referee.equivalence` (Spindler's Theorem 1
distinguishers (``equiv``)            steps, Grundy labels; outcomes by its own play)
partizan comparisons, normal play     :mod:`cgtalg.referee.partizan` (play of G − H; misère
and every misère universe             witnesses and distinguishers by its own play)
Grundy periodicity (``period``)       :mod:`cgtalg.referee.periodicity` (its own mex; the
                                      Guy–Smith and hexadecimal bounds re-derived)
finite misère quotients               :mod:`cgtalg.referee.quotients` (P- and N-conditions on
(``quotient``)                        the game's own moves; misère periodicity theorem)
infinite misère quotients             :mod:`cgtalg.referee.rays` (ray pretensions: the maps,
                                      the translation lemmas' check points, the order witness;
                                      linear rays: :mod:`cgtalg.referee.ray_linear`)
largest-heap rules (every outcome by   :mod:`cgtalg.referee.heap_rule` (the P- and N-conditions
a rule over heap sizes; an infinite    on finitely many views of positions, by induction; a
quotient with no ``Q_n`` infinite)     family of single heaps told apart)
census rows                           :mod:`cgtalg.referee.census`
====================================  ==========================================================

Examples
--------
>>> import json
>>> from cgtalg.referee import check_document
>>> doc = {"not": "a certificate"}
>>> try:
...     check_document(doc)
... except Malformed as exc:
...     print("malformed")
malformed
"""

from __future__ import annotations

import gzip
import importlib
import json
import os
import zlib
from typing import Any, Iterator

from cgtalg.referee._verdict import REFEREE, Malformed, Verdict

__all__ = ["check_document", "check_text", "check_paths", "read_file", "Verdict", "Malformed", "REFEREE", "MODULES"]

#: the checker modules, tried in this order on a document (each recognises its own kind)
MODULES = ("equivalence", "partizan", "periodicity", "rays", "heap_rule", "quotients", "census")


def _modules() -> Iterator[Any]:
    for name in MODULES:
        yield importlib.import_module(f"cgtalg.referee.{name}")


def check_document(doc: Any) -> list[Verdict]:
    """Every verdict on the certificates in ``doc`` (a parsed JSON document, or a list of them).

    Raises
    ------
    Malformed
        When ``doc`` holds no certificate the referee knows.
    """
    if isinstance(doc, list):
        if not doc:
            raise Malformed("an empty list holds no certificate")
        return [v for d in doc for v in check_document(d)]
    if not isinstance(doc, dict):
        raise Malformed(f"a certificate document is a JSON object, not {type(doc).__name__}")
    if "error" in doc and len(doc) == 1:
        raise Malformed(f"the document is an error report, not a certificate: {str(doc['error'])[:200]}")
    for mod in _modules():
        if mod.recognise(doc):
            return mod.check(doc)
    raise Malformed("no certificate found: expected the --json output of `cgtalg equiv`, `cgtalg period`, "
                    "`cgtalg quotient` or a census row, or a file written by `cgtalg store export-certificates`")


def check_text(text: str) -> list[Verdict]:
    """:func:`check_document` of a JSON text (``Malformed`` when it is not JSON)."""
    try:
        doc = json.loads(text)
    except ValueError as exc:
        raise Malformed(f"not a JSON document: {exc}") from None
    return check_document(doc)


#: the first bytes of a gzip file (RFC 1952)
GZIP_MAGIC = b"\x1f\x8b"
#: the file names a folder is searched for
SUFFIXES = (".json", ".json.gz")


def read_file(path: str) -> str:
    """The text of the certificate file ``path``: UTF-8, gzip-compressed or not (a ``.json.gz``
    file, or any file that starts with the gzip magic bytes, is decompressed).

    Raises
    ------
    Malformed
        When the file cannot be read, is not valid gzip, or is not UTF-8 text.
    """
    try:
        with open(path, "rb") as fh:
            data = fh.read()
        if data[:2] == GZIP_MAGIC:
            data = gzip.decompress(data)
        return data.decode("utf-8")
    except OSError as exc:      # gzip.BadGzipFile is an OSError
        raise Malformed(f"{path}: cannot be read ({getattr(exc, 'strerror', None) or exc})") from None
    except (EOFError, zlib.error) as exc:
        raise Malformed(f"{path}: a truncated or damaged gzip file ({exc})") from None
    except UnicodeDecodeError as exc:
        raise Malformed(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def check_paths(paths: list[str]) -> list[tuple[str, list[Verdict] | Malformed]]:
    """``(file, verdicts or the Malformed error)`` for every file named, and every ``*.json``
    and ``*.json.gz`` file below every folder named (sorted, recursively); gzip-compressed
    files are read decompressed (:func:`read_file`)."""
    out: list[tuple[str, list[Verdict] | Malformed]] = []
    for p in paths:
        files = [p]
        if os.path.isdir(p):
            files = sorted(os.path.join(d, f) for d, _s, fs in os.walk(p) for f in fs if f.endswith(SUFFIXES))
            if not files:
                out.append((p, Malformed(f"{p}: a folder with no .json certificate (nor .json.gz)")))
        for f in files:
            try:
                text = read_file(f)
            except Malformed as exc:
                out.append((f, exc))
                continue
            try:
                out.append((f, check_text(text)))
            except Malformed as exc:
                out.append((f, exc))
    return out
