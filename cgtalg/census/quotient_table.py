"""The misère quotient census table: one row per code, as text, CSV, JSON and an HTML page
with a plot of the order of ``Q_n`` against ``n`` for the unsettled classes; a summary; and
the diff against another table (this census's JSON or CSV, or a published table as CSV).

Columns: ``code``, ``standard_form`` and ``shift`` (heap ``n`` of the code is heap
``n - shift`` of the standard form, as a game; heaps ``<= shift`` have no move), ``cousins``,
``status`` (``tame``: the final quotient is ``T_n``; ``wild-finite``: a final quotient that
is not; ``infinite``: ``Q_n`` is proved infinite for every ``n >= infinite_from``;
``unsettled``: neither settled within the class budget; ``failed``), ``infinite_from``
(infinite: the heap ``v`` where ``Q_n`` turns infinite; ``Q_{v-1}`` is the last finite
quotient), ``order`` (``|Q|``, or ``|Q_N|`` when infinite or unsettled), ``p_count``
(``|P|``), ``tame`` (``n`` of ``T_n``), ``preperiod`` and ``period`` of Φ, ``heaps`` (``N``:
where the periodicity theorem certified the quotient, the last finite heap ``v - 1``, or
the largest heap reached), ``generator_heaps``, ``growth`` (``heap:order`` at each heap
where the order of ``Q_n`` changes), ``presentation``, ``p_portion``, ``phi`` (Φ of heaps
``0 .. n0+p-1``), ``stopped`` (why an unsettled class stopped: ``time``, ``limit``,
``memory``, or ``normal play`` when tied to normal play: the row then states ``Q_M`` at the
least heap ``M`` that proves the tie), ``bound_heap`` and ``lower_bound`` (unsettled, when a stopped counting run
proved it: ``|Q_bound_heap| >= lower_bound``, with ``bound_heap = heaps + 1``; stated by
the construction, not re-derived by ``cgtalg check``), ``source`` (``computed`` or
``reused, re-checked``). The JSON rows also give ``bound_copies`` (the counting run's
candidate was right up to that many copies of heap ``bound_heap``; ``None`` when ``Q_bound_heap``
itself was built and verified past the order bound, ``lower_bound`` its exact order) and ``result``.

A member's row is its class's record translated by the shift: heaps, generator heaps,
growth steps, ``infinite_from`` and ``bound_heap`` move up by ``shift``, Φ gets ``shift``
identities in front (its preperiod is recomputed: the identities may continue the periodic
pattern), the monoid is the same.

Certificates (JSON rows only, :mod:`cgtalg.census.certificates`): a final row carries
``{"quotient": ...}`` (the standard form's final quotient), an infinite row
``{"infinite": ...}`` (the standard form's ``infinite-misere-quotient`` certificate,
:mod:`cgtalg.quotients.infinite`); ``cgtalg check`` re-derives the row's claims from them.
"""

from __future__ import annotations

import html
import json
import statistics
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, ClassVar, Iterable, Sequence

from cgtalg.census.certificates import infinite_row_certificate, quotient_certificate, tie_certificate
from cgtalg.census.table import (CensusTableResult, CodeRow, Disagreement, _cut, _norm, _s, csv_table, figure_png,
                                 html_page)

__all__ = ["QuotientRow", "QuotientCensusResult", "quotient_row", "read_quotient_table", "diff_quotient_tables",
           "QUOTIENT_CSV_COLUMNS", "STATUSES", "order_at"]

#: Columns of the CSV table, in order.
QUOTIENT_CSV_COLUMNS = ("code", "standard_form", "shift", "cousins", "status", "infinite_from", "order", "p_count",
                        "tame", "preperiod", "period", "heaps", "generator_heaps", "growth", "presentation",
                        "p_portion", "phi", "stopped", "bound_heap", "lower_bound", "source")
FINAL = ("tame", "wild-finite")
#: ``stopped`` of an unsettled row whose quotient is tied to normal play (finite exactly when the
#: Grundy values are bounded; :func:`cgtalg.census.certificates.tie_certificate`)
TIED = "normal play"
#: the statuses of the rows, in the order the summary gives them
STATUSES = ("tame", "wild-finite", "infinite", "unsettled", "failed")


