"""Censuses of heap games at scale: every octal (or hexadecimal) code up to ``k`` digits,
computed class by class on ``dask.distributed`` against the store, with a published-style
table (CSV, JSON, HTML with plots) and a diff against a published table.

    >>> from cgtalg.census import octal_census
    >>> r = octal_census(digits=1, values=2**10, scheduler="serial", misere=False)
    >>> [(row.code, row.standard_form, row.result) for row in r.rows][:3]
    [('0.1', '0.1', 'solved'), ('0.2', '0.3', 'solved'), ('0.3', '0.3', 'solved')]

Modules: :mod:`~cgtalg.census.codes` (enumeration, classes by standard form),
:mod:`~cgtalg.census.tasks` (one class: normal play, genus tail, quotient attempt),
:mod:`~cgtalg.census.run` (the Grundy census's driver), :mod:`~cgtalg.census.table` (rows, output,
the diff), :mod:`~cgtalg.census.driver` (what every census driver shares: Dask, the store, batches),
:mod:`~cgtalg.census.quotients` and :mod:`~cgtalg.census.quotient_table` (the misère quotient
census and its table). See ``docs/census.md`` and ``docs/quotient_census.md``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_LAZY: dict[str, str] = {
    "octal_census": "cgtalg.census.run",
    "CensusResult": "cgtalg.census.table",
    "CensusRow": "cgtalg.census.table",
    "Disagreement": "cgtalg.census.table",
    "read_published": "cgtalg.census.table",
    "diff_published": "cgtalg.census.table",
    "CensusParams": "cgtalg.census.tasks",
    "compute_class": "cgtalg.census.tasks",
    "CensusClass": "cgtalg.census.codes",
    "enumerate_codes": "cgtalg.census.codes",
    "census_classes": "cgtalg.census.codes",
    "quotient_census": "cgtalg.census.quotients",
    "QuotientParams": "cgtalg.census.quotients",
    "QuotientCensusResult": "cgtalg.census.quotient_table",
    "QuotientRow": "cgtalg.census.quotient_table",
    "read_quotient_table": "cgtalg.census.quotient_table",
    "diff_quotient_tables": "cgtalg.census.quotient_table",
    "row_certificate": "cgtalg.census.certificates",
    "stored_row_certificates": "cgtalg.census.certificates",
}

if TYPE_CHECKING:  # pragma: no cover
    from cgtalg.census.certificates import row_certificate, stored_row_certificates
    from cgtalg.census.codes import CensusClass, census_classes, enumerate_codes
    from cgtalg.census.quotient_table import QuotientCensusResult, QuotientRow, diff_quotient_tables, read_quotient_table
    from cgtalg.census.quotients import QuotientParams, quotient_census
    from cgtalg.census.run import octal_census
    from cgtalg.census.table import CensusResult, CensusRow, Disagreement, diff_published, read_published
    from cgtalg.census.tasks import CensusParams, compute_class


def __getattr__(name: str) -> Any:
    """Resolve a public name on first use (PEP 562): ``import cgtalg.census`` loads no Dask."""
    try:
        module = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'cgtalg.census' has no attribute {name!r}") from None
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = list(_LAZY)
