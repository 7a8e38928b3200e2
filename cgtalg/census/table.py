"""The census table: one row per code, in the style of the published tables (Winning Ways
ch. 4; Flammenkamp's octal-game tables), as CSV, JSON and an HTML page with plots; and the
diff against a published table given as CSV.

Columns: ``code``, ``standard_form`` and ``shift`` (``G(n) = G_standard(n - shift)``),
``cousins`` (the other codes of the census with that standard form), ``status`` (``solved``
= a period certified by the Guy-Smith theorem; ``unsolved``), ``period``, ``preperiod`` (the
least ``n0`` with ``G(n+p) = G(n)`` for all ``n >= n0``), ``last_exceptional`` (``n0 - 1``,
empty when purely periodic), ``max_value`` (the largest value: of the whole sequence when
solved, of the values computed otherwise), ``values`` (unsolved: the values computed,
``G(0) .. G(values-1)`` -- "unsolved to N"), ``limit`` (why an unsolved code stopped there),
``genus_tail`` and ``first_non_nim`` (misère genus: the last genera computed and the first
heap whose genus is not a nim-heap's), ``quotient`` (the misère-quotient attempt), ``source``
(``computed`` by this run, or ``reused, re-checked``: read from the store and re-checked,
:mod:`cgtalg.census.recheck`; empty for a failed row). Tables written before the ``source``
column still load and diff (:func:`read_published` ignores columns it does not know).

A member's row comes from its class's record: the period and the largest value are the
class's; the preperiod is ``n0 + shift`` when ``n0 > 0``, and ``max(0, shift - z)`` when the
standard form is purely periodic with ``z`` zeros closing its first period (the zeros of
the ``shift`` terminal heaps then continue the pattern).
"""

from __future__ import annotations

import base64
import csv
import html
import io
import json
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, ClassVar, Iterable, Sequence

import numpy as np

from cgtalg.census.census_html import census_html, census_repr, row_html, row_repr
from cgtalg.census.certificates import period_certificate, quotient_certificate

__all__ = ["CodeRow", "CensusRow", "CensusResult", "CensusTableResult", "Disagreement", "member_row", "read_published",
           "diff_published", "CSV_COLUMNS", "figure_png", "html_page", "csv_table"]

#: Columns of the CSV table, in order.
CSV_COLUMNS = ("code", "standard_form", "shift", "cousins", "status", "period", "preperiod",
               "last_exceptional", "max_value", "values", "limit", "genus_tail", "first_non_nim", "quotient",
               "source")


@dataclass(frozen=True)
class CodeRow:
    """The columns every census row starts with: the code, its class (``standard_form``, with
    heap ``n`` of the code heap ``n - shift`` of the standard form), its ``cousins`` (the other
    codes of the class) and its ``status``."""

    code: str
    standard_form: str
    shift: int
    cousins: tuple[str, ...]
    status: str

    __repr__ = row_repr  # one line; the notebook card: cgtalg.census.census_html
    _repr_html_ = row_html

    def csv_cells(self, d: dict, columns: Sequence[str]) -> dict:
        """The cells of ``columns`` from the row's JSON data ``d`` (cousins joined by spaces,
        ``""`` for None)."""
        d["cousins"] = " ".join(self.cousins)
        return {k: ("" if d.get(k) is None else d[k]) for k in columns}


@dataclass(frozen=True, repr=False)
class CensusRow(CodeRow):
    """One code of the census (see the module docstring for the columns)."""

    period: int | None = None
    preperiod: int | None = None
    last_exceptional: int | None = None
    max_value: int | None = None
    max_value_at: int | None = None
    values: int | None = None
    limit: str | None = None
    genus_tail: str | None = None
    first_non_nim: int | None = None
    quotient: str | None = None
    source: str | None = None
    #: what a reader checks the row's claims against (:func:`row_certificate`; JSON only)
    certificate: dict | None = field(default=None, compare=False)

    @property
    def from_store(self) -> bool:
        """Whether the row's class record was read from the store (and re-checked)."""
        from cgtalg.census.recheck import RECHECKED

        return self.source == RECHECKED

    @property
    def result(self) -> str:
        """``"solved"``, ``"unsolved to N"`` or ``"failed"``."""
        if self.status == "unsolved":
            return f"unsolved to {self.values:,}"
        return self.status

    def to_json(self) -> dict:
        d = asdict(self)
        d["cousins"] = list(self.cousins)
        d["result"] = self.result
        d["from_store"] = self.from_store
        return d

    def csv_row(self) -> dict:
        return self.csv_cells(self.to_json(), CSV_COLUMNS)