@dataclass(frozen=True, repr=False)
class QuotientRow(CodeRow):
    """One code of the quotient census (module docstring for the columns)."""

    order: int | None = None
    p_count: int | None = None
    tame: int | None = None
    preperiod: int | None = None
    period: int | None = None
    heaps: int | None = None
    generator_heaps: tuple[int, ...] | None = None
    growth: tuple[tuple[int, int], ...] | None = None
    presentation: str | None = None
    p_portion: tuple[str, ...] | None = None
    phi: tuple[str, ...] | None = None
    stopped: str | None = None
    source: str | None = None
    error: str | None = None
    #: the certificate of the standard form to check the row against: ``{"quotient": ...}``
    #: (a final quotient) or ``{"infinite": ...}`` (:func:`~cgtalg.census.certificates.row_certificate`;
    #: JSON only)
    certificate: dict | None = field(default=None, compare=False)
    infinite_from: int | None = None
    bound_heap: int | None = None
    lower_bound: int | None = None
    bound_copies: int | None = None

    @property
    def final(self) -> bool:
        """Whether the quotient of the whole game is certified (finite)."""
        return self.status in FINAL

    @property
    def result(self) -> str:
        """``tame T_n``, ``wild-finite``, ``infinite from v``, ``unsettled at N`` or ``failed``."""
        if self.status == "tame":
            return f"tame T_{self.tame}"
        if self.status == "infinite":
            if self.infinite_from is None:        # a largest-heap rule: every Q_n finite
                return "infinite (largest-heap rule)"
            return f"infinite from {self.infinite_from}"
        if self.status == "unsettled":
            return f"unsettled at {self.heaps}"
        return self.status

    def to_json(self) -> dict:
        d = asdict(self)
        for k in ("cousins", "generator_heaps", "p_portion", "phi"):
            if d[k] is not None:
                d[k] = list(d[k])
        if d["growth"] is not None:
            d["growth"] = [list(g) for g in d["growth"]]
        d["result"] = self.result
        return d

    def csv_row(self) -> dict:
        d = self.to_json()
        for k in ("generator_heaps", "p_portion", "phi"):
            d[k] = None if d[k] is None else " ".join(map(str, d[k]))
        d["growth"] = None if self.growth is None else " ".join(f"{h}:{o}" for h, o in self.growth)
        return self.csv_cells(d, QUOTIENT_CSV_COLUMNS)


def _member_phi(phi: Sequence[str], n0: int, p: int, shift: int) -> tuple[int, tuple[str, ...]]:
    """The preperiod and Φ words (heaps ``0 .. n0'+p-1``) of a member shifted by ``shift``."""
    def at(n: int) -> str:
        if n < shift:
            return "1"
        m = n - shift
        return phi[m] if m < n0 + p else phi[n0 + (m - n0) % p]

    m0 = n0 + shift
    while m0 > 0 and at(m0 - 1) == at(m0 - 1 + p):
        m0 -= 1
    return m0, tuple(at(n) for n in range(m0 + p))


