"""The certificates of census rows: what ``cgtalg check`` (the referee, :mod:`cgtalg.referee.census`)
checks a row's claims against.

A settled row of the ``--json`` output of either census carries ``certificate``:

- ``period``: the periodicity certificate of the row's own code
  (:func:`period_certificate`, as ``cgtalg period CODE --json`` states it);
- ``quotient``: the final misère quotient of the row's standard form
  (:func:`quotient_certificate`, as ``cgtalg quotient STANDARD --json``
  states it, without the table: the referee builds the monoid from the presentation);
- ``infinite``: the proof that the misère quotient of the row's standard form is infinite
  from a heap ``v`` (:func:`infinite_row_certificate`: the ``infinite-misere-quotient``
  document of :mod:`cgtalg.quotients.infinite`, as the class record keeps it; the referee's
  :mod:`cgtalg.referee.rays` checks it).

An unsolved, unsettled or failed row claims nothing and has no certificate (an unsettled
row's lower bound on the next quotient is stated, not certified).
:func:`row_certificate` gives a row's document; :func:`stored_row_certificates` gives those of
the class records a store holds (``cgtalg store export-certificates``).
"""

from __future__ import annotations

from typing import Any, Iterator

__all__ = ["row_certificate", "period_certificate", "quotient_certificate", "infinite_row_certificate", "tie_certificate",
           "stored_row_certificates", "STORED"]

#: ``source`` of a row exported from a store (read as stored: the referee checks it)
STORED = "stored"


def period_certificate(code: str, period: int, preperiod: int) -> dict:
    """The periodicity certificate of a solved row: what ``cgtalg period CODE --json`` states
    for the row's own code (not its standard form), with the theorem and the bound its
    ``(preperiod, period)`` needs; ``cgtalg.referee`` recomputes the values and checks it."""
    from cgtalg.rulesets.heaps.octal import TakeAndBreak
    from cgtalg.rulesets.heaps.octal_periodicity import PeriodicityResult, _bound_text, required_length

    theorem, mode, h, k = TakeAndBreak(code).certificate()
    L = required_length(mode, h, k, preperiod, period)
    d = PeriodicityResult(ruleset=code, status="certified", period=period, preperiod=preperiod, saltus=0,
                          certified=True, theorem=theorem, bound=_bound_text(mode, h, k, preperiod, period),
                          required_values=L, values_checked=L, k=k).to_json()
    d.pop("note", None)
    return d


def _presentation_parts(text: str) -> tuple[list[str], list[str]]:
    """Generators and relations of a presentation text ``⟨a,b | a²=1, ...⟩``."""
    inner = text.strip()[1:-1]
    gens, _, rels = inner.partition("|")
    return ([g.strip() for g in gens.split(",") if g.strip()], [r.strip() for r in rels.split(",") if r.strip()])


def quotient_certificate(standard: str, record: dict | None) -> dict | None:
    """The certificate of a final quotient record of the class of ``standard`` (the misère
    quotient census's class record, or the quotient part of the Grundy census's): the quotient
    of the standard form as ``cgtalg quotient STANDARD --json`` states it, Φ given on every heap
    ``0..N`` (``N`` the heap where the periodicity theorem certified it), without the table:
    ``cgtalg.referee`` builds the monoid from the presentation and checks it on the game's own
    moves. None for a record that is not final, or that keeps no Φ or presentation."""
    if not record or record.get("status") != "final" or not record.get("phi") or not record.get("presentation"):
        return None
    n0, p = (int(x) for x in record["period"])
    phi, N = list(record["phi"]), int(record["heaps"])
    tail = record.get("tail")
    # by the normal tail the record keeps Φ of heaps 0..N, and the rest follows from the tail
    words = phi[: N + 1] if tail else [phi[h] if h < n0 + p else phi[n0 + (h - n0) % p] for h in range(N + 1)]
    gens, rels = _presentation_parts(record["presentation"])
    d = {"game": standard, "kind": "heaps", "max_heap": N, "order": record["order"],
         "p_portion": list(record["p_portion"]), "presentation": record["presentation"], "generators": gens,
         "relations": rels, "phi": words, "final": True, "period": [n0, p], "checked_to": N}
    if tail:
        d["tail"] = dict(tail)
    if "tame" in record:
        d["tame"] = record["tame"] is not None
        d["tame_index"] = record["tame"]
    if "p_count" in record:
        d["p_count"] = record["p_count"]
    return d