def _quotient_text(q: dict | None, shift: int) -> str | None:
    if not q:
        return None
    status = q.get("status")
    if status == "final":
        n0, p = q["period"]
        return f"final |Q|={q['order']} {q['presentation']} (Φ periodic from heap {n0 + shift}, period {p})"
    if status == "partial":
        return f"partial |Q_{q['heaps'] + shift}|={q['order']}"
    return f"{status} (heaps <= {q['heaps'] + shift})"


def member_row(code: str, shift: int, cousins: Sequence[str], standard: str, record: dict | None,
               source: str | None = None) -> CensusRow:
    """The table row of ``code`` (a member of the class of ``standard`` with ``shift``) from the
    class ``record`` (``None`` or a record with an ``error``: a ``failed`` row); ``source`` is
    ``"computed"`` or ``"reused, re-checked"`` (:mod:`cgtalg.census.recheck`).

    Examples
    --------
    >>> rec = {"normal": {"status": "solved", "period": 34, "preperiod": 52, "max_value": 9, "max_value_at": 85}}
    >>> r = member_row("0.07", 1, ["0.137"], "0.137", rec)
    >>> (r.period, r.preperiod, r.last_exceptional, r.max_value, r.result)
    (34, 53, 52, 9, 'solved')
    """
    cousins = tuple(c for c in cousins if c != code)
    if not record or "normal" not in record:
        return CensusRow(code, standard, shift, cousins, "failed", source=source)
    nr = record["normal"]
    genus = record.get("genus")
    tail = first_non_nim = None
    if genus:
        tail = " ".join(genus["sequence"][-3:])
        if genus.get("first_non_nim") is not None:
            first_non_nim = genus["first_non_nim"] + shift
    quotient = _quotient_text(record.get("quotient"), shift)
    at = nr.get("max_value_at")
    common = dict(max_value=nr.get("max_value"), max_value_at=None if at is None else at + shift,
                  genus_tail=tail, first_non_nim=first_non_nim, quotient=quotient, source=source)
    if nr["status"] == "solved":
        n0, p = int(nr["preperiod"]), int(nr["period"])
        m0 = n0 + shift if n0 > 0 else max(0, shift - int(nr.get("tail_zeros", 0)))
        cert = {"period": period_certificate(code, p, m0),
                "quotient": quotient_certificate(standard, record.get("quotient"))}
        return CensusRow(code, standard, shift, cousins, "solved", period=p, preperiod=m0,
                         last_exceptional=(m0 - 1 if m0 > 0 else None), certificate=cert, **common)
    qcert = quotient_certificate(standard, record.get("quotient"))
    return CensusRow(code, standard, shift, cousins, "unsolved", values=int(nr["values"]) + shift,
                     limit=nr.get("limit"), certificate={"period": None, "quotient": qcert} if qcert else None,
                     **common)


# -- sequences for the diff --------------------------------------------------------------------
class _Values:
    """``G`` of the standard forms, from the store when it holds them, else computed here
    (bounded by what the census computed), and of members by shifting."""

    def __init__(self, store: Any = None) -> None:
        self.store = store
        self._prefix: dict[str, np.ndarray] = {}

    def prefix(self, standard: str, n: int) -> np.ndarray:
        have = self._prefix.get(standard)
        if have is not None and have.shape[0] >= n:
            return have[:n]
        arr = None
        if self.store is not None:
            from cgtalg.rulesets.heaps.octal import TakeAndBreak

            key = TakeAndBreak(standard).sequence_key
            if self.store.sequence_length(key) >= n:
                arr = np.asarray(self.store.sequence(key, 0, n), dtype=np.int64)
                # values read back are not trusted: a sample is recomputed, else all of them
                m = min(n, SAMPLE_VALUES)
                fresh = np.asarray(TakeAndBreak(standard).grundy_sequence(m, progress=False), dtype=np.int64)
                if not np.array_equal(arr[:m], fresh):
                    import warnings

                    warnings.warn(f"the store's Grundy values of {standard} differ from the recomputed ones: "
                                  "the diff recomputes them", RuntimeWarning, stacklevel=3)
                    arr = None
        if arr is None:
            from cgtalg.rulesets.heaps.octal import TakeAndBreak

            arr = np.asarray(TakeAndBreak(standard).grundy_sequence(n, progress=False), dtype=np.int64)
        self._prefix[standard] = np.asarray(arr, dtype=np.int64)
        return self._prefix[standard][:n]

    def member(self, standard: str, shift: int, record: dict, idx: np.ndarray) -> np.ndarray:
        """``G_code`` at heaps ``idx`` (int64 array); a solved class answers any heap, an
        unsolved one heaps below its computed values (callers keep within)."""
        nr = record["normal"]
        m = idx - shift
        out = np.zeros(idx.shape, dtype=np.int64)
        pos = m >= 0
        if not pos.any():
            return out
        mm = m[pos]
        if nr["status"] == "solved":
            n0, p = int(nr["preperiod"]), int(nr["period"])
            G = self.prefix(standard, n0 + p)
            red = np.where(mm < n0 + p, mm, n0 + (mm - n0) % p)
            out[pos] = G[red]
        else:
            G = self.prefix(standard, int(mm.max()) + 1)
            out[pos] = G[mm]
        return out