def quotient_row(code: str, shift: int, cousins: Sequence[str], standard: str, record: dict | None,
                 source: str | None = None) -> QuotientRow:
    """The row of ``code`` (a member of the class of ``standard`` with ``shift``) from the class
    ``record`` (a record of :func:`~cgtalg.census.quotients.quotient_record`, or one with an
    ``error``: a ``failed`` row).

    Examples
    --------
    >>> rec = {"status": "final", "heaps": 24, "order": 20, "p_count": 5, "tame": None, "period": [5, 5],
    ...        "phi": ["1", "a", "1", "b", "b", "a", "c", "1", "d", "e"], "generator_heaps": [1, 3, 6, 8, 9],
    ...        "growth": [[0, 1], [1, 2], [3, 6], [6, 10], [8, 14], [9, 20]]}
    >>> r = quotient_row("0.0123", 1, ["0.123"], "0.123", rec)
    >>> r.status, r.heaps, r.generator_heaps, r.growth[:3], r.preperiod, r.phi[:4]
    ('wild-finite', 25, (2, 4, 7, 9, 10), ((0, 1), (2, 2), (4, 6)), 6, ('1', '1', 'a', '1'))
    """
    cousins = tuple(c for c in cousins if c != code)
    if not record or record.get("error") or "status" not in record:
        return QuotientRow(code, standard, shift, cousins, "failed", source=source,
                           error=(record or {}).get("error"))
    if record["status"] == "infinite" and isinstance(record.get("rule"), dict):
        # a largest-heap rule of the standard form: the quotient of all heaps is infinite, while
        # no Q_n is shown infinite; the row claims no heap, no order and no last finite quotient
        return QuotientRow(code, standard, shift, cousins, "infinite", source=source,
                           certificate={"infinite": record["rule"]})
    growth = record.get("growth")
    if growth is not None:
        growth = ((0, 1),) + tuple((int(h) + shift, int(o)) for h, o in growth if int(h) > 0)
    gens = record.get("generator_heaps")
    common = dict(order=record.get("order"), p_count=record.get("p_count"), heaps=int(record["heaps"]) + shift,
                  generator_heaps=None if gens is None else tuple(int(h) + shift for h in gens), growth=growth,
                  presentation=record.get("presentation"),
                  p_portion=None if record.get("p_portion") is None else tuple(record["p_portion"]), source=source)
    if record["status"] == "final":
        n0, p = (int(x) for x in record["period"])
        phi = record.get("phi")
        if record.get("tail") and phi is not None:
            # by the normal tail: Φ as verified (heaps 0..N); n0 is far past it (the Grundy
            # preperiod), so the identities in front keep the preperiod n0 + shift
            m0, words = n0 + shift, ("1",) * shift + tuple(phi)
        else:
            m0, words = (n0 + shift, None) if phi is None else _member_phi(phi, n0, p, shift)
        tame = record.get("tame")
        qcert = quotient_certificate(standard, record)
        return QuotientRow(code, standard, shift, cousins, "tame" if tame is not None else "wild-finite",
                           tame=tame, preperiod=m0, period=p, phi=words,
                           certificate={"quotient": qcert} if qcert else None, **common)
    if record["status"] == "infinite":
        icert = infinite_row_certificate(record)
        return QuotientRow(code, standard, shift, cousins, "infinite",
                           infinite_from=int(record["infinite_from"]) + shift,
                           certificate={"infinite": icert} if icert else None, **common)
    bound = record.get("next_bound")
    if isinstance(bound, dict):
        bounds = dict(bound_heap=int(bound["heap"]) + shift, lower_bound=int(bound["at_least"]),
                      bound_copies=None if bound.get("copies") is None else int(bound["copies"]))
    else:
        bounds = {}
    # tied to normal play: what keeps it unsettled is a question of normal play; the row states
    # Q_M at the least heap M where the tie is proved (every later order follows from the Grundy
    # values), and its certificate is Q_M with the tie
    tcert = tie_certificate(standard, record)
    if tcert:
        tied = record["tied"]
        M = int(tied["heaps"])
        common.update(order=tied["order"], p_count=tied["p_count"], heaps=M + shift,
                      generator_heaps=tuple(int(h) + shift for h in tied["generator_heaps"]),
                      growth=None if growth is None else tuple(g for g in growth if g[0] <= M + shift),
                      presentation=tied["presentation"], p_portion=tuple(tied["p_portion"]))
        return QuotientRow(code, standard, shift, cousins, "unsettled", stopped=TIED,
                           certificate={"quotient": tcert}, **common)
    return QuotientRow(code, standard, shift, cousins, "unsettled", stopped=record.get("stopped"), **bounds,
                       **common)


def order_at(growth: Sequence[Sequence[int]], heap: int) -> int:
    """``|Q_heap|`` from a growth ``[[h, order], ...]`` (the order of the last step ``<= heap``).

    >>> order_at([[0, 1], [1, 2], [3, 6]], 2), order_at([[0, 1], [1, 2], [3, 6]], 9)
    (2, 6)
    """
    o = 1
    for h, x in growth:
        if int(h) > heap:
            break
        o = int(x)
    return o


# -- reading another table -------------------------------------------------------------------------
_ALIASES = {
    "code": "code", "game": "code", "octal_code": "code",
    "status": "status", "result": "status",
    "order": "order", "|q|": "order", "q": "order", "quotient_order": "order", "size": "order",
    "p_count": "p_count", "|p|": "p_count", "p": "p_count", "p_portion_size": "p_count",
    "tame": "tame", "t_n": "tame",
    "preperiod": "preperiod", "n0": "preperiod", "phi_preperiod": "preperiod",
    "period": "period", "phi_period": "period",
    "heaps": "heaps", "n": "heaps", "max_heap": "heaps",
    "growth": "growth", "presentation": "presentation",
    "infinite_from": "infinite_from",
    "bound_heap": "bound_heap", "lower_bound": "lower_bound",
}
#: columns of integers
_INTS = ("order", "p_count", "preperiod", "period", "heaps", "infinite_from", "bound_heap", "lower_bound")


