"""Provenance of stored results: which version of which algorithm wrote a row, and whether
that version is still the current one.

Every row of ``form_properties``, ``form_relations``, ``position_properties`` and
``sequences`` records ``algorithm`` (the version of the code that computed it, from
:data:`ALGORITHM_VERSIONS`) and ``made_by`` (the cgtalg version that wrote it; ``NULL`` for
rows written before provenance existed, which migration ``0003`` gave version 1). Entries of a
sequence's metadata (``periodicity``, ``misere_quotient``) carry the same two facts in the
reserved metadata entry :data:`META_PROVENANCE`.

A row whose version is not :func:`current_version` of its name is *stale*: the store does not
serve it (a read finds nothing, so a memo recomputes and the write replaces the row) unless the
store was opened with ``serve_stale=True`` (``cgtalg --stale show``), which serves it and records
it in ``store.stale_served``. Write-once holds among current rows only.

When to bump a version
----------------------
Bump the entry of a name (by one) in the same commit as a change to the code it names that
changes a stored answer or the meaning of its JSON: a bug fix that makes some stored value
wrong, a new field whose absence readers would misread, a different encoding. Do not bump for
speed-ups, refactorings or messages: stored answers stay valid and recomputing them would only
cost time. Every store then recomputes the rows of that name when they are next asked for.

Names
-----
A stored name is looked up first as written, then by its *family*, the part before the first
``:`` (so the census's parameterised ``normal:values=...``, ``genus:heaps=...`` and
``quotient:heaps=...``, and the solver's ``solution:misere``, share their family's version).
A sequence ``grundy:0.77`` is looked up as ``sequence:grundy`` (its kind), so that it does not
share the version of the form property ``grundy``. Names listed nowhere have version 1. A name
used by several tables (``genus``, ``misere_grundy``, ``misere_outcome``) has one version for
all of them: bumping it recomputes each.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import cgtalg

__all__ = [
    "ALGORITHM_VERSIONS",
    "DEFAULT_VERSION",
    "META_PROVENANCE",
    "Provenance",
    "current_version",
    "sequence_kind",
    "sequence_version",
    "version_name",
    "made_by",
]

#: Version of a name listed nowhere in :data:`ALGORITHM_VERSIONS`.
DEFAULT_VERSION = 1

#: The reserved entry of a sequence's metadata that records each other entry's provenance
#: (``{"periodicity": {"algorithm": 1, "made_by": "0.1.0"}, ...}``); never returned by
#: :meth:`cgtalg.store.Store.sequence_meta`.
META_PROVENANCE = "provenance"

ALGORITHM_VERSIONS: dict[str, int] = {
    # -- properties of forms (cgtalg.report.describe through cgtalg.ops.properties) ---------
    "birthday": 1,  # cgtalg.core.game.Game.birthday
    "normal_outcome": 1,  # cgtalg.normal.grundy.normal_outcome
    "grundy": 1,  # cgtalg.normal.grundy.grundy (forms; sequences are "sequence:grundy")
    "normal_winning_moves": 1,  # cgtalg.ops.properties (_moves, normal play)
    "misere_outcome": 1,  # cgtalg.misere.outcome.misere_outcome; heap positions: rulesets.heaps.misere_play
    "misere_grundy": 1,  # cgtalg.misere.outcome.misere_grundy; heap positions: rulesets.heaps.misere_play
    "misere_winning_moves": 1,  # cgtalg.ops.properties (_moves, misère play)
    "genus": 1,  # cgtalg.misere genus: forms (ops.properties), heaps (rulesets.heaps.genus), census genus:*
    "misere_canonical": 1,  # cgtalg.misere canonical forms (ops.properties._canonical_text)
    # -- relations between forms (cgtalg.report.equivalence_report) -------------------------
    "misere_equivalent": 1,  # cgtalg.misere.equivalence.equivalent(misere=True) + misere.proof
    "normal_equivalent": 1,  # cgtalg.misere.equivalence.equivalent(misere=False) + misere.proof
    # -- properties of ruleset positions ----------------------------------------------------
    "canonical_form": 1,  # cgtalg.rulesets.partizan.games (partizan values of boards)
    "solution": 1,  # cgtalg.rulesets.solver.solve ("solution" and "solution:misere")
    "normal": 1,  # cgtalg.census.tasks: normal-play record of an octal class ("normal", "normal:...")
    "quotient": 1,  # cgtalg.census.tasks: misère quotient record of a class ("quotient:...")
    "quotient_census": 7,  # cgtalg.census.quotients: quotient census class records
    #                        ("quotient_census:final", "quotient_census:partial:..."); 2: status
    #                        "infinite" (final prop, with its certificate), next_bound of unsettled;
    #                        3: a class stopped on a limit is tried again (stalled pairs at every
    #                        round, witnesses on the class of b − a); 4: witnesses on a class of
    #                        one count, stalled pairs repaired where their pretension fails
    "loopy_outcome": 1,  # cgtalg.normal.loopy.loopy_outcome (positions of ruleset "loopy")
    "loopy_value": 1,  # cgtalg.normal.loopy_simplify: stopper, canonical stopper, sides
    # -- sequences and their metadata -------------------------------------------------------
    "sequence:grundy": 1,  # cgtalg.rulesets.heaps.grundy_engine: Grundy values of heap games
    "periodicity": 1,  # cgtalg.rulesets.heaps.octal_periodicity: certified period (sequence metadata)
    "misere_quotient": 1,  # cgtalg.quotients.storage: misère quotient (sequence metadata)
    "misere_quotient_rays": 1,  # cgtalg.quotients.storage: proof that a partial quotient is infinite
}


# Not a registered cache (cgtalg.caches): a name's family is fixed text, not a computed answer.
@functools.lru_cache(maxsize=4096)
def version_name(name: str) -> str:
    """The entry of :data:`ALGORITHM_VERSIONS` that governs the stored name ``name``: the
    name itself if listed, else its family (the text before the first ``:``)."""
    if name in ALGORITHM_VERSIONS:
        return name
    return name.partition(":")[0]


def current_version(name: str) -> int:
    """The current algorithm version of the stored name ``name`` (property, relation,
    position property, metadata entry; 1 if not listed).

    Examples
    --------
    >>> current_version("grundy"), current_version("genus:heaps=40"), current_version("no such name")
    (1, 1, 1)
    """
    version = ALGORITHM_VERSIONS.get(name)
    if version is not None:
        return version
    return ALGORITHM_VERSIONS.get(version_name(name), DEFAULT_VERSION)


def sequence_kind(key: str) -> str:
    """The versioned name of the sequence ``key``: ``sequence:`` and its kind, the text before
    the first ``:`` (``grundy:0.77`` -> ``sequence:grundy``)."""
    return "sequence:" + key.partition(":")[0]


def sequence_version(key: str) -> int:
    """The current algorithm version of the sequence ``key`` (that of :func:`sequence_kind`)."""
    return current_version(sequence_kind(key))


def made_by() -> str:
    """The cgtalg version recorded in the rows written now."""
    return cgtalg.__version__


@dataclass(frozen=True)
class Provenance:
    """Where a stored result came from.

    Attributes
    ----------
    algorithm : int
        Version of the algorithm that computed it.
    made_by : str or None
        The cgtalg version that wrote it (``None``: written before provenance was recorded).
    current : bool
        Whether ``algorithm`` is the current version of its name (else the row is stale).
    name : str
        The stored name (property, relation, metadata entry or sequence kind).
    current_algorithm : int
        The current version of that name.
    """

    algorithm: int
    made_by: str | None
    current: bool
    name: str = ""
    current_algorithm: int = DEFAULT_VERSION

    @classmethod
    def of(cls, name: str, algorithm: int, made_by: str | None, current_algorithm: int | None = None) -> "Provenance":
        """The provenance of a row of ``name`` written by ``algorithm`` (compared with the
        current version of ``name``, or ``current_algorithm`` when given)."""
        now = current_version(name) if current_algorithm is None else current_algorithm
        return cls(int(algorithm), made_by, int(algorithm) == now, name, now)

    def describe(self) -> str:
        """One line for people: ``made by grundy v1 (current v2), cgtalg 0.1.0``."""
        state = "current" if self.current else f"current v{self.current_algorithm}"
        who = f"cgtalg {self.made_by}" if self.made_by else "before cgtalg recorded provenance"
        return f"made by {self.name} v{self.algorithm} ({state}), {who}"


def current_meta(meta: dict, keep: Any) -> dict:
    """The entries of a sequence's metadata ``meta`` that are current: the reserved provenance
    entry removed, and each other entry kept when ``keep(name, algorithm, made_by)`` says so
    (the store's staleness check, or ``store verify``'s). Shared by the full store, the light
    store and the verifier, so all three read metadata alike."""
    prov = meta.pop(META_PROVENANCE, None)
    prov = prov if isinstance(prov, dict) else {}
    out = {}
    for name, value in meta.items():
        p = prov.get(name)
        algorithm = p.get("algorithm", 1) if isinstance(p, dict) else 1
        made = p.get("made_by") if isinstance(p, dict) else None
        if keep(name, algorithm, made):
            out[name] = value
    return out


def current_sequence_meta(key: str, meta: dict, fresh: Any) -> dict:
    """:func:`current_meta` of sequence ``key`` with a store's staleness check ``fresh(table,
    describe, name, algorithm, made_by)`` (the full store's and the light store's)."""
    return current_meta(meta, lambda name, algorithm, made: fresh(
        "sequences", lambda: f"sequence {key!r}, metadata {name!r}", name, algorithm, made))