# -- published tables --------------------------------------------------------------------------
_ALIASES = {
    "code": "code", "game": "code", "octal_code": "code",
    "period": "period", "p": "period",
    "preperiod": "preperiod", "pre_period": "preperiod", "n0": "preperiod",
    "last_exceptional": "last_exceptional", "last_exception": "last_exceptional",
    "last_exceptional_heap": "last_exceptional", "last_exceptional_value": "last_exceptional",
    "last": "last_exceptional",
    "max_value": "max_value", "largest_value": "max_value", "max": "max_value", "largest": "max_value",
    "max_nim_value": "max_value", "largest_nim_value": "max_value",
    "status": "status", "solved": "status", "result": "status",
    "standard_form": "standard_form", "same_as": "standard_form", "cousin": "standard_form",
    "equivalent": "standard_form", "maps_to": "standard_form",
    "values": "values", "sequence": "values",
}


def _norm(name: str) -> str:
    return "_".join(name.strip().lower().replace("-", " ").replace(".", " ").split())


def read_published(source: "str | Path | Iterable[str]") -> list[dict[str, Any]]:
    """Read a published table given as CSV (a path, or the lines of the file).

    The header names the columns; recognised (case and spacing ignored): ``code`` (needed),
    ``period``, ``preperiod``, ``last_exceptional`` (or ``last exceptional heap``),
    ``max_value`` (or ``largest value``), ``status`` (``solved``/``unsolved``...),
    ``standard_form`` (or ``same as``: the code the table says the row is equal to, up to
    cousins) and ``values`` (``G(0) G(1) ...``, separated by spaces or commas). Other
    columns are ignored; an empty cell, ``?`` or ``-`` claims nothing.

    Raises
    ------
    CensusError
        Without a ``code`` column, or with a cell that is not what its column holds.

    Examples
    --------
    >>> read_published(["code,period,last exceptional heap", "0.77,12,70"])
    [{'code': '0.77', 'period': 12, 'last_exceptional': 70, 'line': 2}]
    """
    from cgtalg.errors import CensusError

    if isinstance(source, (str, Path)):
        text = Path(source).read_text()
        lines = text.splitlines()
        where = str(source)
    else:
        lines = list(source)
        where = "the published table"
    reader, header, cols = csv_table(lines, where, _ALIASES)
    rows = []
    for lineno, cells in enumerate(reader, start=2):
        if not any(c.strip() for c in cells):
            continue
        row: dict[str, Any] = {}
        for col, cell in zip(cols, cells):
            cell = cell.strip()
            if col is None or cell in ("", "?", "-", "—"):
                continue
            try:
                if col in ("period", "preperiod", "last_exceptional", "max_value"):
                    row[col] = int(cell.replace(",", "").replace("_", ""))
                elif col == "values":
                    row[col] = [int(x) for x in cell.replace(",", " ").split()]
                elif col == "status":
                    row[col] = "solved" if cell.lower().startswith("solved") or cell.lower() in ("yes", "y") else "unsolved"
                else:
                    row[col] = cell
            except ValueError:
                raise CensusError(f"{where}, line {lineno}: {_cut(header[cols.index(col)])} cell {_cut(cell)} is not "
                                  f"{'an integer' if col != 'values' else 'a list of integers'}") from None
        if "code" not in row:
            raise CensusError(f"{where}, line {lineno}: no code")
        row["line"] = lineno
        rows.append(row)
    return rows


def csv_table(lines: Iterable[str], where: str, aliases: dict[str, str]) -> tuple[Any, list[str], list[str | None]]:
    """The CSV reader of a table's ``lines`` past its header, the header, and the column each
    header cell names (through ``aliases``, case and spacing ignored; None: a column not read).

    Raises
    ------
    CensusError
        For an empty table, or a header without a ``code`` column (``where`` names the table).
    """
    from cgtalg.errors import CensusError

    reader = csv.reader(list(lines))
    try:
        header = next(reader)
    except StopIteration:
        raise CensusError(f"{where} is empty: expected a CSV header with a 'code' column") from None
    cols = [aliases.get(_norm(h)) for h in header]
    if "code" not in cols:
        raise CensusError(f"{where}: no 'code' column in the header {_cut(header)}")
    return reader, header, cols