def _row_of(raw: dict, where: str, line: int | None) -> dict:
    from cgtalg.errors import CensusError

    row: dict[str, Any] = {"line": line}
    for key, value in raw.items():
        col = _ALIASES.get(_norm(str(key)))
        if col is None or value is None:
            continue
        if isinstance(value, str):
            value = value.strip()
            if value in ("", "?", "-", "—"):
                continue
        try:
            if col in _INTS:
                row[col] = int(str(value).replace(",", ""))
            elif col == "tame":
                text = str(value).strip().lower()
                if text in ("no", "false", "none", "wild"):
                    row[col] = None
                else:
                    row[col] = int(text.removeprefix("t_").removeprefix("t"))
            elif col == "growth":
                pairs = value if isinstance(value, list) else [g.split(":") for g in str(value).split()]
                row[col] = [[int(h), int(o)] for h, o in pairs]
            elif col == "status":
                text = str(value).lower()
                row[col] = "unsettled" if text.startswith("unsettled") else text.split()[0]
                words = text.split()
                if row[col] == "infinite" and len(words) == 3 and words[1] == "from" and words[2].isdigit():
                    row.setdefault("infinite_from", int(words[2]))  # "infinite from v" (the result column)
            else:
                row[col] = str(value)
        except (ValueError, TypeError, AttributeError):
            raise CensusError(f"{where}, line {line}: {_cut(key)} cell {_cut(value)} is not what the column "
                              "holds") from None
    if "code" not in row:
        raise CensusError(f"{where}, line {line}: no code")
    return row


def read_quotient_table(source: "str | Path | Iterable[str] | dict") -> list[dict]:
    """Read another quotient table: this census's JSON (``--json`` output or
    :meth:`QuotientCensusResult.to_json`), its CSV, or a published table as CSV whose header
    names some of ``code`` (needed), ``order`` (or ``|Q|``), ``p_count`` (or ``|P|``),
    ``status`` (``tame``, ``wild-finite``, ``final``, ``infinite``, ``unsettled``; or the
    ``result`` text, ``infinite from v`` giving ``infinite_from`` too), ``tame`` (``n`` of
    ``T_n``), ``preperiod``, ``period``, ``heaps``, ``growth`` (``heap:order ...``),
    ``infinite_from``, ``bound_heap`` and ``lower_bound``; empty cells, ``?`` and ``-``
    claim nothing (an older table without the last three columns reads as before).

    Examples
    --------
    >>> read_quotient_table(["code,|Q|,|P|", "0.123,20,5"])
    [{'line': 2, 'code': '0.123', 'order': 20, 'p_count': 5}]
    """
    from cgtalg.errors import CensusError

    where = "the other table"
    if isinstance(source, (str, Path)):
        where = str(source)
        text = Path(source).read_text()
        if text.lstrip().startswith("{"):
            try:
                source = json.loads(text)
            except json.JSONDecodeError as exc:
                raise CensusError(f"{where} is not JSON: {exc}") from None
        else:
            source = text.splitlines()
    if isinstance(source, dict):
        rows = source.get("rows")
        if not isinstance(rows, list):
            raise CensusError(f"{where}: a JSON table has a list 'rows' (the output of --json)")
        return [_row_of(r, where, i + 1) for i, r in enumerate(rows) if isinstance(r, dict)]
    reader, header, _cols = csv_table(source, where, _ALIASES)
    out = []
    for lineno, cells in enumerate(reader, start=2):
        if any(c.strip() for c in cells):
            out.append(_row_of(dict(zip(header, cells)), where, lineno))
    return out


