"""Lenstra's constants α_p = κ_p^⊗p for odd primes p ≤ 709, read from the shipped table.

The table ``cgtalg/data/lenstra_alpha.tsv`` is data with provenance (its header, returned by
:func:`alpha_provenance`): the excesses come from OEIS A380496 (Conway for p ≤ 7, Lenstra
1977 for p ≤ 43, Le Bruyn, Siegel and the OEIS b-file beyond), the κ-sum parts agree with
CGSuite's nim-field constants for p ≤ 257 and D. Peeters' records beyond. Small entries can be
recomputed from first principles with ``tools/recompute_alpha.py`` (Lenstra's algorithm).

Examples
--------
>>> from cgtalg.nimbers.ordinal import format_ordinal
>>> format_ordinal(alpha(7))
'ω+1'
>>> max_tabled_prime()
709
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

from cgtalg.errors import NimberError, OrdinalRangeError
from cgtalg.nimbers.limits import short_repr, shorten
from cgtalg.nimbers.ordinal import OrdinalLike, _out, _parse

__all__ = ["alpha", "alpha_table", "alpha_provenance", "max_tabled_prime", "TABLE_RESOURCE"]

#: Package and file name of the shipped table.
TABLE_RESOURCE = ("cgtalg.data", "lenstra_alpha.tsv")


@lru_cache(maxsize=1)
def _load() -> tuple[dict, str]:
    """Read the TSV once: ``({p: α_p as written}, provenance header)``; an entry is parsed
    when first used (:func:`_parsed`), so a question that needs α_3 does not parse all 126."""
    package, name = TABLE_RESOURCE
    text = resources.files(package).joinpath(name).read_text(encoding="utf-8")
    table: dict[int, object] = {}
    header: list[str] = []
    for lineno, line in enumerate(text.splitlines(), 1):
        if line.startswith("#"):
            header.append(line[1:].strip())
            continue
        if not line.strip() or line.startswith("p\t"):
            continue
        p_text, alpha_text = line.split("\t")
        table[int(p_text)] = alpha_text.strip()
    return table, "\n".join(header)


@lru_cache(maxsize=None)
def _parsed(p: int) -> object:
    """Internal CNF of the table's α_p (``p`` in the table)."""
    return _parse(_load()[0][p])


def _alpha_cnf(p: int) -> object:
    """Internal CNF of α_p; raises :class:`OrdinalRangeError` beyond the table."""
    table, _ = _load()
    try:
        table[p]
        return _parsed(p)
    except KeyError:
        if p > max_tabled_prime():
            raise OrdinalRangeError(
                f"alpha_p for p = {shorten(p)} is beyond the shipped table (p <= {max_tabled_prime()}); "
                "see cgtalg/data/lenstra_alpha.tsv (OEIS A380496) and tools/recompute_alpha.py"
            ) from None
        raise NimberError(f"alpha_p is defined for odd primes p only, got {shorten(p)}") from None


def alpha(p: int) -> OrdinalLike:
    """α_p = κ_p^⊗p, the least element of the field below κ_p without a p-th root.

    Parameters
    ----------
    p : int
        An odd prime ≤ 709.

    Returns
    -------
    int or Ordinal
        α_p from the shipped table.

    Raises
    ------
    cgtalg.errors.OrdinalRangeError
        If ``p`` is beyond the table.
    cgtalg.errors.NimberError
        If ``p`` is not an odd prime.

    Examples
    --------
    >>> alpha(3), alpha(5)
    (2, 4)
    """
    if isinstance(p, bool) or not isinstance(p, int):
        raise NimberError(f"alpha_p is defined for odd primes p only, got {type(p).__name__} {short_repr(p)}")
    return _out(_alpha_cnf(p))


def alpha_table() -> dict[int, OrdinalLike]:
    """The whole table ``{p: α_p}`` for the odd primes p ≤ 709 (a fresh dict).

    Returns
    -------
    dict[int, int or Ordinal]

    Examples
    --------
    >>> len(alpha_table())
    126
    """
    table, _ = _load()
    return {p: _out(_parsed(p)) for p in table}


def alpha_provenance() -> str:
    """The provenance header of the shipped table (its ``#`` comment lines).

    Returns
    -------
    str

    Examples
    --------
    >>> "A380496" in alpha_provenance()
    True
    """
    return _load()[1]


def max_tabled_prime() -> int:
    """The largest prime p with α_p in the shipped table (709).

    Returns
    -------
    int
    """
    return max(_load()[0])