@dataclass(frozen=True)
class Disagreement:
    """One disagreement between a published row and the census.

    ``first_heap`` is the first heap where the sequence the published row describes differs
    from the computed one (None when no single heap shows it, e.g. a period that is a
    multiple of the least one, or a code the census did not compute); ``conclusive`` is
    False when the published claim may still hold beyond the values computed here; ``source``
    is the census row's (``computed`` or ``reused, re-checked``).
    """

    code: str
    field: str
    published: Any
    computed: Any
    first_heap: int | None
    detail: str
    conclusive: bool = True
    line: int | None = None
    source: str | None = None

    def __str__(self) -> str:
        at = f"first heap {self.first_heap}" if self.first_heap is not None else "no single heap"
        src = f" [{self.source}]" if self.source else ""
        return (f"{self.code}: {self.field} published {self.published}, computed {self.computed} ({at}): "
                f"{self.detail}{src}")

    def to_json(self) -> dict:
        return asdict(self)


#: Grundy values read from the store for the diff: this many are recomputed to check them.
SAMPLE_VALUES = 4096
#: A refutation search looks at most this many heaps.
_SEARCH_LIMIT = 1 << 26


def _period_claim(code: str, row: CensusRow, shift: int, rec: dict, vals: _Values, p_pub: int,
                  n0_pub: int | None, line: int | None) -> list[Disagreement]:
    std = row.standard_form
    out: list[Disagreement] = []
    pub = f"period {p_pub}" + (f", preperiod {n0_pub}" if n0_pub is not None else "")
    if row.status == "solved":
        p, n0 = row.period, row.preperiod
        comp = f"period {p}, preperiod {n0}"
        if p_pub == p and n0_pub in (None, n0):
            return []
        if n0_pub is None:
            if p_pub % p == 0:
                return [Disagreement(code, "period", p_pub, p, None,
                                     f"{p_pub} is a period but not the least one ({p})", True, line)]
            start = n0
        else:
            start = n0_pub
        # G(n) != G(n + p_pub) for some n >= start? For n >= n0 it depends on n mod p only.
        stop = max(start, n0) + p
        if stop - start > _SEARCH_LIMIT or p_pub > _SEARCH_LIMIT * 4:
            return [Disagreement(code, "period", pub, comp, None, "too large to search for the first heap", True, line)]
        for lo in range(start, stop, 1 << 20):
            n = np.arange(lo, min(stop, lo + (1 << 20)), dtype=np.int64)
            a, b = vals.member(std, shift, rec, n), vals.member(std, shift, rec, n + p_pub)
            bad = np.flatnonzero(a != b)
            if bad.size:
                i = int(n[bad[0]])
                field_ = "period" if p_pub != p else "preperiod"
                return [Disagreement(code, field_, pub, comp, i + p_pub,
                                     f"G({i}) = {int(a[bad[0]])} but G({i + p_pub}) = {int(b[bad[0]])}: "
                                     f"the published periodicity fails at heap {i + p_pub}", True, line)]
        # the claim G(n+p_pub) = G(n) for n >= n0_pub holds: not least?
        if n0_pub is not None and n0_pub > 0:
            m = np.array([n0_pub - 1], dtype=np.int64)
            a, b = vals.member(std, shift, rec, m), vals.member(std, shift, rec, m + p_pub)
            if a[0] == b[0]:
                out.append(Disagreement(code, "preperiod", n0_pub, n0, n0_pub - 1,
                                        f"heap {n0_pub - 1} is not exceptional: G({n0_pub - 1}) = "
                                        f"G({n0_pub - 1 + p_pub}) = {int(a[0])}", True, line))
        if p_pub != p:
            out.append(Disagreement(code, "period", p_pub, p, None,
                                    f"{p_pub} is a period but not the least one ({p})", True, line))
        return out
    # unsolved here: refute on the computed values, else the status differs
    known = row.values
    start = n0_pub if n0_pub is not None else 0
    if start + p_pub < known:
        n = np.arange(start, known - p_pub, dtype=np.int64)
        a, b = vals.member(std, shift, rec, n), vals.member(std, shift, rec, n + p_pub)
        bad = np.flatnonzero(a != b)
        if bad.size and n0_pub is not None:
            i = int(n[bad[0]])
            return [Disagreement(code, "period", pub, f"unsolved to {known:,}", i + p_pub,
                                 f"G({i}) = {int(a[bad[0]])} but G({i + p_pub}) = {int(b[bad[0]])}: "
                                 f"the published periodicity fails at heap {i + p_pub}", True, line)]
        if bad.size:  # no preperiod claimed: the tail must repeat; where it stops repeating
            i = int(n[bad[-1]])
            return [Disagreement(code, "period", pub, f"unsolved to {known:,}", None,
                                 f"G({i}) != G({i + p_pub}): no repetition with period {p_pub} "
                                 f"from any heap below {i + 1} on the values computed", False, line)]
    return [Disagreement(code, "status", f"solved ({pub})", f"unsolved to {known:,}", None,
                         f"the published period is not refuted by the {known:,} values computed, "
                         "but it is not certified here (more values are needed)", False, line)]