def diff_quotient_tables(result: "QuotientCensusResult", other: Any) -> list[Disagreement]:
    """Every disagreement between ``other`` (:func:`read_quotient_table`) and ``result``.

    Two final quotients must agree in order, ``|P|``, tameness, Φ's preperiod and period; a
    final order below the order of a partial ``Q_N`` of the other table is a contradiction
    (``|Q_n|`` never decreases); two growths must agree at every heap both reach
    (``first_heap``: the first heap where ``|Q_n|`` differs). A class settled in one table
    only, with nothing contradicting, is a disagreement that more budget may resolve
    (``conclusive=False``); so are two presentations written differently.
    """
    from cgtalg.rulesets.heaps.octal import TakeAndBreak

    rows = other if isinstance(other, list) and (not other or isinstance(other[0], dict)) \
        else read_quotient_table(other)
    mine = {r.code: r for r in result.rows}
    out: list[Disagreement] = []
    for theirs in rows:
        line = theirs.get("line")
        try:
            code = str(TakeAndBreak(theirs["code"]))
        except Exception as exc:  # noqa: BLE001 - a bad code in someone else's table
            out.append(Disagreement(str(theirs["code"]), "code", theirs["code"], None, None, f"not a code: {exc}",
                                    True, line))
            continue
        row = mine.get(code)
        if row is None:
            out.append(Disagreement(code, "code", code, None, None, "not in this census", True, line))
            continue
        if row.status == "failed":
            out.append(Disagreement(code, "status", theirs.get("status", "?"), "failed", None,
                                    "this census has no result for this code", False, line))
            continue
        out += _diff_row(code, theirs, row, line)
    return [replace(d, source=mine[d.code].source) if d.code in mine else d for d in out]


def _diff_row(code: str, theirs: dict, row: QuotientRow, line: int | None) -> list[Disagreement]:
    out: list[Disagreement] = []
    status = theirs.get("status")
    t_final = status in (*FINAL, "final") or (status is None and theirs.get("period") is not None)
    t_infinite = status == "infinite" or (status is None and theirs.get("infinite_from") is not None)
    t_unsettled = status == "unsettled"
    mine_top = None if row.final else row.heaps
    t_growth = theirs.get("growth")
    t_top = theirs.get("heaps") if t_unsettled or t_infinite else None
    if t_growth and row.growth:
        top = min(x for x in (mine_top, t_top) if x is not None) if (mine_top, t_top) != (None, None) else None
        heaps = sorted({int(h) for h, _o in t_growth} | {h for h, _o in row.growth})
        if top is not None:
            heaps = [h for h in heaps if h <= top]
        for h in heaps:
            a, b = order_at(t_growth, h), order_at(row.growth, h)
            if a != b:
                out.append(Disagreement(code, "growth", f"|Q_{h}| = {a}", f"|Q_{h}| = {b}", h,
                                        f"the order of Q_{h} differs", True, line))
                break
    if t_infinite or row.status == "infinite":
        out += _diff_infinite(code, theirs, row, t_final, t_infinite, t_unsettled, line)
    elif t_final and row.final:
        for f in ("order", "p_count", "preperiod", "period", "tame"):
            if f in theirs and theirs[f] != getattr(row, f):
                out.append(Disagreement(code, f, theirs[f], getattr(row, f), None,
                                        f"the final quotients differ in {f}", True, line))
        if status in FINAL and status != row.status and "tame" not in theirs:
            out.append(Disagreement(code, "status", status, row.status, None, "tame in one table only", True, line))
        pres = theirs.get("presentation")
        if pres and row.presentation and pres != row.presentation:
            out.append(Disagreement(code, "presentation", pres, row.presentation, None,
                                    "the presentations are written differently (the monoids may still be "
                                    "isomorphic)", False, line))
    elif t_final != row.final:
        final_order = theirs.get("order") if t_final else row.order
        partial_order = row.order if t_final else theirs.get("order")
        if final_order is not None and partial_order is not None and partial_order > final_order:
            out.append(Disagreement(code, "order", theirs.get("order"), row.order, None,
                                    f"a partial quotient of order {partial_order} exceeds the final order "
                                    f"{final_order} (|Q_n| never decreases)", True, line))
        elif t_final or t_unsettled:
            out.append(Disagreement(code, "status", status or "final", row.result, None,
                                    "settled in one table only (a larger class budget may settle it)", False, line))
    return out + _diff_bounds(code, theirs, row, t_final, t_growth, t_top, line)