def tie_certificate(standard: str, record: dict | None) -> dict | None:
    """The certificate of an unsettled class record tied to normal play (its ``tied`` part: the
    facts of ``Q_M`` at the least heap ``M`` where the tie is proved,
    :func:`cgtalg.census.quotients.quotient_record`): the partial quotient ``Q_M`` of the
    standard form as ``cgtalg quotient STANDARD --json`` states it (Φ of heaps ``0..M``, the
    presentation, not final) with its ``normal_tie``, which the referee re-derives. None for any
    other record."""
    tied = (record or {}).get("tied") if (record or {}).get("status") == "unsettled" else None
    if not isinstance(tied, dict) or not tied.get("phi") or not tied.get("presentation"):
        return None
    M = int(tied["heaps"])
    gens, rels = _presentation_parts(tied["presentation"])
    return {"game": standard, "kind": "heaps", "max_heap": M, "order": tied["order"], "p_count": tied["p_count"],
            "p_portion": list(tied["p_portion"]), "presentation": tied["presentation"], "generators": gens,
            "relations": rels, "phi": list(tied["phi"][: M + 1]), "final": False, "period": None,
            "checked_to": None, "normal_tie": dict(tied["normal_tie"])}


def infinite_row_certificate(record: dict | None) -> dict | None:
    """The certificate of an infinite class record of the misère quotient census (status
    ``infinite``, :func:`cgtalg.census.quotients.quotient_record`): the
    ``infinite-misere-quotient`` document it keeps (about the standard form; a member's row
    carries it unchanged, with its claims moved by the shift). None for any other record."""
    if not record or record.get("status") != "infinite":
        return None
    cert = record.get("certificate")
    return cert if isinstance(cert, dict) and cert.get("kind") == "infinite-misere-quotient" else None


def row_certificate(row: Any) -> dict | None:
    """The certificate document of a census row (a :class:`CensusRow`, a
    :class:`~cgtalg.census.quotient_table.QuotientRow`, or the JSON of either): the row's JSON,
    whose ``certificate`` holds ``period`` (:func:`period_certificate`, a solved row),
    ``quotient`` (:func:`quotient_certificate`, a final quotient) or ``infinite``
    (:func:`infinite_row_certificate`, a quotient proved infinite); ``cgtalg check`` (the
    referee, :mod:`cgtalg.referee.census`) checks the row's claims against them. None for a row
    that claims nothing (unsolved, unsettled, failed)."""
    d = row.to_json() if hasattr(row, "to_json") else dict(row)
    return d if d.get("certificate") else None


def stored_row_certificates(store: Any) -> Iterator[tuple[str, dict | None]]:
    """``(name, document)`` for every census class record ``store`` holds: the row of the
    standard form itself (shift 0; its cousins are not known from the store) with its
    certificate, as the census's ``--json`` output prints it, or None for a row that claims
    nothing. A class with a Grundy census record is named by its standard form, one with a
    final or infinite misère quotient census record (``quotient_census:final``) by the
    standard form and ``-quotient``."""
    from cgtalg.census.quotient_table import quotient_row
    from cgtalg.census.quotients import FINAL_PROP
    from cgtalg.census.table import member_row
    from cgtalg.census.tasks import CENSUS_RULESET
    from cgtalg.store.listings import MAX_LIMIT

    for pos in store.list_positions(CENSUS_RULESET, limit=MAX_LIMIT):
        std, props = pos["position"], pos.get("properties") or {}
        normal = props.get("normal")
        if not isinstance(normal, dict):
            unsolved = [v for k, v in props.items() if k.startswith("normal:") and isinstance(v, dict)]
            normal = unsolved[0] if unsolved else None
        if normal is not None:
            finals = [v for k, v in sorted(props.items()) if k.startswith("quotient:") and isinstance(v, dict)
                      and v.get("status") == "final"]
            record = {"normal": normal, "quotient": finals[0] if finals else None}
            yield std, row_certificate(member_row(std, 0, [std], std, record, STORED))
        final = props.get(FINAL_PROP)
        if isinstance(final, dict):
            yield f"{std}-quotient", row_certificate(quotient_row(std, 0, [std], std, final, STORED))