def diff_published(result: "CensusResult", published: "str | Path | Iterable[str] | list[dict]",
                   store: Any = None) -> list[Disagreement]:
    """Every disagreement between a published table (CSV, see :func:`read_published`) and the
    census ``result``, each with the first heap where the sequences differ.

    The published row's claims are checked against the computed sequence: a period and
    preperiod ``(p, n0)`` claim ``G(n + p) = G(n)`` for every ``n >= n0`` (and that heap
    ``n0 - 1`` is exceptional), a largest value ``M`` claims no heap exceeds it, ``values``
    claim ``G(0), G(1), ...``, a standard form or "same as" ``X`` claims the code's values are
    ``X``'s (up to the cousin shift). Values are read from ``store`` (or
    ``result.store``) when it holds them, else recomputed here.
    """
    from cgtalg.rulesets.heaps.octal import TakeAndBreak

    rows_pub = published if isinstance(published, list) and (not published or isinstance(published[0], dict)) \
        else read_published(published)
    vals = _Values(store if store is not None else result.store)
    by_code = {r.code: r for r in result.rows}
    out: list[Disagreement] = []
    for pub in rows_pub:
        line = pub.get("line")
        try:
            code = str(TakeAndBreak(pub["code"]))
        except Exception as exc:  # noqa: BLE001 - a bad code in someone else's table
            out.append(Disagreement(str(pub["code"]), "code", pub["code"], None, None, f"not a code: {exc}", True, line))
            continue
        row = by_code.get(code)
        if row is None:
            out.append(Disagreement(code, "code", code, None, None, "not in this census", True, line))
            continue
        rec = result.records.get(row.standard_form)
        if row.status == "failed" or rec is None:
            out.append(Disagreement(code, "status", pub.get("status", "?"), "failed", None,
                                    "the census has no result for this code", False, line))
            continue
        shift = row.shift
        if "standard_form" in pub:
            other = TakeAndBreak(pub["standard_form"])
            o_std, o_shift = other.standard_form()
            if str(o_std) != row.standard_form:
                n = row.values if row.status == "unsolved" else (row.preperiod or 0) + row.period + 2 * max(
                    row.preperiod or 0, 1)
                n = max(min(n, 1 << 22), 64)
                mine = vals.member(row.standard_form, shift, rec, np.arange(n, dtype=np.int64))
                theirs = np.asarray(other.grundy_sequence(n - shift + o_shift, progress=False), dtype=np.int64)
                theirs = np.concatenate([np.zeros(shift, dtype=np.int64), theirs[o_shift:]])[:n]
                bad = np.flatnonzero(mine != theirs)
                if bad.size:
                    i = int(bad[0])
                    out.append(Disagreement(code, "standard_form", pub["standard_form"], row.standard_form, i,
                                            f"G({i}) = {int(mine[i])} for {code} but {int(theirs[i])} for "
                                            f"{pub['standard_form']} (shifted as cousins)", True, line))
                else:
                    out.append(Disagreement(code, "standard_form", pub["standard_form"], row.standard_form, None,
                                            f"different standard forms ({o_std} and {row.standard_form}) whose "
                                            f"values agree on the first {n:,} heaps", False, line))
        if "values" in pub:
            claimed = np.asarray(pub["values"], dtype=np.int64)
            n = claimed.shape[0]
            if row.status == "unsolved":
                n = min(n, row.values)
            mine = vals.member(row.standard_form, shift, rec, np.arange(n, dtype=np.int64))
            bad = np.flatnonzero(mine != claimed[:n])
            if bad.size:
                i = int(bad[0])
                out.append(Disagreement(code, "values", f"G({i}) = {int(claimed[i])}", f"G({i}) = {int(mine[i])}", i,
                                        f"the published values differ first at heap {i}", True, line))
        n0_pub = pub.get("preperiod")
        if n0_pub is None and "last_exceptional" in pub:
            n0_pub = pub["last_exceptional"] + 1
        if "preperiod" in pub and "last_exceptional" in pub and pub["last_exceptional"] + 1 != pub["preperiod"]:
            out.append(Disagreement(code, "last_exceptional", pub["last_exceptional"], row.last_exceptional, None,
                                    f"the published row is inconsistent: last exceptional heap "
                                    f"{pub['last_exceptional']} but preperiod {pub['preperiod']}", True, line))
        if "period" in pub:
            out += _period_claim(code, row, shift, rec, vals, pub["period"], n0_pub, line)
        elif n0_pub is not None and row.status == "solved" and n0_pub != row.preperiod:
            out += _period_claim(code, row, shift, rec, vals, row.period, n0_pub, line)
        elif "status" in pub and pub["status"] != row.status:
            out.append(Disagreement(code, "status", pub["status"], row.result, None,
                                    "the published status differs", row.status == "solved", line))
        if "max_value" in pub and row.max_value is not None and pub["max_value"] != row.max_value:
            M = pub["max_value"]
            if row.max_value > M:
                top = row.values if row.status == "unsolved" else row.preperiod + row.period
                first = None
                for lo in range(0, top, 1 << 20):
                    n = np.arange(lo, min(top, lo + (1 << 20)), dtype=np.int64)
                    hit = np.flatnonzero(vals.member(row.standard_form, shift, rec, n) > M)
                    if hit.size:
                        first = int(n[hit[0]])
                        break
                out.append(Disagreement(code, "max_value", M, row.max_value, first,
                                        f"G({first}) = {int(vals.member(row.standard_form, shift, rec, np.array([first]))[0])}"
                                        f" exceeds the published largest value {M}", True, line))
            else:
                conclusive = row.status == "solved"
                out.append(Disagreement(code, "max_value", M, row.max_value, None,
                                        f"no heap has the value {M}" if conclusive else
                                        f"no heap below {row.values:,} has the value {M}", conclusive, line))
    return [replace(d, source=by_code[d.code].source) if d.code in by_code else d for d in out]