def _diff_infinite(code: str, theirs: dict, row: QuotientRow, t_final: bool, t_infinite: bool,
                   t_unsettled: bool, line: int | None) -> list[Disagreement]:
    """One table (or both) proves ``Q_n`` infinite from a heap ``v``: a final quotient, or a
    finite ``Q_N`` with ``N >= v``, in the other contradicts it; two proofs must agree on ``v``
    and on the last finite quotient ``Q_{v-1}``."""
    def d(field: str, a: Any, b: Any, why: str, conclusive: bool = True) -> Disagreement:
        return Disagreement(code, field, a, b, None, why, conclusive, line)

    status = theirs.get("status") or ("infinite" if t_infinite else "final" if t_final else None)
    if t_infinite and row.status == "infinite":
        v = theirs.get("infinite_from")
        if v is not None and v != row.infinite_from:
            return [d("infinite_from", v, row.infinite_from, "the quotients are proved infinite from different heaps")]
        return [d(f, theirs[f], getattr(row, f), f"the last finite quotients Q_{row.heaps} differ in {f}")
                for f in ("order", "p_count") if f in theirs and theirs[f] != getattr(row, f)]
    if t_final or row.final:
        return [d("status", status, row.result, "a finite quotient of the whole game in one table, proved "
                  "infinite in the other")]
    # one table proves Q_v infinite, the other has a finite partial Q_N (or nothing settled)
    if t_infinite:
        v, last, n, n_order = theirs.get("infinite_from"), theirs.get("order"), row.heaps, row.order
    else:
        v, last, n, n_order = row.infinite_from, row.order, theirs.get("heaps"), theirs.get("order")
    if v is None or n is None:
        pass
    elif n >= v:
        return [d("status", status, row.result, f"Q_{n} is a finite (verified) quotient in one table, but Q_n is "
                  f"proved infinite from heap {v} in the other")]
    elif last is not None and n_order is not None and (n_order > last or (n == v - 1 and n_order != last)):
        return [d("order", theirs.get("order"), row.order, f"the partial quotient Q_{n} of order {n_order} does "
                  f"not fit the last finite quotient Q_{v - 1} of order {last} (|Q_n| never decreases)")]
    if t_infinite or t_unsettled:
        return [d("status", status, row.result, "proved infinite in one table only (a larger class budget may "
                  "prove it)", False)]
    return []


def _diff_bounds(code: str, theirs: dict, row: QuotientRow, t_final: bool, t_growth: Any, t_top: Any,
                 line: int | None) -> list[Disagreement]:
    """A lower bound ``|Q_H| >= L`` of one table against an order of ``Q_H`` the other knows."""
    out: list[Disagreement] = []
    h, low = theirs.get("bound_heap"), theirs.get("lower_bound")
    if h is not None and low is not None and row.growth and (row.final or h <= (row.heaps or 0)):
        known = order_at(row.growth, h)
        if known < low:
            out.append(Disagreement(code, "lower_bound", f"|Q_{h}| >= {low}", f"|Q_{h}| = {known}", h,
                                    "the lower bound exceeds the order of the verified quotient", True, line))
    h, low = row.bound_heap, row.lower_bound
    if h is not None and low is not None:
        known = None
        if t_growth and (t_final or (t_top is not None and h <= t_top)):
            known = order_at(t_growth, h)
        elif t_final and theirs.get("order") is not None:
            known = theirs["order"]     # |Q_h| <= |Q| for every h
        if known is not None and known < low:
            out.append(Disagreement(code, "lower_bound", f"|Q_{h}| <= {known}", f"|Q_{h}| >= {low}", h,
                                    "the order of the other table's quotient is below this table's lower bound",
                                    True, line))
    return out


