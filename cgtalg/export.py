"""``cgtalg store export-certificates DIR``: every certificate a store holds, as files a referee
can take away.

Each file is one JSON document that ``cgtalg check`` (the independent referee,
:mod:`cgtalg.referee`) accepts on its own, in a folder by kind:

================================  ===============================================================
folder                            what
================================  ===============================================================
``period/GAME.json``              a certified Grundy period (``cgtalg period --json``)
``quotient/GAME.json``            a misère quotient, finite (``cgtalg quotient --json``)
``quotient/GAME-infinite.json``   the proof that a misère quotient is infinite (ray pretension)
``equivalence/A-B-NAME.json``     an equivalence proof or distinguisher between stored forms
``census/CODE.json``              a settled census row with its certificate
================================  ===============================================================

Nothing is trusted on the way out: a stored quotient or proof is re-verified by the loader before
it is written (a tampered one is a :class:`~cgtalg.errors.StoreCorruptError`), and the referee
checks every file again from the definitions. Records that no referee can check (a ruleset given
by a Python function, which the referee cannot read from its name) are counted as skipped, with
the reason.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any, Callable

from cgtalg.store.listings import MAX_LIMIT

__all__ = ["export_certificates"]

_SAFE = re.compile(r"[^A-Za-z0-9._-]+")


def _file_name(text: str) -> str:
    return _SAFE.sub("_", text).strip("_") or "_"


def _write(directory: str, kind: str, name: str, doc: dict, written: list[str]) -> None:
    folder = os.path.join(directory, kind)
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, _file_name(name) + ".json")
    tmp = path + ".part"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(doc, fh, ensure_ascii=False, indent=1)
        fh.write("\n")
    os.replace(tmp, path)
    written.append(path)


def _code_ruleset(game: str) -> Any | None:
    """The built-in heap ruleset named ``game`` (None for a ruleset from a function, whose
    stored name carries a fingerprint, or a name no built-in has)."""
    from cgtalg.errors import CgtalgError
    from cgtalg.rulesets.heaps.games import parse_heap_ruleset

    try:
        return parse_heap_ruleset(game)
    except CgtalgError:
        return None


def export_certificates(store: Any, directory: str | os.PathLike,
                        progress: Callable[[str], None] | None = None) -> dict:
    """Write every certificate ``store`` holds below ``directory`` (module docstring).

    Returns
    -------
    dict
        ``{"directory", "written": [paths], "counts": {kind: n}, "skipped": [{"key", "why"}]}``.

    Raises
    ------
    StoreCorruptError
        When a stored quotient or proof fails its re-verification on reading.
    """
    directory = os.fspath(directory)
    os.makedirs(directory, exist_ok=True)
    written: list[str] = []
    skipped: list[dict] = []
    counts: dict[str, int] = {}

    def note(kind: str) -> None:
        counts[kind] = counts.get(kind, 0) + 1
        if progress is not None:
            progress(kind)

    for seq in store.list_sequences(limit=MAX_LIMIT):
        key, meta = seq["key"], seq.get("meta") or {}
        kind, _, game = key.partition(":")
        if kind == "grundy" and isinstance(meta.get("periodicity"), dict):
            doc = dict(meta["periodicity"])
            if not (doc.get("certified") and doc.get("status") == "certified"):
                continue
            if _code_ruleset(game) is None:
                skipped.append({"key": key, "why": "a ruleset the referee cannot read from its name"})
                continue
            doc.setdefault("ruleset", game)
            _write(directory, "period", game, doc, written)
            note("period")
        elif kind == "quotient":
            _export_quotient(store, game, key, directory, written, skipped, note)
    _export_relations(store, directory, written, skipped, note)
    _export_census(store, directory, written, skipped, note)
    return {"directory": directory, "written": written, "counts": counts, "skipped": skipped}


def _export_quotient(store: Any, game: str, key: str, directory: str, written: list[str],
                     skipped: list[dict], note: Callable[[str], None]) -> None:
    from cgtalg.quotients.storage import load_quotient_state, ray_certificate

    ruleset = _code_ruleset(game)
    if ruleset is None:
        skipped.append({"key": key, "why": "a ruleset the referee cannot read from its name"})
        return
    state = load_quotient_state(ruleset, store)
    if state is not None:
        q = state.quotient(ruleset.name, None if state.final else state.top)
        _write(directory, "quotient", game, q.to_dict(), written)
        note("quotient")
    cert = ray_certificate(ruleset, store)
    if cert is not None:
        _write(directory, "quotient", game + "-infinite", cert, written)
        note("infinite quotient")


def _export_relations(store: Any, directory: str, written: list[str], skipped: list[dict],
                      note: Callable[[str], None]) -> None:
    """Every stored relation between forms that carries its certificate."""
    for row in store.list_relations(limit=MAX_LIMIT):
        a, b, name, value = row["form_id"], row["other_id"], row["name"], row["value"]
        key = f"forms ({a}, {b}), relation {name}"
        try:
            doc = json.loads(value)
        except ValueError:
            skipped.append({"key": key, "why": "the stored value is not JSON"})
            continue
        if not isinstance(doc, dict) or not isinstance(doc.get("certificate"), dict):
            skipped.append({"key": key, "why": "no certificate stored with the verdict"})
            continue
        _write(directory, "equivalence", f"{a}-{b}-{name}", doc, written)
        note("equivalence")


def _export_census(store: Any, directory: str, written: list[str], skipped: list[dict],
                   note: Callable[[str], None]) -> None:
    """The settled rows of the census records in the store, each with its certificate."""
    from cgtalg.census.certificates import stored_row_certificates

    for code, doc in stored_row_certificates(store):
        if doc is None:
            skipped.append({"key": f"census {code}", "why": "an unsettled row claims nothing"})
            continue
        _write(directory, "census", code, doc, written)
        note("census row")