# -- the result --------------------------------------------------------------------------------
@dataclass(repr=False)
class CensusTableResult:
    """What a census returns (:class:`CensusResult`, and the quotient census's
    :class:`~cgtalg.census.quotient_table.QuotientCensusResult`): the rows, the class records
    and how the run went.

    Attributes
    ----------
    rows : list
        One row per code, in code order.
    records : dict
        Standard form -> class record, or ``{"error": ...}`` for a class whose task failed.
    params : the census's parameters
    digits : int or None
    computed, skipped, failed : int
        Classes computed now, read from the store (and re-checked), and failed (their codes
        have ``failed`` rows; a rerun computes them).
    seconds : float
    workers : int
        Dask workers (0 for the serial path).
    scheduler : str
    store : Store or None
    batches : int
        Store transactions that wrote class records.
    rechecks : dict
        Standard form -> {part: why} for each class record read from the store that failed
        its re-check (:mod:`cgtalg.census.recheck`) and was computed again.
    warnings : list of str
        What the census could not do but did not fail on (a record that failed its re-check
        and could not be replaced in the store).
    """

    #: Columns of the CSV table, in order (each subclass's).
    columns: ClassVar[tuple[str, ...]] = ()

    rows: list
    records: dict[str, dict]
    params: Any
    digits: int | None = None
    computed: int = 0
    skipped: int = 0
    failed: int = 0
    seconds: float = 0.0
    workers: int = 0
    scheduler: str = "serial"
    store: Any = field(default=None, repr=False)
    errors: dict[str, str] = field(default_factory=dict)
    batches: int = 0
    rechecks: dict[str, dict[str, str]] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    __repr__ = census_repr  # one line; the notebook card: cgtalg.census.census_html
    _repr_html_ = census_html

    def row(self, code: str) -> Any:
        """The row of ``code`` (any spelling of the code)."""
        from cgtalg.rulesets.heaps.octal import TakeAndBreak

        text = str(TakeAndBreak(code))
        for r in self.rows:
            if r.code == text:
                return r
        raise KeyError(f"{_cut(text)} is not in this census")

    def run_summary(self) -> str:
        """The end of the summary: classes computed and reused, failed re-checks, time and workers."""
        return (f"; {self.computed} classes computed, {self.skipped} reused from the store and re-checked"
                + (f", {len(self.rechecks)} stored record(s) failed their re-check and were recomputed"
                   if self.rechecks else "")
                + f"; {self.seconds:.1f} s on {self.workers or 'no'} worker(s) ({self.scheduler})")

    def notes(self) -> list[str]:
        """The lines after the table: each failed re-check, each warning."""
        lines = [f"re-check failed, recomputed: {std} {part}: {why}"
                 for std, parts in self.rechecks.items() for part, why in parts.items()]
        return lines + [f"warning: {w}" for w in self.warnings]

    def run_json(self) -> dict:
        """How the run went, as JSON data (part of ``to_json()["census"]``)."""
        return {"computed": self.computed, "skipped": self.skipped, "failed": self.failed,
                "seconds": round(self.seconds, 3), "workers": self.workers, "scheduler": self.scheduler,
                "batches": self.batches, "errors": dict(self.errors),
                "rechecks": {k: dict(v) for k, v in self.rechecks.items()}, "warnings": list(self.warnings)}

    def to_csv(self, path: "str | Path | None" = None) -> str:
        """The table as CSV (the columns :attr:`columns`); written to ``path`` if given."""
        buf = io.StringIO()
        w = csv.DictWriter(buf, fieldnames=list(self.columns), lineterminator="\n")
        w.writeheader()
        for r in self.rows:
            w.writerow(r.csv_row())
        text = buf.getvalue()
        if path is not None:
            Path(path).write_text(text)
        return text