# -- the result ------------------------------------------------------------------------------------
@dataclass(repr=False)
class QuotientCensusResult(CensusTableResult):
    """What :func:`~cgtalg.census.quotient_census` returns: the table and the class records
    (attributes of :class:`~cgtalg.census.table.CensusTableResult`; ``rows``:
    :class:`QuotientRow`; ``records``: standard form -> class record,
    :func:`~cgtalg.census.quotients.quotient_record` with ``seconds`` and ``worker`` of this
    run; ``params``: :class:`~cgtalg.census.quotients.QuotientParams`; ``rechecks``: standard
    form -> {"quotient": why}).

    Attributes
    ----------
    d0 : int
        The first digit of the codes (0 or 4).
    """

    columns: ClassVar[tuple[str, ...]] = QUOTIENT_CSV_COLUMNS

    d0: int = 0

    def counts(self) -> dict:
        """Codes and classes by status (:data:`STATUSES`), the tame classes by ``T_n``, the
        infinite classes (``from``: standard form -> the heap ``v`` where ``Q_n`` turns
        infinite, in the standard form's coordinates), and the heaps ``N`` the unsettled
        classes reached (``with_bound``: how many carry a proved lower bound on ``|Q_{N+1}|``)."""
        by: dict[str, Any] = {"codes": len(self.rows), "classes": len(self.records)}
        for status in STATUSES:
            by[status] = {"codes": sum(1 for r in self.rows if r.status == status),
                          "classes": len({r.standard_form for r in self.rows if r.status == status})}
        tn: dict[str, int] = {}
        classes = self._class_rows()
        for std, r in classes.items():
            if r.status == "tame":
                tn[f"T_{r.tame}"] = tn.get(f"T_{r.tame}", 0) + 1
        by["tame"]["by_n"] = dict(sorted(tn.items()))
        from cgtalg.census.codes import code_sort_key

        by["infinite"]["from"] = {std: r.infinite_from for std, r in sorted(classes.items(),
                                                                           key=lambda kv: code_sort_key(kv[0]))
                                  if r.status == "infinite"}
        ns = sorted(r.heaps for r in classes.values() if r.status == "unsettled")
        by["unsettled"]["N"] = {"min": ns[0], "median": statistics.median(ns), "max": ns[-1]} if ns else None
        by["unsettled"]["by_N"] = _buckets(ns)
        by["unsettled"]["with_bound"] = sum(1 for r in classes.values()
                                            if r.status == "unsettled" and r.lower_bound is not None)
        return by

    def _class_rows(self) -> dict[str, QuotientRow]:
        """The row of each class's standard form (shift 0) in its own coordinates."""
        out = {}
        for r in self.rows:
            if r.standard_form not in out or r.shift == 0:
                out[r.standard_form] = r if r.shift == 0 else quotient_row(
                    r.standard_form, 0, (), r.standard_form, self.records.get(r.standard_form), r.source)
        return out

    def summary(self) -> str:
        c = self.counts()
        what = (f"{self.digits}-digit{' 4.' if self.d0 == 4 else ''} octal codes" if self.digits else "codes")
        parts = []
        for status in STATUSES:
            k = c[status]
            if status == "failed" and not k["classes"]:
                continue
            text = f"{k['classes']} {status} ({k['codes']} codes)"
            if status == "tame" and k["by_n"]:
                text += " [" + ", ".join(f"{n}: {m}" for n, m in k["by_n"].items()) + "]"
            if status == "infinite" and k["from"]:
                shown = [f"{std} from {v}" if v is not None else f"{std} (rule)" for std, v in k["from"].items()]
                text += " [" + ", ".join(shown[:12]) + (", ..." if len(shown) > 12 else "") + "]"
            if status == "unsettled" and k["N"]:
                text += f" at N = {k['N']['min']}..{k['N']['max']} (median {k['N']['median']:g})"
            parts.append(text)
        return (f"misère quotient census of {c['codes']} {what} ({c['classes']} classes by standard form; class "
                f"budget {self.params.class_seconds:g} s, order <= {self.params.max_order}): " + ", ".join(parts)
                + self.run_summary())

    def __str__(self) -> str:
        head = (f"{'code':<10} {'standard':<10} {'shift':>5}  {'result':<16} {'|Q|':>5} {'|P|':>4} {'n0':>4} {'p':>3} "
                f"{'N':>4}  {'generator heaps':<22} presentation")
        lines = [self.summary(), head]
        for r in self.rows:
            gens = "" if r.generator_heaps is None else " ".join(map(str, r.generator_heaps))
            pres = "" if r.presentation is None else _cut_text(r.presentation, 70)
            lines.append(f"{r.code:<10} {r.standard_form:<10} {r.shift:>5}  {r.result:<16} {_s(r.order):>5} "
                         f"{_s(r.p_count):>4} {_s(r.preperiod):>4} {_s(r.period):>3} {_s(r.heaps):>4}  "
                         f"{_cut_text(gens, 22):<22} {pres}".rstrip())
        return "\n".join(lines + self.notes())

    def to_json(self) -> dict:
        """``census`` (parameters, counts, run), ``rows``, ``classes`` (the records)."""
        return {
            "census": {"kind": "misere quotient", "digits": self.digits, "d0": self.d0,
                       "params": self.params.to_json(), "counts": self.counts(), "summary": self.summary(),
                       **self.run_json(), "cgtalg": _version()},
            "rows": [r.to_json() for r in self.rows],
            "classes": self.records,
        }

    def diff(self, other: Any) -> list[Disagreement]:
        """:func:`diff_quotient_tables` against this result."""
        return diff_quotient_tables(self, other)

    def to_html(self, path: "str | Path | None" = None, title: str | None = None) -> str:
        """An HTML page: the summary, the plot of ``|Q_n|`` against ``n`` for the unsettled
        classes (a matplotlib PNG inside the page) and the table; written to ``path`` if given."""
        title = title or "Misère quotient census"
        plot = _growth_plot(self)
        fig = (f'<figure><img alt="order of Q_n against n, unsettled classes" src="data:image/png;base64,{plot}">'
               "<figcaption>Order of the partial quotient Q_n against the heap n, for each unsettled class "
               "(standard forms; logarithmic scales)</figcaption></figure>") if plot else ""
        cols = ["code", "standard_form", "shift", "cousins", "result", "order", "p_count", "preperiod", "period",
                "heaps", "generator_heaps", "growth", "presentation", "p_portion", "lower_bound", "source"]
        body = []
        for r in self.rows:
            d = r.csv_row()
            d["result"] = r.result
            if r.lower_bound is not None:
                d["lower_bound"] = f"|Q_{r.bound_heap}| ≥ {r.lower_bound}"
            cells = "".join(f"<td>{html.escape(str(d.get(c, '')))}</td>" for c in cols)
            body.append(f'<tr class="{r.status}">{cells}</tr>')
        style = ("table { border-collapse: collapse; font-size: 0.8em; }\n"
                 "td, th { border: 1px solid #ccc; padding: 2px 6px; text-align: left; vertical-align: top; }\n"
                 "tr.unsettled { background: #fff4e0; } tr.failed { background: #fdd; } tr.tame { background: #f2fbf2; }\n"
                 "tr.infinite { background: #eef2ff; }")
        infinite = self.counts()["infinite"]["from"]
        listed = ("<p>Proved infinite (standard form: <code>Q_n</code> infinite for every <code>n &ge; v</code>): "
                  + ", ".join(f"{html.escape(std)} from {v}" if v is not None else f"{html.escape(std)} (largest-heap rule)"
                              for std, v in infinite.items()) + "</p>\n"
                  if infinite else "")
        intro = (f"<p>{html.escape(self.summary())}</p>\n{listed}"
                 f"<p>cgtalg {html.escape(_version())}; parameters: "
                 f"<code>{html.escape(json.dumps(self.params.to_json()))}</code></p>")
        return html_page(title, style, intro, fig, cols, body, path)


def _version() -> str:
    import cgtalg

    return str(getattr(cgtalg, "__version__", "?"))


def _cut_text(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _buckets(ns: list[int]) -> dict[str, int]:
    """How many unsettled classes stopped at heaps ``N`` in ``< 16``, ``16-31``, ``32-63``, ..."""
    out: dict[str, int] = {}
    for n in ns:
        lo = 0 if n < 16 else 1 << (n.bit_length() - 1)
        key = "<16" if lo == 0 else f"{lo}-{2 * lo - 1}"
        out[key] = out.get(key, 0) + 1
    return out


def _growth_plot(result: QuotientCensusResult) -> str | None:
    """A base64 PNG: ``|Q_n|`` against ``n`` (step plot, log scale) of each unsettled class."""
    from matplotlib.figure import Figure

    classes = {std: r for std, r in result._class_rows().items() if r.status == "unsettled" and r.growth}
    if not classes:
        return None
    fig = Figure(figsize=(8, 5))
    ax = fig.add_subplot()
    for std, r in sorted(classes.items()):
        xs = [h for h, _o in r.growth] + [r.heaps]
        ys = [o for _h, o in r.growth] + [r.growth[-1][1]]
        ax.step(xs, ys, where="post", lw=0.8, alpha=0.7, label=std)
    ax.set_yscale("log")
    ax.set_xscale("symlog", linthresh=16)  # most classes stop below heap 64, a few go past 2000
    ax.set_xlim(left=0)
    ax.set_xlabel("heap n (linear to 16, logarithmic after)")
    ax.set_ylabel("order of Q_n")
    ax.set_title(f"{len(classes)} unsettled classes")
    if len(classes) <= 12:
        ax.legend(fontsize=7)
    return figure_png(fig)