def html_page(title: str, style: str, intro: str, figures: str, cols: Sequence[str], body: Sequence[str],
              path: "str | Path | None" = None) -> str:
    """A census's HTML page: ``title``, the shared style with the census's own ``style`` lines,
    the ``intro`` paragraphs (HTML), the ``figures`` (HTML), and the table of ``cols`` with the
    ``body`` rows (HTML); written to ``path`` if given."""
    page = f"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>
body {{ font-family: sans-serif; margin: 1.5em; }}
{style}
figure {{ display: inline-block; margin: 0.5em; }}
</style></head><body>
<h1>{html.escape(title)}</h1>
{intro}
{figures}
<table><thead><tr>{''.join(f'<th>{html.escape(c)}</th>' for c in cols)}</tr></thead>
<tbody>
{chr(10).join(body)}
</tbody></table>
</body></html>
"""
    if path is not None:
        Path(path).write_text(page)
    return page


@dataclass(repr=False)
class CensusResult(CensusTableResult):
    """What :func:`~cgtalg.census.octal_census` returns: the table and the class records
    (attributes of :class:`CensusTableResult`; ``rows``: :class:`CensusRow`; ``records``: the
    class records, ``normal``, ``genus``, ``quotient``, see :mod:`cgtalg.census.tasks`;
    ``params``: :class:`~cgtalg.census.tasks.CensusParams`).

    Attributes
    ----------
    hexadecimal : bool
    """

    columns: ClassVar[tuple[str, ...]] = CSV_COLUMNS

    hexadecimal: bool = False

    # -- views -------------------------------------------------------------------------
    def counts(self) -> dict[str, int]:
        """Codes and classes by status."""
        by = {"codes": len(self.rows), "classes": len(self.records), "solved": 0, "unsolved": 0, "failed": 0}
        for r in self.rows:
            by[r.status] += 1
        return by

    def summary(self) -> str:
        c = self.counts()
        what = f"{self.digits}-digit {'hexadecimal' if self.hexadecimal else 'octal'} codes" if self.digits else "codes"
        return (f"census of {c['codes']} {what} ({c['classes']} classes by standard form) to "
                f"{self.params.values:,} values: {c['solved']} solved, {c['unsolved']} unsolved"
                + (f", {c['failed']} failed" if c["failed"] else "") + self.run_summary())

    def __str__(self) -> str:
        head = f"{'code':<10} {'standard':<12} {'shift':>5} {'period':>8} {'preperiod':>9} {'last exc':>9} " \
               f"{'max':>5}  {'result':<22} source"
        lines = [self.summary(), head]
        for r in self.rows:
            lines.append(f"{r.code:<10} {r.standard_form:<12} {r.shift:>5} {_s(r.period):>8} {_s(r.preperiod):>9} "
                         f"{_s(r.last_exceptional):>9} {_s(r.max_value):>5}  {r.result:<22} {_s(r.source)}".rstrip())
        return "\n".join(lines + self.notes())

    def to_json(self) -> dict:
        """The whole census as JSON data: ``census`` (parameters and counts), ``rows``,
        ``classes`` (the records)."""
        return {
            "census": {"digits": self.digits, "hexadecimal": self.hexadecimal, "params": self.params.to_json(),
                       "counts": self.counts(), **self.run_json()},
            "rows": [r.to_json() for r in self.rows],
            "classes": self.records,
        }

    def write_json(self, path: "str | Path") -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1))

    def diff(self, published: Any, store: Any = None) -> list[Disagreement]:
        """:func:`diff_published` against this result."""
        return diff_published(self, published, store)

    def to_html(self, path: "str | Path | None" = None, title: str | None = None) -> str:
        """An HTML page: the summary, plots (matplotlib PNGs embedded as data URIs) and the
        table; written to ``path`` if given."""
        title = title or self.summary().split(":")[0]
        plots = "".join(f'<figure><img alt="{html.escape(t)}" src="data:image/png;base64,{b}"><figcaption>'
                        f"{html.escape(t)}</figcaption></figure>" for t, b in _plots(self))
        cols = ["code", "standard_form", "shift", "cousins", "result", "period", "preperiod", "last_exceptional",
                "max_value", "limit", "genus_tail", "first_non_nim", "quotient", "source"]
        body = []
        for r in self.rows:
            d = r.to_json()
            d["cousins"] = " ".join(r.cousins)
            cells = "".join(f"<td>{html.escape('' if d[c] is None else str(d[c]))}</td>" for c in cols)
            body.append(f'<tr class="{r.status}">{cells}</tr>')
        style = ("table { border-collapse: collapse; font-size: 0.85em; }\n"
                 "td, th { border: 1px solid #ccc; padding: 2px 6px; text-align: right; }\n"
                 "tr.unsolved { background: #fff4e0; } tr.failed { background: #fdd; }")
        intro = (f"<p>{html.escape(self.summary())}</p>\n"
                 f"<p>Parameters: <code>{html.escape(json.dumps(self.params.to_json()))}</code></p>")
        return html_page(title, style, intro, plots, cols, body, path)


def _cut(value: Any, limit: int = 60) -> str:
    """``repr(value)``, shortened: messages never repeat a long input in full."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _s(v: Any) -> str:
    return "" if v is None else str(v)


def figure_png(fig: Any) -> str:
    """A matplotlib ``Figure`` as a base64 PNG (Agg canvas, no display), for a data URI."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
    return base64.b64encode(buf.getvalue()).decode("ascii")


def _plots(result: CensusResult) -> list[tuple[str, str]]:
    """(caption, base64 PNG) of the summary plots (matplotlib's Agg canvas, no display)."""
    from matplotlib.figure import Figure

    png = figure_png
    out = []
    solved = [r for r in result.rows if r.status == "solved"]
    fig = Figure(figsize=(5, 4))
    ax = fig.add_subplot()
    if solved:
        ax.scatter([r.period for r in solved], [r.preperiod + 1 for r in solved], s=12, alpha=0.6)
        ax.set_xscale("log")
        ax.set_yscale("log")
    ax.set_xlabel("period p")
    ax.set_ylabel("preperiod n0 + 1")
    ax.set_title("solved codes")
    out.append(("Period and preperiod of the solved codes (log scales)", png(fig)))

    fig = Figure(figsize=(5, 4))
    ax = fig.add_subplot()
    lengths = sorted({len(r.code.split(".", 1)[1]) for r in result.rows})
    for status, colour in (("solved", "tab:green"), ("unsolved", "tab:orange"), ("failed", "tab:red")):
        ys = [sum(1 for r in result.rows if r.status == status and len(r.code.split(".", 1)[1]) == n) for n in lengths]
        bottom = [sum(1 for r in result.rows if r.status in _before(status) and len(r.code.split(".", 1)[1]) == n)
                  for n in lengths]
        ax.bar([str(n) for n in lengths], ys, bottom=bottom, color=colour, label=status)
    ax.set_xlabel("digits")
    ax.set_ylabel("codes")
    ax.legend()
    ax.set_title("codes by length and status")
    out.append(("Codes by number of digits: solved, unsolved, failed", png(fig)))

    fig = Figure(figsize=(5, 4))
    ax = fig.add_subplot()
    xs = [i for i, r in enumerate(result.rows) if r.max_value is not None]
    ys = [r.max_value for r in result.rows if r.max_value is not None]
    cs = ["tab:green" if result.rows[i].status == "solved" else "tab:orange" for i in xs]
    ax.scatter(xs, [max(y, 0.8) for y in ys], c=cs, s=10)
    ax.set_yscale("log")
    ax.set_xlabel("code (in code order)")
    ax.set_ylabel("largest Grundy value")
    ax.set_title("largest value (green solved, orange unsolved)")
    out.append(("Largest Grundy value of each code", png(fig)))
    return out


def _before(status: str) -> tuple[str, ...]:
    order = ("solved", "unsolved", "failed")
    return order[: order.index(status)]
